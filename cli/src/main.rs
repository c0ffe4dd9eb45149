//! The `simdenc` command: `convert` (iconv-compatible flags), `validate`, `labels`, and
//! `bench` (throughput per SIMD level on a bundled corpus, saved and compared across CPUs).
//!
//! Built on the library's `simdenc::io` adapters: every conversion streams through
//! fixed-size buffers, so memory stays flat whatever the input size. Output files are written
//! to a temporary file in the destination directory and renamed into place, so a failed
//! conversion never leaves a partial output and never touches an existing one.
//!
//! Exit status: 0 success; 1 an input was invalid (fatal mode, `validate`), a character
//! could not be encoded (`--errors=replace|fatal`), an I/O error occurred, or standard output
//! was closed at start (`>&-`); 2 usage errors (bad flags, unknown labels, `SIMDENC_LEVEL`).
//! A reader that closes standard output early (broken pipe) ends the run quietly with 0.
#![cfg_attr(not(feature = "peers"), forbid(unsafe_code))]
// With `--features peers`, `bench::simdutf` calls simdutf's C++ and is the one module allowed
// `unsafe`.
#![cfg_attr(feature = "peers", deny(unsafe_code))]

mod bench;
mod convert;
mod detect;
mod errors;
mod files;
mod labels;
mod pieces;
mod report;
mod validate;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::errors::Failure;

const EXAMPLES: &str = "\
Examples:
  simdenc convert -f shift_jis -t utf-8 data/samples/mars-ja.shift_jis.txt
  simdenc convert -f gbk -t utf-8 -o out.txt in.txt       # atomic: out.txt appears only on success
  iconv-style: simdenc convert --from-code=latin1 --to-code=utf-8 < in > out
  simdenc convert -f utf-8 -t windows-1252 --errors=html page.txt   # unmappable -> &#N;
  simdenc convert -f euc-jp -t utf-8 --errors=fatal a.txt  # exit 1 at the first malformed byte
  simdenc convert -f gbk -t utf-8 -r --out-dir utf8/ legacy/ -j 8
  simdenc convert -f windows-1251 -t utf-8 --in-place *.txt
  simdenc validate -f shift_jis *.txt
  simdenc labels
  simdenc bench                                           # MB/s per SIMD level, about 1.5 minutes
  simdenc bench --compare a.json b.json                   # two saved runs, with an SVG chart";

/// Convert text between the encodings of the WHATWG Encoding Standard, exactly.
#[derive(Parser, Debug)]
#[command(name = "simdenc", version, after_help = EXAMPLES, arg_required_else_help = true)]
struct Cli {
    /// List every encoding with its labels (as `iconv -l`), then exit.
    #[arg(short = 'l', long = "list")]
    list: bool,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Convert files (or standard input) from one encoding to another.
    #[command(after_help = CONVERT_HELP)]
    Convert(ConvertArgs),
    /// Check that files are valid in an encoding (the standard's fatal mode).
    #[command(after_help = VALIDATE_HELP)]
    Validate(ValidateArgs),
    /// Tell the encoding of files: byte order mark, declared charset, or a guess.
    #[command(after_help = DETECT_HELP)]
    Detect(DetectArgs),
    /// List every encoding with its labels (`--aliases`: the other names accepted).
    Labels(LabelsArgs),
    /// Measure throughput at every SIMD level on the bundled corpus; save and compare runs.
    #[command(after_help = bench::BENCH_HELP)]
    Bench(bench::BenchArgs),
}

const CONVERT_HELP: &str = "\
Labels are those of the Encoding Standard (228 of them; see `simdenc labels`), trimmed and
case-insensitive. The target is written as the standard's encoder writes it; -t utf-16le and
-t utf-16be (and utf-16, which is utf-16le) write UTF-16 without a BOM, an extension: the
standard itself only encodes to UTF-8 for those labels. iconv's //IGNORE suffix on -t means -c.

Errors:            malformed input     unmappable character
  replace          U+FFFD              error (exit 1), as iconv
  html             U+FFFD              &#N;
  fatal            error (exit 1)      error (exit 1)
  -c               dropped             dropped
The default is the standard's decode and encode: replace when the target is UTF-8 or UTF-16
(nothing is unmappable), html otherwise. Errors report the byte offset in the input and the
offending bytes or character; the output file is then not created.

Output: standard output by default (inputs concatenated); -o FILE (inputs concatenated);
--out-dir DIR (one output per input, converted in parallel; with -r, directories are walked
and their layout kept); --in-place (each input atomically replaced). Inputs are never
overwritten otherwise, and a file named twice (by two paths or a link) is converted once.
With -r, the output directory and the temporary files of an interrupted run
(.NAME.simdenc-XXXXXX.tmp) are not walked.

