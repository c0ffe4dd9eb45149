//! The standard's section "ISO-2022-JP": the ISO-2022-JP decoder and encoder.
//!
//! <https://encoding.spec.whatwg.org/#iso-2022-jp>

use super::index::{IndexName, index_code_point, index_pointer};
use super::{HandlerResult, IoQueue, Item, byte, scalar_value};

/// The states of ISO-2022-JP decoder state and ISO-2022-JP decoder output state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DecoderState {
    /// ASCII
    Ascii,
    /// Roman
    Roman,
    /// katakana
    Katakana,
    /// Leading byte
    LeadingByte,
    /// Trailing byte
    TrailingByte,
    /// Escape start
    EscapeStart,
    /// Escape
    Escape,
}

/// An instance of ISO-2022-JP's decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Iso2022JpDecoder {
    /// ISO-2022-JP decoder state, initially ASCII.
    iso_2022_jp_decoder_state: DecoderState,
    /// ISO-2022-JP decoder output state, initially ASCII.
    iso_2022_jp_decoder_output_state: DecoderState,
    /// ISO-2022-JP leading, initially 0x00.
    iso_2022_jp_leading: u8,
    /// ISO-2022-JP output, initially false.
    iso_2022_jp_output: bool,
}

impl Iso2022JpDecoder {
    pub(super) fn new() -> Iso2022JpDecoder {
        Iso2022JpDecoder {
            iso_2022_jp_decoder_state: DecoderState::Ascii,
            iso_2022_jp_decoder_output_state: DecoderState::Ascii,
            iso_2022_jp_leading: 0x00,
            iso_2022_jp_output: false,
        }
    }

