//! UTF-8.
//!
//! <https://encoding.spec.whatwg.org/#utf-8-decoder>. The valid prefix of the input goes
//! through one kernel call (validate and copy, or validate and convert to UTF-16); this state
//! machine handles only what the kernel stops at — an invalid byte, a sequence cut by the end
//! of the buffer, a character that does not fit — with the standard's variables, so that
//! replacement follows the standard's maximal-subpart rule exactly.

use crate::codecs::dest::Dest;
use crate::codecs::driver::{StateMachine, Step};
use crate::codecs::source::{ByteDest, Source};
use crate::results::EncoderResult;

#[derive(Clone, Copy)]
pub(crate) struct Utf8Decoder {
    utf_8_code_point: u32,
    utf_8_bytes_seen: u8,
    utf_8_bytes_needed: u8,
    utf_8_lower_boundary: u8,
    utf_8_upper_boundary: u8,
}

impl Utf8Decoder {
    pub(crate) const fn new() -> Self {
        Utf8Decoder {
            utf_8_code_point: 0,
            utf_8_bytes_seen: 0,
            utf_8_bytes_needed: 0,
            utf_8_lower_boundary: 0x80,
            utf_8_upper_boundary: 0xBF,
        }
    }

    fn reset(&mut self) {
        *self = Utf8Decoder::new();
    }

    pub(crate) fn held(&self) -> usize {
        if self.utf_8_bytes_needed == 0 {
            0
        } else {
            usize::from(self.utf_8_bytes_seen) + 1
        }
    }

    /// Valid input is copied byte for byte; a held partial sequence completes into as many
    /// bytes as it has.
    pub(crate) fn max_utf8_buffer_length_without_replacement(&self, n: usize) -> Option<usize> {
        n.checked_add(self.held())
    }

    pub(crate) fn latin1_byte_compatible_up_to(&self, bytes: &[u8]) -> Option<usize> {
        (self.utf_8_bytes_needed == 0).then(|| crate::simd::active_ascii_prefix_len(bytes))
    }
}

impl StateMachine for Utf8Decoder {
    #[inline(always)]
    fn between_characters(&self) -> bool {
        self.utf_8_bytes_needed == 0
    }

    /// The valid prefix of `src`, through one kernel call.
    #[inline(always)]
    fn fast_run<D: Dest>(&mut self, src: &[u8], dst: &mut D) -> (usize, bool) {
        (dst.utf8_valid(src), false)
    }

    /// <https://encoding.spec.whatwg.org/#utf-8-decoder>, steps 3–11, for one byte.
    #[inline]
    fn step<D: Dest>(&mut self, byte: u8, dst: &mut D, replace: bool) -> Step {
        if self.utf_8_bytes_needed == 0 {
            // 3. If UTF-8 bytes needed is 0, based on byte:
            match byte {
                0x00..=0x7F => {
                    if !dst.room_for_ascii() {
                        return Step::Full;
                    }
                    dst.push_ascii(byte);
                }
                0xC2..=0xDF => {
                    self.utf_8_bytes_needed = 1;
                    self.utf_8_code_point = u32::from(byte & 0x1F);
                }
                0xE0..=0xEF => {
                    if byte == 0xE0 {
                        self.utf_8_lower_boundary = 0xA0;
                    }
                    if byte == 0xED {
                        self.utf_8_upper_boundary = 0x9F;
                    }
                    self.utf_8_bytes_needed = 2;
                    self.utf_8_code_point = u32::from(byte & 0xF);
                }
                0xF0..=0xF4 => {
                    if byte == 0xF0 {
                        self.utf_8_lower_boundary = 0x90;
                    }
                    if byte == 0xF4 {
                        self.utf_8_upper_boundary = 0x8F;
                    }
                    self.utf_8_bytes_needed = 3;
                    self.utf_8_code_point = u32::from(byte & 0x7);
                }
                // Otherwise, return error.
                _ => {
                    if !dst.room_for_error(replace) {
                        return Step::Full;
                    }
                    return Step::Error {
                        consumed: true,
                        bad: 1,
                    };
                }
            }
            return Step::Consumed;
        }
        // 4. If byte is not in the range UTF-8 lower boundary to UTF-8 upper boundary:
        //    reset and restore byte; return error.
        if !(self.utf_8_lower_boundary..=self.utf_8_upper_boundary).contains(&byte) {
            if !dst.room_for_error(replace) {
                return Step::Full;
            }
            let bad = self.utf_8_bytes_seen + 1;
            self.reset();
            return Step::Error { consumed: false, bad };
        }
        let code_point = (self.utf_8_code_point << 6) | u32::from(byte & 0x3F);
        if self.utf_8_bytes_seen + 1 == self.utf_8_bytes_needed {
            // 9.–11. The character is complete: write it, then reset.
            let c = char::from_u32(code_point).unwrap_or('\u{FFFD}');
            debug_assert!(
                char::from_u32(code_point).is_some(),
                "boundaries exclude surrogates"
            );
            if !dst.room_for(c) {
                return Step::Full;
            }
            dst.push(c);
            self.reset();
            return Step::Consumed;
        }
        // 5.–8.
        self.utf_8_lower_boundary = 0x80;
        self.utf_8_upper_boundary = 0xBF;
        self.utf_8_code_point = code_point;
        self.utf_8_bytes_seen += 1;
        Step::Consumed
    }

