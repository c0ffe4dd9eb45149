//! The kernel sweeps: every kernel at every level this CPU supports returns exactly what the
//! scalar kernel returns — the same `(read, written)` and the same output — over lengths
//! 0..=300 at every alignment, with special bytes at every position, output buffers of every
//! size, and random inputs (through `simdenc::internals`). One table, [`SWEEPS`], run by
//! `tests/levels.rs` in the main thread: by `cargo test` on x86_64 and under qemu for NEON.

use quickcheck::{QuickCheck, TestResult};
use simdenc::cpu::{self, Level};
use simdenc::internals::{
    CjkTables, FOUR_BYTE_POINTERS, KernelTable as Kernels, LegacyTables, cjk_tables,
    single_byte_legacy_tables, single_byte_table,
};

/// Byte output as the kernel tables of `simdenc::internals` take it (the crate's own kernels
/// take `MaybeUninit` bytes), so that the sweeps read the same in both places.
fn as_out(d: &mut [u8]) -> &mut [u8] {
    d
}

/// Every supported level's table.
fn available() -> Vec<&'static Kernels> {
    cpu::supported()
        .filter_map(Kernels::for_level)
        .map(|k| &*Box::leak(Box::new(k)))
        .collect()
}

/// The CJK encodings' decoder tables, with each encoding.
fn pair_tables() -> Vec<(&'static simdenc::Encoding, &'static CjkTables)> {
    cjk_tables()
        .into_iter()
        .map(|t| (t.encoding(), &*Box::leak(Box::new(t))))
        .collect()
}

/// The CJK encodings' encoder tables, with each encoding.
fn encode_tables() -> Vec<(&'static simdenc::Encoding, &'static LegacyTables)> {
    cjk_tables()
        .into_iter()
        .map(|t| (t.encoding(), &*Box::leak(Box::new(t.legacy()))))
        .collect()
}

const MAX_LEN: usize = 300;

/// Under emulation (the aarch64 CI run sets `SIMDENC_QUICK_TESTS`) the sweeps take every
/// `stride()`-th length and position, up to `max_len()`, at two alignments.
fn quick() -> bool {
    std::env::var_os("SIMDENC_QUICK_TESTS").is_some()
}

fn stride() -> usize {
    if quick() { 11 } else { 1 }
}

fn max_len() -> usize {
    if quick() { 140 } else { MAX_LEN }
}

fn alignments() -> usize {
    if quick() { 2 } else { 64 }
}

fn levels() -> Vec<&'static Kernels> {
    available()
        .into_iter()
        .filter(|k| k.level() != Level::Scalar)
        .collect()
}

fn scalar_table() -> &'static Kernels {
    Box::leak(Box::new(
        Kernels::for_level(Level::Scalar).expect("scalar is always supported"),
    ))
}

/// Inputs: for each length, a base text with one "special" byte sequence at each position.
fn byte_inputs(base: &[u8], specials: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let stride = stride();
    for len in (0..=max_len()).filter(|l| (*l < 70 || l % 7 == 0 || *l > MAX_LEN - 4) && l % stride == 0) {
        let text: Vec<u8> = base.iter().copied().cycle().take(len).collect();
        out.push(text.clone());
        for special in specials {
            for pos in (0..len).filter(|p| (*p < 70 || p % 5 == 0 || *p + 70 > len) && p % stride == 0) {
                out.push(with_special(&text, special, pos));
            }
        }
    }
    out
}

/// `text` with `special` written over it from `pos` (as much of it as fits).
fn with_special(text: &[u8], special: &[u8], pos: usize) -> Vec<u8> {
    let mut v = text.to_vec();
    for (i, &b) in special.iter().enumerate() {
        if let Some(slot) = v.get_mut(pos + i) {
            *slot = b;
        }
    }
    v
}

/// A few lengths with each special at the edges of 16-, 32- and 64-byte blocks (a letter as
/// a block's last byte, the first of the next): what the quick sweeps' stride (every 11th
/// position) would miss.
fn block_edge_inputs(base: &[u8], specials: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for len in [16, 17, 31, 32, 33, 48, 64, 65, 96, 129] {
        let text: Vec<u8> = base.iter().copied().cycle().take(len).collect();
        for special in specials {
            for pos in [0, 1, 14, 15, 16, 17, 30, 31, 32, 47, 48, 62, 63, 64, 95, 127]
                .into_iter()
                .filter(|&p| p < len)
            {
                out.push(with_special(&text, special, pos));
            }
        }
    }
    out
}

/// Runs `f` on `input` at every alignment 0..64 of a padded copy, for `table` and scalar,
/// with output buffers of `cap(len)` and of a few smaller sizes.
fn same<T: PartialEq + std::fmt::Debug>(
    name: &str,
    table: &Kernels,
    input: &[u8],
    f: impl Fn(&Kernels, &[u8], usize) -> T,
    caps: impl Fn(usize) -> Vec<usize>,
) {
    let mut padded = vec![0u8; input.len() + 64];
    for align in 0..alignments() {
        padded[align..align + input.len()].copy_from_slice(input);
        let src = &padded[align..align + input.len()];
        for cap in caps(input.len()) {
            let got = f(table, src, cap);
            let expect = f(scalar_table(), src, cap);
            assert_eq!(
                got,
                expect,
                "{name} at {:?}: align {align} cap {cap} input {src:02X?}",
                table.level()
            );
        }
        if align > 2 && input.len() > 80 {
            break; // long inputs: a few alignments are enough, the short ones take them all
        }
    }
}

fn caps(len: usize) -> Vec<usize> {
    if len > 80 || quick() {
        vec![len * 3 + 8, len / 2]
    } else {
        vec![len * 3 + 8, len, len / 2, len.saturating_sub(1)]
    }
}

/// Where a sweep's output buffer starts in a padded one: 0..64 bytes past its allocation,
/// varied with the input's address (so with [`same`]'s alignments) and equal for the level
/// and scalar, which take the same input: the ASCII kernels align their stores by it
/// (`generic::ascii::store_skew`).
fn out_offset(s: &[u8]) -> usize {
    (s.as_ptr() as usize).wrapping_mul(7) % 64
}

pub fn ascii_kernels() {
    let inputs = byte_inputs(b"The quick brown fox jumps. ", &[b"\x80", b"\xFF", b"\xC3\xA9"]);
    for k in levels() {
        for input in &inputs {
            same(
                "ascii_prefix_len",
                k,
                input,
                |k, s, _| k.ascii_prefix_len(s),
                |_| vec![0],
            );
            same(
                "copy_ascii",
                k,
                input,
                |k, s, cap| {
                    let off = out_offset(s);
                    let mut d = vec![0xA5u8; off + cap + 64];
                    let n = k.copy_ascii(s, as_out(&mut d[off..off + cap]));
                    (n, d)
                },
                caps,
            );
            same(
                "widen_ascii",
                k,
                input,
                |k, s, cap| {
                    let off = out_offset(s) / 2;
                    let mut d = vec![0xA5A5u16; off + cap + 32];
                    let n = k.widen_ascii(s, &mut d[off..off + cap]);
                    (n, d)
                },
                caps,
            );
            // The loose copy: the same prefix; past it, changes only below
            // `min(src.len(), dst.len())` and fewer than 64 bytes on.
            same(
                "copy_ascii_loose",
                k,
                input,
                |k, s, cap| {
                    let off = out_offset(s);
                    let mut buf = vec![0xA5u8; off + cap + 64];
                    let n = k.copy_ascii_loose(s, as_out(&mut buf[off..off + cap]));
                    let end = s.len().min(cap).min(n + 63);
                    let outside = buf[..off].iter().chain(&buf[off + cap..]).any(|&b| b != 0xA5);
                    let d = &buf[off..off + cap];
                    let changed_past = d.iter().enumerate().skip(n).any(|(i, &b)| b != 0xA5 && i >= end);
                    (n, d[..n].to_vec(), changed_past || outside)
                },
                caps,
            );
        }
    }
}

/// `utf8_to_latin1` against scalar: ASCII, German-like and dense Latin1 text with every
/// stop (U+0080..=U+009F below `first` 0xA0, U+0100, a three-byte character, lone leads and
/// continuation bytes, a lead before ASCII) at every position, from 0x80 and 0xA0, at every
/// alignment and several output sizes; the bytes past the output are compared too (the
/// kernel writes exactly).
pub fn utf8_to_latin1_kernel() {
    let specials: &[&[u8]] = &[
        b"\xC2\x80",
        b"\xC2\x9F",
        b"\xC2\xA0",
        b"\xC3\xBF",
        b"\xC4\x80",
        b"\xE2\x82\xAC",
        b"\xC3a",
        b"\xA9",
        b"\xC3\xC3\xA9",
    ];
    let bases: [&[u8]; 3] = [
        "Grüße aus Köln, schöne Straße! ".as_bytes(),
        "ÄÖÜäöüßéèàçñ".as_bytes(),
        b"The quick brown fox jumps. ",
    ];
    for base in bases {
        let mut inputs = byte_inputs(base, specials);
        inputs.extend(block_edge_inputs(base, specials));
        for k in levels() {
            for input in &inputs {
                for first in [0x80, 0xA0] {
                    same(
                        "utf8_to_latin1",
                        k,
                        input,
                        |k, s, cap| {
                            let mut d = vec![0xA5u8; cap];
                            let n = k.utf8_to_latin1(s, first, as_out(&mut d));
                            (n, d)
                        },
                        caps,
                    );
                }
            }
        }
    }
}

