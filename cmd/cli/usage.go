package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/themename"
)

// tidyCommands gives every command of the tree the same first contact, the
// way gh does: a missing or extra argument names what is missing and
// prints the usage line as the hint; an unknown command or flag suggests
// the nearest one; an unknown --theme is refused before any command runs,
// headless or not; a command that needs tp-full is forwarded to it (D26).
// It runs once the tree is complete.
func tidyCommands(root *cobra.Command, io *IO, g *globalOpts) {
	root.SetFlagErrorFunc(flagError)
	prev := root.PersistentPreRunE
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := themename.Check(g.theme); err != nil {
			return err
		}
		if wantsFull(cmd, io, g) {
			// Before the command runs, so nothing is opened, read or
			// prompted for twice (D26).
			if io.Forward == nil {
				return errNoFull(cmd.CommandPath())
			}
			return io.Forward(cmd.CommandPath())
		}
		if prev != nil {
			return prev(cmd, args)
		}
		return nil
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Args = argsWithUsage(c.Args)
		c.SuggestionsMinimumDistance = 2
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

// usageHint is the hint an argument or flag error carries.
func usageHint(c *cobra.Command) string { return "usage: " + c.UseLine() }

// argsWithUsage wraps a command's argument rule: an argument given to a
// command that has subcommands is an unknown command (with the nearest
// one suggested); any other refusal names what is missing or extra.
func argsWithUsage(rule cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if c.HasAvailableSubCommands() && len(args) > 0 {
			if rule == nil || rule(c, args) != nil {
				return unknownCommand(c, args[0])
			}
		}
		if rule == nil {
			return nil
		}
		err := rule(c, args)
		if err == nil {
			return nil
		}
		want := placeholders(c)
		switch {
		case len(args) < len(want):
			err = fmt.Errorf("%s: missing %s", c.CommandPath(), strings.Join(want[len(args):], " "))
		case len(args) > len(want) && len(want) > 0:
			err = fmt.Errorf("%s: unexpected argument %q after %s", c.CommandPath(), display.Line(args[len(want)]), strings.Join(want, " "))
		case len(want) == 0 && len(args) > 0:
			err = fmt.Errorf("%s takes no arguments, got %q", c.CommandPath(), display.Line(args[0]))
		default:
			err = fmt.Errorf("%s: %w", c.CommandPath(), err)
		}
		return withHint(err, usageHint(c))
	}
}

// placeholders are the argument names of a command's Use line ("land FILE"
// → FILE; "note KEY TEXT" → KEY, TEXT), stopping at the first flag or
// optional part.
func placeholders(c *cobra.Command) []string {
	fields := strings.Fields(c.Use)
	var out []string
	for _, f := range fields[min(1, len(fields)):] {
		if strings.HasPrefix(f, "-") || strings.HasPrefix(f, "[") {
			break
		}
		out = append(out, f)
	}
	return out
}

func unknownCommand(c *cobra.Command, name string) error {
	err := fmt.Errorf("unknown command %q for %q", display.Line(name), c.CommandPath())
	if s := c.SuggestionsFor(name); len(s) > 0 {
		return withHint(err, "did you mean "+c.CommandPath()+" "+s[0]+"?")
	}
	return withHint(err, c.CommandPath()+" --help lists its commands")
}

// flagError is every command's flag error: the nearest flag when the name
// is close to one, and the usage line.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if ok {
		if near := nearestFlag(c, name); near != "" {
			return withHint(err, "did you mean --"+near+"? "+usageHint(c))
		}
	}
	return withHint(err, usageHint(c))
}

// nearestFlag is the flag of c closest to name (at most two edits, or name
// a prefix of it), "" when none is.
func nearestFlag(c *cobra.Command, name string) string {
	var names []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	c.LocalFlags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	sort.Strings(names)
	best, bestD := "", 3
	for _, n := range names {
		d := editDistance(strings.ToLower(name), n)
		if strings.HasPrefix(n, name) && len(name) >= 2 {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, by rune.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
