//! `cargo run -p simdenc-tablegen`: writes `src/tables/*.rs` from `tables/whatwg/`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let root = simdenc_tablegen::repo_root();
    let files = match simdenc_tablegen::render_all(&root.join("tables/whatwg")) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("simdenc-tablegen: {e}");
            return ExitCode::FAILURE;
        }
    };
    for (path, contents) in files {
        let full = root.join(&path);
        let unchanged = std::fs::read_to_string(&full).is_ok_and(|old| old == contents);
        if unchanged {
            continue;
        }
        if let Err(e) = std::fs::write(&full, contents) {
            eprintln!("simdenc-tablegen: {}: {e}", full.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
