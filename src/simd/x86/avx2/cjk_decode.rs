//! Two-byte CJK decoding (Shift_JIS, EUC-JP, EUC-KR, Big5, gb18030/GBK pairs) with AVX2,
//! 32 input bytes a block: the AVX2 instance of the pair kernels (`generic/cjk_decode.rs`,
//! whose block loop, lead analysis and checks it runs). What is AVX2's own: with neither byte
//! compress nor 128-entry byte lookups, leads and trails are looked up by nibbles
//! (`PairNibbles`), the code points are gathered one 32-bit lane per two input bytes
//! (`vpgatherdd`), and the output is compacted by shuffles from the shared rows.
//!
//! ```text
//! classify: L = bytes that can lead a pair (nibble bitmap), N = bytes that cannot trail one
//! decode:   each byte pair 2k, 2k+1 holds at most one lead: the lead and its trail in
//!           16-bit lane k; pointers = (row - 1) * row_len + col (rows and columns by nibble
//!           bases); gather the 16 lanes' code points (two 8-lane gathers, pointers clamped
//!           below the limit); stop if a pointer was at or above the limit or a code point
//!           is not plain
//! put:      all 16 lanes leads: their UTF-16 or UTF-8 as it is; else, per input byte, the
//!           byte (ASCII) or the code point of its lane (leads) as u16, to UTF-8 (1 or 3 bytes
//!           in a u32 lane) if needed, compacted without the trails by shuffles looked up by
//!           which bytes are kept (and which are leads)
//! ```

use core::arch::x86_64::*;

use crate::simd::generic::cjk_decode::{CjkDecodeVector, ROWS16};
use crate::simd::generic::utf16_to_utf8::{ROWS12, ROWS12_LENS};
use crate::simd::{Lookup, PairTables};

/// The nibble tables in registers (each 16-entry table in both 128-bit lanes), and the
/// pointer parameters.
pub(crate) struct Tables {
    lead_bits: __m256i,
    lead_base: __m256i,
    trail_bits: [__m256i; 2],
    trail_base: __m256i,
    /// By high nibble: `1 << n` below 8 (half 0), `1 << (n - 8)` from 8 (half 1), else 0.
    nibble_bit: [__m256i; 2],
    row_len: __m256i,
    /// The limit minus one, at most 0xFFFF, in 16-bit lanes.
    last: __m256i,
}

/// # Safety
/// - AVX2 is enabled in the caller.
/// - `t.index.limit()` is not 0.
#[inline(always)]
unsafe fn load(t: &PairTables) -> Tables {
    let last = t.index.limit().min(0x1_0000) - 1;
    let n = &t.nibbles;
    // SAFETY: every load reads the 16 bytes of one table; AVX2 per the caller's contract.
    unsafe {
        let repeat = |table: &[u8; 16]| _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast()));
        Tables {
            lead_bits: repeat(&n.lead_bits),
            lead_base: repeat(&n.lead_base),
            trail_bits: [repeat(&n.trail_bits[0]), repeat(&n.trail_bits[1])],
            trail_base: repeat(&n.trail_base),
            nibble_bit: [
                repeat(&[1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0]),
                repeat(&[0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128]),
            ],
            row_len: _mm256_set1_epi16(t.row_len as i16),
            last: _mm256_set1_epi16(last as u16 as i16),
        }
    }
}

/// Entries `index` of `table` for the lanes whose mask lane is negative (0 in the others),
/// zero-extended to 32 bits.
///
/// # Safety
/// - AVX2 is enabled in the caller.
/// - Every lane in `m` holds an index below `table.limit()` (so the 4 bytes each gather
///   reads at the entry stay inside the table).
#[inline(always)]
unsafe fn gather(m: __m256i, index: __m256i, table: Lookup) -> __m256i {
    // SAFETY: the lanes in `m` read 4 bytes at `table + width * index`, inside the table by
    // the caller's contract on `table.limit()`; the other lanes read nothing; AVX2 per the
    // contract.
    unsafe {
        let zero = _mm256_setzero_si256();
        match table {
            Lookup::U8(t) => _mm256_and_si256(
                _mm256_mask_i32gather_epi32::<1>(zero, t.as_ptr().cast(), index, m),
                _mm256_set1_epi32(0xFF),
            ),
            Lookup::U16(t) => _mm256_and_si256(
                _mm256_mask_i32gather_epi32::<2>(zero, t.as_ptr().cast(), index, m),
                _mm256_set1_epi32(0xFFFF),
            ),
        }
    }
}

