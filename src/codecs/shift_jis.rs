//! Shift_JIS.
//!
//! <https://encoding.spec.whatwg.org/#shift_jis-decoder>: ASCII and 0x80 are themselves,
//! 0xA1–0xDF are half-width katakana, 0x81–0x9F and 0xE0–0xFC lead a two-byte character
//! (index jis0208, or the EUDC private-use range for pointers 8836–10715). A trailing byte
//! that is an ASCII byte and does not complete a character is restored: it is simply not
//! consumed, so no byte ever needs to wait in `Pending`.
//!
//! Decoding runs a fast path over the buffer while the decoder holds no leading byte: ASCII
//! runs go through the `copy_ascii` kernel, single-byte characters and whole two-byte
//! characters are decoded straight from `src`. It stops at anything else (an error, a
//! character cut by the end of the buffer, a full output), and the standard's handler
//! (`StateMachine::step`) takes one byte before the fast path resumes.
//!
//! Encoding copies ASCII runs with the `copy_ascii` kernel and looks up everything else in
//! the generated index Shift_JIS pointer table (pointers 8272–8835 already excluded).

use crate::codecs::dest::Dest;
use crate::codecs::driver::{self, StateMachine, Step};
use crate::codecs::runs::{self, PairShape};
use crate::codecs::source::{ByteDest, Source};
use crate::results::EncoderResult;
use crate::simd::{EncodeTables, Lookup, PairTables};
use crate::tables::jis0208::{JIS0208, SHIFT_JIS_ENC_BLOCKS, SHIFT_JIS_ENC_PAGES};
use crate::tables::paged;

#[derive(Clone, Copy)]
pub(crate) struct ShiftJisDecoder {
    /// The standard's Shift_JIS leading; 0x00 when none.
    shift_jis_leading: u8,
}

/// The code point of the two-byte sequence `leading`, `byte` (steps 3.4–3.9), if any.
#[inline(always)]
fn two_byte(leading: u8, byte: u8) -> Option<u16> {
    // 4. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x41.
    let offset = if byte < 0x7F { 0x40 } else { 0x41 };
    // 5. Let leadingOffset be 0x81 if leading is less than 0xA0; otherwise 0xC1.
    let leading_offset = if leading < 0xA0 { 0x81 } else { 0xC1 };
    // 6. If byte is in the range 0x40 to 0x7E, inclusive, or 0x80 to 0xFC, inclusive, then
    //    set pointer to (leading − leadingOffset) × 188 + byte − offset.
    if !matches!(byte, 0x40..=0x7E | 0x80..=0xFC) || leading < leading_offset {
        return None;
    }
    let pointer = usize::from(leading - leading_offset) * 188 + usize::from(byte - offset);
    // 7. If pointer is in the range 8836 to 10715, inclusive, then return a code point whose
    //    value is 0xE000 − 8836 + pointer.
    if (8836..=10715).contains(&pointer) {
        return Some((0xE000 - 8836 + pointer) as u16);
    }
    // 8. Let codePoint be … the index code point for pointer in index jis0208.
    JIS0208.get(pointer).copied().filter(|&c| c != 0)
}

impl ShiftJisDecoder {
    pub(crate) const fn new() -> Self {
        ShiftJisDecoder { shift_jis_leading: 0 }
    }

    pub(crate) fn held(&self) -> usize {
        usize::from(self.shift_jis_leading != 0)
    }

    pub(crate) fn is_initial(&self) -> bool {
        self.shift_jis_leading == 0
    }
}

impl StateMachine for ShiftJisDecoder {
    #[inline(always)]
    fn between_characters(&self) -> bool {
        self.shift_jis_leading == 0
    }

    /// ASCII runs, single-byte and whole two-byte characters; it leaves errors, a leading
    /// byte whose trailing byte is not in `src`, and the EUDC pointers to the step.
    #[inline(always)]
    fn fast_run<D: Dest>(&mut self, src: &[u8], dst: &mut D) -> (usize, bool) {
        runs::decode_run(
            src,
            dst,
            &PAIRS,
            |byte| match byte {
                0x80 => 0x80,
                0xA1..=0xDF => 0xFF61 - 0xA1 + u32::from(byte),
                _ => 0,
            },
            // Index jis0208 (0 where it has no code point, and at the EUDC pointers).
            |leading, byte| SHAPE.lookup(leading, byte, &JIS0208).map_or(0, u32::from),
        )
    }

