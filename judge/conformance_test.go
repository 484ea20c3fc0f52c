package judge

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestConformanceChecksGoRed gives every check of §6 at least one pack that
// must fail it (a suite whose checks cannot go red proves nothing). fail is
// the exact set of checks that must fail; everything else must pass.
func TestConformanceChecksGoRed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		file string
		b    func(t testing.TB) []byte
		fail []string
	}{
		{"control bag", "x.taskpack", func(t testing.TB) []byte { return packtest.BagOf(t, packtest.RefObject(t)) }, nil},
		{"control flat", "x.taskpack.json", func(t testing.TB) []byte { return packtest.FlatOf(t, packtest.RefObject(t)) }, nil},

		{"C0 non-canonical passport.json", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, append(ojson.Compact(packtest.RefObject(t)), '\n'), packtest.TestLuggage, nil)
		}, []string{"C0", "C9"}},
		{"C0 flat attachment without sha256", "x.taskpack.json", func(t testing.TB) []byte {
			a := packtest.Att("a.txt", []byte("hello"))
			a.Obj().Delete("sha256")
			return packtest.RawFlat(t, packtest.RefObject(t), a)
		}, []string{"C0"}},
		{"C0 ask without id or status", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.FlatOf(t, packtest.Mutate(t, func(o *ojson.Value) {
				o.Get("asks").Items()[0].Obj().Delete("id")
				o.Get("asks").Items()[1].Obj().Delete("status")
			}))
		}, []string{"C0"}},
		{"C0 check without id or required", "x.taskpack", func(t testing.TB) []byte {
			return packtest.BagOf(t, packtest.Mutate(t, func(o *ojson.Value) {
				o.Get("landing_checks").Items()[0].Obj().Delete("required")
				o.Get("landing_checks").Items()[1].Obj().Delete("id")
			}))
		}, []string{"C0"}},
		{"C0 BOM", "x.taskpack.json", func(t testing.TB) []byte {
			return append([]byte("\xEF\xBB\xBF"), packtest.FlatOf(t, packtest.RefObject(t))...)
		}, []string{"C0"}},
		{"C0 machine fact verified:false but not sealed", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.FlatOf(t, packtest.Mutate(t, func(o *ojson.Value) {
				o.Get("passport").Get("facts").Items()[2].Obj().Delete("needs_reverify")
			}))
		}, []string{"C0", "C9"}},

		{"C1 manifest digest wrong", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) {
				for i, e := range *es {
					if strings.HasPrefix(e.Name, "data/files/outline") {
						(*es)[i].Data = []byte("# Outline, changed after packing\n")
					}
				}
			})
		}, []string{"C1"}},
		{"C1 payload file not in the manifest", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) {
				*es = append(*es, file{Name: "data/files/stowaway.txt", Data: []byte("nobody vouched for me")})
			})
		}, []string{"C1"}},
		{"C1 no bagit.txt", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) { *es = (*es)[1:] })
		}, []string{"C1"}},
		{"C1 no tagmanifest", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) {
				*es = slices.DeleteFunc(*es, func(f file) bool { return f.Name == "tagmanifest-sha256.txt" })
			})
		}, []string{"C1"}},
		{"C1 Payload-Oxum wrong", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) {
				for i, e := range *es {
					if e.Name == "bag-info.txt" {
						(*es)[i].Data = []byte("Payload-Oxum: 1.1\n")
					}
				}
				// keep the tag manifest honest so only the oxum is wrong
				packtest.FixTagManifest(es)
			})
		}, []string{"C1"}},
		{"C1 flat sha256 wrong", "x.taskpack.json", func(t testing.TB) []byte {
			a := packtest.Att("a.txt", []byte("hello"))
			a.Set("sha256", ojson.NewString(packtest.HexSum([]byte("HELLO"))))
			return packtest.RawFlat(t, packtest.RefObject(t), a)
		}, []string{"C1"}},
		{"C1 flat bytes wrong", "x.taskpack.json", func(t testing.TB) []byte {
			a := packtest.Att("a.txt", []byte("hello"))
			a.Set("bytes", ojson.NewInt(6))
			return packtest.RawFlat(t, packtest.RefObject(t), a)
		}, []string{"C1"}},

		{"C2 malformed passport.json", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, []byte(`{"spec": "task-passport-bag/0.1", "kind": `), packtest.TestLuggage, nil)
		}, []string{"C0", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"}},
		{"C2 unknown spec", "x.taskpack", func(t testing.TB) []byte {
			return packtest.BagOf(t, packtest.Mutate(t, func(o *ojson.Value) { o.Set("spec", ojson.NewString("task-passport-bag/9.9")) }))
		}, []string{"C2"}},
		{"C2 unknown taskpack version", "x.taskpack.json", func(t testing.TB) []byte {
			return bytes.Replace(packtest.FlatOf(t, packtest.RefObject(t)), []byte(`"taskpack": "0.1"`), []byte(`"taskpack": "0.2"`), 1)
		}, []string{"C2"}},

		{"C3 kind memo", "x.taskpack", func(t testing.TB) []byte {
			return packtest.BagOf(t, packtest.Mutate(t, func(o *ojson.Value) { o.Set("kind", ojson.NewString("memo")) }))
		}, []string{"C3"}},
		{"C4 no root_id", "x.taskpack", func(t testing.TB) []byte {
			return packtest.BagOf(t, packtest.Mutate(t, func(o *ojson.Value) { o.Get("lineage").Obj().Delete("root_id") }))
		}, []string{"C4"}},
		{"C4 from_version not a number", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.FlatOf(t, packtest.Mutate(t, func(o *ojson.Value) { o.Get("lineage").Set("from_version", ojson.NewString("six")) }))
		}, []string{"C4"}},
		{"C5 ask without accept", "x.taskpack", func(t testing.TB) []byte {
			return packtest.BagOf(t, packtest.Mutate(t, func(o *ojson.Value) { o.Get("asks").Items()[1].Set("accept", ojson.NewString("  ")) }))
		}, []string{"C5"}},
		{"C6 machine fact wears a check", "x.taskpack", func(t testing.TB) []byte {
			return packtest.BagOf(t, packtest.Mutate(t, func(o *ojson.Value) {
				f := o.Get("passport").Get("facts").Items()[2]
				f.Set("verified", ojson.NewBool(true))
				f.Set("needs_reverify", ojson.NewBool(false))
			}))
		}, []string{"C0", "C6", "C9"}},
		{"C6 unscoped fact wears a check", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.FlatOf(t, packtest.Mutate(t, func(o *ojson.Value) {
				f := o.Get("passport").Get("facts").Items()[3]
				f.Set("verified", ojson.NewBool(true))
			}))
		}, []string{"C0", "C6", "C9"}},
		{"C7 credential in the pack object", "x.taskpack", func(t testing.TB) []byte {
			return packtest.BagOf(t, packtest.Mutate(t, func(o *ojson.Value) { o.Set("note", ojson.NewString("token "+packtest.FakeGitHubToken)) }))
		}, []string{"C7"}},
		{"C7 credential deep in luggage", "x.taskpack", func(t testing.TB) []byte {
			big := bytes.Repeat([]byte("plain text line\n"), 1<<17) // 2 MiB
			big = append(big, []byte("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n")...)
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), []file{{Name: "notes.txt", Data: big}}, nil)
		}, []string{"C7"}},
		{"C7 credential in flat luggage", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.RawFlat(t, packtest.RefObject(t), packtest.Att("env.txt", []byte("GITHUB_TOKEN="+packtest.FakeGitHubToken+"\n")))
		}, []string{"C7"}},
		{"C8 transcript", "x.taskpack", func(t testing.TB) []byte {
			return packtest.BagOf(t, packtest.Mutate(t, func(o *ojson.Value) {
				o.Get("passport").Set("current_state", ojson.NewString("User: can you fix the deck?\nAssistant: Sure, done."))
			}))
		}, []string{"C8"}},
		{"C9 payload that is not luggage", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) {
				*es = append(*es, file{Name: "data/extra.txt", Data: []byte("x")})
				packtest.FixManifests(es)
			})
		}, []string{"C0", "C9"}},
		{"C10 no packed_at", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.FlatOf(t, packtest.Mutate(t, func(o *ojson.Value) { o.Obj().Delete("packed_at") }))
		}, []string{"C10"}},
	}
	covered := map[string]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := packtest.WriteTemp(t, c.file, c.b(t))
			r, err := Conformance(path, pack.Options{})
			if err != nil {
				t.Fatalf("Conformance: %v", err)
			}
			got := failing(r)
			if !reflect.DeepEqual(got, c.fail) && !(len(got) == 0 && len(c.fail) == 0) {
				b, _ := json.MarshalIndent(r, "", "  ")
				t.Fatalf("failing checks %v, want %v\n%s", got, c.fail, b)
			}
			if r.Conformant != (len(c.fail) == 0) || r.Total != 11 || r.Passed != 11-len(c.fail) {
				t.Fatalf("summary wrong: %+v", r)
			}
			for _, id := range c.fail {
				if checkOf(r, id).Reason == "" {
					t.Errorf("%s fails without a reason", id)
				}
			}
			// Strict Open refuses what needs a repair (C0) and what D10 and
			// §2 refuse (C1–C3); content problems (C4–C10) are the judge's
			// and the lander's warnings, not read errors.
			wantErr := slices.ContainsFunc(c.fail, func(id string) bool { return id <= "C3" && len(id) == 2 })
			if p, err := pack.Open(path, pack.Options{Strict: true}); (err != nil) != wantErr {
				t.Errorf("strict Open error = %v, want an error: %v", err, wantErr)
			} else if p != nil {
				p.Close()
			}
		})
		for _, id := range c.fail {
			covered[id] = true
		}
	}
	for _, q := range Checks {
		if !covered[q.ID] {
			t.Errorf("no case makes %s go red", q.ID)
		}
	}
}

