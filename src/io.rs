//! `std::io` adapters: [`DecodeReader`] reads bytes in any encoding and yields UTF-8;
//! [`EncodeWriter`] takes UTF-8 and writes any encoding.
//!
//! Both are thin loops around [`Decoder`] and [`Encoder`] with fixed-size buffers chosen at
//! construction: memory use does not depend on the length of the stream, and nothing grows
//! while converting. They add what the streaming API leaves to its caller:
//!
//! - the byte order mark policy ([`Bom`]), as the three decoder constructors offer it;
//! - an error policy: replace (the standard's decode, U+FFFD) or html (the standard's encode,
//!   `&#N;`), skip (iconv's `-c`), or fail with an [`io::Error`] of kind
//!   [`InvalidData`](io::ErrorKind::InvalidData) that carries a [`MalformedError`] or an
//!   [`UnmappableError`] with its byte offset (downcast it with `from_io_error`);
//! - UTF-8 characters split across `write` calls (up to 3 bytes are held);
//! - the encoder's end-of-stream output (ISO-2022-JP's `ESC ( B`), written by
//!   [`EncodeWriter::finish`] or, failing that, on drop.
//!
//! Depends on the public API only (`Decoder`, `Encoder`, `Encoding`; and `oneshot::as_str`,
//! the UTF-8 validation kernel's prefix as a `str`); no `unsafe`. Requires
//! the `std` feature (a default one).
//!
//! The same adapters for tokio's `AsyncRead` and `AsyncWrite` are in `io::tokio`
//! (the `tokio` feature).
#![forbid(unsafe_code)]

use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::task::Poll;

use crate::{CoderResult, Decoder, DecoderResult, Encoder, EncoderResult, Encoding};

#[cfg(feature = "tokio")]
#[path = "io_async.rs"]
pub mod tokio;

/// `?` for a function returning `Poll<io::Result<_>>`.
macro_rules! ready_try {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Poll::Ready(Err(e)),
        }
    };
}

/// The default size of each internal buffer, in bytes.
const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;

/// The smallest buffer the adapters accept: room for any one decoded character, or for any
/// one encoded character with its `&#N;` and ISO-2022-JP escapes.
const MIN_BUFFER_SIZE: usize = 64;

/// Room an [`EncodeWriter`] keeps free before encoding: one character's worst case (an
/// ISO-2022-JP escape, two bytes, then `ESC ( B` and a ten-byte `&#1114111;`) fits.
const ENCODE_ROOM: usize = 32;

/// How many of the last bytes fed to the decoder a [`DecodeReader`] keeps, to report the
/// bytes of a malformed sequence that began in an earlier buffer.
const HISTORY: usize = 16;

/// What a [`DecodeReader`] does with a byte order mark at the start of the stream.
///
/// ```
/// use std::io::Read;
/// use simdenc::io::{Bom, DecodeOptions, DecodeReader};
/// let mut text = String::new();
/// let options = DecodeOptions::new().bom(Bom::Keep);
/// DecodeReader::with_options(&b"\xEF\xBB\xBFa"[..], simdenc::UTF_8, options).read_to_string(&mut text)?;
/// assert_eq!(text, "\u{FEFF}a");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bom {
    /// The standard's "decode": a UTF-8, UTF-16BE or UTF-16LE BOM selects that encoding,
    /// whatever the reader was created for, and is removed
    /// ([`Encoding::new_decoder`]).
    #[default]
    Sniff,
    /// Only the BOM of the reader's own encoding (UTF-8, UTF-16BE, UTF-16LE) is removed;
    /// anything else is data ([`Encoding::new_decoder_with_bom_removal`]).
    Strip,
    /// A BOM is data, decoded like any other bytes
    /// ([`Encoding::new_decoder_without_bom_handling`]).
    Keep,
}

/// What a [`DecodeReader`] does with a malformed byte sequence.
///
/// ```
/// use std::io::Read;
/// use simdenc::io::{DecodeOptions, DecodeReader, OnMalformed};
/// let mut text = String::new();
/// let options = DecodeOptions::new().on_malformed(OnMalformed::Skip);
/// DecodeReader::with_options(&b"a\xFFb"[..], simdenc::UTF_8, options).read_to_string(&mut text)?;
/// assert_eq!(text, "ab");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OnMalformed {
    /// Write U+FFFD, exactly where the standard's decoder in "replacement" mode does.
    #[default]
    Replace,
    /// Stop: the read that reaches the sequence returns the text before it, the next one an
    /// [`io::Error`] of kind `InvalidData` carrying a [`MalformedError`], and so does every
    /// read after that (the standard's "fatal" mode).
    Fail,
    /// Drop the sequence and go on (iconv's `-c`).
    Skip,
}

/// What an [`EncodeWriter`] does with a character its encoding cannot represent.
///
/// ```
/// use std::io::Write;
/// use simdenc::io::{EncodeOptions, EncodeWriter, OnUnmappable};
/// let options = EncodeOptions::new().on_unmappable(OnUnmappable::Skip);
/// let mut writer = EncodeWriter::with_options(Vec::new(), simdenc::WINDOWS_1252, options);
/// writer.write_all("caf\u{e9} \u{3042}!".as_bytes())?;
/// assert_eq!(writer.finish()?, b"caf\xE9 !");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OnUnmappable {
    /// Write `&#N;` (N in decimal), as the standard's "encode" does ("html" mode).
    #[default]
    Html,
    /// Stop: the write returns an [`io::Error`] of kind `InvalidData` carrying an
    /// [`UnmappableError`], and so does every later write and [`EncodeWriter::finish`]
    /// (the standard's "fatal" mode).
    Fail,
    /// Drop the character and go on (iconv's `-c`).
    Skip,
}

/// Settings of a [`DecodeReader`]: BOM policy, error policy, buffer size.
///
/// ```
/// use simdenc::io::{Bom, DecodeOptions, OnMalformed};
/// let options = DecodeOptions::new().bom(Bom::Strip).on_malformed(OnMalformed::Fail).buffer_size(4096);
/// assert_eq!(options, DecodeOptions { bom: Bom::Strip, on_malformed: OnMalformed::Fail, buffer_size: 4096 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecodeOptions {
    /// What to do with a byte order mark (default [`Bom::Sniff`]).
    pub bom: Bom,
    /// What to do with malformed input (default [`OnMalformed::Replace`]).
    pub on_malformed: OnMalformed,
    /// The size of each of the two internal buffers (input bytes, UTF-8 output), in bytes;
    /// default 64 KiB, at least 64.
    pub buffer_size: usize,
}

impl DecodeOptions {
    /// The defaults: BOM sniffing, replacement, 64 KiB buffers.
    ///
    /// ```
    /// use simdenc::io::{Bom, DecodeOptions};
    /// assert_eq!(DecodeOptions::new().bom, Bom::Sniff);
    /// ```
    pub const fn new() -> Self {
        DecodeOptions {
            bom: Bom::Sniff,
            on_malformed: OnMalformed::Replace,
            buffer_size: DEFAULT_BUFFER_SIZE,
        }
    }

    /// Sets the BOM policy.
    ///
    /// ```
    /// use simdenc::io::{Bom, DecodeOptions};
    /// assert_eq!(DecodeOptions::new().bom(Bom::Keep).bom, Bom::Keep);
    /// ```
    #[must_use]
    pub const fn bom(mut self, bom: Bom) -> Self {
        self.bom = bom;
        self
    }

    /// Sets the error policy.
    ///
    /// ```
    /// use simdenc::io::{DecodeOptions, OnMalformed};
    /// assert_eq!(DecodeOptions::new().on_malformed(OnMalformed::Fail).on_malformed, OnMalformed::Fail);
    /// ```
    #[must_use]
    pub const fn on_malformed(mut self, on_malformed: OnMalformed) -> Self {
        self.on_malformed = on_malformed;
        self
    }

    /// Sets the size of each internal buffer (raised to 64 bytes if smaller).
    ///
    /// ```
    /// use simdenc::io::DecodeOptions;
    /// assert_eq!(DecodeOptions::new().buffer_size(1 << 20).buffer_size, 1 << 20);
    /// ```
    #[must_use]
    pub const fn buffer_size(mut self, buffer_size: usize) -> Self {
        self.buffer_size = buffer_size;
        self
    }
}

impl Default for DecodeOptions {
    fn default() -> Self {
        Self::new()
    }
}

