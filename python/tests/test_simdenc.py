"""Tests of the simdenc Python package: against CPython's own codecs where they and the
standard agree, the standard's streaming semantics (streaming equals one-shot on random
chunkings), exact error positions, and the codecs registration."""

import codecs
import io
import pathlib
import random
import threading

import pytest

import simdenc

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "data" / "corpus"
TEXTS = sorted(CORPUS.glob("*/*.txt"))
assert TEXTS, f"no corpus texts under {CORPUS}"


def corpus_text(path):
    return path.read_bytes().decode("utf-8")


def ids(paths):
    return [f"{p.parent.name}/{p.name}" for p in paths]


# --- against CPython's codecs ------------------------------------------------------------


@pytest.mark.parametrize("path", TEXTS, ids=ids(TEXTS))
def test_utf8_and_utf16_like_cpython(path):
    data = path.read_bytes()
    text = data.decode("utf-8")
    assert simdenc.decode(data, bom="keep") == text
    assert simdenc.decode(data, "utf-8", errors="strict", bom="keep") == text
    assert simdenc.decode(data) == data.decode("utf-8-sig")
    assert simdenc.encode(text) == text.encode("utf-8")
    assert simdenc.encode(text, "utf-8", errors="strict") == data
    for label, python in [("utf-16le", "utf-16-le"), ("utf-16be", "utf-16-be")]:
        encoded = text.encode(python)
        assert simdenc.decode(encoded, label, bom="keep") == text
        assert simdenc.decode(encoded, label, errors="strict", bom="keep") == text
        # Ours: UTF-16 labels encode to UTF-16 (the standard writes UTF-8).
        assert simdenc.encode(text, label, errors="strict") == encoded
    assert simdenc.decode(text.encode("utf-16")) == text  # the BOM picks the byte order


# (label of the standard, CPython codec): encodings whose decoders agree on what CPython's
# encoder writes (the standard's tables are supersets of these codecs' on that text). Not
# euc_jp (CPython maps 0xA1DD to U+2212, the standard to U+FF0D) nor big5 (CPython's big5
# puts the kana and Cyrillic elsewhere, and differs on a few symbols).
LEGACY = [
    ("windows-1252", "cp1252"),
    ("windows-1251", "cp1251"),
    ("iso-8859-7", "iso8859_7"),
    ("koi8-r", "koi8_r"),
    ("windows-1256", "cp1256"),
    ("windows-1255", "cp1255"),
    ("shift_jis", "cp932"),
    ("euc-kr", "euc_kr"),
    ("gbk", "gbk"),
    ("gb18030", "gb18030"),
]


@pytest.mark.parametrize("label,python", LEGACY, ids=[p for _, p in LEGACY])
def test_legacy_decode_like_cpython(label, python):
    checked = 0
    for path in TEXTS:
        text = corpus_text(path)
        encoded = text.encode(python, errors="ignore")
        expected = encoded.decode(python)
        if expected.count("\n") < 3 and len(expected) < 200:
            continue  # almost nothing of this text is in this encoding
        assert simdenc.decode(encoded, label, errors="strict") == expected, path.name
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("label,python", LEGACY[:6], ids=[p for _, p in LEGACY[:6]])
def test_single_byte_encode_like_cpython(label, python):
    for path in TEXTS:
        text = corpus_text(path)
        assert simdenc.encode(text, label) == text.encode(python, errors="xmlcharrefreplace"), path.name


# --- decode: BOM modes and error positions -------------------------------------------------


def test_bom_modes():
    utf8 = b"\xef\xbb\xbfA"
    assert simdenc.decode(utf8, "windows-1252") == "A"  # sniff: the BOM decides
    assert simdenc.decode(utf8, "windows-1252", bom="strip") == "ï»¿A"
    assert simdenc.decode(utf8, "utf-8", bom="strip") == "A"
    assert simdenc.decode(utf8, "utf-8", bom="keep") == "\ufeffA"
    le = b"\xff\xfeA\x00"
    assert simdenc.decode(le, "utf-8") == "A"
    assert simdenc.decode(le, "utf-16be", bom="strip") == "\ufffe\u4100"
    assert simdenc.decode(le, "utf-16le", bom="strip") == "A"
    assert simdenc.decode(b"\xfe\xff\x00A", "utf-16le") == "A"


