//! Two-byte CJK decoding (Shift_JIS, EUC-JP, EUC-KR, Big5, gb18030/GBK pairs) in blocks of
//! `LANES` input bytes, written once over [`CjkDecodeVector`]: the block loop, the lead/trail
//! analysis and the checks are here; how a level looks leads and trails up, gathers the
//! code points and compacts the output are its [`CjkDecodeVector`] methods (NEON: 64-entry
//! `tbl` lookups and one lane load per pair; AVX2: nibble lookups and `vpgatherdd`, see
//! `x86/avx2/cjk_decode.rs`, which shares the block loop and the lead analysis).
//!
//! ```text
//! while LANES input bytes and ROOM units of output remain:
//!     v = LANES bytes, starting at a character boundary
//!     all ASCII: copy or widen v; next
//!     L = bytes that can lead a pair; N = bytes that cannot trail one
//!     leads = every other byte of each run of L, from the run's first byte;
//!             trails = leads shifted by one byte (a lead in the last byte: stop before
//!             it, read LANES - 1 bytes)
//!     stop if a non-ASCII byte is neither a lead nor a trail, or a trail is in N
//!     per byte pair 2k, 2k+1 (at most one lead): pointer = (row - 1) * row_len + col,
//!     gather the code points; stop if a lead's pointer is at or above the limit or its code
//!     point is not plain from U+0080 (for UTF-8 checked from U+0800 first: where that
//!     fails, again from U+0080, and the pairs below U+0800 marked)
//!     output, per input byte: UTF-16: the byte (ASCII), its pair's code point (leads),
//!     nothing (trails); UTF-8: the byte (ASCII), the first two bytes of its pair's code
//!     point (leads; the first one only below U+0800), the last one (trails); compacted by
//!     table shuffles
//!     after a block of pairs only (a lead at every even byte) and at a level with
//!     `CjkPairRuns` (NEON): steps of PAIRS bytes while every even byte leads a pair and
//!     every odd one trails it (their code points plain), each written exactly
//! a block that stopped: the scalar kernel, to the first character boundary from the
//!     block's end; the kernel stops if it stopped before, and goes on otherwise
//! the scalar kernel finishes
//! ```
//! Every check comes before any output of its block, and the scalar kernel (the reference,
//! plain from U+0080) decodes a stopped block character by character, so `(read, written)`
//! equal the scalar kernel's. gb18030's four-byte sequences (a lead, then a digit, which
//! is no trail) stop a block: the scalar kernel decodes them.
//!
//! The compacted pieces are stored whole (16 bytes) one after the other, each over the
//! garbage the one before left after its end; a block's last piece leaves garbage for the
//! next block's first store (16 bytes or more from its start) to overwrite. Where no block
//! follows (the scalar kernel takes over, or the loop ends), the 16 bytes after the last
//! block's output, read before its stores, are written back, so nothing after `written`
//! changes (`docs/decisions.md`, "CJK pair kernels without look-ahead").

// The `CjkDecodeVector` skeleton has its instances at AVX2 and NEON; AVX-512 uses the lead
// analysis and its own algorithm.

use super::super::PairTables;
use super::super::scalar;
use super::super::vector::Vector;
use super::ascii;
use super::rows::{Keep, compact_rows};
use crate::simd::OutBytes;
use core::mem::MaybeUninit;

/// By the 8 bits of `kept` (u16 lane k is kept): the bytes of the kept lanes, in order.
pub(crate) static ROWS16: [[u8; 16]; 256] = compact_rows(Keep::TwoOrNone).0;
/// The bytes each row of [`ROWS16`] keeps (a load rather than a popcount, which NEON does
/// through a vector register).
#[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
pub(crate) static ROWS16_LENS: [u8; 256] = compact_rows(Keep::TwoOrNone).1;

