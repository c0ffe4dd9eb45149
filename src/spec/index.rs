//! The standard's indexes (section "Indexes"), read from the vendored `index-*.txt` files,
//! and the algorithms over them: index code point, index pointer, index gb18030 ranges code
//! point and pointer, index Shift_JIS pointer and index Big5 pointer.
//!
//! <https://encoding.spec.whatwg.org/#indexes>
//!
//! Independent of `crate::tables` on purpose: the files are parsed here, lazily and once, by
//! the rule the standard states, so that a bug in the table generator cannot hide behind this
//! layer. The parsed entries are kept in file order ([`entries`]); lookups go through ordered
//! maps built from them, never through linear scans.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use crate::Encoding;

/// One of the standard's indexes.
///
/// ```
/// use simdenc::spec::index::{self, IndexName};
/// assert_eq!(index::entries(IndexName::Jis0208)[0], (0, '\u{3000}'));
/// assert_eq!(index::entries(IndexName::SingleByte(simdenc::WINDOWS_1252)).len(), 128);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexName {
    /// index Big5 (`index-big5.txt`).
    Big5,
    /// index EUC-KR (`index-euc-kr.txt`).
    EucKr,
    /// index gb18030 (`index-gb18030.txt`).
    Gb18030,
    /// index gb18030 ranges (`index-gb18030-ranges.txt`). The standard uses it only through
    /// [`index_gb18030_ranges_code_point`] and [`index_gb18030_ranges_pointer`].
    Gb18030Ranges,
    /// index jis0208 (`index-jis0208.txt`).
    Jis0208,
    /// index jis0212 (`index-jis0212.txt`).
    Jis0212,
    /// index ISO-2022-JP katakana (`index-iso-2022-jp-katakana.txt`).
    Iso2022JpKatakana,
    /// index single-byte of a single-byte encoding (ISO-8859-8 and ISO-8859-8-I share one).
    ///
    /// Functions given any other encoding here panic.
    SingleByte(&'static Encoding),
}

/// The standard's table of single-byte encodings and their index files, transcribed.
///
/// <https://encoding.spec.whatwg.org/#legacy-single-byte-encodings>
const SINGLE_BYTE: [(&str, &str); 28] = [
    ("IBM866", include_str!("../../tables/whatwg/index-ibm866.txt")),
    (
        "ISO-8859-2",
        include_str!("../../tables/whatwg/index-iso-8859-2.txt"),
    ),
    (
        "ISO-8859-3",
        include_str!("../../tables/whatwg/index-iso-8859-3.txt"),
    ),
    (
        "ISO-8859-4",
        include_str!("../../tables/whatwg/index-iso-8859-4.txt"),
    ),
    (
        "ISO-8859-5",
        include_str!("../../tables/whatwg/index-iso-8859-5.txt"),
    ),
    (
        "ISO-8859-6",
        include_str!("../../tables/whatwg/index-iso-8859-6.txt"),
    ),
    (
        "ISO-8859-7",
        include_str!("../../tables/whatwg/index-iso-8859-7.txt"),
    ),
    (
        "ISO-8859-8",
        include_str!("../../tables/whatwg/index-iso-8859-8.txt"),
    ),
    (
        "ISO-8859-8-I",
        include_str!("../../tables/whatwg/index-iso-8859-8.txt"),
    ),
    (
        "ISO-8859-10",
        include_str!("../../tables/whatwg/index-iso-8859-10.txt"),
    ),
    (
        "ISO-8859-13",
        include_str!("../../tables/whatwg/index-iso-8859-13.txt"),
    ),
    (
        "ISO-8859-14",
        include_str!("../../tables/whatwg/index-iso-8859-14.txt"),
    ),
    (
        "ISO-8859-15",
        include_str!("../../tables/whatwg/index-iso-8859-15.txt"),
    ),
    (
        "ISO-8859-16",
        include_str!("../../tables/whatwg/index-iso-8859-16.txt"),
    ),
    ("KOI8-R", include_str!("../../tables/whatwg/index-koi8-r.txt")),
    ("KOI8-U", include_str!("../../tables/whatwg/index-koi8-u.txt")),
    (
        "macintosh",
        include_str!("../../tables/whatwg/index-macintosh.txt"),
    ),
    (
        "windows-874",
        include_str!("../../tables/whatwg/index-windows-874.txt"),
    ),
    (
        "windows-1250",
        include_str!("../../tables/whatwg/index-windows-1250.txt"),
    ),
    (
        "windows-1251",
        include_str!("../../tables/whatwg/index-windows-1251.txt"),
    ),
    (
        "windows-1252",
        include_str!("../../tables/whatwg/index-windows-1252.txt"),
    ),
    (
        "windows-1253",
        include_str!("../../tables/whatwg/index-windows-1253.txt"),
    ),
    (
        "windows-1254",
        include_str!("../../tables/whatwg/index-windows-1254.txt"),
    ),
    (
        "windows-1255",
        include_str!("../../tables/whatwg/index-windows-1255.txt"),
    ),
    (
        "windows-1256",
        include_str!("../../tables/whatwg/index-windows-1256.txt"),
    ),
    (
        "windows-1257",
        include_str!("../../tables/whatwg/index-windows-1257.txt"),
    ),
    (
        "windows-1258",
        include_str!("../../tables/whatwg/index-windows-1258.txt"),
    ),
    (
        "x-mac-cyrillic",
        include_str!("../../tables/whatwg/index-x-mac-cyrillic.txt"),
    ),
];

