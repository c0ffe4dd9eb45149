"""Per-source-line instructions of one call, from two runs of cli/insn-profile/profile.c.

    python3 lines.py BINARY ONCE.txt MORE.txt K [TOP]

ONCE.txt and MORE.txt are the plugin's outputs for `bench --count-runs 1` and `--count-runs
K+1`; each block's executions in MORE minus those in ONCE, divided by K, are one call's. Every
instruction of a block (aarch64: 4 bytes each) is attributed to the innermost line of the
crate's own sources (under the working directory) in its inline chain (`addr2line -i`), so an intrinsic's instructions count
at the line of ours that calls it. Prints the total and the TOP lines (default 40).
"""
import collections
import os
import subprocess
import sys

# Where qemu-user loads a position-independent aarch64 executable.
BASE = 0x5500000000


def load(path):
    counts = collections.Counter()
    with open(path) as f:
        for line in f:
            vaddr, insns, execs = line.split()
            counts[(int(vaddr, 16), int(insns))] += int(execs)
    return counts


def main():
    binary, once, more, k = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    top = int(sys.argv[5]) if len(sys.argv) > 5 else 40
    a, b = load(once), load(more)
    per_insn = collections.Counter()
    for key in set(a) | set(b):
        calls = (b[key] - a[key]) / k
        vaddr, insns = key
        if calls <= 0 or not BASE <= vaddr < BASE + 0x10000000:
            continue
        for i in range(insns):
            per_insn[vaddr - BASE + 4 * i] += calls
    addrs = sorted(per_insn)
    out = subprocess.run(
        ["addr2line", "-i", "-a", "-e", binary] + [hex(x) for x in addrs],
        capture_output=True, text=True, check=True,
    ).stdout.split("\n")
    frames, current = {}, None
    for line in out:
        if line.startswith("0x"):
            current = int(line, 16)
            frames[current] = []
        elif current is not None and line:
            frames[current].append(line.split(" (")[0])
    # The crate's own sources: under the directory this runs from (the repository).
    root = os.getcwd() + "/"
    by_line = collections.Counter()
    for addr, chain in frames.items():
        ours = [f for f in chain if f.startswith(root)]
        key = ours[0][len(root):] if ours else (chain[0] if chain else "?")
        by_line[key] += per_insn[addr]
    print(f"total {sum(per_insn.values()):,.0f} instructions a call (in the executable)")
    for line, n in by_line.most_common(top):
        print(f"{n:12,.0f}  {line}")


main()
