//! UTF-8 to UTF-16 after Lemire & Muła, "Transcoding billions of Unicode characters per
//! second with SIMD instructions" (2022): validate a block, then convert it with byte
//! shuffles chosen by where its characters end.
//!
//! ```text
//! at a character boundary `read` (everything before it converted), while 64 bytes of input
//! and 64 units of output are left:
//!     64 ASCII bytes: widen them; next block
//!     validate the 64 bytes on their own (Keiser-Lemire, as if ASCII preceded them):
//!         an error: stop
//!     ends = bit i set if byte i+1 is not a continuation byte (byte i ends a character);
//!            bit 63 from the last bytes (it ends a character if that character is whole)
//!     pos = 0; while pos <= 48 (16 bytes loadable inside the block):
//!         16 bits of ends all set: 16 ASCII bytes, widened
//!         ends = 1010...10: 8 two-byte characters: swap each pair, assemble 8 units
//!         ends = 100100100100: 4 three-byte characters (8 if 12 more follow): a fixed
//!             shuffle, no lookup
//!         ends = 1000100010001000: 4 four-byte characters (emoji): a fixed shuffle, u32
//!             code points, each split into a surrogate pair: 8 units
//!         else by the 12 bits of ends at pos (a table built at compile time):
//!             6 characters of 1-2 bytes: one u16 lane each (shuffle), assemble, 6 units
//!             4 characters of 1-3 bytes: one u32 lane each (shuffle), assemble, 4 units
//!             else 3 characters of 1-4 bytes (12 bytes always hold 3 characters): one u32
//!                 lane each (shuffle), assemble the code points, split those of 0x10000 or
//!                 more into surrogate pairs, pack the 3..6 units by a row looked up by the
//!                 characters' lengths, stored as three overlapping pairs of units
//!     read += pos (a character boundary: every step ends at one)
//! the scalar kernel finishes from `read`
//! ```
//! The vector loop converts only characters that lie wholly inside a block it validated,
//! from a character boundary, greedily, as the scalar kernel does; it stops while 64 units
//! still fit, so every character it converts also fits (a step writes at most one unit per
//! byte it reads). The scalar kernel, stateless at character boundaries, then gives the same
//! `(read, written)` and output as if it had done all of it. Every store is exactly as long
//! as the units it holds: nothing past `written` changes.

use super::super::scalar;
use super::super::vector::Vector;
use super::lane::{Lane, TranscodeVector};
use super::utf8::{BLOCK, Checker};

/// No vector step for this pattern of character ends.
const NONE: u8 = 0xFF;
/// Rows 0..64: six characters of 1-2 bytes, row `sum((len_k - 1) << k)`. Rows 64..145: four
/// characters of 1-3 bytes, row `64 + sum((len_k - 1) * 3^k)`. Rows 145..209: three
/// characters of 1-4 bytes, row `145 + sum((len_k - 1) << 2k)`.
const SIX_ROWS: usize = 64;
const FOUR_ROWS: usize = SIX_ROWS + 81;
const ROWS: usize = FOUR_ROWS + 64;
/// The row of four 3-byte characters: `64 + 2 * (1 + 3 + 9 + 27)`.
const ALL_THREE: usize = SIX_ROWS + 80;

/// The shuffles: for six characters, u16 lane `k` = (last byte, lead byte) of character `k`
/// (ASCII: (byte, 0)); for four or three, u32 lane `k` = the bytes of character `k` from the
/// last to the lead, (last, third, second, lead), with zeros where it is shorter.
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
    while r < 81 + 64 {
        // Four characters of 1-3 bytes (3 lengths a character), or three of 1-4 (4).
        let (chars, base, code) = if r < 81 { (4, 3, r) } else { (3, 4, r - 81) };
        let (mut s, mut k, mut code) = (0, 0, code);
        while k < chars {
            let len = 1 + code % base;
            code /= base;
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

/// For the three-character rows, by `row - FOUR_ROWS`: the shuffle that packs the UTF-16 of
/// the three u32 lanes (a BMP character's unit in the low half of its lane, a surrogate pair
/// in the whole lane) into `n` = 3..=6 units as three overlapping pairs of units, one per
/// u32 lane: units `0, 1`, units `m, m + 1` (`m = min(2, n - 2)`) and units `n - 2, n - 1`,
/// which three 4-byte stores put in place; and `n`.
const fn pack_rows() -> ([[u8; 16]; 64], [u8; 64]) {
    let mut rows = [[NONE; 16]; 64];
    let mut units = [0u8; 64];
    let mut code = 0;
    while code < 64 {
        // The source byte of each unit's low byte, in order.
        let mut from = [0u8; 6];
        let (mut n, mut k) = (0, 0);
        while k < 3 {
            from[n] = (4 * k) as u8;
            n += 1;
            if (code >> (2 * k)) & 3 == 3 {
                from[n] = (4 * k + 2) as u8;
                n += 1;
            }
            k += 1;
        }
        let m = if n - 2 < 2 { n - 2 } else { 2 };
        let firsts = [0, m, n - 2];
        let mut lane = 0;
        while lane < 3 {
            let mut j = 0;
            while j < 2 {
                let b = from[firsts[lane] + j];
                rows[code][4 * lane + 2 * j] = b;
                rows[code][4 * lane + 2 * j + 1] = b + 1;
                j += 1;
            }
            lane += 1;
        }
        units[code] = n as u8;
        code += 1;
    }
    (rows, units)
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
        let (mut short6, mut short4, mut any3, mut k) = (n == 6, n >= 4, n >= 3, 0);
        while k < 6 {
            short6 &= lens[k] <= 2;
            short4 &= k >= 4 || lens[k] <= 3;
            any3 &= k >= 3 || lens[k] <= 4;
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
        } else if any3 {
            let (mut row, mut used, mut k) = (0, 0, 0);
            while k < 3 {
                row |= (lens[k] - 1) << (2 * k);
                used += lens[k];
                k += 1;
            }
            index[mask] = [(FOUR_ROWS + row) as u8, used as u8];
        }
        mask += 1;
    }
    index
}

static STEP_ROWS: [[u8; 16]; ROWS] = step_rows();
static STEP_INDEX: [[u8; 2]; 4096] = step_index();
static PACK_ROWS: ([[u8; 16]; 64], [u8; 64]) = pack_rows();

/// Reverses the bytes of each u32 lane: four 4-byte characters to the lanes of
/// [`assemble_four`].
const REVERSE32: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];

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

