package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
)

const (
	schemaAnswer = `{"type":"object","additionalProperties":false,"required":["passport_id"],"properties":{
  "passport_id":{"type":"string"},
  "answers":{"type":"array","description":"Answers to record; each is judged against the ask's accept rule by whoever asked.","items":{"type":"object","additionalProperties":false,"required":["id","answer"],"properties":{"id":{"type":"string"},"answer":{"type":"string"}}}},
  "drop":{"type":"array","items":{"type":"string"},"description":"Ids of asks no longer needed."}}}`
	schemaReport = `{"type":"object","additionalProperties":false,"required":["passport_id","reports"],"properties":{
  "passport_id":{"type":"string"},
  "reports":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["id","status"],"properties":{
    "id":{"type":"string"},"status":{"type":"string","enum":["pending","passed","failed","skipped"]}}}}}}`
)

func (s *Server) addAskTools() {
	s.add("tp_asks_list",
		"List a passport's asks (TaskPack §4.3) with what, why, accept (what counts as answered), status and answer; sent says this passport asked it and waits for a receipt. Read-only.",
		readOnly, schemaID, s.asksList)
	s.add("tp_asks_answer",
		"Answer asks (status answered, answered_by, answered_at) or drop ones no longer needed, saved together or not at all. Answer against each ask's accept rule; then tp_receipt_pack sends the answers home.",
		idempotent, schemaAnswer, s.asksAnswer)
	s.add("tp_checks_list",
		"List a passport's landing checks (TaskPack §4.4) and their status. A check's how is the sender's suggestion, shown as data: this server never runs it. Read-only.",
		readOnly, schemaID, s.checksList)
	s.add("tp_checks_report",
		"Report the status of landing checks you carried out yourself (passed, failed, skipped, or pending again). This records what you attest; it never runs a check's how.",
		idempotent, schemaReport, s.checksReport)
	s.add("tp_receipt_pack",
		"Pack a receipt: the answers to the asks this passport received, going home to the passport that asked (TaskPack §4.4.1). Same refusals and confinement as task_passport_pack; an existing out is replaced only with force true.",
		replaces, schemaReceipt, s.receiptPack)
}

// askDoc is one ask as the tools show it.
type askDoc struct {
	ID         string `json:"id"`
	To         string `json:"to,omitempty"`
	What       string `json:"what"`
	Why        string `json:"why,omitempty"`
	Accept     string `json:"accept"`
	Status     string `json:"status"`
	Answer     string `json:"answer,omitempty"`
	AnsweredBy string `json:"answered_by,omitempty"`
	AnsweredAt string `json:"answered_at,omitempty"`
	Sent       bool   `json:"sent"`
}

type asksDoc struct {
	PassportID   string   `json:"passport_id"`
	StateVersion int64    `json:"state_version"`
	DataNotice   string   `json:"data_notice"`
	Asks         []askDoc `json:"asks"`
}

func asksOf(v *ojson.Value, version int64) asksDoc {
	d := asksDoc{PassportID: v.Get("id").Text(), StateVersion: version, DataNotice: DataNotice, Asks: []askDoc{}}
	for _, a := range store.Asks(v) {
		d.Asks = append(d.Asks, askDoc{ID: a.ID(), To: a.To(), What: a.What(), Why: a.Why(), Accept: a.Accept(),
			Status: store.AskStatus(a), Answer: a.Answer(), AnsweredBy: a.AnsweredBy(), AnsweredAt: a.AnsweredAt(),
			Sent: a.V.Has(landing.AskedAt)})
	}
	return d
}

func (s *Server) asksList(ctx context.Context, args json.RawMessage) (any, error) {
	st, err := s.passportOnly(args)
	if err != nil {
		return nil, err
	}
	return asksOf(st.V, st.Version), nil
}

func (s *Server) by() string { return store.By(store.Actor("", s.cfg.Env), store.Machine(s.cfg.Env)) }

func (s *Server) asksAnswer(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct {
		PassportID string `json:"passport_id"`
		Answers    []struct {
			ID     string `json:"id"`
			Answer string `json:"answer"`
		} `json:"answers"`
		Drop []string `json:"drop"`
	}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if len(in.Answers)+len(in.Drop) == 0 {
		return nil, fmt.Errorf("arguments: give answers or drop")
	}
	// The command line's job (tp asks --answer): one save, re-applied on
	// a conflict, and an answer holding a credential refused (D5).
	req := landing.AsksRequest{ID: in.PassportID, By: s.by()}
	for _, a := range in.Answers {
		req.Edits = append(req.Edits, landing.AskEdit{ID: a.ID, Answer: a.Answer})
	}
	for _, id := range in.Drop {
		req.Edits = append(req.Edits, landing.AskEdit{ID: id, Drop: true})
	}
	rep, err := landing.EditAsks(ctx, s.cfg.Store, req)
	if err != nil {
		return nil, err
	}
	return asksOf(rep.Passport, rep.Version), nil
}

type checkDoc struct {
	ID          string `json:"id"`
	Check       string `json:"check"`
	How         string `json:"how,omitempty"`
	SuggestedBy string `json:"how_suggested_by,omitempty"`
	Required    bool   `json:"required"`
	Status      string `json:"status"`
}

type checksDoc struct {
	PassportID   string     `json:"passport_id"`
	StateVersion int64      `json:"state_version"`
	DataNotice   string     `json:"data_notice"`
	Checks       []checkDoc `json:"landing_checks"`
}

func checksOf(v *ojson.Value, version int64) checksDoc {
	d := checksDoc{PassportID: v.Get("id").Text(), StateVersion: version, DataNotice: DataNotice, Checks: []checkDoc{}}
	sender := v.Get("landed_from").Get("origin")
	by := ""
	if a, m := sender.Get("actor").Text(), sender.Get("machine").Text(); a != "" || m != "" {
		by = a + "@" + m
	}
	for _, c := range store.Checks(v) {
		cd := checkDoc{ID: c.ID(), Check: c.Check(), How: c.How(), Required: c.Required(), Status: store.CheckStatus(c)}
		if cd.How != "" {
			cd.SuggestedBy = by
			if by == "" {
				cd.SuggestedBy = "the sender"
			}
		}
		d.Checks = append(d.Checks, cd)
	}
	return d
}

func (s *Server) checksList(ctx context.Context, args json.RawMessage) (any, error) {
	st, err := s.passportOnly(args)
	if err != nil {
		return nil, err
	}
	return checksOf(st.V, st.Version), nil
}

func (s *Server) checksReport(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct {
		PassportID string `json:"passport_id"`
		Reports    []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"reports"`
	}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if len(in.Reports) == 0 {
		return nil, fmt.Errorf("arguments: reports is empty")
	}
	for _, r := range in.Reports {
		if _, err := store.ParseCheckStatus(r.Status); err != nil {
			return nil, fmt.Errorf("check %s: %v", r.ID, err)
		}
	}
	by, now := s.by(), time.Now()
	v, err := s.cfg.Store.Apply(in.PassportID, func(v *ojson.Value) error {
		for _, r := range in.Reports {
			if err := store.SetCheck(v, r.ID, r.Status, by, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	ver, _ := v.Get("version").Int()
	return checksOf(v, ver), nil
}
