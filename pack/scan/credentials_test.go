package scan

import (
	"math/rand"
	"os"
	"strings"
	"testing"
)

// Test tokens are built by concatenation so that this repository holds no
// literal that a secret scanner would (rightly) flag.

const alnumSet = "aB3dE5gH7jK9mN2pQ4sT6vW8yZ0cF1"

// alnum returns n characters of a mixed-case alphanumeric run.
func alnum(n int) string { return cycle(alnumSet, n) }

func upper(n int) string { return cycle("QWERTY7UIOP2ASDFG3HJKL4ZXCVB5NM6", n) }

func lower(n int) string { return cycle("qwertyuiopasdfghjklzxcvbnm", n) }

func b64(n int) string { return cycle("aB3+dE5/gH7jK9mN2pQ4sT6vW8yZ0cF1", n) }

func cycle(set string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(set[(i*7+i/len(set))%len(set)])
	}
	return b.String()
}

type credCase struct {
	rule  string
	text  string // text containing exactly one credential
	token string // the secret as the table defines it
}

func credFires() []credCase {
	var cs []credCase
	add := func(rule, before, tok, after string) {
		cs = append(cs, credCase{rule, before + tok + after, tok})
	}
	dash5 := strings.Repeat("-", 5)
	for _, kind := range []string{"RSA ", "OPENSSH ", "EC ", "DSA ", "ENCRYPTED ", ""} {
		add("private-key", "key file:\n", dash5+"BEGIN "+kind+"PRIVATE KEY"+dash5, "\nMIIEow"+b64(60)+"\n")
	}
	add("private-key", "", dash5+"BEGIN PGP PRIVATE KEY BLOCK"+dash5, "\n\nlQOYBF"+b64(40))
	add("putty-private-key", "", "PuTTY-User-Key-File-"+"3: ", "ssh-ed25519\nEncryption: none\n")
	add("age-secret-key", "# created\n", "AGE-SECRET-"+"KEY-1"+upper(58), "\n")
	add("anthropic-key", "ANTHROPIC_API_KEY=", "sk-"+"ant-api03-"+alnum(93)+"AA", "\n")
	add("openai-key", `"key": "`, "sk-"+"proj-"+alnum(60)+"_"+alnum(40), `"`)
	add("openai-key", "OPENAI_API_KEY=", "sk-"+"svcacct-"+alnum(64), "")
	add("openai-key", "export OPENAI_API_KEY=", "sk-"+alnum(48), " # old")
	add("openai-key", "(", "sk-"+alnum(20), ")")
	add("openai-key", "token ", "sk-"+lower(40), ".")
	for _, p := range []string{"p", "o", "u", "s", "r"} {
		add("github-token", "GH_TOKEN=", "gh"+p+"_"+alnum(36), "\n")
	}
	add("github-token", "push with ", "gh"+"p_"+alnum(40), " please")
	add("github-token", "", "github_"+"pat_"+alnum(22)+"_"+alnum(59), "")
	add("gitlab-token", "CI token: ", "gl"+"pat-"+alnum(20), "")
	add("gitlab-token", "", "gl"+"pat-"+alnum(10)+"-"+alnum(10)+"_x", " ok")
	add("slack-token", "SLACK_BOT_TOKEN=", "xo"+"xb-"+"123456789012-1234567890123-"+alnum(24), "")
	add("slack-token", "", "xo"+"xp-"+"12345678901-"+alnum(30), "")
	add("slack-webhook", "https://", "hooks.slack.com/services/"+"T0001ABCD/B0002EFGH/"+alnum(24), " posts")
	add("aws-access-key", "aws_access_key_id = ", "AK"+"IA"+upper(16), "\n")
	add("aws-access-key", `"AccessKeyId": "`, "AS"+"IA"+upper(16), `",`)
	add("aws-secret-key", "aws_secret_access_key = ", b64(40), "\n")
	add("aws-secret-key", "AWS_SECRET_ACCESS_KEY=", b64(40), "")
	add("aws-secret-key", `"aws_secret_access_key": "`, b64(40), `"`)
	add("google-api-key", "?key=", "AI"+"za"+alnum(33)+"-_", "&q=1")
	add("stripe-key", "STRIPE=", "sk_"+"live_"+alnum(24), "")
	add("stripe-key", "", "rk_"+"live_"+alnum(99), "")
	add("stripe-key", "test mode: ", "sk_"+"test_"+alnum(24), "")
	add("stripe-webhook-secret", "STRIPE_WEBHOOK_SECRET=", "wh"+"sec_"+alnum(32), "")
	add("npm-token", "//registry.npmjs.org/:_authToken=", "np"+"m_"+alnum(36), "\n")
	add("pypi-token", "password = ", "py"+"pi-AgEIcHlwaS5vcmc"+alnum(120), "\n")
	add("pypi-token", "", "py"+"pi-AgENdGVzdC5weXBpLm9yZw"+alnum(80), "")
	add("huggingface-token", "HF_TOKEN=", "h"+"f_"+alnum(34), "")
	add("huggingface-token", "login with ", "h"+"f_"+alnum(30), ".")
	add("sendgrid-key", "SENDGRID_API_KEY=", "S"+"G."+alnum(22)+"."+alnum(43), "")
	add("azure-key", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=", b64(86)+"==", ";EndpointSuffix=core.windows.net")
	add("azure-key", "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=R;SharedAccessKey=", b64(42)+"A=", "")
	add("jwt", "session=", "ey"+"JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.ey"+"JzdWIiOiIxMjM0NTY3ODkwIn0."+alnum(43), "\n")
	add("authorization-header", `curl -H "Authorization: Bearer `, alnum(40), `" https://api.example.com`)
	add("authorization-header", `{"authorization": "Basic `, "dXNlcjpwYXNzd29yZDEyMw==", `"}`)
	add("authorization-header", "Authorization: token ", alnum(40), "\n")
	add("url-password", "REDIS_URL=redis://:", "Zq83kLm2", "@cache:6379")
	add("url-password", "DATABASE_URL=postgres://app:", "s3cr3t-Pw9", "@db.internal:5432/prod")
	add("url-password", "clone https://ann:", "x7Hq2", "@git.example.com/r.git")
	return cs
}

// credNearMisses never contain a credential by the table, though each looks
// like one at a glance.
func credNearMisses() map[string][]string {
	dash5 := strings.Repeat("-", 5)
	return map[string][]string{
		"private-key": {dash5 + "BEGIN PUBLIC KEY" + dash5 + "\nMIIB", dash5 + "BEGIN CERTIFICATE" + dash5,
			dash5 + "BEGIN RSA PUBLIC KEY" + dash5, "the BEGIN RSA PRIVATE KEY line", dash5 + "BEGIN SSH SIGNATURE" + dash5},
		"putty-private-key": {"PuTTY-User-Key-File-" + "9: x", "a PuTTY user key file"},
		"age-secret-key":    {"AGE-SECRET-" + "KEY-1" + upper(57), "AGE-SECRET-" + "KEY-1" + lower(58), "age-secret-key-1 in prose"},
		"anthropic-key":     {"sk-" + "ant-" + alnum(20), "sk-" + "ant-api03-short"},
		"openai-key": {"task-" + alnum(40), "task-passport", "sk-" + alnum(19), "sk-" + lower(25), "sk-learn",
			"sk-" + "proj-" + alnum(20), "risk-" + alnum(30), "mask_" + alnum(30)},
		"github-token": {"gh" + "p_" + alnum(35), "x" + "gh" + "p_" + alnum(36), "gh" + "x_" + alnum(36),
			"github_" + "pat_" + alnum(30), "gh" + "p_" + strings.Repeat("a", 20) + "-" + alnum(20)},
		"gitlab-token":  {"gl" + "pat-" + alnum(19), "glpat"},
		"slack-token":   {"xo" + "xo-" + alnum(30), "xo" + "xb-" + "short", "xo" + "xb-" + lower(30)},
		"slack-webhook": {"https://hooks.slack.com/services/", "https://hooks.slack.com/services/T0001/B0002/" + alnum(24)},
		"aws-access-key": {"AKIA", "AK" + "IA" + upper(15), "AK" + "IA" + lower(16), "AK" + "IA" + upper(17),
			"x" + "AK" + "IA" + upper(16), "AIDA" + upper(16)},
		"aws-secret-key": {"aws_secret_access_key = " + b64(39), "aws_secret_access_key = <your secret key>",
			"aws_secret_access_key = " + b64(41)},
		"google-api-key":        {"AI" + "za" + alnum(34), "AI" + "za" + alnum(36), "AIzawa"},
		"stripe-key":            {"sk_" + "live_" + alnum(23), "pk_" + "live_" + alnum(24), "pk_" + "test_" + alnum(24), "sk_live_"},
		"stripe-webhook-secret": {"wh" + "sec_" + alnum(31)},
		"npm-token":             {"np" + "m_" + alnum(35), "np" + "m_" + alnum(37), "npm_config_cache", "npm_package_version"},
		"pypi-token":            {"py" + "pi-" + alnum(80), "py" + "pi-AgEIcHlwaS5vcmc" + alnum(10), "pypi-server"},
		"huggingface-token":     {"hf_model", "h" + "f_" + alnum(29), "hf_hub_download_" + lower(30), "my_" + "h" + "f_" + alnum(34)},
		"sendgrid-key":          {"S" + "G." + alnum(22) + "." + alnum(42), "SG.com", "S" + "G." + alnum(21) + "." + alnum(43)},
		"azure-key":             {"AccountKey=" + b64(85) + "==", "AccountKey=<key>", "SharedAccessKey=" + b64(42) + "B="},
		"jwt":                   {"ey" + "JhbGciOiJIUzI1NiJ9", "ey" + "JhbGciOiJIUzI1NiJ9.ey" + "JzdWIiOiIxIn0", "ey" + "Jh.ey" + "Jz." + alnum(30)},
		"authorization-header": {"Authorization: Bearer $TOKEN", "Authorization: Bearer <token>", "Authorization: Bearer YOUR_TOKEN_HERE",
			"the Authorization header carries a bearer token", "Authorization: Bearer " + alnum(15)},
		"url-password": {"https://user:password@example.com", "http://admin:${DB_PASSWORD}@db", "https://example.com:8080/x",
			"mailto:ann@example.com", "postgres://app@db/x", "redis://:****@cache", "postgres://postgres:postgres@localhost/app", "amqp://guest:guest@rabbit:5672", "ssh://git@github.com/x", "https://u:<pw>@h"},
	}
}

func TestCredentialsFire(t *testing.T) {
	for _, c := range credFires() {
		t.Run(c.rule, func(t *testing.T) {
			fs := Credentials(c.text)
			if len(fs) != 1 {
				t.Fatalf("Credentials(%q) = %+v, want one %s", c.text, fs, c.rule)
			}
			f := fs[0]
			if f.Class != Credential || f.Rule != c.rule {
				t.Errorf("got %s/%s, want credential/%s", f.Class, f.Rule, c.rule)
			}
			if want := strings.Index(c.text, c.token); f.Offset != int64(want) {
				t.Errorf("Offset = %d, want %d", f.Offset, want)
			}
			if !ruleIsLabel(c.rule) && strings.Contains(f.Excerpt, c.token) {
				t.Errorf("Excerpt %q shows the whole secret", f.Excerpt)
			}
			if !strings.HasSuffix(f.Excerpt, "…") {
				t.Errorf("Excerpt %q does not end in …", f.Excerpt)
			}
			if show := ruleShow(c.rule); !strings.Contains(f.Excerpt, c.token[:show]+"…") {
				t.Errorf("Excerpt %q does not show %q", f.Excerpt, c.token[:show]+"…")
			}
		})
	}
}

func ruleIsLabel(id string) bool {
	for _, r := range credRules {
		if r.id == id {
			return r.label
		}
	}
	return false
}

func ruleShow(id string) int {
	for _, r := range credRules {
		if r.id == id {
			return r.show
		}
	}
	return 0
}

func TestCredentialsNearMiss(t *testing.T) {
	for rule, texts := range credNearMisses() {
		for _, s := range texts {
			for _, text := range []string{s, "see " + s + " here", s + "\n"} {
				if fs := Credentials(text); len(fs) != 0 {
					t.Errorf("%s near miss %q fired: %+v", rule, text, fs)
				}
			}
		}
	}
}

// Every shape in the table has a test that it fires and one that a near miss
// does not; adding a shape without both turns this red.
func TestEveryRuleTested(t *testing.T) {
	fires := map[string]bool{}
	for _, c := range credFires() {
		fires[c.rule] = true
	}
	near := credNearMisses()
	for _, r := range credRules {
		if !fires[r.id] {
			t.Errorf("rule %s has no firing test", r.id)
		}
		if len(near[r.id]) == 0 {
			t.Errorf("rule %s has no near-miss test", r.id)
		}
	}
	for id := range near {
		if ruleShow(id) == 0 && !ruleIsLabel(id) && id != "url-password" {
			t.Errorf("near misses for unknown rule %s", id)
		}
	}
}

// Windows must cover each bounded shape's longest match plus one byte, or the
// right-hand boundary would be judged on the end of the window.
// The rule list in Credentials' doc comment is the table's.
func TestCredentialRulesDocumented(t *testing.T) {
	src, err := os.ReadFile("credentials.go")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(src), "// Credentials returns")
	doc := string(src[i : i+strings.Index(string(src[i:]), "func Credentials")])
	for _, id := range CredentialRules() {
		if !strings.Contains(doc, " "+id+",") && !strings.Contains(doc, " "+id+" ") {
			t.Errorf("rule %s missing from the Credentials doc comment", id)
		}
	}
}

