//! The part of `decode_batch` that knows nothing of Python: how each row's encoding is
//! decided, a row decoded, the rows split into parts, and the parts decoded by one worker per
//! thread and placed in row order into one output (`Job::run`).
//!
//! No pyo3 type here: `batch.rs` uses it as a module and maps `Error` to Python's exceptions,
//! and the `batch` fuzz target (fuzz/fuzz_targets/batch.rs) includes the same file with
//! `#[path]`, so what is fuzzed is what the Python package runs.
//!
//! Rows are split into parts of about `Job::part_bytes` of input, claimed in row order by one
//! worker per thread; each part is decoded into its worker's buffer and copied into the
//! batch's one allocation where the previous part's text ends (`Shared`).

use std::mem::MaybeUninit;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use simdenc::sniff::{self, Sniffed};
use simdenc::{DecoderResult, Encoding};

/// What `Job::run` can fail with besides a malformed row (`batch.rs` raises each as the
/// Python exception named).
#[derive(Debug)]
pub(crate) enum Error {
    /// `MemoryError`: the bound of the text overflows `usize`.
    TooLarge,
    /// `RuntimeError`: the output given is smaller than `Job::bound`.
    OutputTooSmall,
    /// `RuntimeError`: the text went past its bound (`row_bound` wrong).
    Overflow,
    /// `ValueError`: a pool of this many threads could not be started (rayon's reason).
    Threads(usize, String),
}

/// The BOM handling of rows decoded with a label (`decode`'s `bom`: "sniff", "strip", "keep").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bom {
    Sniff,
    Strip,
    Keep,
}

/// Where a fatal decode of a row stopped: the malformed sequence is `row[start..end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Malformed {
    pub(crate) start: i64,
    pub(crate) end: i64,
    /// The error was found by the end-of-input flush (an incomplete sequence).
    pub(crate) at_eof: bool,
}

/// "Determining the character encoding" of a row, given its transport-layer encoding (how
/// `Labels::Auto` sniffs: `auto::Auto::sniff` in the Python package).
pub(crate) type Sniff = dyn Fn(&[u8], Option<&'static Encoding>) -> Sniffed + Send + Sync;

/// How the encoding of a row was decided (the `sources` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// The label given for the row, or for every row.
    Label,
    /// A step of the HTML Standard's "determining the character encoding": `bom` (also with
    /// labels, when `bom="sniff"`), `default` (a row without a label), and with "auto" `http`,
    /// `meta`, `xml` and `guess` too.
    Sniffed(sniff::Source),
}

impl Source {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Source::Label => "label",
            Source::Sniffed(source) => source.as_str(),
        }
    }
}

