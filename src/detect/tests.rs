use super::*;

/// Prints the candidates' costs for the file in `DETECT_FILE` (`cargo test -p simdenc --lib
/// detect::tests::explain -- --ignored --nocapture`).
#[test]
#[ignore = "a diagnostic, not a check: prints the candidates' costs for DETECT_FILE"]
fn explain() {
    let path = std::env::var("DETECT_FILE").expect("DETECT_FILE names the file to explain");
    let bytes = std::fs::read(path).unwrap();
    let html = std::env::var("DETECT_HTML").is_ok();
    let mut d = Detector::new(if html { Markup::Html } else { Markup::Text });
    d.feed(&bytes);
    std::eprintln!("text: {:?}", alloc::string::String::from_utf8_lossy(&d.text));
    std::eprintln!("text: {:02X?}", d.text);
    for c in score::single_byte_costs(&d.text).iter().take(12) {
        std::eprintln!("  {c:?}");
    }
    for (cost, enc) in score::legacy_costs(&d.text) {
        std::eprintln!("{:>8} {}", cost, enc.name());
    }
    std::eprintln!("{:?}", d.guess());
}

extern crate std;
use alloc::vec::Vec;

/// Real sentences, one per (encoding, language) the detector serves.
const SNIPPETS: &[(&str, &str)] = &[
    (
        "windows-1252",
        "Le château de Versailles a été la résidence des rois de France ; à côté se trouvent des jardins très célèbres.",
    ),
    (
        "windows-1252",
        "Die Straßenbahn fährt über die Brücke, während die Kinder im Garten spielen und ihre Großmutter Kuchen bäckt.",
    ),
    (
        "windows-1252",
        "La ciudad está situada en la orilla del río, y sus habitantes celebran la fiesta más importante del año en junio.",
    ),
    (
        "windows-1250",
        "Příliš žluťoučký kůň úpěl ďábelské ódy. Praha je hlavní město České republiky a leží na řece Vltavě.",
    ),
    (
        "windows-1250",
        "Zażółć gęślą jaźń. Warszawa jest stolicą Polski i największym miastem kraju, położonym nad Wisłą.",
    ),
    (
        "windows-1251",
        "Москва — столица России, крупнейший по численности населения город страны и её политический центр.",
    ),
    (
        "KOI8-R",
        "Москва - столица России, крупнейший по численности населения город страны и её политический центр.",
    ),
    (
        "IBM866",
        "Москва - столица России, крупнейший по численности населения город страны и ее политический центр.",
    ),
    (
        "windows-1253",
        "Η Αθήνα είναι η πρωτεύουσα και η μεγαλύτερη πόλη της Ελλάδας, με ιστορία που ξεπερνά τις τρεις χιλιετίες.",
    ),
    (
        "windows-1254",
        "İstanbul, Türkiye'nin en kalabalık şehri ve ülkenin ekonomik, kültürel ve tarihi merkezidir; Boğaz'ın iki yakasında kuruludur.",
    ),
    (
        "windows-1255",
        "ירושלים היא עיר הבירה של ישראל והעיר הגדולה ביותר בה, ונמצאת בהרי יהודה בין הים התיכון לים המלח.",
    ),
    (
        "windows-1256",
        "القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها، وتقع على ضفاف نهر النيل في شمال البلاد.",
    ),
    (
        "windows-874",
        "กรุงเทพมหานครเป็นเมืองหลวงและนครที่มีประชากรมากที่สุดของประเทศไทย ตั้งอยู่ริมแม่น้ำเจ้าพระยา",
    ),
    (
        "Shift_JIS",
        "東京は日本の首都であり、世界で最も人口の多い都市圏の一つです。多くの人が電車で通勤しています。",
    ),
    (
        "EUC-JP",
        "東京は日本の首都であり、世界で最も人口の多い都市圏の一つです。多くの人が電車で通勤しています。",
    ),
    (
        "ISO-2022-JP",
        "東京は日本の首都であり、世界で最も人口の多い都市圏の一つです。",
    ),
    (
        "GBK",
        "北京是中华人民共和国的首都，也是全国的政治、文化和国际交往中心，有着三千多年的建城史。",
    ),
    (
        "Big5",
        "臺北市是中華民國的首都，位於臺灣北部的臺北盆地，是全國政治、經濟與文化的中心。",
    ),
    (
        "EUC-KR",
        "서울특별시는 대한민국의 수도이자 최대 도시로, 한강을 사이에 두고 강북과 강남으로 나뉜다.",
    ),
    ("UTF-16LE", "Москва — столица России. 東京は日本の首都です。"),
    ("UTF-16BE", "Москва — столица России. 東京は日本の首都です。"),
    ("UTF-8", "Le château de Versailles, Москва, 東京, 서울, القاهرة."),
];

