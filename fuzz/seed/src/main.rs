//! Writes the seed corpora of the fuzz targets into `fuzz/corpus/<target>/` (which is not
//! committed): pieces of a few hundred bytes of the bundled texts (`data/corpus`, UTF-8),
//! encoded into every encoding with simdenc's own encoders (UTF-16BE/LE by hand), and the
//! byte and string literals of the standard's test vectors (`tests/spec_standard.rs`), each
//! behind the 8-byte control header that the targets read (see `fuzz/src/lib.rs`).
//!
//! Usage: `cargo run --release --manifest-path fuzz/seed/Cargo.toml` from anywhere; the
//! paths are found from this crate's directory. Deterministic: the same files each time.
#![forbid(unsafe_code)]

use std::fs;
use std::path::{Path, PathBuf};

use simdenc::{Encoding, UTF_16BE, UTF_16LE};

/// Deterministic xorshift for the header bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn byte(&mut self) -> u8 {
        self.next() as u8
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The seed files of one target.
struct Corpus {
    dir: PathBuf,
    count: usize,
}

impl Corpus {
    fn new(root: &Path, target: &str) -> Corpus {
        let dir = root.join("corpus").join(target);
        fs::create_dir_all(&dir).expect("create the corpus directory");
        Corpus { dir, count: 0 }
    }

    /// Writes `header` + `payload` as the next seed.
    fn add(&mut self, header: [u8; 8], payload: &[u8]) {
        let mut data = header.to_vec();
        data.extend_from_slice(payload);
        self.add_raw(&data);
    }

    /// Writes `data` as the next seed (targets without a header).
    fn add_raw(&mut self, data: &[u8]) {
        fs::write(self.dir.join(format!("seed-{:05}", self.count)), data).expect("write a seed");
        self.count += 1;
    }
}

/// `text` cut into pieces of about `size` bytes at char boundaries (at most `max`).
fn pieces(text: &str, size: usize, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() && out.len() < max {
        let mut end = (start + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        // Skip ahead so that pieces come from all over the text.
        start = end + (text.len() / max.max(1)).saturating_sub(size);
        while start < text.len() && !text.is_char_boundary(start) {
            start += 1;
        }
    }
    out
}

/// The bytes of `text` in `encoding` (html mode for unmappables; UTF-16 by hand).
fn encoded(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let be = encoding == UTF_16BE;
        return text
            .encode_utf16()
            .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
            .collect();
    }
    encoding.encode(text).0.into_owned()
}

