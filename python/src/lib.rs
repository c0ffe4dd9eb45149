//! `simdenc._simdenc`: the Python bindings of simdenc (the WHATWG Encoding Standard), over the
//! engine's `Encoding`, `Decoder` and `Encoder`. The package `simdenc` (python/simdenc/)
//! re-exports these and registers the `simdenc.*` codecs.
//!
//! What is the standard's and what is ours is said in python/README.md; in short: `decode`'s
//! three BOM modes are the standard's decode / decode with BOM removal / decode without BOM
//! handling, `errors="strict"` is its fatal error mode (raising Python's own exceptions with
//! the positions Python's codecs give), `encode` is its encode (html mode or fatal) except
//! that UTF-16LE/BE labels encode to UTF-16, as the `simdenc` command does.
#![deny(unsafe_code)]
#![warn(clippy::undocumented_unsafe_blocks)]

use std::borrow::Cow;
use std::cell::RefCell;

use pyo3::exceptions::{
    PyLookupError, PyTypeError, PyUnicodeDecodeError, PyUnicodeEncodeError, PyValueError,
};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use simdenc::{CoderResult, Decoder, DecoderResult, Encoder, EncoderResult, Encoding};

mod auto;
mod batch;
mod fast_str;

/// Inputs at least this long are converted with the GIL released, so that other Python
/// threads run meanwhile; below it, releasing and taking the GIL back costs more than it lets
/// others do.
const GIL_RELEASE_BYTES: usize = 64 * 1024;

/// Runs `f` with the GIL released when `len` is large, else directly.
fn maybe_detach<T: Send, F: Send + FnOnce() -> T>(py: Python<'_>, len: usize, f: F) -> T {
    if len >= GIL_RELEASE_BYTES {
        py.detach(f)
    } else {
        f()
    }
}

/// "Get an encoding", as `LookupError` (what Python's codecs raise) when it fails.
fn encoding_for(label: &str) -> PyResult<&'static Encoding> {
    Encoding::for_label(label.as_bytes())
        .ok_or_else(|| PyLookupError::new_err(format!("unknown encoding: {label}")))
}

/// The name Python's exceptions carry: the standard's name, lowercased (as `TextDecoder`'s
/// `encoding` attribute).
fn lower_name(encoding: &'static Encoding) -> String {
    encoding.name().to_ascii_lowercase()
}

/// The bytes of a bytes-like argument: `bytes` without a copy; `bytearray`, `memoryview` and
/// other buffer objects copied (the limited API of CPython 3.9 has no buffer protocol).
fn input_bytes<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(bytes.clone());
    }
    if data.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err("a bytes-like object is required, not 'str'"));
    }
    if let Ok(array) = data.cast::<PyByteArray>() {
        return Ok(PyBytes::new(data.py(), &array.to_vec()));
    }
    let py = data.py();
    let view = py
        .import("builtins")?
        .getattr("memoryview")?
        .call1((data,))
        .map_err(|_| {
            let kind = data.get_type().name().map(|n| n.to_string()).unwrap_or_default();
            PyTypeError::new_err(format!("a bytes-like object is required, not '{kind}'"))
        })?;
    Ok(view.call_method0("tobytes")?.cast_into::<PyBytes>()?)
}

// ---------------------------------------------------------------------------------------------
// Decoding

/// Where a fatal decode stopped: the malformed sequence is `data[start..end]` (offsets into the
/// input of the call, negative when it began in an earlier call of a stream).
#[derive(Clone, Copy, Debug)]
struct Malformed {
    start: i64,
    end: i64,
    /// The error was found by the end-of-input flush (an incomplete sequence).
    at_eof: bool,
}

