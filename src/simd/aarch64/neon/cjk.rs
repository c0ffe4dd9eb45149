//! The NEON instances of the pair kernels (`generic/cjk_decode.rs`), 16 input bytes a block, and
//! of the `utf16_to_legacy` kernel (`generic/legacy_encode.rs`), 8 code units a block.
//!
//! Masks have 4 bits per byte (`shrn` of a byte mask, the cheap NEON "movemask"). Leads and
//! trails are found, and their rows and columns computed, by nibbles (`PairNibbles`: 16-entry
//! `tbl` lookups, one register each; the 128- and 192-entry lookups before took 20 registers,
//! and the moves that put them in the consecutive ones `tbl` needs cost more than the lookups:
//! `docs/decisions.md`, "NEON pair lookups by nibbles"); the eight pairs' pointers are one
//! widening multiply-add, and their code points eight lane loads (NEON has no gather). The
//! output is compacted per 8 bytes (UTF-16) or 4 bytes (UTF-8) by `tbl` with the shared rows
//! of `generic/cjk_decode.rs`.

use crate::simd::OutBytes;
use core::arch::aarch64::*;
use core::arch::asm;

use crate::simd::generic::cjk_decode::{self, CjkDecodeVector, ROWS16, ROWS16_LENS};
use crate::simd::generic::legacy_encode::{self, LegacyEncodeVector};
use crate::simd::generic::single_byte::TAIL8;
use crate::simd::generic::utf16_to_utf8::{ROWS12, ROWS12_LENS};
use crate::simd::{EncodeTables, Lookup, PairTables};

/// The lookup tables in registers (`PairNibbles`: each 16 entries, one register), and the
/// pointer parameters.
pub(crate) struct Tables {
    /// Bit `h` of entry `l`: byte `0x80 + 16 * h + l` leads a pair.
    lead_bits: uint8x16_t,
    /// By high nibble: the row of a lead minus one is the byte minus this (wrapping).
    lead_base: uint8x16_t,
    /// Bit `h` of entry `l` of `[i]`: byte `0x80 * i + 16 * h + l` trails a pair.
    trail_bits: [uint8x16_t; 2],
    /// By high nibble: the column of a trail is the byte minus this (wrapping).
    trail_base: uint8x16_t,
    /// By high nibble `n`: `1 << n` below 8 (`[0]`), `1 << (n - 8)` from 8 (`[1]`), else 0.
    nibble_bit: [uint8x16_t; 2],
    row_len: uint8x8_t,
    /// The index's limit minus one, at most 0xFFFF.
    last: uint16x8_t,
    index: &'static [u16],
}

impl Tables {
    /// The bytes of `v` that can lead a pair (0xFF, else 0), and the rows minus one of the
    /// bytes of `v` (whatever for those that do not lead).
    #[inline(always)]
    unsafe fn leads(&self, v: uint8x16_t) -> (uint8x16_t, uint8x16_t) {
        // SAFETY: register operations; the nibbles index the 16-entry tables.
        unsafe {
            let (low, high) = (vandq_u8(v, vdupq_n_u8(0x0F)), vshrq_n_u8::<4>(v));
            let capable = vtstq_u8(
                vqtbl1q_u8(self.lead_bits, low),
                vqtbl1q_u8(self.nibble_bit[1], high),
            );
            (capable, vsubq_u8(v, vqtbl1q_u8(self.lead_base, high)))
        }
    }

    /// Non-zero for the bytes of `v` that can trail a pair (0 for the others), and the
    /// columns of the bytes of `v` (whatever for those that do not trail).
    #[inline(always)]
    unsafe fn trails(&self, v: uint8x16_t) -> (uint8x16_t, uint8x16_t) {
        // SAFETY: register operations; the nibbles index the 16-entry tables.
        unsafe {
            let (low, high) = (vandq_u8(v, vdupq_n_u8(0x0F)), vshrq_n_u8::<4>(v));
            let half = |i: usize| {
                vandq_u8(
                    vqtbl1q_u8(self.trail_bits[i], low),
                    vqtbl1q_u8(self.nibble_bit[i], high),
                )
            };
            (
                vorrq_u8(half(0), half(1)),
                vsubq_u8(v, vqtbl1q_u8(self.trail_base, high)),
            )
        }
    }

