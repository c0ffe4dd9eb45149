//! A run as data (what `--json` saves and `--compare` reads) and as a table (text or
//! Markdown).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use simdenc::cpu::Level;

use super::suite::SimdutfKernel;

/// The `format` field of a saved run.
pub const FORMAT: &str = "simdenc-bench 1";

/// A whole run: where, with what, how, and the figures.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run {
    /// [`FORMAT`].
    pub format: String,
    /// When the run started, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
    /// The machine.
    pub machine: Machine,
    /// The build.
    pub software: Software,
    /// The timing method.
    pub method: Method,
    /// The simdenc levels measured, lowest first.
    pub levels: Vec<String>,
    /// The peers measured (columns after the levels).
    pub peers: Vec<String>,
    /// The figures, one entry per workload, in suite order.
    pub workloads: Vec<WorkloadResult>,
    /// How long the run took, seconds (setup included).
    pub wall_seconds: f64,
}

/// The machine a run was measured on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    /// The CPU model name.
    pub cpu: String,
    /// Vendor, family, model and stepping, where known (x86 Linux).
    #[serde(default)]
    pub cpu_id: Option<String>,
    /// The target architecture (`x86_64`, `aarch64`).
    pub arch: String,
    /// The operating system.
    pub os: String,
    /// Logical CPUs available to the process.
    pub logical_cpus: usize,
    /// Whether the kernel reports a hypervisor, where known.
    pub virtual_machine: Option<bool>,
    /// The relevant CPU features present.
    pub flags: Vec<String>,
    /// The best level simdenc detected.
    pub detected_level: String,
    /// Load averages (1, 5, 15 min) when the run started, where known.
    pub load_average_start: Option<String>,
    /// Load averages when it ended.
    pub load_average_end: Option<String>,
}

/// The build that produced a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Software {
    /// simdenc's version.
    pub simdenc: String,
    /// `rustc -V` of the compiler.
    pub rustc: String,
    /// Cargo profile and optimisation level.
    pub profile: String,
    /// Peer crates and their versions.
    pub peers: Vec<PeerVersion>,
}

/// A peer's version.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PeerVersion {
    /// The peer's name (a column name).
    pub name: String,
    /// Its version.
    pub version: String,
}

/// How the figures were measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Method {
    /// Minimum duration of one timed batch, milliseconds.
    pub batch_ms: u64,
    /// Timed batches per figure.
    pub batches: u32,
    /// Which batch `mb_s` reports (`best`).
    pub statistic: String,
    /// What batches were timed with (`thread CPU time`, `wall time`).
    #[serde(default)]
    pub clock: String,
    /// The unit: `MB/s of input, 1 MB = 10^6 bytes`.
    pub unit: String,
}

/// One workload's figures.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WorkloadResult {
    /// `group/case`.
    pub name: String,
    /// The group's title.
    pub group: String,
    /// Bytes of input per call.
    pub input_bytes: usize,
    /// One figure per implementation measured: levels first, then peers.
    pub results: Vec<Measurement>,
}

/// One implementation's figure on one workload.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measurement {
    /// A level name (`avx2`) or a peer name (`encoding_rs`).
    pub implementation: String,
    /// MB/s of input in the best batch.
    pub mb_s: f64,
    /// MB/s of input in the median batch.
    pub mb_s_median: f64,
    /// Calls per timed batch.
    pub calls_per_batch: u64,
}

impl WorkloadResult {
    /// The figure of `implementation`, if measured.
    pub fn mb_s(&self, implementation: &str) -> Option<f64> {
        self.results
            .iter()
            .find(|m| m.implementation == implementation)
            .map(|m| m.mb_s)
    }

    /// The fastest of `levels` that were measured, with its figure.
    pub fn best_of<'a>(&self, levels: &'a [String]) -> Option<(&'a str, f64)> {
        levels
            .iter()
            .filter_map(|l| Some((l.as_str(), self.mb_s(l)?)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }
}

/// Table output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Aligned columns for a terminal.
    Text,
    /// A Markdown table (for a README or an issue).
    Markdown,
}

/// MB/s as printed: 3 significant digits below 1000, whole numbers above.
pub fn fmt_mb_s(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// A ratio as printed: `3.42x`, `0.052x`.
pub fn fmt_ratio(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}x")
    } else if r >= 10.0 {
        format!("{r:.1}x")
    } else if r >= 0.1 {
        format!("{r:.2}x")
    } else {
        format!("{r:.3}x")
    }
}

