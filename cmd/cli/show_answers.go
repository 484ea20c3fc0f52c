package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// Plain-text pieces tp show and tp checks share with tp asks' layout: the
// answer printed beside its ask, and the recorded run of a check's command
// (D12). Every string is someone's text and goes through field (sanitised,
// D11).

// writeAnswer prints an ask's answer, and who answered when, under the ask
// line of tp show.
func writeAnswer(w io.Writer, a model.Ask) {
	ans := a.V.Get("answer")
	if ans.IsNull() {
		return
	}
	indentField(w, "    ", "answer", jsonText(ans))
	if a.AnsweredBy() != "" || a.AnsweredAt() != "" {
		fmt.Fprintf(w, "      answered by %s at %s\n", orDash(a.AnsweredBy()), orDash(a.AnsweredAt()))
	}
}

// writeRun prints the recorded run of a check's command: what ran (the
// person's edit, when edited), its exit code, who ran it and when.
func writeRun(w io.Writer, c model.LandingCheck) {
	run := c.V.Get("run")
	if run.Kind() != ojson.Object {
		return
	}
	field(w, "ran", run.Get("command").Text())
	whose := "the sender's how, as suggested"
	if e, _ := run.Get("edited").Bool(); e {
		whose = "edited before it ran: the person's command, not the sender's"
	}
	exit := "-"
	if n, ok := run.Get("exit_code").Int(); ok {
		exit = strconv.FormatInt(n, 10)
	}
	fmt.Fprintf(w, "  run: exit code %s · %s · by %s at %s\n", exit, whose,
		orDash(run.Get("ran_by").Text()), orDash(run.Get("ran_at").Text()))
}

// indentField is field with the whole block indented by prefix.
func indentField(w io.Writer, prefix, name, text string) {
	if text == "" {
		return
	}
	pw := &prefixWriter{w: w, prefix: prefix}
	field(pw, name, text)
}

// prefixWriter puts prefix before every line written through it (field
// writes whole lines).
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
