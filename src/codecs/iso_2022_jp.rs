//! ISO-2022-JP.
//!
//! <https://encoding.spec.whatwg.org/#iso-2022-jp-decoder>: a stateful encoding switched by
//! escape sequences (`ESC ( B` ASCII, `ESC ( J` Roman, `ESC ( I` katakana, `ESC $ @` and
//! `ESC $ B` jis0208 pairs). The decoder keeps the standard's four variables exactly,
//! including the "ISO-2022-JP output" flag that makes two escape sequences in a row an error.
//!
//! Restore: an escape sequence that fails restores the byte after `ESC` (not consumed), or
//! « leading, byte » where the leading `$`/`(` is held in state: that byte goes to
//! [`Pending`], which is drained before `src` is read again. A pending byte is only ever
//! decoded in the output state (never in an escape state), so at most one byte is pending.
//!
//! Fast paths (decoder): in ASCII and Roman state, runs of bytes that are themselves (below
//! 0x80, not 0x0E, 0x0F, 0x1B, and in Roman not 0x5C, 0x7E) are found with a bounded scan and
//! copied with the `copy_ascii` kernel; in leading-byte state, whole valid pairs are decoded
//! as EUC-JP's (0x80 added to each byte, in a stage) by the CJK decode run and its pair
//! kernels; a whole escape sequence that switches state without an error is taken at once.
//! Everything else goes through [`Iso2022JpDecoder::step`], the standard's handler, one
//! byte at a time.
//!
//! Fast paths (encoder), each stopping where the standard's handler
//! ([`Iso2022JpEncoder::step`]) has to decide, one code point at a time:
//! - Where `utf16_to_legacy` is a vector kernel: text that alternates between ASCII and code
//!   points with a jis0208 pointer (Japanese text) is staged as UTF-16 units
//!   (`Source::with_utf16`) and encoded by the kernel with this encoding's bytes (EUC-JP's
//!   two-byte encoding less 0x80 in each byte; ASCII as itself), then copied out run by run
//!   with an escape sequence where the kind changes ([`Iso2022JpEncoder::encode_switching`]).
//! - Otherwise (and with little room): in ASCII and Roman state, the code points written as
//!   themselves are copied while they are (`Source::copy_ascii_in`, which checks each for
//!   U+000E, U+000F, U+001B, and in Roman U+005C and U+007E, before it copies:
//!   `Source::copy_ascii` would copy those too, and a source cannot be rewound); in jis0208
//!   state, a run of non-ASCII code points with a jis0208 pointer is encoded character by
//!   character through [`jis0208_bytes`] (`Source::encode_non_ascii_run`, which stops at
//!   ASCII: unlike `Source::encode_run`, which writes it as itself and needs an escape
//!   sequence first in jis0208 state).

use crate::codecs::Pending;
use crate::codecs::dest::Dest;
use crate::codecs::driver::{StateMachine, Step};
use crate::codecs::encode_runs;
use crate::codecs::source::{ByteDest, Source};
use crate::codecs::{euc_jp, runs};
use crate::results::EncoderResult;
use crate::simd::{EncodeTables, Lookup};
use crate::tables::iso_2022_jp_katakana::ISO_2022_JP_KATAKANA;
use crate::tables::jis0208::{JIS0208, JIS0208_ENC_BLOCKS, JIS0208_ENC_PAGES};
use crate::tables::paged;

/// The standard's ISO-2022-JP decoder states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ascii,
    Roman,
    Katakana,
    LeadingByte,
    TrailingByte,
    EscapeStart,
    Escape,
}

#[derive(Clone, Copy)]
pub(crate) struct Iso2022JpDecoder {
    iso_2022_jp_decoder_state: State,
    /// Always ASCII, Roman, katakana or leading byte.
    iso_2022_jp_decoder_output_state: State,
    /// The jis0208 leading byte in trailing-byte state, `$` or `(` in escape state.
    iso_2022_jp_leading: u8,
    iso_2022_jp_output: bool,
    pending: Pending,
}

/// The index code point for the jis0208 pair `leading`, `byte` (both 0x21–0x7E).
#[inline(always)]
fn jis0208(leading: u8, byte: u8) -> Option<u16> {
    let pointer = usize::from(leading.checked_sub(0x21)?) * 94 + usize::from(byte.checked_sub(0x21)?);
    JIS0208.get(pointer).copied().filter(|&c| c != 0)
}

/// Whether `byte` decodes to itself in ASCII state (or, with `roman`, in Roman state).
#[inline(always)]
fn is_self(byte: u8, roman: bool) -> bool {
    byte < 0x80 && byte != 0x0E && byte != 0x0F && byte != 0x1B && !(roman && (byte == 0x5C || byte == 0x7E))
}

impl Iso2022JpDecoder {
    pub(crate) const fn new() -> Self {
        Iso2022JpDecoder {
            iso_2022_jp_decoder_state: State::Ascii,
            iso_2022_jp_decoder_output_state: State::Ascii,
            iso_2022_jp_leading: 0,
            iso_2022_jp_output: false,
            pending: Pending::EMPTY,
        }
    }

    /// The end of a step in ASCII, Roman, katakana or leading-byte state that sets
    /// ISO-2022-JP output to false and returns `code_point`, or error if it is `None`.
    #[inline(always)]
    fn output_or_error<D: Dest>(&mut self, dst: &mut D, replace: bool, code_point: Option<u16>) -> Step {
        match code_point {
            Some(code_point) => {
                if !dst.room_for_bmp(code_point) {
                    return Step::Full;
                }
                self.iso_2022_jp_output = false;
                dst.push_bmp(code_point);
                Step::Consumed
            }
            None => {
                if !dst.room_for_error(replace) {
                    return Step::Full;
                }
                self.iso_2022_jp_output = false;
                Step::Error {
                    consumed: true,
                    bad: 1,
                }
            }
        }
    }

    /// Escape-sequence bytes held in state, plus pending restored bytes.
    pub(crate) fn held(&self) -> usize {
        let in_state = match self.iso_2022_jp_decoder_state {
            State::TrailingByte | State::EscapeStart => 1,
            State::Escape => 2,
            State::Ascii | State::Roman | State::Katakana | State::LeadingByte => 0,
        };
        in_state + self.pending.len()
    }

    pub(crate) fn is_initial(&self) -> bool {
        self.iso_2022_jp_decoder_state == State::Ascii && self.pending.is_empty()
    }

    /// Bytes at the start of `bytes` that decode to the same-numbered code point in the
    /// current state (ASCII state: bytes below 0x80 other than 0x0E, 0x0F, 0x1B).
    pub(crate) fn latin1_byte_compatible_up_to(&self, bytes: &[u8]) -> usize {
        if !self.pending.is_empty() {
            return 0;
        }
        let roman = match self.iso_2022_jp_decoder_state {
            State::Ascii => false,
            State::Roman => true,
            _ => return 0,
        };
        bytes
            .iter()
            .position(|&b| !is_self(b, roman))
            .unwrap_or(bytes.len())
    }
}

