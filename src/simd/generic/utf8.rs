//! UTF-8 validation by the vectorised lookup algorithm (Keiser & Lemire, "Validating UTF-8 in
//! less than one instruction per byte", 2021), and the validate-and-copy kernel built on it.
//!
//! ```text
//! for each step of 256 bytes (four blocks; 64 bytes near the end of the input):
//!     if the step is ASCII: error |= "the previous step ended inside a character"
//!     else for each vector v (with prev = the vector before it):
//!         special = lookup(high nibble of prev1) & lookup(low nibble of prev1)
//!                 & lookup(high nibble of v)           // one bit per error kind
//!         must23  = prev2 >= 0xE0 | prev3 >= 0xF0        // 3rd/4th byte of a sequence
//!         error  |= (must23 & 0x80) ^ special            // continuation where (not) expected
//!     prev_incomplete = the last three bytes start a sequence the step does not finish
//!     if error: stop (one test and branch per step)
//! ```
//! The vector code only answers "is there an error in or before this step". Exact positions
//! come from the scalar kernel, which restarts at the last character boundary before the
//! failing step (everything before it was proven valid) — so the answer is the scalar
//! kernel's answer, as the kernel contract requires. With AVX-512 the nibble lookups are
//! `vpermb` (no masking: the tables repeat every 16 bytes) and the and/or/xor pairs are
//! three-input `vpternlogd`; steps of four blocks fold their checks into one test
//! (docs/decisions.md, "Kernel tuning").
//!
//! The copy kernel copies each step, up to its last complete character, right after
//! validating it, while it is in L1: one pass over the input. It never writes past what it
//! returns, because it copies only characters already proven valid and complete.

use super::super::scalar;
use super::super::vector::Vector;
use crate::simd::{OutBytes, write_bytes};

/// What the UTF-8 algorithm needs beyond [`Vector`].
pub(crate) trait Utf8Vector: Vector {
    /// The 16-byte `table` repeated in every 128-bit lane.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn repeat16(table: &[u8; 16]) -> Self;
    /// Each byte shifted right by 4 (its high nibble).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn high_nibbles(self) -> Self;
    /// `table[self[i]]` per byte, for `self` bytes below 16 (`pshufb` within 128-bit lanes;
    /// `table` is a [`Utf8Vector::repeat16`]).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn lookup16(self, table: Self) -> Self;
    /// The stream shifted by 1, 2 or 3 bytes: byte `i` of the result is the byte `n` places
    /// before byte `i` of `self`, taken from `prev` for the first `n` bytes.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn prev1(self, prev: Self) -> Self;
    /// See [`Utf8Vector::prev1`].
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn prev2(self, prev: Self) -> Self;
    /// See [`Utf8Vector::prev1`].
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn prev3(self, prev: Self) -> Self;
    /// Unsigned saturating subtraction per byte.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn saturating_sub(self, other: Self) -> Self;
    /// All bytes 0xFF except the last three: 0xEF, 0xDF, 0xBF — subtracting it (saturating)
    /// leaves a non-zero byte exactly where the last three bytes start a sequence that is
    /// longer than what is left of the vector.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn incomplete_limits() -> Self;

    /// Whether, in the steps of four blocks, the first byte's two lookups are made on each
    /// vector and their result shifted (one shift of one vector, by [`Utf8Vector::shifted`]),
    /// rather than on the shifted vector (where shifting costs more than a lookup).
    const LOOKUP_THEN_SHIFT: bool = false;

    /// Whether a step of mixed text is checked vector by vector, only where a vector is not
    /// ASCII ([`Checker::sparse_step_has_error`]), rather than block by block
    /// ([`Checker::mixed_step_has_error`]); see docs/decisions.md, "NEON UTF-8 validation of
    /// mixed text, vector by vector".
    const SPARSE_STEPS: bool = false;

