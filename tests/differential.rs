//! The engine, through the public API, against the executable standard (`simdenc::spec`):
//! every encoding, both error modes, UTF-8 and UTF-16 output, chunked input, small outputs.
//!
//! Space covered exhaustively: every input of 1 and 2 bytes for every decoder. Three-byte
//! inputs are 16.7 million per encoding; with the reference decoder at about a microsecond
//! per run that is several minutes per encoding even in release mode, so they are covered by
//! the structured sweeps in each family's unit tests (lead, trail and ASCII classes) and by
//! the generated inputs below instead.

mod common;

use common::{Rng, check_decode, check_encode, random_splits};
use simdenc::spec::{self, ErrorMode};
use simdenc::{Encoding, UTF_8};

fn decoders() -> impl Iterator<Item = &'static Encoding> {
    Encoding::all().iter().copied()
}

fn encoders() -> impl Iterator<Item = &'static Encoding> {
    Encoding::all()
        .iter()
        .copied()
        .filter(|e| e.output_encoding() == *e)
}

#[test]
fn every_one_and_two_byte_input_of_every_encoding() {
    for enc in decoders() {
        for a in 0..=255u8 {
            check_decode(enc, &[a], &[], 16);
            for b in 0..=255u8 {
                check_decode(enc, &[a, b], &[], 16);
            }
        }
    }
}

/// Bytes that mean something in some encoding: leads, trails, escapes, ASCII.
const INTERESTING: [u8; 40] = [
    0x00, 0x0A, 0x0E, 0x0F, 0x1B, 0x21, 0x24, 0x28, 0x30, 0x39, 0x40, 0x41, 0x42, 0x49, 0x4A, 0x5C, 0x7E,
    0x7F, 0x80, 0x81, 0x82, 0x8E, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xA4, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED,
    0xEF, 0xF0, 0xF4, 0xFC, 0xFE, 0xFF,
];

/// A structured input for `enc`: encoded text with random characters, interesting and random
/// bytes sprinkled in, padded with ASCII.
fn generate(rng: &mut Rng, enc: &'static Encoding) -> Vec<u8> {
    let mut text = String::new();
    for _ in 0..rng.below(24) {
        let c = match rng.below(6) {
            0 => char::from(b'a' + rng.below(26) as u8),
            1 => char::from_u32(0x80 + rng.below(0x780) as u32).unwrap(),
            2 => char::from_u32(0x3000 + rng.below(0x100) as u32).unwrap(),
            3 => char::from_u32(0x4E00 + rng.below(0x5200) as u32).unwrap(),
            4 => char::from_u32(0xAC00 + rng.below(0x2BA4) as u32).unwrap(),
            _ => char::from_u32(0xFF61 + rng.below(0x3F) as u32).unwrap(),
        };
        text.push(c);
    }
    let encoded = spec::run_encoder(enc.output_encoding(), &text, ErrorMode::Html).output;
    let mut bytes = encoded;
    for _ in 0..rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        let b = if rng.below(2) == 0 {
            INTERESTING[rng.below(INTERESTING.len())]
        } else {
            rng.next() as u8
        };
        bytes.insert(at, b);
    }
    if rng.below(4) == 0 && !bytes.is_empty() {
        let cut = rng.below(bytes.len());
        bytes.truncate(cut);
    }
    let before = rng.below(65);
    let after = rng.below(65);
    let mut out = vec![b'.'; before];
    out.extend_from_slice(&bytes);
    out.extend(std::iter::repeat_n(b'x', after));
    out
}

#[test]
fn generated_inputs_chunked_into_small_outputs() {
    let mut rng = Rng(0x5EED_0001);
    for enc in decoders() {
        for _ in 0..120 {
            let input = generate(&mut rng, enc);
            let splits = random_splits(&mut rng, input.len());
            let cap = 4 + rng.below(40);
            check_decode(enc, &input, &splits, cap);
        }
    }
}

