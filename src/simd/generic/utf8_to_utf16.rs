//! UTF-8 to UTF-16 after Lemire & Muła, "Transcoding billions of Unicode characters per
//! second with SIMD instructions" (2022): validate a block, then convert it with byte
//! shuffles chosen by where its characters end.
//!
//! ```text
//! sparse loop (`sparse`), while 96 bytes of input and 96 units of output are left:
//!     64 ASCII bytes: widen them, then whole vectors of ASCII while they last
//!     else, a 16-byte vector at a time: ASCII: widen it; more than 4 non-ASCII bytes: to the
//!         block loop; else decode and check the sequence at the first non-ASCII byte `k` (the
//!         standard's byte ranges; invalid: to the block loop), widen the `k` ASCII bytes
//!         before it exactly (a vector ending there, or 8, 4, 2, 1), write its 1-2 units;
//!         the next round starts after it
//! block loop (`blocks`, out of line), at a character boundary `read` (everything before it
//! converted), while 64 bytes of input and 64 units of output are left:
//!     64 ASCII bytes: widen them; back to the sparse loop
//!     validate the 64 bytes on their own (Keiser-Lemire, as if ASCII preceded them):
//!         an error: stop
//!     ends = bit i set if byte i+1 is not a continuation byte (byte i ends a character);
//!            bit 63 from the last bytes (it ends a character if that character is whole)
//!     3-byte characters among 1-2-byte ones, no 4-byte ones, at most 56 characters (Korean,
//!         CJK among ASCII): the whole block at once
//!         (`mixed_block`: a unit per byte from it and the two before it, the units of the
//!         bytes that end a character packed 8 at a time); else
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
//!     at most 4 continuation bytes in the block: back to the sparse loop
//!     its last 48 bytes 3-byte characters only: to the 3-byte loop
//! 3-byte loop (`three_byte_blocks`, out of line), while 3 * LANES bytes and LANES units are
//! left: bytes deinterleaved by three, validated by their payloads' ranges, LANES units
//! stored; back to the block loop at the first round that is not LANES 3-byte characters
//! 1-2-byte loop (`two_byte_blocks`, out of line), after the sparse loop: 64 bytes below 0xE0,
//!     validated by shifts, a unit per byte packed by a row of 256
//! the scalar kernel finishes from `read` (`utf8_to_utf16_stage`: not where only the output's
//! room stopped the loops, and the caller stages again from there)
//! ```
//! The block loop converts only characters that lie wholly inside a block it validated, the
//! sparse loop only ASCII and sequences it checked byte by byte, each from a character
//! boundary, greedily, as the scalar kernel does; both stop while 64 units
//! still fit, so every character it converts also fits (a step writes at most one unit per
//! byte it reads). The scalar kernel, stateless at character boundaries, then gives the same
//! `(read, written)` and output as if it had done all of it. Nothing past `written` changes:
//! every store is exactly as long as the units it holds, but within a block of 1-2-byte
//! characters (whose last stores are exact) and a mixed block (whose 8 units after its last
//! are loaded before and stored back after), where a store's units past its own are the next
//! store's.

use super::super::scalar;
use super::super::vector::Vector;
use super::ascii;
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

/// For the 8 units of 8 bytes of 1-2-byte characters (a unit per byte, [`two_byte_block`])
/// and the bits `m` of those that end a character: `[front, back]`, `front` the shuffle that
/// packs the kept units to the front, `back` the one that puts the last 4 of them (or all, if
/// fewer) in units 0..4; and their number.
const fn compact_rows() -> ([[[u8; 16]; 2]; 256], [u8; 256]) {
    let mut rows = [[[NONE; 16]; 2]; 256];
    let mut counts = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        let mut kept = [0u8; 8];
        let (mut n, mut k) = (0, 0);
        while k < 8 {
            if (m >> k) & 1 == 1 {
                kept[n] = k as u8;
                n += 1;
            }
            k += 1;
        }
        let from = n.saturating_sub(4);
        let mut j = 0;
        while j < n {
            rows[m][0][2 * j] = 2 * kept[j];
            rows[m][0][2 * j + 1] = 2 * kept[j] + 1;
            if j >= from {
                rows[m][1][2 * (j - from)] = 2 * kept[j];
                rows[m][1][2 * (j - from) + 1] = 2 * kept[j] + 1;
            }
            j += 1;
        }
        counts[m] = n as u8;
        m += 1;
    }
    (rows, counts)
}

static COMPACT_ROWS: ([[[u8; 16]; 2]; 256], [u8; 256]) = compact_rows();

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