impl StateMachine for Iso2022JpDecoder {
    /// In ASCII, Roman, katakana and leading-byte state (the output states): where a byte
    /// read now starts a character or an escape sequence.
    #[inline(always)]
    fn between_characters(&self) -> bool {
        matches!(
            self.iso_2022_jp_decoder_state,
            State::Ascii | State::Roman | State::Katakana | State::LeadingByte
        )
    }

    /// Decodes what the current state can decode without the standard's handler: in ASCII
    /// and Roman state a run of bytes that are themselves, in leading-byte state whole valid
    /// pairs; then a whole valid escape sequence that is not an error, and again. Returns the
    /// bytes read and whether the output is full.
    #[inline(always)]
    fn fast_run<D: Dest>(&mut self, src: &[u8], dst: &mut D) -> (usize, bool) {
        let mut read = 0;
        loop {
            let rest = src.get(read..).unwrap_or_default();
            let (n, full) = match self.iso_2022_jp_decoder_state {
                State::Ascii => copy_run(rest, dst, false),
                State::Roman => copy_run(rest, dst, true),
                State::LeadingByte => decode_pairs(rest, dst),
                _ => return (read, false),
            };
            read += n;
            if n > 0 {
                // Every byte decoded in these states sets ISO-2022-JP output to false.
                self.iso_2022_jp_output = false;
            }
            if full {
                return (read, true);
            }
            if !dst.room_for_ascii() {
                // A full output takes no escape sequence either (the caller returns
                // `OutputFull` with input left).
                return (read, false);
            }
            // The standard's three steps for 0x1B (in any of the four output states), 0x24 or
            // 0x28 (escape start), and the last byte (escape) at once, where ISO-2022-JP output
            // is false (escape, 7.4: continue, not error).
            let state = match src.get(read..read + 3) {
                Some(b"\x1B(B") => State::Ascii,
                Some(b"\x1B(J") => State::Roman,
                Some(b"\x1B(I") => State::Katakana,
                Some(b"\x1B$@" | b"\x1B$B") => State::LeadingByte,
                _ => return (read, false),
            };
            if self.iso_2022_jp_output {
                return (read, false);
            }
            // Escape, 1. and 7.1–7.3: set ISO-2022-JP leading to 0x00, ISO-2022-JP decoder
            // state and ISO-2022-JP decoder output state to state, ISO-2022-JP output to true.
            self.iso_2022_jp_leading = 0;
            self.iso_2022_jp_decoder_state = state;
            self.iso_2022_jp_decoder_output_state = state;
            self.iso_2022_jp_output = true;
            read += 3;
        }
    }

    /// <https://encoding.spec.whatwg.org/#iso-2022-jp-decoder>
    #[inline(never)]
    fn step<D: Dest>(&mut self, byte: u8, dst: &mut D, replace: bool) -> Step {
        if byte == 0x1B
            && matches!(
                self.iso_2022_jp_decoder_state,
                State::Ascii | State::Roman | State::Katakana | State::LeadingByte
            )
        {
            // 0x1B: Set ISO-2022-JP decoder state to escape start and return continue.
            self.iso_2022_jp_decoder_state = State::EscapeStart;
            return Step::Consumed;
        }
        match self.iso_2022_jp_decoder_state {
            State::Ascii => {
                self.output_or_error(dst, replace, is_self(byte, false).then_some(u16::from(byte)))
            }
            State::Roman => self.output_or_error(
                dst,
                replace,
                match byte {
                    0x5C => Some(0x00A5),
                    0x7E => Some(0x203E),
                    _ => is_self(byte, false).then_some(u16::from(byte)),
                },
            ),
            State::Katakana => self.output_or_error(
                dst,
                replace,
                (0x21..=0x5F)
                    .contains(&byte)
                    .then(|| 0xFF61 - 0x21 + u16::from(byte)),
            ),
            State::LeadingByte => {
                if (0x21..=0x7E).contains(&byte) {
                    // 0x21 to 0x7E: Set ISO-2022-JP output to false, ISO-2022-JP leading to
                    // byte, ISO-2022-JP decoder state to trailing byte, and return continue.
                    self.iso_2022_jp_output = false;
                    self.iso_2022_jp_leading = byte;
                    self.iso_2022_jp_decoder_state = State::TrailingByte;
                    return Step::Consumed;
                }
                self.output_or_error(dst, replace, None)
            }
            State::TrailingByte => {
                if (0x21..=0x7E).contains(&byte) {
                    // 2–3. Let pointer be (ISO-2022-JP leading − 0x21) × 94 + byte − 0x21 and
                    // codePoint the index code point for pointer in index jis0208.
                    if let Some(code_point) = jis0208(self.iso_2022_jp_leading, byte) {
                        // 1. Set the ISO-2022-JP decoder state to leading byte.
                        // 5. Return a code point whose value is codePoint.
                        if !dst.room_for_bmp(code_point) {
                            return Step::Full;
                        }
                        self.iso_2022_jp_decoder_state = State::LeadingByte;
                        dst.push_bmp(code_point);
                        return Step::Consumed;
                    }
                }
                if !dst.room_for_error(replace) {
                    return Step::Full;
                }
                // 0x1B: Set ISO-2022-JP decoder state to escape start and return error.
                // 0x21 to 0x7E, 4. If codePoint is null, then return error (in leading-byte
                // state). Otherwise: Set ISO-2022-JP decoder state to leading byte and return
                // error.
                self.iso_2022_jp_decoder_state = if byte == 0x1B {
                    State::EscapeStart
                } else {
                    State::LeadingByte
                };
                Step::Error {
                    consumed: true,
                    bad: 2,
                }
            }
            State::EscapeStart => {
                // 1. If byte is either 0x24 or 0x28, then set ISO-2022-JP leading to byte,
                //    ISO-2022-JP decoder state to escape, and return continue.
                if byte == 0x24 || byte == 0x28 {
                    self.iso_2022_jp_leading = byte;
                    self.iso_2022_jp_decoder_state = State::Escape;
                    return Step::Consumed;
                }
                if !dst.room_for_error(replace) {
                    return Step::Full;
                }
                // 2. If byte is not end-of-queue, then restore byte to ioQueue.
                // 3. Set ISO-2022-JP output to false, ISO-2022-JP decoder state to ISO-2022-JP
                //    decoder output state, and return error.
                self.iso_2022_jp_output = false;
                self.iso_2022_jp_decoder_state = self.iso_2022_jp_decoder_output_state;
                Step::Error {
                    consumed: false,
                    bad: 1,
                }
            }
            State::Escape => {
                // 1. Let leading be ISO-2022-JP leading.
                let leading = self.iso_2022_jp_leading;
                // 2–6. Let state be …
                let state = match (leading, byte) {
                    (0x28, 0x42) => Some(State::Ascii),
                    (0x28, 0x4A) => Some(State::Roman),
                    (0x28, 0x49) => Some(State::Katakana),
                    (0x24, 0x40 | 0x42) => Some(State::LeadingByte),
                    _ => None,
                };
                // 7. If state is non-null:
                if let Some(state) = state {
                    // 4. Return continue, if output is false, and error otherwise.
                    let output = self.iso_2022_jp_output;
                    if output && !dst.room_for_error(replace) {
                        return Step::Full;
                    }
                    // 1. (and set ISO-2022-JP leading to 0x00.)
                    self.iso_2022_jp_leading = 0;
                    // 1. Set ISO-2022-JP decoder state and ISO-2022-JP decoder output state to
                    //    state.
                    self.iso_2022_jp_decoder_state = state;
                    self.iso_2022_jp_decoder_output_state = state;
                    // 2–3. Let output be the value of ISO-2022-JP output; set it to true.
                    self.iso_2022_jp_output = true;
                    return if output {
                        Step::Error {
                            consumed: true,
                            bad: 3,
                        }
                    } else {
                        Step::Consumed
                    };
                }
                if !dst.room_for_error(replace) {
                    return Step::Full;
                }
                self.iso_2022_jp_leading = 0;
                // 8. Restore « leading, byte » to ioQueue: byte is not consumed, leading goes
                //    before it.
                self.pending.restore(&[leading]);
                // 9. Set ISO-2022-JP output to false, ISO-2022-JP decoder state to ISO-2022-JP
                //    decoder output state and return error.
                self.iso_2022_jp_output = false;
                self.iso_2022_jp_decoder_state = self.iso_2022_jp_decoder_output_state;
                Step::Error {
                    consumed: false,
                    bad: 1,
                }
            }
        }
    }

