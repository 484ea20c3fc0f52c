package acts

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// ProfileDef is a profile as the spec tables write it (§5.1): the
// parameters with their own parameters (such as {principal_tag}) still in
// place. conformance/profiles.json holds the same values.
type ProfileDef struct {
	Name           string
	Heading        string
	LabelOpen      string
	LabelClose     string
	Labels         Labels
	LabelSeparator string
	Placeholder    string
	MarkerRender   string // contains {key}
	MarkerPattern  string // spec regex dialect; \s means Unicode White_Space
	Params         []string

	// markerHint is a literal every marker_pattern match contains: lines
	// without it skip the regular expression (a speed-up only).
	markerHint string
}

// Labels are the label texts of the three assignee classes (§5.1).
type Labels struct {
	Principal string `json:"principal"`
	Agent     string `json:"agent"`
	Undecided string `json:"undecided"`
}

// Assignee classes (§1).
const (
	ClassPrincipal = "principal"
	ClassAgent     = "agent"
	ClassUndecided = "undecided"
)

// The built-in profiles (§5.6, §5.7 with the marker patterns of D7).
var profileDefs = []ProfileDef{
	{
		Name:           "en",
		Heading:        "## Tasks",
		LabelOpen:      "[",
		LabelClose:     "]",
		Labels:         Labels{Principal: "owner", Agent: "agent", Undecided: "undecided"},
		LabelSeparator: " ",
		Placeholder:    "- (none)",
		MarkerRender:   " (waiting on owner: {key})",
		MarkerPattern:  `\(waiting on owner:\s*([^\s()]+)\s*\)\s*$`,
		markerHint:     "waiting on owner:",
	},
	{
		Name:           "zh-hant",
		Heading:        "## 待辦",
		LabelOpen:      "〔",
		LabelClose:     "〕",
		Labels:         Labels{Principal: "{principal_tag}", Agent: "agent", Undecided: "待定"},
		LabelSeparator: "",
		Placeholder:    "- (無)",
		MarkerRender:   "(等 {principal_tag}:{key})",
		MarkerPattern:  `[(（]等 ?{principal_tag}[:：]\s*([^()（）]+?)\s*[)）]\s*$`,
		Params:         []string{"principal_tag"},
		markerHint:     "等",
	},
}

// ProfileDefs returns the built-in profile definitions, in a fixed order.
func ProfileDefs() []ProfileDef { return append([]ProfileDef(nil), profileDefs...) }

// ProfileNames lists the names of the built-in profiles.
func ProfileNames() []string {
	var names []string
	for _, d := range profileDefs {
		names = append(names, d.Name)
	}
	return names
}

// Profile is a profile with its parameters filled in and its marker pattern
// compiled: everything the reader and the registrar need.
type Profile struct {
	Name           string
	Heading        string
	LabelOpen      string
	LabelClose     string
	Labels         Labels
	LabelSeparator string
	Placeholder    string
	MarkerRender   string // {key} still in place; parameters filled in
	MarkerPattern  string // parameters filled in (regex-escaped), spec dialect
	Params         map[string]string

	markerHint string
	marker     *regexp.Regexp // MarkerPattern translated to Go (D16)
	groupHead  *regexp.Regexp // §5.3 group heading
	labelledRe *regexp.Regexp // §5.3 labelled item
}

// ProfileByName returns the built-in profile name with params filled in.
// Every parameter the profile declares must be given, non-empty and on one
// line; unknown parameters are refused so a typo does not pass silently.
func ProfileByName(name string, params map[string]string) (Profile, error) {
	for _, d := range profileDefs {
		if d.Name == name {
			return d.Instantiate(params)
		}
	}
	return Profile{}, fmt.Errorf("acts: unknown profile %q (known: %s)", name, strings.Join(ProfileNames(), ", "))
}

// ProfileFor is the profile a front end names: a built-in profile's name
// and, for a profile that declares {principal_tag} (zh-hant), the
// principal's tag. A tag given to a profile without that parameter is an
// error, so a mistaken flag or argument does not pass silently. The command
// line, the inbox and the MCP server all look profiles up here.
func ProfileFor(name, principalTag string) (Profile, error) {
	params := map[string]string{}
	for _, d := range profileDefs {
		if d.Name != name {
			continue
		}
		if principalTag != "" {
			if !containsString(d.Params, "principal_tag") {
				return Profile{}, fmt.Errorf("acts: a principal tag does not apply to the %s profile", name)
			}
			params["principal_tag"] = principalTag
		}
	}
	return ProfileByName(name, params)
}

