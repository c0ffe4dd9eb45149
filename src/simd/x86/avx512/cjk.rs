//! Two-byte CJK decoding (Shift_JIS, EUC-JP, EUC-KR, Big5, gb18030/GBK pairs) with
//! AVX-512 VBMI/VBMI2, 64 input bytes at a time. An ISA-specific algorithm (STYLE.md 8.4): it
//! needs byte compress and 128-entry byte lookups, which the other levels lack. The lead
//! analysis is the generic one (`generic::cjk_decode::leads_of`); the block loop is its own
//! (the generic `pair_blocks` measured much slower here: docs/decisions.md, "One kernel
//! layer").
//!
//! ```text
//! while 64 input bytes and 96 bytes (UTF-8) or 64 units (UTF-16) of room remain:
//!     v = 64 bytes, starting at a character boundary
//!     L = bytes that can lead a pair (lead_row != 0)
//!     leads = every other byte of each run of L, from the run's first byte;
//!             trails = leads << 1   (a lead in byte 63: stop before it, read 63 bytes)
//!     gb18030: a lead, a digit, a lead-capable byte and a digit are a four-byte sequence
//!             (in a chain of them 2 bytes apart, every other one from the chain's start);
//!             its first byte stays a lead, its third is not one, its last two write
//!             nothing; stop at a lead and digit that are not one, before one in the last
//!             3 bytes
//!     stop if a non-ASCII byte is neither a lead nor a trail, or a trail has no column
//!     pointers = (row - 1) * row_len + col, compressed to one lane per lead; stop if any is
//!     at or above the limit; gather the code points; stop if any is not plain
//!     (four-byte: their pointers from the four bytes, gathered from the BMP's table)
//!     a block that stopped: the scalar kernel, to the first character boundary from the
//!     block's end; the kernel stops if it stopped before, and goes on otherwise
//!     output: the bytes of the leads' characters expanded to the leads' and trails'
//!     positions; per half block, each input byte's output byte(s) in a 16-bit lane;
//!     compress the bytes (UTF-8) or lanes (UTF-16) kept and store them
//! fewer than 64 bytes left (and no block stopped): one more block of them, loaded with a
//!     mask (zeros after them), if its output fits exactly
//! the scalar kernel finishes
//! ```
//! Every check comes before any output of its block, and the scalar kernel decodes a
//! stopped block character by character, so `(read, written)` equal the scalar kernel's.

use crate::simd::OutBytes;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::transcode::low_bits64;
use crate::simd::generic::cjk_decode::leads_of;
use crate::simd::scalar;
use crate::simd::{EncodeTables, FOUR_BYTE_POINTERS, Lookup, PairTables};

/// The lookup tables in registers, and the gather parameters.
struct Tables {
    row: [__m512i; 2],
    col: [__m512i; 4],
    row_len: __m512i,
    limit: __m512i,
}

/// # Safety
/// AVX-512F/BW is enabled in the caller.
#[inline(always)]
unsafe fn load(t: &PairTables) -> Tables {
    let limit = t.index.limit().min(i32::MAX as usize) as i32;
    // SAFETY: every load reads 64 bytes inside `lead_row` (128) or `trail_col` (256);
    // AVX-512F per the caller's contract.
    unsafe {
        let row = |i: usize| _mm512_loadu_si512(t.lead_row.as_ptr().add(64 * i).cast());
        let col = |i: usize| _mm512_loadu_si512(t.trail_col.as_ptr().add(64 * i).cast());
        Tables {
            row: [row(0), row(1)],
            col: [col(0), col(1), col(2), col(3)],
            row_len: _mm512_set1_epi32(i32::from(t.row_len)),
            limit: _mm512_set1_epi32(limit),
        }
    }
}

/// Entries `index` of `table` for the lanes in `m` (0 in the others), each in the low bytes
/// of its 32-bit lane, followed by whatever the table holds after it (for `U8` and `U16`).
///
/// An 8-lane gather where `m` has no lane above the eighth: a gather costs by its lanes
/// whatever its mask, and blocks of HTML pages have few pairs (a few words in ASCII markup;
/// docs/decisions.md, "Kernel tuning").
///
/// # Safety
/// - AVX-512F/VL is enabled in the caller.
/// - Every lane in `m` holds an index below `table.limit()` (so the 4 bytes each gather
///   reads at the entry stay inside the table).
#[inline(always)]
unsafe fn gather_raw(m: __mmask16, index: __m512i, table: Lookup) -> __m512i {
    /// # Safety
    /// As `gather`, with the entries at `base + SCALE * index`.
    #[inline(always)]
    unsafe fn by_width<const SCALE: i32>(m: __mmask16, index: __m512i, base: *const u8) -> __m512i {
        // SAFETY: the lanes in `m` read 4 bytes at `base + SCALE * index`, inside the table
        // by the caller's contract; the other lanes read nothing (the 8-lane gather only
        // when `m` has no lane above the eighth); AVX-512F/VL per the contract.
        unsafe {
            if m <= 0xFF {
                _mm512_castsi256_si512(_mm256_mmask_i32gather_epi32::<SCALE>(
                    _mm256_setzero_si256(),
                    m as u8,
                    _mm512_castsi512_si256(index),
                    base.cast(),
                ))
            } else {
                _mm512_mask_i32gather_epi32::<SCALE>(_mm512_setzero_si512(), m, index, base.cast())
            }
        }
    }
    // SAFETY: `by_width` with the table's entry size and base, under the caller's contract.
    unsafe {
        match table {
            Lookup::U8(t) => by_width::<1>(m, index, t.as_ptr()),
            Lookup::U16(t) => by_width::<2>(m, index, t.as_ptr().cast()),
        }
    }
}

