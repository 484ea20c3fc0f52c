package scan

import (
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// instrRule is one shape of a sentence that reads like an instruction to an
// AI (D13). strong rules are injection on their face ("ignore previous
// instructions", "do not tell the user"); the others are imperatives to run
// something, which are also the ordinary content of an ask or a landing
// check's how, so Object does not report them there (§4.5.3: asks are data
// consumed by a trusted instruction).
type instrRule struct {
	id     string
	re     findAller
	strong bool
	// needles: every match contains one of them (in ASCII lower case). The
	// regexp only runs in a window around each needle: Go's regexps have no
	// literal prefix to skip ahead with here, and a pack may hold megabytes
	// of text in one field.
	needles []string
	// words, when set: every match also holds one of them at the start of
	// a word (ASCII lower case, after a byte that is not a letter, digit or
	// "_"). A string without any is not searched for the rule at all, which
	// spares compiling its pattern where the needle is a common word ("not",
	// "you": issue 20).
	words []string
}

// findAller is the part of a regexp a rule needs: a rule is a lazyRegexp,
// or a matcher that finds what its pattern would (pipeToShell).
type findAller interface {
	FindAllStringIndex(s string, n int) [][]int
}

var instrRules = []instrRule{
	// English.
	{"ignore-previous", lazy(`(?i)\b(?:ignore|disregard|forget|override|bypass|discard)\s+(?:(?:all|any|the|your|my|of|these|those|every)\s+)*(?:previous|prior|above|earlier|preceding|former|original|system|existing|initial|other)\s+(?:instructions?|prompts?|messages?|rules?|directions?|directives?|context|guidelines?|commands?|constraints?)\b`), true, []string{"ignor", "disregard", "forget", "overrid", "bypass", "discard"}, nil},
	{"disregard-above", lazy(`(?i)\b(?:ignore|disregard|forget)\s+(?:(?:everything|all|anything|what)\s+)?(?:(?:written|said|stated|you\s+(?:were|have\s+been)\s+told)\s+)?(?:above|before\s+this|previously|so\s+far|up\s+to\s+now)\b|\bdisregard\s+the\s+(?:above|previous|preceding)\b`), true, []string{"ignor", "disregard", "forget"}, nil},
	{"you-are-now", lazy(`(?i)\byou\s+are\s+now\s+(?:a|an|the|my|in|no\s+longer|free|DAN|jailbroken|unrestricted)\b|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|should)\b|\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b|\byour\s+new\s+(?:role|instructions?|task|goal|persona)\s+(?:is|are)\b|\byou\s+are\s+(?:a|an)\s+(?:(?:helpful|harmless|honest|friendly|expert|senior|professional|autonomous|coding|obedient|uncensored)[,\s]+)*(?:ai|assistant|agent|chatbot|language\s+model|llm|bot)\b`), true, []string{"you", "pretend"}, nil},
	{"if-you-are-ai", lazy(`(?i)\b(?:if|when)\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|assistant|agent|chatbot|model)\b|\b(?:note|message|attention)\s+(?:to|for)\s+(?:the\s+|any\s+)?(?:ai|llm|assistant|agent|model|claude|chatgpt)\b`), true, []string{"you", "note", "message", "attention"},
		[]string{"ai", "llm", "model", "assistant", "agent", "chatbot", "claude", "chatgpt"}},
	{"new-instructions", lazy(`(?i)\b(?:new|updated|real|actual|hidden|secret|additional|important)\s+(?:instructions?|system\s+prompt)\s*[:：]|\bsystem\s+prompt\s*[:：]`), true, []string{"instruction", "prompt"}, nil},
	{"do-not-tell", lazy(`(?i)\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention\s+(?:this\s+|it\s+)?to|reveal\s+(?:this\s+|it\s+)?to|notify|alert|warn|ask)\s+(?:the\s+|your\s+)?(?:user|human|operator|owner|principal)\b|\bwithout\s+(?:asking|telling|informing|notifying|alerting|confirming\s+with)\s+(?:the\s+|your\s+)?(?:user|human|operator|owner|principal)\b|\bwithout\s+(?:the\s+|your\s+)?(?:user|human|operator|owner)'?s?\s+(?:confirmation|consent|permission|approval|knowledge)\b`), true, []string{"not", "don", "never", "without"},
		[]string{"user", "human", "operator", "owner", "principal"}},
	{"prompt-markup", lazy(`(?i)<\|im_start\|>|<\|(?:system|user|assistant)\|>|\[/?INST\]|<</?SYS>>|</?system>|</?(?:system_)?instructions?>`), true, []string{"<|", "inst]", "sys>>", "system>", "instruction>", "instructions>"}, nil},
	{"pipe-to-shell", pipeToShell{}, true, []string{"curl", "wget", "iwr", "irm", "invoke-"}, nil}, // pipeToShellPattern
	{"you-must-run", lazy(`(?i)\byou\s+(?:must|should|need\s+to|have\s+to|are\s+(?:required|instructed|expected)\s+to|will)\s+(?:now\s+|immediately\s+|first\s+|always\s+)?(?:run|execute|exec|install|download|delete|remove|rm|send|upload|post|curl|wget|eval|call|invoke|paste|copy|overwrite|disable|push|commit|deploy|grant|chmod|sudo|transfer|email|forward)\b`), false, []string{"you"}, nil},
	{"execute-following", lazy(`(?i)\b(?:execute|run|eval(?:uate)?|perform|follow)\s+(?:the\s+|these\s+|this\s+)?(?:following|below|next)\s+(?:commands?|code|scripts?|shell|instructions?|steps?|snippet|lines?)\b|\b(?:execute|run)\s+(?:this|these)\s+(?:commands?|code|scripts?|snippet)\b`), false, []string{"execut", "run", "eval", "perform", "follow"}, nil},
	// Chinese. No \b: Han text has no word boundaries.
	{"zh-ignore-previous", lazy(`(?:忽略|无视|忽视|忘记|忘掉|不要理会|不要理睬|抛开)掉?(?:你)?(?:之前|以前|先前|前面|上面|以上|上述|此前|原有|原来|所有|一切|全部)`), true, []string{"忽略", "无视", "忽视", "忘记", "忘掉", "不要理", "抛开"}, nil},
	{"zh-you-are-now", lazy(`你现在是|从现在(?:开始|起)[，,]?\s*你|假装你是|你的新(?:角色|任务|指令|身份)|你是一(?:个|名|位)(?:乐于助人的|有用的|专业的)?(?:AI|ai|人工智能|助手|智能体|机器人|语言模型)`), true, []string{"你现在是", "从现在", "假装你是", "你的新", "你是一"}, nil},
	{"zh-do-not-tell", lazy(`不要(?:告诉|告知|通知|提醒|询问|让)(?:用户|人类|操作员|主人|任何人)|(?:无需|不用|不必|不需要)(?:询问|征求|经过)?(?:用户|人类|主人|操作员)(?:的)?(?:确认|同意|许可|批准)`), true, []string{"不要", "无需", "不用", "不必", "不需要"}, nil},
	{"zh-new-instructions", lazy(`(?:新的|真正的|隐藏的|额外的|重要)(?:指令|指示|系统提示)[:：]|系统提示词?[:：]|如果你是(?:一个)?(?:AI|ai|人工智能|大模型|语言模型|助手|智能体)`), true, []string{"指令", "指示", "系统提示", "如果你是"}, nil},
	{"zh-execute", lazy(`请(?:你)?(?:立即|马上|直接|立刻|自动)?(?:执行|运行)|(?:执行|运行)(?:以下|下面|下列|如下)|(?:立即|马上|立刻|自动)(?:执行|运行)`), false, []string{"执行", "运行"}, nil},
	{"zh-you-must-run", lazy(`你(?:必须|务必|一定要|需要立即|应当立即|应该立即)(?:立即|马上|先)?(?:执行|运行|安装|下载|删除|发送|上传|打开|访问|调用|提交|推送)`), false, []string{"你"}, nil},
}

// anchoredRules are the rules whose every match begins with one of their
// needles, at the start of a word (the rule's verb), so in a window the
// regexp is tried only at those places, anchored there, instead of run
// over the window: most windows around a common verb ("run", "follow")
// hold no match, and an anchored attempt fails within a few bytes.
var anchoredRules = []string{"ignore-previous", "disregard-above", "execute-following", "you-must-run"}

// ruleAnchored is anchoredRules by rule index.
var ruleAnchored = func() (a [16]bool) {
	for i := range instrRules {
		a[i] = slices.Contains(anchoredRules, instrRules[i].id)
	}
	return a
}()

// Instructions returns every sentence of s that reads like an instruction to
// an AI (D13; spec §4.5.2: reported to the human, never executed), English and
// Chinese. Where is empty; Offset is the byte offset of the match; Excerpt is
// the sentence around it, with credentials redacted.
func Instructions(s string) []Finding {
	fs := instructions(s, false)
	return append(fs, hiddenInstructions(s, false, fs)...)
}

// MaxInstructionsPerString bounds the instruction findings kept for one
// string (issue 18): the first ones, by offset, then one finding
// (rule "more-instructions") that counts the rest. Counting stays linear; a
// field made of "ignore previous instructions" repeated a million times is
// reported as six findings, not a million.
const MaxInstructionsPerString = 5

// RuleMoreInstructions is the rule of the finding that counts what
// MaxInstructionsPerString left out.
const RuleMoreInstructions = "more-instructions"

// instrCountCap bounds the matches counted per shape in one string: past
// it the count says "at least", and the scan stops looking for that shape,
// so a flood costs no more than this many matches of each.
const instrCountCap = 1000

func instructions(s string, strongOnly bool) []Finding {
	return instructionsIn(s, strongOnly, true)
}

// instructionsIn is instructions; prefilter false skips ruleWindows and the
// words lists, searching each rule's needles in turn (for the tests holding
// the prefilters to the same findings).
func instructionsIn(s string, strongOnly, prefilter bool) []Finding {
	type match struct {
		a, b int
		rule string
	}
	var ms []match
	capped := false
	low := asciiLower(s)
	var wins [][2]int
	cand := ^uint16(0)
	// The needles are ASCII; a pattern folds ſ to s and the Kelvin sign to
	// k, so in a string holding either every rule is a candidate and its
	// needles are looked for written both ways.
	twin := hasFoldTwin(s)
	fast := prefilter && !twin
	var byRule [16][][2]int
	var startsBy [16][]int
	if fast {
		want := ^uint16(0)
		if strongOnly {
			want = strongRules()
		}
		cand = ruleWindows(s, low, want, &byRule, &startsBy)
		for i := range instrRules {
			if w := instrRules[i].words; cand&(1<<i) != 0 && w != nil && !hasWordStart(low, w) {
				cand &^= 1 << i
			}
		}
	}
	for i := range instrRules {
		r := &instrRules[i]
		if strongOnly && !r.strong || cand&(1<<i) == 0 {
			continue
		}
		if fast {
			wins = byRule[i]
		} else {
			needles := r.needles
			if twin {
				needles = twinNeedles(i)
			}
			wins = needleWindows(wins[:0], s, low, needles)
		}
		got := 0
		for _, w := range wins {
			if got >= instrCountCap {
				capped = true
				break
			}
			if fast && r.words != nil && !hasWordStart(low[w[0]:w[1]], r.words) {
				// Every match holds one of the words, so a window without
				// one holds no match (a window starts at a word's start).
				continue
			}
			if fast && ruleAnchored[i] {
				// What FindAll over the window finds: the first match at
				// or after where the last one ended, each beginning at one
				// of the places the needles begin a word.
				starts, from := startsBy[i], w[0]
				for len(starts) > 0 && starts[0] < w[0] {
					starts = starts[1:]
				}
				for ; len(starts) > 0 && starts[0] < w[1] && got < instrCountCap; starts = starts[1:] {
					p := starts[0]
					if p < from {
						continue
					}
					if m := r.re.(*lazyRegexp).anchoredAt(s[p:w[1]]); m >= 0 {
						ms = append(ms, match{p, p + m, r.id})
						got++
						from = p + max(m, 1)
					}
				}
				startsBy[i] = starts
				continue
			}
			for _, m := range r.re.FindAllStringIndex(s[w[0]:w[1]], instrCountCap-got) {
				ms = append(ms, match{w[0] + m[0], w[0] + m[1], r.id})
				got++
			}
		}
	}
	// Imperatives, unless another rule already covers the sentence. Like
	// "you must run", they are the ordinary content of an ask and of a
	// check's how, so Object does not report them inside asks[] and
	// landing_checks[] (strongOnly).
	covered := func(a, b int) bool {
		for _, m := range ms {
			if m.a < b+sentenceAfter && a < m.b+sentenceAfter && m.rule != "imperative" && m.rule != "zh-imperative" {
				return true
			}
		}
		return false
	}
	n := len(ms)
	var imps []imperativeMatch
	if !strongOnly {
		imps = imperatives(s, instrCountCap)
		capped = capped || len(imps) == instrCountCap
	}
	for _, m := range imps {
		if n == 0 || n < 64 && !covered(m.at, m.end) || n >= 64 {
			ms = append(ms, match{m.at, m.end, m.rule})
		}
	}
	if len(ms) == 0 {
		return nil
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].a < ms[j].a })
	// One finding per stretch of text: two shapes matching the same words
	// are one sentence to report.
	dedup := ms[:1]
	for _, m := range ms[1:] {
		if last := dedup[len(dedup)-1]; m.a < last.b {
			continue
		}
		dedup = append(dedup, m)
	}
	ms = dedup
	keep := ms
	if len(keep) > MaxInstructionsPerString {
		keep = keep[:MaxInstructionsPerString]
	}
	spans := spansOf(s)
	out := make([]Finding, 0, len(keep)+1)
	for _, m := range keep {
		out = append(out, Finding{Class: Instruction, Rule: m.rule, Offset: int64(m.a), Excerpt: sentence(s, spans, m.a, m.b)})
	}
	if rest := len(ms) - len(keep); rest > 0 {
		n := strconv.Itoa(rest)
		if capped {
			n = "at least " + n
		}
		out = append(out, Finding{Class: Instruction, Rule: RuleMoreInstructions, Offset: int64(ms[len(keep)].a),
			Excerpt: n + " more sentences here read like instructions; not listed"})
	}
	return out
}