    /// Step 1 of <https://encoding.spec.whatwg.org/#utf-8-decoder>.
    #[inline(always)]
    fn at_end<D: Dest>(&mut self, dst: &mut D, replace: bool) -> Step {
        // 1. If byte is end-of-queue and UTF-8 bytes needed is not 0, set UTF-8 bytes needed
        //    to 0 and return error.
        if self.utf_8_bytes_needed == 0 {
            return Step::Consumed;
        }
        if !dst.room_for_error(replace) {
            return Step::Full;
        }
        let bad = self.utf_8_bytes_seen + 1;
        self.reset();
        Step::Error { consumed: false, bad }
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Utf8Encoder;

impl Utf8Encoder {
    pub(crate) const fn new() -> Self {
        Utf8Encoder
    }

    /// <https://encoding.spec.whatwg.org/#utf-8-encoder>: every scalar value is encodable.
    /// Unpaired surrogates of UTF-16 input are read as U+FFFD by the source.
    #[inline]
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        _last: bool,
    ) -> EncoderResult {
        loop {
            src.copy_as_utf8(dst);
            let Some((c, len)) = src.peek() else {
                return EncoderResult::InputEmpty;
            };
            let mut buf = [0u8; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            if bytes.len() > dst.left() {
                return EncoderResult::OutputFull;
            }
            dst.push(bytes);
            src.advance(len);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::UTF_8;
    use crate::codecs::testing::{
        check_decode, check_decode_thoroughly, check_encode, check_encode_thoroughly,
    };

    #[test]
    fn every_one_and_two_byte_input_equals_spec() {
        for a in 0..=255u8 {
            check_decode(UTF_8, &[a], &[], 16);
            for b in 0..=255u8 {
                check_decode(UTF_8, &[a, b], &[], 16);
            }
        }
    }

    #[test]
    fn three_byte_inputs_over_the_boundary_bytes_equal_spec() {
        let interesting = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
            0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ];
        for a in interesting {
            for b in interesting {
                for c in interesting {
                    check_decode(UTF_8, &[a, b, c], &[], 16);
                    check_decode(UTF_8, &[a, b, c], &[1, 2], 4);
                }
            }
        }
    }

    #[test]
    fn maximal_subparts_and_chunking() {
        for input in [
            &b"\xF0\x80\x80"[..],
            b"\xF0\x90\x80",
            b"\xED\xA0\x80",
            b"\xC0\xAF",
            b"a\xF0\x9F\x98\x80b\xE6\x97\xA5\xC3\xA9\xFF\xFE",
            b"\xF4\x8F\xBF\xBF\xF4\x90\x80\x80",
            b"\xE0\xA0\x80\xE0\x9F\xBF",
            b"\xEF\xBB\xBF\xEF\xBB",
        ] {
            check_decode_thoroughly(UTF_8, input);
        }
    }

    #[test]
    fn encoder_equals_spec() {
        check_encode_thoroughly(UTF_8, "a\u{e9}\u{65e5}\u{1F600}\u{10FFFF}\u{FFFD}");
        let text: String = (0..=0xFFFFu32)
            .chain(0x10000..0x10100)
            .filter_map(char::from_u32)
            .collect();
        check_encode(UTF_8, &text, &[], text.len() + 16);
        check_encode(UTF_8, &text, &[], 5);
    }
}
