//! `simdenc::detect`: its generated models are fresh, and adversarial inputs take linear time.
use simdenc::detect::{Detector, Markup, guess};
use std::process::Command;

/// src/detect/model.rs is what `eval/detect/train.py generate` writes from tables/detect/ and
/// tables/whatwg/ (Python's standard library only; skipped without python3).
#[test]
fn model_is_fresh() {
    let root = env!("CARGO_MANIFEST_DIR");
    let script = format!("{root}/eval/detect/train.py");
    match Command::new("python3")
        .args([script.as_str(), "generate", "--check"])
        .output()
    {
        Ok(out) => assert!(
            out.status.success(),
            "src/detect/model.rs is stale: python3 eval/detect/train.py generate\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => eprintln!("model_is_fresh SKIPPED: no python3 ({e})"),
    }
}

/// Inputs built to hit every loop of the detector's state machines, 4 MiB each, in one piece
/// and byte by byte: a quadratic path would make this test run for hours rather than
/// seconds (no timing is asserted: the machine's load varies).
#[test]
fn adversarial_inputs_take_linear_time() {
    const N: usize = 4 << 20;
    let patterns: &[&[u8]] = &[
        b"<",
        b"<!--",
        b"<!-",
        b"--",
        b"&",
        b"&#1234567890",
        b"<a b=\"",
        b"<meta ",
        b"\x1b$",
        b"\x1b",
        b"\xE3\x81",
        b"\x81\x30\x81",
        b"\xA4",
        b"\x00",
        b"\xD8\x00",
        b"\xFF",
    ];
    for pattern in patterns {
        let bytes: Vec<u8> = pattern.iter().copied().cycle().take(N).collect();
        for markup in [Markup::Text, Markup::Html] {
            let g = guess(&bytes, markup);
            assert!((0.0..=1.0).contains(&g.confidence));
            let mut d = Detector::new(markup);
            for &b in &bytes[..64 << 10] {
                d.feed(&[b]);
            }
            assert!((0.0..=1.0).contains(&d.guess().confidence));
        }
    }
}
