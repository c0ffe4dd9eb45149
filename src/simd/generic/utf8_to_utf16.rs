//! UTF-8 to UTF-16 after Lemire & Muła, "Transcoding billions of Unicode characters per
//! second with SIMD instructions" (2022): validate a block, then convert it with byte
//! shuffles chosen by where its characters end.
//!
//! ```text
//! at a character boundary `read` (everything before it converted), while 64 bytes of input
//! and 64 units of output are left:
//!     64 ASCII bytes: widen them; next block
//!     a byte >= 0xF0 (emoji): the scalar kernel converts the block's whole characters
//!     validate the 64 bytes on their own (Keiser-Lemire, as if ASCII preceded them):
//!         an error: stop
//!     ends = bit i set if byte i+1 is not a continuation byte (byte i ends a character);
//!            bit 63 unknown, so clear
//!     pos = 0; while pos <= 48 (16 bytes loadable inside the block):
//!         16 bits of ends all set: 16 ASCII bytes, widened
//!         ends = 1010...10: 8 two-byte characters: swap each pair, assemble 8 units
//!         ends = 100100100100: 4 three-byte characters (8 if 12 more follow): a fixed
//!             shuffle, no lookup
//!         else by the 12 bits of ends at pos (a table built at compile time):
//!             6 characters of 1-2 bytes: one u16 lane each (shuffle), assemble, 6 units
//!             4 characters of 1-3 bytes: one u32 lane each (shuffle), assemble, 4 units
//!             else (not met in valid text without 4-byte characters): the scalar
//!                 kernel converts the whole characters of the next 16 bytes
//!     read += pos (a character boundary: every step ends at one)
//! the scalar kernel finishes from `read`
//! ```
//! The vector loop converts only characters that lie wholly inside a block it validated,
//! from a character boundary, greedily, as the scalar kernel does; it stops while 64 units
//! still fit, so every character it converts also fits. The scalar kernel, stateless at
//! character boundaries, then gives the same `(read, written)` and output as if it had done
//! all of it. Every store is exactly as long as the units it holds: nothing past `written`
//! changes.

use super::super::scalar;
use super::super::vector::Vector;
use super::lane::{Lane, TranscodeVector};
use super::utf8::{BLOCK, Checker};

/// No vector step for this pattern of character ends.
const NONE: u8 = 0xFF;
/// Rows 0..64: six characters of 1-2 bytes, row `sum((len_k - 1) << k)`. Rows 64..145: four
/// characters of 1-3 bytes, row `64 + sum((len_k - 1) * 3^k)`.
const SIX_ROWS: usize = 64;
const ROWS: usize = SIX_ROWS + 81;
/// The row of four 3-byte characters: `64 + 2 * (1 + 3 + 9 + 27)`.
const ALL_THREE: usize = SIX_ROWS + 80;

/// The shuffles: for six characters, u16 lane `k` = (last byte, lead byte) of character `k`
/// (ASCII: (byte, 0)); for four, u32 lane `k` = (last, middle, lead, 0) of character `k`,
/// with zeros where it is shorter.
const fn step_rows() -> [[u8; 16]; ROWS] {
    let mut rows = [[NONE; 16]; ROWS];
    let mut r = 0;
    while r < SIX_ROWS {
        let (mut s, mut k) = (0, 0);
        while k < 6 {
            let len = 1 + ((r >> k) & 1);
            rows[r][2 * k] = (s + len - 1) as u8;
            if len == 2 {
                rows[r][2 * k + 1] = s as u8;
            }
            s += len;
            k += 1;
        }
        r += 1;
    }
    let mut r = 0;
    while r < 81 {
        let (mut s, mut k, mut code) = (0, 0, r);
        while k < 4 {
            let len = 1 + code % 3;
            code /= 3;
            let mut j = 0;
            while j < len {
                // Byte j of the lane: the j-th byte from the end of the character.
                rows[SIX_ROWS + r][4 * k + j] = (s + len - 1 - j) as u8;
                j += 1;
            }
            s += len;
            k += 1;
        }
        r += 1;
    }
    rows
}

