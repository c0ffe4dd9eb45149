//! `Decoder` at a fuzzed SIMD level against the executable standard (`simdenc::spec`).
//!
//! Header: `[0]` encoding, `[1]` level, `[2]` bits 0–1 output form (UTF-8 slice, UTF-16
//! slice, `&mut str`, `String`), bit 2 fatal (`*_without_replacement`), bits 3–4 BOM handling
//! (`new_decoder_without_bom_handling`, `new_decoder`, `new_decoder_with_bom_removal`),
//! `[3]` chunking and output size styles, `[4..8]` PRNG seed. Payload: the bytes to decode.
//!
//! Checked: the text (and, in fatal mode, every `Malformed` position, continuing after each as
//! the API allows) equals the standard's decoder run in "fatal" mode and resumed after each
//! error, whose first error is where "fatal" stops and whose segments joined with U+FFFD are
//! "replacement" mode; BOM sniffing and removal equal the standard's "BOM sniff" (and the
//! "decode" hook); `max_*_buffer_length*` buffers never get `OutputFull`; a buffer that holds
//! a character always makes progress; every call writes whole characters, nothing past its
//! reported length, and the same with either output canary. The one-shot `Encoding::decode*`
//! functions are checked against the same reference.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdenc::spec::{self, IoQueue};
use simdenc::{CoderResult, Decoder, DecoderResult, Encoding, UTF_8};
use simdenc_fuzz::{
    CANARY_STR, CANARY_U8, CANARY_U16, Caps, Input, Rng, SpecDecode, assert_tail, chunk_ends, encoding,
    force_level, twice,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    Utf8,
    Utf16,
    Str,
    String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bom {
    None,
    Sniff,
    Remove,
}

/// One call's status, whichever API variant made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    InputEmpty,
    OutputFull,
    Malformed(u8, u8),
}

impl From<CoderResult> for Status {
    fn from(result: CoderResult) -> Status {
        match result {
            CoderResult::InputEmpty => Status::InputEmpty,
            CoderResult::OutputFull => Status::OutputFull,
        }
    }
}

impl From<DecoderResult> for Status {
    fn from(result: DecoderResult) -> Status {
        match result {
            DecoderResult::InputEmpty => Status::InputEmpty,
            DecoderResult::OutputFull => Status::OutputFull,
            DecoderResult::Malformed(bad, after) => Status::Malformed(bad, after),
        }
    }
}

/// What a streaming decode did: every call, the text between errors, the error positions.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    calls: Vec<(Status, usize, usize, bool)>,
    segments: Vec<String>,
    errors: Vec<usize>,
    had_errors: bool,
    encoding: &'static Encoding,
}

struct Setup<'a> {
    encoding: &'static Encoding,
    bytes: &'a [u8],
    form: Form,
    fatal: bool,
    bom: Bom,
    ends: Vec<usize>,
    cap_style: u8,
    rng: Rng,
}

fn new_decoder(encoding: &'static Encoding, bom: Bom) -> Decoder {
    match bom {
        Bom::None => encoding.new_decoder_without_bom_handling(),
        Bom::Sniff => encoding.new_decoder(),
        Bom::Remove => encoding.new_decoder_with_bom_removal(),
    }
}

/// The output that proves progress: one character always fits.
fn min_progress(form: Form) -> usize {
    if form == Form::Utf16 { 2 } else { 4 }
}

/// Output collected since the last error.
#[derive(Default)]
struct Out {
    u8: Vec<u8>,
    u16: Vec<u16>,
}

impl Out {
    /// The collected text (which must be whole characters); empties the buffers.
    fn take(&mut self, form: Form) -> String {
        let text = if form == Form::Utf16 {
            String::from_utf16(&self.u16).expect("UTF-16 output")
        } else {
            String::from_utf8(self.u8.clone()).expect("UTF-8 output")
        };
        self.u8.clear();
        self.u16.clear();
        text
    }
}

