//! Throughput of simdenc against encoding_rs in the same run, on the bundled corpus:
//! streaming decode into UTF-8 and UTF-16 buffers, and encode from UTF-8, per encoding
//! family, in each language's natural legacy encoding; plus small inputs.
//!
//! `cargo bench -p simdenc-bench --bench throughput` (criterion; `-- decode_to_utf8` etc. to filter), then
//! `python3 benches/summary.py` for a table of MB/s and simdenc/encoding_rs ratios.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// `(language file, encoding label)` pairs: the languages' natural legacy encodings (see
/// data/corpus/README.md), plus UTF-8 and UTF-16LE on a few.
const PAIRS: &[(&str, &str)] = &[
    ("en", "utf-8"),
    ("ru", "utf-8"),
    ("ja", "utf-8"),
    ("zh_cn", "utf-8"),
    ("ru", "utf-16le"),
    ("ja", "utf-16le"),
    ("de", "windows-1252"),
    ("cs", "windows-1250"),
    ("ru", "windows-1251"),
    ("ru", "koi8-r"),
    ("el", "windows-1253"),
    ("he", "windows-1255"),
    ("ar", "windows-1256"),
    ("th", "windows-874"),
    ("ja", "shift_jis"),
    ("ja", "euc-jp"),
    ("ja", "iso-2022-jp"),
    ("zh_cn", "gb18030"),
    ("zh_cn", "gbk"),
    ("zh_tw", "big5"),
    ("ko", "euc-kr"),
    // The full pages (mostly ASCII markup around the text) for the CJK decoders.
    ("ja.html", "shift_jis"),
    ("ja.html", "euc-jp"),
    ("zh_cn.html", "gb18030"),
    ("zh_tw.html", "big5"),
    ("ko.html", "euc-kr"),
];

/// `lang` is a language (`wikipedia/{lang}.txt`) or a file name (`ja.html`).
fn corpus(lang: &str) -> String {
    let file = if lang.contains('.') {
        lang.to_string()
    } else {
        format!("{lang}.txt")
    };
    let path = format!("{}/wikipedia/{file}", simdenc_bench::CORPUS);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text in `label`'s encoding, made with encoding_rs (unmappables as `&#N;`), so that the
/// benchmark input does not depend on the code under test. UTF-16LE by hand (no encoder).
fn encoded(text: &str, label: &str) -> Vec<u8> {
    if label == "utf-16le" {
        return text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    }
    let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
    enc.encode(text).0.into_owned()
}

fn config() -> Criterion {
    // SIMDENC_LEVEL=scalar|sse2|avx2|avx512|neon picks the kernels measured here.
    if let Err(e) = simdenc::cpu::force_from_env() {
        panic!("{e}");
    }
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1200))
}

fn decode(c: &mut Criterion) {
    for &(lang, label) in PAIRS {
        let text = corpus(lang);
        let bytes = encoded(&text, label);
        let ours = simdenc::Encoding::for_label(label.as_bytes()).unwrap();
        let theirs = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let id = format!("{}/{lang}", ours.name());

        let mut group = c.benchmark_group("decode_to_utf8");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        let mut out = vec![0u8; bytes.len() * 3 + 16];
        group.bench_function(BenchmarkId::new("simdenc", &id), |b| {
            b.iter(|| {
                let mut decoder = ours.new_decoder_without_bom_handling();
                black_box(decoder.decode_to_utf8(black_box(&bytes), &mut out, true))
            })
        });
        group.bench_function(BenchmarkId::new("encoding_rs", &id), |b| {
            b.iter(|| {
                let mut decoder = theirs.new_decoder_without_bom_handling();
                black_box(decoder.decode_to_utf8(black_box(&bytes), &mut out, true))
            })
        });
        group.finish();

        let mut group = c.benchmark_group("decode_to_utf16");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        let mut out = vec![0u16; bytes.len() + 16];
        group.bench_function(BenchmarkId::new("simdenc", &id), |b| {
            b.iter(|| {
                let mut decoder = ours.new_decoder_without_bom_handling();
                black_box(decoder.decode_to_utf16(black_box(&bytes), &mut out, true))
            })
        });
        group.bench_function(BenchmarkId::new("encoding_rs", &id), |b| {
            b.iter(|| {
                let mut decoder = theirs.new_decoder_without_bom_handling();
                black_box(decoder.decode_to_utf16(black_box(&bytes), &mut out, true))
            })
        });
        group.finish();
    }
}

fn encode(c: &mut Criterion) {
    for &(lang, label) in PAIRS.iter().filter(|p| p.1 != "utf-16le") {
        let text = corpus(lang);
        let ours = simdenc::Encoding::for_label(label.as_bytes()).unwrap();
        let theirs = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let id = format!("{}/{lang}", ours.name());
        let mut group = c.benchmark_group("encode_from_utf8");
        group.throughput(Throughput::Bytes(text.len() as u64));
        let mut out = vec![0u8; text.len() * 4 + 64];
        group.bench_function(BenchmarkId::new("simdenc", &id), |b| {
            b.iter(|| {
                let mut encoder = ours.new_encoder();
                black_box(encoder.encode_from_utf8(black_box(&text), &mut out, true))
            })
        });
        group.bench_function(BenchmarkId::new("encoding_rs", &id), |b| {
            b.iter(|| {
                let mut encoder = theirs.new_encoder();
                black_box(encoder.encode_from_utf8(black_box(&text), &mut out, true))
            })
        });
        group.finish();
    }
}

fn small(c: &mut Criterion) {
    for &(lang, label) in &[("en", "utf-8"), ("ru", "windows-1251"), ("ja", "shift_jis")] {
        let text = corpus(lang);
        let bytes = encoded(&text, label);
        let ours = simdenc::Encoding::for_label(label.as_bytes()).unwrap();
        let theirs = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        for size in [16usize, 64, 256] {
            let input = &bytes[1000..1000 + size];
            let id = format!("{}/{size}", ours.name());
            let mut group = c.benchmark_group("small_decode_to_utf8");
            group.throughput(Throughput::Bytes(size as u64));
            let mut out = vec![0u8; size * 3 + 16];
            group.bench_function(BenchmarkId::new("simdenc", &id), |b| {
                b.iter(|| {
                    let mut decoder = ours.new_decoder_without_bom_handling();
                    black_box(decoder.decode_to_utf8(black_box(input), &mut out, true))
                })
            });
            group.bench_function(BenchmarkId::new("encoding_rs", &id), |b| {
                b.iter(|| {
                    let mut decoder = theirs.new_decoder_without_bom_handling();
                    black_box(decoder.decode_to_utf8(black_box(input), &mut out, true))
                })
            });
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = decode, encode, small
}
criterion_main!(benches);
