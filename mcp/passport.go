package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/checkpoint"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/judge"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/taskpassport"
)

// The reference's tool schemas, member for member (task-passport 0.3.0),
// each property described in a few words: the rules every tool shares are
// said once, in the server's instructions.
const (
	schemaEmpty = `{"type":"object","additionalProperties":false,"properties":{}}`
	schemaOpen  = `{"type":"object","additionalProperties":false,"required":["passport_id"],"properties":{
"passport_id":{"type":"string","description":"Exact id, e.g. TP-7K4M-9D2Q."},
"max_bytes":{"type":"integer","minimum":512,"maximum":1048576,"description":"compiled_context bound; default 4096."}}}`
	schemaNew = `{"type":"object","additionalProperties":false,"required":["title","goal"],"properties":{
"title":{"type":"string","description":"Short display name."},
"goal":{"type":"string","description":"One-sentence objective."},
"current_state":{"type":"string","description":"Where things stand."},
"next_step":{"type":"string","description":"First next step."}}}`
	schemaCheckpoint = `{"type":"object","additionalProperties":false,"required":["state","expected_version"],"properties":{
"state":{"type":"object","description":"The state opened, edited.","properties":{
"facts":{"type":"array","description":"What is known.","items":{"type":"object","required":["claim"],"properties":{
"claim":{"type":"string","description":"A checkable statement."},
"scope":{"type":"string","description":"universal, org or machine (sealed when packed); unsure: machine."},
"verified":{"type":"boolean","description":"Proven on this machine."},
"source":{"type":"string","description":"How it was proven."}}}}}},
"expected_version":{"type":"integer","minimum":0,"description":"The state_version read."}}}`
	schemaPath = `{"type":"object","additionalProperties":false,"required":["path"],"properties":{
"path":{"type":"string","description":"The pack file."}}}`
)

func (s *Server) addPassportTools() {
	addTool(s, "task_passport_list",
		"List passports, newest first, without bodies.",
		readOnly, schemaEmpty, s.list)
	addTool(s, "task_passport_open",
		"Open a passport: state, state_version and compiled_context (what to trust and do next).",
		readOnly, schemaOpen, s.open)
	addTool(s, "task_passport_new",
		"Create a passport for one objective.",
		additive, schemaNew, s.create)
	addTool(s, "task_passport_checkpoint",
		"Save the edited state; a verified fact is stamped with this machine.",
		additive, schemaCheckpoint, s.checkpoint)
	addTool(s, "task_passport_pack",
		"Pack a passport into a TaskPack. Machine facts leave sealed; the asks sent are recorded at home.",
		replaces, schemaPack, s.packTool)
	addTool(s, "task_passport_land",
		"Land a TaskPack: a handoff becomes a new passport, a receipt merges into the passport that asked.",
		additive, schemaLand, s.land)
	addTool(s, "task_passport_conformance",
		"Judge a file against TaskPack 0.1 (C0–C10).",
		readOnly, schemaPath, s.conformance)
}

type noArgs struct{}

func (s *Server) list(ctx context.Context, _ noArgs) (taskpassport.List, error) {
	entries, skipped, err := s.cfg.Store.List()
	if err != nil {
		return taskpassport.List{}, err
	}
	for _, sk := range skipped {
		fmt.Fprintf(s.cfg.Log, "tp mcp: skipped %s: %s\n", sk.File, sk.Reason)
	}
	return taskpassport.ListOf(entries, skipped), nil
}

// idArgs names one passport.
type idArgs struct {
	PassportID string `json:"passport_id" jsonschema:"Exact id, e.g. TP-7K4M-9D2Q."`
}

// defaultBriefing bounds an open's compiled_context when the call names
// no max_bytes: about the reference's compiled context.
const defaultBriefing = 4096

// opened is task_passport_open's result: the reference's members with the
// state once and the briefing bounded; the labels a landing kept beside.
type opened struct {
	PassportID      string             `json:"passport_id"`
	StateVersion    int64              `json:"state_version"`
	State           *ojson.Value       `json:"state"`
	CompiledContext string             `json:"compiled_context"`
	Truncated       bool               `json:"compiled_context_truncated"`
	HandoffPrompt   string             `json:"handoff_prompt"`
	FilesDir        string             `json:"files_dir,omitempty"`
	Files           int                `json:"files,omitempty"`
	LandedFrom      string             `json:"landed_from,omitempty"`
	Findings        []briefing.Finding `json:"findings_at_landing"`
	MergeFindings   []briefing.Finding `json:"findings_at_merge"` // each with its receipt's sender (from)
	DataNotice      string             `json:"data_notice"`
}