/// How the rows' encodings are decided.
pub(crate) enum Labels {
    /// One encoding for every row: a label (`Source::Label`), or the default for all.
    One(&'static Encoding, Source),
    /// One label per row; a null label is `default`.
    PerRow {
        labels: Vec<Option<&'static Encoding>>,
        default: &'static Encoding,
    },
    /// "auto": `simdenc::sniff` on each row, with its transport-layer encoding.
    Auto { sniff: Box<Sniff>, hints: Hints },
}

/// The transport-layer encodings of `Labels::Auto`: one for all rows, or one per row.
pub(crate) enum Hints {
    One(Option<&'static Encoding>),
    PerRow(Vec<Option<&'static Encoding>>),
}

impl Labels {
    /// The encoding row `row` (`data`) is decoded with, how it was decided, and how many bytes
    /// of BOM to skip: with labels, the standard's three decode algorithms as `decode`'s `bom`
    /// chooses them; with "auto", the HTML Standard's algorithm (a BOM decides, and is skipped).
    fn decide(&self, row: usize, data: &[u8], bom: Bom) -> (&'static Encoding, Source, usize) {
        let (encoding, source) = match self {
            Labels::One(encoding, source) => (*encoding, *source),
            Labels::PerRow { labels, default } => match labels.get(row).copied().flatten() {
                Some(encoding) => (encoding, Source::Label),
                None => (*default, Source::Sniffed(sniff::Source::Default)),
            },
            Labels::Auto { sniff, hints } => {
                let transport = match hints {
                    Hints::One(transport) => *transport,
                    Hints::PerRow(transports) => transports.get(row).copied().flatten(),
                };
                let found = sniff(data, transport);
                let skip = match found.source {
                    sniff::Source::Bom => Encoding::for_bom(data).map_or(0, |(_, len)| len),
                    _ => 0,
                };
                return (found.encoding, Source::Sniffed(found.source), skip);
            }
        };
        match (bom, Encoding::for_bom(data)) {
            (Bom::Sniff, Some((sniffed, len))) => (sniffed, Source::Sniffed(sniff::Source::Bom), len),
            (Bom::Strip, Some((sniffed, len))) if sniffed == encoding => (encoding, source, len),
            _ => (encoding, source, 0),
        }
    }
}

/// Decodes `body` with `encoding` (no BOM handling), appending UTF-8 to `out`. Returns the
/// number of malformed sequences replaced with U+FFFD (the standard's replacement mode: one
/// per sequence), or with `fatal` the first one (offsets in `body`).
pub(crate) fn decode_row(
    encoding: &'static Encoding,
    body: &[u8],
    fatal: bool,
    out: &mut String,
) -> Result<u64, Malformed> {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut replaced = 0;
    let mut read = 0;
    loop {
        let rest = &body[read..];
        // An overflow cannot happen for a slice's length; then `OutputFull` asks again.
        let room = decoder
            .max_utf8_buffer_length_without_replacement(rest.len())
            .unwrap_or(rest.len());
        out.reserve(room);
        let (result, n) = decoder.decode_to_string_without_replacement(rest, out, true);
        read += n;
        match result {
            DecoderResult::InputEmpty => return Ok(replaced),
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, after) => {
                if fatal {
                    let end = read as i64 - i64::from(after);
                    return Err(Malformed {
                        start: end - i64::from(bad),
                        end,
                        at_eof: read == body.len() && after == 0,
                    });
                }
                out.push('\u{FFFD}');
                replaced += 1;
            }
        }
    }
}

/// The rows of a batch: `get(i)` is row `i`'s bytes, `None` if null.
pub(crate) trait Rows: Sync {
    fn len(&self) -> usize;
    fn get(&self, row: usize) -> Option<&[u8]>;
    /// The input bytes of rows `0..row` (for splitting into parts).
    fn bytes_before(&self, row: usize) -> usize;
}

/// A list of bytes objects: their slices, and the running total of their lengths.
pub(crate) struct ListRows<'a> {
    pub(crate) rows: Vec<Option<&'a [u8]>>,
    pub(crate) before: Vec<usize>,
}

impl Rows for ListRows<'_> {
    fn len(&self) -> usize {
        self.rows.len()
    }

    fn get(&self, row: usize) -> Option<&[u8]> {
        self.rows[row]
    }

    fn bytes_before(&self, row: usize) -> usize {
        self.before[row]
    }
}

/// What a part of the batch decoded to (its text went to the batch's buffer).
#[derive(Default)]
struct Part {
    /// The end of each row's text, from the start of the part's text.
    ends: Vec<usize>,
    /// Per row, `None` if null: the encoding used, how it was decided, replacements made.
    rows: Vec<Option<(&'static Encoding, Source, u64)>>,
    /// With `fatal`: the first malformed row (its index in the batch), where the part stopped.
    error: Option<RowError>,
}

/// The most UTF-8 a row of `len` bytes decodes to, in any encoding: three bytes per byte
/// (U+FFFD or a BMP character for one byte at worst; four bytes come from four), plus three
/// for the replacement encoding's one U+FFFD. `bound_covers_every_decoder` checks it against
/// every decoder's own bound.
// Used by the unit tests and the fuzz target, which check it.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn row_bound(len: usize) -> Option<usize> {
    len.checked_mul(3)?.checked_add(ROW_SLACK)
}

/// The constant of `row_bound`.
const ROW_SLACK: usize = 3;

/// The batch's text, written by the parts in row order into one allocation.
///
/// Each part is decoded into its worker's own buffer (reused from part to part, so it stays in
/// cache), then copied to where the previous part's text ends as soon as that is known: the
/// text is written to fresh memory once, and the workers fault its pages in side by side. (The
/// first design decoded each part into its own allocation and copied them all into one at the
/// end: the text was written to fresh memory twice, and the batch was bound by memory traffic
/// that does not grow with cores.)
struct Shared<'a> {
    job: &'a Job<'a>,
    ranges: Vec<Range<usize>>,
    /// The start of the allocation: `cap` bytes, written only through `place`.
    base: *mut u8,
    cap: usize,
    /// `ends[k]`: where part `k`'s text ends in the allocation, once known (`UNKNOWN` before).
    ends: Vec<AtomicUsize>,
    /// The next part to claim (parts are claimed in row order).
    next: AtomicUsize,
    /// A part failed (with `fatal`): claim no more.
    stop: AtomicBool,
    /// A part's text went past `cap` (`row_bound` wrong): the batch fails.
    overflow: AtomicBool,
}

