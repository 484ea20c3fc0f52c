package ui

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/internal/uitest"
)

type fakeLander struct {
	mu       sync.Mutex
	plan     *common.Plan
	planErr  error
	landed   *common.Landed
	landErr  error
	merged   *common.Merged
	gotD     *common.Decisions
	lands    int
	merges   int
	progress int // progress steps to report
	block    chan struct{}
}

func (f *fakeLander) Plan(ctx context.Context, file string, p common.Progress) (*common.Plan, error) {
	for i := 1; i <= f.progress; i++ {
		p("verifying", int64(i), int64(f.progress))
	}
	if f.block != nil {
		select {
		case <-f.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.planErr != nil {
		return nil, f.planErr
	}
	return f.plan, nil
}

func (f *fakeLander) Land(ctx context.Context, plan *common.Plan, d common.Decisions, p common.Progress) (*common.Landed, error) {
	f.mu.Lock()
	f.lands++
	f.gotD = &d
	f.mu.Unlock()
	for i := 1; i <= f.progress; i++ {
		p("extracting", int64(i), int64(f.progress))
	}
	if f.landErr != nil {
		return nil, f.landErr
	}
	return f.landed, nil
}

func (f *fakeLander) Merge(ctx context.Context, plan *common.Plan, p common.Progress) (*common.Merged, error) {
	f.merges++
	if f.merged == nil {
		return nil, errors.New("no merge")
	}
	return f.merged, nil
}

func samplePlan() *common.Plan { return uitest.SamplePlan() }

func sampleLanded() *common.Landed { return uitest.SampleLanded() }

var _ = fmt.Sprintf
