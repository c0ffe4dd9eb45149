//! A `str` built by writing its characters straight into the storage CPython allocates for it,
//! instead of handing UTF-16 to one of CPython's decoders, which goes unit by unit on most
//! non-ASCII text (its UTF-16 decoder's fast path takes blocks of units all below U+8000: not
//! Hangul, not half of the CJK ideographs) and took half the time of `decode` on such text.
//!
//! The limited API (the abi3 wheel) has no call that exposes a `str`'s storage, so this relies
//! on what every CPython since 3.3 does, checked at run time instead of assumed from a
//! version: `PyUnicode_New(size, maxchar)` (found by name, so that the module still loads if
//! an interpreter lacks it) returns a "compact" `str` whose characters, one, two or four bytes
//! each (kinds ASCII or Latin-1, UCS-2, UCS-4, chosen by `maxchar`), follow the object's header
//! and end with a zero character; the header's size depends on the version and the build
//! (two sizes: ASCII strings have the shorter one). At first use, each kind's header size is
//! taken from `sys.getsizeof` of strings made through the limited API (which counts the header
//! and the characters with their terminator, and nothing else for a fresh `str`), then checked
//! by reading those strings' characters back at that offset, and by building one string of
//! each kind with `PyUnicode_New` and comparing it with the probe. If any check fails, or on
//! another implementation or platform, `Layout::get` is `None` and the caller uses CPython's
//! decoders as before.
//!
//! A `str` must be in its narrowest kind (CPython compares kinds before characters), so the
//! kind is chosen from the text: ASCII, Latin-1, UCS-2, or UCS-4 if there are surrogate pairs.

use std::ffi::c_char;

use pyo3::ffi::{self, Py_UCS4, Py_ssize_t, PyObject};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;

type NewFn = unsafe extern "C" fn(Py_ssize_t, Py_UCS4) -> *mut PyObject;

/// Where a compact `str`'s characters are, and how to make one.
pub(crate) struct Layout {
    new: NewFn,
    /// Bytes from the object's start to the characters: ASCII strings.
    ascii: usize,
    /// The same for the other kinds.
    compact: usize,
}

static LAYOUT: PyOnceLock<Option<Layout>> = PyOnceLock::new();

/// The kinds, by their largest character: (maxchar for `PyUnicode_New`, bytes a character).
const ASCII: (Py_UCS4, usize) = (0x7F, 1);
const LATIN1: (Py_UCS4, usize) = (0xFF, 1);
const UCS2: (Py_UCS4, usize) = (0xFFFF, 2);
const UCS4: (Py_UCS4, usize) = (0x10_FFFF, 4);

