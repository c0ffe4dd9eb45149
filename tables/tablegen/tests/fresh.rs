//! The committed `src/tables/*.rs` must be exactly what the generator produces now.

#[test]
fn generated_tables_are_fresh() {
    let root = simdenc_tablegen::repo_root();
    let files = simdenc_tablegen::render_all(&root.join("tables/whatwg")).expect("render_all");
    assert!(
        files.len() >= 9,
        "the generator produced only {} files",
        files.len()
    );
    let mut stale = Vec::new();
    for (path, expected) in &files {
        match std::fs::read_to_string(root.join(path)) {
            Ok(actual) if &actual == expected => {}
            Ok(_) => stale.push(format!("{} is stale", path.display())),
            Err(e) => stale.push(format!("{} cannot be read: {e}", path.display())),
        }
    }
    assert!(
        stale.is_empty(),
        "{}: run `cargo run -p simdenc-tablegen` and commit the result",
        stale.join("; ")
    );
}
