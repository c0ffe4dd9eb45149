//! EUC-KR.
//!
//! <https://encoding.spec.whatwg.org/#euc-kr-decoder>: ASCII bytes are themselves, 0x81–0xFE
//! lead a two-byte character looked up in index EUC-KR (trailing bytes 0x41–0xFE). A
//! trailing byte that is an ASCII byte and does not complete a character is restored: it is
//! simply not consumed, so no byte ever needs to wait in `Pending`.
//!
//! Decoding runs a fast path over the buffer while the decoder holds no leading byte: ASCII
//! runs go through the `copy_ascii` kernel and whole two-byte characters are decoded straight
//! from `src`. It stops at anything else (an error, a character cut by the end of the buffer,
//! a full output), and the standard's handler (`StateMachine::step`) takes one byte before
//! the fast path resumes.
//!
//! Encoding copies ASCII runs with the `copy_ascii` kernel and looks up everything else in
//! the generated index EUC-KR pointer table.

use crate::codecs::dest::Dest;
use crate::codecs::driver::{self, StateMachine, Step};
use crate::codecs::runs::{self, PairShape};
use crate::codecs::source::{ByteDest, Source};
use crate::results::EncoderResult;
use crate::simd::{EncodeTables, Lookup, PairTables};
use crate::tables::euc_kr::{EUC_KR, EUC_KR_ENC_BLOCKS, EUC_KR_ENC_PAGES};
use crate::tables::paged;

#[derive(Clone, Copy)]
pub(crate) struct EucKrDecoder {
    /// The standard's EUC-KR leading; 0x00 when none.
    euc_kr_leading: u8,
}

/// The code point of the two-byte sequence `leading`, `byte` (steps 3.3–3.6), if any.
#[inline(always)]
fn two_byte(leading: u8, byte: u8) -> Option<u16> {
    // 4. If byte is in the range 0x41 to 0xFE, inclusive, then set pointer to
    //    (leading − 0x81) × 190 + (byte − 0x41).
    if !(0x41..=0xFE).contains(&byte) || leading < 0x81 {
        return None;
    }
    let pointer = usize::from(leading - 0x81) * 190 + usize::from(byte - 0x41);
    // 5. Let codePoint be … the index code point for pointer in index EUC-KR.
    EUC_KR.get(pointer).copied().filter(|&c| c != 0)
}

impl EucKrDecoder {
    pub(crate) const fn new() -> Self {
        EucKrDecoder { euc_kr_leading: 0 }
    }

    pub(crate) fn held(&self) -> usize {
        usize::from(self.euc_kr_leading != 0)
    }

    pub(crate) fn is_initial(&self) -> bool {
        self.euc_kr_leading == 0
    }
}

impl StateMachine for EucKrDecoder {
    #[inline(always)]
    fn between_characters(&self) -> bool {
        self.euc_kr_leading == 0
    }

    /// ASCII runs and whole two-byte characters; it leaves errors and a leading byte whose
    /// trailing byte is not in `src` to the step.
    #[inline(always)]
    fn fast_run<D: Dest>(&mut self, src: &[u8], dst: &mut D) -> (usize, bool) {
        runs::decode_run(
            src,
            dst,
            &PAIRS,
            |_| 0,
            |leading, byte| SHAPE.lookup(leading, byte, &EUC_KR).map_or(0, u32::from),
        )
    }

