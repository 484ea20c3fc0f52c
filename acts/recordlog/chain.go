package recordlog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
)

// The principal chain (D19): see the top of principals.go.

// walkChain picks the chain to follow among p.all and walks it: each
// change must extend the one before (prev), be signed by a principal
// current at that point, and make sense there (no adding a principal
// twice, no removing one who is not, never the last). With a trust store,
// the first key must be trusted here and the chain must contain the
// newest change this machine accepted; the head then moves on.
func (l *Log) walkChain(p *Principals) error {
	if len(p.all) == 0 {
		if p.signed {
			p.Blocked = l.noPrincipalHere(p.Project)
		}
		return nil
	}
	children := map[string][]int{}
	byHash := map[string]int{}
	var firsts []int
	for i, cf := range p.all {
		byHash[cf.hash] = i
		if cf.c.Prev == "" {
			firsts = append(firsts, i)
			p.Firsts = append(p.Firsts, cf.c)
		} else {
			children[cf.c.Prev] = append(children[cf.c.Prev], i)
		}
	}
	for _, cf := range p.all {
		if _, ok := byHash[cf.c.Prev]; cf.c.Prev != "" && !ok {
			p.Problems = append(p.Problems, fmt.Sprintf("principal change %s (%s %s) extends %s, which is not in principals/; ignored", cf.c.ID, cf.c.Type, cf.c.Principal, cf.c.Prev))
		}
	}
	if len(firsts) == 0 {
		if p.signed {
			p.Blocked = l.noPrincipalHere(p.Project)
		}
		return nil
	}
	// This machine's memory, per project id: the newest change accepted.
	heads := map[string]string{}
	if p.signed {
		for _, i := range firsts {
			id := p.all[i].c.ProjectID
			if _, ok := heads[id]; ok {
				continue
			}
			h, err := l.trustHead(id)
			if err != nil {
				return err
			}
			heads[id] = h
		}
	}
	first := firsts[0]
	if len(firsts) > 1 {
		// Two first changes: registrations made concurrently (two machines
		// settling first offline), or one planted. Every machine stops the
		// same way — also one that accepted one of them, or two machines
		// would go on applying different principals' settlements — until a
		// person keeps one.
		var names []string
		for _, i := range firsts {
			c := p.all[i].c
			names = append(names, fmt.Sprintf("%s by %s %s", c.ID, c.Principal, sshsign.Fingerprint(p.all[i].key)))
		}
		p.Blocked = fmt.Sprintf("project %s has %d first principal changes (%s): two principals were registered concurrently, or one was planted; no principal-side record is applied until a person keeps one: tp acts principal resolve --project %s --keep CHANGE_ID",
			p.Project, len(firsts), strings.Join(names, "; "), p.Project)
		return nil
	}
	g := p.all[first]
	p.ProjectID = g.c.ProjectID
	head := heads[p.ProjectID]
	if g.c.Type != PrincipalAdded || g.c.Seq != 1 {
		p.Blocked = fmt.Sprintf("principal change %s starts the chain but is not the addition of a first principal", g.c.ID)
		return nil
	}
	root := Principal{Name: g.c.Principal, Key: g.key}
	if _, err := signerOf([]Principal{root}, g.raw); err != nil {
		p.Blocked = fmt.Sprintf("principal change %s (the first, %s): not signed by the key it adds: %v", g.c.ID, g.c.Principal, err)
		return nil
	}
	if p.signed {
		ok, err := l.rootTrusted(p.ProjectID, g.key)
		if err != nil {
			return err
		}
		if !ok {
			p.Blocked = fmt.Sprintf("project %s's first principal %s %s (project id %s) is not trusted on this machine: no principal-side record is applied here (a registrar never adopts a principal on its own); if that is the project's principal, trust it: tp acts principal trust --project %s %s",
				p.Project, g.c.Principal, sshsign.Fingerprint(g.key), p.ProjectID, p.Project, sshsign.Fingerprint(g.key))
			return nil
		}
	}
	p.follow(g)
	node := first
	for {
		var valid []int
		for _, i := range children[p.all[node].hash] {
			if err := p.check(p.all[i]); err != nil {
				cf := p.all[i]
				p.Problems = append(p.Problems, fmt.Sprintf("principal change %s (%s %s): %v; ignored", cf.c.ID, cf.c.Type, cf.c.Principal, err))
				continue
			}
			valid = append(valid, i)
		}
		if len(valid) == 0 {
			break
		}
		if len(valid) > 1 {
			// Two changes extend one: principals changing the principals
			// concurrently, or a removed key signing a change dated before
			// its removal. Every machine stops the same way (following the
			// branch this machine accepted would let two machines trust
			// different principals) until a person keeps one.
			var names []string
			for _, i := range valid {
				c := p.all[i].c
				names = append(names, fmt.Sprintf("%s (%s %s, signed %s)", c.ID, c.Type, c.Principal, c.TS))
			}
			p.Blocked = fmt.Sprintf("project %s's principal history forks after change %s: %s each extend it; no principal-side record is applied until a person keeps one: tp acts principal resolve --project %s --keep CHANGE_ID",
				p.Project, p.all[node].c.ID, strings.Join(names, " and "), p.Project)
			return nil
		}
		next := valid[0]
		p.follow(p.all[next])
		node = next
	}
	if !p.signed {
		return nil
	}
	if head != "" {
		seen := false
		for _, c := range p.Changes {
			seen = seen || c.Hash() == head
		}
		if !seen {
			p.Blocked = fmt.Sprintf("project %s's principal history no longer holds change %s, the newest this machine accepted: the history was rolled back or replaced; no principal-side record is applied until a person decides (tp acts principal resolve --project %s --keep CHANGE_ID accepts the history as it is now)",
				p.Project, head, p.Project)
			return nil
		}
	}
	if p.Head != head {
		return l.setTrustHead(p.ProjectID, p.Project, p.Head)
	}
	return nil
}

