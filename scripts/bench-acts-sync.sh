#!/usr/bin/env bash
# bench-acts-sync.sh: issue 15's case — tp acts sync of a 1.8 MB state
# document whose every line was replaced after its acts were raised (28
# lines of 21,000 CJK characters, none alike: every vanished act is compared
# with every new line for a rewrite, Acts 0.3 §4 step 5) — against its floor,
# scripts/acts-sync-floor.py, which reads the same log and document and
# writes the same records (28 raised, 28 claimed) and the stamped document,
# with none of the registrar's rules. Alternating paired runs
# (scripts/pairbench); each run starts from a fresh copy of the same state
# (the copy is in both sides' times).
#
#   scripts/bench-acts-sync.sh
#   TP_BENCH_RUNS=10 TP_BENCH_DIR=/dev/shm scripts/bench-acts-sync.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${TP_BENCH_RUNS:-10}
work=$(mktemp -d "${TP_BENCH_DIR:-${TMPDIR:-/tmp}}/tp-acts-sync.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/tp" ./cmd/tp
go build -o "$work/pairbench" ./scripts/pairbench
export TP_MACHINE=benchbox TP_ACTOR=bench HOME="$work/home" TP_TRUST_DIR="$work/trust"
# The documents of BenchmarkSyncRewrittenBigDocument's CJK shape
# (actsession/sync_bench_test.go, wordsDoc(28, -21000, seed)).
python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
vocab = [chr(c) for c in range(0x4E00, 0x4E00 + 20000)]
def doc(n, words, seed):
    out = ["# Project\n\n## Tasks\n\n"]
    x = (seed * 7919 + 1) & 0xFFFFFFFF
    for k in range(n):
        line = ["- [ ] [owner] %d" % (seed * n + k)]
        for _ in range(words):
            x = (x * 1664525 + 1013904223) & 0xFFFFFFFF
            line.append(vocab[(x >> 8) % len(vocab)])
        out.append("".join(line) + "\n")
    return "".join(out)
for name, seed in (("before.md", 1), ("after.md", 2)):
    with open(os.path.join(work, name), "w", encoding="utf-8") as f:
        f.write(doc(28, 21000, seed))
PY
mkdir -p "$work/base"
cp "$work/before.md" "$work/base/STATE.md"
XDG_CACHE_HOME="$work/base/cache" "$work/tp" --acts-dir "$work/base/acts" acts sync "$work/base/STATE.md" --project bench --offline > /dev/null 2>&1
echo "machine: $(nproc) cores, $(uname -sr), on $(df -T "$work" | awk 'NR==2 {print $2}'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "document: $(wc -c < "$work/after.md") bytes, $(ls "$work/base/acts/bench/records" | wc -l) acts raised before"
prep() { echo "rm -rf $work/$1 && cp -R $work/base $work/$1 && cp $work/after.md $work/$1/STATE.md"; }
"$work/pairbench" -n "$runs" -- \
  sh -c "$(prep a) && XDG_CACHE_HOME=$work/a/cache $work/tp --acts-dir $work/a/acts acts sync $work/a/STATE.md --project bench --offline" \
  ::: sh -c "$(prep b) && python3 scripts/acts-sync-floor.py $work/b/acts bench $work/b/STATE.md"
# what each side wrote, the same records
diff <(ls "$work/a/acts/bench/records" | sort) <(ls "$work/b/acts/bench/records" | sort) && cmp "$work/a/STATE.md" "$work/b/STATE.md" &&
  echo "both sides wrote the same record files and the same document"
