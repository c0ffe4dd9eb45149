//! The `mem` group of `simdenc bench`: the functions of `simdenc::mem` that users call on hot
//! paths, each on a whole input from the corpus, beside encoding_rs 0.8's same
//! `encoding_rs::mem` function (`--features peers`; same name, same signature, same input,
//! same output buffer).
//!
//! Names are `mem/<function>/<input>`, e.g. `mem/convert_utf8_to_utf16/ru`; `--filter mem/`
//! selects the group, `--filter mem/is_` its checks. Figures are MB/s of input: bytes for
//! `&[u8]` and `&str` inputs, two bytes a code unit for `&[u16]` inputs.
//!
//! # Inputs
//!
//! Made at start-up from the embedded corpus, in the form each function takes (UTF-8 bytes,
//! `&str`, UTF-16 code units, or Latin1 bytes, one byte a code point):
//!
//! | input | text | what it stands for |
//! |---|---|---|
//! | `latin` | the Latin lipsum file: all ASCII | ASCII-heavy text (English, markup, identifiers) |
//! | `de` | the Wikipedia article on Mars in German, as it is: 1.5% non-ASCII, 130 characters above U+00FF (quotes, dashes, arrows, a few Greek letters) | Western European text |
//! | `de-latin1` | the same with every character above U+00FF replaced (‘’‚ → `'`, “”„ → `"`, –—− → `-`, any other → `?`): Latin1 only, 1.3% non-ASCII | Latin1 text, the domain of the Latin1 functions |
//! | `ru` | the article in Russian: mostly Cyrillic, no right-to-left character | two-byte UTF-8, left-to-right |
//! | `ja` | the article in Japanese: mostly kana and kanji, no right-to-left character | three-byte UTF-8, left-to-right |
//! | `ko` | the article in Korean: Hangul words between spaces (a third of the characters ASCII) | three-byte UTF-8 among ASCII |
//! | `he` | the article in Hebrew: starts with a Hebrew letter | right-to-left text |
//! | `emoji` | the emoji lipsum file: all astral (surrogate pairs in UTF-16) | non-BMP text |
//!
//! # Workloads
//!
//! One measured call is one call of the function on the whole input. Outputs are allocated
//! once per workload, as large as the function's documentation asks (`[u16]`: input + 1;
//! UTF-8 from UTF-16: 3 bytes a unit; UTF-8 from Latin1: 2 bytes a byte; otherwise the input's
//! length), and reused; the two functions that return a `Cow` allocate their output in the
//! call when it is not borrowed, as users pay it. encoding_rs's column calls
//! `encoding_rs::mem::<function>` the same way.
//!
//! | function | inputs (form) | what one call does | outcome checked |
//! |---|---|---|---|
//! | `convert_utf8_to_utf16` | latin, de, ru, ja, ko (UTF-8 bytes) | UTF-8 → UTF-16 with replacement, into a reused `[u16]` | units written |
//! | `convert_str_to_utf16` | latin, ru (`&str`) | `&str` → UTF-16, into a reused `[u16]` | units written |
//! | `convert_utf16_to_utf8` | latin, de, ru, ja (UTF-16) | UTF-16 → UTF-8 with replacement, into a reused `[u8]` | bytes written |
//! | `convert_utf16_to_str` | ru (UTF-16) | as above, into a reused `&mut str` | bytes written |
//! | `convert_latin1_to_utf8` | latin, de-latin1 (Latin1 bytes) | Latin1 → UTF-8, into a reused `[u8]` | bytes written |
//! | `convert_latin1_to_utf16` | latin, de-latin1 (Latin1 bytes) | Latin1 → UTF-16, into a reused `[u16]` | units written (the input's length) |
//! | `decode_latin1` | latin, de-latin1 (Latin1 bytes) | Latin1 → `Cow<str>`: borrowed for ASCII input, else a `String` allocated and dropped | length of the result |
//! | `encode_latin1_lossy` | latin, de-latin1 (`&str`) | `&str` → Latin1 `Cow<[u8]>`: borrowed for ASCII input, else a `Vec` allocated and dropped | length of the result |
//! | `is_ascii` | latin (UTF-8 bytes) | the whole input scanned; true | the answer |
//! | `is_basic_latin` | latin (UTF-16) | the whole input scanned; true | the answer |
//! | `is_utf8_latin1` | latin, de-latin1 (UTF-8 bytes) | the whole input scanned; true | the answer |
//! | `is_str_latin1` | de-latin1 (`&str`) | the whole input scanned; true | the answer |
//! | `is_utf16_latin1` | de-latin1 (UTF-16) | the whole input scanned; true | the answer |
//! | `utf16_valid_up_to` | ru, ja, emoji (UTF-16) | the whole input scanned; all valid | the length returned |
//! | `is_str_bidi` | ru, ja (`&str`): whole input scanned, false; he: true at the first letter | the scan | the answer |
//! | `is_utf8_bidi` | ru, ja, he (UTF-8 bytes) | as `is_str_bidi` (invalid UTF-8 answers true too, so the UTF-8 is checked as it is scanned) | the answer |
//! | `is_utf16_bidi` | ru, ja, he (UTF-16) | as `is_str_bidi` | the answer |
//! | `check_str_for_latin1_and_bidi` | de-latin1 (`&str`): `Latin1` after the whole input; ru: `LeftToRight` after the whole input; he: `Bidi` at the first letter | the Latin1 scan, then the bidi scan from the first character above U+00FF | the answer |
//! | `copy_ascii_to_ascii` | latin (bytes) | copies the whole input into a reused `[u8]` | bytes copied |
//! | `copy_ascii_to_basic_latin` | latin (bytes) | widens the whole input into a reused `[u16]` | units written |
//! | `copy_basic_latin_to_ascii` | latin (UTF-16) | narrows the whole input into a reused `[u8]` | bytes written |
//! | `ensure_utf16_validity` | ru, emoji (UTF-16) | in place, on a buffer holding the valid input: scans it whole and writes nothing, so every call sees the same input (no copy is measured) | none (returns nothing) |
//!
//! The calls on `he` answer at the first Hebrew letter: their figure is the cost of one call
//! (a few ns), expressed as MB/s of an input the call does not read, and says only which
//! implementation answers sooner. Every other call reads its whole input.
//!
//! The harness checks every level of simdenc and encoding_rs against each other on every
//! workload: each call's outcome (`read`: the input's length, or the length returned by
//! `utf16_valid_up_to` and the copies; `written`: as in the last column, the answer of a check
//! as 0 or 1, `Latin1`/`LeftToRight`/`Bidi` as 0/1/2) must be the same.