/// The block's `BLOCK / LANES` vectors, loaded from the 64 bytes at `p` (the array's other
/// entries repeat the first).
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `p` is valid for reading 64 bytes.
#[inline(always)]
unsafe fn load_block<V: TranscodeVector>(p: *const u8) -> [V; 4] {
    // SAFETY: `i * LANES + LANES <= 64`: every load is inside the 64 bytes at `p`; ISA enabled
    // per contract.
    unsafe {
        let mut v = [V::load(p); 4];
        for (i, slot) in v.iter_mut().enumerate().take(BLOCK / V::LANES).skip(1) {
            *slot = V::load(p.add(i * V::LANES));
        }
        v
    }
}

/// The or of a block's vectors (see [`load_block`]).
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn or_block<V: TranscodeVector>(v: &[V; 4]) -> V {
    let mut any = v[0];
    for v in v.iter().take(BLOCK / V::LANES).skip(1) {
        // SAFETY: ISA enabled per contract.
        any = unsafe { any.or(*v) };
    }
    any
}

/// Bit `i` is the high bit of byte `i` of a block's vectors (see [`load_block`]).
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn high_bits<V: TranscodeVector>(v: &[V; 4]) -> u64 {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        if 4 * V::LANES == BLOCK {
            return V::high_mask4(v[0], v[1], v[2], v[3]);
        }
        let mut bits = 0;
        for (i, v) in v.iter().enumerate().take(BLOCK / V::LANES) {
            bits |= v.high_mask() << (i * V::LANES);
        }
        bits
    }
}

/// Bit `i` set if byte `i` of a block's vectors (see [`load_block`]) is a continuation byte
/// (0x80..=0xBF).
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn continuation_bits<V: TranscodeVector>(v: &[V; 4]) -> u64 {
    // SAFETY: register operations; ISA enabled per contract. (A loop, not `map`: a closure
    // does not inherit the caller's target features, and AVX2 did not inline one.)
    unsafe {
        let mut c = *v;
        for c in c.iter_mut().take(BLOCK / V::LANES) {
            *c = c.continuations();
        }
        high_bits(&c)
    }
}

/// Converts a block of 1-2-byte characters (Cyrillic, Greek, Hebrew, Arabic, Armenian text
/// and the ASCII among it) that starts at a character boundary, if it is one: `Some((read,
/// written, leads))`, `leads` the number of 2-byte characters; `None` if a byte is 0xE0 or
/// more or the block is not valid UTF-8 (the general steps take it then).
///
/// ```text
/// every byte below 0xE0: one maximum
/// valid: no continuation byte without a lead before it, no lead without one after it
///     (but the last byte's), no 0xC0 or 0xC1 — shifts and compares, no lookup
/// a unit per byte: ASCII: the byte; continuation: its 6 bits and the 5 of the lead before
///     it; a lead: dropped. Two byte vectors (the unit's low and high byte), interleaved
/// 8 units at a time: the kept ones (bytes that end a character) packed by a row looked up by
///     their 8 bits, and stored whole (the next store overwrites the units past the kept
///     ones); the last 8 as two stores of 4 units, which end at the last kept one
/// a lead in the last byte: its character is the next block's
/// ```
/// Every store ends at or before unit 64 of `d` and nothing past the written units changes.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `v` are the `BLOCK / LANES` vectors of the block's 64 bytes; `d` is valid for writing
///   64 units.
#[inline(always)]
unsafe fn two_byte_block<V: TranscodeVector>(v: &[V; 4], d: *mut u16) -> Option<(usize, usize, u32)> {
    let vectors = BLOCK / V::LANES;
    // SAFETY: register operations, the table rows and the stores below; ISA enabled per
    // contract.
    unsafe {
        let mut top = v[0];
        for v in v.iter().take(vectors).skip(1) {
            top = top.max8(*v);
        }
        if top.saturating_sub(V::splat(0xDF)).any() {
            return None;
        }
        // The high bit of each byte of `bad`: a continuation byte and the byte before it a
        // lead disagree, or a lead of an overlong form (0xC0, 0xC1).
        let (mut bad, mut lead_prev) = (V::splat(0), V::splat(0));
        let mut leads = [V::splat(0); 4];
        for (i, v) in v.iter().enumerate().take(vectors) {
            let lead = v.leads();
            let overlong = v.and(V::splat(0xFE)).eq8(V::splat(0xC0));
            bad = bad.or(v.continuations().xor(lead.prev1(lead_prev))).or(overlong);
            leads[i] = lead;
            lead_prev = lead;
        }
        if bad.any_high() {
            return None;
        }
        let lead_bits = high_bits(&leads);
        let keep = !lead_bits;
        let (rows, counts) = &COMPACT_ROWS;
        let (mut w, mut payload_prev) = (0, V::splat(0));
        for (i, v) in v.iter().enumerate().take(vectors) {
            // The lead's 5 bits (`b - 0xC0`) before each continuation byte, 0 elsewhere.
            let payload = v.saturating_sub(V::splat(0xC0));
            let high = payload.prev1(payload_prev);
            payload_prev = payload;
            // Low byte: the byte's 7 bits (a continuation's 6) and the lead's 2 low bits;
            // high byte: the lead's 3 high bits (byte shifts as u16 ones, masked).
            let low = v.and(V::splat(0x7F)).or(high.shl16::<6>().and(V::splat(0xC0)));
            let high = high.shr16::<2>().and(V::splat(0x07));
            for j in 0..V::LANES / 16 {
                let units = low.lane(j).zip8(high.lane(j));
                for (k, u) in units.iter().enumerate() {
                    let at = i * V::LANES + 16 * j + 8 * k;
                    let m = ((keep >> at) & 0xFF) as usize;
                    let n = usize::from(counts[m]);
                    if at + 8 < BLOCK {
                        // `w <= at` (a unit per byte at most): units `w..w + 8 <= 64`.
                        u.shuffle(&rows[m][0]).store(d.add(w).cast());
                    } else {
                        // 8 bytes of valid 1-2-byte characters end at least 4 of them
                        // (`n >= 4`): units `w..w + 4` and `w + n - 4..w + n`, `w + n <= 64`.
                        u.shuffle(&rows[m][0]).store8(d.add(w).cast());
                        u.shuffle(&rows[m][1]).store8(d.add(w + n - 4).cast());
                    }
                    w += n;
                }
            }
        }
        Some((BLOCK - (lead_bits >> 63) as usize, w, lead_bits.count_ones()))
    }
}

