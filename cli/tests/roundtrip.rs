//! UTF-8 → X → UTF-8 through the binary for every encoding X, on the whole corpus: the text
//! comes back wherever X can encode it, and with the standard's `&#N;` where it cannot.
//! (`--bom=keep`: the Emoji lipsum file starts with U+FEFF, which is text here.)

mod common;

use std::fs;

use common::{arg, corpus, tempdir};
use simdenc::Encoding;

#[test]
fn every_encoding_round_trips_the_corpus() {
    let dir = tempdir();
    let src = dir.path().join("src");
    fs::create_dir(&src).unwrap();
    let texts = corpus();
    for (name, text) in &texts {
        fs::write(src.join(name), text).unwrap();
    }
    let mut exact = 0;
    for &encoding in Encoding::all() {
        if encoding == simdenc::REPLACEMENT {
            continue;
        }
        let label = encoding.name();
        let encoded = dir.path().join(format!("{label}-encoded"));
        let decoded = dir.path().join(format!("{label}-decoded"));
        let out = common::run(
            &[
                "convert",
                "-q",
                "--bom=keep",
                "-t",
                label,
                "--errors=html",
                "-r",
                "--out-dir",
                arg(&encoded),
                arg(&src),
            ],
            b"",
        );
        assert_eq!(out.status, 0, "{label}: {}", out.stderr);
        let out = common::run(
            &[
                "convert",
                "-q",
                "--bom=keep",
                "-f",
                label,
                "-t",
                "utf-8",
                "-r",
                "--out-dir",
                arg(&decoded),
                arg(&encoded),
            ],
            b"",
        );
        assert_eq!(out.status, 0, "{label}: {}", out.stderr);
        for (name, text) in &texts {
            let bytes = fs::read(encoded.join(name)).unwrap();
            assert!(
                bytes == common::encode_html(text, encoding),
                "{label} {name}: encoded output differs"
            );
            let back = fs::read_to_string(decoded.join(name)).unwrap();
            // Where X encodes the whole text, the round trip is exact; otherwise the text
            // comes back with the standard's `&#N;` for what X lacks.
            let (_, _, had_unmappables) = encoding.encode(text);
            let is_utf16 = encoding == simdenc::UTF_16LE || encoding == simdenc::UTF_16BE;
            if !had_unmappables || is_utf16 {
                exact += 1;
                assert!(back == *text, "{label} {name}: round trip differs");
            } else {
                let expected = encoding.decode_without_bom_handling(&bytes).0;
                assert!(back == expected, "{label} {name}: html round trip differs");
                assert!(back.contains("&#"), "{label} {name}");
            }
        }
    }
    // UTF-8, UTF-16 and gb18030 at least encode everything in the corpus.
    assert!(exact >= 4 * texts.len(), "{exact}");
}
