#!/usr/bin/env bash
# bench-open-big.sh: tp open ID --json and tp show ID --plain of a passport of
# 110,000 facts (about 10 MB), against python3 reading the same file and
# writing it back indented (json.load + json.dump), in alternating paired
# runs (scripts/pairbench); prints each one's wall, CPU, peak memory and page
# faults and the median A/B ratios.
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
go build -o "$work/pairbench" ./scripts/pairbench
yard=(python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1])), sys.stdout, indent=2, ensure_ascii=False)' "$TP_STORE/TP-BIGG-0001.json")
echo "== tp open --json"
"$work/pairbench" -n "$runs" -warmup 1 -- "$work/tp" open TP-BIGG-0001 --json ::: "${yard[@]}"
echo "== tp show --plain"
"$work/pairbench" -n "$runs" -warmup 1 -- "$work/tp" show TP-BIGG-0001 --plain ::: "${yard[@]}"
