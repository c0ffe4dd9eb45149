//! Knowing the encoding of a document: the HTML Standard's "determining the character
//! encoding" (the encoding sniffing algorithm of its parsing section, 13.2.3.2), with the
//! frequency-analysis guess of [`crate::detect`] as its step "autodetect" (with the `alloc`
//! feature; without it there is no step 8).
//!
//! [`determine`] runs the algorithm over a whole input and says where its answer came from
//! ([`Source`]): a byte order mark, the transport layer (an HTTP `Content-Type` charset), a
//! `<meta>` found by the prescan, an XML declaration, a guess, or the default. [`Sniffer`] is
//! the streaming form: it decides once it has seen enough bytes (1024 for the prescan, a bounded
//! prefix for the guess) or at the end of the input. The pieces are public too: [`prescan`]
//! ("prescan a byte stream to determine its encoding", with "get an attribute"),
//! [`xml_encoding`] ("get an XML encoding") and [`meta_content_charset`] (section 2.5.3, "the
//! algorithm for extracting a character encoding from a meta element").
//!
//! # What is the standard's and what is ours
//!
//! The steps are the standard's, numbered in comments as it numbers them. Where it leaves a
//! choice to the user agent, this module chooses, so that results compare with other
//! implementations and with the web-platform tests:
//!
//! - The prescan's end condition: it stops when it would need the byte at index 1024, so a
//!   `<meta>` whose `>` comes after byte 1023 is not found. Running out of bytes anywhere in the
//!   prescan (an unterminated comment, tag or attribute value) aborts it.
//! - "Get an XML encoding", run when the prescan aborts or reaches its end condition, reads the
//!   same input as the prescan, all of it (not only the first 1024 bytes).
//! - The transport-layer charset is any label of the standard, kept as it is: the UTF-16 → UTF-8
//!   and x-user-defined → windows-1252 rules belong to the prescan and the XML declaration, not
//!   to the transport step. An unknown or empty label is ignored.
//! - [`Source::Xml`] covers both the prescan's UTF-16 `<?x` check (its step 2) and the XML
//!   declaration.
//! - The user-override, parent-document and remembered-encoding steps (2, 6, 7) have no input
//!   here.
//! - The prescan runs for HTML only ([`Markup::Html`]); plain text has no in-band declaration.
//! - The default is windows-1252 unless [`Options::default_encoding`] gives another (the
//!   standard suggests one per locale).
//! - [`Sniffed::confidence`]: 1.0 when a byte order mark, the transport layer or a declaration
//!   decided; the detector's estimate for a guess; 0.0 for the default.
//!
//! ```
//! use simdenc::sniff::{determine, Markup, Options, Source};
//! let page = b"<!doctype html><meta charset=\"shift_jis\"><p>\x82\xa0";
//! let found = determine(page, &Options::new(Markup::Html));
//! assert_eq!((found.encoding, found.source), (simdenc::SHIFT_JIS, Source::Meta));
//! ```

use crate::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};
use core::fmt;
use core::ops::Range;

/// What kind of document the bytes are: it decides whether the prescan runs and how the
/// frequency analysis reads the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Markup {
    /// Plain text: no prescan; every byte is scored by the guess.
    Text,
    /// HTML (or XML): the prescan runs; tags, comments and character references are skipped
    /// when the guess scores the bytes.
    Html,
}

/// Where an encoding decision came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A byte order mark (step 1).
    Bom,
    /// The transport layer: an HTTP `Content-Type` charset or a label given as one (step 4).
    Http,
    /// A `<meta charset>` or `<meta http-equiv=content-type content=...>` found by the prescan
    /// (step 5).
    Meta,
    /// An XML declaration, or the prescan's UTF-16 `<?x` check (step 5).
    Xml,
    /// Frequency analysis of the bytes (step 8).
    Guess,
    /// Nothing decided: the default (step 9).
    Default,
}

impl Source {
    /// The lowercase name used in reports and JSON: `bom`, `http`, `meta`, `xml`, `guess` or
    /// `default`.
    ///
    /// ```
    /// assert_eq!(simdenc::sniff::Source::Meta.as_str(), "meta");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Bom => "bom",
            Source::Http => "http",
            Source::Meta => "meta",
            Source::Xml => "xml",
            Source::Guess => "guess",
            Source::Default => "default",
        }
    }

    /// The standard's confidence for an answer from this source: certain for a byte order mark
    /// or the transport layer, tentative otherwise (a parser may then change the encoding when
    /// it meets a `<meta>`).
    ///
    /// ```
    /// use simdenc::sniff::Source;
    /// assert!(Source::Bom.is_certain() && !Source::Meta.is_certain());
    /// ```
    pub fn is_certain(self) -> bool {
        matches!(self, Source::Bom | Source::Http)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of [`determine`]: an encoding, where it came from, and a confidence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sniffed {
    /// The encoding to decode with.
    pub encoding: &'static Encoding,
    /// Which step decided.
    pub source: Source,
    /// 1.0 when a byte order mark, the transport layer or a declaration decided; the
    /// detector's estimate in [0, 1] for a guess; 0.0 for the default.
    pub confidence: f32,
}

impl Sniffed {
    fn declared(encoding: &'static Encoding, source: Source) -> Self {
        Sniffed {
            encoding,
            source,
            confidence: 1.0,
        }
    }
}

/// The inputs of [`determine`] other than the bytes.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The kind of document.
    pub markup: Markup,
    /// The transport layer's encoding, if any (see [`Options::with_transport_label`] and
    /// [`Options::with_content_type`]).
    pub transport: Option<&'static Encoding>,
    /// Whether step 8 (frequency analysis) runs.
    pub guess: bool,
    /// The encoding of step 9.
    pub default_encoding: &'static Encoding,
}

