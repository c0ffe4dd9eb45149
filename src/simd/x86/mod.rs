//! x86_64 levels: the `Vector` implementations and `#[target_feature]` entry points.
//!
//! One module per level (`sse2.rs`, `avx2/`, `avx512/`): its vector type's implementation of
//! the `generic/` traits, thin entry points that instantiate the generic kernels, its table
//! and its `Tuning`; a level's folder also holds the kernels written for its instructions
//! alone (`avx2/cjk_decode.rs`, `avx512/{cjk,transcode}.rs`). Kernels a level does not
//! improve come from the level below (struct update syntax). Every `#[target_feature]` goes
//! through [`with_features`], which holds each level's feature set.

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse2;

/// Puts `#[target_feature]` with the features of one level on each item given: the one place
/// each level's set is written (`cpu::detect` checks the same features before it reports the
/// level). Every `#[target_feature]` function of `x86/` is declared through it.
///
/// `avx512` adds `bmi2` and `popcnt` to the AVX-512 features: `cpu::detect` reports `Avx512`
/// only where it reports `Avx2`, so every CPU that runs them has both (without `popcnt`,
/// counting mask bits is a dozen instructions).
macro_rules! with_features {
    (sse2, $($item:item)*) => {
        $( #[target_feature(enable = "sse2")] $item )*
    };
    (avx2, $($item:item)*) => {
        $( #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")] $item )*
    };
    (avx512, $($item:item)*) => {
        $( #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")] $item )*
    };
}
pub(crate) use with_features;

/// Declares the `#[target_feature]` entry points of `level` (see [`with_features`]) that
/// instantiate generic kernels for one vector type. Signatures only: the bodies are one call
/// each.
macro_rules! entry_points {
    ($level:ident, $vector:ty, { $($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $($generic:ident)::+;)* }) => {
        $(
            $crate::simd::x86::with_features! { $level,
                fn $name($($arg: $ty),*) -> $ret {
                    // SAFETY: the features `$vector` needs are enabled on this function, which
                    // is all the generic kernels require of their caller.
                    unsafe { $($generic)::+::<$vector>($($arg),*) }
                }
            }
        )*
    };
}
pub(crate) use entry_points;
