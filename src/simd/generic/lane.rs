//! The 16-byte lane the UTF-8 <-> UTF-16 transcoders (`utf8_to_utf16.rs`, `utf16_to_utf8.rs`)
//! shuffle in: one `pshufb` / `tbl` lane, so that one table row of 16 byte indices moves the
//! bytes of one lane wherever they go.
//!
//! ```text
//! a transcoding vector V (validation, ASCII runs: V::LANES bytes at a time)
//!     names its Lane (16 bytes: byte shuffles by table rows, u16/u32 lane arithmetic)
//! AVX2: V = __m256i, Lane = Xmm (an __m128i with VEX-encoded SSSE3/SSE4.1 under the AVX2
//!       entry points)
//! NEON: V = Lane = uint8x16_t
//! ```
//! Why a 16-byte lane and not the whole vector: the compress step of both algorithms
//! (Lemire & Muła 2022) looks its shuffle up by a bit mask of one lane's characters, and
//! `vpshufb` does not cross 128-bit lanes; the ASCII runs, which dominate most text, still use
//! the whole vector.

use super::super::vector::Vector;
use super::utf8::Utf8Vector;
use super::utf8_to_utf16::Then;

/// A vector that the transcoders validate and copy ASCII with, and its 16-byte [`Lane`].
///
/// The methods below treat the vector as `LANES / 2` UTF-16 code units (u16 lanes), for the
/// whole-vector steps of `utf16_to_utf8`; their contract is [`Vector`]'s.
pub(crate) trait TranscodeVector: Utf8Vector + Vector<Mask = Self> {
    /// The 16-byte vector of the same instruction set.
    type Lane: Lane;
    /// Whether `utf16_to_utf8` converts vectors of one letter among ASCII on their own (see
    /// `letters` there): NEON German 1.25 -> 1.00 instructions a byte, Russian the same;
    /// AVX2 German -2.6%, but Russian +2% and Chinese +3.8% (the test after every ASCII run).
    const UTF16_LETTERS: bool;

    /// Loads `LANES` bytes of UTF-16 (big-endian if `be`) as `LANES / 2` units, little-endian.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `src` is valid for reading `LANES` bytes.
    unsafe fn load_units(src: *const u8, be: bool) -> Self;
    /// For two masks of u16 lanes: bit `2 * k` set if u16 lane `k` of `a` is, bit `2 * k + 1`
    /// if that of `b` is (so the bits of 4 units are one byte).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn unit_pair_bits(a: Self, b: Self) -> u64;
    /// Stores the low byte of every u16 lane, `LANES / 2` bytes (units below 0x100 narrowed).
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `dst` is valid for writing `LANES / 2` bytes.
    unsafe fn store_low_bytes(self, dst: *mut u8);
    /// A value of the class of the largest u16 lane: below 0x80 exactly when every lane is,
    /// below 0x800 exactly when every lane is (the largest lane itself where a horizontal
    /// maximum is one instruction).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn max_class16(self) -> u16;
    /// Loads `3 * LANES` bytes deinterleaved by three: byte `i` of 16-byte lane `j` of result
    /// `k` is byte `48 * j + 3 * i + k` at `src` (the first, second and third bytes of 16
    /// three-byte groups per lane).
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `src` is valid for reading `3 * LANES` bytes.
    unsafe fn load3(src: *const u8) -> [Self; 3];
    /// The larger of each pair of bytes (unsigned).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn max8(self, other: Self) -> Self;
    /// The high bit of each byte set exactly where the byte is 0xC0 or more (the lead of a
    /// multi-byte sequence, or no UTF-8 byte at all); the other bits unspecified.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn leads(self) -> Self {
        // SAFETY: ISA enabled per contract. Bit 7 of each byte and bit 6 moved onto it (a u16
        // shift by one moves each byte's bit 6 to its bit 7).
        unsafe { self.and(self.shl16::<1>()) }
    }
    /// The 16-byte lane `j` (`j < LANES / 16`).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn lane(self, j: usize) -> Self::Lane;
    /// [`super::utf8_to_utf16::blocks`] at this level, out of line: its steps keep their
    /// tables and constants in registers. In one function with the sparse loop, NEON reloaded
    /// a table address and a constant a step (Russian: 6% more instructions), the sparse loop
    /// inline or called.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn utf8_to_utf16_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize, Then);
    /// [`super::utf8_to_utf16::three_byte_blocks`] at this level, out of line (as the other
    /// loops: its constants in registers of its own).
    ///
    /// # Safety
    /// The ISA is enabled in the caller; `read` is a character boundary of `src`.
    unsafe fn utf8_to_utf16_three_byte_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize);
    /// [`super::utf8_to_utf16::utf8_to_utf16_long`] at this level, out of line, so that the
    /// entry point's test for short inputs comes before any register is saved.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn utf8_to_utf16_long(src: &[u8], dst: &mut [u16], stage: bool) -> (usize, usize);
    /// [`super::utf8_to_utf16::two_byte_blocks`] at this level, out of line: in the block
    /// loop's function its constants took the registers of the general steps, which then
    /// spilled (CJK at NEON: 8% more instructions).
    ///
    /// # Safety
    /// The ISA is enabled in the caller; `read` is a character boundary of `src`.
    unsafe fn utf8_to_utf16_two_byte_blocks(
        src: &[u8],
        dst: &mut [u16],
        read: usize,
        written: usize,
    ) -> (usize, usize, bool);
}