impl Options {
    /// No transport-layer charset, the guess on, windows-1252 as the default.
    ///
    /// ```
    /// let options = simdenc::sniff::Options::new(simdenc::sniff::Markup::Text);
    /// assert!(options.guess && options.transport.is_none());
    /// ```
    pub fn new(markup: Markup) -> Self {
        Options {
            markup,
            transport: None,
            guess: true,
            default_encoding: WINDOWS_1252,
        }
    }

    /// The transport layer's charset as a label: any label of the standard, kept as it is; an
    /// unknown or empty label is ignored.
    ///
    /// ```
    /// use simdenc::sniff::{Markup, Options};
    /// assert_eq!(Options::new(Markup::Html).with_transport_label(b"latin1").transport, Some(simdenc::WINDOWS_1252));
    /// assert_eq!(Options::new(Markup::Html).with_transport_label(b"utf-7").transport, None);
    /// ```
    pub fn with_transport_label(mut self, label: &[u8]) -> Self {
        self.transport = Encoding::for_label(label);
        self
    }

    /// The transport layer's charset from a `Content-Type` header value, parsed as Fetch and
    /// MIME Sniffing do ([`crate::http::charset_from_content_type`]).
    ///
    /// ```
    /// use simdenc::sniff::{Markup, Options};
    /// let options = Options::new(Markup::Html).with_content_type(b"text/html; charset=EUC-KR");
    /// assert_eq!(options.transport, Some(simdenc::EUC_KR));
    /// ```
    pub fn with_content_type(mut self, value: &[u8]) -> Self {
        self.transport = crate::http::charset_from_content_type(value);
        self
    }

    /// Turns step 8 (frequency analysis) on or off.
    ///
    /// ```
    /// let options = simdenc::sniff::Options::new(simdenc::sniff::Markup::Text).with_guess(false);
    /// assert!(!options.guess);
    /// ```
    pub fn with_guess(mut self, guess: bool) -> Self {
        self.guess = guess;
        self
    }

    /// The encoding of step 9, when nothing else decided.
    ///
    /// ```
    /// let options = simdenc::sniff::Options::new(simdenc::sniff::Markup::Text).with_default(simdenc::UTF_8);
    /// assert_eq!(options.default_encoding, simdenc::UTF_8);
    /// ```
    pub fn with_default(mut self, encoding: &'static Encoding) -> Self {
        self.default_encoding = encoding;
        self
    }
}

/// How many bytes the prescan reads: it stops when it would need the byte at this index.
pub const PRESCAN_BYTES: usize = 1024;

/// "Determining the character encoding" over all of `bytes`.
///
/// ```
/// use simdenc::sniff::{determine, Markup, Options, Source};
/// let html = Options::new(Markup::Html).with_guess(false);
/// let found = determine(b"\xEF\xBB\xBF<meta charset=koi8-r>", &html);
/// assert_eq!((found.encoding, found.source), (simdenc::UTF_8, Source::Bom));
/// let found = determine(b"<meta charset=koi8-r>", &html.with_transport_label(b"gbk"));
/// assert_eq!((found.encoding, found.source), (simdenc::GBK, Source::Http));
/// let found = determine(b"<meta http-equiv=Content-Type content='text/html; charset=koi8-r'>", &html);
/// assert_eq!((found.encoding, found.source), (simdenc::KOI8_R, Source::Meta));
/// let found = determine(b"<?xml version='1.0' encoding='windows-1251'?>", &html);
/// assert_eq!((found.encoding, found.source), (simdenc::WINDOWS_1251, Source::Xml));
/// let found = determine(b"plain", &html);
/// assert_eq!((found.encoding, found.source, found.confidence), (simdenc::WINDOWS_1252, Source::Default, 0.0));
/// ```
pub fn determine(bytes: &[u8], options: &Options) -> Sniffed {
    if let Some(found) = declared(bytes, options) {
        return found;
    }
    undeclared(bytes, options)
}

