//! EUC-JP.
//!
//! <https://encoding.spec.whatwg.org/#euc-jp-decoder>: ASCII bytes are themselves; 0x8E
//! followed by 0xA1–0xDF is half-width katakana; 0xA1–0xFE twice is index jis0208; 0x8F
//! followed by 0xA1–0xFE twice is index jis0212. A byte that ends a sequence with an error and
//! is an ASCII byte is restored: it is simply not consumed, so no byte ever needs to wait in
//! `Pending` (the bytes held in state are never restored).
//!
//! Decoding runs a fast path over the buffer while the decoder holds no leading byte: ASCII
//! runs go through the `copy_ascii` kernel and whole, valid two- and three-byte characters are
//! decoded straight from `src`. It stops at anything else (an error, a character cut by the
//! end of the buffer, a full output), and the standard's handler (`StateMachine::step`)
//! takes one byte at a time until the state is back to initial.
//!
//! The encoder never produces JIS X 0212 (the standard's encoder has no such step).

use crate::codecs::dest::Dest;
use crate::codecs::driver::{StateMachine, Step};
use crate::codecs::runs::{self, PairShape};
use crate::codecs::source::{ByteDest, Source};
use crate::results::EncoderResult;
use crate::simd::{EncodeTables, Lookup, PairTables};
use crate::tables::jis0208::{JIS0208, JIS0208_ENC_BLOCKS, JIS0208_ENC_PAGES};
use crate::tables::jis0212::JIS0212;
use crate::tables::paged;

#[derive(Clone, Copy)]
pub(crate) struct EucJpDecoder {
    /// The standard's EUC-JP jis0212.
    euc_jp_jis0212: bool,
    /// The standard's EUC-JP leading; 0x00 when none.
    euc_jp_leading: u8,
}

/// The index code point for `leading`, `byte` in jis0208 or jis0212 (steps 5.3–5.4).
#[inline(always)]
fn two_byte(leading: u8, byte: u8, jis0212: bool) -> Option<u16> {
    // 4. If leading and byte are both in the range 0xA1 to 0xFE, inclusive, then set
    //    codePoint to the index code point for (leading − 0xA1) × 94 + byte − 0xA1 in index
    //    jis0208 if EUC-JP jis0212 is false and in index jis0212 otherwise.
    if !(0xA1..=0xFE).contains(&leading) || !(0xA1..=0xFE).contains(&byte) {
        return None;
    }
    let pointer = usize::from(leading - 0xA1) * 94 + usize::from(byte - 0xA1);
    let index: &[u16] = if jis0212 { &JIS0212 } else { &JIS0208 };
    index.get(pointer).copied().filter(|&c| c != 0)
}

impl EucJpDecoder {
    pub(crate) const fn new() -> Self {
        EucJpDecoder {
            euc_jp_jis0212: false,
            euc_jp_leading: 0,
        }
    }

    /// The leading byte, and 0x8F before it when EUC-JP jis0212 is set.
    pub(crate) fn held(&self) -> usize {
        if self.euc_jp_leading == 0 {
            0
        } else {
            1 + usize::from(self.euc_jp_jis0212)
        }
    }

    pub(crate) fn is_initial(&self) -> bool {
        self.euc_jp_leading == 0 && !self.euc_jp_jis0212
    }
}

impl StateMachine for EucJpDecoder {
    #[inline(always)]
    fn between_characters(&self) -> bool {
        self.euc_jp_leading == 0
    }

    /// ASCII runs, 0x8E half-width katakana and whole jis0208 pairs; it leaves errors,
    /// sequences cut by the end of `src` and 0x8F (jis0212) to the step.
    #[inline(always)]
    fn fast_run<D: Dest>(&mut self, src: &[u8], dst: &mut D) -> (usize, bool) {
        runs::decode_run(
            src,
            dst,
            &PAIRS,
            |_| 0,
            |leading, byte| match (leading, byte) {
                (0x8E, 0xA1..=0xDF) => 0xFF61 - 0xA1 + u32::from(byte),
                _ => SHAPE.lookup(leading, byte, &JIS0208).map_or(0, u32::from),
            },
        )
    }

