//! [`Encoding`]: the 40 encodings of the standard, their names and labels.
//!
//! The statics themselves (`UTF_8`, `SHIFT_JIS`, …) are generated from `encodings.json` into
//! `src/tables/encodings.rs`; this file holds the type and the label lookup ("get an
//! encoding"). It depends on the generated tables only.

use core::fmt;
use core::hash::{Hash, Hasher};

use crate::tables::SingleByteTables;
use crate::tables::encodings::{ALL, ISO_2022_JP, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE};
use crate::tables::labels::{LABELS, LENGTH_STARTS, MAX_LABEL_LEN};

/// Which algorithm family an encoding belongs to, with its table where it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Utf8,
    Utf16Be,
    Utf16Le,
    /// A legacy single-byte encoding, with its index and its encoder's inverse.
    SingleByte(&'static SingleByteTables),
    Gbk,
    Gb18030,
    Big5,
    EucJp,
    Iso2022Jp,
    ShiftJis,
    EucKr,
    Replacement,
    XUserDefined,
}

/// An encoding of the WHATWG Encoding Standard.
///
/// There are exactly 40 values of this type, the statics [`UTF_8`](crate::UTF_8),
/// [`SHIFT_JIS`](crate::SHIFT_JIS), … (the same names as in encoding_rs). Compare them by
/// reference identity: `==` does exactly that.
///
/// ```
/// use simdenc::{Encoding, WINDOWS_1252};
/// let enc = Encoding::for_label(b" Latin1 ").unwrap();
/// assert_eq!(enc, WINDOWS_1252);
/// assert_eq!(enc.name(), "windows-1252");
/// ```
pub struct Encoding {
    /// Read by `serde_impls` too, whose `&self` is not `&'static self` as `name()` wants.
    pub(crate) name: &'static str,
    index: u8,
    kind: Kind,
    labels: &'static [&'static str],
}

