//! Every flag of `simdenc convert`, `validate` and `labels`, through the built binary.

mod common;

use std::fs;
use std::io::Read;
use std::process::{Command, Stdio};

use common::{arg, run, run_in, tempdir};

const SAMPLE: &str = "data/samples/mars-ja.shift_jis.txt";

#[test]
fn converts_the_bundled_sample_to_stdout() {
    let bytes = fs::read(common::repo().join(SAMPLE)).unwrap();
    let expected = simdenc::spec::decode_bytes(&bytes, simdenc::SHIFT_JIS);
    let out = run(&["convert", "-f", "shift_jis", "-t", "utf-8", SAMPLE], b"");
    assert_eq!(out.stderr, "");
    assert_eq!(out.ok(), expected.as_bytes());
}

#[test]
fn iconv_style_long_flags_and_labels() {
    let expected = run(&["convert", "-f", "shift_jis", "-t", "utf-8", SAMPLE], b"").ok();
    for args in [
        &["convert", "--from-code=sjis", "--to-code=UTF-8", SAMPLE][..],
        &[
            "convert",
            "--from",
            " Shift_JIS\t",
            "--to",
            "unicode-1-1-utf-8",
            SAMPLE,
        ],
        &["convert", "-f", "windows-31j", SAMPLE],
    ] {
        assert_eq!(run(args, b"").ok(), expected, "{args:?}");
    }
}

#[test]
fn standard_input_to_standard_output() {
    let out = run(&["convert", "-f", "latin1"], b"caf\xE9").ok();
    assert_eq!(out, "café".as_bytes());
    let out = run(&["convert", "-f", "utf-8", "-t", "koi8-r", "-"], "Жук".as_bytes()).ok();
    assert_eq!(out, b"\xF6\xD5\xCB");
}

#[test]
fn replacement_is_the_default_when_decoding() {
    let out = run(&["convert", "-f", "utf-8", "-t", "utf-8"], b"a\xF0\x9F\x98b\xFF").ok();
    assert_eq!(out, "a\u{FFFD}b\u{FFFD}".as_bytes());
    let out = run(&["convert", "-f", "euc-kr", "--errors=replace"], b"\x81 ").ok();
    assert_eq!(out, "\u{FFFD} ".as_bytes());
}

#[test]
fn html_is_the_default_when_encoding() {
    let out = run(&["convert", "-t", "windows-1252"], "€ 😀".as_bytes()).ok();
    assert_eq!(out, b"\x80 &#128512;");
    let out = run(
        &["convert", "-t", "windows-1252", "--errors=html"],
        "\u{3042}".as_bytes(),
    )
    .ok();
    assert_eq!(out, b"&#12354;");
}

#[test]
fn errors_replace_fails_on_unmappable_characters() {
    let out = run(
        &["convert", "-t", "koi8-r", "--errors=replace"],
        "Жук €".as_bytes(),
    );
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("U+20AC"), "{}", out.stderr);
    assert!(out.stderr.contains("--errors=html"), "{}", out.stderr);
}

#[test]
fn errors_fatal_reports_offset_and_bytes() {
    let out = run(&["convert", "-f", "shift_jis", "--errors=fatal"], b"ab\x81\x20c");
    assert_eq!(out.status, 1);
    assert!(
        out.stderr
            .contains("malformed Shift_JIS input at byte offset 2: 81"),
        "{}",
        out.stderr
    );
    assert_eq!(common::offsets(&out.stderr), Some((2, 3)));
    let out = run(&["convert", "-t", "euc-kr", "--errors=fatal"], "한é".as_bytes());
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("U+00E9"), "{}", out.stderr);
}

#[test]
fn errors_fatal_reports_the_input_offset_of_an_unmappable_character() {
    let dir = tempdir();
    let input = dir.path().join("in.txt");
    // EUC-KR input; the output encoding (windows-1252) lacks the Hangul: byte offset 4.
    fs::write(&input, b"ab\xB0\xA1c\xB0\xA1").unwrap();
    let out = run(
        &[
            "convert",
            "-f",
            "euc-kr",
            "-t",
            "windows-1252",
            "--errors=fatal",
            arg(&input),
        ],
        b"",
    );
    assert_eq!(out.status, 1);
    assert!(
        out.stderr
            .contains("U+AC00 (가) cannot be encoded in windows-1252: input bytes B0 A1 at byte offset 2"),
        "{}",
        out.stderr
    );
}

