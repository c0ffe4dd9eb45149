//! `Level::Neon` = neon (the aarch64 baseline): 16-byte vectors.
//!
//! NEON has no movemask: [`Vector::high_mask`] weighs each lane's high bit by its power of
//! two and adds across each half (the common idiom); "any" checks use `vmaxvq_u8`.

mod cjk;
mod latin1;

use crate::simd::OutBytes;
use core::arch::aarch64::*;

use super::super::generic;
use super::super::generic::lane::{Lane, TranscodeVector};
use super::super::generic::utf8::Utf8Vector;
use super::super::vector::Vector;
use super::super::{Kernels, Level, Tuning};

impl Vector for uint8x16_t {
    const LANES: usize = 16;
    type Mask = Self;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: caller guarantees 16 readable bytes; NEON is baseline.
        unsafe { vld1q_u8(src) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: caller guarantees 16 writable bytes.
        unsafe { vst1q_u8(dst, self) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vorrq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn high_mask(self) -> u64 {
        // SAFETY: NEON is baseline; the weights are 16 readable bytes.
        unsafe {
            if vmaxvq_u8(self) < 0x80 {
                return 0;
            }
            const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
            let bits = vandq_u8(vcgeq_u8(self, vdupq_n_u8(0x80)), vld1q_u8(WEIGHTS.as_ptr()));
            u64::from(vaddv_u8(vget_low_u8(bits))) | (u64::from(vaddv_u8(vget_high_u8(bits))) << 8)
        }
    }
    #[inline(always)]
    unsafe fn first_high(self) -> usize {
        // SAFETY: NEON is baseline. `high_strided`: 4 bits a byte, narrowed from the
        // comparison (16 when none is set).
        unsafe { (Lane::high_strided(self).trailing_zeros() / <Self as Lane>::HIGH_STRIDE) as usize }
    }
    #[inline(always)]
    unsafe fn widen_store(self, dst: *mut u16) {
        // SAFETY: caller guarantees 16 writable u16.
        unsafe {
            vst1q_u16(dst, vmovl_u8(vget_low_u8(self)));
            vst1q_u16(dst.add(8), vmovl_high_u8(self));
        }
    }
    #[inline(always)]
    unsafe fn load_utf16_paired(src: *const u8, be: bool) -> Option<Self> {
        // SAFETY: caller guarantees 16 readable bytes.
        unsafe {
            let mut v = vld1q_u8(src);
            if be {
                v = vrev16q_u8(v);
            }
            let units = vreinterpretq_u16_u8(v);
            let surrogate = vceqq_u16(vandq_u16(units, vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800));
            if vmaxvq_u16(surrogate) == 0 {
                return Some(v);
            }
            let high = vandq_u16(units, vdupq_n_u16(0xFC00));
            let lead = vceqq_u16(high, vdupq_n_u16(0xD800));
            let trail = vceqq_u16(high, vdupq_n_u16(0xDC00));
            // Lane k of `after`: whether unit k - 1 is a leading surrogate (lane 0: none).
            let after = vextq_u16::<7>(vdupq_n_u16(0), lead);
            // The trailing surrogates exactly after the leading ones, and none of those last.
            let last = vgetq_lane_u16::<7>(lead);
            (vmaxvq_u16(veorq_u16(trail, after)) == 0 && last == 0).then_some(v)
        }
    }
    #[inline(always)]
    unsafe fn any_zero(self) -> bool {
        // SAFETY: NEON is baseline.
        unsafe { vminvq_u8(self) == 0 }
    }
    #[inline(always)]
    unsafe fn any_high(self) -> bool {
        // SAFETY: NEON is baseline.
        unsafe { vmaxvq_u8(self) >= 0x80 }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vdupq_n_u8(b) }
    }
    #[inline(always)]
    unsafe fn splat16(u: u16) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vreinterpretq_u8_u16(vdupq_n_u16(u)) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vandq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { veorq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: NEON is baseline.
        unsafe { vmaxvq_u8(self) != 0 }
    }
    #[inline(always)]
    unsafe fn shl16<const N: i32>(self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vreinterpretq_u8_u16(vshlq_n_u16::<N>(vreinterpretq_u16_u8(self))) }
    }
    #[inline(always)]
    unsafe fn shr16<const N: i32>(self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vreinterpretq_u8_u16(vshrq_n_u16::<N>(vreinterpretq_u16_u8(self))) }
    }
    #[inline(always)]
    unsafe fn zip16(self, other: Self) -> [Self; 2] {
        // SAFETY: NEON is baseline.
        unsafe {
            let (a, b) = (vreinterpretq_u16_u8(self), vreinterpretq_u16_u8(other));
            [
                vreinterpretq_u8_u16(vzip1q_u16(a, b)),
                vreinterpretq_u8_u16(vzip2q_u16(a, b)),
            ]
        }
    }
    #[inline(always)]
    unsafe fn eq8(self, other: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vceqq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn eq16(self, other: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vreinterpretq_u8_u16(vceqq_u16(vreinterpretq_u16_u8(self), vreinterpretq_u16_u8(other))) }
    }
    #[inline(always)]
    unsafe fn below16(self, bound: u16) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vreinterpretq_u8_u16(vcltq_u16(vreinterpretq_u16_u8(self), vdupq_n_u16(bound))) }
    }
    #[inline(always)]
    unsafe fn select(mask: Self, a: Self, b: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vbslq_u8(mask, a, b) }
    }
    #[inline(always)]
    unsafe fn mask_any(mask: Self) -> bool {
        // SAFETY: NEON is baseline.
        unsafe { vmaxvq_u8(mask) != 0 }
    }
    #[inline(always)]
    unsafe fn mask_bits16(mask: Self) -> u64 {
        const WEIGHTS: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
        // SAFETY: `WEIGHTS` is 8 readable u16; NEON is baseline.
        unsafe {
            let bits = vandq_u16(vreinterpretq_u16_u8(mask), vld1q_u16(WEIGHTS.as_ptr()));
            u64::from(vaddvq_u16(bits))
        }
    }
    #[inline(always)]
    unsafe fn load_units_narrow(src: *const u8, be: bool) -> (Self, Self) {
        // SAFETY: caller guarantees 32 readable bytes. `vld2q_u8` deinterleaves: the first
        // byte of every unit, then the second.
        unsafe {
            let v = vld2q_u8(src);
            let (low, high) = if be { (v.1, v.0) } else { (v.0, v.1) };
            (low, vorrq_u8(high, vandq_u8(low, vdupq_n_u8(0x80))))
        }
    }
}