/// The reason Python's own codecs would give: UTF-8's three as CPython words them, the
/// multibyte codecs' two, and the charmap codecs' one for single-byte encodings.
fn decode_reason(encoding: &'static Encoding, input: &[u8], bad: Malformed) -> &'static str {
    if encoding == simdenc::UTF_8 {
        let first = usize::try_from(bad.start)
            .ok()
            .and_then(|i| input.get(i).copied());
        match first {
            Some(0x80..=0xC1 | 0xF5..=0xFF) => "invalid start byte",
            _ if bad.at_eof => "unexpected end of data",
            _ => "invalid continuation byte",
        }
    } else if encoding.is_single_byte() {
        "character maps to <undefined>"
    } else if bad.at_eof {
        "incomplete multibyte sequence"
    } else {
        "illegal multibyte sequence"
    }
}

/// The `UnicodeDecodeError` for `bad` in `object` (whose offset 0 is `bad`'s offset `shift`).
fn decode_error(
    py: Python<'_>,
    encoding: &'static Encoding,
    object: &[u8],
    shift: i64,
    bad: Malformed,
) -> PyErr {
    let bad = Malformed {
        start: bad.start + shift,
        end: bad.end + shift,
        ..bad
    };
    let reason = decode_reason(encoding, object, bad);
    let args = (
        lower_name(encoding),
        PyBytes::new(py, object),
        bad.start,
        bad.end,
        reason,
    );
    match py.get_type::<PyUnicodeDecodeError>().call1(args) {
        Ok(value) => PyErr::from_value(value),
        Err(err) => err,
    }
}

/// UTF-16 output: `buf[..len]` is the text; the rest is initialised room kept from earlier
/// calls, so that reusing the storage costs neither a zero-fill nor fresh pages.
#[derive(Default)]
struct Units {
    buf: Vec<u16>,
    len: usize,
}

/// The most storage a `Units` keeps between calls (code units; 8 MiB).
const KEEP_UNITS: usize = 1 << 22;

impl Units {
    fn text(&self) -> &[u16] {
        &self.buf[..self.len]
    }

    /// At least `n` units of room after the text.
    fn room(&mut self, n: usize) -> &mut [u16] {
        let need = self.len.saturating_add(n);
        if self.buf.len() < need {
            self.buf.resize(need, 0);
        }
        &mut self.buf[self.len..]
    }

    fn clear(&mut self) {
        self.len = 0;
        if self.buf.len() > KEEP_UNITS {
            self.buf = Vec::new();
        }
    }
}

thread_local! {
    /// The storage of one-shot decodes on this thread.
    static SCRATCH: RefCell<Units> = RefCell::new(Units::default());
}

/// Runs `f` with this thread's scratch `Units`, cleared (a fresh one if it is in use: a
/// finaliser run by CPython's allocator may decode while a decode builds its `str`).
fn with_scratch<T>(f: impl FnOnce(&mut Units) -> T) -> T {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut units) => {
            units.clear();
            f(&mut units)
        }
        Err(_) => f(&mut Units::default()),
    })
}

/// Runs `step` (one call of a `decode_to_utf16*` method of `decoder` on `rest`, writing into
/// the `&mut [u16]` it is given) over `input`, appending the code units to `out`, until it
/// returns `Some` (what it reports) with how much of `input` was read.
fn decode_steps<T>(
    decoder: &mut Decoder,
    input: &[u8],
    out: &mut Units,
    mut step: impl FnMut(&mut Decoder, &[u8], &mut [u16]) -> (Option<T>, usize, usize),
) -> (T, usize) {
    let mut read = 0;
    loop {
        let rest = &input[read..];
        // OutputFull asks for more room: the bound is only what saves a second round.
        let room = decoder.max_utf16_buffer_length(rest.len()).unwrap_or(rest.len());
        let (stop, n, written) = step(decoder, rest, out.room(room.min(1 << 24) + 4));
        out.len += written;
        read += n;
        if let Some(stop) = stop {
            return (stop, read);
        }
    }
}

/// Decodes `input` with `decoder` in fatal mode, appending UTF-16 to `out`. On a malformed
/// sequence, returns it and how much of `input` was read (the decoder keeps its state).
fn decode_fatal(
    decoder: &mut Decoder,
    input: &[u8],
    out: &mut Units,
    last: bool,
) -> Result<(), (Malformed, usize)> {
    let (result, read) = decode_steps(decoder, input, out, |decoder, rest, dst| {
        let (result, n, written) = decoder.decode_to_utf16_without_replacement(rest, dst, last);
        (
            (result != DecoderResult::OutputFull).then_some(result),
            n,
            written,
        )
    });
    match result {
        DecoderResult::Malformed(bad, after) => {
            let end = read as i64 - i64::from(after);
            let at_eof = last && read == input.len() && after == 0;
            let start = end - i64::from(bad);
            Err((Malformed { start, end, at_eof }, read))
        }
        _ => Ok(()),
    }
}

/// Decodes `input` with `decoder`, replacing malformed sequences, appending UTF-16 to `out`.
fn decode_replacing(decoder: &mut Decoder, input: &[u8], out: &mut Units, last: bool) {
    decode_steps(decoder, input, out, |decoder, rest, dst| {
        let (result, n, written, _) = decoder.decode_to_utf16(rest, dst, last);
        ((result == CoderResult::InputEmpty).then_some(()), n, written)
    });
}

/// Decoded text, in the form from which CPython builds a `str` fastest.
enum Decoded<'a> {
    /// ASCII (the input itself): `str` from it is a copy.
    Ascii(&'a [u8]),
    /// UTF-16 (surrogates in pairs only), in the `Units` given.
    Utf16,
}

