package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IO is the one place the command line touches the process's streams. Tests
// build it from buffers; the core never sees os.Stdout.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// TTY reports whether stdin and stdout are both terminals, so an
	// interactive screen may open. Tests set it explicitly.
	TTY bool
	// Env reads the environment; tests pass their own map.
	Env func(string) string
}

func stdIO() *IO {
	return &IO{
		In:  os.Stdin,
		Out: os.Stdout,
		Err: os.Stderr,
		TTY: term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd())),
		Env: os.Getenv,
	}
}

// Interactive reports whether a command may open the TUI: a terminal on both
// ends and neither --plain nor --json asked for.
func (o *IO) Interactive(g *globalOpts) bool {
	return o.TTY && !g.plain && !g.json
}
