//! `Encoder` at a fuzzed SIMD level against the executable standard (`simdenc::spec`).
//!
//! Header: `[0]` encoding (its output encoding's encoder is used), `[1]` level, `[2]` bit 0
//! UTF-16 source (`encode_from_utf16*`; else UTF-8), bit 1 fatal (`*_without_replacement`;
//! else html, `&#N;`), bit 2 raw UTF-16 payload (little-endian units; else the payload's text
//! with lone surrogates inserted), bit 3 the `*_to_vec` variants (UTF-8 source), `[3]`
//! chunking and output size styles, `[4..8]` PRNG seed. Payload: the text, read as UTF-8
//! with invalid sequences replaced (a U+FFFD is as good a test character as any).
//!
//! UTF-16 input is compared with the standard's conversion of a JavaScript string: each
//! unpaired surrogate becomes U+FFFD. Chunks never split a surrogate pair (the API asks
//! callers not to), but the encoder itself may stop anywhere it likes when the output is full,
//! and must not then split one.
//!
//! Checked: the bytes (and, in fatal mode, every `Unmappable` and its position, continuing
//! after each) equal the standard's encoder in "fatal" mode resumed after every error, whose
//! segments joined with `&#N;` are "html" mode; no `OutputFull` with a buffer of the
//! documented bound; progress whenever a character fits; no pending state after `last`;
//! nothing written past the reported length and the same with either canary; the one-shot
//! `Encoding::encode`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdenc::{CoderResult, Encoder, EncoderResult, Encoding};
use simdenc_fuzz::{
    CANARY_U8, Caps, Input, Rng, SpecEncode, assert_tail, chunk_ends, encoding, force_level,
    is_leading_surrogate, is_trailing_surrogate, twice, usv_string, utf16_units,
};

/// The source text in the form the API takes.
enum Source {
    Utf8(String),
    Utf16(Vec<u16>),
}

impl Source {
    fn len(&self) -> usize {
        match self {
            Source::Utf8(s) => s.len(),
            Source::Utf16(u) => u.len(),
        }
    }

    /// Scalar values (unpaired surrogates count one each) in `range`.
    fn chars_in(&self, range: std::ops::Range<usize>) -> usize {
        match self {
            Source::Utf8(s) => s[range].chars().count(),
            Source::Utf16(u) => char::decode_utf16(u[range].iter().copied()).count(),
        }
    }
}

/// One call's status, whichever API variant made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    InputEmpty,
    OutputFull,
    Unmappable(char),
}

impl From<CoderResult> for Status {
    fn from(result: CoderResult) -> Status {
        match result {
            CoderResult::InputEmpty => Status::InputEmpty,
            CoderResult::OutputFull => Status::OutputFull,
        }
    }
}

