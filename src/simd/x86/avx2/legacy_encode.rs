//! AVX2's instance of the `utf16_to_legacy` kernel (`generic/legacy_encode.rs`), 16 code units
//! a block. AVX2 has no 256-entry byte lookup: the pages are gathered (`vpgatherdd`, 4 bytes
//! at the entry's aligned word, the entry's byte shifted out), and so are the blocks' entries.
//! Two bytes a unit are compacted per 128-bit lane by the shuffle rows NEON uses (8 units a
//! lane) and stored exactly.

use core::arch::x86_64::*;

use crate::simd::generic::lane::TranscodeVector;
use crate::simd::generic::legacy_encode::LegacyEncodeVector;
use crate::simd::generic::single_byte::TAIL8;
use crate::simd::generic::utf16_to_utf8::ROWS12;
use crate::simd::{EncodeTables, Lookup};

/// The tables of `utf16_to_legacy` in registers.
pub(crate) struct EncodeRegs {
    /// The blocks' limit minus one (at most 0xFFFF), in 32-bit lanes: no gathered index
    /// goes past it.
    last: __m256i,
}

/// The entries of 8 units (in 32-bit lanes, `width_mask` keeping a byte or two), and where
/// the index was past `last` (all ones).
///
/// # Safety
/// AVX2 is enabled in the caller; `pages` is a 256-byte table and `base` a blocks table whose
/// limit is above `last` (`Lookup::limit`: a gather reads 4 bytes at an index up to `last`).
#[inline(always)]
unsafe fn bytes_of<const WIDE: bool>(
    units: __m128i,
    last: __m256i,
    pages: *const i32,
    base: *const i32,
    width_mask: i32,
) -> (__m256i, __m256i) {
    // SAFETY: register operations, and gathers: from `pages` at word-aligned indexes below
    // 256 (4 bytes from at most 252: inside its 256 bytes), from `base` at indexes clamped to
    // `last` (the contract).
    unsafe {
        let u = _mm256_cvtepu16_epi32(units);
        let high = _mm256_srli_epi32::<8>(u);
        let word = _mm256_andnot_si256(_mm256_set1_epi32(3), high);
        let shift = _mm256_slli_epi32::<3>(_mm256_and_si256(high, _mm256_set1_epi32(3)));
        let gathered = _mm256_i32gather_epi32::<1>(pages, word);
        let page = _mm256_and_si256(_mm256_srlv_epi32(gathered, shift), _mm256_set1_epi32(0xFF));
        let index = _mm256_or_si256(
            _mm256_slli_epi32::<8>(page),
            _mm256_and_si256(u, _mm256_set1_epi32(0xFF)),
        );
        // Indexes are below 2^16: the signed compare is the unsigned one.
        let over = _mm256_cmpgt_epi32(index, last);
        let clamped = _mm256_min_epi32(index, last);
        let entry = if WIDE {
            _mm256_i32gather_epi32::<2>(base, clamped)
        } else {
            _mm256_i32gather_epi32::<1>(base, clamped)
        };
        (_mm256_and_si256(entry, _mm256_set1_epi32(width_mask)), over)
    }
}

impl LegacyEncodeVector for __m256i {
    type Tables = EncodeRegs;

    #[inline(always)]
    unsafe fn load_tables(tables: &EncodeTables) -> EncodeRegs {
        // SAFETY: register operations (AVX2 per the contract).
        unsafe {
            let last = tables.blocks.limit().min(0x1_0000).saturating_sub(1);
            EncodeRegs {
                last: _mm256_set1_epi32(last as i32),
            }
        }
    }

    #[inline(always)]
    unsafe fn ascii(self) -> bool {
        // SAFETY: register operations.
        unsafe { _mm256_testz_si256(self, _mm256_set1_epi16(0xFF80u16 as i16)) == 1 }
    }

