//! The AVX-512 instance of UTF-8 to Latin1 (`generic/latin1.rs`): 64 input bytes a block,
//! checked in mask registers, compacted by `vpcompressb` (VBMI2) and stored exactly by a
//! masked store.

use core::arch::x86_64::*;

use crate::simd::generic::latin1::Latin1Vector;

impl Latin1Vector for __m512i {
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
}
