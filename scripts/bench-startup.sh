#!/usr/bin/env bash
# bench-startup.sh: tp's start-up against a Go hello-world built here, in
# alternating paired runs (scripts/pairbench: A B A B …, ratios taken pair by
# pair), for each row: tp --version, tp conformance of a small pack, tp
# --plain (home). Prints wall, CPU, peak memory and page faults of each and
# the median A/B ratios, and the load.
#
#   scripts/bench-startup.sh
#   TP_BENCH_RUNS=40 scripts/bench-startup.sh
#   CGO_ENABLED=1 scripts/bench-startup.sh     # tp linked with cgo, as a plain go install does (D27)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${TP_BENCH_RUNS:-30}
work=$(mktemp -d "${TMPDIR:-/tmp}/tp-startup.XXXXXX")
trap 'rm -rf "$work"' EXIT
# tp as the README installs it: without cgo (D27), unless told otherwise.
CGO_ENABLED=${CGO_ENABLED:-0} go build -o "$work/tp" ./cmd/tp
go build -o "$work/pairbench" ./scripts/pairbench
mkdir -p "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' > "$work/hello/main.go"
printf 'module hello\n\ngo 1.21\n' > "$work/hello/go.mod"
(cd "$work/hello" && go build -o "$work/hello/hello" .)
export TP_STORE=$work/store TP_ACTS=$work/acts TP_MACHINE=benchbox TP_ACTOR=bench HOME=$work/home
mkdir -p "$HOME"
"$work/tp" new --title "Start-up" --goal "Measure the home screen" --plain > /dev/null

for row in "--version" "conformance examples/handoff.taskpack" "--plain"; do
	echo "== tp $row"
	# shellcheck disable=SC2086 # the row is split into words on purpose
	"$work/pairbench" -n "$runs" -- "$work/tp" $row ::: "$work/hello/hello"
done
