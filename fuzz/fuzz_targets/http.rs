//! `simdenc::http` against a literal transliteration of the standards it implements, written
//! here with strings and none of the crate's parsing: MIME Sniffing's "parse a MIME type"
//! (the whole parameter map), Fetch's "getting, decoding, and splitting" and "extract a MIME
//! type", and the Encoding Standard's "get an encoding" (`simdenc::spec`).
//!
//! Input: header values separated by 0xFF (a byte no header value holds here, so that the
//! values stay short and structured); each value is checked alone, and the list as a header
//! list (several `Content-Type` headers) and joined into one value with `", "`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdenc::http::{ContentType, charset_from_content_type, charset_from_content_types};
use simdenc::spec;

/// A parsed MIME type: lowercase type and subtype, parameters in insertion order.
#[derive(Debug, Clone)]
struct Mime {
    kind: String,
    subtype: String,
    params: Vec<(String, String)>,
}

impl Mime {
    fn essence(&self) -> String {
        format!("{}/{}", self.kind, self.subtype)
    }
    fn get(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn http_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' ')
}

fn token(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

fn quoted_string_token(c: char) -> bool {
    c == '\t' || ('\u{20}'..='\u{7E}').contains(&c) || ('\u{80}'..='\u{FF}').contains(&c)
}

/// "Collect an HTTP quoted string" from `input` at `pos` (a `"`).
fn collect_quoted(input: &[char], pos: &mut usize, extract_value: bool) -> String {
    let start = *pos;
    let mut value = String::new();
    assert_eq!(input[*pos], '"');
    *pos += 1;
    loop {
        while *pos < input.len() && input[*pos] != '"' && input[*pos] != '\\' {
            value.push(input[*pos]);
            *pos += 1;
        }
        if *pos >= input.len() {
            break;
        }
        let quote_or_backslash = input[*pos];
        *pos += 1;
        if quote_or_backslash == '\\' {
            if *pos >= input.len() {
                value.push('\\');
                break;
            }
            value.push(input[*pos]);
            *pos += 1;
        } else {
            break;
        }
    }
    if extract_value {
        value
    } else {
        input[start..*pos].iter().collect()
    }
}

/// MIME Sniffing's "parse a MIME type", step by step.
fn parse_mime(input: &str) -> Option<Mime> {
    // 1. Remove leading and trailing HTTP whitespace.
    let input: Vec<char> = input.trim_matches(http_whitespace).chars().collect();
    let mut pos = 0;
    // 3-5. type.
    let start = pos;
    while pos < input.len() && input[pos] != '/' {
        pos += 1;
    }
    let kind: String = input[start..pos].iter().collect();
    if kind.is_empty() || !kind.chars().all(token) || pos >= input.len() {
        return None;
    }
    // 6. Skip the '/'.
    pos += 1;
    // 7-9. subtype, trailing whitespace removed.
    let start = pos;
    while pos < input.len() && input[pos] != ';' {
        pos += 1;
    }
    let subtype: String = input[start..pos]
        .iter()
        .collect::<String>()
        .trim_end_matches(http_whitespace)
        .to_owned();
    if subtype.is_empty() || !subtype.chars().all(token) {
        return None;
    }
    let mut mime = Mime {
        kind: kind.to_ascii_lowercase(),
        subtype: subtype.to_ascii_lowercase(),
        params: Vec::new(),
    };
    // 11. Parameters.
    while pos < input.len() {
        // 11.1 Skip ';'. 11.2 Skip whitespace.
        pos += 1;
        while pos < input.len() && http_whitespace(input[pos]) {
            pos += 1;
        }
        // 11.3-11.4 Name.
        let start = pos;
        while pos < input.len() && input[pos] != ';' && input[pos] != '=' {
            pos += 1;
        }
        let name = input[start..pos].iter().collect::<String>().to_ascii_lowercase();
        // 11.5
        if pos < input.len() {
            if input[pos] == ';' {
                continue;
            }
            pos += 1;
        }
        // 11.6
        if pos >= input.len() {
            break;
        }
        // 11.7-11.8 Value.
        let value = if input[pos] == '"' {
            let value = collect_quoted(&input, &mut pos, true);
            while pos < input.len() && input[pos] != ';' {
                pos += 1;
            }
            value
        } else {
            let start = pos;
            while pos < input.len() && input[pos] != ';' {
                pos += 1;
            }
            let value = input[start..pos]
                .iter()
                .collect::<String>()
                .trim_end_matches(http_whitespace)
                .to_owned();
            if value.is_empty() {
                continue;
            }
            value
        };
        // 11.9
        if !name.is_empty()
            && name.chars().all(token)
            && value.chars().all(quoted_string_token)
            && mime.get(&name).is_none()
        {
            mime.params.push((name, value));
        }
    }
    Some(mime)
}

/// Fetch's "getting, decoding, and splitting" of one (combined) value.
fn get_decode_split(value: &str) -> Vec<String> {
    let input: Vec<char> = value.chars().collect();
    let mut pos = 0;
    let mut values = Vec::new();
    let mut temporary = String::new();
    loop {
        while pos < input.len() && input[pos] != '"' && input[pos] != ',' {
            temporary.push(input[pos]);
            pos += 1;
        }
        if pos < input.len() && input[pos] == '"' {
            temporary.push_str(&collect_quoted(&input, &mut pos, false));
            if pos < input.len() {
                continue;
            }
        }
        values.push(temporary.trim_matches(|c| c == '\t' || c == ' ').to_owned());
        temporary.clear();
        if pos >= input.len() {
            return values;
        }
        assert_eq!(input[pos], ',');
        pos += 1;
    }
}

/// Fetch's "extract a MIME type" over header values (bytes, isomorphic-decoded).
fn extract(values: &[&[u8]]) -> Option<Mime> {
    if values.is_empty() {
        return None;
    }
    let combined: String = values
        .iter()
        .map(|v| v.iter().map(|&b| char::from(b)).collect::<String>())
        .collect::<Vec<_>>()
        .join(", ");
    let mut charset: Option<String> = None;
    let mut essence: Option<String> = None;
    let mut mime_type: Option<Mime> = None;
    for value in get_decode_split(&combined) {
        let Some(mut temporary) = parse_mime(&value) else {
            continue;
        };
        if temporary.essence() == "*/*" {
            continue;
        }
        if Some(temporary.essence()) != essence {
            charset = temporary.get("charset").map(str::to_owned);
            essence = Some(temporary.essence());
        } else if temporary.get("charset").is_none()
            && let Some(charset) = &charset
        {
            temporary.params.push(("charset".into(), charset.clone()));
        }
        mime_type = Some(temporary);
    }
    mime_type
}

fn same(got: Option<ContentType>, want: Option<&Mime>, what: &str) {
    let got = got.map(|ct| (ct.essence().to_owned(), ct.charset().map(str::to_owned)));
    let want = want.map(|m| (m.essence(), m.get("charset").map(str::to_owned)));
    assert_eq!(got, want, "{what}");
}

fn encoding_of(mime: Option<&Mime>) -> Option<&'static simdenc::Encoding> {
    spec::get_an_encoding(mime?.get("charset")?)
}

fuzz_target!(|data: &[u8]| {
    let values: Vec<&[u8]> = data.split(|&b| b == 0xFF).take(16).collect();
    for &value in &values {
        let latin1: String = value.iter().map(|&b| char::from(b)).collect();
        let want = parse_mime(&latin1);
        same(ContentType::parse(value), want.as_ref(), "parse");
        assert_eq!(
            charset_from_content_type(value),
            encoding_of(want.as_ref()),
            "charset_from_content_type({latin1:?})"
        );
    }
    let want = extract(&values);
    same(
        ContentType::extract(values.iter().copied()),
        want.as_ref(),
        "extract",
    );
    assert_eq!(
        charset_from_content_types(values.iter().copied()),
        encoding_of(want.as_ref())
    );
    let joined = values.join(&b", "[..]);
    same(
        ContentType::extract([&joined[..]]),
        want.as_ref(),
        "extract of the joined value",
    );
});
