package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/trust"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/pack/scan"
	"github.com/tp-dev/tp/taskpassport"
)

const (
	schemaPack = `{"type":"object","additionalProperties":false,"required":["passport_id","out"],"properties":{
"passport_id":{"type":"string","description":"Exact id."},
"out":{"type":"string","description":"Ends .taskpack, or .taskpack.json when flat."},
"force":{"type":"boolean","description":"Replace an existing out."},
"encoding":{"type":"string","enum":["bagit-zip","flat"],"description":"flat: for a receiver with nothing installed."},
"actor":{"type":"string","description":"Who sends it."},
"note":{"type":"string","description":"One line for the receiver."},
"kind":{"type":"string","enum":["handoff","receipt"],"description":"receipt answers asks received."},
"files":{"type":"array","items":{"type":"string"},"description":"Files or folders to carry."},
"asks":{"type":"array","description":"Requests to the receiver.","items":{"type":"object","additionalProperties":false,"required":["what","accept"],"properties":{
"id":{"type":"string","description":"Optional."},"what":{"type":"string","description":"The request."},"why":{"type":"string","description":"Why."},"accept":{"type":"string","description":"What counts as answered."}}}},
"landing_checks":{"type":"array","description":"What the receiver checks first.","items":{"type":"object","additionalProperties":false,"required":["check"],"properties":{
"id":{"type":"string","description":"Optional."},"check":{"type":"string","description":"What must hold."},"how":{"type":"string","description":"A suggestion."},"required":{"type":"boolean","description":"Default true."}}}}}}`
	schemaLand = `{"type":"object","additionalProperties":false,"required":["path"],"properties":{
"path":{"type":"string","description":"The pack file."},
"dry_run":{"type":"boolean","description":"Report only."},
"files_out":{"type":"string","description":"A new folder for the luggage."}}}`
)

// receiptArgs are tp_receipt_pack's arguments.
type receiptArgs struct {
	PassportID string   `json:"passport_id" jsonschema:"The passport that received the asks."`
	Out        string   `json:"out" jsonschema:"Ends .taskpack or .taskpack.json."`
	Force      bool     `json:"force,omitempty" jsonschema:"Replace an existing out."`
	Encoding   string   `json:"encoding,omitempty" jsonschema:"bagit-zip or flat."`
	Note       string   `json:"note,omitempty" jsonschema:"One line for the receiver."`
	Actor      string   `json:"actor,omitempty" jsonschema:"Who sends it."`
	Files      []string `json:"files,omitempty" jsonschema:"Files or folders to carry back."`
}

// packArgs are task_passport_pack's arguments.
type packArgs struct {
	PassportID    string            `json:"passport_id"`
	Out           string            `json:"out"`
	Force         bool              `json:"force"`
	Encoding      string            `json:"encoding"`
	Actor         string            `json:"actor"`
	Note          string            `json:"note"`
	Kind          string            `json:"kind"`
	Files         []string          `json:"files"`
	Asks          []json.RawMessage `json:"asks"`
	LandingChecks []json.RawMessage `json:"landing_checks"`
	// homeless: the reference's tool, which packs a receipt from a
	// passport never landed (with a warning, D6 homeless).
	homeless bool
}

// packResult is the reference's pack document plus tp's members.
type packResult struct {
	OK            bool     `json:"ok"`
	Pack          string   `json:"pack"`
	Encoding      string   `json:"encoding"`
	Kind          string   `json:"kind"`
	PassportID    string   `json:"passport_id"`
	StateVersion  int64    `json:"state_version"`
	HomeVersion   int64    `json:"home_version"`
	Asks          int      `json:"asks"`
	AsksRecorded  []string `json:"asks_recorded"`
	LandingChecks int      `json:"landing_checks"`
	Luggage       []string `json:"luggage"`
	Warnings      []string `json:"warnings"`
}

