//! The [`io`](super) adapters for tokio: [`AsyncDecodeReader`] reads bytes in any encoding
//! from an [`AsyncRead`] and yields UTF-8 through [`AsyncRead`] and [`AsyncBufRead`];
//! [`AsyncEncodeWriter`] takes UTF-8 through [`AsyncWrite`] and writes any encoding.
//!
//! They take the same options ([`DecodeOptions`], [`EncodeOptions`]), report the same errors
//! ([`MalformedError`](super::MalformedError), [`UnmappableError`](super::UnmappableError)
//! inside an [`io::Error`]) and produce the same output, byte for byte, as
//! [`DecodeReader`](super::DecodeReader) and [`EncodeWriter`], whose
//! state machines they run: only the reads and writes of the inner stream are polled
//! instead of blocking. The end of the encoded stream (ISO-2022-JP's `ESC ( B`) is written
//! by [`poll_shutdown`](AsyncWrite::poll_shutdown) (`AsyncWriteExt::shutdown`), as
//! [`EncodeWriter::finish`] does; dropping an
//! [`AsyncEncodeWriter`] cannot write it.
//!
//! Requires the `tokio` feature, which depends on tokio without its default features (its
//! io traits only, no runtime). The inner streams must be [`Unpin`] (box or pin a stream
//! that is not: `Box::pin(stream)` is `Unpin`).
//!
//! ```
//! use simdenc::io::tokio::{AsyncDecodeReader, AsyncEncodeWriter};
//! use tokio::io::{AsyncReadExt, AsyncWriteExt};
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut text = String::new();
//! AsyncDecodeReader::new(&b"\x93\xfa\x96\x7b"[..], simdenc::SHIFT_JIS).read_to_string(&mut text).await?;
//! assert_eq!(text, "日本");
//!
//! let mut writer = AsyncEncodeWriter::new(Vec::new(), simdenc::ISO_2022_JP);
//! writer.write_all(text.as_bytes()).await?;
//! writer.shutdown().await?;
//! assert_eq!(writer.into_inner(), b"\x1b$BF|K\\\x1b(B");
//! # Ok::<(), std::io::Error>(())
//! # }).unwrap();
//! ```
#![forbid(unsafe_code)]

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use ::tokio::io::{AsyncBufRead, AsyncRead, AsyncWrite, ReadBuf};

use super::{DecodeOptions, DecodeSource, Dst, ENCODE_ROOM, EncodeOptions, EncodeWriter};
use crate::Encoding;

/// Polls `inner` for up to `buf.len()` bytes, retrying `Interrupted` as the blocking reader
/// does.
fn poll_fill<R: AsyncRead + Unpin>(
    inner: &mut R,
    cx: &mut Context<'_>,
    buf: &mut [u8],
) -> Poll<io::Result<usize>> {
    loop {
        let mut read_buf = ReadBuf::new(buf);
        match ready!(Pin::new(&mut *inner).poll_read(cx, &mut read_buf)) {
            Ok(()) => return Poll::Ready(Ok(read_buf.filled().len())),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Poll::Ready(Err(e)),
        }
    }
}

/// Reads bytes in any encoding from an inner [`AsyncRead`] and yields UTF-8, through
/// [`AsyncRead`] and [`AsyncBufRead`]: [`DecodeReader`](super::DecodeReader) for tokio.
///
/// The same options ([`DecodeOptions`]: [`Bom`](super::Bom),
/// [`OnMalformed`](super::OnMalformed), buffer size), the same output and the same errors;
/// a fatal error comes after the text before it, then at every read.
///
/// ```
/// use simdenc::io::{DecodeOptions, MalformedError, OnMalformed};
/// use simdenc::io::tokio::AsyncDecodeReader;
/// use tokio::io::AsyncReadExt;
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let options = DecodeOptions::new().on_malformed(OnMalformed::Fail);
/// let mut reader = AsyncDecodeReader::with_options(&b"ok \xE3\x81 x"[..], simdenc::UTF_8, options);
/// let mut text = String::new();
/// let err = reader.read_to_string(&mut text).await.unwrap_err();
/// assert_eq!(MalformedError::from_io_error(&err).unwrap().offset(), 3);
/// # });
/// ```
pub struct AsyncDecodeReader<R> {
    source: DecodeSource<R>,
    /// Decoded text; `output[out_pos..out_len]` is still to be read. Allocated at the first
    /// call that needs it (`poll_fill_buf`, a read into fewer than 16 bytes).
    output: Box<str>,
    output_size: usize,
    out_pos: usize,
    out_len: usize,
}

