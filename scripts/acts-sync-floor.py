#!/usr/bin/env python3
"""The floor for `tp acts sync` of a rewritten state document (BENCHMARKS.md,
issue 15): what the registrar must do at least, and nothing of its rules —
read every record of the project's log, read the document's tasks section,
derive each owner line's key (Acts 0.3 §6.2: sha1 of the normalised text),
write a `raised` for each new line and a `claimed` for each act whose line
is gone, one file each (temp + rename, one sync at the end), then the
stamped document (temp, fsync, rename). No rewrite comparison, no schema,
no lifecycle. Usage: acts-sync-floor.py ACTS_DIR PROJECT DOCUMENT"""
import hashlib
import json
import os
import re
import sys

acts, project, doc = sys.argv[1], sys.argv[2], sys.argv[3]
rec_dir = os.path.join(acts, project, "records")
known = {}
for name in os.listdir(rec_dir):
    with open(os.path.join(rec_dir, name), "rb") as f:
        r = json.loads(f.read())
    if r.get("type") == "raised":
        known[r["key"]] = r
with open(doc, encoding="utf-8") as f:
    lines = f.read().split("\n")
owner = re.compile(r"^- \[ \] \[owner\] (.*?)(?: \(waiting on owner: (\S+)\))?$")
ts = "2026-12-02T00:00:00Z"
out, seen, written = [], set(), []
in_tasks = False
for line in lines:
    if line.startswith("## "):
        in_tasks = line.strip() == "## Tasks"
    m = owner.match(line) if in_tasks else None
    if not m:
        out.append(line)
        continue
    text, key = " ".join(m.group(1).split()), m.group(2)
    if key is None:
        key = "task-%s-%s" % (project, hashlib.sha1(text.encode()).hexdigest()[:10])
        if key not in known:
            written.append({"ph": "0.3", "ext": "acts/0.3", "id": "r:" + key, "type": "raised", "origin": "requester",
                            "by": "registrar:" + project, "key": key, "project": project, "ts": ts,
                            "terms": {"text": text}, "terms_rev": 1})
        line = "- [ ] [owner] %s (waiting on owner: %s)" % (text, key)
    seen.add(key)
    out.append(line)
for key, r in known.items():
    if key not in seen:
        written.append({"ph": "0.3", "ext": "acts/0.3", "id": "c:%s:r0" % key, "type": "claimed", "origin": "registrar",
                        "by": "registrar:" + project, "key": key, "project": project, "ts": ts, "outcome": "done",
                        "evidence": {"basis": "the line %s is no longer in the tasks section" % json.dumps(r["terms"]["text"])}})
for r in written:
    name = r["id"].replace(":", "~3a") + ".json"
    tmp = os.path.join(rec_dir, ".tmp-" + name)
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(r, indent=2, ensure_ascii=False) + "\n")
    os.rename(tmp, os.path.join(rec_dir, name))
os.sync()
tmp = doc + ".tmp"
with open(tmp, "w", encoding="utf-8") as f:
    f.write("\n".join(out))
    f.flush()
    os.fsync(f.fileno())
os.rename(tmp, doc)
print(len(written), "records written")
