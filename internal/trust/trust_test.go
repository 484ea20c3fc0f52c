package trust

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

func newKey(t testing.TB) (ssh.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return k, priv
}

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "trust"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDir(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
		err  string
	}{
		{"TP_TRUST_DIR wins", map[string]string{"TP_TRUST_DIR": "/t/trust", "XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/t/trust", ""},
		{"relative TP_TRUST_DIR is refused", map[string]string{"TP_TRUST_DIR": "trust", "HOME": "/h"}, "", "not an absolute path"},
		{"XDG_CONFIG_HOME", map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/tp/trust", ""},
		{"relative XDG_CONFIG_HOME is ignored", map[string]string{"XDG_CONFIG_HOME": "x", "HOME": "/h"}, "/h/.config/tp/trust", ""},
		{"HOME", map[string]string{"HOME": "/h"}, "/h/.config/tp/trust", ""},
		{"nothing", map[string]string{}, "", "no home folder"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Dir(func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Dir = %q, %v; want error with %q", got, err, c.err)
				}
				return
			}
			if err != nil || got != filepath.FromSlash(c.want) {
				t.Fatalf("Dir = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestTrustLookupList(t *testing.T) {
	s := openTemp(t)
	r := s.Senders()
	alice, _ := newKey(t)
	bob, _ := newKey(t)
	if _, ok, err := r.Lookup(alice); ok || err != nil {
		t.Fatalf("empty store: Lookup = %v, %v", ok, err)
	}
	day1 := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	e, err := r.Trust("alice", alice, day1)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "alice" || !e.Since.Equal(day1) || e.Fingerprint != ssh.FingerprintSHA256(alice) || e.Line == 0 {
		t.Fatalf("Trust = %+v", e)
	}
	// Trusting again under the same name keeps the first date.
	if e2, err := r.Trust("alice", alice, day1.Add(48*time.Hour)); err != nil || !e2.Since.Equal(day1) {
		t.Fatalf("Trust again = %+v, %v; want the first date kept", e2, err)
	}
	// Under another name it is refused.
	var known *KnownAsError
	if _, err := r.Trust("mallory", alice, day1); !errors.As(err, &known) || known.Entry.Name != "alice" {
		t.Fatalf("Trust under another name: %v; want KnownAsError naming alice", err)
	}
	if _, err := r.Trust("bob", bob, day1.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	// A new Store over the same folder sees the same keys (persisted).
	s2, err := Open(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	list, err := s2.Senders().List()
	if err != nil || len(list) != 2 || list[0].Name != "alice" || list[1].Name != "bob" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	got, ok, err := s2.Senders().Lookup(bob)
	if err != nil || !ok || got.Name != "bob" || !got.Since.Equal(day1.Add(time.Hour)) {
		t.Fatalf("Lookup(bob) = %+v, %v, %v", got, ok, err)
	}
	// Distrust removes exactly that key.
	if found, err := r.Distrust(alice); !found || err != nil {
		t.Fatalf("Distrust = %v, %v", found, err)
	}
	if _, ok, _ := r.Lookup(alice); ok {
		t.Fatal("alice still trusted after Distrust")
	}
	if _, ok, _ := r.Lookup(bob); !ok {
		t.Fatal("bob lost by Distrust(alice)")
	}
	if found, err := r.Distrust(alice); found || err != nil {
		t.Fatalf("Distrust twice = %v, %v", found, err)
	}
}

// A key trusted for one namespace is not trusted for another: a pack
// sender is not a principal, and a project's principal is not another
// project's.
func TestRingsAreSeparate(t *testing.T) {
	s := openTemp(t)
	k, _ := newKey(t)
	if _, err := s.Senders().Trust("alice", k, time.Now()); err != nil {
		t.Fatal(err)
	}
	p1, err := s.Principals("0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := s.Principals("fedcba9876543210")
	if _, ok, _ := p1.Lookup(k); ok {
		t.Fatal("a sender is trusted as a principal")
	}
	if _, err := p1.Trust("alice", k, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := p2.Lookup(k); ok {
		t.Fatal("a principal of one project is trusted in another")
	}
	// A line copied from one ring into the other keeps its namespace and
	// is not trusted there.
	line, _ := os.ReadFile(s.Senders().Path())
	must(t, os.MkdirAll(filepath.Dir(p2.Path()), 0o700))
	if err := os.WriteFile(p2.Path(), line, 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err := p2.Load()
	if err != nil || len(keys.Entries) != 0 || len(keys.Problems) != 1 {
		t.Fatalf("sender line in a principals ring: %+v, %v; want untrusted and reported", keys, err)
	}
}

func TestProjectIDs(t *testing.T) {
	s := openTemp(t)
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"0123456789abcdef", true},
		{"p-2026-abcdefgh", true},
		{"short", false},
		{"../../etc", false},
		{"ABCDEFGHIJ", false},
		{"abc/defghij", false},
		{"", false},
		{strings.Repeat("a", 65), false},
	} {
		_, err := s.Principals(c.id)
		if (err == nil) != c.ok {
			t.Errorf("Principals(%q): %v; want ok=%v", c.id, err, c.ok)
		}
	}
}

func TestBadNames(t *testing.T) {
	r := openTemp(t).Senders()
	k, _ := newKey(t)
	for _, name := range []string{"", "two words", "a,b", `q"`, "x#y", "*", "line\nbreak"} {
		if _, err := r.Trust(name, k, time.Now()); err == nil {
			t.Errorf("Trust(%q) accepted", name)
		}
	}
	if _, err := os.Lstat(r.Path()); !os.IsNotExist(err) {
		t.Fatalf("a refused name wrote the ring: %v", err)
	}
}

// The attacker's tests: whoever can plant a link where a part of the store
// should be gets a refusal, not a store read from (or written to) the
// place the link names.
func TestLinksAreRefused(t *testing.T) {
	k, _ := newKey(t)
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, store, elsewhere string)
	}{
		{"store folder", func(t *testing.T, store, elsewhere string) {
			must(t, os.Symlink(elsewhere, store))
		}},
		{"senders file", func(t *testing.T, store, elsewhere string) {
			must(t, os.MkdirAll(store, 0o700))
			must(t, os.Symlink(filepath.Join(elsewhere, "senders"), filepath.Join(store, "senders")))
		}},
		{"projects folder", func(t *testing.T, store, elsewhere string) {
			must(t, os.MkdirAll(store, 0o700))
			must(t, os.Symlink(elsewhere, filepath.Join(store, "projects")))
		}},
		{"project folder", func(t *testing.T, store, elsewhere string) {
			must(t, os.MkdirAll(filepath.Join(store, "projects"), 0o700))
			must(t, os.Symlink(elsewhere, filepath.Join(store, "projects", "0123456789abcdef")))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			store, elsewhere := filepath.Join(root, "trust"), filepath.Join(root, "elsewhere")
			must(t, os.MkdirAll(filepath.Join(elsewhere, "projects", "0123456789abcdef"), 0o700))
			// elsewhere holds a ring that trusts the attacker's key.
			planted := []byte("mallory namespaces=\"taskpack\" " + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k))) + "\n")
			must(t, os.WriteFile(filepath.Join(elsewhere, "senders"), planted, 0o600))
			must(t, os.WriteFile(filepath.Join(elsewhere, "principals"), []byte(strings.ReplaceAll(string(planted), "taskpack", "tp-acts")), 0o600))
			must(t, os.WriteFile(filepath.Join(elsewhere, "projects", "0123456789abcdef", "principals"), []byte(strings.ReplaceAll(string(planted), "taskpack", "tp-acts")), 0o600))
			c.plant(t, store, elsewhere)
			s, err := Open(store)
			if err != nil {
				if !strings.Contains(err.Error(), "symbolic link") {
					t.Fatalf("Open: %v; want the link named", err)
				}
				return
			}
			p, _ := s.Principals("0123456789abcdef")
			for _, r := range []*Ring{s.Senders(), p} {
				if e, ok, err := r.Lookup(k); ok {
					t.Fatalf("%s: the planted key is trusted through a link: %+v", r.Path(), e)
				} else if err != nil && !strings.Contains(err.Error(), "symbolic link") {
					t.Fatalf("%s: %v; want the link named", r.Path(), err)
				}
				other, _ := newKey(t)
				if _, err := r.Trust("bob", other, time.Now()); err == nil {
					if data, _ := os.ReadFile(filepath.Join(elsewhere, "senders")); strings.Contains(string(data), "bob") {
						t.Fatalf("Trust wrote through a link")
					}
					if data, _ := os.ReadFile(filepath.Join(elsewhere, "projects", "0123456789abcdef", "principals")); strings.Contains(string(data), "bob") {
						t.Fatalf("Trust wrote through a link")
					}
				}
			}
		})
	}
}

func TestSizeLimit(t *testing.T) {
	s := openTemp(t)
	r := s.Senders()
	k, _ := newKey(t)
	must(t, os.MkdirAll(s.Path(), 0o700))
	big := []byte(strings.Repeat("# padding\n", MaxFile/10+1))
	must(t, os.WriteFile(r.Path(), big, 0o600))
	if _, _, err := r.Lookup(k); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("Lookup of an oversize ring: %v; want it reported, not read", err)
	}
	if _, err := r.Trust("alice", k, time.Now()); err == nil {
		t.Fatal("Trust over an oversize ring succeeded")
	}
	if fi, _ := os.Stat(r.Path()); fi.Size() != int64(len(big)) {
		t.Fatal("an oversize ring was rewritten")
	}
	// A FIFO in place of the ring is refused at once, not waited on.
	must(t, os.Remove(r.Path()))
	if err := mkfifo(r.Path()); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, _, err := r.Lookup(k); err == nil {
		t.Fatal("a FIFO was read as a ring")
	}
}

func TestUntrustedLines(t *testing.T) {
	k, _ := newKey(t)
	ak := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
	for _, c := range []struct {
		name, line string
		trusted    bool
	}{
		{"tp's line", `alice namespaces="taskpack" ` + ak + ` since=2026-11-03T10:00:00Z`, true},
		{"no namespaces option: any namespace", `alice ` + ak, false},
		{"another namespace", `alice namespaces="git" ` + ak, false},
		{"two names", `alice,bob namespaces="taskpack" ` + ak, false},
		{"cert-authority", `alice cert-authority,namespaces="taskpack" ` + ak, false},
		{"valid-before", `alice valid-before="20300101",namespaces="taskpack" ` + ak, false},
		{"garbage", `alice namespaces="taskpack" ssh-ed25519 AAAA`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			keys := parseKeys([]byte(c.line+"\n"), SenderNamespace, "senders")
			_, ok := keys.Find(k)
			if ok != c.trusted {
				t.Fatalf("trusted = %v, want %v (problems %q)", ok, c.trusted, keys.Problems)
			}
			if !c.trusted && len(keys.Problems) == 0 {
				t.Fatal("an untrusted line was not reported")
			}
		})
	}
}