    /// <https://encoding.spec.whatwg.org/#euc-jp-decoder>
    #[inline(never)]
    fn step<D: Dest>(&mut self, byte: u8, dst: &mut D, replace: bool) -> Step {
        let leading = self.euc_jp_leading;
        // 3. If EUC-JP leading is 0x8E and byte is in the range 0xA1 to 0xDF, inclusive, then
        //    set EUC-JP leading to 0x00 and return a code point whose value is
        //    0xFF61 − 0xA1 + byte.
        if leading == 0x8E && (0xA1..=0xDF).contains(&byte) {
            let code_point = 0xFF61 - 0xA1 + u16::from(byte);
            if !dst.room_for_bmp(code_point) {
                return Step::Full;
            }
            self.euc_jp_leading = 0;
            dst.push_bmp(code_point);
            return Step::Consumed;
        }
        // 4. If EUC-JP leading is 0x8F and byte is in the range 0xA1 to 0xFE, inclusive, then
        //    set EUC-JP jis0212 to true, set EUC-JP leading to byte, and return continue.
        if leading == 0x8F && (0xA1..=0xFE).contains(&byte) {
            self.euc_jp_jis0212 = true;
            self.euc_jp_leading = byte;
            return Step::Consumed;
        }
        // 5. If EUC-JP leading is not 0x00:
        if leading != 0 {
            // 6. If codePoint is non-null, then return a code point whose value is codePoint.
            if let Some(code_point) = two_byte(leading, byte, self.euc_jp_jis0212) {
                if !dst.room_for_bmp(code_point) {
                    return Step::Full;
                }
                self.euc_jp_leading = 0;
                self.euc_jp_jis0212 = false;
                dst.push_bmp(code_point);
                return Step::Consumed;
            }
            if !dst.room_for_error(replace) {
                return Step::Full;
            }
            let held = self.held() as u8;
            // 2. Set EUC-JP leading to 0x00. 5. Set EUC-JP jis0212 to false.
            self.euc_jp_leading = 0;
            self.euc_jp_jis0212 = false;
            // 7. If byte is an ASCII byte, then restore byte to ioQueue.
            // 8. Return error.
            let consumed = byte >= 0x80;
            return Step::Error {
                consumed,
                bad: held + u8::from(consumed),
            };
        }
        match byte {
            // 6. If byte is an ASCII byte, then return a code point whose value is byte.
            0x00..=0x7F => {
                if !dst.room_for_ascii() {
                    return Step::Full;
                }
                dst.push_ascii(byte);
                Step::Consumed
            }
            // 7. If byte is 0x8E, 0x8F, or in the range 0xA1 to 0xFE, inclusive, then set
            //    EUC-JP leading to byte and return continue.
            0x8E | 0x8F | 0xA1..=0xFE => {
                self.euc_jp_leading = byte;
                Step::Consumed
            }
            // 8. Return error.
            _ => {
                if !dst.room_for_error(replace) {
                    return Step::Full;
                }
                Step::Error {
                    consumed: true,
                    bad: 1,
                }
            }
        }
    }

    /// Steps 1–2 of <https://encoding.spec.whatwg.org/#euc-jp-decoder>.
    #[inline(always)]
    fn at_end<D: Dest>(&mut self, dst: &mut D, replace: bool) -> Step {
        // 1. If byte is end-of-queue and EUC-JP leading is not 0x00, then set EUC-JP leading
        //    to 0x00 and return error.
        if self.euc_jp_leading == 0 {
            // 2. If byte is end-of-queue and EUC-JP leading is 0x00, then return finished.
            return Step::Consumed;
        }
        if !dst.room_for_error(replace) {
            return Step::Full;
        }
        let bad = self.held() as u8;
        self.euc_jp_leading = 0;
        // The standard leaves EUC-JP jis0212 as it is; nothing can observe it after
        // end-of-queue, and clearing it lets `is_initial` hold again.
        self.euc_jp_jis0212 = false;
        Step::Error { consumed: false, bad }
    }
}

