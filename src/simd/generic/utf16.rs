//! UTF-16BE/LE bytes to UTF-16 code units, a vector of bytes (half as many units) at a time
//! while every surrogate in it is paired within it; a vector that is not (a pair across two
//! vectors, or an unpaired surrogate) goes to the scalar kernel, with one unit more so that a
//! pair it ends with is whole; the scalar kernel finishes.

use super::super::scalar;
use super::super::vector::Vector;

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn bytes_to_utf16<V: Vector>(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: ISA enabled per contract.
    unsafe {
        if be {
            convert::<V, true>(src, dst)
        } else {
            convert::<V, false>(src, dst)
        }
    }
}

/// [`bytes_to_utf16`] of big-endian bytes if `BE`: the byte order a constant of each
/// instance, not a test per vector.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn convert<V: Vector, const BE: bool>(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    let units = src.len() / 2;
    let limit = units.min(dst.len());
    let n = V::LANES / 2;
    let mut u = 0;
    loop {
        // Two vectors a round (one bound, one index: NEON 13 instructions a vector alone,
        // 10 so), then one.
        while u + 2 * n <= limit {
            // SAFETY: `u + 2n <= units`: the `2 * LANES` bytes of `src` from `2u` are in
            // bounds, and `u + 2n <= dst.len()`: the `2n` u16 of `dst` from `u`; ISA enabled
            // per contract.
            unsafe {
                let p = src.as_ptr().add(2 * u);
                let Some(a) = V::load_utf16_paired(p, BE) else {
                    break;
                };
                let Some(b) = V::load_utf16_paired(p.add(V::LANES), BE) else {
                    break;
                };
                let d = dst.as_mut_ptr().add(u).cast::<u8>();
                a.store(d);
                b.store(d.add(V::LANES));
            }
            u += 2 * n;
        }
        while u + n <= limit {
            // SAFETY: `u + n <= units`: the LANES bytes of `src` from `2u` are in bounds, and
            // `u + n <= dst.len()`: the n u16 (LANES bytes) of `dst` from `u`; ISA enabled
            // per contract.
            unsafe {
                let Some(v) = V::load_utf16_paired(src.as_ptr().add(2 * u), BE) else {
                    break;
                };
                v.store(dst.as_mut_ptr().add(u).cast::<u8>());
            }
            u += n;
        }
        if u + n > limit {
            break;
        }
        // A surrogate that is not paired within the vector: the scalar kernel over its units
        // and the next one. It stops where the whole input's scalar kernel would, or before a
        // leading surrogate last, which the next step pairs.
        let end = units.min(u + n + 1);
        let (_, written) = scalar::utf16_bytes_to_utf16(&src[2 * u..2 * end], BE, &mut dst[u..]);
        if written == 0 {
            break;
        }
        u += written;
    }
    let (read, written) = scalar::utf16_bytes_to_utf16(&src[2 * u..], BE, &mut dst[u..]);
    (2 * u + read, u + written)
}
