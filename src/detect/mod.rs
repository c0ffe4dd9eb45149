//! Guessing a text's encoding from its bytes: the "frequency analysis" step of the HTML
//! Standard's "determining the character encoding".
//!
//! The HTML Standard leaves this step to the user agent ("the user agent may attempt to
//! autodetect the character encoding from applying frequency analysis or other algorithms to
//! the data stream"); everything in this module is ours, not the standard's. The BOM,
//! transport-layer, `<meta>` prescan and XML declaration steps come before it and belong
//! elsewhere; this module never looks for a BOM or a declaration.
//!
//! ```
//! use simdenc::detect::{guess, Markup};
//!
//! let g = guess("Съешь же ещё этих мягких французских булок".as_bytes(), Markup::Text);
//! assert_eq!(g.encoding, simdenc::UTF_8);
//! let (bytes, _, _) = simdenc::WINDOWS_1251.encode("Съешь же ещё этих мягких французских булок, да выпей чаю");
//! assert_eq!(guess(&bytes, Markup::Text).encoding, simdenc::WINDOWS_1251);
//! ```
//!
//! # What it returns
//!
//! In this order:
//! 1. **UTF-16LE / UTF-16BE** (no BOM): when C0 control bytes other than TAB, LF, FF, CR and
//!    ESC (NUL among them) make up at least 2% of the first 4 KiB and one byte order reads
//!    them as plausible text (letters and punctuation of living scripts, no unpaired
//!    surrogate, almost no control character).
//! 2. **ISO-2022-JP**: no byte is above 0x7F and an escape sequence of ISO-2022-JP
//!    (`ESC $ @`, `ESC $ B`, `ESC ( J`, `ESC ( I`) occurs.
//! 3. **Pure ASCII** (no byte above 0x7F, no such escape): windows-1252 with **confidence
//!    0**. Every ASCII-compatible encoding decodes such input to the same text, so there is
//!    nothing to detect and a caller's default (the HTML Standard's is windows-1252 or the
//!    locale's) should win; a confidence of 0 says so.
//! 4. **UTF-8**: the whole input seen is valid UTF-8 (a sequence cut by the end of the input
//!    counts as valid, so that prefixes of UTF-8 files are UTF-8) and has a byte above 0x7F.
//! 5. Otherwise the best-scoring **legacy encoding**: a single-byte one (windows-874,
//!    windows-1250 to windows-1258, ISO-8859-2, -4, -5, -6, -7, -8, -13, -15, -16, KOI8-R,
//!    KOI8-U, IBM866, macintosh, x-mac-cyrillic) or a multi-byte one (Shift_JIS, EUC-JP, GBK,
//!    Big5, EUC-KR; gb18030 when a four-byte gb18030 sequence occurs). Never returned:
//!    ISO-8859-3, -10, -14 (no language model here serves them better than windows-1252 or
//!    ISO-8859-4/-13), ISO-8859-8-I (decodes as ISO-8859-8), x-user-defined, replacement.
//!    Where two encodings decode the input to the same text, either may be returned (GBK and
//!    gb18030 decode alike; so do KOI8-R and KOI8-U for Russian letters).
//!
//! # Confidence
//!
//! [`Guess::confidence`] is in `[0, 1]`: 0 for pure ASCII (nothing to decide), close to 1 for
//! UTF-8 with many multi-byte sequences, for UTF-16 and ISO-2022-JP; for legacy encodings,
//! the share of the best candidate in the tempered likelihoods of all candidates (1 when
//! every other encoding is far less likely, 0.5 for a tie with one other). It orders
//! guesses; it is not a calibrated probability.
//!
//! # Models
//!
//! Trained from word frequencies (the `wordfreq` package's lists, CC BY-SA 4.0; see
//! `tables/detect/README.md`), generated into `model.rs` by `eval/detect/train.py`:
//! - per language of the single-byte encodings (35 of them), a bigram model over character
//!   classes: ASCII non-letter, each ASCII letter, common non-ASCII punctuation (« » – ° €
//!   NBSP ...), other non-ASCII symbols (box drawing, ...), rare letter, and each of up to 60
//!   frequent non-ASCII letters, all case folded as the word lists are (ß as `s`, ς as σ):
//!   `-log P(class | previous class)`, and the classes' unigram costs. A candidate is an
//!   (encoding, language) pair, 80 of them; its byte → class table comes from the
//!   standard's index of the encoding. Thai has no word list there: windows-874's model is
//!   uniform over the Thai letters and marks. Hebrew's adds vowel points (the word lists
//!   are unpointed).
//! - per multi-byte encoding, `-log P(character)` of the 4000 most frequent characters of its
//!   language (Chinese for GBK and Big5, through the traditional → simplified mapping for
//!   Big5; Japanese; Korean), by two-byte code.
//!
//! Scoring (all costs in units of 1/4 nat, smaller is better): single-byte candidates are
//! ranked by the unigram cost of their non-ASCII bytes; those within 6 nats or an eighth of
//! the best (at most 12, at least 2) are scored with the bigram model over every pair of
//! adjacent bytes at least one of which is non-ASCII; multi-byte candidates cost their
//! characters' `-log P`, plus fixed costs for half-width katakana, JIS X 0212, HKSCS rows
//! and gb18030's four-byte sequences, and for each malformed sequence. Controls (C1
//! controls, unmapped bytes) cost 15 nats in every encoding. Rarer encodings carry a small
//! fixed prior cost (1 to 10 nats; `PRIOR` in `train.py`), so that the windows-125x win
//! ties.
//!
//! # Bounded work
//!
//! Scoring looks at the text until [`Detector::seen_enough`]: 512 bytes above 0x7F (ASCII
//! runs between them are kept as their first and last byte, which is all the bigram model
//! reads). UTF-8 validity is checked on everything fed (with the crate's SIMD UTF-8
//! validator), so that a late invalid byte still rules UTF-8 out. [`guess`] feeds the whole
//! input; a caller streaming a large file can stop feeding once `seen_enough` is true and
//! accept that later bytes were not checked.
//!
//! # Markup
//!
//! With [`Markup::Html`], tags (`<` … `>`), comments (`<!--` … `-->`) and character
//! references (`&` … `;`, at most 32 bytes) are left out of the scoring (each counts as one
//! space); UTF-8 validity and UTF-16 are still judged on the raw bytes.

