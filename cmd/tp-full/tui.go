package main

// The terminal UI's wiring: the only place a tea.Program is built. It makes
// the Screens the commands are given (plain `tp`, tp land, tp asks, ...,
// and the principal's inbox); each is used only when io.Interactive(g), so
// --plain, --json and pipes keep their headless output and never prompt.

import (
	"context"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/cmd/cli"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/howrun"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui"
	"github.com/tp-dev/tp/ui/backend"
	"github.com/tp-dev/tp/ui/common"
	uilanding "github.com/tp-dev/tp/ui/landing"
)

// tuiScreens are the real screens; stdIO passes them to every command
// (main and the testscript "tp" command), tests pass their own.
func tuiScreens() *cli.Screens {
	return &cli.Screens{
		Home:   homeTUI,
		Land:   landTUI,
		List:   listTUI,
		Show:   showTUI,
		Asks:   asksTUI,
		Checks: checksTUI,
		Inbox:  inboxTUI,
	}
}

// uiTheme picks the theme for --theme, honouring NO_COLOR.
func uiTheme(io *cli.IO, g *cli.Globals) (*themes.Theme, error) {
	r := lipgloss.NewRenderer(io.Out, termenv.WithEnvironment(envOf(io)))
	return themes.Choose(g.Theme(), io.Env, r)
}

// envOf lets termenv read the same environment as the rest of tp.
type environ struct{ get func(string) string }

// Environ lists the process environment only when tp reads the process's
// own; an injected environment cannot be listed, so termenv sees none.
func (e environ) Environ() []string {
	if e.get == nil {
		return os.Environ()
	}
	return nil
}
func (e environ) Getenv(k string) string {
	if e.get == nil {
		return os.Getenv(k)
	}
	return e.get(k)
}
func envOf(io *cli.IO) termenv.Environ { return environ{io.Env} }

// runUI builds the program and runs it until the person leaves. The context
// handed to the screens is cancelled when the program ends.
func runUI(io *cli.IO, g *cli.Globals, deps common.Deps, first func(c *common.Common) common.Component) (*ui.App, error) {
	th, err := uiTheme(io, g)
	if err != nil {
		return nil, err
	}
	wd, err := io.Wd()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if deps.RunHow == nil {
		deps.RunHow = howrun.Run
	}
	c := common.NewCommon(ctx, th, deps, wd)
	app := ui.New(c, first(c))
	p := tea.NewProgram(app, tea.WithInput(io.In), tea.WithOutput(io.Out), tea.WithAltScreen())
	if _, err := p.Run(); err != nil {
		return nil, err
	}
	return app, nil
}

func identity(io *cli.IO) (actor, machine string) {
	return store.Actor("", io.Env), store.Machine(io.Env)
}

func inboxBackend(io *cli.IO, g *cli.Globals) common.Inbox {
	l, err := cli.OpenActsLog(io, g)
	if err != nil {
		return nil
	}
	return inboxOver(io, g, cli.ActsSession(io, g, l))
}

// inboxOver is the inbox's backend over the acts session s: the same
// session (pull, list, write, commit, push) the command line runs.
func inboxOver(io *cli.IO, g *cli.Globals, s *actsession.Session) *backend.Inbox {
	l := s.Log
	// One key for the inbox's life: found on first use, then used for
	// every preview and write (a batch of marked acts is one key use).
	key := cli.ActsPrincipalKey(io, g)
	key.Find = actsession.OnceKey(key.Find)
	return &backend.Inbox{Session: s, Build: principalRecords(io),
		Sign: func(project string, rs []acts.Record, register bool) (string, error) {
			tofu, err := key.SignRecords(l, project, rs, register)
			if err != nil || tofu == nil {
				return "", err
			}
			if !register {
				return tofuProspect(tofu), nil
			}
			return tofu.String(), nil
		},
	}
}

// tofuProspect is the confirmation's notice of a registration that y would
// make: said as what will happen, since nothing is registered before the
// person presses y (issue 17).
func tofuProspect(t *recordlog.FirstPrincipal) string {
	l := display.Line
	return fmt.Sprintf("Nothing is registered yet. Writing this registers your key first (trust on first use, D19): project %s has no principal, so your key %s (%s, from %s) will become its first principal, written to %s and trusted on this machine. Other machines will apply its settlements once their person trusts it (tp acts principal trust --project %s %s). From then on, only records signed by a principal are applied.",
		l(t.Project), l(t.Fingerprint), l(t.Principal), l(t.KeyFrom), l(t.File), l(t.Project), l(t.Fingerprint))
}

// homeTUI is plain `tp` on a terminal.
func homeTUI(cmd *cobra.Command, io *cli.IO, g *cli.Globals) error {
	if !io.Interactive(g) {
		return cmd.Help()
	}
	st, err := cli.OpenStore(io, g)
	if err != nil {
		return err
	}
	return listTUI(io, g, st)
}