/// Settings of an [`EncodeWriter`]: error policy, buffer size.
///
/// ```
/// use simdenc::io::{EncodeOptions, OnUnmappable};
/// let options = EncodeOptions::new().on_unmappable(OnUnmappable::Fail).buffer_size(4096);
/// assert_eq!(options, EncodeOptions { on_unmappable: OnUnmappable::Fail, buffer_size: 4096 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodeOptions {
    /// What to do with unmappable characters (default [`OnUnmappable::Html`]).
    pub on_unmappable: OnUnmappable,
    /// The size of the output buffer, in bytes; default 64 KiB, at least 64.
    pub buffer_size: usize,
}

impl EncodeOptions {
    /// The defaults: html mode, a 64 KiB buffer.
    ///
    /// ```
    /// use simdenc::io::{EncodeOptions, OnUnmappable};
    /// assert_eq!(EncodeOptions::new().on_unmappable, OnUnmappable::Html);
    /// ```
    pub const fn new() -> Self {
        EncodeOptions {
            on_unmappable: OnUnmappable::Html,
            buffer_size: DEFAULT_BUFFER_SIZE,
        }
    }

    /// Sets the error policy.
    ///
    /// ```
    /// use simdenc::io::{EncodeOptions, OnUnmappable};
    /// assert_eq!(EncodeOptions::new().on_unmappable(OnUnmappable::Skip).on_unmappable, OnUnmappable::Skip);
    /// ```
    #[must_use]
    pub const fn on_unmappable(mut self, on_unmappable: OnUnmappable) -> Self {
        self.on_unmappable = on_unmappable;
        self
    }

    /// Sets the size of the output buffer (raised to 64 bytes if smaller).
    ///
    /// ```
    /// use simdenc::io::EncodeOptions;
    /// assert_eq!(EncodeOptions::new().buffer_size(512).buffer_size, 512);
    /// ```
    #[must_use]
    pub const fn buffer_size(mut self, buffer_size: usize) -> Self {
        self.buffer_size = buffer_size;
        self
    }
}

impl Default for EncodeOptions {
    fn default() -> Self {
        Self::new()
    }
}

/// A malformed byte sequence found by a [`DecodeReader`] in [`OnMalformed::Fail`] mode.
///
/// It travels inside an [`io::Error`] of kind `InvalidData`; get it back with
/// [`MalformedError::from_io_error`].
///
/// ```
/// use std::io::Read;
/// use simdenc::io::{DecodeOptions, DecodeReader, MalformedError, OnMalformed};
/// let options = DecodeOptions::new().on_malformed(OnMalformed::Fail);
/// let mut reader = DecodeReader::with_options(&b"ok \xE3\x81 x"[..], simdenc::UTF_8, options);
/// let mut text = String::new();
/// let err = reader.read_to_string(&mut text).unwrap_err();
/// let malformed = MalformedError::from_io_error(&err).unwrap();
/// assert_eq!((malformed.offset(), malformed.bytes(), malformed.end()), (3, &b"\xE3\x81"[..], 5));
/// assert_eq!(malformed.to_string(), "malformed UTF-8 input: bytes E3 81 at byte offset 3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedError {
    encoding: &'static Encoding,
    offset: u64,
    len: u64,
    bytes: Vec<u8>,
}

impl MalformedError {
    /// The encoding being decoded (after BOM sniffing).
    ///
    /// ```
    /// # use std::io::Read;
    /// # use simdenc::io::{DecodeOptions, DecodeReader, MalformedError, OnMalformed};
    /// let options = DecodeOptions::new().on_malformed(OnMalformed::Fail);
    /// let err = DecodeReader::with_options(&b"\x81"[..], simdenc::SHIFT_JIS, options)
    ///     .read_to_string(&mut String::new())
    ///     .unwrap_err();
    /// assert_eq!(MalformedError::from_io_error(&err).unwrap().encoding(), simdenc::SHIFT_JIS);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The byte offset in the input stream where the malformed sequence starts.
    ///
    /// ```
    /// # use std::io::Read;
    /// # use simdenc::io::{DecodeOptions, DecodeReader, MalformedError, OnMalformed};
    /// let options = DecodeOptions::new().on_malformed(OnMalformed::Fail);
    /// let err = DecodeReader::with_options(&b"abc\xFF"[..], simdenc::UTF_8, options)
    ///     .read_to_string(&mut String::new())
    ///     .unwrap_err();
    /// assert_eq!(MalformedError::from_io_error(&err).unwrap().offset(), 3);
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The byte offset just past the malformed sequence: where the standard's decoder in
    /// "fatal" mode stops, as [`spec::run_decoder`](crate::spec::run_decoder) reports it
    /// (bytes the standard restores to the input are not part of the sequence).
    ///
    /// ```
    /// # use std::io::Read;
    /// # use simdenc::io::{DecodeOptions, DecodeReader, MalformedError, OnMalformed};
    /// use simdenc::spec::{run_decoder, ErrorMode};
    /// let input = b"x\x81 y";
    /// let options = DecodeOptions::new().on_malformed(OnMalformed::Fail).bom(simdenc::io::Bom::Keep);
    /// let err = DecodeReader::with_options(&input[..], simdenc::EUC_KR, options)
    ///     .read_to_string(&mut String::new())
    ///     .unwrap_err();
    /// let end = MalformedError::from_io_error(&err).unwrap().end();
    /// assert_eq!(Some(end as usize), run_decoder(simdenc::EUC_KR, input, ErrorMode::Fatal).error);
    /// ```
    pub fn end(&self) -> u64 {
        self.offset + self.len
    }

    /// The bytes of the malformed sequence (only its last 16 if it is longer than that).
    ///
    /// ```
    /// # use std::io::Read;
    /// # use simdenc::io::{DecodeOptions, DecodeReader, MalformedError, OnMalformed};
    /// let options = DecodeOptions::new().on_malformed(OnMalformed::Fail);
    /// let err = DecodeReader::with_options(&b"\xF0\x9F\x98"[..], simdenc::UTF_8, options)
    ///     .read_to_string(&mut String::new())
    ///     .unwrap_err();
    /// assert_eq!(MalformedError::from_io_error(&err).unwrap().bytes(), b"\xF0\x9F\x98");
    /// ```
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The `MalformedError` inside `err`, if it carries one.
    ///
    /// ```
    /// use simdenc::io::MalformedError;
    /// let err = std::io::Error::other("unrelated");
    /// assert!(MalformedError::from_io_error(&err).is_none());
    /// ```
    pub fn from_io_error(err: &io::Error) -> Option<&MalformedError> {
        err.get_ref()?.downcast_ref()
    }
}

impl fmt::Display for MalformedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed {} input: bytes", self.encoding.name())?;
        for b in &self.bytes {
            write!(f, " {b:02X}")?;
        }
        write!(f, " at byte offset {}", self.offset)
    }
}

impl std::error::Error for MalformedError {}

impl From<MalformedError> for io::Error {
    fn from(err: MalformedError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, err)
    }
}

/// A character that an [`EncodeWriter`] in [`OnUnmappable::Fail`] mode cannot encode.
///
/// It travels inside an [`io::Error`] of kind `InvalidData`; get it back with
/// [`UnmappableError::from_io_error`].
///
/// ```
/// use std::io::Write;
/// use simdenc::io::{EncodeOptions, EncodeWriter, OnUnmappable, UnmappableError};
/// let options = EncodeOptions::new().on_unmappable(OnUnmappable::Fail);
/// let mut writer = EncodeWriter::with_options(Vec::new(), simdenc::KOI8_R, options);
/// let err = writer.write_all("Жук €".as_bytes()).unwrap_err();
/// let unmappable = UnmappableError::from_io_error(&err).unwrap();
/// assert_eq!((unmappable.character(), unmappable.offset()), ('€', 7));
/// assert_eq!(unmappable.to_string(), "U+20AC (\u{20AC}) cannot be encoded in KOI8-R (text byte offset 7)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnmappableError {
    encoding: &'static Encoding,
    character: char,
    offset: u64,
}

