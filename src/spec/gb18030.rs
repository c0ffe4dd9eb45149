//! The standard's sections "GBK" and "gb18030": gb18030's decoder (also GBK's decoder) and
//! gb18030's encoder (GBK's encoder is the same with "is GBK" set to true).
//!
//! <https://encoding.spec.whatwg.org/#legacy-multi-byte-chinese-(simplified)-encodings>

use super::index::{
    IndexName, index_code_point, index_gb18030_ranges_code_point, index_gb18030_ranges_pointer, index_pointer,
};
use super::{HandlerResult, IoQueue, Item, byte, scalar_value};

/// An instance of gb18030's decoder, which is also GBK's decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Gb18030Decoder {
    /// gb18030 first, initially 0x00.
    gb18030_first: u8,
    /// gb18030 second, initially 0x00.
    gb18030_second: u8,
    /// gb18030 third, initially 0x00.
    gb18030_third: u8,
}

impl Gb18030Decoder {
    pub(super) fn new() -> Gb18030Decoder {
        Gb18030Decoder {
            gb18030_first: 0x00,
            gb18030_second: 0x00,
            gb18030_third: 0x00,
        }
    }

    /// gb18030's decoder's handler (GBK's decoder is gb18030's decoder).
    ///
    /// <https://encoding.spec.whatwg.org/#gb18030-decoder>,
    /// <https://encoding.spec.whatwg.org/#gbk-decoder>
    pub(super) fn handler(&mut self, io_queue: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue and gb18030 first, gb18030 second, and gb18030 third are
        //    0x00, then return finished.
        if byte == Item::EndOfQueue
            && self.gb18030_first == 0x00
            && self.gb18030_second == 0x00
            && self.gb18030_third == 0x00
        {
            return HandlerResult::Finished;
        }
        // 2. If byte is end-of-queue, and gb18030 first, gb18030 second, or gb18030 third is
        //    not 0x00, then set gb18030 first, gb18030 second, and gb18030 third to 0x00, and
        //    return error.
        let Item::Value(byte) = byte else {
            self.gb18030_first = 0x00;
            self.gb18030_second = 0x00;
            self.gb18030_third = 0x00;
            return HandlerResult::Error(None);
        };
        // 3. If gb18030 third is not 0x00:
        if self.gb18030_third != 0x00 {
            // 1. If byte is not in the range 0x30 to 0x39, inclusive:
            if !(0x30..=0x39).contains(&byte) {
                // 1. Restore « gb18030 second, gb18030 third, byte » to ioQueue.
                io_queue.restore_list(&[self.gb18030_second, self.gb18030_third, byte]);
                // 2. Set gb18030 first, gb18030 second, and gb18030 third to 0x00.
                self.gb18030_first = 0x00;
                self.gb18030_second = 0x00;
                self.gb18030_third = 0x00;
                // 3. Return error.
                return HandlerResult::Error(None);
            }
            // 2. Let codePoint be the index gb18030 ranges code point for
            //    ((gb18030 first − 0x81) × (10 × 126 × 10)) +
            //    ((gb18030 second − 0x30) × (10 × 126)) +
            //    ((gb18030 third − 0x81) × 10) + byte − 0x30.
            let code_point = index_gb18030_ranges_code_point(
                ((u32::from(self.gb18030_first) - 0x81) * (10 * 126 * 10))
                    + ((u32::from(self.gb18030_second) - 0x30) * (10 * 126))
                    + ((u32::from(self.gb18030_third) - 0x81) * 10)
                    + u32::from(byte)
                    - 0x30,
            );
            // 3. Set gb18030 first, gb18030 second, and gb18030 third to 0x00.
            self.gb18030_first = 0x00;
            self.gb18030_second = 0x00;
            self.gb18030_third = 0x00;
            // 4. If codePoint is null, then return error.
            let Some(code_point) = code_point else {
                return HandlerResult::Error(None);
            };
            // 5. Return a code point whose value is codePoint.
            return HandlerResult::Items(vec![code_point]);
        }
        // 4. If gb18030 second is not 0x00:
        if self.gb18030_second != 0x00 {
            // 1. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 third to
            //    byte and return continue.
            if (0x81..=0xFE).contains(&byte) {
                self.gb18030_third = byte;
                return HandlerResult::Continue;
            }
            // 2. Restore « gb18030 second, byte » to ioQueue, set gb18030 first and gb18030
            //    second to 0x00, and return error.
            io_queue.restore_list(&[self.gb18030_second, byte]);
            self.gb18030_first = 0x00;
            self.gb18030_second = 0x00;
            return HandlerResult::Error(None);
        }
        // 5. If gb18030 first is not 0x00:
        if self.gb18030_first != 0x00 {
            // 1. If byte is in the range 0x30 to 0x39, inclusive, then set gb18030 second to
            //    byte and return continue.
            if (0x30..=0x39).contains(&byte) {
                self.gb18030_second = byte;
                return HandlerResult::Continue;
            }
            // 2. Let leading be gb18030 first.
            let leading = u32::from(self.gb18030_first);
            // 3. Set gb18030 first to 0x00.
            self.gb18030_first = 0x00;
            // 4. Let pointer be null.
            let mut pointer = None;
            // 5. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x41.
            let offset = if byte < 0x7F { 0x40 } else { 0x41 };
            // 6. If byte is in the range 0x40 to 0x7E, inclusive, or 0x80 to 0xFE, inclusive,
            //    then set pointer to (leading − 0x81) × 190 + (byte − offset).
            if (0x40..=0x7E).contains(&byte) || (0x80..=0xFE).contains(&byte) {
                pointer = Some((leading - 0x81) * 190 + (u32::from(byte) - offset));
            }
            // 7. Let codePoint be null if pointer is null; otherwise the index code point for
            //    pointer in index gb18030.
            let code_point = pointer.and_then(|pointer| index_code_point(pointer, IndexName::Gb18030));
            // 8. If codePoint is non-null, then return a code point whose value is codePoint.
            if let Some(code_point) = code_point {
                return HandlerResult::Items(vec![code_point]);
            }
            // 9. If byte is an ASCII byte, then restore byte to ioQueue.
            if byte <= 0x7F {
                io_queue.restore(byte);
            }
            // 10. Return error.
            return HandlerResult::Error(None);
        }
        // 6. If byte is an ASCII byte, then return a code point whose value is byte.
        if byte <= 0x7F {
            return HandlerResult::Items(vec![scalar_value(u32::from(byte), "gb18030 decoder, step 6")]);
        }
        // 7. If byte is 0x80, then return code point U+20AC (€).
        if byte == 0x80 {
            return HandlerResult::Items(vec!['\u{20AC}']);
        }
        // 8. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 first to byte
        //    and return continue.
        if (0x81..=0xFE).contains(&byte) {
            self.gb18030_first = byte;
            return HandlerResult::Continue;
        }
        // 9. Return error.
        HandlerResult::Error(None)
    }
}