/// [`gather`] of the four lanes of one 128-bit half (`m` and `index` that half's).
///
/// # Safety
/// As [`gather`].
#[inline(always)]
unsafe fn gather4(m: __m128i, index: __m128i, table: Lookup) -> __m128i {
    // SAFETY: as in `gather`, four lanes.
    unsafe {
        let zero = _mm_setzero_si128();
        match table {
            Lookup::U8(t) => _mm_and_si128(
                _mm_mask_i32gather_epi32::<1>(zero, t.as_ptr().cast(), index, m),
                _mm_set1_epi32(0xFF),
            ),
            Lookup::U16(t) => _mm_and_si128(
                _mm_mask_i32gather_epi32::<2>(zero, t.as_ptr().cast(), index, m),
                _mm_set1_epi32(0xFFFF),
            ),
        }
    }
}

/// The lanes of `m` whose code point is not plain from `MIN` (below `MIN`, above U+FFFF or
/// a surrogate), as a vector (non-zero if any).
///
/// # Safety
/// AVX2 is enabled in the caller.
#[inline(always)]
unsafe fn not_plain<const MIN: u32>(m: __m256i, cp: __m256i) -> __m256i {
    // SAFETY: register operations only; AVX2 per the caller's contract.
    unsafe {
        let above = _mm256_sub_epi32(cp, _mm256_set1_epi32(MIN as i32));
        let in_range = _mm256_cmpeq_epi32(
            _mm256_min_epu32(above, _mm256_set1_epi32(0xFFFF - MIN as i32)),
            above,
        );
        let surrogate = _mm256_cmpeq_epi32(
            _mm256_and_si256(cp, _mm256_set1_epi32(0xF800)),
            _mm256_set1_epi32(0xD800),
        );
        let bad = _mm256_or_si256(_mm256_andnot_si256(in_range, _mm256_set1_epi32(-1)), surrogate);
        _mm256_and_si256(m, bad)
    }
}

/// Bytes `1..32` of `v`, then 0.
///
/// # Safety
/// AVX2 is enabled in the caller.
#[inline(always)]
unsafe fn next_byte(v: __m256i) -> __m256i {
    // SAFETY: register operations only; AVX2 per the caller's contract.
    unsafe { _mm256_alignr_epi8::<1>(_mm256_permute2x128_si256::<0x81>(v, v), v) }
}

/// `m` as a byte mask: byte i is 0xFF if bit i is set.
///
/// # Safety
/// AVX2 is enabled in the caller.
#[inline(always)]
unsafe fn byte_mask(m: u32) -> __m256i {
    // SAFETY: register operations only; AVX2 per the caller's contract.
    unsafe {
        let spread = _mm256_shuffle_epi8(
            _mm256_set1_epi32(m as i32),
            _mm256_setr_epi8(
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3,
                3,
            ),
        );
        let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        _mm256_cmpeq_epi8(_mm256_and_si256(spread, bits), bits)
    }
}

