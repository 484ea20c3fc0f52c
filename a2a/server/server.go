// Package server is `tp a2a serve` (D23): tp as a person's A2A agent. An
// agent that needs the person sends a pack with message/send; the pack is
// checked under every D10 limit and refusal and kept in the store's
// incoming folder — never landed, never run — and the answer is a Task in
// input-required. When the person lands it and packs the receipt,
// tasks/get returns the Task completed with the receipt as its artifact.
//
// What a sender can make tp do is exactly that: deliver a pack, read back
// the state of its task, withdraw it. It cannot land, run anything, or read
// the store. JSON-RPC is a2a-go's (a2asrv.NewJSONRPCHandler); this package
// is its RequestHandler, the Agent Card, and the HTTP guards in front of it
// (a body cap read as a stream, a bearer token beyond loopback).
package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"

	tpa2a "github.com/tp-dev/tp/a2a"
	"github.com/tp-dev/tp/internal/incoming"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// Config is what a server needs.
type Config struct {
	StoreDir     string      // the passport store; packs are kept in its incoming folder
	Limits       pack.Limits // D10; zero: the defaults
	MaxPackBytes int64       // the largest pack a message may carry; 0: tpa2a.DefaultMaxPackBytes
	// Token, when set, is required as "Authorization: Bearer <token>" on
	// every JSON-RPC call and declared in the card (D23).
	Token   string
	URL     string // the JSON-RPC endpoint the card names
	Version string // tp's version, for the card
	Now     func() time.Time
}

// Server serves one store's incoming folder.
type Server struct {
	cfg Config
	mu  sync.Mutex // one intake or withdrawal at a time
}

// New makes a server.
func New(cfg Config) *Server {
	if cfg.MaxPackBytes <= 0 {
		cfg.MaxPackBytes = tpa2a.DefaultMaxPackBytes
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Server{cfg: cfg}
}

// SchemeName is the card's name for the bearer token's security scheme.
const SchemeName sdk.SecuritySchemeName = "bearer"

// Card is the Agent Card: a JSON-RPC agent for a person, declaring the
// TaskPack extension, and the bearer scheme when a token is set.
func (s *Server) Card() *sdk.AgentCard {
	ext := tpa2a.Extension(s.cfg.MaxPackBytes)
	version := s.cfg.Version
	if version == "" {
		version = "dev"
	}
	c := &sdk.AgentCard{
		Name: "tp",
		Description: "A person's TaskPack endpoint: send them a pack (TaskPack 0.1) and they land it with tp when they are back. " +
			"Nothing you send acts on its own; the task stays input-required until they pack the receipt.",
		URL:                s.cfg.URL,
		PreferredTransport: sdk.TransportProtocolJSONRPC,
		ProtocolVersion:    "0.3.0",
		Version:            version,
		Capabilities:       sdk.AgentCapabilities{Extensions: []sdk.AgentExtension{ext}},
		DefaultInputModes:  []string{tpa2a.MediaBag, tpa2a.MediaFlat, "application/json"},
		DefaultOutputModes: []string{tpa2a.MediaBag, tpa2a.MediaFlat},
		Skills: []sdk.AgentSkill{{
			ID:          "taskpack-handoff",
			Name:        "Hand work to a person",
			Description: "Deliver a TaskPack (handoff or receipt) for the person to land; get their receipt back as the task's artifact.",
			Tags:        []string{"taskpack", "handoff", "human"},
			InputModes:  []string{tpa2a.MediaBag, tpa2a.MediaFlat, "application/json"},
			OutputModes: []string{tpa2a.MediaBag, tpa2a.MediaFlat},
		}},
	}
	if s.cfg.Token != "" {
		c.SecuritySchemes = sdk.NamedSecuritySchemes{SchemeName: sdk.HTTPAuthSecurityScheme{
			Scheme: "Bearer", Description: "the token in the file given to tp a2a serve --token-file"}}
		c.Security = []sdk.SecurityRequirements{{SchemeName: sdk.SecuritySchemeScopes{}}}
	}
	return c
}

// Handler serves the Agent Card at /.well-known/agent-card.json and
// JSON-RPC at /, behind the body cap and (with a token) the bearer check.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewAgentCardHandler(a2asrv.AgentCardProducerFn(
		func(context.Context) (*sdk.AgentCard, error) { return s.Card(), nil })))
	rpc := a2asrv.NewJSONRPCHandler(s)
	mux.Handle("/", s.guard(rpc))
	return mux
}

