package main

import (
	"fmt"
	"github.com/tp-dev/tp/cmd/cli"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/ui/backend"
	"github.com/tp-dev/tp/ui/common"
)

// principalRecords is how the inbox builds the principal side's records:
// the acts core's builders (settled with authority, related same_as,
// reopened with restore_text, note), written as this tp for the person
// running it (§8, D14), exactly as `tp acts settle|reopen|note` write them.
func principalRecords(io *cli.IO) backend.Principal {
	return func(st *acts.ActState, a common.Action) ([]acts.Record, error) {
		s := cli.ActsPrincipalSender(io)
		switch a.Kind {
		case common.ActSettle:
			return acts.BuildSettle(st, s, a.Outcome, a.SameAs, a.Note, a.TermsRev)
		case common.ActReopen:
			r, err := acts.BuildReopen(st, s)
			return []acts.Record{r}, err
		case common.ActNote:
			r, err := acts.BuildNote(st, s, a.Note)
			return []acts.Record{r}, err
		}
		return nil, fmt.Errorf("unknown inbox action %q", display.Line(a.Kind))
	}
}
