#!/usr/bin/env bash
# bench-acts-raise.sh: `tp acts sync` of a 10,000-line state document (3,332
# owner lines: 3,332 acts raised) against scripts/acts-raise-floor.py writing
# the same number of record files, in alternating pairs (scripts/pairbench),
# and the load.
#
#   scripts/bench-acts-raise.sh
#   TP_BENCH_RUNS=10 scripts/bench-acts-raise.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${TP_BENCH_RUNS:-6}
work=$(mktemp -d "${TMPDIR:-/tmp}/tp-raise.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/tp" ./cmd/tp
go build -o "$work/pairbench" ./scripts/pairbench
python3 - "$work/STATE.md" <<'PY'
import sys
lines = ["# Plan", "", "## Tasks", ""]
for i in range(10000 - 4):
    lines.append(f"- [ ] [owner] Approve item number {i} of the quarterly plan" if i % 3 == 0 else f"- [ ] agent step {i} of the plan")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
# Each run starts from nothing: a fresh acts dir, the unstamped document.
cat > "$work/tp-run.sh" <<SH
#!/bin/sh
rm -rf "$work/acts" && cp "$work/STATE.md" "$work/S.md" && TP_ACTS="$work/acts" HOME="$work" exec "$work/tp" acts sync "$work/S.md" --project bench --plain > /dev/null 2>&1
SH
cat > "$work/floor-run.sh" <<SH
#!/bin/sh
rm -rf "$work/floor" && cp "$work/STATE.md" "$work/S.md" && exec python3 "$PWD/scripts/acts-raise-floor.py" "$work/floor"
SH
chmod +x "$work/tp-run.sh" "$work/floor-run.sh"
"$work/pairbench" -n "$runs" -- "$work/tp-run.sh" ::: "$work/floor-run.sh"