/// The language whose text suits `encoding` (the pairings of data/corpus/README.md).
fn language(encoding: &'static Encoding) -> Option<&'static str> {
    Some(match encoding.name() {
        "windows-1250" | "ISO-8859-2" => "cs",
        "windows-1251" | "KOI8-R" | "KOI8-U" | "IBM866" | "ISO-8859-5" | "x-mac-cyrillic" => "ru",
        "windows-1253" | "ISO-8859-7" => "el",
        "windows-1254" => "tr",
        "windows-1255" | "ISO-8859-8" | "ISO-8859-8-I" => "he",
        "windows-1256" | "ISO-8859-6" => "ar",
        "windows-1258" => "vi",
        "windows-874" => "th",
        "Shift_JIS" | "EUC-JP" | "ISO-2022-JP" => "ja",
        "gb18030" | "GBK" => "zh_cn",
        "Big5" => "zh_tw",
        "EUC-KR" => "ko",
        "windows-1252" | "ISO-8859-15" | "macintosh" => "fr",
        _ => return None,
    })
}

/// The `b"..."` (bytes) and `"..."` (text) literals of a Rust source file, unescaped.
fn literals(source: &str) -> (Vec<Vec<u8>>, Vec<String>) {
    let (mut bytes, mut texts) = (Vec::new(), Vec::new());
    let s = source.as_bytes();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'/' && s.get(i + 1) == Some(&b'/') {
            while i < s.len() && s[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if s[i] == b'\'' {
            // A char literal such as '"' or '\''; skip it (lifetimes have no closing quote
            // within three bytes and are skipped one byte at a time).
            if let Some(close) = s[i + 1..].iter().take(12).position(|&b| b == b'\'') {
                let inner = &s[i + 1..i + 1 + close];
                if close > 0 && (inner[0] == b'\\' || inner.len() <= 4) {
                    i += close + 2;
                    continue;
                }
            }
            i += 1;
            continue;
        }
        if s[i] != b'"' {
            i += 1;
            continue;
        }
        let is_bytes = i > 0 && s[i - 1] == b'b' && !(i > 1 && s[i - 2].is_ascii_alphanumeric());
        let mut out = Vec::new();
        let mut j = i + 1;
        let mut ok = true;
        while j < s.len() && s[j] != b'"' {
            if s[j] != b'\\' {
                out.push(s[j]);
                j += 1;
                continue;
            }
            j += 1;
            match s.get(j) {
                Some(b'x') => {
                    let hex = std::str::from_utf8(&s[j + 1..(j + 3).min(s.len())]).unwrap_or("");
                    match u8::from_str_radix(hex, 16) {
                        Ok(b) if is_bytes || b < 0x80 => out.push(b),
                        _ => ok = false,
                    }
                    j += 3;
                }
                Some(b'u') => {
                    let close = s[j..].iter().position(|&b| b == b'}').unwrap_or(0);
                    let hex = std::str::from_utf8(&s[j + 2..j + close]).unwrap_or("");
                    match u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                        Some(c) => out.extend_from_slice(c.to_string().as_bytes()),
                        None => ok = false,
                    }
                    j += close + 1;
                }
                Some(&c) => {
                    out.push(match c {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        b'0' => 0,
                        b'\n' => {
                            // Line continuation: skip the newline and leading whitespace.
                            j += 1;
                            while j < s.len() && s[j].is_ascii_whitespace() {
                                j += 1;
                            }
                            continue;
                        }
                        other => other,
                    });
                    j += 1;
                }
                None => ok = false,
            }
        }
        if ok && !out.is_empty() {
            if is_bytes {
                bytes.push(out);
            } else if let Ok(text) = String::from_utf8(out) {
                texts.push(text);
            }
        }
        i = j + 1;
    }
    (bytes, texts)
}

/// Chinese text with words of Arabic, Thai and Hebrew text in it (four-byte sequences in
/// gb18030), in a few pieces.
fn mixed_scripts(texts: &[(String, String)], rng: &mut Rng) -> Vec<String> {
    let text = |name: &str| {
        texts
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, t)| t.as_str())
    };
    let words = |name: &str| -> Vec<&str> { text(name).split_whitespace().take(200).collect() };
    let (zh, others) = (text("zh_cn"), [words("ar"), words("th"), words("he")]);
    let mut out = Vec::new();
    for piece in pieces(zh, 150, 4) {
        let mut mixed = String::new();
        for (i, c) in piece.chars().enumerate() {
            mixed.push(c);
            if i % 17 == 0 {
                let script = &others[rng.below(others.len())];
                if !script.is_empty() {
                    mixed.push(' ');
                    mixed.push_str(script[rng.below(script.len())]);
                    mixed.push(' ');
                }
            }
        }
        out.push(mixed);
    }
    out
}

