package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
	"golang.org/x/crypto/ssh"
)

// tp acts principal add|list|remove: who the project's principal is (D19).
// Every change is a signed record in <project>/principals/, signed by a
// principal; allowed_signers is rewritten from those records.

func newActsPrincipalCmd(io *IO, g *globalOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "principal",
		Short: "Manage who may settle a project's acts (allowed_signers)",
		Long: `A project's principals are the SSH keys whose signatures make settlements,
reopenings and the principal's notes count (Acts 0.3 §10, D19). Every change
is a record signed by a principal current at that point, naming the change
before it, in <project>/principals/ (allowed_signers is written from them, in
OpenSSH's format, for ssh-keygen -Y verify and git; tp never trusts it).

Which chain counts on this machine is your trust store's say, never the acts
folder's ($TP_TRUST_DIR, else ~/.config/tp/trust): the project's first
principal key must be trusted there — by your own first settlement at this
terminal, by tp acts principal trust, or by tp acts init --principal — and a
history that no longer holds the newest change this machine accepted is
refused. A registrar never adopts a principal on its own.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newActsPrincipalListCmd(io, g), newActsPrincipalChangeCmd(io, g, recordlog.PrincipalAdded), newActsPrincipalChangeCmd(io, g, recordlog.PrincipalRemoved),
		newActsPrincipalTrustCmd(io, g), newActsPrincipalResolveCmd(io, g))
	return cmd
}

type actsPrincipalJSON struct {
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	KeyType     string `json:"key_type"`
	PublicKey   string `json:"public_key"`
}

type actsPrincipalsJSON struct {
	Project    string              `json:"project"`
	ProjectID  string              `json:"project_id,omitempty"`
	File       string              `json:"allowed_signers"`
	Principals []actsPrincipalJSON `json:"principals"`
	Removed    []actsRemovedJSON   `json:"removed"`
	Changes    int                 `json:"changes"`
	Head       string              `json:"head,omitempty"`
	Mismatch   string              `json:"mismatch,omitempty"`
	// Blocked: why this machine applies no principal-side record (no
	// principal trusted here, a fork, a rollback).
	Blocked  string   `json:"blocked,omitempty"`
	Problems []string `json:"problems"`
}

type actsRemovedJSON struct {
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	Reason      string `json:"reason"`
	Change      string `json:"change"`
}

func actsPrincipalsReport(p *recordlog.Principals) actsPrincipalsJSON {
	out := actsPrincipalsJSON{Project: sanitize.Line(p.Project), ProjectID: p.ProjectID, File: sanitize.Line(p.Path), Principals: []actsPrincipalJSON{},
		Removed: []actsRemovedJSON{}, Changes: len(p.Changes), Head: p.Head, Mismatch: sanitize.Line(p.Mismatch), Blocked: sanitize.Line(p.Blocked), Problems: []string{}}
	for _, r := range p.Removed {
		out.Removed = append(out.Removed, actsRemovedJSON{Name: sanitize.Line(r.Name), Fingerprint: r.Fingerprint(), Reason: r.Reason, Change: sanitize.Line(r.ChangeID)})
	}
	for _, c := range p.Chain {
		out.Principals = append(out.Principals, actsPrincipalJSON{Name: sanitize.Line(c.Name), Fingerprint: c.Fingerprint(), KeyType: c.Key.Type(),
			PublicKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(c.Key)))})
	}
	for _, pr := range p.Problems {
		out.Problems = append(out.Problems, sanitize.Line(pr))
	}
	return out
}

func printPrincipals(io *IO, rep actsPrincipalsJSON) {
	if len(rep.Principals) == 0 && rep.Mismatch == "" && rep.Blocked == "" {
		fmt.Fprintf(io.Out, "project %s has no principal: the next tp acts settle at your terminal registers your key\n", rep.Project)
	}
	for _, p := range rep.Principals {
		fmt.Fprintf(io.Out, "%s %s %s\n", p.Name, p.Fingerprint, p.KeyType)
	}
	for _, r := range rep.Removed {
		fmt.Fprintf(io.Out, "removed %s %s %s (change %s)\n", r.Name, r.Fingerprint, r.Reason, r.Change)
	}
	if rep.Blocked != "" {
		fmt.Fprintf(io.Out, "NOT TRUSTED: %s\n", rep.Blocked)
	}
	if rep.Mismatch != "" {
		fmt.Fprintf(io.Out, "NOT TRUSTED: %s\n", rep.Mismatch)
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", p)
	}
}

func newActsPrincipalListCmd(io *IO, g *globalOpts) *cobra.Command {
	var project string
	cmd := &cobra.Command{
		Use:   "list --project P",
		Short: "List a project's principals",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if project == "" {
				return withHint(errors.New("principal list needs --project"), "tp acts principal list --project NAME")
			}
			l, err := openActsLog(io, g)
			if err != nil {
				return err
			}
			if err := actsPull(io, g, l); err != nil {
				return err
			}
			p, err := l.LoadPrincipals(project)
			if err != nil {
				return err
			}
			rep := actsPrincipalsReport(p)
			if g.json {
				return writeJSON(io.Out, rep)
			}
			printPrincipals(io, rep)
			if p.Mismatch != "" || p.Blocked != "" {
				return silentExit(exitError)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "the project")
	return cmd
}

// actsParseKeyArg reads a public key: a .pub file, an authorized_keys line,
// or (for remove) a SHA256 fingerprint or principal name of the project.
func actsParseKeyArg(arg string, p *recordlog.Principals) (ssh.PublicKey, string, error) {
	if p != nil {
		for _, c := range p.Chain {
			if arg == c.Fingerprint() || arg == c.Name {
				return c.Key, c.Name, nil
			}
		}
	}
	data := []byte(arg)
	if b, err := os.ReadFile(arg); err == nil {
		data = b
	}
	k, comment, _, _, err := ssh.ParseAuthorizedKey(data)
	if err != nil {
		return nil, "", fmt.Errorf("%q is not a public key (a .pub file or an \"ssh-ed25519 AAAA…\" line)", display.Line(arg))
	}
	return k, comment, nil
}

func newActsPrincipalChangeCmd(io *IO, g *globalOpts, typ string) *cobra.Command {
	var project, name, reason string
	verb := "add"
	short := "Add a principal (signed by a principal's key)"
	if typ == recordlog.PrincipalRemoved {
		verb, short = "remove", "Remove a principal (signed by a principal's key)"
	}
	cmd := &cobra.Command{
		Use:   verb + " --project P KEY",
		Short: short,
		Long: short + `. KEY is a public key file (.pub) or line; remove also takes a
principal's name or SHA256 fingerprint. The change is a record signed with
your signing key, which must be a principal's (in a project without one,
add your own key to become its first principal, trusted on this machine).
The last principal cannot be removed: add another first. A removal says why
(--reason): retired keeps what that key signed and this machine had already
applied; compromised distrusts everything it signed, and tp acts verify lists
those records for a principal to settle again. A removed key comes back only
when a current principal adds it again.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if project == "" {
				return withHint(fmt.Errorf("principal %s needs --project", verb), "tp acts principal "+verb+" --project NAME KEY")
			}
			if typ == recordlog.PrincipalRemoved && reason != recordlog.Retired && reason != recordlog.Compromised {
				return withHint(fmt.Errorf("principal remove needs --reason retired or --reason compromised"), "retired keeps what the key signed and was applied; compromised distrusts all of it")
			}
			l, err := openActsLog(io, g)
			if err != nil {
				return err
			}
			if err := actsPull(io, g, l); err != nil {
				return err
			}
			before, err := l.LoadPrincipals(project)
			if err != nil {
				return err
			}
			key, comment, err := actsParseKeyArg(args[0], before)
			if err != nil {
				return err
			}
			if name == "" {
				name = comment
				if held, ok := before.Holds(key); ok {
					name = held.Name
				}
				if !sshsign.ValidPrincipal(name) {
					name = actsPrincipalName(io)
				}
			}
			f, err := actsFindSigner(io, g, func(k ssh.PublicKey) bool { _, ok := before.Holds(k); return ok })
			if err != nil {
				return err
			}
			s := actsPrincipalSender(io)
			after, err := l.ChangePrincipalWhy(project, typ, name, key, reason, f.Signer, s.By, s.Now, actsNonce())
			if err != nil {
				return err
			}
			if err := actsCommitPush(io, g, l, fmt.Sprintf("tp acts principal %s: %s %s %s", verb, project, name, sshsign.Fingerprint(key))); err != nil {
				return err
			}
			rep := actsPrincipalsReport(after)
			if g.json {
				return writeJSON(io.Out, rep)
			}
			past := "added"
			if typ == recordlog.PrincipalRemoved {
				past = "removed"
			}
			if _, held := before.Holds(key); held && typ == recordlog.PrincipalAdded {
				fmt.Fprintf(io.Out, "%s rewritten from the signed principal changes\n", display.Line(after.Path))
			} else {
				fmt.Fprintf(io.Out, "%s principal %s %s (signed with %s)\n", past, display.Line(name), sshsign.Fingerprint(key), sshsign.Fingerprint(f.Signer.PublicKey()))
			}
			printPrincipals(io, rep)
			return nil
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "the project")
	if typ == recordlog.PrincipalAdded {
		cmd.Flags().StringVar(&name, "name", "", "the principal's name in allowed_signers (default: the key's comment, else your actor name)")
	} else {
		cmd.Flags().StringVar(&reason, "reason", "", "why: retired or compromised")
	}
	return cmd
}