    /// <https://encoding.spec.whatwg.org/#shift_jis-decoder>
    #[inline(never)]
    fn step<D: Dest>(&mut self, byte: u8, dst: &mut D, replace: bool) -> Step {
        // 3. If Shift_JIS leading is not 0x00:
        if self.shift_jis_leading != 0 {
            // 1–2. Let leading be Shift_JIS leading; set Shift_JIS leading to 0x00.
            let leading = self.shift_jis_leading;
            if let Some(code_point) = two_byte(leading, byte) {
                // 9. If codePoint is non-null, then return a code point whose value is
                //    codePoint.
                if !dst.room_for_bmp(code_point) {
                    return Step::Full;
                }
                self.shift_jis_leading = 0;
                dst.push_bmp(code_point);
                return Step::Consumed;
            }
            if !dst.room_for_error(replace) {
                return Step::Full;
            }
            self.shift_jis_leading = 0;
            // 10. If byte is an ASCII byte, then restore byte to ioQueue.
            // 11. Return error.
            let consumed = byte >= 0x80;
            return Step::Error {
                consumed,
                bad: 1 + u8::from(consumed),
            };
        }
        // 4. If byte is an ASCII byte or 0x80, then return a code point whose value is byte.
        // 5. If byte is in the range 0xA1 to 0xDF, inclusive, then return a code point whose
        //    value is 0xFF61 − 0xA1 + byte.
        let code_point = match byte {
            0x00..=0x80 => u16::from(byte),
            0xA1..=0xDF => 0xFF61 - 0xA1 + u16::from(byte),
            // 6. If byte is in the range 0x81 to 0x9F, inclusive, or 0xE0 to 0xFC, inclusive,
            //    then set Shift_JIS leading to byte and return continue.
            0x81..=0x9F | 0xE0..=0xFC => {
                self.shift_jis_leading = byte;
                return Step::Consumed;
            }
            // 7. Return error.
            _ => {
                if !dst.room_for_error(replace) {
                    return Step::Full;
                }
                return Step::Error {
                    consumed: true,
                    bad: 1,
                };
            }
        };
        if !dst.room_for_bmp(code_point) {
            return Step::Full;
        }
        dst.push_bmp(code_point);
        Step::Consumed
    }

    /// Steps 1–2 of <https://encoding.spec.whatwg.org/#shift_jis-decoder>.
    #[inline(always)]
    fn at_end<D: Dest>(&mut self, dst: &mut D, replace: bool) -> Step {
        driver::at_end_of_leading(&mut self.shift_jis_leading, dst, replace)
    }
}

/// Lead and trail bytes of two-byte characters: rows of 188 pointers for leads 0x81–0x9F
/// then 0xE0–0xFC (steps 3.5–3.6: leading − leadingOffset), columns for trails 0x40–0x7E then
/// 0x80–0xFC (byte − offset).
const SHAPE_DEF: PairShape =
    PairShape::new(&[(0x81, 0x9F), (0xE0, 0xFC)], &[(0x40, 0x7E), (0x80, 0xFC)], 188);
static SHAPE: PairShape = SHAPE_DEF;
/// The same pairs for the vector kernels.
pub(crate) static PAIRS: PairTables = SHAPE_DEF.tables(Lookup::U16(&JIS0208));

#[derive(Clone, Copy)]
pub(crate) struct ShiftJisEncoder;

/// The bytes of each code point with an index Shift_JIS pointer, in the pages of
/// `SHIFT_JIS_ENC_PAGES`.
static ENC_BYTES: [u16; SHIFT_JIS_ENC_BLOCKS.len()] =
    runs::pointer_bytes(&SHIFT_JIS_ENC_BLOCKS, runs::PointerBytes::ShiftJis);
/// The encode run's lookup for the vector kernels: `ENC_BYTES`, which has no bytes for what
/// the state machine takes (`DECLINED`; tested).
pub(crate) static ENC_TABLES: EncodeTables = EncodeTables {
    pages: &SHIFT_JIS_ENC_PAGES,
    blocks: Lookup::U16(&ENC_BYTES),
    latin1_from: 0,
};

/// The code points the state machine takes (steps 2–6: the single bytes and U+2212).
#[cfg(test)]
const DECLINED: [(u16, u16); 5] = [
    (0x80, 0x80),
    (0xA5, 0xA5),
    (0x203E, 0x203E),
    (0x2212, 0x2212),
    (0xFF61, 0xFF9F),
];

/// What the encoder writes for one non-ASCII code point.
enum Mapped {
    One(u8),
    Two(u8, u8),
    Unmappable,
}

