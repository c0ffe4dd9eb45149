//! The standard's section "x-user-defined": its decoder and encoder.
//!
//! <https://encoding.spec.whatwg.org/#x-user-defined>

use super::{HandlerResult, IoQueue, Item, byte, scalar_value};

/// An instance of x-user-defined's decoder (it has no state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct XUserDefinedDecoder;

impl XUserDefinedDecoder {
    /// x-user-defined's decoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#x-user-defined-decoder>
    pub(super) fn handler(&mut self, _unused: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue, then return finished.
        let Item::Value(byte) = byte else {
            return HandlerResult::Finished;
        };
        // 2. If byte is an ASCII byte, then return a code point whose value is byte.
        if byte <= 0x7F {
            return HandlerResult::Items(vec![scalar_value(
                u32::from(byte),
                "x-user-defined decoder, step 2",
            )]);
        }
        // 3. Return a code point whose value is 0xF780 + byte − 0x80.
        HandlerResult::Items(vec![scalar_value(
            0xF780 + u32::from(byte) - 0x80,
            "x-user-defined decoder, step 3",
        )])
    }
}

/// An instance of x-user-defined's encoder (it has no state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct XUserDefinedEncoder;

impl XUserDefinedEncoder {
    /// x-user-defined's encoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#x-user-defined-encoder>
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
        // 3. If codePoint is in the range U+F780 to U+F7FF, inclusive, then return a byte whose
        //    value is codePoint − 0xF780 + 0x80.
        if ('\u{F780}'..='\u{F7FF}').contains(&code_point) {
            return HandlerResult::Items(vec![byte(u32::from(code_point) - 0xF780 + 0x80)]);
        }
        // 4. Return error with codePoint.
        HandlerResult::Error(Some(code_point))
    }
}