impl Utf8Vector for uint8x16_t {
    /// The high nibbles of each vector serve both the first byte's lookup and the second's.
    const LOOKUP_THEN_SHIFT: bool = true;
    const SPARSE_STEPS: bool = true;
    const VECTOR_MASK_BITS: u32 = 4;

    #[inline(always)]
    unsafe fn where_ascii(self, other: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vbicq_u8(self, vcltzq_s8(vreinterpretq_s8_u8(other))) }
    }

    /// The 16 vectors of a step reduced to one by pairwise maxima (`umaxp`, 15 of them: byte
    /// `k` is vector `k`'s largest), then narrowed to a nibble a byte (`shrn`): 21
    /// instructions for a step instead of 5 a vector.
    #[inline(always)]
    unsafe fn non_ascii_vectors(load: &impl Fn(usize) -> Self) -> u64 {
        // SAFETY: `load` is called with the multiples of 16 below 256, per contract; NEON is
        // baseline.
        unsafe {
            let pair = |k: usize| vpmaxq_u8(load(32 * k), load(32 * k + 16));
            let quad = |k: usize| vpmaxq_u8(pair(2 * k), pair(2 * k + 1));
            let eight = |k: usize| vpmaxq_u8(quad(2 * k), quad(2 * k + 1));
            let maxima = vpmaxq_u8(eight(0), eight(1));
            let high = vreinterpretq_u16_u8(vcltzq_s8(vreinterpretq_s8_u8(maxima)));
            vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(high))) & 0x1111_1111_1111_1111
        }
    }

    #[inline(always)]
    unsafe fn repeat16(table: &[u8; 16]) -> Self {
        // SAFETY: 16 readable bytes.
        unsafe { vld1q_u8(table.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vshrq_n_u8::<4>(self) }
    }
    #[inline(always)]
    unsafe fn lookup16(self, table: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vqtbl1q_u8(table, self) }
    }
    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vextq_u8::<15>(prev, self) }
    }
    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vextq_u8::<14>(prev, self) }
    }
    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vextq_u8::<13>(prev, self) }
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vqsubq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn incomplete_limits() -> Self {
        const LIMITS: [u8; 16] = [
            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0xDF, 0xBF,
        ];
        // SAFETY: 16 readable bytes.
        unsafe { vld1q_u8(LIMITS.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn continuations(self) -> Self {
        // SAFETY: NEON is baseline. As signed bytes, continuation bytes are -128..=-65.
        unsafe { vcltq_s8(vreinterpretq_s8_u8(self), vdupq_n_s8(-64)) }
    }
    #[inline(always)]
    unsafe fn high_mask4(a: Self, b: Self, c: Self, d: Self) -> u64 {
        const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
        // SAFETY: NEON is baseline; the weights are 16 readable bytes. Each byte becomes its
        // bit's weight if its high bit is set; three rounds of pairwise adds sum each 8 bytes
        // into one, byte `k` of the result holding bits `8k..8k + 8`.
        unsafe {
            let w = vld1q_u8(WEIGHTS.as_ptr());
            let bits = |v: Self| vandq_u8(vcltzq_s8(vreinterpretq_s8_u8(v)), w);
            let ab = vpaddq_u8(bits(a), bits(b));
            let cd = vpaddq_u8(bits(c), bits(d));
            let abcd = vpaddq_u8(ab, cd);
            vgetq_lane_u64::<0>(vreinterpretq_u64_u8(vpaddq_u8(abcd, abcd)))
        }
    }
}

impl generic::single_byte::SingleByteVector for uint8x16_t {
    /// Low bytes (entries 0..64, 64..128), then high bytes, for `vqtbl4q_u8`/`vqtbx4q_u8`.
    type Table = [uint8x16x4_t; 4];

    #[inline(always)]
    unsafe fn load_table(lo: &[u8; 128], hi: &[u8; 128]) -> Self::Table {
        // SAFETY: each `vld1q_u8_x4` reads 64 of the 128 bytes of `lo` or `hi`.
        unsafe {
            [
                vld1q_u8_x4(lo.as_ptr()),
                vld1q_u8_x4(lo.as_ptr().add(64)),
                vld1q_u8_x4(hi.as_ptr()),
                vld1q_u8_x4(hi.as_ptr().add(64)),
            ]
        }
    }
    #[inline(always)]
    unsafe fn lookup(self, table: &Self::Table) -> (Self, Self) {
        // SAFETY: NEON is baseline.
        unsafe {
            // Upper bytes become 0..128 and ASCII 128..256: out of range for both lookups,
            // which give 0 (`vqtbl4q`) or keep what is there (`vqtbx4q`, 64 entries lower).
            let idx = veorq_u8(self, vdupq_n_u8(0x80));
            let idx64 = vsubq_u8(idx, vdupq_n_u8(64));
            let ascii = vreinterpretq_u8_s8(vmaxq_s8(vreinterpretq_s8_u8(self), vdupq_n_s8(0)));
            let lo = vqtbx4q_u8(vqtbl4q_u8(table[0], idx), table[1], idx64);
            let hi = vqtbx4q_u8(vqtbl4q_u8(table[2], idx), table[3], idx64);
            (vorrq_u8(lo, ascii), hi)
        }
    }
    #[inline(always)]
    unsafe fn shl2_small(self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vshlq_n_u8::<2>(self) }
    }
    #[inline(always)]
    unsafe fn shr6(self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vshrq_n_u8::<6>(self) }
    }
    #[inline(always)]
    unsafe fn zip(self, other: Self) -> [Self; 2] {
        // SAFETY: NEON is baseline.
        unsafe { [vzip1q_u8(self, other), vzip2q_u8(self, other)] }
    }
    #[inline(always)]
    unsafe fn compact_pairs(self, ones: u64, dst: *mut u8) -> usize {
        use generic::single_byte::TAIL8;
        use generic::utf16_to_utf8::{ROWS12, ROWS12_LENS};
        let m = ones as u8;
        // 16 less one a lane of one byte, 8..=16: the row's length (a load, where the popcount
        // goes through a vector register).
        let n = usize::from(ROWS12_LENS[usize::from(m)]);
        // SAFETY: the loads read 16-byte rows of `ROWS12` and `TAIL8` (`n - 8 <= 8`); the
        // stores write `dst[..8]` and `dst[n - 8..n]`, within the `n` bytes the caller
        // guarantees. Indices 0x80 are out of range: `vqtbl1q` gives 0 there.
        unsafe {
            let v = vqtbl1q_u8(self, vld1q_u8(ROWS12[usize::from(m)].as_ptr()));
            vst1_u8(dst, vget_low_u8(v));
            let tail = vqtbl1q_u8(v, vld1q_u8(TAIL8[n - 8].as_ptr()));
            vst1_u8(dst.add(n - 8), vget_low_u8(tail));
        }
        n
    }
    #[inline(always)]
    unsafe fn compact_quads(self, ones: u64, threes: u64, dst: *mut u8) -> usize {
        use generic::single_byte::quad_row;
        let (row, n) = quad_row(ones as u8, threes as u8); // n: 4..=12
        let mid = n.min(8) - 4;
        // SAFETY: the loads read 16-byte row `row` and rows of `TAIL8` (`mid, n - 4 <= 8`).
        // The stores write 4 bytes at offsets 0, `mid` and `n - 4` (each `<= n - 4`), which
        // cover `dst[..n]`, the count the caller guarantees room for; unaligned writes, as
        // `write_unaligned` allows.
        unsafe {
            let v = vqtbl1q_u8(self, vld1q_u8(row.as_ptr()));
            dst.cast::<u32>()
                .write_unaligned(vgetq_lane_u32::<0>(vreinterpretq_u32_u8(v)));
            dst.add(mid).cast::<u32>().write_unaligned(bytes_from(v, mid));
            dst.add(n - 4).cast::<u32>().write_unaligned(bytes_from(v, n - 4));
        }
        n
    }
}

