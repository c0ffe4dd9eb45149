//! [`Decoder`]: streaming decoding into caller-owned UTF-8 or UTF-16 buffers, with the same
//! names, signatures and semantics as encoding_rs 0.8.
//!
//! This layer owns the byte order mark (sniffing, removal or none) and the replacement of
//! malformed sequences; the state machines in `codecs/` own everything else.

#[cfg(feature = "alloc")]
use alloc::string::String;
#[cfg(feature = "std")]
use alloc::vec::Vec;
use core::fmt;

use crate::codecs::VariantDecoder;
use crate::codecs::dest::{Dest, Utf8Dest, Utf16Dest};
#[cfg(feature = "std")]
use crate::encoder::append_to_vec;
use crate::encoding::Encoding;
use crate::results::{CoderResult, DecoderResult, Status};
use crate::simd::{Kernels, OutBytes, as_out};
use crate::{UTF_8, UTF_16BE, UTF_16LE};

/// How a decoder treats a byte order mark at the start of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BomMode {
    /// The standard's "decode": any of the three BOMs selects its encoding and is removed.
    Sniff,
    /// Only the BOM of the decoder's own encoding (UTF-8, UTF-16BE, UTF-16LE) is removed.
    Remove,
}

/// Where the decoder is in the stream, as far as the BOM is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// Still looking at the first bytes; `seen[..len]` are held.
    Looking { mode: BomMode, seen: [u8; 3], len: u8 },
    /// Decided there is no BOM; `held[fed..len]` still have to go through the decoder.
    Feeding { held: [u8; 3], len: u8, fed: u8 },
    /// Past the start.
    Converting,
}

/// A converter that decodes a byte stream into Unicode according to an encoding, in a
/// streaming (incremental) manner.
///
/// The `decode_*` methods take an input buffer (`src`) and an output buffer (`dst`), both
/// owned by the caller, and decode until one of these happens:
/// 1. A malformed byte sequence is found (`*_without_replacement` variants only).
/// 2. The output buffer is too full for the next character (`OutputFull`).
/// 3. All the input has been processed (`InputEmpty`).
///
/// They return the status, the number of bytes read, the number of code units written
/// (except for `String` output, whose length says it), and for the replacing variants whether
/// an error was replaced with U+FFFD in this call. Pass `last = true` with the final buffer
/// (possibly empty) so that an incomplete sequence at the end becomes an error.
///
/// Nothing is written beyond the reported number of code units. Room checks are exact: a
/// buffer that can hold the next character makes progress (4 bytes or 2 code units always do).
/// A buffer of at least `max_*_buffer_length*` never gets `OutputFull`.
///
/// ```
/// use simdenc::{CoderResult, SHIFT_JIS};
/// let mut decoder = SHIFT_JIS.new_decoder();
/// let mut out = String::with_capacity(32);
/// // A two-byte character split across two buffers.
/// let (result, read, _) = decoder.decode_to_string(b"a\x93", &mut out, false);
/// assert_eq!((result, read), (CoderResult::InputEmpty, 2));
/// let (result, read, had_errors) = decoder.decode_to_string(b"\xfa", &mut out, true);
/// assert_eq!((result, read, had_errors), (CoderResult::InputEmpty, 1, false));
/// assert_eq!(out, "a日");
/// ```
pub struct Decoder {
    encoding: &'static Encoding,
    variant: VariantDecoder,
    start: Start,
    kernels: &'static Kernels,
    /// Malformed sequences replaced with U+FFFD so far (one U+FFFD each).
    replaced: u64,
}

impl Decoder {
    #[inline]
    pub(crate) fn new(encoding: &'static Encoding, bom: Option<BomHandling>) -> Decoder {
        let start = match bom {
            Some(BomHandling::Sniff) => Start::Looking {
                mode: BomMode::Sniff,
                seen: [0; 3],
                len: 0,
            },
            Some(BomHandling::Remove) if [UTF_8, UTF_16BE, UTF_16LE].contains(&encoding) => Start::Looking {
                mode: BomMode::Remove,
                seen: [0; 3],
                len: 0,
            },
            _ => Start::Converting,
        };
        Decoder {
            encoding,
            variant: VariantDecoder::new(encoding),
            start,
            kernels: crate::simd::active(),
            replaced: 0,
        }
    }

    /// How many malformed sequences the replacing methods have replaced with U+FFFD so far:
    /// exactly the U+FFFD they wrote for errors, never one the input itself encodes.
    #[cfg(feature = "std")]
    pub(crate) fn replaced(&self) -> u64 {
        self.replaced
    }

