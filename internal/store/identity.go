package store

import (
	"context"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/gitexec"
)

// Machine names this machine (D14): $TP_MACHINE, else the hostname.
func Machine(env func(string) string) string {
	if env == nil {
		env = os.Getenv
	}
	if m := strings.TrimSpace(env("TP_MACHINE")); m != "" {
		return m
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "unknown-machine"
}

// Actor names the person acting (D14): the --actor flag, else $TP_ACTOR,
// else `git config user.name`, else $USER (else the login name).
func Actor(flag string, env func(string) string) string {
	return actor(flag, env, gitUserName)
}

// actor is Actor with the git lookup passed in (tests pass their own).
func actor(flag string, env func(string) string, gitUserName func() string) string {
	if env == nil {
		env = os.Getenv
	}
	if a := strings.TrimSpace(flag); a != "" {
		return a
	}
	if a := strings.TrimSpace(env("TP_ACTOR")); a != "" {
		return a
	}
	if a := gitUserName(); a != "" {
		return a
	}
	if a := strings.TrimSpace(env("USER")); a != "" {
		return a
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}

// gitUserName asks git, briefly; no git, no name.
func gitUserName() string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	g, err := gitexec.Open(ctx, ".")
	if err != nil {
		return ""
	}
	out, err := g.Read(ctx, "config", "user.name")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// By is how an answer or an attestation is signed: "<actor>@<machine>".
func By(actor, machine string) string { return actor + "@" + machine }