#[rustfmt::skip]
mod model;
mod score;

use crate::Encoding;
use alloc::vec::Vec;

/// What the bytes are (shared with [`crate::sniff`]): with [`Markup::Html`] the detector skips
/// markup when scoring.
///
/// ```
/// use simdenc::detect::{guess, Markup};
/// // Only the text between the tags is scored.
/// let (page, _, _) = simdenc::WINDOWS_1253
///     .encode("<html><body><p>Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.</p></body></html>");
/// assert_eq!(guess(&page, Markup::Html).encoding, simdenc::WINDOWS_1253);
/// ```
pub use crate::sniff::Markup;

/// The detector's answer.
///
/// ```
/// let g = simdenc::detect::guess(b"plain ASCII", simdenc::detect::Markup::Text);
/// assert_eq!((g.encoding, g.confidence), (simdenc::WINDOWS_1252, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guess {
    /// The most likely encoding.
    pub encoding: &'static Encoding,
    /// How sure the guess is, in `[0, 1]` (module docs, "Confidence"): 0 when there was
    /// nothing to decide (pure ASCII).
    pub confidence: f32,
}

/// Guesses the encoding of `bytes` (module docs): the whole input is checked for UTF-8,
/// the first 512 non-ASCII bytes are scored.
///
/// ```
/// use simdenc::detect::{guess, Markup};
/// let (sjis, _, _) = simdenc::SHIFT_JIS.encode("吾輩は猫である。名前はまだ無い。");
/// assert_eq!(guess(&sjis, Markup::Text).encoding, simdenc::SHIFT_JIS);
/// ```
pub fn guess(bytes: &[u8], markup: Markup) -> Guess {
    // Valid UTF-8 with a byte above 0x7F is UTF-8 unless its head reads as UTF-16, as
    // `Detector::guess` decides in that order: with the whole input at hand, that is known
    // before any text is kept for scoring.
    let valid = Encoding::utf8_valid_up_to(bytes);
    let tail = &bytes[valid..];
    if tail.len() < 4 && utf8_incomplete_ok(tail) {
        let non_ascii = count_non_ascii(bytes);
        if non_ascii > 0 {
            return score::utf16(&bytes[..bytes.len().min(HEAD)]).unwrap_or_else(|| utf8_guess(non_ascii));
        }
    }
    let mut d = Detector::new(markup);
    d.feed(bytes);
    d.guess()
}