/// Converts a validated block of 1-3-byte characters (Korean, and CJK among ASCII) that
/// starts at a character boundary, all its whole characters: their number of units (one
/// each), which the caller checked is at most 56. `ends` has bit `i` set where byte `i` ends a
/// character (bit 63 only if the last character is whole).
///
/// ```text
/// a unit per byte, from it and the two bytes before it (no lookup):
///     low byte: the byte's 7 bits (a continuation's 6), and the 2 low bits of `mid`
///     high byte: the 4 high bits of `mid`, and the 4 bits of a 3-byte lead two bytes before
///     mid: the 5 bits of a 2-byte lead just before, or the 6 of a continuation just before
///         that follows a 3-byte lead, else 0
///     (meaningful only where the byte ends a character: the bytes of a valid block say
///     which of those the bytes before it are)
/// 8 units at a time: those of the bytes that end a character packed by a row looked up by
///     their 8 bits, and stored whole (8 units; the next store overwrites those past the
///     packed ones)
/// the 8 units after the block's last are loaded before the first store and stored back
///     after the last, so that nothing past the written units changes
/// ```
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `v` are the `BLOCK / LANES` vectors of the block's 64 bytes, valid UTF-8 from a character
///   boundary with no 4-byte character, and `ends` their character ends, at most 56.
/// - `d` is valid for reading and writing 64 units.
#[inline(always)]
unsafe fn mixed_block<V: TranscodeVector>(v: &[V; 4], ends: u64, d: *mut u16) -> usize {
    let vectors = BLOCK / V::LANES;
    let units = ends.count_ones() as usize;
    debug_assert!(units <= BLOCK - 8);
    let (rows, counts) = &COMPACT_ROWS;
    // SAFETY: register operations and the table rows; the load and store of the 8 units at
    // `units` are inside `d`'s 64 (`units <= 56`); a group of 8 bytes at `at` is stored at `w`,
    // `w <= at` (a unit per byte at most), as 8 units: `w + 8 <= at + 8 <= 64`. ISA enabled
    // per contract.
    unsafe {
        let after = V::Lane::load(d.add(units).cast());
        let mut prev = V::splat(0);
        let mut w = 0;
        for (i, &cur) in v.iter().enumerate().take(vectors) {
            let (p1, p2) = (cur.prev1(prev), cur.prev2(prev));
            prev = cur;
            // Two bytes before is not a 3-byte lead (0xE0..0xEF; no 4-byte leads here).
            let not_three = p2.saturating_sub(V::splat(0xDF)).eq8(V::splat(0));
            let zero = V::splat(0);
            let mid =
                p1.saturating_sub(V::splat(0xC0))
                    .or(V::select(not_three, zero, p1.and(V::splat(0x3F))));
            // Byte shifts as u16 ones, masked (the bits from the other byte cleared).
            let lead3 = V::select(not_three, zero, p2.shl16::<4>().and(V::splat(0xF0)));
            let low = cur.and(V::splat(0x7F)).or(mid.shl16::<6>().and(V::splat(0xC0)));
            let high = mid.shr16::<2>().and(V::splat(0x0F)).or(lead3);
            for j in 0..V::LANES / 16 {
                let pair = low.lane(j).zip8(high.lane(j));
                for (k, u) in pair.iter().enumerate() {
                    let at = i * V::LANES + 16 * j + 8 * k;
                    let m = ((ends >> at) & 0xFF) as usize;
                    u.shuffle(&rows[m][0]).store(d.add(w).cast());
                    w += usize::from(counts[m]);
                }
            }
        }
        after.store(d.add(units).cast());
        units
    }
}

