//! Drivers for the differential tests: the public streaming API, fed in chunks into output
//! buffers of a given size, compared with `simdenc::spec`.
#![allow(dead_code)]

use simdenc::spec::{self, ErrorMode};
use simdenc::{CoderResult, DecoderResult, EncoderResult, Encoding};

/// Deterministic xorshift, so that failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Random split points (ascending, with repeats = empty chunks).
pub fn random_splits(rng: &mut Rng, len: usize) -> Vec<usize> {
    let count = rng.below(6);
    let mut splits: Vec<usize> = (0..count).map(|_| rng.below(len + 1)).collect();
    splits.sort_unstable();
    splits
}

fn chunks<'a>(input: &'a [u8], splits: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    for &s in splits.iter().chain(std::iter::once(&input.len())) {
        let end = s.clamp(start, input.len());
        out.push(&input[start..end]);
        start = end;
    }
    out
}

/// What a streaming decode gave: text, and where fatal mode stopped.
#[derive(Debug, PartialEq, Eq)]
pub struct Run {
    pub output: String,
    pub error: Option<usize>,
}

/// Decodes through a `Decoder` without BOM handling.
pub fn api_decode(
    encoding: &'static Encoding,
    input: &[u8],
    splits: &[usize],
    cap: usize,
    utf16: bool,
    fatal: bool,
) -> Run {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let parts = chunks(input, splits);
    let mut out8: Vec<u8> = Vec::new();
    let mut out16: Vec<u16> = Vec::new();
    let mut total = 0usize;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let mut pos = 0;
        let mut stalls = 0;
        let mut b8 = vec![0xA5u8; cap];
        let mut b16 = vec![0xA5A5u16; cap];
        loop {
            let (status, read, written) = match (utf16, fatal) {
                (false, false) => {
                    let (r, read, w, _) = decoder.decode_to_utf8(&part[pos..], &mut b8, last);
                    (Err(r), read, w)
                }
                (false, true) => {
                    let (r, read, w) =
                        decoder.decode_to_utf8_without_replacement(&part[pos..], &mut b8, last);
                    (Ok(r), read, w)
                }
                (true, false) => {
                    let (r, read, w, _) = decoder.decode_to_utf16(&part[pos..], &mut b16, last);
                    (Err(r), read, w)
                }
                (true, true) => {
                    let (r, read, w) =
                        decoder.decode_to_utf16_without_replacement(&part[pos..], &mut b16, last);
                    (Ok(r), read, w)
                }
            };
            assert!(written <= cap && pos + read <= part.len());
            if utf16 {
                out16.extend_from_slice(&b16[..written]);
            } else {
                out8.extend_from_slice(&b8[..written]);
            }
            pos += read;
            total += read;
            let full = matches!(
                status,
                Err(CoderResult::OutputFull) | Ok(DecoderResult::OutputFull)
            );
            let empty = matches!(
                status,
                Err(CoderResult::InputEmpty) | Ok(DecoderResult::InputEmpty)
            );
            if let Ok(DecoderResult::Malformed(_, after)) = status {
                let text = if utf16 {
                    String::from_utf16(&out16).unwrap()
                } else {
                    String::from_utf8(out8).unwrap()
                };
                return Run {
                    output: text,
                    error: Some(total - usize::from(after)),
                };
            }
            if empty {
                assert_eq!(pos, part.len());
                break;
            }
            if full {
                if read == 0 && written == 0 {
                    stalls += 1;
                    assert!(stalls < 3, "no progress with an output buffer of {cap}");
                } else {
                    stalls = 0;
                }
            }
        }
    }
    let output = if utf16 {
        String::from_utf16(&out16).expect("lone surrogate")
    } else {
        String::from_utf8(out8).expect("bad UTF-8")
    };
    Run { output, error: None }
}