/// The table of gb18030's encoder's step 5: code point and the two bytes it encodes to.
pub(super) const GB18030_ENCODER_TABLE: [(char, [u8; 2]); 18] = [
    ('\u{E78D}', [0xA6, 0xD9]),
    ('\u{E78E}', [0xA6, 0xDA]),
    ('\u{E78F}', [0xA6, 0xDB]),
    ('\u{E790}', [0xA6, 0xDC]),
    ('\u{E791}', [0xA6, 0xDD]),
    ('\u{E792}', [0xA6, 0xDE]),
    ('\u{E793}', [0xA6, 0xDF]),
    ('\u{E794}', [0xA6, 0xEC]),
    ('\u{E795}', [0xA6, 0xED]),
    ('\u{E796}', [0xA6, 0xF3]),
    ('\u{E81E}', [0xFE, 0x59]),
    ('\u{E826}', [0xFE, 0x61]),
    ('\u{E82B}', [0xFE, 0x66]),
    ('\u{E82C}', [0xFE, 0x67]),
    ('\u{E832}', [0xFE, 0x6D]),
    ('\u{E843}', [0xFE, 0x7E]),
    ('\u{E854}', [0xFE, 0x90]),
    ('\u{E864}', [0xFE, 0xA0]),
];

/// An instance of gb18030's encoder, or of GBK's (is GBK set to true).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Gb18030Encoder {
    /// is GBK, initially false.
    is_gbk: bool,
}

impl Gb18030Encoder {
    pub(super) fn new(is_gbk: bool) -> Gb18030Encoder {
        Gb18030Encoder { is_gbk }
    }

    /// gb18030's encoder's handler (GBK's encoder is gb18030's encoder with is GBK set to
    /// true).
    ///
    /// <https://encoding.spec.whatwg.org/#gb18030-encoder>,
    /// <https://encoding.spec.whatwg.org/#gbk-encoder>
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
        // 3. If codePoint is U+E5E5, then return error with codePoint.
        if code_point == '\u{E5E5}' {
            return HandlerResult::Error(Some(code_point));
        }
        // 4. If is GBK is true and codePoint is U+20AC (€), then return byte 0x80.
        if self.is_gbk && code_point == '\u{20AC}' {
            return HandlerResult::Items(vec![0x80]);
        }
        // 5. If there is a row in the table below whose first column is codePoint, then return
        //    the two bytes on the same row listed in the second column.
        if let Some((_, bytes)) = GB18030_ENCODER_TABLE.iter().find(|&&(row, _)| row == code_point) {
            return HandlerResult::Items(bytes.to_vec());
        }
        // 6. Let pointer be the index pointer for codePoint in index gb18030.
        let pointer = index_pointer(code_point, IndexName::Gb18030);
        // 7. If pointer is non-null:
        if let Some(pointer) = pointer {
            // 1. Let leading be pointer / 190 + 0x81.
            let leading = pointer / 190 + 0x81;
            // 2. Let trailing be pointer % 190.
            let trailing = pointer % 190;
            // 3. Let offset be 0x40 if trailing is less than 0x3F, otherwise 0x41.
            let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
            // 4. Return two bytes whose values are leading and trailing + offset.
            return HandlerResult::Items(vec![byte(leading), byte(trailing + offset)]);
        }
        // 8. If is GBK is true, then return error with codePoint.
        if self.is_gbk {
            return HandlerResult::Error(Some(code_point));
        }
        // 9. Set pointer to the index gb18030 ranges pointer for codePoint.
        let mut pointer = index_gb18030_ranges_pointer(code_point);
        // 10. Let byte1 be pointer / (10 × 126 × 10).
        let byte1 = pointer / (10 * 126 * 10);
        // 11. Set pointer to pointer % (10 × 126 × 10).
        pointer %= 10 * 126 * 10;
        // 12. Let byte2 be pointer / (10 × 126).
        let byte2 = pointer / (10 * 126);
        // 13. Set pointer to pointer % (10 × 126).
        pointer %= 10 * 126;
        // 14. Let byte3 be pointer / 10.
        let byte3 = pointer / 10;
        // 15. Let byte4 be pointer % 10.
        let byte4 = pointer % 10;
        // 16. Return four bytes whose values are byte1 + 0x81, byte2 + 0x30, byte3 + 0x81,
        //     byte4 + 0x30.
        HandlerResult::Items(vec![
            byte(byte1 + 0x81),
            byte(byte2 + 0x30),
            byte(byte3 + 0x81),
            byte(byte4 + 0x30),
        ])
    }
}
