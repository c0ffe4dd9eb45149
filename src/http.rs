//! The encoding of an HTTP body: the `charset` parameter of a `Content-Type` value
//! ([`charset_from_content_type`]) and the standard's "decode" with it as the fallback
//! ([`decode_body`]).
//!
//! The `Content-Type` value is parsed as the WHATWG MIME Sniffing Standard's "parse a MIME
//! type" does (from bytes: each byte is the code point of the same value): HTTP whitespace
//! (tab, LF, CR, space) trimmed, a `type/subtype` of HTTP token code points, then parameters
//! separated by `;`, names compared ASCII case-insensitively, values either tokens up to the
//! next `;` (trailing whitespace removed) or quoted strings with backslash escapes (anything
//! after the closing quote up to the next `;` ignored). A parameter whose name is not a
//! token or whose value holds code points outside the quoted-string token set (controls other
//! than tab, DEL) is dropped, and the first `charset` that is kept wins, even if it names no
//! encoding. Its value then goes through the Encoding Standard's "get an encoding"
//! ([`Encoding::for_label`]).
//!
//! A header list's several `Content-Type` values (several headers, or values separated by
//! commas) are combined as Fetch's "extract a MIME type" does by [`ContentType::extract`] and
//! [`charset_from_content_types`], and, with the `http` feature, from an
//! `http::HeaderMap` by [`content_type`] and [`decode_with_headers`].
//! The HTML Standard's own rules (`<meta charset>`, UTF-16 labels meaning UTF-8 in documents)
//! are the caller's.
//!
//! [`charset_from_content_type`] neither allocates nor depends on anything; the rest needs the
//! `alloc` feature (and `http` the `http` crate).

use crate::Encoding;
#[cfg(feature = "alloc")]
use crate::UTF_8;
#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, string::String};

/// HTTP whitespace: tab, LF, CR, space.
fn is_http_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r' | b' ')
}

/// HTTP token code points.
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// HTTP quoted-string token code points: tab, U+0020 to U+007E, U+0080 to U+00FF.
fn is_quoted_string_token(b: u8) -> bool {
    b == b'\t' || (0x20..=0x7E).contains(&b) || b >= 0x80
}

fn trim_start(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_http_whitespace(*first) {
            break;
        }
        s = rest;
    }
    s
}

fn trim_end(mut s: &[u8]) -> &[u8] {
    while let [rest @ .., last] = s {
        if !is_http_whitespace(*last) {
            break;
        }
        s = rest;
    }
    s
}

/// Where the first of `stops` is in `s`, or its length.
fn find(s: &[u8], stops: &[u8]) -> usize {
    s.iter().position(|b| stops.contains(b)).unwrap_or(s.len())
}

/// A parameter value: the bytes of a token value, or a quoted string from its opening
/// quote, still escaped.
#[derive(Clone, Copy)]
enum Value<'a> {
    Token(&'a [u8]),
    Quoted(&'a [u8]),
}

impl Value<'_> {
    /// The value's code points, unescaped.
    fn bytes(self) -> impl Iterator<Item = u8> {
        let (quoted, s) = match self {
            Value::Token(s) => (false, s),
            Value::Quoted(s) => (true, &s[1..]),
        };
        let mut i = 0;
        core::iter::from_fn(move || {
            let b = *s.get(i)?;
            i += 1;
            if !quoted {
                return Some(b);
            }
            match b {
                b'"' => None,
                b'\\' => match s.get(i) {
                    Some(&escaped) => {
                        i += 1;
                        Some(escaped)
                    }
                    // A backslash at the end stands for itself.
                    None => Some(b'\\'),
                },
                _ => Some(b),
            }
        })
    }
}

