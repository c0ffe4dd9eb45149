//! Test drivers: run a family state machine over an input cut into chunks, into output
//! buffers of a given size, and compare with `spec`. Used by every family's unit tests.

use super::dest::{Utf8Dest, Utf16Dest};
use super::source::{ByteDest, Utf8Source, Utf16Source};
use super::{VariantDecoder, VariantEncoder};
use crate::Encoding;
use crate::results::{DecoderResult, EncoderResult};
use crate::simd::Kernels;
use crate::spec;

/// A small deterministic generator (xorshift64) for sample inputs.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next number of the sequence.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number below `n`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// One of `items`.
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// What a decode produced: the text, and in fatal mode where it stopped.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Decoded {
    pub(crate) output: String,
    /// `Some(p)`: stopped at a malformed sequence; `p` is where the standard's fatal mode
    /// stops (total read − consumed_after).
    pub(crate) error: Option<usize>,
    /// Stopped with `OutputFull` twice without progress: the output buffer is smaller than
    /// the next step needs (which `decode` allows only below 4 units); `output` is what was
    /// written before.
    pub(crate) stalled: bool,
}

/// Decodes `input` cut at `splits` (ascending offsets) with output buffers of `cap` units.
pub(crate) fn decode(
    kernels: &'static Kernels,
    encoding: &'static Encoding,
    input: &[u8],
    splits: &[usize],
    cap: usize,
    utf16: bool,
    replace: bool,
) -> Decoded {
    let mut decoder = VariantDecoder::new(encoding);
    let mut bounds: Vec<usize> = splits.iter().copied().filter(|&s| s <= input.len()).collect();
    bounds.push(input.len());
    let mut start = 0;
    let mut total_read = 0;
    let mut out8 = Vec::new();
    let mut out16 = Vec::new();
    let mut error = None;
    let mut stalled = false;
    'chunks: for (n, &end) in bounds.iter().enumerate() {
        let last = n + 1 == bounds.len();
        let chunk = &input[start..end.max(start)];
        start = end.max(start);
        let mut pos = 0;
        let mut stalls = 0;
        let mut buf16 = vec![0u16; cap];
        let mut buf8 = vec![0u8; cap];
        loop {
            let (result, read, written) = if utf16 {
                let buf = &mut buf16;
                let mut dst = Utf16Dest::new(buf, kernels);
                let (r, read) = decoder.decode(&chunk[pos..], &mut dst, last, replace);
                let w = super::dest::Dest::written(&dst);
                out16.extend_from_slice(&buf[..w]);
                (r, read, w)
            } else {
                let buf = &mut buf8;
                let mut dst = Utf8Dest::new(crate::simd::as_out(buf), kernels);
                let (r, read) = decoder.decode(&chunk[pos..], &mut dst, last, replace);
                let w = super::dest::Dest::written(&dst);
                out8.extend_from_slice(&buf[..w]);
                (r, read, w)
            };
            assert!(pos + read <= chunk.len(), "read past the input");
            assert!(written <= cap, "wrote past the output");
            pos += read;
            total_read += read;
            match result.get() {
                DecoderResult::InputEmpty => {
                    assert_eq!(pos, chunk.len(), "InputEmpty with input left");
                    continue 'chunks;
                }
                DecoderResult::OutputFull => {
                    if read == 0 && written == 0 {
                        stalls += 1;
                        assert!(
                            cap < 4 || stalls < 2,
                            "OutputFull without progress into {cap} units"
                        );
                        if stalls > 1 {
                            // A buffer too small for the next character: the caller's problem.
                            stalled = true;
                            break 'chunks;
                        }
                    } else {
                        stalls = 0;
                    }
                }
                DecoderResult::Malformed(bad, after) => {
                    assert!((1..=6).contains(&bad), "Malformed({bad}, {after})");
                    if !replace {
                        error = Some(total_read - usize::from(after));
                        break 'chunks;
                    }
                }
            }
        }
    }
    let output = if utf16 {
        String::from_utf16(&out16).expect("decoder wrote an unpaired surrogate")
    } else {
        String::from_utf8(out8).expect("decoder wrote invalid UTF-8")
    };
    Decoded {
        output,
        error,
        stalled,
    }
}

