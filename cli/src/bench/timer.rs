//! The calibrated timing loop.
//!
//! A measurement first grows the number of calls per batch until one batch takes at least the
//! target time (each step scales the count by the shortfall, 2× to 100×, so calibration costs
//! about one batch), then times further batches of that many calls. The batch that reached
//! the target counts as the first sample. The figure reported is the **best** batch (the
//! least time per call): on a shared machine, interference only ever adds time, so the best
//! batch is the closest to what the code costs; the median is kept in the JSON as well.
//!
//! The harness (`bench::measure`) takes the batches in passes over the whole suite: pass 1
//! calibrates every implementation of every workload, each later pass times one more batch of
//! each. A figure's batches are thus spread over the whole run, and a spell of load from other
//! processes (or a busy SMT sibling, which no clock can discount) costs a figure at most one
//! of its batches rather than all of them.
//!
//! Time is the thread's CPU time by default (`CLOCK_THREAD_CPUTIME_ID`, on Linux, macOS and
//! FreeBSD): on a machine shared with other work, a thread spends part of any 20 ms batch
//! preempted, and wall-clock batches measure the machine's load as much as the code (on this
//! project's 2-vCPU VM under a load average of 4 to 7, the benchmark got 49% of a CPU, and
//! wall-clock figures of the same code varied by up to 2× between runs). CPU time counts only
//! the time the thread ran. It cannot remove what the guest does not see (a hypervisor's
//! steal time) nor cache pollution by other processes. `--clock wall` uses wall time.

use std::hint::black_box;
use std::time::{Duration, Instant};

use super::suite::Outcome;

/// What a batch's duration is measured with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Clock {
    /// The thread's CPU time (where the platform has it; wall time elsewhere).
    Cpu,
    /// Wall-clock time (`std::time::Instant`).
    Wall,
}

impl Clock {
    /// `self`, or wall time where the thread's CPU time cannot be read.
    pub fn or_available(self) -> Clock {
        if THREAD_CPU_TIME { self } else { Clock::Wall }
    }

    /// How the clock is described in reports.
    pub fn describe(self) -> &'static str {
        match self {
            Clock::Cpu => "thread CPU time",
            Clock::Wall => "wall time",
        }
    }
}

/// Whether this platform's thread CPU clock is read (see `thread_cpu_seconds`).
const THREAD_CPU_TIME: bool = cfg!(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "freebsd"
));

#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "freebsd"
))]
fn thread_cpu_seconds() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "freebsd"
)))]
fn thread_cpu_seconds() -> f64 {
    unreachable!("Clock::or_available never gives Clock::Cpu here")
}

/// How long to measure.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// The minimum duration of one timed batch.
    pub batch: Duration,
    /// Timed batches per measurement.
    pub batches: u32,
    /// What a batch's duration is measured with.
    pub clock: Clock,
}

/// The result of one measurement.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Seconds per call in the fastest batch.
    pub best: f64,
    /// Seconds per call in the median batch.
    pub median: f64,
    /// Calls per batch.
    pub calls: u64,
}

/// Finds how many calls make a batch of at least `target`: returns that count and the time
/// per call of the batch that reached it (the first sample).
pub fn calibrate(run: &mut dyn FnMut() -> Outcome, timing: Timing) -> (u64, f64) {
    let target = timing.batch.as_secs_f64();
    let mut calls: u64 = 1;
    loop {
        let took = time_batch(run, calls, timing.clock);
        if took >= target {
            return (calls, took / calls as f64);
        }
        let scale = if took > 0.0 {
            (target * 1.2 / took).clamp(2.0, 100.0)
        } else {
            100.0
        };
        calls = ((calls as f64 * scale).ceil() as u64).max(calls + 1);
    }
}

/// Times `calls` calls of `run`: seconds per call.
pub fn time_per_call(run: &mut dyn FnMut() -> Outcome, calls: u64, clock: Clock) -> f64 {
    time_batch(run, calls, clock) / calls as f64
}

/// The best and median of per-call times.
pub fn summarize(mut per_call: Vec<f64>, calls: u64) -> Sample {
    assert!(!per_call.is_empty(), "no batch timed");
    per_call.sort_by(f64::total_cmp);
    let mid = per_call.len() / 2;
    let median = if per_call.len().is_multiple_of(2) {
        (per_call[mid - 1] + per_call[mid]) / 2.0
    } else {
        per_call[mid]
    };
    Sample {
        best: per_call[0],
        median,
        calls,
    }
}

/// Seconds taken by `calls` calls of `run`.
fn time_batch(run: &mut dyn FnMut() -> Outcome, calls: u64, clock: Clock) -> f64 {
    match clock {
        Clock::Wall => {
            let start = Instant::now();
            for _ in 0..calls {
                black_box(run());
            }
            start.elapsed().as_secs_f64()
        }
        Clock::Cpu => {
            let start = thread_cpu_seconds();
            for _ in 0..calls {
                black_box(run());
            }
            thread_cpu_seconds() - start
        }
    }
}
