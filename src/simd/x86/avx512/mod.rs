//! `Level::Avx512` = avx512f + avx512bw + avx512vl + avx512vbmi + avx512vbmi2 + bmi2:
//! 64-byte vectors with mask registers.

mod cjk;
mod latin1;
pub(crate) mod transcode;

use crate::simd::OutBytes;
use core::arch::x86_64::*;

use super::super::generic;
use super::super::vector::Vector;
use super::super::{Kernels, Level, Tuning};

/// A mask of u16 lanes as a mask of their bytes: both bits of lane `i` set if bit `i` is.
///
/// # Safety
/// AVX-512BW is enabled in the caller.
#[inline(always)]
unsafe fn unit_mask_to_bytes(m: __mmask32) -> u64 {
    // SAFETY: AVX-512BW per the contract: `vpmovm2w` sets every bit of the lanes in `m`,
    // `vpmovb2m` takes each byte's high bit.
    unsafe { _mm512_movepi8_mask(_mm512_movm_epi16(m)) }
}

impl Vector for __m512i {
    const LANES: usize = 64;
    /// One bit per byte, as the byte comparisons give it (`eq16` and `below16` set both
    /// bits of a u16 lane).
    type Mask = u64;

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
    unsafe fn load_utf16_paired(src: *const u8, be: bool) -> Option<Self> {
        // SAFETY: caller guarantees 64 readable bytes and AVX-512BW.
        unsafe {
            let mut v = _mm512_loadu_si512(src.cast());
            if be {
                v = _mm512_or_si512(_mm512_slli_epi16::<8>(v), _mm512_srli_epi16::<8>(v));
            }
            let high = _mm512_and_si512(v, _mm512_set1_epi16(0xFC00u16 as i16));
            let lead = _mm512_cmpeq_epi16_mask(high, _mm512_set1_epi16(0xD800u16 as i16));
            let trail = _mm512_cmpeq_epi16_mask(high, _mm512_set1_epi16(0xDC00u16 as i16));
            // The trailing surrogates exactly one unit after the leading ones (a leading one
            // last would be shifted past 32 bits, and differ).
            (u64::from(lead) << 1 == u64::from(trail)).then_some(v)
        }
    }
    #[inline(always)]
    unsafe fn load_partial(src: *const u8, n: usize) -> Option<Self> {
        // SAFETY: the mask selects the first `n` bytes, which the caller guarantees
        // readable; masked-off bytes are not read (faults suppressed); AVX-512BW per the
        // trait contract.
        unsafe { Some(_mm512_maskz_loadu_epi8(transcode::low_bits64(n), src.cast())) }
    }
    #[inline(always)]
    unsafe fn store_partial(self, dst: *mut u8, n: usize) -> bool {
        // SAFETY: the mask selects the first `n` bytes, which the caller guarantees
        // writable; masked-off bytes are not written; AVX-512BW per the trait contract.
        unsafe { _mm512_mask_storeu_epi8(dst.cast(), transcode::low_bits64(n), self) };
        true
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn splat16(u: u16) -> Self {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_set1_epi16(u as i16) }
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
    unsafe fn any(self) -> bool {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_test_epi8_mask(self, self) != 0 }
    }
    #[inline(always)]
    unsafe fn shl16<const N: i32>(self) -> Self {
        // SAFETY: AVX-512BW per the trait contract. (The immediate form takes a `u32`,
        // which the trait's `i32` cannot be cast to in a const argument; a constant count
        // compiles to the same instruction.)
        unsafe { _mm512_sll_epi16(self, _mm_cvtsi32_si128(N)) }
    }
    #[inline(always)]
    unsafe fn shr16<const N: i32>(self) -> Self {
        // SAFETY: AVX-512BW per the trait contract; as `shl16`.
        unsafe { _mm512_srl_epi16(self, _mm_cvtsi32_si128(N)) }
    }
    #[inline(always)]
    unsafe fn zip16(self, other: Self) -> [Self; 2] {
        // SAFETY: AVX-512F/BW per the trait contract. The unpacks work within 128-bit lanes
        // (`a`: units 0..4 of each lane's 8, `b`: 4..8); the two-source permutes of 64-bit
        // lanes put them in order (indices 8.. are `b`'s).
        unsafe {
            let a = _mm512_unpacklo_epi16(self, other);
            let b = _mm512_unpackhi_epi16(self, other);
            [
                _mm512_permutex2var_epi64(a, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), b),
                _mm512_permutex2var_epi64(a, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), b),
            ]
        }
    }
    #[inline(always)]
    unsafe fn eq8(self, other: Self) -> u64 {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { _mm512_cmpeq_epi8_mask(self, other) }
    }
    #[inline(always)]
    unsafe fn eq16(self, other: Self) -> u64 {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { unit_mask_to_bytes(_mm512_cmpeq_epi16_mask(self, other)) }
    }
    #[inline(always)]
    unsafe fn below16(self, bound: u16) -> u64 {
        // SAFETY: AVX-512BW per the trait contract.
        unsafe { unit_mask_to_bytes(_mm512_cmplt_epu16_mask(self, _mm512_set1_epi16(bound as i16))) }
    }
    #[inline(always)]
    unsafe fn select(mask: u64, a: Self, b: Self) -> Self {
        // SAFETY: AVX-512BW per the trait contract. `mask_blend` takes its second operand
        // where the mask is set.
        unsafe { _mm512_mask_blend_epi8(mask, b, a) }
    }
    #[inline(always)]
    unsafe fn mask_any(mask: u64) -> bool {
        mask != 0
    }
    #[inline(always)]
    unsafe fn mask_bits16(mask: u64) -> u64 {
        // SAFETY: BMI2 per the trait contract (part of this level). The low byte's bit of
        // each u16 lane (2i) becomes bit i, then bit 8j + k goes to 16j + k.
        unsafe { _pdep_u64(_pext_u64(mask, 0x5555_5555_5555_5555), 0x00FF_00FF_00FF_00FF) }
    }
    #[inline(always)]
    unsafe fn load_units_narrow(src: *const u8, be: bool) -> (Self, Self) {
        // SAFETY: caller guarantees 128 readable bytes and AVX-512BW.
        unsafe {
            let a = _mm512_loadu_si512(src.cast());
            let b = _mm512_loadu_si512(src.add(64).cast());
            // As at AVX2: a big-endian ASCII unit reads as its byte in bits 8..16.
            let not_ascii = if be { 0x80FFu16 } else { 0xFF80 };
            let bad = _mm512_and_si512(_mm512_or_si512(a, b), _mm512_set1_epi16(not_ascii as i16));
            let (a, b) = if be {
                (_mm512_srli_epi16::<8>(a), _mm512_srli_epi16::<8>(b))
            } else {
                (a, b)
            };
            // `vpmovwb` truncates each unit to its low byte.
            let lo = _mm512_cvtepi16_epi8(a);
            let hi = _mm512_cvtepi16_epi8(b);
            (_mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi), bad)
        }
    }
}

