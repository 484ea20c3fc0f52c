package common

import (
	"context"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"
)

// ProgressMsg reports progress of a screen's running work.
type ProgressMsg struct {
	Work        int
	Phase       string
	Done, Total int64
}

// WorkDoneMsg carries the result of a screen's running work.
type WorkDoneMsg struct {
	Work  int
	Value any
	Err   error
}

// Work is one piece of long-running core work started from a screen: it runs
// in a goroutine, streams ProgressMsg and ends with one WorkDoneMsg. Cancel
// stops it through its context; the core is responsible for leaving nothing
// half-written (temp + rename).
type Work struct {
	id     int
	cancel context.CancelFunc
	ch     chan tea.Msg
}

var workSeq atomic.Int64

// ID tells this work's messages from another's.
func (w *Work) ID() int { return w.id }

// Cancel stops the work through its context.
func (w *Work) Cancel() { w.cancel() }

// StartWork runs fn and returns the work and the command that delivers its
// first message. Each later message is fetched by w.Next().
func StartWork(parent context.Context, fn func(ctx context.Context, p Progress) (any, error)) (*Work, tea.Cmd) {
	ctx, cancel := context.WithCancel(parent)
	w := &Work{id: int(workSeq.Add(1)), cancel: cancel, ch: make(chan tea.Msg, 1)}
	id := w.id
	start := func() tea.Msg {
		go func() {
			progress := func(phase string, done, total int64) {
				msg := ProgressMsg{Work: id, Phase: phase, Done: done, Total: total}
				select { // latest wins: drop a stale update rather than block the core
				case w.ch <- msg:
				default:
					select {
					case <-w.ch:
					default:
					}
					select {
					case w.ch <- msg:
					default:
					}
				}
			}
			v, err := fn(ctx, progress)
			cancel()
			// The final message must not be dropped.
			for {
				select {
				case w.ch <- WorkDoneMsg{Work: id, Value: v, Err: err}:
					return
				default:
					select {
					case <-w.ch:
					default:
					}
				}
			}
		}()
		return <-w.ch
	}
	return w, start
}

// Next waits for the work's next message.
func (w *Work) Next() tea.Cmd {
	return func() tea.Msg { return <-w.ch }
}
