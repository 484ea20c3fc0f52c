// Package layering holds the test that enforces docs/architecture.md: imports point
// down (cmd → ui → landing, judge → pack, acts → model) and the core never
// imports UI libraries.
package layering

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/tp-dev/tp"

var uiLibs = []string{
	"github.com/charmbracelet/bubbletea",
	"github.com/charmbracelet/lipgloss",
	"github.com/charmbracelet/bubbles",
	"github.com/yuin/goldmark",
}

// heavyLibs are what makes an executable slow to start (D26): the terminal
// UI's libraries, the MCP and A2A SDKs, age and what they pull in. tp, the core
// executable, and the command tree it shares with tp-full link none of them.
var heavyLibs = append([]string{
	"github.com/modelcontextprotocol",
	"github.com/a2aproject",
	"github.com/atotto/clipboard",
	"github.com/google/jsonschema-go",
	"github.com/muesli/termenv",
	"encoding/gob",
	// age and what only it pulls in: sealing is tp-full's (D26).
	"filippo.io/age", "filippo.io/hpke", "filippo.io/edwards25519", module + "/internal/ageseal",
	module + "/ui", module + "/mcp", module + "/a2a", module + "/themes",
}, uiLibs...)

// forbidden lists, per package prefix, the import prefixes it must not reach
// (directly or through its dependencies).
func forbidden(pkg string) []string {
	rel := strings.TrimPrefix(pkg, module+"/")
	switch {
	case strings.HasPrefix(rel, "model"):
		return append([]string{module + "/internal/store", module + "/pack", module + "/acts", module + "/judge", module + "/landing", module + "/ui", module + "/themes", module + "/cmd"}, uiLibs...)
	case strings.HasPrefix(rel, "internal/"):
		// What is not domain (the store's disk format, canonical JSON,
		// sanitising, durable writes, running a command) sits below the
		// spec packages and knows nothing of them or of any front end.
		return append([]string{module + "/pack", module + "/acts", module + "/ui", module + "/themes", module + "/cmd"}, uiLibs...)
	case strings.HasPrefix(rel, "pack"):
		// The format knows no store and no workflow (issue 8).
		return append([]string{module + "/internal/store", module + "/judge", module + "/landing", module + "/ui", module + "/themes", module + "/cmd"}, uiLibs...)
	case rel == "actsession":
		// The acts session (issue 15): the one pull → read → verify →
		// write → commit → push every front end runs; below them all.
		return append([]string{module + "/ui", module + "/themes", module + "/cmd", module + "/mcp"}, uiLibs...)
	case rel == "acts":
		// The Acts format and the registrar's pure steps (issue 15): no
		// record log, no trust store, no locks, no durable writes, no git
		// and no file watching — the jobs that need them import acts.
		return append([]string{module + "/actsession", module + "/acts/recordlog", module + "/acts/conformance", module + "/internal/gitexec", module + "/internal/trust",
			module + "/internal/durable", "github.com/fsnotify/fsnotify", "github.com/rogpeppe/go-internal/lockedfile",
			module + "/ui", module + "/themes", module + "/cmd"}, uiLibs...)
	case strings.HasPrefix(rel, "acts/"):
		// The record log and the fixture runner know nothing of the
		// session that runs them, of git, or of file watching.
		return append([]string{module + "/actsession", module + "/internal/gitexec", "github.com/fsnotify/fsnotify",
			module + "/ui", module + "/themes", module + "/cmd"}, uiLibs...)
	case strings.HasPrefix(rel, "judge"), strings.HasPrefix(rel, "landing"):
		return append([]string{module + "/ui", module + "/themes", module + "/cmd"}, uiLibs...)
	case rel == "home" || strings.HasPrefix(rel, "home/"):
		// The home summary is core: the plain/JSON output and the UI share it.
		return append([]string{module + "/ui", module + "/themes", module + "/cmd"}, uiLibs...)
	case rel == "display":
		// The one display helper for untrusted text: sanitising and the
		// credential table, below every front end (issue 17).
		return append([]string{module + "/ui", module + "/themes", module + "/cmd", module + "/mcp", module + "/landing", module + "/acts", module + "/internal/store"}, uiLibs...)
	case strings.HasPrefix(rel, "themes"):
		return []string{module + "/ui", module + "/cmd", module + "/pack", module + "/acts"}
	case strings.HasPrefix(rel, "mcp"):
		// The MCP server is a front end beside the UI: it never imports it
		// (docs/architecture.md, layout; D18).
		return append([]string{module + "/ui", module + "/themes", module + "/cmd"}, uiLibs...)
	case strings.HasPrefix(rel, "checkpoint"), strings.HasPrefix(rel, "briefing"), strings.HasPrefix(rel, "taskpassport"):
		return append([]string{module + "/ui", module + "/themes", module + "/cmd", module + "/mcp"}, uiLibs...)
	case rel == "a2a":
		// The A2A binding as data (D23): no server, no client, no front
		// end (the store only through landing's verdict).
		return append([]string{module + "/ui", module + "/themes", module + "/cmd", module + "/mcp",
			"github.com/a2aproject/a2a-go/a2asrv", "github.com/a2aproject/a2a-go/a2aclient", "net/http"}, uiLibs...)
	case strings.HasPrefix(rel, "a2a/"):
		// The A2A server is a front end beside the UI and the MCP server.
		return append([]string{module + "/ui", module + "/themes", module + "/cmd", module + "/mcp",
			"github.com/a2aproject/a2a-go/a2aclient"}, uiLibs...)
	case strings.HasPrefix(rel, "ui"):
		return []string{module + "/cmd"}
	case rel == "cmd/tp" || rel == "cmd/cli":
		// The core executable and the command tree (D26): nothing slow
		// to start; tp-full adds the screens and the servers.
		return heavyLibs
	}
	return nil
}

