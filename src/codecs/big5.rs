//! Big5.
//!
//! <https://encoding.spec.whatwg.org/#big5-decoder>: ASCII bytes are themselves, a lead byte
//! 0x81–0xFE and a trail byte 0x40–0x7E or 0xA1–0xFE are looked up in index Big5 (whose code
//! points may be astral), and four pointers decode to two code points each.
//!
//! Decoding has two layers: a fast path from the initial state (ASCII runs through the
//! `copy_ascii` kernel; whole two-byte characters read straight from `src` in a tight loop)
//! that stops, leaving the byte unconsumed, at anything else (an error, a lead at the end of
//! the buffer, one of the four two-code-point pointers, a character that does not fit); and
//! the standard's handler, one byte at a time, in [`Big5Decoder::step`]. The only restore is
//! of the current byte (an ASCII byte after a lead), which is simply not consumed, so this
//! decoder needs no `Pending`.

use crate::codecs::dest::Dest;
use crate::codecs::driver::{self, StateMachine, Step};
use crate::codecs::runs::{self, PairShape};
use crate::codecs::source::{ByteDest, Source};
use crate::results::EncoderResult;
use crate::simd::{EncodeTables, Lookup, PairTables, is_plain};
use crate::tables::big5::{BIG5, BIG5_ENC_ASTRAL, BIG5_ENC_BLOCKS, BIG5_ENC_PAGES};
use crate::tables::paged;

/// The standard's table of pointers that decode to two code points (step 3.6). Index Big5
/// has no entry at these pointers (a test checks it), so the fast path, which only decodes
/// pointers the index has, never needs to look here.
const TWO_CODE_POINTS: [(u16, char, char); 4] = [
    (1133, '\u{00CA}', '\u{0304}'),
    (1135, '\u{00CA}', '\u{030C}'),
    (1164, '\u{00EA}', '\u{0304}'),
    (1166, '\u{00EA}', '\u{030C}'),
];

/// The pointer of lead `leading` (0x81–0xFE) and trail `byte`, if `byte` is a trail byte
/// (steps 3.3–3.5 of the decoder).
#[inline(always)]
fn pointer(leading: u8, byte: u8) -> Option<usize> {
    // 3.4. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x62.
    let offset = if byte < 0x7F { 0x40 } else { 0x62 };
    // 3.5. If byte is in the range 0x40 to 0x7E, inclusive, or 0xA1 to 0xFE, inclusive,
    //      then set pointer to (leading − 0x81) × 157 + (byte − offset).
    matches!(byte, 0x40..=0x7E | 0xA1..=0xFE)
        .then(|| usize::from(leading.wrapping_sub(0x81)) * 157 + usize::from(byte - offset))
}

/// The index code point for `pointer` in index Big5, if any (step 3.7).
#[inline(always)]
fn index_code_point(pointer: usize) -> Option<char> {
    BIG5.get(pointer)
        .copied()
        .filter(|&c| c != 0)
        .and_then(char::from_u32)
}

/// The Big5 decoder.
#[derive(Clone, Copy)]
pub(crate) struct Big5Decoder {
    big5_leading: u8,
}

impl Big5Decoder {
    pub(crate) const fn new() -> Self {
        Big5Decoder { big5_leading: 0 }
    }

    /// Bytes held in state.
    pub(crate) fn held(&self) -> usize {
        usize::from(self.big5_leading != 0)
    }

    /// No byte held in state.
    pub(crate) fn is_initial(&self) -> bool {
        self.big5_leading == 0
    }
}

impl StateMachine for Big5Decoder {
    #[inline(always)]
    fn between_characters(&self) -> bool {
        self.big5_leading == 0
    }

    #[inline(always)]
    fn fast_run<D: Dest>(&mut self, src: &[u8], dst: &mut D) -> (usize, bool) {
        (decode_fast(src, dst), false)
    }

