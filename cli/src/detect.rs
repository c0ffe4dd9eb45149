//! `simdenc detect`, and the decision `convert -f auto` makes for each input: the HTML
//! Standard's encoding sniffing (`simdenc::sniff`) over the start of the input, with the
//! frequency-analysis guess of `simdenc::detect` when nothing is declared.

use std::io::{self, Read};
use std::path::Path;
use std::process::ExitCode;

use rayon::prelude::*;
use simdenc::detect::Detector;
use simdenc::sniff::{Markup, Options, Sniffed, Sniffer, Source};

use crate::errors::{Failure, print_stdout};
use crate::files::{self, Input};
use crate::{DetectArgs, DetectFormat, labels};

/// Whether inputs are HTML, plain text, or decided per input (`--html`, `--text`, neither).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Html,
    Text,
    /// By the file's extension, else by how its content starts.
    ByInput,
}

impl Kind {
    pub fn from_flags(html: bool, text: bool) -> Kind {
        match (html, text) {
            (true, _) => Kind::Html,
            (_, true) => Kind::Text,
            _ => Kind::ByInput,
        }
    }
}

/// HTML by extension (`.html`, `.htm`, `.xhtml`, `.xht`, `.shtml`), text by extension
/// (`.txt`, `.text`, `.csv`, `.tsv`, `.md`), else HTML when the content starts (after a byte
/// order mark and whitespace) with `<!doctype html`, `<html`, `<head`, `<meta`, `<body`,
/// `<title`, `<!--` or `<?xml`, ASCII case-insensitively.
pub fn markup_of(kind: Kind, path: Option<&Path>, head: &[u8]) -> Markup {
    match kind {
        Kind::Html => return Markup::Html,
        Kind::Text => return Markup::Text,
        Kind::ByInput => {}
    }
    let extension = path
        .and_then(Path::extension)
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("html" | "htm" | "xhtml" | "xht" | "shtml") => return Markup::Html,
        Some("txt" | "text" | "csv" | "tsv" | "md") => return Markup::Text,
        _ => {}
    }
    let head = simdenc::Encoding::for_bom(head).map_or(head, |(_, len)| &head[len..]);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let head = &head[start..];
    const STARTS: [&[u8]; 8] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<meta",
        b"<body",
        b"<title",
        b"<!--",
        b"<?xml",
    ];
    let html = STARTS
        .iter()
        .any(|start| head.len() >= start.len() && head[..start.len()].eq_ignore_ascii_case(start));
    if html { Markup::Html } else { Markup::Text }
}

/// The options `detect` and `convert -f auto` share.
#[derive(Clone, Copy, Debug)]
pub struct SniffPlan {
    pub kind: Kind,
    pub transport: Option<&'static simdenc::Encoding>,
    pub guess: bool,
    pub default: &'static simdenc::Encoding,
}

impl SniffPlan {
    fn options(&self, markup: Markup) -> Options {
        let mut options = Options::new(markup)
            .with_guess(self.guess)
            .with_default(self.default);
        options.transport = self.transport;
        options
    }
}

/// How much is read at a time while sniffing.
const READ_SIZE: usize = 16 * 1024;

