from common import *

cases = []


def case(name, project, text):
    cases.append({"name": name, "project": project, "text": text, "key": key(text, project)})


case("spec appendix A", "demo", "Renew the domain")
case("spec §5.6 example", "demo", "Renew the domain before it expires")
case("spec §5.7 example", "demo", "續約網域")
case("plain", "garden", "Sign the allotment renewal")
case("leading and trailing spaces", "garden", "   Sign the allotment renewal   ")
case("tabs and newlines", "garden", "Sign\tthe\nallotment\r\nrenewal")
case("runs collapse", "garden", "Sign    the  allotment       renewal")
case("ideographic space U+3000 is whitespace", "garden", "Sign\u3000the\u3000\u3000allotment renewal")
case("no-break space U+00A0 is whitespace", "garden", "Sign\u00a0the allotment\u00a0renewal")
case("em space, narrow nbsp, line separator", "garden", "Sign\u2003the\u202fallotment\u2028renewal")
case("next line U+0085 and ogham space U+1680", "garden", "Sign\u0085the\u1680allotment renewal")
case("zero-width space U+200B is not whitespace", "garden", "Sign the\u200ballotment renewal")
case("BOM U+FEFF is not whitespace", "garden", "\ufeffSign the allotment renewal")
case("case matters", "garden", "sign the allotment renewal")
case("punctuation matters", "garden", "Sign the allotment renewal.")
case("zh-hant text", "garden", "繳交社區花園租金")
case("zh-hant text with ideographic spaces", "garden", "\u3000繳交\u3000社區花園租金\u3000")
case("mixed scripts and emoji", "garden", "Pay 租金 🌱 before Friday")
case("project with dots, dashes, underscores", "my.garden_2-b", "Sign the allotment renewal")
case("another project, same text, another key", "orchard", "Sign the allotment renewal")
case("one character", "garden", "x")
case("long text", "garden", "Renew " + "the domain " * 60)
case("marker-like text is just text", "garden", "Pay (waiting on owner: k-1) soon")
case("combining characters are not normalised", "garden", "Cafe\u0301 rent")
case("precomposed is different", "garden", "Caf\u00e9 rent")

# A few with the same key, so runners that normalise wrongly fail loudly.
assert key("Sign the allotment renewal") == key(" Sign\tthe  allotment renewal ") == key("Sign\u3000the allotment renewal")
assert key("Sign the\u200ballotment renewal") != key("Sign the allotment renewal")
write("keys.json", cases)