// The needle tables, built on first use. needleRow[b0], when not 0, is one
// more than the index of b0's row in needleRows; a row maps b1 to one more
// than the index in needlePairs of the needles that start with b0 b1. A row
// per first byte in use (about 40 of 256 bytes) rather than a table of every
// pair (128 KiB, a fresh process's page faults).
var (
	needleStartsOnce sync.Once
	needleRow        [256]uint8
	needleRows       [][256]uint8
	needlePairs      []needlePair
	needleList       []needle // every needle of every rule, once
)

type needlePair struct {
	rules   uint16  // the rules with a needle starting so, a bit per rule in instrRules' order
	needles []uint8 // indexes in needleList
}

type needle struct {
	s     string
	rules uint16
}

func buildNeedleStarts() {
	if len(instrRules) > 16 {
		panic("scan: more instruction rules than needlePair.rules has bits")
	}
	ids := map[string]int{}
	for i, r := range instrRules {
		for _, n := range r.needles {
			if len(n) < 2 {
				panic("scan: a needle shorter than two bytes: " + n)
			}
			id, ok := ids[n]
			if !ok {
				id = len(needleList)
				ids[n] = id
				needleList = append(needleList, needle{s: n})
			}
			needleList[id].rules |= 1 << i
			if needleRow[n[0]] == 0 {
				needleRows = append(needleRows, [256]uint8{})
				needleRow[n[0]] = uint8(len(needleRows))
			}
			cell := &needleRows[needleRow[n[0]]-1][n[1]]
			if *cell == 0 {
				needlePairs = append(needlePairs, needlePair{})
				*cell = uint8(len(needlePairs))
			}
			pr := &needlePairs[*cell-1]
			pr.rules |= 1 << i
			if !ok {
				pr.needles = append(pr.needles, uint8(id))
			}
		}
	}
	if len(needleList) > 255 || len(needlePairs) > 255 || len(needleRows) > 255 {
		panic("scan: more needles than the needle tables index")
	}
}

