"""simdenc.detect and decode_batch(..., "auto"): one call into simdenc::sniff (the HTML
Standard's "determining the character encoding", with simdenc's frequency detector), so the
tests here are of the binding: each step reachable and named, the arguments passed through,
and decode_batch("auto") equal to detect + decode row by row."""

import pathlib

import pytest

import simdenc

WIKI = pathlib.Path(__file__).resolve().parents[2] / "data" / "corpus" / "wikipedia"


def test_each_source():
    d = simdenc.detect
    assert d(b"\xef\xbb\xbf<meta charset=gbk>abc", "koi8-r") == ("UTF-8", "bom", 1.0)
    assert d(b"\xff\xfea\x00") == ("UTF-16LE", "bom", 1.0)
    assert d(b"<meta charset=gbk>", "koi8-r") == ("KOI8-R", "http", 1.0)
    assert d(b"<meta charset=gbk>", "no-such-label") == ("GBK", "meta", 1.0)  # ignored
    assert d(b'<!doctype html><meta http-equiv="Content-Type" content="text/html; charset=euc-kr">') == (
        "EUC-KR",
        "meta",
        1.0,
    )
    assert d(b"<?xml version='1.0' encoding='windows-1251'?><a/>") == ("windows-1251", "xml", 1.0)
    text = (WIKI / "ja.txt").read_text(encoding="utf-8")[:2000]
    found = d(simdenc.encode(text, "euc-jp"))
    assert (found.encoding, found.source) == ("EUC-JP", "guess") and 0 < found.confidence <= 1
    assert d(b"plain ascii") == ("windows-1252", "default", 0.0)
    assert d(b"plain ascii", default="utf-8") == ("UTF-8", "default", 0.0)
    assert d(simdenc.encode(text, "shift_jis"), guess=False).source == "default"
    assert isinstance(d(b""), simdenc.Detection)


def test_html_argument():
    page = b"<p>text</p><meta charset=koi8-r>"
    # By content this is not HTML (it does not start like a document): no prescan.
    assert simdenc.detect(page).source == "default"
    assert simdenc.detect(page, html=True) == ("KOI8-R", "meta", 1.0)
    assert simdenc.detect(b"  <!DOCTYPE html><meta charset=koi8-r>").source == "meta"
    assert simdenc.detect(b"<meta charset=koi8-r>", html=False).source == "default"


def test_bytes_like_and_errors():
    assert simdenc.detect(bytearray(b"\xef\xbb\xbfa")).encoding == "UTF-8"
    assert simdenc.detect(memoryview(b"\xef\xbb\xbfa")).encoding == "UTF-8"
    with pytest.raises(TypeError):
        simdenc.detect("text")
    with pytest.raises(LookupError):
        simdenc.detect(b"a", default="nope")


def test_charset_from_content_type():
    c = simdenc.charset_from_content_type
    assert c("text/html; charset=Shift_JIS") == "Shift_JIS"
    assert c(b'text/plain;charset="utf\\-8"') == "UTF-8"
    assert c("text/html; charset=latin1; charset=utf-8") == "windows-1252"
    assert c("text/html") is None and c("charset=utf-8") is None and c("text/html; charset=x-nope") is None


def rows():
    out = []
    for name, label in [("ja", "shift_jis"), ("ko", "euc-kr"), ("ru", "windows-1251"), ("zh_cn", "gbk"), ("fr", "utf-8")]:
        text = (WIKI / f"{name}.txt").read_text(encoding="utf-8")
        for i in range(0, 6000, 1500):
            out.append(simdenc.encode(text[i : i + 1500], label))
    out += [b"<!doctype html><meta charset=euc-jp>\xa4\xa2", b"\xfe\xff\x00a", None, b"", b"ascii", b"\x81"]
    return out


@pytest.mark.parametrize("threads", [None, 1, 2])
def test_auto_is_detect_then_decode(threads):
    pa = pytest.importorskip("pyarrow")
    values = rows() * 3
    hints = [None, "gbk", "no-such", None, "utf-8"] * (len(values) // 5) + [None] * (len(values) % 5)
    for kwargs, per_row in [
        ({}, lambda i: None),
        ({"http_charsets": hints}, lambda i: hints[i]),
        ({"http_charsets": pa.array(hints)}, lambda i: hints[i]),
        ({"http_charsets": "koi8-r"}, lambda i: "koi8-r"),
        ({"default": "utf-8", "guess": False}, lambda i: None),
        ({"html": True}, lambda i: None),
    ]:
        extra = {k: v for k, v in kwargs.items() if k in ("default", "guess", "html")}
        for form in (values, pa.array(values, pa.binary()), pa.array(values, pa.large_binary())):
            text, encodings, sources, replaced = simdenc.decode_batch(
                form, "auto", threads=threads, return_encodings=True, return_sources=True, return_replacements=True, **kwargs
            )
            for i, v in enumerate(values):
                if v is None:
                    assert (text[i].as_py(), encodings[i].as_py(), sources[i].as_py()) == (None, None, None)
                    continue
                found = simdenc.detect(v, per_row(i), **extra)
                assert (encodings[i].as_py(), sources[i].as_py()) == (found.encoding, found.source), i
                want = simdenc.decode(v, found.encoding, bom="sniff")
                assert text[i].as_py() == want
                labelled = simdenc.decode_batch([v], found.encoding, return_replacements=True)[1]
                assert replaced[i].as_py() == labelled[0].as_py()


def test_auto_sliced_and_chunked():
    pa = pytest.importorskip("pyarrow")
    values = rows()
    array = pa.array(values, pa.binary())
    hints = pa.array(["gbk" if i % 3 == 0 else None for i in range(len(values))])
    whole = simdenc.decode_batch(array, "auto", http_charsets=hints, return_sources=True)
    part = simdenc.decode_batch(array[5:], "auto", http_charsets=hints[5:], return_sources=True)
    assert part[0].to_pylist() == whole[0].to_pylist()[5:]
    assert part[1].to_pylist() == whole[1].to_pylist()[5:]
    chunked = pa.chunked_array([array[:7], array[7:]])
    got = simdenc.decode_batch(chunked, "auto", http_charsets=hints, return_sources=True)
    assert got[0].to_pylist() == whole[0].to_pylist()
    assert got[1].to_pylist() == whole[1].to_pylist()


def test_auto_strict():
    with pytest.raises(UnicodeDecodeError) as info:
        simdenc.decode_batch([b"ok", b"\xef\xbb\xbfa\xff"], "auto", errors="strict")
    assert info.value.row == 1 and info.value.encoding == "utf-8"
    assert (info.value.start, info.value.end) == (4, 5)