/// [`gather_raw`] with the entries zero-extended (the bytes after each entry cleared).
///
/// # Safety
/// As [`gather_raw`].
#[inline(always)]
unsafe fn gather(m: __mmask16, index: __m512i, table: Lookup) -> __m512i {
    // SAFETY: the caller's contract is `gather_raw`'s (AVX-512F enabled in the caller).
    unsafe {
        let g = gather_raw(m, index, table);
        match table {
            Lookup::U8(_) => _mm512_and_si512(g, _mm512_set1_epi32(0xFF)),
            Lookup::U16(_) => _mm512_and_si512(g, _mm512_set1_epi32(0xFFFF)),
        }
    }
}

/// One block's characters: lead and trail masks, bytes read, the code points of the
/// leads, 16 per vector, in order (0 past the last lead), and which of those are from
/// U+0800 (three bytes of UTF-8 rather than two).
struct Block {
    v: __m512i,
    leads: u64,
    trails: u64,
    valid: u64,
    read: usize,
    code_points: [__m512i; 2],
    wide: [__mmask16; 2],
    /// Whether a lead is below U+0800 (not all in `wide`).
    narrow: bool,
}

impl Block {
    /// The trails of the characters from U+0800 (whose UTF-8 has a third byte).
    ///
    /// # Safety
    /// BMI2 is enabled in the caller.
    #[inline(always)]
    unsafe fn wide_trails(&self) -> u64 {
        let wide = u64::from(self.wide[0]) | u64::from(self.wide[1]) << 16;
        // SAFETY: BMI2 per the caller's contract.
        unsafe { _pdep_u64(wide, self.leads) << 1 }
    }
}

/// The bits of `bits` at an even distance from the start of their run of set bits (one bit
/// per byte: `generic::cjk_decode::leads_of`).
#[inline(always)]
fn even_from_start(bits: u64) -> u64 {
    leads_of(bits, 1)
}

