"""Helpers for writing the acts conformance fixtures by hand.

Keys are computed here with Python's hashlib, independently of the Go code,
from the §6.2 recipe; everything else in the fixtures is written out from
the spec, case by case.
"""
import hashlib, json, os

# Unicode White_Space=yes (spec §6.1), listed explicitly: Python's
# str.split() also splits on U+001C..U+001F, which are not White_Space.
WS = set([0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680] + list(range(0x2000, 0x200B)) +
         [0x2028, 0x2029, 0x202F, 0x205F, 0x3000])


def normalise(text):
    out, cur = [], []
    for ch in text:
        if ord(ch) in WS:
            if cur:
                out.append("".join(cur)); cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return " ".join(out)


def key(text, project="garden"):
    return "task-%s-%s" % (project, hashlib.sha1(normalise(text).encode("utf-8")).hexdigest()[:10])


def en_marker(k):
    return " (waiting on owner: %s)" % k


def zh_marker(k, tag="Owner"):
    return "(等 %s:%s)" % (tag, k)


ZH = {"profile": "zh-hant", "params": {"principal_tag": "Owner"}}
EN = {"profile": "en"}


def zh(tag="Owner"):
    return {"profile": "zh-hant", "params": {"principal_tag": tag}}


def doc(*lines):
    return "".join(l + "\n" for l in lines)


def base(project="garden", ts="2026-11-02T09:00:00Z"):
    return {"ph": "0.3", "ext": "acts/0.3", "project": project, "ts": ts}


def raised(k, text, project="garden", ts="2026-11-01T09:00:00Z"):
    r = base(project, ts)
    r.update({"id": "r:" + k, "type": "raised", "origin": "requester", "by": "registrar:" + project, "key": k,
              "terms": {"text": text}, "terms_rev": 1})
    return r


def amended(k, text, rev, supersedes, project="garden", ts="2026-11-01T10:00:00Z"):
    r = base(project, ts)
    r.update({"id": "a:%s:%d" % (k, rev), "type": "amended", "origin": "requester", "by": "registrar:" + project, "key": k,
              "terms": {"text": text}, "terms_rev": rev, "supersedes": [supersedes]})
    return r


def withdrawn(k, supersedes, project="garden", ts="2026-11-01T11:00:00Z"):
    r = base(project, ts)
    r.update({"id": "w:%s" % k, "type": "withdrawn", "origin": "requester", "by": "agent:coder", "key": k,
              "reason": "not_needed", "supersedes": [supersedes]})
    return r


def settled(id, k, outcome="done", supersedes=None, project="garden", ts="2026-11-02T09:00:00Z", rev=1):
    r = base(project, ts)
    r.update({"id": id, "type": "settled", "origin": "principal", "by": "ps:assistant", "key": k, "outcome": outcome,
              "authority": {"kind": "principal", "decider": "p:owner"}, "terms_rev": rev})
    if supersedes:
        r["supersedes"] = [supersedes]
    return r


def reopened(id, k, supersedes, restore, project="garden", ts="2026-11-03T09:00:00Z"):
    r = base(project, ts)
    r.update({"id": id, "type": "reopened", "origin": "principal", "by": "ps:assistant", "key": k,
              "supersedes": [supersedes], "restore_text": restore})
    return r


def claimed(id, k, origin="registrar", outcome="done", project="garden", ts="2026-11-02T10:00:00Z"):
    r = base(project, ts)
    r.update({"id": id, "type": "claimed", "origin": origin, "by": "registrar:" + project if origin == "registrar" else "agent:coder",
              "key": k, "outcome": outcome, "evidence": {"basis": "the line was deleted in commit 1a2b3c"}})
    return r


def note(id, k, project="garden"):
    r = base(project)
    r.update({"id": id, "type": "note", "origin": "principal", "by": "ps:assistant", "key": k,
              "about": {"quote": "called them"}})
    return r


def related(id, k, target, project="garden"):
    r = base(project)
    r.update({"id": id, "type": "related", "origin": "principal", "by": "ps:assistant", "key": k,
              "relation": "same_as", "target": target})
    return r


def write(name, cases):
    names = set()
    for c in cases:
        assert c["name"] not in names, c["name"]
        names.add(c["name"])
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "conformance", name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"cases": cases}, f, ensure_ascii=False, indent=2)
        f.write("\n")
    print("%s: %d cases" % (name, len(cases)))
