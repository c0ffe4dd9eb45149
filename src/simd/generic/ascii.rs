//! ASCII runs: prefix length, copy, widen to UTF-16, narrow from UTF-16.
//!
//! ```text
//! while a vector (four, for the prefix length) fits in the input and the output:
//!     load; if any byte has its high bit set: stop
//!     store (copy / widen / narrow)
//! finish with the scalar kernel from there
//! ```
//! The vector loop never stores a vector that holds a non-ASCII byte, so nothing is
//! written past the returned length. Exact positions come from the scalar finish.

use super::super::scalar;
use super::super::vector::Vector;
use crate::simd::{OutBytes, write_bytes};

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn prefix_len<V: Vector>(src: &[u8]) -> usize {
    let mut i = 0;
    let p = src.as_ptr();
    while i + 4 * V::LANES <= src.len() {
        // SAFETY: `i + 4 * LANES <= src.len()`, so the four loads read inside `src`; the ISA
        // is enabled per this function's contract.
        let any = unsafe {
            let a = V::load(p.add(i));
            let b = V::load(p.add(i + V::LANES));
            let c = V::load(p.add(i + 2 * V::LANES));
            let d = V::load(p.add(i + 3 * V::LANES));
            a.or(b).or(c.or(d)).high_mask()
        };
        if any != 0 {
            break;
        }
        i += 4 * V::LANES;
    }
    while i + V::LANES <= src.len() {
        // SAFETY: `i + LANES <= src.len()`; ISA enabled per contract.
        let mask = unsafe { V::load(p.add(i)).high_mask() };
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        i += V::LANES;
    }
    i + scalar::ascii_prefix_len(&src[i..])
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn copy<V: Vector>(src: &[u8], dst: &mut OutBytes) -> usize {
    let len = src.len().min(dst.len());
    let mut i = 0;
    while i + V::LANES <= len {
        // SAFETY: `i + LANES <= len <= src.len(), dst.len()`; ISA enabled per contract.
        let mask = unsafe {
            let v = V::load(src.as_ptr().add(i));
            let mask = v.high_mask();
            if mask == 0 {
                v.store(dst.as_mut_ptr().cast::<u8>().add(i));
            }
            mask
        };
        if mask != 0 {
            // The bytes before the first non-ASCII one are known ASCII: copy exactly those
            // (short runs between non-ASCII letters, as in German or French text, end here).
            let n = mask.trailing_zeros() as usize;
            write_bytes(&mut dst[i..i + n], &src[i..i + n]);
            return i + n;
        }
        i += V::LANES;
    }
    i + scalar::copy_ascii(&src[i..len], &mut dst[i..len])
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn widen<V: Vector>(src: &[u8], dst: &mut [u16]) -> usize {
    let len = src.len().min(dst.len());
    let mut i = 0;
    while i + V::LANES <= len {
        // SAFETY: `i + LANES <= len`: LANES bytes of `src` and LANES u16 of `dst` from `i` are
        // in bounds; ISA enabled per contract.
        unsafe {
            let v = V::load(src.as_ptr().add(i));
            if v.high_mask() != 0 {
                break;
            }
            v.widen_store(dst.as_mut_ptr().add(i));
        }
        i += V::LANES;
    }
    i + scalar::widen_ascii(&src[i..len], &mut dst[i..len])
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn narrow<V: Vector>(src: &[u16], dst: &mut OutBytes) -> usize {
    let len = src.len().min(dst.len());
    let mut i = 0;
    while i + V::LANES <= len {
        // SAFETY: `i + LANES <= len`: LANES u16 of `src` and LANES bytes of `dst` from `i` are
        // in bounds; ISA enabled per contract.
        unsafe {
            let Some(v) = V::load_narrow_ascii(src.as_ptr().add(i)) else {
                break;
            };
            v.store(dst.as_mut_ptr().cast::<u8>().add(i));
        }
        i += V::LANES;
    }
    i + scalar::narrow_ascii(&src[i..len], &mut dst[i..len])
}
