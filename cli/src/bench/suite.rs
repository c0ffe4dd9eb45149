//! The fixed suite of `simdenc bench`: named workloads over the embedded corpus, each a
//! closure that converts its whole input once through simdenc's public API, plus the same
//! work done by the peers (encoding_rs, simdutf, simdutf8, std) when built with `--features peers`.
//!
//! Every runner owns its input and a pre-allocated output buffer large enough for the whole
//! output, so a measured call converts and does not allocate (the decoder or encoder itself
//! lives on the stack); the exceptions are in the `api` group (module `api`), whose calls that
//! return a `Cow`, `String` or `Vec` allocate their output per call as users pay it, and the
//! two `Cow` functions of the `mem` group (module `mem`). Decoders
//! and encoders are created inside the call: they capture the active SIMD level when created,
//! which is how the harness measures each level (`simdenc::cpu::force`), and it is what a
//! caller with one buffer per request does.
//!
//! Workload names are `group/case` (`sb-decode/windows-1251/ru`, `api/decode/UTF-8/ru`,
//! `mem/is_str_bidi/ru`);
//! `--filter` matches them.

use std::hint::black_box;
use std::rc::Rc;

use simdenc::Encoding;

use super::api::{self, DecodeCall, EncodeCall};
use super::corpus::{self, LIPSUM, Pieces, TextPieces, UnitPieces};
use super::mem::{self, MemCall, MemInput};

/// One call of a workload: converts the whole input once and says how much it read and wrote.
pub type Runner = Box<dyn FnMut() -> Outcome>;

/// What one call of a runner did: input consumed and output produced (in the units of each
/// side: bytes or UTF-16 code units). The harness checks that every level of simdenc gives
/// the same outcome and that every implementation consumed the whole input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Input units consumed (for validation: the length of the valid prefix).
    pub read: usize,
    /// Output units written.
    pub written: usize,
}

/// Another implementation measured in the same run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// The encoding_rs crate (the Rust ecosystem's Encoding Standard implementation).
    EncodingRs,
    /// simdutf, the C++ library, through one of its kernels (UTF-8 validation, UTF-8 ↔ UTF-16,
    /// UTF-16LE/BE decode).
    Simdutf(SimdutfKernel),
    /// The simdutf8 crate (`basic::from_utf8`), UTF-8 validation only.
    Simdutf8,
    /// The standard library (`str::from_utf8`, `encode_utf16`, `char::decode_utf16`).
    Std,
}

impl Peer {
    /// Every peer, in the order of the table's columns.
    pub const ALL: [Peer; 8] = [
        Peer::EncodingRs,
        Peer::Simdutf(SimdutfKernel::Fallback),
        Peer::Simdutf(SimdutfKernel::Westmere),
        Peer::Simdutf(SimdutfKernel::Haswell),
        Peer::Simdutf(SimdutfKernel::Icelake),
        Peer::Simdutf(SimdutfKernel::Arm64),
        Peer::Simdutf8,
        Peer::Std,
    ];

    /// The column name.
    pub fn name(self) -> &'static str {
        match self {
            Peer::EncodingRs if cfg!(feature = "peers-firefox") => "encoding_rs (simd-accel)",
            Peer::EncodingRs => "encoding_rs",
            Peer::Simdutf(kernel) => kernel.column(),
            Peer::Simdutf8 => "simdutf8",
            Peer::Std => "std",
        }
    }

    /// Whether the peer's [`Outcome`] must equal simdenc's on every workload it does (not only
    /// consume the whole input): simdutf's conversions on the suite's valid inputs write
    /// exactly what simdenc writes.
    pub fn must_agree(self) -> bool {
        matches!(self, Peer::Simdutf(_))
    }
}

/// simdutf's implementations, by the names simdutf gives them, in the order of simdenc's
/// levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SimdutfKernel {
    /// Portable C++ (simdenc's `scalar`).
    Fallback,
    /// SSE4.2 (beside simdenc's `sse2`, the nearest simdutf has).
    Westmere,
    /// AVX2 (simdenc's `avx2`).
    Haswell,
    /// AVX-512 (simdenc's `avx512`).
    Icelake,
    /// NEON (simdenc's `neon`).
    Arm64,
}

