//! Records what `simdenc bench` reports about how the binary was built: the compiler
//! (`rustc -V` of the `RUSTC` cargo runs), the profile, and the versions of the peer crates
//! from the workspace's Cargo.lock (`--features peers`).

use std::path::Path;
use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(&rustc)
        .arg("-V")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "rustc (unknown version)".into());
    println!("cargo:rustc-env=SIMDENC_BUILD_RUSTC={version}");
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".into());
    let opt_level = std::env::var("OPT_LEVEL").unwrap_or_else(|_| "?".into());
    println!("cargo:rustc-env=SIMDENC_BUILD_PROFILE={profile} (opt-level {opt_level})");

    let lock = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    println!("cargo:rerun-if-changed=build.rs");
    let lock = std::fs::read_to_string(&lock).unwrap_or_default();
    for (krate, var) in [
        ("encoding_rs", "SIMDENC_BUILD_ENCODING_RS"),
        ("simdutf8", "SIMDENC_BUILD_SIMDUTF8"),
    ] {
        let version = locked_version(&lock, krate).unwrap_or_else(|| "(version unknown)".into());
        println!("cargo:rustc-env={var}={version}");
    }
}

/// The version of `krate` in a Cargo.lock (the first entry, if several).
fn locked_version(lock: &str, krate: &str) -> Option<String> {
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == format!("name = \"{krate}\"") {
            let next = lines.next()?.trim();
            let version = next.strip_prefix("version = \"")?.strip_suffix('"')?;
            return Some(version.to_owned());
        }
    }
    None
}
