//go:build windows

package cli

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
)

// execFull runs tp-full as a child with this process's stdio, and returns
// its exit status (D26: Windows has no exec). Ctrl+C reaches the child
// through the console; tp waits for it rather than dying first.
func execFull(path string, argv, env []string) (exitCode, error) {
	c := exec.Command(path, argv[1:]...)
	c.Args = argv
	c.Env = env
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return exitCode(ee.ExitCode()), nil
	}
	if err != nil {
		return exitError, err
	}
	return exitOK, nil
}