/// Lead and trail bytes of jis0208 pairs (step 5.4): rows of 94 for leads 0xA1–0xFE, columns
/// for trails 0xA1–0xFE.
const SHAPE_DEF: PairShape = PairShape::new(&[(0xA1, 0xFE)], &[(0xA1, 0xFE)], 94);
static SHAPE: PairShape = SHAPE_DEF;
/// The same pairs for the vector kernels.
pub(crate) static PAIRS: PairTables = SHAPE_DEF.tables(Lookup::U16(&JIS0208));

#[derive(Clone, Copy)]
pub(crate) struct EucJpEncoder;

/// The bytes of each code point with an index jis0208 pointer, in the pages of
/// `JIS0208_ENC_PAGES`.
static ENC_BYTES: [u16; JIS0208_ENC_BLOCKS.len()] =
    runs::pointer_bytes(&JIS0208_ENC_BLOCKS, runs::PointerBytes::EucJp);
/// The encode run's lookup for the vector kernels: `ENC_BYTES`, which has no bytes for what
/// the run's closure declines (`DECLINED`; tested).
pub(crate) static ENC_TABLES: EncodeTables = EncodeTables {
    pages: &JIS0208_ENC_PAGES,
    blocks: Lookup::U16(&ENC_BYTES),
    latin1_from: 0,
};

/// The code points the encoders of jis0208 (EUC-JP's and ISO-2022-JP's) treat before their
/// index pointer: U+00A5, U+203E, U+2212 and the half-width katakana.
#[cfg(test)]
pub(crate) const DECLINED: [(u16, u16); 5] = [
    (0xA5, 0xA5),
    (0x203E, 0x203E),
    (0x2212, 0x2212),
    (0xFF61, 0xFF9F),
    (0xFFFF, 0),
];

/// What the encoder writes for one non-ASCII code point.
enum Mapped {
    One(u8),
    Two(u8, u8),
    Unmappable,
}

/// <https://encoding.spec.whatwg.org/#euc-jp-encoder>, steps 3–11, for one non-ASCII code
/// point.
#[inline(always)]
fn map(code_point: u32) -> Mapped {
    match code_point {
        // 3. If codePoint is U+00A5 (¥), then return byte 0x5C.
        0xA5 => Mapped::One(0x5C),
        // 4. If codePoint is U+203E (‾), then return byte 0x7E.
        0x203E => Mapped::One(0x7E),
        // 5. If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive, then return two
        //    bytes whose values are 0x8E and codePoint − 0xFF61 + 0xA1.
        0xFF61..=0xFF9F => Mapped::Two(0x8E, (code_point - 0xFF61 + 0xA1) as u8),
        _ => {
            // 6. If codePoint is U+2212 (−), then set it to U+FF0D (－).
            let code_point = if code_point == 0x2212 { 0xFF0D } else { code_point };
            // 7. Let pointer be the index pointer for codePoint in index jis0208.
            let pointer_plus_one = paged(&JIS0208_ENC_PAGES, &JIS0208_ENC_BLOCKS, code_point);
            // 8. If pointer is null, then return error with codePoint.
            let Some(pointer) = pointer_plus_one.checked_sub(1) else {
                return Mapped::Unmappable;
            };
            // 9–11. Return pointer / 94 + 0xA1 and pointer % 94 + 0xA1.
            Mapped::Two((pointer / 94 + 0xA1) as u8, (pointer % 94 + 0xA1) as u8)
        }
    }
}

/// The encode run's lookup: the two bytes of `c` (`lead << 8 | trail`), or 0 for what the
/// state machine takes.
#[inline(always)]
pub(crate) fn run_bytes(c: u32) -> u16 {
    paged(&JIS0208_ENC_PAGES, &ENC_BYTES, c)
}

impl EucJpEncoder {
    pub(crate) const fn new() -> Self {
        EucJpEncoder
    }

