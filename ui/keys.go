package ui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"

	"github.com/tp-dev/tp/ui/components"
)

func kb(keys []string, k, desc string) key.Binding { return components.KB(keys, k, desc) }

// ListKeys move a cursor in a list (see components.ListKeys).
type ListKeys struct{ components.ListKeys }

// DefaultListKeys are the list movement keys.
func DefaultListKeys() ListKeys { return ListKeys{components.DefaultListKeys()} }

// move applies a list key to cursor in a list of n rows with page size h.
func (k ListKeys) move(msg fmt.Stringer, cursor, n, h int) (int, bool) {
	return k.Move(msg, cursor, n, h)
}

type (
	// DialogKeys answer a confirmation.
	DialogKeys = components.DialogKeys
	// EditKeys control a text field.
	EditKeys = components.EditKeys
)

// DefaultDialogKeys are y / n,esc / e.
func DefaultDialogKeys() DialogKeys { return components.DefaultDialogKeys() }

// DefaultEditKeys are ctrl+s to keep, esc to throw away.
func DefaultEditKeys() EditKeys { return components.DefaultEditKeys() }
