//! simdenc at every SIMD level this CPU supports, against encoding_rs, simdutf8 and std in
//! the same run: UTF-8 validation, UTF-8 → UTF-8 and → UTF-16 decoding, UTF-16 → UTF-8,
//! UTF-16LE/BE decoding and single-byte decoding, on the bundled corpus (whole files) and on
//! 16 B / 64 B / 256 B / 4 KiB slices.
//!
//! `cargo bench -p simdenc-bench --bench levels` (filter with `-- utf8_validate` etc.), then
//! `python3 benches/summary.py` for MB/s and ratios. Benchmark ids are
//! `{impl}/{workload}`: `simdenc-avx512`, `simdenc-scalar`, `encoding_rs`, `simdutf8`, `std`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdenc::cpu::{self, Level};
use std::hint::black_box;
use std::time::Duration;

const LIPSUM: [&str; 9] = [
    "Arabic", "Chinese", "Emoji", "Hebrew", "Hindi", "Japanese", "Korean", "Latin", "Russian",
];

fn lipsum(name: &str) -> String {
    let path = format!("{}/lipsum/{name}-Lipsum.txt", simdenc_bench::CORPUS);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn wikipedia(lang: &str) -> String {
    let path = format!("{}/wikipedia/{lang}.txt", simdenc_bench::CORPUS);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The levels to measure: every supported one, or only `SIMDENC_LEVEL` if it is set.
fn levels() -> Vec<Level> {
    match std::env::var("SIMDENC_LEVEL")
        .ok()
        .and_then(|v| Level::from_name(&v))
    {
        Some(level) if level.is_supported() => vec![level],
        _ => cpu::supported().collect(),
    }
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(800))
}

/// Runs `f` once per level with that level forced (decoders and encoders created inside `f`
/// pick it up), under the id `simdenc-{level}/{case}`.
fn per_level(group: &mut BenchmarkGroup<'_, WallTime>, case: &str, mut f: impl FnMut()) {
    for level in levels() {
        cpu::force(level).unwrap();
        group.bench_function(BenchmarkId::new(format!("simdenc-{level}"), case), |b| {
            b.iter(&mut f)
        });
    }
    cpu::force(cpu::detected()).unwrap();
}

fn utf8(c: &mut Criterion) {
    for name in LIPSUM {
        let text = lipsum(name);
        let bytes = text.as_bytes();
        let mut group = c.benchmark_group("utf8_validate");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        per_level(&mut group, name, || {
            let _ = black_box(simdenc::Encoding::utf8_valid_up_to(black_box(bytes)));
        });
        group.bench_function(BenchmarkId::new("simdutf8", name), |b| {
            b.iter(|| black_box(simdutf8::basic::from_utf8(black_box(bytes)).is_ok()))
        });
        group.bench_function(BenchmarkId::new("std", name), |b| {
            b.iter(|| black_box(std::str::from_utf8(black_box(bytes)).is_ok()))
        });
        group.bench_function(BenchmarkId::new("encoding_rs", name), |b| {
            b.iter(|| black_box(encoding_rs::Encoding::utf8_valid_up_to(black_box(bytes))))
        });
        group.finish();

        let mut group = c.benchmark_group("utf8_to_utf8");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        let mut out = vec![0u8; bytes.len() + 16];
        per_level(&mut group, name, || {
            let mut d = simdenc::UTF_8.new_decoder_without_bom_handling();
            let _ = black_box(d.decode_to_utf8(black_box(bytes), &mut out, true));
        });
        group.bench_function(BenchmarkId::new("encoding_rs", name), |b| {
            b.iter(|| {
                let mut d = encoding_rs::UTF_8.new_decoder_without_bom_handling();
                black_box(d.decode_to_utf8(black_box(bytes), &mut out, true))
            })
        });
        group.bench_function(BenchmarkId::new("memcpy", name), |b| {
            b.iter(|| {
                out[..bytes.len()].copy_from_slice(black_box(bytes));
                let _ = black_box(&out);
            })
        });
        group.finish();

        let mut group = c.benchmark_group("utf8_to_utf16");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        let mut out16 = vec![0u16; bytes.len() + 16];
        per_level(&mut group, name, || {
            let mut d = simdenc::UTF_8.new_decoder_without_bom_handling();
            let _ = black_box(d.decode_to_utf16(black_box(bytes), &mut out16, true));
        });
        group.bench_function(BenchmarkId::new("encoding_rs", name), |b| {
            b.iter(|| {
                let mut d = encoding_rs::UTF_8.new_decoder_without_bom_handling();
                black_box(d.decode_to_utf16(black_box(bytes), &mut out16, true))
            })
        });
        group.finish();

        let units: Vec<u16> = text.encode_utf16().collect();
        let mut group = c.benchmark_group("utf16_to_utf8");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        let mut out = vec![0u8; units.len() * 3 + 16];
        per_level(&mut group, name, || {
            let mut e = simdenc::UTF_8.new_encoder();
            let _ = black_box(e.encode_from_utf16(black_box(&units), &mut out, true));
        });
        group.bench_function(BenchmarkId::new("encoding_rs", name), |b| {
            b.iter(|| {
                let mut e = encoding_rs::UTF_8.new_encoder();
                black_box(e.encode_from_utf16(black_box(&units), &mut out, true))
            })
        });
        group.bench_function(BenchmarkId::new("std", name), |b| {
            b.iter(|| black_box(String::from_utf16(black_box(&units)).is_ok()))
        });
        group.finish();
    }
}

fn utf16(c: &mut Criterion) {
    for lang in ["en", "ru", "ja", "zh_cn"] {
        let text = wikipedia(lang);
        for (label, be) in [("utf-16le", false), ("utf-16be", true)] {
            let bytes: Vec<u8> = text
                .encode_utf16()
                .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                .collect();
            let ours = simdenc::Encoding::for_label(label.as_bytes()).unwrap();
            let theirs = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
            for (group_name, to16) in [("utf16_decode_to_utf16", true), ("utf16_decode_to_utf8", false)] {
                let mut group = c.benchmark_group(group_name);
                group.throughput(Throughput::Bytes(bytes.len() as u64));
                let case = format!("{}/{lang}", ours.name());
                let mut out8 = vec![0u8; bytes.len() * 2 + 16];
                let mut out16 = vec![0u16; bytes.len() + 16];
                per_level(&mut group, &case, || {
                    let mut d = ours.new_decoder_without_bom_handling();
                    if to16 {
                        let _ = black_box(d.decode_to_utf16(black_box(&bytes), &mut out16, true));
                    } else {
                        let _ = black_box(d.decode_to_utf8(black_box(&bytes), &mut out8, true));
                    }
                });
                group.bench_function(BenchmarkId::new("encoding_rs", &case), |b| {
                    b.iter(|| {
                        let mut d = theirs.new_decoder_without_bom_handling();
                        if to16 {
                            let _ = black_box(d.decode_to_utf16(black_box(&bytes), &mut out16, true));
                        } else {
                            let _ = black_box(d.decode_to_utf8(black_box(&bytes), &mut out8, true));
                        }
                    })
                });
                group.finish();
            }
        }
    }
}

fn legacy(c: &mut Criterion) {
    let pairs = [
        ("ru", "windows-1251"),
        ("el", "windows-1253"),
        ("he", "windows-1255"),
        ("ar", "windows-1256"),
        ("th", "windows-874"),
        ("ja", "shift_jis"),
        ("ja", "euc-jp"),
        ("zh_cn", "gb18030"),
        ("zh_tw", "big5"),
        ("ko", "euc-kr"),
    ];
    for (lang, label) in pairs {
        let text = wikipedia(lang);
        let theirs = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let ours = simdenc::Encoding::for_label(label.as_bytes()).unwrap();
        let bytes = theirs.encode(&text).0.into_owned();
        let case = format!("{}/{lang}", ours.name());
        for (group_name, to16) in [("legacy_decode_to_utf8", false), ("legacy_decode_to_utf16", true)] {
            let mut group = c.benchmark_group(group_name);
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            let mut out8 = vec![0u8; bytes.len() * 3 + 16];
            let mut out16 = vec![0u16; bytes.len() + 16];
            per_level(&mut group, &case, || {
                let mut d = ours.new_decoder_without_bom_handling();
                if to16 {
                    let _ = black_box(d.decode_to_utf16(black_box(&bytes), &mut out16, true));
                } else {
                    let _ = black_box(d.decode_to_utf8(black_box(&bytes), &mut out8, true));
                }
            });
            group.bench_function(BenchmarkId::new("encoding_rs", &case), |b| {
                b.iter(|| {
                    let mut d = theirs.new_decoder_without_bom_handling();
                    if to16 {
                        let _ = black_box(d.decode_to_utf16(black_box(&bytes), &mut out16, true));
                    } else {
                        let _ = black_box(d.decode_to_utf8(black_box(&bytes), &mut out8, true));
                    }
                })
            });
            group.finish();
        }
        let mut group = c.benchmark_group("legacy_encode");
        group.throughput(Throughput::Bytes(text.len() as u64));
        let mut out = vec![0u8; text.len() * 4 + 64];
        per_level(&mut group, &case, || {
            let mut e = ours.new_encoder();
            let _ = black_box(e.encode_from_utf8(black_box(&text), &mut out, true));
        });
        group.bench_function(BenchmarkId::new("encoding_rs", &case), |b| {
            b.iter(|| {
                let mut e = theirs.new_encoder();
                black_box(e.encode_from_utf8(black_box(&text), &mut out, true))
            })
        });
        group.finish();
    }
}

/// Small inputs, where call overhead and dispatch dominate: slices of the corpus.
fn small(c: &mut Criterion) {
    let ru = lipsum("Russian");
    let ja_sjis = encoding_rs::SHIFT_JIS.encode(&wikipedia("ja")).0.into_owned();
    let ru_1251 = encoding_rs::WINDOWS_1251.encode(&wikipedia("ru")).0.into_owned();
    for size in [16usize, 64, 256, 4096] {
        // Cut at character boundaries so that every input is valid.
        let mut end = size;
        while !ru.is_char_boundary(end) {
            end -= 1;
        }
        let utf8 = &ru.as_bytes()[..end];
        let mut group = c.benchmark_group("small_utf8_validate");
        group.throughput(Throughput::Bytes(utf8.len() as u64));
        let case = format!("{size}");
        per_level(&mut group, &case, || {
            let _ = black_box(simdenc::Encoding::utf8_valid_up_to(black_box(utf8)));
        });
        group.bench_function(BenchmarkId::new("simdutf8", &case), |b| {
            b.iter(|| black_box(simdutf8::basic::from_utf8(black_box(utf8)).is_ok()))
        });
        group.bench_function(BenchmarkId::new("std", &case), |b| {
            b.iter(|| black_box(std::str::from_utf8(black_box(utf8)).is_ok()))
        });
        group.finish();
        for (name, bytes, ours, theirs) in [
            ("UTF-8", utf8, simdenc::UTF_8, encoding_rs::UTF_8),
            (
                "windows-1251",
                &ru_1251[..size],
                simdenc::WINDOWS_1251,
                encoding_rs::WINDOWS_1251,
            ),
            (
                "Shift_JIS",
                &ja_sjis[1000..1000 + size],
                simdenc::SHIFT_JIS,
                encoding_rs::SHIFT_JIS,
            ),
        ] {
            let mut group = c.benchmark_group("small_decode_to_utf8");
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            let case = format!("{name}/{size}");
            let mut out = vec![0u8; size * 3 + 16];
            per_level(&mut group, &case, || {
                let mut d = ours.new_decoder_without_bom_handling();
                let _ = black_box(d.decode_to_utf8(black_box(bytes), &mut out, true));
            });
            group.bench_function(BenchmarkId::new("encoding_rs", &case), |b| {
                b.iter(|| {
                    let mut d = theirs.new_decoder_without_bom_handling();
                    black_box(d.decode_to_utf8(black_box(bytes), &mut out, true))
                })
            });
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = utf8, utf16, legacy, small
}
criterion_main!(benches);
