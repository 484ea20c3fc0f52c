#!/usr/bin/env python3
"""The floor for `tp acts sync` raising many acts: the same number of record
files, each a small JSON record written to a new file, then one sync of the
filesystem — the file work a registrar cannot skip, with none of its rules
(no parsing, no keys, no validation, no document written back).

usage: scripts/acts-raise-floor.py DIR [N]   # N records (default 3,332: the
                                             # owner lines of the 10,000-line
                                             # document scripts/bench-acts-raise.sh makes)
"""
import json, os, sys

d = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 3332
os.makedirs(os.path.join(d, "records"), exist_ok=True)
for i in range(n):
    rec = json.dumps({"ph": "0.3", "ext": "acts/0.3", "id": f"r:task-bench-{i:010x}", "type": "raised",
                      "origin": "registrar", "key": f"task-bench-{i:010x}", "project": "bench",
                      "ts": "2026-12-02T03:13:03Z",
                      "terms": {"text": f"Approve item number {i} of the quarterly plan", "rev": 1}}, indent=2)
    fd = os.open(os.path.join(d, "records", f"r-{i:010x}.json"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, rec.encode())
    os.close(fd)
os.sync()
