// Package notify sends a desktop notification two ways: as an escape
// sequence to the terminal (OSC 9, or OSC 777 where the terminal is known
// to show it) and through notify-send, run as a program with arguments,
// never through a shell. Its text comes from agents (tp acts watch
// --notify): the caller sanitises and redacts it (display.Line); Clean
// then keeps only printable characters, so nothing in it can end the
// sequence or start another, and bounds its length.
package notify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxTitle and MaxBody bound a notification's text, in characters.
const (
	MaxTitle = 64
	MaxBody  = 240
)

// Clean is s as one line of at most max characters with no control
// character of any kind (C0, DEL, C1, Unicode's line and paragraph
// separators and format characters) and no invalid UTF-8: runs of them and
// of white space become one space. A cut is marked with "…".
func Clean(s string, max int) string {
	out := strings.Join(strings.FieldsFunc(strings.ToValidUTF8(s, "\uFFFD"), unprintable), " ")
	if max < 1 {
		return ""
	}
	if utf8.RuneCountInString(out) <= max {
		return out
	}
	return strings.TrimRight(string([]rune(out)[:max-1]), " ") + "…"
}

func unprintable(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.IsSpace(r) ||
		unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) || unicode.Is(unicode.Cf, r)
}

// OSC9 is the notification as iTerm2, Windows Terminal, ConEmu, kitty and
// WezTerm show it: ESC ] 9 ; text BEL. The text starts with "tp: " so that
// it never reads as one of ConEmu's numbered OSC 9 commands ("4;…").
func OSC9(title, body string) []byte {
	return []byte("\x1b]9;tp: " + Clean(title+": "+body, MaxTitle+MaxBody) + "\a")
}

// OSC777 is the notification with a title, as foot, urxvt, WezTerm and
// Ghostty show it: ESC ] 777 ; notify ; title ; body BEL (";" separates the
// fields, so it is replaced in them).
func OSC777(title, body string) []byte {
	f := func(s string, max int) string { return strings.ReplaceAll(Clean(s, max), ";", ",") }
	return []byte("\x1b]777;notify;" + f(title, MaxTitle) + ";" + f(body, MaxBody) + "\a")
}

// Terminal names the escape sequence to use on the terminal the
// environment describes: "osc777" where the terminal is known to show it,
// else "osc9".
func Terminal(getenv func(string) string) string {
	t, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case strings.HasPrefix(t, "foot"), strings.HasPrefix(t, "rxvt-unicode"), t == "xterm-ghostty",
		prog == "WezTerm", prog == "ghostty":
		return "osc777"
	}
	return "osc9"
}

// Sequence is the escape sequence Terminal names.
func Sequence(kind, title, body string) []byte {
	if kind == "osc777" {
		return OSC777(title, body)
	}
	return OSC9(title, body)
}

// LookPath finds name in the folders of pathList (a PATH value): the first
// regular file there that is executable. It reads the PATH it is given,
// not the process's, so a test can give its own.
func LookPath(pathList, name string) (string, error) {
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry would run what the folder tp runs in holds
		}
		p := filepath.Join(dir, name)
		fi, err := os.Stat(p)
		if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", name, fs.ErrNotExist)
}

// SendTimeout bounds one notify-send run.
const SendTimeout = 5 * time.Second

// Send runs notify-send (its path) with the title and body as arguments
// after "--", so neither can be read as an option, within SendTimeout.
func Send(ctx context.Context, path, title, body string) error {
	if path == "" {
		return errors.New("notify-send: no path")
	}
	ctx, cancel := context.WithTimeout(ctx, SendTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, path, "--app-name=tp", "--", Clean(title, MaxTitle), Clean(body, MaxBody))
	c.WaitDelay = time.Second
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("notify-send: %v: %s", err, Clean(string(out), 200))
	}
	return nil
}