/// By the 12 bits of character ends at a step: `[row or NONE, bytes consumed]`.
const fn step_index() -> [[u8; 2]; 4096] {
    let mut index = [[NONE, 0]; 4096];
    let mut mask = 0;
    while mask < 4096 {
        let mut lens = [0usize; 6];
        let (mut n, mut start, mut i) = (0, 0, 0);
        while i < 12 {
            if (mask >> i) & 1 == 1 {
                if n < 6 {
                    lens[n] = i + 1 - start;
                    n += 1;
                }
                start = i + 1;
            }
            i += 1;
        }
        let (mut short6, mut short4, mut k) = (n == 6, n >= 4, 0);
        while k < 6 {
            short6 &= lens[k] <= 2;
            short4 &= k >= 4 || lens[k] <= 3;
            k += 1;
        }
        if short6 {
            let (mut row, mut used, mut k) = (0, 0, 0);
            while k < 6 {
                row |= (lens[k] - 1) << k;
                used += lens[k];
                k += 1;
            }
            index[mask] = [row as u8, used as u8];
        } else if short4 {
            let (mut row, mut used, mut weight, mut k) = (0, 0, 1, 0);
            while k < 4 {
                row += (lens[k] - 1) * weight;
                weight *= 3;
                used += lens[k];
                k += 1;
            }
            index[mask] = [(SIX_ROWS + row) as u8, used as u8];
        }
        mask += 1;
    }
    index
}

static STEP_ROWS: [[u8; 16]; ROWS] = step_rows();
static STEP_INDEX: [[u8; 2]; 4096] = step_index();

/// Swaps the bytes of each u16 lane: (lead, continuation) pairs to (continuation, lead).
const SWAP: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];
/// The low u16 of each u32 lane, packed into the low 8 bytes.
const PACK32: [u8; 16] = [
    0, 1, 4, 5, 8, 9, 12, 13, NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE,
];

/// u16 lanes (last byte, lead byte or 0) of 1-2-byte characters to their code units.
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn assemble_two<L: Lane>(v: L) -> L {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        let low = v.and(L::splat16(0x7F));
        let high = v.and(L::splat16(0x1F00)).shr16::<2>();
        low.or(high)
    }
}

/// u32 lanes (last, middle or 0, lead or 0, 0) of 1-3-byte characters to their code units, in
/// the low 8 bytes.
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn assemble_three<L: Lane>(v: L) -> L {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        let low = v.and(L::splat32(0x7F));
        let middle = v.and(L::splat32(0x3F00)).shr32::<2>();
        let high = v.and(L::splat32(0x0F_0000)).shr32::<4>();
        low.or(middle).or(high).shuffle(&PACK32)
    }
}

