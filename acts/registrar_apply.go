package acts

// Step 1 of the registrar (§4): apply settlements, with the writing rules of
// §5.5.2 (strike) and §5.5.3 (re-add); notes and relations are delivered.

// ---- step 1: apply settlements -------------------------------------------

// pendingSettlement is a current settlement record not yet acknowledged.
type pendingSettlement struct {
	ID          string
	Key         string
	Type        string // settled or reopened
	RestoreText string
}

// pendingSettlements lists the current settlement of every act that has not
// been acknowledged, by key.
func (r *registrar) pendingSettlements() []pendingSettlement {
	var out []pendingSettlement
	for _, k := range r.order {
		a := r.acts[k]
		if a.SettlementID == "" || r.in.Acked[a.SettlementID] {
			continue
		}
		p := pendingSettlement{ID: a.SettlementID, Key: k, Type: TypeReopened, RestoreText: a.Text}
		if a.Status == StatusSettled {
			p.Type = TypeSettled
		} else if rec, ok := r.in.Records[a.SettlementID]; ok && rec.Type == TypeReopened && rec.RestoreText != "" {
			p.RestoreText = rec.RestoreText
		}
		out = append(out, p)
	}
	return out
}

// applySettlements is §4 step 1 with the writing rules of §5.5.2 and §5.5.3.
// Every pending settlement is consumed (listed in Applied) whether or not it
// changed a line.
func (r *registrar) applySettlements(pending []pendingSettlement) {
	if len(pending) == 0 {
		return
	}
	strike := map[string]bool{}
	var readd []pendingSettlement
	carried := r.carry
	for _, p := range pending {
		r.out.Applied = append(r.out.Applied, p.ID)
		switch p.Type {
		case TypeSettled:
			strike[p.Key] = true
		case TypeReopened:
			if len(carried[p.Key]) == 0 && !containsPending(readd, p.Key) {
				if Normalise(p.RestoreText) == "" {
					r.warn(Warning{Key: p.Key, Kind: WarnConflict, Message: "the reopened record has no restore_text and the act no terms text, so no line can be re-added"})
					continue
				}
				readd = append(readd, p)
			}
		}
	}
	d := r.d
	lines := d.Lines
	end := d.End
	eol := d.lineEnd()
	if len(strike) > 0 && d.HasSection {
		kept := lines[:d.Heading+1]
		deleted := 0
		for i := d.Heading + 1; i < len(lines); i++ {
			l := lines[i]
			if i < d.End && l.Checkbox() && strike[l.Key] {
				deleted++
				continue
			}
			kept = append(kept, l)
		}
		lines = kept
		end -= deleted
		r.out.Struck += deleted
		if deleted > 0 && bodyBlank(lines[d.Heading+1:end]) {
			lines = insertLine(lines, d.Heading+1, d.Profile.Placeholder, eol)
			end++
		}
	}
	heading := d.Heading
	for _, p := range readd {
		text := "- [ ] " + d.Profile.LabelOpen + d.Profile.Labels.Principal + d.Profile.LabelClose + d.Profile.LabelSeparator + Normalise(p.RestoreText) + d.Profile.RenderMarker(p.Key)
		r.out.Added++
		if heading < 0 {
			// No tasks section: a blank line, the heading, a blank line and
			// the new line go at the end of the document (§5.5.3).
			if n := len(lines); n > 0 {
				if lines[n-1].End == "" {
					lines[n-1].End = eol
				}
				if trimWS(lines[n-1].Text) != "" {
					lines = append(lines, Line{End: eol})
				}
			}
			heading = len(lines)
			lines = append(lines, Line{Text: d.Profile.Heading, End: eol}, Line{End: eol}, Line{Text: text, End: eol})
			end = len(lines)
			continue
		}
		nonBlank, last := 0, -1
		for i := heading + 1; i < end; i++ {
			if trimWS(lines[i].Text) != "" {
				nonBlank++
				last = i
			}
		}
		switch {
		case nonBlank == 1 && trimRightWS(lines[last].Text) == d.Profile.Placeholder:
			lines[last].Text = text
		case last < 0:
			lines = insertLine(lines, heading+1, text, eol)
			end++
		default:
			lines = insertLine(lines, last+1, text, eol)
			end++
		}
	}
	if len(strike) == 0 && len(readd) == 0 {
		return
	}
	d.Lines = lines
	r.reparse()
}

func containsPending(list []pendingSettlement, key string) bool {
	for _, p := range list {
		if p.Key == key {
			return true
		}
	}
	return false
}

// bodyBlank reports whether every line is blank.
func bodyBlank(lines []Line) bool {
	for i := range lines {
		if trimWS(lines[i].Text) != "" {
			return false
		}
	}
	return true
}

// insertLine inserts a line with text before index at. A line inserted
// after a last line that had no line end gives that line one and itself
// goes without, so the document keeps its (missing) final newline.
func insertLine(lines []Line, at int, text, eol string) []Line {
	nl := Line{Text: text, End: eol}
	if at == len(lines) && at > 0 && lines[at-1].End == "" {
		lines[at-1].End = eol
		nl.End = ""
	}
	lines = append(lines, Line{})
	copy(lines[at+1:], lines[at:])
	lines[at] = nl
	return lines
}

// lineEnd is the line end new lines get: the one most lines use (CRLF
// documents stay CRLF, a CR-only document stays CR-only), LF on a tie.
func (d *Document) lineEnd() string {
	crlf, lf, cr := 0, 0, 0
	for i := range d.Lines {
		switch d.Lines[i].End {
		case "\r\n":
			crlf++
		case "\n":
			lf++
		case "\r":
			cr++
		}
	}
	switch {
	case crlf > lf && crlf >= cr:
		return "\r\n"
	case cr > lf && cr > crlf:
		return "\r"
	}
	return "\n"
}

// reparse re-reads the document after lines were deleted or added, so the
// later steps see it exactly as the next reader will.
func (r *registrar) reparse() {
	d, err := Parse(r.d.Bytes(), r.d.Profile)
	if err != nil {
		panic("acts: registrar produced a document it cannot read: " + err.Error())
	}
	r.d = d
	r.carry = r.carriers()
}

// deliver lists the notes and relations not yet acknowledged (§4 step 1:
// delivered to the project, never applied to the document), by key, then
// in the order Lifecycle gives them.
func (r *registrar) deliver() {
	for _, k := range r.order {
		a := r.acts[k]
		for _, list := range [][]Record{a.Notes, a.Relations} {
			for _, rec := range list {
				if !r.in.Acked[rec.ID] {
					r.out.Deliver = append(r.out.Deliver, rec)
				}
			}
		}
	}
}