// strongRules has a bit set for each strong rule, in instrRules' order.
func strongRules() uint16 {
	var m uint16
	for i, r := range instrRules {
		if r.strong {
			m |= 1 << i
		}
	}
	return m
}

// ruleWindows is, for each rule in want, the windows needleWindows would
// return for its needles, found in one pass over low instead of a search
// per needle: in a 64 KiB batch of prose most rules' needles start with a
// common pair of bytes, and searching for each of them in turn was most of
// what scanning text luggage cost (issue 20); in many short strings, one
// pass instead of about 70 searches is most of the saving. It returns the
// rules that got a window: a rule without one has no needle in low.
func ruleWindows(s, low string, want uint16, out *[16][][2]int, starts *[16][]int) uint16 {
	needleStartsOnce.Do(buildNeedleStarts)
	// needleWindows finds a needle's occurrences that do not overlap each
	// other; so does this, by where each needle's last one ended.
	var lastEnd [256]int
	for i := 0; i+1 < len(low); i++ {
		row := needleRow[low[i]]
		if row == 0 {
			continue
		}
		c := needleRows[row-1][low[i+1]]
		if c == 0 || needlePairs[c-1].rules&want == 0 {
			continue
		}
		for _, id := range needlePairs[c-1].needles {
			n := &needleList[id]
			if n.rules&want == 0 || i < lastEnd[id] || !strings.HasPrefix(low[i:], n.s) {
				continue
			}
			lastEnd[id] = i + len(n.s)
			w := [2]int{max(0, i-instrSpan), min(len(s), i+len(n.s)+instrSpan)}
			wordStart := i == 0 || !isWordByte(low[i-1])
			for b := n.rules & want; b != 0; b &= b - 1 {
				k := bits.TrailingZeros16(b)
				out[k] = append(out[k], w)
				if starts != nil && wordStart && ruleAnchored[k] {
					starts[k] = append(starts[k], i)
				}
			}
		}
	}
	var found uint16
	for k := range out {
		if len(out[k]) > 0 {
			out[k] = mergeWindows(out[k], s)
			found |= 1 << k
		}
	}
	return found
}

