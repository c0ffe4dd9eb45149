//! Every kernel of every level this CPU supports against the scalar kernels, exactly: the
//! same `(read, written)` and the same output buffer, canaries past what is written included
//! (through `simdenc::internals`). Under qemu this is what checks the NEON kernels.

use super::common::Rng;
use simdenc::Encoding;
use simdenc::cpu::{self, Level};
use simdenc::internals::{KernelTable, cjk_tables, single_byte_table};
use simdenc::spec;

/// Compares `f` at `k` and at scalar; returns 1 (a check) or panics with `what`.
fn same<T: PartialEq + std::fmt::Debug>(k: KernelTable, what: &str, f: impl Fn(KernelTable) -> T) -> usize {
    let scalar = KernelTable::for_level(Level::Scalar).expect("scalar is always supported");
    let (got, expect) = (f(k), f(scalar));
    assert_eq!(got, expect, "{:?} {what}", k.level());
    1
}

/// Runs every comparison at every supported level but scalar; returns the number of checks.
pub fn every_kernel_equals_scalar(quick: bool) -> usize {
    let mut checks = 0;
    for level in cpu::supported().filter(|&l| l != Level::Scalar) {
        let k = KernelTable::for_level(level).expect("a supported level");
        let mut rng = Rng(0x4B45_524E_0000 + level as u64);
        checks += single_byte(k, &mut rng, quick);
        checks += others(k, &mut rng, quick);
        checks += cjk(k, &mut rng, quick);
        checks += utf8_blocks(k, &mut rng, quick);
        println!("kernels at {level}: equal to scalar");
    }
    checks
}

fn single_byte(k: KernelTable, rng: &mut Rng, quick: bool) -> usize {
    let tables: Vec<&[u16; 128]> = Encoding::all()
        .iter()
        .filter_map(|&e| single_byte_table(e))
        .collect();
    assert_eq!(tables.len(), 29, "28 single-byte encodings and x-user-defined");
    let step = if quick { 5 } else { 1 };
    let mut checks = 0;
    for table in tables {
        let mut check = |input: &[u8], cap16: usize, cap8: usize| {
            checks += same(
                k,
                &format!("single_byte_to_utf16 cap {cap16} {input:02X?}"),
                |k| {
                    let mut d = vec![0xA5A5u16; cap16];
                    (k.single_byte_to_utf16(input, table, &mut d), d)
                },
            );
            checks += same(k, &format!("single_byte_to_utf8 cap {cap8} {input:02X?}"), |k| {
                let mut d = vec![0xA5u8; cap8];
                (k.single_byte_to_utf8(input, table, &mut d), d)
            });
        };
        // All 256 bytes, from every starting byte.
        for start in (0..256).step_by(step * 3) {
            let input: Vec<u8> = (0..300).map(|i| ((start + i) % 256) as u8).collect();
            check(&input, 300, 900);
            check(&input, 150, 301);
        }
        // Text: ASCII between the table's letters, now and then an unmapped byte; output
        // buffers of random sizes.
        let mapped: Vec<u8> = (0x80..=0xFFu8)
            .filter(|&b| table[usize::from(b - 0x80)] != 0)
            .collect();
        let unmapped: Vec<u8> = (0x80..=0xFFu8)
            .filter(|&b| table[usize::from(b - 0x80)] == 0)
            .collect();
        for len in (0..=200).step_by(step) {
            let mut input: Vec<u8> = (0..len)
                .map(|_| match rng.below(6) {
                    0 => b" .a"[rng.below(3)],
                    _ => mapped[rng.below(mapped.len())],
                })
                .collect();
            if !unmapped.is_empty() && len > 0 && rng.below(3) == 0 {
                input[rng.below(len)] = unmapped[rng.below(unmapped.len())];
            }
            check(&input, len, 3 * len);
            check(&input, rng.below(len + 1), rng.below(3 * len + 1));
        }
    }
    checks
}

