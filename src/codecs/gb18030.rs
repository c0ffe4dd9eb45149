//! gb18030 and GBK: one decoder (GBK's decoder is gb18030's), one encoder with `is GBK`.
//!
//! <https://encoding.spec.whatwg.org/#gb18030-decoder>: ASCII bytes are themselves, 0x80 is
//! U+20AC, a lead byte 0x81–0xFE starts a two-byte sequence (index gb18030) or, with a
//! second byte 0x30–0x39, a four-byte sequence (index gb18030 ranges: below the astral
//! planes, a compile-time table of every pointer's code point, which the pair kernels
//! gather from too).
//!
//! Decoding has two layers:
//! - a fast path, run only from the initial state with nothing pending: ASCII runs go to the
//!   `copy_ascii` kernel, and whole two- and four-byte sequences that are entirely in `src`
//!   and decode to a character are decoded in a tight loop reading `src` directly; it stops
//!   (leaving the byte unconsumed) at anything else: an error, a sequence cut by the end of
//!   the buffer, or a character that does not fit;
//! - the standard's handler, one byte at a time, in [`Gb18030Decoder::step`], with the state
//!   variables named as in the standard. It handles buffer edges, errors and restored bytes.
//!
//! "Restore" never needs a queue for the current byte: it is simply not consumed. Bytes held
//! in state that the standard restores (« second, third, byte » after a bad fourth byte,
//! « second, byte » after a bad third byte) go to [`Pending`], drained before `src`.
//!
//! At most two bytes are ever pending, so `Pending::restore` (at most four) cannot fail. The
//! state bytes that a restore puts back were read since the last restore, from `Pending`
//! while it had bytes, then from `src`. If one came from `src`, `Pending` was empty then and
//! still is, and the restore leaves one or two bytes there. If all came from `Pending`, the
//! restore puts back fewer bytes (the first one never returns) than were taken out of it.
//! Either way the count stays at most max(2, its previous maximum), and it starts at 0.

use crate::codecs::Pending;
use crate::codecs::dest::Dest;
use crate::codecs::driver::{StateMachine, Step};
use crate::codecs::runs::{self, PairShape};
use crate::codecs::source::{ByteDest, Source};
use crate::results::EncoderResult;
use crate::simd::{EncodeTables, FOUR_BYTE_POINTERS, Lookup, PairTables, four_byte_pointer, is_plain};
use crate::tables::gb18030::{GB18030, GB18030_ENC_BLOCKS, GB18030_ENC_PAGES, GB18030_RANGES};
use crate::tables::paged;

/// <https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point>
#[inline]
fn index_gb18030_ranges_code_point(pointer: u32) -> Option<char> {
    // 1. If pointer is greater than 39419 and less than 189000, or pointer is greater than
    //    1237575, then return null.
    if (pointer > 39419 && pointer < 189000) || pointer > 1237575 {
        return None;
    }
    // 2.–4. Below 39420, `FOUR_BYTE_BMP` holds their result (built from them at compile
    // time, the kernels' table too). From 189000, the last range: U+10000 at 189000.
    let code_point = if (pointer as usize) < FOUR_BYTE_POINTERS {
        u32::from(FOUR_BYTE_BMP[pointer as usize])
    } else {
        let (offset, code_point_offset) = GB18030_RANGES[GB18030_RANGES.len() - 1];
        code_point_offset + (pointer - offset)
    };
    char::from_u32(code_point)
}

/// <https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer>, for a code point that
/// is not ASCII (so at least the first range's U+0080).
#[inline]
fn index_gb18030_ranges_pointer(code_point: u32) -> u32 {
    // 1. If codePoint is U+E7C7, then return pointer 7457.
    if code_point == 0xE7C7 {
        return 7457;
    }
    // 2. Let offset be the last code point in index gb18030 ranges that is less than or
    //    equal to codePoint and let pointerOffset be its corresponding pointer.
    let i = GB18030_RANGES.partition_point(|&(_, c)| c <= code_point);
    let (pointer_offset, offset) = GB18030_RANGES
        .get(i.wrapping_sub(1))
        .copied()
        .unwrap_or((0, 0x80));
    // 3. Return a pointer whose value is pointerOffset + codePoint − offset.
    pointer_offset + code_point.saturating_sub(offset)
}