/// One call into a fresh buffer of `cap` filled with canary `canary`; returns the status,
/// bytes read, units written and had_errors, and appends the output to `out`.
fn call(
    decoder: &mut Decoder,
    s: &Setup<'_>,
    (src, last): (&[u8], bool),
    cap: usize,
    canary: usize,
    out: &mut Out,
) -> (Status, usize, usize, bool) {
    match s.form {
        Form::Utf8 => {
            let mut buf = vec![CANARY_U8[canary]; cap];
            let (status, read, written, had) = if s.fatal {
                let (r, read, written) = decoder.decode_to_utf8_without_replacement(src, &mut buf, last);
                (Status::from(r), read, written, false)
            } else {
                let (r, read, written, had) = decoder.decode_to_utf8(src, &mut buf, last);
                (Status::from(r), read, written, had)
            };
            assert_tail(&buf, written, CANARY_U8[canary], "decode_to_utf8");
            assert!(
                std::str::from_utf8(&buf[..written]).is_ok(),
                "decode_to_utf8 wrote a partial character: {:02X?}",
                &buf[..written]
            );
            out.u8.extend_from_slice(&buf[..written]);
            (status, read, written, had)
        }
        Form::Utf16 => {
            let mut buf = vec![CANARY_U16[canary]; cap];
            let (status, read, written, had) = if s.fatal {
                let (r, read, written) = decoder.decode_to_utf16_without_replacement(src, &mut buf, last);
                (Status::from(r), read, written, false)
            } else {
                let (r, read, written, had) = decoder.decode_to_utf16(src, &mut buf, last);
                (Status::from(r), read, written, had)
            };
            assert_tail(&buf, written, CANARY_U16[canary], "decode_to_utf16");
            assert!(
                String::from_utf16(&buf[..written]).is_ok(),
                "decode_to_utf16 wrote a lone surrogate: {:04X?}",
                &buf[..written]
            );
            out.u16.extend_from_slice(&buf[..written]);
            (status, read, written, had)
        }
        Form::Str => {
            let mut text = String::from_utf8(vec![CANARY_STR[canary]; cap]).expect("ASCII canary");
            let (status, read, written, had) = if s.fatal {
                let (r, read, written) = decoder.decode_to_str_without_replacement(src, &mut text, last);
                (Status::from(r), read, written, false)
            } else {
                let (r, read, written, had) = decoder.decode_to_str(src, &mut text, last);
                (Status::from(r), read, written, had)
            };
            assert_tail(text.as_bytes(), written, CANARY_STR[canary], "decode_to_str");
            assert!(
                text.is_char_boundary(written),
                "decode_to_str: {written} is not a char boundary"
            );
            out.u8.extend_from_slice(&text.as_bytes()[..written]);
            (status, read, written, had)
        }
        Form::String => {
            let mut text = String::with_capacity(cap);
            let room = text.capacity();
            let (status, read, had) = if s.fatal {
                let (r, read) = decoder.decode_to_string_without_replacement(src, &mut text, last);
                (Status::from(r), read, false)
            } else {
                let (r, read, had) = decoder.decode_to_string(src, &mut text, last);
                (Status::from(r), read, had)
            };
            assert_eq!(text.capacity(), room, "decode_to_string reallocated");
            // The `String` paths write spare capacity without validating it (the decoders'
            // invariant: whole UTF-8 characters only); validated again here.
            revalidate(&text, "decode_to_string");
            out.u8.extend_from_slice(text.as_bytes());
            (status, read, text.len(), had)
        }
    }
}

