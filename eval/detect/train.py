#!/usr/bin/env python3
"""Training data and models for `simdenc::detect` (src/detect/).

Two steps, both deterministic:

  extract   (needs the PyPI package `wordfreq`, data CC BY-SA 4.0): reads wordfreq's
            "small" word lists and writes tables/detect/<lang>.txt, per language the
            counts the models are built from (character bigrams of space-padded words;
            for zh/ja/ko character unigrams). Run it from a venv:
              python -m venv /tmp/v && /tmp/v/bin/pip install wordfreq==3.1.1
              /tmp/v/bin/python eval/detect/train.py extract
  generate  (Python standard library only): reads tables/detect/*.txt and the standard's
            indexes in tables/whatwg/ and writes src/detect/model.rs. `cargo test`
            (tests/detect.rs, `model_is_fresh`) runs `generate --check`.

What the models are is documented in src/detect/mod.rs ("Models").
"""
import math
import os
import sys
import unicodedata

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DATA = os.path.join(ROOT, "tables", "detect")
WHATWG = os.path.join(ROOT, "tables", "whatwg")
OUT = os.path.join(ROOT, "src", "detect", "model.rs")

# Languages with letters outside ASCII, by the legacy encodings that serve them. Order is the
# models' order; `prior` (in model units, see SCALE) is subtracted from rarer encodings so that
# ties go to the common one.
SB_LANGS = {
    "en": ["windows-1252", "macintosh"],
    "de": ["windows-1252", "macintosh"],
    "fr": ["windows-1252", "macintosh", "ISO-8859-15"],
    "es": ["windows-1252", "macintosh"],
    "it": ["windows-1252", "macintosh"],
    "pt": ["windows-1252", "macintosh"],
    "nl": ["windows-1252", "macintosh"],
    "ca": ["windows-1252"],
    "sv": ["windows-1252", "macintosh"],
    "da": ["windows-1252"],
    "nb": ["windows-1252"],
    "fi": ["windows-1252", "ISO-8859-15"],
    "is": ["windows-1252"],
    "id": ["windows-1252"],
    "cs": ["windows-1250", "ISO-8859-2"],
    "sk": ["windows-1250", "ISO-8859-2"],
    "pl": ["windows-1250", "ISO-8859-2"],
    "hu": ["windows-1250", "ISO-8859-2"],
    "sl": ["windows-1250", "ISO-8859-2"],
    "sh": ["windows-1250", "ISO-8859-2"],
    "ro": ["windows-1250", "ISO-8859-2", "ISO-8859-16"],
    "ru": ["windows-1251", "KOI8-R", "IBM866", "ISO-8859-5", "x-mac-cyrillic"],
    "uk": ["windows-1251", "KOI8-U", "x-mac-cyrillic"],
    "bg": ["windows-1251", "IBM866", "ISO-8859-5", "x-mac-cyrillic"],
    "mk": ["windows-1251", "ISO-8859-5"],
    "el": ["windows-1253", "ISO-8859-7"],
    "tr": ["windows-1254"],
    "he": ["windows-1255", "ISO-8859-8"],
    "ar": ["windows-1256", "ISO-8859-6"],
    "fa": ["windows-1256"],
    "ur": ["windows-1256"],
    "lt": ["windows-1257", "ISO-8859-13", "ISO-8859-4"],
    "lv": ["windows-1257", "ISO-8859-13", "ISO-8859-4"],
    "vi": ["windows-1258"],
    "th": ["windows-874"],
}
PRIOR = {
    "windows-1252": 0, "windows-1250": 0, "windows-1251": 0, "windows-1253": 0,
    "windows-1254": 0, "windows-1255": 0, "windows-1256": 0, "windows-1257": 4,
    "windows-1258": 4, "windows-874": 0, "KOI8-R": 8, "KOI8-U": 12, "IBM866": 8,
    "ISO-8859-2": 4, "ISO-8859-4": 16, "ISO-8859-5": 12, "ISO-8859-6": 8, "ISO-8859-7": 4,
    "ISO-8859-8": 4, "ISO-8859-13": 8, "ISO-8859-15": 12, "ISO-8859-16": 16,
    "macintosh": 40, "x-mac-cyrillic": 40,
}
# Thai: wordfreq has no Thai list; windows-874's model is uniform over the Thai letters.
CJK_LANGS = ["zh", "ja", "ko"]
TOP_WORDS = 60000
TOP_CJK_CHARS = 4000