impl Layout {
    pub(crate) fn get(py: Python<'_>) -> Option<&'static Layout> {
        LAYOUT
            .get_or_init(py, || Layout::detect(py).ok().flatten())
            .as_ref()
    }

    #[cfg(not(unix))]
    fn detect(_py: Python<'_>) -> PyResult<Option<Layout>> {
        Ok(None)
    }

    #[cfg(unix)]
    #[allow(unsafe_code)]
    fn detect(py: Python<'_>) -> PyResult<Option<Layout>> {
        let sys = py.import("sys")?;
        let implementation: String = sys.getattr("implementation")?.getattr("name")?.extract()?;
        if implementation != "cpython" {
            return Ok(None);
        }
        // SAFETY: `dlsym` with `RTLD_DEFAULT` and a NUL-terminated name only looks the symbol
        // up among the loaded objects (the interpreter's); it returns null if there is none.
        let symbol = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"PyUnicode_New".as_ptr().cast::<c_char>()) };
        if symbol.is_null() {
            return Ok(None);
        }
        // SAFETY: the symbol is CPython's `PyObject *PyUnicode_New(Py_ssize_t size, Py_UCS4
        // maxchar)` (public C API since 3.3, same name, same signature), of the C ABI.
        let new = unsafe { std::mem::transmute::<*mut libc::c_void, NewFn>(symbol) };
        let getsizeof = sys.getattr("getsizeof")?;
        let offset = |text: &Bound<'_, PyString>, kind: (Py_UCS4, usize)| -> PyResult<Option<usize>> {
            let size: usize = getsizeof.call1((text,))?.extract()?;
            let chars = text.len()?;
            Ok(size.checked_sub((chars + 1) * kind.1))
        };
        let probes: [(&str, (Py_UCS4, usize)); 4] = [
            ("ab", ASCII),
            ("\u{e9}\u{e8}", LATIN1),
            ("\u{4e00}\u{ac00}", UCS2),
            ("\u{1f600}\u{20000}", UCS4),
        ];
        let mut offsets = [0usize; 4];
        for (i, &(text, kind)) in probes.iter().enumerate() {
            // Made by CPython's UTF-32 decoder (a fresh compact `str` with no cached UTF-8).
            let probe = from_scalars(py, text)?;
            let Some(at) = offset(&probe, kind)? else {
                return Ok(None);
            };
            // Past the reference count and the type, aligned for the widest character.
            if at < 2 * std::mem::size_of::<usize>() || at % 4 != 0 || at > 256 {
                return Ok(None);
            }
            let want: Vec<u32> = text.chars().chain(['\0']).map(u32::from).collect();
            let base = probe.as_ptr().cast::<u8>();
            // SAFETY: `sys.getsizeof(probe)` is at least `at + (2 + 1) * kind.1` (how `at` was
            // computed), and CPython's `__sizeof__` of a `str` is never more than its
            // allocation, so every read below is inside the live object `probe` holds; the
            // reads are unaligned-safe (`read_unaligned`).
            let got: Vec<u32> = (0..want.len())
                .map(|j| unsafe {
                    let p = base.add(at + j * kind.1);
                    match kind.1 {
                        1 => u32::from(p.read()),
                        2 => u32::from(p.cast::<u16>().read_unaligned()),
                        _ => p.cast::<u32>().read_unaligned(),
                    }
                })
                .collect();
            if got != want {
                return Ok(None);
            }
            offsets[i] = at;
        }
        let [ascii, latin1, ucs2, ucs4] = offsets;
        if latin1 != ucs2 || ucs2 != ucs4 || ascii >= latin1 {
            return Ok(None);
        }
        let layout = Layout {
            new,
            ascii,
            compact: latin1,
        };
        // One string of each kind by `PyUnicode_New`, equal to its probe.
        for (text, kind) in probes {
            let units: Vec<u16> = text.encode_utf16().collect();
            let made = layout.new_str(py, kind, text.chars().count())?;
            if offset(&made, kind)? != Some(layout.offset(kind)) {
                return Ok(None);
            }
            let made = layout.fill(made, &units, kind, text.chars().count());
            if made.to_cow()? != text {
                return Ok(None);
            }
        }
        Ok(Some(layout))
    }

    fn offset(&self, kind: (Py_UCS4, usize)) -> usize {
        if kind == ASCII { self.ascii } else { self.compact }
    }

    /// A fresh `str` of `chars` characters of `kind` (`PyUnicode_New`; all zero).
    #[allow(unsafe_code)]
    fn new_str<'py>(
        &self,
        py: Python<'py>,
        kind: (Py_UCS4, usize),
        chars: usize,
    ) -> PyResult<Bound<'py, PyString>> {
        let size = Py_ssize_t::try_from(chars)
            .map_err(|e| pyo3::exceptions::PyOverflowError::new_err(e.to_string()))?;
        // SAFETY: `PyUnicode_New` with the GIL held (`py`) returns a new reference to a fresh
        // `str`, or null with an exception set (`from_owned_ptr_or_err`).
        let object = unsafe { Bound::from_owned_ptr_or_err(py, (self.new)(size, kind.0))? };
        Ok(object.cast_into::<PyString>()?)
    }

    /// Writes the code points of `units` (UTF-16, surrogates in pairs only, all in `kind`'s
    /// range: below 0x80 for ASCII, 0x100 for Latin-1, no surrogates for UCS-2) into `object`,
    /// a `str` just made by `new_str` with `kind` and `chars` characters, the number of code
    /// points of `units`, which nothing else has seen yet.
    #[allow(unsafe_code)]
    fn fill<'py>(
        &self,
        object: Bound<'py, PyString>,
        units: &[u16],
        kind: (Py_UCS4, usize),
        chars: usize,
    ) -> Bound<'py, PyString> {
        let base = object.as_ptr().cast::<u8>();
        // SAFETY: `object` is a fresh compact `str` of `chars` characters of `kind` (the
        // caller's promise), which nothing else refers to yet: its characters are at
        // `base + offset(kind)` (the layout `detect` found and checked on strings of every
        // kind made by `PyUnicode_New`), `chars + 1` of `kind.1` bytes each, aligned for them
        // (the offset is a multiple of 4, and objects are aligned to at least 8). Exactly
        // `chars` characters are written below (the terminator stays), all in `kind`'s range
        // (the caller's promise; pairs are combined for UCS-4), so the `str` is valid and in
        // its narrowest kind.
        unsafe {
            let data = base.add(self.offset(kind));
            match kind.1 {
                1 => {
                    let out = std::slice::from_raw_parts_mut(data, chars);
                    for (o, &u) in out.iter_mut().zip(units) {
                        *o = u as u8;
                    }
                }
                2 => {
                    std::slice::from_raw_parts_mut(data.cast::<u16>(), chars).copy_from_slice(&units[..chars])
                }
                _ => {
                    let out = std::slice::from_raw_parts_mut(data.cast::<u32>(), chars);
                    let mut i = 0;
                    for o in out.iter_mut() {
                        let u = units[i];
                        i += 1;
                        *o = match units.get(i) {
                            Some(&low) if u & 0xFC00 == 0xD800 && low & 0xFC00 == 0xDC00 => {
                                i += 1;
                                0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
                            }
                            _ => u32::from(u),
                        };
                    }
                }
            }
        }
        object
    }

    /// The `str` of `units` (UTF-16 with surrogates in pairs only), in its narrowest kind.
    pub(crate) fn str_from_utf16<'py>(
        &self,
        py: Python<'py>,
        units: &[u16],
    ) -> PyResult<Bound<'py, PyString>> {
        let kind = match units.iter().position(|&u| u >= 0x100) {
            None if units.iter().fold(0, |a, &u| a | u) < 0x80 => ASCII,
            None => LATIN1,
            Some(first) => {
                // Surrogates (pairs) make it UCS-4; none can be before `first`.
                let rest = &units[first..];
                if rest
                    .iter()
                    .fold(0u16, |a, &u| a | u16::from(u & 0xF800 == 0xD800))
                    != 0
                {
                    UCS4
                } else {
                    UCS2
                }
            }
        };
        let chars = if kind == UCS4 {
            units.len() - units.iter().filter(|&&u| u & 0xFC00 == 0xDC00).count()
        } else {
            units.len()
        };
        let object = self.new_str(py, kind, chars)?;
        Ok(self.fill(object, units, kind, chars))
    }
}

/// A `str` of `text` made through the limited API (CPython's UTF-32 decoder).
#[allow(unsafe_code)]
fn from_scalars<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    let scalars: Vec<u32> = text.chars().map(u32::from).collect();
    let size = Py_ssize_t::try_from(std::mem::size_of_val(scalars.as_slice()))
        .map_err(|e| pyo3::exceptions::PyOverflowError::new_err(e.to_string()))?;
    let mut order: std::ffi::c_int = if cfg!(target_endian = "little") { -1 } else { 1 };
    // SAFETY: `scalars` is valid for reads of `size` bytes for the whole call, and CPython
    // only reads them; a null `errors` is "strict"; `order` is a live c_int. The GIL is held
    // (`py`). The result is a new reference, or null with an exception set.
    let object = unsafe {
        let ptr = ffi::PyUnicode_DecodeUTF32(scalars.as_ptr().cast(), size, std::ptr::null(), &mut order);
        Bound::from_owned_ptr_or_err(py, ptr)?
    };
    Ok(object.cast_into::<PyString>()?)
}
