//! The encode runs: the loops behind `Source::encode_run` and
//! `Source::encode_non_ascii_run`, one per input form, and the helpers they share. A run
//! encodes characters while they are ASCII or the family's mapping takes them, through the
//! vector kernels where they pay and character by character elsewhere; it leaves everything
//! else (unmappable characters, surrogates, escape sequences) to the family's encoder.

use crate::codecs::source::{ByteDest, Utf8Source, Utf16Source};
use crate::codecs::tuning::{
    ASCII_INLINE_UNITS, ENCODE_STAGE, KERNEL_BACKOFF, KERNEL_BACKOFF_MAX, NON_ASCII_RUN_MAX,
    SINGLE_BYTE_UNITS_MIN, VECTOR_ENCODE_MIN,
};
use crate::simd::{EncodeTables, Lookup};
use crate::simd::{OutBytes, write_bytes};

/// `Source::encode_run` from UTF-8 (`&str`).
#[inline(always)]
pub(super) fn from_utf8(
    source: &mut Utf8Source<'_>,
    dst: &mut ByteDest<'_>,
    tables: Option<&EncodeTables>,
    map: impl Fn(u32) -> u16,
) {
    // Staging only before `stage_end`, where enough input is left (`Tuning::stage_encode_min`
    // bytes, three times as many for the CJK encoders, three bytes a unit): one test a
    // character on short inputs, and a loop without staging where there is none (AVX2:
    // Russian to windows-1251 +3.3% instructions with the tests in the loop).
    if let Some(t) = tables
        && t.latin1_from != 0
    {
        return from_utf8_latin1(source, dst, map, t.latin1_from);
    }
    let tuning = source.kernels.tuning();
    let len = source.src.len();
    let cjk = tables.is_some_and(|t| !matches!(t.blocks, Lookup::U8(_)));
    let stage_end = match tables {
        Some(_) if tuning.stage_encode_in_utf16 => {
            let min = if cjk {
                3 * tuning.stage_encode_min
            } else {
                tuning.stage_encode_min
            };
            (len + 1).saturating_sub(min.max(16))
        }
        _ => 0,
    };
    if stage_end > source.pos {
        from_utf8_loop::<true>(source, dst, tables, map, stage_end, cjk);
    } else {
        from_utf8_loop::<false>(source, dst, tables, map, 0, cjk);
    }
}

/// [`from_utf8`] for a single-byte encoding whose bytes from `first` to 0xFF are their code
/// points (windows-1252): ASCII and those letters by `utf8_to_latin1`, what it stops at
/// (another character, or the end of the room) one by one. Latin-script text is ASCII with a
/// letter every few dozen bytes (German: one in 70), which a call of the ASCII copy between
/// each two letters would pay for (German windows-1252 at NEON: 2.28 -> 1.64 instructions a
/// byte); no staging, which only dense non-ASCII text pays for.
#[inline(always)]
fn from_utf8_latin1(
    source: &mut Utf8Source<'_>,
    dst: &mut ByteDest<'_>,
    map: impl Fn(u32) -> u16,
    first: u8,
) {
    let bytes = source.src.as_bytes();
    let buf = &mut *dst.buf;
    let (mut p, mut w) = (source.pos, dst.pos);
    loop {
        let (r, n) = source
            .kernels
            .utf8_to_latin1(&bytes[p..], first, buf.get_mut(w..).unwrap_or_default());
        p += r;
        w += n;
        // The kernel takes every ASCII byte that fits: an ASCII byte here did not. (The
        // character's map-and-write below is `from_utf8_loop`'s tail written again: a helper
        // for both cost 16-byte pieces 0.6% at NEON, docs/decisions.md.)
        let Some(&b0) = bytes.get(p).filter(|&&b| b >= 0x80) else {
            break;
        };
        // `p` is a character boundary of a `str`: the whole character is there.
        let (c, len) = non_ascii_char_at(bytes, p, b0);
        let n = put_mapped(buf, w, map(c));
        if n == 0 {
            break;
        }
        w += n;
        p += len;
    }
    source.pos = p;
    dst.pos = w;
}