def vi_1258(word):
    """Vietnamese as windows-1258 writes it: precomposed base letters (with circumflex, breve
    or horn), tone marks as combining characters."""
    out = []
    for ch in unicodedata.normalize("NFD", word):
        if unicodedata.combining(ch) and ch not in "\u0300\u0301\u0303\u0309\u0323" and out:
            out[-1] = unicodedata.normalize("NFC", out[-1] + ch)
        else:
            out.append(ch)
    return "".join(out)


def extract():
    import wordfreq  # noqa: only this step needs it

    os.makedirs(DATA, exist_ok=True)
    for lang in [l for l in SB_LANGS if l != "th"]:
        freqs = wordfreq.get_frequency_dict(lang, wordlist="small")
        top = sorted(freqs.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_WORDS]
        big = {}
        for word, f in top:
            w = word.lower()
            if lang == "vi":
                w = vi_1258(w)
            s = " " + "".join(c if ord(c) >= 0x80 or c.isalpha() else " " for c in w) + " "
            for a, b in zip(s, s[1:]):
                if (ord(a) < 0x80 and a != " " and not a.isalpha()) or (ord(b) < 0x80 and b != " " and not b.isalpha()):
                    continue
                big[(a, b)] = big.get((a, b), 0.0) + f
        with open(os.path.join(DATA, lang + ".txt"), "w", encoding="utf-8", newline="\n") as out:
            out.write("# bigrams of space-padded lowercased words from wordfreq 3.1.1 'small' %s"
                      " (top %d words, weighted by frequency, x 1e9); ' ' = word"
                      " boundary. CC BY-SA 4.0, see LICENSE.\n" % (lang, TOP_WORDS))
            for (a, b), f in sorted(big.items()):
                n = round(f * 1e9)
                if n > 0:
                    out.write("%04X %04X %d\n" % (ord(a), ord(b), n))
    for lang in CJK_LANGS:
        freqs = wordfreq.get_frequency_dict(lang, wordlist="small")
        uni = {}
        for word, f in freqs.items():
            for c in word:
                if ord(c) >= 0x80:
                    uni[c] = uni.get(c, 0.0) + f
        top = sorted(uni.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_CJK_CHARS]
        with open(os.path.join(DATA, lang + ".txt"), "w", encoding="utf-8", newline="\n") as out:
            out.write("# characters of wordfreq 3.1.1 'small' %s (top %d non-ASCII, weighted by"
                      " word frequency, x 1e9). CC BY-SA 4.0, see LICENSE.\n" % (lang, TOP_CJK_CHARS))
            for c, f in top:
                out.write("%04X %d\n" % (ord(c), round(f * 1e9)))
    # Traditional Chinese: wordfreq folds it into simplified; keep its mapping for the
    # characters that map to one of the top simplified ones.
    import gzip, msgpack
    path = os.path.join(os.path.dirname(wordfreq.__file__), "data", "_chinese_mapping.msgpack.gz")
    mapping = msgpack.load(gzip.open(path), raw=False, strict_map_key=False)
    keep = {c for c, _ in top} if False else None
    zh = read_unigrams("zh")
    with open(os.path.join(DATA, "zh-hant.txt"), "w", encoding="utf-8", newline="\n") as out:
        out.write("# traditional -> simplified, from wordfreq 3.1.1's _chinese_mapping, for the"
                  " simplified characters of zh.txt. CC BY-SA 4.0, see LICENSE.\n")
        for t in sorted(mapping):
            s = mapping[t]
            if isinstance(s, int):
                s = chr(s)
            if len(s) == 1 and s in zh and chr(t) != s:
                out.write("%04X %04X\n" % (t, ord(s)))