/// The guess for input that is UTF-8 with `non_ascii` bytes above 0x7F.
fn utf8_guess(non_ascii: u64) -> Guess {
    // Each further two-byte sequence makes an accidental UTF-8 reading of legacy text less
    // likely.
    let doubt = (0..non_ascii.min(64)).fold(0.5f32, |d, _| d * 0.6);
    Guess {
        encoding: crate::UTF_8,
        confidence: 1.0 - doubt,
    }
}

/// Bytes above 0x7F scored before [`Detector::seen_enough`].
const ENOUGH_NON_ASCII: usize = 512;
/// Raw bytes kept for the UTF-16 test.
const HEAD: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Html {
    Data,
    /// After `<`.
    Lt,
    /// After `<!`.
    LtBang,
    /// After `<!-`.
    LtBangDash,
    Tag,
    Comment,
    /// In a comment after `-`.
    CommentDash,
    /// In a comment after `--`.
    CommentDashDash,
    /// In a character reference, after this many bytes.
    Reference(u8),
}

/// A streaming detector: feed it the input in pieces, ask for its guess at any time.
///
/// ```
/// use simdenc::detect::{Detector, Markup};
/// let (bytes, _, _) = simdenc::EUC_KR.encode("대한민국의 수도는 서울이다. 한국어는 한글로 쓴다.");
/// let mut d = Detector::new(Markup::Text);
/// for chunk in bytes.chunks(7) {
///     d.feed(chunk);
/// }
/// assert!(!d.seen_enough());
/// assert_eq!(d.guess().encoding, simdenc::EUC_KR);
/// ```
#[derive(Clone, Debug)]
pub struct Detector {
    markup: Markup,
    html: Html,
    /// The text to score: markup removed, ASCII runs cut to their first and last byte.
    text: Vec<u8>,
    /// Length of the ASCII run at the end of `text`.
    ascii_run: usize,
    /// Bytes above 0x7F in `text`.
    non_ascii: usize,
    /// The first raw bytes (UTF-16 test).
    head: Vec<u8>,
    /// Whether everything fed so far is UTF-8 (up to `utf8_tail`).
    utf8_ok: bool,
    /// An incomplete UTF-8 sequence at the end of what was fed.
    utf8_tail: [u8; 4],
    utf8_tail_len: u8,
    /// Bytes above 0x7F seen in all the raw input.
    raw_non_ascii: u64,
    /// The last two raw bytes (an ISO-2022-JP escape cut between feeds), and whether one
    /// was seen.
    esc_state: u8,
    iso2022: bool,
}

impl Detector {
    /// A detector that has seen nothing.
    ///
    /// ```
    /// let d = simdenc::detect::Detector::new(simdenc::detect::Markup::Html);
    /// assert_eq!(d.guess().confidence, 0.0);
    /// ```
    pub fn new(markup: Markup) -> Detector {
        Detector {
            markup,
            html: Html::Data,
            text: Vec::new(),
            ascii_run: 0,
            non_ascii: 0,
            head: Vec::new(),
            utf8_ok: true,
            utf8_tail: [0; 4],
            utf8_tail_len: 0,
            raw_non_ascii: 0,
            esc_state: 0,
            iso2022: false,
        }
    }

    /// Whether the detector has scored as much as it will (512 bytes above 0x7F): later
    /// input only goes into the UTF-8 check, so a caller may stop feeding.
    ///
    /// ```
    /// let mut d = simdenc::detect::Detector::new(simdenc::detect::Markup::Text);
    /// d.feed(&[0xE9; 3000]);
    /// assert!(d.seen_enough());
    /// ```
    pub fn seen_enough(&self) -> bool {
        self.non_ascii >= ENOUGH_NON_ASCII
    }

