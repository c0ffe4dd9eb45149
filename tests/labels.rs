//! Labels and encodings against the standard's `encodings.json`, and the fast
//! `Encoding::for_label` against the literal "get an encoding" of `simdenc::spec`.

use quickcheck::{QuickCheck, TestResult};
use simdenc::{Encoding, spec};

/// `(name, labels)` from the vendored `encodings.json`, read independently of the generator.
fn standard_table() -> Vec<(String, Vec<String>)> {
    let json: serde_json::Value =
        serde_json::from_str(include_str!("../tables/whatwg/encodings.json")).expect("encodings.json");
    let mut out = Vec::new();
    for group in json.as_array().unwrap() {
        for enc in group["encodings"].as_array().unwrap() {
            let labels = enc["labels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap().to_owned())
                .collect();
            out.push((enc["name"].as_str().unwrap().to_owned(), labels));
        }
    }
    out
}

#[test]
fn forty_encodings_in_the_standards_order_with_their_labels() {
    let table = standard_table();
    assert_eq!(table.len(), 40);
    assert_eq!(table.iter().map(|t| t.1.len()).sum::<usize>(), 228);
    let all = Encoding::all();
    assert_eq!(all.len(), table.len());
    for (enc, (name, labels)) in all.iter().zip(&table) {
        assert_eq!(enc.name(), name);
        assert_eq!(
            enc.labels(),
            &labels.iter().map(String::as_str).collect::<Vec<_>>()[..]
        );
        // "ASCII-lowercasing its name yields one of its labels."
        assert!(labels.contains(&name.to_ascii_lowercase()), "{name}");
    }
}

#[test]
fn statics_have_encoding_rs_names() {
    let pairs: [(&Encoding, &str); 12] = [
        (simdenc::UTF_8, "UTF-8"),
        (simdenc::IBM866, "IBM866"),
        (simdenc::ISO_8859_8_I, "ISO-8859-8-I"),
        (simdenc::MACINTOSH, "macintosh"),
        (simdenc::X_MAC_CYRILLIC, "x-mac-cyrillic"),
        (simdenc::GBK, "GBK"),
        (simdenc::GB18030, "gb18030"),
        (simdenc::BIG5, "Big5"),
        (simdenc::SHIFT_JIS, "Shift_JIS"),
        (simdenc::REPLACEMENT, "replacement"),
        (simdenc::UTF_16LE, "UTF-16LE"),
        (simdenc::X_USER_DEFINED, "x-user-defined"),
    ];
    for (enc, name) in pairs {
        assert_eq!(enc.name(), name);
    }
}

#[test]
fn every_label_with_whitespace_and_case_variants() {
    for (name, labels) in standard_table() {
        for label in &labels {
            let expect = Encoding::all()
                .iter()
                .copied()
                .find(|e| e.name() == name)
                .unwrap();
            let upper = label.to_ascii_uppercase();
            let mixed: String = label
                .chars()
                .enumerate()
                .map(|(i, c)| if i % 2 == 0 { c.to_ascii_uppercase() } else { c })
                .collect();
            for variant in [label.clone(), upper, mixed] {
                for ws in ["", "\t", "\n", "\x0C", "\r", " ", " \t\n\x0C\r "] {
                    let padded = format!("{ws}{variant}{ws}");
                    assert_eq!(Encoding::for_label(padded.as_bytes()), Some(expect), "{padded:?}");
                    assert_eq!(spec::get_an_encoding(&padded), Some(expect), "spec {padded:?}");
                }
                // Not ASCII whitespace: U+000B and U+00A0.
                for not_ws in ["\x0B", "\u{A0}"] {
                    let padded = format!("{not_ws}{variant}");
                    assert_eq!(Encoding::for_label(padded.as_bytes()), None, "{padded:?}");
                }
            }
            // Inner whitespace is not removed.
            if label.len() > 1 {
                let inner = format!("{} {}", &label[..1], &label[1..]);
                assert_eq!(Encoding::for_label(inner.as_bytes()), None);
            }
        }
    }
}

#[test]
fn non_ascii_never_matches() {
    // U+212A KELVIN SIGN lowercases to 'k' in Unicode, but not in ASCII.
    assert_eq!(Encoding::for_label("\u{212A}oi8-r".as_bytes()), None);
    assert_eq!(spec::get_an_encoding("\u{212A}oi8-r"), None);
    // U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE, U+017F LATIN SMALL LETTER LONG S.
    assert_eq!(Encoding::for_label("\u{130}so-8859-1".as_bytes()), None);
    assert_eq!(Encoding::for_label("\u{17F}jis".as_bytes()), None);
    assert_eq!(Encoding::for_label(b"utf-8\x00"), None);
    assert_eq!(Encoding::for_label(b""), None);
    assert_eq!(Encoding::for_label(&[0xFF; 40]), None);
}

#[test]
fn every_short_ascii_string_agrees_with_spec() {
    let mut checked = 0;
    let mut buf = Vec::new();
    for len in 0..=3usize {
        let alphabet: Vec<u8> = if len <= 2 {
            (0..128).collect()
        } else {
            b"lu86- \t".to_vec()
        };
        let count = alphabet.len().pow(len as u32);
        for mut n in 0..count {
            buf.clear();
            for _ in 0..len {
                buf.push(alphabet[n % alphabet.len()]);
                n /= alphabet.len();
            }
            let s = std::str::from_utf8(&buf).unwrap();
            assert_eq!(Encoding::for_label(&buf), spec::get_an_encoding(s), "{s:?}");
            checked += 1;
        }
    }
    assert!(checked > 16_000);
}

#[test]
fn every_label_with_one_byte_changed_agrees_with_spec() {
    for (_, labels) in standard_table() {
        for label in labels {
            let bytes = label.as_bytes();
            for i in 0..bytes.len() {
                for b in 0..=255u8 {
                    let mut v = bytes.to_vec();
                    v[i] = b;
                    let fast = Encoding::for_label(&v);
                    match std::str::from_utf8(&v) {
                        Ok(s) => assert_eq!(fast, spec::get_an_encoding(s), "{s:?}"),
                        Err(_) => assert_eq!(fast, None),
                    }
                }
            }
        }
    }
}

#[test]
fn random_strings_agree_with_spec() {
    fn prop(s: String) -> TestResult {
        TestResult::from_bool(Encoding::for_label(s.as_bytes()) == spec::get_an_encoding(&s))
    }
    QuickCheck::new()
        .tests(20_000)
        .quickcheck(prop as fn(String) -> TestResult);
    fn prop_label(i: usize, pad: u8, upper: bool) -> bool {
        let labels: Vec<&str> = Encoding::all()
            .iter()
            .flat_map(|e| e.labels().iter().copied())
            .collect();
        let label = labels[i % labels.len()];
        let ws = [b' ', b'\t', b'\n', 0x0C, b'\r', 0x0B, b'x'][usize::from(pad) % 7];
        let mut v = vec![ws];
        v.extend(
            if upper {
                label.to_ascii_uppercase()
            } else {
                label.to_owned()
            }
            .bytes(),
        );
        let s = String::from_utf8(v).unwrap();
        Encoding::for_label(s.as_bytes()) == spec::get_an_encoding(&s)
    }
    QuickCheck::new()
        .tests(5_000)
        .quickcheck(prop_label as fn(usize, u8, bool) -> bool);
}

#[test]
fn no_replacement_variant_and_bom_and_output_encodings() {
    for label in [
        "csiso2022kr",
        "hz-gb-2312",
        "iso-2022-cn",
        "iso-2022-cn-ext",
        "iso-2022-kr",
        "replacement",
    ] {
        assert_eq!(
            Encoding::for_label(label.as_bytes()),
            Some(simdenc::REPLACEMENT),
            "{label}"
        );
        assert_eq!(
            Encoding::for_label_no_replacement(label.as_bytes()),
            None,
            "{label}"
        );
    }
    for enc in Encoding::all() {
        assert_eq!(
            enc.output_encoding(),
            spec::get_an_output_encoding(enc),
            "{}",
            enc.name()
        );
        assert_eq!(
            enc.can_encode_everything(),
            enc.output_encoding() == simdenc::UTF_8
        );
    }
    assert_eq!(Encoding::for_bom(b"\xEF\xBB\xBF"), Some((simdenc::UTF_8, 3)));
    assert_eq!(Encoding::for_bom(b"\xFE\xFF\x00"), Some((simdenc::UTF_16BE, 2)));
    assert_eq!(Encoding::for_bom(b"\xFF\xFE"), Some((simdenc::UTF_16LE, 2)));
    assert_eq!(Encoding::for_bom(b"\xFF"), None);
    assert_eq!(Encoding::for_bom(b"\xFE\xFE"), None);
    let single: Vec<&str> = Encoding::all()
        .iter()
        .filter(|e| e.is_single_byte())
        .map(|e| e.name())
        .collect();
    assert_eq!(single.len(), 29);
    let not_ascii: Vec<&str> = Encoding::all()
        .iter()
        .filter(|e| !e.is_ascii_compatible())
        .map(|e| e.name())
        .collect();
    assert_eq!(not_ascii, ["ISO-2022-JP", "replacement", "UTF-16BE", "UTF-16LE"]);
}