/// The characters of the first `len` bytes of `v` (`1..=64`; the bytes after them are 0);
/// `None` if one of them is not plain.
///
/// # Safety
/// - The AVX-512 level's features are enabled in the caller.
/// - `t` was loaded from `tables`.
#[inline(always)]
unsafe fn block<const FOUR: bool>(v: __m512i, len: usize, t: &Tables, tables: &PairTables) -> Option<Block> {
    // SAFETY: `gather` is called only with lanes whose pointer was checked to be below
    // `tables.index.limit()` (its contract); AVX-512 per the caller's contract.
    unsafe {
        let high = _mm512_movepi8_mask(v);
        let row = _mm512_permutex2var_epi8(t.row[0], v, t.row[1]);
        let lead_capable = high & _mm512_test_epi8_mask(row, row);
        // Leads: in each run of lead-capable bytes, those at an even distance from its start.
        let mut leads = even_from_start(lead_capable);
        // A lead in the last byte: its trail is not here; stop before it.
        let last = 1u64 << (len - 1);
        let read = if leads & last != 0 {
            leads &= !last;
            len - 1
        } else {
            len
        };
        let mut read = read;
        // gb18030's four-byte sequences: a lead, a digit, a lead-capable byte, a digit. The
        // first byte stays a lead and the second its trail (they write the character, like
        // a pair); the third, a lead by the rule above (its run ends at the digit after it),
        // is not one, and the last two write nothing.
        let mut fours = 0;
        if FOUR {
            let digits =
                _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8(0x30)), _mm512_set1_epi8(10));
            // Leads followed by a digit: the first or third bytes of four-byte sequences,
            // or errors.
            let started = leads & (digits >> 1);
            if started != 0 {
                // Where the four bytes have that shape. A run of sequences makes a chain of
                // them 2 bytes apart, the third byte of each sequence starting one too: the
                // sequences start at an even place in each chain, counted from its start.
                let shaped = started & (lead_capable >> 2) & (digits >> 3);
                const EVEN: u64 = 0x5555_5555_5555_5555;
                let by_two = |bits: u64| _pdep_u64(even_from_start(_pext_u64(shaped, bits)), bits);
                fours = by_two(EVEN) | by_two(!EVEN);
                let bad = started & !fours & !(fours << 2);
                if bad != 0 {
                    // The bytes after `len` are 0 (no lead or digit): a sequence that does
                    // not fit is bad too. One that starts in the last three bytes may be
                    // good: stop before it (after every whole one); one before is an error.
                    let first = bad.trailing_zeros() as usize;
                    if first + 3 < len {
                        return None;
                    }
                    read = first;
                    leads &= low_bits64(first);
                }
                leads &= !(fours << 2);
            }
        }
        let valid = low_bits64(read);
        let trails = leads << 1;
        if high & !(leads | trails | fours << 2) & valid != 0 {
            return None;
        }
        let col_low = _mm512_permutex2var_epi8(t.col[0], v, t.col[1]);
        let col_high = _mm512_permutex2var_epi8(t.col[2], v, t.col[3]);
        let col = _mm512_mask_blend_epi8(high, col_low, col_high);
        if _mm512_cmpeq_epi8_mask(col, _mm512_set1_epi8(-1)) & trails & !(fours << 1) != 0 {
            return None;
        }
        let rows = _mm512_maskz_compress_epi8(leads, row);
        let cols = _mm512_maskz_compress_epi8(trails, col);
        let n = leads.count_ones();
        // The leads (in order) that start four-byte sequences, and the sequences' other
        // bytes at those leads' positions, minus their base.
        let four_leads = _pext_u64(fours, leads);
        let four_bytes = |at: u64, base: i8| {
            let bytes = _mm512_maskz_compress_epi8(at, _mm512_sub_epi8(v, _mm512_set1_epi8(base)));
            _mm512_maskz_expand_epi8(four_leads, bytes)
        };
        let [second, third, fourth] = if fours != 0 {
            [
                four_bytes(fours << 1, 0x30),
                four_bytes(fours << 2, 0x81u8 as i8),
                four_bytes(fours << 3, 0x30),
            ]
        } else {
            [_mm512_setzero_si512(); 3]
        };
        let mut code_points = [_mm512_setzero_si512(); 2];
        let mut wide = [0; 2];
        let mut narrow = false;
        for (h, (slot, wide)) in code_points.iter_mut().zip(&mut wide).enumerate() {
            let lanes = n.saturating_sub(16 * h as u32).min(16);
            if lanes == 0 {
                break;
            }
            let m: __mmask16 = ((1u32 << lanes) - 1) as u16;
            let (r, c) = if h == 0 {
                (_mm512_castsi512_si128(rows), _mm512_castsi512_si128(cols))
            } else {
                (
                    _mm512_extracti32x4_epi32::<1>(rows),
                    _mm512_extracti32x4_epi32::<1>(cols),
                )
            };
            let r = _mm512_sub_epi32(_mm512_cvtepu8_epi32(r), _mm512_set1_epi32(1));
            let four = (four_leads >> (16 * h)) as u16 & m;
            let pairs = m & !four;
            let pointer = _mm512_add_epi32(_mm512_mullo_epi32(r, t.row_len), _mm512_cvtepu8_epi32(c));
            if _mm512_mask_cmpge_epu32_mask(pairs, pointer, t.limit) != 0 {
                return None;
            }
            // The lanes in `pairs` are below the limit (checked just above).
            let mut cp = gather(pairs, pointer, tables.index);
            if FOUR
                && four != 0
                && let Some(table) = tables.four_byte
            {
                // `r` is the first byte minus 0x81 (`PairTables::with_four_byte`).
                let byte = |b: __m512i| {
                    let b = if h == 0 {
                        _mm512_castsi512_si128(b)
                    } else {
                        _mm512_extracti32x4_epi32::<1>(b)
                    };
                    _mm512_cvtepu8_epi32(b)
                };
                let times = |a: __m512i, k: i32| _mm512_mullo_epi32(a, _mm512_set1_epi32(k));
                let pointer = _mm512_add_epi32(
                    _mm512_add_epi32(times(r, 12600), times(byte(second), 1260)),
                    _mm512_add_epi32(times(byte(third), 10), byte(fourth)),
                );
                let limit = _mm512_set1_epi32(FOUR_BYTE_POINTERS as i32);
                if _mm512_mask_cmpge_epu32_mask(four, pointer, limit) != 0 {
                    return None;
                }
                // The lanes in `four` are below the table's limit (checked just above: the
                // table has one entry more than the pointers). Every entry below it is plain
                // (`PairTables::with_four_byte`): nothing to check.
                cp = _mm512_or_si512(cp, gather(four, pointer, Lookup::U16(table)));
            }
            // A table all plain needs no check.
            if tables.plain_or_zero && !tables.all_plain {
                // Only 0 is not plain (EUC-KR, Shift_JIS, EUC-JP).
                if _mm512_mask_cmpeq_epi32_mask(pairs, cp, _mm512_setzero_si512()) != 0 {
                    return None;
                }
            } else if !tables.all_plain {
                // Entries of 16 bits: never above U+FFFF.
                let low = _mm512_mask_cmplt_epu32_mask(pairs, cp, _mm512_set1_epi32(0x80));
                let surrogate = _mm512_mask_cmpeq_epi32_mask(
                    pairs,
                    _mm512_and_si512(cp, _mm512_set1_epi32(0xF800)),
                    _mm512_set1_epi32(0xD800),
                );
                if low | surrogate != 0 {
                    return None;
                }
            }
            *slot = cp;
            *wide = _mm512_mask_cmpge_epu32_mask(m, cp, _mm512_set1_epi32(0x800));
            narrow |= *wide != m;
        }
        Some(Block {
            v,
            leads,
            trails,
            // The third and fourth bytes of four-byte sequences write nothing.
            valid: valid & !(fours << 2 | fours << 3),
            read,
            code_points,
            wide,
            narrow,
        })
    }
}

