package scan

import (
	"bytes"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Class says which of the refusals or warnings a Finding belongs to.
type Class string

const (
	Credential       Class = "credential"        // §4.1, C7
	Transcript       Class = "transcript"        // §4.1, C8
	InstructionField Class = "instruction-field" // §4.5.1, D13 (refused)
	Instruction      Class = "instruction"       // §4.5.2, D13 (reported)
)

// Finding is one match of the pattern table.
type Finding struct {
	Class Class  `json:"class"`
	Rule  string `json:"rule"` // pattern id, e.g. "github-token", "private-key", "role-prefix"
	// Where is a JSON path in the pack object ("passport.facts[2].claim",
	// key names too) or "data/files/<name>@<byte offset>". The string-level
	// functions leave it empty and set Offset; Object and LuggageScanner fill
	// it.
	Where string `json:"where"`
	// Excerpt is short context; a credential in it is redacted to its first
	// four bytes and "…", and nothing after a credential is shown.
	Excerpt string `json:"excerpt"`
	// Offset is the byte offset of the match in the scanned string or file.
	Offset int64 `json:"-"`
	// part is, for a private key seen in one piece of luggage, which part
	// of the key this file holds when not all of it: "start" (a header with
	// no end after it) or "end" (an end with no header before it).
	// SplitKeys pairs them across files.
	part string
}

// credRule is one credential shape. A candidate is found by a literal anchor
// (the token's distinctive prefix) and confirmed by re, which is anchored at
// the candidate start and names the secret itself as group "t".
type credRule struct {
	id      string
	anchors []string
	// fold: the anchors compare ASCII case-insensitively, and so must the
	// rule's pattern (asciiFold, never (?i)): Go's (?i) also takes ſ for s
	// and the Kelvin sign for k, spellings no program that reads these names
	// accepts and the prefilter does not look for, so the two would disagree
	// on what the rule finds.
	fold bool
	re   credMatcher
	// window is how many bytes from the candidate start re may see. Bounded
	// shapes need their longest match plus one byte, so that the right-hand
	// boundary is judged on a real byte and not on the end of the window; that
	// is also what makes a streamed scan agree with a whole-string scan.
	window int
	// before judges the byte before the candidate (-1 at the start of the
	// data); nil means "not a letter, digit or underscore", so "task-passport"
	// or a base64 run containing "AKIA" never starts a token.
	before func(b int) bool
	check  func(tok []byte) bool // extra confirmation of the secret
	// checkUser, for url-password, sees the user name too.
	checkUser func(user, tok []byte) bool
	show      int // leading bytes of the secret an Excerpt shows
	// run and min are a cheap precheck before the regexp: at least min bytes
	// of the class run (ranges like "A-Za-z0-9_-") must follow the anchor.
	// Without it, text dense with anchors ("hf_" in Python, "sk-" in CSS)
	// would run the regexp at every one of them.
	run    string
	min    int
	runSet *[256]bool
	label  bool // the match is a non-secret label (key block header), shown whole
	// key says which part of a private key block the rule finds: a header
	// opens a key, its end closes it (an end with nothing open is a key's
	// end without its start, reported), and a body's first bytes are
	// reported only when no header opened the key (issue 18: a key split
	// across files, or torn inside its header line).
	key keyPart
}

type keyPart uint8

const (
	keyNone keyPart = iota
	keyBegin
	keyEnd
	keyBody
)

// notB64Before: a body starts where a base64 run does.
func notB64Before(b int) bool { return b < 0 || b64Val[b] >= 64 }

// credMatcher is the part of a regexp a credential rule needs: a rule is a
// lazyRegexp, or a matcher that finds what its pattern would (urlPassword).
type credMatcher interface {
	FindSubmatchIndex(b []byte) []int
	SubexpNames() []string
	String() string
}

func rx(s string) *lazyRegexp { return lazy(`\A` + s) }

// asciiFold is a pattern for the literal s that ignores ASCII case only:
// "key" is [Kk][Ee][Yy].
func asciiFold(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if u := swapCase(c); u != c {
			b.WriteByte('[')
			b.WriteByte(c)
			b.WriteByte(u)
			b.WriteByte(']')
			continue
		}
		b.WriteString(regexp.QuoteMeta(s[i : i+1]))
	}
	return b.String()
}

