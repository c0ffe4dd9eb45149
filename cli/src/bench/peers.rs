//! The peers measured beside simdenc when the binary is built with `--features peers`:
//! encoding_rs for every workload (same API, so the same runners; in the `api` group, its
//! nearest call for `TextDecoder` and `TextEncoder`, which it does not have, and none for
//! `DecodeReader`; in the `mem` group, `encoding_rs::mem`'s function of the same name), simdutf8 for UTF-8 validation, and the standard library where it has an
//! equivalent (UTF-8 validation, UTF-8 → UTF-8 as validate-then-copy, UTF-8 ↔ UTF-16).
//!
//! encoding_rs is used as a user gets it from crates.io: its `simd-accel` feature needs a
//! nightly compiler, so its SIMD paths are the SSE2 ones it has on x86_64 by default.

use std::hint::black_box;
use std::rc::Rc;

use super::api::{DecodeCall, EncodeCall, api_decode, api_encode};
use super::corpus::{Pieces, TextPieces, UnitPieces};
use super::mem::{MemCall, MemInput, mem_runner};
use super::suite::{
    Outcome, Peer, Runner, Work, decode_to_utf8, decode_to_utf16, encode_from_utf8, encode_utf16_to_utf8,
    small_decode_to_utf8, small_decode_to_utf16, small_encode_from_utf8, small_encode_from_utf16,
};

/// The version of encoding_rs this binary was built with (from Cargo.lock, by build.rs).
pub const ENCODING_RS_VERSION: &str = env!("SIMDENC_BUILD_ENCODING_RS");
/// The version of simdutf8 this binary was built with.
pub const SIMDUTF8_VERSION: &str = env!("SIMDENC_BUILD_SIMDUTF8");

/// encoding_rs's encoding of the same name.
fn theirs(enc: &'static simdenc::Encoding) -> &'static encoding_rs::Encoding {
    encoding_rs::Encoding::for_label(enc.name().as_bytes())
        .unwrap_or_else(|| panic!("encoding_rs has no encoding named {}", enc.name()))
}

/// The peers' runners for `work`.
pub fn runners(work: &Work) -> Vec<(Peer, Runner)> {
    let mut peers: Vec<(Peer, Runner)> = Vec::new();
    match work {
        Work::Validate(input) => {
            let i = Rc::clone(input);
            peers.push((
                Peer::EncodingRs,
                Box::new(move || Outcome {
                    read: encoding_rs::Encoding::utf8_valid_up_to(black_box(&i)),
                    written: 0,
                }),
            ));
            let i = Rc::clone(input);
            peers.push((
                Peer::Simdutf8,
                Box::new(move || Outcome {
                    read: simdutf8_valid_len(black_box(&i)),
                    written: 0,
                }),
            ));
            let i = Rc::clone(input);
            peers.push((
                Peer::Std,
                Box::new(move || Outcome {
                    read: std_valid_up_to(black_box(&i)),
                    written: 0,
                }),
            ));
        }
        Work::DecodeToUtf8(enc, input) => {
            peers.push((Peer::EncodingRs, decode_to_utf8!(theirs(enc), input)));
            if *enc == simdenc::UTF_8 {
                peers.push((Peer::Std, std_utf8_to_utf8(input)));
            }
        }
        Work::DecodeToUtf16(enc, input) => {
            peers.push((Peer::EncodingRs, decode_to_utf16!(theirs(enc), input)));
            if *enc == simdenc::UTF_8 {
                peers.push((Peer::Std, std_utf8_to_utf16(input)));
            }
        }
        Work::EncodeFromUtf8(enc, input) => {
            peers.push((Peer::EncodingRs, encode_from_utf8!(theirs(enc), input)));
        }
        Work::EncodeUtf16ToUtf8(input) => {
            peers.push((Peer::EncodingRs, encode_utf16_to_utf8!(encoding_rs::UTF_8, input)));
            peers.push((Peer::Std, std_utf16_to_utf8(input)));
        }
        Work::SmallValidate(input) => {
            let i = Rc::clone(input);
            peers.push((
                Peer::EncodingRs,
                Box::new(move || Outcome {
                    read: i
                        .iter()
                        .map(|p| encoding_rs::Encoding::utf8_valid_up_to(black_box(p)))
                        .sum(),
                    written: 0,
                }),
            ));
            let i = Rc::clone(input);
            peers.push((
                Peer::Simdutf8,
                Box::new(move || Outcome {
                    read: i.iter().map(|p| simdutf8_valid_len(black_box(p))).sum(),
                    written: 0,
                }),
            ));
            let i = Rc::clone(input);
            peers.push((
                Peer::Std,
                Box::new(move || Outcome {
                    read: i.iter().map(|p| std_valid_up_to(black_box(p))).sum(),
                    written: 0,
                }),
            ));
        }
        Work::SmallDecodeToUtf8(enc, input) => {
            peers.push((Peer::EncodingRs, small_decode_to_utf8!(theirs(enc), input)));
        }
        Work::SmallDecodeToUtf16(enc, input) => {
            peers.push((Peer::EncodingRs, small_decode_to_utf16!(theirs(enc), input)));
        }
        Work::SmallEncodeFromUtf8(enc, input) => {
            peers.push((Peer::EncodingRs, small_encode_from_utf8!(theirs(enc), input)));
        }
        Work::SmallEncodeFromUtf16(enc, input) => {
            peers.push((Peer::EncodingRs, small_encode_from_utf16!(theirs(enc), input)));
        }
        Work::ApiDecode(call, enc, input) => {
            let runner = match call {
                DecodeCall::TextDecoder => Some(text_decoder(theirs(enc), input)),
                DecodeCall::DecodeReader => None,
                _ => api_decode!(*call, theirs(enc), input),
            };
            peers.extend(runner.map(|r| (Peer::EncodingRs, r)));
        }
        Work::ApiEncode(call, enc, input) => {
            let runner = match call {
                EncodeCall::TextEncoder => Some(text_encoder(input)),
                // encoding_rs has no `Write` adapter (encoding_rs_rw is not a dependency).
                EncodeCall::EncodeWriter => None,
                _ => api_encode!(*call, theirs(enc), input),
            };
            peers.extend(runner.map(|r| (Peer::EncodingRs, r)));
        }
        Work::Mem(call, input) => {
            peers.push((Peer::EncodingRs, mem_runner!(encoding_rs::mem, *call, input)));
        }
    }
    peers
}

/// simdutf8's fastest check (`basic`, which says only valid or not): the whole length if
/// valid, else 0.
fn simdutf8_valid_len(bytes: &[u8]) -> usize {
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        bytes.len()
    } else {
        0
    }
}

