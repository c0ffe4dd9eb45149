"""Tests of simdenc.decode_batch: every row equals simdenc.decode of it (the one-shot decode,
itself tested against the standard), whatever the input's form (list, binary, large_binary,
sliced, chunked, with nulls), the labels' form, the number of threads and the batch's size."""

import pathlib
import random

import pytest

pa = pytest.importorskip("pyarrow")

import simdenc  # noqa: E402

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "data" / "corpus"
WIKI = CORPUS / "wikipedia"

# (corpus text, label): rows of real text in legacy encodings.
PAIRS = [
    ("ja", "shift_jis"),
    ("ja", "euc-jp"),
    ("ko", "euc-kr"),
    ("zh_cn", "gbk"),
    ("zh_cn", "gb18030"),
    ("ru", "windows-1251"),
    ("fr", "windows-1252"),
    ("el", "iso-8859-7"),
    ("en", "utf-8"),
    ("ja", "utf-16le"),
]


def rows_of(name, label, n=40, seed=0):
    """`n` pieces of the corpus text `name`, encoded with `label`, with a little noise."""
    text = (WIKI / f"{name}.txt").read_text(encoding="utf-8")
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        a = rng.randrange(len(text))
        piece = text[a : a + rng.randrange(0, 3000)]
        data = simdenc.encode(piece, label)
        if rng.random() < 0.2:  # malformed bytes, or a cut sequence
            cut = rng.randrange(len(data) + 1)
            data = data[:cut] + bytes([rng.randrange(0x80, 0x100)]) + data[cut:]
        out.append(data)
    return out


def mixed_rows(seed=1):
    """Rows of every pair, shuffled, with their labels and some nulls."""
    rng = random.Random(seed)
    rows = []
    for i, (name, label) in enumerate(PAIRS):
        rows += [(data, label) for data in rows_of(name, label, 12, seed + i)]
    rows += [(None, rng.choice(PAIRS)[1]) for _ in range(10)]
    rows += [(b"", "utf-8"), (b"\xef\xbb\xbfbom", "windows-1252"), (b"\xff\xfeh\x00i\x00", "gbk")]
    rng.shuffle(rows)
    return [r for r, _ in rows], [lab for _, lab in rows]


def expected(values, labels, bom="sniff"):
    return [None if v is None else simdenc.decode(v, lab, bom=bom) for v, lab in zip(values, labels)]


@pytest.mark.parametrize("name,label", PAIRS)
def test_one_label_equals_decode(name, label):
    values = rows_of(name, label)
    want = expected(values, [label] * len(values))
    for form in (values, pa.array(values, pa.binary()), pa.array(values, pa.large_binary())):
        got = simdenc.decode_batch(form, label)
        assert got.to_pylist() == want
    assert simdenc.decode_batch(pa.array(values, pa.binary()), label).type == pa.string()
    assert simdenc.decode_batch(pa.array(values, pa.large_binary()), label).type == pa.large_string()
    assert simdenc.decode_batch(values, label).type == pa.string()


@pytest.mark.parametrize("threads", [None, 1, 2, 3])
def test_per_row_labels_nulls_and_threads(threads):
    values, labels = mixed_rows()
    # Big enough to be split into parts and decoded in parallel.
    values, labels = values * 40, labels * 40
    want = expected(values, labels)
    for kind in (pa.binary(), pa.large_binary()):
        array = pa.array(values, kind)
        for label_form in (labels, pa.array(labels), pa.array(labels, pa.large_string()), pa.array(labels).dictionary_encode()):
            got = simdenc.decode_batch(array, label_form, threads=threads)
            assert got.to_pylist() == want
            assert got.null_count == sum(v is None for v in values)
    assert simdenc.decode_batch(values, labels, threads=threads).to_pylist() == want


def test_sliced_arrays():
    values, labels = mixed_rows(seed=7)
    for kind in (pa.binary(), pa.large_binary()):
        array = pa.array(values, kind)
        for start, stop in [(1, len(values)), (3, 17), (7, 8), (5, 5), (len(values) - 1, len(values))]:
            part = array[start:stop]
            assert part.offset == start
            got = simdenc.decode_batch(part, labels[start:stop])
            assert got.to_pylist() == expected(values[start:stop], labels[start:stop])
            # The labels sliced too (an Arrow array with an offset).
            got = simdenc.decode_batch(part, pa.array(labels)[start:stop])
            assert got.to_pylist() == expected(values[start:stop], labels[start:stop])


