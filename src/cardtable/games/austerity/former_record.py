"""Austerity hub records of the former dialect, checked and upgraded to the one format.

The hub's former records held one ``ev`` object per event of its conversation: ``start``
(version 1, tokens, points, the deck, the player programs), ``send``, ``recv`` (``valid`` or
not), ``out``, ``timeout`` and ``end`` (its reason, exit status, winners, points and each
program's status). Those are the events the hub gives its recorder today, so
:data:`AUSTERITY_FORMER` upgrades such a record by giving them, in order, to the same recorder
(:class:`~cardtable.games.austerity.record.RecordLines`), and checks it as the hub record's
replay does (:func:`~cardtable.games.austerity.record.replay_hub_record`), every line named
by its number in the file. A record that stops before its ``end`` line stays so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.engine.record import ReplayLineError
from cardtable.engine.record_upgrade import Upgraded, UpgradeError
from cardtable.games.austerity.record import (
    GAME_NAME,
    RECORD_VERSION,
    HubRecord,
    RecordLines,
    deck_cards,
    replay_hub_record,
    shown_card,
)

MALFORMED = "malformed line"


class AusterityFormer:
    """The reader of the hub's former record dialect (``GameDescription.former_records``)."""

    def recognizes(self, first: Mapping[str, Any]) -> bool:
        return first.get("ev") == "start"

    def upgrade(self, path: str, lines: Sequence[str]) -> Upgraded:
        objects: list[tuple[int, dict[str, Any]]] = []
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except ValueError:
                raise UpgradeError(path, number, MALFORMED) from None
            if not isinstance(obj, dict) or not isinstance(obj.get("ev"), str):
                raise UpgradeError(path, number, MALFORMED)
            objects.append((number, obj))
        if not objects:
            raise UpgradeError(path, 1, "the record is empty")
        number, start = objects[0]
        deck = deck_cards(start.get("deck"))
        players = start.get("players")
        tokens, points = start.get("tokens"), start.get("points")
        if (start.get("version") != RECORD_VERSION or start["ev"] != "start" or deck is None
                or not isinstance(players, list) or not isinstance(tokens, int)
                or not isinstance(points, int)):
            raise UpgradeError(path, number,
                               "a start line of version 1 with tokens, points, deck and players")
        recorder = RecordLines()
        sources: list[int] = []
        actions: list[tuple[int, str, str]] = []
        shown: list[tuple[int, str, str]] = []
        result: tuple[int, dict[str, object]] | None = None
        for number, obj in objects:
            if result is not None:
                raise UpgradeError(path, number, "a line after the end line")
            event = str(obj["ev"])
            card = shown_card({**obj, "event": event})
            if card is not None:
                shown.append((number, *card))
            if event == "recv" and obj.get("valid") is True:
                actions.append((number, str(obj.get("from")), str(obj.get("msg"))))
            written = len(recorder.lines)
            recorder.write(event, **{key: value for key, value in obj.items() if key != "ev"})
            sources += [number] * (len(recorder.lines) - written)
            if event == "end":
                result = (number, recorder.lines[-1])
        hub = HubRecord(path, tokens, points, deck, [str(player) for player in players],
                        actions, result, len(lines) + 1, objects[0][0], shown)
        try:
            replay_hub_record(hub)
        except ReplayLineError as error:
            # A record cut short (no end line) is upgraded as it is: cut short.
            if result is not None or error.line != hub.end_line:
                raise UpgradeError(path, error.line, error.reason) from None
        return Upgraded(GAME_NAME, tuple(recorder.lines), tuple(sources))


AUSTERITY_FORMER = AusterityFormer()
