//! [`Encoder`]: streaming encoding from UTF-8 or UTF-16 into caller-owned byte buffers, with
//! the same names, signatures and semantics as encoding_rs 0.8.
//!
//! The replacing variants implement the standard's "html" error mode: an unmappable
//! character becomes `&#N;` (N in decimal), as HTML form submission requires.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::fmt;

use crate::codecs::VariantEncoder;
use crate::codecs::source::{ByteDest, Source, Utf8Source, Utf16Source};
use crate::codecs::tuning::{SHORT_UTF8_MIN, SINGLE_BYTE_UNITS_MIN};
use crate::encoding::Encoding;
use crate::results::{CoderResult, EncoderResult};
use crate::simd::{Kernels, OutBytes, as_out};

/// The longest numeric character reference, `&#1114111;`.
const NCR_EXTRA: usize = 10;

/// A converter that encodes a Unicode stream into bytes according to an encoding, in a
/// streaming (incremental) manner.
///
/// An encoder is created for an encoding's *output encoding* (UTF-8 for UTF-16BE, UTF-16LE
/// and replacement). The `encode_*` methods encode from `src` into `dst` until the input is
/// exhausted, the output is too full for the next character, or (`*_without_replacement`)
/// a character cannot be encoded. The replacing variants write `&#N;` for unmappable
/// characters and need [`NCR_EXTRA`](Encoder::max_buffer_length_from_utf8_if_no_unmappables)
/// bytes of slack to do so, as in encoding_rs. Unpaired surrogates in UTF-16 input are read
/// as U+FFFD; do not split surrogate pairs across buffers (the `text` module's stream
/// adapter does that for you).
///
/// ```
/// use simdenc::{CoderResult, ISO_2022_JP};
/// let mut encoder = ISO_2022_JP.new_encoder();
/// let mut out = Vec::with_capacity(32);
/// let (result, read, had_unmappables) = encoder.encode_from_utf8_to_vec("a\u{3042}", &mut out, false);
/// assert_eq!((result, read, had_unmappables), (CoderResult::InputEmpty, 4, false));
/// assert!(encoder.has_pending_state());
/// let _ = encoder.encode_from_utf8_to_vec("", &mut out, true);
/// assert_eq!(out, b"a\x1b$B$\"\x1b(B");
/// ```
pub struct Encoder {
    encoding: &'static Encoding,
    variant: VariantEncoder,
    kernels: &'static Kernels,
}

impl Encoder {
    #[inline]
    pub(crate) fn new(encoding: &'static Encoding) -> Encoder {
        let encoding = encoding.output_encoding();
        Encoder {
            encoding,
            variant: VariantEncoder::new(encoding),
            kernels: crate::simd::active(),
        }
    }

    /// The encoding this encoder writes (an output encoding).
    ///
    /// ```
    /// assert_eq!(simdenc::UTF_16LE.new_encoder().encoding(), simdenc::UTF_8);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Whether the encoder holds state that a call with `last = true` would write out
    /// (only ISO-2022-JP, when not in its ASCII state).
    ///
    /// ```
    /// let encoder = simdenc::ISO_2022_JP.new_encoder();
    /// assert!(!encoder.has_pending_state());
    /// ```
    pub fn has_pending_state(&self) -> bool {
        self.variant.has_pending_state()
    }

    /// The encoder's state machine on `src`. For the UTF-8 encoder (no state, nothing
    /// unmappable) its first step, the source's copy or transcoding kernel, runs here, and
    /// the machine only sees what is left: otherwise a 16-byte input goes through four calls
    /// before the copy.
    #[inline(always)]
    fn run<S: Source>(
        variant: &mut VariantEncoder,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        last: bool,
    ) -> EncoderResult {
        if matches!(variant, VariantEncoder::Utf8(_)) {
            src.copy_as_utf8(dst);
            if src.peek().is_none() {
                return EncoderResult::InputEmpty;
            }
        }
        variant.encode(src, dst, last)
    }

    fn ncr_extra(&self) -> usize {
        if self.encoding.can_encode_everything() {
            0
        } else {
            NCR_EXTRA
        }
    }