    /// ISO-2022-JP's decoder's handler: switches on ISO-2022-JP decoder state.
    ///
    /// <https://encoding.spec.whatwg.org/#iso-2022-jp-decoder>
    pub(super) fn handler(&mut self, io_queue: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        match self.iso_2022_jp_decoder_state {
            // ASCII: Based on byte:
            DecoderState::Ascii => match byte {
                // 0x1B: Set ISO-2022-JP decoder state to escape start and return continue.
                Item::Value(0x1B) => {
                    self.iso_2022_jp_decoder_state = DecoderState::EscapeStart;
                    HandlerResult::Continue
                }
                // 0x00 to 0x7F, excluding 0x0E, 0x0F, and 0x1B: Set ISO-2022-JP output to
                // false and return a code point whose value is byte.
                Item::Value(byte @ 0x00..=0x7F) if !matches!(byte, 0x0E | 0x0F | 0x1B) => {
                    self.iso_2022_jp_output = false;
                    HandlerResult::Items(vec![scalar_value(u32::from(byte), "ISO-2022-JP decoder, ASCII")])
                }
                // end-of-queue: Return finished.
                Item::EndOfQueue => HandlerResult::Finished,
                // Otherwise: Set ISO-2022-JP output to false and return error.
                Item::Value(_) => {
                    self.iso_2022_jp_output = false;
                    HandlerResult::Error(None)
                }
            },
            // Roman: Based on byte:
            DecoderState::Roman => match byte {
                // 0x1B: Set ISO-2022-JP decoder state to escape start and return continue.
                Item::Value(0x1B) => {
                    self.iso_2022_jp_decoder_state = DecoderState::EscapeStart;
                    HandlerResult::Continue
                }
                // 0x5C: Set ISO-2022-JP output to false and return code point U+00A5 (¥).
                Item::Value(0x5C) => {
                    self.iso_2022_jp_output = false;
                    HandlerResult::Items(vec!['\u{00A5}'])
                }
                // 0x7E: Set ISO-2022-JP output to false and return code point U+203E (‾).
                Item::Value(0x7E) => {
                    self.iso_2022_jp_output = false;
                    HandlerResult::Items(vec!['\u{203E}'])
                }
                // 0x00 to 0x7F, excluding 0x0E, 0x0F, 0x1B, 0x5C, and 0x7E: Set ISO-2022-JP
                // output to false and return a code point whose value is byte.
                Item::Value(byte @ 0x00..=0x7F) if !matches!(byte, 0x0E | 0x0F | 0x1B | 0x5C | 0x7E) => {
                    self.iso_2022_jp_output = false;
                    HandlerResult::Items(vec![scalar_value(u32::from(byte), "ISO-2022-JP decoder, Roman")])
                }
                // end-of-queue: Return finished.
                Item::EndOfQueue => HandlerResult::Finished,
                // Otherwise: Set ISO-2022-JP output to false and return error.
                Item::Value(_) => {
                    self.iso_2022_jp_output = false;
                    HandlerResult::Error(None)
                }
            },
            // katakana: Based on byte:
            DecoderState::Katakana => match byte {
                // 0x1B: Set ISO-2022-JP decoder state to escape start and return continue.
                Item::Value(0x1B) => {
                    self.iso_2022_jp_decoder_state = DecoderState::EscapeStart;
                    HandlerResult::Continue
                }
                // 0x21 to 0x5F: Set ISO-2022-JP output to false and return a code point whose
                // value is 0xFF61 − 0x21 + byte.
                Item::Value(byte @ 0x21..=0x5F) => {
                    self.iso_2022_jp_output = false;
                    HandlerResult::Items(vec![scalar_value(
                        0xFF61 - 0x21 + u32::from(byte),
                        "ISO-2022-JP decoder, katakana",
                    )])
                }
                // end-of-queue: Return finished.
                Item::EndOfQueue => HandlerResult::Finished,
                // Otherwise: Set ISO-2022-JP output to false and return error.
                Item::Value(_) => {
                    self.iso_2022_jp_output = false;
                    HandlerResult::Error(None)
                }
            },
            // Leading byte: Based on byte:
            DecoderState::LeadingByte => match byte {
                // 0x1B: Set ISO-2022-JP decoder state to escape start and return continue.
                Item::Value(0x1B) => {
                    self.iso_2022_jp_decoder_state = DecoderState::EscapeStart;
                    HandlerResult::Continue
                }
                // 0x21 to 0x7E: Set ISO-2022-JP output to false, ISO-2022-JP leading to byte,
                // ISO-2022-JP decoder state to trailing byte, and return continue.
                Item::Value(byte @ 0x21..=0x7E) => {
                    self.iso_2022_jp_output = false;
                    self.iso_2022_jp_leading = byte;
                    self.iso_2022_jp_decoder_state = DecoderState::TrailingByte;
                    HandlerResult::Continue
                }
                // end-of-queue: Return finished.
                Item::EndOfQueue => HandlerResult::Finished,
                // Otherwise: Set ISO-2022-JP output to false and return error.
                Item::Value(_) => {
                    self.iso_2022_jp_output = false;
                    HandlerResult::Error(None)
                }
            },
            // Trailing byte: Based on byte:
            DecoderState::TrailingByte => match byte {
                // 0x1B: Set ISO-2022-JP decoder state to escape start and return error.
                Item::Value(0x1B) => {
                    self.iso_2022_jp_decoder_state = DecoderState::EscapeStart;
                    HandlerResult::Error(None)
                }
                // 0x21 to 0x7E:
                Item::Value(byte @ 0x21..=0x7E) => {
                    // 1. Set the ISO-2022-JP decoder state to leading byte.
                    self.iso_2022_jp_decoder_state = DecoderState::LeadingByte;
                    // 2. Let pointer be (ISO-2022-JP leading − 0x21) × 94 + byte − 0x21.
                    let pointer = (u32::from(self.iso_2022_jp_leading) - 0x21) * 94 + u32::from(byte) - 0x21;
                    // 3. Let codePoint be the index code point for pointer in index jis0208.
                    let code_point = index_code_point(pointer, IndexName::Jis0208);
                    // 4. If codePoint is null, then return error.
                    let Some(code_point) = code_point else {
                        return HandlerResult::Error(None);
                    };
                    // 5. Return a code point whose value is codePoint.
                    HandlerResult::Items(vec![code_point])
                }
                // end-of-queue: Set the ISO-2022-JP decoder state to leading byte and return
                // error.
                Item::EndOfQueue => {
                    self.iso_2022_jp_decoder_state = DecoderState::LeadingByte;
                    HandlerResult::Error(None)
                }
                // Otherwise: Set ISO-2022-JP decoder state to leading byte and return error.
                Item::Value(_) => {
                    self.iso_2022_jp_decoder_state = DecoderState::LeadingByte;
                    HandlerResult::Error(None)
                }
            },
            // Escape start:
            DecoderState::EscapeStart => {
                // 1. If byte is either 0x24 or 0x28, then set ISO-2022-JP leading to byte,
                //    ISO-2022-JP decoder state to escape, and return continue.
                if let Item::Value(byte @ (0x24 | 0x28)) = byte {
                    self.iso_2022_jp_leading = byte;
                    self.iso_2022_jp_decoder_state = DecoderState::Escape;
                    return HandlerResult::Continue;
                }
                // 2. If byte is not end-of-queue, then restore byte to ioQueue.
                if let Item::Value(byte) = byte {
                    io_queue.restore(byte);
                }
                // 3. Set ISO-2022-JP output to false, ISO-2022-JP decoder state to ISO-2022-JP
                //    decoder output state, and return error.
                self.iso_2022_jp_output = false;
                self.iso_2022_jp_decoder_state = self.iso_2022_jp_decoder_output_state;
                HandlerResult::Error(None)
            }
            // Escape:
            DecoderState::Escape => {
                // 1. Let leading be ISO-2022-JP leading and set ISO-2022-JP leading to 0x00.
                let leading = self.iso_2022_jp_leading;
                self.iso_2022_jp_leading = 0x00;
                // 2. Let state be null.
                let mut state = None;
                // 3. If leading is 0x28 and byte is 0x42, then set state to ASCII.
                if leading == 0x28 && byte == Item::Value(0x42) {
                    state = Some(DecoderState::Ascii);
                }
                // 4. If leading is 0x28 and byte is 0x4A, then set state to Roman.
                if leading == 0x28 && byte == Item::Value(0x4A) {
                    state = Some(DecoderState::Roman);
                }
                // 5. If leading is 0x28 and byte is 0x49, then set state to katakana.
                if leading == 0x28 && byte == Item::Value(0x49) {
                    state = Some(DecoderState::Katakana);
                }
                // 6. If leading is 0x24 and byte is either 0x40 or 0x42, then set state to
                //    leading byte.
                if leading == 0x24 && (byte == Item::Value(0x40) || byte == Item::Value(0x42)) {
                    state = Some(DecoderState::LeadingByte);
                }
                // 7. If state is non-null:
                if let Some(state) = state {
                    // 1. Set ISO-2022-JP decoder state and ISO-2022-JP decoder output state to
                    //    state.
                    self.iso_2022_jp_decoder_state = state;
                    self.iso_2022_jp_decoder_output_state = state;
                    // 2. Let output be the value of ISO-2022-JP output.
                    let output = self.iso_2022_jp_output;
                    // 3. Set ISO-2022-JP output to true.
                    self.iso_2022_jp_output = true;
                    // 4. Return continue, if output is false, and error otherwise.
                    return if !output {
                        HandlerResult::Continue
                    } else {
                        HandlerResult::Error(None)
                    };
                }
                // 8. If byte is end-of-queue, then restore leading to ioQueue; otherwise,
                //    restore « leading, byte » to ioQueue.
                match byte {
                    Item::EndOfQueue => io_queue.restore(leading),
                    Item::Value(byte) => io_queue.restore_list(&[leading, byte]),
                }
                // 9. Set ISO-2022-JP output to false, ISO-2022-JP decoder state to ISO-2022-JP
                //    decoder output state and return error.
                self.iso_2022_jp_output = false;
                self.iso_2022_jp_decoder_state = self.iso_2022_jp_decoder_output_state;
                HandlerResult::Error(None)
            }
        }
    }
}

