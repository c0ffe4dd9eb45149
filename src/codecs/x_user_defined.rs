//! x-user-defined: bytes 0x80–0xFF are U+F780–U+F7FF.
//!
//! <https://encoding.spec.whatwg.org/#x-user-defined-decoder>. The decoder is the
//! single-byte decoder over a table that maps every upper byte, so it shares its kernels and
//! never meets an error.

use crate::codecs::dest::Dest;
use crate::codecs::single_byte::SingleByteDecoder;
use crate::codecs::source::{ByteDest, Source};
use crate::results::{EncoderResult, Status};

/// `0xF780 + byte − 0x80` for every upper byte.
pub(crate) static TABLE: [u16; 128] = crate::simd::upper_half_from(0xF780);

#[derive(Clone, Copy)]
pub(crate) struct XUserDefinedDecoder(SingleByteDecoder);

impl XUserDefinedDecoder {
    pub(crate) const fn new() -> Self {
        XUserDefinedDecoder(SingleByteDecoder::new(&TABLE))
    }

    pub(crate) fn decode<D: Dest>(
        &mut self,
        src: &[u8],
        dst: &mut D,
        last: bool,
        replace: bool,
    ) -> (Status, usize) {
        self.0.decode(src, dst, last, replace)
    }
}

#[derive(Clone, Copy)]
pub(crate) struct XUserDefinedEncoder;

impl XUserDefinedEncoder {
    pub(crate) const fn new() -> Self {
        XUserDefinedEncoder
    }

    /// <https://encoding.spec.whatwg.org/#x-user-defined-encoder>
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        _last: bool,
    ) -> EncoderResult {
        loop {
            src.encode_run(dst, None, |c| match c {
                0xF780..=0xF7FF => (c - 0xF780 + 0x80) as u16,
                _ => 0,
            });
            let Some((c, len)) = src.peek() else {
                return EncoderResult::InputEmpty;
            };
            if dst.left() == 0 {
                return EncoderResult::OutputFull;
            }
            src.advance(len);
            match u32::from(c) {
                cp @ 0xF780..=0xF7FF => dst.push_byte((cp - 0xF780 + 0x80) as u8),
                _ => return EncoderResult::Unmappable(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::X_USER_DEFINED;
    use crate::codecs::testing::{check_decode_thoroughly, check_encode, check_encode_thoroughly};

    #[test]
    fn all_bytes_and_the_private_use_range() {
        let all: Vec<u8> = (0..=255).collect();
        check_decode_thoroughly(X_USER_DEFINED, &all);
        let text: String = (0..=0xFFFFu32).filter_map(char::from_u32).collect();
        check_encode(X_USER_DEFINED, &text, &[], text.len() * 8);
        check_encode_thoroughly(X_USER_DEFINED, "a\u{F780}\u{F7FF}\u{F800}\u{80}b");
    }
}
