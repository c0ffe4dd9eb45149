//! The UTF-8 <-> UTF-16 transcoders of every level against the scalar ones, exactly:
//! `(read, written)` and the whole output buffer, including guard zones on both sides of
//! `dst`: every special sequence at every position of every length to 300, every output
//! size, random inputs, and the corpus. Written for the AVX-512 transcoders, run at every
//! level (part of `sweeps::SWEEPS`). Under emulation (`SIMDENC_QUICK_TESTS`) every 7th length
//! and position, every output size of fewer lengths and specials, and fewer random inputs.

use quickcheck::{Gen, QuickCheck, TestResult};
use simdenc::cpu::{self, Level};
use simdenc::internals::KernelTable as Kernels;

fn quick() -> bool {
    std::env::var_os("SIMDENC_QUICK_TESTS").is_some()
}

fn stride() -> usize {
    if quick() { 7 } else { 1 }
}

/// Every supported level's table but scalar's.
fn levels() -> Vec<&'static Kernels> {
    cpu::supported()
        .filter(|&l| l != Level::Scalar)
        .filter_map(Kernels::for_level)
        .map(|k| &*Box::leak(Box::new(k)))
        .collect()
}

fn scalar() -> Kernels {
    Kernels::for_level(Level::Scalar).expect("scalar is always supported")
}

/// Elements of guard on each side of the output.
const GUARD: usize = 72;

/// Runs both kernels on `src` with an output of `cap` elements at offset `GUARD + align`
/// of a buffer filled with `fill`, and asserts identical results and buffers.
fn same<S: core::fmt::Debug, D: Copy + PartialEq + core::fmt::Debug>(
    what: &str,
    src: &[S],
    cap: usize,
    align: usize,
    fill: D,
    mine: impl Fn(&[S], &mut [D]) -> (usize, usize),
    reference: impl Fn(&[S], &mut [D]) -> (usize, usize),
) -> (usize, usize) {
    let mut a = vec![fill; cap + 2 * GUARD];
    let mut b = a.clone();
    let at = GUARD + align % GUARD;
    let got = mine(src, &mut a[at..at + cap]);
    let expect = reference(src, &mut b[at..at + cap]);
    if got != expect || a != b {
        let first = a.iter().zip(&b).position(|(x, y)| x != y);
        panic!(
            "{what}: cap {cap} align {align}: got {got:?}, expected {expect:?}, first \
             differing element {first:?} (output at {at})\ninput {src:X?}"
        );
    }
    got
}

/// `input` at offset `align` (mod 64) of a fresh buffer.
fn placed<T: Copy + Default>(input: &[T], align: usize) -> Vec<T> {
    let mut v = vec![T::default(); input.len() + 64];
    v[align % 64..align % 64 + input.len()].copy_from_slice(input);
    v
}

fn check_8_16(k: &Kernels, input: &[u8], caps: &mut dyn Iterator<Item = usize>, align: usize) {
    let buf = placed(input, align);
    let src = &buf[align % 64..align % 64 + input.len()];
    for cap in caps {
        same(
            "utf8_to_utf16",
            src,
            cap,
            align,
            0xA5A5u16,
            |s, d| k.utf8_to_utf16(s, d),
            |s, d| scalar().utf8_to_utf16(s, d),
        );
    }
}

fn check_16_8(k: &Kernels, input: &[u16], caps: &mut dyn Iterator<Item = usize>, align: usize) {
    let buf = placed(input, align);
    let src = &buf[align % 64..align % 64 + input.len()];
    let bytes: [Vec<u8>; 2] = [
        src.iter().flat_map(|u| u.to_le_bytes()).collect(),
        src.iter().flat_map(|u| u.to_be_bytes()).collect(),
    ];
    for cap in caps {
        same(
            "utf16_to_utf8",
            src,
            cap,
            align,
            0xA5u8,
            |s, d| k.utf16_to_utf8(s, d),
            |s, d| scalar().utf16_to_utf8(s, d),
        );
        for (be, b) in [false, true].into_iter().zip(&bytes) {
            let mine = |s: &[u8], d: &mut [u8]| k.utf16_bytes_to_utf8(s, be, d);
            let reference = |s: &[u8], d: &mut [u8]| scalar().utf16_bytes_to_utf8(s, be, d);
            // Odd lengths: a trailing half unit.
            let odd = align.is_multiple_of(3) && !b.is_empty();
            let s = if odd { &b[..b.len() - 1] } else { &b[..] };
            same("utf16_bytes_to_utf8", s, cap, align, 0xA5u8, mine, reference);
        }
    }
}

