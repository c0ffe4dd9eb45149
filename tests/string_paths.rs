//! Every `String`, `&mut str`, `Cow` and `Vec` entry point against the slice API it is built
//! on, call by call, at every SIMD level this CPU supports:
//!
//! 1. `Decoder::decode_to_string{,_without_replacement}` against `decode_to_utf8*` with a
//!    slice of the same spare room: the String holds text already, its spare capacity is
//!    exactly `max_utf8_buffer_length`, 0..=8 bytes (the caller reserving more after each
//!    `OutputFull`), or more than needed; input in random chunks.
//! 2. `Decoder::decode_to_str{,_without_replacement}` over text of ASCII and multi-byte
//!    characters: the result, the text, and the bytes after `written` (unchanged, except the
//!    continuation bytes right after it, which become 0 so that the str stays valid).
//! 3. `Encoding::decode*` against a streaming decoder, with and without BOMs, and whether the
//!    `Cow` borrows the input exactly when nothing needs converting.
//! 4. `Encoding::encode` and `Encoder::encode_from_utf8_to_vec{,_without_replacement}` against
//!    `encode_from_utf8*`, as in 1.
//! 5. `text::TextDecoder`, `TextDecoderStream`, `TextEncoder`, `TextEncoderStream`.
//! 6. `io::DecodeReader`: `read_to_string`, small `read`s and `fill_str`.
//!
//! Besides, every case's results at each level must equal those at the first level (the
//! inputs are the same at every level). `cpu::force` is global, so the levels are iterated
//! inside one test. Set `SIMDENC_QUICK_TESTS` for fewer inputs.
//!
//! Per call, a `String` or `Vec` must keep its capacity and its existing content, grow by
//! exactly what the slice call wrote, with the same bytes, and (`String`) hold valid UTF-8;
//! slices must be untouched past `written`. What a `String` or `Vec` holds in its spare
//! capacity after the call is not observable in safe code and not checked.

mod common;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::collections::hash_map::DefaultHasher;
use std::fmt;
use std::hash::Hasher;
use std::io::{BufRead, ErrorKind, Read};
use std::ops::Range;

use common::{Rng, random_splits};
use simdenc::cpu::{self, Level};
use simdenc::io::{Bom, DecodeOptions, DecodeReader, MalformedError, OnMalformed};
use simdenc::spec::{self, ErrorMode};
use simdenc::text::{
    EncodeIntoResult, TextDecoder, TextDecoderOptions, TextDecoderStream, TextEncoder, TextEncoderStream,
};
use simdenc::{
    CoderResult, Decoder, DecoderResult, EncoderResult, Encoding, ISO_2022_JP, REPLACEMENT, UTF_8, UTF_16BE,
    UTF_16LE,
};

// ---------------------------------------------------------------------------------------------
// Reporting

/// What is being checked, for assertion messages: level, encoding, call, input.
struct Case<'a> {
    level: Level,
    enc: &'static Encoding,
    call: &'static str,
    input: &'a [u8],
    detail: String,
}

impl Case<'_> {
    /// The description without the level (the key of the cross-level comparison).
    fn key(&self) -> String {
        format!(
            "{}, {} ({}), input {}",
            self.enc.name(),
            self.call,
            self.detail,
            hex(self.input)
        )
    }
}

impl fmt::Display for Case<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {}, {}", self.level, self.key())
    }
}

/// `bytes` in hex, the first 48 of them.
fn hex(bytes: &[u8]) -> String {
    const SHOWN: usize = 48;
    let shown: Vec<String> = bytes.iter().take(SHOWN).map(|b| format!("{b:02X}")).collect();
    let more = if bytes.len() > SHOWN { " ..." } else { "" };
    format!("[{} bytes: {}{more}]", bytes.len(), shown.join(" "))
}

/// Where two byte strings first differ, with a window of each, or `None` if they are equal.
fn first_difference(got: &[u8], want: &[u8]) -> Option<String> {
    if got == want {
        return None;
    }
    let at = got.iter().zip(want).take_while(|(a, b)| a == b).count();
    let from = at.saturating_sub(8);
    Some(format!(
        "lengths got {} want {}, first difference at byte {at}: got {} want {}",
        got.len(),
        want.len(),
        hex(&got[from..got.len().min(at + 24)]),
        hex(&want[from..want.len().min(at + 24)])
    ))
}

macro_rules! ensure {
    ($case:expr, $cond:expr, $($what:tt)+) => {
        if !$cond {
            panic!("{}\n  {}", $case, format_args!($($what)+));
        }
    };
}

macro_rules! ensure_eq {
    ($case:expr, $got:expr, $want:expr, $($what:tt)+) => {{
        let (got, want) = (&$got, &$want);
        if got != want {
            panic!("{}\n  {}\n  got:  {:?}\n  want: {:?}", $case, format_args!($($what)+), got, want);
        }
    }};
}

macro_rules! ensure_bytes {
    ($case:expr, $got:expr, $want:expr, $($what:tt)+) => {
        if let Some(difference) = first_difference($got, $want) {
            panic!("{}\n  {}: {}", $case, format_args!($($what)+), difference);
        }
    };
}

/// A status of any of the three result types, comparable and hashable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Coder(CoderResult),
    Decoder(DecoderResult),
    Encoder(EncoderResult),
}

impl Status {
    fn code(self) -> u64 {
        match self {
            Status::Coder(CoderResult::InputEmpty) => 1,
            Status::Coder(CoderResult::OutputFull) => 2,
            Status::Decoder(DecoderResult::InputEmpty) => 3,
            Status::Decoder(DecoderResult::OutputFull) => 4,
            Status::Decoder(DecoderResult::Malformed(bad, after)) => {
                5 | u64::from(bad) << 8 | u64::from(after) << 16
            }
            Status::Encoder(EncoderResult::InputEmpty) => 6,
            Status::Encoder(EncoderResult::OutputFull) => 7,
            Status::Encoder(EncoderResult::Unmappable(c)) => 8 | u64::from(c) << 8,
        }
    }
    fn input_empty(self) -> bool {
        matches!(
            self,
            Status::Coder(CoderResult::InputEmpty)
                | Status::Decoder(DecoderResult::InputEmpty)
                | Status::Encoder(EncoderResult::InputEmpty)
        )
    }
    fn output_full(self) -> bool {
        matches!(
            self,
            Status::Coder(CoderResult::OutputFull)
                | Status::Decoder(DecoderResult::OutputFull)
                | Status::Encoder(EncoderResult::OutputFull)
        )
    }
}

/// A digest of everything a case produced, for the comparison between levels.
struct Digest(DefaultHasher);

impl Digest {
    fn new() -> Digest {
        Digest(DefaultHasher::new())
    }
    fn n(&mut self, n: u64) {
        self.0.write_u64(n);
    }
    fn call(&mut self, status: Status, read: usize, written: usize, flag: bool) {
        self.n(status.code());
        self.n(read as u64);
        self.n(written as u64);
        self.n(u64::from(flag));
    }
    fn bytes(&mut self, bytes: &[u8]) {
        self.n(bytes.len() as u64);
        self.0.write(bytes);
    }
    fn done(self) -> u64 {
        self.0.finish()
    }
}

/// The digests of the first level, and counts of the cases checked per call.
struct Record {
    first: Option<Level>,
    reference: Vec<(String, u64)>,
    at: usize,
    cases: BTreeMap<&'static str, usize>,
}

