//! The calibrated timing loop.
//!
//! A measurement first grows the number of calls per batch until one batch takes at least the
//! target time (each step scales the count by the shortfall, 2× to 100×, so calibration costs
//! about one batch), then times further batches of that many calls. The batch that reached
//! the target counts as the first sample. The figure reported is the **best** batch (the
//! least time per call): on a shared machine, interference only ever adds time, so the best
//! batch is the closest to what the code costs; the median is kept in the JSON as well.
//!
//! The harness (`measure_workload`) takes the batches of a workload's implementations in
//! turns (scalar, sse2, avx2, avx512, peers, then again), so that a burst of load from other
//! processes slows one batch of each rather than every batch of one.

use std::hint::black_box;
use std::time::{Duration, Instant};

use super::suite::Outcome;

/// How long to measure.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// The minimum duration of one timed batch.
    pub batch: Duration,
    /// Timed batches per measurement.
    pub batches: u32,
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
pub fn calibrate(run: &mut dyn FnMut() -> Outcome, target: Duration) -> (u64, f64) {
    let target = target.as_secs_f64();
    let mut calls: u64 = 1;
    loop {
        let took = time_batch(run, calls);
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
pub fn time_per_call(run: &mut dyn FnMut() -> Outcome, calls: u64) -> f64 {
    time_batch(run, calls) / calls as f64
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
fn time_batch(run: &mut dyn FnMut() -> Outcome, calls: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..calls {
        black_box(run());
    }
    start.elapsed().as_secs_f64()
}