def test_error_offsets_count_the_bom():
    with pytest.raises(UnicodeDecodeError) as e:
        simdenc.decode(b"\xef\xbb\xbfab\xff", "windows-1252", errors="strict")
    assert (e.value.encoding, e.value.start, e.value.end) == ("utf-8", 5, 6)
    assert e.value.object == b"\xef\xbb\xbfab\xff"


def random_utf8ish(rng, n):
    """Bytes that are mostly UTF-8, with truncated, overlong, surrogate and stray bytes."""
    pieces = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.4:
            pieces.append(chr(rng.choice([rng.randrange(0x80), rng.randrange(0x80, 0x800), rng.randrange(0x800, 0xD800), rng.randrange(0xE000, 0x110000)])).encode())
        elif kind < 0.6:
            full = chr(rng.randrange(0x80, 0x110000) if rng.random() < 0.5 else 0x10FFFF).encode("utf-8", "surrogatepass")
            pieces.append(full[: rng.randrange(1, len(full) + 1)])
        elif kind < 0.75:
            pieces.append(bytes([rng.choice([0xC0, 0xC1, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF, 0x80, 0xBF, 0x9F, 0xA0, 0x8F, 0x90])]))
        elif kind < 0.85:
            pieces.append(chr(rng.randrange(0xD800, 0xE000)).encode("utf-8", "surrogatepass"))
        else:
            pieces.append(bytes([rng.randrange(256)]))
    return b"".join(pieces)


def test_utf8_error_positions_like_cpython():
    # CPython's UTF-8 decoder reports the standard's malformed sequences (its "maximal
    # subparts"): same start, end and reason, at every error of generated input.
    rng = random.Random(21)
    compared = 0
    for _ in range(3000):
        data = random_utf8ish(rng, rng.randrange(1, 12))
        try:
            expected = data.decode("utf-8")
        except UnicodeDecodeError as e:
            expected = e
        # Walk every error: after one, decode the rest.
        offset = 0
        while True:
            rest = data[offset:]
            try:
                got = simdenc.decode(rest, "utf-8", errors="strict", bom="keep")
            except UnicodeDecodeError as e:
                got = e
            try:
                want = rest.decode("utf-8")
            except UnicodeDecodeError as e:
                want = e
            if isinstance(want, str):
                assert got == want
                break
            assert isinstance(got, UnicodeDecodeError), (rest, want)
            assert (got.encoding, got.object, got.start, got.end, got.reason) == (
                "utf-8",
                rest,
                want.start,
                want.end,
                want.reason,
            ), rest
            compared += 1
            offset += want.end
        # Replacement mode: one U+FFFD per error, as CPython's "replace".
        assert simdenc.decode(data, bom="keep") == data.decode("utf-8", "replace")
        del expected
    assert compared > 1000


def test_utf16_error_positions_like_cpython():
    # CPython's UTF-16 decoder and the standard's agree on where a lone surrogate or a
    # truncated unit is (not on the reasons' wording).
    rng = random.Random(16)
    for _ in range(2000):
        units = [rng.choice([0x41, 0x20AC, 0xD83D, 0xDE00, 0xDBFF, 0xDC00]) for _ in range(rng.randrange(1, 6))]
        data = b"".join(u.to_bytes(2, "little") for u in units)
        if rng.random() < 0.3:
            data = data[:-1]
        try:
            want = data.decode("utf-16-le")
        except UnicodeDecodeError as e:
            want = (e.start, e.end)
        try:
            got = simdenc.decode(data, "utf-16le", errors="strict", bom="keep")
        except UnicodeDecodeError as e:
            got = (e.start, e.end)
        assert got == want, data
        assert simdenc.decode(data, "utf-16le", bom="keep") == data.decode("utf-16-le", "replace")


def test_legacy_decode_errors():
    with pytest.raises(UnicodeDecodeError) as e:
        simdenc.decode(b"ab\x82\x20", "shift_jis", errors="strict")
    # The standard restores an ASCII trail byte: the malformed sequence is the lead alone.
    assert (e.value.encoding, e.value.start, e.value.end, e.value.reason) == ("shift_jis", 2, 3, "illegal multibyte sequence")
    with pytest.raises(UnicodeDecodeError) as e:
        simdenc.decode(b"ab\x82", "shift_jis", errors="strict")
    assert (e.value.start, e.value.end, e.value.reason) == (2, 3, "incomplete multibyte sequence")
    with pytest.raises(UnicodeDecodeError) as e:
        simdenc.decode(b"x\xa1", "iso-8859-8", errors="strict")
    assert (e.value.start, e.value.end, e.value.reason) == (1, 2, "character maps to <undefined>")
    assert simdenc.decode(b"\x81\x20", "shift_jis") == "\ufffd "