#[test]
fn omit_invalid_drops_both_kinds_of_error() {
    let out = run(&["convert", "-c", "-t", "windows-1252"], "a\u{3042}b€".as_bytes()).ok();
    assert_eq!(out, b"ab\x80");
    let out = run(&["convert", "-c", "-f", "utf-8"], b"a\xFFb\xE3\x81").ok();
    assert_eq!(out, b"ab");
    let out = run(
        &["convert", "-t", "windows-1252//IGNORE"],
        "a\u{3042}b".as_bytes(),
    )
    .ok();
    assert_eq!(out, b"ab");
}

#[test]
fn bom_sniff_strip_keep() {
    let input = b"\xEF\xBB\xBF\xC3\xA9";
    let sniff = run(&["convert", "-f", "windows-1252"], input).ok();
    assert_eq!(sniff, "é".as_bytes());
    let strip = run(&["convert", "-f", "windows-1252", "--bom=strip"], input).ok();
    assert_eq!(strip, "ï»¿Ã©".as_bytes());
    let strip_own = run(&["convert", "-f", "utf-8", "--bom=strip"], input).ok();
    assert_eq!(strip_own, "é".as_bytes());
    let keep = run(&["convert", "-f", "utf-8", "--bom=keep"], input).ok();
    assert_eq!(keep, "\u{FEFF}é".as_bytes());
    // A UTF-16 BOM overrides the label when sniffing.
    let utf16 = run(&["convert", "-f", "shift_jis"], b"\xFF\xFEa\x00").ok();
    assert_eq!(utf16, b"a");
}

#[test]
fn utf16_output_is_an_extension() {
    let text = "aé😀";
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    assert_eq!(run(&["convert", "-t", "utf-16le"], text.as_bytes()).ok(), le);
    assert_eq!(run(&["convert", "-t", "UTF-16"], text.as_bytes()).ok(), le);
    assert_eq!(run(&["convert", "-t", "utf-16be"], text.as_bytes()).ok(), be);
    assert_eq!(run(&["convert", "-f", "utf-16be"], &be).ok(), text.as_bytes());
}

#[test]
fn iso_2022_jp_ends_in_ascii() {
    let out = run(&["convert", "-t", "iso-2022-jp"], "a日本".as_bytes()).ok();
    assert_eq!(out, b"a\x1b$BF|K\\\x1b(B");
}

#[test]
fn output_file_and_concatenation() {
    let dir = tempdir();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    fs::write(&a, b"caf\xE9\n").unwrap();
    fs::write(&b, b"na\xEFve\n").unwrap();
    let out_path = dir.path().join("out.txt");
    fs::write(&out_path, "old").unwrap();
    let out = run(
        &["convert", "-f", "latin1", "-o", arg(&out_path), arg(&a), arg(&b)],
        b"",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(fs::read_to_string(&out_path).unwrap(), "café\nnaïve\n");
    // Two inputs: a summary line on stderr (and none with -q).
    assert!(out.stderr.contains("2 files"), "{}", out.stderr);
    let quiet = run(&["convert", "-q", "-f", "latin1", arg(&a), arg(&b)], b"");
    assert_eq!((quiet.status, quiet.stderr.as_str()), (0, ""));
    // Stdout concatenates too.
    assert_eq!(quiet.stdout, "café\nnaïve\n".as_bytes());
}

#[test]
fn out_dir_recursive_keeps_the_layout() {
    let dir = tempdir();
    let src = dir.path().join("src");
    fs::create_dir_all(src.join("sub/deeper")).unwrap();
    fs::write(src.join("top.txt"), b"\xC4\xE3\xBA\xC3").unwrap();
    fs::write(src.join("sub/deeper/leaf.txt"), b"\xC4\xE3").unwrap();
    let out_dir = dir.path().join("out");
    let out = run(
        &[
            "convert",
            "-f",
            "gbk",
            "-r",
            "--out-dir",
            arg(&out_dir),
            arg(&src),
        ],
        b"",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(fs::read_to_string(out_dir.join("top.txt")).unwrap(), "你好");
    assert_eq!(
        fs::read_to_string(out_dir.join("sub/deeper/leaf.txt")).unwrap(),
        "你"
    );
    assert!(out.stderr.contains("2 files"), "{}", out.stderr);
    // Without -r, a directory is a usage error.
    let out = run(
        &["convert", "-f", "gbk", "--out-dir", arg(&out_dir), arg(&src)],
        b"",
    );
    assert_eq!(out.status, 2);
    assert!(out.stderr.contains("-r"), "{}", out.stderr);
}

#[test]
fn in_place_replaces_atomically_and_keeps_permissions() {
    let dir = tempdir();
    let file = dir.path().join("f.txt");
    fs::write(&file, b"\xCF\xF0\xE8\xE2\xE5\xF2").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
    }
    let out = run(&["convert", "-f", "windows-1251", "--in-place", arg(&file)], b"");
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(fs::read_to_string(&file).unwrap(), "Привет");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o640);
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
}