    /// Gives the detector the next piece of the input.
    ///
    /// ```
    /// let mut d = simdenc::detect::Detector::new(simdenc::detect::Markup::Text);
    /// d.feed(b"caf\xC3");
    /// d.feed(b"\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9e");
    /// assert_eq!(d.guess().encoding, simdenc::UTF_8);
    /// ```
    pub fn feed(&mut self, bytes: &[u8]) {
        if self.head.len() < HEAD {
            let n = (HEAD - self.head.len()).min(bytes.len());
            self.head.extend_from_slice(&bytes[..n]);
        }
        let ascii = Encoding::ascii_valid_up_to(bytes);
        // ISO-2022-JP is all ASCII: no need to look for its escapes after a byte above 0x7F.
        if !self.iso2022 && self.raw_non_ascii == 0 {
            self.scan_escapes(&bytes[..ascii]);
        }
        if ascii < bytes.len() {
            self.raw_non_ascii += count_non_ascii(&bytes[ascii..]);
        }
        if self.utf8_ok {
            self.check_utf8(bytes, ascii);
        }
        if !self.seen_enough() {
            match self.markup {
                Markup::Text => self.push_text(bytes),
                Markup::Html => self.push_html(bytes),
            }
        }
    }

    /// The guess for what was fed so far (module docs, "What it returns").
    ///
    /// ```
    /// let mut d = simdenc::detect::Detector::new(simdenc::detect::Markup::Text);
    /// d.feed(b"\x1b$B$3$s$K$A$O\x1b(B");
    /// assert_eq!(d.guess().encoding, simdenc::ISO_2022_JP);
    /// ```
    pub fn guess(&self) -> Guess {
        if let Some(g) = score::utf16(&self.head) {
            return g;
        }
        if self.raw_non_ascii == 0 {
            if self.iso2022 {
                return Guess {
                    encoding: crate::ISO_2022_JP,
                    confidence: 0.99,
                };
            }
            return Guess {
                encoding: crate::WINDOWS_1252,
                confidence: 0.0,
            };
        }
        if self.utf8_ok {
            return utf8_guess(self.raw_non_ascii);
        }
        score::legacy(&self.text)
    }

    fn scan_escapes(&mut self, bytes: &[u8]) {
        // States: 0 nothing, 1 after ESC, 2 after ESC $, 3 after ESC (.
        let mut s = self.esc_state;
        let mut bytes = bytes;
        if s == 0 {
            // Most input has no ESC at all: `contains` is core's memchr.
            if !bytes.contains(&0x1B) {
                return;
            }
            let at = bytes.iter().position(|&b| b == 0x1B).unwrap_or(bytes.len());
            bytes = &bytes[at..];
        }
        for &b in bytes {
            s = match (s, b) {
                (_, 0x1B) => 1,
                (1, b'$') => 2,
                (1, b'(') => 3,
                (2, b'@' | b'B') | (3, b'J' | b'I') => {
                    self.iso2022 = true;
                    return;
                }
                _ => 0,
            };
        }
        self.esc_state = s;
    }

    fn check_utf8(&mut self, bytes: &[u8], ascii: usize) {
        let mut rest = bytes;
        if self.utf8_tail_len > 0 {
            // Complete the sequence cut at the end of the previous piece.
            let have = self.utf8_tail_len as usize;
            let need = utf8_len(self.utf8_tail[0]);
            let take = (need - have).min(rest.len());
            let mut seq = [0u8; 4];
            seq[..have].copy_from_slice(&self.utf8_tail[..have]);
            seq[have..have + take].copy_from_slice(&rest[..take]);
            let seq = &seq[..have + take];
            if have + take < need {
                if !utf8_incomplete_ok(seq) {
                    self.utf8_ok = false;
                }
                self.utf8_tail[..seq.len()].copy_from_slice(seq);
                self.utf8_tail_len = seq.len() as u8;
                return;
            }
            if Encoding::utf8_valid_up_to(seq) != seq.len() {
                self.utf8_ok = false;
                return;
            }
            self.utf8_tail_len = 0;
            rest = &rest[take..];
        } else if ascii == bytes.len() {
            return;
        } else {
            rest = &rest[ascii..];
        }
        let valid = Encoding::utf8_valid_up_to(rest);
        let tail = &rest[valid..];
        if tail.is_empty() {
            return;
        }
        if tail.len() < 4 && utf8_incomplete_ok(tail) {
            self.utf8_tail[..tail.len()].copy_from_slice(tail);
            self.utf8_tail_len = tail.len() as u8;
        } else {
            self.utf8_ok = false;
        }
    }

    fn push_byte(&mut self, b: u8) {
        if b < 0x80 {
            if self.ascii_run >= 2 {
                if let Some(last) = self.text.last_mut() {
                    *last = b;
                }
            } else {
                self.text.push(b);
            }
            self.ascii_run += 1;
        } else {
            self.text.push(b);
            self.ascii_run = 0;
            self.non_ascii += 1;
        }
    }

