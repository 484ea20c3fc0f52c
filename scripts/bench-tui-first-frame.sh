#!/usr/bin/env bash
# bench-tui-first-frame.sh: the time from starting tp's terminal UI in tmux
# to its first frame (the home screen, 1,000 passports and 1,000 open
# acts in the store), against the same measure of a Go hello-world printing
# the line looked for ("Passports (1000)"): what starting a program in tmux and seeing its
# output costs anyway. The poller starts the tmux session and reads the
# pane until the line shows; the runs alternate, tp then the yardstick.
# Prints each median and the median of the pair ratios, and the load.
#
#   scripts/bench-tui-first-frame.sh
#   TP_BENCH_RUNS=20 TP_BENCH_N=1000 scripts/bench-tui-first-frame.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux > /dev/null || { echo "tmux is not installed" >&2; exit 1; }
runs=${TP_BENCH_RUNS:-10}
n=${TP_BENCH_N:-1000}
work=$(mktemp -d "${TMPDIR:-/tmp}/tp-tui-frame.XXXXXX")
trap '[ -n "${TP_BENCH_KEEP:-}" ] || rm -rf "$work"' EXIT
go build -o "$work/" ./cmd/tp ./cmd/tp-full   # the TUI is tp-full's, which tp starts (D26)
mkdir -p "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("Passports (%d)") }\n' "$n" > "$work/hello/main.go"
printf 'module hello\n\ngo 1.21\n' > "$work/hello/go.mod"
(cd "$work/hello" && go build -o "$work/hello/hello" .)
# Only now (go's caches live under HOME): tp's store, acts and home.
export TP_STORE=$work/store TP_ACTS=$work/acts TP_MACHINE=benchbox TP_ACTOR=bench HOME=$work/home XDG_CACHE_HOME=$work/cache
mkdir -p "$TP_STORE" "$HOME"

# n passports (ids of the store's alphabet) and n open acts in one project.
python3 - "$TP_STORE" "$n" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
abc = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
for i in range(n):
    a, b, c, e = (i // 27000) % 30, (i // 900) % 30, (i // 30) % 30, i % 30
    pid = "TP-BNCH-" + abc[a] + abc[b] + abc[c] + abc[e]
    p = {"spec": "2origin/0.1", "kind": "task.origin", "id": pid, "title": "Passport %d" % i, "goal": "Goal %d" % i,
         "version": 1, "created_at": "2026-09-01T07:30:00Z", "updated_at": "2026-09-%02dT13:58:41Z" % (1 + i % 28),
         "current_state": "", "facts": [{"claim": "Fact of %d" % i, "scope": "project"}], "decisions": [],
         "actions": [], "artifacts": [], "verification": "", "next_steps": ["Keep going"], "learnings": []}
    open("%s/%s.json" % (d, pid), "w").write(json.dumps(p, indent=2) + "\n")
PY
{ printf '# Bench\n\n## Tasks\n\n'; python3 -c "
for i in range($n): print('- [ ] [owner] Pay invoice %d from supplier %d' % (i, i % 311))"; } > "$work/STATE.md"
"$work/tp" acts sync "$work/STATE.md" --project shop --offline > /dev/null 2>&1
"$work/tp" --plain | grep -E '^(passports|acts) '

python3 - "$runs" "$work" "$n" <<'PY'
import os, statistics, subprocess, sys, time
runs, work = int(sys.argv[1]), sys.argv[2]
env = " ".join("%s=%s" % (k, os.environ[k]) for k in ("TP_STORE", "TP_ACTS", "TP_MACHINE", "TP_ACTOR", "HOME", "XDG_CACHE_HOME"))
def first_frame(cmd, want):
    s = "tp-bench-frame-%d" % os.getpid()
    t0 = time.monotonic()
    subprocess.run(["tmux", "new-session", "-d", "-s", s, "-x", "120", "-y", "40", "env %s %s; sleep 60" % (env, cmd)], check=True)
    try:
        while True:
            out = subprocess.run(["tmux", "capture-pane", "-p", "-t", s], capture_output=True, text=True).stdout
            if want in out:
                return time.monotonic() - t0
            if time.monotonic() - t0 > 30:
                sys.exit("no frame with %r after 30 s:\n%s" % (want, out))
    finally:
        subprocess.run(["tmux", "kill-session", "-t", s])
want = "Passports (%s)" % sys.argv[3]
tp, hello = [], []
first_frame(work + "/tp", want)  # warm-up
for _ in range(runs):
    tp.append(first_frame(work + "/tp", want))
    hello.append(first_frame(work + "/hello/hello", want))
ratios = [a / b for a, b in zip(tp, hello)]
load = open("/proc/loadavg").read().split()[:3]
print("load: %s (1, 5, 15 min); %d pairs" % (" ".join(load), runs))
print("tp first frame     median %6.1f ms (min %.1f, max %.1f)" % (1000 * statistics.median(tp), 1000 * min(tp), 1000 * max(tp)))
print("hello in tmux      median %6.1f ms (min %.1f, max %.1f)" % (1000 * statistics.median(hello), 1000 * min(hello), 1000 * max(hello)))
print("tp / hello         median %6.2f (%.2f-%.2f)" % (statistics.median(ratios), min(ratios), max(ratios)))
print("tp - hello         median %6.1f ms" % (1000 * statistics.median([a - b for a, b in zip(tp, hello)])))
PY