    /// The output size that guarantees `encode_from_utf8` and `encode_from_utf8_to_vec` do not
    /// return `OutputFull` for `byte_length` bytes of UTF-8, if nothing is unmappable;
    /// `None` on overflow.
    ///
    /// ```
    /// let encoder = simdenc::SHIFT_JIS.new_encoder();
    /// assert!(encoder.max_buffer_length_from_utf8_if_no_unmappables(3).unwrap() >= 12);
    /// ```
    pub fn max_buffer_length_from_utf8_if_no_unmappables(&self, byte_length: usize) -> Option<usize> {
        self.max_buffer_length_from_utf8_without_replacement(byte_length)?
            .checked_add(self.ncr_extra())
    }

    /// The output size that guarantees the `*_without_replacement` variants do not return
    /// `OutputFull` for `byte_length` bytes of UTF-8; `None` on overflow.
    ///
    /// ```
    /// let encoder = simdenc::UTF_8.new_encoder();
    /// assert_eq!(encoder.max_buffer_length_from_utf8_without_replacement(7), Some(7));
    /// ```
    pub fn max_buffer_length_from_utf8_without_replacement(&self, byte_length: usize) -> Option<usize> {
        self.variant
            .max_buffer_length_from_utf8_without_replacement(byte_length)
    }

    /// As [`Encoder::max_buffer_length_from_utf8_if_no_unmappables`], for UTF-16 input of
    /// `u16_length` code units.
    ///
    /// ```
    /// let encoder = simdenc::GB18030.new_encoder();
    /// assert!(encoder.max_buffer_length_from_utf16_if_no_unmappables(1).unwrap() >= 4);
    /// ```
    pub fn max_buffer_length_from_utf16_if_no_unmappables(&self, u16_length: usize) -> Option<usize> {
        self.max_buffer_length_from_utf16_without_replacement(u16_length)?
            .checked_add(self.ncr_extra())
    }

    /// As [`Encoder::max_buffer_length_from_utf8_without_replacement`], for UTF-16 input.
    ///
    /// ```
    /// let encoder = simdenc::UTF_8.new_encoder();
    /// assert_eq!(encoder.max_buffer_length_from_utf16_without_replacement(2), Some(6));
    /// ```
    pub fn max_buffer_length_from_utf16_without_replacement(&self, u16_length: usize) -> Option<usize> {
        self.variant
            .max_buffer_length_from_utf16_without_replacement(u16_length)
    }

    /// Encodes from UTF-8, without replacement: stops after each unmappable character.
    ///
    /// ```
    /// use simdenc::{EncoderResult, EUC_KR};
    /// let mut encoder = EUC_KR.new_encoder();
    /// let mut out = [0u8; 8];
    /// let (result, read, written) = encoder.encode_from_utf8_without_replacement("\u{D55C}\u{e9}", &mut out, true);
    /// assert_eq!((result, read, &out[..written]), (EncoderResult::Unmappable('\u{e9}'), 5, &b"\xC7\xD1"[..]));
    /// ```
    pub fn encode_from_utf8_without_replacement(
        &mut self,
        src: &str,
        dst: &mut [u8],
        last: bool,
    ) -> (EncoderResult, usize, usize) {
        self.encode_from_utf8_without_replacement_out(src, as_out(dst), last, false)
    }

    /// [`Encoder::encode_from_utf8_without_replacement`] into output that may be
    /// uninitialised; `dst[..written]` is written.
    ///
    /// `spare`: `dst` is a `Vec`'s spare capacity, whose bytes past `written` are never seen
    /// (`Kernels::for_spare_output`).
    #[inline]
    fn encode_from_utf8_without_replacement_out(
        &mut self,
        src: &str,
        dst: &mut OutBytes,
        last: bool,
        spare: bool,
    ) -> (EncoderResult, usize, usize) {
        let kernels = if spare {
            self.kernels.for_spare_output()
        } else {
            self.kernels
        };
        let mut src = Utf8Source::new(src, kernels);
        let mut dst = ByteDest::new(dst);
        let result = Self::run(&mut self.variant, &mut src, &mut dst, last);
        (result, src.read(), dst.written())
    }