func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}|{{join .Deps \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list failed, so the layering cannot be checked: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, "|")
		bad := forbidden(pkg)
		for _, d := range strings.Fields(deps) {
			for _, b := range bad {
				if d == b || strings.HasPrefix(d, b+"/") {
					t.Errorf("%s imports %s (docs/architecture.md: imports point down; the core never imports UI libraries)", pkg, d)
				}
			}
		}
	}
}

// TestForbiddenCatches proves the rule table would fire.
func TestForbiddenCatches(t *testing.T) {
	if f := forbidden(module + "/pack/scan"); !contains(f, "github.com/charmbracelet/bubbletea") {
		t.Error("pack may import bubbletea according to the table")
	}
	if f := forbidden(module + "/mcp"); !contains(f, module+"/ui") {
		t.Error("mcp may import ui according to the table")
	}
	if f := forbidden(module + "/internal/ojson"); !contains(f, module+"/pack") {
		t.Error("internal/ojson may import pack according to the table")
	}
	if f := forbidden(module + "/pack"); !contains(f, module+"/internal/store") || !contains(f, module+"/landing") {
		t.Error("pack may import the store or landing according to the table")
	}
	if f := forbidden(module + "/acts"); !contains(f, module+"/actsession") {
		t.Error("acts may import the acts session according to the table")
	}
	for _, lib := range []string{module + "/internal/gitexec", "github.com/fsnotify/fsnotify", module + "/acts/recordlog", module + "/internal/trust"} {
		if f := forbidden(module + "/acts"); !contains(f, lib) {
			t.Errorf("the Acts format may import %s according to the table", lib)
		}
	}
	for _, lib := range []string{module + "/internal/gitexec", "github.com/fsnotify/fsnotify"} {
		if f := forbidden(module + "/acts/recordlog"); !contains(f, lib) {
			t.Errorf("the record log may import %s according to the table", lib)
		}
	}
	if f := forbidden(module + "/cmd/tp"); !contains(f, "filippo.io/age") || !contains(f, module+"/internal/ageseal") {
		t.Error("the core executable may link age according to the table (D26)")
	}
	if f := forbidden(module + "/actsession"); !contains(f, module+"/mcp") || !contains(f, module+"/ui") {
		t.Error("the acts session may import a front end according to the table")
	}
	for _, core := range []string{"/landing", "/judge"} {
		if f := forbidden(module + core); !contains(f, "github.com/charmbracelet/lipgloss") || !contains(f, module+"/ui") {
			t.Errorf("%s may import UI libraries or ui according to the table", core)
		}
	}
}