/// Each byte pair's even byte, in a mask of `bits` bits per byte.
const fn even(bits: u32) -> u64 {
    match bits {
        1 => 0x5555_5555_5555_5555,
        2 => 0x3333_3333_3333_3333,
        4 => 0x0F0F_0F0F_0F0F_0F0F,
        _ => 0x00FF_00FF_00FF_00FF,
    }
}

/// The lowest bit of each byte's group, in a mask of `bits` bits per byte.
const fn lowest(bits: u32) -> u64 {
    match bits {
        1 => u64::MAX,
        2 => 0x5555_5555_5555_5555,
        4 => 0x1111_1111_1111_1111,
        _ => 0x0101_0101_0101_0101,
    }
}

/// The leads among the lead-capable bytes `capable` (`bits` bits per byte, each byte's
/// group all ones or all zeros: 1 from a `movemask`, 4 from NEON's narrowing shift): in each run of
/// them, those at an even distance from the run's first byte (a lead's trail may itself be
/// lead-capable, so leads and trails alternate from where the run starts).
#[inline(always)]
pub(crate) fn leads_of(capable: u64, bits: u32) -> u64 {
    let even = even(bits);
    let starts = capable & !(capable << bits);
    // Adding one at the start of each run beginning at an odd byte carries through the run
    // and clears it: what is left are the runs beginning at an even byte.
    let even_runs = capable.wrapping_add(starts & lowest(bits) & !even) & capable;
    (even_runs & even) | (capable & !even_runs & !even)
}

/// The operations of the CJK decode kernels on one block of `LANES` bytes, beyond those of
/// [`Vector`] (loads, stores, widening, `or`: an ASCII block's), whose contract they share:
/// the instruction set of the implementing type is enabled in the caller, pointers are valid
/// for what a method reads or writes. `LANES` is at most 64 / `BITS`.
pub(crate) trait CjkDecodeVector: Vector {
    /// Bits per byte in the masks the methods take and return.
    const BITS: u32;
    /// Output room (bytes) a block's UTF-8 needs when stored whole: at most this many are
    /// written (the garbage after the block's output included).
    const ROOM8: usize;
    /// The same for UTF-16 (units).
    const ROOM16: usize;
    /// Whether an all-ASCII block starts a run of ASCII copied four vectors at a time (HTML)
    /// rather than the next block (dense CJK text, where the run's branch costs more).
    const ASCII_RUNS: bool;
    /// Whether a block the loop cannot decode goes to the scalar kernel through a cold call
    /// out of line (`stopped`), rather than a call in the loop: to UTF-8, to UTF-16.
    const COLD_STOPS: [bool; 2];
    /// The tables in registers.
    type Tables;
    /// What the lookups found for every byte (rows and columns).
    type Lookups: Copy;
    /// A decoded block's code points, as the stores take them.
    type Decoded: Copy;

