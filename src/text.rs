//! The standard's own API: [`TextDecoder`], [`TextEncoder`], [`TextDecoderStream`] and
//! [`TextEncoderStream`], with the semantics of <https://encoding.spec.whatwg.org/#api>
//! carried over to Rust: exceptions become `Err`, `Uint8Array`s become `Vec<u8>`, strings
//! are `String` (scalar values; the standard's `USVString`).
//!
//! Built on the engine's [`Decoder`] and [`Encoder`](crate::Encoder). No
//! `unsafe` here. Requires the `alloc` feature (a default one, through `std`).
#![forbid(unsafe_code)]

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::decoder::Decoder;
use crate::encoding::Encoding;
use crate::results::{CoderResult, DecoderResult};
use crate::{UTF_8, UTF_16BE, UTF_16LE};

/// The standard's `RangeError`: the label is not a label of the standard, or it is a label of
/// the replacement encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeError {
    label: String,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the encoding label {:?} is not supported", self.label)
    }
}

impl core::error::Error for RangeError {}

/// The standard's `TypeError` from decoding in fatal mode: the input is malformed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeError;

impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the encoded data was not valid")
    }
}

impl core::error::Error for TypeError {}

/// `TextDecoderOptions`: `fatal` (error mode "fatal" instead of "replacement") and
/// `ignoreBOM`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextDecoderOptions {
    /// Malformed input is an error (`TypeError`) rather than U+FFFD.
    pub fatal: bool,
    /// Keep a leading U+FEFF in the output of UTF-8 and UTF-16 decoders.
    pub ignore_bom: bool,
}

/// The state both `TextDecoder` and `TextDecoderStream` have ("TextDecoderCommon").
struct DecoderCommon {
    encoding: &'static Encoding,
    decoder: Decoder,
    /// Input left in the I/O queue after a fatal error, decoded before the next input.
    queue: Vec<u8>,
    ignore_bom: bool,
    bom_seen: bool,
    fatal: bool,
}

impl DecoderCommon {
    fn new(label: &str, options: TextDecoderOptions) -> Result<DecoderCommon, RangeError> {
        // 1.–2. Get an encoding; failure or replacement is a RangeError.
        let encoding = Encoding::for_label_no_replacement(label.as_bytes())
            .ok_or_else(|| RangeError { label: label.into() })?;
        Ok(DecoderCommon {
            encoding,
            decoder: encoding.new_decoder_without_bom_handling(),
            queue: Vec::new(),
            ignore_bom: options.ignore_bom,
            bom_seen: false,
            fatal: options.fatal,
        })
    }

    /// A new decoder instance, an empty I/O queue, BOM seen false.
    fn reset(&mut self) {
        self.decoder = self.encoding.new_decoder_without_bom_handling();
        self.queue.clear();
        self.bom_seen = false;
    }

    /// Decodes what is queued and then `input`; with `flush`, then end-of-queue. In fatal mode
    /// an error leaves the rest of the input in the queue, as the standard's queue does.
    fn process(&mut self, input: &[u8], flush: bool) -> Result<String, TypeError> {
        let queued = core::mem::take(&mut self.queue);
        let mut out = String::new();
        let result = self.run(&queued, input, flush, &mut out);
        self.serialize(out, result)
    }

