"""Plain line mode: text in, text out, works through pipes. No terminal control codes."""