super::entry_points!(avx512, __m512i, {
    ascii_prefix_len(src: &[u8]) -> usize = generic::ascii::prefix_len;
    widen_ascii(src: &[u8], dst: &mut [u16]) -> usize = generic::ascii::widen;
    narrow_ascii(src: &[u16], dst: &mut OutBytes) -> usize = generic::ascii::narrow;
    utf8_to_latin1(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) = generic::latin1::utf8_to_latin1;
    latin1_to_utf8(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) = generic::latin1::latin1_to_utf8;
    utf16_bytes_to_utf16(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize) = generic::utf16::bytes_to_utf16;
});

pub(crate) const TABLE: Kernels = Kernels {
    level: Level::Avx512,
    ascii_prefix_len,
    // AVX2's: the runs it copies end at a non-ASCII byte, in text often within 64 bytes, and
    // there the 32-byte loop measured faster (French encode at AVX-512 3.57 -> 3.85 GB/s; long
    // runs equal, both at two loads a cycle).
    copy_ascii: super::avx2::KERNELS.copy_ascii,
    copy_ascii_loose: super::avx2::KERNELS.copy_ascii_loose,
    widen_ascii,
    narrow_ascii,
    utf8_to_latin1,
    latin1_to_utf8,
    utf16_bytes_to_utf16,
    utf8_valid_up_to,
    utf8_copy_valid,
    single_byte_to_utf16,
    single_byte_to_utf8,
    utf8_to_utf16: transcode::utf8_to_utf16,
    // The same kernel: its vector loop fills the output itself (a block whose units do not
    // all fit is cut to those that do), so there is no scalar tail to leave out.
    utf8_to_utf16_stage: transcode::utf8_to_utf16,
    utf16_to_utf8: transcode::utf16_to_utf8,
    utf16_bytes_to_utf8: transcode::utf16_bytes_to_utf8,
    cjk_to_utf8: cjk::cjk_to_utf8,
    cjk_to_utf16: cjk::cjk_to_utf16,
    utf16_to_legacy: cjk::utf16_to_legacy,
    tuning: Tuning {
        call_cjk_decode: true,
        call_legacy_encode: true,
        stage_encode_in_utf16: true,
        stage_encode_min: 32,
        // Its transcoder takes 32 units in vector code; from 64, single-byte encodes were 4%
        // slower (docs/decisions.md, "Encode stages").
        stage_units_min: 32,
    },
};

