"""simdenc: the WHATWG Encoding Standard, exactly, with SIMD fast paths.

- ``decode(data, encoding="utf-8", errors="replace", bom="sniff") -> str``
- ``encode(text, encoding="utf-8", errors="html") -> bytes``
- ``TextDecoder``/``TextEncoder``: the standard's API, with its streaming semantics
- ``lookup(label) -> str | None``: the standard's "get an encoding"
- ``encodings()``: every encoding's name and labels
- ``detect(data, http_charset=None, html=None) -> Detection(encoding, source, confidence)``:
  the HTML Standard's "determining the character encoding", with frequency analysis
- ``decode_batch(values, encodings=None, ...)``: a pyarrow binary array (or a list of bytes)
  to a pyarrow string array, on every core, with labels or ``"auto"`` (needs pyarrow)
- ``charset_from_content_type(value)``: the encoding a ``Content-Type``'s charset names
- the ``simdenc.*`` codecs: importing this package registers a search function, so that
  ``b"...".decode("simdenc.shift_jis")`` and ``"...".encode("simdenc.gbk")`` work (any label
  of the standard after ``simdenc.``), as do ``open(path, encoding="simdenc.euc-kr")`` and
  ``codecs.getincrementaldecoder("simdenc.big5")``.

Errors are Python's own: ``LookupError`` for an unknown label, ``UnicodeDecodeError`` and
``UnicodeEncodeError`` with the positions Python's codecs would give. Large inputs are
converted with the GIL released. See README.md for what is the standard's and what is ours.
"""

from __future__ import annotations

import codecs
from typing import Any, NamedTuple, Optional, Tuple

from ._simdenc import (
    StreamEncoder,
    _detect,
    charset_from_content_type,
    TextDecoder,
    TextEncoder,
    __version__,
    decode,
    encode,
    encodings,
    lookup,
)
from ._batch import decode_batch


class Detection(NamedTuple):
    """What ``detect`` found: the encoding (its name, as ``lookup`` gives it), the step of the
    HTML Standard's algorithm that decided ("bom", "http", "meta", "xml", "guess" or
    "default") and a confidence (1.0 for a BOM, the transport layer or a declaration, the
    detector's estimate for a guess, 0.0 for the default)."""

    encoding: str
    source: str
    confidence: float


def detect(
    data: Any,
    http_charset: Optional[str] = None,
    html: Optional[bool] = None,
    *,
    default: Optional[str] = None,
    guess: bool = True,
) -> Detection:
    """The encoding of ``data`` (bytes-like) by the HTML Standard's "determining the character
    encoding": a BOM; else ``http_charset`` (the transport layer's label, e.g. the charset of
    an HTTP ``Content-Type``; an unknown one is ignored, as the standard does); else, for
    HTML, a ``<meta charset>``/``http-equiv`` found by the prescan of the first 1024 bytes or an
    XML declaration; else, with ``guess``, frequency analysis of the bytes (simdenc's detector:
    UTF-8 by validity, the CJK encodings by their structure and character frequencies, the
    single-byte ones by language models, UTF-16 without BOM); else ``default`` (a label;
    windows-1252, the standard's, unless given).

    ``html``: ``True`` (the prescan runs, and markup is skipped when guessing), ``False``
    (plain text), or ``None``: HTML when the data starts (after a BOM and whitespace) with
    ``<!doctype html``, ``<html``, ``<head``, ``<meta``, ``<body``, ``<title``, ``<!--`` or
    ``<?xml``. Raises ``LookupError`` for an unknown ``default``."""
    return Detection(*_detect(data, http_charset, html, default, guess))

__all__ = [
    "Detection",
    "StreamEncoder",
    "charset_from_content_type",
    "detect",
    "TextDecoder",
    "TextEncoder",
    "__version__",
    "decode",
    "decode_batch",
    "encode",
    "encodings",
    "lookup",
    "codec_info",
]

_PREFIX = "simdenc."

# The error handlers of the codecs and what they are in the standard's terms.
_DECODE_ERRORS = {"strict": "strict", "replace": "replace"}
_ENCODE_ERRORS = {"strict": "strict", "xmlcharrefreplace": "html"}


