//! `Level::Avx2` = avx2 + bmi1 + bmi2 + popcnt: 32-byte vectors.

mod cjk_decode;
mod latin1;
mod legacy_encode;

use crate::simd::OutBytes;
use core::arch::x86_64::*;

use super::super::generic;
use super::super::generic::lane::{Lane, TranscodeVector};
use super::super::vector::Vector;
use super::super::{EncodeTables, Kernels, Level, PairTables, Tuning};

/// The `pshufb` rows of `TranscodeVector::load3`: `LOAD3_ROWS[k][s]` moves byte `3 * i + k`
/// of the 48 from vector `s` (bytes `16 * s..16 * s + 16`) to byte `i`, 0x80 (a zero) where it
/// is in another vector.
static LOAD3_ROWS: [[[u8; 16]; 3]; 3] = {
    let mut rows = [[[0x80u8; 16]; 3]; 3];
    let mut k = 0;
    while k < 3 {
        let mut i = 0;
        while i < 16 {
            let b = 3 * i + k;
            rows[k][b / 16][i] = (b % 16) as u8;
            i += 1;
        }
        k += 1;
    }
    rows
};

/// Result `k` of `TranscodeVector::load3` from its three vectors (see there).
///
/// # Safety
/// AVX2 is enabled in the caller; `k < 3`.
#[inline(always)]
unsafe fn load3_part(a0: __m256i, a1: __m256i, a2: __m256i, k: usize) -> __m256i {
    // SAFETY: `LOAD3_ROWS[k]` holds 3 rows of 16 bytes (`k < 3`); AVX2 per contract.
    unsafe {
        let rows = &LOAD3_ROWS[k];
        let r0 = _mm256_broadcastsi128_si256(_mm_loadu_si128(rows[0].as_ptr().cast()));
        let r1 = _mm256_broadcastsi128_si256(_mm_loadu_si128(rows[1].as_ptr().cast()));
        let r2 = _mm256_broadcastsi128_si256(_mm_loadu_si128(rows[2].as_ptr().cast()));
        let lo = _mm256_or_si256(_mm256_shuffle_epi8(a0, r0), _mm256_shuffle_epi8(a1, r1));
        _mm256_or_si256(lo, _mm256_shuffle_epi8(a2, r2))
    }
}

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
    type Mask = Self;

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
    unsafe fn load_utf16_paired(src: *const u8, be: bool) -> Option<Self> {
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
            if _mm256_testz_si256(surrogate, surrogate) == 1 {
                return Some(v);
            }
            let high = _mm256_and_si256(v, _mm256_set1_epi16(0xFC00u16 as i16));
            let lead = _mm256_movemask_epi8(_mm256_cmpeq_epi16(high, _mm256_set1_epi16(0xD800u16 as i16)));
            let trail = _mm256_movemask_epi8(_mm256_cmpeq_epi16(high, _mm256_set1_epi16(0xDC00u16 as i16)));
            // Two mask bits a unit: the trailing surrogates exactly one unit after the leading
            // ones (a leading one last would be shifted past 32 bits, and differ).
            (u64::from(lead as u32) << 2 == u64::from(trail as u32)).then_some(v)
        }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX per the trait contract.
        unsafe { _mm256_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn splat16(u: u16) -> Self {
        // SAFETY: AVX per the trait contract.
        unsafe { _mm256_set1_epi16(u as i16) }
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
    unsafe fn any(self) -> bool {
        // SAFETY: AVX per the trait contract.
        unsafe { _mm256_testz_si256(self, self) == 0 }
    }
    #[inline(always)]
    unsafe fn shl16<const N: i32>(self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_slli_epi16::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shr16<const N: i32>(self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_srli_epi16::<N>(self) }
    }
    #[inline(always)]
    unsafe fn zip16(self, other: Self) -> [Self; 2] {
        // SAFETY: AVX2 per the trait contract. The unpacks work within 128-bit lanes (`a`:
        // units 0..4 and 8..12, `b`: 4..8 and 12..16); the permutes put them in order.
        unsafe {
            let a = _mm256_unpacklo_epi16(self, other);
            let b = _mm256_unpackhi_epi16(self, other);
            [
                _mm256_permute2x128_si256::<0x20>(a, b),
                _mm256_permute2x128_si256::<0x31>(a, b),
            ]
        }
    }
    #[inline(always)]
    unsafe fn eq8(self, other: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_cmpeq_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn eq16(self, other: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_cmpeq_epi16(self, other) }
    }
    #[inline(always)]
    unsafe fn below16(self, bound: u16) -> Self {
        // SAFETY: AVX2 per the trait contract. `bound >= 1`: u < bound exactly when
        // min(u, bound - 1) == u.
        unsafe {
            _mm256_cmpeq_epi16(
                _mm256_min_epu16(self, _mm256_set1_epi16((bound - 1) as i16)),
                self,
            )
        }
    }
    #[inline(always)]
    unsafe fn select(mask: Self, a: Self, b: Self) -> Self {
        // SAFETY: AVX2 per the trait contract (a mask's bytes are 0 or 0xFF).
        unsafe { _mm256_blendv_epi8(b, a, mask) }
    }
    #[inline(always)]
    unsafe fn mask_any(mask: Self) -> bool {
        // SAFETY: AVX per the trait contract.
        unsafe { _mm256_testz_si256(mask, mask) == 0 }
    }
    #[inline(always)]
    unsafe fn mask_bits16(mask: Self) -> u64 {
        // SAFETY: AVX2 per the trait contract. Per 128-bit lane, 0xFFFF packs to 0xFF, 0 to
        // 0, in bytes 0..8 of the lane; bytes 8..16 are the zeros packed.
        unsafe { u64::from(_mm256_movemask_epi8(_mm256_packs_epi16(mask, _mm256_setzero_si256())) as u32) }
    }
    #[inline(always)]
    unsafe fn load_units_narrow(src: *const u8, be: bool) -> (Self, Self) {
        // SAFETY: caller guarantees 64 readable bytes and AVX2.
        unsafe {
            let a = _mm256_loadu_si256(src.cast());
            let b = _mm256_loadu_si256(src.add(32).cast());
            // A big-endian ASCII unit is a zero byte, then the ASCII byte: read little-endian,
            // bits 0..8 clear and the ASCII byte in bits 8..16.
            let not_ascii = if be { 0x80FFu16 } else { 0xFF80 };
            let bad = _mm256_and_si256(_mm256_or_si256(a, b), _mm256_set1_epi16(not_ascii as i16));
            let (a, b) = if be {
                (_mm256_srli_epi16::<8>(a), _mm256_srli_epi16::<8>(b))
            } else {
                (a, b)
            };
            // Where all units are below 0x80 packus is exact; fix the lane interleaving.
            let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b));
            (packed, bad)
        }
    }
}

