//! The `api` group of `simdenc bench`: the public entry points users call, each on whole
//! inputs, beside encoding_rs's same call (`--features peers`) and beside the slice call the
//! entry point is built on, so that one table gives both "entry point ÷ encoding_rs's same
//! entry point" and "entry point ÷ the same conversion through the slice API".
//!
//! Names are `api/<call>/<encoding>/<text>`, e.g. `api/decode_to_string/Shift_JIS/ja.html`;
//! `--filter api/` selects the group, `--filter api/decode/` one call. `_nobom` in a call's
//! name stands for `_without_bom_handling` and `_norepl` for `_without_replacement`.
//!
//! | call | what one measured call does | output buffer | encoding_rs column |
//! |---|---|---|---|
//! | `decode` | `Encoding::decode` | fresh (Cow: borrowed if the input is its own UTF-8, else allocated and dropped) | the same call |
//! | `decode_nobom` | `Encoding::decode_without_bom_handling` | fresh (Cow) | the same call |
//! | `decode_bom_removal` | `Encoding::decode_with_bom_removal` | fresh (Cow) | the same call |
//! | `decode_nobom_norepl` | `Encoding::decode_without_bom_handling_and_without_replacement` | fresh (Cow) | the same call |
//! | `decode_to_string` | `new_decoder()`, `Decoder::decode_to_string(input, out, true)` | reused `String`, cleared per call, capacity `max_utf8_buffer_length` | the same calls |
//! | `decode_to_string_norepl` | as above, `decode_to_string_without_replacement` | reused, capacity `max_utf8_buffer_length_without_replacement` | the same calls |
//! | `decode_to_str` | `new_decoder()`, `Decoder::decode_to_str` into a `String` of spaces | reused, `max_utf8_buffer_length` long | the same calls |
//! | `TextDecoder` | `TextDecoder::new(label)`, `decode(input, false)` → `String` | fresh | none has it: `decode_with_bom_removal(input).0.into_owned()`, the same conversion (BOM removal, replacement) into an owned `String` |
//! | `DecodeReader` | `io::DecodeReader::new(&input[..], encoding)`, `Read::read_to_string` (which decodes into the `String`) | reused `String`, cleared per call, capacity `max_utf8_buffer_length`; the reader's 64 KiB input buffer is allocated per call | none (encoding_rs_io is not a dependency) |
//! | `TextDecoderStream` | `TextDecoderStream::new(label)`, `transform` of each 16 KiB chunk, then `flush` → one `String` a chunk | fresh | none |
//! | `slice-decode_to_utf8` | `new_decoder()`, `Decoder::decode_to_utf8` into a `&mut [u8]` | reused `Vec<u8>`, `max_utf8_buffer_length` long | the same calls |
//! | `encode` | `Encoding::encode` | fresh (Cow: borrowed if all ASCII, else allocated and dropped) | the same call |
//! | `encode_to_vec` | `new_encoder()`, `Encoder::encode_from_utf8_to_vec(input, out, true)` | reused `Vec<u8>`, cleared per call, capacity `max_buffer_length_from_utf8_if_no_unmappables` | the same calls |
//! | `encode_to_vec_norepl` | as above, `encode_from_utf8_to_vec_without_replacement` | reused, capacity `max_buffer_length_from_utf8_without_replacement` | the same calls |
//! | `TextEncoder` | `TextEncoder::new().encode(input)` → `Vec<u8>` | fresh | none has it: `UTF_8.encode(input).0.into_owned()`, the same bytes in a fresh `Vec` |
//! | `EncodeWriter` | `io::EncodeWriter::new(out, encoding)`, `write_all(input)`, `finish()` | reused `Vec<u8>`, cleared per call; the writer's 64 KiB buffer allocated per call | none |
//! | `slice-encode_from_utf8` | `new_encoder()`, `Encoder::encode_from_utf8` into a `&mut [u8]` | reused `Vec<u8>`, 4 bytes per input byte | the same calls |
//!
//! The calls that return a `Cow`, a `String` or a `Vec` allocate by design, so they get a
//! fresh output per call and pay for its allocation (and its drop) as users do; the calls that
//! write into a caller's `String` or `Vec` get a reused one, cleared per call, which isolates
//! the conversion and the entry point's own overhead over the slice call. Decoders come from
//! `new_decoder()` (BOM sniffing, the constructor users reach for) everywhere in the group,
//! the slice baseline included, and are created inside the measured call, so they run at the
//! level the harness forces.
//!
//! Inputs: the Wikipedia article on Mars (`ru`, `ja`, `de`, `zh_cn`) and the Japanese HTML
//! page (`ja.html`, ASCII-heavy markup), as UTF-8, as UTF-16LE (`UTF-16LE/ru`,
//! `UTF-16LE/ja.html`: the same texts, no BOM), or in a legacy encoding made from them at
//! start-up with simdenc's encoder (unmappable characters as `&#N;`). The encode inputs
//! `windows-1251/ru`, `Shift_JIS/ja` and `windows-1252/de` (Latin-script text: ASCII runs
//! between letters) are made mappable at start-up (the texts' few
//! characters outside the encoding are replaced by their `&#N;`, as decoding the standard's
//! encode gives), so that the `_to_vec` calls and their `_norepl` forms convert them whole;
//! `windows-1251/ja` is the raw Japanese text, nearly every character of which becomes `&#N;`.

