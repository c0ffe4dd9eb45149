#!/usr/bin/env python3
"""Accuracy and speed of simdenc::detect against chardetng, uchardet, chardet and
charset-normalizer, in one run, on a labelled set built here (README.md in this folder).

  bash eval/detect/run.sh        # sets up the venv and the Rust runner, then runs this

Writes docs/detect.md (the report) and target/detect-eval/ (the samples, answers).
"""
import collections
import ctypes
import os
import random
import re
import subprocess
import sys
import time
import unicodedata

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus"))
if not os.path.isdir(CORPUS):
    CORPUS = "/work/shared/corpus"
OUT = os.environ.get("DETECT_EVAL_DIR", os.path.join(ROOT, "target", "detect-eval"))
RUNNER = os.environ["DETECT_EVAL_RUNNER"]

# The corpus README's natural pairings; every text also in UTF-8 and UTF-16LE/BE (no BOM).
WIKI = {
    "en": ["windows-1252"], "de": ["windows-1252"], "fr": ["windows-1252"],
    "pt": ["windows-1252"], "cs": ["windows-1250"],
    "ru": ["windows-1251", "KOI8-R", "IBM866"], "el": ["windows-1253"],
    "tr": ["windows-1254"], "he": ["windows-1255"], "ar": ["windows-1256"],
    "vi": ["windows-1258"], "th": ["windows-874"],
    "ja": ["Shift_JIS", "EUC-JP", "ISO-2022-JP"], "zh_cn": ["gb18030", "GBK"],
    "zh_tw": ["Big5"], "ko": ["EUC-KR"],
}
LIPSUM = {
    "Arabic": ["windows-1256"], "Hebrew": ["windows-1255"], "Japanese": ["Shift_JIS", "EUC-JP"],
    "Korean": ["EUC-KR"], "Russian": ["windows-1251", "KOI8-R"], "Hindi": [], "Emoji": [],
}
PYCODEC = {
    "windows-1250": "cp1250", "windows-1251": "cp1251", "windows-1252": "cp1252",
    "windows-1253": "cp1253", "windows-1254": "cp1254", "windows-1255": "cp1255",
    "windows-1256": "cp1256", "windows-1258": "cp1258", "windows-874": "cp874",
    "KOI8-R": "koi8_r", "IBM866": "cp866", "Shift_JIS": "cp932", "EUC-JP": "euc_jp",
    "ISO-2022-JP": "iso2022_jp", "gb18030": "gb18030", "GBK": "gbk", "Big5": "big5",
    "EUC-KR": "cp949", "UTF-8": "utf-8", "UTF-16LE": "utf-16-le", "UTF-16BE": "utf-16-be",
}
BUCKETS = [64, 256, 1024]
WINDOWS = 8  # samples per text, encoding and bucket
DETECTORS = ["simdenc", "chardetng", "uchardet", "chardet", "charset-normalizer"]


def vi_1258(text):
    out = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch) and ch not in "\u0300\u0301\u0303\u0309\u0323" and out:
            out[-1] = unicodedata.normalize("NFC", out[-1] + ch)
        else:
            out.append(ch)
    return "".join(out)


def encode(text, enc, html):
    if enc == "windows-1258":
        text = vi_1258(text)
    return text.encode(PYCODEC[enc], "xmlcharrefreplace" if html else "ignore")


def encode_prefix(text, enc, html, limit):
    """The longest run of whole characters of `text`, encoded, that fits in `limit` bytes."""
    if enc == "ISO-2022-JP":
        return encode(text, enc, html)[:limit]
    if enc == "windows-1258":
        text = vi_1258(text)
    out = bytearray()
    for ch in text:
        b = ch.encode(PYCODEC[enc], "xmlcharrefreplace" if html else "ignore")
        if len(out) + len(b) > limit:
            break
        out += b
    return bytes(out)


def sources():
    for lang, encs in WIKI.items():
        for kind in ("txt", "html"):
            with open(os.path.join(CORPUS, "wikipedia", "%s.%s" % (lang, kind)), encoding="utf-8") as f:
                text = f.read()
            if kind == "html":
                # The detector's input is what is left when no declaration was found.
                text = re.sub(r"<meta[^>]*charset[^>]*>", "", text, flags=re.I)
            yield "wiki-%s" % lang, kind, text, encs
    for name, encs in LIPSUM.items():
        with open(os.path.join(CORPUS, "lipsum", "%s-Lipsum.txt" % name), encoding="utf-8") as f:
            yield "lipsum-%s" % name, "txt", f.read(), encs