/// The length of the quoted string at the start of `s` (which starts with `"`): up to and
/// including its closing quote, or all of `s` if it is not closed.
fn quoted_len(s: &[u8]) -> usize {
    let mut i = 1;
    while i < s.len() {
        match s[i] {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    s.len()
}

/// "Get an encoding" for a parameter value, without allocating: the unescaped value, with
/// leading ASCII whitespace skipped, in a buffer longer than every label.
fn get_encoding(value: Value<'_>) -> Option<&'static Encoding> {
    let mut buf = [0u8; 64];
    let mut len = 0;
    for b in value.bytes().skip_while(u8::is_ascii_whitespace) {
        if len < buf.len() {
            buf[len] = b;
            len += 1;
        } else if !b.is_ascii_whitespace() {
            // Longer than any label once trimmed.
            return None;
        }
    }
    Encoding::for_label(&buf[..len])
}

/// A parsed MIME type, borrowing its input: the type and subtype (not yet lowercased) and the
/// first `charset` parameter that the parser keeps, still escaped.
struct Parsed<'a> {
    // Read by `ContentType` (the `alloc` feature).
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    kind: &'a [u8],
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    subtype: &'a [u8],
    charset: Option<Value<'a>>,
}

#[cfg(feature = "alloc")]
impl Parsed<'_> {
    /// Whether the essence is `*/*` (which Fetch's "extract a MIME type" skips).
    fn is_any(&self) -> bool {
        self.kind == b"*" && self.subtype == b"*"
    }
}

/// The MIME Sniffing Standard's "parse a MIME type", keeping of the parameters only the one
/// that matters here, `charset` (the first valid one).
fn parse(value: &[u8]) -> Option<Parsed<'_>> {
    let value = trim_end(trim_start(value));
    let slash = value.iter().position(|&b| b == b'/')?;
    let kind = &value[..slash];
    if kind.is_empty() || !kind.iter().all(|&b| is_token(b)) {
        return None;
    }
    let rest = &value[slash + 1..];
    let semicolon = find(rest, b";");
    let subtype = trim_end(&rest[..semicolon]);
    if subtype.is_empty() || !subtype.iter().all(|&b| is_token(b)) {
        return None;
    }
    let mut parsed = Parsed {
        kind,
        subtype,
        charset: None,
    };
    // At a `;` or the end.
    let mut input = &rest[semicolon..];
    while let [_, after @ ..] = input {
        input = trim_start(after);
        let name_end = find(input, b";=");
        let name = &input[..name_end];
        input = &input[name_end..];
        match input {
            [b';', ..] => continue,
            [] | [b'='] => break,
            _ => input = &input[1..],
        }
        let value = if input[0] == b'"' {
            let quoted = &input[..quoted_len(input)];
            input = &input[quoted.len()..];
            input = &input[find(input, b";")..];
            Value::Quoted(quoted)
        } else {
            let end = find(input, b";");
            let token = trim_end(&input[..end]);
            input = &input[end..];
            if token.is_empty() {
                continue;
            }
            Value::Token(token)
        };
        if name.is_empty() || !name.iter().all(|&b| is_token(b)) || !value.bytes().all(is_quoted_string_token)
        {
            continue;
        }
        if name.eq_ignore_ascii_case(b"charset") {
            // The first one kept wins; the other parameters do not matter here.
            parsed.charset = Some(value);
            break;
        }
    }
    Some(parsed)
}

/// The encoding named by the `charset` parameter of a `Content-Type` header value, parsed as
/// the MIME Sniffing Standard parses a MIME type (see the [module docs](self)). `None` if the
/// value is not a MIME type, has no `charset` parameter, or its first valid `charset` is not
/// a label of an encoding. For a response with several `Content-Type` headers (or values
/// separated by commas), [`charset_from_content_types`] or, with the `http` feature,
/// [`content_type`] do what Fetch does.
///
/// ```
/// use simdenc::http::charset_from_content_type;
/// assert_eq!(charset_from_content_type(b"text/html; charset=Shift_JIS"), Some(simdenc::SHIFT_JIS));
/// assert_eq!(charset_from_content_type(b"text/plain;charset=\"utf\\-8\""), Some(simdenc::UTF_8));
/// assert_eq!(charset_from_content_type(b"text/html; charset=latin1; charset=utf-8"), Some(simdenc::WINDOWS_1252));
/// assert_eq!(charset_from_content_type(b"text/html"), None);
/// assert_eq!(charset_from_content_type(b"charset=utf-8"), None); // not a MIME type
/// ```
pub fn charset_from_content_type(value: &[u8]) -> Option<&'static Encoding> {
    get_encoding(parse(value)?.charset?)
}