/// Whether `encoding` is one of the standard's single-byte encodings (it has an index
/// single-byte).
///
/// ```
/// use simdenc::spec::index::is_single_byte_encoding;
/// assert!(is_single_byte_encoding(simdenc::ISO_8859_8_I));
/// assert!(!is_single_byte_encoding(simdenc::X_USER_DEFINED));
/// ```
pub fn is_single_byte_encoding(encoding: &'static Encoding) -> bool {
    SINGLE_BYTE.iter().any(|&(name, _)| name == encoding.name())
}

/// An index as parsed, with the maps its algorithms need.
struct Index {
    /// Pointer and code point of each entry, in file order.
    entries: Vec<(u32, char)>,
    /// Pointer to code point (pointers are unique within an index).
    code_point_by_pointer: BTreeMap<u32, char>,
    /// Code point to the *first* pointer corresponding to it, in file order.
    first_pointer_by_code_point: BTreeMap<char, u32>,
    /// Code point to the *last* pointer corresponding to it, in file order.
    last_pointer_by_code_point: BTreeMap<char, u32>,
}

impl Index {
    fn new(entries: Vec<(u32, char)>) -> Index {
        let mut code_point_by_pointer = BTreeMap::new();
        let mut first_pointer_by_code_point = BTreeMap::new();
        let mut last_pointer_by_code_point = BTreeMap::new();
        for &(pointer, code_point) in &entries {
            let previous = code_point_by_pointer.insert(pointer, code_point);
            assert!(
                previous.is_none(),
                "\"Within an index pointers are unique\", but pointer {pointer} repeats"
            );
            first_pointer_by_code_point.entry(code_point).or_insert(pointer);
            last_pointer_by_code_point.insert(code_point, pointer);
        }
        Index {
            entries,
            code_point_by_pointer,
            first_pointer_by_code_point,
            last_pointer_by_code_point,
        }
    }

    /// This index excluding the entries whose pointer `exclude` selects.
    fn excluding(&self, exclude: impl Fn(u32) -> bool) -> Index {
        Index::new(
            self.entries
                .iter()
                .copied()
                .filter(|&(pointer, _)| !exclude(pointer))
                .collect(),
        )
    }
}

/// Finds the pointers and their code points in the contents of an index file, as the
/// standard says:
///
/// "let lines be the result of splitting the resource's contents on U+000A LF. Then remove each
/// item in lines that is the empty string or starts with U+0023 (#). Then the pointers and their
/// corresponding code points are found by splitting each item in lines on U+0009 TAB. The first
/// subitem is the pointer (as a decimal number) and the second is the corresponding code point
/// (as a hexadecimal number). Other subitems are not relevant."
///
/// The files right-align pointers with U+0020 SPACE, which is removed, and write code points
/// with a `0x` prefix, which is removed. Panics on anything else, which would be a change of
/// format this transcription has to be told about.
fn parse(contents: &str) -> Vec<(u32, char)> {
    contents
        .split('\n')
        .filter(|line| !(line.is_empty() || line.starts_with('#')))
        .map(|line| {
            let mut subitems = line.split('\t');
            let pointer = subitems.next().unwrap_or_default();
            let code_point = subitems
                .next()
                .unwrap_or_else(|| panic!("index line without a TAB: {line:?}"));
            let pointer: u32 = pointer
                .trim_matches(' ')
                .parse()
                .unwrap_or_else(|_| panic!("index pointer is not decimal: {line:?}"));
            let hex = code_point
                .strip_prefix("0x")
                .unwrap_or_else(|| panic!("index code point lacks 0x: {line:?}"));
            let value = u32::from_str_radix(hex, 16)
                .unwrap_or_else(|_| panic!("index code point is not hexadecimal: {line:?}"));
            let code_point = char::from_u32(value)
                .unwrap_or_else(|| panic!("index code point is not a scalar value: {line:?}"));
            (pointer, code_point)
        })
        .collect()
}

