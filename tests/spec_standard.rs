//! `simdenc::spec` against the text of the Encoding Standard: every example and note, the
//! tables written into the algorithms, the edges of the indexes, every label, every error
//! mode, and every hook. Expected values are worked out here from the standard's formulas and
//! from an independent reading of the vendored data files, never from `spec` itself.
//!
//! The exhaustive checks (every index entry, every scalar value through every encoder) are in
//! `spec_indexes.rs`.

mod spec_common;

use simdenc::spec::index::{
    IndexName, index_code_point, index_gb18030_ranges_code_point, index_gb18030_ranges_pointer, index_pointer,
};
use simdenc::spec::{
    self, Decoder, Encoder, ErrorMode, GB18030_ENCODER_TABLE, IoQueue, Item, QueueResult, bom_sniff, decode,
    decode_bytes, encode, encode_or_fail, get_an_encoder, get_an_encoding, get_an_output_encoding,
    process_queue, run_decoder, run_encoder, utf8_decode, utf8_decode_without_bom,
    utf8_decode_without_bom_or_fail, utf8_encode,
};
use simdenc::{
    BIG5, EUC_JP, EUC_KR, Encoding, GB18030, GBK, ISO_2022_JP, REPLACEMENT, SHIFT_JIS, UTF_8, UTF_16BE,
    UTF_16LE, WINDOWS_1252, X_USER_DEFINED,
};
use spec_common::{big5_bytes, gb18030_four_bytes, gb18030_two_bytes, read_index, shift_jis_bytes};

/// Decodes in replacement mode, no BOM handling.
fn replaced(encoding: &'static Encoding, bytes: &[u8]) -> String {
    run_decoder(encoding, bytes, ErrorMode::Replacement).output
}

/// Encodes in fatal mode: the bytes, or the code point of the error.
fn encoded(encoding: &'static Encoding, input: &str) -> Result<Vec<u8>, char> {
    let run = run_encoder(encoding, input, ErrorMode::Fatal);
    match run.error {
        None => Ok(run.output),
        Some((code_point, _)) => Err(code_point),
    }
}

const FFFD: char = '\u{FFFD}';

// ---------------------------------------------------------------------------------------------
// Security background, examples and notes.

#[test]
fn shift_jis_leading_byte_does_not_mask_a_quotation_mark() {
    // "For the aforementioned sequence the output would be U+FFFD U+0022."
    assert_eq!(replaced(SHIFT_JIS, b"\x82\x22"), "\u{FFFD}\"");
    assert_eq!(
        replaced(SHIFT_JIS, b"{\"a\":\"\x82\",\"b\":1}"),
        "{\"a\":\"\u{FFFD}\",\"b\":1}"
    );
    // Fatal: the error is returned with the 0x22 restored to the queue, one byte in.
    let run = run_decoder(SHIFT_JIS, b"\x82\x22", ErrorMode::Fatal);
    assert_eq!((run.output.as_str(), run.error), ("", Some(1)));
    // The same rule in every other multi-byte decoder.
    for (encoding, leading) in [(EUC_JP, 0xA4), (EUC_KR, 0xB0), (BIG5, 0xA4), (GBK, 0xB0)] {
        assert_eq!(replaced(encoding, &[leading, 0x22]), "\u{FFFD}\"", "{encoding:?}");
    }
}

#[test]
fn gb18030_masks_at_most_one_byte_at_end_of_queue() {
    // "the gb18030 decoder will "mask" up to one such byte at end-of-queue"
    assert_eq!(replaced(GB18030, b"\x81\x30"), "\u{FFFD}");
    assert_eq!(replaced(GB18030, b"\x81\x30\x81"), "\u{FFFD}");
    // Not at end-of-queue, the bytes after the first are restored (step 3.1.1 and 4.2).
    assert_eq!(replaced(GB18030, b"\x81\x30a"), "\u{FFFD}0a");
    let after = index_code_point(
        /* (0x81 − 0x81) × 190 + */ 0x61 - 0x40,
        IndexName::Gb18030,
    )
    .unwrap();
    assert_eq!(replaced(GB18030, b"\x81\x30\x81a"), format!("\u{FFFD}0{after}"));
    // Fatal positions: the head of the queue after the restores.
    assert_eq!(
        run_decoder(GB18030, b"\x81\x30a", ErrorMode::Fatal).error,
        Some(1)
    );
    assert_eq!(
        run_decoder(GB18030, b"\x81\x30\x81a", ErrorMode::Fatal).error,
        Some(1)
    );
    assert_eq!(
        run_decoder(GB18030, b"\x81\x30\x81", ErrorMode::Fatal).error,
        Some(3)
    );
}

#[test]
fn gb18030_two_byte_errors_restore_only_an_ascii_trailing_byte() {
    // 0x7F is ASCII and not a trailing byte: restored. 0xFF is neither: consumed.
    assert_eq!(replaced(GB18030, b"\x81\x7F"), "\u{FFFD}\u{7F}");
    assert_eq!(replaced(GB18030, b"\x81\xFFa"), "\u{FFFD}a");
    assert_eq!(
        run_decoder(GB18030, b"\x81\xFFa", ErrorMode::Fatal).error,
        Some(2)
    );
    assert_eq!(replaced(GB18030, b"\xFF\x80"), "\u{FFFD}\u{20AC}");
}

#[test]
fn iso_2022_jp_yen_sign_concatenation_note() {
    // "Encoding U+00A5 (¥) gives 0x1B 0x28 0x4A 0x5C 0x1B 0x28 0x42. Doing that twice,
    // concatenating the results, and then decoding yields U+00A5 U+FFFD U+00A5."
    let once = encoded(ISO_2022_JP, "¥").unwrap();
    assert_eq!(once, [0x1B, 0x28, 0x4A, 0x5C, 0x1B, 0x28, 0x42]);
    let twice = [once.clone(), once].concat();
    assert_eq!(replaced(ISO_2022_JP, &twice), "¥\u{FFFD}¥");
}