/// What the conversion needs with unlimited output.
fn need_8_16(input: &[u8]) -> usize {
    scalar().utf8_to_utf16(input, &mut vec![0; input.len() + 1]).1
}

fn need_16_8(input: &[u16]) -> usize {
    scalar().utf16_to_utf8(input, &mut vec![0; 3 * input.len() + 1]).1
}

fn utf8_bases() -> Vec<Vec<u8>> {
    [
        "aé日😀bc",
        "The quick brown fox. ",
        "жёлтый ",
        "日本語の",
        "😀🙈🚀",
        "a😀",
        "힣 한국어 ",
        "नमस्ते, दुनिया ",
        // Sparse: a letter or two among ASCII (the sparse block path), and a few characters
        // of 3 and 4 bytes among ASCII, near its bound.
        "Größe über naïve Café, schön. ",
        "The quick brown 日 fox jumps over 😀 the lazy dog. ",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

const UTF8_SPECIALS: [&[u8]; 28] = [
    b"\xD0\x90\x80\x80",
    b"\xF0\x90\x80",
    b"\xE6\x97\xA5\x80",
    b"\xF8\x90\x80\x80",
    b"\x80",
    b"\xBF",
    b"\xFF",
    b"\xC0\xAF",
    b"\xC1\xBF",
    b"\xE0\x80",
    b"\xE0\x9F\xBF",
    b"\xED\xA0\x80",
    b"\xF0\x90",
    b"\xF0\x8F\xBF\xBF",
    b"\xF4\x90\x80\x80",
    b"\xF5\x80\x80\x80",
    b"\xE6\x97",
    b"\xC3",
    b"\xF0\x9F\x98\x80",
    b"\xF4\x8F\xBF\xBF",
    b"\xF0\x90\x80\x80",
    b"\xE6\x97\xA5",
    b"\xEF\xBB\xBF",
    b"\xED\x9F\xBF",
    b"\xEE\x80\x80",
    b"\xC2\x80",
    b"\xDF\xBF",
    b"\x00",
];

fn utf16_bases() -> Vec<Vec<u16>> {
    [
        "aé日bc",
        "The quick brown fox. ",
        "жёлтый ",
        "日本語の",
        "😀🙈",
        "a😀",
        "é😀日",
        // Sparse: a letter or two among ASCII (the one-letter vectors).
        "Größe über naïve Café, schön. ",
        "The quick brown fox ж jumps over the lazy dog. ",
        // Runs below U+0800 (two vectors a round) that end in a long ASCII run.
        "Ещё один пример текста, with a long run of ASCII after it. ",
        "中文, 日本語, 한국어 and English text mixed in one line. ",
    ]
    .iter()
    .map(|s| s.encode_utf16().collect())
    .collect()
}

const UTF16_SPECIALS: [&[u16]; 14] = [
    &[0xD83D, 0xDE00],
    &[0xD800],
    &[0xDC00],
    &[0xDBFF, 0x41],
    &[0xDBFF, 0xDFFF],
    &[0xDC00, 0xD800],
    &[0xD800, 0xD800, 0xDC00],
    &[0x80],
    &[0x7FF],
    &[0x800],
    &[0xFFFF],
    &[0xD7FF, 0xE000],
    &[0],
    &[0x7F],
];

/// `base` cycled to `len`, with `special` written over it at `pos` (clipped).
fn with_special<T: Copy>(base: &[T], len: usize, special: &[T], pos: usize) -> Vec<T> {
    let mut v: Vec<T> = base.iter().copied().cycle().take(len).collect();
    for (i, &x) in special.iter().enumerate() {
        if pos + i < len {
            v[pos + i] = x;
        }
    }
    v
}

/// Output sizes for one input: the full need and around it, the boundaries of the first
/// vectors, and half.
fn some_caps(need: usize) -> impl Iterator<Item = usize> {
    let near = need.saturating_sub(4)..need + 2;
    let fixed = [0, 1, 2, 3, 31, 32, 33, 47, 48, 63, 64, 65, need / 2, need / 2 + 1];
    // Room to spare: the vector loop must stop where the input does, not at the output.
    let spare = [3 * need + 70];
    near.chain(fixed.into_iter().filter(move |&c| c <= need))
        .chain(spare)
}

pub fn transcode_utf8_to_utf16_every_special_at_every_position() {
    for k in levels() {
        // Every base for the plain texts; the bases take turns under the specials.
        let bases = utf8_bases();
        for len in (0..=300).step_by(stride()) {
            for base in &bases {
                let text = with_special(base, len, &[], 0);
                check_8_16(k, &text, &mut some_caps(need_8_16(&text)), len);
            }
            for (i, special) in UTF8_SPECIALS.iter().enumerate() {
                for pos in (0..len).step_by(stride()) {
                    let base = &bases[(i + pos + len) % bases.len()];
                    let v = with_special(base, len, special, pos);
                    let need = need_8_16(&v);
                    let mut caps = (need.saturating_sub(2)..=need + 1).chain([3 * len + 70]);
                    check_8_16(k, &v, &mut caps, pos + len);
                }
            }
        }
    }
}

pub fn transcode_utf8_to_utf16_every_output_size() {
    for k in levels() {
        for base in utf8_bases() {
            for len in (0..=300).filter(|l| (*l <= 140 && !quick()) || l % 7 == 0) {
                for special in UTF8_SPECIALS.iter().step_by(3 * stride().min(2)) {
                    for pos in (0..len.max(1)).step_by(23) {
                        let v = with_special(&base, len, special, pos);
                        let need = need_8_16(&v);
                        check_8_16(k, &v, &mut (0..=need + 1).chain([3 * len + 70]), pos * 3 + len);
                    }
                }
            }
        }
    }
}

pub fn transcode_utf16_to_utf8_every_special_at_every_position() {
    for k in levels() {
        let bases = utf16_bases();
        for len in (0..=300).step_by(stride()) {
            for base in &bases {
                let text = with_special(base, len, &[], 0);
                check_16_8(k, &text, &mut some_caps(need_16_8(&text)), len);
            }
            for (i, special) in UTF16_SPECIALS.iter().enumerate() {
                for pos in (0..len).step_by(stride()) {
                    let base = &bases[(i + pos + len) % bases.len()];
                    let v = with_special(base, len, special, pos);
                    let need = need_16_8(&v);
                    let mut caps = (need.saturating_sub(3)..=need + 1).chain([3 * len + 70]);
                    check_16_8(k, &v, &mut caps, pos + len);
                }
            }
        }
    }
}

pub fn transcode_utf16_to_utf8_every_output_size() {
    for k in levels() {
        for base in utf16_bases() {
            for len in (0..=300).filter(|l| (*l <= 100 && !quick()) || l % 11 == 0) {
                for special in UTF16_SPECIALS.iter().step_by(2 * stride().min(2)) {
                    for pos in (0..len.max(1)).step_by(19) {
                        let v = with_special(&base, len, special, pos);
                        // The bytes kernels stop at the first surrogate: their need is smaller,
                        // and every size up to this one covers it.
                        let need = need_16_8(&v).max(3 * len.min(20));
                        check_16_8(k, &v, &mut (0..=need + 1).chain([3 * len + 70]), pos * 5 + len);
                    }
                }
            }
        }
    }
}

/// A character of the class `kind % 5`: ASCII, 2, 3, 4 bytes, or a C0 control.
fn char_of(kind: u8, x: u32) -> char {
    let (lo, hi) = match kind % 5 {
        0 => (0x20, 0x7F),
        1 => (0x80, 0x800),
        2 => (0x800, 0x10000),
        3 => (0x10000, 0x110000),
        _ => (0, 0x20),
    };
    char::from_u32(lo + x % (hi - lo)).unwrap_or('\u{FFFD}')
}

pub fn transcode_random_utf8_with_quickcheck() {
    {
        fn prop(chars: Vec<(u8, u32)>, corrupt: Vec<(u16, u8)>, cap: u16, raw: Vec<u8>) -> TestResult {
            let mut bytes: Vec<u8> = chars
                .iter()
                .map(|&(k, x)| char_of(k, x))
                .collect::<String>()
                .into();
            if !bytes.is_empty() {
                for &(at, b) in corrupt.iter().take(3) {
                    let i = usize::from(at) % bytes.len();
                    bytes[i] = b;
                }
            }
            for input in [&bytes, &raw] {
                let need = need_8_16(input);
                let cap = usize::from(cap) % (need + 2);
                for c in [need, cap, 3 * input.len() + 70] {
                    for k in levels() {
                        check_8_16(k, input, &mut core::iter::once(c), usize::from(cap as u8));
                    }
                }
            }
            TestResult::passed()
        }
        QuickCheck::new()
            .tests(if quick() { 300 } else { 3000 })
            .rng(Gen::new(400))
            .quickcheck(prop as fn(Vec<(u8, u32)>, Vec<(u16, u8)>, u16, Vec<u8>) -> TestResult);
    }
}

pub fn transcode_random_utf16_with_quickcheck() {
    {
        fn prop(chars: Vec<(u8, u32)>, lone: Vec<(u16, u16)>, cap: u16, raw: Vec<u16>) -> TestResult {
            let mut units: Vec<u16> = chars
                .iter()
                .map(|&(k, x)| char_of(k, x))
                .collect::<String>()
                .encode_utf16()
                .collect();
            if !units.is_empty() {
                for &(at, u) in lone.iter().take(2) {
                    let i = usize::from(at) % units.len();
                    units[i] = 0xD800 | (u & 0x7FF);
                }
            }
            for input in [&units, &raw] {
                let need = need_16_8(input);
                let cap = usize::from(cap) % (need + 2);
                for c in [need, cap, 3 * input.len() + 70] {
                    for k in levels() {
                        check_16_8(k, input, &mut core::iter::once(c), usize::from(cap as u8));
                    }
                }
            }
            TestResult::passed()
        }
        QuickCheck::new()
            .tests(if quick() { 300 } else { 3000 })
            .rng(Gen::new(400))
            .quickcheck(prop as fn(Vec<(u8, u32)>, Vec<(u16, u16)>, u16, Vec<u16>) -> TestResult);
    }
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/data/corpus");
    let mut files = Vec::new();
    for dir in ["lipsum", "wikipedia"] {
        let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "txt") {
                files.push((path.display().to_string(), std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

pub fn transcode_corpus_against_scalar_and_std() {
    for k in levels() {
        let files = corpus();
        assert!(files.len() >= 9, "corpus not found");
        for (name, bytes) in &files {
            let text = std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            let expect16: Vec<u16> = text.encode_utf16().collect();
            let mut got16 = vec![0u16; bytes.len()];
            assert_eq!(
                k.utf8_to_utf16(bytes, &mut got16),
                (bytes.len(), expect16.len()),
                "{name}"
            );
            assert_eq!(got16[..expect16.len()], expect16[..], "{name}");
            check_8_16(
                k,
                bytes,
                &mut [expect16.len(), bytes.len(), expect16.len() / 3].into_iter(),
                1,
            );

            let mut got8 = vec![0u8; 3 * expect16.len()];
            let (r, w) = k.utf16_to_utf8(&expect16, &mut got8);
            assert_eq!((r, w), (expect16.len(), bytes.len()), "{name}");
            assert_eq!(
                String::from_utf16(&expect16).unwrap().as_bytes(),
                &got8[..w],
                "{name}"
            );
            check_16_8(
                k,
                &expect16,
                &mut [bytes.len(), 3 * expect16.len(), bytes.len() / 2].into_iter(),
                3,
            );
        }
    }
}
