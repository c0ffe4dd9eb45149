//! The `Encoding` methods that create decoders and encoders and convert whole buffers, as in
//! encoding_rs 0.8. Input that needs no conversion (valid UTF-8 for UTF-8; ASCII for the
//! ASCII-compatible encodings) is returned borrowed, without copying. The methods that
//! return a `Cow` need the `alloc` feature, as in encoding_rs.

#[cfg(feature = "alloc")]
use alloc::borrow::Cow;
#[cfg(feature = "alloc")]
use alloc::string::String;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::decoder::{BomHandling, Decoder};
use crate::encoder::Encoder;
use crate::encoding::Encoding;
#[cfg(feature = "alloc")]
use crate::results::{CoderResult, DecoderResult};
#[cfg(feature = "alloc")]
use crate::{ISO_2022_JP, UTF_8};

impl Encoding {
    /// A decoder that sniffs for a byte order mark first, as the standard's "decode" does:
    /// a BOM selects UTF-8, UTF-16BE or UTF-16LE (whatever this encoding is) and is removed.
    ///
    /// ```
    /// let mut decoder = simdenc::WINDOWS_1252.new_decoder();
    /// let mut out = String::with_capacity(8);
    /// let _ = decoder.decode_to_string(b"\xEF\xBB\xBF\xC3\xA9", &mut out, true);
    /// assert_eq!(out, "\u{e9}");
    /// assert_eq!(decoder.encoding(), simdenc::UTF_8);
    /// ```
    #[inline]
    pub fn new_decoder(&'static self) -> Decoder {
        Decoder::new(self, Some(BomHandling::Sniff))
    }

    /// A decoder that removes this encoding's own BOM (for UTF-8, UTF-16BE and UTF-16LE) and
    /// otherwise treats a BOM as data: the `TextDecoder` behaviour without `ignoreBOM`.
    ///
    /// ```
    /// let mut decoder = simdenc::UTF_8.new_decoder_with_bom_removal();
    /// let mut out = String::with_capacity(8);
    /// let _ = decoder.decode_to_string(b"\xEF\xBB\xBFa", &mut out, true);
    /// assert_eq!(out, "a");
    /// ```
    #[inline]
    pub fn new_decoder_with_bom_removal(&'static self) -> Decoder {
        Decoder::new(self, Some(BomHandling::Remove))
    }

    /// A decoder that treats a BOM as data.
    ///
    /// ```
    /// let mut decoder = simdenc::UTF_8.new_decoder_without_bom_handling();
    /// let mut out = String::with_capacity(8);
    /// let _ = decoder.decode_to_string(b"\xEF\xBB\xBFa", &mut out, true);
    /// assert_eq!(out, "\u{FEFF}a");
    /// ```
    #[inline]
    pub fn new_decoder_without_bom_handling(&'static self) -> Decoder {
        Decoder::new(self, None)
    }

    /// An encoder for this encoding's output encoding (UTF-8 for UTF-16BE, UTF-16LE and
    /// replacement).
    ///
    /// ```
    /// assert_eq!(simdenc::REPLACEMENT.new_encoder().encoding(), simdenc::UTF_8);
    /// ```
    #[inline]
    pub fn new_encoder(&'static self) -> Encoder {
        Encoder::new(self)
    }