func TestWindowsCoverLongestMatch(t *testing.T) {
	for _, c := range credFires() {
		for _, r := range credRules {
			if r.id == c.rule && len(c.token)+1 > r.window && !strings.Contains(r.re.String(), ",}") {
				t.Errorf("%s: token of %d bytes does not fit window %d", r.id, len(c.token), r.window)
			}
		}
	}
}

// Search is over every byte, not a prefix (the reference implementation only
// looks at the first 64 KiB of a luggage file).
func TestCredentialsAnywhere(t *testing.T) {
	tok := "gh" + "p_" + alnum(36)
	filler := strings.Repeat("plain words and-some_punctuation: ", 40000) // > 1 MiB
	for _, text := range []string{filler + tok, filler + tok + filler, tok + filler} {
		fs := Credentials(text)
		if len(fs) != 1 || fs[0].Offset != int64(strings.Index(text, tok)) {
			t.Errorf("token in %d bytes: got %+v", len(text), fs)
		}
	}
}

func TestCredentialsSeveral(t *testing.T) {
	a := "AK" + "IA" + upper(16)
	g := "gh" + "p_" + alnum(36)
	h := "h" + "f_" + alnum(34)
	text := a + " " + g + "\n" + h
	fs := Credentials(text)
	if len(fs) != 3 || fs[0].Rule != "aws-access-key" || fs[1].Rule != "github-token" || fs[2].Rule != "huggingface-token" {
		t.Fatalf("got %+v", fs)
	}
	// The context before the second secret must not show the first one.
	if strings.Contains(fs[1].Excerpt, a) || strings.Contains(fs[1].Excerpt, a[4:]) {
		t.Errorf("excerpt %q shows the previous secret", fs[1].Excerpt)
	}
	if fs[2].Excerpt != "hf_a…" {
		t.Errorf("excerpt after a newline = %q, want only the token", fs[2].Excerpt)
	}
}

