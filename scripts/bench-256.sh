#!/usr/bin/env bash
# bench-256.sh: pack and judge a 256 MiB mixed pack (half random, half text)
# end to end, with /usr/bin/time -v, against sha256sum over the same payload
# and, when node and the reference implementation are available, against
# task-passport 0.3.0.
#
#   scripts/bench-256.sh                  # uses a temp dir, builds ./cmd/tp
#   TP_REFERENCE_DIR=DIR scripts/bench-256.sh   # DIR: a task-passport 0.3.0 checkout (cli.js)
#
# Figures go to stdout; BENCHMARKS.md records a run.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TP_STORE=$work/store TASK_PASSPORT_STORE=$work/store TP_MACHINE=benchbox TP_ACTOR=bench
mkdir -p "$work/lug" "$TP_STORE"

go build -o "$work/tp" ./cmd/tp
tp=$work/tp

# 128 MiB random + 128 MiB text
head -c $((128 << 20)) /dev/urandom > "$work/lug/random.bin"
python3 - "$work/lug/text.log" <<'PY'
import random, sys
random.seed(7)
words = ["revenue", "region", "slide", "deck", "close", "numbers", "EMEA", "APAC", "2026-09-03", "ok", "build", "passes"]
line = lambda: " ".join(random.choice(words) for _ in range(12)) + "\n"
block = "".join(line() for _ in range(20000)).encode()
want = 128 << 20
with open(sys.argv[1], "wb") as f:
    n = 0
    while n < want:
        b = block[: want - n]
        f.write(b)
        n += len(b)
PY

id=$("$tp" new --title "bench 256 MiB" --goal "measure" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["passport_id"])')

t() { # label, command...  (exit 2, "not conformant", is reported, not fatal)
  local label=$1; shift
  local rc=0
  /usr/bin/time -v "$@" > /dev/null 2> "$work/time.txt" || rc=$?
  if [ "$rc" -ne 0 ] && ! grep -q 'Exit status: 2' "$work/time.txt"; then cat "$work/time.txt"; return 1; fi
  local wall rss user sys
  wall=$(grep 'Elapsed (wall clock)' "$work/time.txt" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$work/time.txt" | awk '{print $NF}')
  user=$(grep 'User time' "$work/time.txt" | awk '{print $NF}')
  sys=$(grep 'System time' "$work/time.txt" | awk '{print $NF}')
  printf '%-34s wall %8s  user %6ss  sys %6ss  max RSS %6d MiB\n' "$label" "$wall" "$user" "$sys" $((rss / 1024))
}

echo "machine: $(nproc) cores, $(uname -sr), load: $(cut -d' ' -f1-3 /proc/loadavg)"
t "tp pack (256 MiB, bag)"            "$tp" pack "$id" --out "$work/p.taskpack" --file "$work/lug/random.bin" --file "$work/lug/text.log"
ls -l "$work/p.taskpack" | awk '{printf "  pack size: %d MiB\n", $5 / 1048576}'
t "sha256sum over the payload"        sha256sum "$work/lug/random.bin" "$work/lug/text.log"
t "tp conformance (C0-C10)"           "$tp" conformance "$work/p.taskpack"
t "tp convert → flat (--allow-large)" "$tp" convert "$work/p.taskpack" --out "$work/p.taskpack.json" --allow-large
t "tp conformance (flat)"             "$tp" conformance "$work/p.taskpack.json"

ref=${TP_REFERENCE_DIR:-}
if command -v node > /dev/null && [ -n "$ref" ]; then
  t "reference pack (node)"        node "$ref/cli.js" pack "$id" --out "$work/r.taskpack" --file "$work/lug/random.bin" --file "$work/lug/text.log"
  t "reference conformance (node)" node "$ref/cli.js" conformance "$work/r.taskpack"
else
  echo "(node or the reference implementation missing: no comparison)"
fi
