package actsession

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sanitize"
)

// Kinds of Finding.
const (
	// FindingUnreadable is a file of the log that was not read as a record
	// (not JSON, not a valid record, too large, a link, named for another
	// id): skipped, never rewritten.
	FindingUnreadable = "unreadable"
	// FindingRejected is a principal-side record that was not applied: its
	// signature did not verify against this machine's principals of the
	// project, or the project's principals are refused here (D19).
	FindingRejected = "rejected"
	// FindingVanished is a principal-side record this machine applied (or
	// acked/ names) that is gone from the log or changed since (D19 tamper
	// evidence): sync does nothing for its act until a person decides.
	FindingVanished = "vanished"
	// FindingConflict is an act whose records contradict each other (D8):
	// left out, the other acts shown.
	FindingConflict = "conflict"
	// FindingUnbacked is a principal-side record acked/ names as applied
	// that this machine's registrar never applied (D19: a forged
	// acknowledgement, or another machine's): sync applies it.
	FindingUnbacked = "unbacked"
	// FindingDocument is a line of a state document that disagrees with
	// the log in a way an agent or a forged acknowledgement can cause
	// (CheckDocument).
	FindingDocument = "document"
)

// Finding is one thing the person (or the agent) must be told about the log
// beside the acts it lists. Every field is sanitised for a terminal (D11);
// what it quotes came from the log and is data.
type Finding struct {
	Kind    string `json:"kind"`
	Project string `json:"project,omitempty"`
	Path    string `json:"path,omitempty"`
	ID      string `json:"id,omitempty"`
	Type    string `json:"type,omitempty"`
	Key     string `json:"key,omitempty"`
	Why     string `json:"why"`
	// Text is the finding in one line, as `tp acts list` prints it: the
	// file, the record, the rule.
	Text string `json:"text"`
}

func (f Finding) String() string { return f.Text }

// Listing is what List read.
type Listing struct {
	// Acts are the acts' states, by project, then key.
	Acts []*acts.ActState
	// Findings come in the order the log was read: the acts dir's own,
	// then per project its unreadable files, rejected records, conflicts
	// and vanished records.
	Findings []Finding
}

// Findings turns what Load reported about one project into findings.
func Findings(ld *recordlog.Loaded) []Finding {
	var out []Finding
	for _, p := range ld.Problems {
		out = append(out, unreadable(ld.Project, p))
	}
	for _, r := range ld.Rejected {
		r = r.Sanitized()
		out = append(out, Finding{Kind: FindingRejected, Project: sanitize.Line(ld.Project), Path: r.Path, ID: r.ID, Type: r.Type, Key: r.Key, Why: r.Why, Text: r.String()})
	}
	for _, v := range ld.Vanished {
		v = v.Sanitized()
		out = append(out, Finding{Kind: FindingVanished, Project: sanitize.Line(ld.Project), Path: v.Path, ID: v.ID, Key: v.Key, Why: v.Why, Text: v.String()})
	}
	for _, v := range ld.Unbacked {
		v = v.Sanitized()
		out = append(out, Finding{Kind: FindingUnbacked, Project: sanitize.Line(ld.Project), Path: v.Path, ID: v.ID, Key: v.Key, Why: v.Why, Text: v.String()})
	}
	return out
}

func unreadable(project string, p recordlog.LogProblem) Finding {
	return Finding{Kind: FindingUnreadable, Project: sanitize.Line(project), Path: sanitize.Line(p.Path), Why: sanitize.Line(p.Msg), Text: sanitize.Line(p.String())}
}

func conflict(project string, err error) Finding {
	key := ""
	var ae *acts.ActError
	if errors.As(err, &ae) {
		key = ae.Key
	}
	return Finding{Kind: FindingConflict, Project: sanitize.Line(project), Key: sanitize.Line(key), Why: sanitize.Line(err.Error()), Text: sanitize.Line(err.Error())}
}

