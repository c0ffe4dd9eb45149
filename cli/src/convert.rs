//! `simdenc convert`: the plan (encodings, error and BOM policies), the streaming conversion
//! of one input, and the three output modes (one stream, one file per input, in place).

use std::collections::HashMap;
use std::fs;
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;
use simdenc::io::{
    Bom, DecodeOptions, DecodeReader, EncodeOptions, EncodeWriter, MalformedError, OnMalformed, OnUnmappable,
    UnmappableError,
};
use simdenc::{DecoderResult, Encoding};

use crate::detect::{Kind, SniffPlan, markup_of, sniff_reader};
use crate::errors::{Failure, hex};
use crate::files::{self, FileId, Input, OutputFile};
use crate::report::{Counting, CountingWriter, Progress, Totals};
use crate::{BomArg, ConvertArgs, ErrorsArg, labels, pieces};
use simdenc::sniff::{Markup, Sniffed};

/// What the output is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The standard's encoder for this (output) encoding.
    Encode(&'static Encoding),
    /// UTF-16 code units (an extension: the standard encodes UTF-16 labels as UTF-8).
    Utf16 { big_endian: bool },
}

impl Target {
    /// Whether the encoder carries state from one character to the next (ISO-2022-JP), so
    /// that pieces of a file cannot be encoded independently.
    pub fn is_stateful(self) -> bool {
        self == Target::Encode(simdenc::ISO_2022_JP)
    }
}

/// Everything a conversion needs to know.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub from: &'static Encoding,
    pub target: Target,
    pub bom: Bom,
    pub on_malformed: OnMalformed,
    pub on_unmappable: OnUnmappable,
    /// Whether to say how to avoid an unmappable error (not in fatal mode, asked for).
    pub unmappable_hint: bool,
    /// Parallel piece conversion of large files: `Some(piece size)`.
    pub pieces: Option<usize>,
    /// Internal buffer size of the adapters.
    pub buffer_size: usize,
    /// `-f auto`: how each input's encoding is determined (`from` is then unused).
    pub auto: Option<SniffPlan>,
    /// HTML or text (`--html`, `--text`, or per input).
    pub kind: Kind,
    /// Rewrite the encoding declaration of HTML inputs to the target encoding.
    pub rewrite_declaration: bool,
}

/// A malformed input sequence, at absolute offsets of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadInput {
    pub encoding: &'static Encoding,
    pub offset: u64,
    pub end: u64,
    pub bytes: Vec<u8>,
}

impl BadInput {
    /// From the adapter's error, `base` bytes into the input.
    pub fn from_error(err: &MalformedError, base: u64) -> BadInput {
        BadInput {
            encoding: err.encoding(),
            offset: base + err.offset(),
            end: base + err.end(),
            bytes: err.bytes().to_vec(),
        }
    }
}

/// Input bytes that decoded to a character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: u64,
    pub end: u64,
    pub bytes: Vec<u8>,
}

/// Why converting one input failed.
#[derive(Debug)]
pub enum ConvError {
    Malformed(BadInput),
    Unmappable {
        err: UnmappableError,
        span: Option<Span>,
    },
    /// The input could not be opened (the message names it).
    Open(String),
    Read(io::Error),
    Write(io::Error),
}

impl ConvError {
    /// The message for this error on `input` written to `output`.
    pub fn describe(&self, input: &str, output: &str, plan: &Plan) -> String {
        match self {
            ConvError::Malformed(bad) => format!(
                "{input}: malformed {} input at byte offset {}: {} (the standard's fatal decoder stops at {})",
                bad.encoding.name(),
                bad.offset,
                hex(&bad.bytes),
                bad.end
            ),
            ConvError::Unmappable { err, span } => {
                let c = err.character();
                let shown = if c.is_control() {
                    String::new()
                } else {
                    format!(" ({c})")
                };
                let mut message = format!(
                    "{input}: U+{:04X}{shown} cannot be encoded in {}",
                    u32::from(c),
                    err.encoding().name()
                );
                match span {
                    Some(span) => message.push_str(&format!(
                        ": input bytes {} at byte offset {}",
                        hex(&span.bytes),
                        span.start
                    )),
                    None => message.push_str(&format!(
                        " (byte {} of the decoded text; the input offset of standard input is not kept)",
                        err.offset()
                    )),
                }
                if plan.unmappable_hint {
                    message.push_str("; use --errors=html to write it as &#N; or -c to omit it");
                }
                message
            }
            ConvError::Open(message) => message.clone(),
            ConvError::Read(e) => format!("cannot read {input}: {e}"),
            ConvError::Write(e) => format!("cannot write {output}: {e}"),
        }
    }
}

/// What a successful conversion did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    pub bytes_in: u64,
    pub had_errors: bool,
    /// Malformed sequences replaced with U+FFFD (a U+FFFD the input encodes is not one).
    pub replaced: u64,
    /// With `-f auto`: how the input's encoding was decided.
    pub decision: Option<Sniffed>,
    /// Whether the input's `<meta>` or XML declaration was rewritten to the target encoding.
    pub rewritten: bool,
}

/// The output side: the standard's encoder, or UTF-16.
enum Sink<W: Write> {
    Encode(EncodeWriter<W>),
    Utf16(Utf16Writer<W>),
}

