package pack

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// ExtensionTag is a bag tag file beyond D2's four that both encodings carry
// (D3): in the bag it is the tag file Bag, listed in tagmanifest-sha256.txt
// after manifest-sha256.txt; in the flat form it is the top-level member
// Flat, a JSON string whose UTF-8 bytes are the tag file's bytes, written
// after "attachments". Convert carries it both ways, so C9's round trip
// reproduces it byte for byte.
type ExtensionTag struct {
	Bag  string // the tag file's name at the top of the bag
	Flat string // the flat form's top-level member
}

// ExtensionTags are the extension tag files tp knows, in the order they are
// written (bag entries, tagmanifest lines, flat members). Every other tag
// file fails C9: the flat form has no place for it (D3).
var ExtensionTags = []ExtensionTag{
	{Bag: TagSignature, Flat: FlatSignature},
}

// The pack signature (issue 19, D3): its bag tag file and flat member.
const (
	TagSignature  = "taskpack.sshsig"
	FlatSignature = "signature"
)

// RuleTagFile is C9's rule for a tag file the round trip does not
// reproduce; RuleExtension is a reader's for an extension member that is
// not text.
const (
	RuleTagFile   = "§2 C9 tag-file"
	RuleExtension = "§2 C9 extension"
)

// RepairTagDropped is reported by ConvertRepairs only (like RepairDropped):
// a bag tag file that is neither D2's nor an extension tag, which the flat
// form has no place for.
const RepairTagDropped = "dropped-tag-file"

func extensionByBag(name string) (ExtensionTag, bool) {
	for _, e := range ExtensionTags {
		if e.Bag == name {
			return e, true
		}
	}
	return ExtensionTag{}, false
}

func extensionByFlat(member string) (ExtensionTag, bool) {
	for _, e := range ExtensionTags {
		if e.Flat == member {
			return e, true
		}
	}
	return ExtensionTag{}, false
}

// derivedTag says whether a bag tag file is one of D2's four, which both
// encodings rebuild from the content.
func derivedTag(name string) bool {
	switch name {
	case tagBagIt, tagBagInfo, tagManifest, tagTagManifest:
		return true
	}
	return false
}

// checkExtensionBytes is what a writer and C9 require of an extension tag
// file: text that a JSON string carries unchanged (valid UTF-8).
func checkExtensionBytes(name string, b []byte) error {
	if !utf8.Valid(b) {
		return &Error{Entry: name, Rule: RuleExtension, Detail: "an extension tag file must be UTF-8 text: the flat form carries it as a JSON string (D3)"}
	}
	return nil
}

// checkSourceTags refuses tag files a writer may not add: names that are
// not extension tags, and bytes the flat form cannot carry.
func checkSourceTags(tags map[string][]byte) error {
	for _, name := range sortedKeys(tags) {
		if _, ok := extensionByBag(name); !ok {
			return &Error{Entry: name, Rule: RuleExtension, Detail: "not an extension tag file tp knows (D3): the flat form would have no place for it"}
		}
		if err := checkExtensionBytes(name, tags[name]); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// unknownTags are the bag's tag files that are neither D2's nor extension
// tags, sorted.
func (l *loaded) unknownTags() []string {
	var out []string
	for name := range l.bagTags {
		if _, ok := extensionByBag(name); !ok && !derivedTag(name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// extensionTags are the extension tag files the pack carries, by bag name.
func (l *loaded) extensionTags() map[string][]byte {
	out := map[string][]byte{}
	for _, e := range ExtensionTags {
		if b, ok := l.bagTags[e.Bag]; ok && l.enc == EncodingBag {
			out[e.Bag] = b
		}
		if b, ok := l.flatExt[e.Bag]; ok && l.enc != EncodingBag {
			out[e.Bag] = b
		}
	}
	return out
}

// compareBagInfo compares bag-info.txt as read with D2's rebuild. The two
// labels that name the writer rather than the content — Bag-Software-Agent
// and Bag-Spec — are taken from the bag as read (a writer names itself);
// every other line must be exactly D2's derivation, in D2's order, and no
// other line may be there. The answer is "" when they agree, else one line
// naming the first difference.
func compareBagInfo(got, rebuilt []byte) string {
	if bytes.Equal(got, rebuilt) {
		return ""
	}
	g := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	r := strings.Split(strings.TrimSuffix(string(rebuilt), "\n"), "\n")
	label := func(s string) string { k, _, _ := strings.Cut(s, ":"); return k }
	rl := map[string]bool{}
	for _, s := range r {
		rl[label(s)] = true
	}
	gl := map[string]bool{}
	for _, s := range g {
		gl[label(s)] = true
		if !rl[label(s)] {
			return fmt.Sprintf("bag-info.txt line %q is not one the flat form can rebuild (D2 derives every line from the content)", clip(s, 80))
		}
	}
	for _, s := range r {
		if !gl[label(s)] {
			return fmt.Sprintf("bag-info.txt has no %s line; rebuilt from the flat form it has %q", label(s), clip(s, 80))
		}
	}
	for i := 0; i < len(g) && i < len(r); i++ {
		if g[i] != r[i] {
			return fmt.Sprintf("bag-info.txt line %d is %q; rebuilt from the content it is %q", i+1, clip(g[i], 80), clip(r[i], 80))
		}
	}
	return "bag-info.txt differs from D2's rebuild (line endings or blank lines)"
}
