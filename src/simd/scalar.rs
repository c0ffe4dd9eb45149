//! The portable kernels (`Level::Scalar`): the reference every SIMD level must equal exactly,
//! and the fallback on CPUs without one. Safe code only; ASCII runs go a machine word at a time.

use super::{EncodeTables, Kernels, Level, PairTables, Tuning};
use crate::simd::{OutBytes, write_bytes};

pub(crate) static KERNELS: Kernels = TABLE;

/// The scalar table as a constant, so that other levels can take the kernels they do not
/// override from it (struct update syntax).
pub(crate) const TABLE: Kernels = Kernels {
    level: Level::Scalar,
    ascii_prefix_len,
    copy_ascii,
    // The scalar copy stores exactly; it is loose in name only.
    copy_ascii_loose: copy_ascii,
    widen_ascii,
    narrow_ascii,
    utf8_to_latin1,
    latin1_to_utf8,
    utf8_valid_up_to,
    utf8_copy_valid,
    utf8_to_utf16,
    // Its scalar kernel stops only where `utf8_to_utf16` stops.
    utf8_to_utf16_stage: utf8_to_utf16,
    utf16_to_utf8,
    single_byte_to_utf16,
    single_byte_to_utf8,
    utf16_bytes_to_utf16,
    utf16_bytes_to_utf8,
    cjk_to_utf8,
    cjk_to_utf16,
    utf16_to_legacy,
    tuning: Tuning::SCALAR,
};

const WORD: usize = core::mem::size_of::<usize>();
const HIGH_BITS: usize = usize::from_ne_bytes([0x80; WORD]);

/// Index of the first non-ASCII byte in a word read in memory order (little or big endian).
#[inline(always)]
fn first_high_byte(word: usize) -> usize {
    let high = word & HIGH_BITS;
    if cfg!(target_endian = "little") {
        (high.trailing_zeros() / 8) as usize
    } else {
        (high.leading_zeros() / 8) as usize
    }
}

#[inline(always)]
fn load_word(chunk: &[u8]) -> usize {
    let mut bytes = [0u8; WORD];
    bytes.copy_from_slice(&chunk[..WORD]);
    usize::from_ne_bytes(bytes)
}

pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    let mut i = 0;
    // Four words at a time, OR-reduced, then one at a time.
    while i + 4 * WORD <= src.len() {
        let c = &src[i..i + 4 * WORD];
        let any =
            load_word(c) | load_word(&c[WORD..]) | load_word(&c[2 * WORD..]) | load_word(&c[3 * WORD..]);
        if any & HIGH_BITS != 0 {
            break;
        }
        i += 4 * WORD;
    }
    while i + WORD <= src.len() {
        let word = load_word(&src[i..]);
        if word & HIGH_BITS != 0 {
            return i + first_high_byte(word);
        }
        i += WORD;
    }
    while i < src.len() && src[i] < 0x80 {
        i += 1;
    }
    i
}

pub(crate) fn copy_ascii(src: &[u8], dst: &mut OutBytes) -> usize {
    let len = src.len().min(dst.len());
    let n = ascii_prefix_len(&src[..len]);
    write_bytes(&mut dst[..n], &src[..n]);
    n
}

pub(crate) fn widen_ascii(src: &[u8], dst: &mut [u16]) -> usize {
    let len = src.len().min(dst.len());
    let n = ascii_prefix_len(&src[..len]);
    for (d, &s) in dst[..n].iter_mut().zip(&src[..n]) {
        *d = u16::from(s);
    }
    n
}

pub(crate) fn narrow_ascii(src: &[u16], dst: &mut OutBytes) -> usize {
    let len = src.len().min(dst.len());
    let mut n = 0;
    for (d, &s) in dst[..len].iter_mut().zip(&src[..len]) {
        if s >= 0x80 {
            break;
        }
        d.write(s as u8);
        n += 1;
    }
    n
}

pub(crate) fn utf8_to_latin1(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) {
    utf8_to_latin1_with(src, first, dst, copy_ascii)
}

/// [`utf8_to_latin1`] with the ASCII runs copied by `copy` (a level's `copy_ascii`), the
/// letters between them one by one.
#[inline(always)]
pub(crate) fn utf8_to_latin1_with(
    src: &[u8],
    first: u8,
    dst: &mut OutBytes,
    copy: impl Fn(&[u8], &mut OutBytes) -> usize,
) -> (usize, usize) {
    runs_and_letters(src, dst, copy, |s, d| {
        let byte = latin1_letter(*s.first()?, *s.get(1)?, first)?;
        d.first_mut()?.write(byte);
        Some((2, 1))
    })
}

