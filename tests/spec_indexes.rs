//! `simdenc::spec` against the standard's data, exhaustively: every index entry as parsed,
//! every byte of every single-byte encoding, every entry of every multi-byte index through its
//! decoders, and every scalar value through every encoder and back.
//!
//! Expected values come from an independent reading of the files (`spec_common`) and the
//! standard's formulas, never from `spec` itself.

mod spec_common;

use std::collections::{BTreeSet, HashSet};

use simdenc::spec::index::{self, IndexName};
use simdenc::spec::{
    Encoder, ErrorMode, GB18030_ENCODER_TABLE, HandlerResult, IoQueue, Item, run_decoder, run_encoder,
};
use simdenc::{BIG5, EUC_JP, EUC_KR, Encoding, GB18030, GBK, ISO_2022_JP, SHIFT_JIS, UTF_8, X_USER_DEFINED};
use spec_common::{
    big5_bytes, euc_jp_bytes, euc_kr_bytes, gb18030_two_bytes, iso_2022_jp_bytes, read_index,
    shift_jis_bytes, single_byte_index_name,
};

fn single_byte_encodings() -> impl Iterator<Item = &'static Encoding> {
    Encoding::all()
        .iter()
        .copied()
        .filter(|&e| index::is_single_byte_encoding(e))
}

/// Decodes `bytes` in fatal mode and requires exactly `expected`.
fn assert_decodes(encoding: &'static Encoding, bytes: &[u8], expected: &str) {
    let run = run_decoder(encoding, bytes, ErrorMode::Fatal);
    assert_eq!(
        (run.output.as_str(), run.error),
        (expected, None),
        "{encoding:?} {bytes:02X?}"
    );
}

#[test]
fn index_entries_match_an_independent_reading_of_the_files() {
    let named = [
        (IndexName::Big5, "big5"),
        (IndexName::EucKr, "euc-kr"),
        (IndexName::Gb18030, "gb18030"),
        (IndexName::Gb18030Ranges, "gb18030-ranges"),
        (IndexName::Jis0208, "jis0208"),
        (IndexName::Jis0212, "jis0212"),
        (IndexName::Iso2022JpKatakana, "iso-2022-jp-katakana"),
    ];
    for (name, file) in named {
        assert_eq!(index::entries(name), read_index(file), "{file}");
    }
    let mut count = 0;
    for encoding in single_byte_encodings() {
        let file = single_byte_index_name(encoding.name());
        assert_eq!(
            index::entries(IndexName::SingleByte(encoding)),
            read_index(&file),
            "{file}"
        );
        count += 1;
    }
    assert_eq!(count, 28);
}

#[test]
fn index_code_point_and_index_pointer_follow_the_definitions() {
    for name in [
        IndexName::Big5,
        IndexName::EucKr,
        IndexName::Gb18030,
        IndexName::Jis0208,
        IndexName::Jis0212,
        IndexName::Iso2022JpKatakana,
    ] {
        let entries = index::entries(name);
        let mut first_seen = HashSet::new();
        let pointers: HashSet<u32> = entries.iter().map(|&(p, _)| p).collect();
        for &(pointer, code_point) in entries {
            assert_eq!(index::index_code_point(pointer, name), Some(code_point));
            // "the first pointer corresponding to codePoint"
            if first_seen.insert(code_point) {
                assert_eq!(index::index_pointer(code_point, name), Some(pointer));
            } else {
                assert!(index::index_pointer(code_point, name).unwrap() < pointer);
            }
        }
        let max = entries.iter().map(|&(p, _)| p).max().unwrap();
        for pointer in 0..=max + 1 {
            if !pointers.contains(&pointer) {
                assert_eq!(index::index_code_point(pointer, name), None);
            }
        }
        assert_eq!(index::index_pointer('\u{10FFFF}', name), None);
    }
}