/// The bytes of `lo` and `hi` interleaved, from byte `32 * h` of each (`h` is 0 or 1): the
/// 16-bit lanes `lo[32h + i] | hi[32h + i] << 8`.
///
/// # Safety
/// AVX-512 VBMI is enabled in the caller.
#[inline(always)]
unsafe fn interleave(lo: __m512i, hi: __m512i, h: usize) -> __m512i {
    const fn index(h: usize) -> [u8; 64] {
        let mut idx = [0u8; 64];
        let mut i = 0;
        while i < 32 {
            idx[2 * i] = (32 * h + i) as u8;
            idx[2 * i + 1] = (64 + 32 * h + i) as u8;
            i += 1;
        }
        idx
    }
    static INDEX: [[u8; 64]; 2] = [index(0), index(1)];
    // SAFETY: the load reads the 64 bytes of `INDEX[h]` (`h < 2`: the index panics
    // otherwise); AVX-512 VBMI per the caller's contract.
    unsafe { _mm512_permutex2var_epi8(lo, _mm512_loadu_si512(INDEX[h].as_ptr().cast()), hi) }
}

/// The first 32 bytes of each 32-bit lane of `a` then `b`, as 32 bytes (the low half of the
/// result; the rest is 0).
///
/// # Safety
/// AVX-512F is enabled in the caller.
#[inline(always)]
unsafe fn low_bytes(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: register operations only; AVX-512F per the caller's contract.
    unsafe {
        let lo = _mm512_cvtepi32_epi8(a);
        let hi = _mm512_cvtepi32_epi8(b);
        _mm512_castsi256_si512(_mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi))
    }
}

/// A scalar pair kernel with its end (`scalar::cjk_to_utf8_from`), the tail of the vector
/// ones.
type ScalarPairs<T> = fn(&[u8], &PairTables, &mut [T], usize) -> (usize, usize);

/// [`pair_blocks`] for `tables`: gb18030's four-byte sequences in their own copy of the loop,
/// so that the other encodings do not pay for their checks.
///
/// # Safety
/// As [`pair_blocks`].
#[inline(always)]
unsafe fn pair_loop<T, const ROOM: usize>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut [T],
    tail: ScalarPairs<T>,
    units: impl Fn(&Block) -> usize,
    ascii: impl Fn(__m512i, u64, *mut T),
    put: impl Fn(&Block, *mut T) -> usize,
) -> (usize, usize) {
    // SAFETY: the caller's contract is `pair_blocks`'s.
    unsafe {
        if tables.four_byte.is_some() {
            pair_blocks::<T, ROOM, true>(src, tables, dst, tail, &units, &ascii, &put)
        } else {
            pair_blocks::<T, ROOM, false>(src, tables, dst, tail, &units, &ascii, &put)
        }
    }
}