impl<W: Write> Sink<W> {
    fn new(inner: W, plan: &Plan) -> Sink<W> {
        match plan.target {
            Target::Encode(encoding) => {
                let options = EncodeOptions::new()
                    .on_unmappable(plan.on_unmappable)
                    .buffer_size(plan.buffer_size);
                Sink::Encode(EncodeWriter::with_options(inner, encoding, options))
            }
            Target::Utf16 { big_endian } => {
                Sink::Utf16(Utf16Writer::new(inner, big_endian, plan.buffer_size))
            }
        }
    }

    fn write_text(&mut self, text: &str) -> io::Result<()> {
        match self {
            Sink::Encode(writer) => writer.write_str(text),
            Sink::Utf16(writer) => writer.write_text(text),
        }
    }

    fn had_unmappables(&self) -> bool {
        match self {
            Sink::Encode(writer) => writer.had_unmappables(),
            Sink::Utf16(_) => false,
        }
    }

    fn finish(self) -> io::Result<W> {
        match self {
            Sink::Encode(writer) => writer.finish(),
            Sink::Utf16(mut writer) => {
                writer.flush_buf()?;
                let mut inner = writer
                    .inner
                    .take()
                    .ok_or_else(|| io::Error::other("UTF-16 output lost"))?;
                inner.flush()?;
                Ok(inner)
            }
        }
    }
}

/// Text in, UTF-16 out, through fixed-size buffers. The library's UTF-8 decoder does the
/// UTF-8 to UTF-16 step (its kernels), then the code units are laid out in byte order.
struct Utf16Writer<W: Write> {
    inner: Option<W>,
    utf8: simdenc::Decoder,
    units: Box<[u16]>,
    buf: Box<[u8]>,
    len: usize,
    big_endian: bool,
}

impl<W: Write> Utf16Writer<W> {
    fn new(inner: W, big_endian: bool, size: usize) -> Utf16Writer<W> {
        let size = size.max(64);
        Utf16Writer {
            inner: Some(inner),
            utf8: simdenc::UTF_8.new_decoder_without_bom_handling(),
            units: vec![0; size / 2].into_boxed_slice(),
            buf: vec![0; size].into_boxed_slice(),
            len: 0,
            big_endian,
        }
    }

    fn write_text(&mut self, text: &str) -> io::Result<()> {
        let mut src = text.as_bytes();
        while !src.is_empty() {
            let room = (self.buf.len() - self.len) / 2;
            if room < 2 {
                self.flush_buf()?;
                continue;
            }
            // Whole characters in, so the decoder never holds a partial one at the end.
            let (_, read, written, _) = self.utf8.decode_to_utf16(src, &mut self.units[..room], false);
            src = &src[read..];
            let out = &mut self.buf[self.len..self.len + 2 * written];
            for (slot, unit) in out.chunks_exact_mut(2).zip(&self.units[..written]) {
                let bytes = if self.big_endian {
                    unit.to_be_bytes()
                } else {
                    unit.to_le_bytes()
                };
                slot.copy_from_slice(&bytes);
            }
            self.len += 2 * written;
        }
        Ok(())
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        if let Some(inner) = self.inner.as_mut() {
            inner.write_all(&self.buf[..self.len])?;
        }
        self.len = 0;
        Ok(())
    }
}

impl<W: Write> Drop for Utf16Writer<W> {
    fn drop(&mut self) {
        let _ = self.flush_buf();
    }
}

/// Converts `input` (decoded as `encoding` with `bom`) into `output`. On error the output
/// holds the conversion of the text before the error.
pub fn stream<R: Read, W: Write>(
    input: R,
    output: W,
    plan: &Plan,
    encoding: &'static Encoding,
    bom: Bom,
) -> Result<(W, Outcome), ConvError> {
    let options = DecodeOptions::new()
        .bom(bom)
        .on_malformed(plan.on_malformed)
        .buffer_size(plan.buffer_size);
    let mut reader = DecodeReader::with_options(input, encoding, options);
    let mut sink = Sink::new(output, plan);
    loop {
        let text = match reader.fill_str() {
            Ok(text) => text,
            Err(e) => {
                return Err(match MalformedError::from_io_error(&e) {
                    Some(m) => ConvError::Malformed(BadInput::from_error(m, 0)),
                    None => ConvError::Read(e),
                });
            }
        };
        if text.is_empty() {
            break;
        }
        let n = text.len();
        sink.write_text(text).map_err(sink_error)?;
        reader.consume(n);
    }
    let outcome = Outcome {
        bytes_in: reader.position(),
        had_errors: reader.had_errors() || sink.had_unmappables(),
        replaced: reader.replaced(),
        ..Outcome::default()
    };
    let output = sink.finish().map_err(sink_error)?;
    Ok((output, outcome))
}

fn sink_error(e: io::Error) -> ConvError {
    match UnmappableError::from_io_error(&e) {
        Some(err) => ConvError::Unmappable {
            err: err.clone(),
            span: None,
        },
        None => ConvError::Write(e),
    }
}