fn main() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fuzz/")
        .to_path_buf();
    let repo = fuzz.parent().expect("the repository").to_path_buf();
    let mut texts: Vec<(String, String)> = Vec::new();
    for dir in ["wikipedia", "lipsum"] {
        let mut files: Vec<PathBuf> = fs::read_dir(repo.join("data/corpus").join(dir))
            .expect("data/corpus")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "txt") && !p.ends_with("sources.txt"))
            .collect();
        files.sort();
        for file in files {
            let stem = file.file_stem().expect("a name").to_string_lossy().into_owned();
            texts.push((stem, fs::read_to_string(&file).expect("UTF-8 text")));
        }
    }
    let vectors = fs::read_to_string(repo.join("tests/spec_standard.rs")).expect("tests/spec_standard.rs");
    let (byte_vectors, text_vectors) = literals(&vectors);
    let mut rng = Rng(0x5EED_F022);
    let header = |rng: &mut Rng, first: u8| {
        let mut h = [0u8; 8];
        h[0] = first;
        for b in &mut h[1..] {
            *b = rng.byte();
        }
        h
    };
    let all = Encoding::all();
    let text_for = |rng: &mut Rng, enc: &'static Encoding| -> &str {
        let wanted = language(enc);
        let candidates: Vec<&(String, String)> = texts
            .iter()
            .filter(|(name, _)| wanted.is_none_or(|l| name == l))
            .collect();
        &candidates[rng.below(candidates.len())].1
    };

    // decode and encode: text pieces in every encoding, and the test vectors.
    let mut decode = Corpus::new(&fuzz, "decode");
    let mut encode = Corpus::new(&fuzz, "encode");
    for (index, &enc) in all.iter().enumerate() {
        let text = text_for(&mut rng, enc).to_owned();
        for piece in pieces(&text, 200 + rng.below(200), 6) {
            decode.add(header(&mut rng, index as u8), &encoded(piece, enc));
        }
        for piece in pieces(&text, 100 + rng.below(200), 3) {
            encode.add(header(&mut rng, index as u8), piece.as_bytes());
        }
    }
    // gb18030 and GBK with scripts they encode in four bytes (Arabic, Thai, Hebrew) amid
    // Chinese, as in the Chinese Wikipedia page's links to other languages.
    let mixed = mixed_scripts(&texts, &mut rng);
    for (index, &enc) in all.iter().enumerate() {
        if enc == simdenc::GB18030 || enc == simdenc::GBK {
            for piece in &mixed {
                decode.add(header(&mut rng, index as u8), &encoded(piece, enc));
            }
        }
    }
    for vector in &byte_vectors {
        for _ in 0..2 {
            let index = rng.below(all.len()) as u8;
            decode.add(header(&mut rng, index), vector);
        }
    }
    for vector in &text_vectors {
        let index = rng.below(all.len()) as u8;
        encode.add(header(&mut rng, index), vector.as_bytes());
    }

    // text_api: [0] selects the interface (mod 4), [1] the encoding of the label.
    let mut text_api = Corpus::new(&fuzz, "text_api");
    for op in 0..4u8 {
        for _ in 0..24 {
            let index = rng.below(all.len());
            let enc = all[index];
            let text = text_for(&mut rng, enc).to_owned();
            let all_pieces = pieces(&text, 100 + rng.below(300), 8);
            let piece = all_pieces[rng.below(all_pieces.len())];
            let payload = if op < 2 {
                encoded(piece, enc)
            } else {
                piece.as_bytes().to_vec()
            };
            let mut h = header(&mut rng, op);
            h[1] = index as u8;
            text_api.add(h, &payload);
        }
    }
    for vector in byte_vectors.iter().take(60) {
        let op = rng.below(2) as u8;
        let mut h = header(&mut rng, op);
        h[1] = rng.below(all.len()) as u8;
        text_api.add(h, vector);
    }

    // labels: every label as is, and selectors for each of them.
    let mut labels = Corpus::new(&fuzz, "labels");
    for (index, &enc) in all.iter().enumerate() {
        for (i, label) in enc.labels().iter().enumerate() {
            labels.add(*b"        ", label.as_bytes());
            let mut h = [0u8; 8];
            h[0] = index as u8;
            h[1] = i as u8;
            labels.add(h, b"\x01\x01\x01\x01\x01\x01\x01\x01\x01");
        }
    }
    for bom in [
        &b"\xEF\xBB\xBF"[..],
        b"\xFE\xFF",
        b"\xFF\xFE",
        b"\xEF\xBB",
        b"\xFE",
    ] {
        labels.add(*b"        ", bom);
    }

    // http: Content-Type header values separated by 0xFF, no header: the shapes of real
    // headers and of Fetch's examples, with every encoding's name as a charset.
    let mut http = Corpus::new(&fuzz, "http");
    let shapes: [&[u8]; 12] = [
        b"text/html; charset=%",
        b"text/plain;charset=\"%\"",
        b"TEXT/HTML ; CHARSET = %",
        b"text/html;charset=gbk;a=b, text/html;x=y",
        b"text/html;charset=%\xFFtext/html",
        b"text/html;charset=%\xFFx/x\xFFtext/html;x=y",
        b"text/html\xFFcannot-parse",
        b"text/html\xFF*/*;charset=%",
        b"text/plain;charset=%, text/html",
        b"a/b; x=\"1,2\\\"3\"; charset=%",
        b"text/html;charset=\"%",
        b"multipart/form-data; boundary=\"x;charset=%\"; charset=%",
    ];
    for (i, &enc) in all.iter().enumerate() {
        let shape = shapes[i % shapes.len()];
        let name = enc.name().as_bytes();
        let mut seed = Vec::new();
        for &b in shape {
            if b == b'%' {
                seed.extend_from_slice(name);
            } else {
                seed.push(b);
            }
        }
        http.add_raw(&seed);
    }

    // sniff: [0] is where the streaming form's input is cut; then documents with every kind
    // of declaration the prescan reads, each with every encoding's name.
    let mut sniff = Corpus::new(&fuzz, "sniff");
    let documents: [&[u8]; 10] = [
        b"<!doctype html><meta charset=\"%\"><p>x",
        b"<meta http-equiv=Content-Type content='text/html; charset=%'>",
        b"<!-- <meta charset=gbk> --><META CHARSET=%>",
        b"<a title='<meta charset=big5>'><meta/charset=%/>",
        b"<?xml version=\"1.0\" encoding=\"%\"?><r/>",
        b"<meta content=\"charset=%\" http-equiv=\"content-type\">",
        b"</p <meta charset=%><? x ?><!x><meta charset=%>",
        b"<meta charset=bogus charset=%><meta charset=%>",
        b"\xEF\xBB\xBF<meta charset=%>",
        b"<\0?\0x\0m\0l\0",
    ];
    for (i, &enc) in all.iter().enumerate() {
        let document = documents[i % documents.len()];
        let mut seed = vec![(i * 7) as u8];
        for &b in document {
            if b == b'%' {
                seed.extend_from_slice(enc.name().as_bytes());
            } else {
                seed.push(b);
            }
        }
        sniff.add_raw(&seed);
    }

    // mem: text pieces of every language as UTF-8, as UTF-16LE and as Latin1 (where it fits),
    // behind the header the target reads (`[0]` group, `[1]` level, `[2..4]` partial size).
    let mut mem = Corpus::new(&fuzz, "mem");
    for (_, text) in &texts {
        for piece in pieces(text, 40 + rng.below(300), 3) {
            mem.add(header(&mut rng, 0), piece.as_bytes());
            mem.add(header(&mut rng, 0), &encoded(piece, UTF_16LE));
            let latin1: Option<Vec<u8>> = piece.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect();
            if let Some(latin1) = latin1 {
                mem.add(header(&mut rng, 0), &latin1);
            }
        }
    }

    // kernels: [0] selects the kernel (mod 12); inputs are text in the kernel's input form.
    let mut kernels = Corpus::new(&fuzz, "kernels");
    for kernel in 0..12u8 {
        for _ in 0..8 {
            let (name, text) = &texts[rng.below(texts.len())];
            let all_pieces = pieces(text, 64 + rng.below(400), 8);
            let piece = all_pieces[rng.below(all_pieces.len())];
            let payload = match kernel {
                // UTF-16 bytes for the UTF-16 byte kernels (bit 0 of [3]: big-endian).
                10 | 11 => encoded(piece, if rng.below(2) == 0 { UTF_16LE } else { UTF_16BE }),
                // Single-byte text for the table kernels.
                8 | 9 => {
                    let enc = all
                        .iter()
                        .copied()
                        .find(|&e| e.is_single_byte() && language(e) == Some(name.as_str()))
                        .unwrap_or(simdenc::WINDOWS_1252);
                    encoded(piece, enc)
                }
                _ => piece.as_bytes().to_vec(),
            };
            let mut h = header(&mut rng, kernel);
            h[3] &= !2; // payload as text, not raw units
            kernels.add(h, &payload);
        }
    }
    // The CJK kernels (12, 13: pairs to UTF-8 and UTF-16, 14: UTF-16 units to pairs) with
    // each family's tables ([3] >> 2, the index in `cjk_tables`, as the target reads it) and
    // text in its encoding (12, 13) or as UTF-16 (14: the payload is text), gb18030's with
    // four-byte sequences too.
    let cjk: Vec<&'static Encoding> = simdenc::internals::cjk_tables()
        .iter()
        .map(|t| t.encoding())
        .collect();
    for kernel in 12..15u8 {
        for (index, &enc) in cjk.iter().enumerate() {
            let text = text_for(&mut rng, enc).to_owned();
            let mut chosen: Vec<String> = pieces(&text, 64 + rng.below(400), 4)
                .into_iter()
                .map(str::to_owned)
                .collect();
            if enc == simdenc::GB18030 || enc == simdenc::GBK {
                chosen.extend(mixed.iter().cloned());
            }
            for piece in chosen {
                let payload = if kernel == 14 {
                    piece.into_bytes()
                } else {
                    encoded(&piece, enc)
                };
                let mut h = header(&mut rng, kernel);
                h[3] = (index as u8) << 2 | (h[3] & 1);
                kernels.add(h, &payload);
            }
        }
    }
    println!(
        "seeds: decode {}, encode {}, text_api {}, labels {}, kernels {} (in {})",
        decode.count,
        encode.count,
        text_api.count,
        labels.count,
        kernels.count,
        fuzz.join("corpus").display()
    );
}
