"""Convert a corpus to UTF-8 Parquet on Apache Spark with simdenc.

Each input record's bytes are decoded by ``simdenc.decode_batch`` inside ``mapInArrow``: Spark
hands Arrow record batches to Python and takes Arrow batches back, so the bytes go from the
JVM to the decoder and the text back without a Python object per record.

Output: Parquet with the columns ``text`` (UTF-8), ``encoding`` (the standard's name of the
encoding used), ``source`` (how it was decided: "bom", "http" for a WARC response's
``Content-Type`` charset, "label" for ``--encoding`` or a charset column, "default" for
``--default-encoding``) and ``replacements`` (malformed sequences replaced with U+FFFD), after
the input's other columns (``path`` for files; ``warc_path``, ``url`` and ``content_type`` for
WARC; every other column for Parquet and JSONL).

Inputs (``--format``):
  files    a directory of files (recursive), one record per file
  parquet  Parquet with a binary column (``--column``, default ``content``)
  jsonl    JSON lines with a base64 column (``--column``; Spark's JSON form of binary)
  warc     .warc / .warc.gz files (a file or a directory): one record per HTTP response whose
           type is text (text/*, *html*, *xml*, *json*, or none given), read with warcio
A charset column (``--charset-column``, for parquet and jsonl) gives per-record labels.
Unknown labels are ignored, as the HTML Standard ignores an unknown transport-layer charset.

    spark-submit simdenc_corpus.py --format warc --input crawl/ --output out/ \\
        --default-encoding windows-1252

See README.md (beside this file) for running it on a cluster.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Dict, Iterator, List, Optional

import pyarrow as pa
import pyarrow.compute as pc

import simdenc

# Spark's DDL for the columns the decoding stage adds.
DECODED_DDL = "text string, encoding string, source string, replacements long"


# --- the decoding stage ------------------------------------------------------------------


def resolve_labels(labels: pa.Array) -> pa.Array:
    """Each label as the standard's encoding name, null where it is null or unknown."""
    unique = pc.unique(labels).to_pylist()
    names = [simdenc.lookup(u) if u is not None else None for u in unique]
    index = pc.index_in(labels, value_set=pa.array(unique, labels.type))
    return pc.take(pa.array(names, pa.string()), index)


def decode_record_batch(
    batch: pa.RecordBatch,
    column: str,
    encoding: Optional[str],
    default: str,
    charset_column: Optional[str],
    hint_source: str,
    threads: Optional[int],
) -> pa.RecordBatch:
    """``batch`` with ``column`` (binary) replaced by the decoded columns."""
    values = batch.column(column)
    given = None
    if encoding is not None:
        labels: Any = encoding
    elif charset_column is not None:
        resolved = resolve_labels(batch.column(charset_column).cast(pa.string()))
        given = pc.is_valid(resolved)
        labels = pc.fill_null(resolved, default)
    else:
        labels = default
    text, encodings, sources, replacements = simdenc.decode_batch(
        values, labels, return_encodings=True, return_sources=True, return_replacements=True, threads=threads
    )
    # decode_batch says "label" for every label it was given: say where the label came from.
    if encoding is None:
        from_label = pc.equal(sources, "label")
        if given is not None:
            sources = pc.if_else(pc.and_(from_label, given), hint_source, pc.if_else(from_label, "default", sources))
        else:
            sources = pc.if_else(from_label, "default", sources)
    keep = [name for name in batch.schema.names if name != column]
    arrays = [batch.column(name) for name in keep] + [
        text,
        encodings,
        sources,
        replacements,
    ]
    return pa.RecordBatch.from_arrays(arrays, names=keep + ["text", "encoding", "source", "replacements"])


def decoder(
    column: str,
    encoding: Optional[str],
    default: str,
    charset_column: Optional[str],
    hint_source: str,
    threads: Optional[int],
):
    """The function for ``mapInArrow``."""

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            yield decode_record_batch(batch, column, encoding, default, charset_column, hint_source, threads)

    return run


# --- WARC --------------------------------------------------------------------------------


def charset_of(content_type: Optional[str]) -> Optional[str]:
    """The ``charset`` parameter of a ``Content-Type`` value (the last one wins, quotes
    removed), as the MIME Sniffing Standard's parameter parsing reads it for this purpose."""
    if not content_type:
        return None
    charset = None
    for param in content_type.split(";")[1:]:
        name, sep, value = param.partition("=")
        if not sep or name.strip().lower() != "charset":
            continue
        value = value.strip()
        if value.startswith('"'):
            value = value[1:].split('"', 1)[0]
        if value and charset is None:
            charset = value
    return charset


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
                    rows["charset"].append(charset_of(content_type))
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

    column, charset_column, hint = args.column, args.charset_column, "label"
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
        column, charset_column, hint = "content", "charset", "http"
    else:  # argparse's choices exclude this
        raise SystemExit(f"unknown format {args.format}")
    if args.partitions and args.format != "warc":
        df = df.repartition(args.partitions)
    if args.encoding is not None or (charset_column is not None and charset_column not in df.columns):
        charset_column = None
    if column not in df.columns:
        raise SystemExit(f"no column {column!r} in the input")
    keep = [f"`{f.name}` {f.dataType.simpleString()}" for f in df.schema.fields if f.name != column]
    schema = ", ".join(keep + [DECODED_DDL])
    run = decoder(column, args.encoding, args.default_encoding, charset_column, hint, args.threads)
    return df.mapInArrow(run, schema)


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True, help="a directory, file or glob (any Hadoop file system)")
    parser.add_argument("--output", required=True, help="the Parquet directory to write")
    parser.add_argument("--format", choices=["files", "parquet", "jsonl", "warc"], required=True)
    parser.add_argument("--column", default="content", help="the bytes column (parquet, jsonl)")
    parser.add_argument("--charset-column", default="charset", help="per-record labels (parquet, jsonl), used if the input has it")
    parser.add_argument("--encoding", help="one label for every record (overrides charsets; a BOM still wins)")
    parser.add_argument("--default-encoding", default="utf-8", help="for records without a usable label")
    parser.add_argument("--partitions", type=int, help="repartition the input into this many parts")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="decode_batch threads per Spark task (default 1: Spark already runs a task per core)",
    )
    parser.add_argument("--mode", default="overwrite", help="Spark's save mode for the output")
    args = parser.parse_args(argv)
    for label in (args.encoding, args.default_encoding):
        if label is not None and simdenc.lookup(label) is None:
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
