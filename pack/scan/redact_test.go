package scan

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	mark := func(rule string) string { return "[" + rule + "]" }
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----"
	tests := []struct{ name, in, want, secret string }{
		{"none", "nothing secret here", "nothing secret here", ""},
		{"anthropic, text after kept", "use sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG then go", "use sk-a…[anthropic-key] then go", "abcdefghijklmnop"},
		{"two", "ghp_abcdefghijklmnopqrstuvwxyz0123456789 and AKIAIOSFODNN7EXAMPLF", "ghp_…[github-token] and AKIA…[aws-access-key]", "abcdefghijkl"},
		{"key block", "key " + key + " done", "key -----BEGIN OPENSSH PRIVATE KEY-----…[private-key] done", "b3BlbnNzaC1"},
		{"key block without end", "key -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA", "key -----BEGIN RSA PRIVATE KEY-----…[private-key]", "MIIEow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Redact(tt.in, mark)
			if got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if tt.secret != "" && strings.Contains(got, tt.secret) {
				t.Errorf("the secret %q is still shown in %q", tt.secret, got)
			}
			if !strings.Contains(tt.in, "-----BEGIN") && len(Credentials(got)) != 0 {
				t.Errorf("Redact(%q) = %q still holds a credential", tt.in, got)
			}
		})
	}
}

func FuzzRedact(f *testing.F) {
	for _, s := range []string{"", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", "-----BEGIN PRIVATE KEY-----x", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Redact(s, func(string) string { return "[x]" })
		if len(Credentials(s)) == 0 && got != s {
			t.Fatalf("Redact changed %q with no credential in it: %q", s, got)
		}
	})
}

// Text with nothing credential-like is read in place: Redact and
// Credentials make no copy of it (issue 20: a plan of 110,000 facts printed
// copied every claim, scope and machine name once more). Text with an
// anchor still finds what it holds.
func TestCleanTextNotCopied(t *testing.T) {
	tests := []struct {
		name, in string
		allocs   float64 // at most
	}{
		{"claim", "Fact 12345 of the shed", 0},
		{"scope", "machine", 0},
		{"long prose", strings.Repeat("The build passes on the CI runner, verified twice. ", 40), 0},
		{"pivots, no credential", "a-b_c:d.e J A z --- ___ ::: ...", 0},
		{"a near miss (anchor, body too short)", "ghp_abc and AKIA12", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if fs := Credentials(tt.in); len(fs) != 0 {
				t.Fatalf("Credentials(%q) = %+v, want none", tt.in, fs)
			}
			if got := testing.AllocsPerRun(20, func() { Redact(tt.in, nil) }); got > tt.allocs {
				t.Errorf("Redact(%q): %.0f allocations, want at most %.0f", tt.in, got, tt.allocs)
			}
			if got := testing.AllocsPerRun(20, func() { Credentials(tt.in) }); got > tt.allocs {
				t.Errorf("Credentials(%q): %.0f allocations, want at most %.0f", tt.in, got, tt.allocs)
			}
		})
	}
	// The same strings with a credential in them are still found.
	for _, tt := range tests {
		s := tt.in + " ghp_abcdefghijklmnopqrstuvwxyz0123456789"
		if fs := Credentials(s); len(fs) != 1 || fs[0].Rule != "github-token" {
			t.Errorf("Credentials(%q) = %+v, want one github-token", s, fs)
		}
	}
}