    /// <https://encoding.spec.whatwg.org/#iso-2022-jp-decoder>, where byte is end-of-queue.
    #[inline(always)]
    fn at_end<D: Dest>(&mut self, dst: &mut D, replace: bool) -> Step {
        if self.between_characters() {
            // ASCII, Roman, katakana, leading byte: return finished.
            return Step::Consumed;
        }
        if !dst.room_for_error(replace) {
            return Step::Full;
        }
        match self.iso_2022_jp_decoder_state {
            // Trailing byte, end-of-queue: set the ISO-2022-JP decoder state to leading byte
            // and return error.
            State::TrailingByte => self.iso_2022_jp_decoder_state = State::LeadingByte,
            // Escape start: 2. (byte is end-of-queue: nothing to restore.) 3. Set ISO-2022-JP
            // output to false, ISO-2022-JP decoder state to ISO-2022-JP decoder output state,
            // and return error.
            State::EscapeStart => {
                self.iso_2022_jp_output = false;
                self.iso_2022_jp_decoder_state = self.iso_2022_jp_decoder_output_state;
            }
            // Escape: 1. Let leading be ISO-2022-JP leading and set it to 0x00. 8. If byte is
            // end-of-queue, then restore leading to ioQueue. 9. Set ISO-2022-JP output to
            // false, ISO-2022-JP decoder state to ISO-2022-JP decoder output state and return
            // error.
            State::Escape => {
                let leading = self.iso_2022_jp_leading;
                self.iso_2022_jp_leading = 0;
                self.pending.restore(&[leading]);
                self.iso_2022_jp_output = false;
                self.iso_2022_jp_decoder_state = self.iso_2022_jp_decoder_output_state;
            }
            State::Ascii | State::Roman | State::Katakana | State::LeadingByte => {}
        }
        Step::Error {
            consumed: false,
            bad: 1,
        }
    }

    #[inline(always)]
    fn pending(&mut self) -> Option<&mut Pending> {
        Some(&mut self.pending)
    }
}

/// Copies the bytes at the start of `src` that are themselves in ASCII (or Roman) state, as
/// far as they fit. Scans at most a block ahead of what it copies, so that a small output
/// buffer does not make every call scan the whole input. Returns the bytes read and `false`:
/// when the output is full, the standard's handler finds it out on the next byte.
#[inline(always)]
fn copy_run<D: Dest>(src: &[u8], dst: &mut D, roman: bool) -> (usize, bool) {
    const BLOCK: usize = 256;
    let mut read = 0;
    while let Some(block) = src.get(read..).map(|rest| &rest[..rest.len().min(BLOCK)]) {
        let run = block
            .iter()
            .position(|&b| !is_self(b, roman))
            .unwrap_or(block.len());
        let copied = dst.copy_ascii(&block[..run]);
        read += copied;
        if copied < run || run < BLOCK {
            break;
        }
    }
    (read, false)
}

/// The length of the prefix of `bytes` in 0x21–0x7E: sixteen at a time (a loop the compiler
/// vectorises), then one by one in the block that ends it.
#[inline(always)]
fn pair_bytes_len(bytes: &[u8]) -> usize {
    let mut n = 0;
    while let Some(block) = bytes.get(n..n + 16) {
        if !block
            .iter()
            .fold(true, |all, &b| all & (b.wrapping_sub(0x21) < 0x5E))
        {
            break;
        }
        n += 16;
    }
    n + bytes[n..]
        .iter()
        .position(|&b| b.wrapping_sub(0x21) >= 0x5E)
        .unwrap_or(bytes.len() - n)
}

/// The shortest stretch of pairs (bytes) that [`decode_pairs`] stages for the decode run.
const STAGE_MIN: usize = 16;

/// Decodes the whole valid jis0208 pairs at the start of `src` that fit (leading-byte state).
/// Returns the bytes read and whether the output is full.
///
/// A pair of bytes 0x21–0x7E, each with 0x80 added, is EUC-JP's two-byte jis0208 pair for
/// the same pointer: stretches of such bytes go through the CJK decode run and pair kernels
/// with EUC-JP's tables (`Dest::legacy_run`), staged with 0x80 added; where that stops (an
/// unmapped pair, the last bytes of room), the loop below takes the pairs one by one.
#[inline(always)]
fn decode_pairs<D: Dest>(src: &[u8], dst: &mut D) -> (usize, bool) {
    const STAGE: usize = 256;
    let mut read = 0;
    loop {
        let rest = &src[read..];
        let rest = &rest[..rest.len().min(STAGE)];
        // Whole pairs only: a leading byte at the end waits for its trailing byte.
        let n = pair_bytes_len(rest) & !1;
        if n < STAGE_MIN {
            break;
        }
        let mut stage = [0u8; STAGE];
        for (staged, &b) in stage.iter_mut().zip(&rest[..n]) {
            *staged = b | 0x80;
        }
        let got = dst.legacy_run(&stage[..n], &euc_jp::PAIRS, &|_| 0, &|leading, byte| {
            jis0208(leading & 0x7F, byte & 0x7F).map_or(0, u32::from)
        });
        read += got;
        if got < n {
            break;
        }
    }
    while let (Some(&leading @ 0x21..=0x7E), Some(&trailing @ 0x21..=0x7E)) =
        (src.get(read), src.get(read + 1))
    {
        let Some(code_point) = jis0208(leading, trailing) else {
            break;
        };
        if !dst.room_for_bmp(code_point) {
            return (read, true);
        }
        dst.push_bmp(code_point);
        read += 2;
    }
    (read, false)
}