    /// Encodes from UTF-16, without replacement.
    ///
    /// ```
    /// use simdenc::{EncoderResult, WINDOWS_1252};
    /// let mut encoder = WINDOWS_1252.new_encoder();
    /// let mut out = [0u8; 8];
    /// let (result, read, written) = encoder.encode_from_utf16_without_replacement(&[0x20AC, 0x41], &mut out, true);
    /// assert_eq!((result, read, &out[..written]), (EncoderResult::InputEmpty, 2, &b"\x80A"[..]));
    /// ```
    pub fn encode_from_utf16_without_replacement(
        &mut self,
        src: &[u16],
        dst: &mut [u8],
        last: bool,
    ) -> (EncoderResult, usize, usize) {
        let mut src = Utf16Source::new(src, self.kernels);
        let mut dst = ByteDest::new(as_out(dst));
        let result = Self::run(&mut self.variant, &mut src, &mut dst, last);
        (result, src.read(), dst.written())
    }

    /// Encodes from UTF-8, writing `&#N;` for unmappable characters. Returns the status,
    /// UTF-8 bytes read, bytes written, and whether anything was unmappable.
    ///
    /// ```
    /// use simdenc::{CoderResult, WINDOWS_1252};
    /// let mut encoder = WINDOWS_1252.new_encoder();
    /// let mut out = [0u8; 32];
    /// let (result, read, written, had_unmappables) = encoder.encode_from_utf8("caf\u{e9} \u{1F600}", &mut out, true);
    /// assert_eq!((result, read, had_unmappables), (CoderResult::InputEmpty, 10, true));
    /// assert_eq!(&out[..written], b"caf\xE9 &#128512;");
    /// ```
    pub fn encode_from_utf8(
        &mut self,
        src: &str,
        dst: &mut [u8],
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        self.encode_from_utf8_out(src, as_out(dst), last, false)
    }

    /// [`Encoder::encode_from_utf8`] into output that may be uninitialised; `dst[..written]`
    /// is written.
    ///
    /// `spare`: `dst` is a `Vec`'s spare capacity, whose bytes past `written` are never seen
    /// (`Kernels::for_spare_output`).
    #[inline]
    fn encode_from_utf8_out(
        &mut self,
        src: &str,
        dst: &mut OutBytes,
        last: bool,
        spare: bool,
    ) -> (CoderResult, usize, usize, bool) {
        let kernels = if spare {
            self.kernels.for_spare_output()
        } else {
            self.kernels
        };
        if let VariantEncoder::SingleByte(encoder) = &self.variant
            && src.len() < SHORT_UTF8_MIN
            && dst.len() >= src.len() + NCR_EXTRA
        {
            // A short input into a single-byte encoding, as in `encode_from_utf16_out`: its
            // mapped characters in one loop, the rest (an unmappable character) the general
            // way, as the rest of the same call.
            let (read, done) = encoder.encode_utf8_prefix(src, dst);
            if read == src.len() {
                return (CoderResult::InputEmpty, read, done, false);
            }
            let (result, r, w, had) = self.replacing(src.len() - read, &mut dst[done..], last, |r| {
                Utf8Source::new(&src[read + r..], kernels)
            });
            return (result, read + r, done + w, had);
        }
        if src.len() < SHORT_UTF8_MIN
            && dst.len() >= src.len() + NCR_EXTRA
            && self.variant.is_stateless_multibyte()
        {
            return self.encode_short_multibyte(src, dst, last, kernels);
        }
        self.replacing(src.len(), dst, last, |read| {
            Utf8Source::new(&src[read..], kernels)
        })
    }

    /// The rest of a short input after the `prefix` (`(bytes read, bytes written)`) that one
    /// loop took: the general way, as the rest of the same call.
    #[inline(always)]
    fn after_prefix(
        &mut self,
        src: &str,
        dst: &mut OutBytes,
        last: bool,
        kernels: &'static Kernels,
        (read, done): (usize, usize),
    ) -> (CoderResult, usize, usize, bool) {
        if read == src.len() {
            return (CoderResult::InputEmpty, read, done, false);
        }
        let (result, r, w, had) = self.replacing(src.len() - read, &mut dst[done..], last, |r| {
            Utf8Source::new(&src[read + r..], kernels)
        });
        (result, read + r, done + w, had)
    }

