//! The progress bar (stderr, only when it is a terminal) and the summary line.

use std::io::{self, IsTerminal, Read, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::errors::eprintln_safe;

/// Progress of a run, shared by the worker threads.
pub struct Progress {
    bar: Option<ProgressBar>,
    files_total: u64,
    files_done: AtomicU64,
    /// The file count the message shows: it only grows, whatever order the worker threads
    /// reach the bar in.
    files_shown: Mutex<u64>,
    /// Every count shown, in order (tests).
    #[cfg(test)]
    shown_log: Mutex<Vec<u64>>,
}

impl Progress {
    /// A progress display over `total_bytes` (if known) and `files_total` files; drawn only
    /// if `wanted` and standard error is a terminal.
    pub fn new(wanted: bool, total_bytes: Option<u64>, files_total: u64) -> Progress {
        let bar = (wanted && io::stderr().is_terminal()).then(|| {
            let template = match total_bytes {
                Some(_) => {
                    "{spinner} {elapsed_precise} [{wide_bar}] {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} ETA {eta} {msg}"
                }
                None => "{spinner} {elapsed_precise} {decimal_bytes} {decimal_bytes_per_sec} {msg}",
            };
            let style = ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            let bar = ProgressBar::with_draw_target(total_bytes, ProgressDrawTarget::stderr()).with_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let progress = Progress {
            bar,
            files_total,
            files_done: AtomicU64::new(0),
            files_shown: Mutex::new(0),
            #[cfg(test)]
            shown_log: Mutex::new(Vec::new()),
        };
        progress.update_message();
        progress
    }

    /// Counts `n` more input bytes converted.
    pub fn add_bytes(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Counts one more file done.
    pub fn file_done(&self) {
        self.files_done.fetch_add(1, Ordering::Relaxed);
        self.update_message();
    }

    fn update_message(&self) {
        if let Some(bar) = &self.bar
            && self.files_total > 1
        {
            // Read under the lock, so that a thread that counted an earlier file cannot show
            // its smaller count after one that counted a later file.
            let mut shown = self.files_shown.lock().unwrap_or_else(|e| e.into_inner());
            let done = self.files_done.load(Ordering::Relaxed);
            debug_assert!(done >= *shown);
            *shown = done;
            bar.set_message(format!("{done}/{} files", self.files_total));
            #[cfg(test)]
            self.shown_log.lock().unwrap().push(done);
        }
    }

    /// Prints a line on standard error without tearing the bar.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln_safe(line)),
            None => eprintln_safe(line),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A reader that reports the bytes it reads to a [`Progress`].
pub struct Counting<'a, R> {
    pub inner: R,
    pub progress: &'a Progress,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.add_bytes(n as u64);
        Ok(n)
    }
}

/// A writer that counts the bytes it writes.
pub struct CountingWriter<W> {
    pub inner: W,
    pub written: u64,
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Totals for the summary line, shared by the worker threads.
#[derive(Default)]
pub struct Totals {
    pub files: AtomicU64,
    pub failed: AtomicU64,
    pub with_errors: AtomicU64,
    pub bytes_in: AtomicU64,
    pub bytes_out: AtomicU64,
    /// Inputs per encoding decided by `-f auto`.
    pub encodings: std::sync::Mutex<std::collections::BTreeMap<&'static str, u64>>,
    /// Inputs whose declaration was rewritten.
    pub rewritten: AtomicU64,
    /// Inputs over `--max-replaced`.
    pub over_replaced: AtomicU64,
    /// U+FFFD written from the first malformed sequence of each input on.
    pub replaced: AtomicU64,
}

impl Totals {
    /// Adds one file's outcome.
    pub fn add(&self, bytes_in: u64, bytes_out: u64, had_errors: bool, failed: bool) {
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes_in.fetch_add(bytes_in, Ordering::Relaxed);
        self.bytes_out.fetch_add(bytes_out, Ordering::Relaxed);
        if had_errors {
            self.with_errors.fetch_add(1, Ordering::Relaxed);
        }
        if failed {
            self.failed.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// "12 files, 3.40 MB in, 3.91 MB out, 1 failed, 2 with replaced or omitted errors,
    /// 0.83 s, 4.10 MB/s"
    pub fn summary(&self, started: Instant) -> String {
        let seconds = started.elapsed().as_secs_f64();
        let bytes_in = self.bytes_in.load(Ordering::Relaxed);
        let files = self.files.load(Ordering::Relaxed);
        let encodings = self.encodings.lock().map(|m| m.clone()).unwrap_or_default();
        let by_encoding = if encodings.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = encodings.iter().map(|(name, n)| format!("{n} {name}")).collect();
            format!(" ({})", list.join(", "))
        };
        let mut line = format!(
            "{files} file{}{by_encoding}, {} in, {} out",
            if files == 1 { "" } else { "s" },
            megabytes(bytes_in),
            megabytes(self.bytes_out.load(Ordering::Relaxed)),
        );
        let failed = self.failed.load(Ordering::Relaxed);
        line.push_str(&format!(", {failed} failed"));
        let with_errors = self.with_errors.load(Ordering::Relaxed);
        if with_errors > 0 {
            line.push_str(&format!(", {with_errors} with replaced or omitted errors"));
        }
        let replaced = self.replaced.load(Ordering::Relaxed);
        if replaced > 0 {
            line.push_str(&format!(", {replaced} U+FFFD"));
        }
        let rewritten = self.rewritten.load(Ordering::Relaxed);
        if rewritten > 0 {
            line.push_str(&format!(
                ", {rewritten} declaration{} rewritten",
                if rewritten == 1 { "" } else { "s" }
            ));
        }
        let over = self.over_replaced.load(Ordering::Relaxed);
        if over > 0 {
            line.push_str(&format!(", {over} over --max-replaced"));
        }
        let rate = if seconds > 0.0 {
            bytes_in as f64 / 1e6 / seconds
        } else {
            0.0
        };
        line.push_str(&format!(", {seconds:.2} s, {rate:.1} MB/s"));
        line
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.2} MB", bytes as f64 / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file count shown never goes down, however the threads that finish files race.
    #[test]
    fn file_count_only_grows() {
        let mut progress = Progress::new(false, None, 4000);
        progress.bar = Some(ProgressBar::hidden());
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..1000 {
                        progress.file_done();
                    }
                });
            }
        });
        let log = progress.shown_log.lock().unwrap();
        assert_eq!(log.len(), 4000);
        assert!(log.windows(2).all(|w| w[0] <= w[1]), "went backwards");
        assert_eq!(log.last(), Some(&4000));
    }

    /// A failed file is counted as failed, not as one with replaced or omitted errors.
    #[test]
    fn summary_counts() {
        let totals = Totals::default();
        totals.add(10, 10, true, false);
        totals.add(0, 0, false, true);
        let line = totals.summary(Instant::now());
        assert!(
            line.starts_with("2 files, 0.00 MB in, 0.00 MB out, 1 failed, 1 with replaced or omitted errors"),
            "{line}"
        );
    }
}
