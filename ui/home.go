package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
	"github.com/tp-dev/tp/ui/landing"
)

// HomeLoadedMsg is sent by the home screen when its lists were gathered.
type HomeLoadedMsg struct {
	Data *common.HomeData
	Err  error
}

// HomeListedMsg is sent by the home screen when the store's passport files
// were listed, before any was read.
type HomeListedMsg struct {
	Listing *common.HomeListing
	Err     error
}

// HomeKeys are the home screen's keys.
type HomeKeys struct {
	List                  ListKeys
	Open, Checks, Refresh key.Binding
}

// DefaultHomeKeys returns the home screen's keys.
func DefaultHomeKeys() HomeKeys {
	return HomeKeys{
		List:    DefaultListKeys(),
		Open:    kb([]string{"enter"}, "enter", "open"),
		Checks:  kb([]string{"c"}, "c", "landing checks"),
		Refresh: kb([]string{"R"}, "R", "refresh"),
	}
}

type homeItem struct {
	kind int // 0 passport, 1 project, 2 pack in the folder, 3 pack over A2A
	i    int
}

// Home is plain `tp` on a terminal: passports in the store, open acts by
// project and packs waiting in the current folder.
type Home struct {
	c    *common.Common
	keys HomeKeys
	w, h int
	data *common.HomeData
	err  error
	// listing is what is drawn until data comes: the passport files by
	// id, not read yet (issue 20).
	listing *common.HomeListing
	items   []homeItem
	cur     int
	off     int
}

// NewHome returns the home screen.
func NewHome(c *common.Common) *Home {
	h := &Home{c: c, keys: DefaultHomeKeys()}
	h.SetSize(c.Width, c.Height-common.Chrome)
	return h
}

func (h *Home) Title() string     { return "home" }
func (h *Home) Capturing() bool   { return false }
func (h *Home) Busy() bool        { return false }
func (h *Home) SetSize(w, ht int) { h.w, h.h = w, ht }
func (h *Home) ShortHelp() []key.Binding {
	return []key.Binding{h.keys.Open, h.keys.Checks, h.keys.List.Down, h.keys.Refresh}
}
func (h *Home) FullHelp() [][]key.Binding {
	return [][]key.Binding{{h.keys.List.Up, h.keys.List.Down, h.keys.List.PageUp, h.keys.List.PageDown}, {h.keys.Open, h.keys.Checks, h.keys.Refresh}}
}

// Init lists the passport files first, when the source can (the first
// frame then shows them while every file and the acts log are read), and
// gathers the lists.
func (h *Home) Init() tea.Cmd {
	lister, ok := h.c.Deps.Home.(common.HomeLister)
	if !ok {
		return h.load()
	}
	ctx := h.c.Ctx
	return func() tea.Msg {
		l, err := lister.ListHome(ctx)
		return HomeListedMsg{Listing: l, Err: err}
	}
}

// load gathers the lists.
func (h *Home) load() tea.Cmd {
	src, ctx := h.c.Deps.Home, h.c.Ctx
	return func() tea.Msg {
		if src == nil {
			return HomeLoadedMsg{Err: fmt.Errorf("nothing to show")}
		}
		d, err := src.LoadHome(ctx)
		return HomeLoadedMsg{Data: d, Err: err}
	}
}

