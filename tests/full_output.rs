//! How far a call reads when its output fills: as encoding_rs's clients rely on (issue 18),
//! a call that leaves its output full takes no byte that only starts a character (a lead, the
//! first byte of a UTF-16 code unit, an escape sequence): that byte is left for the next call.

mod common;

use common::Rng;
use simdenc::{CoderResult, Encoding};

/// The two cases from encoding_rs's clients: `encoding_rs_io`'s 7-byte transcoder over
/// UTF-16LE, and Shift_JIS `B3 C6 8D` into two code units.
#[test]
fn client_cases() {
    let mut decoder = simdenc::UTF_16LE.new_decoder_with_bom_removal();
    let mut out = [0u8; 7];
    let input = b"f\x00o\x00o\x00b\x00a\x00r\x00b\x00a\x00z\x00";
    assert_eq!(
        decoder.decode_to_utf8(input, &mut out, false),
        (CoderResult::OutputFull, 14, 7, false)
    );
    let mut decoder = simdenc::SHIFT_JIS.new_decoder();
    let mut out = [0u16; 2];
    assert_eq!(
        decoder.decode_to_utf16(b"\xB3\xC6\x8D", &mut out, false),
        (CoderResult::OutputFull, 2, 2, false)
    );
}

/// Valid text in every encoding, decoded in calls with small outputs: whenever a call leaves
/// its output full, the input it read is whole characters, so a fresh decoder given just that
/// input (and the end of the stream) writes exactly the text so far, with no error.
#[test]
fn a_full_output_ends_at_a_character_boundary() {
    let mut rng = Rng(0xF011_0000);
    let mut checked = 0;
    for &enc in Encoding::all() {
        if enc == simdenc::REPLACEMENT {
            continue;
        }
        for round in 0..60 {
            let text: String = (0..40)
                .map(|_| match rng.below(5) {
                    0 => char::from(b'a' + rng.below(26) as u8),
                    1 => char::from_u32(0xA0 + rng.below(0x60) as u32).unwrap(),
                    2 => char::from_u32(0x3041 + rng.below(0x50) as u32).unwrap(),
                    3 => char::from_u32(0x4E00 + rng.below(0x400) as u32).unwrap(),
                    _ => char::from_u32(0x1F600 + rng.below(0x40) as u32).unwrap(),
                })
                .collect();
            let input: Vec<u8> = match enc.name() {
                "UTF-16LE" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
                "UTF-16BE" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
                // What the encoding cannot encode becomes `&#N;` (ASCII): still valid input.
                _ => enc.encode(&text).0.into_owned(),
            };
            let utf16 = round % 2 == 1;
            let mut decoder = enc.new_decoder_without_bom_handling();
            let (mut read, mut text_so_far) = (0, String::new());
            for _ in 0..10_000 {
                let cap = 4 + rng.below(9);
                let (result, n, full) = if utf16 {
                    let mut out = vec![0u16; cap];
                    let (result, n, written, _) = decoder.decode_to_utf16(&input[read..], &mut out, true);
                    text_so_far.push_str(&String::from_utf16(&out[..written]).unwrap());
                    (result, n, written == cap)
                } else {
                    let mut out = vec![0u8; cap];
                    let (result, n, written, _) = decoder.decode_to_utf8(&input[read..], &mut out, true);
                    text_so_far.push_str(std::str::from_utf8(&out[..written]).unwrap());
                    (result, n, written == cap)
                };
                read += n;
                if full && read < input.len() {
                    let (fresh, had_errors) = enc.decode_without_bom_handling(&input[..read]);
                    assert!(
                        !had_errors && fresh == text_so_far,
                        "{}: a call with a full output ({} code units) read {read} bytes, \
                         not whole characters: {:02X?}",
                        enc.name(),
                        if utf16 { "UTF-16" } else { "UTF-8" },
                        &input[read.saturating_sub(4)..(read + 4).min(input.len())]
                    );
                    checked += 1;
                }
                if result == CoderResult::InputEmpty {
                    break;
                }
            }
            assert_eq!(read, input.len(), "{}: not all input read", enc.name());
        }
    }
    assert!(checked > 1000, "only {checked} full outputs checked");
}
