//! `simdenc::mem` against references written with std from encoding_rs's documentation, and
//! against encoding_rs 0.8.44's `mem` itself, function by function, on generated inputs
//! (ASCII, Latin1, left-to-right and right-to-left characters at the edges of every bidi
//! range, astral characters, malformed UTF-8, unpaired surrogates) of every length 0..300,
//! at every SIMD level this CPU has.

mod common;

use std::borrow::Cow;

use common::Rng;
use encoding_rs::mem as theirs;
use simdenc::cpu;
use simdenc::mem::{self as ours, Latin1Bidi};

/// Deterministic xorshift, so that failures reproduce.
/// `common::Rng` with a choice from a slice.
trait Pick {
    fn pick<T: Copy>(&mut self, from: &[T]) -> T;
}

impl Pick for Rng {
    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.below(from.len())]
    }
}

// ---------------------------------------------------------------------------------------
// References, from encoding_rs's documentation
// ---------------------------------------------------------------------------------------

/// The right-to-left ranges as `is_char_bidi`'s documentation lists them.
fn ref_char_bidi(c: char) -> bool {
    let c = u32::from(c);
    (0x0590..=0x08FF).contains(&c)
        || [0x200F, 0x202B, 0x202E, 0x2067].contains(&c)
        || (0xFB1D..=0xFDFF).contains(&c)
        || (0xFE70..=0xFEFE).contains(&c)
        || (0x10800..=0x10FFF).contains(&c)
        || (0x1E800..=0x1EFFF).contains(&c)
}

/// A code unit: its character, or for a high surrogate, whether its characters are.
fn ref_unit_bidi(u: u16) -> bool {
    match char::from_u32(u32::from(u)) {
        Some(c) => ref_char_bidi(c),
        None if u < 0xDC00 => {
            let first = 0x10000 + ((u32::from(u) - 0xD800) << 10);
            (first..first + 0x400).all(|c| ref_char_bidi(char::from_u32(c).unwrap()))
        }
        None => false,
    }
}

fn ref_utf8_valid_up_to(b: &[u8]) -> usize {
    std::str::from_utf8(b).map_or_else(|e| e.valid_up_to(), |s| s.len())
}

fn ref_str_latin1_up_to(s: &str) -> usize {
    s.char_indices()
        .find(|&(_, c)| u32::from(c) > 0xFF)
        .map_or(s.len(), |(i, _)| i)
}

fn ref_utf8_latin1_up_to(b: &[u8]) -> usize {
    let valid = ref_utf8_valid_up_to(b);
    ref_str_latin1_up_to(std::str::from_utf8(&b[..valid]).unwrap())
}

fn ref_utf16_valid_up_to(u: &[u16]) -> usize {
    let mut n = 0;
    for c in char::decode_utf16(u.iter().copied()) {
        match c {
            Ok(c) => n += c.len_utf16(),
            Err(_) => return n,
        }
    }
    n
}

/// Characters of UTF-16 with unpaired surrogates as U+FFFD, with their lengths in units.
fn ref_utf16_chars(u: &[u16]) -> Vec<(char, usize)> {
    char::decode_utf16(u.iter().copied())
        .map(|c| match c {
            Ok(c) => (c, c.len_utf16()),
            Err(_) => ('\u{FFFD}', 1),
        })
        .collect()
}

/// `encodeInto`: whole characters while their UTF-8 fits into `room` bytes.
fn ref_utf16_to_utf8_partial(u: &[u16], room: usize) -> (usize, Vec<u8>) {
    let (mut read, mut out) = (0, Vec::new());
    for (c, n) in ref_utf16_chars(u) {
        if out.len() + c.len_utf8() > room {
            break;
        }
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        read += n;
    }
    (read, out)
}

fn ref_latin1_to_utf8_partial(b: &[u8], room: usize) -> (usize, Vec<u8>) {
    let (mut read, mut out) = (0, Vec::new());
    for &byte in b {
        let c = char::from(byte);
        if out.len() + c.len_utf8() > room {
            break;
        }
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        read += 1;
    }
    (read, out)
}

fn ref_latin1_bidi(latin1: bool, bidi: bool) -> Latin1Bidi {
    match (latin1, bidi) {
        (true, _) => Latin1Bidi::Latin1,
        (false, true) => Latin1Bidi::Bidi,
        (false, false) => Latin1Bidi::LeftToRight,
    }
}

