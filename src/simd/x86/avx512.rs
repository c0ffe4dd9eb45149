//! `Level::Avx512` = avx512f + avx512bw + avx512vl + avx512vbmi + avx512vbmi2 + bmi2:
//! 64-byte vectors with mask registers.

use core::arch::x86_64::*;

use super::super::generic;
use super::super::vector::Vector;
use super::super::{Kernels, Level};

impl Vector for __m512i {
    const LANES: usize = 64;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: caller guarantees 64 readable bytes and AVX-512F.
        unsafe { _mm512_loadu_si512(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: caller guarantees 64 writable bytes and AVX-512F.
        unsafe { _mm512_storeu_si512(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_or_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn high_mask(self) -> u64 {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_movepi8_mask(self) }
    }
    #[inline(always)]
    unsafe fn widen_store(self, dst: *mut u16) {
        // SAFETY: caller guarantees 64 writable u16 and AVX-512BW.
        unsafe {
            let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(self));
            let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(self));
            _mm512_storeu_si512(dst.cast(), lo);
            _mm512_storeu_si512(dst.add(32).cast(), hi);
        }
    }
    #[inline(always)]
    unsafe fn load_narrow_ascii(src: *const u16) -> Option<Self> {
        // SAFETY: caller guarantees 64 readable u16 and AVX-512BW.
        unsafe {
            let a = _mm512_loadu_si512(src.cast());
            let b = _mm512_loadu_si512(src.add(32).cast());
            let limit = _mm512_set1_epi16(0x7F);
            if _mm512_cmpgt_epu16_mask(_mm512_or_si512(a, b), limit) != 0 {
                return None;
            }
            let lo = _mm512_cvtepi16_epi8(a);
            let hi = _mm512_cvtepi16_epi8(b);
            Some(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi))
        }
    }
    #[inline(always)]
    unsafe fn load_utf16_no_surrogates(src: *const u8, be: bool) -> Option<Self> {
        // SAFETY: caller guarantees 64 readable bytes and AVX-512BW.
        unsafe {
            let mut v = _mm512_loadu_si512(src.cast());
            if be {
                v = _mm512_or_si512(_mm512_slli_epi16::<8>(v), _mm512_srli_epi16::<8>(v));
            }
            let masked = _mm512_and_si512(v, _mm512_set1_epi16(0xF800u16 as i16));
            let surrogate = _mm512_cmpeq_epi16_mask(masked, _mm512_set1_epi16(0xD800u16 as i16));
            (surrogate == 0).then_some(v)
        }
    }
}

super::entry_points!("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2", __m512i, {
    ascii_prefix_len(src: &[u8]) -> usize = generic::ascii::prefix_len;
    copy_ascii(src: &[u8], dst: &mut [u8]) -> usize = generic::ascii::copy;
    widen_ascii(src: &[u8], dst: &mut [u16]) -> usize = generic::ascii::widen;
    narrow_ascii(src: &[u16], dst: &mut [u8]) -> usize = generic::ascii::narrow;
    utf16_bytes_to_utf16(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize) = generic::utf16::bytes_to_utf16;
});

pub(crate) const TABLE: Kernels = Kernels {
    level: Level::Avx512,
    ascii_prefix_len,
    copy_ascii,
    widen_ascii,
    narrow_ascii,
    utf16_bytes_to_utf16,
    utf8_valid_up_to,
    utf8_copy_valid,
    single_byte_to_utf16,
    single_byte_to_utf8,
    utf8_to_utf16: super::avx512_transcode::utf8_to_utf16,
    utf16_to_utf8: super::avx512_transcode::utf16_to_utf8,
    utf16_bytes_to_utf8: super::avx512_transcode::utf16_bytes_to_utf8,
    pairs_to_utf8: super::avx512_pairs::pairs_to_utf8,
    pairs_to_utf16: super::avx512_pairs::pairs_to_utf16,
    units_to_bytes: super::avx512_pairs::units_to_bytes,
    vector_pairs: true,
    vector_transcoders: true,
};

pub(crate) static KERNELS: Kernels = TABLE;