const UNKNOWN: usize = usize::MAX;

// SAFETY: the only access to `*base` is `place`'s write of part `k`'s text to
// `[ends[k - 1], ends[k])`, a range no other part is given (the chain of `ends` makes the parts'
// ranges consecutive and disjoint), within the allocation (`ends[k] <= cap` is checked).
#[allow(unsafe_code)]
unsafe impl Sync for Shared<'_> {}

impl Shared<'_> {
    /// Claims parts in order until none is left (or a part failed): decodes each into
    /// `scratch`, places its text; returns the parts it did, with their indices.
    fn work(&self) -> Vec<(usize, Part)> {
        let mut done = Vec::new();
        let mut scratch = String::new();
        while !self.stop.load(Ordering::Relaxed) {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(range) = self.ranges.get(k) else {
                break;
            };
            scratch.clear();
            let part = self.job.part(range.clone(), &mut scratch);
            if part.error.is_some() {
                self.stop.store(true, Ordering::Relaxed);
            }
            self.place(k, scratch.as_bytes());
            done.push((k, part));
        }
        done
    }

    /// Works on this thread and on `helpers` tasks spawned in `scope`, each adding the parts
    /// it did to `found`.
    fn work_with<'s>(
        &'s self,
        scope: &rayon::Scope<'s>,
        helpers: usize,
        found: &'s Mutex<Vec<(usize, Part)>>,
    ) {
        let keep = move |parts: Vec<(usize, Part)>| {
            found.lock().unwrap_or_else(PoisonError::into_inner).extend(parts);
        };
        for _ in 0..helpers {
            scope.spawn(move |_| keep(self.work()));
        }
        keep(self.work());
    }

    /// Where part `k - 1`'s text ends: waits until the worker of part `k - 1` (which claimed
    /// it before this one claimed `k`, and is running) has placed it.
    fn start_of(&self, k: usize) -> usize {
        if k == 0 {
            return 0;
        }
        let mut spins = 0u32;
        loop {
            let end = self.ends[k - 1].load(Ordering::Acquire);
            if end != UNKNOWN {
                return end;
            }
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Publishes where part `k`'s text ends (so that part `k + 1` can go on), then copies it.
    fn place(&self, k: usize, text: &[u8]) {
        let start = self.start_of(k);
        let Some(end) = start.checked_add(text.len()).filter(|&end| end <= self.cap) else {
            self.overflow.store(true, Ordering::Relaxed);
            self.ends[k].store(start, Ordering::Release);
            return;
        };
        self.ends[k].store(end, Ordering::Release);
        // SAFETY: `[start, end)` is inside the allocation of `cap` bytes (`end <= cap`, just
        // checked), and no other part writes there (see `Sync` above); `text` is the worker's
        // own buffer, not in the allocation.
        #[allow(unsafe_code)]
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), self.base.add(start), text.len());
        }
    }
}

/// A decoded batch: the length of its text (the rows' texts back to back at the start of the
/// output), where each row's text ends, and the rows' details.
pub(crate) struct Batch {
    pub(crate) len: usize,
    pub(crate) ends: Vec<usize>,
    pub(crate) rows: Vec<Option<(&'static Encoding, Source, u64)>>,
}

/// With `fatal`: the first malformed row, the encoding it was decoded with, and where.
pub(crate) type RowError = (usize, &'static Encoding, Malformed);

pub(crate) struct Job<'a> {
    pub(crate) rows: &'a dyn Rows,
    pub(crate) labels: &'a Labels,
    pub(crate) bom: Bom,
    pub(crate) fatal: bool,
    /// The input bytes of a part (a part ends at the first row that starts this far past its
    /// start).
    pub(crate) part_bytes: usize,
    /// Below this many input bytes, the batch is decoded on the calling thread.
    pub(crate) serial_bytes: usize,
}

impl Job<'_> {
    /// Decodes the rows of `range` into `text`.
    fn part(&self, range: Range<usize>, text: &mut String) -> Part {
        let mut part = Part {
            ends: Vec::with_capacity(range.len()),
            rows: Vec::with_capacity(range.len()),
            error: None,
        };
        for row in range {
            let Some(data) = self.rows.get(row) else {
                part.ends.push(text.len());
                part.rows.push(None);
                continue;
            };
            let (encoding, source, skip) = self.labels.decide(row, data, self.bom);
            match decode_row(encoding, &data[skip..], self.fatal, text) {
                Ok(replaced) => {
                    part.ends.push(text.len());
                    part.rows.push(Some((encoding, source, replaced)));
                }
                Err(bad) => {
                    let shift = skip as i64;
                    let bad = Malformed {
                        start: bad.start + shift,
                        end: bad.end + shift,
                        ..bad
                    };
                    part.error = Some((row, encoding, bad));
                    break;
                }
            }
        }
        part
    }

