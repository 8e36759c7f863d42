#!/usr/bin/env python3
"""A system under test of an older driver protocol: `older_protocol.py KCSPEC NEWEST [KIND ...]`
speaks versions 1 to NEWEST (an init for a newer one is answered `unsupported_protocol`) and, given
KINDs, lists only those in init_ok's "actions" (docs/driver-protocol.md). `kcspec drive --mode
replay` must say that a scenario with a step the SUT's version or its list lacks cannot be
replayed on it (exit 2), never send that step. Every other request goes to `kcspec sut` (KCSPEC),
which it runs, so its observations are the reference's."""
import json
import subprocess
import sys

newest = int(sys.argv[2])
kinds = sys.argv[3:]
reference = subprocess.Popen([sys.argv[1], "sut"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "init" and message.get("protocol", 1) > newest:
        reply = {"type": "error", "id": message["id"], "code": "unsupported_protocol",
                 "message": f"I speak 1 to {newest}"}
        print(json.dumps(reply), flush=True)
        continue
    reference.stdin.write(line)
    reference.stdin.flush()
    reply_line = reference.stdout.readline()
    if message.get("type") == "init" and kinds:
        reply = json.loads(reply_line)
        reply["actions"] = kinds
        reply_line = json.dumps(reply) + "\n"
    print(reply_line, end="", flush=True)
    if message.get("type") == "quit":
        break
