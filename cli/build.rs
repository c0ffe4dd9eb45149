//! Records what `simdenc bench` reports about how the binary was built: the compiler
//! (`rustc -V` of the `RUSTC` cargo runs), the profile, and the versions of the peer crates
//! from the workspace's Cargo.lock (`--features peers`); and, with `--features peers`, compiles
//! the shim through which `simdenc bench` calls simdutf's C++ (cpp/simdutf_peer.cpp), against the
//! simdutf sources that the `simdutf` crate bundles and builds.

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
        ("simdutf", "SIMDENC_BUILD_SIMDUTF_CRATE"),
    ] {
        let version = locked_version(&lock, krate).unwrap_or_else(|| "(version unknown)".into());
        println!("cargo:rustc-env={var}={version}");
    }
    println!("cargo:rerun-if-env-changed=SIMDENC_SIMDUTF_DIR");
    #[cfg(feature = "peers")]
    simdutf_shim(&lock);
}

/// Compiles cpp/simdutf_peer.cpp against simdutf.h from the `simdutf` crate's sources (or from
/// SIMDENC_SIMDUTF_DIR, a directory holding simdutf.h). The shim holds no copy of simdutf: its
/// calls resolve to the library the `simdutf` crate compiles and links (src/bench/simdutf.rs
/// names that crate so that it is linked).
#[cfg(feature = "peers")]
fn simdutf_shim(lock: &str) {
    println!("cargo:rerun-if-changed=cpp/simdutf_peer.cpp");
    let include = match std::env::var_os("SIMDENC_SIMDUTF_DIR") {
        Some(dir) => std::path::PathBuf::from(dir),
        None => simdutf_crate_dir(lock).join("cpp"),
    };
    if !include.join("simdutf.h").is_file() {
        panic!(
            "no simdutf.h in {} (set SIMDENC_SIMDUTF_DIR to the directory holding it)",
            include.display()
        );
    }
    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .include(&include)
        .file("cpp/simdutf_peer.cpp")
        .compile("simdenc_simdutf_peer");
}

/// The source directory of the locked `simdutf` crate: where `cargo metadata` says cargo
/// unpacked it (a registry, a vendor directory, a path), else where cargo's registry cache keeps
/// it (when `cargo metadata` would need to download other packages first, offline).
#[cfg(feature = "peers")]
fn simdutf_crate_dir(lock: &str) -> std::path::PathBuf {
    let version = locked_version(lock, "simdutf").expect("simdutf in Cargo.lock");
    let dir_name = format!("simdutf-{version}");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("Cargo.toml");
    let target = std::env::var("TARGET").unwrap_or_default();
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--features",
            "peers",
        ])
        .args(["--filter-platform", &target, "--manifest-path"])
        .arg(&manifest)
        .output();
    let metadata = output
        .as_ref()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let key = "\"manifest_path\":\"";
    let from_metadata = metadata.match_indices(key).find_map(|(at, _)| {
        let rest = &metadata[at + key.len()..];
        let dir = Path::new(&rest[..rest.find('"')?]).parent()?;
        let name = dir.file_name()?.to_str()?;
        (name == dir_name || name == "simdutf").then(|| dir.to_owned())
    });
    if let Some(dir) = from_metadata {
        return dir;
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .unwrap_or_default();
    let registries = std::fs::read_dir(cargo_home.join("registry/src"))
        .into_iter()
        .flatten();
    registries
        .filter_map(|entry| Some(entry.ok()?.path().join(&dir_name)))
        .find(|dir| dir.join("cpp/simdutf.h").is_file())
        .unwrap_or_else(|| {
            let stderr = output.map(|o| String::from_utf8_lossy(&o.stderr).into_owned());
            panic!(
                "cannot find simdutf {version}'s sources (cargo metadata: {}); set \
                 SIMDENC_SIMDUTF_DIR to the directory holding simdutf.h",
                stderr.unwrap_or_else(|e| e.to_string()).trim()
            )
        })
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