use std::hint::black_box;
use std::rc::Rc;

use super::corpus;
use super::suite::{Builder, Group, Outcome, Runner, Work};

const MEM: Group = Group {
    slug: "mem",
    title: "simdenc::mem: in-memory conversions and checks (UTF-8, UTF-16, Latin1; corpus)",
};

/// A function of `simdenc::mem` measured in the `mem` group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemCall {
    /// `mem::convert_utf8_to_utf16`.
    ConvertUtf8ToUtf16,
    /// `mem::convert_str_to_utf16`.
    ConvertStrToUtf16,
    /// `mem::convert_utf16_to_utf8`.
    ConvertUtf16ToUtf8,
    /// `mem::convert_utf16_to_str`.
    ConvertUtf16ToStr,
    /// `mem::convert_latin1_to_utf8`.
    ConvertLatin1ToUtf8,
    /// `mem::convert_latin1_to_utf16`.
    ConvertLatin1ToUtf16,
    /// `mem::decode_latin1`.
    DecodeLatin1,
    /// `mem::encode_latin1_lossy`.
    EncodeLatin1Lossy,
    /// `mem::is_ascii`.
    IsAscii,
    /// `mem::is_basic_latin`.
    IsBasicLatin,
    /// `mem::is_utf8_latin1`.
    IsUtf8Latin1,
    /// `mem::is_str_latin1`.
    IsStrLatin1,
    /// `mem::is_utf16_latin1`.
    IsUtf16Latin1,
    /// `mem::utf16_valid_up_to`.
    Utf16ValidUpTo,
    /// `mem::is_str_bidi`.
    IsStrBidi,
    /// `mem::is_utf8_bidi`.
    IsUtf8Bidi,
    /// `mem::is_utf16_bidi`.
    IsUtf16Bidi,
    /// `mem::check_str_for_latin1_and_bidi`.
    CheckStrForLatin1AndBidi,
    /// `mem::copy_ascii_to_ascii`.
    CopyAsciiToAscii,
    /// `mem::copy_ascii_to_basic_latin`.
    CopyAsciiToBasicLatin,
    /// `mem::copy_basic_latin_to_ascii`.
    CopyBasicLatinToAscii,
    /// `mem::ensure_utf16_validity`.
    EnsureUtf16Validity,
}