/// The 16-byte operations of the transcoders, beyond those of [`Vector`] (loads, stores,
/// bitwise and u16 lane operations, comparisons and `select`), whose contract they share: the instruction set of the implementing type
/// is enabled in the caller, and pointers are valid for what the method reads or writes.
pub(crate) trait Lane: Vector<Mask = Self> {
    /// Stores the low 8 bytes (unaligned).
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `dst` is valid for writing 8 bytes.
    unsafe fn store8(self, dst: *mut u8);
    /// Stores u32 lane `K` (0..=3), 4 bytes (unaligned).
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `dst` is valid for writing 4 bytes.
    unsafe fn store4<const K: i32>(self, dst: *mut u8);
    /// Stores the low 12 bytes (unaligned): a store of 8 and one of 4.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `dst` is valid for writing 12 bytes.
    unsafe fn store12(self, dst: *mut u8);
    /// Every u32 lane `u`.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn splat32(u: u32) -> Self;
    /// Each u16 lane plus the same lane of `other`, wrapping.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn add16(self, other: Self) -> Self;
    /// The u16 lanes moved up by one: lane `k` of the result is lane `k - 1`, lane 0 is 0
    /// (for each code unit, the one before it).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn prev_unit(self) -> Self;
    /// Each u32 lane shifted left by `N` (1..=31).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn shl32<const N: i32>(self) -> Self;
    /// Each u32 lane shifted right by `N` (1..=31), zeros shifted in.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn shr32<const N: i32>(self) -> Self;
    /// Byte `i` of the result is byte `row[i]` of `self`, or 0 where `row[i]` is 0xFF.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn shuffle(self, row: &[u8; 16]) -> Self;
    /// The bits per byte of [`Lane::high_strided`].
    const HIGH_STRIDE: u32 = 1;
    /// Bits `HIGH_STRIDE * i..HIGH_STRIDE * (i + 1)` all set if byte `i` is not ASCII, else
    /// clear: where the first non-ASCII byte is and how many there are, in whatever form is
    /// cheapest (a bit a byte from a movemask; NEON, without one, narrows the comparison to 4
    /// bits a byte).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn high_strided(self) -> u64 {
        // SAFETY: ISA enabled per contract.
        unsafe { self.high_mask() }
    }
    /// The bytes of `self` and `other` interleaved, in order: `[s0, o0, s1, o1, ...]`, the
    /// first 8 of each in the first result (u16 lanes with `self` the low byte), the rest in
    /// the second.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn zip8(self, other: Self) -> [Self; 2];
    /// The two bytes of every u16 lane swapped (big-endian units to little-endian).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn swap_bytes16(self) -> Self;
}
