//! The standard's section "Big5": the Big5 decoder and encoder.
//!
//! <https://encoding.spec.whatwg.org/#big5>

use super::index::{IndexName, index_big5_pointer, index_code_point};
use super::{HandlerResult, IoQueue, Item, byte, scalar_value};

/// An instance of Big5's decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Big5Decoder {
    /// Big5 leading, initially 0x00.
    big5_leading: u8,
}

impl Big5Decoder {
    pub(super) fn new() -> Big5Decoder {
        Big5Decoder { big5_leading: 0x00 }
    }

    /// Big5's decoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#big5-decoder>
    pub(super) fn handler(&mut self, io_queue: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue and Big5 leading is not 0x00, then set Big5 leading to
        //    0x00 and return error.
        if byte == Item::EndOfQueue && self.big5_leading != 0x00 {
            self.big5_leading = 0x00;
            return HandlerResult::Error(None);
        }
        // 2. If byte is end-of-queue and Big5 leading is 0x00, then return finished.
        let Item::Value(byte) = byte else {
            return HandlerResult::Finished;
        };
        // 3. If Big5 leading is not 0x00:
        if self.big5_leading != 0x00 {
            // 1. Let leading be Big5 leading.
            let leading = u32::from(self.big5_leading);
            // 2. Set Big5 leading to 0x00.
            self.big5_leading = 0x00;
            // 3. Let pointer be null.
            let mut pointer = None;
            // 4. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x62.
            let offset = if byte < 0x7F { 0x40 } else { 0x62 };
            // 5. If byte is in the range 0x40 to 0x7E, inclusive, or 0xA1 to 0xFE, inclusive,
            //    then set pointer to (leading − 0x81) × 157 + (byte − offset).
            if (0x40..=0x7E).contains(&byte) || (0xA1..=0xFE).contains(&byte) {
                pointer = Some((leading - 0x81) * 157 + (u32::from(byte) - offset));
            }
            // 6. If there is a row in the table below whose first column is pointer, then
            //    return the two code points listed in its second column (the third column is
            //    irrelevant):
            match pointer {
                // 1133: U+00CA U+0304 (Ê̄)
                Some(1133) => return HandlerResult::Items(vec!['\u{00CA}', '\u{0304}']),
                // 1135: U+00CA U+030C (Ê̌)
                Some(1135) => return HandlerResult::Items(vec!['\u{00CA}', '\u{030C}']),
                // 1164: U+00EA U+0304 (ê̄)
                Some(1164) => return HandlerResult::Items(vec!['\u{00EA}', '\u{0304}']),
                // 1166: U+00EA U+030C (ê̌)
                Some(1166) => return HandlerResult::Items(vec!['\u{00EA}', '\u{030C}']),
                _ => {}
            }
            // 7. Let codePoint be null if pointer is null; otherwise the index code point for
            //    pointer in index Big5.
            let code_point = pointer.and_then(|pointer| index_code_point(pointer, IndexName::Big5));
            // 8. If codePoint is non-null, then return a code point whose value is codePoint.
            if let Some(code_point) = code_point {
                return HandlerResult::Items(vec![code_point]);
            }
            // 9. If byte is an ASCII byte, restore byte to ioQueue.
            if byte <= 0x7F {
                io_queue.restore(byte);
            }
            // 10. Return error.
            return HandlerResult::Error(None);
        }
        // 4. If byte is an ASCII byte, then return a code point whose value is byte.
        if byte <= 0x7F {
            return HandlerResult::Items(vec![scalar_value(u32::from(byte), "Big5 decoder, step 4")]);
        }
        // 5. If byte is in the range 0x81 to 0xFE, inclusive, then set Big5 leading to byte
        //    and return continue.
        if (0x81..=0xFE).contains(&byte) {
            self.big5_leading = byte;
            return HandlerResult::Continue;
        }
        // 6. Return error.
        HandlerResult::Error(None)
    }
}

/// An instance of Big5's encoder (it has no state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Big5Encoder;

impl Big5Encoder {
    /// Big5's encoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#big5-encoder>
    pub(super) fn handler(
        &mut self,
        _unused: &mut IoQueue<char>,
        code_point: Item<char>,
    ) -> HandlerResult<u8> {
        // 1. If codePoint is end-of-queue, then return finished.
        let Item::Value(code_point) = code_point else {
            return HandlerResult::Finished;
        };
        // 2. If codePoint is an ASCII code point, then return a byte whose value is codePoint.
        if code_point.is_ascii() {
            return HandlerResult::Items(vec![byte(u32::from(code_point))]);
        }
        // 3. Let pointer be the index Big5 pointer for codePoint.
        let pointer = index_big5_pointer(code_point);
        // 4. If pointer is null, then return error with codePoint.
        let Some(pointer) = pointer else {
            return HandlerResult::Error(Some(code_point));
        };
        // 5. Let leading be pointer / 157 + 0x81.
        let leading = pointer / 157 + 0x81;
        // 6. Let trailing be pointer % 157.
        let trailing = pointer % 157;
        // 7. Let offset be 0x40 if trailing is less than 0x3F, otherwise 0x62.
        let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
        // 8. Return two bytes whose values are leading and trailing + offset.
        HandlerResult::Items(vec![byte(leading), byte(trailing + offset)])
    }
}
