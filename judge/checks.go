package judge

import (
	"fmt"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/pack/scan"
)

// c0: every repair a lenient read would need (D4).
func c0(f *facts) (bool, string) {
	repairs := f.in.Repairs
	if len(repairs) == 0 {
		return true, "read strictly; nothing needed repair"
	}
	var parts []string
	for _, rp := range repairs {
		parts = append(parts, rp.Where+": "+rp.Rule)
	}
	return false, fmt.Sprintf("%s needed: %s", plural.N(len(repairs), "repair"), strings.Join(parts, "; "))
}

func c1(f *facts) (bool, string) {
	in := f.in
	switch {
	case in.ReadErr != nil:
		return false, in.ReadErr.Error()
	case len(in.Problems) > 0:
		return false, joinErrs(in.Problems)
	case in.Encoding == pack.EncodingBag:
		return true, "bagit.txt, manifest-sha256.txt and tagmanifest-sha256.txt agree with " + plural.N(in.Luggage+1, "payload file")
	default:
		return true, "flat form: " + plural.N(in.Luggage, "attachment matches its", "attachments match their") + " declared sha256 and bytes"
	}
}

func c2(f *facts) (bool, string) {
	switch {
	case len(f.in.ObjectErrs) > 0:
		return false, joinErrs(f.in.ObjectErrs)
	case f.in.SpecErr != nil:
		return false, f.in.SpecErr.Error()
	default:
		return true, "spec " + model.SpecBag
	}
}

func c3(f *facts) (bool, string) {
	obj := f.in.Object
	if f.in.KindErr != nil {
		return false, "kind is " + ojson.Brief(obj.Get("kind"), 60)
	}
	return true, "kind " + obj.Get("kind").Text()
}

// c4 checks that the lineage is present and consistent (§3, D4): root_id
// and from_version are there, and when a chain is carried, root_id is its
// first entry's passport and from_version its last entry's version (the
// sender). A chain that is absent is not required by §6's C4.
func c4(f *facts) (bool, string) {
	lin := f.in.Object.Get("lineage")
	rootID, _ := lin.Get("root_id").Str()
	fv, fvOK := lin.Get("from_version").Int()
	switch {
	case lin.Kind() != ojson.Object:
		return false, "no lineage object"
	case rootID == "":
		return false, "lineage.root_id is " + ojson.Brief(lin.Get("root_id"), 60)
	case !fvOK || fv < 0:
		return false, "lineage.from_version is " + ojson.Brief(lin.Get("from_version"), 60) + ", not a version number"
	}
	chain := lin.Get("chain")
	if chain == nil {
		return true, fmt.Sprintf("root_id %s, from_version %d (no chain)", rootID, fv)
	}
	items := chain.Items()
	if chain.Kind() != ojson.Array || len(items) == 0 {
		return false, "lineage.chain is " + ojson.Brief(chain, 60) + ", not a list of <passport id>@<version> (§3)"
	}
	type hop struct {
		id      string
		version int64
	}
	hops := make([]hop, len(items))
	for i, it := range items {
		s, _ := it.Str()
		id, v, ok := model.SplitChainEntry(s)
		if !ok || id == "" || v < 0 {
			return false, fmt.Sprintf("lineage.chain[%d] is %s, not <passport id>@<version> (§3)", i, ojson.Brief(it, 60))
		}
		hops[i] = hop{id, v}
	}
	first, last := hops[0], hops[len(hops)-1]
	switch {
	case first.id != rootID:
		return false, fmt.Sprintf("lineage.root_id %s is not the chain's first passport %s (§3: root_id is the first passport in the chain)", ojson.Brief(lin.Get("root_id"), 60), ojson.Brief(ojson.NewString(first.id), 60))
	case last.version != fv:
		return false, fmt.Sprintf("lineage.from_version %d is not the version of the chain's last entry %s (§3: the last entry is the sender)", fv, ojson.Brief(items[len(items)-1], 60))
	}
	return true, fmt.Sprintf("root_id %s, from_version %d, consistent with a chain of %s", rootID, fv, plural.N(len(hops), "entry", "entries"))
}

func c5(f *facts) (bool, string) {
	var askless []string
	asks := f.in.Object.Get("asks")
	if asks != nil && asks.Kind() != ojson.Array {
		askless = append(askless, "asks is not an array")
	}
	for i, a := range asks.Items() {
		if strings.TrimSpace(a.Get("accept").Text()) == "" {
			id := a.Get("id").Text()
			if id == "" {
				id = model.Path("asks", i)
			}
			askless = append(askless, id)
		}
	}
	if len(askless) > 0 {
		return false, "no accept: " + strings.Join(askless, ", ")
	}
	return true, plural.N(len(asks.Items()), "ask") + ", each with accept"
}