/// The `str` of `units` (UTF-16 with surrogates in pairs only): written in place where the
/// interpreter's `str` layout was found and checked (`fast_str`), else by CPython's UTF-16
/// decoder, which finds the narrowest representation at several times the speed of its UTF-8
/// decoder on non-ASCII text.
#[allow(unsafe_code)]
fn str_from_utf16<'py>(py: Python<'py>, units: &[u16]) -> PyResult<Bound<'py, PyString>> {
    if let Some(layout) = fast_str::Layout::get(py) {
        return layout.str_from_utf16(py, units);
    }
    let size =
        isize::try_from(std::mem::size_of_val(units)).map_err(|e| PyValueError::new_err(e.to_string()))?;
    // -1: little-endian, 1: big-endian; the units are in this machine's order.
    let mut order: std::ffi::c_int = if cfg!(target_endian = "little") { -1 } else { 1 };
    // SAFETY: `units` is valid for reads of `size` bytes (its size in bytes, which fits an
    // isize as every allocation's does) for the whole call, and CPython only reads them; a
    // null `errors` is "strict"; `order` is a live c_int CPython reads and may write. The GIL
    // is held (`py`). The result is a new reference, or null with an exception set, which
    // `from_owned_ptr_or_err` turns into `Err`.
    let object = unsafe {
        let ptr = pyo3::ffi::PyUnicode_DecodeUTF16(units.as_ptr().cast(), size, std::ptr::null(), &mut order);
        Bound::from_owned_ptr_or_err(py, ptr)?
    };
    Ok(object.cast_into::<PyString>()?)
}

/// The `str` of `decoded` (with its UTF-16 in `units`).
fn to_pystr<'py>(py: Python<'py>, decoded: &Decoded<'_>, units: &Units) -> PyResult<Bound<'py, PyString>> {
    match decoded {
        Decoded::Ascii(ascii) => {
            let text = std::str::from_utf8(ascii).map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok(PyString::new(py, text))
        }
        Decoded::Utf16 => str_from_utf16(py, units.text()),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bom {
    Sniff,
    Strip,
    Keep,
}

/// One-shot decode; `Err` holds the malformed sequence's offsets in `data`.
fn decode_bytes<'a>(
    data: &'a [u8],
    encoding: &'static Encoding,
    fatal: bool,
    bom: Bom,
    out: &mut Units,
) -> Result<Decoded<'a>, Malformed> {
    // The encoding used and where the text starts, as the standard's three decode
    // algorithms choose them.
    let (encoding, skip) = match (bom, Encoding::for_bom(data)) {
        (Bom::Sniff, Some((sniffed, len))) => (sniffed, len),
        (Bom::Strip, Some((sniffed, len))) if sniffed == encoding => (encoding, len),
        _ => (encoding, 0),
    };
    let body = &data[skip..];
    if encoding.is_ascii_compatible() && Encoding::ascii_valid_up_to(body) == body.len() {
        return Ok(Decoded::Ascii(body));
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    if !fatal {
        decode_replacing(&mut decoder, body, out, true);
        return Ok(Decoded::Utf16);
    }
    match decode_fatal(&mut decoder, body, out, true) {
        Ok(()) => Ok(Decoded::Utf16),
        Err((bad, _)) => Err(Malformed {
            start: bad.start + skip as i64,
            end: bad.end + skip as i64,
            ..bad
        }),
    }
}

fn parse_bom(bom: &str) -> PyResult<Bom> {
    match bom {
        "sniff" => Ok(Bom::Sniff),
        "strip" => Ok(Bom::Strip),
        "keep" => Ok(Bom::Keep),
        _ => Err(PyValueError::new_err(format!(
            "bom must be 'sniff', 'strip' or 'keep', not {bom:?}"
        ))),
    }
}

fn parse_decode_errors(errors: &str) -> PyResult<bool> {
    match errors {
        "strict" => Ok(true),
        "replace" => Ok(false),
        _ => Err(PyValueError::new_err(format!(
            "errors must be 'replace' or 'strict', not {errors:?}"
        ))),
    }
}

/// Decodes `data` (bytes-like) with the encoding `encoding` names (any label of the
/// standard), returning `str`.
///
/// `bom`: "sniff" (the standard's *decode*: a UTF-8 or UTF-16 BOM overrides `encoding`
/// and is removed), "strip" (*decode with BOM removal*: only `encoding`'s own BOM is removed)
/// or "keep" (*decode without BOM handling*).
///
/// `errors`: "replace" (malformed sequences become U+FFFD, as the standard's replacement
/// mode) or "strict" (its fatal mode: `UnicodeDecodeError` with the malformed sequence's
/// offsets in `data`). Unknown labels raise `LookupError`.
#[pyfunction]
#[pyo3(signature = (data, encoding = "utf-8", errors = "replace", bom = "sniff"))]
fn decode<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    encoding: &str,
    errors: &str,
    bom: &str,
) -> PyResult<Bound<'py, PyString>> {
    let enc = encoding_for(encoding)?;
    let fatal = parse_decode_errors(errors)?;
    let bom = parse_bom(bom)?;
    let bytes = input_bytes(data)?;
    let input = bytes.as_bytes();
    with_scratch(|units| {
        let result = maybe_detach(py, input.len(), || decode_bytes(input, enc, fatal, bom, units));
        match result {
            Ok(text) => to_pystr(py, &text, units),
            Err(bad) => {
                // The encoding named in the error is the one that decoded (a sniffed BOM's).
                let used = match (bom, Encoding::for_bom(input)) {
                    (Bom::Sniff, Some((sniffed, _))) => sniffed,
                    _ => enc,
                };
                Err(decode_error(py, used, input, 0, bad))
            }
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Encoding

/// A Python `str` as Rust text: lone surrogates (which a Python `str` may hold and Rust's may
/// not) become U+FFFD, as the standard's conversion to scalar values does; `first_surrogate`
/// is the code-point index of the first one, for strict mode.
struct Text<'a> {
    text: Cow<'a, str>,
    first_surrogate: Option<usize>,
}

fn text_of<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Text<'a>> {
    if let Ok(text) = s.to_cow() {
        return Ok(Text {
            text,
            first_surrogate: None,
        });
    }
    // Surrogates: UTF-8 with them encoded as three bytes each (ED A0..BF xx), then replaced.
    let wtf8 = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
    let wtf8 = wtf8.cast::<PyBytes>()?.as_bytes();
    let mut text = String::with_capacity(wtf8.len());
    let mut first_surrogate = None;
    let mut index = 0;
    let mut rest = wtf8;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                text.push_str(valid);
                break;
            }
            Err(e) => {
                let valid = &rest[..e.valid_up_to()];
                let valid = std::str::from_utf8(valid).unwrap_or_default();
                text.push_str(valid);
                index += valid.chars().count();
                first_surrogate.get_or_insert(index);
                text.push('\u{FFFD}');
                index += 1;
                rest = &rest[(e.valid_up_to() + 3).min(rest.len())..];
            }
        }
    }
    Ok(Text {
        text: Cow::Owned(text),
        first_surrogate,
    })
}

