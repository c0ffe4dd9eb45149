//! Helpers for the integration tests: run the built `simdenc`, read the corpus, compare.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_simdenc")
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What a run produced.
#[derive(Debug)]
pub struct Out {
    pub status: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Out {
    /// Asserts success and returns standard output.
    pub fn ok(self) -> Vec<u8> {
        assert_eq!(self.status, 0, "stderr: {}", self.stderr);
        self.stdout
    }

    /// Standard output as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Runs `simdenc args` with `stdin` in `dir` (or the repository root).
pub fn run_in(dir: Option<&Path>, args: &[&str], stdin: &[u8]) -> Out {
    let mut command = Command::new(bin());
    command
        .args(args)
        .current_dir(dir.map_or_else(repo, Path::to_path_buf))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("spawn simdenc");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().expect("wait for simdenc");
    let _ = writer.join();
    Out {
        status: output.status.code().unwrap_or(-1),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs `simdenc args` with `stdin` in the repository root.
pub fn run(args: &[&str], stdin: &[u8]) -> Out {
    run_in(None, args, stdin)
}

/// A path as an argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// The corpus texts (Wikipedia articles and Unicode lipsum files): `(name, text)`.
pub fn corpus() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["data/corpus/wikipedia", "data/corpus/lipsum"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(repo().join(dir))
            .expect("corpus directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt") && !p.ends_with("sources.txt"))
            .collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            files.push((name, std::fs::read_to_string(&path).expect("UTF-8 corpus file")));
        }
    }
    files
}

/// One corpus text by file name under data/corpus/wikipedia.
pub fn wikipedia(lang: &str) -> String {
    std::fs::read_to_string(repo().join(format!("data/corpus/wikipedia/{lang}.txt"))).expect("corpus file")
}

/// A fresh temporary directory.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("simdenc-cli-test")
        .tempdir()
        .expect("temp dir")
}

/// Deterministic xorshift.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Parses "... at byte offset N ... stops at M" from a message.
pub fn offsets(message: &str) -> Option<(u64, u64)> {
    let after = |key: &str| -> Option<u64> {
        let rest = &message[message.find(key)? + key.len()..];
        rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    };
    Some((after("at byte offset ")?, after("stops at ")?))
}

/// Encodes as the standard's encoder in html mode (UTF-16 targets: UTF-16 code units).
pub fn encode_html(text: &str, encoding: &'static simdenc::Encoding) -> Vec<u8> {
    if encoding == simdenc::UTF_16LE {
        return text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    }
    if encoding == simdenc::UTF_16BE {
        return text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    }
    encoding.encode(text).0.into_owned()
}

/// Reports that `test` did not run its check, and why, where `cargo test` shows it: written
/// to the process's standard error directly (libtest captures `eprintln!` of a passing test,
/// not `io::stderr()`). Under CI (`CI` set, as `.ci/run` runs) a skip fails instead: CI's
/// machines have what every test needs, and a check that silently stopped running there
/// would go unnoticed.
pub fn skip(test: &str, reason: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{test} did not run under CI: {reason}"
    );
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
}
