//! The operations of [`Vector`] at each level against a model on plain bytes: what
//! `tests.rs` runs at the levels of this machine and `tests/levels.rs` (through
//! `internals`) under qemu for NEON. The kernels reach most operations only in some of
//! their combinations, and some levels' operations (AVX-512's u16 masks) not at all.

use super::vector::Vector;
use crate::cpu::Level;
use alloc::vec;
use alloc::vec::Vec;

/// What every [`Vector`] operation gives for the inputs `a` and `b`
/// (`LANES` bytes each) and `w` (`2 * LANES` bytes), appended to one record: each result as
/// bytes, masks through `select` (0xFF where set) and their `mask_any` and `mask_bits16`.
/// The same record comes from [`model`], on plain bytes.
///
/// # Safety
/// The ISA of `V` is enabled in the caller; `a`, `b` hold `V::LANES` bytes, `w` twice that.
#[inline(always)]
unsafe fn record<V: Vector>(a: &[u8], b: &[u8], w: &[u8]) -> Vec<u8> {
    let n = V::LANES;
    assert!(a.len() == n && b.len() == n && w.len() == 2 * n);
    let mut out = Vec::new();
    // SAFETY: every load reads `n` bytes of `a`, `b` or `w`, or `2 * n` of `w` (`n` u16);
    // every store writes `n` bytes (or `n` u16) into a buffer of that size; the ISA per the
    // contract.
    unsafe {
        let put = |out: &mut Vec<u8>, v: V| {
            let mut buf = vec![0u8; n];
            v.store(buf.as_mut_ptr());
            out.extend_from_slice(&buf);
        };
        let put_mask = |out: &mut Vec<u8>, m: V::Mask, units: bool| {
            let mut buf = vec![0u8; n];
            V::select(m, V::splat(0xFF), V::splat(0)).store(buf.as_mut_ptr());
            out.extend_from_slice(&buf);
            out.push(u8::from(V::mask_any(m)));
            if units {
                out.extend_from_slice(&V::mask_bits16(m).to_le_bytes());
            }
        };
        let (va, vb) = (V::load(a.as_ptr()), V::load(b.as_ptr()));
        put(&mut out, V::splat(a[0]));
        put(&mut out, V::splat16(u16::from_le_bytes([a[0], a[1]])));
        put(&mut out, va.and(vb));
        put(&mut out, va.or(vb));
        put(&mut out, va.xor(vb));
        out.push(u8::from(va.any()));
        out.push(u8::from(va.and(vb).any()));
        out.push(u8::from(va.any_zero()));
        put(&mut out, va.shl16::<3>());
        put(&mut out, va.shr16::<11>());
        for v in va.zip16(vb) {
            put(&mut out, v);
        }
        put_mask(&mut out, va.eq8(vb), false);
        put_mask(&mut out, va.eq16(vb), true);
        for bound in [1, 0x80, 0x800, 0xD800, 0xFFFF] {
            put_mask(&mut out, va.below16(bound), true);
        }
        put(&mut out, V::select(va.eq8(vb), V::splat(1), va));
        out.extend_from_slice(&va.high_mask().to_le_bytes());
        out.push(u8::from(va.any_high()));
        let mut wide = vec![0u16; n];
        va.widen_store(wide.as_mut_ptr());
        out.extend(wide.iter().flat_map(|u| u.to_le_bytes()));
        for be in [false, true] {
            let (v, not_ascii) = V::load_units_narrow(w.as_ptr(), be);
            if not_ascii.any() {
                out.push(0xEE);
            } else {
                put(&mut out, v);
            }
        }
        for be in [false, true] {
            match V::load_utf16_paired(a.as_ptr(), be) {
                Some(v) => put(&mut out, v),
                None => out.push(0xEE),
            }
        }
    }
    out
}