/// The most UTF-16 units `Iso2022JpEncoder::encode_switching` stages at a time.
const STAGE: usize = 512;

/// The standard's ISO-2022-JP encoder states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EncoderState {
    Ascii,
    Roman,
    Jis0208,
}

#[derive(Clone, Copy)]
pub(crate) struct Iso2022JpEncoder {
    iso_2022_jp_encoder_state: EncoderState,
}

/// The ASCII code points that ASCII state writes as themselves (step 4), as a bit set: all
/// but U+000E, U+000F and U+001B (step 3).
const ASCII_SELF: u128 = (u128::MAX >> 1) & !(1 << 0x0E | 1 << 0x0F | 1 << 0x1B);
/// The ASCII code points that Roman state writes as themselves (step 5): those of ASCII
/// state but U+005C and U+007E.
const ROMAN_SELF: u128 = ASCII_SELF & !(1 << 0x5C | 1 << 0x7E);

/// Steps 13–15's two bytes (pointer / 94 + 0x21, pointer % 94 + 0x21, as `lead << 8 |
/// trail`) of each code point with an index jis0208 pointer, in the pages of
/// `JIS0208_ENC_PAGES`.
static ENC_BYTES: [u16; JIS0208_ENC_BLOCKS.len()] =
    runs::pointer_bytes(&JIS0208_ENC_BLOCKS, runs::PointerBytes::Iso2022Jp);

/// The lookup of [`Iso2022JpEncoder::encode_switching`] for the `utf16_to_legacy` kernel:
/// `ENC_BYTES` has no bytes for the code points that steps 7–9 treat first (the state
/// machine's, or [`jis0208_bytes`]'s in jis0208 state: `euc_jp::DECLINED`; tested).
static ENC_TABLES: EncodeTables = EncodeTables {
    pages: &JIS0208_ENC_PAGES,
    blocks: Lookup::U16(&ENC_BYTES),
    latin1_from: 0,
};

/// What jis0208 state writes for the non-ASCII code point `code_point` without switching:
/// steps 8–15 as `lead << 8 | trail`, or 0 where the state machine decides (step 7 switches
/// to Roman for U+00A5 and U+203E; step 11 switches to ASCII where there is no pointer).
#[inline(always)]
fn jis0208_bytes(code_point: u32) -> u16 {
    if code_point == 0xA5 || code_point == 0x203E {
        return 0;
    }
    // 10. Let pointer be the index pointer for codePoint in index jis0208 (13–15: its bytes).
    paged(&JIS0208_ENC_PAGES, &ENC_BYTES, steps_8_9(code_point))
}

/// Steps 8–9 of the encoder: the code point whose jis0208 pointer stands for `code_point`.
#[inline(always)]
fn steps_8_9(code_point: u32) -> u32 {
    match code_point {
        // 8. If codePoint is U+2212 (−), then set it to U+FF0D (－).
        0x2212 => 0xFF0D,
        // 9. If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive, then set it to
        //    the index code point for codePoint − 0xFF61 in index ISO-2022-JP katakana.
        0xFF61..=0xFF9F => ISO_2022_JP_KATAKANA
            .get((code_point - 0xFF61) as usize)
            .map_or(0, |&c| u32::from(c)),
        _ => code_point,
    }
}

impl Iso2022JpEncoder {
    pub(crate) const fn new() -> Self {
        Iso2022JpEncoder {
            iso_2022_jp_encoder_state: EncoderState::Ascii,
        }
    }

