package mcp

import (
	"errors"
	"io/fs"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/checkpoint"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/pack"
)

// The codes an isError result carries beside its sentence, so an agent
// can act without parsing prose.
const (
	codeConflict = "conflict"  // the state moved: read again (current_version says to what)
	codeNotFound = "not_found" // no such passport, act, ask, check or file
	codeRefused  = "refused"   // a rule said no (rule names it); nothing was written
	codeExists   = "exists"    // the file to write is there; force: true replaces it
	codeInvalid  = "invalid"   // the arguments are wrong
	codeFailed   = "failed"    // anything else (a disk, a git remote, a bug)
)

// toolError is an error with its code (and the rule, for a refusal).
type toolError struct {
	Code string
	Rule string
	Err  error
}

func (e *toolError) Error() string { return e.Err.Error() }
func (e *toolError) Unwrap() error { return e.Err }

func invalid(err error) error { return &toolError{Code: codeInvalid, Err: err} }

// errorDoc is an isError result's structured content.
type errorDoc struct {
	OK         bool      `json:"ok"`
	Error      errorBody `json:"error"`
	DataNotice string    `json:"data_notice"`
}

type errorBody struct {
	Code           string `json:"code"`
	Message        string `json:"message"`
	Rule           string `json:"rule,omitempty"`
	CurrentVersion *int64 `json:"current_version,omitempty"` // a conflict: the version to read and redo against
	Path           string `json:"path,omitempty"`            // exists: the file that is there
}

// classify finds an error's code.
func classify(err error) errorBody {
	b := errorBody{Code: codeFailed, Message: sanitize.Line(err.Error())}
	var te *toolError
	var sc *store.ConflictError
	var nf *store.ErrNotFound
	var ee *landing.ExistsError
	var ce *checkpoint.Error
	var pe *pack.Error
	var ac *recordlog.LogConflictError
	var acred *acts.CredentialError
	var aset *acts.SettledError
	var lcred *landing.CredentialError
	var nohome *landing.NoHomeError
	switch {
	case errors.As(err, &te) && te.Code != "":
		b.Code, b.Rule = te.Code, te.Rule
		if te.Code != codeConflict {
			break
		}
		if errors.As(err, &sc) {
			b.CurrentVersion = &sc.Found
		}
	case errors.As(err, &sc):
		b.Code, b.CurrentVersion = codeConflict, &sc.Found
	case errors.As(err, &ac):
		b.Code = codeConflict
	case errors.As(err, &acred):
		b.Code, b.Rule = codeRefused, "D5 credential table: "+acred.Rule
	case errors.As(err, &lcred):
		b.Code, b.Rule = codeRefused, "D5 credential table: "+lcred.Rule
	case errors.As(err, &nohome):
		b.Code, b.Rule = codeRefused, "TaskPack 0.1 §4.4.1, D6: a receipt goes home along the lineage; this passport has none"
	case errors.As(err, &aset):
		b.Code, b.Rule = codeRefused, "Acts 0.3 §10: only the principal reopens a settled act"
	case errors.As(err, &nf):
		b.Code = codeNotFound
	case errors.As(err, &ce):
		b.Code, b.Rule = codeRefused, sanitize.Line(ce.Rule)
	case errors.As(err, &pe):
		b.Code, b.Rule = codeRefused, sanitize.Line(pe.Rule)
	case errors.As(err, &ee):
		b.Code, b.Path = codeExists, ee.Path
	case errors.Is(err, fs.ErrExist):
		b.Code = codeExists
	case errors.Is(err, fs.ErrNotExist):
		b.Code = codeNotFound
	case strings.HasPrefix(err.Error(), "arguments:"):
		b.Code = codeInvalid
	case strings.Contains(err.Error(), "refus"):
		b.Code = codeRefused
	}
	return b
}

// errorResult is a failed call as the protocol wants it: isError, the
// sentence first (one line, terminal-safe: it can quote a pack), the data
// label after it, and the code in the structured content. The label is
// there as on a success: an error can quote a pack's or a passport's text.
func errorResult(err error) *sdk.CallToolResult {
	body := classify(err)
	doc := errorDoc{Error: body, DataNotice: DataNotice}
	return &sdk.CallToolResult{
		IsError: true,
		Content: []sdk.Content{
			&sdk.TextContent{Text: body.Message},
			&sdk.TextContent{Text: "[" + body.Code + "] " + DataNotice},
		},
		StructuredContent: doc,
	}
}
