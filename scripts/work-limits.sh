#!/usr/bin/env bash
# work-limits.sh: issue 11's "work that a small input can make huge", checked
# with /usr/bin/time rather than timed assertions in tests. Each case
# generates a small hostile pack (scripts/hostilegen, nothing committed),
# runs tp on it, and fails when tp takes more CPU time (user + sys) or more
# memory (maximum resident set) than the case allows, or does not end the
# way it should (the rule named, the exit code).
#
#   scripts/work-limits.sh            # every case
#   scripts/work-limits.sh tagcont    # cases whose name contains "tagcont"
#
# The CPU bounds are generous (a shared 2-core machine) but far below what a
# quadratic reading takes: BENCHMARKS.md ("Work limits") has the figures
# before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TP_STORE=$work/store TP_MACHINE=limitbox TP_ACTOR=limits NO_COLOR=1
mkdir -p "$TP_STORE"
go build -o "$work/tp" ./cmd/tp
go build -o "$work/gen" ./scripts/hostilegen
filter=${1:-}
fail=0

# check NAME CASE N MAX_CPU_S MAX_RSS_MIB WANT_EXIT WANT_TEXT -- tp args (PACK is replaced)
check() {
	local name=$1 kind=$2 n=$3 cpu=$4 rss=$5 want_exit=$6 want_text=$7
	shift 8
	[[ -n $filter && $name != *"$filter"* ]] && return 0
	local pack=$work/$kind-$n.taskpack
	[[ -f $pack ]] || "$work/gen" -base examples/handoff.taskpack -case "$kind" -n "$n" -out "$pack"
	local args=() a
	for a in "$@"; do args+=("${a//PACK/$pack}"); done
	local code=0
	/usr/bin/time -f "%U %S %M %e" -o "$work/time" "$work/tp" "${args[@]}" >"$work/out" 2>&1 || code=$?
	read -r user sys kb wall < <(tail -n 1 "$work/time")
	local used
	used=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')
	local mib=$((kb / 1024))
	local verdict=ok
	if awk -v a="$used" -v b="$cpu" 'BEGIN{exit !(a>b)}'; then verdict="FAIL: cpu ${used}s > ${cpu}s"; fi
	if ((mib > rss)); then verdict="FAIL: rss ${mib} MiB > ${rss} MiB"; fi
	if ((code != want_exit)); then verdict="FAIL: exit $code, want $want_exit"; fi
	if [[ -n $want_text ]] && ! grep -qE -- "$want_text" "$work/out"; then verdict="FAIL: output lacks /$want_text/"; fi
	printf '%-34s %7s s cpu %5d MiB %6s s wall  exit %d  %s\n' "$name" "$used" "$mib" "$wall" "$code" "$verdict"
	if [[ $verdict != ok ]]; then
		fail=1
		tail -n 3 "$work/out" | cut -c1-300
	fi
}

#     name                          case     n       cpu  MiB  exit  text                     -- tp …
check "tagcont conformance 300k"    tagcont  300000  5    128  2     'D10 limit-work'         -- conformance PACK
check "tagcont land 300k"           tagcont  300000  5    128  1     'D10 limit-work'         -- land --plain PACK
check "tagcont land 1M"             tagcont  1000000 5    128  1     'D10 limit-work'         -- land --plain PACK
check "extra conformance 99k"       extra    99000   5    256  2     'payload-unlisted'       -- conformance PACK
check "extra land --dry-run 99k"    extra    99000   5    256  1     'payload-unlisted'       -- land --plain --dry-run PACK
check "deep json conformance 150k"  deep     150000  5    128  2     'D10 limit-object'       -- conformance PACK
check "deep json land 150k"         deep     150000  5    128  1     'D10 limit-object'       -- land --plain PACK
check "zeros conformance 1000"      zeros    1000    10   64   0     'conformant: 11/11'      -- conformance PACK
check "zeros land --dry-run 1000"   zeros    1000    10   64   0     'dry run'                -- land --plain --dry-run PACK
check "zeros conformance 9000"      zeros    9000    60   64   0     'conformant: 11/11'      -- conformance PACK

exit $fail
