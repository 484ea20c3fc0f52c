package acts

import "testing"

// TestAuditSettlementsAppliedFirst: §4's step order. Settlements are applied
// (step 1) before lines are raised and stamped (step 3): a settled whose key
// no line carries "is consumed and changes nothing", so a line an agent
// re-declared with the settled act's text (marker dropped) survives the run,
// stamped and warned about (§11) — it is not struck by a settlement that
// predates it.
func TestAuditSettlementsAppliedFirst(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run()
	s.doc = []byte("## Tasks\n- [ ] [owner] Renew the domain\n") // marker dropped
	s.settle(kDomain, "done")                                    // pending, not yet applied
	out := s.run()
	s.expect("## Tasks\n- [ ] [owner] Renew the domain (waiting on owner: " + kDomain + ")\n")
	if !hasWarning(out, WarnSettled, kDomain) {
		t.Errorf("no §11 warning for a line deriving a settled key: %v", out.Warnings)
	}
	if out.Struck != 0 {
		t.Errorf("struck %d line(s): a settlement is applied before the run stamps anything", out.Struck)
	}
}
