//! Single-byte decode: bytes through a 128-entry upper-half index (`table[byte - 0x80]`,
//! 0 = unmapped), to UTF-16 and to UTF-8.
//!
//! ```text
//! split the u16 table into its low bytes and its high bytes (128 each), loaded once
//! for each vector v of LANES bytes while one fits in the input (and, for UTF-16, the output):
//!     all ASCII: widen (UTF-16) or copy (UTF-8) it, if it fits; next
//!     lo, hi = low and high byte of each code unit (the byte itself for ASCII, else a
//!              128-entry byte lookup in each half table)
//!     a byte >= 0x80 with lo | hi == 0 (unmapped): stop
//!     UTF-16: store (lo, hi) interleaved
//!     UTF-8:  units >= U+0800 (3 bytes): convert with the scalar kernel the vector (more
//!             than two) or its bytes up to the first (one or two); go on from there
//!             lead = 0xC0 | hi << 2 | lo >> 6, cont = 0x80 | lo & 0x3F; lead = lo for units < 0x80
//!             if the UTF-8 does not fit: stop
//!             per 8 units: the (lead, cont) pairs, compacted by a shuffle from a 256-entry
//!             table (by which of the 8 are 1 byte), stored: 16 bytes, then the last 8
//!             ending exactly at the end of the piece (the next piece overwrites the rest)
//! finish with the scalar kernel from there
//! ```
//! The vector loop stops only between whole vectors, after writing exactly the code units
//! of every byte before the stop, and writes nothing past what it returns (each compacted
//! piece of UTF-8 ends with a store that ends at its last byte). The scalar kernels are
//! stateless and greedy, so finishing with them gives exactly their result, as the kernel
//! contract requires. A vector with an unmapped byte is left to the scalar kernel whole,
//! which stops at the byte.
//!
//! Thai and other text with units of U+0800 and above goes through the scalar kernel
//! vector by vector when it is to become UTF-8 (the 1/3-byte mix would need a second
//! compaction scheme); to UTF-16 it is as fast as the rest.

use super::super::scalar;
use super::utf8::Utf8Vector;

/// What the single-byte algorithm needs beyond [`Utf8Vector`].
pub(crate) trait SingleByteVector: Utf8Vector {
    /// A table in the form [`SingleByteVector::lookup`] uses.
    type Table;

    /// Loads the low bytes and the high bytes of a 128-entry table.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn load_table(lo: &[u8; 128], hi: &[u8; 128]) -> Self::Table;

    /// The low and high bytes of each byte's code unit: for a byte `b >= 0x80`, those of
    /// entry `b - 0x80` of the table; for ASCII, `b` and 0.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn lookup(self, table: &Self::Table) -> (Self, Self);

    /// Whether any byte is zero.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn any_zero(self) -> bool;

    /// 0xFF where the byte is zero, else 0.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn eq_zero(self) -> Self;

    /// Per byte: `other` where `self` is 0xFF, `if_not` where it is 0 (other bytes: unspecified).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn select(self, other: Self, if_not: Self) -> Self;

    /// Each byte shifted left by 2, for bytes below 0x40 (others: unspecified).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn shl2_small(self) -> Self;

    /// Each byte shifted right by 6.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn shr6(self) -> Self;

    /// Bytes `(self[i], other[i])` interleaved, in stream order: the first vector holds the
    /// pairs of `i < LANES / 2`, the second the rest.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn zip(self, other: Self) -> [Self; 2];

    /// `self` holds `LANES / 2` pairs `(lead, cont)`; writes, in order, `lead` alone for pair
    /// `k` when bit `k` of `ones` is set, else `lead, cont`, from `dst`; returns the count.
    /// Per 8 pairs: the shuffle `COMPACT[ones & 0xFF]`, a 16-byte store, and the last 8-byte
    /// piece ending exactly at the count (`TAIL8`), so nothing is written past it.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `dst` is valid for writing `LANES - (ones & (1 << LANES / 2) - 1).count_ones()`
    ///   bytes, the count.
    unsafe fn compact_pairs(self, ones: u64, dst: *mut u8) -> usize;
}

/// For each set of 1-byte units among 8 (bit `k`: unit `k` is 1 byte), the shuffle that
/// compacts 8 `(lead, cont)` pairs: the indices of the bytes kept, then 0x80 (zero).
pub(crate) static COMPACT: [[u8; 16]; 256] = {
    let mut table = [[0x80u8; 16]; 256];
    let mut ones = 0;
    while ones < 256 {
        let mut n = 0;
        let mut k = 0;
        while k < 8 {
            table[ones][n] = 2 * k as u8;
            n += 1;
            if ones >> k & 1 == 0 {
                table[ones][n] = 2 * k as u8 + 1;
                n += 1;
            }
            k += 1;
        }
        ones += 1;
    }
    table
};

/// `TAIL8[s]` moves bytes `s..s + 8` to the front (`pshufb`/`tbl` pattern): the 8 bytes
/// that end a compacted piece of `s + 8` bytes, stored so that they end exactly where it does.
pub(crate) static TAIL8: [[u8; 16]; 9] = {
    let mut table = [[0x80u8; 16]; 9];
    let mut s = 0;
    while s < 9 {
        let mut j = 0;
        while j < 8 {
            table[s][j] = (s + j) as u8;
            j += 1;
        }
        s += 1;
    }
    table
};

