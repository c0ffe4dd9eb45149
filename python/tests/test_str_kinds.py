"""The `str` objects simdenc builds (written in place in CPython's storage where its layout was
checked at import, python/src/fast_str.rs) are the ones CPython builds: equal, same hash, same
narrowest kind (so the same size), for every kind and at the edges between kinds."""

import random
import sys

import pytest

import simdenc

SAMPLES = [
    "",
    "a",
    "ascii only \x7f",
    "\x80",
    "caf\xe9 latin-1 \xff",
    "\u0100",
    "\u20ac euro, \u65e5\u672c, \ud55c\uad6d\uc5b4, \uffff",
    "\U00010000",
    "emoji \U0001f600 and \U0010ffff and bmp \u4e00 and latin \xe9",
    "\ufeffbom inside",
]


def variants():
    rng = random.Random(5)
    out = list(SAMPLES)
    alphabet = ["a", "\xe9", "\u0416", "\ud55c", "\U0001f600", "\u4e00", " ", "\uffff", "\U00020000"]
    for n in [1, 2, 3, 7, 8, 15, 16, 17, 31, 64, 255, 1000]:
        for _ in range(5):
            out.append("".join(rng.choice(alphabet) for _ in range(n)))
    return out


@pytest.mark.parametrize("text", variants())
def test_same_str_as_cpython(text):
    for label, codec in [("utf-8", "utf-8"), ("utf-16le", "utf-16-le"), ("utf-16be", "utf-16-be"), ("gb18030", "gb18030")]:
        data = text.encode(codec)
        got = simdenc.decode(data, label, bom="keep")
        assert got == text
        assert hash(got) == hash(text)
        assert sys.getsizeof(got) == sys.getsizeof(text.encode("utf-32-le").decode("utf-32-le"))
        assert max(got, default="") == max(text, default="")
        # Usable as any str: slicing, concatenation, comparison with a narrower kind.
        assert got[1:] + "x" == text[1:] + "x"
    decoder = simdenc.TextDecoder("utf-8", ignore_bom=True)
    assert decoder.decode(text.encode("utf-8")) == text


def test_latin1_and_ascii_from_legacy():
    data = bytes(range(0x20, 0x7F)) + bytes(range(0xA0, 0x100))
    got = simdenc.decode(data, "iso-8859-1")  # windows-1252: A0..FF are Latin-1
    assert got == data.decode("cp1252") and sys.getsizeof(got) == sys.getsizeof(data.decode("latin-1"))
    got = simdenc.decode(b"\x80", "windows-1252")  # the euro sign: UCS-2
    assert got == "\u20ac" and sys.getsizeof(got) == sys.getsizeof("\u20ac")
