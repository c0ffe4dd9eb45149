//! x86_64 levels: the `Vector` implementations and `#[target_feature]` entry points.
//!
//! Each file holds only its level's vector type implementation, thin entry points, and its
//! table; the algorithms are in `generic/`. Kernels a level does not improve come from the
//! level below (struct update syntax).

pub(crate) mod avx2;
pub(crate) mod avx2_pairs;
pub(crate) mod avx512;
pub(crate) mod avx512_pairs;
pub(crate) mod avx512_transcode;
pub(crate) mod sse2;

/// Declares `#[target_feature]` entry points that instantiate generic kernels for one vector
/// type. Signatures only: the bodies are one call each.
macro_rules! entry_points {
    ($features:literal, $vector:ty, { $($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $($generic:ident)::+;)* }) => {
        $(
            #[target_feature(enable = $features)]
            fn $name($($arg: $ty),*) -> $ret {
                // SAFETY: the features `$vector` needs are enabled on this function, which is
                // all the generic kernels require of their caller.
                unsafe { $($generic)::+::<$vector>($($arg),*) }
            }
        )*
    };
}
pub(crate) use entry_points;