#[test]
fn every_two_chunk_split_of_tricky_inputs() {
    let tricky: [&[u8]; 10] = [
        b"\x82\x22\x93\xfa\xff",
        b"\x81\x30\x81\x30\x84\x31\xA4\x39\x81\x30",
        b"\x88\x62\x88\x64\xA4\x40\xFE",
        b"\x1b$B$\"\x1b(J\\~\x1b(I!\x1b(B\x1b$",
        b"\x8F\xA2\xAF\x8E\xA1\xA4\xA2",
        b"\xC7\xD1\x81\x41\xFE",
        b"\xEF\xBB\xBF\xF0\x9F\x98\x80\xED\xA0\x80",
        b"\xFF\xFE\x3D\xD8\x00\xDE\x00\xD8\x41",
        b"\xA6\xD9\xFE\x59\xA3\xA0\x80",
        b"\x1b\x1b$@\x1b(\x1b$A",
    ];
    for enc in decoders() {
        for input in tricky {
            for split in 0..=input.len() {
                check_decode(enc, input, &[split], 64);
            }
            let all: Vec<usize> = (0..=input.len()).collect();
            check_decode(enc, input, &all, 4);
        }
    }
}

#[test]
fn bom_sniffing_decoder_equals_the_decode_hook() {
    let mut rng = Rng(0x5EED_0002);
    let boms: [&[u8]; 5] = [b"", b"\xEF\xBB\xBF", b"\xFE\xFF", b"\xFF\xFE", b"\xEF\xBB"];
    for enc in decoders() {
        for bom in boms {
            for _ in 0..8 {
                let mut input = bom.to_vec();
                input.extend(generate(&mut rng, enc));
                let expect = spec::decode_bytes(&input, enc);
                let (one_shot, _, _) = enc.decode(&input);
                assert_eq!(one_shot, expect, "{} one-shot {input:02X?}", enc.name());
                // Streaming, with the BOM cut at every place.
                for split in 0..=3.min(input.len()) {
                    let mut decoder = enc.new_decoder();
                    let mut out = String::with_capacity(input.len() * 3 + 16);
                    let _ = decoder.decode_to_string(&input[..split], &mut out, false);
                    let _ = decoder.decode_to_string(&input[split..], &mut out, true);
                    assert_eq!(out, expect, "{} split {split} {input:02X?}", enc.name());
                }
            }
        }
    }
}

#[test]
fn one_shot_decode_variants_equal_spec() {
    let mut rng = Rng(0x5EED_0003);
    for enc in decoders() {
        for _ in 0..40 {
            let input = generate(&mut rng, enc);
            let replaced = spec::run_decoder(enc, &input, ErrorMode::Replacement);
            let fatal = spec::run_decoder(enc, &input, ErrorMode::Fatal);
            let (text, had_errors) = enc.decode_without_bom_handling(&input);
            assert_eq!(text, replaced.output, "{}", enc.name());
            assert_eq!(had_errors, fatal.error.is_some(), "{}", enc.name());
            let strict = enc.decode_without_bom_handling_and_without_replacement(&input);
            assert_eq!(strict.is_none(), fatal.error.is_some(), "{}", enc.name());
            if let Some(text) = strict {
                assert_eq!(text, replaced.output);
            }
        }
    }
}

#[test]
fn every_scalar_value_through_every_encoder() {
    // Html mode over the whole repertoire at once, from UTF-8 and UTF-16, in chunks.
    let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    for enc in encoders() {
        let expect = spec::run_encoder(enc, &all, ErrorMode::Html).output;
        let (bytes, used, _) = enc.encode(&all);
        assert_eq!(used, enc);
        assert!(bytes == expect, "{} html one-shot differs", enc.name());
        let utf16: Vec<u16> = all.encode_utf16().collect();
        let mut encoder = enc.new_encoder();
        // Up to ten bytes (`&#1114111;`) per unit in html mode.
        let mut out = vec![0u8; utf16.len() * 10 + 16];
        let mut written = 0;
        let mut read = 0;
        while read < utf16.len() {
            // Chunks of about 4 K units, never splitting a surrogate pair (the API's contract).
            let end = (read + 4093).min(utf16.len());
            let end = if end < utf16.len() && (0xD800..=0xDBFF).contains(&utf16[end - 1]) {
                end - 1
            } else {
                end
            };
            let (_, r, w, _) =
                encoder.encode_from_utf16(&utf16[read..end], &mut out[written..], end == utf16.len());
            assert!(r > 0, "{}: no progress", enc.name());
            read += r;
            written += w;
        }
        assert_eq!(read, utf16.len());
        assert!(
            out[..written] == expect[..],
            "{} html from UTF-16 differs",
            enc.name()
        );
    }
}