/// Converts the file at `path` (open as `file`, `size` bytes) into `output`: in parallel
/// pieces when the plan allows it and the file is large, else as one stream. An unmappable
/// character's input bytes are found by decoding the file again up to it. With `-f auto`, the
/// encoding is determined first from the file's start; an HTML file's declaration is rewritten
/// to the target encoding unless `--keep-declaration`.
pub fn convert_file<W: Write>(
    path: &Path,
    mut file: fs::File,
    size: u64,
    output: W,
    plan: &Plan,
    progress: &Progress,
) -> Result<(W, Outcome), ConvError> {
    if plan.auto.is_some() || plan.rewrite_declaration {
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        if !regular {
            // A FIFO or a character device: read once, the head kept in memory.
            let input = Counting {
                inner: file,
                progress,
            };
            return convert_unseekable(input, Some(path), output, plan)
                .map_err(|e| locate_in_file(e, path, 0, plan, plan.from, plan.bom));
        }
    }
    let Some(head) = read_head(&mut file, Some(path), plan, true).map_err(ConvError::Read)? else {
        return convert_whole_file(path, file, size, output, plan, progress);
    };
    let plan = &Plan {
        from: head.from(plan),
        ..*plan
    };
    let rewritten = rewrite_declaration(&head, plan);
    let Some(new_head) = rewritten else {
        file.seek(SeekFrom::Start(0)).map_err(ConvError::Read)?;
        let (output, outcome) = convert_whole_file(path, file, size, output, plan, progress)?;
        return Ok((
            output,
            Outcome {
                decision: head.decision,
                ..outcome
            },
        ));
    };
    // The rewritten head, then the rest of the file.
    file.seek(SeekFrom::Start(head.bytes.len() as u64))
        .map_err(ConvError::Read)?;
    progress.add_bytes(head.bytes.len() as u64);
    let input = io::Cursor::new(&new_head[..]).chain(Counting {
        inner: file,
        progress,
    });
    let delta = new_head.len() as i64 - head.bytes.len() as i64;
    let (output, outcome) = stream(input, output, plan, plan.from, plan.bom).map_err(|e| match e {
        ConvError::Malformed(bad) => ConvError::Malformed(BadInput {
            offset: bad.offset.saturating_add_signed(-delta),
            end: bad.end.saturating_add_signed(-delta),
            ..bad
        }),
        other => locate_in_file(other, path, 0, plan, plan.from, plan.bom),
    })?;
    let bytes_in = outcome.bytes_in.saturating_add_signed(-delta);
    Ok((
        output,
        Outcome {
            bytes_in,
            decision: head.decision,
            rewritten: true,
            ..outcome
        },
    ))
}

fn convert_whole_file<W: Write>(
    path: &Path,
    file: fs::File,
    size: u64,
    output: W,
    plan: &Plan,
    progress: &Progress,
) -> Result<(W, Outcome), ConvError> {
    if let Some(piece) = plan.pieces
        && size >= 2 * piece as u64
    {
        return pieces::convert(path, file, output, plan, piece, progress);
    }
    let input = Counting {
        inner: file,
        progress,
    };
    stream(input, output, plan, plan.from, plan.bom)
        .map_err(|e| locate_in_file(e, path, 0, plan, plan.from, plan.bom))
}

/// The start of an input, read before converting it: for `-f auto`, and for the declaration of
/// HTML inputs.
pub struct Head {
    /// The bytes read, from the input's first byte.
    pub bytes: Vec<u8>,
    pub markup: Markup,
    pub decision: Option<Sniffed>,
}

impl Head {
    /// The encoding to decode with.
    pub fn from(&self, plan: &Plan) -> &'static Encoding {
        self.decision.map_or(plan.from, |d| d.encoding)
    }
}