/// Parses `contents` into an index, once.
fn load(cell: &'static OnceLock<Index>, contents: &str) -> &'static Index {
    cell.get_or_init(|| Index::new(parse(contents)))
}

/// The parsed index `index`.
fn get(index: IndexName) -> &'static Index {
    static BIG5: OnceLock<Index> = OnceLock::new();
    static EUC_KR: OnceLock<Index> = OnceLock::new();
    static GB18030: OnceLock<Index> = OnceLock::new();
    static GB18030_RANGES: OnceLock<Index> = OnceLock::new();
    static JIS0208: OnceLock<Index> = OnceLock::new();
    static JIS0212: OnceLock<Index> = OnceLock::new();
    static ISO_2022_JP_KATAKANA: OnceLock<Index> = OnceLock::new();
    static SINGLE_BYTE_INDEXES: OnceLock<HashMap<&'static str, Index>> = OnceLock::new();
    match index {
        IndexName::Big5 => load(&BIG5, include_str!("../../tables/whatwg/index-big5.txt")),
        IndexName::EucKr => load(&EUC_KR, include_str!("../../tables/whatwg/index-euc-kr.txt")),
        IndexName::Gb18030 => load(&GB18030, include_str!("../../tables/whatwg/index-gb18030.txt")),
        IndexName::Gb18030Ranges => load(
            &GB18030_RANGES,
            include_str!("../../tables/whatwg/index-gb18030-ranges.txt"),
        ),
        IndexName::Jis0208 => load(&JIS0208, include_str!("../../tables/whatwg/index-jis0208.txt")),
        IndexName::Jis0212 => load(&JIS0212, include_str!("../../tables/whatwg/index-jis0212.txt")),
        IndexName::Iso2022JpKatakana => load(
            &ISO_2022_JP_KATAKANA,
            include_str!("../../tables/whatwg/index-iso-2022-jp-katakana.txt"),
        ),
        IndexName::SingleByte(encoding) => SINGLE_BYTE_INDEXES
            .get_or_init(|| {
                SINGLE_BYTE
                    .iter()
                    .map(|&(name, contents)| (name, Index::new(parse(contents))))
                    .collect()
            })
            .get(encoding.name())
            .unwrap_or_else(|| panic!("{} is not a single-byte encoding", encoding.name())),
    }
}

/// The entries of `index`, pointer and code point, in the order of its file.
///
/// ```
/// use simdenc::spec::index::{entries, IndexName};
/// let ranges = entries(IndexName::Gb18030Ranges);
/// assert_eq!(ranges.len(), 207);
/// assert_eq!(ranges[0], (0, '\u{80}'));
/// ```
pub fn entries(index: IndexName) -> &'static [(u32, char)] {
    &get(index).entries
}

/// "The index code point for pointer in index": the code point corresponding to `pointer`
/// in `index`, or `None` (null) if `pointer` is not in `index`.
///
/// <https://encoding.spec.whatwg.org/#index-code-point>
///
/// ```
/// use simdenc::spec::index::{index_code_point, IndexName};
/// assert_eq!(index_code_point(0, IndexName::SingleByte(simdenc::WINDOWS_1252)), Some('€'));
/// assert_eq!(index_code_point(1, IndexName::SingleByte(simdenc::WINDOWS_1252)), Some('\u{81}'));
/// assert_eq!(index_code_point(8836, IndexName::Jis0208), None);
/// ```
pub fn index_code_point(pointer: u32, index: IndexName) -> Option<char> {
    get(index).code_point_by_pointer.get(&pointer).copied()
}

/// "The index pointer for codePoint in index": the *first* pointer corresponding to
/// `code_point` in `index`, or `None` (null) if `code_point` is not in `index`.
///
/// <https://encoding.spec.whatwg.org/#index-pointer>
///
/// ```
/// use simdenc::spec::index::{index_pointer, IndexName};
/// // U+3000 is at pointers 6176 and 6555 of index gb18030: the first one counts.
/// assert_eq!(index_pointer('\u{3000}', IndexName::Gb18030), Some(6176));
/// assert_eq!(index_pointer('a', IndexName::Gb18030), None);
/// ```
pub fn index_pointer(code_point: char, index: IndexName) -> Option<u32> {
    get(index).first_pointer_by_code_point.get(&code_point).copied()
}

