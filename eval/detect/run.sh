#!/usr/bin/env bash
# Builds the Rust runner (simdenc + chardetng), a venv with the PyPI peers, and runs
# eval/detect/run.py (README.md). Needs libuchardet (Debian: apt-get install uchardet).
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release --manifest-path eval/detect/runner/Cargo.toml --locked --target-dir "$target"
venv=$target/detect-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check chardet==7.7.0 charset-normalizer==3.5.2
DETECT_EVAL_RUNNER=$target/release/simdenc-detect-eval DETECT_EVAL_DIR=$target/detect-eval \
  "$venv/bin/python" eval/detect/run.py