/// `text.encode("utf-8")`: CPython's own encoder (which fails on lone surrogates only).
fn cpython_utf8<'py>(py: Python<'py>, text: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyBytes>> {
    Ok(text
        .call_method1(intern!(py, "encode"), (intern!(py, "utf-8"),))?
        .cast_into::<PyBytes>()?)
}

/// Where a strict encode failed: the code-point index in the `str`, and why.
#[derive(Debug)]
struct Unencodable {
    index: usize,
    reason: &'static str,
}

fn encode_error(py: Python<'_>, name: &str, text: &Bound<'_, PyString>, bad: Unencodable) -> PyErr {
    let args = (name, text.clone(), bad.index, bad.index + 1, bad.reason);
    match py.get_type::<PyUnicodeEncodeError>().call1(args) {
        Ok(value) => PyErr::from_value(value),
        Err(err) => err,
    }
}

/// What `encode` writes for an encoding: the standard's encoder for its output encoding, or
/// UTF-16 code units for the UTF-16LE/BE labels (an extension, as in the `simdenc` command:
/// the standard's output encoding for them is UTF-8).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Encode(&'static Encoding),
    Utf16 { big_endian: bool },
}

impl Target {
    fn of(encoding: &'static Encoding) -> Target {
        if encoding == simdenc::UTF_16LE {
            Target::Utf16 { big_endian: false }
        } else if encoding == simdenc::UTF_16BE {
            Target::Utf16 { big_endian: true }
        } else {
            Target::Encode(encoding.output_encoding())
        }
    }

    fn name(self) -> String {
        match self {
            Target::Encode(encoding) => lower_name(encoding),
            Target::Utf16 { big_endian: false } => "utf-16le".into(),
            Target::Utf16 { big_endian: true } => "utf-16be".into(),
        }
    }

    fn unmappable_reason(self) -> &'static str {
        match self {
            Target::Encode(encoding) if encoding.is_single_byte() => "character maps to <undefined>",
            _ => "illegal multibyte sequence",
        }
    }
}

