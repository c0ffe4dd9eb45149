//! UTF-8 to Latin1 (`Kernels::utf8_to_latin1`): ASCII and the two-byte UTF-8 of
//! U+0080..=U+00FF (from `first`), a byte per character, in blocks of `LANES` input bytes,
//! written once over [`Latin1Vector`]. Latin-script text in Western European languages is
//! this: ASCII with a letter every few dozen bytes (German: one in 70), which a loop of ASCII
//! copies and single letters would leave for a call a letter.
//!
//! ```text
//! while LANES input bytes and LANES bytes of room remain:
//!     v = LANES bytes, starting at a character boundary
//!     all ASCII: store v; after four such blocks, the run goes on four vectors at a time
//!     leads = bytes 0xC2 and 0xC3; after = leads shifted by one byte (a lead in the last
//!         byte: read LANES - 1 bytes, it is dropped below anyway)
//!     stop if a non-ASCII byte is neither a lead nor a continuation byte after one, a
//!         byte after a lead is not a continuation, or a code point is below `first`
//!     each continuation after 0xC3 gains 0x40 (the lead's low bit is the code point's bit 6)
//!     output: the bytes that are not leads, compacted per 8 input bytes by a row of
//!         `DROP_ROWS`, stored exactly (`Latin1Vector::put_latin1`)
//! the scalar kernel finishes (from a block that stopped: to where it stops)
//! ```

use super::super::scalar;
use super::super::vector::Vector;
use super::ascii;
use super::cold_path;
use super::rows::{Keep, NONE, compact_rows};
use crate::simd::OutBytes;

/// By the position `p` of a block's one lead (in a 16-byte vector, or half of one): the
/// other 15 bytes' indexes, in order (the lead dropped).
pub(crate) static DROP_ONE: [[u8; 16]; 16] = {
    let mut rows = [[NONE; 16]; 16];
    let mut p = 0;
    while p < 16 {
        let mut k = 0;
        while k < 15 {
            rows[p][k] = if k < p { k as u8 } else { k as u8 + 1 };
            k += 1;
        }
        p += 1;
    }
    rows
};

/// By the 8 bits of `dropped` (byte k of a piece of 8 is dropped): the indexes of the kept
/// bytes, in order, then [`NONE`] (only the first 8 are read).
pub(crate) static DROP_ROWS: [[u8; 16]; 256] = compact_rows(Keep::OneOrNone).0;
/// The number of bytes each row of [`DROP_ROWS`] keeps.
pub(crate) static DROP_LENS: [u8; 256] = compact_rows(Keep::OneOrNone).1;

/// The per-level part of the kernel: one block's checks, conversion and stores. Its
/// contract is [`Vector`]'s: the instruction set of the implementing type is enabled in the
/// caller, pointers are valid for what a method reads or writes.
pub(crate) trait Latin1Vector: Vector {
    /// Whether the block loop advances over a converted block by a branch on its bytes read
    /// (`LANES`, or one fewer where a lead ends the block) rather than by adding them: the
    /// next block's load then does not wait for this block's lead analysis, which made the
    /// loop one dependency chain (German windows-1252 encode at AVX2 +53%, at AVX-512 +60%).
    /// Not at NEON, whose speed here is its instruction count: the rare path's call reloads
    /// the loop's constants (+3.3% instructions; docs/decisions.md, "Latin1 blocks: the bytes
    /// read by a branch").
    const READ_BY_BRANCH: bool;

    /// Converts the block `self` (starting at a character boundary, not all ASCII) if all
    /// its characters are ASCII or U+0080..=U+00FF from `first` (a lead in the last byte
    /// excepted: the block then ends before it), writing exactly its output at `out`:
    /// `Some((read, written))`; `None`, writing nothing, if one is not.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `out` is valid for writing `LANES` bytes; `first` is `first` in every byte.
    unsafe fn put_latin1(self, first: Self, out: *mut u8) -> Option<(usize, usize)>;

    /// Converts the block `self` (not all ASCII) from Latin1 to UTF-8 if none of its bytes
    /// is from 0x80 to below `first`, writing exactly its output at `out` (`LANES` bytes and
    /// one more for each byte from 0x80): `Some(written)`; `None`, writing nothing, if one is.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `out` is valid for writing `2 * LANES` bytes; `first` is `first` in every byte, from
    ///   0x80.
    unsafe fn put_utf8(self, first: Self, out: *mut u8) -> Option<usize>;
}

