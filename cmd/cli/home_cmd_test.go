package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/store"
)

func runWith(env map[string]string, args ...string) (code exitCode, stdout, stderr string) {
	var out, errb bytes.Buffer
	io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Env: func(k string) string { return env[k] }}
	code = run(args, io)
	return code, out.String(), errb.String()
}

func TestOpenStoreWithoutAnyLocation(t *testing.T) {
	t.Parallel()
	code, _, stderr := runWith(map[string]string{}, "list")
	if code != exitError || !strings.Contains(stderr, "tp: error: no passport store") || !strings.Contains(stderr, "tp: hint: pass --store DIR or set TP_STORE") {
		t.Errorf("code %d, stderr %q", code, stderr)
	}
}

func TestOpenStorePrecedence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"TP_STORE": dir + "/a", "TASK_PASSPORT_STORE": dir + "/b", "HOME": dir + "/h"}
	g := &globalOpts{}
	s, err := openStore(&IO{Env: func(k string) string { return env[k] }}, g)
	if err != nil || s.Dir() != dir+"/a" {
		t.Errorf("TP_STORE: %v %v", s, err)
	}
	g.store = dir + "/flag"
	s, err = openStore(&IO{Env: func(k string) string { return env[k] }}, g)
	if err != nil || s.Dir() != dir+"/flag" {
		t.Errorf("--store: %v %v", s, err)
	}
}

func TestStoreHints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		hint string
	}{
		{&store.ErrNotFound{ID: "TP-X", Store: "/s"}, "tp list shows"},
		{&store.ConflictError{ID: "TP-X", Expected: 1, Found: 2}, "saved TP-X meanwhile; run the command again"},
		// the hint says the rule applied to that lock (issue 15), never a
		// promise the lock's judge does not keep
		{&store.BusyError{Lock: "/s/TP-X.json.lock", Rule: "it names another machine (b); retired once its file time is 30s away from now (it is 4s)"}, "(this lock: it names another machine (b); retired once"},
		{&store.BusyError{Lock: "/s/TP-X.json.lock"}, "another tp or task-passport is saving; try again"},
	}
	for _, tt := range tests {
		var he *hintError
		if !errors.As(storeHint(tt.err), &he) || !strings.Contains(he.hint, tt.hint) || !errors.Is(he, tt.err) {
			t.Errorf("storeHint(%v) = %v", tt.err, storeHint(tt.err))
		}
	}
	plain := errors.New("x")
	if storeHint(plain) != plain {
		t.Error("an unrelated error gained a hint")
	}
	// The conflict message itself names both versions.
	msg := (&store.ConflictError{ID: "TP-X", Expected: 3, Found: 5}).Error()
	if !strings.Contains(msg, "expected version 3, found 5") {
		t.Errorf("conflict message %q", msg)
	}
}

func TestScreenHooks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"TP_STORE": dir}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.Create("T", "G", store.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := v.Get("id").Text()
	called := ""
	screens := &Screens{Asks: func(io *IO, g *globalOpts, s *store.Store, id string) error { called = "asks " + id; return nil }}
	tty := func(args ...string) {
		var out, errb bytes.Buffer
		run(args, &IO{In: strings.NewReader(""), Out: &out, Err: &errb, TTY: true, Env: func(k string) string { return env[k] }, Screens: screens})
	}
	tty("asks", id)
	if called != "asks "+id {
		t.Errorf("on a terminal the asks screen was not opened: %q", called)
	}
	for _, args := range [][]string{{"asks", id, "--plain"}, {"asks", id, "--json"}, {"asks", id, "--answer", "a1=x"}} {
		called = ""
		tty(args...)
		if called != "" {
			t.Errorf("%v opened the screen", args)
		}
	}
}
