"""Command-line entry points. Thin: parse arguments, build rules and seats, run the match loop."""