/// The u16 output of every input byte of a mixed block: the byte (ASCII) or the code point
/// of its pair (non-ASCII: leads; trails are dropped anyway). `[0]` holds bytes 0..8 and
/// 16..24, `[1]` bytes 8..16 and 24..32.
///
/// # Safety
/// AVX2 is enabled in the caller.
#[inline(always)]
unsafe fn units(v: __m256i, cp: &[__m256i; 2]) -> [__m256i; 2] {
    // SAFETY: register operations only; AVX2 per the caller's contract.
    unsafe {
        let zero = _mm256_setzero_si256();
        // Pairs 0..16 in order (lane 0: 0..8, lane 1: 8..16), as u16.
        let cp16 = _mm256_packus_epi32(cp[0], cp[1]);
        let high = [
            _mm256_srai_epi16::<15>(_mm256_unpacklo_epi8(v, v)),
            _mm256_srai_epi16::<15>(_mm256_unpackhi_epi8(v, v)),
        ];
        let x0 = _mm256_blendv_epi8(
            _mm256_unpacklo_epi8(v, zero),
            _mm256_unpacklo_epi16(cp16, cp16),
            high[0],
        );
        let x1 = _mm256_blendv_epi8(
            _mm256_unpackhi_epi8(v, zero),
            _mm256_unpackhi_epi16(cp16, cp16),
            high[1],
        );
        [x0, x1]
    }
}

/// The UTF-8 of the code points in the u32 lanes of `cp` (U+0800..=U+FFFF): three bytes in
/// each lane.
///
/// # Safety
/// AVX2 is enabled in the caller.
#[inline(always)]
unsafe fn three_bytes(cp: __m256i) -> __m256i {
    // SAFETY: register operations only; AVX2 per the caller's contract.
    unsafe {
        let b0 = _mm256_srli_epi32::<12>(cp);
        let b1 = _mm256_and_si256(_mm256_slli_epi32::<2>(cp), _mm256_set1_epi32(0x3F00));
        let b2 = _mm256_and_si256(_mm256_slli_epi32::<16>(cp), _mm256_set1_epi32(0x3F_0000));
        _mm256_or_si256(
            _mm256_or_si256(b0, b1),
            _mm256_or_si256(b2, _mm256_set1_epi32(0x80_80E0)),
        )
    }
}