/// Reads `input` until the sniffer decides (or the input ends): the decision, the markup it
/// was made for, and the bytes read before the declared steps decided, which the caller decodes
/// before the rest. With `whole` (a file the caller can rewind), a guess reads all of the input
/// (its UTF-8 check runs to the end; only a bounded prefix is scored), leaving it at its end;
/// otherwise the guess sees the first `simdenc::sniff::GUESS_BYTES`, all of them kept.
pub fn sniff_reader<R: Read>(
    mut input: R,
    path: Option<&Path>,
    plan: &SniffPlan,
    whole: bool,
) -> io::Result<(Sniffed, Markup, Vec<u8>)> {
    let mut chunk = vec![0u8; READ_SIZE];
    let mut filled = 0;
    // The kind is decided on the first bytes (enough for the content rules).
    while filled < 64 {
        match read_some(&mut input, &mut chunk[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    let markup = markup_of(plan.kind, path, &chunk[..filled]);
    let mut options = plan.options(markup);
    if whole {
        options.guess = false;
    }
    let mut sniffer = Sniffer::new(options);
    let mut decided = sniffer.feed(&chunk[..filled]);
    while decided.is_none() {
        match read_some(&mut input, &mut chunk)? {
            0 => break,
            n => decided = sniffer.feed(&chunk[..n]),
        }
    }
    let decided = decided.unwrap_or_else(|| sniffer.finish());
    let buffered = sniffer.buffered().to_vec();
    if !(whole && plan.guess && decided.source == Source::Default) {
        return Ok((decided, markup, buffered));
    }
    let mut detector = Detector::new(markup);
    detector.feed(&buffered);
    loop {
        match read_some(&mut input, &mut chunk)? {
            0 => break,
            n => detector.feed(&chunk[..n]),
        }
    }
    let guess = detector.guess();
    let decided = if guess.confidence > 0.0 {
        Sniffed {
            encoding: guess.encoding,
            source: Source::Guess,
            confidence: guess.confidence,
        }
    } else {
        decided
    };
    Ok((decided, markup, buffered))
}

fn read_some<R: Read>(input: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match input.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            r => return r,
        }
    }
}

/// One input's decision, or why there is none.
enum Found {
    Decided(Sniffed),
    Unreadable(String),
}

fn detect_one(input: &Input, plan: &SniffPlan) -> Found {
    let result = match input {
        Input::Stdin => sniff_reader(io::stdin().lock(), None, plan, false),
        Input::File { path, .. } => match files::open(path) {
            Ok((file, meta)) => sniff_reader(file, Some(path), plan, meta.is_file()),
            Err(message) => return Found::Unreadable(message),
        },
    };
    match result {
        Ok((sniffed, _, _)) => Found::Decided(sniffed),
        Err(e) => Found::Unreadable(format!("cannot read {}: {e}", input.display())),
    }
}

/// One line of `--format json`: exactly the four keys, in this order.
pub fn json_line(file: &str, sniffed: &Sniffed) -> String {
    // serde_json writes an f32 by its shortest representation; round to 4 digits so that
    // figures such as 0.9 read as they are.
    let confidence = (f64::from(sniffed.confidence) * 1e4).round() / 1e4;
    format!(
        "{{\"file\": {}, \"encoding\": {}, \"source\": \"{}\", \"confidence\": {}}}",
        serde_json::to_string(file).unwrap_or_else(|_| "\"?\"".into()),
        serde_json::to_string(sniffed.encoding.name()).unwrap_or_default(),
        sniffed.source,
        serde_json::Number::from_f64(confidence).map_or_else(|| "0".into(), |n| n.to_string()),
    )
}

/// `simdenc detect`.
pub fn run(args: &DetectArgs) -> Result<ExitCode, Failure> {
    let plan = SniffPlan {
        kind: Kind::from_flags(args.html, args.text),
        transport: match &args.http_charset {
            // An unknown label is ignored by the standard's step, but on a command line it is
            // far more likely a typo: refuse it.
            Some(label) => Some(labels::resolve(label, "--http-charset")?),
            None => None,
        },
        guess: !args.no_guess,
        default: match &args.default {
            Some(label) => labels::resolve(label, "--default")?,
            None => simdenc::WINDOWS_1252,
        },
    };
    let threads = crate::threads(args.jobs)?;
    let inputs = files::expand(&args.inputs, args.recursive, None)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Message(format!("cannot start {threads} threads: {e}")))?;
    let found: Vec<Found> =
        pool.install(|| inputs.par_iter().map(|input| detect_one(input, &plan)).collect());
    let mut out = String::new();
    let mut failed = false;
    for (input, found) in inputs.iter().zip(found) {
        let name = input.display();
        match found {
            Found::Decided(sniffed) => match args.format {
                DetectFormat::Json => {
                    out.push_str(&json_line(&name, &sniffed));
                    out.push('\n');
                }
                DetectFormat::Text => out.push_str(&format!(
                    "{name}: {} ({}, confidence {:.2})\n",
                    sniffed.encoding.name(),
                    sniffed.source,
                    sniffed.confidence
                )),
            },
            Found::Unreadable(message) => {
                failed = true;
                crate::errors::eprintln_safe(&format!("simdenc: {message}"));
            }
        }
    }
    print_stdout(&out)?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_by_extension_then_content() {
        fn p(s: &str) -> Option<&Path> {
            Some(Path::new(s))
        }
        assert_eq!(markup_of(Kind::ByInput, p("a.HTML"), b"plain"), Markup::Html);
        assert_eq!(markup_of(Kind::ByInput, p("a.txt"), b"<html>"), Markup::Text);
        assert_eq!(
            markup_of(Kind::ByInput, p("a.dat"), b"\xEF\xBB\xBF \n<!DOCTYPE HTML>"),
            Markup::Html
        );
        assert_eq!(
            markup_of(Kind::ByInput, None, b"<?xml version='1.0'?>"),
            Markup::Html
        );
        assert_eq!(markup_of(Kind::ByInput, None, b"hello <html>"), Markup::Text);
        assert_eq!(markup_of(Kind::Text, p("a.html"), b"<html>"), Markup::Text);
        assert_eq!(markup_of(Kind::Html, p("a.txt"), b"x"), Markup::Html);
    }

    #[test]
    fn json_has_the_four_keys() {
        let sniffed = Sniffed {
            encoding: simdenc::SHIFT_JIS,
            source: simdenc::sniff::Source::Meta,
            confidence: 1.0,
        };
        assert_eq!(
            json_line("dir/a \"b\".html", &sniffed),
            r#"{"file": "dir/a \"b\".html", "encoding": "Shift_JIS", "source": "meta", "confidence": 1.0}"#
        );
        let value: serde_json::Value = serde_json::from_str(&json_line("x", &sniffed)).unwrap();
        assert_eq!(value.as_object().unwrap().len(), 4);
    }
}