/// Reads the head of `input` when the plan needs it: `None` when it does not (a fixed source
/// encoding and no declaration to rewrite).
/// `whole`: the input is a file that the caller rewinds, which a guess may read to its end.
pub fn read_head<R: Read>(
    input: R,
    path: Option<&Path>,
    plan: &Plan,
    whole: bool,
) -> io::Result<Option<Head>> {
    if let Some(auto) = &plan.auto {
        let (decision, markup, bytes) = sniff_reader(input, path, auto, whole)?;
        return Ok(Some(Head {
            bytes,
            markup,
            decision: Some(decision),
        }));
    }
    if !plan.rewrite_declaration || plan.kind == Kind::Text {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(simdenc::sniff::PRESCAN_BYTES);
    input
        .take(simdenc::sniff::PRESCAN_BYTES as u64)
        .read_to_end(&mut bytes)?;
    let markup = markup_of(plan.kind, path, &bytes);
    Ok(Some(Head {
        bytes,
        markup,
        decision: None,
    }))
}

/// The head with its declaration naming the target encoding, when it is HTML, declares an
/// encoding with a label, the source encoding reads that label as ASCII (not UTF-16, not
/// ISO-2022-JP, where the same bytes may stand for other characters) and the declaration does
/// not already name the target.
pub fn rewrite_declaration(head: &Head, plan: &Plan) -> Option<Vec<u8>> {
    if !plan.rewrite_declaration || head.markup != Markup::Html {
        return None;
    }
    let from = plan.from;
    if from == simdenc::UTF_16LE
        || from == simdenc::UTF_16BE
        || from == simdenc::ISO_2022_JP
        || from == simdenc::REPLACEMENT
    {
        return None;
    }
    let found = simdenc::sniff::declaration(&head.bytes)?;
    let label = found.label?;
    let name = target_name(plan);
    let old = &head.bytes[label.clone()];
    if old.eq_ignore_ascii_case(name.as_bytes()) {
        return None;
    }
    let mut bytes = Vec::with_capacity(head.bytes.len() + name.len());
    bytes.extend_from_slice(&head.bytes[..label.start]);
    bytes.extend_from_slice(name.as_bytes());
    bytes.extend_from_slice(&head.bytes[label.end..]);
    Some(bytes)
}

/// Fills in the input span of an unmappable error by decoding `path` again from `base`.
pub fn locate_in_file(
    err: ConvError,
    path: &Path,
    base: u64,
    plan: &Plan,
    encoding: &'static Encoding,
    bom: Bom,
) -> ConvError {
    let ConvError::Unmappable { err, span: None } = err else {
        return err;
    };
    let span = fs::File::open(path).ok().and_then(|mut file| {
        file.seek(SeekFrom::Start(base)).ok()?;
        let span = locate(file, encoding, bom, plan.on_malformed, err.offset()).ok()??;
        Some(Span {
            start: base + span.start,
            end: base + span.end,
            bytes: span.bytes,
        })
    });
    ConvError::Unmappable { err, span }
}

/// The input bytes that decode to the character at byte `target` of the decoded text (as
/// a decoder with these settings decodes `input`). `None` if the text is shorter.
///
/// Decodes in bulk while far from the target (never letting the output reach it), then one
/// byte at a time, so that the byte completing the character before the target is exact.
pub fn locate<R: Read>(
    mut input: R,
    encoding: &'static Encoding,
    bom: Bom,
    on_malformed: OnMalformed,
    target: u64,
) -> io::Result<Option<Span>> {
    let mut decoder = match bom {
        Bom::Sniff => encoding.new_decoder(),
        Bom::Strip => encoding.new_decoder_with_bom_removal(),
        Bom::Keep => encoding.new_decoder_without_bom_handling(),
    };
    let mut inbuf = vec![0u8; 64 * 1024];
    let mut out = vec![0u8; 64 * 1024];
    let (mut produced, mut pos) = (0u64, 0u64);
    let mut start = (target == 0).then_some(0u64);
    let mut bytes = Vec::new();
    loop {
        let n = loop {
            match input.read(&mut inbuf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other?,
            }
        };
        let last = n == 0;
        let mut chunk = &inbuf[..n];
        loop {
            let far = start.is_none() && target - produced > 8;
            let (src, cap) = if far {
                let cap = usize::try_from(target - produced - 4)
                    .unwrap_or(usize::MAX)
                    .min(out.len());
                (chunk, cap)
            } else {
                (&chunk[..chunk.len().min(1)], out.len())
            };
            let src_last = last && src.len() == chunk.len();
            let (read, written) = decode_step(&mut decoder, src, &mut out[..cap], src_last, on_malformed);
            if start.is_some() && bytes.len() < 16 {
                bytes.extend_from_slice(&src[..read.min(16 - bytes.len())]);
            }
            pos += read as u64;
            produced += written as u64;
            chunk = &chunk[read..];
            if start.is_none() && produced == target {
                start = Some(pos);
            }
            if produced > target {
                let start = start.unwrap_or(pos - read as u64);
                if bytes.is_empty() {
                    bytes.extend_from_slice(&src[..read.min(16)]);
                }
                return Ok(Some(Span {
                    start,
                    end: pos,
                    bytes,
                }));
            }
            if chunk.is_empty() {
                if last {
                    return Ok(None);
                }
                break;
            }
        }
    }
}

/// One decoder call, errors replaced or skipped as the plan says: `(read, written)`.
fn decode_step(
    decoder: &mut simdenc::Decoder,
    src: &[u8],
    dst: &mut [u8],
    last: bool,
    on_malformed: OnMalformed,
) -> (usize, usize) {
    if on_malformed == OnMalformed::Replace {
        let (_, read, written, _) = decoder.decode_to_utf8(src, dst, last);
        return (read, written);
    }
    let (mut read, mut written) = (0, 0);
    loop {
        let (result, r, w) =
            decoder.decode_to_utf8_without_replacement(&src[read..], &mut dst[written..], last);
        read += r;
        written += w;
        if !matches!(result, DecoderResult::Malformed(..)) {
            return (read, written);
        }
    }
}

/// Builds the plan from the flags.
pub fn plan(args: &ConvertArgs, threads: usize) -> Result<Plan, Failure> {
    let kind = Kind::from_flags(args.html, args.text);
    let auto = args.from.trim().eq_ignore_ascii_case("auto");
    let (from, auto) = if auto {
        let default = match &args.default {
            Some(label) => labels::resolve(label, "--default")?,
            None => simdenc::WINDOWS_1252,
        };
        let transport = match &args.http_charset {
            Some(label) => Some(labels::resolve(label, "--http-charset")?),
            None => None,
        };
        (
            default,
            Some(SniffPlan {
                kind,
                transport,
                guess: !args.no_guess,
                default,
            }),
        )
    } else {
        for (given, flag) in [
            (args.default.is_some(), "--default"),
            (args.no_guess, "--no-guess"),
            (args.http_charset.is_some(), "--http-charset"),
        ] {
            if given {
                return Err(Failure::Usage(format!("{flag} goes with -f auto")));
            }
        }
        (labels::resolve(&args.from, "source")?, None)
    };
    if !(0.0..=1.0).contains(&args.max_replaced) {
        return Err(Failure::Usage(
            "--max-replaced is a fraction between 0 and 1".into(),
        ));
    }
    // iconv's suffixes, in any order and combination: `//TRANSLIT`, `//IGNORE`.
    let mut parts = args.to.split("//");
    let to_label = parts.next().unwrap_or_default();
    let mut omit = args.omit_invalid;
    for suffix in parts {
        match suffix.to_ascii_uppercase().as_str() {
            "" => {}
            "IGNORE" => {
                if args.errors.is_some() {
                    return Err(Failure::Usage("//IGNORE cannot be combined with --errors".into()));
                }
                omit = true;
            }
            "TRANSLIT" => {
                return Err(Failure::Usage(
                    "//TRANSLIT is not supported: the standard defines no transliteration \
                     (use --errors=html to write unmappable characters as &#N;, or -c or \
                     //IGNORE alone to omit them)"
                        .into(),
                ));
            }
            other => {
                return Err(Failure::Usage(format!(
                    "unknown suffix //{other} on the target encoding (iconv's //IGNORE is \
                     supported; //TRANSLIT is not)"
                )));
            }
        }
    }
    let to = labels::resolve(to_label, "target")?;
    let target = if to == simdenc::UTF_16LE {
        Target::Utf16 { big_endian: false }
    } else if to == simdenc::UTF_16BE {
        Target::Utf16 { big_endian: true }
    } else if to == simdenc::REPLACEMENT {
        return Err(Failure::Usage(format!(
            "{to_label:?} is a label of the replacement encoding, which only decodes (it has no encoder)"
        )));
    } else {
        Target::Encode(to)
    };
    let encodes_everything = match target {
        Target::Encode(e) => e.can_encode_everything(),
        Target::Utf16 { .. } => true,
    };
    let errors = match (omit, args.errors) {
        (true, _) => None,
        (false, Some(errors)) => Some(errors),
        (false, None) if encodes_everything => Some(ErrorsArg::Replace),
        (false, None) => Some(ErrorsArg::Html),
    };
    let (on_malformed, on_unmappable) = match errors {
        None => (OnMalformed::Skip, OnUnmappable::Skip),
        Some(ErrorsArg::Replace) => (OnMalformed::Replace, OnUnmappable::Fail),
        Some(ErrorsArg::Html) => (OnMalformed::Replace, OnUnmappable::Html),
        Some(ErrorsArg::Fatal) => (OnMalformed::Fail, OnUnmappable::Fail),
    };
    let bom = match args.bom {
        BomArg::Sniff => Bom::Sniff,
        BomArg::Strip => Bom::Strip,
        BomArg::Keep => Bom::Keep,
    };
    let pieces = match args.chunk_size {
        Some(0) => return Err(Failure::Usage("--chunk-size must be at least 1".into())),
        Some(size) => Some(size),
        None if threads > 1 => Some(pieces::default_piece_size(threads)),
        None => None,
    };
    Ok(Plan {
        from,
        target,
        bom,
        on_malformed,
        on_unmappable,
        unmappable_hint: errors == Some(ErrorsArg::Replace),
        pieces: if threads > 1 { pieces } else { None },
        buffer_size: 64 * 1024,
        auto,
        kind,
        rewrite_declaration: !args.keep_declaration,
    })
}

/// `simdenc convert`.
pub fn run(args: &ConvertArgs) -> Result<ExitCode, Failure> {
    let threads = crate::threads(args.jobs)?;
    let plan = plan(args, threads)?;
    let inputs = files::expand(&args.inputs, args.recursive, args.out_dir.as_deref())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Message(format!("cannot start {threads} threads: {e}")))?;
    let reporter = Reporter::new(args)?;
    let result = if let Some(dir) = &args.out_dir {
        pool.install(|| to_files(&plan, &inputs, Destination::Dir(dir), args.quiet, &reporter))
    } else if args.in_place {
        pool.install(|| to_files(&plan, &inputs, Destination::InPlace, args.quiet, &reporter))
    } else {
        let output = args.output.as_deref().filter(|path| path.as_os_str() != "-");
        pool.install(|| to_one_output(&plan, &inputs, output, args.quiet, &reporter))
    };
    reporter.finish()?;
    result
}

