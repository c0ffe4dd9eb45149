//! `simdenc detect` and `simdenc convert -f auto` through the built binary: the decision and
//! its source for each kind of declaration, the JSON lines, the report, the summary, the
//! rewritten declaration, and `--max-replaced`.

mod common;

use std::fs;
use std::path::Path;

use common::{arg, run, run_in, tempdir};

/// A tree of files whose encodings are declared: by a BOM, a `<meta>`, an XML declaration, or
/// nothing (the default).
fn declared_tree(dir: &Path) -> Vec<(&'static str, &'static str, &'static str)> {
    let files: [(&str, &[u8], &str, &str); 7] = [
        (
            "sjis.html",
            b"<!doctype html><meta charset=\"shift_jis\"><p>\x93\xfa\x96\x7b",
            "Shift_JIS",
            "meta",
        ),
        (
            "cyr.htm",
            b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">\xcf\xf0\xe8",
            "windows-1251",
            "meta",
        ),
        ("bom8.txt", b"\xef\xbb\xbfcaf\xc3\xa9", "UTF-8", "bom"),
        ("bom16.txt", b"\xff\xfeh\0i\0", "UTF-16LE", "bom"),
        (
            "decl.xml",
            b"<?xml version=\"1.0\" encoding=\"euc-kr\"?><r>\xc7\xd1</r>",
            "EUC-KR",
            "xml",
        ),
        ("plain.txt", b"plain ASCII", "windows-1252", "default"),
        // Text files are not prescanned: the meta in it is text.
        ("meta.txt", b"<meta charset=gbk>", "windows-1252", "default"),
    ];
    for (name, bytes, _, _) in &files {
        fs::write(dir.join(name), bytes).unwrap();
    }
    files
        .iter()
        .map(|&(name, _, encoding, source)| (name, encoding, source))
        .collect()
}

#[test]
fn detect_prints_the_decision_and_its_source() {
    let dir = tempdir();
    let files = declared_tree(dir.path());
    let names: Vec<&str> = files.iter().map(|(name, _, _)| *name).collect();
    let mut args = vec!["detect", "--no-guess"];
    args.extend(&names);
    let text = run_in(Some(dir.path()), &args, b"").ok();
    let text = String::from_utf8(text).unwrap();
    for (name, encoding, source) in &files {
        let confidence = if *source == "default" { "0.00" } else { "1.00" };
        let line = format!("{name}: {encoding} ({source}, confidence {confidence})");
        assert!(text.lines().any(|l| l == line), "{line:?} not in\n{text}");
    }
}

#[test]
fn detect_json_lines_have_exactly_four_keys() {
    let dir = tempdir();
    let files = declared_tree(dir.path());
    let names: Vec<&str> = files.iter().map(|(name, _, _)| *name).collect();
    let mut args = vec!["detect", "--format", "json", "--no-guess"];
    args.extend(&names);
    let out = run_in(Some(dir.path()), &args, b"").ok();
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), files.len());
    for ((name, encoding, source), line) in files.iter().zip(&lines) {
        let object = line.as_object().unwrap();
        assert_eq!(object.keys().collect::<Vec<_>>().len(), 4, "{line}");
        assert_eq!(object["file"], *name);
        assert_eq!(object["encoding"], *encoding);
        assert_eq!(object["source"], *source);
        assert!(object["confidence"].is_number());
    }
}

