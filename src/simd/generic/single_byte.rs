//! Single-byte decode: bytes through a 128-entry upper-half index (`table[byte - 0x80]`,
//! 0 = unmapped), to UTF-16 and to UTF-8.
//!
//! ```text
//! split the u16 table into its low bytes and its high bytes (128 each), loaded once
//! for each vector v of LANES bytes while one fits in the input (and, for UTF-16, the output):
//!     all ASCII: widen (UTF-16) or copy (UTF-8) it, if it fits; next
//!     UTF-8, one byte >= 0x80 (a letter among ASCII, Latin-script text), unmapped: stop;
//!         else v stored n - 1 bytes on (n = 2 or 3, the letter's UTF-8), the ASCII before
//!         the letter copied to the start, the letter written between; next
//!     lo, hi = low and high byte of each code unit (the byte itself for ASCII, else a
//!              128-entry byte lookup in each half table)
//!     a byte >= 0x80 with lo | hi == 0 (unmapped): stop
//!     UTF-16: store (lo, hi) interleaved
//!     UTF-8:  if the UTF-8 (1, 2 or 3 bytes per unit) does not fit: stop
//!             x = (hi & 0x0F) << 2 | lo >> 6, cont = 0x80 | lo & 0x3F
//!             no unit >= U+0800: lead = 0xC0 | x (lo for units < 0x80); per 8 units, the
//!                 (lead, cont) pairs compacted by a shuffle from a 256-entry table (by which
//!                 of the 8 are 1 byte), stored: 16 bytes, then the last 8 ending exactly at
//!                 the end of the piece (the next piece overwrites the rest)
//!             else: each unit as 4 bytes b0 b1 b2 - (1 byte: lo; 2 bytes: 0xC0 | x, cont;
//!                 3 bytes: 0xE0 | hi >> 4, 0x80 | x, cont), per 4 units compacted by a
//!                 shuffle from a 256-entry table (by which are 1 and which 3 bytes), stored
//!                 as three 4-byte pieces that end exactly at the end of the piece
//! finish with the scalar kernel from there
//! ```
//! The vector loop stops only between whole vectors, after writing exactly the code units
//! of every byte before the stop, and writes nothing past what it returns (each compacted
//! piece of UTF-8 ends with a store that ends at its last byte). The scalar kernels are
//! stateless and greedy, so finishing with them gives exactly their result, as the kernel
//! contract requires. A vector with an unmapped byte is left to the scalar kernel whole,
//! which stops at the byte.
//!
//! AVX-512 has its own kernels (`x86/avx512/mod.rs`: one `vpermi2b` is a 128-entry lookup).
//!
//! A vector with one letter among ASCII (Latin-script text) skips the lookup: it paid the
//! whole lookup and compaction for one letter, below the scalar kernel's speed at AVX2
//! (docs/decisions.md, "Kernel tuning").

use super::super::scalar;
use super::super::vector::Vector;
use super::utf8::Utf8Vector;
use super::utf16_to_utf8::ROWS123;
use crate::simd::OutBytes;

/// What the single-byte algorithm needs beyond [`Utf8Vector`].
pub(crate) trait SingleByteVector: Utf8Vector + Vector<Mask = Self> {
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
    /// Per 8 pairs: the shuffle `ROWS12[ones & 0xFF]` (of the UTF-16 to UTF-8 transcoder), a 16-byte store, and the last 8-byte
    /// piece ending exactly at the count (`TAIL8`), so nothing is written past it.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `dst` is valid for writing `LANES - (ones & (1 << LANES / 2) - 1).count_ones()`
    ///   bytes, the count.
    unsafe fn compact_pairs(self, ones: u64, dst: *mut u8) -> usize;

    /// `self` holds `LANES / 4` units as 4-byte slots `(b0, b1, b2, _)`; writes, in order,
    /// `b0` for unit `k` when bit `k` of `ones` is set, `b0, b1, b2` when bit `k` of `threes`
    /// is, else `b0, b1`, from `dst`; returns the count. Per 4 units: the shuffle
    /// `quad_row(ones, threes)`, then three 4-byte stores (from the
    /// start, from `min(4, len - 4)`, ending at the end), so nothing is written past it.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `ones` and `threes` have no bit in common among the first `LANES / 4`.
    /// - `dst` is valid for writing the count.
    unsafe fn compact_quads(self, ones: u64, threes: u64, dst: *mut u8) -> usize;
}

