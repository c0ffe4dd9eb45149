//! `simdenc::detect`: never panics, the confidence is in [0, 1], feeding the input in pieces
//! gives the one-shot guess, valid UTF-8 with a byte above 0x7F and no C0 control is UTF-8,
//! and input without a byte above 0x7F is ASCII (confidence 0), ISO-2022-JP or UTF-16.
//!
//! The first byte selects the markup and where the input is cut into pieces.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdenc::detect::{Detector, Markup, guess};
use simdenc::{ISO_2022_JP, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let markup = if selector & 1 == 0 {
        Markup::Text
    } else {
        Markup::Html
    };
    let g = guess(bytes, markup);
    assert!((0.0..=1.0).contains(&g.confidence), "{g:?}");

    let piece = usize::from(selector >> 1) + 1;
    let mut d = Detector::new(markup);
    for chunk in bytes.chunks(piece) {
        d.feed(chunk);
    }
    assert_eq!(d.guess(), g, "in pieces of {piece}");

    let controls = bytes
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | 0x1B));
    if !controls && bytes.iter().any(|&b| b >= 0x80) && std::str::from_utf8(bytes).is_ok() {
        assert_eq!(g.encoding, UTF_8);
    }
    if bytes.is_ascii() {
        assert!(
            [WINDOWS_1252, ISO_2022_JP, UTF_16LE, UTF_16BE].contains(&g.encoding),
            "{g:?}"
        );
        if g.encoding == WINDOWS_1252 {
            assert_eq!(g.confidence, 0.0);
        }
    }
});