/// Fetch's "getting, decoding, and splitting" of a header value: the values separated by
/// commas outside quoted strings, each with tabs and spaces trimmed. Bytes stand for the code
/// points of the same value (isomorphic decoding), so nothing is decoded.
#[cfg(feature = "alloc")]
fn split_values(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(value);
    core::iter::from_fn(move || {
        let input = rest?;
        let mut i = 0;
        loop {
            i += find(&input[i..], b"\",");
            match input.get(i) {
                // "Collect an HTTP quoted string" (its value not extracted): through the
                // closing quote, or to the end.
                Some(b'"') => i += quoted_len(&input[i..]),
                Some(_) => {
                    rest = Some(&input[i + 1..]);
                    break;
                }
                None => {
                    rest = None;
                    break;
                }
            }
        }
        let trimmed = |b: &u8| !matches!(b, b'\t' | b' ');
        let item = &input[..i];
        let start = item.iter().position(trimmed).unwrap_or(item.len());
        let end = item.iter().rposition(trimmed).map_or(start, |e| e + 1);
        Some(&item[start..end])
    })
}

/// The `Content-Type` of a header list as Fetch's "extract a MIME type" takes it: the
/// essence (`type/subtype`, lowercase) and the value of its `charset` parameter. Only these
/// two are kept; the other parameters are dropped.
///
/// ```
/// use simdenc::http::ContentType;
/// let ct = ContentType::extract([&b"text/html; charset=gbk"[..], b"text/html"]).unwrap();
/// assert_eq!((ct.essence(), ct.charset(), ct.encoding()), ("text/html", Some("gbk"), Some(simdenc::GBK)));
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentType {
    essence: String,
    charset: Option<String>,
}

#[cfg(feature = "alloc")]
impl ContentType {
    /// Parses one `Content-Type` value as the MIME Sniffing Standard's "parse a MIME type"
    /// does (see the [module docs](self)); `None` if it is not a MIME type. Commas are not
    /// special here: see [`ContentType::extract`] for a header's value.
    ///
    /// ```
    /// use simdenc::http::ContentType;
    /// let ct = ContentType::parse(b"Text/HTML; Charset=\"Shift_JIS\"").unwrap();
    /// assert_eq!((ct.essence(), ct.charset()), ("text/html", Some("Shift_JIS")));
    /// assert_eq!(ContentType::parse(b"text/html, text/plain"), None);
    /// ```
    pub fn parse(value: &[u8]) -> Option<Self> {
        parse(value).map(|parsed| Self::from(&parsed))
    }

