//! What a hostile or unlucky user found (issue 22), one regression test each: files named
//! twice, absurd `-j`, FIFOs, closed and broken outputs, reruns over their own output, the
//! leftovers of killed runs, dangling links, iconv suffixes, `SIMDENC_LEVEL` everywhere.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{arg, bin, run_in, tempdir};

/// Runs a shell command line (`$SIMDENC` is the binary) in `dir`: `(status, stdout, stderr)`.
fn sh(dir: &Path, script: &str) -> (i32, Vec<u8>, String) {
    let out = Command::new("bash")
        .args(["-c", script])
        .env("SIMDENC", bin())
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("bash");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn in_place_converts_a_file_named_twice_once() {
    let dir = tempdir();
    fs::write(dir.path().join("d.txt"), b"caf\xE9\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("d.txt", dir.path().join("link.txt")).unwrap();
    let mut args = vec!["convert", "-f", "latin1", "--in-place", "d.txt", "./d.txt"];
    if cfg!(unix) {
        args.push("link.txt");
    }
    let out = run_in(Some(dir.path()), &args, b"");
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(fs::read(dir.path().join("d.txt")).unwrap(), "café\n".as_bytes());
    assert!(
        out.stderr.contains("./d.txt is the same file as d.txt"),
        "{}",
        out.stderr
    );
    // The same in the other modes: standard output gets the file once.
    fs::write(dir.path().join("e.txt"), b"\xE9").unwrap();
    let out = run_in(
        Some(dir.path()),
        &["convert", "-f", "latin1", "e.txt", "./e.txt"],
        b"",
    );
    assert_eq!(out.ok(), "é".as_bytes());
}

#[test]
fn absurd_thread_counts_are_refused() {
    for j in ["100000", "18446744073709551615", "257", "0"] {
        for command in ["convert", "validate"] {
            let out = common::run(&[command, "-j", j, "-"], b"x");
            assert_eq!(out.status, 2, "{command} -j {j}: {}", out.stderr);
            assert!(
                out.stderr.contains("between 1 and 256") || out.stderr.contains("invalid value"),
                "{command} -j {j}: {}",
                out.stderr
            );
        }
    }
    assert_eq!(common::run(&["convert", "-j", "256", "-"], b"x").ok(), b"x");
}

#[cfg(unix)]
#[test]
fn in_place_refuses_a_fifo_without_opening_it() {
    let dir = tempdir();
    let fifo = dir.path().join("fifo");
    let status = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(status.success());
    let mut child = Command::new(bin())
        .args(["convert", "-f", "latin1", "--in-place", arg(&fifo)])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Opening the FIFO would block for ever (no writer): a guard against the hang, not a
    // measure of speed.
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("--in-place opened the FIFO and waited for a writer");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert_eq!(status.code(), Some(1));
    assert!(stderr.contains("regular files only"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn closed_and_broken_outputs() {
    let dir = tempdir();
    // A closed standard output is an error, as for cat and iconv.
    for script in [
        "printf 'x' | \"$SIMDENC\" convert >&-",
        "\"$SIMDENC\" labels >&-",
        "printf 'x' | \"$SIMDENC\" validate >&-",
    ] {
        let (status, _, stderr) = sh(dir.path(), script);
        assert_eq!(status, 1, "{script}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output"),
            "{script}: {stderr}"
        );
    }
    // A standard output redirected to /dev/null is open: not an error.
    for script in [
        "printf 'x' | \"$SIMDENC\" convert >/dev/null",
        "\"$SIMDENC\" labels >/dev/null",
    ] {
        let (status, _, stderr) = sh(dir.path(), script);
        assert_eq!((status, stderr.as_str()), (0, ""), "{script}");
    }
    // A reader that goes away ends the run quietly, through `-o /dev/stdout` as through
    // standard output.
    let big = dir.path().join("big.txt");
    fs::write(&big, "abcdefgh\n".repeat(1 << 20)).unwrap();
    for output in ["", "-o /dev/stdout", "-o -"] {
        let script = format!("set -o pipefail; \"$SIMDENC\" convert {output} big.txt | head -c 1 >/dev/null");
        let (status, _, stderr) = sh(dir.path(), &script);
        assert_eq!((status, stderr.as_str()), (0, ""), "{script}");
    }
}

#[test]
fn rerun_into_an_output_dir_inside_the_input_tree() {
    let dir = tempdir();
    let t2 = dir.path().join("t2");
    fs::create_dir_all(t2.join("sub")).unwrap();
    fs::write(t2.join("a.txt"), b"\xE9").unwrap();
    fs::write(t2.join("sub/b.txt"), b"\xE8").unwrap();
    let args = ["convert", "-q", "-f", "latin1", "-r", "--out-dir", "t2/out", "t2"];
    for _ in 0..2 {
        let out = run_in(Some(dir.path()), &args, b"");
        assert_eq!(out.status, 0, "{}", out.stderr);
        assert_eq!(fs::read(t2.join("out/a.txt")).unwrap(), "é".as_bytes());
        assert_eq!(fs::read(t2.join("out/sub/b.txt")).unwrap(), "è".as_bytes());
        assert!(!t2.join("out/out").exists());
    }
    // Where an output would overwrite an input, the message names that input (here reached
    // through a link of another name).
    #[cfg(unix)]
    {
        fs::create_dir_all(dir.path().join("o")).unwrap();
        fs::write(dir.path().join("o/a.txt"), b"x").unwrap();
        std::os::unix::fs::symlink("o/a.txt", dir.path().join("other.txt")).unwrap();
        let out = run_in(
            Some(dir.path()),
            &[
                "convert",
                "-f",
                "latin1",
                "--out-dir",
                "o",
                "t2/a.txt",
                "other.txt",
            ],
            b"",
        );
        assert_eq!(out.status, 2, "{}", out.stderr);
        assert!(
            out.stderr.contains("o/a.txt would overwrite the input other.txt"),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn recursion_skips_the_temporary_files_of_a_killed_run() {
    let dir = tempdir();
    let src = dir.path().join("src");
    fs::create_dir_all(&src).unwrap();
    fs::write(src.join("a.txt"), b"\xE9").unwrap();
    fs::write(src.join(".a.txt.simdenc-Xy12Ab.tmp"), b"half").unwrap();
    let out = run_in(
        Some(dir.path()),
        &["convert", "-f", "latin1", "-r", "--out-dir", "out", "src"],
        b"",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("skipping src/.a.txt.simdenc-Xy12Ab.tmp"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("interrupted simdenc run"), "{}", out.stderr);
    assert!(!dir.path().join("out/.a.txt.simdenc-Xy12Ab.tmp").exists());
    assert_eq!(fs::read(dir.path().join("out/a.txt")).unwrap(), "é".as_bytes());
}

#[test]
fn failures_are_not_counted_as_replaced_errors() {
    let dir = tempdir();
    fs::write(dir.path().join("a.txt"), b"a").unwrap();
    fs::write(dir.path().join("b.txt"), b"b").unwrap();
    // The output for b.txt cannot be created: a directory is in the way.
    fs::create_dir_all(dir.path().join("out/b.txt")).unwrap();
    let out = run_in(
        Some(dir.path()),
        &["convert", "-j", "1", "--out-dir", "out", "a.txt", "b.txt"],
        b"",
    );
    assert_eq!(out.status, 1, "{}", out.stderr);
    assert!(out.stderr.contains("2 files,"), "{}", out.stderr);
    assert!(out.stderr.contains("1 failed"), "{}", out.stderr);
    assert!(
        !out.stderr.contains("with replaced or omitted errors"),
        "{}",
        out.stderr
    );
}

#[test]
fn validate_names_the_encoding_a_bom_selected() {
    let dir = tempdir();
    fs::write(dir.path().join("u8.txt"), b"\xEF\xBB\xBFcaf\xC3\xA9").unwrap();
    fs::write(dir.path().join("u16.txt"), b"\xFF\xFEa\0").unwrap();
    fs::write(dir.path().join("plain.txt"), b"caf\xE9").unwrap();
    let out = run_in(
        Some(dir.path()),
        &["validate", "-f", "latin1", "u8.txt", "u16.txt", "plain.txt"],
        b"",
    );
    let text = out.text();
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        text.contains("u8.txt: valid UTF-8 (8 bytes, by its byte order mark rather than windows-1252)"),
        "{text}"
    );
    assert!(
        text.contains("u16.txt: valid UTF-16LE (4 bytes, by its byte order mark"),
        "{text}"
    );
    assert!(
        text.contains("plain.txt: valid windows-1252 (4 bytes)\n"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn a_dangling_link_as_output_is_followed() {
    let dir = tempdir();
    std::os::unix::fs::symlink("target.txt", dir.path().join("link.txt")).unwrap();
    let out = run_in(
        Some(dir.path()),
        &["convert", "-f", "latin1", "-o", "link.txt", "-"],
        b"\xE9",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        fs::symlink_metadata(dir.path().join("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(dir.path().join("target.txt")).unwrap(), "é".as_bytes());
}

#[test]
fn iconv_suffixes_in_any_combination() {
    for to in [
        "ascii//TRANSLIT//IGNORE",
        "ascii//IGNORE//TRANSLIT",
        "ascii//translit",
    ] {
        let out = common::run(&["convert", "-t", to, "-"], "é".as_bytes());
        assert_eq!(out.status, 2, "{to}");
        assert!(
            out.stderr.contains("//TRANSLIT is not supported"),
            "{to}: {}",
            out.stderr
        );
    }
    let out = common::run(&["convert", "-t", "koi8-r//IGNORE//", "-"], "aé".as_bytes());
    assert_eq!(out.ok(), b"a");
    let out = common::run(&["convert", "-t", "ascii//BOGUS", "-"], b"a");
    assert_eq!(out.status, 2);
    assert!(out.stderr.contains("unknown suffix //BOGUS"), "{}", out.stderr);
}

#[test]
fn every_subcommand_refuses_a_bad_level() {
    for args in [&["labels"][..], &["-l"], &["convert", "-"], &["validate", "-"]] {
        let out = Command::new(bin())
            .args(args)
            .env("SIMDENC_LEVEL", "bogus")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("SIMDENC_LEVEL"), "{args:?}: {stderr}");
    }
}
