//! The standard's section "EUC-JP": the EUC-JP decoder (JIS X 0208 and JIS X 0212) and
//! encoder (JIS X 0208 only).
//!
//! <https://encoding.spec.whatwg.org/#euc-jp>

use super::index::{IndexName, index_code_point, index_pointer};
use super::{HandlerResult, IoQueue, Item, byte, scalar_value};

/// An instance of EUC-JP's decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EucJpDecoder {
    /// EUC-JP jis0212, initially false.
    euc_jp_jis0212: bool,
    /// EUC-JP leading, initially 0x00.
    euc_jp_leading: u8,
}

impl EucJpDecoder {
    pub(super) fn new() -> EucJpDecoder {
        EucJpDecoder {
            euc_jp_jis0212: false,
            euc_jp_leading: 0x00,
        }
    }

    /// EUC-JP's decoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#euc-jp-decoder>
    pub(super) fn handler(&mut self, io_queue: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue and EUC-JP leading is not 0x00, then set EUC-JP leading
        //    to 0x00 and return error.
        if byte == Item::EndOfQueue && self.euc_jp_leading != 0x00 {
            self.euc_jp_leading = 0x00;
            return HandlerResult::Error(None);
        }
        // 2. If byte is end-of-queue and EUC-JP leading is 0x00, then return finished.
        let Item::Value(byte) = byte else {
            return HandlerResult::Finished;
        };
        // 3. If EUC-JP leading is 0x8E and byte is in the range 0xA1 to 0xDF, inclusive, then
        //    set EUC-JP leading to 0x00 and return a code point whose value is
        //    0xFF61 − 0xA1 + byte.
        if self.euc_jp_leading == 0x8E && (0xA1..=0xDF).contains(&byte) {
            self.euc_jp_leading = 0x00;
            return HandlerResult::Items(vec![scalar_value(
                0xFF61 - 0xA1 + u32::from(byte),
                "EUC-JP decoder, step 3",
            )]);
        }
        // 4. If EUC-JP leading is 0x8F and byte is in the range 0xA1 to 0xFE, inclusive, then
        //    set EUC-JP jis0212 to true, set EUC-JP leading to byte, and return continue.
        if self.euc_jp_leading == 0x8F && (0xA1..=0xFE).contains(&byte) {
            self.euc_jp_jis0212 = true;
            self.euc_jp_leading = byte;
            return HandlerResult::Continue;
        }
        // 5. If EUC-JP leading is not 0x00:
        if self.euc_jp_leading != 0x00 {
            // 1. Let leading be EUC-JP leading.
            let leading = self.euc_jp_leading;
            // 2. Set EUC-JP leading to 0x00.
            self.euc_jp_leading = 0x00;
            // 3. Let codePoint be null.
            let mut code_point = None;
            // 4. If leading and byte are both in the range 0xA1 to 0xFE, inclusive, then set
            //    codePoint to the index code point for (leading − 0xA1) × 94 + byte − 0xA1 in
            //    index jis0208 if EUC-JP jis0212 is false and in index jis0212 otherwise.
            if (0xA1..=0xFE).contains(&leading) && (0xA1..=0xFE).contains(&byte) {
                code_point = index_code_point(
                    (u32::from(leading) - 0xA1) * 94 + u32::from(byte) - 0xA1,
                    if self.euc_jp_jis0212 {
                        IndexName::Jis0212
                    } else {
                        IndexName::Jis0208
                    },
                );
            }
            // 5. Set EUC-JP jis0212 to false.
            self.euc_jp_jis0212 = false;
            // 6. If codePoint is non-null, then return a code point whose value is codePoint.
            if let Some(code_point) = code_point {
                return HandlerResult::Items(vec![code_point]);
            }
            // 7. If byte is an ASCII byte, then restore byte to ioQueue.
            if byte <= 0x7F {
                io_queue.restore(byte);
            }
            // 8. Return error.
            return HandlerResult::Error(None);
        }
        // 6. If byte is an ASCII byte, then return a code point whose value is byte.
        if byte <= 0x7F {
            return HandlerResult::Items(vec![scalar_value(u32::from(byte), "EUC-JP decoder, step 6")]);
        }
        // 7. If byte is 0x8E, 0x8F, or in the range 0xA1 to 0xFE, inclusive, then set EUC-JP
        //    leading to byte and return continue.
        if byte == 0x8E || byte == 0x8F || (0xA1..=0xFE).contains(&byte) {
            self.euc_jp_leading = byte;
            return HandlerResult::Continue;
        }
        // 8. Return error.
        HandlerResult::Error(None)
    }
}

/// An instance of EUC-JP's encoder (it has no state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EucJpEncoder;

impl EucJpEncoder {
    /// EUC-JP's encoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#euc-jp-encoder>
    pub(super) fn handler(
        &mut self,
        _unused: &mut IoQueue<char>,
        code_point: Item<char>,
    ) -> HandlerResult<u8> {
        // 1. If codePoint is end-of-queue, then return finished.
        let Item::Value(mut code_point) = code_point else {
            return HandlerResult::Finished;
        };
        // 2. If codePoint is an ASCII code point, then return a byte whose value is codePoint.
        if code_point.is_ascii() {
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
        // 5. If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive, then return two
        //    bytes whose values are 0x8E and codePoint − 0xFF61 + 0xA1.
        if ('\u{FF61}'..='\u{FF9F}').contains(&code_point) {
            return HandlerResult::Items(vec![0x8E, byte(u32::from(code_point) - 0xFF61 + 0xA1)]);
        }
        // 6. If codePoint is U+2212 (−), then set it to U+FF0D (－).
        if code_point == '\u{2212}' {
            code_point = '\u{FF0D}';
        }
        // 7. Let pointer be the index pointer for codePoint in index jis0208.
        let pointer = index_pointer(code_point, IndexName::Jis0208);
        // 8. If pointer is null, then return error with codePoint.
        let Some(pointer) = pointer else {
            return HandlerResult::Error(Some(code_point));
        };
        // 9. Let leading be pointer / 94 + 0xA1.
        let leading = pointer / 94 + 0xA1;
        // 10. Let trailing be pointer % 94 + 0xA1.
        let trailing = pointer % 94 + 0xA1;
        // 11. Return two bytes whose values are leading and trailing.
        HandlerResult::Items(vec![byte(leading), byte(trailing)])
    }
}