/// The form of a function's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// `&[u8]` holding UTF-8 (or ASCII).
    Utf8,
    /// `&str`.
    Str,
    /// `&[u16]` holding UTF-16.
    Utf16,
    /// `&[u8]` holding Latin1: one byte a code point.
    Latin1,
}

impl MemCall {
    /// The function's name.
    fn name(self) -> &'static str {
        match self {
            MemCall::ConvertUtf8ToUtf16 => "convert_utf8_to_utf16",
            MemCall::ConvertStrToUtf16 => "convert_str_to_utf16",
            MemCall::ConvertUtf16ToUtf8 => "convert_utf16_to_utf8",
            MemCall::ConvertUtf16ToStr => "convert_utf16_to_str",
            MemCall::ConvertLatin1ToUtf8 => "convert_latin1_to_utf8",
            MemCall::ConvertLatin1ToUtf16 => "convert_latin1_to_utf16",
            MemCall::DecodeLatin1 => "decode_latin1",
            MemCall::EncodeLatin1Lossy => "encode_latin1_lossy",
            MemCall::IsAscii => "is_ascii",
            MemCall::IsBasicLatin => "is_basic_latin",
            MemCall::IsUtf8Latin1 => "is_utf8_latin1",
            MemCall::IsStrLatin1 => "is_str_latin1",
            MemCall::IsUtf16Latin1 => "is_utf16_latin1",
            MemCall::Utf16ValidUpTo => "utf16_valid_up_to",
            MemCall::IsStrBidi => "is_str_bidi",
            MemCall::IsUtf8Bidi => "is_utf8_bidi",
            MemCall::IsUtf16Bidi => "is_utf16_bidi",
            MemCall::CheckStrForLatin1AndBidi => "check_str_for_latin1_and_bidi",
            MemCall::CopyAsciiToAscii => "copy_ascii_to_ascii",
            MemCall::CopyAsciiToBasicLatin => "copy_ascii_to_basic_latin",
            MemCall::CopyBasicLatinToAscii => "copy_basic_latin_to_ascii",
            MemCall::EnsureUtf16Validity => "ensure_utf16_validity",
        }
    }

    /// The form of the function's input.
    fn form(self) -> Form {
        match self {
            MemCall::ConvertUtf8ToUtf16
            | MemCall::IsAscii
            | MemCall::IsUtf8Latin1
            | MemCall::IsUtf8Bidi
            | MemCall::CopyAsciiToAscii
            | MemCall::CopyAsciiToBasicLatin => Form::Utf8,
            MemCall::ConvertStrToUtf16
            | MemCall::EncodeLatin1Lossy
            | MemCall::IsStrLatin1
            | MemCall::IsStrBidi
            | MemCall::CheckStrForLatin1AndBidi => Form::Str,
            MemCall::ConvertUtf16ToUtf8
            | MemCall::ConvertUtf16ToStr
            | MemCall::IsBasicLatin
            | MemCall::IsUtf16Latin1
            | MemCall::Utf16ValidUpTo
            | MemCall::IsUtf16Bidi
            | MemCall::CopyBasicLatinToAscii
            | MemCall::EnsureUtf16Validity => Form::Utf16,
            MemCall::ConvertLatin1ToUtf8 | MemCall::ConvertLatin1ToUtf16 | MemCall::DecodeLatin1 => {
                Form::Latin1
            }
        }
    }
}

/// An input of the `mem` group, in the form its function takes.
pub enum MemInput {
    /// UTF-8 or Latin1 bytes.
    Bytes(Rc<[u8]>),
    /// Text.
    Str(Rc<str>),
    /// UTF-16 code units.
    Units(Rc<[u16]>),
}

impl MemInput {
    /// Input units: bytes, or code units for UTF-16.
    pub fn units(&self) -> usize {
        match self {
            MemInput::Bytes(b) => b.len(),
            MemInput::Str(s) => s.len(),
            MemInput::Units(u) => u.len(),
        }
    }

