//! Instructions per input byte, for aarch64 under qemu (cli/bench-insn.sh): the hidden
//! options of `simdenc bench` that the script drives, and the table it prints from the counts.
//!
//! `--count-runs K --only WORKLOAD --impl NAME` runs one implementation (a level of simdenc, or
//! a peer's column name) of one workload K times and nothing else; the script counts the
//! instructions of a process with K = 1 and one with K = k + 1 (insn-count's `count.sh`), so
//! that (count(k + 1) − count(1)) / k / input bytes is the cost of one call, set-up cancelled
//! (../shared/tools/insn-count/README.md). `--list-impls` tells the script what to count;
//! `--insn-table FILE` turns its counts into a Markdown table.

use std::fmt::Write as _;

use simdenc::cpu::{self, Level};

use super::report::fmt_bytes;
use super::suite::{self, Outcome};
use crate::errors::Failure;

/// The workloads `keep` selects, one line each: name, input bytes, and the implementations
/// that can run it at `levels` (the levels first, then the peers' column names), tab-separated,
/// the implementations comma-separated.
pub fn list_impls(keep: &dyn Fn(&str) -> bool, levels: &[Level]) -> String {
    let (_, workloads) = suite::build(keep, levels);
    let mut out = String::new();
    for w in &workloads {
        let impls: Vec<&str> = levels
            .iter()
            .map(|l| l.name())
            .chain(w.peers.iter().map(|(p, _)| p.name()))
            .collect();
        let _ = writeln!(out, "{}\t{}\t{}", w.name, w.work.input_bytes(), impls.join(","));
    }
    out
}

/// Runs `implementation` of the workload named `only` `runs` times (after building only that
/// workload, and every level's simdutf kernel so that any peer can be named), and says what
/// the last call did.
pub fn count_runs(only: &str, implementation: &str, runs: u64) -> Result<String, Failure> {
    let levels: Vec<Level> = cpu::supported().collect();
    let (_, mut workloads) = suite::build(&|name: &str| name == only, &levels);
    let Some(w) = workloads.first_mut() else {
        return Err(Failure::Usage(format!(
            "--only {only:?}: no such workload; see `simdenc bench --list`"
        )));
    };
    let runner = if let Some(level) = Level::from_name(implementation) {
        cpu::force(level).map_err(|e| Failure::Usage(format!("--impl {implementation}: {e}")))?;
        &mut w.simdenc
    } else if let Some((_, runner)) = w.peers.iter_mut().find(|(p, _)| p.name() == implementation) {
        runner
    } else {
        return Err(Failure::Usage(format!(
            "--impl {implementation:?}: neither a level nor a peer of {only} in this build"
        )));
    };
    let mut last = Outcome { read: 0, written: 0 };
    for _ in 0..runs {
        last = runner();
    }
    Ok(format!(
        "{only}\t{implementation}\t{runs} runs\tread {}\twritten {}\n",
        last.read, last.written
    ))
}

/// One measurement of the script: `implementation` on `workload` (of `bytes` input bytes),
/// the instructions of a process that ran it once and of one that ran it `k + 1` times.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    pub workload: String,
    pub bytes: u64,
    pub implementation: String,
    pub k: u64,
    pub once: u64,
    pub k_plus_one: u64,
}

impl Count {
    /// Instructions per input byte of one call: (count(k + 1) − count(1)) / k / bytes; None
    /// when the counts cannot give it (k or bytes 0, or fewer instructions for more calls).
    pub fn per_byte(&self) -> Option<f64> {
        let extra = self.k_plus_one.checked_sub(self.once)?;
        if self.k == 0 || self.bytes == 0 {
            return None;
        }
        Some(extra as f64 / self.k as f64 / self.bytes as f64)
    }
}

/// The counts file the script writes: one tab-separated line per measurement (`workload bytes
/// implementation k count(1) count(k+1)`); `#` lines are comments.
pub fn parse_counts(text: &str) -> Result<Vec<Count>, String> {
    let mut counts = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let bad = || {
            format!(
                "line {}: expected workload, bytes, implementation, k, count(1), count(k+1) separated by tabs: {line:?}",
                i + 1
            )
        };
        let [workload, bytes, implementation, k, once, k_plus_one] = fields.as_slice() else {
            return Err(bad());
        };
        let number = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
        counts.push(Count {
            workload: (*workload).to_owned(),
            bytes: number(bytes)?,
            implementation: (*implementation).to_owned(),
            k: number(k)?,
            once: number(once)?,
            k_plus_one: number(k_plus_one)?,
        });
    }
    Ok(counts)
}