impl Record {
    fn new() -> Record {
        Record {
            first: None,
            reference: Vec::new(),
            at: 0,
            cases: BTreeMap::new(),
        }
    }
    fn start_level(&mut self, level: Level) {
        self.first.get_or_insert(level);
        self.at = 0;
    }
    fn case(&mut self, case: &Case<'_>, digest: u64) {
        *self.cases.entry(case.call).or_default() += 1;
        if self.first == Some(case.level) {
            self.reference.push((case.key(), digest));
            return;
        }
        let (key, expected) = &self.reference[self.at];
        self.at += 1;
        assert_eq!(
            &case.key(),
            key,
            "level {}: the cases ran in another order",
            case.level
        );
        ensure!(
            case,
            digest == *expected,
            "results differ from level {}'s (same input, same call sequence)",
            self.first.unwrap_or(case.level)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Inputs

/// Bytes that mean something in some encoding: leads, trails, escapes, ASCII.
const INTERESTING: [u8; 24] = [
    0x00, 0x0E, 0x0F, 0x1B, 0x24, 0x28, 0x40, 0x5C, 0x7E, 0x7F, 0x80, 0x81, 0x8E, 0x8F, 0xA0, 0xA1, 0xC0,
    0xC2, 0xDF, 0xE0, 0xED, 0xF0, 0xF4, 0xFF,
];

/// Characters that some encoder maps specially, cannot encode, or must escape.
const SPECIALS: [char; 20] = [
    '€',
    '¥',
    '‾',
    '−',
    '\u{0}',
    '\u{FEFF}',
    '\u{FFFD}',
    '\u{E5E5}',
    '\u{1B}',
    '\u{E}',
    '\u{F}',
    '\u{80}',
    '\u{7F}',
    'ß',
    'ｱ',
    '〜',
    '—',
    '\u{FFFF}',
    '\u{10FFFF}',
    '\u{2028}',
];

const BOMS: [&[u8]; 5] = [b"", b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xFE\xFF", b"\xEF\xBB"];

/// The characters a single-byte encoding has above ASCII (empty for the others).
fn repertoire(enc: &'static Encoding) -> Vec<char> {
    if !enc.is_single_byte() {
        return Vec::new();
    }
    (0x80..=0xFFu8)
        .filter_map(|b| {
            let run = spec::run_decoder(enc, &[b], ErrorMode::Fatal);
            run.error.is_none().then(|| run.output.chars().next()).flatten()
        })
        .collect()
}

/// A character of class `class` (0..=12).
fn char_of(rng: &mut Rng, class: usize, repertoire: &[char]) -> char {
    fn pick(rng: &mut Rng, lo: u32, n: usize) -> char {
        char::from_u32(lo + rng.below(n) as u32).unwrap_or('?')
    }
    match class {
        0..=3 => pick(rng, 0x20, 95),
        4 => pick(rng, 0xA0, 0x1B0),
        5 => pick(rng, 0x391, 0x170),
        6 => pick(rng, 0x4E00, 0x5200),
        7 => pick(rng, 0x3041, 0xBE),
        8 => pick(rng, 0xAC00, 0x2BA4),
        9 => pick(rng, 0xFF61, 0x3F),
        10 if lo_bit(rng) => pick(rng, 0x1F600, 0x50),
        10 => pick(rng, 0x20000, 0xA6E0),
        11 => SPECIALS[rng.below(SPECIALS.len())],
        _ => match repertoire.len() {
            0 => pick(rng, 0x400, 0x100),
            n => repertoire[rng.below(n)],
        },
    }
}

fn lo_bit(rng: &mut Rng) -> bool {
    rng.next() & 1 == 0
}

/// Text of about `target` UTF-8 bytes: characters of many scripts, runs of ASCII (the SIMD
/// kernels' fast path) and runs of one script; sometimes ASCII only.
fn random_text(rng: &mut Rng, target: usize, repertoire: &[char]) -> String {
    let mut text = String::new();
    let ascii_only = rng.below(6) == 0;
    while text.len() < target {
        if ascii_only || rng.below(20) == 0 {
            for _ in 0..1 + rng.below(if ascii_only { target } else { 150 }) {
                text.push(char::from(
                    b"abcdefghij <>/=\"\nklmnopqrstuvwxyz0123456789."[rng.below(44)],
                ));
            }
        } else if rng.below(20) == 0 {
            let class = 4 + rng.below(9);
            for _ in 0..16 + rng.below(120) {
                text.push(char_of(rng, class, repertoire));
            }
        } else {
            let class = rng.below(13);
            text.push(char_of(rng, class, repertoire));
        }
    }
    text
}

/// `text` in `enc` (html mode: unmappable characters as `&#N;`).
fn encode_for(enc: &'static Encoding, text: &str) -> Vec<u8> {
    if enc == UTF_16LE {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    } else if enc == UTF_16BE {
        text.encode_utf16().flat_map(u16::to_be_bytes).collect()
    } else if enc == REPLACEMENT {
        text.as_bytes().to_vec()
    } else {
        spec::run_encoder(enc, text, ErrorMode::Html).output
    }
}

/// Input lengths around the SIMD kernels' block sizes, and long ones.
fn targets(rng: &mut Rng, quick: bool) -> Vec<usize> {
    let mut targets = if quick {
        vec![0, 5, 16, 33, 64, 129]
    } else {
        vec![
            0, 1, 3, 7, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 100, 127, 128, 129,
        ]
    };
    for _ in 0..if quick { 2 } else { 16 } {
        targets.push(rng.below(600));
    }
    targets.push(1000 + rng.below(1000));
    if !quick {
        targets.push(2500 + rng.below(1500));
        targets.push(4000 + rng.below(4000));
    }
    targets
}

/// Inputs for `enc`'s decoder: its encoded text, mostly with interesting and random bytes
/// inserted, cut or padded to the target length, sometimes truncated or after a BOM.
fn decoder_inputs(rng: &mut Rng, enc: &'static Encoding, quick: bool) -> Vec<Vec<u8>> {
    let repertoire = repertoire(enc);
    let targets = targets(rng, quick);
    targets
        .into_iter()
        .map(|target| {
            let text = random_text(rng, target, &repertoire);
            let mut bytes = encode_for(enc, &text);
            // A quarter of the inputs stay clean (long valid runs; borrowed one-shot decodes).
            let errors = if rng.below(4) == 0 {
                0
            } else {
                1 + rng.below(3) + bytes.len() / 400
            };
            for _ in 0..errors {
                let at = rng.below(bytes.len() + 1);
                let b = if lo_bit(rng) {
                    INTERESTING[rng.below(INTERESTING.len())]
                } else {
                    rng.next() as u8
                };
                bytes.insert(at, b);
            }
            match rng.below(4) {
                0 | 1 => bytes.resize(target, b'.'),
                2 => bytes.truncate(rng.below(bytes.len() + 1)),
                _ => {}
            }
            if rng.below(6) == 0 {
                bytes.splice(0..0, BOMS[1 + rng.below(4)].iter().copied());
            }
            bytes
        })
        .collect()
}

/// Texts for `enc`'s encoder (mappable, unmappable, astral, ASCII runs).
fn encoder_inputs(rng: &mut Rng, enc: &'static Encoding, quick: bool) -> Vec<String> {
    let repertoire = repertoire(enc);
    let targets = targets(rng, quick);
    targets
        .into_iter()
        .map(|target| random_text(rng, target, &repertoire))
        .collect()
}

/// The ranges of `input` that `splits` cut it into (as `common`'s drivers do).
fn byte_chunks(len: usize, splits: &[usize]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for &s in splits.iter().chain(std::iter::once(&len)) {
        let end = s.clamp(start, len);
        out.push(start..end);
        start = end;
    }
    out
}

/// Random split points of `text` at character boundaries (byte offsets).
fn char_splits(rng: &mut Rng, text: &str) -> Vec<usize> {
    let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
    random_splits(rng, bounds.len() - 1)
        .into_iter()
        .map(|i| bounds[i])
        .collect()
}

/// A deterministic generator for case `n` of part `part` of encoding `e`, the same at every
/// level.
fn case_rng(part: u64, e: usize, n: usize) -> Rng {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (part << 48) ^ ((e as u64) << 32) ^ n as u64);
    for _ in 0..4 {
        rng.next();
    }
    rng
}

// ---------------------------------------------------------------------------------------------
// Decoders, streaming

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BomMode {
    Sniff,
    Remove,
    Keep,
}

fn new_decoder(enc: &'static Encoding, bom: BomMode) -> Decoder {
    match bom {
        BomMode::Sniff => enc.new_decoder(),
        BomMode::Remove => enc.new_decoder_with_bom_removal(),
        BomMode::Keep => enc.new_decoder_without_bom_handling(),
    }
}

/// How much output room each call gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Room {
    /// Exactly the `max_*_buffer_length` bound for the rest of the chunk.
    Exact,
    /// 0..=8 bytes, 4 more after each call that made no progress (a caller reserving more).
    Small,
    /// More than the bound.
    Ample,
}

fn room(mode: Room, bound: usize, grow: usize, rng: &mut Rng) -> usize {
    match mode {
        Room::Exact => bound + grow,
        Room::Small if rng.below(12) == 0 => grow,
        Room::Small => 1 + rng.below(8) + grow,
        Room::Ample => bound + 1 + rng.below(64) + grow,
    }
}

/// Sets the spare capacity of `v` to `room` bytes (reallocating; `Vec` gives exactly that,
/// but only at least is promised: callers use what there is).
fn set_spare(v: &mut Vec<u8>, room: usize) {
    let want = v.len() + room;
    if v.capacity() > want {
        v.shrink_to(want);
    }
    if v.capacity() < want {
        v.reserve_exact(room);
    }
}

fn set_spare_string(s: &mut String, room: usize) {
    let want = s.len() + room;
    if s.capacity() > want {
        s.shrink_to(want);
    }
    if s.capacity() < want {
        s.reserve_exact(room);
    }
}

/// One call to the slice API.
fn slice_decode(
    dec: &mut Decoder,
    src: &[u8],
    dst: &mut [u8],
    last: bool,
    fatal: bool,
) -> (Status, usize, usize, bool) {
    if fatal {
        let (r, read, written) = dec.decode_to_utf8_without_replacement(src, dst, last);
        (Status::Decoder(r), read, written, false)
    } else {
        let (r, read, written, had_errors) = dec.decode_to_utf8(src, dst, last);
        (Status::Coder(r), read, written, had_errors)
    }
}

fn decode_bound(dec: &Decoder, len: usize, fatal: bool) -> Option<usize> {
    if fatal {
        dec.max_utf8_buffer_length_without_replacement(len)
    } else {
        dec.max_utf8_buffer_length(len)
    }
}

/// Part 1: `decode_to_string*` in lockstep with `decode_to_utf8*` into a slice as long as the
/// String's spare capacity. Returns the digest.
fn decode_to_string_vs_slice(
    case: &Case<'_>,
    rng: &mut Rng,
    splits: &[usize],
    bom: BomMode,
    fatal: bool,
    mode: Room,
    prefix: &str,
) -> u64 {
    let input = case.input;
    let mut by_slice = new_decoder(case.enc, bom);
    let mut by_string = new_decoder(case.enc, bom);
    let mut digest = Digest::new();
    let mut s = String::from(prefix);
    let mut moved_out = String::new();
    let mut expected: Vec<u8> = Vec::new();
    let mut buf: Vec<u8> = Vec::new();
    let mut calls = 0usize;
    let chunks = byte_chunks(input.len(), splits);
    for (ci, range) in chunks.iter().enumerate() {
        let chunk = &input[range.clone()];
        let last = ci + 1 == chunks.len();
        let (mut pos, mut grow, mut stalls) = (0, 0, 0);
        loop {
            calls += 1;
            let rest = &chunk[pos..];
            let at = range.start + pos;
            let bound = decode_bound(&by_slice, rest.len(), fatal).expect("bound");
            let bound_string = decode_bound(&by_string, rest.len(), fatal);
            ensure_eq!(
                case,
                bound_string,
                Some(bound),
                "call {calls} at byte {at}: bounds differ"
            );
            // The caller empties the String now and then; it always keeps the prefix.
            if s.len() > prefix.len() + 256 {
                moved_out.push_str(&s[prefix.len()..]);
                s.truncate(prefix.len());
            }
            set_spare_string(&mut s, room(mode, bound, grow, rng));
            let spare = s.capacity() - s.len();
            let sentinel = if calls.is_multiple_of(2) { 0xA5 } else { 0x00 };
            buf.clear();
            buf.resize(spare, sentinel);
            let before = s.clone();
            let capacity = s.capacity();

            let (status, read, written, had_errors) =
                slice_decode(&mut by_slice, rest, &mut buf, last, fatal);
            let (s_status, s_read, s_had_errors) = if fatal {
                let (r, read) = by_string.decode_to_string_without_replacement(rest, &mut s, last);
                (Status::Decoder(r), read, false)
            } else {
                let (r, read, had_errors) = by_string.decode_to_string(rest, &mut s, last);
                (Status::Coder(r), read, had_errors)
            };
            ensure!(
                case,
                read <= rest.len() && written <= spare,
                "slice API out of bounds: read {read} of {}, wrote {written} of {spare} (call {calls} at byte {at})",
                rest.len()
            );
            ensure!(
                case,
                buf[written..].iter().all(|&b| b == sentinel),
                "decode_to_utf8 wrote past `written` {written} (call {calls} at byte {at}, spare {spare})"
            );
            ensure_eq!(
                case,
                s.capacity(),
                capacity,
                "the String was reallocated (call {calls} at byte {at})"
            );
            ensure!(
                case,
                std::str::from_utf8(s.as_bytes()).is_ok(),
                "the String holds invalid UTF-8 after call {calls} at byte {at}: {}",
                hex(&s.as_bytes()[before.len().min(s.len())..])
            );
            ensure!(
                case,
                s.len() >= before.len(),
                "the String got shorter: {} -> {} (call {calls} at byte {at})",
                before.len(),
                s.len()
            );
            ensure_bytes!(
                case,
                &s.as_bytes()[..before.len()],
                before.as_bytes(),
                "the String's existing content changed (call {calls} at byte {at})"
            );
            ensure_eq!(
                case,
                (s_status, s_read, s.len() - before.len(), s_had_errors),
                (status, read, written, had_errors),
                "(status, read, written, had_errors) of call {calls} at byte {at}, chunk {ci} of {}, last {last}, spare {spare}, bound {bound}",
                chunks.len()
            );
            ensure_bytes!(
                case,
                &s.as_bytes()[before.len()..],
                &buf[..written],
                "text appended by call {calls} at byte {at} (spare {spare})"
            );
            if mode != Room::Small {
                ensure!(
                    case,
                    !status.output_full(),
                    "OutputFull with room {spare} >= max_utf8_buffer_length {bound} (call {calls} at byte {at})"
                );
            }
            ensure_eq!(
                case,
                by_string.encoding(),
                by_slice.encoding(),
                "decoder encoding after call {calls}"
            );
            digest.call(status, read, written, had_errors);
            expected.extend_from_slice(&buf[..written]);
            pos += read;
            if status.input_empty() {
                ensure_eq!(case, pos, chunk.len(), "InputEmpty before the end of chunk {ci}");
                break;
            }
            if status.output_full() && read == 0 && written == 0 {
                stalls += 1;
                grow += 4;
                ensure!(
                    case,
                    stalls < 4,
                    "no progress with {spare} bytes (call {calls} at byte {at})"
                );
            } else if status.output_full() {
                stalls = 0;
                grow = 0;
            }
        }
    }
    ensure!(case, s.starts_with(prefix), "the prefix is gone");
    moved_out.push_str(&s[prefix.len()..]);
    ensure!(
        case,
        std::str::from_utf8(&expected).is_ok(),
        "the slice API wrote invalid UTF-8"
    );
    ensure_bytes!(case, moved_out.as_bytes(), &expected, "the whole text");
    digest.bytes(&expected);
    digest.bytes(by_slice.encoding().name().as_bytes());
    digest.done()
}

/// Text of exactly `len` bytes: ASCII (style 0), "é" and "日" (1), or a mix with astral
/// characters (2); the last bytes are ASCII where a character would not fit.
fn filler(rng: &mut Rng, style: usize, len: usize) -> String {
    let palette: &[char] = match style {
        0 => &['a', 'b', 'c', 'x', 'y', 'z'],
        1 => &['é', '日'],
        _ => &['a', 'é', '日', '😀', 'ж', ' '],
    };
    let mut s = String::with_capacity(len);
    let mut i = rng.below(palette.len());
    while s.len() < len {
        let c = palette[i % palette.len()];
        i += 1 + usize::from(style == 2 && lo_bit(rng));
        if s.len() + c.len_utf8() <= len {
            s.push(c);
        } else {
            s.push('_');
        }
    }
    s
}

/// Part 2: `decode_to_str*` in lockstep with `decode_to_utf8*`, into text already there.
fn decode_to_str_vs_slice(
    case: &Case<'_>,
    rng: &mut Rng,
    splits: &[usize],
    bom: BomMode,
    fatal: bool,
    mode: Room,
    style: usize,
) -> u64 {
    let input = case.input;
    let mut by_slice = new_decoder(case.enc, bom);
    let mut by_str = new_decoder(case.enc, bom);
    let mut digest = Digest::new();
    let mut buf: Vec<u8> = Vec::new();
    let mut calls = 0usize;
    let chunks = byte_chunks(input.len(), splits);
    for (ci, range) in chunks.iter().enumerate() {
        let chunk = &input[range.clone()];
        let last = ci + 1 == chunks.len();
        let (mut pos, mut grow, mut stalls) = (0, 0, 0);
        loop {
            calls += 1;
            let rest = &chunk[pos..];
            let at = range.start + pos;
            let bound = decode_bound(&by_slice, rest.len(), fatal).expect("bound");
            let len = room(mode, bound, grow, rng);
            let mut text = filler(rng, style, len);
            let original = text.clone().into_bytes();
            let sentinel = if calls.is_multiple_of(2) { 0xA5 } else { 0x00 };
            buf.clear();
            buf.resize(len, sentinel);

            let (status, read, written, had_errors) =
                slice_decode(&mut by_slice, rest, &mut buf, last, fatal);
            let got = if fatal {
                let (r, read, written) =
                    by_str.decode_to_str_without_replacement(rest, text.as_mut_str(), last);
                (Status::Decoder(r), read, written, false)
            } else {
                let (r, read, written, had_errors) = by_str.decode_to_str(rest, text.as_mut_str(), last);
                (Status::Coder(r), read, written, had_errors)
            };
            ensure_eq!(
                case,
                got,
                (status, read, written, had_errors),
                "(status, read, written, had_errors) of call {calls} at byte {at}, chunk {ci}, last {last}, str of {len} bytes, bound {bound}"
            );
            ensure!(
                case,
                std::str::from_utf8(text.as_bytes()).is_ok(),
                "the str holds invalid UTF-8 after call {calls} at byte {at}: {}",
                hex(text.as_bytes())
            );
            ensure_eq!(case, text.len(), len, "the str changed length");
            ensure_bytes!(
                case,
                &text.as_bytes()[..written.min(len)],
                &buf[..written],
                "text written by call {calls} at byte {at} (str of {len} bytes)"
            );
            // After `written`: continuation bytes right there become 0, the rest is untouched.
            let mut tail = original[written..].to_vec();
            for b in tail.iter_mut() {
                if *b & 0xC0 != 0x80 {
                    break;
                }
                *b = 0;
            }
            ensure_bytes!(
                case,
                &text.as_bytes()[written..],
                &tail,
                "bytes after `written` {written} (call {calls} at byte {at}, str of {len} bytes, was {})",
                hex(&original[written..])
            );
            digest.call(status, read, written, had_errors);
            digest.bytes(&buf[..written]);
            pos += read;
            if status.input_empty() {
                ensure_eq!(case, pos, chunk.len(), "InputEmpty before the end of chunk {ci}");
                break;
            }
            if mode != Room::Small {
                ensure!(
                    case,
                    !status.output_full(),
                    "OutputFull with a str of {len} >= max_utf8_buffer_length {bound} (call {calls})"
                );
            }
            if status.output_full() && read == 0 && written == 0 {
                stalls += 1;
                grow += 4;
                ensure!(
                    case,
                    stalls < 4,
                    "no progress with {len} bytes (call {calls} at byte {at})"
                );
            } else if status.output_full() {
                stalls = 0;
                grow = 0;
            }
        }
    }
    digest.done()
}

// ---------------------------------------------------------------------------------------------
// Decoders, one-shot

/// The whole of `bytes` through a fresh decoder into one slice of the bound's size:
/// `(text, had_errors)`, or with `fatal` the text before the first error and whether there
/// was one.
fn slice_decode_whole(case: &Case<'_>, dec: &mut Decoder, bytes: &[u8], fatal: bool) -> (String, bool) {
    let mut buf = vec![0u8; decode_bound(dec, bytes.len(), fatal).expect("bound")];
    let (status, read, written, had_errors) = slice_decode(dec, bytes, &mut buf, true, fatal);
    buf.truncate(written);
    ensure!(
        case,
        std::str::from_utf8(&buf).is_ok(),
        "the slice API wrote invalid UTF-8"
    );
    let text = String::from_utf8(buf).unwrap_or_default();
    match status {
        Status::Decoder(DecoderResult::Malformed(..)) => (text, true),
        _ => {
            ensure!(
                case,
                status.input_empty() && read == bytes.len(),
                "reference decode (fatal {fatal}) with max_utf8_buffer_length's room: {status:?}, read {read}"
            );
            (text, had_errors)
        }
    }
}

/// Whether a one-shot decode of `body` (the input after any BOM removed) by `enc` must
/// borrow it (`Some(true)`), must not (`Some(false)`), or may do either (empty input for an
/// encoding that is not ASCII-compatible).
fn must_borrow(enc: &'static Encoding, body: &[u8]) -> Option<bool> {
    if enc == UTF_8 {
        Some(std::str::from_utf8(body).is_ok())
    } else if enc == ISO_2022_JP {
        Some(body.is_ascii() && !body.iter().any(|b| matches!(b, 0x0E | 0x0F | 0x1B)))
    } else if enc.is_ascii_compatible() {
        Some(body.is_ascii())
    } else if body.is_empty() {
        None
    } else {
        Some(false)
    }
}

fn check_cow_str(case: &Case<'_>, call: &str, cow: Cow<'_, str>, body: &[u8], rule: Option<bool>) {
    match cow {
        Cow::Borrowed(text) => {
            ensure!(
                case,
                rule != Some(false),
                "{call}: Cow::Borrowed, but the input needed converting"
            );
            ensure!(
                case,
                body.is_empty() || (text.as_ptr() == body.as_ptr() && text.len() == body.len()),
                "{call}: Cow::Borrowed does not point at the input after the BOM"
            );
        }
        Cow::Owned(_) => ensure!(
            case,
            rule != Some(true),
            "{call}: Cow::Owned, but the input needed no converting"
        ),
    }
}

/// The input after the BOM that the `bom` mode of `enc` removes.
fn after_bom<'a>(enc: &'static Encoding, bytes: &'a [u8], bom: BomMode) -> &'a [u8] {
    match (Encoding::for_bom(bytes), bom) {
        (Some((_, len)), BomMode::Sniff) => &bytes[len..],
        (Some((found, len)), BomMode::Remove) if found == enc => &bytes[len..],
        _ => bytes,
    }
}

/// Part 3: the one-shot decodes against streaming decoders, on `bytes`.
fn one_shot_decodes(case: &Case<'_>) -> u64 {
    let (enc, bytes) = (case.enc, case.input);
    let mut digest = Digest::new();

    let (cow, used, had_errors) = enc.decode(bytes);
    let mut dec = enc.new_decoder();
    let (text, want_errors) = slice_decode_whole(case, &mut dec, bytes, false);
    ensure_eq!(
        case,
        (used.name(), had_errors),
        (dec.encoding().name(), want_errors),
        "decode: (encoding, had_errors) vs new_decoder()"
    );
    ensure_bytes!(
        case,
        cow.as_bytes(),
        text.as_bytes(),
        "decode: text vs new_decoder()"
    );
    let body = after_bom(enc, bytes, BomMode::Sniff);
    digest.bytes(cow.as_bytes());
    digest.bytes(used.name().as_bytes());
    digest.n(u64::from(had_errors));
    check_cow_str(case, "decode", cow, body, must_borrow(used, body));

    let (cow, had_errors) = enc.decode_with_bom_removal(bytes);
    let (text, want_errors) = slice_decode_whole(case, &mut enc.new_decoder_with_bom_removal(), bytes, false);
    ensure_eq!(
        case,
        had_errors,
        want_errors,
        "decode_with_bom_removal: had_errors"
    );
    ensure_bytes!(
        case,
        cow.as_bytes(),
        text.as_bytes(),
        "decode_with_bom_removal: text vs new_decoder_with_bom_removal()"
    );
    let body = after_bom(enc, bytes, BomMode::Remove);
    digest.bytes(cow.as_bytes());
    check_cow_str(case, "decode_with_bom_removal", cow, body, must_borrow(enc, body));

    let (cow, had_errors) = enc.decode_without_bom_handling(bytes);
    let (text, want_errors) =
        slice_decode_whole(case, &mut enc.new_decoder_without_bom_handling(), bytes, false);
    ensure_eq!(
        case,
        had_errors,
        want_errors,
        "decode_without_bom_handling: had_errors"
    );
    ensure_bytes!(
        case,
        cow.as_bytes(),
        text.as_bytes(),
        "decode_without_bom_handling: text vs new_decoder_without_bom_handling()"
    );
    digest.bytes(cow.as_bytes());
    check_cow_str(
        case,
        "decode_without_bom_handling",
        cow,
        bytes,
        must_borrow(enc, bytes),
    );

    let got = enc.decode_without_bom_handling_and_without_replacement(bytes);
    let (text, malformed) =
        slice_decode_whole(case, &mut enc.new_decoder_without_bom_handling(), bytes, true);
    digest.n(u64::from(got.is_some()));
    match got {
        None => ensure!(
            case,
            malformed,
            "decode_without_bom_handling_and_without_replacement: None, but the decoder found no error"
        ),
        Some(cow) => {
            ensure!(
                case,
                !malformed,
                "decode_without_bom_handling_and_without_replacement: Some, but the decoder found an error after {:?}",
                text
            );
            ensure_bytes!(
                case,
                cow.as_bytes(),
                text.as_bytes(),
                "decode_without_bom_handling_and_without_replacement: text"
            );
            check_cow_str(
                case,
                "decode_without_bom_handling_and_without_replacement",
                cow,
                bytes,
                must_borrow(enc, bytes),
            );
        }
    }
    digest.done()
}

// ---------------------------------------------------------------------------------------------
// Encoders

fn slice_encode(
    enc: &mut simdenc::Encoder,
    src: &str,
    dst: &mut [u8],
    last: bool,
    fatal: bool,
) -> (Status, usize, usize, bool) {
    if fatal {
        let (r, read, written) = enc.encode_from_utf8_without_replacement(src, dst, last);
        (Status::Encoder(r), read, written, false)
    } else {
        let (r, read, written, had) = enc.encode_from_utf8(src, dst, last);
        (Status::Coder(r), read, written, had)
    }
}

fn encode_bound(enc: &simdenc::Encoder, len: usize, fatal: bool) -> Option<usize> {
    if fatal {
        enc.max_buffer_length_from_utf8_without_replacement(len)
    } else {
        enc.max_buffer_length_from_utf8_if_no_unmappables(len)
    }
}

/// Part 4: `encode_from_utf8_to_vec*` in lockstep with `encode_from_utf8*` into a slice as
/// long as the Vec's spare capacity.
fn encode_to_vec_vs_slice(
    case: &Case<'_>,
    text: &str,
    rng: &mut Rng,
    splits: &[usize],
    fatal: bool,
    mode: Room,
    prefix: &[u8],
) -> u64 {
    let mut by_slice = case.enc.new_encoder();
    let mut by_vec = case.enc.new_encoder();
    let mut digest = Digest::new();
    let mut v = prefix.to_vec();
    let mut moved_out: Vec<u8> = Vec::new();
    let mut expected: Vec<u8> = Vec::new();
    let mut buf: Vec<u8> = Vec::new();
    let mut calls = 0usize;
    let chunks = byte_chunks(text.len(), splits);
    for (ci, range) in chunks.iter().enumerate() {
        let chunk = &text[range.clone()];
        let last = ci + 1 == chunks.len();
        let (mut pos, mut grow, mut stalls) = (0, 0, 0);
        loop {
            calls += 1;
            let rest = &chunk[pos..];
            let at = range.start + pos;
            let bound = encode_bound(&by_slice, rest.len(), fatal).expect("bound");
            ensure_eq!(
                case,
                encode_bound(&by_vec, rest.len(), fatal),
                Some(bound),
                "call {calls}: bounds differ"
            );
            if v.len() > prefix.len() + 256 {
                moved_out.extend_from_slice(&v[prefix.len()..]);
                v.truncate(prefix.len());
            }
            set_spare(&mut v, room(mode, bound, grow, rng));
            let spare = v.capacity() - v.len();
            // Both `_to_vec` calls use the whole spare capacity, as encoding_rs does (so that
            // `&#N;` output does not end a call early): the slice gets all of it too.
            let used = spare;
            let sentinel = if calls.is_multiple_of(2) { 0xA5 } else { 0x00 };
            buf.clear();
            buf.resize(used, sentinel);
            let before = v.clone();
            let capacity = v.capacity();

            let (status, read, written, had) = slice_encode(&mut by_slice, rest, &mut buf, last, fatal);
            let (v_status, v_read, v_had) = if fatal {
                let (r, read) = by_vec.encode_from_utf8_to_vec_without_replacement(rest, &mut v, last);
                (Status::Encoder(r), read, false)
            } else {
                let (r, read, had) = by_vec.encode_from_utf8_to_vec(rest, &mut v, last);
                (Status::Coder(r), read, had)
            };
            ensure!(
                case,
                read <= rest.len() && rest.is_char_boundary(read) && written <= used,
                "slice API out of bounds: read {read} of {}, wrote {written} of {spare} (call {calls} at byte {at})",
                rest.len()
            );
            ensure!(
                case,
                buf[written..].iter().all(|&b| b == sentinel),
                "encode_from_utf8 wrote past `written` {written} (call {calls} at byte {at})"
            );
            ensure_eq!(
                case,
                v.capacity(),
                capacity,
                "the Vec was reallocated (call {calls} at byte {at})"
            );
            ensure!(
                case,
                v.len() >= before.len(),
                "the Vec got shorter (call {calls} at byte {at})"
            );
            ensure_bytes!(
                case,
                &v[..before.len()],
                &before,
                "the Vec's existing content changed (call {calls} at byte {at})"
            );
            ensure_eq!(
                case,
                (v_status, v_read, v.len() - before.len(), v_had),
                (status, read, written, had),
                "(status, read, written, had_unmappables) of call {calls} at byte {at}, chunk {ci} of {}, last {last}, spare {spare}, bound {bound}",
                chunks.len()
            );
            ensure_bytes!(
                case,
                &v[before.len()..],
                &buf[..written],
                "bytes appended by call {calls} at byte {at} (spare {spare})"
            );
            if fatal && mode != Room::Small {
                ensure!(
                    case,
                    !status.output_full(),
                    "OutputFull with room {spare} >= max_buffer_length_from_utf8_without_replacement {bound}"
                );
            }
            digest.call(status, read, written, had);
            expected.extend_from_slice(&buf[..written]);
            pos += read;
            if status.input_empty() {
                ensure_eq!(case, pos, chunk.len(), "InputEmpty before the end of chunk {ci}");
                break;
            }
            if status.output_full() && read == 0 && written == 0 {
                stalls += 1;
                grow += 4;
                ensure!(
                    case,
                    stalls < 6,
                    "no progress with {spare} bytes (call {calls} at byte {at})"
                );
            } else if status.output_full() {
                stalls = 0;
                grow = 0;
            }
        }
    }
    ensure!(case, v.starts_with(prefix), "the prefix is gone");
    moved_out.extend_from_slice(&v[prefix.len()..]);
    ensure_bytes!(case, &moved_out, &expected, "the whole output");
    digest.bytes(&expected);
    digest.done()
}

/// The whole of `text` through a fresh encoder (html mode), in slices: `(bytes, unmappables)`.
fn slice_encode_whole(case: &Case<'_>, enc: &'static Encoding, text: &str) -> (Vec<u8>, bool) {
    let mut encoder = enc.new_encoder();
    let mut out = Vec::new();
    let mut buf = vec![0u8; text.len() * 2 + 64];
    let (mut pos, mut had) = (0, false);
    loop {
        let (r, read, written, h) = encoder.encode_from_utf8(&text[pos..], &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        pos += read;
        had |= h;
        if r == CoderResult::InputEmpty {
            return (out, had);
        }
        ensure!(
            case,
            read > 0 || written > 0,
            "reference encode: no progress with {} bytes",
            buf.len()
        );
    }
}

/// Part 4: `Encoding::encode` against a streaming encoder.
fn one_shot_encode(case: &Case<'_>, text: &str) -> u64 {
    let enc = case.enc;
    let (cow, used, had) = enc.encode(text);
    let (want, want_had) = slice_encode_whole(case, enc, text);
    ensure_eq!(
        case,
        (used.name(), had),
        (enc.output_encoding().name(), want_had),
        "encode: (encoding, had_unmappables)"
    );
    ensure_bytes!(case, &cow, &want, "encode: bytes vs new_encoder()");
    let output = enc.output_encoding();
    let bytes = text.as_bytes();
    let must_borrow = output == UTF_8
        || (output == ISO_2022_JP
            && bytes.is_ascii()
            && !bytes.iter().any(|b| matches!(b, 0x0E | 0x0F | 0x1B)))
        || (output != ISO_2022_JP && output.is_ascii_compatible() && bytes.is_ascii());
    match &cow {
        Cow::Borrowed(b) => {
            ensure!(
                case,
                must_borrow,
                "encode: Cow::Borrowed, but the text needed converting"
            );
            ensure!(
                case,
                b.as_ptr() == bytes.as_ptr() && b.len() == bytes.len(),
                "encode: Cow::Borrowed does not point at the text"
            );
        }
        Cow::Owned(_) => ensure!(
            case,
            !must_borrow,
            "encode: Cow::Owned, but the text needed no converting"
        ),
    }
    let mut digest = Digest::new();
    digest.bytes(&cow);
    digest.n(u64::from(had));
    digest.done()
}

// ---------------------------------------------------------------------------------------------
// The text module

/// The standard's decode steps for one `decode()` call or stream step, on the slice API:
/// the I/O queue then `input`; in fatal mode an error keeps the rest queued.
struct TextModel {
    decoder: Decoder,
    queue: Vec<u8>,
    bom_seen: bool,
    drop_bom: bool,
    fatal: bool,
}

impl TextModel {
    fn new(enc: &'static Encoding, options: TextDecoderOptions) -> TextModel {
        TextModel {
            decoder: enc.new_decoder_without_bom_handling(),
            queue: Vec::new(),
            bom_seen: false,
            drop_bom: [UTF_8, UTF_16BE, UTF_16LE].contains(&enc) && !options.ignore_bom,
            fatal: options.fatal,
        }
    }

    fn step(&mut self, case: &Case<'_>, input: &[u8], flush: bool) -> Result<String, ()> {
        let queued = std::mem::take(&mut self.queue);
        let mut out = Vec::new();
        for (index, part) in [&queued[..], input].into_iter().enumerate() {
            let last = flush && index == 1;
            let mut buf = vec![0u8; decode_bound(&self.decoder, part.len(), self.fatal).expect("bound")];
            let (status, read, written, _) =
                slice_decode(&mut self.decoder, part, &mut buf, last, self.fatal);
            out.extend_from_slice(&buf[..written]);
            match status {
                Status::Decoder(DecoderResult::Malformed(..)) => {
                    self.queue.extend_from_slice(&part[read..]);
                    if index == 0 {
                        self.queue.extend_from_slice(input);
                    }
                    return Err(());
                }
                _ if status.input_empty() => {}
                _ => panic!("{case}\n  model: OutputFull with max_utf8_buffer_length's room"),
            }
        }
        ensure!(
            case,
            std::str::from_utf8(&out).is_ok(),
            "model: the slice API wrote invalid UTF-8"
        );
        let mut text = String::from_utf8(out).unwrap_or_default();
        if self.drop_bom && !self.bom_seen && !text.is_empty() {
            self.bom_seen = true;
            if text.starts_with('\u{FEFF}') {
                text.remove(0);
            }
        }
        Ok(text)
    }
}

/// Part 5: `TextDecoder::decode` (two streams on one object, the second starting afresh) and
/// `TextDecoderStream` against the model.
/// The second pass over the chunks ends some streams early (`stream: false` before the last
/// chunk): the next call starts afresh, as the model does then.
fn text_decoders(case: &Case<'_>, rng: &mut Rng, splits: &[usize], options: TextDecoderOptions) -> u64 {
    let (enc, input) = (case.enc, case.input);
    let mut digest = Digest::new();
    let chunks = byte_chunks(input.len(), splits);
    let mut decoder = TextDecoder::with_options(enc.name(), options).expect("a label");
    ensure_eq!(
        case,
        decoder.encoding(),
        enc.name().to_ascii_lowercase(),
        "TextDecoder::encoding"
    );
    for pass in 0..2 {
        let mut model = TextModel::new(enc, options);
        let mut whole = String::new();
        let mut failed = false;
        let mut restarted = false;
        for (ci, range) in chunks.iter().enumerate() {
            let stream = ci + 1 < chunks.len() && (pass == 0 || rng.below(4) != 0);
            let got = decoder.decode(&input[range.clone()], stream).map_err(|_| ());
            let want = model.step(case, &input[range.clone()], !stream);
            ensure_eq!(
                case,
                got,
                want,
                "TextDecoder::decode(chunk {ci} = bytes {range:?}, stream {stream}), pass {pass}"
            );
            if !stream && ci + 1 < chunks.len() {
                model = TextModel::new(enc, options);
                restarted = true;
            }
            if let Ok(text) = &got {
                whole.push_str(text);
                digest.bytes(text.as_bytes());
            } else {
                failed = true;
                digest.n(99);
            }
        }
        // The whole stream, replacing, is the BOM-removing (or not) decoder's text.
        if !options.fatal && !failed && !restarted {
            let mut dec = if options.ignore_bom {
                enc.new_decoder_without_bom_handling()
            } else {
                enc.new_decoder_with_bom_removal()
            };
            let (text, _) = slice_decode_whole(case, &mut dec, input, false);
            ensure_bytes!(
                case,
                whole.as_bytes(),
                text.as_bytes(),
                "TextDecoder: the whole stream vs the decoder with BOM removal (or without BOM handling)"
            );
        }
    }

    let mut stream = TextDecoderStream::with_options(enc.name(), options).expect("a label");
    let mut model = TextModel::new(enc, options);
    let mut errored = false;
    for (ci, range) in chunks.iter().enumerate() {
        let got = stream.transform(&input[range.clone()]).map_err(|_| ());
        let want = if errored {
            Err(())
        } else {
            model.step(case, &input[range.clone()], false)
        };
        errored |= want.is_err();
        ensure_eq!(
            case,
            got,
            want,
            "TextDecoderStream::transform(chunk {ci} = bytes {range:?})"
        );
        digest.bytes(got.as_deref().unwrap_or("!").as_bytes());
    }
    let got = stream.flush().map_err(|_| ());
    let want = if errored {
        Err(())
    } else {
        model.step(case, &[], true)
    };
    ensure_eq!(case, got, want, "TextDecoderStream::flush");
    digest.bytes(got.as_deref().unwrap_or("!").as_bytes());
    digest.done()
}

/// UTF-16 code units with lone surrogates sometimes.
fn units_of(rng: &mut Rng, text: &str) -> Vec<u16> {
    let mut units: Vec<u16> = text.encode_utf16().collect();
    for _ in 0..rng.below(3) {
        let at = rng.below(units.len() + 1);
        units.insert(at, [0xD800, 0xDBFF, 0xDC00, 0xDFFF][rng.below(4)]);
    }
    units
}

/// The UTF-8 encoder's slice API on UTF-16 (lone surrogates become U+FFFD).
fn utf8_from_units(case: &Case<'_>, units: &[u16]) -> Vec<u8> {
    let mut buf = vec![0u8; units.len() * 3];
    let (r, read, written, _) = UTF_8.new_encoder().encode_from_utf16(units, &mut buf, true);
    ensure_eq!(
        case,
        (r, read),
        (CoderResult::InputEmpty, units.len()),
        "encode_from_utf16 with 3 bytes a unit"
    );
    buf.truncate(written);
    buf
}

/// Part 5: `TextEncoder` and `TextEncoderStream` against the UTF-8 encoder's slice API.
fn text_encoders(case: &Case<'_>, text: &str, rng: &mut Rng) -> u64 {
    let mut digest = Digest::new();
    let encoder = TextEncoder::new();
    let mut buf = vec![0u8; text.len()];
    let (r, read, written, _) = UTF_8.new_encoder().encode_from_utf8(text, &mut buf, true);
    ensure_eq!(
        case,
        (r, read, written),
        (CoderResult::InputEmpty, text.len(), text.len()),
        "UTF-8 encoder"
    );
    ensure_bytes!(case, &encoder.encode(text), &buf, "TextEncoder::encode");

    for round in 0..4 {
        let len = rng.below(text.len() + 5);
        let sentinel = if round % 2 == 0 { 0xA5 } else { 0 };
        let mut dst = vec![sentinel; len];
        let got = encoder.encode_into(text, &mut dst);
        let mut want_dst = vec![sentinel; len];
        let (_, read, written) =
            UTF_8
                .new_encoder()
                .encode_from_utf8_without_replacement(text, &mut want_dst, true);
        let want = EncodeIntoResult {
            read: text[..read].encode_utf16().count(),
            written,
        };
        ensure_eq!(case, got, want, "TextEncoder::encode_into with {len} bytes");
        ensure_bytes!(
            case,
            &dst,
            &want_dst,
            "TextEncoder::encode_into's destination ({len} bytes)"
        );
        digest.n(got.read as u64);
        digest.n(got.written as u64);
    }

    let units = units_of(rng, text);
    let want = utf8_from_units(case, &units);
    ensure_bytes!(
        case,
        &encoder.encode_utf16(&units),
        &want,
        "TextEncoder::encode_utf16"
    );
    let len = rng.below(want.len() + 5);
    let mut dst = vec![0xA5u8; len];
    let got = encoder.encode_into_utf16(&units, &mut dst);
    let mut want_dst = vec![0xA5u8; len];
    let (_, read, written) =
        UTF_8
            .new_encoder()
            .encode_from_utf16_without_replacement(&units, &mut want_dst, true);
    ensure_eq!(
        case,
        got,
        EncodeIntoResult { read, written },
        "TextEncoder::encode_into_utf16 with {len} bytes"
    );
    ensure_bytes!(
        case,
        &dst,
        &want_dst,
        "TextEncoder::encode_into_utf16's destination"
    );

    // The stream, in chunks cut anywhere (surrogate pairs too), some given as &str.
    let mut stream = TextEncoderStream::new();
    let mut out = Vec::new();
    let bounds = byte_chunks(units.len(), &random_splits(rng, units.len()));
    for (ci, range) in bounds.iter().enumerate() {
        let chunk = &units[range.clone()];
        match String::from_utf16(chunk) {
            Ok(s) if lo_bit(rng) => out.extend(stream.transform_str(&s)),
            _ => out.extend(stream.transform(chunk)),
        }
        let mut seen = &units[..range.end];
        if let [rest @ .., lead] = seen
            && (0xD800..=0xDBFF).contains(lead)
        {
            seen = rest;
        }
        ensure_bytes!(
            case,
            &out,
            &utf8_from_units(case, seen),
            "TextEncoderStream: the output after chunk {ci} (units {range:?})"
        );
    }
    out.extend(stream.flush());
    ensure_bytes!(case, &out, &want, "TextEncoderStream: the whole output");
    digest.bytes(&out);
    digest.done()
}

// ---------------------------------------------------------------------------------------------
// The io module

/// A reader that returns its bytes a few at a time.
struct Trickle<'a> {
    data: &'a [u8],
    rng: Rng,
    most: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.data.len()).min(1 + self.rng.below(self.most));
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// What a `DecodeReader` should give, from the slice API.
struct IoExpected {
    text: String,
    had_errors: bool,
    /// With `Fail`: the error's `(offset, end)`.
    error: Option<(u64, u64)>,
    /// Input bytes consumed at the end (without an error).
    position: u64,
    encoding: &'static Encoding,
}

fn io_expected(case: &Case<'_>, bom: BomMode, on: OnMalformed) -> IoExpected {
    let input = case.input;
    let mut dec = new_decoder(case.enc, bom);
    let mut out = Vec::new();
    let (mut pos, mut had_errors, mut error) = (0, false, None);
    loop {
        let fatal = on != OnMalformed::Replace;
        let mut buf = vec![0u8; decode_bound(&dec, input.len() - pos, fatal).expect("bound")];
        let (status, read, written, had) = slice_decode(&mut dec, &input[pos..], &mut buf, true, fatal);
        out.extend_from_slice(&buf[..written]);
        pos += read;
        had_errors |= had;
        match status {
            Status::Decoder(DecoderResult::Malformed(bad, after)) => {
                had_errors = true;
                if on == OnMalformed::Fail {
                    let end = (pos - usize::from(after)) as u64;
                    error = Some((end - u64::from(bad), end));
                    break;
                }
            }
            _ if status.input_empty() => break,
            _ => panic!("{case}\n  reference: OutputFull with max_utf8_buffer_length's room"),
        }
    }
    ensure!(
        case,
        std::str::from_utf8(&out).is_ok(),
        "the slice API wrote invalid UTF-8"
    );
    IoExpected {
        text: String::from_utf8(out).unwrap_or_default(),
        had_errors,
        error,
        position: pos as u64,
        encoding: dec.encoding(),
    }
}

/// Part 6: a `DecodeReader` read with `read_to_string`, small `read`s or `fill_str`.
fn decode_reader(case: &Case<'_>, rng: &mut Rng, bom: BomMode, on: OnMalformed, style: usize) -> u64 {
    let (enc, input) = (case.enc, case.input);
    let size = [64, 64 + rng.below(200), 64 * 1024][rng.below(3)];
    let options = DecodeOptions::new()
        .bom(match bom {
            BomMode::Sniff => Bom::Sniff,
            BomMode::Remove => Bom::Strip,
            BomMode::Keep => Bom::Keep,
        })
        .on_malformed(on)
        .buffer_size(size);
    let inner = Trickle {
        data: input,
        rng: Rng(rng.next() | 1),
        most: [7, 100, 100_000][rng.below(3)],
    };
    let mut reader = DecodeReader::with_options(inner, enc, options);
    let mut out: Vec<u8> = Vec::new();
    let mut error: Option<std::io::Error> = None;
    match style {
        0 => {
            let mut text = String::new();
            if let Err(e) = reader.read_to_string(&mut text) {
                error = Some(e);
            }
            out.extend_from_slice(text.as_bytes());
        }
        1 => {
            let mut buf = [0u8; 40];
            loop {
                let n = 1 + rng.below(buf.len());
                match reader.read(&mut buf[..n]) {
                    Ok(0) => break,
                    Ok(got) => {
                        ensure!(case, got <= n, "read returned {got} for a buffer of {n}");
                        out.extend_from_slice(&buf[..got]);
                    }
                    Err(e) => {
                        error = Some(e);
                        break;
                    }
                }
            }
        }
        _ => loop {
            let want = rng.below(20);
            match reader.fill_str() {
                Ok("") => break,
                Ok(chunk) => {
                    let mut n = want.clamp(1, chunk.len());
                    while !chunk.is_char_boundary(n) {
                        n += 1;
                    }
                    out.extend_from_slice(&chunk.as_bytes()[..n]);
                    reader.consume(n);
                }
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        },
    }
    let call = ["read_to_string", "read", "fill_str"][style.min(2)];
    let want = io_expected(case, bom, on);
    let what = format!("DecodeReader::{call} ({bom:?}, {on:?}, buffers {size})");
    ensure_bytes!(case, &out, want.text.as_bytes(), "{what}: text");
    let got_error = error.as_ref().map(|e| {
        let malformed = MalformedError::from_io_error(e);
        (e.kind(), malformed.map(|m| (m.offset(), m.end())))
    });
    ensure_eq!(
        case,
        got_error,
        want.error.map(|at| (ErrorKind::InvalidData, Some(at))),
        "{what}: the error"
    );
    ensure_eq!(
        case,
        (reader.had_errors(), reader.encoding().name()),
        (want.had_errors, want.encoding.name()),
        "{what}: had_errors, encoding"
    );
    if want.error.is_none() {
        ensure_eq!(
            case,
            reader.position(),
            want.position,
            "{what}: position at the end"
        );
    }
    let mut digest = Digest::new();
    digest.bytes(&out);
    digest.n(want.error.map_or(0, |(offset, _)| offset + 1));
    digest.done()
}

// ---------------------------------------------------------------------------------------------

#[test]
fn string_str_cow_and_vec_paths_equal_the_slice_api_at_every_level() {
    let quick = std::env::var_os("SIMDENC_QUICK_TESTS").is_some();
    let all = Encoding::all();
    // The same inputs at every level.
    let mut rng = Rng(0x57A1_9000_0000_0001);
    let decoder_inputs: Vec<Vec<Vec<u8>>> = all.iter().map(|&e| decoder_inputs(&mut rng, e, quick)).collect();
    let encoder_inputs: Vec<Vec<String>> = all
        .iter()
        .map(|&e| {
            if e.output_encoding() == e {
                encoder_inputs(&mut rng, e, quick)
            } else {
                Vec::new()
            }
        })
        .collect();
    let texts: Vec<String> = (0..if quick { 10 } else { 80 })
        .map(|i| random_text(&mut rng, [0, 5, 40, 100, 700][i % 5], &[]))
        .collect();

    let mut record = Record::new();
    let levels: Vec<Level> = cpu::supported().collect();
    for &level in &levels {
        cpu::force(level).expect("a supported level");
        assert_eq!(cpu::active(), level);
        record.start_level(level);
        for (e, &enc) in all.iter().enumerate() {
            for (n, input) in decoder_inputs[e].iter().enumerate() {
                let case = |call, detail| Case {
                    level,
                    enc,
                    call,
                    input,
                    detail,
                };
                let mut rng = case_rng(1, e, n);
                for fatal in [false, true] {
                    for mode in [
                        Room::Exact,
                        Room::Small,
                        Room::Ample,
                        Room::Exact,
                        Room::Small,
                        Room::Ample,
                    ] {
                        let splits = random_splits(&mut rng, input.len());
                        let bom = [BomMode::Sniff, BomMode::Remove, BomMode::Keep][rng.below(3)];
                        let prefix = ["", "x", "préfixe ", "日本語😀"][rng.below(4)];
                        let call = if fatal {
                            "Decoder::decode_to_string_without_replacement"
                        } else {
                            "Decoder::decode_to_string"
                        };
                        let c = case(
                            call,
                            format!("case {n}, splits {splits:?}, {bom:?}, room {mode:?}, prefix {prefix:?}"),
                        );
                        let digest =
                            decode_to_string_vs_slice(&c, &mut rng, &splits, bom, fatal, mode, prefix);
                        record.case(&c, digest);
                    }
                    for mode in [Room::Exact, Room::Small, Room::Ample] {
                        let splits = random_splits(&mut rng, input.len());
                        let bom = [BomMode::Sniff, BomMode::Remove, BomMode::Keep][rng.below(3)];
                        let style = rng.below(3);
                        let call = if fatal {
                            "Decoder::decode_to_str_without_replacement"
                        } else {
                            "Decoder::decode_to_str"
                        };
                        let c = case(
                            call,
                            format!(
                                "case {n}, splits {splits:?}, {bom:?}, room {mode:?}, fill style {style}"
                            ),
                        );
                        let digest = decode_to_str_vs_slice(&c, &mut rng, &splits, bom, fatal, mode, style);
                        record.case(&c, digest);
                    }
                }
                // One-shot decodes, after each BOM (and half of one).
                for (b, bom) in BOMS.iter().enumerate() {
                    if b > 0 && n % 3 != b % 3 {
                        continue;
                    }
                    let mut bytes = bom.to_vec();
                    bytes.extend_from_slice(input);
                    let c = Case {
                        level,
                        enc,
                        call: "Encoding::decode*",
                        input: &bytes,
                        detail: format!("case {n}, BOM {}", hex(bom)),
                    };
                    record.case(&c, one_shot_decodes(&c));
                }
                if enc != REPLACEMENT {
                    let options = TextDecoderOptions {
                        fatal: lo_bit(&mut rng),
                        ignore_bom: rng.below(3) == 0,
                    };
                    let splits = random_splits(&mut rng, input.len());
                    let c = case(
                        "text::TextDecoder/TextDecoderStream",
                        format!("case {n}, splits {splits:?}, {options:?}"),
                    );
                    record.case(&c, text_decoders(&c, &mut rng, &splits, options));
                }
                let bom = [BomMode::Sniff, BomMode::Remove, BomMode::Keep][rng.below(3)];
                let on = [OnMalformed::Replace, OnMalformed::Fail, OnMalformed::Skip][rng.below(3)];
                let style = n % 3;
                let c = case(
                    "io::DecodeReader",
                    format!("case {n}, {bom:?}, {on:?}, style {style}"),
                );
                record.case(&c, decode_reader(&c, &mut rng, bom, on, style));
            }

            for (n, text) in encoder_inputs[e].iter().enumerate() {
                let mut rng = case_rng(2, e, n);
                let input = text.as_bytes();
                for fatal in [false, true] {
                    for mode in [
                        Room::Exact,
                        Room::Small,
                        Room::Ample,
                        Room::Exact,
                        Room::Small,
                        Room::Ample,
                    ] {
                        let splits = char_splits(&mut rng, text);
                        let prefix: &[u8] = [&b""[..], b"x", b"\x80\xFF ", b"\xE6\x97\xA5"][rng.below(4)];
                        let call = if fatal {
                            "Encoder::encode_from_utf8_to_vec_without_replacement"
                        } else {
                            "Encoder::encode_from_utf8_to_vec"
                        };
                        let c = Case {
                            level,
                            enc,
                            call,
                            input,
                            detail: format!(
                                "case {n}, splits {splits:?}, room {mode:?}, prefix {}",
                                hex(prefix)
                            ),
                        };
                        let digest = encode_to_vec_vs_slice(&c, text, &mut rng, &splits, fatal, mode, prefix);
                        record.case(&c, digest);
                    }
                }
            }
            // Encoding::encode for every encoding (UTF-16 and replacement encode to UTF-8).
            let texts_for = if encoder_inputs[e].is_empty() {
                &texts
            } else {
                &encoder_inputs[e]
            };
            for (n, text) in texts_for.iter().enumerate() {
                let c = Case {
                    level,
                    enc,
                    call: "Encoding::encode",
                    input: text.as_bytes(),
                    detail: format!("case {n}"),
                };
                record.case(&c, one_shot_encode(&c, text));
            }
        }
        for (n, text) in texts.iter().enumerate() {
            let mut rng = case_rng(3, 0, n);
            let c = Case {
                level,
                enc: UTF_8,
                call: "text::TextEncoder/TextEncoderStream",
                input: text.as_bytes(),
                detail: format!("case {n}"),
            };
            record.case(&c, text_encoders(&c, text, &mut rng));
        }
        println!("level {level}: ok");
    }
    cpu::force(cpu::detected()).expect("the detected level");
    println!(
        "levels: {}",
        levels.iter().map(|l| l.name()).collect::<Vec<_>>().join(", ")
    );
    for (call, count) in &record.cases {
        println!("{count:>7} cases: {call}");
    }
}