/// The block loop of both pair kernels: while 64 input bytes and `ROOM` code units of room
/// remain, decodes a block and hands it to `put`, which writes its characters at the given
/// position and returns the units written. A block it cannot decode (not all plain) goes to
/// the scalar kernel `tail`, up to its end: if that stops inside it, so does the kernel;
/// otherwise the loop goes on after it. Fewer than 64 bytes at the end are one more block,
/// loaded with a mask, if its output (`units` of it) fits exactly. `tail` finishes.
///
/// # Safety
/// - The AVX-512 level's features are enabled in the caller.
/// - `put` writes `units(block)` units and no more at the position it is given.
/// - `ROOM` is at least what `put` writes for a whole block, and at least 64; `ascii`
///   writes the units of the ASCII bytes of a block in the mask (of its first bytes) it
///   is given, and no others, at the position it is given.
#[inline(always)]
unsafe fn pair_blocks<T, const ROOM: usize, const FOUR: bool>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut [T],
    tail: ScalarPairs<T>,
    units: impl Fn(&Block) -> usize,
    ascii: impl Fn(__m512i, u64, *mut T),
    put: impl Fn(&Block, *mut T) -> usize,
) -> (usize, usize) {
    if src.len() < SHORT {
        // Too short to pay for loading the tables into registers.
        return tail(src, tables, dst, usize::MAX);
    }
    let (mut read, mut written) = (0, 0);
    // SAFETY: AVX-512 per the caller's contract.
    let mut t = unsafe { load(tables) };
    while read + 64 <= src.len() && written + ROOM <= dst.len() {
        // SAFETY: `read + 64 <= src.len()`; AVX-512 per the contract.
        let v = unsafe { _mm512_loadu_si512(src.as_ptr().add(read).cast()) };
        // SAFETY: AVX-512 per the contract.
        let high = unsafe { _mm512_movepi8_mask(v) };
        if high == 0 {
            // All ASCII (markup in HTML pages): 64 units out, as they are (ROOM >= 64).
            ascii(v, u64::MAX, dst[written..].as_mut_ptr());
            read += 64;
            written += 64;
            continue;
        }
        let ascii_len = high.trailing_zeros() as usize;
        if ascii_len >= ASCII_SKIP {
            // ASCII, then characters: the ASCII out as it is, and the next block from the
            // characters, so that a few words in markup are one block rather than two.
            ascii(v, low_bits64(ascii_len), dst[written..].as_mut_ptr());
            read += ascii_len;
            written += ascii_len;
            continue;
        }
        // SAFETY: AVX-512 per the contract; `t` is from `tables`.
        let Some(b) = (unsafe { block::<FOUR>(v, 64, &t, tables) }) else {
            // The scalar kernel, to the first character boundary from the block's end.
            let (r, w) = tail(&src[read..], tables, &mut dst[written..], 64);
            read += r;
            written += w;
            if r < 64 {
                // It stopped inside the block, where it would have without the end.
                return (read, written);
            }
            // Loaded again rather than kept across the call: kept, they are spilled in the
            // hot loop (docs/decisions.md, "Kernel tuning").
            // SAFETY: AVX-512 per the caller's contract.
            t = unsafe { load(tables) };
            continue;
        };
        // `written + ROOM <= dst.len()` held at the start of the block, and `put` writes at
        // most ROOM units for a block (caller's contract).
        written += put(&b, dst[written..].as_mut_ptr());
        read += b.read;
    }
    let rest = src.len() - read;
    if rest > 0 && rest < 64 {
        // SAFETY: the mask reads `src[read..src.len()]` only (masked-off bytes are not
        // read, and are 0 in `v`); AVX-512 per the contract; `t` is from `tables`.
        let b = unsafe {
            let v = _mm512_maskz_loadu_epi8(low_bits64(rest), src.as_ptr().add(read).cast());
            block::<FOUR>(v, rest, &t, tables)
        };
        if let Some(b) = b
            && written + units(&b) <= dst.len()
        {
            // The block's units fit (checked just above), and `put` writes exactly them
            // (caller's contract).
            written += put(&b, dst[written..].as_mut_ptr());
            read += b.read;
        }
    }
    let (r, w) = tail(&src[read..], tables, &mut dst[written..], usize::MAX);
    (read + r, written + w)
}

/// A block's UTF-8 bytes: one per kept byte (ASCII or lead), one more per lead, and one
/// more per character from U+0800.
#[inline(always)]
fn units_utf8(b: &Block) -> usize {
    let kept = b.valid & !b.trails;
    let wide = u32::from(b.wide[0]).count_ones() + u32::from(b.wide[1]).count_ones();
    (kept.count_ones() + b.leads.count_ones() + wide) as usize
}

/// A block's UTF-16 units: one per kept byte (ASCII or lead).
#[inline(always)]
fn units_utf16(b: &Block) -> usize {
    (b.valid & !b.trails).count_ones() as usize
}

/// Inputs shorter than this go to the scalar kernel.
const SHORT: usize = 32;

/// A block whose first non-ASCII byte is at least this far into it writes its ASCII and
/// starts the next block there: HTML pages' few words between markup then take one block
/// where they often straddled two (docs/decisions.md, "Kernel tuning").
const ASCII_SKIP: usize = 32;