/// Instructions per byte as printed: 3 significant digits.
fn fmt_per_byte(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// The Markdown table of `counts`: a row per workload (in the order first seen), a column per
/// implementation (simdenc's `neon` and `scalar` first, then the peers in the order first
/// seen) in instructions per input byte, and the best (fewest) peer's count ÷ simdenc's at
/// `neon` (above 1: simdenc executes fewer instructions), naming that peer.
pub fn render_table(counts: &[Count]) -> String {
    let mut workloads: Vec<(&str, u64)> = Vec::new();
    let mut impls: Vec<&str> = Vec::new();
    for c in counts {
        if !workloads.iter().any(|(w, _)| *w == c.workload) {
            workloads.push((&c.workload, c.bytes));
        }
        if !impls.contains(&c.implementation.as_str()) {
            impls.push(&c.implementation);
        }
    }
    let is_level = |name: &str| Level::from_name(name).is_some();
    let mut levels: Vec<&str> = impls.iter().copied().filter(|i| is_level(i)).collect();
    levels.sort_by_key(|l| (*l != "neon", *l != "scalar", *l));
    let peers: Vec<&str> = impls.iter().copied().filter(|i| !is_level(i)).collect();
    let per_byte = |workload: &str, implementation: &str| {
        counts
            .iter()
            .find(|c| c.workload == workload && c.implementation == implementation)
            .and_then(Count::per_byte)
    };

    let mut out = String::new();
    let mut head = vec!["workload".to_owned(), "input".to_owned()];
    head.extend(levels.iter().map(|l| format!("{l} insn/B")));
    head.extend(peers.iter().map(|p| format!("{p} insn/B")));
    let reference = levels.first().copied();
    if let Some(reference) = reference.filter(|_| !peers.is_empty()) {
        head.push(format!("best peer ÷ {reference}"));
    }
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let mut rule = vec!["---".to_owned()];
    rule.extend(std::iter::repeat_n("---:".to_owned(), head.len() - 1));
    let _ = writeln!(out, "| {} |", rule.join(" | "));
    for &(workload, bytes) in &workloads {
        let mut cells = vec![workload.to_owned(), fmt_bytes(bytes as usize)];
        let cell = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), fmt_per_byte);
        cells.extend(levels.iter().map(|l| cell(per_byte(workload, l))));
        cells.extend(peers.iter().map(|p| cell(per_byte(workload, p))));
        if let Some(reference) = reference.filter(|_| !peers.is_empty()) {
            let best = peers
                .iter()
                .filter_map(|p| Some((*p, per_byte(workload, p)?)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let ratio = best
                .zip(per_byte(workload, reference))
                .and_then(|((peer, b), ours)| (ours > 0.0).then(|| format!("{:.2} ({peer})", b / ours)));
            cells.push(ratio.unwrap_or_else(|| "-".to_owned()));
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    if let Some(reference) = reference.filter(|_| !peers.is_empty()) {
        out.push_str(&group_means(&workloads, &peers, reference, &per_byte));
    }
    out
}

/// Per group of workloads (the name up to its first `/`): the geometric mean over its
/// workloads of the best peer's count ÷ simdenc's at `reference`, where both were counted.
fn group_means(
    workloads: &[(&str, u64)],
    peers: &[&str],
    reference: &str,
    per_byte: &dyn Fn(&str, &str) -> Option<f64>,
) -> String {
    let mut groups: Vec<(&str, Vec<f64>)> = Vec::new();
    for (workload, _) in workloads {
        let best = peers
            .iter()
            .filter_map(|p| per_byte(workload, p))
            .min_by(f64::total_cmp);
        let Some(ratio) = best
            .zip(per_byte(workload, reference))
            .and_then(|(b, ours)| (ours > 0.0 && b > 0.0).then_some(b / ours))
        else {
            continue;
        };
        let group = workload.split('/').next().unwrap_or(workload);
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, ratios)) => ratios.push(ratio),
            None => groups.push((group, vec![ratio])),
        }
    }
    if groups.is_empty() {
        return String::new();
    }
    let mut out =
        format!("\n| group | workloads | best peer ÷ {reference}, geometric mean |\n| --- | ---: | ---: |\n");
    for (group, ratios) in groups {
        let mean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        let _ = writeln!(out, "| {group} | {} | {mean:.2} |", ratios.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(workload: &str, implementation: &str, once: u64, k_plus_one: u64) -> Count {
        Count {
            workload: workload.into(),
            bytes: 1000,
            implementation: implementation.into(),
            k: 10,
            once,
            k_plus_one,
        }
    }

    #[test]
    fn per_byte_cancels_the_set_up() {
        // 5 000 000 instructions of set-up, 2 500 per call of 1 000 bytes.
        let c = count("w", "neon", 5_002_500, 5_027_500);
        assert_eq!(c.per_byte(), Some(2.5));
        assert_eq!(count("w", "neon", 10, 5).per_byte(), None);
        assert_eq!(
            Count {
                k: 0,
                ..count("w", "neon", 1, 2)
            }
            .per_byte(),
            None
        );
        assert_eq!(
            Count {
                bytes: 0,
                ..count("w", "neon", 1, 2)
            }
            .per_byte(),
            None
        );
    }

    #[test]
    fn counts_parse_and_reject_bad_lines() {
        let text = "# comment\nutf8-validate/latin\t86900\tsimdutf-arm64\t10\t100\t200\n\n";
        let counts = parse_counts(text).unwrap();
        assert_eq!(counts.len(), 1);
        assert_eq!(counts[0].implementation, "simdutf-arm64");
        assert_eq!(
            (counts[0].bytes, counts[0].k, counts[0].once, counts[0].k_plus_one),
            (86900, 10, 100, 200)
        );
        assert!(
            parse_counts("w\t1\tneon\t10\t100\n")
                .unwrap_err()
                .starts_with("line 1:")
        );
        assert!(parse_counts("w\tx\tneon\t10\t100\t200\n").is_err());
    }

    #[test]
    fn table_puts_neon_first_and_names_the_best_peer() {
        let counts = [
            count("a", "scalar", 0, 80_000),
            count("a", "neon", 0, 10_000),
            count("a", "simdutf8", 0, 15_000),
            count("a", "encoding_rs", 0, 30_000),
            count("b", "neon", 0, 20_000),
            count("b", "encoding_rs", 0, 10_000),
        ];
        let table = render_table(&counts);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            "| workload | input | neon insn/B | scalar insn/B | simdutf8 insn/B | encoding_rs insn/B | best peer ÷ neon |"
        );
        assert_eq!(lines[1], "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        // 10 000 instructions over 10 calls of 1 000 bytes: 1 per byte.
        assert_eq!(
            lines[2],
            "| a | 1.0 kB | 1.00 | 8.00 | 1.50 | 3.00 | 1.50 (simdutf8) |"
        );
        assert_eq!(
            lines[3],
            "| b | 1.0 kB | 2.00 | - | - | 1.00 | 0.50 (encoding_rs) |"
        );
        // Each workload its own group here (no `/` in the names): geometric means of one ratio.
        assert_eq!(lines[4], "");
        assert_eq!(
            lines[5],
            "| group | workloads | best peer ÷ neon, geometric mean |"
        );
        assert_eq!(lines[7], "| a | 1 | 1.50 |");
        assert_eq!(lines[8], "| b | 1 | 0.50 |");
        assert_eq!(lines.len(), 9);
    }
}

#[cfg(test)]
mod group_tests {
    use super::*;

    #[test]
    fn group_mean_is_geometric() {
        let count = |workload: &str, implementation: &str, k_plus_one: u64| Count {
            workload: workload.into(),
            bytes: 100,
            implementation: implementation.into(),
            k: 1,
            once: 0,
            k_plus_one,
        };
        // Ratios 2 and 8 in group g: geometric mean 4; h has no peer count and is left out.
        let counts = [
            count("g/1", "neon", 100),
            count("g/1", "simdutf-arm64", 200),
            count("g/2", "neon", 100),
            count("g/2", "simdutf-arm64", 800),
            count("h/1", "neon", 100),
        ];
        let table = render_table(&counts);
        assert!(
            table.ends_with("| --- | ---: | ---: |\n| g | 2 | 4.00 |\n"),
            "{table}"
        );
    }
}
