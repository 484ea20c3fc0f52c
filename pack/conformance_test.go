package pack

import (
	"bytes"

	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

var testLuggage = []file{
	{"outline.md", []byte("# Outline\n\n1. numbers\n")},
	{"figures/chart.bin", []byte{0, 1, 2, 3, 0xff, 0xfe, 'x'}},
}

func bagOf(t testing.TB, obj *ojson.Value) []byte {
	return rawBag(t, ojson.Canonical(obj), testLuggage, nil)
}

func flatOf(t testing.TB, obj *ojson.Value) []byte {
	var atts []*ojson.Value
	for _, l := range testLuggage {
		atts = append(atts, att(l.name, l.data))
	}
	return rawFlat(t, obj, atts...)
}

// mutate returns a copy of the reference object changed by f.
func mutate(t testing.TB, f func(o *ojson.Value)) *ojson.Value {
	o := refObject(t).Clone()
	f(o)
	return o
}

const fakeGitHubToken = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

func fixTagManifest(es *[]file) {
	var tm strings.Builder
	for _, f := range *es {
		if f.name == "bagit.txt" || f.name == "bag-info.txt" || f.name == "manifest-sha256.txt" {
			tm.WriteString(hexSum(f.data) + "  " + f.name + "\n")
		}
	}
	for i, f := range *es {
		if f.name == "tagmanifest-sha256.txt" {
			(*es)[i].data = []byte(tm.String())
		}
	}
}

// fixManifests rewrites the manifest and bag-info to vouch for every data/
// entry, then the tag manifest.
func fixManifests(es *[]file) {
	var m strings.Builder
	n, octets := 0, 0
	for _, f := range *es {
		if strings.HasPrefix(f.name, "data/") {
			m.WriteString(hexSum(f.data) + "  " + f.name + "\n")
			n++
			octets += len(f.data)
		}
	}
	for i, f := range *es {
		switch f.name {
		case "manifest-sha256.txt":
			(*es)[i].data = []byte(m.String())
		case "bag-info.txt":
			(*es)[i].data = []byte("Payload-Oxum: " + itoa(octets) + "." + itoa(n) + "\n")
		}
	}
	fixTagManifest(es)
}

// TestRoundTripSmallWrites: the streaming round trip neither deadlocks nor
// misjudges when the bytes arrive in many tiny writes.
func TestRoundTripSmallWrites(t *testing.T) {
	data := bytes.Repeat([]byte("abc\"\\ é\n"), 400_000) // ~3.6 MB, text
	for _, step := range []int{1, 7, 4096} {
		rt := newRoundTrip(nil)
		for i := 0; i < len(data); i += step {
			rt.Write(data[i:min(i+step, len(data))])
			if step == 1 && i > 1<<21 {
				rt.Write(data[i+1:])
				break
			}
		}
		rt.close()
		if err := rt.result(); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
	}
	// And a file that is not what came back is caught.
	pt := newPipeTrip(true)
	pt.Write(bytes.Repeat([]byte{1, 2, 3}, 1<<20))
	pt.close()
	if pt.err != nil {
		t.Fatal(pt.err)
	}
	cw := &compareWriter{orig: make(chan []byte, 1)}
	cw.orig <- []byte("abc")
	close(cw.orig)
	if _, err := cw.Write([]byte("abd")); err == nil {
		t.Fatal("a difference went unnoticed")
	}
}