#[test]
fn detect_flags() {
    let dir = tempdir();
    declared_tree(dir.path());
    let one = |args: &[&str]| String::from_utf8(run_in(Some(dir.path()), args, b"").ok()).unwrap();
    // The transport layer wins over a meta, not over a BOM.
    assert_eq!(
        one(&[
            "detect",
            "--no-guess",
            "--http-charset",
            "gbk",
            "sjis.html",
            "bom8.txt"
        ]),
        "sjis.html: GBK (http, confidence 1.00)\nbom8.txt: UTF-8 (bom, confidence 1.00)\n"
    );
    // --html prescans a .txt; --text does not prescan a .html.
    assert_eq!(
        one(&["detect", "--no-guess", "--html", "meta.txt"]),
        "meta.txt: GBK (meta, confidence 1.00)\n"
    );
    assert_eq!(
        one(&["detect", "--no-guess", "--text", "sjis.html"]),
        "sjis.html: windows-1252 (default, confidence 0.00)\n"
    );
    assert_eq!(
        one(&["detect", "--no-guess", "--default", "koi8-r", "plain.txt"]),
        "plain.txt: KOI8-R (default, confidence 0.00)\n"
    );
    // Standard input.
    let out = run(&["detect", "--no-guess", "--html"], b"<meta charset=big5>");
    assert_eq!(out.ok(), b"<stdin>: Big5 (meta, confidence 1.00)\n");
    // Unknown labels are refused; a missing file is reported with status 1.
    assert_eq!(run(&["detect", "--default", "bogus"], b"").status, 2);
    assert_eq!(run(&["detect", "--http-charset", "bogus"], b"").status, 2);
    let out = run_in(
        Some(dir.path()),
        &["detect", "--no-guess", "plain.txt", "missing.txt"],
        b"",
    );
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("missing.txt"), "{}", out.stderr);
}

