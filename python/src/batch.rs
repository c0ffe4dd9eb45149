//! `decode_batch`: many rows decoded at once, from Arrow binary arrays (or a list of bytes) to
//! Arrow string arrays, on all cores with the GIL released.
//!
//! Arrow crosses the boundary through the C data interface's PyCapsule protocol
//! (`__arrow_c_array__`): the input array's buffers are read where they are (no Python object
//! per row, no copy), and the output is built in Rust and handed to pyarrow as capsules, which
//! `pyarrow.array` imports without a copy. The Arrow side is arrow-rs (`arrow-array` with `ffi`),
//! whose import and export of the C data interface are tested against pyarrow by its project.
//!
//! The decoding itself (rows split into parts of `PART_BYTES` of input, decoded by one worker
//! per thread into the batch's one allocation) is `batch_core.rs`, which has no Python in it:
//! the `batch` fuzz target runs the same file.

use std::ffi::CStr;
use std::mem::MaybeUninit;

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi, to_ffi};
use arrow_array::{
    Array, BinaryArray, BooleanArray, GenericStringArray, Int32Array, Int64Array, LargeBinaryArray,
    LargeStringArray, OffsetSizeTrait, StringArray,
};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use arrow_data::ArrayData;
use arrow_schema::DataType;
use pyo3::exceptions::{
    PyLookupError, PyMemoryError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyList, PyString, PyTuple};
use simdenc::Encoding;

use crate::auto::{Auto, transport_of};
use crate::{Bom, Malformed, decode_error, input_bytes, parse_bom, parse_decode_errors};
use simdenc::sniff;

#[path = "batch_core.rs"]
mod batch_core;
use batch_core::{Batch, Hints, Job, Labels, ListRows, Rows, Source};

/// Input bytes per rayon task: large enough that a task's overhead is noise, small enough
/// that a batch of a few MB spreads over every core.
const PART_BYTES: usize = 64 * 1024;

/// Below this many input bytes the batch is decoded on the calling thread, GIL held.
const SERIAL_BYTES: usize = 64 * 1024;

impl From<batch_core::Error> for PyErr {
    fn from(error: batch_core::Error) -> PyErr {
        match error {
            batch_core::Error::TooLarge => PyMemoryError::new_err("the batch is too large to decode at once"),
            batch_core::Error::OutputTooSmall => {
                PyRuntimeError::new_err("internal error: output smaller than its bound")
            }
            batch_core::Error::Overflow => {
                PyRuntimeError::new_err("internal error: the decoded text did not fit its bound")
            }
            batch_core::Error::Threads(n, e) => {
                PyValueError::new_err(format!("cannot start {n} threads: {e}"))
            }
        }
    }
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

/// Where a batch's text is written: a buffer of pyarrow's default memory pool
/// (`pyarrow.allocate_buffer`), so that the text is allocated, counted and reused as the
/// caller's other Arrow memory is. With pyarrow's default pools (mimalloc, jemalloc) a freed
/// batch's pages serve the next one; pages fresh from the kernel cost as much to fault in as
/// the decoding of the text written to them (docs/decisions.md, "decode_batch's output").
struct Output<'py> {
    buffer: Bound<'py, PyAny>,
    base: *mut u8,
    cap: usize,
}

impl<'py> Output<'py> {
    /// A new buffer of at least `cap` bytes, not initialised.
    fn allocate(py: Python<'py>, cap: usize) -> PyResult<Output<'py>> {
        let buffer = py
            .import("pyarrow")?
            .call_method1("allocate_buffer", (cap.max(1),))?;
        let mutable: bool = buffer.getattr("is_mutable")?.extract()?;
        let size: usize = buffer.getattr("size")?.extract()?;
        let address: usize = buffer.getattr("address")?.extract()?;
        if !mutable || size < cap || address == 0 {
            return Err(PyRuntimeError::new_err(format!(
                "pyarrow.allocate_buffer({cap}) gave a buffer of {size} bytes at {address:#x}, \
                 mutable: {mutable}"
            )));
        }
        Ok(Output {
            buffer,
            base: address as *mut u8,
            cap,
        })
    }

    /// The buffer's bytes, to be written.
    fn bytes(&mut self) -> &mut [MaybeUninit<u8>] {
        // SAFETY: `base` is the address of `cap` (at most its size) bytes of a mutable
        // pyarrow buffer, kept alive by `self.buffer` for as long as `self` is borrowed; the
        // buffer was just allocated and no other reference to it exists (it has not been
        // returned to Python yet), so this is the only view of the bytes; `MaybeUninit`
        // makes no claim about their contents.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts_mut(self.base.cast::<MaybeUninit<u8>>(), self.cap)
        }
    }

