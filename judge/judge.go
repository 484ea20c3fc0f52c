// Package judge decides whether a pack conforms to TaskPack 0.1 (§6,
// checks C0–C10; D3, D4). The checks are a table of one function each,
// every one returning a typed Finding; the facts they decide on come from
// one strict read of the file (pack.Inspect), which repairs nothing and
// streams the luggage once.
package judge

import (
	"io"
	"sort"
	"strings"

	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/pack/scan"
)

// SpecID is the specification the judge judges against.
const SpecID = "taskpack/0.1"

// Report is the result of Conformance: C0–C10 in order (§6).
type Report struct {
	File       string        `json:"file"`
	Spec       string        `json:"spec"`
	Encoding   pack.Encoding `json:"encoding,omitempty"`
	Conformant bool          `json:"conformant"`
	Passed     int           `json:"passed"`
	Total      int           `json:"total"`
	Checks     []Finding     `json:"checks"`
	// Signature is the pack's signature (D22), reported beside C0–C10 and
	// never one of them: TaskPack 0.1 knows no signatures, so an unsigned
	// pack, or one whose signature does not verify, is judged the same.
	Signature pack.SignatureStatus `json:"signature"`
}

// Finding is one requirement of §6 and how the pack fared: the check's id,
// pass or fail, and the reason (naming the entry and the rule where one
// failed).
type Finding struct {
	ID          string `json:"id"`
	Requirement string `json:"requirement"`
	Pass        bool   `json:"pass"`
	Reason      string `json:"reason"`
}

// Check is one row of the table: a requirement of §6 and the function that
// decides it.
type Check struct {
	ID   string
	Text string
	run  func(*facts) (pass bool, reason string)
}

// Checks are §6's table, in order.
var Checks = []Check{
	{"C0", "the file is conformant as written: reading it required no repair", c0},
	{"C1", "BagIt structure and sha256 manifests agree", c1},
	{"C2", "data/passport.json parses", c2},
	{"C3", "kind is handoff or receipt", c3},
	{"C4", "lineage carries root_id and from_version", c4},
	{"C5", "every ask has an accept", c5},
	{"C6", "no machine-scoped fact crosses wearing a ✓ (no scope counts as machine)", c6},
	{"C7", "no credentials, in any field of the pack object or in the luggage", c7},
	{"C8", "no chat transcript", c8},
	{"C9", "the two encodings round-trip byte-for-byte, whatever the attachments' size", c9},
	{"C10", "packed_at is declared", c10},
}

// facts is what the checks read: the inspection and the luggage scanners.
type facts struct {
	in       *pack.Inspection
	scanners map[string]*scan.LuggageScanner
	names    []scan.Finding // credentials in luggage names (issue 18, D5)

	objectFindings []scan.Finding // scan.Object of the pack object, once
	objectScanned  bool
}

// objectScan scans the pack object once for C7 and C8, which read
// different classes of the same findings: the scan is most of what judging
// a small pack costs.
func (f *facts) objectScan() []scan.Finding {
	if !f.objectScanned {
		f.objectFindings = scan.Object(f.in.Object)
		f.objectScanned = true
	}
	return f.objectFindings
}

// Conformance judges the file at path against §6, reading strictly: nothing
// is repaired, and every repair a lenient reader would make is a C0 failure
// (D4). Luggage is streamed once (C1, C7 and C9 share the pass) and never
// held in memory. The error is non-nil only when the file is not a pack at
// all; a pack that cannot be read past some point fails the checks it could
// not satisfy, with the reason.
func Conformance(path string, opts pack.Options) (*Report, error) {
	f := &facts{scanners: map[string]*scan.LuggageScanner{}}
	var prev *scan.LuggageScanner
	finish := func() {
		// Entries stream one after another: the previous scan is finished
		// and only a scanner that found something is kept, so memory does
		// not grow with the file count.
		if prev != nil && len(prev.Findings()) == 0 && len(prev.TextFindings()) == 0 {
			delete(f.scanners, prev.Name())
			delete(f.scanners, "data/files/"+prev.Name())
		}
		prev = nil
	}
	in, err := pack.Inspect(path, opts, func(name string) io.Writer {
		finish()
		for _, x := range scan.Credentials(strings.TrimPrefix(name, "data/files/")) {
			x.Where = name + " (its name)"
			f.names = append(f.names, x)
		}
		sc := scan.NewLuggageScanner(name)
		f.scanners[name] = sc
		prev = sc
		return sc
	})
	finish()
	if err != nil {
		return nil, err
	}
	f.in = in
	r := &Report{File: path, Spec: SpecID, Encoding: in.Encoding, Signature: in.Signature}
	if r.Signature.State == "" {
		r.Signature.State = pack.SigUnsigned
	}
	for _, c := range Checks {
		fd := Finding{ID: c.ID, Requirement: c.Text}
		fd.Pass, fd.Reason = f.judge(c)
		r.Checks = append(r.Checks, fd)
		if fd.Pass {
			r.Passed++
		}
	}
	r.Total = len(r.Checks)
	r.Conformant = r.Passed == r.Total
	return r, nil
}

// judge runs one check, unless what it needs could not be read: a
// container that cannot be trusted fails everything (the reason on C1, or
// on C2 for the pack object), and a missing pack object fails every check
// but C1 and C2.
func (f *facts) judge(c Check) (bool, string) {
	if u := f.in.Unreadable; u != nil {
		where := "C1"
		if u.Rule == pack.RuleJSON || u.Rule == pack.RuleLimitObject {
			where = "C2"
		}
		if c.ID == where {
			return false, u.Error()
		}
		return false, "not judged: the file could not be read safely"
	}
	if f.in.Object == nil && c.ID != "C1" && c.ID != "C2" {
		return false, "not judged: there is no pack object (see C2)"
	}
	return c.run(f)
}

// luggageFindings are the luggage scanners' findings, by entry name.
func (f *facts) luggageFindings() []scan.Finding {
	names := make([]string, 0, len(f.scanners))
	for n := range f.scanners {
		names = append(names, n)
	}
	sort.Strings(names)
	out := append([]scan.Finding{}, f.names...)
	for _, n := range names {
		out = append(out, f.scanners[n].Findings()...)
		out = append(out, f.scanners[n].TextFindings()...)
	}
	return out
}