super::entry_points!(avx2, __m256i, {
    ascii_prefix_len(src: &[u8]) -> usize = generic::ascii::prefix_len;
    copy_ascii(src: &[u8], dst: &mut OutBytes) -> usize = generic::ascii::copy;
    copy_ascii_loose(src: &[u8], dst: &mut OutBytes) -> usize = generic::ascii::copy_loose;
    widen_ascii(src: &[u8], dst: &mut [u16]) -> usize = generic::ascii::widen;
    narrow_ascii(src: &[u16], dst: &mut OutBytes) -> usize = generic::ascii::narrow;
    utf8_to_latin1(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) = generic::latin1::utf8_to_latin1;
    latin1_to_utf8(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) = generic::latin1::latin1_to_utf8;
    utf16_bytes_to_utf16(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize) = generic::utf16::bytes_to_utf16;
    utf16_to_legacy(src: &[u16], tables: &EncodeTables, dst: &mut OutBytes) -> (usize, usize) = generic::legacy_encode::utf16_to_legacy;
    cjk_to_utf8(src: &[u8], tables: &PairTables, dst: &mut OutBytes) -> (usize, usize) = generic::cjk_decode::to_utf8;
    cjk_to_utf16(src: &[u8], tables: &PairTables, dst: &mut [u16]) -> (usize, usize) = generic::cjk_decode::to_utf16;
});

