//! The standard's section "EUC-KR": the EUC-KR decoder and encoder.
//!
//! <https://encoding.spec.whatwg.org/#euc-kr>

use super::index::{IndexName, index_code_point, index_pointer};
use super::{HandlerResult, IoQueue, Item, byte, scalar_value};

/// An instance of EUC-KR's decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EucKrDecoder {
    /// EUC-KR leading, initially 0x00.
    euc_kr_leading: u8,
}

impl EucKrDecoder {
    pub(super) fn new() -> EucKrDecoder {
        EucKrDecoder { euc_kr_leading: 0x00 }
    }

    /// EUC-KR's decoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#euc-kr-decoder>
    pub(super) fn handler(&mut self, io_queue: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue and EUC-KR leading is not 0x00, then set EUC-KR leading
        //    to 0x00 and return error.
        if byte == Item::EndOfQueue && self.euc_kr_leading != 0x00 {
            self.euc_kr_leading = 0x00;
            return HandlerResult::Error(None);
        }
        // 2. If byte is end-of-queue and EUC-KR leading is 0x00, then return finished.
        let Item::Value(byte) = byte else {
            return HandlerResult::Finished;
        };
        // 3. If EUC-KR leading is not 0x00:
        if self.euc_kr_leading != 0x00 {
            // 1. Let leading be EUC-KR leading.
            let leading = u32::from(self.euc_kr_leading);
            // 2. Set EUC-KR leading to 0x00.
            self.euc_kr_leading = 0x00;
            // 3. Let pointer be null.
            let mut pointer = None;
            // 4. If byte is in the range 0x41 to 0xFE, inclusive, then set pointer to
            //    (leading − 0x81) × 190 + (byte − 0x41).
            if (0x41..=0xFE).contains(&byte) {
                pointer = Some((leading - 0x81) * 190 + (u32::from(byte) - 0x41));
            }
            // 5. Let codePoint be null if pointer is null; otherwise the index code point for
            //    pointer in index EUC-KR.
            let code_point = pointer.and_then(|pointer| index_code_point(pointer, IndexName::EucKr));
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
        // 4. If byte is an ASCII byte, then return a code point whose value is byte.
        if byte <= 0x7F {
            return HandlerResult::Items(vec![scalar_value(u32::from(byte), "EUC-KR decoder, step 4")]);
        }
        // 5. If byte is in the range 0x81 to 0xFE, inclusive, then set EUC-KR leading to byte
        //    and return continue.
        if (0x81..=0xFE).contains(&byte) {
            self.euc_kr_leading = byte;
            return HandlerResult::Continue;
        }
        // 6. Return error.
        HandlerResult::Error(None)
    }
}

/// An instance of EUC-KR's encoder (it has no state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EucKrEncoder;

impl EucKrEncoder {
    /// EUC-KR's encoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#euc-kr-encoder>
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
        // 3. Let pointer be the index pointer for codePoint in index EUC-KR.
        let pointer = index_pointer(code_point, IndexName::EucKr);
        // 4. If pointer is null, then return error with codePoint.
        let Some(pointer) = pointer else {
            return HandlerResult::Error(Some(code_point));
        };
        // 5. Let leading be pointer / 190 + 0x81.
        let leading = pointer / 190 + 0x81;
        // 6. Let trailing be pointer % 190 + 0x41.
        let trailing = pointer % 190 + 0x41;
        // 7. Return two bytes whose values are leading and trailing.
        HandlerResult::Items(vec![byte(leading), byte(trailing)])
    }
}
