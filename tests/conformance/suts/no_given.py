#!/usr/bin/env python3
"""A system under test that speaks protocol 2 but cannot start from a given world: it answers
`given` with `unsupported` (docs/driver-protocol.md). `kcspec drive --scenario` must say that the
run cannot be made with it (exit 2), not report a finding. Its observations are the reference's:
every other request goes to `kcspec sut` (argv[1]), which it runs."""
import json
import subprocess
import sys

reference = subprocess.Popen([sys.argv[1], "sut"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "given":
        reply = {"type": "error", "id": message["id"], "code": "unsupported",
                 "message": "this SUT starts from the configuration's initial state only"}
        print(json.dumps(reply), flush=True)
        continue
    reference.stdin.write(line)
    reference.stdin.flush()
    print(reference.stdout.readline(), end="", flush=True)
    if message.get("type") == "quit":
        break
