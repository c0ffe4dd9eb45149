//! encoding_rs 0.8.44's crate name over simdenc (compat/run.sh patches it in).
//!
//! The glob re-exports every public item of simdenc, its modules included: `mem` (encoding_rs's
//! `encoding_rs::mem`) is re-exported by this line as soon as simdenc has it, and until then
//! a client that calls `encoding_rs::mem::…` fails to compile, which run.sh reports as such.
#![no_std]

pub use simdenc::*;
