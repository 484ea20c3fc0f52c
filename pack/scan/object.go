package scan

import (
	"strconv"
	"strings"

	"github.com/tp-dev/tp/internal/ojson"
)

// Object scans a pack object (spec §3): every key and every string value, for
// credentials (C7), transcripts (C8), instruction fields (§4.5.1) and
// instruction-like sentences (§4.5.2, D13). Findings come in document order;
// Where is the JSON path of the value ("passport.facts[2].claim") or of the
// member whose key matched.
//
// Instruction-like imperatives ("you must run", "请执行") are not reported
// inside asks[] and landing_checks[]: an ask's what and accept are data
// consumed by a trusted instruction (§4.5.3) and a check's how is a command
// by definition, shown as the sender's (§4.4). The injection shapes ("ignore
// previous instructions", "curl … | sh") are reported everywhere.
func Object(v *ojson.Value) []Finding {
	var w walker
	w.value(v, false)
	return w.out
}

// walker walks a pack object. The JSON path of where it is stands as a
// stack of steps and is only made into a string for a finding: a passport of
// 110,000 facts has half a million strings and hardly any finding (issue 20).
// A key's own findings are kept per key: the same few keys repeat in every
// fact.
type walker struct {
	out   []Finding
	steps []step
	keys  map[string][]Finding
}

// step is one step of a JSON path: a member's key, or an array index.
type step struct {
	key   string
	index int // -1: a member
}

func (w *walker) push(s step) { w.steps = append(w.steps, s) }
func (w *walker) pop()        { w.steps = w.steps[:len(w.steps)-1] }

// path is the JSON path of the current value ("passport.facts[2].claim").
func (w *walker) path() string {
	p := ""
	for _, s := range w.steps {
		if s.index >= 0 {
			p += "[" + strconv.Itoa(s.index) + "]"
		} else {
			p = joinPath(p, s.key)
		}
	}
	return p
}

func (w *walker) add(fs []Finding) {
	if len(fs) == 0 {
		return
	}
	p := w.path()
	for _, f := range fs {
		f.Where = p
		w.out = append(w.out, f)
	}
}

// keyFindings is what a member's key alone gives: credentials, an
// instruction field's name, an injection shape (Where left empty).
func (w *walker) keyFindings(key string) []Finding {
	if fs, ok := w.keys[key]; ok {
		return fs
	}
	fs := Credentials(key)
	if IsInstructionField(key) {
		fs = append(fs, Finding{Class: InstructionField, Rule: "instruction-field", Excerpt: excerptLine(key)})
	}
	fs = append(fs, instructions(key, true)...)
	if w.keys == nil {
		w.keys = map[string][]Finding{}
	}
	if len(w.keys) < maxKeysRemembered {
		w.keys[key] = fs
	}
	return fs
}

// maxKeysRemembered bounds the keys keyFindings keeps: an object of a
// million distinct keys is scanned key by key, not kept twice.
const maxKeysRemembered = 4096

func (w *walker) value(v *ojson.Value, quoted bool) {
	switch v.Kind() {
	case ojson.String:
		w.text(v.Text(), quoted)
	case ojson.Array:
		items := v.Items()
		for i, it := range items {
			w.push(step{index: i})
			w.value(it, quoted)
			w.pop()
		}
		w.transcriptArray(items)
	case ojson.Object:
		top := len(w.steps) == 0
		for _, m := range v.Obj().Members() {
			w.push(step{key: m.Key, index: -1})
			w.add(w.keyFindings(m.Key))
			q := quoted || top && (m.Key == "asks" || m.Key == "landing_checks")
			w.value(m.Value, q)
			w.pop()
		}
	}
}

func (w *walker) text(s string, quoted bool) {
	w.add(Credentials(s))
	if mayWrap(s) {
		// Their Where says where inside the value (a layer and an offset).
		w.out = append(w.out, wrappedCredentials(s, w.path())...)
	}
	if line, ok := transcriptStart(s); ok {
		w.add([]Finding{{Class: Transcript, Rule: "role-prefix", Excerpt: excerptLine(line)}})
	}
	fs := instructions(s, quoted)
	hidden := hiddenInstructions(s, quoted, fs)
	w.add(fs)
	w.add(hidden)
}

// transcriptArray finds a conversation spread over an array: one turn per
// string ("User: …", "Assistant: …") or one per object in the shape chat
// APIs use ({"role": "user", "content": …}). Either counts as C8 when no
// single element already did.
func (w *walker) transcriptArray(items []*ojson.Value) {
	if len(items) < 2 {
		return
	}
	var human, ai, any bool
	first := ""
	for _, it := range items {
		var sd side
		var line string
		switch it.Kind() {
		case ojson.String:
			s := it.Text()
			if IsTranscript(s) {
				return // already reported on the element
			}
			line = s
			if i := strings.IndexAny(s, "\r\n"); i >= 0 {
				line = s[:i]
			}
			sd = lineSide(line)
		case ojson.Object:
			role := messageRole(it)
			if role == "" {
				continue
			}
			if strings.EqualFold(role, "model") { // Gemini's name for the assistant
				sd = sideAI
			} else {
				sd = roleSide(role)
			}
			line = role + ": " + messageText(it)
		}
		switch sd {
		case sideHuman:
			human = true
		case sideAI:
			ai = true
		case sideOther:
		default:
			continue
		}
		if !any {
			first, any = line, true
		}
	}
	if human && ai {
		rule := "role-prefix"
		if items[0].Kind() == ojson.Object || items[len(items)-1].Kind() == ojson.Object {
			rule = "role-messages"
		}
		w.add([]Finding{{Class: Transcript, Rule: rule, Excerpt: excerptLine(first)}})
	}
}

// messageRole is the role of a chat message object: role, speaker, sender,
// or author (a string, or an object with a role), and only when the object
// also carries the message itself.
func messageRole(v *ojson.Value) string {
	if messageText(v) == "" {
		return ""
	}
	for _, k := range []string{"role", "speaker", "sender", "author"} {
		r := v.Get(k)
		if s, ok := r.Str(); ok {
			return s
		}
		if s, ok := r.Get("role").Str(); ok {
			return s
		}
	}
	return ""
}

func messageText(v *ojson.Value) string {
	for _, k := range []string{"content", "text", "parts", "message", "value"} {
		c := v.Get(k)
		switch c.Kind() {
		case ojson.String:
			if c.Text() != "" {
				return c.Text()
			}
		case ojson.Array, ojson.Object:
			return "…"
		}
	}
	return ""
}

// excerptLine is one line of text, at most excerptRunes long, with
// credentials redacted.
func excerptLine(s string) string {
	s = redactCredentials(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	n := 0
	for i := range s {
		if n == excerptRunes {
			s = s[:i] + "…"
			break
		}
		n++
	}
	return s
}

const excerptRunes = 80

// joinPath appends a key to a JSON path: dotted when the key is an
// identifier, ["…"] otherwise, so every path names one place unambiguously.
func joinPath(path, key string) string {
	if isIdent(key) {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func isIdent(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
