//! The standard's sections "Common infrastructure for UTF-16BE/LE", "UTF-16BE" and
//! "UTF-16LE": the shared UTF-16 decoder (the encodings have no encoder).
//!
//! <https://encoding.spec.whatwg.org/#common-infrastructure-for-utf-16be-and-utf-16le>

use super::{HandlerResult, IoQueue, Item, scalar_value};

/// An instance of the shared UTF-16 decoder: UTF-16BE's decoder with is UTF-16BE decoder set
/// to true, UTF-16LE's with it false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Utf16Decoder {
    /// UTF-16 leading byte: null or a byte, initially null.
    utf_16_leading_byte: Option<u8>,
    /// UTF-16 leading surrogate: null or a leading surrogate, initially null.
    utf_16_leading_surrogate: Option<u32>,
    /// is UTF-16BE decoder, initially false.
    is_utf_16be_decoder: bool,
}

/// Whether `code_unit` is a leading surrogate (U+D800 to U+DBFF, Infra).
fn is_leading_surrogate(code_unit: u32) -> bool {
    (0xD800..=0xDBFF).contains(&code_unit)
}

/// Whether `code_unit` is a trailing surrogate (U+DC00 to U+DFFF, Infra).
fn is_trailing_surrogate(code_unit: u32) -> bool {
    (0xDC00..=0xDFFF).contains(&code_unit)
}

/// "Scalar value from surrogates": 0x10000 + ((leading − 0xD800) << 10) + (trailing − 0xDC00).
///
/// <https://encoding.spec.whatwg.org/#scalar-value-from-surrogates>
fn scalar_value_from_surrogates(leading: u32, trailing: u32) -> u32 {
    0x10000 + ((leading - 0xD800) << 10) + (trailing - 0xDC00)
}

impl Utf16Decoder {
    /// UTF-16BE's decoder (`is_utf_16be_decoder`) or UTF-16LE's.
    ///
    /// <https://encoding.spec.whatwg.org/#utf-16be-decoder>,
    /// <https://encoding.spec.whatwg.org/#utf-16le-decoder>
    pub(super) fn new(is_utf_16be_decoder: bool) -> Utf16Decoder {
        Utf16Decoder {
            utf_16_leading_byte: None,
            utf_16_leading_surrogate: None,
            is_utf_16be_decoder,
        }
    }

    /// The shared UTF-16 decoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#shared-utf-16-decoder>
    pub(super) fn handler(&mut self, io_queue: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue and either UTF-16 leading byte or UTF-16 leading surrogate
        //    is non-null, then set UTF-16 leading byte and UTF-16 leading surrogate to null, and
        //    return error.
        if byte == Item::EndOfQueue
            && (self.utf_16_leading_byte.is_some() || self.utf_16_leading_surrogate.is_some())
        {
            self.utf_16_leading_byte = None;
            self.utf_16_leading_surrogate = None;
            return HandlerResult::Error(None);
        }
        // 2. If byte is end-of-queue and UTF-16 leading byte and UTF-16 leading surrogate are
        //    null, then return finished.
        let Item::Value(byte) = byte else {
            return HandlerResult::Finished;
        };
        // 3. If UTF-16 leading byte is null, then set UTF-16 leading byte to byte and return
        //    continue.
        let Some(utf_16_leading_byte) = self.utf_16_leading_byte else {
            self.utf_16_leading_byte = Some(byte);
            return HandlerResult::Continue;
        };
        // 4. Let codeUnit be the result of:
        let code_unit = if self.is_utf_16be_decoder {
            // is UTF-16BE decoder is true: (UTF-16 leading byte << 8) + byte.
            (u32::from(utf_16_leading_byte) << 8) + u32::from(byte)
        } else {
            // is UTF-16BE decoder is false: (byte << 8) + UTF-16 leading byte.
            (u32::from(byte) << 8) + u32::from(utf_16_leading_byte)
        };
        // 5. Set UTF-16 leading byte to null.
        self.utf_16_leading_byte = None;
        // 6. If UTF-16 leading surrogate is non-null:
        if let Some(leading_surrogate) = self.utf_16_leading_surrogate {
            // 1. Let leadingSurrogate be UTF-16 leading surrogate.
            // 2. Set UTF-16 leading surrogate to null.
            self.utf_16_leading_surrogate = None;
            // 3. If codeUnit is a trailing surrogate, then return a scalar value from
            //    surrogates given leadingSurrogate and codeUnit.
            if is_trailing_surrogate(code_unit) {
                return HandlerResult::Items(vec![scalar_value(
                    scalar_value_from_surrogates(leading_surrogate, code_unit),
                    "shared UTF-16 decoder, step 6.3",
                )]);
            }
            // 4. Let byte1 be codeUnit >> 8.
            let byte1 = u8::try_from(code_unit >> 8).expect("a code unit has 16 bits");
            // 5. Let byte2 be codeUnit & 0x00FF.
            let byte2 = u8::try_from(code_unit & 0x00FF).expect("masked to 8 bits");
            // 6. Let bytes be a list of two bytes whose values are byte1 and byte2, if is
            //    UTF-16BE decoder is true; otherwise byte2 and byte1.
            let bytes = if self.is_utf_16be_decoder {
                [byte1, byte2]
            } else {
                [byte2, byte1]
            };
            // 7. Restore bytes to ioQueue and return error.
            io_queue.restore_list(&bytes);
            return HandlerResult::Error(None);
        }
        // 7. If codeUnit is a leading surrogate, then set UTF-16 leading surrogate to codeUnit
        //    and return continue.
        if is_leading_surrogate(code_unit) {
            self.utf_16_leading_surrogate = Some(code_unit);
            return HandlerResult::Continue;
        }
        // 8. If codeUnit is a trailing surrogate, then return error.
        if is_trailing_surrogate(code_unit) {
            return HandlerResult::Error(None);
        }
        // 9. Return code point codeUnit.
        HandlerResult::Items(vec![scalar_value(code_unit, "shared UTF-16 decoder, step 9")])
    }
}