/// Checks the engine against `spec` on `input` in both modes and both output forms, with the
/// given chunking and output capacity. Panics with a description on any difference.
pub(crate) fn check_decode(encoding: &'static Encoding, input: &[u8], splits: &[usize], cap: usize) {
    let replaced = spec::run_decoder(encoding, input, spec::ErrorMode::Replacement);
    let fatal = spec::run_decoder(encoding, input, spec::ErrorMode::Fatal);
    for kernels in crate::simd::available() {
        for utf16 in [false, true] {
            let at = |mode| {
                format!(
                    "{} {mode}, utf16={utf16}, input {input:02X?}, splits {splits:?}, cap {cap}",
                    encoding.name()
                )
            };
            let got = decode(kernels, encoding, input, splits, cap, utf16, true);
            if got.stalled {
                // The buffer cannot hold the next character: what was written before it must
                // still be the standard's.
                assert!(
                    replaced.output.starts_with(&got.output),
                    "{}: stalled",
                    at("replacement")
                );
            } else {
                assert_eq!(got.output, replaced.output, "{}", at("replacement"));
            }
            let got = decode(kernels, encoding, input, splits, cap, utf16, false);
            if got.stalled {
                assert!(fatal.output.starts_with(&got.output), "{}: stalled", at("fatal"));
            } else {
                assert_eq!(
                    (got.output, got.error),
                    (fatal.output.clone(), fatal.error),
                    "{}",
                    at("fatal")
                );
            }
        }
    }
}

/// Checks `input` with no splits and a large buffer, every two-chunk split, and output
/// capacities 4..=8 (UTF-8 needs up to 4 bytes for one step).
pub(crate) fn check_decode_thoroughly(encoding: &'static Encoding, input: &[u8]) {
    let big = input.len() * 3 + 16;
    check_decode(encoding, input, &[], big);
    for split in 0..=input.len() {
        check_decode(encoding, input, &[split], big);
    }
    for cap in 4..=8 {
        check_decode(encoding, input, &[], cap);
    }
    let every: Vec<usize> = (0..=input.len()).collect();
    check_decode(encoding, input, &every, 4);
}

/// What an encode produced: the bytes, and in fatal mode the unmappable character and the
/// number of input characters consumed when it was reported.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Encoded {
    pub(crate) output: Vec<u8>,
    pub(crate) error: Option<(char, usize)>,
    /// Stopped with `OutputFull` twice without progress: the output buffer is smaller than
    /// the next step needs (which `encode` allows only below 8 bytes); `output` is what was
    /// written before.
    pub(crate) stalled: bool,
}

/// Encodes `input` (as UTF-8 or as UTF-16) in chunks cut at `splits` (char offsets), into
/// output buffers of `cap` bytes; `html` writes `&#N;` for unmappables, else stops there.
pub(crate) fn encode(
    kernels: &'static Kernels,
    encoding: &'static Encoding,
    input: &str,
    splits: &[usize],
    cap: usize,
    utf16: bool,
    html: bool,
) -> Encoded {
    let chars: Vec<char> = input.chars().collect();
    let mut bounds: Vec<usize> = splits.iter().copied().filter(|&s| s <= chars.len()).collect();
    bounds.push(chars.len());
    let mut encoder = VariantEncoder::new(encoding);
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars_done = 0;
    for (n, &end) in bounds.iter().enumerate() {
        let last = n + 1 == bounds.len();
        let end = end.max(start);
        let chunk: String = chars[start..end].iter().collect();
        start = end;
        let chunk16: Vec<u16> = chunk.encode_utf16().collect();
        let mut pos = 0; // code units
        let mut stalls = 0;
        let mut buf = vec![0u8; cap];
        loop {
            let mut dst = ByteDest::new(crate::simd::as_out(&mut buf));
            let (result, read) = if utf16 {
                let mut src = Utf16Source::new(&chunk16[pos..], kernels);
                let r = encoder.encode(&mut src, &mut dst, last);
                (r, super::source::Source::read(&src))
            } else {
                let mut src = Utf8Source::new(&chunk[pos..], kernels);
                let r = encoder.encode(&mut src, &mut dst, last);
                (r, super::source::Source::read(&src))
            };
            let written = dst.written();
            out.extend_from_slice(&buf[..written]);
            let consumed = if utf16 {
                String::from_utf16(&chunk16[pos..pos + read])
                    .expect("split a pair")
                    .chars()
                    .count()
            } else {
                chunk[pos..pos + read].chars().count()
            };
            chars_done += consumed;
            pos += read;
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::OutputFull => {
                    if read == 0 && written == 0 {
                        stalls += 1;
                        assert!(
                            cap < 8 || stalls < 2,
                            "OutputFull without progress into {cap} bytes"
                        );
                        if stalls > 1 {
                            return Encoded {
                                output: out,
                                error: None,
                                stalled: true,
                            };
                        }
                    } else {
                        stalls = 0;
                    }
                }
                EncoderResult::Unmappable(c) => {
                    if html {
                        out.extend_from_slice(format!("&#{};", u32::from(c)).as_bytes());
                    } else {
                        return Encoded {
                            output: out,
                            error: Some((c, chars_done)),
                            stalled: false,
                        };
                    }
                }
            }
        }
    }
    Encoded {
        output: out,
        error: None,
        stalled: false,
    }
}

