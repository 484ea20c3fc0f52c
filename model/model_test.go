package model

import (
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

func mustParse(t *testing.T, s string) *ojson.Value {
	t.Helper()
	v, _, err := ojson.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestReceiptTarget(t *testing.T) {
	tests := []struct {
		name, lineage, want string
	}{
		{"single entry: root_id", `{"root_id":"TP-A","from_version":3,"chain":["TP-A@3"]}`, "TP-A"},
		{"first hop back", `{"root_id":"TP-A","from_version":1,"chain":["TP-A@3","TP-B@1"]}`, "TP-A"},
		{"A→B→C: C's receipt answers B", `{"root_id":"TP-A","from_version":2,"chain":["TP-A@3","TP-B@2","TP-C@1"]}`, "TP-B"},
		{"no chain: root_id", `{"root_id":"TP-A","from_version":3}`, "TP-A"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LineageOf(mustParse(t, tt.lineage)).ReceiptTarget(); got != tt.want {
				t.Errorf("ReceiptTarget = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLineageExtend(t *testing.T) {
	// A passport made with tp new has no kept chain.
	l := Lineage{}.Extend("TP-A", 2)
	if l.RootID != "TP-A" || l.FromVersion != 2 || strings.Join(l.Chain, ",") != "TP-A@2" {
		t.Errorf("fresh = %+v", l)
	}
	// A landed passport extends the kept chain; root_id never changes.
	kept := LineageOf(mustParse(t, `{"root_id":"TP-A","from_version":2,"chain":["TP-A@2"]}`))
	l = kept.Extend("TP-B", 1)
	if l.RootID != "TP-A" || l.FromVersion != 1 || strings.Join(l.Chain, ",") != "TP-A@2,TP-B@1" {
		t.Errorf("extended = %+v", l)
	}
	if kept.Chain[0] != "TP-A@2" || len(kept.Chain) != 1 {
		t.Errorf("Extend modified the kept chain: %+v", kept)
	}
	if got := string(ojson.Compact(l.Value())); got != `{"root_id":"TP-A","from_version":1,"chain":["TP-A@2","TP-B@1"]}` {
		t.Errorf("Value = %s", got)
	}
	id, v, ok := l.Sender()
	if id != "TP-B" || v != 1 || !ok {
		t.Errorf("Sender = %s %d %v", id, v, ok)
	}
}

func TestSplitChainEntry(t *testing.T) {
	for in, want := range map[string]struct {
		id string
		v  int64
		ok bool
	}{
		"TP-A@3": {"TP-A", 3, true}, "TP-A": {"TP-A", 0, false}, "x@y@4": {"x@y", 4, true}, "TP-A@": {"TP-A", 0, false},
	} {
		id, v, ok := SplitChainEntry(in)
		if id != want.id || v != want.v || ok != want.ok {
			t.Errorf("SplitChainEntry(%q) = %q %d %v", in, id, v, ok)
		}
	}
}

func TestFactKeepsVerified(t *testing.T) {
	for scope, want := range map[string]bool{
		`"scope":"universal",`: true, `"scope":"org",`: true, `"scope":"machine",`: false,
		``: false, `"scope":"",`: false, `"scope":"Universal",`: false, `"scope":"team",`: false,
	} {
		f := Fact{V: mustParse(t, `{`+scope+`"claim":"x","verified":true}`)}
		if got := f.KeepsVerified(); got != want {
			t.Errorf("%s KeepsVerified = %v, want %v", scope, got, want)
		}
	}
}

func TestPackObjectViews(t *testing.T) {
	p := PackObject{V: mustParse(t, `{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"t",
		"origin":{"actor":"Maria","machine":"m","harness":"h"},
		"passport":{"id":"TP-A","version":6,"facts":[{"claim":"c","verified":false,"needs_reverify":true,"verified_on":"m"}],"next_steps":["a","b"]},
		"asks":[{"id":"a1","what":"w","accept":"x","status":"open","answer":null}],
		"landing_checks":[{"id":"c1","check":"k","how":"ls","required":true}]}`)}
	if p.Kind() != KindReceipt || p.Origin().Actor != "Maria" || p.Passport().Version() != 6 {
		t.Errorf("views wrong")
	}
	if f := p.Passport().Facts()[0]; !f.Sealed() || f.VerifiedOn() != "m" {
		t.Errorf("fact view wrong")
	}
	if a := p.Asks()[0]; a.Accept() != "x" || a.Answer() != "" {
		t.Errorf("ask view wrong")
	}
	if c := p.LandingChecks()[0]; !c.Required() || c.How() != "ls" {
		t.Errorf("check view wrong")
	}
	if got := strings.Join(p.Passport().NextSteps(), ","); got != "a,b" {
		t.Errorf("next steps = %s", got)
	}
}

func TestNewAskKeyOrder(t *testing.T) {
	got := string(ojson.Compact(NewAsk("a1", "w", "y", "acc").V))
	if want := `{"id":"a1","to":"peer","what":"w","why":"y","accept":"acc","status":"open","answer":null}`; got != want {
		t.Errorf("NewAsk = %s", got)
	}
}

func TestPath(t *testing.T) {
	if got := Path("passport", "facts", 2, "claim"); got != "passport.facts[2].claim" {
		t.Errorf("Path = %s", got)
	}
}

func TestReceiptTargetRule(t *testing.T) {
	if got := (Lineage{Chain: []string{"TP-A@1"}}).ReceiptTargetRule(); !strings.Contains(got, "root_id") {
		t.Errorf("single entry rule = %q", got)
	}
	if got := (Lineage{}).ReceiptTargetRule(); !strings.Contains(got, "no chain") {
		t.Errorf("no chain rule = %q", got)
	}
	if got := (Lineage{Chain: []string{"TP-A@1", "TP-B@1"}}).ReceiptTargetRule(); !strings.Contains(got, "before the last") {
		t.Errorf("two entries rule = %q", got)
	}
}
