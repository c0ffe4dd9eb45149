//! The vector abstraction the generic kernels are written against.
//!
//! # Contract
//! Every method requires the instruction set of the implementing type to be enabled in the
//! calling function (a `#[target_feature]` entry point in the ISA's module). Methods are
//! `#[inline(always)]`, never `#[target_feature]` themselves, so that they inline into those
//! entry points (`#[inline(always)]` cannot be combined with `#[target_feature]`). Pointer
//! arguments must be valid for the number of elements the method reads or writes.
//!
//! # One trait, the kernels' own traits on top
//! Every operation on lanes (bitwise, comparisons, selection, shifts, splats, masks to bits,
//! the loads and stores) is declared here once, with one signature, and each level is an
//! instance: SSE2 `__m128i`, AVX2 `__m256i` and its 16-byte lane `Xmm` (SSE4.1 under the
//! AVX2 entry points), AVX-512 `__m512i`, NEON `uint8x16_t`. The traits of the kernel
//! families (`Utf8Vector`, `TranscodeVector`/`Lane`, `SingleByteVector`, `CjkDecodeVector`,
//! `LegacyEncodeVector`) add only what is theirs: table lookups, compaction by table rows,
//! the block steps of one algorithm.
//!
//! # Masks
//! A comparison gives a [`Vector::Mask`] and [`Vector::select`] takes one: on SSE2, AVX2
//! and NEON a vector whose lanes are all ones or all zeros (`Mask = Self`), on AVX-512 a mask
//! register, one bit per byte (`u64`). Kernels that combine masks with vector operations
//! (the transcoders, single-byte decode) require `Mask = Self` in their trait bounds; the
//! rest take masks only through `select`, [`Vector::mask_any`] and [`Vector::mask_bits16`].

/// A vector of `LANES` bytes.
pub(crate) trait Vector: Copy {
    /// Bytes per vector.
    const LANES: usize;
    /// What a comparison gives and `select` takes: see the module's docs.
    type Mask: Copy;

    /// Loads `LANES` bytes from `src` (unaligned).
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `src` is valid for reading `LANES` bytes.
    unsafe fn load(src: *const u8) -> Self;

    /// Stores `LANES` bytes to `dst` (unaligned).
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `dst` is valid for writing `LANES` bytes.
    unsafe fn store(self, dst: *mut u8);

    /// Every byte `b`.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn splat(b: u8) -> Self;

    /// Every u16 lane `u`.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn splat16(u: u16) -> Self;

    /// Bitwise and.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn and(self, other: Self) -> Self;

    /// Bitwise or.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn or(self, other: Self) -> Self;

    /// Bitwise xor.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn xor(self, other: Self) -> Self;

    /// Whether any bit is set.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn any(self) -> bool;

    /// Each u16 lane shifted left by `N` (1..=15).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn shl16<const N: i32>(self) -> Self;

    /// Each u16 lane shifted right by `N` (1..=15), zeros shifted in.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn shr16<const N: i32>(self) -> Self;

    /// The u16 lanes of `self` and `other` interleaved, in order: `[s0, o0, s1, o1, ...]`,
    /// the first `LANES / 4` of each in the first result, the rest in the second.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn zip16(self, other: Self) -> [Self; 2];

    /// The bytes equal to those of `other`.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn eq8(self, other: Self) -> Self::Mask;

    /// The u16 lanes equal to those of `other`.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn eq16(self, other: Self) -> Self::Mask;

    /// The u16 lanes below `bound` (unsigned; `bound >= 1`).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn below16(self, bound: u16) -> Self::Mask;

    /// Per byte: `a` where `mask` is set, else `b`.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn select(mask: Self::Mask, a: Self, b: Self) -> Self;

    /// Whether `mask` is set anywhere.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn mask_any(mask: Self::Mask) -> bool;

    /// For a mask of u16 lanes (from `eq16` or `below16`): bit `16 * j + k` set if u16 lane
    /// `k` of the 16-byte lane `j` is (bits `16 * j + 8..16 * j + 16` clear).
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn mask_bits16(mask: Self::Mask) -> u64;

    /// Bit `i` is the high bit of byte `i`.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn high_mask(self) -> u64;

    /// Stores the `LANES` bytes zero-extended to `LANES` u16 at `dst`.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `dst` is valid for writing `LANES` u16 (unaligned is fine).
    unsafe fn widen_store(self, dst: *mut u16);

    /// Loads `2 * LANES` bytes of UTF-16 (big-endian if `be`): the `LANES` units narrowed to
    /// their low bytes, and a vector that is zero exactly when every unit is below 0x80 (then
    /// the bytes are the units). Two results rather than an `Option`, so that a loop can test
    /// several loads at once.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `src` is valid for reading `2 * LANES` bytes (unaligned is fine).
    unsafe fn load_units_narrow(src: *const u8, be: bool) -> (Self, Self);

    /// Loads `LANES` bytes as `LANES / 2` UTF-16 code units (byte-swapped from big-endian if
    /// `be`), and returns them in little-endian order if every surrogate among them is paired
    /// within them: each leading one followed by a trailing one (so none is last), each
    /// trailing one after a leading one.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `src` is valid for reading `LANES` bytes.
    unsafe fn load_utf16_paired(src: *const u8, be: bool) -> Option<Self>;

    /// The `n` bytes at `src` (`n <= LANES`), zero in the lanes after them, reading nothing
    /// past them: `Some` where the ISA has masked loads, `None` otherwise (the caller then
    /// copies through a buffer).
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `src` is valid for reading `n` bytes.
    #[inline(always)]
    unsafe fn load_partial(src: *const u8, n: usize) -> Option<Self> {
        let _ = (src, n);
        None
    }

    /// Stores the first `n` bytes of `self` (`n <= LANES`) to `dst`, writing nothing past
    /// them; false (and nothing written) where the ISA has no masked stores.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `dst` is valid for writing `n` bytes.
    #[inline(always)]
    unsafe fn store_partial(self, dst: *mut u8, n: usize) -> bool {
        let _ = (dst, n);
        false
    }

    /// Whether any byte is zero: `mask_any(eq8(splat(0)))`, which an ISA with a horizontal
    /// minimum answers with one reduction.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn any_zero(self) -> bool {
        // SAFETY: ISA enabled per contract.
        unsafe { Self::mask_any(self.eq8(Self::splat(0))) }
    }

    /// The index of the first byte with its high bit set (the first non-ASCII byte), `LANES`
    /// or more if none: `high_mask().trailing_zeros()`, which an ISA without a movemask
    /// answers without building the mask.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn first_high(self) -> usize {
        // SAFETY: ISA enabled per contract.
        unsafe { self.high_mask().trailing_zeros() as usize }
    }

    /// Whether any byte has its high bit set (not ASCII): `high_mask() != 0`, which an ISA
    /// without a movemask answers with one reduction instead of building the mask.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    #[inline(always)]
    unsafe fn any_high(self) -> bool {
        // SAFETY: ISA enabled per contract.
        unsafe { self.high_mask() != 0 }
    }
}