pub(crate) static KERNELS: Kernels = TABLE;

/// [`TABLE`] with the loose ASCII copy as `copy_ascii`: see `Kernels::for_spare_output`.
pub(crate) static SPARE_OUTPUT: Kernels = Kernels {
    copy_ascii: TABLE.copy_ascii_loose,
    ..TABLE
};

impl generic::utf8::Utf8Vector for __m512i {
    #[inline(always)]
    unsafe fn repeat16(table: &[u8; 16]) -> Self {
        // SAFETY: the 16 bytes of `table` are readable; AVX-512F per the trait contract.
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(table.as_ptr().cast())) }
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
    const LOOKUP_THEN_SHIFT: bool = true;
    #[inline(always)]
    unsafe fn shifted<const N: usize>(self, prev: Self) -> Self {
        // SAFETY: AVX-512VBMI per the trait contract.
        unsafe { shifted_in::<N>(self, prev) }
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
    #[inline(always)]
    unsafe fn lookup_high(self, table: Self) -> Self {
        // SAFETY: AVX-512BW/VBMI per the trait contract. `vpermb` indexes by the low 6 bits,
        // and `table` repeats its 16 entries every 16 bytes, so bits 4-5 (the neighbour
        // byte's, after the 16-bit shift) do not matter: no mask needed.
        unsafe { _mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(self), table) }
    }
    #[inline(always)]
    unsafe fn lookup_low(self, table: Self) -> Self {
        // SAFETY: AVX-512VBMI per the trait contract; as `lookup_high`, bits 4-5 do not
        // matter and bits 6-7 are not used.
        unsafe { _mm512_permutexvar_epi8(self, table) }
    }
    #[inline(always)]
    unsafe fn and3(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F per the trait contract. Truth table of a & b & c.
        unsafe { _mm512_ternarylogic_epi32::<0x80>(self, b, c) }
    }
    #[inline(always)]
    unsafe fn or_and(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F per the trait contract. Truth table of (a | b) & c.
        unsafe { _mm512_ternarylogic_epi32::<0xA8>(self, b, c) }
    }
    #[inline(always)]
    unsafe fn or_xor(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F per the trait contract. Truth table of a | (b ^ c).
        unsafe { _mm512_ternarylogic_epi32::<0xF6>(self, b, c) }
    }
    #[inline(always)]
    unsafe fn load_after_zeros(src: *const u8, skip: usize) -> Option<Self> {
        // SAFETY: the expand load reads exactly as many bytes as the mask has bits,
        // `64 - skip`, which the caller guarantees readable, into lanes `skip..64`;
        // AVX-512VBMI2 per the trait contract.
        unsafe {
            Some(_mm512_maskz_expandloadu_epi8(
                !transcode::low_bits64(skip),
                src.cast(),
            ))
        }
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

/// Byte `i` of the stream `prev ++ cur` `N` places before byte `i` of `cur` (`N` = 1, 2, 3):
/// one `vpermt2b`, where `alignr` on the lanes before takes one lane permute for the three
/// shifts and one `alignr` each.
///
/// # Safety
/// AVX-512F and AVX-512VBMI are enabled in the caller.
#[inline(always)]
unsafe fn shifted_in<const N: usize>(cur: __m512i, prev: __m512i) -> __m512i {
    // SAFETY: reads the 64 bytes of `SHIFT_IN[N - 1]` (N is 1, 2 or 3); AVX-512VBMI per the
    // contract. Byte indices 0..64 pick from `prev`, 64..128 from `cur`.
    unsafe {
        let idx = _mm512_loadu_si512(SHIFT_IN[N - 1].as_ptr().cast());
        _mm512_permutex2var_epi8(prev, idx, cur)
    }
}

/// `SHIFT_IN[n - 1][i]` is `64 + i - n`: the byte `n` places before byte `i` of the second
/// operand of `vpermt2b`, in the first operand for the first `n` bytes.
const SHIFT_IN: [[u8; 64]; 3] = {
    let mut v = [[0u8; 64]; 3];
    let mut n = 0;
    while n < 3 {
        let mut i = 0;
        while i < 64 {
            v[n][i] = (64 + i - (n + 1)) as u8;
            i += 1;
        }
        n += 1;
    }
    v
};

super::entry_points!(avx512, __m512i, {
    utf8_valid_up_to(src: &[u8]) -> usize = generic::utf8::valid_up_to;
    utf8_copy_valid(src: &[u8], dst: &mut OutBytes) -> (usize, usize) = generic::utf8::copy_valid;
});

/// A single-byte table split into the low and high bytes of its 128 entries, each in two
/// 64-byte vectors: the operands of one `vpermi2b` (128-entry byte lookup, AVX-512 VBMI).
struct SplitTable {
    lo: [__m512i; 2],
    hi: [__m512i; 2],
}

/// Splits `table` in registers (four `vpermt2b`, no scalar loop: small inputs pay little).
///
/// # Safety
/// AVX-512F, AVX-512BW and AVX-512VBMI are enabled in the caller.
#[inline(always)]
unsafe fn split_table(table: &[u16; 128]) -> SplitTable {
    let t = table.as_ptr();
    // SAFETY: the four loads read the 256 bytes of `table`; the ISA per the contract.
    unsafe {
        let q = [
            _mm512_loadu_si512(t.cast()),
            _mm512_loadu_si512(t.add(32).cast()),
            _mm512_loadu_si512(t.add(64).cast()),
            _mm512_loadu_si512(t.add(96).cast()),
        ];
        // Byte j of `even` picks byte 2j of the 128 bytes (a, b); `odd` byte 2j + 1.
        let even = _mm512_loadu_si512(EVEN_BYTES.as_ptr().cast());
        let odd = _mm512_add_epi8(even, _mm512_set1_epi8(1));
        SplitTable {
            lo: [
                _mm512_permutex2var_epi8(q[0], even, q[1]),
                _mm512_permutex2var_epi8(q[2], even, q[3]),
            ],
            hi: [
                _mm512_permutex2var_epi8(q[0], odd, q[1]),
                _mm512_permutex2var_epi8(q[2], odd, q[3]),
            ],
        }
    }
}

/// `0, 2, 4, …, 126`: the even bytes of two vectors, for `vpermt2b`.
static EVEN_BYTES: [u8; 64] = {
    let mut v = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        v[i] = 2 * i as u8;
        i += 1;
    }
    v
};

