//! The standard's section "UTF-8": the UTF-8 decoder and encoder.
//!
//! <https://encoding.spec.whatwg.org/#utf-8>

use super::{HandlerResult, IoQueue, Item, byte, scalar_value};

/// An instance of UTF-8's decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Utf8Decoder {
    /// UTF-8 code point, initially 0.
    utf_8_code_point: u32,
    /// UTF-8 bytes seen, initially 0.
    utf_8_bytes_seen: u32,
    /// UTF-8 bytes needed, initially 0.
    utf_8_bytes_needed: u32,
    /// UTF-8 lower boundary, initially 0x80.
    utf_8_lower_boundary: u8,
    /// UTF-8 upper boundary, initially 0xBF.
    utf_8_upper_boundary: u8,
}

impl Utf8Decoder {
    pub(super) fn new() -> Utf8Decoder {
        Utf8Decoder {
            utf_8_code_point: 0,
            utf_8_bytes_seen: 0,
            utf_8_bytes_needed: 0,
            utf_8_lower_boundary: 0x80,
            utf_8_upper_boundary: 0xBF,
        }
    }

    /// UTF-8's decoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#utf-8-decoder>
    pub(super) fn handler(&mut self, io_queue: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue and UTF-8 bytes needed is not 0, then set UTF-8 bytes
        //    needed to 0 and return error.
        if byte == Item::EndOfQueue && self.utf_8_bytes_needed != 0 {
            self.utf_8_bytes_needed = 0;
            return HandlerResult::Error(None);
        }
        // 2. If byte is end-of-queue, then return finished.
        let Item::Value(byte) = byte else {
            return HandlerResult::Finished;
        };
        // 3. If UTF-8 bytes needed is 0, based on byte:
        if self.utf_8_bytes_needed == 0 {
            match byte {
                // 0x00 to 0x7F: Return a code point whose value is byte.
                0x00..=0x7F => {
                    return HandlerResult::Items(vec![scalar_value(
                        u32::from(byte),
                        "UTF-8 decoder, step 3",
                    )]);
                }
                // 0xC2 to 0xDF:
                0xC2..=0xDF => {
                    // 1. Set UTF-8 bytes needed to 1.
                    self.utf_8_bytes_needed = 1;
                    // 2. Set UTF-8 code point to byte & 0x1F.
                    self.utf_8_code_point = u32::from(byte) & 0x1F;
                }
                // 0xE0 to 0xEF:
                0xE0..=0xEF => {
                    // 1. If byte is 0xE0, then set UTF-8 lower boundary to 0xA0.
                    if byte == 0xE0 {
                        self.utf_8_lower_boundary = 0xA0;
                    }
                    // 2. If byte is 0xED, then set UTF-8 upper boundary to 0x9F.
                    if byte == 0xED {
                        self.utf_8_upper_boundary = 0x9F;
                    }
                    // 3. Set UTF-8 bytes needed to 2.
                    self.utf_8_bytes_needed = 2;
                    // 4. Set UTF-8 code point to byte & 0xF.
                    self.utf_8_code_point = u32::from(byte) & 0xF;
                }
                // 0xF0 to 0xF4:
                0xF0..=0xF4 => {
                    // 1. If byte is 0xF0, then set UTF-8 lower boundary to 0x90.
                    if byte == 0xF0 {
                        self.utf_8_lower_boundary = 0x90;
                    }
                    // 2. If byte is 0xF4, then set UTF-8 upper boundary to 0x8F.
                    if byte == 0xF4 {
                        self.utf_8_upper_boundary = 0x8F;
                    }
                    // 3. Set UTF-8 bytes needed to 3.
                    self.utf_8_bytes_needed = 3;
                    // 4. Set UTF-8 code point to byte & 0x7.
                    self.utf_8_code_point = u32::from(byte) & 0x7;
                }
                // Otherwise: Return error.
                _ => return HandlerResult::Error(None),
            }
            // Return continue.
            return HandlerResult::Continue;
        }
        // 4. If byte is not in the range UTF-8 lower boundary to UTF-8 upper boundary,
        //    inclusive:
        if !(self.utf_8_lower_boundary..=self.utf_8_upper_boundary).contains(&byte) {
            // 1. Set UTF-8 code point, UTF-8 bytes needed, and UTF-8 bytes seen to 0, set
            //    UTF-8 lower boundary to 0x80, and set UTF-8 upper boundary to 0xBF.
            self.utf_8_code_point = 0;
            self.utf_8_bytes_needed = 0;
            self.utf_8_bytes_seen = 0;
            self.utf_8_lower_boundary = 0x80;
            self.utf_8_upper_boundary = 0xBF;
            // 2. Restore byte to ioQueue.
            io_queue.restore(byte);
            // 3. Return error.
            return HandlerResult::Error(None);
        }
        // 5. Set UTF-8 lower boundary to 0x80 and UTF-8 upper boundary to 0xBF.
        self.utf_8_lower_boundary = 0x80;
        self.utf_8_upper_boundary = 0xBF;
        // 6. Set UTF-8 code point to (UTF-8 code point << 6) | (byte & 0x3F)
        self.utf_8_code_point = (self.utf_8_code_point << 6) | (u32::from(byte) & 0x3F);
        // 7. Increase UTF-8 bytes seen by one.
        self.utf_8_bytes_seen += 1;
        // 8. If UTF-8 bytes seen is not equal to UTF-8 bytes needed, then return continue.
        if self.utf_8_bytes_seen != self.utf_8_bytes_needed {
            return HandlerResult::Continue;
        }
        // 9. Let codePoint be UTF-8 code point.
        let code_point = self.utf_8_code_point;
        // 10. Set UTF-8 code point, UTF-8 bytes needed, and UTF-8 bytes seen to 0.
        self.utf_8_code_point = 0;
        self.utf_8_bytes_needed = 0;
        self.utf_8_bytes_seen = 0;
        // 11. Return a code point whose value is codePoint.
        HandlerResult::Items(vec![scalar_value(code_point, "UTF-8 decoder, step 11")])
    }
}