    /// <https://encoding.spec.whatwg.org/#euc-jp-encoder>
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        _last: bool,
    ) -> EncoderResult {
        loop {
            // The run takes what index jis0208 gives directly; steps 3–6 are the loop's below:
            // `ENC_BYTES` has none of their code points (`DECLINED`; tested), so the run stops
            // there without a test of its own (as Shift_JIS's).
            src.encode_run(dst, Some(&ENC_TABLES), run_bytes);
            loop {
                let Some((c, len)) = src.peek() else {
                    // 1. If codePoint is end-of-queue, then return finished.
                    return EncoderResult::InputEmpty;
                };
                if c.is_ascii() {
                    // 2. If codePoint is an ASCII code point, then return a byte whose value is
                    //    codePoint. (The kernel stopped here for lack of room, or this follows a
                    //    non-ASCII character: write it, and go back to the kernel only if another
                    //    ASCII character follows.)
                    if dst.left() == 0 {
                        return EncoderResult::OutputFull;
                    }
                    dst.push_byte(c as u8);
                    src.advance(len);
                    if src.peek().is_some_and(|(next, _)| next.is_ascii()) {
                        break;
                    }
                    continue;
                }
                match map(u32::from(c)) {
                    Mapped::One(byte) => {
                        if dst.left() == 0 {
                            return EncoderResult::OutputFull;
                        }
                        dst.push_byte(byte);
                    }
                    Mapped::Two(leading, trailing) => {
                        if dst.left() < 2 {
                            return EncoderResult::OutputFull;
                        }
                        dst.push(&[leading, trailing]);
                    }
                    Mapped::Unmappable => {
                        src.advance(len);
                        return EncoderResult::Unmappable(c);
                    }
                }
                src.advance(len);
                break;
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
    use super::EucJpDecoder;
    use crate::EUC_JP;
    use crate::codecs::dest::Utf8Dest;
    use crate::codecs::driver;
    use crate::codecs::testing::{
        Rng, check_decode, check_decode_thoroughly, check_encode, check_encode_thoroughly,
    };
    use crate::results::Status;

    /// The encode run's closure relies on it: the code points the state machine takes
    /// first (steps 3–6) have no bytes in the run's table.
    #[test]
    fn declined_code_points_have_no_bytes_in_the_run_table() {
        crate::codecs::testing::assert_no_bytes(
            &super::JIS0208_ENC_PAGES,
            &super::ENC_BYTES,
            &super::DECLINED,
        );
    }

    #[test]
    fn every_one_and_two_byte_input_equals_spec() {
        for a in 0..=255u8 {
            check_decode(EUC_JP, &[a], &[], 16);
            for b in 0..=255u8 {
                check_decode(EUC_JP, &[a, b], &[], 16);
            }
        }
    }

    #[test]
    fn every_three_byte_input_after_0x8f_equals_spec() {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                check_decode(EUC_JP, &[0x8F, b, c], &[], 16);
            }
        }
    }

    #[test]
    fn sequences_split_after_each_byte_equal_spec() {
        for a in [0x8E, 0x8F, 0xA1, 0xB0, 0xFE] {
            for b in 0..=255u8 {
                check_decode(EUC_JP, &[a, b, b'z'], &[1], 16);
                check_decode(EUC_JP, &[0x8F, a, b, b'z'], &[1], 16);
                check_decode(EUC_JP, &[0x8F, a, b, b'z'], &[2], 16);
                check_decode(EUC_JP, &[0x8F, a, b, b'z'], &[1, 2], 16);
            }
        }
    }

    /// Pieces of EUC-JP: characters of every kind, errors of every kind.
    const PIECES: &[&[u8]] = &[
        b"abc",
        b"\n",
        b"\\~",
        b"\xA4\xA2",
        b"\xC6\xFC\xCB\xDC",
        b"\xA1\xA1\xFE\xFE",
        b"\xAD\xA1",
        b"\xF9\xA1\xFC\xEE",
        b"\x8E\xB1\x8E\xDF",
        b"\x8E\xE0",
        b"\x8E\x41",
        b"\x8E\xA0",
        b"\x8F\xA2\xAF",
        b"\x8F\xB0\xA1\x8F\xED\xE3",
        b"\x8F\xA1\xA1",
        b"\x8F\x41",
        b"\x8F\x8E",
        b"\x8F\xA2\x41",
        b"\x8F\xA2\xFF",
        b"\xA1\x41",
        b"\xA9\xA1",
        b"\xA1\xFF",
        b"\x80",
        b"\xA0",
        b"\xFF",
        b"\x8E",
        b"\x8F",
        b"\x8F\xB0",
        b"\xA4",
    ];

    #[test]
    fn structured_samples_equal_spec_in_chunks_and_small_buffers() {
        let mut rng = Rng(0xE0C1_0000_8F8E_A1FE);
        for _ in 0..300 {
            let mut input = Vec::new();
            for _ in 0..1 + rng.below(6) {
                input.extend_from_slice(PIECES[rng.below(PIECES.len())]);
            }
            check_decode_thoroughly(EUC_JP, &input);
        }
        for piece in PIECES {
            check_decode_thoroughly(EUC_JP, piece);
        }
    }

    #[test]
    fn every_bmp_scalar_and_some_astral_ones_encode_as_spec() {
        for c in (0..=0xFFFFu32).filter_map(char::from_u32) {
            check_encode(EUC_JP, c.encode_utf8(&mut [0; 4]), &[], 16);
        }
        for c in ['\u{10000}', '\u{1F600}', '\u{20B9F}', '\u{10FFFF}'] {
            check_encode(EUC_JP, c.encode_utf8(&mut [0; 4]), &[], 16);
        }
    }

    #[test]
    fn mixed_text_encodes_as_spec_in_chunks_and_small_buffers() {
        for text in [
            "abc\u{A5}\u{203E}\u{FF71}\u{FF9F}\u{65E5}\u{672C}\u{2212}\u{FF0D}\u{E}x",
            // U+02D8 and U+4E02 are only in JIS X 0212: never encoded.
            "\u{80}\u{2D8}\u{4E02}\u{3042}z\u{1F600}\u{2170}\u{FFE2}\u{2252}\u{7E8A}.",
            "\u{20AC}\u{3042}\u{3044}\\~\u{A5}\u{A5}\u{FFFD}",
            "",
        ] {
            check_encode_thoroughly(EUC_JP, text);
        }
    }

    #[test]
    fn held_bytes_and_initial_state() {
        let mut decoder = EucJpDecoder::new();
        let mut buf = [0u8; 16];
        let mut dst = Utf8Dest::new(crate::simd::as_out(&mut buf), crate::simd::active());
        assert!(decoder.is_initial());
        assert_eq!(
            driver::decode(&mut decoder, b"a\x8F\xB0", &mut dst, false, true),
            (Status::INPUT_EMPTY, 3)
        );
        assert_eq!((decoder.held(), decoder.is_initial()), (2, false));
        assert_eq!(
            driver::decode(&mut decoder, b"", &mut dst, true, true),
            (Status::malformed(2, 0), 0)
        );
        assert_eq!((decoder.held(), decoder.is_initial()), (0, true));
    }

    #[test]
    fn random_inputs_equal_spec_in_random_chunks_and_buffers() {
        const ALPHABET: &[u8] =
            b"\x41\x0A\x5C\x80\x8E\x8F\xA0\xA1\xA2\xA4\xA9\xAF\xB0\xDF\xE0\xED\xF4\xFE\xFF\x41";
        let mut rng = Rng(0x454A_0000_0000_0003);
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
            check_decode(EUC_JP, &input, &splits, 4 + rng.below(9));
        }
        let chars = [
            "a",
            "\\",
            "~",
            "\n",
            "\u{A5}",
            "\u{203E}",
            "\u{FF61}",
            "\u{FF9F}",
            "\u{3042}",
            "\u{65E5}",
            "\u{2212}",
            "\u{2D8}",
            "\u{4E02}",
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
            check_encode(EUC_JP, &text, &splits, 3 + rng.below(10));
        }
    }
}
