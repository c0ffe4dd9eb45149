//! `decode_batch`: many rows decoded at once, from Arrow binary arrays (or a list of bytes) to
//! Arrow string arrays, on all cores with the GIL released.
//!
//! Arrow crosses the boundary through the C data interface's PyCapsule protocol
//! (`__arrow_c_array__`): the input array's buffers are read where they are (no Python object
//! per row, no copy), and the output is built in Rust and handed to pyarrow as capsules, which
//! `pyarrow.array` imports without a copy. The Arrow side is arrow-rs (`arrow-array` with `ffi`),
//! whose import and export of the C data interface are tested against pyarrow by its project.
//!
//! Rows are split into parts of about `PART_BYTES` of input; each part is decoded into its own
//! UTF-8 buffer (one rayon task), then the parts' buffers are copied into one.

use std::ffi::CStr;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi, to_ffi};
use arrow_array::{
    Array, BinaryArray, GenericStringArray, Int64Array, LargeBinaryArray, LargeStringArray, OffsetSizeTrait,
    StringArray,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_data::ArrayData;
use arrow_schema::DataType;
use pyo3::exceptions::{PyLookupError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyList, PyString, PyTuple};
use rayon::prelude::*;
use simdenc::{DecoderResult, Encoding};

use crate::auto::{Auto, transport_of};
use crate::{Bom, Malformed, decode_error, input_bytes, parse_bom, parse_decode_errors};
use simdenc::sniff;

/// Input bytes per rayon task: large enough that a task's overhead is noise, small enough
/// that a batch of a few MB spreads over every core.
const PART_BYTES: usize = 256 * 1024;

/// Below this many input bytes the batch is decoded on the calling thread, GIL held.
const SERIAL_BYTES: usize = 64 * 1024;

/// How the encoding of a row was decided (the `sources` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// The label given for the row, or for every row.
    Label,
    /// A step of the HTML Standard's "determining the character encoding": `bom` (also with
    /// labels, when `bom="sniff"`), `default` (a row without a label), and with "auto" `http`,
    /// `meta`, `xml` and `guess` too.
    Sniffed(sniff::Source),
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::Label => "label",
            Source::Sniffed(source) => source.as_str(),
        }
    }
}