    /// Per byte: `self` where `other` is below 0x80, else 0.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn where_ascii(self, other: Self) -> Self {
        // SAFETY: ISA enabled per contract.
        unsafe {
            let ascii = other.saturating_sub(Self::splat(0x7F)).eq8(Self::splat(0));
            Self::select(ascii, self, Self::splat(0))
        }
    }

    /// How many bits [`Utf8Vector::non_ascii_vectors`] gives each vector.
    const VECTOR_MASK_BITS: u32 = 1;

    /// For the vectors `load(i)` of a step of four blocks (`i` the multiples of `LANES`
    /// below 256, at most 16 vectors): bit `i / LANES * VECTOR_MASK_BITS` set where that
    /// vector holds a byte of 0x80 or more, every other bit clear.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `load` may be called with those `i`.
    #[inline(always)]
    unsafe fn non_ascii_vectors(load: &impl Fn(usize) -> Self) -> u64 {
        let mut mask = 0;
        let mut i = 0;
        while i < 4 * BLOCK {
            // SAFETY: `i` is one of the multiples allowed by the contract; ISA enabled per
            // contract.
            let high = unsafe { load(i).any_high() };
            mask |= u64::from(high) << ((i / Self::LANES) as u32 * Self::VECTOR_MASK_BITS);
            i += Self::LANES;
        }
        mask
    }

    /// As [`Utf8Vector::prev1`], `prev2` or `prev3` (`N` = 1, 2, 3), for the steps of four
    /// blocks, where the fewest operations matter more than the shortest latency.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn shifted<const N: usize>(self, prev: Self) -> Self {
        // SAFETY: ISA enabled per contract.
        unsafe {
            match N {
                1 => self.prev1(prev),
                2 => self.prev2(prev),
                _ => self.prev3(prev),
            }
        }
    }

    /// `table[b >> 4]` for each byte `b` (`table` is a [`Utf8Vector::repeat16`]).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn lookup_high(self, table: Self) -> Self {
        // SAFETY: ISA enabled per contract.
        unsafe { self.high_nibbles().lookup16(table) }
    }

    /// `table[b & 0x0F]` for each byte `b` (`table` is a [`Utf8Vector::repeat16`]).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn lookup_low(self, table: Self) -> Self {
        // SAFETY: ISA enabled per contract.
        unsafe { self.and(Self::splat(0x0F)).lookup16(table) }
    }

    /// `self & b & c` (one instruction where the ISA has three-input logic).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn and3(self, b: Self, c: Self) -> Self {
        // SAFETY: ISA enabled per contract.
        unsafe { self.and(b).and(c) }
    }

    /// `(self | b) & c`.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn or_and(self, b: Self, c: Self) -> Self {
        // SAFETY: ISA enabled per contract.
        unsafe { self.or(b).and(c) }
    }

    /// `lookup_high(t1h) & lookup_low(t1l)`: what the first byte of a pair contributes.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn first_byte_lookups(self, t1h: Self, t1l: Self) -> Self {
        // SAFETY: ISA enabled per contract.
        unsafe { self.lookup_high(t1h).and(self.lookup_low(t1l)) }
    }

    /// `self | (b ^ c)`.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn or_xor(self, b: Self, c: Self) -> Self {
        // SAFETY: ISA enabled per contract.
        unsafe { self.or(b.xor(c)) }
    }

    /// The vector whose first `skip` lanes are zero and whose other lanes hold the
    /// `LANES - skip` bytes at `src` (`0 < skip < LANES`), reading no other byte: `Some`
    /// where the ISA has masked loads, `None` otherwise.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `src` is valid for reading `LANES - skip` bytes.
    #[inline(always)]
    unsafe fn load_after_zeros(src: *const u8, skip: usize) -> Option<Self> {
        let _ = (src, skip);
        None
    }

    /// The high bit of each byte set exactly where the byte is a continuation byte
    /// (0x80..=0xBF), the other bits unspecified: `b ^ 0x40` is 0xC0 or more exactly for them,
    /// and less 0x40 (saturating) keeps the high bit exactly there. One signed compare
    /// (below -64) where the ISA has it for bytes.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn continuations(self) -> Self {
        // SAFETY: ISA enabled per contract.
        unsafe { self.xor(Self::splat(0x40)).saturating_sub(Self::splat(0x40)) }
    }

    /// The high bits of the 64 bytes of four 16-byte vectors `a`, `b`, `c`, `d` (in that
    /// order), as [`Vector::high_mask`] of each shifted into place; used where
    /// `4 * LANES == 64`. NEON has no movemask: it reduces the four at once.
    ///
    /// # Safety
    /// The ISA is enabled in the caller; `Self::LANES == 16`.
    #[inline(always)]
    unsafe fn high_mask4(a: Self, b: Self, c: Self, d: Self) -> u64 {
        // SAFETY: ISA enabled per contract.
        unsafe { a.high_mask() | (b.high_mask() << 16) | (c.high_mask() << 32) | (d.high_mask() << 48) }
    }
}

const TOO_SHORT: u8 = 1 << 0;
const TOO_LONG: u8 = 1 << 1;
const OVERLONG_3: u8 = 1 << 2;
const TOO_LARGE: u8 = 1 << 3;
const SURROGATE: u8 = 1 << 4;
const OVERLONG_2: u8 = 1 << 5;
const TOO_LARGE_1000: u8 = 1 << 6;
const OVERLONG_4: u8 = 1 << 6;
const TWO_CONTS: u8 = 1 << 7;
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// By the high nibble of the first byte of a pair.
pub(crate) const BYTE_1_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// By the low nibble of the first byte of a pair.
pub(crate) const BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// By the high nibble of the second byte of a pair.
pub(crate) const BYTE_2_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// `BYTE_1_HIGH[b >> 4] & BYTE_1_LOW[b & 0x0F]` for every ASCII byte `b`.
const ASCII_FIRST: u8 = TOO_LONG;

/// Bytes per block: one AVX-512 vector, two AVX2 vectors.
pub(crate) const BLOCK: usize = 64;

/// How many steps of four blocks without an ASCII block the validator still tests each block
/// for ASCII after one with (German: a non-ASCII letter in most steps, not in most blocks,
/// and now and then four blocks in a row); never leaving the test costs non-Latin text
/// (docs/decisions.md, "Kernel tuning").
const MIXED_STEPS: u8 = 4;

/// The validator's state between blocks.
#[derive(Clone, Copy)]
pub(crate) struct Checker<V> {
    prev: V,
    /// `prev.first_byte_lookups(t1h, t1l)` where [`Utf8Vector::LOOKUP_THEN_SHIFT`] (only its
    /// last byte is used), kept by the steps of four blocks and by ASCII; a check of a block
    /// or less leaves it as it was (see [`Checker::before_steps`]).
    prev_first: V,
    prev_incomplete: V,
    /// Whether the last block checked was all ASCII (then `prev_incomplete` is zero).
    ascii: bool,
    /// How many more steps of four blocks test each block for ASCII
    /// ([`Checker::vectors_have_error`]): [`MIXED_STEPS`] after a step with an ASCII block,
    /// one less after each step without.
    mixed: u8,
    t1h: V,
    t1l: V,
    t2h: V,
}

