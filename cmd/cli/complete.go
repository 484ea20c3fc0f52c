package cli

import (
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/themename"
)

// Shell completion (cobra's `tp completion bash|zsh|fish|powershell`): the
// arguments and flag values people would otherwise look up — passport ids,
// act keys, pack files, --outcome, --theme, --profile. Candidates come from
// the store and the record log, which hold data written by others: every
// description is sanitised and cut to one short line (D11), and a
// candidate that is not a plain word is left out rather than handed to a
// shell.

// completions wires every completion onto the finished command tree; a
// command another file has not added yet is simply skipped.
func completions(root *cobra.Command, io *IO, g *globalOpts) {
	byPath := map[string]*cobra.Command{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		byPath[strings.TrimPrefix(c.CommandPath(), "tp ")] = c
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	args := func(path string, f cobra.CompletionFunc) {
		if c := byPath[path]; c != nil && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = firstArg(f)
		}
	}
	flag := func(path, name string, f cobra.CompletionFunc) {
		c := byPath[path]
		if c == nil || c.Flags().Lookup(name) == nil {
			return
		}
		_ = c.RegisterFlagCompletionFunc(name, f)
	}
	words := func(ws ...string) cobra.CompletionFunc {
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return ws, cobra.ShellCompDirectiveNoFileComp
		}
	}

	ids := passportIDs(io, g)
	for _, p := range []string{"show", "asks", "checks", "pack", "checkpoint", "open", "prompt"} {
		args(p, ids)
	}
	flag("land", "into", ids)
	for _, p := range []string{"land", "conformance", "convert"} {
		args(p, packFiles)
	}

	anyAct := actKeys(io, g, func(*acts.ActState) bool { return true })
	open := actKeys(io, g, func(s *acts.ActState) bool { return s.Status != acts.StatusSettled })
	settled := actKeys(io, g, func(s *acts.ActState) bool { return s.Status == acts.StatusSettled })
	args("acts settle", open)
	args("acts claim", open)
	args("acts withdraw", open)
	args("acts note", anyAct)
	args("acts reopen", settled)
	flag("acts settle", "same-as", anyAct)
	flag("acts settle", "outcome", words("done", "dropped", "already_done"))
	flag("acts claim", "outcome", words("done", "dropped"))
	flag("acts sync", "profile", words(acts.ProfileNames()...))
	flag("acts lint", "profile", words(acts.ProfileNames()...))
	_ = root.RegisterFlagCompletionFunc("theme", words(themename.Names()...))
}

// firstArg completes the first argument only; nothing after it.
func firstArg(f cobra.CompletionFunc) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return f(c, args, toComplete)
	}
}

// packFiles lets the shell complete file names of either encoding (and
// folders, to walk into).
func packFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"taskpack", "json", "tpx"}, cobra.ShellCompDirectiveFilterFileExt
}

// candidate is "word\tdescription", or "" when word is not safe to hand a
// shell as is.
func candidate(word, desc string) string {
	if word == "" || display.Line(word) != word || strings.ContainsAny(word, " \t\n'\"\\$`;&|<>()*?[]{}!#~") {
		return ""
	}
	desc = strings.Join(strings.Fields(display.Line(desc)), " ")
	if utf8.RuneCountInString(desc) > 60 {
		desc = string([]rune(desc)[:59]) + "…"
	}
	if desc == "" {
		return word
	}
	return word + "\t" + desc
}

// passportIDs completes the ids of the passports in the store, most
// recently updated first, with their titles.
func passportIDs(io *IO, g *globalOpts) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		s, err := openStore(io, g)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		entries, _, err := s.List()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, e := range entries {
			if !strings.HasPrefix(strings.ToUpper(e.ID), strings.ToUpper(toComplete)) {
				continue
			}
			if c := candidate(e.ID, e.Title); c != "" {
				out = append(out, c)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// actKeys completes the keys of the acts keep accepts, with their text.
func actKeys(io *IO, g *globalOpts, keep func(*acts.ActState) bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		l, err := openActsLog(io, g)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		projects, _, err := l.Projects()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, p := range projects {
			ld, err := l.Load(p)
			if err != nil {
				continue
			}
			states, _ := acts.States(ld.Records)
			for _, st := range actsSortedStates(states) {
				if !keep(st) || !strings.HasPrefix(st.Key, toComplete) {
					continue
				}
				if c := candidate(st.Key, st.Text); c != "" {
					out = append(out, c)
				}
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
