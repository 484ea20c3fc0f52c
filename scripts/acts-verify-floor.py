#!/usr/bin/env python3
"""The floor for `tp acts verify` (BENCHMARKS.md, issue 15): read every file
of a project's record log and hash it with SHA-256, as verify must read it
before it checks anything. Usage: acts-verify-floor.py ACTS_DIR PROJECT_FOLDER"""
import hashlib
import os
import sys

acts, project = sys.argv[1], sys.argv[2]
n = 0
h = hashlib.sha256()
for sub in ("records", "acked", "principals"):
    d = os.path.join(acts, project, sub)
    if not os.path.isdir(d):
        continue
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
        n += 1
print(n, h.hexdigest())