/// The index gb18030 code point of lead `leading` (0x81–0xFE) and trail `byte`, if any
/// (steps 5.5–5.7 of the decoder): 0x40–0x7E and 0x80–0xFE are trails.
#[inline(always)]
fn two_byte_code_point(leading: u8, byte: u8) -> Option<u16> {
    let offset = if byte < 0x7F { 0x40 } else { 0x41 };
    if !matches!(byte, 0x40..=0x7E | 0x80..=0xFE) {
        return None;
    }
    let pointer = usize::from(leading.wrapping_sub(0x81)) * 190 + usize::from(byte - offset);
    GB18030.get(pointer).copied().filter(|&u| u != 0)
}

/// The gb18030 decoder (also GBK's).
#[derive(Clone, Copy)]
pub(crate) struct Gb18030Decoder {
    gb18030_first: u8,
    gb18030_second: u8,
    gb18030_third: u8,
    pending: Pending,
}

impl Gb18030Decoder {
    pub(crate) const fn new() -> Self {
        Gb18030Decoder {
            gb18030_first: 0,
            gb18030_second: 0,
            gb18030_third: 0,
            pending: Pending::EMPTY,
        }
    }

    /// Bytes held in state, pending restored bytes included.
    pub(crate) fn held(&self) -> usize {
        usize::from(self.gb18030_first != 0)
            + usize::from(self.gb18030_second != 0)
            + usize::from(self.gb18030_third != 0)
            + self.pending.len()
    }

    /// No byte held in state and nothing pending.
    pub(crate) fn is_initial(&self) -> bool {
        self.gb18030_first == 0
            && self.gb18030_second == 0
            && self.gb18030_third == 0
            && self.pending.is_empty()
    }
}

impl StateMachine for Gb18030Decoder {
    #[inline(always)]
    fn between_characters(&self) -> bool {
        self.gb18030_first == 0 && self.gb18030_second == 0 && self.gb18030_third == 0
    }

    #[inline(always)]
    fn fast_run<D: Dest>(&mut self, src: &[u8], dst: &mut D) -> (usize, bool) {
        (decode_fast(src, dst), false)
    }