    /// Fetch's "extract a MIME type" over the values of a header list's `Content-Type`
    /// headers, in order: their values joined with `", "` (as "get" does), split at commas
    /// outside quoted strings, each parsed as a MIME type; failures and `*/*` skipped; the
    /// last one wins, with the `charset` of the last one before it of the same essence if it
    /// has none of its own. `None` if no value is a MIME type (or there is no value).
    ///
    /// ```
    /// use simdenc::http::ContentType;
    /// let essence_and_charset = |values: &[&str]| {
    ///     let ct = ContentType::extract(values.iter().map(|v| v.as_bytes()))?;
    ///     Some((ct.essence().to_owned(), ct.charset().map(str::to_owned)))
    /// };
    /// let pair = |e: &str, c: Option<&str>| Some((e.to_owned(), c.map(str::to_owned)));
    /// // Fetch's own examples.
    /// assert_eq!(essence_and_charset(&["text/plain;charset=gbk, text/html"]), pair("text/html", None));
    /// assert_eq!(essence_and_charset(&["text/html;charset=gbk;a=b, text/html;x=y"]), pair("text/html", Some("gbk")));
    /// assert_eq!(essence_and_charset(&["text/html;charset=gbk;a=b", "text/html;x=y"]), pair("text/html", Some("gbk")));
    /// assert_eq!(essence_and_charset(&["text/html;charset=gbk", "x/x", "text/html;x=y"]), pair("text/html", None));
    /// assert_eq!(essence_and_charset(&["text/html", "cannot-parse"]), pair("text/html", None));
    /// assert_eq!(essence_and_charset(&["text/html", "*/*"]), pair("text/html", None));
    /// assert_eq!(essence_and_charset(&["text/html", ""]), pair("text/html", None));
    /// assert_eq!(essence_and_charset(&[]), None);
    /// ```
    pub fn extract<'a, I>(values: I) -> Option<Self>
    where
        I: IntoIterator<Item = &'a [u8]>,
    {
        let mut values = values.into_iter();
        let first = values.next()?;
        // "Get": the values combined with ", ", which only one header does not need.
        let joined;
        let combined = match values.next() {
            None => first,
            Some(second) => {
                let mut all = first.to_vec();
                for value in core::iter::once(second).chain(values) {
                    all.extend_from_slice(b", ");
                    all.extend_from_slice(value);
                }
                joined = all;
                &joined[..]
            }
        };
        // 1-3. charset, essence and mimeType are null.
        let mut charset: Option<Value<'_>> = None;
        let mut essence: Option<(&[u8], &[u8])> = None;
        let mut mime_type: Option<Parsed<'_>> = None;
        // 4-6. For each value of the split header value:
        for value in split_values(combined) {
            // 6.1-6.2. Parse it; skip failures and */*.
            let Some(mut parsed) = parse(value).filter(|p| !p.is_any()) else {
                continue;
            };
            let same_essence = essence.is_some_and(|(kind, subtype)| {
                kind.eq_ignore_ascii_case(parsed.kind) && subtype.eq_ignore_ascii_case(parsed.subtype)
            });
            if !same_essence {
                // 6.4. A new essence: its own charset, if any.
                charset = parsed.charset;
                essence = Some((parsed.kind, parsed.subtype));
            } else if parsed.charset.is_none() {
                // 6.5. The same essence without a charset: the one before carries over.
                parsed.charset = charset;
            }
            // 6.3. (A step that only sets mimeType; done last here, where the borrow ends.)
            mime_type = Some(parsed);
        }
        // 7-8.
        mime_type.map(|parsed| Self::from(&parsed))
    }

    /// The essence: `type/subtype`, ASCII lowercase.
    pub fn essence(&self) -> &str {
        &self.essence
    }

    /// The value of the `charset` parameter, unescaped if it was quoted, its bytes above 0x7F
    /// taken as the code points of the same value (isomorphic decoding).
    pub fn charset(&self) -> Option<&str> {
        self.charset.as_deref()
    }

    /// The encoding the `charset` parameter names (the Encoding Standard's "get an encoding";
    /// Fetch's "legacy extract an encoding" without its fallback): `None` without a `charset`
    /// or if it is not a label.
    pub fn encoding(&self) -> Option<&'static Encoding> {
        Encoding::for_label(self.charset()?.as_bytes())
    }
}

#[cfg(feature = "alloc")]
impl From<&Parsed<'_>> for ContentType {
    fn from(parsed: &Parsed<'_>) -> Self {
        let mut essence = String::with_capacity(parsed.kind.len() + 1 + parsed.subtype.len());
        for &b in parsed.kind.iter().chain(b"/").chain(parsed.subtype) {
            // Token code points: ASCII.
            essence.push(char::from(b.to_ascii_lowercase()));
        }
        let charset = parsed
            .charset
            .map(|value| value.bytes().map(char::from).collect());
        Self { essence, charset }
    }
}

/// The encoding Fetch's "legacy extract an encoding" finds in the `Content-Type` values of a
/// header list ([`ContentType::extract`], then "get an encoding" of its `charset`), `None`
/// where Fetch would return the fallback encoding.
///
/// ```
/// use simdenc::http::charset_from_content_types;
/// let values = [&b"text/html; charset=windows-1251"[..], b"text/html"];
/// assert_eq!(charset_from_content_types(values), Some(simdenc::WINDOWS_1251));
/// let values = [&b"text/html; charset=windows-1251"[..], b"text/plain"];
/// assert_eq!(charset_from_content_types(values), None);
/// ```
#[cfg(feature = "alloc")]
pub fn charset_from_content_types<'a, I>(values: I) -> Option<&'static Encoding>
where
    I: IntoIterator<Item = &'a [u8]>,
{
    ContentType::extract(values)?.encoding()
}