// tp acts principal trust: this person trusts a key as a project's first
// principal, on this machine (the trust store, D19).
func newActsPrincipalTrustCmd(io *IO, g *globalOpts) *cobra.Command {
	var project string
	cmd := &cobra.Command{
		Use:   "trust --project P KEY",
		Short: "Trust a key as a project's first principal on this machine",
		Long: `Trust KEY as the first principal of project P on this machine: from then on
this machine applies the settlements of P's principal chain that starts with
that key (Acts 0.3 §10, D19). KEY is a public key file (.pub), an
"ssh-ed25519 AAAA…" line, or the SHA256 fingerprint the principal reads out
(tp acts principal list on their machine shows it). The trust is kept in your
trust store ($TP_TRUST_DIR, else ~/.config/tp/trust), keyed by the project's
identity, never in the acts folder. The project's first principal change must
be in the acts folder already (pull, or wait for the principal's first
settlement).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if project == "" {
				return withHint(errors.New("principal trust needs --project"), "tp acts principal trust --project NAME KEY")
			}
			l, err := openActsLog(io, g)
			if err != nil {
				return err
			}
			if err := actsPull(io, g, l); err != nil {
				return err
			}
			first, err := actsTrustFirst(l, project, args[0])
			if err != nil {
				return err
			}
			after, err := l.LoadPrincipals(project)
			if err != nil {
				return err
			}
			rep := actsPrincipalsReport(after)
			if g.json {
				return writeJSON(io.Out, rep)
			}
			fmt.Fprintf(io.Out, "trusted %s %s as the first principal of project %s (project id %s) on this machine, in %s\n",
				display.Line(first.Principal), sshsign.Fingerprint(actsKeyOf(first.PublicKey)), display.Line(project), first.ProjectID, display.Line(l.Trust.Path()))
			printPrincipals(io, rep)
			return nil
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "the project")
	return cmd
}

func actsKeyOf(authorized string) ssh.PublicKey {
	k, _, _, _, _ := ssh.ParseAuthorizedKey([]byte(authorized))
	return k
}

// actsTrustFirst trusts the key arg names as project's first principal:
// it must be the key of one of the project's first principal changes.
func actsTrustFirst(l *recordlog.Log, project, arg string) (recordlog.PrincipalChange, error) {
	p, err := l.LoadPrincipals(project)
	if err != nil {
		return recordlog.PrincipalChange{}, err
	}
	if len(p.Firsts) == 0 {
		return recordlog.PrincipalChange{}, withHint(fmt.Errorf("project %s has no principal change in %s yet: there is nothing to trust", display.Line(project), display.Line(l.PrincipalsDir(project))),
			"the principal's first tp acts settle makes one; pull (tp acts list) once it is pushed, then trust it")
	}
	var match []recordlog.PrincipalChange
	for _, c := range p.Firsts {
		k := actsKeyOf(c.PublicKey)
		if k == nil {
			continue
		}
		if arg == sshsign.Fingerprint(k) {
			match = append(match, c)
			continue
		}
		data := []byte(arg)
		if b, err := os.ReadFile(arg); err == nil {
			data = b
		}
		if want, _, _, _, err := ssh.ParseAuthorizedKey(data); err == nil && string(want.Marshal()) == string(k.Marshal()) {
			match = append(match, c)
		}
	}
	if len(match) == 0 {
		var have []string
		for _, c := range p.Firsts {
			have = append(have, display.Line(c.Principal)+" "+sshsign.Fingerprint(actsKeyOf(c.PublicKey)))
		}
		return recordlog.PrincipalChange{}, withHint(fmt.Errorf("%q is not the key of project %s's first principal (%s); nothing was trusted", display.Line(arg), display.Line(project), strings.Join(have, ", ")),
			"ask the principal for the fingerprint tp acts principal list shows on their machine")
	}
	c := match[0]
	if err := l.TrustRoot(project, c.ProjectID, c.Principal, actsKeyOf(c.PublicKey), time.Now()); err != nil {
		return recordlog.PrincipalChange{}, err
	}
	return c, nil
}

// tp acts principal resolve: a person keeps one history of a forked or
// rolled-back principal chain (D19).
func newActsPrincipalResolveCmd(io *IO, g *globalOpts) *cobra.Command {
	var project, keep string
	cmd := &cobra.Command{
		Use:   "resolve --project P --keep CHANGE_ID",
		Short: "Keep one history of a project's forked or rolled-back principals",
		Long: `When a project's principal history forks (two first principals registered
concurrently, or two changes extending one), every machine stops applying its
principal-side records; when it no longer holds the newest change this
machine accepted, this machine stops. Resolve is the person's decision: keep
the history through CHANGE_ID (its ancestors and what extends it), remove the
other changes' files from principals/ (commit and push them when the acts dir
is a git repository; git keeps them in its history), and accept the kept
history on this machine. Its first principal must be trusted here (tp acts
principal trust). Other machines that had accepted a removed change stop too,
until their person resolves or trusts.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if project == "" || keep == "" {
				return withHint(errors.New("principal resolve needs --project and --keep"), "tp acts principal list --project NAME names the changes; tp acts verify --project NAME explains the fork")
			}
			l, err := openActsLog(io, g)
			if err != nil {
				return err
			}
			if err := actsPull(io, g, l); err != nil {
				return err
			}
			res, err := l.Resolve(project, keep)
			if err != nil {
				return err
			}
			if err := actsCommitPush(io, g, l, fmt.Sprintf("tp acts principal resolve: %s: kept %s, removed %s", project, keep, strings.Join(res.Removed, ", "))); err != nil {
				return err
			}
			rep := actsPrincipalsReport(res.After)
			if g.json {
				return writeJSON(io.Out, rep)
			}
			for _, id := range res.Removed {
				fmt.Fprintf(io.Out, "removed principal change %s\n", display.Line(id))
			}
			fmt.Fprintf(io.Out, "kept the principal history through %s (%s)\n", display.Line(keep), plural.N(len(res.Kept), "change"))
			printPrincipals(io, rep)
			if res.After.Blocked != "" {
				return silentExit(exitError)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "the project")
	cmd.Flags().StringVar(&keep, "keep", "", "the change whose history to keep")
	return cmd
}