/// Whether a validated block with continuation bytes `cont` and character ends `ends` (as
/// [`blocks`] computes them) goes to [`mixed_block`]: it has 3-byte characters (two
/// continuation bytes in a row, after which the character ends: `long << 1`), no 4-byte ones
/// (three in a row), some of 1 or 2 bytes (blocks of 3-byte characters only cost less in the
/// steps of 4 and 8 of them), and at most 56 characters.
#[inline(always)]
fn is_mixed(cont: u64, ends: u64) -> bool {
    let long = cont & (cont >> 1);
    long != 0
        && long & (cont >> 2) == 0
        && ends & !(long << 1) != 0
        && ends.count_ones() as usize <= BLOCK - 8
}

/// The loop of [`two_byte_block`]s from the character boundary `read`, while 64 bytes and 64
/// units are left: `(read, written, sparse)`, `sparse` after a block with at most
/// [`SPARSE_MAX`] 2-byte characters (the sparse loop goes on from there), else it stopped at
/// a block that is not one (a byte of 0xE0 or more, an error) or where a block no longer fits.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn two_byte_blocks<V: TranscodeVector>(
    src: &[u8],
    dst: &mut [u16],
    mut read: usize,
    mut written: usize,
) -> (usize, usize, bool) {
    while read + BLOCK <= src.len() && written + BLOCK <= dst.len() {
        // SAFETY: `read + 64 <= src.len()`, `written + 64 <= dst.len()`: the loads read the 64
        // bytes at `read`, the block writes inside the 64 units at `written`; ISA enabled per
        // contract; `read` is a character boundary (the caller's, then a block's end).
        let block = unsafe {
            let (p, d) = (src.as_ptr().add(read), dst.as_mut_ptr().add(written));
            two_byte_block::<V>(&load_block(p), d)
        };
        let Some((r, w, leads)) = block else {
            break;
        };
        read += r;
        written += w;
        if leads <= SPARSE_MAX {
            return (read, written, true);
        }
    }
    (read, written, false)
}

/// Converts the `LANES` characters in the `3 * LANES` bytes at `p` to `LANES` units at `d`, if
/// they are `LANES` characters of 3 bytes, all valid (CJK text, and most of the scripts of
/// India and South-East Asia); else writes nothing and returns false.
///
/// ```text
/// bytes deinterleaved by 3 (one instruction at NEON): a = leads, b, c = continuations
/// z = a ^ 0xE0, x = b ^ 0x80, y = c ^ 0x80: the payloads; valid bytes exactly when
///     z < 0x10 and x, y < 0x40 (two saturated differences, one maximum)
/// unit = z << 12 | x << 6 | y: high byte z << 4 | x >> 2, low byte x << 6 | y
/// overlong (a unit below U+0800: high byte below 0x08) or a surrogate (0xD8..=0xDF): no
/// units interleaved from the two bytes, stored whole
/// ```
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `p` is valid for reading `3 * LANES` bytes, `d` for writing `LANES` units.
#[inline(always)]
unsafe fn three_byte_chunk<V: TranscodeVector>(p: *const u8, d: *mut u16) -> bool {
    // SAFETY: the load reads the `3 * LANES` bytes at `p`, the stores write the `LANES` units
    // at `d` (16 per 16-byte lane `j`, at `d + 16 * j`); ISA enabled per contract.
    unsafe {
        let [a, b, c] = V::load3(p);
        let z = a.xor(V::splat(0xE0));
        let x = b.xor(V::splat(0x80));
        let y = c.xor(V::splat(0x80));
        let bytes_bad = z
            .saturating_sub(V::splat(0x0F))
            .or(x.max8(y).saturating_sub(V::splat(0x3F)));
        // With valid bytes, no u16 shift moves a set bit into the other byte of its lane
        // but those the masks clear.
        let high = z.shl16::<4>().or(x.shr16::<2>().and(V::splat(0x0F)));
        let low = x.shl16::<6>().and(V::splat(0xC0)).or(y);
        let eight = V::splat(0x08);
        let overlong = eight.saturating_sub(high);
        let surrogate = eight.saturating_sub(high.xor(V::splat(0xD8)));
        if bytes_bad.or(overlong).or(surrogate).any() {
            return false;
        }
        for j in 0..V::LANES / 16 {
            let [u0, u1] = low.lane(j).zip8(high.lane(j));
            u0.store(d.add(16 * j).cast());
            u1.store(d.add(16 * j + 8).cast());
        }
        true
    }
}

