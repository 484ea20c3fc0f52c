#!/usr/bin/env python3
"""Time `tp mcp`: tools/list after initialize, then each tool's round trip.

usage: scripts/mcp-latency.py TP_BINARY [RUNS]

1. tools/list after initialize, a fresh `tp mcp` per run: the median, 90th
   percentile and worst round trip (ms) and how many runs took over 20 ms.
   Run it under scripts/pairbench for the server's peak resident memory
   (the last run holds the server idle for 2 s so the figure is the idle
   server's).
2. Each of the seven task-passport tools (list, open, new, checkpoint, pack,
   land dry run, conformance), RUNS calls each, over one long-lived server,
   the median round trip (ms) from the request written to the response
   read. With TP_REFERENCE_DIR naming a task-passport 0.3.0 checkout (its
   cli.js), the reference's own server (`node cli.js mcp`, its own store)
   gets the same calls in the same run, alternating call by call, and the
   table gives the ratio tp / reference; without it those columns are "—".
   TP_BASELINE naming another tp binary puts that build in the reference's
   place (a change measured against the build before it).
   Who goes first alternates from round to round, so neither server
   always follows the other's writes. After each round's pack and each
   round's checkpoint the script does, alone, in python, the fsyncs that
   tp's durable write makes (the durable floor): for a pack, its bytes and
   the record of packs sent (which tp syncs at once; here one after the
   other), then the pack's folder; for a checkpoint, the new state file in
   the store's folder, then the folder after the rename over the old one.
   It prints each floor's median and tp's time less its floor (the median
   of the differences, round by round) against the reference, which syncs
   nothing: the part of the two writers that is not the disk's.

The machine's load average is printed: on a loaded machine the tail is the
scheduler's, and only ratios from one run compare.
"""
import json, os, statistics, subprocess, sys, tempfile, time

tp = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
load0 = os.getloadavg()[0]


class Server:
    """One MCP server over stdio, spoken to line by line."""

    def __init__(self, argv, env):
        self.work = env["WORK"]  # the working directory: the server is confined to it
        self.store = env["TP_STORE"]
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=env, cwd=self.work)
        self.n = 0

    def send(self, m):
        self.p.stdin.write((json.dumps(m) + "\n").encode())
        self.p.stdin.flush()

    def request(self, method, params):
        self.n += 1
        self.send({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params})
        while True:
            m = json.loads(self.p.stdout.readline())
            if m.get("id") == self.n:
                return m

    def initialize(self):
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, name, args):
        t0 = time.perf_counter()
        m = self.request("tools/call", {"name": name, "arguments": args})
        ms = (time.perf_counter() - t0) * 1000
        res = m.get("result") or {}
        if "error" in m or res.get("isError"):
            raise SystemExit(f"{name} failed: {json.dumps(m)[:400]}")
        doc = res.get("structuredContent")
        if doc is None:
            doc = json.loads(res["content"][0]["text"])
        return ms, doc

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def env_for(kind):
    home = tempfile.mkdtemp(prefix=f"mcp-latency-{kind}-")
    work = os.path.join(home, "work")
    os.makedirs(work)
    store = os.path.join(home, "store")
    return dict(os.environ, TP_STORE=store, TASK_PASSPORT_STORE=store, HOME=home, WORK=work,
                XDG_DATA_HOME=os.path.join(home, "data"), XDG_CACHE_HOME=os.path.join(home, "cache"),
                TP_ACTS=os.path.join(home, "acts"), TP_MACHINE="bench", TP_ACTOR="bench")


# 1. tools/list after initialize, a fresh server per run.
lat = []
listenv = env_for("list")
for i in range(runs):
    s = Server([tp, "mcp"], listenv)
    s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "bench", "version": "1"}})
    t0 = time.perf_counter()
    s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    s.request("tools/list", {})
    lat.append((time.perf_counter() - t0) * 1000)
    if i == runs - 1:
        time.sleep(2)
    s.close()
lat.sort()
over = sum(1 for x in lat if x > 20)
print(f"tools/list after initialize: median {lat[len(lat)//2]:.2f} ms, p90 {lat[int(len(lat)*0.9)]:.2f} ms, "
      f"worst {lat[-1]:.2f} ms, {over} of {runs} runs over 20 ms")

# 2. Each tool's round trip, tp and (when given) the reference alternating.
servers = {"tp": Server([tp, "mcp"], env_for("tp"))}
ref = os.environ.get("TP_REFERENCE_DIR", "")
baseline = os.environ.get("TP_BASELINE", "")
if baseline:
    # Another build of tp in the reference's place: a change against the
    # build before it, paired call by call.
    servers["reference"] = Server([baseline, "mcp"], env_for("baseline"))
    print(f"(TP_BASELINE: the reference column is {baseline})")
elif ref and os.path.exists(os.path.join(ref, "cli.js")):
    servers["reference"] = Server(["node", os.path.join(ref, "cli.js"), "mcp"], env_for("reference"))
else:
    print("(TP_REFERENCE_DIR unset or without cli.js: no reference rows)")