crate::simd::x86::with_features! { avx512,
pub(crate) fn cjk_to_utf8(src: &[u8], tables: &PairTables, dst: &mut OutBytes) -> (usize, usize) {
    // Each input byte writes its own output bytes, in order: an ASCII byte itself, a lead
    // the first byte of its character's UTF-8 (U+0080..=U+FFFF: two or three bytes), its
    // trail the others. So the block becomes two byte vectors, `first` (every byte's first
    // output byte) and `second` (a trail's third one, if any), which `expand` fills from the
    // leads' bytes in order; each half of the block interleaves them into 16-bit lanes and
    // compresses away the unused second bytes.
    let put = |b: &Block, out: *mut MaybeUninit<u8>| -> usize {
        let out = out.cast::<u8>();
        // SAFETY: AVX-512 and BMI2 are enabled in the enclosing function. The masked stores
        // write `popcnt(keep)` bytes at `out` per half, in order: 1 per kept ASCII byte and 2
        // or 3 per lead, `units_utf8` in all, within the block's 96 (`pair_blocks`).
        unsafe {
            let [cp0, cp1] = b.code_points;
            let [w0, w1] = b.wide;
            let six = _mm512_set1_epi32(0x3F);
            let cont = _mm512_set1_epi32(0x80);
            // Below U+0800: 110xxxxx 10xxxxxx; from U+0800: 1110xxxx 10xxxxxx 10xxxxxx.
            let lead = |w, cp| {
                _mm512_mask_blend_epi32(
                    w,
                    _mm512_or_si512(_mm512_srli_epi32::<6>(cp), _mm512_set1_epi32(0xC0)),
                    _mm512_or_si512(_mm512_srli_epi32::<12>(cp), _mm512_set1_epi32(0xE0)),
                )
            };
            let last = |cp| _mm512_or_si512(_mm512_and_si512(cp, six), cont);
            let middle = |w, cp| {
                _mm512_mask_blend_epi32(
                    w,
                    last(cp),
                    _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32::<6>(cp), six), cont),
                )
            };
            let last_bytes = low_bytes(last(cp0), last(cp1));
            // Blocks of CJK text have none below U+0800: three bytes each, without the
            // blends.
            let (lead_bytes, middle_bytes, wide_trails) = if b.narrow {
                (
                    low_bytes(lead(w0, cp0), lead(w1, cp1)),
                    low_bytes(middle(w0, cp0), middle(w1, cp1)),
                    b.wide_trails(),
                )
            } else {
                let three = _mm512_set1_epi32(0xE0);
                (
                    low_bytes(
                        _mm512_or_si512(_mm512_srli_epi32::<12>(cp0), three),
                        _mm512_or_si512(_mm512_srli_epi32::<12>(cp1), three),
                    ),
                    low_bytes(middle(u16::MAX, cp0), middle(u16::MAX, cp1)),
                    b.trails,
                )
            };
            let first = _mm512_mask_expand_epi8(
                _mm512_mask_expand_epi8(b.v, b.leads, lead_bytes),
                b.trails,
                middle_bytes,
            );
            let second = _mm512_maskz_expand_epi8(b.trails, last_bytes);
            let mut n = 0;
            for h in 0..2 {
                let lanes = interleave(first, second, h);
                let valid = (b.valid >> (32 * h)) as u32;
                let trails = (wide_trails >> (32 * h)) as u32;
                let keep = _pdep_u64(u64::from(valid), 0x5555_5555_5555_5555)
                    | _pdep_u64(u64::from(trails), 0xAAAA_AAAA_AAAA_AAAA);
                let k = keep.count_ones() as usize;
                _mm512_mask_storeu_epi8(
                    out.add(n).cast(),
                    _bzhi_u64(u64::MAX, k as u32),
                    _mm512_maskz_compress_epi8(keep, lanes),
                );
                n += k;
            }
            n
        }
    };
    let ascii = |v: __m512i, bytes: u64, out: *mut MaybeUninit<u8>| {
        // SAFETY: AVX-512 is enabled in the enclosing function; `out` has room for the 64
        // bytes (`pair_blocks`), of which those in `bytes` are written.
        unsafe { _mm512_mask_storeu_epi8(out.cast(), bytes, v) }
    };
    let tail = scalar::cjk_to_utf8_from::<0x80>;
    // SAFETY: AVX-512 is enabled on this function; a block writes `units_utf8` bytes, at
    // most 96 (32 pairs of 3, or 64 ASCII bytes), which is the ROOM given.
    unsafe { pair_loop::<MaybeUninit<u8>, 96>(src, tables, dst, tail, units_utf8, ascii, put) }
}
}

crate::simd::x86::with_features! { avx512,
pub(crate) fn cjk_to_utf16(src: &[u8], tables: &PairTables, dst: &mut [u16]) -> (usize, usize) {
    // The low and high bytes of every kept byte's unit (an ASCII byte's, or a lead's code
    // point), expanded from the leads' in order, interleaved into 16-bit lanes per half of
    // the block and compressed (trails dropped).
    let put = |b: &Block, out: *mut u16| -> usize {
        // SAFETY: AVX-512 is enabled in the enclosing function. The masked stores write
        // `popcnt(kept)` units at `out` per half, in order, within the block's 64
        // (`pair_blocks`).
        unsafe {
            let [cp0, cp1] = b.code_points;
            let low = low_bytes(cp0, cp1);
            let high = low_bytes(_mm512_srli_epi32::<8>(cp0), _mm512_srli_epi32::<8>(cp1));
            let low = _mm512_mask_expand_epi8(b.v, b.leads, low);
            let high = _mm512_maskz_expand_epi8(b.leads, high);
            let mut n = 0;
            for h in 0..2 {
                let kept = ((b.valid & !b.trails) >> (32 * h)) as u32;
                let k = kept.count_ones() as usize;
                _mm512_mask_storeu_epi16(
                    out.add(n).cast(),
                    _bzhi_u32(u32::MAX, k as u32),
                    _mm512_maskz_compress_epi16(kept, interleave(low, high, h)),
                );
                n += k;
            }
            n
        }
    };
    let ascii = |v: __m512i, bytes: u64, out: *mut u16| {
        // SAFETY: AVX-512 is enabled in the enclosing function; `out` has room for the 64
        // units (`pair_blocks`), of which those of the bytes in `bytes` are written.
        unsafe {
            _mm512_mask_storeu_epi16(
                out.cast(),
                bytes as u32,
                _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)),
            );
            _mm512_mask_storeu_epi16(
                out.add(32).cast(),
                (bytes >> 32) as u32,
                _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v)),
            );
        }
    };
    let tail = scalar::cjk_to_utf16_from::<0x80>;
    // SAFETY: AVX-512 is enabled on this function; a block writes one unit per kept byte
    // (`units_utf16`), at most 64, which is the ROOM given.
    unsafe { pair_loop::<u16, 64>(src, tables, dst, tail, units_utf16, ascii, put) }
}
}

