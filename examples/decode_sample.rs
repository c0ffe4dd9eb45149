//! Decodes a legacy-encoded file with the executable standard (`simdenc::spec`) and prints it.
//!
//! ```text
//! cargo run --example decode_sample                       # the bundled Shift_JIS sample
//! cargo run --example decode_sample -- FILE LABEL         # any file, any label of the standard
//! ```
//! The "decode" hook is used as the standard defines it: a byte order mark overrides the label,
//! and malformed input becomes U+FFFD.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/data/samples/mars-ja.shift_jis.txt").to_owned()
    });
    let label = args.next().unwrap_or_else(|| "shift_jis".to_owned());
    let Some(encoding) = simdenc::Encoding::for_label(label.as_bytes()) else {
        eprintln!("decode_sample: {label:?} is not a label of the Encoding Standard");
        return ExitCode::FAILURE;
    };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("decode_sample: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = simdenc::spec::decode_bytes(&bytes, encoding);
    let errors = text.chars().filter(|&c| c == '\u{FFFD}').count();
    print!("{text}");
    eprintln!(
        "decode_sample: {} bytes of {} → {} characters, {errors} replaced",
        bytes.len(),
        encoding.name(),
        text.chars().count()
    );
    ExitCode::SUCCESS
}
