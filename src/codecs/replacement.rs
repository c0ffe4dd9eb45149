//! The replacement decoder: one error for a non-empty stream, then nothing.
//!
//! <https://encoding.spec.whatwg.org/#replacement-decoder>. After its error the standard's
//! handler returns finished, so nothing after the first byte is ever decoded; here the rest
//! of the input is consumed and produces no output.

use crate::codecs::dest::Dest;
use crate::results::Status;

#[derive(Clone, Copy)]
pub(crate) struct ReplacementDecoder {
    replacement_error_returned: bool,
}

impl ReplacementDecoder {
    pub(crate) const fn new() -> Self {
        ReplacementDecoder {
            replacement_error_returned: false,
        }
    }

    pub(crate) fn decode<D: Dest>(
        &mut self,
        src: &[u8],
        dst: &mut D,
        _last: bool,
        replace: bool,
    ) -> (Status, usize) {
        if self.replacement_error_returned || src.is_empty() {
            return (Status::INPUT_EMPTY, src.len());
        }
        if replace {
            if !dst.room_for_replacement() {
                return (Status::OUTPUT_FULL, 0);
            }
            dst.push('\u{FFFD}');
        }
        self.replacement_error_returned = true;
        (Status::malformed(1, 0), 1)
    }
}

#[cfg(test)]
mod tests {
    use crate::REPLACEMENT;
    use crate::codecs::testing::check_decode_thoroughly;

    #[test]
    fn one_error_for_any_non_empty_input() {
        for input in [&b""[..], b"a", b"\xFF", b"abc\x80def"] {
            check_decode_thoroughly(REPLACEMENT, input);
        }
    }
}
