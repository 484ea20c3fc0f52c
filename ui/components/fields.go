package components

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"

	"github.com/tp-dev/tp/themes"
)

// NewTextInput and NewTextArea use a steady cursor (no blink timers, stable
// snapshots) and the theme's styles, so --theme no-color means no colour
// in the text fields either.
func NewTextInput(th *themes.Theme) textinput.Model {
	ti := textinput.New()
	ti.Cursor.SetMode(cursor.CursorStatic)
	ti.PromptStyle, ti.TextStyle, ti.PlaceholderStyle = th.Key, th.Text, th.Muted
	ti.Cursor.Style, ti.Cursor.TextStyle = th.Cursor.Reverse(true), th.Text
	return ti
}

// NewTextArea is NewTextInput for text of many lines.
func NewTextArea(th *themes.Theme) textarea.Model {
	ta := textarea.New()
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	st := textarea.Style{Base: th.Text, CursorLine: th.Text, CursorLineNumber: th.Muted, EndOfBuffer: th.Muted,
		LineNumber: th.Muted, Placeholder: th.Muted, Prompt: th.Key, Text: th.Text}
	ta.FocusedStyle, ta.BlurredStyle = st, st
	ta.Cursor.Style, ta.Cursor.TextStyle = th.Cursor.Reverse(true), th.Text
	return ta
}