/// [`record`] on plain bytes: what each operation means.
fn model(a: &[u8], b: &[u8], w: &[u8]) -> Vec<u8> {
    let n = a.len();
    let unit = |v: &[u8], k: usize| u16::from_le_bytes([v[2 * k], v[2 * k + 1]]);
    let from_units = |u: &[u16]| u.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let units_of = |v: &[u8]| (0..n / 2).map(|k| unit(v, k)).collect::<Vec<u16>>();
    let mut out = Vec::new();
    let put_mask = |out: &mut Vec<u8>, m: Vec<bool>, units: bool| {
        out.extend(m.iter().map(|&s| if s { 0xFF } else { 0 }));
        out.push(u8::from(m.iter().any(|&s| s)));
        if units {
            let mut bits = 0u64;
            for k in 0..n / 2 {
                if m[2 * k] {
                    bits |= 1 << (16 * (k / 8) + k % 8);
                }
            }
            out.extend_from_slice(&bits.to_le_bytes());
        }
    };
    let per_unit = |f: &dyn Fn(u16) -> bool| (0..n).map(|i| f(unit(a, i / 2))).collect::<Vec<bool>>();
    out.extend(vec![a[0]; n]);
    out.extend(from_units(&vec![unit(a, 0); n / 2]));
    out.extend(a.iter().zip(b).map(|(x, y)| x & y));
    out.extend(a.iter().zip(b).map(|(x, y)| x | y));
    out.extend(a.iter().zip(b).map(|(x, y)| x ^ y));
    out.push(u8::from(a.iter().any(|&x| x != 0)));
    out.push(u8::from(a.iter().zip(b).any(|(x, y)| x & y != 0)));
    out.push(u8::from(a.contains(&0)));
    out.extend(from_units(
        &units_of(a).iter().map(|u| u << 3).collect::<Vec<_>>(),
    ));
    out.extend(from_units(
        &units_of(a).iter().map(|u| u >> 11).collect::<Vec<_>>(),
    ));
    let zipped: Vec<u16> = units_of(a)
        .iter()
        .zip(units_of(b))
        .flat_map(|(&x, y)| [x, y])
        .collect();
    out.extend(from_units(&zipped));
    put_mask(&mut out, a.iter().zip(b).map(|(x, y)| x == y).collect(), false);
    put_mask(
        &mut out,
        (0..n).map(|i| unit(a, i / 2) == unit(b, i / 2)).collect(),
        true,
    );
    for bound in [1u16, 0x80, 0x800, 0xD800, 0xFFFF] {
        put_mask(&mut out, per_unit(&|u| u < bound), true);
    }
    out.extend(a.iter().zip(b).map(|(&x, &y)| if x == y { 1 } else { x }));
    let high = a
        .iter()
        .enumerate()
        .fold(0u64, |m, (i, &x)| m | u64::from(x >> 7) << i);
    out.extend_from_slice(&high.to_le_bytes());
    out.push(u8::from(high != 0));
    out.extend(a.iter().flat_map(|&x| u16::from(x).to_le_bytes()));
    for be in [false, true] {
        let wunits: Vec<u16> = w
            .chunks(2)
            .map(|c| {
                if be {
                    u16::from_be_bytes([c[0], c[1]])
                } else {
                    u16::from_le_bytes([c[0], c[1]])
                }
            })
            .collect();
        if wunits.iter().all(|&u| u < 0x80) {
            out.extend(wunits.iter().map(|&u| u as u8));
        } else {
            out.push(0xEE);
        }
    }
    for be in [false, true] {
        let u: Vec<u16> = (0..n / 2)
            .map(|k| {
                let (x, y) = (a[2 * k], a[2 * k + 1]);
                if be {
                    u16::from_be_bytes([x, y])
                } else {
                    u16::from_le_bytes([x, y])
                }
            })
            .collect();
        let lead = |x: u16| x & 0xFC00 == 0xD800;
        let trail = |x: u16| x & 0xFC00 == 0xDC00;
        let paired = (0..u.len()).all(|k| {
            (!lead(u[k]) || (k + 1 < u.len() && trail(u[k + 1])))
                && (!trail(u[k]) || (k > 0 && lead(u[k - 1])))
        });
        if paired {
            out.extend(from_units(&u));
        } else {
            out.push(0xEE);
        }
    }
    out
}

/// Inputs for the operation checks: bytes that sit at the bounds the operations test
/// (0x7F/0x80, surrogate leads, 0xFF), `b` equal to `a` in about half its bytes and u16
/// lanes, and `w` all ASCII units in about half the cases.
fn inputs(n: usize, next: &mut impl FnMut() -> u64) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    const EDGE: [u8; 12] = [0, 1, 0x07, 0x08, 0x7F, 0x80, 0xD8, 0xDB, 0xDC, 0xDF, 0xFE, 0xFF];
    let byte = |next: &mut dyn FnMut() -> u64| {
        let r = next();
        if r.is_multiple_of(3) {
            r as u8 >> 1
        } else {
            EDGE[(r >> 8) as usize % EDGE.len()]
        }
    };
    let a: Vec<u8> = (0..n).map(|_| byte(next)).collect();
    let b: Vec<u8> = a
        .iter()
        .map(|&x| if next().is_multiple_of(2) { x } else { byte(next) })
        .collect();
    let ascii = next().is_multiple_of(2);
    let be = next().is_multiple_of(2);
    let w: Vec<u8> = (0..n)
        .flat_map(|_| {
            let u = if ascii || !next().is_multiple_of(8) {
                (next() % 0x80) as u16
            } else {
                next() as u16
            };
            if be { u.to_be_bytes() } else { u.to_le_bytes() }
        })
        .collect();
    (a, b, w)
}

