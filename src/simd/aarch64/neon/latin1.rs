//! The NEON instance of UTF-8 to Latin1 and back (`generic/latin1.rs`): 16 input bytes a
//! block. To Latin1: one lead dropped by one `tbl` (`DROP_ONE`), more by two pieces of 8
//! compacted with the shared rows. To UTF-8: one letter spread by one `tbl` of two vectors
//! (`SPREAD_ONE`), more as (lead, continuation) pairs compacted per 8 by the UTF-16 to UTF-8
//! rows (`ROWS12`).

use core::arch::aarch64::*;

use crate::simd::generic::latin1::{DROP_LENS, DROP_ONE, DROP_ROWS, Latin1Vector, SPREAD_ONE};
use crate::simd::generic::single_byte::TAIL8;
use crate::simd::generic::utf16_to_utf8::{ROWS12, ROWS12_LENS};

/// Bit `k % 8` for byte `k`: a mask's bits per piece of 8, by `vaddv_u8` of each half.
const WEIGHT: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

impl Latin1Vector for uint8x16_t {
    const READ_BY_BRANCH: bool = false;

    #[inline(always)]
    unsafe fn put_latin1(self, first: Self, out: *mut u8) -> Option<(usize, usize)> {
        // SAFETY: register operations; the row loads index `DROP_ONE` with `p & 15`, tables
        // of 256 with a byte and `TAIL8` with `n1 - 4` (each piece keeps 4 to 8 bytes: below);
        // the stores write 8 bytes at `out` and 8 at `out + 7` (one lead), or 8 at `out`, 4 at
        // `out + n0` and 4 ending at `out + n0 + n1`: inside the 16 of the contract.
        unsafe {
            let v = self;
            let zero = vdupq_n_u8(0);
            let lead = vceqq_u8(vandq_u8(v, vdupq_n_u8(0xFE)), vdupq_n_u8(0xC2));
            let after = vextq_u8::<15>(zero, lead);
            let high = vcltzq_s8(vreinterpretq_s8_u8(v));
            // Each continuation byte after 0xC3 gains its bit 6.
            let after_c3 = vextq_u8::<15>(zero, vceqq_u8(v, vdupq_n_u8(0xC3)));
            let x = vorrq_u8(v, vandq_u8(after_c3, vdupq_n_u8(0x40)));
            // Non-ASCII bytes other than the leads and the bytes after them, ASCII bytes after
            // a lead; after a lead, bytes from 0xC0 (not continuations) and code points below
            // `first`.
            let bad = vorrq_u8(
                veorq_u8(high, vorrq_u8(lead, after)),
                vandq_u8(after, vorrq_u8(vcgeq_u8(v, vdupq_n_u8(0xC0)), vcltq_u8(x, first))),
            );
            if vmaxvq_u8(bad) != 0 {
                return None;
            }
            // One lead (a letter among ASCII, the common case): the 15 other bytes in one
            // shuffle, stored as 8 bytes and the 8 ending at the 15th.
            // (A block that passed the checks with a non-ASCII byte has a lead: `m` is not 0;
            // `& 15` keeps the index in bounds all the same.)
            let leads = vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(lead))));
            let m = leads & 0x1111_1111_1111_1111;
            if m & m.wrapping_sub(1) == 0 {
                let p = (m.trailing_zeros() / 4) as usize & 15;
                let c = vqtbl1q_u8(x, vld1q_u8(DROP_ONE[p].as_ptr()));
                vst1_u8(out, vget_low_u8(c));
                vst1_u8(out.add(7), vext_u8::<7>(vget_low_u8(c), vget_high_u8(c)));
                return Some((16 - usize::from(p == 15), 15));
            }
            // Lead bits per piece of 8 (a lead in the last byte among them: dropped).
            let bits = vandq_u8(lead, vld1q_u8(WEIGHT.as_ptr()));
            let i0 = usize::from(vaddv_u8(vget_low_u8(bits)));
            let i1 = usize::from(vaddv_u8(vget_high_u8(bits)));
            // A piece keeps 4 bytes or more: a lead's next byte is a continuation, kept.
            let (n0, n1) = (usize::from(DROP_LENS[i0]), usize::from(DROP_LENS[i1]));
            let piece0 = vqtbl1_u8(x, vld1_u8(DROP_ROWS[i0].as_ptr()));
            let piece1 = vqtbl1_u8(x, vadd_u8(vld1_u8(DROP_ROWS[i1].as_ptr()), vdup_n_u8(8)));
            // The first piece's 8 bytes, then the second's n1 exactly: 4 at its start (over
            // the first's garbage), 4 ending at its end (n0 + n1 >= 8 covers all of it).
            vst1_u8(out, piece0);
            // (Unaligned 4-byte stores: `vst1_lane_u32` writes through a `*mut u32`.)
            let four = |at: usize, x: uint8x8_t| {
                out.add(at)
                    .cast::<u32>()
                    .write_unaligned(vget_lane_u32::<0>(vreinterpret_u32_u8(x)));
            };
            four(n0, piece1);
            four(n0 + n1 - 4, vtbl1_u8(piece1, vld1_u8(TAIL8[n1 - 4].as_ptr())));
            let read = 16 - usize::from(vgetq_lane_u8::<15>(lead) & 1);
            Some((read, n0 + n1))
        }
    }

    #[inline(always)]
    unsafe fn put_utf8(self, first: Self, out: *mut u8) -> Option<usize> {
        // SAFETY: register operations; the row loads index `SPREAD_ONE` with `p & 15`,
        // `ROWS12` and its lengths with a byte, `TAIL8` with `n1 - 8` (a piece of 8 bytes
        // gives 8 to 16); the stores write 16 bytes at `out` and `out + 1` (one letter: 17
        // bytes), or 16 at `out`, 8 at `out + n0` and 8 ending at `out + n0 + n1 <= 32`:
        // inside the `2 * 16` of the contract.
        unsafe {
            let v = self;
            let high = vcltzq_s8(vreinterpretq_s8_u8(v));
            // A byte from 0x80 below `first` (ASCII is below it too).
            if vmaxvq_u8(vandq_u8(high, vcltq_u8(v, first))) != 0 {
                return None;
            }
            // Continuation bytes: bit 6 cleared (ASCII unchanged); leads 0xC0 + b >> 6.
            let cont = vbicq_u8(v, vandq_u8(high, vdupq_n_u8(0x40)));
            let lead = vsraq_n_u8::<6>(vdupq_n_u8(0xC0), v);
            let nibbles =
                vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(high))));
            let m = nibbles & 0x1111_1111_1111_1111;
            if m & m.wrapping_sub(1) == 0 {
                // One letter (the caller's block has one at least): the 16 bytes after the
                // lead stored one byte on, then the first 16 over them by one `tbl`.
                let p = (m.trailing_zeros() / 4) as usize & 15;
                let spread = vqtbl2q_u8(uint8x16x2_t(cont, lead), vld1q_u8(SPREAD_ONE[p].as_ptr()));
                vst1q_u8(out.add(1), cont);
                vst1q_u8(out, spread);
                return Some(17);
            }
            // (lead, continuation) for a letter, (byte, -) for ASCII, in stream order.
            let b0 = vbslq_u8(high, lead, v);
            let (pairs0, pairs1) = (vzip1q_u8(b0, cont), vzip2q_u8(b0, cont));
            let bits = vandq_u8(high, vld1q_u8(WEIGHT.as_ptr()));
            let ones0 = usize::from(!vaddv_u8(vget_low_u8(bits)));
            let ones1 = usize::from(!vaddv_u8(vget_high_u8(bits)));
            let (n0, n1) = (usize::from(ROWS12_LENS[ones0]), usize::from(ROWS12_LENS[ones1]));
            // The first piece whole (the second covers its bytes from `n0`: `n1 >= 8`,
            // `n0 + n1 >= 16`), the second as 8 bytes and the 8 ending at its end.
            vst1q_u8(out, vqtbl1q_u8(pairs0, vld1q_u8(ROWS12[ones0].as_ptr())));
            let piece1 = vqtbl1q_u8(pairs1, vld1q_u8(ROWS12[ones1].as_ptr()));
            vst1_u8(out.add(n0), vget_low_u8(piece1));
            let tail = vqtbl1q_u8(piece1, vld1q_u8(TAIL8[n1 - 8].as_ptr()));
            vst1_u8(out.add(n0 + n1 - 8), vget_low_u8(tail));
            Some(n0 + n1)
        }
    }
}