/// Inputs shorter than this go to the scalar `utf16_to_legacy`.
const UNITS_SHORT: usize = 8;

crate::simd::x86::with_features! { avx512,
/// Encodes 32 code units at a time: ASCII as is, the others through the pages (a 256-entry
/// byte lookup in registers) and a gather from the blocks; one or two bytes per unit,
/// compressed into place. A block with a unit that is not plain goes to the scalar kernel.
pub(crate) fn utf16_to_legacy(src: &[u16], tables: &EncodeTables, dst: &mut OutBytes) -> (usize, usize) {
    if src.len() < UNITS_SHORT {
        // Too short to pay for loading the tables into registers.
        return scalar::utf16_to_legacy(src, tables, dst);
    }
    let (mut read, mut written) = (0, 0);
    // Indexes are 16-bit (a page below 256, then the low byte); 0xFFFF for a table that
    // reaches it only sends that one index to the scalar kernel.
    let limit = tables.blocks.limit().min(0xFFFF) as u16;
    let byte_table = matches!(tables.blocks, Lookup::U8(_));
    // SAFETY: AVX-512 is enabled on this function. The page loads read 64 bytes each inside
    // the 256 of `pages`. Each block's masked load reads `len` u16 at `read` with `read +
    // len <= src.len()`; a single-byte table's block loads read 64 bytes each inside the
    // 256-byte slice `get` returned; `gather_raw` is called only with lanes whose index was
    // checked to be below `tables.blocks.limit()` (its contract); the masked stores write
    // at most 64 bytes (`n`: at most two a unit), or `len` for an all-ASCII block, at
    // `written` with `written + 64 <= dst.len()`.
    unsafe {
        let page = |i: usize| _mm512_loadu_si512(tables.pages.as_ptr().add(64 * i).cast());
        let pages = [page(0), page(1), page(2), page(3)];
        let limit = _mm512_set1_epi16(limit as i16);
        // The low 16-bit half of each 32-bit lane of two vectors, in order.
        let low_halves = _mm512_loadu_si512(
            const {
                let mut index = [0u16; 32];
                let mut i = 0;
                while i < 32 {
                    index[i] = 2 * i as u16;
                    i += 1;
                }
                index
            }
            .as_ptr()
            .cast(),
        );
        // Swaps the two bytes of each 16-bit lane (lead first in the output).
        let swap16 = _mm512_set_epi8(
            14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5,
            2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9,
            6, 7, 4, 5, 2, 3, 0, 1,
        );
        // Blocks of 32 units, the last one shorter (its other lanes 0: ASCII, one byte each,
        // at the end of the block's output, which is cut before them).
        while read < src.len() && written + 64 <= dst.len() {
            let len = (src.len() - read).min(32);
            let u = _mm512_maskz_loadu_epi16(_bzhi_u32(u32::MAX, len as u32), src.as_ptr().add(read).cast());
            let ascii = _mm512_cmplt_epu16_mask(u, _mm512_set1_epi16(0x80));
            if ascii == u32::MAX {
                // All ASCII (most of Latin text): narrowed as they are.
                _mm256_mask_storeu_epi8(
                    dst.as_mut_ptr().add(written).cast(),
                    _bzhi_u32(u32::MAX, len as u32),
                    _mm512_cvtepi16_epi8(u),
                );
                written += len;
                read += len;
                continue;
            }
            let bad = _mm512_mask_cmpeq_epi16_mask(
                !ascii,
                _mm512_and_si512(u, _mm512_set1_epi16(0xF800u16 as i16)),
                _mm512_set1_epi16(0xD800u16 as i16),
            );
            if bad != 0 {
                break;
            }
            // pages[u >> 8] in the low byte of each lane.
            let high = _mm512_srli_epi16::<8>(u);
            let low_half = _mm512_permutex2var_epi8(pages[0], high, pages[1]);
            let high_half = _mm512_permutex2var_epi8(pages[2], high, pages[3]);
            let page = _mm512_mask_blend_epi8(_mm512_movepi8_mask(high), low_half, high_half);
            let page = _mm512_and_si512(page, _mm512_set1_epi16(0xFF));
            let index = _mm512_or_si512(
                _mm512_slli_epi16::<8>(page),
                _mm512_and_si512(u, _mm512_set1_epi16(0xFF)),
            );
            // The non-ASCII units' indexes, packed into the low lanes where that saves
            // gather lanes: a gather costs by its lanes, whatever its mask, so up to 24 units
            // take 24 lanes instead of 32 (Korean, with a space every few syllables). Denser
            // blocks (Chinese, Japanese) skip the compress and expand, which would cost them
            // more than it saves (docs/decisions.md, "Kernel tuning").
            let mut others = !ascii;
            // Single-byte encodings: the units in the page of the first non-ASCII one (most
            // of them, in one script's text) are looked up in registers, its 256 bytes of
            // blocks; only the others are gathered.
            let mut in_page = 0;
            let mut local = _mm512_setzero_si512();
            if let Lookup::U8(blocks) = tables.blocks {
                let first = _mm512_permutexvar_epi16(_mm512_set1_epi16(others.trailing_zeros() as i16), page);
                let first_page = (_mm_cvtsi128_si32(_mm512_castsi512_si128(first)) & 0xFF) as usize;
                if let Some(block) = blocks.get(first_page * 256..first_page * 256 + 256) {
                    let block = |i: usize| _mm512_loadu_si512(block.as_ptr().add(64 * i).cast());
                    let low = _mm512_and_si512(u, _mm512_set1_epi16(0xFF));
                    let from_low = _mm512_permutex2var_epi8(block(0), low, block(1));
                    let from_high = _mm512_permutex2var_epi8(block(2), low, block(3));
                    local = _mm512_and_si512(
                        _mm512_mask_blend_epi8(_mm512_movepi8_mask(low), from_low, from_high),
                        _mm512_set1_epi16(0xFF),
                    );
                    in_page = others & _mm512_cmpeq_epi16_mask(page, first);
                    if _mm512_mask_cmpeq_epi16_mask(in_page, local, _mm512_setzero_si512()) != 0 {
                        break;
                    }
                    others &= !in_page;
                }
            }
            let pack = others.count_ones() <= 24;
            let (lookups, in_use) = if pack {
                (
                    _mm512_maskz_compress_epi16(others, index),
                    _bzhi_u32(u32::MAX, others.count_ones()),
                )
            } else {
                (index, others)
            };
            if _mm512_mask_cmpge_epu16_mask(in_use, lookups, limit) != 0 {
                break;
            }
            // The lanes in use are below the limit (checked just above); the entries are in
            // the low 16 bits of each 32-bit lane.
            let (low, high) = if in_use == 0 {
                (_mm512_setzero_si512(), _mm512_setzero_si512())
            } else {
                let low = gather_raw(
                    in_use as u16,
                    _mm512_cvtepu16_epi32(_mm512_castsi512_si256(lookups)),
                    tables.blocks,
                );
                let high = if in_use >> 16 != 0 {
                    gather_raw(
                        (in_use >> 16) as u16,
                        _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(lookups)),
                        tables.blocks,
                    )
                } else {
                    _mm512_setzero_si512()
                };
                (low, high)
            };
            let mut bytes = _mm512_permutex2var_epi16(low, low_halves, high);
            if byte_table {
                bytes = _mm512_and_si512(bytes, _mm512_set1_epi16(0xFF));
            }
            if _mm512_mask_cmpeq_epi16_mask(in_use, bytes, _mm512_setzero_si512()) != 0 {
                break;
            }
            let mapped = if pack {
                _mm512_maskz_expand_epi16(others, bytes)
            } else {
                bytes
            };
            let mapped = _mm512_mask_blend_epi16(in_page, mapped, local);
            let value = _mm512_mask_blend_epi16(ascii, mapped, u);
            let two = _mm512_cmpge_epu16_mask(value, _mm512_set1_epi16(0x100));
            let lanes = _mm512_mask_blend_epi16(two, value, _mm512_shuffle_epi8(value, swap16));
            let keep = 0x5555_5555_5555_5555u64 | _pdep_u64(u64::from(two), 0xAAAA_AAAA_AAAA_AAAA);
            let out = _mm512_maskz_compress_epi8(keep, lanes);
            let n = keep.count_ones() as usize - (32 - len);
            _mm512_mask_storeu_epi8(
                dst.as_mut_ptr().add(written).cast(),
                _bzhi_u64(u64::MAX, n as u32),
                out,
            );
            written += n;
            read += len;
        }
    }
    let (r, w) = scalar::utf16_to_legacy(&src[read..], tables, &mut dst[written..]);
    (read + r, written + w)
}
}