/// The loop of [`three_byte_chunk`]s from the character boundary `read`, while `3 * LANES`
/// bytes and `LANES` units are left: `(read, written)`, at the first chunk that is not
/// `LANES` valid 3-byte characters or where a chunk no longer fits.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn three_byte_blocks<V: TranscodeVector>(
    src: &[u8],
    dst: &mut [u16],
    mut read: usize,
    mut written: usize,
) -> (usize, usize) {
    while read + 3 * V::LANES <= src.len() && written + V::LANES <= dst.len() {
        // SAFETY: `read + 3 * LANES <= src.len()`, `written + LANES <= dst.len()`; ISA
        // enabled per contract.
        let whole = unsafe { three_byte_chunk::<V>(src.as_ptr().add(read), dst.as_mut_ptr().add(written)) };
        if !whole {
            break;
        }
        read += 3 * V::LANES;
        written += V::LANES;
    }
    (read, written)
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
    // After the first block, the next ones start where their stores are aligned (the units
    // between stored again: `ascii::store_skew`), or, if the run ends in the next block, it
    // ends after the first.
    // (Not at 16-byte vectors, whose stores into a buffer aligned to 16 cross no line: NEON
    // German +1.1% instructions for the test.)
    let skew = if V::LANES >= 32 {
        ascii::store_skew(dst.as_ptr().cast(), BLOCK, 2, V::LANES)
    } else {
        0
    };
    let (mut step, mut back) = (BLOCK - skew, 0);
    let mut i = 0;
    while i + BLOCK <= limit {
        // SAFETY: `i + 64 <= src.len(), dst.len()`: the loads read `src[i..i + 64]` and the
        // stores write `dst[i..i + 64]`; ISA enabled per contract.
        unsafe {
            let v = load_block::<V>(src.as_ptr().add(i));
            if or_block(&v).any_high() {
                i += back;
                break;
            }
            let d = dst.as_mut_ptr().add(i);
            for (k, v) in v.iter().enumerate().take(vectors) {
                v.widen_store(d.add(k * V::LANES));
            }
        }
        i += step;
        back = BLOCK - step;
        step = BLOCK;
    }
    i
}

/// The sparse loop ([`sparse`]) hands over to the block loop at a 16-byte vector with more
/// than this many non-ASCII bytes, and the block loop back to it after a block with at most
/// this many continuation bytes: a character costs the sparse loop about as many
/// instructions as a quarter of a block costs the block loop.
const SPARSE_MAX: u32 = 4;

/// The UTF-8 sequence that starts with the non-ASCII byte `b & 0xFF`, from its first 4 bytes
/// `b` (little-endian; those after the sequence are ignored), if it is valid by the standard's
/// byte ranges: `(bytes, units, value)`, `value` the UTF-16 unit or the surrogate pair (the
/// leading surrogate in the low half).
#[inline(always)]
fn decode_sequence(b: u32) -> Option<(usize, usize, u32)> {
    let (b0, b1, b2, b3) = (b & 0xFF, (b >> 8) & 0xFF, (b >> 16) & 0xFF, b >> 24);
    let cont = |x: u32| x & 0xC0 == 0x80;
    if b0 < 0xE0 {
        if b0 < 0xC2 || !cont(b1) {
            return None;
        }
        return Some((2, 1, ((b0 & 0x1F) << 6) | (b1 & 0x3F)));
    }
    if b0 < 0xF0 {
        let (lo, hi) = match b0 {
            0xE0 => (0xA0, 0xBF),
            0xED => (0x80, 0x9F),
            _ => (0x80, 0xBF),
        };
        if !(lo..=hi).contains(&b1) || !cont(b2) {
            return None;
        }
        return Some((3, 1, ((b0 & 0xF) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F)));
    }
    let (lo, hi) = match b0 {
        0xF0 => (0x90, 0xBF),
        0xF1..=0xF3 => (0x80, 0xBF),
        0xF4 => (0x80, 0x8F),
        _ => return None,
    };
    if !(lo..=hi).contains(&b1) || !cont(b2) || !cont(b3) {
        return None;
    }
    let c = (((b0 & 7) << 18) | ((b1 & 0x3F) << 12) | ((b2 & 0x3F) << 6) | (b3 & 0x3F)) - 0x10000;
    Some((4, 2, (0xD800 | (c >> 10)) | ((0xDC00 | (c & 0x3FF)) << 16)))
}