/// ISO-2022-JP encoder state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EncoderState {
    /// ASCII
    Ascii,
    /// Roman
    Roman,
    /// jis0208
    Jis0208,
}

/// An instance of ISO-2022-JP's encoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Iso2022JpEncoder {
    /// ISO-2022-JP encoder state, initially ASCII.
    iso_2022_jp_encoder_state: EncoderState,
}

impl Iso2022JpEncoder {
    pub(super) fn new() -> Iso2022JpEncoder {
        Iso2022JpEncoder {
            iso_2022_jp_encoder_state: EncoderState::Ascii,
        }
    }

    /// ISO-2022-JP's encoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#iso-2022-jp-encoder>
    pub(super) fn handler(
        &mut self,
        io_queue: &mut IoQueue<char>,
        code_point: Item<char>,
    ) -> HandlerResult<u8> {
        // 1. If codePoint is end-of-queue and ISO-2022-JP encoder state is not ASCII, then set
        //    ISO-2022-JP encoder state to ASCII and return three bytes 0x1B 0x28 0x42.
        if code_point == Item::EndOfQueue && self.iso_2022_jp_encoder_state != EncoderState::Ascii {
            self.iso_2022_jp_encoder_state = EncoderState::Ascii;
            return HandlerResult::Items(vec![0x1B, 0x28, 0x42]);
        }
        // 2. If codePoint is end-of-queue and ISO-2022-JP encoder state is ASCII, then return
        //    finished.
        let Item::Value(mut code_point) = code_point else {
            return HandlerResult::Finished;
        };
        // 3. If ISO-2022-JP encoder state is ASCII or Roman, and codePoint is U+000E, U+000F,
        //    or U+001B, then return error with U+FFFD (�).
        if matches!(
            self.iso_2022_jp_encoder_state,
            EncoderState::Ascii | EncoderState::Roman
        ) && matches!(code_point, '\u{000E}' | '\u{000F}' | '\u{001B}')
        {
            return HandlerResult::Error(Some('\u{FFFD}'));
        }
        // 4. If ISO-2022-JP encoder state is ASCII and codePoint is an ASCII code point, then
        //    return a byte whose value is codePoint.
        if self.iso_2022_jp_encoder_state == EncoderState::Ascii && code_point.is_ascii() {
            return HandlerResult::Items(vec![byte(u32::from(code_point))]);
        }
        // 5. If ISO-2022-JP encoder state is Roman and codePoint is an ASCII code point,
        //    excluding U+005C (\) and U+007E (~), or is U+00A5 (¥) or U+203E (‾):
        if self.iso_2022_jp_encoder_state == EncoderState::Roman
            && ((code_point.is_ascii() && !matches!(code_point, '\u{005C}' | '\u{007E}'))
                || matches!(code_point, '\u{00A5}' | '\u{203E}'))
        {
            // 1. If codePoint is an ASCII code point, then return a byte whose value is
            //    codePoint.
            if code_point.is_ascii() {
                return HandlerResult::Items(vec![byte(u32::from(code_point))]);
            }
            // 2. If codePoint is U+00A5 (¥), then return byte 0x5C.
            if code_point == '\u{00A5}' {
                return HandlerResult::Items(vec![0x5C]);
            }
            // 3. If codePoint is U+203E (‾), then return byte 0x7E.
            if code_point == '\u{203E}' {
                return HandlerResult::Items(vec![0x7E]);
            }
        }
        // 6. If codePoint is an ASCII code point, and ISO-2022-JP encoder state is not ASCII,
        //    then restore codePoint to ioQueue, set ISO-2022-JP encoder state to ASCII, and
        //    return three bytes 0x1B 0x28 0x42.
        if code_point.is_ascii() && self.iso_2022_jp_encoder_state != EncoderState::Ascii {
            io_queue.restore(code_point);
            self.iso_2022_jp_encoder_state = EncoderState::Ascii;
            return HandlerResult::Items(vec![0x1B, 0x28, 0x42]);
        }
        // 7. If codePoint is either U+00A5 (¥) or U+203E (‾), and ISO-2022-JP encoder state is
        //    not Roman, then restore codePoint to ioQueue, set ISO-2022-JP encoder state to
        //    Roman, and return three bytes 0x1B 0x28 0x4A.
        if matches!(code_point, '\u{00A5}' | '\u{203E}')
            && self.iso_2022_jp_encoder_state != EncoderState::Roman
        {
            io_queue.restore(code_point);
            self.iso_2022_jp_encoder_state = EncoderState::Roman;
            return HandlerResult::Items(vec![0x1B, 0x28, 0x4A]);
        }
        // 8. If codePoint is U+2212 (−), then set it to U+FF0D (－).
        if code_point == '\u{2212}' {
            code_point = '\u{FF0D}';
        }
        // 9. If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive, then set it to
        //    the index code point for codePoint − 0xFF61 in index ISO-2022-JP katakana.
        if ('\u{FF61}'..='\u{FF9F}').contains(&code_point) {
            code_point = index_code_point(u32::from(code_point) - 0xFF61, IndexName::Iso2022JpKatakana)
                .expect("ISO-2022-JP encoder, step 9: index ISO-2022-JP katakana has pointers 0 to 62");
        }
        // 10. Let pointer be the index pointer for codePoint in index jis0208.
        let pointer = index_pointer(code_point, IndexName::Jis0208);
        // 11. If pointer is null:
        let Some(pointer) = pointer else {
            // 1. If ISO-2022-JP encoder state is jis0208, then restore codePoint to ioQueue,
            //    set ISO-2022-JP encoder state to ASCII, and return three bytes 0x1B 0x28 0x42.
            if self.iso_2022_jp_encoder_state == EncoderState::Jis0208 {
                io_queue.restore(code_point);
                self.iso_2022_jp_encoder_state = EncoderState::Ascii;
                return HandlerResult::Items(vec![0x1B, 0x28, 0x42]);
            }
            // 2. Return error with codePoint.
            return HandlerResult::Error(Some(code_point));
        };
        // 12. If ISO-2022-JP encoder state is not jis0208, then restore codePoint to ioQueue,
        //     set ISO-2022-JP encoder state to jis0208, and return three bytes 0x1B 0x24 0x42.
        if self.iso_2022_jp_encoder_state != EncoderState::Jis0208 {
            io_queue.restore(code_point);
            self.iso_2022_jp_encoder_state = EncoderState::Jis0208;
            return HandlerResult::Items(vec![0x1B, 0x24, 0x42]);
        }
        // 13. Let leading be pointer / 94 + 0x21.
        let leading = pointer / 94 + 0x21;
        // 14. Let trailing be pointer % 94 + 0x21.
        let trailing = pointer % 94 + 0x21;
        // 15. Return two bytes whose values are leading and trailing.
        HandlerResult::Items(vec![byte(leading), byte(trailing)])
    }
}
