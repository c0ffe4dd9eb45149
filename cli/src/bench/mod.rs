//! `simdenc bench`: a fixed suite of workloads on the embedded corpus, measured at every SIMD
//! level this CPU supports (and against encoding_rs, simdutf, simdutf8 and std when built with
//! `--features peers`), printed as a table of MB/s with ratios, saved as JSON, compared
//! across runs and charted as SVG.
//!
//! Module map: `corpus` (the embedded texts and the inputs made from them), `suite` (the
//! named workloads), `api` (the `api` group: the public entry points users call, beside the
//! slice calls they are built on), `mem` (the `mem` group: `simdenc::mem`'s functions),
//! `peers` (the same workloads done by other crates), `simdutf` (simdutf's C++ through its
//! named kernels), `insn` (instructions per byte under qemu, for cli/bench-insn.sh), `timer`
//! (the calibrated loop), `machine` (CPU, flags, compiler, date), `report` (the run as data and as
//! a table), `compare` (two runs side by side), `svg` (charts).

mod api;
mod compare;
mod corpus;
mod insn;
mod machine;
mod mem;
#[cfg(feature = "peers")]
mod peers;
mod report;
#[cfg(feature = "peers")]
mod simdutf;
mod suite;
mod svg;
mod timer;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use simdenc::cpu::{self, Level};

use crate::errors::{Failure, print_stdout, stdout_error};
pub use report::TableFormat;
use report::{Machine, Measurement, Method, PeerVersion, Run, RunTable, Software, WorkloadResult};
use suite::{Peer, Runner, Workload};
use timer::{Clock, Timing};

/// Shown by `simdenc bench --help`.
pub const BENCH_HELP: &str = "\
With no options, runs the whole suite (UTF-8 validation, UTF-8 <-> UTF-16, UTF-16 decode,
single-byte and CJK decode and encode per language, 16- and 64-byte inputs, and the public
entry points users call under api/: Encoding::decode and encode, decode_to_string, TextDecoder,
DecodeReader... beside the slice calls; simdenc::mem's conversions and checks under mem/) on the corpus
embedded in the binary, at every SIMD level this CPU supports, and prints MB/s of input per
level, the best level's ratio to scalar and, in a build with `--features peers`, encoding_rs,
simdutf (C++; its kernel for each level measured: avx512 icelake, avx2 haswell, sse2 westmere,
neon arm64, scalar fallback), simdutf8 and std, with simdenc's best / encoding_rs and each
level / its simdutf kernel. `--features peers-firefox` (RUSTC_BOOTSTRAP=1 on stable) builds
encoding_rs as Firefox does (simd-accel, fast-legacy-encode). Instructions per byte on aarch64
under qemu: cli/bench-insn.sh. Each figure is the best of several timed
batches (--batches) of at least --time ms each, after calibration, timed with the thread's
CPU time (--clock wall for wall time). A default run takes about a minute and a half; build
with --release, or the figures mean nothing.

--compare A.json B.json prints two saved runs side by side (best MB/s of each, B/A, and B/A
per level and peer both have) and writes an SVG chart: to --svg FILE, or by default next to
B.json as A-vs-B.svg. --svg FILE on a measured run (or with --show FILE.json) charts that run.

Examples:
  cargo run --release -p simdenc-cli --features peers -- bench --json bench-$(hostname).json
  simdenc bench --filter utf8 --level scalar,avx2
  simdenc bench --filter api/                   # the public entry points only
  simdenc bench --filter mem/                   # simdenc::mem's functions only
  simdenc bench --quick                         # seconds: checks that everything runs
  simdenc bench --format markdown --json run.json --svg run.svg
  simdenc bench --compare laptop.json server.json --svg laptop-vs-server.svg
  simdenc bench --show run.json --format markdown
  SIMDENC_LEVEL=scalar simdenc bench          # one level only";

