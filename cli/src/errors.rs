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

/// Fails if the program was started with standard output closed (`>&-`), where cat and
/// iconv fail with "Bad file descriptor": the Rust runtime opens `/dev/null` in place of a
/// closed standard descriptor before `main`, so the output would be lost silently.
///
/// The runtime's `/dev/null` is told from one a shell opened (`>/dev/null`) by its access
/// mode: the runtime opens it read-write, a shell's `>` write-only (Linux only, where
/// `/proc/self/fdinfo` says; `1<>/dev/null`, read-write on purpose, is taken for closed).
pub fn check_stdout() -> Result<(), Failure> {
    if stdout_was_closed() {
        return Err(Failure::Message(
            "cannot write to standard output: Bad file descriptor (it is closed)".into(),
        ));
    }
    Ok(())
}

#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return false;
    };
    if target != std::path::Path::new("/dev/null") {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    // "flags:	0100002": octal; O_ACCMODE = 3, O_RDWR = 2.
    info.lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        .is_some_and(|flags| flags & 3 == 2)
}

#[cfg(not(target_os = "linux"))]
fn stdout_was_closed() -> bool {
    false
}

/// Writes to standard output; a closed pipe becomes [`Failure::BrokenPipe`], a closed
/// descriptor an error.
pub fn print_stdout(text: &str) -> Result<(), Failure> {
    check_stdout()?;
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