/// `latin1_to_utf8` against scalar: ASCII, German-like and dense Latin1 text with every stop
/// (0x80 and 0x9F, below `first` 0xA0) and every kind of byte (0xA0, 0xBF, 0xC0, 0xFF, NUL)
/// at every position, from 0x80 and 0xA0, at every alignment and several output sizes (a
/// letter that does not fit); the bytes past the output are compared too.
pub fn latin1_to_utf8_kernel() {
    let specials: &[&[u8]] = &[
        b"\x80",
        b"\x9F",
        b"\xA0",
        b"\xBF",
        b"\xC0",
        b"\xFF",
        b"\0",
        b"\xE9\xE9",
    ];
    let bases: [&[u8]; 3] = [
        b"Gr\xFC\xDFe aus K\xF6ln, sch\xF6ne Stra\xDFe! ",
        b"\xC4\xD6\xDC\xE4\xF6\xFC\xDF\xE9\xE8\xE0\xE7\xF1",
        b"The quick brown fox jumps. ",
    ];
    for base in bases {
        let mut inputs = byte_inputs(base, specials);
        inputs.extend(block_edge_inputs(base, specials));
        // The reference itself, by the definition: up to the first byte from 0x80 below
        // `first`, each byte's code point in UTF-8.
        for input in &inputs {
            for first in [0x80, 0xA0] {
                let read = input
                    .iter()
                    .position(|&b| (0x80..first).contains(&b))
                    .unwrap_or(input.len());
                let want: String = input[..read].iter().map(|&b| char::from(b)).collect();
                let mut d = vec![0u8; 2 * input.len()];
                let (r, w) = scalar_table().latin1_to_utf8(input, first, &mut d);
                assert_eq!(
                    (r, &d[..w]),
                    (read, want.as_bytes()),
                    "scalar latin1_to_utf8 {input:02X?}"
                );
            }
        }
        for k in levels() {
            for input in &inputs {
                for first in [0x80, 0xA0] {
                    same(
                        "latin1_to_utf8",
                        k,
                        input,
                        |k, s, cap| {
                            let mut d = vec![0xA5u8; cap];
                            let n = k.latin1_to_utf8(s, first, as_out(&mut d));
                            (n, d)
                        },
                        |len| {
                            let mut c = caps(len);
                            c.push(len + len / 4);
                            c
                        },
                    );
                }
            }
        }
    }
}

pub fn narrow_ascii_kernel() {
    let specials: [u16; 6] = [0x80, 0xFF, 0x100, 0x7F80, 0x8000, 0xFFFF];
    for k in levels() {
        for len in (0..=max_len()).step_by(stride()) {
            let base: Vec<u16> = (0..len).map(|i| (b'a' + (i % 26) as u8) as u16).collect();
            let mut variants = vec![base.clone()];
            for &s in &specials {
                for pos in (0..len).filter(|p| *p < 70 || p % 9 == 0) {
                    let mut v = base.clone();
                    v[pos] = s;
                    variants.push(v);
                }
            }
            for (i, v) in variants.into_iter().enumerate() {
                for cap in [len + 1, len / 2] {
                    // Output buffers at every offset from 0 to 63 bytes in turn (the kernels
                    // align their stores by it).
                    let off = (i * 7 + cap) % 64;
                    let mut a = vec![0xA5u8; off + cap + 64];
                    let mut b = vec![0xA5u8; off + cap + 64];
                    let got = k.narrow_ascii(&v, as_out(&mut a[off..off + cap]));
                    let expect = scalar_table().narrow_ascii(&v, as_out(&mut b[off..off + cap]));
                    assert_eq!(
                        (got, a),
                        (expect, b),
                        "narrow_ascii {:?} len {len} offset {off}",
                        k.level()
                    );
                }
            }
        }
    }
}

/// `utf8_copy_valid` of `table` against scalar's on `input` (as [`same`] runs it).
fn same_copy_valid(table: &Kernels, input: &[u8]) {
    same(
        "utf8_copy_valid",
        table,
        input,
        |k, s, cap| {
            let mut d = vec![0xA5u8; cap];
            let r = k.utf8_copy_valid(s, as_out(&mut d));
            (r, d)
        },
        caps,
    );
}

pub fn utf8_kernels() {
    let base = "aé日😀bc".as_bytes();
    let specials: [&[u8]; 9] = [
        b"\x80",
        b"\xFF",
        b"\xC0\xAF",
        b"\xE0\x80",
        b"\xED\xA0\x80",
        b"\xF0\x90",
        b"\xF4\x90\x80\x80",
        b"\xE6\x97",
        b"\xC3",
    ];
    let inputs = byte_inputs(base, &specials);
    for k in levels() {
        for input in &inputs {
            same(
                "utf8_valid_up_to",
                k,
                input,
                |k, s, _| k.utf8_valid_up_to(s),
                |_| vec![0],
            );
            same_copy_valid(k, input);
            same(
                "utf8_to_utf16",
                k,
                input,
                |k, s, cap| {
                    let mut d = vec![0xA5A5u16; cap];
                    let r = k.utf8_to_utf16(s, &mut d);
                    (r, d)
                },
                caps,
            );
        }
    }
}

/// The UTF-8 kernels on mixed text over several 256-byte steps: ASCII with a letter every
/// 20 to 60 bytes (most 16-byte vectors ASCII, some steps with more letters than ASCII
/// vectors), and a special sequence (errors, a character cut short, whole characters) at
/// the edges of the 16-byte vectors: a character cut at a vector's end and followed by an
/// ASCII vector, at a step's end, or finished in the next vector.
pub fn utf8_mixed_text() {
    // About 6, 8 and 14 of the 16 vectors of a step not ASCII (the threshold of a sparse
    // step is 8).
    let sparse = "Die Straße war lang und der Nebel lag schwer auf den Feldern vor dem Dorf. \
        Der Bürgermeister sprach lange von Reisen nach 日本 und zurück, dann ging er heim."
        .as_bytes();
    let medium = "Grüße aus dem Süden, sagte er am Abend vor dem Haus. Die Bäume standen still im \
        Wind und es war kalt. Nach 日本 ist es weit. Gut so, dachte er."
        .as_bytes();
    let dense = "Grüße, Bär, Öl, Ähre: ä ö ü ß é 日本語 😀 and more words.".as_bytes();
    let specials: [&[u8]; 12] = [
        b"\x80",
        b"\xFF",
        b"\xC3",
        b"\xE6\x97",
        b"\xF0\x9F\x98",
        b"\xC3\xA9",
        b"\xE6\x97\xA5",
        b"\xF0\x9F\x98\x80",
        b"\xED\xA0\x80",
        b"\xE0\x80",
        b"\xC3\xA9\x80",
        b"a",
    ];
    let (lens, every): (&[usize], usize) = if quick() {
        (&[300, 520, 800], 3)
    } else {
        (&[256, 300, 511, 512, 520, 767, 800, 1030], 1)
    };
    let mut inputs = Vec::new();
    for base in [sparse, medium, dense] {
        for &len in lens {
            let text: Vec<u8> = base.iter().copied().cycle().take(len).collect();
            inputs.push(text.clone());
            for special in &specials {
                for vector in (0..len / 16).step_by(every) {
                    for pos in [16 * vector, 16 * vector + 14, 16 * vector + 15] {
                        if pos < len {
                            inputs.push(with_special(&text, special, pos));
                        }
                    }
                }
            }
            // A character cut at a vector's end and its continuation two vectors on, after
            // an ASCII vector: the continuation must not be read as the cut character's.
            for vector in 0..len / 16 {
                let cut = with_special(&text, b"\xC3", 16 * vector + 15);
                inputs.push(with_special(&cut, b"\xA9", 16 * vector + 32));
            }
        }
    }
    for k in levels() {
        for input in &inputs {
            let expect = std::str::from_utf8(input).map_or_else(|e| e.valid_up_to(), |_| input.len());
            assert_eq!(
                k.utf8_valid_up_to(input),
                expect,
                "utf8_valid_up_to at {:?}: {input:02X?}",
                k.level()
            );
            same_copy_valid(k, input);
        }
    }
}

pub fn utf16_kernels() {
    // Units as LE and BE bytes, with surrogates (paired and not) at every position.
    let base: Vec<u16> = "aé日bc".encode_utf16().collect();
    let specials: [&[u16]; 5] = [&[0xD83D, 0xDE00], &[0xD800], &[0xDC00], &[0xDBFF, 0x41], &[0x80]];
    for k in levels() {
        for len in (0..=max_len() / 2).filter(|l| (*l < 80 || l % 3 == 0) && l % stride() == 0) {
            let units: Vec<u16> = base.iter().copied().cycle().take(len).collect();
            let mut variants = vec![units.clone()];
            for s in specials {
                for pos in (0..len).step_by(stride()) {
                    let mut v = units.clone();
                    for (i, &u) in s.iter().enumerate() {
                        if pos + i < len {
                            v[pos + i] = u;
                        }
                    }
                    variants.push(v);
                }
            }
            for v in variants {
                for cap in [len * 3 + 4, len, len / 2] {
                    let mut a = vec![0xA5u8; cap];
                    let mut b = vec![0xA5u8; cap];
                    let got = k.utf16_to_utf8(&v, as_out(&mut a));
                    let expect = scalar_table().utf16_to_utf8(&v, as_out(&mut b));
                    assert_eq!((got, &a), (expect, &b), "utf16_to_utf8 {:?} {v:04X?}", k.level());
                    for be in [false, true] {
                        let mut bytes: Vec<u8> = v
                            .iter()
                            .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                            .collect();
                        if len % 2 == 1 {
                            bytes.push(0x41); // an odd trailing byte
                        }
                        let mut a16 = vec![0xA5A5u16; cap];
                        let mut b16 = vec![0xA5A5u16; cap];
                        let got = k.utf16_bytes_to_utf16(&bytes, be, &mut a16);
                        let expect = scalar_table().utf16_bytes_to_utf16(&bytes, be, &mut b16);
                        assert_eq!(
                            (got, &a16),
                            (expect, &b16),
                            "utf16_bytes_to_utf16 {:?} be={be}",
                            k.level()
                        );
                        let got = k.utf16_bytes_to_utf8(&bytes, be, as_out(&mut a));
                        let expect = scalar_table().utf16_bytes_to_utf8(&bytes, be, as_out(&mut b));
                        assert_eq!(
                            (got, &a),
                            (expect, &b),
                            "utf16_bytes_to_utf8 {:?} be={be}",
                            k.level()
                        );
                    }
                }
            }
        }
    }
}

