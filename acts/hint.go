package acts

// HintError is an error with a next step for the person.
type HintError struct {
	Err      error
	HintText string
}

func (e *HintError) Error() string { return e.Err.Error() }
func (e *HintError) Unwrap() error { return e.Err }

// Hint is the next step to suggest.
func (e *HintError) Hint() string { return e.HintText }

// WithHint is err with the next step to suggest.
func WithHint(err error, hint string) error { return &HintError{Err: err, HintText: hint} }