impl<R: AsyncRead + Unpin> AsyncDecodeReader<R> {
    /// A reader with the default options: BOM sniffing, replacement, 64 KiB buffers.
    pub fn new(inner: R, encoding: &'static Encoding) -> Self {
        Self::with_options(inner, encoding, DecodeOptions::new())
    }

    /// A reader with the given options.
    pub fn with_options(inner: R, encoding: &'static Encoding, options: DecodeOptions) -> Self {
        let (source, size) = DecodeSource::new(inner, encoding, options);
        AsyncDecodeReader {
            source,
            output: Box::default(),
            output_size: size,
            out_pos: 0,
            out_len: 0,
        }
    }

    /// Like [`AsyncBufRead::poll_fill_buf`], as text (see
    /// [`DecodeReader::fill_str`](super::DecodeReader::fill_str)): the decoded text buffered
    /// so far, decoding more if none is, empty only at the end of the stream. Mark what you
    /// used with [`AsyncBufRead::consume`].
    pub fn poll_fill_str(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<&str>> {
        ready!(self.poll_refill(cx))?;
        Poll::Ready(self.output.get(self.out_pos..self.out_len).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "simdenc::io::tokio::AsyncDecodeReader: consume() stopped inside a character",
            )
        }))
    }

    /// Decodes more into the internal buffer if all of it has been read.
    fn poll_refill(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.out_pos == self.out_len {
            self.out_pos = 0;
            self.out_len = 0;
            if self.output.is_empty() {
                self.output = "\0".repeat(self.output_size).into_boxed_str();
            }
            let n = ready!(
                self.source
                    .poll_decode_into(Dst::Str(&mut self.output), |inner, buf| poll_fill(inner, cx, buf))
            )?;
            self.out_len = n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<R> AsyncDecodeReader<R> {
    /// The encoding being decoded: the one given, or the one a byte order mark selected
    /// (with [`Bom::Sniff`](super::Bom::Sniff), once the BOM has been read).
    pub fn encoding(&self) -> &'static Encoding {
        self.source.decoder.encoding()
    }

    /// How many input bytes the decoder has consumed (including a BOM, and bytes of an
    /// incomplete character it holds).
    pub fn position(&self) -> u64 {
        self.source.position
    }

    /// Whether malformed input has been found so far (replaced, skipped, or the error).
    pub fn had_errors(&self) -> bool {
        self.source.had_errors
    }

    /// How many malformed sequences have been replaced with U+FFFD so far
    /// ([`OnMalformed::Replace`](super::OnMalformed::Replace); 0 in the other modes): one per
    /// error, exactly the standard's, so a U+FFFD the input itself encodes is not counted.
    pub fn replaced(&self) -> u64 {
        self.source.decoder.replaced()
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.source.inner
    }

    /// The inner reader, mutably. Reading from it directly skips bytes the decoder would
    /// have seen.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.source.inner
    }

    /// The inner reader; buffered input and output are lost.
    pub fn into_inner(self) -> R {
        self.source.inner
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for AsyncDecodeReader<R> {
    /// Decodes straight into `buf` when nothing is buffered and it has room for 16 bytes or
    /// more; otherwise copies from the internal buffer. Always whole characters when
    /// decoding straight into `buf`.
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.out_pos == this.out_len && buf.remaining() >= 16 {
            let dst = buf.initialize_unfilled();
            let n = ready!(
                this.source
                    .poll_decode_into(Dst::Bytes(dst), |inner, b| poll_fill(inner, cx, b))
            )?;
            buf.advance(n);
            return Poll::Ready(Ok(()));
        }
        ready!(this.poll_refill(cx))?;
        let available = &this.output.as_bytes()[this.out_pos..this.out_len];
        let n = available.len().min(buf.remaining());
        buf.put_slice(&available[..n]);
        this.out_pos += n;
        Poll::Ready(Ok(()))
    }
}

impl<R: AsyncRead + Unpin> AsyncBufRead for AsyncDecodeReader<R> {
    /// The decoded text buffered so far, as bytes: always whole UTF-8 characters, empty only
    /// at the end of the stream.
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let this = self.get_mut();
        ready!(this.poll_refill(cx))?;
        Poll::Ready(Ok(&this.output.as_bytes()[this.out_pos..this.out_len]))
    }

    fn consume(self: Pin<&mut Self>, amount: usize) {
        let this = self.get_mut();
        this.out_pos = (this.out_pos + amount).min(this.out_len);
    }
}

