//! The texts the suite runs on, embedded in the binary so that `simdenc bench` gives the same
//! figures from any directory, on any machine, without the repository beside it.
//!
//! Only the files the suite uses are embedded (about 2 MB): four Unicode lipsum files (one per
//! UTF-8 sequence length), the Wikipedia article on Mars in the ten languages whose legacy
//! encodings the suite measures, and its whole HTML pages in Japanese, Korean and Chinese. Every other input (legacy encodings, UTF-16) is made from these
//! at start-up with simdenc's encoders. Sources and licences: `data/corpus/README.md` (lipsum:
//! MIT OR Apache-2.0; Wikipedia: CC BY-SA 3.0, `data/corpus/wikipedia/LICENSE-CC-BY-SA`, with
//! each article's revision in `sources.txt`).

/// The Unicode lipsum files used by the published SIMD UTF-8 benchmarks: `(name, text)`, one
/// per UTF-8 sequence length (1, 2, 3 and 4 bytes).
pub const LIPSUM: [(&str, &str); 4] = [
    (
        "latin",
        include_str!("../../../data/corpus/lipsum/Latin-Lipsum.txt"),
    ),
    (
        "russian",
        include_str!("../../../data/corpus/lipsum/Russian-Lipsum.txt"),
    ),
    (
        "chinese",
        include_str!("../../../data/corpus/lipsum/Chinese-Lipsum.txt"),
    ),
    (
        "emoji",
        include_str!("../../../data/corpus/lipsum/Emoji-Lipsum.txt"),
    ),
];

/// The Wikipedia article on Mars, plain text: `(language code, text)`.
const WIKIPEDIA: [(&str, &str); 10] = [
    ("ar", include_str!("../../../data/corpus/wikipedia/ar.txt")),
    ("de", include_str!("../../../data/corpus/wikipedia/de.txt")),
    ("el", include_str!("../../../data/corpus/wikipedia/el.txt")),
    ("he", include_str!("../../../data/corpus/wikipedia/he.txt")),
    ("ja", include_str!("../../../data/corpus/wikipedia/ja.txt")),
    ("ko", include_str!("../../../data/corpus/wikipedia/ko.txt")),
    ("ru", include_str!("../../../data/corpus/wikipedia/ru.txt")),
    ("th", include_str!("../../../data/corpus/wikipedia/th.txt")),
    ("zh_cn", include_str!("../../../data/corpus/wikipedia/zh_cn.txt")),
    ("zh_tw", include_str!("../../../data/corpus/wikipedia/zh_tw.txt")),
];

/// The same article's whole HTML pages (mostly ASCII markup) in the CJK languages:
/// `(language code, page)`.
const WIKIPEDIA_HTML: [(&str, &str); 4] = [
    ("ja", include_str!("../../../data/corpus/wikipedia/ja.html")),
    ("ko", include_str!("../../../data/corpus/wikipedia/ko.html")),
    ("zh_cn", include_str!("../../../data/corpus/wikipedia/zh_cn.html")),
    ("zh_tw", include_str!("../../../data/corpus/wikipedia/zh_tw.html")),
];

/// The Wikipedia HTML page in language `lang` (one of the embedded ones).
pub fn wikipedia_html(lang: &str) -> &'static str {
    embedded(&WIKIPEDIA_HTML, lang)
}

/// The Wikipedia text in language `lang` (one of the embedded ones).
pub fn wikipedia(lang: &str) -> &'static str {
    embedded(&WIKIPEDIA, lang)
}

