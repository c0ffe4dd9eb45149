//! Kernels written once over [`Vector`](super::vector::Vector), instantiated per ISA by the
//! `#[target_feature]` entry points in `x86/` and `aarch64/`. Each finishes with the scalar
//! kernel on what the vector loop leaves, so results equal the scalar kernels exactly.

pub(crate) mod ascii;
pub(crate) mod cjk_decode;
pub(crate) mod lane;
pub(crate) mod latin1;
pub(crate) mod legacy_encode;
pub(crate) mod rows;
pub(crate) mod single_byte;
pub(crate) mod utf16;
pub(crate) mod utf16_to_utf8;
pub(crate) mod utf8;
pub(crate) mod utf8_to_utf16;

/// Marks the path that calls it as rare: a call, which the compiler cannot turn into a
/// select, so the branch to it stays a branch. Where a block loop's next load would wait
/// for a count computed from the block (`read += r`, `r` nearly always `LANES`), a branch
/// lets the processor go on with the usual count (docs/decisions.md, "Latin1 blocks: the
/// bytes read by a branch").
#[cold]
#[inline(never)]
pub(crate) fn cold_path() {}