func anyBefore(int) bool { return true }

// schemeBefore: "://" must follow a URL scheme.
func schemeBefore(b int) bool {
	return b >= 0 && (isAlnum(byte(b)) || b == '+' || b == '.' || b == '-')
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func wordBefore(b int) bool { return b < 0 || !(isAlnum(byte(b)) || b == '_') }

func hasDigit(tok []byte) bool {
	for _, c := range tok {
		if c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

// The credential table (D5). Minimum lengths are the real formats' lengths or
// a little under, so a token that is one character short, a prefix in prose
// ("sk-" in "task-passport", "hf_" in hf_model, "AKIA" alone) or a public key
// block does not fire.
//
// Decisions beyond D5's list, and why:
//   - Stripe test keys (sk_test_, rk_test_) count: they authenticate to a real
//     account's test data, and a handoff has no reason to carry one.
//   - JWTs (three base64url segments, the first two starting "eyJ") count: in
//     practice they are bearer session tokens.
//   - A password inside a URL ("postgres://app:s3cret@db") counts, unless it
//     is an obvious placeholder or the user name again (postgres:postgres,
//     guest:guest: well-known defaults, not secrets); connection strings are
//     the commonest way a passport's facts would leak a secret.
//   - AWS secret access keys have no prefix; they are caught where they are
//     named (aws_secret_access_key = …), as in ~/.aws/credentials.
//   - Also: Slack webhooks, SendGrid, age secret keys, Azure storage/service
//     bus keys, Stripe webhook secrets, PuTTY private key files.
//   - Not: Twilio (its secret, the auth token, is 32 bare hex digits with no
//     shape of its own: it cannot be told from a digest), generic
//     "password=" assignments (documentation is full of them).
var credRules = []credRule{
	// Any PEM/OpenSSH/PGP private key: the header is enough, as in the
	// reference implementation; "BEGIN PUBLIC KEY" and certificates are not.
	{id: "private-key", anchors: []string{"-----BEGIN "}, before: anyBefore, label: true, run: "A-Z0-9 ", min: 11, window: 64, key: keyBegin,
		re: rx(`(?P<t>-----BEGIN [A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----)`)},
	{id: "private-key", anchors: []string{"-----END "}, before: anyBefore, label: true, run: "A-Z0-9 ", min: 11, window: 64, key: keyEnd,
		re: rx(`(?P<t>-----END [A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----)`)},
	// The first bytes of a key body in base64, as each format begins (the
	// DER version and algorithm fields, OpenSSH's magic): a key whose
	// header was torn off or left in another file is still found. Public
	// keys and certificates begin otherwise (TestKeyBodyNearMisses).
	{id: "private-key", anchors: []string{"b3BlbnNzaC1rZXktdjE", "MC4CAQAwBQYDK2VwBCIEI", "MHcCAQEEI", "MIGkAgEBBDD", "MIHcAgEBBEI"},
		before: notB64Before, show: 4, run: "A-Za-z0-9+/", min: 8, window: 64, key: keyBody,
		re: rx(`(?P<t>(?:b3BlbnNzaC1rZXktdjE|MC4CAQAwBQYDK2VwBCIEI|MHcCAQEEI|MIGkAgEBBDD|MIHcAgEBBEI)[A-Za-z0-9+/]{8})`)},
	{id: "private-key", anchors: []string{"IBAAKCAQEA", "IBAAKCAYEA", "IBAAKCAgEA", "IBAAKBgQ", "ADANBgkqhkiG9w0BAQEFAASC", "AgEAMBMGByqGSM49AgEGC"},
		before: anyBefore, show: 4, run: "A-Za-z0-9+/", min: 8, window: 64, key: keyBody,
		re: rx(`(?P<t>(?:IBAAKCAQEA|IBAAKCAYEA|IBAAKCAgEA|IBAAKBgQ|ADANBgkqhkiG9w0BAQEFAASC|AgEAMBMGByqGSM49AgEGC)[A-Za-z0-9+/]{8})`)},
	{id: "putty-private-key", anchors: []string{"PuTTY-User-Key-File-"}, before: anyBefore, label: true, window: 32,
		re: rx(`(?P<t>PuTTY-User-Key-File-[23]: )`)},
	{id: "age-secret-key", anchors: []string{"AGE-SECRET-KEY-1"}, show: 4, run: "0-9A-Z", min: 58, window: 16 + 58 + 1,
		re: rx(`(?P<t>AGE-SECRET-KEY-1[0-9A-Z]{58})(?:[^0-9A-Za-z]|\z)`)},
	// sk- is shared by Anthropic and OpenAI; the most specific shape wins.
	{id: "anthropic-key", anchors: []string{"sk-ant-"}, show: 4, run: "A-Za-z0-9_-", min: 32, window: 256,
		re: rx(`(?P<t>sk-ant-[A-Za-z0-9_-]{32,})`)},
	{id: "openai-key", anchors: []string{"sk-"}, show: 4, run: "A-Za-z0-9_-", min: 37, window: 256,
		re: rx(`(?P<t>sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{32,})`)},
	// Legacy "sk-" + 48: ask for 20+, and a digit when shorter than 32, so a
	// hyphen-less word run after "sk-" in prose does not fire.
	{id: "openai-key", anchors: []string{"sk-"}, show: 4, run: "A-Za-z0-9", min: 20, window: 256,
		re:    rx(`(?P<t>sk-[A-Za-z0-9]{20,})`),
		check: func(t []byte) bool { return len(t) >= 3+32 || hasDigit(t) }},
	{id: "github-token", anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, show: 4, run: "A-Za-z0-9", min: 36, window: 4 + 251 + 1,
		re: rx(`(?P<t>gh[pousr]_[A-Za-z0-9]{36,251})(?:[^A-Za-z0-9]|\z)`)},
	{id: "github-token", anchors: []string{"github_pat_"}, show: 4, run: "A-Za-z0-9_", min: 60, window: 11 + 244 + 1,
		re: rx(`(?P<t>github_pat_[A-Za-z0-9_]{60,244})(?:[^A-Za-z0-9_]|\z)`)},
	{id: "gitlab-token", anchors: []string{"glpat-"}, show: 4, run: "A-Za-z0-9_-", min: 20, window: 256,
		re: rx(`(?P<t>glpat-[A-Za-z0-9_-]{20,})`)},
	{id: "slack-token", anchors: []string{"xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"}, show: 4, run: "A-Za-z0-9-", min: 20, window: 256,
		re: rx(`(?P<t>xox[abprs]-[A-Za-z0-9-]{20,})`), check: hasDigit},
	{id: "slack-webhook", anchors: []string{"hooks.slack.com/services/"}, before: anyBefore, show: 4, window: 256,
		re: rx(`(?P<t>hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,})`)},
	{id: "aws-access-key", anchors: []string{"AKIA", "ASIA"}, show: 4, run: "A-Z0-9", min: 16, window: 21,
		re: rx(`(?P<t>A[KS]IA[A-Z0-9]{16})(?:[^A-Za-z0-9]|\z)`)},
	{id: "aws-secret-key", anchors: []string{"secret_access_key"}, fold: true, before: anyBefore, show: 4, window: 17 + 2 + 16 + 2 + 40 + 1,
		re: rx(asciiFold("secret_access_key") + `["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?P<t>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|\z)`)},
	{id: "google-api-key", anchors: []string{"AIza"}, show: 4, run: "0-9A-Za-z_-", min: 35, window: 40,
		re: rx(`(?P<t>AIza[0-9A-Za-z_-]{35})(?:[^0-9A-Za-z_-]|\z)`)},
	{id: "stripe-key", anchors: []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_"}, show: 4, run: "0-9A-Za-z", min: 24, window: 256,
		re: rx(`(?P<t>[sr]k_(?:live|test)_[0-9A-Za-z]{24,})`)},
	{id: "stripe-webhook-secret", anchors: []string{"whsec_"}, show: 4, run: "A-Za-z0-9+/", min: 32, window: 256,
		re: rx(`(?P<t>whsec_[A-Za-z0-9+/]{32,})`)},
	{id: "npm-token", anchors: []string{"npm_"}, show: 4, run: "A-Za-z0-9", min: 36, window: 41,
		re: rx(`(?P<t>npm_[A-Za-z0-9]{36})(?:[^A-Za-z0-9]|\z)`)},
	// The fixed part is the base64 of the macaroon's "pypi.org" (or
	// "test.pypi.org") location, which every real token starts with.
	{id: "pypi-token", anchors: []string{"pypi-"}, show: 4, run: "A-Za-z0-9_-", min: 60, window: 512,
		re: rx(`(?P<t>pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,})`)},
	{id: "huggingface-token", anchors: []string{"hf_"}, show: 4, run: "A-Za-z0-9", min: 30, window: 256,
		re: rx(`(?P<t>hf_[A-Za-z0-9]{30,})`)},
	{id: "sendgrid-key", anchors: []string{"SG."}, show: 4, run: "A-Za-z0-9_-", min: 22, window: 3 + 22 + 1 + 43 + 1,
		re: rx(`(?P<t>SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?:[^A-Za-z0-9_-]|\z)`)},
	{id: "azure-key", anchors: []string{"AccountKey=", "SharedAccessKey="}, before: anyBefore, show: 4, run: "A-Za-z0-9+/", min: 42, window: 16 + 88 + 1,
		re: rx(`(?:AccountKey=(?P<t>[A-Za-z0-9+/]{86}==)|SharedAccessKey=(?P<t2>[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=))`)},
	{id: "jwt", anchors: []string{"eyJ"}, before: func(b int) bool { return wordBefore(b) && b != '-' }, show: 4, run: "A-Za-z0-9_-", min: 8, window: 8192,
		re: rx(`(?P<t>eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,})`)},
	// An HTTP Authorization header with a literal token, as curl commands in
	// a landing check's how would carry it; "$TOKEN", "<token>" and
	// YOUR_TOKEN_HERE are not tokens (no digit, or not the token alphabet).
	{id: "authorization-header", anchors: []string{"uthorization"}, before: anyBefore, show: 4, window: 12 + 2 + 18 + 8 + 512,
		re:    rx(`uthorization["']?[ \t]*[:=][ \t]*["']?(?i:bearer|basic|token)[ \t]+(?P<t>[A-Za-z0-9._~+/-]{16,}=*)`),
		check: hasDigit},
	{id: "url-password", anchors: []string{"://"}, before: schemeBefore, show: 0, window: 3 + 64 + 1 + 128 + 2,
		re:        urlPassword{}, // urlPasswordPattern
		checkUser: func(u, t []byte) bool { return !placeholderPassword(string(t)) && string(u) != string(t) }},
}

// placeholderPassword: documentation writes "user:password@host"; that is a
// shape, not a secret.
func placeholderPassword(p string) bool {
	switch strings.ToLower(p) {
	case "password", "passwd", "pass", "pwd", "secret", "mypassword", "yourpassword",
		"your_password", "your-password", "xxx", "xxxx", "xxxxxx", "redacted", "placeholder",
		"foo", "bar", "baz", "example", "hidden":
		return true
	}
	switch p[0] {
	case '<', '$', '{', '%', '*', '[', '(':
		return true
	}
	same := true
	for i := 1; i < len(p); i++ {
		if p[i] != p[0] {
			same = false
			break
		}
	}
	return same
}

// anchorEntry is one literal prefix and the rules it may start, in table
// order. pivot is the index of the byte the prefilter searches for: the
// rarest byte of the anchor in text (a punctuation mark where there is
// one), so few bytes of text are marked and looked at; finding every pivot
// byte finds every candidate.
type anchorEntry struct {
	lit   string
	fold  bool
	pivot int
	rules []int
}

// A group's two tables index its lists rather than hold them: a [256]
// table of slices is 6 KiB, and the seven groups' fourteen of them were
// most of what building the tables cost a fresh process (zeroed pages,
// issue 20), for the few dozen bytes that start an entry.
type pivotGroup struct {
	byPrev [256]uint16 // entries whose pivot has a byte before it, keyed by that byte: one more than their index in lists
	byNext [256]uint16 // entries whose pivot is the first byte, keyed by the byte after
	lists  [][]*anchorEntry
}

func (g *pivotGroup) prev(c byte) []*anchorEntry { return g.list(g.byPrev[c]) }
func (g *pivotGroup) next(c byte) []*anchorEntry { return g.list(g.byNext[c]) }

func (g *pivotGroup) list(i uint16) []*anchorEntry {
	if i == 0 {
		return nil
	}
	return g.lists[i-1]
}

var (
	groupOf   [256]*pivotGroup // the group of each pivot byte
	isPivot   [256]uint8       // 1 for a pivot byte (the prefilter's table)
	maxWindow int              // longest rule window
	maxAnchor int              // longest anchor
)

const pivotPreference = "-_:.JAz"

func parseSet(spec string) *[256]bool {
	var set [256]bool
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for c := int(spec[i]); c <= int(spec[i+2]); c++ {
				set[c] = true
			}
			i += 2
			continue
		}
		set[spec[i]] = true
	}
	return &set
}

// tablesOnce builds the rule tables on the first scan, not at start-up:
// most tp commands scan nothing (issue 20).
var tablesOnce sync.Once

func ensureTables() { tablesOnce.Do(buildTables) }

func buildTables() {
	for i := range credRules {
		if credRules[i].run != "" {
			credRules[i].runSet = parseSet(credRules[i].run)
		}
	}
	byLit := map[string]*anchorEntry{}
	var order []*anchorEntry
	for i, r := range credRules {
		if r.window > maxWindow {
			maxWindow = r.window
		}
		for _, a := range r.anchors {
			e := byLit[a]
			if e == nil {
				e = &anchorEntry{lit: a, fold: r.fold, pivot: choosePivot(a)}
				byLit[a] = e
				order = append(order, e)
			}
			e.rules = append(e.rules, i)
			if len(a) > maxAnchor {
				maxAnchor = len(a)
			}
		}
	}
	bufSize = keepBack + maxWindow + luggageChunk
	// Where two anchors start at one place ("sk-ant-" and "sk-"), scan tries
	// the longer first (the candidate sort), so the specific shape wins.
	groups := map[byte]*pivotGroup{}
	for _, e := range order {
		b := e.lit[e.pivot]
		if len(e.lit) < 2 || e.fold && swapCase(b) != b {
			panic("scan: anchor " + e.lit + " needs two bytes and, when folded, a pivot that is not a letter")
		}
		g := groups[b]
		if g == nil {
			g = &pivotGroup{}
			groups[b] = g
			groupOf[b], isPivot[b] = g, 1
		}
		add1 := func(tab *[256]uint16, c byte) {
			if tab[c] == 0 {
				if len(g.lists) == 1<<16-1 {
					panic("scan: more anchor lists than a pivot group indexes")
				}
				g.lists = append(g.lists, nil)
				tab[c] = uint16(len(g.lists))
			}
			g.lists[tab[c]-1] = append(g.lists[tab[c]-1], e)
		}
		add := func(tab *[256]uint16, c byte) {
			add1(tab, c)
			if e.fold {
				add1(tab, swapCase(c))
			}
		}
		if e.pivot > 0 {
			add(&g.byPrev, e.lit[e.pivot-1])
		} else {
			add(&g.byNext, e.lit[1])
		}
	}
}

func swapCase(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return c - 32
	case c >= 'A' && c <= 'Z':
		return c + 32
	}
	return c
}

