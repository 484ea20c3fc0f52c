package acts

import "testing"

// TestAuditSectionEndsAtLevelOneHeading: §5.2 — the tasks section runs up to
// the next line that begins with "# " or "## "; a level-1 heading ends it as
// a level-2 one does, so a checkbox line after it is no task, and the
// registrar leaves it alone (I4).
func TestAuditSectionEndsAtLevelOneHeading(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		"## Tasks\n- [ ] [owner] Renew the domain\n# Appendix\n- [ ] [owner] Sign the contract\n",
	} {
		d, err := Parse([]byte(doc), enProfile(t))
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, l := range d.Tasks() {
			texts = append(texts, l.TaskText)
		}
		if len(texts) != 1 || texts[0] != "Renew the domain" {
			t.Errorf("%q: tasks = %q, want only the line before the level-1 heading", doc, texts)
		}
		s := newSim(t, enProfile(t), doc)
		s.run()
		if want := "## Tasks\n- [ ] [owner] Renew the domain (waiting on owner: " + kDomain + ")\n" + doc[len("## Tasks\n- [ ] [owner] Renew the domain\n"):]; string(s.doc) != want {
			t.Errorf("document:\n%s\nwant:\n%s", s.doc, want)
		}
	}
}