/// An instance of UTF-8's encoder (it has no state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Utf8Encoder;

impl Utf8Encoder {
    /// UTF-8's encoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#utf-8-encoder>
    pub(super) fn handler(
        &mut self,
        _unused: &mut IoQueue<char>,
        code_point: Item<char>,
    ) -> HandlerResult<u8> {
        // 1. If codePoint is end-of-queue, then return finished.
        let Item::Value(code_point) = code_point else {
            return HandlerResult::Finished;
        };
        let code_point = u32::from(code_point);
        // 2. If codePoint is an ASCII code point, then return a byte whose value is codePoint.
        if code_point <= 0x7F {
            return HandlerResult::Items(vec![byte(code_point)]);
        }
        // 3. Set count and offset based on the range codePoint is in:
        let (mut count, offset) = match code_point {
            // U+0080 to U+07FF, inclusive: 1 and 0xC0
            0x0080..=0x07FF => (1, 0xC0),
            // U+0800 to U+FFFF, inclusive: 2 and 0xE0
            0x0800..=0xFFFF => (2, 0xE0),
            // U+10000 to U+10FFFF, inclusive: 3 and 0xF0
            0x10000..=0x10FFFF => (3, 0xF0),
            _ => unreachable!("a char is at most U+10FFFF"),
        };
        // 4. Let bytes be a byte sequence whose first byte is (codePoint >> (6 × count)) +
        //    offset.
        let mut bytes = vec![byte((code_point >> (6 * count)) + offset)];
        // 5. While count is greater than 0:
        while count > 0 {
            // 1. Set temp to codePoint >> (6 × (count − 1)).
            let temp = code_point >> (6 * (count - 1));
            // 2. Append to bytes 0x80 | (temp & 0x3F).
            bytes.push(byte(0x80 | (temp & 0x3F)));
            // 3. Decrease count by one.
            count -= 1;
        }
        // 6. Return bytes bytes, in order.
        HandlerResult::Items(bytes)
    }
}
