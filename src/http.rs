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
//! Only one header value is parsed: combining several `Content-Type` headers (Fetch's
//! "extract a MIME type") and the HTML Standard's own rules (`<meta charset>`, UTF-16 labels
//! meaning UTF-8 in documents) are the caller's.
//!
//! No dependency, no allocation except [`decode_body`]'s output (the `alloc` feature).

use crate::Encoding;
#[cfg(feature = "alloc")]
use crate::UTF_8;
#[cfg(feature = "alloc")]
use alloc::borrow::Cow;

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

/// The encoding named by the `charset` parameter of a `Content-Type` header value, parsed as
/// the MIME Sniffing Standard parses a MIME type (see the [module docs](self)). `None` if the
/// value is not a MIME type, has no `charset` parameter, or its first valid `charset` is not
/// a label of an encoding.
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
            return get_encoding(value);
        }
    }
    None
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
}
