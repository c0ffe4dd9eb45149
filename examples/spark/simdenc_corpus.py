"""Convert a corpus to UTF-8 Parquet on Apache Spark with simdenc.

Each input record's bytes are decoded by ``simdenc.decode_batch`` inside ``mapInArrow``: Spark
hands Arrow record batches to Python and takes Arrow batches back, so the bytes go from the
JVM to the decoder and the text back without a Python object per record.

Each record's encoding is determined as ``simdenc.detect`` does (``--encoding auto``, the
default: the HTML Standard's algorithm, with a WARC response's ``Content-Type`` charset or the
input's charset column as the transport layer's label, and simdenc's frequency detector as its
guess), or given (``--encoding LABEL``; a BOM still wins).

Output: Parquet with the columns ``text`` (UTF-8), ``encoding`` (the standard's name of the
encoding used), ``source`` (how it was decided: "bom", "http" (the transport layer's label),
"meta" or "xml" (a declaration in an HTML page), "guess", "default", or "label" for
``--encoding LABEL``) and ``replacements`` (malformed sequences replaced with U+FFFD), after
the input's other columns (``path`` for files; ``warc_path``, ``url``, ``content_type`` and
``charset`` for WARC; every other column for Parquet and JSONL).

Inputs (``--format``):
  files    a directory of files (recursive), one record per file
  parquet  Parquet with a binary column (``--column``, default ``content``)
  jsonl    JSON lines with a base64 column (``--column``; Spark's JSON form of binary)
  warc     .warc / .warc.gz files (a file or a directory): one record per HTTP response whose
           type is text (text/*, *html*, *xml*, *json*, or none given), read with warcio
A charset column (``--charset-column``, for parquet and jsonl) gives per-record labels.
Unknown labels are ignored, as the HTML Standard ignores an unknown transport-layer charset.

    spark-submit simdenc_corpus.py --format warc --input crawl/ --output out/

See README.md (beside this file) for running it on a cluster.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Dict, Iterator, List, Optional

import pyarrow as pa

import simdenc

# Spark's DDL for the columns the decoding stage adds.
DECODED_DDL = "text string, encoding string, source string, replacements long"


# --- the decoding stage ------------------------------------------------------------------


def decode_record_batch(batch: pa.RecordBatch, column: str, options: Dict[str, Any]) -> pa.RecordBatch:
    """``batch`` with ``column`` (binary) replaced by the decoded columns. ``options``:
    ``encoding`` ("auto" or a label), ``charset_column`` (the transport layer's labels, for
    "auto"; None if there are none), ``default``, ``html``, ``guess``, ``threads``."""
    values = batch.column(column)
    kwargs: Dict[str, Any] = dict(
        return_encodings=True, return_sources=True, return_replacements=True, threads=options["threads"]
    )
    if options["encoding"] == "auto":
        kwargs.update(default=options["default"], html=options["html"], guess=options["guess"])
        if options["charset_column"] is not None:
            kwargs["http_charsets"] = batch.column(options["charset_column"]).cast(pa.string())
    text, encodings, sources, replacements = simdenc.decode_batch(values, options["encoding"], **kwargs)
    keep = [name for name in batch.schema.names if name != column]
    arrays = [batch.column(name) for name in keep] + [text, encodings, sources, replacements]
    return pa.RecordBatch.from_arrays(arrays, names=keep + ["text", "encoding", "source", "replacements"])


def decoder(column: str, options: Dict[str, Any]):
    """The function for ``mapInArrow``."""

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            yield decode_record_batch(batch, column, options)

    return run


# --- WARC --------------------------------------------------------------------------------


def is_text(content_type: Optional[str]) -> bool:
    if not content_type:
        return True
    essence = content_type.split(";", 1)[0].strip().lower()
    return essence.startswith("text/") or any(k in essence for k in ("html", "xml", "json", "javascript"))


WARC_SCHEMA = pa.schema(
    [
        ("warc_path", pa.string()),
        ("url", pa.string()),
        ("content_type", pa.string()),
        ("charset", pa.string()),
        ("content", pa.binary()),
    ]
)
WARC_DDL = "warc_path string, url string, content_type string, charset string, content binary"


def warc_records(batches: Iterator[pa.RecordBatch], records_per_batch: int = 1000) -> Iterator[pa.RecordBatch]:
    """For ``mapInArrow`` over a column ``path`` of WARC files: their HTTP responses of text
    types, with the body after the transfer and content encodings (warcio removes them)."""
    from pyarrow import fs
    from warcio.archiveiterator import ArchiveIterator

    rows: Dict[str, List[Any]] = {name: [] for name in WARC_SCHEMA.names}

    def flush() -> pa.RecordBatch:
        batch = pa.RecordBatch.from_pydict(rows, schema=WARC_SCHEMA)
        for column in rows.values():
            column.clear()
        return batch

    for batch in batches:
        for path in batch.column("path").to_pylist():
            filesystem, inner = fs.FileSystem.from_uri(path) if "://" in path else (fs.LocalFileSystem(), path)
            with filesystem.open_input_stream(inner, compression=None) as stream:
                for record in ArchiveIterator(stream):
                    if record.rec_type != "response" or record.http_headers is None:
                        continue
                    content_type = record.http_headers.get_header("Content-Type")
                    if not is_text(content_type):
                        continue
                    rows["warc_path"].append(path)
                    rows["url"].append(record.rec_headers.get_header("WARC-Target-URI"))
                    rows["content_type"].append(content_type)
                    # The transport layer's encoding, the header parsed as Fetch does.
                    rows["charset"].append(simdenc.charset_from_content_type(content_type) if content_type else None)
                    rows["content"].append(record.content_stream().read())
                    if len(rows["content"]) >= records_per_batch:
                        yield flush()
    if rows["content"]:
        yield flush()


# --- the job -----------------------------------------------------------------------------


def list_warcs(spark: Any, path: str) -> List[str]:
    """The .warc/.warc.gz files at ``path`` (a file or a directory, through Hadoop's file
    system, so that hdfs://, s3a:// and the like work as for the other inputs)."""
    df = (
        spark.read.format("binaryFile")
        .option("recursiveFileLookup", "true")
        .option("pathGlobFilter", "*.warc*")
        .load(path)
        .select("path")
    )
    paths = sorted(r.path for r in df.collect())
    # Hadoop's file: URIs as local paths (pyarrow opens those), others as they are.
    return [p[len("file:") :] if p.startswith("file:") else p for p in paths]


def build(spark: Any, args: argparse.Namespace) -> Any:
    """The converted DataFrame (lazy)."""
    from pyspark.sql import functions as F

    column, charset_column = args.column, args.charset_column
    if args.format == "files":
        df = (
            spark.read.format("binaryFile")
            .option("recursiveFileLookup", "true")
            .load(args.input)
            .select("path", F.col("content"))
        )
        column, charset_column = "content", None
    elif args.format == "parquet":
        df = spark.read.parquet(args.input)
    elif args.format == "jsonl":
        raw = spark.read.json(args.input)
        fields = [f"`{f.name}` {f.dataType.simpleString()}" for f in raw.schema.fields if f.name != column]
        df = spark.read.schema(", ".join(fields + [f"`{column}` binary"])).json(args.input)
    elif args.format == "warc":
        paths = list_warcs(spark, args.input)
        if not paths:
            raise SystemExit(f"no .warc or .warc.gz files at {args.input}")
        parts = args.partitions or min(len(paths), spark.sparkContext.defaultParallelism * 4)
        df = spark.createDataFrame([(p,) for p in paths], "path string").repartition(parts)
        df = df.mapInArrow(warc_records, WARC_DDL)
        column, charset_column = "content", "charset"
    else:  # argparse's choices exclude this
        raise SystemExit(f"unknown format {args.format}")
    if args.partitions and args.format != "warc":
        df = df.repartition(args.partitions)
    if args.encoding != "auto" or (charset_column is not None and charset_column not in df.columns):
        charset_column = None
    if column not in df.columns:
        raise SystemExit(f"no column {column!r} in the input")
    keep = [f"`{f.name}` {f.dataType.simpleString()}" for f in df.schema.fields if f.name != column]
    schema = ", ".join(keep + [DECODED_DDL])
    options = dict(
        encoding=args.encoding,
        charset_column=charset_column,
        default=args.default_encoding,
        html=args.html,
        guess=args.guess,
        threads=args.threads,
    )
    run = decoder(column, options)
    return df.mapInArrow(run, schema)


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True, help="a directory, file or glob (any Hadoop file system)")
    parser.add_argument("--output", required=True, help="the Parquet directory to write")
    parser.add_argument("--format", choices=["files", "parquet", "jsonl", "warc"], required=True)
    parser.add_argument("--column", default="content", help="the bytes column (parquet, jsonl)")
    parser.add_argument("--charset-column", default="charset", help="per-record labels (parquet, jsonl), used if the input has it")
    parser.add_argument(
        "--encoding",
        default="auto",
        help="auto (the default: determined per record) or one label for every record (a BOM still wins)",
    )
    parser.add_argument(
        "--default-encoding",
        default="windows-1252",
        help="with auto, when nothing else decides (default windows-1252, the HTML Standard's)",
    )
    markup = parser.add_mutually_exclusive_group()
    markup.add_argument("--html", dest="html", action="store_const", const=True, help="every record is HTML")
    markup.add_argument("--text", dest="html", action="store_const", const=False, help="every record is plain text")
    parser.add_argument("--no-guess", dest="guess", action="store_false", help="no frequency analysis (auto)")
    parser.add_argument("--partitions", type=int, help="repartition the input into this many parts")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="decode_batch threads per Spark task (default 1: Spark already runs a task per core)",
    )
    parser.add_argument("--mode", default="overwrite", help="Spark's save mode for the output")
    args = parser.parse_args(argv)
    if args.encoding.strip().lower() == "auto":
        args.encoding = "auto"
    for label in (args.encoding, args.default_encoding):
        if label != "auto" and simdenc.lookup(label) is None:
            parser.error(f"unknown encoding: {label}")
    return args


def main(argv: Optional[List[str]] = None, spark: Any = None) -> Dict[str, float]:
    """Runs the job (in the given session, or one from spark-submit's configuration) and
    returns the number of records, the seconds the conversion took, and records per second."""
    args = parse_args(argv)
    if spark is None:
        from pyspark.sql import SparkSession

        spark = SparkSession.builder.appName("simdenc-corpus").getOrCreate()
    t0 = time.perf_counter()
    df = build(spark, args)
    df.write.mode(args.mode).parquet(args.output)
    seconds = time.perf_counter() - t0
    records = spark.read.parquet(args.output).count()
    stats = {"records": records, "seconds": seconds, "records_per_second": records / seconds if seconds else 0.0}
    print(
        f"simdenc_corpus: {records} records in {seconds:.2f} s ({stats['records_per_second']:.0f} records/s) "
        f"-> {args.output}",
        file=sys.stderr,
    )
    return stats


if __name__ == "__main__":
    main()