    /// Bytes of input.
    pub fn bytes(&self) -> usize {
        match self {
            MemInput::Units(u) => u.len() * 2,
            _ => self.units(),
        }
    }

    /// The bytes (the group's plan gives each function its form: another is a bug).
    pub fn as_bytes(&self) -> Rc<[u8]> {
        match self {
            MemInput::Bytes(b) => Rc::clone(b),
            _ => unreachable!("a mem workload on bytes was given another form"),
        }
    }

    /// The text.
    pub fn as_str(&self) -> Rc<str> {
        match self {
            MemInput::Str(s) => Rc::clone(s),
            _ => unreachable!("a mem workload on a str was given another form"),
        }
    }

    /// The code units.
    pub fn as_units(&self) -> Rc<[u16]> {
        match self {
            MemInput::Units(u) => Rc::clone(u),
            _ => unreachable!("a mem workload on UTF-16 was given another form"),
        }
    }
}

/// A text of the group (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Text {
    Latin,
    De,
    DeLatin1,
    Ru,
    Ja,
    Ko,
    He,
    Emoji,
}

impl Text {
    fn name(self) -> &'static str {
        match self {
            Text::Latin => "latin",
            Text::De => "de",
            Text::DeLatin1 => "de-latin1",
            Text::Ru => "ru",
            Text::Ja => "ja",
            Text::Ko => "ko",
            Text::He => "he",
            Text::Emoji => "emoji",
        }
    }

    fn text(self) -> String {
        match self {
            Text::Latin => lipsum("latin").into(),
            Text::De => corpus::wikipedia("de").into(),
            Text::DeLatin1 => latin1_only(corpus::wikipedia("de")),
            Text::Ru => corpus::wikipedia("ru").into(),
            Text::Ja => corpus::wikipedia("ja").into(),
            Text::Ko => corpus::wikipedia("ko").into(),
            Text::He => corpus::wikipedia("he").into(),
            Text::Emoji => lipsum("emoji").into(),
        }
    }
}

/// The lipsum file `name`.
fn lipsum(name: &str) -> &'static str {
    corpus::LIPSUM
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("no {name} lipsum"))
}

/// `text` with every character above U+00FF replaced by ASCII: quotes by `'` or `"`, dashes
/// and minus by `-`, any other by `?`.
fn latin1_only(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\0'..='\u{FF}' => c,
            '\u{2018}' | '\u{2019}' | '\u{201A}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' => '"',
            '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
            _ => '?',
        })
        .collect()
}

/// `text` in `form`.
fn input(text: &str, form: Form) -> MemInput {
    match form {
        Form::Utf8 => MemInput::Bytes(text.as_bytes().into()),
        Form::Str => MemInput::Str(text.into()),
        Form::Utf16 => MemInput::Units(text.encode_utf16().collect()),
        Form::Latin1 => MemInput::Bytes(
            text.chars()
                .map(|c| u8::try_from(c).expect("a Latin1 input has only characters up to U+00FF"))
                .collect(),
        ),
    }
}

/// The workloads, in table order: each function with the texts it is measured on.
const PLAN: [(MemCall, &[Text]); 22] = [
    (
        MemCall::ConvertUtf8ToUtf16,
        &[Text::Latin, Text::De, Text::Ru, Text::Ja, Text::Ko],
    ),
    (MemCall::ConvertStrToUtf16, &[Text::Latin, Text::Ru]),
    (
        MemCall::ConvertUtf16ToUtf8,
        &[Text::Latin, Text::De, Text::Ru, Text::Ja],
    ),
    (MemCall::ConvertUtf16ToStr, &[Text::Ru]),
    (MemCall::ConvertLatin1ToUtf8, &[Text::Latin, Text::DeLatin1]),
    (MemCall::ConvertLatin1ToUtf16, &[Text::Latin, Text::DeLatin1]),
    (MemCall::DecodeLatin1, &[Text::Latin, Text::DeLatin1]),
    (MemCall::EncodeLatin1Lossy, &[Text::Latin, Text::DeLatin1]),
    (MemCall::IsAscii, &[Text::Latin]),
    (MemCall::IsBasicLatin, &[Text::Latin]),
    (MemCall::IsUtf8Latin1, &[Text::Latin, Text::DeLatin1]),
    (MemCall::IsStrLatin1, &[Text::DeLatin1]),
    (MemCall::IsUtf16Latin1, &[Text::DeLatin1]),
    (MemCall::Utf16ValidUpTo, &[Text::Ru, Text::Ja, Text::Emoji]),
    (MemCall::IsStrBidi, &[Text::Ru, Text::Ja, Text::He]),
    (MemCall::IsUtf8Bidi, &[Text::Ru, Text::Ja, Text::He]),
    (MemCall::IsUtf16Bidi, &[Text::Ru, Text::Ja, Text::He]),
    (
        MemCall::CheckStrForLatin1AndBidi,
        &[Text::DeLatin1, Text::Ru, Text::He],
    ),
    (MemCall::CopyAsciiToAscii, &[Text::Latin]),
    (MemCall::CopyAsciiToBasicLatin, &[Text::Latin]),
    (MemCall::CopyBasicLatinToAscii, &[Text::Latin]),
    (MemCall::EnsureUtf16Validity, &[Text::Ru, Text::Emoji]),
];

