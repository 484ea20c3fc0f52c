package landing

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack/scan"
)

// Preflight is what a sender should know before a pack leaves — warnings,
// never refusals: only the sender knows whether the receiver already has
// that drive mounted or will understand that terse accept. Refusals are
// Refusals' (§4.1).
//
//   - an artifact naming an absolute local path that no luggage carries
//     (the receiver cannot open it);
//   - a fact without scope (it will be treated, and sealed, as machine, §4.2);
//   - an ask whose accept is too vague to judge an answer by (§4.3);
//   - a luggage name with "%": tp writes it as %25 in the manifest, as
//     BagIt (RFC 8493 §2.1.3) requires, but bagit.py and task-passport read
//     manifest paths literally and reject such a bag (INTEROP.md).
//
// Each warning is one line; the quoted text is the passport's own and is
// sanitised by whoever prints it (D11).
func Preflight(b *Built) []string {
	var out []string
	obj := b.Source.Object
	pp := model.PackObject{V: obj}.Passport()
	for i, a := range pp.V.Get("artifacts").Items() {
		text := artifactText(a)
		for _, p := range scan.AbsolutePaths(text) {
			if carried(p, b.Files) {
				continue
			}
			out = append(out, fmt.Sprintf("artifacts[%d] names %q, a path on this machine that no luggage carries: the receiver cannot open it (carry it with --file, or point at a shared place)", i, p))
		}
	}
	for i, f := range pp.Facts() {
		if f.V.Obj() == nil || f.HasScope() {
			continue
		}
		out = append(out, fmt.Sprintf("facts[%d] has no scope, so it counts as machine and arrives sealed (§4.2): %q", i, clip(f.Claim(), 80)))
	}
	for _, a := range (model.PackObject{V: obj}).Asks() {
		if acc := a.Accept(); strings.TrimSpace(acc) != "" && scan.VagueAccept(acc) {
			out = append(out, fmt.Sprintf("ask %s: accept %q is too vague to judge an answer by; say what would count as answered (§4.3)", a.ID(), clip(acc, 80)))
		}
	}
	for _, d := range b.LeftOut {
		out = append(out, fmt.Sprintf("left out %s: a repository's history and config, compressed, so tp cannot check it for credentials (D5); --with-repository carries it (D5-repository)", d))
	}
	for _, d := range b.RepositoryCarried {
		out = append(out, fmt.Sprintf("%s carried as you asked (--with-repository): its compressed history was not checked for credentials, and the receiver's tp lands it disarmed (D5-repository, D10-git)", d))
	}
	for _, f := range b.Files {
		if strings.Contains(f.Name, "%") {
			out = append(out, fmt.Sprintf("luggage %q has a %% in its name: tp writes it as %%25 in the manifest as BagIt requires, but bagit.py and task-passport read it literally and reject the bag; rename it if the receiver uses those tools", f.Name))
		}
	}
	return out
}

// artifactText is an artifact as text: a string, or an object's JSON.
func artifactText(v *ojson.Value) string {
	if s, ok := v.Str(); ok {
		return s
	}
	return string(ojson.Compact(v))
}

// carried reports whether a local path is luggage (a file packed, or inside
// a folder packed) or names a luggage file by its name in the pack.
func carried(p string, files []LocalFile) bool {
	clean := filepath.Clean(strings.TrimPrefix(p, "file://"))
	for _, f := range files {
		abs, err := filepath.Abs(f.Path)
		if err == nil && (abs == clean || strings.HasPrefix(abs, clean+string(filepath.Separator))) {
			return true
		}
		if strings.HasSuffix(filepath.ToSlash(clean), "/"+f.Name) {
			return true
		}
	}
	return false
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