def build():
    rng = random.Random(20)
    samples = []  # (path, truth, kind, bucket)
    os.makedirs(os.path.join(OUT, "set"), exist_ok=True)
    skipped = 0
    for name, kind, text, encs in sources():
        starts = [m.start() for m in re.finditer(r"\n" if kind == "txt" else r"<p[ >]", text)]
        for enc in encs + ["UTF-8", "UTF-16LE", "UTF-16BE"]:
            whole = encode(text, enc, kind == "html")
            cands = [(b, s) for b in BUCKETS for s in sorted(rng.sample(starts, min(WINDOWS, len(starts))))]
            cands.append(("whole", None))
            for bucket, s in cands:
                if bucket == "whole":
                    data = whole
                else:
                    piece = text[s + 1 if kind == "txt" else s:][: bucket * 2]
                    data = encode_prefix(piece, enc, kind == "html", bucket)
                    if len(data) < bucket - 4:
                        continue
                if not enc.startswith("UTF-16") and max(data) < 0x80 and (enc != "ISO-2022-JP" or b"\x1b" not in data):
                    skipped += 1
                    continue
                path = os.path.join(OUT, "set", "%s.%s.%s.%s.%d" % (name, kind, enc, bucket, len(samples)))
                with open(path, "wb") as f:
                    f.write(data)
                samples.append((path, enc, kind, str(bucket)))
    return samples, skipped


def uchardet_lib():
    lib = ctypes.CDLL("libuchardet.so.0")
    lib.uchardet_new.restype = ctypes.c_void_p
    lib.uchardet_handle_data.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.uchardet_data_end.argtypes = [ctypes.c_void_p]
    lib.uchardet_reset.argtypes = [ctypes.c_void_p]
    lib.uchardet_get_charset.argtypes = [ctypes.c_void_p]
    lib.uchardet_get_charset.restype = ctypes.c_char_p
    handle = lib.uchardet_new()

    def detect(data):
        lib.uchardet_reset(handle)
        lib.uchardet_handle_data(handle, data, len(data))
        lib.uchardet_data_end(handle)
        return lib.uchardet_get_charset(handle).decode()
    return detect


def python_detectors():
    import chardet
    import charset_normalizer

    def cn(data):
        best = charset_normalizer.from_bytes(data).best()
        return best.encoding if best else "none"
    return {
        "uchardet": uchardet_lib(),
        "chardet": lambda data: chardet.detect(data)["encoding"] or "none",
        "charset-normalizer": cn,
    }