impl Encoding {
    /// Used by the generated statics only.
    pub(crate) const fn new(
        name: &'static str,
        index: u8,
        kind: Kind,
        labels: &'static [&'static str],
    ) -> Encoding {
        Encoding {
            name,
            index,
            kind,
            labels,
        }
    }

    /// The algorithm family and table of this encoding.
    #[inline]
    pub(crate) const fn kind(&self) -> Kind {
        self.kind
    }

    /// This encoding's position in [`Encoding::all`].
    #[inline]
    pub(crate) const fn index(&self) -> u8 {
        self.index
    }

    /// "Get an encoding": the encoding for `label`, or `None`.
    ///
    /// Leading and trailing ASCII whitespace (U+0009, U+000A, U+000C, U+000D, U+0020) is
    /// removed, then the label is matched ASCII case-insensitively against the 228 labels of the
    /// standard. Bytes outside ASCII never match anything: "\u{212A}oi8-r" (with a KELVIN
    /// SIGN) is not KOI8-R. No allocation; the lookup is a binary search within the labels of
    /// the same length.
    ///
    /// Like encoding_rs, this returns [`REPLACEMENT`](crate::REPLACEMENT) for the labels that
    /// map to it (`iso-2022-kr`, `hz-gb-2312`, …); see [`Encoding::for_label_no_replacement`].
    ///
    /// ```
    /// use simdenc::{Encoding, KOI8_R, SHIFT_JIS};
    /// assert_eq!(Encoding::for_label(b"\t sjis\n"), Some(SHIFT_JIS));
    /// assert_eq!(Encoding::for_label(b"KOI8-R"), Some(KOI8_R));
    /// assert_eq!(Encoding::for_label("\u{212A}oi8-r".as_bytes()), None);
    /// assert_eq!(Encoding::for_label(b"utf-7"), None);
    /// ```
    pub fn for_label(label: &[u8]) -> Option<&'static Encoding> {
        let label = trim_ascii_whitespace(label);
        if label.len() > MAX_LABEL_LEN {
            return None;
        }
        let mut lower = [0u8; MAX_LABEL_LEN];
        let lower = &mut lower[..label.len()];
        for (dst, &src) in lower.iter_mut().zip(label) {
            // Non-ASCII bytes stay as they are and so match no label, all of which are ASCII.
            *dst = src.to_ascii_lowercase();
        }
        let start = usize::from(LENGTH_STARTS[label.len()]);
        let end = usize::from(LENGTH_STARTS[label.len() + 1]);
        let block = &LABELS[start..end];
        let found = block
            .binary_search_by(|&(candidate, _)| candidate.cmp(lower))
            .ok()?;
        Some(ALL[usize::from(block[found].1)])
    }

    /// Like [`Encoding::for_label`], but `None` for labels of the replacement encoding.
    ///
    /// This is what the standard's `TextDecoder` constructor needs: it throws a `RangeError`
    /// both for unknown labels and for those of the replacement encoding.
    ///
    /// ```
    /// use simdenc::{Encoding, REPLACEMENT};
    /// assert_eq!(Encoding::for_label(b"iso-2022-kr"), Some(REPLACEMENT));
    /// assert_eq!(Encoding::for_label_no_replacement(b"iso-2022-kr"), None);
    /// assert!(Encoding::for_label_no_replacement(b"utf-8").is_some());
    /// ```
    pub fn for_label_no_replacement(label: &[u8]) -> Option<&'static Encoding> {
        Encoding::for_label(label).filter(|&enc| enc != REPLACEMENT)
    }

    /// "BOM sniff": the encoding a byte order mark at the start of `buffer` selects, and the
    /// length of that mark; `None` if `buffer` does not start with one.
    ///
    /// ```
    /// use simdenc::{Encoding, UTF_8, UTF_16LE};
    /// assert_eq!(Encoding::for_bom(b"\xEF\xBB\xBFabc"), Some((UTF_8, 3)));
    /// assert_eq!(Encoding::for_bom(b"\xFF\xFEa\x00"), Some((UTF_16LE, 2)));
    /// assert_eq!(Encoding::for_bom(b"\xEF\xBB"), None);
    /// ```
    pub fn for_bom(buffer: &[u8]) -> Option<(&'static Encoding, usize)> {
        match buffer {
            [0xEF, 0xBB, 0xBF, ..] => Some((UTF_8, 3)),
            [0xFE, 0xFF, ..] => Some((UTF_16BE, 2)),
            [0xFF, 0xFE, ..] => Some((UTF_16LE, 2)),
            _ => None,
        }
    }

    /// The standard's name of this encoding, e.g. `"Shift_JIS"` or `"ISO-8859-8-I"`.
    ///
    /// ```
    /// assert_eq!(simdenc::SHIFT_JIS.name(), "Shift_JIS");
    /// ```
    #[inline]
    pub fn name(&'static self) -> &'static str {
        self.name
    }

    /// Every label of this encoding, lowercase, in the standard's order.
    ///
    /// ```
    /// assert_eq!(simdenc::GB18030.labels(), ["gb18030"]);
    /// assert!(simdenc::WINDOWS_1252.labels().contains(&"latin1"));
    /// ```
    #[inline]
    pub fn labels(&'static self) -> &'static [&'static str] {
        self.labels
    }

    /// All 40 encodings, in the order of the standard's table of names and labels.
    ///
    /// ```
    /// let all = simdenc::Encoding::all();
    /// assert_eq!(all.len(), 40);
    /// assert_eq!(all[0], simdenc::UTF_8);
    /// let labels: usize = all.iter().map(|e| e.labels().len()).sum();
    /// assert_eq!(labels, 228);
    /// ```
    #[inline]
    pub fn all() -> &'static [&'static Encoding] {
        &ALL
    }

    /// "Get an output encoding": UTF-8 for replacement, UTF-16BE and UTF-16LE; otherwise
    /// this encoding.
    ///
    /// ```
    /// use simdenc::{UTF_8, UTF_16LE, SHIFT_JIS};
    /// assert_eq!(UTF_16LE.output_encoding(), UTF_8);
    /// assert_eq!(SHIFT_JIS.output_encoding(), SHIFT_JIS);
    /// ```
    #[inline]
    pub fn output_encoding(&'static self) -> &'static Encoding {
        match self.kind {
            Kind::Replacement | Kind::Utf16Be | Kind::Utf16Le => UTF_8,
            _ => self,
        }
    }

    /// Whether every byte decodes to exactly one code point: the 28 legacy single-byte
    /// encodings and x-user-defined.
    ///
    /// ```
    /// assert!(simdenc::WINDOWS_1251.is_single_byte());
    /// assert!(simdenc::X_USER_DEFINED.is_single_byte());
    /// assert!(!simdenc::UTF_8.is_single_byte());
    /// ```
    #[inline]
    pub fn is_single_byte(&'static self) -> bool {
        matches!(self.kind, Kind::SingleByte(_) | Kind::XUserDefined)
    }

    /// Whether bytes 0x00–0x7F decode to U+0000–U+007F and back, alone, in every state.
    ///
    /// False for UTF-16BE, UTF-16LE, ISO-2022-JP (its escape sequences are ASCII bytes) and
    /// replacement; true for all others.
    ///
    /// ```
    /// assert!(simdenc::SHIFT_JIS.is_ascii_compatible());
    /// assert!(!simdenc::ISO_2022_JP.is_ascii_compatible());
    /// ```
    #[inline]
    pub fn is_ascii_compatible(&'static self) -> bool {
        !(self == REPLACEMENT || self == UTF_16BE || self == UTF_16LE || self == ISO_2022_JP)
    }

    /// Whether this encoding's encoder can encode every scalar value: true exactly when the
    /// output encoding is UTF-8.
    ///
    /// gb18030 is not among them: the standard's gb18030 encoder returns an error for U+E5E5.
    ///
    /// ```
    /// assert!(simdenc::UTF_16BE.can_encode_everything());
    /// assert!(!simdenc::GB18030.can_encode_everything());
    /// ```
    #[inline]
    pub fn can_encode_everything(&'static self) -> bool {
        self.output_encoding() == UTF_8
    }
}

/// Removes ASCII whitespace as the Infra standard defines it (TAB, LF, FF, CR, SPACE).
fn trim_ascii_whitespace(mut s: &[u8]) -> &[u8] {
    const fn ws(b: u8) -> bool {
        matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
    }
    while let [first, rest @ ..] = s {
        if !ws(*first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !ws(*last) {
            break;
        }
        s = rest;
    }
    s
}

impl PartialEq for Encoding {
    /// Identity: there is one value per encoding.
    #[inline]
    fn eq(&self, other: &Encoding) -> bool {
        core::ptr::eq(self, other)
    }
}

impl Eq for Encoding {}

impl Hash for Encoding {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

/// As in encoding_rs 0.8.44: the name.
///
/// ```
/// assert_eq!(format!("{:?}", simdenc::UTF_8), r#"Encoding { name: "UTF-8", .. }"#);
/// ```
impl fmt::Debug for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encoding")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_infra_ascii_whitespace_only() {
        assert_eq!(trim_ascii_whitespace(b"\t\n\x0C\r utf8 \r\x0C\n\t"), b"utf8");
        // U+000B VERTICAL TAB is not ASCII whitespace in Infra.
        assert_eq!(trim_ascii_whitespace(b"\x0Butf8"), b"\x0Butf8");
        assert_eq!(trim_ascii_whitespace(b"   "), b"");
    }

    #[test]
    fn index_is_position_in_all() {
        for (i, enc) in Encoding::all().iter().enumerate() {
            assert_eq!(usize::from(enc.index), i);
        }
    }
}