/// By the position `p` of a 16-byte block's one byte from 0x80 (`SPREAD_ONE[p]`): the
/// shuffle of the two vectors (continuation bytes, leads) that gives the block's first 16
/// bytes of UTF-8: the bytes before `p`, the lead of byte `p` (index `16 + p`), then the
/// bytes from `p` on, one later (byte `p`'s continuation first).
#[cfg_attr(
    not(any(target_arch = "aarch64", test)),
    expect(dead_code, reason = "NEON's table")
)]
pub(crate) static SPREAD_ONE: [[u8; 16]; 16] = {
    let mut rows = [[0; 16]; 16];
    let mut p = 0;
    while p < 16 {
        let mut j = 0;
        while j < 16 {
            rows[p][j] = if j < p {
                j as u8
            } else if j == p {
                16 + p as u8
            } else {
                j as u8 - 1
            };
            j += 1;
        }
        p += 1;
    }
    rows
};

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn utf8_to_latin1<V: Latin1Vector>(
    src: &[u8],
    first: u8,
    dst: &mut OutBytes,
) -> (usize, usize) {
    // SAFETY: `put_latin1` writes at most as many bytes as it reads, `LANES`, the room
    // `blocks` always gives it (so no test of its own: a test cost German `mem` 1.10 -> 1.13
    // instructions a byte at NEON); the ISA per the contract.
    let (read, written) = unsafe {
        let first_v = V::splat(first);
        blocks::<V>(src, dst, 0, |v, out| v.put_latin1(first_v, out))
    };
    let (src, dst) = (&src[read..], &mut dst[written..]);
    let (r, w) = if V::LANES <= 16 {
        letters_to_latin1(src, first, dst)
    } else {
        scalar::utf8_to_latin1(src, first, dst)
    };
    (read + r, written + w)
}

/// What the vector blocks of [`utf8_to_latin1`] leave, with 16-byte vectors: the bytes of
/// the vector that holds the character the kernel stops at, before it (at most 15), or the
/// input's or the output's last few. One character at a time: the scalar kernel calls the
/// copy kernel for each ASCII run, which costs these few bytes more (a stop of German
/// windows-1252 encoding at each „, “ or –).
#[inline(always)]
fn letters_to_latin1(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) {
    let (mut p, mut w) = (0, 0);
    while let (Some(&b), Some(slot)) = (src.get(p), dst.get_mut(w)) {
        if b < 0x80 {
            slot.write(b);
            p += 1;
        } else {
            let Some(byte) = src
                .get(p + 1)
                .and_then(|&trail| scalar::latin1_letter(b, trail, first))
            else {
                break;
            };
            slot.write(byte);
            p += 2;
        }
        w += 1;
    }
    (p, w)
}

/// The loop of both kernels: the ASCII blocks ([`ascii_blocks`]), and `put` for each block
/// with a byte from 0x80, which has `LANES` bytes of output left (`ascii_blocks` returns a
/// block only then), and `room` if more (0: no test): `Some((read, written))`, or `None`
/// where the kernel stops; the bytes read advance by a branch where
/// [`Latin1Vector::READ_BY_BRANCH`]. Returns how far it got.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `put(v, out)` may write `room.max(LANES)` bytes at `out`.
#[inline(always)]
unsafe fn blocks<V: Latin1Vector>(
    src: &[u8],
    dst: &mut OutBytes,
    room: usize,
    put: impl Fn(V, *mut u8) -> Option<(usize, usize)>,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // SAFETY: `ascii_blocks` reads and writes within `left` bytes of `s` and `d`, what is
    // left of both slices, and returns a block it loaded at `s + i` with `i + LANES <= left`;
    // `put` is called with `room.max(LANES)` bytes of `dst` left at `d + i`, per its
    // contract; the ISA per the contract.
    unsafe {
        loop {
            let left = (src.len() - read).min(dst.len() - written);
            let (s, d) = (src.as_ptr().add(read), dst.as_mut_ptr().cast::<u8>().add(written));
            let (i, v) = ascii_blocks::<V>(s, d, left);
            read += i;
            written += i;
            // A block with a letter (or what stops the kernel), with room for its output.
            let Some(v) = v.filter(|_| room == 0 || dst.len() - written >= room) else {
                break;
            };
            let Some((r, w)) = put(v, d.add(i)) else {
                break;
            };
            // `LANES` bytes read, but for a lead in the block's last byte (rarely): by a
            // branch where `READ_BY_BRANCH` (`cold_path`).
            read += if !V::READ_BY_BRANCH {
                r
            } else if r == V::LANES {
                V::LANES
            } else {
                cold_path();
                r
            };
            written += w;
        }
    }
    (read, written)
}