/// Steps 1 to 5: what the bytes or their transport declare.
fn declared(bytes: &[u8], options: &Options) -> Option<Sniffed> {
    // 1. If the result of BOM sniffing is an encoding, return that encoding with confidence
    //    certain.
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return Some(Sniffed::declared(encoding, Source::Bom));
    }
    // 2. (A user's explicit override: no input here.)
    // 3. (The user agent may wait for more bytes: see `Sniffer`.)
    // 4. If the transport layer specifies a character encoding, and it is supported, return
    //    that encoding with the confidence certain.
    if let Some(encoding) = options.transport {
        return Some(Sniffed::declared(encoding, Source::Http));
    }
    // 5. Optionally, prescan the byte stream to determine its encoding, with the end condition
    //    being when the user agent decides that scanning further bytes would not be efficient
    //    (here: at byte 1024). If it returns an encoding, return it with confidence tentative.
    if options.markup == Markup::Html
        && let Some((encoding, source)) = prescan_with_source(bytes)
    {
        return Some(Sniffed::declared(encoding, source));
    }
    None
}

/// What [`declared`] says of a prefix of the input when more bytes cannot change it: a byte
/// order mark, the transport layer (the caller has seen three bytes without a byte order mark),
/// a `<meta>` or the UTF-16 `<?x` check (the prescan finds the same first declaration in any
/// longer input). Not the XML declaration: it counts only when the prescan finds nothing, which
/// more bytes can change.
#[cfg(feature = "alloc")]
fn declared_early(prefix: &[u8], options: &Options) -> Option<Sniffed> {
    if let Some((encoding, _)) = Encoding::for_bom(prefix) {
        return Some(Sniffed::declared(encoding, Source::Bom));
    }
    if let Some(encoding) = options.transport {
        return Some(Sniffed::declared(encoding, Source::Http));
    }
    if options.markup == Markup::Html
        && let Prescan::Found(found) = prescan_bytes(&prefix[..prefix.len().min(PRESCAN_BYTES)])
    {
        return Some(Sniffed::declared(found.encoding, found.source));
    }
    None
}

/// Steps 6 to 9, when nothing was declared.
fn undeclared(bytes: &[u8], options: &Options) -> Sniffed {
    // 6. and 7. (A parent document's encoding, a remembered one: no input here.)
    // 8. The user agent may attempt to autodetect the character encoding from applying
    //    frequency analysis or other algorithms to the data stream.
    #[cfg(not(feature = "alloc"))]
    let _ = bytes;
    if options.guess {
        #[cfg(feature = "alloc")]
        {
            let guess = crate::detect::guess(bytes, options.markup);
            // Confidence 0: nothing to decide on (no byte above 0x7F); the default is as good.
            if guess.confidence > 0.0 {
                return Sniffed {
                    encoding: guess.encoding,
                    source: Source::Guess,
                    confidence: guess.confidence,
                };
            }
        }
    }
    // 9. Otherwise, return an implementation-defined or user-specified default character
    //    encoding, with the confidence tentative.
    Sniffed {
        encoding: options.default_encoding,
        source: Source::Default,
        confidence: 0.0,
    }
}

/// How many bytes [`Sniffer`] reads before it guesses: the frequency analysis sees at most
/// this prefix of the input.
pub const GUESS_BYTES: usize = 64 * 1024;

/// The streaming form of [`determine`]: feed it the input as it arrives; it decides as soon as
/// the answer cannot change (a byte order mark, a transport-layer charset once three bytes
/// have shown there is no byte order mark, a `<meta>` found by the prescan), else once it has
/// [`GUESS_BYTES`] bytes (or [`PRESCAN_BYTES`] when the guess is off), else at [`finish`].
/// It keeps the bytes it was fed until it decides, so that they can be decoded then.
///
/// [`finish`]: Sniffer::finish
///
/// ```
/// use simdenc::sniff::{Markup, Options, Sniffer, Source};
/// let mut sniffer = Sniffer::new(Options::new(Markup::Html));
/// assert_eq!(sniffer.feed(b"<!doctype html><me"), None);
/// let found = sniffer.feed(b"ta charset=euc-kr><p>").unwrap();
/// assert_eq!((found.encoding, found.source), (simdenc::EUC_KR, Source::Meta));
/// assert_eq!(sniffer.buffered(), b"<!doctype html><meta charset=euc-kr><p>");
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub struct Sniffer {
    options: Options,
    buffer: alloc::vec::Vec<u8>,
    decided: Option<Sniffed>,
}

#[cfg(feature = "alloc")]
impl Sniffer {
    /// A sniffer that has seen nothing yet.
    ///
    /// ```
    /// let sniffer = simdenc::sniff::Sniffer::new(simdenc::sniff::Options::new(simdenc::sniff::Markup::Text));
    /// assert!(sniffer.buffered().is_empty());
    /// ```
    pub fn new(options: Options) -> Self {
        Sniffer {
            options,
            buffer: alloc::vec::Vec::new(),
            decided: None,
        }
    }

    /// How many bytes decide without any declaration.
    fn limit(&self) -> usize {
        if self.options.guess {
            GUESS_BYTES
        } else {
            PRESCAN_BYTES
        }
    }