/// encoding_rs's `Latin1Bidi` as ours (to compare the two).
fn same(theirs: encoding_rs::mem::Latin1Bidi) -> Latin1Bidi {
    match theirs {
        encoding_rs::mem::Latin1Bidi::Latin1 => Latin1Bidi::Latin1,
        encoding_rs::mem::Latin1Bidi::LeftToRight => Latin1Bidi::LeftToRight,
        encoding_rs::mem::Latin1Bidi::Bidi => Latin1Bidi::Bidi,
    }
}

// ---------------------------------------------------------------------------------------
// Checks of one input, against the references and against encoding_rs
// ---------------------------------------------------------------------------------------

/// Output room sizes to try for the `*_partial` functions, around `full` (enough for all).
fn rooms(rng: &mut Rng, full: usize) -> Vec<usize> {
    let mut r = vec![0, 1, 2, 3, 4, 5, full / 2, full.saturating_sub(1), full, full + 3];
    r.push(rng.below(full + 1));
    r.push(rng.below(full + 1));
    r
}

const CANARY: u8 = b'q';

/// Text of at most `room` bytes with characters of 2, 3 and 4 bytes, for the `str` outputs
/// (the new text cuts some of them).
fn old_text(room: usize) -> String {
    let mut s = String::new();
    for c in "é€😀".chars().cycle() {
        if s.len() + c.len_utf8() > room {
            return s;
        }
        s.push(c);
    }
    s
}

/// Every function that reads UTF-8 bytes (valid or not).
fn check_utf8(b: &[u8], rng: &mut Rng, what: &str) {
    let ctx = || format!("{what}: {b:02X?}");
    let valid = std::str::from_utf8(b).ok();
    let bidi = valid.is_none_or(|s| s.chars().any(ref_char_bidi));
    let latin1 = ref_utf8_latin1_up_to(b) == b.len();

    assert_eq!(ours::is_ascii(b), b.is_ascii(), "{}", ctx());
    assert_eq!(ours::is_ascii(b), theirs::is_ascii(b), "{}", ctx());
    assert_eq!(ours::utf8_latin1_up_to(b), ref_utf8_latin1_up_to(b), "{}", ctx());
    assert_eq!(
        ours::utf8_latin1_up_to(b),
        theirs::utf8_latin1_up_to(b),
        "{}",
        ctx()
    );
    assert_eq!(ours::is_utf8_latin1(b), latin1, "{}", ctx());
    assert_eq!(ours::is_utf8_latin1(b), theirs::is_utf8_latin1(b), "{}", ctx());
    assert_eq!(ours::is_utf8_bidi(b), bidi, "{}", ctx());
    assert_eq!(ours::is_utf8_bidi(b), theirs::is_utf8_bidi(b), "{}", ctx());
    let check = ours::check_utf8_for_latin1_and_bidi(b);
    assert_eq!(check, ref_latin1_bidi(latin1, bidi), "{}", ctx());
    assert_eq!(
        check,
        same(theirs::check_utf8_for_latin1_and_bidi(b)),
        "{}",
        ctx()
    );

    // UTF-8 -> UTF-16, replacing; the reference is std's lossy decode (the standard's).
    let expect: Vec<u16> = String::from_utf8_lossy(b).encode_utf16().collect();
    for extra in [1, 2, 17] {
        let mut dst = vec![0xA5A5u16; b.len() + extra];
        let n = ours::convert_utf8_to_utf16(b, &mut dst);
        assert_eq!(&dst[..n], &expect[..], "{}", ctx());
        let mut their_dst = vec![0xA5A5u16; b.len() + extra];
        let m = theirs::convert_utf8_to_utf16(b, &mut their_dst);
        assert_eq!(&dst[..n], &their_dst[..m], "{}", ctx());
    }
    for extra in [0, 1, 9] {
        let mut dst = vec![0xA5A5u16; b.len() + extra];
        let n = ours::convert_utf8_to_utf16_without_replacement(b, &mut dst);
        assert_eq!(n.is_some(), valid.is_some(), "{}", ctx());
        if let Some(n) = n {
            assert_eq!(&dst[..n], &expect[..], "{}", ctx());
        }
        let mut their_dst = vec![0xA5A5u16; b.len() + extra];
        assert_eq!(
            n,
            theirs::convert_utf8_to_utf16_without_replacement(b, &mut their_dst),
            "{}",
            ctx()
        );
    }
    // As Latin1 bytes.
    check_latin1(b, rng, what);
}