// Update handles messages.
func (h *Home) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case HomeListedMsg:
		// A listing that failed draws nothing of its own: the load that
		// follows says what it could not read.
		if h.data == nil && msg.Err == nil {
			h.listing = msg.Listing
		}
		return h, h.load()
	case HomeLoadedMsg:
		h.data, h.err = msg.Data, msg.Err
		h.items = h.items[:0]
		if h.data != nil {
			for i := range h.data.Passports {
				h.items = append(h.items, homeItem{0, i})
			}
			for i := range h.data.Projects {
				h.items = append(h.items, homeItem{1, i})
			}
			for i := range h.data.Packs {
				h.items = append(h.items, homeItem{2, i})
			}
			for i := range h.data.Incoming {
				h.items = append(h.items, homeItem{3, i})
			}
		}
		if h.cur >= len(h.items) {
			h.cur = max(len(h.items)-1, 0)
		}
		return h, nil
	case common.ResumedMsg:
		// A landing, a merge or answers may have changed the lists.
		return h, h.load()
	case tea.KeyMsg:
		if c, ok := h.keys.List.move(msg, h.cur, len(h.items), h.h-4); ok {
			h.cur = c
			return h, nil
		}
		switch {
		case key.Matches(msg, h.keys.Refresh):
			return h, h.load()
		case msg.String() == "esc":
			return h, common.Pop
		case key.Matches(msg, h.keys.Checks) && len(h.items) > 0 && h.items[h.cur].kind == 0:
			return h, common.Push(NewChecks(h.c, h.data.Passports[h.items[h.cur].i].ID))
		case key.Matches(msg, h.keys.Open) && len(h.items) > 0:
			it := h.items[h.cur]
			switch it.kind {
			case 0:
				return h, common.Push(NewPassport(h.c, h.data.Passports[it.i].ID))
			case 1:
				in := NewInbox(h.c)
				in.pendingProject = h.data.Projects[it.i].Project
				return h, common.Push(in)
			case 2:
				// Only a pack to land is landed; a merged receipt, a
				// landed handoff and one's own pack open the passport
				// they belong to (issue 17).
				st := h.packState(it.i)
				if st.State == common.PackToLand {
					return h, common.Push(landing.New(h.c, h.data.Packs[it.i]))
				}
				if st.Passport != "" {
					return h, common.Push(NewPassport(h.c, st.Passport))
				}
			case 3:
				// A pack that came over A2A lands as any file, and only
				// when the person says so (D23); a landed one opens its
				// passport, a withdrawn or answered one stays as it is.
				in := h.data.Incoming[it.i]
				switch {
				case in.State == "waiting":
					return h, common.Push(landing.New(h.c, in.Path))
				case in.LandedAs != "":
					return h, common.Push(NewPassport(h.c, in.LandedAs))
				}
			}
		}
	}
	return h, nil
}

// packState is what pack i is to the store; a pack nothing says about is
// one to land.
func (h *Home) packState(i int) common.PackState {
	if i < len(h.data.PackStates) {
		return h.data.PackStates[i]
	}
	return common.PackState{State: common.PackToLand}
}

// packName is how a pack is named on the list: its path from the folder tp
// was started in (a file name, for a pack waiting there), never an absolute
// path cut from the right.
func (h *Home) packName(p string) string {
	if r, err := filepath.Rel(h.c.WorkDir, p); err == nil && filepath.IsLocal(r) {
		return r
	}
	return filepath.Base(p)
}