// listTUI is the home screen over st: plain `tp`, and tp list on a terminal.
func listTUI(io *cli.IO, g *cli.Globals, st *store.Store) error {
	actor, machine := identity(io)
	wd, _ := io.Wd()
	inbox := inboxBackend(io, g)
	lander := &backend.Lander{Store: st, Env: landing.Env{Actor: actor, Machine: machine}}
	defer lander.Close()
	deps := common.Deps{
		Lander:    lander,
		Asks:      &backend.Asks{Store: st, Actor: actor, Machine: machine},
		Checks:    &backend.Checks{Store: st, Actor: actor, Machine: machine},
		Passports: &backend.Passports{Store: st},
		Inbox:     inbox,
		Home:      &backend.Home{Store: st, Inbox: inbox, Dir: wd},
	}
	_, err := runUI(io, g, deps, func(c *common.Common) common.Component { return ui.NewHome(c) })
	return err
}

// landTUI is tp land FILE on a terminal: the walkthrough, or the receipt
// preview. --dry-run stays headless (it is a report of the plan; the
// walkthrough writes nothing until its last step anyway), and so do
// --check and --trust-own-facts: decisions already given as flags are the
// headless path's to apply, not to be asked again.
func landTUI(cmd *cobra.Command, io *cli.IO, g *cli.Globals, file string, o cli.LandOptions) error {
	in := o.Input()
	if in == nil || in.Path != file {
		in = &cli.Unsealed{Path: file, Name: file}
	}
	if o.DryRun || len(o.Checks) > 0 || o.TrustOwnFacts || o.TrustSender != "" {
		// Decisions given as flags are the headless path's to apply.
		return cli.RunLandPlain(io, g, in, o)
	}
	st, err := cli.OpenStore(io, g)
	if err != nil {
		return err
	}
	actor, machine := identity(io)
	lander := &backend.Lander{Store: st, Env: cli.LandEnv(io), Into: o.Into, FilesOut: o.FilesOut, Options: pack.Options{Limits: o.Limits()}}
	if ring, err := cli.SenderRing(io); err == nil {
		lander.Senders = ring // the summary names a known signer (D22)
	}
	if in.Sealed {
		// The screens name the .age file the person gave; the backend
		// reads its decrypted copy (D22).
		lander.Sealed = map[string]string{in.Name: in.Path}
	}
	defer lander.Close()
	deps := common.Deps{Lander: lander, Asks: &backend.Asks{Store: st, Actor: actor, Machine: machine}}
	app, err := runUI(io, g, deps, func(c *common.Common) common.Component { return uilanding.New(c, in.Name) })
	if err != nil {
		return err
	}
	return landOutcome(io, in.Name, app.Top())
}

// landOutcome leaves a line behind the alternate screen saying what
// happened, and the exit status: a refusal or a failure to open exits 1, as
// headless tp land does.
func landOutcome(io *cli.IO, file string, top common.Component) error {
	switch s := top.(type) {
	case *uilanding.Landing:
		if r := s.Result(); r != nil {
			fmt.Fprintf(io.Out, "landed %s as %s\n", display.Line(file), display.Line(r.ID))
			return nil
		}
		if err := s.Err(); err != nil && s.Phase() == uilanding.PhaseFailed {
			return err
		}
		fmt.Fprintln(io.Out, "nothing landed")
	case *uilanding.Receipt:
		if r := s.Result(); r != nil {
			fmt.Fprintf(io.Out, "merged %s into %s (version %d)\n", display.Line(file), display.Line(r.Target), r.Version)
			return nil
		}
		if rf := s.Refusal(); rf != nil {
			// A refusal exits 1, as headless tp land does (the screen
			// already showed it with the rule quoted).
			return cli.Refused(fmt.Errorf("%s: %s (%s)", display.Line(file), display.Line(rf.Why), display.Line(rf.Rule)))
		}
		fmt.Fprintln(io.Out, "nothing merged")
	}
	return nil
}

// asksTUI is tp asks ID on a terminal.
func asksTUI(io *cli.IO, g *cli.Globals, st *store.Store, id string) error {
	actor, machine := identity(io)
	deps := common.Deps{Asks: &backend.Asks{Store: st, Actor: actor, Machine: machine}}
	_, err := runUI(io, g, deps, func(c *common.Common) common.Component { return ui.NewAsks(c, id) })
	return err
}

// showTUI is tp show ID on a terminal: the passport, and from it its asks
// and landing checks.
func showTUI(io *cli.IO, g *cli.Globals, st *store.Store, id string) error {
	actor, machine := identity(io)
	deps := common.Deps{
		Passports: &backend.Passports{Store: st},
		Asks:      &backend.Asks{Store: st, Actor: actor, Machine: machine},
		Checks:    &backend.Checks{Store: st, Actor: actor, Machine: machine},
	}
	_, err := runUI(io, g, deps, func(c *common.Common) common.Component { return ui.NewPassport(c, id) })
	return err
}

// checksTUI is tp checks ID on a terminal.
func checksTUI(io *cli.IO, g *cli.Globals, st *store.Store, id string) error {
	actor, machine := identity(io)
	deps := common.Deps{Checks: &backend.Checks{Store: st, Actor: actor, Machine: machine}}
	_, err := runUI(io, g, deps, func(c *common.Common) common.Component { return ui.NewChecks(c, id) })
	return err
}

// inboxTUI is tp acts on a terminal: the principal's inbox.
func inboxTUI(cmd *cobra.Command, io *cli.IO, g *cli.Globals) error {
	s, err := cli.ActsOpenSession(io, g)
	if err != nil {
		return err
	}
	_, err = runUI(io, g, common.Deps{Inbox: inboxOver(io, g, s)}, func(c *common.Common) common.Component { return ui.NewInbox(c) })
	return err
}
