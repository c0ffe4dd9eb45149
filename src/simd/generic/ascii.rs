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
use crate::simd::OutBytes;

/// The one loop of the long ASCII runs, four vectors at a time (the prefix length here, and
/// the runs of the CJK decode and the legacy encode kernels): while `4 * lanes` more
/// elements fit in `len`, loads four vectors (`load(i)`: the one at element `i`), stops if
/// their `or` is not all ASCII (`ascii`), else hands each to `put` with its element offset.
/// Returns how far it got, a multiple of `4 * lanes`.
///
/// # Safety
/// `load` and `put` may be called with any `i` such that `i + lanes <= len`.
#[inline(always)]
pub(crate) unsafe fn run4<V: Copy>(
    len: usize,
    lanes: usize,
    load: impl Fn(usize) -> V,
    or: impl Fn(V, V) -> V,
    ascii: impl Fn(V) -> bool,
    put: impl Fn(V, usize),
) -> usize {
    let step = 4 * lanes;
    let mut i = 0;
    while i + step <= len {
        let v = [load(i), load(i + lanes), load(i + 2 * lanes), load(i + 3 * lanes)];
        if !ascii(or(or(v[0], v[1]), or(v[2], v[3]))) {
            break;
        }
        for (k, v) in v.into_iter().enumerate() {
            put(v, i + k * lanes);
        }
        i += step;
    }
    i
}

/// [`run4`] after one vector tested alone: the length of the ASCII run at the start, 0 if the
/// first vector is not all ASCII. The first alone, as short runs (between the letters of
/// German or French text, between the words of other scripts) end there, before four loads;
/// the four-vector rounds are then the whole cost of long runs. They start `skew` units
/// before the first vector's end ([`store_skew`]: so that their stores are aligned), stored
/// again; without a whole round from there, the run is the first vector. The caller finishes
/// the run one vector at a time.
///
/// # Safety
/// As [`run4`]; `skew < lanes`.
#[inline(always)]
pub(crate) unsafe fn run1_then4<V: Copy>(
    len: usize,
    (lanes, skew): (usize, usize),
    load: impl Fn(usize) -> V,
    or: impl Fn(V, V) -> V,
    ascii: impl Fn(V) -> bool,
    put: impl Fn(V, usize),
) -> usize {
    if lanes > len {
        return 0;
    }
    let v = load(0);
    if !ascii(v) {
        return 0;
    }
    put(v, 0);
    let from = lanes - skew;
    // SAFETY: `run4` calls `load` and `put` at `from + k` with `k + lanes <= len - from`, so
    // `from + k + lanes <= len`, as this function's contract allows.
    match unsafe {
        run4(
            len - from,
            lanes,
            |k| load(from + k),
            or,
            ascii,
            |v, k| put(v, from + k),
        )
    } {
        // No round: the run goes on from the first vector's end (its units are written).
        0 => lanes,
        n => from + n,
    }
}

/// The units by which [`run1_then4`]'s rounds start before its first vector's end so that
/// their stores are aligned to `width` bytes, for output at `out` of `unit` bytes per input
/// unit (each store `width` bytes, at `out` plus a multiple of `width` from there). A store
/// that crosses a cache line costs two: 32-byte stores into a buffer aligned to 16 (as
/// allocations are) cross one in two, and widening ASCII at AVX2 went 20.7 -> 25.9 GB/s into
/// such buffers with them aligned (docs/decisions.md, "Aligned stores for the runs of
/// ASCII").
#[inline(always)]
pub(crate) fn store_skew(out: *const u8, lanes: usize, unit: usize, width: usize) -> usize {
    (out.wrapping_add(lanes * unit) as usize % width) / unit
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn prefix_len<V: Vector>(src: &[u8]) -> usize {
    let p = src.as_ptr();
    // SAFETY: `run4` loads at `i` only with `i + LANES <= src.len()`, inside `src`; the ISA
    // is enabled per this function's contract.
    let mut i = unsafe {
        run4(
            src.len(),
            V::LANES,
            |i| V::load(p.add(i)),
            |a, b| a.or(b),
            |v| v.high_mask() == 0,
            |_, _| {},
        )
    };
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
    // SAFETY: ISA enabled per contract.
    unsafe { copy_with::<V, false>(src, dst) }
}

/// [`copy`], but where the prefix ends inside a vector, the whole vector is stored: the
/// bytes of `dst` from the returned count up to `LANES - 1` past it (and below
/// `src.len().min(dst.len())`) may change. For callers whose later output covers them.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn copy_loose<V: Vector>(src: &[u8], dst: &mut OutBytes) -> usize {
    // SAFETY: ISA enabled per contract.
    unsafe { copy_with::<V, true>(src, dst) }
}