use std::hint::black_box;
use std::io::Read as _;
use std::io::Write as _;
use std::rc::Rc;

use simdenc::Encoding;

use super::corpus;
use super::suite::{Builder, Group, Outcome, Runner, Work};

const API_DECODE: Group = Group {
    slug: "api",
    title: "public entry points: decode → UTF-8 (Cow, String, &mut str; Wikipedia)",
};
const API_ENCODE: Group = Group {
    slug: "api",
    title: "public entry points: encode from UTF-8 (Cow, Vec; Wikipedia)",
};

/// A decoding entry point of the `api` group (see the module docs for what each measures).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeCall {
    /// `Encoding::decode`.
    Decode,
    /// `Encoding::decode_without_bom_handling`.
    DecodeNoBom,
    /// `Encoding::decode_with_bom_removal`.
    DecodeBomRemoval,
    /// `Encoding::decode_without_bom_handling_and_without_replacement`.
    DecodeNoBomNoRepl,
    /// `Decoder::decode_to_string`.
    ToString,
    /// `Decoder::decode_to_string_without_replacement`.
    ToStringNoRepl,
    /// `Decoder::decode_to_str`.
    ToStr,
    /// `text::TextDecoder::decode`.
    TextDecoder,
    /// `io::DecodeReader` with `read_to_string`.
    DecodeReader,
    /// `text::TextDecoderStream`, 16 KiB chunks.
    TextDecoderStream,
    /// `Decoder::decode_to_utf8`, the slice baseline.
    Slice,
}

impl DecodeCall {
    fn name(self) -> &'static str {
        match self {
            DecodeCall::Decode => "decode",
            DecodeCall::DecodeNoBom => "decode_nobom",
            DecodeCall::DecodeBomRemoval => "decode_bom_removal",
            DecodeCall::DecodeNoBomNoRepl => "decode_nobom_norepl",
            DecodeCall::ToString => "decode_to_string",
            DecodeCall::ToStringNoRepl => "decode_to_string_norepl",
            DecodeCall::ToStr => "decode_to_str",
            DecodeCall::TextDecoder => "TextDecoder",
            DecodeCall::DecodeReader => "DecodeReader",
            DecodeCall::TextDecoderStream => "TextDecoderStream",
            DecodeCall::Slice => "slice-decode_to_utf8",
        }
    }
}

/// An encoding entry point of the `api` group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodeCall {
    /// `Encoding::encode`.
    Encode,
    /// `Encoder::encode_from_utf8_to_vec`.
    ToVec,
    /// `Encoder::encode_from_utf8_to_vec_without_replacement`.
    ToVecNoRepl,
    /// `text::TextEncoder::encode`.
    TextEncoder,
    /// `io::EncodeWriter` with `write_all` and `finish`.
    EncodeWriter,
    /// `Encoder::encode_from_utf8`, the slice baseline.
    Slice,
}