func choosePivot(a string) int {
	for i := 0; i < len(pivotPreference); i++ {
		if j := strings.IndexByte(a, pivotPreference[i]); j >= 0 && !(j == 0 && len(a) == 1) {
			return j
		}
	}
	return 0
}

// text is what the prefilter reads: a buffer of luggage, or a string
// (Credentials, Redact), read in place rather than copied to look for
// anchors that are almost never there (issue 20: a plan's 110,000 facts
// printed copied every claim, scope and machine name once more).
type text interface{ ~string | ~[]byte }

func at[T text](e *anchorEntry, buf T, s int) bool {
	if s < 0 || s+len(e.lit) > len(buf) {
		return false
	}
	w := buf[s : s+len(e.lit)]
	if e.fold {
		return strings.EqualFold(string(w), e.lit)
	}
	return string(w) == e.lit
}

// precheck is the cheap part of confirming rule r at start: the byte
// before, and the run of body bytes after the anchor of length n.
func precheck[T text](r *credRule, buf T, start, n, prev int) bool {
	before := r.before
	if before == nil {
		before = wordBefore
	}
	if !before(prev) {
		return false
	}
	if r.runSet != nil {
		k, got := start+n, 0
		for k < len(buf) && got < r.min && r.runSet[buf[k]] {
			k++
			got++
		}
		if got < r.min {
			return false
		}
	}
	return true
}