    /// A short input (below `SHORT_UTF8_MIN` bytes, with room for all of it and an NCR) into
    /// a stateless CJK encoding: what the encode run would take, in one loop
    /// (`encode_runs::mapped_utf8`), then the rest the general way. Out of line: inlined, the
    /// five encoders' loops cost the single-byte one beside them 3% (registers).
    #[inline(never)]
    fn encode_short_multibyte(
        &mut self,
        src: &str,
        dst: &mut OutBytes,
        last: bool,
        kernels: &'static Kernels,
    ) -> (CoderResult, usize, usize, bool) {
        let prefix = self.variant.encode_utf8_prefix(src, dst);
        self.after_prefix(src, dst, last, kernels, prefix)
    }

    /// Encodes from UTF-16, writing `&#N;` for unmappable characters.
    ///
    /// ```
    /// use simdenc::{CoderResult, EUC_JP};
    /// let mut encoder = EUC_JP.new_encoder();
    /// let mut out = [0u8; 32];
    /// let src: Vec<u16> = "\u{65E5}\u{D55C}".encode_utf16().collect();
    /// let (result, read, written, had_unmappables) = encoder.encode_from_utf16(&src, &mut out, true);
    /// assert_eq!((result, read, had_unmappables), (CoderResult::InputEmpty, 2, true));
    /// assert_eq!(&out[..written], b"\xC6\xFC&#54620;");
    /// ```
    pub fn encode_from_utf16(
        &mut self,
        src: &[u16],
        dst: &mut [u8],
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        self.encode_from_utf16_out(src, as_out(dst), last)
    }

    /// [`Encoder::encode_from_utf16`] into output that may be uninitialised;
    /// `dst[..written]` is written.
    #[inline]
    fn encode_from_utf16_out(
        &mut self,
        src: &[u16],
        dst: &mut OutBytes,
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        if let VariantEncoder::SingleByte(encoder) = &self.variant
            && src.len() < SINGLE_BYTE_UNITS_MIN
            && dst.len() >= src.len() + NCR_EXTRA
        {
            // A short input into a single-byte encoding (stateless, one byte a unit): its
            // mapped units in one loop, without the general path's set-up, which costs short
            // inputs more than the loop. Whatever it leaves (a surrogate, an unmappable
            // character) goes the general way, as the rest of the same call: `dst` holds
            // room for it as before.
            let done = encoder.encode_utf16_prefix(src, dst);
            if done == src.len() {
                return (CoderResult::InputEmpty, done, done, false);
            }
            let kernels = self.kernels;
            let (result, read, written, had) =
                self.replacing(src.len() - done, &mut dst[done..], last, |read| {
                    Utf16Source::new(&src[done + read..], kernels)
                });
            return (result, done + read, done + written, had);
        }
        let kernels = self.kernels;
        self.replacing(src.len(), dst, last, |read| {
            Utf16Source::new(&src[read..], kernels)
        })
    }

    /// Encodes from UTF-8 into the spare capacity of a `Vec`, writing `&#N;` for unmappable
    /// characters: appends, never reallocates. Requires the `alloc` feature.
    ///
    /// ```
    /// use simdenc::{CoderResult, BIG5};
    /// let mut encoder = BIG5.new_encoder();
    /// let mut out = Vec::with_capacity(32);
    /// let (result, read, _) = encoder.encode_from_utf8_to_vec("\u{4E2D}\u{6587}", &mut out, true);
    /// assert_eq!((result, read, out.as_slice()), (CoderResult::InputEmpty, 6, &b"\xA4\xA4\xA4\xE5"[..]));
    /// ```
    #[cfg(feature = "alloc")]
    pub fn encode_from_utf8_to_vec(
        &mut self,
        src: &str,
        dst: &mut Vec<u8>,
        last: bool,
    ) -> (CoderResult, usize, bool) {
        let mut out = (CoderResult::InputEmpty, 0, false);
        append_to_vec(dst, |bytes| {
            let (result, read, written, had) = self.encode_from_utf8_out(src, bytes, last, true);
            out = (result, read, had);
            written
        });
        out
    }

    /// [`Encoder::encode_from_utf8_to_vec`] from UTF-16 (for `text`, whose UTF-16 encode
    /// writes a `Vec`; encoding_rs has no such method).
    #[cfg(feature = "alloc")]
    pub(crate) fn encode_from_utf16_to_vec(
        &mut self,
        src: &[u16],
        dst: &mut Vec<u8>,
        last: bool,
    ) -> (CoderResult, usize, bool) {
        let mut out = (CoderResult::InputEmpty, 0, false);
        append_to_vec(dst, |bytes| {
            let (result, read, written, had) = self.encode_from_utf16_out(src, bytes, last);
            out = (result, read, had);
            written
        });
        out
    }