/// Writes a mixed block's UTF-8 at `out`: four pieces of 8 input bytes, each stored as 16
/// bytes, one after the other (at most 52 bytes in all).
///
/// Per input byte, a u16 lane: a lead's first two bytes, a trail's last one (of the lead
/// before it), an ASCII byte itself; the leads keep two bytes, the others one (`ROWS12` by
/// the bytes that are not leads, as NEON's), but the leads of pairs below U+0800 (`two`, with
/// `SHORT`), whose first byte is their only one. A lead's last byte cleared from `leads` (the
/// block ends before it) is a lane of one byte past the block's output.
///
/// # Safety
/// - AVX2, BMI1 and POPCNT are enabled in the caller.
/// - `out` is valid for writing 52 bytes.
#[inline(always)]
unsafe fn mixed_utf8<const SHORT: bool>(v: __m256i, cp: &[__m256i; 2], leads: u32, two: u32, out: *mut u8) {
    // SAFETY: AVX2 per the contract. The loads read rows of `ROWS12` and its lengths
    // (indices below 256). The stores write 16 bytes each at `out + at`, where `at` is the
    // length of the pieces before, at most 36 (three of at most 12: 8 lanes, at most 4
    // leads): inside the 52 bytes of the contract.
    unsafe {
        // Pairs 0..16 in order (128-bit lane 0: 0..8, lane 1: 8..16), as u16: each pair's
        // lane covers its two input bytes.
        let cp16 = _mm256_packus_epi32(cp[0], cp[1]);
        // Low byte: b0 of the pair's UTF-8; high byte: b1; and b2.
        let mut b01 = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_srli_epi16::<12>(cp16),
                _mm256_and_si256(_mm256_slli_epi16::<2>(cp16), _mm256_set1_epi16(0x3F00)),
            ),
            _mm256_set1_epi16(0x80E0u16 as i16),
        );
        if SHORT {
            // Below U+0800: 0xC0 and the top five bits (the high byte is not kept).
            let below = _mm256_cmpeq_epi16(_mm256_min_epu16(cp16, _mm256_set1_epi16(0x7FF)), cp16);
            let b0 = _mm256_or_si256(_mm256_srli_epi16::<6>(cp16), _mm256_set1_epi16(0xC0));
            b01 = _mm256_blendv_epi8(b01, b0, below);
        }
        let b2 = _mm256_or_si256(
            _mm256_and_si256(cp16, _mm256_set1_epi16(0x3F)),
            _mm256_set1_epi16(0x80),
        );
        // Each byte's pair's b0, b1, b2.
        let (first, second) = (
            _mm256_setr_epi8(
                0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10,
                12, 12, 14, 14,
            ),
            _mm256_setr_epi8(
                1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15, 1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11,
                13, 13, 15, 15,
            ),
        );
        let lead = byte_mask(leads);
        let b0 = _mm256_shuffle_epi8(b01, first);
        let high = _mm256_shuffle_epi8(b01, second);
        // A lead's b2 one byte later, at its trail (0x80 and above: a blend's mask there,
        // 0 elsewhere).
        let b2 = _mm256_and_si256(_mm256_shuffle_epi8(b2, first), lead);
        let b2 = _mm256_alignr_epi8::<15>(b2, _mm256_permute2x128_si256::<0x08>(b2, b2));
        let low = _mm256_blendv_epi8(_mm256_blendv_epi8(v, b2, b2), b0, lead);
        // u16 lanes: input bytes 0..8 | 16..24, then 8..16 | 24..32.
        let lanes = [_mm256_unpacklo_epi8(low, high), _mm256_unpackhi_epi8(low, high)];
        let long = if SHORT { leads & !two } else { leads };
        let one = |q: u32| (!long >> (8 * q) & 0xFF) as usize;
        let mut pieces = [_mm256_setzero_si256(); 2];
        for (h, piece) in pieces.iter_mut().enumerate() {
            let h = h as u32;
            let pattern = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm_loadu_si128(ROWS12[one(h)].as_ptr().cast())),
                _mm_loadu_si128(ROWS12[one(h + 2)].as_ptr().cast()),
            );
            *piece = _mm256_shuffle_epi8(lanes[h as usize], pattern);
        }
        let mut at = 0;
        for q in 0..4u32 {
            let piece = pieces[(q % 2) as usize];
            let lane = if q < 2 {
                _mm256_castsi256_si128(piece)
            } else {
                _mm256_extracti128_si256::<1>(piece)
            };
            _mm_storeu_si128(out.add(at).cast(), lane);
            at += usize::from(ROWS12_LENS[one(q)]);
        }
    }
}

/// Writes a mixed block's UTF-16 at `out`: four pieces of 8 input bytes, each stored as 8
/// units, one after the other (at most 32 units in all).
///
/// # Safety
/// - AVX2, BMI1 and POPCNT are enabled in the caller.
/// - `out` is valid for writing 32 units.
#[inline(always)]
unsafe fn mixed_utf16(v: __m256i, cp: &[__m256i; 2], kept: u32, out: *mut u16) {
    // SAFETY: AVX2 per the contract. The loads read rows of `ROWS16` (indices below 256).
    // The stores write 8 units each at `out + at`, where `at` is the length of the pieces
    // before, at most 24 (three pieces of 8): inside the 32 units of the contract.
    unsafe {
        let x = units(v, cp);
        let kept = |g: u32| (kept >> (8 * g) & 0xFF) as usize;
        // Pieces: 0 and 2 in the lanes of `x[0]`, 1 and 3 in those of `x[1]`. (A loop, not
        // `array::map`: its closure is a function of its own, without AVX2 enabled.)
        let mut pieces = [_mm256_setzero_si256(); 2];
        for (h, piece) in pieces.iter_mut().enumerate() {
            let pattern = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm_loadu_si128(ROWS16[kept(h as u32)].as_ptr().cast())),
                _mm_loadu_si128(ROWS16[kept(h as u32 + 2)].as_ptr().cast()),
            );
            *piece = _mm256_shuffle_epi8(x[h], pattern);
        }
        let mut at = 0;
        for g in 0..4u32 {
            let piece = pieces[(g % 2) as usize];
            let lane = if g < 2 {
                _mm256_castsi256_si128(piece)
            } else {
                _mm256_extracti128_si256::<1>(piece)
            };
            _mm_storeu_si128(out.add(at).cast(), lane);
            at += kept(g).count_ones() as usize;
        }
    }
}

