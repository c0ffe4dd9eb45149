//! Every kernel of every level this CPU supports against the scalar kernels, exactly: the
//! same `(read, written)` and the same output buffer, canaries past what is written included
//! (through `simdenc::internals`). Under qemu this is what checks the NEON kernels.

use super::common::Rng;
use simdenc::Encoding;
use simdenc::cpu::{self, Level};
use simdenc::internals::{KernelTable, single_byte_table};

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
