package scan

import (
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var urlTokens = []string{
	"://", "user", "u", ":", "@", "host", "[::1]", "-", "pa55", "p", "::", "é", "\xff", "\xe2\x82",
	" ", "\t", "\n", "\f", "\v", "/", "\"", "'", "<", ">", "\\", "%40", "$", "x",
	strings.Repeat("a", 60), strings.Repeat("b", 125), strings.Repeat("é", 40),
}

func randomURLText(r *rand.Rand) []byte {
	b := []byte("://")
	for range r.Intn(10) {
		b = append(b, urlTokens[r.Intn(len(urlTokens))]...)
	}
	return b
}

func checkURLPassword(t *testing.T, re *regexp.Regexp, w []byte) {
	t.Helper()
	if got, want := (urlPassword{}).FindSubmatchIndex(w), re.FindSubmatchIndex(w); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: matcher %v, pattern %v", w, got, want)
	}
}

// The matcher finds exactly what urlPasswordPattern finds: at the bounds of
// both runs (64 and 128 characters, counted in characters), with bytes that
// are not UTF-8, a window cut inside a character, and in random text.
func TestURLPasswordMatchesItsPattern(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(urlPasswordPattern)
	if !reflect.DeepEqual((urlPassword{}).SubexpNames(), re.SubexpNames()) {
		t.Fatalf("group names %v, the pattern's %v", (urlPassword{}).SubexpNames(), re.SubexpNames())
	}
	for _, s := range []string{
		"://app:s3cret@db", "://:pwd@h", "://app:s3@db", "://app:s3c@[::1]", "://app:s3cret@-db", "://app:s3cret@",
		"://" + strings.Repeat("u", 64) + ":secret@h", "://" + strings.Repeat("u", 65) + ":secret@h",
		"://u:" + strings.Repeat("p", 128) + "@h", "://u:" + strings.Repeat("p", 129) + "@h",
		"://u:" + strings.Repeat("é", 128) + "@h", "://u:" + strings.Repeat("é", 129) + "@h",
		"://" + strings.Repeat("é", 64) + ":abc@h", "://" + strings.Repeat("é", 65) + ":abc@h",
		"://u:p:q:r@h", "://u:a b@h", "://u:ab\xff@h", "://u:é@h", "://u:éé@h", "://u:ééé@h", "://u:ab\xe2\x82",
		"://u:abc@h/x@y", "://u:abc\v@h", ":/", "", "://", "x://u:abc@h",
	} {
		checkURLPassword(t, re, []byte(s))
	}
	r := rand.New(rand.NewSource(20))
	for range 20000 {
		checkURLPassword(t, re, randomURLText(r))
	}
}

func FuzzURLPassword(f *testing.F) {
	r := rand.New(rand.NewSource(1))
	for range 20 {
		f.Add(randomURLText(r))
	}
	re := regexp.MustCompile(urlPasswordPattern)
	f.Fuzz(func(t *testing.T, w []byte) { checkURLPassword(t, re, w) })
}