pub fn single_byte_kernels() {
    let tables: Vec<&'static [u16; 128]> = simdenc::Encoding::all()
        .iter()
        .filter(|e| e.is_single_byte())
        .filter_map(|&e| single_byte_table(e))
        .collect();
    let all: Vec<u8> = (0..=255).collect();
    let inputs = byte_inputs(&all, &[b"\x80", b"\xFF", b"\x00"]);
    for k in levels() {
        // Every table on the 256 bytes in order; four tables (with holes in different
        // places) on every length, alignment and position.
        for table in &tables {
            let mut a = vec![0u16; 300];
            let mut b = vec![0u16; 300];
            let got = k.single_byte_to_utf16(&all, table, &mut a);
            assert_eq!(
                (got, &a),
                (scalar_table().single_byte_to_utf16(&all, table, &mut b), &b)
            );
            // Whole text, and every output size around where the vector loop cuts.
            for cap in (0..=90).chain([300, 500, 800]) {
                let mut a = vec![0u8; cap];
                let mut b = vec![0u8; cap];
                let got = k.single_byte_to_utf8(&all, table, as_out(&mut a));
                assert_eq!(
                    (got, &a),
                    (
                        scalar_table().single_byte_to_utf8(&all, table, as_out(&mut b)),
                        &b
                    ),
                    "single_byte_to_utf8 at {:?}, cap {cap}",
                    k.level()
                );
            }
        }
        for table in tables.iter().step_by(7) {
            for input in inputs.iter().step_by(3) {
                same(
                    "single_byte_to_utf16",
                    k,
                    input,
                    |k, s, cap| {
                        let mut d = vec![0xA5A5u16; cap];
                        let r = k.single_byte_to_utf16(s, table, &mut d);
                        (r, d)
                    },
                    caps,
                );
                same(
                    "single_byte_to_utf8",
                    k,
                    input,
                    |k, s, cap| {
                        let mut d = vec![0xA5u8; cap];
                        let r = k.single_byte_to_utf8(s, table, as_out(&mut d));
                        (r, d)
                    },
                    caps,
                );
            }
        }
    }
}

/// Japanese, Korean and Chinese text with ASCII between, for the CJK kernels (each family
/// keeps the characters it maps, `plain_text`).
const CJK_TEXT: &str = "火星は、太陽系の太陽に近い方から4番目の惑星である。地球型惑星に分類され、\
                        Mars 화성은 태양계의 네 번째 행성이다. 火星是太陽系由內往外數的第四顆行星，\
                        〜 ℃ 123 abc\n";

/// The characters of `text` that `encoding` encodes as ASCII, or as two bytes from U+0080 up
/// (what the CJK kernels take in both directions).
fn plain_text(text: &str, encoding: &'static simdenc::Encoding) -> String {
    text.chars()
        .filter(|&c| {
            let mut buf = [0; 4];
            let (bytes, _, unmappable) = encoding.encode(c.encode_utf8(&mut buf));
            c.is_ascii() || (!unmappable && bytes.len() == 2 && u32::from(c) >= 0x80)
        })
        .collect()
}

/// The two-byte CJK kernels on text in each family's encoding: every prefix, with bytes the
/// kernels must stop at (single bytes, unmapped pairs, errors) sprinkled in, long texts
/// with every output size around the block sizes.
pub fn cjk_decode_kernels() {
    let text = CJK_TEXT.repeat(6);
    // The text is plain (unmappables become ASCII `&#N;`); the specials are what the kernels
    // stop at, and two-byte characters below U+0800.
    let specials: &[&[u8]] = &[
        b"\x80",
        b"\xA1",
        b"\xFF",
        b"\x8E\xA1",
        b"\x8F\xA2\xAF",
        b"\x81\x30",
        b"\x81",
        b"A",
    ];
    for (encoding, tables) in pair_tables() {
        // Pairs the kernels must stop at too (astral code points: Big5), and pairs below
        // U+0800 (Greek, Cyrillic, Latin-1: two bytes of UTF-8), in this encoding.
        let encoded: Vec<Vec<u8>> = ["α", "Ж", "×", "é", "\u{20547}", "\u{2A3A9}"]
            .iter()
            .map(|c| encoding.encode(c).0.into_owned())
            .filter(|bytes| bytes.len() == 2)
            .collect();
        let specials: Vec<&[u8]> = specials
            .iter()
            .copied()
            .chain(encoded.iter().map(Vec::as_slice))
            .collect();
        // With long ASCII runs too (HTML markup: whole ASCII blocks in the vector loop).
        let plain =
            plain_text(&text, encoding).replace('\n', &format!("\n<p class=\"{}\">", "x".repeat(150)));
        let bytes = encoding.encode(&plain).0.into_owned();
        let mut inputs: Vec<Vec<u8>> = (0..=max_len().min(bytes.len()))
            .step_by(stride())
            .map(|len| bytes[..len].to_vec())
            .collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..if quick() { 20 } else { 200 } {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut v = bytes.clone();
            let at = (seed % v.len() as u64) as usize;
            let special = specials[(seed >> 32) as usize % specials.len()];
            v.splice(at..at, special.iter().copied());
            inputs.push(v);
        }
        for k in available() {
            for input in &inputs {
                let caps = |len: usize| {
                    if len > 300 {
                        vec![len * 3 + 8, len, len / 2, 95, 96, 97, 191]
                    } else {
                        caps(len)
                    }
                };
                same(
                    "cjk_to_utf8",
                    k,
                    input,
                    |k, s, cap| {
                        let mut d = vec![0xA5u8; cap];
                        let r = k.cjk_to_utf8(s, tables, as_out(&mut d));
                        (r, d)
                    },
                    caps,
                );
                same(
                    "cjk_to_utf16",
                    k,
                    input,
                    |k, s, cap| {
                        let mut d = vec![0xA5A5u16; cap];
                        let r = k.cjk_to_utf16(s, tables, &mut d);
                        (r, d)
                    },
                    caps,
                );
            }
            // The kernel decodes what the codec would: plain text through the scalar kernel
            // gives the decoder's output.
            let mut out = vec![0u8; bytes.len() * 3];
            let (read, written) = k.cjk_to_utf8(&bytes, tables, as_out(&mut out));
            let expect = encoding.decode_without_bom_handling(&bytes[..read]).0;
            assert_eq!(
                &out[..written],
                expect.as_bytes(),
                "{} at {:?}",
                encoding.name(),
                k.level()
            );
            assert_eq!(read, bytes.len(), "{}: the kernel stopped early", encoding.name());
        }
    }
}

/// The two-byte CJK kernels on characters below U+0800 (two bytes of UTF-8, one unit of
/// UTF-16) in each family's encoding: one or a run of them at every position of CJK text,
/// and text of them with CJK characters at every position, with output buffers of every
/// size around the exact one.
pub fn cjk_decode_two_byte_characters() {
    for (encoding, tables) in pair_tables() {
        let encode = |text: &str| encoding.encode(text).0.into_owned();
        let two: Vec<Vec<u8>> = ["Ж", "α", "·", "é", "×", "Ω", "я", "ЖαЖ·я", "ЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ"]
            .iter()
            .map(|c| encode(c))
            .filter(|bytes| bytes.len() >= 2 && bytes.iter().all(|&b| b >= 0x80))
            .collect();
        assert!(two.len() >= 3, "{}: too few two-byte characters", encoding.name());
        let cjk = encode(&plain_text(&CJK_TEXT.repeat(3), encoding));
        let cyrillic = encode(&plain_text(&"Жизнь Ωμέγα, x = 1 · y;".repeat(12), encoding));
        let three = encode(&plain_text("火星", encoding));
        let mut inputs = Vec::new();
        for (base, specials) in [(&cjk, &two), (&cyrillic, &vec![three])] {
            let specials: Vec<&[u8]> = specials.iter().map(Vec::as_slice).collect();
            let lens = (0..=40).chain([63, 64, 65, 95, 96, 97, 127, 128, 129, 150, 200]);
            for len in lens.filter(|&l| l <= base.len() && l % stride() == 0) {
                let positions = (0..len)
                    .filter(|&p| (len <= 40 || p < 8 || p % 9 == 0 || p + 70 > len) && p % stride() == 0);
                for pos in positions {
                    for special in &specials {
                        let mut v = base[..len].to_vec();
                        v.splice(pos..pos, special.iter().copied());
                        inputs.push(v);
                    }
                }
            }
            inputs.push(base.clone());
        }
        for k in levels() {
            for input in &inputs {
                let need8 = scalar_table()
                    .cjk_to_utf8(input, tables, as_out(&mut vec![0; input.len() * 3]))
                    .1;
                let need16 = scalar_table()
                    .cjk_to_utf16(input, tables, &mut vec![0; input.len()])
                    .1;
                let around = |need: usize| {
                    let mut caps: Vec<usize> = (need.saturating_sub(3)..=need + 1).collect();
                    caps.extend([need / 2, need.saturating_sub(64), need.saturating_sub(97)]);
                    caps
                };
                same(
                    "cjk_to_utf8",
                    k,
                    input,
                    |k, s, cap| {
                        // With a guard after the output, compared too.
                        let mut d = vec![0xA5u8; cap + 64];
                        let r = k.cjk_to_utf8(s, tables, as_out(&mut d[..cap]));
                        (r, d)
                    },
                    |_| around(need8),
                );
                same(
                    "cjk_to_utf16",
                    k,
                    input,
                    |k, s, cap| {
                        let mut d = vec![0xA5A5u16; cap + 64];
                        let r = k.cjk_to_utf16(s, tables, &mut d[..cap]);
                        (r, d)
                    },
                    |_| around(need16),
                );
            }
        }
    }
}