/// Bit `i` set if byte `i` of the 64 at `p` is a continuation byte (0x80..=0xBF).
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `p` is valid for reading 64 bytes.
#[inline(always)]
unsafe fn continuation_bits<V: TranscodeVector>(p: *const u8) -> u64 {
    let mut bits = 0;
    let mut i = 0;
    while i < BLOCK {
        // SAFETY: `i + LANES <= 64`: inside the 64 bytes at `p`; ISA enabled per contract.
        // b ^ 0x40 is >= 0xC0 exactly for continuation bytes; minus 0x40 (saturating), the
        // high bit is set exactly for them.
        unsafe {
            let v = V::load(p.add(i));
            let c = v.xor(V::splat(0x40)).saturating_sub(V::splat(0x40));
            bits |= c.high_mask() << i;
        }
        i += V::LANES;
    }
    bits
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn utf8_to_utf16<V: TranscodeVector>(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: ISA enabled per contract.
    let mut checker = unsafe { Checker::<V>::new() };
    let (mut read, mut written) = (0, 0);
    'blocks: while read + BLOCK <= src.len() && written + BLOCK <= dst.len() {
        // SAFETY: `read + 64 <= src.len()` and `written + 64 <= dst.len()`: the pointers are
        // valid for 64 bytes and 64 units.
        let (p, d) = unsafe { (src.as_ptr().add(read), dst.as_mut_ptr().add(written)) };
        // SAFETY: every load is inside the 64 bytes at `p`; ISA enabled per contract.
        let ascii = unsafe {
            let mut any = V::load(p);
            let mut i = V::LANES;
            while i < BLOCK {
                any = any.or(V::load(p.add(i)));
                i += V::LANES;
            }
            any.high_mask() == 0
        };
        if ascii {
            // SAFETY: 64 bytes from `p` and 64 units from `d` are in bounds (above).
            unsafe {
                let mut i = 0;
                while i < BLOCK {
                    V::load(p.add(i)).widen_store(d.add(i));
                    i += V::LANES;
                }
            }
            read += BLOCK;
            written += BLOCK;
            continue;
        }
        // SAFETY: every load is inside the 64 bytes at `p`; ISA enabled per contract.
        let four = unsafe {
            let mut any = V::load(p).saturating_sub(V::splat(0xEF));
            let mut i = V::LANES;
            while i < BLOCK {
                any = any.or(V::load(p.add(i)).saturating_sub(V::splat(0xEF)));
                i += V::LANES;
            }
            any.any()
        };
        if four {
            // A lead byte of 4 (or an invalid byte 0xF5..): the scalar kernel converts the
            // whole valid characters of the block (as many units at most).
            let (r, n) = scalar::utf8_to_utf16(&src[read..read + BLOCK], &mut dst[written..written + BLOCK]);
            if r == 0 {
                break;
            }
            read += r;
            written += n;
            continue;
        }
        // SAFETY: 64 readable bytes at `p`; ISA enabled per contract. `read` is a character
        // boundary (every step below ends at one).
        if unsafe { checker.block_has_error_at_boundary(p) } {
            break;
        }
        // SAFETY: as above.
        let cont = unsafe { continuation_bits::<V>(p) };
        let ends = !(cont >> 1) & (u64::MAX >> 1);
        // `w <= pos` (a unit per byte at most), so every store below ends at or before unit
        // `pos + 16 <= 64` of the block: inside `dst`.
        let (mut pos, mut w) = (0, 0);
        while pos + 16 <= BLOCK {
            let m = ends >> pos;
            // SAFETY: `pos + 16 <= 64`: 16 bytes inside the block; ISA enabled per contract.
            let lane = unsafe { V::Lane::load(p.add(pos)) };
            if m & 0xFFFF == 0xFFFF {
                // SAFETY: units `w..w + 16` of the block, `w + 16 <= pos + 16 <= 64`.
                unsafe { lane.widen_store(d.add(w)) };
                pos += 16;
                w += 16;
                continue;
            }
            if m & 0xFFFF == 0xAAAA {
                // SAFETY: units `w..w + 8` of the block; ISA enabled per contract.
                unsafe { assemble_two(lane.shuffle(&SWAP)).store(d.add(w).cast()) };
                pos += 16;
                w += 8;
                continue;
            }
            if m & 0xFFF == 0x924 {
                // 3-byte characters (CJK): no lookup, and 8 of them at once if they go on.
                let row = &STEP_ROWS[ALL_THREE];
                // SAFETY: units `w..w + 4` of the block; ISA enabled per contract.
                unsafe { assemble_three(lane.shuffle(row)).store8(d.add(w).cast()) };
                if m & 0xFF_FFFF == 0x924_924 && pos + 28 <= BLOCK {
                    // SAFETY: bytes `pos + 12..pos + 28` and units `w + 4..w + 8` of the
                    // block; ISA enabled per contract.
                    unsafe {
                        let next = V::Lane::load(p.add(pos + 12));
                        assemble_three(next.shuffle(row)).store8(d.add(w + 4).cast());
                    }
                    pos += 24;
                    w += 8;
                } else {
                    pos += 12;
                    w += 4;
                }
                continue;
            }
            let [row, used] = STEP_INDEX[(m & 0xFFF) as usize];
            let row = usize::from(row);
            if row < SIX_ROWS {
                // SAFETY: units `w..w + 6` of the block; ISA enabled per contract.
                unsafe { assemble_two(lane.shuffle(&STEP_ROWS[row])).store12(d.add(w).cast()) };
                w += 6;
            } else if row < ROWS {
                // SAFETY: units `w..w + 4` of the block; ISA enabled per contract.
                unsafe { assemble_three(lane.shuffle(&STEP_ROWS[row])).store8(d.add(w).cast()) };
                w += 4;
            } else {
                // No step for this pattern (the block has no 4-byte characters, so not met in
                // valid text): the scalar kernel converts the whole characters of the next 16
                // bytes (inside the block; as many units at most, inside the block's 64).
                let at = read + pos;
                let (r, n) =
                    scalar::utf8_to_utf16(&src[at..at + 16], &mut dst[written + w..written + w + 16]);
                if r == 0 {
                    read += pos;
                    written += w;
                    break 'blocks;
                }
                pos += r;
                w += n;
                continue;
            }
            pos += usize::from(used);
        }
        read += pos;
        written += w;
    }
    let (r, w) = scalar::utf8_to_utf16(&src[read..], &mut dst[written..]);
    (read + r, written + w)
}