pub(crate) const TABLE: Kernels = Kernels {
    level: Level::Avx2,
    ascii_prefix_len,
    copy_ascii,
    copy_ascii_loose,
    widen_ascii,
    narrow_ascii,
    utf8_to_latin1,
    latin1_to_utf8,
    utf16_bytes_to_utf16,
    utf8_valid_up_to,
    utf8_copy_valid,
    utf8_to_utf16,
    utf8_to_utf16_stage,
    utf16_to_utf8,
    utf16_bytes_to_utf8,
    single_byte_to_utf16,
    single_byte_to_utf8,
    cjk_to_utf8,
    cjk_to_utf16,
    utf16_to_legacy,
    tuning: Tuning {
        call_cjk_decode: true,
        // The gathering `utf16_to_legacy` measured no faster than the codecs' own loops
        // (docs/decisions.md, "utf16_to_legacy at AVX2").
        call_legacy_encode: false,
        stage_encode_in_utf16: false,
        stage_encode_min: 32,
        stage_units_min: 32,
    },
};

pub(crate) static KERNELS: Kernels = TABLE;

/// [`TABLE`] with the loose ASCII copy as `copy_ascii`: see `Kernels::for_spare_output`.
pub(crate) static SPARE_OUTPUT: Kernels = Kernels {
    copy_ascii: TABLE.copy_ascii_loose,
    ..TABLE
};

