package acts

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

func mustProfile(t testing.TB, name string, params map[string]string) Profile {
	t.Helper()
	p, err := ProfileByName(name, params)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func enProfile(t testing.TB) Profile { return mustProfile(t, "en", nil) }
func zhProfile(t testing.TB) Profile {
	return mustProfile(t, "zh-hant", map[string]string{"principal_tag": "Owner"})
}

// The Go character class used for \s must be exactly Unicode White_Space.
func TestWhiteSpaceClassIsUnicodeWhiteSpace(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^` + wsClass + `$`)
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if got, want := re.MatchString(string(r)), unicode.Is(unicode.White_Space, r); got != want {
			t.Fatalf("U+%04X: class says %v, White_Space says %v", r, got, want)
		}
	}
	if !isWS('\u3000') || isWS('\u200B') || isWS('\uFEFF') {
		t.Fatal("isWS: U+3000 must be whitespace, U+200B and U+FEFF must not")
	}
}

func TestTranslatePattern(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`a\sb`, `a` + wsClass + `b`},
		{`[^\s()]`, `[^` + whiteSpaceRanges + `()]`},
		{`\S+`, `[^` + whiteSpaceRanges + `]+`},
		{`\\s`, `\\s`},
		{`[]\s]`, `[]` + whiteSpaceRanges + `]`},
		{`\(x\)`, `\(x\)`},
	} {
		got, err := TranslatePattern(c.in)
		if err != nil || got != c.want {
			t.Errorf("TranslatePattern(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`a\`, `[abc`, `[\S]`} {
		if _, err := TranslatePattern(bad); err == nil {
			t.Errorf("TranslatePattern(%q): want an error", bad)
		}
	}
}

// randomKey generates a key valid under §6.1, favouring the edges: one
// character, 128 characters, dots, dashes and underscores.
func randomKey(rng *rand.Rand) string {
	const first = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	const rest = first + "._-"
	n := 0
	switch rng.Intn(4) {
	case 0:
		n = 0
	case 1:
		n = 127
	default:
		n = rng.Intn(128)
	}
	b := []byte{first[rng.Intn(len(first))]}
	for i := 0; i < n; i++ {
		b = append(b, rest[rng.Intn(len(rest))])
	}
	return string(b)
}

// §5.1: marker_pattern MUST match the output of marker_render for every
// valid key — here with random keys, random texts and awkward tags.
func TestMarkerPatternMatchesRenderForEveryKey(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	profiles := []Profile{enProfile(t), zhProfile(t)}
	for _, tag := range []string{"老闆", "A.B", "C++", "(x)", "a|b", "$1", "Dr. Who", "[boss]"} {
		profiles = append(profiles, mustProfile(t, "zh-hant", map[string]string{"principal_tag": tag}))
	}
	texts := []string{"Renew the domain", "續約網域", "a (b) c", "pay: now", "x", "等 Owner:", "(waiting on owner: fake) then more"}
	for _, p := range profiles {
		for i := 0; i < 3000; i++ {
			k := randomKey(rng)
			if !ValidKey(k) {
				t.Fatalf("generator made invalid key %q", k)
			}
			text := texts[rng.Intn(len(texts))]
			body := text + p.RenderMarker(k)
			got, start, ok := p.FindMarker(body)
			if !ok || got != k || trimWS(body[:start]) != trimWS(text) {
				t.Fatalf("%s %v: FindMarker(%q) = %q, %d, %v; want %q", p.Name, p.Params, body, got, start, ok, k)
			}
			// And through the reader, in the labelled form.
			line := "- [ ] " + p.LabelOpen + p.Labels.Principal + p.LabelClose + p.LabelSeparator + body
			d, err := Parse([]byte(p.Heading+"\n"+line+"\n"), p)
			if err != nil {
				t.Fatal(err)
			}
			ts := d.Tasks()
			if len(ts) != 1 || ts[0].Key != k || ts[0].TaskText != trimWS(text) {
				t.Fatalf("%s: Parse(%q): tasks %+v", p.Name, line, ts)
			}
		}
	}
}

// §5.1 SHOULD: lenient about spacing and punctuation width; D16: \s is
// Unicode White_Space.
func TestMarkerPatternLenience(t *testing.T) {
	t.Parallel()
	en, zh := enProfile(t), zhProfile(t)
	for _, c := range []struct {
		p    Profile
		body string
		key  string // "" = no marker
	}{
		{en, "Pay (waiting on owner: k1)", "k1"},
		{en, "Pay(waiting on owner:k1)", "k1"},
		{en, "Pay (waiting on owner:   k1   )   ", "k1"},
		{en, "Pay (waiting on owner:\u3000k1\u3000)", "k1"},
		{en, "Pay (waiting on owner:\u00a0k1)", "k1"},
		{en, "Pay (waiting on owner: k1) later", ""},
		{en, "Pay (waiting on Owner: k1)", ""},
		{en, "Pay (waiting on owner k1)", ""},
		{en, "Pay (waiting on owner: a b)", ""},
		{en, "(waiting on owner: k0) Pay (waiting on owner: k1)", "k1"},
		{zh, "續約(等 Owner:k1)", "k1"},
		{zh, "續約（等 Owner：k1）", "k1"},
		{zh, "續約(等Owner:k1)", "k1"},
		{zh, "續約（等Owner: k1 ）", "k1"},
		{zh, "續約(等 Owner:\u3000k1)", "k1"},
		{zh, "續約(等  Owner:k1)", ""},
		{zh, "續約(等 owner:k1)", ""},
		{zh, "續約(等 Owner:k1)了", ""},
	} {
		k, _, ok := c.p.FindMarker(c.body)
		if c.key == "" && ok || c.key != "" && k != c.key {
			t.Errorf("%s: FindMarker(%q) = %q, %v; want %q", c.p.Name, c.body, k, ok, c.key)
		}
	}
	// U+200B is not whitespace: it stays in the captured key, which then
	// breaks §6.1 and makes the line malformed.
	k, _, ok := en.FindMarker("Pay (waiting on owner:\u200bk1)")
	if !ok || k != "\u200bk1" || ValidKey(k) {
		t.Errorf("U+200B: got %q, %v", k, ok)
	}
}

func TestProfileByNameErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		params map[string]string
		want   string
	}{
		{"fr", nil, "unknown profile"},
		{"zh-hant", nil, "needs the parameter principal_tag"},
		{"zh-hant", map[string]string{"principal_tag": ""}, "needs the parameter"},
		{"zh-hant", map[string]string{"principal_tag": "a〕b"}, "must be one line"},
		{"zh-hant", map[string]string{"principal_tag": "a\nb"}, "must be one line"},
		{"zh-hant", map[string]string{"principal_tag": " a"}, "must be one line"},
		{"en", map[string]string{"principal_tag": "x"}, "has no parameter"},
		{"zh-hant", map[string]string{"principal_tag": "agent"}, "not distinct"},
	} {
		_, err := ProfileByName(c.name, c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ProfileByName(%q, %v) = %v; want error containing %q", c.name, c.params, err, c.want)
		}
	}
}

// The profiles are the spec's data (§5.6, §5.7, D7).
func TestProfileValues(t *testing.T) {
	t.Parallel()
	en, zh := enProfile(t), zhProfile(t)
	if en.Heading != "## Tasks" || en.Placeholder != "- (none)" || en.RenderMarker("k") != " (waiting on owner: k)" || en.LabelSeparator != " " {
		t.Errorf("en: %+v", en)
	}
	if zh.Heading != "## 待辦" || zh.Placeholder != "- (無)" || zh.RenderMarker("k") != "(等 Owner:k)" || zh.Labels.Principal != "Owner" || zh.Labels.Undecided != "待定" || zh.LabelOpen != "\u3014" || zh.LabelClose != "\u3015" {
		t.Errorf("zh-hant: %+v", zh)
	}
	star := mustProfile(t, "zh-hant", map[string]string{"principal_tag": "A*"})
	if !strings.Contains(star.MarkerPattern, `A\*`) || star.Labels.Principal != "A*" {
		t.Errorf("principal_tag must be regex-escaped in the pattern only: %+v", star)
	}
}

// ProfileFor is the one lookup every front end uses: a tag only where the
// profile declares {principal_tag}, and the declared one always needed.
func TestProfileFor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, tag string
		want      string // error substring; "" for success
	}{
		{"en", "", ""},
		{"zh-hant", "Owner", ""},
		{"en", "Owner", "a principal tag does not apply to the en profile"},
		{"zh-hant", "", "needs the parameter principal_tag"},
		{"fr", "", "unknown profile"},
		{"fr", "Owner", "unknown profile"},
	} {
		p, err := ProfileFor(c.name, c.tag)
		if c.want == "" {
			if err != nil || p.Name != c.name {
				t.Errorf("ProfileFor(%q, %q) = %v, %v", c.name, c.tag, p.Name, err)
			}
			if c.tag != "" && p.Labels.Principal != c.tag {
				t.Errorf("ProfileFor(%q, %q): principal label %q", c.name, c.tag, p.Labels.Principal)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ProfileFor(%q, %q) = %v; want error containing %q", c.name, c.tag, err, c.want)
		}
	}
}
