package main

import (
	"bytes"
	"context"
	"github.com/tp-dev/tp/cmd/cli"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui/common"
	uilanding "github.com/tp-dev/tp/ui/landing"
)

// On a terminal, tp land with flags that already decide (--dry-run, --check,
// --trust-own-facts) takes the headless path: a dry run prints the plan, the
// others land with the decisions given. No screen opens (no alternate
// screen is entered) and nothing waits for keys.
func TestLandFlagsStayHeadlessOnATerminal(t *testing.T) {
	t.Parallel()
	pack, err := filepath.Abs("../../examples/handoff.taskpack")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"dry run", []string{"--dry-run"}, "dry run: nothing written"},
		{"dry run with a check", []string{"--dry-run", "--check", "c1=passed"}, "dry run: nothing written"},
		{"check", []string{"--check", "c1=skipped"}, "TP-"},
		{"trust own facts", []string{"--trust-own-facts"}, "TP-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"TP_STORE": t.TempDir(), "TP_MACHINE": "beta", "TP_ACTOR": "bob", "NO_COLOR": "1"}
			var out, errb bytes.Buffer
			io := &cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb, TTY: true, Env: func(k string) string { return env[k] }, Screens: tuiScreens()}
			done := make(chan int, 1)
			go func() { done <- cli.Run(append([]string{"land", pack}, tc.args...), io) }()
			var code int
			select {
			case code = <-done:
			case <-time.After(30 * time.Second): // only stops a hung test
				t.Fatal("tp land waited for input")
			}
			if code != 0 || !strings.Contains(out.String(), tc.want) {
				t.Fatalf("code %d, want output containing %q:\n%s\n%s", code, tc.want, out.String(), errb.String())
			}
			if strings.Contains(out.String(), "\x1b[?1049h") {
				t.Fatal("a screen opened")
			}
		})
	}
}

// A receipt refused on the screen (§4.4.1) ends tp land with exit 1, as the
// headless refusal does, naming the rule; one merely not confirmed exits 0.
func TestLandOutcomeOfAReceipt(t *testing.T) {
	t.Parallel()
	th, err := themes.Choose("no-color", func(string) string { return "" }, lipgloss.NewRenderer(&bytes.Buffer{}))
	if err != nil {
		t.Fatal(err)
	}
	c := common.NewCommon(context.Background(), th, common.Deps{}, t.TempDir())
	for _, tc := range []struct {
		name    string
		refusal *common.Refusal
		code    int
		want    string
	}{
		{"refused", &common.Refusal{Rule: "§4.4.1 target-missing", Why: "this receipt answers TP-AAAA-AAAA, which is not in the store"}, 1, "§4.4.1 target-missing"},
		{"cancelled", nil, 0, "nothing merged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := &common.Plan{File: "r.taskpack", Kind: "receipt", Receipt: &common.MergePlan{Target: "TP-AAAA-AAAA", Refusal: tc.refusal}}
			var out bytes.Buffer
			err := landOutcome(&cli.IO{Out: &out}, "r.taskpack", uilanding.NewReceipt(c, plan))
			code, got := cli.ExitCodeOf(err), out.String()
			if err != nil {
				got = err.Error()
			}
			if code != tc.code || !strings.Contains(got, tc.want) {
				t.Fatalf("err %v, out %q", err, out.String())
			}
		})
	}
}

// The inbox's confirmation says what registering on first use will do, not
// that it happened: nothing is written before y (issue 17).
func TestTOFUProspectIsFuture(t *testing.T) {
	t.Parallel()
	got := tofuProspect(&recordlog.FirstPrincipal{Project: "shop\x1b[2J", Principal: "ann", Fingerprint: "SHA256:abc", KeyFrom: "ssh-agent", File: "/x/allowed_signers"})
	for _, want := range []string{"Nothing is registered yet", "will become its first principal", "project shop\\x1b[2J has no principal", "SHA256:abc (ann, from ssh-agent)"} {
		if !strings.Contains(got, want) {
			t.Errorf("the notice lacks %q: %s", want, got)
		}
	}
	for _, past := range []string{"is now its first principal", "\x1b"} {
		if strings.Contains(got, past) {
			t.Errorf("the notice says %q: %s", past, got)
		}
	}
}