/// Leads at every even byte: sixteen pairs.
const EVEN: u64 = 0x5555_5555;

/// A decoded block.
#[derive(Clone, Copy)]
pub(crate) struct Decoded {
    /// The code points of the byte pairs' leads: `[0]` pairs 0..4 and 8..12, `[1]` pairs
    /// 4..8 and 12..16, one per 32-bit lane, 0 where a pair has no lead.
    cp: [__m256i; 2],
    /// The leads (bit i: byte i) of the pairs below U+0800, two bytes of UTF-8 (only with
    /// `decode`'s `SHORT`; rare in CJK text, so found only where the check from U+0800
    /// fails).
    two: u32,
}

impl CjkDecodeVector for __m256i {
    const BITS: u32 = 1;
    // A mixed block: four pieces of 8 input bytes, each stored as 16 bytes at the end of
    // those before (at most 36 bytes before the last); sixteen pairs: 48 bytes exactly. The
    // last piece's output is 7 bytes or more, so at most 9 bytes past the block's (31 or
    // more) change.
    const ROOM8: usize = 52;
    // A mixed block: four pieces of 8 bytes, each stored as 8 units (at most 24 before the
    // last); ASCII: 32 units. The last piece's output is 3 units or more, so at most 5 units
    // past the block's (16 or more) change.
    const ROOM16: usize = 32;
    // No ASCII runs: their branch on every block costs CJK text more than runs save
    // (docs/decisions.md, "CJK kernels from one skeleton").
    const ASCII_RUNS: bool = false;
    // Measured, not explained: the same instructions both ways (x86 folds the loads of
    // spilled tables into the instructions that use them), but out of line the UTF-8 pages
    // ran 3 to 11% faster and gb18030's and Big5's to UTF-16 5 to 13% slower
    // (`docs/decisions.md`, "Two-byte characters in the NEON and AVX2 pair kernels").
    const COLD_STOPS: [bool; 2] = [true, false];
    type Tables = Tables;
    /// Every byte's high nibble.
    type Lookups = __m256i;
    type Decoded = Decoded;

    fn supports(tables: &PairTables) -> bool {
        // Something to gather.
        tables.index.limit() != 0
    }

    #[inline(always)]
    unsafe fn load_tables(tables: &PairTables) -> Tables {
        // SAFETY: AVX2 per the trait contract; the limit is not 0 (`supports`).
        unsafe { load(tables) }
    }

    #[inline(always)]
    unsafe fn high(self) -> u64 {
        // SAFETY: AVX2 per the trait contract.
        unsafe { u64::from(_mm256_movemask_epi8(self) as u32) }
    }

    #[inline(always)]
    unsafe fn classify(self, t: &Tables) -> (u64, u64, __m256i) {
        // SAFETY: register operations; AVX2 per the trait contract.
        unsafe {
            let zero = _mm256_setzero_si256();
            let low_nibble = _mm256_and_si256(self, _mm256_set1_epi8(0x0F));
            let high_nibble = _mm256_and_si256(_mm256_srli_epi16::<4>(self), _mm256_set1_epi8(0x0F));
            let in_bitmap = |bits: __m256i, half: usize| {
                _mm256_and_si256(
                    _mm256_shuffle_epi8(bits, low_nibble),
                    _mm256_shuffle_epi8(t.nibble_bit[half], high_nibble),
                )
            };
            let not_lead = _mm256_cmpeq_epi8(in_bitmap(t.lead_bits, 1), zero);
            let capable = !(_mm256_movemask_epi8(not_lead) as u32);
            let trail_bytes = _mm256_or_si256(in_bitmap(t.trail_bits[0], 0), in_bitmap(t.trail_bits[1], 1));
            let not_trail = _mm256_movemask_epi8(_mm256_cmpeq_epi8(trail_bytes, zero)) as u32;
            (u64::from(capable), u64::from(not_trail), high_nibble)
        }
    }