    /// <https://encoding.spec.whatwg.org/#iso-2022-jp-encoder>
    ///
    /// Each round first takes the run that the current state writes without a switch: in
    /// ASCII and Roman state the ASCII code points that are themselves (steps 4–5), copied;
    /// in jis0208 state the non-ASCII code points with a jis0208 pointer (steps 8–15),
    /// through the CJK encode run and its kernels. It stops at anything else (a code point
    /// that switches state or is an error, the end of the input, a full output), which goes
    /// through [`Iso2022JpEncoder::step`], the standard's algorithm, one code point at a time.
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        last: bool,
    ) -> EncoderResult {
        // `encode_switching`'s stage and scratch buffers, zeroed once, at its first stage (3 KB;
        // before, 1 KB at every stage).
        let mut buffers = None;
        loop {
            self.encode_switching(src, dst, &mut buffers);
            match self.iso_2022_jp_encoder_state {
                EncoderState::Ascii => src.copy_ascii_in(dst, ASCII_SELF),
                EncoderState::Roman => src.copy_ascii_in(dst, ROMAN_SELF),
                EncoderState::Jis0208 => src.encode_non_ascii_run(dst, jis0208_bytes),
            }
            if let Some(result) = self.step(src, dst, last) {
                return result;
            }
        }
    }

    /// In ASCII or jis0208 state, encodes what steps 4, 6, 12 and 13–15 write for ASCII code
    /// points and code points with a jis0208 pointer, switching between the two states as
    /// they alternate, in stages of UTF-16 units: the `utf16_to_legacy` kernel, with this
    /// encoding's `ENC_TABLES`, writes ASCII units as themselves (one byte) and the others as
    /// their pairs (two), exactly what the two states write for them, into a scratch buffer;
    /// the runs of each are then copied out with an escape sequence where the kind changes.
    /// Stops before U+000E, U+000F, U+001B and anything the kernel leaves (the code points
    /// of steps 7–9, unmapped ones, surrogates), and when the output has room for fewer than
    /// 32 units at the worst (five bytes a unit: two, and a switch before each).
    ///
    /// Stages grow from 64 units, doubled while whole ones are encoded, to `STAGE`: where one
    /// stops early (a character it cannot take), what it converted after it is converted
    /// again, so a long stage there would waste most of itself. Japanese text with a few such
    /// characters, at NEON: 12.0 instructions a byte with stages of 256 units, 12.7 of 512;
    /// growing from 64, 11.5 to 256, 11.3 to 512, 11.5 to 1024.
    #[inline(always)]
    fn encode_switching<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        buffers: &mut Option<([u16; STAGE], [u8; 2 * STAGE])>,
    ) {
        if !src.kernels().tuning().call_legacy_encode {
            // The scalar `utf16_to_legacy` (a lookup for each unit) measured slower than the
            // runs of each state.
            return;
        }
        let mut stage_len = 64;
        loop {
            let mut jis = match self.iso_2022_jp_encoder_state {
                EncoderState::Ascii => false,
                EncoderState::Jis0208 => true,
                EncoderState::Roman => return,
            };
            let max = (dst.left() / 5).min(stage_len);
            if max < 32 {
                return;
            }
            let (stage, scratch) = buffers.get_or_insert_with(|| ([0; STAGE], [0; 2 * STAGE]));
            let mut again = false;
            src.with_utf16(&mut stage[..max], |kernels, units| {
                let staged = units.len().min(max);
                let units = &units[..staged];
                let (plain, _) =
                    kernels.utf16_to_legacy(units, &ENC_TABLES, crate::simd::as_out(&mut scratch[..]));
                // The runs of each kind: their bytes from `scratch` (one a unit for ASCII, two
                // for the others), after an escape sequence where the kind changes.
                let units = &units[..plain];
                let (mut i, mut o) = (0, 0);
                while let Some(&first) = units.get(i) {
                    let is_ascii = first < 0x80;
                    let mut j = i;
                    if is_ascii {
                        // Up to U+000E, U+000F or U+001B (which the kernel writes as themselves):
                        // the state machine's.
                        while units.get(j).is_some_and(|&u| {
                            u < 0x80 && (u >= 0x20 || (1u32 << 0x0E | 1 << 0x0F | 1 << 0x1B) >> u & 1 == 0)
                        }) {
                            j += 1;
                        }
                        if j == i {
                            break;
                        }
                    } else {
                        j += encode_runs::non_ascii_prefix(&units[j..]);
                    }
                    if is_ascii == jis {
                        // 6. An ASCII code point in jis0208 state: switch to ASCII (0x1B 0x28
                        //    0x42). 12. A code point with a pointer in ASCII state: switch to
                        //    jis0208 (0x1B 0x24 0x42).
                        dst.push(if is_ascii { b"\x1B(B" } else { b"\x1B$B" });
                        jis = !is_ascii;
                    }
                    // 4. ASCII in ASCII state: the code point. 13–15. The pointer's two bytes.
                    let len = if is_ascii { j - i } else { 2 * (j - i) };
                    dst.push_short(&scratch[o..o + len]);
                    o += len;
                    i = j;
                }
                let end = i;
                // All the units of a full stage: more may follow. (A stage from UTF-8 may
                // stop with up to 63 units of room left: `Source::with_utf16`. Some units:
                // each round consumes some.)
                again = end == staged && staged > 0 && staged + 64 > max;
                end
            });
            self.iso_2022_jp_encoder_state = if jis {
                EncoderState::Jis0208
            } else {
                EncoderState::Ascii
            };
            if !again {
                return;
            }
            stage_len = (2 * stage_len).min(STAGE);
        }
    }

    /// The standard's handler for the next code point (or end-of-queue): `None` when it
    /// consumed the code point or switched state (the encoder goes on), else what `encode`
    /// returns.
    ///
    /// "Restore codePoint" is realised by not consuming it: the escape sequence is written,
    /// the state switched, and the same code point is looked at again.
    #[inline(never)]
    fn step<S: Source>(&mut self, src: &mut S, dst: &mut ByteDest<'_>, last: bool) -> Option<EncoderResult> {
        use EncoderState::{Ascii, Jis0208, Roman};
        let state = self.iso_2022_jp_encoder_state;
        let Some((c, len)) = src.peek() else {
            // 1. If codePoint is end-of-queue and ISO-2022-JP encoder state is not ASCII,
            //    then set ISO-2022-JP encoder state to ASCII and return three bytes
            //    0x1B 0x28 0x42.
            if last && state != Ascii {
                if dst.left() < 3 {
                    return Some(EncoderResult::OutputFull);
                }
                dst.push(b"\x1B(B");
                self.iso_2022_jp_encoder_state = Ascii;
            }
            // 2. … return finished.
            return Some(EncoderResult::InputEmpty);
        };
        let code_point = u32::from(c);
        // 3. If ISO-2022-JP encoder state is ASCII or Roman, and codePoint is U+000E,
        //    U+000F, or U+001B, then return error with U+FFFD (�).
        if state != Jis0208 && matches!(code_point, 0x0E | 0x0F | 0x1B) {
            src.advance(len);
            return Some(EncoderResult::Unmappable('\u{FFFD}'));
        }
        // 4. If ISO-2022-JP encoder state is ASCII and codePoint is an ASCII code point,
        //    then return a byte whose value is codePoint.
        // 5. If ISO-2022-JP encoder state is Roman and codePoint is an ASCII code point,
        //    excluding U+005C (\) and U+007E (~), or is U+00A5 (¥) or U+203E (‾): return a
        //    byte: codePoint, 0x5C for ¥, 0x7E for ‾.
        let byte = match (state, code_point) {
            (Ascii, 0x00..=0x7F) => Some(code_point as u8),
            (Roman, 0x5C | 0x7E) => None,
            (Roman, 0x00..=0x7F) => Some(code_point as u8),
            (Roman, 0xA5) => Some(0x5C),
            (Roman, 0x203E) => Some(0x7E),
            _ => None,
        };
        if let Some(byte) = byte {
            if dst.left() == 0 {
                return Some(EncoderResult::OutputFull);
            }
            dst.push_byte(byte);
            src.advance(len);
            return None;
        }
        // 6. If codePoint is an ASCII code point, and ISO-2022-JP encoder state is not
        //    ASCII, then restore codePoint to ioQueue, set ISO-2022-JP encoder state to
        //    ASCII, and return three bytes 0x1B 0x28 0x42.
        if code_point < 0x80 && state != Ascii {
            return self.switch(dst, Ascii);
        }
        // 7. If codePoint is either U+00A5 (¥) or U+203E (‾), and ISO-2022-JP encoder state
        //    is not Roman, then restore codePoint to ioQueue, set ISO-2022-JP encoder state
        //    to Roman, and return three bytes 0x1B 0x28 0x4A.
        if (code_point == 0xA5 || code_point == 0x203E) && state != Roman {
            return self.switch(dst, Roman);
        }
        // 8.–9. (U+2212 and the half-width katakana.)
        let code_point = steps_8_9(code_point);
        // 10. Let pointer be the index pointer for codePoint in index jis0208.
        let pointer_plus_one = paged(&JIS0208_ENC_PAGES, &JIS0208_ENC_BLOCKS, code_point);
        // 11. If pointer is null:
        let Some(pointer) = pointer_plus_one.checked_sub(1) else {
            // 1. If ISO-2022-JP encoder state is jis0208, then restore codePoint to
            //    ioQueue, set ISO-2022-JP encoder state to ASCII, and return three bytes
            //    0x1B 0x28 0x42.
            if state == Jis0208 {
                return self.switch(dst, Ascii);
            }
            // 2. Return error with codePoint.
            src.advance(len);
            return Some(EncoderResult::Unmappable(char::from_u32(code_point).unwrap_or(c)));
        };
        // 12. If ISO-2022-JP encoder state is not jis0208, then restore codePoint to
        //     ioQueue, set ISO-2022-JP encoder state to jis0208, and return three bytes
        //     0x1B 0x24 0x42.
        if state != Jis0208 {
            return self.switch(dst, Jis0208);
        }
        // 13–15. Return pointer / 94 + 0x21 and pointer % 94 + 0x21.
        if dst.left() < 2 {
            return Some(EncoderResult::OutputFull);
        }
        dst.push(&[(pointer / 94 + 0x21) as u8, (pointer % 94 + 0x21) as u8]);
        src.advance(len);
        None
    }

    /// Writes the escape sequence for `state` and switches to it: `None`, or output full if
    /// it does not fit.
    #[inline]
    fn switch(&mut self, dst: &mut ByteDest<'_>, state: EncoderState) -> Option<EncoderResult> {
        if dst.left() < 3 {
            return Some(EncoderResult::OutputFull);
        }
        dst.push(match state {
            EncoderState::Ascii => b"\x1B(B",
            EncoderState::Roman => b"\x1B(J",
            EncoderState::Jis0208 => b"\x1B$B",
        });
        self.iso_2022_jp_encoder_state = state;
        None
    }

    pub(crate) fn has_pending_state(&self) -> bool {
        self.iso_2022_jp_encoder_state != EncoderState::Ascii
    }
}

