//! The standard's section "Shift_JIS": the Shift_JIS decoder and encoder.
//!
//! <https://encoding.spec.whatwg.org/#shift_jis>

use super::index::{IndexName, index_code_point, index_shift_jis_pointer};
use super::{HandlerResult, IoQueue, Item, byte, scalar_value};

/// An instance of Shift_JIS's decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ShiftJisDecoder {
    /// Shift_JIS leading, initially 0x00.
    shift_jis_leading: u8,
}

impl ShiftJisDecoder {
    pub(super) fn new() -> ShiftJisDecoder {
        ShiftJisDecoder {
            shift_jis_leading: 0x00,
        }
    }

    /// Shift_JIS's decoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#shift_jis-decoder>
    pub(super) fn handler(&mut self, io_queue: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue and Shift_JIS leading is not 0x00, then set Shift_JIS
        //    leading to 0x00 and return error.
        if byte == Item::EndOfQueue && self.shift_jis_leading != 0x00 {
            self.shift_jis_leading = 0x00;
            return HandlerResult::Error(None);
        }
        // 2. If byte is end-of-queue and Shift_JIS leading is 0x00, then return finished.
        let Item::Value(byte) = byte else {
            return HandlerResult::Finished;
        };
        // 3. If Shift_JIS leading is not 0x00:
        if self.shift_jis_leading != 0x00 {
            // 1. Let leading be Shift_JIS leading.
            let leading = u32::from(self.shift_jis_leading);
            // 2. Set Shift_JIS leading to 0x00.
            self.shift_jis_leading = 0x00;
            // 3. Let pointer be null.
            let mut pointer = None;
            // 4. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x41.
            let offset = if byte < 0x7F { 0x40 } else { 0x41 };
            // 5. Let leadingOffset be 0x81 if leading is less than 0xA0; otherwise 0xC1.
            let leading_offset = if leading < 0xA0 { 0x81 } else { 0xC1 };
            // 6. If byte is in the range 0x40 to 0x7E, inclusive, or 0x80 to 0xFC, inclusive,
            //    then set pointer to (leading − leadingOffset) × 188 + byte − offset.
            if (0x40..=0x7E).contains(&byte) || (0x80..=0xFC).contains(&byte) {
                pointer = Some((leading - leading_offset) * 188 + u32::from(byte) - offset);
            }
            // 7. If pointer is in the range 8836 to 10715, inclusive, then return a code point
            //    whose value is 0xE000 − 8836 + pointer.
            if let Some(pointer @ 8836..=10715) = pointer {
                return HandlerResult::Items(vec![scalar_value(
                    0xE000 - 8836 + pointer,
                    "Shift_JIS decoder, step 3.7",
                )]);
            }
            // 8. Let codePoint be null if pointer is null; otherwise the index code point for
            //    pointer in index jis0208.
            let code_point = pointer.and_then(|pointer| index_code_point(pointer, IndexName::Jis0208));
            // 9. If codePoint is non-null, then return a code point whose value is codePoint.
            if let Some(code_point) = code_point {
                return HandlerResult::Items(vec![code_point]);
            }
            // 10. If byte is an ASCII byte, then restore byte to ioQueue.
            if byte <= 0x7F {
                io_queue.restore(byte);
            }
            // 11. Return error.
            return HandlerResult::Error(None);
        }
        // 4. If byte is an ASCII byte or 0x80, then return a code point whose value is byte.
        if byte <= 0x80 {
            return HandlerResult::Items(vec![scalar_value(u32::from(byte), "Shift_JIS decoder, step 4")]);
        }
        // 5. If byte is in the range 0xA1 to 0xDF, inclusive, then return a code point whose
        //    value is 0xFF61 − 0xA1 + byte.
        if (0xA1..=0xDF).contains(&byte) {
            return HandlerResult::Items(vec![scalar_value(
                0xFF61 - 0xA1 + u32::from(byte),
                "Shift_JIS decoder, step 5",
            )]);
        }
        // 6. If byte is in the range 0x81 to 0x9F, inclusive, or 0xE0 to 0xFC, inclusive, then
        //    set Shift_JIS leading to byte and return continue.
        if (0x81..=0x9F).contains(&byte) || (0xE0..=0xFC).contains(&byte) {
            self.shift_jis_leading = byte;
            return HandlerResult::Continue;
        }
        // 7. Return error.
        HandlerResult::Error(None)
    }
}

/// An instance of Shift_JIS's encoder (it has no state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ShiftJisEncoder;

impl ShiftJisEncoder {
    /// Shift_JIS's encoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#shift_jis-encoder>
    pub(super) fn handler(
        &mut self,
        _unused: &mut IoQueue<char>,
        code_point: Item<char>,
    ) -> HandlerResult<u8> {
        // 1. If codePoint is end-of-queue, then return finished.
        let Item::Value(mut code_point) = code_point else {
            return HandlerResult::Finished;
        };
        // 2. If codePoint is an ASCII code point or U+0080, then return a byte whose value is
        //    codePoint.
        if code_point.is_ascii() || code_point == '\u{0080}' {
            return HandlerResult::Items(vec![byte(u32::from(code_point))]);
        }
        // 3. If codePoint is U+00A5 (¥), then return byte 0x5C.
        if code_point == '\u{00A5}' {
            return HandlerResult::Items(vec![0x5C]);
        }
        // 4. If codePoint is U+203E (‾), then return byte 0x7E.
        if code_point == '\u{203E}' {
            return HandlerResult::Items(vec![0x7E]);
        }
        // 5. If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive, then return a
        //    byte whose value is codePoint − 0xFF61 + 0xA1.
        if ('\u{FF61}'..='\u{FF9F}').contains(&code_point) {
            return HandlerResult::Items(vec![byte(u32::from(code_point) - 0xFF61 + 0xA1)]);
        }
        // 6. If codePoint is U+2212 (−), then set it to U+FF0D (－).
        if code_point == '\u{2212}' {
            code_point = '\u{FF0D}';
        }
        // 7. Let pointer be the index Shift_JIS pointer for codePoint.
        let pointer = index_shift_jis_pointer(code_point);
        // 8. If pointer is null, then return error with codePoint.
        let Some(pointer) = pointer else {
            return HandlerResult::Error(Some(code_point));
        };
        // 9. Let leading be pointer / 188.
        let leading = pointer / 188;
        // 10. Let leadingOffset be 0x81 if leading is less than 0x1F; otherwise 0xC1.
        let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
        // 11. Let trailing be pointer % 188.
        let trailing = pointer % 188;
        // 12. Let offset be 0x40 if trailing is less than 0x3F; otherwise 0x41.
        let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
        // 13. Return two bytes whose values are leading + leadingOffset and trailing + offset.
        HandlerResult::Items(vec![byte(leading + leading_offset), byte(trailing + offset)])
    }
}