/// u32 lanes (last, third or 0, second or 0, lead or 0) of 1-4-byte characters to their code
/// points.
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn assemble_four<L: Lane>(v: L) -> L {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        let low = v.and(L::splat32(0x7F));
        let middle = v.and(L::splat32(0x3F00)).shr32::<2>();
        // Byte 2 is a continuation byte (0b10xx_xxxx) or the lead of 3 bytes (0b1110_xxxx);
        // the mask keeps the latter's bit 5, which its bit 6, moved there, clears.
        let lead6 = v.and(L::splat32(0x40_0000)).shr32::<1>();
        let second = v.and(L::splat32(0x3F_0000)).xor(lead6).shr32::<4>();
        let top = v.and(L::splat32(0x0700_0000)).shr32::<6>();
        low.or(middle).or(second.or(top))
    }
}

/// u32 lanes of supplementary code points (0x10000 or more) to their surrogate pairs, the
/// leading one in the low half.
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn surrogate_pairs<L: Lane>(c: L) -> L {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        // 0xD800 | (c - 0x10000) >> 10 = 0xD7C0 + (c >> 10), below 0xDC00: the high half of
        // each lane stays 0 (`c >> 10` is below 0x800, the constant is 0 there).
        let lead = c.shr32::<10>().add16(L::splat32(0xD7C0));
        let trail = c.and(L::splat32(0x3FF)).or(L::splat32(0xDC00)).shl32::<16>();
        lead.or(trail)
    }
}

/// u32 lanes of code points to UTF-16: the unit of a BMP code point in the low half of its
/// lane (the high half unspecified), a surrogate pair in the whole lane for the others.
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn to_utf16<L: Lane>(c: L) -> L {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        // All ones in the low half of the BMP lanes, zeros elsewhere.
        let bmp = c.shr32::<16>().eq16(L::splat16(0)).and(L::splat32(0xFFFF));
        L::select(bmp, c, surrogate_pairs(c))
    }
}

/// Bit `i` set if byte `i` of the 64 at `p` is a continuation byte (0x80..=0xBF).
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `p` is valid for reading 64 bytes.
#[inline(always)]
unsafe fn continuation_bits<V: TranscodeVector>(p: *const u8) -> u64 {
    if 4 * V::LANES == BLOCK {
        // SAFETY: four vectors, the 64 bytes at `p`; ISA enabled per contract.
        return unsafe {
            let c = |i: usize| V::load(p.add(i * V::LANES)).continuations();
            V::high_mask4(c(0), c(1), c(2), c(3))
        };
    }
    let mut bits = 0;
    let mut i = 0;
    while i < BLOCK {
        // SAFETY: `i + LANES <= 64`: inside the 64 bytes at `p`; ISA enabled per contract.
        unsafe { bits |= V::load(p.add(i)).continuations().high_mask() << i };
        i += V::LANES;
    }
    bits
}

/// Whether the last byte of a validated `block` ends a character: it is ASCII, or the
/// continuation byte that completes the character whose lead is 1-3 bytes before it (a
/// validated block holds no stray continuation bytes, and a lead followed by 3 of them is a
/// lead of 4).
#[inline(always)]
fn last_ends(block: &[u8]) -> bool {
    let [.., b60, b61, b62, b63] = *block else {
        return false;
    };
    let cont = |b: u8| b & 0xC0 == 0x80;
    match (cont(b61), cont(b62), cont(b63)) {
        (_, _, false) => b63 < 0x80,
        (_, false, true) => b62 < 0xE0,
        (false, true, true) => b61 < 0xF0,
        (true, true, true) => b60 >= 0xF0,
    }
}

