//! `Level::Avx2` = avx2 + bmi1 + bmi2 + popcnt: 32-byte vectors.

use core::arch::x86_64::*;

use super::super::generic;
use super::super::generic::lane::{Lane, TranscodeVector};
use super::super::vector::Vector;
use super::super::{Kernels, Level};

/// `_mm256_shuffle_epi8` control swapping the bytes of each 16-bit lane.
#[inline(always)]
unsafe fn swap16() -> __m256i {
    // SAFETY: AVX per the caller's contract.
    unsafe {
        _mm256_setr_epi8(
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13,
            12, 15, 14,
        )
    }
}

impl Vector for __m256i {
    const LANES: usize = 32;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: caller guarantees 32 readable bytes and AVX2.
        unsafe { _mm256_loadu_si256(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: caller guarantees 32 writable bytes and AVX2.
        unsafe { _mm256_storeu_si256(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_or_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn high_mask(self) -> u64 {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_movemask_epi8(self) as u32 as u64 }
    }
    #[inline(always)]
    unsafe fn widen_store(self, dst: *mut u16) {
        // SAFETY: caller guarantees 32 writable u16 and AVX2.
        unsafe {
            let lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(self));
            let hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(self));
            _mm256_storeu_si256(dst.cast(), lo);
            _mm256_storeu_si256(dst.add(16).cast(), hi);
        }
    }
    #[inline(always)]
    unsafe fn load_narrow_ascii(src: *const u16) -> Option<Self> {
        // SAFETY: caller guarantees 32 readable u16 and AVX2.
        unsafe {
            let a = _mm256_loadu_si256(src.cast());
            let b = _mm256_loadu_si256(src.add(16).cast());
            let any = _mm256_or_si256(a, b);
            if _mm256_testz_si256(any, _mm256_set1_epi16(0xFF80u16 as i16)) == 0 {
                return None;
            }
            // All units are below 0x80: packus is exact; fix the lane interleaving.
            let packed = _mm256_packus_epi16(a, b);
            Some(_mm256_permute4x64_epi64::<0b11_01_10_00>(packed))
        }
    }
    #[inline(always)]
    unsafe fn load_utf16_no_surrogates(src: *const u8, be: bool) -> Option<Self> {
        // SAFETY: caller guarantees 32 readable bytes and AVX2.
        unsafe {
            let mut v = _mm256_loadu_si256(src.cast());
            if be {
                v = _mm256_shuffle_epi8(v, swap16());
            }
            let surrogate = _mm256_cmpeq_epi16(
                _mm256_and_si256(v, _mm256_set1_epi16(0xF800u16 as i16)),
                _mm256_set1_epi16(0xD800u16 as i16),
            );
            (_mm256_testz_si256(surrogate, surrogate) == 1).then_some(v)
        }
    }
}

super::entry_points!("avx2,bmi1,bmi2,popcnt", __m256i, {
    ascii_prefix_len(src: &[u8]) -> usize = generic::ascii::prefix_len;
    copy_ascii(src: &[u8], dst: &mut [u8]) -> usize = generic::ascii::copy;
    widen_ascii(src: &[u8], dst: &mut [u16]) -> usize = generic::ascii::widen;
    narrow_ascii(src: &[u16], dst: &mut [u8]) -> usize = generic::ascii::narrow;
    utf16_bytes_to_utf16(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize) = generic::utf16::bytes_to_utf16;
});

pub(crate) const TABLE: Kernels = Kernels {
    level: Level::Avx2,
    ascii_prefix_len,
    copy_ascii,
    widen_ascii,
    narrow_ascii,
    utf16_bytes_to_utf16,
    utf8_valid_up_to,
    utf8_copy_valid,
    utf8_to_utf16,
    utf16_to_utf8,
    utf16_bytes_to_utf8,
    ..super::sse2::TABLE
};

pub(crate) static KERNELS: Kernels = TABLE;

impl generic::utf8::Utf8Vector for __m256i {
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX per the trait contract.
        unsafe { _mm256_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn repeat16(table: &[u8; 16]) -> Self {
        // SAFETY: the 16 bytes of `table` are readable; AVX2 per the trait contract.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_and_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_xor_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_and_si256(_mm256_srli_epi16::<4>(self), _mm256_set1_epi8(0x0F)) }
    }
    #[inline(always)]
    unsafe fn lookup16(self, table: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_shuffle_epi8(table, self) }
    }
    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_alignr_epi8::<15>(self, _mm256_permute2x128_si256::<0x21>(prev, self)) }
    }
    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_alignr_epi8::<14>(self, _mm256_permute2x128_si256::<0x21>(prev, self)) }
    }
    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_alignr_epi8::<13>(self, _mm256_permute2x128_si256::<0x21>(prev, self)) }
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_subs_epu8(self, other) }
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: AVX per the trait contract.
        unsafe { _mm256_testz_si256(self, self) == 0 }
    }
    #[inline(always)]
    unsafe fn incomplete_limits() -> Self {
        let mut limits = [0xFFu8; 32];
        limits[29] = 0xF0 - 1;
        limits[30] = 0xE0 - 1;
        limits[31] = 0xC0 - 1;
        // SAFETY: 32 readable bytes; AVX per the trait contract.
        unsafe { _mm256_loadu_si256(limits.as_ptr().cast()) }
    }
}