    /// Takes the next bytes of the input: the decision once there is one. Bytes fed after the
    /// decision are not kept.
    ///
    /// ```
    /// use simdenc::sniff::{Markup, Options, Sniffer, Source};
    /// let mut sniffer = Sniffer::new(Options::new(Markup::Text).with_transport_label(b"gbk"));
    /// assert_eq!(sniffer.feed(b"ab"), None); // a byte order mark could still come
    /// assert_eq!(sniffer.feed(b"c").map(|found| found.source), Some(Source::Http));
    /// ```
    pub fn feed(&mut self, bytes: &[u8]) -> Option<Sniffed> {
        if self.decided.is_some() {
            return self.decided;
        }
        self.buffer.extend_from_slice(bytes);
        let buffer = &self.buffer[..];
        // The same answer as `determine` over the first `limit` bytes, however the input was cut.
        let settled = if buffer.len() >= self.limit() {
            Some(determine(&buffer[..self.limit()], &self.options))
        } else if Encoding::for_bom(buffer).is_some() || buffer.len() >= 3 {
            declared_early(buffer, &self.options)
        } else {
            None
        };
        self.decided = settled;
        settled
    }

    /// Decides with what was fed, at the end of the input.
    ///
    /// ```
    /// use simdenc::sniff::{Markup, Options, Sniffer, Source};
    /// let mut sniffer = Sniffer::new(Options::new(Markup::Html).with_guess(false));
    /// assert_eq!(sniffer.feed(b"<p>hi"), None);
    /// assert_eq!(sniffer.finish().source, Source::Default);
    /// ```
    pub fn finish(&mut self) -> Sniffed {
        if let Some(decided) = self.decided {
            return decided;
        }
        let decided = determine(&self.buffer[..self.buffer.len().min(self.limit())], &self.options);
        self.decided = Some(decided);
        decided
    }

    /// The bytes fed before the decision.
    pub fn buffered(&self) -> &[u8] {
        &self.buffer
    }

    /// The decision, if made.
    pub fn decision(&self) -> Option<Sniffed> {
        self.decided
    }
}

/// "Prescan a byte stream to determine its encoding", then "get an XML encoding" if it found
/// nothing: the encoding a document declares in its first bytes.
///
/// UTF-16 labels in a `<meta>` or an XML declaration mean UTF-8 and x-user-defined means
/// windows-1252, as the algorithms say; the prescan's UTF-16 `<?x` check returns UTF-16LE or
/// UTF-16BE.
///
/// ```
/// use simdenc::sniff::prescan;
/// assert_eq!(prescan(b"<meta charset=utf-16>"), Some(simdenc::UTF_8));
/// assert_eq!(prescan(b"<!-- <meta charset=gbk> --><meta charset=big5>"), Some(simdenc::BIG5));
/// assert_eq!(prescan(b"<meta content='charset=gbk'>"), None); // content needs http-equiv
/// assert_eq!(prescan(b"<title>x</title>"), None);
/// ```
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    prescan_with_source(bytes).map(|(encoding, _)| encoding)
}

/// An encoding declared in a document's first bytes, and where its label is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The encoding, after the prescan's own substitutions (UTF-16 labels mean UTF-8,
    /// x-user-defined means windows-1252).
    pub encoding: &'static Encoding,
    /// [`Source::Meta`] or [`Source::Xml`].
    pub source: Source,
    /// Where the label is in the input: the value of a `charset` attribute (inside its quotes,
    /// whitespace included), the label after `charset=` in a `content` attribute, or the
    /// `encoding` of an XML declaration. `None` for the prescan's UTF-16 `<?x` check, which
    /// has no label. A tool converting the document to another encoding can write the new
    /// encoding's name there.
    pub label: Option<Range<usize>>,
}

/// [`prescan`] with the source and the place of the label.
///
/// ```
/// use simdenc::sniff::{declaration, Source};
/// let page = b"<meta http-equiv=content-type content='text/html; charset=koi8-r'>";
/// let found = declaration(page).unwrap();
/// assert_eq!((found.encoding, found.source), (simdenc::KOI8_R, Source::Meta));
/// assert_eq!(&page[found.label.unwrap()], b"koi8-r");
/// ```
pub fn declaration(bytes: &[u8]) -> Option<Declaration> {
    match prescan_bytes(&bytes[..bytes.len().min(PRESCAN_BYTES)]) {
        Prescan::Found(found) => Some(found),
        // The prescan aborted or reached its end condition: "get an XML encoding".
        Prescan::Aborted => xml_encoding_at(bytes).map(|(encoding, label)| Declaration {
            encoding,
            source: Source::Xml,
            label: Some(label),
        }),
    }
}

fn prescan_with_source(bytes: &[u8]) -> Option<(&'static Encoding, Source)> {
    declaration(bytes).map(|found| (found.encoding, found.source))
}

enum Prescan {
    Found(Declaration),
    Aborted,
}

/// Where a byte-level step ran out of input: the prescan aborts.
struct OutOfBytes;

/// The prescan's bytes with a position into them.
struct Stream<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl Stream<'_> {
    /// The byte at the position.
    fn byte(&self) -> Result<u8, OutOfBytes> {
        self.bytes.get(self.position).copied().ok_or(OutOfBytes)
    }

    fn rest(&self) -> &[u8] {
        self.bytes.get(self.position..).unwrap_or(&[])
    }

    /// Advances the position to the first byte at or after it for which `stop` holds.
    fn advance_to(&mut self, stop: impl Fn(u8) -> bool) -> Result<(), OutOfBytes> {
        let skipped = self.rest().iter().position(|&b| stop(b)).ok_or(OutOfBytes)?;
        self.position += skipped;
        Ok(())
    }
}