impl generic::utf8::Utf8Vector for __m256i {
    #[inline(always)]
    unsafe fn repeat16(table: &[u8; 16]) -> Self {
        // SAFETY: the 16 bytes of `table` are readable; AVX2 per the trait contract.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast())) }
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
    unsafe fn incomplete_limits() -> Self {
        let mut limits = [0xFFu8; 32];
        limits[29] = 0xF0 - 1;
        limits[30] = 0xE0 - 1;
        limits[31] = 0xC0 - 1;
        // SAFETY: 32 readable bytes; AVX per the trait contract.
        unsafe { _mm256_loadu_si256(limits.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn continuations(self) -> Self {
        // SAFETY: AVX2 per the trait contract. As signed bytes, continuation bytes are
        // -128..=-65: below -64.
        unsafe { _mm256_cmpgt_epi8(_mm256_set1_epi8(-64), self) }
    }
}

super::entry_points!(avx2, __m256i, {
    utf8_valid_up_to(src: &[u8]) -> usize = generic::utf8::valid_up_to;
    utf8_copy_valid(src: &[u8], dst: &mut OutBytes) -> (usize, usize) = generic::utf8::copy_valid;
});

impl generic::single_byte::SingleByteVector for __m256i {
    /// Low bytes, then high bytes, each as 8 groups of 16 entries repeated in both lanes.
    type Table = [[__m256i; 8]; 2];

    #[inline(always)]
    unsafe fn load_table(lo: &[u8; 128], hi: &[u8; 128]) -> Self::Table {
        // SAFETY: AVX per the trait contract.
        let mut table = [[unsafe { _mm256_setzero_si256() }; 8]; 2];
        for (groups, half) in table.iter_mut().zip([lo, hi]) {
            for (g, group) in groups.iter_mut().enumerate() {
                // SAFETY: the load reads 16 of the 128 bytes of `half` (`16 * g + 16 <= 128`);
                // AVX2 per the trait contract.
                *group =
                    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(half.as_ptr().add(16 * g).cast())) };
            }
        }
        table
    }
    #[inline(always)]
    unsafe fn lookup(self, table: &Self::Table) -> (Self, Self) {
        // SAFETY: AVX2 per the trait contract.
        unsafe {
            // ASCII bytes (non-negative as i8) are their own low byte.
            let mut lo = _mm256_max_epi8(self, _mm256_setzero_si256());
            let mut hi = _mm256_setzero_si256();
            for (g, (&lo_group, &hi_group)) in table[0].iter().zip(&table[1]).enumerate() {
                // Bytes of group g (0x80 + 16g ..) become 0x70..0x7F, all others 0x80 or
                // more (saturating add): `vpshufb` looks up the first by their low nibble and
                // gives 0 for the others.
                let base = _mm256_set1_epi8((0x80 + 16 * g) as u8 as i8);
                let idx = _mm256_adds_epu8(_mm256_xor_si256(self, base), _mm256_set1_epi8(0x70));
                lo = _mm256_or_si256(lo, _mm256_shuffle_epi8(lo_group, idx));
                hi = _mm256_or_si256(hi, _mm256_shuffle_epi8(hi_group, idx));
            }
            (lo, hi)
        }
    }
    #[inline(always)]
    unsafe fn shl2_small(self) -> Self {
        // SAFETY: AVX2 per the trait contract. Bytes below 0x40 carry nothing into the next.
        unsafe { _mm256_slli_epi16::<2>(self) }
    }
    #[inline(always)]
    unsafe fn shr6(self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_and_si256(_mm256_srli_epi16::<6>(self), _mm256_set1_epi8(0x03)) }
    }
    #[inline(always)]
    unsafe fn zip(self, other: Self) -> [Self; 2] {
        // SAFETY: AVX2 per the trait contract. The unpacks work within 128-bit lanes: `a`
        // holds pairs 0..8 and 16..24, `b` pairs 8..16 and 24..32.
        unsafe {
            let a = _mm256_unpacklo_epi8(self, other);
            let b = _mm256_unpackhi_epi8(self, other);
            [
                _mm256_permute2x128_si256::<0x20>(a, b),
                _mm256_permute2x128_si256::<0x31>(a, b),
            ]
        }
    }
    #[inline(always)]
    unsafe fn compact_pairs(self, ones: u64, dst: *mut u8) -> usize {
        use generic::single_byte::TAIL8;
        use generic::utf16_to_utf8::ROWS12;
        let (m0, m1) = (ones as u8, (ones >> 8) as u8);
        // Each piece of 8 pairs is 8..=16 bytes.
        let n0 = 16 - m0.count_ones() as usize;
        let n1 = 16 - m1.count_ones() as usize;
        // SAFETY: the loads read 16-byte rows of `ROWS12` and `TAIL8` (`n1 - 8 <= 8`). The
        // stores write `dst[..16]` (`16 <= n0 + n1`), `dst[n0..n0 + 8]` and
        // `dst[n0 + n1 - 8..n0 + n1]`: within the `n0 + n1` bytes the caller guarantees, and
        // the last two cover `dst[n0..16]` (`n0, n1 >= 8`), which the first filled with
        // bytes past the first piece. AVX2 per the trait contract.
        unsafe {
            let pattern = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm_loadu_si128(ROWS12[usize::from(m0)].as_ptr().cast())),
                _mm_loadu_si128(ROWS12[usize::from(m1)].as_ptr().cast()),
            );
            let v = _mm256_shuffle_epi8(self, pattern);
            _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(v));
            let second = _mm256_extracti128_si256::<1>(v);
            _mm_storel_epi64(dst.add(n0).cast(), second);
            let tail = _mm_shuffle_epi8(second, _mm_loadu_si128(TAIL8[n1 - 8].as_ptr().cast()));
            _mm_storel_epi64(dst.add(n0 + n1 - 8).cast(), tail);
        }
        n0 + n1
    }
    #[inline(always)]
    unsafe fn compact_quads(self, ones: u64, threes: u64, dst: *mut u8) -> usize {
        use generic::single_byte::quad_row;
        let (row0, n0) = quad_row(ones as u8, threes as u8);
        let (row1, n1) = quad_row((ones >> 4) as u8, (threes >> 4) as u8);
        // SAFETY: the loads read the 16-byte rows `row0`, `row1`; `store_exact` writes `dst[..n0]`
        // and `dst[n0..n0 + n1]`, the count the caller guarantees room for. AVX2 per the
        // trait contract.
        unsafe {
            let pattern = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm_loadu_si128(row0.as_ptr().cast())),
                _mm_loadu_si128(row1.as_ptr().cast()),
            );
            let v = _mm256_shuffle_epi8(self, pattern);
            store_exact(_mm256_castsi256_si128(v), n0, dst);
            store_exact(_mm256_extracti128_si256::<1>(v), n1, dst.add(n0));
        }
        n0 + n1
    }
}