fn total_size(inputs: &[Input]) -> Option<u64> {
    inputs
        .iter()
        .map(|input| match input {
            Input::Stdin => None,
            Input::File { path, .. } => fs::metadata(path).ok().map(|m| m.len()),
        })
        .sum()
}

/// All inputs, converted one after the other, into standard output or one file.
fn to_one_output(
    plan: &Plan,
    inputs: &[Input],
    output: Option<&Path>,
    quiet: bool,
    reporter: &Reporter,
) -> Result<ExitCode, Failure> {
    let started = Instant::now();
    if let Some(path) = output {
        for input in inputs {
            if let Input::File { path: input, .. } = input
                && files::same_file(input, path)
            {
                return Err(Failure::Usage(format!(
                    "the output {} is also an input (use --in-place to convert a file in place)",
                    path.display()
                )));
            }
        }
    }
    let progress = Progress::new(!quiet, total_size(inputs), inputs.len() as u64);
    let totals = Totals::default();
    let output_name = output.map_or_else(|| "standard output".to_owned(), |p| p.display().to_string());
    let result = match output {
        None => {
            crate::errors::check_stdout()?;
            let stdout = io::stdout().lock();
            convert_all(plan, inputs, stdout, &progress, &totals, (reporter, &output_name)).map(drop)
        }
        Some(path) => {
            let existing = fs::metadata(path).ok();
            let mut atomic = OutputFile::create(path, existing.as_ref(), false).map_err(|e| {
                Failure::Message(format!(
                    "cannot create a temporary file for {}: {e}",
                    path.display()
                ))
            })?;
            let result = convert_all(
                plan,
                inputs,
                atomic.file(),
                &progress,
                &totals,
                (reporter, &output_name),
            )
            .map(drop);
            match result {
                Ok(()) => atomic.commit().map_err(|e| (String::new(), ConvError::Write(e))),
                Err(e) => Err(e),
            }
        }
    };
    progress.finish();
    let failure = match result {
        Ok(()) => None,
        // The reader of standard output, or of a pipe named as `-o /dev/stdout`, went away.
        Err((_, ConvError::Write(e))) if e.kind() == io::ErrorKind::BrokenPipe => {
            return Err(Failure::BrokenPipe);
        }
        Err((input, e)) => Some(e.describe(&input, &output_name, plan)),
    };
    // One input: the summary only for a person watching (standard error a terminal), so that
    // scripts and pipes see nothing new.
    if !quiet && (inputs.len() > 1 || std::io::IsTerminal::is_terminal(&io::stderr())) {
        let line = if inputs.len() == 1 {
            format!(
                "{} → {}: {}",
                source_name(plan, &totals),
                target_name(plan),
                totals.summary(started)
            )
        } else {
            totals.summary(started)
        };
        progress.println(&format!("simdenc: {line}"));
    }
    match failure {
        Some(message) => Err(Failure::Message(message)),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Converts every input into `output`, stopping at the first failure (returned with the
/// input's name).
fn convert_all<W: Write>(
    plan: &Plan,
    inputs: &[Input],
    output: W,
    progress: &Progress,
    totals: &Totals,
    (reporter, output_name): (&Reporter, &str),
) -> Result<W, (String, ConvError)> {
    let mut output = CountingWriter {
        inner: output,
        written: 0,
    };
    for input in inputs {
        let before = output.written;
        let result = match input {
            Input::Stdin => convert_stdin(&mut output, plan, progress),
            Input::File { path, .. } => match files::open(path) {
                Ok((file, meta)) => convert_file(path, file, meta.len(), &mut output, plan, progress)
                    .map(|(_, outcome)| outcome),
                Err(message) => Err(ConvError::Open(message)),
            },
        };
        progress.file_done();
        match result {
            Ok(outcome) => {
                totals.add(
                    outcome.bytes_in,
                    output.written - before,
                    outcome.had_errors,
                    false,
                );
                reporter.record(
                    &input.display(),
                    output_name,
                    plan,
                    Ok(&outcome),
                    totals,
                    progress,
                );
            }
            Err(e) => {
                totals.add(0, output.written - before, false, true);
                let name = input.display();
                reporter.record(
                    &name,
                    output_name,
                    plan,
                    Err(&e.describe(&name, output_name, plan)),
                    totals,
                    progress,
                );
                return Err((name, e));
            }
        }
    }
    output
        .inner
        .flush()
        .map_err(|e| (String::new(), ConvError::Write(e)))?;
    Ok(output.inner)
}

/// Standard input into `output`, its head read first when the plan needs it.
fn convert_stdin<W: Write>(output: W, plan: &Plan, progress: &Progress) -> Result<Outcome, ConvError> {
    let stdin = Counting {
        inner: io::stdin().lock(),
        progress,
    };
    convert_unseekable(stdin, None, output, plan).map(|(_, outcome)| outcome)
}

/// An input read once (standard input, a FIFO): its head is read and kept, then decoded before
/// the rest.
fn convert_unseekable<R: Read, W: Write>(
    mut input: R,
    path: Option<&Path>,
    output: W,
    plan: &Plan,
) -> Result<(W, Outcome), ConvError> {
    let Some(head) = read_head(&mut input, path, plan, false).map_err(ConvError::Read)? else {
        return stream(input, output, plan, plan.from, plan.bom);
    };
    let plan = &Plan {
        from: head.from(plan),
        ..*plan
    };
    let new_head = rewrite_declaration(&head, plan);
    let rewritten = new_head.is_some();
    let first = new_head.unwrap_or_else(|| head.bytes.clone());
    let delta = first.len() as i64 - head.bytes.len() as i64;
    let input = io::Cursor::new(first).chain(input);
    let (output, outcome) = stream(input, output, plan, plan.from, plan.bom)?;
    let bytes_in = outcome.bytes_in.saturating_add_signed(-delta);
    Ok((
        output,
        Outcome {
            bytes_in,
            decision: head.decision,
            rewritten,
            ..outcome
        },
    ))
}

/// What is said of each input beyond the summary: its line in `--report`, a warning when more
/// of its malformed sequences were replaced with U+FFFD than `--max-replaced` allows, and the summary's counts.
pub struct Reporter {
    report: Option<std::sync::Mutex<io::BufWriter<fs::File>>>,
    max_replaced: f64,
}

impl Reporter {
    pub fn new(args: &ConvertArgs) -> Result<Reporter, Failure> {
        let report = match &args.report {
            Some(path) => Some(std::sync::Mutex::new(io::BufWriter::new(
                fs::File::create(path)
                    .map_err(|e| Failure::Message(format!("cannot create {}: {e}", path.display())))?,
            ))),
            None => None,
        };
        Ok(Reporter {
            report,
            max_replaced: args.max_replaced,
        })
    }

    /// Records one input's outcome (`Err`: the message of its failure).
    pub fn record(
        &self,
        input: &str,
        output: &str,
        plan: &Plan,
        result: Result<&Outcome, &str>,
        totals: &Totals,
        progress: &Progress,
    ) {
        use std::sync::atomic::Ordering::Relaxed;
        let mut line = serde_json::Map::new();
        line.insert("file".into(), input.into());
        line.insert("output".into(), output.into());
        match result {
            Ok(outcome) => {
                let (encoding, source, confidence) = match outcome.decision {
                    Some(d) => (d.encoding, d.source.as_str(), f64::from(d.confidence)),
                    None => (plan.from, "given", 1.0),
                };
                if let Some(d) = outcome.decision
                    && let Ok(mut map) = totals.encodings.lock()
                {
                    *map.entry(d.encoding.name()).or_default() += 1;
                }
                if outcome.rewritten {
                    totals.rewritten.fetch_add(1, Relaxed);
                }
                totals.replaced.fetch_add(outcome.replaced, Relaxed);
                let over = outcome.replaced > 0
                    && outcome.replaced as f64 > self.max_replaced * outcome.bytes_in.max(1) as f64;
                if over {
                    totals.over_replaced.fetch_add(1, Relaxed);
                    progress.println(&format!(
                        "simdenc: {input}: {} U+FFFD replacement characters in {} bytes decoded as {} ({source}): more than --max-replaced {}",
                        outcome.replaced,
                        outcome.bytes_in,
                        encoding.name(),
                        self.max_replaced
                    ));
                }
                line.insert("encoding".into(), encoding.name().into());
                line.insert("source".into(), source.into());
                let confidence = (confidence * 1e4).round() / 1e4;
                line.insert(
                    "confidence".into(),
                    serde_json::Number::from_f64(confidence).map_or(0.into(), Into::into),
                );
                line.insert("bytes".into(), outcome.bytes_in.into());
                line.insert("replaced".into(), outcome.replaced.into());
                line.insert("over_max_replaced".into(), over.into());
                line.insert("declaration_rewritten".into(), outcome.rewritten.into());
            }
            Err(message) => {
                line.insert("error".into(), message.into());
            }
        }
        if let Some(report) = &self.report
            && let Ok(mut file) = report.lock()
        {
            let _ = writeln!(file, "{}", serde_json::Value::Object(line));
        }
    }

    /// Flushes the report.
    pub fn finish(&self) -> Result<(), Failure> {
        if let Some(report) = &self.report
            && let Ok(mut file) = report.lock()
        {
            file.flush()
                .map_err(|e| Failure::Message(format!("cannot write the report: {e}")))?;
        }
        Ok(())
    }
}

/// The source encoding as the summary names it: the one given, or the one `-f auto` decided.
fn source_name(plan: &Plan, totals: &Totals) -> String {
    let decided = totals
        .encodings
        .lock()
        .ok()
        .and_then(|map| map.keys().next().copied());
    match (&plan.auto, decided) {
        (Some(_), Some(name)) => name.to_owned(),
        _ => plan.from.name().to_owned(),
    }
}

fn target_name(plan: &Plan) -> &'static str {
    match plan.target {
        Target::Encode(encoding) => encoding.name(),
        Target::Utf16 { big_endian: false } => "UTF-16LE",
        Target::Utf16 { big_endian: true } => "UTF-16BE",
    }
}

/// Where `to_files` puts each output.
#[derive(Clone, Copy)]
enum Destination<'a> {
    Dir(&'a Path),
    InPlace,
}

/// One output file per input, converted in parallel.
fn to_files(
    plan: &Plan,
    inputs: &[Input],
    destination: Destination<'_>,
    quiet: bool,
    reporter: &Reporter,
) -> Result<ExitCode, Failure> {
    let started = Instant::now();
    let mut jobs: Vec<(PathBuf, PathBuf)> = Vec::new();
    for input in inputs {
        let Input::File { path, relative } = input else {
            return Err(Failure::Usage(
                "standard input cannot be converted with --out-dir or --in-place; use -o or standard output"
                    .into(),
            ));
        };
        let output = match destination {
            Destination::Dir(dir) => dir.join(relative),
            Destination::InPlace => path.clone(),
        };
        jobs.push((path.clone(), output));
    }
    check_jobs(&jobs, destination, FileId::of)?;
    if let Destination::Dir(dir) = destination {
        fs::create_dir_all(dir)
            .map_err(|e| Failure::Message(format!("cannot create {}: {e}", dir.display())))?;
    }
    let progress = Progress::new(!quiet, total_size(inputs), jobs.len() as u64);
    let totals = Totals::default();
    let failures: Vec<String> = jobs
        .par_iter()
        .filter_map(|(input, output)| {
            let result = convert_to_file(plan, input, output, destination, &progress);
            progress.file_done();
            let (input, output) = (input.display().to_string(), output.display().to_string());
            match result {
                Ok((outcome, written)) => {
                    totals.add(outcome.bytes_in, written, outcome.had_errors, false);
                    reporter.record(&input, &output, plan, Ok(&outcome), &totals, &progress);
                    None
                }
                Err(message) => {
                    totals.add(0, 0, false, true);
                    progress.println(&format!("simdenc: {message}"));
                    reporter.record(&input, &output, plan, Err(&message), &totals, &progress);
                    Some(message)
                }
            }
        })
        .collect();
    progress.finish();
    if !quiet {
        progress.println(&format!("simdenc: {}", totals.summary(started)));
    }
    if failures.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(Failure::Reported)
    }
}

/// Refuses jobs that would overwrite an input (other than in place) or write one output
/// twice. Linear: one identity lookup (`id`, a `stat`) per input and per output.
fn check_jobs(
    jobs: &[(PathBuf, PathBuf)],
    destination: Destination<'_>,
    id: impl Fn(&Path) -> Option<FileId>,
) -> Result<(), Failure> {
    let mut outputs: Vec<&PathBuf> = jobs.iter().map(|(_, output)| output).collect();
    outputs.sort();
    if let Some(pair) = outputs.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(Failure::Usage(format!(
            "two inputs would be written to {}",
            pair[0].display()
        )));
    }
    if let Destination::Dir(_) = destination {
        let inputs: HashMap<FileId, &Path> = jobs
            .iter()
            .filter_map(|(input, _)| Some((id(input)?, input.as_path())))
            .collect();
        for (_, output) in jobs {
            if let Some(overwritten) = id(output).and_then(|file| inputs.get(&file)) {
                return Err(Failure::Usage(format!(
                    "{} would overwrite the input {} (use --in-place to convert files in place)",
                    output.display(),
                    overwritten.display()
                )));
            }
        }
    }
    Ok(())
}