/// How the rows' encodings are decided.
enum Labels {
    /// One encoding for every row: a label (`Source::Label`), or the default for all.
    One(&'static Encoding, Source),
    /// One label per row; a null label is `default`.
    PerRow {
        labels: Vec<Option<&'static Encoding>>,
        default: &'static Encoding,
    },
    /// "auto": `simdenc::sniff` on each row, with its transport-layer encoding.
    Auto { auto: Auto, hints: Hints },
}

/// The transport-layer encodings of `Labels::Auto`: one for all rows, or one per row.
enum Hints {
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
            Labels::Auto { auto, hints } => {
                let transport = match hints {
                    Hints::One(transport) => *transport,
                    Hints::PerRow(transports) => transports.get(row).copied().flatten(),
                };
                let found = auto.sniff(data, transport);
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
fn decode_row(
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
trait Rows: Sync {
    fn len(&self) -> usize;
    fn get(&self, row: usize) -> Option<&[u8]>;
    /// The input bytes of rows `0..row` (for splitting into parts).
    fn bytes_before(&self, row: usize) -> usize;
}

impl<O: OffsetSizeTrait> Rows for arrow_array::GenericBinaryArray<O> {
    fn len(&self) -> usize {
        Array::len(self)
    }

    fn get(&self, row: usize) -> Option<&[u8]> {
        self.is_valid(row).then(|| self.value(row))
    }

    fn bytes_before(&self, row: usize) -> usize {
        let offsets = self.value_offsets();
        (offsets[row] - offsets[0]).as_usize()
    }
}

/// A list of bytes objects: their slices, and the running total of their lengths.
struct ListRows<'a> {
    rows: Vec<Option<&'a [u8]>>,
    before: Vec<usize>,
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

/// What a part of the batch decoded to.
#[derive(Default)]
struct Part {
    text: String,
    /// The end of each row's text in `text`.
    ends: Vec<usize>,
    /// Per row, `None` if null: the encoding used, how it was decided, replacements made.
    rows: Vec<Option<(&'static Encoding, Source, u64)>>,
    /// With `fatal`: the first malformed row (its index in the batch), where the part stopped.
    error: Option<(usize, &'static Encoding, Malformed)>,
}

struct Job<'a> {
    rows: &'a dyn Rows,
    labels: &'a Labels,
    bom: Bom,
    fatal: bool,
}

impl Job<'_> {
    fn part(&self, range: Range<usize>) -> Part {
        let mut part = Part {
            text: String::with_capacity(
                self.rows.bytes_before(range.end) - self.rows.bytes_before(range.start),
            ),
            ends: Vec::with_capacity(range.len()),
            rows: Vec::with_capacity(range.len()),
            error: None,
        };
        for row in range {
            let Some(data) = self.rows.get(row) else {
                part.ends.push(part.text.len());
                part.rows.push(None);
                continue;
            };
            let (encoding, source, skip) = self.labels.decide(row, data, self.bom);
            match decode_row(encoding, &data[skip..], self.fatal, &mut part.text) {
                Ok(replaced) => {
                    part.ends.push(part.text.len());
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

    /// The parts: consecutive ranges of rows of about `PART_BYTES` input each.
    fn ranges(&self) -> Vec<Range<usize>> {
        let n = self.rows.len();
        let mut ranges = Vec::new();
        let mut start = 0;
        while start < n {
            let base = self.rows.bytes_before(start);
            // The first row whose start is at least PART_BYTES past the part's start.
            let mut lo = start + 1;
            let mut hi = n;
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if self.rows.bytes_before(mid) - base >= PART_BYTES {
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

    fn run(&self, threads: Option<usize>) -> PyResult<Vec<Part>> {
        let ranges = self.ranges();
        let total = self.rows.bytes_before(self.rows.len());
        if threads == Some(1) || ranges.len() <= 1 || total < SERIAL_BYTES {
            return Ok(ranges.into_iter().map(|r| self.part(r)).collect());
        }
        let decode = || ranges.into_par_iter().map(|r| self.part(r)).collect();
        Ok(match threads {
            None => decode(),
            Some(n) => pool(n)?.install(decode),
        })
    }
}

/// A rayon pool of `n` threads, kept for later calls (the global pool has one per core).
fn pool(n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
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
        .map_err(|e| PyValueError::new_err(format!("cannot start {n} threads: {e}")))?;
    let pool = Arc::new(pool);
    pools.push((n, pool.clone()));
    Ok(pool)
}

/// The parts' texts as one string array with offsets `O`, nulls where the input had them.
fn string_array<O: OffsetSizeTrait>(parts: Vec<Part>, nulls: Option<NullBuffer>) -> PyResult<ArrayData> {
    let total: usize = parts.iter().map(|p| p.text.len()).sum();
    if O::from_usize(total).is_none() {
        return Err(PyOverflowError::new_err(format!(
            "the decoded text ({total} bytes) does not fit a string array's 32-bit offsets: \
             pass a large_binary array to get a large_string one"
        )));
    }
    let rows: usize = parts.iter().map(|p| p.ends.len()).sum();
    let mut offsets = Vec::with_capacity(rows + 1);
    offsets.push(O::usize_as(0));
    let mut base = 0;
    for part in &parts {
        // In range: every end is at most `total`, checked above.
        offsets.extend(part.ends.iter().map(|&end| O::usize_as(base + end)));
        base += part.text.len();
    }
    let values = if parts.len() == 1 {
        let text = parts.into_iter().next().map(|p| p.text).unwrap_or_default();
        Buffer::from_vec(text.into_bytes())
    } else {
        // Zeroed storage comes from the allocator as fresh pages: no pass over it here.
        let mut values = vec![0u8; total];
        let mut slices = Vec::with_capacity(parts.len());
        let mut rest = values.as_mut_slice();
        for part in &parts {
            let (head, tail) = rest.split_at_mut(part.text.len());
            slices.push((head, part.text.as_bytes()));
            rest = tail;
        }
        slices
            .into_par_iter()
            .for_each(|(to, from)| to.copy_from_slice(from));
        Buffer::from_vec(values)
    };
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    if let Some(nulls) = &nulls
        && nulls.len() != rows
    {
        return Err(PyValueError::new_err(
            "internal error: null mask of the wrong length",
        ));
    }
    // SAFETY: what `try_new` checks holds: the offsets are monotonic, start at 0 and end at
    // `values.len()` (`OffsetBuffer::new` checked monotony; they are the running ends of the
    // parts' texts, the last one `total`); every row's bytes, between two offsets, are whole
    // `String` contents (each row is appended whole to a part's `String`, and the parts are
    // concatenated in order), so each is valid UTF-8; `nulls` has one bit per row (checked
    // just above).
    #[allow(unsafe_code)]
    let array = unsafe { GenericStringArray::<O>::new_unchecked(offsets, values, nulls) };
    Ok(array.into_data())
}

/// `data` as the two capsules of the C data interface's PyCapsule protocol.
fn export<'py>(py: Python<'py>, data: &ArrayData) -> PyResult<Bound<'py, PyTuple>> {
    let (array, schema) = to_ffi(data).map_err(|e| PyValueError::new_err(e.to_string()))?;
    // Whoever imports a capsule moves the struct out and leaves it released; dropping it then
    // is a no-op. A capsule never imported releases its array or schema when dropped.
    let schema = PyCapsule::new_with_destructor(py, schema, Some(c"arrow_schema".into()), |s, _| drop(s))?;
    let array = PyCapsule::new_with_destructor(py, array, Some(c"arrow_array".into()), |a, _| drop(a))?;
    PyTuple::new(py, [schema.into_any(), array.into_any()])
}

/// The pointer a capsule of the PyCapsule protocol holds, checked by its name.
fn capsule_pointer<T>(capsule: &Bound<'_, PyAny>, name: &CStr) -> PyResult<*mut T> {
    let capsule = capsule
        .cast::<PyCapsule>()
        .map_err(|_| PyTypeError::new_err("__arrow_c_array__ must return two capsules"))?;
    Ok(capsule.pointer_checked(Some(name))?.as_ptr().cast())
}

/// Imports an Arrow array from any object with `__arrow_c_array__` (pyarrow, polars,
/// nanoarrow, ...), moving it out of the capsule. The array is validated in full: its offsets
/// are trusted afterwards.
fn import(object: &Bound<'_, PyAny>) -> PyResult<ArrayData> {
    let pair = object.call_method0("__arrow_c_array__")?;
    let (schema, array): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair.extract()?;
    let schema_ptr = capsule_pointer::<FFI_ArrowSchema>(&schema, c"arrow_schema")?;
    let array_ptr = capsule_pointer::<FFI_ArrowArray>(&array, c"arrow_array")?;
    // SAFETY: the PyCapsule protocol: a capsule named "arrow_array" holds a pointer to an
    // initialised `struct ArrowArray`, and one named "arrow_schema" to a `struct ArrowSchema`
    // (the C data interface's structs, which `FFI_ArrowArray`/`FFI_ArrowSchema` are, with
    // `repr(C)`); both are valid while the capsules live, and `schema`/`array` keep them alive
    // until the end of this function. `from_raw` moves the array out and leaves a released one
    // behind (the protocol's "move"), so the capsule's destructor will not release it again;
    // the schema is only read (borrowed) during `from_ffi`, which builds an `ArrayData` that
    // owns the moved array and releases it when dropped.
    #[allow(unsafe_code)]
    let data = unsafe {
        let array = FFI_ArrowArray::from_raw(array_ptr);
        from_ffi(array, &*schema_ptr)
    }
    .map_err(|e| PyValueError::new_err(format!("cannot import the Arrow array: {e}")))?;
    data.validate_full()
        .map_err(|e| PyValueError::new_err(format!("invalid Arrow array: {e}")))?;
    Ok(data)
}

fn encoding_of_label(label: &str, row: usize) -> PyResult<&'static Encoding> {
    Encoding::for_label(label.as_bytes())
        .ok_or_else(|| PyLookupError::new_err(format!("unknown encoding: {label} (row {row})")))
}

/// How the rows' encodings are decided, from `decode_batch`'s arguments: `encodings` None (the
/// default for all), a label, "auto", or one label per row (a list of str/None, or an Arrow
/// string array); `default` (None: UTF-8, or with "auto" the HTML Standard's windows-1252);
/// with "auto", `http_charsets` (None, one label, or one per row), `html` and `guess`.
#[allow(clippy::too_many_arguments)]
fn labels_of(
    encodings: Option<&Bound<'_, PyAny>>,
    rows: usize,
    default: Option<&str>,
    http_charsets: Option<&Bound<'_, PyAny>>,
    html: Option<bool>,
    guess: bool,
) -> PyResult<Labels> {
    let auto = match encodings.map(|e| e.cast::<PyString>()) {
        Some(Ok(label)) => label.to_cow()?.trim().eq_ignore_ascii_case("auto"),
        _ => false,
    };
    if auto {
        let auto = Auto::new(html, guess, default)?;
        let hints = match http_charsets {
            None => Hints::One(None),
            Some(one) if one.is_instance_of::<PyString>() => {
                Hints::One(transport_of(Some(&one.cast::<PyString>()?.to_cow()?)))
            }
            Some(per_row) => Hints::PerRow(per_row_labels(per_row, rows, "http_charsets", true)?),
        };
        return Ok(Labels::Auto { auto, hints });
    }
    if http_charsets.is_some() {
        return Err(PyValueError::new_err(
            "http_charsets are the transport layer's labels for encodings=\"auto\"",
        ));
    }
    let default = match default {
        None => simdenc::UTF_8,
        Some(label) => Encoding::for_label(label.as_bytes())
            .ok_or_else(|| PyLookupError::new_err(format!("unknown encoding: {label}")))?,
    };
    let Some(encodings) = encodings else {
        return Ok(Labels::One(default, Source::Sniffed(sniff::Source::Default)));
    };
    if let Ok(label) = encodings.cast::<PyString>() {
        let label = label.to_cow()?;
        let encoding = Encoding::for_label(label.as_bytes())
            .ok_or_else(|| PyLookupError::new_err(format!("unknown encoding: {label}")))?;
        return Ok(Labels::One(encoding, Source::Label));
    }
    let labels = per_row_labels(encodings, rows, "encodings", false)?;
    Ok(Labels::PerRow { labels, default })
}

/// One label per row (a list of str/None, or an Arrow string array), resolved; unknown labels
/// raise `LookupError`, or with `lenient` are None (as the HTML Standard ignores an unknown
/// transport-layer charset).
fn per_row_labels(
    object: &Bound<'_, PyAny>,
    rows: usize,
    what: &str,
    lenient: bool,
) -> PyResult<Vec<Option<&'static Encoding>>> {
    let resolve = |label: &str, row: usize| -> PyResult<Option<&'static Encoding>> {
        if lenient {
            Ok(transport_of(Some(label)))
        } else {
            encoding_of_label(label, row).map(Some)
        }
    };
    let per_row = if let Ok(list) = object.cast::<PyList>() {
        let mut labels = Vec::with_capacity(list.len());
        for (row, item) in list.iter().enumerate() {
            labels.push(if item.is_none() {
                None
            } else {
                let label = item
                    .cast::<PyString>()
                    .map_err(|_| PyTypeError::new_err(format!("{what}[{row}] must be a str or None")))?;
                resolve(&label.to_cow()?, row)?
            });
        }
        labels
    } else if object.hasattr("__arrow_c_array__")? {
        let data = import(object)?;
        match data.data_type() {
            DataType::Utf8 => labels_of_strings(&StringArray::from(data), resolve)?,
            DataType::LargeUtf8 => labels_of_strings(&LargeStringArray::from(data), resolve)?,
            other => {
                return Err(PyTypeError::new_err(format!(
                    "per-row {what} must be a string or large_string array, not {other}"
                )));
            }
        }
    } else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be None, a label, a list of labels or a string array"
        )));
    };
    if per_row.len() != rows {
        return Err(PyValueError::new_err(format!(
            "{} {what} for {rows} values: give one per row, or one for all",
            per_row.len()
        )));
    }
    Ok(per_row)
}

fn labels_of_strings<O: OffsetSizeTrait>(
    array: &GenericStringArray<O>,
    resolve: impl Fn(&str, usize) -> PyResult<Option<&'static Encoding>>,
) -> PyResult<Vec<Option<&'static Encoding>>> {
    let mut labels = Vec::with_capacity(array.len());
    // Labels repeat: the last one's resolution is kept.
    let mut last: Option<(&str, Option<&'static Encoding>)> = None;
    for (row, label) in array.iter().enumerate() {
        labels.push(match label {
            None => None,
            Some(label) => match last {
                Some((text, encoding)) if text == label => encoding,
                _ => {
                    let encoding = resolve(label, row)?;
                    last = Some((label, encoding));
                    encoding
                }
            },
        });
    }
    Ok(labels)
}

/// What `_decode_batch` returns: the capsules of the text, then of the encodings, sources and
/// replacement counts that were asked for.
fn results<'py>(
    py: Python<'py>,
    text: ArrayData,
    parts_rows: Vec<Option<(&'static Encoding, Source, u64)>>,
    want: (bool, bool, bool),
) -> PyResult<Bound<'py, PyTuple>> {
    let mut out = vec![export(py, &text)?.into_any()];
    if want.0 {
        let names: StringArray = parts_rows.iter().map(|r| r.map(|(e, _, _)| e.name())).collect();
        out.push(export(py, &names.into_data())?.into_any());
    }
    if want.1 {
        let sources: StringArray = parts_rows.iter().map(|r| r.map(|(_, s, _)| s.name())).collect();
        out.push(export(py, &sources.into_data())?.into_any());
    }
    if want.2 {
        let counts: Int64Array = parts_rows
            .iter()
            .map(|r| r.map(|(_, _, n)| i64::try_from(n).unwrap_or(i64::MAX)))
            .collect();
        out.push(export(py, &counts.into_data())?.into_any());
    }
    PyTuple::new(py, out)
}

/// The native part of `simdenc.decode_batch` (python/simdenc/_batch.py checks and converts
/// the arguments and imports the results into pyarrow). `values` is a list of bytes-like
/// objects or None, or an object with `__arrow_c_array__` (binary or large_binary).
/// Returns the capsule pairs of the text and of the details asked for.
#[pyfunction]
#[pyo3(signature = (
    values, encodings, errors, bom, threads, want_encodings, want_sources, want_replacements,
    default = None, http_charsets = None, html = None, guess = true,
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _decode_batch<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
    encodings: Option<&Bound<'py, PyAny>>,
    errors: &str,
    bom: &str,
    threads: Option<usize>,
    want_encodings: bool,
    want_sources: bool,
    want_replacements: bool,
    default: Option<&str>,
    http_charsets: Option<&Bound<'py, PyAny>>,
    html: Option<bool>,
    guess: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let fatal = parse_decode_errors(errors)?;
    let bom = parse_bom(bom)?;
    if threads == Some(0) {
        return Err(PyValueError::new_err(
            "threads must be at least 1 (or None: every core)",
        ));
    }
    let want = (want_encodings, want_sources, want_replacements);
    if let Ok(list) = values.cast::<PyList>() {
        let mut owned = Vec::with_capacity(list.len());
        for (row, item) in list.iter().enumerate() {
            owned.push(if item.is_none() {
                None
            } else {
                Some(
                    input_bytes(&item)
                        .map_err(|e| PyTypeError::new_err(format!("values[{row}]: {}", e.value(py))))?,
                )
            });
        }
        let rows: Vec<Option<&[u8]>> = owned.iter().map(|b| b.as_ref().map(|b| b.as_bytes())).collect();
        let mut before = Vec::with_capacity(rows.len() + 1);
        let mut sum = 0usize;
        before.push(0);
        for row in &rows {
            sum += row.map_or(0, <[u8]>::len);
            before.push(sum);
        }
        let rows = ListRows { rows, before };
        let labels = labels_of(encodings, rows.len(), default, http_charsets, html, guess)?;
        let nulls = rows
            .rows
            .iter()
            .any(Option::is_none)
            .then(|| NullBuffer::from(rows.rows.iter().map(Option::is_some).collect::<Vec<_>>()));
        let parts = decode_rows(py, &rows, &labels, bom, fatal, threads)?;
        // `owned` holds the bytes objects the rows borrow until here.
        drop(owned);
        // A string array unless its 32-bit offsets cannot hold the text.
        let size: usize = parts.0.iter().map(|p| p.text.len()).sum();
        let text = if i32::from_usize(size).is_none() {
            string_array::<i64>(parts.0, nulls)?
        } else {
            string_array::<i32>(parts.0, nulls)?
        };
        return results(py, text, parts.1, want);
    }
    if !values.hasattr("__arrow_c_array__")? {
        let kind = values.get_type().name()?;
        return Err(PyTypeError::new_err(format!(
            "values must be a list of bytes or an Arrow binary array (with __arrow_c_array__), not {kind}"
        )));
    }
    let data = import(values)?;
    let (text, rows_info) = match data.data_type() {
        DataType::Binary => {
            let array = BinaryArray::from(data);
            let labels = labels_of(encodings, Array::len(&array), default, http_charsets, html, guess)?;
            let (parts, info) = decode_rows(py, &array, &labels, bom, fatal, threads)?;
            (string_array::<i32>(parts, array.nulls().cloned())?, info)
        }
        DataType::LargeBinary => {
            let array = LargeBinaryArray::from(data);
            let labels = labels_of(encodings, Array::len(&array), default, http_charsets, html, guess)?;
            let (parts, info) = decode_rows(py, &array, &labels, bom, fatal, threads)?;
            (string_array::<i64>(parts, array.nulls().cloned())?, info)
        }
        other => {
            return Err(PyTypeError::new_err(format!(
                "values must be a binary or large_binary array, not {other}"
            )));
        }
    };
    results(py, text, rows_info, want)
}

