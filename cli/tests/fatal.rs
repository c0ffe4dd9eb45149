//! Fatal mode through the binary: the reported offsets are where the executable standard
//! (`simdenc::spec::run_decoder` in fatal mode) stops, for `convert` and `validate`, with
//! sequential and parallel-piece conversion; a failed conversion leaves no output.

mod common;

use std::fs;

use common::{Rng, arg, offsets, tempdir};
use simdenc::Encoding;
use simdenc::spec::{ErrorMode, run_decoder};

/// Legacy-encoded corpus text with a few random bytes inserted (in UTF-16, unpaired
/// surrogates at even offsets, so that the error is not just the odd byte at the end).
fn corrupted(rng: &mut Rng, encoding: &'static Encoding, text: &str, insertions: usize) -> Vec<u8> {
    let mut bytes = common::encode_html(text, encoding);
    for _ in 0..insertions {
        insert_error(rng, encoding, &mut bytes, 0);
    }
    bytes
}

/// Inserts one likely error at or after `from`.
fn insert_error(rng: &mut Rng, encoding: &'static Encoding, bytes: &mut Vec<u8>, from: usize) {
    let at = from + rng.below(bytes.len() - from + 1);
    if encoding == simdenc::UTF_16LE || encoding == simdenc::UTF_16BE {
        let at = at & !1;
        let unit: u16 = [0xDC00, 0xD800, 0xDBFF][rng.below(3)];
        let pair = if encoding == simdenc::UTF_16LE {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        };
        bytes.splice(at..at, pair);
    } else {
        let byte = [0x80, 0x81, 0xA1, 0xE3, 0xFE, 0xFF, 0x1B, 0xD8, 0x00][rng.below(9)];
        bytes.insert(at, byte);
    }
}

fn check(encoding: &'static Encoding, input: &[u8], extra: &[&str]) {
    let dir = tempdir();
    let path = dir.path().join("in.bin");
    fs::write(&path, input).unwrap();
    let out_path = dir.path().join("out.txt");
    let expected = run_decoder(encoding, input, ErrorMode::Fatal);
    let mut args = vec![
        "convert",
        "-f",
        encoding.name(),
        "--bom=keep",
        "--errors=fatal",
        "-o",
        arg(&out_path),
    ];
    args.extend_from_slice(extra);
    args.push(arg(&path));
    let out = common::run(&args, b"");
    match expected.error {
        Some(stop) => {
            assert_eq!(out.status, 1, "{}: {}", encoding.name(), out.stderr);
            let (start, end) = offsets(&out.stderr).unwrap_or_else(|| panic!("no offsets in {}", out.stderr));
            assert_eq!(end as usize, stop, "{}: {}", encoding.name(), out.stderr);
            assert!(start <= end);
            assert!(
                !out_path.exists(),
                "a failed conversion left {}",
                out_path.display()
            );
        }
        None => {
            assert_eq!(out.status, 0, "{}: {}", encoding.name(), out.stderr);
            assert!(fs::read(&out_path).unwrap() == expected.output.as_bytes());
        }
    }
    let out = common::run(
        &["validate", "-f", encoding.name(), "--bom=keep", arg(&path)],
        b"",
    );
    match expected.error {
        Some(stop) => {
            assert_eq!(out.status, 1);
            assert_eq!(
                offsets(&out.text()).map(|(_, end)| end as usize),
                Some(stop),
                "{}",
                out.text()
            );
        }
        None => assert_eq!(out.status, 0, "{}", out.text()),
    }
}