/// Every function that reads a `str`.
fn check_str(s: &str, rng: &mut Rng, what: &str) {
    let ctx = || format!("{what}: {s:?}");
    let bidi = s.chars().any(ref_char_bidi);
    let latin1_up_to = ref_str_latin1_up_to(s);
    let latin1 = latin1_up_to == s.len();

    assert_eq!(ours::str_latin1_up_to(s), latin1_up_to, "{}", ctx());
    assert_eq!(
        ours::str_latin1_up_to(s),
        theirs::str_latin1_up_to(s),
        "{}",
        ctx()
    );
    assert_eq!(ours::is_str_latin1(s), latin1, "{}", ctx());
    assert_eq!(ours::is_str_latin1(s), theirs::is_str_latin1(s), "{}", ctx());
    assert_eq!(ours::is_str_bidi(s), bidi, "{}", ctx());
    assert_eq!(ours::is_str_bidi(s), theirs::is_str_bidi(s), "{}", ctx());
    let check = ours::check_str_for_latin1_and_bidi(s);
    assert_eq!(check, ref_latin1_bidi(latin1, bidi), "{}", ctx());
    assert_eq!(check, same(theirs::check_str_for_latin1_and_bidi(s)), "{}", ctx());

    let expect: Vec<u16> = s.encode_utf16().collect();
    for extra in [0, 1, 9] {
        let mut dst = vec![0xA5A5u16; s.len() + extra];
        let n = ours::convert_str_to_utf16(s, &mut dst);
        assert_eq!(&dst[..n], &expect[..], "{}", ctx());
        let mut their_dst = vec![0xA5A5u16; s.len() + extra];
        let m = theirs::convert_str_to_utf16(s, &mut their_dst);
        assert_eq!(&dst[..n], &their_dst[..m], "{}", ctx());
    }

    // Latin1 strings: to Latin1 bytes.
    if latin1 {
        let expect: Vec<u8> = s.chars().map(|c| u32::from(c) as u8).collect();
        let mut dst = vec![CANARY; s.len()];
        let n = ours::convert_utf8_to_latin1_lossy(s.as_bytes(), &mut dst);
        assert_eq!(&dst[..n], &expect[..], "{}", ctx());
        assert!(dst[n..].iter().all(|&b| b == CANARY), "{}: wrote past", ctx());
        let mut their_dst = vec![CANARY; s.len()];
        let m = theirs::convert_utf8_to_latin1_lossy(s.as_bytes(), &mut their_dst);
        assert_eq!(&dst[..n], &their_dst[..m], "{}", ctx());

        let encoded = ours::encode_latin1_lossy(s);
        assert_eq!(&*encoded, &expect[..], "{}", ctx());
        assert_eq!(matches!(encoded, Cow::Borrowed(_)), s.is_ascii(), "{}", ctx());
        let their_encoded = theirs::encode_latin1_lossy(s);
        assert_eq!(encoded, their_encoded, "{}", ctx());
        assert_eq!(
            matches!(encoded, Cow::Borrowed(_)),
            matches!(their_encoded, Cow::Borrowed(_)),
            "{}",
            ctx()
        );
    }
    check_utf8(s.as_bytes(), rng, what);
}