impl UnmappableError {
    /// The encoding being written.
    ///
    /// ```
    /// # use std::io::Write;
    /// # use simdenc::io::{EncodeOptions, EncodeWriter, OnUnmappable, UnmappableError};
    /// let options = EncodeOptions::new().on_unmappable(OnUnmappable::Fail);
    /// let mut writer = EncodeWriter::with_options(Vec::new(), simdenc::BIG5, options);
    /// let err = writer.write_all("\u{E5E5}".as_bytes()).unwrap_err();
    /// assert_eq!(UnmappableError::from_io_error(&err).unwrap().encoding(), simdenc::BIG5);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The character that cannot be encoded, as it was in the text. (For U+000E, U+000F
    /// and U+001B, which ISO-2022-JP refuses, the standard's encoder reports U+FFFD.)
    ///
    /// ```
    /// # use std::io::Write;
    /// # use simdenc::io::{EncodeOptions, EncodeWriter, OnUnmappable, UnmappableError};
    /// let options = EncodeOptions::new().on_unmappable(OnUnmappable::Fail);
    /// let mut writer = EncodeWriter::with_options(Vec::new(), simdenc::SHIFT_JIS, options);
    /// let err = writer.write_all("\u{D55C}".as_bytes()).unwrap_err();
    /// assert_eq!(UnmappableError::from_io_error(&err).unwrap().character(), '\u{D55C}');
    /// ```
    pub fn character(&self) -> char {
        self.character
    }

    /// The byte offset of the character in the UTF-8 text written to the writer.
    ///
    /// ```
    /// # use std::io::Write;
    /// # use simdenc::io::{EncodeOptions, EncodeWriter, OnUnmappable, UnmappableError};
    /// let options = EncodeOptions::new().on_unmappable(OnUnmappable::Fail);
    /// let mut writer = EncodeWriter::with_options(Vec::new(), simdenc::WINDOWS_1252, options);
    /// writer.write_all(b"abc")?;
    /// let err = writer.write_all("d\u{3042}".as_bytes()).unwrap_err();
    /// assert_eq!(UnmappableError::from_io_error(&err).unwrap().offset(), 4);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The `UnmappableError` inside `err`, if it carries one.
    ///
    /// ```
    /// use simdenc::io::UnmappableError;
    /// assert!(UnmappableError::from_io_error(&std::io::Error::other("x")).is_none());
    /// ```
    pub fn from_io_error(err: &io::Error) -> Option<&UnmappableError> {
        err.get_ref()?.downcast_ref()
    }
}

impl fmt::Display for UnmappableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.character;
        let shown = if c.is_control() { '\u{FFFD}' } else { c };
        write!(
            f,
            "U+{:04X} ({shown}) cannot be encoded in {} (text byte offset {})",
            u32::from(c),
            self.encoding.name(),
            self.offset
        )
    }
}

impl std::error::Error for UnmappableError {}

impl From<UnmappableError> for io::Error {
    fn from(err: UnmappableError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, err)
    }
}

/// The decoding side of a [`DecodeReader`]: the inner reader, its input buffer and the
/// decoder. Separate from the output buffer so that both can be borrowed at once.
struct DecodeSource<R> {
    inner: R,
    decoder: Decoder,
    on_malformed: OnMalformed,
    input: Box<[u8]>,
    in_pos: usize,
    in_len: usize,
    /// The inner reader returned 0.
    eof: bool,
    /// The decoder has been called with `last = true` and has nothing more to write.
    finished: bool,
    /// Bytes consumed by the decoder.
    position: u64,
    /// The last bytes consumed, oldest first, in `history[HISTORY - history_len..]`.
    history: [u8; HISTORY],
    history_len: usize,
    had_errors: bool,
    /// The fatal error, once found; returned after the text before it, then forever.
    error: Option<MalformedError>,
}

impl<R> DecodeSource<R> {
    /// The source [`DecodeReader::with_options`] creates, and the size of its buffers.
    fn new(inner: R, encoding: &'static Encoding, options: DecodeOptions) -> (Self, usize) {
        let decoder = match options.bom {
            Bom::Sniff => encoding.new_decoder(),
            Bom::Strip => encoding.new_decoder_with_bom_removal(),
            Bom::Keep => encoding.new_decoder_without_bom_handling(),
        };
        let size = options.buffer_size.max(MIN_BUFFER_SIZE);
        let source = DecodeSource {
            inner,
            decoder,
            on_malformed: options.on_malformed,
            input: vec![0; size].into_boxed_slice(),
            in_pos: 0,
            in_len: 0,
            eof: false,
            finished: false,
            position: 0,
            history: [0; HISTORY],
            history_len: 0,
            had_errors: false,
            error: None,
        };
        (source, size)
    }

    /// The decoding state machine, without I/O: decodes into `dst` (at least 4 bytes),
    /// calling `fill` to read more input into the buffer it is given when all of it has been
    /// decoded (`Ok(0)` at the end of the stream). Returns how many bytes were written, 0
    /// only at the end of the stream, or the pending fatal error once no text precedes it;
    /// `Pending` only when `fill` returned it, before anything was written (the state is then
    /// as before the call). [`DecodeReader`] reads with [`Read`], the `tokio` adapter polls.
    fn poll_decode_into(
        &mut self,
        mut dst: Dst<'_>,
        mut fill: impl FnMut(&mut R, &mut [u8]) -> Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        let mut written = 0;
        loop {
            if let Some(err) = &self.error {
                return Poll::Ready(if written > 0 {
                    Ok(written)
                } else {
                    Err(err.clone().into())
                });
            }
            if self.finished || written > 0 {
                return Poll::Ready(Ok(written));
            }
            if self.in_pos == self.in_len && !self.eof {
                let n = match fill(&mut self.inner, &mut self.input) {
                    Poll::Ready(Ok(n)) => n,
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Pending => return Poll::Pending,
                };
                self.eof = n == 0;
                self.in_pos = 0;
                self.in_len = n.min(self.input.len());
            }
            let src = &self.input[self.in_pos..self.in_len];
            let last = self.eof;
            let decoder = &mut self.decoder;
            let (result, read, n) = match (self.on_malformed, &mut dst) {
                (OnMalformed::Replace, Dst::Bytes(bytes)) => {
                    let (result, read, n, had_errors) =
                        decoder.decode_to_utf8(src, &mut bytes[written..], last);
                    self.had_errors |= had_errors;
                    (coder_to_decoder(result), read, n)
                }
                (OnMalformed::Replace, Dst::Str(text)) => {
                    let (result, read, n, had_errors) =
                        decoder.decode_to_str(src, ready_try!(tail(text, written)), last);
                    self.had_errors |= had_errors;
                    (coder_to_decoder(result), read, n)
                }
                (_, Dst::Bytes(bytes)) => {
                    decoder.decode_to_utf8_without_replacement(src, &mut bytes[written..], last)
                }
                (_, Dst::Str(text)) => {
                    decoder.decode_to_str_without_replacement(src, ready_try!(tail(text, written)), last)
                }
                (on_malformed, Dst::String(text)) => {
                    let before = text.len();
                    reserve_for(decoder, src.len(), text.capacity() - before, |n| text.reserve(n));
                    let (result, read) = if on_malformed == OnMalformed::Replace {
                        let (result, read, had_errors) = decoder.decode_to_string(src, text, last);
                        self.had_errors |= had_errors;
                        (coder_to_decoder(result), read)
                    } else {
                        decoder.decode_to_string_without_replacement(src, text, last)
                    };
                    (result, read, text.len() - before)
                }
                (on_malformed, Dst::Vec(bytes)) => {
                    let before = bytes.len();
                    reserve_for(decoder, src.len(), bytes.capacity() - before, |n| {
                        bytes.reserve(n)
                    });
                    let (result, read) = if on_malformed == OnMalformed::Replace {
                        let (result, read, had_errors) = decoder.decode_to_vec(src, bytes, last);
                        self.had_errors |= had_errors;
                        (coder_to_decoder(result), read)
                    } else {
                        decoder.decode_to_vec_without_replacement(src, bytes, last)
                    };
                    (result, read, bytes.len() - before)
                }
            };
            written += n;
            self.consume_input(read);
            match result {
                DecoderResult::InputEmpty => self.finished = last,
                DecoderResult::OutputFull => return Poll::Ready(Ok(written)),
                DecoderResult::Malformed(bad, after) => {
                    self.had_errors = true;
                    if self.on_malformed == OnMalformed::Fail {
                        self.error = Some(self.malformed(bad, after));
                    }
                }
            }
        }
    }
}

impl<R: Read> DecodeSource<R> {
    /// [`poll_decode_into`](DecodeSource::poll_decode_into) reading with [`Read`], retrying
    /// `Interrupted`.
    fn decode_into(&mut self, dst: Dst<'_>) -> io::Result<usize> {
        let fill = |inner: &mut R, buf: &mut [u8]| {
            Poll::Ready(loop {
                match inner.read(buf) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    r => break r,
                }
            })
        };
        match self.poll_decode_into(dst, fill) {
            Poll::Ready(r) => r,
            Poll::Pending => unreachable!("a blocking read is never pending"),
        }
    }
}