fn encode(label: &str, text: &str) -> Vec<u8> {
    let enc = Encoding::for_label(label.as_bytes()).unwrap();
    match enc.name() {
        "UTF-16LE" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        "UTF-16BE" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        _ => {
            let (bytes, _, unmappable) = enc.encode(text);
            assert!(!unmappable, "{label}: {text}");
            bytes.into_owned()
        }
    }
}

#[test]
fn snippets() {
    for &(label, text) in SNIPPETS {
        let bytes = encode(label, text);
        let want = Encoding::for_label(label.as_bytes()).unwrap();
        for markup in [Markup::Text, Markup::Html] {
            let g = guess(&bytes, markup);
            assert_eq!(g.encoding, want, "{label} {markup:?}: {text} → {g:?}");
            assert!((0.0..=1.0).contains(&g.confidence));
        }
        // In HTML, between tags.
        let mut html =
            b"<!DOCTYPE html><html><head><title>x</title><!-- a comment --></head><body><p class=\"t\">"
                .to_vec();
        if !label.starts_with("UTF-16") {
            html.extend_from_slice(&bytes);
            html.extend_from_slice(b"&nbsp;</p></body></html>");
            assert_eq!(
                guess(&html, Markup::Html).encoding,
                want,
                "{label} in HTML: {text}"
            );
        }
        // Streaming, in pieces of every size up to 7, gives the same guess.
        for size in 1..8 {
            let mut d = Detector::new(Markup::Text);
            for piece in bytes.chunks(size) {
                d.feed(piece);
            }
            assert_eq!(
                d.guess(),
                guess(&bytes, Markup::Text),
                "{label} in pieces of {size}"
            );
        }
    }
}

#[test]
fn ascii_is_windows_1252_with_no_confidence() {
    for markup in [Markup::Text, Markup::Html] {
        assert_eq!(
            guess(b"", markup),
            Guess {
                encoding: crate::WINDOWS_1252,
                confidence: 0.0
            }
        );
        assert_eq!(guess(b"<p>Hello, world!</p>\n", markup).confidence, 0.0);
    }
}

#[test]
fn utf8_cut_at_the_end_is_utf8() {
    let text = "Москва — столица России".as_bytes();
    for end in 1..text.len() {
        let g = guess(&text[..end], Markup::Text);
        if text[..end].iter().any(|&b| b >= 0x80) {
            assert_eq!(g.encoding, crate::UTF_8, "{end}");
        }
    }
    // A byte that is wrong in the middle rules UTF-8 out, also between pieces.
    let mut d = Detector::new(Markup::Text);
    d.feed(b"caf\xC3");
    d.feed(b"(");
    assert_ne!(d.guess().encoding, crate::UTF_8);
}

#[test]
fn seen_enough_bounds_the_scoring() {
    let bytes = encode("windows-1251", &"Москва — столица России. ".repeat(400));
    let mut d = Detector::new(Markup::Text);
    d.feed(&bytes);
    assert!(d.seen_enough());
    assert!(d.text.len() <= 2 * ENOUGH_NON_ASCII + 2);
    assert_eq!(d.guess().encoding, crate::WINDOWS_1251);
}

/// The word-at-a-time searches agree with a byte loop.
#[test]
fn find_agrees_with_scalar() {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let alphabet = [
        b'a',
        b'<',
        b'&',
        b'-',
        b'>',
        0x80,
        0xFF,
        0x3C ^ 0x80,
        0x26 ^ 0x80,
        0x00,
        0x01,
    ];
    for len in 0..80 {
        for _ in 0..200 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    if rng.is_multiple_of(4) {
                        alphabet[(rng >> 8) as usize % alphabet.len()]
                    } else {
                        (rng >> 16) as u8 & 0x7F
                    }
                })
                .collect();
            let stop = bytes
                .iter()
                .position(|&b| b == b'<' || b == b'&' || b >= 0x80)
                .unwrap_or(len);
            assert_eq!(find_data_stop(&bytes), stop, "{bytes:?}");
            for needle in [b'>', b'-'] {
                assert_eq!(
                    find_byte(&bytes, needle),
                    bytes.iter().position(|&b| b == needle).unwrap_or(len)
                );
            }
        }
    }
}

#[test]
fn exp_neg_is_close() {
    for i in 0..300 {
        let x = i as f32 / 10.0;
        let e = score::exp_neg_for_tests(x);
        let want = (-(x as f64)).exp() as f32;
        assert!((e - want).abs() <= want * 1e-3 + 1e-7, "{x}: {e} vs {want}");
    }
}

quickcheck::quickcheck! {
    fn never_panics(bytes: Vec<u8>, split: usize, html: bool) -> bool {
        let markup = if html { Markup::Html } else { Markup::Text };
        let g = guess(&bytes, markup);
        let mut d = Detector::new(markup);
        let at = if bytes.is_empty() { 0 } else { split % bytes.len() };
        d.feed(&bytes[..at]);
        d.feed(&bytes[at..]);
        (0.0..=1.0).contains(&g.confidence) && d.guess() == g
    }

    fn utf8_with_non_ascii_is_utf8(s: alloc::string::String) -> bool {
        // Without C0 controls (UTF-16's signal) and with a character above U+007F.
        let s: alloc::string::String = s.chars().filter(|&c| c >= ' ').collect::<alloc::string::String>() + "é";
        guess(s.as_bytes(), Markup::Text).encoding == crate::UTF_8
            && guess(s.as_bytes(), Markup::Html).encoding == crate::UTF_8
    }
}

