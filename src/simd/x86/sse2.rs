//! `Level::Sse2` = sse2 (the x86_64 baseline): 16-byte vectors.
//!
//! Not done here, for want of a byte shuffle (`pshufb` is SSSE3): the UTF-8 <-> UTF-16
//! transcoders of Lemire & Muła (`generic::utf8_to_utf16`, `generic::utf16_to_utf8`) pack
//! and unpack characters of different lengths with shuffles looked up by their lengths, and
//! the UTF-8 validation (Keiser-Lemire) looks its error classes up with shuffles too.
//! Emulating a shuffle with SSE2 costs a dozen instructions per byte, more than the scalar
//! kernels spend. What SSE2 does: `utf16_to_utf8` narrows ASCII runs a vector at a time
//! (`generic::utf16_to_utf8::utf16_to_utf8_ascii_runs`); `utf8_to_utf16` stays scalar (its
//! ASCII runs are already widened a word at a time); a block of 8 units all in
//! U+0080..U+07FF could be done with shifts alone, but runs like that are short in real text
//! (words are separated by ASCII spaces), so it is not.

use crate::simd::OutBytes;
use core::arch::x86_64::*;

use super::super::generic;
use super::super::scalar;
use super::super::vector::Vector;
use super::super::{Kernels, Level};

impl Vector for __m128i {
    const LANES: usize = 16;
    type Mask = Self;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: caller guarantees 16 readable bytes and SSE2.
        unsafe { _mm_loadu_si128(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: caller guarantees 16 writable bytes and SSE2.
        unsafe { _mm_storeu_si128(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_or_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn high_mask(self) -> u64 {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_movemask_epi8(self) as u32 as u64 }
    }
    #[inline(always)]
    unsafe fn widen_store(self, dst: *mut u16) {
        // SAFETY: caller guarantees 16 writable u16 and SSE2.
        unsafe {
            let zero = _mm_setzero_si128();
            _mm_storeu_si128(dst.cast(), _mm_unpacklo_epi8(self, zero));
            _mm_storeu_si128(dst.add(8).cast(), _mm_unpackhi_epi8(self, zero));
        }
    }
    #[inline(always)]
    unsafe fn load_utf16_paired(src: *const u8, be: bool) -> Option<Self> {
        // SAFETY: caller guarantees 16 readable bytes and SSE2.
        unsafe {
            let mut v = _mm_loadu_si128(src.cast());
            if be {
                v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
            }
            let surrogate = _mm_cmpeq_epi16(
                _mm_and_si128(v, _mm_set1_epi16(0xF800u16 as i16)),
                _mm_set1_epi16(0xD800u16 as i16),
            );
            if _mm_movemask_epi8(surrogate) == 0 {
                return Some(v);
            }
            let high = _mm_and_si128(v, _mm_set1_epi16(0xFC00u16 as i16));
            let lead = _mm_movemask_epi8(_mm_cmpeq_epi16(high, _mm_set1_epi16(0xD800u16 as i16))) as u32;
            let trail = _mm_movemask_epi8(_mm_cmpeq_epi16(high, _mm_set1_epi16(0xDC00u16 as i16))) as u32;
            // Two mask bits a unit: the trailing surrogates exactly one unit after the leading
            // ones (a leading one last would be shifted out of 16 bits, and differ).
            (lead << 2 == trail).then_some(v)
        }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn splat16(u: u16) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_set1_epi16(u as i16) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_and_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_xor_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: SSE2 per the trait contract (`ptest` is SSE4.1).
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self, _mm_setzero_si128())) != 0xFFFF }
    }
    #[inline(always)]
    unsafe fn shl16<const N: i32>(self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_slli_epi16::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shr16<const N: i32>(self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_srli_epi16::<N>(self) }
    }
    #[inline(always)]
    unsafe fn zip16(self, other: Self) -> [Self; 2] {
        // SAFETY: SSE2 per the trait contract.
        unsafe { [_mm_unpacklo_epi16(self, other), _mm_unpackhi_epi16(self, other)] }
    }
    #[inline(always)]
    unsafe fn eq8(self, other: Self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_cmpeq_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn eq16(self, other: Self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_cmpeq_epi16(self, other) }
    }
    #[inline(always)]
    unsafe fn below16(self, bound: u16) -> Self {
        // SAFETY: SSE2 per the trait contract (`pminuw` is SSE4.1). `bound >= 1`: u < bound
        // exactly when u - (bound - 1), saturated at 0, is 0.
        unsafe {
            _mm_cmpeq_epi16(
                _mm_subs_epu16(self, _mm_set1_epi16((bound - 1) as i16)),
                _mm_setzero_si128(),
            )
        }
    }
    #[inline(always)]
    unsafe fn select(mask: Self, a: Self, b: Self) -> Self {
        // SAFETY: SSE2 per the trait contract (`pblendvb` is SSE4.1).
        unsafe { _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b)) }
    }
    #[inline(always)]
    unsafe fn mask_any(mask: Self) -> bool {
        // SAFETY: SSE2 per the trait contract; a mask's bytes are 0 or 0xFF.
        unsafe { _mm_movemask_epi8(mask) != 0 }
    }
    #[inline(always)]
    unsafe fn mask_bits16(mask: Self) -> u64 {
        // SAFETY: SSE2 per the trait contract. 0xFFFF packs to 0xFF, 0 to 0.
        unsafe { u64::from(_mm_movemask_epi8(_mm_packs_epi16(mask, _mm_setzero_si128())) as u32 & 0xFF) }
    }
    #[inline(always)]
    unsafe fn load_units_narrow(src: *const u8, be: bool) -> (Self, Self) {
        // SAFETY: caller guarantees 32 readable bytes and SSE2.
        unsafe {
            let a = _mm_loadu_si128(src.cast());
            let b = _mm_loadu_si128(src.add(16).cast());
            // A big-endian ASCII unit is a zero byte, then the ASCII byte: read little-endian,
            // bits 0..8 clear and the ASCII byte in bits 8..16.
            let not_ascii = if be { 0x80FFu16 } else { 0xFF80 };
            let bad = _mm_and_si128(_mm_or_si128(a, b), _mm_set1_epi16(not_ascii as i16));
            let (a, b) = if be {
                (_mm_srli_epi16::<8>(a), _mm_srli_epi16::<8>(b))
            } else {
                (a, b)
            };
            // Where all units are below 0x80, `packus` (signed saturation) is exact.
            (_mm_packus_epi16(a, b), bad)
        }
    }
}