/// Widens the `n` ASCII bytes (`n < 16`) at `p` to exactly `n` units at `d`: 8, 4, 2 and 1
/// at a time, in general registers (the vector registers stay with the block loop's
/// constants: with shuffles here, its step loop reloaded two of them a step).
///
/// # Safety
/// `p` is valid for reading `n` bytes, `d` for writing `n` units.
#[inline(always)]
unsafe fn widen_prefix(p: *const u8, d: *mut u16, n: usize) {
    // 4 bytes to 4 units: (b0, b1, b2, b3) to (b0, 0, b1, 0, b2, 0, b3, 0).
    let spread = |x: u32| {
        let x = u64::from(x);
        let x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
        ((x | (x << 8)) & 0x00FF_00FF_00FF_00FF).to_le()
    };
    let mut at = 0;
    // SAFETY: the reads are bytes `at..at + 8`, `+ 4`, `+ 2`, `+ 1` and the writes units of
    // the same range, where bit 8, 4, 2 or 1 of `n` is set and `at` is the sum of the bits
    // above it: inside `p[..n]` and `d[..n]`.
    unsafe {
        if n & 8 != 0 {
            let x = u64::from_le(p.cast::<u64>().read_unaligned());
            d.cast::<u64>().write_unaligned(spread(x as u32));
            d.add(4).cast::<u64>().write_unaligned(spread((x >> 32) as u32));
            at = 8;
        }
        if n & 4 != 0 {
            let x = u32::from_le(p.add(at).cast::<u32>().read_unaligned());
            d.add(at).cast::<u64>().write_unaligned(spread(x));
            at += 4;
        }
        if n & 2 != 0 {
            d.add(at).write_unaligned(u16::from(*p.add(at)));
            d.add(at + 1).write_unaligned(u16::from(*p.add(at + 1)));
            at += 2;
        }
        if n & 1 != 0 {
            d.add(at).write_unaligned(u16::from(*p.add(at)));
        }
    }
}

/// Converts from the character boundary `read` while the text is mostly ASCII, a character at
/// a time between ASCII runs (Latin-script text, and markup around a few characters of other
/// scripts): `(read, written)`, at a character boundary. It stops at a 16-byte vector with
/// more than [`SPARSE_MAX`] non-ASCII bytes, at an invalid sequence, or where 64 + 32 bytes
/// or units no longer fit.
///
/// A round loads 64 bytes: all ASCII, it widens them; else it widens its vectors up to the
/// first with a non-ASCII byte, at `k` in it, decodes and checks the sequence there by the
/// standard's byte ranges ([`decode_sequence`]), widens the ASCII before it to exactly `k`
/// units (a vector ending at the sequence if the run of ASCII began 16 bytes or more before
/// it, else [`widen_prefix`]) and writes its units after them; the next round starts after
/// it. Every store is exactly as long as the units it holds.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn sparse<V: TranscodeVector>(
    src: &[u8],
    dst: &mut [u16],
    mut read: usize,
    mut written: usize,
) -> (usize, usize) {
    // Where the current run of ASCII began (after the last sequence, or here).
    let mut run = read;
    'rounds: while read + BLOCK + 32 <= src.len() && written + BLOCK + 32 <= dst.len() {
        // SAFETY: `read + 96 <= src.len()`, `written + 96 <= dst.len()`: the loads below read
        // inside `src[read..read + 96]` (64 at `read`; 16 ending at `read + i + k` from
        // `run <= read + i + k - 16` on, 4 at `read + i + k`, `i + k < 64`), the stores write
        // inside `dst[written..written + 66]`, and, for the vector ending at the sequence,
        // units `written + i + k - 16..written + i + k` (ASCII of the same run, which this
        // call converts); ISA enabled per contract.
        unsafe {
            let (p, d) = (src.as_ptr().add(read), dst.as_mut_ptr().add(written));
            let v = [0, 1, 2, 3].map(|i| V::Lane::load(p.add(16 * i)));
            if !v[0].or(v[1]).or(v[2].or(v[3])).any_high() {
                for (i, v) in v.iter().enumerate() {
                    v.widen_store(d.add(16 * i));
                }
                read += BLOCK;
                written += BLOCK;
                // A whole round of ASCII: more may follow, whole vectors at a time.
                let n = ascii_blocks::<V>(&src[read..], &mut dst[written..]);
                read += n;
                written += n;
                continue;
            }
            for (i, &v) in v.iter().enumerate() {
                let high = v.high_strided();
                if high == 0 {
                    v.widen_store(d.add(16 * i));
                    continue;
                }
                if high.count_ones() > SPARSE_MAX * V::Lane::HIGH_STRIDE {
                    return (read + 16 * i, written + 16 * i);
                }
                let k = (high.trailing_zeros() / V::Lane::HIGH_STRIDE) as usize;
                let at = 16 * i + k;
                let b = u32::from_le_bytes(p.add(at).cast::<[u8; 4]>().read_unaligned());
                let Some((len, units, value)) = decode_sequence(b) else {
                    return (read + 16 * i, written + 16 * i);
                };
                if read + at >= run + 16 {
                    V::Lane::load(p.add(at).sub(16)).widen_store(d.add(at).sub(16));
                } else if k > 0 {
                    widen_prefix(p.add(16 * i), d.add(16 * i), k);
                }
                d.add(at).write_unaligned(value as u16);
                if units == 2 {
                    d.add(at + 1).write_unaligned((value >> 16) as u16);
                }
                read += at + len;
                written += at + units;
                run = read;
                continue 'rounds;
            }
            // Not reached: one of the vectors is not all ASCII.
            break;
        }
    }
    (read, written)
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn utf8_to_utf16<V: TranscodeVector>(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: ISA enabled per contract.
    unsafe { entry::<V>(src, dst, false) }
}