// maxFindings bounds the landing findings an open repeats (the briefing
// counts the rest).
const maxFindings = 20

type openArgs struct {
	PassportID string `json:"passport_id"`
	MaxBytes   *int   `json:"max_bytes"`
}

func (s *Server) open(ctx context.Context, in openArgs) (*opened, error) {
	limit := defaultBriefing
	if in.MaxBytes != nil {
		if *in.MaxBytes < 512 || *in.MaxBytes > 1<<20 {
			return nil, invalid(fmt.Errorf("arguments: max_bytes must be between 512 and 1048576"))
		}
		limit = *in.MaxBytes
	}
	st, err := s.cfg.Store.Get(in.PassportID)
	if err != nil {
		return nil, err
	}
	b := briefing.OfStored(st)
	full := b.Markdown(0)
	md := full
	if len(full) > limit {
		md = b.Markdown(limit)
	}
	prompt, _ := briefing.Prompt(b.PassportID, "en")
	res := &opened{PassportID: b.PassportID, StateVersion: st.Version, State: st.V, CompiledContext: md,
		Truncated: len(md) < len(full), HandoffPrompt: prompt, FilesDir: b.FilesDir, Files: b.Files,
		LandedFrom: b.LandedFrom, Findings: b.FindingsAtLanding, MergeFindings: b.FindingsAtMerge, DataNotice: DataNotice}
	if len(res.Findings) > maxFindings {
		res.Findings = res.Findings[:maxFindings]
	}
	if len(res.MergeFindings) > maxFindings {
		res.MergeFindings = res.MergeFindings[len(res.MergeFindings)-maxFindings:] // the latest receipts'
	}
	return res, nil
}

type newArgs struct {
	Title        string `json:"title"`
	Goal         string `json:"goal"`
	CurrentState string `json:"current_state"`
	NextStep     string `json:"next_step"`
}

func (s *Server) create(ctx context.Context, in newArgs) (*taskpassport.Saved, error) {
	v, err := checkpoint.Create(s.cfg.Store, in.Title, in.Goal, store.CreateOptions{CurrentState: in.CurrentState, NextStep: in.NextStep, Harness: s.cfg.Harness})
	if err != nil {
		return nil, err
	}
	saved := taskpassport.SavedOf(v, nil)
	return &saved, nil
}

type checkpointArgs struct {
	State           json.RawMessage `json:"state"`
	ExpectedVersion *int64          `json:"expected_version"`
}

func (s *Server) checkpoint(ctx context.Context, in checkpointArgs) (*taskpassport.Saved, error) {
	if len(in.State) == 0 || in.ExpectedVersion == nil {
		return nil, fmt.Errorf("arguments: state and expected_version are required")
	}
	state, _, err := ojson.Parse(in.State)
	if err != nil {
		return nil, fmt.Errorf("arguments: state: %v", err)
	}
	rep, err := checkpoint.Run(ctx, s.cfg.Store, checkpoint.Request{
		Whole: state, ExpectedVersion: *in.ExpectedVersion,
		Machine: s.machine(), Harness: s.cfg.Harness,
	})
	if err != nil {
		return nil, err
	}
	saved := taskpassport.SavedOf(rep.State, rep.Warnings)
	return &saved, nil
}

type pathArgs struct {
	Path string `json:"path"`
}

func (s *Server) conformance(ctx context.Context, in pathArgs) (*taskpassport.Conformance, error) {
	if err := required("path", in.Path); err != nil {
		return nil, err
	}
	path, err := s.confine(ctx, "path", in.Path, read)
	if err != nil {
		return nil, err
	}
	return s.judged.Of(path, path, func() (*taskpassport.Conformance, error) {
		r, err := judge.Conformance(path, pack.Options{})
		if err != nil {
			return nil, err
		}
		c := taskpassport.ConformanceOf(r)
		return &c, nil
	})
}