#[test]
fn io_queue_restore_example() {
    // "Inserting the bytes « 0xF0, 0x9F » in an I/O queue « 0x92 0xA9, end-of-queue », results
    // in an I/O queue « 0xF0, 0x9F, 0x92 0xA9, end-of-queue ». The next item to be read would
    // be 0xF0."
    let mut queue = IoQueue::from_items([0x92u8, 0xA9]);
    queue.restore_list(&[0xF0, 0x9F]);
    assert_eq!(queue.read(), Some(Item::Value(0xF0)));
    assert_eq!(queue.to_vec(), [0x9F, 0x92, 0xA9]);
    assert_eq!(queue.read(), Some(Item::EndOfQueue));
}

// ---------------------------------------------------------------------------------------------
// Big5.

#[test]
fn big5_pointers_with_two_code_points() {
    let rows = [
        (1133, [0x88, 0x62], ['\u{00CA}', '\u{0304}']),
        (1135, [0x88, 0x64], ['\u{00CA}', '\u{030C}']),
        (1164, [0x88, 0xA3], ['\u{00EA}', '\u{0304}']),
        (1166, [0x88, 0xA5], ['\u{00EA}', '\u{030C}']),
    ];
    for (pointer, bytes, code_points) in rows {
        assert_eq!(big5_bytes(pointer), bytes);
        let expected: String = code_points.iter().collect();
        let run = run_decoder(BIG5, &bytes, ErrorMode::Fatal);
        assert_eq!((run.output, run.error), (expected, None), "pointer {pointer}");
        // These pointers are not in index Big5: only the table gives them meaning.
        assert_eq!(index_code_point(pointer, IndexName::Big5), None);
    }
    // Nor do they round-trip: Ê (U+00CA) is only at Hong Kong pointers, so unencodable.
    assert_eq!(encoded(BIG5, "\u{CA}\u{304}"), Err('\u{CA}'));
}

#[test]
fn big5_encoder_uses_the_last_pointer_for_six_code_points() {
    let entries = read_index("big5");
    for code_point in [
        '\u{2550}', '\u{255E}', '\u{2561}', '\u{256A}', '\u{5341}', '\u{5345}',
    ] {
        let pointers: Vec<u32> = entries
            .iter()
            .filter(|&&(pointer, c)| c == code_point && pointer >= (0xA1 - 0x81) * 157)
            .map(|&(pointer, _)| pointer)
            .collect();
        assert!(pointers.len() >= 2, "{code_point:?} has duplicates");
        let last = *pointers.last().unwrap();
        assert_eq!(encoded(BIG5, &code_point.to_string()).unwrap(), big5_bytes(last));
        assert_ne!(big5_bytes(last), big5_bytes(pointers[0]));
    }
    // Every other duplicate (among pointers ≥ 5024) is encoded with its first pointer.
    let mut seen = std::collections::HashMap::new();
    let mut checked = 0;
    for &(pointer, code_point) in entries.iter().filter(|&&(p, _)| p >= 5024) {
        if let Some(&first) = seen.get(&code_point) {
            if !"\u{2550}\u{255E}\u{2561}\u{256A}\u{5341}\u{5345}".contains(code_point) {
                let bytes = encoded(BIG5, &code_point.to_string()).unwrap();
                assert_eq!(
                    bytes,
                    big5_bytes(first),
                    "{code_point:?} at {first} and {pointer}"
                );
                checked += 1;
            }
        } else {
            seen.insert(code_point, pointer);
        }
    }
    assert!(checked > 0);
}

#[test]
fn big5_encoder_excludes_hong_kong_extensions() {
    let entries = read_index("big5");
    let encodable: std::collections::HashSet<char> = entries
        .iter()
        .filter(|&&(pointer, _)| pointer >= (0xA1 - 0x81) * 157)
        .map(|&(_, c)| c)
        .collect();
    let mut hkscs_only = 0;
    for &(pointer, code_point) in &entries {
        if pointer < (0xA1 - 0x81) * 157 && !encodable.contains(&code_point) {
            hkscs_only += 1;
            // Decodable from its pointer, yet unencodable.
            assert_eq!(replaced(BIG5, &big5_bytes(pointer)), code_point.to_string());
            assert_eq!(encoded(BIG5, &code_point.to_string()), Err(code_point));
        }
    }
    assert!(hkscs_only > 3000, "{hkscs_only}");
}

// ---------------------------------------------------------------------------------------------
// Japanese.

#[test]
fn shift_jis_encoder_skips_pointers_8272_to_8835() {
    let entries = read_index("jis0208");
    let mut checked = 0;
    for &(pointer, code_point) in &entries {
        let first = entries.iter().find(|&&(_, c)| c == code_point).unwrap().0;
        if pointer != first || !(8272..=8835).contains(&pointer) {
            continue;
        }
        let later = entries
            .iter()
            .find(|&&(p, c)| c == code_point && !(8272..=8835).contains(&p))
            .expect("every code point there has a later pointer")
            .0;
        let input = code_point.to_string();
        assert_eq!(
            encoded(SHIFT_JIS, &input).unwrap(),
            shift_jis_bytes(later),
            "{code_point:?}"
        );
        // EUC-JP uses the plain index pointer, the first one.
        let euc_jp = [(pointer / 94 + 0xA1) as u8, (pointer % 94 + 0xA1) as u8];
        assert_eq!(encoded(EUC_JP, &input).unwrap(), euc_jp, "{code_point:?}");
        checked += 1;
    }
    assert_eq!(checked, 373);
    // U+7E8A: first at 8272, then at 10744 = 57 × 188 + 28, so 0xC1 + 57, 0x40 + 28.
    assert_eq!(shift_jis_bytes(10744), [0xFA, 0x5C]);
    assert_eq!(encoded(SHIFT_JIS, "\u{7E8A}").unwrap(), [0xFA, 0x5C]);
    assert_eq!(replaced(SHIFT_JIS, &shift_jis_bytes(8272)), "\u{7E8A}");
}