impl generic::utf8::Utf8Vector for __m512i {
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn repeat16(table: &[u8; 16]) -> Self {
        // SAFETY: the 16 bytes of `table` are readable; AVX-512F per the trait contract.
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(table.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_and_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_xor_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_and_si512(_mm512_srli_epi16::<4>(self), _mm512_set1_epi8(0x0F)) }
    }
    #[inline(always)]
    unsafe fn lookup16(self, table: Self) -> Self {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_shuffle_epi8(table, self) }
    }
    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_alignr_epi8::<15>(self, lanes_before(self, prev)) }
    }
    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_alignr_epi8::<14>(self, lanes_before(self, prev)) }
    }
    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_alignr_epi8::<13>(self, lanes_before(self, prev)) }
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_subs_epu8(self, other) }
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_test_epi8_mask(self, self) != 0 }
    }
    #[inline(always)]
    unsafe fn incomplete_limits() -> Self {
        let mut limits = [0xFFu8; 64];
        limits[61] = 0xF0 - 1;
        limits[62] = 0xE0 - 1;
        limits[63] = 0xC0 - 1;
        // SAFETY: 64 readable bytes; AVX-512F per the trait contract.
        unsafe { _mm512_loadu_si512(limits.as_ptr().cast()) }
    }
}

/// For each 128-bit lane of `cur`, the lane before it in the stream `prev ++ cur`.
///
/// # Safety
/// AVX-512F is enabled in the caller.
#[inline(always)]
unsafe fn lanes_before(cur: __m512i, prev: __m512i) -> __m512i {
    // SAFETY: AVX-512F per the contract. Qword indices 0..7 pick from `prev`, 8..15 from `cur`.
    unsafe { _mm512_permutex2var_epi64(prev, _mm512_setr_epi64(6, 7, 8, 9, 10, 11, 12, 13), cur) }
}

super::entry_points!("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2", __m512i, {
    utf8_valid_up_to(src: &[u8]) -> usize = generic::utf8::valid_up_to;
    utf8_copy_valid(src: &[u8], dst: &mut [u8]) -> (usize, usize) = generic::utf8::copy_valid;
});

/// The four 32-entry quarters of a single-byte table, for `vpermi2w`.
///
/// # Safety
/// AVX-512F is enabled in the caller.
#[inline(always)]
unsafe fn load_table(table: &[u16; 128]) -> [__m512i; 4] {
    let t = table.as_ptr();
    // SAFETY: the four loads read the 256 bytes of `table`; AVX-512F per the contract.
    unsafe {
        [
            _mm512_loadu_si512(t.cast()),
            _mm512_loadu_si512(t.add(32).cast()),
            _mm512_loadu_si512(t.add(64).cast()),
            _mm512_loadu_si512(t.add(96).cast()),
        ]
    }
}

/// Decodes 32 bytes through a single-byte table: the code points in u16 lanes (ASCII lanes
/// kept as they are, the upper half looked up with two `vpermi2w` of 64 entries each, picked
/// by bit 6), and the mask of the lanes before the first unmapped byte (all 32 if none).
///
/// # Safety
/// AVX-512F and AVX-512BW are enabled in the caller.
#[inline(always)]
unsafe fn decode_32(bytes: __m256i, t: &[__m512i; 4]) -> (__m512i, u32, bool) {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        let lanes = _mm512_cvtepu8_epi16(bytes);
        let idx = _mm512_and_si512(lanes, _mm512_set1_epi16(0x7F));
        let lo = _mm512_permutex2var_epi16(t[0], idx, t[1]);
        let hi = _mm512_permutex2var_epi16(t[2], idx, t[3]);
        let upper_half = _mm512_test_epi16_mask(idx, _mm512_set1_epi16(0x40));
        let mapped = _mm512_mask_blend_epi16(upper_half, lo, hi);
        let ascii = _mm512_cmplt_epu16_mask(lanes, _mm512_set1_epi16(0x80));
        let out = _mm512_mask_blend_epi16(ascii, mapped, lanes);
        let unmapped = _mm512_mask_cmpeq_epi16_mask(!ascii, mapped, _mm512_setzero_si512());
        let count = unmapped.trailing_zeros().min(32);
        let keep = if count == 32 {
            u32::MAX
        } else {
            (1u32 << count) - 1
        };
        (out, keep, unmapped != 0)
    }
}

