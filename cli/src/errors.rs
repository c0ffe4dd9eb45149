//! How the command fails: usage errors (status 2), reported failures (status 1), and a
//! closed standard output (quiet, status 0).

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// Why a command stopped.
#[derive(Debug)]
pub enum Failure {
    /// Bad flags or labels: the message is printed, status 2.
    Usage(String),
    /// A failure to print, status 1.
    Message(String),
    /// Failures already printed, status 1.
    Reported,
    /// Standard output was closed by its reader: end quietly, status 0.
    BrokenPipe,
}

impl Failure {
    /// Prints the failure (if it has something to say) and returns the exit status.
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Usage(message) => {
                eprintln_safe(&format!("simdenc: {message}"));
                ExitCode::from(2)
            }
            Failure::Message(message) => {
                eprintln_safe(&format!("simdenc: {message}"));
                ExitCode::from(1)
            }
            Failure::Reported => ExitCode::from(1),
            Failure::BrokenPipe => ExitCode::SUCCESS,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(m) | Failure::Message(m) => f.write_str(m),
            Failure::Reported => f.write_str("failed"),
            Failure::BrokenPipe => f.write_str("broken pipe"),
        }
    }
}

/// Writes a line to standard error, ignoring failure (there is nowhere else to report it).
pub fn eprintln_safe(line: &str) {
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{line}");
}

/// Writes to standard output; a closed pipe becomes [`Failure::BrokenPipe`].
pub fn print_stdout(text: &str) -> Result<(), Failure> {
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| stdout_error(&e))
}

/// The failure for an error writing to standard output.
pub fn stdout_error(e: &io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::BrokenPipe
    } else {
        Failure::Message(format!("cannot write to standard output: {e}"))
    }
}

/// `bytes` as space-separated hex, at most 16 of them.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (i, b) in bytes.iter().take(16).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("{b:02X}"));
    }
    if bytes.len() > 16 {
        out.push_str(" …");
    }
    out
}
