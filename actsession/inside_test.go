package actsession

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sshsign"
)

// Files stay inside (D9, issue 15): a folder of the log that a pushed
// commit turned into a symbolic link is refused loudly by every reader and
// writer, and nothing is written through it.
func TestLinkedLogFoldersAreRefused(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	doc := "## Tasks\n\n- [ ] [owner] Renew the domain\n"
	for _, sub := range []string{"records", "acked", "principals", ""} {
		name := sub
		if name == "" {
			name = "project folder"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			l := recordlog.OpenLog(filepath.Join(dir, "acts"))
			outside := filepath.Join(dir, "outside")
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(l.Dir, 0o755); err != nil {
				t.Fatal(err)
			}
			link := l.ProjectDir("demo")
			if sub != "" {
				if err := os.MkdirAll(link, 0o755); err != nil {
					t.Fatal(err)
				}
				link = filepath.Join(link, sub)
			}
			if err := os.Symlink(outside, link); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "STATE.md")
			if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Sync(context.Background(), l, SyncRequest{Document: path, Project: "demo", Profile: enProfile(t), Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)})
			var le *recordlog.LinkError
			if !errors.As(err, &le) || le.Path != link {
				t.Fatalf("sync through a linked %s: err = %v, want a LinkError naming %s", name, err, link)
			}
			if !strings.Contains(err.Error(), "tp follows no link inside the acts dir") {
				t.Errorf("the message does not say the rule: %v", err)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 0 {
				t.Fatalf("written outside the acts dir: %v", ents)
			}
			if got, _ := os.ReadFile(path); string(got) != doc {
				t.Fatalf("the document changed although the sync failed:\n%s", got)
			}
			if _, err := l.Load("demo"); sub != "principals" && !errors.As(err, &le) {
				t.Fatalf("Load through a linked %s: err = %v", name, err)
			}
			if _, err := l.LoadPrincipals("demo"); (sub == "principals" || sub == "") && !errors.As(err, &le) {
				t.Fatalf("LoadPrincipals through a linked %s: err = %v", name, err)
			}
		})
	}
}

// A record, acknowledgement, principal change or allowed_signers that is a
// link is not followed: reported (or refused), never read.
func TestLinkedLogFilesAreNotRead(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	l := recordlog.OpenLog(filepath.Join(dir, "acts"))
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{l.RecordsDir("demo"), l.AckedDir("demo"), l.PrincipalsDir("demo")} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{
		filepath.Join(l.RecordsDir("demo"), recordlog.EncodeName("r:x")+".json"),
		filepath.Join(l.AckedDir("demo"), recordlog.EncodeName("s:"+strings.Repeat("k", 300))),
		filepath.Join(l.PrincipalsDir("demo"), "c1.json"),
	} {
		if err := os.Symlink(secret, p); err != nil {
			t.Fatal(err)
		}
	}
	ld, err := l.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Records) != 0 || len(ld.Acked) != 0 || len(ld.Problems) < 2 {
		t.Fatalf("a linked file was read: %d records, %d acked, problems %v", len(ld.Records), len(ld.Acked), ld.Problems)
	}
	p, err := l.LoadPrincipals("demo")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(p.Problems, "\n"), "c1.json") {
		t.Fatalf("a linked principal change was not reported: %v", p.Problems)
	}
	if err := os.Symlink(secret, l.SignersPath("demo")); err != nil {
		t.Fatal(err)
	}
	if _, err := l.LoadPrincipals("demo"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a linked allowed_signers: err = %v", err)
	}
}

// Every file the acts code reads has a size limit (D10): over it, the file
// is reported and not read.
func TestActsFilesOverTheirLimitAreReportedNotRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l := recordlog.OpenLog(filepath.Join(dir, "acts"))
	big := func(path string, n int) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(int64(n)); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	// a hashed name (an id too long for a file name) is the one whose
	// acknowledgement is read for the id inside
	big(filepath.Join(l.AckedDir("demo"), recordlog.EncodeName("s:"+strings.Repeat("k", 300))), recordlog.MaxAckFile+1)
	big(filepath.Join(l.PrincipalsDir("demo"), "c1.json"), recordlog.MaxChangeFile+1)
	ld, err := l.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Acked) != 0 || len(ld.Problems) != 1 {
		t.Fatalf("an oversize acknowledgement: acked %v, problems %v", ld.Acked, ld.Problems)
	}
	p, err := l.LoadPrincipals("demo")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Problems, "\n"); !strings.Contains(got, "65536") {
		t.Fatalf("an oversize principal change was not reported: %v", p.Problems)
	}
	big(l.SignersPath("demo"), sshsign.MaxAllowedSigners+1)
	if p, err := l.LoadPrincipals("demo"); err != nil {
		t.Fatal(err)
	} else if !strings.Contains(strings.Join(p.Problems, "\n"), "allowed_signers: larger than 1048576 bytes; not read") {
		t.Fatalf("an oversize allowed_signers was not reported: %v", p.Problems)
	}
	doc := filepath.Join(dir, "STATE.md")
	big(doc, recordlog.MaxStateDocument+1)
	_, err = Sync(context.Background(), recordlog.OpenLog(filepath.Join(dir, "acts2")), SyncRequest{Document: doc, Project: "demo", Profile: enProfile(t)})
	var tl *recordlog.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != recordlog.MaxStateDocument {
		t.Fatalf("an oversize state document: err = %v", err)
	}
}