super::entry_points!("avx2,bmi1,bmi2,popcnt", __m256i, {
    utf8_valid_up_to(src: &[u8]) -> usize = generic::utf8::valid_up_to;
    utf8_copy_valid(src: &[u8], dst: &mut [u8]) -> (usize, usize) = generic::utf8::copy_valid;
});

/// The transcoders shuffle 16 bytes at a time (see `generic::lane`); the ASCII runs and the
/// validation use the whole `__m256i`.
impl TranscodeVector for __m256i {
    type Lane = __m128i;
}

/// The 16-byte lane of the AVX2 transcoders: SSSE3 and SSE4.1 instructions, VEX-encoded
/// under the AVX2 entry points (AVX2 implies both), which is what "the ISA is enabled in the
/// caller" means for this impl. SSE2 alone has no `pshufb`: the SSE2 table does not use it.
impl Lane for __m128i {
    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: caller guarantees 16 readable bytes and the ISA.
        unsafe { _mm_loadu_si128(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: caller guarantees 16 writable bytes and the ISA.
        unsafe { _mm_storeu_si128(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn store8(self, dst: *mut u8) {
        // SAFETY: caller guarantees 8 writable bytes and the ISA.
        unsafe { _mm_storel_epi64(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn store12(self, dst: *mut u8) {
        // SAFETY: caller guarantees 12 writable bytes (8, then 4 at `dst + 8`) and the ISA.
        unsafe {
            _mm_storel_epi64(dst.cast(), self);
            dst.add(8)
                .cast::<i32>()
                .write_unaligned(_mm_extract_epi32::<2>(self));
        }
    }
    #[inline(always)]
    unsafe fn widen_store(self, dst: *mut u16) {
        // SAFETY: caller guarantees 16 writable u16 and the ISA (AVX2 for the widening).
        unsafe { _mm256_storeu_si256(dst.cast(), _mm256_cvtepu8_epi16(self)) }
    }
    #[inline(always)]
    unsafe fn splat16(u: u16) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_set1_epi16(u as i16) }
    }
    #[inline(always)]
    unsafe fn splat32(u: u32) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_set1_epi32(u as i32) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_and_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_or_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_xor_si128(self, other) }
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
    unsafe fn shr32<const N: i32>(self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { _mm_srli_epi32::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shuffle(self, row: &[u8; 16]) -> Self {
        // SAFETY: the 16 bytes of `row` are readable; SSSE3 per the trait contract. 0xFF has
        // its high bit set, which makes pshufb write a zero.
        unsafe { _mm_shuffle_epi8(self, _mm_loadu_si128(row.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn swap_bytes16(self) -> Self {
        // SAFETY: SSSE3 per the trait contract.
        unsafe { _mm_shuffle_epi8(self, _mm256_castsi256_si128(swap16())) }
    }
    #[inline(always)]
    unsafe fn below16(self, bound: u16) -> Self {
        // SAFETY: SSE4.1 per the trait contract. `bound >= 1` per the trait's docs:
        // u < bound exactly when min(u, bound - 1) == u.
        unsafe { _mm_cmpeq_epi16(_mm_min_epu16(self, _mm_set1_epi16((bound - 1) as i16)), self) }
    }
    #[inline(always)]
    unsafe fn select(mask: Self, a: Self, b: Self) -> Self {
        // SAFETY: SSE4.1 per the trait contract (the masks are whole bytes).
        unsafe { _mm_blendv_epi8(b, a, mask) }
    }
    #[inline(always)]
    unsafe fn lane_bits16(self) -> u32 {
        // SAFETY: SSE2 per the trait contract. 0xFFFF packs to 0xFF, 0 to 0.
        unsafe { (_mm_movemask_epi8(_mm_packs_epi16(self, _mm_setzero_si128())) as u32) & 0xFF }
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: SSE4.1 per the trait contract.
        unsafe { _mm_testz_si128(self, self) == 0 }
    }
    #[inline(always)]
    unsafe fn zip16(self, other: Self) -> (Self, Self) {
        // SAFETY: SSE2 per the trait contract.
        unsafe { (_mm_unpacklo_epi16(self, other), _mm_unpackhi_epi16(self, other)) }
    }
}

super::entry_points!("avx2,bmi1,bmi2,popcnt", __m256i, {
    utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) = generic::utf8_to_utf16::utf8_to_utf16;
    utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> (usize, usize) = generic::utf16_to_utf8::utf16_to_utf8;
    utf16_bytes_to_utf8(src: &[u8], be: bool, dst: &mut [u8]) -> (usize, usize) = generic::utf16_to_utf8::utf16_bytes_to_utf8;
});