#[test]
fn inputs_are_never_overwritten_without_in_place() {
    let dir = tempdir();
    let file = dir.path().join("f.txt");
    fs::write(&file, b"caf\xE9").unwrap();
    let out = run(&["convert", "-f", "latin1", "-o", arg(&file), arg(&file)], b"");
    assert_eq!(out.status, 2);
    assert!(out.stderr.contains("--in-place"), "{}", out.stderr);
    let out = run(
        &[
            "convert",
            "-f",
            "latin1",
            "--out-dir",
            arg(dir.path()),
            arg(&file),
        ],
        b"",
    );
    assert_eq!(out.status, 2);
    assert_eq!(fs::read(&file).unwrap(), b"caf\xE9");
}

#[test]
fn unreadable_input_and_unwritable_output() {
    let out = run(&["convert", "no/such/file.txt"], b"");
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("no/such/file.txt"), "{}", out.stderr);
    let out = run(&["convert", "-o", "/proc/simdenc-cannot-write-here", SAMPLE], b"");
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("cannot create"), "{}", out.stderr);
    let dir = tempdir();
    let out = run(
        &[
            "convert",
            "-o",
            arg(&dir.path().join("missing/dir/out.txt")),
            SAMPLE,
        ],
        b"",
    );
    assert_eq!(out.status, 1, "{}", out.stderr);
}

#[test]
fn devices_are_written_not_replaced() {
    // Renaming a temporary file over /dev/null would replace the device (the tests may run
    // as root): a target that is not a regular file is written directly.
    let out = run(&["convert", "-f", "shift_jis", "-o", "/dev/null", SAMPLE], b"");
    assert_eq!(out.status, 0, "{}", out.stderr);
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    }
    let out = run(&["convert", "-f", "shift_jis", "-o", "/dev/full", SAMPLE], b"");
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("No space left on device"), "{}", out.stderr);
}

#[test]
fn disk_full_on_standard_output_is_reported() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        common::skip("disk_full_on_standard_output_is_reported", "no /dev/full");
        return;
    };
    let output = Command::new(common::bin())
        .args(["convert", "-f", "shift_jis", SAMPLE])
        .current_dir(common::repo())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("No space left on device"), "{stderr}");
}

