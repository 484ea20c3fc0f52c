package acts

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// The rewrite similarity measure of §4 step 5 (see [Similar]).

// Thresholds of the rewrite similarity measure; see [Similar].
const (
	rewriteDice        = 0.5
	rewriteContainment = 0.8
	rewriteMinBigrams  = 4
	rewriteMinRun      = 8
	rewriteRunShare    = 0.4
)

// lineIndex holds the task lines' features, each computed the first time a
// vanished key is compared with it.
type lineIndex struct {
	lines []*Line
	idx   []int // each line's index in the document
	feats []*textFeatures
	work  int // comparison steps left in this run (rewriteBudget)
}

// rewriteBudget bounds the comparison steps (bigrams merged, characters of
// a run searched) one registrar run spends looking for rewrites of
// vanished keys: every vanished key is compared with every task line, so a
// document whose lines were all replaced costs keys × lines comparisons
// (100 s for a 1.8 MB document, issue 15). Once it is spent, the keys left
// are not compared and get a warning instead of a claim (D16): the measure
// errs towards warning.
const rewriteBudget = 1 << 26

type textFeatures struct {
	runes   []rune
	weight  int      // length, CJK counting twice
	bigrams []uint64 // distinct character bigrams, two runes packed, sorted
}

func features(text string) textFeatures {
	f := textFeatures{runes: make([]rune, 0, utf8.RuneCountInString(text))}
	for _, c := range text {
		if unicode.IsLetter(c) || unicode.IsNumber(c) {
			c = unicode.ToLower(c)
			f.runes = append(f.runes, c)
			f.weight += runeWeight(c)
		}
	}
	rs := f.runes
	switch len(rs) {
	case 0:
		return f
	case 1:
		f.bigrams = []uint64{uint64(rs[0])}
		return f
	}
	f.bigrams = make([]uint64, len(rs)-1)
	for i := range f.bigrams {
		f.bigrams[i] = uint64(rs[i])<<32 | uint64(rs[i+1])
	}
	slices.Sort(f.bigrams)
	f.bigrams = slices.Compact(f.bigrams)
	return f
}

func runeWeight(c rune) int {
	if c < 0x1100 { // below Hangul Jamo, the first of the four scripts
		return 1
	}
	if unicode.In(c, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
		return 2
	}
	return 1
}

// Similar reports whether b looks like a rewrite of a: the similarity
// measure §4 step 5 leaves to implementations.
//
// A text is case-folded and reduced to its letters and digits (so spacing,
// punctuation and their widths do not count). Two texts are a rewrite of
// each other when any of these holds:
//
//   - the Sørensen–Dice coefficient of their sets of character bigrams is
//     at least 0.5 (a one-character text is its one character);
//   - at least 80% of the smaller bigram set is in the larger, and the
//     smaller has at least 4 bigrams (an addition: "Renew the domain" →
//     "Renew the domain for two years");
//   - they share a run of at least 8 characters that is at least 40% of the
//     shorter text, CJK characters counting twice ("Collect the shed key" →
//     "Pick up the shed key from Ann").
//
// Character bigrams and runs work the same for English words and for
// Chinese, which has no spaces. The measure errs towards warning: a false
// warning costs the operator a look; a false claim asks the principal about
// work still to be done.
func Similar(a, b string) bool {
	return similarFeatures(features(a), features(b))
}

func similarFeatures(a, b textFeatures) bool {
	ok, _ := similarCost(a, b, nil)
	return ok
}

// similarCost is similarFeatures with the steps it took. sam, when not
// nil, holds a's suffix automaton, built the first time a long run search
// needs it and kept for a's next comparison.
func similarCost(a, b textFeatures, sam **suffixAutomaton) (bool, int) {
	na, nb := len(a.bigrams), len(b.bigrams)
	cost := na + nb + 1
	if na == 0 || nb == 0 {
		return false, cost
	}
	common := 0
	for i, j := 0, 0; i < na && j < nb; {
		switch {
		case a.bigrams[i] < b.bigrams[j]:
			i++
		case a.bigrams[i] > b.bigrams[j]:
			j++
		default:
			common++
			i++
			j++
		}
	}
	if 2*float64(common)/float64(na+nb) >= rewriteDice {
		return true, cost
	}
	if small := min(na, nb); small >= rewriteMinBigrams && float64(common) >= rewriteContainment*float64(small) {
		return true, cost
	}
	if common < 3 {
		return false, cost // no shared run of 4 characters or more
	}
	shorter := min(a.weight, b.weight)
	if shorter < rewriteMinRun {
		return false, cost // no run of 8 fits in the shorter
	}
	var run int
	switch la, lb := len(a.runes), len(b.runes); {
	case la*lb <= dpCells:
		run = longestCommonRunDP(a.runes, b.runes)
		cost += la * lb
	case sam != nil:
		if *sam == nil {
			*sam = newSuffixAutomaton(a.runes)
			cost += 8 * la
		}
		run = (*sam).longestRun(b.runes)
		cost += 2 * lb
	default:
		run = longestCommonRun(a.runes, b.runes)
		cost += 8 * (la + lb)
	}
	return run >= rewriteMinRun && float64(run) >= rewriteRunShare*float64(shorter), cost
}