/// Every function that reads UTF-16 (valid or not).
fn check_utf16(u: &[u16], rng: &mut Rng, what: &str) {
    let ctx = || format!("{what}: {u:04X?}");
    let latin1 = u.iter().all(|&u| u < 0x100);
    let bidi = u.iter().any(|&u| ref_unit_bidi(u));

    assert_eq!(ours::is_basic_latin(u), u.iter().all(|&u| u < 0x80), "{}", ctx());
    assert_eq!(ours::is_basic_latin(u), theirs::is_basic_latin(u), "{}", ctx());
    assert_eq!(ours::is_utf16_latin1(u), latin1, "{}", ctx());
    assert_eq!(ours::is_utf16_latin1(u), theirs::is_utf16_latin1(u), "{}", ctx());
    assert_eq!(ours::is_utf16_bidi(u), bidi, "{}", ctx());
    assert_eq!(ours::is_utf16_bidi(u), theirs::is_utf16_bidi(u), "{}", ctx());
    let check = ours::check_utf16_for_latin1_and_bidi(u);
    assert_eq!(check, ref_latin1_bidi(latin1, bidi), "{}", ctx());
    assert_eq!(
        check,
        same(theirs::check_utf16_for_latin1_and_bidi(u)),
        "{}",
        ctx()
    );
    assert_eq!(ours::utf16_valid_up_to(u), ref_utf16_valid_up_to(u), "{}", ctx());
    assert_eq!(
        ours::utf16_valid_up_to(u),
        theirs::utf16_valid_up_to(u),
        "{}",
        ctx()
    );

    let lossy = String::from_utf16_lossy(u);
    let mut fixed = u.to_vec();
    ours::ensure_utf16_validity(&mut fixed);
    assert_eq!(fixed, lossy.encode_utf16().collect::<Vec<_>>(), "{}", ctx());
    let mut their_fixed = u.to_vec();
    theirs::ensure_utf16_validity(&mut their_fixed);
    assert_eq!(fixed, their_fixed, "{}", ctx());

    // UTF-16 -> UTF-8, whole and partial, into bytes and into a str.
    for extra in [0, 5] {
        let mut dst = vec![CANARY; u.len() * 3 + extra];
        let n = ours::convert_utf16_to_utf8(u, &mut dst);
        assert_eq!(&dst[..n], lossy.as_bytes(), "{}", ctx());
        let mut their_dst = vec![CANARY; u.len() * 3 + extra];
        let m = theirs::convert_utf16_to_utf8(u, &mut their_dst);
        assert_eq!(&dst[..n], &their_dst[..m], "{}", ctx());

        let mut text = "q".repeat(u.len() * 3 + extra);
        let n = ours::convert_utf16_to_str(u, &mut text);
        assert_eq!(&text[..n], lossy, "{}", ctx());
    }
    for room in rooms(rng, lossy.len()) {
        let (read, expect) = ref_utf16_to_utf8_partial(u, room);
        let mut dst = vec![CANARY; room];
        let (r, w) = ours::convert_utf16_to_utf8_partial(u, &mut dst);
        assert_eq!((r, &dst[..w]), (read, &expect[..]), "{} room {room}", ctx());
        assert!(
            dst[w..].iter().all(|&b| b == CANARY),
            "{} room {room}: wrote past",
            ctx()
        );
        let mut their_dst = vec![CANARY; room];
        let theirs_rw = theirs::convert_utf16_to_utf8_partial(u, &mut their_dst);
        assert_eq!((r, w), theirs_rw, "{} room {room}", ctx());
        assert_eq!(dst, their_dst, "{} room {room}", ctx());

        // Into a str whose old text has characters that the new text cuts.
        let mut text = old_text(room);
        let (r, w) = ours::convert_utf16_to_str_partial(u, &mut text);
        let (read, expect) = ref_utf16_to_utf8_partial(u, text.len());
        assert_eq!(
            (r, &text.as_bytes()[..w]),
            (read, &expect[..]),
            "{} str room {room}",
            ctx()
        );
        let mut their_text = old_text(room);
        assert_eq!(
            (r, w),
            theirs::convert_utf16_to_str_partial(u, &mut their_text),
            "{} str room {room}",
            ctx()
        );
        assert_eq!(text, their_text, "{} str room {room}", ctx());
    }

    // Narrowing: ASCII prefix, and Latin1 (truncating garbage elsewhere, as encoding_rs's).
    let ascii = u.iter().take_while(|&&u| u < 0x80).count();
    let mut dst = vec![CANARY; u.len()];
    let n = ours::copy_basic_latin_to_ascii(u, &mut dst);
    assert_eq!(n, ascii, "{}", ctx());
    assert!(
        dst[..n].iter().zip(u).all(|(&b, &u)| u16::from(b) == u),
        "{}",
        ctx()
    );
    let mut their_dst = vec![CANARY; u.len()];
    assert_eq!(
        n,
        theirs::copy_basic_latin_to_ascii(u, &mut their_dst),
        "{}",
        ctx()
    );
    assert_eq!(&dst[..n], &their_dst[..n], "{}", ctx());

    let mut dst = vec![CANARY; u.len() + 2];
    ours::convert_utf16_to_latin1_lossy(u, &mut dst);
    if latin1 {
        assert!(dst.iter().zip(u).all(|(&b, &u)| u16::from(b) == u), "{}", ctx());
    }
    assert_eq!(&dst[u.len()..], &[CANARY; 2], "{}", ctx());
    let mut their_dst = vec![CANARY; u.len() + 2];
    theirs::convert_utf16_to_latin1_lossy(u, &mut their_dst);
    assert_eq!(dst, their_dst, "{}", ctx());
}

