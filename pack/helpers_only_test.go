package pack

// Helpers only tests call, kept out of the binary.

// Refusals reports everything that forbids writing src (§4.1, §4.3, §4.5,
// D5, D13): a credential in any string or key of the pack object or in any
// byte of any luggage file, a chat transcript, an instruction field, an ask
// without accept or what. It reads every luggage file once. The error is a
// *RefusalError naming every offending field and file, or nil.
func Refusals(src Source) error {
	_, err := refusals(src, nil)
	return err
}