impl<V: Utf8Vector> Checker<V> {
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        // SAFETY: ISA enabled per this function's contract.
        unsafe {
            Checker {
                prev: V::splat(0),
                prev_first: V::splat(ASCII_FIRST),
                prev_incomplete: V::splat(0),
                ascii: false,
                mixed: 0,
                t1h: V::repeat16(&BYTE_1_HIGH),
                t1l: V::repeat16(&BYTE_1_LOW),
                t2h: V::repeat16(&BYTE_2_HIGH),
            }
        }
    }

    /// Checks the block at `p` (64 readable bytes); true if it holds an error or finishes
    /// the previous block's last character wrongly.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `p` is valid for reading 64 bytes.
    #[inline(always)]
    unsafe fn block_has_error(&mut self, p: *const u8) -> bool {
        // SAFETY: every load reads inside the 64 bytes at `p` (`i < BLOCK`); ISA enabled
        // per contract.
        unsafe { self.vectors_have_error::<BLOCK, false>(|i| V::load(p.add(i))) }
    }

    /// As [`Checker::block_has_error`], for the two blocks at `p` (128 readable bytes) as
    /// one step: one test of the error and one branch for both.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `p` is valid for reading 128 bytes.
    #[inline(always)]
    unsafe fn blocks4_have_error(&mut self, p: *const u8) -> bool {
        // SAFETY: every load reads inside the 256 bytes at `p` (`i < 4 * BLOCK`); ISA
        // enabled per contract.
        unsafe { self.vectors_have_error::<{ 4 * BLOCK }, true>(|i| V::load(p.add(i))) }
    }

    /// As [`Checker::block_has_error`], for the `BYTES` bytes whose vector at byte `i` (a
    /// multiple of `V::LANES` below `BYTES`) is `load(i)`. `STEP`: checked as a step of
    /// four blocks, in the fewest operations (see [`Checker::check`]).
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `load` may be called with those `i`.
    #[inline(always)]
    unsafe fn vectors_have_error<const BYTES: usize, const STEP: bool>(
        &mut self,
        load: impl Fn(usize) -> V,
    ) -> bool {
        // SAFETY: `load` is called only with multiples of `V::LANES` below `BYTES`, per
        // contract; ISA enabled per contract.
        unsafe {
            // A step of text that may be mostly ASCII (after a step with an ASCII block, or
            // an ASCII vector) tests each block for ASCII and checks only the others, as
            // simdutf8 does: German or markup with a non-ASCII letter in most steps but not in
            // most blocks. Text in another script is checked whole, without the tests.
            if STEP && (self.mixed > 0 || !self.prev.any_high()) {
                if !V::SPARSE_STEPS {
                    return self.mixed_step_has_error::<BYTES>(load);
                }
                debug_assert!(BYTES == 4 * BLOCK, "STEP: a step of four blocks");
                let mask = V::non_ascii_vectors(&load);
                let (set, vectors) = (mask.count_ones(), (BYTES / V::LANES) as u32);
                self.mixed = if set < vectors {
                    MIXED_STEPS
                } else {
                    self.mixed.saturating_sub(1)
                };
                if set <= vectors / 2 {
                    return self.sparse_step_has_error::<BYTES>(load, mask);
                }
                // Mostly not ASCII: checked whole.
                self.ascii = false;
                return self.full_step_has_error::<BYTES, STEP>(&load);
            }
            let mut any_high = V::splat(0);
            let test_ascii = !STEP;
            let mut i = 0;
            while test_ascii && i < BYTES {
                any_high = any_high.or(load(i));
                i += V::LANES;
            }
            if test_ascii && !any_high.any_high() {
                let error = self.prev_incomplete.any();
                self.prev = load(BYTES - V::LANES);
                self.prev_first = V::splat(ASCII_FIRST);
                self.prev_incomplete = V::splat(0);
                self.ascii = true;
                return error;
            }
            self.ascii = false;
            self.full_step_has_error::<BYTES, STEP>(&load)
        }
    }

    /// The errors of the `BYTES` bytes `load(i)`, all checked.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `load` may be called with the multiples of `V::LANES` below `BYTES`.
    #[inline(always)]
    unsafe fn full_step_has_error<const BYTES: usize, const STEP: bool>(
        &mut self,
        load: &impl Fn(usize) -> V,
    ) -> bool {
        // SAFETY: `load` is called only with multiples of `V::LANES` below `BYTES`, per
        // contract; ISA enabled per contract.
        unsafe {
            // A step of more than 8 vectors (16 with NEON's 16-byte vectors) is checked as a
            // loop over its blocks, whose end the compiler is not told: unrolled, it schedules
            // all the loads first and spills registers. 8 vectors (AVX2) are checked straight.
            let mut error = V::splat(0);
            let mut block = 0;
            let blocks_end = if BYTES / V::LANES > 8 {
                core::hint::black_box(BYTES)
            } else {
                BYTES
            };
            while block < blocks_end {
                error = self.check_block::<STEP>(error, load, block);
                block += BLOCK;
            }
            self.prev_incomplete = self.prev.saturating_sub(V::incomplete_limits());
            error.any()
        }
    }

    /// [`Checker::vectors_have_error`] for a step that tests each block for ASCII: an ASCII
    /// block only ends the character the block before it started (`prev_incomplete`), the
    /// others are checked in full.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `load` may be called with the multiples of `V::LANES` below `BYTES`.
    #[inline(always)]
    unsafe fn mixed_step_has_error<const BYTES: usize>(&mut self, load: impl Fn(usize) -> V) -> bool {
        // SAFETY: `load` is called only with multiples of `V::LANES` below `BYTES`, per
        // contract; ISA enabled per contract.
        unsafe {
            let mut error = V::splat(0);
            let mut ascii_blocks = 0;
            let mut block = 0;
            while block < BYTES {
                let mut any_high = V::splat(0);
                let mut i = block;
                while i < block + BLOCK {
                    any_high = any_high.or(load(i));
                    i += V::LANES;
                }
                if !any_high.any_high() {
                    error = error.or(self.prev_incomplete);
                    self.prev = load(block + BLOCK - V::LANES);
                    self.prev_first = V::splat(ASCII_FIRST);
                    self.prev_incomplete = V::splat(0);
                    ascii_blocks += 1;
                    self.ascii = true;
                } else {
                    error = self.check_block::<true>(error, &load, block);
                    self.prev_incomplete = self.prev.saturating_sub(V::incomplete_limits());
                    self.ascii = false;
                }
                block += BLOCK;
            }
            self.mixed = if ascii_blocks > 0 {
                MIXED_STEPS
            } else {
                self.mixed.saturating_sub(1)
            };
            error.any()
        }
    }

    /// [`Checker::vectors_have_error`] for a step of mixed text whose vectors that are not
    /// ASCII are the set bits of `mask` (from [`Utf8Vector::non_ascii_vectors`]): each of
    /// them is checked after the vector before it, and an ASCII vector only ends the
    /// character the vector before it started. German checks a vector in four and one 16-byte
    /// vector's test costs less than a block's.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `load` may be called with the multiples of `V::LANES` below `BYTES`.
    #[inline(always)]
    unsafe fn sparse_step_has_error<const BYTES: usize>(
        &mut self,
        load: impl Fn(usize) -> V,
        mut mask: u64,
    ) -> bool {
        let bits = V::VECTOR_MASK_BITS;
        // SAFETY: `load` is called only with multiples of `V::LANES` below `BYTES`, per
        // contract: `at` is a set bit's vector (below `BYTES`, as `mask` has bits only for
        // its vectors); `at - LANES` only in the loop, where vector 0 (peeled) is done and
        // `at >= LANES`; `at + LANES` only where the next vector's bit is set. ISA enabled
        // per contract.
        unsafe {
            let all = mask;
            let mut error = V::splat(0);
            // Where the last vector checked (or the previous step) ends inside a character.
            // The next vector checked finishes it if it directly follows (then `prev` holds
            // the character's lead, not ASCII); else ASCII came between: an error.
            let mut pending = self.prev_incomplete;
            if mask & 1 != 0 {
                let v = load(0);
                error = self.check::<false>(error, v);
                pending = v.saturating_sub(V::incomplete_limits());
                mask &= mask - 1;
            }
            while mask != 0 {
                let bit = mask.trailing_zeros();
                // `bit` is a multiple of `bits`.
                let at = bit as usize * (V::LANES / bits as usize);
                self.prev = load(at - V::LANES);
                error = error.or(pending.where_ascii(self.prev));
                let mut v = load(at);
                error = self.check::<false>(error, v);
                mask &= mask - 1;
                // The next vector too if it is not ASCII (markup and Japanese text have runs
                // of them): `prev` is already in a register.
                if (mask >> bit) & (1 << bits) != 0 {
                    v = load(at + V::LANES);
                    error = self.check::<false>(error, v);
                    mask &= mask - 1;
                }
                pending = v.saturating_sub(V::incomplete_limits());
            }
            let v = load(BYTES - V::LANES);
            error = error.or(pending.where_ascii(v));
            // Whether the last block is ASCII (then no character crosses into the next step).
            let block_bits = (BLOCK / V::LANES) as u32 * bits;
            self.ascii = all >> ((BYTES / V::LANES) as u32 * bits - block_bits) == 0;
            self.prev_incomplete = v.saturating_sub(V::incomplete_limits());
            self.prev = v;
            self.before_steps();
            error.any()
        }
    }

    /// Makes the state ready for steps of four blocks after a check of a block or less,
    /// which leaves the shifted lookups of [`Utf8Vector::LOOKUP_THEN_SHIFT`] as they were
    /// (where they are not needed: at the end of the input).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn before_steps(&mut self) {
        if V::LOOKUP_THEN_SHIFT {
            // SAFETY: ISA enabled per contract.
            self.prev_first = unsafe { self.prev.first_byte_lookups(self.t1h, self.t1l) };
        }
    }

    /// Checks the block at `p` (64 readable bytes) on its own, as if an ASCII byte preceded
    /// it (for a block that starts at a character boundary): true if it holds an error. A
    /// character cut by the end of the block is not one.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `p` is valid for reading 64 bytes.
    #[inline(always)]
    pub(crate) unsafe fn block_has_error_at_boundary(&mut self, p: *const u8) -> bool {
        // SAFETY: ISA enabled and `p` valid for 64 bytes, per this function's contract; the
        // loads are inside them (`i < BLOCK`).
        unsafe {
            self.prev = V::splat(0);
            self.prev_first = V::splat(ASCII_FIRST);
            self.prev_incomplete = V::splat(0);
            // No test for ASCII (the callers convert ASCII blocks without one).
            self.check_block::<true>(V::splat(0), &|i| V::load(p.add(i)), 0)
                .any()
        }
    }

    /// Checks the last bytes of the input, fewer than a block, as a block padded with zeros:
    /// true if they hold no error and end with a whole character (a character cut by the
    /// end is an error here: a zero byte cannot continue it).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn tail_is_valid(&mut self, tail: &[u8]) -> bool {
        let n = tail.len().min(BLOCK);
        if V::LANES == BLOCK {
            // SAFETY: `tail` has `n` readable bytes; ISA enabled per contract.
            if let Some(v) = unsafe { V::load_partial(tail.as_ptr(), n) } {
                // SAFETY: the block is one vector, `v`; ISA enabled per contract.
                return unsafe { !self.vectors_have_error::<BLOCK, false>(|_| v) };
            }
        }
        let mut block = [0u8; BLOCK];
        block[..n].copy_from_slice(&tail[..n]);
        // SAFETY: `block` has 64 readable bytes; ISA enabled per contract.
        unsafe { !self.block_has_error(block.as_ptr()) }
    }

    /// Checks `src[from..to]` (fewer than a block) as the last bytes: `Some(to)` if valid and
    /// ending with a whole character; else, if a character cut by `to` starts in the last
    /// three bytes (an input cut in the middle of a character), `Some` of where it starts if
    /// everything before it is valid — the exact answer, since that character cannot be
    /// whole; `None` if there is an error before.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn tail_valid_to(&mut self, src: &[u8], from: usize, to: usize) -> Option<usize> {
        let before = *self;
        // SAFETY: ISA enabled per contract.
        if unsafe { self.tail_is_valid(&src[from..to]) } {
            return Some(to);
        }
        let end = char_start(src, to);
        if end < to && end >= from {
            *self = before;
            // SAFETY: ISA enabled per contract.
            if unsafe { self.tail_is_valid(&src[from..end]) } {
                return Some(end);
            }
        }
        None
    }

    /// After an ASCII block: how many of the `RUN` bytes at `p` (a multiple of 256) are
    /// ASCII blocks before the first that is not, tested four vectors at a time; they count
    /// as checked. A run that ends before `RUN` bytes clears `ascii`: the block after it is not
    /// ASCII, and the caller checks it next rather than testing it again.
    ///
    /// Markup and German text end most runs after a block or a few: testing the `RUN` bytes
    /// at once and giving up the run at a non-ASCII byte, rather than taking its ASCII
    /// blocks, cost them a test of up to 512 bytes and a full check of the ASCII blocks.
    ///
    /// With `copy_to`, each ASCII block is also stored there (at the same offset) from the
    /// registers it was tested in, rather than loaded again for a copy after the run.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `p` is valid for reading `RUN` bytes, and `copy_to` (if any) for writing them.
    #[inline(always)]
    unsafe fn ascii_run<const RUN: usize>(&mut self, p: *const u8, copy_to: Option<*mut u8>) -> usize {
        if !self.ascii {
            return 0;
        }
        // Four vectors a test: a block with 16-byte vectors, 2 blocks with 32-byte ones, 4
        // with 64-byte ones (a test a block costs AVX-512 more than it saves).
        let unit = if 4 * V::LANES > BLOCK { 4 * V::LANES } else { BLOCK };
        // SAFETY: every load reads inside the `RUN` bytes at `p` (a multiple of `unit`), and
        // every store writes inside those at `copy_to` (`n + i < n + unit <= RUN`); ISA
        // enabled per contract.
        unsafe {
            let store = |vectors: &[V; 4], at: usize, from: usize, to: usize| {
                if let Some(d) = copy_to {
                    let mut i = from;
                    while i < to {
                        vectors[i / V::LANES].store(d.add(at + i));
                        i += V::LANES;
                    }
                }
            };
            let mut n = 0;
            while n < RUN {
                let mut vectors = [V::splat(0); 4];
                let mut any_high = V::splat(0);
                let mut i = 0;
                while i < unit {
                    vectors[i / V::LANES] = V::load(p.add(n + i));
                    any_high = any_high.or(vectors[i / V::LANES]);
                    i += V::LANES;
                }
                if !any_high.any_high() {
                    store(&vectors, n, 0, unit);
                    n += unit;
                    continue;
                }
                // The ASCII blocks of this unit before the first that is not.
                let mut b = 0;
                while b + BLOCK < unit {
                    let mut any_high = vectors[b / V::LANES];
                    let mut i = b + V::LANES;
                    while i < b + BLOCK {
                        any_high = any_high.or(vectors[i / V::LANES]);
                        i += V::LANES;
                    }
                    if any_high.any_high() {
                        break;
                    }
                    store(&vectors, n, b, b + BLOCK);
                    b += BLOCK;
                }
                n += b;
                self.ascii = false;
                break;
            }
            if n > 0 {
                // `prev_incomplete` is already zero (the last block was ASCII).
                self.prev = V::load(p.add(n - V::LANES));
                self.prev_first = V::splat(ASCII_FIRST);
            }
            n
        }
    }

    /// `error` with the errors of the block of vectors `load(i)` for `i` from `block` to
    /// `block + BLOCK` (by `V::LANES`) added.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `load` may be called with those `i`.
    #[inline(always)]
    unsafe fn check_block<const STEP: bool>(
        &mut self,
        mut error: V,
        load: &impl Fn(usize) -> V,
        block: usize,
    ) -> V {
        // SAFETY: `load` is called with `block`, `block + LANES`, ... below `block + BLOCK`,
        // per contract; ISA enabled per contract.
        unsafe {
            let mut i = 0;
            while i < BLOCK {
                error = self.check::<STEP>(error, load(block + i));
                i += V::LANES;
            }
            error
        }
    }

    /// `error` with the errors of `v` added (`prev` is the vector before it, and `v` is
    /// then). In a `STEP` where [`Utf8Vector::LOOKUP_THEN_SHIFT`], the first byte's lookups
    /// are made on `v` and shifted, with [`Utf8Vector::shifted`]: 13 operations per vector
    /// instead of 14 at AVX-512, 7 of them shuffles or shifts instead of 9. Elsewhere (a
    /// block or less) the shorter latency of `alignr` counts more (docs/decisions.md,
    /// "Kernel tuning").
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn check<const STEP: bool>(&mut self, error: V, v: V) -> V {
        // SAFETY: ISA enabled per contract; register operations only.
        unsafe {
            let (special, prev2, prev3) = if V::LOOKUP_THEN_SHIFT && STEP {
                let first = v.first_byte_lookups(self.t1h, self.t1l);
                let special = first.shifted::<1>(self.prev_first).and(v.lookup_high(self.t2h));
                self.prev_first = first;
                (special, v.shifted::<2>(self.prev), v.shifted::<3>(self.prev))
            } else {
                let prev1 = v.prev1(self.prev);
                let special = prev1
                    .lookup_high(self.t1h)
                    .and3(prev1.lookup_low(self.t1l), v.lookup_high(self.t2h));
                (special, v.prev2(self.prev), v.prev3(self.prev))
            };
            let third = prev2.saturating_sub(V::splat(0xE0 - 0x80));
            let fourth = prev3.saturating_sub(V::splat(0xF0 - 0x80));
            let must23 = third.or_and(fourth, V::splat(0x80));
            self.prev = v;
            error.or_xor(must23, special)
        }
    }
}