/// The transposed unigram table is the per-candidate one (classes, then the language's
/// class costs).
#[test]
fn unigram_by_byte_agrees_with_the_models() {
    for (i, m) in model::SINGLE_BYTE.iter().enumerate() {
        for b in 0..128 {
            let class = m.classes[b];
            let want = if class == 255 {
                model::BAD
            } else {
                u32::from(m.lang.unigram[usize::from(class)])
            };
            assert_eq!(
                u32::from(model::UNIGRAM_BY_BYTE[b][i]),
                want,
                "{} {} {b:#x}",
                m.encoding.name(),
                m.lang.name
            );
        }
    }
}

/// Random bytes: mostly above 0x7F, with ASCII runs of every length and some controls.
fn mixed_bytes(rng: &mut u64, len: usize) -> Vec<u8> {
    let mut next = || {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    };
    let mut bytes = Vec::with_capacity(len);
    while bytes.len() < len {
        let r = next();
        match r % 8 {
            0 => bytes.extend((0..(r >> 8) % 40).map(|i| b'a' + (i % 26) as u8)),
            1 => bytes.push((r >> 8) as u8 & 0x1F),
            2 => bytes.push(b' '),
            _ => bytes.push(0x80 | (r >> 8) as u8),
        }
    }
    bytes.truncate(len);
    bytes
}

/// The bigram costs summed over distinct byte pairs and by the walk (both through `Bigrams`'
/// byte tables) equal the reference, which looks each class up in the model, for every
/// single-byte candidate: on the snippets, on their text as the detector keeps it, and on
/// random bytes.
#[test]
fn bigram_by_pairs_equals_the_walk() {
    let mut texts: Vec<Vec<u8>> = SNIPPETS
        .iter()
        .map(|&(label, text)| encode(label, text))
        .collect();
    for &(label, text) in SNIPPETS {
        let mut d = Detector::new(Markup::Text);
        d.feed(&encode(label, text));
        texts.push(d.text.clone());
    }
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for len in [0, 1, 2, 3, 17, 64, 65, 200, 1000, 6000] {
        for _ in 0..4 {
            texts.push(mixed_bytes(&mut rng, len));
        }
    }
    for text in &texts {
        for (i, [pairs, walk, reference]) in score::bigram_costs_three_ways(text).into_iter().enumerate() {
            assert_eq!(
                (pairs, walk),
                (reference, reference),
                "candidate {i} on {text:02X?}"
            );
        }
    }
}

/// `push_text` keeps what feeding the bytes one at a time to `push_byte` keeps (ASCII runs as
/// their first and last byte, up to 512 bytes above 0x7F), however the input is cut.
#[test]
fn text_kept_is_byte_by_byte() {
    let mut rng = 0x0123_4567_89AB_CDEFu64;
    for round in 0..400 {
        let len = [0, 1, 5, 100, 3000, 9000][round % 6];
        let bytes = mixed_bytes(&mut rng, len);
        let mut reference = Detector::new(Markup::Text);
        for &b in &bytes {
            if !reference.seen_enough() {
                reference.push_byte(b);
            }
        }
        let mut d = Detector::new(Markup::Text);
        let mut at = 0;
        while at < bytes.len() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let end = (at + 1 + (rng % 50) as usize).min(bytes.len());
            d.feed(&bytes[at..end]);
            at = end;
        }
        assert_eq!(d.text, reference.text, "round {round}");
        assert_eq!(
            (d.non_ascii, d.ascii_run),
            (reference.non_ascii, reference.ascii_run)
        );
    }
}

quickcheck::quickcheck! {
    /// `guess`'s shortcut for valid UTF-8 answers what the streaming detector does (the
    /// strings here are valid UTF-8, cut anywhere, with C0 controls and UTF-16-like heads).
    fn utf8_shortcut_is_the_detector(s: alloc::string::String, cut: usize, wide: bool, html: bool) -> bool {
        let markup = if html { Markup::Html } else { Markup::Text };
        let mut bytes: Vec<u8> = if wide {
            // ASCII with NULs between: valid UTF-8 that the UTF-16 test reads as UTF-16LE.
            s.bytes().flat_map(|b| [b, 0]).chain("é".bytes()).collect()
        } else {
            s.into_bytes()
        };
        if !bytes.is_empty() {
            bytes.truncate(cut % (bytes.len() + 1));
        }
        let mut d = Detector::new(markup);
        d.feed(&bytes);
        guess(&bytes, markup) == d.guess()
    }
}
