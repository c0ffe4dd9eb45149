//! Benchmarks of simdenc (see `benches/`): `cargo bench -p simdenc-bench`, then
//! `python3 benches/summary.py` for MB/s and ratios against the peers measured in the same run.

/// The bundled corpus, relative to this crate.
pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/corpus");