/// [`from_utf8`]'s loop, staging before `stage_end` if `STAGE`.
#[inline(always)]
fn from_utf8_loop<const STAGE: bool>(
    source: &mut Utf8Source<'_>,
    dst: &mut ByteDest<'_>,
    tables: Option<&EncodeTables>,
    map: impl Fn(u32) -> u16,
    stage_end: usize,
    cjk: bool,
) {
    let bytes = source.src.as_bytes();
    let buf = &mut *dst.buf;
    let (mut p, mut w) = (source.pos, dst.pos);
    // Units per staging: from the level's shortest (`Tuning::stage_units_min`), doubled while
    // whole stages are encoded, back to it when one stops early (so a character the run
    // declines wastes at most a short stage).
    let stage_min = source.kernels.tuning().stage_units_min;
    let mut stage_len = stage_min;
    // Zeroed once, at the first stage (an HTML page's encode makes a stage every few words).
    let mut stage_buf: Option<[u16; ENCODE_STAGE]> = None;
    'run: while let Some(&b0) = bytes.get(p) {
        // Stage where the vector kernel maps the staged units (ASCII too): always for the
        // CJK encoders; for the single-byte ones only where 12 of the next 16 bytes are
        // above 0x7F (Cyrillic, Greek, Hebrew, Arabic, Thai words), as text with isolated
        // non-ASCII letters (German, French, where a pair such as "öß" is as dense as it
        // gets) measured faster character by character with the ASCII kernel between. Where
        // the 16 bytes are not that dense, the next 16 are not looked at either.
        let stage_here = STAGE
            && p < stage_end
            && b0 >= 0x80
            && p >= source.stage_from
            // A letter of 2 bytes before ASCII (German, French) is never dense: no more tests.
            && bytes[p + 2] >= 0x80
            && (cjk || {
                let dense = high_bytes_16(&bytes[p..p + 16]) >= 12;
                if !dense {
                    source.stage_from = p + 16;
                }
                dense
            });
        if stage_here {
            // Where `utf8_to_utf16` is a vector kernel: convert up to `stage_len` units in
            // bulk, then map unit by unit, counting the UTF-8 bytes each one came from. The
            // stage's kernel may leave its last units to the next stage (its vector loops
            // stop where the stage has room for less than a block): the input it is given is
            // all that is left, so that it stops for the room, not for the input.
            let stage = stage_buf.get_or_insert([0u16; ENCODE_STAGE]);
            let (staged_bytes, units) = source
                .kernels
                .utf8_to_utf16_stage(&bytes[p..], &mut stage[..stage_len]);
            let before = p;
            let mut rest = &stage[..units];
            if let Some(tables) = tables
                && source.kernels.tuning().call_legacy_encode
            {
                // The plain units in bulk (BMP, not surrogates: 1 to 3 UTF-8 bytes each).
                let (k, n) =
                    source
                        .kernels
                        .utf16_to_legacy(rest, tables, buf.get_mut(w..).unwrap_or_default());
                w += n;
                p += if k == rest.len() {
                    // All of them: exactly the bytes the transcoder read.
                    staged_bytes
                } else {
                    rest[..k].iter().map(|&u| bmp_utf8_len(u)).sum::<usize>()
                };
                rest = &rest[k..];
            }
            let mut whole = true;
            for &u in rest {
                // Surrogates (astral characters) are the state machine's.
                if u & 0xF800 == 0xD800 {
                    whole = false;
                    break;
                }
                let m = if u < 0x80 { u } else { map(u32::from(u)) };
                let len = bmp_utf8_len(u);
                let n = put_mapped(buf, w, m);
                if n == 0 {
                    if p != before {
                        // The character at `p` is the state machine's (an unmapped one, as an
                        // isolated character of Japanese text that Shift_JIS lacks) or there
                        // is no room: the run ends here. (Going on, the next stage would
                        // start at it, make no progress and back the kernels off for
                        // `KERNEL_BACKOFF` bytes of mappable text.)
                        source.stage_backoff = KERNEL_BACKOFF;
                        break 'run;
                    }
                    whole = false;
                    break;
                }
                w += n;
                p += len;
            }
            if p != before {
                source.stage_backoff = KERNEL_BACKOFF;
                // Longer stages only while they are dense in non-ASCII characters (a quarter
                // of the units or more: Cyrillic, Greek, CJK): a stage of mostly ASCII (set
                // off by a pair such as German "öß") goes back to the shortest, as ASCII runs
                // are faster through `copy_ascii` (German text at AVX-512: 5.6 -> 6.2 GB/s
                // from this alone).
                let dense = 4 * (staged_bytes - units) >= units;
                stage_len = if whole && dense {
                    (2 * stage_len).min(ENCODE_STAGE)
                } else {
                    stage_min
                };
                continue;
            }
            stage_len = stage_min;
            source.stage_from = p + source.stage_backoff;
            source.stage_backoff = (2 * source.stage_backoff).min(KERNEL_BACKOFF_MAX);
        }
        if b0 < 0x80 {
            let Some(slot) = buf.get_mut(w) else {
                break;
            };
            slot.write(b0);
            p += 1;
            w += 1;
            if bytes.get(p).is_some_and(|&b| b < 0x80) {
                // Into a `Vec`'s spare capacity, the source's table copies loosely
                // (`Kernels::for_spare_output`).
                let n = source
                    .kernels
                    .copy_ascii(&bytes[p..], buf.get_mut(w..).unwrap_or_default());
                p += n;
                w += n;
            }
            continue;
        }
        // `p` is a character boundary of a `str`: the whole character is there.
        let (c, len) = non_ascii_char_at(bytes, p, b0);
        let n = put_mapped(buf, w, map(c));
        if n == 0 {
            break;
        }
        w += n;
        p += len;
    }
    source.pos = p;
    dst.pos = w;
}