// TestCoreExecutableIsLight: tp would link a heavy library again if the
// table let it (D26).
func TestCoreExecutableIsLight(t *testing.T) {
	for _, pkg := range []string{"/cmd/tp", "/cmd/cli"} {
		f := forbidden(module + pkg)
		for _, lib := range []string{"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss", "github.com/yuin/goldmark",
			"github.com/modelcontextprotocol", "github.com/a2aproject", "github.com/atotto/clipboard", module + "/ui", module + "/mcp", module + "/themes"} {
			if !contains(f, lib) {
				t.Errorf("%s may link %s according to the table", pkg, lib)
			}
		}
	}
	// internal/themename is what tp links of the themes: not themes itself.
	if d := forbidden(module + "/cmd/tp"); !contains(d, module+"/themes") {
		t.Error("tp may link the themes")
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// TestNoCgoOutsideTheStandardLibrary: the README installs tp without cgo
// (D27). A dependency with cgo files would not build so, or would build a
// different program; only the standard library's net and os/user, which
// have pure-Go variants, may have them. And without cgo neither executable
// links runtime/cgo, so it is static.
func TestNoCgoOutsideTheStandardLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{len .CgoFiles}}", module+"/cmd/tp", module+"/cmd/tp-full").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if problems := cgoOutsideStd(string(out)); len(problems) > 0 {
		t.Errorf("packages with cgo files that are not the standard library's (D27): %v", problems)
	}
	cmd := exec.Command("go", "list", "-deps", module+"/cmd/tp", module+"/cmd/tp-full")
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("CGO_ENABLED=0 go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "runtime/cgo" {
			t.Error("built without cgo, tp still links runtime/cgo (D27)")
		}
	}
}

// TestInstallLinesSayNoCgo: D27 holds only if what people run says
// CGO_ENABLED=0: the README's set-up and make install (the line tp prints
// is checked by cmd/tp-full's forward.txtar).
func TestInstallLinesSayNoCgo(t *testing.T) {
	for _, f := range []string{"../../README.md", "../../Makefile"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, line := range strings.Split(string(b), "\n") {
			if i := strings.Index(line, "go install ./cmd/..."); i >= 0 {
				found = true
				if !strings.HasSuffix(line[:i], "CGO_ENABLED=0 ") {
					t.Errorf("%s: %q installs tp without CGO_ENABLED=0 (D27)", f, strings.TrimSpace(line))
				}
			}
		}
		if !found {
			t.Errorf("%s names no go install ./cmd/... line", f)
		}
	}
}

// cgoOutsideStd reads lines of "path standard ncgo" and names the packages
// outside the standard library with cgo files.
func cgoOutsideStd(list string) []string {
	var bad []string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[1] == "false" && f[2] != "0" {
			bad = append(bad, f[0])
		}
	}
	return bad
}

func TestCgoOutsideStdCatches(t *testing.T) {
	got := cgoOutsideStd("net true 3\ngithub.com/mattn/go-sqlite3 false 1\nos/user true 1\n" + module + "/pack false 0\n")
	if len(got) != 1 || got[0] != "github.com/mattn/go-sqlite3" {
		t.Errorf("cgoOutsideStd = %v, want only the sqlite driver", got)
	}
}