#[test]
fn shift_jis_eudc_pointers_decode_to_private_use() {
    assert_eq!(shift_jis_bytes(8836), [0xF0, 0x40]);
    assert_eq!(shift_jis_bytes(10715), [0xF9, 0xFC]);
    for pointer in 8836..=10715 {
        let expected = char::from_u32(0xE000 - 8836 + pointer).unwrap();
        let run = run_decoder(SHIFT_JIS, &shift_jis_bytes(pointer), ErrorMode::Fatal);
        assert_eq!((run.output, run.error), (expected.to_string(), None));
        // Decoder only: the encoder has no such rule.
        assert_eq!(encoded(SHIFT_JIS, &expected.to_string()), Err(expected));
    }
    assert_eq!(replaced(SHIFT_JIS, b"\xF0\x40\xF9\xFC"), "\u{E000}\u{E757}");
}

#[test]
fn shift_jis_single_bytes() {
    let all: Vec<u8> = (0..=0xFF).collect();
    for &byte in &all {
        let got = run_decoder(SHIFT_JIS, &[byte], ErrorMode::Fatal);
        match byte {
            0x00..=0x80 => assert_eq!(got.output, char::from(byte).to_string()),
            0xA1..=0xDF => {
                let expected = char::from_u32(0xFF61 - 0xA1 + u32::from(byte)).unwrap();
                assert_eq!(got.output, expected.to_string());
                assert_eq!(encoded(SHIFT_JIS, &expected.to_string()).unwrap(), [byte]);
            }
            // A leading byte alone is an error at end-of-queue; 0xA0 and 0xFD to 0xFF are
            // errors outright. Either way one byte was taken.
            _ => assert_eq!((got.output.as_str(), got.error), ("", Some(1)), "{byte:#X}"),
        }
    }
    assert_eq!(encoded(SHIFT_JIS, "\u{80}¥‾").unwrap(), [0x80, 0x5C, 0x7E]);
    let minus = shift_jis_bytes(index_pointer('\u{FF0D}', IndexName::Jis0208).unwrap());
    assert_eq!(encoded(SHIFT_JIS, "\u{2212}").unwrap(), minus);
}

#[test]
fn euc_jp_decodes_jis0212_but_never_encodes_it() {
    let jis0208 = read_index("jis0208");
    let jis0212 = read_index("jis0212");
    let in_jis0208: std::collections::HashSet<char> = jis0208.iter().map(|&(_, c)| c).collect();
    let mut only_jis0212 = 0;
    for &(pointer, code_point) in &jis0212 {
        let bytes = [0x8F, (pointer / 94 + 0xA1) as u8, (pointer % 94 + 0xA1) as u8];
        let run = run_decoder(EUC_JP, &bytes, ErrorMode::Fatal);
        assert_eq!(
            (run.output, run.error),
            (code_point.to_string(), None),
            "{pointer}"
        );
        let special = matches!(
            code_point,
            '\u{A5}' | '\u{203E}' | '\u{2212}' | '\u{FF61}'..='\u{FF9F}'
        );
        if !in_jis0208.contains(&code_point) && !special {
            only_jis0212 += 1;
            assert_eq!(encoded(EUC_JP, &code_point.to_string()), Err(code_point));
            assert_eq!(encoded(ISO_2022_JP, &code_point.to_string()), Err(code_point));
            assert_eq!(encoded(SHIFT_JIS, &code_point.to_string()), Err(code_point));
        }
    }
    assert_eq!(only_jis0212, 5786);
    // 0x8E: halfwidth katakana; 0x8F with a bad byte; 0x8E with a bad ASCII byte restored.
    assert_eq!(replaced(EUC_JP, b"\x8E\xA1\x8E\xDF"), "\u{FF61}\u{FF9F}");
    assert_eq!(encoded(EUC_JP, "\u{FF61}¥‾").unwrap(), [0x8E, 0xA1, 0x5C, 0x7E]);
    assert_eq!(replaced(EUC_JP, b"\x8E\xE0"), "\u{FFFD}");
    assert_eq!(replaced(EUC_JP, b"\x8EA"), "\u{FFFD}A");
    assert_eq!(replaced(EUC_JP, b"\x8F\xA1A"), "\u{FFFD}A");
    assert_eq!(replaced(EUC_JP, b"\x8F"), "\u{FFFD}");
    // EUC-JP jis0212 is set back to false after each use (step 5.5), success or error.
    assert_eq!(replaced(EUC_JP, b"\x8F\xA2\xAF\xA4\xA2"), "\u{2D8}あ");
    assert_eq!(replaced(EUC_JP, b"\x8F\xA1A\xA4\xA2"), "\u{FFFD}Aあ");
    let minus = index_pointer('\u{FF0D}', IndexName::Jis0208).unwrap();
    let minus = [(minus / 94 + 0xA1) as u8, (minus % 94 + 0xA1) as u8];
    assert_eq!(encoded(EUC_JP, "\u{2212}").unwrap(), minus);
}