impl EncodeCall {
    fn name(self) -> &'static str {
        match self {
            EncodeCall::Encode => "encode",
            EncodeCall::ToVec => "encode_to_vec",
            EncodeCall::ToVecNoRepl => "encode_to_vec_norepl",
            EncodeCall::TextEncoder => "TextEncoder",
            EncodeCall::EncodeWriter => "EncodeWriter",
            EncodeCall::Slice => "slice-encode_from_utf8",
        }
    }
}

/// The chunk size of the `TextDecoderStream` workloads: a network read's worth.
const STREAM_CHUNK: usize = 16 * 1024;

/// A decode input: `(encoding, text name, text)`; the input is the text in the encoding.
type DecodeCase = (&'static Encoding, &'static str, fn() -> &'static str);

fn ru() -> &'static str {
    corpus::wikipedia("ru")
}
fn ja() -> &'static str {
    corpus::wikipedia("ja")
}
fn ja_html() -> &'static str {
    corpus::wikipedia_html("ja")
}
fn de() -> &'static str {
    corpus::wikipedia("de")
}
fn zh_cn() -> &'static str {
    corpus::wikipedia("zh_cn")
}

const UTF8_RU: DecodeCase = (simdenc::UTF_8, "ru", ru);
const W1251_RU: DecodeCase = (simdenc::WINDOWS_1251, "ru", ru);
const UTF8_JA: DecodeCase = (simdenc::UTF_8, "ja", ja);
const SJIS_JA: DecodeCase = (simdenc::SHIFT_JIS, "ja", ja);
const UTF8_JA_HTML: DecodeCase = (simdenc::UTF_8, "ja.html", ja_html);
const SJIS_JA_HTML: DecodeCase = (simdenc::SHIFT_JIS, "ja.html", ja_html);
const UTF8_DE: DecodeCase = (simdenc::UTF_8, "de", de);
const W1252_DE: DecodeCase = (simdenc::WINDOWS_1252, "de", de);
const GB18030_ZH_CN: DecodeCase = (simdenc::GB18030, "zh_cn", zh_cn);
const UTF16LE_RU: DecodeCase = (simdenc::UTF_16LE, "ru", ru);
const UTF16LE_JA_HTML: DecodeCase = (simdenc::UTF_16LE, "ja.html", ja_html);

/// Every decode input, for the calls measured on all of them.
const ALL_DECODE: &[DecodeCase] = &[
    UTF8_RU,
    W1251_RU,
    UTF8_JA,
    SJIS_JA,
    UTF8_JA_HTML,
    SJIS_JA_HTML,
    UTF8_DE,
    W1252_DE,
    GB18030_ZH_CN,
    UTF16LE_RU,
    UTF16LE_JA_HTML,
];

/// The decode workloads, in table order: each call with the inputs it is measured on.
const DECODE_PLAN: [(DecodeCall, &[DecodeCase]); 11] = [
    (DecodeCall::Decode, ALL_DECODE),
    (DecodeCall::DecodeNoBom, &[UTF8_RU, W1251_RU]),
    (DecodeCall::DecodeBomRemoval, &[UTF8_RU, W1251_RU]),
    (DecodeCall::DecodeNoBomNoRepl, &[UTF8_RU, W1251_RU]),
    (DecodeCall::ToString, ALL_DECODE),
    (DecodeCall::ToStringNoRepl, &[UTF8_RU, W1251_RU, SJIS_JA]),
    (DecodeCall::ToStr, &[UTF8_RU, W1251_RU, SJIS_JA, GB18030_ZH_CN]),
    (
        DecodeCall::TextDecoder,
        &[UTF8_RU, UTF8_JA_HTML, W1251_RU, UTF16LE_RU],
    ),
    (DecodeCall::DecodeReader, &[UTF8_RU, W1251_RU, SJIS_JA]),
    (DecodeCall::TextDecoderStream, &[UTF8_RU, W1251_RU]),
    (DecodeCall::Slice, ALL_DECODE),
];