def test_replacement_encoding():
    assert simdenc.lookup("iso-2022-kr") == "replacement"
    assert simdenc.decode(b"abc", "iso-2022-kr") == "\ufffd"
    assert simdenc.decode(b"", "iso-2022-kr") == ""
    with pytest.raises(UnicodeDecodeError):
        simdenc.decode(b"abc", "iso-2022-kr", errors="strict")
    assert simdenc.encode("é", "iso-2022-kr") == "é".encode()  # output encoding: UTF-8
    with pytest.raises(LookupError):
        simdenc.TextDecoder("iso-2022-kr")


# --- encode ------------------------------------------------------------------------------


def test_encode_html_and_strict():
    assert simdenc.encode("a\u3042\U0001F600b", "windows-1252") == b"a&#12354;&#128512;b"
    assert simdenc.encode("€", "latin1") == b"\x80"
    with pytest.raises(UnicodeEncodeError) as e:
        simdenc.encode("ab\U0001F600c\u3042", "windows-1252", errors="strict")
    # Positions in code points of the str, as CPython's.
    want = None
    try:
        "ab\U0001F600c\u3042".encode("cp1252")
    except UnicodeEncodeError as w:
        want = w
    assert (e.value.encoding, e.value.object, e.value.start, e.value.end) == ("windows-1252", want.object, want.start, want.end)
    with pytest.raises(UnicodeEncodeError) as e:
        simdenc.encode("日本語\u00e9x\u0100", "shift_jis", errors="strict")
    assert (e.value.start, e.value.end) == (3, 4)
    assert simdenc.encode("\u00e9", "shift_jis") == b"&#233;"


def test_iso_2022_jp_encode():
    text = "abc日本語xyz\uff71"
    assert simdenc.encode(text, "iso-2022-jp") == b"abc\x1b$BF|K\\8l\x1b(Bxyz\x1b$B%\"\x1b(B"
    assert simdenc.decode(simdenc.encode(text, "iso-2022-jp"), "iso-2022-jp") == "abc日本語xyz\u30a2"


def test_surrogates():
    lone = "a\ud800b"
    assert simdenc.encode(lone) == b"a\xef\xbf\xbdb"
    assert simdenc.encode(lone, "windows-1252") == b"a&#65533;b"
    for label, python in [("utf-8", "utf-8"), ("windows-1252", "cp1252"), ("utf-16le", "utf-16-le")]:
        with pytest.raises(UnicodeEncodeError) as e:
            simdenc.encode(lone, label, errors="strict")
        try:
            lone.encode(python)
        except UnicodeEncodeError as w:
            assert (e.value.start, e.value.end) == (w.start, w.end)
    # An unmappable character before the surrogate is the first error.
    with pytest.raises(UnicodeEncodeError) as e:
        simdenc.encode("\u3042\ud800", "windows-1252", errors="strict")
    assert e.value.start == 0
    assert simdenc.TextEncoder().encode("\udc00x") == b"\xef\xbf\xbdx"


# --- labels, types -------------------------------------------------------------------------


def test_lookup_and_encodings():
    assert simdenc.lookup("  UTF8\t") == "UTF-8"
    assert simdenc.lookup("latin1") == "windows-1252"
    assert simdenc.lookup("x-sjis") == "Shift_JIS"
    assert simdenc.lookup("utf-7") is None
    assert simdenc.lookup("") is None
    table = dict(simdenc.encodings())
    assert len(table) == 40
    assert "unicode-1-1-utf-8" in table["UTF-8"]
    assert sum(len(v) for v in table.values()) == 228
    for name, labels in table.items():
        for label in labels:
            assert simdenc.lookup(label) == name


def test_bad_arguments():
    with pytest.raises(LookupError):
        simdenc.decode(b"", "no-such-encoding")
    with pytest.raises(LookupError):
        simdenc.encode("", "no-such-encoding")
    with pytest.raises(ValueError):
        simdenc.decode(b"", errors="ignore")
    with pytest.raises(ValueError):
        simdenc.decode(b"", bom="maybe")
    with pytest.raises(ValueError):
        simdenc.encode("", errors="replace")
    with pytest.raises(TypeError):
        simdenc.decode("text")
    with pytest.raises(TypeError):
        simdenc.decode(5)
    with pytest.raises(TypeError):
        simdenc.encode(b"bytes")
    assert simdenc.decode(bytearray(b"\xe9"), "latin1") == "é"
    assert simdenc.decode(memoryview(b"x\xe9")[1:], "latin1") == "é"
    assert isinstance(simdenc.__version__, str)


