//! The shared harness of simdenc's fuzz targets: how a fuzz input is read, how chunk bounds
//! and output sizes are chosen from it, the canary discipline, and the reference runs built
//! from `simdenc::spec` primitives.
//!
//! # Input layout
//! Every target reads a fuzz input as [`HEADER`] control bytes followed by the payload (text
//! or bytes to convert). A shorter input is padded with zero header bytes. The header picks
//! the encoding, SIMD level, API variant and the seed of a small PRNG ([`Rng`]) that chooses
//! chunk bounds and output buffer sizes, so libFuzzer's mutations explore the parameters and
//! the data separately, and seeds are a header plus ordinary text (see `fuzz/seed/`).
//!
//! # Canaries
//! Every conversion into a caller-owned buffer runs twice, into buffers pre-filled with two
//! different canaries ([`CANARY_U8`], [`CANARY_U16`], [`CANARY_STR`]). Both runs must return
//! the same values and write the same prefix, and everything past the reported length must
//! still be the canary: this catches output that was never written (it would differ between
//! the runs) and writes past the reported length.
#![forbid(unsafe_code)]

use std::fmt::Debug;

use simdenc::Encoding;
use simdenc::cpu::{self, Level};
use simdenc::spec::{self, ErrorMode, IoQueue, QueueResult};

/// Number of control bytes at the start of every fuzz input.
pub const HEADER: usize = 8;

/// Output canaries for byte buffers, one per run.
pub const CANARY_U8: [u8; 2] = [0x00, 0xAB];
/// Output canaries for UTF-16 buffers, one per run.
pub const CANARY_U16: [u16; 2] = [0x0000, 0xABCD];
/// Output canaries for `&mut str` buffers, one per run (a `str` must stay UTF-8, so ASCII).
pub const CANARY_STR: [u8; 2] = [0x00, b'~'];

/// A fuzz input: control header and payload.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The control bytes (zero where the input was too short).
    pub header: [u8; HEADER],
    /// Everything after the header.
    pub payload: &'a [u8],
}

impl<'a> Input<'a> {
    /// Splits `data` into header and payload.
    pub fn parse(data: &'a [u8]) -> Input<'a> {
        let mut header = [0u8; HEADER];
        let n = data.len().min(HEADER);
        header[..n].copy_from_slice(&data[..n]);
        Input {
            header,
            payload: &data[n..],
        }
    }

    /// A PRNG seeded from header bytes 4..8 (and the payload length).
    pub fn rng(&self) -> Rng {
        let seed = u32::from_le_bytes([self.header[4], self.header[5], self.header[6], self.header[7]]);
        Rng::new(u64::from(seed) << 20 ^ self.payload.len() as u64)
    }
}

/// Deterministic xorshift64, so that every run of an input makes the same choices.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 if `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// The encoding that `selector` picks among all 40.
pub fn encoding(selector: u8) -> &'static Encoding {
    let all = Encoding::all();
    all[usize::from(selector) % all.len()]
}

/// Makes the level that `selector` picks among the supported ones active, and returns it.
pub fn force_level(selector: u8) -> Level {
    let levels: Vec<Level> = cpu::supported().collect();
    let level = levels[usize::from(selector) % levels.len()];
    cpu::force(level).expect("a supported level");
    level
}

/// Chunk end offsets (ascending, may repeat = empty chunks, the last is always `len`) chosen
/// by `style`, moved by `adjust` to acceptable places (char boundaries, not inside a
/// surrogate pair).
pub fn chunk_ends(rng: &mut Rng, len: usize, style: u8, adjust: impl Fn(usize) -> usize) -> Vec<usize> {
    let mut ends: Vec<usize> = match style % 4 {
        // One chunk.
        0 => Vec::new(),
        // A few random bounds.
        1 | 2 => (0..rng.below(8)).map(|_| rng.below(len + 1)).collect(),
        // Every position while short, else many random bounds, some empty chunks.
        _ if len <= 48 => (0..=len).collect(),
        _ => (0..rng.below(48)).map(|_| rng.below(len + 1)).collect(),
    };
    for end in &mut ends {
        *end = adjust(*end);
    }
    ends.push(len);
    ends.sort_unstable();
    ends
}

/// Output buffer sizes: `style` picks tiny, small, large or mixed; `grow` is the size that
/// is known to make progress (after a call that made none, sizes double up to it).
#[derive(Clone, Debug)]
pub struct Caps {
    style: u8,
    /// The smallest size any call gets (raised after a call that made no progress).
    pub floor: usize,
}

impl Caps {
    /// Sizes of style `style`.
    pub fn new(style: u8) -> Caps {
        Caps { style, floor: 0 }
    }

    /// The size of the next buffer; `large` is one that fits everything that is left.
    pub fn next(&mut self, rng: &mut Rng, large: usize) -> usize {
        let cap = match (self.style >> 2) % 4 {
            0 => large,
            1 => rng.below(9),
            2 => rng.below(65),
            _ => match rng.below(4) {
                0 => large,
                1 => rng.below(9),
                2 => rng.below(33),
                _ => large.saturating_sub(rng.below(8)),
            },
        };
        cap.max(self.floor)
    }

    /// Called after a call that made no progress into a buffer of `cap`.
    pub fn stalled(&mut self, cap: usize) {
        self.floor = (cap * 2).max(1);
    }

    /// Called after a call that made progress.
    pub fn progressed(&mut self) {
        self.floor = 0;
    }
}