/// A byte count as printed: `117 kB`, `16.4 kB`, `980 B`.
pub fn fmt_bytes(n: usize) -> String {
    let n = n as f64;
    if n >= 1e6 {
        format!("{:.1} MB", n / 1e6)
    } else if n >= 1e5 {
        format!("{:.0} kB", n / 1e3)
    } else if n >= 1e3 {
        format!("{:.1} kB", n / 1e3)
    } else {
        format!("{n:.0} B")
    }
}

/// How far the median batch was from the best, over every figure of a run: a measure of
/// the interference during the run (0% on a quiet machine), as a line of text.
pub fn spread(run: &Run) -> String {
    let mut gaps: Vec<f64> = run
        .workloads
        .iter()
        .flat_map(|w| &w.results)
        .filter(|m| m.mb_s_median > 0.0)
        .map(|m| (m.mb_s / m.mb_s_median - 1.0) * 100.0)
        .collect();
    if gaps.is_empty() || run.method.batches < 2 {
        return String::new();
    }
    gaps.sort_by(f64::total_cmp);
    let at = |q: f64| gaps[((gaps.len() - 1) as f64 * q).round() as usize];
    format!(
        "noise: the median batch was slower than the best by {:.1}% for the median figure, \
         {:.1}% at the 90th percentile, {:.1}% at worst\n",
        at(0.5),
        at(0.9),
        at(1.0)
    )
}