/// gb18030's four-byte sequences in the pair kernels: the sequence of every pointer below
/// the astral planes' (the tables against the decoder; all of them in one input, every
/// level against its reference), and sequences, runs of them, and sequences the kernels
/// must stop at (astral, past the BMP's pointers, malformed, cut by the end) at every
/// position of CJK text and of markup, around the block edges, with output buffers around
/// the exact size.
pub fn cjk_decode_four_byte_sequences() {
    let (_, tables) = pair_tables()
        .into_iter()
        .find(|&(e, _)| e == simdenc::GB18030)
        .unwrap();
    let four = |p: u32| {
        [
            0x81 + (p / 12600) as u8,
            0x30 + (p / 1260 % 10) as u8,
            0x81 + (p / 10 % 126) as u8,
            0x30 + (p % 10) as u8,
        ]
    };
    // Every pointer maps a plain code point (`four_byte_from_every_pointer`, a unit test).
    let every: Vec<u8> = (0..FOUR_BYTE_POINTERS as u32).flat_map(four).collect();
    let mut inputs = vec![
        every.clone(),
        [b"<p>".as_slice(), &every[..4000], b"</p>"].concat(),
    ];
    let encode = |text: &str| simdenc::GB18030.encode(text).0.into_owned();
    let specials: Vec<Vec<u8>> = [
        encode("ع"),
        encode("ვ"),
        encode("العربية"),
        encode("ქართული ენა"),
        encode("ع中ვa\u{80}"),
        encode("中1中12"),
        encode("\u{E7C7}\u{80}\u{FFFF}"),
        encode("😀"),
        encode("ع😀ع"),
        vec![0x84, 0x31, 0xA5, 0x30],
        vec![0xFE, 0x39, 0xFE, 0x39],
        vec![0x81, 0x30, 0x81],
        vec![0x81, 0x30],
        vec![0x81, 0x30, 0x20, 0x30],
        vec![0x81, 0x30, 0x81, 0x2F],
        vec![0x81, 0x30, 0xFF, 0x30],
        vec![0x81, 0x30, 0x81, 0x30, 0x81, 0x30],
    ]
    .into();
    let cjk = encode(&plain_text(&CJK_TEXT.repeat(3), simdenc::GB18030));
    let markup = encode(&format!(
        "{}中文<a href=\"x\">链接</a>{}",
        "<b>".repeat(20),
        "x".repeat(140)
    ));
    for base in [&cjk, &markup] {
        let lens = (0..=24).chain([63, 64, 65, 66, 67, 68, 127, 128, 129, 130, 131, 150, 200]);
        for len in lens.filter(|&l| l <= base.len() && l % stride() == 0) {
            let positions = (0..=len).filter(|&p| {
                (len <= 24
                    || p < 6
                    || (56..=68).contains(&p)
                    || (120..=132).contains(&p)
                    || p + 6 > len
                    || p % 13 == 0)
                    && p % stride() == 0
            });
            for pos in positions {
                for special in &specials {
                    let mut v = base[..len].to_vec();
                    v.splice(pos..pos, special.iter().copied());
                    inputs.push(v);
                }
            }
        }
    }
    for k in available() {
        for input in &inputs {
            let reference = scalar_table();
            let need8 = reference
                .cjk_to_utf8(input, tables, as_out(&mut vec![0; input.len() * 3]))
                .1;
            let need16 = reference.cjk_to_utf16(input, tables, &mut vec![0; input.len()]).1;
            let around = |need: usize| {
                [
                    need.saturating_sub(2),
                    need.saturating_sub(1),
                    need,
                    need + 1,
                    need / 2,
                ]
            };
            for cap in around(need8) {
                let mut a = vec![0xA5u8; cap + 64];
                let mut b = a.clone();
                assert_eq!(
                    (k.cjk_to_utf8(input, tables, as_out(&mut a[..cap])), &a),
                    (reference.cjk_to_utf8(input, tables, as_out(&mut b[..cap])), &b),
                    "cjk_to_utf8 at {:?}, cap {cap}: {input:02X?}",
                    k.level()
                );
            }
            for cap in around(need16) {
                let mut a = vec![0xA5A5u16; cap + 64];
                let mut b = a.clone();
                assert_eq!(
                    (k.cjk_to_utf16(input, tables, &mut a[..cap]), &a),
                    (reference.cjk_to_utf16(input, tables, &mut b[..cap]), &b),
                    "cjk_to_utf16 at {:?}, cap {cap}: {input:02X?}",
                    k.level()
                );
            }
            if k.level() == Level::Scalar {
                // What the scalar kernel decodes is what the decoder does.
                let mut out = vec![0u8; input.len() * 3];
                let (read, written) = k.cjk_to_utf8(input, tables, as_out(&mut out));
                let expect = simdenc::GB18030.decode_without_bom_handling(&input[..read]).0;
                assert_eq!(&out[..written], expect.as_bytes(), "{input:02X?}");
            }
        }
    }
}

/// The CJK encode kernels on UTF-16 text: every prefix, with units the kernels must stop at
/// (surrogates, declined and unmapped code points, NUL is ASCII) inserted, and output sizes
/// around the block size.
pub fn legacy_encode_kernels() {
    let text = CJK_TEXT.repeat(6);
    let specials: &[&[u16]] = &[
        &[0xD83D, 0xDE00],
        &[0xDC00],
        &[0x00A5],
        &[0x203E],
        &[0x2212],
        &[0xFF71],
        &[0x20AC],
        &[0xE5E5],
        &[0x0000],
        &[0x00E9],
        &[0xFFFF],
    ];
    for (encoding, tables) in encode_tables() {
        // The characters of the text that this encoding maps: the kernel runs through it all.
        let units: Vec<u16> = plain_text(&text, encoding).encode_utf16().collect();
        let mut inputs: Vec<Vec<u16>> = (0..=max_len().min(units.len()))
            .step_by(stride())
            .map(|len| units[..len].to_vec())
            .collect();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..if quick() { 20 } else { 200 } {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut v = units.clone();
            let at = (seed % v.len() as u64) as usize;
            let special = specials[(seed >> 32) as usize % specials.len()];
            v.splice(at..at, special.iter().copied());
            inputs.push(v);
        }
        for k in available() {
            for input in &inputs {
                let len = input.len();
                let caps: Vec<usize> = if len > 300 {
                    vec![len * 2 + 8, len, 63, 64, 65, 127]
                } else {
                    caps(len)
                };
                for cap in caps {
                    let mut a = vec![0xA5u8; cap];
                    let mut b = vec![0xA5u8; cap];
                    let got = k.utf16_to_legacy(input, tables, as_out(&mut a));
                    let expect = scalar_table().utf16_to_legacy(input, tables, as_out(&mut b));
                    assert_eq!(
                        (got, &a),
                        (expect, &b),
                        "utf16_to_legacy {} at {:?} cap {cap}",
                        encoding.name(),
                        k.level()
                    );
                }
            }
            // The kernel encodes what the encoder would.
            let mut out = vec![0u8; units.len() * 2];
            let (read, written) = k.utf16_to_legacy(&units, tables, as_out(&mut out));
            let prefix = String::from_utf16(&units[..read]).unwrap();
            assert_eq!(
                &out[..written],
                &*encoding.encode(&prefix).0,
                "{}",
                encoding.name()
            );
            assert_eq!(read, units.len(), "{}: the kernel stopped early", encoding.name());
        }
    }
}

/// The encode kernels' tables against the encoders, at every BMP code point: what the scalar
/// kernel encodes alone (a plain unit) is what the encoder writes for it. The code points an
/// encoder treats before its index (Shift_JIS's single bytes, GBK's euro sign, gb18030's
/// private use ones, ...) must have no bytes in its table, as the kernels test nothing else.
pub fn legacy_encode_every_code_point() {
    let single: Vec<_> = simdenc::Encoding::all()
        .iter()
        .filter_map(|&e| single_byte_legacy_tables(e).map(|t| (e, &*Box::leak(Box::new(t)))))
        .collect();
    let mut plain = 0;
    for (encoding, tables) in encode_tables().into_iter().chain(single) {
        for c in (0x80..0x1_0000u32).filter_map(char::from_u32) {
            let mut out = [0u8; 4];
            let (read, written) = scalar_table().utf16_to_legacy(&[c as u16], tables, as_out(&mut out));
            if read == 1 {
                let mut utf8 = [0; 4];
                let (bytes, _, unmappable) = encoding.encode(c.encode_utf8(&mut utf8));
                assert!(!unmappable, "{} U+{:04X}", encoding.name(), c as u32);
                assert_eq!(&out[..written], &*bytes, "{} U+{:04X}", encoding.name(), c as u32);
                plain += 1;
            }
        }
    }
    assert!(plain > 90_000, "{plain}");
}

/// The encode kernel with single-byte tables: each encoding's own characters (its upper half)
/// between ASCII, long, with units it cannot encode inserted; every level against scalar.
pub fn legacy_encode_single_byte() {
    for &encoding in simdenc::Encoding::all() {
        let (Some(tables), Some(decode)) = (single_byte_legacy_tables(encoding), single_byte_table(encoding))
        else {
            continue;
        };
        let mapped: Vec<u16> = decode.iter().copied().filter(|&u| u != 0).collect();
        let mut units = Vec::new();
        for (i, &u) in mapped.iter().cycle().take(700).enumerate() {
            units.push(u);
            if i % 5 == 0 {
                units.push(u16::from(b'a' + (i % 26) as u8));
            }
        }
        for k in available() {
            let mut out = vec![0u8; units.len()];
            let (read, written) = k.utf16_to_legacy(&units, &tables, as_out(&mut out));
            assert_eq!((read, written), (units.len(), units.len()), "{}", encoding.name());
            let text = String::from_utf16(&units).unwrap();
            assert_eq!(
                out,
                &*encoding.encode(&text).0,
                "{} at {:?}",
                encoding.name(),
                k.level()
            );
            for special in [0xD800u16, 0xFFFF, 0x4E00, 0x0000] {
                for at in (0..units.len()).step_by(if quick() { 97 } else { 13 }) {
                    let mut v = units.clone();
                    v.insert(at, special);
                    for cap in [v.len(), at, at + 40, 63, 64] {
                        let mut a = vec![0xA5u8; cap];
                        let mut b = vec![0xA5u8; cap];
                        assert_eq!(
                            (k.utf16_to_legacy(&v, &tables, as_out(&mut a)), &a),
                            (scalar_table().utf16_to_legacy(&v, &tables, as_out(&mut b)), &b),
                            "{} at {:?}: {special:04X} at {at}, cap {cap}",
                            encoding.name(),
                            k.level()
                        );
                    }
                }
            }
        }
    }
}

