//! UTF-16BE/LE bytes to UTF-16 code units, a vector of bytes (half as many units) at a time,
//! while no unit is a surrogate; the scalar kernel finishes.

use super::super::scalar;
use super::super::vector::Vector;

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn bytes_to_utf16<V: Vector>(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize) {
    let units = (src.len() / 2).min(dst.len());
    let mut u = 0;
    while u + V::LANES / 2 <= units {
        // SAFETY: `u + LANES/2 <= units`: the LANES bytes of `src` from `2u` and the LANES/2
        // u16 (= LANES bytes) of `dst` from `u` are in bounds; ISA enabled per contract.
        unsafe {
            let Some(v) = V::load_utf16_no_surrogates(src.as_ptr().add(2 * u), be) else {
                break;
            };
            v.store(dst.as_mut_ptr().add(u).cast::<u8>());
        }
        u += V::LANES / 2;
    }
    let (read, written) = scalar::utf16_bytes_to_utf16(&src[2 * u..], be, &mut dst[u..]);
    (2 * u + read, u + written)
}
