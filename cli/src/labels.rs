//! `simdenc labels` and label resolution with suggestions for unknown labels, and the
//! command line's extension: iconv's, ICU's and Python's common names that are not labels of
//! the standard ([`ALIASES`]).

use simdenc::Encoding;

use crate::errors::{Failure, print_stdout};

/// Names that iconv (glibc), ICU or Python's codecs give encodings of the standard and that
/// are not among the standard's labels: `(alias, name of the encoding)`. An extension of the
/// command line only (the library's `Encoding::for_label` is the standard's "get an
/// encoding"). Each maps to the encoding of the standard that decodes the same text, a
/// superset where the other is a subset (EUC-CN and GB2312 are decoded by GBK, as browsers
/// do; CP949/UHC by EUC-KR, which is Windows's code page 949 in the standard).
///
/// Not here, on purpose: ISO-8859-1, which is a label of windows-1252 in the standard (bytes
/// 0x80 to 0x9F are windows-1252's characters, not iconv's C1 controls), and names of
/// encodings the standard does not have (UTF-32, EBCDIC, Shift_JISX0213, ...).
pub const ALIASES: &[(&str, &str)] = &[
    // Korean.
    ("cp949", "EUC-KR"),
    ("ms949", "EUC-KR"),
    ("uhc", "EUC-KR"),
    ("euc_kr", "EUC-KR"),
    ("euckr", "EUC-KR"),
    ("ks_c_5601", "EUC-KR"),
    // Simplified Chinese.
    ("euc-cn", "GBK"),
    ("euc_cn", "GBK"),
    ("euccn", "GBK"),
    ("cp936", "GBK"),
    ("ms936", "GBK"),
    ("windows-936", "GBK"),
    ("gb2312-80", "GBK"),
    ("gb2312-1980", "GBK"),
    ("gb-2312", "GBK"),
    ("gb-18030", "gb18030"),
    ("gb18030-2000", "gb18030"),
    ("gb18030-2005", "gb18030"),
    ("gb18030-2022", "gb18030"),
    ("gb_18030", "gb18030"),
    // Japanese.
    ("cp932", "Shift_JIS"),
    ("ibm-943", "Shift_JIS"),
    ("sjis-win", "Shift_JIS"),
    ("sjis-open", "Shift_JIS"),
    ("shiftjis", "Shift_JIS"),
    ("shift-jis-2004", "Shift_JIS"),
    ("euc_jp", "EUC-JP"),
    ("eucjp", "EUC-JP"),
    ("eucjp-ms", "EUC-JP"),
    ("eucjp-win", "EUC-JP"),
    ("ujis", "EUC-JP"),
    ("iso2022jp", "ISO-2022-JP"),
    ("iso2022_jp", "ISO-2022-JP"),
    ("iso-2022-jp-1", "ISO-2022-JP"),
    ("cp50220", "ISO-2022-JP"),
    ("cp50221", "ISO-2022-JP"),
    ("cp50222", "ISO-2022-JP"),
    // Traditional Chinese.
    ("cp950", "Big5"),
    ("ms950", "Big5"),
    ("big5hkscs", "Big5"),
    ("big5_hkscs", "Big5"),
    ("big-5", "Big5"),
    // Unicode.
    ("utf_8", "UTF-8"),
    ("u8", "UTF-8"),
    ("cp65001", "UTF-8"),
    ("utf-8-sig", "UTF-8"),
    ("utf_8_sig", "UTF-8"),
    ("utf16", "UTF-16LE"),
    ("utf_16", "UTF-16LE"),
    ("utf16le", "UTF-16LE"),
    ("utf_16_le", "UTF-16LE"),
    ("ucs-2le", "UTF-16LE"),
    ("utf16be", "UTF-16BE"),
    ("utf_16_be", "UTF-16BE"),
    ("ucs-2be", "UTF-16BE"),
    // Single-byte.
    ("cp874", "windows-874"),
    ("tis620", "windows-874"),
    ("tis_620", "windows-874"),
    ("macroman", "macintosh"),
    ("mac_roman", "macintosh"),
    ("mac-roman", "macintosh"),
    ("maccyrillic", "x-mac-cyrillic"),
    ("mac_cyrillic", "x-mac-cyrillic"),
    ("mac-cyrillic", "x-mac-cyrillic"),
    ("koi8u", "KOI8-U"),
    ("koi8_u", "KOI8-U"),
    ("koi8r", "KOI8-R"),
    ("cp20866", "KOI8-R"),
    ("cp21866", "KOI8-U"),
    ("cp28591", "windows-1252"),
    ("latin-1", "windows-1252"),
    ("latin_1", "windows-1252"),
    ("iso8859_1", "windows-1252"),
    ("iso8859_2", "ISO-8859-2"),
    ("iso8859_5", "ISO-8859-5"),
    ("iso8859_7", "ISO-8859-7"),
    ("iso8859_15", "ISO-8859-15"),
    ("latin_2", "ISO-8859-2"),
    ("cp28592", "ISO-8859-2"),
    ("cp28605", "ISO-8859-15"),
    ("ibm-866", "IBM866"),
    ("dos-866", "IBM866"),
];

/// The encoding an alias of [`ALIASES`] names (trimmed, ASCII case-insensitive).
pub fn alias(label: &str) -> Option<&'static Encoding> {
    let wanted = label.trim().to_ascii_lowercase();
    let &(_, name) = ALIASES.iter().find(|(alias, _)| *alias == wanted)?;
    Encoding::for_label(name.as_bytes())
}

