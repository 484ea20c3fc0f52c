#!/usr/bin/env bash
# bench-land-many.sh: land a pack of 5,000 small files (70–1,500 bytes, made in
# 50 folders; tp pack keeps each --file's base name, so they land in one
# folder) with tp against its floor — unzip + sha256sum + sync of the same
# files — in alternating paired runs (scripts/pairbench, ratios pair by
# pair), then, when node and the reference are available, tp and
# task-passport 0.3.0 alternating under /usr/bin/time.
#
#   scripts/bench-land-many.sh
#   TP_REFERENCE_DIR=DIR scripts/bench-land-many.sh   # DIR holds the reference's cli.js
#   TP_BENCH_DIR=/dev/shm scripts/bench-land-many.sh  # where the stores live (default: a temp dir)
#   TP_BENCH_RUNS=5 TP_BENCH_FILES=5000 scripts/bench-land-many.sh
#
# Every run lands into a fresh store and nothing is deleted until the end:
# ext4 does not reuse recently deleted inodes, and creating files right after
# deleting thousands makes its inode allocator scan them (ext4_create →
# recently_deleted), which would measure the previous run's rm -rf.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${TP_BENCH_RUNS:-5}
files=${TP_BENCH_FILES:-5000}
work=$(mktemp -d "${TP_BENCH_DIR:-${TMPDIR:-/tmp}}/tp-land-many.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TP_MACHINE=benchbox TP_ACTOR=bench

go build -o "$work/tp" ./cmd/tp
tp=$work/tp
python3 - "$work/lug" "$files" <<'PY'
import os, random, sys
random.seed(5)
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "d%02d" % (i % 50))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%04d.txt" % i), "w") as f:
        f.write(("line %d of a small file %d\n" % (i, random.randint(0, 1 << 30))) * random.randint(2, 40))
PY
id=$("$tp" --store "$work/S" new --title "land many" --goal "measure" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["passport_id"])')
(cd "$work" && find lug -type f | sort | sed 's/^/--file\n/' | tr '\n' '\0' | xargs -0 "$tp" --store S pack "$id" --out many.taskpack > /dev/null)
echo "machine: $(nproc) cores, $(uname -sr), stores on $(df -T "$work" | awk 'NR==2 {print $2}'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
ls -l "$work/many.taskpack" | awk -v n="$files" '{printf "pack: %d files, %d bytes\n", n, $5}'

go build -o "$work/pairbench" ./scripts/pairbench
echo "== tp land against the floor (unzip + sha256sum + sync), a fresh folder each run"
"$work/pairbench" -n "$runs" -warmup 1 -- \
  sh -c 'd=$(mktemp -d -p "$1") && exec env TP_MACHINE=otherbox "$2" --store "$d/S" land "$1/many.taskpack" --plain' _ "$work" "$tp" ::: \
  sh -c 'd=$(mktemp -d -p "$1") && unzip -q "$1/many.taskpack" -d "$d" && find "$d" -type f -exec sha256sum {} + > /dev/null && sync' _ "$work"

t() { # label, command...
  local label=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" > /dev/null
  read -r wall user sys rss < "$work/time.txt"
  printf '%-6s wall %6.2f s  user %5.2f s  sys %5.2f s  max RSS %4d MiB\n' "$label" "$wall" "$user" "$sys" $((rss / 1024))
}
ref=${TP_REFERENCE_DIR:-}
for i in $(seq "$runs"); do
  t tp env TP_MACHINE=otherbox "$tp" --store "$work/L$i" land "$work/many.taskpack" --plain
  if command -v node > /dev/null && [ -n "$ref" ]; then
    t node node "$ref/cli.js" land "$work/many.taskpack" --store "$work/R$i"
  fi
done
[ -n "$ref" ] || echo "(TP_REFERENCE_DIR unset: no comparison)"