/// An encode input: `(encoding, text name, text, whether made mappable first)`.
type EncodeCase = (&'static Encoding, &'static str, fn() -> &'static str, bool);

const ENC_W1251_RU: EncodeCase = (simdenc::WINDOWS_1251, "ru", ru, true);
const ENC_W1251_JA: EncodeCase = (simdenc::WINDOWS_1251, "ja", ja, false);
const ENC_SJIS_JA: EncodeCase = (simdenc::SHIFT_JIS, "ja", ja, true);
const ENC_W1252_DE: EncodeCase = (simdenc::WINDOWS_1252, "de", de, true);

const ENC_UTF8_RU: EncodeCase = (simdenc::UTF_8, "ru", ru, false);
const ENC_UTF8_JA_HTML: EncodeCase = (simdenc::UTF_8, "ja.html", ja_html, false);

/// The encode workloads, in table order (after the decode ones).
const ENCODE_PLAN: [(EncodeCall, &[EncodeCase]); 6] = [
    (
        EncodeCall::Encode,
        &[ENC_W1251_RU, ENC_W1251_JA, ENC_SJIS_JA, ENC_W1252_DE],
    ),
    (EncodeCall::ToVec, &[ENC_W1251_RU, ENC_SJIS_JA, ENC_W1252_DE]),
    (EncodeCall::ToVecNoRepl, &[ENC_W1251_RU, ENC_SJIS_JA]),
    (EncodeCall::TextEncoder, &[ENC_UTF8_RU, ENC_UTF8_JA_HTML]),
    (EncodeCall::EncodeWriter, &[ENC_W1251_RU, ENC_SJIS_JA]),
    (
        EncodeCall::Slice,
        &[ENC_W1251_RU, ENC_W1251_JA, ENC_SJIS_JA, ENC_W1252_DE],
    ),
];

/// `text` with the characters `encoding` cannot encode replaced by their `&#N;`.
fn mappable(text: &str, encoding: &'static Encoding) -> String {
    let bytes = corpus::encode(text, encoding);
    encoding.decode_without_bom_handling(&bytes).0.into_owned()
}

/// Adds the group's workloads to the suite.
pub fn add(b: &mut Builder) {
    for (call, cases) in DECODE_PLAN {
        for &(enc, text_name, text) in cases {
            let case = format!("{}/{}/{text_name}", call.name(), enc.name());
            b.add(API_DECODE, &case, || {
                Work::ApiDecode(call, enc, corpus::encode(text(), enc).into())
            });
        }
    }
    for (call, cases) in ENCODE_PLAN {
        for &(enc, text_name, text, make_mappable) in cases {
            let case = format!("{}/{}/{text_name}", call.name(), enc.name());
            b.add(API_ENCODE, &case, || {
                let input: Rc<str> = if make_mappable {
                    mappable(text(), enc).into()
                } else {
                    text().into()
                };
                Work::ApiEncode(call, enc, input)
            });
        }
    }
}

/// A runner doing `$call` (a [`DecodeCall`]) on `$input` (an `Rc<[u8]>`) with `$enc` (a
/// simdenc or encoding_rs `&'static Encoding`: their APIs are the same), or `None` for the
/// calls encoding_rs does not have (`TextDecoder`, `DecodeReader`).
macro_rules! api_decode {
    ($call:expr, $enc:expr, $input:expr) => {{
        let enc = $enc;
        let input: Rc<[u8]> = Rc::clone($input);
        let max = enc
            .new_decoder()
            .max_utf8_buffer_length(input.len())
            .expect("output size fits in usize");
        let runner: Option<Runner> = match $call {
            DecodeCall::Decode => Some(Box::new(move || {
                let (text, used, had_errors) = enc.decode(black_box(&input));
                let written = black_box(text).len();
                black_box((used, had_errors));
                Outcome {
                    read: input.len(),
                    written,
                }
            })),
            DecodeCall::DecodeNoBom => Some(Box::new(move || {
                let (text, had_errors) = enc.decode_without_bom_handling(black_box(&input));
                let written = black_box(text).len();
                black_box(had_errors);
                Outcome {
                    read: input.len(),
                    written,
                }
            })),
            DecodeCall::DecodeBomRemoval => Some(Box::new(move || {
                let (text, had_errors) = enc.decode_with_bom_removal(black_box(&input));
                let written = black_box(text).len();
                black_box(had_errors);
                Outcome {
                    read: input.len(),
                    written,
                }
            })),
            DecodeCall::DecodeNoBomNoRepl => Some(Box::new(move || {
                let text = enc.decode_without_bom_handling_and_without_replacement(black_box(&input));
                match black_box(text) {
                    Some(text) => Outcome {
                        read: input.len(),
                        written: text.len(),
                    },
                    None => Outcome { read: 0, written: 0 },
                }
            })),
            DecodeCall::ToString => {
                let mut out = String::with_capacity(max);
                Some(Box::new(move || {
                    out.clear();
                    let mut decoder = enc.new_decoder();
                    let (_, read, had_errors) = decoder.decode_to_string(black_box(&input), &mut out, true);
                    black_box((&mut out, had_errors));
                    Outcome {
                        read,
                        written: out.len(),
                    }
                }))
            }
            DecodeCall::ToStringNoRepl => {
                let size = enc
                    .new_decoder()
                    .max_utf8_buffer_length_without_replacement(input.len())
                    .expect("output size fits in usize");
                let mut out = String::with_capacity(size);
                Some(Box::new(move || {
                    out.clear();
                    let mut decoder = enc.new_decoder();
                    let (_, read) =
                        decoder.decode_to_string_without_replacement(black_box(&input), &mut out, true);
                    black_box(&mut out);
                    Outcome {
                        read,
                        written: out.len(),
                    }
                }))
            }
            DecodeCall::ToStr => {
                let mut out = " ".repeat(max);
                Some(Box::new(move || {
                    let mut decoder = enc.new_decoder();
                    let (_, read, written, had_errors) =
                        decoder.decode_to_str(black_box(&input), out.as_mut_str(), true);
                    black_box((&mut out, had_errors));
                    Outcome { read, written }
                }))
            }
            DecodeCall::Slice => {
                let mut out = vec![0u8; max];
                Some(Box::new(move || {
                    let mut decoder = enc.new_decoder();
                    let (_, read, written, had_errors) =
                        decoder.decode_to_utf8(black_box(&input), &mut out, true);
                    black_box((&mut out, had_errors));
                    Outcome { read, written }
                }))
            }
            DecodeCall::TextDecoder | DecodeCall::DecodeReader | DecodeCall::TextDecoderStream => None,
        };
        runner
    }};
}

/// A runner doing `$call` (an [`EncodeCall`]) on `$input` (an `Rc<str>`) with `$enc`, or
/// `None` for `TextEncoder`.
macro_rules! api_encode {
    ($call:expr, $enc:expr, $input:expr) => {{
        let enc = $enc;
        let input: Rc<str> = Rc::clone($input);
        let runner: Option<Runner> = match $call {
            EncodeCall::Encode => Some(Box::new(move || {
                let (bytes, used, had_unmappables) = enc.encode(black_box(&input));
                let written = black_box(bytes).len();
                black_box((used, had_unmappables));
                Outcome {
                    read: input.len(),
                    written,
                }
            })),
            EncodeCall::ToVec => {
                let size = enc
                    .new_encoder()
                    .max_buffer_length_from_utf8_if_no_unmappables(input.len())
                    .expect("output size fits in usize");
                let mut out = Vec::with_capacity(size);
                Some(Box::new(move || {
                    out.clear();
                    let mut encoder = enc.new_encoder();
                    let (_, read, had_unmappables) =
                        encoder.encode_from_utf8_to_vec(black_box(&input), &mut out, true);
                    black_box((&mut out, had_unmappables));
                    Outcome {
                        read,
                        written: out.len(),
                    }
                }))
            }
            EncodeCall::ToVecNoRepl => {
                let size = enc
                    .new_encoder()
                    .max_buffer_length_from_utf8_without_replacement(input.len())
                    .expect("output size fits in usize");
                let mut out = Vec::with_capacity(size);
                Some(Box::new(move || {
                    out.clear();
                    let mut encoder = enc.new_encoder();
                    let (_, read) = encoder.encode_from_utf8_to_vec_without_replacement(
                        black_box(&input),
                        &mut out,
                        true,
                    );
                    black_box(&mut out);
                    Outcome {
                        read,
                        written: out.len(),
                    }
                }))
            }
            EncodeCall::Slice => {
                // Room for every character as `&#N;` (at most 3.5 bytes per input byte).
                let mut out = vec![0u8; input.len() * 4 + 16];
                Some(Box::new(move || {
                    let mut encoder = enc.new_encoder();
                    let (_, read, written, had_unmappables) =
                        encoder.encode_from_utf8(black_box(&input), &mut out, true);
                    black_box((&mut out, had_unmappables));
                    Outcome { read, written }
                }))
            }
            EncodeCall::TextEncoder | EncodeCall::EncodeWriter => None,
        };
        runner
    }};
}

#[cfg(feature = "peers")]
pub(super) use {api_decode, api_encode};

/// simdenc's runner for a decode call.
pub fn decode_runner(call: DecodeCall, enc: &'static Encoding, input: &Rc<[u8]>) -> Runner {
    match call {
        DecodeCall::TextDecoder => {
            let input = Rc::clone(input);
            let label = enc.name();
            Box::new(move || {
                let mut decoder =
                    simdenc::text::TextDecoder::new(label).expect("an encoding's name is a label");
                let text = decoder
                    .decode(black_box(&input), false)
                    .expect("a TextDecoder that is not fatal does not fail");
                let written = black_box(text).len();
                Outcome {
                    read: input.len(),
                    written,
                }
            })
        }
        DecodeCall::DecodeReader => {
            let input = Rc::clone(input);
            let size = enc
                .new_decoder()
                .max_utf8_buffer_length(input.len())
                .expect("output size fits in usize");
            let mut out = String::with_capacity(size);
            Box::new(move || {
                out.clear();
                let mut reader = simdenc::io::DecodeReader::new(black_box(&input[..]), enc);
                let ok = reader.read_to_string(&mut out).is_ok();
                black_box(&mut out);
                // What the reader consumed, or nothing if it failed (the harness reports that).
                let read = if ok {
                    usize::try_from(reader.position()).unwrap_or(0)
                } else {
                    0
                };
                Outcome {
                    read,
                    written: out.len(),
                }
            })
        }
        DecodeCall::TextDecoderStream => {
            let input = Rc::clone(input);
            let label = enc.name();
            Box::new(move || {
                let mut stream =
                    simdenc::text::TextDecoderStream::new(label).expect("an encoding's name is a label");
                let mut written = 0;
                for chunk in black_box(&input).chunks(STREAM_CHUNK) {
                    let text = stream
                        .transform(chunk)
                        .expect("a TextDecoderStream that is not fatal does not fail");
                    written += black_box(text).len();
                }
                written += black_box(stream.flush().expect("not fatal")).len();
                Outcome {
                    read: input.len(),
                    written,
                }
            })
        }
        _ => api_decode!(call, enc, input).expect("a call encoding_rs has too"),
    }
}

/// simdenc's runner for an encode call.
pub fn encode_runner(call: EncodeCall, enc: &'static Encoding, input: &Rc<str>) -> Runner {
    match call {
        EncodeCall::TextEncoder => {
            let input = Rc::clone(input);
            Box::new(move || {
                let bytes = simdenc::text::TextEncoder::new().encode(black_box(&input));
                let written = black_box(bytes).len();
                Outcome {
                    read: input.len(),
                    written,
                }
            })
        }
        EncodeCall::EncodeWriter => {
            let input = Rc::clone(input);
            let mut out = Vec::with_capacity(4 * input.len());
            Box::new(move || {
                out.clear();
                let mut writer = simdenc::io::EncodeWriter::new(core::mem::take(&mut out), enc);
                let ok = writer.write_all(black_box(input.as_bytes())).is_ok();
                let result = writer.finish();
                out = black_box(result.unwrap_or_default());
                Outcome {
                    read: if ok { input.len() } else { 0 },
                    written: out.len(),
                }
            })
        }
        _ => api_encode!(call, enc, input).expect("a call encoding_rs has too"),
    }
}
