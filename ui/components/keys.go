package components

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
)

// KB is a key binding with its help.
func KB(keys []string, k, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
}

// ListKeys move a cursor in a list.
type ListKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// DefaultListKeys are the list movement keys.
func DefaultListKeys() ListKeys {
	return ListKeys{
		Up:       KB([]string{"up", "k"}, "↑/k", "up"),
		Down:     KB([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   KB([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown: KB([]string{"pgdown", "ctrl+d", " "}, "pgdn", "page down"),
		Top:      KB([]string{"home", "g"}, "g", "top"),
		Bottom:   KB([]string{"end", "G"}, "G", "bottom"),
	}
}

// Bindings lists the movement keys for help.
func (k ListKeys) Bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// Move applies a list key to cursor in a list of n rows with page size h;
// it reports whether the key was a movement key.
func (k ListKeys) Move(msg fmt.Stringer, cursor, n, h int) (int, bool) {
	if h < 1 {
		h = 1
	}
	switch {
	case key.Matches(msg, k.Up):
		cursor--
	case key.Matches(msg, k.Down):
		cursor++
	case key.Matches(msg, k.PageUp):
		cursor -= h
	case key.Matches(msg, k.PageDown):
		cursor += h
	case key.Matches(msg, k.Top):
		cursor = 0
	case key.Matches(msg, k.Bottom):
		cursor = n - 1
	default:
		return cursor, false
	}
	if cursor >= n {
		cursor = n - 1
	}
	if cursor < 0 {
		cursor = 0
	}
	return cursor, true
}

// DialogKeys answer a confirmation.
type DialogKeys struct {
	Yes, No, Edit key.Binding
}

// DefaultDialogKeys are y / n,esc / e.
func DefaultDialogKeys() DialogKeys {
	return DialogKeys{
		Yes:  KB([]string{"y"}, "y", "yes, do it"),
		No:   KB([]string{"n", "esc"}, "n/esc", "cancel"),
		Edit: KB([]string{"e"}, "e", "edit first"),
	}
}

// EditKeys control a text field.
type EditKeys struct {
	Save, Cancel key.Binding
}

// DefaultEditKeys are ctrl+s to keep, esc to throw away.
func DefaultEditKeys() EditKeys {
	return EditKeys{
		Save:   KB([]string{"ctrl+s"}, "ctrl+s", "keep"),
		Cancel: KB([]string{"esc"}, "esc", "discard"),
	}
}