// View draws the three lists as one scrolling list with headings.
func (h *Home) View() string {
	th := h.c.Theme
	if h.data == nil {
		if h.err != nil {
			return components.Pad(append([]string{th.Error.Render("✗ could not read the store")}, components.Wrap(h.err.Error(), h.w)...), h.w, h.h)
		}
		if h.listing != nil {
			return h.listingView()
		}
		return components.Pad([]string{th.Muted.Render("Reading the store…")}, h.w, h.h)
	}
	d := h.data
	var ls []string
	cursorLine := 0
	// A row wider than the screen wraps under itself: a title is never
	// cut (issue 17).
	row := func(idx int, s string) {
		ws := components.WrapStyled(s, h.w-4)
		if idx == h.cur {
			cursorLine = len(ls) + len(ws) - 1
			ls = append(ls, th.Cursor.Render("▸ ")+ws[0])
		} else {
			ls = append(ls, "  "+ws[0])
		}
		for _, w := range ws[1:] {
			ls = append(ls, "    "+w)
		}
	}
	idx := 0
	ls = append(ls, th.Subtitle.Render(fmt.Sprintf("Passports (%d)", len(d.Passports))))
	if len(d.Passports) == 0 {
		ls = append(ls, th.Muted.Render("  none yet: tp new, or tp land a pack"))
	}
	for _, p := range d.Passports {
		// The counts come before the title and the lineage, so a long
		// title never pushes a failed check off the row (issue 17).
		s := th.Title.Render(components.Line(p.ID))
		if p.FailedChecks > 0 {
			s += th.Fail.Render(" · " + components.Count(p.FailedChecks, "check failed", "checks failed"))
		}
		if p.OpenAsks > 0 {
			s += th.Warn.Render(" · " + components.Count(p.OpenAsks, "open ask", "open asks"))
		}
		if p.PendingChecks > 0 {
			s += th.Warn.Render(" · " + components.Count(p.PendingChecks, "check pending", "checks pending"))
		}
		if p.Flagged > 0 {
			// Last of the counts: the passport screen quotes each (D25).
			s += th.Warn.Render(fmt.Sprintf(" · ⚠ %d flagged", p.Flagged))
		}
		s += " · " + components.Line(p.Title)
		if len(p.Chain) > 0 {
			s += th.Muted.Render(" · " + components.Line(strings.Join(p.Chain, " → ")))
		}
		row(idx, s)
		idx++
	}
	ls = append(ls, "", th.Subtitle.Render("Open acts by project"))
	if len(d.Projects) == 0 {
		ls = append(ls, th.Muted.Render("  nothing waiting on you"))
	}
	for _, p := range d.Projects {
		row(idx, fmt.Sprintf("%-24s %s", components.Line(p.Project), th.Warn.Render(fmt.Sprintf("%d open", p.Open))))
		idx++
	}
	ls = append(ls, "", th.Subtitle.Render("Packs in this folder"))
	if len(d.Packs) == 0 {
		ls = append(ls, th.Muted.Render("  none"))
	}
	for i, p := range d.Packs {
		name := components.Line(h.packName(p))
		// A pack already merged, landed or sent says so first (so a long
		// name never pushes it off), and is not offered for landing.
		opens := th.Muted.Render(" · " + name + " · enter opens it")
		switch st := h.packState(i); st.State {
		case common.PackToLand:
			row(idx, name+th.Muted.Render(" · enter to land"))
		case "merged":
			row(idx, th.Pass.Render("✓ merged into "+components.Line(st.Passport))+opens)
		case "landed":
			row(idx, th.Pass.Render("✓ landed as "+components.Line(st.Passport))+opens)
		case "sent by you":
			row(idx, th.Muted.Render("↗ sent by you from "+components.Line(st.Passport))+opens)
		default:
			row(idx, th.Muted.Render(components.Line(st.State)+" · "+name))
		}
		idx++
	}
	if len(d.Incoming) > 0 {
		ls = append(ls, "", th.Subtitle.Render(fmt.Sprintf("Packs over A2A (%d)", len(d.Incoming))))
	}
	for _, in := range d.Incoming {
		// The state comes before the sender's title, so a long title can
		// never push what the row offers off the screen.
		s := th.Title.Render(components.Line(in.TaskID)) + " " + components.Line(in.Kind)
		switch {
		case in.State == "waiting":
			s += th.Muted.Render(" · enter to land")
		case in.LandedAs != "":
			s += th.Muted.Render(" · landed as " + components.Line(in.LandedAs))
		default:
			s += th.Warn.Render(" · " + components.Line(in.State))
		}
		s += " · " + components.Line(in.Title)
		row(idx, s)
		idx++
	}
	for _, e := range d.Errors {
		ls = append(ls, th.Warn.Render("⚠ ")+components.Line(e))
	}
	h.off = components.Follow(h.off, cursorLine, h.h, len(ls))
	vis, _ := components.Window(ls, h.off, h.h)
	return components.Pad(vis, h.w, h.h)
}

// listingView is the home screen before its lists are read: the passport
// files by id and what is still being read, said as such. Nothing on it is
// a title, a count of asks or acts, or a pack: those come with the load.
func (h *Home) listingView() string {
	th := h.c.Theme
	ids := h.listing.Passports
	ls := []string{th.Subtitle.Render(fmt.Sprintf("Passports (%d)", len(ids))) + th.Muted.Render(" · reading "+components.Count(len(ids), "file", "files")+"…")}
	if len(ids) == 0 {
		ls[0] = th.Subtitle.Render("Passports") + th.Muted.Render(" · reading the store…")
	}
	// The ids fill what the screen has left after the two sections below.
	room := max(h.h-len(ls)-4, 1)
	for i, id := range ids {
		if i == room-1 && len(ids) > room {
			ls = append(ls, th.Muted.Render("  ↓ "+components.Count(len(ids)-i, "more passport file", "more passport files")+", listed once read"))
			break
		}
		ls = append(ls, "  "+th.Title.Render(components.Line(id)))
	}
	ls = append(ls, "", th.Subtitle.Render("Open acts by project")+th.Muted.Render(" · reading the acts log…"),
		"", th.Subtitle.Render("Packs in this folder")+th.Muted.Render(" · looking…"))
	vis, _ := components.Window(ls, 0, h.h)
	return components.Pad(vis, h.w, h.h)
}