    /// <https://encoding.spec.whatwg.org/#big5-decoder>, steps 3–6, for one byte (not
    /// end-of-queue). Checks room before changing anything.
    #[inline]
    fn step<D: Dest>(&mut self, byte: u8, dst: &mut D, replace: bool) -> Step {
        let error_fits = dst.room_for_error(replace);
        // 3. If Big5 leading is not 0x00:
        if self.big5_leading != 0 {
            // 3.1. Let leading be Big5 leading. 3.3. Let pointer be null. 3.4–3.5.
            let pointer = pointer(self.big5_leading, byte);
            // 3.6. If there is a row in the table whose first column is pointer, then return
            //      the two code points listed in its second column.
            if let Some(&(_, a, b)) = TWO_CODE_POINTS
                .iter()
                .find(|row| Some(usize::from(row.0)) == pointer)
            {
                if !dst.room_for_two(a, b) {
                    return Step::Full;
                }
                self.big5_leading = 0;
                dst.push(a);
                dst.push(b);
                return Step::Consumed;
            }
            // 3.7. Let codePoint be null if pointer is null; otherwise the index code point
            //      for pointer in index Big5.
            let code_point = pointer.and_then(index_code_point);
            match code_point {
                Some(c) if !dst.room_for(c) => return Step::Full,
                None if !error_fits => return Step::Full,
                _ => {}
            }
            // 3.2. Set Big5 leading to 0x00.
            self.big5_leading = 0;
            return match code_point {
                // 3.8. If codePoint is non-null, then return a code point whose value is
                //      codePoint.
                Some(c) => {
                    dst.push(c);
                    Step::Consumed
                }
                // 3.9. If byte is an ASCII byte, restore byte to ioQueue.
                // 3.10. Return error.
                None if byte < 0x80 => Step::Error {
                    consumed: false,
                    bad: 1,
                },
                None => Step::Error {
                    consumed: true,
                    bad: 2,
                },
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
            // 5. If byte is in the range 0x81 to 0xFE, inclusive, then set Big5 leading to
            //    byte and return continue.
            0x81..=0xFE => {
                self.big5_leading = byte;
                Step::Consumed
            }
            // 6. Return error.
            0x80 | 0xFF => {
                if !error_fits {
                    return Step::Full;
                }
                Step::Error {
                    consumed: true,
                    bad: 1,
                }
            }
        }
    }

    /// Steps 1–2 of <https://encoding.spec.whatwg.org/#big5-decoder>.
    #[inline(always)]
    fn at_end<D: Dest>(&mut self, dst: &mut D, replace: bool) -> Step {
        driver::at_end_of_leading(&mut self.big5_leading, dst, replace)
    }
}

/// The fast path, from the initial state: decodes ASCII runs (through the kernel) and whole
/// two-byte characters that index Big5 maps at the start of `src`, and returns where it
/// stopped, in the initial state. Everything else is left to [`Big5Decoder::step`].
#[inline(always)]
fn decode_fast<D: Dest>(src: &[u8], dst: &mut D) -> usize {
    let mut read = 0;
    'ascii: loop {
        // The run takes ASCII and the two-byte characters index Big5 maps (it has no code
        // point at the four pointers of two code points, which the step decodes).
        read += runs::decode_run(
            src.get(read..).unwrap_or_default(),
            dst,
            &PAIRS,
            |_| 0,
            |leading, byte| SHAPE.lookup(leading, byte, &BIG5).unwrap_or(0),
        )
        .0;
        loop {
            let Some(&leading) = src.get(read) else {
                return read;
            };
            if leading < 0x80 {
                // One ASCII byte between multi-byte characters: inline; a run: the kernel.
                if !dst.room_for_ascii() {
                    return read;
                }
                dst.push_ascii(leading);
                read += 1;
                if src.get(read).is_some_and(|&b| b < 0x80) {
                    continue 'ascii;
                }
                continue;
            }
            let Some(&byte) = src.get(read + 1) else {
                return read;
            };
            if !(0x81..=0xFE).contains(&leading) {
                return read;
            }
            let Some(code_point) = pointer(leading, byte).and_then(|p| BIG5.get(p).copied()) else {
                return read;
            };
            // Most of index Big5 is in the BMP (never a surrogate: a test checks it).
            if let Ok(u) = u16::try_from(code_point) {
                if u == 0 || !dst.room_for_bmp(u) {
                    return read;
                }
                dst.push_bmp(u);
            } else {
                let Some(c) = char::from_u32(code_point) else {
                    return read;
                };
                if !dst.room_for(c) {
                    return read;
                }
                dst.push(c);
            }
            read += 2;
            continue 'ascii;
        }
    }
}

/// Lead and trail bytes of two-byte characters (decoder step 3.3–3.4): rows of 157 pointers
/// for leads 0x81–0xFE, columns for trails 0x40–0x7E then 0xA1–0xFE (byte − offset).
const SHAPE_DEF: PairShape = PairShape::new(&[(0x81, 0xFE)], &[(0x40, 0x7E), (0xA1, 0xFE)], 157);
static SHAPE: PairShape = SHAPE_DEF;
/// The same pairs for the vector kernels, with the BMP part of the index.
pub(crate) static PAIRS: PairTables = SHAPE_DEF.tables(Lookup::U16(&BIG5_BMP));

/// Index Big5 where its code point is in the BMP, from U+0080, 0 elsewhere (the astral code
/// points, and where it has none): the vector kernels' index, half the size of the whole one
/// (gathers of 2 bytes, and a check of what they gather against 0 only; the kernels leave
/// the astral code points to the codec, which reads `BIG5`); measured faster than the whole
/// index in the kernels.
static BIG5_BMP: [u16; BIG5.len()] = {
    let mut bmp = [0u16; BIG5.len()];
    let mut i = 0;
    while i < BIG5.len() {
        if is_plain(BIG5[i], 0x80) {
            bmp[i] = BIG5[i] as u16;
        }
        i += 1;
    }
    bmp
};

