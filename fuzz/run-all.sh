#!/usr/bin/env bash
# Builds the fuzz targets (AddressSanitizer, cargo-fuzz's default), writes the seed corpora,
# and runs every target for SECONDS seconds each, one after another, printing per target the
# number of executions (libFuzzer's final stat::number_of_executed_units) and whether it
# found anything (a crash or a mismatch leaves a file in fuzz/artifacts/<target>/).
#
#   bash fuzz/run-all.sh SECONDS [TARGET...]      (default: every target)
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). The stable toolchain builds the targets with
# RUSTC_BOOTSTRAP=1 (cargo-fuzz passes -Z flags). Logs go to fuzz/runs/<target>.log. Extra
# libFuzzer flags can be given in FUZZ_ARGS (e.g. FUZZ_ARGS="-max_len=8192").
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: bash fuzz/run-all.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(decode encode text_api labels kernels http mem sniff detect batch pieces)
fi
export RUSTC_BOOTSTRAP=1

echo "== seeds"
CARGO_TARGET_DIR=target/seed cargo run -q --release --manifest-path seed/Cargo.toml

echo "== build (AddressSanitizer)"
for target in "${targets[@]}"; do
  cargo fuzz build "$target"
done

mkdir -p runs
status=0
for target in "${targets[@]}"; do
  mkdir -p "artifacts/$target"
  before=$(ls "artifacts/$target" | wc -l)
  log="runs/$target.log"
  echo "== $target: $seconds s"
  set +e
  # shellcheck disable=SC2086
  cargo fuzz run "$target" "corpus/$target" -- -max_total_time="$seconds" -print_final_stats=1 \
    -timeout=30 -rss_limit_mb=4096 ${FUZZ_ARGS:-} >"$log" 2>&1
  code=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  after=$(ls "artifacts/$target" | wc -l)
  if [ "$code" -eq 0 ] && [ "$after" -eq "$before" ]; then
    found="nothing found"
  else
    found="FOUND something (exit $code): see $log and fuzz/artifacts/$target/"
    status=1
  fi
  echo "$target: ${execs:-?} executions in $seconds s, $found"
done
exit $status
