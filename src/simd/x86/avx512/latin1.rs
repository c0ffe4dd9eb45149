//! The AVX-512 instance of UTF-8 to Latin1 (`generic/latin1.rs`): 64 input bytes a block,
//! checked in mask registers, compacted by `vpcompressb` (VBMI2) and stored exactly by a
//! masked store. Back to UTF-8: each 32-byte half widened to u16 lanes (the byte, or its lead
//! and continuation), the bytes to keep compacted by `vpcompressb`, stored exactly.

use core::arch::x86_64::*;

use crate::simd::generic::latin1::Latin1Vector;

impl Latin1Vector for __m512i {
    const READ_BY_BRANCH: bool = true;

    #[inline(always)]
    unsafe fn put_latin1(self, first: Self, out: *mut u8) -> Option<(usize, usize)> {
        // SAFETY: register operations; the masked store writes the `n` bytes at `out` that
        // the block converts, at most 64, the contract's; AVX-512BW/VBMI2 and BMI2 per the
        // contract.
        unsafe {
            let v = self;
            let byte = |b: u8| _mm512_set1_epi8(b as i8);
            let lead = _mm512_cmpeq_epi8_mask(_mm512_and_si512(v, byte(0xFE)), byte(0xC2));
            let after = lead << 1;
            let high = _mm512_movepi8_mask(v);
            // 0x80..=0xBF, as signed bytes below -64.
            let continuation = _mm512_cmplt_epi8_mask(v, byte(0xC0));
            // Each continuation byte after 0xC3 gains its bit 6.
            let after_c3 = _mm512_cmpeq_epi8_mask(v, byte(0xC3)) << 1;
            let x = _mm512_mask_add_epi8(v, after_c3, v, byte(0x40));
            let at_least = _mm512_cmpge_epu8_mask(x, first);
            let bad = (high & !(lead | (continuation & after))) | (after & !(continuation & at_least));
            if bad != 0 {
                return None;
            }
            // The bytes that are not leads (a lead in the last byte: dropped).
            let n = 64 - lead.count_ones();
            let packed = _mm512_maskz_compress_epi8(!lead, x);
            _mm512_mask_storeu_epi8(out.cast(), _bzhi_u64(u64::MAX, n), packed);
            Some((64 - (lead >> 63) as usize, n as usize))
        }
    }

    #[inline(always)]
    unsafe fn put_utf8(self, first: Self, out: *mut u8) -> Option<usize> {
        // SAFETY: register operations; the two masked stores write `32 + letters` bytes
        // each, one after the other from `out`: at most 128, the contract's `2 * 64`;
        // AVX-512BW/VBMI2 and BMI2 per the contract.
        unsafe {
            let v = self;
            let high = _mm512_movepi8_mask(v);
            if _mm512_mask_cmplt_epu8_mask(high, v, first) != 0 {
                return None;
            }
            let n0 = put_half(_mm512_castsi512_si256(v), high as u32, out);
            let n1 = put_half(
                _mm512_extracti64x4_epi64::<1>(v),
                (high >> 32) as u32,
                out.add(n0),
            );
            Some(n0 + n1)
        }
    }
}

/// The UTF-8 of 32 Latin1 bytes (`letters`: those from 0x80) at `out`: each byte as a u16
/// lane, the byte (ASCII) or its lead and continuation, whose bytes to keep (every lane's
/// first, a letter's second: non-zero, as ASCII's is 0) are packed by `vpcompressb` and stored
/// by a masked store. Returns the count, `32 + letters`.
///
/// # Safety
/// AVX-512BW/VBMI2 and BMI2 are enabled in the caller; `out` is valid for writing the count.
#[inline(always)]
unsafe fn put_half(half: __m256i, letters: u32, out: *mut u8) -> usize {
    // SAFETY: register operations and a masked store of the count at `out`, per the contract.
    unsafe {
        let w = _mm512_cvtepu8_epi16(half);
        let lead = _mm512_or_si512(_mm512_srli_epi16::<6>(w), _mm512_set1_epi16(0xC0));
        let cont = _mm512_slli_epi16::<8>(_mm512_and_si512(w, _mm512_set1_epi16(0xBF)));
        let pairs = _mm512_mask_mov_epi16(w, letters, _mm512_or_si512(lead, cont));
        let keep = _mm512_test_epi8_mask(pairs, pairs) | 0x5555_5555_5555_5555;
        let n = 32 + letters.count_ones();
        let packed = _mm512_maskz_compress_epi8(keep, pairs);
        _mm512_mask_storeu_epi8(out.cast(), _bzhi_u64(u64::MAX, n), packed);
        n as usize
    }
}