/// The Big5 encoder.
#[derive(Clone, Copy)]
pub(crate) struct Big5Encoder;

/// The bytes of each BMP code point with an index Big5 pointer, in the pages of
/// `BIG5_ENC_PAGES` (astral ones are the loop's).
static ENC_BYTES: [u16; BIG5_ENC_BLOCKS.len()] =
    runs::pointer_bytes(&BIG5_ENC_BLOCKS, runs::PointerBytes::Big5);
/// The encode run's lookup for the vector kernels: `ENC_BYTES` less what the run's closure
/// declines.
pub(crate) static ENC_TABLES: EncodeTables = EncodeTables {
    pages: &BIG5_ENC_PAGES,
    blocks: Lookup::U16(&ENC_BYTES),
    latin1_from: 0,
};

/// The encode run's lookup: the two bytes of `c` (`lead << 8 | trail`), or 0 for what the
/// state machine takes.
#[inline(always)]
pub(crate) fn run_bytes(c: u32) -> u16 {
    paged(&BIG5_ENC_PAGES, &ENC_BYTES, c)
}

impl Big5Encoder {
    pub(crate) const fn new() -> Self {
        Big5Encoder
    }

    /// <https://encoding.spec.whatwg.org/#big5-encoder>. ASCII runs go to the kernel; each
    /// other character is looked up and written as two bytes, after checking room.
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        _last: bool,
    ) -> EncoderResult {
        loop {
            src.encode_run(dst, Some(&ENC_TABLES), run_bytes);
            loop {
                // 1. If codePoint is end-of-queue, then return finished.
                let Some((c, len)) = src.peek() else {
                    return EncoderResult::InputEmpty;
                };
                let code_point = u32::from(c);
                // 2. If codePoint is an ASCII code point, then return a byte whose value is
                //    codePoint. (The kernel stopped here: the output is full, or it stopped
                //    early; write this one and go back to the kernel.)
                if code_point < 0x80 {
                    if dst.left() == 0 {
                        return EncoderResult::OutputFull;
                    }
                    dst.push_byte(code_point as u8);
                    src.advance(len);
                    break;
                }
                // 3. Let pointer be the index Big5 pointer for codePoint.
                // 4. If pointer is null, then return error with codePoint.
                let Some(pointer) = index_big5_pointer(code_point) else {
                    src.advance(len);
                    return EncoderResult::Unmappable(c);
                };
                if dst.left() < 2 {
                    return EncoderResult::OutputFull;
                }
                // 5. Let leading be pointer / 157 + 0x81.
                let leading = pointer / 157 + 0x81;
                // 6. Let trailing be pointer % 157.
                let trailing = pointer % 157;
                // 7. Let offset be 0x40 if trailing is less than 0x3F, otherwise 0x62.
                let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
                // 8. Return two bytes whose values are leading and trailing + offset.
                dst.push(&[leading as u8, (trailing + offset) as u8]);
                src.advance(len);
            }
        }
    }

    /// These encoders write nothing at end-of-queue.
    #[allow(
        dead_code,
        reason = "part of the family contract; `VariantEncoder` asks only ISO-2022-JP"
    )]
    pub(crate) fn has_pending_state(&self) -> bool {
        false
    }
}

/// <https://encoding.spec.whatwg.org/#index-big5-pointer>: the generated tables already
/// exclude the HKSCS pointers and apply the last-pointer rule.
#[inline(always)]
fn index_big5_pointer(code_point: u32) -> Option<u16> {
    if code_point <= 0xFFFF {
        paged(&BIG5_ENC_PAGES, &BIG5_ENC_BLOCKS, code_point).checked_sub(1)
    } else {
        let i = BIG5_ENC_ASTRAL
            .binary_search_by_key(&code_point, |&(c, _)| c)
            .ok()?;
        BIG5_ENC_ASTRAL.get(i).map(|&(_, pointer)| pointer)
    }
}

#[cfg(test)]
mod tests {
    use super::{BIG5, TWO_CODE_POINTS};
    use crate::codecs::testing::{
        Rng, check_decode, check_decode_thoroughly, check_encode, check_encode_thoroughly,
    };

    #[test]
    fn two_code_point_pointers_are_not_in_the_index() {
        for (pointer, _, _) in TWO_CODE_POINTS {
            assert_eq!(BIG5[usize::from(pointer)], 0, "pointer {pointer}");
        }
        // The fast path writes the index's BMP code points with `push_bmp`.
        assert!(BIG5.iter().all(|&c| char::from_u32(c).is_some()));
    }

