//! What the kernel sweeps (`tests/levels/sweeps.rs`, through `simdenc::internals`) cannot
//! reach: kernels on tables the codecs do not have, and the tables' own properties.

use super::{Lookup, available, scalar};

fn quick() -> bool {
    std::env::var_os("SIMDENC_QUICK_TESTS").is_some()
}

fn scalar_table() -> &'static super::Kernels {
    &scalar::KERNELS
}

fn as_out(d: &mut [u8]) -> &mut super::OutBytes {
    super::as_out(d)
}

/// The two-byte CJK kernels with a made-up index whose code points are at the edges of
/// "plain" (U+07FF, U+0800, surrogates, U+FFFF, 0): random pairs and ASCII, every level
/// against scalar.
#[test]
fn cjk_decode_edge_code_points() {
    const EDGES: [u32; 13] = [
        0, 0x7F, 0x80, 0x416, 0x7FF, 0x800, 0x4E00, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFFFF, 0xFFFE,
    ];
    let mut seed = 0x0123_4567_89AB_CDEFu64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // The gb18030 shape: leads 0x81..=0xFE, trails 0x40..=0x7E and 0x80..=0xFE.
    let mut lead_row = [0u8; 128];
    for (i, row) in lead_row.iter_mut().enumerate().skip(1).take(126) {
        *row = i as u8;
    }
    let mut trail_col = [0xFFu8; 256];
    for (col, b) in (0x40..=0x7E).chain(0x80..=0xFE).enumerate() {
        trail_col[b] = col as u8;
    }
    // Mostly ordinary code points, so that whole blocks go through before an edge; 300
    // pointers short, so that some are at or above the limit, and the last entries below
    // it plain (where a kernel might read instead).
    let mut values: Vec<u32> = (0..126 * 190 - 300)
        .map(|_| match next() % 256 {
            e @ 0..13 => EDGES[e as usize],
            _ => 0x4E00 + (next() % 0x5000) as u32,
        })
        .collect();
    let n = values.len();
    values[n - 2..].fill(0x4E01);
    let u16s: &'static [u16] = Vec::leak(values.iter().map(|&v| v as u16).collect());
    {
        let tables = super::PairTables::new(lead_row, trail_col, 190, Lookup::U16(u16s));
        for _ in 0..if quick() { 20 } else { 300 } {
            let len = (next() % 400) as usize;
            let mut input = Vec::with_capacity(len + 1);
            while input.len() < len {
                if next() % 4 == 0 {
                    input.push(b'a' + (next() % 26) as u8);
                } else {
                    input.push(0x81 + (next() % 126) as u8);
                    input.push(
                        [0x40 + (next() % 63) as u8, 0x80 + (next() % 127) as u8][(next() % 2) as usize],
                    );
                }
            }
            for k in available() {
                for cap in [len * 3 + 8, len, len / 2] {
                    let mut a = vec![0xA5u8; cap];
                    let mut b = vec![0xA5u8; cap];
                    assert_eq!(
                        (k.cjk_to_utf8(&input, &tables, as_out(&mut a)), &a),
                        (scalar_table().cjk_to_utf8(&input, &tables, as_out(&mut b)), &b),
                        "cjk_to_utf8 at {:?}, cap {cap}: {input:02X?}",
                        k.level()
                    );
                    let mut a = vec![0xA5A5u16; cap];
                    let mut b = vec![0xA5A5u16; cap];
                    assert_eq!(
                        (k.cjk_to_utf16(&input, &tables, &mut a), &a),
                        (scalar_table().cjk_to_utf16(&input, &tables, &mut b), &b),
                        "cjk_to_utf16 at {:?}, cap {cap}: {input:02X?}",
                        k.level()
                    );
                }
            }
        }
    }
}

/// `PairTables::all_plain` and `plain_or_zero` (which let a kernel skip some checks of what
/// it gathers) against every entry a kernel may look up, for each family's tables; index
/// gb18030's two-byte pointers are all plain, the others have holes (and Big5's kernel
/// index is 0 at the astral code points of index Big5).
#[test]
fn pair_tables_all_plain() {
    for (encoding, tables) in crate::codecs::pair_tables() {
        let is_plain = |c: u32| (0x80..=0xFFFF).contains(&c) && !(0xD800..=0xDFFF).contains(&c);
        let entries = || (0..tables.index.limit()).map(|i| tables.index.get(i).unwrap());
        let plain = entries().all(is_plain);
        let or_zero = entries().all(|c| c == 0 || is_plain(c));
        assert_eq!(tables.all_plain, plain, "{}", encoding.name());
        assert_eq!(tables.plain_or_zero, or_zero, "{}", encoding.name());
        assert_eq!(
            plain,
            encoding == crate::GB18030 || encoding == crate::GBK,
            "{}",
            encoding.name()
        );
        assert!(or_zero, "{}", encoding.name());
    }
}

/// `PairTables::four_byte_from` against the gb18030 decoder at every four-byte pointer below
/// the astral planes: every one is plain (the last few, at the gathers' edge, too).
#[test]
fn four_byte_from_every_pointer() {
    let (_, tables) = crate::codecs::pair_tables()
        .into_iter()
        .find(|&(e, _)| e == crate::GB18030)
        .unwrap();
    let four = |p: u32| {
        [
            0x81 + (p / 12600) as u8,
            0x30 + (p / 1260 % 10) as u8,
            0x81 + (p / 10 % 126) as u8,
            0x30 + (p % 10) as u8,
        ]
    };
    let mut plain = 0;
    for p in 0..super::FOUR_BYTE_POINTERS as u32 {
        let bytes = four(p);
        let decoded = crate::GB18030
            .decode_without_bom_handling_and_without_replacement(&bytes)
            .map(|s| s.chars().map(u32::from).collect::<Vec<_>>());
        let expect = match decoded.as_deref() {
            Some(&[c]) if c <= 0xFFFF => Some(c),
            _ => None,
        };
        assert_eq!(
            tables.four_byte_from::<0x80>(&bytes),
            expect,
            "pointer {p}: {bytes:02X?}"
        );
        assert_eq!(
            tables.four_byte_from::<0x800>(&bytes),
            expect.filter(|&c| c >= 0x800),
            "pointer {p}"
        );
        plain += usize::from(expect.is_some());
    }
    // Every pointer maps a plain code point (the last few, at the gathers' edge, too).
    assert_eq!(plain, super::FOUR_BYTE_POINTERS);
}

/// Every `Vector` operation of every level this machine runs (and the AVX2 transcoders'
/// 16-byte lane) against its model, on generated inputs (`tests/levels.rs` runs the same
/// under qemu for NEON).
#[test]
fn vector_operations_equal_their_model() {
    for k in available() {
        let checks = super::ops_check::check(k.level, if quick() { 200 } else { 3000 }).unwrap();
        assert!(checks > 0 || k.level == crate::cpu::Level::Scalar);
    }
}