    /// What the Python side builds the text array from (`_batch._text`): the buffer, the
    /// length of the text, whether the array is `large_string`, the offsets (capsules of an
    /// int32 or int64 array of one more value than rows), the validity bitmap (capsules of a
    /// boolean array, one value per row) or None, and the null count.
    fn into_text(
        self,
        batch: &Batch,
        nulls: Option<&NullBuffer>,
        large: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let py = self.buffer.py();
        let len = batch.len;
        if !large && i32::try_from(len).is_err() {
            return Err(PyOverflowError::new_err(format!(
                "the decoded text ({len} bytes) does not fit a string array's 32-bit offsets: \
                 pass a large_binary array to get a large_string one"
            )));
        }
        let starts = std::iter::once(0).chain(batch.ends.iter().copied());
        // In range: every end is at most `len`, which fits (checked above for int32).
        let offsets = if large {
            Int64Array::from_iter_values(starts.map(|end| end as i64)).into_data()
        } else {
            Int32Array::from_iter_values(starts.map(|end| end as i32)).into_data()
        };
        let (validity, null_count) = match nulls {
            Some(nulls) if nulls.null_count() > 0 => {
                if nulls.len() != batch.ends.len() {
                    return Err(PyValueError::new_err(
                        "internal error: null mask of the wrong length",
                    ));
                }
                let bits = BooleanArray::new(nulls.iter().collect::<BooleanBuffer>(), None);
                (Some(export(py, &bits.into_data())?), nulls.null_count())
            }
            _ => (None, 0),
        };
        PyTuple::new(
            py,
            [
                self.buffer.clone(),
                len.into_pyobject(py)?.into_any(),
                large.into_pyobject(py)?.to_owned().into_any(),
                export(py, &offsets)?.into_any(),
                match validity {
                    Some(v) => v.into_any(),
                    None => py.None().into_bound(py),
                },
                null_count.into_pyobject(py)?.into_any(),
            ],
        )
    }
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
        let sniff = Box::new(move |data: &[u8], transport| auto.sniff(data, transport));
        return Ok(Labels::Auto { sniff, hints });
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
    text: Bound<'py, PyTuple>,
    parts_rows: Vec<Option<(&'static Encoding, Source, u64)>>,
    want: (bool, bool, bool),
) -> PyResult<Bound<'py, PyTuple>> {
    let mut out = vec![text.into_any()];
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
        let (output, batch) = decode_rows(py, &rows, &labels, bom, fatal, threads)?;
        // `owned` holds the bytes objects the rows borrow until here.
        drop(owned);
        // A string array unless its 32-bit offsets cannot hold the text.
        let large = i32::try_from(batch.len).is_err();
        let text = output.into_text(&batch, nulls.as_ref(), large)?;
        let details = batch.rows;
        return results(py, text, details, want);
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
            let (output, batch) = decode_rows(py, &array, &labels, bom, fatal, threads)?;
            (output.into_text(&batch, array.nulls(), false)?, batch.rows)
        }
        DataType::LargeBinary => {
            let array = LargeBinaryArray::from(data);
            let labels = labels_of(encodings, Array::len(&array), default, http_charsets, html, guess)?;
            let (output, batch) = decode_rows(py, &array, &labels, bom, fatal, threads)?;
            (output.into_text(&batch, array.nulls(), true)?, batch.rows)
        }
        other => {
            return Err(PyTypeError::new_err(format!(
                "values must be a binary or large_binary array, not {other}"
            )));
        }
    };
    results(py, text, rows_info, want)
}