/// Writes the first `n` bytes of `v` (`4 <= n <= 12`) to `dst` with three 4-byte stores,
/// from 0, from `min(4, n - 4)` and from `n - 4`, which cover `dst[..n]` and nothing more.
///
/// # Safety
/// - AVX2 is enabled in the caller.
/// - `4 <= n <= 12` and `dst` is valid for writing `n` bytes.
#[inline(always)]
unsafe fn store_exact(v: __m128i, n: usize, dst: *mut u8) {
    debug_assert!((4..=12).contains(&n));
    let mid = n.min(8) - 4;
    // SAFETY: the stores write 4 bytes at offsets 0, `mid` and `n - 4`, each `<= n - 4`:
    // inside the `n` bytes of the contract (unaligned writes, as `write_unaligned` allows).
    // `bytes_from` reads `TAIL8` rows up to 8 (`mid, n - 4 <= 8`). AVX2 per the contract.
    unsafe {
        dst.cast::<i32>().write_unaligned(_mm_cvtsi128_si32(v));
        dst.add(mid).cast::<i32>().write_unaligned(bytes_from(v, mid));
        dst.add(n - 4).cast::<i32>().write_unaligned(bytes_from(v, n - 4));
    }
}

/// Bytes `s..s + 4` of `v`, as the low 32 bits.
///
/// # Safety
/// - AVX2 is enabled in the caller.
/// - `s <= 8`.
#[inline(always)]
unsafe fn bytes_from(v: __m128i, s: usize) -> i32 {
    // SAFETY: `TAIL8` has rows 0..=8; AVX2 per the contract.
    unsafe {
        let pattern = _mm_loadu_si128(generic::single_byte::TAIL8[s].as_ptr().cast());
        _mm_cvtsi128_si32(_mm_shuffle_epi8(v, pattern))
    }
}

super::entry_points!(avx2, __m256i, {
    single_byte_to_utf16(src: &[u8], table: &[u16; 128], dst: &mut [u16]) -> (usize, usize) = generic::single_byte::to_utf16;
    single_byte_to_utf8(src: &[u8], table: &[u16; 128], dst: &mut OutBytes) -> (usize, usize) = generic::single_byte::to_utf8;
});

/// The transcoders shuffle 16 bytes at a time (see `generic::lane`); the ASCII runs and the
/// validation use the whole `__m256i`.
impl TranscodeVector for __m256i {
    type Lane = Xmm;
    const UTF16_LETTERS: bool = false;

