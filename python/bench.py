"""simdenc's Python package against CPython's codecs on the corpus (data/corpus/wikipedia), in
one run:

1. ``decode``/``encode`` against ``bytes.decode``/``str.encode``, per encoding, in MB/s of the
   encoded bytes;
2. ``decode_batch`` (a pyarrow binary array of ~1 KiB records to a string array) at 1 and 2
   threads, against a Python loop of ``bytes.decode`` building the same pyarrow array;
3. ``detect`` against charset-normalizer's ``from_bytes(...).best()`` and cchardet's
   ``detect`` (faust-cchardet), when they are installed (``pip install charset-normalizer
   faust-cchardet``), on 16 KiB of each text in its legacy encoding;
4. the Spark job (examples/spark/simdenc_corpus.py, Parquet in and out) in records per second
   at ``local[1]`` and ``local[2]`` (with pyspark and Java; ``--no-spark`` skips it).

Each figure is the median of several rounds (``--rounds``); on a shared machine compare the
ratios of one run, not runs. Run with the wheel installed, from anywhere:
    python python/bench.py [--rounds 7] [--no-spark] [--spark-records 200000]"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import timeit

import simdenc

ROOT = pathlib.Path(__file__).resolve().parents[1]
WIKI = ROOT / "data" / "corpus" / "wikipedia"
# (text, label of the standard, CPython codec)
ROWS = [
    ("ja", "utf-8", "utf-8"), ("en", "utf-8", "utf-8"), ("ru", "utf-8", "utf-8"), ("fr", "utf-8", "utf-8"),
    ("ja", "shift_jis", "cp932"), ("ja", "euc-jp", "euc_jp"), ("zh_cn", "gb18030", "gb18030"),
    ("zh_cn", "gbk", "gbk"), ("ko", "euc-kr", "euc_kr"), ("zh_tw", "big5", "big5"),
    ("en", "windows-1252", "cp1252"), ("fr", "windows-1252", "cp1252"), ("ru", "windows-1251", "cp1251"),
    ("ru", "koi8-r", "koi8_r"), ("el", "iso-8859-7", "iso8859_7"), ("ar", "windows-1256", "cp1256"),
]
BATCH_ROWS = [
    ("ja", "utf-8", "utf-8"), ("fr", "utf-8", "utf-8"), ("ja", "shift_jis", "cp932"), ("ko", "euc-kr", "euc_kr"),
    ("zh_cn", "gbk", "gbk"), ("zh_tw", "big5", "big5"), ("ru", "windows-1251", "cp1251"),
    ("fr", "windows-1252", "cp1252"),
]


def median_time(fn, rounds, number):
    return statistics.median(timeit.repeat(fn, number=number, repeat=rounds)) / number


def interleaved(fns, rounds, numbers=None):
    """The median time of a call of each of `fns`, timed in interleaved rounds (each function
    once a round, `numbers[i]` calls at a time), so that a slow spell of the machine weighs on
    every side of a ratio."""
    numbers = numbers or [1] * len(fns)
    samples = [[] for _ in fns]
    for _ in range(rounds):
        for fn, number, out in zip(fns, numbers, samples):
            out.append(timeit.timeit(fn, number=number) / number)
    return [statistics.median(times) for times in samples]


def corpus(name, codec, copies=4):
    text = (WIKI / f"{name}.txt").read_text(encoding="utf-8") * copies
    data = text.encode(codec, "ignore")
    return data, data.decode(codec, "replace")


def bench_one_shot(rounds):
    print("## decode / encode against CPython's codecs (MB/s of encoded bytes, median)\n")
    print("| text | encoding | MB | CPython decode | simdenc decode | ratio | CPython encode | simdenc encode | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, label, codec in ROWS:
        data, decoded = corpus(name, codec)
        mb = len(data) / 1e6
        cd, sd, ce, se = interleaved(
            [
                lambda: data.decode(codec),
                lambda: simdenc.decode(data, label),
                lambda: decoded.encode(codec),
                lambda: simdenc.encode(decoded, label),
            ],
            rounds,
            [10] * 4,
        )
        print(
            f"| {name} | {label} | {mb:.2f} | {mb / cd:.0f} | {mb / sd:.0f} | {cd / sd:.2f}x "
            f"| {mb / ce:.0f} | {mb / se:.0f} | {ce / se:.2f}x |"
        )
    print()


def records(data, size=1024):
    """`data` cut into records of about `size` bytes (at any byte: some records begin or end
    inside a character, as cut fields of real data do)."""
    return [data[i : i + size] for i in range(0, len(data), size)]


def bench_batch(rounds):
    import pyarrow as pa

    print("## decode_batch: ~1 KiB records to a pyarrow string array (MB/s of input, median)\n")
    print("CPython: `pa.array([r.decode(codec, 'replace') for r in rows], pa.string())`.\n")
    print("| text | encoding | records | MB | CPython | decode_batch 1 thread | 2 threads | 2 / 1 threads | 1 thread / CPython | 2 threads / CPython |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, label, codec in BATCH_ROWS:
        data, _ = corpus(name, codec, copies=64)
        rows = records(data)
        array = pa.array(rows, pa.binary())
        mb = len(data) / 1e6
        fns = [
            lambda: pa.array([r.decode(codec, "replace") for r in rows], pa.string()),
            lambda: simdenc.decode_batch(array, label, threads=1),
            lambda: simdenc.decode_batch(array, label, threads=2),
        ]
        for fn in fns:
            fn()
        cp, t1, t2 = interleaved(fns, rounds)
        print(
            f"| {name} | {label} | {len(rows)} | {mb:.1f} | {mb / cp:.0f} | {mb / t1:.0f} | {mb / t2:.0f} "
            f"| {t1 / t2:.2f}x | {cp / t1:.2f}x | {cp / t2:.2f}x |"
        )
    print()


def bench_detect(rounds):
    peers = {}
    try:
        import charset_normalizer

        peers["charset-normalizer"] = lambda d: getattr(charset_normalizer.from_bytes(d).best(), "encoding", None)
    except ImportError:
        pass
    try:
        import cchardet

        peers["cchardet"] = lambda d: cchardet.detect(d)["encoding"]
    except ImportError:
        pass
    names = list(peers)
    print("## detect against other detectors (MB/s of input, median; what each answered)\n")
    print("| text | encoding | KiB | simdenc detect | " + " | ".join(names) + " | " + " | ".join(f"detect / {n}" for n in names) + " |")
    print("|---" * (4 + 2 * len(names)) + "|")
    for name, label, codec in BATCH_ROWS + [("ru", "koi8-r", "koi8_r"), ("el", "iso-8859-7", "iso8859_7")]:
        data = corpus(name, codec, copies=4)[0][: 16 * 1024]
        mb = len(data) / 1e6
        answer = simdenc.detect(data).encoding
        # Ours, then each peer, every round; each sample at least ~10 ms.
        fns = [lambda: simdenc.detect(data)] + [lambda fn=peers[p]: fn(data) for p in names]
        numbers = [max(1, int(0.01 / max(1e-9, median_time(fn, 3, 1)))) for fn in fns]
        ours, *theirs = interleaved(fns, rounds, numbers)
        cells, ratios = [], []
        for peer, t in zip(names, theirs):
            cells.append(f"{mb / t:.1f} ({peers[peer](data)})")
            ratios.append(f"{t / ours:.1f}x")
        print(f"| {name} | {label} | {len(data) // 1024} | {mb / ours:.0f} ({answer}) | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
    print()


def spark_fixture(path, n):
    """A Parquet file of `n` records (~1 KiB each, the corpus in several encodings) with a
    charset column."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pool = []
    for name, label, codec in BATCH_ROWS:
        data, _ = corpus(name, codec, copies=1)
        pool += [(r, label) for r in records(data)]
    content = [pool[i % len(pool)][0] for i in range(n)]
    charset = [pool[i % len(pool)][1] for i in range(n)]
    table = pa.table({"id": pa.array(range(n), pa.int64()), "charset": charset, "content": pa.array(content, pa.binary())})
    pq.write_table(table, path, row_group_size=max(1, n // 8))
    return sum(len(c) for c in content)


def spark_driver(source, out, rounds):
    """Run inside spark-submit: one warm-up pass of each kind, then `rounds` conversions by the
    job and `rounds` copies of the same Parquet through an identity mapInArrow (what Spark
    itself costs); prints the median times as a line of JSON."""
    import json
    import time

    from pyspark.sql import SparkSession

    job = ROOT / "examples" / "spark" / "simdenc_corpus.py"
    spark = SparkSession.builder.appName("simdenc-bench").getOrCreate()
    spark.sparkContext.addPyFile(str(job))
    sys.path.insert(0, str(job.parent))
    import simdenc_corpus

    parts = str(spark.sparkContext.defaultParallelism)
    args = ["--format", "parquet", "--input", source, "--output", out, "--partitions", parts]

    def convert():
        return simdenc_corpus.main(args, spark=spark)["seconds"]

    def identity():
        t = time.perf_counter()
        df = spark.read.parquet(source).repartition(int(parts))
        df.mapInArrow(lambda batches: batches, df.schema).write.mode("overwrite").parquet(out + "-identity")
        return time.perf_counter() - t

    convert(), identity()
    times = {"job": statistics.median(convert() for _ in range(rounds))}
    times["identity"] = statistics.median(identity() for _ in range(rounds))
    records = spark.read.parquet(out).count()
    print("BENCH " + json.dumps(dict(times, records=records)), flush=True)
    spark.stop()


def bench_spark(rounds, n):
    import json

    try:
        import pyspark  # noqa: F401
    except ImportError:
        print("## Spark job: skipped (no pyspark)\n")
        return
    submit = shutil.which("spark-submit", path=str(pathlib.Path(sys.executable).parent)) or shutil.which("spark-submit")
    if submit is None or shutil.which("java") is None:
        print("## Spark job: skipped (no spark-submit or java)\n")
        return
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    with tempfile.TemporaryDirectory() as tmp:
        source = pathlib.Path(tmp) / "in.parquet"
        size = spark_fixture(source, n)
        print(
            f"## Spark job: Parquet of {n} records ({size / 1e6:.0f} MB) to UTF-8 Parquet "
            f"(median of {rounds} after a warm-up)\n"
        )
        print("The conversion's time (read, mapInArrow -> decode_batch, write), not Spark's start;")
        print("\"identity\": the same read, repartition and write through a mapInArrow that decodes nothing.\n")
        print("| master | records/s | MB/s | identity mapInArrow records/s |")
        print("|---|---|---|---|")
        for master in ("local[1]", "local[2]"):
            cmd = [
                submit, "--master", master, "--conf", "spark.ui.enabled=false", "--driver-memory", "2g",
                str(pathlib.Path(__file__).resolve()), "--spark-driver", str(source), str(pathlib.Path(tmp) / "out"),
                "--spark-rounds", str(rounds),
            ]
            out = subprocess.run(cmd, env=env, capture_output=True, text=True)
            found = re.search(r"^BENCH (.*)$", out.stdout, re.M)
            if out.returncode != 0 or not found:
                errors = [line for line in out.stderr.splitlines() if "Error" in line or "Exception" in line]
                print(f"| {master} | failed (exit {out.returncode}): {' / '.join(errors[:5])} | | |")
                continue
            result = json.loads(found.group(1))
            rate = result["records"] / result["job"]
            print(
                f"| {master} | {rate:.0f} | {size / result['job'] / 1e6:.1f} "
                f"| {result['records'] / result['identity']:.0f} |"
            )
        print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-spark", action="store_true")
    parser.add_argument("--spark-rounds", type=int, default=3)
    parser.add_argument("--spark-records", type=int, default=200_000)
    parser.add_argument("--spark-driver", nargs=2, metavar=("SOURCE", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spark_driver:
        spark_driver(*args.spark_driver, args.spark_rounds)
        return
    print(f"simdenc {simdenc.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n")
    bench_one_shot(args.rounds)
    bench_batch(args.rounds)
    bench_detect(args.rounds)
    if not args.no_spark:
        bench_spark(args.spark_rounds, args.spark_records)


if __name__ == "__main__":
    main()