// hash is the change's hash as the chain names it (set by follow).
// Hash is the change's link in the chain (what the next change names as prev), once the chain has been walked.
func (c PrincipalChange) Hash() string { return c.chainHash }

// follow applies one checked change.
func (p *Principals) follow(cf changeFile) {
	c := cf.c
	c.chainHash = cf.hash
	switch c.Type {
	case PrincipalAdded:
		p.Chain = append(p.Chain, Principal{Name: c.Principal, Key: cf.key})
		kept := p.Removed[:0]
		for _, r := range p.Removed {
			if !bytes.Equal(r.Key.Marshal(), cf.key.Marshal()) {
				kept = append(kept, r)
			}
		}
		p.Removed = kept
	case PrincipalRemoved:
		kept := p.Chain[:0]
		for _, pr := range p.Chain {
			if bytes.Equal(pr.Key.Marshal(), cf.key.Marshal()) {
				p.Removed = append(p.Removed, Removal{Principal: pr, Reason: c.Reason, ChangeID: c.ID})
				continue
			}
			kept = append(kept, pr)
		}
		p.Chain = kept
	}
	if c.Seq == 1 {
		for _, a := range c.Adopts {
			if id, digest, ok := strings.Cut(a, " "); ok {
				if p.Adopted == nil {
					p.Adopted = map[string]Adoption{}
				}
				p.Adopted[id] = Adoption{Digest: digest, By: acts.SignedBy{Principal: c.Principal, Fingerprint: sshsign.Fingerprint(cf.key), Adopted: true}}
			}
		}
	}
	p.Changes = append(p.Changes, c)
	p.Head = cf.hash
}

// check says why a change cannot extend the chain as it stands.
func (p *Principals) check(cf changeFile) error {
	c := cf.c
	last := p.Changes[len(p.Changes)-1]
	if c.ProjectID != p.ProjectID {
		return fmt.Errorf("for project id %s, not %s", c.ProjectID, p.ProjectID)
	}
	if c.Seq != last.Seq+1 {
		return fmt.Errorf("seq %d after %d", c.Seq, last.Seq)
	}
	if _, err := signerOf(p.Chain, cf.raw); err != nil {
		return fmt.Errorf("not signed by a principal current at that point: %v", err)
	}
	_, held := p.Holds(cf.key)
	switch {
	case c.Type == PrincipalAdded && held:
		return errors.New("adds a key that is a principal already")
	case c.Type == PrincipalRemoved && !held:
		return errors.New("removes a key that is not a principal")
	case c.Type == PrincipalRemoved && len(p.Chain) == 1:
		return errors.New("removes the last principal")
	}
	return nil
}