/// The low and high bytes of `table`'s entries.
#[inline(always)]
fn split(table: &[u16; 128]) -> ([u8; 128], [u8; 128]) {
    let mut lo = [0u8; 128];
    let mut hi = [0u8; 128];
    for (i, &u) in table.iter().enumerate() {
        [lo[i], hi[i]] = u.to_le_bytes();
    }
    (lo, hi)
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn to_utf16<V: SingleByteVector>(
    src: &[u8],
    table: &[u16; 128],
    dst: &mut [u16],
) -> (usize, usize) {
    let len = src.len().min(dst.len());
    let mut i = 0;
    if len >= V::LANES {
        let (lo, hi) = split(table);
        // SAFETY: the ISA is enabled per this function's contract.
        let t = unsafe { V::load_table(&lo, &hi) };
        while i + V::LANES <= len {
            debug_assert!(i + V::LANES <= src.len() && i + V::LANES <= dst.len());
            // SAFETY: `i + LANES <= len`: LANES bytes of `src` and LANES u16 of `dst` from
            // `i` are in bounds; the ISA is enabled per contract.
            unsafe {
                let v = V::load(src.as_ptr().add(i));
                let at = dst.as_mut_ptr().add(i);
                if v.high_mask() == 0 {
                    v.widen_store(at);
                } else {
                    let (lo, hi) = v.lookup(&t);
                    if unmapped(v, lo, hi) {
                        break;
                    }
                    let [a, b] = lo.zip(hi);
                    a.store(at.cast());
                    b.store(at.add(V::LANES / 2).cast());
                }
            }
            i += V::LANES;
        }
    }
    let (read, written) = scalar::single_byte_to_utf16(&src[i..], table, &mut dst[i..]);
    (i + read, i + written)
}

/// Whether a byte of `v` is >= 0x80 and its code unit (`lo`, `hi`) is 0.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn unmapped<V: SingleByteVector>(v: V, lo: V, hi: V) -> bool {
    // SAFETY: register operations; the ISA per the contract. `0x80 - v` (saturating) is
    // non-zero exactly for ASCII bytes, whose code unit is the byte (NUL included).
    unsafe { lo.or(hi).or(V::splat(0x80).saturating_sub(v)).any_zero() }
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn to_utf8<V: SingleByteVector>(
    src: &[u8],
    table: &[u16; 128],
    dst: &mut [u8],
) -> (usize, usize) {
    let (mut r, mut w) = (0, 0);
    if src.len() >= V::LANES {
        let (lo, hi) = split(table);
        // SAFETY: the ISA is enabled per this function's contract.
        let t = unsafe { V::load_table(&lo, &hi) };
        // Every lane's bit of a `high_mask`.
        let lanes = u64::MAX >> (64 - V::LANES);
        while r + V::LANES <= src.len() {
            // SAFETY: `r + LANES <= src.len()`: the load reads `src[r..r + LANES]`.
            let v = unsafe { V::load(src.as_ptr().add(r)) };
            // SAFETY: register operations; the ISA per contract.
            if unsafe { v.high_mask() } == 0 {
                if w + V::LANES > dst.len() {
                    break;
                }
                // SAFETY: `w + LANES <= dst.len()`: the store writes `dst[w..w + LANES]`.
                unsafe { v.store(dst.as_mut_ptr().add(w)) };
                r += V::LANES;
                w += V::LANES;
                continue;
            }
            // SAFETY: register operations; the ISA per contract.
            let (lo, hi) = unsafe { v.lookup(&t) };
            // SAFETY: as above.
            if unsafe { unmapped(v, lo, hi) } {
                break;
            }
            // SAFETY: as above. A high byte of 8 or more is a unit of U+0800 or above.
            let wide = unsafe { hi.saturating_sub(V::splat(7)).eq_zero().high_mask() } ^ lanes;
            if wide != 0 {
                // The scalar kernel takes this vector (several such units: Thai and the like)
                // or only what it has up to its one such unit (a dash in Cyrillic text), and
                // the vector loop goes on from there.
                let n = if wide.count_ones() > 2 {
                    V::LANES
                } else {
                    wide.trailing_zeros() as usize + 1
                };
                let (read, written) = scalar::single_byte_to_utf8(&src[r..r + n], table, &mut dst[w..]);
                r += read;
                w += written;
                if read < n {
                    break;
                }
                continue;
            }
            // SAFETY: register operations; the ISA per contract.
            let (lead, cont, ones) = unsafe {
                // Units below 0x80: high byte 0 and low byte below 0x80.
                let ones = hi.or(lo.and(V::splat(0x80))).eq_zero();
                let lead = ones.select(lo, hi.shl2_small().or(lo.shr6()).or(V::splat(0xC0)));
                let cont = lo.and(V::splat(0x3F)).or(V::splat(0x80));
                (lead, cont, ones.high_mask())
            };
            // One byte for each unit in `ones`, two for the others.
            let n = 2 * V::LANES - ones.count_ones() as usize;
            if w + n > dst.len() {
                break;
            }
            // SAFETY: `w + n <= dst.len()`, and the two calls write their counts, which add
            // up to `n`, from `dst[w..]` on; the ISA per contract.
            unsafe {
                let [a, b] = lead.zip(cont);
                let at = dst.as_mut_ptr().add(w);
                let first = a.compact_pairs(ones, at);
                let second = b.compact_pairs(ones >> (V::LANES / 2), at.add(first));
                debug_assert_eq!(first + second, n);
            }
            r += V::LANES;
            w += n;
        }
    }
    let (read, written) = scalar::single_byte_to_utf8(&src[r..], table, &mut dst[w..]);
    (r + read, w + written)
}
