package acts

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// ValidKey reports whether key satisfies §6.1,
// ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$: no whitespace, parentheses or colons,
// so a key is safe inside every marker syntax and ids can use ':' (§7).
// Written out by hand because it runs on every keyed line.
func ValidKey(key string) bool {
	if len(key) == 0 || len(key) > 128 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// Normalise replaces every maximal run of Unicode whitespace (White_Space,
// including U+3000, not U+200B) with one U+0020 and trims the ends (§6.1).
func Normalise(text string) string {
	// Fast path: already normal (the common case for stamped lines).
	prevWS := true
	normal := true
	for _, r := range text {
		ws := isWS(r)
		if ws && (prevWS || r != ' ') {
			normal = false
			break
		}
		prevWS = ws
	}
	if normal && !prevWS {
		return text
	}
	return strings.Join(strings.FieldsFunc(text, isWS), " ")
}

// trimWS removes surrounding Unicode whitespace.
func trimWS(s string) string { return strings.TrimFunc(s, isWS) }

// trimRightWS removes trailing Unicode whitespace.
func trimRightWS(s string) string { return strings.TrimRightFunc(s, isWS) }

// DeriveKey is the §6.2 recipe:
// "task-" + project + "-" + hex(sha1(utf8(normalise(text))))[0:10].
// It does not check that the result satisfies §6.1; see [KeyDeriver].
func DeriveKey(project, text string) string {
	sum := sha1.Sum([]byte(Normalise(text)))
	return "task-" + project + "-" + hex.EncodeToString(sum[:])[:10]
}

// DeriveKeyedKey is the keyed derivation of §10: the key reveals neither
// the project nor the text to anyone without the registrar's secret.
// key = "k-" + hex(HMAC-SHA256(secret, utf8(project) 0x00 utf8(normalise(text))))[0:20].
// The project is inside the MAC, so keys stay unique across projects (§6.1).
func DeriveKeyedKey(secret []byte, project, text string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(project))
	m.Write([]byte{0})
	m.Write([]byte(Normalise(text)))
	return "k-" + hex.EncodeToString(m.Sum(nil))[:20]
}

// KeyDeriver derives keys for one project (§6). With a secret it derives
// keyed keys and still recognises keys derived by the plain §6.2 recipe, so
// switching the secret on never re-raises acts that are still open (§6.1
// "MUST keep recognising the old keys until they are resolved").
type KeyDeriver struct {
	Project string
	Secret  []byte // nil: the §6.2 recipe
}

// NewKeyDeriver checks that project can form §6.1 keys with the recipe.
func NewKeyDeriver(project string, secret []byte) (KeyDeriver, error) {
	d := KeyDeriver{Project: project, Secret: secret}
	if project == "" {
		return d, fmt.Errorf("acts: the project name is empty")
	}
	if len(secret) == 0 && !ValidKey(DeriveKey(project, "x")) {
		return d, fmt.Errorf("acts: project name %q cannot form a §6.1 key (letters, digits, '.', '_', '-' only, at most 112 characters)", project)
	}
	return d, nil
}

// Derive returns the key a new line with text gets.
func (d KeyDeriver) Derive(text string) string {
	if len(d.Secret) > 0 {
		return DeriveKeyedKey(d.Secret, d.Project, text)
	}
	return DeriveKey(d.Project, text)
}

// Candidates returns every key text may have been given: the current
// derivation first, then the older ones still recognised.
func (d KeyDeriver) Candidates(text string) []string {
	if len(d.Secret) > 0 {
		out := []string{DeriveKeyedKey(d.Secret, d.Project, text)}
		if k := DeriveKey(d.Project, text); ValidKey(k) {
			out = append(out, k)
		}
		return out
	}
	return []string{DeriveKey(d.Project, text)}
}