#[cfg(test)]
mod tests {
    use super::Iso2022JpDecoder;
    use crate::ISO_2022_JP;
    use crate::codecs::dest::{Dest, Utf8Dest};
    use crate::codecs::driver;
    use crate::codecs::testing::{
        Rng, check_decode, check_decode_thoroughly, check_encode, check_encode_thoroughly,
    };
    use crate::results::Status;

    /// The vector kernel relies on it: the code points that steps 7–9 treat first
    /// (`euc_jp::DECLINED`) have no bytes in `ENC_TABLES`.
    #[test]
    fn declined_code_points_have_no_bytes_in_the_kernel_table() {
        crate::codecs::testing::assert_no_bytes(
            &super::JIS0208_ENC_PAGES,
            &super::ENC_BYTES,
            &crate::codecs::euc_jp::DECLINED,
        );
    }

    /// Prefixes leaving the decoder in each state, with ISO-2022-JP output set and not set.
    const PREFIXES: &[&[u8]] = &[
        b"",
        b"\x1B(B",
        b"\x1B(J",
        b"\x1B(Ja",
        b"\x1B(I",
        b"\x1B(I!",
        b"\x1B$@",
        b"\x1B$B",
        b"\x1B$B\x30\x21",
        b"\x1B$B\x30",
    ];

    /// Every `len`-byte input over `set`, each after `prefix`.
    fn combinations(set: &[u8], len: u32, prefix: &[u8]) -> impl Iterator<Item = Vec<u8>> {
        (0..set.len().pow(len)).map(move |mut n| {
            let mut input = prefix.to_vec();
            for _ in 0..len {
                input.push(set[n % set.len()]);
                n /= set.len();
            }
            input
        })
    }

    #[test]
    fn every_one_and_two_byte_input_equals_spec() {
        for a in 0..=255u8 {
            check_decode(ISO_2022_JP, &[a], &[], 16);
            for b in 0..=255u8 {
                check_decode(ISO_2022_JP, &[a, b], &[], 16);
            }
        }
    }

    #[test]
    fn every_two_byte_input_in_every_state_equals_spec() {
        for prefix in PREFIXES {
            for input in combinations(&(0..=255).collect::<Vec<u8>>(), 2, prefix) {
                check_decode(ISO_2022_JP, &input, &[], 32);
            }
        }
    }

    /// Bytes that matter to escape sequences and to the four output states.
    const ESCAPE_RELEVANT: &[u8] = &[
        0x1B, 0x24, 0x28, 0x40, 0x42, 0x49, 0x4A, 0x0E, 0x5C, 0x7E, 0x21, 0x7F, 0x80, 0x0A, 0x41,
    ];

    #[test]
    fn every_three_byte_escape_relevant_input_in_every_state_equals_spec() {
        for prefix in PREFIXES {
            for input in combinations(ESCAPE_RELEVANT, 3, prefix) {
                let n = prefix.len();
                check_decode(ISO_2022_JP, &input, &[], 32);
                check_decode(ISO_2022_JP, &input, &[n + 1, n + 2], 32);
            }
        }
    }

    #[test]
    fn every_four_and_five_byte_escape_input_in_chunks_equals_spec() {
        const SMALL: &[u8] = &[0x1B, 0x24, 0x28, 0x42, 0x4A, 0x40, 0x21, 0x0A];
        for prefix in [&b""[..], b"\x1B$B", b"\x1B(J"] {
            for input in combinations(SMALL, 4, prefix) {
                let n = prefix.len();
                check_decode(ISO_2022_JP, &input, &[], 32);
                check_decode(ISO_2022_JP, &input, &[n + 1, n + 2, n + 3], 32);
                check_decode(ISO_2022_JP, &input, &[n + 2], 4);
            }
        }
        for input in combinations(SMALL, 5, b"") {
            check_decode(ISO_2022_JP, &input, &[], 32);
            check_decode(ISO_2022_JP, &input, &[1, 2, 3, 4], 32);
        }
        for input in combinations(ESCAPE_RELEVANT, 4, b"") {
            check_decode(ISO_2022_JP, &input, &[], 32);
        }
    }

    /// Pieces of ISO-2022-JP: escape sequences (valid, broken, cut), and text for every state.
    const PIECES: &[&[u8]] = &[
        b"\x1B(B",
        b"\x1B(J",
        b"\x1B(I",
        b"\x1B$@",
        b"\x1B$B",
        b"abc",
        b"\n",
        b"\\~",
        b"!_",
        b"\x30\x21\x46\x7C",
        b"\x24\x22\x21\x21",
        b"\x7E\x7E",
        b"\x29\x21",
        b"\x0E",
        b"\x0F",
        b"\x80\xFF",
        b"\x7F",
        b"\x1B",
        b"\x1B$",
        b"\x1B(",
        b"\x1B$A",
        b"\x1B(C",
        b"\x1B\x1B",
        b"\x1B$(B",
        b"\x30\x1B(B",
        b"\x30\n",
    ];

