//! `Encoding::for_label`, `for_label_no_replacement` and `for_bom` against the standard's
//! "get an encoding" and "BOM sniff" (`simdenc::spec`, which reads the vendored
//! `encodings.json` itself).
//!
//! Each input is checked twice: as a label and BOM candidate as it is (arbitrary bytes;
//! bytes that are not UTF-8 can never be a label), and, so that real labels come up often, as
//! the selectors of a label built from it: `[0]` encoding, `[1]` which of its labels, `[2]`
//! whitespace before and after, then one byte per label character saying whether to change
//! its ASCII case (or to put a non-ASCII look-alike there).
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdenc::spec::{self, IoQueue};
use simdenc::text::TextDecoder;
use simdenc::{Encoding, REPLACEMENT, UTF_8};
use simdenc_fuzz::encoding;

fn check_label(label: &[u8]) {
    let expect = std::str::from_utf8(label).ok().and_then(spec::get_an_encoding);
    let got = Encoding::for_label(label);
    assert_eq!(
        got,
        expect,
        "for_label({label:02X?}) = {:?}",
        String::from_utf8_lossy(label)
    );
    assert_eq!(
        Encoding::for_label_no_replacement(label),
        expect.filter(|&e| e != REPLACEMENT),
        "for_label_no_replacement({label:02X?})"
    );
    if let Ok(text) = std::str::from_utf8(label) {
        assert_eq!(
            TextDecoder::new(text).is_ok(),
            expect.is_some_and(|e| e != REPLACEMENT),
            "TextDecoder::new({text:?})"
        );
    }
    if let Some(found) = got {
        let trimmed = label.trim_ascii().to_ascii_lowercase();
        assert!(
            found.labels().iter().any(|l| l.as_bytes() == trimmed),
            "{label:02X?} matched {found:?}, which does not have that label"
        );
        assert_eq!(
            Encoding::for_label(found.name().as_bytes()),
            Some(found),
            "name of {found:?}"
        );
    }
}

fn check_bom(bytes: &[u8]) {
    let expect = spec::bom_sniff(&IoQueue::from_items(bytes.iter().copied()))
        .map(|e| (e, if e == UTF_8 { 3 } else { 2 }));
    assert_eq!(Encoding::for_bom(bytes), expect, "for_bom({bytes:02X?})");
}

/// A label of `encoding(data[0])` with case and whitespace chosen by the rest of `data`.
fn built_label(data: &[u8]) -> Vec<u8> {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let enc = encoding(byte(0));
    let labels = enc.labels();
    let base = labels[usize::from(byte(1)) % labels.len()];
    // Whitespace the standard trims, and two characters it does not (U+000B, U+00A0).
    const SPACE: [&[u8]; 8] = [
        b"",
        b" ",
        b"\t",
        b"\n",
        b"\x0C",
        b"\r",
        b"\x0B",
        "\u{A0}".as_bytes(),
    ];
    let mut label = SPACE[usize::from(byte(2) & 7)].to_vec();
    for (i, &c) in base.as_bytes().iter().enumerate() {
        match byte(3 + i) % 8 {
            0 => label.push(c.to_ascii_uppercase()),
            // KELVIN SIGN and LATIN SMALL LETTER LONG S fold to k and s only outside ASCII.
            1 if c == b'k' => label.extend_from_slice("\u{212A}".as_bytes()),
            1 if c == b's' => label.extend_from_slice("\u{17F}".as_bytes()),
            _ => label.push(c),
        }
    }
    label.extend_from_slice(SPACE[usize::from(byte(2) >> 3 & 7)]);
    if byte(2) >> 6 == 3 {
        label.push(byte(3 + base.len()));
    }
    label
}

fuzz_target!(|data: &[u8]| {
    check_label(data);
    check_bom(data);
    check_label(&built_label(data));
});