// One secret, one finding: the header and the JWT inside it are not
// reported twice.
func TestAuthorizationJWTOnce(t *testing.T) {
	jwt := "ey" + "JhbGciOiJIUzI1NiJ9.ey" + "JzdWIiOiIxMjM0NTY3ODkwIn0." + alnum(43)
	fs := Credentials("Authorization: Bearer " + jwt)
	if len(fs) != 1 || fs[0].Rule != "authorization-header" || fs[0].Offset != 22 {
		t.Errorf("got %+v", fs)
	}
}

func TestRedactCredentials(t *testing.T) {
	g := "gh" + "p_" + alnum(36)
	got := redactCredentials("User: my token is " + g + " ok")
	if got != "User: my token is ghp_… ok" {
		t.Errorf("got %q", got)
	}
}

func TestPlaceholderPassword(t *testing.T) {
	for _, p := range []string{"password", "PASSWORD", "****", "xxxxxxxx", "${PW}", "<secret>", "%s"} {
		if !placeholderPassword(p) {
			t.Errorf("%q is a placeholder", p)
		}
	}
	for _, p := range []string{"hunter2", "s3cr3t", "changeme"} {
		if placeholderPassword(p) {
			t.Errorf("%q is a password", p)
		}
	}
}

// randomText mixes words, punctuation and the anchors' bytes, so the
// prefilter is exercised without forming tokens.
func randomText(r *rand.Rand, n int) []byte {
	words := []string{"the ", "sk", "-", "_", "gh", "p", "AKIA", "eyJ", ".", "://", "hf", "key", "\n", "AIza", "SG", "A", "J", "xox", "glpat", "npm"}
	var b []byte
	for len(b) < n {
		b = append(b, words[r.Intn(len(words))]...)
	}
	return b[:n]
}