/// Options of `simdenc bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Measure only these levels, e.g. `scalar,avx2` (default: every level this CPU
    /// supports, or the one in SIMDENC_LEVEL).
    #[arg(long, value_name = "LEVEL", value_delimiter = ',')]
    pub level: Vec<String>,

    /// Run only the workloads whose names contain SUBSTR (case-insensitive; repeat for
    /// several). `--list` shows the names.
    #[arg(long, value_name = "SUBSTR")]
    pub filter: Vec<String>,

    /// Minimum duration of one timed batch, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub time: u64,

    /// Timed batches per figure (the best is reported).
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub batches: u32,

    /// What batches are timed with: the thread's CPU time (not counting time preempted by
    /// other processes; wall time where unavailable) or wall time.
    #[arg(long, value_enum, value_name = "CLOCK", default_value = "cpu")]
    pub clock: Clock,

    /// A short run (2 ms batches, 2 of them) to check that everything works; the figures are
    /// rough.
    #[arg(long, conflicts_with_all = ["time", "batches"])]
    pub quick: bool,

    /// Save the run (machine, build, method and every figure) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Write an SVG chart to FILE: of this run, of --show, or of --compare.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,

    /// Compare two saved runs instead of measuring.
    #[arg(long, num_args = 2, value_names = ["A.json", "B.json"],
          conflicts_with_all = ["show", "level", "filter", "time", "batches", "clock", "quick", "json", "list"])]
    pub compare: Vec<PathBuf>,

    /// Print a saved run instead of measuring.
    #[arg(long, value_name = "FILE.json",
          conflicts_with_all = ["level", "filter", "time", "batches", "clock", "quick", "json", "list"])]
    pub show: Option<PathBuf>,

    /// Table format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub format: TableFormat,

    /// List the workloads (with --filter: those selected) and exit.
    #[arg(long)]
    pub list: bool,

    /// For cli/bench-insn.sh (instructions per byte under qemu): run the implementation
    /// --impl of the workload --only exactly N times, and nothing else.
    #[arg(long, value_name = "N", hide = true, requires_all = ["only", "implementation"])]
    pub count_runs: Option<u64>,

    /// The workload of --count-runs (its exact name).
    #[arg(long, value_name = "WORKLOAD", hide = true, requires = "count_runs")]
    pub only: Option<String>,

    /// The implementation of --count-runs: a level, or a peer's column name.
    #[arg(long = "impl", value_name = "NAME", hide = true, requires = "count_runs")]
    pub implementation: Option<String>,

    /// For cli/bench-insn.sh: list the selected workloads with their input bytes and the
    /// implementations that can run them at the levels given.
    #[arg(long, hide = true)]
    pub list_impls: bool,

    /// For cli/bench-insn.sh: print the Markdown table of instructions per byte from its
    /// counts file.
    #[arg(long, value_name = "COUNTS", hide = true)]
    pub insn_table: Option<PathBuf>,
}