// List reads the acts of one project, or of every project when project is
// "", with the findings. It does not pull: a front end calls Pull first.
func (s *Session) List(ctx context.Context, project string) (*Listing, error) {
	out := &Listing{}
	projects := []string{project}
	if project == "" {
		ps, probs, err := s.Log.Projects()
		if err != nil {
			return nil, err
		}
		projects = ps
		for _, p := range probs {
			out.Findings = append(out.Findings, unreadable("", p))
		}
	} else if err := acts.CheckProjectName(project); err != nil {
		return nil, err
	}
	for _, p := range projects {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ld, err := s.Log.Load(p)
		if err != nil {
			return nil, err
		}
		fs := Findings(ld)
		states, errs := acts.States(ld.Records)
		for _, e := range errs {
			fs = append(fs, conflict(p, e))
		}
		out.Findings = append(out.Findings, sortFindings(fs)...)
		for _, st := range states {
			out.Acts = append(out.Acts, st)
		}
	}
	sort.Slice(out.Acts, func(i, j int) bool {
		a, b := out.Acts[i], out.Acts[j]
		if a.Project != b.Project {
			return a.Project < b.Project
		}
		return a.Key < b.Key
	})
	return out, nil
}

// sortFindings keeps one project's findings by kind (unreadable, rejected,
// conflict, vanished), each kind as Load sorted it.
func sortFindings(fs []Finding) []Finding {
	rank := map[string]int{FindingUnreadable: 0, FindingRejected: 1, FindingConflict: 2, FindingVanished: 3, FindingUnbacked: 4}
	sort.SliceStable(fs, func(i, j int) bool { return rank[fs[i].Kind] < rank[fs[j].Kind] })
	return fs
}

// Found is one act and what the person must be told about it.
type Found struct {
	State *acts.ActState
	// Findings are the project's findings about this act (records of its
	// key not applied, vanished) and the files of the log that were not
	// read (any of them may have been one of its records).
	Findings []Finding
}

// Find reads the act with key: from project when given, else from the one
// project of the log that holds the key. It does not pull.
func (s *Session) Find(ctx context.Context, project, key string) (*Found, error) {
	if !acts.ValidKey(key) {
		return nil, fmt.Errorf("%q is not a key (§6.1: letters, digits, '.', '_' and '-', at most 128)", sanitize.Line(key))
	}
	if project == "" {
		found, err := s.Log.FindKey(key)
		if err != nil {
			return nil, err
		}
		switch len(found) {
		case 0:
			return nil, &acts.HintError{Err: fmt.Errorf("no act with key %s in the record log %s", key, sanitize.Line(s.Log.Dir)), HintText: "tp acts list shows the acts the log holds"}
		case 1:
			project = found[0]
		default:
			return nil, &acts.HintError{Err: fmt.Errorf("key %s is in the logs of several projects: %s", key, sanitize.Line(strings.Join(found, ", "))), HintText: "name one with --project"}
		}
	} else if err := acts.CheckProjectName(project); err != nil {
		return nil, err
	}
	ld, err := s.Log.Load(project)
	if err != nil {
		return nil, err
	}
	return found(ld, key)
}

// found is the act with key in ld.
func found(ld *recordlog.Loaded, key string) (*Found, error) {
	out := &Found{}
	for _, f := range Findings(ld) {
		if f.Key == key || f.Kind == FindingUnreadable {
			out.Findings = append(out.Findings, f)
		}
	}
	var rs []acts.Record
	for _, r := range ld.Records {
		if r.Key == key {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return out, &acts.HintError{Err: fmt.Errorf("no act with key %s in project %s", key, sanitize.Line(ld.Project)), HintText: "tp acts list --project " + sanitize.Line(ld.Project) + " shows its acts"}
	}
	st, err := acts.Lifecycle(rs)
	if err != nil {
		return out, &acts.ActError{Project: ld.Project, Key: key, Err: err}
	}
	out.State = st
	return out, nil
}
