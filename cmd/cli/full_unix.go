//go:build !windows

package cli

import "syscall"

// execFull replaces this process with tp-full: the same process id, stdio,
// signals and exit status (D26). It returns only when the exec failed.
func execFull(path string, argv, env []string) (exitCode, error) {
	return exitError, syscall.Exec(path, argv, env)
}