    fn push_text(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() && !self.seen_enough() {
            if bytes[i] >= 0x80 {
                // A run of bytes above 0x7F, as far as they are still to be scored.
                let room = ENOUGH_NON_ASCII - self.non_ascii;
                let run = bytes[i..].iter().take(room).take_while(|&&b| b >= 0x80).count();
                self.text.extend_from_slice(&bytes[i..i + run]);
                self.non_ascii += run;
                self.ascii_run = 0;
                i += run;
                continue;
            }
            // An ASCII run: short ones (a space between words) counted here, long ones by
            // the SIMD scan.
            let rest = &bytes[i..];
            let short = rest.iter().take(16).take_while(|&&b| b < 0x80).count();
            let run = if short == 16 {
                16 + Encoding::ascii_valid_up_to(&rest[16..])
            } else {
                short
            };
            self.push_byte(rest[0]);
            if run >= 2 {
                // Only the run's first and last bytes matter.
                self.push_byte(rest[run - 1]);
                self.ascii_run += run - 2;
            }
            i += run;
        }
    }

    fn push_html(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            if self.seen_enough() {
                return;
            }
            // Skip what cannot change the state: in text, ASCII other than `<` and `&` (kept
            // as the run's first and last byte); in a tag, anything but `>`; in a comment,
            // anything but `-`.
            match self.html {
                Html::Data => {
                    let n = find_data_stop(&bytes[i..]);
                    if n >= 2 {
                        self.push_byte(bytes[i]);
                        self.push_byte(bytes[i + n - 1]);
                        self.ascii_run += n - 2;
                    } else if n == 1 {
                        self.push_byte(bytes[i]);
                    }
                    i += n;
                    if i == bytes.len() {
                        return;
                    }
                }
                Html::Tag => {
                    i += find_byte(&bytes[i..], b'>');
                    if i == bytes.len() {
                        return;
                    }
                }
                Html::Comment => {
                    i += find_byte(&bytes[i..], b'-');
                    if i == bytes.len() {
                        return;
                    }
                }
                _ => {}
            }
            let b = bytes[i];
            i += 1;
            self.html = match (self.html, b) {
                (Html::Data, b'<') => Html::Lt,
                (Html::Data, b'&') => Html::Reference(0),
                (Html::Data, _) => {
                    self.push_byte(b);
                    Html::Data
                }
                (Html::Lt, b'!') => Html::LtBang,
                (Html::Lt, b'>') => {
                    self.push_byte(b' ');
                    Html::Data
                }
                (Html::Lt, b) if b.is_ascii_alphabetic() || b == b'/' || b == b'?' => Html::Tag,
                (Html::Lt, _) => {
                    // Not a tag: `<` was text.
                    self.push_byte(b'<');
                    self.push_byte(b);
                    Html::Data
                }
                (Html::LtBang, b'-') => Html::LtBangDash,
                (Html::LtBangDash, b'-') => Html::Comment,
                (Html::LtBang | Html::LtBangDash | Html::Tag, b'>') => {
                    self.push_byte(b' ');
                    Html::Data
                }
                (Html::LtBang | Html::LtBangDash | Html::Tag, _) => Html::Tag,
                (Html::Comment, b'-') => Html::CommentDash,
                (Html::CommentDash, b'-') => Html::CommentDashDash,
                (Html::CommentDashDash, b'-') => Html::CommentDashDash,
                (Html::CommentDashDash, b'>') => {
                    self.push_byte(b' ');
                    Html::Data
                }
                (Html::Comment | Html::CommentDash | Html::CommentDashDash, _) => Html::Comment,
                (Html::Reference(_), b';') => {
                    self.push_byte(b' ');
                    Html::Data
                }
                (Html::Reference(n), b) if n < 32 && (b.is_ascii_alphanumeric() || b == b'#') => {
                    Html::Reference(n + 1)
                }
                (Html::Reference(_), b) => {
                    // Not a reference (or too long): keep the byte as text.
                    self.push_byte(b' ');
                    if b == b'<' {
                        Html::Lt
                    } else {
                        self.push_byte(b);
                        Html::Data
                    }
                }
            };
        }
    }
}

/// Eight copies of `b`.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// The high bit of each byte of `word` that is zero (exact for the lowest such byte, which is
/// all the callers use).
const fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(splat(1)) & !word & splat(0x80)
}