func TestConformanceReferenceFixtures(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../pack/testdata/ref/*.taskpack*")
	if len(files) != 4 {
		t.Fatalf("want the 4 reference fixtures, found %v", files)
	}
	for _, f := range files {
		r, err := Conformance(f, pack.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Conformant {
			t.Errorf("%s: failing %v", f, failing(r))
		}
	}
}

func TestConformanceNotAPack(t *testing.T) {
	t.Parallel()
	for name, b := range map[string][]byte{
		"text":        []byte("hello, world\n"),
		"json array":  []byte(`[1, 2, 3]`),
		"json object": []byte(`{"hello": "world"}`),
		"empty":       nil,
		"zip, no bag": packtest.ZipOf(t, []file{{Name: "readme.txt", Data: []byte("hi")}}),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Conformance(packtest.WriteTemp(t, "f", b), pack.Options{})
			wantRule(t, err, pack.RuleNotAPack)
		})
	}
}

// A hostile ZIP is a pack that fails C1 with the D10 rule, not "not a pack".
func TestConformanceHostileIsNotConformant(t *testing.T) {
	t.Parallel()
	b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) {
		*es = append(*es, file{Name: "data/files/../../evil", Data: []byte("x")})
	})
	r, err := Conformance(packtest.WriteTemp(t, "h.taskpack", b), pack.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := checkOf(r, "C1"); c.Pass || !strings.Contains(c.Reason, pack.RulePathTraversal) {
		t.Fatalf("C1 = %+v", c)
	}
	if r.Conformant {
		t.Fatal("hostile pack judged conformant")
	}
}

// TestC9LargeLuggage: C9 judges luggage past the flat writer's 1 MiB limit
// and past the in-memory round trip, through both encodings, including a
// file that reads as text until its last byte.
func TestC9LargeLuggage(t *testing.T) {
	t.Parallel()
	rnd := make([]byte, 3<<20)
	for i := range rnd {
		rnd[i] = byte(i*7919>>3) ^ byte(i>>11)
	}
	text := bytes.Repeat([]byte("héllo \"wörld\" \t tab\n"), 200_000)
	lateBinary := append(append([]byte{}, text...), 0)
	cut := append(append([]byte{}, text...), 0xE4, 0xB8) // a character cut at the end
	b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), []file{{Name: "r.bin", Data: rnd}, {Name: "t.txt", Data: text}, {Name: "late.bin", Data: lateBinary}, {Name: "cut.bin", Data: cut}}, nil)
	r, err := Conformance(packtest.WriteTemp(t, "big.taskpack", b), pack.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := checkOf(r, "C9"); !c.Pass {
		t.Fatalf("C9: %s", c.Reason)
	}
	if !r.Conformant {
		t.Fatalf("failing %v", failing(r))
	}
}

// TestExamplesConformant: the packs shipped in examples/ (the README's first
// command runs on one) are conformant.
func TestExamplesConformant(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../examples/*.taskpack*")
	if len(files) < 6 {
		t.Fatalf("examples/ holds %d packs, want 6", len(files))
	}
	for _, f := range files {
		r, err := Conformance(f, pack.Options{})
		if err != nil || !r.Conformant {
			t.Errorf("%s: %v %v", f, err, failing(r))
		}
	}
}