/// The byte of the two-byte UTF-8 `lead`, `trail` if it is U+0080..=U+00FF from `first` (as
/// `utf8_to_latin1` converts it): 0xC2 and 0xC3 lead those, the lead's low bit the code
/// point's bit 6.
#[inline(always)]
pub(crate) fn latin1_letter(lead: u8, trail: u8, first: u8) -> Option<u8> {
    let byte = (lead << 6) | (trail & 0x3F);
    (lead & 0xFE == 0xC2 && trail & 0xC0 == 0x80 && byte >= first).then_some(byte)
}

pub(crate) fn latin1_to_utf8(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize) {
    latin1_to_utf8_with(src, first, dst, copy_ascii)
}

/// [`latin1_to_utf8`] with the ASCII runs copied by `copy` (a level's `copy_ascii`), the
/// letters between them two bytes each.
#[inline(always)]
pub(crate) fn latin1_to_utf8_with(
    src: &[u8],
    first: u8,
    dst: &mut OutBytes,
    copy: impl Fn(&[u8], &mut OutBytes) -> usize,
) -> (usize, usize) {
    runs_and_letters(src, dst, copy, |s, d| {
        let b = *s.first()?;
        let out = d.get_mut(..2).filter(|_| b >= first)?;
        // U+0080..=U+00FF: lead 0xC2 or 0xC3 (bit 6 of the code point), then the
        // continuation byte, the byte with bit 6 cleared.
        write_bytes(out, &[0xC0 | b >> 6, b & 0xBF]);
        Some((1, 2))
    })
}

/// The loop of the scalar Latin1 kernels: ASCII runs by `copy`, an ASCII byte between two
/// others inline (words are separated by single spaces), and `letter` at each byte from
/// 0x80: `Some((read, written))` of the character it converted from the start of its input
/// into the start of its output, `None` where the kernel stops.
#[inline(always)]
fn runs_and_letters(
    src: &[u8],
    dst: &mut OutBytes,
    copy: impl Fn(&[u8], &mut OutBytes) -> usize,
    letter: impl Fn(&[u8], &mut OutBytes) -> Option<(usize, usize)>,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        let n = copy(&src[read..], &mut dst[written..]);
        read += n;
        written += n;
        loop {
            let (Some(&b), Some(slot)) = (src.get(read), dst.get_mut(written)) else {
                return (read, written);
            };
            if b < 0x80 {
                // A run: the copy.
                if src.get(read + 1).is_some_and(|&b| b < 0x80) {
                    break;
                }
                slot.write(b);
                read += 1;
                written += 1;
                continue;
            }
            let Some((r, w)) = letter(&src[read..], &mut dst[written..]) else {
                return (read, written);
            };
            read += r;
            written += w;
        }
    }
}

/// The length of the valid UTF-8 sequence starting at `src[0]` (a non-ASCII lead byte), or
/// `None` if it is invalid or incomplete. Follows the standard's byte ranges (lower and upper
/// boundaries after E0, ED, F0, F4).
#[inline(always)]
fn utf8_sequence_len(src: &[u8]) -> Option<usize> {
    let b0 = src[0];
    let cont = |i: usize, lo: u8, hi: u8| src.get(i).is_some_and(|&b| (lo..=hi).contains(&b));
    match b0 {
        0xC2..=0xDF if cont(1, 0x80, 0xBF) => Some(2),
        0xE0 if cont(1, 0xA0, 0xBF) && cont(2, 0x80, 0xBF) => Some(3),
        0xE1..=0xEC | 0xEE..=0xEF if cont(1, 0x80, 0xBF) && cont(2, 0x80, 0xBF) => Some(3),
        0xED if cont(1, 0x80, 0x9F) && cont(2, 0x80, 0xBF) => Some(3),
        0xF0 if cont(1, 0x90, 0xBF) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF) => Some(4),
        0xF1..=0xF3 if cont(1, 0x80, 0xBF) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF) => Some(4),
        0xF4 if cont(1, 0x80, 0x8F) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF) => Some(4),
        _ => None,
    }
}