    /// The encoding this decoder decodes: the one it was created for, or the one a byte order
    /// mark selected (only with BOM sniffing, once the BOM has been seen).
    ///
    /// ```
    /// use simdenc::{UTF_16LE, WINDOWS_1252};
    /// let mut decoder = WINDOWS_1252.new_decoder();
    /// let mut out = [0u16; 8];
    /// let _ = decoder.decode_to_utf16(b"\xFF\xFEa\x00", &mut out, true);
    /// assert_eq!(decoder.encoding(), UTF_16LE);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Bytes held for BOM detection or not yet fed to the state machine.
    fn start_held(&self) -> usize {
        match self.start {
            Start::Looking { len, .. } => usize::from(len),
            Start::Feeding { len, fed, .. } => usize::from(len - fed),
            Start::Converting => 0,
        }
    }

    /// `bound` of the state machine for `n` bytes (the held ones included); while a BOM may
    /// still switch the decoder to UTF-8 or UTF-16 (BOM sniffing, at the start), the largest
    /// of the three decoders' bounds (held bytes that are no BOM go to this encoding's).
    fn bound(&self, n: usize, bound: fn(&VariantDecoder, usize) -> Option<usize>) -> Option<usize> {
        let own = bound(&self.variant, n)?;
        if !matches!(
            self.start,
            Start::Looking {
                mode: BomMode::Sniff,
                ..
            }
        ) {
            return Some(own);
        }
        let utf8 = bound(&VariantDecoder::new(UTF_8), n)?;
        let utf16 = bound(&VariantDecoder::new(UTF_16LE), n)?;
        Some(own.max(utf8).max(utf16))
    }

    /// The UTF-8 buffer size that guarantees `decode_to_utf8` / `decode_to_str` do not return
    /// `OutputFull` for `byte_length` more bytes; `None` if it overflows `usize`.
    ///
    /// ```
    /// let decoder = simdenc::EUC_KR.new_decoder();
    /// assert!(decoder.max_utf8_buffer_length(100).unwrap() >= 300);
    /// assert_eq!(decoder.max_utf8_buffer_length(usize::MAX), None);
    /// ```
    pub fn max_utf8_buffer_length(&self, byte_length: usize) -> Option<usize> {
        let n = byte_length.checked_add(self.start_held())?;
        self.bound(n, VariantDecoder::max_utf8_buffer_length)
    }

    /// As [`Decoder::max_utf8_buffer_length`], for the `*_without_replacement` variants.
    ///
    /// ```
    /// let decoder = simdenc::UTF_8.new_decoder_without_bom_handling();
    /// assert_eq!(decoder.max_utf8_buffer_length_without_replacement(10), Some(10));
    /// ```
    pub fn max_utf8_buffer_length_without_replacement(&self, byte_length: usize) -> Option<usize> {
        let n = byte_length.checked_add(self.start_held())?;
        self.bound(n, VariantDecoder::max_utf8_buffer_length_without_replacement)
    }

    /// The UTF-16 buffer size that guarantees `decode_to_utf16*` do not return `OutputFull`
    /// for `byte_length` more bytes; `None` if it overflows `usize`.
    ///
    /// ```
    /// let decoder = simdenc::UTF_16LE.new_decoder_without_bom_handling();
    /// assert!(decoder.max_utf16_buffer_length(10).unwrap() >= 5);
    /// ```
    pub fn max_utf16_buffer_length(&self, byte_length: usize) -> Option<usize> {
        let n = byte_length.checked_add(self.start_held())?;
        self.bound(n, VariantDecoder::max_utf16_buffer_length)
    }

    /// How many bytes at the start of `bytes` would decode to the code points of the same
    /// value (so that a caller can treat them as Latin-1), given the decoder's current state;
    /// `None` if the decoder is not in a neutral state (including while looking for a BOM) or
    /// its encoding never decodes that way (UTF-16, replacement).
    ///
    /// ```
    /// let decoder = simdenc::WINDOWS_1252.new_decoder_without_bom_handling();
    /// assert_eq!(decoder.latin1_byte_compatible_up_to(b"ab\xE9\x80"), Some(3));
    /// ```
    pub fn latin1_byte_compatible_up_to(&self, bytes: &[u8]) -> Option<usize> {
        match self.start {
            Start::Converting => self.variant.latin1_byte_compatible_up_to(bytes),
            _ => None,
        }
    }