super::entry_points!(sse2, __m128i, {
    ascii_prefix_len(src: &[u8]) -> usize = generic::ascii::prefix_len;
    copy_ascii(src: &[u8], dst: &mut OutBytes) -> usize = generic::ascii::copy;
    copy_ascii_loose(src: &[u8], dst: &mut OutBytes) -> usize = generic::ascii::copy_loose;
    widen_ascii(src: &[u8], dst: &mut [u16]) -> usize = generic::ascii::widen;
    narrow_ascii(src: &[u16], dst: &mut OutBytes) -> usize = generic::ascii::narrow;
    utf16_bytes_to_utf16(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize) = generic::utf16::bytes_to_utf16;
    utf16_to_utf8(src: &[u16], dst: &mut OutBytes) -> (usize, usize) = generic::utf16_to_utf8::utf16_to_utf8_ascii_runs;
});

super::with_features! { sse2,
    /// The scalar kernel with this level's ASCII copy (SSE2 has no byte shuffle to compact a
    /// vector with).
    fn utf8_to_latin1(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) {
        // SAFETY: SSE2 is enabled on this function, all the generic copy requires.
        scalar::utf8_to_latin1_with(src, first, dst, |s, d| unsafe { generic::ascii::copy::<__m128i>(s, d) })
    }

    /// The scalar kernel with this level's ASCII copy (as `utf8_to_latin1`: no byte shuffle
    /// to spread a vector's letters with).
    fn latin1_to_utf8(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) {
        // SAFETY: SSE2 is enabled on this function, all the generic copy requires.
        scalar::latin1_to_utf8_with(src, first, dst, |s, d| unsafe { generic::ascii::copy::<__m128i>(s, d) })
    }
}

// Single-byte decode: no SSE2 kernel, on purpose; `single_byte_to_utf16/utf8` are the
// scalar ones. SSE2 has no byte shuffle (`pshufb` is SSSE3, `vpermb` AVX-512 VBMI), so the
// 128-entry lookup of `generic::single_byte` cannot be done in registers here: it would be
// one table load per byte, which is what the scalar kernel does already. The one part a
// 16-byte vector could speed up is ASCII (Latin-script text is mostly ASCII), and the scalar
// kernels already take ASCII runs a word at a time (`copy_ascii`, `widen_ascii`), so a
// vector ASCII loop in front of scalar lookups would save little over them. Every x86_64
// CPU of the last decade has AVX2, where the generic kernel runs.
pub(crate) const TABLE: Kernels = Kernels {
    level: Level::Sse2,
    ascii_prefix_len,
    copy_ascii,
    copy_ascii_loose,
    widen_ascii,
    narrow_ascii,
    utf8_to_latin1,
    latin1_to_utf8,
    utf16_bytes_to_utf16,
    utf16_to_utf8,
    ..scalar::TABLE
};

pub(crate) static KERNELS: Kernels = TABLE;

/// [`TABLE`] with the loose ASCII copy as `copy_ascii`: see `Kernels::for_spare_output`.
pub(crate) static SPARE_OUTPUT: Kernels = Kernels {
    copy_ascii: TABLE.copy_ascii_loose,
    ..TABLE
};