// hasWordStart reports whether one of words begins a word of low.
func hasWordStart(low string, words []string) bool {
	for _, w := range words {
		for off := 0; ; {
			k := strings.Index(low[off:], w)
			if k < 0 {
				break
			}
			if p := off + k; p == 0 || !isWordByte(low[p-1]) {
				return true
			}
			off += k + 1
		}
	}
	return false
}

// hasFoldTwin reports whether s holds ſ (U+017F) or the Kelvin sign
// (U+212A), the only characters outside ASCII that Go's case-insensitive
// patterns take for ASCII letters (s and k; TestFoldTwinsAreTheOnlyOnes).
// Their first bytes, 0xC5 and 0xE2, rule most text out in one pass each.
func hasFoldTwin(s string) bool {
	return strings.IndexByte(s, 0xC5) >= 0 && strings.Contains(s, "ſ") ||
		strings.IndexByte(s, 0xE2) >= 0 && strings.Contains(s, "\u212a")
}

// twinNeedles is rule i's needles with every s and k also written as its
// fold twin, built on first use.
func twinNeedles(i int) []string {
	twinNeedlesOnce.Do(func() {
		twinNeedlesOf = make([][]string, len(instrRules))
		for j, r := range instrRules {
			for _, n := range r.needles {
				twinNeedlesOf[j] = append(twinNeedlesOf[j], spellings(n)...)
			}
		}
	})
	return twinNeedlesOf[i]
}