/// Every function that reads Latin1 bytes (any bytes are Latin1).
fn check_latin1(b: &[u8], rng: &mut Rng, what: &str) {
    let ctx = || format!("{what} as Latin1: {b:02X?}");
    let text: String = b.iter().map(|&b| char::from(b)).collect();

    let mut dst = vec![0xA5A5u16; b.len() + 1];
    ours::convert_latin1_to_utf16(b, &mut dst);
    assert!(dst.iter().zip(b).all(|(&u, &b)| u == u16::from(b)), "{}", ctx());
    assert_eq!(dst[b.len()], 0xA5A5, "{}", ctx());

    for extra in [0, 3] {
        let mut dst = vec![CANARY; b.len() * 2 + extra];
        let n = ours::convert_latin1_to_utf8(b, &mut dst);
        assert_eq!(&dst[..n], text.as_bytes(), "{}", ctx());
        let mut their_dst = vec![CANARY; b.len() * 2 + extra];
        let m = theirs::convert_latin1_to_utf8(b, &mut their_dst);
        assert_eq!(&dst[..n], &their_dst[..m], "{}", ctx());

        let mut s = "é".repeat(b.len() + extra);
        let n = ours::convert_latin1_to_str(b, &mut s);
        assert_eq!(&s[..n], text, "{}", ctx());
    }
    for room in rooms(rng, text.len()) {
        let (read, expect) = ref_latin1_to_utf8_partial(b, room);
        let mut dst = vec![CANARY; room];
        let (r, w) = ours::convert_latin1_to_utf8_partial(b, &mut dst);
        assert_eq!((r, &dst[..w]), (read, &expect[..]), "{} room {room}", ctx());
        assert!(
            dst[w..].iter().all(|&b| b == CANARY),
            "{} room {room}: wrote past",
            ctx()
        );
        let mut their_dst = vec![CANARY; room];
        assert_eq!(
            (r, w),
            theirs::convert_latin1_to_utf8_partial(b, &mut their_dst),
            "{} room {room}",
            ctx()
        );
        assert_eq!(&dst[..w], &their_dst[..w], "{} room {room}", ctx());

        let mut s = old_text(room);
        let (read, expect) = ref_latin1_to_utf8_partial(b, s.len());
        let (r, w) = ours::convert_latin1_to_str_partial(b, &mut s);
        assert_eq!(
            (r, &s.as_bytes()[..w]),
            (read, &expect[..]),
            "{} str room {room}",
            ctx()
        );
        // After the text: the old text, less the rest of a character that it cut.
        let old = old_text(room);
        let kept = s.as_bytes()[w..].iter().zip(&old.as_bytes()[w..]);
        assert!(
            kept.skip_while(|&(&new, _)| new == 0)
                .all(|(new, old)| new == old),
            "{}",
            ctx()
        );
    }

    let decoded = ours::decode_latin1(b);
    assert_eq!(decoded, text, "{}", ctx());
    assert_eq!(matches!(decoded, Cow::Borrowed(_)), b.is_ascii(), "{}", ctx());
    assert!(matches!(theirs::decode_latin1(b), Cow::Borrowed(_)) == b.is_ascii());

    let ascii = b.iter().take_while(|b| b.is_ascii()).count();
    let mut dst = vec![CANARY; b.len()];
    let n = ours::copy_ascii_to_ascii(b, &mut dst);
    assert_eq!((n, &dst[..n]), (ascii, &b[..ascii]), "{}", ctx());
    let mut their_dst = vec![CANARY; b.len()];
    assert_eq!(n, theirs::copy_ascii_to_ascii(b, &mut their_dst), "{}", ctx());

    let mut dst = vec![0xA5A5u16; b.len()];
    let n = ours::copy_ascii_to_basic_latin(b, &mut dst);
    assert_eq!(n, ascii, "{}", ctx());
    assert!(
        dst[..n].iter().zip(b).all(|(&u, &b)| u == u16::from(b)),
        "{}",
        ctx()
    );
    let mut their_dst = vec![0xA5A5u16; b.len()];
    assert_eq!(
        n,
        theirs::copy_ascii_to_basic_latin(b, &mut their_dst),
        "{}",
        ctx()
    );
}

// ---------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------