    /// The code points at 8 pointers, each clamped to `last` (the lanes above it read the
    /// index's last entry; the caller checks them).
    #[inline(always)]
    unsafe fn gather(&self, pointer: uint16x8_t) -> uint16x8_t {
        // SAFETY: the lane loads read `index[i]` with `i` clamped to `last`, below the
        // index's length (`load_tables`).
        unsafe {
            let mut at = [0u16; 8];
            vst1q_u16(at.as_mut_ptr(), vminq_u16(pointer, self.last));
            let base = self.index.as_ptr();
            let mut cp = vdupq_n_u16(0);
            cp = vld1q_lane_u16::<0>(base.add(usize::from(at[0])), cp);
            cp = vld1q_lane_u16::<1>(base.add(usize::from(at[1])), cp);
            cp = vld1q_lane_u16::<2>(base.add(usize::from(at[2])), cp);
            cp = vld1q_lane_u16::<3>(base.add(usize::from(at[3])), cp);
            cp = vld1q_lane_u16::<4>(base.add(usize::from(at[4])), cp);
            cp = vld1q_lane_u16::<5>(base.add(usize::from(at[5])), cp);
            cp = vld1q_lane_u16::<6>(base.add(usize::from(at[6])), cp);
            vld1q_lane_u16::<7>(base.add(usize::from(at[7])), cp)
        }
    }
}

/// The lanes whose code point is not plain from `MIN`: below it (0: none included) or a
/// surrogate (all are in the BMP).
#[inline(always)]
unsafe fn not_plain<const MIN: u32>(cp: uint16x8_t) -> uint16x8_t {
    // SAFETY: register operations; NEON is baseline.
    unsafe {
        let surrogate = vceqq_u16(vandq_u16(cp, vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800));
        vorrq_u16(vcltq_u16(cp, vdupq_n_u16(MIN as u16)), surrogate)
    }
}

/// Leads at every even byte (eight pairs), as a 4-bit-per-byte mask.
const EVEN: u64 = 0x0F0F_0F0F_0F0F_0F0F;

/// The 4-bit-per-byte mask of a byte mask (each byte 0 or 0xFF).
#[inline(always)]
unsafe fn nibbles(m: uint8x16_t) -> u64 {
    // SAFETY: register operations; NEON is baseline.
    unsafe { vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(m)))) }
}

/// The byte mask (0 or 0xFF) of a 4-bit-per-byte mask.
#[inline(always)]
unsafe fn bytes(m: u64) -> uint8x16_t {
    // SAFETY: register operations; NEON is baseline; the constants are 16 readable bytes; the
    // `asm!` has no instruction (a comment), its one operand the mask in a vector register,
    // read and written, no memory, stack or flags touched.
    unsafe {
        const DUP: [u8; 16] = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7];
        const HALF: [u8; 16] = [
            0x0F, 0xF0, 0x0F, 0xF0, 0x0F, 0xF0, 0x0F, 0xF0, 0x0F, 0xF0, 0x0F, 0xF0, 0x0F, 0xF0, 0x0F, 0xF0,
        ];
        let d = vcombine_u8(vcreate_u8(m), vcreate_u8(0));
        let mut mask = vtstq_u8(vqtbl1q_u8(d, vld1q_u8(DUP.as_ptr())), vld1q_u8(HALF.as_ptr()));
        // No instruction: it hides from LLVM that `mask` is a compare's result. Knowing it,
        // LLVM rebuilds the mask from each byte's low bit (`shl` and `cmlt`) wherever it is
        // widened or blended, 2 to 4 instructions a block (`docs/decisions.md`, "Two-byte
        // characters in the NEON and AVX2 pair kernels").
        asm!("/* {0:v} */", inout(vreg) mask, options(pure, nomem, nostack, preserves_flags));
        mask
    }
}

/// What the pair kernels need of a block: its leads as a byte mask and the code point of
/// each byte pair's lead (lane k: bytes 2k, 2k + 1).
#[derive(Clone, Copy)]
pub(crate) struct Decoded {
    leads: uint8x16_t,
    cp: uint16x8_t,
    /// The lanes with a lead (0xFFFF), the others 0.
    has: uint16x8_t,
    /// Whether a pair's code point is below U+0800 (two bytes of UTF-8; rare in CJK text, so
    /// found only where the usual check from U+0800 fails).
    short: bool,
}

impl Decoded {
    /// The lanes with a lead whose code point is below U+0800 (0xFFFF, else 0).
    #[inline(always)]
    unsafe fn two(&self) -> uint16x8_t {
        // SAFETY: register operations; NEON is baseline.
        unsafe { vandq_u16(self.has, vcltq_u16(self.cp, vdupq_n_u16(0x800))) }
    }