Examples:
  simdenc convert -f shift_jis -t utf-8 data/samples/mars-ja.shift_jis.txt
  simdenc convert -f utf-8 -t iso-2022-jp -o mail.txt draft.txt
  simdenc convert -f windows-1252 -t utf-8 --errors=fatal --bom=keep in.csv -o out.csv
  simdenc convert -f gb18030 -t utf-8 -r --out-dir utf8/ corpus/ -j 4";

const DETECT_HELP: &str = "\
Each input's encoding is determined as the HTML Standard's encoding sniffing algorithm does:
a byte order mark; else the transport layer's charset (--http-charset); else, for HTML, a
<meta charset> or <meta http-equiv=Content-Type> in the first 1024 bytes, or an XML
declaration; else a guess by frequency analysis of the first 64 KiB (--no-guess: skip it);
else the default (--default, windows-1252 unless given). HTML or text is decided by the file's
extension, else by how it starts (--html, --text: force it).

Output: one line per input, `FILE: ENCODING (SOURCE, confidence C)`; with --format json, one
JSON object per line: {\"file\": PATH, \"encoding\": NAME, \"source\": SOURCE, \"confidence\": C},
NAME as the standard spells it (Shift_JIS, windows-1252), SOURCE one of bom, http, meta, xml,
guess, default; C is 1 for bom, http, meta and xml, the detector's estimate for guess, 0 for
default. Exit status 1 if an input cannot be read.

Examples:
  simdenc detect *.html
  simdenc detect --format json -r corpus/ > encodings.jsonl
  simdenc detect --http-charset shift_jis --no-guess page.html";

const VALIDATE_HELP: &str = "\
Each FILE is decoded in the standard's fatal mode; the first error's byte offset and bytes
are printed. Exit status 1 if any file is invalid or unreadable.

Examples:
  simdenc validate page.html                    # UTF-8
  simdenc validate -f shift_jis -r docs/";

/// What to do with malformed input and unmappable characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ErrorsArg {
    /// Malformed input becomes U+FFFD; an unmappable character is an error.
    Replace,
    /// Malformed input becomes U+FFFD; an unmappable character becomes &#N;.
    Html,
    /// Stop at the first malformed input or unmappable character.
    Fatal,
}

/// Byte order mark handling when decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BomArg {
    /// A UTF-8 or UTF-16 BOM selects that encoding and is removed (the standard's decode).
    Sniff,
    /// Only the source encoding's own BOM is removed.
    Strip,
    /// A BOM is data.
    Keep,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The source encoding (any label of the standard), or `auto`: determined per input as
    /// `simdenc detect` does.
    #[arg(
        short = 'f',
        long = "from-code",
        visible_alias = "from",
        value_name = "FROM",
        default_value = "utf-8"
    )]
    pub from: String,

    /// With -f auto: the encoding when nothing else decides (default windows-1252).
    #[arg(long, value_name = "LABEL")]
    pub default: Option<String>,

    /// With -f auto: skip the frequency-analysis guess.
    #[arg(long)]
    pub no_guess: bool,

    /// With -f auto: the transport layer's charset (overrides declarations, not a BOM).
    #[arg(long, value_name = "LABEL")]
    pub http_charset: Option<String>,

    /// Treat every input as HTML (for -f auto and the <meta> rewrite).
    #[arg(long, conflicts_with = "text")]
    pub html: bool,

    /// Treat every input as plain text.
    #[arg(long)]
    pub text: bool,

    /// Leave the <meta charset> / XML declaration of converted HTML as it was.
    #[arg(long)]
    pub keep_declaration: bool,

    /// Write each input's decision and outcome to FILE as JSON lines.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    /// Name every input in which more malformed sequences were replaced with U+FFFD than
    /// this fraction of its bytes (default 0.001; a U+FFFD the input encodes is not counted).
    #[arg(long, value_name = "FRACTION", default_value_t = 0.001)]
    pub max_replaced: f64,

    /// The target encoding (any label of the standard; utf-16le/utf-16be write UTF-16).
    #[arg(
        short = 't',
        long = "to-code",
        visible_alias = "to",
        value_name = "TO",
        default_value = "utf-8"
    )]
    pub to: String,

    /// Write all output to FILE (atomically: a temporary file renamed into place; "-" is
    /// standard output).
    #[arg(short = 'o', long, value_name = "FILE", conflicts_with_all = ["out_dir", "in_place"])]
    pub output: Option<PathBuf>,

    /// Write one output per input into DIR, converting files in parallel.
    #[arg(long, value_name = "DIR", conflicts_with = "in_place")]
    pub out_dir: Option<PathBuf>,

    /// Replace each input with its conversion (atomically).
    #[arg(long)]
    pub in_place: bool,

    /// Walk directories given as inputs.
    #[arg(short = 'r', long)]
    pub recursive: bool,

    /// Threads to use, 1 to 256 (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Error handling (default: replace for UTF-8/UTF-16 targets, html otherwise).
    #[arg(long, value_enum, value_name = "MODE")]
    pub errors: Option<ErrorsArg>,

    /// Omit malformed input and unmappable characters (iconv -c).
    #[arg(short = 'c', conflicts_with = "errors")]
    pub omit_invalid: bool,

    /// Byte order mark handling.
    #[arg(long, value_enum, value_name = "MODE", default_value = "sniff")]
    pub bom: BomArg,

    /// No progress bar and no summary line.
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Size of the pieces a large file is cut into for parallel conversion (tests, tuning).
    #[arg(long, value_name = "BYTES", hide = true)]
    pub chunk_size: Option<usize>,

    /// Input files ("-" or none: standard input).
    #[arg(value_name = "FILE")]
    pub inputs: Vec<PathBuf>,
}