/// The `Content-Type` of an [`http::HeaderMap`] (every `Content-Type`
/// header, in order), as Fetch's "extract a MIME type" takes it ([`ContentType::extract`]).
///
/// ```
/// use http::header::{CONTENT_TYPE, HeaderMap, HeaderValue};
/// let mut headers = HeaderMap::new();
/// headers.append(CONTENT_TYPE, HeaderValue::from_static("text/html; charset=EUC-KR"));
/// headers.append(CONTENT_TYPE, HeaderValue::from_static("text/html"));
/// let ct = simdenc::http::content_type(&headers).unwrap();
/// assert_eq!((ct.essence(), ct.encoding()), ("text/html", Some(simdenc::EUC_KR)));
/// ```
#[cfg(feature = "http")]
pub fn content_type(headers: &::http::HeaderMap) -> Option<ContentType> {
    ContentType::extract(
        headers
            .get_all(::http::header::CONTENT_TYPE)
            .iter()
            .map(::http::HeaderValue::as_bytes),
    )
}

/// [`decode_body`] with the `Content-Type` headers of an [`http::HeaderMap`]
/// (Fetch's "extract a MIME type" over all of them, [`content_type`]): a byte order mark
/// first, then their `charset`, then UTF-8.
///
/// ```
/// use http::{Response, header::CONTENT_TYPE};
/// let response = Response::builder()
///     .header(CONTENT_TYPE, "text/plain; charset=Shift_JIS")
///     .body(b"\x93\xfa\x96\x7b".to_vec())
///     .unwrap();
/// let (text, encoding) = simdenc::http::decode_with_headers(response.body(), response.headers());
/// assert_eq!((&*text, encoding), ("日本", simdenc::SHIFT_JIS));
/// ```
#[cfg(feature = "http")]
pub fn decode_with_headers<'a>(
    body: &'a [u8],
    headers: &::http::HeaderMap,
) -> (Cow<'a, str>, &'static Encoding) {
    let fallback = content_type(headers)
        .and_then(|ct| ct.encoding())
        .unwrap_or(UTF_8);
    let (text, encoding, _) = fallback.decode(body);
    (text, encoding)
}

