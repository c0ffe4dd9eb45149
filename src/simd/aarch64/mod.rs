//! aarch64 levels: NEON, the aarch64 baseline, so no detection runs for it.

pub(crate) mod neon;
