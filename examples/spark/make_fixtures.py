"""Fixtures for the Spark job, made from the repository's corpus (data/corpus: the Wikipedia
article on Mars in several languages, CC BY-SA 3.0, see data/corpus/wikipedia/LICENSE-CC-BY-SA;
the files made here are derived from it and carry the same licence). Nothing is committed: the
tests and the benchmark make them in a temporary directory.

    python make_fixtures.py OUT_DIR [--scale N]

writes OUT_DIR/files/ (a directory of Shift_JIS files, and UTF-8/UTF-16 files with BOMs),
OUT_DIR/records.parquet and OUT_DIR/records.jsonl (a binary column ``content``, base64 in
JSON, with a per-record ``charset``: known, null, unknown, overridden by a BOM),
OUT_DIR/warc/crawl.warc.gz (HTTP responses with and without a Content-Type charset, gzip
content encoding, chunked transfer, non-text responses that the job skips, request records),
and OUT_DIR/expected.json: for each input, the text, encoding, source and replacement count
the job must give per record key (with ``--encoding auto``: what ``simdenc.detect`` and
``simdenc.decode`` give for the record, tested themselves in python/tests). ``--scale`` repeats the records (for
the benchmark)."""

from __future__ import annotations

import argparse
import base64
import gzip
import io
import json
import pathlib
import random
from typing import Any, Dict, List, Optional, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[2]
WIKI = ROOT / "data" / "corpus" / "wikipedia"

# (corpus text, label as a server might send it, the standard's name for it): the pairs of
# the corpus README.
PAIRS = [
    ("ja", "Shift_JIS", "Shift_JIS"),
    ("ja", "euc-jp", "EUC-JP"),
    ("ja", "csISO2022JP", "ISO-2022-JP"),
    ("ko", "EUC-KR", "EUC-KR"),
    ("zh_cn", "gbk", "GBK"),
    ("zh_cn", "GB2312", "GBK"),
    ("zh_tw", "big5", "Big5"),
    ("ru", "windows-1251", "windows-1251"),
    ("ru", "koi8-r", "KOI8-R"),
    ("el", "iso-8859-7", "ISO-8859-7"),
    ("fr", "latin1", "windows-1252"),
    ("de", "utf-8", "UTF-8"),
    ("ar", "windows-1256", "windows-1256"),
]


def piece(name: str, rng: random.Random, length: int) -> str:
    text = (WIKI / f"{name}.txt").read_text(encoding="utf-8")
    start = rng.randrange(max(1, len(text) - length))
    return text[start : start + length]


def encoded(text: str, label: str) -> Tuple[bytes, str]:
    """The bytes (simdenc's encoder: characters the encoding lacks as &#N;), and the text
    they decode to (simdenc's one-shot decode, tested against the standard elsewhere)."""
    import simdenc

    data = simdenc.encode(text, label)
    return data, simdenc.decode(data, label)


# The default the tests give the job (the HTML Standard's).
DEFAULT = "windows-1252"


def expect(data: Optional[bytes], hint: Optional[str]) -> Dict[str, Any]:
    """What the job gives with ``--encoding auto``: the encoding ``simdenc.detect`` determines
    (with ``hint`` as the transport layer's label), the text ``simdenc.decode`` gives with it,
    and the U+FFFD it wrote (the corpus has none of its own)."""
    import simdenc

    if data is None:
        return dict(text=None, encoding=None, source=None, replacements=None)
    found = simdenc.detect(data, hint, default=DEFAULT)
    text = simdenc.decode(data, found.encoding)
    return dict(text=text, encoding=found.encoding, source=found.source, replacements=text.count("\ufffd"))