// descends reports whether the change with hash is root or follows it.
func descends(all []changeFile, children map[string][]int, root int, hash string) bool {
	stack := []int{root}
	seen := map[int]bool{}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[i] {
			continue
		}
		seen[i] = true
		if all[i].hash == hash {
			return true
		}
		stack = append(stack, children[all[i].hash]...)
	}
	return false
}

// noPrincipalHere is why a project without a trusted principal applies
// nothing on this machine, and how to trust one.
func (l *Log) noPrincipalHere(project string) string {
	return fmt.Sprintf("project %s has no principal trusted on this machine: no settlement, reopening or principal's note is applied (a registrar never adopts a principal on its own); the principal's first tp acts settle at their terminal registers them, or trust theirs: tp acts principal trust --project %s KEY (a new clone: tp acts init with --principal KEY)",
		sanitize.Line(project), sanitize.Line(project))
}

// errTooLarge is a file over its limit (readLimited returns a *TooLargeError, which is it).
var errTooLarge = errors.New("too large")

// Resolution is what Resolve did.
type Resolution struct {
	Kept    []string // change ids on the kept history
	Removed []string // change files removed (the other branches)
	After   *Principals
}

// Resolve is a person's decision about a forked or rolled-back principal
// history (D19): keep the history through the change keepID — its
// ancestors and what extends it — and remove every other change's file
// from principals/ (they stay in git's history). With a trust store, the
// kept history's first key must be trusted here, and this machine accepts
// the history as it now stands (its head moves to the kept chain's newest
// change), which is also how a person accepts a history that no longer
// holds the change this machine had accepted.
func (l *Log) Resolve(project, keepID string) (*Resolution, error) {
	unlock, err := l.lockPrincipals(project)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, err
	}
	keep := -1
	byHash := map[string]int{}
	children := map[string][]int{}
	for i, cf := range p.all {
		byHash[cf.hash] = i
		children[cf.c.Prev] = append(children[cf.c.Prev], i)
		if cf.c.ID == keepID {
			keep = i
		}
	}
	if keep < 0 {
		return nil, fmt.Errorf("project %s has no principal change %s (tp acts verify --project %s lists them)", sanitize.Line(project), sanitize.Line(keepID), sanitize.Line(project))
	}
	kept := map[int]bool{}
	for i, ok := keep, true; ok; i, ok = byHash[p.all[i].c.Prev] {
		if kept[i] {
			break
		}
		kept[i] = true
	}
	for i := range p.all {
		if descends(p.all, children, keep, p.all[i].hash) {
			kept[i] = true
		}
	}
	root := -1
	for i := range kept {
		if p.all[i].c.Prev == "" {
			root = i
		}
	}
	if root < 0 {
		return nil, fmt.Errorf("principal change %s does not go back to a first principal change; nothing was changed", sanitize.Line(keepID))
	}
	if l.Trust != nil {
		ok, err := l.rootTrusted(p.all[root].c.ProjectID, p.all[root].key)
		if err != nil {
			return nil, err
		}
		if !ok {
			g := p.all[root]
			return nil, acts.WithHint(fmt.Errorf("the history through %s starts with %s %s, which this machine does not trust; nothing was changed", sanitize.Line(keepID), sanitize.Line(g.c.Principal), sshsign.Fingerprint(g.key)),
				"trust it first if it is the project's principal: tp acts principal trust --project "+sanitize.Line(project)+" "+sshsign.Fingerprint(g.key))
		}
	}
	res := &Resolution{}
	for i, cf := range p.all {
		if kept[i] {
			res.Kept = append(res.Kept, cf.c.ID)
			continue
		}
		if err := os.Remove(filepath.Join(l.PrincipalsDir(project), cf.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("principals: %w", err)
		}
		res.Removed = append(res.Removed, cf.c.ID)
	}
	if l.Trust != nil {
		// The person's decision: accept the kept history from its start.
		if err := l.setTrustHead(p.all[root].c.ProjectID, project, ""); err != nil {
			return nil, err
		}
	}
	after, err := l.WriteSigners(project)
	if err != nil {
		return nil, err
	}
	res.After = after
	return res, nil
}
