"""The Spark job (examples/spark/simdenc_corpus.py) in local[2] mode on fixtures made from the
corpus (make_fixtures.py): every input format, every record's text, encoding, source and
replacement count as expected."""

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyspark")
pytest.importorskip("warcio")
import pyarrow.parquet as pq  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

import make_fixtures  # noqa: E402
import simdenc_corpus  # noqa: E402


def java_ok():
    java = shutil.which("java")
    if java is None:
        return False
    out = subprocess.run([java, "-version"], capture_output=True, text=True)
    return out.returncode == 0


pytestmark = pytest.mark.skipif(not java_ok(), reason="the Spark job needs Java (17 or later) on PATH")


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    out = tmp_path_factory.mktemp("fixtures")
    expected = make_fixtures.make(out)
    return out, expected


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # The Python workers run the interpreter that runs the tests (with simdenc installed).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("simdenc-corpus-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    # The job's functions are pickled by reference to their module: the workers import it.
    session.sparkContext.addPyFile(str(HERE / "simdenc_corpus.py"))
    yield session
    session.stop()


def run(spark, tmp_path, *args):
    out = tmp_path / "out"
    stats = simdenc_corpus.main([*args, "--output", str(out)], spark=spark)
    table = pq.read_table(out)
    assert stats["records"] == table.num_rows
    assert table.schema.field("text").type in (pa.string(), pa.large_string())
    assert table.schema.field("replacements").type == pa.int64()
    return table.to_pylist()


def check(rows, expected, key):
    assert len(rows) == len(expected)
    for row in rows:
        want = expected[str(row[key])]
        got = {k: row[k] for k in ("text", "encoding", "source", "replacements")}
        assert got == want, row[key]


def test_parquet(spark, fixtures, tmp_path):
    out, expected = fixtures
    rows = run(spark, tmp_path, "--format", "parquet", "--input", str(out / "records.parquet"), "--partitions", "3")
    check(rows, expected["records"], "id")
    assert {r["charset"] for r in rows} >= {"x-unknown", None, "GB2312"}


def test_jsonl(spark, fixtures, tmp_path):
    out, expected = fixtures
    rows = run(spark, tmp_path, "--format", "jsonl", "--input", str(out / "records.jsonl"))
    check(rows, expected["records"], "id")


@pytest.mark.parametrize("encoding", ["shift_jis", "auto"])
def test_files(spark, fixtures, tmp_path, encoding):
    out, expected = fixtures
    rows = run(spark, tmp_path, "--format", "files", "--input", str(out / "files"), "--encoding", encoding)
    for row in rows:
        row["path"] = pathlib.Path(row["path"].replace("file:", "", 1)).resolve().as_uri()
    if encoding == "auto":
        check(rows, expected["files"]["auto"], "path")
        assert {r["source"] for r in rows} == {"guess", "bom"}
        assert {r["encoding"] for r in rows} == {"Shift_JIS", "UTF-8", "UTF-16BE"}
    else:
        check(rows, expected["files"]["label"], "path")
        assert {r["source"] for r in rows} == {"label", "bom"}


def test_warc(spark, fixtures, tmp_path):
    out, expected = fixtures
    rows = run(
        spark,
        tmp_path,
        "--format",
        "warc",
        "--input",
        str(out / "warc"),
        "--threads",
        "2",
    )
    check(rows, expected["warc"], "url")
    assert {r["source"] for r in rows} >= {"http", "meta", "guess"}
    assert all(r["warc_path"].endswith("crawl.warc.gz") for r in rows)


def test_fixture_expectations_are_not_vacuous(fixtures):
    _, expected = fixtures
    records = expected["records"].values()
    assert {r["source"] for r in records} >= {"http", "guess", "bom", None}
    assert {r["encoding"] for r in records} >= {"Shift_JIS", "EUC-KR", "GBK", "Big5", "ISO-2022-JP", "UTF-16LE"}
    assert len(expected["warc"]) >= 20
    # The rows without a usable label were guessed, and most guesses are right (the
    # detector's accuracy is measured elsewhere; here only that the guess ran).
    guessed = [r for r in records if r["source"] == "guess"]
    assert len(guessed) >= 8 and sum(r["replacements"] == 0 for r in guessed) >= len(guessed) * 3 // 4


def test_bad_arguments(tmp_path):
    with pytest.raises(SystemExit):
        simdenc_corpus.parse_args(["--format", "files", "--input", "x", "--output", "y", "--encoding", "nope"])
    with pytest.raises(SystemExit):
        simdenc_corpus.parse_args(["--format", "csv", "--input", "x", "--output", "y"])


def test_expected_json_round_trips(fixtures):
    out, expected = fixtures
    assert json.loads((out / "expected.json").read_text(encoding="utf-8")) == expected