#[test]
fn iso_2022_jp_decoder_escapes_and_output_flag() {
    let jp = |bytes: &[u8]| replaced(ISO_2022_JP, bytes);
    assert_eq!(jp(b"\x1B$B\x24\x22\x1B(Ba"), "あa");
    assert_eq!(jp(b"\x1B$@\x24\x22"), "あ");
    assert_eq!(jp(b"\x1B(J\x5C\x7E"), "¥‾");
    assert_eq!(jp(b"\x1B(I\x21\x5F"), "\u{FF61}\u{FF9F}");
    // An escape sequence right after another one is an error (ISO-2022-JP output is true).
    assert_eq!(jp(b"\x1B(J\x1B(Ba"), "\u{FFFD}a");
    assert_eq!(jp(b"\x1B(Ba"), "a");
    // Unknown or truncated escapes restore what followed the ESC.
    assert_eq!(jp(b"\x1B$A"), "\u{FFFD}$A");
    assert_eq!(jp(b"\x1B$"), "\u{FFFD}$");
    assert_eq!(jp(b"\x1B"), "\u{FFFD}");
    assert_eq!(jp(b"\x1Bx"), "\u{FFFD}x");
    // Shift out / shift in are errors, as are bytes ≥ 0x80.
    assert_eq!(jp(b"\x0E\x0F\x80"), "\u{FFFD}\u{FFFD}\u{FFFD}");
    // A trailing byte state ended by ESC: error, then the escape sequence still works.
    assert_eq!(jp(b"\x1B$B\x24\x1B(Ba"), "\u{FFFD}a");
    assert_eq!(jp(b"\x1B$B\x24"), "\u{FFFD}");
    assert_eq!(jp(b"\x1B$B\x24\x0A"), "\u{FFFD}");
    // An unknown escape returns to the output state, not to ASCII.
    assert_eq!(jp(b"\x1B(J\\\x1Bx\\"), "¥\u{FFFD}x¥");
}

#[test]
fn iso_2022_jp_encoder_states() {
    assert_eq!(encoded(ISO_2022_JP, "aあ").unwrap(), b"a\x1B$B\x24\x22\x1B(B");
    assert_eq!(
        encoded(ISO_2022_JP, "あ¥a").unwrap(),
        b"\x1B$B\x24\x22\x1B(J\x5Ca\x1B(B"
    );
    assert_eq!(encoded(ISO_2022_JP, "¥\\").unwrap(), b"\x1B(J\x5C\x1B(B\\");
    // Halfwidth katakana through index ISO-2022-JP katakana; U+2212 as U+FF0D.
    let katakana = index_code_point(0, IndexName::Iso2022JpKatakana).unwrap();
    assert_eq!(katakana, '\u{3002}');
    assert_eq!(encoded(ISO_2022_JP, "\u{FF61}"), encoded(ISO_2022_JP, "\u{3002}"));
    assert_eq!(encoded(ISO_2022_JP, "\u{2212}"), encoded(ISO_2022_JP, "\u{FF0D}"));
    // An unencodable code point in jis0208 state: back to ASCII first, then the error.
    let run = run_encoder(ISO_2022_JP, "あ\u{E000}", ErrorMode::Fatal);
    assert_eq!(run.output, b"\x1B$B\x24\x22\x1B(B");
    assert_eq!(run.error, Some(('\u{E000}', 2)));
}

#[test]
fn iso_2022_jp_html_mode_for_shift_out_gives_a_fffd_reference() {
    let html = |input: &str| run_encoder(ISO_2022_JP, input, ErrorMode::Html).output;
    assert_eq!(html("\u{E}"), b"&#65533;");
    assert_eq!(html("\u{F}\u{1B}"), b"&#65533;&#65533;");
    assert_eq!(html("¥\u{E}"), b"\x1B(J\x5C&#65533;\x1B(B");
    assert_eq!(html("あ\u{E}"), b"\x1B$B\x24\x22\x1B(B&#65533;");
    assert_eq!(html("\u{E000}"), b"&#57344;");
    let fatal = run_encoder(ISO_2022_JP, "a\u{1B}", ErrorMode::Fatal);
    assert_eq!((fatal.output, fatal.error), (b"a".to_vec(), Some((FFFD, 2))));
}

// ---------------------------------------------------------------------------------------------
// Chinese (simplified).

#[test]
fn gb18030_2022_two_byte_changes_and_the_encoder_side_table() {
    // A6 D9 ↔ U+FE10; U+E78D → A6 D9 as well.
    assert_eq!(replaced(GB18030, b"\xA6\xD9"), "\u{FE10}");
    assert_eq!(encoded(GB18030, "\u{FE10}").unwrap(), [0xA6, 0xD9]);
    assert_eq!(encoded(GB18030, "\u{E78D}").unwrap(), [0xA6, 0xD9]);
    let rows: [(char, [u8; 2]); 18] = [
        ('\u{E78D}', [0xA6, 0xD9]),
        ('\u{E78E}', [0xA6, 0xDA]),
        ('\u{E78F}', [0xA6, 0xDB]),
        ('\u{E790}', [0xA6, 0xDC]),
        ('\u{E791}', [0xA6, 0xDD]),
        ('\u{E792}', [0xA6, 0xDE]),
        ('\u{E793}', [0xA6, 0xDF]),
        ('\u{E794}', [0xA6, 0xEC]),
        ('\u{E795}', [0xA6, 0xED]),
        ('\u{E796}', [0xA6, 0xF3]),
        ('\u{E81E}', [0xFE, 0x59]),
        ('\u{E826}', [0xFE, 0x61]),
        ('\u{E82B}', [0xFE, 0x66]),
        ('\u{E82C}', [0xFE, 0x67]),
        ('\u{E832}', [0xFE, 0x6D]),
        ('\u{E843}', [0xFE, 0x7E]),
        ('\u{E854}', [0xFE, 0x90]),
        ('\u{E864}', [0xFE, 0xA0]),
    ];
    assert_eq!(GB18030_ENCODER_TABLE, rows);
    let gb18030 = read_index("gb18030");
    for (code_point, bytes) in rows {
        for encoding in [GB18030, GBK] {
            assert_eq!(encoded(encoding, &code_point.to_string()).unwrap(), bytes);
        }
        // Asymmetric: the bytes decode to what index gb18030 says, not to the PUA code point.
        let offset = if bytes[1] < 0x7F { 0x40 } else { 0x41 };
        let pointer = (u32::from(bytes[0]) - 0x81) * 190 + u32::from(bytes[1]) - offset;
        let (_, decoded) = *gb18030.iter().find(|&&(p, _)| p == pointer).unwrap();
        assert_ne!(decoded, code_point);
        assert_eq!(replaced(GB18030, &bytes), decoded.to_string());
        assert!(!gb18030.iter().any(|&(_, c)| c == code_point));
    }
}

