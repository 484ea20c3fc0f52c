package pack

import (
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
