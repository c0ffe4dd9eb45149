//! `simdenc validate`: decode each input in the standard's fatal mode and report the first
//! error of each.

use std::io::{self, BufRead, Read};
use std::process::ExitCode;

use rayon::prelude::*;
use simdenc::Encoding;
use simdenc::io::{Bom, DecodeOptions, DecodeReader, MalformedError, OnMalformed};

use crate::convert::BadInput;
use crate::errors::{Failure, eprintln_safe, hex, print_stdout};
use crate::files::{self, Input};
use crate::{BomArg, ValidateArgs, labels};

/// What checking one input found.
enum Verdict {
    /// The bytes read, and the encoding decoded (another than the one asked for when a byte
    /// order mark selected it).
    Valid(u64, &'static Encoding),
    Invalid(BadInput),
    Unreadable(String),
}

/// `simdenc validate`.
pub fn run(args: &ValidateArgs) -> Result<ExitCode, Failure> {
    let encoding = labels::resolve(&args.from, "source")?;
    let bom = match args.bom {
        BomArg::Sniff => Bom::Sniff,
        BomArg::Strip => Bom::Strip,
        BomArg::Keep => Bom::Keep,
    };
    let threads = crate::threads(args.jobs)?;
    let inputs = files::expand(&args.inputs, args.recursive, None)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Message(format!("cannot start {threads} threads: {e}")))?;
    let verdicts: Vec<Verdict> = pool.install(|| {
        inputs
            .par_iter()
            .map(|input| check(input, encoding, bom))
            .collect()
    });
    let mut report = String::new();
    let mut failed = false;
    for (input, verdict) in inputs.iter().zip(verdicts) {
        let name = input.display();
        match verdict {
            Verdict::Valid(bytes, used) => {
                if !args.quiet {
                    let by_bom = if used == encoding {
                        String::new()
                    } else {
                        format!(", by its byte order mark rather than {}", encoding.name())
                    };
                    report.push_str(&format!(
                        "{name}: valid {} ({bytes} bytes{by_bom})\n",
                        used.name()
                    ));
                }
            }
            Verdict::Invalid(bad) => {
                failed = true;
                report.push_str(&format!(
                    "{name}: invalid {} at byte offset {}: {} (the standard's fatal decoder stops at {})\n",
                    bad.encoding.name(),
                    bad.offset,
                    hex(&bad.bytes),
                    bad.end
                ));
            }
            Verdict::Unreadable(message) => {
                failed = true;
                print_stdout(&std::mem::take(&mut report))?;
                eprintln_safe(&format!("simdenc: {message}"));
            }
        }
    }
    print_stdout(&report)?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn check(input: &Input, encoding: &'static Encoding, bom: Bom) -> Verdict {
    let name = input.display();
    let result = match input {
        Input::Stdin => decode(io::stdin().lock(), encoding, bom),
        Input::File { path, .. } => match files::open(path) {
            Ok((file, _)) => decode(file, encoding, bom),
            Err(message) => return Verdict::Unreadable(message),
        },
    };
    match result {
        Ok((bytes, used)) => Verdict::Valid(bytes, used),
        Err(e) => match MalformedError::from_io_error(&e) {
            Some(m) => Verdict::Invalid(BadInput::from_error(m, 0)),
            None => Verdict::Unreadable(format!("cannot read {name}: {e}")),
        },
    }
}

/// Decodes everything in fatal mode, discarding the text: the number of bytes read and the
/// encoding used.
fn decode<R: Read>(input: R, encoding: &'static Encoding, bom: Bom) -> io::Result<(u64, &'static Encoding)> {
    let options = DecodeOptions::new().bom(bom).on_malformed(OnMalformed::Fail);
    let mut reader = DecodeReader::with_options(input, encoding, options);
    loop {
        let n = reader.fill_buf()?.len();
        if n == 0 {
            return Ok((reader.position(), reader.encoding()));
        }
        reader.consume(n);
    }
}