#[test]
fn gb18030_e5e5_is_an_encoder_error_and_a3_a0_is_ideographic_space() {
    for encoding in [GB18030, GBK] {
        assert_eq!(encoded(encoding, "\u{E5E5}"), Err('\u{E5E5}'));
        assert_eq!(
            run_encoder(encoding, "\u{E5E5}", ErrorMode::Html).output,
            b"&#58853;"
        );
        assert_eq!(replaced(encoding, b"\xA3\xA0"), "\u{3000}");
        // U+3000 is first at A1 A1.
        assert_eq!(encoded(encoding, "\u{3000}").unwrap(), [0xA1, 0xA1]);
    }
    assert_eq!(gb18030_two_bytes(6176), [0xA1, 0xA1]);
    assert_eq!(gb18030_two_bytes(6555), [0xA3, 0xA0]);
}

#[test]
fn gb18030_ranges_edges() {
    // Bytes worked out from the decoder's step 3.2 formula by hand, then checked against it.
    let edges: [(u32, Option<char>, [u8; 4]); 8] = [
        (0, Some('\u{80}'), [0x81, 0x30, 0x81, 0x30]),
        (7457, Some('\u{E7C7}'), [0x81, 0x35, 0xF4, 0x37]),
        (39419, Some('\u{FFFF}'), [0x84, 0x31, 0xA4, 0x39]),
        (39420, None, [0x84, 0x31, 0xA5, 0x30]),
        (188999, None, [0x8F, 0x39, 0xFE, 0x39]),
        (189000, Some('\u{10000}'), [0x90, 0x30, 0x81, 0x30]),
        (1237575, Some('\u{10FFFF}'), [0xE3, 0x32, 0x9A, 0x35]),
        (1237576, None, [0xE3, 0x32, 0x9A, 0x36]),
    ];
    for (pointer, code_point, bytes) in edges {
        assert_eq!(index_gb18030_ranges_code_point(pointer), code_point, "{pointer}");
        assert_eq!(gb18030_four_bytes(pointer), bytes, "{pointer}");
        let run = run_decoder(GB18030, &bytes, ErrorMode::Fatal);
        match code_point {
            Some(code_point) => {
                assert_eq!((run.output, run.error), (code_point.to_string(), None));
                assert_eq!(index_gb18030_ranges_pointer(code_point), pointer);
                assert_eq!(encoded(GB18030, &code_point.to_string()).unwrap(), bytes);
                assert_eq!(encoded(GBK, &code_point.to_string()), Err(code_point));
            }
            // All four bytes are taken: a null code point restores nothing.
            None => {
                assert_eq!((run.output.as_str(), run.error), ("", Some(4)));
                assert_eq!(replaced(GB18030, &bytes), "\u{FFFD}");
            }
        }
    }
    assert_eq!(replaced(GB18030, b"\xFE\x39\xFE\x39"), "\u{FFFD}");
    // 7457 without the special case would be U+1E3F, which is two bytes since GB18030-2005.
    assert_eq!(encoded(GB18030, "\u{1E3F}").unwrap(), [0xA8, 0xBC]);
}

#[test]
fn gbk_encoder_euro_and_no_four_byte_output() {
    assert_eq!(encoded(GBK, "€").unwrap(), [0x80]);
    let euro = gb18030_two_bytes(index_pointer('€', IndexName::Gb18030).unwrap());
    assert_eq!(euro, [0xA2, 0xE3]);
    assert_eq!(encoded(GB18030, "€").unwrap(), euro);
    for decoder in [GB18030, GBK] {
        assert_eq!(replaced(decoder, b"\x80\xA2\xE3"), "€€");
    }
    for code_point in ['\u{80}', '\u{E7C7}', '\u{FFFF}', '\u{10000}', '😀'] {
        assert_eq!(encoded(GBK, &code_point.to_string()), Err(code_point));
        assert_eq!(encoded(GB18030, &code_point.to_string()).map(|b| b.len()), Ok(4));
    }
}

// ---------------------------------------------------------------------------------------------
// UTF-8, UTF-16, x-user-defined, replacement.