    #[inline(always)]
    unsafe fn decode<const SHORT: bool>(
        self,
        high_nibble: __m256i,
        leads: u64,
        t: &Tables,
        tables: &PairTables,
    ) -> Option<Decoded> {
        // SAFETY: register operations; `gather` is called only with pointers clamped to
        // `t.last`, below `tables.index.limit()` (its contract: `t.last` is the limit minus
        // one, or less); AVX2 per the trait contract.
        unsafe {
            let v = self;
            let zero = _mm256_setzero_si256();
            // Rows - 1 and columns of every byte (garbage where not a lead or trail); lane k
            // of `even` holds those of bytes 2k (row) and 2k + 1 (column), of `odd` bytes
            // 2k + 1 and 2k + 2, and `pair` the one whose low byte is the lead (if either is).
            let rows = _mm256_sub_epi8(v, _mm256_shuffle_epi8(t.lead_base, high_nibble));
            let cols = _mm256_sub_epi8(v, _mm256_shuffle_epi8(t.trail_base, high_nibble));
            let high_bytes = _mm256_set1_epi16(0xFF00u16 as i16);
            let even = _mm256_blendv_epi8(rows, cols, high_bytes);
            let odd = next_byte(_mm256_blendv_epi8(cols, rows, high_bytes));
            let lead_bytes = byte_mask(leads as u32);
            let pair = _mm256_blendv_epi8(even, odd, _mm256_srai_epi16::<15>(lead_bytes));
            let pointer = _mm256_add_epi16(
                _mm256_mullo_epi16(_mm256_and_si256(pair, _mm256_set1_epi16(0xFF)), t.row_len),
                _mm256_srli_epi16::<8>(pair),
            );
            // Negative 16-bit lanes: the pairs with a lead.
            let has_lead = _mm256_or_si256(lead_bytes, _mm256_slli_epi16::<8>(lead_bytes));
            // Pointers at or above the limit: gathered at the limit minus one (inside the
            // table), and the block stops all the same (clamping, not a branch before the
            // gathers, which mispredicts; docs/decisions.md, "Kernel tuning").
            let clamped = _mm256_min_epu16(pointer, t.last);
            let above = _mm256_andnot_si256(_mm256_cmpeq_epi16(clamped, pointer), has_lead);
            let pointer = clamped;
            let mut cp = [zero; 2];
            let mut bad = _mm256_srai_epi16::<15>(above);
            for (h, slot) in cp.iter_mut().enumerate() {
                let (m, index) = if h == 0 {
                    (
                        _mm256_unpacklo_epi16(has_lead, has_lead),
                        _mm256_unpacklo_epi16(pointer, zero),
                    )
                } else {
                    (
                        _mm256_unpackhi_epi16(has_lead, has_lead),
                        _mm256_unpackhi_epi16(pointer, zero),
                    )
                };
                // A half without leads (HTML: a few words in markup) skips its gather, which
                // costs by its lanes whatever its mask. Every lane is below the limit
                // (clamped above).
                // (Pairs 0..4 and 8..12 are input bytes 0..8 and 16..24.)
                let half = if h == 0 { 0x00FF_00FF } else { 0xFF00_FF00 };
                let low = half & 0xFFFF;
                if leads & half != 0 {
                    *slot = if leads & half & !low == 0 {
                        _mm256_zextsi128_si256(gather4(
                            _mm256_castsi256_si128(m),
                            _mm256_castsi256_si128(index),
                            tables.index,
                        ))
                    } else if leads & low == 0 {
                        _mm256_inserti128_si256::<1>(
                            zero,
                            gather4(
                                _mm256_extracti128_si256::<1>(m),
                                _mm256_extracti128_si256::<1>(index),
                                tables.index,
                            ),
                        )
                    } else {
                        gather(m, index, tables.index)
                    };
                    // With `SHORT`, checked from U+0800 first (below).
                    let from = if SHORT {
                        not_plain::<0x800>(m, *slot)
                    } else {
                        not_plain::<0x80>(m, *slot)
                    };
                    bad = _mm256_or_si256(bad, from);
                }
            }
            if _mm256_testz_si256(bad, bad) == 1 {
                return Some(Decoded { cp, two: 0 });
            }
            if !SHORT {
                return None;
            }
            // The check from U+0080, then the pairs below U+0800, two bytes of the pieces'
            // lanes in `mixed_utf8` (`cp16`: pair k in u16 lane k, input bytes 2k and 2k + 1;
            // 0 where no lead).
            let mut bad = _mm256_srai_epi16::<15>(above);
            bad = _mm256_or_si256(
                bad,
                not_plain::<0x80>(_mm256_unpacklo_epi16(has_lead, has_lead), cp[0]),
            );
            bad = _mm256_or_si256(
                bad,
                not_plain::<0x80>(_mm256_unpackhi_epi16(has_lead, has_lead), cp[1]),
            );
            if _mm256_testz_si256(bad, bad) == 0 {
                return None;
            }
            let cp16 = _mm256_packus_epi32(cp[0], cp[1]);
            let below = _mm256_cmpeq_epi16(_mm256_min_epu16(cp16, _mm256_set1_epi16(0x7FF)), cp16);
            let two = _mm256_movemask_epi8(below) as u32 & leads as u32;
            Some(Decoded { cp, two })
        }
    }