    #[inline(always)]
    unsafe fn load_units(src: *const u8, be: bool) -> Self {
        // SAFETY: caller guarantees 32 readable bytes and AVX2.
        unsafe {
            let v = _mm256_loadu_si256(src.cast());
            if be { _mm256_shuffle_epi8(v, swap16()) } else { v }
        }
    }
    #[inline(always)]
    unsafe fn unit_pair_bits(a: Self, b: Self) -> u64 {
        // SAFETY: AVX2 per the trait contract. The two bits of a u16 lane's bytes are equal.
        unsafe {
            let a = _mm256_movemask_epi8(a) as u32 & 0x5555_5555;
            let b = _mm256_movemask_epi8(b) as u32 & 0xAAAA_AAAA;
            u64::from(a | b)
        }
    }
    #[inline(always)]
    unsafe fn store_low_bytes(self, dst: *mut u8) {
        // SAFETY: caller guarantees 16 writable bytes and AVX2. The units are below 0x100
        // where it is used (`packus` saturates the others).
        unsafe {
            let bytes = _mm_packus_epi16(_mm256_castsi256_si128(self), _mm256_extracti128_si256::<1>(self));
            _mm_storeu_si128(dst.cast(), bytes);
        }
    }
    #[inline(always)]
    unsafe fn max_class16(self) -> u16 {
        // SAFETY: AVX per the trait contract.
        unsafe {
            if _mm256_testz_si256(self, _mm256_set1_epi16(0xFF80u16 as i16)) == 1 {
                0
            } else if _mm256_testz_si256(self, _mm256_set1_epi16(0xF800u16 as i16)) == 1 {
                0x80
            } else {
                0x800
            }
        }
    }
    #[inline(always)]
    unsafe fn max8(self, other: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_max_epu8(self, other) }
    }
    #[inline(always)]
    unsafe fn load3(src: *const u8) -> [Self; 3] {
        // SAFETY: caller guarantees 96 readable bytes and AVX2: vector `s` holds bytes
        // `16 * s..16 * s + 16` in its low lane and `48 + 16 * s..64 + 16 * s` in its high
        // one, all inside the 96; `LOAD3_ROWS` has rows 0..3 of 3. (No closures here: they
        // would not inherit the caller's target features, nor be inlined.)
        unsafe {
            let a0 = _mm256_loadu2_m128i(src.add(48).cast(), src.cast());
            let a1 = _mm256_loadu2_m128i(src.add(64).cast(), src.add(16).cast());
            let a2 = _mm256_loadu2_m128i(src.add(80).cast(), src.add(32).cast());
            [
                load3_part(a0, a1, a2, 0),
                load3_part(a0, a1, a2, 1),
                load3_part(a0, a1, a2, 2),
            ]
        }
    }
    #[inline(always)]
    unsafe fn lane(self, j: usize) -> Xmm {
        // SAFETY: AVX2 per the trait contract.
        unsafe {
            Xmm(if j == 0 {
                _mm256_castsi256_si128(self)
            } else {
                _mm256_extracti128_si256::<1>(self)
            })
        }
    }
    #[inline(always)]
    unsafe fn utf8_to_utf16_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize, generic::utf8_to_utf16::Then) {
        // SAFETY: the caller has AVX2 enabled (the trait contract), which `utf8_to_utf16_blocks`
        // needs.
        unsafe { utf8_to_utf16_blocks(src, dst, read, written) }
    }
    #[inline(always)]
    unsafe fn utf8_to_utf16_three_byte_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize) {
        // SAFETY: the caller has AVX2 enabled (the trait contract), which the function needs;
        // `read` is a character boundary per the contract.
        unsafe { utf8_to_utf16_three_byte_blocks(src, dst, read, written) }
    }
    #[inline(always)]
    unsafe fn utf8_to_utf16_long(src: &[u8], dst: &mut [u16], stage: bool) -> (usize, usize) {
        // SAFETY: the caller has AVX2 enabled (the trait contract), which the function needs.
        unsafe { utf8_to_utf16_long(src, dst, stage) }
    }
    #[inline(always)]
    unsafe fn utf8_to_utf16_two_byte_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize, bool) {
        // SAFETY: the caller has AVX2 enabled (the trait contract), which the function needs;
        // `read` is a character boundary per the contract.
        unsafe { utf8_to_utf16_two_byte_blocks(src, dst, read, written) }
    }
}

/// The 16-byte lane of the AVX2 transcoders: an SSE2 vector with SSSE3/SSE4.1 operations,
/// VEX-encoded under the AVX2 entry points (AVX2 implies both), which is what "the ISA is
/// enabled in the caller" means for this type. A type of its own so that the SSE2 level's
/// `__m128i` keeps SSE2 alone; what the two share, this one takes from `__m128i`.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Xmm(__m128i);