// viable reports whether any rule of the anchor passes its precheck at s, so
// text dense with anchors does not fill the candidate list.
func viable[T text](e *anchorEntry, buf T, s int, dataStart bool) bool {
	prev := -1
	if s > 0 {
		prev = int(buf[s-1])
	} else if !dataStart {
		return true // confirm will complain
	}
	for _, ri := range e.rules {
		if precheck(&credRules[ri], buf, s, len(e.lit), prev) {
			return true
		}
	}
	return false
}

// candidate is an anchor found at start (an index into the buffer).
type candidate struct {
	start int
	e     *anchorEntry
}

// engine holds what a scan carries from one buffer to the next.
type engine struct {
	lastEnd  int64 // absolute end of the last finding's secret; nothing before it is matched or shown again
	keyOpen  bool  // a private key's header (or body) was seen and its end not yet
	openIdx  int   // the finding that opened it, -1 when not kept
	found    []Finding
	count    int
	max      int // 0: unlimited
	cands    []candidate
	tplWhere func(off int64) string
	spans    bool   // keep spans (whole-string scans only)
	hits     []span // every secret found, when spans is set
}

type span struct {
	r      *credRule
	t0, t1 int
}

const excerptContext = 20 // bytes of context shown before a secret

// scan confirms every candidate whose start lies in [from, limit) of buf,
// where buf[0] is at absolute offset base. dataStart says whether buf[0] is
// the first byte of the data (so a candidate at 0 has no byte before it).
// Every candidate in that range must have its whole window in buf unless buf
// ends at the end of the data.
func (en *engine) scan(buf []byte, base int64, from, limit int, dataStart bool) {
	collect(en, buf, from, limit, dataStart)
	en.confirmAll(buf, base, dataStart)
}