def test_details():
    values = [b"caf\xe9", None, b"\xef\xbb\xbfhi", b"x\x81\x81y\xff", b"plain"]
    labels = ["windows-1252", "utf-8", "windows-1252", "shift_jis", None]
    text, encodings, sources, replacements = simdenc.decode_batch(
        pa.array(values), labels, return_encodings=True, return_sources=True, return_replacements=True
    )
    assert text.to_pylist() == ["caf\xe9", None, "hi", "x\uff1dy\ufffd", "plain"]
    assert encodings.to_pylist() == ["windows-1252", None, "UTF-8", "Shift_JIS", "UTF-8"]
    assert sources.to_pylist() == ["label", None, "bom", "label", "default"]
    assert replacements.to_pylist() == [0, None, 0, 1, 0]
    assert replacements.type == pa.int64()
    # Only what is asked for, in the documented order.
    text, replacements = simdenc.decode_batch(values, labels, return_replacements=True)
    assert replacements.to_pylist() == [0, None, 0, 1, 0]
    # The replacement count is the number of U+FFFD the standard writes for malformed input.
    noisy = [bytes([0x80 | i, 0x41] * i) for i in range(10)]
    counts = simdenc.decode_batch(noisy, return_replacements=True)[1].to_pylist()
    assert counts == [simdenc.decode(v).count("\ufffd") for v in noisy]


def test_bom_modes():
    values = [b"\xef\xbb\xbfa", b"\xff\xfea\x00", b"\xfe\xff\x00a", b"b"]
    for bom in ("sniff", "strip", "keep"):
        for label in ("utf-8", "utf-16le", "windows-1252"):
            got = simdenc.decode_batch(values, label, bom=bom).to_pylist()
            assert got == expected(values, [label] * 4, bom=bom)


def test_empty():
    for form in ([], pa.array([], pa.binary()), pa.array([], pa.large_binary())):
        out = simdenc.decode_batch(form, "gbk", return_encodings=True, return_replacements=True)
        assert [len(a) for a in out] == [0, 0, 0]
    out = simdenc.decode_batch([None, None])
    assert out.to_pylist() == [None, None]
    assert simdenc.decode_batch([b"", b""]).to_pylist() == ["", ""]


def test_strict_raises_with_the_first_bad_row():
    good = [simdenc.encode("\u65e5\u672c\u8a9e" * 50, "shift_jis")] * 3000
    values = good[:1500] + [b"ab\x82"] + good[1500:2500] + [b"\xff"] + good[2500:]
    for form in (values, pa.array(values), pa.array(values, pa.large_binary())):
        for threads in (None, 1, 2):
            with pytest.raises(UnicodeDecodeError) as info:
                simdenc.decode_batch(form, "shift_jis", errors="strict", threads=threads)
            err = info.value
            assert err.row == 1500
            assert "(row 1500)" in str(err)
            assert (err.object, err.start, err.end) == (b"ab\x82", 2, 3)
            assert err.encoding == "shift_jis"
    # The same position as decode gives.
    with pytest.raises(UnicodeDecodeError) as one:
        simdenc.decode(b"ab\x82", "shift_jis", errors="strict")
    assert (one.value.start, one.value.end) == (2, 3)
    # Sliced: the row is counted from the slice's start.
    with pytest.raises(UnicodeDecodeError) as info:
        simdenc.decode_batch(pa.array(values)[1000:], "shift_jis", errors="strict")
    assert info.value.row == 500
    # No error: the same text as "replace".
    assert simdenc.decode_batch(good[:10], "shift_jis", errors="strict") == simdenc.decode_batch(good[:10], "shift_jis")


def test_chunked_arrays():
    values, labels = mixed_rows(seed=3)
    chunked = pa.chunked_array([pa.array(values[:20]), pa.array(values[20:21]), pa.array(values[21:])])
    got = simdenc.decode_batch(chunked, labels, return_sources=True)
    assert isinstance(got[0], pa.ChunkedArray)
    assert got[0].to_pylist() == expected(values, labels)
    assert got[0].num_chunks == 3
    bad = pa.chunked_array([pa.array([b"a", b"b"]), pa.array([b"c", b"\xff"])])
    with pytest.raises(UnicodeDecodeError) as info:
        simdenc.decode_batch(bad, errors="strict")
    assert info.value.row == 3 and "(row 3)" in str(info.value)