    /// <https://encoding.spec.whatwg.org/#gb18030-decoder>, steps 3–9, for one byte (not
    /// end-of-queue). Checks room before changing anything.
    #[inline]
    fn step<D: Dest>(&mut self, byte: u8, dst: &mut D, replace: bool) -> Step {
        let error_fits = dst.room_for_error(replace);
        // 3. If gb18030 third is not 0x00:
        if self.gb18030_third != 0 {
            // 3.1. If byte is not in the range 0x30 to 0x39, inclusive: restore « gb18030
            //      second, gb18030 third, byte », set first, second and third to 0x00, error.
            if !(0x30..=0x39).contains(&byte) {
                if !error_fits {
                    return Step::Full;
                }
                // `byte` stays where it is (not consumed); second and third go before it.
                self.pending.restore(&[self.gb18030_second, self.gb18030_third]);
                self.gb18030_first = 0;
                self.gb18030_second = 0;
                self.gb18030_third = 0;
                return Step::Error {
                    consumed: false,
                    bad: 1,
                };
            }
            // 3.2. Let codePoint be the index gb18030 ranges code point for the pointer.
            let pointer =
                four_byte_pointer(self.gb18030_first, self.gb18030_second, self.gb18030_third, byte);
            let code_point = index_gb18030_ranges_code_point(pointer);
            match code_point {
                Some(c) if !dst.room_for(c) => return Step::Full,
                None if !error_fits => return Step::Full,
                _ => {}
            }
            // 3.3. Set gb18030 first, gb18030 second, and gb18030 third to 0x00.
            self.gb18030_first = 0;
            self.gb18030_second = 0;
            self.gb18030_third = 0;
            // 3.4. If codePoint is null, then return error.
            // 3.5. Return a code point whose value is codePoint.
            return match code_point {
                Some(c) => {
                    dst.push(c);
                    Step::Consumed
                }
                None => Step::Error {
                    consumed: true,
                    bad: 4,
                },
            };
        }
        // 4. If gb18030 second is not 0x00:
        if self.gb18030_second != 0 {
            // 4.1. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 third to
            //      byte and return continue.
            if (0x81..=0xFE).contains(&byte) {
                self.gb18030_third = byte;
                return Step::Consumed;
            }
            // 4.2. Restore « gb18030 second, byte », set gb18030 first and gb18030 second to
            //      0x00, and return error.
            if !error_fits {
                return Step::Full;
            }
            self.pending.restore(&[self.gb18030_second]);
            self.gb18030_first = 0;
            self.gb18030_second = 0;
            return Step::Error {
                consumed: false,
                bad: 1,
            };
        }
        // 5. If gb18030 first is not 0x00:
        if self.gb18030_first != 0 {
            // 5.1. If byte is in the range 0x30 to 0x39, inclusive, then set gb18030 second to
            //      byte and return continue.
            if (0x30..=0x39).contains(&byte) {
                self.gb18030_second = byte;
                return Step::Consumed;
            }
            // 5.2–5.7. leading = gb18030 first; pointer and codePoint as in the standard.
            let code_point = two_byte_code_point(self.gb18030_first, byte);
            match code_point {
                Some(u) if !dst.room_for_bmp(u) => return Step::Full,
                None if !error_fits => return Step::Full,
                _ => {}
            }
            // 5.3. Set gb18030 first to 0x00.
            self.gb18030_first = 0;
            return match code_point {
                // 5.8. If codePoint is non-null, then return a code point whose value is
                //      codePoint.
                Some(u) => {
                    dst.push_bmp(u);
                    Step::Consumed
                }
                // 5.9. If byte is an ASCII byte, then restore byte to ioQueue.
                // 5.10. Return error.
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
            // 6. If byte is an ASCII byte, then return a code point whose value is byte.
            0x00..=0x7F => {
                if !dst.room_for_ascii() {
                    return Step::Full;
                }
                dst.push_ascii(byte);
                Step::Consumed
            }
            // 7. If byte is 0x80, then return code point U+20AC (€).
            0x80 => {
                if !dst.room_for_bmp(0x20AC) {
                    return Step::Full;
                }
                dst.push_bmp(0x20AC);
                Step::Consumed
            }
            // 8. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 first to
            //    byte and return continue.
            0x81..=0xFE => {
                self.gb18030_first = byte;
                Step::Consumed
            }
            // 9. Return error.
            0xFF => {
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

    /// Steps 1–2 of <https://encoding.spec.whatwg.org/#gb18030-decoder> (nothing is pending
    /// at end-of-queue).
    #[inline(always)]
    fn at_end<D: Dest>(&mut self, dst: &mut D, replace: bool) -> Step {
        // 2. If byte is end-of-queue, and gb18030 first, gb18030 second, or gb18030 third is
        //    not 0x00, then set them to 0x00 and return error.
        let held = self.held();
        if held == 0 {
            // 1. If byte is end-of-queue and gb18030 first, second and third are 0x00, then
            //    return finished.
            return Step::Consumed;
        }
        if !dst.room_for_error(replace) {
            return Step::Full;
        }
        self.gb18030_first = 0;
        self.gb18030_second = 0;
        self.gb18030_third = 0;
        Step::Error {
            consumed: false,
            bad: held as u8,
        }
    }

    #[inline(always)]
    fn pending(&mut self) -> Option<&mut Pending> {
        Some(&mut self.pending)
    }
}

/// The fast path, from the initial state: decodes ASCII runs (through the kernel) and whole
/// valid sequences at the start of `src`, and returns where it stopped, in the initial state.
/// Everything it does not handle (errors, sequences cut by the end of `src`, output full)
/// is left to [`Gb18030Decoder::step`].
#[inline(always)]
fn decode_fast<D: Dest>(src: &[u8], dst: &mut D) -> usize {
    let mut read = 0;
    'ascii: loop {
        // The run takes ASCII, 0x80 and two-byte characters; four-byte ones are below.
        read += runs::decode_run(
            src.get(read..).unwrap_or_default(),
            dst,
            &PAIRS,
            |byte| if byte == 0x80 { 0x20AC } else { 0 },
            |leading, byte| SHAPE.lookup(leading, byte, &GB18030).map_or(0, u32::from),
        )
        .0;
        loop {
            let Some(&leading) = src.get(read) else {
                return read;
            };
            match leading {
                0x00..=0x7F => {
                    // One ASCII byte between multi-byte characters: inline; a run: the kernel.
                    if !dst.room_for_ascii() {
                        return read;
                    }
                    dst.push_ascii(leading);
                    read += 1;
                    if src.get(read).is_some_and(|&b| b < 0x80) {
                        continue 'ascii;
                    }
                }
                0x80 => {
                    if !dst.room_for_bmp(0x20AC) {
                        return read;
                    }
                    dst.push_bmp(0x20AC);
                    read += 1;
                }
                0x81..=0xFE => {
                    let Some(&byte) = src.get(read + 1) else {
                        return read;
                    };
                    if let Some(u) = two_byte_code_point(leading, byte) {
                        if !dst.room_for_bmp(u) {
                            return read;
                        }
                        dst.push_bmp(u);
                        read += 2;
                        continue;
                    }
                    let (Some(&third), Some(&fourth)) = (src.get(read + 2), src.get(read + 3)) else {
                        return read;
                    };
                    if !((0x30..=0x39).contains(&byte)
                        && (0x81..=0xFE).contains(&third)
                        && (0x30..=0x39).contains(&fourth))
                    {
                        return read;
                    }
                    let pointer = four_byte_pointer(leading, byte, third, fourth);
                    let Some(c) = index_gb18030_ranges_code_point(pointer) else {
                        return read;
                    };
                    if !dst.room_for(c) {
                        return read;
                    }
                    dst.push(c);
                    read += 4;
                }
                0xFF => return read,
            }
            // Back to the run, unless a four-byte sequence is next, where the run would stop
            // at once at the levels without vector pair kernels (the vector ones take them,
            // and the run does not stop there): the Chinese Wikipedia page's names in
            // Arabic, Hindi or Georgian are four-byte sequences and spaces, where most
            // kernel calls would read nothing.
            let four_next = src.get(read).is_some_and(|&b| b >= 0x81)
                && src.get(read + 1).is_some_and(|b| (0x30..=0x39).contains(b));
            if !four_next {
                continue 'ascii;
            }
        }
    }
}

/// Lead and trail bytes of two-byte characters (steps 5.5–5.6): rows of 190 pointers for
/// leads 0x81–0xFE, columns for trails 0x40–0x7E then 0x80–0xFE (byte − offset).
const SHAPE_DEF: PairShape = PairShape::new(&[(0x81, 0xFE)], &[(0x40, 0x7E), (0x80, 0xFE)], 190);
static SHAPE: PairShape = SHAPE_DEF;
/// The same pairs for the vector kernels, and the four-byte sequences of the BMP.
pub(crate) static PAIRS: PairTables = SHAPE_DEF
    .tables(Lookup::U16(&GB18030))
    .with_four_byte(&FOUR_BYTE_BMP);

/// The index gb18030 ranges code point of every pointer below the astral planes' (steps
/// 2–4 of <https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point>), for
/// [`index_gb18030_ranges_code_point`] and the kernels, and a 0 after them (see
/// [`PairTables::four_byte`]). Built at compile time from index gb18030 ranges; every one is
/// plain (in the BMP, not a surrogate: checked here and by `PairTables::with_four_byte`).
static FOUR_BYTE_BMP: [u16; FOUR_BYTE_POINTERS + 1] = {
    let mut out = [0u16; FOUR_BYTE_POINTERS + 1];
    let mut range = 0;
    let mut pointer = 0;
    while pointer < FOUR_BYTE_POINTERS as u32 {
        while range + 1 < GB18030_RANGES.len() && GB18030_RANGES[range + 1].0 <= pointer {
            range += 1;
        }
        let (offset, code_point_offset) = GB18030_RANGES[range];
        let code_point = if pointer == 7457 {
            0xE7C7
        } else {
            code_point_offset + (pointer - offset)
        };
        assert!(
            is_plain(code_point, 0x80),
            "the BMP's pointers map plain code points"
        );
        out[pointer as usize] = code_point as u16;
        pointer += 1;
    }
    out
};

/// The gb18030 encoder, or GBK's with `is_gbk`.
#[derive(Clone, Copy)]
pub(crate) struct Gb18030Encoder {
    is_gbk: bool,
}

/// The bytes of each code point with an index gb18030 pointer, in the pages of
/// `GB18030_ENC_PAGES`.
/// Without bytes for the code points the state machine takes (`DECLINED`).
static ENC_BYTES: [u16; GB18030_ENC_BLOCKS.len()] = runs::without(
    runs::pointer_bytes(&GB18030_ENC_BLOCKS, runs::PointerBytes::Gb18030),
    &GB18030_ENC_PAGES,
    &DECLINED,
);
/// The encode run's lookup for the vector kernels: `ENC_BYTES`.
pub(crate) static ENC_TABLES: EncodeTables = EncodeTables {
    pages: &GB18030_ENC_PAGES,
    blocks: Lookup::U16(&ENC_BYTES),
    latin1_from: 0,
};
/// The code points the state machine takes: U+20AC (GBK's 0x80) and the private use code
/// points around U+E5E5 and those of the GB18030-2022 table (steps 3–5).
const DECLINED: [(u16, u16); 2] = [(0x20AC, 0x20AC), (0xE5E5, 0xE864)];

/// The encode run's lookup: the two bytes of `c` (`lead << 8 | trail`), or 0 for what the
/// state machine takes (U+20AC, which GBK encodes as 0x80; the PUA code points of the
/// four-byte ranges; everything without a two-byte pointer).
#[inline(always)]
pub(crate) fn run_bytes(c: u32) -> u16 {
    // `ENC_BYTES` has none for `DECLINED` (tested).
    paged(&GB18030_ENC_PAGES, &ENC_BYTES, c)
}

impl Gb18030Encoder {
    /// Whether this is the GBK encoder (no four-byte sequences).
    pub(crate) fn is_gbk(&self) -> bool {
        self.is_gbk
    }
}

impl Gb18030Encoder {
    pub(crate) const fn new(is_gbk: bool) -> Self {
        Gb18030Encoder { is_gbk }
    }

    /// <https://encoding.spec.whatwg.org/#gb18030-encoder>. ASCII runs go to the kernel;
    /// each other character is looked up and written whole, after checking room.
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        _last: bool,
    ) -> EncoderResult {
        loop {
            // The run takes what index gb18030 gives directly; steps 3–5 (U+E5E5, the
            // GB18030-2022 table, GBK's euro sign) and the ranges are the loop's below.
            src.encode_run(dst, Some(&ENC_TABLES), run_bytes);
            // One character the run left, then back to the run.
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
                continue;
            }
            let Some((bytes, n)) = self.encode_non_ascii(code_point) else {
                src.advance(len);
                return EncoderResult::Unmappable(c);
            };
            if dst.left() < n {
                return EncoderResult::OutputFull;
            }
            dst.push(bytes.get(..n).unwrap_or_default());
            src.advance(len);
        }
    }

    /// Steps 3–15 of the encoder for a non-ASCII code point: the bytes and how many of them,
    /// or None for error.
    #[inline(always)]
    fn encode_non_ascii(&self, code_point: u32) -> Option<([u8; 4], usize)> {
        if (0xE5E5..=0xE864).contains(&code_point) {
            // 3. If codePoint is U+E5E5, then return error with codePoint.
            if code_point == 0xE5E5 {
                return None;
            }
            // 5. If there is a row in the table below whose first column is codePoint, then
            //    return the two bytes on the same row listed in the second column.
            let side = match code_point {
                0xE78D => Some([0xA6, 0xD9]),
                0xE78E => Some([0xA6, 0xDA]),
                0xE78F => Some([0xA6, 0xDB]),
                0xE790 => Some([0xA6, 0xDC]),
                0xE791 => Some([0xA6, 0xDD]),
                0xE792 => Some([0xA6, 0xDE]),
                0xE793 => Some([0xA6, 0xDF]),
                0xE794 => Some([0xA6, 0xEC]),
                0xE795 => Some([0xA6, 0xED]),
                0xE796 => Some([0xA6, 0xF3]),
                0xE81E => Some([0xFE, 0x59]),
                0xE826 => Some([0xFE, 0x61]),
                0xE82B => Some([0xFE, 0x66]),
                0xE82C => Some([0xFE, 0x67]),
                0xE832 => Some([0xFE, 0x6D]),
                0xE843 => Some([0xFE, 0x7E]),
                0xE854 => Some([0xFE, 0x90]),
                0xE864 => Some([0xFE, 0xA0]),
                _ => None,
            };
            if let Some([a, b]) = side {
                return Some(([a, b, 0, 0], 2));
            }
        }
        // 4. If is GBK is true and codePoint is U+20AC (€), then return byte 0x80.
        if self.is_gbk && code_point == 0x20AC {
            return Some(([0x80, 0, 0, 0], 1));
        }
        // 6. Let pointer be the index pointer for codePoint in index gb18030 (the table holds
        //    pointer + 1, 0 for none).
        let pointer = paged(&GB18030_ENC_PAGES, &GB18030_ENC_BLOCKS, code_point);
        // 7. If pointer is non-null: leading and trailing bytes.
        if let Some(pointer) = pointer.checked_sub(1) {
            let leading = pointer / 190 + 0x81;
            let trailing = pointer % 190;
            let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
            return Some(([leading as u8, (trailing + offset) as u8, 0, 0], 2));
        }
        // 8. If is GBK is true, then return error with codePoint.
        if self.is_gbk {
            return None;
        }
        // 9–15. The index gb18030 ranges pointer, as four bytes.
        let pointer = index_gb18030_ranges_pointer(code_point);
        let byte1 = pointer / (10 * 126 * 10);
        let pointer = pointer % (10 * 126 * 10);
        let byte2 = pointer / (10 * 126);
        let pointer = pointer % (10 * 126);
        let byte3 = pointer / 10;
        let byte4 = pointer % 10;
        Some((
            [
                (byte1 + 0x81) as u8,
                (byte2 + 0x30) as u8,
                (byte3 + 0x81) as u8,
                (byte4 + 0x30) as u8,
            ],
            4,
        ))
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

#[cfg(test)]
mod tests {
    use super::{Gb18030Decoder, index_gb18030_ranges_code_point};
    use crate::codecs::dest::Utf8Dest;
    use crate::codecs::driver;
    use crate::codecs::testing::{
        Rng, check_decode, check_decode_thoroughly, check_encode, check_encode_thoroughly,
    };
    use crate::results::Status;
    use crate::{GB18030, GBK};

    /// The encode run and the vector kernels rely on it: the code points the state machine
    /// takes have no bytes in `ENC_BYTES`, and every other one has those of its pointer.
    #[test]
    fn declined_code_points_and_only_they_lose_their_bytes() {
        let all = crate::codecs::runs::pointer_bytes(
            &crate::tables::gb18030::GB18030_ENC_BLOCKS,
            crate::codecs::runs::PointerBytes::Gb18030,
        );
        let declined = |c: u32| {
            super::DECLINED
                .iter()
                .any(|&(lo, hi)| (u32::from(lo)..=u32::from(hi)).contains(&c))
        };
        let mut dropped = 0;
        for c in 0x80..0x1_0000u32 {
            let bytes = super::run_bytes(c);
            if declined(c) {
                assert_eq!(bytes, 0, "U+{c:04X}");
                dropped += usize::from(crate::tables::paged(&super::GB18030_ENC_PAGES, &all, c) != 0);
            } else {
                assert_eq!(
                    bytes,
                    crate::tables::paged(&super::GB18030_ENC_PAGES, &all, c),
                    "U+{c:04X}"
                );
            }
        }
        // U+20AC and the private use code points with two-byte pointers.
        assert!(dropped > 500, "{dropped}");
    }

    /// The four bytes of a four-byte pointer.
    fn four_bytes(pointer: u32) -> [u8; 4] {
        [
            (pointer / 12600 + 0x81) as u8,
            (pointer % 12600 / 1260 + 0x30) as u8,
            (pointer % 1260 / 10 + 0x81) as u8,
            (pointer % 10 + 0x30) as u8,
        ]
    }

    #[test]
    fn every_one_and_two_byte_input_equals_spec_gb18030() {
        for a in 0..=255u8 {
            check_decode(GB18030, &[a], &[], 16);
            for b in 0..=255u8 {
                check_decode(GB18030, &[a, b], &[], 16);
            }
        }
    }

    #[test]
    fn every_one_and_two_byte_input_equals_spec_gbk() {
        for a in 0..=255u8 {
            check_decode(GBK, &[a], &[], 16);
            for b in 0..=255u8 {
                check_decode(GBK, &[a, b], &[], 16);
            }
        }
    }

    #[test]
    fn structured_three_and_four_byte_inputs_equal_spec() {
        let firsts = [
            0x00, 0x30, 0x41, 0x7F, 0x80, 0x81, 0x82, 0x84, 0x85, 0x8F, 0x90, 0xA1, 0xE3, 0xE4, 0xFD, 0xFE,
            0xFF,
        ];
        let seconds = [
            0x00, 0x2F, 0x30, 0x31, 0x35, 0x39, 0x3A, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0xA0, 0xFE, 0xFF,
        ];
        let thirds = [
            0x00, 0x30, 0x39, 0x40, 0x7F, 0x80, 0x81, 0x82, 0xA0, 0xF4, 0xFE, 0xFF,
        ];
        let fourths = [
            0x00, 0x2F, 0x30, 0x31, 0x37, 0x39, 0x3A, 0x41, 0x7F, 0x80, 0x81, 0xFE, 0xFF,
        ];
        for &a in &firsts {
            for &b in &seconds {
                for &c in &thirds {
                    check_decode(GB18030, &[a, b, c], &[], 16);
                    for &d in &fourths {
                        check_decode(GB18030, &[a, b, c, d], &[], 16);
                    }
                }
            }
        }
    }

    #[test]
    fn every_four_byte_sequence_equals_spec() {
        // All 126 × 10 × 126 × 10 four-byte sequences, one input per first byte, decoded whole
        // (the fast path) and cut every 4001 bytes into 4-unit buffers (the byte-wise path).
        for first in 0x81..=0xFEu8 {
            let mut input = Vec::with_capacity(12600 * 4);
            for second in 0x30..=0x39u8 {
                for third in 0x81..=0xFEu8 {
                    for fourth in 0x30..=0x39u8 {
                        input.extend_from_slice(&[first, second, third, fourth]);
                    }
                }
            }
            check_decode(GB18030, &input, &[], input.len() * 2);
            if first % 16 == 1 || first == 0x84 || first == 0x90 || first == 0xE3 || first == 0xFE {
                let splits: Vec<usize> = (1..input.len()).step_by(4001).collect();
                check_decode(GB18030, &input, &splits, 4);
            }
        }
    }

    #[test]
    fn ranges_edges_and_errors_thoroughly() {
        let mut pieces: Vec<Vec<u8>> = Vec::new();
        for pointer in [
            0, 1, 35, 36, 37, 7456, 7457, 7458, 19042, 19043, 33468, 33469, 39393, 39394, 39418, 39419,
            39420, 39421, 188999, 189000, 189001, 1237574, 1237575, 1237576, 1587599,
        ] {
            pieces.push(four_bytes(pointer).to_vec());
        }
        let fixed: [&[u8]; 32] = [
            b"\x81\x40",
            b"\xA1\xA1",
            b"\xA3\xA0",
            b"\xFE\xFE",
            b"\xA6\xD9",
            b"\xFE\x59",
            b"\x80",
            b"\xFF",
            b"\x81",
            b"\x81\x30",
            b"\x81\x30\x81",
            b"\x81\x7F",
            b"\x81\xFF",
            b"\x81A",
            b"\x81\x30A",
            b"\x81\x30\xFF",
            b"\x81\x30\x81A",
            b"\x81\x30\x81\x81",
            b"\x81\x30\x81\xFF",
            b"\x81\x30\x81\x80",
            b"\x84\x31\xA4\x39",
            b"\x84\x31\xA5\x30",
            b"\xE3\x32\x9A\x35",
            b"\xE3\x32\x9A\x36",
            b"\x90\x30\x81\x30",
            b"\xFE\x39\xFE\x39",
            b"\x81\x30\x30",
            b"\x81\x30\x81\x30\x81",
            b"\x81\x81\x30",
            b"\x81\x80",
            b"\x82\x40",
            b"\xA1\x40\xA1",
        ];
        pieces.extend(fixed.iter().map(|p| p.to_vec()));
        for p in &pieces {
            check_decode_thoroughly(GB18030, p);
            let mut framed = b"a".to_vec();
            framed.extend_from_slice(p);
            framed.extend_from_slice(b"b\xC4\xE3");
            check_decode_thoroughly(GB18030, &framed);
            let mut doubled = b"\xB0\xA1".to_vec();
            doubled.extend_from_slice(p);
            doubled.extend_from_slice(p);
            doubled.extend_from_slice(b"\x81\x30\x81\x30");
            check_decode_thoroughly(GB18030, &doubled);
        }
    }

    #[test]
    fn random_short_inputs_thoroughly() {
        // Inputs over the bytes that matter to the state machine, so restores chain.
        let alphabet = [
            0x30, 0x35, 0x39, 0x41, 0x40, 0x7F, 0x80, 0x81, 0x84, 0xA1, 0xE3, 0xFE, 0xFF, 0x00,
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..2000 {
            let len = 1 + (rng.next() % 14) as usize;
            let input: Vec<u8> = (0..len).map(|_| rng.pick(&alphabet)).collect();
            check_decode_thoroughly(GB18030, &input);
        }
    }

    #[test]
    fn state_is_held_and_pending_stays_small() {
        let kernels = crate::simd::active();
        let mut buf = [0u8; 64];
        let mut decoder = Gb18030Decoder::new();
        let mut dst = Utf8Dest::new(crate::simd::as_out(&mut buf), kernels);
        assert_eq!(
            driver::decode(&mut decoder, b"\x81\x30\x81", &mut dst, false, false),
            (Status::INPUT_EMPTY, 3)
        );
        assert_eq!((decoder.held(), decoder.is_initial()), (3, false));
        // A bad fourth byte: « second, third, byte » restored; the byte is not consumed.
        assert_eq!(
            driver::decode(&mut decoder, b"A", &mut dst, false, false),
            (Status::malformed(1, 2), 0)
        );
        assert_eq!(decoder.held(), 2);
        assert_eq!(
            driver::decode(&mut decoder, b"\xFF", &mut dst, true, false),
            (Status::malformed(2, 0), 1)
        );
        assert!(decoder.is_initial());
        // Pending never holds more than two bytes, whatever the input and chunking.
        let alphabet = [0x30, 0x39, 0x41, 0x80, 0x81, 0xFE, 0xFF];
        let mut rng = Rng(12345);
        for _ in 0..20000 {
            let mut decoder = Gb18030Decoder::new();
            for n in 0..16 {
                let byte = [rng.pick(&alphabet)];
                let mut buf = [0u8; 64];
                let mut dst = Utf8Dest::new(crate::simd::as_out(&mut buf), kernels);
                let mut rest: &[u8] = &byte;
                loop {
                    let (result, read) = driver::decode(&mut decoder, rest, &mut dst, n == 15, true);
                    assert!(decoder.pending.len() <= 2, "{:?}", decoder.pending);
                    rest = &rest[read..];
                    if result == Status::INPUT_EMPTY {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn ranges_code_point_limits() {
        // The two-byte paths write the index's code points with `push_bmp`: no surrogates.
        assert!(
            crate::tables::gb18030::GB18030
                .iter()
                .all(|&u| char::from_u32(u32::from(u)).is_some())
        );
        assert_eq!(index_gb18030_ranges_code_point(0), Some('\u{80}'));
        assert_eq!(index_gb18030_ranges_code_point(7457), Some('\u{E7C7}'));
        assert_eq!(index_gb18030_ranges_code_point(39419), Some('\u{FFFF}'));
        assert_eq!(index_gb18030_ranges_code_point(39420), None);
        assert_eq!(index_gb18030_ranges_code_point(188999), None);
        assert_eq!(index_gb18030_ranges_code_point(189000), Some('\u{10000}'));
        assert_eq!(index_gb18030_ranges_code_point(1237575), Some('\u{10FFFF}'));
        assert_eq!(index_gb18030_ranges_code_point(1237576), None);
        // Every pointer, through the table, against the standard's own algorithm.
        for pointer in 0..=1_300_000 {
            assert_eq!(
                index_gb18030_ranges_code_point(pointer),
                crate::spec::index::index_gb18030_ranges_code_point(pointer),
                "pointer {pointer}"
            );
        }
    }

    /// Astral samples plus the code points the encoder treats specially.
    fn special_chars() -> Vec<char> {
        let mut chars: Vec<char> = (0x10000..=0x10FFFFu32)
            .step_by(251)
            .filter_map(char::from_u32)
            .collect();
        chars.extend([
            '\u{10000}',
            '\u{1F600}',
            '\u{20000}',
            '\u{10FFFF}',
            '\u{E5E5}',
            '\u{E7C7}',
            '\u{20AC}',
        ]);
        chars.extend([
            '\u{80}', '\u{A5}', '\u{3000}', '\u{FFFF}', '\u{FE10}', '\u{9FB4}', '\u{E4C6}', '\u{E76C}',
        ]);
        chars.extend(SIDE_TABLE);
        chars
    }

    const SIDE_TABLE: [char; 18] = [
        '\u{E78D}', '\u{E78E}', '\u{E78F}', '\u{E790}', '\u{E791}', '\u{E792}', '\u{E793}', '\u{E794}',
        '\u{E795}', '\u{E796}', '\u{E81E}', '\u{E826}', '\u{E82B}', '\u{E82C}', '\u{E832}', '\u{E843}',
        '\u{E854}', '\u{E864}',
    ];

    #[test]
    fn every_bmp_scalar_and_astral_samples_encode_as_spec() {
        for enc in [GB18030, GBK] {
            for c in (0..=0xFFFFu32).filter_map(char::from_u32).chain(special_chars()) {
                check_encode(enc, c.encode_utf8(&mut [0; 4]), &[], 16);
            }
        }
    }

    #[test]
    fn whole_bmp_in_one_string_and_small_buffers() {
        let text: String = (0..=0xFFFFu32).filter_map(char::from_u32).collect();
        for enc in [GB18030, GBK] {
            check_encode(enc, &text, &[], text.len() * 4);
            check_encode(enc, &text, &[1000, 30000, 60000], 8);
        }
    }

    #[test]
    fn mixed_text_thoroughly() {
        let side: String = SIDE_TABLE.iter().collect();
        let texts = [
            "a\u{4E02}\u{80}b\u{E5E5}c\u{20AC}\u{1F600}\u{E7C7}\u{3000}z",
            "\u{E78D}\u{E864}x\u{E5E5}\u{E5E5}\u{FFFF}\u{10FFFF}.",
            "plain ascii, then \u{4E2D}\u{6587}\u{FF01} and \u{A5}\u{2014}\u{E76C}",
            side.as_str(),
        ];
        for enc in [GB18030, GBK] {
            for text in texts {
                check_encode_thoroughly(enc, text);
            }
        }
    }
}