/// "The index gb18030 ranges code point for pointer".
///
/// <https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point>
///
/// ```
/// use simdenc::spec::index::index_gb18030_ranges_code_point;
/// assert_eq!(index_gb18030_ranges_code_point(0), Some('\u{80}'));
/// assert_eq!(index_gb18030_ranges_code_point(7457), Some('\u{E7C7}'));
/// assert_eq!(index_gb18030_ranges_code_point(189000), Some('\u{10000}'));
/// assert_eq!(index_gb18030_ranges_code_point(39420), None);
/// ```
pub fn index_gb18030_ranges_code_point(pointer: u32) -> Option<char> {
    // 1. If pointer is greater than 39419 and less than 189000, or pointer is greater than
    //    1237575, then return null.
    if (pointer > 39419 && pointer < 189000) || pointer > 1237575 {
        return None;
    }
    // 2. If pointer is 7457, then return code point U+E7C7.
    if pointer == 7457 {
        return Some('\u{E7C7}');
    }
    // 3. Let offset be the last pointer in index gb18030 ranges that is less than or equal to
    //    pointer and let codePointOffset be its corresponding code point.
    let (&offset, &code_point_offset) = get(IndexName::Gb18030Ranges)
        .code_point_by_pointer
        .range(..=pointer)
        .next_back()
        .expect("index gb18030 ranges starts at pointer 0");
    // 4. Return a code point whose value is codePointOffset + pointer − offset.
    let value = u32::from(code_point_offset) + pointer - offset;
    Some(char::from_u32(value).unwrap_or_else(|| {
        panic!("index gb18030 ranges code point, step 4: {value:#X} is not a scalar value")
    }))
}

/// "The index gb18030 ranges pointer for codePoint".
///
/// <https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer>
///
/// # Panics
///
/// If `code_point` is below U+0080, the first code point of index gb18030 ranges: step 2 has
/// no "last code point … less than or equal to codePoint" then (the gb18030 encoder never
/// asks, it returns ASCII code points as bytes first).
///
/// ```
/// use simdenc::spec::index::index_gb18030_ranges_pointer;
/// assert_eq!(index_gb18030_ranges_pointer('\u{80}'), 0);
/// assert_eq!(index_gb18030_ranges_pointer('\u{E7C7}'), 7457);
/// assert_eq!(index_gb18030_ranges_pointer('\u{FFFF}'), 39419);
/// assert_eq!(index_gb18030_ranges_pointer('\u{10FFFF}'), 1237575);
/// ```
pub fn index_gb18030_ranges_pointer(code_point: char) -> u32 {
    // 1. If codePoint is U+E7C7, then return pointer 7457.
    if code_point == '\u{E7C7}' {
        return 7457;
    }
    // 2. Let offset be the last code point in index gb18030 ranges that is less than or equal
    //    to codePoint and let pointerOffset be its corresponding pointer.
    let (&offset, &pointer_offset) = get(IndexName::Gb18030Ranges)
        .first_pointer_by_code_point
        .range(..=code_point)
        .next_back()
        .unwrap_or_else(|| {
            panic!("index gb18030 ranges pointer: no code point ≤ {code_point:?} in the index")
        });
    // 3. Return a pointer whose value is pointerOffset + codePoint − offset.
    pointer_offset + u32::from(code_point) - u32::from(offset)
}

/// "The index Shift_JIS pointer for codePoint": the index pointer in index jis0208 excluding
/// the entries whose pointer is in the range 8272 to 8835, inclusive.
///
/// <https://encoding.spec.whatwg.org/#index-shift_jis-pointer>
///
/// ```
/// use simdenc::spec::index::{index_pointer, index_shift_jis_pointer, IndexName};
/// // U+7E8A is at pointer 8272 (NEC selected IBM extensions), then at 10744 (IBM extensions).
/// assert_eq!(index_pointer('\u{7E8A}', IndexName::Jis0208), Some(8272));
/// assert_eq!(index_shift_jis_pointer('\u{7E8A}'), Some(10744));
/// ```
pub fn index_shift_jis_pointer(code_point: char) -> Option<u32> {
    static INDEX: OnceLock<Index> = OnceLock::new();
    // 1. Let index be index jis0208 excluding all entries whose pointer is in the range 8272
    //    to 8835, inclusive.
    let index =
        INDEX.get_or_init(|| get(IndexName::Jis0208).excluding(|pointer| (8272..=8835).contains(&pointer)));
    // 2. Return the index pointer for codePoint in index.
    index.first_pointer_by_code_point.get(&code_point).copied()
}

