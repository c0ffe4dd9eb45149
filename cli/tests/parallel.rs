//! Parallel conversion gives exactly the sequential output: many files (`-j 1` vs `-j 4`)
//! and one file cut into pieces (`--chunk-size` forces small pieces).

mod common;

use std::fs;
use std::path::Path;

use common::{Rng, arg, corpus, tempdir};

/// Every file below `dir`, as (relative path, bytes), sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                files.push((name, fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn directory_conversion_j1_equals_j4() {
    let dir = tempdir();
    let src = dir.path().join("src");
    let texts = corpus();
    let count = texts.len();
    for (i, (name, text)) in texts.into_iter().enumerate() {
        let sub = src.join(format!("group{}", i % 3));
        fs::create_dir_all(&sub).unwrap();
        fs::write(sub.join(name), text).unwrap();
    }
    for (to, extra) in [
        ("gb18030", "--errors=html"),
        ("utf-16be", "--errors=fatal"),
        ("shift_jis", "-c"),
    ] {
        let mut outputs = Vec::new();
        for jobs in ["1", "4"] {
            let out_dir = dir.path().join(format!("{to}-j{jobs}"));
            let out = common::run(
                &[
                    "convert",
                    "-t",
                    to,
                    extra,
                    "-j",
                    jobs,
                    "-r",
                    "--out-dir",
                    arg(&out_dir),
                    arg(&src),
                ],
                b"",
            );
            assert_eq!(out.status, 0, "{}", out.stderr);
            assert!(out.stderr.contains(&format!("{count} files")), "{}", out.stderr);
            outputs.push(tree(&out_dir));
        }
        assert_eq!(outputs[0].len(), count);
        assert!(outputs[0] == outputs[1], "-j 1 and -j 4 differ for {to}");
    }
    // And back from a legacy encoding.
    let gbk = dir.path().join("gbk");
    let out = common::run(
        &[
            "convert",
            "-q",
            "-t",
            "gbk",
            "-r",
            "--out-dir",
            arg(&gbk),
            arg(&src),
        ],
        b"",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let mut outputs = Vec::new();
    for jobs in ["1", "4"] {
        let out_dir = dir.path().join(format!("from-gbk-j{jobs}"));
        let out = common::run(
            &[
                "convert",
                "-q",
                "-f",
                "gbk",
                "-j",
                jobs,
                "-r",
                "--out-dir",
                arg(&out_dir),
                arg(&gbk),
            ],
            b"",
        );
        assert_eq!(out.status, 0, "{}", out.stderr);
        outputs.push(tree(&out_dir));
    }
    assert!(outputs[0] == outputs[1]);
}

/// About 1.9 MB: the corpus in `encoding` with malformed bytes sprinkled in.
fn big_input(rng: &mut Rng, label: &str, bom: &[u8], errors: bool) -> Vec<u8> {
    let encoding = simdenc::Encoding::for_label(label.as_bytes()).unwrap();
    let text: String = corpus()
        .into_iter()
        .map(|(_, text)| text.replace('\u{FEFF}', ""))
        .collect();
    let mut bytes = bom.to_vec();
    bytes.extend(common::encode_html(&text, encoding));
    if errors {
        for _ in 0..20 {
            let at = bom.len() + (rng.below(bytes.len() - bom.len()) & !1);
            let junk: &[&[u8]] = &[
                b"\xFF",
                b"\xE3\x81",
                b"\x00\xDC",
                b"\xD8\x00",
                b"\x80\x80",
                b"\xF0\x9F",
            ];
            bytes.splice(at..at, junk[rng.below(junk.len())].iter().copied());
        }
    }
    bytes
}

fn same_in_pieces(input: &[u8], args: &[&str]) {
    let dir = tempdir();
    let path = dir.path().join("in.bin");
    fs::write(&path, input).unwrap();
    let mut sequential = vec!["convert", "-j", "1"];
    sequential.extend_from_slice(args);
    sequential.push(arg(&path));
    let mut parallel = vec!["convert", "-j", "4", "--chunk-size", "4099"];
    parallel.extend_from_slice(args);
    parallel.push(arg(&path));
    let a = common::run(&sequential, b"");
    let b = common::run(&parallel, b"");
    assert_eq!(a.status, b.status, "{args:?}: {} / {}", a.stderr, b.stderr);
    assert_eq!(a.stderr, b.stderr, "{args:?}");
    assert!(
        a.stdout == b.stdout,
        "{args:?}: outputs differ ({} vs {} bytes)",
        a.stdout.len(),
        b.stdout.len()
    );
}

