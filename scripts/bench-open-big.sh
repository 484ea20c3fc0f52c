#!/usr/bin/env bash
# bench-open-big.sh: tp open ID --json and tp show ID --plain of a passport of
# 110,000 facts (about 10 MB), against python3 reading the same file and
# writing it back indented (json.load + json.dump), in alternating runs
# under /usr/bin/time; prints each run's CPU and peak memory and the ratio
# of the CPU medians.
#
#   scripts/bench-open-big.sh
#   TP_BENCH_RUNS=5 TP_BENCH_FACTS=110000 scripts/bench-open-big.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${TP_BENCH_RUNS:-5}
facts=${TP_BENCH_FACTS:-110000}
work=$(mktemp -d "${TMPDIR:-/tmp}/tp-open-big.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/tp" ./cmd/tp
export TP_STORE=$work/store TP_MACHINE=benchbox TP_ACTOR=bench HOME=$work/home
mkdir -p "$TP_STORE" "$HOME"
python3 - "$TP_STORE/TP-BIGG-0001.json" "$facts" <<'PY'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
scopes = ["universal", "org", "machine", "project"]
p = {"spec": "2origin/0.1", "kind": "task.origin", "id": "TP-BIGG-0001", "title": "A big passport",
     "goal": "Stay fast", "version": 3, "machine_id": "", "harness": "bench", "scope": "",
     "created_at": "2026-09-01T07:30:00Z", "updated_at": "2026-09-03T13:58:41Z",
     "current_state": "Many facts.",
     "facts": [{"claim": "Fact %d of the shed" % i, "scope": scopes[i % 4], "verified": i % 2 == 0} for i in range(n)],
     "decisions": [], "actions": [], "artifacts": [], "verification": "", "next_steps": ["Keep going"], "learnings": []}
open(path, "w").write(json.dumps(p, indent=2, ensure_ascii=False) + "\n")
PY
echo "passport: $(wc -c < "$TP_STORE/TP-BIGG-0001.json") bytes, $facts facts; load: $(cut -d' ' -f1-3 /proc/loadavg)"
yard=(python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1])), sys.stdout, indent=2, ensure_ascii=False)' "$TP_STORE/TP-BIGG-0001.json")
cpu() { /usr/bin/time -f '%U %S %M' "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.2f %d\n", $1 + $2, $3 / 1024}'; }
row() {
	local name=$1; shift
	local a=() b=()
	for _ in $(seq "$runs"); do
		read -r c m < <(cpu "$@"); a+=("$c"); echo "  $name: ${c} s CPU, ${m} MiB"
		read -r c m < <(cpu "${yard[@]}"); b+=("$c"); echo "  yardstick: ${c} s CPU, ${m} MiB"
	done
	local ma mb
	ma=$(printf '%s\n' "${a[@]}" | sort -n | awk '{r[NR]=$1} END {print r[int((NR+1)/2)]}')
	mb=$(printf '%s\n' "${b[@]}" | sort -n | awk '{r[NR]=$1} END {print r[int((NR+1)/2)]}')
	echo "$name: CPU median $ma s vs $mb s: ratio $(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.2f", a / b}')"
}
row "tp open --json" "$work/tp" open TP-BIGG-0001 --json
row "tp show --plain" "$work/tp" show TP-BIGG-0001 --plain
