package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/trust"
)

const (
	schemaSync = `{"type":"object","additionalProperties":false,"required":["document","project"],"properties":{
"document":{"type":"string","description":"The project's state document (Markdown)."},
"project":{"type":"string","description":"The project; part of every key."},
"profile":{"type":"string","enum":["en","zh-hant"],"description":"The Markdown binding; default en."},
"principal_tag":{"type":"string","description":"zh-hant only."},
"dry_run":{"type":"boolean","description":"Write nothing."}}}`
	schemaActsList = `{"type":"object","additionalProperties":false,"properties":{
"project":{"type":"string","description":"Only this project's acts."}}}`
	schemaClaim = `{"type":"object","additionalProperties":false,"required":["key","outcome","basis"],"properties":{
"key":{"type":"string","description":"The act's key."},"project":{"type":"string","description":"Its project."},
"outcome":{"type":"string","enum":["done","dropped"],"description":"What you believe happened."},
"basis":{"type":"string","description":"Why you believe it."}}}`
	schemaKey = `{"type":"object","additionalProperties":false,"required":["key"],"properties":{
"key":{"type":"string","description":"The act's key."},"project":{"type":"string","description":"Its project."}}}`
	schemaNote = `{"type":"object","additionalProperties":false,"required":["key","text"],"properties":{
"key":{"type":"string","description":"The act's key."},"project":{"type":"string","description":"Its project."},"text":{"type":"string","description":"The note."}}}`
	schemaWait = `{"type":"object","additionalProperties":false,"required":["key"],"properties":{
"key":{"type":"string","description":"The act's key."},"project":{"type":"string","description":"Its project."},
"timeout_seconds":{"type":"number","minimum":0,"maximum":3600,"description":"Default 45; longer needs a client that resets its timeout on progress."}}}`
)

func (s *Server) addActsTools() {
	addTool(s, "tp_acts_sync",
		"Run the Acts registrar over a state document (Acts 0.3 §4): raise principal lines, stamp keys, apply settlements back (rewrites lines).",
		hints{destructive: true, idempotent: true}, schemaSync, s.actsSync)
	addTool(s, "tp_acts_list",
		"List acts: state, settlement and notes.",
		idempotent, schemaActsList, s.actsList)
	addTool(s, "tp_acts_claim",
		"Claim the principal did or dropped an act; a claim never settles it.",
		additive, schemaClaim, s.actsClaim)
	addTool(s, "tp_acts_withdraw",
		"Withdraw an act you no longer need; the principal still settles it.",
		additive, schemaKey, s.actsWithdraw)
	addTool(s, "tp_acts_note",
		"Send the project a note about an act; notes never change its state.",
		additive, schemaNote, s.actsNote)
	addTool(s, "tp_acts_wait",
		"Wait until the principal settles an act or the timeout passes (then call again); progress every 5 s.",
		idempotent, schemaWait, s.actsWait)
}

func (s *Server) actsLog() (*recordlog.Log, error) {
	if s.cfg.ActsDir == "" {
		return nil, errors.New("no acts folder: set --acts-dir or TP_ACTS")
	}
	l := recordlog.OpenLog(s.cfg.ActsDir)
	l.CacheDir = recordlog.DefaultCacheDir(s.cfg.Env)
	// D19: the person's trust store decides whose settlements count here
	// too; an agent through MCP never adds to it.
	ts, err := trust.OpenDefault(s.cfg.Env)
	if err != nil {
		return nil, err
	}
	l.Trust = ts
	return l, nil
}

// session is the acts session over the log (actsession): the same pull,
// list, find, write, commit and push as the command line's. Warnings (an
// unreachable upstream, a failed push) go to the server's log; a later
// call pushes.
func (s *Server) session() (*actsession.Session, error) {
	l, err := s.actsLog()
	if err != nil {
		return nil, err
	}
	return actsession.New(l, actsession.Options{Offline: s.cfg.Offline, Via: "tp mcp:", Warn: func(err error) {
		fmt.Fprintf(s.cfg.Log, "tp mcp: warning: %s\n", sanitize.Line(err.Error()))
	}}), nil
}

// pulled is session after a pull (D20): a conflict is the call's error.
func (s *Server) pulled(ctx context.Context) (*actsession.Session, error) {
	ss, err := s.session()
	if err != nil {
		return nil, err
	}
	if err := ss.Pull(ctx); err != nil {
		return nil, fmt.Errorf("acts over git: %v (tp mcp --offline works on this machine's copy)", err)
	}
	return ss, nil
}

// findings are what the log holds beside the acts that the agent must be
// told (records not applied and why, files not read, applied records gone),
// as tp acts list prints them; never nil, so the result always has the
// field.
func findings(fs []actsession.Finding) []actsession.Finding {
	if fs == nil {
		return []actsession.Finding{}
	}
	return fs
}