/// Prints the aliases, a line each: `alias -> encoding`.
pub fn print_aliases() -> Result<std::process::ExitCode, Failure> {
    let mut out = String::from(
        "# Names that are not labels of the Encoding Standard, accepted by simdenc's command line\n\
         # (iconv, ICU and Python names): alias -> the standard's encoding\n",
    );
    for (alias, name) in ALIASES {
        out.push_str(&format!("{alias} -> {name}\n"));
    }
    print_stdout(&out)?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// Prints every encoding, its labels, and what the command does with it.
pub fn print_labels() -> Result<std::process::ExitCode, Failure> {
    let mut out = String::new();
    for &encoding in Encoding::all() {
        let note = if encoding == simdenc::REPLACEMENT {
            "  (decode only: any input decodes to one U+FFFD)"
        } else if encoding == simdenc::UTF_16LE || encoding == simdenc::UTF_16BE {
            "  (as a target: UTF-16 output, an extension of the standard)"
        } else {
            ""
        };
        out.push_str(&format!(
            "{}: {}{note}\n",
            encoding.name(),
            encoding.labels().join(" ")
        ));
    }
    print_stdout(&out)?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// The encoding of `label`, or a usage error naming `role` ("source", "target") with the
/// closest labels.
pub fn resolve(label: &str, role: &str) -> Result<&'static Encoding, Failure> {
    if let Some(encoding) = Encoding::for_label(label.as_bytes()).or_else(|| alias(label)) {
        return Ok(encoding);
    }
    let mut message = format!("unknown {role} encoding {label:?}");
    let close = suggestions(label);
    if !close.is_empty() {
        message.push_str(&format!("; did you mean {}?", close.join(", ")));
    }
    message.push_str(
        " (`simdenc labels` lists all 228 labels, `simdenc labels --aliases` the other names accepted)",
    );
    Err(Failure::Usage(message))
}

/// Up to 3 labels closest to `label` by edit distance, if any is reasonably close: the
/// aliases first ([`ALIASES`], each suggested as the label of its encoding), then the
/// standard's labels.
pub fn suggestions(label: &str) -> Vec<&'static str> {
    let wanted = label.trim().to_ascii_lowercase();
    if wanted.is_empty() {
        return Vec::new();
    }
    let limit = (wanted.chars().count() / 3).max(2);
    let squashed = squash(&wanted);
    let mut from_aliases: Vec<(usize, &'static str)> = ALIASES
        .iter()
        .filter_map(|&(alias, name)| {
            let d = distance(&wanted, alias).min(distance(&squashed, &squash(alias)) + 1);
            (d <= limit).then_some((d, name))
        })
        .collect();
    from_aliases.sort();
    let mut out: Vec<&'static str> = Vec::new();
    for (_, name) in from_aliases {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    let mut scored: Vec<(usize, &'static str)> = Encoding::all()
        .iter()
        .flat_map(|e| e.labels().iter().copied())
        .map(|l| {
            (
                distance(&wanted, l).min(distance(&squash(&wanted), &squash(l)) + 1),
                l,
            )
        })
        .collect();
    scored.sort();
    for &(d, l) in &scored {
        if d > limit || out.len() >= 3 {
            break;
        }
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out.truncate(3);
    out
}

/// Only the letters and digits: "shift-jis" and "shift_jis" both become "shiftjis".
fn squash(s: &str) -> String {
    s.chars().filter(char::is_ascii_alphanumeric).collect()
}

/// Levenshtein distance over chars.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("utf8", "utf8"), 0);
    }

    /// Every alias is a name the standard does not know, and names an encoding of it.
    #[test]
    fn aliases_are_not_labels_and_resolve() {
        for &(name, target) in ALIASES {
            assert!(
                Encoding::for_label(name.as_bytes()).is_none(),
                "{name} is a label"
            );
            assert_eq!(name, name.to_ascii_lowercase(), "{name}");
            assert!(Encoding::for_label(target.as_bytes()).is_some(), "{target}");
            assert_eq!(
                alias(&format!(" {} ", name.to_ascii_uppercase())).map(Encoding::name),
                Some(target)
            );
        }
        let mut names: Vec<&str> = ALIASES.iter().map(|&(n, _)| n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALIASES.len(), "an alias twice");
        assert_eq!(resolve("CP949", "source").unwrap(), simdenc::EUC_KR);
        assert_eq!(resolve("euc-cn", "source").unwrap(), simdenc::GBK);
        assert_eq!(resolve("latin1", "source").unwrap(), simdenc::WINDOWS_1252);
    }

    #[test]
    fn suggestions_use_the_aliases_first() {
        assert_eq!(suggestions("cp94")[0], "EUC-KR");
        assert_eq!(suggestions("cp-932")[0], "Shift_JIS");
        assert_eq!(suggestions("eucjpms")[0], "EUC-JP");
    }

    #[test]
    fn close_labels() {
        assert!(suggestions("shiftjis").contains(&"shift_jis"));
        assert!(suggestions("utf-61").contains(&"utf-16"));
        assert!(suggestions("latin-7").contains(&"latin1"));
        assert!(suggestions("zzzzzzzzzzzzzzzzzzzz").is_empty());
    }
}