/// The header lines describing a run (machine, build, method).
pub fn describe(run: &Run, format: TableFormat) -> String {
    let m = &run.machine;
    let s = &run.software;
    let mut cpu = format!("{} (", m.cpu);
    if let Some(id) = &m.cpu_id {
        cpu.push_str(&format!("{id}; "));
    }
    cpu.push_str(&format!("{}, {} logical CPUs", m.arch, m.logical_cpus));
    if m.virtual_machine == Some(true) {
        cpu.push_str(", virtual machine");
    }
    cpu.push(')');
    let peers = if s.peers.is_empty() {
        "none (build with --features peers to add encoding_rs, simdutf, simdutf8 and std)".to_owned()
    } else {
        s.peers
            .iter()
            .map(|p| format!("{} {}", p.name, p.version))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut load = m.load_average_start.clone().unwrap_or_else(|| "unknown".into());
    if let Some(end) = &m.load_average_end {
        load = format!("{load} at the start, {end} at the end");
    }
    let lines = [
        ("CPU", cpu),
        ("flags", m.flags.join(" ")),
        (
            "levels",
            format!("{} (detected: {})", run.levels.join(" "), m.detected_level),
        ),
        (
            "build",
            format!("simdenc {}, {}, {}", s.simdenc, s.rustc, s.profile),
        ),
        ("peers", peers),
        ("date", format!("{} (UTC)", run.date)),
        ("load", format!("{load} (1/5/15-minute load averages)")),
        (
            "method",
            format!(
                "{}; best of {} timed batches of at least {} ms of {} each, one thread",
                run.method.unit, run.method.batches, run.method.batch_ms, run.method.clock
            ),
        ),
    ];
    let mut out = String::new();
    for (key, value) in lines {
        match format {
            TableFormat::Text => {
                let _ = writeln!(out, "{:<7} {value}", format!("{key}:"));
            }
            TableFormat::Markdown => {
                let _ = writeln!(out, "- {key}: {value}");
            }
        }
    }
    out
}

/// The table of one run: a column per level, the best level's ratio to scalar, then a
/// column per peer, simdenc's best ÷ encoding_rs, and each level ÷ simdutf's kernel for that
/// level (`avx2/simdutf`: avx2 ÷ simdutf-haswell).
pub struct RunTable {
    format: TableFormat,
    levels: Vec<String>,
    peers: Vec<String>,
    name_width: usize,
    last_group: Option<String>,
}

const COL: usize = 8;

impl RunTable {
    /// A table for these levels and peers, wide enough for the names given.
    pub fn new<'a>(
        format: TableFormat,
        levels: &[String],
        peers: &[String],
        names: impl IntoIterator<Item = &'a str>,
    ) -> RunTable {
        let name_width = names.into_iter().map(str::len).max().unwrap_or(0).max(8);
        RunTable {
            format,
            levels: levels.to_vec(),
            peers: peers.to_vec(),
            name_width,
            last_group: None,
        }
    }

    fn has_scalar(&self) -> bool {
        self.levels.iter().any(|l| l == "scalar") && self.levels.len() > 1
    }

    /// encoding_rs's column (`encoding_rs`, or `encoding_rs (simd-accel)` when built as
    /// Firefox builds it), if measured.
    fn encoding_rs(&self) -> Option<&str> {
        self.peers
            .iter()
            .find(|p| p.starts_with("encoding_rs"))
            .map(String::as_str)
    }

    /// The levels measured whose simdutf kernel was measured too, with that kernel's column:
    /// each gets a ratio column `level/simdutf`.
    fn simdutf_pairs(&self) -> Vec<(&str, &'static str)> {
        self.levels
            .iter()
            .filter_map(|level| {
                let kernel = SimdutfKernel::for_level(Level::from_name(level)?).column();
                self.peers
                    .iter()
                    .any(|p| p == kernel)
                    .then_some((level.as_str(), kernel))
            })
            .collect()
    }

    fn cells_to_line(&self, cells: &[String]) -> String {
        match self.format {
            TableFormat::Markdown => format!("| {} |\n", cells.join(" | ")),
            TableFormat::Text => {
                let mut line = format!("{:<w$}", cells[0], w = self.name_width);
                let _ = write!(line, " {:>9}", cells[1]);
                // Each column as wide as its heading (peers' names can be long).
                let headings = self.header_cells();
                for (i, cell) in cells.iter().enumerate().skip(2) {
                    let heading = headings.get(i).map_or(0, |h| h.chars().count());
                    let _ = write!(
                        line,
                        " {cell:>w$}",
                        w = COL.max(heading).max(cell.chars().count())
                    );
                }
                line.push('\n');
                line
            }
        }
    }

    fn header_cells(&self) -> Vec<String> {
        let mut cells = vec!["workload".to_owned(), "input".to_owned()];
        cells.extend(self.levels.iter().cloned());
        if self.has_scalar() {
            cells.push("best/scalar".to_owned());
        }
        cells.extend(self.peers.iter().cloned());
        if self.encoding_rs().is_some() {
            cells.push("best/encoding_rs".to_owned());
        }
        for (level, _) in self.simdutf_pairs() {
            cells.push(format!("{level}/simdutf"));
        }
        cells
    }

    /// The column headings (MB/s is said in the method line above the table).
    pub fn head(&self) -> String {
        let cells = self.header_cells();
        let mut out = self.cells_to_line(&cells);
        match self.format {
            TableFormat::Markdown => {
                let mut rule = vec!["---".to_owned()];
                rule.extend(std::iter::repeat_n("---:".to_owned(), cells.len() - 1));
                out.push_str(&format!("| {} |\n", rule.join(" | ")));
            }
            TableFormat::Text => {
                let width = out.trim_end().chars().count();
                out.push_str(&"-".repeat(width));
                out.push('\n');
            }
        }
        out
    }

    /// One workload's row, preceded by its group's title in text tables when the group
    /// changes.
    pub fn row(&mut self, w: &WorkloadResult) -> String {
        let mut out = String::new();
        if self.format == TableFormat::Text && self.last_group.as_deref() != Some(&w.group) {
            if self.last_group.is_some() {
                out.push('\n');
            }
            let _ = writeln!(out, "{}", w.group);
            self.last_group = Some(w.group.clone());
        }
        let dash = || "-".to_owned();
        let mut cells = vec![w.name.clone(), fmt_bytes(w.input_bytes)];
        for level in &self.levels {
            cells.push(w.mb_s(level).map_or_else(dash, fmt_mb_s));
        }
        let best = w.best_of(&self.levels);
        if self.has_scalar() {
            let ratio = best.zip(w.mb_s("scalar")).map(|((_, b), s)| b / s);
            cells.push(ratio.map_or_else(dash, fmt_ratio));
        }
        for peer in &self.peers {
            cells.push(w.mb_s(peer).map_or_else(dash, fmt_mb_s));
        }
        if let Some(encoding_rs) = self.encoding_rs() {
            let ratio = best.zip(w.mb_s(encoding_rs)).map(|((_, b), e)| b / e);
            cells.push(ratio.map_or_else(dash, fmt_ratio));
        }
        for (level, kernel) in self.simdutf_pairs() {
            let ratio = w.mb_s(level).zip(w.mb_s(kernel)).map(|(l, k)| l / k);
            cells.push(ratio.map_or_else(dash, fmt_ratio));
        }
        out.push_str(&self.cells_to_line(&cells));
        out
    }
}