const ASCII: &[char] = &['a', 'Z', ' ', '0', '\n', '\0', '\x7F'];
const LATIN1: &[char] = &[
    '\u{80}', '\u{A0}', '\u{BF}', '\u{C0}', '\u{C4}', '\u{E9}', '\u{FF}',
];
/// Left-to-right, above Latin1, many next to the right-to-left ranges.
const LTR: &[char] = &[
    '\u{100}',
    '\u{3B1}',
    '\u{416}',
    '\u{58F}',
    '\u{900}',
    '\u{915}',
    '\u{E01}',
    '\u{200E}',
    '\u{2010}',
    '\u{201C}',
    '\u{202A}',
    '\u{202C}',
    '\u{202D}',
    '\u{2066}',
    '\u{2068}',
    '\u{20AC}',
    '\u{3042}',
    '\u{4E00}',
    '\u{D7FF}',
    '\u{E000}',
    '\u{FB1C}',
    '\u{FE00}',
    '\u{FE6F}',
    '\u{FEFF}',
    '\u{FF0C}',
    '\u{FFFD}',
    '\u{FFFF}',
    '\u{10000}',
    '\u{107FF}',
    '\u{11000}',
    '\u{1E7FF}',
    '\u{1F000}',
    '\u{1F600}',
    '\u{10FFFF}',
];
/// Right-to-left: both ends of every range, and characters inside.
const RTL: &[char] = &[
    '\u{590}',
    '\u{5D0}',
    '\u{5FF}',
    '\u{600}',
    '\u{627}',
    '\u{7FF}',
    '\u{800}',
    '\u{8FF}',
    '\u{200F}',
    '\u{202B}',
    '\u{202E}',
    '\u{2067}',
    '\u{FB1D}',
    '\u{FB50}',
    '\u{FDFF}',
    '\u{FE70}',
    '\u{FEFE}',
    '\u{10800}',
    '\u{10900}',
    '\u{10FFF}',
    '\u{1E800}',
    '\u{1E900}',
    '\u{1EFFF}',
];
const BAD_UTF8: &[&[u8]] = &[
    b"\x80",
    b"\xBF",
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xC2",
    b"\xC3",
    b"\xD6",
    b"\xD7",
    b"\xE0\x80\x80",
    b"\xE0\xA0",
    b"\xE2\x80",
    b"\xED\xA0\x80",
    b"\xEF\xBB",
    b"\xF0\x8F\xBF\xBF",
    b"\xF0\x90\xA0",
    b"\xF0\x9F\x98",
    b"\xF4\x90\x80\x80",
    b"\xF5",
    b"\xFE",
    b"\xFF",
];
const BAD_UTF16: &[&[u16]] = &[
    &[0xD800],
    &[0xDBFF],
    &[0xDC00],
    &[0xDFFF],
    &[0xD802],
    &[0xD803],
    &[0xD83A],
    &[0xD83B],
    &[0xDC00, 0xD800],
];

