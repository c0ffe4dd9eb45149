//! `simdenc::sniff` against the literal transcription of the HTML Standard's prescan in
//! `tests/sniff_reference.rs` (the same file `tests/sniff.rs` uses): `prescan`, `declaration`
//! (its label names the encoding found), `meta_content_charset` and `xml_encoding` on any
//! bytes; `determine` and the streaming `Sniffer` (cut at the places the first byte gives) give
//! the same answer; and nothing is slower than linear: for one input in eight (by its first
//! byte), the input repeated to 64 KiB or more must run through `determine` within a generous
//! bound per byte.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdenc::sniff::{self, Markup, Options, Sniffer, Source};
use simdenc::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};
use std::time::{Duration, Instant};

#[path = "../../tests/sniff_reference.rs"]
#[allow(dead_code)]
mod reference;

fuzz_target!(|data: &[u8]| {
    let (cut, input) = match data.split_first() {
        Some((&cut, input)) => (usize::from(cut) + 1, input),
        None => (1, data),
    };
    let expected = reference::prescan(input);
    let found = sniff::declaration(input);
    assert_eq!(
        found.as_ref().map(|d| (d.encoding, d.source == Source::Meta)),
        expected,
        "declaration of {:?}",
        String::from_utf8_lossy(input)
    );
    assert_eq!(sniff::prescan(input), expected.map(|(e, _)| e));
    if let Some(d) = &found {
        match &d.label {
            Some(range) => {
                let named = Encoding::for_label(&input[range.clone()]).expect("the label names an encoding");
                assert!(
                    named == d.encoding
                        || (d.encoding == UTF_8 && (named == UTF_16LE || named == UTF_16BE))
                        || (d.encoding == WINDOWS_1252 && named == X_USER_DEFINED)
                );
            }
            None => assert!(d.encoding == UTF_16LE || d.encoding == UTF_16BE),
        }
    }
    assert_eq!(
        sniff::meta_content_charset(input),
        reference::extract_from_meta(input)
    );
    assert_eq!(sniff::xml_encoding(input), reference::xml(input));

    // The streaming form equals `determine` over the same prefix, however it is cut.
    for markup in [Markup::Html, Markup::Text] {
        for guess in [false, true] {
            let options = Options::new(markup).with_guess(guess);
            let limit = if guess {
                sniff::GUESS_BYTES
            } else {
                sniff::PRESCAN_BYTES
            };
            let expected = sniff::determine(&input[..input.len().min(limit)], &options);
            let mut sniffer = Sniffer::new(options);
            let mut decided = None;
            for chunk in input.chunks(cut) {
                decided = sniffer.feed(chunk);
                if decided.is_some() {
                    break;
                }
            }
            let decided = decided.unwrap_or_else(|| sniffer.finish());
            assert_eq!(decided, expected);
        }
    }

    // Linear time: 64 copies of the input, through the whole algorithm (the XML declaration and
    // the guess read past the prescan's 1024 bytes).
    if !input.is_empty() && cut % 8 == 1 {
        let big = input.repeat(64.max(65_536 / input.len()));
        let options = Options::new(Markup::Html);
        let start = Clock::now();
        let _ = sniff::determine(&big, &options);
        let _ = sniff::meta_content_charset(&big);
        let _ = sniff::xml_encoding(&big);
        // 1 µs a byte is hundreds of times slower than the code runs under AddressSanitizer; a
        // quadratic path on 64 KiB takes far longer.
        let bound = Duration::from_micros(big.len() as u64) + Duration::from_millis(50);
        let took = start.elapsed();
        assert!(
            took < bound,
            "{} bytes took {took:?} of {}",
            big.len(),
            start.what()
        );
    }
});

/// The thread's CPU time where Linux gives it (`/proc/thread-self/schedstat`, nanoseconds on a
/// CPU), else wall time: a campaign run under `nice` beside other work is starved of the CPU
/// for longer than any bound on wall time allows (a 65 KiB input measured 126 ms of wall
/// time beside a benchmark, and 34 µs unsanitised on a quiet machine).
enum Clock {
    Cpu(u64),
    Wall(Instant),
}

impl Clock {
    fn cpu_ns() -> Option<u64> {
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        stat.split_whitespace().next()?.parse().ok()
    }

    fn now() -> Clock {
        Clock::cpu_ns().map_or_else(|| Clock::Wall(Instant::now()), Clock::Cpu)
    }

    fn elapsed(&self) -> Duration {
        match self {
            Clock::Cpu(start) => {
                Duration::from_nanos(Clock::cpu_ns().unwrap_or(*start).saturating_sub(*start))
            }
            Clock::Wall(start) => start.elapsed(),
        }
    }

    fn what(&self) -> &'static str {
        match self {
            Clock::Cpu(_) => "CPU time",
            Clock::Wall(_) => "wall time",
        }
    }
}
