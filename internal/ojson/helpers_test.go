package ojson

// Helpers only tests call, kept out of the binary.

// Canonicalize parses JSON and writes it back canonically.
func Canonicalize(data []byte) ([]byte, error) {
	v, _, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return Canonical(v), nil
}