/// 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR) or 0x20 (SP).
fn is_space(b: u8) -> bool {
    matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

/// The prescan proper, over bytes already cut at its end condition.
fn prescan_bytes(bytes: &[u8]) -> Prescan {
    // 1. Let position be a pointer to a byte in the input byte stream, initially pointing at the
    //    first byte.
    let mut stream = Stream { bytes, position: 0 };
    // 2. Prescan for UTF-16 XML declarations: a sequence starting 0x3C 0x00 0x3F 0x00 0x78 0x00
    //    (case-sensitive UTF-16 little-endian '<?x') returns UTF-16LE; 0x00 0x3C 0x00 0x3F 0x00
    //    0x78 (big-endian '<?x') returns UTF-16BE.
    if bytes.starts_with(&[0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00]) {
        return Prescan::Found(Declaration {
            encoding: UTF_16LE,
            source: Source::Xml,
            label: None,
        });
    }
    if bytes.starts_with(&[0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78]) {
        return Prescan::Found(Declaration {
            encoding: UTF_16BE,
            source: Source::Xml,
            label: None,
        });
    }
    match prescan_loop(&mut stream) {
        Ok(Some((encoding, label))) => Prescan::Found(Declaration {
            encoding,
            source: Source::Meta,
            label: Some(label),
        }),
        Ok(None) | Err(OutOfBytes) => Prescan::Aborted,
    }
}

/// Step 3 onwards: `Ok(Some)` when a `<meta>` declares an encoding, `Ok(None)` at the end of
/// the bytes, `Err` when a construct runs past them. Every branch moves the position forwards,
/// and every search starts at the position, so the loop is linear in the length of the bytes.
fn prescan_loop(stream: &mut Stream<'_>) -> Result<Option<(&'static Encoding, Range<usize>)>, OutOfBytes> {
    // 3. Loop: if position points to ...
    while stream.position < stream.bytes.len() {
        let rest = stream.rest();
        if rest.starts_with(b"<!--") {
            // ... 0x3C 0x21 0x2D 0x2D (`<!--`): advance the position pointer so that it points
            // at the first 0x3E byte which is preceded by two 0x2D bytes (the end of a `-->`)
            // and comes after the 0x3C byte found. The two 0x2D bytes can be those of `<!--`.
            let end = rest[2..].windows(3).position(|w| w == b"-->").ok_or(OutOfBytes)?;
            stream.position += 2 + end + 2;
        } else if is_meta_start(rest) {
            // ... case-insensitive `<meta` followed by a space or a slash:
            if let Some(found) = meta(stream)? {
                return Ok(Some(found));
            }
        } else if is_tag_start(rest) {
            // ... 0x3C, optionally 0x2F, then an ASCII letter (a tag):
            // 1. Advance the position pointer so that it points at the next 0x09, 0x0A, 0x0C,
            //    0x0D, 0x20 or 0x3E byte.
            stream.advance_to(|b| is_space(b) || b == b'>')?;
            // 2. Repeatedly get an attribute until no further attributes can be found, then
            //    jump to the step below labeled next byte.
            while get_an_attribute(stream)?.is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            // ... `<!`, `</` or `<?`: advance the position pointer so that it points at the first
            // 0x3E byte which comes after the 0x3C byte that was found.
            stream.position += 1;
            stream.advance_to(|b| b == b'>')?;
        }
        // Any other byte: do nothing with that byte.
        // Next byte: move position so it points at the next byte in the input byte stream, and
        // return to the step above labeled loop.
        stream.position += 1;
    }
    Ok(None)
}

fn is_meta_start(rest: &[u8]) -> bool {
    rest.len() >= 6 && rest[..5].eq_ignore_ascii_case(b"<meta") && (is_space(rest[5]) || rest[5] == b'/')
}

fn is_tag_start(rest: &[u8]) -> bool {
    match rest {
        [b'<', b'/', letter, ..] | [b'<', letter, ..] => letter.is_ascii_alphabetic(),
        _ => false,
    }
}

/// The `<meta` branch of the loop, from its step 1: `Ok(Some)` to return an encoding,
/// `Ok(None)` to go on with the next byte.
fn meta(stream: &mut Stream<'_>) -> Result<Option<(&'static Encoding, Range<usize>)>, OutOfBytes> {
    // 1. Advance the position pointer so that it points at the next 0x09, 0x0A, 0x0C, 0x0D,
    //    0x20, or 0x2F byte (the one in the sequence of characters matched above).
    stream.position += 5;
    // 2. Let attribute list be an empty list of strings. (Only three names matter: a repeat of
    //    any other changes nothing, so three flags stand for the list.)
    let (mut seen_http_equiv, mut seen_content, mut seen_charset) = (false, false, false);
    // 3. Let got pragma be false.
    let mut got_pragma = false;
    // 4. Let need pragma be null.
    let mut need_pragma: Option<bool> = None;
    // 5. Let charset be the null value (distinct from an unrecognized encoding or the empty
    //    string). `Some(None)` stands for failure.
    let mut charset: Option<Option<&'static Encoding>> = None;
    // Where the label that set charset is in the input.
    let mut label = 0..0;
    // 6. Attributes: get an attribute and its value. If no attribute was sniffed, then jump to
    //    the processing step below.
    while let Some(attribute) = get_an_attribute(stream)? {
        // 7. If the attribute's name is already in attribute list, then return to the step
        //    labeled attributes. 8. Add the attribute's name to attribute list.
        // 9. Run the appropriate step from the following list, if one applies:
        let name = attribute.name;
        if name.eq_ignore_ascii_case(b"http-equiv") && !seen_http_equiv {
            seen_http_equiv = true;
            // If the attribute's value is "content-type", then set got pragma to true.
            if attribute.value.eq_ignore_ascii_case(b"content-type") {
                got_pragma = true;
            }
        } else if name.eq_ignore_ascii_case(b"content") && !seen_content {
            seen_content = true;
            // Apply the algorithm for extracting a character encoding from a meta element,
            // giving the attribute's value as the string to parse. If a character encoding is
            // returned, and if charset is still set to null, let charset be the encoding
            // returned, and set need pragma to true.
            if charset.is_none()
                && let Some((encoding, at)) = meta_content_charset_at(attribute.value)
            {
                charset = Some(Some(encoding));
                need_pragma = Some(true);
                label = attribute.value_at.start + at.start..attribute.value_at.start + at.end;
            }
        } else if name.eq_ignore_ascii_case(b"charset") && !seen_charset {
            seen_charset = true;
            // Let charset be the result of getting an encoding from the attribute's value, and
            // set need pragma to false.
            charset = Some(Encoding::for_label(attribute.value));
            need_pragma = Some(false);
            label = attribute.value_at.clone();
        }
        // 10. Return to the step labeled attributes.
    }
    // 11. Processing: if need pragma is null, then jump to the step below labeled next byte.
    let Some(need_pragma) = need_pragma else {
        return Ok(None);
    };
    // 12. If need pragma is true but got pragma is false, then jump to the step below labeled
    //     next byte.
    if need_pragma && !got_pragma {
        return Ok(None);
    }
    // 13. If charset is failure, then jump to the step below labeled next byte.
    let Some(Some(mut encoding)) = charset else {
        return Ok(None);
    };
    // 14. If charset is UTF-16BE/LE, then set charset to UTF-8.
    if encoding == UTF_16BE || encoding == UTF_16LE {
        encoding = UTF_8;
    }
    // 15. If charset is x-user-defined, then set charset to windows-1252.
    if encoding == X_USER_DEFINED {
        encoding = WINDOWS_1252;
    }
    // 16. Abort the prescan a byte stream to determine its encoding algorithm, returning the
    //     encoding given by charset.
    Ok(Some((encoding, label)))
}

/// An attribute as "get an attribute" collects it. Its name and value are slices of the input:
/// the algorithm lowercases ASCII letters as it appends them, and everything this module
/// compares them with is compared ASCII case-insensitively, which comes to the same.
struct Attribute<'a> {
    name: &'a [u8],
    value: &'a [u8],
    /// Where `value` is in the input.
    value_at: Range<usize>,
}

