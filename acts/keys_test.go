package acts

import (
	"strings"
	"testing"
)

// The three worked keys of the spec (§5.6, §5.7, Appendix A).
func TestSpecWorkedKeys(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ project, text, key string }{
		{"demo", "Renew the domain", "task-demo-c3d8af57d4"},
		{"demo", "Renew the domain before it expires", "task-demo-37863bc42c"},
		{"demo", "續約網域", "task-demo-544fefce49"},
	} {
		if got := DeriveKey(c.project, c.text); got != c.key {
			t.Errorf("DeriveKey(%q, %q) = %q; want %q", c.project, c.text, got, c.key)
		}
	}
}

func TestNormalise(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"a", "a"},
		{"  a  ", "a"},
		{"a  b", "a b"},
		{"a\tb\nc\r\nd", "a b c d"},
		{"a\u3000b", "a b"}, // IDEOGRAPHIC SPACE is White_Space
		{"\u3000續約\u3000\u3000網域\u3000", "續約 網域"},
		{"a\u00a0b", "a b"}, // NO-BREAK SPACE
		{"a\u2028b\u2029c\u0085d", "a b c d"},
		{"a\u202fb\u205fc\u1680d\u2003e", "a b c d e"},
		{"a\u200bb", "a\u200bb"}, // ZERO WIDTH SPACE is not
		{"a\ufeffb", "a\ufeffb"}, // nor is the BOM
		{"a \u200b b", "a \u200b b"},
	} {
		if got := Normalise(c.in); got != c.want {
			t.Errorf("Normalise(%q) = %q; want %q", c.in, got, c.want)
		}
	}
	// Keys follow normalisation: the same act however it is spaced.
	if DeriveKey("p", "a\u3000b") != DeriveKey("p", " a b ") || DeriveKey("p", "a\u200bb") == DeriveKey("p", "a b") {
		t.Error("DeriveKey must normalise over White_Space only")
	}
}

func TestValidKey(t *testing.T) {
	t.Parallel()
	good := []string{"a", "0", "task-demo-c3d8af57d4", "Q-1.2", "a_b", "A" + strings.Repeat("b", 127)}
	bad := []string{"", "-a", ".a", "_a", "a b", "a:b", "a(b", "a)b", "A" + strings.Repeat("b", 128), "續", "a\u200b", "a/b"}
	for _, k := range good {
		if !ValidKey(k) {
			t.Errorf("ValidKey(%q) = false", k)
		}
	}
	for _, k := range bad {
		if ValidKey(k) {
			t.Errorf("ValidKey(%q) = true", k)
		}
	}
}

func TestKeyedDerivation(t *testing.T) {
	t.Parallel()
	s := []byte("registrar secret")
	k := DeriveKeyedKey(s, "demo", "Renew the domain")
	if !ValidKey(k) || strings.Contains(k, "demo") || len(k) != 22 {
		t.Errorf("keyed key %q must be valid, opaque, 22 characters", k)
	}
	if k != DeriveKeyedKey(s, "demo", "  Renew\u3000the domain ") {
		t.Error("keyed key must be deterministic over normalised text")
	}
	if k == DeriveKeyedKey(s, "demo2", "Renew the domain") || k == DeriveKeyedKey([]byte("other"), "demo", "Renew the domain") {
		t.Error("keyed key must depend on project and secret")
	}
	d, err := NewKeyDeriver("demo", s)
	if err != nil {
		t.Fatal(err)
	}
	c := d.Candidates("Renew the domain")
	if d.Derive("Renew the domain") != k || len(c) != 2 || c[0] != k || c[1] != "task-demo-c3d8af57d4" {
		t.Errorf("keyed deriver: derive %q, candidates %v", d.Derive("Renew the domain"), c)
	}
	plain, _ := NewKeyDeriver("demo", nil)
	if c := plain.Candidates("Renew the domain"); len(c) != 1 || c[0] != "task-demo-c3d8af57d4" {
		t.Errorf("plain candidates %v", c)
	}
}

func TestKeyDeriverProject(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"", "my project", "a:b", strings.Repeat("p", 113), "項目"} {
		if _, err := NewKeyDeriver(p, nil); err == nil {
			t.Errorf("NewKeyDeriver(%q): want an error", p)
		}
	}
	for _, p := range []string{"demo", "a.b_c-d", strings.Repeat("p", 112)} {
		if _, err := NewKeyDeriver(p, nil); err != nil {
			t.Errorf("NewKeyDeriver(%q): %v", p, err)
		}
	}
	// A secret makes any project usable: the project is only MAC input.
	if _, err := NewKeyDeriver("項目 one", []byte("s")); err != nil {
		t.Error(err)
	}
}