    /// The u16 output of every input byte: the byte (ASCII; trails: garbage, dropped) or the
    /// code point of its pair (leads); bytes 0..8 and 8..16.
    #[inline(always)]
    unsafe fn units(&self, v: uint8x16_t) -> [uint16x8_t; 2] {
        // SAFETY: register operations; NEON is baseline.
        unsafe {
            let lead = vreinterpretq_s8_u8(self.leads);
            let lo = vbslq_u16(
                vreinterpretq_u16_s16(vmovl_s8(vget_low_s8(lead))),
                vzip1q_u16(self.cp, self.cp),
                vmovl_u8(vget_low_u8(v)),
            );
            let hi = vbslq_u16(
                vreinterpretq_u16_s16(vmovl_high_s8(lead)),
                vzip2q_u16(self.cp, self.cp),
                vmovl_high_u8(v),
            );
            [lo, hi]
        }
    }
}

/// [`CjkDecodeVector::put_utf8`], with pairs below U+0800 (`SHORT`: `d.short`) or without.
///
/// # Safety
/// As `put_utf8`.
#[inline(always)]
unsafe fn put_utf8_pairs<const SHORT: bool>(v: uint8x16_t, d: &Decoded, leads: u64, out: *mut u8) {
    // SAFETY: register operations; the row and length loads index tables of 256 with a byte;
    // the stores write 16 bytes at `out` and at `out + n`, `n` at most 12 (8 lanes, at most 4
    // leads): inside the `ROOM8` (28) bytes of the contract.
    unsafe {
        let cp = d.cp;
        // Each pair's bytes, in the low half (lane k: the pair at bytes 2k, 2k + 1): from
        // U+0800 `b0`, `b1`, `b2`; below it (`SHORT`) `b0` (0xC0 and its top five bits), `b2`.
        let low6 = vdup_n_u8(0x3F);
        let above6 = vshrn_n_u16::<6>(cp);
        let mut b0 = vorr_u8(vmovn_u16(vshrq_n_u16::<12>(cp)), vdup_n_u8(0xE0));
        let b1 = vbsl_u8(low6, above6, vdup_n_u8(0x80));
        let b2 = vbsl_u8(low6, vmovn_u16(cp), vdup_n_u8(0x80));
        if !SHORT && leads == EVEN {
            // Eight pairs (dense CJK text): their three bytes, interleaved by the store.
            vst3_u8(out, uint8x8x3_t(b0, b1, b2));
            return;
        }
        // A u16 lane per input byte: a lead's first two bytes, a trail's last one (of the
        // lead before it), an ASCII byte itself; the leads of three bytes keep two bytes, the
        // others one (`ROWS12` by the lanes that are not such leads). A lead's last byte
        // cleared from `leads` (the block ends before it) is a lane of one byte past the
        // block's output.
        let spread = |b: uint8x8_t| {
            let q = vcombine_u8(b, b);
            vzip1q_u8(q, q)
        };
        let mut long = d.leads;
        if SHORT {
            let two = vmovn_u16(d.two());
            b0 = vbsl_u8(two, vorr_u8(above6, vdup_n_u8(0xC0)), b0);
            long = vbicq_u8(long, spread(two));
        }
        let trail = vextq_u8::<15>(vdupq_n_u8(0), d.leads);
        let low = vbslq_u8(trail, vextq_u8::<15>(vdupq_n_u8(0), spread(b2)), v);
        let low = vbslq_u8(d.leads, spread(b0), low);
        let high = spread(b1);
        // The rows by the lanes that are not leads of three bytes: one `addv` each half (LLVM
        // makes three pairwise adds of disjoint bits nine instructions).
        const WEIGHT: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
        let one = vbicq_u8(vld1q_u8(WEIGHT.as_ptr()), long);
        let (first, second) = (
            usize::from(vaddv_u8(vget_low_u8(one))),
            usize::from(vaddv_u8(vget_high_u8(one))),
        );
        let piece = vqtbl1q_u8(vzip1q_u8(low, high), vld1q_u8(ROWS12[first].as_ptr()));
        vst1q_u8(out, piece);
        let piece = vqtbl1q_u8(vzip2q_u8(low, high), vld1q_u8(ROWS12[second].as_ptr()));
        vst1q_u8(out.add(usize::from(ROWS12_LENS[first])), piece);
    }
}