impl<'a> Attribute<'a> {
    fn new(bytes: &'a [u8], name: Range<usize>, value: Range<usize>) -> Self {
        Attribute {
            name: &bytes[name],
            value: &bytes[value.clone()],
            value_at: value,
        }
    }
}

/// "Get an attribute": `Ok(None)` when there is none (the position at a `>`), `Err` when the
/// bytes end first.
fn get_an_attribute<'a>(stream: &mut Stream<'a>) -> Result<Option<Attribute<'a>>, OutOfBytes> {
    let bytes = stream.bytes;
    // 1. If the byte at position is one of 0x09, 0x0A, 0x0C, 0x0D, 0x20, or 0x2F, then advance
    //    position to the next byte and redo this step.
    stream.advance_to(|b| !(is_space(b) || b == b'/'))?;
    // 2. If the byte at position is 0x3E (>), then abort the get an attribute algorithm. There
    //    isn't one.
    if stream.byte()? == b'>' {
        return Ok(None);
    }
    // 3. Otherwise, the byte at position is the start of the attribute name. Let attribute name
    //    and attribute value be the empty string.
    let name_start = stream.position;
    let name_end;
    // 4. Process the byte at position as follows: (5. advance position to the next byte and
    //    return to the previous step.)
    loop {
        match stream.byte()? {
            // If it is 0x3D (=), and the attribute name is longer than the empty string, advance
            // position to the next byte and jump to the step below labeled value.
            b'=' if stream.position > name_start => {
                name_end = stream.position;
                stream.position += 1;
                break;
            }
            // If it is 0x09, 0x0A, 0x0C, 0x0D, or 0x20, jump to the step below labeled spaces.
            b if is_space(b) => {
                name_end = stream.position;
                // 6. Spaces: if the byte at position is one of 0x09, 0x0A, 0x0C, 0x0D, or 0x20,
                //    then advance position to the next byte, then repeat this step.
                stream.advance_to(|b| !is_space(b))?;
                // 7. If the byte at position is not 0x3D (=), abort the get an attribute
                //    algorithm. The attribute's name is the value of attribute name, its value
                //    is the empty string.
                if stream.byte()? != b'=' {
                    return Ok(Some(Attribute::new(
                        bytes,
                        name_start..name_end,
                        name_end..name_end,
                    )));
                }
                // 8. Advance position past the 0x3D (=) byte.
                stream.position += 1;
                break;
            }
            // If it is 0x2F (/) or 0x3E (>), abort the get an attribute algorithm. The
            // attribute's name is the value of attribute name, its value is the empty string.
            b'/' | b'>' => {
                return Ok(Some(Attribute::new(
                    bytes,
                    name_start..stream.position,
                    stream.position..stream.position,
                )));
            }
            // If it is in the range 0x41 (A) to 0x5A (Z), append the code point b+0x20 to
            // attribute name; anything else: append the code point with the same value.
            _ => stream.position += 1,
        }
    }
    let name = name_start..name_end;
    // 9. Value: if the byte at position is one of 0x09, 0x0A, 0x0C, 0x0D, or 0x20, then advance
    //    position to the next byte, then repeat this step.
    stream.advance_to(|b| !is_space(b))?;
    // 10. Process the byte at position as follows:
    match stream.byte()? {
        // If it is 0x22 (") or 0x27 ('):
        quote @ (b'"' | b'\'') => {
            // 1. Let b be the value of the byte at position. 2. Quote loop: advance position to
            // the next byte. 3. If the value of the byte at position is the value of b, then
            // advance position to the next byte and abort the "get an attribute" algorithm. The
            // attribute's name is the value of attribute name, and its value is the value of
            // attribute value. 4./5. Otherwise, append the byte (lowercased) to attribute value.
            // 6. Return to the step above labeled quote loop.
            stream.position += 1;
            let value_start = stream.position;
            stream.advance_to(|b| b == quote)?;
            let value = value_start..stream.position;
            stream.position += 1;
            return Ok(Some(Attribute::new(bytes, name, value)));
        }
        // If it is 0x3E (>), abort the get an attribute algorithm. The attribute's name is the
        // value of attribute name, its value is the empty string.
        b'>' => {
            return Ok(Some(Attribute::new(
                bytes,
                name,
                stream.position..stream.position,
            )));
        }
        // Otherwise append the byte (lowercased) to attribute value and advance position to the
        // next byte.
        _ => {}
    }
    let value_start = stream.position;
    stream.position += 1;
    // 11. Process the byte at position as follows: if it is 0x09, 0x0A, 0x0C, 0x0D, 0x20, or
    //     0x3E (>), abort the get an attribute algorithm; the attribute's name is the value of
    //     attribute name and its value is the value of attribute value. Otherwise append the
    //     byte (lowercased) to attribute value. 12. Advance position to the next byte and return
    //     to the previous step.
    stream.advance_to(|b| is_space(b) || b == b'>')?;
    Ok(Some(Attribute::new(bytes, name, value_start..stream.position)))
}