#[test]
fn convert_auto_decodes_each_file_by_its_own_decision_and_rewrites_declarations() {
    let dir = tempdir();
    declared_tree(dir.path());
    let out_dir = dir.path().join("out");
    let report = dir.path().join("report.jsonl");
    let out = run_in(
        Some(dir.path()),
        &[
            "convert",
            "-f",
            "auto",
            "--no-guess",
            "-r",
            "--out-dir",
            arg(&out_dir),
            "--report",
            arg(&report),
            ".",
        ],
        b"",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let read = |name: &str| String::from_utf8(fs::read(out_dir.join(name)).unwrap()).unwrap();
    assert_eq!(
        read("sjis.html"),
        "<!doctype html><meta charset=\"UTF-8\"><p>日本"
    );
    assert_eq!(
        read("cyr.htm"),
        "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">При"
    );
    assert_eq!(read("bom8.txt"), "café");
    assert_eq!(read("bom16.txt"), "hi");
    assert_eq!(
        read("decl.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><r>한</r>"
    );
    assert_eq!(read("meta.txt"), "<meta charset=gbk>");
    // The summary counts the encodings; the report has one line per file.
    assert!(out.stderr.contains("3 declarations rewritten"), "{}", out.stderr);
    assert!(out.stderr.contains("1 Shift_JIS"), "{}", out.stderr);
    let lines = fs::read_to_string(&report).unwrap();
    let lines: Vec<serde_json::Value> = lines.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 7);
    let sjis = lines
        .iter()
        .find(|l| l["file"].as_str().unwrap().ends_with("sjis.html"))
        .unwrap();
    assert_eq!(sjis["encoding"], "Shift_JIS");
    assert_eq!(sjis["source"], "meta");
    assert_eq!(sjis["declaration_rewritten"], true);
    assert_eq!(sjis["replaced"], 0);
}

#[test]
fn declarations_rewritten_with_a_given_encoding_and_kept_on_request() {
    let dir = tempdir();
    declared_tree(dir.path());
    let page = arg(&dir.path().join("sjis.html")).to_owned();
    let out = run(&["convert", "-f", "shift_jis", "-t", "euc-jp", &page], b"").ok();
    assert_eq!(
        out,
        b"<!doctype html><meta charset=\"EUC-JP\"><p>\xc6\xfc\xcb\xdc"
    );
    let out = run(&["convert", "-f", "shift_jis", "--keep-declaration", &page], b"").ok();
    assert_eq!(
        out,
        "<!doctype html><meta charset=\"shift_jis\"><p>日本".as_bytes()
    );
    // Standard input is HTML by its content.
    let out = run(
        &["convert", "-f", "auto", "--no-guess"],
        b"<html><meta charset=koi8-r>\xf0",
    )
    .ok();
    assert_eq!(out, "<html><meta charset=UTF-8>П".as_bytes());
    // With a fixed source encoding, the auto-only flags are refused.
    assert_eq!(run(&["convert", "-f", "gbk", "--no-guess"], b"").status, 2);
}

#[test]
fn files_over_max_replaced_are_named() {
    let dir = tempdir();
    // Shift_JIS bytes declared as UTF-8: most of it is malformed.
    fs::write(
        dir.path().join("liar.html"),
        b"<meta charset=utf-8>\x93\xfa\x96\x7b\x8c\xea\x82\xc5\x82\xb7",
    )
    .unwrap();
    fs::write(dir.path().join("fine.html"), b"<meta charset=utf-8>ok").unwrap();
    let out = run_in(
        Some(dir.path()),
        &["convert", "-f", "auto", "--no-guess", "liar.html", "fine.html"],
        b"",
    );
    assert_eq!(out.status, 0);
    assert!(out.stderr.contains("liar.html: 6 U+FFFD"), "{}", out.stderr);
    assert!(!out.stderr.contains("fine.html:"), "{}", out.stderr);
    assert!(out.stderr.contains("1 over --max-replaced"), "{}", out.stderr);
    let out = run_in(
        Some(dir.path()),
        &[
            "convert",
            "-f",
            "auto",
            "--no-guess",
            "--max-replaced",
            "1",
            "liar.html",
            "fine.html",
        ],
        b"",
    );
    assert!(!out.stderr.contains("liar.html:"), "{}", out.stderr);
    assert_eq!(run(&["convert", "--max-replaced", "2"], b"").status, 2);
}

/// The tree a new user converts: legacy text files of many languages without any declaration,
/// UTF-8, UTF-16 with a BOM. Every output must be the original text (the issue's 24-file tree
/// gave 19 mojibake outputs with a fixed -f).
#[test]
fn convert_auto_on_a_mixed_tree_of_undeclared_files() {
    let dir = tempdir();
    let tree = dir.path().join("tree");
    fs::create_dir(&tree).unwrap();
    let corpus = common::repo().join("data/corpus/wikipedia");
    let cases: &[(&str, &'static simdenc::Encoding)] = &[
        ("ja", simdenc::SHIFT_JIS),
        ("ja", simdenc::EUC_JP),
        ("zh_cn", simdenc::GBK),
        ("zh_tw", simdenc::BIG5),
        ("ko", simdenc::EUC_KR),
        ("ru", simdenc::WINDOWS_1251),
        ("ru", simdenc::KOI8_R),
        ("el", simdenc::WINDOWS_1253),
        ("he", simdenc::WINDOWS_1255),
        ("ar", simdenc::WINDOWS_1256),
        ("tr", simdenc::WINDOWS_1254),
        ("th", simdenc::WINDOWS_874),
        ("cs", simdenc::WINDOWS_1250),
        ("de", simdenc::WINDOWS_1252),
        ("fr", simdenc::UTF_8),
        ("vi", simdenc::UTF_8),
    ];
    let mut expected = Vec::new();
    for (i, (lang, encoding)) in cases.iter().enumerate() {
        let text = fs::read_to_string(corpus.join(format!("{lang}.txt"))).unwrap();
        // About 3 KB of text, cut where the encoding can write every character.
        let text: String = text.chars().skip(200).take(1500).collect();
        let (bytes, _, unmappable) = encoding.encode(&text);
        let bytes = bytes.into_owned();
        let text = if unmappable {
            encoding.decode_without_bom_handling(&bytes).0.into_owned()
        } else {
            text
        };
        let name = format!("{i:02}-{lang}.txt");
        fs::write(tree.join(&name), &bytes).unwrap();
        expected.push((name, text, encoding.name()));
    }
    let out_dir = dir.path().join("out");
    let report = dir.path().join("report.jsonl");
    let out = run(
        &[
            "convert",
            "-f",
            "auto",
            "-r",
            "--out-dir",
            arg(&out_dir),
            "--report",
            arg(&report),
            arg(&tree),
        ],
        b"",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let report = fs::read_to_string(&report).unwrap();
    let mut wrong = Vec::new();
    for (name, text, encoding) in &expected {
        let got = fs::read_to_string(out_dir.join(name)).unwrap();
        if got != *text {
            let line = report.lines().find(|l| l.contains(name.as_str())).unwrap_or("");
            wrong.push(format!("{name} ({encoding}): {line}"));
        }
    }
    assert!(wrong.is_empty(), "mojibake:\n{}", wrong.join("\n"));
}