/// Index of the first byte of `bytes` that `stop` flags (a word of eight bytes in memory
/// order → the high bit of each flagged byte), or `bytes.len()`.
#[inline(always)]
fn find_by(bytes: &[u8], stop: impl Fn(u64) -> u64, scalar: impl Fn(u8) -> bool) -> usize {
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let flags = stop(u64::from_le_bytes(word));
        if flags != 0 {
            return at + (flags.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at + chunks
        .remainder()
        .iter()
        .position(|&b| scalar(b))
        .unwrap_or(chunks.remainder().len())
}

/// Index of the first `needle` in `bytes`, or `bytes.len()`.
fn find_byte(bytes: &[u8], needle: u8) -> usize {
    find_by(bytes, |w| zero_bytes(w ^ splat(needle)), |b| b == needle)
}

/// Index of the first byte of `bytes` that is `<`, `&` or above 0x7F, or `bytes.len()`.
fn find_data_stop(bytes: &[u8]) -> usize {
    find_by(
        bytes,
        |w| zero_bytes(w ^ splat(b'<')) | zero_bytes(w ^ splat(b'&')) | (w & splat(0x80)),
        |b| b == b'<' || b == b'&' || b >= 0x80,
    )
}

/// Bytes above 0x7F in `bytes`.
fn count_non_ascii(bytes: &[u8]) -> u64 {
    // Summed per chunk so that the compiler vectorises the inner loop.
    let mut n = 0u64;
    for chunk in bytes.chunks(255) {
        let c: u8 = chunk.iter().map(|&b| b >> 7).sum();
        n += u64::from(c);
    }
    n
}

/// Length of the UTF-8 sequence a lead byte starts (1 for anything else).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 1,
    }
}

/// Whether `seq` (shorter than its lead says) is the start of a valid UTF-8 sequence.
fn utf8_incomplete_ok(seq: &[u8]) -> bool {
    let Some(&lead) = seq.first() else {
        return true;
    };
    let need = utf8_len(lead);
    if need == 1 || seq.len() >= need {
        return false;
    }
    if let Some(&second) = seq.get(1) {
        let (lo, hi) = match lead {
            0xE0 => (0xA0, 0xBF),
            0xED => (0x80, 0x9F),
            0xF0 => (0x90, 0xBF),
            0xF4 => (0x80, 0x8F),
            _ => (0x80, 0xBF),
        };
        if !(lo..=hi).contains(&second) {
            return false;
        }
    }
    seq.iter().skip(2).all(|&b| (0x80..=0xBF).contains(&b))
}

/// A language of the single-byte encodings (generated in `model.rs`).
struct LangModel {
    /// Its code (ISO 639-1; read by `tests::explain`).
    #[cfg_attr(not(test), allow(dead_code))]
    name: &'static str,
    /// Number of classes.
    classes: usize,
    /// `-log P(b | a)` at `a * classes + b`.
    bigram: &'static [u8],
    /// `-log P(class | not ASCII)` (scoring reads it transposed, `model::UNIGRAM_BY_BYTE`).
    #[cfg_attr(not(test), allow(dead_code))]
    unigram: &'static [u8],
}

/// A single-byte candidate: an encoding and a language it serves.
struct SbModel {
    encoding: &'static Encoding,
    lang: &'static LangModel,
    /// Class of each byte 0x80..=0xFF (255: control or unmapped).
    classes: &'static [u8; 128],
    /// Fixed cost, so that the common encoding wins ties.
    prior: u32,
}

/// Size of a multi-byte model's table: two-byte codes `(lead - 0x81) * 191 + trail - 0x40`.
const CJK_CODES: usize = 126 * 191;

/// A multi-byte encoding's character costs by two-byte code.
struct CjkModel {
    encoding: &'static Encoding,
    cost: [u8; CJK_CODES],
}

impl CjkModel {
    /// Spreads the generated (code, cost) lists into a dense table (at compile time).
    const fn new(encoding: &'static Encoding, codes: &[u16], costs: &[u8], floor: u8) -> CjkModel {
        let mut cost = [floor; CJK_CODES];
        let mut i = 0;
        while i < codes.len() {
            cost[codes[i] as usize] = costs[i];
            i += 1;
        }
        CjkModel { encoding, cost }
    }
}

#[cfg(test)]
mod tests;