def _decode_errors(errors: str) -> str:
    try:
        return _DECODE_ERRORS[errors]
    except KeyError:
        raise ValueError(
            f"simdenc codecs decode with errors='strict' (the standard's fatal mode) or "
            f"'replace' (its replacement mode), not {errors!r}"
        ) from None


def _encode_errors(errors: str) -> str:
    try:
        return _ENCODE_ERRORS[errors]
    except KeyError:
        raise ValueError(
            f"simdenc codecs encode with errors='strict' (the standard's fatal mode) or "
            f"'xmlcharrefreplace' (its html mode, &#N;), not {errors!r}"
        ) from None


def _label_of(name: str) -> Optional[str]:
    """The label a codec name stands for: itself, or with '_' and '-' swapped (Python's
    spellings such as utf_8 and windows_1252 for the standard's utf-8 and windows-1252)."""
    for candidate in (name, name.replace("_", "-"), name.replace("-", "_")):
        if lookup(candidate) is not None:
            return candidate
    return None


def codec_info(label: str) -> codecs.CodecInfo:
    """The ``codecs.CodecInfo`` of the standard's encoding for ``label`` (what
    ``codecs.lookup("simdenc." + label)`` returns).

    Decoding is the standard's decode with BOM removal (the encoding's own BOM is dropped,
    as ``TextDecoder`` does), with errors "strict" (fatal) or "replace". Encoding is
    ``encode``'s, with errors "strict" (fatal) or "xmlcharrefreplace" (the standard's html
    mode). Raises ``LookupError`` for an unknown label.
    """
    resolved = _label_of(label)
    if resolved is None:
        raise LookupError(f"unknown encoding: {_PREFIX}{label}")
    name = lookup(resolved)
    assert name is not None
    lower = name.lower()

    def codec_decode(data: Any, errors: str = "strict") -> Tuple[str, int]:
        text = decode(data, resolved, errors=_decode_errors(errors), bom="strip")
        return text, len(data) if isinstance(data, bytes) else memoryview(data).nbytes

    def codec_encode(text: str, errors: str = "strict") -> Tuple[bytes, int]:
        return encode(text, resolved, errors=_encode_errors(errors)), len(text)

    class IncrementalDecoder(codecs.IncrementalDecoder):
        """The standard's streaming decode (``TextDecoder`` with ``stream``)."""

        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._decoder = TextDecoder(resolved, fatal=_decode_errors(errors) == "strict")

        def decode(self, input: Any, final: bool = False) -> str:
            return self._decoder.decode(input, stream=not final)

        def reset(self) -> None:
            self._decoder = TextDecoder(resolved, fatal=self._decoder.fatal)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        """``encode`` with the encoder's state kept between calls (ISO-2022-JP's mode)."""

        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._encoder = StreamEncoder(resolved, errors=_encode_errors(errors))

        def encode(self, input: str, final: bool = False) -> bytes:
            return self._encoder.encode(input, final)

        def reset(self) -> None:
            self._encoder.reset()

    class StreamWriter(codecs.StreamWriter):
        """Each ``write`` encoded by ``encode``."""

        def encode(self, input: str, errors: str = "strict") -> Tuple[bytes, int]:
            return codec_encode(input, errors)

    class StreamReader(codecs.StreamReader):
        """Reads through a streaming ``TextDecoder`` (a sequence split between reads is
        decoded whole)."""

        def decode(self, input: Any, errors: str = "strict") -> Tuple[str, int]:
            decoder = getattr(self, "_decoder", None)
            if decoder is None:
                decoder = TextDecoder(resolved, fatal=_decode_errors(errors) == "strict")
                self._decoder = decoder
            return decoder.decode(input, stream=True), memoryview(input).nbytes

        def reset(self) -> None:
            super().reset()
            self._decoder = None

    for cls in (IncrementalDecoder, IncrementalEncoder, StreamWriter, StreamReader):
        cls.__qualname__ = f"{cls.__name__}[{lower}]"

    return codecs.CodecInfo(
        name=_PREFIX + lower,
        encode=codec_encode,
        decode=codec_decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader,
        streamwriter=StreamWriter,
    )


def _search(name: str) -> Optional[codecs.CodecInfo]:
    # codecs.lookup lowercases the name and turns spaces into underscores before calling.
    if not name.startswith(_PREFIX):
        return None
    try:
        return codec_info(name[len(_PREFIX) :])
    except LookupError:
        return None


codecs.register(_search)