/// Single-byte decode to UTF-16, 32 bytes at a time (see [`decode_32`]). At the first
/// unmapped byte it stores the lanes before it and lets the scalar kernel take over, which
/// stops right there.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2")]
fn single_byte_to_utf16(src: &[u8], table: &[u16; 128], dst: &mut [u16]) -> (usize, usize) {
    let len = src.len().min(dst.len());
    let mut i = 0;
    // SAFETY: AVX-512F is enabled on this function.
    let t = unsafe { load_table(table) };
    while i + 32 <= len {
        // ASCII, 64 bytes at a time (Latin-script text is mostly ASCII).
        while i + 64 <= len {
            // SAFETY: `i + 64 <= len`: 64 bytes of `src` and 64 u16 of `dst` from `i` are in
            // bounds; AVX-512BW is enabled on this function.
            let ascii = unsafe {
                let v = _mm512_loadu_si512(src.as_ptr().add(i).cast());
                let ascii = _mm512_movepi8_mask(v) == 0;
                if ascii {
                    let at = dst.as_mut_ptr().add(i);
                    _mm512_storeu_si512(at.cast(), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)));
                    let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
                    _mm512_storeu_si512(at.add(32).cast(), hi);
                }
                ascii
            };
            if !ascii {
                break;
            }
            i += 64;
        }
        if i + 32 > len {
            break;
        }
        // SAFETY: `i + 32 <= len`: 32 bytes of `src` and 32 u16 of `dst` from `i` are in
        // bounds; the masked store writes only the lanes of `keep`, a prefix of the 32.
        let (keep, stop) = unsafe {
            let bytes = _mm256_loadu_si256(src.as_ptr().add(i).cast());
            let (out, keep, stop) = decode_32(bytes, &t);
            _mm512_mask_storeu_epi16(dst.as_mut_ptr().add(i).cast(), keep, out);
            (keep, stop)
        };
        i += keep.count_ones() as usize;
        if stop {
            break;
        }
    }
    let (read, written) = super::super::scalar::single_byte_to_utf16(&src[i..], table, &mut dst[i..]);
    (i + read, i + written)
}

/// Single-byte decode to UTF-8, 32 bytes at a time: ASCII blocks are copied; otherwise the
/// code points (see [`decode_32`]) are converted to UTF-8 in registers — all 32 at once when
/// they are below U+0800 (Cyrillic, Greek, Hebrew, Arabic), else per 16 in u32 lanes (Thai,
/// punctuation) — and the bytes compressed and stored if they fit. A block that does not fit,
/// and the rest after the first unmapped byte, go to the scalar kernel, which stops exactly
/// where it must: the vector loop stops only at character boundaries after converting every
/// character before them, so the result equals the scalar kernel's.
///
/// `popcnt` is enabled besides the level's features: see `avx512_transcode`'s module docs.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
fn single_byte_to_utf8(src: &[u8], table: &[u16; 128], dst: &mut [u8]) -> (usize, usize) {
    let (mut r, mut w) = (0, 0);
    // SAFETY: AVX-512F is enabled on this function.
    let t = unsafe { load_table(table) };
    while r + 32 <= src.len() {
        // SAFETY: `r + 32 <= src.len()`: the load reads `src[r..r + 32]`; AVX2 is enabled.
        let bytes = unsafe { _mm256_loadu_si256(src.as_ptr().add(r).cast()) };
        if _mm256_movemask_epi8(bytes) == 0 {
            if w + 32 > dst.len() {
                break;
            }
            // SAFETY: `w + 32 <= dst.len()`: the store writes `dst[w..w + 32]`.
            unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(w).cast(), bytes) };
            r += 32;
            w += 32;
            continue;
        }
        // SAFETY: register operations; the ISA is enabled on this function.
        let (out, keep, stop) = unsafe { decode_32(bytes, &t) };
        let wide = _mm512_mask_cmpge_epu16_mask(keep, out, _mm512_set1_epi16(0x800));
        let n = if wide == 0 {
            // SAFETY: register operations; the ISA (with popcnt) is enabled.
            let (utf8, n) = unsafe { super::avx512_transcode::below_0800_to_utf8(out, keep) };
            if w + n > dst.len() {
                break;
            }
            // SAFETY: `w + n <= dst.len()` and `n <= 64`: the masked store writes
            // `dst[w..w + n]`.
            unsafe { _mm512_mask_storeu_epi8(dst.as_mut_ptr().add(w).cast(), _bzhi_u64(!0, n as u32), utf8) };
            n
        } else {
            // SAFETY: register operations; the ISA (with popcnt) is enabled.
            let ((a, na), (b, nb)) = unsafe {
                let lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(out));
                let hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(out));
                (
                    super::avx512_transcode::bmp_to_utf8(lo, keep as u16),
                    super::avx512_transcode::bmp_to_utf8(hi, (keep >> 16) as u16),
                )
            };
            if w + na + nb > dst.len() {
                break;
            }
            // SAFETY: `w + na + nb <= dst.len()` and `na, nb <= 48`: the masked stores write
            // `dst[w..w + na]` and `dst[w + na..w + na + nb]`.
            unsafe {
                let at = dst.as_mut_ptr().add(w);
                _mm512_mask_storeu_epi8(at.cast(), _bzhi_u64(!0, na as u32), a);
                _mm512_mask_storeu_epi8(at.add(na).cast(), _bzhi_u64(!0, nb as u32), b);
            }
            na + nb
        };
        r += keep.count_ones() as usize;
        w += n;
        if stop {
            break;
        }
    }
    let (read, written) = super::super::scalar::single_byte_to_utf8(&src[r..], table, &mut dst[w..]);
    (r + read, w + written)
}