/// Decodes `rows` into a new `Output` (with the GIL released unless the batch is small); with
/// `fatal`, raises the first malformed row's error.
fn decode_rows<'py>(
    py: Python<'py>,
    rows: &dyn Rows,
    labels: &Labels,
    bom: Bom,
    fatal: bool,
    threads: Option<usize>,
) -> PyResult<(Output<'py>, Batch)> {
    let bom = match bom {
        Bom::Sniff => batch_core::Bom::Sniff,
        Bom::Strip => batch_core::Bom::Strip,
        Bom::Keep => batch_core::Bom::Keep,
    };
    let job = Job {
        rows,
        labels,
        bom,
        fatal,
        part_bytes: PART_BYTES,
        serial_bytes: SERIAL_BYTES,
    };
    let mut output = Output::allocate(py, job.bound()?)?;
    let out = output.bytes();
    let decoded = if rows.bytes_before(rows.len()) >= SERIAL_BYTES {
        py.detach(|| job.run(threads, out))?
    } else {
        job.run(threads, out)?
    };
    match decoded {
        Ok(batch) => Ok((output, batch)),
        Err((row, encoding, bad)) => {
            let object = rows.get(row).unwrap_or_default();
            let bad = Malformed {
                start: bad.start,
                end: bad.end,
                at_eof: bad.at_eof,
            };
            let err = decode_error(py, encoding, object, 0, bad);
            let value = err.value(py);
            // The row in the message (the reason) and as an attribute.
            let reason: String = value.getattr("reason")?.extract()?;
            value.setattr("reason", format!("{reason} (row {row})"))?;
            value.setattr("row", row)?;
            Err(err)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::batch_core::row_bound;
    use super::*;
    use crate::Rng;

    /// `row_bound` is at least what every decoder promises for any length (the decoders'
    /// bounds are linear: small lengths and large ones cover them).
    #[test]
    fn bound_covers_every_decoder() {
        for &encoding in Encoding::all() {
            let decoder = encoding.new_decoder_without_bom_handling();
            for len in (0..4096).chain([65_535, 1 << 20, (1 << 20) + 1, 1 << 31]) {
                let promised = decoder.max_utf8_buffer_length(len).unwrap();
                assert!(
                    promised <= row_bound(len).unwrap(),
                    "{}: {promised} bytes for {len}",
                    encoding.name()
                );
            }
        }
    }

    /// Rows of text in `encoding` with random bytes among them, some null, some empty.
    fn rows(rng: &mut Rng, encoding: &'static Encoding, n: usize) -> Vec<Option<Vec<u8>>> {
        let text = "h\u{e9}llo \u{65e5}\u{672c}\u{8a9e} \u{d55c}\u{ad6d}\u{c5b4} \u{4e2d}\u{6587} \u{20ac} \u{1f600} ";
        (0..n)
            .map(|_| {
                if rng.below(20) == 0 {
                    return None;
                }
                let mut row = Vec::new();
                for _ in 0..rng.below(12) {
                    if rng.below(4) == 0 {
                        row.extend((0..rng.below(5)).map(|_| rng.next() as u8));
                    } else {
                        let head: String = text.chars().take(rng.below(8)).collect();
                        row.extend_from_slice(&encoding.encode(&head).0);
                        row.extend_from_slice(&encoding.encode(text).0);
                    }
                }
                Some(row)
            })
            .collect()
    }

    fn list_rows(owned: &[Option<Vec<u8>>]) -> ListRows<'_> {
        let rows: Vec<Option<&[u8]>> = owned.iter().map(Option::as_deref).collect();
        let mut before = vec![0];
        for row in &rows {
            before.push(before.last().unwrap() + row.map_or(0, <[u8]>::len));
        }
        ListRows { rows, before }
    }

    /// The parts placed by several workers make the same text as decoding the rows one by
    /// one, at every thread count; with `fatal`, the error is the first malformed row's.
    #[test]
    fn workers_place_the_rows_in_order() {
        let mut rng = Rng(0x0dec_0de0_ba7c_4000);
        for encoding in [
            simdenc::SHIFT_JIS,
            simdenc::UTF_8,
            simdenc::WINDOWS_1251,
            simdenc::GB18030,
            simdenc::UTF_16LE,
        ] {
            // Enough rows for several parts (PART_BYTES each) and the parallel path.
            let owned = rows(&mut rng, encoding, 6000);
            let rows = list_rows(&owned);
            assert!(rows.bytes_before(rows.rows.len()) > 3 * PART_BYTES);
            let mut want_text = String::new();
            let mut want_ends = Vec::new();
            let mut first_bad = None;
            for (i, row) in rows.rows.iter().enumerate() {
                if let Some(row) = row {
                    let (text, malformed) = encoding.decode_without_bom_handling(row);
                    want_text.push_str(&text);
                    if malformed && first_bad.is_none() {
                        first_bad = Some(i);
                    }
                }
                want_ends.push(want_text.len());
            }
            let labels = Labels::One(encoding, Source::Label);
            for fatal in [false, true] {
                let job = Job {
                    rows: &rows,
                    labels: &labels,
                    bom: batch_core::Bom::Keep,
                    fatal,
                    part_bytes: PART_BYTES,
                    serial_bytes: SERIAL_BYTES,
                };
                for threads in [Some(1), Some(2), Some(3), None] {
                    let mut out = Vec::<u8>::with_capacity(job.bound().unwrap());
                    let got = job.run(threads, out.spare_capacity_mut()).unwrap();
                    match (fatal, got) {
                        (false, Ok(batch)) => {
                            // SAFETY: `run` wrote the first `batch.len` bytes of the spare
                            // capacity (their value is what this test checks).
                            #[allow(unsafe_code)]
                            unsafe {
                                out.set_len(batch.len)
                            };
                            assert!(
                                std::str::from_utf8(&out).unwrap() == want_text,
                                "{}",
                                encoding.name()
                            );
                            assert_eq!(batch.ends, want_ends);
                            assert_eq!(
                                batch.rows.iter().filter(|r| r.is_none()).count(),
                                owned.iter().filter(|r| r.is_none()).count()
                            );
                        }
                        (true, Err((row, _, _))) => assert_eq!(Some(row), first_bad, "{}", encoding.name()),
                        (true, Ok(_)) => assert_eq!(first_bad, None),
                        (false, Err(_)) => panic!("an error without fatal"),
                    }
                }
            }
        }
    }
}
