//! UTF-16BE and UTF-16LE decoders (they have no encoders: their output encoding is UTF-8).
//!
//! <https://encoding.spec.whatwg.org/#shared-utf-16-decoder>. Runs of non-surrogate code
//! units go through one kernel call; this state machine handles surrogates, odd bytes at
//! buffer boundaries and the end of the stream. A leading surrogate followed by a code unit
//! that is not a trailing surrogate restores that unit's two bytes: the byte of the current
//! buffer is simply not consumed, the one held in state goes to `Pending`.

use crate::codecs::Pending;
use crate::codecs::dest::Dest;
use crate::codecs::driver::{StateMachine, Step};

#[derive(Clone, Copy)]
pub(crate) struct Utf16Decoder {
    utf_16_leading_byte: Option<u8>,
    utf_16_leading_surrogate: Option<u16>,
    is_utf_16be_decoder: bool,
    pending: Pending,
}

impl Utf16Decoder {
    pub(crate) const fn new(is_utf_16be_decoder: bool) -> Self {
        Utf16Decoder {
            utf_16_leading_byte: None,
            utf_16_leading_surrogate: None,
            is_utf_16be_decoder,
            pending: Pending::EMPTY,
        }
    }

    pub(crate) fn held(&self) -> usize {
        usize::from(self.utf_16_leading_byte.is_some())
            + 2 * usize::from(self.utf_16_leading_surrogate.is_some())
            + self.pending.len()
    }
}

impl StateMachine for Utf16Decoder {
    #[inline(always)]
    fn between_characters(&self) -> bool {
        self.utf_16_leading_byte.is_none() && self.utf_16_leading_surrogate.is_none()
    }

    /// Code units that are not surrogates, through one kernel call.
    #[inline(always)]
    fn fast_run<D: Dest>(&mut self, src: &[u8], dst: &mut D) -> (usize, bool) {
        (dst.utf16_bytes(src, self.is_utf_16be_decoder), false)
    }

    /// <https://encoding.spec.whatwg.org/#shared-utf-16-decoder>, steps 3–9, for one byte.
    #[inline]
    fn step<D: Dest>(&mut self, byte: u8, dst: &mut D, replace: bool) -> Step {
        // 3. If UTF-16 leading byte is null, set it to byte and return continue.
        let Some(leading_byte) = self.utf_16_leading_byte else {
            self.utf_16_leading_byte = Some(byte);
            return Step::Consumed;
        };
        // 4. Let codeUnit be …
        let code_unit = if self.is_utf_16be_decoder {
            (u16::from(leading_byte) << 8) | u16::from(byte)
        } else {
            (u16::from(byte) << 8) | u16::from(leading_byte)
        };
        // 6. If UTF-16 leading surrogate is non-null:
        if let Some(leading_surrogate) = self.utf_16_leading_surrogate {
            if (0xDC00..=0xDFFF).contains(&code_unit) {
                let c = 0x10000
                    + ((u32::from(leading_surrogate) - 0xD800) << 10)
                    + (u32::from(code_unit) - 0xDC00);
                let c = char::from_u32(c).unwrap_or('\u{FFFD}');
                if !dst.room_for(c) {
                    return Step::Full;
                }
                dst.push(c);
                self.utf_16_leading_byte = None;
                self.utf_16_leading_surrogate = None;
                return Step::Consumed;
            }
            // Restore the code unit's two bytes and return error.
            if !dst.room_for_error(replace) {
                return Step::Full;
            }
            self.utf_16_leading_byte = None;
            self.utf_16_leading_surrogate = None;
            // `byte` stays where it is (not consumed); the leading byte goes back before it.
            self.pending.restore(&[leading_byte]);
            return Step::Error {
                consumed: false,
                bad: 2,
            };
        }
        // 7. If codeUnit is a leading surrogate, set UTF-16 leading surrogate and continue.
        if (0xD800..=0xDBFF).contains(&code_unit) {
            self.utf_16_leading_byte = None;
            self.utf_16_leading_surrogate = Some(code_unit);
            return Step::Consumed;
        }
        // 8. If codeUnit is a trailing surrogate, return error.
        if (0xDC00..=0xDFFF).contains(&code_unit) {
            if !dst.room_for_error(replace) {
                return Step::Full;
            }
            self.utf_16_leading_byte = None;
            return Step::Error {
                consumed: true,
                bad: 2,
            };
        }
        // 9. Return code point codeUnit.
        if !dst.room_for_bmp(code_unit) {
            return Step::Full;
        }
        dst.push_bmp(code_unit);
        self.utf_16_leading_byte = None;
        Step::Consumed
    }

    /// Step 1 of <https://encoding.spec.whatwg.org/#shared-utf-16-decoder>.
    #[inline(always)]
    fn at_end<D: Dest>(&mut self, dst: &mut D, replace: bool) -> Step {
        // 1. If byte is end-of-queue and either UTF-16 leading byte or UTF-16 leading
        //    surrogate is non-null, set both to null and return error.
        if self.between_characters() {
            return Step::Consumed;
        }
        if !dst.room_for_error(replace) {
            return Step::Full;
        }
        let bad = self.held() as u8;
        self.utf_16_leading_byte = None;
        self.utf_16_leading_surrogate = None;
        Step::Error { consumed: false, bad }
    }

    #[inline(always)]
    fn pending(&mut self) -> Option<&mut Pending> {
        Some(&mut self.pending)
    }
}

#[cfg(test)]
mod tests {
    use crate::codecs::testing::{check_decode, check_decode_thoroughly};
    use crate::{UTF_16BE, UTF_16LE};

    #[test]
    fn every_short_input_equals_spec() {
        for enc in [UTF_16LE, UTF_16BE] {
            for a in 0..=255u8 {
                check_decode(enc, &[a], &[], 16);
            }
            let units = [
                0x0041u16, 0x00E9, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xFFFD, 0x3042, 0xD83D, 0xDE00,
            ];
            for &a in &units {
                for &b in &units {
                    for &c in &units {
                        let mut bytes = Vec::new();
                        for u in [a, b, c] {
                            bytes.extend(if enc == UTF_16BE {
                                u.to_be_bytes()
                            } else {
                                u.to_le_bytes()
                            });
                        }
                        check_decode(enc, &bytes, &[], 32);
                        check_decode(enc, &bytes[..5], &[], 32);
                        check_decode(enc, &bytes, &[1, 3], 4);
                    }
                }
            }
            for a in 0..=255u8 {
                for b in (0..=255u8).step_by(7) {
                    check_decode(enc, &[a, b, a], &[], 16);
                }
            }
        }
    }

    #[test]
    fn surrogates_odd_bytes_and_chunking() {
        for enc in [UTF_16LE, UTF_16BE] {
            let be = enc == UTF_16BE;
            let mut bytes = Vec::new();
            for u in "a\u{e9}\u{1F600}\u{3042}"
                .encode_utf16()
                .chain([0xD800, 0x0041, 0xDC00, 0xD800, 0xD800, 0xDC00])
            {
                bytes.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
            }
            bytes.push(0x41);
            check_decode_thoroughly(enc, &bytes);
        }
    }
}
