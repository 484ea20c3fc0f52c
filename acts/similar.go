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
}

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
	na, nb := len(a.bigrams), len(b.bigrams)
	if na == 0 || nb == 0 {
		return false
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
		return true
	}
	if small := min(na, nb); small >= rewriteMinBigrams && float64(common) >= rewriteContainment*float64(small) {
		return true
	}
	if common < 3 {
		return false // no shared run of 4 characters or more
	}
	run := longestCommonRun(a.runes, b.runes)
	shorter := min(a.weight, b.weight)
	return run >= rewriteMinRun && float64(run) >= rewriteRunShare*float64(shorter)
}

// longestCommonRun is the weight of the longest common substring of a and b
// (dynamic programming over one row; texts are one line long).
func longestCommonRun(a, b []rune) int {
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

func (r *registrar) taskFeatures() *lineIndex {
	x := &lineIndex{}
	for i := range r.d.Lines {
		if l := &r.d.Lines[i]; l.Kind == KindTask {
			x.lines = append(x.lines, l)
			x.idx = append(x.idx, i)
		}
	}
	x.feats = make([]*textFeatures, len(x.lines))
	return x
}

// rewriteOf returns the number of the first task line that may be (may)
// and looks like a rewrite of a text with features f.
func (x *lineIndex) rewriteOf(f textFeatures, may func(i int, l *Line) bool) (int, bool) {
	for i, l := range x.lines {
		if !may(x.idx[i], l) {
			continue
		}
		if x.feats[i] == nil {
			lf := features(l.TaskText)
			x.feats[i] = &lf
		}
		if similarFeatures(f, *x.feats[i]) {
			return l.Num, true
		}
	}
	return 0, false
}