/// Bytes `s..s + 4` of `v`, as a u32 in memory order.
///
/// # Safety
/// `s <= 8`.
#[inline(always)]
unsafe fn bytes_from(v: uint8x16_t, s: usize) -> u32 {
    // SAFETY: `TAIL8` has rows 0..=8; NEON is baseline.
    unsafe {
        let pattern = vld1q_u8(generic::single_byte::TAIL8[s].as_ptr());
        vgetq_lane_u32::<0>(vreinterpretq_u32_u8(vqtbl1q_u8(v, pattern)))
    }
}

/// The transcoders' 16-byte lane is the NEON vector itself.
impl TranscodeVector for uint8x16_t {
    type Lane = uint8x16_t;
    const UTF16_LETTERS: bool = true;

    #[inline(always)]
    unsafe fn load_units(src: *const u8, be: bool) -> Self {
        // SAFETY: caller guarantees 16 readable bytes.
        unsafe {
            let v = vld1q_u8(src);
            if be { vrev16q_u8(v) } else { v }
        }
    }
    #[inline(always)]
    unsafe fn unit_pair_bits(a: Self, b: Self) -> u64 {
        const EVEN: [u16; 8] = [1, 1 << 2, 1 << 4, 1 << 6, 1 << 8, 1 << 10, 1 << 12, 1 << 14];
        const ODD: [u16; 8] = [1 << 1, 1 << 3, 1 << 5, 1 << 7, 1 << 9, 1 << 11, 1 << 13, 1 << 15];
        // SAFETY: `EVEN` and `ODD` are 8 readable u16; NEON is baseline. The weighed bits
        // are distinct, so their sum is their or.
        unsafe {
            let a = vandq_u16(vreinterpretq_u16_u8(a), vld1q_u16(EVEN.as_ptr()));
            let b = vandq_u16(vreinterpretq_u16_u8(b), vld1q_u16(ODD.as_ptr()));
            u64::from(vaddvq_u16(vorrq_u16(a, b)))
        }
    }
    #[inline(always)]
    unsafe fn store_low_bytes(self, dst: *mut u8) {
        // SAFETY: caller guarantees 8 writable bytes.
        unsafe { vst1_u8(dst, vmovn_u16(vreinterpretq_u16_u8(self))) }
    }
    #[inline(always)]
    unsafe fn max_class16(self) -> u16 {
        // SAFETY: NEON is baseline.
        unsafe { vmaxvq_u16(vreinterpretq_u16_u8(self)) }
    }
    #[inline(always)]
    unsafe fn load3(src: *const u8) -> [Self; 3] {
        // SAFETY: caller guarantees 48 readable bytes; NEON is baseline.
        unsafe {
            let v = vld3q_u8(src);
            [v.0, v.1, v.2]
        }
    }
    #[inline(always)]
    unsafe fn max8(self, other: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vmaxq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn leads(self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vcgeq_u8(self, vdupq_n_u8(0xC0)) }
    }
    #[inline(always)]
    unsafe fn lane(self, _j: usize) -> Self {
        self
    }
    #[inline(never)]
    unsafe fn utf8_to_utf16_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize, generic::utf8_to_utf16::Then) {
        // SAFETY: NEON is baseline.
        unsafe { generic::utf8_to_utf16::blocks::<Self>(src, dst, read, written) }
    }
    #[inline(never)]
    unsafe fn utf8_to_utf16_three_byte_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize) {
        // SAFETY: NEON is baseline; `read` is a character boundary per the contract.
        unsafe { generic::utf8_to_utf16::three_byte_blocks::<Self>(src, dst, read, written) }
    }
    #[inline(never)]
    unsafe fn utf8_to_utf16_long(src: &[u8], dst: &mut [u16], stage: bool) -> (usize, usize) {
        // SAFETY: NEON is baseline.
        unsafe { generic::utf8_to_utf16::utf8_to_utf16_long::<Self>(src, dst, stage) }
    }
    #[inline(never)]
    unsafe fn utf8_to_utf16_two_byte_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize, bool) {
        // SAFETY: NEON is baseline; `read` is a character boundary per the contract.
        unsafe { generic::utf8_to_utf16::two_byte_blocks::<Self>(src, dst, read, written) }
    }
}

