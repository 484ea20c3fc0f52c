package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
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
reopenings and the principal's notes count (Acts 0.3 §10). They are listed in
<acts-dir>/<project>/allowed_signers (OpenSSH's format, so ssh-keygen -Y
verify reads it too), and every change is itself a record signed by a
principal, in <project>/principals/. The first settlement in a project
without principals registers its signer (trust on first use).`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newActsPrincipalListCmd(io, g), newActsPrincipalChangeCmd(io, g, acts.PrincipalAdded), newActsPrincipalChangeCmd(io, g, acts.PrincipalRemoved))
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
	File       string              `json:"allowed_signers"`
	Principals []actsPrincipalJSON `json:"principals"`
	Changes    int                 `json:"changes"`
	Mismatch   string              `json:"mismatch,omitempty"`
	Problems   []string            `json:"problems"`
}

func actsPrincipalsReport(p *acts.Principals) actsPrincipalsJSON {
	out := actsPrincipalsJSON{Project: sanitize.Line(p.Project), File: sanitize.Line(p.Path), Principals: []actsPrincipalJSON{},
		Changes: len(p.Changes), Mismatch: sanitize.Line(p.Mismatch), Problems: []string{}}
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
	if len(rep.Principals) == 0 && rep.Mismatch == "" {
		fmt.Fprintf(io.Out, "project %s has no principal: its settlements are unauthenticated; the next tp acts settle registers your key\n", rep.Project)
	}
	for _, p := range rep.Principals {
		fmt.Fprintf(io.Out, "%s %s %s\n", p.Name, p.Fingerprint, p.KeyType)
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
			if p.Mismatch != "" {
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
func actsParseKeyArg(arg string, p *acts.Principals) (ssh.PublicKey, string, error) {
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
		return nil, "", fmt.Errorf("%q is not a public key (a .pub file or an \"ssh-ed25519 AAAA…\" line)", sanitize.Line(arg))
	}
	return k, comment, nil
}

func newActsPrincipalChangeCmd(io *IO, g *globalOpts, typ string) *cobra.Command {
	var project, name string
	verb := "add"
	short := "Add a principal (signed by a principal's key)"
	if typ == acts.PrincipalRemoved {
		verb, short = "remove", "Remove a principal (signed by a principal's key)"
	}
	cmd := &cobra.Command{
		Use:   verb + " --project P KEY",
		Short: short,
		Long: short + `. KEY is a public key file (.pub) or line; remove also takes a
principal's name or SHA256 fingerprint. The change is a record signed with
your signing key, which must be a principal's (in a project without one,
add your own key to become its first principal). The last principal cannot
be removed: add another first.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if project == "" {
				return withHint(fmt.Errorf("principal %s needs --project", verb), "tp acts principal "+verb+" --project NAME KEY")
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
			after, err := l.ChangePrincipal(project, typ, name, key, f.Signer, s.By, s.Now, actsNonce())
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
			if typ == acts.PrincipalRemoved {
				past = "removed"
			}
			if _, held := before.Holds(key); held && typ == acts.PrincipalAdded {
				fmt.Fprintf(io.Out, "%s rewritten from the signed principal changes\n", sanitize.Line(after.Path))
			} else {
				fmt.Fprintf(io.Out, "%s principal %s %s (signed with %s)\n", past, sanitize.Line(name), sshsign.Fingerprint(key), sshsign.Fingerprint(f.Signer.PublicKey()))
			}
			printPrincipals(io, rep)
			return nil
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "the project")
	if typ == acts.PrincipalAdded {
		cmd.Flags().StringVar(&name, "name", "", "the principal's name in allowed_signers (default: the key's comment, else your actor name)")
	}
	return cmd
}
