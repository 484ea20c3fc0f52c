# Everyday tasks. CI runs .ci/run.
.PHONY: test lint golden-update fuzz bench

test:
	go test ./...

lint:
	gofmt -l $$(git ls-files '*.go')
	go vet ./...

golden-update:
	go test ./ui/... -update

fuzz:
	go test -run XXX -fuzz FuzzCanonical -fuzztime 30s ./model/ojson
	go test -run XXX -fuzz FuzzText -fuzztime 30s ./model/sanitize

bench:
	go test -run XXX -bench . -benchmem ./...