func (s *Server) agentSender() acts.Sender {
	return acts.Sender{By: "agent:" + s.by(), Now: time.Now().UTC().Format(time.RFC3339)}
}

// actDoc is an act as the tools show it. The result that carries it says
// once that its text is data; the act does not say it again.
type actDoc struct {
	Key        string `json:"key"`
	Project    string `json:"project"`
	Status     string `json:"status"`
	Outcome    string `json:"outcome,omitempty"`
	Settlement string `json:"settlement,omitempty"` // the settlement record's id, when settled
	// SettlementNote is what the principal wrote on the settlement, and
	// SettledBy who decided it (the signer, when signed).
	SettlementNote string    `json:"settlement_note,omitempty"`
	SettledBy      string    `json:"settled_by,omitempty"`
	Need           string    `json:"need"`
	Reason         string    `json:"reason,omitempty"` // why the need was withdrawn
	Text           string    `json:"text"`
	Due            string    `json:"due,omitempty"`
	Claims         int       `json:"claims"`
	Notes          int       `json:"notes"`
	NoteList       []noteDoc `json:"note_list"` // the newest notes (at most maxNotes), oldest first
}

// noteDoc is one note about an act, from the principal or an agent.
type noteDoc struct {
	Origin string `json:"origin"` // principal or agent
	By     string `json:"by"`
	At     string `json:"at"`
	Text   string `json:"text"`
}

// maxNotes bounds the notes one act shows (Notes says how many there are).
const maxNotes = 10

func actOf(st *acts.ActState) actDoc {
	d := actDoc{Key: st.Key, Project: st.Project, Status: st.Status, Outcome: st.Outcome, Need: st.Need,
		Text: st.Text, Due: st.Due, Claims: len(st.Claims), Notes: len(st.Notes), NoteList: []noteDoc{}}
	if st.Status == acts.StatusSettled {
		d.Settlement = st.SettlementID
		for _, r := range st.Settlements {
			if r.ID != st.SettlementID {
				continue
			}
			d.SettlementNote = r.Note
			d.SettledBy = r.By
			if r.Authority != nil && r.Authority.Decider != "" {
				d.SettledBy = r.Authority.Decider
			}
		}
	}
	if len(st.History) > 0 {
		if last := st.History[len(st.History)-1]; last.Type == acts.TypeWithdrawn {
			d.Reason = last.Reason
		}
	}
	notes := st.Notes
	if len(notes) > maxNotes {
		notes = notes[len(notes)-maxNotes:]
	}
	for _, n := range notes {
		d.NoteList = append(d.NoteList, noteDoc{Origin: n.Origin, By: n.By, At: n.TS, Text: n.NoteText()})
	}
	return d
}

type syncArgs struct {
	Document     string `json:"document"`
	Project      string `json:"project"`
	Profile      string `json:"profile"`
	PrincipalTag string `json:"principal_tag"`
	DryRun       bool   `json:"dry_run"`
}