    /// Decodes `bytes` with BOM sniffing (the standard's "decode"), replacing malformed
    /// sequences. Returns the text, the encoding actually used, and whether there were errors.
    ///
    /// ```
    /// let (text, used, had_errors) = simdenc::SHIFT_JIS.decode(b"\x93\xfa\x96\x7b");
    /// assert_eq!((&*text, used, had_errors), ("日本", simdenc::SHIFT_JIS, false));
    /// let (text, used, _) = simdenc::SHIFT_JIS.decode(b"\xFE\xFF\x00A");
    /// assert_eq!((&*text, used), ("A", simdenc::UTF_16BE));
    /// ```
    ///
    /// Requires the `alloc` feature.
    #[cfg(feature = "alloc")]
    pub fn decode<'a>(&'static self, bytes: &'a [u8]) -> (Cow<'a, str>, &'static Encoding, bool) {
        let (encoding, without_bom) = match Encoding::for_bom(bytes) {
            Some((encoding, len)) => (encoding, &bytes[len..]),
            None => (self, bytes),
        };
        let (text, had_errors) = encoding.decode_without_bom_handling(without_bom);
        (text, encoding, had_errors)
    }

    /// Decodes `bytes`, removing this encoding's own BOM (UTF-8, UTF-16BE, UTF-16LE only).
    ///
    /// ```
    /// let (text, had_errors) = simdenc::UTF_16LE.decode_with_bom_removal(b"\xFF\xFEa\x00");
    /// assert_eq!((&*text, had_errors), ("a", false));
    /// ```
    ///
    /// Requires the `alloc` feature.
    #[cfg(feature = "alloc")]
    pub fn decode_with_bom_removal<'a>(&'static self, bytes: &'a [u8]) -> (Cow<'a, str>, bool) {
        let bytes = match Encoding::for_bom(bytes) {
            Some((encoding, len)) if encoding == self => &bytes[len..],
            _ => bytes,
        };
        self.decode_without_bom_handling(bytes)
    }

    /// Decodes `bytes` with no BOM handling, replacing malformed sequences.
    ///
    /// ```
    /// let (text, had_errors) = simdenc::UTF_8.decode_without_bom_handling(b"a\xC0b");
    /// assert_eq!((&*text, had_errors), ("a\u{FFFD}b", true));
    /// ```
    ///
    /// Requires the `alloc` feature.
    #[cfg(feature = "alloc")]
    pub fn decode_without_bom_handling<'a>(&'static self, bytes: &'a [u8]) -> (Cow<'a, str>, bool) {
        let valid = self.unchanged_prefix_len(bytes);
        if valid == bytes.len() {
            return (Cow::Borrowed(as_str(bytes)), false);
        }
        let mut decoder = self.new_decoder_without_bom_handling();
        let rest = &bytes[valid..];
        let capacity = decoder
            .max_utf8_buffer_length(rest.len())
            .map(|n| n.saturating_add(valid));
        let mut out = String::with_capacity(capacity.unwrap_or(bytes.len()));
        out.push_str(as_str(&bytes[..valid]));
        let mut read = 0;
        let mut had_errors = false;
        loop {
            let (result, n, errors) = decoder.decode_to_string(&rest[read..], &mut out, true);
            read += n;
            had_errors |= errors;
            match result {
                CoderResult::InputEmpty => return (Cow::Owned(out), had_errors),
                CoderResult::OutputFull => out.reserve(rest.len() - read + 16),
            }
        }
    }

    /// Decodes `bytes` with no BOM handling; `None` at the first malformed sequence.
    ///
    /// ```
    /// assert_eq!(simdenc::EUC_KR.decode_without_bom_handling_and_without_replacement(b"\xC7\xD1").as_deref(), Some("\u{D55C}"));
    /// assert_eq!(simdenc::EUC_KR.decode_without_bom_handling_and_without_replacement(b"\xC7"), None);
    /// ```
    ///
    /// Requires the `alloc` feature.
    #[cfg(feature = "alloc")]
    pub fn decode_without_bom_handling_and_without_replacement<'a>(
        &'static self,
        bytes: &'a [u8],
    ) -> Option<Cow<'a, str>> {
        let valid = self.unchanged_prefix_len(bytes);
        if valid == bytes.len() {
            return Some(Cow::Borrowed(as_str(bytes)));
        }
        let mut decoder = self.new_decoder_without_bom_handling();
        let rest = &bytes[valid..];
        let capacity = decoder
            .max_utf8_buffer_length_without_replacement(rest.len())
            .map(|n| n.saturating_add(valid));
        let mut out = String::with_capacity(capacity.unwrap_or(bytes.len()));
        out.push_str(as_str(&bytes[..valid]));
        let mut read = 0;
        loop {
            let (result, n) = decoder.decode_to_string_without_replacement(&rest[read..], &mut out, true);
            read += n;
            match result {
                DecoderResult::InputEmpty => return Some(Cow::Owned(out)),
                DecoderResult::OutputFull => out.reserve(rest.len() - read + 16),
                DecoderResult::Malformed(..) => return None,
            }
        }
    }

    /// Encodes `string` into this encoding's output encoding, writing `&#N;` for unmappable
    /// characters (the standard's "encode", html mode). Returns the bytes, the encoding used,
    /// and whether anything was unmappable.
    ///
    /// ```
    /// let (bytes, used, had_unmappables) = simdenc::WINDOWS_1252.encode("\u{20AC}\u{3042}");
    /// assert_eq!((&*bytes, used, had_unmappables), (&b"\x80&#12354;"[..], simdenc::WINDOWS_1252, true));
    /// let (bytes, used, _) = simdenc::UTF_16BE.encode("a");
    /// assert_eq!((&*bytes, used), (&b"a"[..], simdenc::UTF_8));
    /// ```
    ///
    /// Requires the `alloc` feature.
    #[cfg(feature = "alloc")]
    pub fn encode<'a>(&'static self, string: &'a str) -> (Cow<'a, [u8]>, &'static Encoding, bool) {
        let output = self.output_encoding();
        let valid = if output == UTF_8 {
            string.len()
        } else {
            output.unchanged_prefix_len(string.as_bytes())
        };
        if valid == string.len() {
            return (Cow::Borrowed(string.as_bytes()), output, false);
        }
        let mut encoder = output.new_encoder();
        let rest = &string[valid..];
        let capacity = encoder
            .max_buffer_length_from_utf8_if_no_unmappables(rest.len())
            .map(|n| n.saturating_add(valid));
        let mut out = Vec::with_capacity(capacity.unwrap_or(string.len()));
        out.extend_from_slice(&string.as_bytes()[..valid]);
        let mut read = 0;
        let mut had_unmappables = false;
        loop {
            let (result, n, unmappables) = encoder.encode_from_utf8_to_vec(&rest[read..], &mut out, true);
            read += n;
            had_unmappables |= unmappables;
            match result {
                CoderResult::InputEmpty => return (Cow::Owned(out), output, had_unmappables),
                CoderResult::OutputFull => out.reserve((rest.len() - read).saturating_mul(2) + 16),
            }
        }
    }

    /// How many bytes at the start of `bytes` decode to themselves as ASCII in a fresh decoder
    /// of this encoding (all valid UTF-8 for UTF-8).
    #[cfg(feature = "alloc")]
    fn unchanged_prefix_len(&'static self, bytes: &[u8]) -> usize {
        if self == UTF_8 {
            Encoding::utf8_valid_up_to(bytes)
        } else if self == ISO_2022_JP {
            Encoding::iso_2022_jp_ascii_valid_up_to(bytes)
        } else if self.is_ascii_compatible() {
            Encoding::ascii_valid_up_to(bytes)
        } else {
            0
        }
    }

    /// The length of the longest prefix of `bytes` that is valid UTF-8 (as
    /// `std::str::from_utf8(bytes).map_err(|e| e.valid_up_to())`).
    ///
    /// ```
    /// assert_eq!(simdenc::Encoding::utf8_valid_up_to(b"ab\xC3\xA9\xFF"), 4);
    /// ```
    pub fn utf8_valid_up_to(bytes: &[u8]) -> usize {
        crate::simd::active().utf8_valid_up_to(bytes)
    }

    /// The length of the longest prefix of `bytes` that is ASCII.
    ///
    /// ```
    /// assert_eq!(simdenc::Encoding::ascii_valid_up_to(b"abc\x80d"), 3);
    /// ```
    pub fn ascii_valid_up_to(bytes: &[u8]) -> usize {
        crate::simd::active_ascii_prefix_len(bytes)
    }

    /// The length of the longest prefix of `bytes` that ISO-2022-JP's decoder, in its
    /// initial (ASCII) state, decodes to the same bytes as ASCII: ASCII without 0x0E, 0x0F and
    /// 0x1B (ESC starts an escape sequence; SO and SI are errors in ISO-2022-JP). As in
    /// encoding_rs; [`Encoding::decode`] borrows such input of ISO-2022-JP unchanged.
    ///
    /// ```
    /// use simdenc::Encoding;
    /// assert_eq!(Encoding::iso_2022_jp_ascii_valid_up_to(b"abc"), 3);
    /// assert_eq!(Encoding::iso_2022_jp_ascii_valid_up_to(b"ab\x1b$B"), 2);
    /// assert_eq!(Encoding::iso_2022_jp_ascii_valid_up_to(b"a\x0Eb"), 1);
    /// assert_eq!(Encoding::iso_2022_jp_ascii_valid_up_to(b"ab\x80"), 2);
    /// ```
    pub fn iso_2022_jp_ascii_valid_up_to(bytes: &[u8]) -> usize {
        /// SO, SI or ESC.
        #[inline(always)]
        fn shift(b: u8) -> bool {
            b | 1 == 0x0F || b == 0x1B
        }
        // The ASCII kernel measures the run; the three control bytes are rare in real text,
        // so the prefix is then checked for them 32 bytes at a time without an early exit in
        // the chunk (which the compiler vectorises), and only the chunk with one is searched.
        let ascii = &bytes[..Encoding::ascii_valid_up_to(bytes)];
        let mut start = 0;
        for chunk in ascii.chunks_exact(32) {
            if chunk.iter().fold(false, |any, &b| any | shift(b)) {
                break;
            }
            start += 32;
        }
        ascii[start..]
            .iter()
            .position(|&b| shift(b))
            .map_or(ascii.len(), |i| start + i)
    }
}

