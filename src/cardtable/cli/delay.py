"""The bound of ``--delay``, shared by the games' command lines.

``time.sleep`` and the event loop's timers refuse (with ``OverflowError``) pauses past what the
system clock can count, and nobody waits a day between two moves: a longer delay is refused
when the program starts rather than in the middle of a game.
"""

MAX_DELAY_SECONDS = 86400.0


def too_long_text() -> str:
    """"at most 86400 seconds (one day)", for the option's message."""
    return f"at most {MAX_DELAY_SECONDS:g} seconds (one day)"