var (
	twinNeedlesOnce sync.Once
	twinNeedlesOf   [][]string
)

// spellings is every way of writing n with its s and k as themselves or as
// their fold twins.
func spellings(n string) []string {
	out := []string{""}
	for _, c := range n {
		alts := []string{string(c)}
		switch c {
		case 's':
			alts = append(alts, "ſ")
		case 'k':
			alts = append(alts, "\u212a")
		}
		next := make([]string, 0, len(out)*len(alts))
		for _, p := range out {
			for _, a := range alts {
				next = append(next, p+a)
			}
		}
		out = next
	}
	return out
}

// instrSpan bounds how far a match may reach from its needle. A sentence
// longer than that around one keyword is not what these shapes describe.
const instrSpan = 320

// needleWindows returns the merged, disjoint windows of s around every
// occurrence of a needle in low, widened to word and rune boundaries so the
// regexps' \b sees the same text it would in the whole string.
func needleWindows(wins [][2]int, s, low string, needles []string) [][2]int {
	for _, n := range needles {
		for off := 0; ; {
			k := strings.Index(low[off:], n)
			if k < 0 {
				break
			}
			p := off + k
			off = p + len(n)
			wins = append(wins, [2]int{max(0, p-instrSpan), min(len(s), p+len(n)+instrSpan)})
		}
	}
	return mergeWindows(wins, s)
}