/// [`utf8_to_utf16`] for a caller that converts in stages, each into an output of its own,
/// and calls again from where a stage stopped (the legacy encoders' runs from UTF-8,
/// `Kernels::utf8_to_utf16_stage`): where the vector loops stop because the output has no
/// room for another block while a block of input is left, it returns there, without the
/// scalar kernel's tail (up to 64 units, a character at a time: a sixth of the staging's
/// instructions on Korean at NEON), which the next stage converts in vector code. Every
/// other stop (the end of the input, an invalid sequence) is [`utf8_to_utf16`]'s.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn utf8_to_utf16_stage<V: TranscodeVector>(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: ISA enabled per contract.
    unsafe { entry::<V>(src, dst, true) }
}

/// The entry points' shared body: [`utf8_to_utf16_stage`] if `stage`.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn entry<V: TranscodeVector>(src: &[u8], dst: &mut [u16], stage: bool) -> (usize, usize) {
    if src.len() < BLOCK || dst.len() < BLOCK {
        // Short inputs: the scalar kernel at once, before the loops' set-up (20 instructions a
        // call at AVX2 on 16-byte inputs, 4%), in a function of its own: with the loops in
        // it, the registers they keep were saved before the test (NEON: 24 instructions a
        // call, 6% of 16-byte pieces).
        return scalar::utf8_to_utf16(src, dst);
    }
    // SAFETY: ISA enabled per contract.
    unsafe { V::utf8_to_utf16_long(src, dst, stage) }
}

/// [`utf8_to_utf16`] for inputs and outputs of a block or more, [`utf8_to_utf16_stage`] if
/// `stage` (`TranscodeVector::utf8_to_utf16_long`, out of line at each level: the scalar tail
/// in it, as a call of it from the entry point after this returned cost 64-byte pieces 1.7%
/// at NEON).
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn utf8_to_utf16_long<V: TranscodeVector>(
    src: &[u8],
    dst: &mut [u16],
    stage: bool,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // The sparse loop (ASCII, and a character at a time among it) hands over to the block
    // loops at a dense vector or an invalid sequence: the 1-2-byte loop first, then the
    // general one from the first block that is not 1-2-byte. Both go back to the sparse loop
    // after a block of ASCII or with few non-ASCII characters, and the general one after a
    // block that is 1-2-byte too (the sparse loop hands it on to the 1-2-byte loop at once).
    // Both block loops are out of line (see `TranscodeVector::utf8_to_utf16_blocks`), and
    // neither calls the other: a call inside the general loop made it keep its constants in
    // memory (x86: every vector register is the caller's to save; CJK 16% more instructions
    // at AVX2), and a third way out of it cost CJK 5%. Where the general loop meets a block of
    // 3-byte characters only, the 3-byte loop goes on from it (`three_byte_blocks`, 48 bytes
    // a round at NEON), and hands back to the general loop at the first chunk it cannot take.
    let (src_len, dst_len) = (src.len(), dst.len());
    let fits = |read: usize, written: usize| read + BLOCK <= src_len && written + BLOCK <= dst_len;
    loop {
        // SAFETY: ISA enabled per contract.
        (read, written) = unsafe { sparse::<V>(src, dst, read, written) };
        if !fits(read, written) {
            // Not even a block: no call (its set-up cost short inputs 2-10%).
            break;
        }
        // SAFETY: ISA enabled per contract; `read` is a character boundary.
        let (r, w, to_sparse) = unsafe { V::utf8_to_utf16_two_byte_blocks(src, dst, read, written) };
        (read, written) = (r, w);
        if to_sparse {
            continue;
        }
        if !fits(read, written) {
            break;
        }
        let then = loop {
            // SAFETY: ISA enabled per contract.
            let (r, w, then) = unsafe { V::utf8_to_utf16_blocks(src, dst, read, written) };
            (read, written) = (r, w);
            if then != Then::ThreeByte {
                break then;
            }
            // SAFETY: ISA enabled per contract; `read` is a character boundary.
            (read, written) = unsafe { V::utf8_to_utf16_three_byte_blocks(src, dst, read, written) };
            if !fits(read, written) {
                break Then::Stop;
            }
        };
        if then == Then::Stop {
            break;
        }
    }
    if stage && read + BLOCK <= src_len && written + BLOCK > dst_len {
        // Only the room stopped the loops, after converting something (`written > dst_len -
        // 64 >= 0`): the caller's next stage goes on from here.
        return (read, written);
    }
    let (r, w) = scalar::utf8_to_utf16(&src[read..], &mut dst[written..]);
    (read + r, written + w)
}