/// The whole table of a saved run, with its description.
pub fn render_run(run: &Run, format: TableFormat) -> String {
    let mut out = describe(run, format);
    out.push('\n');
    let mut table = RunTable::new(
        format,
        &run.levels,
        &run.peers,
        run.workloads.iter().map(|w| w.name.as_str()),
    );
    out.push_str(&table.head());
    for w in &run.workloads {
        out.push_str(&table.row(w));
    }
    let spread = spread(run);
    if !spread.is_empty() {
        out.push('\n');
        out.push_str(&spread);
    }
    let summary = peer_summary(run, format);
    if !summary.is_empty() {
        out.push('\n');
        out.push_str(&summary);
    }
    out
}

/// Per group of workloads (the name up to its first `/`) and per level: the geometric mean over
/// the group's workloads of the level's figure ÷ the best peer's at that level (the fastest of
/// encoding_rs, simdutf8, std and simdutf's kernel for that level; simdutf's other kernels
/// left out). Empty when no peer was measured.
pub fn peer_summary(run: &Run, format: TableFormat) -> String {
    let column_of = |level: &str| Level::from_name(level).map(|l| SimdutfKernel::for_level(l).column());
    let mut groups: Vec<(&str, Vec<Vec<f64>>)> = Vec::new();
    for w in &run.workloads {
        let ratios: Vec<Option<f64>> = run
            .levels
            .iter()
            .map(|level| {
                let ours = w.mb_s(level)?;
                let kernel = column_of(level);
                let best = run
                    .peers
                    .iter()
                    .filter(|p| !p.starts_with("simdutf-") || Some(p.as_str()) == kernel)
                    .filter_map(|p| w.mb_s(p))
                    .max_by(f64::total_cmp)?;
                (best > 0.0 && ours > 0.0).then_some(ours / best)
            })
            .collect();
        if ratios.iter().all(Option::is_none) {
            continue;
        }
        let group = w.name.split('/').next().unwrap_or(&w.name);
        let entry = match groups.iter().position(|(g, _)| *g == group) {
            Some(i) => &mut groups[i].1,
            None => {
                groups.push((group, vec![Vec::new(); run.levels.len()]));
                &mut groups.last_mut().expect("just pushed").1
            }
        };
        for (per_level, ratio) in entry.iter_mut().zip(ratios) {
            per_level.extend(ratio);
        }
    }
    if groups.is_empty() {
        return String::new();
    }
    let mut head = vec!["group".to_owned()];
    head.extend(run.levels.iter().map(|l| format!("{l} ÷ best peer")));
    let line = |cells: &[String]| match format {
        TableFormat::Markdown => format!("| {} |\n", cells.join(" | ")),
        TableFormat::Text => {
            let mut line = format!("{:<16}", cells[0]);
            for (cell, h) in cells.iter().zip(&head).skip(1) {
                let _ = write!(line, " {cell:>w$}", w = h.chars().count());
            }
            line.push('\n');
            line
        }
    };
    let mut out = String::from(
        "simdenc ÷ the best peer at each level (geometric mean over the group's workloads that \
         have a peer):\n",
    );
    if format == TableFormat::Markdown {
        out.push('\n');
    }
    out.push_str(&line(&head));
    if format == TableFormat::Markdown {
        let mut rule = vec!["---".to_owned()];
        rule.extend(std::iter::repeat_n("---:".to_owned(), head.len() - 1));
        out.push_str(&line(&rule));
    }
    for (group, per_level) in groups {
        let mut cells = vec![group.to_owned()];
        cells.extend(per_level.iter().map(|ratios| {
            if ratios.is_empty() {
                return "-".to_owned();
            }
            let mean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
            fmt_ratio(mean)
        }));
        out.push_str(&line(&cells));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(implementation: &str, mb_s: f64) -> Measurement {
        Measurement {
            implementation: implementation.into(),
            mb_s,
            mb_s_median: mb_s,
            calls_per_batch: 1,
        }
    }

    /// Each level is divided by simdutf's kernel for that level (not by the fastest one), and
    /// encoding_rs's ratio finds its column under the Firefox build's name too.
    #[test]
    fn ratios_to_simdutf_per_level_and_to_encoding_rs() {
        let levels = ["avx2".to_owned(), "avx512".to_owned()];
        let peers = [
            "encoding_rs (simd-accel)".to_owned(),
            "simdutf-haswell".to_owned(),
            "simdutf-icelake".to_owned(),
        ];
        let mut table = RunTable::new(TableFormat::Markdown, &levels, &peers, ["w"]);
        assert_eq!(
            table.head().lines().next().unwrap(),
            "| workload | input | avx2 | avx512 | encoding_rs (simd-accel) | simdutf-haswell | simdutf-icelake \
             | best/encoding_rs | avx2/simdutf | avx512/simdutf |"
        );
        let w = WorkloadResult {
            name: "w".into(),
            group: "g".into(),
            input_bytes: 1000,
            results: vec![
                measured("avx2", 300.0),
                measured("avx512", 800.0),
                measured("encoding_rs (simd-accel)", 200.0),
                measured("simdutf-haswell", 600.0),
                measured("simdutf-icelake", 400.0),
            ],
        };
        assert_eq!(
            table.row(&w),
            "| w | 1.0 kB | 300 | 800 | 200 | 600 | 400 | 4.00x | 0.50x | 2.00x |\n"
        );
    }

    /// The best peer at a level is the fastest peer but simdutf's kernels for other levels;
    /// group means are geometric.
    #[test]
    fn summary_against_the_best_peer_at_each_level() {
        let workload = |name: &str, results: Vec<Measurement>| WorkloadResult {
            name: name.into(),
            group: "g".into(),
            input_bytes: 1000,
            results,
        };
        let run = Run {
            format: FORMAT.into(),
            date: String::new(),
            machine: Machine {
                cpu: String::new(),
                cpu_id: None,
                arch: String::new(),
                os: String::new(),
                logical_cpus: 1,
                virtual_machine: None,
                flags: Vec::new(),
                detected_level: String::new(),
                load_average_start: None,
                load_average_end: None,
            },
            software: Software {
                simdenc: String::new(),
                rustc: String::new(),
                profile: String::new(),
                peers: Vec::new(),
            },
            method: Method {
                batch_ms: 1,
                batches: 1,
                statistic: String::new(),
                clock: String::new(),
                unit: String::new(),
            },
            levels: vec!["avx2".into(), "avx512".into()],
            peers: vec![
                "encoding_rs".into(),
                "simdutf-haswell".into(),
                "simdutf-icelake".into(),
            ],
            workloads: vec![
                // avx2 against haswell's 400 (icelake's 800 is not avx2's peer): 0.5; avx512
                // against icelake's 800: 1.
                workload(
                    "utf8/a",
                    vec![
                        measured("avx2", 200.0),
                        measured("avx512", 800.0),
                        measured("encoding_rs", 100.0),
                        measured("simdutf-haswell", 400.0),
                        measured("simdutf-icelake", 800.0),
                    ],
                ),
                // Only encoding_rs: 8 and 8.
                workload(
                    "utf8/b",
                    vec![
                        measured("avx2", 800.0),
                        measured("avx512", 800.0),
                        measured("encoding_rs", 100.0),
                    ],
                ),
            ],
            wall_seconds: 0.0,
        };
        let summary = peer_summary(&run, TableFormat::Markdown);
        let lines: Vec<&str> = summary.lines().collect();
        assert_eq!(lines[2], "| group | avx2 ÷ best peer | avx512 ÷ best peer |");
        assert_eq!(lines[4], "| utf8 | 2.00x | 2.83x |");
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn simdutf_kernel_per_level() {
        let names: Vec<&str> = Level::ALL
            .into_iter()
            .map(|l| SimdutfKernel::for_level(l).column())
            .collect();
        assert_eq!(
            names,
            [
                "simdutf-fallback",
                "simdutf-westmere",
                "simdutf-haswell",
                "simdutf-icelake",
                "simdutf-arm64"
            ]
        );
    }
}
