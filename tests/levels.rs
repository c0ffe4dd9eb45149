//! The engine against `spec` at every SIMD level this CPU supports, through the public API,
//! with the level forced globally (`cpu::force`), plus the UTF-8 kernels against std, and
//! every kernel of every level against the scalar kernels: the sweeps of `levels/sweeps.rs`
//! (one table, `SWEEPS`, the kernel tests of every level), `levels/kernels.rs` and the
//! transcoders below, through `simdenc::internals`, which the dev-dependency on this crate
//! itself enables. Levels of this architecture that the CPU lacks are reported as skipped.
//!
//! This test has no libtest harness (`harness = false`): it runs in the main thread, because
//! under qemu-aarch64 on the CI machines no thread can be started (qemu 7.2 hangs in
//! `pthread_create`), and this is the test that checks the NEON level there.
//! Set `SIMDENC_QUICK_TESTS` to run fewer inputs (emulation).

mod common;
#[path = "levels/kernels.rs"]
mod kernels;
#[path = "levels/sweeps.rs"]
mod sweeps;
#[path = "levels/transcode.rs"]
mod transcode;

use common::{Rng, check_decode, check_encode, random_splits};
use simdenc::cpu::{self, Level};
use simdenc::{Encoding, spec};

fn main() {
    let quick = std::env::var_os("SIMDENC_QUICK_TESTS").is_some();
    let rounds = if quick { 6 } else { 40 };
    let mut passed = 0usize;
    let levels: Vec<Level> = cpu::supported().collect();
    for &level in &levels {
        cpu::force(level).expect("a supported level");
        assert_eq!(cpu::active(), level);
        let mut rng = Rng(0x1E7E_0000 + level as u64);
        // Every decoder and encoder: generated inputs, chunked, small outputs.
        for &enc in Encoding::all() {
            for _ in 0..rounds {
                let input = generated(&mut rng, enc);
                let splits = random_splits(&mut rng, input.len());
                check_decode(enc, &input, &splits, 4 + rng.below(70));
                check_decode(enc, &input, &[], input.len() * 3 + 8);
                let text = spec::run_decoder(enc, &input, spec::ErrorMode::Replacement).output;
                let n = text.chars().count();
                check_encode(enc, &text, &random_splits(&mut rng, n), 16 + rng.below(40));
                passed += 1;
            }
        }
        // UTF-8 validation and conversion on long inputs with one error somewhere.
        let base = "Lorem ipsum é ü ж 日本語 한국어 😀 — ".repeat(40);
        for _ in 0..rounds * 10 {
            let mut bytes = base.as_bytes()[..rng.below(base.len())].to_vec();
            if !bytes.is_empty() && rng.below(2) == 0 {
                let at = rng.below(bytes.len());
                bytes[at] = [0x80, 0xC0, 0xED, 0xF5, 0xFF, b'a'][rng.below(6)];
            }
            let expect = std::str::from_utf8(&bytes).map_or_else(|e| e.valid_up_to(), |_| bytes.len());
            assert_eq!(
                Encoding::utf8_valid_up_to(&bytes),
                expect,
                "{level} utf8_valid_up_to"
            );
            let (text, _) = simdenc::UTF_8.decode_without_bom_handling(&bytes);
            assert_eq!(text, String::from_utf8_lossy(&bytes), "{level} UTF-8 decode");
            let units: Vec<u16> = text.encode_utf16().collect();
            let mut out = vec![0u8; units.len() * 3];
            let (_, read, written, _) = simdenc::UTF_8
                .new_encoder()
                .encode_from_utf16(&units, &mut out, true);
            assert_eq!(
                (read, &out[..written]),
                (units.len(), text.as_bytes()),
                "{level} UTF-16 to UTF-8"
            );
            passed += 1;
        }
        passed += long_cjk_text(&mut rng, rounds);
        passed += check_transcoders(level, &mut rng, quick);
        passed += simdenc::internals::check_vector_operations(level, if quick { 200 } else { 2000 })
            .unwrap_or_else(|e| panic!("{level} vector operations: {e}"));
        println!("level {level}: ok");
    }
    passed += kernels::every_kernel_equals_scalar(quick);
    passed += run_sweeps();
    cpu::force(cpu::detected()).expect("detected level");
    println!(
        "levels: {}",
        levels.iter().map(|l| l.name()).collect::<Vec<_>>().join(", ")
    );
    println!("{passed} passed, 0 failed");
}