/// The streaming decode with output canary `canary`.
fn run(s: &Setup<'_>, canary: usize) -> Outcome {
    let mut rng = s.rng.clone();
    let mut caps = Caps::new(s.cap_style);
    let mut decoder = new_decoder(s.encoding, s.bom);
    let mut out = Out::default();
    let mut outcome = Outcome {
        calls: Vec::new(),
        segments: Vec::new(),
        errors: Vec::new(),
        had_errors: false,
        encoding: s.encoding,
    };
    let budget = 64 * (s.bytes.len() + s.ends.len() + 8);
    let (mut start, mut total) = (0, 0);
    for (i, &end) in s.ends.iter().enumerate() {
        let chunk = &s.bytes[start..end];
        start = end;
        let last = i + 1 == s.ends.len();
        let mut pos = 0;
        loop {
            assert!(
                outcome.calls.len() < budget,
                "no termination after {budget} calls"
            );
            let rest = &chunk[pos..];
            let bound = match (s.form, s.fatal) {
                (Form::Utf16, _) => decoder.max_utf16_buffer_length(rest.len()),
                (_, false) => decoder.max_utf8_buffer_length(rest.len()),
                (_, true) => decoder.max_utf8_buffer_length_without_replacement(rest.len()),
            };
            let bound = bound.expect("no overflow for fuzz-sized inputs");
            let cap = caps.next(&mut rng, bound);
            let (status, read, written, had) = call(&mut decoder, s, (rest, last), cap, canary, &mut out);
            assert!(
                read <= rest.len() && written <= cap,
                "read {read} of {}, wrote {written} into {cap}",
                rest.len()
            );
            outcome.calls.push((status, read, written, had));
            outcome.had_errors |= had;
            pos += read;
            total += read;
            if cap >= bound {
                assert_ne!(
                    status,
                    Status::OutputFull,
                    "OutputFull with a buffer of {cap} >= the max_*_buffer_length bound {bound}"
                );
            }
            match status {
                Status::Malformed(_, after) => {
                    assert!(s.fatal, "Malformed from a replacing call");
                    let after = usize::from(after);
                    assert!(after <= total, "Malformed(_, {after}) after {total} bytes read");
                    outcome.errors.push(total - after);
                    outcome.segments.push(out.take(s.form));
                    caps.progressed();
                }
                Status::InputEmpty => {
                    assert_eq!(pos, chunk.len(), "InputEmpty before the end of the input");
                    caps.progressed();
                    break;
                }
                Status::OutputFull if read == 0 && written == 0 => {
                    assert!(
                        cap < min_progress(s.form),
                        "no progress with an output buffer of {cap}"
                    );
                    caps.stalled(cap);
                }
                Status::OutputFull => caps.progressed(),
            }
        }
    }
    outcome.segments.push(out.take(s.form));
    outcome.encoding = decoder.encoding();
    outcome
}

/// The standard's bytes-to-text for this BOM handling: the encoding used and the decode.
fn reference(encoding: &'static Encoding, bytes: &[u8], bom: Bom) -> (&'static Encoding, SpecDecode) {
    let sniffed = spec::bom_sniff(&IoQueue::from_items(bytes.iter().copied()));
    let bom_encoding = match (bom, sniffed) {
        (Bom::Sniff, Some(found)) => Some(found),
        (Bom::Remove, Some(found)) if found == encoding => Some(found),
        _ => None,
    };
    match bom_encoding {
        Some(found) => {
            // "Read three bytes from ioQueue, if BOMEncoding is UTF-8; otherwise read two."
            let skip = if found == UTF_8 { 3 } else { 2 };
            (found, SpecDecode::run(found, &bytes[skip..], skip))
        }
        None => (encoding, SpecDecode::run(encoding, bytes, 0)),
    }
}

