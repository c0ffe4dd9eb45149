"""Fixtures for the Spark job, made from the repository's corpus (data/corpus: the Wikipedia
article on Mars in several languages, CC BY-SA 3.0, see data/corpus/wikipedia/LICENSE-CC-BY-SA;
the files made here are derived from it and carry the same licence). Nothing is committed: the
tests and the benchmark make them in a temporary directory.

    python make_fixtures.py OUT_DIR [--scale N]

writes OUT_DIR/files/ (a directory of Shift_JIS files, and UTF-8/UTF-16 files with BOMs),
OUT_DIR/records.parquet and OUT_DIR/records.jsonl (a binary column ``content``, base64 in
JSON, with a per-record ``charset``), OUT_DIR/warc/crawl.warc.gz (HTTP responses with and
without a Content-Type charset, gzip content encoding, chunked transfer, non-text responses
that the job skips, request records), and OUT_DIR/expected.json: for each input, the text,
encoding and source the job must give per record key. ``--scale`` repeats the records (for
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


def records(rng: random.Random, n: int, length: int) -> List[Dict[str, Any]]:
    """Rows with a charset label (some null, some unknown: the default then applies)."""
    out = []
    for i in range(n):
        name, label, encoding = PAIRS[i % len(PAIRS)]
        text = piece(name, rng, rng.randrange(length // 4, length))
        kind = i % 10
        if kind == 7:  # no label: the default (UTF-8)
            data, text = encoded(text, "utf-8")
            out.append(dict(id=i, charset=None, content=data, text=text, encoding="UTF-8", source="default"))
        elif kind == 8:  # an unknown label, ignored: the default
            data, text = encoded(text, "utf-8")
            out.append(dict(id=i, charset="x-unknown", content=data, text=text, encoding="UTF-8", source="default"))
        elif kind == 9:  # a BOM wins over the label
            data = b"\xff\xfe" + text.encode("utf-16-le")
            out.append(dict(id=i, charset=label, content=data, text=text, encoding="UTF-16LE", source="bom"))
        else:
            data, text = encoded(text, label)
            out.append(dict(id=i, charset=label, content=data, text=text, encoding=encoding, source="label"))
    out.append(dict(id=n, charset="utf-8", content=None, text=None, encoding=None, source=None))
    out.append(dict(id=n + 1, charset="shift_jis", content=b"ok \x82", text="ok \ufffd", encoding="Shift_JIS", source="label"))
    return out


def write_files(out: pathlib.Path, rng: random.Random, n: int) -> Dict[str, Any]:
    """Shift_JIS files (the job is given --encoding shift_jis), and files whose BOM wins."""
    files = out / "files"
    (files / "sub").mkdir(parents=True, exist_ok=True)
    expected = {}
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
        expected[path.resolve().as_uri()] = dict(text=text, encoding=encoding, source=source, replacements=0)
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
            name, label, encoding = PAIRS[i % len(PAIRS)]
            text = piece(name, rng, rng.randrange(200, 3000))
            url = f"http://example.{name}/page{i}"
            kind = i % 8
            data, text = encoded(text, label)
            headers = [("Content-Type", f"text/html; charset={label}")]
            source: Optional[str] = "http"
            if kind == 1:  # quoted, with another parameter after
                headers = [("Content-Type", f'text/html; charset="{label}"; format=flowed')]
            elif kind == 2:  # no charset: the default (windows-1252 in the test)
                data, text = encoded(text, "windows-1252")
                headers, encoding, source = [("Content-Type", "text/plain")], "windows-1252", "default"
            elif kind == 3:  # gzip content encoding (warcio removes it)
                headers.append(("Content-Encoding", "gzip"))
                data = gzip.compress(data)
            elif kind == 4:  # chunked transfer encoding (warcio removes it)
                headers.append(("Transfer-Encoding", "chunked"))
                data = chunked(data)
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
                expected[url] = dict(text=text, encoding=encoding, source=source, replacements=0)
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
            str(r["id"]): dict(
                text=r["text"],
                encoding=r["encoding"],
                source=r["source"],
                replacements=None if r["content"] is None else (1 if r["id"] == len(rows) - 1 else 0),
            )
            for r in rows
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
