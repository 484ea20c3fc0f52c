package acts

import (
	"fmt"
	"strings"
)

// statesOf runs Lifecycle over each key's records (keys in first-seen
// order), as the fixture runner does.
func statesOf(records []Record) (map[string]*ActState, []string, error) {
	groups := map[string][]Record{}
	var order []string
	for _, r := range records {
		if _, ok := groups[r.Key]; !ok {
			order = append(order, r.Key)
		}
		groups[r.Key] = append(groups[r.Key], r)
	}
	states := map[string]*ActState{}
	for _, k := range order {
		st, err := Lifecycle(groups[k])
		if err != nil {
			return nil, nil, fmt.Errorf("lifecycle of %s: %v", k, err)
		}
		states[k] = st
	}
	return states, order, nil
}

func recordIDs(rs []Record) string {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return "[" + strings.Join(ids, " ") + "]"
}