impl SimdutfKernel {
    /// simdutf's kernel for the instruction set of simdenc's `level`.
    pub fn for_level(level: simdenc::cpu::Level) -> SimdutfKernel {
        use simdenc::cpu::Level;
        match level {
            Level::Scalar => SimdutfKernel::Fallback,
            Level::Sse2 => SimdutfKernel::Westmere,
            Level::Avx2 => SimdutfKernel::Haswell,
            Level::Avx512 => SimdutfKernel::Icelake,
            Level::Neon => SimdutfKernel::Arm64,
        }
    }

    /// simdutf's name for it (what `get_available_implementations()[name]` and
    /// `SIMDUTF_FORCE_IMPLEMENTATION` take).
    #[cfg_attr(not(feature = "peers"), allow(dead_code))]
    pub fn name(self) -> &'static str {
        match self {
            SimdutfKernel::Fallback => "fallback",
            SimdutfKernel::Westmere => "westmere",
            SimdutfKernel::Haswell => "haswell",
            SimdutfKernel::Icelake => "icelake",
            SimdutfKernel::Arm64 => "arm64",
        }
    }

    /// The table's column for it.
    pub fn column(self) -> &'static str {
        match self {
            SimdutfKernel::Fallback => "simdutf-fallback",
            SimdutfKernel::Westmere => "simdutf-westmere",
            SimdutfKernel::Haswell => "simdutf-haswell",
            SimdutfKernel::Icelake => "simdutf-icelake",
            SimdutfKernel::Arm64 => "simdutf-arm64",
        }
    }
}

/// A family of workloads: a name prefix and a title for the table and the chart.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    /// The prefix of the workloads' names.
    pub slug: &'static str,
    /// The heading in tables and charts.
    pub title: &'static str,
}

const UTF8_VALIDATE: Group = Group {
    slug: "utf8-validate",
    title: "UTF-8 validation (Unicode lipsum)",
};
const UTF8_TO_UTF8: Group = Group {
    slug: "utf8-to-utf8",
    title: "UTF-8 → UTF-8 decode: validate and copy (lipsum)",
};
const UTF8_TO_UTF16: Group = Group {
    slug: "utf8-to-utf16",
    title: "UTF-8 → UTF-16 decode (lipsum)",
};
const UTF16_TO_UTF8: Group = Group {
    slug: "utf16-to-utf8",
    title: "UTF-16 → UTF-8 encode from &[u16] (lipsum)",
};
const UTF16_DECODE: Group = Group {
    slug: "utf16-decode",
    title: "UTF-16LE/BE bytes decode (Wikipedia ru)",
};
const SB_DECODE: Group = Group {
    slug: "sb-decode",
    title: "single-byte decode → UTF-8 (Wikipedia)",
};
const SB_DECODE16: Group = Group {
    slug: "sb-decode16",
    title: "single-byte decode → UTF-16 (Wikipedia)",
};
const SB_ENCODE: Group = Group {
    slug: "sb-encode",
    title: "single-byte encode from UTF-8 (Wikipedia)",
};
const CJK_DECODE: Group = Group {
    slug: "cjk-decode",
    title: "CJK decode → UTF-8 (Wikipedia)",
};
const CJK_HTML: Group = Group {
    slug: "cjk-html",
    title: "CJK decode of whole HTML pages → UTF-8 (Wikipedia)",
};
const CJK_HTML16: Group = Group {
    slug: "cjk-html16",
    title: "CJK decode of whole HTML pages → UTF-16 (Wikipedia)",
};
const CJK_ENCODE: Group = Group {
    slug: "cjk-encode",
    title: "CJK encode from UTF-8 (Wikipedia)",
};
const SMALL_16: Group = Group {
    slug: "small16",
    title: "16-byte inputs, a fresh decoder or encoder for each (Wikipedia)",
};
const SMALL_64: Group = Group {
    slug: "small64",
    title: "64-byte inputs, a fresh decoder or encoder for each (Wikipedia)",
};

