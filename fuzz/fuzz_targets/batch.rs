//! The Python package's `decode_batch` through its Rust core (`python/src/batch_core.rs`,
//! included as it is): rows split into parts, decoded by one worker per thread and placed in
//! row order into one output.
//!
//! Header: `[0]` bits 0–1 how the encodings are decided (one label, the default for all, one
//! label per row, "auto"), bit 2 fatal, bits 3–4 the BOM mode (sniff, strip, keep), bits 5–7
//! the threads (1–4, or rayon's global pool); `[1]` the encoding for all rows (or the default);
//! `[2]` the part size in input bytes (0–128: many parts); `[3]` "auto"'s options (markup,
//! guess, the transport-layer encodings); `[4..8]` PRNG seed, which cuts the payload into rows
//! (some null, some empty) and picks the per-row labels.
//!
//! Checked: the text equals each row decoded alone by simdenc's one-shot API with the same
//! BOM rule (`decode`, `decode_with_bom_removal`, `decode_without_bom_handling`; with "auto",
//! `sniff::determine`'s encoding, its BOM removed), in row order; each row's end, encoding,
//! source, and replacements (some iff the row had errors); every row's text within
//! `row_bound`, the whole within `Job::bound`, nothing written past the text (two runs into
//! outputs filled with different canaries, equal results); the parts are consecutive and of
//! the size asked; with fatal, the error is the first malformed row in row order, with the
//! encoding it was decoded with and a sequence inside the row.
#![no_main]

use std::mem::MaybeUninit;

use libfuzzer_sys::fuzz_target;
use simdenc::Encoding;
use simdenc::sniff::{self, Markup, Options};
use simdenc_fuzz::{CANARY_U8, Input, Rng, encoding};

// The core as the Python package compiles it; what only `batch.rs` calls is unused here.
#[allow(dead_code)]
#[path = "../../python/src/batch_core.rs"]
mod batch_core;

use batch_core::{Batch, Bom, Error, Hints, Job, Labels, ListRows, RowError, Rows, Source, row_bound};

/// Cuts the payload into rows: lengths from a few size classes, one row in eight null.
fn rows_of<'a>(rng: &mut Rng, mut payload: &'a [u8]) -> Vec<Option<&'a [u8]>> {
    let class = [4, 16, 64, 300][rng.below(4)];
    let mut rows = Vec::new();
    while !payload.is_empty() || (rows.len() < 3 && rng.one_in(2)) {
        if rng.one_in(8) {
            rows.push(None);
            continue;
        }
        let len = rng.below(class + 1).min(payload.len());
        let (row, rest) = payload.split_at(len);
        rows.push(Some(row));
        payload = rest;
    }
    rows
}

/// The sniffing options of "auto" from `selector`.
fn auto_options(selector: u8, default: &'static Encoding) -> Options {
    let markup = if selector & 1 == 0 {
        Markup::Text
    } else {
        Markup::Html
    };
    Options::new(markup)
        .with_guess(selector & 2 != 0)
        .with_default(default)
}

/// What one row should give, decided and decoded alone: the encoding, its source, the text
/// and whether it had errors.
fn expected(
    labels: &Labels,
    options: &Options,
    row: usize,
    data: &[u8],
    bom: Bom,
) -> (&'static Encoding, Source, String, bool) {
    let (encoding, source) = match labels {
        Labels::One(encoding, source) => (*encoding, *source),
        Labels::PerRow { labels, default } => match labels[row] {
            Some(encoding) => (encoding, Source::Label),
            None => (*default, Source::Sniffed(sniff::Source::Default)),
        },
        Labels::Auto { hints, .. } => {
            let mut options = *options;
            options.transport = match hints {
                Hints::One(transport) => *transport,
                Hints::PerRow(transports) => transports[row],
            };
            let found = sniff::determine(data, &options);
            let (text, had) = if found.source == sniff::Source::Bom {
                found.encoding.decode_with_bom_removal(data)
            } else {
                found.encoding.decode_without_bom_handling(data)
            };
            return (
                found.encoding,
                Source::Sniffed(found.source),
                text.into_owned(),
                had,
            );
        }
    };
    match bom {
        Bom::Sniff => {
            let (text, used, had) = encoding.decode(data);
            let source = if Encoding::for_bom(data).is_some() {
                Source::Sniffed(sniff::Source::Bom)
            } else {
                source
            };
            (used, source, text.into_owned(), had)
        }
        Bom::Strip => {
            let (text, had) = encoding.decode_with_bom_removal(data);
            (encoding, source, text.into_owned(), had)
        }
        Bom::Keep => {
            let (text, had) = encoding.decode_without_bom_handling(data);
            (encoding, source, text.into_owned(), had)
        }
    }
}

