//go:build !unix

package howrun

import "os/exec"

// ownGroup: no process groups here (Windows: a job object would be the
// equivalent); the shell alone is ended on a timeout, and what it started
// in the background may outlive it. tp does not run checks on Windows by
// default ("/bin/sh"), so this only keeps the build working there.
func ownGroup(*exec.Cmd) {}

// kill ends the command's process.
func kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