/// How many of the 16 bytes are above 0x7F: a few multiplications, as the baseline target
/// this is compiled for has no `popcnt` (and a loop over the bytes compiled to two dozen
/// instructions).
#[inline(always)]
fn high_bytes_16(bytes: &[u8]) -> u64 {
    let count = |word: &[u8]| {
        let high = u64::from_le_bytes(word.try_into().unwrap_or_default()) >> 7 & 0x0101_0101_0101_0101;
        // The sum of the eight 0/1 bytes, in the top byte.
        high.wrapping_mul(0x0101_0101_0101_0101) >> 56
    };
    count(&bytes[..8]) + count(&bytes[8..16])
}

/// `Source::encode_non_ascii_run` from UTF-8 (`&str`).
#[inline(always)]
pub(super) fn from_utf8_non_ascii(
    source: &mut Utf8Source<'_>,
    dst: &mut ByteDest<'_>,
    map: impl Fn(u32) -> u16,
) {
    let bytes = source.src.as_bytes();
    let rest = &bytes[source.pos..];
    let mut n = non_ascii_prefix(&rest[..rest.len().min(non_ascii_bound(dst.left()))]);
    // An ASCII byte, or the end of the input, is a character boundary; the bound may not be.
    while !source.src.is_char_boundary(source.pos + n) {
        n -= 1;
    }
    let end = source.pos + n;
    let buf = &mut *dst.buf;
    let (mut p, mut w) = (source.pos, dst.pos);
    // `p` is a character boundary of a `str` before `end`, which is one too: the whole
    // character is there.
    while let Some(&b0) = bytes[..end].get(p) {
        let (c, len) = non_ascii_char_at(bytes, p, b0);
        let n = put_mapped(buf, w, map(c));
        if n == 0 {
            break;
        }
        w += n;
        p += len;
    }
    source.pos = p;
    dst.pos = w;
}

/// `Source::encode_run` from UTF-16.
#[inline(always)]
pub(super) fn from_utf16(
    source: &mut Utf16Source<'_>,
    dst: &mut ByteDest<'_>,
    tables: Option<&EncodeTables>,
    map: impl Fn(u32) -> u16,
) {
    let units = source.src;
    let buf = &mut *dst.buf;
    let (mut p, mut w) = (source.pos, dst.pos);
    let single_byte = tables.is_some_and(|t| matches!(t.blocks, Lookup::U8(_)));
    while let Some(&u) = units.get(p) {
        if single_byte && u >= 0x80 && units.len() - p < SINGLE_BYTE_UNITS_MIN {
            // A short end into a single-byte encoding: one byte a unit, ASCII or mapped,
            // in one loop: a vector kernel's latency is more than this loop's time on
            // fewer units.
            let k = single_byte_units(&units[p..], &mut buf[w..], &map);
            p += k;
            w += k;
            break;
        }
        if u >= 0x80
            && units.len() - p >= VECTOR_ENCODE_MIN
            && let Some(tables) = tables
            && source.kernels.tuning().call_legacy_encode
        {
            let (k, n) =
                source
                    .kernels
                    .utf16_to_legacy(&units[p..], tables, buf.get_mut(w..).unwrap_or_default());
            p += k;
            w += n;
            if k > 0 {
                continue;
            }
        }
        if u < 0x80 {
            let Some(slot) = buf.get_mut(w) else {
                break;
            };
            slot.write(u as u8);
            p += 1;
            w += 1;
            // A few more ASCII units inline (punctuation and a space between words), a
            // longer run through the kernel.
            let mut inline = 0;
            while inline < ASCII_INLINE_UNITS
                && let Some(&u) = units.get(p)
                && u < 0x80
                && let Some(slot) = buf.get_mut(w)
            {
                slot.write(u as u8);
                p += 1;
                w += 1;
                inline += 1;
            }
            if inline == ASCII_INLINE_UNITS && units.get(p).is_some_and(|&u| u < 0x80) {
                let n = source
                    .kernels
                    .narrow_ascii(&units[p..], buf.get_mut(w..).unwrap_or_default());
                p += n;
                w += n;
            }
            continue;
        }
        // Surrogates (pairs and unpaired ones) are the state machine's.
        if u & 0xF800 == 0xD800 {
            break;
        }
        let n = put_mapped(buf, w, map(u32::from(u)));
        if n == 0 {
            break;
        }
        w += n;
        p += 1;
    }
    source.pos = p;
    dst.pos = w;
}

