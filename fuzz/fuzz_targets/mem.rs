//! `simdenc::mem` at a fuzzed SIMD level against `encoding_rs::mem` 0.8.44, the module it
//! replaces: every function, on the payload as bytes, as UTF-16 code units (pairs of bytes,
//! little-endian) and as a `str` (the bytes with malformed sequences replaced).
//!
//! Header: `[0]` which function group (all of them when it is 0), `[1]` level, `[2..4]` the
//! output size of the `_partial` functions. Compared: every answer and length, and the
//! written output (what lies after the written part is unspecified in both). The lossy
//! conversions are compared only on input in their domain (Latin1 text), where their result
//! is specified; the functions that panic on a short output get the output their docs require.
#![no_main]

use encoding_rs::mem as theirs;
use libfuzzer_sys::fuzz_target;
use simdenc::mem as ours;
use simdenc_fuzz::{HEADER, force_level};

fn units(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect()
}

fn latin1_bidi(a: ours::Latin1Bidi, b: theirs::Latin1Bidi) {
    let a = match a {
        ours::Latin1Bidi::Latin1 => 0,
        ours::Latin1Bidi::LeftToRight => 1,
        ours::Latin1Bidi::Bidi => 2,
    };
    let b = match b {
        theirs::Latin1Bidi::Latin1 => 0,
        theirs::Latin1Bidi::LeftToRight => 1,
        theirs::Latin1Bidi::Bidi => 2,
    };
    assert_eq!(a, b, "check_*_for_latin1_and_bidi");
}

/// The checks: answers only.
fn checks(bytes: &[u8], u: &[u16], s: &str) {
    assert_eq!(ours::is_ascii(bytes), theirs::is_ascii(bytes), "is_ascii");
    assert_eq!(
        ours::is_basic_latin(u),
        theirs::is_basic_latin(u),
        "is_basic_latin"
    );
    assert_eq!(
        ours::is_utf8_latin1(bytes),
        theirs::is_utf8_latin1(bytes),
        "is_utf8_latin1"
    );
    assert_eq!(ours::is_str_latin1(s), theirs::is_str_latin1(s), "is_str_latin1");
    assert_eq!(
        ours::is_utf16_latin1(u),
        theirs::is_utf16_latin1(u),
        "is_utf16_latin1"
    );
    assert_eq!(
        ours::utf8_latin1_up_to(bytes),
        theirs::utf8_latin1_up_to(bytes),
        "utf8_latin1_up_to"
    );
    assert_eq!(
        ours::str_latin1_up_to(s),
        theirs::str_latin1_up_to(s),
        "str_latin1_up_to"
    );
    assert_eq!(
        ours::utf16_valid_up_to(u),
        theirs::utf16_valid_up_to(u),
        "utf16_valid_up_to"
    );
    assert_eq!(
        ours::is_utf8_bidi(bytes),
        theirs::is_utf8_bidi(bytes),
        "is_utf8_bidi"
    );
    assert_eq!(ours::is_str_bidi(s), theirs::is_str_bidi(s), "is_str_bidi");
    assert_eq!(ours::is_utf16_bidi(u), theirs::is_utf16_bidi(u), "is_utf16_bidi");
    for c in s.chars().take(64) {
        assert_eq!(
            ours::is_char_bidi(c),
            theirs::is_char_bidi(c),
            "is_char_bidi({c:?})"
        );
    }
    for &unit in u.iter().take(64) {
        assert_eq!(
            ours::is_utf16_code_unit_bidi(unit),
            theirs::is_utf16_code_unit_bidi(unit),
            "is_utf16_code_unit_bidi({unit:04X})"
        );
    }
    latin1_bidi(
        ours::check_utf8_for_latin1_and_bidi(bytes),
        theirs::check_utf8_for_latin1_and_bidi(bytes),
    );
    latin1_bidi(
        ours::check_str_for_latin1_and_bidi(s),
        theirs::check_str_for_latin1_and_bidi(s),
    );
    latin1_bidi(
        ours::check_utf16_for_latin1_and_bidi(u),
        theirs::check_utf16_for_latin1_and_bidi(u),
    );
    let (mut a, mut b) = (u.to_vec(), u.to_vec());
    ours::ensure_utf16_validity(&mut a);
    theirs::ensure_utf16_validity(&mut b);
    assert_eq!(a, b, "ensure_utf16_validity");
}