func (s *Server) packTool(ctx context.Context, in packArgs) (*packResult, error) {
	// The reference packs a receipt from any passport; a harness set up for
	// it keeps working, and the result warns when the receipt has no home
	// (D6 homeless). tp_receipt_pack refuses it.
	in.homeless = true
	return s.pack(ctx, in)
}

func (s *Server) receiptPack(ctx context.Context, r receiptArgs) (*packResult, error) {
	return s.pack(ctx, packArgs{PassportID: r.PassportID, Out: r.Out, Force: r.Force, Encoding: r.Encoding,
		Note: r.Note, Actor: r.Actor, Files: r.Files, Kind: model.KindReceipt})
}

func rawList(raw []json.RawMessage, what string) ([]*ojson.Value, error) {
	var out []*ojson.Value
	for i, r := range raw {
		v, _, err := ojson.Parse(r)
		if err != nil {
			return nil, fmt.Errorf("arguments: %s[%d]: %v", what, i, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// pack is tp pack's job (landing.Pack): the pack is written beside its
// target, the asks it sends are recorded at home with the version read (a
// conflict leaves no pack), then it is put in place.
func (s *Server) pack(ctx context.Context, in packArgs) (*packResult, error) {
	if err := required("passport_id", in.PassportID, "out", in.Out); err != nil {
		return nil, err
	}
	enc := pack.EncodingBag
	switch in.Encoding {
	case "", "bagit-zip":
	case "flat":
		enc = pack.EncodingFlat
	default:
		return nil, fmt.Errorf("arguments: encoding %q: bagit-zip or flat", in.Encoding)
	}
	if !strings.HasSuffix(in.Out, ".taskpack") && !strings.HasSuffix(in.Out, ".taskpack.json") {
		return nil, &toolError{Code: codeRefused, Rule: "pack names (D25)",
			Err: fmt.Errorf("out %q: a pack is written only to a name ending .taskpack or .taskpack.json (D25); nothing was written", in.Out)}
	}
	out, err := s.confine(ctx, "out", in.Out, write)
	if err != nil {
		return nil, err
	}
	files, err := s.confineAll(ctx, "files", in.Files, read)
	if err != nil {
		return nil, err
	}
	asks, err := rawList(in.Asks, "asks")
	if err != nil {
		return nil, err
	}
	checks, err := rawList(in.LandingChecks, "landing_checks")
	if err != nil {
		return nil, err
	}
	rep, err := landing.Pack(ctx, s.cfg.Store, landing.PackRequest{
		ID: in.PassportID, Out: out, Encoding: enc, Replace: in.Force,
		Build: landing.BuildOptions{
			Kind: in.Kind, Files: files, Asks: asks, Checks: checks, Note: in.Note,
			Actor: s.actor(in.Actor), Machine: s.machine(), HomelessReceipt: in.homeless,
		},
	})
	if err != nil {
		return nil, err
	}
	po := model.PackObject{V: rep.Built.Source.Object}
	res := &packResult{OK: true, Pack: out, Encoding: taskpassport.EncodingName(enc), Kind: po.Kind(),
		PassportID: rep.PassportID, StateVersion: rep.Version, HomeVersion: rep.HomeVersion,
		Asks: len(po.Asks()), AsksRecorded: append([]string{}, rep.Recorded...), LandingChecks: len(po.LandingChecks()),
		Luggage: []string{}, Warnings: append([]string{}, rep.Warnings...)}
	for _, f := range rep.Built.Files {
		res.Luggage = append(res.Luggage, f.Name)
	}
	return res, nil
}

// landResult is the reference's land document plus tp's plan and outcome.
type landResult struct {
	OK         bool                `json:"ok"`
	DryRun     bool                `json:"dry_run,omitempty"`
	Kind       string              `json:"kind"`
	PassportID string              `json:"passport_id,omitempty"`
	Lineage    landing.PlanLineage `json:"lineage"`
	// Signer is who signed the pack (D22): unsigned, known (the person's
	// name for the key) or unknown.
	Signer                landing.Signer `json:"signer"`
	From                  landing.Sender `json:"from"`
	Title                 string         `json:"title"`
	Asks                  *ojson.Value   `json:"asks,omitempty"`           // a dry run: the pack's asks, as the reference returns them
	LandingChecksInPack   *ojson.Value   `json:"landing_checks,omitempty"` // a dry run: the pack's landing checks
	Luggage               []string       `json:"luggage"`
	NeedsReverify         int            `json:"needs_reverify"`
	LandingChecksRequired int            `json:"landing_checks_required"`
	OpenAsks              int            `json:"open_asks"`
	// The receiver verdict (D23): accepted | needs_input, the unmet
	// required checks and the open asks themselves (open_asks stays the
	// reference's count).
	Verdict              string              `json:"verdict"`
	UnmetChecks          []landing.PlanCheck `json:"unmet_checks"`
	OpenAskItems         []landing.PlanAsk   `json:"open_ask_items"`
	HandoffPrompt        string              `json:"handoff_prompt,omitempty"`
	DataNotice           string              `json:"data_notice"`
	Plan                 *landPlan           `json:"plan"`
	Landed               *landing.Landed     `json:"landed,omitempty"`
	Merged               *landing.Merged     `json:"merged,omitempty"`
	InstructionsInPack   int                 `json:"instructions_in_pack"`
	CredentialLikeInPack int                 `json:"credential_like_in_pack"`
}

// landPlan is the landing plan as task_passport_land returns it: the plan
// without what the top of the result says already (kind, signer, lineage,
// title, and the sender as from), without the two digests landing keeps
// for itself (the file's and the object's: content_sha256 says what the
// pack is), and with empty lists of repairs, git folders and warnings left
// out. Every finding, check, ask, fact, luggage file and step is kept,
// each with who it came from (issue 16: a smaller result drops nothing an
// agent needs to act or to stay safe).
type landPlan struct {
	File            string                `json:"file"`
	Encoding        pack.Encoding         `json:"encoding"`
	ContentSHA256   string                `json:"content_sha256"`
	ID              string                `json:"id,omitempty"`
	FilesDir        string                `json:"files_dir,omitempty"`
	Goal            string                `json:"goal"`
	Note            string                `json:"note,omitempty"`
	Integrity       landing.Integrity     `json:"integrity"`
	Checks          []landing.PlanCheck   `json:"landing_checks"`
	Facts           []landing.PlanFact    `json:"facts"`
	OwnLineage      string                `json:"own_lineage,omitempty"`
	Asks            []landing.PlanAsk     `json:"asks"`
	Instructions    []scan.Finding        `json:"instructions"`
	Credentials     []scan.Finding        `json:"credentials"`
	Repairs         []pack.Repair         `json:"repairs,omitempty"`
	Luggage         []landing.PlanLuggage `json:"luggage"`
	GitDirs         []string              `json:"git_dirs,omitempty"`
	NextSteps       []landing.Step        `json:"next_steps"`
	AlreadyLandedAs string                `json:"already_landed_as,omitempty"`
	Warnings        []string              `json:"warnings,omitempty"`
	Merge           *landing.MergePreview `json:"merge,omitempty"`
}

func planView(p *landing.Plan) *landPlan {
	return &landPlan{File: p.File, Encoding: p.Encoding, ContentSHA256: p.ContentSHA256, ID: p.ID, FilesDir: p.FilesDir,
		Goal: p.Goal, Note: p.Note, Integrity: p.Integrity, Checks: p.Checks, Facts: p.Facts, OwnLineage: p.OwnLineage,
		Asks: p.Asks, Instructions: p.Instructions, Credentials: p.Credentials, Repairs: p.Repairs, Luggage: p.Luggage,
		GitDirs: p.GitDirs, NextSteps: p.NextSteps, AlreadyLandedAs: p.AlreadyLandedAs, Warnings: p.Warnings, Merge: p.Merge}
}

type landArgs struct {
	Path     string `json:"path"`
	DryRun   bool   `json:"dry_run"`
	FilesOut string `json:"files_out"`
}

func (s *Server) land(ctx context.Context, in landArgs) (*landResult, error) {
	if err := required("path", in.Path); err != nil {
		return nil, err
	}
	path, err := s.confine(ctx, "path", in.Path, read)
	if err != nil {
		return nil, err
	}
	filesOut := ""
	if in.FilesOut != "" {
		if filesOut, err = s.confine(ctx, "files_out", in.FilesOut, write); err != nil {
			return nil, err
		}
	}
	// The signer (D22) as the person's trust store knows it; an agent can
	// never add a key to it (no tool takes --trust-sender).
	var senders landing.Senders
	if ts, err := trust.OpenDefault(s.cfg.Env); err == nil {
		senders = ts.Senders()
	}
	var judged *landing.Judged
	if in.DryRun {
		// A dry run plans from the pack as it was read before, while the
		// file is unchanged (filestamp.Memo); a landing reads it again and
		// verifies every byte it writes.
		if judged, err = s.planned.Of(path, path, func() (*landing.Judged, error) {
			return landing.Judge(ctx, path, pack.Limits{})
		}); err != nil {
			return nil, err
		}
	}
	rep, err := landing.Receive(ctx, s.cfg.Store, landing.ReceiveRequest{
		Path: path, DryRun: in.DryRun, Judged: judged, Decisions: landing.Decisions{FilesOut: filesOut},
		Env:     landing.Env{Machine: s.machine(), Actor: s.actor("")},
		Senders: senders,
	})
	if err != nil {
		return nil, err
	}
	plan := rep.Plan
	res := &landResult{OK: true, DryRun: in.DryRun, Kind: plan.Kind, Lineage: plan.Lineage, From: plan.Sender, Signer: plan.Signer,
		Title: plan.Title, Luggage: []string{}, DataNotice: DataNotice, Plan: planView(plan),
		InstructionsInPack: len(plan.Instructions), CredentialLikeInPack: len(plan.Credentials),
		Verdict: rep.Verdict.Verdict, UnmetChecks: rep.Verdict.UnmetChecks, OpenAskItems: rep.Verdict.OpenAsks}
	for _, l := range plan.Luggage {
		res.Luggage = append(res.Luggage, l.Name)
	}
	for _, f := range plan.Facts {
		if f.Sealed {
			res.NeedsReverify++
		}
	}
	for _, c := range plan.Checks {
		if c.Required {
			res.LandingChecksRequired++
		}
	}
	for _, a := range plan.Asks {
		if a.Status == model.AskOpen {
			res.OpenAsks++
		}
	}
	if in.DryRun {
		res.Asks, res.LandingChecksInPack = arrayOf(rep.Object.Get("asks")), arrayOf(rep.Object.Get("landing_checks"))
	}
	switch {
	case rep.Merged != nil:
		res.Merged, res.PassportID = rep.Merged, rep.Merged.Target
		res.InstructionsInPack += len(rep.Merged.Instructions)
	case rep.Landed != nil:
		res.Landed, res.PassportID = rep.Landed, rep.Landed.ID
		// What the luggage's text held, found while it was written.
		res.InstructionsInPack += len(rep.Landed.Instructions)
		res.CredentialLikeInPack += len(rep.Landed.Credentials)
		res.Luggage = append([]string{}, rep.Landed.Files...)
		res.HandoffPrompt, _ = briefing.Prompt(rep.Landed.ID, "en")
	}
	return res, nil
}

// arrayOf is v when it is an array, else an empty one.
func arrayOf(v *ojson.Value) *ojson.Value {
	if v.Kind() == ojson.Array {
		return v
	}
	return ojson.NewArray()
}