/// The entry of `lang` in `files`.
fn embedded(files: &[(&str, &'static str)], lang: &str) -> &'static str {
    files
        .iter()
        .find(|(code, _)| *code == lang)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("nothing embedded for {lang:?}"))
}

/// `text` in `encoding`, as the standard's encoder writes it (unmappable characters become
/// `&#N;`), or UTF-16 code units in the given byte order for UTF-16LE/BE.
pub fn encode(text: &str, encoding: &'static simdenc::Encoding) -> Vec<u8> {
    if encoding == simdenc::UTF_16LE {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    } else if encoding == simdenc::UTF_16BE {
        text.encode_utf16().flat_map(u16::to_be_bytes).collect()
    } else {
        encoding.encode(text).0.into_owned()
    }
}

/// The ranges `ends[i - 1]..ends[i]` of inputs stored end to end.
fn spans(ends: &[usize]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let starts = std::iter::once(0).chain(ends.iter().copied());
    starts.zip(ends.iter().copied()).map(|(s, e)| s..e)
}

/// `text` cut at character boundaries into inputs of at most `size` bytes each (each as long
/// as it can be), each character written by `encode` as units of `unit_bytes` bytes: the
/// units end to end, and where each input ends.
fn cut<T: Copy>(
    text: &str,
    size: usize,
    unit_bytes: usize,
    mut encode: impl FnMut(char, &mut Vec<T>),
) -> (Vec<T>, Vec<usize>) {
    let (mut units, mut ends, mut one) = (Vec::with_capacity(text.len() * 2), Vec::new(), Vec::new());
    let mut start = 0;
    for c in text.chars() {
        one.clear();
        encode(c, &mut one);
        if units.len() > start && unit_bytes * (units.len() + one.len() - start) > size {
            ends.push(units.len());
            start = units.len();
        }
        units.extend_from_slice(&one);
    }
    if units.len() > start {
        ends.push(units.len());
    }
    (units, ends)
}

/// Many small inputs, stored end to end: `bytes[ends[i - 1]..ends[i]]` is input `i`.
pub struct Pieces {
    /// The inputs, concatenated.
    pub bytes: Vec<u8>,
    /// Where each input ends in `bytes`.
    pub ends: Vec<usize>,
}

impl Pieces {
    /// Every input in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        spans(&self.ends).map(|r| &self.bytes[r])
    }

    /// The length of the longest input.
    pub fn max_len(&self) -> usize {
        self.iter().map(<[u8]>::len).max().unwrap_or(0)
    }
}

/// Many small texts, stored end to end: `text[ends[i - 1]..ends[i]]` is input `i`.
pub struct TextPieces {
    /// The inputs, concatenated.
    pub text: String,
    /// Where each input ends in `text` (character boundaries).
    pub ends: Vec<usize>,
}

impl TextPieces {
    /// `text` cut at character boundaries into inputs of at most `size` bytes of UTF-8 each
    /// (each as long as it can be).
    pub fn new(text: &str, size: usize) -> TextPieces {
        let Pieces { bytes, ends } = pieces(text, simdenc::UTF_8, size);
        let text = String::from_utf8(bytes).expect("UTF-8 pieces of a str are UTF-8");
        TextPieces { text, ends }
    }

    /// Every input in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        spans(&self.ends).map(|r| &self.text[r])
    }

    /// The length of the longest input, in bytes.
    pub fn max_len(&self) -> usize {
        self.iter().map(str::len).max().unwrap_or(0)
    }
}

/// Many small UTF-16 inputs, stored end to end: `units[ends[i - 1]..ends[i]]` is input `i`.
pub struct UnitPieces {
    /// The inputs, concatenated.
    pub units: Vec<u16>,
    /// Where each input ends in `units` (never inside a surrogate pair).
    pub ends: Vec<usize>,
}

impl UnitPieces {
    /// `text` in UTF-16, cut at character boundaries into inputs of at most `size` bytes
    /// (`size / 2` code units) each (each as long as it can be).
    pub fn new(text: &str, size: usize) -> UnitPieces {
        let (units, ends) = cut(text, size, 2, |c, out| {
            out.extend_from_slice(c.encode_utf16(&mut [0; 2]));
        });
        UnitPieces { units, ends }
    }

    /// Every input in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u16]> {
        spans(&self.ends).map(|r| &self.units[r])
    }

    /// The length of the longest input, in code units.
    pub fn max_len(&self) -> usize {
        self.iter().map(<[u16]>::len).max().unwrap_or(0)
    }
}

/// `text` in `encoding`, cut at character boundaries into inputs of at most `size` bytes each
/// (each as long as it can be). Characters are encoded one at a time, so this is only for
/// stateless encodings (not ISO-2022-JP).
pub fn pieces(text: &str, encoding: &'static simdenc::Encoding, size: usize) -> Pieces {
    let (bytes, ends) = cut(text, size, 1, |c, out| {
        out.extend_from_slice(&encode(c.encode_utf8(&mut [0; 4]), encoding));
    });
    Pieces { bytes, ends }
}
