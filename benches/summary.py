#!/usr/bin/env python3
"""Prints MB/s and simdenc/encoding_rs ratios from criterion's results of `cargo bench`.

Reads target/criterion/<group>/<impl>/<id...>/new/{estimates,benchmark}.json.
"""
import json, os, sys
from collections import defaultdict

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "target", "criterion")
rows = defaultdict(dict)
for dirpath, dirnames, filenames in os.walk(root):
    if os.path.basename(dirpath) != "new" or "estimates.json" not in filenames:
        continue
    bench = json.load(open(os.path.join(dirpath, "benchmark.json")))
    est = json.load(open(os.path.join(dirpath, "estimates.json")))
    throughput = bench.get("throughput") or {}
    nbytes = throughput.get("Bytes")
    if not nbytes:
        continue
    ns = est["median"]["point_estimate"]
    mbps = nbytes / ns * 1e3  # bytes per ns -> MB/s (1e6 bytes)
    group = bench["group_id"]
    impl, _, case = bench["function_id"].partition("/") if "/" in bench["function_id"] else (bench["function_id"], "", bench.get("value_str", ""))
    case = case or bench.get("value_str") or ""
    rows[(group, case)][impl] = mbps

print(f"{'workload':45} {'simdenc MB/s':>13} {'encoding_rs MB/s':>17} {'ratio':>7}")
for (group, case), impls in sorted(rows.items()):
    ours, theirs = impls.get("simdenc"), impls.get("encoding_rs")
    ratio = f"{ours / theirs:6.2f}x" if ours and theirs else ""
    fmt = lambda v: f"{v:13.0f}" if v else " " * 13
    print(f"{group + '/' + case:45} {fmt(ours)} {fmt(theirs):>17} {ratio:>7}")
