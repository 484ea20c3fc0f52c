//go:build !unix

package acts

// LockProject is a no-op where flock is not available: the document's
// compare-before-rename and the log's exclusive creates still keep two runs
// from corrupting anything; only their turns are not enforced.
func (l *Log) LockProject(project string, wait func()) (unlock func(), err error) {
	return func() {}, nil
}

// lockPrincipals is a no-op where flock is not available: the principal
// changes are still created exclusively; only their turns are not enforced.
func (l *Log) lockPrincipals(project string) (unlock func(), err error) {
	return func() {}, nil
}