/// The kernel sweeps (`levels/sweeps.rs`), each at every level; says which levels this CPU
/// lacks, whose kernels are not checked here. `SIMDENC_SWEEPS=a,b` runs only the sweeps
/// whose names contain `a` or `b`.
fn run_sweeps() -> usize {
    let this_arch = |l: Level| match l {
        Level::Sse2 | Level::Avx2 | Level::Avx512 => cfg!(target_arch = "x86_64"),
        Level::Neon => cfg!(target_arch = "aarch64"),
        _ => false,
    };
    let missing: Vec<&str> = Level::ALL
        .into_iter()
        .filter(|&l| !l.is_supported() && this_arch(l))
        .map(|l| l.name())
        .collect();
    if !missing.is_empty() {
        println!(
            "kernel sweeps SKIPPED at {} (not supported by this CPU)",
            missing.join(", ")
        );
    }
    let only = std::env::var("SIMDENC_SWEEPS").ok();
    let mut ran = 0;
    for &(name, sweep) in sweeps::SWEEPS {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|p| name.contains(p)))
        {
            continue;
        }
        let start = std::time::Instant::now();
        sweep();
        println!("sweep {name}: ok ({:.1} s)", start.elapsed().as_secs_f64());
        ran += 1;
    }
    ran
}

/// Encoded text with errors sprinkled in, padded with ASCII (0..64 bytes each side).
fn generated(rng: &mut Rng, enc: &'static Encoding) -> Vec<u8> {
    let len = rng.below(40);
    let text: String = (0..len)
        .map(|_| match rng.below(4) {
            0 => char::from(b'a' + rng.below(26) as u8),
            1 => char::from_u32(0x80 + rng.below(0x780) as u32).unwrap(),
            2 => char::from_u32(0x4E00 + rng.below(0x5200) as u32).unwrap(),
            _ => char::from_u32(0xAC00 + rng.below(0x2BA4) as u32).unwrap(),
        })
        .collect();
    let mut bytes = spec::run_encoder(enc.output_encoding(), &text, spec::ErrorMode::Html).output;
    for _ in 0..rng.below(3) {
        let at = rng.below(bytes.len() + 1);
        bytes.insert(at, rng.next() as u8);
    }
    let mut out = vec![b' '; rng.below(65)];
    out.extend_from_slice(&bytes);
    out.extend(std::iter::repeat_n(b'.', rng.below(65)));
    out
}