    #[test]
    fn structured_samples_equal_spec_in_chunks_and_small_buffers() {
        let mut rng = Rng(0x1B28_4224_4000_0E0F);
        for _ in 0..400 {
            let mut input = Vec::new();
            for _ in 0..1 + rng.below(7) {
                input.extend_from_slice(PIECES[rng.below(PIECES.len())]);
            }
            check_decode_thoroughly(ISO_2022_JP, &input);
        }
        for a in PIECES {
            for b in PIECES {
                check_decode_thoroughly(ISO_2022_JP, &[*a, *b].concat());
            }
        }
    }

    #[test]
    fn every_bmp_scalar_and_some_astral_ones_encode_as_spec_in_every_state() {
        for prefix in ["", "\u{A5}", "\u{3042}"] {
            for c in (0..=0xFFFFu32).filter_map(char::from_u32) {
                check_encode(ISO_2022_JP, &format!("{prefix}{c}"), &[], 32);
            }
            for c in ['\u{10000}', '\u{1F600}', '\u{20B9F}', '\u{10FFFF}'] {
                check_encode(ISO_2022_JP, &format!("{prefix}{c}"), &[], 32);
            }
        }
    }

    #[test]
    fn switching_text_encodes_as_spec_in_chunks_and_small_buffers() {
        let pieces = [
            "ab",
            "\\",
            "~",
            "\u{A5}",
            "\u{203E}",
            "\u{3042}",
            "\u{65E5}\u{672C}",
            "\u{FF71}",
            "\u{FF9F}",
            "\u{2212}",
            "\u{E}",
            "\u{F}",
            "\u{1B}",
            "\u{E9}",
            "\u{1F600}",
            "\n",
            "\u{FFFD}",
            "\u{80}",
        ];
        let mut rng = Rng(0x2022_0000_4A50_0001);
        for _ in 0..300 {
            let text: String = (0..1 + rng.below(6))
                .map(|_| pieces[rng.below(pieces.len())])
                .collect();
            check_encode_thoroughly(ISO_2022_JP, &text);
        }
        for a in pieces {
            for b in pieces {
                check_encode_thoroughly(ISO_2022_JP, &[a, b].concat());
            }
        }
        // The escape at the end needs three bytes: output buffers of 1 to 3 bytes stall or fit.
        for cap in 3..=8 {
            check_encode(ISO_2022_JP, "\u{3042}", &[], cap);
            check_encode(ISO_2022_JP, "\u{A5}a\u{A5}", &[], cap);
        }
    }

    /// `len` bytes of valid jis0208 pairs (kanji, kana, Greek: 2 and 3 UTF-8 bytes).
    fn pairs(len: usize, rng: &mut Rng) -> Vec<u8> {
        const PAIRS: &[[u8; 2]] = &[
            *b"\x30\x21",
            *b"\x46\x7C",
            *b"\x24\x22",
            *b"\x26\x21",
            *b"\x21\x21",
            *b"\x74\x26",
        ];
        let mut bytes: Vec<u8> = (0..len.div_ceil(2))
            .flat_map(|_| PAIRS[rng.below(PAIRS.len())])
            .collect();
        bytes.truncate(len);
        bytes
    }

    #[test]
    fn long_pair_stretches_decode_as_spec_with_an_edge_at_every_position() {
        let mut rng = Rng(0x2442_3021_467C_2422);
        // Bytes that end or break a stretch of pairs: an unmapped pair's bytes (0x29 0x21 and
        // 0x7E 0x7E), an escape sequence, a byte outside 0x21–0x7E, ASCII controls.
        const EDGES: &[&[u8]] = &[
            b"\x29\x21",
            b"\x7E\x7E",
            b"\x1B(B",
            b"\x1B$B",
            b"\x1B(J",
            b"\x1B",
            b"\x80",
            b"\n",
            b"\x20",
            b"\x7F",
        ];
        let text = pairs(300, &mut rng);
        for (n, edge) in EDGES.iter().enumerate() {
            for at in (0..=text.len()).filter(|at| at % 3 == n % 3 || (14..=36).contains(at) || *at > 250) {
                let input = [b"\x1B$B", &text[..at], edge, &text[at..]].concat();
                check_decode(ISO_2022_JP, &input, &[], input.len() * 3 + 16);
            }
        }
        for len in 0..=300 {
            for tail in [&b""[..], b"\x1B(Babc", b"\x29\x21\x30\x21"] {
                let input = [b"\x1B$B", &pairs(len, &mut rng)[..], tail].concat();
                check_decode(ISO_2022_JP, &input, &[], input.len() * 3 + 16);
            }
        }
    }

