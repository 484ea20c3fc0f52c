# Everyday tasks. CI runs .ci/run.
.PHONY: install test lint golden-update fuzz bench deadcode

# tp and tp-full, built together and linked without cgo (D27).
install:
	CGO_ENABLED=0 go install ./cmd/...

test:
	go test ./...

lint:
	gofmt -l $$(git ls-files '*.go')
	go vet ./...
	go mod tidy -diff

# Functions nothing reaches from main or from a test. Not in .ci/run: the
# tool is fetched from the module proxy and takes about 30 s to load.
# Without -test it also lists what only tests call.
deadcode:
	go run golang.org/x/tools/cmd/deadcode@v0.52.0 -test ./...

golden-update:
	go test ./ui/... -update

# Every fuzz target of every package, one after another (go test fuzzes one
# target per run), FUZZTIME each: `make fuzz FUZZTIME=2m`. Minimising is
# capped: with checksummed inputs it otherwise eats the whole run.
FUZZTIME ?= 30s
fuzz:
	@set -e; for pkg in $$(go list ./...); do \
		for t in $$(go test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "== $$pkg $$t"; \
			go test -run XXX -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 1s $$pkg; \
		done; \
	done

bench:
	go test -run XXX -bench . -benchmem ./...