/// <https://encoding.spec.whatwg.org/#shift_jis-encoder>, steps 2–13, for one code point.
#[inline(always)]
fn map(c: char) -> Mapped {
    let code_point = u32::from(c);
    match code_point {
        // 2. If codePoint is an ASCII code point or U+0080, then return a byte whose value is
        //    codePoint.
        0x00..=0x80 => Mapped::One(code_point as u8),
        // 3. If codePoint is U+00A5 (¥), then return byte 0x5C.
        0xA5 => Mapped::One(0x5C),
        // 4. If codePoint is U+203E (‾), then return byte 0x7E.
        0x203E => Mapped::One(0x7E),
        // 5. If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive, then return a
        //    byte whose value is codePoint − 0xFF61 + 0xA1.
        0xFF61..=0xFF9F => Mapped::One((code_point - 0xFF61 + 0xA1) as u8),
        _ => {
            // 6. If codePoint is U+2212 (−), then set it to U+FF0D (－).
            let code_point = if code_point == 0x2212 { 0xFF0D } else { code_point };
            // 7. Let pointer be the index Shift_JIS pointer for codePoint.
            let pointer_plus_one = paged(&SHIFT_JIS_ENC_PAGES, &SHIFT_JIS_ENC_BLOCKS, code_point);
            // 8. If pointer is null, then return error with codePoint.
            let Some(pointer) = pointer_plus_one.checked_sub(1) else {
                return Mapped::Unmappable;
            };
            // 9–13.
            let leading = pointer / 188;
            let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
            let trailing = pointer % 188;
            let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
            Mapped::Two((leading + leading_offset) as u8, (trailing + offset) as u8)
        }
    }
}

/// The encode run's lookup: the two bytes of `c` (`lead << 8 | trail`), or 0 for what the
/// state machine takes.
#[inline(always)]
pub(crate) fn run_bytes(c: u32) -> u16 {
    paged(&SHIFT_JIS_ENC_PAGES, &ENC_BYTES, c)
}

impl ShiftJisEncoder {
    pub(crate) const fn new() -> Self {
        ShiftJisEncoder
    }