/// `Source::encode_non_ascii_run` from UTF-16.
#[inline(always)]
pub(super) fn from_utf16_non_ascii(
    source: &mut Utf16Source<'_>,
    dst: &mut ByteDest<'_>,
    map: impl Fn(u32) -> u16,
) {
    let units = source.src;
    let rest = &units[source.pos..];
    let end = source.pos + non_ascii_prefix(&rest[..rest.len().min(non_ascii_bound(dst.left()))]);
    let buf = &mut *dst.buf;
    let (mut p, mut w) = (source.pos, dst.pos);
    while let Some(&u) = units[..end].get(p) {
        // Surrogates (pairs and unpaired ones) are the state machine's.
        let m = if u & 0xF800 == 0xD800 {
            0
        } else {
            map(u32::from(u))
        };
        let n = put_mapped(buf, w, m);
        if n == 0 {
            break;
        }
        w += n;
        p += 1;
    }
    source.pos = p;
    dst.pos = w;
}

/// How far `Source::encode_non_ascii_run` looks ahead: the input that could fill `left`
/// bytes of output (each character it encodes is at most two bytes from at least one unit,
/// or three from two), plus a character's worth so that any room makes progress.
#[inline(always)]
pub(super) fn non_ascii_bound(left: usize) -> usize {
    left.saturating_mul(2).saturating_add(4).min(NON_ASCII_RUN_MAX)
}

/// The length of the prefix of `units` with no unit below 0x80, sixteen at a time (a loop the
/// compiler vectorises) and then one by one in the block that has one.
#[inline(always)]
pub(crate) fn non_ascii_prefix<T: Copy + Into<u32>>(units: &[T]) -> usize {
    let mut n = 0;
    while let Some(block) = units.get(n..n + 16) {
        if !block.iter().fold(true, |all, &u| all & (u.into() >= 0x80)) {
            break;
        }
        n += 16;
    }
    n + units[n..]
        .iter()
        .position(|&u| u.into() < 0x80)
        .unwrap_or(units.len() - n)
}

/// Copies the prefix of `src` whose units are ASCII `c` with bit `c` of `allowed` set into
/// `dst`, as far as it fits; returns its length. Sixteen units at a time while they are all
/// printable (and allowed), one by one in a block that is not.
#[inline(always)]
pub(super) fn copy_allowed<T: Copy + Into<u32>>(src: &[T], dst: &mut OutBytes, allowed: u128) -> usize {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    // Bits 0x20 to 0x7E.
    const PRINTABLE: u128 = (u128::MAX >> 1) >> 0x20 << 0x20;
    // All of 0x20..=0x7E allowed: a block of those is copied without the bit test.
    let printable = allowed & PRINTABLE == PRINTABLE;
    let ok = |u: T| {
        let u: u32 = u.into();
        u < 0x80 && allowed >> u & 1 != 0
    };
    let mut n = 0;
    loop {
        if printable
            && let (Some(block), Some(out)) = (src.get(n..n + 16), dst.get_mut(n..n + 16))
            && block
                .iter()
                .fold(true, |all, &u| all & (u.into().wrapping_sub(0x20) < 0x5F))
        {
            for (slot, &u) in out.iter_mut().zip(block) {
                slot.write(u.into() as u8);
            }
            n += 16;
            continue;
        }
        let end = len.min(n + 16);
        while n < end && ok(src[n]) {
            dst[n].write(src[n].into() as u8);
            n += 1;
        }
        if n < end || n == len {
            return n;
        }
    }
}