pub(crate) fn utf8_valid_up_to(src: &[u8]) -> usize {
    let mut i = 0;
    loop {
        // The word-at-a-time ASCII routine only at an ASCII byte, not at every character of
        // text in another script, where it finds no run (docs/decisions.md, "Kernel tuning").
        if src.get(i).is_some_and(|&b| b < 0x80) {
            i += ascii_prefix_len(&src[i..]);
        }
        if i == src.len() {
            return i;
        }
        match utf8_sequence_len(&src[i..]) {
            Some(n) => i += n,
            None => return i,
        }
    }
}

pub(crate) fn utf8_copy_valid(src: &[u8], dst: &mut OutBytes) -> (usize, usize) {
    let limit = src.len().min(dst.len());
    let mut i = 0;
    while i < limit {
        if src[i] < 0x80 {
            // Enter the word-at-a-time ASCII routine only on an ASCII byte.
            i += copy_ascii(&src[i..limit], &mut dst[i..limit]);
            continue;
        }
        match utf8_sequence_len(&src[i..]) {
            Some(n) if i + n <= dst.len() => {
                // SAFETY: `i + n <= src.len()` (a sequence of `n` bytes is there) and
                // `i + n <= dst.len()`; `src` and `dst` do not overlap (`&` and `&mut`). Two
                // overlapping stores, where a `memcpy` call per character cost more.
                unsafe { super::copy_short(src.as_ptr().add(i), dst.as_mut_ptr().cast::<u8>().add(i), n) };
                i += n;
            }
            _ => break,
        }
    }
    (i, i)
}

pub(crate) fn utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read < src.len() && written < dst.len() {
        let b = src[read];
        if b < 0x80 {
            if src.get(read + 1).is_some_and(|&next| next < 0x80) {
                let n = widen_ascii(&src[read..], &mut dst[written..]);
                read += n;
                written += n;
            } else {
                // One ASCII byte (a space between words): not worth a run.
                dst[written] = u16::from(b);
                read += 1;
                written += 1;
            }
            continue;
        }
        if let (0xC2..=0xDF, Some(&trail)) = (b, src.get(read + 1))
            && trail & 0xC0 == 0x80
        {
            // Two bytes (Latin, Greek, Cyrillic, Hebrew, Arabic letters): checked here at once.
            dst[written] = (u16::from(b & 0x1F) << 6) | u16::from(trail & 0x3F);
            read += 2;
            written += 1;
            continue;
        }
        let Some(len) = utf8_sequence_len(&src[read..]) else {
            break;
        };
        let s = &src[read..read + len];
        let c = match len {
            2 => (u32::from(s[0] & 0x1F) << 6) | u32::from(s[1] & 0x3F),
            3 => (u32::from(s[0] & 0x0F) << 12) | (u32::from(s[1] & 0x3F) << 6) | u32::from(s[2] & 0x3F),
            _ => {
                (u32::from(s[0] & 0x07) << 18)
                    | (u32::from(s[1] & 0x3F) << 12)
                    | (u32::from(s[2] & 0x3F) << 6)
                    | u32::from(s[3] & 0x3F)
            }
        };
        if c < 0x10000 {
            dst[written] = c as u16;
            written += 1;
        } else {
            if written + 2 > dst.len() {
                break;
            }
            let c = c - 0x10000;
            dst[written] = 0xD800 | (c >> 10) as u16;
            dst[written + 1] = 0xDC00 | (c & 0x3FF) as u16;
            written += 2;
        }
        read += len;
    }
    (read, written)
}

/// Encodes `c` (a scalar value) as UTF-8 into `dst` if it fits; returns the length or 0.
#[inline(always)]
pub(crate) fn put_utf8(c: u32, dst: &mut OutBytes) -> usize {
    match c {
        0..=0x7F if !dst.is_empty() => {
            dst[0].write(c as u8);
            1
        }
        0x80..=0x7FF if dst.len() >= 2 => {
            dst[0].write(0xC0 | (c >> 6) as u8);
            dst[1].write(0x80 | (c & 0x3F) as u8);
            2
        }
        0x800..=0xFFFF if dst.len() >= 3 => {
            dst[0].write(0xE0 | (c >> 12) as u8);
            dst[1].write(0x80 | ((c >> 6) & 0x3F) as u8);
            dst[2].write(0x80 | (c & 0x3F) as u8);
            3
        }
        0x10000.. if dst.len() >= 4 => {
            put_utf8_4(c, dst);
            4
        }
        _ => 0,
    }
}