    /// Loads `tables` into registers.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - [`CjkDecodeVector::supports`] is true for `tables`.
    unsafe fn load_tables(tables: &PairTables) -> Self::Tables;
    /// Whether this level's kernels can take `tables` (else the scalar kernel does).
    fn supports(tables: &PairTables) -> bool;
    /// The bytes 0x80 and above.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn high(self) -> u64;
    /// The lead-capable bytes, the bytes that cannot trail a pair, and what the lookups
    /// found.
    ///
    /// # Safety
    /// The ISA is enabled in the caller.
    unsafe fn classify(self, t: &Self::Tables) -> (u64, u64, Self::Lookups);
    /// The code points of the pairs led by `leads` (no lead in the last byte; each lead's
    /// next byte a trail), or `None` if one's pointer is at or above the index's limit or
    /// its code point is not plain from U+0080. `SHORT` (for [`CjkDecodeVector::put_utf8`]):
    /// checked from U+0800 first, and where that fails, the pairs below U+0800 are told
    /// apart, for [`CjkDecodeVector::three_byte`] and `put_utf8`.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `t` was loaded from `tables`, and `lookups` classified from `self` with it.
    unsafe fn decode<const SHORT: bool>(
        self,
        lookups: Self::Lookups,
        leads: u64,
        t: &Self::Tables,
        tables: &PairTables,
    ) -> Option<Self::Decoded>;
    /// The pairs of a decoded block (`leads` counted, or a level's own count).
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `d` was decoded with `leads`.
    #[inline(always)]
    unsafe fn pair_count(d: &Self::Decoded, leads: u64) -> usize {
        let _ = d;
        (leads.count_ones() / Self::BITS) as usize
    }
    /// The pairs of a block decoded with `SHORT` whose UTF-8 is three bytes (the others' is
    /// two): the block's UTF-8 is its bytes and one more for each.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `d` was decoded with `leads`.
    unsafe fn three_byte(d: &Self::Decoded, leads: u64) -> usize;
    /// Writes the block's UTF-8: its ASCII bytes, and each pair (`leads` and the byte after
    /// each) as the bytes of its code point (three from U+0800, two below it); at most `ROOM8` bytes, starting with a store of 16 or more; the
    /// bytes it changes after the block's output are at most 16, and no more than that
    /// output. (A lead in the last byte, cleared from `leads`, may be written as a byte
    /// after the block's output.)
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `out` is valid for writing `ROOM8` bytes; `d` was decoded from `self`, `leads`.
    unsafe fn put_utf8(self, d: &Self::Decoded, leads: u64, out: *mut u8);
    /// Writes the block's UTF-16 as `put_utf8`: at most `ROOM16` units, starting with a
    /// store of 8 or more; at most 8 units changed after the block's output, and no more
    /// than that output.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `out` is valid for writing `ROOM16` units; `d` was decoded from `self`, `leads`.
    unsafe fn put_utf16(self, d: &Self::Decoded, leads: u64, kept: u64, out: *mut u16);
}

/// Runs of pairs at a level that decodes them in steps of its own beyond its blocks (NEON,
/// whose blocks are 16 bytes): dense CJK text goes on from a block of pairs in such steps,
/// without a block's bookkeeping. (At AVX2, whose blocks are 32 bytes with a path of their
/// own for sixteen pairs, the run's state beside the block loop's cost more than it saved:
/// `docs/decisions.md`, "Runs of pairs".)
pub(crate) trait CjkPairRuns: CjkDecodeVector {
    /// Input bytes of a step: even, 16 to 64.
    const PAIRS: usize;
    /// The code points of a step's pairs.
    type Pairs: Copy;
    /// The code points of the `PAIRS / 2` byte pairs at `src` if every even byte leads a pair
    /// and every odd one trails it, each pointer below the index's limit and each code point
    /// plain from `MIN` (0x80 or 0x800); else `None`.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `src` is valid for reading `PAIRS` bytes; `t` was loaded from `tables`.
    unsafe fn pairs<const MIN: u32>(
        src: *const u8,
        t: &Self::Tables,
        tables: &PairTables,
    ) -> Option<Self::Pairs>;
    /// Writes the UTF-8 of pairs from [`CjkPairRuns::pairs`] (with `MIN` 0x800): exactly
    /// `3 * PAIRS / 2` bytes.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `out` is valid for writing `3 * PAIRS / 2` bytes.
    unsafe fn put_pairs_utf8(p: &Self::Pairs, out: *mut u8);
    /// Writes the UTF-16 of pairs from [`CjkPairRuns::pairs`]: exactly `PAIRS / 2` units.
    ///
    /// # Safety
    /// - The ISA is enabled in the caller.
    /// - `out` is valid for writing `PAIRS / 2` units.
    unsafe fn put_pairs_utf16(p: &Self::Pairs, out: *mut u16);
}

/// One checked block: its bytes, its leads and kept bytes (not trails, not past `read`),
/// and its code points (`None`: all ASCII).
#[derive(Clone, Copy)]
pub(crate) struct Block<V: CjkDecodeVector> {
    v: V,
    leads: u64,
    kept: u64,
    read: usize,
    decoded: Option<V::Decoded>,
}

