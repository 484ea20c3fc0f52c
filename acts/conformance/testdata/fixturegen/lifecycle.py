from common import *

cases = []


def case(name, records, status, outcome, need, rev, text):
    cases.append({"name": name, "records": records,
                  "state": {"status": status, "outcome": outcome, "need": need, "terms_rev": rev, "text": text}})


T = "Collect the shed key"
k = key(T)
r = raised(k, T)
a2 = amended(k, "Collect the spare key", 2, "r:" + k)
a3 = amended(k, "Collect both keys", 3, "a:%s:2" % k, ts="2026-11-01T12:00:00Z")
s1 = settled("s-1", k)
o1 = reopened("o-1", k, "s-1", T)
s2 = settled("s-2", k, "dropped", supersedes="o-1", ts="2026-11-04T09:00:00Z")
w = withdrawn(k, "r:" + k)

case("just raised", [r], "open", None, "active", 1, T)
case("amended twice, any order", [a3, r, a2], "open", None, "active", 3, "Collect both keys")
case("settled done", [r, s1], "settled", "done", "active", 1, T)
case("settled, reopened", [o1, s1, r], "open", None, "active", 1, T)
case("settled, reopened, settled dropped", [s2, r, o1, s1], "settled", "dropped", "active", 1, T)
case("withdrawn keeps the act open (§2)", [w, r], "open", None, "withdrawn", 1, T)
case("withdrawn, then settled", [s1, w, r], "settled", "done", "withdrawn", 1, T)
case("claims do not settle", [r, claimed("c:%s:r0" % k, k)], "open", None, "active", 1, T)
case("notes and relations change nothing", [note("n-1", k), r, related("rel-1", k, "t")], "open", None, "active", 1, T)
case("exact duplicates are discarded", [r, r, s1, s1], "settled", "done", "active", 1, T)
case("a settlement against an older terms_rev still settles (D16)", [r, a2, s1], "settled", "done", "active", 2, "Collect the spare key")
case("a lone reopened (its settled never arrived) makes the act open", [r, reopened("o-x", k, "s-lost", T)], "open", None, "active", 1, T)
case("a settled whose reopened start never arrived is current", [r, settled("s-y", k, "dropped", supersedes="o-lost")], "settled", "dropped", "active", 1, T)
write("lifecycle.json", cases)