impl Lane for uint8x16_t {
    const HIGH_STRIDE: u32 = 4;
    #[inline(always)]
    unsafe fn high_strided(self) -> u64 {
        // SAFETY: NEON is baseline. Each u16 lane of the comparison (0xFF per non-ASCII byte)
        // narrowed by 4 bits: byte i of the lane pair becomes nibble i.
        unsafe {
            let high = vreinterpretq_u16_u8(vcltzq_s8(vreinterpretq_s8_u8(self)));
            vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(high)))
        }
    }
    #[inline(always)]
    unsafe fn store8(self, dst: *mut u8) {
        // SAFETY: caller guarantees 8 writable bytes.
        unsafe { vst1_u8(dst, vget_low_u8(self)) }
    }
    #[inline(always)]
    unsafe fn store12(self, dst: *mut u8) {
        // SAFETY: caller guarantees 12 writable bytes (8, then 4 at `dst + 8`, unaligned:
        // `store4` writes through `write_unaligned`).
        unsafe {
            vst1_u8(dst, vget_low_u8(self));
            self.store4::<2>(dst.add(8));
        }
    }
    #[inline(always)]
    unsafe fn store4<const K: i32>(self, dst: *mut u8) {
        // SAFETY: caller guarantees 4 writable bytes; `write_unaligned` needs no alignment.
        unsafe {
            dst.cast::<u32>()
                .write_unaligned(vgetq_lane_u32::<K>(vreinterpretq_u32_u8(self)))
        }
    }
    #[inline(always)]
    unsafe fn splat32(u: u32) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vreinterpretq_u8_u32(vdupq_n_u32(u)) }
    }
    #[inline(always)]
    unsafe fn shl32<const N: i32>(self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vreinterpretq_u8_u32(vshlq_n_u32::<N>(vreinterpretq_u32_u8(self))) }
    }
    #[inline(always)]
    unsafe fn shr32<const N: i32>(self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vreinterpretq_u8_u32(vshrq_n_u32::<N>(vreinterpretq_u32_u8(self))) }
    }
    #[inline(always)]
    unsafe fn shuffle(self, row: &[u8; 16]) -> Self {
        // SAFETY: the 16 bytes of `row` are readable. `tbl` writes a zero for indices of 16
        // and more, 0xFF included.
        unsafe { vqtbl1q_u8(self, vld1q_u8(row.as_ptr())) }
    }
    #[inline(always)]
    unsafe fn zip8(self, other: Self) -> [Self; 2] {
        // SAFETY: NEON is baseline.
        unsafe { [vzip1q_u8(self, other), vzip2q_u8(self, other)] }
    }
    #[inline(always)]
    unsafe fn swap_bytes16(self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vrev16q_u8(self) }
    }
    #[inline(always)]
    unsafe fn add16(self, other: Self) -> Self {
        // SAFETY: NEON is baseline.
        unsafe { vreinterpretq_u8_u16(vaddq_u16(vreinterpretq_u16_u8(self), vreinterpretq_u16_u8(other))) }
    }
    #[inline(always)]
    unsafe fn prev_unit(self) -> Self {
        // SAFETY: NEON is baseline. Bytes 14, 15 of zero, then bytes 0..14 of `self`.
        unsafe { vextq_u8::<14>(vdupq_n_u8(0), self) }
    }
}