impl<V: CjkDecodeVector> Block<V> {
    /// Code units of UTF-16 out: one per kept byte, the block's bytes but the trails (one
    /// per lead).
    ///
    /// # Safety
    /// The ISA of `V` is enabled in the caller.
    #[inline(always)]
    unsafe fn utf16_len(&self) -> usize {
        match &self.decoded {
            // SAFETY: the ISA per the contract; `d` was decoded with `leads`.
            Some(d) => self.read - unsafe { V::pair_count(d, self.leads) },
            None => self.read,
        }
    }
    /// Bytes of UTF-8 out: one per kept byte, two more for each lead of a three-byte
    /// character, one more for the others.
    ///
    /// # Safety
    /// The ISA of `V` is enabled in the caller.
    #[inline(always)]
    unsafe fn utf8_len(&self) -> usize {
        match &self.decoded {
            // SAFETY: the ISA per the contract; `d` was decoded with `leads`.
            Some(d) => self.read + unsafe { V::three_byte(d, self.leads) },
            None => self.read,
        }
    }
}

/// A mask of every byte of a block.
#[inline(always)]
fn all<V: CjkDecodeVector>() -> u64 {
    let bits = V::BITS as usize * V::LANES;
    if bits >= 64 { u64::MAX } else { (1 << bits) - 1 }
}

/// Checks and decodes the block at `src` (`SHORT`: for UTF-8, as [`CjkDecodeVector::decode`]
/// says); `None` if it has a character that is not plain.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `src` is valid for reading `V::LANES` bytes.
/// - `t` was loaded from `tables`.
#[inline(always)]
unsafe fn block<V: CjkDecodeVector, const SHORT: bool>(
    src: *const u8,
    t: &V::Tables,
    tables: &PairTables,
) -> Option<Block<V>> {
    // SAFETY: `LANES` readable bytes at `src`; the ISA and `t` per the caller's contract;
    // `decode` gets leads none of which is in the last byte (cleared below), each followed
    // by a trail (checked below).
    unsafe {
        let v = V::load(src);
        let high = v.high();
        let mut valid = all::<V>();
        if high == 0 {
            return Some(Block {
                v,
                leads: 0,
                kept: valid,
                read: V::LANES,
                decoded: None,
            });
        }
        let (capable, not_trail, lookups) = v.classify(t);
        let mut leads = leads_of(capable, V::BITS);
        let mut read = V::LANES;
        let last = valid & !(valid >> V::BITS);
        if leads & last != 0 {
            leads &= !last;
            valid &= !last;
            read -= 1;
        }
        let trails = leads << V::BITS;
        if high & !(leads | trails) & valid != 0 || trails & not_trail != 0 {
            return None;
        }
        let decoded = v.decode::<SHORT>(lookups, leads, t, tables)?;
        Some(Block {
            v,
            leads,
            kept: valid & !trails,
            read,
            decoded: Some(decoded),
        })
    }
}

/// A scalar pair kernel with its end (`scalar::cjk_to_utf8_from`), the tail of the vector
/// ones.
pub(crate) type ScalarPairs<T> = fn(&[u8], &PairTables, &mut [T], usize) -> (usize, usize);

/// `tail` on a block the vector loop cannot decode, out of its line and marked cold (at a
/// level's [`CjkDecodeVector::COLD_STOPS`]): a call in the loop's usual path has the
/// compiler keep the loop's vector constants on the stack (no vector register keeps its 128
/// bits across a call on aarch64) and load them again on every block.
#[cold]
#[inline(never)]
fn stopped<T>(
    tail: ScalarPairs<T>,
    src: &[u8],
    tables: &PairTables,
    dst: &mut [T],
    lanes: usize,
) -> (usize, usize) {
    tail(src, tables, dst, lanes)
}

/// How far a checked block reads.
pub(crate) trait Checked: Copy {
    /// Input bytes the block decodes.
    fn read(&self) -> usize;
    /// Whether it is all ASCII (then its output is exactly its bytes, one unit each).
    fn ascii(&self) -> bool;
    /// Whether it is all pairs, each at an even byte (dense CJK text: a run of pairs may
    /// follow).
    fn pairs(&self) -> bool;
}