impl From<EncoderResult> for Status {
    fn from(result: EncoderResult) -> Status {
        match result {
            EncoderResult::InputEmpty => Status::InputEmpty,
            EncoderResult::OutputFull => Status::OutputFull,
            EncoderResult::Unmappable(c) => Status::Unmappable(c),
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    calls: Vec<(Status, usize, usize, bool)>,
    segments: Vec<Vec<u8>>,
    errors: Vec<(char, usize)>,
    had_unmappables: bool,
}

struct Setup {
    encoding: &'static Encoding,
    source: Source,
    fatal: bool,
    to_vec: bool,
    /// Whether the text has nothing unmappable (then the html-mode bound applies too).
    all_mappable: bool,
    ends: Vec<usize>,
    cap_style: u8,
    rng: Rng,
}

/// One call into a fresh buffer of `cap` bytes filled with canary `canary`.
fn call(
    encoder: &mut Encoder,
    s: &Setup,
    (range, last): (std::ops::Range<usize>, bool),
    cap: usize,
    canary: usize,
    out: &mut Vec<u8>,
) -> (Status, usize, usize, bool) {
    if let (Source::Utf8(text), true) = (&s.source, s.to_vec) {
        let src = &text[range];
        let mut buf = Vec::with_capacity(cap);
        let room = buf.capacity();
        let (status, read, had) = if s.fatal {
            let (r, read) = encoder.encode_from_utf8_to_vec_without_replacement(src, &mut buf, last);
            (Status::from(r), read, false)
        } else {
            let (r, read, had) = encoder.encode_from_utf8_to_vec(src, &mut buf, last);
            (Status::from(r), read, had)
        };
        assert_eq!(buf.capacity(), room, "encode_*_to_vec reallocated");
        out.extend_from_slice(&buf);
        return (status, read, buf.len(), had);
    }
    let mut buf = vec![CANARY_U8[canary]; cap];
    let (status, read, written, had) = match (&s.source, s.fatal) {
        (Source::Utf8(text), true) => {
            let (r, read, written) =
                encoder.encode_from_utf8_without_replacement(&text[range], &mut buf, last);
            (Status::from(r), read, written, false)
        }
        (Source::Utf8(text), false) => {
            let (r, read, written, had) = encoder.encode_from_utf8(&text[range], &mut buf, last);
            (Status::from(r), read, written, had)
        }
        (Source::Utf16(units), true) => {
            let (r, read, written) =
                encoder.encode_from_utf16_without_replacement(&units[range], &mut buf, last);
            (Status::from(r), read, written, false)
        }
        (Source::Utf16(units), false) => {
            let (r, read, written, had) = encoder.encode_from_utf16(&units[range], &mut buf, last);
            (Status::from(r), read, written, had)
        }
    };
    assert_tail(&buf, written, CANARY_U8[canary], "encode");
    out.extend_from_slice(&buf[..written]);
    (status, read, written, had)
}

/// Output that surely makes progress: the longest character plus an escape sequence
/// (ISO-2022-JP), plus room for `&#1114111;` in html mode.
fn min_progress(fatal: bool) -> usize {
    if fatal { 8 } else { 18 }
}

fn run(s: &Setup, canary: usize) -> Outcome {
    let mut rng = s.rng.clone();
    let mut caps = Caps::new(s.cap_style);
    let mut encoder = s.encoding.new_encoder();
    let mut out = Vec::new();
    let mut outcome = Outcome {
        calls: Vec::new(),
        segments: Vec::new(),
        errors: Vec::new(),
        had_unmappables: false,
    };
    let budget = 64 * (s.source.len() + s.ends.len() + 8);
    let mut start = 0;
    let mut chars_done = 0;
    for (i, &end) in s.ends.iter().enumerate() {
        let last = i + 1 == s.ends.len();
        let mut pos = start;
        loop {
            assert!(
                outcome.calls.len() < budget,
                "no termination after {budget} calls"
            );
            let rest = end - pos;
            let bound = match (&s.source, s.fatal) {
                (Source::Utf8(_), true) => encoder.max_buffer_length_from_utf8_without_replacement(rest),
                (Source::Utf8(_), false) => encoder.max_buffer_length_from_utf8_if_no_unmappables(rest),
                (Source::Utf16(_), true) => encoder.max_buffer_length_from_utf16_without_replacement(rest),
                (Source::Utf16(_), false) => encoder.max_buffer_length_from_utf16_if_no_unmappables(rest),
            };
            let bound = bound.expect("no overflow for fuzz-sized inputs");
            let cap = caps.next(&mut rng, bound);
            let (status, read, written, had) = call(&mut encoder, s, (pos..end, last), cap, canary, &mut out);
            assert!(
                read <= rest && written <= cap,
                "read {read} of {rest}, wrote {written} into {cap}"
            );
            if let Source::Utf16(units) = &s.source {
                let stop = pos + read;
                assert!(
                    stop == 0
                        || stop == units.len()
                        || !(is_leading_surrogate(units[stop - 1]) && is_trailing_surrogate(units[stop])),
                    "the encoder stopped inside a surrogate pair at {stop}"
                );
            }
            outcome.calls.push((status, read, written, had));
            outcome.had_unmappables |= had;
            chars_done += s.source.chars_in(pos..pos + read);
            pos += read;
            if cap >= bound && (s.fatal || s.all_mappable) {
                assert_ne!(
                    status,
                    Status::OutputFull,
                    "OutputFull with a buffer of {cap} >= the max_buffer_length_* bound {bound}"
                );
            }
            match status {
                Status::Unmappable(c) => {
                    assert!(s.fatal, "Unmappable from a replacing call");
                    outcome.errors.push((c, chars_done));
                    outcome.segments.push(std::mem::take(&mut out));
                    caps.progressed();
                }
                Status::InputEmpty => {
                    assert_eq!(pos, end, "InputEmpty before the end of the input");
                    caps.progressed();
                    break;
                }
                Status::OutputFull if read == 0 && written == 0 => {
                    assert!(
                        cap < min_progress(s.fatal),
                        "no progress with an output buffer of {cap}"
                    );
                    caps.stalled(cap);
                }
                Status::OutputFull => caps.progressed(),
            }
        }
        start = end;
    }
    assert!(!encoder.has_pending_state(), "pending state after the last call");
    outcome.segments.push(out);
    outcome
}

fn check(data: &[u8]) {
    let input = Input::parse(data);
    let h = input.header;
    let encoding = encoding(h[0]);
    let level = force_level(h[1]);
    let utf16 = h[2] & 1 != 0;
    let fatal = h[2] & 2 != 0;
    let raw = h[2] & 4 != 0;
    let to_vec = h[2] & 8 != 0;
    let mut rng = input.rng();
    let (source, text) = if utf16 {
        let units = utf16_units(&mut rng, input.payload, raw);
        let text = usv_string(&units);
        (Source::Utf16(units), text)
    } else {
        let text = String::from_utf8_lossy(input.payload).into_owned();
        (Source::Utf8(text.clone()), text)
    };
    let ends = match &source {
        Source::Utf8(s) => chunk_ends(&mut rng, s.len(), h[3], |mut e| {
            while !s.is_char_boundary(e) {
                e -= 1;
            }
            e
        }),
        Source::Utf16(u) => chunk_ends(&mut rng, u.len(), h[3], |e| {
            if e > 0 && e < u.len() && is_leading_surrogate(u[e - 1]) && is_trailing_surrogate(u[e]) {
                e - 1
            } else {
                e
            }
        }),
    };
    let expect = SpecEncode::run(encoding.output_encoding(), &text);
    let setup = Setup {
        encoding,
        source,
        fatal,
        to_vec,
        all_mappable: expect.errors.is_empty(),
        ends,
        cap_style: h[3],
        rng,
    };
    let what = format!(
        "{} at {level}, utf16 {utf16}, fatal {fatal}, to_vec {to_vec}, chunk ends {:?}",
        encoding.output_encoding().name(),
        setup.ends
    );
    let got = twice(&what, |canary| run(&setup, canary));
    if fatal {
        assert_eq!(
            (&got.errors, &got.segments),
            (&expect.errors, &expect.segments),
            "{what}: Unmappable characters, positions and the bytes between them"
        );
    } else {
        assert_eq!(got.segments.len(), 1);
        assert!(
            got.segments[0] == expect.html(),
            "{what}: html-mode bytes\n got {:02X?}\nwant {:02X?}",
            got.segments[0],
            expect.html()
        );
        assert_eq!(
            got.had_unmappables,
            !expect.errors.is_empty(),
            "{what}: had_unmappables"
        );
    }
    if !utf16 {
        let (bytes, used, had) = encoding.encode(&text);
        assert_eq!(used, encoding.output_encoding(), "{what}: one-shot encoding");
        assert!(
            *bytes == expect.html() && had != expect.errors.is_empty(),
            "{what}: one-shot encode"
        );
    }
}

fuzz_target!(|data: &[u8]| check(data));
