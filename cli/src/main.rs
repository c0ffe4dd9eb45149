//! The `simdenc` command (being written).
fn main() {}