/// Converts one input into one output file, atomically: `(outcome, bytes written)`.
fn convert_to_file(
    plan: &Plan,
    input: &Path,
    output: &Path,
    destination: Destination<'_>,
    progress: &Progress,
) -> Result<(Outcome, u64), String> {
    let in_place = matches!(destination, Destination::InPlace);
    // Before opening it: opening a FIFO waits for a writer, and reading it consumes data.
    if in_place {
        let meta = fs::metadata(input).map_err(|e| format!("cannot read {}: {e}", input.display()))?;
        if !meta.is_file() {
            return Err(format!(
                "{}: --in-place converts regular files only",
                input.display()
            ));
        }
    }
    let (file, meta) = files::open(input)?;
    if in_place && !meta.is_file() {
        // Replaced by something else since.
        return Err(format!(
            "{}: --in-place converts regular files only",
            input.display()
        ));
    }
    if let Some(parent) = output.parent()
        && !parent.as_os_str().is_empty()
    {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let like = if in_place {
        Some(meta.clone())
    } else {
        fs::metadata(output).ok()
    };
    let mut atomic = OutputFile::create(output, like.as_ref(), in_place)
        .map_err(|e| format!("cannot create a temporary file for {}: {e}", output.display()))?;
    let writer = CountingWriter {
        inner: atomic.file(),
        written: 0,
    };
    let output_name = output.display().to_string();
    let input_name = input.display().to_string();
    match convert_file(input, file, meta.len(), writer, plan, progress) {
        Ok((writer, outcome)) => {
            let written = writer.written;
            atomic
                .commit()
                .map_err(|e| format!("cannot write {output_name}: {e}"))?;
            Ok((outcome, written))
        }
        Err(e) => Err(e.describe(&input_name, &output_name, plan)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// The overlap check looks each input and each output up once (it was quadratic), and
    /// names the input an output would overwrite.
    #[test]
    fn check_jobs_is_linear_and_names_the_overwritten_input() {
        let n = 1000;
        let jobs: Vec<(PathBuf, PathBuf)> = (0..n)
            .map(|i| {
                (
                    PathBuf::from(format!("in/{i}")),
                    PathBuf::from(format!("out/{i}")),
                )
            })
            .collect();
        let ids: Vec<FileId> = std::fs::read_dir("/")
            .unwrap()
            .filter_map(|e| FileId::of(&e.unwrap().path()))
            .collect();
        let lookups = Cell::new(0usize);
        // Inputs have identities, outputs none yet.
        let id = |p: &Path| {
            lookups.set(lookups.get() + 1);
            p.starts_with("in").then(|| ids[0].clone())
        };
        // (All inputs the same file is not this check's business: `files::dedupe` ran.)
        check_jobs(&jobs, Destination::Dir(Path::new("out")), id).unwrap();
        assert!(lookups.get() <= 2 * n, "{} lookups for {n} jobs", lookups.get());

        // Output out/7 is the file of input in/3.
        let distinct: Vec<FileId> = ids.iter().take(2).cloned().collect();
        let id = |p: &Path| match p.to_str().unwrap() {
            "in/3" | "out/7" => Some(distinct[0].clone()),
            "in/5" => Some(distinct[1].clone()),
            _ => None,
        };
        let err = check_jobs(&jobs, Destination::Dir(Path::new("out")), id).unwrap_err();
        assert_eq!(
            err.to_string(),
            "out/7 would overwrite the input in/3 (use --in-place to convert files in place)"
        );
    }
}