    /// <https://encoding.spec.whatwg.org/#shift_jis-encoder>
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        _last: bool,
    ) -> EncoderResult {
        loop {
            // The run takes what the index Shift_JIS pointer gives directly; steps 2–6 (the
            // single bytes and U+2212) are the state machine's: `ENC_BYTES` has none of them
            // (`DECLINED`; tested), so the run stops there without a test of its
            // own (16-byte pieces of Japanese at NEON: about 10 instructions a character).
            src.encode_run(dst, Some(&ENC_TABLES), run_bytes);
            // One character the run left, then back to the run.
            let Some((c, len)) = src.peek() else {
                // 1. If codePoint is end-of-queue, then return finished.
                return EncoderResult::InputEmpty;
            };
            match map(c) {
                Mapped::One(byte) => {
                    if dst.left() == 0 {
                        return EncoderResult::OutputFull;
                    }
                    dst.push_byte(byte);
                    src.advance(len);
                    continue;
                }
                Mapped::Two(leading, trailing) => {
                    if dst.left() < 2 {
                        return EncoderResult::OutputFull;
                    }
                    dst.push(&[leading, trailing]);
                    src.advance(len);
                    continue;
                }
                Mapped::Unmappable => {
                    src.advance(len);
                    return EncoderResult::Unmappable(c);
                }
            }
        }
    }

    /// Always false: this encoder has no state (the family contract asks every encoder).
    #[allow(dead_code)]
    pub(crate) fn has_pending_state(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::ShiftJisDecoder;
    use crate::SHIFT_JIS;
    use crate::codecs::dest::Utf8Dest;
    use crate::codecs::driver;
    use crate::codecs::testing::{
        Rng, check_decode, check_decode_thoroughly, check_encode, check_encode_thoroughly,
    };
    use crate::results::Status;

    /// The encode run's closure relies on it: the code points the state machine takes
    /// (steps 2–6: U+0080, U+00A5, U+203E, U+2212, U+FF61..=U+FF9F) have no bytes in the
    /// run's table.
    #[test]
    fn declined_code_points_have_no_bytes_in_the_run_table() {
        crate::codecs::testing::assert_no_bytes(
            &super::SHIFT_JIS_ENC_PAGES,
            &super::ENC_BYTES,
            &super::DECLINED,
        );
    }

    #[test]
    fn every_one_and_two_byte_input_equals_spec() {
        for a in 0..=255u8 {
            check_decode(SHIFT_JIS, &[a], &[], 16);
            for b in 0..=255u8 {
                check_decode(SHIFT_JIS, &[a, b], &[], 16);
            }
        }
    }

    #[test]
    fn every_pair_split_after_the_leading_byte_equals_spec() {
        for a in (0x81..=0x9F).chain(0xE0..=0xFC) {
            for b in 0..=255u8 {
                check_decode(SHIFT_JIS, &[a, b, b'z'], &[1], 16);
            }
        }
    }

    /// Pieces of Shift_JIS: characters of every kind, errors of every kind.
    const PIECES: &[&[u8]] = &[
        b"abc",
        b"\n",
        b"\\~",
        b"\x80",
        b"\xB1\xDF",
        b"\x82\xA0",
        b"\x93\xFA\x96\x7B",
        b"\x81\x40",
        b"\x81\x7E\x81\x80\x81\xFC",
        b"\x87\x40",
        b"\xEA\xA4",
        b"\xED\x40",
        b"\xFA\x40\xFC\x4B",
        b"\xF0\x40\xF9\xFC",
        b"\xA0",
        b"\xFD\xFE\xFF",
        b"\x81\x39",
        b"\x81\x7F",
        b"\x81\xFD",
        b"\x85\x40",
        b"\xFC\xFC",
        b"\x81\xA0",
        b"\x81",
        b"\xE0",
    ];

    #[test]
    fn structured_samples_equal_spec_in_chunks_and_small_buffers() {
        let mut rng = Rng(0x5EED_5EED_1234_5678);
        for _ in 0..300 {
            let mut input = Vec::new();
            for _ in 0..1 + rng.below(6) {
                input.extend_from_slice(PIECES[rng.below(PIECES.len())]);
            }
            check_decode_thoroughly(SHIFT_JIS, &input);
        }
        for piece in PIECES {
            check_decode_thoroughly(SHIFT_JIS, piece);
        }
    }

    #[test]
    fn every_bmp_scalar_and_some_astral_ones_encode_as_spec() {
        for c in (0..=0xFFFFu32).filter_map(char::from_u32) {
            check_encode(SHIFT_JIS, c.encode_utf8(&mut [0; 4]), &[], 16);
        }
        for c in ['\u{10000}', '\u{1F600}', '\u{20B9F}', '\u{10FFFF}'] {
            check_encode(SHIFT_JIS, c.encode_utf8(&mut [0; 4]), &[], 16);
        }
    }

    #[test]
    fn mixed_text_encodes_as_spec_in_chunks_and_small_buffers() {
        for text in [
            "abc\u{A5}\u{203E}\u{FF71}\u{FF9F}\u{65E5}\u{672C}\u{2212}\u{FF0D}\u{E}x",
            "\u{80}\u{E000}\u{3042}z\u{1F600}\u{2170}\u{FFE2}\u{2252}\u{7E8A}.",
            "\u{20AC}\u{3042}\u{3044}\\~\u{A5}\u{A5}\u{FFFD}",
            "",
        ] {
            check_encode_thoroughly(SHIFT_JIS, text);
        }
    }

    #[test]
    fn held_bytes_and_initial_state() {
        let mut decoder = ShiftJisDecoder::new();
        let mut buf = [0u8; 16];
        let mut dst = Utf8Dest::new(crate::simd::as_out(&mut buf), crate::simd::active());
        assert!(decoder.is_initial());
        assert_eq!(
            driver::decode(&mut decoder, b"a\x82", &mut dst, false, true),
            (Status::INPUT_EMPTY, 2)
        );
        assert_eq!((decoder.held(), decoder.is_initial()), (1, false));
        assert_eq!(
            driver::decode(&mut decoder, b"\xA0", &mut dst, true, true),
            (Status::INPUT_EMPTY, 1)
        );
        assert_eq!((decoder.held(), decoder.is_initial()), (0, true));
    }

    #[test]
    fn random_inputs_equal_spec_in_random_chunks_and_buffers() {
        const ALPHABET: &[u8] =
            b"\x41\x0A\x5C\x7E\x80\x81\x82\x93\x9F\xA0\xA1\xDF\xE0\xEA\xED\xF0\xFA\xFC\xFD\x40\x7F\x39\xA4";
        let mut rng = Rng(0x5151_0000_0000_0001);
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
            check_decode(SHIFT_JIS, &input, &splits, 4 + rng.below(9));
        }
        let chars = [
            "a",
            "\\",
            "~",
            "\n",
            "\u{80}",
            "\u{A5}",
            "\u{203E}",
            "\u{FF61}",
            "\u{FF9F}",
            "\u{3042}",
            "\u{65E5}",
            "\u{2212}",
            "\u{2252}",
            "\u{7E8A}",
            "\u{E000}",
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
            check_encode(SHIFT_JIS, &text, &splits, 3 + rng.below(10));
        }
    }
}