#[test]
fn single_byte_decoders_and_encoders_match_their_index_files() {
    for encoding in single_byte_encodings() {
        let entries = read_index(&single_byte_index_name(encoding.name()));
        for byte in 0..=0xFFu8 {
            let mapped = entries
                .iter()
                .find(|&&(p, _)| byte >= 0x80 && p == u32::from(byte) - 0x80);
            let run = run_decoder(encoding, &[byte], ErrorMode::Fatal);
            let replaced = run_decoder(encoding, &[byte], ErrorMode::Replacement).output;
            if byte < 0x80 {
                assert_eq!((run.output, run.error), (char::from(byte).to_string(), None));
                let run = run_encoder(encoding, &char::from(byte).to_string(), ErrorMode::Fatal);
                assert_eq!((run.output, run.error), (vec![byte], None));
            } else if let Some(&(_, code_point)) = mapped {
                assert_eq!((run.output, run.error), (code_point.to_string(), None));
                assert_eq!(replaced, code_point.to_string());
                let run = run_encoder(encoding, &code_point.to_string(), ErrorMode::Fatal);
                assert_eq!((run.output, run.error), (vec![byte], None), "{encoding:?}");
            } else {
                assert_eq!((run.output.as_str(), run.error), ("", Some(1)), "{encoding:?}");
                assert_eq!(replaced, "\u{FFFD}");
            }
        }
    }
}

#[test]
fn every_multi_byte_index_entry_decodes_from_its_pointer_bytes() {
    for (pointer, code_point) in read_index("jis0208") {
        let expected = code_point.to_string();
        // EUC-JP and ISO-2022-JP reach pointers below 94 × 94 only; Shift_JIS all of them.
        if pointer < 94 * 94 {
            assert_decodes(EUC_JP, &euc_jp_bytes(pointer), &expected);
            let [leading, trailing] = iso_2022_jp_bytes(pointer);
            let bytes = [0x1B, b'$', b'B', leading, trailing, 0x1B, b'(', b'B'];
            assert_decodes(ISO_2022_JP, &bytes, &expected);
        }
        assert_decodes(SHIFT_JIS, &shift_jis_bytes(pointer), &expected);
    }
    for (pointer, code_point) in read_index("jis0212") {
        let [leading, trailing] = euc_jp_bytes(pointer);
        assert_decodes(EUC_JP, &[0x8F, leading, trailing], &code_point.to_string());
    }
    for (pointer, code_point) in read_index("big5") {
        assert_decodes(BIG5, &big5_bytes(pointer), &code_point.to_string());
    }
    for (pointer, code_point) in read_index("euc-kr") {
        assert_decodes(EUC_KR, &euc_kr_bytes(pointer), &code_point.to_string());
    }
    for (pointer, code_point) in read_index("gb18030") {
        for encoding in [GB18030, GBK] {
            assert_decodes(encoding, &gb18030_two_bytes(pointer), &code_point.to_string());
        }
    }
}

/// The scalar values `encoding`'s encoder must accept, worked out from the encoder's steps and
/// the index files, and what each must decode back to where that is not itself.
fn expected_encodable(encoding: &'static Encoding) -> (BTreeSet<char>, Vec<(char, char)>) {
    let cps = |file: &str| -> BTreeSet<char> { read_index(file).into_iter().map(|e| e.1).collect() };
    let ascii = (0..0x80u8).map(char::from);
    let katakana = '\u{FF61}'..='\u{FF9F}';
    let mut set: BTreeSet<char> = ascii.clone().collect();
    let mut not_round_trip = Vec::new();
    match encoding.name() {
        "UTF-8" => return (('\0'..=char::MAX).collect(), not_round_trip),
        "gb18030" | "GBK" => {
            if encoding == GBK {
                set.insert('€');
                set.extend(cps("gb18030"));
            } else {
                set = ('\0'..=char::MAX).filter(|&c| c != '\u{E5E5}').collect();
            }
            for (code_point, bytes) in GB18030_ENCODER_TABLE {
                set.insert(code_point);
                let offset = if bytes[1] < 0x7F { 0x40 } else { 0x41 };
                let pointer = (u32::from(bytes[0]) - 0x81) * 190 + u32::from(bytes[1]) - offset;
                let decoded = read_index("gb18030")
                    .into_iter()
                    .find(|e| e.0 == pointer)
                    .unwrap();
                not_round_trip.push((code_point, decoded.1));
            }
        }
        "Big5" => set.extend(
            read_index("big5")
                .into_iter()
                .filter(|&(p, _)| p >= (0xA1 - 0x81) * 157)
                .map(|e| e.1),
        ),
        "EUC-KR" => set.extend(cps("euc-kr")),
        "EUC-JP" | "Shift_JIS" | "ISO-2022-JP" => {
            set.extend(cps("jis0208"));
            set.extend(katakana.clone());
            set.extend(['\u{A5}', '\u{203E}', '\u{2212}']);
            not_round_trip.push(('\u{2212}', '\u{FF0D}'));
            if encoding == ISO_2022_JP {
                set.retain(|c| !matches!(c, '\u{E}' | '\u{F}' | '\u{1B}'));
                let map = read_index("iso-2022-jp-katakana");
                for (c, (_, full)) in katakana.zip(map) {
                    not_round_trip.push((c, full));
                }
            } else {
                not_round_trip.extend([('\u{A5}', '\\'), ('\u{203E}', '~')]);
            }
            if encoding == SHIFT_JIS {
                set.insert('\u{80}');
            }
        }
        "x-user-defined" => set.extend('\u{F780}'..='\u{F7FF}'),
        name => set.extend(cps(&single_byte_index_name(name))),
    }
    (set, not_round_trip)
}