impl<R> DecodeSource<R> {
    /// Moves past `read` input bytes, remembering the last [`HISTORY`] of them.
    fn consume_input(&mut self, read: usize) {
        let taken = &self.input[self.in_pos..self.in_pos + read];
        let keep = taken.len().min(HISTORY);
        self.history.copy_within(keep.., 0);
        self.history[HISTORY - keep..].copy_from_slice(&taken[taken.len() - keep..]);
        self.history_len = (self.history_len + keep).min(HISTORY);
        self.in_pos += read;
        self.position += read as u64;
    }

    /// The error for `Malformed(bad, after)` just returned: the sequence ends `after` bytes
    /// before the current position.
    fn malformed(&self, bad: u8, after: u8) -> MalformedError {
        let end = self.position.saturating_sub(u64::from(after));
        let offset = end.saturating_sub(u64::from(bad));
        let len = end - offset;
        // Bytes in `history` run up to `position`; the sequence is `after` bytes back.
        let back = usize::from(after);
        let available = self.history_len.saturating_sub(back);
        let shown = usize::try_from(len).unwrap_or(usize::MAX).min(available);
        let stop = HISTORY - back.min(HISTORY);
        let bytes = self.history[stop - shown..stop].to_vec();
        MalformedError {
            encoding: self.decoder.encoding(),
            offset,
            len,
            bytes,
        }
    }
}

/// Where a [`DecodeSource`] writes: a caller's byte buffer, the reader's own `str`, or the
/// end of a caller's `String` or `Vec` (`read_to_string`, `read_to_end`: appended straight
/// into their spare capacity, which is reserved as the input needs).
enum Dst<'a> {
    Bytes(&'a mut [u8]),
    Str(&'a mut str),
    String(&'a mut String),
    Vec(&'a mut Vec<u8>),
}

/// Reserves room through `reserve` for decoding `len` more bytes with `decoder` (what
/// `max_utf8_buffer_length` says, at least a character) when `spare` is less.
fn reserve_for(decoder: &Decoder, len: usize, spare: usize, reserve: impl FnOnce(usize)) {
    let need = decoder.max_utf8_buffer_length(len).unwrap_or(len).max(4);
    if spare < need {
        reserve(need);
    }
}

/// `text[from..]`; `from` is where the decoder stopped writing, a character boundary.
fn tail(text: &mut str, from: usize) -> io::Result<&mut str> {
    text.get_mut(from..).ok_or_else(|| {
        io::Error::other("simdenc::io::DecodeReader: decoder output is not at a character boundary")
    })
}

fn coder_to_decoder(result: CoderResult) -> DecoderResult {
    match result {
        CoderResult::InputEmpty => DecoderResult::InputEmpty,
        CoderResult::OutputFull => DecoderResult::OutputFull,
    }
}

/// Reads bytes in any encoding from an inner reader and yields UTF-8, through [`Read`] and
/// [`BufRead`].
///
/// The byte order mark is handled by [`Bom`] (sniffed by default, as the standard's
/// "decode" does) and malformed input by [`OnMalformed`] (U+FFFD by default). Two buffers of
/// a fixed size ([`DecodeOptions::buffer_size`]) are allocated at construction; reads into a
/// caller's buffer of 16 bytes or more decode straight into it.
///
/// ```
/// use std::io::Read;
/// use simdenc::io::DecodeReader;
/// let file: &[u8] = b"\x93\xfa\x96\x7b\x8c\xea"; // "日本語" in Shift_JIS
/// let mut text = String::new();
/// DecodeReader::new(file, simdenc::SHIFT_JIS).read_to_string(&mut text)?;
/// assert_eq!(text, "日本語");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct DecodeReader<R> {
    source: DecodeSource<R>,
    /// Decoded text; `output[out_pos..out_len]` is still to be read. Allocated at the first
    /// call that needs it (`fill_buf`, `fill_str`, a `read` into fewer than 16 bytes), so
    /// `read_to_string` and `read_to_end`, which decode into the caller's buffer, never
    /// allocate and zero it.
    output: Box<str>,
    /// The size of `output` once allocated.
    output_size: usize,
    out_pos: usize,
    out_len: usize,
}

impl<R: Read> DecodeReader<R> {
    /// A reader with the default options: BOM sniffing, replacement, 64 KiB buffers.
    ///
    /// ```
    /// use std::io::Read;
    /// let mut text = String::new();
    /// simdenc::io::DecodeReader::new(&b"caf\xE9"[..], simdenc::WINDOWS_1252).read_to_string(&mut text)?;
    /// assert_eq!(text, "café");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(inner: R, encoding: &'static Encoding) -> Self {
        Self::with_options(inner, encoding, DecodeOptions::new())
    }

    /// A reader with the given options.
    ///
    /// ```
    /// use std::io::Read;
    /// use simdenc::io::{Bom, DecodeOptions, DecodeReader};
    /// let options = DecodeOptions::new().bom(Bom::Strip);
    /// let mut text = String::new();
    /// // Strip removes only the reader's own BOM: a UTF-16LE BOM is windows-1252 data here.
    /// DecodeReader::with_options(&b"\xFF\xFEa"[..], simdenc::WINDOWS_1252, options).read_to_string(&mut text)?;
    /// assert_eq!(text, "ÿþa");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_options(inner: R, encoding: &'static Encoding, options: DecodeOptions) -> Self {
        let (source, size) = DecodeSource::new(inner, encoding, options);
        DecodeReader {
            source,
            output: Box::default(),
            output_size: size,
            out_pos: 0,
            out_len: 0,
        }
    }
}

impl<R> DecodeReader<R> {
    /// The encoding being decoded: the one given, or the one a byte order mark selected
    /// (with [`Bom::Sniff`], once the BOM has been read).
    ///
    /// ```
    /// use std::io::Read;
    /// let mut reader = simdenc::io::DecodeReader::new(&b"\xFE\xFF\x00A"[..], simdenc::WINDOWS_1252);
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text)?;
    /// assert_eq!((text.as_str(), reader.encoding()), ("A", simdenc::UTF_16BE));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.source.decoder.encoding()
    }

    /// How many input bytes the decoder has consumed (including a BOM, and bytes of an
    /// incomplete character it holds).
    ///
    /// ```
    /// use std::io::Read;
    /// let mut reader = simdenc::io::DecodeReader::new(&b"\xEF\xBB\xBFabc"[..], simdenc::UTF_8);
    /// reader.read_to_string(&mut String::new())?;
    /// assert_eq!(reader.position(), 6);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.source.position
    }

    /// Whether malformed input has been found so far (replaced, skipped, or the error).
    ///
    /// ```
    /// use std::io::Read;
    /// let mut reader = simdenc::io::DecodeReader::new(&b"a\x80"[..], simdenc::UTF_8);
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text)?;
    /// assert!(reader.had_errors());
    /// assert_eq!(text, "a\u{FFFD}");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn had_errors(&self) -> bool {
        self.source.had_errors
    }

    /// How many malformed sequences have been replaced with U+FFFD so far
    /// ([`OnMalformed::Replace`]; 0 in the other modes): one per error, exactly the
    /// standard's, so a U+FFFD the input itself encodes is not counted.
    ///
    /// ```
    /// use std::io::Read;
    /// // One literal U+FFFD, then two malformed sequences.
    /// let input = "\u{FFFD} a".bytes().chain(*b"\xFF b \xC3").collect::<Vec<u8>>();
    /// let mut reader = simdenc::io::DecodeReader::new(&input[..], simdenc::UTF_8);
    /// let mut text = String::new();
    /// reader.read_to_string(&mut text)?;
    /// assert_eq!(text, "\u{FFFD} a\u{FFFD} b \u{FFFD}");
    /// assert_eq!(reader.replaced(), 2);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn replaced(&self) -> u64 {
        self.source.decoder.replaced()
    }

    /// The inner reader.
    ///
    /// ```
    /// let reader = simdenc::io::DecodeReader::new(&b"abc"[..], simdenc::UTF_8);
    /// assert_eq!(reader.get_ref(), b"abc");
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.source.inner
    }

    /// The inner reader, mutably. Reading from it directly skips bytes the decoder would
    /// have seen.
    ///
    /// ```
    /// let mut reader = simdenc::io::DecodeReader::new(std::io::Cursor::new(b"abc"), simdenc::UTF_8);
    /// assert_eq!(reader.get_mut().position(), 0);
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.source.inner
    }

    /// The inner reader; buffered input and output are lost.
    ///
    /// ```
    /// let reader = simdenc::io::DecodeReader::new(&b"abc"[..], simdenc::UTF_8);
    /// assert_eq!(reader.into_inner(), b"abc");
    /// ```
    pub fn into_inner(self) -> R {
        self.source.inner
    }
}