# --- the standard's API ------------------------------------------------------------------------


def test_text_decoder_basics():
    d = simdenc.TextDecoder()
    assert (d.encoding, d.fatal, d.ignore_bom) == ("utf-8", False, False)
    assert simdenc.TextDecoder("SJIS").encoding == "shift_jis"
    assert simdenc.TextDecoder("latin1", fatal=True).fatal
    d = simdenc.TextDecoder("utf-16le")
    assert d.decode(b"\xff\xfeh\x00i", stream=True) == "h"
    assert d.decode(b"\x00") == "i"
    assert d.decode() == ""
    d = simdenc.TextDecoder("utf-8", ignore_bom=True)
    assert d.decode(b"\xef\xbb\xbfx") == "\ufeffx"
    d = simdenc.TextDecoder("utf-8")
    assert d.decode(b"\xef\xbb", stream=True) == ""
    assert d.decode(b"\xbfx\xef\xbb\xbf") == "x\ufeff"  # only the stream's first BOM
    d = simdenc.TextDecoder("utf-8")
    assert d.decode(b"\xe2\x82", stream=True) == ""
    assert d.decode() == "\ufffd"  # end of stream: the incomplete sequence
    assert d.decode(b"\xac") == "\ufffd"  # a new stream
    with pytest.raises(LookupError):
        simdenc.TextDecoder("utf-7")
    e = simdenc.TextEncoder()
    assert e.encoding == "utf-8"
    assert e.encode("h\u00e9") == b"h\xc3\xa9"
    assert e.encode() == b""


def test_text_decoder_fatal_stream_error_object():
    d = simdenc.TextDecoder("utf-8", fatal=True)
    assert d.decode(b"ab\xe2\x82", stream=True) == "ab"
    with pytest.raises(UnicodeDecodeError) as e:
        d.decode(b"x", stream=True)
    # The sequence began in the last call: the exception's object starts with it.
    assert (e.value.object, e.value.start, e.value.end) == (b"\xe2\x82x", 0, 2)
    # The standard: the rest of the input stays queued, the stream goes on from there.
    assert d.decode(b"yz") == "xyz"


def chunkings(rng, data, count):
    for _ in range(count):
        cuts = sorted(rng.sample(range(len(data) + 1), min(len(data) + 1, rng.randrange(0, 12))))
        pieces, last = [], 0
        for c in cuts + [len(data)]:
            pieces.append(data[last:c])
            last = c
        yield pieces


def damaged(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(0, 4)):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


STREAM_LABELS = ["utf-8", "utf-16le", "utf-16be", "shift_jis", "euc-jp", "iso-2022-jp", "euc-kr", "gbk", "gb18030", "big5", "windows-1251", "x-user-defined"]


@pytest.mark.parametrize("label", STREAM_LABELS)
def test_streaming_equals_one_shot(label):
    rng = random.Random(label)
    samples = []
    for path in TEXTS:
        text = corpus_text(path)[:400]
        encoded = simdenc.encode(text, label)
        samples.append(encoded)
    for data in samples:
        for variant in (data, damaged(rng, data), damaged(rng, data)[: rng.randrange(len(data) + 1)]):
            whole = simdenc.decode(variant, label, bom="strip")
            try:
                whole_fatal = simdenc.decode(variant, label, errors="strict", bom="strip")
            except UnicodeDecodeError as e:
                whole_fatal = (e.start, e.end, e.reason)
            for pieces in chunkings(rng, variant, 4):
                d = simdenc.TextDecoder(label)
                out = "".join(d.decode(p, stream=True) for p in pieces) + d.decode()
                assert out == whole
                inc = codecs.getincrementaldecoder("simdenc." + label)("replace")
                assert "".join(inc.decode(p) for p in pieces) + inc.decode(b"", final=True) == whole
                # Fatal: the same text, or the error at the same offset of the whole input.
                d = simdenc.TextDecoder(label, fatal=True)
                got, offset, current = [], 0, b""
                try:
                    for current in pieces:
                        got.append(d.decode(current, stream=True))
                        offset += len(current)
                    current = b""
                    got.append(d.decode())
                    result = "".join(got)
                except UnicodeDecodeError as e:
                    # The exception's object: this call's input after the bytes of earlier
                    # calls that the malformed sequence began in.
                    before = len(e.object) - len(current)
                    assert e.object[before:] == current
                    result = (offset - before + e.start, offset - before + e.end, e.reason)
                assert result == whole_fatal, pieces