impl<V: CjkDecodeVector> Checked for Block<V> {
    #[inline(always)]
    fn read(&self) -> usize {
        self.read
    }
    #[inline(always)]
    fn pairs(&self) -> bool {
        self.decoded.is_some() && self.leads == even(V::BITS) & all::<V>()
    }
    #[inline(always)]
    fn ascii(&self) -> bool {
        V::ASCII_RUNS && self.decoded.is_none()
    }
}

/// Copies (UTF-8) or widens (UTF-16) the ASCII run at the start of `src` into `dst`, four
/// vectors at a time while they are all ASCII and fit ([`ascii::run4`]), then one at a time:
/// returns the length of its whole vectors (in both). HTML pages are mostly such runs, which a
/// block at a time would cost the pair checks' bookkeeping on each; the vectors after the
/// last four (up to three, in most runs of a page) went back to the block loop before, each
/// an ASCII block there and a try of four more from it (`docs/decisions.md`, "NEON pair
/// lookups by nibbles").
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `put` stores `V::LANES` units of the vector at the pointer it is given.
#[inline(always)]
unsafe fn ascii_run<V: CjkDecodeVector, T>(src: &[u8], dst: &mut [T], put: impl Fn(V, *mut T)) -> usize {
    let (at, out) = (src.as_ptr(), dst.as_mut_ptr());
    let len = src.len().min(dst.len());
    // SAFETY: `run4` and the loop after it load at `i` and store at `i` only with `i + LANES`
    // within both slices (`len`); the ISA and `put` per the contract.
    unsafe {
        let mut i = ascii::run4(
            len,
            V::LANES,
            |i| V::load(at.add(i)),
            |a, b| a.or(b),
            |v| v.high() == 0,
            |v, i| put(v, out.add(i)),
        );
        while i + V::LANES <= len {
            let v = V::load(at.add(i));
            if v.high() != 0 {
                break;
            }
            put(v, out.add(i));
            i += V::LANES;
        }
        i
    }
}

