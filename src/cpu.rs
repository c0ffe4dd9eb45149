//! Instruction-set levels: which the CPU supports, which is active, and forcing a lower one.
//!
//! This is the only place the CPU is queried. Detection runs once and is cached; where the
//! compile target already guarantees a level (SSE2 on x86_64, NEON on aarch64) no detection
//! code runs for it.
//!
//! | level | features (all required) |
//! |---|---|
//! | `Scalar` | none: portable code |
//! | `Sse2` | x86_64 baseline |
//! | `Avx2` | avx2, bmi1, bmi2, popcnt |
//! | `Avx512` | avx512f, avx512bw, avx512vl, avx512vbmi, avx512vbmi2, bmi2 (and the `Avx2` set, so popcnt) |
//! | `Neon` | aarch64 baseline |
//!
//! AVX-512 requires VBMI and VBMI2 as simdutf8 does: CPUs that have them (Ice Lake and later,
//! Zen 4 and later) also run 512-bit code without the frequency penalty of the first ones.
//!
//! # Without the `std` feature
//!
//! Run-time detection (`is_x86_feature_detected!`) is part of the standard library, so a
//! `no_std` build decides from the compile target alone: a level is supported when the
//! crate is compiled with all of its features enabled (`cfg!(target_feature = ...)`). On
//! x86_64 that is `Sse2` always, `Avx2` with e.g. `-C target-cpu=haswell` (or
//! `-C target-feature=+avx2,+bmi1,+bmi2,+popcnt`) and `Avx512` with e.g.
//! `-C target-cpu=icelake-server`; NEON on aarch64 as with `std`. This is sound by
//! construction (the compiler may use those instructions anywhere in such a build already)
//! and never picks a level the target does not promise, so a plain x86_64 `no_std` build runs
//! the SSE2 kernels.
//!
//! ```
//! use simdenc::cpu::{self, Level};
//! let best = cpu::detected();
//! assert!(best.is_supported());
//! assert!(Level::Scalar.is_supported());
//! assert_eq!(Level::from_name("scalar"), Some(Level::Scalar));
//! ```

use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering};

/// An instruction-set level for the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Portable code, word at a time where it pays.
    Scalar,
    /// x86_64 SSE2 (the x86_64 baseline).
    Sse2,
    /// x86_64 AVX2 (with BMI1, BMI2, POPCNT).
    Avx2,
    /// x86_64 AVX-512 F, BW, VL, VBMI, VBMI2 (with BMI2).
    Avx512,
    /// aarch64 NEON (the aarch64 baseline).
    Neon,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 5] = [
        Level::Scalar,
        Level::Sse2,
        Level::Avx2,
        Level::Avx512,
        Level::Neon,
    ];

    /// The lowercase name used by `SIMDENC_LEVEL` and in reports.
    ///
    /// ```
    /// assert_eq!(simdenc::cpu::Level::Avx512.name(), "avx512");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Sse2 => "sse2",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
            Level::Neon => "neon",
        }
    }

    /// The level named `name` (as [`Level::name`] gives, ASCII case-insensitive).
    ///
    /// ```
    /// use simdenc::cpu::Level;
    /// assert_eq!(Level::from_name("AVX2"), Some(Level::Avx2));
    /// assert_eq!(Level::from_name("mmx"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether this CPU can run this level's kernels.
    ///
    /// ```
    /// assert!(simdenc::cpu::Level::Scalar.is_supported());
    /// ```
    pub fn is_supported(self) -> bool {
        supported_mask() & (1 << self as u8) != 0
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Bit `level as u8` set for each supported level; bit 7 marks "computed".
static SUPPORTED: AtomicU8 = AtomicU8::new(0);

fn supported_mask() -> u8 {
    let mask = SUPPORTED.load(Ordering::Relaxed);
    if mask != 0 {
        return mask;
    }
    let mask = 0x80 | detect();
    SUPPORTED.store(mask, Ordering::Relaxed);
    mask
}

/// The levels the compile target guarantees: those whose features are all enabled at compile
/// time (`-C target-cpu`, `-C target-feature`). All that a build without `std` can know, and
/// where run-time detection starts from.
#[cfg(target_arch = "x86_64")]
const fn target_mask() -> u8 {
    let mut mask = 1 << Level::Scalar as u8 | 1 << Level::Sse2 as u8;
    if cfg!(all(
        target_feature = "avx2",
        target_feature = "bmi1",
        target_feature = "bmi2",
        target_feature = "popcnt"
    )) {
        mask |= 1 << Level::Avx2 as u8;
        if cfg!(all(
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "avx512vl",
            target_feature = "avx512vbmi",
            target_feature = "avx512vbmi2"
        )) {
            mask |= 1 << Level::Avx512 as u8;
        }
    }
    mask
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn detect() -> u8 {
    let mut mask = target_mask();
    if std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("popcnt")
    {
        mask |= 1 << Level::Avx2 as u8;
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512vbmi")
            && std::is_x86_feature_detected!("avx512vbmi2")
        {
            mask |= 1 << Level::Avx512 as u8;
        }
    }
    mask
}

/// Without `std`, from the compile target's features only (see the module's docs).
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn detect() -> u8 {
    target_mask()
}

#[cfg(target_arch = "aarch64")]
fn detect() -> u8 {
    1 << Level::Scalar as u8 | 1 << Level::Neon as u8
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn detect() -> u8 {
    1 << Level::Scalar as u8
}

/// Every level this CPU supports, lowest first.
///
/// ```
/// assert_eq!(simdenc::cpu::supported().next(), Some(simdenc::cpu::Level::Scalar));
/// ```
pub fn supported() -> impl Iterator<Item = Level> {
    Level::ALL.into_iter().filter(|l| l.is_supported())
}

/// The best level this CPU supports.
///
/// ```
/// let level = simdenc::cpu::detected();
/// assert!(simdenc::cpu::supported().all(|l| l <= level || l == simdenc::cpu::Level::Neon));
/// ```
pub fn detected() -> Level {
    supported()
        .filter(|&l| l != Level::Neon)
        .last()
        .map_or(Level::Scalar, |best| {
            if Level::Neon.is_supported() {
                Level::Neon
            } else {
                best
            }
        })
}

/// The level new decoders and encoders use: [`detected`] unless [`force`]d lower.
///
/// ```
/// assert!(simdenc::cpu::active().is_supported());
/// ```
pub fn active() -> Level {
    crate::simd::active().level()
}

/// The error of [`force`] and `force_from_env` (with the `std` feature).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(Reason);

/// Why [`Unsupported`] (a type of its own so that `force` needs no allocation).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Reason {
    /// The CPU (or, without `std`, the compile target) lacks this level.
    Level(Level),
    /// `SIMDENC_LEVEL` has this value, which names no level.
    #[cfg(feature = "std")]
    EnvValue(String),
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Reason::Level(level) => write!(f, "this CPU does not support the {level} level"),
            #[cfg(feature = "std")]
            Reason::EnvValue(value) => write!(
                f,
                "SIMDENC_LEVEL={value}: expected one of scalar, sse2, avx2, avx512, neon"
            ),
        }
    }
}

