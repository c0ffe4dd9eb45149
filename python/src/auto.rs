//! Knowing the encoding: `detect`, `decode_batch(..., encodings="auto")` and
//! `charset_from_content_type`, each one call into `simdenc::sniff` (the HTML Standard's
//! "determining the character encoding", with `simdenc::detect`'s guess as its step 8) or
//! `simdenc::http`.

use pyo3::exceptions::{PyLookupError, PyTypeError};
use pyo3::prelude::*;
use simdenc::Encoding;
use simdenc::sniff::{self, Markup, Options, Sniffed};

use crate::input_bytes;

/// How the rows of `decode_batch(..., "auto")` or the input of `detect` are sniffed (the
/// transport-layer label aside, which is per row).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Auto {
    /// `None`: by the content (`markup_of`).
    pub(crate) markup: Option<Markup>,
    pub(crate) guess: bool,
    pub(crate) default: &'static Encoding,
}

impl Auto {
    /// From the Python arguments: `html` (None, True or False), `guess`, `default` (a label,
    /// or None for the HTML Standard's windows-1252).
    pub(crate) fn new(html: Option<bool>, guess: bool, default: Option<&str>) -> PyResult<Auto> {
        let default = match default {
            None => simdenc::WINDOWS_1252,
            Some(label) => Encoding::for_label(label.as_bytes())
                .ok_or_else(|| PyLookupError::new_err(format!("unknown encoding: {label}")))?,
        };
        Ok(Auto {
            markup: html.map(|html| if html { Markup::Html } else { Markup::Text }),
            guess,
            default,
        })
    }

    /// "Determining the character encoding" of `data`, with `transport` as the transport
    /// layer's encoding.
    pub(crate) fn sniff(&self, data: &[u8], transport: Option<&'static Encoding>) -> Sniffed {
        let mut options = Options::new(self.markup.unwrap_or_else(|| markup_of(data)))
            .with_guess(self.guess)
            .with_default(self.default);
        options.transport = transport;
        sniff::determine(data, &options)
    }
}

/// HTML when the content starts (after a byte order mark and ASCII whitespace) with
/// `<!doctype html`, `<html`, `<head`, `<meta`, `<body`, `<title`, `<!--` or `<?xml`, ASCII
/// case-insensitively; else plain text (the rule of the command line's `detect` for inputs
/// without an extension).
pub(crate) fn markup_of(data: &[u8]) -> Markup {
    const STARTS: [&[u8]; 8] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<meta",
        b"<body",
        b"<title",
        b"<!--",
        b"<?xml",
    ];
    let data = Encoding::for_bom(data).map_or(data, |(_, len)| &data[len..]);
    let start = data
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(data.len());
    let head = &data[start..];
    let html = STARTS
        .iter()
        .any(|s| head.len() >= s.len() && head[..s.len()].eq_ignore_ascii_case(s));
    if html { Markup::Html } else { Markup::Text }
}

/// A transport-layer label: the encoding, or None for None and for a label the standard does
/// not know (the HTML Standard ignores those).
pub(crate) fn transport_of(label: Option<&str>) -> Option<&'static Encoding> {
    label.and_then(|label| Encoding::for_label(label.as_bytes()))
}

/// The native part of `simdenc.detect`: (encoding name, source, confidence).
#[pyfunction]
#[pyo3(signature = (data, http_charset = None, html = None, default = None, guess = true))]
pub(crate) fn _detect(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    http_charset: Option<&str>,
    html: Option<bool>,
    default: Option<&str>,
    guess: bool,
) -> PyResult<(&'static str, &'static str, f32)> {
    let auto = Auto::new(html, guess, default)?;
    let bytes = input_bytes(data)?;
    let input = bytes.as_bytes();
    let transport = transport_of(http_charset);
    let found = crate::maybe_detach(py, input.len(), || auto.sniff(input, transport));
    Ok((found.encoding.name(), found.source.as_str(), found.confidence))
}

/// The encoding the `charset` parameter of a `Content-Type` header value names, parsed as the
/// MIME Sniffing Standard parses a MIME type (`simdenc::http`), as the standard's name; None if
/// the value is not a MIME type, has no charset, or names no encoding of the standard.
#[pyfunction]
pub(crate) fn charset_from_content_type(value: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
    let bytes: Vec<u8> = if let Ok(text) = value.extract::<String>() {
        text.into_bytes()
    } else if let Ok(bytes) = value.extract::<Vec<u8>>() {
        bytes
    } else {
        return Err(PyTypeError::new_err("a Content-Type value must be str or bytes"));
    };
    Ok(simdenc::http::charset_from_content_type(&bytes).map(|e| e.name()))
}
