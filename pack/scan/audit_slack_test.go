package scan

import (
	"strings"
	"testing"
)

// TestAuditSlackEveryPrefix: D5 lists Slack tokens as xox[abprs]-; every one
// of the five prefixes fires, and a letter outside the class does not.
func TestAuditSlackEveryPrefix(t *testing.T) {
	body := "-123456789012-1234567890123-" + strings.Repeat("aB3", 8)
	for _, c := range "abprs" {
		tok := "xo" + "x" + string(c) + body
		fs := Credentials("token: " + tok)
		if len(fs) == 0 || fs[0].Rule != "slack-token" {
			t.Errorf("%s…: want a slack-token finding, got %+v", tok[:5], fs)
		}
	}
	for _, c := range "cdz" {
		tok := "xo" + "x" + string(c) + body
		for _, f := range Credentials("token: " + tok) {
			if f.Rule == "slack-token" {
				t.Errorf("%s…: near miss fired slack-token", tok[:5])
			}
		}
	}
}