/// Takes UTF-8 through [`AsyncWrite`] and writes it to an inner [`AsyncWrite`] in any
/// encoding: [`EncodeWriter`] for tokio.
///
/// The same options ([`EncodeOptions`]: [`OnUnmappable`](super::OnUnmappable), buffer
/// size), output and errors: an output encoding ([`Encoding::new_encoder`]), a UTF-8
/// character split across writes held until its end arrives, bytes that are not UTF-8 an
/// error of kind `InvalidData`, a fatal [`UnmappableError`](super::UnmappableError) sticky.
///
/// [`poll_shutdown`](AsyncWrite::poll_shutdown) (`AsyncWriteExt::shutdown`) ends the stream
/// as [`EncodeWriter::finish`] does: it writes the encoder's
/// end-of-stream bytes (ISO-2022-JP's return to ASCII), writes out the buffer, reports an
/// incomplete character at the end or an earlier unmappable error (after writing the text
/// before it), then shuts the inner writer down. Dropping the writer without a shutdown
/// loses the buffered output and the end of the stream.
///
/// ```
/// use simdenc::io::tokio::AsyncEncodeWriter;
/// use tokio::io::AsyncWriteExt;
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut writer = AsyncEncodeWriter::new(Vec::new(), simdenc::WINDOWS_1252);
/// writer.write_all("€ \u{3042}".as_bytes()).await?;
/// writer.shutdown().await?;
/// assert_eq!(writer.get_ref(), b"\x80 &#12354;");
/// # Ok::<(), std::io::Error>(())
/// # }).unwrap();
/// ```
pub struct AsyncEncodeWriter<W> {
    inner: W,
    /// The blocking writer's state machine, over a `Vec` that receives its output only at
    /// the end of the stream (and, should it ever need room in the middle of a write, what
    /// it flushes then): this writer writes the buffer out itself before it runs short.
    core: EncodeWriter<Vec<u8>>,
    /// Bytes of the core's `Vec` already written to `inner`.
    sent: usize,
    /// The end of the stream has been encoded.
    ended: bool,
    /// The error of the end of the stream, returned once the output before it is written.
    end_error: Option<io::Error>,
}

impl<W: AsyncWrite + Unpin> AsyncEncodeWriter<W> {
    /// A writer with the default options: `&#N;` for unmappable characters, a 64 KiB buffer.
    pub fn new(inner: W, encoding: &'static Encoding) -> Self {
        Self::with_options(inner, encoding, EncodeOptions::new())
    }

    /// A writer with the given options.
    pub fn with_options(inner: W, encoding: &'static Encoding, options: EncodeOptions) -> Self {
        AsyncEncodeWriter {
            inner,
            core: EncodeWriter::with_options(Vec::new(), encoding, options),
            sent: 0,
            ended: false,
            end_error: None,
        }
    }