// longestCommonRun is the weight of the longest common substring of a and b
// (the heaviest: weights are positive, so at each end the longest common
// run is also the heaviest). Short texts use dynamic programming over one
// row; longer ones a suffix automaton of the shorter text walked by the
// longer, linear in their lengths (a task line may be 64 KiB, and the
// quadratic table then took seconds per pair, issue 15).
func longestCommonRun(a, b []rune) int {
	if len(a)*len(b) <= dpCells {
		return longestCommonRunDP(a, b)
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return longestCommonRunSAM(a, b)
}

// dpCells is the largest table the quadratic algorithm fills.
const dpCells = 1 << 14

func longestCommonRunDP(a, b []rune) int {
	best := 0
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + runeWeight(a[i-1])
				if cur[j] > best {
					best = cur[j]
				}
			} else {
				cur[j] = 0
			}
		}
		prev, cur = cur, prev
	}
	return best
}

type samState struct {
	length, link int32
	next         map[rune]int32
}

// suffixAutomaton is the suffix automaton of a text: every substring of it
// is a path from the start.
type suffixAutomaton struct{ st []samState }

func newSuffixAutomaton(a []rune) *suffixAutomaton {
	sa := make([]samState, 1, 2*len(a)+1)
	sa[0] = samState{link: -1, next: map[rune]int32{}}
	last := int32(0)
	for _, c := range a {
		cur := int32(len(sa))
		sa = append(sa, samState{length: sa[last].length + 1, next: map[rune]int32{}})
		p := last
		for p != -1 {
			if _, ok := sa[p].next[c]; ok {
				break
			}
			sa[p].next[c] = cur
			p = sa[p].link
		}
		if p == -1 {
			sa[cur].link = 0
		} else if q := sa[p].next[c]; sa[p].length+1 == sa[q].length {
			sa[cur].link = q
		} else {
			clone := int32(len(sa))
			next := make(map[rune]int32, len(sa[q].next))
			for k, v := range sa[q].next {
				next[k] = v
			}
			sa = append(sa, samState{length: sa[p].length + 1, link: sa[q].link, next: next})
			for p != -1 && sa[p].next[c] == q {
				sa[p].next[c] = clone
				p = sa[p].link
			}
			sa[q].link = clone
			sa[cur].link = clone
		}
		last = cur
	}
	return &suffixAutomaton{st: sa}
}

// longestRun walks b through the automaton, keeping at each position of b
// the longest suffix that is a substring of the automaton's text; its
// weight comes from b's prefix weights.
func (m *suffixAutomaton) longestRun(b []rune) int {
	sa := m.st
	weight := make([]int, len(b)+1) // weight[j]: of b[:j]
	for j, c := range b {
		weight[j+1] = weight[j] + runeWeight(c)
	}
	best := 0
	v, l := int32(0), int32(0)
	for j, c := range b {
		for v != 0 {
			if _, ok := sa[v].next[c]; ok {
				break
			}
			v = sa[v].link
			l = sa[v].length
		}
		if t, ok := sa[v].next[c]; ok {
			v = t
			l++
		} else {
			v, l = 0, 0
		}
		if w := weight[j+1] - weight[j+1-int(l)]; w > best {
			best = w
		}
	}
	return best
}

// longestCommonRunSAM builds the suffix automaton of a and walks b through it.
func longestCommonRunSAM(a, b []rune) int {
	return newSuffixAutomaton(a).longestRun(b)
}

func (r *registrar) taskFeatures() *lineIndex {
	x := &lineIndex{}
	for i := range r.d.Lines {
		if l := &r.d.Lines[i]; l.Kind == KindTask {
			x.lines = append(x.lines, l)
			x.idx = append(x.idx, i)
		}
	}
	x.feats = make([]*textFeatures, len(x.lines))
	x.work = rewriteBudget
	if r.in.rewriteBudget > 0 {
		x.work = r.in.rewriteBudget
	}
	return x
}

// rewriteOf returns the number of the first task line that may be (may)
// and looks like a rewrite of a text with features f; spent when the
// run's comparison budget ran out before every line was compared.
func (x *lineIndex) rewriteOf(f textFeatures, may func(i int, l *Line) bool) (num int, ok, spent bool) {
	var sam *suffixAutomaton // f's, built when a long run search needs it
	for i, l := range x.lines {
		if !may(x.idx[i], l) {
			continue
		}
		if x.work <= 0 {
			return 0, false, true
		}
		if x.feats[i] == nil {
			lf := features(l.TaskText)
			x.feats[i] = &lf
			x.work -= len(lf.runes)
		}
		similar, cost := similarCost(f, *x.feats[i], &sam)
		x.work -= cost
		if similar {
			return l.Num, true, false
		}
	}
	return 0, false, false
}