/// The scalar value and length of the non-ASCII character whose first byte `b0` is at `p` in
/// `bytes`, the bytes of a `str` with a character boundary at `p`.
#[inline(always)]
pub(super) fn non_ascii_char_at(bytes: &[u8], p: usize, b0: u8) -> (u32, usize) {
    // One bounds check a character (a `str`'s character is always whole: the `None` arms are
    // never taken), rather than one a continuation byte.
    let c = |b: u8| u32::from(b & 0x3F);
    if b0 < 0xE0 {
        match bytes.get(p + 1) {
            Some(&b1) => (u32::from(b0 & 0x1F) << 6 | c(b1), 2),
            None => (0, 2),
        }
    } else if b0 < 0xF0 {
        match bytes.get(p + 1..p + 3) {
            Some(&[b1, b2]) => (u32::from(b0 & 0x0F) << 12 | c(b1) << 6 | c(b2), 3),
            _ => (0, 3),
        }
    } else {
        match bytes.get(p + 1..p + 4) {
            Some(&[b1, b2, b3]) => (u32::from(b0 & 0x07) << 18 | c(b1) << 12 | c(b2) << 6 | c(b3), 4),
            _ => (0, 4),
        }
    }
}

/// The UTF-8 length of a code unit that is not a surrogate.
#[inline(always)]
pub(super) fn bmp_utf8_len(u: u16) -> usize {
    1 + usize::from(u >= 0x80) + usize::from(u >= 0x800)
}

/// Writes what `map` returned for a character (one byte, or two as `lead << 8 | trail`) if
/// it is mapped (not 0) and fits; returns the bytes written, 0 if unmapped or it does not fit.
#[inline(always)]
pub(super) fn put_mapped(buf: &mut OutBytes, w: usize, m: u16) -> usize {
    if m == 0 {
        0
    } else if m < 0x100 {
        match buf.get_mut(w) {
            Some(slot) => {
                slot.write(m as u8);
                1
            }
            None => 0,
        }
    } else {
        match buf.get_mut(w..w + 2) {
            Some(slots) => {
                write_bytes(slots, &m.to_be_bytes());
                2
            }
            None => 0,
        }
    }
}

/// [`single_byte_units`] from UTF-8: the prefix of `src` whose characters are ASCII or mapped
/// by `map` to one byte, as far as `dst` holds it: `(bytes read, bytes written)`. Stops at an
/// unmapped character (`map` returns 0, as for every one above U+FFFF), the state machine's.
#[inline(always)]
pub(crate) fn single_byte_utf8(src: &str, dst: &mut OutBytes, map: impl Fn(u32) -> u16) -> (usize, usize) {
    // (No word of ASCII at a time: Russian's runs of two or three (", ", digits) paid for
    // the test, 16-byte pieces 22.2 -> 24.0 instructions a byte at NEON.)
    let bytes = src.as_bytes();
    let (mut p, mut w) = (0, 0);
    while let (Some(&b0), Some(slot)) = (bytes.get(p), dst.get_mut(w)) {
        if b0 < 0x80 {
            slot.write(b0);
            p += 1;
        } else {
            // `p` is a character boundary of a `str`: the whole character is there.
            let (c, len) = non_ascii_char_at(bytes, p, b0);
            match map(c) {
                0 => break,
                m => slot.write(m as u8),
            };
            p += len;
        }
        w += 1;
    }
    (p, w)
}

/// [`single_byte_utf8`] for an encoder whose run's `map` gives one byte or two
/// ([`put_mapped`]): the stateless CJK encoders' short inputs. `(bytes read, bytes written)`.
#[inline(always)]
pub(crate) fn mapped_utf8(src: &str, dst: &mut OutBytes, map: impl Fn(u32) -> u16) -> (usize, usize) {
    let bytes = src.as_bytes();
    let (mut p, mut w) = (0, 0);
    while let Some(&b0) = bytes.get(p) {
        if b0 < 0x80 {
            let Some(slot) = dst.get_mut(w) else {
                break;
            };
            slot.write(b0);
            p += 1;
            w += 1;
        } else {
            // `p` is a character boundary of a `str`: the whole character is there.
            let (c, len) = non_ascii_char_at(bytes, p, b0);
            match put_mapped(dst, w, map(c)) {
                0 => break,
                n => w += n,
            }
            p += len;
        }
    }
    (p, w)
}

/// Encodes the prefix of `units` (UTF-16) whose units are ASCII or mapped by `map` to one
/// byte, as far as `dst` holds it; returns its length (units read = bytes written). Stops at
/// a surrogate and at an unmapped unit (`map` returns 0), which are the state machine's.
#[inline(always)]
pub(crate) fn single_byte_units(units: &[u16], dst: &mut OutBytes, map: impl Fn(u32) -> u16) -> usize {
    let mut k = 0;
    for (&u, slot) in units.iter().zip(dst) {
        slot.write(if u < 0x80 {
            u as u8
        } else if u & 0xF800 == 0xD800 {
            break;
        } else {
            match map(u32::from(u)) {
                0 => break,
                m => m as u8,
            }
        });
        k += 1;
    }
    k
}