/// For 4 units as 4-byte slots (bit `k` of `ones`/`threes`: unit `k` is 1 or 3 bytes;
/// neither: 2), the shuffle keeping the bytes of each unit (then zeroing indices) and their
/// count, 4..=12: the UTF-16 to UTF-8 transcoder's `ROWS123`, indexed by its "not one byte"
/// and "three bytes" bits.
#[inline(always)]
pub(crate) fn quad_row(ones: u8, threes: u8) -> (&'static [u8; 16], usize) {
    let (rows, lens) = &ROWS123;
    let i = usize::from((!ones & 0xF) | (threes & 0xF) << 4);
    (&rows[i], usize::from(lens[i]))
}

/// For a 16-byte vector with a letter of `g + 2` UTF-8 bytes at `k` (`GAP_ROWS[g][k]`): the
/// shuffle that keeps bytes `0..k` in place and moves the bytes after the letter `g + 1` on,
/// leaving the letter's `g + 2` bytes at `k` to be written (what the shuffle puts there is
/// overwritten).
static GAP_ROWS: [[[u8; 16]; 16]; 2] = {
    let mut rows = [[[0u8; 16]; 16]; 2];
    let mut g = 0;
    while g < 2 {
        let mut k = 0;
        while k < 16 {
            let mut j = 0;
            while j < 16 {
                rows[g][k][j] = if j < k {
                    j as u8
                } else if j >= k + g + 2 {
                    (j - g - 1) as u8
                } else {
                    0
                };
                j += 1;
            }
            k += 1;
        }
        g += 1;
    }
    rows
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

/// The UTF-8 of a vector of units below U+0800, written exactly at `at`: one byte (`lo`)
/// for each unit whose lane of `ones_v` is set (bit of `ones`), else the lead `0xC0 | x`
/// and `cont`. Returns the count, `2 * LANES` less one for each unit of one byte.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `ones` is `ones_v.high_mask()`; `at` is valid for writing the count.
#[inline(always)]
pub(crate) unsafe fn put_two_byte<V: SingleByteVector>(
    ones_v: V,
    lo: V,
    x: V,
    cont: V,
    ones: u64,
    at: *mut u8,
) -> usize {
    // SAFETY: register operations, and the two calls write their counts one after the other
    // from `at`, which add up to the count the caller has room for; the ISA per the contract.
    unsafe {
        let lead = V::select(ones_v, lo, x.or(V::splat(0xC0)));
        let [a, b] = lead.zip(cont);
        let first = a.compact_pairs(ones, at);
        first + b.compact_pairs(ones >> (V::LANES / 2), at.add(first))
    }
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
    dst: &mut OutBytes,
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
            let high = unsafe { v.high_mask() };
            if high == 0 {
                if w + V::LANES > dst.len() {
                    break;
                }
                // SAFETY: `w + LANES <= dst.len()`: the store writes `dst[w..w + LANES]`.
                unsafe { v.store(dst.as_mut_ptr().cast::<u8>().add(w)) };
                r += V::LANES;
                w += V::LANES;
                // The ASCII vectors after it, with one bound for input and output (they
                // advance together): NEON German windows-1252 went 15 instructions a vector
                // with the two bounds of the loop above (1.71 -> 1.63 a byte). Not at 32-byte
                // vectors: German runs of ASCII are a vector or two there, and the extra
                // loop cost AVX2 1.5%.
                let room = if V::LANES == 16 {
                    (src.len() - r).min(dst.len() - w)
                } else {
                    0
                };
                let mut i = 0;
                while i + V::LANES <= room {
                    // SAFETY: `i + LANES <= room`: `src[r + i..r + i + LANES]` and
                    // `dst[w + i..w + i + LANES]` are in bounds; the ISA per the contract.
                    unsafe {
                        let v = V::load(src.as_ptr().add(r + i));
                        if v.any_high() {
                            break;
                        }
                        v.store(dst.as_mut_ptr().cast::<u8>().add(w + i));
                    }
                    i += V::LANES;
                }
                r += i;
                w += i;
                continue;
            }
            if high & (high - 1) == 0 && w + V::LANES + 2 <= dst.len() {
                // One letter among ASCII (Latin-script text): its 2 or 3 bytes written alone
                // rather than the lookup and compaction of a whole vector for one letter.
                let k = high.trailing_zeros() as usize;
                let unit = table[usize::from(src[r + k] & 0x7F)];
                if unit == 0 {
                    // Unmapped: the scalar kernel stops there.
                    break;
                }
                // A unit from 0x80 (the tables map no byte above 0x7F below it): 2 or 3 bytes.
                let n = if unit < 0x800 { 2 } else { 3 };
                let out = dst.as_mut_ptr().cast::<u8>();
                // SAFETY: the vector's bytes after the letter land where they go when the
                // vector is stored `n - 1` bytes on (its bytes up to the letter's land
                // there too, overwritten next): `dst[w + n - 1..w + n - 1 + LANES]`, inside
                // `dst` (`w + LANES + 2 <= dst.len()`). Then the `k < LANES` ASCII bytes
                // before the letter, `src[r..r + k]` to `dst[w..w + k]` (`r + LANES <=
                // src.len()`; `src` and `dst` do not overlap). The ISA per the contract.
                unsafe {
                    v.store(out.add(w + n - 1));
                    if V::LANES == 16 {
                        // The vector with an `n - 1`-byte gap opened at the letter, by one
                        // shuffle, over the first 16 of those bytes: the ASCII before the
                        // letter lands in place with no copy of its own (NEON German
                        // windows-1252: the short copy was a quarter of the instructions).
                        let gap = V::load(GAP_ROWS[n - 2][k].as_ptr());
                        gap.lookup16(v).store(out.add(w));
                    } else {
                        super::super::copy_short(src.as_ptr().add(r), out.add(w), k);
                    }
                }
                // The letter over what the store left at `dst[w + k..w + k + n]`, inside the
                // range it wrote (`k + n <= n - 1 + LANES`).
                let written = scalar::put_utf8(u32::from(unit), &mut dst[w + k..w + k + n]);
                debug_assert_eq!(written, n);
                r += V::LANES;
                w += V::LANES + n - 1;
                continue;
            }
            // SAFETY: register operations; the ISA per contract.
            let (lo, hi) = unsafe { v.lookup(&t) };
            // SAFETY: as above.
            if unsafe { unmapped(v, lo, hi) } {
                break;
            }
            // SAFETY: register operations; the ISA per contract.
            let (ones_v, narrow_v, x, cont) = unsafe {
                // Units below 0x80: high byte 0 and low byte below 0x80; below 0x800: high
                // byte below 8.
                let ones = hi.or(lo.and(V::splat(0x80))).eq8(V::splat(0));
                let below_0800 = hi.saturating_sub(V::splat(7)).eq8(V::splat(0));
                // Bits 6..11 of the unit (and 12..14, which are 0 below 0x800).
                let x = hi.and(V::splat(0x0F)).shl2_small().or(lo.shr6());
                let cont = lo.and(V::splat(0x3F)).or(V::splat(0x80));
                (ones, below_0800, x, cont)
            };
            // SAFETY: as above.
            let (ones, threes) = unsafe { (ones_v.high_mask(), narrow_v.high_mask() ^ lanes) };
            // 1, 2 or 3 bytes per unit.
            let n = 2 * V::LANES - ones.count_ones() as usize + threes.count_ones() as usize;
            if w + n > dst.len() {
                break;
            }
            let at = dst.as_mut_ptr().cast::<u8>().wrapping_add(w);
            if threes == 0 {
                // SAFETY: `ones` is `ones_v`'s mask, and `put_two_byte` writes its count, `n`
                // (`threes == 0`), from `dst[w..]` on, with `w + n <= dst.len()`; the ISA per
                // contract.
                unsafe {
                    let written = put_two_byte(ones_v, lo, x, cont, ones, at);
                    debug_assert_eq!(written, n);
                }
            } else {
                // SAFETY: register operations; `w + n <= dst.len()`, and the four calls write
                // their counts, which add up to `n`, from `dst[w..]` on (`ones` and `threes`
                // are disjoint: a unit below 0x80 is below 0x800); the ISA per contract.
                unsafe {
                    let three_lead = hi.high_nibbles().or(V::splat(0xE0));
                    let b0 = V::select(ones_v, lo, V::select(narrow_v, x.or(V::splat(0xC0)), three_lead));
                    let b1 = V::select(narrow_v, cont, x.or(V::splat(0x80)));
                    let [p0, p1] = b0.zip(b1);
                    let [q0, q1] = cont.zip(V::splat(0));
                    let [s0, s1] = p0.zip16(q0);
                    let [s2, s3] = p1.zip16(q1);
                    let quarter = V::LANES / 4;
                    let mut written = 0;
                    for (i, slots) in [s0, s1, s2, s3].into_iter().enumerate() {
                        let shift = quarter * i;
                        written += slots.compact_quads(ones >> shift, threes >> shift, at.add(written));
                    }
                    debug_assert_eq!(written, n);
                }
            }
            r += V::LANES;
            w += n;
        }
    }
    let (read, written) = scalar::single_byte_to_utf8(&src[r..], table, &mut dst[w..]);
    (r + read, w + written)
}
