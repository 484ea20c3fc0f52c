#!/usr/bin/env python3
"""Time tools/list after initialize on `tp mcp`, then hold it idle.

usage: scripts/mcp-latency.py TP_BINARY [RUNS]
Prints the median, 90th percentile and worst tools/list round trip (ms)
measured from the initialize answer, how many runs took over 20 ms, and the
machine's load average (on a loaded machine the tail is the scheduler's). Run it under /usr/bin/time -v for the server's peak RSS
(the idle hold is 2 s so the figure is the idle server's).
"""
import json, os, subprocess, sys, tempfile, time

tp = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
store = tempfile.mkdtemp()
lat = []
for _ in range(runs):
    p = subprocess.Popen([tp, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         env=dict(os.environ, TP_STORE=store))
    def send(m):
        p.stdin.write((json.dumps(m) + "\n").encode()); p.stdin.flush()
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
    p.stdout.readline()
    t0 = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    p.stdout.readline()
    lat.append((time.perf_counter() - t0) * 1000)
    if _ == runs - 1:
        time.sleep(2)
    p.stdin.close(); p.wait()
lat.sort()
over = sum(1 for x in lat if x > 20)
load = os.getloadavg()[0]
print(f"tools/list after initialize: median {lat[len(lat)//2]:.2f} ms, p90 {lat[int(len(lat)*0.9)]:.2f} ms, "
      f"worst {lat[-1]:.2f} ms, {over} of {runs} runs over 20 ms (load average {load:.1f} on {os.cpu_count()} CPUs)")
