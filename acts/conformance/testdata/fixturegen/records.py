from common import *
import copy

cases = []


def case(name, record, schema):
    cases.append({"name": name, "record": record, "schema": schema})


k = key("Collect the shed key")
R = raised(k, "Collect the shed key")
case("raised by the registrar", R, "raised")
case("amended", amended(k, "Collect the spare key", 2, "r:" + k), "amended")
case("withdrawn", withdrawn(k, "r:" + k), "withdrawn")
case("settled done", settled("s-1", k), "settled")
case("settled already_done", settled("s-1", k, "already_done"), "settled")
case("reopened", reopened("o-1", k, "s-1", "Collect the shed key"), "reopened")
case("claimed by the registrar, §7 id", claimed("c:%s:r0" % k, k), "claimed")
case("claimed by an agent, dropped", claimed("c-1", k, origin="agent", outcome="dropped"), "claimed")
case("note", note("n-1", k), "note")
case("related same_as", related("rel-1", k, "task-garden-0000000000"), "related")


def broken(name, base, **changes):
    r = copy.deepcopy(base)
    for f, v in changes.items():
        if v is None:
            r.pop(f, None)
        else:
            r[f] = v
    case(name, r, None)


broken("key with a colon breaks §6.1", R, key="task:garden")
broken("key with a space breaks §6.1", R, key="task garden")
broken("key starting with a dash breaks §6.1", R, key="-task")
broken("key of 129 characters breaks §6.1", R, key="a" * 129)
broken("raised without terms", R, terms=None)
broken("raised with terms_rev 2", R, terms_rev=2)
broken("raised from the principal", R, origin="principal")
broken("wrong ext", R, ext="acts/0.2")
broken("wrong ph", R, ph="0.2")
broken("no id", R, id=None)
broken("unknown type", R, type="registered")
broken("settled lacking authority", settled("s-1", k), authority=None)
broken("settled with a claim outcome", settled("s-1", k), outcome="maybe")
broken("settled lacking terms_rev", settled("s-1", k), terms_rev=None)
broken("reopened lacking restore_text", reopened("o-1", k, "s-1", "x"), restore_text=None)
broken("reopened lacking supersedes", reopened("o-1", k, "s-1", "x"), supersedes=None)
broken("claimed with outcome already_done", claimed("c-1", k), outcome="already_done")
broken("claimed without evidence", claimed("c-1", k), evidence=None)
broken("withdrawn without a reason", withdrawn(k, "r:" + k), reason=None)
broken("amended without supersedes", amended(k, "x", 2, "r:" + k), supersedes=None)
broken("note without about", note("n-1", k), about=None)
broken("related without relation", related("rel-1", k, "t"), relation=None)
write("records.json", cases)