fn utf16_bytes(text: &str, big_endian: bool, out: &mut Vec<u8>) {
    out.reserve(text.len() * 2);
    for unit in text.encode_utf16() {
        out.extend_from_slice(&if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
}

/// Encodes `text` into `out` with `encoder` (a `Target::Encode`'s), html mode or fatal;
/// `Err` holds the byte offset in `text` just after the unmappable character.
fn encode_with(
    encoder: &mut Encoder,
    text: &str,
    out: &mut Vec<u8>,
    html: bool,
    last: bool,
) -> Result<(), usize> {
    let mut read = 0;
    loop {
        let rest = &text[read..];
        if html {
            let room = encoder.max_buffer_length_from_utf8_if_no_unmappables(rest.len());
            out.reserve(room.unwrap_or(rest.len()).min(1 << 24) + 16);
            let (result, n, _) = encoder.encode_from_utf8_to_vec(rest, out, last);
            read += n;
            if result == CoderResult::InputEmpty {
                return Ok(());
            }
        } else {
            let room = encoder.max_buffer_length_from_utf8_without_replacement(rest.len());
            out.reserve(room.unwrap_or(rest.len()).min(1 << 24) + 16);
            let (result, n) = encoder.encode_from_utf8_to_vec_without_replacement(rest, out, last);
            read += n;
            match result {
                EncoderResult::InputEmpty => return Ok(()),
                EncoderResult::OutputFull => {}
                EncoderResult::Unmappable(_) => return Err(read),
            }
        }
    }
}

/// Encodes `text` for `target`: `Err` is the strict-mode failure.
fn encode_text(
    target: Target,
    encoder: Option<&mut Encoder>,
    text: &Text<'_>,
    html: bool,
    last: bool,
) -> Result<Vec<u8>, Unencodable> {
    let s: &str = &text.text;
    let surrogate = |index| Unencodable {
        index,
        reason: "surrogates not allowed",
    };
    let mut out = Vec::new();
    match (target, encoder) {
        (Target::Utf16 { big_endian }, _) => {
            if let (false, Some(index)) = (html, text.first_surrogate) {
                return Err(surrogate(index));
            }
            utf16_bytes(s, big_endian, &mut out);
        }
        (Target::Encode(encoding), encoder) => {
            let mut fresh;
            let encoder = match encoder {
                Some(encoder) => encoder,
                None => {
                    fresh = encoding.new_encoder();
                    &mut fresh
                }
            };
            if let Err(after) = encode_with(encoder, s, &mut out, html, last) {
                // The unmappable character is the last one read.
                let index = s[..after].chars().count() - 1;
                return Err(match text.first_surrogate {
                    Some(first) if first <= index => surrogate(first),
                    _ => Unencodable {
                        index,
                        reason: target.unmappable_reason(),
                    },
                });
            }
            if let (false, Some(index)) = (html, text.first_surrogate) {
                return Err(surrogate(index));
            }
        }
    }
    Ok(out)
}

fn parse_encode_errors(errors: &str) -> PyResult<bool> {
    match errors {
        "html" => Ok(true),
        "strict" => Ok(false),
        _ => Err(PyValueError::new_err(format!(
            "errors must be 'html' or 'strict', not {errors:?}"
        ))),
    }
}

/// Encodes `text` (str) into the encoding `encoding` names (any label of the standard; the
/// standard's *output encoding* is used, so "replacement" labels encode as UTF-8), returning
/// `bytes`.
///
/// `errors`: "html" (the standard's html mode: an unmappable character becomes `&#N;`) or
/// "strict" (its fatal mode: `UnicodeEncodeError` with the character's index in `text`).
/// Lone surrogates, which a `str` may hold, are U+FFFD in html mode (the standard's
/// conversion to scalar values) and an error in strict mode.
///
/// Ours: the UTF-16LE and UTF-16BE labels encode to UTF-16 code units in that byte order,
/// without BOM, as the `simdenc` command does (the standard encodes them as UTF-8).
#[pyfunction]
#[pyo3(signature = (text, encoding = "utf-8", errors = "html"))]
fn encode<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    encoding: &str,
    errors: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let target = Target::of(encoding_for(encoding)?);
    let html = parse_encode_errors(errors)?;
    let string = text
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("encode() argument 'text' must be str"))?;
    if target == Target::Encode(simdenc::UTF_8) {
        // CPython's UTF-8 encoder is the standard's on scalar values, and gives the `bytes`
        // without the copies below. Lone surrogates: its error in strict mode (as its own
        // codec reports them), U+FFFD below in html mode.
        match cpython_utf8(py, string) {
            Ok(bytes) => return Ok(bytes),
            Err(err) if !html => return Err(err),
            Err(_) => {}
        }
    }
    let rust = text_of(string)?;
    let result = maybe_detach(py, rust.text.len(), || {
        encode_text(target, None, &rust, html, true)
    });
    match result {
        Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
        Err(bad) => Err(encode_error(py, &target.name(), string, bad)),
    }
}

