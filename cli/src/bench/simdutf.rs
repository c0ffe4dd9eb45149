//! simdutf (the C++ library) as a peer: the calls of cpp/simdutf_peer.cpp (compiled by
//! build.rs), each through one of simdutf's named implementations, so that `--level avx2` is
//! compared with simdutf's `haswell` kernel and not with whatever simdutf's own dispatch picks.
//!
//! The safe wrappers check the buffers' sizes against simdutf's documented bounds before each
//! call (a result of 0 or `false` when a buffer is too small, which the harness then reports
//! as a mismatch).
#![allow(unsafe_code)]

use std::ffi::{CStr, CString, c_char, c_void};
use std::ptr::NonNull;

use super::suite::SimdutfKernel;

// The crate's build script compiles and links the simdutf library the shim calls into; naming
// the crate makes rustc link it.
use simdutf as _;

/// The version of the `simdutf` crate whose C++ sources were compiled (from Cargo.lock).
pub const CRATE_VERSION: &str = env!("SIMDENC_BUILD_SIMDUTF_CRATE");

unsafe extern "C" {
    fn simdenc_simdutf_implementation(name: *const c_char) -> *const c_void;
    fn simdenc_simdutf_version() -> *const c_char;
    fn simdenc_simdutf_validate_utf8(imp: *const c_void, buf: *const u8, len: usize) -> bool;
    fn simdenc_simdutf_validate_utf16le(imp: *const c_void, buf: *const u16, len: usize) -> bool;
    fn simdenc_simdutf_validate_utf16be(imp: *const c_void, buf: *const u16, len: usize) -> bool;
    fn simdenc_simdutf_utf8_to_utf16le(
        imp: *const c_void,
        input: *const u8,
        len: usize,
        out: *mut u16,
    ) -> usize;
    fn simdenc_simdutf_utf16le_to_utf8(
        imp: *const c_void,
        input: *const u16,
        len: usize,
        out: *mut u8,
    ) -> usize;
    fn simdenc_simdutf_utf16be_to_utf8(
        imp: *const c_void,
        input: *const u16,
        len: usize,
        out: *mut u8,
    ) -> usize;
    fn simdenc_simdutf_change_endianness_utf16(
        imp: *const c_void,
        input: *const u16,
        len: usize,
        out: *mut u16,
    );
}

/// The C++ library's version (`SIMDUTF_VERSION`).
pub fn version() -> String {
    // SAFETY: the shim returns the address of the string literal SIMDUTF_VERSION, which is
    // NUL-terminated and lives as long as the program.
    let version = unsafe { CStr::from_ptr(simdenc_simdutf_version()) };
    version.to_string_lossy().into_owned()
}

/// One of simdutf's implementations that this CPU can run.
#[derive(Clone, Copy, Debug)]
pub struct Simdutf {
    /// A `const simdutf::implementation *` from `get_available_implementations()`: a static
    /// object, never freed, whose methods are `const` and keep no state between calls.
    imp: NonNull<c_void>,
}

impl Simdutf {
    /// The implementation of `kernel`, if simdutf was built with it and this CPU supports it.
    pub fn get(kernel: SimdutfKernel) -> Option<Simdutf> {
        let name = CString::new(kernel.name()).ok()?;
        // SAFETY: `name` is a NUL-terminated string that outlives the call; the shim only
        // reads it (to look the name up) and returns null or a pointer to a static object.
        let imp = unsafe { simdenc_simdutf_implementation(name.as_ptr()) };
        NonNull::new(imp.cast_mut()).map(|imp| Simdutf { imp })
    }

    fn imp(self) -> *const c_void {
        self.imp.as_ptr()
    }

    /// Whether `bytes` is valid UTF-8.
    pub fn validate_utf8(self, bytes: &[u8]) -> bool {
        // SAFETY: `imp` is a live implementation (`get`); it reads `bytes.len()` bytes from
        // `bytes`, a valid slice.
        unsafe { simdenc_simdutf_validate_utf8(self.imp(), bytes.as_ptr(), bytes.len()) }
    }

    /// Whether `units` (in the byte order `big_endian` says) is valid UTF-16.
    pub fn validate_utf16(self, units: &[u16], big_endian: bool) -> bool {
        // SAFETY: as in `validate_utf8`, reading `units.len()` units of a valid slice.
        unsafe {
            if big_endian {
                simdenc_simdutf_validate_utf16be(self.imp(), units.as_ptr(), units.len())
            } else {
                simdenc_simdutf_validate_utf16le(self.imp(), units.as_ptr(), units.len())
            }
        }
    }

    /// UTF-8 → UTF-16LE: the units written, 0 if `input` is not valid UTF-8 or `out` is
    /// shorter than `input` (simdutf's bound: one unit per byte at most).
    pub fn utf8_to_utf16le(self, input: &[u8], out: &mut [u16]) -> usize {
        if out.len() < input.len() {
            return 0;
        }
        // SAFETY: reads `input.len()` bytes of `input`; writes at most `input.len()` units to
        // `out`, which has room for that many (checked above).
        unsafe { simdenc_simdutf_utf8_to_utf16le(self.imp(), input.as_ptr(), input.len(), out.as_mut_ptr()) }
    }

    /// UTF-16 (in the byte order `big_endian` says) → UTF-8: the bytes written, 0 if `input`
    /// is not valid UTF-16 or `out` has fewer than 3 bytes per unit (simdutf's bound).
    pub fn utf16_to_utf8(self, input: &[u16], big_endian: bool, out: &mut [u8]) -> usize {
        if input.len().checked_mul(3).is_none_or(|need| out.len() < need) {
            return 0;
        }
        // SAFETY: reads `input.len()` units of `input`; writes at most 3 bytes per unit to
        // `out`, which has room for that many (checked above).
        unsafe {
            if big_endian {
                simdenc_simdutf_utf16be_to_utf8(self.imp(), input.as_ptr(), input.len(), out.as_mut_ptr())
            } else {
                simdenc_simdutf_utf16le_to_utf8(self.imp(), input.as_ptr(), input.len(), out.as_mut_ptr())
            }
        }
    }

    /// Swaps the bytes of each unit of `input` into `out`; false (nothing written) if `out` is
    /// shorter than `input`.
    pub fn change_endianness_utf16(self, input: &[u16], out: &mut [u16]) -> bool {
        if out.len() < input.len() {
            return false;
        }
        // SAFETY: reads `input.len()` units of `input` and writes as many to `out`, which has
        // room for them (checked above); the two slices cannot overlap (`&` and `&mut`).
        unsafe {
            simdenc_simdutf_change_endianness_utf16(
                self.imp(),
                input.as_ptr(),
                input.len(),
                out.as_mut_ptr(),
            );
        }
        true
    }
}
