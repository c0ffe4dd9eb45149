//! The standard's section "Legacy single-byte encodings": the single-byte decoder and
//! encoder, shared by the 28 single-byte encodings, each with its index single-byte.
//!
//! <https://encoding.spec.whatwg.org/#legacy-single-byte-encodings>

use super::index::{IndexName, index_code_point, index_pointer};
use super::{HandlerResult, IoQueue, Item, byte, scalar_value};
use crate::Encoding;

/// An instance of a single-byte encoding's decoder: no state, just which index single-byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SingleByteDecoder {
    index_single_byte: IndexName,
}

impl SingleByteDecoder {
    pub(super) fn new(encoding: &'static Encoding) -> SingleByteDecoder {
        SingleByteDecoder {
            index_single_byte: IndexName::SingleByte(encoding),
        }
    }

    /// Single-byte encodings's decoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#single-byte-decoder>
    pub(super) fn handler(&mut self, _unused: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue, then return finished.
        let Item::Value(byte) = byte else {
            return HandlerResult::Finished;
        };
        // 2. If byte is an ASCII byte, then return a code point whose value is byte.
        if byte <= 0x7F {
            return HandlerResult::Items(vec![scalar_value(u32::from(byte), "single-byte decoder, step 2")]);
        }
        // 3. Let codePoint be the index code point for byte − 0x80 in index single-byte.
        let code_point = index_code_point(u32::from(byte) - 0x80, self.index_single_byte);
        // 4. If codePoint is null, then return error.
        let Some(code_point) = code_point else {
            return HandlerResult::Error(None);
        };
        // 5. Return a code point whose value is codePoint.
        HandlerResult::Items(vec![code_point])
    }
}

/// An instance of a single-byte encoding's encoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SingleByteEncoder {
    index_single_byte: IndexName,
}

impl SingleByteEncoder {
    pub(super) fn new(encoding: &'static Encoding) -> SingleByteEncoder {
        SingleByteEncoder {
            index_single_byte: IndexName::SingleByte(encoding),
        }
    }

    /// Single-byte encodings's encoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#single-byte-encoder>
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
        // 3. Let pointer be the index pointer for codePoint in index single-byte.
        let pointer = index_pointer(code_point, self.index_single_byte);
        // 4. If pointer is null, then return error with codePoint.
        let Some(pointer) = pointer else {
            return HandlerResult::Error(Some(code_point));
        };
        // 5. Return a byte whose value is pointer + 0x80.
        HandlerResult::Items(vec![byte(pointer + 0x80)])
    }
}
