"""``decode_batch``: Arrow binary arrays (or lists of bytes) to Arrow string arrays, on every
core. The work is native (``_simdenc._decode_batch``); this module checks the arguments and
moves arrays in and out of pyarrow through the Arrow C data interface (no copy, no Python
object per row)."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

from ._simdenc import _decode_batch

_Values = Union[Sequence[Optional[bytes]], Any]
_Encodings = Union[None, str, Sequence[Optional[str]], Any]


class _Exported:
    """Two capsules of the Arrow PyCapsule protocol, for ``pyarrow.array``."""

    __slots__ = ("_pair",)

    def __init__(self, pair: Tuple[Any, Any]) -> None:
        self._pair = pair

    def __arrow_c_array__(self, requested_schema: Any = None) -> Tuple[Any, Any]:
        pair, self._pair = self._pair, None
        if pair is None:
            raise ValueError("this array was already imported")
        return pair


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError:  # pragma: no cover - pyarrow is in the test environment
        raise ImportError("simdenc.decode_batch returns pyarrow arrays: pip install pyarrow") from None
    return pyarrow


def _labels(pa: Any, encodings: _Encodings) -> _Encodings:
    """Per-row labels in a form the native code takes: a list, or a string/large_string array."""
    if encodings is None or isinstance(encodings, str):
        return encodings
    if isinstance(encodings, (list, tuple)):
        return list(encodings)
    if isinstance(encodings, pa.ChunkedArray):
        encodings = encodings.combine_chunks()
    if isinstance(encodings, pa.Array):
        if pa.types.is_dictionary(encodings.type):
            encodings = encodings.dictionary_decode()
        if not (pa.types.is_string(encodings.type) or pa.types.is_large_string(encodings.type)):
            encodings = encodings.cast(pa.string())
        return encodings
    if hasattr(encodings, "__arrow_c_array__"):
        return encodings
    raise TypeError(
        "encodings must be None, a label, a list of labels (str or None) or a pyarrow string array, "
        f"not {type(encodings).__name__}"
    )


def decode_batch(
    values: _Values,
    encodings: _Encodings = None,
    errors: str = "replace",
    bom: str = "sniff",
    *,
    http_charsets: _Encodings = None,
    html: Optional[bool] = None,
    guess: bool = True,
    default: Optional[str] = None,
    threads: Optional[int] = None,
    return_encodings: bool = False,
    return_sources: bool = False,
    return_replacements: bool = False,
) -> Any:
    """Decode many byte strings at once, into a pyarrow string array.

    ``values``: a pyarrow ``binary`` or ``large_binary`` array (or any object with
    ``__arrow_c_array__`` holding one; a ``ChunkedArray`` is decoded chunk by chunk), or a list
    of ``bytes`` (or other bytes-like objects) and ``None``. Arrow input is read in place,
    without a Python object per row.

    ``encodings``:

    - ``None``: ``default`` (UTF-8 unless given) for every row;
    - a label: that encoding for every row;
    - one label per row (a list of labels and ``None``, or a pyarrow string array): a null
      label is ``default`` (UTF-8 unless given). Unknown labels raise ``LookupError`` naming
      the row;
    - ``"auto"``: each row's encoding determined as ``detect`` does (the HTML Standard's
      algorithm: a BOM, the transport layer's charset from ``http_charsets``, for HTML a
      ``<meta>`` or XML declaration in the first 1024 bytes, then, with ``guess``, frequency
      analysis, else ``default``, windows-1252 unless given). ``http_charsets`` is ``None``, one
      label for all rows, or one per row (a list or a pyarrow string array; unknown labels and
      nulls are ignored, as the HTML Standard ignores them); ``html`` is ``True``, ``False`` or
      ``None`` (each row by its start: ``<!doctype html``, ``<html``, ``<meta``, ...).

    ``errors`` and ``bom`` are ``decode``'s: "replace" or "strict"; "sniff", "strip" or "keep"
    (``"auto"`` takes "sniff" only: a BOM decides). With "strict", the first malformed row
    (lowest index) raises ``UnicodeDecodeError``, whose ``object`` is that row's bytes,
    ``start``/``end`` the sequence's offsets in it, and ``row`` (also in its message) the row's
    index.

    Returns a ``string`` array for ``binary`` input and for lists (``large_string`` when the
    text exceeds 2 GiB), a ``large_string`` array for ``large_binary`` input; null rows stay
    null. With ``return_encodings``, ``return_sources`` or ``return_replacements``, a tuple:
    the text, then, in this order and only those asked for, the encodings used (their names,
    as ``lookup`` gives them), how each was decided ("label", or ``detect``'s sources: "bom",
    "http", "meta", "xml", "guess", "default") and the number of malformed sequences replaced
    in each row (int64), each null on null rows.

    Decoding runs with the GIL released, on ``threads`` threads (``None``: rayon's pool, one
    per core or ``RAYON_NUM_THREADS``; ``1``: the calling thread only, which suits engines
    that already run one task per core).
    """
    pa = _pyarrow()
    auto = isinstance(encodings, str) and encodings.strip().lower() == "auto"
    if auto and bom != "sniff":
        raise ValueError('encodings="auto" follows the HTML Standard, where a BOM decides: bom must be "sniff"')
    if not auto and (http_charsets is not None or html is not None or guess is not True):
        raise ValueError('http_charsets, html and guess are for encodings="auto"')
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or threads < 1):
        raise ValueError(f"threads must be a positive int or None, not {threads!r}")
    wants = (bool(return_encodings), bool(return_sources), bool(return_replacements))
    encodings = _labels(pa, encodings)
    http_charsets = _labels(pa, http_charsets)
    extra = (default, http_charsets, html, bool(guess))
    if isinstance(values, pa.ChunkedArray):
        return _chunked(pa, values, encodings, errors, bom, threads, wants, extra)
    if isinstance(values, tuple):
        values = list(values)
    if not isinstance(values, list) and not hasattr(values, "__arrow_c_array__"):
        raise TypeError(
            "values must be a list of bytes or a pyarrow binary/large_binary array, "
            f"not {type(values).__name__}"
        )
    arrays = _arrays(pa, _decode_batch(values, encodings, errors, bom, threads, *wants, *extra))
    return arrays[0] if len(arrays) == 1 else tuple(arrays)


def _arrays(pa: Any, native: Tuple[Any, ...]) -> List[Any]:
    """pyarrow arrays from what ``_decode_batch`` returns: the text's parts, then the capsule
    pairs of the details asked for."""
    return [_text(pa, *native[0])] + [pa.array(_Exported(pair)) for pair in native[1:]]


def _text(pa: Any, values: Any, size: int, large: bool, offsets: Any, validity: Any, null_count: int) -> Any:
    """The text array: ``values`` is the buffer the native code wrote the text to (allocated by
    ``pyarrow.allocate_buffer`` from the default memory pool), ``offsets`` and ``validity`` are
    capsule pairs of an int32/int64 array and a boolean array (or None)."""
    offsets = pa.array(_Exported(offsets))
    bitmap = None if validity is None else pa.array(_Exported(validity)).buffers()[1]
    kind = pa.large_string() if large else pa.string()
    return pa.Array.from_buffers(
        kind, len(offsets) - 1, [bitmap, offsets.buffers()[1], values.slice(0, size)], null_count=null_count
    )


def _chunked(pa: Any, values: Any, encodings: Any, errors: str, bom: str, threads: Any, wants: Any, extra: Any) -> Any:
    default, hints, html, guess = extra

    def per_row(labels: Any, what: str) -> bool:
        if labels is None or isinstance(labels, str):
            return False
        if len(labels) != len(values):
            raise ValueError(f"{len(labels)} {what} for {len(values)} values: give one per row, or one for all")
        return True

    labels_per_row, hints_per_row = per_row(encodings, "encodings"), per_row(hints, "http_charsets")
    columns: List[List[Any]] = [[] for _ in range(1 + sum(wants))]
    start = 0
    for chunk in values.chunks:
        stop = start + len(chunk)
        labels = encodings[start:stop] if labels_per_row else encodings
        chunk_hints = hints[start:stop] if hints_per_row else hints
        try:
            pairs = _decode_batch(chunk, labels, errors, bom, threads, *wants, default, chunk_hints, html, guess)
        except UnicodeDecodeError as err:
            row = getattr(err, "row", None)
            if row is not None:
                err.row = row + start
                err.reason = err.reason.replace(f"(row {row})", f"(row {row + start})")
            raise
        for column, array in zip(columns, _arrays(pa, pairs)):
            column.append(array)
        start = stop
    large = pa.types.is_large_binary(values.type)
    types = [pa.large_string() if large else pa.string(), pa.string(), pa.string(), pa.int64()]
    wanted = [types[0]] + [t for t, w in zip(types[1:], wants) if w]
    out = [pa.chunked_array(column, type=t) for column, t in zip(columns, wanted)]
    return out[0] if len(out) == 1 else tuple(out)