/// The standard's *get an encoding*: the name of the encoding `label` stands for (ASCII
/// whitespace around it and case ignored), or None if it is not a label.
#[pyfunction]
fn lookup(label: &str) -> Option<&'static str> {
    Encoding::for_label(label.as_bytes()).map(|e| e.name())
}

/// Every encoding of the standard: a list of (name, [labels]).
#[pyfunction]
fn encodings() -> Vec<(&'static str, Vec<&'static str>)> {
    Encoding::all()
        .iter()
        .map(|e| (e.name(), e.labels().to_vec()))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The standard's API

/// The state of a `TextDecoder` ("TextDecoderCommon" and the decoder's own), as
/// `simdenc::text::TextDecoder` keeps it, plus what a Python exception needs: the last bytes
/// read, so that a malformed sequence begun in an earlier call can be shown whole.
struct StreamState {
    encoding: &'static Encoding,
    decoder: Decoder,
    /// Input left in the I/O queue after a fatal error, decoded before the next input.
    queue: Vec<u8>,
    /// The last bytes the decoder read (at most `TAIL` of them).
    tail: Vec<u8>,
    /// The output of the current call.
    out: Units,
    ignore_bom: bool,
    bom_seen: bool,
    fatal: bool,
    do_not_flush: bool,
}

/// Longer than any malformed sequence of any decoder (four bytes).
const TAIL: usize = 8;

impl StreamState {
    fn new(encoding: &'static Encoding, fatal: bool, ignore_bom: bool) -> StreamState {
        StreamState {
            encoding,
            decoder: encoding.new_decoder_without_bom_handling(),
            queue: Vec::new(),
            tail: Vec::new(),
            out: Units::default(),
            ignore_bom,
            bom_seen: false,
            fatal,
            do_not_flush: false,
        }
    }

    fn reset(&mut self) {
        self.decoder = self.encoding.new_decoder_without_bom_handling();
        self.queue.clear();
        self.tail.clear();
        self.bom_seen = false;
    }

    fn remember(&mut self, read: &[u8]) {
        let keep = read.len().min(TAIL);
        self.tail.extend_from_slice(&read[read.len() - keep..]);
        let excess = self.tail.len().saturating_sub(TAIL);
        self.tail.drain(..excess);
    }

    /// The standard's `decode(input, {stream})`. `Err` holds the malformed sequence and the
    /// bytes the error is about (the queue and the input, after as much of the earlier input
    /// as the sequence began in) with the offset of the input's start in them.
    fn decode(&mut self, input: &[u8], stream: bool) -> Result<&[u16], (Malformed, Vec<u8>, i64)> {
        // 1. If do not flush is false, a new decoder instance, I/O queue and BOM seen.
        if !self.do_not_flush {
            self.reset();
        }
        // 2. Set do not flush to options["stream"].
        self.do_not_flush = stream;
        let queued = std::mem::take(&mut self.queue);
        let feed: Cow<'_, [u8]> = if queued.is_empty() {
            Cow::Borrowed(input)
        } else {
            Cow::Owned([&queued[..], input].concat())
        };
        let last = !stream;
        let out = &mut self.out;
        out.clear();
        if self.fatal {
            if let Err((bad, read)) = decode_fatal(&mut self.decoder, &feed, out, last) {
                // The rest stays in the I/O queue for a later streaming call.
                self.queue.extend_from_slice(&feed[read..]);
                let before = usize::try_from(-bad.start.min(0))
                    .unwrap_or(0)
                    .min(self.tail.len());
                let mut object = self.tail[self.tail.len() - before..].to_vec();
                object.extend_from_slice(&feed);
                self.remember(&feed[..read]);
                return Err((bad, object, before as i64));
            }
        } else {
            decode_replacing(&mut self.decoder, &feed, out, last);
        }
        self.remember(&feed);
        // "Serialize I/O queue": a leading U+FEFF is dropped once per stream for UTF-8 and
        // UTF-16 unless BOMs are ignored.
        let bom_matters = [simdenc::UTF_8, simdenc::UTF_16BE, simdenc::UTF_16LE].contains(&self.encoding)
            && !self.ignore_bom;
        let mut text = self.out.text();
        if let Some((&first, rest)) = text.split_first().filter(|_| bom_matters && !self.bom_seen) {
            self.bom_seen = true;
            if first == 0xFEFF {
                text = rest;
            }
        }
        Ok(text)
    }
}

