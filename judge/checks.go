package judge

import (
	"fmt"
	"strings"

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
	default:
		return true, fmt.Sprintf("root_id %s, from_version %d", rootID, fv)
	}
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
	for _, x := range scan.Object(f.in.Object) {
		if x.Class == scan.Credential {
			creds = append(creds, x.Where+" ("+x.Rule+")")
		}
	}
	for _, x := range f.luggageFindings() {
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

func c8(f *facts) (bool, string) {
	var transcripts []string
	for _, x := range scan.Object(f.in.Object) {
		if x.Class == scan.Transcript {
			transcripts = append(transcripts, x.Where+" ("+x.Rule+")")
		}
	}
	if len(transcripts) > 0 {
		return false, "looks like a chat transcript: " + strings.Join(transcripts, "; ")
	}
	return true, "no role-prefixed conversation in the pack object"
}

// c9 is D3: bag → flat → bag and flat → bag → flat, decided by the format
// package, which owns both encodings.
func c9(f *facts) (bool, string) {
	if f.in.ReadErr != nil {
		return false, "not judged: the luggage could not be read (see C1)"
	}
	return f.in.RoundTrip()
}

func c10(f *facts) (bool, string) {
	obj := f.in.Object
	if at, ok := obj.Get("packed_at").Str(); ok && strings.TrimSpace(at) != "" {
		return true, "packed_at " + at
	}
	return false, "packed_at is " + ojson.Brief(obj.Get("packed_at"), 60)
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
