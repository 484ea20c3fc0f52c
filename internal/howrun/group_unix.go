//go:build unix

package howrun

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// kill ends the command's whole process group.
func kill(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	// Negative pid: the whole group.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