    #[test]
    fn switching_bytes_decode_as_spec_in_chunks_and_small_buffers() {
        let mut rng = Rng(0x1B28_421B_2442_0000);
        const ESCAPES: &[&[u8]] = &[
            b"\x1B(B", b"\x1B$B", b"\x1B$@", b"\x1B(J", b"\x1B(I", b"\x1B$A", b"\x1B",
        ];
        for round in 0..400 {
            let mut input = Vec::new();
            for _ in 0..1 + rng.below(8) {
                input.extend_from_slice(ESCAPES[rng.below(ESCAPES.len())]);
                let longest = if rng.below(2) == 0 { 80 } else { 8 };
                let len = rng.below(longest);
                match rng.below(3) {
                    0 => input.extend_from_slice(&pairs(len, &mut rng)),
                    1 => input.extend((0..len).map(|_| b"ab \n\\~!_"[rng.below(8)])),
                    _ => input.extend((0..len).map(|_| ALPHABET_RANDOM[rng.below(ALPHABET_RANDOM.len())])),
                }
            }
            let mut splits: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(input.len() + 1)).collect();
            splits.sort_unstable();
            let cap = if round % 3 == 0 {
                input.len() * 3 + 16
            } else {
                4 + rng.below(80)
            };
            check_decode(ISO_2022_JP, &input, &splits, cap);
        }
    }

    /// Bytes for random decoder input: escape-relevant ones and pair bytes.
    const ALPHABET_RANDOM: &[u8] = b"\x1B\x24\x28\x40\x42\x49\x4A\x0E\x5C\x7E\x21\x30\x5F\x7F\x80\x0A\x41";

    /// Code points that stop a run or switch to Roman: U+000E, U+000F and U+001B (errors in
    /// ASCII state), U+005C and U+007E, U+00A5 and U+203E (Roman), U+2212 and U+FF61–U+FF9F
    /// (jis0208 through steps 8–9), unmapped ones, an astral one.
    const RUN_EDGES: &[char] = &[
        '\u{E}',
        '\u{F}',
        '\u{1B}',
        '\\',
        '~',
        '\u{A5}',
        '\u{203E}',
        '\u{2212}',
        '\u{FF61}',
        '\u{FF9F}',
        '\u{E9}',
        '\u{FFFD}',
        '\u{1F600}',
        '\n',
    ];

    /// Text of alternating runs (kanji and kana, ASCII) of lengths 1 to 70, `len` characters.
    fn switching_text(len: usize, rng: &mut Rng) -> Vec<char> {
        const KANJI: &[char] = &[
            '日', '本', '語', 'の', 'ア', '漢', '字', '。', '「', '」', 'Ω', 'а',
        ];
        const ASCII: &[char] = &['a', 'Z', ' ', '0', '(', '\n', '\t', '}'];
        let mut text = Vec::new();
        while text.len() < len {
            let longest = if rng.below(3) == 0 { 70 } else { 8 };
            let run = 1 + rng.below(longest);
            let set = if text.len() % 2 == 0 { KANJI } else { ASCII };
            text.extend((0..run).map(|_| set[rng.below(set.len())]));
        }
        text.truncate(len);
        text
    }

    #[test]
    fn switching_runs_encode_as_spec_with_an_edge_at_every_position() {
        let mut rng = Rng(0x1B24_4200_1B28_4201);
        let text = switching_text(300, &mut rng);
        for (n, &edge) in RUN_EDGES.iter().enumerate() {
            for at in (0..=text.len()).filter(|at| at % 5 == n % 5 || (28..=36).contains(at) || *at > 250) {
                let mut input = text.clone();
                input.insert(at, edge);
                let input: String = input.into_iter().collect();
                check_encode(ISO_2022_JP, &input, &[], input.len() * 4 + 16);
            }
        }
        // Runs of one kind ending at every length, before each edge.
        for kanji in [true, false] {
            for len in 0..=300 {
                for &edge in &RUN_EDGES[..4] {
                    let run = if kanji { '語' } else { 'a' };
                    let input: String = std::iter::repeat_n(run, len).chain([edge, run]).collect();
                    check_encode(ISO_2022_JP, &input, &[], input.len() * 4 + 16);
                }
            }
        }
    }

    #[test]
    fn switching_runs_encode_as_spec_in_chunks_and_output_buffers_around_the_stage() {
        let mut rng = Rng(0x4953_4F32_3032_324A);
        for round in 0..300 {
            let mut text = switching_text(1 + rng.below(700), &mut rng);
            for _ in 0..rng.below(4) {
                let at = rng.below(text.len() + 1);
                text.insert(at, RUN_EDGES[rng.below(RUN_EDGES.len())]);
            }
            let n = text.len();
            let input: String = text.into_iter().collect();
            let mut splits: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(n + 1)).collect();
            splits.sort_unstable();
            // Around 32 units of room at five bytes a unit, and around the stage of 256.
            const CAPS: &[usize] = &[8, 150, 159, 160, 161, 164, 165, 200, 300, 1279, 1280, 1281, 1300];
            let cap = if round % 4 == 0 {
                input.len() * 4 + 16
            } else {
                CAPS[rng.below(CAPS.len())]
            };
            check_encode(ISO_2022_JP, &input, &splits, cap);
        }
        // The most output a unit can make: two bytes and a switch, for each one.
        let alternating: String = "a\u{8A9E}".repeat(300);
        for cap in (150..=170).chain(1275..=1285) {
            check_encode(ISO_2022_JP, &alternating, &[], cap);
            check_encode(ISO_2022_JP, &alternating[1..], &[7], cap);
        }
    }

    #[test]
    fn held_bytes_initial_state_and_latin1_prefix() {
        let mut decoder = Iso2022JpDecoder::new();
        let mut buf = [0u8; 16];
        let mut dst = Utf8Dest::new(crate::simd::as_out(&mut buf), crate::simd::active());
        assert!(decoder.is_initial());
        assert_eq!(decoder.latin1_byte_compatible_up_to(b"ab\x0Ec"), 2);
        assert_eq!(decoder.latin1_byte_compatible_up_to(b"ab\x1B"), 2);
        assert_eq!(decoder.latin1_byte_compatible_up_to(b"a\\~\x80"), 3);
        assert_eq!(
            driver::decode(&mut decoder, b"a\x1B$", &mut dst, false, false),
            (Status::INPUT_EMPTY, 3)
        );
        assert_eq!((decoder.held(), decoder.is_initial()), (2, false));
        // ESC $ then end-of-queue: error, and `$` restored.
        assert_eq!(
            driver::decode(&mut decoder, b"", &mut dst, true, false),
            (Status::malformed(1, 1), 0)
        );
        assert_eq!((decoder.held(), decoder.is_initial()), (1, false));
        assert_eq!(
            driver::decode(&mut decoder, b"", &mut dst, true, false),
            (Status::INPUT_EMPTY, 0)
        );
        assert!(decoder.is_initial());
        let written = dst.written();
        assert_eq!(&buf[..written], b"a$");
    }

    #[test]
    fn random_inputs_equal_spec_in_random_chunks_and_buffers() {
        const ALPHABET: &[u8] =
            b"\x1B\x1B\x1B\x24\x28\x40\x42\x49\x4A\x0E\x0F\x5C\x7E\x21\x30\x5F\x7F\x80\x0A\x41";
        let mut rng = Rng(0x4953_4F00_0000_0004);
        for _ in 0..4000 {
            let len = rng.below(24);
            let input: Vec<u8> = (0..len)
                .map(|_| match rng.below(4) {
                    0 => rng.below(256) as u8,
                    _ => ALPHABET[rng.below(ALPHABET.len())],
                })
                .collect();
            let mut splits: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(len + 1)).collect();
            splits.sort_unstable();
            check_decode(ISO_2022_JP, &input, &splits, 4 + rng.below(9));
        }
        let chars = [
            "ab",
            "\\",
            "~",
            "\n",
            "\u{A5}",
            "\u{203E}",
            "\u{3042}",
            "\u{65E5}",
            "\u{FF71}",
            "\u{2212}",
            "\u{E}",
            "\u{1B}",
            "\u{E9}",
            "\u{1F600}",
            "\u{FFFD}",
        ];
        for _ in 0..2000 {
            let text: String = (0..rng.below(10))
                .map(|_| chars[rng.below(chars.len())])
                .collect();
            let n = text.chars().count();
            let mut splits: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(n + 1)).collect();
            splits.sort_unstable();
            check_encode(ISO_2022_JP, &text, &splits, 3 + rng.below(10));
        }
    }
}