// Instantiate fills the definition's parameters in and compiles its patterns.
func (d ProfileDef) Instantiate(params map[string]string) (Profile, error) {
	for k := range params {
		if !containsString(d.Params, k) {
			return Profile{}, fmt.Errorf("acts: profile %s has no parameter %q", d.Name, k)
		}
	}
	lit := map[string]string{}
	esc := map[string]string{}
	for _, k := range d.Params {
		v, ok := params[k]
		if !ok || v == "" {
			return Profile{}, fmt.Errorf("acts: profile %s needs the parameter %s (e.g. --principal-tag)", d.Name, k)
		}
		if strings.ContainsAny(v, "\r\n") || strings.Contains(v, d.LabelClose) || strings.TrimFunc(v, isWS) != v {
			return Profile{}, fmt.Errorf("acts: profile %s: %s %q must be one line, without surrounding whitespace or %q", d.Name, k, v, d.LabelClose)
		}
		lit["{"+k+"}"] = v
		esc["{"+k+"}"] = regexp.QuoteMeta(v)
	}
	fill := func(s string, m map[string]string) string {
		for k, v := range m {
			s = strings.ReplaceAll(s, k, v)
		}
		return s
	}
	p := Profile{
		Name:           d.Name,
		Heading:        fill(d.Heading, lit),
		LabelOpen:      d.LabelOpen,
		LabelClose:     d.LabelClose,
		Labels:         Labels{Principal: fill(d.Labels.Principal, lit), Agent: fill(d.Labels.Agent, lit), Undecided: fill(d.Labels.Undecided, lit)},
		LabelSeparator: d.LabelSeparator,
		Placeholder:    fill(d.Placeholder, lit),
		MarkerRender:   fill(d.MarkerRender, lit),
		MarkerPattern:  fill(d.MarkerPattern, esc),
		Params:         map[string]string{},
		markerHint:     d.markerHint,
	}
	for k, v := range params {
		p.Params[k] = v
	}
	if err := p.compile(); err != nil {
		return Profile{}, err
	}
	return p, nil
}

// compile checks the §5.1 constraints and builds the regular expressions.
func (p *Profile) compile() error {
	if !strings.HasPrefix(p.Heading, "## ") {
		return fmt.Errorf("acts: profile %s: heading %q is not a level-2 ATX heading (§5.1)", p.Name, p.Heading)
	}
	ls := []string{p.Labels.Principal, p.Labels.Agent, p.Labels.Undecided}
	for i, l := range ls {
		if l == "" || strings.Contains(l, p.LabelClose) {
			return fmt.Errorf("acts: profile %s: label %q is empty or contains %q (§5.1)", p.Name, l, p.LabelClose)
		}
		for _, m := range ls[:i] {
			if m == l {
				return fmt.Errorf("acts: profile %s: labels are not distinct (§5.1)", p.Name)
			}
		}
	}
	if strings.HasPrefix(p.Placeholder, "- [") {
		return fmt.Errorf("acts: profile %s: placeholder %q begins with \"- [\" (§5.1)", p.Name, p.Placeholder)
	}
	if !strings.Contains(p.MarkerRender, "{key}") {
		return fmt.Errorf("acts: profile %s: marker_render has no {key} (§5.1)", p.Name)
	}
	goPat, err := TranslatePattern(p.MarkerPattern)
	if err != nil {
		return fmt.Errorf("acts: profile %s: marker_pattern: %w", p.Name, err)
	}
	if p.marker, err = regexp.Compile(goPat); err != nil {
		return fmt.Errorf("acts: profile %s: marker_pattern: %w", p.Name, err)
	}
	if p.marker.NumSubexp() < 1 {
		return fmt.Errorf("acts: profile %s: marker_pattern has no group 1 (§5.1)", p.Name)
	}
	o, c := regexp.QuoteMeta(p.LabelOpen), regexp.QuoteMeta(p.LabelClose)
	ws := wsClass
	// ^#{3,4}\s*O([^C]+)C\s*$ — C is one or more runes; [^C] only works for
	// one rune, so for longer closes the lazy form is the same language.
	notC := "[^" + c + "]+"
	if len([]rune(p.LabelClose)) != 1 {
		notC = ".+?"
	}
	p.groupHead = regexp.MustCompile(`^#{3,4}` + ws + `*` + o + `(` + notC + `)` + c + ws + `*$`)
	alts := make([]string, len(ls))
	for i, l := range ls {
		alts[i] = regexp.QuoteMeta(l)
	}
	// ^- \[ \] O(L)C\s*(.+)$
	p.labelledRe = regexp.MustCompile(`^- \[ \] ` + o + `(` + strings.Join(alts, "|") + `)` + c + ws + `*(.+)$`)
	return nil
}