// The patterns compile lazily (lazy.go); every one of them must compile.
func TestEveryPatternCompiles(t *testing.T) {
	var all []*lazyRegexp
	for i := range credRules {
		if l, ok := credRules[i].re.(*lazyRegexp); ok {
			all = append(all, l)
		}
	}
	for i := range instrRules {
		if l, ok := instrRules[i].re.(*lazyRegexp); ok {
			all = append(all, l)
		}
	}
	all = append(all, roleLineRe, absPathRe, pipeHeads, pipeShell, pipeIex)
	for _, l := range all {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("pattern %q: %v", l.String(), r)
				}
			}()
			l.get()
		}()
	}
	if len(all) < 40 {
		t.Fatalf("only %d patterns: the tables moved", len(all))
	}
}

// The prefilter marks pivot bytes 64 at a time, with a byte loop for the
// last partial block: every shape is found at every position of a block and
// of the tail, with the pivot in the first, last or a middle bit.
func TestCredentialsAtEveryBlockOffset(t *testing.T) {
	for _, c := range credFires() {
		want := strings.Index(c.text, c.token)
		for pad := 0; pad < 130; pad++ {
			for _, tail := range []int{0, 1, 70} {
				text := strings.Repeat(" ", pad) + c.text + strings.Repeat(" ", tail)
				fs := Credentials(text)
				if len(fs) != 1 || fs[0].Rule != c.rule || fs[0].Offset != int64(pad+want) {
					t.Fatalf("%s after %d spaces, %d after: got %+v", c.rule, pad, tail, fs)
				}
			}
		}
	}
}