// Every write goes through the lock: many trusts at once lose none.
func TestConcurrentTrust(t *testing.T) {
	s := openTemp(t)
	var keys []ssh.PublicKey
	for range 16 {
		k, _ := newKey(t)
		keys = append(keys, k)
	}
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// a fresh Store each, as separate processes would have
			st, err := Open(s.Path())
			if err == nil {
				_, err = st.Senders().Trust("k"+string(rune('a'+i)), k, time.Now())
			}
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	list, err := s.Senders().List()
	if err != nil || len(list) != len(keys) {
		t.Fatalf("after %d concurrent trusts: %d keys, %v", len(keys), len(list), err)
	}
}

func TestModes(t *testing.T) {
	s := openTemp(t)
	k, _ := newKey(t)
	p, _ := s.Principals("0123456789abcdef")
	if _, err := p.Trust("alice", k, time.Now()); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		s.Path():                            0o700 | os.ModeDir,
		filepath.Join(s.Path(), "projects"): 0o700 | os.ModeDir,
		p.Path():                            0o600,
	} {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode() != want {
			t.Errorf("%s: mode %v, %v; want %v", path, fi.Mode(), err, want)
		}
	}
}

// ssh-keygen -Y verify reads a ring as an allowed_signers file.
func TestSSHKeygenReadsRing(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("no ssh-keygen")
	}
	s := openTemp(t)
	k, priv := newKey(t)
	other, _ := newKey(t)
	if _, err := s.Senders().Trust("bob", other, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Senders().Trust("alice", k, time.Now()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	keyPath := filepath.Join(dir, "id")
	must(t, os.WriteFile(keyPath, pem.EncodeToMemory(block), 0o600))
	msg := filepath.Join(dir, "msg")
	must(t, os.WriteFile(msg, []byte("a pack's content identity\n"), 0o600))
	if out, err := exec.Command("ssh-keygen", "-Y", "sign", "-f", keyPath, "-n", SenderNamespace, msg).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	verify := func(identity, ns string) error {
		c := exec.Command("ssh-keygen", "-Y", "verify", "-f", s.Senders().Path(), "-I", identity, "-n", ns, "-s", msg+".sig")
		c.Stdin, _ = os.Open(msg)
		out, err := c.CombinedOutput()
		if err != nil {
			return errors.New(string(out))
		}
		return nil
	}
	if err := verify("alice", SenderNamespace); err != nil {
		t.Fatalf("ssh-keygen -Y verify against the ring: %v", err)
	}
	if err := verify("bob", SenderNamespace); err == nil {
		t.Fatal("ssh-keygen verified alice's signature as bob")
	}
	if err := verify("alice", PrincipalNamespace); err == nil {
		t.Fatal("ssh-keygen accepted the ring's key for another namespace")
	}
}

func FuzzParseKeys(f *testing.F) {
	k, _ := newKey(f)
	ak := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
	f.Add([]byte(`alice namespaces="taskpack" ` + ak + " since=2026-11-03T10:00:00Z\n"))
	f.Add([]byte("# comment\n\nbob " + ak + "\n"))
	f.Add([]byte(`"a b" namespaces="taskpack,tp-acts" ` + ak))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys := parseKeys(data, SenderNamespace, "senders")
		for _, e := range keys.Entries {
			if e.Key == nil || e.Name == "" || e.Line < 1 {
				t.Fatalf("entry without key, name or line: %+v", e)
			}
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
