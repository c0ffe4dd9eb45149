//! The result types of the streaming API, as in encoding_rs 0.8.

/// Result of a (potentially partial) decode or encode operation with replacement.
///
/// ```
/// use simdenc::{CoderResult, UTF_8};
/// let mut decoder = UTF_8.new_decoder();
/// let mut out = String::with_capacity(16);
/// let (result, read, had_errors) = decoder.decode_to_string(b"abc", &mut out, true);
/// assert_eq!((result, read, had_errors), (CoderResult::InputEmpty, 3, false));
/// ```
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoderResult {
    /// The input was exhausted. If `last` was true, the conversion is complete; otherwise
    /// call again with more input.
    InputEmpty,
    /// The converter cannot produce another unit of output in the space left. Call again with
    /// more output space and the rest of the input.
    OutputFull,
}

/// Result of a (potentially partial) decode operation without replacement.
///
/// ```
/// use simdenc::{DecoderResult, UTF_8};
/// let mut decoder = UTF_8.new_decoder_without_bom_handling();
/// let mut out = [0u8; 16];
/// let (result, read, written) =
///     decoder.decode_to_utf8_without_replacement(b"a\xFFb", &mut out, true);
/// assert_eq!((result, read, written), (DecoderResult::Malformed(1, 0), 2, 1));
/// ```
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecoderResult {
    /// The input was exhausted. If `last` was true, decoding is complete.
    InputEmpty,
    /// The decoder cannot produce another unit of output in the space left.
    OutputFull,
    /// The decoder found a malformed byte sequence. The caller either treats this as fatal or
    /// appends one U+FFFD and calls again with the rest of the input.
    ///
    /// The first number is the length of the malformed sequence, the second the number of
    /// bytes consumed after it (which the decoder holds and will decode next). So the
    /// malformed sequence ends `consumed_after` bytes before the reported read position (and
    /// may have begun in an earlier input buffer). The position where the standard's decoder
    /// in fatal mode stops is the total read minus `consumed_after`.
    Malformed(u8, u8),
}

/// Result of a (potentially partial) encode operation without replacement.
///
/// ```
/// use simdenc::{EncoderResult, WINDOWS_1252};
/// let mut encoder = WINDOWS_1252.new_encoder();
/// let mut out = [0u8; 16];
/// let (result, read, written) =
///     encoder.encode_from_utf8_without_replacement("a\u{3042}b", &mut out, true);
/// assert_eq!((result, read, written), (EncoderResult::Unmappable('\u{3042}'), 4, 1));
/// ```
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncoderResult {
    /// The input was exhausted. If `last` was true, encoding is complete.
    InputEmpty,
    /// The encoder cannot produce another unit of output in the space left.
    OutputFull,
    /// The encoder found a character it cannot encode; it has been consumed. The caller
    /// either treats this as fatal or writes a replacement and calls again.
    Unmappable(char),
}

impl DecoderResult {
    pub(crate) fn into_coder(self) -> CoderResult {
        match self {
            DecoderResult::OutputFull => CoderResult::OutputFull,
            _ => CoderResult::InputEmpty,
        }
    }
}

/// A [`DecoderResult`] packed into one `u32`, as the codecs return it internally.
///
/// `(DecoderResult, usize)` is returned through memory, and its reader loads the three bytes
/// of the enum wider than the callee stored them: a store-forwarding stall on every call,
/// which `perf annotate` showed as the largest single cost of decoding a 16-byte input.
/// `(Status, usize)` is a pair of scalars and comes back in two registers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Status(u32);

impl Status {
    /// [`DecoderResult::InputEmpty`].
    pub(crate) const INPUT_EMPTY: Status = Status(0);
    /// [`DecoderResult::OutputFull`].
    pub(crate) const OUTPUT_FULL: Status = Status(1);

    /// [`DecoderResult::Malformed`]`(bad, after)`.
    #[inline(always)]
    pub(crate) const fn malformed(bad: u8, after: u8) -> Status {
        Status(2 | (bad as u32) << 8 | (after as u32) << 16)
    }

    /// The result it stands for.
    #[inline(always)]
    pub(crate) const fn get(self) -> DecoderResult {
        match self.0 & 0xFF {
            0 => DecoderResult::InputEmpty,
            1 => DecoderResult::OutputFull,
            _ => DecoderResult::Malformed((self.0 >> 8) as u8, (self.0 >> 16) as u8),
        }
    }
}

impl core::fmt::Debug for Status {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.get().fmt(f)
    }
}