    /// The parts: consecutive ranges of rows of about `part_bytes` of input each.
    pub(crate) fn ranges(&self) -> Vec<Range<usize>> {
        let n = self.rows.len();
        let mut ranges = Vec::new();
        let mut start = 0;
        while start < n {
            let base = self.rows.bytes_before(start);
            // The first row whose start is at least `part_bytes` past the part's start.
            let mut lo = start + 1;
            let mut hi = n;
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if self.rows.bytes_before(mid) - base >= self.part_bytes {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            // At most 64Ki rows a part, so that many tiny rows still spread.
            let end = lo.min(start + (1 << 16));
            ranges.push(start..end);
            start = end;
        }
        ranges
    }

    /// The most bytes the batch's text can take: the sum of `row_bound` over the rows.
    pub(crate) fn bound(&self) -> Result<usize, Error> {
        let n = self.rows.len();
        self.rows
            .bytes_before(n)
            .checked_mul(3)
            .and_then(|bytes| bytes.checked_add(n.checked_mul(ROW_SLACK)?))
            .ok_or(Error::TooLarge)
    }

    /// Decodes every row into `out` (at least `bound()` bytes): on `threads` workers (None:
    /// every core of rayon's global pool), or on this thread for small batches and
    /// `threads=1`. With `fatal`, the first malformed row in row order is the error.
    pub(crate) fn run(
        &self,
        threads: Option<usize>,
        out: &mut [MaybeUninit<u8>],
    ) -> Result<Result<Batch, RowError>, Error> {
        if out.len() < self.bound()? {
            return Err(Error::OutputTooSmall);
        }
        let n = self.rows.len();
        let ranges = self.ranges();
        let parts = ranges.len();
        let shared = Shared {
            job: self,
            ranges,
            base: out.as_mut_ptr().cast::<u8>(),
            cap: out.len(),
            ends: (0..parts).map(|_| AtomicUsize::new(UNKNOWN)).collect(),
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            overflow: AtomicBool::new(false),
        };
        let mut done = if threads == Some(1) || parts <= 1 || self.rows.bytes_before(n) < self.serial_bytes {
            shared.work()
        } else {
            // The calling thread is a worker too: it starts on the first part at once, and the
            // helpers join when the pool has woken them (one that finds no part left is done).
            let found = Mutex::new(Vec::new());
            match threads {
                None => rayon::in_place_scope(|scope| {
                    shared.work_with(scope, rayon::current_num_threads() - 1, &found);
                }),
                Some(n) => pool(n - 1)?.in_place_scope(|scope| shared.work_with(scope, n - 1, &found)),
            }
            found.into_inner().unwrap_or_else(PoisonError::into_inner)
        };
        done.sort_unstable_by_key(|&(k, _)| k);
        if let Some(error) = done.iter().find_map(|(_, part)| part.error) {
            return Ok(Err(error));
        }
        if shared.overflow.load(Ordering::Relaxed) || done.len() != parts {
            return Err(Error::Overflow);
        }
        let mut ends = Vec::with_capacity(n);
        let mut details = Vec::with_capacity(n);
        let mut start = 0;
        for ((_, part), end) in done.into_iter().zip(&shared.ends) {
            ends.extend(part.ends.iter().map(|e| start + e));
            details.extend(part.rows);
            start = end.load(Ordering::Relaxed);
        }
        // Every part was placed (`done.len() == parts`, no overflow), each at
        // `[ends[k - 1], ends[k])`: the first `start` bytes of `out` are the text.
        Ok(Ok(Batch {
            len: start,
            ends,
            rows: details,
        }))
    }
}

/// A rayon pool of `n` threads, kept for later calls: the helpers of a call on `n + 1`
/// threads (the global pool has one thread per core), which is the count an error names.
fn pool(n: usize) -> Result<Arc<rayon::ThreadPool>, Error> {
    type Pools = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;
    static POOLS: OnceLock<Pools> = OnceLock::new();
    let pools = POOLS.get_or_init(Default::default);
    let mut pools = pools.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(size, _)| *size == n) {
        return Ok(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Error::Threads(n + 1, e.to_string()))?;
    let pool = Arc::new(pool);
    pools.push((n, pool.clone()));
    Ok(pool)
}