// collect sets en.cands to the candidates whose start lies in [from, limit)
// of buf: an anchor's literal, with a byte before it and a run of body
// bytes after it that some rule of the anchor accepts.
func collect[T text](en *engine, buf T, from, limit int, dataStart bool) {
	ensureTables()
	en.cands = en.cands[:0]
	hi := limit + maxAnchor
	if hi > len(buf) {
		hi = len(buf)
	}
	// One pass marks the pivot bytes of each 64-byte block in a bit mask
	// (a table look-up per byte, no branch), then visits only the marked
	// bytes. It replaces one bytes.IndexByte pass per distinct pivot byte
	// (seven of them): in random data each pivot byte turns up every 256
	// bytes, so those passes spent their time restarting IndexByte rather
	// than searching; this is about a third faster on random data and on
	// text alike (BENCHMARKS.md, TaskPack).
	for i := from; i < hi; i += 64 {
		var m uint64
		if i+64 <= hi {
			blk := buf[i : i+64]
			for k := 0; k < 64; k += 8 {
				m |= (uint64(isPivot[blk[k]]) | uint64(isPivot[blk[k+1]])<<1 |
					uint64(isPivot[blk[k+2]])<<2 | uint64(isPivot[blk[k+3]])<<3 |
					uint64(isPivot[blk[k+4]])<<4 | uint64(isPivot[blk[k+5]])<<5 |
					uint64(isPivot[blk[k+6]])<<6 | uint64(isPivot[blk[k+7]])<<7) << k
			}
		} else {
			for k := i; k < hi; k++ {
				m |= uint64(isPivot[buf[k]]) << (k - i)
			}
		}
		for ; m != 0; m &= m - 1 {
			p := i + bits.TrailingZeros64(m)
			g := groupOf[buf[p]]
			if p > 0 {
				for _, e := range g.prev(buf[p-1]) {
					if s := p - e.pivot; s >= from && s < limit && at(e, buf, s) && viable(e, buf, s, dataStart) {
						en.cands = append(en.cands, candidate{s, e})
					}
				}
			}
			if p+1 < len(buf) {
				for _, e := range g.next(buf[p+1]) {
					if s := p; s >= from && s < limit && at(e, buf, s) && viable(e, buf, s, dataStart) {
						en.cands = append(en.cands, candidate{s, e})
					}
				}
			}
		}
	}
}