/// How `detect` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DetectFormat {
    /// `FILE: ENCODING (SOURCE, confidence C)`.
    Text,
    /// One JSON object per line.
    Json,
}

#[derive(Args, Debug)]
pub struct DetectArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: DetectFormat,

    /// The encoding when nothing else decides (any label; default windows-1252).
    #[arg(long, value_name = "LABEL")]
    pub default: Option<String>,

    /// Skip the frequency-analysis guess.
    #[arg(long)]
    pub no_guess: bool,

    /// The transport layer's charset (as an HTTP Content-Type would give it).
    #[arg(long, value_name = "LABEL")]
    pub http_charset: Option<String>,

    /// Treat every input as HTML.
    #[arg(long, conflicts_with = "text")]
    pub html: bool,

    /// Treat every input as plain text.
    #[arg(long)]
    pub text: bool,

    /// Walk directories given as inputs.
    #[arg(short = 'r', long)]
    pub recursive: bool,

    /// Threads to use, 1 to 256 (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Files ("-" or none: standard input).
    #[arg(value_name = "FILE")]
    pub inputs: Vec<PathBuf>,
}

#[derive(Args, Debug)]
pub struct LabelsArgs {
    /// List the names accepted besides the standard's labels (iconv, ICU and Python names
    /// such as CP949, EUC-CN, CP932), each with the encoding it stands for: an extension of
    /// this command line, not of the standard.
    #[arg(long)]
    pub aliases: bool,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// The encoding to check against (any label of the standard).
    #[arg(
        short = 'f',
        long = "from-code",
        visible_alias = "from",
        value_name = "ENC",
        default_value = "utf-8"
    )]
    pub from: String,

    /// Byte order mark handling.
    #[arg(long, value_enum, value_name = "MODE", default_value = "sniff")]
    pub bom: BomArg,

    /// Walk directories given as inputs.
    #[arg(short = 'r', long)]
    pub recursive: bool,

    /// Threads to use, 1 to 256 (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Print only invalid files.
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Files to check ("-" or none: standard input).
    #[arg(value_name = "FILE")]
    pub inputs: Vec<PathBuf>,
}

/// The most threads `-j` starts: more only adds memory and contention (a conversion is
/// bound by memory bandwidth long before), and a typo such as `-j 100000` must not start
/// thousands of threads.
pub const MAX_JOBS: usize = 256;

/// The number of threads for `-j` (all cores by default): 1 to [`MAX_JOBS`], else a usage
/// error.
fn threads(jobs: Option<usize>) -> Result<usize, Failure> {
    match jobs {
        Some(n @ 1..=MAX_JOBS) => Ok(n),
        Some(n) => Err(Failure::Usage(format!(
            "-j {n}: the number of threads must be between 1 and {MAX_JOBS}"
        ))),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_JOBS))),
    }
}

/// Forces the SIMD level named by `SIMDENC_LEVEL` (`scalar`, `sse2`, `avx2`, `avx512`,
/// `neon`), if set, for `convert`, `validate` and `labels` (`bench` reads it itself), so
/// that every subcommand refuses a bad value.
fn level_from_env() -> Result<(), Failure> {
    simdenc::cpu::force_from_env().map(|_| ()).map_err(|e| {
        let e = e.to_string();
        Failure::Usage(if e.starts_with("SIMDENC_LEVEL") {
            e
        } else {
            format!("SIMDENC_LEVEL: {e}")
        })
    })
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 2.
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match (cli.list, cli.command) {
        (true, _) | (false, Some(Command::Labels(LabelsArgs { aliases: false }))) => {
            level_from_env().and_then(|()| labels::print_labels())
        }
        (false, Some(Command::Labels(LabelsArgs { aliases: true }))) => {
            level_from_env().and_then(|()| labels::print_aliases())
        }
        (false, Some(Command::Convert(args))) => level_from_env().and_then(|()| convert::run(&args)),
        (false, Some(Command::Validate(args))) => level_from_env().and_then(|()| validate::run(&args)),
        (false, Some(Command::Detect(args))) => level_from_env().and_then(|()| detect::run(&args)),
        (false, Some(Command::Bench(args))) => bench::run(&args),
        (false, None) => Err(Failure::Usage("no command given; see `simdenc --help`".into())),
    };
    match result {
        Ok(code) => code,
        Err(failure) => failure.report(),
    }
}