    /// Decodes into UTF-8, without replacement: stops at each malformed sequence.
    ///
    /// ```
    /// use simdenc::{DecoderResult, EUC_JP};
    /// let mut decoder = EUC_JP.new_decoder_without_bom_handling();
    /// let mut out = [0u8; 16];
    /// let (result, read, written) =
    ///     decoder.decode_to_utf8_without_replacement(b"x\xA4\x41", &mut out, true);
    /// // The standard restores the ASCII byte after a bad lead: it is not consumed.
    /// assert_eq!((result, read, written), (DecoderResult::Malformed(1, 0), 2, 1));
    /// ```
    pub fn decode_to_utf8_without_replacement(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> (DecoderResult, usize, usize) {
        self.decode_to_utf8_without_replacement_out(src, as_out(dst), last)
    }

    /// [`Decoder::decode_to_utf8_without_replacement`] into output that may be
    /// uninitialised; `dst[..written]` is written, with whole UTF-8 characters only.
    #[inline]
    fn decode_to_utf8_without_replacement_out(
        &mut self,
        src: &[u8],
        dst: &mut OutBytes,
        last: bool,
    ) -> (DecoderResult, usize, usize) {
        let mut dst = Utf8Dest::new(dst, self.kernels);
        let (result, read) = self.run(src, &mut dst, last, false);
        (result.get(), read, dst.written())
    }

    /// Decodes into UTF-8, replacing malformed sequences with U+FFFD.
    ///
    /// ```
    /// use simdenc::{CoderResult, UTF_8};
    /// let mut decoder = UTF_8.new_decoder();
    /// let mut out = [0u8; 16];
    /// let (result, read, written, had_errors) = decoder.decode_to_utf8(b"\xF0\x90\x80!", &mut out, true);
    /// assert_eq!((result, read, had_errors), (CoderResult::InputEmpty, 4, true));
    /// assert_eq!(&out[..written], "\u{FFFD}!".as_bytes());
    /// ```
    pub fn decode_to_utf8(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        self.decode_to_utf8_out(src, as_out(dst), last)
    }

    /// [`Decoder::decode_to_utf8`] into output that may be uninitialised; `dst[..written]`
    /// is written, with whole UTF-8 characters only.
    #[inline]
    fn decode_to_utf8_out(
        &mut self,
        src: &[u8],
        dst: &mut OutBytes,
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        let mut dst = Utf8Dest::new(dst, self.kernels);
        let (result, read, had_errors) = self.run_replacing(src, &mut dst, last);
        (result, read, dst.written(), had_errors)
    }

    /// Decodes into UTF-16, without replacement.
    ///
    /// ```
    /// use simdenc::{DecoderResult, UTF_16BE};
    /// let mut decoder = UTF_16BE.new_decoder_without_bom_handling();
    /// let mut out = [0u16; 4];
    /// let (result, _, written) = decoder.decode_to_utf16_without_replacement(b"\x00a\xDC\x00", &mut out, true);
    /// assert_eq!((result, &out[..written]), (DecoderResult::Malformed(2, 0), &[0x61][..]));
    /// ```
    pub fn decode_to_utf16_without_replacement(
        &mut self,
        src: &[u8],
        dst: &mut [u16],
        last: bool,
    ) -> (DecoderResult, usize, usize) {
        let mut dst = Utf16Dest::new(dst, self.kernels);
        let (result, read) = self.run(src, &mut dst, last, false);
        (result.get(), read, dst.written())
    }

    /// Decodes into UTF-16, replacing malformed sequences with U+FFFD.
    ///
    /// ```
    /// use simdenc::{CoderResult, BIG5};
    /// let mut decoder = BIG5.new_decoder();
    /// let mut out = [0u16; 8];
    /// // Big5 pointer 1133 decodes to two code points.
    /// let (result, read, written, _) = decoder.decode_to_utf16(b"\x88\x62", &mut out, true);
    /// assert_eq!((result, read, &out[..written]), (CoderResult::InputEmpty, 2, &[0xCA, 0x304][..]));
    /// ```
    pub fn decode_to_utf16(
        &mut self,
        src: &[u8],
        dst: &mut [u16],
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        let mut dst = Utf16Dest::new(dst, self.kernels);
        let (result, read, had_errors) = self.run_replacing(src, &mut dst, last);
        (result, read, dst.written(), had_errors)
    }

    /// Decodes into a `&mut str`, without replacement. Bytes of `dst` past the returned
    /// length are left as they were, except continuation bytes right after it, which become
    /// 0 so that `dst` stays a `str` (as in encoding_rs).
    ///
    /// ```
    /// use simdenc::{DecoderResult, WINDOWS_1251};
    /// let mut decoder = WINDOWS_1251.new_decoder();
    /// let mut buf = String::from("          ");
    /// let (result, read, written) =
    ///     decoder.decode_to_str_without_replacement(b"\xcf\xf0\xe8", &mut buf, true);
    /// assert_eq!((result, read), (DecoderResult::InputEmpty, 3));
    /// assert_eq!(&buf[..written], "При");
    /// ```
    pub fn decode_to_str_without_replacement(
        &mut self,
        src: &[u8],
        dst: &mut str,
        last: bool,
    ) -> (DecoderResult, usize, usize) {
        let mut out = (DecoderResult::InputEmpty, 0, 0);
        crate::codecs::str_bytes::with_str_bytes(dst, |bytes| {
            out = self.decode_to_utf8_without_replacement(src, bytes, last);
            out.2
        });
        out
    }

    /// Decodes into a `&mut str`, replacing malformed sequences with U+FFFD. Bytes of `dst`
    /// past the returned length are left as they were, except continuation bytes right after
    /// it, which become 0 so that `dst` stays a `str` (as in encoding_rs).
    ///
    /// ```
    /// use simdenc::{CoderResult, GBK};
    /// let mut decoder = GBK.new_decoder();
    /// let mut buf = String::from("          ");
    /// let (result, read, written, had_errors) = decoder.decode_to_str(b"\xc4\xe3\xba\xc3", &mut buf, true);
    /// assert_eq!((result, read, had_errors), (CoderResult::InputEmpty, 4, false));
    /// assert_eq!(&buf[..written], "你好");
    /// ```
    pub fn decode_to_str(
        &mut self,
        src: &[u8],
        dst: &mut str,
        last: bool,
    ) -> (CoderResult, usize, usize, bool) {
        let mut out = (CoderResult::InputEmpty, 0, 0, false);
        crate::codecs::str_bytes::with_str_bytes(dst, |bytes| {
            out = self.decode_to_utf8(src, bytes, last);
            out.2
        });
        out
    }

    /// Decodes into the spare capacity of a `String`, without replacement: appends, never
    /// reallocates. Returns the status and the number of bytes read. Requires the `alloc`
    /// feature.
    ///
    /// ```
    /// use simdenc::{DecoderResult, UTF_8};
    /// let mut decoder = UTF_8.new_decoder();
    /// let mut out = String::with_capacity(8);
    /// let (result, read) = decoder.decode_to_string_without_replacement(b"\xEF\xBB\xBFok", &mut out, true);
    /// assert_eq!((result, read, out.as_str()), (DecoderResult::InputEmpty, 5, "ok"));
    /// ```
    #[cfg(feature = "alloc")]
    pub fn decode_to_string_without_replacement(
        &mut self,
        src: &[u8],
        dst: &mut String,
        last: bool,
    ) -> (DecoderResult, usize) {
        let mut out = (DecoderResult::InputEmpty, 0);
        append_to_string(dst, |bytes| {
            let (result, read, written) = self.decode_to_utf8_without_replacement_out(src, bytes, last);
            out = (result, read);
            written
        });
        out
    }

    /// Decodes into the spare capacity of a `String`, replacing malformed sequences with
    /// U+FFFD: appends, never reallocates. Returns the status, bytes read, and whether an
    /// error was replaced. Requires the `alloc` feature.
    ///
    /// ```
    /// use simdenc::{CoderResult, ISO_2022_JP};
    /// let mut decoder = ISO_2022_JP.new_decoder();
    /// let mut out = String::with_capacity(16);
    /// let (result, read, had_errors) = decoder.decode_to_string(b"\x1b$B$\"\x1b(B!", &mut out, true);
    /// assert_eq!((result, read, had_errors), (CoderResult::InputEmpty, 9, false));
    /// assert_eq!(out, "\u{3042}!");
    /// ```
    #[cfg(feature = "alloc")]
    pub fn decode_to_string(
        &mut self,
        src: &[u8],
        dst: &mut String,
        last: bool,
    ) -> (CoderResult, usize, bool) {
        let mut out = (CoderResult::InputEmpty, 0, false);
        append_to_string(dst, |bytes| {
            let (result, read, written, had_errors) = self.decode_to_utf8_out(src, bytes, last);
            out = (result, read, had_errors);
            written
        });
        out
    }

    /// [`Decoder::decode_to_string`] into the spare capacity of a `Vec<u8>` (for `io`'s
    /// `read_to_end`; encoding_rs has no such method).
    #[cfg(feature = "std")]
    pub(crate) fn decode_to_vec(
        &mut self,
        src: &[u8],
        dst: &mut Vec<u8>,
        last: bool,
    ) -> (CoderResult, usize, bool) {
        let mut out = (CoderResult::InputEmpty, 0, false);
        append_to_vec(dst, |bytes| {
            let (result, read, written, had_errors) = self.decode_to_utf8_out(src, bytes, last);
            out = (result, read, had_errors);
            written
        });
        out
    }

    /// [`Decoder::decode_to_string_without_replacement`] into the spare capacity of a
    /// `Vec<u8>`.
    #[cfg(feature = "std")]
    pub(crate) fn decode_to_vec_without_replacement(
        &mut self,
        src: &[u8],
        dst: &mut Vec<u8>,
        last: bool,
    ) -> (DecoderResult, usize) {
        let mut out = (DecoderResult::InputEmpty, 0);
        append_to_vec(dst, |bytes| {
            let (result, read, written) = self.decode_to_utf8_without_replacement_out(src, bytes, last);
            out = (result, read);
            written
        });
        out
    }

    /// The replacing loop: the state machine writes U+FFFD and returns `Malformed` so that
    /// the error is known; go on until the input is done or the output is full.
    #[inline(always)]
    fn run_replacing<D: Dest>(&mut self, src: &[u8], dst: &mut D, last: bool) -> (CoderResult, usize, bool) {
        let mut total_read = 0;
        let mut had_errors = false;
        loop {
            let (result, read) = self.run(&src[total_read..], dst, last, true);
            total_read += read;
            match result.get() {
                DecoderResult::Malformed(..) => {
                    had_errors = true;
                    self.replaced += 1;
                }
                other => return (other.into_coder(), total_read, had_errors),
            }
        }
    }

    /// BOM handling, then the state machine.
    ///
    /// Past the start, straight to the state machine: inlined, so that a call costs one
    /// function less (short inputs feel it).
    #[inline(always)]
    fn run<D: Dest>(&mut self, src: &[u8], dst: &mut D, last: bool, replace: bool) -> (Status, usize) {
        if let Start::Converting = self.start {
            return self.variant.decode(src, dst, last, replace);
        }
        self.run_start(src, dst, last, replace)
    }

    /// [`Decoder::run`] at the start of the stream: the BOM, then the state machine.
    #[inline(never)]
    fn run_start<D: Dest>(&mut self, src: &[u8], dst: &mut D, last: bool, replace: bool) -> (Status, usize) {
        let mut read = 0;
        if let Start::Looking { len: 0, .. } = self.start
            && let Some(&first) = src.first()
            && !matches!(first, 0xEF | 0xFE | 0xFF)
        {
            // No BOM starts with this byte: decided at once, with nothing to hold and replay
            // (the common case, and on short inputs the cost of the BOM logic shows).
            self.start = Start::Converting;
        }
        if let Start::Looking {
            mode,
            mut seen,
            mut len,
        } = self.start
        {
            // Take bytes until the BOM question is decided.
            let decided = loop {
                if let Some((encoding, bom_len)) = self.bom_match(mode, &seen[..usize::from(len)]) {
                    if usize::from(len) == bom_len {
                        break Some(encoding);
                    }
                } else if !self.bom_prefix(mode, &seen[..usize::from(len)]) {
                    break None;
                }
                match src.get(read) {
                    Some(&b) if usize::from(len) < seen.len() => {
                        seen[usize::from(len)] = b;
                        len += 1;
                        read += 1;
                    }
                    _ if last => break None,
                    _ => {
                        self.start = Start::Looking { mode, seen, len };
                        return (Status::INPUT_EMPTY, read);
                    }
                }
            };
            match decided {
                Some(encoding) => {
                    if encoding != self.encoding {
                        self.encoding = encoding;
                        self.variant = VariantDecoder::new(encoding);
                    }
                    self.start = Start::Converting;
                }
                None => {
                    self.start = Start::Feeding {
                        held: seen,
                        len,
                        fed: 0,
                    }
                }
            }
        }
        if let Start::Feeding { held, len, fed } = self.start {
            // The held bytes go first; with `last` only if nothing of `src` follows them.
            let rest = &held[usize::from(fed)..usize::from(len)];
            let (result, fed_now) = self.variant.decode(rest, dst, last && read == src.len(), replace);
            let fed = fed + fed_now as u8;
            self.start = if fed == len {
                Start::Converting
            } else {
                Start::Feeding { held, len, fed }
            };
            match result.get() {
                DecoderResult::InputEmpty => {}
                DecoderResult::OutputFull => return (result, read),
                // Held bytes not yet fed count as read after the malformed sequence.
                DecoderResult::Malformed(bad, after) => {
                    return (Status::malformed(bad, after + (len - fed)), read);
                }
            }
        }
        let (result, n) = self.variant.decode(&src[read..], dst, last, replace);
        (result, read + n)
    }

    /// The BOM that `seen` is, complete, for `mode`: `(encoding, length)`.
    fn bom_match(&self, mode: BomMode, seen: &[u8]) -> Option<(&'static Encoding, usize)> {
        let (encoding, len) = Encoding::for_bom(seen)?;
        match mode {
            BomMode::Sniff => Some((encoding, len)),
            BomMode::Remove => (encoding == self.encoding).then_some((encoding, len)),
        }
    }

    /// Whether `seen` may still become a BOM that `mode` acts on.
    fn bom_prefix(&self, mode: BomMode, seen: &[u8]) -> bool {
        let boms: [(&[u8], &'static Encoding); 3] = [
            (b"\xEF\xBB\xBF", UTF_8),
            (b"\xFE\xFF", UTF_16BE),
            (b"\xFF\xFE", UTF_16LE),
        ];
        boms.iter().any(|(bom, encoding)| {
            (mode == BomMode::Sniff || *encoding == self.encoding)
                && seen.len() < bom.len()
                && bom.starts_with(seen)
        })
    }
}

/// The encoding (which a BOM may still change while the decoder is at the start of the
/// stream, as `life_cycle` says in encoding_rs); the rest of the state is not shown.
///
/// ```
/// let decoder = simdenc::SHIFT_JIS.new_decoder();
/// assert_eq!(
///     format!("{decoder:?}"),
///     r#"Decoder { encoding: Encoding { name: "Shift_JIS", .. }, bom: "sniffing", .. }"#
/// );
/// ```
impl fmt::Debug for Decoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bom = match self.start {
            Start::Looking {
                mode: BomMode::Sniff, ..
            } => "sniffing",
            Start::Looking {
                mode: BomMode::Remove,
                ..
            } => "removing",
            Start::Feeding { .. } | Start::Converting => "done",
        };
        f.debug_struct("Decoder")
            .field("encoding", self.encoding)
            .field("bom", &bom)
            .finish_non_exhaustive()
    }
}