// confirmAll confirms en.cands (collect's, over the same buf).
func (en *engine) confirmAll(buf []byte, base int64, dataStart bool) {
	if len(en.cands) == 0 {
		return
	}
	slices.SortFunc(en.cands, func(a, b candidate) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return len(b.e.lit) - len(a.e.lit)
	})
	lastStart := -1
	for _, c := range en.cands {
		if c.start == lastStart || base+int64(c.start) < en.lastEnd {
			continue
		}
		if en.confirm(buf, base, c, dataStart) {
			lastStart = c.start
		}
	}
}

func (en *engine) confirm(buf []byte, base int64, c candidate, dataStart bool) bool {
	prev := -1
	if c.start > 0 {
		prev = int(buf[c.start-1])
	} else if !dataStart {
		panic("scan: candidate without its preceding byte")
	}
	for _, ri := range c.e.rules {
		r := &credRules[ri]
		if !precheck(r, buf, c.start, len(c.e.lit), prev) {
			continue
		}
		end := c.start + r.window
		if end > len(buf) {
			end = len(buf)
		}
		w := buf[c.start:end]
		m := r.re.FindSubmatchIndex(w)
		if m == nil {
			continue
		}
		t0, t1 := -1, -1
		for k, name := range r.re.SubexpNames() {
			if (name == "t" || name == "t2") && m[2*k] >= 0 {
				t0, t1 = m[2*k], m[2*k+1]
				break
			}
		}
		tok := w[t0:t1]
		if r.check != nil && !r.check(tok) {
			continue
		}
		if r.checkUser != nil && t0 >= 4 && !r.checkUser(w[3:t0-1], tok) {
			continue
		}
		switch r.key {
		case keyEnd:
			if en.keyOpen { // the end of the key already reported
				en.keyOpen = false
				en.lastEnd = base + int64(c.start+t1)
				return true
			}
			if en.add(buf, base, r, c.start+t0, c.start+t1) {
				en.found[len(en.found)-1].part = "end"
			}
			return true
		case keyBody:
			if en.keyOpen {
				return true // the body of the key whose header was reported
			}
		}
		kept := en.add(buf, base, r, c.start+t0, c.start+t1)
		if r.key == keyBegin || r.key == keyBody {
			en.keyOpen, en.openIdx = true, -1
			if kept && r.key == keyBegin {
				en.openIdx = len(en.found) - 1
			}
		}
		return true
	}
	return false
}

