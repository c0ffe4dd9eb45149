//! CJK and single-byte encode from UTF-16 code units through [`EncodeTables`], `UNITS` units
//! at a time, written once over [`LegacyEncodeVector`] (the `utf16_to_legacy` kernel).
//!
//! ```text
//! while UNITS units remain and 2 * UNITS bytes of room:
//!     u = UNITS code units
//!     all ASCII: their bytes; next
//!     page = pages[u >> 8] (a 256-entry byte lookup), index = page << 8 | u & 0xFF
//!     gather the non-ASCII units' bytes from the blocks (indexes clamped below the limit)
//!     stop if a non-ASCII unit is a surrogate, at or above the limit, or its bytes are 0
//!         (the code points the encoder treats specially have none: `EncodeTables`)
//!     single-byte tables: one byte a unit; CJK: one (below 0x100) or two (lead, trail),
//!         compacted by a table shuffle and stored exactly (a store from the start, one
//!         ending at the end)
//! the scalar kernel finishes
//! ```
//! Every check comes before any output of its block, nothing is written past what is
//! returned, and the scalar kernel goes on from the block that stopped, so `(read,
//! written)` and the output equal the scalar kernel's. AVX-512 has its own kernel
//! (`x86/avx512/cjk.rs`: byte compress, 64-byte lookups).

// Instances: NEON (`aarch64/neon/cjk.rs`, 8 units, `tbl` lookups of the pages) and AVX2
// (`x86/avx2/legacy_encode.rs`, 16 units, gathered pages).

use super::super::scalar;
use super::super::vector::Vector;
use super::super::{EncodeTables, Lookup};
use super::ascii;
use crate::simd::OutBytes;

/// The operations of the `utf16_to_legacy` kernel on a vector of `UNITS` code units
/// (`LANES / 2`), beyond those of [`Vector`] (loads of `LANES` bytes, `or`), whose contract they share: the
/// instruction set of the implementing type is enabled in the caller, pointers are valid for
/// what a method reads or writes.
pub(crate) trait LegacyEncodeVector: Vector {
    /// Code units per block.
    const UNITS: usize = Self::LANES / 2;
    /// The tables in registers.
    type Tables;

    /// Loads the pages of `tables` (whose blocks' limit is not 0).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn load_tables(tables: &EncodeTables) -> Self::Tables;
    /// Whether every unit is below 0x80.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn ascii(self) -> bool;
    /// The bytes of each unit (the unit itself if ASCII, else its entry of the blocks, a
    /// byte or `lead << 8 | trail`), or `None` if a unit is not plain.
    ///
    /// # Safety
    /// The ISA is enabled in the caller; `t` was loaded from `tables`.
    unsafe fn lookup<const WIDE: bool>(self, t: &Self::Tables, tables: &EncodeTables) -> Option<Self>;
    /// Stores the low byte of each unit: `UNITS` bytes.
    ///
    /// # Safety
    /// The ISA is enabled in the caller; `out` is valid for writing `UNITS` bytes.
    unsafe fn store_narrow(self, out: *mut u8);
    /// Writes each unit's bytes (one below 0x100, else two, high first), exactly, and
    /// returns how many.
    ///
    /// # Safety
    /// The ISA is enabled in the caller; `out` is valid for writing `2 * UNITS` bytes.
    unsafe fn store_bytes(self, out: *mut u8) -> usize;
}

/// Narrows the ASCII run at the start of `src` into `dst`, four vectors at a time while they
/// are all ASCII and fit ([`ascii::run4`]); returns its length. (HTML pages are mostly such
/// runs.)
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn ascii_run<V: LegacyEncodeVector>(src: &[u16], dst: &mut OutBytes) -> usize {
    let (at, out) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
    // SAFETY: `run4` loads at `i` and stores at `i` only with `i + UNITS` within both slices
    // (`len`); the ISA per the contract.
    unsafe {
        ascii::run4(
            src.len().min(dst.len()),
            V::UNITS,
            |i| V::load(at.add(i).cast()),
            |a, b| a.or(b),
            |v| v.ascii(),
            |v, i| v.store_narrow(out.add(i)),
        )
    }
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn utf16_to_legacy<V: LegacyEncodeVector>(
    src: &[u16],
    tables: &EncodeTables,
    dst: &mut OutBytes,
) -> (usize, usize) {
    let (read, written) = if src.len() >= V::UNITS && tables.blocks.limit() != 0 {
        // SAFETY: the ISA per the contract (and below); the limit is not 0.
        let t = unsafe { V::load_tables(tables) };
        // One loop for two-byte entries (CJK), one for bytes, each compiled for its own
        // (`docs/decisions.md`, "The encoders' tables without declined ranges").
        // SAFETY: the ISA per the contract; `t` is `tables`'s, whose entries are two bytes
        // for the first.
        unsafe {
            if matches!(tables.blocks, Lookup::U16(_)) {
                blocks::<V, true>(src, tables, &t, dst)
            } else {
                blocks::<V, false>(src, tables, &t, dst)
            }
        }
    } else {
        (0, 0)
    };
    let (r, w) = scalar::utf16_to_legacy(&src[read..], tables, &mut dst[written..]);
    (read + r, written + w)
}

/// The block loop, for entries of two bytes (`WIDE`) or one: `(read, written)` of the blocks
/// it encoded.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `t` was loaded from `tables`, whose entries are two bytes if `WIDE`, one otherwise.
#[inline(always)]
unsafe fn blocks<V: LegacyEncodeVector, const WIDE: bool>(
    src: &[u16],
    tables: &EncodeTables,
    t: &V::Tables,
    dst: &mut OutBytes,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read + V::UNITS <= src.len() && written + 2 * V::UNITS <= dst.len() {
        // SAFETY: `read + UNITS <= src.len()`; the stores write at most `2 * UNITS` bytes at
        // `written`, and `written + 2 * UNITS <= dst.len()`. The ISA and `t` per the contract.
        unsafe {
            let u = V::load(src.as_ptr().add(read).cast());
            let out = dst.as_mut_ptr().add(written).cast::<u8>();
            if u.ascii() {
                u.store_narrow(out);
                let n = V::UNITS + ascii_run::<V>(&src[read + V::UNITS..], &mut dst[written + V::UNITS..]);
                read += n;
                written += n;
                continue;
            }
            let Some(bytes) = u.lookup::<WIDE>(t, tables) else {
                break;
            };
            if WIDE {
                written += bytes.store_bytes(out);
            } else {
                bytes.store_narrow(out);
                written += V::UNITS;
            }
        }
        read += V::UNITS;
    }
    (read, written)
}
