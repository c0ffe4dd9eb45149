"""Type stubs of simdenc's native module (re-exported by the package ``simdenc``)."""

from typing import Any, List, Literal, Optional, Tuple, Union

_Bytes = Union[bytes, bytearray, memoryview]

__version__: str

def decode(
    data: _Bytes,
    encoding: str = "utf-8",
    errors: Literal["replace", "strict"] = "replace",
    bom: Literal["sniff", "strip", "keep"] = "sniff",
) -> str:
    """Decode ``data`` with the encoding ``encoding`` names (a label of the standard).

    ``bom``: "sniff" (the standard's decode: a UTF-8/UTF-16 BOM overrides ``encoding``),
    "strip" (decode with BOM removal) or "keep" (decode without BOM handling).
    ``errors``: "replace" (U+FFFD) or "strict" (``UnicodeDecodeError`` with the malformed
    sequence's offsets). ``LookupError`` for an unknown label.
    """

def encode(
    text: str,
    encoding: str = "utf-8",
    errors: Literal["html", "strict"] = "html",
) -> bytes:
    """Encode ``text`` into the standard's output encoding for ``encoding``.

    ``errors``: "html" (unmappable characters as ``&#N;``) or "strict"
    (``UnicodeEncodeError`` with the character's index). UTF-16LE/BE labels encode to
    UTF-16 (ours; the standard writes UTF-8 for them).
    """

def lookup(label: str) -> Optional[str]:
    """The standard's "get an encoding": the encoding's name, or None."""

def encodings() -> List[Tuple[str, List[str]]]:
    """Every encoding of the standard: (name, labels)."""

class TextDecoder:
    """The standard's ``TextDecoder`` (``LookupError`` for unknown and replacement labels)."""

    def __init__(self, label: str = "utf-8", fatal: bool = False, ignore_bom: bool = False) -> None: ...
    @property
    def encoding(self) -> str:
        """The encoding's name, lowercased."""
    @property
    def fatal(self) -> bool:
        """Whether malformed input raises ``UnicodeDecodeError``."""
    @property
    def ignore_bom(self) -> bool:
        """Whether a leading BOM is kept."""
    def decode(self, data: Optional[_Bytes] = None, stream: bool = False) -> str:
        """The text ``data`` completes; ``stream=True`` keeps an incomplete sequence for the
        next call."""

class TextEncoder:
    """The standard's ``TextEncoder`` (UTF-8)."""

    def __init__(self) -> None: ...
    @property
    def encoding(self) -> str:
        """Always "utf-8"."""
    def encode(self, text: Optional[str] = None) -> bytes:
        """The UTF-8 bytes of ``text`` (lone surrogates as U+FFFD)."""

class StreamEncoder:
    """``encode`` with its state kept between calls (the incremental encoder of the codecs)."""

    def __init__(self, label: str, errors: Literal["html", "strict"] = "html") -> None: ...
    @property
    def encoding(self) -> str:
        """The name of the encoding written, lowercased."""
    def encode(self, text: str, final: bool = False) -> bytes:
        """The bytes of ``text``; ``final`` ends the stream."""
    def reset(self) -> None:
        """Start a new stream."""

def _decode_batch(
    values: Any,
    encodings: Any,
    errors: str,
    bom: str,
    threads: Optional[int],
    want_encodings: bool,
    want_sources: bool,
    want_replacements: bool,
    default: Optional[str] = None,
    http_charsets: Any = None,
    html: Optional[bool] = None,
    guess: bool = True,
) -> Tuple[Tuple[Any, Any], ...]:
    """The native part of ``simdenc.decode_batch``: the PyCapsule pairs of the text and of the
    details asked for."""

def _detect(
    data: _Bytes,
    http_charset: Optional[str] = None,
    html: Optional[bool] = None,
    default: Optional[str] = None,
    guess: bool = True,
) -> Tuple[str, str, float]:
    """The native part of ``simdenc.detect``: (encoding name, source, confidence)."""

def charset_from_content_type(value: Union[str, bytes]) -> Optional[str]:
    """The encoding (its name) that the ``charset`` parameter of a ``Content-Type`` value
    names, the value parsed as the MIME Sniffing Standard parses a MIME type; None if it is
    not a MIME type, has no charset, or names no encoding of the standard."""
