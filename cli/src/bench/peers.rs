//! The peers measured beside simdenc when the binary is built with `--features peers`:
//! encoding_rs for every workload (same API, so the same runners; in the `api` group, its
//! nearest call for `TextDecoder` and `TextEncoder`, which it does not have, and none for
//! `DecodeReader`; in the `mem` group, `encoding_rs::mem`'s function of the same name), simdutf8 for UTF-8 validation, and the standard library where it has an
//! equivalent (UTF-8 validation, UTF-8 → UTF-8 as validate-then-copy, UTF-8 ↔ UTF-16).
//!
//! simdutf (C++) for UTF-8 validation, UTF-8 → UTF-8 (validate, then copy), UTF-8 ↔ UTF-16 and
//! UTF-16LE/BE decode, through its kernel for each level measured (module `simdutf`).
//!
//! encoding_rs is used as a user gets it from crates.io: its `simd-accel` feature needs a
//! nightly compiler (or `RUSTC_BOOTSTRAP=1`), so its SIMD paths are the SSE2 ones it has on
//! x86_64 by default; `--features peers-firefox` builds it as Firefox does, with `simd-accel` and
//! `fast-legacy-encode`, and its column says so.

use std::hint::black_box;
use std::rc::Rc;

use super::api::{DecodeCall, EncodeCall, api_decode, api_encode};
use super::corpus::{Pieces, TextPieces, UnitPieces};
use super::mem::{MemCall, MemInput, mem_runner};
use super::simdutf::Simdutf;
use super::suite::{
    Outcome, Peer, Runner, SimdutfKernel, Work, decode_to_utf8, decode_to_utf16, encode_from_utf8,
    encode_utf16_to_utf8, small_decode_to_utf8, small_decode_to_utf16, small_encode_from_utf8,
    small_encode_from_utf16,
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

/// How encoding_rs was built, for the report.
pub fn encoding_rs_build() -> String {
    if cfg!(feature = "peers-firefox") {
        format!("{ENCODING_RS_VERSION} with fast-legacy-encode")
    } else {
        ENCODING_RS_VERSION.to_owned()
    }
}

/// The peers' runners for `work`, simdutf's through its kernel for each of `levels` that this
/// CPU can run.
pub fn runners(work: &Work, levels: &[simdenc::cpu::Level]) -> Vec<(Peer, Runner)> {
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
    let mut kernels: Vec<SimdutfKernel> = levels.iter().map(|&l| SimdutfKernel::for_level(l)).collect();
    kernels.sort();
    kernels.dedup();
    for kernel in kernels {
        if let Some(simdutf) = Simdutf::get(kernel)
            && let Some(runner) = simdutf_runner(simdutf, work)
        {
            peers.push((Peer::Simdutf(kernel), runner));
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

/// simdutf's runner for `work`, where simdutf has the conversion.
fn simdutf_runner(simdutf: Simdutf, work: &Work) -> Option<Runner> {
    match work {
        Work::Validate(input) => {
            let input = Rc::clone(input);
            Some(Box::new(move || Outcome {
                read: if simdutf.validate_utf8(black_box(&input)) {
                    input.len()
                } else {
                    0
                },
                written: 0,
            }))
        }
        Work::DecodeToUtf8(enc, input) if *enc == simdenc::UTF_8 => {
            // Validate, then copy: the UTF-8 → UTF-8 decode of valid input.
            let input = Rc::clone(input);
            let mut out = vec![0u8; input.len()];
            Some(Box::new(move || {
                if !simdutf.validate_utf8(black_box(&input)) {
                    return Outcome { read: 0, written: 0 };
                }
                out.copy_from_slice(&input);
                black_box(&mut out);
                Outcome {
                    read: input.len(),
                    written: input.len(),
                }
            }))
        }
        Work::DecodeToUtf16(enc, input) if *enc == simdenc::UTF_8 => {
            let input = Rc::clone(input);
            let mut out = vec![0u16; input.len()];
            Some(Box::new(move || {
                let written = simdutf.utf8_to_utf16le(black_box(&input), &mut out);
                black_box(&mut out);
                Outcome {
                    read: if written > 0 || input.is_empty() {
                        input.len()
                    } else {
                        0
                    },
                    written,
                }
            }))
        }
        Work::EncodeUtf16ToUtf8(input) => Some(simdutf_utf16_to_utf8(simdutf, input.to_vec(), false, 2)),
        Work::DecodeToUtf8(enc, input) if *enc == simdenc::UTF_16LE || *enc == simdenc::UTF_16BE => {
            let big_endian = *enc == simdenc::UTF_16BE;
            Some(simdutf_utf16_to_utf8(
                simdutf,
                same_bytes_as_units(input)?,
                big_endian,
                1,
            ))
        }
        Work::DecodeToUtf16(enc, input) if *enc == simdenc::UTF_16LE || *enc == simdenc::UTF_16BE => {
            // Validate, then copy (LE) or swap each unit's bytes (BE): the UTF-16 decode of
            // valid input into native-order UTF-16.
            let big_endian = *enc == simdenc::UTF_16BE;
            let units = same_bytes_as_units(input)?;
            let mut out = vec![0u16; units.len()];
            Some(Box::new(move || {
                if !simdutf.validate_utf16(black_box(&units), big_endian) {
                    return Outcome { read: 0, written: 0 };
                }
                if big_endian {
                    if !simdutf.change_endianness_utf16(&units, &mut out) {
                        return Outcome { read: 0, written: 0 };
                    }
                } else {
                    out.copy_from_slice(&units);
                }
                black_box(&mut out);
                Outcome {
                    read: units.len() * 2,
                    written: units.len(),
                }
            }))
        }
        _ => None,
    }
}

/// UTF-16 in the byte order `big_endian` says → UTF-8 with simdutf; the workload counts its
/// input in units of `input_unit` bytes (2 for `&[u16]` input, 1 for bytes).
fn simdutf_utf16_to_utf8(simdutf: Simdutf, units: Vec<u16>, big_endian: bool, input_unit: usize) -> Runner {
    let mut out = vec![0u8; units.len() * 3];
    Box::new(move || {
        let written = simdutf.utf16_to_utf8(black_box(&units), big_endian, &mut out);
        black_box(&mut out);
        Outcome {
            read: if written > 0 || units.is_empty() {
                units.len() * 2 / input_unit
            } else {
                0
            },
            written,
        }
    })
}

/// The bytes of a UTF-16 input as 16-bit units holding the same bytes in memory (simdutf takes
/// `char16_t *`, which must be aligned), so that simdutf reads exactly what simdenc reads; None
/// for an odd length. The UTF-16 workloads count their input in bytes (`Outcome::read`).
fn same_bytes_as_units(bytes: &[u8]) -> Option<Vec<u16>> {
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    Some(
        bytes
            .chunks_exact(2)
            .map(|pair| u16::from_ne_bytes([pair[0], pair[1]]))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::suite;

    /// simdutf's kernel for every supported level runs the Unicode workloads and writes exactly
    /// what simdenc writes at that level.
    #[test]
    fn simdutf_agrees_with_simdenc_at_every_level() {
        let groups = [
            "utf8-validate/",
            "utf8-to-utf8/",
            "utf8-to-utf16/",
            "utf16-to-utf8/",
            "utf16-decode/",
        ];
        let keep = |name: &str| groups.iter().any(|g| name.starts_with(g));
        for level in simdenc::cpu::supported() {
            let kernel = SimdutfKernel::for_level(level);
            let (_, mut workloads) = suite::build(&keep, &[level]);
            assert_eq!(workloads.len(), 20);
            for w in &mut workloads {
                simdenc::cpu::force(level).unwrap();
                let ours = (w.simdenc)();
                let Some((_, theirs)) = w.peers.iter_mut().find(|(p, _)| *p == Peer::Simdutf(kernel)) else {
                    assert!(Simdutf::get(kernel).is_none(), "{}: no simdutf runner", w.name);
                    continue;
                };
                assert_eq!(
                    ours,
                    theirs(),
                    "{} at {level} vs simdutf {}",
                    w.name,
                    kernel.name()
                );
                assert_eq!(ours.read, w.work.input_units(), "{}", w.name);
            }
        }
        let _ = simdenc::cpu::force(simdenc::cpu::detected());
    }
}
