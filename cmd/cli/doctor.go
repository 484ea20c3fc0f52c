package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/taskpassport"
)

func newDoctorCmd(io *IO, g *globalOpts) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Say whether the passport store is ready, and whether another one is named too",
		Long: `Check the passport store tp would use (--store, TP_STORE,
TASK_PASSPORT_STORE, else the XDG data dir): that it can be listed, how many
passports it holds and how many files in it are not readable passports.
When TP_STORE and TASK_PASSPORT_STORE name different folders, two harnesses
can end up on two copies of one task: doctor warns (one task, one store).
Exit 1 when the store is not ready. --json prints task-passport doctor's
document (ready, provider, passport_count, store).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(io, g)
			doc := doctorOf(io, st, err)
			if g.json {
				writeJSON(io.Out, doc)
			} else {
				renderDoctor(io, doc)
			}
			if !doc.Ready {
				return silentExit(exitError)
			}
			return nil
		},
	}
}

// doctorOf checks the store in use (st, or the error opening it) and looks
// for a rival named in the environment.
func doctorOf(io *IO, st *store.Store, openErr error) taskpassport.Doctor {
	doc := taskpassport.Doctor{Provider: taskpassport.Provider}
	if openErr != nil {
		doc.Error = openErr.Error()
		return doc
	}
	doc.Store = st.Dir()
	entries, skipped, err := st.List()
	if err != nil {
		doc.Error = err.Error()
		return doc
	}
	doc.Ready, doc.PassportCount, doc.Skipped = true, len(entries), len(skipped)
	for _, k := range []string{"TP_STORE", "TASK_PASSPORT_STORE"} {
		v := io.Env(k)
		if v == "" {
			continue
		}
		abs, err := filepath.Abs(v)
		if err != nil || abs == doc.Store {
			continue
		}
		count := "not readable"
		if other, err := store.Open(abs); err == nil {
			if es, _, err := other.List(); err == nil {
				count = plural.N(len(es), "passport")
			}
		}
		doc.OtherStore = abs
		doc.Warning = fmt.Sprintf("two stores are named here: %s (in use) and %s=%s (%s). One task must have exactly one store: point every harness at the same one.", doc.Store, k, abs, count)
		break
	}
	return doc
}

func renderDoctor(io *IO, d taskpassport.Doctor) {
	if !d.Ready {
		fmt.Fprintf(io.Out, "not ready: %s\n", display.Line(d.Error))
		return
	}
	fmt.Fprintf(io.Out, "ready: %s (%s), %s", display.Line(d.Store), d.Provider, plural.N(d.PassportCount, "passport"))
	if d.Skipped > 0 {
		fmt.Fprintf(io.Out, ", %s that %s not a readable passport skipped (tp list names them)", plural.N(d.Skipped, "file"), plural.Word(d.Skipped, "is", "are"))
	}
	fmt.Fprintln(io.Out)
	if d.Warning != "" {
		fmt.Fprintf(io.Out, "warning: %s\n", display.Line(d.Warning))
	}
}