/// The 4 bytes of UTF-8 of the supplementary code point `c` into `dst[..4]` (`dst` holds 4
/// bytes or more).
#[inline(always)]
fn put_utf8_4(c: u32, dst: &mut OutBytes) {
    dst[0].write(0xF0 | (c >> 18) as u8);
    dst[1].write(0x80 | ((c >> 12) & 0x3F) as u8);
    dst[2].write(0x80 | ((c >> 6) & 0x3F) as u8);
    dst[3].write(0x80 | (c & 0x3F) as u8);
}

pub(crate) fn utf16_to_utf8(src: &[u16], dst: &mut OutBytes) -> (usize, usize) {
    if src.len() < 16 {
        // Short inputs (the tails of the vector kernels, short pieces): one loop, not two.
        return utf16_to_utf8_each(src, dst);
    }
    let (mut read, mut written) = (0, 0);
    // While 4 bytes of output are left every character fits: one bounds check a character,
    // for a 4-byte window of which it writes the character's bytes only (with one check per
    // byte written the loop ran 30-60% more instructions); the loop after it finishes the
    // last few characters, and stops where the next does not fit.
    while let (Some(&u), Some(out)) = (src.get(read), dst.get_mut(written..written + 4)) {
        if u < 0x80 {
            out[0].write(u as u8);
            read += 1;
            written += 1;
        } else if u < 0x800 {
            out[0].write(0xC0 | (u >> 6) as u8);
            out[1].write(0x80 | (u & 0x3F) as u8);
            read += 1;
            written += 2;
        } else if !(0xD800..=0xDFFF).contains(&u) {
            out[0].write(0xE0 | (u >> 12) as u8);
            out[1].write(0x80 | ((u >> 6) & 0x3F) as u8);
            out[2].write(0x80 | (u & 0x3F) as u8);
            read += 1;
            written += 3;
        } else {
            let t = match src.get(read + 1) {
                Some(&t @ 0xDC00..=0xDFFF) if u < 0xDC00 => t,
                _ => return (read, written),
            };
            let c = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(t) - 0xDC00);
            put_utf8_4(c, out);
            read += 2;
            written += 4;
        }
    }
    let (r, w) = utf16_to_utf8_each(&src[read..], &mut dst[written..]);
    (read + r, written + w)
}

/// [`utf16_to_utf8`] a character at a time, each checked against the room left.
fn utf16_to_utf8_each(src: &[u16], dst: &mut OutBytes) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read < src.len() {
        let u = src[read];
        let (c, units) = match u {
            0xD800..=0xDBFF => match src.get(read + 1) {
                Some(&t @ 0xDC00..=0xDFFF) => (
                    0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(t) - 0xDC00),
                    2,
                ),
                _ => break,
            },
            0xDC00..=0xDFFF => break,
            _ => (u32::from(u), 1),
        };
        let n = put_utf8(c, &mut dst[written..]);
        if n == 0 {
            break;
        }
        read += units;
        written += n;
    }
    (read, written)
}

pub(crate) fn single_byte_to_utf16(src: &[u8], table: &[u16; 128], dst: &mut [u16]) -> (usize, usize) {
    let len = src.len().min(dst.len());
    let mut i = 0;
    while i < len {
        let b = src[i];
        if b < 0x80 {
            // As in `single_byte_to_utf8`: one ASCII byte inline, a run a word at a time.
            dst[i] = u16::from(b);
            i += 1;
            if src.get(i).is_some_and(|&next| next < 0x80) {
                i += widen_ascii(&src[i..len], &mut dst[i..len]);
            }
            continue;
        }
        let u = table[usize::from(b - 0x80)];
        if u == 0 {
            break;
        }
        dst[i] = u;
        i += 1;
    }
    (i, i)
}

