package display

import (
	"strings"
	"testing"
)

func TestDisplay(t *testing.T) {
	tests := []struct {
		name, in, line, text string
	}{
		{"plain", "hello", "hello", "hello"},
		{"credential redacted, rest kept", "use sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG to deploy\nthen stop",
			`use sk-a…⟨credential-like (anthropic-key), not shown⟩ to deploy\nthen stop`,
			"use sk-a…⟨credential-like (anthropic-key), not shown⟩ to deploy\nthen stop"},
		{"invisible shown", "run\u200b.sh", "run⟨U+200B⟩.sh", "run⟨U+200B⟩.sh"},
		{"escape shown", "a\x1b[2Jb", `a\x1b[2Jb`, `a\x1b[2Jb`},
		{"both", "ghp_abcdefghijklmnopqrstuvwxyz0123456789\u202e", "ghp_…⟨credential-like (github-token), not shown⟩⟨U+202E⟩", "ghp_…⟨credential-like (github-token), not shown⟩⟨U+202E⟩"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Line(tt.in); got != tt.line {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.line)
			}
			if got := Text(tt.in); got != tt.text {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.text)
			}
		})
	}
}

func TestNoSecretSurvives(t *testing.T) {
	secret := "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
	for _, in := range []string{"sk-ant-api03-" + secret, "x=sk-ant-api03-" + secret + "\n", "Authorization: Bearer " + secret} {
		for _, out := range []string{Line(in), Text(in)} {
			if strings.Contains(out, secret[4:20]) {
				t.Errorf("%q shows the secret: %q", in, out)
			}
		}
	}
}
