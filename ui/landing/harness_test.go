package landing

import (
	"context"
	"errors"
	"testing"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/internal/uitest"
)

// fakeLander answers with plan and landed, and keeps the decisions Land got.
type fakeLander struct {
	plan   *common.Plan
	landed *common.Landed
	gotD   *common.Decisions
}

func (f *fakeLander) Plan(ctx context.Context, file string, p common.Progress) (*common.Plan, error) {
	return f.plan, nil
}

func (f *fakeLander) Land(ctx context.Context, plan *common.Plan, d common.Decisions, p common.Progress) (*common.Landed, error) {
	f.gotD = &d
	if f.landed == nil {
		return nil, errors.New("no landing")
	}
	return f.landed, nil
}

func (f *fakeLander) Merge(ctx context.Context, plan *common.Plan, p common.Progress) (*common.Merged, error) {
	return nil, errors.New("no merge")
}

// newLandingApp is the walkthrough of f's plan as its own screen, its
// commands run for real in dir.
func newLandingApp(t *testing.T, f *fakeLander, dir string) *uitest.Driver {
	c := uitest.Common(t, common.Deps{Lander: f})
	c.WorkDir = dir
	return uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
}

func landingOf(d *uitest.Driver) *Landing { return d.M.(*uitest.Screen).C.(*Landing) }

func editorText(l *Landing) string { v, _ := l.Checks().Editor(); return v }

func editorOpen(l *Landing) bool { _, open := l.Checks().Editor(); return open }