/// Byte `2j` is `j + base`, byte `2j + 1` is `64 + j + base`: interleaves the low bytes
/// (first operand) and high bytes (second operand) of code units `base..base + 32`.
static INTERLEAVE: [[u8; 64]; 2] = {
    let mut v = [[0u8; 64]; 2];
    let mut half = 0;
    while half < 2 {
        let mut j = 0;
        while j < 32 {
            v[half][2 * j] = (32 * half + j) as u8;
            v[half][2 * j + 1] = (64 + 32 * half + j) as u8;
            j += 1;
        }
        half += 1;
    }
    v
};

/// Decodes 64 bytes through a split table: the code units, bytes 0..32 and 32..64 in u16
/// lanes, and the mask of unmapped bytes. ASCII lanes are the byte itself (`vpermi2b`
/// merge-masked into its index operand); upper lanes are looked up by their low 7 bits.
///
/// # Safety
/// AVX-512F, AVX-512BW and AVX-512VBMI are enabled in the caller.
#[inline(always)]
unsafe fn decode_64(v: __m512i, t: &SplitTable) -> ([__m512i; 2], u64) {
    // SAFETY: register operations and reads of the two 64-byte statics; the ISA per the
    // contract.
    unsafe {
        let upper = _mm512_movepi8_mask(v);
        let lo = _mm512_mask2_permutex2var_epi8(t.lo[0], v, upper, t.lo[1]);
        let hi = _mm512_maskz_permutex2var_epi8(upper, t.hi[0], v, t.hi[1]);
        let any = _mm512_or_si512(lo, hi);
        let unmapped = _mm512_mask_testn_epi8_mask(upper, any, any);
        let units = [
            _mm512_permutex2var_epi8(lo, _mm512_loadu_si512(INTERLEAVE[0].as_ptr().cast()), hi),
            _mm512_permutex2var_epi8(lo, _mm512_loadu_si512(INTERLEAVE[1].as_ptr().cast()), hi),
        ];
        (units, unmapped)
    }
}