impl Vector for Xmm {
    const LANES: usize = 16;
    type Mask = Self;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(__m128i::load(src)) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { self.0.store(dst) }
    }
    #[inline(always)]
    unsafe fn widen_store(self, dst: *mut u16) {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { self.0.widen_store(dst) }
    }
    #[inline(always)]
    unsafe fn load_utf16_paired(src: *const u8, be: bool) -> Option<Self> {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { __m128i::load_utf16_paired(src, be).map(Xmm) }
    }
    #[inline(always)]
    unsafe fn high_mask(self) -> u64 {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { self.0.high_mask() }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(__m128i::splat(b)) }
    }
    #[inline(always)]
    unsafe fn splat16(u: u16) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(__m128i::splat16(u)) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(self.0.and(other.0)) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(self.0.or(other.0)) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(self.0.xor(other.0)) }
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: SSE4.1 (`ptest`) per this type's contract.
        unsafe { _mm_testz_si128(self.0, self.0) == 0 }
    }
    #[inline(always)]
    unsafe fn shl16<const N: i32>(self) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(self.0.shl16::<N>()) }
    }
    #[inline(always)]
    unsafe fn shr16<const N: i32>(self) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(self.0.shr16::<N>()) }
    }
    #[inline(always)]
    unsafe fn zip16(self, other: Self) -> [Self; 2] {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { self.0.zip16(other.0).map(Xmm) }
    }
    #[inline(always)]
    unsafe fn eq8(self, other: Self) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(self.0.eq8(other.0)) }
    }
    #[inline(always)]
    unsafe fn eq16(self, other: Self) -> Self {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { Xmm(self.0.eq16(other.0)) }
    }
    #[inline(always)]
    unsafe fn below16(self, bound: u16) -> Self {
        // SAFETY: SSE4.1 (`pminuw`) per this type's contract. `bound >= 1`: u < bound
        // exactly when min(u, bound - 1) == u.
        unsafe {
            Xmm(_mm_cmpeq_epi16(
                _mm_min_epu16(self.0, _mm_set1_epi16((bound - 1) as i16)),
                self.0,
            ))
        }
    }
    #[inline(always)]
    unsafe fn select(mask: Self, a: Self, b: Self) -> Self {
        // SAFETY: SSE4.1 (`pblendvb`) per this type's contract (a mask's bytes are 0 or 0xFF).
        unsafe { Xmm(_mm_blendv_epi8(b.0, a.0, mask.0)) }
    }
    #[inline(always)]
    unsafe fn mask_any(mask: Self) -> bool {
        // SAFETY: as `any`.
        unsafe { mask.any() }
    }
    #[inline(always)]
    unsafe fn mask_bits16(mask: Self) -> u64 {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe { __m128i::mask_bits16(mask.0) }
    }
    #[inline(always)]
    unsafe fn load_units_narrow(src: *const u8, be: bool) -> (Self, Self) {
        // SAFETY: the caller's contract (SSE2 is implied).
        unsafe {
            let (v, not_ascii) = __m128i::load_units_narrow(src, be);
            (Xmm(v), Xmm(not_ascii))
        }
    }
}

