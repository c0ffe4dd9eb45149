//! `Serialize` and `Deserialize` for `&'static Encoding` (the `serde` feature), as in
//! encoding_rs 0.8.44: an encoding serializes as its [name](Encoding::name), a string, and
//! deserializes from a string that is any [label](Encoding::for_label) of the standard (so
//! names, which are labels too, round-trip; `"latin1"` gives windows-1252). Any other string is
//! a custom error "invalid encoding label: ...", which needs no allocation.
//!
//! ```
//! use simdenc::{Encoding, SHIFT_JIS, WINDOWS_1252};
//! assert_eq!(serde_json::to_string(SHIFT_JIS).unwrap(), r#""Shift_JIS""#);
//! let enc: &'static Encoding = serde_json::from_str(r#"" Latin1 ""#).unwrap();
//! assert_eq!(enc, WINDOWS_1252);
//! ```
#![forbid(unsafe_code)]

use core::fmt;

use ::serde::de::{Error, Visitor};
use ::serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::encoding::Encoding;

impl Serialize for Encoding {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

/// Takes a string and looks it up as a label.
struct EncodingVisitor;

impl Visitor<'_> for EncodingVisitor {
    type Value = &'static Encoding;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a valid encoding label")
    }

    fn visit_str<E: Error>(self, value: &str) -> Result<&'static Encoding, E> {
        // encoding_rs formats this message with `alloc::format!` (and without `alloc` leaves
        // the label out); `format_args!` is `Display` as it is, so every build names it.
        Encoding::for_label(value.as_bytes())
            .ok_or_else(|| E::custom(format_args!("invalid encoding label: {value}")))
    }
}

impl<'de> Deserialize<'de> for &'static Encoding {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<&'static Encoding, D::Error> {
        deserializer.deserialize_str(EncodingVisitor)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use crate::{Encoding, ISO_8859_8_I, REPLACEMENT, UTF_8, WINDOWS_1252};

    #[test]
    fn every_encoding_round_trips_by_name() {
        for &enc in Encoding::all() {
            let json = serde_json::to_string(enc).unwrap();
            assert_eq!(json, alloc::format!("\"{}\"", enc.name()));
            let back: &'static Encoding = serde_json::from_str(&json).unwrap();
            assert_eq!(back, enc);
        }
        // Through a reference and inside other values, as a derived impl sees it.
        let list: Vec<&'static Encoding> =
            serde_json::from_str(r#"["utf8", "ISO-8859-8-I", "csisolatin1"]"#).unwrap();
        assert_eq!(list, [UTF_8, ISO_8859_8_I, WINDOWS_1252]);
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            r#"["UTF-8","ISO-8859-8-I","windows-1252"]"#
        );
    }

    #[test]
    fn labels_deserialize_as_for_label_does() {
        // Every label, with whitespace and another case; replacement's labels give it, as
        // `for_label` does.
        for &enc in Encoding::all() {
            for label in enc.labels() {
                let json = alloc::format!("\"\\t{} \"", label.to_ascii_uppercase());
                let got: &'static Encoding = serde_json::from_str(&json).unwrap();
                assert_eq!(got, enc, "{label}");
            }
        }
        let got: &'static Encoding = serde_json::from_str(r#""iso-2022-kr""#).unwrap();
        assert_eq!(got, REPLACEMENT);
    }

    #[test]
    fn unknown_labels_and_other_types_are_errors() {
        let err = serde_json::from_str::<&'static Encoding>(r#""utf-7""#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid encoding label: utf-7 at line 1 column 7"
        );
        let err = serde_json::from_str::<&'static Encoding>("8").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid type: integer `8`, expected a valid encoding label at line 1 column 1"
        );
        // A string with escapes is visited as an owned string, which still works.
        let got: &'static Encoding = serde_json::from_str(r#""utf\u002d8""#).unwrap();
        assert_eq!(got, UTF_8);
    }
}