/// The conversions whose output size is fixed by their docs.
fn conversions(bytes: &[u8], u: &[u16], s: &str) {
    let n = bytes.len();
    let (mut a, mut b) = (vec![0u16; n + 1], vec![0u16; n + 1]);
    let (x, y) = (
        ours::convert_utf8_to_utf16(bytes, &mut a),
        theirs::convert_utf8_to_utf16(bytes, &mut b),
    );
    assert_eq!((x, &a[..x]), (y, &b[..y]), "convert_utf8_to_utf16");
    let x = ours::convert_utf8_to_utf16_without_replacement(bytes, &mut a);
    let y = theirs::convert_utf8_to_utf16_without_replacement(bytes, &mut b);
    assert_eq!(x, y, "convert_utf8_to_utf16_without_replacement");
    if let Some(x) = x {
        assert_eq!(a[..x], b[..x], "convert_utf8_to_utf16_without_replacement");
    }
    // The str is longer than the bytes where U+FFFD replaced a malformed byte.
    let (mut a, mut b) = (vec![0u16; s.len()], vec![0u16; s.len()]);
    let (x, y) = (
        ours::convert_str_to_utf16(s, &mut a),
        theirs::convert_str_to_utf16(s, &mut b),
    );
    assert_eq!((x, &a[..x]), (y, &b[..y]), "convert_str_to_utf16");
    let m = u.len();
    let (mut a, mut b) = (vec![0u8; 3 * m], vec![0u8; 3 * m]);
    let (x, y) = (
        ours::convert_utf16_to_utf8(u, &mut a),
        theirs::convert_utf16_to_utf8(u, &mut b),
    );
    assert_eq!((x, &a[..x]), (y, &b[..y]), "convert_utf16_to_utf8");
    let (mut a, mut b) = ("\0".repeat(3 * m), "\0".repeat(3 * m));
    let (x, y) = (
        ours::convert_utf16_to_str(u, &mut a),
        theirs::convert_utf16_to_str(u, &mut b),
    );
    assert_eq!((x, &a[..x]), (y, &b[..y]), "convert_utf16_to_str");
    let (mut a, mut b) = (vec![0u16; n], vec![0u16; n]);
    ours::convert_latin1_to_utf16(bytes, &mut a);
    theirs::convert_latin1_to_utf16(bytes, &mut b);
    assert_eq!(a, b, "convert_latin1_to_utf16");
    let (mut a, mut b) = (vec![0u8; 2 * n], vec![0u8; 2 * n]);
    let (x, y) = (
        ours::convert_latin1_to_utf8(bytes, &mut a),
        theirs::convert_latin1_to_utf8(bytes, &mut b),
    );
    assert_eq!((x, &a[..x]), (y, &b[..y]), "convert_latin1_to_utf8");
    let (mut a, mut b) = ("\0".repeat(2 * n), "\0".repeat(2 * n));
    let (x, y) = (
        ours::convert_latin1_to_str(bytes, &mut a),
        theirs::convert_latin1_to_str(bytes, &mut b),
    );
    assert_eq!((x, &a[..x]), (y, &b[..y]), "convert_latin1_to_str");
    assert_eq!(
        ours::decode_latin1(bytes),
        theirs::decode_latin1(bytes),
        "decode_latin1"
    );
    if theirs::is_utf8_latin1(bytes) {
        let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
        let (x, y) = (
            ours::convert_utf8_to_latin1_lossy(bytes, &mut a),
            theirs::convert_utf8_to_latin1_lossy(bytes, &mut b),
        );
        assert_eq!((x, &a[..x]), (y, &b[..y]), "convert_utf8_to_latin1_lossy");
    }
    if theirs::is_utf16_latin1(u) {
        let (mut a, mut b) = (vec![0u8; m], vec![0u8; m]);
        ours::convert_utf16_to_latin1_lossy(u, &mut a);
        theirs::convert_utf16_to_latin1_lossy(u, &mut b);
        assert_eq!(a, b, "convert_utf16_to_latin1_lossy");
    }
    if theirs::is_str_latin1(s) {
        assert_eq!(
            ours::encode_latin1_lossy(s),
            theirs::encode_latin1_lossy(s),
            "encode_latin1_lossy"
        );
    }
    let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
    let (x, y) = (
        ours::copy_ascii_to_ascii(bytes, &mut a),
        theirs::copy_ascii_to_ascii(bytes, &mut b),
    );
    assert_eq!((x, &a[..x]), (y, &b[..y]), "copy_ascii_to_ascii");
    let (mut a, mut b) = (vec![0u16; n], vec![0u16; n]);
    let (x, y) = (
        ours::copy_ascii_to_basic_latin(bytes, &mut a),
        theirs::copy_ascii_to_basic_latin(bytes, &mut b),
    );
    assert_eq!((x, &a[..x]), (y, &b[..y]), "copy_ascii_to_basic_latin");
    let (mut a, mut b) = (vec![0u8; m], vec![0u8; m]);
    let (x, y) = (
        ours::copy_basic_latin_to_ascii(u, &mut a),
        theirs::copy_basic_latin_to_ascii(u, &mut b),
    );
    assert_eq!((x, &a[..x]), (y, &b[..y]), "copy_basic_latin_to_ascii");
}