pub fn random_inputs_with_quickcheck() {
    fn prop(bytes: Vec<u8>, cap: u16) -> TestResult {
        let cap = usize::from(cap) % (bytes.len() * 3 + 8);
        for k in available() {
            let s = scalar_table();
            if k.utf8_valid_up_to(&bytes) != s.utf8_valid_up_to(&bytes) {
                return TestResult::failed();
            }
            let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
            if k.utf8_copy_valid(&bytes, as_out(&mut a)) != s.utf8_copy_valid(&bytes, as_out(&mut b))
                || a != b
            {
                return TestResult::failed();
            }
            let (mut a, mut b) = (vec![0u16; cap], vec![0u16; cap]);
            if k.utf8_to_utf16(&bytes, &mut a) != s.utf8_to_utf16(&bytes, &mut b) || a != b {
                return TestResult::failed();
            }
            if k.utf16_bytes_to_utf16(&bytes, true, &mut a) != s.utf16_bytes_to_utf16(&bytes, true, &mut b)
                || a != b
            {
                return TestResult::failed();
            }
            // A single-byte table picked by the first byte.
            let tables: Vec<_> = simdenc::Encoding::all()
                .iter()
                .filter(|e| e.is_single_byte())
                .filter_map(|&e| single_byte_table(e))
                .collect();
            let table = tables[usize::from(bytes.first().copied().unwrap_or(0)) % tables.len()];
            let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
            if k.single_byte_to_utf8(&bytes, table, as_out(&mut a))
                != s.single_byte_to_utf8(&bytes, table, as_out(&mut b))
                || a != b
            {
                return TestResult::failed();
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(prop as fn(Vec<u8>, u16) -> TestResult);
}

/// Long ASCII texts (the validators skip ASCII four blocks at a time, after an ASCII block)
/// with a multi-byte character or an error at every position around the block edges, and
/// output buffers cut at every block edge.
pub fn utf8_long_ascii_runs() {
    let specials: [&[u8]; 6] = [
        b"\xC3\xA9",
        b"\xE6\x97\xA5",
        b"\xF0\x9F\x98\x80",
        b"\xE6\x97",
        b"\xFF",
        b"\x80",
    ];
    let lens: Vec<usize> = if quick() {
        vec![330, 700]
    } else {
        vec![320, 383, 384, 385, 448, 640, 700, 1100]
    };
    for k in levels() {
        for &len in &lens {
            let base: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let positions = (0..len).filter(|p| p % 64 < 5 || p % 64 > 58 || quick() && p % 97 == 0);
            for pos in positions.step_by(stride()) {
                for special in specials {
                    let mut v = base.clone();
                    for (i, &b) in special.iter().enumerate() {
                        if pos + i < len {
                            v[pos + i] = b;
                        }
                    }
                    let s = scalar_table();
                    assert_eq!(
                        k.utf8_valid_up_to(&v),
                        s.utf8_valid_up_to(&v),
                        "{:?} len {len} pos {pos}",
                        k.level()
                    );
                    for cap in [
                        len,
                        pos,
                        pos.saturating_sub(1),
                        pos + 2,
                        pos / 64 * 64,
                        pos / 64 * 64 + 64,
                        256,
                        320,
                    ] {
                        let cap = cap.min(len + 4);
                        let (mut a, mut b) = (vec![0xA5u8; cap], vec![0xA5u8; cap]);
                        assert_eq!(
                            (k.utf8_copy_valid(&v, as_out(&mut a)), &a),
                            (s.utf8_copy_valid(&v, as_out(&mut b)), &b),
                            "{:?} len {len} pos {pos} cap {cap}",
                            k.level()
                        );
                    }
                    // To UTF-16, the output at offsets of 0 to 56 bytes from the buffer's start
                    // (its ASCII blocks align their stores by it, and go back to where a run
                    // ended right after the step back), whole buffers compared.
                    for off in [0usize, 4, 12, 20, 28] {
                        let cap = len + 1;
                        let (mut a, mut b) =
                            (vec![0xA5A5u16; off + cap + 32], vec![0xA5A5u16; off + cap + 32]);
                        assert_eq!(
                            (k.utf8_to_utf16(&v, &mut a[off..off + cap]), &a),
                            (s.utf8_to_utf16(&v, &mut b[off..off + cap]), &b),
                            "utf8_to_utf16 {:?} len {len} pos {pos} offset {off}",
                            k.level()
                        );
                    }
                }
            }
        }
    }
}

/// Byte sequences the UTF-8 validation tests put into text: valid characters, cut ones (a
/// 2-byte lead alone is caught only by the first byte's lookups), a stray continuation, and
/// one of each kind of the lookups' pair errors.
const UTF8_SPECIALS: [&[u8]; 10] = [
    b"\xC3\xA9",
    b"\xE6\x97\xA5",
    b"\xF0\x9F\x98\x80",
    b"\xE6\x97",
    b"\xC3",
    b"\x80",
    b"\xC1\xBF",
    b"\xE0\x9F\xBF",
    b"\xED\xA0\x80",
    b"\xF4\x90\x80\x80",
];

/// Inputs long enough for the validator to check the bytes up to the first 64-byte boundary
/// as a block of their own, at every address modulo 64, with a multi-byte character or an
/// error at every position of that first block and the next.
pub fn utf8_validation_every_alignment() {
    let specials = UTF8_SPECIALS;
    let len = 1100;
    let ascii: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
    // With an "é" every 61 bytes, the blocks after a special are not ASCII: their own
    // checks must see what the special left unfinished.
    let mut mixed = ascii.clone();
    for i in (30..len - 1).step_by(61) {
        mixed[i..i + 2].copy_from_slice("é".as_bytes());
    }
    let mut store = vec![0u8; len + 64];
    let s = scalar_table();
    for (k, base) in levels().into_iter().flat_map(|k| [(k, &ascii), (k, &mixed)]) {
        for align in (0..64).step_by(stride()) {
            let start = (64 - store.as_ptr() as usize % 64) % 64 + align;
            let start = start % 64;
            for pos in (0..130).chain(len - 70..len).step_by(stride()) {
                for special in specials {
                    let v = &mut store[start..start + len];
                    v.copy_from_slice(base);
                    for (i, &b) in special.iter().enumerate() {
                        if pos + i < len {
                            v[pos + i] = b;
                        }
                    }
                    for v in [&store[start..start + len], &store[start..start + len - 1]] {
                        assert_eq!(
                            k.utf8_valid_up_to(v),
                            s.utf8_valid_up_to(v),
                            "{:?} align {align} pos {pos} special {special:?}",
                            k.level()
                        );
                    }
                }
            }
        }
    }
}

/// Text whose 64-byte blocks are ASCII or not in every pattern the validator's steps of four
/// blocks meet (an ASCII block among others, none for several steps in a row, then ASCII
/// again), with each special sequence of `utf8_validation_every_alignment` at the boundaries
/// of the blocks and at random places: validation and the UTF-8 copy at every level equal the
/// scalar kernels, which equal std.
pub fn utf8_validation_mixed_ascii_blocks() {
    let specials = UTF8_SPECIALS;
    const BLOCKS: usize = 40;
    let len = BLOCKS * 64;
    let mut rng = Rng(0x5EED_B10C);
    let s = scalar_table();
    let patterns = if quick() { 6 } else { 60 };
    let mut out = vec![0u8; len];
    for _ in 0..patterns {
        // Runs of ASCII and non-ASCII blocks, of 1 to 12 blocks each.
        let mut text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        let mut block = 0;
        let mut ascii = rng.below(2) == 0;
        while block < BLOCKS {
            let run = 1 + rng.below(12);
            for b in block..(block + run).min(BLOCKS) {
                if !ascii {
                    // An "é" somewhere in the block (possibly across its end).
                    let at = b * 64 + rng.below(63);
                    text[at..at + 2].copy_from_slice("é".as_bytes());
                }
            }
            block += run;
            ascii = !ascii;
        }
        for boundary in (1..BLOCKS).step_by(stride()) {
            for delta in [-4isize, -3, -2, -1, 0, 1, 2] {
                let pos = (boundary * 64).wrapping_add_signed(delta);
                for special in specials {
                    let mut v = text.clone();
                    let end = (pos + special.len()).min(len);
                    v[pos..end].copy_from_slice(&special[..end - pos]);
                    let expect = std::str::from_utf8(&v).map_or_else(|e| e.valid_up_to(), |_| len);
                    assert_eq!(s.utf8_valid_up_to(&v), expect, "scalar at {pos} {special:02X?}");
                    for k in levels() {
                        assert_eq!(
                            k.utf8_valid_up_to(&v),
                            expect,
                            "{:?} validation, special {special:02X?} at {pos}",
                            k.level()
                        );
                        assert_eq!(
                            k.utf8_copy_valid(&v, as_out(&mut out)),
                            (expect, expect),
                            "{:?} copy, special {special:02X?} at {pos}",
                            k.level()
                        );
                        assert_eq!(&out[..expect], &v[..expect]);
                    }
                }
            }
        }
    }
}

/// The upper-half tables of the 28 single-byte encodings and of x-user-defined (which shares
/// the kernels).
fn all_single_byte_tables() -> Vec<&'static [u16; 128]> {
    let mut tables: Vec<&'static [u16; 128]> = simdenc::Encoding::all()
        .iter()
        .filter(|&&e| e.is_single_byte() && e != simdenc::X_USER_DEFINED)
        .filter_map(|&e| single_byte_table(e))
        .collect();
    assert_eq!(tables.len(), 28, "the standard has 28 single-byte encodings");
    tables.push(single_byte_table(simdenc::X_USER_DEFINED).expect("x-user-defined shares the kernels"));
    tables
}

/// Both single-byte kernels of `k` against scalar on `input`, with output sizes `caps`
/// (UTF-16 in units, UTF-8 in bytes) and canaries after what is written.
fn same_single_byte(
    k: &Kernels,
    table: &[u16; 128],
    input: &[u8],
    caps16: &[usize],
    caps8: &[usize],
    what: &str,
) {
    let s = scalar_table();
    for &cap in caps16 {
        let (mut a, mut b) = (vec![0xA5A5u16; cap], vec![0xA5A5u16; cap]);
        let got = k.single_byte_to_utf16(input, table, &mut a);
        let expect = s.single_byte_to_utf16(input, table, &mut b);
        assert_eq!(
            (got, &a),
            (expect, &b),
            "single_byte_to_utf16 {:?} {what} cap {cap} input {input:02X?}",
            k.level()
        );
    }
    for &cap in caps8 {
        let (mut a, mut b) = (vec![0xA5u8; cap], vec![0xA5u8; cap]);
        let got = k.single_byte_to_utf8(input, table, as_out(&mut a));
        let expect = s.single_byte_to_utf8(input, table, as_out(&mut b));
        assert_eq!(
            (got, &a),
            (expect, &b),
            "single_byte_to_utf8 {:?} {what} cap {cap} input {input:02X?}",
            k.level()
        );
    }
}

/// Every level's single-byte kernels, for each of the 29 tables, over all 256 byte values:
/// the 256 bytes in order from every starting byte (so each byte meets each vector position
/// and neighbours), and each byte in runs, alone and between ASCII.
pub fn single_byte_every_table_every_byte() {
    let tables = all_single_byte_tables();
    for k in levels() {
        for &table in &tables {
            for start in (0..256).step_by(stride()) {
                let input: Vec<u8> = (0..300).map(|i| ((start + i) % 256) as u8).collect();
                same_single_byte(k, table, &input, &[300, 150], &[900, 400, 301], "rotation");
            }
            for b in (0..=255u8).step_by(stride()) {
                let run = vec![b; 130];
                let spaced: Vec<u8> = (0..130).map(|i| if i % 3 == 2 { b' ' } else { b }).collect();
                for input in [&run, &spaced] {
                    same_single_byte(k, table, input, &[130, 64], &[400, 200, 131], "run");
                }
            }
        }
    }
}

/// A small deterministic generator for the text-like inputs.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Text as it comes in each of the 29 tables — ASCII words between runs of the letters the
/// table maps below U+0800 (2 bytes of UTF-8), or above it (3 bytes), or both — at every
/// length 0..=300 and (short ones) every alignment, with an unmapped byte at every position
/// (where the table has one) and output buffers of every size for the short ones.
pub fn single_byte_text_every_table() {
    let tables = all_single_byte_tables();
    let mut rng = Rng(0x5B5B_1234_5678_9ABC);
    for &table in &tables {
        let upper = |pred: &dyn Fn(u16) -> bool| -> Vec<u8> {
            (0x80..=0xFFu8)
                .filter(|&b| pred(table[usize::from(b - 0x80)]))
                .collect()
        };
        let two = upper(&|u| (0x80..0x800).contains(&u));
        let three = upper(&|u| u >= 0x800);
        let unmapped = upper(&|u| u == 0);
        let pick = |set: &Vec<u8>, other: &Vec<u8>, rng: &mut Rng| -> u8 {
            let set = if set.is_empty() { other } else { set };
            set[rng.below(set.len())]
        };
        // Mode 0: letters below U+0800 (Cyrillic, Greek, …); 1: with some at or above it;
        // 2: mostly those (Thai): every mix of 1-, 2- and 3-byte UTF-8.
        let text = |len: usize, rng: &mut Rng, mode: usize| -> Vec<u8> {
            (0..len)
                .map(|_| match (rng.below(20), mode) {
                    (0..=2, _) => b" .,a1\n"[rng.below(6)],
                    (3..=5, 1) | (6.., 2) => pick(&three, &two, rng),
                    _ => pick(&two, &three, rng),
                })
                .collect()
        };
        for k in levels() {
            for len in (0..=max_len()).step_by(stride()) {
                let input = text(len, &mut rng, len % 3);
                let caps8: Vec<usize> = if len <= 70 && !quick() {
                    (0..=2 * len + 1).collect()
                } else {
                    vec![3 * len + 8, 2 * len, 2 * len - len / 3, len, len / 2]
                };
                let caps16: Vec<usize> = if len <= 70 && !quick() {
                    (0..=len).collect()
                } else {
                    vec![len + 1, len - len / 3, len / 2]
                };
                same(
                    "single_byte text",
                    k,
                    &input,
                    |k, s, _| same_single_byte(k, table, s, &caps16, &caps8, "text"),
                    |_| vec![0],
                );
                if unmapped.is_empty() || len % 4 != 0 {
                    continue;
                }
                for pos in (0..len).step_by(stride()) {
                    let mut v = input.clone();
                    v[pos] = unmapped[pos % unmapped.len()];
                    same_single_byte(k, table, &v, &[len, pos + 1], &[3 * len, 2 * pos + 1], "unmapped");
                }
            }
        }
    }
}
/// Texts of one script each (and mixes), for the transcoders' vector paths: runs of ASCII,
/// of 2-byte characters (Cyrillic, Greek, Hebrew, Arabic), of 3-byte ones (CJK), emoji.
const SCRIPTS: [&str; 10] = [
    "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë. ",
    "Съешь же ещё этих мягких французских булок, да выпей чаю. ",
    "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. ",
    "עטלף אבק נס דרך מזגן שהתפוצץ כי חם ",
    "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر ",
    "日本語の文章と中文的句子，한국어 문장도。",
    "😀😃😄😁🎉🚀 ok 👍🏽 ",
    "aé日😀bщ ضw€ ",
    "ЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ",
    // 3-byte characters only (the 3-byte loop), the smallest and largest of each range the
    // standard's byte ranges allow among them.
    "日本語の文章と中文的句子\u{800}한국어문장도。\u{D7FF}\u{E000}ｶﾀｶﾅ\u{FFFF}\u{FFFD}漢字",
];

/// Three bytes that are not a character where a 3-byte one was: overlong forms (the least and
/// the largest), surrogates (the least and the largest), a lead of 2 and of 4 bytes, a lead
/// that is no UTF-8 byte, a continuation byte in the lead's place, and a lead followed by a
/// non-continuation byte in either place.
const THREE_BYTE_FAULTS: [&[u8; 3]; 11] = [
    b"\xE0\x80\x80",
    b"\xE0\x9F\xBF",
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xDF\xBF\xBF",
    b"\xF0\x90\x80",
    b"\xFF\xBF\xBF",
    b"\xBF\xBF\xBF",
    b"\xE6\xC0\x80",
    b"\xE6\x97\x7F",
    b"\xEF\xBF\xC0",
];

/// A text of `script` cut to at most `len` bytes at a character boundary.
fn script_text(script: &str, len: usize) -> String {
    let mut s = String::new();
    for c in script.chars().cycle() {
        if s.len() + c.len_utf8() > len {
            break;
        }
        s.push(c);
    }
    s
}

/// `utf8_to_utf16` on script texts with an error or a cut character at every position (every
/// `stride()`-th under emulation), at a few alignments, for every output size up to what the
/// whole text needs (the output fills mid-block, mid-step and mid-character).
pub fn utf8_to_utf16_scripts_and_output_sizes() {
    // An invalid byte, a stray continuation byte, cut 3- and 4-byte characters, and for the
    // 1-2-byte blocks a cut 2-byte character and an overlong form.
    let specials: [&[u8]; 6] = [
        b"\xFF",
        b"\x80",
        b"\xE6\x97",
        b"\xF0\x9F\x98",
        b"\xD0",
        b"\xC1\xBF",
    ];
    let lens: &[usize] = if quick() {
        &[70, 200]
    } else {
        &[64, 65, 127, 130, 200, 333]
    };
    for k in levels() {
        for script in SCRIPTS {
            for &len in lens {
                let text = script_text(script, len);
                let base = text.as_bytes();
                let need = text.encode_utf16().count();
                let mut variants = vec![(base.to_vec(), true)];
                for pos in (0..base.len()).step_by(stride() + usize::from(quick())) {
                    for special in specials {
                        let mut v = base.to_vec();
                        v.splice(pos..pos, special.iter().copied());
                        variants.push((v, false));
                    }
                    // A 3-byte character replaced by 3 bytes that are not one, in its place
                    // (the pattern of leads and continuation bytes unchanged where it can be).
                    if text.is_char_boundary(pos)
                        && text[pos..].chars().next().is_some_and(|c| c.len_utf8() == 3)
                    {
                        for bad in THREE_BYTE_FAULTS {
                            let mut v = base.to_vec();
                            v[pos..pos + 3].copy_from_slice(bad);
                            variants.push((v, false));
                        }
                    }
                }
                for (v, every_cap) in &variants {
                    let caps: Vec<usize> = if *every_cap {
                        (0..=need + 2).collect()
                    } else {
                        (0..=need + 2).step_by(7).chain([need, 64, 65, 63]).collect()
                    };
                    same(
                        "utf8_to_utf16",
                        k,
                        v,
                        |k, s, cap| {
                            let mut d = vec![0xA5A5u16; cap];
                            let r = k.utf8_to_utf16(s, &mut d);
                            (r, d)
                        },
                        |_| caps.clone(),
                    );
                    // In stages, as the encoders call it: the stages of 64 and 97 units end
                    // mid-block, where the vector loops leave the rest to the next call.
                    same(
                        "utf8_to_utf16_stage",
                        k,
                        v,
                        |k, s, cap| {
                            [64, 97].map(|stage| {
                                let mut d = vec![0xA5A5u16; cap];
                                (staged_utf8_to_utf16(k, s, &mut d, stage), d)
                            })
                        },
                        |_| caps.iter().copied().step_by(3).collect(),
                    );
                }
            }
        }
    }
}

/// `utf16_to_utf8` and `utf16_bytes_to_utf8` (LE and BE) on script texts with a lone
/// surrogate, a cut pair or a reversed pair at every position, for every output size.
pub fn utf16_to_utf8_scripts_and_output_sizes() {
    let specials: [&[u16]; 4] = [&[0xD800], &[0xDFFF], &[0xDBFF, 0xDC00], &[0xDC00, 0xD800]];
    let lens: &[usize] = if quick() {
        &[70, 200]
    } else {
        &[48, 64, 65, 130, 200, 333]
    };
    for k in levels() {
        for script in SCRIPTS {
            for &len in lens {
                let text = script_text(script, len);
                let base: Vec<u16> = text.encode_utf16().collect();
                let need = text.len();
                let mut variants = vec![(base.clone(), true)];
                for pos in (0..base.len()).step_by(stride() + usize::from(quick())) {
                    for special in specials {
                        let mut v = base.clone();
                        v.splice(pos..pos, special.iter().copied());
                        variants.push((v, false));
                    }
                }
                for (v, every_cap) in &variants {
                    let caps: Vec<usize> = if *every_cap {
                        (0..=need + 2).collect()
                    } else {
                        (0..=need + 2).step_by(5).chain([need, 31, 32, 33]).collect()
                    };
                    for offset in 0..2 {
                        let v = &v[offset.min(v.len())..];
                        for &cap in &caps {
                            let s = scalar_table();
                            let (mut a, mut b) = (vec![0xA5u8; cap], vec![0xA5u8; cap]);
                            assert_eq!(
                                (k.utf16_to_utf8(v, as_out(&mut a)), &a),
                                (s.utf16_to_utf8(v, as_out(&mut b)), &b),
                                "utf16_to_utf8 {:?} cap {cap} {v:04X?}",
                                k.level()
                            );
                            for be in [false, true] {
                                let mut bytes: Vec<u8> = vec![0; offset];
                                bytes.extend(
                                    v.iter()
                                        .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() }),
                                );
                                let bytes = &bytes[offset..];
                                assert_eq!(
                                    (k.utf16_bytes_to_utf8(bytes, be, as_out(&mut a)), &a),
                                    (s.utf16_bytes_to_utf8(bytes, be, as_out(&mut b)), &b),
                                    "utf16_bytes_to_utf8 {:?} be={be} cap {cap} {v:04X?}",
                                    k.level()
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Random UTF-16 (surrogates, pairs, every range) and random script mixes, every level
/// against scalar, with random output sizes.
pub fn random_transcoding_with_quickcheck() {
    fn prop(seed: Vec<(u8, u16)>, cap: u16) -> TestResult {
        // Units biased to the ranges the vector paths split on.
        // Three rounds of the seed with the values shifted, for inputs of a few hundred units.
        let units: Vec<u16> = (0..3u16)
            .flat_map(|r| seed.iter().map(move |&(kind, u)| (kind, u.wrapping_add(r * 97))))
            .map(|(kind, u)| match kind % 6 {
                0 => u & 0x7F,
                1 => 0x80 + u % 0x780,
                2 => 0x800 + u % 0xD000,
                3 => 0xD800 + u % 0x800,
                4 => 0xE000 + u % 0x2000,
                _ => u,
            })
            .collect();
        let cap = usize::from(cap) % (units.len() * 3 + 8);
        let text: String = char::decode_utf16(units.iter().copied())
            .map(|c| c.unwrap_or('\u{10348}'))
            .collect();
        let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let s = scalar_table();
        for k in available() {
            let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
            if k.utf16_to_utf8(&units, as_out(&mut a)) != s.utf16_to_utf8(&units, as_out(&mut b)) || a != b {
                return TestResult::failed();
            }
            if k.utf16_bytes_to_utf8(&bytes, false, as_out(&mut a))
                != s.utf16_bytes_to_utf8(&bytes, false, as_out(&mut b))
                || a != b
            {
                return TestResult::failed();
            }
            let (mut a, mut b) = (vec![0u16; cap], vec![0u16; cap]);
            if k.utf8_to_utf16(text.as_bytes(), &mut a) != s.utf8_to_utf16(text.as_bytes(), &mut b) || a != b
            {
                return TestResult::failed();
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(if quick() { 100 } else { 2000 })
        .quickcheck(prop as fn(Vec<(u8, u16)>, u16) -> TestResult);
}

/// Random mixes of characters of 1-2, 1-3 and 1-4 bytes, so that every shuffle the
/// transcoders look up by character lengths is used, both ways.
pub fn transcoding_length_mixes() {
    let sets: [&[char]; 4] = [
        &['a', 'é', 'ж'],
        &['a', 'é', '日', '€'],
        &['a', 'é', '日', '😀'],
        &['ж', '日'],
    ];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let s = scalar_table();
    for k in levels() {
        for set in sets {
            for _ in 0..if quick() { 30 } else { 600 } {
                let n = 40 + (next() % 160) as usize;
                let text: String = (0..n)
                    .map(|_| set[(next() % set.len() as u64) as usize])
                    .collect();
                let units: Vec<u16> = text.encode_utf16().collect();
                for cap in [units.len() + 8, units.len() / 2 + (next() % 64) as usize] {
                    let (mut a, mut b) = (vec![0xA5A5u16; cap], vec![0xA5A5u16; cap]);
                    assert_eq!(
                        (k.utf8_to_utf16(text.as_bytes(), &mut a), &a),
                        (s.utf8_to_utf16(text.as_bytes(), &mut b), &b),
                        "utf8_to_utf16 {:?} cap {cap} {text}",
                        k.level()
                    );
                }
                for cap in [text.len() + 8, text.len() / 2 + (next() % 64) as usize] {
                    let (mut a, mut b) = (vec![0xA5u8; cap], vec![0xA5u8; cap]);
                    assert_eq!(
                        (k.utf16_to_utf8(&units, as_out(&mut a)), &a),
                        (s.utf16_to_utf8(&units, as_out(&mut b)), &b),
                        "utf16_to_utf8 {:?} cap {cap} {text}",
                        k.level()
                    );
                }
            }
        }
    }
}

/// Supplementary characters for the emoji tests: common emoji, a skin-tone modifier, and the
/// first and last code points of the supplementary planes (the ends of the surrogate
/// arithmetic).
const ASTRAL: [char; 8] = [
    '😀',
    '👍',
    '🏽',
    '🎉',
    '\u{10000}',
    '\u{10FFFF}',
    '\u{1F9FF}',
    '\u{FFFFD}',
];

/// `utf8_to_utf16` at `k` against scalar on `bytes` for each output size in `caps`, and
/// `utf8_to_utf16_stage` in stages of 70 units.
fn same_utf8_to_utf16(k: &Kernels, bytes: &[u8], caps: &[usize]) {
    let s = scalar_table();
    for &cap in caps {
        let (mut a, mut b) = (vec![0xA5A5u16; cap], vec![0xA5A5u16; cap]);
        let expect = s.utf8_to_utf16(bytes, &mut b);
        assert_eq!(
            (k.utf8_to_utf16(bytes, &mut a), &a),
            (expect, &b),
            "utf8_to_utf16 {:?} cap {cap} {bytes:02X?}",
            k.level()
        );
        a.fill(0xA5A5);
        assert_eq!(
            (staged_utf8_to_utf16(k, bytes, &mut a, 70), &a),
            (expect, &b),
            "utf8_to_utf16_stage in stages of 70 {:?} cap {cap} {bytes:02X?}",
            k.level()
        );
    }
}

/// `utf8_to_utf16_stage` called as the encoders call it: each time from where the last call
/// stopped, into the next `stage` units of `dst` (fewer at its end), until a call converts
/// nothing. `(read, written)` in all, which must be what one call of `utf8_to_utf16` into the
/// whole of `dst` gives (`stage >= 2`: a surrogate pair fits in a fresh stage).
fn staged_utf8_to_utf16(k: &Kernels, src: &[u8], dst: &mut [u16], stage: usize) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        let end = dst.len().min(written + stage);
        let (r, w) = k.utf8_to_utf16_stage(&src[read..], &mut dst[written..end]);
        if r == 0 {
            return (read, written);
        }
        read += r;
        written += w;
    }
}

/// `utf16_to_utf8`, `utf16_bytes_to_utf8` and `utf16_bytes_to_utf16` (LE, BE, with and
/// without an odd byte after the units) at `k` against scalar on `units` for each output size
/// in `caps` (bytes, or units for `utf16_bytes_to_utf16`).
fn same_utf16_to_utf8(k: &Kernels, units: &[u16], caps: &[usize]) {
    let s = scalar_table();
    for &cap in caps {
        let (mut a, mut b) = (vec![0xA5u8; cap], vec![0xA5u8; cap]);
        assert_eq!(
            (k.utf16_to_utf8(units, as_out(&mut a)), &a),
            (s.utf16_to_utf8(units, as_out(&mut b)), &b),
            "utf16_to_utf8 {:?} cap {cap} {units:04X?}",
            k.level()
        );
        for be in [false, true] {
            let mut bytes: Vec<u8> = units
                .iter()
                .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                .collect();
            for odd in [false, true] {
                if odd {
                    bytes.push(0xD8);
                }
                assert_eq!(
                    (k.utf16_bytes_to_utf8(&bytes, be, as_out(&mut a)), &a),
                    (s.utf16_bytes_to_utf8(&bytes, be, as_out(&mut b)), &b),
                    "utf16_bytes_to_utf8 {:?} be={be} cap {cap} {units:04X?} odd={odd}",
                    k.level()
                );
                let (mut a16, mut b16) = (vec![0xA5A5u16; cap], vec![0xA5A5u16; cap]);
                assert_eq!(
                    (k.utf16_bytes_to_utf16(&bytes, be, &mut a16), &a16),
                    (s.utf16_bytes_to_utf16(&bytes, be, &mut b16), &b16),
                    "utf16_bytes_to_utf16 {:?} be={be} cap {cap} {units:04X?} odd={odd}",
                    k.level()
                );
            }
        }
    }
}

/// Output sizes: all up to `need + 2` for `every`, else every third and the edges.
fn transcode_caps(need: usize, every: bool) -> Vec<usize> {
    if every {
        (0..=need + 2).collect()
    } else {
        (0..=need + 2)
            .step_by(if quick() { 11 } else { 3 })
            .chain([need.saturating_sub(1), need, need + 1])
            .collect()
    }
}

/// Runs of 4-byte characters after `prefix` ASCII or 2-byte characters (so that they start at
/// every offset of the 16-byte steps and 64-byte blocks), then with a 1-3-byte character, a
/// cut or invalid sequence (overlong, above U+10FFFF, a surrogate, bytes 0xF5..) inserted at
/// every position (inside characters too), UTF-8 to UTF-16, for many output sizes.
pub fn utf8_to_utf16_emoji_every_position() {
    let specials: [&[u8]; 12] = [
        b"a",
        "é".as_bytes(),
        "日".as_bytes(),
        "\u{FFFF}".as_bytes(),
        b"\xF0\x9F\x98",
        b"\xF0\x9F",
        b"\x80",
        b"\xF4\x90\x80\x80",
        b"\xF0\x8F\xBF\xBF",
        b"\xED\xA0\x80",
        b"\xF5\x80\x80\x80",
        b"\xFF",
    ];
    let len = if quick() { 100 } else { 150 };
    for k in levels() {
        for prefix in (0..=17).step_by(if quick() { 5 } else { 1 }) {
            for filler in ['a', 'é'] {
                let mut text: String = core::iter::repeat_n(filler, prefix).collect();
                for c in ASTRAL.iter().cycle() {
                    if text.len() + 4 > len {
                        break;
                    }
                    text.push(*c);
                }
                let base = text.as_bytes();
                let need = text.encode_utf16().count();
                same_utf8_to_utf16(k, base, &transcode_caps(need, true));
                for pos in (0..base.len()).step_by(stride()) {
                    for special in specials {
                        let mut v = base.to_vec();
                        v.splice(pos..pos, special.iter().copied());
                        same_utf8_to_utf16(k, &v, &transcode_caps(need + 2, false));
                    }
                }
            }
        }
    }
}

/// Runs of surrogate pairs after `prefix` ASCII or BMP units (so that pairs start at even and
/// odd units of the 8-unit steps), then with a BMP unit, a lone leading or trailing surrogate,
/// a reversed pair, or a leading surrogate before a non-surrogate, inserted at every
/// position (between the halves of a pair too), and cut after every unit (a leading
/// surrogate last), UTF-16 to UTF-8 (units, and bytes) and UTF-16 bytes to UTF-16.
pub fn utf16_to_utf8_pairs_every_position() {
    let specials: [&[u16]; 9] = [
        &[0x41],
        &[0xE9],
        &[0x65E5],
        &[0xD800],
        &[0xDBFF],
        &[0xDC00],
        &[0xDFFF],
        &[0xDC00, 0xD800],
        &[0xD83D, 0x41],
    ];
    let len = if quick() { 50 } else { 80 };
    for k in levels() {
        for prefix in (0..=17).step_by(if quick() { 5 } else { 1 }) {
            for filler in [0x61u16, 0x439, 0x65E5] {
                let mut base = vec![filler; prefix];
                let mut buf = [0u16; 2];
                for c in ASTRAL.iter().cycle() {
                    if base.len() + 2 > len {
                        break;
                    }
                    base.extend_from_slice(c.encode_utf16(&mut buf));
                }
                let need = String::from_utf16(&base).map_or(0, |s| s.len());
                same_utf16_to_utf8(k, &base, &transcode_caps(need, true));
                for cut in (0..base.len()).step_by(stride()) {
                    same_utf16_to_utf8(k, &base[..cut], &transcode_caps(need, false));
                }
                for pos in (0..base.len()).step_by(stride()) {
                    for special in specials {
                        let mut v = base.clone();
                        v.splice(pos..pos, special.iter().copied());
                        same_utf16_to_utf8(k, &v, &transcode_caps(need + 4, false));
                    }
                }
            }
        }
    }
}

/// Mixes of emoji with ASCII, 2- and 3-byte characters (tweets): both ways, random lengths,
/// output sizes and alignment of the mix, so that every three-character row and the runs of
/// pairs start and stop everywhere.
pub fn emoji_mixes() {
    let sets: [&[char]; 5] = [
        &['a', '😀'],
        &['a', ' ', '😀', '👍', '🏽'],
        &['é', '😀', '\u{10FFFF}'],
        &['日', '😀', '\u{10000}'],
        &['a', 'é', '日', '😀', '😀', '😀', '😀'],
    ];
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for k in levels() {
        for set in sets {
            for _ in 0..if quick() { 20 } else { 400 } {
                let n = 20 + (next() % 120) as usize;
                let text: String = (0..n)
                    .map(|_| set[(next() % set.len() as u64) as usize])
                    .collect();
                let units: Vec<u16> = text.encode_utf16().collect();
                let cap16 = [units.len(), (next() % (units.len() as u64 + 1)) as usize];
                same_utf8_to_utf16(k, text.as_bytes(), &cap16);
                let cap8 = [text.len(), (next() % (text.len() as u64 + 1)) as usize];
                same_utf16_to_utf8(k, &units, &cap8);
            }
        }
    }
}

/// `utf8_to_utf16` on ASCII text with a non-ASCII character early in each 64 bytes (so that
/// blocks take the vector steps, not the ASCII path) and a 1-4-byte character, a cut one or
/// an error written over every position (the kernel's blocks start where the last one's steps
/// ended, so every position is near some block's edge): the last step of a block reads
/// whether the block's last byte ends a character.
pub fn utf8_to_utf16_block_edges() {
    let specials: [&[u8]; 10] = [
        "é".as_bytes(),
        "日".as_bytes(),
        "😀".as_bytes(),
        "😀😀😀😀".as_bytes(),
        "日日日日".as_bytes(),
        b"\xF0\x9F\x98",
        b"\xF0\x9F",
        b"\xF0",
        b"\xE6\x97",
        b"\xC3",
    ];
    let len = 200;
    for k in levels() {
        // Where the early characters are and their lengths decide where the steps fall
        // (around them the steps take 6-12 bytes, then 16 ASCII at a time).
        for (early, first) in (0..40)
            .step_by(if quick() { 13 } else { 1 })
            .flat_map(|e| ["é", "日", "😀", "éé"].map(|c| (e, c.as_bytes())))
        {
            let mut base: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            for at in (early..len - first.len()).step_by(64) {
                base[at..at + first.len()].copy_from_slice(first);
            }
            for pos in (0..len).step_by(stride()) {
                for special in specials {
                    let mut v = base.clone();
                    let end = (pos + special.len()).min(len);
                    v[pos..end].copy_from_slice(&special[..end - pos]);
                    same_utf8_to_utf16(k, &v, &[len, pos + 1, 130]);
                }
            }
        }
    }
}

/// UTF-16 made of random tokens (runs of 7 ASCII units, single ASCII, 2- and 3-byte units,
/// surrogate pairs, lone leading and trailing surrogates), to UTF-8 with every level against
/// scalar: steps of every length of output follow each other, such as a whole-lane step
/// followed by a 7-unit one (a leading surrogate last) that is stored exactly because an
/// unpaired surrogate follows, which must overwrite all the garbage of the first.
pub fn utf16_to_utf8_token_mixes() {
    let tokens: [&[u16]; 8] = [
        &[0x61; 7],
        &[0x61],
        &[0xE9],
        &[0x65E5],
        &[0xD83D, 0xDE00],
        &[0xDBFF, 0xDFFF],
        &[0xD83D],
        &[0xDC00],
    ];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for k in levels() {
        for _ in 0..if quick() { 200 } else { 5000 } {
            let n = 4 + (next() % 40) as usize;
            let units: Vec<u16> = (0..n)
                .flat_map(|_| {
                    // Lone surrogates rarely, so that long runs convert.
                    let t = (next() % 64) as usize;
                    tokens[if t < 60 { t % 6 } else { 6 + t % 2 }].iter().copied()
                })
                .collect();
            let need = 3 * units.len();
            let cap = (next() % (need as u64 + 1)) as usize;
            same_utf16_to_utf8(k, &units, &[need, cap]);
        }
    }
}

/// Every sweep, by name: `tests/levels.rs` runs them in order (each one at every level).
pub const SWEEPS: &[(&str, fn())] = &[
    ("ascii_kernels", ascii_kernels),
    ("narrow_ascii_kernel", narrow_ascii_kernel),
    ("utf8_to_latin1_kernel", utf8_to_latin1_kernel),
    ("latin1_to_utf8_kernel", latin1_to_utf8_kernel),
    ("utf8_kernels", utf8_kernels),
    ("utf8_mixed_text", utf8_mixed_text),
    ("utf16_kernels", utf16_kernels),
    ("single_byte_kernels", single_byte_kernels),
    ("cjk_decode_kernels", cjk_decode_kernels),
    ("cjk_decode_two_byte_characters", cjk_decode_two_byte_characters),
    ("cjk_decode_four_byte_sequences", cjk_decode_four_byte_sequences),
    ("legacy_encode_kernels", legacy_encode_kernels),
    ("legacy_encode_every_code_point", legacy_encode_every_code_point),
    ("legacy_encode_single_byte", legacy_encode_single_byte),
    ("random_inputs_with_quickcheck", random_inputs_with_quickcheck),
    ("utf8_long_ascii_runs", utf8_long_ascii_runs),
    ("utf8_validation_every_alignment", utf8_validation_every_alignment),
    (
        "utf8_validation_mixed_ascii_blocks",
        utf8_validation_mixed_ascii_blocks,
    ),
    (
        "single_byte_every_table_every_byte",
        single_byte_every_table_every_byte,
    ),
    ("single_byte_text_every_table", single_byte_text_every_table),
    (
        "utf8_to_utf16_scripts_and_output_sizes",
        utf8_to_utf16_scripts_and_output_sizes,
    ),
    (
        "utf16_to_utf8_scripts_and_output_sizes",
        utf16_to_utf8_scripts_and_output_sizes,
    ),
    (
        "random_transcoding_with_quickcheck",
        random_transcoding_with_quickcheck,
    ),
    ("transcoding_length_mixes", transcoding_length_mixes),
    (
        "utf8_to_utf16_emoji_every_position",
        utf8_to_utf16_emoji_every_position,
    ),
    (
        "utf16_to_utf8_pairs_every_position",
        utf16_to_utf8_pairs_every_position,
    ),
    ("emoji_mixes", emoji_mixes),
    ("utf8_to_utf16_block_edges", utf8_to_utf16_block_edges),
    ("utf16_to_utf8_token_mixes", utf16_to_utf8_token_mixes),
    (
        "transcode_utf8_to_utf16_every_special_at_every_position",
        crate::transcode::transcode_utf8_to_utf16_every_special_at_every_position,
    ),
    (
        "transcode_utf8_to_utf16_every_output_size",
        crate::transcode::transcode_utf8_to_utf16_every_output_size,
    ),
    (
        "transcode_utf16_to_utf8_every_special_at_every_position",
        crate::transcode::transcode_utf16_to_utf8_every_special_at_every_position,
    ),
    (
        "transcode_utf16_to_utf8_every_output_size",
        crate::transcode::transcode_utf16_to_utf8_every_output_size,
    ),
    (
        "transcode_random_utf8_with_quickcheck",
        crate::transcode::transcode_random_utf8_with_quickcheck,
    ),
    (
        "transcode_random_utf16_with_quickcheck",
        crate::transcode::transcode_random_utf16_with_quickcheck,
    ),
    (
        "transcode_corpus_against_scalar_and_std",
        crate::transcode::transcode_corpus_against_scalar_and_std,
    ),
];