impl CjkDecodeVector for uint8x16_t {
    const BITS: u32 = 4;
    // Two pieces of 8 input bytes, each stored as 16 bytes, the second at the end of the
    // first (at most 12 bytes). A block's output is 15 bytes or more (it reads 15 or 16), so
    // at most 13 bytes past it change.
    const ROOM8: usize = 28;
    // Two pieces of 8 bytes, each stored as 8 units; the second one's output is 3 units or
    // more (three pairs before a lead cut at the block's end), so at most 5 units past the
    // block's (8 or more) change.
    const ROOM16: usize = 16;
    const ASCII_RUNS: bool = true;
    // With the call in the loop, eight of the tables were loaded from the stack on every
    // block (`cjk-html` 6 to 11% of the instructions).
    const COLD_STOPS: [bool; 2] = [true, true];
    type Tables = Tables;
    type Lookups = (uint8x16_t, uint8x16_t);
    type Decoded = Decoded;

    fn supports(tables: &PairTables) -> bool {
        // Rows times `row_len` in one widening byte multiply; the index of u16 code points.
        tables.row_len <= 0xFF && matches!(tables.index, Lookup::U16(_)) && tables.index.limit() != 0
    }

    #[inline(always)]
    unsafe fn load_tables(tables: &PairTables) -> Tables {
        let index = match tables.index {
            Lookup::U16(t) => t,
            Lookup::U8(_) => &[],
        };
        let last = tables.index.limit().min(0x1_0000).saturating_sub(1) as u16;
        let n = &tables.nibbles;
        // SAFETY: each load reads the 16 bytes of one table.
        unsafe {
            const LOW: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];
            const HIGH: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128];
            Tables {
                lead_bits: vld1q_u8(n.lead_bits.as_ptr()),
                lead_base: vld1q_u8(n.lead_base.as_ptr()),
                trail_bits: [
                    vld1q_u8(n.trail_bits[0].as_ptr()),
                    vld1q_u8(n.trail_bits[1].as_ptr()),
                ],
                trail_base: vld1q_u8(n.trail_base.as_ptr()),
                nibble_bit: [vld1q_u8(LOW.as_ptr()), vld1q_u8(HIGH.as_ptr())],
                row_len: vdup_n_u8(tables.row_len as u8),
                last: vdupq_n_u16(last),
                index,
            }
        }
    }

    #[inline(always)]
    unsafe fn high(self) -> u64 {
        // SAFETY: register operations.
        unsafe { nibbles(vcltzq_s8(vreinterpretq_s8_u8(self))) }
    }

    #[inline(always)]
    unsafe fn classify(self, t: &Tables) -> (u64, u64, (uint8x16_t, uint8x16_t)) {
        // SAFETY: register operations.
        unsafe {
            let ((capable, rows), (trail, cols)) = (t.leads(self), t.trails(self));
            (nibbles(capable), nibbles(vceqzq_u8(trail)), (rows, cols))
        }
    }

    #[inline(always)]
    unsafe fn decode<const SHORT: bool>(
        self,
        (rows, cols): (uint8x16_t, uint8x16_t),
        leads: u64,
        t: &Tables,
        _: &PairTables,
    ) -> Option<Decoded> {
        // SAFETY: register operations and `gather`; the `asm!` has no instruction (a
        // comment), its one operand a general register, read and written.
        unsafe {
            let zero = vdupq_n_u8(0);
            let lead = bytes(leads);
            // Per byte pair 2k, 2k + 1: the row (minus one) and column of the one that leads
            // (if any), in byte 2k.
            let row = vbslq_u8(lead, rows, vextq_u8::<1>(rows, zero));
            let col = vbslq_u8(lead, vextq_u8::<1>(cols, zero), vextq_u8::<2>(cols, zero));
            // Even bytes: the 8 pairs' rows, then their columns.
            let pair = vuzp1q_u8(row, col);
            // The pairs that have a lead: lane k, bytes 2k and 2k + 1, not both zero.
            let has = vtstq_u16(vreinterpretq_u16_u8(lead), vreinterpretq_u16_u8(lead));
            let pointer = vmlal_u8(vmovl_u8(vget_high_u8(pair)), vget_low_u8(pair), t.row_len);
            let above = vbicq_u16(has, vceqq_u16(vminq_u16(pointer, t.last), pointer));
            let cp = t.gather(pointer);
            // With `SHORT`, checked from U+0800 first: a pair below it (Latin, Greek and
            // Cyrillic letters and signs such as U+00B7: two bytes of UTF-8) is rare in CJK
            // text, and found here (the check again from U+0080) only where that check fails.
            let from = if SHORT {
                not_plain::<0x800>(cp)
            } else {
                not_plain::<0x80>(cp)
            };
            let bad = vorrq_u16(above, vandq_u16(has, from));
            let mut short = false;
            if vmaxvq_u16(bad) != 0 {
                if !SHORT || vmaxvq_u16(vorrq_u16(above, vandq_u16(has, not_plain::<0x80>(cp)))) != 0 {
                    return None;
                }
                short = true;
            }
            // No instruction: it hides where `short` came from. Knowing that it is set only
            // where the check failed, LLVM computed it again from the check's vector on every
            // block (a spilled constant, an `and`, an `addv`, a move and a test: 1.1% of a
            // page's instructions).
            let mut flag = u32::from(short);
            asm!("/* {0:w} */", inout(reg) flag, options(pure, nomem, nostack, preserves_flags));
            let short = flag != 0;
            Some(Decoded {
                leads: lead,
                cp,
                has,
                short,
            })
        }
    }

    #[inline(always)]
    unsafe fn pair_count(d: &Decoded, _: u64) -> usize {
        // The lanes with a lead, each 0xFFFF (-1): their sum is minus their number (one
        // `addv` rather than the popcount of `leads` through a vector register, 0.6% of a
        // page's instructions).
        // SAFETY: register operations; NEON is baseline.
        usize::from(unsafe { vaddvq_u16(d.has) }.wrapping_neg())
    }

    #[inline(always)]
    unsafe fn three_byte(d: &Decoded, leads: u64) -> usize {
        // SAFETY: register operations; NEON is baseline.
        let pairs = unsafe { Self::pair_count(d, leads) };
        if !d.short {
            return pairs;
        }
        // SAFETY: register operations; NEON is baseline.
        pairs - unsafe { usize::from(vaddvq_u16(vshrq_n_u16::<15>(d.two()))) }
    }

    #[inline(always)]
    unsafe fn put_utf8(self, d: &Decoded, leads: u64, out: *mut u8) {
        // SAFETY: `put_utf8_pairs`'s contract is this one's.
        unsafe {
            if d.short {
                put_utf8_pairs::<true>(self, d, leads, out)
            } else {
                put_utf8_pairs::<false>(self, d, leads, out)
            }
        }
    }

    #[inline(always)]
    unsafe fn put_utf16(self, d: &Decoded, leads: u64, _: u64, out: *mut u16) {
        // SAFETY: register operations; the row and length loads index tables of 256 with a
        // byte; the stores write 8 units at `out` and at `out + n`, `n` at most 8: inside the
        // `ROOM16` (16) units of the contract.
        unsafe {
            if leads == EVEN {
                // Eight pairs: their code points are the output.
                vst1q_u16(out, d.cp);
                return;
            }
            let units = d.units(self);
            // The bytes kept: all but the trails (the leads' next bytes). A lead cleared from
            // the last byte is a unit after the block's output.
            const WEIGHT: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
            let trail = vextq_u8::<15>(vdupq_n_u8(0), d.leads);
            let bits = vbicq_u8(vld1q_u8(WEIGHT.as_ptr()), trail);
            let (i0, i1) = (
                usize::from(vaddv_u8(vget_low_u8(bits))),
                usize::from(vaddv_u8(vget_high_u8(bits))),
            );
            let piece =
                |u: uint16x8_t, i: usize| vqtbl1q_u8(vreinterpretq_u8_u16(u), vld1q_u8(ROWS16[i].as_ptr()));
            vst1q_u8(out.cast(), piece(units[0], i0));
            // Units of the first piece: its bytes, halved.
            let n = usize::from(ROWS16_LENS[i0] / 2);
            vst1q_u8(out.add(n).cast(), piece(units[1], i1));
        }
    }
}

