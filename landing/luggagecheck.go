package landing

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/pack/scan"
)

// Checking luggage before it is packed, for a front end that lets a person
// pick files on a screen (the TUI's receipt, issue 17): each file is shown
// with its name in the pack, its size, and what pack.Write would refuse it
// for (a credential, D5; a chat transcript), before anything is written.

// LuggageCheck is one luggage file as a pack would carry it.
type LuggageCheck struct {
	Name string // its name under data/files/ (D2: a folder keeps its own name)
	Path string // where it is read from: the real path, links resolved
	Size int64
	// Refused says why pack.Write would refuse the pack for this file (D5
	// credentials, transcripts), one line each; empty when it may travel.
	Refused []string
}

// OutsideError is a luggage path that leads out of the folder it must stay
// in: through a link, or with "..".
type OutsideError struct{ Path, Within string }

func (e *OutsideError) Error() string {
	return fmt.Sprintf("luggage %s leads outside %s (through a link or ..): only files inside the folder tp runs in are carried from this screen; nothing was added", sanitize.Line(e.Path), sanitize.Line(e.Within))
}

// CheckLuggage resolves each path (relative to within), confines it to
// within, lists the files it carries as collectLuggage does (a folder keeps
// its shape; links and devices inside folders are not carried), and scans
// every byte of each for what pack.Write refuses. The Paths returned are
// the resolved ones: packing them packs exactly the files shown, even if a
// link is changed afterwards.
func CheckLuggage(paths []string, within string) ([]LuggageCheck, error) {
	root, err := filepath.EvalSymlinks(within)
	if err != nil {
		return nil, fmt.Errorf("luggage: %w", err)
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, fmt.Errorf("luggage: %w", err)
	}
	var files []LocalFile
	seen := map[string]bool{}
	for _, p := range paths {
		if strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("luggage: an empty file name")
		}
		full := p
		if !filepath.IsAbs(full) {
			full = filepath.Join(within, full)
		}
		r, err := filepath.EvalSymlinks(full)
		if err != nil {
			return nil, fmt.Errorf("luggage: %w", err)
		}
		if r, err = filepath.Abs(r); err != nil {
			return nil, fmt.Errorf("luggage: %w", err)
		}
		if rel, err := filepath.Rel(root, r); err != nil || !filepath.IsLocal(rel) {
			return nil, &OutsideError{Path: p, Within: within}
		}
		fs, err := collectLuggage([]string{r})
		if err != nil {
			return nil, err
		}
		// Carried under the name the person gave (a link inside the
		// folder keeps its own name), read from the file it names.
		given, got := filepath.Base(filepath.Clean(full)), filepath.Base(r)
		for _, f := range fs {
			f.Name = given + strings.TrimPrefix(f.Name, got)
			if seen[f.Name] {
				return nil, fmt.Errorf("luggage %q is named twice", sanitize.Line(f.Name))
			}
			seen[f.Name] = true
			files = append(files, f)
		}
	}
	_, repos := repositoryMetadata(files)
	out := make([]LuggageCheck, len(files))
	for i, f := range files {
		out[i] = LuggageCheck{Name: f.Name, Path: f.Path, Size: f.Size}
		if inRepository(f.Name, repos) {
			// Compressed history the check below cannot read (D5-repository).
			out[i].Refused = append(out[i].Refused, "a repository's metadata (.git/, .hg/): its history is compressed, so tp cannot check it for credentials (D5); add the files you mean without it, or pack it with tp pack --with-repository")
			continue
		}
		found, err := scanFile(f)
		if err != nil {
			return nil, err
		}
		for _, fd := range found {
			out[i].Refused = append(out[i].Refused, fmt.Sprintf("%s (%s) at byte %d: %s", fd.Class, fd.Rule, fd.Offset, sanitize.Line(fd.Excerpt)))
		}
	}
	return out, nil
}

// scanFile scans one file as pack.Write scans luggage (credentials in every
// byte, transcripts in text).
func scanFile(f LocalFile) ([]scan.Finding, error) {
	fh, err := os.Open(f.Path)
	if err != nil {
		return nil, fmt.Errorf("luggage: %w", err)
	}
	defer fh.Close()
	sc := scan.NewLuggageScanner(f.Name)
	if _, err := io.Copy(sc, fh); err != nil {
		sc.Findings()
		return nil, fmt.Errorf("luggage %s: %w", sanitize.Line(f.Name), err)
	}
	found := sc.Findings()
	for _, t := range sc.TextFindings() {
		if t.Class == scan.Transcript {
			found = append(found, t)
		}
	}
	return found, nil
}

// StillInside checks, just before a listed file is packed, that its path
// is still inside within and names no link (a path CheckLuggage resolved is
// free of links; one that has one now was changed since it was shown).
func StillInside(path, within string) error {
	root, err := filepath.EvalSymlinks(within)
	if err != nil {
		return fmt.Errorf("luggage: %w", err)
	}
	if root, err = filepath.Abs(root); err != nil {
		return fmt.Errorf("luggage: %w", err)
	}
	r, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("luggage: %w", err)
	}
	rel, err := filepath.Rel(root, r)
	if err != nil || !filepath.IsLocal(rel) || r != path {
		return &OutsideError{Path: path, Within: within}
	}
	return nil
}
