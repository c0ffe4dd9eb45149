//! `simdenc::sniff` against the HTML Standard's steps: hand-written cases for each step and
//! each choice the module documents, and generated documents compared with a literal second
//! transcription of the prescan (`sniff_reference.rs`).

mod sniff_reference;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use simdenc::sniff::{Markup, Options, Source, determine, meta_content_charset, prescan, xml_encoding};
use simdenc::*;

fn html() -> Options {
    Options::new(Markup::Html).with_guess(false)
}

fn name(bytes: &[u8]) -> Option<&'static str> {
    prescan(bytes).map(Encoding::name)
}

#[test]
fn meta_charset() {
    let cases: &[(&[u8], Option<&str>)] = &[
        (b"<meta charset=gbk>", Some("GBK")),
        (b"<META CHARSET=GBK>", Some("GBK")),
        (b"<meta/charset=gbk>", Some("GBK")),
        (b"<meta\tcharset='gbk'>", Some("GBK")),
        (b"<meta charset = \"  gbk  \">", Some("GBK")),
        (b"<meta charset=gbk/>", None), // the value is "gbk/"
        (b"<meta charset=\"gbk\"/>", Some("GBK")),
        (b"<meta charset=utf-16le>", Some("UTF-8")),
        (b"<meta charset=utf-16be>", Some("UTF-8")),
        (b"<meta charset=x-user-defined>", Some("windows-1252")),
        (b"<meta charset=iso-2022-kr>", Some("replacement")),
        (b"<meta charset=bogus><meta charset=koi8-r>", Some("KOI8-R")), // failure: next byte
        (b"<meta charset=gbk charset=big5>", Some("GBK")),              // a repeated name is skipped
        (b"<meta charset=bogus charset=big5>", None),                   // ... even when the first failed
        (b"<metacharset=gbk>", None),                                   // not `<meta` + space
        (b"<meta>", None),
        (b"<meta charset=gbk", None),   // runs out of bytes: the prescan aborts
        (b"<meta charset=\"gbk", None), // unterminated quote
        (b"<meta charset=gbk ", None),  // no '>'... and no more attributes either
        (b"<meta charset=gbk >", Some("GBK")),
        (b"<meta name=x charset=gbk>", Some("GBK")),
        (b"<meta charset=>", None),     // empty value: failure
        (b"<meta =charset=gbk>", None), // the name is "=charset"
        (b"<meta charset\n=\ngbk>", Some("GBK")),
        (b"<meta charset x=gbk>", None), // "charset" with an empty value, then "x"
    ];
    for &(input, expected) in cases {
        assert_eq!(name(input), expected, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn meta_http_equiv() {
    let cases: &[(&[u8], Option<&str>)] = &[
        (
            b"<meta http-equiv=content-type content='text/html; charset=gbk'>",
            Some("GBK"),
        ),
        (
            b"<meta content='text/html; charset=gbk' http-equiv=Content-Type>",
            Some("GBK"),
        ),
        (b"<meta content='text/html; charset=gbk'>", None), // need pragma, no pragma
        (
            b"<meta http-equiv=refresh content='text/html; charset=gbk'>",
            None,
        ),
        (b"<meta http-equiv=content-type content='text/html'>", None), // need pragma null
        (
            b"<meta http-equiv=content-type content='charset=gbk' charset=big5>",
            Some("Big5"),
        ),
        (
            b"<meta charset=big5 http-equiv=content-type content='charset=gbk'>",
            Some("Big5"),
        ),
        (
            b"<meta charset=bogus http-equiv=content-type content='charset=gbk'>",
            None,
        ), // charset is failure, not null
        (
            b"<meta http-equiv=content-type content='charset=bogus' charset=big5>",
            Some("Big5"),
        ),
        (
            b"<meta http-equiv=content-type content=\"charset='gbk'\">",
            Some("GBK"),
        ),
        (
            b"<meta http-equiv=content-type content='charset=utf-16'>",
            Some("UTF-8"),
        ),
        (
            b"<meta http-equiv=content-type http-equiv=refresh content='charset=gbk'>",
            Some("GBK"),
        ),
        (
            b"<meta http-equiv=refresh http-equiv=content-type content='charset=gbk'>",
            None,
        ),
    ];
    for &(input, expected) in cases {
        assert_eq!(name(input), expected, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn skipped_constructs() {
    let cases: &[(&[u8], Option<&str>)] = &[
        (b"<!-- <meta charset=gbk> --><meta charset=big5>", Some("Big5")),
        (b"<!--><meta charset=gbk>", Some("GBK")), // `<!-->` is a whole comment
        (b"<!---><meta charset=gbk>", Some("GBK")),
        (b"<!-- x <meta charset=gbk>", None), // unterminated comment
        (b"<title><meta charset=gbk></title>", Some("GBK")),
        (b"<a title='<meta charset=gbk>'><meta charset=big5>", Some("Big5")),
        (b"<a title=\"x\" <meta charset=gbk>", None), // attribute "<meta", "charset": no meta
        (b"</a <meta charset=gbk>>", None),
        (b"</ <meta charset=gbk>", None), // `</` skips to the first '>', the meta's
        (b"<? <meta charset=gbk> ?><meta charset=big5>", Some("Big5")),
        (b"<!doctype html><meta charset=gbk>", Some("GBK")),
        (b"<! <meta charset=gbk>", None),
        (b"< meta charset=gbk>", None),
        (b"<1 <meta charset=gbk>", Some("GBK")),
        (
            b"<script>document.write('<meta charset=gbk>')</script>",
            Some("GBK"),
        ), // script content is not special
    ];
    for &(input, expected) in cases {
        assert_eq!(name(input), expected, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn end_condition_at_1024() {
    // The meta's '>' is the byte at index 1023: found. One byte later: not found.
    for (pad, close, expected) in [(1024 - 18, 1023, Some("GBK")), (1024 - 17, 1024, None)] {
        let mut input = vec![b' '; pad];
        input.extend_from_slice(b"<meta charset=gbk>");
        assert_eq!(input.len() - 1, close);
        assert_eq!(name(&input), expected, "'>' at {close}");
        input.extend_from_slice(b"<p>more");
        assert_eq!(name(&input), expected, "'>' at {close}, more bytes after");
    }
    // A comment ending past 1023 hides a later meta.
    let mut input = b"<!--".to_vec();
    input.resize(1030, b'x');
    input.extend_from_slice(b"--><meta charset=gbk>");
    assert_eq!(name(&input), None);
}

#[test]
fn utf16_xml_check_and_xml_declaration() {
    assert_eq!(name(b"<\0?\0x\0m\0l\0"), Some("UTF-16LE"));
    assert_eq!(name(b"\0<\0?\0x\0m\0l"), Some("UTF-16BE"));
    assert_eq!(name(b"<\0?\0X\0"), None); // case-sensitive
    assert_eq!(name(b"<?xml version='1.0' encoding='euc-jp'?>"), Some("EUC-JP"));
    assert_eq!(name(b"<?xml encoding = \"utf-16\" ?>"), Some("UTF-8"));
    assert_eq!(name(b"<?xml encoding='x-user-defined'?>"), Some("x-user-defined")); // only UTF-16 changes
    assert_eq!(name(b"<?xml encoding=euc-jp?>"), None); // unquoted
    assert_eq!(name(b"<?xml encoding='euc jp'?>"), None);
    assert_eq!(name(b"<?XML encoding='euc-jp'?>"), None);
    assert_eq!(name(b"<?xml version='1.0'?><x encoding='euc-jp'>"), None); // past the declaration's '>'
    // A meta wins over the declaration; the declaration is read when the prescan finds nothing,
    // and over the whole input, past byte 1024.
    assert_eq!(name(b"<?xml encoding='euc-jp'?><meta charset=gbk>"), Some("GBK"));
    let mut long = b"<?xml version='1.0'".to_vec();
    long.resize(2000, b' ');
    long.extend_from_slice(b"encoding='shift_jis'?>");
    assert_eq!(name(&long), Some("Shift_JIS"));
    assert_eq!(xml_encoding(b"<?xml encoding='gbk'"), None); // no '>'
}

#[test]
fn meta_content_extraction() {
    let cases: &[(&[u8], Option<&str>)] = &[
        (b"text/html; charset=gbk", Some("GBK")),
        (b"text/html;charset=gbk;x", Some("GBK")),
        (b"charset  =  gbk", Some("GBK")),
        (b"CharSet=gbk", Some("GBK")),
        (b"charset", None),
        (b"charset=", None),
        (b"charset x charset=gbk", Some("GBK")),
        (b"charset='gbk", None),
        (b"charset=\"gbk\"x", Some("GBK")),
        (b"charset=gbk x", Some("GBK")),
        (b"xcharset=gbk", Some("GBK")),
        (b"charset=bogus", None),
    ];
    for &(input, expected) in cases {
        assert_eq!(
            meta_content_charset(input).map(Encoding::name),
            expected,
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn steps_in_order() {
    let page = b"<meta charset=koi8-r>";
    // 1. BOM first, whatever else says.
    let found = determine(b"\xFE\xFF\0<", &html().with_transport_label(b"gbk"));
    assert_eq!(
        (found.encoding, found.source, found.confidence),
        (UTF_16BE, Source::Bom, 1.0)
    );
    // 4. Transport layer, kept as given (UTF-16 stays UTF-16).
    let found = determine(page, &html().with_transport_label(b"utf-16"));
    assert_eq!((found.encoding, found.source), (UTF_16LE, Source::Http));
    let found = determine(
        page,
        &html().with_content_type(b"text/html; charset=x-user-defined"),
    );
    assert_eq!((found.encoding, found.source), (X_USER_DEFINED, Source::Http));
    // An unknown or empty label is ignored.
    for label in [&b"utf-7"[..], b"", b"  "] {
        let found = determine(page, &html().with_transport_label(label));
        assert_eq!((found.encoding, found.source), (KOI8_R, Source::Meta));
    }
    // 5. Only for HTML.
    let found = determine(page, &Options::new(Markup::Text).with_guess(false));
    assert_eq!((found.encoding, found.source), (WINDOWS_1252, Source::Default));
    let found = determine(b"<\0?\0x\0", &html());
    assert_eq!((found.encoding, found.source), (UTF_16LE, Source::Xml));
    // 9. The default, as given.
    let found = determine(b"", &html().with_default(SHIFT_JIS));
    assert_eq!(
        (found.encoding, found.source, found.confidence),
        (SHIFT_JIS, Source::Default, 0.0)
    );
    assert!(Source::Bom.is_certain() && Source::Http.is_certain());
    assert!(!Source::Meta.is_certain() && !Source::Guess.is_certain() && !Source::Default.is_certain());
}

/// Documents made of the pieces the prescan reacts to: single tokens, and whole constructs
/// (so that a declaration often follows whatever came before it).
fn document(g: &mut Gen) -> Vec<u8> {
    const TOKENS: &[&[u8]] = &[
        b"<meta",
        b"<META",
        b" ",
        b"\t",
        b"\n",
        b"\x0C",
        b"/",
        b">",
        b"=",
        b"\"",
        b"'",
        b"charset",
        b"CharSet",
        b"http-equiv",
        b"content",
        b"content-type",
        b"Content-Type",
        b"text/html;",
        b"charset=",
        b" charset = ",
        b"gbk",
        b"big5",
        b"utf-16",
        b"utf-16be",
        b"x-user-defined",
        b"bogus",
        b"koi8-r",
        b";",
        b"<!--",
        b"-->",
        b"--",
        b"<!",
        b"</",
        b"<?",
        b"<a",
        b"</p",
        b"<",
        b"x",
        b"<?xml",
        b"encoding",
        b"\0",
        b"\xFF",
        b"\xE9",
        b"<meta ",
        b"<meta charset=",
        b"<meta http-equiv=content-type content=\"",
    ];
    const CONSTRUCTS: &[&[u8]] = &[
        b"<meta charset=gbk>",
        b"<meta charset='big5'>",
        b"<meta charset=bogus>",
        b"<meta charset=utf-16le>",
        b"<meta charset=x-user-defined>",
        b"<meta charset=\"koi8-r\"/>",
        b"<meta charset=gbk charset=big5>",
        b"<meta http-equiv=content-type content=\"text/html; charset=euc-kr\">",
        b"<meta http-equiv=Content-Type content='charset=shift_jis'>",
        b"<meta content='charset=gb18030'>",
        b"<meta content=\"text/html;charset=iso-8859-5\" http-equiv=\"CONTENT-TYPE\">",
        b"<meta http-equiv=refresh content='charset=gbk'>",
        b"<meta http-equiv=content-typ content='charset=gbk'>",
        b"<!-->",
        b"<!--->",
        b"<!---->",
        b"<!-- x -->",
        b"<!-- <meta charset=ibm866> -->",
        b"<a href='>'>",
        b"<p title=\"<meta charset=gbk>\">",
        b"</p>",
        b"</ x>",
        b"<?php ?>",
        b"<!doctype html>",
        b"<br/>",
        b"<?xml version=\"1.0\" encoding=\"euc-jp\"?>",
        b"<?xml encoding='utf-16'?>",
    ];
    let n = usize::arbitrary(g) % 24;
    let mut out = Vec::new();
    for _ in 0..n {
        let piece = if u8::arbitrary(g) % 3 == 0 {
            g.choose(CONSTRUCTS)
        } else {
            g.choose(TOKENS)
        };
        out.extend_from_slice(piece.unwrap());
    }
    if u8::arbitrary(g) % 4 == 0 {
        // Push the interesting part across the 1024-byte end condition.
        let mut padded = vec![b' '; 960 + usize::arbitrary(g) % 64];
        padded.extend_from_slice(&out);
        out = padded;
    }
    out
}

#[derive(Clone, Debug)]
struct Document(Vec<u8>);

impl Arbitrary for Document {
    fn arbitrary(g: &mut Gen) -> Self {
        Document(document(g))
    }
}

#[test]
fn prescan_equals_the_literal_transcription() {
    fn property(Document(input): Document) -> bool {
        let expected = sniff_reference::prescan(&input);
        let found = determine(&input, &html());
        let ours = match found.source {
            Source::Meta => Some((found.encoding, true)),
            Source::Xml => Some((found.encoding, false)),
            _ => None,
        };
        if ours != expected {
            eprintln!(
                "{:?}: ours {:?}, reference {:?}",
                String::from_utf8_lossy(&input),
                ours,
                expected
            );
        }
        // The label's place: the bytes there name the encoding found (before the prescan's
        // substitutions).
        let label_ok = match simdenc::sniff::declaration(&input) {
            Some(found) => match found.label {
                Some(range) => Encoding::for_label(&input[range]).is_some_and(|e| {
                    e == found.encoding
                        || (found.encoding == UTF_8 && (e == UTF_16LE || e == UTF_16BE))
                        || (found.encoding == WINDOWS_1252 && e == X_USER_DEFINED)
                }),
                None => {
                    found.source == Source::Xml && (found.encoding == UTF_16LE || found.encoding == UTF_16BE)
                }
            },
            None => expected.is_none(),
        };
        ours == expected && prescan(&input) == expected.map(|(e, _)| e) && label_ok
    }
    QuickCheck::new()
        .tests(20_000)
        .quickcheck(property as fn(Document) -> bool);
}

#[test]
fn meta_content_equals_the_literal_transcription() {
    fn property(Document(input): Document) -> bool {
        meta_content_charset(&input) == sniff_reference::extract_from_meta(&input)
            && xml_encoding(&input) == sniff_reference::xml(&input)
    }
    QuickCheck::new()
        .tests(20_000)
        .quickcheck(property as fn(Document) -> bool);
}

/// Adversarial inputs run through whole (the XML declaration reads all of it): nothing here
/// may be quadratic. Not timed; a quadratic path would make this test take minutes.
#[test]
fn adversarial_inputs() {
    let floods: Vec<Vec<u8>> = vec![
        b"<meta ".repeat(200_000),
        b"<meta a".repeat(200_000),
        b"<!--".repeat(300_000),
        [&b"<a "[..], &b"x=y ".repeat(300_000)].concat(),
        [&b"<?xml "[..], &b"encodin".repeat(200_000)].concat(),
        [&b"<?xml encoding="[..], &b" ".repeat(1_000_000)].concat(),
        [&b"<meta content='"[..], &b"charset ".repeat(200_000)].concat(),
    ];
    for input in &floods {
        let _ = determine(input, &html());
        let _ = meta_content_charset(input);
        let _ = xml_encoding(input);
    }
}

/// The streaming form gives `determine`'s answer over the same prefix, however the input is
/// cut, and keeps every byte fed before its decision.
#[test]
fn sniffer_equals_determine_whatever_the_chunks() {
    fn property(Document(input): Document, cuts: Vec<u16>, bom: u8, transport: bool, guess: bool) -> bool {
        let bom: &[u8] = match bom % 8 {
            0 => b"\xEF\xBB\xBF",
            1 => b"\xFF\xFE",
            _ => b"",
        };
        let input = [bom, &input].concat();
        let mut options = Options::new(Markup::Html).with_guess(guess);
        if transport {
            options = options.with_transport_label(b"ibm866");
        }
        let limit = if guess {
            simdenc::sniff::GUESS_BYTES
        } else {
            simdenc::sniff::PRESCAN_BYTES
        };
        let expected = determine(&input[..input.len().min(limit)], &options);
        let mut sniffer = simdenc::sniff::Sniffer::new(options);
        let mut rest = &input[..];
        let mut decided = None;
        for cut in cuts {
            let (chunk, tail) = rest.split_at((cut as usize % 64).min(rest.len()));
            rest = tail;
            if let Some(found) = sniffer.feed(chunk) {
                decided = Some(found);
                break;
            }
        }
        if decided.is_none() {
            decided = sniffer.feed(rest);
        }
        let decided = decided.unwrap_or_else(|| sniffer.finish());
        decided == expected && input.starts_with(sniffer.buffered())
    }
    QuickCheck::new()
        .tests(5_000)
        .quickcheck(property as fn(Document, Vec<u16>, u8, bool, bool) -> bool);
}
