package a2a

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	sdk "github.com/a2aproject/a2a-go/a2a"

	"github.com/tp-dev/tp/internal/limitread"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// ExportOptions bound an export.
type ExportOptions struct {
	Limits       pack.Limits // D10; zero: the defaults
	MaxPackBytes int64       // the largest pack carried inline; 0: DefaultMaxPackBytes
}

// RuleNoRootID is the refusal of a pack that has no lineage.root_id: A2A's
// Task.id is required, and §5 says it is the root id.
const RuleNoRootID = "§5 Task.id"

// RuleTooLarge is the refusal of a pack larger than a Task carries inline.
const RuleTooLarge = "D23 max-pack-bytes"

// Export reads the pack at file (every D10 limit applies) and states it as
// an A2A Task (D23): id = lineage.root_id, contextId = ContextID(chain),
// the pack file itself as the "taskpack" artifact, each luggage file and
// each passport.artifacts entry as an artifact, no history, the extension's
// data in metadata under ExtensionURI, and the state from the receiver
// verdict (landing.PackVerdict).
func Export(file string, opts ExportOptions) (*sdk.Task, error) {
	max := opts.MaxPackBytes
	if max <= 0 {
		max = DefaultMaxPackBytes
	}
	p, err := pack.Open(file, pack.Options{Limits: opts.Limits})
	if err != nil {
		return nil, err
	}
	defer p.Close()
	raw, err := readCapped(file, max)
	if err != nil {
		return nil, err
	}
	return TaskOf(p, filepath.Base(file), raw)
}

func readCapped(file string, max int64) ([]byte, error) {
	b, err := limitread.File(file, max)
	if errors.Is(err, limitread.ErrTooLarge) {
		return nil, &pack.Error{File: file, Rule: RuleTooLarge,
			Detail: "larger than the " + strconv.FormatInt(max, 10) + " bytes a Task carries inline (--max-pack-bytes raises it)"}
	}
	return b, err
}

// TaskOf states an opened pack as a Task; raw is the pack file's bytes and
// name its file name.
func TaskOf(p *pack.Pack, name string, raw []byte) (*sdk.Task, error) {
	po := model.PackObject{V: p.Object}
	lin := po.Lineage()
	if lin.RootID == "" {
		return nil, &pack.Error{File: p.Path, Entry: "lineage.root_id", Rule: RuleNoRootID,
			Detail: "the pack names no root_id, and an A2A Task needs an id (TaskPack 0.1 §5: Task.id is lineage.root_id)"}
	}
	ctxID := ContextID(lin.Chain)
	if ctxID == "" {
		ctxID = lin.RootID
	}
	v := landing.PackVerdict(p.Object)
	t := &sdk.Task{
		ID:        sdk.TaskID(lin.RootID),
		ContextID: ctxID,
		Status:    StatusOf(po.Kind(), v, packedAt(po.PackedAt()), string(sdk.TaskID(lin.RootID))),
		Metadata:  map[string]any{ExtensionURI: packMetadata(po, v)},
	}
	t.Artifacts = append(t.Artifacts, PackArtifact(p.Encoding, name, raw, p.Digest))
	listed := map[string]bool{}
	for _, a := range po.Passport().Artifacts() {
		listed[a] = true
	}
	inLuggage := map[string]bool{}
	for _, l := range p.Luggage {
		inLuggage[l.Name] = true
		art, err := luggageArtifact(p, l, listed[l.Name])
		if err != nil {
			return nil, err
		}
		t.Artifacts = append(t.Artifacts, art)
	}
	for i, a := range po.Passport().Artifacts() {
		if inLuggage[a] {
			continue
		}
		t.Artifacts = append(t.Artifacts, &sdk.Artifact{
			ID:          sdk.ArtifactID("passport-artifact:" + strconv.Itoa(i)),
			Name:        a,
			Description: "listed in passport.artifacts; the pack carries no file of that name",
			Extensions:  []string{ExtensionURI},
			Parts:       sdk.ContentParts{sdk.TextPart{Text: a}},
			Metadata:    map[string]any{ExtensionURI: map[string]any{"role": RolePassportArtifact, "index": i}},
		})
	}
	return t, nil
}

// PackArtifact carries a pack file byte for byte (base64, its media type).
func PackArtifact(enc pack.Encoding, name string, raw []byte, digest string) *sdk.Artifact {
	return &sdk.Artifact{
		ID:          PackArtifactID,
		Name:        name,
		Description: "the TaskPack itself (TaskPack 0.1 §5): land it with tp land",
		Extensions:  []string{ExtensionURI},
		Parts: sdk.ContentParts{sdk.FilePart{File: sdk.FileBytes{
			FileMeta: sdk.FileMeta{MimeType: MediaType(enc), Name: name},
			Bytes:    base64.StdEncoding.EncodeToString(raw),
		}}},
		Metadata: map[string]any{ExtensionURI: map[string]any{
			"role": RolePack, "encoding": string(enc), "sha256": digest, "bytes": len(raw)}},
	}
}

func luggageArtifact(p *pack.Pack, l pack.Luggage, listed bool) (*sdk.Artifact, error) {
	meta := map[string]any{"role": RoleLuggage, "path": "data/files/" + l.Name, "bytes": l.Size, "sha256": l.SHA256,
		"passport_artifact": listed}
	art := &sdk.Artifact{
		ID:         sdk.ArtifactID("file:" + l.Name),
		Name:       l.Name,
		Extensions: []string{ExtensionURI},
		Metadata:   map[string]any{ExtensionURI: meta},
	}
	if l.Size > pack.MaxInlineBytes {
		// Carried once, inside the pack artifact (D23).
		art.Description = "luggage larger than max_inline_attachment_bytes: its bytes travel inside the taskpack artifact only"
		meta["in_artifact"] = string(PackArtifactID)
		art.Parts = sdk.ContentParts{sdk.DataPart{Data: map[string]any{"name": l.Name, "bytes": l.Size, "sha256": l.SHA256}}}
		return art, nil
	}
	rc, err := p.OpenLuggage(l.Name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, pack.MaxInlineBytes+1))
	if err != nil {
		return nil, err
	}
	art.Description = "luggage (data/files/" + l.Name + ")"
	art.Parts = sdk.ContentParts{sdk.FilePart{File: sdk.FileBytes{
		FileMeta: sdk.FileMeta{MimeType: mediaOf(l.Name), Name: path.Base(l.Name)},
		Bytes:    base64.StdEncoding.EncodeToString(b),
	}}}
	return art, nil
}