/// "The algorithm for extracting a character encoding from a meta element" (HTML 2.5.3),
/// given the value `s` of a `content` attribute: the encoding named by its `charset=`, or
/// `None` ("nothing").
///
/// ```
/// use simdenc::sniff::meta_content_charset;
/// assert_eq!(meta_content_charset(b"text/html; charset=Shift_JIS"), Some(simdenc::SHIFT_JIS));
/// assert_eq!(meta_content_charset(b"text/html; CHARSET = \"koi8-r\" ; x"), Some(simdenc::KOI8_R));
/// assert_eq!(meta_content_charset(b"charsetcharset=gbk"), Some(simdenc::GBK));
/// assert_eq!(meta_content_charset(b"charset=\"gbk"), None); // unmatched quote
/// ```
pub fn meta_content_charset(s: &[u8]) -> Option<&'static Encoding> {
    meta_content_charset_at(s).map(|(encoding, _)| encoding)
}

/// [`meta_content_charset`] and where the label is in `s`.
fn meta_content_charset_at(s: &[u8]) -> Option<(&'static Encoding, Range<usize>)> {
    // 1. Let position be a pointer into s, initially pointing at the start of the string.
    let mut position = 0;
    loop {
        // 2. Loop: find the first seven characters in s after position that are an ASCII
        //    case-insensitive match for the word "charset". If no such match is found, return
        //    nothing.
        let found = s
            .get(position..)?
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        position += found + 7;
        // 3. Skip any ASCII whitespace that immediately follow the word "charset" (there might
        //    not be any).
        while s.get(position).is_some_and(|&b| is_space(b)) {
            position += 1;
        }
        // 4. If the next character is not a U+003D EQUALS SIGN (=), then move position to point
        //    just before that next character, and jump back to the step labeled loop.
        if s.get(position) == Some(&b'=') {
            position += 1;
            break;
        }
    }
    // 5. Skip any ASCII whitespace that immediately follow the equals sign (there might not be
    //    any).
    while s.get(position).is_some_and(|&b| is_space(b)) {
        position += 1;
    }
    // 6. Process the next character as follows:
    match s.get(position) {
        // If it is a U+0022 (") and there is a later U+0022 in s, or a U+0027 (') and there is a
        // later U+0027 in s: return the result of getting an encoding from the substring that is
        // between this character and the next earliest occurrence of this character.
        // If it is an unmatched U+0022 or U+0027: return nothing.
        Some(&quote @ (b'"' | b'\'')) => {
            let start = position + 1;
            let end = start + s[start..].iter().position(|&b| b == quote)?;
            Some((Encoding::for_label(&s[start..end])?, start..end))
        }
        // If there is no next character: return nothing.
        None => None,
        // Otherwise: return the result of getting an encoding from the substring that consists
        // of this character up to but not including the first ASCII whitespace or U+003B
        // SEMICOLON character (;), or the end of s, whichever comes first.
        Some(_) => {
            let rest = &s[position..];
            let end = position
                + rest
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .unwrap_or(rest.len());
            Some((Encoding::for_label(&s[position..end])?, position..end))
        }
    }
}