impl<R: Read> DecodeReader<R> {
    /// Like [`BufRead::fill_buf`], as text: the decoded text buffered so far (decoding more
    /// if none is), empty only at the end of the stream. Mark what you used with
    /// [`BufRead::consume`]; this saves the UTF-8 validation a `&[u8]` consumer would need.
    ///
    /// Errors as [`Read::read`] does, and with kind `InvalidInput` if a `consume` stopped
    /// inside a character.
    ///
    /// ```
    /// use std::io::BufRead;
    /// let mut reader = simdenc::io::DecodeReader::new(&b"\x8c\xea\x82\xa0"[..], simdenc::SHIFT_JIS);
    /// let mut text = String::new();
    /// loop {
    ///     let chunk = reader.fill_str()?;
    ///     if chunk.is_empty() {
    ///         break;
    ///     }
    ///     text.push_str(chunk);
    ///     let n = chunk.len();
    ///     reader.consume(n);
    /// }
    /// assert_eq!(text, "語あ");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn fill_str(&mut self) -> io::Result<&str> {
        self.refill()?;
        self.output.get(self.out_pos..self.out_len).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "simdenc::io::DecodeReader: consume() stopped inside a character",
            )
        })
    }

    /// Decodes more into the internal buffer if all of it has been read.
    fn refill(&mut self) -> io::Result<()> {
        if self.out_pos == self.out_len {
            self.out_pos = 0;
            self.out_len = 0;
            if self.output.is_empty() {
                self.output = "\0".repeat(self.output_size).into_boxed_str();
            }
            self.out_len = self.source.decode_into(Dst::Str(&mut self.output))?;
        }
        Ok(())
    }
}

impl<R: Read> DecodeReader<R> {
    /// Moves the text buffered by `fill_buf`/`fill_str` to `push`; errors if a `consume`
    /// stopped inside a character.
    fn drain_buffered(&mut self, push: impl FnOnce(&str)) -> io::Result<()> {
        if self.out_pos < self.out_len {
            push(self.fill_str()?);
            self.out_pos = self.out_len;
        }
        Ok(())
    }
}

impl<R: Read> Read for DecodeReader<R> {
    /// Decodes the rest of the stream straight into the end of `buf` (no intermediate
    /// buffer, no second UTF-8 validation), with the text already buffered first. On an
    /// error, the text before it stays appended.
    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        let start = buf.len();
        self.drain_buffered(|text| buf.push_str(text))?;
        while self.source.decode_into(Dst::String(buf))? > 0 {}
        Ok(buf.len() - start)
    }

    /// As [`read_to_string`](Read::read_to_string), into a `Vec<u8>`.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let start = buf.len();
        self.drain_buffered(|text| buf.extend_from_slice(text.as_bytes()))?;
        while self.source.decode_into(Dst::Vec(buf))? > 0 {}
        Ok(buf.len() - start)
    }

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.out_pos == self.out_len && buf.len() >= 16 {
            return self.source.decode_into(Dst::Bytes(buf));
        }
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for DecodeReader<R> {
    /// The decoded text buffered so far, as bytes: always whole UTF-8 characters, empty only
    /// at the end of the stream.
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.refill()?;
        Ok(&self.output.as_bytes()[self.out_pos..self.out_len])
    }

    fn consume(&mut self, amount: usize) {
        self.out_pos = (self.out_pos + amount).min(self.out_len);
    }
}

/// Takes UTF-8 through [`Write`] and writes it to an inner writer in any encoding.
///
/// The writer is created for an encoding's output encoding, as [`Encoding::new_encoder`]
/// is (UTF-8 for UTF-16BE, UTF-16LE and replacement). Unmappable characters follow
/// [`OnUnmappable`] (`&#N;` by default). A UTF-8 character split across `write` calls is
/// held (up to 3 bytes) until its end arrives; bytes that are not UTF-8 are an error of kind
/// `InvalidData`. Output is buffered in a fixed-size buffer ([`EncodeOptions::buffer_size`]).
///
/// Call [`finish`](EncodeWriter::finish) at the end: it writes the encoder's end-of-stream
/// bytes (ISO-2022-JP's return to ASCII), flushes, reports any error, and gives the inner
/// writer back. Dropping the writer does the same but has to ignore errors.
///
/// ```
/// use std::io::Write;
/// use simdenc::io::EncodeWriter;
/// let mut writer = EncodeWriter::new(Vec::new(), simdenc::ISO_2022_JP);
/// writer.write_all("日本".as_bytes())?;
/// assert_eq!(writer.finish()?, b"\x1b$BF|K\\\x1b(B");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct EncodeWriter<W: Write> {
    /// `None` once `finish` has handed it back.
    inner: Option<W>,
    encoder: Encoder,
    on_unmappable: OnUnmappable,
    buf: Box<[u8]>,
    len: usize,
    /// An incomplete UTF-8 character from the end of the last write.
    partial: [u8; 4],
    partial_len: usize,
    /// UTF-8 bytes of text consumed.
    text_offset: u64,
    had_unmappables: bool,
    /// The fatal error, once found.
    error: Option<UnmappableError>,
    /// Set while the inner writer runs, so that a panic in it does not make drop write again.
    panicked: bool,
}