// mediaTypes is a fixed table, not the system's (mime.TypeByExtension
// reads /etc/mime.types): an export says the same on every machine.
var mediaTypes = map[string]string{
	".md": "text/markdown", ".txt": "text/plain", ".csv": "text/csv", ".json": "application/json",
	".html": "text/html", ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".pdf": "application/pdf", ".zip": "application/zip", ".taskpack": MediaBag,
}

func mediaOf(name string) string {
	if t, ok := mediaTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// packMetadata is the extension's data on a Task: what §5 says A2A has no
// field for (asks with accept, landing checks, facts with scope and seal),
// beside the kind, the lineage and the verdict.
func packMetadata(po model.PackObject, v landing.Verdict) map[string]any {
	return packMeta(po, v)
}

// PackMetadata is the extension's data for a pack object (as on an exported Task).
func PackMetadata(obj *ojson.Value) map[string]any {
	return packMeta(model.PackObject{V: obj}, landing.PackVerdict(obj))
}

func packMeta(po model.PackObject, v landing.Verdict) map[string]any {
	lin := po.Lineage()
	chain := make([]any, len(lin.Chain))
	for i, e := range lin.Chain {
		chain[i] = e
	}
	asks := []any{}
	for _, a := range po.Asks() {
		m := map[string]any{"id": a.ID(), "to": a.To(), "what": a.What(), "why": a.Why(), "accept": a.Accept(), "status": a.Status()}
		if ans := a.Answer(); ans != "" {
			m["answer"] = ans
		}
		asks = append(asks, m)
	}
	checks := []any{}
	for _, c := range po.LandingChecks() {
		m := map[string]any{"id": c.ID(), "check": c.Check(), "how": c.How(), "required": c.Required()}
		if s := c.Status(); s != "" {
			m["status"] = s
		}
		checks = append(checks, m)
	}
	facts := []any{}
	for _, f := range po.Passport().Facts() {
		scope := f.Scope()
		if !f.HasScope() {
			scope = "machine" // §4.2: a fact with no scope is machine-scoped
		}
		m := map[string]any{"claim": f.Claim(), "scope": scope, "verified": f.Verified(), "needs_reverify": f.NeedsReverify(), "sealed": f.Sealed()}
		if on := f.VerifiedOn(); on != "" {
			m["verified_on"] = on
		}
		facts = append(facts, m)
	}
	unmet, open := []any{}, []any{}
	for _, c := range v.UnmetChecks {
		unmet = append(unmet, c.ID)
	}
	for _, a := range v.OpenAsks {
		open = append(open, a.ID)
	}
	return map[string]any{
		"kind":           po.Kind(),
		"spec":           po.V.Get("spec").Text(),
		"lineage":        map[string]any{"root_id": lin.RootID, "from_version": lin.FromVersion, "chain": chain},
		"asks":           asks,
		"landing_checks": checks,
		"facts":          facts,
		"verdict":        map[string]any{"verdict": v.Verdict, "unmet_checks": unmet, "open_asks": open},
	}
}

// StatusOf is a Task's status from a receiver verdict (D23): needs_input is
// input-required, saying what the person will be asked; accepted is
// completed for a receipt (the answer is in) and submitted for a handoff
// (nobody has worked on it yet). at stamps it; id makes the message id
// stable.
func StatusOf(kind string, v landing.Verdict, at *time.Time, id string) sdk.TaskStatus {
	st := sdk.TaskStatus{Timestamp: at}
	var text string
	switch {
	case v.Verdict == landing.VerdictNeedsInput:
		st.State = sdk.TaskStateInputRequired
		text = NeedsInputText(v)
	case kind == model.KindReceipt:
		st.State = sdk.TaskStateCompleted
		text = "accepted: the receipt leaves nothing open"
	default:
		st.State = sdk.TaskStateSubmitted
		text = "accepted: no required landing check or open ask; waiting for the person to land it"
	}
	st.Message = &sdk.Message{ID: "status-" + id + "-" + string(st.State), Role: sdk.MessageRoleAgent,
		Parts: sdk.ContentParts{sdk.TextPart{Text: text}}}
	return st
}

// NeedsInputText says what the person will be asked, by id: the checks and
// asks are the sender's text and travel in metadata, not here.
func NeedsInputText(v landing.Verdict) string {
	var parts []string
	if n := len(v.UnmetChecks); n > 0 {
		ids := make([]string, n)
		for i, c := range v.UnmetChecks {
			ids[i] = c.ID
		}
		parts = append(parts, "attest "+plural.N(n, "required landing check")+" ("+strings.Join(ids, ", ")+")")
	}
	if n := len(v.OpenAsks); n > 0 {
		ids := make([]string, n)
		for i, a := range v.OpenAsks {
			ids[i] = a.ID
		}
		parts = append(parts, "answer "+plural.N(n, "open ask")+" ("+strings.Join(ids, ", ")+")")
	}
	return fmt.Sprintf("needs input: the person will be asked to %s", strings.Join(parts, " and "))
}

func packedAt(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}