/// The `_partial` conversions into an output of `cap` bytes.
fn partial(bytes: &[u8], u: &[u16], cap: usize) {
    let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
    let (x, y) = (
        ours::convert_utf16_to_utf8_partial(u, &mut a),
        theirs::convert_utf16_to_utf8_partial(u, &mut b),
    );
    assert_eq!(
        (x, &a[..x.1]),
        (y, &b[..y.1]),
        "convert_utf16_to_utf8_partial into {cap}"
    );
    let (x, y) = (
        ours::convert_latin1_to_utf8_partial(bytes, &mut a),
        theirs::convert_latin1_to_utf8_partial(bytes, &mut b),
    );
    assert_eq!(
        (x, &a[..x.1]),
        (y, &b[..y.1]),
        "convert_latin1_to_utf8_partial into {cap}"
    );
    let (mut a, mut b) = ("\0".repeat(cap), "\0".repeat(cap));
    let (x, y) = (
        ours::convert_utf16_to_str_partial(u, &mut a),
        theirs::convert_utf16_to_str_partial(u, &mut b),
    );
    assert_eq!(
        (x, &a[..x.1]),
        (y, &b[..y.1]),
        "convert_utf16_to_str_partial into {cap}"
    );
    let (x, y) = (
        ours::convert_latin1_to_str_partial(bytes, &mut a),
        theirs::convert_latin1_to_str_partial(bytes, &mut b),
    );
    assert_eq!(
        (x, &a[..x.1]),
        (y, &b[..y.1]),
        "convert_latin1_to_str_partial into {cap}"
    );
}

fuzz_target!(|data: &[u8]| {
    if data.len() < HEADER {
        return;
    }
    let (h, payload) = data.split_at(HEADER);
    force_level(h[1]);
    let u = units(payload);
    let s = String::from_utf8_lossy(payload);
    let group = h[0] % 4;
    if group == 0 || group == 1 {
        checks(payload, &u, &s);
    }
    if group == 0 || group == 2 {
        conversions(payload, &u, &s);
    }
    if group == 0 || group == 3 {
        let cap = usize::from(u16::from_le_bytes([h[2], h[3]])) % (3 * payload.len() + 8);
        partial(payload, &u, cap);
    }
});
