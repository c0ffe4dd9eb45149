#!/usr/bin/env bash
# The tests, on a fresh machine (README.md, "Run the tests"; CI runs this, .ci/run):
#   1. the Rust workspace: cargo test --workspace (every SIMD level this CPU has),
#   2. the Python package (python/) and the Spark job (examples/spark/): a virtual environment
#      under the target directory (made once, kept: pyspark is a large download) with what
#      python/requirements-test.txt lists from PyPI, the wheel built by maturin and installed
#      in it, pytest over python/tests and examples/spark/tests (the Spark job in local[2] mode
#      needs Java 17 or later on PATH; without Java those tests are skipped, saying so), and
#      the Python crate's Rust unit tests (they link libpython).
# Needs cargo, and python3 >= 3.9 with venv and pip. SIMDENC_SKIP_PYTHON=1 runs part 1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
step() { echo; echo "== $* ($((SECONDS - start)) s)"; }

step "cargo test --workspace"
cargo test --workspace

if [ "${SIMDENC_SKIP_PYTHON:-0}" = 1 ]; then
  echo "Python tests skipped (SIMDENC_SKIP_PYTHON=1)"
  exit 0
fi
if ! command -v python3 >/dev/null ||
  ! python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
  echo "The Python tests need python3 >= 3.9 with venv and ensurepip (Debian: apt-get install" >&2
  echo "python3-venv); SIMDENC_SKIP_PYTHON=1 skips them." >&2
  exit 1
fi

step "Python: virtual environment and test requirements"
target=${CARGO_TARGET_DIR:-target}
mkdir -p "$target"
target=$(cd "$target" && pwd)
venv=$target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r python/requirements-test.txt

step "Python: the wheel (maturin build --release), installed in the environment"
rm -rf "$target/python-wheels"
"$venv/bin/maturin" build --release -m python/Cargo.toml -i "$venv/bin/python" -o "$target/python-wheels"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$target"/python-wheels/simdenc-*.whl

step "Python: pytest python/tests examples/spark/tests"
"$venv/bin/python" -m pytest -q -rs -p no:cacheprovider python/tests examples/spark/tests

step "Python: the crate's Rust unit tests"
PYO3_PYTHON="$venv/bin/python" cargo test --manifest-path python/Cargo.toml --locked

step "tests done"
