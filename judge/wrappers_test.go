package judge

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

func gzipOf(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func utf16Of(s string, big, bom bool) []byte {
	var out []byte
	u := utf16.Encode([]rune(s))
	if bom {
		u = append([]uint16{0xFEFF}, u...)
	}
	for _, c := range u {
		if big {
			out = binary.BigEndian.AppendUint16(out, c)
		} else {
			out = binary.LittleEndian.AppendUint16(out, c)
		}
	}
	return out
}

func wrap76(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + "\n")
		s = s[76:]
	}
	return b.String() + s + "\n"
}

// TestCredentialsInWrappers (issue 18, D5): a private key or a token
// hidden in a wrapper — gzip, base64 (a kube-config's client-key-data),
// UTF-16 with or without a byte order mark, split across two luggage files,
// or used as a file name — is refused by the writer and fails C7, in both
// encodings, with the same table. The near misses (ordinary gzip'd text,
// base64 of an image, UTF-16 text, a public key) pass both.
func TestCredentialsInWrappers(t *testing.T) {
	t.Parallel()
	key := packtest.FakePrivateKey()
	b64 := base64.StdEncoding.EncodeToString
	half := strings.Index(key, "\n") + 1 + 3*71 // the header and three body lines
	r := rand.New(rand.NewSource(7))
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 6000)...)
	r.Read(png[16:])
	var prose strings.Builder
	for i := 0; prose.Len() < 200<<10; i++ {
		fmt.Fprintf(&prose, "week %d: %d orders, %d returns, reviewed by the team on day %d\n", i, r.Intn(900), r.Intn(40), r.Intn(7))
	}
	var zeros bytes.Buffer
	zeros.Write(make([]byte, 16<<20))
	zeros.WriteString(key)
	dash5 := strings.Repeat("-", 5)
	pub := dash5 + "BEGIN PUBLIC KEY" + dash5 + "\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n" + dash5 + "END PUBLIC KEY" + dash5 + "\n"
	for _, c := range []struct {
		name  string
		files []file
		bad   string // a rule C7 and the writer must name; "" = must pass
	}{
		{"gzip'd key", []file{{Name: "id.pem.gz", Data: gzipOf(t, []byte(key))}}, "private-key"},
		{"gzip'd key in a tarball-like name", []file{{Name: "backup.tgz", Data: gzipOf(t, []byte("ustar padding\n"+key))}}, "private-key"},
		{"gzip bomb hiding a key", []file{{Name: "logs.gz", Data: gzipOf(t, zeros.Bytes())}}, "gzip-over-limit"},
		{"kube-config client-key-data", []file{{Name: "kubeconfig", Data: []byte("users:\n- name: admin\n  user:\n    client-key-data: " + b64([]byte(key)) + "\n")}}, "private-key"},
		{"base64 wrapped at 76", []file{{Name: "key.b64", Data: []byte(wrap76(b64([]byte(key))))}}, "private-key"},
		{"base64 of a gzip'd key", []file{{Name: "blob.txt", Data: []byte("payload=" + b64(gzipOf(t, []byte(key))) + "\n")}}, "private-key"},
		{"base64'd token", []file{{Name: "env.txt", Data: []byte("GH=" + b64([]byte("token "+packtest.FakeGitHubToken)) + "\n")}}, "github-token"},
		{"UTF-16LE with BOM", []file{{Name: "key.txt", Data: utf16Of(key, false, true)}}, "private-key"},
		{"UTF-16LE no BOM", []file{{Name: "key.txt", Data: utf16Of(key, false, false)}}, "private-key"},
		{"UTF-16BE with BOM", []file{{Name: "key.txt", Data: utf16Of(key, true, true)}}, "private-key"},
		{"UTF-16BE no BOM token", []file{{Name: "t.txt", Data: utf16Of("GH_TOKEN="+packtest.FakeGitHubToken+"\r\n", true, false)}}, "github-token"},
		{"split: header in one file, footer in the next", []file{{Name: "a.txt", Data: []byte(key[:half])}, {Name: "b.txt", Data: []byte(key[half:])}}, "private-key-split"},
		{"split inside the header and footer lines", []file{
			{Name: "a.txt", Data: []byte(key[:20])}, {Name: "b.txt", Data: []byte(key[20 : len(key)-12])}, {Name: "c.txt", Data: []byte(key[len(key)-12:])}}, "private-key"},
		{"a token as a luggage name", []file{{Name: packtest.FakeGitHubToken + ".txt", Data: []byte("hello\n")}}, "github-token"},

		{"gzip'd prose (near miss)", []file{{Name: "report.txt.gz", Data: gzipOf(t, []byte(prose.String()))}}, ""},
		{"base64 of an image (near miss)", []file{{Name: "page.html", Data: []byte(`<img src="data:image/png;base64,` + b64(png) + `">` + "\n")}}, ""},
		{"UTF-16 text (near miss)", []file{{Name: "notes.txt", Data: utf16Of("Quarterly numbers\r\nRevenue: 12,400\r\nnext: review with Ana\r\n", false, true)}}, ""},
		{"UTF-16BE text no BOM (near miss)", []file{{Name: "notes.txt", Data: utf16Of(strings.Repeat("plain words only, nothing secret here\n", 40), true, false)}}, ""},
		{"a public key, plain and base64'd (near miss)", []file{{Name: "pub.pem", Data: []byte(pub)}, {Name: "pub.b64", Data: []byte(b64([]byte(pub)))}}, ""},
		{"gzip'd public key (near miss)", []file{{Name: "pub.pem.gz", Data: gzipOf(t, []byte(pub))}}, ""},
	} {
		at := c.files[0].Name // the file C7 must name
		if c.name == "split inside the header and footer lines" {
			at = "b.txt" // the body's first bytes
		}
		t.Run(c.name, func(t *testing.T) {
			var atts []*ojson.Value
			for _, f := range c.files {
				atts = append(atts, packtest.Att(f.Name, f.Data))
			}
			for _, path := range []string{
				packtest.WriteTemp(t, "w.taskpack", packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), c.files, nil)),
				packtest.WriteTemp(t, "w.taskpack.json", packtest.RawFlat(t, packtest.RefObject(t), atts...)),
			} {
				rep, err := Conformance(path, pack.Options{})
				if err != nil {
					t.Fatal(err)
				}
				c7 := checkOf(rep, "C7")
				if c.bad == "" {
					if !rep.Conformant {
						t.Fatalf("%s: near miss judged non-conformant: %+v", filepath.Base(path), failing(rep))
					}
					continue
				}
				if c7.Pass || !strings.Contains(c7.Reason, "("+c.bad+")") || !strings.Contains(c7.Reason, "data/files/"+at) {
					t.Fatalf("%s: C7 = %+v, want a failure naming data/files/%s and (%s)", filepath.Base(path), c7, at, c.bad)
				}
			}
			var src pack.Source
			src.Object = packtest.RefObject(t)
			for _, f := range c.files {
				data := f.Data
				src.Luggage = append(src.Luggage, pack.LuggageSource{Name: f.Name, Size: int64(len(data)),
					Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }})
			}
			err := pack.Write(filepath.Join(t.TempDir(), "w.taskpack"), src, pack.EncodingBag, pack.WriteOptions{})
			if c.bad == "" {
				if err != nil {
					t.Fatalf("writer refused a near miss: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), pack.RuleCredential) || !strings.Contains(err.Error(), c.bad) {
				t.Fatalf("writer: %v, want a refusal (%s, %s)", err, pack.RuleCredential, c.bad)
			}
		})
	}
}

