package notify

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// What an agent writes must not end the escape sequence or start another:
// no ESC, BEL, C1 (0x9c is ST, 0x9d OSC in 8-bit terminals), no line
// breaks; and it is bounded.
func TestSequencesCarryNoControl(t *testing.T) {
	t.Parallel()
	hostile := []string{
		"paid \x1b]0;owned\a\x1b[2J",
		"bell\a and ST \x1b\\ and C1 \u009c\u009d\u0090",
		"raw C1 bytes \x9c\x9d\x9b",
		"lines\nbreak\r\nhere\u2028and\u2029there\u0085",
		"bidi \u202e override \u2066 isolate \u200b zero width",
		"4;1;50 looks like ConEmu progress",
		strings.Repeat("long ", 500),
	}
	for _, s := range hostile {
		for name, seq := range map[string][]byte{"osc9": OSC9("raised", s), "osc777": OSC777("raised; x", s)} {
			prefix := map[string]string{"osc9": "\x1b]9;tp: ", "osc777": "\x1b]777;notify;"}[name]
			if !bytes.HasPrefix(seq, []byte(prefix)) || !bytes.HasSuffix(seq, []byte("\a")) {
				t.Fatalf("%s %q: not one sequence: %q", name, s, seq)
			}
			payload := seq[len(prefix) : len(seq)-1]
			if !utf8.Valid(payload) {
				t.Fatalf("%s %q: invalid UTF-8 in %q", name, s, payload)
			}
			if r, bad := control(string(payload)); bad {
				t.Fatalf("%s %q: control %U in %q", name, s, r, payload)
			}
			if n := utf8.RuneCount(payload); n > MaxTitle+MaxBody+len("notify;;") {
				t.Fatalf("%s: %d characters, not bounded", name, n)
			}
			if name == "osc777" && bytes.Count(payload, []byte(";")) != 1 {
				t.Fatalf("osc777 %q: a ';' of the text splits the fields: %q", s, payload)
			}
		}
	}
	if got := string(OSC9("raised", "4;1;50")); !strings.HasPrefix(got, "\x1b]9;tp: raised: 4;1;50") {
		t.Fatalf("OSC 9 does not start with tp: %q", got)
	}
}

func TestClean(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"Renew the domain", 40, "Renew the domain"},
		{"  two\n\nlines  ", 40, "two lines"},
		{"\x1b[31mred\x1b[0m", 40, "[31mred [0m"},
		{"abcdefghij", 5, "abcd…"},
		{"ab   cdefgh", 4, "ab…"},
		{"\xff\xfe", 10, "\uFFFD"},
		{"x", 0, ""},
	} {
		if got := Clean(tc.in, tc.max); got != tc.want {
			t.Errorf("Clean(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func FuzzSequences(f *testing.F) {
	for _, s := range []string{"Renew the domain", "\x1b]0;x\a", "\u009c\x9c", "a;b;c", strings.Repeat("é", 300)} {
		f.Add("raised", s)
	}
	f.Fuzz(func(t *testing.T, title, body string) {
		for _, seq := range [][]byte{OSC9(title, body), OSC777(title, body)} {
			inner := seq[1 : len(seq)-1]
			if bytes.ContainsAny(inner, "\x1b\a\r\n") || !utf8.Valid(inner) {
				t.Fatalf("%q", seq)
			}
			if r, bad := control(string(inner)); bad {
				t.Fatalf("control %U in %q", r, seq)
			}
		}
	})
}

func TestTerminalKnowsOSC777(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ term, prog, want string }{
		{"foot", "", "osc777"}, {"rxvt-unicode-256color", "", "osc777"}, {"xterm-256color", "WezTerm", "osc777"},
		{"xterm-ghostty", "", "osc777"}, {"xterm-256color", "iTerm.app", "osc9"}, {"xterm-256color", "", "osc9"}, {"", "", "osc9"},
	} {
		env := map[string]string{"TERM": tc.term, "TERM_PROGRAM": tc.prog}
		if got := Terminal(func(k string) string { return env[k] }); got != tc.want {
			t.Errorf("TERM=%q TERM_PROGRAM=%q: %s, want %s", tc.term, tc.prog, got, tc.want)
		}
	}
}

// notify-send is found on the PATH given (not the process's), run with
// its arguments after "--" and no shell: a body that looks like an option
// or a shell command is text.
func TestSendRunsNotifySendWithArguments(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for notify-send")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "args")
	fake := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + log + "\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := LookPath("relative:"+filepath.Join(dir, "nothing"), "notify-send"); err == nil {
		t.Fatal("found notify-send where it is not")
	}
	path, err := LookPath("relative:"+dir, "notify-send")
	if err != nil || path != filepath.Join(dir, "notify-send") {
		t.Fatalf("LookPath = %q, %v", path, err)
	}
	marker := filepath.Join(dir, "pwned")
	if err := Send(context.Background(), path, "tp acts: raised", "--help $(touch "+marker+") \x1b]0;x\a"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(log)
	want := "--app-name=tp\n--\ntp acts: raised\n--help $(touch " + marker + ") ]0,x\n"
	if string(got) != strings.Replace(want, "]0,x", "]0;x", 1) {
		t.Fatalf("notify-send got:\n%s", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the body ran as a command")
	}
}

// control is the test's own oracle (not Clean's): the first character a
// terminal may act on — C0, DEL, C1, line and paragraph separators, bidi
// controls.
func control(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return r, true
		}
	}
	return 0, false
}
