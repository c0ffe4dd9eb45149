//! The Rust side of eval/detect (README.md there).
//!
//! `simdenc-detect-eval detect MANIFEST`: MANIFEST has one sample per line,
//! `path TAB kind(text|html) TAB bucket`; prints `path TAB detector TAB answer` for simdenc
//! and chardetng, then per bucket and detector `#speed TAB detector TAB bucket TAB bytes TAB
//! seconds` (the best of 5 passes over the bucket's samples).
//!
//! `simdenc-detect-eval score ANSWERS`: ANSWERS has `path TAB truth TAB detector TAB answer`
//! lines; prints each with `TAB 1` when the answer decodes the sample to the same text as the
//! truth (the standard's decoders, no BOM handling), else `TAB 0`.
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::time::Instant;

fn chardetng(bytes: &[u8]) -> &'static str {
    // As Firefox for a document without a declaration: the whole input, last = true, no
    // top-level domain, UTF-8 allowed.
    let mut d = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    d.feed(bytes, true);
    d.guess(None, chardetng::Utf8Detection::Allow).name()
}

fn simdenc(bytes: &[u8], html: bool) -> &'static str {
    let markup = if html {
        simdenc::detect::Markup::Html
    } else {
        simdenc::detect::Markup::Text
    };
    simdenc::detect::guess(bytes, markup).encoding.name()
}

/// The encoding a peer's answer names: a label of the standard, or a Python/ICU name.
fn encoding_for(answer: &str) -> Option<&'static simdenc::Encoding> {
    let a = answer.trim().to_ascii_lowercase().replace('_', "-");
    let alias = match a.as_str() {
        "ascii" => "windows-1252",
        "cp949" | "uhc" | "johab" => "euc-kr",
        "cp932" | "sjis" | "shift-jis-2004" | "shift-jisx0213" | "ms932" => "shift-jis",
        "euc-jis-2004" | "euc-jisx0213" => "euc-jp",
        "gb2312" | "hz-gb-2312" | "euc-cn" | "cp936" => "gbk",
        "big5hkscs" | "big5-hkscs" | "cp950" => "big5",
        "maccyrillic" | "mac-cyrillic" => "x-mac-cyrillic",
        "macroman" | "mac-roman" | "mac-latin2" => "macintosh",
        "tis-620" | "iso-8859-11" | "cp874" => "windows-874",
        "utf-16" | "utf-16le" => "utf-16le",
        "utf-8-sig" => "utf-8",
        "cp1250" | "cp1251" | "cp1252" | "cp1253" | "cp1254" | "cp1255" | "cp1256" | "cp1257" | "cp1258" => {
            return simdenc::Encoding::for_label(format!("windows-{}", &a[2..]).as_bytes());
        }
        "cp866" => "ibm866",
        "latin-1" | "latin1" => "iso-8859-1",
        "none" | "" => return None,
        _ => a.as_str(),
    };
    simdenc::Encoding::for_label(alias.replace("iso8859", "iso-8859").as_bytes())
}

fn decode(enc: &'static simdenc::Encoding, bytes: &[u8]) -> String {
    enc.decode_without_bom_handling(bytes).0.into_owned()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let out = std::io::stdout();
    let mut out = out.lock();
    match args.get(1).map(String::as_str) {
        Some("detect") => {
            let manifest = std::fs::read_to_string(&args[2]).expect("manifest");
            let mut buckets: BTreeMap<String, Vec<(Vec<u8>, bool)>> = BTreeMap::new();
            for line in manifest.lines() {
                let f: Vec<&str> = line.split('\t').collect();
                let bytes = std::fs::read(f[0]).expect("sample");
                let html = f[1] == "html";
                writeln!(out, "{}\tsimdenc\t{}", f[0], simdenc(&bytes, html)).unwrap();
                writeln!(out, "{}\tchardetng\t{}", f[0], chardetng(&bytes)).unwrap();
                buckets.entry(f[2].to_string()).or_default().push((bytes, html));
            }
            for (bucket, samples) in &buckets {
                let total: usize = samples.iter().map(|s| s.0.len()).sum();
                for det in ["simdenc", "chardetng"] {
                    let mut best = f64::MAX;
                    for _ in 0..5 {
                        let t = Instant::now();
                        for (bytes, html) in samples {
                            let name = if det == "simdenc" {
                                simdenc(bytes, *html)
                            } else {
                                chardetng(bytes)
                            };
                            std::hint::black_box(name);
                        }
                        best = best.min(t.elapsed().as_secs_f64());
                    }
                    writeln!(out, "#speed\t{det}\t{bucket}\t{total}\t{best}").unwrap();
                }
            }
        }
        Some("score") => {
            let answers = std::fs::File::open(&args[2]).expect("answers");
            let mut cache: BTreeMap<(String, &'static str), String> = BTreeMap::new();
            for line in std::io::BufReader::new(answers).lines() {
                let line = line.unwrap();
                let f: Vec<&str> = line.split('\t').collect();
                let bytes = std::fs::read(f[0]).expect("sample");
                let truth = simdenc::Encoding::for_label(f[1].as_bytes()).expect("truth label");
                let ok = match encoding_for(f[3]) {
                    None => false,
                    Some(enc) if enc == truth => true,
                    Some(enc) => {
                        let t = cache
                            .entry((f[0].to_string(), truth.name()))
                            .or_insert_with(|| decode(truth, &bytes))
                            .clone();
                        decode(enc, &bytes) == t
                    }
                };
                writeln!(out, "{line}\t{}", u8::from(ok)).unwrap();
            }
        }
        _ => {
            eprintln!("usage: simdenc-detect-eval detect MANIFEST | score ANSWERS");
            std::process::exit(2);
        }
    }
}