/// Entry points: NEON is the aarch64 baseline, so no `#[target_feature]` is needed.
macro_rules! neon_entry_points {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $($generic:ident)::+;)*) => {
        $(
            fn $name($($arg: $ty),*) -> $ret {
                // SAFETY: NEON is part of the aarch64 baseline, which is all the generic
                // kernels require of their caller.
                unsafe { $($generic)::+::<uint8x16_t>($($arg),*) }
            }
        )*
    };
}

neon_entry_points! {
    ascii_prefix_len(src: &[u8]) -> usize = generic::ascii::prefix_len;
    copy_ascii(src: &[u8], dst: &mut OutBytes) -> usize = generic::ascii::copy;
    copy_ascii_loose(src: &[u8], dst: &mut OutBytes) -> usize = generic::ascii::copy_loose;
    widen_ascii(src: &[u8], dst: &mut [u16]) -> usize = generic::ascii::widen;
    narrow_ascii(src: &[u16], dst: &mut OutBytes) -> usize = generic::ascii::narrow;
    utf8_to_latin1(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) = generic::latin1::utf8_to_latin1;
    latin1_to_utf8(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) = generic::latin1::latin1_to_utf8;
    utf16_bytes_to_utf16(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize) = generic::utf16::bytes_to_utf16;
    utf8_valid_up_to(src: &[u8]) -> usize = generic::utf8::valid_up_to;
    utf8_copy_valid(src: &[u8], dst: &mut OutBytes) -> (usize, usize) = generic::utf8::copy_valid;
    single_byte_to_utf16(src: &[u8], table: &[u16; 128], dst: &mut [u16]) -> (usize, usize) = generic::single_byte::to_utf16;
    single_byte_to_utf8(src: &[u8], table: &[u16; 128], dst: &mut OutBytes) -> (usize, usize) = generic::single_byte::to_utf8;
    utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) = generic::utf8_to_utf16::utf8_to_utf16;
    utf8_to_utf16_stage(src: &[u8], dst: &mut [u16]) -> (usize, usize) = generic::utf8_to_utf16::utf8_to_utf16_stage;
    utf16_to_utf8(src: &[u16], dst: &mut OutBytes) -> (usize, usize) = generic::utf16_to_utf8::utf16_to_utf8;
    utf16_bytes_to_utf8(src: &[u8], be: bool, dst: &mut OutBytes) -> (usize, usize) = generic::utf16_to_utf8::utf16_bytes_to_utf8;
}