fn others(k: KernelTable, rng: &mut Rng, quick: bool) -> usize {
    let mut checks = 0;
    // A step or block with three-byte characters stored whole (garbage after it), then one
    // stored exactly because an unpaired surrogate follows: the garbage must be overwritten
    // (NEON's 8-unit blocks once left 3 bytes of it after `written`).
    let text: Vec<u16> = "\u{FFFD} 한국어 😀 — Lorem ipsum é ü ж 日本語 — Lorem ipsum"
        .encode_utf16()
        .collect();
    for cut in 0..text.len() {
        for bad in [0xD800u16, 0xDC00] {
            let mut units = text.clone();
            units[cut] = bad;
            for cap in [3 * units.len() + 8, 3 * units.len() + 40, 2 * cut + 3] {
                checks += same(k, "utf16_to_utf8 before an unpaired surrogate", |k| {
                    let mut d = vec![0xA5u8; cap];
                    (k.utf16_to_utf8(&units, &mut d), d)
                });
                let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
                checks += same(k, "utf16_bytes_to_utf8 before an unpaired surrogate", |k| {
                    let mut d = vec![0xA5u8; cap];
                    (k.utf16_bytes_to_utf8(&bytes, false, &mut d), d)
                });
            }
        }
    }
    let text = "Lorem ipsum é ü ж 日本語 한국어 😀 — ".repeat(8);
    let rounds = if quick { 60 } else { 600 };
    for _ in 0..rounds {
        let mut bytes = text.as_bytes()[rng.below(40)..][..rng.below(300)].to_vec();
        if !bytes.is_empty() && rng.below(2) == 0 {
            let at = rng.below(bytes.len());
            bytes[at] = [0x80, 0xC0, 0xED, 0xF5, 0xFF, b'a'][rng.below(6)];
        }
        let cap = rng.below(3 * bytes.len() + 8);
        let b = &bytes;
        checks += same(k, "ascii_prefix_len", |k| k.ascii_prefix_len(b));
        checks += same(k, "copy_ascii", |k| {
            let mut d = vec![0xA5u8; cap];
            (k.copy_ascii(b, &mut d), d)
        });
        checks += same(k, "widen_ascii", |k| {
            let mut d = vec![0xA5A5u16; cap];
            (k.widen_ascii(b, &mut d), d)
        });
        checks += same(k, "utf8_valid_up_to", |k| k.utf8_valid_up_to(b));
        checks += same(k, "utf8_copy_valid", |k| {
            let mut d = vec![0xA5u8; cap];
            (k.utf8_copy_valid(b, &mut d), d)
        });
        checks += same(k, "utf8_to_utf16", |k| {
            let mut d = vec![0xA5A5u16; cap];
            (k.utf8_to_utf16(b, &mut d), d)
        });
        for be in [false, true] {
            checks += same(k, "utf16_bytes_to_utf16", |k| {
                let mut d = vec![0xA5A5u16; cap];
                (k.utf16_bytes_to_utf16(b, be, &mut d), d)
            });
            checks += same(k, "utf16_bytes_to_utf8", |k| {
                let mut d = vec![0xA5u8; cap];
                (k.utf16_bytes_to_utf8(b, be, &mut d), d)
            });
        }
        let mut units: Vec<u16> = String::from_utf8_lossy(b).encode_utf16().collect();
        if !units.is_empty() && rng.below(3) == 0 {
            let at = rng.below(units.len());
            units[at] = [0xD800, 0xDC00, 0x7F, 0x80, 0xFFFF][rng.below(5)];
        }
        let u = &units;
        checks += same(k, "narrow_ascii", |k| {
            let mut d = vec![0xA5u8; cap];
            (k.narrow_ascii(u, &mut d), d)
        });
        checks += same(k, "utf16_to_utf8", |k| {
            let mut d = vec![0xA5u8; cap];
            (k.utf16_to_utf8(u, &mut d), d)
        });
    }
    checks
}