impl cjk_decode::CjkPairRuns for uint8x16_t {
    // Sixteen pairs, their leads and trails apart (`ld2`).
    const PAIRS: usize = 32;
    /// Pairs 0..8 and 8..16.
    type Pairs = [uint16x8_t; 2];

    #[inline(always)]
    unsafe fn pairs<const MIN: u32>(src: *const u8, t: &Tables, _: &PairTables) -> Option<[uint16x8_t; 2]> {
        // SAFETY: `ld2` reads the 32 bytes at `src` (the contract); register operations and
        // `gather`.
        unsafe {
            let uint8x16x2_t(lead, trail) = vld2q_u8(src);
            // The rows (minus one) of the leads, the columns of the trails.
            let ((capable, rows), (trailing, cols)) = (t.leads(lead), t.trails(trail));
            if vminvq_u8(vandq_u8(capable, vtstq_u8(trailing, trailing))) == 0 {
                return None;
            }
            let pointers = [
                vmlal_u8(vmovl_u8(vget_low_u8(cols)), vget_low_u8(rows), t.row_len),
                vmlal_u8(vmovl_high_u8(cols), vget_high_u8(rows), t.row_len),
            ];
            let mut cp = [vdupq_n_u16(0); 2];
            let mut bad = vdupq_n_u16(0);
            for (cp, pointer) in cp.iter_mut().zip(pointers) {
                *cp = t.gather(pointer);
                // Above the limit, or not plain.
                bad = vorrq_u16(bad, vorrq_u16(vcgtq_u16(pointer, t.last), not_plain::<MIN>(*cp)));
            }
            (vmaxvq_u16(bad) == 0).then_some(cp)
        }
    }

