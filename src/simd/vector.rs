//! The vector abstraction the generic kernels are written against.
//!
//! # Contract
//! Every method requires the instruction set of the implementing type to be enabled in the
//! calling function (a `#[target_feature]` entry point in the ISA's module). Methods are
//! `#[inline(always)]`, never `#[target_feature]` themselves, so that they inline into those
//! entry points (`#[inline(always)]` cannot be combined with `#[target_feature]`). Pointer
//! arguments must be valid for the number of elements the method reads or writes.

/// A vector of `LANES` bytes.
pub(crate) trait Vector: Copy {
    /// Bytes per vector.
    const LANES: usize;

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

    /// Bitwise or.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn or(self, other: Self) -> Self;

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

    /// Loads `LANES` u16 from `src`, and if all are below 0x80, returns them narrowed to bytes.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `src` is valid for reading `LANES` u16 (unaligned is fine).
    unsafe fn load_narrow_ascii(src: *const u16) -> Option<Self>;

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