/// Runs `run` with canary 0 and canary 1; both must give equal results (return values and
/// written prefixes). Returns the result.
pub fn twice<R: PartialEq + Debug>(what: &str, run: impl Fn(usize) -> R) -> R {
    let first = run(0);
    let second = run(1);
    assert_eq!(
        first, second,
        "{what}: the two runs (different output canaries) differ"
    );
    first
}

/// Asserts that `buf[written..]` is all `canary`.
pub fn assert_tail<T: PartialEq + Copy + Debug>(buf: &[T], written: usize, canary: T, what: &str) {
    assert!(
        written <= buf.len(),
        "{what}: reported {written} written into a buffer of {}",
        buf.len()
    );
    if let Some(i) = buf[written..].iter().position(|&x| x != canary) {
        panic!(
            "{what}: wrote {:?} at {} past the reported length {written} (buffer {})",
            buf[written + i],
            written + i,
            buf.len()
        );
    }
}

/// The standard's decoder over `bytes` in "fatal" mode, resumed after every error (process a
/// queue again with the same instance and queue): the text between errors and each error's
/// position (bytes taken from the queue net of restores). Joining the segments with U+FFFD is
/// exactly "replacement" mode; the first error is where "fatal" mode stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecDecode {
    /// Output between errors: `errors.len() + 1` segments.
    pub segments: Vec<String>,
    /// Error positions, in input bytes.
    pub errors: Vec<usize>,
}

impl SpecDecode {
    /// Runs `encoding`'s decoder over `bytes`; positions are offset by `offset`.
    pub fn run(encoding: &'static Encoding, bytes: &[u8], offset: usize) -> SpecDecode {
        let mut decoder = spec::Decoder::new(encoding);
        let mut queue = IoQueue::from_items(bytes.iter().copied());
        let mut segments = Vec::new();
        let mut errors = Vec::new();
        loop {
            let mut output = IoQueue::new();
            let result = spec::process_queue(&mut decoder, &mut queue, &mut output, ErrorMode::Fatal);
            segments.push(output.to_vec().into_iter().collect::<String>());
            match result {
                QueueResult::Finished => break,
                QueueResult::Error(_) => errors.push(offset + bytes.len() - queue.len()),
                QueueResult::Blocked => unreachable!("an immediate queue never blocks"),
            }
        }
        SpecDecode { segments, errors }
    }

    /// The "replacement" mode output.
    pub fn replaced(&self) -> String {
        self.segments.join("\u{FFFD}")
    }
}

/// The standard's encoder over `input` in "fatal" mode, resumed after every error: the bytes
/// between errors, and each error's code point and position (scalar values taken from the
/// queue net of restores). Joining the segments with `&#N;` is exactly "html" mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecEncode {
    /// Output between errors: `errors.len() + 1` segments.
    pub segments: Vec<Vec<u8>>,
    /// Errors: code point and position in scalar values.
    pub errors: Vec<(char, usize)>,
}

impl SpecEncode {
    /// Runs `encoding`'s encoder (which must have one) over `input`.
    pub fn run(encoding: &'static Encoding, input: &str) -> SpecEncode {
        let mut encoder = spec::get_an_encoder(encoding);
        let count = input.chars().count();
        let mut queue = IoQueue::from_items(input.chars());
        let mut segments = Vec::new();
        let mut errors = Vec::new();
        loop {
            let mut output = IoQueue::new();
            let result = spec::process_queue(&mut encoder, &mut queue, &mut output, ErrorMode::Fatal);
            segments.push(output.to_vec());
            match result {
                QueueResult::Finished => break,
                QueueResult::Error(c) => {
                    errors.push((c.expect("an encoder error has a code point"), count - queue.len()));
                }
                QueueResult::Blocked => unreachable!("an immediate queue never blocks"),
            }
        }
        SpecEncode { segments, errors }
    }

    /// The "html" mode output.
    pub fn html(&self) -> Vec<u8> {
        let mut out = self.segments[0].clone();
        for ((c, _), segment) in self.errors.iter().zip(&self.segments[1..]) {
            out.extend_from_slice(format!("&#{};", u32::from(*c)).as_bytes());
            out.extend_from_slice(segment);
        }
        out
    }
}

/// The standard's conversion of a JavaScript string (UTF-16 code units) to a scalar value
/// string: each unpaired surrogate becomes U+FFFD.
pub fn usv_string(units: &[u16]) -> String {
    char::decode_utf16(units.iter().copied())
        .map(|r| r.unwrap_or('\u{FFFD}'))
        .collect()
}

/// Whether `unit` is a leading (high) surrogate.
pub fn is_leading_surrogate(unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

/// Whether `unit` is a trailing (low) surrogate.
pub fn is_trailing_surrogate(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// UTF-16 code units for a fuzz payload: the payload read as (lossy) UTF-8 text, with lone
/// and swapped surrogates inserted at random places (`raw`: the payload as little-endian
/// units instead).
pub fn utf16_units(rng: &mut Rng, payload: &[u8], raw: bool) -> Vec<u16> {
    if raw {
        return payload
            .chunks(2)
            .map(|pair| u16::from_le_bytes([pair[0], *pair.get(1).unwrap_or(&0)]))
            .collect();
    }
    let mut units: Vec<u16> = String::from_utf8_lossy(payload).encode_utf16().collect();
    for _ in 0..rng.below(4) {
        let at = rng.below(units.len() + 1);
        let unit = match rng.below(4) {
            0 => 0xD800 + rng.below(0x400) as u16,
            1 => 0xDC00 + rng.below(0x400) as u16,
            2 => 0xDBFF,
            _ => 0xDC00,
        };
        units.insert(at, unit);
    }
    units
}