#[test]
fn single_file_in_pieces_equals_sequential() {
    let mut rng = Rng(0x51ce);
    let cases: &[(&str, &[u8], bool, &[&str])] = &[
        ("utf-8", b"", true, &["-t", "utf-8"]),
        ("utf-8", b"", true, &["-t", "windows-1252", "--errors=html"]),
        ("utf-8", b"", true, &["-t", "shift_jis", "-c"]),
        ("utf-8", b"", false, &["-t", "utf-16be"]),
        ("utf-8", b"", true, &["-t", "iso-2022-jp"]),
        (
            "utf-8",
            b"\xEF\xBB\xBF",
            true,
            &["-f", "windows-1252", "-t", "gb18030"],
        ),
        ("utf-8", b"\xEF\xBB\xBF", false, &["--bom=keep", "-t", "utf-16le"]),
        ("utf-16le", b"", true, &["-f", "utf-16le", "-t", "utf-8"]),
        (
            "utf-16be",
            b"\xFE\xFF",
            true,
            &["-f", "utf-16be", "-t", "big5", "--errors=html"],
        ),
        ("utf-16le", b"", false, &["-f", "utf-16le", "-t", "euc-kr", "-c"]),
        ("windows-1251", b"", false, &["-f", "windows-1251", "-t", "utf-8"]),
        (
            "x-user-defined",
            b"",
            false,
            &["-f", "x-user-defined", "-t", "windows-1252"],
        ),
        ("gbk", b"", true, &["-f", "gbk", "-t", "utf-8"]),
        ("gb18030", b"", true, &["-f", "gb18030", "-t", "utf-16le"]),
        ("shift_jis", b"", true, &["-f", "shift_jis", "-t", "utf-8"]),
        (
            "euc-jp",
            b"",
            true,
            &["-f", "euc-jp", "-t", "shift_jis", "--errors=html"],
        ),
        ("euc-kr", b"", true, &["-f", "euc-kr", "-t", "utf-8"]),
        (
            "big5",
            b"",
            true,
            &["-f", "big5", "-t", "utf-8", "--errors=fatal"],
        ),
    ];
    for &(source, bom, errors, args) in cases {
        let input = big_input(&mut rng, source, bom, errors);
        same_in_pieces(&input, args);
    }
}

#[test]
fn pieces_fall_back_when_no_cut_is_found() {
    let text = "Mars 火星 ".repeat(20_000);
    let mut input = text.clone().into_bytes();
    // 20 000 continuation bytes: no position in there is a cut.
    input.extend(std::iter::repeat_n(0x80, 20_000));
    input.extend(text.into_bytes());
    same_in_pieces(&input, &["-t", "utf-16le"]);
    same_in_pieces(&input, &["--errors=fatal"]);
}

#[test]
fn replacements_are_counted_alike_in_pieces_and_in_sequence() {
    // Three malformed sequences in the middle, then U+FFFD the input itself encodes, pieces
    // apart: only the three are replacements, whichever way the file is cut.
    let mut input = "abc ".repeat(50_000).into_bytes();
    input.extend_from_slice(b"\xFF x \xC3 y \xE3\x81");
    input.extend("xyz ".repeat(50_000).bytes());
    input.extend("\u{FFFD}".repeat(40).bytes());
    let dir = tempdir();
    let path = dir.path().join("in.txt");
    fs::write(&path, &input).unwrap();
    for jobs in ["1", "4"] {
        let report = dir.path().join(format!("report{jobs}.jsonl"));
        let out = common::run(
            &[
                "convert",
                "-j",
                jobs,
                "--chunk-size",
                "4099",
                "-t",
                "utf-16le",
                "--max-replaced",
                "0.00001",
                "--report",
                arg(&report),
                arg(&path),
            ],
            b"",
        );
        assert_eq!(out.status, 0, "{}", out.stderr);
        let line = fs::read_to_string(&report).unwrap();
        assert!(line.contains("\"replaced\":3"), "-j {jobs}: {line}");
        assert!(line.contains("\"over_max_replaced\":false"), "-j {jobs}: {line}");
        assert!(
            !out.stderr.contains("--max-replaced"),
            "-j {jobs}: {}",
            out.stderr
        );
    }
    // Both ways name the file once there are more replacements than the fraction allows.
    let mut input = "\u{FFFD}".repeat(100).into_bytes();
    input.extend("abc ".repeat(5_000).bytes());
    for _ in 0..30 {
        input.extend_from_slice(b"\xFF");
        input.extend("xyz ".repeat(1_000).bytes());
    }
    same_in_pieces(&input, &["-t", "utf-16le", "--max-replaced", "0.0001"]);
    let out = common::run(&["convert", "--max-replaced", "0.0001", "-t", "utf-16le"], &input);
    assert!(
        out.stderr.contains(": 30 U+FFFD replacement characters in"),
        "{}",
        out.stderr
    );
}