/// The CJK decoders on long text (the vector kernels take it 64 bytes at a time), with a
/// few bytes the kernels must stop at inserted, in random chunks and small outputs; the
/// encoders on it too (ISO-2022-JP's stages grow from 64 units to 1024 over it), with
/// characters they map, decline or cannot encode inserted.
fn long_cjk_text(rng: &mut Rng, rounds: usize) -> usize {
    let text = "火星は、太陽系の太陽に近い方から4番目の惑星である。地球型惑星に分類され、\
                Mars 화성은 태양계의 네 번째 행성이다. 火星是太陽系由內往外數的第四顆行星，\
                〜 ℃ 123 abc\n<p class=\"mw-content-ltr mw-parser-output\" style=\"margin-left: 1.6em\">\
                </p><a href=\"https://example.org/wiki/Mars\" title=\"Mars\">Mars</a>\n"
        .repeat(12);
    let specials: &[&[u8]] = &[
        b"\x80",
        b"\xA1",
        b"\xFF",
        b"\x8E\xA1",
        b"\x8F\xA2\xAF",
        b"\x81\x30",
        b"\x81",
    ];
    let mut checked = 0;
    for enc in [
        simdenc::SHIFT_JIS,
        simdenc::EUC_JP,
        simdenc::EUC_KR,
        simdenc::GBK,
        simdenc::GB18030,
        simdenc::BIG5,
        simdenc::ISO_2022_JP,
    ] {
        let encoded = spec::run_encoder(enc, &text, spec::ErrorMode::Html).output;
        for _ in 0..rounds / 4 + 1 {
            let mut bytes = encoded.clone();
            for _ in 0..rng.below(4) {
                let at = rng.below(bytes.len() + 1);
                let special = specials[rng.below(specials.len())];
                bytes.splice(at..at, special.iter().copied());
            }
            let splits = random_splits(rng, bytes.len());
            check_decode(enc, &bytes, &splits, 4 + rng.below(300));
            check_decode(enc, &bytes, &[], bytes.len() * 3 + 8);
            checked += 1;
        }
        // Encoding: long text with characters the encoder maps, declines or cannot encode.
        for _ in 0..rounds / 8 + 1 {
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..rng.below(4) {
                let at = rng.below(chars.len() + 1);
                let special = ['¥', '‾', '−', 'ｱ', '€', '\u{E5E5}', 'é', '😀', '\u{0}'][rng.below(9)];
                chars.insert(at, special);
            }
            let input: String = chars.into_iter().collect();
            let n = input.chars().count();
            check_encode(enc, &input, &random_splits(rng, n), 16 + rng.below(300));
            check_encode(enc, &input, &[], input.len() * 4 + 16);
            checked += 1;
        }
    }
    // The single-byte encoders on long text of their own characters.
    for &enc in Encoding::all() {
        if !enc.is_single_byte() {
            continue;
        }
        let own: String = (0x80..=0xFFu8)
            .filter_map(|b| {
                spec::run_decoder(enc, &[b], spec::ErrorMode::Fatal)
                    .output
                    .chars()
                    .next()
            })
            .collect();
        let mut text: String = own
            .chars()
            .cycle()
            .take(600)
            .collect::<String>()
            .replace('\u{FFFD}', "");
        for _ in 0..rng.below(3) {
            let at = text.char_indices().nth(rng.below(500)).map_or(0, |(i, _)| i);
            text.insert(at, ['€', '日', '😀', 'é', '\u{0}'][rng.below(5)]);
        }
        let n = text.chars().count();
        check_encode(enc, &text, &random_splits(rng, n), 16 + rng.below(300));
        check_encode(enc, &text, &[], text.len() * 4 + 16);
        checked += 1;
    }
    checked
}
/// The UTF-8 <-> UTF-16 kernels of `level` against the scalar kernels, exactly (`(read,
/// written)` and the whole output buffer): texts of several scripts with an error inserted
/// at random places, at two alignments, with output buffers of many sizes. Returns the
/// number of inputs checked.
fn check_transcoders(level: Level, rng: &mut Rng, quick: bool) -> usize {
    use simdenc::internals::KernelTable;
    let (Some(k), Some(s)) = (
        KernelTable::for_level(level),
        KernelTable::for_level(Level::Scalar),
    ) else {
        return 0;
    };
    let scripts = [
        "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva. ",
        "Съешь же ещё этих мягких французских булок. ",
        "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. עטלף אבק נס דרך. نص حكيم له سر. ",
        "日本語の文章と中文的句子，한국어 문장도。",
        "😀😃😄 ok 👍🏽 aé日😀bщ ",
    ];
    let mut checked = 0;
    for _ in 0..if quick { 300 } else { 600 } {
        let script = scripts[rng.below(scripts.len())];
        let len = rng.below(400);
        let text: String = script.chars().cycle().take(len).collect();
        let mut bytes = text.as_bytes().to_vec();
        let mut units: Vec<u16> = text.encode_utf16().collect();
        if rng.below(2) == 0 {
            let at = rng.below(bytes.len() + 1);
            bytes.insert(at, [0x80, 0xC3, 0xE6, 0xF0, 0xFF][rng.below(5)]);
            let at = rng.below(units.len() + 1);
            units.insert(at, [0xD800, 0xDBFF, 0xDC00, 0xDFFF][rng.below(4)]);
        }
        let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
        for offset in 0..2 {
            let (bytes, units) = (
                &bytes[offset.min(bytes.len())..],
                &units[offset.min(units.len())..],
            );
            let (le, be) = (
                &le[(2 * offset).min(le.len())..],
                &be[(2 * offset).min(be.len())..],
            );
            let full = 3 * units.len().max(bytes.len()) + 8;
            for cap in [full, rng.below(full), rng.below(70), bytes.len() / 2] {
                let (mut a, mut b) = (vec![0xA5A5u16; cap], vec![0xA5A5u16; cap]);
                assert_eq!(
                    (k.utf8_to_utf16(bytes, &mut a), &a),
                    (s.utf8_to_utf16(bytes, &mut b), &b),
                    "{level} utf8_to_utf16 cap {cap} {bytes:02X?}"
                );
                let (mut a, mut b) = (vec![0xA5u8; cap], vec![0xA5u8; cap]);
                assert_eq!(
                    (k.utf16_to_utf8(units, &mut a), &a),
                    (s.utf16_to_utf8(units, &mut b), &b),
                    "{level} utf16_to_utf8 cap {cap} {units:04X?}"
                );
                for (src, is_be) in [(le, false), (be, true)] {
                    assert_eq!(
                        (k.utf16_bytes_to_utf8(src, is_be, &mut a), &a),
                        (s.utf16_bytes_to_utf8(src, is_be, &mut b), &b),
                        "{level} utf16_bytes_to_utf8 be={is_be} cap {cap} {units:04X?}"
                    );
                }
            }
            checked += 1;
        }
    }
    checked
}