    /// Writes the output the core handed to its `Vec`, then its buffer if fewer than `room`
    /// bytes of it are free (`usize::MAX`: all of it).
    fn poll_drain(&mut self, cx: &mut Context<'_>, room: usize) -> Poll<io::Result<()>> {
        if let Some(spilled) = self.core.inner.as_mut() {
            while self.sent < spilled.len() {
                let n = ready!(poll_write_some(&mut self.inner, cx, &spilled[self.sent..]))?;
                self.sent += n;
            }
            spilled.clear();
            self.sent = 0;
        }
        if self.core.buf.len() - self.core.len < room {
            while self.core.len > 0 {
                let n = ready!(poll_write_some(
                    &mut self.inner,
                    cx,
                    &self.core.buf[..self.core.len]
                ))?;
                self.core.buf.copy_within(n..self.core.len, 0);
                self.core.len -= n;
            }
        }
        Poll::Ready(Ok(()))
    }
}

/// One write of `inner`, at least one byte, retrying `Interrupted`.
fn poll_write_some<W: AsyncWrite + Unpin>(
    inner: &mut W,
    cx: &mut Context<'_>,
    data: &[u8],
) -> Poll<io::Result<usize>> {
    loop {
        match ready!(Pin::new(&mut *inner).poll_write(cx, data)) {
            Ok(0) => {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "failed to write the encoded output",
                )));
            }
            Ok(n) => return Poll::Ready(Ok(n)),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Poll::Ready(Err(e)),
        }
    }
}