    #[inline(always)]
    unsafe fn put_pairs_utf8(p: &[uint16x8_t; 2], out: *mut u8) {
        // SAFETY: register operations; `st3` writes the 48 bytes at `out` (the contract).
        unsafe {
            let [lo, hi] = *p;
            let low6 = vdupq_n_u8(0x3F);
            let b0 = vorrq_u8(
                vshrq_n_u8::<4>(vshrn_high_n_u16::<8>(vshrn_n_u16::<8>(lo), hi)),
                vdupq_n_u8(0xE0),
            );
            let b1 = vbslq_u8(
                low6,
                vshrn_high_n_u16::<6>(vshrn_n_u16::<6>(lo), hi),
                vdupq_n_u8(0x80),
            );
            let b2 = vbslq_u8(
                low6,
                vuzp1q_u8(vreinterpretq_u8_u16(lo), vreinterpretq_u8_u16(hi)),
                vdupq_n_u8(0x80),
            );
            vst3q_u8(out, uint8x16x3_t(b0, b1, b2));
        }
    }

    #[inline(always)]
    unsafe fn put_pairs_utf16(p: &[uint16x8_t; 2], out: *mut u16) {
        // SAFETY: the two stores write the 16 units at `out` (the contract).
        unsafe {
            vst1q_u16(out, p[0]);
            vst1q_u16(out.add(8), p[1]);
        }
    }
}

pub(crate) fn cjk_to_utf8(src: &[u8], tables: &PairTables, dst: &mut OutBytes) -> (usize, usize) {
    // SAFETY: NEON is part of the aarch64 baseline, which is all the generic kernel requires.
    unsafe { cjk_decode::to_utf8_runs::<uint8x16_t>(src, tables, dst) }
}

pub(crate) fn cjk_to_utf16(src: &[u8], tables: &PairTables, dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: as `cjk_to_utf8`.
    unsafe { cjk_decode::to_utf16_runs::<uint8x16_t>(src, tables, dst) }
}

/// The encoder's pages in registers and the blocks' limit.
pub(crate) struct EncodeRegs {
    pages: [uint8x16x4_t; 4],
    /// The blocks' limit minus one, at most 0xFFFF.
    last: uint16x8_t,
}

impl LegacyEncodeVector for uint8x16_t {
    type Tables = EncodeRegs;

    #[inline(always)]
    unsafe fn load_tables(tables: &EncodeTables) -> EncodeRegs {
        // SAFETY: each load reads 64 bytes inside the 256 of `pages`.
        unsafe {
            let page = |i: usize| vld1q_u8_x4(tables.pages.as_ptr().add(64 * i));
            EncodeRegs {
                pages: [page(0), page(1), page(2), page(3)],
                last: vdupq_n_u16(tables.blocks.limit().min(0x1_0000).saturating_sub(1) as u16),
            }
        }
    }

    #[inline(always)]
    unsafe fn ascii(self) -> bool {
        // SAFETY: register operations.
        unsafe { vmaxvq_u16(vreinterpretq_u16_u8(self)) < 0x80 }
    }

