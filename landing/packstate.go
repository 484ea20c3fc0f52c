package landing

import (
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// What a pack file lying in a folder is to this store (issue 17): home lists
// the packs in the folder tp runs in, and offers to land only the ones that
// can or need be landed. A receipt already merged, a handoff already landed
// and a pack this store made itself are said to be what they are.
const (
	PackToLand = "to land"     // nothing here knows it: land it
	PackMerged = "merged"      // a receipt already merged into Passport
	PackLanded = "landed"      // a handoff already landed as Passport
	PackSent   = "sent by you" // packed from Passport in this store
)

// PackState is one pack file's state; Passport names the passport it was
// merged into, landed as, or packed from.
type PackState struct {
	State    string `json:"state"`
	Passport string `json:"passport,omitempty"`
}

// PackStates says what each pack file is to the store, recognised by its
// content identity (the pack object and each luggage file's digest, as the
// bag's manifests or the flat form's members name them: nothing is hashed
// but the object). A file that cannot be read is PackToLand: landing it
// says what is wrong with it.
func PackStates(s *store.Store, entries []store.Entry, paths []string) []PackState {
	out := make([]PackState, len(paths))
	var sent map[string]string // content digest → passport it was packed from
	for i, path := range paths {
		out[i] = PackState{State: PackToLand}
		p, err := pack.Open(path, pack.Options{DeferLuggage: true, NoFileDigest: true, NoRaw: true})
		if err != nil {
			continue
		}
		id := packID{object: p.ObjectSHA256, luggage: len(p.Luggage) > 0}
		id.content = contentDigest(id.object, p.Luggage)
		receipt := model.PackObject{V: p.Object}.Kind() == model.KindReceipt
		p.Close()
		if st, ok := knownHere(entries, id, receipt); ok {
			out[i] = st
			continue
		}
		if sent == nil {
			sent = sentDigests(s, entries)
		}
		if from, ok := sent[id.content]; ok && id.content != "" {
			out[i] = PackState{State: PackSent, Passport: from}
		}
	}
	return out
}

// knownHere finds a receipt among the receipts merged, a handoff among the
// packs landed.
func knownHere(entries []store.Entry, id packID, receipt bool) (PackState, bool) {
	for _, e := range entries {
		if receipt {
			for _, r := range e.V.Get("receipts_merged").Items() {
				if sameDigest(r, id) {
					return PackState{State: PackMerged, Passport: e.ID}, true
				}
			}
			continue
		}
		if lf := e.V.Get("landed_from"); lf.Obj() != nil && sameDigest(lf, id) {
			return PackState{State: PackLanded, Passport: e.ID}, true
		}
	}
	return PackState{}, false
}

// sentDigests reads every passport's record of packs sent (D6).
func sentDigests(s *store.Store, entries []store.Entry) map[string]string {
	out := map[string]string{}
	if s == nil {
		return out
	}
	for _, e := range entries {
		packs, _, err := s.Sent(e.ID)
		if err != nil {
			continue
		}
		for _, p := range packs {
			if p.ContentSHA256 != "" {
				out[p.ContentSHA256] = e.ID
			}
		}
	}
	return out
}