pub(crate) fn single_byte_to_utf8(src: &[u8], table: &[u16; 128], dst: &mut OutBytes) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read < src.len() && written < dst.len() {
        let b = src[read];
        if b < 0x80 {
            // One ASCII byte inline (text has single spaces between words); a run: the copy.
            dst[written].write(b);
            read += 1;
            written += 1;
            if src.get(read).is_some_and(|&next| next < 0x80) {
                let n = copy_ascii(&src[read..], dst.get_mut(written..).unwrap_or_default());
                read += n;
                written += n;
            }
            continue;
        }
        let u = table[usize::from(b - 0x80)];
        if u == 0 {
            break;
        }
        let n = put_utf8(u32::from(u), &mut dst[written..]);
        if n == 0 {
            break;
        }
        read += 1;
        written += n;
    }
    (read, written)
}

#[inline(always)]
fn unit(pair: &[u8], be: bool) -> u16 {
    if be {
        u16::from_be_bytes([pair[0], pair[1]])
    } else {
        u16::from_le_bytes([pair[0], pair[1]])
    }
}

pub(crate) fn utf16_bytes_to_utf16(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read + 2 <= src.len() && written < dst.len() {
        let u = unit(&src[read..], be);
        match u {
            0xD800..=0xDBFF => {
                // A pair: both units, or none.
                let Some(t) = src.get(read + 2..read + 4).map(|t| unit(t, be)) else {
                    break;
                };
                if !(0xDC00..=0xDFFF).contains(&t) || written + 2 > dst.len() {
                    break;
                }
                dst[written] = u;
                dst[written + 1] = t;
                read += 4;
                written += 2;
            }
            0xDC00..=0xDFFF => break,
            _ => {
                dst[written] = u;
                read += 2;
                written += 1;
            }
        }
    }
    (read, written)
}

pub(crate) fn utf16_bytes_to_utf8(src: &[u8], be: bool, dst: &mut OutBytes) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        let (r, w) = bmp_bytes_to_utf8(&src[read..], be, &mut dst[written..]);
        read += r;
        written += w;
        // The end, a full output, or a surrogate: a pair, or the end of the run.
        let (Some(u), Some(t)) = (
            src.get(read..read + 2).map(|u| unit(u, be)),
            src.get(read + 2..read + 4).map(|t| unit(t, be)),
        ) else {
            break;
        };
        if !(0xD800..=0xDBFF).contains(&u) || !(0xDC00..=0xDFFF).contains(&t) {
            break;
        }
        let c = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(t) - 0xDC00);
        let Some(d) = dst.get_mut(written..written + 4) else {
            break;
        };
        put_utf8_4(c, d);
        read += 4;
        written += 4;
    }
    (read, written)
}

/// [`utf16_bytes_to_utf8`] up to the first surrogate: a loop of its own, which the compiler
/// keeps tighter than one with the pairs in it (docs/decisions.md, "Kernel tuning").
#[inline(always)]
fn bmp_bytes_to_utf8(src: &[u8], be: bool, dst: &mut OutBytes) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // While 3 bytes of output are left every BMP character fits: one bounds check a
    // character, for a 3-byte window of which it writes the character's bytes only; the loop
    // after it finishes the last few.
    while let (Some(pair), Some(out)) = (src.get(read..read + 2), dst.get_mut(written..written + 3)) {
        let u = unit(pair, be);
        if u < 0x80 {
            out[0].write(u as u8);
            written += 1;
        } else if u < 0x800 {
            out[0].write(0xC0 | (u >> 6) as u8);
            out[1].write(0x80 | (u & 0x3F) as u8);
            written += 2;
        } else if (0xD800..=0xDFFF).contains(&u) {
            return (read, written);
        } else {
            out[0].write(0xE0 | (u >> 12) as u8);
            out[1].write(0x80 | ((u >> 6) & 0x3F) as u8);
            out[2].write(0x80 | (u & 0x3F) as u8);
            written += 3;
        }
        read += 2;
    }
    while read + 2 <= src.len() {
        let u = unit(&src[read..], be);
        if (0xD800..=0xDFFF).contains(&u) {
            break;
        }
        let n = put_utf8(u32::from(u), &mut dst[written..]);
        if n == 0 {
            break;
        }
        read += 2;
        written += n;
    }
    (read, written)
}

/// Decodes plain characters (ASCII, and pairs as [`PairTables::plain_from`] defines them) while
/// they fit; two or three UTF-8 bytes per pair.
pub(crate) fn cjk_to_utf8(src: &[u8], tables: &PairTables, dst: &mut OutBytes) -> (usize, usize) {
    cjk_to_utf8_from::<0x80>(src, tables, dst, usize::MAX)
}

