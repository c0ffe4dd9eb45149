# Sourced by cli/bench-insn.sh and cli/insn-profile.sh: the aarch64 cross build of the command
# line tool (the toolchain of ../shared/tools/aarch64-toolchain.sh, Debian's rustc with the
# aarch64 standard library), into SIMDENC_AARCH64_TARGET_DIR (default target/aarch64).
#   aarch64_build FEATURES    # builds simdenc-cli with FEATURES (RUSTC_BOOTSTRAP=1 for peers-firefox)
#   $bin                      # the executable
export RUSTC=/usr/bin/rustc
export CARGO_TARGET_DIR=${SIMDENC_AARCH64_TARGET_DIR:-target/aarch64}
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
bin=$CARGO_TARGET_DIR/aarch64-unknown-linux-gnu/release/simdenc
aarch64_build() {
  local bootstrap=()
  [ "$1" = peers-firefox ] && bootstrap=(env RUSTC_BOOTSTRAP=1)
  "${bootstrap[@]}" /usr/bin/cargo build --release --target aarch64-unknown-linux-gnu \
    -p simdenc-cli --features "$1" >&2
}
