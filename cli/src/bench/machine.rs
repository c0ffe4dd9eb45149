//! What a run records about the machine and the build: CPU model and flags, levels, compiler,
//! date, load.

use std::time::{SystemTime, UNIX_EPOCH};

/// The `rustc -V` of the compiler that built this binary (captured by build.rs).
pub const RUSTC: &str = env!("SIMDENC_BUILD_RUSTC");
/// The cargo profile and optimisation level of this binary (captured by build.rs).
pub const PROFILE: &str = env!("SIMDENC_BUILD_PROFILE");
/// The simdenc version.
pub const SIMDENC_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The CPU's model name: `/proc/cpuinfo`'s `model name` (x86), else its `Hardware` or
/// implementer/part lines (aarch64), else macOS's `machdep.cpu.brand_string`.
pub fn cpu_model() -> String {
    if let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") {
        let field = |key: &str| {
            info.lines().find_map(|line| {
                let (k, v) = line.split_once(':')?;
                (k.trim() == key && !v.trim().is_empty()).then(|| v.trim().to_owned())
            })
        };
        if let Some(model) = field("model name").or_else(|| field("Hardware")) {
            return model;
        }
        if let (Some(implementer), Some(part)) = (field("CPU implementer"), field("CPU part")) {
            return format!("CPU implementer {implementer}, part {part}");
        }
    }
    std::process::Command::new("sysctl")
        .args(["-n", "machdep.cpu.brand_string"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown CPU".into())
}

/// The CPU's vendor, family, model and stepping from `/proc/cpuinfo` (x86), which tell CPUs
/// apart where a hypervisor shows a generic model name.
pub fn cpu_id() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let field = |key: &str| {
        info.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            (k.trim() == key).then(|| v.trim().to_owned())
        })
    };
    Some(format!(
        "{} family {} model {} stepping {}",
        field("vendor_id")?,
        field("cpu family")?,
        field("model")?,
        field("stepping")?
    ))
}

/// Whether the kernel says it runs under a hypervisor (`hypervisor` in `/proc/cpuinfo`'s
/// x86 flags); `None` where that cannot be told.
pub fn virtual_machine() -> Option<bool> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let flags = info
        .lines()
        .find(|l| l.starts_with("flags") || l.starts_with("Features"))?;
    Some(flags.split_whitespace().any(|f| f == "hypervisor"))
}

/// The CPU features relevant to simdenc's levels that this CPU has, as Rust names them.
pub fn flags() -> Vec<String> {
    #[allow(unused_mut)]
    let mut flags: Vec<&str> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! detect {
            ($($f:tt),*) => {
                $(if std::is_x86_feature_detected!($f) { flags.push($f); })*
            };
        }
        detect!(
            "sse2",
            "sse4.2",
            "popcnt",
            "bmi1",
            "bmi2",
            "avx2",
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512vbmi",
            "avx512vbmi2"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            flags.push("neon");
        }
        if std::arch::is_aarch64_feature_detected!("sve") {
            flags.push("sve");
        }
        if std::arch::is_aarch64_feature_detected!("sve2") {
            flags.push("sve2");
        }
    }
    flags.into_iter().map(str::to_owned).collect()
}

/// The number of logical CPUs this process may use.
pub fn logical_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The 1, 5 and 15 minute load averages from `/proc/loadavg`, as written there.
pub fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    (fields.len() == 3).then(|| fields.join(" "))
}

/// Now, in UTC, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Seconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian calendar).
pub fn format_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to (year, month, day).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::format_utc;

    #[test]
    fn dates() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(format_utc(4_102_444_799), "2099-12-31T23:59:59Z");
    }
}