/// The standard's `TextDecoder`. `label` is any label of the standard except those of the
/// replacement encoding (`LookupError` otherwise, the standard's `RangeError`).
///
/// `decode(data=b"", stream=False)`: with `stream=True`, an incomplete sequence at the end
/// waits for the next call; a call without it ends the stream (and the next call starts a new
/// one). With `fatal=True` a malformed sequence raises `UnicodeDecodeError` (the standard's
/// `TypeError`), whose `object` is the input of the call (after the bytes of an earlier call
/// the sequence began in) and whose `start`/`end` are the sequence's offsets in it. A leading
/// BOM of UTF-8 and UTF-16 is removed unless `ignore_bom=True`.
#[pyclass(module = "simdenc")]
struct TextDecoder {
    state: StreamState,
}

#[pymethods]
impl TextDecoder {
    #[new]
    #[pyo3(signature = (label = "utf-8", fatal = false, ignore_bom = false))]
    fn new(label: &str, fatal: bool, ignore_bom: bool) -> PyResult<TextDecoder> {
        let encoding = Encoding::for_label_no_replacement(label.as_bytes())
            .ok_or_else(|| PyLookupError::new_err(format!("unknown encoding: {label}")))?;
        Ok(TextDecoder {
            state: StreamState::new(encoding, fatal, ignore_bom),
        })
    }

    /// The encoding's name, lowercased (as the standard's `encoding` attribute).
    #[getter]
    fn encoding(&self) -> String {
        lower_name(self.state.encoding)
    }

    /// Whether malformed input raises instead of becoming U+FFFD.
    #[getter]
    fn fatal(&self) -> bool {
        self.state.fatal
    }

    /// Whether a leading BOM is kept in the output.
    #[getter]
    fn ignore_bom(&self) -> bool {
        self.state.ignore_bom
    }

    /// The text `data` completes; see the class's documentation.
    #[pyo3(signature = (data = None, stream = false))]
    fn decode<'py>(
        &mut self,
        py: Python<'py>,
        data: Option<&Bound<'py, PyAny>>,
        stream: bool,
    ) -> PyResult<Bound<'py, PyString>> {
        let bytes = match data {
            Some(data) => input_bytes(data)?,
            None => PyBytes::new(py, b""),
        };
        let input = bytes.as_bytes();
        let state = &mut self.state;
        let result = maybe_detach(py, input.len(), || state.decode(input, stream));
        match result {
            Ok(units) => str_from_utf16(py, units),
            Err((bad, object, shift)) => Err(decode_error(py, self.state.encoding, &object, shift, bad)),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "TextDecoder({:?}, fatal={}, ignore_bom={})",
            lower_name(self.state.encoding),
            if self.state.fatal { "True" } else { "False" },
            if self.state.ignore_bom { "True" } else { "False" }
        )
    }
}

/// The standard's `TextEncoder`: UTF-8 only. `encode(text)` returns the UTF-8 bytes of
/// `text`, lone surrogates as U+FFFD (the standard's conversion to scalar values).
#[pyclass(module = "simdenc")]
struct TextEncoder;

#[pymethods]
impl TextEncoder {
    #[new]
    fn new() -> TextEncoder {
        TextEncoder
    }

    /// Always "utf-8".
    #[getter]
    fn encoding(&self) -> &'static str {
        simdenc::text::TextEncoder::new().encoding()
    }

    /// The UTF-8 bytes of `text`.
    #[pyo3(signature = (text = None))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        text: Option<&Bound<'py, PyString>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let Some(text) = text else {
            return Ok(PyBytes::new(py, b""));
        };
        if let Ok(bytes) = cpython_utf8(py, text) {
            return Ok(bytes);
        }
        let rust = text_of(text)?;
        Ok(PyBytes::new(py, rust.text.as_bytes()))
    }

    fn __repr__(&self) -> &'static str {
        "TextEncoder()"
    }
}

/// An encoder that keeps its state from one call to the next (ISO-2022-JP's mode), for the
/// `codecs` registration's incremental encoder: `encode(text, final=False)`; `reset()`.
/// Same targets and errors as `encode`; strict-mode error positions are indices in the
/// `text` of the call.
#[pyclass(module = "simdenc")]
struct StreamEncoder {
    target: Target,
    encoder: Option<Encoder>,
    html: bool,
}

#[pymethods]
impl StreamEncoder {
    #[new]
    #[pyo3(signature = (label, errors = "html"))]
    fn new(label: &str, errors: &str) -> PyResult<StreamEncoder> {
        let target = Target::of(encoding_for(label)?);
        let html = parse_encode_errors(errors)?;
        let encoder = match target {
            Target::Encode(encoding) => Some(encoding.new_encoder()),
            Target::Utf16 { .. } => None,
        };
        Ok(StreamEncoder {
            target,
            encoder,
            html,
        })
    }

