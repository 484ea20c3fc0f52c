#!/usr/bin/env python3
"""Time tools/list after initialize on `tp mcp`, then hold it idle.

usage: scripts/mcp-latency.py TP_BINARY [RUNS]
Prints the median and worst tools/list round trip (ms) measured from the
initialize answer. Run it under /usr/bin/time -v for the server's peak RSS
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
print(f"tools/list after initialize: median {lat[len(lat)//2]:.2f} ms, worst {lat[-1]:.2f} ms over {runs} runs")