/// The plain character (from `MIN`) at `src[read]`, which is `byte` (0x80 or above): its
/// code point and length (a pair, or gb18030's four bytes).
#[inline(always)]
fn plain_at<const MIN: u32>(src: &[u8], read: usize, byte: u8, tables: &PairTables) -> Option<(u32, usize)> {
    let trail = *src.get(read + 1)?;
    if let Some(code_point) = tables.plain_from::<MIN>(byte, trail) {
        return Some((code_point, 2));
    }
    let code_point = tables.four_byte_from::<MIN>(src.get(read..read + 4)?)?;
    Some((code_point, 4))
}

/// [`cjk_to_utf8`] with pairs plain from `MIN`, stopping also at the first character
/// boundary at or after `end` (the vector kernels decode a block they stop at with it, and
/// go on after it if this does). Not inlined: in the vector kernels' loops, the call is
/// their tail.
#[inline(never)]
pub(crate) fn cjk_to_utf8_from<const MIN: u32>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut OutBytes,
    end: usize,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read < end
        && let Some(&byte) = src.get(read)
    {
        if byte < 0x80 {
            let Some(slot) = dst.get_mut(written) else {
                break;
            };
            slot.write(byte);
            read += 1;
            written += 1;
            continue;
        }
        let Some((code_point, len)) = plain_at::<MIN>(src, read, byte, tables) else {
            break;
        };
        // Two or three bytes (a plain code point is in U+0080..=U+FFFF), or 0 if they do not
        // fit.
        let n = put_utf8(code_point, dst.get_mut(written..).unwrap_or_default());
        if n == 0 {
            break;
        }
        read += len;
        written += n;
    }
    (read, written)
}

/// As [`cjk_to_utf8`], to UTF-16: one code unit per character.
pub(crate) fn cjk_to_utf16(src: &[u8], tables: &PairTables, dst: &mut [u16]) -> (usize, usize) {
    cjk_to_utf16_from::<0x80>(src, tables, dst, usize::MAX)
}

/// [`cjk_to_utf16`] with pairs plain from `MIN`, stopping also at the first character
/// boundary at or after `end`, as [`cjk_to_utf8_from`] (not inlined either).
#[inline(never)]
pub(crate) fn cjk_to_utf16_from<const MIN: u32>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut [u16],
    end: usize,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read < end
        && let Some(&byte) = src.get(read)
    {
        let Some(slot) = dst.get_mut(written) else {
            break;
        };
        if byte < 0x80 {
            *slot = u16::from(byte);
            read += 1;
        } else {
            let Some((code_point, len)) = plain_at::<MIN>(src, read, byte, tables) else {
                break;
            };
            *slot = code_point as u16;
            read += len;
        }
        written += 1;
    }
    (read, written)
}