pub(crate) const TABLE: Kernels = Kernels {
    level: Level::Neon,
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
    single_byte_to_utf16,
    single_byte_to_utf8,
    utf8_to_utf16,
    utf8_to_utf16_stage,
    utf16_to_utf8,
    utf16_bytes_to_utf8,
    cjk_to_utf8: cjk::cjk_to_utf8,
    cjk_to_utf16: cjk::cjk_to_utf16,
    utf16_to_legacy: cjk::utf16_to_legacy,
    tuning: Tuning {
        call_cjk_decode: true,
        call_legacy_encode: true,
        stage_encode_in_utf16: true,
        // 64-byte pieces of Russian to windows-1251: 22.9 instructions a byte unstaged, 30.5
        // staged from 32 bytes (docs/decisions.md, "Encoding from UTF-8 at NEON").
        stage_encode_min: 96,
        // Japanese text with an unmapped character every few kilobytes (Shift_JIS from
        // UTF-8, a new run after each, starting at the shortest stage): 8.59 instructions a
        // byte with stages from 32 units, 8.35 from 64 (docs/decisions.md, "Encode stages").
        stage_units_min: 64,
    },
};

pub(crate) static KERNELS: Kernels = TABLE;

/// [`TABLE`] with the loose ASCII copy as `copy_ascii`: see `Kernels::for_spare_output`.
pub(crate) static SPARE_OUTPUT: Kernels = Kernels {
    copy_ascii: TABLE.copy_ascii_loose,
    ..TABLE
};
