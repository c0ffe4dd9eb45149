//! Agreement with glibc `iconv` where both implement the same mapping.
//!
//! The two differ on purpose in places (the standard follows browsers: Shift_JIS 0x5C is
//! U+005C, EUC-JP 0xA1C1 is U+FF5E, ...), so each test first finds the characters of the
//! corpus text on which both agree (both encode the character to the same bytes, and iconv
//! decodes those bytes back to it), drops the others, then requires identical output in both
//! directions on the whole remaining text. The number of characters dropped is printed.
//!
//! Without glibc's `iconv` (or with one that lacks an encoding) a test prints `SKIPPED` and
//! the reason on the terminal, and fails under CI (`common::skip`).

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

use common::{arg, tempdir};
use simdenc::{EncoderResult, Encoding};

const ICONV: &str = "/usr/bin/iconv";

/// Runs iconv; `None` if it does not know an encoding.
fn iconv(from: &str, to: &str, omit: bool, input: &Path) -> Option<Vec<u8>> {
    let mut command = Command::new(ICONV);
    if omit {
        command.arg("-c");
    }
    let output = command.args(["-f", from, "-t", to, arg(input)]).output().ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stderr.contains("not supported") || stderr.contains("unsupported") {
        return None;
    }
    assert!(
        omit || output.status.success(),
        "iconv -f {from} -t {to}: {stderr}"
    );
    Some(output.stdout)
}

/// simdenc's encoding of one character, if it has one.
fn encode_char(encoding: &'static Encoding, c: char) -> Option<Vec<u8>> {
    let mut encoder = encoding.new_encoder();
    let mut out = [0u8; 16];
    let mut buf = [0u8; 4];
    let (result, _, written) =
        encoder.encode_from_utf8_without_replacement(c.encode_utf8(&mut buf), &mut out, true);
    (result == EncoderResult::InputEmpty).then(|| out[..written].to_vec())
}

fn agree(label: &str, glibc: &str, lang: &str) {
    let test = format!("iconv agreement for {label}");
    if !Path::new(ICONV).exists() {
        common::skip(&test, &format!("{ICONV} is missing"));
        return;
    }
    let encoding = Encoding::for_label(label.as_bytes()).unwrap();
    let text = common::wikipedia(lang);
    let dir = tempdir();
    let chars: BTreeSet<char> = text.chars().filter(|&c| c != '\n').collect();
    let candidates: Vec<(char, Vec<u8>)> = chars
        .iter()
        .filter_map(|&c| Some((c, encode_char(encoding, c)?)))
        .collect();

    // iconv's encoding of each candidate, one per line.
    let lines: String = candidates.iter().map(|(c, _)| format!("{c}\n")).collect();
    let lines_path = dir.path().join("chars.txt");
    fs::write(&lines_path, &lines).unwrap();
    let Some(theirs) = iconv("UTF-8", glibc, true, &lines_path) else {
        common::skip(&test, &format!("{ICONV} does not support {glibc}"));
        return;
    };
    let their_lines: Vec<&[u8]> = theirs.split(|&b| b == b'\n').collect();
    assert!(their_lines.len() > candidates.len(), "iconv output lines");
    // iconv's decoding of simdenc's bytes for each candidate.
    let ours: Vec<u8> = candidates
        .iter()
        .flat_map(|(_, bytes)| bytes.iter().copied().chain([b'\n']))
        .collect();
    let ours_path = dir.path().join("ours.bin");
    fs::write(&ours_path, &ours).unwrap();
    let decoded = iconv(glibc, "UTF-8", true, &ours_path).unwrap();
    let decoded = String::from_utf8_lossy(&decoded).into_owned();
    let decoded_lines: Vec<&str> = decoded.split('\n').collect();
    let agreed: BTreeSet<char> = candidates
        .iter()
        .enumerate()
        .filter(|(i, (c, bytes))| {
            their_lines[*i] == bytes.as_slice() && decoded_lines.get(*i).is_some_and(|l| l.chars().eq([*c]))
        })
        .map(|(_, (c, _))| *c)
        .collect();
    let filtered: String = text
        .chars()
        .filter(|c| *c == '\n' || agreed.contains(c))
        .collect();
    let kept = filtered.chars().count() as f64 / text.chars().count() as f64;
    eprintln!(
        "note: {label} vs iconv {glibc} on {lang}.txt: {} distinct characters, {} encodable, {} agree \
         ({:.1}% of the text kept)",
        chars.len(),
        candidates.len(),
        agreed.len(),
        100.0 * kept
    );
    assert!(kept > 0.9, "too little of the text is comparable: {kept}");

    // Encoding: identical bytes.
    let utf8_path = dir.path().join("text.txt");
    fs::write(&utf8_path, &filtered).unwrap();
    let ours = common::run(&["convert", "-t", label, "--errors=fatal", arg(&utf8_path)], b"").ok();
    let theirs = iconv("UTF-8", glibc, false, &utf8_path).unwrap();
    assert!(ours == theirs, "{label}: encoded output differs from iconv");

    // Decoding: identical text.
    let encoded_path = dir.path().join("encoded.bin");
    fs::write(&encoded_path, &ours).unwrap();
    let ours = common::run(
        &["convert", "-f", label, "--errors=fatal", arg(&encoded_path)],
        b"",
    )
    .ok();
    let theirs = iconv(glibc, "UTF-8", false, &encoded_path).unwrap();
    assert!(ours == theirs, "{label}: decoded output differs from iconv");
    assert!(ours == filtered.as_bytes(), "{label}: round trip");
}

#[test]
fn windows_1251_ru() {
    agree("windows-1251", "CP1251", "ru");
}

#[test]
fn koi8_r_ru() {
    agree("koi8-r", "KOI8-R", "ru");
}

#[test]
fn ibm866_ru() {
    agree("ibm866", "CP866", "ru");
}

#[test]
fn windows_1252_fr() {
    agree("windows-1252", "CP1252", "fr");
}

#[test]
fn windows_1250_cs() {
    agree("windows-1250", "CP1250", "cs");
}

#[test]
fn windows_1253_el() {
    agree("windows-1253", "CP1253", "el");
}

// Not windows-1255 (nor 1258): glibc's CP1255 composes Hebrew letters and points into
// precomposed characters when decoding, which the standard (and simdenc) does not.
#[test]
fn windows_1254_tr() {
    agree("windows-1254", "CP1254", "tr");
}

#[test]
fn windows_1256_ar() {
    agree("windows-1256", "CP1256", "ar");
}

#[test]
fn euc_jp_ja() {
    agree("euc-jp", "EUC-JP", "ja");
}

#[test]
fn shift_jis_ja() {
    agree("shift_jis", "SHIFT_JIS", "ja");
}

#[test]
fn iso_2022_jp_ja() {
    agree("iso-2022-jp", "ISO-2022-JP", "ja");
}

#[test]
fn gbk_zh_cn() {
    agree("gbk", "GBK", "zh_cn");
}

#[test]
fn gb18030_zh_cn() {
    agree("gb18030", "GB18030", "zh_cn");
}

#[test]
fn big5_zh_tw() {
    agree("big5", "BIG5", "zh_tw");
}

#[test]
fn euc_kr_ko() {
    agree("euc-kr", "CP949", "ko");
}