fn check(data: &[u8]) {
    let input = Input::parse(data);
    let h = input.header;
    let bytes = input.payload;
    let encoding = encoding(h[0]);
    let level = force_level(h[1]);
    let form = [Form::Utf8, Form::Utf16, Form::Str, Form::String][usize::from(h[2] & 3)];
    let fatal = h[2] & 4 != 0;
    let bom = [Bom::None, Bom::Sniff, Bom::Remove, Bom::None][usize::from(h[2] >> 3 & 3)];
    let mut rng = input.rng();
    let ends = chunk_ends(&mut rng, bytes.len(), h[3], |e| e);
    let setup = Setup {
        encoding,
        bytes,
        form,
        fatal,
        bom,
        ends,
        cap_style: h[3],
        rng,
    };
    let what = format!(
        "{} at {level}, {form:?}, fatal {fatal}, BOM {bom:?}, chunk ends {:?}",
        encoding.name(),
        setup.ends
    );
    let got = twice(&what, |canary| run(&setup, canary));
    let (used, expect) = reference(encoding, bytes, bom);
    assert_eq!(got.encoding, used, "{what}: the encoding after BOM handling");
    if fatal {
        assert_eq!(
            (&got.errors, &got.segments),
            (&expect.errors, &expect.segments),
            "{what}: Malformed positions and text between them"
        );
    } else {
        assert_eq!(got.segments.len(), 1);
        assert_eq!(got.segments[0], expect.replaced(), "{what}: replaced text");
        assert_eq!(
            got.had_errors,
            !expect.errors.is_empty(),
            "{what}: had_errors, the standard's errors at {:?}",
            expect.errors
        );
    }

    // The one-shot functions, at the same level, against the same reference.
    let had_errors = !expect.errors.is_empty();
    let replaced = expect.replaced();
    match bom {
        Bom::None => {
            let (text, had) = encoding.decode_without_bom_handling(bytes);
            revalidate(&text, "decode_without_bom_handling");
            assert_eq!((&*text, had), (replaced.as_str(), had_errors), "{what}: one-shot");
            let strict = encoding.decode_without_bom_handling_and_without_replacement(bytes);
            if let Some(text) = &strict {
                revalidate(text, "decode_without_bom_handling_and_without_replacement");
            }
            assert_eq!(
                strict.as_deref(),
                (!had_errors).then_some(replaced.as_str()),
                "{what}: one-shot without replacement"
            );
            // Sound: what it calls Latin-1 compatible decodes to the same code points.
            let fresh = encoding.new_decoder_without_bom_handling();
            if let Some(n) = fresh.latin1_byte_compatible_up_to(bytes) {
                let latin1: String = bytes[..n].iter().map(|&b| char::from(b)).collect();
                assert!(
                    replaced.starts_with(&latin1),
                    "{what}: latin1_byte_compatible_up_to = {n}"
                );
            }
        }
        Bom::Sniff => {
            let (text, used_by_decode, had) = encoding.decode(bytes);
            revalidate(&text, "decode");
            assert_eq!(
                (&*text, used_by_decode, had),
                (replaced.as_str(), used, had_errors),
                "{what}: one-shot decode"
            );
            assert_eq!(
                spec::decode_bytes(bytes, encoding),
                replaced,
                "the standard's decode hook"
            );
            assert_eq!(
                encoding.new_decoder().latin1_byte_compatible_up_to(bytes),
                None,
                "{what}: a decoder looking for a BOM is not in a neutral state"
            );
        }
        Bom::Remove => {
            let (text, had) = encoding.decode_with_bom_removal(bytes);
            revalidate(&text, "decode_with_bom_removal");
            assert_eq!(
                (&*text, had),
                (replaced.as_str(), had_errors),
                "{what}: one-shot decode_with_bom_removal"
            );
        }
    }
    let valid_up_to = std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), |_| bytes.len());
    assert_eq!(
        Encoding::utf8_valid_up_to(bytes),
        valid_up_to,
        "utf8_valid_up_to at {level}"
    );
    let ascii = bytes.iter().position(|b| !b.is_ascii()).unwrap_or(bytes.len());
    assert_eq!(
        Encoding::ascii_valid_up_to(bytes),
        ascii,
        "ascii_valid_up_to at {level}"
    );
}

/// Checks with `std` that what a `str`/`String`/`Cow` call produced is UTF-8: simdenc builds
/// them without validating (`from_utf8_unchecked`, `set_len` over what the decoder wrote).
fn revalidate(text: &str, call: &str) {
    assert!(
        std::str::from_utf8(text.as_bytes()).is_ok(),
        "{call}: output is not UTF-8"
    );
}

fuzz_target!(|data: &[u8]| check(data));