/// Decodes an HTTP body as the Encoding Standard's "decode" does, with the encoding of the
/// `Content-Type` value's `charset` as the fallback: a byte order mark first (UTF-8,
/// UTF-16BE, UTF-16LE; removed), then the `charset` ([`charset_from_content_type`]), and
/// UTF-8 when there is no `Content-Type`, no `charset`, or one that names no encoding.
/// Malformed input becomes U+FFFD. Returns the text and the encoding used.
///
/// UTF-8 is this function's default, not a standard's: HTML's is locale-dependent
/// (windows-1252 in most locales); pass a `Content-Type` with the charset you want as the
/// default, or call [`Encoding::decode`] yourself.
///
/// ```
/// use simdenc::http::decode_body;
/// let (text, encoding) = decode_body(b"caf\xE9", Some(b"text/plain; charset=iso-8859-1"));
/// assert_eq!((&*text, encoding), ("café", simdenc::WINDOWS_1252));
/// let (text, encoding) = decode_body(b"\xFF\xFEh\0i\0", Some(b"text/plain; charset=iso-8859-1"));
/// assert_eq!((&*text, encoding), ("hi", simdenc::UTF_16LE));
/// let (text, encoding) = decode_body(b"caf\xC3\xA9", None);
/// assert_eq!((&*text, encoding), ("café", simdenc::UTF_8));
/// ```
#[cfg(feature = "alloc")]
pub fn decode_body<'a>(body: &'a [u8], content_type: Option<&[u8]>) -> (Cow<'a, str>, &'static Encoding) {
    let fallback = content_type.and_then(charset_from_content_type).unwrap_or(UTF_8);
    let (text, encoding, _) = fallback.decode(body);
    (text, encoding)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ISO_8859_2, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

    fn charset(value: &str) -> Option<&'static str> {
        charset_from_content_type(value.as_bytes()).map(Encoding::name)
    }

    #[test]
    fn parameters() {
        let cases: &[(&str, Option<&str>)] = &[
            ("text/html;charset=utf-8", Some("UTF-8")),
            ("TEXT/HTML; CHARSET=SHIFT_JIS", Some("Shift_JIS")),
            (" \t text/html ;  charset=latin2 \r\n", Some("ISO-8859-2")),
            ("text/html; charset = utf-8", None), // the name is "charset " (not a token)
            ("text/html; charset= utf-8", Some("UTF-8")), // the value " utf-8": a label once trimmed
            ("text/html; charset=\"utf-8\"", Some("UTF-8")),
            ("text/html; charset=\"utf-8\" trailing junk", Some("UTF-8")),
            ("text/html; charset=\"ut\\f-8\"", Some("UTF-8")),
            ("text/html; charset=\"   utf-8   \"", Some("UTF-8")),
            ("text/html; charset=\"utf-8", Some("UTF-8")), // unterminated
            ("text/html; charset=\"utf-8\\", None),        // "utf-8\"
            ("text/html; charset=\"utf-8;foo\"; x=y", None),
            ("text/html; a=\"b;charset=utf-8\"", None),
            ("text/html; charset=\"\"; charset=utf-8", None), // "" is kept and wins
            ("text/html; charset=; charset=utf-8", Some("UTF-8")), // empty token: dropped
            ("text/html; charset=gbk; charset=utf-8", Some("GBK")),
            ("text/html; charset=bogus; charset=utf-8", None),
            ("text/html; charset=\"\u{1}\"; charset=utf-8", Some("UTF-8")), // invalid value dropped
            ("text/html; charset=utf-8\u{7F}; charset=gbk", Some("GBK")),
            ("text/html; ch@rset=x; charset=koi8-r", Some("KOI8-R")),
            ("text/html;;;charset=euc-kr", Some("EUC-KR")),
            ("text/html; foo; charset=euc-jp", Some("EUC-JP")),
            ("text/html; charset", None),
            ("text/html; charset=", None),
            ("text/html; charset=utf-16", Some("UTF-16LE")),
            ("text/html; charset=iso-2022-kr", Some("replacement")),
            ("text/html; charset=utf-8 x", None), // the label "utf-8 x"
            ("text/html; charset=\"utf-8\"x", Some("UTF-8")),
            // Not MIME types.
            ("text/html charset=utf-8", None),
            ("text; charset=utf-8", None),
            ("/html; charset=utf-8", None),
            ("text/; charset=utf-8", None),
            ("te xt/html; charset=utf-8", None),
            ("text/ht ml; charset=utf-8", None),
            ("text/html\u{1}; charset=utf-8", None),
            ("text(/html; charset=utf-8", None),
            ("", None),
            ("text/html", None),
        ];
        for &(value, expected) in cases {
            assert_eq!(charset(value), expected, "{value:?}");
        }
        // Bytes above 0x7F are quoted-string token code points: kept, and not a label.
        assert_eq!(
            charset_from_content_type(b"text/html; charset=\xE9; charset=utf-8"),
            None
        );
        // A long value, trimmed.
        let long = format!(
            "text/html; charset=\"{}utf-8{}\"",
            " ".repeat(100),
            " ".repeat(100)
        );
        assert_eq!(charset(&long), Some("UTF-8"));
        let long = format!("text/html; charset=\"utf-8{}x\"", " ".repeat(100));
        assert_eq!(charset(&long), None);
    }

    #[test]
    fn every_label_fits_and_resolves() {
        for &encoding in Encoding::all() {
            let value = format!("text/plain; charset=\"{}\"", encoding.name().to_ascii_uppercase());
            assert_eq!(charset_from_content_type(value.as_bytes()), Some(encoding));
        }
        for label in ["csisolatin1", "x-mac-cyrillic", "iso_8859-15", "csisolatinhebrew"] {
            assert!(charset(&format!("a/b;charset={label}")).is_some(), "{label}");
        }
    }

    #[test]
    fn decode_body_bom_then_charset_then_utf8() {
        assert_eq!(
            decode_body(b"\xE9", Some(b"text/plain; charset=latin2")),
            ("é".into(), ISO_8859_2)
        );
        assert_eq!(
            decode_body(b"\xEF\xBB\xBFa", Some(b"text/plain; charset=latin2")),
            ("a".into(), UTF_8)
        );
        assert_eq!(
            decode_body(b"\xFE\xFF\0a", Some(b"text/plain; charset=sjis")),
            ("a".into(), UTF_16BE)
        );
        assert_eq!(decode_body(b"\xFF\xFEa\0", None), ("a".into(), UTF_16LE));
        assert_eq!(
            decode_body(b"\x93\xfa", Some(b"text/plain;charset=\"sjis\"")),
            ("日".into(), SHIFT_JIS)
        );
        assert_eq!(
            decode_body(b"\xE9", Some(b"text/plain; charset=bogus")),
            ("\u{FFFD}".into(), UTF_8)
        );
        assert_eq!(
            decode_body(b"\xE9", Some(b"not a mime type")),
            ("\u{FFFD}".into(), UTF_8)
        );
        assert_eq!(
            decode_body(b"\x80", Some(b"a/b;charset=cp1252")),
            ("€".into(), WINDOWS_1252)
        );
        assert_eq!(decode_body(b"", None), ("".into(), UTF_8));
    }

    #[test]
    fn split_values_as_fetch_does() {
        fn split(value: &[u8]) -> Vec<&[u8]> {
            split_values(value).collect()
        }
        let cases: &[(&[u8], &[&[u8]])] = &[
            (b"", &[b""]),
            (b"a", &[b"a"]),
            (b" \ta\t ", &[b"a"]),
            (b"\r\na\n", &[b"\r\na\n"]), // only tabs and spaces are trimmed
            (b"a,b", &[b"a", b"b"]),
            (b"a,,b,", &[b"a", b"", b"b", b""]),
            (b"a, \"b,c\" , d", &[b"a", b"\"b,c\"", b"d"]),
            (b"x=\"b\\\",c\", d", &[b"x=\"b\\\",c\"", b"d"]),
            (b"x=\"b\\", &[b"x=\"b\\"]),
            (b"x=\"unterminated, y", &[b"x=\"unterminated, y"]),
            (b"x=\"a\"b,c", &[b"x=\"a\"b", b"c"]),
        ];
        for &(value, expected) in cases {
            assert_eq!(split(value), expected, "{:?}", String::from_utf8_lossy(value));
        }
    }

    #[test]
    fn extract_as_fetch_does() {
        let extract = |values: &[&[u8]]| {
            ContentType::extract(values.iter().copied())
                .map(|ct| (ct.essence().to_owned(), ct.charset().map(str::to_owned)))
        };
        let some = |e: &str, c: Option<&str>| Some((e.to_owned(), c.map(str::to_owned)));
        type Essence = Option<(String, Option<String>)>;
        let cases: &[(&[&[u8]], Essence)] = &[
            (
                &[b"TEXT/HTML;charset=gbk", b"text/html"],
                some("text/html", Some("gbk")),
            ),
            (
                &[b"text/html;charset=gbk, text/html;charset=big5"],
                some("text/html", Some("big5")),
            ),
            (
                &[b"text/html;charset=\"gbk,x\""],
                some("text/html", Some("gbk,x")),
            ),
            (
                &[b"text/html;charset=\"a\\\"b\""],
                some("text/html", Some("a\"b")),
            ),
            (&[b"text/html;charset=\xE9"], some("text/html", Some("\u{E9}"))),
            (
                &[b"text/html;charset=gbk", b"*/*;charset=big5"],
                some("text/html", Some("gbk")),
            ),
            (
                &[b"text/html;charset=gbk", b"text/plain", b"text/html"],
                some("text/html", None),
            ),
            (
                &[b"text/html;charset=gbk", b"text/html;charset=bogus"],
                some("text/html", Some("bogus")),
            ),
            (
                &[b"text/html;charset=\"unterminated", b"text/plain"],
                some("text/html", Some("unterminated, text/plain")),
            ),
            (&[b"", b""], None),
            (&[b"*/*"], None),
            (&[b"nope", b"text/"], None),
        ];
        for (values, expected) in cases {
            assert_eq!(&extract(values), expected, "{values:?}");
        }
        assert_eq!(charset_from_content_types([&b"a/b;charset=bogus"[..]]), None);
        assert_eq!(charset_from_content_types([&b"a/b;charset=\"gbk,x\""[..]]), None);
        assert_eq!(
            charset_from_content_types([&b"a/b;charset=sjis"[..], b"A/B"]),
            Some(SHIFT_JIS)
        );
        assert_eq!(charset_from_content_types(core::iter::empty()), None);
    }

    /// Generated values over a small alphabet: one value without a comma or quote is what
    /// [`charset_from_content_type`] and [`ContentType::parse`] find, and joining values
    /// into one header with commas is the same as giving them as separate headers.
    #[test]
    fn one_value_and_many_agree() {
        const ALPHABET: &[u8] = b"tx/;= \t,\"\\csharetCHARSETgbk8\xE9*";
        // Deterministic xorshift, so that failures reproduce.
        let mut state = 0x5eed_cafe_u64;
        let mut rng = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut value = || -> Vec<u8> {
            let len = (rng() % 24) as usize;
            let mut v: Vec<u8> = match rng() % 3 {
                0 => b"text/html;charset=".to_vec(),
                1 => b"text/x;".to_vec(),
                _ => Vec::new(),
            };
            v.extend((0..len).map(|_| ALPHABET[(rng() % ALPHABET.len() as u64) as usize]));
            v
        };
        for _ in 0..20_000 {
            let a = value();
            let b = value();
            if !a.contains(&b',') && !a.contains(&b'"') {
                let parsed = ContentType::parse(&a);
                assert_eq!(
                    ContentType::extract([&a[..]]).filter(|ct| ct.essence() != "*/*"),
                    parsed.clone().filter(|ct| ct.essence() != "*/*"),
                    "{a:?}"
                );
                assert_eq!(
                    parsed.and_then(|ct| ct.encoding()),
                    charset_from_content_type(&a),
                    "{a:?}"
                );
            }
            let mut joined = a.clone();
            joined.extend_from_slice(b", ");
            joined.extend_from_slice(&b);
            assert_eq!(
                ContentType::extract([&a[..], &b[..]]),
                ContentType::extract([&joined[..]])
            );
        }
    }

    #[cfg(feature = "http")]
    #[test]
    fn header_maps() {
        use ::http::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderMap, HeaderValue};
        let mut headers = HeaderMap::new();
        assert_eq!(content_type(&headers), None);
        assert_eq!(decode_with_headers(b"\xE9", &headers), ("\u{FFFD}".into(), UTF_8));
        headers.insert(CONTENT_LENGTH, HeaderValue::from_static("1"));
        headers.append(
            CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=latin2"),
        );
        assert_eq!(decode_with_headers(b"\xE9", &headers), ("é".into(), ISO_8859_2));
        headers.append(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        assert_eq!(decode_with_headers(b"\xE9", &headers), ("é".into(), ISO_8859_2));
        assert_eq!(
            decode_with_headers(b"\xFF\xFEa\0", &headers),
            ("a".into(), UTF_16LE)
        );
        headers.append(
            CONTENT_TYPE,
            HeaderValue::from_bytes(b"text/html; charset=\"\xE9\"").unwrap(),
        );
        assert_eq!(content_type(&headers).unwrap().charset(), Some("\u{E9}"));
        assert_eq!(decode_with_headers(b"\xE9", &headers), ("\u{FFFD}".into(), UTF_8));
        headers.append(
            CONTENT_TYPE,
            HeaderValue::from_static("text/html, text/html;charset=windows-1252"),
        );
        assert_eq!(decode_with_headers(b"\x80", &headers), ("€".into(), WINDOWS_1252));
    }
}