#[cfg(target_arch = "x86_64")]
mod x86_ops {
    use core::arch::x86_64::*;
    crate::simd::x86::with_features! { sse2,
        pub(super) fn sse2(a: &[u8], b: &[u8], w: &[u8]) -> Vec<u8> {
            // SAFETY: SSE2 is enabled on this function; the lengths are the caller's.
            unsafe { super::record::<__m128i>(a, b, w) }
        }
    }
    crate::simd::x86::with_features! { avx2,
        pub(super) fn avx2(a: &[u8], b: &[u8], w: &[u8]) -> Vec<u8> {
            // SAFETY: AVX2 is enabled on this function; the lengths are the caller's.
            unsafe { super::record::<__m256i>(a, b, w) }
        }
        pub(super) fn avx2_lane(a: &[u8], b: &[u8], w: &[u8]) -> Vec<u8> {
            // SAFETY: AVX2 (so SSE4.1) is enabled on this function; the lengths are the
            // caller's.
            unsafe { super::record::<crate::simd::x86::avx2::Xmm>(a, b, w) }
        }
    }
    crate::simd::x86::with_features! { avx512,
        pub(super) fn avx512(a: &[u8], b: &[u8], w: &[u8]) -> Vec<u8> {
            // SAFETY: the AVX-512 level's features are enabled on this function; the lengths
            // are the caller's.
            unsafe { super::record::<__m512i>(a, b, w) }
        }
    }
}

/// Checks the operations of `level` (and, for AVX2, of its 16-byte lane) against [`model`]
/// on `cases` generated inputs each; returns the number of checks, or the first mismatch.
/// The level must be one this CPU supports (`cpu::supported`); others (scalar) have no
/// vector and check nothing.
pub(crate) fn check(level: Level, cases: usize) -> Result<usize, alloc::string::String> {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    type Record = fn(&[u8], &[u8], &[u8]) -> Vec<u8>;
    let mut vectors: Vec<(&str, usize, Record)> = Vec::new();
    assert!(
        crate::cpu::supported().any(|l| l == level),
        "{level} is not supported here"
    );
    // SAFETY (every call in the closures below): the level is supported (asserted above),
    // so this CPU has the features its wrapper enables; the wrappers take any lengths the
    // loop below gives, `n` and `2 * n` bytes.
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => vectors.push(("sse2", 16, |a, b, w| {
            // SAFETY: see above.
            unsafe { x86_ops::sse2(a, b, w) }
        })),
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            vectors.push(("avx2", 32, |a, b, w| {
                // SAFETY: see above.
                unsafe { x86_ops::avx2(a, b, w) }
            }));
            vectors.push(("avx2 lane", 16, |a, b, w| {
                // SAFETY: see above.
                unsafe { x86_ops::avx2_lane(a, b, w) }
            }));
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => vectors.push(("avx512", 64, |a, b, w| {
            // SAFETY: see above.
            unsafe { x86_ops::avx512(a, b, w) }
        })),
        #[cfg(target_arch = "aarch64")]
        Level::Neon => vectors.push(("neon", 16, |a, b, w| {
            // SAFETY: NEON is the aarch64 baseline; the lengths are the loop's.
            unsafe { record::<core::arch::aarch64::uint8x16_t>(a, b, w) }
        })),
        _ => {}
    }
    let mut checks = 0;
    for (name, n, record) in vectors {
        for i in 0..cases {
            let (a, b, w) = inputs(n, &mut next);
            if record(&a, &b, &w) != model(&a, &b, &w) {
                return Err(alloc::format!(
                    "{name}: case {i}: a {a:02X?}, b {b:02X?}, w {w:02X?}"
                ));
            }
            checks += 1;
        }
    }
    Ok(checks)
}