impl<W: Write> EncodeWriter<W> {
    /// A writer with the default options: `&#N;` for unmappable characters, a 64 KiB buffer.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut writer = simdenc::io::EncodeWriter::new(Vec::new(), simdenc::WINDOWS_1252);
    /// writer.write_all("€ \u{3042}".as_bytes())?;
    /// assert_eq!(writer.finish()?, b"\x80 &#12354;");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(inner: W, encoding: &'static Encoding) -> Self {
        Self::with_options(inner, encoding, EncodeOptions::new())
    }

    /// A writer with the given options.
    ///
    /// ```
    /// use std::io::Write;
    /// use simdenc::io::{EncodeOptions, EncodeWriter, OnUnmappable};
    /// let options = EncodeOptions::new().on_unmappable(OnUnmappable::Fail).buffer_size(256);
    /// let mut writer = EncodeWriter::with_options(Vec::new(), simdenc::EUC_KR, options);
    /// assert!(writer.write_all("\u{e9}".as_bytes()).is_err());
    /// ```
    pub fn with_options(inner: W, encoding: &'static Encoding, options: EncodeOptions) -> Self {
        EncodeWriter {
            inner: Some(inner),
            encoder: encoding.new_encoder(),
            on_unmappable: options.on_unmappable,
            buf: vec![0; options.buffer_size.max(MIN_BUFFER_SIZE)].into_boxed_slice(),
            len: 0,
            partial: [0; 4],
            partial_len: 0,
            text_offset: 0,
            had_unmappables: false,
            error: None,
            panicked: false,
        }
    }

    /// The encoding being written (an output encoding).
    ///
    /// ```
    /// let writer = simdenc::io::EncodeWriter::new(Vec::new(), simdenc::UTF_16LE);
    /// assert_eq!(writer.encoding(), simdenc::UTF_8);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoder.encoding()
    }

    /// Whether an unmappable character has been found so far (written as `&#N;`, skipped,
    /// or the error).
    ///
    /// ```
    /// use std::io::Write;
    /// let mut writer = simdenc::io::EncodeWriter::new(Vec::new(), simdenc::GBK);
    /// writer.write_all("\u{20AC}".as_bytes())?;
    /// assert!(!writer.had_unmappables());
    /// writer.write_all("\u{1F600}".as_bytes())?;
    /// assert!(writer.had_unmappables());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn had_unmappables(&self) -> bool {
        self.had_unmappables
    }

    /// The inner writer (`None` only after a panic in `finish`).
    ///
    /// ```
    /// let writer = simdenc::io::EncodeWriter::new(Vec::<u8>::new(), simdenc::UTF_8);
    /// assert!(writer.get_ref().unwrap().is_empty());
    /// ```
    pub fn get_ref(&self) -> Option<&W> {
        self.inner.as_ref()
    }

    /// The inner writer, mutably. Writing to it directly puts bytes before those still
    /// buffered; call [`flush`](Write::flush) first.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut writer = simdenc::io::EncodeWriter::new(Vec::<u8>::new(), simdenc::UTF_8);
    /// writer.write_all(b"a")?;
    /// writer.flush()?;
    /// assert_eq!(writer.get_mut().unwrap().as_slice(), b"a");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn get_mut(&mut self) -> Option<&mut W> {
        self.inner.as_mut()
    }

    /// Encodes all of `text`, as `write_all(text.as_bytes())` would, without checking that
    /// it is UTF-8 again.
    ///
    /// ```
    /// let mut writer = simdenc::io::EncodeWriter::new(Vec::new(), simdenc::EUC_JP);
    /// writer.write_str("日本")?;
    /// assert_eq!(writer.finish()?, b"\xC6\xFC\xCB\xDC");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_str(&mut self, text: &str) -> io::Result<()> {
        if let Some(err) = &self.error {
            return Err(err.clone().into());
        }
        if text.is_empty() {
            return Ok(());
        }
        if self.partial_len > 0 {
            // A held lead byte cannot be completed by a `str`, which starts at a character.
            self.partial_len = 0;
            return Err(self.invalid_utf8());
        }
        let mut done = 0;
        while done < text.len() {
            if self.buf.len() - self.len < ENCODE_ROOM {
                self.flush_buf()?;
            }
            done += self.encode(&text[done..])?;
        }
        Ok(())
    }

    /// Ends the stream: writes the encoder's end-of-stream output (ISO-2022-JP's `ESC ( B`),
    /// flushes everything to the inner writer and returns it.
    ///
    /// Errors: an incomplete UTF-8 character at the end (`InvalidData`), the
    /// [`UnmappableError`] of an earlier failed write (the text before it is flushed first),
    /// or an error of the inner writer.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut writer = simdenc::io::EncodeWriter::new(Vec::new(), simdenc::UTF_8);
    /// writer.write_all(b"\xE6\x97")?; // the first two bytes of "日"
    /// assert_eq!(writer.finish().unwrap_err().kind(), std::io::ErrorKind::InvalidData);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        self.finish_in_place()?;
        self.inner
            .take()
            .ok_or_else(|| io::Error::other("simdenc::io::EncodeWriter: inner writer lost in a panic"))
    }

    fn finish_in_place(&mut self) -> io::Result<()> {
        if let Some(err) = self.error.clone() {
            self.flush_buf()?;
            return Err(err.into());
        }
        if self.partial_len > 0 {
            self.partial_len = 0;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "incomplete UTF-8 character at the end of the text (byte offset {})",
                    self.text_offset
                ),
            ));
        }
        loop {
            let (result, _, written) =
                self.encoder
                    .encode_from_utf8_without_replacement("", &mut self.buf[self.len..], true);
            self.len += written;
            match result {
                EncoderResult::OutputFull => self.flush_buf()?,
                _ => break,
            }
        }
        self.flush_buf()?;
        self.inner_flush()
    }

    /// Writes the buffered output to the inner writer.
    fn flush_buf(&mut self) -> io::Result<()> {
        let Some(inner) = self.inner.as_mut() else {
            return Ok(());
        };
        let mut done = 0;
        let mut result = Ok(());
        while done < self.len {
            self.panicked = true;
            let r = inner.write(&self.buf[done..self.len]);
            self.panicked = false;
            match r {
                Ok(0) => {
                    result = Err(io::Error::new(
                        io::ErrorKind::WriteZero,
                        "failed to write the encoded output",
                    ));
                    break;
                }
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.buf.copy_within(done..self.len, 0);
        self.len -= done;
        result
    }

    fn inner_flush(&mut self) -> io::Result<()> {
        match self.inner.as_mut() {
            Some(inner) => {
                self.panicked = true;
                let r = inner.flush();
                self.panicked = false;
                r
            }
            None => Ok(()),
        }
    }

    /// Encodes `text` into the buffer as far as it fits; returns the bytes of `text` consumed.
    fn encode(&mut self, text: &str) -> io::Result<usize> {
        let mut read = 0;
        loop {
            let dst = &mut self.buf[self.len..];
            let (result, n, written) = match self.on_unmappable {
                OnUnmappable::Html => {
                    let (result, n, written, had) = self.encoder.encode_from_utf8(&text[read..], dst, false);
                    self.had_unmappables |= had;
                    let result = match result {
                        CoderResult::InputEmpty => EncoderResult::InputEmpty,
                        CoderResult::OutputFull => EncoderResult::OutputFull,
                    };
                    (result, n, written)
                }
                OnUnmappable::Fail | OnUnmappable::Skip => {
                    self.encoder
                        .encode_from_utf8_without_replacement(&text[read..], dst, false)
                }
            };
            read += n;
            self.len += written;
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::OutputFull if read > 0 => break,
                EncoderResult::OutputFull => self.flush_buf()?,
                EncoderResult::Unmappable(c) => {
                    self.had_unmappables = true;
                    if self.on_unmappable == OnUnmappable::Fail {
                        // The encoder consumed the character; it reports U+FFFD for the
                        // ISO-2022-JP controls (U+000E, U+000F, U+001B), so take the
                        // character from the text.
                        let character = text[..read].chars().next_back().unwrap_or(c);
                        let err = UnmappableError {
                            encoding: self.encoder.encoding(),
                            character,
                            offset: self.text_offset + (read - character.len_utf8()) as u64,
                        };
                        self.text_offset += read as u64;
                        self.error = Some(err.clone());
                        return Err(err.into());
                    }
                }
            }
        }
        self.text_offset += read as u64;
        Ok(read)
    }

    /// Completes the held partial character with bytes from `data`; returns how many were
    /// taken.
    fn complete_partial(&mut self, data: &[u8]) -> io::Result<usize> {
        let need = utf8_len(self.partial[0]);
        let mut taken = 0;
        while self.partial_len < need && taken < data.len() {
            let b = data[taken];
            if b & 0xC0 != 0x80 {
                break;
            }
            self.partial[self.partial_len] = b;
            self.partial_len += 1;
            taken += 1;
        }
        if self.partial_len < need && taken == data.len() {
            return Ok(taken);
        }
        let len = self.partial_len;
        self.partial_len = 0;
        let partial = self.partial;
        match std::str::from_utf8(&partial[..len]) {
            Ok(c) => {
                let n = self.encode(c)?;
                debug_assert_eq!(n, len, "ENCODE_ROOM holds one character");
                Ok(taken)
            }
            Err(_) => Err(self.invalid_utf8()),
        }
    }

    fn invalid_utf8(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("invalid UTF-8 in the text at byte offset {}", self.text_offset),
        )
    }
}

impl<W: Write> Write for EncodeWriter<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if let Some(err) = &self.error {
            return Err(err.clone().into());
        }
        if data.is_empty() {
            return Ok(0);
        }
        if self.buf.len() - self.len < ENCODE_ROOM {
            self.flush_buf()?;
        }
        if self.partial_len > 0 {
            return self.complete_partial(data);
        }
        // Validate at most a buffer's worth per call, so that write_all stays linear.
        let window = &data[..data.len().min(self.buf.len())];
        // The validation kernel (std's `from_utf8` was as slow as the encode itself, or
        // slower: windows-1251 at AVX2 0.26 times the slice call); std only for what follows
        // the valid prefix, to tell an incomplete character from an error.
        let valid = Encoding::utf8_valid_up_to(window);
        let text = crate::oneshot::as_str(&window[..valid]);
        let (text, tail) = match std::str::from_utf8(&window[valid..]) {
            Ok(_) => (text, &[][..]),
            Err(e) => match e.error_len() {
                None if window.len() == data.len() => (text, &window[valid..]),
                None => (text, &[][..]),
                Some(_) if valid == 0 => return Err(self.invalid_utf8()),
                Some(_) => (text, &[][..]),
            },
        };
        if text.is_empty() {
            // An incomplete character alone at the end of `data`: hold it.
            self.partial[..tail.len()].copy_from_slice(tail);
            self.partial_len = tail.len();
            return Ok(tail.len());
        }
        let read = self.encode(text)?;
        if read == text.len() && !tail.is_empty() {
            self.partial[..tail.len()].copy_from_slice(tail);
            self.partial_len = tail.len();
            return Ok(read + tail.len());
        }
        Ok(read)
    }

    /// Writes out the buffered output and flushes the inner writer. The encoder's state
    /// (an ISO-2022-JP mode) and a held partial character stay: only
    /// [`finish`](EncodeWriter::finish) ends the stream.
    fn flush(&mut self) -> io::Result<()> {
        self.flush_buf()?;
        self.inner_flush()
    }
}

impl<W: Write> Drop for EncodeWriter<W> {
    fn drop(&mut self) {
        if self.inner.is_some() && !self.panicked {
            let _ = self.finish_in_place();
        }
    }
}

