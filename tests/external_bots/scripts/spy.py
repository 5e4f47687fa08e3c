"""A random bot that writes every line it receives to LOG (argv[1]), for the leak tests.

With a second argument it also writes its process id to that file, and with a third, the
process id of a child it starts (which must not outlive the table either).
"""

import json
import os
import random
import subprocess
import sys

log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 - open for the whole run
rng = random.Random(7)
if len(sys.argv) > 2:
    with open(sys.argv[2], "w", encoding="utf-8") as pids:
        pids.write(f"{os.getpid()}\n")
        if len(sys.argv) > 3:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
            pids.write(f"{child.pid}\n")
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "spy"}), flush=True)
    elif message["type"] == "turn":
        delay = float(os.environ.get("SPY_DELAY", "0"))
        if delay:
            import time
            time.sleep(delay)
        print(json.dumps({"type": "info", "text": "thinking"}), flush=True)
        print(json.dumps({"type": "move", "move": rng.choice(message["legal"])}), flush=True)
    elif message["type"] == "quit":
        break