// RenderMarker returns the key marker for key (§5.4).
func (p Profile) RenderMarker(key string) string {
	return strings.ReplaceAll(p.MarkerRender, "{key}", key)
}

// FindMarker searches body with marker_pattern (§5.3). It returns the key
// (group 1) and the byte offset where the match starts, or ok=false.
func (p Profile) FindMarker(body string) (key string, start int, ok bool) {
	if p.markerHint != "" && !strings.Contains(body, p.markerHint) {
		return "", 0, false
	}
	m := p.marker.FindStringSubmatchIndex(body)
	if m == nil || m[2] < 0 {
		return "", 0, false
	}
	return body[m[2]:m[3]], m[0], true
}

// ClassOfLabel returns the assignee class whose label is l, or "".
func (p Profile) ClassOfLabel(l string) string {
	switch l {
	case p.Labels.Principal:
		return ClassPrincipal
	case p.Labels.Agent:
		return ClassAgent
	case p.Labels.Undecided:
		return ClassUndecided
	}
	return ""
}

// LabelOf returns the label of an assignee class.
func (p Profile) LabelOf(class string) string {
	switch class {
	case ClassPrincipal:
		return p.Labels.Principal
	case ClassAgent:
		return p.Labels.Agent
	case ClassUndecided:
		return p.Labels.Undecided
	}
	return ""
}

// labelList is the profile's labels as a person would type them, for messages.
func (p Profile) labelList() string {
	var out []string
	for _, l := range []string{p.Labels.Principal, p.Labels.Agent, p.Labels.Undecided} {
		out = append(out, p.LabelOpen+l+p.LabelClose)
	}
	return strings.Join(out, ", ")
}

// whiteSpaceRanges is Unicode White_Space=yes (the §6.1 set) written as the
// body of a Go character class. Generated from unicode.White_Space and
// checked against it by a test.
const whiteSpaceRanges = `\t-\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}`

const wsClass = `[` + whiteSpaceRanges + `]`

// isWS reports whether r is Unicode White_Space (§6.1, D16).
func isWS(r rune) bool { return unicode.Is(unicode.White_Space, r) }

// TranslatePattern rewrites a pattern in the spec's regex dialect (the
// common subset of PCRE, Python re and ECMAScript) into Go syntax, giving \s
// and \S their Unicode White_Space meaning (D16). Everything else is kept.
func TranslatePattern(pat string) (string, error) {
	var b strings.Builder
	inClass := false
	classStart := false // just after [ or [^: a ] here is literal
	rs := []rune(pat)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\':
			if i+1 >= len(rs) {
				return "", fmt.Errorf("trailing backslash in %q", pat)
			}
			n := rs[i+1]
			i++
			classStart = false
			switch n {
			case 's':
				if inClass {
					b.WriteString(whiteSpaceRanges)
				} else {
					b.WriteString(wsClass)
				}
			case 'S':
				if inClass {
					return "", fmt.Errorf("\\S inside a character class is not supported in %q", pat)
				}
				b.WriteString(`[^` + whiteSpaceRanges + `]`)
			default:
				b.WriteRune('\\')
				b.WriteRune(n)
			}
		case r == '[' && !inClass:
			inClass, classStart = true, true
			b.WriteRune(r)
			if i+1 < len(rs) && rs[i+1] == '^' {
				b.WriteRune('^')
				i++
			}
		case r == ']' && inClass && !classStart:
			inClass = false
			b.WriteRune(r)
		default:
			classStart = false
			b.WriteRune(r)
		}
	}
	if inClass {
		return "", fmt.Errorf("unterminated character class in %q", pat)
	}
	return b.String(), nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sortedKeys returns the keys of m in ascending order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