/// BOM handling at construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BomHandling {
    Sniff,
    Remove,
}

/// Appends to `dst` through `f`, which writes UTF-8 at the start of the spare capacity it
/// is handed and returns how many bytes it wrote. The spare capacity is written as it is
/// (uninitialised: nothing is zeroed first), all of it may be used, and what is written is
/// not validated again: never reallocates, one pass over the output.
///
/// Sound because `f` is a decoder writing through [`Utf8Dest`]: every write is a whole UTF-8
/// character (a `put_utf8` of a scalar value, an ASCII byte, or a kernel that copies
/// validated characters or produces them from scalar values), and nothing is written past
/// `written` that the new length covers. That invariant is checked on every output in
/// debug builds (every test) and by the fuzz targets.
#[cfg(feature = "alloc")]
#[allow(unsafe_code)]
fn append_to_string(dst: &mut String, f: impl FnOnce(&mut OutBytes) -> usize) {
    // SAFETY: the bytes are only appended to below, and only with what `f` wrote: whole
    // UTF-8 characters (this function's doc), so the `String` stays UTF-8.
    let bytes = unsafe { dst.as_mut_vec() };
    let old_len = bytes.len();
    let spare = bytes.spare_capacity_mut();
    let room = spare.len();
    let written = f(spare);
    assert!(written <= room, "decoder reported more than its output");
    // SAFETY: `written <= capacity - len` (asserted); the decoder wrote those bytes (every
    // writer stores initialised bytes: `simd::OutBytes`).
    unsafe { bytes.set_len(old_len + written) };
    debug_assert!(
        core::str::from_utf8(&bytes[old_len..]).is_ok(),
        "decoder wrote invalid UTF-8"
    );
}