/// Runs `simdenc bench`.
pub fn run(args: &BenchArgs) -> Result<ExitCode, Failure> {
    if let (Some(runs), Some(only), Some(implementation)) =
        (args.count_runs, &args.only, &args.implementation)
    {
        print_stdout(&insn::count_runs(only, implementation, runs)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &args.insn_table {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::Message(format!("{}: {e}", path.display())))?;
        let counts =
            insn::parse_counts(&text).map_err(|e| Failure::Message(format!("{}: {e}", path.display())))?;
        print_stdout(&insn::render_table(&counts))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let [a, b] = args.compare.as_slice() {
        return compare_runs(args, a, b);
    }
    if let Some(path) = &args.show {
        let run = compare::load(path).map_err(Failure::Message)?;
        print_stdout(&report::render_run(&run, args.format))?;
        if let Some(svg_path) = &args.svg {
            write_svg(svg_path, &svg::render(&svg::run_chart(&run)))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let filters: Vec<String> = args.filter.iter().map(|f| f.to_lowercase()).collect();
    let keep = |name: &str| {
        let name = name.to_lowercase();
        filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
    };
    if args.list {
        let (names, _) = suite::build(&|_| false, &[]);
        let mut out = String::new();
        for (name, group) in names.iter().filter(|(n, _)| keep(n)) {
            out.push_str(&format!("{name:<36} {}\n", group.title));
        }
        print_stdout(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let levels = levels(&args.level)?;
    if args.list_impls {
        print_stdout(&insn::list_impls(&keep, &levels))?;
        return Ok(ExitCode::SUCCESS);
    }
    let clock = args.clock.or_available();
    let timing = if args.quick {
        Timing {
            batch: Duration::from_millis(2),
            batches: 2,
            clock,
        }
    } else {
        Timing {
            batch: Duration::from_millis(args.time),
            batches: args.batches,
            clock,
        }
    };
    measure(args, &levels, timing, &keep)
}

/// The levels to measure: `--level`, else SIMDENC_LEVEL, else every supported one.
fn levels(requested: &[String]) -> Result<Vec<Level>, Failure> {
    let from_env;
    let (requested, source): (Vec<&str>, &str) = if !requested.is_empty() {
        (requested.iter().map(String::as_str).collect(), "--level")
    } else {
        from_env = std::env::var("SIMDENC_LEVEL").unwrap_or_default();
        if from_env.trim().is_empty() {
            return Ok(cpu::supported().collect());
        }
        (vec![from_env.trim()], "SIMDENC_LEVEL")
    };
    let supported: Vec<&str> = cpu::supported().map(Level::name).collect();
    let mut levels = Vec::new();
    for name in requested {
        let level = Level::from_name(name).ok_or_else(|| {
            Failure::Usage(format!(
                "{source}: unknown level {name:?}: expected one of scalar, sse2, avx2, avx512, neon"
            ))
        })?;
        if !level.is_supported() {
            return Err(Failure::Usage(format!(
                "{source}: this CPU does not support the {level} level (it supports {})",
                supported.join(", ")
            )));
        }
        if !levels.contains(&level) {
            levels.push(level);
        }
    }
    levels.sort();
    Ok(levels)
}

/// The peers this binary measures, simdutf with the kernel it runs for each of `levels`.
fn peer_versions(levels: &[Level]) -> Vec<PeerVersion> {
    #[cfg(feature = "peers")]
    {
        let rustc_version = machine::RUSTC.split_whitespace().nth(1).unwrap_or("?");
        let kernels: Vec<String> = levels
            .iter()
            .map(|&level| {
                let kernel = suite::SimdutfKernel::for_level(level);
                let state = if simdutf::Simdutf::get(kernel).is_some() {
                    ""
                } else {
                    " (not available)"
                };
                format!("{level}: {}{state}", kernel.name())
            })
            .collect();
        vec![
            PeerVersion {
                name: Peer::EncodingRs.name().into(),
                version: peers::encoding_rs_build(),
            },
            PeerVersion {
                name: "simdutf".into(),
                version: format!(
                    "{} (C++, the sources of the simdutf crate {}; kernel forced per level: {})",
                    simdutf::version(),
                    simdutf::CRATE_VERSION,
                    kernels.join(", ")
                ),
            },
            PeerVersion {
                name: Peer::Simdutf8.name().into(),
                version: peers::SIMDUTF8_VERSION.into(),
            },
            PeerVersion {
                name: Peer::Std.name().into(),
                version: rustc_version.into(),
            },
        ]
    }
    #[cfg(not(feature = "peers"))]
    {
        let _ = levels;
        Vec::new()
    }
}

/// Measures the selected workloads and prints the table (the header first, the rows when the
/// last pass is done), then saves and charts the run as asked.
fn measure(
    args: &BenchArgs,
    levels: &[Level],
    timing: Timing,
    keep: &dyn Fn(&str) -> bool,
) -> Result<ExitCode, Failure> {
    let started = Instant::now();
    let date = machine::now_utc();
    let load_start = machine::load_average();
    let (_, mut workloads) = suite::build(keep, levels);
    if workloads.is_empty() {
        return Err(Failure::Usage(format!(
            "--filter {} selects no workload; see `simdenc bench --list`",
            args.filter.join(" --filter ")
        )));
    }
    let peers: Vec<Peer> = Peer::ALL
        .into_iter()
        .filter(|p| workloads.iter().any(|w| w.peers.iter().any(|(q, _)| q == p)))
        .collect();
    let mut run = Run {
        format: report::FORMAT.into(),
        date,
        machine: Machine {
            cpu: machine::cpu_model(),
            cpu_id: machine::cpu_id(),
            arch: std::env::consts::ARCH.into(),
            os: std::env::consts::OS.into(),
            logical_cpus: machine::logical_cpus(),
            virtual_machine: machine::virtual_machine(),
            flags: machine::flags(),
            detected_level: cpu::detected().name().into(),
            load_average_start: load_start,
            load_average_end: None,
        },
        software: Software {
            simdenc: machine::SIMDENC_VERSION.into(),
            rustc: machine::RUSTC.into(),
            profile: machine::PROFILE.into(),
            peers: peer_versions(levels),
        },
        method: Method {
            batch_ms: timing.batch.as_millis() as u64,
            batches: timing.batches,
            statistic: "best".into(),
            clock: timing.clock.describe().into(),
            unit: "MB/s of input (1 MB = 10^6 bytes)".into(),
        },
        levels: levels.iter().map(|l| l.name().to_owned()).collect(),
        peers: peers.iter().map(|p| p.name().to_owned()).collect(),
        workloads: Vec::new(),
        wall_seconds: 0.0,
    };

    let mut stdout = std::io::stdout().lock();
    let mut emit = |text: &str| -> Result<(), Failure> {
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
            .map_err(|e| stdout_error(&e))
    };
    if !machine::PROFILE.starts_with("release") {
        crate::errors::eprintln_safe(&format!(
            "simdenc: warning: this binary is a {} build; its figures say nothing about \
             simdenc's speed (build with --release)",
            machine::PROFILE
        ));
    }
    emit(&report::describe(&run, args.format))?;
    emit("\n")?;
    let mut table = RunTable::new(
        args.format,
        &run.levels,
        &run.peers,
        workloads.iter().map(|w| w.name.as_str()),
    );
    emit(&table.head())?;
    // Pass 0 checks and calibrates every implementation of every workload and times its first
    // batch; each later pass times one more batch of each. A figure's batches are thus spread
    // over the whole run, so a spell of load from other processes costs each figure at most
    // one of its batches.
    let progress = indicatif::ProgressBar::new(workloads.len() as u64 * u64::from(timing.batches));
    progress.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut states: Vec<Option<Vec<Entry>>> = Vec::with_capacity(workloads.len());
    let mut failures = Vec::new();
    for pass in 0..timing.batches {
        progress.set_message(format!("pass {}/{}", pass + 1, timing.batches));
        for (i, w) in workloads.iter_mut().enumerate() {
            if pass == 0 {
                match prepare(w, levels, timing) {
                    Ok(entries) => states.push(Some(entries)),
                    Err(message) => {
                        progress.suspend(|| crate::errors::eprintln_safe(&format!("simdenc: {message}")));
                        failures.push(w.name.clone());
                        states.push(None);
                    }
                }
            } else if let Some(entries) = &mut states[i] {
                time_round(w, entries, timing)?;
            }
            progress.inc(1);
        }
    }
    progress.finish_and_clear();
    for (w, entries) in workloads.iter().zip(states) {
        if let Some(entries) = entries {
            let result = finish(w, entries);
            emit(&table.row(&result))?;
            run.workloads.push(result);
        }
    }
    // Leave the process as it found it.
    let _ = cpu::force(cpu::detected());
    run.machine.load_average_end = machine::load_average();
    run.wall_seconds = started.elapsed().as_secs_f64();
    emit(&format!(
        "\n{} workloads in {:.1} s; load average at the end: {}\n{}",
        run.workloads.len(),
        run.wall_seconds,
        run.machine.load_average_end.as_deref().unwrap_or("unknown"),
        report::spread(&run)
    ))?;
    let summary = report::peer_summary(&run, args.format);
    if !summary.is_empty() {
        emit(&format!("\n{summary}"))?;
    }
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&run)
            .map_err(|e| Failure::Message(format!("cannot serialise the run: {e}")))?;
        std::fs::write(path, json + "\n")
            .map_err(|e| Failure::Message(format!("{}: {e}", path.display())))?;
        crate::errors::eprintln_safe(&format!("simdenc: saved the run to {}", path.display()));
    }
    if let Some(path) = &args.svg {
        write_svg(path, &svg::render(&svg::run_chart(&run)))?;
    }
    if failures.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(Failure::Message(format!(
            "{} workload(s) gave inconsistent results: {}",
            failures.len(),
            failures.join(", ")
        )))
    }
}

/// One column of a workload's row: a level of simdenc (runner 0) or a peer (runner `i + 1`),
/// with its calibrated batch size and the time per call of each batch so far.
struct Entry {
    name: &'static str,
    level: Option<Level>,
    runner: usize,
    calls: u64,
    per_call: Vec<f64>,
}

/// The runner of `entry` with its level made active.
fn runner_for<'a>(w: &'a mut Workload, entry: &Entry) -> Result<&'a mut Runner, Failure> {
    if let Some(level) = entry.level {
        cpu::force(level).map_err(|e| Failure::Message(format!("{}: {e}", w.name)))?;
    }
    Ok(if entry.runner == 0 {
        &mut w.simdenc
    } else {
        &mut w.peers[entry.runner - 1].1
    })
}

/// Checks every implementation of `w` (it must consume the whole input, and every level must
/// produce the same output, as must the peers where `Work::peers_must_agree` or
/// `Peer::must_agree`), then calibrates each and keeps the calibrating batch as the first
/// sample.
fn prepare(w: &mut Workload, levels: &[Level], timing: Timing) -> Result<Vec<Entry>, String> {
    let units = w.work.input_units();
    let mut entries: Vec<Entry> = levels
        .iter()
        .map(|&level| (level.name(), Some(level), 0))
        .chain(
            w.peers
                .iter()
                .enumerate()
                .map(|(i, (peer, _))| (peer.name(), None, i + 1)),
        )
        .map(|(name, level, runner)| Entry {
            name,
            level,
            runner,
            calls: 0,
            per_call: Vec::new(),
        })
        .collect();
    let peers_must_agree = w.work.peers_must_agree();
    let mut first: Option<(&str, suite::Outcome)> = None;
    for e in &mut entries {
        let name = w.name.clone();
        let must_agree = e.runner > 0 && (peers_must_agree || w.peers[e.runner - 1].0.must_agree());
        let runner = runner_for(w, e).map_err(|f| f.to_string())?;
        let outcome = runner();
        if outcome.read != units {
            return Err(format!(
                "{name} with {}: consumed {} of {units} input units",
                e.name, outcome.read
            ));
        }
        if e.level.is_some() {
            match first {
                Some((other, o)) if o != outcome => {
                    return Err(format!(
                        "{name}: {other} wrote {} units, {} wrote {}",
                        o.written, e.name, outcome.written
                    ));
                }
                Some(_) => {}
                None => first = Some((e.name, outcome)),
            }
        } else if must_agree
            && let Some((other, o)) = first
            && o != outcome
        {
            return Err(format!("{name}: {other} gave {o:?}, {} gave {outcome:?}", e.name));
        }
        let (calls, per_call) = timer::calibrate(runner, timing);
        e.calls = calls;
        e.per_call.push(per_call);
    }
    Ok(entries)
}

/// Times one more batch of each implementation of `w`.
fn time_round(w: &mut Workload, entries: &mut [Entry], timing: Timing) -> Result<(), Failure> {
    for e in entries {
        let runner = runner_for(w, e)?;
        e.per_call
            .push(timer::time_per_call(runner, e.calls, timing.clock));
    }
    Ok(())
}

/// The figures of `w` from its batches.
fn finish(w: &Workload, entries: Vec<Entry>) -> WorkloadResult {
    let mb_s = |seconds: f64| w.work.input_bytes() as f64 / seconds / 1e6;
    let results = entries
        .into_iter()
        .map(|e| {
            let sample = timer::summarize(e.per_call, e.calls);
            Measurement {
                implementation: e.name.into(),
                mb_s: mb_s(sample.best),
                mb_s_median: mb_s(sample.median),
                calls_per_batch: sample.calls,
            }
        })
        .collect();
    WorkloadResult {
        name: w.name.clone(),
        group: w.group.title.into(),
        input_bytes: w.work.input_bytes(),
        results,
    }
}

fn compare_runs(args: &BenchArgs, a_path: &Path, b_path: &Path) -> Result<ExitCode, Failure> {
    let a = compare::load(a_path).map_err(Failure::Message)?;
    let b = compare::load(b_path).map_err(Failure::Message)?;
    print_stdout(&compare::render(&a, a_path, &b, b_path, args.format))?;
    let svg_path = args
        .svg
        .clone()
        .unwrap_or_else(|| compare::default_svg_path(a_path, b_path));
    write_svg(&svg_path, &svg::render(&svg::compare_chart(&a, &b)))?;
    Ok(ExitCode::SUCCESS)
}

fn write_svg(path: &Path, svg: &str) -> Result<(), Failure> {
    std::fs::write(path, svg).map_err(|e| Failure::Message(format!("{}: {e}", path.display())))?;
    crate::errors::eprintln_safe(&format!("simdenc: wrote the chart to {}", path.display()));
    Ok(())
}