/// The block loop of the pair kernels: while `lanes` input bytes and `room` code units of
/// room (and 16 bytes after it) remain, checks a block (`check`) and hands it to `put`, which
/// writes its `len(block)` units at the given position with whole stores, leaving garbage
/// after them. The next block's first store overwrites it; where none follows (the scalar
/// kernel takes over, or the loop ends), the 16 bytes after the last block's units, saved
/// before its `put`, are written back, so nothing after `written` changes. A block it cannot
/// decode goes to the scalar kernel `tail` (out of line and cold if `cold`), up to its end:
/// if that stops inside it, so does the kernel; otherwise the loop goes on after it. After
/// an ASCII block, `ascii` copies the run of ASCII that goes on from there (exactly: its
/// length in bytes and units). After a block of pairs (if `K::RUNS`), `pairs` decodes the run
/// of pairs that may go on from there, `step` bytes at a time, each step's `step_len` units
/// written exactly by `put_pairs`. `tail` finishes.
///
/// # Safety
/// - `check` may be called with a pointer valid for reading `lanes` bytes, `pairs` with one
///   valid for reading `step` bytes (only if `K::RUNS`).
/// - `put` writes at most `room` units, `len(block)` of them the block's, at the position it
///   is given; it stores 16 bytes or more from there, and it leaves at most 16 bytes after
///   the block's units changed, no more than the block's units themselves (so the garbage
///   of one block is inside the next one's units).
/// - `put_pairs` writes `step_len` units, 16 bytes or more, at the position it is given.
#[inline(always)]
pub(crate) unsafe fn pair_blocks<B: Checked, K: Runs, P, T: Copy>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut [T],
    (lanes, room, cold): (usize, usize, bool),
    tail: ScalarPairs<T>,
    (check, len, put, ascii): (
        impl Fn(*const u8) -> Option<B>,
        impl Fn(&B) -> usize,
        impl Fn(&B, *mut T),
        impl Fn(&[u8], &mut [T]) -> usize,
    ),
    (step, step_len, pairs, put_pairs): (usize, usize, impl Fn(*const u8) -> Option<P>, impl Fn(&P, *mut T)),
) -> (usize, usize) {
    // The units of the 16 bytes a whole `put` may leave changed after its block's units.
    let spill = 16 / size_of::<T>().max(1);
    let (mut read, mut written) = (0, 0);
    let (src_len, dst_len) = (src.len(), dst.len());
    // What the 16 bytes at `written` held before the last block's `put`, if it may have left
    // garbage there (no store since has covered them).
    let mut saved: Option<MaybeUninit<[u8; 16]>> = None;
    // Writes back the 16 bytes after `written` if the last block's `put` changed them.
    let restore = |saved: &mut Option<MaybeUninit<[u8; 16]>>, dst: &mut [T], written: usize| {
        if let Some(s) = saved.take() {
            // SAFETY: the 16 bytes at `written` were read into `s` when `written + 16 bytes
            // <= dst.len()` held (below), and `written` has not moved since.
            unsafe {
                dst.as_mut_ptr()
                    .add(written)
                    .cast::<MaybeUninit<[u8; 16]>>()
                    .write_unaligned(s)
            }
        }
    };
    // The last positions a block may start at and write at (the loop's test, two compares).
    let (Some(src_stop), Some(dst_stop)) = (src_len.checked_sub(lanes), dst_len.checked_sub(room + spill))
    else {
        return tail(src, tables, dst, usize::MAX);
    };
    loop {
        if read > src_stop || written > dst_stop {
            restore(&mut saved, dst, written);
            break;
        }
        // SAFETY: `read + lanes <= src.len()` (`read <= src_stop`; the contract on `check`).
        let Some(b) = check(src.as_ptr().wrapping_add(read)) else {
            restore(&mut saved, dst, written);
            // A block it cannot decode: the scalar kernel, to the first character boundary
            // from the block's end.
            let (r, w) = if cold {
                stopped(tail, &src[read..], tables, &mut dst[written..], lanes)
            } else {
                tail(&src[read..], tables, &mut dst[written..], lanes)
            };
            read += r;
            written += w;
            if r < lanes {
                // It stopped inside the block, where it would have without the end.
                return (read, written);
            }
            continue;
        };
        let n = len(&b);
        let out = dst[written..].as_mut_ptr();
        if b.ascii() {
            // Its bytes, exactly (over the garbage the block before left: 16 bytes or
            // more), then the rest of the run.
            put(&b, out);
            let m = b.read() + ascii(&src[read + b.read()..], &mut dst[written + n..]);
            (read, written) = (read + m, written + m);
            saved = None;
            continue;
        }
        // SAFETY: `n <= room` units and `written + room + spill <= dst.len()` (`written <=
        // dst_stop`, checked at the top of the loop): the 16 bytes after the block's units
        // are inside `dst`, read as possibly uninitialised bytes.
        saved = Some(unsafe { out.add(n).cast::<MaybeUninit<[u8; 16]>>().read_unaligned() });
        // `written + room <= dst.len()`, and `put` writes at most `room` units (the
        // contract); the garbage it leaves after its `n` units is overwritten by the next
        // block's first store (16 bytes or more), or by the run's first step, or written
        // back from `saved`.
        let pairs_block = K::RUNS && b.pairs();
        put(&b, out);
        (read, written) = (read + b.read(), written + n);
        if pairs_block {
            // After a block of pairs, a run of them, each step written exactly (over the
            // garbage the block left: 16 bytes or more).
            while read + step <= src_len && written + step_len <= dst_len {
                // SAFETY: `read + step <= src.len()` (the contract on `pairs`).
                let Some(p) = pairs(src.as_ptr().wrapping_add(read)) else {
                    break;
                };
                put_pairs(&p, dst[written..].as_mut_ptr());
                read += step;
                written += step_len;
                saved = None;
            }
        }
    }
    let (r, w) = tail(&src[read..], tables, &mut dst[written..], usize::MAX);
    (read + r, written + w)
}