/// Encodes plain code units (ASCII, and units as [`EncodeTables::bytes`] defines them) while
/// their bytes fit.
pub(crate) fn utf16_to_legacy(src: &[u16], tables: &EncodeTables, dst: &mut OutBytes) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some(&u) = src.get(read) {
        let bytes = if u < 0x80 { u } else { tables.bytes(u) };
        if bytes == 0 && u != 0 {
            break;
        }
        if bytes < 0x100 {
            let Some(slot) = dst.get_mut(written) else {
                break;
            };
            slot.write(bytes as u8);
            written += 1;
        } else {
            let Some(slots) = dst.get_mut(written..written + 2) else {
                break;
            };
            write_bytes(slots, &bytes.to_be_bytes());
            written += 2;
        }
        read += 1;
    }
    (read, written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_prefix_every_position_and_alignment() {
        let mut buf = vec![b'a'; 300];
        for start in 0..17 {
            for len in 0..120 {
                assert_eq!(ascii_prefix_len(&buf[start..start + len]), len);
                for pos in 0..len {
                    buf[start + pos] = 0x80;
                    assert_eq!(
                        ascii_prefix_len(&buf[start..start + len]),
                        pos,
                        "start {start} len {len}"
                    );
                    buf[start + pos] = b'a';
                }
            }
        }
    }

    #[test]
    fn utf8_kernels_agree_with_std() {
        let samples: [&[u8]; 8] = [
            b"plain ascii text",
            "h\u{e9}llo \u{65e5}\u{672c} \u{1F600}!".as_bytes(),
            b"\xE0\x80\x80",
            b"\xED\xA0\x80",
            b"ab\xF0\x90\x80",
            b"\xF4\x90\x80\x80",
            b"\xC2",
            b"\xEF\xBB\xBFx\xC3\xA9",
        ];
        for s in samples {
            let valid = match std::str::from_utf8(s) {
                Ok(_) => s.len(),
                Err(e) => e.valid_up_to(),
            };
            assert_eq!(utf8_valid_up_to(s), valid, "{s:?}");
            let mut dst = vec![0u8; s.len()];
            assert_eq!(utf8_copy_valid(s, crate::simd::as_out(&mut dst)), (valid, valid));
            let mut wide = vec![0u16; s.len()];
            let (read, written) = utf8_to_utf16(s, &mut wide);
            assert_eq!(read, valid);
            let expect: Vec<u16> = std::str::from_utf8(&s[..valid]).unwrap().encode_utf16().collect();
            assert_eq!(&wide[..written], &expect[..]);
            let mut back = vec![0u8; s.len()];
            let (r, w) = utf16_to_utf8(&expect, crate::simd::as_out(&mut back));
            assert_eq!((r, &back[..w]), (expect.len(), &s[..valid]));
        }
    }

    #[test]
    fn output_limits_stop_before_a_whole_character() {
        let s = "a\u{e9}\u{65e5}\u{1F600}".as_bytes(); // 1 + 2 + 3 + 4 bytes
        for cap in 0..=s.len() {
            let mut dst = vec![0u8; cap];
            let (r, w) = utf8_copy_valid(s, crate::simd::as_out(&mut dst));
            assert!(
                r == w && w <= cap && [0, 1, 3, 6, 10].contains(&r),
                "cap {cap}: {r}"
            );
        }
        let wide: Vec<u16> = "\u{1F600}".encode_utf16().collect();
        let mut one = [0u16; 1];
        assert_eq!(utf8_to_utf16("\u{1F600}".as_bytes(), &mut one), (0, 0));
        assert_eq!(
            utf16_to_utf8(&wide[..1], crate::simd::as_out(&mut [0u8; 8])),
            (0, 0)
        );
    }

    /// `utf16_to_utf8` and `utf16_bytes_to_utf8` (LE, BE) equal a model built on
    /// `char::decode_utf16` (greedy: whole characters while they fit, up to the first
    /// unpaired surrogate) on every sequence of up to 4 units from a set that has each length
    /// and kind at its bounds, into every output size up to 17 bytes, with a guard byte after.
    #[test]
    fn utf16_to_utf8_every_short_sequence_and_output_size() {
        const UNITS: [u16; 12] = [
            0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF,
        ];
        let model = |units: &[u16], cap: usize| {
            let (mut read, mut out) = (0, Vec::new());
            for c in char::decode_utf16(units.iter().copied()) {
                let Ok(c) = c else { break };
                if out.len() + c.len_utf8() > cap {
                    break;
                }
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                read += c.len_utf16();
            }
            (read, out)
        };
        let mut units = Vec::new();
        for len in 0..=4u32 {
            for code in 0..UNITS.len().pow(len) {
                units.clear();
                let mut c = code;
                for _ in 0..len {
                    units.push(UNITS[c % UNITS.len()]);
                    c /= UNITS.len();
                }
                let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
                let be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
                for cap in 0..=17 {
                    let (read, expect) = model(&units, cap);
                    let mut dst = vec![0xAAu8; cap + 1];
                    let (r, w) = utf16_to_utf8(&units, crate::simd::as_out(&mut dst[..cap]));
                    assert_eq!((r, &dst[..w]), (read, &expect[..]), "{units:04X?} into {cap}");
                    assert!(
                        dst[w..].iter().all(|&b| b == 0xAA),
                        "{units:04X?}: past the output"
                    );
                    for (bytes, be) in [(&le, false), (&be, true)] {
                        let mut dst = vec![0xAAu8; cap + 1];
                        let (r, w) = utf16_bytes_to_utf8(bytes, be, crate::simd::as_out(&mut dst[..cap]));
                        assert_eq!((r, &dst[..w]), (2 * read, &expect[..]), "{bytes:02X?} into {cap}");
                        assert!(
                            dst[w..].iter().all(|&b| b == 0xAA),
                            "{bytes:02X?}: past the output"
                        );
                    }
                }
            }
        }
    }
}