/// The bytes checked as one step while the text is ASCII (longer steps, fewer tests;
/// docs/decisions.md, "Kernel tuning").
const ASCII_RUN: usize = 8 * BLOCK;

/// The input length from which validation first checks the bytes up to a 64-byte boundary
/// (where the ISA has masked loads), so that its other loads are aligned; below a few blocks
/// the extra block costs more than the alignment saves (docs/decisions.md, "Kernel tuning").
const ALIGN_FROM: usize = 1024;

/// Where the character that contains position `i` starts: `i` itself if a character starts
/// there (or `i` is the end), else the lead byte up to three places before it. Used only where
/// everything before that lead is known to be valid.
pub(crate) fn char_start(src: &[u8], i: usize) -> usize {
    let from = i.saturating_sub(3);
    for q in (from..i).rev() {
        let b = src[q];
        if b >= 0xC0 {
            let len = if b >= 0xF0 {
                4
            } else if b >= 0xE0 {
                3
            } else {
                2
            };
            return if i - q < len { q } else { i };
        }
        if b < 0x80 {
            return i;
        }
    }
    i
}

/// Whether `src` (at most 256 bytes) is ASCII, checked with whole vectors and one masked
/// load, without the validator's tables (short inputs would pay for loading them); false
/// where the ISA has no masked loads (docs/decisions.md, "Kernel tuning").
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn is_short_ascii<V: Utf8Vector>(src: &[u8]) -> bool {
    let n = src.len();
    if n > 4 * BLOCK {
        return false;
    }
    // SAFETY: below `LANES` bytes, one masked load of them; else whole vectors at `k` while
    // `k + LANES < n` and the last whole vector, at `n - LANES`: every read is inside `src`;
    // ISA enabled per contract.
    unsafe {
        if n < V::LANES {
            return V::load_partial(src.as_ptr(), n).is_some_and(|v| !v.any_high());
        }
        let mut any = V::load(src.as_ptr().add(n - V::LANES));
        let mut k = 0;
        while k + V::LANES < n {
            any = any.or(V::load(src.as_ptr().add(k)));
            k += V::LANES;
        }
        !any.any_high()
    }
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn valid_up_to<V: Utf8Vector>(src: &[u8]) -> usize {
    if src.len() <= 4 * BLOCK
        // SAFETY: ISA enabled per contract.
        && unsafe { is_short_ascii::<V>(src) }
    {
        return src.len();
    }
    // SAFETY: ISA enabled per contract.
    let mut checker = unsafe { Checker::<V>::new() };
    if src.len() < BLOCK {
        // Only the tail: checked before the loops, whose constants the compiler loads ahead
        // of them (short inputs would pay for those loads).
        // SAFETY: ISA enabled per contract.
        return unsafe { checker.tail_valid_to(src, 0, src.len()) }
            .unwrap_or_else(|| scalar::utf8_valid_up_to(src));
    }
    let mut i = 0;
    let skip = src.as_ptr() as usize % BLOCK;
    if V::LANES == BLOCK && skip != 0 && src.len() >= ALIGN_FROM {
        // The bytes up to the first 64-byte boundary, as one block after `skip` zero bytes
        // (as if ASCII preceded the input, which is how the checker starts): every later
        // load is then aligned instead of spanning two cache lines.
        // SAFETY: `src` has `src.len() >= 64 - skip` readable bytes; ISA enabled per
        // contract.
        if let Some(v) = unsafe { V::load_after_zeros(src.as_ptr(), skip) } {
            // SAFETY: the block is one vector, `v`; ISA enabled per contract.
            if unsafe { checker.vectors_have_error::<BLOCK, false>(|_| v) } {
                return scalar::utf8_valid_up_to(src);
            }
            // SAFETY: ISA enabled per contract.
            unsafe { checker.before_steps() };
            i = BLOCK - skip;
        }
    }
    while i + BLOCK <= src.len() {
        if i + ASCII_RUN <= src.len() {
            // SAFETY: `i + ASCII_RUN <= src.len()`; ISA enabled per contract.
            let n = unsafe { checker.ascii_run::<ASCII_RUN>(src.as_ptr().add(i), None) };
            if n > 0 {
                i += n;
                continue;
            }
        }
        if i + 4 * BLOCK <= src.len() {
            // SAFETY: `i + 256 <= src.len()`; ISA enabled per contract.
            if unsafe { checker.blocks4_have_error(src.as_ptr().add(i)) } {
                let p = char_start(src, i);
                return p + scalar::utf8_valid_up_to(&src[p..]);
            }
            i += 4 * BLOCK;
            continue;
        }
        // SAFETY: `i + 64 <= src.len()`; ISA enabled per contract.
        if unsafe { checker.block_has_error(src.as_ptr().add(i)) } {
            let p = char_start(src, i);
            return p + scalar::utf8_valid_up_to(&src[p..]);
        }
        i += BLOCK;
    }
    if i == src.len() && checker.ascii {
        return i;
    }
    if i < src.len()
        // SAFETY: ISA enabled per contract.
        && let Some(end) = unsafe { checker.tail_valid_to(src, i, src.len()) }
    {
        return end;
    }
    let p = char_start(src, i);
    p + scalar::utf8_valid_up_to(&src[p..])
}

/// Copies `src[from..to]` to `dst[from..to]`: whole vectors, then the rest with one masked
/// store where the ISA has them (short inputs then make no call to `memcpy`).
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn copy_range<V: Utf8Vector>(src: &[u8], dst: &mut OutBytes, from: usize, to: usize) {
    let (src, dst) = (&src[from..to], &mut dst[from..to]);
    let n = src.len();
    let mut k = 0;
    // SAFETY: every access is inside the `n` bytes of both slices: whole vectors while
    // `k + LANES <= n`, then `n - k < LANES` bytes; ISA enabled per contract.
    unsafe {
        while k + V::LANES <= n {
            V::load(src.as_ptr().add(k)).store(dst.as_mut_ptr().cast::<u8>().add(k));
            k += V::LANES;
        }
        if k < n {
            if let Some(v) = V::load_partial(src.as_ptr().add(k), n - k)
                && v.store_partial(dst.as_mut_ptr().cast::<u8>().add(k), n - k)
            {
                return;
            }
            write_bytes(&mut dst[k..], &src[k..]);
        }
    }
}

/// Copies `src[from..to]` to `dst[from..to]` (`to - from` a multiple of the vector size, not
/// 0) with stores aligned in `dst`: the first vector and the last one as they fall, the
/// others from `dst`'s first aligned address (a store across two cache lines costs more
/// than one inside a line, and every 64-byte store crosses one unless `dst` is aligned).
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `from < to <= src.len().min(dst.len())` and `to - from` is a multiple of `V::LANES`.
#[inline(always)]
unsafe fn copy_aligned<V: Utf8Vector>(src: &[u8], dst: &mut OutBytes, from: usize, to: usize) {
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
    // SAFETY: every vector read and written lies in `from..to` (the first at `from`, the
    // last at `to - LANES`, the others between: `k + LANES <= to`), inside both slices per
    // contract; ISA enabled per contract.
    unsafe {
        V::load(s.add(from)).store(d.add(from));
        let mut k = from + d.add(from).align_offset(V::LANES).min(V::LANES);
        k = copy_vectors::<V>(s, d, k, to);
        if k < to {
            V::load(s.add(to - V::LANES)).store(d.add(to - V::LANES));
        }
    }
}

/// Copies the whole vectors from `from` while they end at or before `to`, a block of them
/// an iteration (one loop per 16-byte vector cost NEON three instructions of five); returns
/// where it stopped (`to - LANES` or later).
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `s` is valid for reading and `d` for writing the bytes `from..to`.
#[inline(always)]
unsafe fn copy_vectors<V: Utf8Vector>(s: *const u8, d: *mut u8, from: usize, to: usize) -> usize {
    let mut k = from;
    // SAFETY: every vector read and written lies in `k..k + BLOCK` or `k..k + LANES`, inside
    // `from..to`, valid per contract; ISA enabled per contract.
    unsafe {
        while k + BLOCK <= to {
            let mut j = 0;
            while j < BLOCK {
                V::load(s.add(k + j)).store(d.add(k + j));
                j += V::LANES;
            }
            k += BLOCK;
        }
        while k + V::LANES <= to {
            V::load(s.add(k)).store(d.add(k));
            k += V::LANES;
        }
    }
    k
}

/// Copies the 256 bytes at `s` to `d` in a loop of a constant count, which the compiler
/// unrolls (a loop of blocks costs NEON three instructions a block).
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `s` is valid for reading and `d` for writing 256 bytes.
#[inline(always)]
unsafe fn copy_step<V: Utf8Vector>(s: *const u8, d: *mut u8) {
    let mut k = 0;
    // SAFETY: every vector read and written lies in the 256 bytes at `s` and `d` (`k + LANES
    // <= 256`), valid per contract; ISA enabled per contract.
    unsafe {
        while k < 4 * BLOCK {
            V::load(s.add(k)).store(d.add(k));
            k += V::LANES;
        }
    }
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn copy_valid<V: Utf8Vector>(src: &[u8], dst: &mut OutBytes) -> (usize, usize) {
    let limit = src.len().min(dst.len());
    // SAFETY: ISA enabled per contract.
    let mut checker = unsafe { Checker::<V>::new() };
    if limit < BLOCK {
        // Only the tail, before the loops (as in `valid_up_to`).
        if limit > 0
            // SAFETY: ISA enabled per contract.
            && let Some(end) = unsafe { checker.tail_valid_to(src, 0, limit) }
        {
            // SAFETY: ISA enabled per contract.
            unsafe { copy_range::<V>(src, dst, 0, end) };
            return (end, end);
        }
        return scalar::utf8_copy_valid(src, dst);
    }
    // Blocks before `i` are validated, blocks before `copied` stored. A block is stored once
    // the next one has validated too: then the character that crosses into the next block is
    // known complete and valid, so every byte stored belongs to `dst[..written]`. One pass:
    // the stored block is still in L1 from its validation.
    let mut i = 0;
    let mut copied = 0;
    let mut failed = false;
    while i + BLOCK <= limit {
        if i + ASCII_RUN <= limit {
            // Where a store of a vector crosses a cache line unless aligned (a vector is a
            // whole block), the run is copied after its test, aligned in `dst`; else each
            // ASCII block is stored as it is tested (fewer instructions than a second pass).
            let fused = V::LANES < BLOCK;
            let d = dst.as_mut_ptr().cast::<u8>();
            // SAFETY: `i + ASCII_RUN <= limit <= dst.len()`; ISA enabled per contract.
            let n = unsafe { checker.ascii_run::<ASCII_RUN>(src.as_ptr().add(i), fused.then_some(d.add(i))) };
            if n > 0 {
                // The block before these (if not stored yet) ends with a whole character,
                // and they are whole characters: store from `copied` (`i - 64` or `i`) to
                // their end.
                // SAFETY: `copied <= i`, `i + n <= limit` and `i - copied` and `n` are
                // multiples of the vector size; ISA enabled per contract.
                unsafe {
                    if fused {
                        copy_vectors::<V>(src.as_ptr(), dst.as_mut_ptr().cast::<u8>(), copied, i);
                    } else {
                        copy_aligned::<V>(src, dst, copied, i + n);
                    }
                }
                i += n;
                copied = i;
                continue;
            }
        }
        if i + 4 * BLOCK <= limit {
            // SAFETY: `i + 256 <= limit <= src.len()`; ISA enabled per contract.
            if unsafe { checker.blocks4_have_error(src.as_ptr().add(i)) } {
                failed = true;
                break;
            }
            // The first three blocks end with whole characters now: store from `copied`
            // (`i - 64` or `i`) up to the last block, which waits for the next step.
            let end = i + 3 * BLOCK;
            let (s, d) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
            if copied + BLOCK == i {
                // After a step: its last block and these three, straight (no loop).
                // SAFETY: the 256 bytes from `copied` end at `end <= limit`, in bounds of
                // both slices; ISA enabled per contract.
                unsafe { copy_step::<V>(s.add(copied), d.add(copied)) };
                copied = end;
            } else {
                // SAFETY: `copied <= end <= limit` and `end - copied` is a multiple of the
                // vector size: every store is in bounds of both slices; ISA enabled per
                // contract.
                copied = unsafe { copy_vectors::<V>(s, d, copied, end) };
            }
            i += 4 * BLOCK;
            continue;
        }
        // SAFETY: `i + 64 <= src.len()`; ISA enabled per contract.
        if unsafe { checker.block_has_error(src.as_ptr().add(i)) } {
            failed = true;
            break;
        }
        if copied < i {
            // SAFETY: `copied == i - 64` (it is `i` or one block behind) and `i <= limit`:
            // the block is in bounds of both slices; ISA enabled per contract.
            unsafe {
                let mut k = 0;
                while k < BLOCK {
                    V::load(src.as_ptr().add(copied + k))
                        .store(dst.as_mut_ptr().cast::<u8>().add(copied + k));
                    k += V::LANES;
                }
            }
            copied = i;
        }
        i += BLOCK;
    }
    if !failed
        && i < limit
        // SAFETY: ISA enabled per contract.
        && let Some(end) = unsafe { checker.tail_valid_to(src, i, limit) }
    {
        // Valid to `end`, ending with a whole character, and not further.
        // SAFETY: ISA enabled per contract.
        unsafe { copy_range::<V>(src, dst, copied, end) };
        return (end, end);
    }
    // Everything before `i` is valid, the characters up to `end` complete.
    let end = char_start(src, i);
    // SAFETY: ISA enabled per contract.
    unsafe { copy_range::<V>(src, dst, copied, end) };
    let copied = end;
    let (read, written) = scalar::utf8_copy_valid(&src[copied..], &mut dst[copied..]);
    (copied + read, copied + written)
}