// MaxBodyBytes is the largest request body: a pack of MaxPackBytes in
// base64 and room for the rest of the message.
func (s *Server) MaxBodyBytes() int64 { return tpa2a.MaxTaskBytes(s.cfg.MaxPackBytes) }

func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if why := s.fromBrowser(r); why != "" {
			rpcError(w, http.StatusForbidden, -32600, "refused: "+why+"; tp a2a serve takes packs from agents, not from web pages (D23)")
			return
		}
		if s.cfg.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.Token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="tp"`)
				rpcError(w, http.StatusUnauthorized, -32600, "unauthorized: this server wants its bearer token (D23)")
				return
			}
		}
		max := s.MaxBodyBytes()
		if r.ContentLength > max {
			// Refused before a byte of the body is read.
			rpcError(w, http.StatusRequestEntityTooLarge, -32600,
				fmt.Sprintf("request too large: %d bytes, this server takes at most %d (a pack of %d bytes; D23)", r.ContentLength, max, s.cfg.MaxPackBytes))
			return
		}
		// A body of unknown length is read as a stream up to the cap, and
		// the read fails there: it is never held whole.
		r.Body = http.MaxBytesReader(w, r.Body, max)
		next.ServeHTTP(w, r)
	})
}

// fromBrowser says why r looks like a request a web page made the
// person's browser send, or "" when it does not. A page can POST to
// loopback across origins without a CORS preflight when the Content-Type
// is a form's or text/plain, and after rebinding a name of its own to
// 127.0.0.1 it can POST under that name and read the answers. So every
// JSON-RPC call must say application/json (a page's cross-origin JSON
// POST needs a preflight, which this server never grants), must carry no
// Origin but this server's own and no cross-site fetch metadata, and,
// without a bearer token, must name this server by a loopback name or by
// the host of the URL its card declares. An agent's HTTP client (a2a-go's,
// curl -H 'Content-Type: application/json') sends none of these.
func (s *Server) fromBrowser(r *http.Request) string {
	if mt, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); !strings.EqualFold(strings.TrimSpace(mt), "application/json") {
		return "a JSON-RPC call must be sent as application/json"
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return "the browser says this request comes from another site"
	}
	if o := r.Header.Get("Origin"); o != "" && !strings.EqualFold(o, "http://"+r.Host) && !strings.EqualFold(o, "https://"+r.Host) {
		return "a request from a web page (Origin " + strconv.Quote(o) + ")"
	}
	if s.cfg.Token == "" && !s.ownHost(r.Host) {
		return "the request names the server as " + strconv.Quote(r.Host) + ", which is neither a loopback name nor the card's URL"
	}
	return ""
}

// ownHost: host (a Host header, with or without a port) is a loopback name
// or address, or the host of the card's URL.
func (s *Server) ownHost(host string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	if strings.EqualFold(name, "localhost") {
		return true
	}
	if ip := net.ParseIP(name); ip != nil && ip.IsLoopback() {
		return true
	}
	if u, err := url.Parse(s.cfg.URL); err == nil && u.Host != "" {
		return strings.EqualFold(u.Host, host) || strings.EqualFold(u.Hostname(), name)
	}
	return false
}

func rpcError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Connection", "close")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
}

func (s *Server) incomingDir() string { return incoming.Dir(s.cfg.StoreDir) }

// rpcErr is a refusal with its own words that a2a-go maps to a JSON-RPC
// code through the sentinel it wraps.
type rpcErr struct {
	msg  string
	kind error
}

func (e rpcErr) Error() string { return e.msg }
func (e rpcErr) Unwrap() error { return e.kind }

func invalid(err error) error { return rpcErr{err.Error(), sdk.ErrInvalidParams} }

// OnSendMessage takes a pack in (D23). A message that carries none is
// answered with a rejected Task; a pack that fails any check is a
// JSON-RPC error, and nothing is written.
func (s *Server) OnSendMessage(ctx context.Context, params *sdk.MessageSendParams) (sdk.SendMessageResult, error) {
	if params == nil || params.Message == nil {
		return nil, invalid(errors.New("message/send needs a message"))
	}
	msg := params.Message
	if msg.TaskID != "" {
		return nil, fmt.Errorf("a message to an existing task: tp takes one pack per task and no instructions (TaskPack 0.1 §4.5); send a new pack as a new task: %w", sdk.ErrUnsupportedOperation)
	}
	fb, err := tpa2a.PackPartOfMessage(msg)
	if err != nil {
		var pe *pack.Error
		if errors.As(err, &pe) && pe.Rule == tpa2a.RuleNoPack {
			return rejected(msg, pe.Detail), nil
		}
		return nil, invalid(err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.keep(fb)
	if err != nil {
		return nil, err
	}
	return s.taskOf(e)
}

func rejected(msg *sdk.Message, why string) *sdk.Task {
	ctxID := msg.ContextID
	if ctxID == "" {
		ctxID = sdk.NewContextID()
	}
	now := time.Now().UTC()
	return &sdk.Task{ID: sdk.NewTaskID(), ContextID: ctxID, Status: sdk.TaskStatus{
		State: sdk.TaskStateRejected, Timestamp: &now,
		Message: &sdk.Message{ID: sdk.NewMessageID(), Role: sdk.MessageRoleAgent, Parts: sdk.ContentParts{sdk.TextPart{Text: why}}},
	}}
}

// safeKey reports whether s is a plain folder name: an ASCII letter or
// digit, then at most 100 more of those or '.', '_', '~', '-'
// (^[A-Za-z0-9][A-Za-z0-9._~-]{0,100}$, checked without a regular
// expression: compiling one with that bound at start-up cost every tp run
// a millisecond).
func safeKey(s string) bool {
	if len(s) == 0 || len(s) > 101 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			continue
		}
		if i == 0 || strings.IndexByte("._~-", c) < 0 {
			return false
		}
	}
	return true
}

// keyOf is the folder name for a task id: the id itself when it is a plain
// name, else a digest of it.
func keyOf(taskID string) string {
	if safeKey(taskID) && !strings.Contains(taskID, "..") {
		return taskID
	}
	sum := sha256.Sum256([]byte(taskID))
	return "task-" + hex.EncodeToString(sum[:8])
}

func (s *Server) keep(fb sdk.FileBytes) (incoming.Entry, error) {
	dir := s.incomingDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return incoming.Entry{}, err
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	arriving := ".arriving-" + hex.EncodeToString(rnd[:])
	k, err := tpa2a.Keep(fb, dir, func(enc pack.Encoding) string { return filepath.Join(dir, arriving+tpa2a.Ext(enc)) },
		tpa2a.KeepOptions{Limits: s.cfg.Limits, MaxPackBytes: s.cfg.MaxPackBytes})
	if err != nil {
		return incoming.Entry{}, invalid(err)
	}
	keepIt := false
	defer func() {
		if !keepIt {
			os.Remove(k.Path)
		}
	}()
	po := model.PackObject{V: k.Object}
	lin := po.Lineage()
	if lin.RootID == "" {
		return incoming.Entry{}, invalid(&pack.Error{File: fileName(fb), Entry: "lineage.root_id", Rule: tpa2a.RuleNoRootID,
			Detail: "the pack names no root_id, and its A2A Task needs an id (TaskPack 0.1 §5)"})
	}
	all, _, err := incoming.List(s.cfg.StoreDir)
	if err != nil {
		return incoming.Entry{}, err
	}
	taken := map[string]bool{}
	for _, e := range all {
		if e.SHA256 == k.Digest {
			// The same pack again: the same task (a retried send).
			return e, nil
		}
		taken[e.TaskID] = true
	}
	// Task.id is lineage.root_id (§5); another pack of the same root while
	// one is kept gets root_id~2, ~3, ...
	id := lin.RootID
	for n := 2; taken[id]; n++ {
		id = lin.RootID + "~" + strconv.Itoa(n)
	}
	key := keyOf(id)
	for n := 2; ; n++ {
		err := os.Mkdir(filepath.Join(dir, key), 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			return incoming.Entry{}, err
		}
		key = keyOf(id) + "-" + strconv.Itoa(n)
	}
	edir := filepath.Join(dir, key)
	ctxID := tpa2a.ContextID(lin.Chain)
	if ctxID == "" {
		ctxID = lin.RootID
	}
	e := incoming.Entry{TaskID: id, ContextID: ctxID, RootID: lin.RootID, Kind: po.Kind(), Title: po.Passport().Title(),
		Pack: "pack" + tpa2a.Ext(k.Encoding), SHA256: k.Digest, Bytes: k.Bytes,
		ReceivedAt: s.cfg.Now().UTC().Format(time.RFC3339)}
	if err := os.Rename(k.Path, filepath.Join(edir, e.Pack)); err != nil {
		os.Remove(edir)
		return incoming.Entry{}, err
	}
	if err := incoming.Save(edir, e); err != nil {
		os.Remove(filepath.Join(edir, e.Pack))
		os.Remove(edir)
		return incoming.Entry{}, err
	}
	keepIt = true
	return incoming.Load(edir)
}

func fileName(fb sdk.FileBytes) string {
	if fb.Name != "" {
		return fb.Name
	}
	return "the file part"
}

func (s *Server) find(id sdk.TaskID) (incoming.Entry, error) {
	if id == "" {
		return incoming.Entry{}, invalid(errors.New("a task id is needed"))
	}
	all, _, err := incoming.List(s.cfg.StoreDir)
	if err != nil {
		return incoming.Entry{}, err
	}
	for _, e := range all {
		if e.TaskID == string(id) {
			return e, nil
		}
	}
	return incoming.Entry{}, sdk.ErrTaskNotFound
}

// taskOf is an incoming pack's Task: canceled once withdrawn; with the
// receipt the person packed, completed (or input-required while the
// receipt leaves asks open) and the receipt as its artifact; before that,
// input-required, saying what the person will be asked.
func (s *Server) taskOf(e incoming.Entry) (*sdk.Task, error) {
	t := &sdk.Task{ID: sdk.TaskID(e.TaskID), ContextID: e.ContextID}
	meta := map[string]any{"kind": e.Kind, "received_at": e.ReceivedAt, "sha256": e.SHA256}
	at := parseTime(e.ReceivedAt)
	switch {
	case e.WithdrawnAt != "":
		at = parseTime(e.WithdrawnAt)
		meta["withdrawn_at"] = e.WithdrawnAt
		t.Status = status(sdk.TaskStateCanceled, "withdrawn by the sender: the pack is kept and shown to the person, never deleted", at, e)
	case e.Receipt != "":
		p, err := pack.Open(e.ReceiptPath(), pack.Options{Limits: s.cfg.Limits})
		if err != nil {
			return nil, fmt.Errorf("the receipt kept for this task cannot be read: %w", sdk.ErrInternalError)
		}
		defer p.Close()
		raw, err := os.ReadFile(e.ReceiptPath())
		if err != nil {
			return nil, err
		}
		v := landing.PackVerdict(p.Object)
		at = parseTime(e.ReceiptAt)
		art := tpa2a.PackArtifact(p.Encoding, e.Receipt, raw, p.Digest)
		art.ID = "receipt"
		art.Description = "the person's receipt (TaskPack 0.1 §4.4.1): merge it with tp land"
		art.Metadata[tpa2a.ExtensionURI].(map[string]any)["role"] = tpa2a.RoleReceipt
		t.Artifacts = []*sdk.Artifact{art}
		meta["receipt"] = tpa2a.PackMetadata(p.Object)
		if v.Verdict == landing.VerdictNeedsInput {
			t.Status = status(sdk.TaskStateInputRequired, "the receipt is in, and it leaves asks open: "+tpa2a.NeedsInputText(v), at, e)
		} else {
			t.Status = status(sdk.TaskStateCompleted, "the person packed the receipt: it is this task's artifact", at, e)
		}
	default:
		p, err := pack.Open(e.Path(), pack.Options{Limits: s.cfg.Limits, DeferLuggage: true})
		if err != nil {
			return nil, fmt.Errorf("the pack kept for this task cannot be read: %w", sdk.ErrInternalError)
		}
		v := landing.PackVerdict(p.Object)
		p.Close()
		text := "kept for the person, not landed yet: they will land it with tp"
		if v.Verdict == landing.VerdictNeedsInput {
			text += "; " + tpa2a.NeedsInputText(v)
		}
		t.Status = status(sdk.TaskStateInputRequired, text, at, e)
	}
	t.Metadata = map[string]any{tpa2a.ExtensionURI: meta}
	return t, nil
}

func status(state sdk.TaskState, text string, at *time.Time, e incoming.Entry) sdk.TaskStatus {
	return sdk.TaskStatus{State: state, Timestamp: at, Message: &sdk.Message{
		ID: "status-" + e.Key + "-" + string(state), Role: sdk.MessageRoleAgent, TaskID: sdk.TaskID(e.TaskID), ContextID: e.ContextID,
		Parts: sdk.ContentParts{sdk.TextPart{Text: text}}}}
}

func parseTime(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil
	}
	return &t
}

// OnGetTask is tasks/get.
func (s *Server) OnGetTask(ctx context.Context, q *sdk.TaskQueryParams) (*sdk.Task, error) {
	if q == nil {
		return nil, invalid(errors.New("tasks/get needs an id"))
	}
	e, err := s.find(q.ID)
	if err != nil {
		return nil, err
	}
	return s.taskOf(e)
}

// OnCancelTask is tasks/cancel: the sender withdraws its pack. It is kept
// and shown, never deleted; a task whose receipt is in cannot be withdrawn.
func (s *Server) OnCancelTask(ctx context.Context, id *sdk.TaskIDParams) (*sdk.Task, error) {
	if id == nil {
		return nil, invalid(errors.New("tasks/cancel needs an id"))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.find(id.ID)
	if err != nil {
		return nil, err
	}
	if e.Receipt != "" {
		return nil, fmt.Errorf("the person has answered this task already: %w", sdk.ErrTaskNotCancelable)
	}
	if e.WithdrawnAt == "" {
		e.WithdrawnAt = s.cfg.Now().UTC().Format(time.RFC3339)
		if err := incoming.Save(e.Folder(), e); err != nil {
			return nil, err
		}
	}
	return s.taskOf(e)
}

// Streaming, resubscription and push notifications are not offered (the
// card says so): the person answers in hours, not in a stream.

func (s *Server) OnResubscribeToTask(ctx context.Context, id *sdk.TaskIDParams) iter.Seq2[sdk.Event, error] {
	return func(yield func(sdk.Event, error) bool) { yield(nil, sdk.ErrUnsupportedOperation) }
}

func (s *Server) OnSendMessageStream(ctx context.Context, m *sdk.MessageSendParams) iter.Seq2[sdk.Event, error] {
	return func(yield func(sdk.Event, error) bool) { yield(nil, sdk.ErrUnsupportedOperation) }
}

func (s *Server) OnGetTaskPushConfig(context.Context, *sdk.GetTaskPushConfigParams) (*sdk.TaskPushConfig, error) {
	return nil, sdk.ErrPushNotificationNotSupported
}

func (s *Server) OnListTaskPushConfig(context.Context, *sdk.ListTaskPushConfigParams) ([]*sdk.TaskPushConfig, error) {
	return nil, sdk.ErrPushNotificationNotSupported
}

func (s *Server) OnSetTaskPushConfig(context.Context, *sdk.TaskPushConfig) (*sdk.TaskPushConfig, error) {
	return nil, sdk.ErrPushNotificationNotSupported
}

func (s *Server) OnDeleteTaskPushConfig(context.Context, *sdk.DeleteTaskPushConfigParams) error {
	return sdk.ErrPushNotificationNotSupported
}

func (s *Server) OnGetExtendedAgentCard(context.Context) (*sdk.AgentCard, error) {
	return nil, sdk.ErrAuthenticatedExtendedCardNotConfigured
}

var _ a2asrv.RequestHandler = (*Server)(nil)
