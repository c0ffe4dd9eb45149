//! Every command the README shows is run: the `simdenc …` lines of its `sh` blocks here, with
//! the binary under test, in a directory where `data/` is the repository's and `out/` exists;
//! the main command (`cargo run --release -p simdenc-cli -- ARGS`) by running ARGS the same way.
//! The test command is the one CI runs (`.ci/run` calls it; checked below). The README's Rust
//! blocks are doctests of the library (`src/lib.rs`, `ReadmeDoctests`).

mod common;

use std::fs;
use std::process::Command;

fn readme() -> String {
    fs::read_to_string(common::repo().join("README.md")).unwrap()
}

/// The lines of the README's `sh` blocks.
fn sh_lines(readme: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside && line.trim() == "```sh";
            continue;
        }
        if inside && !line.trim().is_empty() {
            lines.push(line.to_owned());
        }
    }
    lines
}

/// A command without its trailing `# comment`.
fn without_comment(line: &str) -> &str {
    line.find("  #").map_or(line, |i| &line[..i]).trim()
}

#[test]
fn every_simdenc_command_in_the_readme_runs() {
    let readme = readme();
    let mut commands: Vec<String> = Vec::new();
    for line in sh_lines(&readme) {
        let command = without_comment(&line);
        if let Some(args) = command.strip_prefix("cargo run --release -p simdenc-cli -- ") {
            commands.push(format!("simdenc {args}"));
        } else if command.starts_with("simdenc ") {
            commands.push(command.to_owned());
        }
    }
    assert!(
        commands.len() >= 6,
        "the README shows the command line: {commands:?}"
    );
    let dir = common::tempdir();
    std::os::unix::fs::symlink(common::repo().join("data"), dir.path().join("data")).unwrap();
    fs::create_dir(dir.path().join("out")).unwrap();
    let bin_dir = std::path::Path::new(common::bin()).parent().unwrap().to_owned();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for command in &commands {
        let out = Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README command failed: {command}\nstatus {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_readme_test_command_is_what_ci_runs() {
    let readme = readme();
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with("The two commands"))
        .expect("a section with the two commands");
    let lines = sh_lines(section);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let test_command = without_comment(&lines[1]);
    let ci = fs::read_to_string(common::repo().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == test_command),
        "{test_command:?} is not a line of .ci/run"
    );
}
