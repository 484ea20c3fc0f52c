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
	w.value(v, "", false)
	return w.out
}

type walker struct{ out []Finding }

func (w *walker) value(v *ojson.Value, path string, quoted bool) {
	switch v.Kind() {
	case ojson.String:
		w.text(v.Text(), path, quoted)
	case ojson.Array:
		items := v.Items()
		for i, it := range items {
			w.value(it, path+"["+strconv.Itoa(i)+"]", quoted)
		}
		w.transcriptArray(items, path)
	case ojson.Object:
		for _, m := range v.Obj().Members() {
			p := joinPath(path, m.Key)
			for _, f := range Credentials(m.Key) {
				f.Where = p
				w.out = append(w.out, f)
			}
			if IsInstructionField(m.Key) {
				w.out = append(w.out, Finding{Class: InstructionField, Rule: "instruction-field", Where: p,
					Excerpt: excerptLine(m.Key)})
			}
			for _, f := range instructions(m.Key, true) {
				f.Where = p
				w.out = append(w.out, f)
			}
			q := quoted || path == "" && (m.Key == "asks" || m.Key == "landing_checks")
			w.value(m.Value, p, q)
		}
	}
}

func (w *walker) text(s, path string, quoted bool) {
	for _, f := range Credentials(s) {
		f.Where = path
		w.out = append(w.out, f)
	}
	w.out = append(w.out, wrappedCredentials(s, path)...)
	if line, ok := transcriptStart(s); ok {
		w.out = append(w.out, Finding{Class: Transcript, Rule: "role-prefix", Where: path, Excerpt: excerptLine(line)})
	}
	for _, f := range instructions(s, quoted) {
		f.Where = path
		w.out = append(w.out, f)
	}
	for _, f := range hiddenInstructions(s, quoted) {
		f.Where = path
		w.out = append(w.out, f)
	}
}

// transcriptArray finds a conversation spread over an array: one turn per
// string ("User: …", "Assistant: …") or one per object in the shape chat
// APIs use ({"role": "user", "content": …}). Either counts as C8 when no
// single element already did.
func (w *walker) transcriptArray(items []*ojson.Value, path string) {
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
		w.out = append(w.out, Finding{Class: Transcript, Rule: rule, Where: path, Excerpt: excerptLine(first)})
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