#[test]
fn broken_pipe_ends_quietly() {
    let dir = tempdir();
    let big = dir.path().join("big.txt");
    fs::write(&big, "Марс ".repeat(2_000_000)).unwrap();
    let mut child = Command::new(common::bin())
        .args(["convert", "-t", "windows-1251", arg(&big)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn usage_errors_exit_with_2() {
    let cases: &[&[&str]] = &[
        &["convert", "-f", "no-such-encoding"],
        &["convert", "-t", "replacement"],
        &["convert", "-c", "--errors=fatal"],
        &["convert", "-o", "x", "--out-dir", "y"],
        &["convert", "--in-place", "--out-dir", "y"],
        &["convert", "--in-place"],
        &["convert", "--out-dir", "y", "-"],
        &["convert", "-j", "0"],
        &["convert", "-t", "utf-8//TRANSLIT"],
        &["convert", "--errors=maybe"],
        &["convert", "--bom=sometimes"],
        &["frobnicate"],
        &[],
    ];
    for args in cases {
        let out = run(args, b"");
        assert_eq!(out.status, 2, "{args:?}: {}", out.stderr);
        assert!(!out.stderr.is_empty(), "{args:?}");
        assert!(!out.stderr.contains("panicked"), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn unknown_labels_get_suggestions() {
    let out = run(&["convert", "-f", "shiftjiz"], b"");
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.contains("did you mean") && out.stderr.contains("Shift_JIS"),
        "{}",
        out.stderr
    );
    let out = run(&["convert", "-t", "latin-7"], b"");
    assert!(out.stderr.contains("latin1"), "{}", out.stderr);
    let out = run(&["validate", "-f", "utf-61"], b"");
    assert!(out.stderr.contains("utf-16"), "{}", out.stderr);
    // The aliases come first: "cp-949" is one edit from the alias cp949.
    let out = run(&["convert", "-f", "cp-949"], b"");
    assert_eq!(out.status, 2);
    assert!(out.stderr.contains("did you mean EUC-KR"), "{}", out.stderr);
}

#[test]
fn iconv_names_are_accepted_as_an_extension() {
    // iconv's and Python's names for encodings of the standard.
    let cases: &[(&str, &[u8], &str)] = &[
        ("CP949", b"\xC7\xD1", "한"),
        ("UHC", b"\xC7\xD1", "한"),
        ("EUC-CN", b"\xD6\xD0", "中"),
        ("CP936", b"\xD6\xD0", "中"),
        ("CP932", b"\x93\xFA", "日"),
        ("eucJP-ms", b"\xC6\xFC", "日"),
        ("CP950", b"\xA4\xA4", "中"),
        ("latin-1", b"\xE9", "é"),
        ("utf_16_be", b"\0a", "a"),
    ];
    for &(name, input, text) in cases {
        let out = run(&["convert", "-f", name], input);
        assert_eq!(out.ok(), text.as_bytes(), "{name}");
    }
    assert_eq!(
        run(&["convert", "-t", "cp932"], "日".as_bytes()).ok(),
        b"\x93\xFA"
    );
    let listing = String::from_utf8(run(&["labels", "--aliases"], b"").ok()).unwrap();
    assert!(listing.lines().any(|l| l == "cp949 -> EUC-KR"), "{listing}");
    assert!(listing.lines().any(|l| l == "euc-cn -> GBK"), "{listing}");
    // Not an alias: the standard's own label, which iconv reads differently.
    assert!(
        !listing.lines().any(|l| l.starts_with("iso-8859-1 ")),
        "{listing}"
    );
}

#[test]
fn help_has_examples() {
    for args in [&["--help"][..], &["convert", "--help"], &["validate", "--help"]] {
        let out = run(args, b"");
        assert_eq!(out.status, 0);
        assert!(out.text().contains("Examples:"), "{args:?}");
    }
    assert!(run(&["convert", "--help"], b"").text().contains("--from-code"));
}

#[test]
fn labels_lists_every_encoding_and_label() {
    let listing = run(&["labels"], b"").ok();
    assert_eq!(run(&["-l"], b"").ok(), listing);
    let listing = String::from_utf8(listing).unwrap();
    assert_eq!(listing.lines().count(), 40);
    for &encoding in simdenc::Encoding::all() {
        let line = listing
            .lines()
            .find(|l| l.starts_with(&format!("{}:", encoding.name())))
            .unwrap_or_else(|| panic!("{} missing", encoding.name()));
        for label in encoding.labels() {
            assert!(
                line.split_whitespace().any(|w| w == *label),
                "{label} missing from {line}"
            );
        }
    }
}

#[test]
fn validate_reports_each_file() {
    let dir = tempdir();
    let good = dir.path().join("good.txt");
    let bad = dir.path().join("bad.txt");
    fs::write(&good, "日本".as_bytes()).unwrap();
    fs::write(&bad, b"ok\xE6\x97").unwrap();
    let out = run_in(Some(dir.path()), &["validate", "good.txt"], b"");
    assert_eq!(out.status, 0);
    assert!(out.text().contains("good.txt: valid UTF-8"));
    let out = run_in(Some(dir.path()), &["validate", "good.txt", "bad.txt"], b"");
    assert_eq!(out.status, 1);
    let text = out.text();
    assert!(
        text.contains("bad.txt: invalid UTF-8 at byte offset 2: E6 97"),
        "{text}"
    );
    assert_eq!(common::offsets(&text), Some((2, 4)));
    let out = run_in(Some(dir.path()), &["validate", "-q", "-j", "1", "-r", "."], b"");
    assert_eq!(out.status, 1);
    assert!(!out.text().contains("good.txt"));
    let out = run(&["validate", "-f", "shift_jis", SAMPLE], b"");
    assert_eq!(out.status, 0, "{}", out.stderr);
    let out = run(&["validate", "-f", "shift_jis"], b"\x82\xA0\x82");
    assert_eq!(out.status, 1);
    let out = run(&["validate", "missing.txt"], b"");
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("missing.txt"));
}

#[test]
fn simdenc_level_is_honoured_and_checked() {
    // The same conversion at every level this CPU supports, and an error for a bad level.
    let input = "Жук, café, 日本語 and ASCII. ".repeat(200);
    let expect = run(
        &["convert", "-t", "windows-1251", "--errors=html"],
        input.as_bytes(),
    )
    .ok();
    for level in simdenc::cpu::supported() {
        let out = Command::new(common::bin())
            .args(["convert", "-t", "windows-1251", "--errors=html"])
            .env("SIMDENC_LEVEL", level.name())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().expect("stdin").write_all(input.as_bytes())?;
                child.wait_with_output()
            })
            .expect("run simdenc");
        assert!(
            out.status.success(),
            "{level}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, expect, "{level}");
    }
    let out = Command::new(common::bin())
        .args(["validate", "-f", "utf-8", "-"])
        .env("SIMDENC_LEVEL", "pentium")
        .stdin(Stdio::null())
        .output()
        .expect("run simdenc");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("SIMDENC_LEVEL"));
}
