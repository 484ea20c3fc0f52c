package ui

import (
	"context"
	"strconv"

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

// work is one piece of long-running core work started from a screen: it runs
// in a goroutine, streams ProgressMsg and ends with one WorkDoneMsg. Cancel
// stops it through its context; the core is responsible for leaving nothing
// half-written (temp + rename).
type work struct {
	id     int
	cancel context.CancelFunc
	ch     chan tea.Msg
}

var workSeq int

// startWork runs fn and returns the work and the command that delivers its
// first message. Each later message is fetched by w.next().
func startWork(parent context.Context, fn func(ctx context.Context, p Progress) (any, error)) (*work, tea.Cmd) {
	workSeq++
	ctx, cancel := context.WithCancel(parent)
	w := &work{id: workSeq, cancel: cancel, ch: make(chan tea.Msg, 1)}
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

// next waits for the work's next message.
func (w *work) next() tea.Cmd {
	return func() tea.Msg { return <-w.ch }
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func ftoa1(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
