//! "Get an encoding" (section "Names and labels"), over the labels of the vendored
//! `encodings.json`, which a small JSON reader here parses.
//!
//! <https://encoding.spec.whatwg.org/#names-and-labels>
//!
//! Independent of `crate::tables` and [`Encoding::for_label`](crate::Encoding::for_label) on
//! purpose. The JSON reader knows only what `encodings.json` uses (arrays, objects, strings
//! with escapes, whitespace) and panics on anything else.

use std::sync::OnceLock;

use crate::Encoding;

/// The vendored `encodings.json`.
const ENCODINGS_JSON: &str = include_str!("../../tables/whatwg/encodings.json");

/// "Get an encoding" from `label`: the encoding whose label is an ASCII case-insensitive
/// match for `label` with leading and trailing ASCII whitespace removed, or `None` (failure).
///
/// <https://encoding.spec.whatwg.org/#concept-encoding-get>
///
/// ```
/// use simdenc::spec::get_an_encoding;
/// assert_eq!(get_an_encoding(" \tLatin1\n"), Some(simdenc::WINDOWS_1252));
/// assert_eq!(get_an_encoding("\u{B}utf-8"), None); // U+000B is not ASCII whitespace
/// assert_eq!(get_an_encoding("\u{212A}oi8-r"), None); // KELVIN SIGN is not ASCII
/// ```
pub fn get_an_encoding(label: &str) -> Option<&'static Encoding> {
    // 1. Remove any leading and trailing ASCII whitespace from label.
    let label = label.trim_matches(is_ascii_whitespace);
    // 2. If label is an ASCII case-insensitive match for any of the labels listed in the table
    //    below, then return the corresponding encoding; otherwise return failure.
    table()
        .iter()
        .find(|(candidate, _)| candidate.eq_ignore_ascii_case(label))
        .map(|&(_, encoding)| encoding)
}

/// ASCII whitespace (Infra): U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, or U+0020 SPACE.
fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, '\u{0009}' | '\u{000A}' | '\u{000C}' | '\u{000D}' | '\u{0020}')
}

/// Every label of `encodings.json` with its encoding, in file order.
fn table() -> &'static [(String, &'static Encoding)] {
    static TABLE: OnceLock<Vec<(String, &'static Encoding)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let json = Json::parse(ENCODINGS_JSON);
        let mut table = Vec::new();
        for group in json.array() {
            for entry in group.field("encodings").array() {
                let name = entry.field("name").string();
                let encoding = Encoding::all()
                    .iter()
                    .copied()
                    .find(|encoding| encoding.name() == name)
                    .unwrap_or_else(|| panic!("encodings.json names an unknown encoding {name}"));
                for label in entry.field("labels").array() {
                    table.push((label.string().to_owned(), encoding));
                }
            }
        }
        table
    })
}

/// A JSON value, of the kinds `encodings.json` uses.
#[derive(Debug, PartialEq, Eq)]
enum Json {
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
    String(String),
}

impl Json {
    /// Parses a whole JSON text.
    fn parse(text: &str) -> Json {
        let mut reader = Reader {
            chars: text.chars().collect(),
            position: 0,
        };
        let value = reader.value();
        reader.skip_whitespace();
        assert!(
            reader.position == reader.chars.len(),
            "trailing text after the JSON value"
        );
        value
    }

    fn array(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            other => panic!("expected an array, found {other:?}"),
        }
    }

    fn field(&self, key: &str) -> &Json {
        match self {
            Json::Object(fields) => fields
                .iter()
                .find(|(name, _)| name == key)
                .map(|(_, value)| value)
                .unwrap_or_else(|| panic!("no field {key:?}")),
            other => panic!("expected an object, found {other:?}"),
        }
    }

    fn string(&self) -> &str {
        match self {
            Json::String(string) => string,
            other => panic!("expected a string, found {other:?}"),
        }
    }
}

/// A cursor over the characters of a JSON text.
struct Reader {
    chars: Vec<char>,
    position: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.position).copied()
    }

    fn next(&mut self) -> char {
        let c = self.peek().expect("unexpected end of JSON");
        self.position += 1;
        c
    }

    fn expect(&mut self, expected: char) {
        let c = self.next();
        assert!(
            c == expected,
            "expected {expected:?}, found {c:?} at {}",
            self.position
        );
    }

    /// JSON whitespace: U+0020, U+000A, U+000D, U+0009.
    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(' ' | '\n' | '\r' | '\t')) {
            self.position += 1;
        }
    }

    fn value(&mut self) -> Json {
        self.skip_whitespace();
        match self.peek() {
            Some('[') => {
                self.position += 1;
                let mut items = Vec::new();
                self.skip_whitespace();
                if self.peek() == Some(']') {
                    self.position += 1;
                    return Json::Array(items);
                }
                loop {
                    items.push(self.value());
                    self.skip_whitespace();
                    match self.next() {
                        ',' => {}
                        ']' => return Json::Array(items),
                        c => panic!("expected ',' or ']', found {c:?}"),
                    }
                }
            }
            Some('{') => {
                self.position += 1;
                let mut fields = Vec::new();
                self.skip_whitespace();
                if self.peek() == Some('}') {
                    self.position += 1;
                    return Json::Object(fields);
                }
                loop {
                    self.skip_whitespace();
                    let key = self.string();
                    self.skip_whitespace();
                    self.expect(':');
                    fields.push((key, self.value()));
                    self.skip_whitespace();
                    match self.next() {
                        ',' => {}
                        '}' => return Json::Object(fields),
                        c => panic!("expected ',' or '}}', found {c:?}"),
                    }
                }
            }
            Some('"') => Json::String(self.string()),
            other => panic!("unsupported JSON value starting with {other:?}"),
        }
    }

    fn string(&mut self) -> String {
        self.expect('"');
        let mut string = String::new();
        loop {
            match self.next() {
                '"' => return string,
                '\\' => match self.next() {
                    '"' => string.push('"'),
                    '\\' => string.push('\\'),
                    '/' => string.push('/'),
                    'b' => string.push('\u{8}'),
                    'f' => string.push('\u{C}'),
                    'n' => string.push('\n'),
                    'r' => string.push('\r'),
                    't' => string.push('\t'),
                    'u' => {
                        let hex: String = (0..4).map(|_| self.next()).collect();
                        let unit = u32::from_str_radix(&hex, 16).expect("\\u needs 4 hex digits");
                        // encodings.json is ASCII; a surrogate pair would need more than this.
                        string.push(char::from_u32(unit).expect("a \\u escape of a surrogate"));
                    }
                    c => panic!("unknown escape \\{c}"),
                },
                c => string.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_reader_reads_what_encodings_json_uses() {
        let json = Json::parse(" [ {\"a\\\"b\": [\"x\\u0041\", \"\"]}, [], {} ]\n");
        assert_eq!(
            json,
            Json::Array(vec![
                Json::Object(vec![(
                    "a\"b".to_owned(),
                    Json::Array(vec![Json::String("xA".to_owned()), Json::String(String::new())])
                )]),
                Json::Array(vec![]),
                Json::Object(vec![]),
            ])
        );
    }

    #[test]
    fn table_has_every_encoding_and_228_labels() {
        assert_eq!(table().len(), 228);
        for encoding in Encoding::all() {
            let lowercase_name = encoding.name().to_ascii_lowercase();
            // "ASCII-lowercasing its name yields one of its labels."
            assert!(
                table()
                    .iter()
                    .any(|(label, e)| e == encoding && *label == lowercase_name),
                "{}",
                encoding.name()
            );
        }
    }
}