/// Adds the group's workloads to the suite.
pub fn add(b: &mut Builder) {
    for (call, texts) in PLAN {
        for &text in texts {
            let case = format!("{}/{}", call.name(), text.name());
            b.add(MEM, &case, || Work::Mem(call, input(&text.text(), call.form())));
        }
    }
}

/// A runner calling `$call` (a [`MemCall`]) of the module `$m` (`simdenc::mem` or
/// `encoding_rs::mem`: their functions have the same names and signatures) on `$input` (a
/// `&MemInput`).
macro_rules! mem_runner {
    ($($m:ident)::+, $call:expr, $input:expr) => {{
        let input: &MemInput = $input;
        let runner: Runner = match $call {
            MemCall::ConvertUtf8ToUtf16 => {
                let src = input.as_bytes();
                let mut dst = vec![0u16; src.len() + 1];
                Box::new(move || {
                    let written = $($m)::+::convert_utf8_to_utf16(black_box(&src), &mut dst);
                    black_box(&mut dst);
                    Outcome { read: src.len(), written }
                })
            }
            MemCall::ConvertStrToUtf16 => {
                let src = input.as_str();
                let mut dst = vec![0u16; src.len() + 1];
                Box::new(move || {
                    let written = $($m)::+::convert_str_to_utf16(black_box(&src), &mut dst);
                    black_box(&mut dst);
                    Outcome { read: src.len(), written }
                })
            }
            MemCall::ConvertUtf16ToUtf8 => {
                let src = input.as_units();
                let mut dst = vec![0u8; src.len() * 3];
                Box::new(move || {
                    let written = $($m)::+::convert_utf16_to_utf8(black_box(&src), &mut dst);
                    black_box(&mut dst);
                    Outcome { read: src.len(), written }
                })
            }
            MemCall::ConvertUtf16ToStr => {
                let src = input.as_units();
                let mut dst = "\0".repeat(src.len() * 3);
                Box::new(move || {
                    let written = $($m)::+::convert_utf16_to_str(black_box(&src), dst.as_mut_str());
                    black_box(&mut dst);
                    Outcome { read: src.len(), written }
                })
            }
            MemCall::ConvertLatin1ToUtf8 => {
                let src = input.as_bytes();
                let mut dst = vec![0u8; src.len() * 2];
                Box::new(move || {
                    let written = $($m)::+::convert_latin1_to_utf8(black_box(&src), &mut dst);
                    black_box(&mut dst);
                    Outcome { read: src.len(), written }
                })
            }
            MemCall::ConvertLatin1ToUtf16 => {
                let src = input.as_bytes();
                let mut dst = vec![0u16; src.len()];
                Box::new(move || {
                    $($m)::+::convert_latin1_to_utf16(black_box(&src), &mut dst);
                    black_box(&mut dst);
                    Outcome { read: src.len(), written: src.len() }
                })
            }
            MemCall::DecodeLatin1 => {
                let src = input.as_bytes();
                Box::new(move || {
                    let text = $($m)::+::decode_latin1(black_box(&src));
                    Outcome { read: src.len(), written: black_box(text).len() }
                })
            }
            MemCall::EncodeLatin1Lossy => {
                let src = input.as_str();
                Box::new(move || {
                    let bytes = $($m)::+::encode_latin1_lossy(black_box(&src));
                    Outcome { read: src.len(), written: black_box(bytes).len() }
                })
            }
            MemCall::IsAscii => {
                let src = input.as_bytes();
                Box::new(move || Outcome {
                    read: src.len(),
                    written: usize::from($($m)::+::is_ascii(black_box(&src))),
                })
            }
            MemCall::IsBasicLatin => {
                let src = input.as_units();
                Box::new(move || Outcome {
                    read: src.len(),
                    written: usize::from($($m)::+::is_basic_latin(black_box(&src))),
                })
            }
            MemCall::IsUtf8Latin1 => {
                let src = input.as_bytes();
                Box::new(move || Outcome {
                    read: src.len(),
                    written: usize::from($($m)::+::is_utf8_latin1(black_box(&src))),
                })
            }
            MemCall::IsStrLatin1 => {
                let src = input.as_str();
                Box::new(move || Outcome {
                    read: src.len(),
                    written: usize::from($($m)::+::is_str_latin1(black_box(&src))),
                })
            }
            MemCall::IsUtf16Latin1 => {
                let src = input.as_units();
                Box::new(move || Outcome {
                    read: src.len(),
                    written: usize::from($($m)::+::is_utf16_latin1(black_box(&src))),
                })
            }
            MemCall::Utf16ValidUpTo => {
                let src = input.as_units();
                Box::new(move || Outcome {
                    read: $($m)::+::utf16_valid_up_to(black_box(&src)),
                    written: 0,
                })
            }
            MemCall::IsStrBidi => {
                let src = input.as_str();
                Box::new(move || Outcome {
                    read: src.len(),
                    written: usize::from($($m)::+::is_str_bidi(black_box(&src))),
                })
            }
            MemCall::IsUtf8Bidi => {
                let src = input.as_bytes();
                Box::new(move || Outcome {
                    read: src.len(),
                    written: usize::from($($m)::+::is_utf8_bidi(black_box(&src))),
                })
            }
            MemCall::IsUtf16Bidi => {
                let src = input.as_units();
                Box::new(move || Outcome {
                    read: src.len(),
                    written: usize::from($($m)::+::is_utf16_bidi(black_box(&src))),
                })
            }
            MemCall::CheckStrForLatin1AndBidi => {
                let src = input.as_str();
                Box::new(move || Outcome {
                    read: src.len(),
                    written: match $($m)::+::check_str_for_latin1_and_bidi(black_box(&src)) {
                        $($m)::+::Latin1Bidi::Latin1 => 0,
                        $($m)::+::Latin1Bidi::LeftToRight => 1,
                        $($m)::+::Latin1Bidi::Bidi => 2,
                    },
                })
            }
            MemCall::CopyAsciiToAscii => {
                let src = input.as_bytes();
                let mut dst = vec![0u8; src.len()];
                Box::new(move || {
                    let copied = $($m)::+::copy_ascii_to_ascii(black_box(&src), &mut dst);
                    black_box(&mut dst);
                    Outcome { read: copied, written: copied }
                })
            }
            MemCall::CopyAsciiToBasicLatin => {
                let src = input.as_bytes();
                let mut dst = vec![0u16; src.len()];
                Box::new(move || {
                    let copied = $($m)::+::copy_ascii_to_basic_latin(black_box(&src), &mut dst);
                    black_box(&mut dst);
                    Outcome { read: copied, written: copied }
                })
            }
            MemCall::CopyBasicLatinToAscii => {
                let src = input.as_units();
                let mut dst = vec![0u8; src.len()];
                Box::new(move || {
                    let copied = $($m)::+::copy_basic_latin_to_ascii(black_box(&src), &mut dst);
                    black_box(&mut dst);
                    Outcome { read: copied, written: copied }
                })
            }
            MemCall::EnsureUtf16Validity => {
                // Valid input: the call writes nothing, so the buffer stays the input.
                let mut buffer = input.as_units().to_vec();
                Box::new(move || {
                    $($m)::+::ensure_utf16_validity(black_box(&mut buffer));
                    black_box(&mut buffer);
                    Outcome { read: buffer.len(), written: 0 }
                })
            }
        };
        runner
    }};
}

#[cfg(feature = "peers")]
pub(super) use mem_runner;

/// simdenc's runner for `call` on `input`.
pub fn runner(call: MemCall, input: &MemInput) -> Runner {
    mem_runner!(simdenc::mem, call, input)
}