type Decoded = (Vec<Part>, Vec<Option<(&'static Encoding, Source, u64)>>);

/// Decodes `rows` (with the GIL released unless the batch is small), then `finish`.
fn decode_rows(
    py: Python<'_>,
    rows: &dyn Rows,
    labels: &Labels,
    bom: Bom,
    fatal: bool,
    threads: Option<usize>,
) -> PyResult<Decoded> {
    let job = Job {
        rows,
        labels,
        bom,
        fatal,
    };
    let parts = if rows.bytes_before(rows.len()) >= SERIAL_BYTES {
        py.detach(|| job.run(threads))?
    } else {
        job.run(threads)?
    };
    finish(py, parts, rows)
}

/// Raises the first malformed row's error (with `fatal`), else splits the parts' per-row
/// details out.
fn finish(py: Python<'_>, mut parts: Vec<Part>, rows: &dyn Rows) -> PyResult<Decoded> {
    if let Some((row, encoding, bad)) = parts.iter().find_map(|p| p.error) {
        let object = rows.get(row).unwrap_or_default();
        let err = decode_error(py, encoding, object, 0, bad);
        let value = err.value(py);
        // The row in the message (the reason) and as an attribute.
        let reason: String = value.getattr("reason")?.extract()?;
        value.setattr("reason", format!("{reason} (row {row})"))?;
        value.setattr("row", row)?;
        return Err(err);
    }
    let info = parts
        .iter_mut()
        .flat_map(|p| std::mem::take(&mut p.rows))
        .collect();
    Ok((parts, info))
}

use arrow_buffer::ArrowNativeType as _;