    fn run(&mut self, queued: &[u8], input: &[u8], flush: bool, out: &mut String) -> Result<(), ()> {
        let parts = [queued, input];
        for (index, part) in parts.iter().enumerate() {
            let last = flush && index == 1;
            let mut read = 0;
            loop {
                let rest = &part[read..];
                out.reserve(
                    self.decoder
                        .max_utf8_buffer_length(rest.len())
                        .unwrap_or(rest.len())
                        .min(1 << 20)
                        + 4,
                );
                if self.fatal {
                    let (result, n) = self.decoder.decode_to_string_without_replacement(rest, out, last);
                    read += n;
                    match result {
                        DecoderResult::InputEmpty => break,
                        DecoderResult::OutputFull => continue,
                        DecoderResult::Malformed(..) => {
                            // The rest stays in the I/O queue for a later streaming call.
                            self.queue.extend_from_slice(&part[read..]);
                            if index == 0 {
                                self.queue.extend_from_slice(input);
                            }
                            return Err(());
                        }
                    }
                } else {
                    let (result, n, _) = self.decoder.decode_to_string(rest, out, last);
                    read += n;
                    if result == CoderResult::InputEmpty {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// "Serialize I/O queue": drops a leading U+FEFF once per stream for UTF-8 and UTF-16
    /// unless BOMs are ignored.
    fn serialize(&mut self, mut out: String, result: Result<(), ()>) -> Result<String, TypeError> {
        result.map_err(|()| TypeError)?;
        let bom_matters = [UTF_8, UTF_16BE, UTF_16LE].contains(&self.encoding) && !self.ignore_bom;
        if let Some(first) = out.chars().next().filter(|_| bom_matters && !self.bom_seen) {
            self.bom_seen = true;
            if first == '\u{FEFF}' {
                out.drain(..first.len_utf8());
            }
        }
        Ok(out)
    }
}

/// The standard's `TextDecoder`.
///
/// ```
/// use simdenc::text::{TextDecoder, TextDecoderOptions};
/// let mut decoder = TextDecoder::new("shift_jis").unwrap();
/// assert_eq!(decoder.encoding(), "shift_jis");
/// let mut text = decoder.decode(b"\x93", true).unwrap();
/// text += &decoder.decode(b"\xfa", true).unwrap();
/// text += &decoder.decode(b"", false).unwrap();
/// assert_eq!(text, "日");
///
/// let mut strict = TextDecoder::with_options("utf-8", TextDecoderOptions { fatal: true, ignore_bom: false }).unwrap();
/// assert!(strict.decode(b"\xFF", false).is_err());
/// assert!(TextDecoder::new("iso-2022-kr").is_err()); // replacement: RangeError
/// ```
pub struct TextDecoder {
    common: DecoderCommon,
    do_not_flush: bool,
}

impl TextDecoder {
    /// `new TextDecoder(label)`, default options.
    ///
    /// ```
    /// assert!(simdenc::text::TextDecoder::new(" UTF8 ").is_ok());
    /// assert!(simdenc::text::TextDecoder::new("utf-7").is_err());
    /// ```
    pub fn new(label: &str) -> Result<TextDecoder, RangeError> {
        TextDecoder::with_options(label, TextDecoderOptions::default())
    }

    /// `new TextDecoder(label, options)`.
    ///
    /// ```
    /// use simdenc::text::{TextDecoder, TextDecoderOptions};
    /// let options = TextDecoderOptions { fatal: false, ignore_bom: true };
    /// let mut decoder = TextDecoder::with_options("utf-8", options).unwrap();
    /// assert_eq!(decoder.decode(b"\xEF\xBB\xBFx", false).unwrap(), "\u{FEFF}x");
    /// ```
    pub fn with_options(label: &str, options: TextDecoderOptions) -> Result<TextDecoder, RangeError> {
        Ok(TextDecoder {
            common: DecoderCommon::new(label, options)?,
            do_not_flush: false,
        })
    }

    /// The encoding's name, ASCII-lowercased.
    ///
    /// ```
    /// assert_eq!(simdenc::text::TextDecoder::new("latin1").unwrap().encoding(), "windows-1252");
    /// ```
    pub fn encoding(&self) -> String {
        self.common.encoding.name().to_ascii_lowercase()
    }

    /// Whether the error mode is fatal.
    ///
    /// ```
    /// assert!(!simdenc::text::TextDecoder::new("utf-8").unwrap().fatal());
    /// ```
    pub fn fatal(&self) -> bool {
        self.common.fatal
    }

    /// Whether a leading BOM is kept.
    ///
    /// ```
    /// assert!(!simdenc::text::TextDecoder::new("utf-8").unwrap().ignore_bom());
    /// ```
    pub fn ignore_bom(&self) -> bool {
        self.common.ignore_bom
    }

    /// `decode(input, { stream })`.
    ///
    /// Unless the previous call streamed, the decoder starts afresh. With `stream`, an
    /// incomplete sequence at the end waits for the next call; without it, it is an error.
    /// In fatal mode a malformed sequence gives `Err(TypeError)` and discards this call's
    /// output; if this call streamed, the input after the error stays queued and the next
    /// call goes on from there, as in the standard.
    ///
    /// ```
    /// let mut decoder = simdenc::text::TextDecoder::new("utf-16le").unwrap();
    /// assert_eq!(decoder.decode(b"\xFF\xFEh\x00i", true).unwrap(), "h");
    /// assert_eq!(decoder.decode(b"\x00", false).unwrap(), "i");
    /// ```
    pub fn decode(&mut self, input: &[u8], stream: bool) -> Result<String, TypeError> {
        // 1. If do not flush is false, a new decoder instance, I/O queue and BOM seen.
        if !self.do_not_flush {
            self.common.reset();
        }
        // 2. Set do not flush to options["stream"].
        self.do_not_flush = stream;
        // 3.–5.
        self.common.process(input, !stream)
    }
}

/// The standard's `TextDecoderStream`, as a push-style transform: [`transform`] for each
/// chunk, then [`flush`] at the end. After an error the stream is errored and every later
/// call returns `Err(TypeError)`.
///
/// [`transform`]: TextDecoderStream::transform
/// [`flush`]: TextDecoderStream::flush
///
/// ```
/// use simdenc::text::TextDecoderStream;
/// let mut stream = TextDecoderStream::new("euc-kr").unwrap();
/// let mut text = stream.transform(b"\xC7").unwrap();
/// text += &stream.transform(b"\xD1!").unwrap();
/// text += &stream.flush().unwrap();
/// assert_eq!(text, "\u{D55C}!");
/// ```
pub struct TextDecoderStream {
    common: DecoderCommon,
    errored: bool,
}

impl TextDecoderStream {
    /// `new TextDecoderStream(label)`.
    ///
    /// ```
    /// assert!(simdenc::text::TextDecoderStream::new("big5").is_ok());
    /// ```
    pub fn new(label: &str) -> Result<TextDecoderStream, RangeError> {
        TextDecoderStream::with_options(label, TextDecoderOptions::default())
    }

    /// `new TextDecoderStream(label, options)`.
    ///
    /// ```
    /// use simdenc::text::{TextDecoderStream, TextDecoderOptions};
    /// let options = TextDecoderOptions { fatal: true, ignore_bom: false };
    /// let mut stream = TextDecoderStream::with_options("utf-8", options).unwrap();
    /// assert!(stream.transform(b"\xC3").is_ok());
    /// assert!(stream.flush().is_err());
    /// ```
    pub fn with_options(label: &str, options: TextDecoderOptions) -> Result<TextDecoderStream, RangeError> {
        Ok(TextDecoderStream {
            common: DecoderCommon::new(label, options)?,
            errored: false,
        })
    }

    /// The encoding's name, ASCII-lowercased.
    ///
    /// ```
    /// assert_eq!(simdenc::text::TextDecoderStream::new("sjis").unwrap().encoding(), "shift_jis");
    /// ```
    pub fn encoding(&self) -> String {
        self.common.encoding.name().to_ascii_lowercase()
    }

    /// "Decode and enqueue a chunk": the text this chunk completes (possibly empty).
    ///
    /// ```
    /// let mut stream = simdenc::text::TextDecoderStream::new("utf-8").unwrap();
    /// assert_eq!(stream.transform(b"\xE2\x82").unwrap(), "");
    /// assert_eq!(stream.transform(b"\xAC").unwrap(), "\u{20AC}");
    /// ```
    pub fn transform(&mut self, chunk: &[u8]) -> Result<String, TypeError> {
        self.step(chunk, false)
    }

    /// "Flush and enqueue": the end of the input.
    ///
    /// ```
    /// let mut stream = simdenc::text::TextDecoderStream::new("utf-8").unwrap();
    /// let _ = stream.transform(b"\xE2\x82").unwrap();
    /// assert_eq!(stream.flush().unwrap(), "\u{FFFD}");
    /// ```
    pub fn flush(&mut self) -> Result<String, TypeError> {
        self.step(&[], true)
    }

    fn step(&mut self, chunk: &[u8], flush: bool) -> Result<String, TypeError> {
        if self.errored {
            return Err(TypeError);
        }
        let result = self.common.process(chunk, flush);
        self.errored = result.is_err();
        result
    }
}

/// `TextEncoderEncodeIntoResult`: UTF-16 code units read, bytes written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EncodeIntoResult {
    /// UTF-16 code units of the source consumed.
    pub read: usize,
    /// Bytes written to the destination.
    pub written: usize,
}

/// The standard's `TextEncoder`: UTF-8 only.
///
/// ```
/// use simdenc::text::TextEncoder;
/// let encoder = TextEncoder::new();
/// assert_eq!(encoder.encoding(), "utf-8");
/// assert_eq!(encoder.encode("\u{20AC}"), b"\xE2\x82\xAC");
/// let mut buf = [0u8; 4];
/// let r = encoder.encode_into("a\u{1F600}", &mut buf);
/// assert_eq!((r.read, r.written), (1, 1)); // the emoji does not fit in 3 bytes
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct TextEncoder;

impl TextEncoder {
    /// `new TextEncoder()`.
    ///
    /// ```
    /// let _ = simdenc::text::TextEncoder::new();
    /// ```
    pub fn new() -> TextEncoder {
        TextEncoder
    }

    /// Always `"utf-8"`.
    ///
    /// ```
    /// assert_eq!(simdenc::text::TextEncoder::new().encoding(), "utf-8");
    /// ```
    pub fn encoding(&self) -> &'static str {
        "utf-8"
    }

    /// `encode(input)`: the UTF-8 bytes of `input`.
    ///
    /// ```
    /// assert_eq!(simdenc::text::TextEncoder::new().encode("h\u{e9}"), b"h\xC3\xA9");
    /// ```
    pub fn encode(&self, input: &str) -> Vec<u8> {
        input.as_bytes().to_vec()
    }

    /// `encode(input)` for a JavaScript-style string of UTF-16 code units: unpaired
    /// surrogates become U+FFFD (the `USVString` conversion).
    ///
    /// ```
    /// assert_eq!(simdenc::text::TextEncoder::new().encode_utf16(&[0x61, 0xD800]), b"a\xEF\xBF\xBD");
    /// ```
    pub fn encode_utf16(&self, input: &[u16]) -> Vec<u8> {
        let mut out = Vec::with_capacity(input.len().saturating_mul(3));
        encode_utf16_to_vec(input, &mut out);
        out
    }

    /// `encodeInto(source, destination)`: encodes as many whole characters as fit. `read`
    /// counts UTF-16 code units, as in the standard (2 for a character above U+FFFF).
    ///
    /// ```
    /// let mut buf = [0u8; 5];
    /// let r = simdenc::text::TextEncoder::new().encode_into("\u{e9}\u{e9}\u{e9}", &mut buf);
    /// assert_eq!((r.read, r.written), (2, 4));
    /// ```
    pub fn encode_into(&self, source: &str, destination: &mut [u8]) -> EncodeIntoResult {
        let mut n = source.len().min(destination.len());
        while !source.is_char_boundary(n) {
            n -= 1;
        }
        destination[..n].copy_from_slice(&source.as_bytes()[..n]);
        let read = source[..n].chars().map(char::len_utf16).sum();
        EncodeIntoResult { read, written: n }
    }

    /// `encodeInto` with a UTF-16 source (unpaired surrogates become U+FFFD, read as one unit).
    ///
    /// ```
    /// let mut buf = [0u8; 8];
    /// let r = simdenc::text::TextEncoder::new().encode_into_utf16(&[0xD83D, 0xDE00, 0xDC00], &mut buf);
    /// assert_eq!((r.read, &buf[..r.written]), (3, &b"\xF0\x9F\x98\x80\xEF\xBF\xBD"[..]));
    /// ```
    pub fn encode_into_utf16(&self, source: &[u16], destination: &mut [u8]) -> EncodeIntoResult {
        let mut encoder = UTF_8.new_encoder();
        let (_, read, written) = encoder.encode_from_utf16_without_replacement(source, destination, true);
        EncodeIntoResult { read, written }
    }
}

/// Appends the UTF-8 of `units` to `out` (unpaired surrogates as U+FFFD), reserving room.
fn encode_utf16_to_vec(units: &[u16], out: &mut Vec<u8>) {
    out.reserve(units.len().saturating_mul(3));
    let (result, _, _) = UTF_8.new_encoder().encode_from_utf16_to_vec(units, out, true);
    debug_assert_eq!(result, CoderResult::InputEmpty, "three bytes a unit always fit");
}

/// The standard's `TextEncoderStream`: UTF-16 chunks in, UTF-8 out, with a surrogate pair
/// split across chunks put back together, and a leading surrogate left at the end written
/// as U+FFFD by [`flush`](TextEncoderStream::flush).
///
/// ```
/// use simdenc::text::TextEncoderStream;
/// let mut stream = TextEncoderStream::new();
/// let mut out = stream.transform(&[0x61, 0xD83D]);
/// out.extend(stream.transform(&[0xDE00]));
/// out.extend(stream.flush());
/// assert_eq!(out, "a\u{1F600}".as_bytes());
/// ```
#[derive(Debug, Clone, Default)]
pub struct TextEncoderStream {
    leading_surrogate: Option<u16>,
}

impl TextEncoderStream {
    /// `new TextEncoderStream()`.
    ///
    /// ```
    /// let _ = simdenc::text::TextEncoderStream::new();
    /// ```
    pub fn new() -> TextEncoderStream {
        TextEncoderStream::default()
    }

    /// Always `"utf-8"`.
    ///
    /// ```
    /// assert_eq!(simdenc::text::TextEncoderStream::new().encoding(), "utf-8");
    /// ```
    pub fn encoding(&self) -> &'static str {
        "utf-8"
    }

    /// "Encode and enqueue a chunk" of UTF-16 code units.
    ///
    /// ```
    /// let mut stream = simdenc::text::TextEncoderStream::new();
    /// assert_eq!(stream.transform(&[0xD800, 0x41]), b"\xEF\xBF\xBDA");
    /// ```
    pub fn transform(&mut self, chunk: &[u16]) -> Vec<u8> {
        let mut out = Vec::with_capacity(chunk.len().saturating_mul(3).saturating_add(4));
        let mut chunk = chunk;
        // The leading surrogate of the last chunk goes first: with the trailing one that
        // starts this chunk, or alone (U+FFFD); with an empty chunk it waits on.
        if let Some(lead) = self.leading_surrogate.take() {
            match chunk.split_first() {
                None => self.leading_surrogate = Some(lead),
                Some((&trail @ 0xDC00..=0xDFFF, rest)) => {
                    encode_utf16_to_vec(&[lead, trail], &mut out);
                    chunk = rest;
                }
                Some(_) => out.extend_from_slice("\u{FFFD}".as_bytes()),
            }
        }
        // A leading surrogate at the very end waits for the next chunk.
        if let Some((&last @ 0xD800..=0xDBFF, rest)) = chunk.split_last() {
            self.leading_surrogate = Some(last);
            chunk = rest;
        }
        encode_utf16_to_vec(chunk, &mut out);
        out
    }

    /// "Encode and enqueue a chunk" given as `&str` (which has no surrogates).
    ///
    /// ```
    /// let mut stream = simdenc::text::TextEncoderStream::new();
    /// assert_eq!(stream.transform_str("ok"), b"ok");
    /// ```
    pub fn transform_str(&mut self, chunk: &str) -> Vec<u8> {
        // An empty chunk's queue is only end-of-queue: no code unit is read, so a leading
        // surrogate stays pending for the next chunk (as in `transform(&[])`).
        if chunk.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(chunk.len() + 3);
        if self.leading_surrogate.take().is_some() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
        out.extend_from_slice(chunk.as_bytes());
        out
    }

    /// "Encode and flush": U+FFFD if a leading surrogate is left.
    ///
    /// ```
    /// let mut stream = simdenc::text::TextEncoderStream::new();
    /// let _ = stream.transform(&[0xDBFF]);
    /// assert_eq!(stream.flush(), "\u{FFFD}".as_bytes());
    /// ```
    pub fn flush(&mut self) -> Vec<u8> {
        match self.leading_surrogate.take() {
            Some(_) => "\u{FFFD}".as_bytes().to_vec(),
            None => Vec::new(),
        }
    }
}