def records(rng: random.Random, n: int, length: int) -> List[Dict[str, Any]]:
    """Rows with a charset label (some null, some unknown and ignored: then the content
    decides; some with a BOM, which wins over the label)."""
    out = []
    for i in range(n):
        name, label, _ = PAIRS[i % len(PAIRS)]
        text = piece(name, rng, rng.randrange(length // 4, length))
        kind = i % 10
        if kind == 7:  # no label
            data, charset = encoded(text, label)[0], None
        elif kind == 8:  # an unknown label, ignored
            data, charset = encoded(text, label)[0], "x-unknown"
        elif kind == 9:  # a BOM wins over the label
            data, charset = b"\xff\xfe" + text.encode("utf-16-le"), label
        else:
            data, charset = encoded(text, label)[0], label
        out.append(dict(id=i, charset=charset, content=data))
    out.append(dict(id=n, charset="utf-8", content=None))
    out.append(dict(id=n + 1, charset="shift_jis", content=b"ok \x82"))
    for r in out:
        r.update(expect(r["content"], r["charset"]))
    return out


def write_files(out: pathlib.Path, rng: random.Random, n: int) -> Dict[str, Any]:
    """Shift_JIS files and files with BOMs: what the job gives with ``--encoding shift_jis``
    ("label", or "bom") and with ``--encoding auto`` (the content decides)."""
    files = out / "files"
    (files / "sub").mkdir(parents=True, exist_ok=True)
    expected: Dict[str, Any] = {"label": {}, "auto": {}}
    for i in range(n):
        text = piece("ja", rng, 2000)
        if i % 5 == 3:
            data, encoding, source = b"\xef\xbb\xbf" + text.encode("utf-8"), "UTF-8", "bom"
        elif i % 5 == 4:
            data, encoding, source = b"\xfe\xff" + text.encode("utf-16-be"), "UTF-16BE", "bom"
        else:
            data, text = encoded(text, "shift_jis")
            encoding, source = "Shift_JIS", "label"
        path = files / ("sub" if i % 2 else ".") / f"doc{i:04}.txt"
        path.write_bytes(data)
        key = path.resolve().as_uri()
        expected["label"][key] = dict(text=text, encoding=encoding, source=source, replacements=0)
        expected["auto"][key] = expect(data, None)
    return expected


def http_response(status: str, headers: List[Tuple[str, str]], body: bytes) -> bytes:
    head = f"HTTP/1.1 {status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    return head.encode("latin-1") + body


def chunked(body: bytes, size: int = 500) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size]) for i in range(0, len(body), size)]
    return b"".join(parts) + b"0\r\n\r\n"


def write_warc(out: pathlib.Path, rng: random.Random, n: int) -> Dict[str, Any]:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    (out / "warc").mkdir(parents=True, exist_ok=True)
    expected: Dict[str, Any] = {}
    with open(out / "warc" / "crawl.warc.gz", "wb") as f:
        writer = WARCWriter(f, gzip=True)
        for i in range(n):
            name, label, _ = PAIRS[i % len(PAIRS)]
            text: Optional[str] = piece(name, rng, rng.randrange(200, 3000))
            url = f"http://example.{name}/page{i}"
            kind = i % 8
            data = plain = encoded(text, label)[0]
            headers = [("Content-Type", f"text/html; charset={label}")]
            if kind == 1:  # quoted, with another parameter after
                headers = [("Content-Type", f'text/html; charset="{label}"; format=flowed')]
            elif kind == 2:  # no charset: the content decides (a guess)
                headers = [("Content-Type", "text/plain")]
            elif kind == 7:  # no charset, a <meta charset> in the page
                data = plain = f"<!doctype html><meta charset={label}><title>t</title>".encode() + data
                headers = [("Content-Type", "text/html")]
            elif kind == 3:  # gzip content encoding (warcio removes it)
                headers.append(("Content-Encoding", "gzip"))
                plain, data = data, gzip.compress(data)
            elif kind == 4:  # chunked transfer encoding (warcio removes it)
                headers.append(("Transfer-Encoding", "chunked"))
                plain, data = data, chunked(data)
            elif kind == 5:  # not text: skipped
                headers, text = [("Content-Type", "image/png")], None
                data = b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(100))
            elif kind == 6:  # a request: skipped
                req = StatusAndHeaders(f"GET /page{i} HTTP/1.1", [("Host", f"example.{name}")], is_http_request=True)
                writer.write_record(writer.create_warc_record(url, "request", http_headers=req))
                continue
            payload = http_response("200 OK", headers, data)
            record = writer.create_warc_record(url, "response", payload=io.BytesIO(payload))
            writer.write_record(record)
            if text is not None:
                import simdenc

                hint = simdenc.charset_from_content_type(dict(headers)["Content-Type"])
                expected[url] = expect(plain, hint)
    return expected


def make(out: pathlib.Path, scale: int = 1, seed: int = 21) -> Dict[str, Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    rows = records(rng, 60 * scale, 3000)
    table = pa.table(
        {
            "id": pa.array([r["id"] for r in rows], pa.int64()),
            "charset": pa.array([r["charset"] for r in rows], pa.string()),
            "content": pa.array([r["content"] for r in rows], pa.binary()),
        }
    )
    pq.write_table(table, out / "records.parquet", row_group_size=max(1, len(rows) // 4))
    with open(out / "records.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            content = None if r["content"] is None else base64.b64encode(r["content"]).decode("ascii")
            f.write(json.dumps({"id": r["id"], "charset": r["charset"], "content": content}) + "\n")
    expected = {
        "records": {
            str(r["id"]): {k: r[k] for k in ("text", "encoding", "source", "replacements")} for r in rows
        },
        "files": write_files(out, rng, 10 * scale),
        "warc": write_warc(out, rng, 40 * scale),
    }
    (out / "expected.json").write_text(json.dumps(expected, ensure_ascii=False), encoding="utf-8")
    return expected


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    make(args.out, args.scale)
