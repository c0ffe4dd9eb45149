//! The public API's contracts: buffer-size bounds, no reallocation, BOM handling, and the
//! standard's TextDecoder/TextEncoder semantics.

mod common;

use common::{Rng, random_splits};
use simdenc::text::{TextDecoder, TextDecoderOptions, TextDecoderStream, TextEncoder, TextEncoderStream};
use simdenc::{CoderResult, DecoderResult, EncoderResult, Encoding, spec};

fn sample(rng: &mut Rng, enc: &'static Encoding) -> Vec<u8> {
    let len = rng.below(40);
    let text: String = (0..len)
        .map(|_| char::from_u32(rng.below(0xA000) as u32).unwrap_or('x'))
        .collect();
    let mut bytes = spec::run_encoder(enc.output_encoding(), &text, spec::ErrorMode::Html).output;
    for _ in 0..rng.below(5) {
        let at = rng.below(bytes.len() + 1);
        bytes.insert(at, rng.next() as u8);
    }
    bytes
}

#[test]
fn max_buffer_lengths_are_never_exceeded() {
    let mut rng = Rng(0xB0B0_0001);
    for &enc in Encoding::all() {
        for _ in 0..200 {
            let input = sample(&mut rng, enc);
            let splits = random_splits(&mut rng, input.len());
            for mode in 0..3 {
                let mut decoder = match rng.below(3) {
                    0 => enc.new_decoder(),
                    1 => enc.new_decoder_with_bom_removal(),
                    _ => enc.new_decoder_without_bom_handling(),
                };
                let mut start = 0;
                for (i, &end) in splits.iter().chain(std::iter::once(&input.len())).enumerate() {
                    let end = end.max(start);
                    let chunk = &input[start..end];
                    start = end;
                    let last = end == input.len() && i == splits.len();
                    match mode {
                        0 => {
                            let mut out = vec![0u8; decoder.max_utf8_buffer_length(chunk.len()).unwrap()];
                            let (r, read, _, _) = decoder.decode_to_utf8(chunk, &mut out, last);
                            assert_eq!(
                                (r, read),
                                (CoderResult::InputEmpty, chunk.len()),
                                "{} {input:02X?}",
                                enc.name()
                            );
                        }
                        1 => {
                            let mut out = vec![0u16; decoder.max_utf16_buffer_length(chunk.len()).unwrap()];
                            let (r, read, _, _) = decoder.decode_to_utf16(chunk, &mut out, last);
                            assert_eq!(
                                (r, read),
                                (CoderResult::InputEmpty, chunk.len()),
                                "{} {input:02X?}",
                                enc.name()
                            );
                        }
                        _ => {
                            let mut pos = 0;
                            loop {
                                let rest = &chunk[pos..];
                                let mut out = vec![
                                    0u8;
                                    decoder
                                        .max_utf8_buffer_length_without_replacement(rest.len())
                                        .unwrap()
                                ];
                                let (r, read, _) =
                                    decoder.decode_to_utf8_without_replacement(rest, &mut out, last);
                                pos += read;
                                match r {
                                    DecoderResult::InputEmpty => break,
                                    DecoderResult::Malformed(..) => continue,
                                    DecoderResult::OutputFull => {
                                        panic!("{} OutputFull {input:02X?}", enc.name())
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Bounds never wrap around: None, or at least the input length.
        let no_wrap = |n: usize, bound: Option<usize>| bound.is_none_or(|b| b >= n);
        for n in [usize::MAX, usize::MAX / 2, usize::MAX / 3 + 1, usize::MAX / 4 + 1] {
            for decoder in [enc.new_decoder(), enc.new_decoder_without_bom_handling()] {
                if enc != simdenc::REPLACEMENT {
                    assert!(no_wrap(n, decoder.max_utf8_buffer_length(n)), "{}", enc.name());
                    assert!(
                        no_wrap(n, decoder.max_utf8_buffer_length_without_replacement(n)),
                        "{}",
                        enc.name()
                    );
                    assert!(
                        no_wrap(n / 2, decoder.max_utf16_buffer_length(n)),
                        "{}",
                        enc.name()
                    );
                }
            }
            let encoder = enc.new_encoder();
            assert!(
                no_wrap(n, encoder.max_buffer_length_from_utf8_if_no_unmappables(n)),
                "{}",
                enc.name()
            );
            assert!(
                no_wrap(n, encoder.max_buffer_length_from_utf8_without_replacement(n)),
                "{}",
                enc.name()
            );
            assert!(
                no_wrap(n, encoder.max_buffer_length_from_utf16_if_no_unmappables(n)),
                "{}",
                enc.name()
            );
            assert!(
                no_wrap(n, encoder.max_buffer_length_from_utf16_without_replacement(n)),
                "{}",
                enc.name()
            );
        }
    }
}

#[test]
fn encoder_bounds_hold_without_unmappables() {
    let mut rng = Rng(0xB0B0_0002);
    for &enc in Encoding::all() {
        for _ in 0..200 {
            // Characters that the encoder can encode: decode random valid bytes.
            let bytes = sample(&mut rng, enc);
            let text = spec::run_decoder(enc.output_encoding(), &bytes, spec::ErrorMode::Replacement).output;
            let text: String = text
                .chars()
                .filter(|&c| {
                    spec::run_encoder(enc.output_encoding(), &c.to_string(), spec::ErrorMode::Fatal)
                        .error
                        .is_none()
                })
                .collect();
            let mut encoder = enc.new_encoder();
            let mut out = vec![
                0u8;
                encoder
                    .max_buffer_length_from_utf8_if_no_unmappables(text.len())
                    .unwrap()
            ];
            let (r, read, _, had) = encoder.encode_from_utf8(&text, &mut out, true);
            assert_eq!(
                (r, read, had),
                (CoderResult::InputEmpty, text.len(), false),
                "{} {text:?}",
                enc.name()
            );
            let units: Vec<u16> = text.encode_utf16().collect();
            let mut encoder = enc.new_encoder();
            let mut out = vec![
                0u8;
                encoder
                    .max_buffer_length_from_utf16_without_replacement(units.len())
                    .unwrap()
            ];
            let (r, read, _) = encoder.encode_from_utf16_without_replacement(&units, &mut out, true);
            assert_eq!(
                (r, read),
                (EncoderResult::InputEmpty, units.len()),
                "{} {text:?}",
                enc.name()
            );
        }
    }
}

#[test]
fn string_and_vec_outputs_use_spare_capacity_only() {
    let mut decoder = simdenc::UTF_8.new_decoder();
    let mut s = String::with_capacity(4);
    s.push('x');
    let cap = s.capacity();
    let (r, read, _) = decoder.decode_to_string(b"abcdef", &mut s, true);
    assert_eq!(
        (r, read, s.as_str(), s.capacity()),
        (CoderResult::OutputFull, 3, "xabc", cap)
    );
    let mut encoder = simdenc::SHIFT_JIS.new_encoder();
    let mut v = Vec::with_capacity(12);
    let cap = v.capacity();
    let (r, read, _) = encoder.encode_from_utf8_to_vec("\u{65E5}\u{65E5}", &mut v, true);
    // Two bytes of room beyond the ten held back for a character reference: one character.
    assert_eq!(
        (r, read, v.as_slice(), v.capacity()),
        (CoderResult::OutputFull, 3, &b"\x93\xfa"[..], cap)
    );
}

#[test]
fn bom_removal_only_removes_the_encodings_own_bom() {
    let (text, _) = simdenc::UTF_8.decode_with_bom_removal(b"\xFF\xFEa");
    assert_eq!(text, "\u{FFFD}\u{FFFD}a");
    let (text, _) = simdenc::UTF_16BE.decode_with_bom_removal(b"\xFE\xFF\x00a");
    assert_eq!(text, "a");
    let (text, _) = simdenc::UTF_16BE.decode_with_bom_removal(b"\xFF\xFE\x00a");
    assert_eq!(text, "\u{FFFE}a");
    let (text, enc, _) = simdenc::WINDOWS_1252.decode(b"\xEF\xBB\xBF\xEF\xBB\xBF");
    assert_eq!((&*text, enc), ("\u{FEFF}", simdenc::UTF_8));
    // An incomplete BOM at the end is data.
    let mut decoder = simdenc::UTF_8.new_decoder();
    let mut out = String::with_capacity(16);
    let _ = decoder.decode_to_string(b"\xEF\xBB", &mut out, true);
    assert_eq!(out, "\u{FFFD}");
}

#[test]
fn text_decoder_streaming_bom_and_fatal_state() {
    // A BOM split across calls is still removed; a second U+FEFF is kept.
    let mut d = TextDecoder::new("utf-8").unwrap();
    assert_eq!(d.decode(b"\xEF", true).unwrap(), "");
    assert_eq!(d.decode(b"\xBB\xBF\xEF\xBB\xBF", true).unwrap(), "\u{FEFF}");
    assert_eq!(d.decode(b"", false).unwrap(), "");
    // Non-streaming calls start afresh.
    assert_eq!(d.decode(b"\xEF\xBB\xBFa", false).unwrap(), "a");
    // UTF-16: a BOM of the other byte order is not removed; ignoreBOM keeps it.
    let mut d = TextDecoder::new("utf-16le").unwrap();
    assert_eq!(d.decode(b"\xFE\xFFa\x00", false).unwrap(), "\u{FFFE}a");
    let mut d = TextDecoder::with_options(
        "utf-16be",
        TextDecoderOptions {
            fatal: false,
            ignore_bom: true,
        },
    )
    .unwrap();
    assert_eq!(d.decode(b"\xFE\xFF\x00a", false).unwrap(), "\u{FEFF}a");
    // No BOM handling for other encodings.
    let mut d = TextDecoder::new("windows-1252").unwrap();
    assert_eq!(d.decode(b"\xEF\xBB\xBF", false).unwrap(), "\u{EF}\u{BB}\u{BF}");
    // Fatal: the error discards this call's output; a streaming call keeps the rest queued.
    let fatal = TextDecoderOptions {
        fatal: true,
        ignore_bom: false,
    };
    let mut d = TextDecoder::with_options("utf-8", fatal).unwrap();
    assert!(d.decode(b"a\xFFb", true).is_err());
    assert_eq!(d.decode(b"c", false).unwrap(), "bc");
    // ... but a flushing call that failed starts afresh next time.
    assert!(d.decode(b"\xE2\x82", false).is_err());
    assert!(d.decode(b"\xAC", false).is_err());
    assert_eq!(d.decode(b"ok", false).unwrap(), "ok");
    // Empty chunks.
    let mut d = TextDecoder::new("shift_jis").unwrap();
    assert_eq!(d.decode(b"", true).unwrap(), "");
    assert_eq!(d.decode(b"\x82", true).unwrap(), "");
    assert_eq!(d.decode(b"", true).unwrap(), "");
    assert_eq!(d.decode(b"\xa0", false).unwrap(), "\u{3042}");
    // Labels: replacement and unknown are RangeErrors.
    for label in ["replacement", "hz-gb-2312", "utf-7", "", "x-user-defined2"] {
        assert!(TextDecoder::new(label).is_err(), "{label}");
    }
    assert_eq!(
        TextDecoder::new("x-user-defined").unwrap().encoding(),
        "x-user-defined"
    );
}

#[test]
fn text_decoder_stream_errors_stick() {
    let fatal = TextDecoderOptions {
        fatal: true,
        ignore_bom: false,
    };
    let mut s = TextDecoderStream::with_options("utf-8", fatal).unwrap();
    assert_eq!(s.transform(b"ab").unwrap(), "ab");
    assert!(s.transform(b"\xFF").is_err());
    assert!(s.transform(b"cd").is_err());
    assert!(s.flush().is_err());
    let mut s = TextDecoderStream::new("utf-16le").unwrap();
    let mut out = String::new();
    for chunk in [&b"\xFF"[..], b"\xFE", b"=", b"\xD8", b"\x00\xDE", b"a"] {
        out += &s.transform(chunk).unwrap();
    }
    out += &s.flush().unwrap();
    assert_eq!(out, "\u{1F600}\u{FFFD}");
}

#[test]
fn text_encoder_encode_into_never_splits_a_character() {
    let e = TextEncoder::new();
    let text = "a\u{e9}\u{65e5}\u{1F600}z";
    let units: Vec<u16> = text.encode_utf16().collect();
    for cap in 0..=12 {
        let mut buf = vec![0u8; cap];
        let r = e.encode_into(text, &mut buf);
        let r16 = e.encode_into_utf16(&units, &mut buf.clone());
        assert_eq!(r, r16, "cap {cap}");
        let prefix = String::from_utf16(&units[..r.read]).unwrap();
        assert_eq!(&buf[..r.written], prefix.as_bytes());
        assert!([0, 1, 3, 6, 10, 11].contains(&r.written), "cap {cap}: {r:?}");
    }
    // Lone surrogates are U+FFFD, one unit read each.
    let mut buf = [0u8; 16];
    let r = e.encode_into_utf16(&[0xDC00, 0xD800, 0x41], &mut buf);
    assert_eq!(
        (r.read, &buf[..r.written]),
        (3, &b"\xEF\xBF\xBD\xEF\xBF\xBDA"[..])
    );
}

#[test]
fn text_encoder_stream_pairs_surrogates_across_chunks() {
    let mut s = TextEncoderStream::new();
    let mut out = Vec::new();
    out.extend(s.transform(&[0xD83D]));
    out.extend(s.transform(&[]));
    out.extend(s.transform(&[0xDE00, 0xD800]));
    out.extend(s.transform(&[0xD800, 0xDC00]));
    out.extend(s.transform_str("x"));
    out.extend(s.transform(&[0xDBFF]));
    out.extend(s.flush());
    assert_eq!(out, "\u{1F600}\u{FFFD}\u{10000}x\u{FFFD}".as_bytes());
}

#[test]
fn utf8_and_ascii_valid_up_to_agree_with_std() {
    let mut rng = Rng(0xB0B0_0003);
    for _ in 0..5000 {
        let len = rng.below(80);
        let mut bytes: Vec<u8> = "h\u{e9}\u{65e5}\u{1F600}".bytes().cycle().take(len).collect();
        if len > 0 && rng.below(2) == 0 {
            let at = rng.below(len);
            bytes[at] = rng.next() as u8;
        }
        let expect = match std::str::from_utf8(&bytes) {
            Ok(_) => bytes.len(),
            Err(e) => e.valid_up_to(),
        };
        assert_eq!(Encoding::utf8_valid_up_to(&bytes), expect, "{bytes:02X?}");
        assert_eq!(
            Encoding::ascii_valid_up_to(&bytes),
            bytes.iter().position(|&b| b >= 0x80).unwrap_or(bytes.len())
        );
    }
}

/// The bounds are as tight as encoding_rs's and still hold on the worst text for each: every
/// encoder, from each state a first call can leave, on texts that alternate the costliest
/// characters (ISO-2022-JP: jis0208 and ASCII or Roman, each with its escape sequence; GBK:
/// `€` and CJK), and every decoder on the repeated encodings of characters of every length.
#[test]
fn bounds_hold_on_the_worst_text() {
    let chars = [
        'a',
        '\\',
        '~',
        '\u{A5}',
        '\u{203E}',
        '\u{20AC}',
        '\u{E9}',
        '\u{FF71}',
        '\u{65E5}',
        '\u{D55C}',
        '\u{3042}',
        '\u{1F600}',
    ];
    for &enc in Encoding::all() {
        let output = enc.output_encoding();
        let encodable: Vec<char> = chars
            .iter()
            .copied()
            .filter(|c| {
                spec::run_encoder(output, &c.to_string(), spec::ErrorMode::Fatal)
                    .error
                    .is_none()
            })
            .collect();
        for &first in &encodable {
            for &a in &encodable {
                for &b in &encodable {
                    let text: String = [a, b].iter().cycle().take(9).collect();
                    let units: Vec<u16> = text.encode_utf16().collect();
                    let mut encoder = enc.new_encoder();
                    let mut out = [0u8; 16];
                    let _ = encoder.encode_from_utf8(&first.to_string(), &mut out, false);
                    let mut encoder16 = enc.new_encoder();
                    let _ = encoder16.encode_from_utf8(&first.to_string(), &mut out, false);
                    let mut out = vec![
                        0u8;
                        encoder
                            .max_buffer_length_from_utf8_without_replacement(text.len())
                            .unwrap()
                    ];
                    let (r, read, _) = encoder.encode_from_utf8_without_replacement(&text, &mut out, true);
                    assert_eq!(
                        (r, read),
                        (EncoderResult::InputEmpty, text.len()),
                        "{} after {first:?}: {text:?}",
                        enc.name()
                    );
                    let mut out = vec![
                        0u8;
                        encoder16
                            .max_buffer_length_from_utf16_without_replacement(units.len())
                            .unwrap()
                    ];
                    let (r, read, _) =
                        encoder16.encode_from_utf16_without_replacement(&units, &mut out, true);
                    assert_eq!(
                        (r, read),
                        (EncoderResult::InputEmpty, units.len()),
                        "{} UTF-16 after {first:?}: {text:?}",
                        enc.name()
                    );
                }
            }
        }
        // Decoders: each character's bytes, repeated, in one call (a fresh decoder of each kind).
        for &c in &encodable {
            let bytes = spec::run_encoder(output, &c.to_string().repeat(7), spec::ErrorMode::Fatal).output;
            let bytes = if enc == output { bytes } else { continue };
            for bom in 0..3 {
                let new = || match bom {
                    0 => enc.new_decoder(),
                    1 => enc.new_decoder_with_bom_removal(),
                    _ => enc.new_decoder_without_bom_handling(),
                };
                let mut d = new();
                let mut out = vec![0u8; d.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap()];
                let (r, read, _) = d.decode_to_utf8_without_replacement(&bytes, &mut out, true);
                assert_eq!(
                    (r, read),
                    (DecoderResult::InputEmpty, bytes.len()),
                    "{} {c:?} norepl",
                    enc.name()
                );
                let mut d = new();
                let mut out = vec![0u8; d.max_utf8_buffer_length(bytes.len()).unwrap()];
                let (r, read, _, _) = d.decode_to_utf8(&bytes, &mut out, true);
                assert_eq!(
                    (r, read),
                    (CoderResult::InputEmpty, bytes.len()),
                    "{} {c:?}",
                    enc.name()
                );
                let mut d = new();
                let mut out = vec![0u16; d.max_utf16_buffer_length(bytes.len()).unwrap()];
                let (r, read, _, _) = d.decode_to_utf16(&bytes, &mut out, true);
                assert_eq!(
                    (r, read),
                    (CoderResult::InputEmpty, bytes.len()),
                    "{} {c:?} UTF-16",
                    enc.name()
                );
            }
        }
    }
    // As encoding_rs: GBK from UTF-16 without replacement, 2 bytes a unit; UTF-8 without
    // replacement, a byte a byte.
    assert_eq!(
        simdenc::GBK
            .new_encoder()
            .max_buffer_length_from_utf16_without_replacement(100),
        Some(200)
    );
    assert_eq!(
        simdenc::UTF_8
            .new_decoder_without_bom_handling()
            .max_utf8_buffer_length_without_replacement(100),
        Some(100)
    );
}
