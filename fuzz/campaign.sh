#!/usr/bin/env bash
# A fuzzing campaign that resumes where the last one stopped, and its record:
#
#   bash fuzz/campaign.sh SECONDS [TARGET...]     (default: every target)
#   bash fuzz/campaign.sh --totals                (executions so far per target, from the ledger)
#
# 1. The working corpus fuzz/corpus/<target> (not committed) starts from the committed,
#    minimised corpus fuzz/corpus-min/<target> and the generated seeds, and keeps growing from
#    one campaign to the next.
# 2. Each target runs SECONDS seconds (run-all.sh: AddressSanitizer, findings in
#    fuzz/artifacts/<target>/).
# 3. The working corpus is minimised (`cargo fuzz cmin`) and copied to fuzz/corpus-min/<target>,
#    to be committed: the next clone resumes from it.
# 4. Coverage of the minimised corpus per target: `cargo fuzz coverage` runs it on a build with
#    -C instrument-coverage; the raw profiles are merged with llvm-profdata and reported with
#    llvm-cov for the files the target is about (fuzz/runs/<target>.coverage.txt). The LLVM
#    tools must match rustc's LLVM major version (`rustc -vV`); LLVM_SUFFIX picks them
#    (default: that version, e.g. llvm-cov-22), and without them this step says so and skips.
# 5. One line per target is appended to fuzz/ledger.tsv (date, commit, target, seconds,
#    executions, found, line coverage of the target's files); --totals sums the executions.
set -euo pipefail
cd "$(dirname "$0")"
all=(decode encode text_api labels kernels http mem sniff detect batch pieces)

if [ "${1:-}" = "--totals" ]; then
  [ -f ledger.tsv ] || { echo "no campaign recorded yet (fuzz/ledger.tsv)"; exit 0; }
  awk -F'\t' 'NR > 1 { e[$3] += $5; s[$3] += $4; n[$3]++ }
    END { for (t in e) printf "%-10s %14d executions in %d campaigns, %d s\n", t, e[t], n[t], s[t] }' ledger.tsv | sort
  exit 0
fi

seconds=${1:?usage: bash fuzz/campaign.sh SECONDS [TARGET...] | --totals}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
export RUSTC_BOOTSTRAP=1
# Without cargo-fuzz nothing would run, and the steps below would record an empty campaign.
cargo fuzz --version >/dev/null 2>&1 || {
  echo "campaign.sh: needs cargo-fuzz (cargo install cargo-fuzz)" >&2
  exit 2
}

# The source files each target is about, for its coverage line.
files_of() {
  case "$1" in
    decode) echo 'src/(codecs/|decoder\.rs|cursor)' ;;
    encode) echo 'src/(codecs/|encoder\.rs|cursor)' ;;
    text_api) echo 'src/text\.rs' ;;
    labels) echo 'src/encoding\.rs' ;;
    kernels) echo 'src/simd/' ;;
    http) echo 'src/http\.rs' ;;
    mem) echo 'src/mem\.rs' ;;
    sniff) echo 'src/(sniff\.rs|detect/)' ;;
    detect) echo 'src/detect/' ;;
    # Included by the target with #[path]: named through fuzz_targets/../../ in the report.
    batch) echo '.*python/src/batch_core\.rs' ;;
    pieces) echo '.*cli/src/cuts\.rs' ;;
    *) echo 'src/' ;;
  esac
}

for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  if [ -d "corpus-min/$target" ]; then
    cp -n "corpus-min/$target"/* "corpus/$target"/ 2>/dev/null || true
  fi
done

commit=$(git rev-parse --short HEAD)
# One log per campaign, so that two campaigns (of different targets) can run at once.
mkdir -p runs
log=runs/campaign.$$.log
set +e
bash run-all.sh "$seconds" "${targets[@]}" | tee "$log"
status=${PIPESTATUS[0]}
set -e

llvm=${LLVM_SUFFIX:--$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')}
[ -f ledger.tsv ] || printf 'date\tcommit\ttarget\tseconds\texecutions\tfound\tline_coverage\n' > ledger.tsv
for target in "${targets[@]}"; do
  echo "== $target: minimise"
  if cargo fuzz cmin "$target" "corpus/$target" >"runs/$target.cmin.log" 2>&1; then
    rm -rf "corpus-min/$target"
    mkdir -p "corpus-min/$target"
    cp "corpus/$target"/* "corpus-min/$target"/ 2>/dev/null || true
  else
    # The committed corpus stays as it was: an unminimised working corpus (or, with no
    # cargo-fuzz, the bare seeds) must not replace it.
    echo "cmin failed: runs/$target.cmin.log; corpus-min/$target left as it was"
  fi
  echo "$target: $(ls "corpus-min/$target" | wc -l) inputs, $(du -sh "corpus-min/$target" | cut -f1)"

  coverage="-"
  if command -v "llvm-profdata$llvm" >/dev/null && command -v "llvm-cov$llvm" >/dev/null; then
    echo "== $target: coverage"
    rm -rf "coverage/$target"
    # cargo-fuzz merges the raw profiles with the toolchain's llvm-tools, which this toolchain
    # may not have: the merge below does it with the system's tools.
    cargo fuzz coverage "$target" "corpus-min/$target" >"runs/$target.coverage.log" 2>&1 || true
    if ls "coverage/$target/raw/"*.profraw >/dev/null 2>&1; then
      "llvm-profdata$llvm" merge -sparse "coverage/$target/raw/"*.profraw -o "coverage/$target/coverage.profdata"
      binary=$(find target -path '*coverage*' -type f -name "$target" -perm -u+x | head -1)
      "llvm-cov$llvm" report "$binary" -instr-profile="coverage/$target/coverage.profdata" \
        -ignore-filename-regex='(/\.cargo/|/rustc/|fuzz_targets/[a-z_]+\.rs|/tests/)' >"runs/$target.coverage.all.txt"
      # llvm-cov drops the files' common prefix: `src/` when every file is in the crate.
      pattern="^(src/)?($(files_of "$target" | sed 's|^src/||'))"
      { head -1 "runs/$target.coverage.all.txt"; grep -E "$pattern" "runs/$target.coverage.all.txt" || true; } \
        >"runs/$target.coverage.txt"
      coverage=$(awk -v p="$pattern" 'NR > 1 && $1 ~ p { lines += $8; missed += $9 }
        END { if (lines > 0) printf "%.1f%%", 100 * (lines - missed) / lines; else print "-" }' \
        "runs/$target.coverage.all.txt")
      echo "$target: line coverage of $(files_of "$target"): $coverage (runs/$target.coverage.txt)"
    else
      echo "$target: coverage run failed: runs/$target.coverage.log"
    fi
  else
    echo "$target: coverage SKIPPED (no llvm-profdata$llvm / llvm-cov$llvm; set LLVM_SUFFIX)"
  fi

  line=$(grep "^$target: " "$log" | tail -1)
  execs=$(echo "$line" | sed -n 's/^[^:]*: \([0-9?]*\) executions.*/\1/p')
  found=$(echo "$line" | grep -q "nothing found" && echo nothing || echo FOUND)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%F)" "$commit" "$target" "$seconds" "${execs:-0}" "$found" "$coverage" >> ledger.tsv
done
bash "$PWD/campaign.sh" --totals
exit "$status"