#[test]
fn fatal_offsets_equal_the_standard() {
    let mut rng = Rng(0xfa7a1);
    let cases = [
        ("utf-8", "ja"),
        ("shift_jis", "ja"),
        ("euc-jp", "ja"),
        ("iso-2022-jp", "ja"),
        ("gbk", "zh_cn"),
        ("gb18030", "zh_cn"),
        ("big5", "zh_tw"),
        ("euc-kr", "ko"),
        ("utf-16le", "el"),
        ("utf-16be", "ru"),
        ("windows-1253", "el"),
        ("windows-874", "th"),
        ("replacement", "en"),
    ];
    for (label, lang) in cases {
        let encoding = Encoding::for_label(label.as_bytes()).unwrap();
        let text: String = common::wikipedia(lang).chars().take(3000).collect();
        // One clean run, then corrupted ones.
        check(encoding, &common::encode_html(&text, encoding), &[]);
        for _ in 0..6 {
            let insertions = 1 + rng.below(3);
            check(encoding, &corrupted(&mut rng, encoding, &text, insertions), &[]);
        }
    }
}

#[test]
fn fatal_offsets_in_parallel_pieces() {
    let mut rng = Rng(0x9ec5);
    for label in ["utf-8", "utf-16le", "utf-16be", "windows-1253", "x-user-defined"] {
        let encoding = Encoding::for_label(label.as_bytes()).unwrap();
        let text = common::wikipedia("el");
        for _ in 0..3 {
            let mut bytes = common::encode_html(&text, encoding);
            // Errors in the second half, so that they land in a later piece.
            let half = bytes.len() / 2;
            insert_error(&mut rng, encoding, &mut bytes, half);
            insert_error(&mut rng, encoding, &mut bytes, half);
            check(encoding, &bytes, &["-j", "4", "--chunk-size", "3000"]);
        }
    }
}

#[test]
fn failed_conversion_keeps_an_existing_output() {
    let dir = tempdir();
    let input = dir.path().join("in.txt");
    let mut bytes = "ok ".repeat(100_000).into_bytes();
    bytes.extend_from_slice(b"\xFF");
    fs::write(&input, &bytes).unwrap();
    let output = dir.path().join("out.txt");
    fs::write(&output, "precious").unwrap();
    for extra in [&[][..], &["-j", "2", "--chunk-size", "10000"]] {
        let mut args = vec!["convert", "--errors=fatal", "-o", arg(&output), arg(&input)];
        args.extend_from_slice(extra);
        let out = common::run(&args, b"");
        assert_eq!(out.status, 1);
        assert_eq!(offsets(&out.stderr), Some((300_000, 300_001)));
        assert_eq!(fs::read_to_string(&output).unwrap(), "precious");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "temporary file left behind: {names:?}");
    }
    // The same in --out-dir mode, per file: the good file is written, the bad one is not.
    let good = dir.path().join("good.txt");
    fs::write(&good, "fine").unwrap();
    let out_dir = dir.path().join("out");
    let out = common::run(
        &[
            "convert",
            "--errors=fatal",
            "--out-dir",
            arg(&out_dir),
            arg(&input),
            arg(&good),
        ],
        b"",
    );
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("1 failed"), "{}", out.stderr);
    assert!(out_dir.join("good.txt").exists());
    assert!(!out_dir.join("in.txt").exists());
    assert_eq!(fs::read_dir(&out_dir).unwrap().count(), 1);
}

#[test]
fn interrupted_conversion_leaves_no_output() {
    use std::io::Write;
    let dir = tempdir();
    let output = dir.path().join("out.txt");
    fs::write(&output, "precious").unwrap();
    // The input comes through a pipe that stays open, so the conversion cannot finish before
    // it is killed, however fast the machine.
    let mut child = std::process::Command::new(common::bin())
        .args(["convert", "-t", "utf-16le", "-j", "1", "-o", arg(&output)])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all("Марс ".repeat(300_000).as_bytes()).unwrap();
    // Kill it once its temporary file has some data in it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let temp_size = loop {
        let temp_size: u64 = fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".simdenc-"))
            .map(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
            .sum();
        if temp_size > 0 || std::time::Instant::now() > deadline {
            break temp_size;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the conversion ended with its input open"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    };
    assert!(temp_size > 0, "no output written in 20 s");
    child.kill().unwrap();
    assert!(!child.wait().unwrap().success());
    drop(stdin);
    // The target is untouched; only the (hidden) temporary file can remain after SIGKILL.
    assert_eq!(fs::read_to_string(&output).unwrap(), "precious");
}
