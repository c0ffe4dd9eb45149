//! Memory stays flat whatever the input size: the peak resident set size of the process
//! converting a large generated file stays under 16 MiB.
//!
//! The peak comes from `/usr/bin/time -v` (the kernel's `ru_maxrss` of the child) when it
//! is installed, else from polling `VmHWM` in `/proc/<pid>/status`.

mod common;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{arg, tempdir};

const LIMIT_KIB: u64 = 16 * 1024;

/// Writes about `megabytes` MB of UTF-8 text (the corpus, repeated).
fn generate(path: &Path, megabytes: usize) {
    let text: String = common::corpus().into_iter().map(|(_, text)| text).collect();
    let mut file = std::io::BufWriter::new(fs::File::create(path).unwrap());
    let mut written = 0;
    while written < megabytes * 1_000_000 {
        file.write_all(text.as_bytes()).unwrap();
        written += text.len();
    }
    file.flush().unwrap();
}

/// Runs `simdenc args` and returns its peak resident set size in KiB.
fn peak_kib(args: &[&str]) -> u64 {
    let time = Path::new("/usr/bin/time");
    if time.exists() {
        let output = Command::new(time)
            .arg("-v")
            .arg(common::bin())
            .args(args)
            .stdout(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let line = stderr
            .lines()
            .find(|l| l.contains("Maximum resident set size"))
            .expect("time -v output");
        return line.rsplit(' ').next().unwrap().trim().parse().unwrap();
    }
    let mut child = Command::new(common::bin())
        .args(args)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(status) = fs::read_to_string(&status_path)
            && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:"))
        {
            peak = peak.max(line.split_whitespace().nth(1).unwrap().parse().unwrap());
        }
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            return peak;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn check(megabytes: usize) {
    let dir = tempdir();
    let input = dir.path().join("big.txt");
    generate(&input, megabytes);
    let size = fs::metadata(&input).unwrap().len();
    let output = dir.path().join("out.bin");
    let runs: &[&[&str]] = &[
        // Parallel pieces (UTF-8 source), html mode.
        &[
            "convert",
            "-q",
            "-t",
            "gb18030",
            "--errors=html",
            "-o",
            arg(&output),
            arg(&input),
        ],
        // Parallel pieces with many threads, output larger than the input.
        &[
            "convert",
            "-q",
            "-j",
            "16",
            "-f",
            "windows-1252",
            "-o",
            arg(&output),
            arg(&input),
        ],
        // Sequential, UTF-16 output.
        &[
            "convert",
            "-q",
            "-j",
            "1",
            "-t",
            "utf-16le",
            "-o",
            arg(&output),
            arg(&input),
        ],
        // Standard output, stateful target (sequential whatever -j says).
        &["convert", "-q", "-t", "iso-2022-jp", arg(&input)],
        // Validation.
        &["validate", arg(&input)],
    ];
    for args in runs {
        let peak = peak_kib(args);
        eprintln!("note: {size} bytes, {args:?}: peak RSS {peak} KiB");
        assert!(
            peak <= LIMIT_KIB,
            "peak RSS {peak} KiB > {LIMIT_KIB} KiB for {args:?}"
        );
    }
}

#[test]
fn memory_is_flat_on_a_large_file() {
    check(40);
}

#[test]
#[ignore = "200 MB; run with --ignored"]
fn memory_is_flat_on_a_200_mb_file() {
    check(200);
}
