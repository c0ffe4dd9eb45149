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
//!
//! ```
//! use simdenc::{spec, Encoding};
//! let enc = Encoding::for_label(b"sjis").unwrap();
//! let text = spec::decode_bytes(b"\x93\xfa\x96\x7b", enc);
//! assert_eq!(text, "日本");
//! ```
#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

extern crate alloc;

mod codecs;
pub mod cpu;
mod decoder;
mod encoder;
mod encoding;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals;
pub mod io;
pub mod mem;
mod oneshot;
mod results;
#[allow(unsafe_code)]
mod simd;
pub mod spec;
mod tables;
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