func c6(f *facts) (bool, string) {
	var liars []string
	facts := f.in.Object.Get("passport").Get("facts").Items()
	for i, v := range facts {
		fact := model.Fact{V: v}
		if v.Kind() == ojson.Object && !fact.KeepsVerified() && fact.Verified() {
			scope := fact.Scope()
			if !fact.HasScope() {
				scope = "no scope"
			}
			liars = append(liars, fmt.Sprintf("%s (%s) %q", model.Path("passport", "facts", i), scope, clipRunes(fact.Claim(), 60)))
		}
	}
	if len(liars) > 0 {
		return false, "verified: true across a machine boundary: " + strings.Join(liars, "; ")
	}
	return true, plural.N(len(facts), "fact") + "; none machine-scoped or unscoped wears a ✓"
}

// c7 uses the same table the writer refuses with (D5), over every string of
// the pack object and every byte of the luggage.
func c7(f *facts) (bool, string) {
	var creds []string
	for _, x := range f.objectScan() {
		if x.Class == scan.Credential {
			creds = append(creds, x.Where+" ("+x.Rule+")")
		}
	}
	lf := f.luggageFindings()
	for _, x := range append(lf, scan.SplitKeys(lf)...) {
		if x.Class == scan.Credential {
			creds = append(creds, x.Where+" ("+x.Rule+")")
		}
	}
	switch {
	case len(creds) > 0:
		return false, "looks like a credential: " + strings.Join(creds, "; ")
	case f.in.ReadErr != nil:
		return false, "not judged: the luggage could not be read (see C1)"
	default:
		return true, "pack object and " + plural.N(f.in.Luggage, "luggage file") + " scanned"
	}
}

// c8 is §4.1's transcript refusal and, by D13, §4.5.1's instruction
// fields: the writer refuses both, so the judge fails both here.
func c8(f *facts) (bool, string) {
	var transcripts, fields []string
	for _, x := range f.objectScan() {
		switch x.Class {
		case scan.Transcript:
			transcripts = append(transcripts, x.Where+" ("+x.Rule+")")
		case scan.InstructionField:
			fields = append(fields, x.Where)
		}
	}
	for _, x := range f.luggageFindings() {
		if x.Class == scan.Transcript {
			transcripts = append(transcripts, x.Where+" ("+x.Rule+")")
		}
	}
	var parts []string
	if len(transcripts) > 0 {
		parts = append(parts, "looks like a chat transcript: "+strings.Join(transcripts, "; "))
	}
	if len(fields) > 0 {
		parts = append(parts, "instruction field (TaskPack 0.1 §4.5.1 MUST NOT; judged under C8 by D13): "+strings.Join(fields, ", "))
	}
	if len(parts) > 0 {
		return false, strings.Join(parts, "; ")
	}
	return true, "no role-prefixed conversation and no instruction field in the pack object or the text luggage"
}

// c9 is D3: bag → flat → bag and flat → bag → flat, decided by the format
// package, which owns both encodings.
func c9(f *facts) (bool, string) {
	if f.in.ReadErr != nil {
		return false, "not judged: the luggage could not be read (see C1)"
	}
	return f.in.RoundTrip()
}

// c10: packed_at is declared, as an RFC 3339 date-time (§3's example;
// D4): "yesterday" is declared but says nothing a receiver can order.
func c10(f *facts) (bool, string) {
	obj := f.in.Object
	at, ok := obj.Get("packed_at").Str()
	if !ok || strings.TrimSpace(at) == "" {
		return false, "packed_at is " + ojson.Brief(obj.Get("packed_at"), 60)
	}
	if _, err := time.Parse(time.RFC3339Nano, at); err != nil || strings.TrimSpace(at) != at {
		return false, "packed_at is " + ojson.Brief(obj.Get("packed_at"), 60) + ", not an RFC 3339 date-time (e.g. 2026-08-16T03:11:04Z)"
	}
	return true, "packed_at " + at
}

func joinErrs(es []*pack.Error) string {
	parts := make([]string, 0, len(es))
	for i, e := range es {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(es)-i))
			break
		}
		s := e.Entry
		if s != "" {
			s += ": "
		}
		parts = append(parts, s+e.Detail+" ("+e.Rule+")")
	}
	return strings.Join(parts, "; ")
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
