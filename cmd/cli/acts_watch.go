package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
)

// tp acts watch: one line per new record (raised, amended, claimed, withdrawn), or
// a command run with the record on stdin — so a principal can wire
// notifications. The log is watched with fsnotify (no polling); with the
// acts dir in git it is pulled every --pull-every.

type actsWatchOpts struct {
	project, exec string
	notify        bool
	types         []string
	count         int
	execTimeout   time.Duration
	pullEvery     time.Duration
}

func newActsWatchCmd(io *IO, g *globalOpts) *cobra.Command {
	o := &actsWatchOpts{}
	cmd := &cobra.Command{
		Use:   "watch [--project P] [--exec CMD]",
		Short: "Wait for new records (raised, amended, claimed, withdrawn) and print or hand on each",
		Long: `Wait for records written to the log from now on and print one line for
each, or run CMD (with sh -c) with the record's JSON on stdin and
TP_RECORD_ID, TP_RECORD_TYPE, TP_RECORD_KEY and TP_RECORD_PROJECT set — one at
a time, each with a time limit. By default raised, amended, claimed and
withdrawn records are reported (--type chooses): an amendment changes what
you are asked under the same key. The log is watched through the
operating system's file notifications, so waiting costs nothing; when the
acts dir is a git repository with an upstream it is pulled every
--pull-every (--offline: never). Stops on ctrl+c, or after --count records.

A settlement, reopening or principal's note is reported only when it is the
principal's: signed by a key your trust store holds for the project (D19).
One that is not (unsigned, or signed by an agent's key) is a warning on
stderr, never printed as a record or handed to CMD.

--notify also sends a desktop notification for each of those records and
for each receipt that arrives in the passport store's incoming folder (a
pack that came over A2A): to this terminal as an escape sequence when
stdout is a terminal (OSC 777 on foot, urxvt, WezTerm and Ghostty, OSC 9
elsewhere: iTerm2, Windows Terminal, kitty…), and through notify-send when
it is on PATH (run with arguments, never a shell). The first line on stderr
says which were used. The text is an agent's or a sender's: it is
sanitised, redacted and cut to one short line. Without --notify nothing is
sent; to keep only one way, run without a terminal (tp acts watch --notify
< /dev/null > file) or with a PATH that has no notify-send.`,
		Example: `  tp acts watch
  tp acts watch --notify
  tp acts watch --project demo --exec 'notify-send "tp acts" "$(jq -r .terms.text)"'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runActsWatch(io, g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.project, "project", "", "only this project")
	f.StringVar(&o.exec, "exec", "", "run this command (sh -c) for each record, the record's JSON on stdin")
	f.BoolVar(&o.notify, "notify", false, "a desktop notification for each record and each receipt that arrives (the terminal's OSC 9/777, notify-send)")
	f.StringSliceVar(&o.types, "type", actsession.WatchTypes, "record types to report")
	f.IntVar(&o.count, "count", 0, "stop after this many records (0: never)")
	f.DurationVar(&o.execTimeout, "exec-timeout", time.Minute, "time limit of each --exec run")
	f.DurationVar(&o.pullEvery, "pull-every", time.Minute, "with the acts dir in git: how often to pull")
	return cmd
}

func runActsWatch(io *IO, g *globalOpts, o *actsWatchOpts) error {
	types := map[string]bool{}
	for _, t := range o.types {
		if !oneOfTypes(t) {
			return fmt.Errorf("--type %q: one of %s", display.Line(t), strings.Join(acts.RecordTypes, ", "))
		}
		types[t] = true
	}
	if o.pullEvery < time.Second {
		return fmt.Errorf("--pull-every %s: at least 1s", o.pullEvery)
	}
	l, err := openActsLog(io, g)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sess := actsSession(io, g, l)
	if repo, err := sess.Repo(ctx); err == nil && repo != nil {
		if err := sess.Pull(ctx); err != nil {
			return err
		}
		go func() {
			t := time.NewTicker(o.pullEvery)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					// What the merge brings in appears as new files.
					if err := sess.Pull(ctx); err != nil {
						fmt.Fprintf(io.Err, "tp: warning: %s\n", display.Line(err.Error()))
					}
				}
			}
		}()
	}
	seen := 0
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var n *watchNotifier
	receiptsReady := make(chan struct{})
	if o.notify {
		var how string
		n, how = newWatchNotifier(io)
		defer n.close()
		if how == "" {
			fmt.Fprintln(io.Err, "tp: warning: --notify: stdout is not a terminal and notify-send is not on PATH: no notification can be sent")
		} else {
			fmt.Fprintf(io.Err, "tp: notifying through %s\n", display.Line(how))
		}
		if dir := storeDirFor(io, g); dir != "" && how != "" {
			go func() {
				if err := watchReceipts(ctx, dir, n, func() { close(receiptsReady) }); err != nil {
					n.warn("receipts: " + err.Error())
					close(receiptsReady)
				}
			}()
		} else {
			close(receiptsReady)
		}
	} else {
		close(receiptsReady)
	}
	err = actsession.Watch(ctx, l, actsession.WatchRequest{
		Project: o.project,
		Types:   types,
		Ready: func() {
			<-receiptsReady
			fmt.Fprintf(io.Err, "tp: watching %s for %s records (ctrl+c stops)\n", display.Line(l.Dir), strings.Join(o.types, ", "))
			if io.WatchReady != nil {
				io.WatchReady()
			}
		},
		Problem: func(p recordlog.LogProblem) { fmt.Fprintf(io.Err, "tp: warning: %s\n", display.Line(p.String())) },
		Emit: func(r acts.Record, raw []byte) error {
			if n != nil {
				title, body := recordNotice(r)
				n.notify(ctx, title, body)
			}
			if o.exec != "" {
				actsWatchExec(ctx, io, o, r, raw)
			} else {
				fmt.Fprintln(io.Out, actsWatchLine(r))
			}
			seen++
			if o.count > 0 && seen >= o.count {
				cancel()
			}
			return nil
		},
	})
	return err
}

func oneOfTypes(t string) bool {
	for _, x := range acts.RecordTypes {
		if x == t {
			return true
		}
	}
	return false
}

// actsWatchLine is one record in one line.
func actsWatchLine(r acts.Record) string {
	s := fmt.Sprintf("%s %s %s %s", r.TS, r.Type, display.Line(r.Project), r.Key)
	switch {
	case r.Terms != nil:
		s += " " + q(r.Terms.Text)
		if r.TermsRev > 1 {
			s += fmt.Sprintf(" (terms rev %d)", r.TermsRev)
		}
	case r.Type == acts.TypeClaimed:
		basis := ""
		if r.Evidence != nil {
			basis = r.Evidence.Basis
		}
		s += fmt.Sprintf(" %s by %s: %s", display.Line(r.Outcome), display.Line(r.By), q(basis))
	case r.Type == acts.TypeWithdrawn:
		s += " (no longer needed, by " + display.Line(r.By) + ")"
	case r.Type == acts.TypeSettled:
		s += " " + display.Line(r.Outcome)
	}
	if r.SignedBy != nil {
		// Only a record the watch verified has one (D19-watch).
		s += fmt.Sprintf(", signed by %s %s", display.Line(r.SignedBy.Principal), display.Line(r.SignedBy.Fingerprint))
	}
	return s
}

// actsWatchExec runs the person's command for one record: sh -c, the
// record on stdin, a time limit; its failure is reported, not fatal.
func actsWatchExec(ctx context.Context, io *IO, o *actsWatchOpts, r acts.Record, raw []byte) {
	ctx, cancel := context.WithTimeout(ctx, o.execTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", o.exec)
	c.Stdin = bytes.NewReader(raw)
	c.Stdout, c.Stderr = io.Out, io.Err
	c.Env = append(os.Environ(), "TP_RECORD_ID="+r.ID, "TP_RECORD_TYPE="+r.Type, "TP_RECORD_KEY="+r.Key, "TP_RECORD_PROJECT="+r.Project)
	c.WaitDelay = time.Second
	if err := c.Run(); err != nil {
		fmt.Fprintf(io.Err, "tp: warning: --exec for %s %s: %v\n", r.Type, display.Line(r.ID), err)
	}
}