/// "The index Big5 pointer for codePoint": the index pointer in index Big5 excluding the
/// entries whose pointer is less than (0xA1 − 0x81) × 157, except that the *last* pointer is
/// used for U+2550, U+255E, U+2561, U+256A, U+5341 and U+5345.
///
/// <https://encoding.spec.whatwg.org/#index-big5-pointer>
///
/// ```
/// use simdenc::spec::index::index_big5_pointer;
/// assert_eq!(index_big5_pointer('\u{2550}'), Some(18991));
/// assert_eq!(index_big5_pointer('\u{3000}'), Some(5024));
/// ```
pub fn index_big5_pointer(code_point: char) -> Option<u32> {
    static INDEX: OnceLock<Index> = OnceLock::new();
    // 1. Let index be index Big5 excluding all entries whose pointer is less than
    //    (0xA1 − 0x81) × 157.
    let index = INDEX.get_or_init(|| get(IndexName::Big5).excluding(|pointer| pointer < (0xA1 - 0x81) * 157));
    // 2. If codePoint is U+2550 (═), U+255E (╞), U+2561 (╡), U+256A (╪), U+5341 (十), or
    //    U+5345 (卅), then return the last pointer corresponding to codePoint in index.
    if matches!(
        code_point,
        '\u{2550}' | '\u{255E}' | '\u{2561}' | '\u{256A}' | '\u{5341}' | '\u{5345}'
    ) {
        return index.last_pointer_by_code_point.get(&code_point).copied();
    }
    // 3. Return the index pointer for codePoint in index.
    index.first_pointer_by_code_point.get(&code_point).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_skips_comments_and_empty_lines_and_trims_leading_spaces() {
        let contents = "# comment\n#\n\n    0\t0x3000\t\u{3000} (IDEOGRAPHIC SPACE)\n\n 12\t0x20AC\n\
                        # 13\t0x0041\n123\t0x1F600\textra\tsubitems\n";
        assert_eq!(parse(contents), [(0, '\u{3000}'), (12, '€'), (123, '\u{1F600}')]);
    }

    #[test]
    fn parse_splits_on_lf_only() {
        // A line of a file with CRLF line ends would keep its CR in the last subitem, which is
        // "not relevant" when there are three subitems.
        assert_eq!(parse("1\t0x41\tA\r\n2\t0x42\tB\r\n"), [(1, 'A'), (2, 'B')]);
    }

    #[test]
    #[should_panic(expected = "not decimal")]
    fn parse_rejects_a_non_decimal_pointer() {
        parse("0x1\t0x41\n");
    }

    #[test]
    #[should_panic(expected = "pointers are unique")]
    fn index_rejects_duplicate_pointers() {
        Index::new(parse("1\t0x41\n1\t0x42\n"));
    }

    #[test]
    fn index_pointer_is_first_and_last_pointer_is_last() {
        let index = Index::new(parse("5\t0x41\n3\t0x42\n7\t0x41\n"));
        assert_eq!(index.first_pointer_by_code_point[&'A'], 5);
        assert_eq!(index.last_pointer_by_code_point[&'A'], 7);
        assert_eq!(index.excluding(|p| p == 5).first_pointer_by_code_point[&'A'], 7);
    }

    #[test]
    fn every_index_file_parses_with_the_expected_sizes() {
        let sizes = [
            (IndexName::Big5, 18590),
            (IndexName::EucKr, 17048),
            (IndexName::Gb18030, 23940),
            (IndexName::Gb18030Ranges, 207),
            (IndexName::Jis0208, 7724),
            (IndexName::Jis0212, 6067),
            (IndexName::Iso2022JpKatakana, 63),
        ];
        for (index, size) in sizes {
            assert_eq!(entries(index).len(), size, "{index:?}");
        }
        for encoding in crate::Encoding::all() {
            if is_single_byte_encoding(encoding) {
                let entries = entries(IndexName::SingleByte(encoding));
                assert!(entries.iter().all(|&(pointer, _)| pointer < 128));
            }
        }
        assert_eq!(
            crate::Encoding::all()
                .iter()
                .filter(|e| is_single_byte_encoding(e))
                .count(),
            28
        );
    }

    #[test]
    fn gb18030_ranges_are_increasing_in_both_columns() {
        // Makes "the last pointer (code point) in index gb18030 ranges that is less than or
        // equal to …" the greatest such one, which is what the ordered maps find.
        let ranges = entries(IndexName::Gb18030Ranges);
        for pair in ranges.windows(2) {
            assert!(pair[0].0 < pair[1].0 && pair[0].1 < pair[1].1, "{pair:?}");
        }
    }
}
