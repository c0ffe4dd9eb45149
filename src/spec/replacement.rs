//! The standard's section "replacement": the replacement decoder (the encoding has no
//! encoder).
//!
//! <https://encoding.spec.whatwg.org/#replacement>

use super::{HandlerResult, IoQueue, Item};

/// An instance of replacement's decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ReplacementDecoder {
    /// replacement error returned, initially false.
    replacement_error_returned: bool,
}

impl ReplacementDecoder {
    pub(super) fn new() -> ReplacementDecoder {
        ReplacementDecoder {
            replacement_error_returned: false,
        }
    }

    /// replacement's decoder's handler.
    ///
    /// <https://encoding.spec.whatwg.org/#replacement-decoder>
    pub(super) fn handler(&mut self, _unused: &mut IoQueue<u8>, byte: Item<u8>) -> HandlerResult<char> {
        // 1. If byte is end-of-queue, then return finished.
        if byte == Item::EndOfQueue {
            return HandlerResult::Finished;
        }
        // 2. If replacement error returned is false, then set replacement error returned to
        //    true and return error.
        if !self.replacement_error_returned {
            self.replacement_error_returned = true;
            return HandlerResult::Error(None);
        }
        // 3. Return finished.
        HandlerResult::Finished
    }
}