/// The length of the UTF-8 sequence that `lead` starts (1 for bytes that cannot start one;
/// the validation that follows rejects them).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{self, ErrorMode};
    use crate::{ISO_2022_JP, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

    /// Deterministic xorshift, so that failures reproduce.
    pub(super) struct Rng(pub(super) u64);
    impl Rng {
        pub(super) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        pub(super) fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// A reader that hands out at most `step` bytes per read, with `Interrupted` in between.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
        interrupt: bool,
    }
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// Bytes that exercise every decoder: text from the standard's encoders plus noise.
    pub(super) fn sample(rng: &mut Rng, encoding: &'static Encoding) -> Vec<u8> {
        let text = "Mars 火星 Марс 화성 ﾏｰｽ €¥ 😀 \u{FEFF}x";
        let mut bytes = encoding.new_encoder().encoding().encode(text).0.into_owned();
        if encoding == UTF_16LE || encoding == UTF_16BE {
            let units: Vec<u16> = text.encode_utf16().collect();
            bytes = units
                .iter()
                .flat_map(|u| {
                    if encoding == UTF_16LE {
                        u.to_le_bytes()
                    } else {
                        u.to_be_bytes()
                    }
                })
                .collect();
        }
        for _ in 0..rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            bytes.insert(at, rng.next() as u8);
        }
        if rng.below(2) == 0 {
            bytes.truncate(rng.below(bytes.len() + 1));
        }
        bytes
    }

    /// The malformed sequences in `input` (BOM sniffed), one `Malformed` result each.
    fn errors(input: &[u8], encoding: &'static Encoding) -> u64 {
        let mut decoder = encoding.new_decoder();
        let mut out = String::with_capacity(4 * input.len() + 16);
        let (mut rest, mut errors) = (input, 0);
        loop {
            match decoder.decode_to_string_without_replacement(rest, &mut out, true) {
                (DecoderResult::Malformed(..), read) => {
                    errors += 1;
                    rest = &rest[read..];
                }
                (DecoderResult::InputEmpty, _) => return errors,
                (DecoderResult::OutputFull, _) => unreachable!("room for every character"),
            }
        }
    }

    fn read_all<R: Read>(mut reader: R, chunk: usize) -> (Vec<u8>, Option<io::Error>) {
        let mut out = Vec::new();
        let mut buf = vec![0; chunk];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return (out, Some(e)),
            }
        }
    }

    #[test]
    fn decode_equals_the_standard_in_every_chunking() {
        let mut rng = Rng(0x5eed);
        for &encoding in Encoding::all() {
            for _ in 0..20 {
                let input = sample(&mut rng, encoding);
                let expected = spec::decode_bytes(&input, encoding);
                let step = 1 + rng.below(7);
                let chunk = 1 + rng.below(40);
                let options = DecodeOptions::new().buffer_size(rng.below(200));
                let mut reader = DecodeReader::with_options(
                    Trickle {
                        data: &input,
                        step,
                        interrupt: false,
                    },
                    encoding,
                    options,
                );
                let (out, err) = read_all(&mut reader, chunk);
                assert!(err.is_none(), "{}: {err:?}", encoding.name());
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    expected,
                    "{} {input:02X?}",
                    encoding.name()
                );
                assert_eq!(
                    reader.replaced(),
                    errors(&input, encoding),
                    "{} {input:02X?}",
                    encoding.name()
                );
            }
        }
    }

    #[test]
    fn bufread_yields_whole_characters() {
        let input = "日本語のテキスト".repeat(50);
        let bytes = crate::SHIFT_JIS.encode(&input).0.into_owned();
        let mut reader =
            DecodeReader::with_options(&bytes[..], crate::SHIFT_JIS, DecodeOptions::new().buffer_size(0));
        let mut text = String::new();
        loop {
            let buf = reader.fill_buf().unwrap();
            if buf.is_empty() {
                break;
            }
            text.push_str(std::str::from_utf8(buf).unwrap());
            let n = buf.len();
            reader.consume(n);
        }
        assert_eq!(text, input);
        assert_eq!(reader.position(), bytes.len() as u64);
    }

    #[test]
    fn fatal_offsets_equal_the_standard() {
        let mut rng = Rng(42);
        for &encoding in Encoding::all() {
            for _ in 0..40 {
                let input = sample(&mut rng, encoding);
                let run = spec::run_decoder(encoding, &input, ErrorMode::Fatal);
                let options = DecodeOptions::new()
                    .bom(Bom::Keep)
                    .on_malformed(OnMalformed::Fail)
                    .buffer_size(64 + rng.below(64));
                let reader = DecodeReader::with_options(
                    Trickle {
                        data: &input,
                        step: 1 + rng.below(5),
                        interrupt: false,
                    },
                    encoding,
                    options,
                );
                let (out, err) = read_all(reader, 16 + rng.below(16));
                assert_eq!(String::from_utf8(out).unwrap(), run.output, "{}", encoding.name());
                let end = err.map(|e| {
                    let m = MalformedError::from_io_error(&e).unwrap().clone();
                    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
                    assert!(m.offset() <= m.end());
                    let start = usize::try_from(m.offset()).unwrap();
                    let end = usize::try_from(m.end()).unwrap();
                    assert_eq!(m.bytes(), &input[start..end]);
                    end
                });
                assert_eq!(end, run.error, "{} {input:02X?}", encoding.name());
            }
        }
    }

    #[test]
    fn fatal_error_is_sticky_and_follows_the_text() {
        let options = DecodeOptions::new().on_malformed(OnMalformed::Fail);
        let mut reader = DecodeReader::with_options(&b"abc\xFFdef"[..], UTF_8, options);
        let mut buf = [0u8; 32];
        assert_eq!(reader.read(&mut buf).unwrap(), 3);
        for _ in 0..3 {
            let err = reader.read(&mut buf).unwrap_err();
            assert_eq!(MalformedError::from_io_error(&err).unwrap().offset(), 3);
        }
        assert!(reader.had_errors());
    }

    #[test]
    fn malformed_bytes_from_an_earlier_buffer() {
        // The sequence starts in one read of the inner reader and ends in the next.
        let options = DecodeOptions::new().on_malformed(OnMalformed::Fail);
        let input = b"ab\xF0\x9F\x98x";
        let inner = Trickle {
            data: input,
            step: 3,
            interrupt: false,
        };
        let (out, err) = read_all(DecodeReader::with_options(inner, UTF_8, options), 64);
        assert_eq!(out, b"ab");
        let err = err.unwrap();
        let m = MalformedError::from_io_error(&err).unwrap();
        assert_eq!((m.offset(), m.end(), m.bytes()), (2, 5, &b"\xF0\x9F\x98"[..]));
    }

    #[test]
    fn skip_drops_malformed_sequences() {
        let mut rng = Rng(7);
        for &encoding in Encoding::all() {
            for _ in 0..10 {
                let input = sample(&mut rng, encoding);
                // Expected: the decoder without replacement, errors ignored.
                let mut decoder = encoding.new_decoder();
                let mut expected = String::new();
                let mut rest = &input[..];
                loop {
                    let mut buf = [0u8; 256];
                    let (result, read, written) =
                        decoder.decode_to_utf8_without_replacement(rest, &mut buf, true);
                    expected.push_str(std::str::from_utf8(&buf[..written]).unwrap());
                    rest = &rest[read..];
                    if result == DecoderResult::InputEmpty {
                        break;
                    }
                }
                let options = DecodeOptions::new().on_malformed(OnMalformed::Skip);
                let mut text = String::new();
                DecodeReader::with_options(&input[..], encoding, options)
                    .read_to_string(&mut text)
                    .unwrap();
                assert_eq!(text, expected, "{}", encoding.name());
            }
        }
    }

    #[test]
    fn bom_policies() {
        let read = |bytes: &[u8], encoding, bom| {
            let mut text = String::new();
            let mut reader = DecodeReader::with_options(bytes, encoding, DecodeOptions::new().bom(bom));
            reader.read_to_string(&mut text).unwrap();
            (text, reader.encoding())
        };
        let utf8_bom = b"\xEF\xBB\xBFa";
        assert_eq!(read(utf8_bom, WINDOWS_1252, Bom::Sniff), ("a".into(), UTF_8));
        assert_eq!(
            read(utf8_bom, WINDOWS_1252, Bom::Strip),
            ("ï»¿a".into(), WINDOWS_1252)
        );
        assert_eq!(read(utf8_bom, UTF_8, Bom::Strip), ("a".into(), UTF_8));
        assert_eq!(read(utf8_bom, UTF_8, Bom::Keep), ("\u{FEFF}a".into(), UTF_8));
        assert_eq!(read(b"\xFF\xFEa\x00", UTF_8, Bom::Sniff), ("a".into(), UTF_16LE));
        assert_eq!(read(b"\xEF\xBB", UTF_8, Bom::Sniff), ("\u{FFFD}".into(), UTF_8));
        assert_eq!(read(b"", REPLACEMENT, Bom::Sniff), ("".into(), REPLACEMENT));
    }

    #[test]
    fn inner_read_errors_pass_through() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let err = DecodeReader::new(Broken, UTF_8).read(&mut [0; 64]).unwrap_err();
        assert_eq!(err.to_string(), "disk on fire");
    }

    /// Writes `text` in random pieces (splitting characters) and finishes.
    fn write_pieces(
        encoding: &'static Encoding,
        options: EncodeOptions,
        text: &str,
        rng: &mut Rng,
    ) -> io::Result<Vec<u8>> {
        let mut writer = EncodeWriter::with_options(Vec::new(), encoding, options);
        let bytes = text.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            let end = (pos + 1 + rng.below(9)).min(bytes.len());
            writer.write_all(&bytes[pos..end])?;
            pos = end;
            if rng.below(8) == 0 {
                writer.flush()?;
            }
        }
        writer.finish()
    }

    pub(super) fn sample_text(rng: &mut Rng) -> String {
        let pieces = [
            "a", "é", "€", "日本", "ｶ", "한", "Ж", "😀", "\u{E5E5}", "¥", "\u{0E}", "~", "\n",
        ];
        (0..rng.below(60))
            .map(|_| pieces[rng.below(pieces.len())])
            .collect()
    }

    #[test]
    fn encode_html_equals_the_standard_in_every_split() {
        let mut rng = Rng(99);
        for &encoding in Encoding::all() {
            let output = encoding.output_encoding();
            for _ in 0..20 {
                let text = sample_text(&mut rng);
                let expected = spec::run_encoder(output, &text, ErrorMode::Html).output;
                let options = EncodeOptions::new().buffer_size(rng.below(128));
                let got = write_pieces(encoding, options, &text, &mut rng).unwrap();
                assert_eq!(got, expected, "{} {text:?}", encoding.name());
            }
        }
    }

    #[test]
    fn encode_fatal_equals_the_standard() {
        let mut rng = Rng(1234);
        for &encoding in Encoding::all() {
            let output = encoding.output_encoding();
            for _ in 0..20 {
                let text = sample_text(&mut rng);
                let run = spec::run_encoder(output, &text, ErrorMode::Fatal);
                let options = EncodeOptions::new().on_unmappable(OnUnmappable::Fail);
                let got = write_pieces(encoding, options, &text, &mut rng);
                match (got, run.error) {
                    (Ok(bytes), None) => assert_eq!(bytes, run.output),
                    (Err(e), Some((c, chars))) => {
                        let u = UnmappableError::from_io_error(&e).unwrap();
                        let (offset, actual) = text.char_indices().nth(chars - 1).unwrap();
                        assert!(c == actual || (c == '\u{FFFD}' && "\u{E}\u{F}\u{1B}".contains(actual)));
                        assert_eq!(
                            (u.character(), u.offset()),
                            (actual, offset as u64),
                            "{}",
                            encoding.name()
                        );
                    }
                    (got, error) => panic!("{}: {text:?}: {got:?} vs {error:?}", encoding.name()),
                }
            }
        }
    }

    #[test]
    fn fatal_writer_keeps_the_text_before_the_error() {
        let options = EncodeOptions::new().on_unmappable(OnUnmappable::Fail);
        let mut out = Vec::new();
        {
            let mut writer = EncodeWriter::with_options(&mut out, ISO_2022_JP, options);
            writer.write_all("日€x".as_bytes()).unwrap_err();
            // Sticky.
            assert!(writer.write_all(b"y").is_err());
            assert!(UnmappableError::from_io_error(&writer.finish().unwrap_err()).is_some());
        }
        // The standard's fatal output: no return to ASCII after the error.
        assert_eq!(
            out,
            spec::run_encoder(ISO_2022_JP, "日€x", ErrorMode::Fatal).output
        );
    }

    #[test]
    fn skip_drops_unmappables() {
        let options = EncodeOptions::new().on_unmappable(OnUnmappable::Skip);
        let mut rng = Rng(3);
        let got = write_pieces(crate::SHIFT_JIS, options, "a日한b€", &mut rng).unwrap();
        assert_eq!(got, b"a\x93\xfab");
    }

    #[test]
    fn drop_ends_the_stream() {
        let mut out = Vec::new();
        {
            let mut writer = EncodeWriter::new(&mut out, ISO_2022_JP);
            // The standard's encoder writes halfwidth katakana as their fullwidth forms.
            writer.write_all("ｶ".as_bytes()).unwrap();
        }
        assert_eq!(out, b"\x1b$B%+\x1b(B");
    }

    #[test]
    fn invalid_utf8_is_an_error() {
        let mut writer = EncodeWriter::new(Vec::new(), WINDOWS_1252);
        assert_eq!(
            writer.write(b"\xFFabc").unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
        // A valid prefix is accepted first.
        assert_eq!(writer.write(b"ab\xFF").unwrap(), 2);
        // A lead byte followed by a non-continuation across writes.
        assert_eq!(writer.write(b"\xC3").unwrap(), 1);
        assert_eq!(writer.write(b"x").unwrap_err().kind(), io::ErrorKind::InvalidData);
        assert_eq!(writer.finish().unwrap(), b"ab");
    }

    #[test]
    fn inner_write_errors_surface() {
        /// Accepts `room` bytes, then fails as a full disk does.
        struct Full {
            room: usize,
        }
        impl Write for Full {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                if self.room == 0 {
                    return Err(io::Error::other("No space left on device"));
                }
                let n = buf.len().min(self.room);
                self.room -= n;
                Ok(n)
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut writer =
            EncodeWriter::with_options(Full { room: 100 }, UTF_8, EncodeOptions::new().buffer_size(64));
        let err = writer.write_all(&[b'a'; 1000]).unwrap_err();
        assert_eq!(err.to_string(), "No space left on device");
        let mut writer = EncodeWriter::new(Full { room: 10 }, UTF_8);
        writer.write_all(&[b'a'; 1000]).unwrap();
        assert!(writer.finish().is_err());
    }

    #[test]
    fn fill_str_and_write_str_pipeline() {
        let mut rng = Rng(77);
        for &encoding in Encoding::all() {
            let input = sample(&mut rng, encoding);
            let expected = spec::decode_bytes(&input, encoding);
            let options = DecodeOptions::new().buffer_size(64);
            let mut reader = DecodeReader::with_options(&input[..], encoding, options);
            let mut writer =
                EncodeWriter::with_options(Vec::new(), UTF_8, EncodeOptions::new().buffer_size(64));
            loop {
                let text = reader.fill_str().unwrap();
                if text.is_empty() {
                    break;
                }
                // Consume part of it, at a character boundary.
                let n = text
                    .char_indices()
                    .nth(1 + rng.below(3))
                    .map_or(text.len(), |(i, _)| i);
                writer.write_str(&text[..n]).unwrap();
                reader.consume(n);
            }
            assert_eq!(
                writer.finish().unwrap(),
                expected.as_bytes(),
                "{}",
                encoding.name()
            );
        }
        // consume() inside a character is reported, not a panic.
        let mut reader = DecodeReader::new(&b"\xE6\x97\xA5x"[..], UTF_8);
        assert_eq!(reader.fill_str().unwrap(), "日x");
        reader.consume(1);
        assert_eq!(reader.fill_str().unwrap_err().kind(), io::ErrorKind::InvalidInput);
        // write_str after a held partial character.
        let mut writer = EncodeWriter::new(Vec::new(), UTF_8);
        writer.write_all(b"\xE6").unwrap();
        writer.write_str("").unwrap();
        assert_eq!(
            writer.write_str("x").unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
    }

    #[test]
    fn large_writes_are_linear() {
        // One write_all of 8 MiB through a 64-byte buffer: quadratic validation would time out.
        let text = "ab€日".repeat(1 << 20);
        let options = EncodeOptions::new().buffer_size(64);
        let mut writer = EncodeWriter::with_options(io::sink(), crate::GB18030, options);
        writer.write_all(text.as_bytes()).unwrap();
        writer.finish().unwrap();
    }
}
