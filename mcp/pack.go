package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/internal/trust"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/taskpassport"
)

const (
	schemaPack = `{"type":"object","additionalProperties":false,"required":["passport_id","out"],"properties":{
  "passport_id":{"type":"string","description":"Exact id, for example TP-7K4M-9D2Q."},
  "out":{"type":"string","description":"Output path, inside the client's roots (else the server's working directory): a name ending .taskpack for the zip form, .taskpack.json for the flat form. An existing file is refused unless force is true."},
  "force":{"type":"boolean","description":"Replace out if it exists. Default false: an existing out is refused (code exists) and left unchanged."},
  "encoding":{"type":"string","enum":["bagit-zip","flat"],"description":"Default bagit-zip; flat when the receiver installed nothing."},
  "actor":{"type":"string","description":"Who is sending this, in plain words. Not an account."},
  "note":{"type":"string","description":"One line for the receiver."},
  "kind":{"type":"string","enum":["handoff","receipt"],"description":"handoff hands work over; receipt answers someone else's asks."},
  "files":{"type":"array","items":{"type":"string"},"description":"Local files or folders to carry as luggage, inside the client's roots (else the server's working directory) or the store. Links inside a folder are not followed; /proc, /sys, /dev, devices and FIFOs are refused."},
  "asks":{"type":"array","description":"Requests aimed at the receiver. Every ask MUST state what would count as answered.","items":{"type":"object","additionalProperties":false,"required":["what","accept"],"properties":{
    "id":{"type":"string"},"what":{"type":"string"},"why":{"type":"string"},"accept":{"type":"string","description":"What would count as answered. Without it the pack is refused."}}}},
  "landing_checks":{"type":"array","description":"Checks the receiver must carry out before starting.","items":{"type":"object","additionalProperties":false,"required":["check"],"properties":{
    "id":{"type":"string"},"check":{"type":"string"},"how":{"type":"string","description":"A suggestion for the receiver; never run for them."},"required":{"type":"boolean"}}}}}}`
	schemaLand = `{"type":"object","additionalProperties":false,"required":["path"],"properties":{
  "path":{"type":"string","description":"Path to the pack file you received, inside the client's roots (else the server's working directory) or the store."},
  "dry_run":{"type":"boolean","description":"Report what is inside without creating a passport."},
  "files_out":{"type":"string","description":"Where to unpack luggage: a new folder inside the client's roots (else the server's working directory). Default: the passport's folder in the store."}}}`
	schemaReceipt = `{"type":"object","additionalProperties":false,"required":["passport_id","out"],"properties":{
  "passport_id":{"type":"string","description":"Exact id of the passport that received the asks."},
  "out":{"type":"string","description":"Output path, inside the client's roots (else the server's working directory): a name ending .taskpack (zip) or .taskpack.json (flat). An existing file is refused unless force is true."},
  "force":{"type":"boolean","description":"Replace out if it exists. Default false."},
  "encoding":{"type":"string","enum":["bagit-zip","flat"],"description":"Default bagit-zip."},
  "note":{"type":"string","description":"One line for the receiver."},
  "actor":{"type":"string","description":"Who is sending this, in plain words. Not an account."},
  "files":{"type":"array","items":{"type":"string"},"description":"Local files or folders to carry back as luggage (confined as task_passport_pack's)."}}}`
)

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

func (s *Server) packTool(ctx context.Context, args json.RawMessage) (any, error) {
	var in packArgs
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	return s.pack(ctx, in)
}

func (s *Server) receiptPack(ctx context.Context, args json.RawMessage) (any, error) {
	var in packArgs
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	in.Kind = model.KindReceipt
	return s.pack(ctx, in)
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
			Actor: store.Actor(in.Actor, s.cfg.Env), Machine: store.Machine(s.cfg.Env),
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
	Plan                 *landing.Plan       `json:"plan"`
	Landed               *landing.Landed     `json:"landed,omitempty"`
	Merged               *landing.Merged     `json:"merged,omitempty"`
	InstructionsInPack   int                 `json:"instructions_in_pack"`
	CredentialLikeInPack int                 `json:"credential_like_in_pack"`
}

func (s *Server) land(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct {
		Path     string `json:"path"`
		DryRun   bool   `json:"dry_run"`
		FilesOut string `json:"files_out"`
	}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
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
	rep, err := landing.Receive(ctx, s.cfg.Store, landing.ReceiveRequest{
		Path: path, DryRun: in.DryRun, Decisions: landing.Decisions{FilesOut: filesOut},
		Env:     landing.Env{Machine: store.Machine(s.cfg.Env), Actor: store.Actor("", s.cfg.Env)},
		Senders: senders,
	})
	if err != nil {
		return nil, err
	}
	plan := rep.Plan
	res := &landResult{OK: true, DryRun: in.DryRun, Kind: plan.Kind, Lineage: plan.Lineage, From: plan.Sender, Signer: plan.Signer,
		Title: plan.Title, Luggage: []string{}, DataNotice: DataNotice, Plan: plan,
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
	case rep.Landed != nil:
		res.Landed, res.PassportID = rep.Landed, rep.Landed.ID
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