    /// Encodes from UTF-8 into the spare capacity of a `Vec`, without replacement. Requires
    /// the `alloc` feature.
    ///
    /// ```
    /// use simdenc::{EncoderResult, KOI8_R};
    /// let mut encoder = KOI8_R.new_encoder();
    /// let mut out = Vec::with_capacity(8);
    /// let (result, read) = encoder.encode_from_utf8_to_vec_without_replacement("\u{41C}\u{3042}", &mut out, true);
    /// assert_eq!((result, read, out.as_slice()), (EncoderResult::Unmappable('\u{3042}'), 5, &b"\xED"[..]));
    /// ```
    #[cfg(feature = "alloc")]
    pub fn encode_from_utf8_to_vec_without_replacement(
        &mut self,
        src: &str,
        dst: &mut Vec<u8>,
        last: bool,
    ) -> (EncoderResult, usize) {
        let mut out = (EncoderResult::InputEmpty, 0);
        append_to_vec(dst, |bytes| {
            let (result, read, written) =
                self.encode_from_utf8_without_replacement_out(src, bytes, last, true);
            out = (result, read);
            written
        });
        out
    }

    /// The html-mode loop shared by the UTF-8 and UTF-16 entry points: the state machine
    /// runs with `NCR_EXTRA` bytes held back so that an unmappable character's `&#N;` always
    /// fits after it (encoding_rs's scheme).
    fn replacing<S: Source>(
        &mut self,
        src_len: usize,
        dst: &mut OutBytes,
        last: bool,
        source: impl Fn(usize) -> S,
    ) -> (CoderResult, usize, usize, bool) {
        if matches!(self.variant, VariantEncoder::Utf8(_)) {
            // Nothing is unmappable: no room held back, one pass (what the loop below does
            // then, without its set-up, which costs short inputs).
            let mut src = source(0);
            let mut out = ByteDest::new(dst);
            let status = match Self::run(&mut self.variant, &mut src, &mut out, last) {
                EncoderResult::OutputFull => CoderResult::OutputFull,
                _ => CoderResult::InputEmpty,
            };
            return (status, src.read(), out.written(), false);
        }
        let extra = self.ncr_extra();
        let done = |read: usize, this: &Self| read == src_len && !(last && this.has_pending_state());
        let Some(effective_len) = dst.len().checked_sub(extra) else {
            // Not even room for one reference: make no progress, but report the truth.
            if src_len == 0 && !(last && self.has_pending_state()) {
                return (CoderResult::InputEmpty, 0, 0, false);
            }
            return (CoderResult::OutputFull, 0, 0, false);
        };
        let (mut read, mut written, mut had_unmappables) = (0, 0, false);
        // Where the source's vector kernels may start again (`codecs::tuning::KERNEL_BACKOFF`),
        // carried from one source to the next across the unmappable characters (one source
        // for the whole call instead made short UTF-16 encodes slower).
        let (mut kernels_from, mut backoff): (usize, usize) = (0, 0);
        loop {
            let mut out = ByteDest::new(&mut dst[written..effective_len]);
            let mut src = source(read);
            src.set_kernels_from(kernels_from.saturating_sub(read), backoff);
            let result = Self::run(&mut self.variant, &mut src, &mut out, last);
            let (from, next) = src.kernels_from();
            (kernels_from, backoff) = (read + from, next);
            read += src.read();
            written += out.written();
            match result {
                EncoderResult::InputEmpty => {
                    return (CoderResult::InputEmpty, read, written, had_unmappables);
                }
                EncoderResult::OutputFull => {
                    return (CoderResult::OutputFull, read, written, had_unmappables);
                }
                EncoderResult::Unmappable(c) => {
                    had_unmappables = true;
                    written += write_ncr(c, &mut dst[written..]);
                    if written >= effective_len {
                        let status = if done(read, self) {
                            CoderResult::InputEmpty
                        } else {
                            CoderResult::OutputFull
                        };
                        return (status, read, written, had_unmappables);
                    }
                }
            }
        }
    }
}