    #[inline(always)]
    unsafe fn three_byte(d: &Decoded, leads: u64) -> usize {
        (leads as u32 & !d.two).count_ones() as usize
    }

    #[inline(always)]
    unsafe fn put_utf8(self, d: &Decoded, leads: u64, out: *mut u8) {
        // SAFETY: AVX2 per the trait contract; `out` has ROOM8 (52) bytes of room. Sixteen
        // pairs: 16 bytes at 0, 12 and 24, then 8 at 36 and 40: 48 bytes exactly. Mixed: at
        // most 52 bytes (`mixed_utf8`).
        unsafe {
            let cp = &d.cp;
            if d.two != 0 {
                mixed_utf8::<true>(self, cp, leads as u32, d.two, out);
            } else if leads == EVEN {
                let pack = _mm256_setr_epi8(
                    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12,
                    13, 14, -1, -1, -1, -1,
                );
                // 12 bytes per 128-bit lane: pairs 0..4 and 8..12, then 4..8 and 12..16.
                let a = _mm256_shuffle_epi8(three_bytes(cp[0]), pack);
                let c = _mm256_shuffle_epi8(three_bytes(cp[1]), pack);
                _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(a));
                _mm_storeu_si128(out.add(12).cast(), _mm256_castsi256_si128(c));
                _mm_storeu_si128(out.add(24).cast(), _mm256_extracti128_si256::<1>(a));
                let last = _mm256_extracti128_si256::<1>(c);
                _mm_storel_epi64(out.add(36).cast(), last);
                _mm_storel_epi64(out.add(40).cast(), _mm_srli_si128::<4>(last));
            } else {
                mixed_utf8::<false>(self, cp, leads as u32, 0, out);
            }
        }
    }

    #[inline(always)]
    unsafe fn put_utf16(self, d: &Decoded, leads: u64, kept: u64, out: *mut u16) {
        // SAFETY: AVX2 per the trait contract; `out` has ROOM16 (32) units of room. Sixteen
        // pairs: 16 units. Mixed: at most 32 units (`mixed_utf16`).
        unsafe {
            if leads == EVEN {
                _mm256_storeu_si256(out.cast(), _mm256_packus_epi32(d.cp[0], d.cp[1]));
            } else {
                mixed_utf16(self, &d.cp, kept as u32, out);
            }
        }
    }
}
