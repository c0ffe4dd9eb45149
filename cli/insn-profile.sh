#!/usr/bin/env bash
# Where an aarch64 (NEON) workload's instructions go, line by line, under qemu:
#
#   bash cli/insn-profile.sh WORKLOAD [IMPL] [--k K] [--top N] [--no-build]
#   bash cli/insn-profile.sh cjk-html/Shift_JIS/ja            # neon, the 40 costliest lines
#
# A qemu plugin (cli/insn-profile/profile.c, built on first use) counts how often each
# translated block runs; `simdenc bench --count-runs 1` and `--count-runs K+1` (default K = 4)
# are both profiled, and their difference divided by K is one call. Each instruction is
# attributed to the innermost line of simdenc's own sources in its inline chain (addr2line on
# the release build, which has line tables), so an intrinsic counts where our code calls it.
# The total is the figure `cli/bench-insn.sh` reports (without the C library's instructions).
# Builds as bench-insn.sh does (`SIMDENC_AARCH64_TARGET_DIR`, default target/aarch64); needs
# the toolchain of ../shared/tools/aarch64-toolchain.sh, gcc and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
workload=${1:?usage: bash cli/insn-profile.sh WORKLOAD [IMPL] [--k K] [--top N] [--no-build]}
shift
impl=neon
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then impl=$1; shift; fi
k=4 top=40 build=1
while [ $# -gt 0 ]; do
  case $1 in
    --k) k=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "insn-profile.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
# shellcheck source=cli/aarch64-build.sh
source cli/aarch64-build.sh
if [ $build = 1 ]; then aarch64_build peers-firefox; fi
plugin=$CARGO_TARGET_DIR/insn-profile/libprofile.so
if [ ! -f "$plugin" ] || [ cli/insn-profile/profile.c -nt "$plugin" ]; then
  mkdir -p "$(dirname "$plugin")"
  gcc -shared -fPIC -O2 -o "$plugin" cli/insn-profile/profile.c
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for runs in 1 $((k + 1)); do
  INSN_PROFILE_OUT=$out/$runs.txt qemu-aarch64 -L /usr/aarch64-linux-gnu -plugin "$plugin" -d plugin \
    "$bin" bench --count-runs $runs --only "$workload" --impl "$impl" >/dev/null
done
python3 cli/insn-profile/lines.py "$bin" "$out/1.txt" "$out/$((k + 1)).txt" "$k" "$top"
