//! simdenc: the [WHATWG Encoding Standard](https://encoding.spec.whatwg.org/), exactly.
//!
//! Every encoding, label, decoder, encoder, error mode and hook of the Living Standard
//! (the revision in `tables/whatwg/SOURCE-COMMIT`, GB18030-2022 included).
//!
//! - [`Encoding`] and its 40 statics ([`UTF_8`], [`SHIFT_JIS`], …): names, labels
//!   ([`Encoding::for_label`]), BOM sniffing, output encodings. Same names and semantics as
//!   encoding_rs 0.8.
//! - [`spec`]: the executable standard, the decoder and encoder handler algorithms
//!   transcribed literally over the standard's I/O queues, with its hooks. Slow and obviously
//!   right: the reference every fast path is tested against, and public so that anyone can
//!   test an implementation against it.
//! - [`mem`]: encoding_rs's `mem` module, conversions between UTF-8, UTF-16 and Latin1 in
//!   memory and checks for text that needs no bidi processing, at the kernels' speed.
//! - [`http`]: the encoding of an HTTP body, from the `charset` of its `Content-Type` (parsed
//!   as the MIME Sniffing Standard does, several headers combined as Fetch does; an
//!   `http::HeaderMap` with the `http` feature), and the standard's "decode" with it.
//!
//! ```
//! use simdenc::{spec, Encoding};
//! let enc = Encoding::for_label(b"sjis").unwrap();
//! let text = spec::decode_bytes(b"\x93\xfa\x96\x7b", enc);
//! assert_eq!(text, "日本");
//! ```
//!
//! # Cargo features
//!
//! The features of encoding_rs 0.8.44 under the same names, so that
//! `encoding_rs = { package = "simdenc", features = [...] }` works:
//!
//! - `std` (default; implies `alloc`): the [`io`] adapters, [`spec`],
//!   [`cpu::force_from_env`], and run-time detection of the SIMD level. Without it the crate
//!   is `#![no_std]` and uses the best level the compile target guarantees ([`cpu`]).
//! - `alloc` (default through `std`): what allocates, as in encoding_rs —
//!   [`Encoding::decode`] and the other `Cow` methods, [`Encoding::encode`],
//!   [`Decoder::decode_to_string`], [`Encoder::encode_from_utf8_to_vec`] and their
//!   variants — and the [`text`] and [`detect`] modules. Without it, the slice and `&mut str`
//!   API remains.
//! - `serde`: `Serialize` and `Deserialize` for `&'static Encoding`, as in encoding_rs: the
//!   [name](Encoding::name) out, any [label](Encoding::for_label) in.
//! - `tokio` (implies `std`): `io::tokio`, the [`io`] adapters for tokio's `AsyncRead`,
//!   `AsyncBufRead` and `AsyncWrite` (tokio without its default features: its io traits,
//!   no runtime).
//! - `simd-accel`, `fast-legacy-encode`, `fast-hangul-encode`, `fast-hanja-encode`,
//!   `fast-kanji-encode`, `fast-gb-hanzi-encode`, `fast-big5-hanzi-encode`,
//!   `less-slow-kanji-encode`, `less-slow-gb-hanzi-encode`, `less-slow-big5-hanzi-encode`,
//!   `any_all_workaround`, `rustversion`: accepted and without effect. The kernels are SIMD
//!   at every level on stable Rust, and the encoders already look code points up in tables
//!   (what the `fast-*` features add to encoding_rs).
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod codecs;
pub mod cpu;
mod decoder;
#[cfg(feature = "alloc")]
pub mod detect;
mod encoder;
mod encoding;
pub mod http;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals;
#[cfg(feature = "std")]
pub mod io;
pub mod mem;
mod oneshot;
mod results;
#[cfg(feature = "serde")]
mod serde_impls;
#[allow(unsafe_code)]
mod simd;
pub mod sniff;
#[cfg(feature = "std")]
pub mod spec;
mod tables;
#[cfg(feature = "alloc")]
pub mod text;

pub use crate::decoder::Decoder;
pub use crate::encoder::Encoder;
pub use crate::encoding::Encoding;
pub use crate::results::{CoderResult, DecoderResult, EncoderResult};
pub use crate::tables::encodings::{
    BIG5, BIG5_INIT, EUC_JP, EUC_JP_INIT, EUC_KR, EUC_KR_INIT, GB18030, GB18030_INIT, GBK, GBK_INIT, IBM866,
    IBM866_INIT, ISO_2022_JP, ISO_2022_JP_INIT, ISO_8859_2, ISO_8859_2_INIT, ISO_8859_3, ISO_8859_3_INIT,
    ISO_8859_4, ISO_8859_4_INIT, ISO_8859_5, ISO_8859_5_INIT, ISO_8859_6, ISO_8859_6_INIT, ISO_8859_7,
    ISO_8859_7_INIT, ISO_8859_8, ISO_8859_8_I, ISO_8859_8_I_INIT, ISO_8859_8_INIT, ISO_8859_10,
    ISO_8859_10_INIT, ISO_8859_13, ISO_8859_13_INIT, ISO_8859_14, ISO_8859_14_INIT, ISO_8859_15,
    ISO_8859_15_INIT, ISO_8859_16, ISO_8859_16_INIT, KOI8_R, KOI8_R_INIT, KOI8_U, KOI8_U_INIT, MACINTOSH,
    MACINTOSH_INIT, REPLACEMENT, REPLACEMENT_INIT, SHIFT_JIS, SHIFT_JIS_INIT, UTF_8, UTF_8_INIT, UTF_16BE,
    UTF_16BE_INIT, UTF_16LE, UTF_16LE_INIT, WINDOWS_874, WINDOWS_874_INIT, WINDOWS_1250, WINDOWS_1250_INIT,
    WINDOWS_1251, WINDOWS_1251_INIT, WINDOWS_1252, WINDOWS_1252_INIT, WINDOWS_1253, WINDOWS_1253_INIT,
    WINDOWS_1254, WINDOWS_1254_INIT, WINDOWS_1255, WINDOWS_1255_INIT, WINDOWS_1256, WINDOWS_1256_INIT,
    WINDOWS_1257, WINDOWS_1257_INIT, WINDOWS_1258, WINDOWS_1258_INIT, X_MAC_CYRILLIC, X_MAC_CYRILLIC_INIT,
    X_USER_DEFINED, X_USER_DEFINED_INIT,
};

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
