//! Two-byte CJK decoding (Shift_JIS, EUC-JP, EUC-KR, Big5, gb18030/GBK pairs) with AVX2,
//! 32 input bytes at a time. An ISA-specific algorithm (STYLE.md 8.4), the AVX2 counterpart
//! of `avx512/cjk.rs`: AVX2 has neither byte compress nor 128-entry byte lookups, so the
//! leads and trails are looked up by nibbles (`PairNibbles`), the code points are gathered
//! one lane per two input bytes, and the output is compacted by shuffles from tables.
//!
//! ```text
//! while 32 input bytes and ROOM units of output remain:
//!     v = 32 bytes, starting at a character boundary
//!     all ASCII: widen or copy v; next
//!     L = bytes that can lead a pair (nibble bitmap)
//!     leads = every other byte of each run of L, from the run's first byte;
//!             trails = leads << 1   (a lead in byte 31: stop before it, read 31 bytes)
//!     stop if a non-ASCII byte is neither a lead nor a trail, or a trail is no trail byte
//!     each byte pair 2k, 2k+1 holds at most one lead: the lead and its trail in 16-bit
//!     lane k; pointers = (row - 1) * row_len + col (rows and columns by nibble bases);
//!     gather the 16 lanes' code points (two 8-lane gathers, pointers clamped below the
//!     limit); stop if a pointer was at or above the limit or a code point is not plain
//!     all 16 lanes leads: store their UTF-16 or UTF-8 as it is
//!     else, per input byte: the byte (ASCII) or the code point of its lane (leads) as u16,
//!     to UTF-8 (1 or 3 bytes in a u32 lane) if needed, compacted without the trails by
//!     shuffles looked up by which bytes are kept (and which are leads)
//! the scalar kernel finishes (from the block that stopped, if one did)
//! ```
//! Every check comes before any output of its block, and the scalar kernel decodes a
//! stopped block character by character, so `(read, written)` equal the scalar kernel's.
//!
//! The compacted pieces are stored whole (16 bytes) one after the other, each over the
//! garbage the one before left after its end; a block's last piece leaves garbage for the
//! next block's first store (16 bytes or more from there) to overwrite. So a block is
//! stored that way only when the next block was checked and will be stored; else (the
//! block before the scalar kernel takes over) it goes through a buffer and is copied
//! exactly, so nothing after `written` changes.

use crate::simd::OutBytes;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::simd::generic::cjk_decode::{
    Checked, ROWS013, ROWS16, ScalarPairs, exactly, leads_of, pair_blocks,
};
use crate::simd::scalar;
use crate::simd::{Lookup, PairTables};

/// The nibble tables in registers (each 16-entry table in both 128-bit lanes), and the
/// pointer parameters.
struct Tables {
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

/// The lanes of `m` whose code point is not plain from `MIN` (below `MIN`, above U+FFFF or
/// a surrogate), as a vector (non-zero if any).
///
/// # Safety
/// AVX2 is enabled in the caller.
#[inline(always)]
unsafe fn not_plain<const MIN: i32>(m: __m256i, cp: __m256i) -> __m256i {
    // SAFETY: register operations only; AVX2 per the caller's contract.
    unsafe {
        let above = _mm256_sub_epi32(cp, _mm256_set1_epi32(MIN));
        let in_range = _mm256_cmpeq_epi32(_mm256_min_epu32(above, _mm256_set1_epi32(0xFFFF - MIN)), above);
        let surrogate = _mm256_cmpeq_epi32(
            _mm256_and_si256(cp, _mm256_set1_epi32(0xF800)),
            _mm256_set1_epi32(0xD800),
        );
        let bad = _mm256_or_si256(_mm256_andnot_si256(in_range, _mm256_set1_epi32(-1)), surrogate);
        _mm256_and_si256(m, bad)
    }
}

/// What kind of block: which way its output is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// All ASCII.
    Ascii,
    /// Pairs only, leads at the even bytes (16 characters).
    Pairs,
    /// Anything else.
    Mixed,
}