// TestWrappedCredentialsInTheObject (issue 18, D5): a base64'd key pasted
// into a string of the pack object (a kube-config in current_state) fails
// C7 and is refused, as in luggage; base64 of an image there passes.
func TestWrappedCredentialsInTheObject(t *testing.T) {
	t.Parallel()
	b64 := base64.StdEncoding.EncodeToString
	img := make([]byte, 300)
	rand.New(rand.NewSource(2)).Read(img)
	for _, c := range []struct {
		name, text string
		bad        bool
	}{
		{"kube-config", "users:\n- user:\n    client-key-data: " + b64([]byte(packtest.FakePrivateKey())), true},
		{"UTF-16 token", string(utf16Of("token "+packtest.FakeGitHubToken, false, false)), true},
		{"an image (near miss)", "logo: data:image/png;base64," + b64(img), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			obj := packtest.Mutate(t, func(o *ojson.Value) { o.Get("passport").Set("current_state", ojson.NewString(c.text)) })
			rep, err := Conformance(packtest.WriteTemp(t, "o.taskpack", packtest.BagOf(t, obj)), pack.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c7 := checkOf(rep, "C7"); c7.Pass == c.bad || c.bad && !strings.Contains(c7.Reason, "passport.current_state, inside ") {
				t.Fatalf("C7 = %+v", c7)
			}
			err = pack.Write(filepath.Join(t.TempDir(), "w.taskpack"), pack.Source{Object: obj}, pack.EncodingBag, pack.WriteOptions{})
			if refused := err != nil && strings.Contains(err.Error(), pack.RuleCredential); refused != c.bad {
				t.Fatalf("write: %v (refusal expected: %v)", err, c.bad)
			}
		})
	}
}