#[test]
fn every_scalar_value_alone_in_fatal_mode() {
    // Fatal mode one character at a time, for the non-UTF-8 encoders, checked against spec on
    // a stride of the repertoire plus every BMP character for the CJK encoders' ranges.
    for enc in encoders().filter(|&e| e != UTF_8) {
        let mut encoder = enc.new_encoder();
        for cp in (0..=0xFFFFu32).chain((0x10000..=0x10FFFF).step_by(97)) {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let mut buf = [0u8; 16];
            let s = c.to_string();
            let (result, _, written) = encoder.encode_from_utf8_without_replacement(&s, &mut buf, true);
            let expect = spec::run_encoder(enc, &s, ErrorMode::Fatal);
            match result {
                simdenc::EncoderResult::InputEmpty => {
                    assert_eq!(
                        (&buf[..written], None),
                        (&expect.output[..], expect.error),
                        "{} {c:?}",
                        enc.name()
                    );
                }
                simdenc::EncoderResult::Unmappable(u) => {
                    assert_eq!(Some((u, 1)), expect.error, "{} {c:?}", enc.name());
                    // ISO-2022-JP may have switched state and needs a fresh encoder.
                    encoder = enc.new_encoder();
                }
                simdenc::EncoderResult::OutputFull => {
                    panic!("16 bytes are enough for one character")
                }
            }
            if encoder.has_pending_state() {
                encoder = enc.new_encoder();
            }
        }
    }
}

#[test]
fn generated_text_through_every_encoder_chunked() {
    let mut rng = Rng(0x5EED_0004);
    for enc in encoders() {
        for _ in 0..60 {
            let len = rng.below(20);
            let text: String = (0..len)
                .map(|_| match rng.below(5) {
                    0 => char::from(b' ' + rng.below(95) as u8),
                    1 => [
                        '\u{A5}', '\u{203E}', '\u{2212}', '\u{E}', '\u{1B}', '\u{20AC}', '\u{E5E5}',
                        '\u{E78D}',
                    ][rng.below(8)],
                    2 => char::from_u32(0x3000 + rng.below(0x7000) as u32).unwrap(),
                    3 => char::from_u32(0xFF61 + rng.below(0x3F) as u32).unwrap(),
                    _ => char::from_u32(rng.below(0x30000) as u32).unwrap_or('\u{1F600}'),
                })
                .collect();
            let n = text.chars().count();
            let splits = random_splits(&mut rng, n);
            let cap = 16 + rng.below(24);
            check_encode(enc, &text, &splits, cap);
        }
    }
}

/// Short UTF-16 inputs into the single-byte encodings (below 64 units they take a loop of
/// their own first): an unmappable character, an astral one and a lone surrogate at every
/// position, with outputs from just too small for that loop to a little more than enough,
/// against `spec` in html mode (a lone surrogate is U+FFFD, as `String::from_utf16_lossy`
/// makes it).
#[test]
fn short_utf16_into_single_byte_encodings() {
    let cases: [&[u16]; 4] = [&[0x3042], &[0xD83D, 0xDE00], &[0xD800], &[0xDC00]];
    for enc in encoders().filter(|e| e.is_single_byte()) {
        // Mapped characters of this encoding and ASCII, by decoding its upper half.
        let upper: Vec<u8> = (0x80..=0xFFu8).collect();
        let mapped: Vec<u16> = enc
            .decode_without_bom_handling(&upper)
            .0
            .encode_utf16()
            .filter(|&u| u != 0xFFFD)
            .chain(b"a, ".map(u16::from))
            .collect();
        for len in [1usize, 2, 9, 31, 63, 64] {
            let base: Vec<u16> = (0..len).map(|i| mapped[(i * 7) % mapped.len()]).collect();
            for pos in 0..=len {
                for case in cases {
                    let mut units = base.clone();
                    units.splice(pos..pos.min(len), case.iter().copied());
                    let text = String::from_utf16_lossy(&units);
                    let expect = spec::run_encoder(enc, &text, ErrorMode::Html).output;
                    for extra in [9usize, 10, 11, 40] {
                        let cap = units.len() + extra;
                        let mut encoder = enc.new_encoder();
                        let mut out = Vec::new();
                        let mut read = 0;
                        loop {
                            let mut buf = vec![0u8; cap];
                            let (result, r, w, _) = encoder.encode_from_utf16(&units[read..], &mut buf, true);
                            out.extend_from_slice(&buf[..w]);
                            read += r;
                            if result == simdenc::CoderResult::InputEmpty {
                                break;
                            }
                            assert!(r + w > 0, "{}: no progress", enc.name());
                        }
                        assert_eq!(read, units.len(), "{} {units:04X?}", enc.name());
                        assert_eq!(out, expect, "{} {units:04X?} cap {cap}", enc.name());
                    }
                }
            }
        }
    }
}
