package scan

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math/rand"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func gz(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func u16(s string, big bool) []byte {
	var out []byte
	for i := 0; i < len(s); i++ {
		if big {
			out = binary.BigEndian.AppendUint16(out, uint16(s[i]))
		} else {
			out = binary.LittleEndian.AppendUint16(out, uint16(s[i]))
		}
	}
	return out
}

func scanAll(name string, data []byte) []Finding {
	s := NewLuggageScanner(name)
	s.Write(data)
	return s.Findings()
}

func rulesWhere(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule+" "+f.Where)
	}
	return out
}

var testKey = "-----" + "BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACBOmWBfd1CU5dSRpahcMRPbgNUvHC5ufaB1Y6rwq3hIBgAAAJgd0HlAHdB5\n-----" + "END OPENSSH PRIVATE KEY-----\n"

// Every wrapper, alone and nested, names where the credential sits: the
// file, the offset of the wrapped data, and each layer.
func TestWrappedCredentials(t *testing.T) {
	tok := "ghp_" + alnum(36)
	b64 := base64.StdEncoding.EncodeToString
	for _, c := range []struct {
		name string
		data []byte
		want []string
	}{
		{"gzip", gz(t, []byte("x\n"+testKey)), []string{"private-key data/files/f@0, inside gzip at byte 2"}},
		{"base64 after a label", []byte("client-key-data: " + b64([]byte(testKey))), []string{"private-key data/files/f@17, inside base64"}},
		{"base64 of gzip", []byte("v=" + b64(gz(t, []byte(tok)))), []string{"github-token data/files/f@2, inside base64, inside gzip at byte 0"}},
		{"UTF-16LE", append([]byte{0xff, 0xfe}, u16("token: "+tok, false)...), []string{"github-token data/files/f@16, inside UTF-16"}},
		{"UTF-16BE after binary", append([]byte{1, 2, 3}, u16("token "+tok+"\n", true)...), []string{"github-token data/files/f@15, inside UTF-16"}},
		{"gzip of UTF-16", gz(t, u16(tok+" ", false)), []string{"github-token data/files/f@0, inside gzip at byte 0, inside UTF-16"}},
		{"a key's header alone", []byte(testKey[:40]), []string{"private-key data/files/f@0"}},
		{"a key's end alone", []byte(testKey[len(testKey)-40:]), []string{"private-key data/files/f@6"}},
		{"a body without header or end", []byte("x\n" + testKey[35:100]), []string{"private-key data/files/f@3"}},
		{"a whole key is one finding", []byte(testKey + testKey), []string{"private-key data/files/f@0", "private-key data/files/f@" + strconv.Itoa(len(testKey))}},
		{"short base64 runs are not decoded", []byte(b64([]byte("ghp_")) + " " + b64([]byte(tok))[:20]), nil},
		{"gzip'd text", gz(t, []byte(strings.Repeat("nothing to see here, only words\n", 100))), nil},
		{"UTF-16 text", u16(strings.Repeat("plain words ", 50), false), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := rulesWhere(scanAll("f", c.data)); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// Public keys, certificates and SSH public key lines begin otherwise than
// a private key's body: none of them fires, plain or base64'd; the bodies
// of the private key formats each fire.
func TestKeyBodyNearMisses(t *testing.T) {
	for _, s := range []string{
		"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0",
		"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEJmFqVb4jV2PcWSmsNIl9Z3q8Ox1ZRRw9kQ8Xn4vAJmFqVb4jV2PcWSmsNIl9Z3q8Ox1Z",
		"MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQL",
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE6ZYF93UJTl1JGlqFwxE9uA1S8cLm59oHVjqvCreEgG ana@laptop",
		"MCowBQYDK2VwAyEATpdgX3dQlOXUkaWoXDET24DVLxwubn2gdWOq8Kt4SAY=",
	} {
		for _, in := range []string{s, base64.StdEncoding.EncodeToString([]byte(s))} {
			if fs := scanAll("f", []byte(in)); len(fs) > 0 {
				t.Errorf("%q: %+v", in, fs)
			}
		}
	}
	for _, s := range []string{
		"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeL",
		"MIICXAIBAAKBgQDOt0XIYQGiabcdefgh",
		"MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC",
		"MC4CAQAwBQYDK2VwBCIEIFqMfYDSI0mX9/rfOrmsa/OiPcW3",
		"MHcCAQEEIJDnH1wXWsr2abcdefghijkl",
		"MIGkAgEBBDDGUGNDaumMabcdefghijkl",
		"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg",
	} {
		if fs := scanAll("f", []byte("\n"+s+"\n")); len(fs) != 1 || fs[0].Rule != "private-key" {
			t.Errorf("%q: %+v", s, fs)
		}
	}
}

// SplitKeys pairs a header that never ends with an end that never began,
// in two files; within one file, or two keys each whole, it pairs nothing.
func TestSplitKeys(t *testing.T) {
	half := strings.Index(testKey, "\n") + 20
	var a, b, whole []Finding
	a = scanAll("a.txt", []byte(testKey[:half]))
	b = scanAll("b.txt", []byte(testKey[half:]))
	whole = scanAll("c.txt", []byte(testKey))
	got := SplitKeys(slices.Concat(a, whole, b))
	if len(got) != 1 || got[0].Rule != RuleSplitKey || got[0].Where != "data/files/a.txt and data/files/b.txt" {
		t.Fatalf("split: %+v", got)
	}
	if got := SplitKeys(slices.Concat(whole, whole)); len(got) != 0 {
		t.Fatalf("whole keys paired: %+v", got)
	}
	if got := SplitKeys(slices.Concat(a, a)); len(got) != 0 {
		t.Fatalf("two headers paired: %+v", got)
	}
}

// A gzip bomb — a gigabyte of zeros as concatenated gzip members — costs
// the scan a bounded amount of memory, stops at the ratio cap, and is a
// finding (the rest cannot be vouched for); ordinary gzip'd text within
// the ratio is read to its end.
func TestGzipBombBounded(t *testing.T) {
	member := gz(t, make([]byte, 16<<20))
	var bomb []byte
	for range 64 {
		bomb = append(bomb, member...)
	}
	bomb = append(bomb, gz(t, []byte(testKey))...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fs := scanAll("bomb.gz", bomb)
	runtime.ReadMemStats(&after)
	if got := rulesWhere(fs); !reflect.DeepEqual(got, []string{RuleUnscannable + " data/files/bomb.gz@0, inside gzip"}) {
		t.Fatalf("findings %q", got)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Fatalf("the scan allocated %d bytes for a %d-byte bomb", alloc, len(bomb))
	}
	r := rand.New(rand.NewSource(3))
	var text bytes.Buffer
	for i := 0; text.Len() < 3<<20; i++ {
		fmt.Fprintf(&text, "week %d: %d orders, %d returns, reviewed on day %d\n", i, r.Intn(900), r.Intn(40), r.Intn(7))
	}
	text.WriteString(testKey)
	if got := rulesWhere(scanAll("t.gz", gz(t, text.Bytes()))); len(got) != 1 || !strings.HasPrefix(got[0], "private-key data/files/t.gz@0, inside gzip at byte ") {
		t.Fatalf("a key at the end of 3 MiB of gzip'd text: %q", got)
	}
}

// Findings inside wrappers do not depend on how the data was cut into
// writes.
func TestWrappedSplitAnywhere(t *testing.T) {
	tok := "ghp_" + alnum(36)
	for _, data := range [][]byte{
		gz(t, []byte("a "+tok)),
		[]byte("k: " + base64.StdEncoding.EncodeToString([]byte(testKey))),
		append([]byte("\x00x"), u16("t="+tok, true)...),
		[]byte(testKey[30:]),
	} {
		want := scanAll("f", data)
		if len(want) == 0 {
			t.Fatalf("nothing found in %q", data)
		}
		for cut := 0; cut <= len(data); cut++ {
			s := NewLuggageScanner("f")
			s.Write(data[:cut])
			for _, c := range data[cut:] {
				s.Write([]byte{c})
			}
			if got := s.Findings(); !reflect.DeepEqual(got, want) {
				t.Fatalf("cut at %d: got %+v, want %+v", cut, got, want)
			}
		}
	}
}

// oneLevel are the rules found exactly one wrapper down.
func oneLevel(fs []Finding, layer string) []string {
	var out []string
	for _, f := range fs {
		if i := strings.Index(f.Where, ", inside "); i >= 0 && strings.HasPrefix(f.Where[i:], ", inside "+layer) && !strings.Contains(f.Where[i+9:], ", inside ") {
			out = append(out, f.Rule)
		}
	}
	return out
}

func ownRules(s string) []string {
	var out []string
	for _, f := range Credentials(s) {
		out = append(out, f.Rule)
	}
	return out
}

// The fuzz targets of the three decoders: whatever the bytes, the layer
// one level down finds exactly what a plain scan of the bytes it wraps
// finds, and cutting the input into writes changes nothing.
func fuzzLayer(f *testing.F, layer string, wrap func(d []byte) ([]byte, bool)) {
	for _, s := range credSeeds() {
		f.Add([]byte(s), uint16(len(s)/2))
	}
	f.Add([]byte(testKey), uint16(9))
	f.Fuzz(func(t *testing.T, d []byte, cut uint16) {
		data, ok := wrap(d)
		whole := scanAll("f", data)
		s := NewLuggageScanner("f")
		c := int(cut) % (len(data) + 1)
		s.Write(data[:c])
		s.Write(data[c:])
		if got := s.Findings(); !reflect.DeepEqual(got, whole) {
			t.Fatalf("cut at %d: %+v, whole %+v", c, got, whole)
		}
		if !ok {
			return
		}
		got, want := oneLevel(whole, layer), ownRules(string(d))
		if len(want) > MaxLuggageFindings {
			return
		}
		if !slices.Equal(got, want) {
			t.Fatalf("inside %s: %q, the plain scan %q", layer, got, want)
		}
	})
}

func FuzzWrapBase64(f *testing.F) {
	fuzzLayer(f, "base64", func(d []byte) ([]byte, bool) {
		e := base64.StdEncoding.EncodeToString(d)
		return []byte(e), len(e) >= minBase64Run
	})
}

func FuzzWrapUTF16(f *testing.F) {
	fuzzLayer(f, "UTF-16", func(d []byte) ([]byte, bool) {
		for _, c := range d {
			if !asciiText(c) {
				return d, false // not ASCII: the raw bytes, fuzzed as they are
			}
		}
		return u16(string(d), len(d)%2 == 1), len(d) >= minUTF16Run
	})
}

func FuzzWrapGzip(f *testing.F) {
	f.Add(append(append([]byte{}, gzipMagic...), "garbage"...), uint16(3))
	fuzzLayer(f, "gzip", func(d []byte) ([]byte, bool) {
		if bytes.HasPrefix(d, gzipMagic) {
			return d, false // raw gzip-looking input: must not hang or panic
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(d)
		zw.Close()
		return buf.Bytes(), true
	})
}