#[test]
fn utf8_replacement_by_maximal_subpart() {
    let cases: [(&[u8], &str); 16] = [
        (b"\xF0\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xF0\x90\x80", "\u{FFFD}"),
        (b"\xED\xA0\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xC0\xAF", "\u{FFFD}\u{FFFD}"),
        (b"\xE0\x80\xAF", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xF4\x90\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xF5\x80", "\u{FFFD}\u{FFFD}"),
        (b"\xE3\x81", "\u{FFFD}"),
        (b"\xE3\x81a", "\u{FFFD}a"),
        (b"\xF0\x9F\x98", "\u{FFFD}"),
        (b"\xF0\x9F\x98\x80", "😀"),
        (b"\xC2", "\u{FFFD}"),
        (b"\x80\xBF", "\u{FFFD}\u{FFFD}"),
        (b"\xED\x9F\xBF\xEE\x80\x80", "\u{D7FF}\u{E000}"),
        (b"\xF4\x8F\xBF\xBF", "\u{10FFFF}"),
        (b"\xE0\xA0\x80\xC2\x80", "\u{800}\u{80}"),
    ];
    for (bytes, expected) in cases {
        assert_eq!(replaced(UTF_8, bytes), expected, "{bytes:02X?}");
    }
    // Fatal: the byte that ended the sequence is restored.
    assert_eq!(
        run_decoder(UTF_8, b"\xF0\x80\x80", ErrorMode::Fatal).error,
        Some(1)
    );
    assert_eq!(
        run_decoder(UTF_8, b"a\xF0\x90\x80", ErrorMode::Fatal).error,
        Some(4)
    );
    assert_eq!(run_decoder(UTF_8, b"a\xF0\x90\x80", ErrorMode::Fatal).output, "a");
}

#[test]
fn utf16_decoder_edge_cases_in_both_byte_orders() {
    // (big-endian code units, expected)
    let cases: [(&[u16], Option<u8>, &str); 7] = [
        (&[0x0041, 0xD83D, 0xDE00], None, "A😀"),
        (&[0xD83D], None, "\u{FFFD}"),
        (&[0xDE00, 0x0041], None, "\u{FFFD}A"),
        (&[0xD83D, 0x0041], None, "\u{FFFD}A"),
        (&[0xD83D, 0xD83D, 0xDE00], None, "\u{FFFD}😀"),
        (&[0x0041], Some(0x42), "A\u{FFFD}"),
        (&[0xD83D], Some(0x42), "\u{FFFD}"),
    ];
    for (units, odd, expected) in cases {
        let mut be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
        let mut le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        be.extend(odd);
        le.extend(odd);
        assert_eq!(replaced(UTF_16BE, &be), expected, "{units:04X?} BE");
        assert_eq!(replaced(UTF_16LE, &le), expected, "{units:04X?} LE");
    }
    // The restore after a leading surrogate puts the two bytes back: fatal stops before them.
    assert_eq!(
        run_decoder(UTF_16BE, b"\xD8\x3D\x00A", ErrorMode::Fatal).error,
        Some(2)
    );
    assert_eq!(
        run_decoder(UTF_16LE, b"\x3D\xD8A\x00", ErrorMode::Fatal).error,
        Some(2)
    );
    assert_eq!(replaced(UTF_16LE, b"\x3D\xD8\x3D\xD8\x00\xDE"), "\u{FFFD}😀");
    assert_eq!(replaced(UTF_16LE, b"a"), "\u{FFFD}");
    assert_eq!(replaced(UTF_16LE, b""), "");
}

#[test]
fn x_user_defined_maps_high_bytes_to_f780() {
    for byte in 0..=0xFFu8 {
        let expected = if byte < 0x80 {
            char::from(byte)
        } else {
            char::from_u32(0xF780 + u32::from(byte) - 0x80).unwrap()
        };
        assert_eq!(replaced(X_USER_DEFINED, &[byte]), expected.to_string());
        assert_eq!(encoded(X_USER_DEFINED, &expected.to_string()).unwrap(), [byte]);
    }
    assert_eq!(replaced(X_USER_DEFINED, b"\x80\xFF"), "\u{F780}\u{F7FF}");
    for code_point in ['\u{80}', '\u{F77F}', '\u{F800}', 'é'] {
        assert_eq!(encoded(X_USER_DEFINED, &code_point.to_string()), Err(code_point));
    }
}

#[test]
fn replacement_decoder_gives_one_fffd_for_non_empty_input() {
    assert_eq!(replaced(REPLACEMENT, b""), "");
    assert_eq!(replaced(REPLACEMENT, b"a"), "\u{FFFD}");
    assert_eq!(replaced(REPLACEMENT, b"abc\xFF"), "\u{FFFD}");
    let run = run_decoder(REPLACEMENT, b"abc", ErrorMode::Fatal);
    assert_eq!((run.output.as_str(), run.error), ("", Some(1)));
    // The handler returns finished at the second byte: the rest of the queue is never read.
    let mut input = IoQueue::from_items(*b"abc");
    let mut output = IoQueue::new();
    let result = process_queue(
        &mut Decoder::new(REPLACEMENT),
        &mut input,
        &mut output,
        ErrorMode::Replacement,
    );
    assert_eq!(result, QueueResult::Finished);
    assert_eq!((input.to_vec(), output.to_vec()), (vec![b'c'], vec![FFFD]));
    assert!(output.has_end_of_queue());
    assert!(Encoder::new(REPLACEMENT).is_none());
    // The decode hook's BOM overrides even the replacement fallback.
    assert_eq!(decode_bytes(b"\xEF\xBB\xBFa", REPLACEMENT), "a");
    assert_eq!(decode_bytes(b"a", REPLACEMENT), "\u{FFFD}");
}

#[test]
fn single_byte_html_and_fatal_modes() {
    assert_eq!(
        run_encoder(WINDOWS_1252, "a😀b", ErrorMode::Html).output,
        b"a&#128512;b"
    );
    let run = run_encoder(WINDOWS_1252, "a😀b", ErrorMode::Fatal);
    assert_eq!((run.output, run.error), (b"a".to_vec(), Some(('😀', 2))));
    // Unmapped bytes of windows-1252? None: 0x81 maps to U+0081. Of windows-874, 0xDB is.
    assert_eq!(replaced(simdenc::WINDOWS_874, b"\xDB"), "\u{FFFD}");
    assert_eq!(replaced(WINDOWS_1252, b"\x80\x81"), "€\u{81}");
}

// ---------------------------------------------------------------------------------------------
// Hooks.

#[test]
fn decode_hook_sniffs_byte_order_marks() {
    assert_eq!(
        decode_bytes(b"\xEF\xBB\xBFa\xEF\xBB\xBF", WINDOWS_1252),
        "a\u{FEFF}"
    );
    assert_eq!(decode_bytes(b"\xFE\xFF\x00a", WINDOWS_1252), "a");
    assert_eq!(decode_bytes(b"\xFF\xFEa\x00", SHIFT_JIS), "a");
    assert_eq!(decode_bytes(b"\xFF\xFE", UTF_8), "");
    // No BOM: the fallback decodes everything, including a partial BOM.
    assert_eq!(decode_bytes(b"\xEF\xBB", WINDOWS_1252), "ï»");
    assert_eq!(decode_bytes(b"\xFE", WINDOWS_1252), "þ");
    assert_eq!(decode_bytes(b"\xFE\xFF", WINDOWS_1252), "");
    // A UTF-16 BOM while the fallback is UTF-16 of the other byte order.
    assert_eq!(decode_bytes(b"\xFE\xFF\x00a", UTF_16LE), "a");
    // BOM sniff only peeks.
    let queue = IoQueue::from_items(*b"\xEF\xBB\xBFx");
    assert_eq!(bom_sniff(&queue), Some(UTF_8));
    assert_eq!(queue.len(), 4);
    assert_eq!(bom_sniff(&IoQueue::from_items(*b"\xFF\xFE\x00")), Some(UTF_16LE));
    assert_eq!(bom_sniff(&IoQueue::from_items(*b"\xFE")), None);
    // The hook reads exactly the BOM: UTF-8 three bytes, UTF-16 two.
    let mut output = IoQueue::new();
    decode(
        &mut IoQueue::from_items(*b"\xFF\xFE\x3D\xD8\x00\xDE"),
        UTF_8,
        &mut output,
    );
    assert_eq!(output.to_vec(), ['😀']);
    assert!(output.has_end_of_queue());
}

#[test]
fn utf8_decode_hooks() {
    let run = |hook: fn(&mut IoQueue<u8>, &mut IoQueue<char>), bytes: &[u8]| {
        let mut output = IoQueue::new();
        hook(&mut IoQueue::from_items(bytes.iter().copied()), &mut output);
        output.to_vec().into_iter().collect::<String>()
    };
    assert_eq!(run(utf8_decode, b"\xEF\xBB\xBF\xEF\xBB\xBFa"), "\u{FEFF}a");
    assert_eq!(run(utf8_decode, b"\xEF\xBBa"), "\u{FFFD}a");
    assert_eq!(run(utf8_decode_without_bom, b"\xEF\xBB\xBFa"), "\u{FEFF}a");
    // UTF-8 decode does not sniff UTF-16 BOMs.
    assert_eq!(run(utf8_decode, b"\xFF\xFEa"), "\u{FFFD}\u{FFFD}a");
    let mut output = IoQueue::new();
    let result = utf8_decode_without_bom_or_fail(&mut IoQueue::from_items(*b"ab\xC0c"), &mut output);
    assert_eq!(result, Err(spec::Failure));
    assert!(
        !output.has_end_of_queue(),
        "an error prevents end-of-queue in the output"
    );
    assert_eq!(output.to_vec(), ['a', 'b']);
    let mut output = IoQueue::new();
    let result = utf8_decode_without_bom_or_fail(&mut IoQueue::from_items(*b"\xEF\xBB\xBF"), &mut output);
    assert_eq!((result, output.to_vec()), (Ok(()), vec!['\u{FEFF}']));
}

#[test]
fn encode_hooks_use_html_mode() {
    let mut output = IoQueue::new();
    encode(&mut IoQueue::from_items("x😀".chars()), WINDOWS_1252, &mut output);
    assert_eq!(output.to_vec(), b"x&#128512;");
    assert!(output.has_end_of_queue());
    let mut output = IoQueue::new();
    utf8_encode(&mut IoQueue::from_items("a\u{80}\u{800}😀".chars()), &mut output);
    assert_eq!(output.to_vec(), "a\u{80}\u{800}😀".as_bytes());
    assert_eq!(spec::encode_str("\u{E5E5}", GB18030), b"&#58853;");
}

#[test]
fn encode_or_fail_resumes_with_the_same_iso_2022_jp_encoder() {
    // In Roman state at the error; the state is kept for the second call.
    let mut encoder = get_an_encoder(ISO_2022_JP);
    let mut input = IoQueue::from_items("¥\u{E000}¥".chars());
    let mut first = IoQueue::new();
    assert_eq!(encode_or_fail(&mut input, &mut encoder, &mut first), Some(0xE000));
    assert_eq!(first.to_vec(), b"\x1B(J\x5C");
    assert!(first.has_end_of_queue());
    let mut second = IoQueue::new();
    assert_eq!(encode_or_fail(&mut input, &mut encoder, &mut second), None);
    assert_eq!(second.to_vec(), b"\x5C\x1B(B");
    // A fresh encoder would have switched to Roman again.
    assert_eq!(encoded(ISO_2022_JP, "¥").unwrap(), b"\x1B(J\x5C\x1B(B");
    // In jis0208 state the encoder switches to ASCII *before* returning the error (step 11),
    // so the second call starts in ASCII state and escapes to jis0208 again.
    let mut encoder = get_an_encoder(ISO_2022_JP);
    let mut input = IoQueue::from_items("a\u{3042}\u{E000}\u{3044}".chars());
    let mut first = IoQueue::new();
    assert_eq!(encode_or_fail(&mut input, &mut encoder, &mut first), Some(0xE000));
    assert_eq!(first.to_vec(), b"a\x1B$B\x24\x22\x1B(B");
    let mut second = IoQueue::new();
    assert_eq!(encode_or_fail(&mut input, &mut encoder, &mut second), None);
    assert_eq!(second.to_vec(), b"\x1B$B\x24\x24\x1B(B");
    // U+000E reports U+FFFD.
    let mut encoder = get_an_encoder(ISO_2022_JP);
    let mut output = IoQueue::new();
    let result = encode_or_fail(&mut IoQueue::from_items(['\u{E}']), &mut encoder, &mut output);
    assert_eq!(result, Some(0xFFFD));
}

#[test]
fn get_an_output_encoding_for_every_encoding() {
    for &encoding in Encoding::all() {
        let expected = match encoding.name() {
            "replacement" | "UTF-16BE" | "UTF-16LE" => UTF_8,
            _ => encoding,
        };
        assert_eq!(get_an_output_encoding(encoding), expected);
        assert_eq!(Encoder::new(encoding).is_some(), expected == encoding);
    }
}

#[test]
#[should_panic(expected = "has no encoder")]
fn get_an_encoder_asserts_for_utf_16() {
    get_an_encoder(UTF_16BE);
}

#[test]
#[should_panic(expected = "step 1")]
fn process_an_item_asserts_no_replacement_mode_for_encoders() {
    run_encoder(UTF_8, "a", ErrorMode::Replacement);
}

#[test]
#[should_panic(expected = "step 2")]
fn process_an_item_asserts_no_html_mode_for_decoders() {
    run_decoder(UTF_8, b"a", ErrorMode::Html);
}

// ---------------------------------------------------------------------------------------------
// Labels.

#[test]
fn get_an_encoding_resolves_every_label_of_encodings_json() {
    let table = spec_common::read_labels();
    assert_eq!(table.len(), 228);
    assert_eq!(
        table
            .iter()
            .map(|(name, _)| name)
            .collect::<std::collections::HashSet<_>>()
            .len(),
        40
    );
    for (name, label) in &table {
        let expected = Encoding::all()
            .iter()
            .copied()
            .find(|e| e.name() == name)
            .unwrap();
        assert!(expected.labels().contains(&label.as_str()));
        let upper = label.to_ascii_uppercase();
        let mixed: String = label
            .chars()
            .enumerate()
            .map(|(i, c)| if i % 2 == 0 { c.to_ascii_uppercase() } else { c })
            .collect();
        for variant in [label.clone(), upper, mixed] {
            assert_eq!(get_an_encoding(&variant), Some(expected), "{variant:?}");
            for ws in ["\t", "\n", "\u{C}", "\r", " ", " \t\n\u{C}\r"] {
                let padded = format!("{ws}{variant}{ws}");
                assert_eq!(get_an_encoding(&padded), Some(expected), "{padded:?}");
            }
            // U+000B is not ASCII whitespace; NUL and NBSP neither.
            for not_ws in ["\u{B}", "\0", "\u{A0}"] {
                assert_eq!(get_an_encoding(&format!("{not_ws}{variant}")), None);
                assert_eq!(get_an_encoding(&format!("{variant}{not_ws}")), None);
            }
        }
        assert_eq!(get_an_encoding(&format!("{label}x")), None);
        assert_eq!(get_an_encoding(&format!("{label} x")), None);
    }
    // Only ASCII case-insensitivity: KELVIN SIGN (U+212A) lowercases to k in Unicode.
    assert_eq!(get_an_encoding("\u{212A}oi8-r"), None);
    assert_eq!(get_an_encoding("koi8-r"), Some(simdenc::KOI8_R));
    // And LATIN CAPITAL LETTER I WITH DOT ABOVE is no I.
    assert_eq!(get_an_encoding("\u{130}so-8859-2"), None);
    for not_a_label in ["", " ", "utf-7", "utf-32", "iso-8859-1-i", "x-user-defined2"] {
        assert_eq!(get_an_encoding(not_a_label), None, "{not_a_label:?}");
    }
    assert_eq!(get_an_encoding("gb2312 "), Some(GBK));
    assert_eq!(get_an_encoding("iso-2022-kr"), Some(REPLACEMENT));
}

// ---------------------------------------------------------------------------------------------
// Streaming.

#[test]
fn streaming_queue_gives_the_same_output_as_immediate() {
    let inputs: [(&'static Encoding, &[u8]); 9] = [
        (UTF_8, "a€😀\u{FEFF}".as_bytes()),
        (UTF_8, b"\xF0\x90\x80\xE3\x81a\xC0"),
        (GB18030, b"\x81\x30\x81\x30\x81\x30\x81a\x84\x31\xA4\x39\x81"),
        (SHIFT_JIS, b"\x82\xA0\x82\x22\xF0\x40\x82"),
        (ISO_2022_JP, b"\x1B$B\x24\x22\x1B(J\\\x1B$\x1B(B\x1B"),
        (UTF_16LE, b"\x3D\xD8\x00\xDE\x3D\xD8A\x00\x3D"),
        (UTF_16BE, b"\xD8\x3D\xDE\x00\xDC\x00"),
        (BIG5, b"\x88\x62\x88A\xA4"),
        (EUC_JP, b"\x8F\xA2\xAF\x8E\xA1\x8F"),
    ];
    for (encoding, bytes) in inputs {
        for mode in [ErrorMode::Replacement, ErrorMode::Fatal] {
            let immediate = run_decoder(encoding, bytes, mode);
            for chunk in 1..=bytes.len() {
                let mut decoder = Decoder::new(encoding);
                let mut input = IoQueue::new();
                let mut output = IoQueue::new();
                let mut result = QueueResult::Blocked;
                let mut pushed = 0;
                for piece in bytes.chunks(chunk) {
                    input.push_items(piece.iter().map(|&b| Item::Value(b)));
                    pushed += piece.len();
                    result = process_queue(&mut decoder, &mut input, &mut output, mode);
                    if result != QueueResult::Blocked {
                        break;
                    }
                }
                if result == QueueResult::Blocked {
                    input.push(Item::EndOfQueue);
                    result = process_queue(&mut decoder, &mut input, &mut output, mode);
                }
                let error = match result {
                    QueueResult::Finished => None,
                    QueueResult::Error(_) => Some(pushed - input.len()),
                    QueueResult::Blocked => panic!("blocked after end-of-queue"),
                };
                let text: String = output.to_vec().into_iter().collect();
                assert_eq!(
                    (text, error),
                    (immediate.output.clone(), immediate.error),
                    "{encoding:?} {mode:?} chunks of {chunk}"
                );
            }
        }
    }
}