func (s *Server) actsSync(ctx context.Context, in syncArgs) (*actsession.SyncReport, error) {
	if err := required("document", in.Document, "project", in.Project); err != nil {
		return nil, err
	}
	if in.Profile == "" {
		in.Profile = "en"
	}
	prof, err := acts.ProfileFor(in.Profile, in.PrincipalTag)
	if err != nil {
		return nil, invalid(fmt.Errorf("arguments: %v", err))
	}
	ss, err := s.pulled(ctx)
	if err != nil {
		return nil, err
	}
	doc, err := s.confine(ctx, "document", in.Document, write)
	if err != nil {
		return nil, err
	}
	rep, err := ss.Sync(ctx, actsession.SyncRequest{Document: doc, Project: in.Project, Profile: prof, DryRun: in.DryRun})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

type listArgs struct {
	Project string `json:"project"`
}

// actsListed is tp_acts_list's result.
type actsListed struct {
	DataNotice string   `json:"data_notice"`
	Acts       []actDoc `json:"acts"`
	// Problems are the findings, one line each (as tp acts list prints
	// them); Findings the same as values.
	Problems []string             `json:"problems"`
	Findings []actsession.Finding `json:"findings"`
}

func (s *Server) actsList(ctx context.Context, in listArgs) (*actsListed, error) {
	ss, err := s.pulled(ctx)
	if err != nil {
		return nil, err
	}
	ls, err := ss.List(ctx, in.Project)
	if err != nil {
		return nil, err
	}
	out := &actsListed{DataNotice: DataNotice, Acts: []actDoc{}, Problems: []string{}, Findings: findings(ls.Findings)}
	for _, f := range ls.Findings {
		out.Problems = append(out.Problems, f.Text)
	}
	for _, st := range ls.Acts {
		out.Acts = append(out.Acts, actOf(st))
	}
	return out, nil
}

type actWritten struct {
	Record   string               `json:"record"`
	Type     string               `json:"type"`
	Act      actDoc               `json:"act"`
	Findings []actsession.Finding `json:"findings"`
}

func (s *Server) agentWrite(ctx context.Context, project, key string, build func(*acts.ActState) (acts.Record, error)) (*actWritten, error) {
	ss, err := s.pulled(ctx)
	if err != nil {
		return nil, err
	}
	r, f, err := ss.WriteAgent(ctx, project, key, build)
	if err != nil {
		return nil, err
	}
	return &actWritten{Record: r.ID, Type: r.Type, Act: actOf(f.State), Findings: findings(f.Findings)}, nil
}

type claimArgs struct {
	Key     string `json:"key"`
	Project string `json:"project"`
	Outcome string `json:"outcome"`
	Basis   string `json:"basis"`
}

func (s *Server) actsClaim(ctx context.Context, in claimArgs) (*actWritten, error) {
	return s.agentWrite(ctx, in.Project, in.Key, func(st *acts.ActState) (acts.Record, error) {
		return acts.BuildClaim(st, s.agentSender(), in.Outcome, in.Basis)
	})
}

type keyArgs struct {
	Key     string `json:"key"`
	Project string `json:"project"`
}

func (s *Server) actsWithdraw(ctx context.Context, in keyArgs) (*actWritten, error) {
	return s.agentWrite(ctx, in.Project, in.Key, func(st *acts.ActState) (acts.Record, error) {
		return acts.BuildWithdraw(st, s.agentSender())
	})
}

type noteArgs struct {
	Key     string `json:"key"`
	Project string `json:"project"`
	Text    string `json:"text"`
}

func (s *Server) actsNote(ctx context.Context, in noteArgs) (*actWritten, error) {
	return s.agentWrite(ctx, in.Project, in.Key, func(st *acts.ActState) (acts.Record, error) {
		return acts.BuildAgentNote(st, s.agentSender(), in.Text)
	})
}

// defaultWait is tp_acts_wait's timeout when the call names none, and
// progressEvery how often a wait with a progressToken says it is alive.
const (
	defaultWait   = 45 * time.Second
	progressEvery = 5 * time.Second
)

// progressEvery is Config.ProgressEvery, else every 5 s.
func (s *Server) progressEvery() time.Duration {
	if s.cfg.ProgressEvery > 0 {
		return s.cfg.ProgressEvery
	}
	return progressEvery
}

type waitArgs struct {
	Key            string   `json:"key"`
	Project        string   `json:"project"`
	TimeoutSeconds *float64 `json:"timeout_seconds"`
}

// waited is tp_acts_wait's result.
type waited struct {
	Settled  bool   `json:"settled"`
	TimedOut bool   `json:"timed_out"`
	Act      actDoc `json:"act"`
	// Findings about the act: a settlement whose signature failed is
	// here, never silently taken for an open act's silence (D19).
	Findings []actsession.Finding `json:"findings"`
}

func (s *Server) actsWait(ctx context.Context, in waitArgs) (*waited, error) {
	// Under the 60 s most clients give a request (the TypeScript SDK's
	// default, not reset by progress unless asked): a default wait
	// returns before the client gives up on it.
	timeout := defaultWait
	if in.TimeoutSeconds != nil {
		if *in.TimeoutSeconds < 0 || *in.TimeoutSeconds > 3600 {
			return nil, invalid(fmt.Errorf("arguments: timeout_seconds must be between 0 and 3600"))
		}
		timeout = time.Duration(*in.TimeoutSeconds * float64(time.Second))
	}
	ss, err := s.session()
	if err != nil {
		return nil, err
	}
	opts := actsession.WaitOptions{Timeout: timeout, Every: s.progressEvery(), PullEvery: s.cfg.PullEvery}
	if progress := progressOf(ctx); progress != nil {
		opts.Waiting = func(st *acts.ActState, waited time.Duration) {
			progress(waited.Seconds(), timeout.Seconds(), fmt.Sprintf("waiting for the principal to settle %s (%s, %s)", st.Key, st.Status, plural.N(len(st.Claims), "claim")))
		}
	}
	f, settled, err := ss.Wait(ctx, in.Project, in.Key, opts)
	if err != nil {
		return nil, err
	}
	return &waited{Settled: settled, TimedOut: !settled, Act: actOf(f.State), Findings: findings(f.Findings)}, nil
}
