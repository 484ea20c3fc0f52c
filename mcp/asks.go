package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
)

func (s *Server) addAskTools() {
	addTool(s, "tp_asks_list",
		"List a passport's asks and answers; sent: this passport asked it.",
		readOnly, "", s.asksList)
	addTool(s, "tp_asks_answer",
		"Answer asks against their accept, or drop them; all or none.",
		idempotent, "", s.asksAnswer)
	addTool(s, "tp_checks_list",
		"List a passport's landing checks; how is the sender's suggestion.",
		readOnly, "", s.checksList)
	addTool(s, "tp_checks_report",
		"Record landing checks you carried out.",
		idempotent, "", s.checksReport)
	addTool(s, "tp_receipt_pack",
		"Pack the answers to the asks this passport received, for the passport that asked.",
		replaces, "", s.receiptPack)
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

func (s *Server) asksList(ctx context.Context, in idArgs) (asksDoc, error) {
	st, err := s.cfg.Store.Get(in.PassportID)
	if err != nil {
		return asksDoc{}, err
	}
	return asksOf(st.V, st.Version), nil
}

func (s *Server) by() string { return store.By(s.identity()) }

// machine is this machine's name (D14), resolved once per server.
func (s *Server) machine() string {
	_, m := s.identity()
	return m
}

// actor is who acts: the call's own name for it, else the server's.
func (s *Server) actor(given string) string {
	if a := strings.TrimSpace(given); a != "" {
		return a
	}
	a, _ := s.identity()
	return a
}

type answerArgs struct {
	PassportID string `json:"passport_id" jsonschema:"Exact id."`
	Answers    []struct {
		ID     string `json:"id" jsonschema:"The ask's id."`
		Answer string `json:"answer" jsonschema:"The answer."`
	} `json:"answers,omitempty" jsonschema:"Answers to record."`
	Drop []string `json:"drop,omitempty" jsonschema:"Ids of asks no longer needed."`
}

func (s *Server) asksAnswer(ctx context.Context, in answerArgs) (asksDoc, error) {
	if len(in.Answers)+len(in.Drop) == 0 {
		return asksDoc{}, invalid(fmt.Errorf("arguments: give answers or drop"))
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
		return asksDoc{}, err
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

func (s *Server) checksList(ctx context.Context, in idArgs) (checksDoc, error) {
	st, err := s.cfg.Store.Get(in.PassportID)
	if err != nil {
		return checksDoc{}, err
	}
	return checksOf(st.V, st.Version), nil
}

type reportArgs struct {
	PassportID string `json:"passport_id" jsonschema:"Exact id."`
	Reports    []struct {
		ID     string `json:"id" jsonschema:"The check's id."`
		Status string `json:"status" jsonschema:"passed, failed, skipped or pending."`
	} `json:"reports" jsonschema:"What you found."`
}

func (s *Server) checksReport(ctx context.Context, in reportArgs) (checksDoc, error) {
	if len(in.Reports) == 0 {
		return checksDoc{}, invalid(fmt.Errorf("arguments: reports is empty"))
	}
	for _, r := range in.Reports {
		if _, err := store.ParseCheckStatus(r.Status); err != nil {
			return checksDoc{}, invalid(fmt.Errorf("arguments: check %s: %v", r.ID, err))
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
		return checksDoc{}, err
	}
	ver, _ := v.Get("version").Int()
	return checksOf(v, ver), nil
}