impl core::error::Error for Unsupported {}

/// Makes `level` the active level for decoders and encoders created from now on (and for
/// the one-shot functions). Refuses levels this CPU does not support. Meant for benchmarks
/// and tools; tests pass kernel tables explicitly instead of changing global state.
///
/// ```
/// use simdenc::cpu::{self, Level};
/// cpu::force(Level::Scalar).unwrap();
/// assert_eq!(cpu::active(), Level::Scalar);
/// cpu::force(cpu::detected()).unwrap();
/// ```
pub fn force(level: Level) -> Result<(), Unsupported> {
    if crate::simd::set_active(level) {
        Ok(())
    } else {
        Err(Unsupported(Reason::Level(level)))
    }
}

/// Honours the `SIMDENC_LEVEL` environment variable (`scalar`, `sse2`, `avx2`, `avx512`,
/// `neon`): forces that level and returns it; `Ok(None)` if the variable is unset or empty.
/// Requires the `std` feature.
///
/// ```
/// // With SIMDENC_LEVEL unset this does nothing.
/// if std::env::var_os("SIMDENC_LEVEL").is_none() {
///     assert_eq!(simdenc::cpu::force_from_env(), Ok(None));
/// }
/// ```
#[cfg(feature = "std")]
pub fn force_from_env() -> Result<Option<Level>, Unsupported> {
    let Some(value) = std::env::var_os("SIMDENC_LEVEL") else {
        return Ok(None);
    };
    let value = value.to_string_lossy();
    if value.trim().is_empty() {
        return Ok(None);
    }
    let level = Level::from_name(&value).ok_or_else(|| Unsupported(Reason::EnvValue(value.into_owned())))?;
    force(level)?;
    Ok(Some(level))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the compile target guarantees (all a `no_std` build uses) the CPU has, and a
    /// plain x86_64 target guarantees SSE2.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn target_levels_are_detected_levels() {
        assert_eq!(detect() & target_mask(), target_mask());
        assert_ne!(target_mask() & 1 << Level::Sse2 as u8, 0);
        assert_eq!(
            target_mask() & 1 << Level::Avx2 as u8 != 0,
            cfg!(all(
                target_feature = "avx2",
                target_feature = "bmi1",
                target_feature = "bmi2",
                target_feature = "popcnt"
            ))
        );
    }

    #[test]
    fn unsupported_messages() {
        let err = Unsupported(Reason::Level(Level::Avx512));
        assert_eq!(err.to_string(), "this CPU does not support the avx512 level");
        let err = Unsupported(Reason::EnvValue("mmx".into()));
        assert_eq!(
            err.to_string(),
            "SIMDENC_LEVEL=mmx: expected one of scalar, sse2, avx2, avx512, neon"
        );
    }
}