    #[inline(always)]
    unsafe fn lookup<const WIDE: bool>(self, t: &EncodeRegs, tables: &EncodeTables) -> Option<Self> {
        // SAFETY: register operations; the lane loads read entries at indexes clamped to
        // `t.last`, below the blocks' limit, inside the blocks (two bytes at an entry of a
        // byte table: the limit leaves 3 after it).
        unsafe {
            let u = vreinterpretq_u16_u8(self);
            let high = vshrn_n_u16::<8>(u);
            let sixty_four = vdup_n_u8(64);
            let h1 = vsub_u8(high, sixty_four);
            let h2 = vsub_u8(h1, sixty_four);
            let h3 = vsub_u8(h2, sixty_four);
            let page = vqtbx4_u8(
                vqtbx4_u8(
                    vqtbx4_u8(vqtbl4_u8(t.pages[0], high), t.pages[1], h1),
                    t.pages[2],
                    h2,
                ),
                t.pages[3],
                h3,
            );
            let index = vorrq_u16(vshll_n_u8::<8>(page), vandq_u16(u, vdupq_n_u16(0xFF)));
            let ascii = vcltq_u16(u, vdupq_n_u16(0x80));
            let mut bad = vorrq_u16(
                vcgtq_u16(index, t.last),
                vceqq_u16(vandq_u16(u, vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800)),
            );
            let clamped = vminq_u16(index, t.last);
            let mut at = [0u16; 8];
            vst1q_u16(at.as_mut_ptr(), clamped);
            let mut bytes = vdupq_n_u16(0);
            let base: *const u8 = match tables.blocks {
                Lookup::U16(b) => b.as_ptr().cast(),
                Lookup::U8(b) => b.as_ptr(),
            };
            let width = if WIDE { 2 } else { 1 };
            macro_rules! lanes {
                ($($k:literal)*) => {
                    $(bytes = vld1q_lane_u16::<$k>(base.add(width * usize::from(at[$k])).cast(), bytes);)*
                };
            }
            lanes!(0 1 2 3 4 5 6 7);
            if !WIDE {
                bytes = vandq_u16(bytes, vdupq_n_u16(0xFF));
            }
            bad = vorrq_u16(bad, vceqq_u16(bytes, vdupq_n_u16(0)));
            if vmaxvq_u16(vbicq_u16(bad, ascii)) != 0 {
                return None;
            }
            Some(vreinterpretq_u8_u16(vbslq_u16(ascii, u, bytes)))
        }
    }

    #[inline(always)]
    unsafe fn store_narrow(self, out: *mut u8) {
        // SAFETY: 8 writable bytes (the contract).
        unsafe { vst1_u8(out, vmovn_u16(vreinterpretq_u16_u8(self))) }
    }

    #[inline(always)]
    unsafe fn store_bytes(self, out: *mut u8) -> usize {
        // SAFETY: register operations; the row loads index tables of 256 and 9 rows; the
        // stores write 8 bytes at `out` and 8 ending at `out + n`, `8 <= n <= 16`: inside
        // the 16 bytes of the contract.
        unsafe {
            let u = vreinterpretq_u16_u8(self);
            let one = vcltq_u16(u, vdupq_n_u16(0x100));
            // Two bytes: high (lead) first.
            let lanes = vbslq_u16(one, u, vreinterpretq_u16_u8(vrev16q_u8(self)));
            const WEIGHT: [u8; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
            let ones = vaddv_u8(vand_u8(vmovn_u16(one), vld1_u8(WEIGHT.as_ptr())));
            let packed = vqtbl1q_u8(
                vreinterpretq_u8_u16(lanes),
                vld1q_u8(ROWS12[usize::from(ones)].as_ptr()),
            );
            // 16 less one a unit of one byte: the row's length (a load, where the popcount
            // goes through a vector register).
            let n = usize::from(ROWS12_LENS[usize::from(ones)]);
            vst1_u8(out, vget_low_u8(packed));
            let end = vqtbl1q_u8(packed, vld1q_u8(TAIL8[n - 8].as_ptr()));
            vst1_u8(out.add(n - 8), vget_low_u8(end));
            n
        }
    }
}

pub(crate) fn utf16_to_legacy(src: &[u16], tables: &EncodeTables, dst: &mut OutBytes) -> (usize, usize) {
    // SAFETY: NEON is part of the aarch64 baseline, which is all the generic kernel requires.
    unsafe { legacy_encode::utf16_to_legacy::<uint8x16_t>(src, tables, dst) }
}
