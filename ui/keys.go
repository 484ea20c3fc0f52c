package ui

import "github.com/charmbracelet/bubbles/key"

func kb(keys []string, k, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
}

// ListKeys move a cursor in a list.
type ListKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// DefaultListKeys are the list movement keys.
func DefaultListKeys() ListKeys {
	return ListKeys{
		Up:       kb([]string{"up", "k"}, "↑/k", "up"),
		Down:     kb([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   kb([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown: kb([]string{"pgdown", "ctrl+d", " "}, "pgdn", "page down"),
		Top:      kb([]string{"home", "g"}, "g", "top"),
		Bottom:   kb([]string{"end", "G"}, "G", "bottom"),
	}
}

// move applies a list key to cursor in a list of n rows with page size h;
// it reports whether the key was a movement key.
func (k ListKeys) move(msgKey interface{ String() string }, cursor, n, h int) (int, bool) {
	if h < 1 {
		h = 1
	}
	s := msgKey.String()
	has := func(b key.Binding) bool {
		for _, x := range b.Keys() {
			if x == s {
				return true
			}
		}
		return false
	}
	switch {
	case has(k.Up):
		cursor--
	case has(k.Down):
		cursor++
	case has(k.PageUp):
		cursor -= h
	case has(k.PageDown):
		cursor += h
	case has(k.Top):
		cursor = 0
	case has(k.Bottom):
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
		Yes:  kb([]string{"y"}, "y", "yes, do it"),
		No:   kb([]string{"n", "esc"}, "n/esc", "cancel"),
		Edit: kb([]string{"e"}, "e", "edit first"),
	}
}

// EditKeys control a text field.
type EditKeys struct {
	Save, Cancel key.Binding
}

// DefaultEditKeys are ctrl+s to keep, esc to throw away.
func DefaultEditKeys() EditKeys {
	return EditKeys{
		Save:   kb([]string{"ctrl+s"}, "ctrl+s", "keep"),
		Cancel: kb([]string{"esc"}, "esc", "discard"),
	}
}
