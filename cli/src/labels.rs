//! `simdenc labels` and label resolution with suggestions for unknown labels.

use simdenc::Encoding;

use crate::errors::{Failure, print_stdout};

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
    if let Some(encoding) = Encoding::for_label(label.as_bytes()) {
        return Ok(encoding);
    }
    let mut message = format!("unknown {role} encoding {label:?}");
    let close = suggestions(label);
    if !close.is_empty() {
        message.push_str(&format!("; did you mean {}?", close.join(", ")));
    }
    message.push_str(" (`simdenc labels` lists all 228 labels)");
    Err(Failure::Usage(message))
}

/// Up to 3 labels closest to `label` by edit distance, if any is reasonably close.
pub fn suggestions(label: &str) -> Vec<&'static str> {
    let wanted = label.trim().to_ascii_lowercase();
    if wanted.is_empty() {
        return Vec::new();
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
    let limit = (wanted.chars().count() / 3).max(2);
    scored
        .iter()
        .filter(|(d, _)| *d <= limit)
        .take(3)
        .map(|&(_, l)| l)
        .collect()
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

    #[test]
    fn close_labels() {
        assert!(suggestions("shiftjis").contains(&"shift_jis"));
        assert_eq!(suggestions("utf16")[0], "utf-16");
        assert_eq!(suggestions("latin-1")[0], "latin1");
        assert!(suggestions("zzzzzzzzzzzzzzzzzzzz").is_empty());
    }
}