/// The engine, through the public API, equals `spec` on `input` with this chunking and output
/// size, in both error modes and both output forms.
pub fn check_decode(encoding: &'static Encoding, input: &[u8], splits: &[usize], cap: usize) {
    let replaced = spec::run_decoder(encoding, input, ErrorMode::Replacement);
    let fatal = spec::run_decoder(encoding, input, ErrorMode::Fatal);
    for utf16 in [false, true] {
        let got = api_decode(encoding, input, splits, cap, utf16, false);
        assert_eq!(
            got,
            Run {
                output: replaced.output.clone(),
                error: None
            },
            "{} replacement utf16={utf16} input={input:02X?} splits={splits:?} cap={cap}",
            encoding.name()
        );
        let got = api_decode(encoding, input, splits, cap, utf16, true);
        assert_eq!(
            got,
            Run {
                output: fatal.output.clone(),
                error: fatal.error
            },
            "{} fatal utf16={utf16} input={input:02X?} splits={splits:?} cap={cap}",
            encoding.name()
        );
    }
}

/// Encodes through an `Encoder` (html mode = the replacing API; fatal = without replacement),
/// from UTF-8 or UTF-16, in chunks (char offsets), into buffers of `cap` bytes.
pub fn api_encode(
    encoding: &'static Encoding,
    input: &str,
    splits: &[usize],
    cap: usize,
    utf16: bool,
    fatal: bool,
) -> (Vec<u8>, Option<(char, usize)>) {
    let chars: Vec<char> = input.chars().collect();
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::new();
    let mut start = 0;
    let mut done_chars = 0;
    let bounds: Vec<usize> = splits
        .iter()
        .copied()
        .chain(std::iter::once(chars.len()))
        .collect();
    for (i, &end) in bounds.iter().enumerate() {
        let end = end.clamp(start, chars.len());
        let last = i + 1 == bounds.len();
        let chunk: String = chars[start..end].iter().collect();
        start = end;
        let chunk16: Vec<u16> = chunk.encode_utf16().collect();
        let mut pos = 0;
        let mut stalls = 0;
        let mut buf = vec![0xA5u8; cap];
        loop {
            let (status, read, written) = match (utf16, fatal) {
                (false, false) => {
                    let (r, read, w, _) = encoder.encode_from_utf8(&chunk[pos..], &mut buf, last);
                    (Err(r), read, w)
                }
                (false, true) => {
                    let (r, read, w) =
                        encoder.encode_from_utf8_without_replacement(&chunk[pos..], &mut buf, last);
                    (Ok(r), read, w)
                }
                (true, false) => {
                    let (r, read, w, _) = encoder.encode_from_utf16(&chunk16[pos..], &mut buf, last);
                    (Err(r), read, w)
                }
                (true, true) => {
                    let (r, read, w) =
                        encoder.encode_from_utf16_without_replacement(&chunk16[pos..], &mut buf, last);
                    (Ok(r), read, w)
                }
            };
            assert!(written <= cap);
            out.extend_from_slice(&buf[..written]);
            done_chars += if utf16 {
                char::decode_utf16(chunk16[pos..pos + read].iter().copied()).count()
            } else {
                chunk[pos..pos + read].chars().count()
            };
            pos += read;
            match status {
                Ok(EncoderResult::Unmappable(c)) => return (out, Some((c, done_chars))),
                Err(CoderResult::InputEmpty) | Ok(EncoderResult::InputEmpty) => break,
                _ => {
                    if read == 0 && written == 0 {
                        stalls += 1;
                        assert!(stalls < 3, "no progress with an output buffer of {cap}");
                    } else {
                        stalls = 0;
                    }
                }
            }
        }
    }
    (out, None)
}

/// The engine's encoder equals `spec` (html and fatal) from UTF-8 and UTF-16.
pub fn check_encode(encoding: &'static Encoding, input: &str, splits: &[usize], cap: usize) {
    let html = spec::run_encoder(encoding.output_encoding(), input, ErrorMode::Html);
    let fatal = spec::run_encoder(encoding.output_encoding(), input, ErrorMode::Fatal);
    for utf16 in [false, true] {
        let got = api_encode(encoding, input, splits, cap, utf16, false);
        assert_eq!(
            got,
            (html.output.clone(), None),
            "{} html utf16={utf16} input={input:?} splits={splits:?} cap={cap}",
            encoding.name()
        );
        let got = api_encode(encoding, input, splits, cap, utf16, true);
        assert_eq!(
            got,
            (fatal.output.clone(), fatal.error),
            "{} fatal utf16={utf16} input={input:?} splits={splits:?} cap={cap}",
            encoding.name()
        );
    }
}