    #[test]
    fn every_one_and_two_byte_input_equals_spec() {
        for a in 0..=255u8 {
            check_decode(crate::BIG5, &[a], &[], 16);
            for b in 0..=255u8 {
                check_decode(crate::BIG5, &[a, b], &[], 16);
            }
        }
    }

    #[test]
    fn every_pair_in_one_input_in_chunks() {
        // Every lead with every trail byte, in one input per lead: the fast path whole, the
        // byte-wise path cut into 4-unit buffers at odd offsets.
        for leading in 0x81..=0xFEu8 {
            let input: Vec<u8> = (0x40..=0xFEu8).flat_map(|t| [leading, t, b'.']).collect();
            check_decode(crate::BIG5, &input, &[], input.len() * 3);
            check_decode(crate::BIG5, &input, &[7, 100, 301], 4);
        }
    }

    #[test]
    fn structured_samples_thoroughly() {
        let pieces: [&[u8]; 24] = [
            b"\x88\x62",
            b"\x88\x64",
            b"\x88\xA3",
            b"\x88\xA5",
            b"\x88\x66",
            b"\xA4\x40",
            b"\xFE\xFE",
            b"\x87\x40",
            b"\x87\x41",
            b"\xC6\xA1",
            b"\xF9\xFE",
            b"\x80",
            b"\xFF",
            b"\x81",
            b"\x81A",
            b"\x81\x7F",
            b"\x81\xA0",
            b"\x81\xFF",
            b"\xA1\x40",
            b"\xA1\x80",
            b"\x8E\x69",
            b"\xFA\x40",
            b"\xA4\x40\xA4",
            b"\x81\x81\x40",
        ];
        for p in pieces {
            check_decode_thoroughly(crate::BIG5, p);
            let mut framed = b"a".to_vec();
            framed.extend_from_slice(p);
            framed.extend_from_slice(b"b\xA4\x40");
            check_decode_thoroughly(crate::BIG5, &framed);
            let mut doubled = b"\x88\x62".to_vec();
            doubled.extend_from_slice(p);
            doubled.extend_from_slice(p);
            doubled.extend_from_slice(b"\x87\x40z");
            check_decode_thoroughly(crate::BIG5, &doubled);
        }
        let alphabet = [
            0x40, 0x41, 0x62, 0x7F, 0x80, 0x81, 0x87, 0x88, 0xA1, 0xA3, 0xA4, 0xFE, 0xFF, 0x00,
        ];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..2000 {
            let len = 1 + (rng.next() % 12) as usize;
            let input: Vec<u8> = (0..len).map(|_| rng.pick(&alphabet)).collect();
            check_decode_thoroughly(crate::BIG5, &input);
        }
    }

    /// Every astral code point of index Big5 (mappable or excluded as HKSCS), plus samples.
    fn astral_chars() -> Vec<char> {
        let mut chars: Vec<char> = BIG5
            .iter()
            .filter(|&&c| c > 0xFFFF)
            .filter_map(|&c| char::from_u32(c))
            .collect();
        chars.extend((0x10000..=0x10FFFFu32).step_by(251).filter_map(char::from_u32));
        chars.extend(['\u{10000}', '\u{1F600}', '\u{10FFFF}']);
        chars
    }

    #[test]
    fn every_bmp_scalar_and_astral_samples_encode_as_spec() {
        let special = [
            '\u{2550}', '\u{255E}', '\u{2561}', '\u{256A}', '\u{5341}', '\u{5345}', '\u{CA}', '\u{304}',
        ];
        for c in (0..=0xFFFFu32)
            .filter_map(char::from_u32)
            .chain(astral_chars())
            .chain(special)
        {
            check_encode(crate::BIG5, c.encode_utf8(&mut [0; 4]), &[], 16);
        }
    }

    #[test]
    fn whole_bmp_and_astral_in_one_string_and_small_buffers() {
        let text: String = (0..=0xFFFFu32)
            .filter_map(char::from_u32)
            .chain(astral_chars())
            .collect();
        check_encode(crate::BIG5, &text, &[], text.len() * 2);
        check_encode(crate::BIG5, &text, &[1000, 30000, 60000], 8);
    }

    #[test]
    fn mixed_text_thoroughly() {
        let texts = [
            "a\u{4E00}\u{2550}b\u{5341}\u{5345}c\u{E5E5}\u{1F600}\u{20AC}z",
            "\u{CA}\u{304}\u{EA}\u{30C}x\u{3000}\u{FFFF}\u{2008A}\u{10FFFF}.",
            "plain ascii, then \u{4E2D}\u{6587}\u{FF01} and \u{A7}\u{2027}\u{256A}",
        ];
        for text in texts {
            check_encode_thoroughly(crate::BIG5, text);
        }
    }
}