#[derive(Clone, Copy)]
enum Piece {
    Char(char),
    Bad8(&'static [u8]),
    Bad16(&'static [u16]),
}

/// The pools an input draws from, by flavour.
fn draw(rng: &mut Rng, flavour: usize) -> Piece {
    let pools: &[&[char]] = match flavour {
        0 => &[ASCII],
        1 => &[ASCII, LATIN1],
        2 => &[LATIN1],
        3 => &[ASCII, LTR],
        4 => &[LTR, RTL],
        5 => &[ASCII, ASCII, LATIN1, LTR, RTL],
        _ => {
            return match rng.below(8) {
                0 => Piece::Bad8(rng.pick(BAD_UTF8)),
                1 => Piece::Bad16(rng.pick(BAD_UTF16)),
                n => Piece::Char(rng.pick([ASCII, LATIN1, LTR, RTL][n % 4])),
            };
        }
    };
    let pool = rng.pick(pools);
    Piece::Char(rng.pick(pool))
}

const FLAVOURS: usize = 7;

/// Pieces of about `len` units, of `flavour`; with `lone`, ASCII around one piece of it.
fn generate(rng: &mut Rng, len: usize, flavour: usize, lone: bool) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut units = 0;
    while units < len {
        let p = if lone {
            Piece::Char(rng.pick(ASCII))
        } else {
            draw(rng, flavour)
        };
        units += match p {
            Piece::Char(c) => c.len_utf8(),
            Piece::Bad8(b) => b.len(),
            Piece::Bad16(u) => u.len(),
        };
        pieces.push(p);
    }
    if lone {
        // At every position in turn (lengths vary, so every vector offset is covered).
        let at = if pieces.is_empty() {
            0
        } else {
            len % (pieces.len() + 1)
        };
        pieces.insert(at, draw(rng, FLAVOURS - 1 - len % 3));
    }
    pieces
}

fn utf8_of(pieces: &[Piece]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in pieces {
        match *p {
            Piece::Char(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Piece::Bad8(b) => out.extend_from_slice(b),
            Piece::Bad16(_) => {}
        }
    }
    out
}

fn utf16_of(pieces: &[Piece]) -> Vec<u16> {
    let mut out = Vec::new();
    for p in pieces {
        match *p {
            Piece::Char(c) => out.extend_from_slice(c.encode_utf16(&mut [0; 2])),
            Piece::Bad16(u) => out.extend_from_slice(u),
            Piece::Bad8(_) => {}
        }
    }
    out
}

fn str_of(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .filter_map(|p| match *p {
            Piece::Char(c) => Some(c),
            _ => None,
        })
        .collect()
}

/// Runs `body` at every level this CPU has (the mem functions use the active level), then
/// restores the detected one. The only test here that switches levels.
#[test]
fn every_function_every_level() {
    let quick = std::env::var_os("SIMDENC_QUICK_TESTS").is_some();
    let levels: Vec<_> = cpu::supported().collect();
    for level in &levels {
        cpu::force(*level).unwrap();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for len in 0..300 {
            if quick && len % 7 != 0 {
                continue;
            }
            for flavour in 0..FLAVOURS {
                for lone in [false, true] {
                    let pieces = generate(&mut rng, len, flavour, lone);
                    let what = format!("{level} len {len} flavour {flavour} lone {lone}");
                    check_str(&str_of(&pieces), &mut rng, &what);
                    let bytes = utf8_of(&pieces);
                    if std::str::from_utf8(&bytes).is_err() {
                        check_utf8(&bytes, &mut rng, &what);
                    }
                    check_utf16(&utf16_of(&pieces), &mut rng, &what);
                }
            }
        }
        long_inputs(&mut rng, &level.to_string());
        // Every byte value and every code unit below U+0800 in one buffer, rotated.
        let all_bytes: Vec<u8> = (0..=255).collect();
        let units: Vec<u16> = (0..0x800).chain(0xD700..0xE100).chain(0xFB00..0xFFFF).collect();
        for shift in [0, 1, 31, 64, 200] {
            let mut b = all_bytes.clone();
            b.rotate_left(shift);
            check_utf8(&b, &mut rng, &format!("{level} all bytes"));
            let mut u = units.clone();
            u.rotate_left(shift);
            check_utf16(&u, &mut rng, &format!("{level} units"));
        }
    }
    cpu::force(cpu::detected()).unwrap();
}

/// Inputs of several kilobytes: Latin1 text whose two-byte characters straddle the
/// 64-byte chunks and 4096-byte blocks of the scans (an odd offset from the start), with an
/// invalid byte, a character above U+00FF or a truncated one around a block boundary;
/// and long runs of astral, right-to-left and mixed text.
fn long_inputs(rng: &mut Rng, level: &str) {
    let latin1: String = "é".to_owned() + "a" + &"é".repeat(6000);
    for at in [
        62, 63, 64, 65, 66, 127, 128, 129, 4094, 4095, 4096, 4097, 8191, 8192, 8193, 12001,
    ] {
        for insert in [&b"\x80"[..], b"\xC3", b"\xC4\x80", b"\xE0\xA0\x80", b"\xFF", b""] {
            let mut b = latin1.as_bytes().to_vec();
            b.splice(at..at, insert.iter().copied());
            check_utf8(&b, rng, &format!("{level} long Latin1, {insert:02X?} at {at}"));
        }
    }
    check_str(&latin1, rng, &format!("{level} long Latin1"));
    let mut b = latin1.clone().into_bytes();
    b.push(0xC3);
    check_utf8(&b, rng, &format!("{level} long Latin1 cut at the end"));
    // One right-to-left (or other) character after a run of left-to-right characters of
    // every length, and before 0 to 2 more bytes: at every position of the scans' windows,
    // the last positions included.
    for &c in RTL.iter().chain(LTR).chain(LATIN1) {
        for filler in ['é', 'ж', '一', '😀'] {
            for k in 0..40 {
                for after in ["", "x", "é", "xy"] {
                    let text: String = std::iter::repeat_n(filler, k).chain([c]).collect::<String>() + after;
                    assert_eq!(ours::is_str_bidi(&text), ref_char_bidi(c), "{level} {text:?}");
                    assert_eq!(
                        ours::is_utf8_bidi(text.as_bytes()),
                        ref_char_bidi(c),
                        "{level} {text:?}"
                    );
                    let units: Vec<u16> = text.encode_utf16().collect();
                    assert_eq!(ours::is_utf16_bidi(&units), ref_char_bidi(c), "{level} {text:?}");
                    assert_eq!(
                        ours::check_str_for_latin1_and_bidi(&text),
                        same(theirs::check_str_for_latin1_and_bidi(&text)),
                        "{level} {text:?}"
                    );
                }
            }
        }
    }
    for pool in [LTR, RTL, LATIN1] {
        let text: String = (0..3000).map(|_| rng.pick(pool)).collect();
        check_str(&text, rng, &format!("{level} long pool"));
        check_utf16(
            &text.encode_utf16().collect::<Vec<_>>(),
            rng,
            &format!("{level} long pool"),
        );
    }
}

/// Every scalar value, and every code unit, through the per-character functions and the
/// buffer bidi checks (alone, and after ASCII that takes it past a vector), at the
/// detected level.
#[test]
fn bidi_every_code_point() {
    for u in 0..=0xFFFFu16 {
        assert_eq!(ours::is_utf16_code_unit_bidi(u), ref_unit_bidi(u), "{u:04X}");
        assert_eq!(
            ours::is_utf16_code_unit_bidi(u),
            theirs::is_utf16_code_unit_bidi(u),
            "{u:04X}"
        );
        let mut buf = [0x61u16; 40];
        buf[37] = u;
        assert_eq!(ours::is_utf16_bidi(&buf), ref_unit_bidi(u), "{u:04X}");
        assert_eq!(ours::is_utf16_bidi(&buf[37..]), ref_unit_bidi(u), "{u:04X}");
    }
    let mut buf = [b'a'; 40];
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let expect = ref_char_bidi(c);
        assert_eq!(ours::is_char_bidi(c), expect, "{c:?}");
        assert_eq!(theirs::is_char_bidi(c), expect, "{c:?}");
        let n = c.encode_utf8(&mut buf[35..]).len();
        for b in [&buf[35..35 + n], &buf[..35 + n], &buf[..]] {
            assert_eq!(ours::is_utf8_bidi(b), expect, "{c:?}");
            assert_eq!(
                ours::is_str_bidi(std::str::from_utf8(b).unwrap()),
                expect,
                "{c:?}"
            );
        }
        buf[35..].fill(b'a');
    }
}

#[test]
fn documented_panics() {
    use std::panic::catch_unwind;
    let panics = |f: &(dyn Fn() + std::panic::RefUnwindSafe)| catch_unwind(f).is_err();
    assert!(panics(&|| {
        ours::convert_utf8_to_utf16(b"ab", &mut [0; 2]);
    }));
    assert!(!panics(&|| {
        ours::convert_utf8_to_utf16(b"ab", &mut [0; 3]);
    }));
    assert!(panics(&|| {
        ours::convert_str_to_utf16("ab", &mut [0; 1]);
    }));
    assert!(panics(&|| {
        let _ = ours::convert_utf8_to_utf16_without_replacement(b"ab", &mut [0; 1]);
    }));
    assert!(panics(&|| {
        ours::convert_utf16_to_utf8(&[0x61; 2], &mut [0; 5]);
    }));
    assert!(panics(&|| {
        ours::convert_utf16_to_str(&[0x61; 2], &mut String::from("12345"));
    }));
    assert!(panics(&|| ours::convert_latin1_to_utf16(b"ab", &mut [0; 1])));
    assert!(panics(&|| {
        ours::convert_latin1_to_utf8(b"ab", &mut [0; 3]);
    }));
    assert!(panics(&|| {
        ours::convert_latin1_to_str(b"ab", &mut String::from("123"));
    }));
    assert!(panics(&|| {
        ours::convert_utf8_to_latin1_lossy(b"ab", &mut [0; 1]);
    }));
    assert!(panics(&|| ours::convert_utf16_to_latin1_lossy(
        &[0x61; 2],
        &mut [0; 1]
    )));
    assert!(panics(&|| {
        ours::copy_ascii_to_ascii(b"ab", &mut [0; 1]);
    }));
    assert!(panics(&|| {
        ours::copy_ascii_to_basic_latin(b"ab", &mut [0; 1]);
    }));
    assert!(panics(&|| {
        ours::copy_basic_latin_to_ascii(&[0x61; 2], &mut [0; 1]);
    }));
    // Non-Latin1 input to the lossy UTF-8 functions: a panic with debug assertions only.
    let lossy = panics(&|| {
        ours::convert_utf8_to_latin1_lossy("\u{100}".as_bytes(), &mut [0; 2]);
    });
    assert_eq!(lossy, cfg!(debug_assertions));
    let lossy = panics(&|| {
        let _ = ours::encode_latin1_lossy("a\u{100}");
    });
    assert_eq!(lossy, cfg!(debug_assertions));
    // Partial conversions into empty or tiny outputs do not panic.
    assert_eq!(ours::convert_utf16_to_utf8_partial(&[0xE9], &mut []), (0, 0));
    assert_eq!(ours::convert_latin1_to_utf8_partial(b"\xE9", &mut [0]), (0, 0));
    assert_eq!(
        ours::convert_utf16_to_str_partial(&[0xD83D, 0xDE00], &mut String::from("abc")),
        (0, 0)
    );
}
