#!/usr/bin/env bash
# bench-startup.sh: tp's start-up against a Go hello-world built here, in
# alternating paired runs (farm-bench --vs when present, else a loop of
# A B A B runs timed with date), and prints the median wall ratio for each
# row: tp --version, tp conformance of a small pack, tp --plain (home).
#
#   scripts/bench-startup.sh
#   TP_BENCH_RUNS=20 scripts/bench-startup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${TP_BENCH_RUNS:-20}
work=$(mktemp -d "${TMPDIR:-/tmp}/tp-startup.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/tp" ./cmd/tp
mkdir -p "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' > "$work/hello/main.go"
printf 'module hello\n\ngo 1.21\n' > "$work/hello/go.mod"
(cd "$work/hello" && go build -o "$work/hello/hello" .)
export TP_STORE=$work/store TP_ACTS=$work/acts TP_MACHINE=benchbox TP_ACTOR=bench HOME=$work/home
mkdir -p "$HOME"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

# median of A/B wall over alternating runs
ratio() {
	local name=$1; shift
	if command -v farm-bench >/dev/null; then
		farm-bench -n "$runs" --vs "$work/hello/hello" -- "$@" 2>&1 |
			awk -v n="$name" '/^A\/B wall/ {print n ": wall ratio (median) " $4}'
		return
	fi
	local rs=()
	for _ in $(seq "$runs"); do
		local t0 t1 t2
		t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true
		t1=$(date +%s%N); "$work/hello/hello" >/dev/null
		t2=$(date +%s%N)
		rs+=("$(awk -v a=$((t1 - t0)) -v b=$((t2 - t1)) 'BEGIN {printf "%.3f", a / b}')")
	done
	printf '%s\n' "${rs[@]}" | sort -n | awk -v n="$name" '{r[NR]=$1} END {print n ": wall ratio (median) " r[int((NR+1)/2)]}'
}

ratio "tp --version" "$work/tp" --version
ratio "tp conformance examples/handoff.taskpack" "$work/tp" conformance examples/handoff.taskpack
ratio "tp --plain (home)" "$work/tp" --plain