def main():
    samples, skipped = build()
    manifest = os.path.join(OUT, "manifest.tsv")
    with open(manifest, "w") as f:
        for path, enc, kind, bucket in samples:
            f.write("%s\t%s\t%s\n" % (path, "html" if kind == "html" else "text", bucket))
    truth = {s[0]: s for s in samples}
    answers = []
    speed = collections.defaultdict(lambda: [0, 0.0])  # (detector, bucket) -> [bytes, s]
    out = subprocess.run([RUNNER, "detect", manifest], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "#speed":
            speed[(f[1], f[2])] = [int(f[4]), float(f[5])] if False else [int(f[3]), float(f[4])]
        else:
            answers.append((f[0], f[1], f[2]))
    by_bucket = collections.defaultdict(list)
    for s in samples:
        with open(s[0], "rb") as f:
            by_bucket[s[3]].append((s[0], f.read()))
    for name, det in python_detectors().items():
        for bucket, items in by_bucket.items():
            t = time.perf_counter()
            for path, data in items:
                answers.append((path, name, str(det(data))))
            speed[(name, bucket)] = [sum(len(d) for _, d in items), time.perf_counter() - t]
            print(name, bucket, "done", file=sys.stderr)
    ans_path = os.path.join(OUT, "answers.tsv")
    with open(ans_path, "w") as f:
        for path, det, a in answers:
            f.write("%s\t%s\t%s\t%s\n" % (path, truth[path][1], det, a))
    scored = subprocess.run([RUNNER, "score", ans_path], check=True, capture_output=True, text=True).stdout
    results = []
    for line in scored.splitlines():
        path, t, det, a, ok = line.split("\t")
        results.append((truth[path], det, a, ok == "1"))
    with open(os.path.join(OUT, "results.tsv"), "w") as f:
        for (path, enc, kind, bucket), det, a, ok in results:
            f.write("%s\t%s\t%s\t%s\t%s\t%s\t%d\n" % (os.path.basename(path), enc, kind, bucket, det, a, ok))
    report(samples, skipped, results, speed)


def pct(c):
    return "%.1f" % (100.0 * c[0] / c[1]) if c[1] else "-"


def report(samples, skipped, results, speed):
    acc = collections.defaultdict(lambda: [0, 0])
    for (path, enc, kind, bucket), det, a, ok in results:
        keys = [("all",)] if enc.startswith("UTF-16") else [("all",), ("no16",), ("b16", bucket)]
        for key in keys[1:] + [("all",), ("bucket", bucket), ("enc", enc), ("kind", kind), ("bk", bucket, kind)]:
            c = acc[(det,) + key]
            c[0] += ok
            c[1] += 1
    L = []
    L.append("# Encoding detection: simdenc::detect against the open detectors\n")
    L.append("Generated by `bash eval/detect/run.sh` (eval/detect/README.md: the set, the rule for "
             "\"correct\", how speed is measured). %d samples (%d pure-ASCII windows left out: every "
             "ASCII-compatible answer decodes them alike). Peers: chardetng 1.0.0 (Rust, as Firefox "
             "calls it: whole input, no TLD, UTF-8 allowed), uchardet %s (libuchardet through ctypes), "
             "chardet %s, charset-normalizer %s. CPU: %s.\n"
             % (len(samples), skipped, uchardet_version(), mod_version("chardet"),
                mod_version("charset_normalizer"), cpu()))
    L.append("\n## Accuracy (%)\n")
    L.append("| | " + " | ".join(DETECTORS) + " |\n|---|" + "---:|" * len(DETECTORS) + "\n")
    L.append("| **all** (%d) | " % acc[("simdenc", "all")][1] + " | ".join(pct(acc[(d, "all")]) for d in DETECTORS) + " |\n")
    L.append("| **all but UTF-16** (%d) | " % acc[("simdenc", "no16")][1] + " | ".join(pct(acc[(d, "no16")]) for d in DETECTORS) + " |\n")
    buckets = [str(b) for b in BUCKETS] + ["whole"]
    for b in buckets:
        for kind in ("txt", "html"):
            n = acc[("simdenc", "bk", b, kind)][1]
            L.append("| %s B %s (%d) | " % (b, kind, n) + " | ".join(pct(acc[(d, "bk", b, kind)]) for d in DETECTORS) + " |\n")
    for b in buckets:
        L.append("| bucket %s (%d) | " % (b, acc[("simdenc", "bucket", b)][1]) + " | ".join(pct(acc[(d, "bucket", b)]) for d in DETECTORS) + " |\n")
    for b in buckets:
        L.append("| bucket %s but UTF-16 (%d) | " % (b, acc[("simdenc", "b16", b)][1]) + " | ".join(pct(acc[(d, "b16", b)]) for d in DETECTORS) + " |\n")
    L.append("\n## Accuracy per encoding (%)\n")
    L.append("| truth (samples) | " + " | ".join(DETECTORS) + " |\n|---|" + "---:|" * len(DETECTORS) + "\n")
    encs = sorted({s[1] for s in samples})
    for e in encs:
        L.append("| %s (%d) | " % (e, acc[("simdenc", "enc", e)][1]) + " | ".join(pct(acc[(d, "enc", e)]) for d in DETECTORS) + " |\n")
    L.append("\n## Speed (MB/s of input)\n")
    L.append("simdenc and chardetng: best of 5 passes over the bucket's samples in one process "
             "(Rust, release); uchardet, chardet, charset-normalizer: one pass from Python (uchardet's "
             "figure includes the ctypes call, about a microsecond per sample). The machine is shared: "
             "figures are noisy.\n\n")
    L.append("| bucket | " + " | ".join(DETECTORS) + " |\n|---|" + "---:|" * len(DETECTORS) + "\n")
    for b in buckets:
        row = []
        for d in DETECTORS:
            n, s = speed.get((d, b), (0, 0.0))
            row.append("%.1f" % (n / s / 1e6) if s else "-")
        L.append("| %s | " % b + " | ".join(row) + " |\n")
    L.append("\n## simdenc's misses\n\n")
    misses = collections.Counter((enc, a) for (p, enc, kind, bucket), det, a, ok in results if det == "simdenc" and not ok)
    L.append(", ".join("%s → %s: %d" % (e, a, n) for (e, a), n in misses.most_common(30)) or "none")
    L.append("\n")
    with open(os.path.join(ROOT, "docs", "detect.md"), "w") as f:
        f.write("".join(L))
    print("".join(L))


def mod_version(m):
    try:
        return __import__(m).__version__
    except Exception:
        return "?"


def uchardet_version():
    try:
        return subprocess.run(["uchardet", "--version"], capture_output=True, text=True).stdout.split()[1]
    except Exception:
        return "?"


def cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


if __name__ == "__main__":
    main()