/// Whether the pair kernels look for runs of pairs ([`Steps`]) or not ([`NoRuns`]): a type, so
/// that a kernel without them is compiled without their branch.
pub(crate) trait Runs {
    /// Whether they do.
    const RUNS: bool;
}

impl Runs for Steps {
    const RUNS: bool = true;
}

impl Runs for NoRuns {
    const RUNS: bool = false;
}

/// Runs of pairs in the steps of the level's [`CjkPairRuns`].
pub(crate) struct Steps;

/// No runs of pairs: a block at a time throughout.
pub(crate) struct NoRuns;

/// The pair kernel to UTF-8, a block at a time.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[cfg_attr(target_arch = "aarch64", allow(dead_code))]
#[inline(always)]
pub(crate) unsafe fn to_utf8<V: CjkDecodeVector>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut OutBytes,
) -> (usize, usize) {
    // SAFETY: the same contract; no runs, no steps.
    unsafe { utf8_by::<V, NoRuns, ()>(src, tables, dst, (0, |_, _| None, |_, _| {})) }
}

/// The pair kernel to UTF-8, with runs of pairs in the level's steps.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
#[inline(always)]
pub(crate) unsafe fn to_utf8_runs<V: CjkPairRuns>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut OutBytes,
) -> (usize, usize) {
    // SAFETY: the same contract; the steps read and write as `utf8_by` requires
    // (`CjkPairRuns`).
    unsafe {
        utf8_by::<V, Steps, V::Pairs>(
            src,
            tables,
            dst,
            (
                V::PAIRS,
                |at, t| V::pairs::<0x800>(at, t, tables),
                |p, out| V::put_pairs_utf8(p, out),
            ),
        )
    }
}

/// The pair kernel to UTF-8, with the steps of runs of pairs `(step, pairs, put_pairs)` if
/// `K::RUNS`.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - If `K::RUNS`: `pairs` may be called with a pointer valid for reading `step` bytes and
///   the tables loaded from `tables`; `put_pairs` writes `3 * step / 2` bytes, 16 or more,
///   at the pointer it is given.
#[inline(always)]
unsafe fn utf8_by<V: CjkDecodeVector, K: Runs, P>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut OutBytes,
    (step, pairs, put_pairs): (
        usize,
        impl Fn(*const u8, &V::Tables) -> Option<P>,
        impl Fn(&P, *mut u8),
    ),
) -> (usize, usize) {
    let tail = scalar::cjk_to_utf8_from::<0x80>;
    if src.len() < V::LANES || !V::supports(tables) {
        return tail(src, tables, dst, usize::MAX);
    }
    // SAFETY: the ISA per the contract; `supports` checked above.
    let t = unsafe { V::load_tables(tables) };
    // SAFETY: `check` reads `LANES` bytes where `pair_blocks` says it may; `put` writes as
    // that requires: an ASCII block's `LANES` bytes (the first 16 at least), a decoded one
    // by `put_utf8` (at most `ROOM8`, starting with a store of 16, its garbage as
    // `pair_blocks` requires); `pairs` and `put_pairs` as the contract says; the ISA per the
    // contract.
    unsafe {
        pair_blocks::<Block<V>, K, P, MaybeUninit<u8>>(
            src,
            tables,
            dst,
            (V::LANES, V::ROOM8, V::COLD_STOPS[0]),
            tail,
            (
                |at| block::<V, true>(at, &t, tables),
                // SAFETY: the ISA per the contract.
                |b| b.utf8_len(),
                |b, out| {
                    let out = out.cast::<u8>();
                    match &b.decoded {
                        None => b.v.store(out),
                        Some(d) => b.v.put_utf8(d, b.leads, out),
                    }
                },
                |src, dst| ascii_run::<V, _>(src, dst, |v, out| v.store(out.cast())),
            ),
            (
                step,
                3 * step / 2,
                |at| pairs(at, &t),
                |p, out| put_pairs(p, out.cast()),
            ),
        )
    }
}