/// The encoding, as in encoding_rs; the rest of the state is not shown.
///
/// ```
/// let encoder = simdenc::UTF_16LE.new_encoder();
/// assert_eq!(
///     format!("{encoder:?}"),
///     r#"Encoder { encoding: Encoding { name: "UTF-8", .. }, .. }"#
/// );
/// ```
impl fmt::Debug for Encoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encoder")
            .field("encoding", self.encoding)
            .finish_non_exhaustive()
    }
}

/// Writes `&#N;` for `c` into `dst` (which has at least `NCR_EXTRA` bytes); returns its length.
fn write_ncr(c: char, dst: &mut OutBytes) -> usize {
    let mut digits = [0u8; 7];
    let mut n = u32::from(c);
    let mut len = 0;
    loop {
        digits[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    dst[0].write(b'&');
    dst[1].write(b'#');
    for i in 0..len {
        dst[2 + i].write(digits[len - 1 - i]);
    }
    dst[2 + len].write(b';');
    len + 3
}

/// Appends to `dst` through `f`, which writes bytes at the start of the spare capacity it is
/// handed (uninitialised memory: nothing is zeroed first) and returns how many it wrote.
/// Never reallocates. (The encoders' `Vec` output, and the decoders' for `io`.)
#[cfg(feature = "alloc")]
#[allow(unsafe_code)]
pub(crate) fn append_to_vec(dst: &mut Vec<u8>, f: impl FnOnce(&mut OutBytes) -> usize) {
    let spare = dst.spare_capacity_mut();
    let room = spare.len();
    let written = f(spare);
    assert!(written <= room, "encoder reported more than its output");
    // SAFETY: `written <= capacity - len` (asserted), and the encoder wrote the first
    // `written` bytes of the spare capacity (every writer stores initialised bytes:
    // `simd::OutBytes`), so the new length covers initialised bytes only.
    unsafe { dst.set_len(dst.len() + written) }
}

#[cfg(test)]
mod tests {
    use super::write_ncr;
    use crate::{BIG5, CoderResult, EUC_JP, EUC_KR, GB18030, GBK, SHIFT_JIS};

    /// The short path into the stateless CJK encodings (`encode_short_multibyte`), through
    /// the public `encode_from_utf8`: every BMP scalar value and some astral ones in pieces
    /// of 16 characters (below `SHORT_UTF8_MIN` bytes), against the standard's encoder, with
    /// ASCII between some of them; each piece also cut at every character boundary.
    #[test]
    fn short_multibyte_inputs_encode_as_spec() {
        let all: Vec<char> = (0x20..=0xFFFFu32)
            .chain((0x10000..0x10100).step_by(37))
            .filter_map(char::from_u32)
            .collect();
        for enc in [SHIFT_JIS, EUC_JP, EUC_KR, BIG5, GB18030, GBK] {
            for (k, piece) in all.chunks(16).enumerate() {
                let (head, tail) = piece.split_at(piece.len().min(8));
                let mut text: String = head.iter().collect();
                if k % 3 == 0 {
                    text.push_str("ab c");
                }
                text.extend(tail);
                for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                    let text = &text[..end];
                    let want = crate::spec::run_encoder(enc, text, crate::spec::ErrorMode::Html).output;
                    let mut buf = vec![0u8; 10 * text.len() + 16];
                    let (result, read, written, _) = enc.new_encoder().encode_from_utf8(text, &mut buf, true);
                    assert_eq!(
                        (result, read),
                        (CoderResult::InputEmpty, text.len()),
                        "{}",
                        enc.name()
                    );
                    assert_eq!(buf[..written], want[..], "{} {text:?}", enc.name());
                }
            }
        }
    }

    #[test]
    fn ncr_digits() {
        for (c, s) in [
            ('\0', "&#0;"),
            ('\u{e9}', "&#233;"),
            ('\u{10FFFF}', "&#1114111;"),
            ('\u{FFFD}', "&#65533;"),
        ] {
            let mut buf = [0u8; 10];
            let n = write_ncr(c, crate::simd::as_out(&mut buf));
            assert_eq!(&buf[..n], s.as_bytes());
        }
    }
}
