#!/usr/bin/env python3
"""Prints MB/s and simdenc/encoding_rs ratios from criterion's results of `cargo bench`.

Reads target/criterion/<group>/<impl>/<id...>/new/{estimates,benchmark}.json.
"""
import json, os, sys
from collections import defaultdict

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion")
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

# Columns: every implementation seen, simdenc's best level first; ratios are simdenc's best
# level over each peer measured in the same run.
impls = sorted({i for r in rows.values() for i in r}, key=lambda i: (not i.startswith("simdenc"), i))
print(f"{'workload':42}" + "".join(f"{i:>16}" for i in impls) + "   best simdenc / peer")
for (group, case), r in sorted(rows.items()):
    ours = max((v for i, v in r.items() if i.startswith("simdenc")), default=None)
    cells = "".join(f"{r[i]:16.0f}" if i in r else " " * 16 for i in impls)
    ratios = ", ".join(f"{i} {ours / v:.2f}x" for i, v in sorted(r.items()) if ours and not i.startswith("simdenc"))
    print(f"{group + '/' + case:42}{cells}   {ratios}")