/// "Get an XML encoding" over `bytes`: the encoding named by an XML declaration at the very
/// start, UTF-16 labels meaning UTF-8; `None` for failure.
///
/// ```
/// use simdenc::sniff::xml_encoding;
/// assert_eq!(xml_encoding(b"<?xml version=\"1.0\" encoding=\"EUC-JP\"?><r/>"), Some(simdenc::EUC_JP));
/// assert_eq!(xml_encoding(b"<?xml encoding='utf-16'?>"), Some(simdenc::UTF_8));
/// assert_eq!(xml_encoding(b" <?xml encoding='gbk'?>"), None); // not at the start
/// ```
pub fn xml_encoding(bytes: &[u8]) -> Option<&'static Encoding> {
    xml_encoding_at(bytes).map(|(encoding, _)| encoding)
}

/// [`xml_encoding`] and where the label is in `bytes`.
fn xml_encoding_at(bytes: &[u8]) -> Option<(&'static Encoding, Range<usize>)> {
    // 1. Let encodingPosition be a pointer to the start of the stream.
    // 2. If encodingPosition does not point to the start of a byte sequence 0x3C, 0x3F, 0x78,
    //    0x6D, 0x6C (`<?xml`), then return failure.
    if !bytes.starts_with(b"<?xml") {
        return None;
    }
    // 3. Let xmlDeclarationEnd be a pointer to the next byte in the input byte stream which is
    //    0x3E (>). If there is no such byte, then return failure.
    let end = bytes.iter().position(|&b| b == b'>')?;
    let declaration = &bytes[..end];
    // 4. Set encodingPosition to the position of the first occurrence of the subsequence of
    //    bytes `encoding` at or after the current encodingPosition. If there is no such
    //    sequence, then return failure.
    // 5. Advance encodingPosition past the 0x67 (g) byte.
    let mut position = declaration.windows(8).position(|w| w == b"encoding")? + 8;
    // 6. While the byte at encodingPosition is less than or equal to 0x20 (i.e., it is either an
    //    ASCII space or control character), advance encodingPosition to the next byte.
    while *declaration.get(position)? <= 0x20 {
        position += 1;
    }
    // 7. If the byte at encodingPosition is not 0x3D (=), then return failure.
    if declaration[position] != b'=' {
        return None;
    }
    // 8. Advance encodingPosition to the next byte.
    position += 1;
    // 9. While the byte at encodingPosition is less than or equal to 0x20, advance
    //    encodingPosition to the next byte.
    while *declaration.get(position)? <= 0x20 {
        position += 1;
    }
    // 10. Let quoteMark be the byte at encodingPosition.
    let quote = declaration[position];
    // 11. If quoteMark is not either 0x22 (") or 0x27 ('), then return failure.
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    // 12. Advance encodingPosition to the next byte.
    position += 1;
    // 13. Let encodingEndPosition be the position of the next occurrence of quoteMark at or
    //     after encodingPosition. If quoteMark does not occur again, then return failure.
    let length = declaration[position..].iter().position(|&b| b == quote)?;
    // 14. Let potentialEncoding be the sequence of the bytes between encodingPosition
    //     (inclusive) and encodingEndPosition (exclusive).
    let potential = &declaration[position..position + length];
    // 15. If potentialEncoding contains one or more bytes whose byte value is 0x20 or below,
    //     then return failure.
    if potential.iter().any(|&b| b <= 0x20) {
        return None;
    }
    // 16. Let encoding be the result of getting an encoding given potentialEncoding isomorphic
    //     decoded.
    let encoding = Encoding::for_label(potential)?;
    // 17. If the encoding is UTF-16BE/LE, then change it to UTF-8.
    // 18. Return encoding.
    let encoding = if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else {
        encoding
    };
    Some((encoding, position..position + length))
}
