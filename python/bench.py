"""decode/encode against CPython's codecs on the corpus (data/corpus/wikipedia), in MB/s of
the encoded bytes, best of 7 rounds of timeit. Run with the wheel installed, from anywhere:
    python python/bench.py
Wall-clock figures: on a shared machine, compare the ratios of one run, not runs."""

import pathlib
import timeit

import simdenc

WIKI = pathlib.Path(__file__).resolve().parents[1] / "data" / "corpus" / "wikipedia"
# (text, label of the standard, CPython codec)
ROWS = [
    ("ja", "utf-8", "utf-8"), ("en", "utf-8", "utf-8"), ("ru", "utf-8", "utf-8"), ("fr", "utf-8", "utf-8"),
    ("ja", "shift_jis", "cp932"), ("ja", "euc-jp", "euc_jp"), ("zh_cn", "gb18030", "gb18030"),
    ("zh_cn", "gbk", "gbk"), ("ko", "euc-kr", "euc_kr"), ("zh_tw", "big5", "big5"),
    ("en", "windows-1252", "cp1252"), ("fr", "windows-1252", "cp1252"), ("ru", "windows-1251", "cp1251"),
    ("ru", "koi8-r", "koi8_r"), ("el", "iso-8859-7", "iso8859_7"), ("ar", "windows-1256", "cp1256"),
]


def best(fn, n=10):
    return min(timeit.repeat(fn, number=n, repeat=7)) / n


def main():
    for name, label, codec in ROWS:
        text = (WIKI / f"{name}.txt").read_text(encoding="utf-8") * 4
        data = text.encode(codec, "ignore")
        decoded = data.decode(codec, "replace")
        mb = len(data) / 1e6
        cd, sd = best(lambda: data.decode(codec)), best(lambda: simdenc.decode(data, label))
        ce, se = best(lambda: decoded.encode(codec)), best(lambda: simdenc.encode(decoded, label))
        print(
            f"{name:6} {label:13} {mb:.2f} MB | decode CPython {mb / cd:6.0f} MB/s simdenc {mb / sd:6.0f} MB/s "
            f"{cd / sd:5.2f}x | encode CPython {mb / ce:6.0f} simdenc {mb / se:6.0f} {ce / se:5.2f}x"
        )


if __name__ == "__main__":
    main()