/// The CJK kernels (`cjk_to_utf8`, `cjk_to_utf16`, `utf16_to_legacy`) of every two-byte
/// encoding against their reference, exactly: encoded text of the three languages from
/// random offsets, random pairs, bytes and code units the kernels must stop at inserted,
/// output buffers of random sizes (canaries after them).
fn cjk(k: KernelTable, rng: &mut Rng, quick: bool) -> usize {
    let text = "火星は、太陽系の太陽に近い方から4番目の惑星である。地球型惑星に分類され、\
                Mars 화성은 태양계의 네 번째 행성이다. 火星是太陽系由內往外數的第四顆行星，\
                〜 ℃ αβγ Ωмир ×÷ 123 abc\n<p class=\"mw-content-ltr\">Mars</p>\n"
        .repeat(3);
    let reference = KernelTable::for_level(Level::Scalar).expect("scalar is always supported");
    let mut checks = 0;
    let rounds = if quick { 40 } else { 300 };
    for tables in cjk_tables() {
        let encoded = spec::run_encoder(tables.encoding(), &text, spec::ErrorMode::Html).output;
        // A stop at every place of pairs and ASCII, two blocks or more at every level (128
        // bytes or more: AVX-512's blocks are 64; 0xFF leads no pair in any of the five),
        // with output buffers ending exactly there, a little after and far after: whichever
        // block stops the kernel, the bytes a block stored whole left after its output are
        // written back (canaries past `written`).
        let dense = spec::run_encoder(
            tables.encoding(),
            &"火星は太陽系 of 第四顆行星 화성은 Mars".repeat(4),
            spec::ErrorMode::Html,
        )
        .output;
        assert!(
            dense.len() >= 128,
            "{:?}: {} bytes",
            tables.encoding(),
            dense.len()
        );
        for at in 0..dense.len() {
            let mut bytes = dense.clone();
            bytes[at] = 0xFF;
            let r8 = reference.cjk_to_utf8(&bytes, &tables, &mut vec![0u8; 3 * bytes.len()]);
            let r16 = reference.cjk_to_utf16(&bytes, &tables, &mut vec![0u16; bytes.len()]);
            for (cap8, cap16) in [
                (r8.1, r16.1),
                (r8.1 + 1, r16.1 + 1),
                (r8.1 + 17, r16.1 + 9),
                (3 * bytes.len() + 40, bytes.len() + 40),
            ] {
                let b = &bytes;
                checks += same(
                    k,
                    &format!("{:?} stop at {at} cap {cap8}/{cap16}", tables.encoding()),
                    |k| {
                        let mut d8 = vec![0xA5u8; cap8];
                        let mut d16 = vec![0xA5A5u16; cap16];
                        (
                            k.cjk_to_utf8(b, &tables, &mut d8),
                            d8,
                            k.cjk_to_utf16(b, &tables, &mut d16),
                            d16,
                        )
                    },
                );
            }
        }
        let units: Vec<u16> = text.encode_utf16().collect();
        for _ in 0..rounds {
            let start = rng.below(encoded.len());
            let mut bytes = encoded[start..][..rng.below(encoded.len() - start + 1)].to_vec();
            for _ in 0..rng.below(3) {
                let at = rng.below(bytes.len() + 1);
                let special: Vec<u8> = match rng.below(4) {
                    0 => vec![0x81 + rng.below(0x7E) as u8, 0x30 + rng.below(10) as u8],
                    1 => vec![0x80 + rng.below(0x80) as u8, rng.below(0x100) as u8],
                    2 => vec![rng.below(0x100) as u8],
                    _ => vec![
                        0x81 + rng.below(0x7E) as u8,
                        0x30 + rng.below(10) as u8,
                        0x81 + rng.below(0x7E) as u8,
                        0x30 + rng.below(10) as u8,
                    ],
                };
                bytes.splice(at..at, special);
            }
            let b = &bytes;
            let (cap8, cap16) = match rng.below(3) {
                0 => (3 * b.len() + 8, b.len() + 8),
                _ => (rng.below(3 * b.len() + 8), rng.below(b.len() + 8)),
            };
            let what = format!("{:?} cap {cap8}/{cap16} {b:02X?}", tables.encoding());
            let got = |k: KernelTable| {
                let mut d8 = vec![0xA5u8; cap8];
                let mut d16 = vec![0xA5A5u16; cap16];
                let r8 = k.cjk_to_utf8(b, &tables, &mut d8);
                let r16 = k.cjk_to_utf16(b, &tables, &mut d16);
                (r8, d8, r16, d16)
            };
            assert_eq!(got(k), got(reference), "{:?} pairs {what}", k.level());
            checks += 1;
            let start = rng.below(units.len());
            let mut u = units[start..][..rng.below(units.len() - start + 1)].to_vec();
            for _ in 0..rng.below(3) {
                let at = rng.below(u.len() + 1);
                u.insert(
                    at,
                    [0xD800, 0xDC00, 0x80, 0xA5, 0xE5E5, 0x20AC, 0xFFFF, 0][rng.below(8)],
                );
            }
            let cap = match rng.below(3) {
                0 => 2 * u.len() + 8,
                _ => rng.below(2 * u.len() + 8),
            };
            checks += same(
                k,
                &format!("utf16_to_legacy {:?} cap {cap} {u:04X?}", tables.encoding()),
                |k| {
                    let mut d = vec![0xA5u8; cap];
                    (k.utf16_to_legacy(&u, &tables.legacy(), &mut d), d)
                },
            );
        }
    }
    checks
}