/// Single-byte encodings and the language whose text is used for each.
const SINGLE_BYTE: [(&str, &Encoding); 6] = [
    ("de", simdenc::WINDOWS_1252),
    ("ru", simdenc::WINDOWS_1251),
    ("el", simdenc::WINDOWS_1253),
    ("he", simdenc::WINDOWS_1255),
    ("ar", simdenc::WINDOWS_1256),
    ("th", simdenc::WINDOWS_874),
];

/// CJK encodings and the language whose text is used for each; `false`: encode only (the
/// GBK decoder is the gb18030 decoder).
const CJK: [(&str, &Encoding, bool); 7] = [
    ("ja", simdenc::SHIFT_JIS, true),
    ("ja", simdenc::EUC_JP, true),
    ("ja", simdenc::ISO_2022_JP, true),
    ("zh_cn", simdenc::GB18030, true),
    ("zh_cn", simdenc::GBK, false),
    ("zh_tw", simdenc::BIG5, true),
    ("ko", simdenc::EUC_KR, true),
];

/// What a workload does, with its input. simdenc's runner and the peers' are made from this.
pub enum Work {
    /// `Encoding::utf8_valid_up_to` on UTF-8.
    Validate(Rc<[u8]>),
    /// Decode bytes in an encoding to UTF-8.
    DecodeToUtf8(&'static Encoding, Rc<[u8]>),
    /// Decode bytes in an encoding to UTF-16.
    DecodeToUtf16(&'static Encoding, Rc<[u8]>),
    /// Encode UTF-8 into an encoding.
    EncodeFromUtf8(&'static Encoding, Rc<str>),
    /// Encode UTF-16 code units into UTF-8.
    EncodeUtf16ToUtf8(Rc<[u16]>),
    /// Validate many small UTF-8 inputs one by one.
    SmallValidate(Rc<Pieces>),
    /// Decode many small inputs one by one to UTF-8, a fresh decoder for each.
    SmallDecodeToUtf8(&'static Encoding, Rc<Pieces>),
    /// Decode many small inputs one by one to UTF-16, a fresh decoder for each.
    SmallDecodeToUtf16(&'static Encoding, Rc<Pieces>),
    /// Encode many small UTF-8 texts one by one, a fresh encoder for each.
    SmallEncodeFromUtf8(&'static Encoding, Rc<TextPieces>),
    /// Encode many small UTF-16 inputs one by one, a fresh encoder for each.
    SmallEncodeFromUtf16(&'static Encoding, Rc<UnitPieces>),
    /// A public decoding entry point (the `api` group) on bytes in an encoding.
    ApiDecode(DecodeCall, &'static Encoding, Rc<[u8]>),
    /// A public encoding entry point (the `api` group) on UTF-8 text.
    ApiEncode(EncodeCall, &'static Encoding, Rc<str>),
    /// A function of `simdenc::mem` (the `mem` group) on its input.
    Mem(MemCall, MemInput),
}

impl Work {
    /// Bytes of input per call.
    pub fn input_bytes(&self) -> usize {
        match self {
            Work::EncodeUtf16ToUtf8(units) => units.len() * 2,
            Work::SmallEncodeFromUtf16(_, p) => p.units.len() * 2,
            Work::Mem(_, input) => input.bytes(),
            _ => self.input_units(),
        }
    }

    /// Input units one call consumes: bytes, or code units for UTF-16 input.
    pub fn input_units(&self) -> usize {
        match self {
            Work::Validate(b)
            | Work::DecodeToUtf8(_, b)
            | Work::DecodeToUtf16(_, b)
            | Work::ApiDecode(_, _, b) => b.len(),
            Work::EncodeFromUtf8(_, s) | Work::ApiEncode(_, _, s) => s.len(),
            Work::EncodeUtf16ToUtf8(units) => units.len(),
            Work::SmallValidate(p) | Work::SmallDecodeToUtf8(_, p) | Work::SmallDecodeToUtf16(_, p) => {
                p.bytes.len()
            }
            Work::SmallEncodeFromUtf8(_, p) => p.text.len(),
            Work::SmallEncodeFromUtf16(_, p) => p.units.len(),
            Work::Mem(_, input) => input.units(),
        }
    }

    /// Whether the peers must give the same [`Outcome`] as simdenc (not only consume the
    /// whole input): the `mem` group's functions, whose answers and output lengths
    /// encoding_rs documents exactly as simdenc does.
    pub fn peers_must_agree(&self) -> bool {
        matches!(self, Work::Mem(..))
    }
}

/// One named workload, ready to run.
pub struct Workload {
    /// `group/case`.
    pub name: String,
    /// The group it belongs to.
    pub group: Group,
    /// What it does, on which input.
    pub work: Work,
    /// The workload done by simdenc, at whatever level is active when it is called.
    pub simdenc: Runner,
    /// The same work done by other implementations (empty without `--features peers`).
    pub peers: Vec<(Peer, Runner)>,
}

/// Collects the workloads whose names pass a filter; the others are named but not built.
pub struct Builder<'a> {
    keep: &'a dyn Fn(&str) -> bool,
    levels: &'a [simdenc::cpu::Level],
    names: Vec<(String, Group)>,
    workloads: Vec<Workload>,
}

impl Builder<'_> {
    /// Names the workload `group.slug/case` and, if the filter keeps it, builds it.
    pub fn add(&mut self, group: Group, case: &str, make: impl FnOnce() -> Work) {
        let name = format!("{}/{case}", group.slug);
        self.names.push((name.clone(), group));
        if (self.keep)(&name) {
            let work = make();
            let simdenc = runner(&work);
            let peers = peer_runners(&work, self.levels);
            self.workloads.push(Workload {
                name,
                group,
                work,
                simdenc,
                peers,
            });
        }
    }
}

/// The suite: every workload's name and group, and the workloads whose names `keep` accepts,
/// built (inputs made, buffers allocated), with the peers for `levels` (simdutf's kernel for
/// each).
pub fn build(
    keep: &dyn Fn(&str) -> bool,
    levels: &[simdenc::cpu::Level],
) -> (Vec<(String, Group)>, Vec<Workload>) {
    let mut b = Builder {
        keep,
        levels,
        names: Vec::new(),
        workloads: Vec::new(),
    };
    let bytes = |text: &str| -> Rc<[u8]> { text.as_bytes().into() };
    for (case, text) in LIPSUM {
        b.add(UTF8_VALIDATE, case, || Work::Validate(bytes(text)));
    }
    for (case, text) in LIPSUM {
        b.add(UTF8_TO_UTF8, case, || {
            Work::DecodeToUtf8(simdenc::UTF_8, bytes(text))
        });
    }
    for (case, text) in LIPSUM {
        b.add(UTF8_TO_UTF16, case, || {
            Work::DecodeToUtf16(simdenc::UTF_8, bytes(text))
        });
    }
    for (case, text) in LIPSUM {
        b.add(UTF16_TO_UTF8, case, || {
            Work::EncodeUtf16ToUtf8(text.encode_utf16().collect())
        });
    }
    let ru = corpus::wikipedia("ru");
    for (enc, order) in [(simdenc::UTF_16LE, "le"), (simdenc::UTF_16BE, "be")] {
        b.add(UTF16_DECODE, &format!("{order}-to-utf8/ru"), || {
            Work::DecodeToUtf8(enc, corpus::encode(ru, enc).into())
        });
        b.add(UTF16_DECODE, &format!("{order}-to-utf16/ru"), || {
            Work::DecodeToUtf16(enc, corpus::encode(ru, enc).into())
        });
    }
    let legacy = |lang: &str, enc| -> Rc<[u8]> { corpus::encode(corpus::wikipedia(lang), enc).into() };
    for (lang, enc) in SINGLE_BYTE {
        b.add(SB_DECODE, &format!("{}/{lang}", enc.name()), || {
            Work::DecodeToUtf8(enc, legacy(lang, enc))
        });
    }
    for (lang, enc) in SINGLE_BYTE {
        b.add(SB_DECODE16, &format!("{}/{lang}", enc.name()), || {
            Work::DecodeToUtf16(enc, legacy(lang, enc))
        });
    }
    for (lang, enc) in SINGLE_BYTE {
        b.add(SB_ENCODE, &format!("{}/{lang}", enc.name()), || {
            Work::EncodeFromUtf8(enc, corpus::wikipedia(lang).into())
        });
    }
    for (lang, enc, decode) in CJK {
        if decode {
            b.add(CJK_DECODE, &format!("{}/{lang}", enc.name()), || {
                Work::DecodeToUtf8(enc, legacy(lang, enc))
            });
        }
    }
    let page = |lang: &str, enc| -> Rc<[u8]> { corpus::encode(corpus::wikipedia_html(lang), enc).into() };
    for (lang, enc, decode) in CJK {
        if decode && enc != simdenc::ISO_2022_JP {
            b.add(CJK_HTML, &format!("{}/{lang}", enc.name()), || {
                Work::DecodeToUtf8(enc, page(lang, enc))
            });
        }
    }
    for (lang, enc, decode) in CJK {
        if decode && enc != simdenc::ISO_2022_JP {
            b.add(CJK_HTML16, &format!("{}/{lang}", enc.name()), || {
                Work::DecodeToUtf16(enc, page(lang, enc))
            });
        }
    }
    for (lang, enc, _) in CJK {
        b.add(CJK_ENCODE, &format!("{}/{lang}", enc.name()), || {
            Work::EncodeFromUtf8(enc, corpus::wikipedia(lang).into())
        });
    }
    let ja = corpus::wikipedia("ja");
    for (group, size) in [(SMALL_16, 16), (SMALL_64, 64)] {
        b.add(group, "utf8-validate/ru", || {
            Work::SmallValidate(corpus::pieces(ru, simdenc::UTF_8, size).into())
        });
        for (enc, text, case) in [
            (simdenc::UTF_8, ru, "utf8-to-utf8/ru"),
            (simdenc::WINDOWS_1251, ru, "windows-1251-to-utf8/ru"),
            (simdenc::SHIFT_JIS, ja, "Shift_JIS-to-utf8/ja"),
        ] {
            b.add(group, case, || {
                Work::SmallDecodeToUtf8(enc, corpus::pieces(text, enc, size).into())
            });
        }
        b.add(group, "utf8-to-utf16/ru", || {
            Work::SmallDecodeToUtf16(simdenc::UTF_8, corpus::pieces(ru, simdenc::UTF_8, size).into())
        });
        for (enc, case) in [
            (simdenc::UTF_8, "utf16-to-utf8/ru"),
            (simdenc::WINDOWS_1251, "utf16-to-windows-1251/ru"),
        ] {
            b.add(group, case, || {
                Work::SmallEncodeFromUtf16(enc, UnitPieces::new(ru, size).into())
            });
        }
        for (enc, text, case) in [
            (simdenc::WINDOWS_1251, ru, "utf8-to-windows-1251/ru"),
            (simdenc::SHIFT_JIS, ja, "utf8-to-Shift_JIS/ja"),
        ] {
            b.add(group, case, || {
                Work::SmallEncodeFromUtf8(enc, TextPieces::new(text, size).into())
            });
        }
    }
    api::add(&mut b);
    mem::add(&mut b);
    (b.names, b.workloads)
}

/// A runner decoding `$input` (an `Rc<[u8]>`) to UTF-8 with a fresh decoder of `$enc` (a
/// simdenc or encoding_rs `&'static Encoding`: their APIs are the same) per call.
macro_rules! decode_to_utf8 {
    ($enc:expr, $input:expr) => {{
        let enc = $enc;
        let input: Rc<[u8]> = Rc::clone($input);
        let size = enc
            .new_decoder_without_bom_handling()
            .max_utf8_buffer_length(input.len())
            .expect("output size fits in usize");
        let mut out = vec![0u8; size];
        Box::new(move || {
            let mut decoder = enc.new_decoder_without_bom_handling();
            let (_, read, written, _) = decoder.decode_to_utf8(black_box(&input), &mut out, true);
            black_box(&mut out);
            Outcome { read, written }
        }) as Runner
    }};
}

/// As [`decode_to_utf8`], into UTF-16.
macro_rules! decode_to_utf16 {
    ($enc:expr, $input:expr) => {{
        let enc = $enc;
        let input: Rc<[u8]> = Rc::clone($input);
        let size = enc
            .new_decoder_without_bom_handling()
            .max_utf16_buffer_length(input.len())
            .expect("output size fits in usize");
        let mut out = vec![0u16; size];
        Box::new(move || {
            let mut decoder = enc.new_decoder_without_bom_handling();
            let (_, read, written, _) = decoder.decode_to_utf16(black_box(&input), &mut out, true);
            black_box(&mut out);
            Outcome { read, written }
        }) as Runner
    }};
}

/// A runner encoding `$input` (an `Rc<str>`) with a fresh encoder of `$enc` per call. The
/// buffer has room for every character as `&#N;` (at most 3.5 bytes per input byte) and for
/// ISO-2022-JP's escape sequences (3 bytes before a 1-byte character at worst).
macro_rules! encode_from_utf8 {
    ($enc:expr, $input:expr) => {{
        let enc = $enc;
        let input: Rc<str> = Rc::clone($input);
        let mut out = vec![0u8; input.len() * 4 + 16];
        Box::new(move || {
            let mut encoder = enc.new_encoder();
            let (_, read, written, _) = encoder.encode_from_utf8(black_box(&input), &mut out, true);
            black_box(&mut out);
            Outcome { read, written }
        }) as Runner
    }};
}

/// A runner encoding `$input` (an `Rc<[u16]>`) to UTF-8 with a fresh encoder of `$utf8` per
/// call.
macro_rules! encode_utf16_to_utf8 {
    ($utf8:expr, $input:expr) => {{
        let utf8 = $utf8;
        let input: Rc<[u16]> = Rc::clone($input);
        let mut out = vec![0u8; input.len() * 3 + 16];
        Box::new(move || {
            let mut encoder = utf8.new_encoder();
            let (_, read, written, _) = encoder.encode_from_utf16(black_box(&input), &mut out, true);
            black_box(&mut out);
            Outcome { read, written }
        }) as Runner
    }};
}

/// A runner decoding each of `$input`'s pieces (an `Rc<Pieces>`) to UTF-8 with a fresh
/// decoder of `$enc`, as a server decodes many small requests.
macro_rules! small_decode_to_utf8 {
    ($enc:expr, $input:expr) => {{
        let enc = $enc;
        let input: Rc<Pieces> = Rc::clone($input);
        let mut out = vec![0u8; 4 * input.max_len() + 16];
        Box::new(move || {
            let mut total = Outcome { read: 0, written: 0 };
            for piece in input.iter() {
                let mut decoder = enc.new_decoder_without_bom_handling();
                let (_, read, written, _) = decoder.decode_to_utf8(black_box(piece), &mut out, true);
                black_box(&mut out);
                total.read += read;
                total.written += written;
            }
            total
        }) as Runner
    }};
}

/// As [`small_decode_to_utf8`], into UTF-16.
macro_rules! small_decode_to_utf16 {
    ($enc:expr, $input:expr) => {{
        let enc = $enc;
        let input: Rc<Pieces> = Rc::clone($input);
        let mut out = vec![0u16; 2 * input.max_len() + 16];
        Box::new(move || {
            let mut total = Outcome { read: 0, written: 0 };
            for piece in input.iter() {
                let mut decoder = enc.new_decoder_without_bom_handling();
                let (_, read, written, _) = decoder.decode_to_utf16(black_box(piece), &mut out, true);
                black_box(&mut out);
                total.read += read;
                total.written += written;
            }
            total
        }) as Runner
    }};
}

/// A runner encoding each of `$input`'s texts (an `Rc<TextPieces>`) with a fresh encoder of
/// `$enc` (room for every character as `&#N;`).
macro_rules! small_encode_from_utf8 {
    ($enc:expr, $input:expr) => {{
        let enc = $enc;
        let input: Rc<TextPieces> = Rc::clone($input);
        let mut out = vec![0u8; 4 * input.max_len() + 16];
        Box::new(move || {
            let mut total = Outcome { read: 0, written: 0 };
            for piece in input.iter() {
                let mut encoder = enc.new_encoder();
                let (_, read, written, _) = encoder.encode_from_utf8(black_box(piece), &mut out, true);
                black_box(&mut out);
                total.read += read;
                total.written += written;
            }
            total
        }) as Runner
    }};
}

/// A runner encoding each of `$input`'s UTF-16 inputs (an `Rc<UnitPieces>`) with a fresh
/// encoder of `$enc` (a simdenc or encoding_rs `&'static Encoding`).
macro_rules! small_encode_from_utf16 {
    ($enc:expr, $input:expr) => {{
        let enc = $enc;
        let input: Rc<UnitPieces> = Rc::clone($input);
        // At most 8 bytes a unit: `&#65535;` for an unmappable one, 10 for a pair's 2 units.
        let mut out = vec![0u8; 8 * input.max_len() + 16];
        Box::new(move || {
            let mut total = Outcome { read: 0, written: 0 };
            for piece in input.iter() {
                let mut encoder = enc.new_encoder();
                let (_, read, written, _) = encoder.encode_from_utf16(black_box(piece), &mut out, true);
                black_box(&mut out);
                total.read += read;
                total.written += written;
            }
            total
        }) as Runner
    }};
}

#[cfg(feature = "peers")]
pub(super) use {decode_to_utf8, decode_to_utf16, encode_from_utf8, encode_utf16_to_utf8};
#[cfg(feature = "peers")]
pub(super) use {
    small_decode_to_utf8, small_decode_to_utf16, small_encode_from_utf8, small_encode_from_utf16,
};

/// simdenc's runner for `work`.
fn runner(work: &Work) -> Runner {
    match work {
        Work::Validate(input) => {
            let input = Rc::clone(input);
            Box::new(move || Outcome {
                read: Encoding::utf8_valid_up_to(black_box(&input)),
                written: 0,
            })
        }
        Work::DecodeToUtf8(enc, input) => decode_to_utf8!(*enc, input),
        Work::DecodeToUtf16(enc, input) => decode_to_utf16!(*enc, input),
        Work::EncodeFromUtf8(enc, input) => encode_from_utf8!(*enc, input),
        Work::EncodeUtf16ToUtf8(input) => encode_utf16_to_utf8!(simdenc::UTF_8, input),
        Work::SmallValidate(input) => {
            let input = Rc::clone(input);
            Box::new(move || {
                let read = input
                    .iter()
                    .map(|piece| Encoding::utf8_valid_up_to(black_box(piece)))
                    .sum();
                Outcome { read, written: 0 }
            })
        }
        Work::SmallDecodeToUtf8(enc, input) => small_decode_to_utf8!(*enc, input),
        Work::SmallDecodeToUtf16(enc, input) => small_decode_to_utf16!(*enc, input),
        Work::SmallEncodeFromUtf8(enc, input) => small_encode_from_utf8!(*enc, input),
        Work::SmallEncodeFromUtf16(enc, input) => small_encode_from_utf16!(*enc, input),
        Work::ApiDecode(call, enc, input) => api::decode_runner(*call, enc, input),
        Work::ApiEncode(call, enc, input) => api::encode_runner(*call, enc, input),
        Work::Mem(call, input) => mem::runner(*call, input),
    }
}

/// The peers' runners for `work` (none without `--features peers`), simdutf's through its
/// kernel for each of `levels`.
fn peer_runners(work: &Work, levels: &[simdenc::cpu::Level]) -> Vec<(Peer, Runner)> {
    #[cfg(feature = "peers")]
    return super::peers::runners(work, levels);
    #[cfg(not(feature = "peers"))]
    {
        let _ = (work, levels);
        Vec::new()
    }
}