// mergeWindows sorts and merges windows and widens each to word and rune
// boundaries (merging again where widening made neighbours overlap).
func mergeWindows(wins [][2]int, s string) [][2]int {
	if len(wins) == 0 {
		return wins
	}
	sort.Slice(wins, func(i, j int) bool { return wins[i][0] < wins[j][0] })
	merged := wins[:1]
	for _, w := range wins[1:] {
		last := &merged[len(merged)-1]
		if w[0] <= last[1] {
			last[1] = max(last[1], w[1])
		} else {
			merged = append(merged, w)
		}
	}
	for i := range merged {
		lo, hi := merged[i][0], merged[i][1]
		for lo > 0 && (!utf8.RuneStart(s[lo]) || isWordByte(s[lo-1])) {
			lo--
		}
		for hi < len(s) && (!utf8.RuneStart(s[hi]) || isWordByte(s[hi])) {
			hi++
		}
		merged[i] = [2]int{lo, hi}
	}
	// Widening may make neighbours overlap again.
	out := merged[:1]
	for _, w := range merged[1:] {
		last := &out[len(out)-1]
		if w[0] <= last[1] {
			last[1] = max(last[1], w[1])
		} else {
			out = append(out, w)
		}
	}
	return out
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// asciiLower folds ASCII letters only, so byte offsets stay the same.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !(s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if b[i] >= 'A' && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

const (
	sentenceBefore = 80  // bytes looked at before a match for the sentence start
	sentenceAfter  = 120 // and after it for the sentence end
)

// sentence is the sentence of s around [i, j), bounded, on rune boundaries,
// with credentials redacted.
func sentence(s string, spans []span, i, j int) string {
	lo := i - sentenceBefore
	if lo < 0 {
		lo = 0
	}
	for k := i - 1; k >= lo; k-- {
		c := s[k]
		if c == '\n' || c == '\r' || (c == '.' || c == '!' || c == '?') && k+1 < len(s) && s[k+1] == ' ' {
			lo = k + 1
			break
		}
		if r, n := utf8.DecodeLastRuneInString(s[:k+1]); n > 1 && strings.ContainsRune("。！？；", r) {
			lo = k + 1
			break
		}
	}
	for lo < i && !utf8.RuneStart(s[lo]) {
		lo++
	}
	hi := j + sentenceAfter
	if hi > len(s) {
		hi = len(s)
	}
	for k := j; k < hi; k++ {
		c := s[k]
		if c == '\n' || c == '\r' {
			hi = k
			break
		}
		// As for the start: a stop ends the sentence only before a space
		// or the end, so a path, a host or a version ("~/.ssh",
		// "evil.example", "v1.2") stays in the excerpt whole.
		if (c == '.' || c == '!' || c == '?') && (k+1 == len(s) || s[k+1] == ' ' || s[k+1] == '\t' || s[k+1] == '\n' || s[k+1] == '\r') {
			hi = k + 1
			break
		}
		if r, n := utf8.DecodeRuneInString(s[k:]); n > 1 && strings.ContainsRune("。！？；", r) {
			hi = k + n
			break
		}
	}
	for hi < len(s) && hi > j && !utf8.RuneStart(s[hi]) {
		hi--
	}
	out := strings.TrimFunc(redactRange(s, spans, lo, hi), unicode.IsSpace)
	if lo > 0 && lo == i-sentenceBefore {
		out = "…" + out
	}
	if hi < len(s) && hi == j+sentenceAfter {
		out += "…"
	}
	return out
}

// Instruction fields (§4.5.1: "how_to_use_this_file and friends are
// forbidden"). A key is compared after folding case and dropping separators
// (space, _, -, ., :), so howToUseThisFile, HOW-TO-USE and "how to use" are
// one name.
//
// The list: the exact names below; any name starting "howtouse"; any name
// ending "instruction(s)", "prompt(s)" or "directive(s)" (agent_instructions,
// system_prompt, customInstructions). Not "how", "how_to_verify", "check" or
// "note": those are data the spec itself defines or invites.
func isInstructionFieldName(s string) bool {
	// A switch, not a map: nothing to build at start-up (issue 20).
	switch s {
	case "howtousethisfile", "howtouse", "readmefirst", "readfirst", "readthisfirst", "systemmessage",
		"developermessage", "noteforai", "notetoai", "notetoagent", "notetoassistant", "notetomodel",
		"noteforagent", "noteforassistant", "messagetoai", "messagetoagent", "forai", "foragent", "toai", "aitodo",
		"todoforai", "agenttodo", "jailbreak", "autorun", "autoexec", "autoexecute", "onload", "onland",
		"onlanding", "onopen", "onreceive", "postland", "runonland", "runonopen", "使用说明", "使用方法", "如何使用",
		"如何使用此文件", "如何使用这个文件", "指令", "指示", "系统提示", "系统提示词", "提示词", "给ai的说明", "给ai的指示", "致ai":
		return true
	}
	return false
}

var instructionFieldSuffixes = []string{"instruction", "instructions", "prompt", "prompts", "directive", "directives", "指令", "提示词"}

// normalizeKey folds case and drops separators.
func normalizeKey(key string) string {
	var b strings.Builder
	for _, r := range key {
		switch r {
		case ' ', '_', '-', '.', ':', '\t', '　':
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// IsInstructionField reports whether a key of the pack object names an
// instruction field (§4.5.1, D13).
func IsInstructionField(key string) bool {
	k := normalizeKey(key)
	if k == "" {
		return false
	}
	if isInstructionFieldName(k) || strings.HasPrefix(k, "howtouse") {
		return true
	}
	for _, suf := range instructionFieldSuffixes {
		if strings.HasSuffix(k, suf) {
			return true
		}
	}
	return false
}