/// The ASCII blocks at the start of `s`, stored at `d`, while `room` bytes hold them: up to
/// four one at a time (the runs between the letters of German or French text end there),
/// then four at a time. Returns the bytes done and the block with a byte from 0x80 that
/// stopped them (loaded from `s` at that count, `LANES` bytes inside `room`), or `None` when
/// too little room was left. (The first four are a loop of their own, which the compiler
/// unrolls: one helper for both loops, not unrolled, cost German 1.09 -> 1.14 instructions a
/// byte at NEON, `utf8_to_latin1`.)
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `s` is valid for reading and `d` for writing `room` bytes.
#[inline(always)]
unsafe fn ascii_blocks<V: Vector>(s: *const u8, d: *mut u8, room: usize) -> (usize, Option<V>) {
    let lanes = V::LANES;
    let mut i = 0;
    // SAFETY: every load reads and every store writes `LANES` bytes at `i` with `i + LANES
    // <= room`; `run4` loads and stores at `i + k` only with `k + LANES` within the `room -
    // i` it is given; the ISA per the contract.
    unsafe {
        for _ in 0..4 {
            if i + lanes > room {
                return (i, None);
            }
            let b = V::load(s.add(i));
            if b.any_high() {
                return (i, Some(b));
            }
            b.store(d.add(i));
            i += lanes;
        }
        i += ascii::run4(
            room - i,
            lanes,
            |k| V::load(s.add(i + k)),
            |a, b| a.or(b),
            |v| !v.any_high(),
            |v, k| v.store(d.add(i + k)),
        );
        while i + lanes <= room {
            let b = V::load(s.add(i));
            if b.any_high() {
                return (i, Some(b));
            }
            b.store(d.add(i));
            i += lanes;
        }
    }
    (i, None)
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn latin1_to_utf8<V: Latin1Vector>(
    src: &[u8],
    first: u8,
    dst: &mut OutBytes,
) -> (usize, usize) {
    // SAFETY: `put_utf8` writes at most two bytes a byte, `2 * LANES`, the room `blocks`
    // gives it; the ISA per the contract.
    let (read, written) = unsafe {
        let first_v = V::splat(first);
        blocks::<V>(src, dst, 2 * V::LANES, |v, out| {
            v.put_utf8(first_v, out).map(|w| (V::LANES, w))
        })
    };
    let (r, w) = scalar::latin1_to_utf8(&src[read..], first, &mut dst[written..]);
    (read + r, written + w)
}

#[cfg(test)]
mod tests {
    use super::{DROP_LENS, DROP_ONE, DROP_ROWS, NONE, SPREAD_ONE};

    #[test]
    fn spread_rows_put_the_lead_before_its_continuation() {
        for (p, row) in SPREAD_ONE.iter().enumerate() {
            // Stream indexes 0..16 of (continuation bytes 0..16, leads 16..32): the bytes
            // before `p`, the lead of `p`, then `p` (its continuation) and the ones after it.
            let mut want: Vec<u8> = (0..p as u8).collect();
            want.push(16 + p as u8);
            want.extend(p as u8..15);
            assert_eq!(&row[..], &want[..], "{p}");
        }
    }

    #[test]
    fn rows_keep_the_bytes_not_dropped() {
        for (i, (row, &len)) in DROP_ROWS.iter().zip(&DROP_LENS).enumerate() {
            let kept: Vec<u8> = (0..8).filter(|k| i >> k & 1 == 0).collect();
            assert_eq!(&row[..kept.len()], &kept[..], "{i:08b}");
            assert!(row[kept.len()..].iter().all(|&b| b == NONE));
            assert_eq!(usize::from(len), kept.len());
        }
        for (p, row) in DROP_ONE.iter().enumerate() {
            let kept: Vec<u8> = (0..16).filter(|&k| k != p as u8).collect();
            assert_eq!(&row[..15], &kept[..]);
            assert_eq!(row[15], NONE);
        }
    }
}
