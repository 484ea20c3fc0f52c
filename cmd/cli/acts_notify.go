package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/incoming"
	"github.com/tp-dev/tp/internal/notify"
	"github.com/tp-dev/tp/internal/store"
)

// tp acts watch --notify: a desktop notification for each record the
// watch reports and for each receipt that arrives in the store's incoming
// folder — as an escape sequence to the controlling terminal (when stdout
// is one) and through notify-send (when it is on PATH). Every string in it
// was written by an agent or a sender: display.Line sanitises and redacts
// it, internal/notify keeps only printable characters and bounds it.

type watchNotifier struct {
	mu       sync.Mutex
	term     io.WriteCloser
	termKind string // "osc9" or "osc777"
	send     string // notify-send's path, "" when none
	warn     func(string)
}

// newWatchNotifier finds the ways to notify; how says which, for stderr.
func newWatchNotifier(io *IO) (n *watchNotifier, how string) {
	n = &watchNotifier{warn: func(s string) { fmt.Fprintf(io.Err, "tp: warning: --notify: %s\n", display.Line(s)) }}
	var ways []string
	if io.Terminal != nil {
		if w, err := io.Terminal(); err == nil {
			n.term, n.termKind = w, notify.Terminal(io.Env)
			ways = append(ways, "this terminal ("+map[string]string{"osc9": "OSC 9", "osc777": "OSC 777"}[n.termKind]+")")
		}
	}
	if p, err := notify.LookPath(io.Env("PATH"), "notify-send"); err == nil {
		n.send = p
		ways = append(ways, "notify-send ("+p+")")
	}
	if len(ways) == 0 {
		return n, ""
	}
	return n, strings.Join(ways, " and ")
}

func (n *watchNotifier) close() {
	if n.term != nil {
		n.term.Close()
	}
}

// notify sends one notification; title and body are untrusted.
func (n *watchNotifier) notify(ctx context.Context, title, body string) {
	title, body = display.Line(title), display.Line(body)
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.term != nil {
		if _, err := n.term.Write(notify.Sequence(n.termKind, title, body)); err != nil {
			n.warn("the terminal: " + err.Error())
			n.term.Close()
			n.term = nil
		}
	}
	if n.send != "" {
		if err := notify.Send(ctx, n.send, title, body); err != nil {
			n.warn(err.Error())
		}
	}
}

// recordNotice is a record's notification: what happened to which act.
func recordNotice(r acts.Record) (title, body string) {
	title = "tp acts: " + r.Type + " in " + r.Project
	switch {
	case r.Terms != nil:
		body = r.Terms.Text
	case r.Type == acts.TypeClaimed:
		basis := ""
		if r.Evidence != nil {
			basis = r.Evidence.Basis
		}
		body = fmt.Sprintf("%s by %s: %s", r.Outcome, r.By, basis)
	case r.Type == acts.TypeWithdrawn:
		body = "no longer needed (" + r.Key + "), by " + r.By
	default:
		body = r.Key
	}
	return title, body
}

// watchReceipts notifies for each receipt that arrives in the store's
// incoming folder (packs that came over A2A, D23) from now on, until ctx
// ends. Only receipts: a handoff that arrives is the A2A server's to
// announce. Entries already there when the watch starts are not new.
func watchReceipts(ctx context.Context, storeDir string, n *watchNotifier, ready func()) error {
	if fi, err := os.Stat(storeDir); err != nil || !fi.IsDir() {
		ready() // no store here yet: no receipt can arrive in it
		return nil
	}
	dir := incoming.Dir(storeDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		return err
	}
	seen := map[string]bool{}
	scan := func(announce bool) {
		es, _, _ := incoming.List(storeDir)
		for _, e := range es {
			if e.Kind != "receipt" || seen[e.Key] {
				continue
			}
			seen[e.Key] = true
			if announce {
				n.notify(ctx, "tp: a receipt arrived", e.Title+" ("+e.RootID+"): tp land "+filepath.Join(e.Folder(), e.Pack))
			}
		}
		entries, _ := os.ReadDir(dir)
		for _, d := range entries {
			if d.IsDir() {
				w.Add(filepath.Join(dir, d.Name())) // task.json is written inside
			}
		}
	}
	scan(false)
	ready()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.Events:
			scan(true)
		case err := <-w.Errors:
			n.warn("watching " + dir + ": " + err.Error())
		}
	}
}

// storeDirFor is the passport store's folder, "" when there is none.
func storeDirFor(io *IO, g *globalOpts) string {
	if g.store != "" {
		return g.store
	}
	return store.DefaultDir(io.Env)
}