    /// The name of the encoding written (lowercased).
    #[getter]
    fn encoding(&self) -> String {
        self.target.name()
    }

    /// The bytes of `text`; with `final`, the end of the stream (ISO-2022-JP returns to ASCII).
    #[pyo3(signature = (text, r#final = false), text_signature = "($self, text, final=False)")]
    fn encode<'py>(
        &mut self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        r#final: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let rust = text_of(text)?;
        let (target, html) = (self.target, self.html);
        let encoder = self.encoder.as_mut();
        let result = maybe_detach(py, rust.text.len(), || {
            encode_text(target, encoder, &rust, html, r#final)
        });
        if r#final {
            self.reset();
        }
        match result {
            Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
            Err(bad) => {
                self.reset();
                Err(encode_error(py, &self.target.name(), text, bad))
            }
        }
    }

    /// Forgets the state: the next call starts a new stream.
    fn reset(&mut self) {
        if let Target::Encode(encoding) = self.target {
            self.encoder = Some(encoding.new_encoder());
        }
    }
}

/// The native part of the `simdenc` package: see the package's documentation.
#[pymodule]
fn _simdenc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(lookup, m)?)?;
    m.add_function(wrap_pyfunction!(encodings, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_decode_batch, m)?)?;
    m.add_function(wrap_pyfunction!(auto::_detect, m)?)?;
    m.add_function(wrap_pyfunction!(auto::charset_from_content_type, m)?)?;
    m.add_class::<TextDecoder>()?;
    m.add_class::<TextEncoder>()?;
    m.add_class::<StreamEncoder>()?;
    Ok(())
}

/// A small deterministic generator (xorshift64*) for the unit tests, to need no dependency.
#[cfg(test)]
pub(crate) struct Rng(pub(crate) u64);

#[cfg(test)]
impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use simdenc::text::{TextDecoder, TextDecoderOptions};

    /// `StreamState` keeps error positions that `simdenc::text::TextDecoder` does not give,
    /// so it is its own code: it must behave as that one (the standard's `TextDecoder`) call
    /// for call, streaming or not, fatal or not, with and without BOMs, through errors and
    /// the queue they leave.
    #[test]
    fn stream_state_is_the_standards_text_decoder() {
        let samples = [
            "h\u{e9}llo, \u{65e5}\u{672c}\u{8a9e} \u{d55c}\u{ad6d}\u{c5b4} \u{4e2d}\u{6587} \u{20ac}5 \u{1f600}",
            "\u{feff}abc",
            "plain",
        ];
        let labels = [
            "utf-8",
            "utf-16le",
            "utf-16be",
            "shift_jis",
            "euc-jp",
            "iso-2022-jp",
            "euc-kr",
            "gbk",
            "gb18030",
            "big5",
            "windows-1252",
            "x-user-defined",
        ];
        let mut rng = Rng(0x5eed_1234_5678_9abc);
        for label in labels {
            let encoding = Encoding::for_label(label.as_bytes()).unwrap();
            for round in 0..400 {
                let mut input = Vec::new();
                for _ in 0..rng.below(4) + 1 {
                    let sample = samples[rng.below(samples.len())];
                    match (encoding, rng.below(3)) {
                        (e, 0) if e == simdenc::UTF_16LE => {
                            input.extend(sample.encode_utf16().flat_map(u16::to_le_bytes))
                        }
                        (e, 0) if e == simdenc::UTF_16BE => {
                            input.extend(sample.encode_utf16().flat_map(u16::to_be_bytes))
                        }
                        (_, 0 | 1) => input.extend_from_slice(&encoding.encode(sample).0),
                        _ => input.extend((0..rng.below(6)).map(|_| rng.next() as u8)),
                    }
                }
                let (fatal, ignore_bom) = (round % 2 == 0, round % 3 == 0);
                let options = TextDecoderOptions { fatal, ignore_bom };
                let mut reference = TextDecoder::with_options(label, options).unwrap();
                let mut ours = StreamState::new(encoding, fatal, ignore_bom);
                let mut at = 0;
                loop {
                    let end = (at + rng.below(8)).min(input.len());
                    let stream = rng.below(5) != 0;
                    let want = reference.decode(&input[at..end], stream).ok();
                    let got = ours
                        .decode(&input[at..end], stream)
                        .ok()
                        .map(String::from_utf16_lossy);
                    assert_eq!(got, want, "{label} {input:02x?} at {at}..{end} stream {stream}");
                    at = end;
                    if at == input.len() && rng.below(2) == 0 {
                        break;
                    }
                }
            }
        }
    }
}