/// SSSE3 (`pshufb`) and SSE4.1 (`pextrd`) under the AVX2 entry points: SSE2 alone has
/// no `pshufb`, and the SSE2 table does not use these.
impl Lane for Xmm {
    #[inline(always)]
    unsafe fn store8(self, dst: *mut u8) {
        // SAFETY: caller guarantees 8 writable bytes and the ISA.
        unsafe { _mm_storel_epi64(dst.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn store12(self, dst: *mut u8) {
        // SAFETY: caller guarantees 12 writable bytes (8, then 4 at `dst + 8`) and the ISA.
        unsafe {
            _mm_storel_epi64(dst.cast(), self.0);
            dst.add(8)
                .cast::<i32>()
                .write_unaligned(_mm_extract_epi32::<2>(self.0));
        }
    }
    #[inline(always)]
    unsafe fn store4<const K: i32>(self, dst: *mut u8) {
        // SAFETY: caller guarantees 4 writable bytes (unaligned, as `write_unaligned`
        // allows) and the ISA (SSE4.1 `pextrd`).
        unsafe { dst.cast::<i32>().write_unaligned(_mm_extract_epi32::<K>(self.0)) }
    }
    #[inline(always)]
    unsafe fn splat32(u: u32) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { Xmm(_mm_set1_epi32(u as i32)) }
    }
    #[inline(always)]
    unsafe fn add16(self, other: Self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { Xmm(_mm_add_epi16(self.0, other.0)) }
    }
    #[inline(always)]
    unsafe fn prev_unit(self) -> Self {
        // SAFETY: SSE2 per the trait contract. The byte shift fills with zeros.
        unsafe { Xmm(_mm_slli_si128::<2>(self.0)) }
    }
    #[inline(always)]
    unsafe fn shl32<const N: i32>(self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { Xmm(_mm_slli_epi32::<N>(self.0)) }
    }
    #[inline(always)]
    unsafe fn shr32<const N: i32>(self) -> Self {
        // SAFETY: SSE2 per the trait contract.
        unsafe { Xmm(_mm_srli_epi32::<N>(self.0)) }
    }
    #[inline(always)]
    unsafe fn shuffle(self, row: &[u8; 16]) -> Self {
        // SAFETY: the 16 bytes of `row` are readable; SSSE3 per the trait contract. 0xFF has
        // its high bit set, which makes pshufb write a zero.
        unsafe { Xmm(_mm_shuffle_epi8(self.0, _mm_loadu_si128(row.as_ptr().cast()))) }
    }
    #[inline(always)]
    unsafe fn zip8(self, other: Self) -> [Self; 2] {
        // SAFETY: SSE2 per the trait contract.
        unsafe {
            [
                Xmm(_mm_unpacklo_epi8(self.0, other.0)),
                Xmm(_mm_unpackhi_epi8(self.0, other.0)),
            ]
        }
    }
    #[inline(always)]
    unsafe fn swap_bytes16(self) -> Self {
        // SAFETY: SSSE3 per the trait contract.
        unsafe { Xmm(_mm_shuffle_epi8(self.0, _mm256_castsi256_si128(swap16()))) }
    }
}

super::with_features! { avx2,
    /// `TranscodeVector::utf8_to_utf16_blocks`: out of line, with this level's features.
    #[inline(never)]
    fn utf8_to_utf16_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize, generic::utf8_to_utf16::Then) {
        // SAFETY: AVX2's features are enabled on this function.
        unsafe { generic::utf8_to_utf16::blocks::<__m256i>(src, dst, read, written) }
    }
    /// `TranscodeVector::utf8_to_utf16_three_byte_blocks`: out of line, with this level's
    /// features.
    #[inline(never)]
    fn utf8_to_utf16_three_byte_blocks(src: &[u8], dst: &mut [u16], read: usize, written: usize) -> (usize, usize) {
        // SAFETY: AVX2's features are enabled on this function; the caller passes a character
        // boundary `read` (the trait method's contract).
        unsafe { generic::utf8_to_utf16::three_byte_blocks::<__m256i>(src, dst, read, written) }
    }
    /// `TranscodeVector::utf8_to_utf16_long`: out of line, with this level's features.
    #[inline(never)]
    fn utf8_to_utf16_long(src: &[u8], dst: &mut [u16], stage: bool) -> (usize, usize) {
        // SAFETY: AVX2's features are enabled on this function.
        unsafe { generic::utf8_to_utf16::utf8_to_utf16_long::<__m256i>(src, dst, stage) }
    }
    /// `TranscodeVector::utf8_to_utf16_two_byte_blocks`: out of line, with this level's
    /// features.
    #[inline(never)]
    fn utf8_to_utf16_two_byte_blocks(src: &[u8], dst: &mut [u16], read: usize, written: usize) -> (usize, usize, bool) {
        // SAFETY: AVX2's features are enabled on this function; the caller passes a character
        // boundary `read` (the trait method's contract).
        unsafe { generic::utf8_to_utf16::two_byte_blocks::<__m256i>(src, dst, read, written) }
    }
}

super::entry_points!(avx2, __m256i, {
    utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) = generic::utf8_to_utf16::utf8_to_utf16;
    utf8_to_utf16_stage(src: &[u8], dst: &mut [u16]) -> (usize, usize) = generic::utf8_to_utf16::utf8_to_utf16_stage;
    utf16_to_utf8(src: &[u16], dst: &mut OutBytes) -> (usize, usize) = generic::utf16_to_utf8::utf16_to_utf8;
    utf16_bytes_to_utf8(src: &[u8], be: bool, dst: &mut OutBytes) -> (usize, usize) = generic::utf16_to_utf8::utf16_bytes_to_utf8;
});