// add records a finding; false when it was only counted (past max).
func (en *engine) add(buf []byte, base int64, r *credRule, t0, t1 int) bool {
	cs := t0 - excerptContext
	if cs < 0 {
		cs = 0
	}
	if le := en.lastEnd - base; le > int64(cs) {
		cs = int(le)
	}
	ctx := buf[cs:t0]
	if k := bytes.LastIndexAny(ctx, "\r\n"); k >= 0 {
		ctx = ctx[k+1:]
	}
	for n := 0; n < 3 && len(ctx) > 0 && ctx[0]&0xC0 == 0x80; n++ {
		ctx = ctx[1:]
	}
	ctx = bytes.TrimLeft(ctx, " \t")
	en.lastEnd = base + int64(t1)
	en.count++
	if en.spans {
		en.hits = append(en.hits, span{r, t0, t1})
	}
	if en.max > 0 && len(en.found) >= en.max {
		return false
	}
	f := Finding{Class: Credential, Rule: r.id, Offset: base + int64(t0),
		Excerpt: string(ctx) + redact(r, buf[t0:t1])}
	if en.tplWhere != nil {
		f.Where = en.tplWhere(f.Offset)
	}
	en.found = append(en.found, f)
	return true
}

// markOpenKey marks a header whose key never ended in this data: the rest
// of it may be in another file (SplitKeys).
func (en *engine) markOpenKey() {
	if en.keyOpen && en.openIdx >= 0 {
		en.found[en.openIdx].part = "start"
	}
}