/// [`copy`], or [`copy_loose`] if `LOOSE`.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn copy_with<V: Vector, const LOOSE: bool>(src: &[u8], dst: &mut OutBytes) -> usize {
    let len = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
    // SAFETY: `run1_then4` loads and stores at `k` only with `k + LANES <= len`: inside
    // `src` and `dst`; the ISA per the contract.
    let mut i = unsafe {
        run1_then4(
            len,
            (V::LANES, store_skew(d, V::LANES, 1, V::LANES)),
            |k| V::load(s.add(k)),
            |a, b| a.or(b),
            |v| !v.any_high(),
            |v, k| v.store(d.add(k)),
        )
    };
    while i + V::LANES <= len {
        let (from, to) = (
            src.as_ptr().wrapping_add(i),
            dst.as_mut_ptr().cast::<u8>().wrapping_add(i),
        );
        // SAFETY: `i + LANES <= len <= src.len(), dst.len()`: `LANES` bytes at `from` and at
        // `to`; ISA enabled per contract.
        let v = unsafe { V::load(from) };
        // SAFETY: ISA enabled per contract. (`any_high` first: one reduction at NEON, where
        // `first_high` is four instructions more on each vector of ASCII.)
        if unsafe { !v.any_high() } {
            // SAFETY: as the load.
            unsafe { v.store(to) };
            i += V::LANES;
            continue;
        }
        // SAFETY: ISA enabled per contract.
        let n = unsafe { v.first_high() };
        // The bytes before the first non-ASCII one are known ASCII: copy exactly those (short
        // runs between non-ASCII letters, as in German or French text, end here): one masked
        // store where the ISA has them, else a few overlapping loads and stores (a `memcpy`
        // call cost more than the copy: 13% of German encode).
        // SAFETY: `n < LANES`: the `n` bytes at `from` and `to` are inside the `LANES` above,
        // and `src` and `dst` do not overlap (`&` and `&mut`); ISA enabled per contract.
        // Loose: the whole vector, inside `dst` as the load was inside `src` (`i + LANES <=
        // len`).
        unsafe {
            if LOOSE {
                v.store(to);
            } else if !v.store_partial(to, n) {
                crate::simd::copy_short(from, to, n);
            }
        }
        return i + n;
    }
    i + scalar::copy_ascii(&src[i..len], &mut dst[i..len])
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn widen<V: Vector>(src: &[u8], dst: &mut [u16]) -> usize {
    let len = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    // SAFETY: as in `copy`, with `LANES` u16 stored for `LANES` bytes loaded.
    let mut i = unsafe {
        run1_then4(
            len,
            (V::LANES, store_skew(d.cast(), V::LANES, 2, V::LANES)),
            |k| V::load(s.add(k)),
            |a, b| a.or(b),
            |v| !v.any_high(),
            |v, k| v.widen_store(d.add(k)),
        )
    };
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
    let (s, d) = (src.as_ptr().cast::<u8>(), dst.as_mut_ptr().cast::<u8>());
    // SAFETY: as in `copy`, with `2 * LANES` bytes (`LANES` units) loaded for `LANES` bytes
    // stored; `src` is `2 * src.len()` readable bytes.
    let mut i = unsafe {
        run1_then4(
            len,
            (V::LANES, store_skew(d, V::LANES, 1, V::LANES)),
            |k| V::load_units_narrow(s.add(2 * k), false),
            |a, b| (a.0, a.1.or(b.1)),
            |v| !v.1.any(),
            |v, k| v.0.store(d.add(k)),
        )
    };
    while i + V::LANES <= len {
        // SAFETY: `i + LANES <= len`: LANES u16 of `src` and LANES bytes of `dst` from `i` are
        // in bounds; ISA enabled per contract.
        unsafe {
            let (v, not_ascii) = V::load_units_narrow(s.add(2 * i), false);
            if not_ascii.any() {
                break;
            }
            v.store(d.add(i));
        }
        i += V::LANES;
    }
    i + scalar::narrow_ascii(&src[i..len], &mut dst[i..len])
}
