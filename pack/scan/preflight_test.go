package scan

import (
	"reflect"
	"testing"
)

func TestVagueAccept(t *testing.T) {
	vague := []string{"", "  ", "done", "Done.", "OK!", "lgtm", "when finished", "When it's done", "looks good",
		"Looks good to me", "完成", "完成。", "好的", "搞定", "yes please", "answer", "ship it", "看着办"}
	clear := []string{"the budget number, confirmed in writing by finance",
		"a URL where the staging build is reachable", "客户确认预算金额", "給出報價單與交付日期",
		"which port the proxy listens on", "the exact version of node on the box"}
	for _, s := range vague {
		if !VagueAccept(s) {
			t.Errorf("VagueAccept(%q) = false", s)
		}
	}
	for _, s := range clear {
		if VagueAccept(s) {
			t.Errorf("VagueAccept(%q) = true", s)
		}
	}
}

func TestAbsolutePaths(t *testing.T) {
	cases := map[string][]string{
		"binary at /opt/acme/bin/tool, config in /srv/acme/.config/x.toml.": {"/opt/acme/bin/tool", "/srv/acme/.config/x.toml"},
		`"path": "C:\Projects\acme\out.exe"`:                                {`C:\Projects\acme\out.exe`},
		"see ~/src/app and ~bob/notes.md":                                   {"~/src/app", "~bob/notes.md"},
		"open file:///srv/acme/a.pdf":                                       {"file:///srv/acme/a.pdf"},
		`share \\fileserver\team\spec.docx`:                                 {`\\fileserver\team\spec.docx`},
		"log in /tmp/build.log and /tmp/build.log again":                    {"/tmp/build.log"},
		"(/var/log/syslog)":                                                 {"/var/log/syslog"},
		"D:/data/x.csv":                                                     {"D:/data/x.csv"},
	}
	for s, want := range cases {
		if got := AbsolutePaths(s); !reflect.DeepEqual(got, want) {
			t.Errorf("AbsolutePaths(%q) = %q, want %q", s, got, want)
		}
	}
	for _, s := range []string{"https://example.com/home/x", "and/or /homework", "src/app/main.go", "./build/out", "ratio 3/4",
		"the API route /api/v1/users", "etc.", "http://localhost:8080/tmp/x"} {
		if got := AbsolutePaths(s); len(got) != 0 {
			t.Errorf("AbsolutePaths(%q) = %q, want none", s, got)
		}
	}
}