/// One checked block: its bytes, the lead and kept (not trail, not past `read`) bytes, and
/// the code points of the byte pairs' leads (`cp[0]`: pairs 0..4 and 8..12, `cp[1]`: pairs
/// 4..8 and 12..16, one per 32-bit lane, 0 where a pair has no lead).
#[derive(Clone, Copy)]
struct Block {
    kind: Kind,
    v: __m256i,
    leads: u32,
    kept: u32,
    read: usize,
    cp: [__m256i; 2],
}

impl Block {
    /// Code units of UTF-16 out.
    #[inline(always)]
    fn utf16_len(&self) -> usize {
        self.kept.count_ones() as usize
    }
    /// Bytes of UTF-8 out: one per kept byte, two more for each lead.
    #[inline(always)]
    fn utf8_len(&self) -> usize {
        (self.kept.count_ones() + 2 * self.leads.count_ones()) as usize
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

/// Checks and looks up the block at `src`; `None` if it has a character that is not plain
/// from `MIN` (0x800 for UTF-8, whose stores write three bytes per pair; 0x80 for UTF-16).
///
/// # Safety
/// - AVX2, BMI1 and POPCNT are enabled in the caller.
/// - `src` is valid for reading 32 bytes.
/// - `t` was loaded from `tables`.
#[inline(always)]
unsafe fn block<const MIN: i32>(src: *const u8, t: &Tables, tables: &PairTables) -> Option<Block> {
    // SAFETY: 32 readable bytes at `src`; `gather` is called only with pointers clamped to
    // `t.last`, below `tables.index.limit()` (its contract: `t.last` is the limit minus one,
    // or less); AVX2 per the caller's contract.
    unsafe {
        let v = _mm256_loadu_si256(src.cast());
        let high = _mm256_movemask_epi8(v) as u32;
        let zero = _mm256_setzero_si256();
        if high == 0 {
            return Some(Block {
                kind: Kind::Ascii,
                v,
                leads: 0,
                kept: u32::MAX,
                read: 32,
                cp: [zero; 2],
            });
        }
        let low_nibble = _mm256_and_si256(v, _mm256_set1_epi8(0x0F));
        let high_nibble = _mm256_and_si256(_mm256_srli_epi16::<4>(v), _mm256_set1_epi8(0x0F));
        let in_bitmap = |bits: __m256i, half: usize| {
            _mm256_and_si256(
                _mm256_shuffle_epi8(bits, low_nibble),
                _mm256_shuffle_epi8(t.nibble_bit[half], high_nibble),
            )
        };
        let not_lead = _mm256_cmpeq_epi8(in_bitmap(t.lead_bits, 1), zero);
        let lead_capable = !(_mm256_movemask_epi8(not_lead) as u32);
        let mut leads = leads_of(u64::from(lead_capable), 1) as u32;
        let mut valid = u32::MAX;
        let mut read = 32;
        if leads >> 31 != 0 {
            leads &= !(1 << 31);
            valid >>= 1;
            read = 31;
        }
        let trails = leads << 1;
        if high & !(leads | trails) & valid != 0 {
            return None;
        }
        let trail_bytes = _mm256_or_si256(in_bitmap(t.trail_bits[0], 0), in_bitmap(t.trail_bits[1], 1));
        let not_trail = _mm256_movemask_epi8(_mm256_cmpeq_epi8(trail_bytes, zero)) as u32;
        if trails & not_trail != 0 {
            return None;
        }
        // Rows - 1 and columns of every byte (garbage where not a lead or trail); lane k of
        // `even` holds those of bytes 2k (row) and 2k + 1 (column), of `odd` bytes 2k + 1
        // and 2k + 2, and `pair` the one whose low byte is the lead (if either is).
        let rows = _mm256_sub_epi8(v, _mm256_shuffle_epi8(t.lead_base, high_nibble));
        let cols = _mm256_sub_epi8(v, _mm256_shuffle_epi8(t.trail_base, high_nibble));
        let high_bytes = _mm256_set1_epi16(0xFF00u16 as i16);
        let even = _mm256_blendv_epi8(rows, cols, high_bytes);
        let odd = next_byte(_mm256_blendv_epi8(cols, rows, high_bytes));
        let lead_bytes = byte_mask(leads);
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
            // Every lane is below the limit (clamped above).
            *slot = gather(m, index, tables.index);
            bad = _mm256_or_si256(bad, not_plain::<MIN>(m, *slot));
        }
        if _mm256_testz_si256(bad, bad) == 0 {
            return None;
        }
        let kind = if leads == 0x5555_5555 {
            Kind::Pairs
        } else {
            Kind::Mixed
        };
        Some(Block {
            kind,
            v,
            leads,
            kept: valid & !trails,
            read,
            cp,
        })
    }
}

/// The u16 output of every input byte of a mixed block: the byte (ASCII) or the code point
/// of its pair (non-ASCII: leads; trails are dropped anyway). `[0]` holds bytes 0..8 and
/// 16..24, `[1]` bytes 8..16 and 24..32; also the matching "not ASCII" masks (0xFFFF).
///
/// # Safety
/// AVX2 is enabled in the caller.
#[inline(always)]
unsafe fn units(b: &Block) -> ([__m256i; 2], [__m256i; 2]) {
    // SAFETY: register operations only; AVX2 per the caller's contract.
    unsafe {
        let zero = _mm256_setzero_si256();
        // Pairs 0..16 in order (lane 0: 0..8, lane 1: 8..16), as u16.
        let cp16 = _mm256_packus_epi32(b.cp[0], b.cp[1]);
        let high = [
            _mm256_srai_epi16::<15>(_mm256_unpacklo_epi8(b.v, b.v)),
            _mm256_srai_epi16::<15>(_mm256_unpackhi_epi8(b.v, b.v)),
        ];
        let x0 = _mm256_blendv_epi8(
            _mm256_unpacklo_epi8(b.v, zero),
            _mm256_unpacklo_epi16(cp16, cp16),
            high[0],
        );
        let x1 = _mm256_blendv_epi8(
            _mm256_unpackhi_epi8(b.v, zero),
            _mm256_unpackhi_epi16(cp16, cp16),
            high[1],
        );
        ([x0, x1], high)
    }
}

impl Checked for Block {
    #[inline(always)]
    fn read(&self) -> usize {
        self.read
    }
    #[inline(always)]
    fn ascii(&self) -> bool {
        // No ASCII runs: their branch on every block costs CJK text more than runs save
        // (docs/decisions.md, "CJK kernels from one skeleton").
        false
    }
}

/// The block loop (`generic::cjk_decode::pair_blocks`) with this level's blocks: `tail` the
/// scalar kernel, `put` as there.
///
/// # Safety
/// - AVX2, BMI1 and POPCNT are enabled in the caller.
/// - `put` as `pair_blocks` requires, with `room` (at most 64) units.
#[inline(always)]
unsafe fn blocks<T: Copy, const MIN: i32>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut [T],
    room: usize,
    tail: ScalarPairs<T>,
    len: impl Fn(&Block) -> usize,
    put: impl Fn(&Block, *mut T, bool),
) -> (usize, usize) {
    if src.len() < 32 || tables.index.limit() == 0 {
        // No whole block (or nothing to gather): skip loading the tables into registers.
        return tail(src, tables, dst, usize::MAX);
    }
    // SAFETY: AVX2 per the caller's contract; the limit is not 0 (checked above).
    let t = unsafe { load(tables) };
    // SAFETY: `check` reads 32 bytes where `pair_blocks` allows it (`block`'s contract);
    // `put` per the caller's contract.
    unsafe {
        pair_blocks::<Block, T>(
            src,
            tables,
            dst,
            (32, room),
            tail,
            |at| block::<MIN>(at, &t, tables),
            (len, put, |_: &[u8], _: &mut [T]| 0),
        )
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

/// Writes a mixed block's UTF-8 at `out`: eight pieces of 4 input bytes, each stored as 16
/// bytes, one after the other (at most 64 bytes in all).
///
/// # Safety
/// - AVX2, BMI1 and POPCNT are enabled in the caller.
/// - `out` is valid for writing 64 bytes.
#[inline(always)]
unsafe fn mixed_utf8(b: &Block, out: *mut u8) {
    // SAFETY: AVX2 per the contract. The loads read rows of `ROWS013` (indices below 256).
    // The stores write 16 bytes each at `out + at`, where `at` is the length of the pieces
    // before, at most 48 (the whole block's): inside the 64 bytes of the contract.
    unsafe {
        let (x, high) = units(b);
        // Per u16 lane: (b0, b1) and (b2, 0) of a lead's UTF-8, the byte and 0 for ASCII.
        let mut lanes = [_mm256_setzero_si256(); 4];
        for h in 0..2 {
            let u = x[h];
            let b01 = _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_srli_epi16::<12>(u),
                    _mm256_and_si256(_mm256_slli_epi16::<2>(u), _mm256_set1_epi16(0x3F00)),
                ),
                _mm256_set1_epi16(0x80E0u16 as i16),
            );
            let b2 = _mm256_or_si256(
                _mm256_and_si256(u, _mm256_set1_epi16(0x3F)),
                _mm256_set1_epi16(0x80),
            );
            let b01 = _mm256_blendv_epi8(u, b01, high[h]);
            let b2 = _mm256_and_si256(b2, high[h]);
            // u32 lanes: [0] bytes 0..4 | 16..20, [1] 4..8 | 20..24 (h = 0), 8.. for h = 1.
            lanes[2 * h] = _mm256_unpacklo_epi16(b01, b2);
            lanes[2 * h + 1] = _mm256_unpackhi_epi16(b01, b2);
        }
        // Row index of piece q (input bytes 4q..4q + 4): kept | leads << 4 of its bytes.
        let even = (b.kept & 0x0F0F_0F0F) | (b.leads & 0x0F0F_0F0F) << 4;
        let odd = (b.kept >> 4 & 0x0F0F_0F0F) | (b.leads & 0xF0F0_F0F0);
        let index = |q: usize| ([even, odd][q % 2] >> (8 * (q / 2)) & 0xFF) as usize;
        let (rows, lens) = &ROWS013;
        let mut at = 0;
        // Pieces q and q + 4 are the two 128-bit lanes of `lanes[q]`.
        let mut pieces = [_mm256_setzero_si256(); 4];
        for (q, piece) in pieces.iter_mut().enumerate() {
            let pattern = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm_loadu_si128(rows[index(q)].as_ptr().cast())),
                _mm_loadu_si128(rows[index(q + 4)].as_ptr().cast()),
            );
            *piece = _mm256_shuffle_epi8(lanes[q], pattern);
        }
        for (q, piece) in pieces.iter().enumerate() {
            _mm_storeu_si128(out.add(at).cast(), _mm256_castsi256_si128(*piece));
            at += usize::from(lens[index(q)]);
        }
        for (q, piece) in pieces.iter().enumerate() {
            _mm_storeu_si128(out.add(at).cast(), _mm256_extracti128_si256::<1>(*piece));
            at += usize::from(lens[index(q + 4)]);
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
unsafe fn mixed_utf16(b: &Block, out: *mut u16) {
    // SAFETY: AVX2 per the contract. The loads read rows of `ROWS16` (indices below 256).
    // The stores write 8 units each at `out + at`, where `at` is the length of the pieces
    // before, at most 24 (three pieces of 8): inside the 32 units of the contract.
    unsafe {
        let (x, _) = units(b);
        let kept = |g: u32| (b.kept >> (8 * g) & 0xFF) as usize;
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

crate::simd::x86::with_features! { avx2,
pub(crate) fn cjk_to_utf8(src: &[u8], tables: &PairTables, dst: &mut OutBytes) -> (usize, usize) {
    let put = |b: &Block, out: *mut MaybeUninit<u8>, whole: bool| {
        let out = out.cast::<u8>();
        // SAFETY: AVX2 etc. are enabled in the enclosing function; `out` has ROOM (64) bytes
        // of room (`pair_blocks`). ASCII: 32 bytes. Pairs: 16 bytes at 0, 12 and 24, then 8
        // at 36 and 40: 48 bytes exactly. Mixed: at most 64 bytes (`mixed_utf8`) with
        // `whole`, else exactly `utf8_len` through the buffer.
        unsafe {
            match b.kind {
                Kind::Ascii => _mm256_storeu_si256(out.cast(), b.v),
                Kind::Pairs => {
                    let pack = _mm256_setr_epi8(
                        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10,
                        12, 13, 14, -1, -1, -1, -1,
                    );
                    // 12 bytes per 128-bit lane: pairs 0..4 and 8..12, then 4..8 and 12..16.
                    let a = _mm256_shuffle_epi8(three_bytes(b.cp[0]), pack);
                    let c = _mm256_shuffle_epi8(three_bytes(b.cp[1]), pack);
                    _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(a));
                    _mm_storeu_si128(out.add(12).cast(), _mm256_castsi256_si128(c));
                    _mm_storeu_si128(out.add(24).cast(), _mm256_extracti128_si256::<1>(a));
                    let last = _mm256_extracti128_si256::<1>(c);
                    _mm_storel_epi64(out.add(36).cast(), last);
                    _mm_storel_epi64(out.add(40).cast(), _mm_srli_si128::<4>(last));
                }
                Kind::Mixed if whole => mixed_utf8(b, out),
                Kind::Mixed => exactly::<u8>(out, b.utf8_len(), |buf| mixed_utf8(b, buf)),
            }
        }
    };
    // SAFETY: AVX2 etc. are enabled on this function; `put` writes `utf8_len` bytes (the
    // block's: 1 per kept byte and 2 more per lead), at most 64 (ROOM) with `whole`, leaves
    // at most 16 bytes after them changed (a mixed block's last 16-byte store), and every
    // block starts with a store of 16 bytes or more.
    unsafe {
        blocks::<MaybeUninit<u8>, 0x800>(
            src,
            tables,
            dst,
            64,
            scalar::cjk_to_utf8_from::<0x80>,
            Block::utf8_len,
            put,
        )
    }
}
}

crate::simd::x86::with_features! { avx2,
pub(crate) fn cjk_to_utf16(src: &[u8], tables: &PairTables, dst: &mut [u16]) -> (usize, usize) {
    let put = |b: &Block, out: *mut u16, whole: bool| {
        // SAFETY: AVX2 etc. are enabled in the enclosing function; `out` has ROOM (32) units
        // of room (`pair_blocks`). ASCII: 32 units. Pairs: 16 units. Mixed: at most 32
        // units (`mixed_utf16`) with `whole`, else exactly `utf16_len` through the buffer.
        unsafe {
            match b.kind {
                Kind::Ascii => {
                    _mm256_storeu_si256(out.cast(), _mm256_cvtepu8_epi16(_mm256_castsi256_si128(b.v)));
                    _mm256_storeu_si256(
                        out.add(16).cast(),
                        _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(b.v)),
                    );
                }
                Kind::Pairs => _mm256_storeu_si256(out.cast(), _mm256_packus_epi32(b.cp[0], b.cp[1])),
                Kind::Mixed if whole => mixed_utf16(b, out),
                Kind::Mixed => exactly::<u16>(out, b.utf16_len(), |buf| mixed_utf16(b, buf)),
            }
        }
    };
    // SAFETY: AVX2 etc. are enabled on this function; `put` writes `utf16_len` units (one
    // per kept byte), at most 32 (ROOM), leaves at most 8 units (16 bytes) after them changed
    // (a mixed block's last 8-unit store), and every block starts with a store of 8 units
    // (16 bytes) or more.
    unsafe {
        blocks::<u16, 0x80>(
            src,
            tables,
            dst,
            32,
            scalar::cjk_to_utf16_from::<0x80>,
            Block::utf16_len,
            put,
        )
    }
}
}