/// Checks the engine's encoder against `spec` in html and fatal modes, from UTF-8 and UTF-16.
pub(crate) fn check_encode(encoding: &'static Encoding, input: &str, splits: &[usize], cap: usize) {
    let html = spec::run_encoder(encoding.output_encoding(), input, spec::ErrorMode::Html);
    let fatal = spec::run_encoder(encoding.output_encoding(), input, spec::ErrorMode::Fatal);
    for kernels in crate::simd::available() {
        for utf16 in [false, true] {
            let at = |mode| {
                format!(
                    "{} {mode}, utf16={utf16}, input {input:?}, splits {splits:?}, cap {cap}",
                    encoding.name()
                )
            };
            let got = encode(kernels, encoding, input, splits, cap, utf16, true);
            if got.stalled {
                // The buffer cannot hold the next step's bytes: what was written before must
                // still be the standard's.
                assert!(html.output.starts_with(&got.output), "{}: stalled", at("html"));
            } else {
                assert_eq!(got.output, html.output, "{}", at("html"));
            }
            let got = encode(kernels, encoding, input, splits, cap, utf16, false);
            if got.stalled {
                assert!(fatal.output.starts_with(&got.output), "{}: stalled", at("fatal"));
            } else {
                assert_eq!(
                    (got.output, got.error),
                    (fatal.output.clone(), fatal.error),
                    "{}",
                    at("fatal")
                );
            }
        }
    }
}

/// Checks `input` whole, in every two-chunk split, and into 8-byte output buffers.
pub(crate) fn check_encode_thoroughly(encoding: &'static Encoding, input: &str) {
    let n = input.chars().count();
    check_encode(encoding, input, &[], input.len() * 8 + 16);
    for split in 0..=n {
        check_encode(encoding, input, &[split], input.len() * 8 + 16);
    }
    check_encode(encoding, input, &[], 8);
}

/// A buffer smaller than the next character stalls the drivers above, which then report what
/// was written before it (checked against `spec` as a prefix) rather than skip the check.
#[test]
fn a_stalled_run_reports_what_it_wrote() {
    let kernels = crate::simd::active();
    let got = decode(kernels, crate::UTF_8, "a\u{E9}b".as_bytes(), &[], 1, false, true);
    assert_eq!((got.output.as_str(), got.error, got.stalled), ("a", None, true));
    check_decode(crate::UTF_8, "a\u{E9}b".as_bytes(), &[], 1);
    let got = encode(kernels, crate::EUC_KR, "a\u{AC00}", &[], 1, false, true);
    assert_eq!(
        (got.output.as_slice(), got.error, got.stalled),
        (&b"a"[..], None, true)
    );
    check_encode(crate::EUC_KR, "a\u{AC00}", &[], 1);
}

/// Asserts that no code point of `ranges` (inclusive) has bytes in the encode table `bytes`
/// (paged by `pages`): those the state machine takes, at which the encode runs and the
/// vector kernels must stop with no test of their own (`EncodeTables`).
pub(crate) fn assert_no_bytes(pages: &[u8; 256], bytes: &[u16], ranges: &[(u16, u16)]) {
    for &(lo, hi) in ranges {
        for c in u32::from(lo)..=u32::from(hi) {
            assert_eq!(crate::tables::paged(pages, bytes, c), 0, "U+{c:04X}");
        }
    }
}