crate::simd::x86::with_features! { avx512,
/// Single-byte decode to UTF-16, 64 bytes at a time, each decoded by [`decode_64`]. The loop
/// carries no dependency through the data (a block advances by 64 or leaves the loop), so
/// blocks overlap in the pipeline; the block with an unmapped byte, or the last partial
/// block, is loaded and stored with masks after the loop. Either stops where the scalar
/// kernel stops: at the first unmapped byte or at the end of the shorter slice.
/// (An advance that depends on the data would feed the next load: docs/decisions.md,
/// "Kernel tuning".)
fn single_byte_to_utf16(src: &[u8], table: &[u16; 128], dst: &mut [u16]) -> (usize, usize) {
    let len = src.len().min(dst.len());
    if len == 0 {
        return (0, 0);
    }
    // SAFETY: AVX-512F/BW/VBMI are enabled on this function.
    let t = unsafe { split_table(table) };
    let mut i = 0;
    while i + 64 <= len {
        // SAFETY: `i + 64 <= len <= src.len()`: the load reads `src[i..i + 64]`.
        let (units, unmapped) = unsafe { decode_64(_mm512_loadu_si512(src.as_ptr().add(i).cast()), &t) };
        if unmapped != 0 {
            break;
        }
        // SAFETY: `i + 64 <= len <= dst.len()`: the stores write `dst[i..i + 64]`.
        unsafe {
            let at = dst.as_mut_ptr().add(i);
            _mm512_storeu_si512(at.cast(), units[0]);
            _mm512_storeu_si512(at.add(32).cast(), units[1]);
        }
        i += 64;
    }
    // The block with the unmapped byte, or the last partial one: masked.
    let n = (len - i).min(64);
    let k = _bzhi_u64(!0, n as u32);
    // SAFETY: the load reads the `n` bytes `src[i..i + n]` (`i + n <= len <= src.len()`); the
    // mask keeps the other lanes from being accessed. AVX-512BW/VBMI are enabled.
    let (units, unmapped) = unsafe {
        let v = _mm512_maskz_loadu_epi8(k, src.as_ptr().add(i).cast());
        decode_64(v, &t)
    };
    let unmapped = unmapped & k;
    let keep = if unmapped == 0 {
        n
    } else {
        unmapped.trailing_zeros() as usize
    };
    let lanes = _bzhi_u64(!0, keep as u32);
    // SAFETY: the masked stores write the `keep` u16 `dst[i..i + keep]`, and
    // `i + keep <= i + n <= len <= dst.len()`; AVX-512BW is enabled.
    unsafe {
        let at = dst.as_mut_ptr().add(i);
        _mm512_mask_storeu_epi16(at.cast(), lanes as u32, units[0]);
        _mm512_mask_storeu_epi16(at.add(32).cast(), (lanes >> 32) as u32, units[1]);
    }
    i += keep;
    (i, i)
}
}

