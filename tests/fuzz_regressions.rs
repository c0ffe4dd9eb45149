//! Bugs found by the cargo-fuzz harnesses in `fuzz/` (see `fuzz/FUZZING.md`), one test each,
//! named after the target that found it. Each test fails without its fix.

use simdenc::text::TextEncoderStream;

/// text_api: an empty `&str` chunk after a chunk ending in a leading surrogate wrote U+FFFD
/// at once; the standard reads no code unit from an empty chunk, so the surrogate stays
/// pending and pairs with a trailing surrogate in the next chunk.
/// (fuzz/artifacts input: header `63 73 F9 FF`, chunk ends [0, 1, 2, 3, 3].)
#[test]
fn text_api_encoder_stream_empty_str_chunk_keeps_the_leading_surrogate() {
    let mut stream = TextEncoderStream::new();
    let mut out = stream.transform(&[0x61, 0xD83D]);
    assert_eq!(out, b"a");
    assert_eq!(stream.transform_str(""), b"");
    out.extend(stream.transform(&[0xDE00]));
    out.extend(stream.flush());
    assert_eq!(out, "a\u{1F600}".as_bytes());

    // And at the end of the stream, the pending surrogate is flushed as U+FFFD once.
    let mut stream = TextEncoderStream::new();
    assert_eq!(stream.transform(&[0xDBFF]), b"");
    assert_eq!(stream.transform_str(""), b"");
    assert_eq!(stream.flush(), "\u{FFFD}".as_bytes());
}