def read_lines(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return [l.split() for l in f if not l.startswith("#") and l.strip()]


def read_unigrams(lang):
    return {chr(int(c, 16)): int(n) for c, n in read_lines(lang + ".txt")}


def index(name):
    """pointer -> code point of one of the standard's indexes."""
    table = {}
    with open(os.path.join(WHATWG, "index-%s.txt" % name), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            p, cp = line.split()[:2]
            table[int(p)] = int(cp, 16)
    return table


def single_byte_decoder(enc):
    idx = index(enc.lower())
    return {0x80 + p: chr(cp) for p, cp in idx.items()}


def is_letter(c):
    return unicodedata.category(c)[0] in "LM"


SCALE = 4.0  # model units per natural-log unit (i.e. a unit is a quarter of a nat)
BAD = 60  # cost of a control character or unmapped byte (15 nats)


def q(logp, lo=0, hi=255):
    return max(lo, min(hi, round(-logp * SCALE)))


# Classes per language: 5 fixed and at most this many letters (Thai has 87).
MAX_LETTERS = 91


def lang_model(lang):
    """(letters, cond) for a single-byte language: `letters` the non-ASCII letters in class
    order (classes 4..), `cond[a][b]` -log P(b | a) in model units over classes."""
    if lang == "th":
        # Uniform over the Thai letters and marks; Thai words do not touch Latin letters.
        letters = [chr(c) for c in range(0x0E01, 0x0E5C) if unicodedata.category(chr(c)) != "Cn"]
        latin = [chr(c) for c in range(ord("a"), ord("z") + 1)]
        counts = {}
        for a in letters + [" "]:
            for b in letters + [" "]:
                counts[(a, b)] = 1.0
        for a in latin:
            for b in latin + [" "]:
                counts[(a, b)] = 1.0
            counts[(" ", a)] = 1.0
    else:
        counts = {}
        for a, b, n in read_lines(lang + ".txt"):
            counts[(chr(int(a, 16)), chr(int(b, 16)))] = float(n)
    if lang == "he":
        # Pointed text (niqqud): wordfreq's words are unpointed. Let a point follow any
        # letter a fifth of the time, the letter's followers then following the point.
        points = [chr(c) for c in range(0x05B0, 0x05C3) if unicodedata.category(chr(c)) == "Mn"]
        extra = {}
        for (a, b), n in counts.items():
            if "\u05d0" <= a <= "\u05ea":
                for p in points:
                    extra[(a, p)] = extra.get((a, p), 0.0) + n * 0.2 / len(points)
                    extra[(p, b)] = extra.get((p, b), 0.0) + n * 0.2 / len(points)
        for k, v in extra.items():
            counts[k] = counts.get(k, 0.0) + v
    uni = {}
    for (a, b), n in counts.items():
        uni[b] = uni.get(b, 0.0) + n
    total = sum(v for k, v in uni.items() if ord(k) >= 0x80)
    # Letters that are at least 1/20000 of the non-ASCII letters; the rest share the class
    # "rare letter".
    letters = sorted((c for c, v in uni.items() if ord(c) >= 0x80 and is_letter(c) and v >= total / 20000),
                     key=lambda c: (-uni[c], c))[:MAX_LETTERS if lang == "th" else 60]
    return letters, counts


# Classes: 0 ASCII non-letter (space, digits, punctuation), 1..=26 ASCII letters (case folded),
# 27 common non-ASCII punctuation (COMMON_PUNCT), 28 rare or foreign letter, 29 any other
# non-ASCII symbol (box drawing, mathematical signs, ...: rare in text), 30.. the language's
# letters; controls and unmapped bytes are not a class (scored as BAD by the detector).
PUNCT, RARE_LETTER, SYMBOL, N_FIXED = 27, 28, 29, 30
COMMON_PUNCT = set(
    "\u00a0\u00ab\u00bb\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2026\u00b7\u00b0"
    "\u00a7\u20ac\u00a9\u00ae\u2122\u00d7\u00b1\u2116\u2022\u00bf\u00a1\u00a3\u00ba\u00aa"
    "\u00b2\u00b3\u00bd\u00b4\u200e\u200f\u060c\u061b\u061f\u066a\u066b\u066c\u05be\u05f3"
    "\u05f4\u0387\u0384\u0385\u0e2f\u0e3f\u0e4f\u0e5a\u0e5b")


def class_of(c, letters):
    if ord(c) < 0x80:
        return 1 + ord(c.lower()) - ord("a") if c.isalpha() else 0
    lc = c.lower()
    if lc in letters:
        return N_FIXED + letters.index(lc)
    # wordfreq's lists are case folded (ß → ss, ς → σ): fold as they did.
    folded = c.casefold()
    if folded != lc and folded[0] != c:
        return class_of(folded[0], letters)
    if is_letter(c):
        return RARE_LETTER
    if c in COMMON_PUNCT:
        return PUNCT
    return SYMBOL


def cond_table(letters, counts):
    n = N_FIXED + len(letters)
    m = [[0.0] * n for _ in range(n)]
    for (a, b), v in counts.items():
        ca = 0 if a == " " else class_of(a, letters)
        cb = 0 if b == " " else class_of(b, letters)
        m[ca][cb] += v
    # Non-ASCII symbols and rare letters: fixed shares of what follows and precedes.
    rows = []
    for a in range(n):
        tot = sum(m[a])
        if a in (PUNCT, SYMBOL):
            # After punctuation: mostly ASCII, then letters; another symbol is rare.
            row = [0.0] * n
            row[0], row[PUNCT], row[RARE_LETTER], row[SYMBOL] = 0.5, 0.01, 0.002, 0.0005
            for b in range(1, 27):
                row[b] = 0.2 / 26
            for b in range(N_FIXED, n):
                row[b] = 0.25 / max(1, n - N_FIXED)
            rows.append(row)
            continue
        if tot == 0:
            rows.append([1.0 / n] * n)
            continue
        row = [(m[a][b] + tot * 1e-5) / tot for b in range(n)]
        row[PUNCT] = max(row[PUNCT], 0.01)
        row[RARE_LETTER] = max(row[RARE_LETTER], 1e-4)
        row[SYMBOL] = 1e-4
        s = sum(row)
        rows.append([v / s for v in row])
    uni = [0.0] * n
    for (a, b), v in counts.items():
        if ord(b) >= 0x80:
            uni[class_of(b, letters)] += v
    tot = sum(uni) or 1.0
    uni = [v / tot for v in uni]
    uni[PUNCT] = max(uni[PUNCT], 0.02)
    uni[RARE_LETTER] = max(uni[RARE_LETTER], 1e-4)
    uni[SYMBOL] = 1e-4
    for c in range(N_FIXED, n):
        uni[c] = max(uni[c], 1e-5)
    s = sum(uni[PUNCT:])
    unigram = [0] * PUNCT + [q(math.log(v / s)) for v in uni[PUNCT:]]
    return [[q(math.log(v)) for v in row] for row in rows], unigram


def cjk_scores(lang, decode_pairs):
    """Per 2-byte code of an encoding whose characters `decode_pairs` lists
    ((code, char) ...), a score in model units for its character in `lang`."""
    uni = read_unigrams(lang)
    total = sum(uni.values())
    out = {}
    for code, ch in decode_pairs:
        v = uni.get(ch)
        if v is None:
            continue
        out[code] = q(math.log(v / total), 1, 254)
    return out, q(math.log(min(uni.values()) / total / 4), 1, 254)


def emit_u8s(name, values, doc):
    s = ["/// %s\npub(super) static %s: [u8; %d] = [\n" % (doc, name, len(values))]
    for i in range(0, len(values), 24):
        s.append("    " + ", ".join(str(v) for v in values[i:i + 24]) + ",\n")
    s.append("];\n")
    return "".join(s)


def generate():
    out = []
    out.append("// @generated by `python3 eval/detect/train.py generate` from tables/detect/ (wordfreq\n"
               "// data, CC BY-SA 4.0: tables/detect/LICENSE) and tables/whatwg/. Do not edit.\n")
    out.append("//! The detector's models (see `super`, \"Models\"). Scores are -log probabilities in\n"
               "//! units of 1/%d nat.\n\n" % int(SCALE))
    out.append("use super::{CjkModel, LangModel, SbModel};\n")
    out.append("\n")
    out.append("/// Model units per nat.\npub(super) const SCALE: u32 = %d;\n\n" % int(SCALE))
    langs = {}
    for lang in SB_LANGS:
        letters, counts = lang_model(lang)
        langs[lang] = letters
        table, unigram = cond_table(letters, counts)
        n = len(table)
        flat = [v for row in table for v in row]
        out.append(emit_u8s("BIGRAM_%s" % lang.upper(), flat,
                            "`%s`: -log P(class b | class a) at `[a * %d + b]`." % (lang, n)))
        out.append(emit_u8s("UNIGRAM_%s" % lang.upper(), unigram,
                            "`%s`: -log P(class | not ASCII)." % lang))
        out.append(('pub(super) static LANG_%s: LangModel = LangModel { name: "%s", classes: %d, '
                    'bigram: &BIGRAM_%s, unigram: &UNIGRAM_%s };\n\n')
                   % (lang.upper(), lang, n, lang.upper(), lang.upper()))
    sb = []
    for lang, encs in SB_LANGS.items():
        letters = langs[lang]
        for enc in encs:
            dec = single_byte_decoder(enc)
            classes = []
            for b in range(0x80, 0x100):
                c = dec.get(b)
                if c is None or 0x80 <= ord(c) < 0xA0:
                    classes.append(255)
                else:
                    classes.append(class_of(c, letters))
            ident = "%s_%s" % (enc.upper().replace("-", "_"), lang.upper())
            out.append(emit_u8s("CLASSES_%s" % ident, classes,
                                "Class of each byte 0x80..=0xFF in %s for `%s` (255: unmapped or control)." % (enc, lang)))
            sb.append((enc, lang, ident))
    out.append("/// Every single-byte candidate: (encoding, language).\npub(super) static SINGLE_BYTE: [SbModel; %d] = [\n" % len(sb))
    for enc, lang, ident in sb:
        out.append("    SbModel { encoding: &crate::%s_INIT, lang: &LANG_%s, classes: &CLASSES_%s, prior: %d },\n"
                   % (enc.upper().replace("-", "_"), lang.upper(), ident, PRIOR[enc]))
    out.append("];\n\n")
    # The unigram costs by byte, transposed (a row per byte 0x80..=0xFF, a column per
    # candidate), so that the detector adds a byte's count times its row to all candidates
    # at once.
    out.append("/// Cost of an unmapped byte or a control character (15 nats).\npub(super) const BAD: u32 = %d;\n\n" % BAD)
    out.append("/// `UNIGRAM_BY_BYTE[b - 0x80][i]`: the unigram cost of byte `b` in `SINGLE_BYTE[i]`.\n")
    out.append("pub(super) static UNIGRAM_BY_BYTE: [[u8; %d]; 128] = [\n" % len(sb))
    unigrams = {lang: cond_table(*lang_model(lang))[1] for lang in SB_LANGS}
    class_tables = {}
    for enc, lang, ident in sb:
        dec = single_byte_decoder(enc)
        class_tables[ident] = [255 if dec.get(b) is None or 0x80 <= ord(dec[b]) < 0xA0 else class_of(dec[b], langs[lang]) for b in range(0x80, 0x100)]
    for b in range(128):
        row = []
        for enc, lang, ident in sb:
            c = class_tables[ident][b]
            row.append(BAD if c == 255 else unigrams[lang][c])
        out.append("    [" + ", ".join(str(v) for v in row) + "],\n")
    out.append("];\n\n")

    # CJK: dense score tables over (lead - 0x81) * 191 + (trail - 0x40).
    def dense(pairs):
        return pairs

    gbk = index("gb18030")
    big5 = index("big5")
    jis = index("jis0208")
    euckr = index("euc-kr")
    simp = {chr(int(t, 16)): chr(int(s, 16)) for t, s in read_lines("zh-hant.txt")}

    def code2(lead, trail):
        return (lead - 0x81) * 191 + (trail - 0x40)

    models = []
    # GBK: pointer = (lead - 0x81) * 190 + (trail - offset), offset 0x40 below 0x7F else 0x41.
    pairs = []
    for p, cp in gbk.items():
        lead, t = 0x81 + p // 190, p % 190
        trail = t + (0x40 if t < 0x3F else 0x41)
        pairs.append((code2(lead, trail), chr(cp)))
    models.append(("GBK", "zh", pairs))
    pairs = []
    for p, cp in big5.items():
        lead, t = 0x81 + p // 157, p % 157
        if lead < 0xA1:
            continue  # HKSCS range, not Big5 text
        trail = t + (0x40 if t < 0x3F else 0x62)
        ch = chr(cp)
        pairs.append((code2(lead, trail), simp.get(ch, ch)))
    models.append(("Big5", "zh", pairs))
    pairs = []
    for p, cp in euckr.items():
        lead, t = 0x81 + p // 190, p % 190
        trail = 0x41 + t
        pairs.append((code2(lead, trail), chr(cp)))
    models.append(("EUC-KR", "ko", pairs))
    # EUC-JP: jis0208 pointer = (lead - 0xA1) * 94 + trail - 0xA1.
    pairs = []
    for p, cp in jis.items():
        lead, trail = 0xA1 + p // 94, 0xA1 + p % 94
        if trail > 0xFE or lead > 0xFE:
            continue
        pairs.append((code2(lead, trail), chr(cp)))
    models.append(("EUC-JP", "ja", pairs))
    # Shift_JIS: pointer = (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188 + trail - (0x40 or 0x41).
    pairs = []
    for p, cp in jis.items():
        if 8272 <= p <= 8835:
            continue  # EUDC
        l, t = p // 188, p % 188
        lead = l + (0x81 if l < 0x1F else 0xC1)
        trail = t + (0x40 if t < 0x3F else 0x41)
        if lead > 0xFC:
            continue
        pairs.append((code2(lead, trail), chr(cp)))
    models.append(("Shift_JIS", "ja", pairs))
    for enc, lang, pairs in models:
        scores, floor = cjk_scores(lang, pairs)
        ident = enc.upper().replace("-", "_")
        codes = sorted(scores)
        out.append("/// %s: (lead - 0x81) * 191 + (trail - 0x40) of the %d most frequent %s characters it\n"
                   "/// encodes, and their scores (`CJK_%s_SCORES`).\n" % (enc, len(codes), lang, ident))
        out.append("const CJK_%s_CODES: [u16; %d] = [\n" % (ident, len(codes)))
        for i in range(0, len(codes), 16):
            out.append("    " + ", ".join(str(c) for c in codes[i:i + 16]) + ",\n")
        out.append("];\n")
        out.append(emit_u8s("CJK_%s_SCORES" % ident, [scores[c] for c in codes], "Scores of `CJK_%s_CODES`." % ident).replace("pub(super) static", "const"))
        out.append("pub(super) static CJK_%s: CjkModel = CjkModel::new(&crate::%s_INIT, &CJK_%s_CODES, &CJK_%s_SCORES, %d);\n\n"
                   % (ident, "SHIFT_JIS" if enc == "Shift_JIS" else ident.replace("BIG5", "BIG5"), ident, ident, floor))
    # Halfwidth katakana (Shift_JIS single bytes 0xA1..=0xDF): one score.
    return "".join(out)


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "extract":
        extract()
    elif cmd == "generate":
        text = generate()
        if "--check" in sys.argv:
            with open(OUT, encoding="utf-8") as f:
                if f.read() != text:
                    sys.exit("src/detect/model.rs is stale: run python3 eval/detect/train.py generate")
        else:
            with open(OUT, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