/// Widens the whole 64-byte blocks of ASCII at the start of `src` into `dst` while a block
/// fits in both; returns how many bytes (a multiple of 64).
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn ascii_blocks<V: TranscodeVector>(src: &[u8], dst: &mut [u16]) -> usize {
    let vectors = BLOCK / V::LANES;
    let limit = src.len().min(dst.len());
    let mut i = 0;
    while i + BLOCK <= limit {
        // SAFETY: `i + 64 <= src.len(), dst.len()`: the loads read `src[i..i + 64]` and the
        // stores write `dst[i..i + 64]`; ISA enabled per contract.
        unsafe {
            let p = src.as_ptr().add(i);
            let mut v = [V::load(p); 4];
            let mut any = v[0];
            for (k, slot) in v.iter_mut().enumerate().take(vectors).skip(1) {
                *slot = V::load(p.add(k * V::LANES));
                any = any.or(*slot);
            }
            if any.any_high() {
                break;
            }
            let d = dst.as_mut_ptr().add(i);
            for (k, v) in v.iter().enumerate().take(vectors) {
                v.widen_store(d.add(k * V::LANES));
            }
        }
        i += BLOCK;
    }
    i
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
        // The block's vectors, loaded once: the widening stores below could alias `src` as
        // far as the compiler knows, so loading again after the check cost two loads a block.
        let vectors = BLOCK / V::LANES;
        // SAFETY: every load is inside the 64 bytes at `p` (`vectors * LANES == 64`); ISA
        // enabled per contract.
        let (v, ascii) = unsafe {
            let mut v = [V::load(p); 4];
            let mut any = v[0];
            for (i, slot) in v.iter_mut().enumerate().take(vectors).skip(1) {
                *slot = V::load(p.add(i * V::LANES));
                any = any.or(*slot);
            }
            (v, !any.any_high())
        };
        if ascii {
            // SAFETY: 64 units from `d` are in bounds (above); ISA enabled per contract.
            unsafe {
                for (i, v) in v.iter().enumerate().take(vectors) {
                    v.widen_store(d.add(i * V::LANES));
                }
            }
            read += BLOCK;
            written += BLOCK;
            // The ASCII blocks after it in a loop of their own, where the state of this one
            // (spilled to the stack around it) is not reloaded block after block.
            // SAFETY: `read <= src.len()` and `written <= dst.len()`; ISA enabled per contract.
            let n = unsafe { ascii_blocks::<V>(&src[read..], &mut dst[written..]) };
            read += n;
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
        let last = last_ends(&src[read..read + BLOCK]);
        let ends = (!(cont >> 1) & (u64::MAX >> 1)) | (u64::from(last) << 63);
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
            if m & 0xFFFF == 0x8888 {
                // 4-byte characters (emoji): no lookup, 8 units.
                // SAFETY: units `w..w + 8` of the block; ISA enabled per contract.
                unsafe {
                    let c = assemble_four(lane.shuffle(&REVERSE32));
                    surrogate_pairs(c).store(d.add(w).cast());
                }
                pos += 16;
                w += 8;
                continue;
            }
            let [row, used] = STEP_INDEX[(m & 0xFFF) as usize];
            let row = usize::from(row);
            if row < SIX_ROWS {
                // SAFETY: units `w..w + 6` of the block; ISA enabled per contract.
                unsafe { assemble_two(lane.shuffle(&STEP_ROWS[row])).store12(d.add(w).cast()) };
                w += 6;
            } else if row < FOUR_ROWS {
                // SAFETY: units `w..w + 4` of the block; ISA enabled per contract.
                unsafe { assemble_three(lane.shuffle(&STEP_ROWS[row])).store8(d.add(w).cast()) };
                w += 4;
            } else if row < ROWS {
                // Three characters of 1-4 bytes: `n` units, 3..=6 (at most one per byte).
                let (packs, counts) = &PACK_ROWS;
                let n = usize::from(counts[row - FOUR_ROWS]);
                let m = (n - 2).min(2);
                // SAFETY: units `w..w + n` of the block, as three stores of 2 units at `w`,
                // `w + m` and `w + n - 2` (`m <= n - 2`), which cover them; ISA enabled per
                // contract.
                unsafe {
                    let c = assemble_four(lane.shuffle(&STEP_ROWS[row]));
                    let out = to_utf16(c).shuffle(&packs[row - FOUR_ROWS]);
                    out.store4::<0>(d.add(w).cast());
                    out.store4::<1>(d.add(w + m).cast());
                    out.store4::<2>(d.add(w + n - 2).cast());
                }
                w += n;
            } else {
                // No step for this pattern (not met in valid text: three characters always
                // end within 12 bytes): the scalar kernel converts the whole characters of
                // the next 16 bytes (inside the block; as many units at most, inside the
                // block's 64).
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