def test_incremental_encoder_equals_one_shot():
    rng = random.Random(2022)
    text = "abc日本語xyz\uff71ｱ€ \u00e9" * 20
    for label in ["iso-2022-jp", "shift_jis", "windows-1252", "gb18030", "utf-16be"]:
        whole = simdenc.encode(text, label)
        for _ in range(20):
            cuts = sorted(rng.sample(range(len(text) + 1), 5))
            pieces = [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]
            enc = codecs.getincrementalencoder("simdenc." + label)("xmlcharrefreplace")
            out = b"".join(enc.encode(p) for p in pieces) + enc.encode("", final=True)
            assert out == whole


# --- the codecs registration ---------------------------------------------------------------------


def test_codecs_registration(tmp_path):
    assert b"\x93\xfa\x96\x7b".decode("simdenc.shift_jis") == "日本"
    assert "日本".encode("simdenc.sjis") == b"\x93\xfa\x96\x7b"
    assert codecs.lookup("simdenc.Shift_JIS").name == "simdenc.shift_jis"
    assert codecs.lookup("simdenc.latin1").name == "simdenc.windows-1252"
    assert "é".encode("simdenc.utf_8") == b"\xc3\xa9"  # Python's spelling of utf-8
    assert b"\xc3\xa9".decode("simdenc.windows_1252") == "Ã©"
    with pytest.raises(LookupError):
        codecs.lookup("simdenc.utf-7")
    with pytest.raises(UnicodeDecodeError) as e:
        b"ab\xff".decode("simdenc.utf-8")  # errors="strict" is fatal
    assert (e.value.start, e.value.end) == (2, 3)
    assert b"ab\xff".decode("simdenc.utf-8", "replace") == "ab\ufffd"
    with pytest.raises(UnicodeEncodeError):
        "\u3042".encode("simdenc.windows-1252")
    assert "\u3042".encode("simdenc.windows-1252", "xmlcharrefreplace") == b"&#12354;"
    with pytest.raises(ValueError):
        b"x".decode("simdenc.utf-8", "ignore")
    assert codecs.decode(b"\xef\xbb\xbfA", "simdenc.utf-8") == "A"  # its own BOM removed
    # Files through io.TextIOWrapper (the incremental codecs).
    text = "".join(corpus_text(p)[:2000] for p in TEXTS if "Japanese" in p.name or "ja." in p.name)
    text = simdenc.decode(simdenc.encode(text, "euc-jp"), "euc-jp")  # what EUC-JP can encode
    path = tmp_path / "ja.txt"
    with open(path, "w", encoding="simdenc.euc-jp") as f:
        f.write(text)
    assert path.read_bytes() == simdenc.encode(text, "euc-jp")
    with open(path, encoding="simdenc.euc-jp") as f:
        assert f.read() == text
    with open(path, encoding="simdenc.euc-jp") as f:
        assert "".join(iter(lambda: f.read(7), "")) == text
    # StreamReader/StreamWriter.
    raw = io.BytesIO()
    writer = codecs.getwriter("simdenc.big5")(raw)
    writer.write("中文")
    assert raw.getvalue() == b"\xa4\xa4\xa4\xe5"
    reader = codecs.getreader("simdenc.big5")(io.BytesIO(b"\xa4\xa4\xa4\xe5"))
    assert reader.read(1) + reader.read() == "中文"


# --- large inputs (converted with the GIL released) ----------------------------------------------


def test_large_inputs_and_threads():
    text = "".join(corpus_text(p) for p in TEXTS) * 4
    data = text.encode("utf-8")
    assert len(data) > 1 << 20
    gbk = simdenc.encode(text, "gb18030")
    results = {}

    def work(i):
        results[i] = (simdenc.decode(data), simdenc.decode(gbk, "gb18030"), simdenc.encode(text, "utf-16le"))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(4):
        assert results[i][0] == text
        assert results[i][1] == text
        assert results[i][2] == text.encode("utf-16-le")
    big = data + b"\xff" + data
    with pytest.raises(UnicodeDecodeError) as e:
        simdenc.decode(big, errors="strict")
    assert (e.value.start, e.value.end) == (len(data), len(data) + 1)
    d = simdenc.TextDecoder("gb18030")
    assert d.decode(gbk[:100001], stream=True) + d.decode(gbk[100001:]) == text