fn std_valid_up_to(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.len(),
        Err(e) => e.valid_up_to(),
    }
}

/// UTF-8 → UTF-8 the std way: validate, then copy.
fn std_utf8_to_utf8(input: &Rc<[u8]>) -> Runner {
    let input = Rc::clone(input);
    let mut out = vec![0u8; input.len()];
    Box::new(move || {
        let Ok(s) = std::str::from_utf8(black_box(&input)) else {
            return Outcome { read: 0, written: 0 };
        };
        out[..s.len()].copy_from_slice(s.as_bytes());
        black_box(&mut out);
        Outcome {
            read: s.len(),
            written: s.len(),
        }
    })
}

/// UTF-8 → UTF-16 the std way: validate, then `str::encode_utf16` into the buffer.
fn std_utf8_to_utf16(input: &Rc<[u8]>) -> Runner {
    let input = Rc::clone(input);
    let mut out = vec![0u16; input.len()];
    Box::new(move || {
        let Ok(s) = std::str::from_utf8(black_box(&input)) else {
            return Outcome { read: 0, written: 0 };
        };
        let mut written = 0;
        for (slot, unit) in out.iter_mut().zip(s.encode_utf16()) {
            *slot = unit;
            written += 1;
        }
        black_box(&mut out);
        Outcome {
            read: s.len(),
            written,
        }
    })
}

/// UTF-16 → UTF-8 the std way: `char::decode_utf16` (lone surrogates to U+FFFD), then
/// `char::encode_utf8` into the buffer.
fn std_utf16_to_utf8(input: &Rc<[u16]>) -> Runner {
    let input = Rc::clone(input);
    let mut out = vec![0u8; input.len() * 3];
    Box::new(move || {
        let mut written = 0;
        for c in char::decode_utf16(black_box(&input).iter().copied()) {
            let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
            written += c.encode_utf8(&mut out[written..]).len();
        }
        black_box(&mut out);
        Outcome {
            read: input.len(),
            written,
        }
    })
}

/// encoding_rs's nearest to `TextDecoder::new(label).decode(input, false)` (which it does not
/// have): `decode_with_bom_removal` (the same BOM handling and replacement) into an owned
/// `String`.
fn text_decoder(enc: &'static encoding_rs::Encoding, input: &Rc<[u8]>) -> Runner {
    let input = Rc::clone(input);
    Box::new(move || {
        let text: String = enc.decode_with_bom_removal(black_box(&input)).0.into_owned();
        let written = black_box(text).len();
        Outcome {
            read: input.len(),
            written,
        }
    })
}

/// encoding_rs's nearest to `TextEncoder::new().encode(input)` (which it does not have):
/// `UTF_8.encode` (the text's own bytes, borrowed) into an owned `Vec`.
fn text_encoder(input: &Rc<str>) -> Runner {
    let input = Rc::clone(input);
    Box::new(move || {
        let bytes: Vec<u8> = encoding_rs::UTF_8.encode(black_box(&input)).0.into_owned();
        let written = black_box(bytes).len();
        Outcome {
            read: input.len(),
            written,
        }
    })
}