/// The pair kernel to UTF-16, a block at a time.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[cfg_attr(target_arch = "aarch64", allow(dead_code))]
#[inline(always)]
pub(crate) unsafe fn to_utf16<V: CjkDecodeVector>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut [u16],
) -> (usize, usize) {
    // SAFETY: the same contract; no runs, no steps.
    unsafe { utf16_by::<V, NoRuns, ()>(src, tables, dst, (0, |_, _| None, |_, _| {})) }
}

/// The pair kernel to UTF-16, with runs of pairs in the level's steps.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
#[inline(always)]
pub(crate) unsafe fn to_utf16_runs<V: CjkPairRuns>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut [u16],
) -> (usize, usize) {
    // SAFETY: the same contract; the steps read and write as `utf16_by` requires
    // (`CjkPairRuns`).
    unsafe {
        utf16_by::<V, Steps, V::Pairs>(
            src,
            tables,
            dst,
            (
                V::PAIRS,
                |at, t| V::pairs::<0x80>(at, t, tables),
                |p, out| V::put_pairs_utf16(p, out),
            ),
        )
    }
}

/// The pair kernel to UTF-16, with the steps of runs of pairs as [`utf8_by`]'s.
///
/// # Safety
/// As [`utf8_by`]; `put_pairs` writes `step / 2` units.
#[inline(always)]
unsafe fn utf16_by<V: CjkDecodeVector, K: Runs, P>(
    src: &[u8],
    tables: &PairTables,
    dst: &mut [u16],
    (step, pairs, put_pairs): (
        usize,
        impl Fn(*const u8, &V::Tables) -> Option<P>,
        impl Fn(&P, *mut u16),
    ),
) -> (usize, usize) {
    let tail = scalar::cjk_to_utf16_from::<0x80>;
    if src.len() < V::LANES || !V::supports(tables) {
        return tail(src, tables, dst, usize::MAX);
    }
    // SAFETY: the ISA per the contract; `supports` checked above.
    let t = unsafe { V::load_tables(tables) };
    // SAFETY: as in `utf8_by`, in units (`put_utf16`: at most `ROOM16`, starting with a
    // store of 8 units, its garbage as `pair_blocks` requires).
    unsafe {
        pair_blocks::<Block<V>, K, P, u16>(
            src,
            tables,
            dst,
            (V::LANES, V::ROOM16, V::COLD_STOPS[1]),
            tail,
            (
                |at| block::<V, false>(at, &t, tables),
                // SAFETY: the ISA per the contract.
                |b| b.utf16_len(),
                |b, out| match &b.decoded {
                    None => b.v.widen_store(out),
                    Some(d) => b.v.put_utf16(d, b.leads, b.kept, out),
                },
                |src, dst| ascii_run::<V, _>(src, dst, |v, out| v.widen_store(out)),
            ),
            (step, step / 2, |at| pairs(at, &t), put_pairs),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::leads_of;

    /// `leads_of` against a byte-by-byte walk, for every 12-byte pattern, at 1 and 4 bits
    /// per byte.
    #[test]
    fn leads_alternate_from_each_run_start() {
        for capable in 0u64..1 << 12 {
            let mut expect = 0u64;
            let mut i = 0;
            while i < 12 {
                if capable >> i & 1 != 0 {
                    expect |= 1 << i;
                    i += 2;
                } else {
                    i += 1;
                }
            }
            assert_eq!(leads_of(capable, 1), expect, "{capable:012b}");
            let spread = |m: u64| {
                (0..16)
                    .filter(|k| m >> k & 1 != 0)
                    .fold(0u64, |a, k| a | 0xF << (4 * k))
            };
            assert_eq!(leads_of(spread(capable), 4), spread(expect), "{capable:012b}");
        }
    }
}
