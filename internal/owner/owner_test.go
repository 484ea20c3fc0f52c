package owner

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

func TestGone(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	host, _, _ := strings.Cut(Tag(), "-")
	dead := host + "-" + strconv.Itoa(cmd.Process.Pid)
	for _, c := range []struct {
		tag  string
		gone bool
	}{
		{dead, true},
		{Tag(), false}, // this process
		{"0badf00d-" + strconv.Itoa(cmd.Process.Pid), false}, // another host
		{host + "-x", false},
		{host + "-0", false},
		{"", false},
	} {
		if got := Gone(c.tag); got != c.gone {
			t.Errorf("Gone(%q) = %v, want %v", c.tag, got, c.gone)
		}
	}
}

func TestFind(t *testing.T) {
	for _, c := range []struct{ name, marker, want string }{
		{".tmp-0123abcd-42-ffff", ".tmp-", "0123abcd-42"},
		{".TP-A.files.landing-0123abcd-42-ffff", ".landing-", "0123abcd-42"},
		{".tmp-0123456789abcdef", ".tmp-", ""},
		{".tmp-0123abcd-x-ffff", ".tmp-", ""},
		{".x.landing-aaaa", ".landing-", ""},
		{"plain", ".tmp-", ""},
	} {
		if got := Find(c.name, c.marker); got != c.want {
			t.Errorf("Find(%q, %q) = %q, want %q", c.name, c.marker, got, c.want)
		}
	}
	if tag := Tag(); Find(".tmp-"+tag+"-abcd", ".tmp-") != tag {
		t.Errorf("Find does not read back Tag() %q", tag)
	}
}