    #[inline(always)]
    unsafe fn lookup<const WIDE: bool>(self, t: &EncodeRegs, tables: &EncodeTables) -> Option<Self> {
        // SAFETY: register operations; `bytes_of` gets the 256-byte pages and the blocks,
        // whose limit is above `t.last` (`load_tables`).
        unsafe {
            let pages = tables.pages.as_ptr().cast::<i32>();
            let (base, width_mask) = match tables.blocks {
                Lookup::U16(b) => (b.as_ptr().cast::<i32>(), 0xFFFF),
                Lookup::U8(b) => (b.as_ptr().cast::<i32>(), 0xFF),
            };
            let (lo, over_lo) =
                bytes_of::<WIDE>(_mm256_castsi256_si128(self), t.last, pages, base, width_mask);
            let (hi, over_hi) = bytes_of::<WIDE>(
                _mm256_extracti128_si256::<1>(self),
                t.last,
                pages,
                base,
                width_mask,
            );
            // Back to 16-bit lanes in unit order (the packs interleave the 128-bit lanes).
            let bytes = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(lo, hi));
            let over = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packs_epi32(over_lo, over_hi));
            let zero = _mm256_setzero_si256();
            let ascii = _mm256_cmpeq_epi16(_mm256_and_si256(self, _mm256_set1_epi16(0xFF80u16 as i16)), zero);
            let surrogate = _mm256_cmpeq_epi16(
                _mm256_and_si256(self, _mm256_set1_epi16(0xF800u16 as i16)),
                _mm256_set1_epi16(0xD800u16 as i16),
            );
            let bad = _mm256_or_si256(_mm256_or_si256(over, surrogate), _mm256_cmpeq_epi16(bytes, zero));
            if _mm256_testc_si256(ascii, bad) == 0 {
                // A non-ASCII unit is bad (`bad & !ascii` is not all zeros).
                return None;
            }
            Some(_mm256_blendv_epi8(bytes, self, ascii))
        }
    }

    #[inline(always)]
    unsafe fn store_narrow(self, out: *mut u8) {
        // SAFETY: 16 writable bytes and AVX2 (the contract), what `store_low_bytes` needs;
        // every unit is below 0x100.
        unsafe { TranscodeVector::store_low_bytes(self, out) }
    }

    #[inline(always)]
    unsafe fn store_bytes(self, out: *mut u8) -> usize {
        // SAFETY: register operations; the row loads index tables of 256 and 9 rows (8 units
        // a lane: `ones` < 256, 8 <= n <= 16); each lane's bytes are stored as 8 at its start
        // and 8 ending at its end, `n0 + n1 <= 32` bytes from `out`: inside the 32 bytes of
        // the contract, and nothing after the last byte of the block.
        unsafe {
            let one = _mm256_cmpeq_epi16(
                _mm256_and_si256(self, _mm256_set1_epi16(0xFF00u16 as i16)),
                _mm256_setzero_si256(),
            );
            let swapped = _mm256_shuffle_epi8(self, super::swap16());
            // Two bytes: high (lead) first.
            let units = _mm256_blendv_epi8(swapped, self, one);
            // One bit a unit: the byte mask's even bits.
            let mask = _pext_u32(_mm256_movemask_epi8(one) as u32, 0x5555_5555);
            let (m0, m1) = ((mask & 0xFF) as usize, (mask >> 8) as usize);
            let rows = _mm256_loadu2_m128i(ROWS12[m1].as_ptr().cast(), ROWS12[m0].as_ptr().cast());
            let packed = _mm256_shuffle_epi8(units, rows);
            let n0 = 16 - m0.count_ones() as usize;
            let n1 = 16 - m1.count_ones() as usize;
            let mut at = out;
            for (lane, n) in [
                (_mm256_castsi256_si128(packed), n0),
                (_mm256_extracti128_si256::<1>(packed), n1),
            ] {
                _mm_storel_epi64(at.cast(), lane);
                let end = _mm_shuffle_epi8(lane, _mm_loadu_si128(TAIL8[n - 8].as_ptr().cast()));
                _mm_storel_epi64(at.add(n - 8).cast(), end);
                at = at.add(n);
            }
            n0 + n1
        }
    }
}