/// Runs every scalar value through `encoding`'s encoder, alone, and decodes what it gives.
///
/// Every encoder output for one scalar value is a complete sequence after which the decoder is
/// back in its initial state, so for speed the outputs are concatenated and decoded in one
/// run, except for ISO-2022-JP, whose concatenated outputs would not decode the same (the
/// standard's note), and which is decoded one output at a time.
fn sweep(encoding: &'static Encoding) {
    let (expected, not_round_trip) = expected_encodable(encoding);
    let mut encoder = Encoder::new(encoding).unwrap();
    let mut unused = IoQueue::from_items([]);
    let mut encodable = BTreeSet::new();
    let mut all_bytes = Vec::new();
    let mut all_back = String::new();
    for code_point in '\0'..=char::MAX {
        let back = not_round_trip
            .iter()
            .find(|&&(c, _)| c == code_point)
            .map_or(code_point, |&(_, back)| back);
        if encoding == ISO_2022_JP {
            // Its handler restores code points to the queue: run the whole queue.
            let run = run_encoder(encoding, &code_point.to_string(), ErrorMode::Fatal);
            if let Some(error) = run.error {
                let reported = if matches!(code_point, '\u{E}' | '\u{F}' | '\u{1B}') {
                    '\u{FFFD}'
                } else {
                    code_point
                };
                assert_eq!(error, (reported, 1));
                continue;
            }
            let decoded = run_decoder(encoding, &run.output, ErrorMode::Fatal);
            assert_eq!(
                (decoded.output, decoded.error),
                (back.to_string(), None),
                "{code_point:?} → {:02X?}",
                run.output
            );
        } else {
            match encoder.handler(&mut unused, Item::Value(code_point)) {
                HandlerResult::Items(bytes) => {
                    all_bytes.extend(bytes);
                    all_back.push(back);
                }
                HandlerResult::Error(reported) => {
                    assert_eq!(reported, Some(code_point));
                    continue;
                }
                other => panic!("{encoding:?} {code_point:?}: {other:?}"),
            }
        }
        encodable.insert(code_point);
    }
    assert!(unused.is_empty());
    let decoded = run_decoder(encoding, &all_bytes, ErrorMode::Fatal);
    assert_eq!(decoded.error, None, "{encoding:?}");
    if decoded.output != all_back {
        let (got, want) = decoded
            .output
            .chars()
            .zip(all_back.chars())
            .find(|(got, want)| got != want)
            .unwrap_or_default();
        panic!("{encoding:?}: decoded {got:?} where {want:?} was expected");
    }
    let missing: Vec<_> = expected.difference(&encodable).take(5).collect();
    let extra: Vec<_> = encodable.difference(&expected).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{encoding:?}: missing {missing:?}, extra {extra:?}"
    );
}

#[test]
fn every_scalar_value_through_every_encoder() {
    let encodings: Vec<&'static Encoding> = Encoding::all()
        .iter()
        .copied()
        .filter(|&e| Encoder::new(e).is_some())
        .collect();
    assert_eq!(encodings.len(), 37);
    assert!(encodings.contains(&UTF_8) && encodings.contains(&X_USER_DEFINED));
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&encoding) = encodings.get(i) else {
                        break;
                    };
                    sweep(encoding);
                }
            });
        }
    });
}