impl<W> AsyncEncodeWriter<W> {
    /// The encoding being written (an output encoding).
    pub fn encoding(&self) -> &'static Encoding {
        self.core.encoding()
    }

    /// Whether an unmappable character has been found so far (written as `&#N;`, skipped,
    /// or the error).
    pub fn had_unmappables(&self) -> bool {
        self.core.had_unmappables()
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The inner writer, mutably. Writing to it directly puts bytes before those still
    /// buffered; flush first.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// The inner writer. Output not yet written out (without a flush or a shutdown) is lost.
    pub fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for AsyncEncodeWriter<W> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.core.error.is_none() && !data.is_empty() {
            // Room for a character, so that the core never writes to its `Vec` here.
            ready!(this.poll_drain(cx, ENCODE_ROOM))?;
        }
        Poll::Ready(io::Write::write(&mut this.core, data))
    }

    /// Writes out the buffered output and flushes the inner writer. The encoder's state and
    /// a held partial character stay: only a shutdown ends the stream.
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_drain(cx, usize::MAX))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.ended {
            this.ended = true;
            this.end_error = this.core.finish_in_place().err();
        }
        ready!(this.poll_drain(cx, usize::MAX))?;
        if let Some(err) = this.end_error.take() {
            return Poll::Ready(Err(err));
        }
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use ::tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

    use super::super::tests::{Rng, sample, sample_text};
    use super::super::{
        Bom, DecodeReader, EncodeWriter, MalformedError, OnMalformed, OnUnmappable, UnmappableError,
    };
    use super::*;
    use crate::{ISO_2022_JP, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

    /// An async reader that is pending every other poll and hands out 1..=`step` bytes.
    struct Trickle {
        data: Vec<u8>,
        pos: usize,
        step: usize,
        pending: bool,
    }
    impl Trickle {
        fn new(data: &[u8], step: usize) -> Self {
            Trickle {
                data: data.to_vec(),
                pos: 0,
                step,
                pending: false,
            }
        }
    }
    impl AsyncRead for Trickle {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            self.pending = !self.pending;
            if self.pending {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            let n = self.step.min(buf.remaining()).min(self.data.len() - self.pos);
            let pos = self.pos;
            buf.put_slice(&self.data[pos..pos + n]);
            self.pos += n;
            Poll::Ready(Ok(()))
        }
    }

    /// An async writer that is pending every other poll and takes 1..=`step` bytes.
    struct Sink {
        data: Vec<u8>,
        step: usize,
        pending: bool,
        shut: bool,
    }
    impl Sink {
        fn new(step: usize) -> Self {
            Sink {
                data: Vec::new(),
                step,
                pending: false,
                shut: false,
            }
        }
    }
    impl AsyncWrite for Sink {
        fn poll_write(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            data: &[u8],
        ) -> Poll<io::Result<usize>> {
            self.pending = !self.pending;
            if self.pending {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            assert!(!self.shut, "write after shutdown");
            let n = self.step.min(data.len());
            self.data.extend_from_slice(&data[..n]);
            Poll::Ready(Ok(n))
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
        fn poll_shutdown(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            self.shut = true;
            Poll::Ready(Ok(()))
        }
    }

    fn sync_read(
        input: &[u8],
        encoding: &'static Encoding,
        options: DecodeOptions,
    ) -> (Vec<u8>, Option<io::Error>) {
        let mut reader = DecodeReader::with_options(input, encoding, options);
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).err();
        (out, err)
    }

    /// Reads with `read` calls of `chunk` bytes.
    async fn async_read(
        input: &[u8],
        encoding: &'static Encoding,
        options: DecodeOptions,
        step: usize,
        chunk: usize,
    ) -> (Vec<u8>, Option<io::Error>) {
        let mut reader = AsyncDecodeReader::with_options(Trickle::new(input, step), encoding, options);
        let mut out = Vec::new();
        let mut buf = vec![0; chunk];
        loop {
            match reader.read(&mut buf).await {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e)),
            }
        }
    }

    fn same_error(a: &Option<io::Error>, b: &Option<io::Error>) -> bool {
        match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.kind() == b.kind()
                    && MalformedError::from_io_error(a) == MalformedError::from_io_error(b)
                    && a.to_string() == b.to_string()
            }
            _ => false,
        }
    }

    #[::tokio::test]
    async fn decode_equals_the_sync_reader_for_every_encoding_and_policy() {
        let mut rng = Rng(0xa5f3);
        let policies = [OnMalformed::Replace, OnMalformed::Skip, OnMalformed::Fail];
        let boms = [Bom::Sniff, Bom::Strip, Bom::Keep];
        for &encoding in Encoding::all() {
            for i in 0..24 {
                let mut input = sample(&mut rng, encoding);
                if i % 4 == 0 {
                    let bom: &[u8] = [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"][rng.below(3)];
                    input.splice(0..0, bom.iter().copied());
                }
                let options = DecodeOptions::new()
                    .bom(boms[rng.below(3)])
                    .on_malformed(policies[rng.below(3)])
                    .buffer_size(rng.below(200));
                let (expected, expected_err) = sync_read(&input, encoding, options);
                let step = 1 + rng.below(7);
                let chunk = 1 + rng.below(40);
                let (got, err) = async_read(&input, encoding, options, step, chunk).await;
                assert_eq!(got, expected, "{} {options:?} {input:02X?}", encoding.name());
                assert!(
                    same_error(&err, &expected_err),
                    "{} {options:?} {input:02X?}: {err:?} vs {expected_err:?}",
                    encoding.name()
                );
            }
        }
    }

    #[::tokio::test]
    async fn read_to_string_lines_and_accessors() {
        let text = "Mars 火星\nМарс 화성\n\u{1F600}\n".repeat(40);
        for encoding in [
            UTF_8,
            UTF_16LE,
            UTF_16BE,
            crate::SHIFT_JIS,
            crate::GB18030,
            crate::EUC_KR,
        ] {
            let bytes: Vec<u8> = if encoding == UTF_16LE {
                text.encode_utf16().flat_map(u16::to_le_bytes).collect()
            } else if encoding == UTF_16BE {
                text.encode_utf16().flat_map(u16::to_be_bytes).collect()
            } else {
                encoding.encode(&text).0.into_owned()
            };
            // What the encoding can hold of `text` (`&#N;` for the rest).
            let text = encoding.decode(&bytes).0.into_owned();
            let options = DecodeOptions::new().buffer_size(64);
            let mut reader = AsyncDecodeReader::with_options(Trickle::new(&bytes, 5), encoding, options);
            let mut got = String::new();
            let mut line = String::new();
            while reader.read_line(&mut line).await.unwrap() > 0 {
                assert!(line.ends_with('\n'));
                got.push_str(&line);
                line.clear();
            }
            assert_eq!(got, text, "{}", encoding.name());
            assert_eq!(reader.position(), bytes.len() as u64);
            assert!(!reader.had_errors());
            assert_eq!(reader.encoding(), encoding);

            let mut reader = AsyncDecodeReader::new(&bytes[..], encoding);
            let mut got = String::new();
            reader.read_to_string(&mut got).await.unwrap();
            assert_eq!(got, text);
        }
        // A BOM selects the encoding, as in the sync reader.
        let mut reader = AsyncDecodeReader::new(&b"\xFE\xFF\x00A"[..], WINDOWS_1252);
        let mut got = String::new();
        reader.read_to_string(&mut got).await.unwrap();
        assert_eq!((got.as_str(), reader.encoding()), ("A", UTF_16BE));
    }

    #[::tokio::test]
    async fn fatal_error_is_sticky_and_inner_errors_pass_through() {
        let options = DecodeOptions::new().on_malformed(OnMalformed::Fail);
        let mut reader = AsyncDecodeReader::with_options(Trickle::new(b"abc\x80def", 2), UTF_8, options);
        let mut got = Vec::new();
        let err = reader.read_to_end(&mut got).await.unwrap_err();
        assert_eq!(got, b"abc");
        assert_eq!(MalformedError::from_io_error(&err).unwrap().offset(), 3);
        let again = reader.read(&mut [0; 64]).await.unwrap_err();
        assert_eq!(MalformedError::from_io_error(&again).unwrap().offset(), 3);
        assert!(reader.had_errors());

        struct Broken;
        impl AsyncRead for Broken {
            fn poll_read(
                self: Pin<&mut Self>,
                _: &mut Context<'_>,
                _: &mut ReadBuf<'_>,
            ) -> Poll<io::Result<()>> {
                Poll::Ready(Err(io::Error::other("disk on fire")))
            }
        }
        let err = AsyncDecodeReader::new(Broken, UTF_8)
            .read(&mut [0; 4])
            .await
            .unwrap_err();
        assert_eq!(err.to_string(), "disk on fire");
    }

    #[::tokio::test]
    async fn duplex_pipe() {
        let (mut tx, rx) = ::tokio::io::duplex(7);
        let bytes = crate::EUC_JP.encode(&"日本語テキスト".repeat(100)).0.into_owned();
        let writer = async move {
            for piece in bytes.chunks(3) {
                tx.write_all(piece).await.unwrap();
            }
            drop(tx);
        };
        let reader = async move {
            let mut text = String::new();
            AsyncDecodeReader::new(rx, crate::EUC_JP)
                .read_to_string(&mut text)
                .await
                .unwrap();
            text
        };
        let ((), text) = ::tokio::join!(writer, reader);
        assert_eq!(text, "日本語テキスト".repeat(100));
    }

    /// The sync writer's output and error for `text` written in the given pieces.
    fn sync_write(
        encoding: &'static Encoding,
        options: EncodeOptions,
        pieces: &[&[u8]],
    ) -> (Vec<u8>, Option<io::Error>) {
        let mut writer = EncodeWriter::with_options(Vec::new(), encoding, options);
        for piece in pieces {
            if let Err(e) = writer.write_all(piece) {
                writer.flush().unwrap();
                let out = writer.get_ref().unwrap().clone();
                return (out, Some(e));
            }
        }
        match writer.finish() {
            Ok(out) => (out, None),
            Err(e) => (Vec::new(), Some(e)),
        }
    }

    async fn async_write(
        encoding: &'static Encoding,
        options: EncodeOptions,
        pieces: &[&[u8]],
        step: usize,
    ) -> (Vec<u8>, Option<io::Error>) {
        let mut writer = AsyncEncodeWriter::with_options(Sink::new(step), encoding, options);
        for piece in pieces {
            if let Err(e) = writer.write_all(piece).await {
                writer.flush().await.unwrap();
                return (writer.into_inner().data, Some(e));
            }
        }
        match writer.shutdown().await {
            Ok(()) => {
                let sink = writer.into_inner();
                assert!(sink.shut);
                (sink.data, None)
            }
            Err(e) => (Vec::new(), Some(e)),
        }
    }

    #[::tokio::test]
    async fn encode_equals_the_sync_writer_for_every_encoding_and_policy() {
        let mut rng = Rng(77);
        let policies = [OnUnmappable::Html, OnUnmappable::Skip, OnUnmappable::Fail];
        for &encoding in Encoding::all() {
            for _ in 0..20 {
                let mut text = sample_text(&mut rng).into_bytes();
                if rng.below(8) == 0 {
                    // Not UTF-8, or cut inside a character.
                    let at = rng.below(text.len() + 1);
                    text.insert(at, 0xE6);
                }
                let mut pieces = Vec::new();
                let mut pos = 0;
                while pos < text.len() {
                    let end = (pos + 1 + rng.below(9)).min(text.len());
                    pieces.push(&text[pos..end]);
                    pos = end;
                }
                let options = EncodeOptions::new()
                    .on_unmappable(policies[rng.below(3)])
                    .buffer_size(rng.below(128));
                let (expected, expected_err) = sync_write(encoding, options, &pieces);
                let (got, err) = async_write(encoding, options, &pieces, 1 + rng.below(9)).await;
                assert_eq!(got, expected, "{} {options:?} {text:02X?}", encoding.name());
                match (&err, &expected_err) {
                    (None, None) => {}
                    (Some(a), Some(b)) => {
                        assert_eq!(a.kind(), b.kind());
                        assert_eq!(a.to_string(), b.to_string());
                        assert_eq!(
                            UnmappableError::from_io_error(a),
                            UnmappableError::from_io_error(b)
                        );
                    }
                    _ => panic!("{} {text:02X?}: {err:?} vs {expected_err:?}", encoding.name()),
                }
            }
        }
    }

    #[::tokio::test]
    async fn shutdown_ends_the_stream_and_reports_errors_once() {
        let mut writer = AsyncEncodeWriter::new(Sink::new(1), ISO_2022_JP);
        writer.write_all("日本".as_bytes()).await.unwrap();
        writer.flush().await.unwrap();
        assert_eq!(writer.get_ref().data, b"\x1b$BF|K\\");
        writer.shutdown().await.unwrap();
        assert_eq!(writer.get_ref().data, b"\x1b$BF|K\\\x1b(B");
        assert_eq!(writer.encoding(), ISO_2022_JP);

        let options = EncodeOptions::new().on_unmappable(OnUnmappable::Fail);
        let mut writer = AsyncEncodeWriter::with_options(Sink::new(3), crate::EUC_KR, options);
        writer.write_all(b"ab").await.unwrap();
        let err = writer.write_all("\u{e9}".as_bytes()).await.unwrap_err();
        assert_eq!(
            UnmappableError::from_io_error(&err).unwrap().character(),
            '\u{e9}'
        );
        assert!(writer.had_unmappables());
        let err = writer.shutdown().await.unwrap_err();
        assert!(UnmappableError::from_io_error(&err).is_some());
        assert_eq!(writer.get_ref().data, b"ab");
        writer.shutdown().await.unwrap();
        assert!(writer.get_ref().shut);

        let mut writer = AsyncEncodeWriter::new(Sink::new(2), UTF_8);
        writer.write_all(b"\xE6\x97").await.unwrap();
        let err = writer.shutdown().await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }
}