/// One run into an output of exactly `job.bound()` bytes filled with `canary`: the result,
/// and the output's bytes.
fn run(job: &Job<'_>, threads: Option<usize>, canary: u8) -> (Result<Batch, RowError>, Vec<u8>) {
    let bound = job.bound().expect("a fuzz-sized batch has a bound");
    let mut out = vec![MaybeUninit::new(canary); bound];
    let result = match job.run(threads, &mut out) {
        Ok(result) => result,
        Err(Error::Threads(..)) => panic!("no pool of {threads:?} threads"),
        Err(e) => panic!("run failed: {e:?}"),
    };
    let bytes = out
        .iter()
        // SAFETY: every element was initialised (`MaybeUninit::new`), and `run` writes only
        // initialised bytes (the text) over them.
        .map(|b| unsafe { b.assume_init() })
        .collect();
    (result, bytes)
}

fn check(data: &[u8]) {
    let input = Input::parse(data);
    let h = input.header;
    let mut rng = input.rng();
    let rows = rows_of(&mut rng, input.payload);
    let fatal = h[0] & 4 != 0;
    let bom = [Bom::Sniff, Bom::Strip, Bom::Keep, Bom::Keep][usize::from(h[0] >> 3 & 3)];
    let threads = match h[0] >> 5 {
        0..=3 => Some(usize::from(h[0] >> 5) + 1),
        4 => None,
        t => Some(usize::from(t) - 3),
    };
    let one = encoding(h[1]);
    let part_bytes = usize::from(h[2]) % 129;
    let options = auto_options(h[3], one);
    let per_row = |rng: &mut Rng| -> Vec<Option<&'static Encoding>> {
        (0..rows.len())
            .map(|_| (!rng.one_in(6)).then(|| encoding(rng.next_u64() as u8)))
            .collect()
    };
    let labels = match h[0] & 3 {
        0 => Labels::One(one, Source::Label),
        1 => Labels::One(one, Source::Sniffed(sniff::Source::Default)),
        2 => Labels::PerRow {
            labels: per_row(&mut rng),
            default: one,
        },
        _ => {
            let hints = match h[3] >> 2 & 3 {
                0 => Hints::One(None),
                1 => Hints::One(Some(encoding(h[3] >> 4))),
                _ => Hints::PerRow(per_row(&mut rng)),
            };
            let sniffing = options;
            let sniff = Box::new(move |data: &[u8], transport| {
                let mut options = sniffing;
                options.transport = transport;
                sniff::determine(data, &options)
            });
            Labels::Auto { sniff, hints }
        }
    };

    let mut before = vec![0];
    for row in &rows {
        before.push(before.last().unwrap() + row.map_or(0, <[u8]>::len));
    }
    let list = ListRows {
        rows: rows.clone(),
        before,
    };
    let job = Job {
        rows: &list,
        labels: &labels,
        bom,
        fatal,
        part_bytes,
        // Every batch with more than one part goes to the workers.
        serial_bytes: 0,
    };
    let n = rows.len();
    let total = list.bytes_before(n);
    let what = format!(
        "{n} rows, fatal {fatal}, {bom:?}, threads {threads:?}, parts of {part_bytes}, rows {rows:02X?}"
    );

    // The parts: consecutive, covering every row, each ending at the first row that starts
    // `part_bytes` past its start (or after 64Ki rows).
    let ranges = job.ranges();
    let mut next = 0;
    for range in &ranges {
        assert!(
            range.start == next && range.end > range.start,
            "{what}: parts {ranges:?}"
        );
        let base = list.bytes_before(range.start);
        if range.end < n && range.len() < 1 << 16 {
            assert!(
                list.bytes_before(range.end) - base >= part_bytes,
                "{what}: part {range:?} too short"
            );
        }
        if range.len() > 1 {
            assert!(
                list.bytes_before(range.end - 1) - base < part_bytes,
                "{what}: part {range:?} too long"
            );
        }
        next = range.end;
    }
    assert_eq!(next, n, "{what}: parts {ranges:?}");

    let bound = job.bound().expect("bound");
    assert_eq!(bound, 3 * total + 3 * n, "{what}: the bound");

    // Each row alone.
    let mut want_text = String::new();
    let mut want_ends = Vec::with_capacity(n);
    let mut want_rows = Vec::with_capacity(n);
    let mut first_bad = None;
    for (i, row) in rows.iter().enumerate() {
        match row {
            None => want_rows.push(None),
            Some(data) => {
                let (encoding, source, text, had) = expected(&labels, &options, i, data, bom);
                assert!(
                    text.len() <= row_bound(data.len()).unwrap(),
                    "{what}: row {i} decodes to {} bytes, past its bound",
                    text.len()
                );
                want_text.push_str(&text);
                want_rows.push(Some((encoding, source, had)));
                if had && first_bad.is_none() {
                    first_bad = Some(i);
                }
            }
        }
        want_ends.push(want_text.len());
    }

    let (result, out) = run(&job, threads, CANARY_U8[0]);
    let (again, out_again) = run(&job, threads, CANARY_U8[1]);
    match (&result, &again) {
        (Ok(a), Ok(b)) => {
            assert!(
                a.len == b.len && a.ends == b.ends && a.rows == b.rows,
                "{what}: two runs differ"
            );
            assert_eq!(out[..a.len], out_again[..b.len], "{what}: two runs' texts differ");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{what}: two runs' errors differ"),
        _ => panic!("{what}: one run failed, the other did not"),
    }
    match result {
        Ok(batch) => {
            assert!(
                !fatal || first_bad.is_none(),
                "{what}: no error though row {first_bad:?} is malformed"
            );
            assert!(
                batch.len <= bound,
                "{what}: {} bytes of text past the bound {bound}",
                batch.len
            );
            for (canary, out) in [(CANARY_U8[0], &out), (CANARY_U8[1], &out_again)] {
                assert!(
                    out[batch.len..].iter().all(|&b| b == canary),
                    "{what}: written past the text's {} bytes",
                    batch.len
                );
            }
            let text = std::str::from_utf8(&out[..batch.len]).expect("the text is UTF-8");
            assert!(
                text == want_text,
                "{what}: text {text:?}, each row alone {want_text:?}"
            );
            assert_eq!(batch.ends, want_ends, "{what}: the rows' ends");
            assert_eq!(batch.rows.len(), n, "{what}: the rows' details");
            for (i, (got, want)) in batch.rows.iter().zip(&want_rows).enumerate() {
                match (got, want) {
                    (None, None) => {}
                    (Some((encoding, source, replaced)), Some((want_encoding, want_source, had))) => {
                        assert_eq!(
                            (encoding.name(), source),
                            (want_encoding.name(), want_source),
                            "{what}: row {i}'s encoding"
                        );
                        assert_eq!(*replaced > 0, *had, "{what}: row {i}: {replaced} replaced");
                        let start = if i == 0 { 0 } else { batch.ends[i - 1] };
                        let row_text = &text[start..batch.ends[i]];
                        assert!(
                            *replaced <= row_text.matches('\u{FFFD}').count() as u64,
                            "{what}: row {i}: {replaced} replaced, fewer U+FFFD in {row_text:?}"
                        );
                    }
                    _ => panic!("{what}: row {i} null in one and not the other: {got:?} / {want:?}"),
                }
            }
        }
        Err((row, encoding, bad)) => {
            assert!(fatal, "{what}: an error without fatal");
            assert_eq!(Some(row), first_bad, "{what}: the error's row");
            let (want_encoding, ..) = want_rows[row].expect("a malformed row is not null");
            assert_eq!(
                encoding.name(),
                want_encoding.name(),
                "{what}: the error's encoding"
            );
            let len = rows[row].map_or(0, <[u8]>::len) as i64;
            assert!(
                0 <= bad.start && bad.start <= bad.end && bad.end <= len && (!bad.at_eof || bad.end == len),
                "{what}: row {row} ({len} bytes): {bad:?}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| check(data));