crate::simd::x86::with_features! { avx512,
/// Single-byte decode to UTF-8, 64 bytes at a time: ASCII blocks are copied; otherwise the
/// code units (see [`decode_64`]) are converted to UTF-8 in registers per 32 — all at once
/// when they are below U+0800 (Cyrillic, Greek, Hebrew, Arabic), else per 16 in u32 lanes
/// (Thai, punctuation) — and the bytes compressed and stored if the whole block fits. The
/// last part of the input (under 64 bytes) is one more block, loaded with a mask and
/// converted the same way, so small inputs do not fall to the scalar kernel. A block that
/// does not fit, or one with an unmapped byte, goes to the scalar kernel, which stops
/// exactly where it must: the vector loop stops only at block boundaries after converting
/// every character before them, so the result equals the scalar kernel's.
///
/// As for UTF-16, the read position advances by 64 per block whatever the block holds, so
/// only the write position (a sum of byte counts) is carried from block to block.
///
/// `popcnt` is enabled besides the level's features: see `transcode`'s module docs.
fn single_byte_to_utf8(src: &[u8], table: &[u16; 128], dst: &mut OutBytes) -> (usize, usize) {
    let (mut r, mut w) = (0, 0);
    if !src.is_empty() {
        // SAFETY: AVX-512F/BW/VBMI are enabled on this function.
        let t = unsafe { split_table(table) };
        while r < src.len() {
            // A whole block, or the last part of the input (masked: zeros after it).
            let n = (src.len() - r).min(64);
            let k = _bzhi_u64(!0, n as u32);
            // SAFETY: the load reads the `n` bytes `src[r..r + n]` (`r + n <= src.len()`); the
            // mask keeps the lanes after them from being accessed.
            let v = unsafe { _mm512_maskz_loadu_epi8(k, src.as_ptr().add(r).cast()) };
            let high = _mm512_movepi8_mask(v);
            if high == 0 {
                if w + n > dst.len() {
                    break;
                }
                // SAFETY: `w + n <= dst.len()`: the store writes `dst[w..w + n]` (whole when `n`
                // is 64: masked stores to memory cost more on Zen 4).
                unsafe {
                    if n == 64 {
                        _mm512_storeu_si512(dst.as_mut_ptr().add(w).cast(), v);
                    } else {
                        _mm512_mask_storeu_epi8(dst.as_mut_ptr().add(w).cast(), k, v);
                    }
                }
                r += n;
                w += n;
                continue;
            }
            if high & (high - 1) == 0 && n == 64 && w + 66 <= dst.len() {
                // One letter among ASCII (Latin-script text): written alone, as in the generic
                // kernel (`generic::single_byte::to_utf8`), rather than decoding the block.
                let at = high.trailing_zeros() as usize;
                let unit = table[usize::from(src[r + at] & 0x7F)];
                if unit == 0 {
                    // Unmapped: the scalar kernel stops there.
                    break;
                }
                let len = if unit < 0x800 { 2 } else { 3 };
                let out = dst.as_mut_ptr().cast::<u8>();
                // SAFETY: the block stored `len - 1` bytes on puts its bytes after the letter
                // where they go, `dst[w + len - 1..w + len + 63]`, inside `dst` (`w + 66 <=
                // dst.len()`); the masked store then writes the `at` ASCII bytes before the
                // letter at `dst[w..w + at]`. The ISA is enabled on this function.
                unsafe {
                    _mm512_storeu_si512(out.add(w + len - 1).cast(), v);
                    _mm512_mask_storeu_epi8(out.add(w).cast(), _bzhi_u64(!0, at as u32), v);
                }
                // The letter over `dst[w + at..w + at + len]`, inside what the first store wrote.
                let written = super::super::scalar::put_utf8(u32::from(unit), &mut dst[w + at..w + at + len]);
                debug_assert_eq!(written, len);
                r += 64;
                w += 63 + len;
                continue;
            }
            // SAFETY: register operations; the ISA is enabled on this function.
            let (units, unmapped) = unsafe { decode_64(v, &t) };
            if unmapped != 0 {
                break;
            }
            let wide =
                _mm512_cmpge_epu16_mask(_mm512_max_epu16(units[0], units[1]), _mm512_set1_epi16(0x800));
            let mut out = [(_mm512_setzero_si512(), 0usize); 4];
            let parts = if wide == 0 {
                // SAFETY: register operations; the ISA (with popcnt) is enabled.
                unsafe {
                    out[0] = transcode::below_0800_to_utf8(units[0], k as u32);
                    out[1] = transcode::below_0800_to_utf8(units[1], (k >> 32) as u32);
                }
                2
            } else {
                // SAFETY: register operations; the ISA (with popcnt) is enabled.
                unsafe {
                    for (h, &u) in units.iter().enumerate() {
                        let lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(u));
                        let hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(u));
                        let keep = k >> (32 * h);
                        out[2 * h] = transcode::bmp_to_utf8(lo, keep as u16);
                        out[2 * h + 1] = transcode::bmp_to_utf8(hi, (keep >> 16) as u16);
                    }
                }
                4
            };
            let total: usize = out[..parts].iter().map(|&(_, n)| n).sum();
            if w + total > dst.len() {
                break;
            }
            for &(bytes, n) in &out[..parts] {
                // SAFETY: the parts' lengths add up to `total` and `w + total <= dst.len()`,
                // and each `n <= 64`: the masked store writes `dst[w..w + n]`.
                unsafe {
                    _mm512_mask_storeu_epi8(dst.as_mut_ptr().add(w).cast(), _bzhi_u64(!0, n as u32), bytes)
                };
                w += n;
            }
            r += n;
        }
    }
    let (read, written) = super::super::scalar::single_byte_to_utf8(&src[r..], table, &mut dst[w..]);
    (r + read, w + written)
}
}