/// Where the block loop ([`blocks`]) hands over.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Then {
    /// To the sparse loop (which hands over to the 1-2-byte loop first).
    Sparse,
    /// To the 3-byte loop ([`three_byte_blocks`]), after a block of 3-byte characters only.
    ThreeByte,
    /// To the scalar kernel: an invalid sequence, or a block no longer fits.
    Stop,
}

/// The block loop: converts 64-byte blocks from the character boundary `read`, validated,
/// then in steps of 16 ASCII bytes or of 8, 6, 4 or 3 characters: `(read, written, then)`,
/// [`Then::Sparse`] after a block of ASCII, with at most [`SPARSE_MAX`] continuation bytes,
/// or with 1-2-byte characters only; [`Then::ThreeByte`] after one of 3-byte characters only
/// else [`Then::Stop`]: it stopped at an
/// invalid sequence or where a block no longer fits.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn blocks<V: TranscodeVector>(
    src: &[u8],
    dst: &mut [u16],
    mut read: usize,
    mut written: usize,
) -> (usize, usize, Then) {
    // SAFETY: ISA enabled per contract.
    let mut checker = unsafe { Checker::<V>::new() };
    'stop: {
        while read + BLOCK <= src.len() && written + BLOCK <= dst.len() {
            // SAFETY: `read + 64 <= src.len()` and `written + 64 <= dst.len()`: the pointers are
            // valid for 64 bytes and 64 units.
            let (p, d) = unsafe { (src.as_ptr().add(read), dst.as_mut_ptr().add(written)) };
            // The block's vectors, loaded once: the widening stores below could alias `src` as
            // far as the compiler knows, so loading again after the check cost two loads a block.
            let vectors = BLOCK / V::LANES;
            // SAFETY: every load is inside the 64 bytes at `p` (`vectors * LANES == 64`); ISA
            // enabled per contract.
            let (v, ascii) = unsafe {
                let v = load_block::<V>(p);
                (v, !or_block(&v).any_high())
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
                return (read, written, Then::Sparse);
            }
            // SAFETY: 64 readable bytes at `p`; ISA enabled per contract. `read` is a character
            // boundary (every step below ends at one).
            if unsafe { checker.block_has_error_at_boundary(p) } {
                break 'stop;
            }
            // SAFETY: as above.
            let cont = unsafe { continuation_bits(&v) };
            let last = last_ends(&src[read..read + BLOCK]);
            let ends = (!(cont >> 1) & (u64::MAX >> 1)) | (u64::from(last) << 63);
            // `w <= pos` (a unit per byte at most), so every store below ends at or before unit
            // `pos + 16 <= 64` of the block: inside `dst`.
            let (mut pos, mut w) = (0, 0);
            let mixed = is_mixed(cont, ends);
            if mixed {
                // SAFETY: the block is valid from a character boundary (`read`), with no 4-byte
                // characters and at most 56 characters ([`is_mixed`]); 64 units at `d`.
                w = unsafe { mixed_block(&v, ends, d) };
                // After its last whole character.
                pos = BLOCK - ends.leading_zeros() as usize;
            }
            while !mixed && pos + 16 <= BLOCK {
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
                        break 'stop;
                    }
                    pos += r;
                    w += n;
                    continue;
                }
                pos += usize::from(used);
            }
            read += pos;
            written += w;
            // Back to the sparse loop (which hands over to the 1-2-byte loop first) after few
            // continuation bytes, or after a block with no two bytes in a row that do not end a
            // character (1-2-byte characters only, in a valid block; the block the 1-2-byte
            // loop gave up on has longer ones, or a lead of 3 or 4 bytes at its end). Both
            // from `ends` (the continuation bits are `!ends << 1` but for byte 0, which is not
            // one at a character boundary): `cont` kept for here took a register from the
            // steps, and a test of `cont` a constant (CJK at AVX2: 5% more instructions).
            let cont = !ends << 1;
            let continuations = cont.count_ones();
            if !ends & (!ends >> 1) == 0 || continuations <= SPARSE_MAX {
                return (read, written, Then::Sparse);
            }
            // The block's last 48 bytes of 3-byte characters only (32 continuation bytes; a
            // block of them all has 42, one that began with the end of a run of other
            // characters fewer): the 3-byte loop next. Blocks with more (emoji: 48) are not
            // counted again.
            if (32..=42).contains(&continuations) && (cont >> 16).count_ones() == 32 {
                return (read, written, Then::ThreeByte);
            }
        }
    }
    (read, written, Then::Stop)
}