    /// <https://encoding.spec.whatwg.org/#euc-kr-decoder>
    #[inline(never)]
    fn step<D: Dest>(&mut self, byte: u8, dst: &mut D, replace: bool) -> Step {
        // 3. If EUC-KR leading is not 0x00:
        if self.euc_kr_leading != 0 {
            // 1–2. Let leading be EUC-KR leading; set EUC-KR leading to 0x00.
            let leading = self.euc_kr_leading;
            if let Some(code_point) = two_byte(leading, byte) {
                // 6. If codePoint is non-null, then return a code point whose value is
                //    codePoint.
                if !dst.room_for_bmp(code_point) {
                    return Step::Full;
                }
                self.euc_kr_leading = 0;
                dst.push_bmp(code_point);
                return Step::Consumed;
            }
            if !dst.room_for_error(replace) {
                return Step::Full;
            }
            self.euc_kr_leading = 0;
            // 7. If byte is an ASCII byte, then restore byte to ioQueue.
            // 8. Return error.
            let consumed = byte >= 0x80;
            return Step::Error {
                consumed,
                bad: 1 + u8::from(consumed),
            };
        }
        match byte {
            // 4. If byte is an ASCII byte, then return a code point whose value is byte.
            0x00..=0x7F => {
                if !dst.room_for_ascii() {
                    return Step::Full;
                }
                dst.push_ascii(byte);
                Step::Consumed
            }
            // 5. If byte is in the range 0x81 to 0xFE, inclusive, then set EUC-KR leading to
            //    byte and return continue.
            0x81..=0xFE => {
                self.euc_kr_leading = byte;
                Step::Consumed
            }
            // 6. Return error.
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

    /// Steps 1–2 of <https://encoding.spec.whatwg.org/#euc-kr-decoder>.
    #[inline(always)]
    fn at_end<D: Dest>(&mut self, dst: &mut D, replace: bool) -> Step {
        driver::at_end_of_leading(&mut self.euc_kr_leading, dst, replace)
    }
}

/// Lead and trail bytes of two-byte characters (steps 3.3–3.4): rows of 190 pointers for
/// leads 0x81–0xFE, columns for trails 0x41–0xFE.
const SHAPE_DEF: PairShape = PairShape::new(&[(0x81, 0xFE)], &[(0x41, 0xFE)], 190);
static SHAPE: PairShape = SHAPE_DEF;
/// The same pairs for the vector kernels.
pub(crate) static PAIRS: PairTables = SHAPE_DEF.tables(Lookup::U16(&EUC_KR));

#[derive(Clone, Copy)]
pub(crate) struct EucKrEncoder;

/// The bytes of each code point with an index EUC-KR pointer, in the pages of
/// `EUC_KR_ENC_PAGES`.
static ENC_BYTES: [u16; EUC_KR_ENC_BLOCKS.len()] =
    runs::pointer_bytes(&EUC_KR_ENC_BLOCKS, runs::PointerBytes::EucKr);
/// The encode run's lookup for the vector kernels: `ENC_BYTES` less what the run's closure
/// declines.
pub(crate) static ENC_TABLES: EncodeTables = EncodeTables {
    pages: &EUC_KR_ENC_PAGES,
    blocks: Lookup::U16(&ENC_BYTES),
    latin1_from: 0,
};

/// The encode run's lookup: the two bytes of `c` (`lead << 8 | trail`), or 0 for what the
/// state machine takes.
#[inline(always)]
pub(crate) fn run_bytes(c: u32) -> u16 {
    paged(&EUC_KR_ENC_PAGES, &ENC_BYTES, c)
}

impl EucKrEncoder {
    pub(crate) const fn new() -> Self {
        EucKrEncoder
    }

    /// <https://encoding.spec.whatwg.org/#euc-kr-encoder>
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        _last: bool,
    ) -> EncoderResult {
        loop {
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
                // 3. Let pointer be the index pointer for codePoint in index EUC-KR.
                let pointer_plus_one = paged(&EUC_KR_ENC_PAGES, &EUC_KR_ENC_BLOCKS, u32::from(c));
                // 4. If pointer is null, then return error with codePoint.
                let Some(pointer) = pointer_plus_one.checked_sub(1) else {
                    src.advance(len);
                    return EncoderResult::Unmappable(c);
                };
                if dst.left() < 2 {
                    return EncoderResult::OutputFull;
                }
                // 5–7. Return two bytes: pointer / 190 + 0x81 and pointer % 190 + 0x41.
                dst.push(&[(pointer / 190 + 0x81) as u8, (pointer % 190 + 0x41) as u8]);
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
    use super::EucKrDecoder;
    use crate::EUC_KR;
    use crate::codecs::dest::Utf16Dest;
    use crate::codecs::driver;
    use crate::codecs::testing::{
        Rng, check_decode, check_decode_thoroughly, check_encode, check_encode_thoroughly,
    };
    use crate::results::Status;

    #[test]
    fn every_one_and_two_byte_input_equals_spec() {
        for a in 0..=255u8 {
            check_decode(EUC_KR, &[a], &[], 16);
            for b in 0..=255u8 {
                check_decode(EUC_KR, &[a, b], &[], 16);
            }
        }
    }

    #[test]
    fn every_pair_split_after_the_leading_byte_equals_spec() {
        for a in 0x81..=0xFE {
            for b in 0..=255u8 {
                check_decode(EUC_KR, &[a, b, b'z'], &[1], 16);
            }
        }
    }

    /// Pieces of EUC-KR: characters of every kind, errors of every kind.
    const PIECES: &[&[u8]] = &[
        b"abc",
        b"\n",
        b"\xB0\xA1",
        b"\xC7\xD1\xB1\xB9",
        b"\x81\x41",
        b"\x81\x5A\x81\x61\x81\x7A\x81\x81",
        b"\xA1\xA1",
        b"\xC8\xFE",
        b"\xFD\xFE",
        b"\xFE\xFE",
        b"\xC9\xA1",
        b"\xA2\xE8",
        b"\x80",
        b"\xFF",
        b"\x81\x30",
        b"\x81\x40",
        b"\x81\x5B",
        b"\x81\xFF",
        b"\x81\x80",
        b"\x81",
        b"\xFE",
    ];

    #[test]
    fn structured_samples_equal_spec_in_chunks_and_small_buffers() {
        let mut rng = Rng(0xC0FF_EE00_1234_5678);
        for _ in 0..300 {
            let mut input = Vec::new();
            for _ in 0..1 + rng.below(6) {
                input.extend_from_slice(PIECES[rng.below(PIECES.len())]);
            }
            check_decode_thoroughly(EUC_KR, &input);
        }
        for piece in PIECES {
            check_decode_thoroughly(EUC_KR, piece);
        }
    }

    #[test]
    fn every_bmp_scalar_and_some_astral_ones_encode_as_spec() {
        for c in (0..=0xFFFFu32).filter_map(char::from_u32) {
            check_encode(EUC_KR, c.encode_utf8(&mut [0; 4]), &[], 16);
        }
        for c in ['\u{10000}', '\u{1F600}', '\u{20B9F}', '\u{10FFFF}'] {
            check_encode(EUC_KR, c.encode_utf8(&mut [0; 4]), &[], 16);
        }
    }

    #[test]
    fn mixed_text_encodes_as_spec_in_chunks_and_small_buffers() {
        for text in [
            "abc\u{AC00}\u{D55C}\u{AD6D}\u{C5B4} x\u{AC02}\u{3000}\u{4E00}\u{A5}\u{203E}",
            "\u{80}\u{E000}\u{3042}z\u{1F600}\u{FF61}\u{2212}\u{FFFD}.",
            "",
        ] {
            check_encode_thoroughly(EUC_KR, text);
        }
    }

    #[test]
    fn held_bytes_and_initial_state() {
        let mut decoder = EucKrDecoder::new();
        let mut buf = [0u16; 16];
        let mut dst = Utf16Dest::new(&mut buf, crate::simd::active());
        assert!(decoder.is_initial());
        assert_eq!(
            driver::decode(&mut decoder, b"a\xB0", &mut dst, false, false),
            (Status::INPUT_EMPTY, 2)
        );
        assert_eq!((decoder.held(), decoder.is_initial()), (1, false));
        assert_eq!(
            driver::decode(&mut decoder, b"", &mut dst, true, false),
            (Status::malformed(1, 0), 0)
        );
        assert_eq!((decoder.held(), decoder.is_initial()), (0, true));
    }

    #[test]
    fn random_inputs_equal_spec_in_random_chunks_and_buffers() {
        const ALPHABET: &[u8] =
            b"\x41\x0A\x80\x81\xA1\xB0\xC7\xC8\xC9\xFD\xFE\xFF\x41\x5A\x5B\x61\x7A\x81\xA1\xFE\x30";
        let mut rng = Rng(0x4B52_0000_0000_0002);
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
            check_decode(EUC_KR, &input, &splits, 4 + rng.below(9));
        }
        let chars = [
            "a",
            "\n",
            "\u{AC00}",
            "\u{AC02}",
            "\u{D55C}",
            "\u{3000}",
            "\u{4E00}",
            "\u{A5}",
            "\u{80}",
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
            check_encode(EUC_KR, &text, &splits, 3 + rng.below(10));
        }
    }
}
