#!/usr/bin/env bash
# Instructions per input byte of every implementation of the `simdenc bench` workloads on
# aarch64, counted under qemu-aarch64 (../shared/tools/insn-count): simdenc at the neon and
# scalar levels, and the peers built for aarch64 (simdutf's arm64 kernel, the only one simdutf
# builds there; simdutf8; encoding_rs with simd-accel and fast-legacy-encode; std). Exact and
# repeatable: machine load does not change a count. A proxy for NEON speed, not a time (see
# insn-count's README).
#
#   bash cli/bench-insn.sh                         # the whole suite, k = 10 (about 10 min)
#   bash cli/bench-insn.sh --subset                # a few workloads of each group (about 2 min)
#   bash cli/bench-insn.sh --filter utf8-validate/ --filter cjk-encode/ --k 20
#   bash cli/bench-insn.sh --stable                # encoding_rs without simd-accel, no RUSTC_BOOTSTRAP
#
# For each workload and implementation, one process runs the call once and another k + 1 times
# (`simdenc bench --count-runs`); (count(k+1) - count(1)) / k / input bytes cancels the set-up.
# Writes the raw counts to --counts FILE (default insn-counts.tsv) as it goes, then prints the
# Markdown table (`simdenc bench --insn-table FILE`: the best peer's count / simdenc's at neon,
# above 1 when simdenc executes fewer instructions).
#
# Needs the toolchain of ../shared/tools/aarch64-toolchain.sh (Debian's rustc with the aarch64
# std at /usr/bin, qemu-aarch64, the aarch64 sysroot) and g++-aarch64-linux-gnu for simdutf's
# C++ (apt-get install -y g++-aarch64-linux-gnu). encoding_rs's simd-accel needs
# RUSTC_BOOTSTRAP=1, which this script sets for its own build only (--stable: it does not).
# Target directory: $SIMDENC_AARCH64_TARGET_DIR, default target/aarch64 (as .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(cd ../shared/tools && pwd)

k=10
counts=insn-counts.tsv
features=peers-firefox
build=1
filters=()
subset=0
while [ $# -gt 0 ]; do
  case $1 in
    --filter) filters+=(--filter "$2"); shift 2 ;;
    --k) k=$2; shift 2 ;;
    --counts) counts=$2; shift 2 ;;
    --stable) features=peers; shift ;;
    --no-build) build=0; shift ;;
    --subset) subset=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-insn.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ $subset = 1 ]; then
  # One or more workloads of each group the issue's targets name: validation, UTF-8 -> UTF-8,
  # UTF-8 <-> UTF-16 (lipsum: Latin, Russian, Chinese, emoji), UTF-16LE/BE decode (Wikipedia
  # ru), single-byte and CJK decode and encode (Wikipedia text, and whole HTML pages).
  for f in utf8-validate/ utf8-to-utf8/ utf8-to-utf16/ utf16-to-utf8/ utf16-decode/ \
    sb-decode/windows-1251/ sb-decode/windows-1252/ sb-decode16/windows-1251/ \
    sb-encode/windows-1251/ sb-encode/windows-1252/ \
    cjk-decode/Shift_JIS/ cjk-decode/gb18030/ cjk-decode/EUC-KR/ \
    cjk-html/Shift_JIS/ cjk-html/Big5/ cjk-html16/EUC-KR/ \
    cjk-encode/Shift_JIS/ cjk-encode/gb18030/ cjk-encode/EUC-KR/; do
    filters+=(--filter "$f")
  done
fi

# shellcheck source=cli/aarch64-build.sh
source cli/aarch64-build.sh
if [ $build = 1 ]; then aarch64_build $features; fi
run() { qemu-aarch64 -L /usr/aarch64-linux-gnu "$bin" "$@"; }
# The instructions of one process that runs IMPL of WORKLOAD N times.
insns() {
  local out
  out=$(bash "$tools/insn-count/count.sh" "$bin" bench --count-runs "$1" --only "$2" --impl "$3" 2>&1 >/dev/null) || {
    echo "bench-insn.sh: $3 on $2 failed: $out" >&2
    return 1
  }
  sed -n 's/^insns: //p' <<<"$out" | tail -n 1
}

echo "# workload	bytes	implementation	k	count(1)	count(k+1)" >"$counts"
run bench --list-impls --level scalar,neon "${filters[@]}" >"$counts.list"
while IFS=$'\t' read -r workload bytes impls; do
  IFS=, read -ra names <<<"$impls"
  for impl in "${names[@]}"; do
    once=$(insns 1 "$workload" "$impl") || continue
    more=$(insns $((k + 1)) "$workload" "$impl") || continue
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$bytes" "$impl" "$k" "$once" "$more" >>"$counts"
    echo "$workload $impl: $once / $more" >&2
  done
done <"$counts.list"
rm -f "$counts.list"
run bench --insn-table "$counts"