def test_large_text_and_parallel_equals_serial():
    text = (WIKI / "zh_cn.txt").read_text(encoding="utf-8")
    data = simdenc.encode(text, "gb18030")
    values = [data[i : i + 997] for i in range(0, len(data), 997)] * 30  # a few MB
    array = pa.array(values, pa.large_binary())
    serial = simdenc.decode_batch(array, "gb18030", threads=1, return_replacements=True)
    for threads in (None, 2, 4):
        assert simdenc.decode_batch(array, "gb18030", threads=threads, return_replacements=True) == serial
    assert serial[0].to_pylist() == [simdenc.decode(v, "gb18030") for v in values]


def test_bad_arguments():
    with pytest.raises(LookupError, match="nope"):
        simdenc.decode_batch([b"a"], "nope")
    with pytest.raises(LookupError, match=r"row 1"):
        simdenc.decode_batch([b"a", b"b"], ["utf-8", "nope"])
    with pytest.raises(LookupError, match=r"row 1"):
        simdenc.decode_batch(pa.array([b"a", b"b"]), pa.array(["utf-8", "nope"]))
    with pytest.raises(ValueError, match="auto"):
        simdenc.decode_batch([b"a"], "utf-8", http_charsets="gbk")
    with pytest.raises(ValueError, match="auto"):
        simdenc.decode_batch([b"a"], "auto", bom="keep")
    with pytest.raises(LookupError, match="nope"):
        simdenc.decode_batch([b"a"], default="nope")
    with pytest.raises(ValueError, match="2 encodings for 1 values"):
        simdenc.decode_batch([b"a"], ["utf-8", "utf-8"])
    with pytest.raises(ValueError, match="errors"):
        simdenc.decode_batch([b"a"], errors="ignore")
    with pytest.raises(ValueError, match="bom"):
        simdenc.decode_batch([b"a"], bom="no")
    with pytest.raises(ValueError, match="threads"):
        simdenc.decode_batch([b"a"], threads=0)
    with pytest.raises(TypeError, match=r"values\[1\]"):
        simdenc.decode_batch([b"a", "str"])
    with pytest.raises(TypeError, match="binary or large_binary"):
        simdenc.decode_batch(pa.array(["text"]))
    with pytest.raises(TypeError, match="values must be"):
        simdenc.decode_batch(b"abc")
    with pytest.raises(TypeError, match=r"encodings\[0\]"):
        simdenc.decode_batch([b"a"], [1])
    # bytes-like rows other than bytes are accepted.
    assert simdenc.decode_batch([bytearray(b"a"), memoryview(b"b")]).to_pylist() == ["a", "b"]


def test_result_is_independent_of_the_input():
    """The output owns its buffers: the input may go away."""
    values = [simdenc.encode("\u043f\u0440\u0438\u0432\u0435\u0442", "koi8-r")] * 1000
    array = pa.array(values)
    out = simdenc.decode_batch(array, "koi8-r")
    del array, values
    import gc

    gc.collect()
    assert out.to_pylist() == ["\u043f\u0440\u0438\u0432\u0435\u0442"] * 1000
    out.validate(full=True)


def test_text_lives_in_the_default_memory_pool():
    """The text is written to a buffer of pyarrow's default memory pool (counted there while
    the array lives, given back when it goes), whichever pool the caller chose."""
    values = [("ligne %d: é à ü " % i).encode("latin-1") * 40 for i in range(4000)]
    want = [v.decode("cp1252") for v in values]
    array = pa.array(values, pa.binary())
    previous = pa.default_memory_pool()
    try:
        for pool in (previous, pa.system_memory_pool()):
            pa.set_memory_pool(pool)
            before = pool.bytes_allocated()
            got = simdenc.decode_batch(array, "windows-1252", threads=2)
            got.validate(full=True)
            assert got.to_pylist() == want
            text_bytes = sum(len(t.encode()) for t in want)
            assert pool.bytes_allocated() - before >= text_bytes
            del got
            assert pool.bytes_allocated() - before < text_bytes
    finally:
        pa.set_memory_pool(previous)


def test_full_validation_at_every_thread_count():
    values, labels = mixed_rows(seed=11)
    for threads in (1, 2, 3, None):
        for kind in (pa.binary(), pa.large_binary()):
            got = simdenc.decode_batch(pa.array(values * 40, kind), labels * 40, threads=threads)
            got.validate(full=True)
            assert got.null_count == 40 * sum(v is None for v in values)