/// UTF-8 text of 64-byte blocks, ASCII or not in runs of 1 to 10 (the validators' ASCII runs,
/// which may end at any block, their steps of four blocks, tested block by block or not),
/// with a character or an error a few bytes around a block edge, and outputs cut anywhere:
/// validation, the UTF-8 copy and UTF-8 to UTF-16 equal to scalar.
fn utf8_blocks(k: KernelTable, rng: &mut Rng, quick: bool) -> usize {
    const SPECIALS: [&[u8]; 10] = [
        b"\xC3\xA9",
        b"\xE6\x97\xA5",
        b"\xF0\x9F\x98\x80",
        b"\xE6\x97",
        b"\xC3",
        b"\x80",
        b"\xED\xA0\x80",
        b"\xFF",
        // Overlong 2-byte forms: what the 1-2-byte blocks of `utf8_to_utf16` check apart.
        b"\xC1\xBF",
        b"\xC0\x80",
    ];
    const LETTERS: [&str; 3] = ["é", "ж", "日"];
    let mut checks = 0;
    for _ in 0..if quick { 16 } else { 80 } {
        let blocks = 1 + rng.below(24);
        let len = blocks * 64 + rng.below(64);
        let mut text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        let (mut block, mut ascii) = (0, rng.below(2) == 0);
        while block * 64 < len {
            let run = 1 + rng.below(10);
            for b in block..block + run {
                let letter = LETTERS[rng.below(3)].as_bytes();
                let at = b * 64 + rng.below(64);
                if !ascii && at + letter.len() <= len {
                    text[at..at + letter.len()].copy_from_slice(letter);
                }
            }
            block += run;
            ascii = !ascii;
        }
        for _ in 0..if quick { 6 } else { 24 } {
            let mut v = text.clone();
            let pos = (64 * rng.below(blocks + 1) + rng.below(8)).saturating_sub(4);
            let special = SPECIALS[rng.below(SPECIALS.len())];
            for (i, &b) in special.iter().enumerate() {
                if pos + i < len {
                    v[pos + i] = b;
                }
            }
            let cap = [len, rng.below(len + 1), pos.min(len)][rng.below(3)];
            // The text is the rng's (deterministic): the message names where it changed.
            let at = format!("len {len}, {special:02X?} at {pos}, cap {cap}");
            checks += same(k, &format!("utf8_valid_up_to {at}"), |k| k.utf8_valid_up_to(&v));
            checks += same(k, &format!("utf8_copy_valid {at}"), |k| {
                let mut d = vec![0xA5u8; cap];
                (k.utf8_copy_valid(&v, &mut d), d)
            });
            checks += same(k, &format!("utf8_to_utf16 {at}"), |k| {
                let mut d = vec![0xA5A5u16; cap];
                (k.utf8_to_utf16(&v, &mut d), d)
            });
        }
    }
    checks
}
