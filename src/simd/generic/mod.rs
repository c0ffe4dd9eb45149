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