/// `bytes` as `&str`, without validating them again: callers pass only prefixes that
/// `unchanged_prefix_len` measured, which the UTF-8 validation or ASCII kernel found valid
/// (a second validation here would make `UTF_8.decode` of valid text cost two passes;
/// `docs/decisions.md`). Checked again in debug builds (every test) and by the fuzz targets.
#[cfg(feature = "alloc")]
#[allow(unsafe_code)]
pub(crate) fn as_str(bytes: &[u8]) -> &str {
    debug_assert!(core::str::from_utf8(bytes).is_ok(), "checked prefix is not UTF-8");
    // SAFETY: `bytes` is a prefix the validation or ASCII kernel accepted (above), and the
    // kernels' contract is that they accept exactly valid UTF-8 (every level is tested
    // against the scalar kernel and against `std::str::from_utf8`).
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use crate::Encoding;

    /// encoding_rs's definition, byte by byte.
    fn iso_2022_jp_ascii_reference(bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&b| b >= 0x80 || matches!(b, 0x0E | 0x0F | 0x1B))
            .unwrap_or(bytes.len())
    }

    #[test]
    fn iso_2022_jp_ascii_valid_up_to_every_stop_at_every_position() {
        // Every byte that stops the prefix, and a few that do not, at every position of
        // inputs around the kernels' blocks (up to 4 vectors of AVX-512) and the 32-byte
        // chunks of the control-byte check, with the active level's ASCII kernel.
        let stops = [0x0E, 0x0F, 0x1B, 0x80, 0xFF];
        let goes_on = [0x00, 0x0D, 0x10, 0x1A, 0x1C, 0x7F];
        for len in (0..=70).chain([127, 128, 129, 255, 256, 257]) {
            let base: alloc::vec::Vec<u8> = (0..len).map(|i| b"ab\x01\x0D\x10\x7F"[i % 6]).collect();
            assert_eq!(Encoding::iso_2022_jp_ascii_valid_up_to(&base), len);
            for at in 0..len {
                for b in stops.into_iter().chain(goes_on) {
                    let mut input = base.clone();
                    input[at] = b;
                    // A second stop later must not matter.
                    if at + 7 < len {
                        input[at + 7] = 0x1B;
                    }
                    let got = Encoding::iso_2022_jp_ascii_valid_up_to(&input);
                    assert_eq!(got, iso_2022_jp_ascii_reference(&input), "{len} {at} {b:#x}");
                }
            }
        }
    }

    #[test]
    fn iso_2022_jp_ascii_prefix_is_what_decode_borrows() {
        use alloc::borrow::Cow;
        let (text, had_errors) = crate::ISO_2022_JP.decode_without_bom_handling(b"plain ascii\r\n");
        assert!(matches!(text, Cow::Borrowed("plain ascii\r\n")) && !had_errors);
        let (text, _) = crate::ISO_2022_JP.decode_without_bom_handling(b"a\x1b(Bb");
        assert!(matches!(text, Cow::Owned(ref s) if s == "ab"));
    }
}