state = {}
for name, s in servers.items():
    s.initialize()
    _, doc = s.call("task_passport_new", {"title": "bench", "goal": "time the tools", "next_step": "measure"})
    pid = doc["passport_id"]
    _, opened = s.call("task_passport_open", {"passport_id": pid})
    pack = os.path.join(s.work, "first.taskpack")
    s.call("task_passport_pack", {"passport_id": pid, "out": pack})
    state[name] = {"id": pid, "version": opened["state_version"], "state": opened["state"], "n": 0, "pack": pack}


def args_for(name, tool, s):
    st = state[name]
    st["n"] += 1
    if tool == "task_passport_list":
        return {}
    if tool == "task_passport_open":
        return {"passport_id": st["id"]}
    if tool == "task_passport_new":
        return {"title": f"t{st['n']}", "goal": "g"}
    if tool == "task_passport_checkpoint":
        return {"state": dict(st["state"], current_state=f"step {st['n']}"), "expected_version": st["version"]}
    if tool == "task_passport_pack":
        return {"passport_id": st["id"], "out": os.path.join(s.work, f"p{st['n']}.taskpack")}
    if tool == "task_passport_land":
        return {"path": st["pack"], "dry_run": True}
    return {"path": st["pack"]}  # conformance


def synced_write(path, data, mode="wb"):
    """Write data to path and fsync it."""
    with open(path, mode) as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def synced_rename(tmp, path, folder):
    """Rename tmp to path and fsync the folder that holds both."""
    os.rename(tmp, path)
    d = os.open(folder, os.O_RDONLY)
    os.fsync(d)
    os.close(d)


def pack_floor(work, store, n):
    """What a durable pack cannot skip, alone: the pack's bytes written and
    synced beside it, a line appended to the record of packs sent (in the
    store) and synced (tp syncs these two at once; here one after the
    other), then the pack renamed into place and its folder synced (three
    fsyncs the reference does not make). Returns ms."""
    t0 = time.perf_counter()
    tmp = os.path.join(work, f".floor-{n}.tmp")
    synced_write(tmp, b"P" * 1709)
    synced_write(os.path.join(store, "floor.sent"), b"S" * 150 + b"\n", "ab")
    synced_rename(tmp, os.path.join(work, f"floor-{n}.taskpack"), work)
    return (time.perf_counter() - t0) * 1000


def checkpoint_floor(store, n):
    """What a durable checkpoint cannot skip, alone: the new state written
    to a temporary file in the store's folder and synced, renamed over the
    old state, and the folder synced (two fsyncs the reference does not
    make). Returns ms."""
    t0 = time.perf_counter()
    tmp = os.path.join(store, f".floor-{n}.tmp")
    synced_write(tmp, b"C" * 600)
    synced_rename(tmp, os.path.join(store, "floor.state"), store)
    return (time.perf_counter() - t0) * 1000


tools = ["task_passport_list", "task_passport_open", "task_passport_new", "task_passport_checkpoint",
         "task_passport_pack", "task_passport_land", "task_passport_conformance"]
times = {name: {t: [] for t in tools} for name in servers}
floors = {"task_passport_pack": [], "task_passport_checkpoint": []}
for i in range(runs):
    order = list(servers.items())
    if i % 2:
        order.reverse()  # who goes first alternates from round to round
    for tool in tools:
        for name, s in order:  # alternating, call by call
            ms, doc = s.call(tool, args_for(name, tool, s))
            times[name][tool].append(ms)
            if tool == "task_passport_checkpoint":
                state[name]["version"] = doc["state_version"]
                state[name]["state"] = doc["state"]
        # The floor of tp's write, alone, after both servers' calls.
        tps = servers["tp"]
        if tool == "task_passport_pack":
            floors[tool].append(pack_floor(tps.work, tps.store, i))
        elif tool == "task_passport_checkpoint":
            floors[tool].append(checkpoint_floor(tps.store, i))
for s in servers.values():
    s.close()

load1 = os.getloadavg()[0]
print(f"\neach tool, median of {runs} round trips (ms), one server each, alternating:")
print(f"{'tool':28} {'tp':>9} {'reference':>10} {'tp/ref':>7}")
for tool in tools:
    t = statistics.median(times["tp"][tool])
    if "reference" in times:
        r = statistics.median(times["reference"][tool])
        print(f"{tool:28} {t:9.2f} {r:10.2f} {t / r:7.2f}")
    else:
        print(f"{tool:28} {t:9.2f} {'—':>10} {'—':>7}")
print("\nthe durable floor (tp's fsyncs alone, python, same folders, after each round's calls) and tp less it:")
print(f"{'tool':28} {'floor':>9} {'tp-floor':>9} {'reference':>10} {'(tp-floor)/ref':>15}")
for tool, fl in floors.items():
    less = statistics.median([t - f for t, f in zip(times["tp"][tool], fl)])
    if "reference" in times:
        r = statistics.median(times["reference"][tool])
        print(f"{tool:28} {statistics.median(fl):9.2f} {less:9.2f} {r:10.2f} {less / r:15.2f}")
    else:
        print(f"{tool:28} {statistics.median(fl):9.2f} {less:9.2f} {'—':>10} {'—':>15}")
print(f"load average {load0:.1f} → {load1:.1f} on {os.cpu_count()} CPUs")