// RuleSplitKey is a private key whose header is in one luggage file and
// whose end is in another (issue 18).
const RuleSplitKey = "private-key-split"

// SplitKeys pairs, across luggage files, a private key's header that never
// ends in its file with a key's end that has no header in its file: a key
// cut in two to pass a scan of each file alone. Each file is refused on its
// own already; this names the pair. fs are LuggageScanner findings.
func SplitKeys(fs []Finding) []Finding {
	file := func(f Finding) string {
		if i := strings.LastIndexByte(f.Where, '@'); i >= 0 {
			return f.Where[:i]
		}
		return f.Where
	}
	var starts []Finding
	var out []Finding
	for _, f := range fs {
		switch f.part {
		case "start":
			starts = append(starts, f)
		case "end":
			for i := len(starts) - 1; i >= 0; i-- {
				if a, b := file(starts[i]), file(f); a != b {
					out = append(out, Finding{Class: Credential, Rule: RuleSplitKey, Where: a + " and " + b,
						Excerpt: "a private key begins in " + a + " and ends in " + b})
					starts = append(starts[:i], starts[i+1:]...)
					break
				}
			}
		}
	}
	return out
}

func redact(r *credRule, tok []byte) string {
	if r.label {
		return string(tok) + "…"
	}
	n := r.show
	if n > len(tok)/2 {
		n = len(tok) / 2
	}
	return string(tok[:n]) + "…"
}

// Credentials returns every credential in s (D5), in order of offset.
// Where is empty; Offset is the byte offset of the secret in s. Rules:
// private-key, putty-private-key, age-secret-key, anthropic-key, openai-key,
// github-token, gitlab-token, slack-token, slack-webhook, aws-access-key,
// aws-secret-key, google-api-key, stripe-key, stripe-webhook-secret,
// npm-token, pypi-token, huggingface-token, sendgrid-key, azure-key, jwt,
// authorization-header, url-password (CredentialRules lists them).
func Credentials(s string) []Finding {
	var en engine
	en.scanString(s)
	return en.found
}

// spansOf returns every secret in s, in order.
func spansOf(s string) []span {
	en := engine{spans: true}
	en.scanString(s)
	return en.hits
}

// scanString scans the whole of s. The prefilter reads s in place; only a
// string with a candidate is copied, for the rules' regular expressions.
func (en *engine) scanString(s string) {
	if collect(en, s, 0, len(s), true); len(en.cands) > 0 {
		en.confirmAll([]byte(s), 0, true)
	}
}

// redactRange returns s[lo:hi] with every secret redacted; a secret cut by
// either end of the range is redacted too (one that began before lo is shown
// as "…" only).
func redactRange(s string, spans []span, lo, hi int) string {
	var out strings.Builder
	pos := lo
	for _, h := range spans {
		if h.t1 <= lo || h.t0 >= hi {
			continue
		}
		if h.t0 > pos {
			out.WriteString(s[pos:h.t0])
		}
		if h.t0 >= lo {
			out.WriteString(redact(h.r, []byte(s[h.t0:h.t1])))
		} else {
			out.WriteString("…")
		}
		pos = h.t1
	}
	if pos < hi {
		out.WriteString(s[pos:hi])
	}
	return out.String()
}

// redactCredentials replaces every credential in s by its redacted form, so
// an excerpt of a transcript or an instruction never shows a secret.
func redactCredentials(s string) string { return redactRange(s, spansOf(s), 0, len(s)) }
