//! UTF-16 to UTF-8 after Lemire & Muła, "Transcoding billions of Unicode characters per
//! second with SIMD instructions" (2022): the UTF-8 bytes of every unit are computed in fixed
//! lanes, then packed by a shuffle looked up by the units' lengths.
//!
//! ```text
//! from units (utf16_to_utf8) or from UTF-16LE/BE bytes (utf16_bytes_to_utf8, swapped if BE),
//! one loop (`convert`):
//!     (after an ASCII step) while 2 vectors of units are ASCII and fit: narrow them
//!     blocks: while a vector of units (16 at AVX2, 8 at NEON) has no surrogate and its worst
//!     case fits (`blocks`, `block`):
//!         the class of its largest unit: ASCII: narrow it (then back to the ASCII loop)
//!         below 0x800: u16 lane k = (0xC0 | u >> 6, 0x80 | u & 0x3F), or (u) where ASCII;
//!             per 16-byte lane, pack by a row looked up by the ASCII bits (8 units)
//!         else u32 lane k = (lead, second, third, _) of the 1-3 bytes of unit k; per 4 units,
//!             pack by a row looked up by 2 bits a unit (below 0x80, below 0x800), from the
//!             byte masks of the whole vector (one movemask each at AVX2)
//!         stored with whole 16-byte stores if the next block surely converts, else exactly;
//!         then runs of blocks two vectors a round (`runs`: one class test for both, below
//!         0x800 or, after a test for surrogates, not)
//!     then one step of 8 units (the tail, and surrogates):
//!     8 units u; one = u < 0x80, two = u < 0x800 (a bit per unit)
//!     all one: the low bytes, 8 bytes
//!     all two: u16 lane k = (0xC0 | u >> 6, 0x80 | u & 0x3F), or (u) where one;
//!         pack by a row looked up by `one` (8 bits): 8..16 bytes
//!     a surrogate among them:
//!         one is unpaired (a trailing one first, or a leading one not followed by a
//!         trailing one, except in the last place): the scalar kernel converts 8 units
//!         (16, 32, then 64 while that goes on; a pair cut by their end waits for the next step)
//!         all paired: the 4 bytes of a pair split in two, the first two in the
//!         leading surrogate's u16 lane, the last two in the trailing one's: 2 bytes a unit,
//!         as for units below 0x800; a leading surrogate in the last place is left for the
//!         next step (its lane counted as 1 byte, then dropped): 7 units; then, while 8
//!         units are 4 surrogate pairs and 16 bytes fit: 4 bytes per u32 lane, stored as
//!         they are (emoji)
//!     all lanes of 1-2 bytes: pack them by a row looked up by `one`, as above
//!     else u32 lane k = (lead, second, third, 0) of the 1-3 bytes of unit k;
//!         pack each half (4 units) by a row looked up by `one` and `two`: 4..12 bytes each
//!     store the step (below)
//! the scalar kernel finishes
//! ```
//! The vector loop converts whole characters, greedily from a character boundary, and only
//! while the worst case (3 bytes a unit, and a whole lane stored) fits, so it converts exactly
//! what the scalar kernel would; stopping before an unpaired surrogate, a leading surrogate
//! last (its pair unknown), or a full output leaves the rest to the scalar kernel, which then
//! returns what it would have returned alone.
//!
//! Nothing after `written` changes, without a load before every store: a step is stored
//! with whole lanes only when the next step is sure to be converted (its 8 units are there,
//! and their worst case fits), and that step writes at least as many real bytes as the
//! lanes leave garbage (see [`put`]): a step without surrogates only before 8 units without
//! surrogates (8 bytes or more over at most 8 of garbage), a step with pairs before 8 units
//! whose surrogates are paired (7 bytes or more: a leading surrogate may be left, over at
//! most 7); else (the last step) exactly, through a buffer. The pair runs and the ASCII runs
//! store exactly what they convert, 16 bytes or more, over that garbage too. A block leaves
//! less than 16 bytes of garbage, and stores 16 bytes at its start, over any garbage before
//! it (see [`block`]). Blending every step with what `dst` holds instead (a load, a blend, a
//! store) makes each load wait for the store just before it (store forwarding fails on the
//! overlap; docs/decisions.md, "Kernel tuning").

use super::super::scalar;
use super::super::vector::Vector;
use super::lane::{Lane, TranscodeVector};
use super::rows::{Keep, NONE, compact_rows};
use crate::simd::{OutBytes, write_bytes};

/// The low byte of each u16 lane (8 ASCII units to 8 bytes).
const LOW_BYTES: [u8; 16] = [
    0, 2, 4, 6, 8, 10, 12, 14, NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE,
];

/// By the 8 bits of `one` (unit k is ASCII): the bytes of the u16 lanes to keep (1 of an ASCII
/// unit's lane, both of the others'), in order. The length is `16 - popcount(one)`.
pub(crate) static ROWS12: [[u8; 16]; 256] = compact_rows(Keep::OneOrTwo).0;
/// The lengths of the rows of [`ROWS12`] (a load rather than a popcount, which NEON does
/// through a vector register).
pub(crate) static ROWS12_LENS: [u8; 256] = compact_rows(Keep::OneOrTwo).1;
/// By `n1 | n2 << 4` (4 units: bit k of `n1` set if unit k is not ASCII, of `n2` if it is
/// 0x800 or more): the bytes of the u32 lanes to keep, 1 + n1_k + n2_k of lane k, and their
/// number.
pub(crate) static ROWS123: ([[u8; 16]; 256], [u8; 256]) = compact_rows(Keep::OneToThree);

/// Bytes of output a step needs room for: 8 units of 3 bytes, the second half stored as a
/// whole lane after up to 12 bytes.
const ROOM: usize = 32;

/// The UTF-8 of 8 units (7 if the last is a leading surrogate, left for the next step), in
/// registers: `lo[..len0]`, then `hi[..len1]`.
#[derive(Clone, Copy)]
struct Step<L> {
    lo: L,
    hi: L,
    len0: usize,
    len1: usize,
    units: usize,
}

impl<L: Lane> Step<L> {
    fn len(&self) -> usize {
        self.len0 + self.len1
    }
}

/// Stores a step at `dst[at..]`: 8 ASCII bytes as such; else exactly its bytes, unless `whole`,
/// then with whole-lane stores that leave garbage after it, for the next step to overwrite:
/// at most 8 bytes, or with `TIGHT` at most 7.
/// The exact store goes through a buffer on the stack: a blend with what `dst` holds would
/// load the bytes the previous step just stored, and wait for them.
///
/// The garbage: `lo` is stored as 16 bytes (`hi` overwrites what follows its bytes) and `hi`,
/// from `len0`, as 16 bytes if it holds 8 or more, else as 8: `16 - len1 <= 8` or
/// `8 - len1 < 8` after `hi`, or `16 - len0 - len1 < 8` where `hi` ends inside `lo`'s 16
/// bytes (some unit takes 3 bytes when `hi` is used, so `len0 + len1 >= 9`); with `hi`
/// empty (units of 1-2 bytes, 9 bytes or more unless all ASCII), `16 - len0 <= 7`. `TIGHT`
/// is for steps with surrogate pairs, whose next step may be one of 7 units (a leading
/// surrogate left: 7 bytes or more), and which may be such a step themselves: `hi` of 8
/// bytes as 8 (no garbage) and `lo` of 7 or 8 bytes with `hi` empty as 8 (`8 - len0 <= 1`).
///
/// # Safety
/// - The ISA of `L` is enabled in the caller.
/// - `at + 32 <= dst.len()`.
#[inline(always)]
unsafe fn put<L: Lane, const TIGHT: bool>(step: &Step<L>, dst: &mut OutBytes, at: usize, whole: bool) {
    let Step {
        lo, hi, len0, len1, ..
    } = *step;
    if len0 == 8 && len1 == 0 {
        // SAFETY: 8 bytes from `at`, `at + 32 <= dst.len()`; ISA enabled per contract.
        unsafe { lo.store8(dst.as_mut_ptr().cast::<u8>().add(at)) };
    } else if whole {
        // SAFETY: the stores end by `at + 16`, or by `at + len0 + 16 <= at + 28 <= dst.len()`
        // where `hi` is stored (then `lo` holds 4 units, 12 bytes at most); ISA enabled per
        // contract.
        unsafe {
            let d = dst.as_mut_ptr().cast::<u8>().add(at);
            if TIGHT && len0 <= 8 && len1 == 0 {
                lo.store8(d);
            } else {
                lo.store(d);
            }
            if len1 > 8 || (len1 == 8 && !TIGHT) {
                hi.store(d.add(len0));
            } else if len1 > 0 {
                hi.store8(d.add(len0));
            }
        }
    } else {
        let mut buf = [0u8; 32];
        // SAFETY: the stores end by `len0 + 16 <= 28` bytes of `buf`; ISA enabled.
        unsafe {
            lo.store(buf.as_mut_ptr());
            if len1 > 0 {
                hi.store(buf.as_mut_ptr().add(len0));
            }
        }
        copy_exact(&buf[..len0 + len1], &mut dst[at..]);
    }
}

/// The 8 units from unit `i` of UTF-16 bytes `src` (big-endian if `be`), little-endian.
///
/// # Safety
/// - The ISA of `L` is enabled in the caller.
/// - `2 * (i + 8) <= src.len()`.
#[inline(always)]
unsafe fn load_units<L: Lane>(src: &[u8], i: usize, be: bool) -> L {
    // SAFETY: 16 readable bytes from `2 * i`, per contract; ISA enabled per contract.
    unsafe {
        let u = L::load(src.as_ptr().add(2 * i));
        if be { u.swap_bytes16() } else { u }
    }
}

/// Whether a step converts the 8 units in `u`: with `PAIRS`, if every surrogate among them is
/// part of a pair (a leading surrogate in the last place is left for the next step, so it
/// counts as paired); else if none is a surrogate.
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn convertible<L: Lane, const PAIRS: bool>(u: L) -> bool {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        if PAIRS {
            let (lead, trail) = surrogates(u);
            paired(lead, trail)
        } else {
            !surrogate_lanes(u).any()
        }
    }
}

/// The masks of the leading and of the trailing surrogates among the u16 lanes of `u`.
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn surrogates<L: Lane>(u: L) -> (L, L) {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        let high = u.and(L::splat16(0xFC00));
        (high.eq16(L::splat16(0xD800)), high.eq16(L::splat16(0xDC00)))
    }
}

/// Whether every trailing surrogate follows a leading one and every leading one but the last
/// unit is followed by a trailing one: exactly where the unit before is a leading surrogate.
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn paired<L: Lane>(lead: L, trail: L) -> bool {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe { !trail.xor(lead.prev_unit()).any() }
}

/// Copies `src` to the start of `dst` (once per kernel call: out of line).
#[cold]
#[inline(never)]
fn copy_exact(src: &[u8], dst: &mut OutBytes) {
    write_bytes(&mut dst[..src.len()], src);
}

/// The UTF-8 of surrogate pairs, two bytes in the lane of each surrogate: for a leading
/// surrogate (a lane of `lead`) the first two of its pair's four, for a trailing one the last
/// two (from it and the unit before it). Other lanes: unspecified.
///
/// With c the code point and h = c >> 10 = (lead & 0x3FF) + 0x40, the bytes are
/// (0xF0 | h >> 8, 0x80 | (h >> 2) & 0x3F) and
/// (0x80 | (h & 3) << 4 | (trail >> 6) & 0xF, 0x80 | trail & 0x3F), where h & 3 = lead & 3.
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn halves<L: Lane>(u: L, lead: L) -> L {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        let h = u.and(L::splat16(0x3FF)).add16(L::splat16(0x40));
        let second = h.shr16::<2>().and(L::splat16(0x3F)).or(L::splat16(0x80));
        let first = h.shr16::<8>().or(L::splat16(0xF0)).or(second.shl16::<8>());
        let low = u.shr16::<6>().and(L::splat16(0xF)).or(L::splat16(0x80));
        let third = u.prev_unit().and(L::splat16(3)).shl16::<4>().or(low);
        let last = u.and(L::splat16(0x3F)).or(L::splat16(0x80));
        L::select(lead, first, third.or(last.shl16::<8>()))
    }
}

/// The 16 bytes of UTF-8 of the 8 units in `u` if they are 4 surrogate pairs, each in a u32
/// lane (leading surrogate first).
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn four_pairs<L: Lane>(u: L) -> Option<L> {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        if u.and(L::splat16(0xFC00)).xor(L::splat32(0xDC00_D800)).any() {
            return None;
        }
        Some(halves(u, L::splat32(0xFFFF)))
    }
}

/// The UTF-8 of the 8 units in `u` (or of the first 7, if the last is a leading surrogate),
/// unless one is a surrogate (with `PAIRS`: an unpaired one, see [`convertible`]).
///
/// # Safety
/// The ISA of `L` is enabled in the caller.
#[inline(always)]
unsafe fn convert8<L: Lane, const PAIRS: bool>(u: L) -> Option<Step<L>> {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        let below80 = u.below16(0x80);
        let one = L::mask_bits16(below80) as u32;
        if one == 0xFF {
            let lo = u.shuffle(&LOW_BYTES);
            return Some(Step {
                lo,
                hi: lo,
                len0: 8,
                len1: 0,
                units: 8,
            });
        }
        let below800 = u.below16(0x800);
        let two = L::mask_bits16(below800) as u32;
        // The trailing byte of a 2-, 3- or 4-byte character: 0x80 | u & 0x3F.
        let (last, pair) = last_and_pair(u);
        if two == 0xFF {
            let v = L::select(below80, u, pair);
            let lo = v.shuffle(&ROWS12[one as usize]);
            return Some(Step {
                lo,
                hi: lo,
                len0: usize::from(ROWS12_LENS[one as usize]),
                len1: 0,
                units: 8,
            });
        }
        let surrogate = surrogate_lanes(u);
        // (0xE0 | u >> 12, 0x80 | (u >> 6) & 0x3F) for u >= 0x800; `last` is the third byte.
        let lead3 = u.shr16::<12>().or(L::splat16(0xE0));
        let second3 = u.shr16::<6>().and(L::splat16(0x3F)).or(L::splat16(0x80));
        let triple = lead3.or(second3.shl16::<8>());
        let (v, one, three, deferred) = if !surrogate.any() {
            (
                L::select(below80, u, L::select(below800, pair, triple)),
                one,
                !two & 0xFF,
                0,
            )
        } else {
            if !PAIRS {
                return None;
            }
            let (lead, trail) = surrogates(u);
            if !paired(lead, trail) {
                return None;
            }
            let v = L::select(
                below80,
                u,
                L::select(below800, pair, L::select(surrogate, halves(u, lead), triple)),
            );
            // A leading surrogate last is left: as one byte (counted as ASCII), then dropped.
            let deferred = (L::mask_bits16(lead) >> 7) as usize;
            let sur = L::mask_bits16(surrogate) as u32;
            (v, one | (deferred << 7) as u32, !(two | sur) & 0xFF, deferred)
        };
        if three == 0 {
            // 1-2 bytes a unit (2: half a surrogate pair).
            let lo = v.shuffle(&ROWS12[one as usize]);
            return Some(Step {
                lo,
                hi: lo,
                len0: usize::from(ROWS12_LENS[one as usize]) - deferred,
                len1: 0,
                units: 8 - deferred,
            });
        }
        let [lo, hi] = v.zip16(last);
        let (n1, n2) = (!one & 0xFF, three);
        let i0 = ((n1 & 0xF) | ((n2 & 0xF) << 4)) as usize;
        let i1 = ((n1 >> 4) | (n2 & 0xF0)) as usize;
        let (rows, lens) = &ROWS123;
        Some(Step {
            lo: lo.shuffle(&rows[i0]),
            hi: hi.shuffle(&rows[i1]),
            len0: usize::from(lens[i0]),
            len1: usize::from(lens[i1]) - deferred,
            units: 8 - deferred,
        })
    }
}

/// By `bits` (bit `2k`: unit k is below 0x80, bit `2k + 1`: below 0x800, 4 units): the bytes
/// of the u32 lanes to keep, `3 - bit 2k - bit 2k+1` of lane k, and their number.
static ROWS123_PAIRS: ([[u8; 16]; 256], [u8; 256]) = compact_rows(Keep::ThreeLessPairs);

/// Bytes of output a block needs room for: `LANES / 2` units of 3 bytes, then the garbage of
/// its last 16-byte store (at most 16).
const fn block_room(lanes: usize) -> usize {
    3 * lanes / 2 + 16
}

/// Whether the block of `V::LANES / 2` units from unit `at` of the UTF-16 bytes at `src` (`be`
/// as in [`TranscodeVector::load_units`]) has no surrogate.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `src` is valid for reading `2 * at + V::LANES` bytes.
#[inline(always)]
unsafe fn block_convertible<V: TranscodeVector>(src: *const u8, at: usize, be: bool) -> bool {
    // SAFETY: `V::LANES` readable bytes from `2 * at`; ISA enabled per contract.
    unsafe {
        let u = V::load_units(src.add(2 * at), be);
        !surrogate_lanes(u).any()
    }
}

/// The u16 lanes of `u` that are surrogates (0xD800..=0xDFFF).
///
/// # Safety
/// The ISA of `T` is enabled in the caller.
#[inline(always)]
unsafe fn surrogate_lanes<T: Vector>(u: T) -> T::Mask {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe { u.and(T::splat16(0xF800)).eq16(T::splat16(0xD800)) }
}

/// For each u16 lane `u`: the trailing byte of its 2- or 3-byte form, `0x80 | u & 0x3F`, and
/// its 2-byte form, `(0xC0 | u >> 6, trailing byte)` (that of a unit below 0x800).
///
/// # Safety
/// The ISA of `T` is enabled in the caller.
#[inline(always)]
unsafe fn last_and_pair<T: Vector>(u: T) -> (T, T) {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        let last = u.and(T::splat16(0x3F)).or(T::splat16(0x80));
        (last, u.shr16::<6>().or(T::splat16(0xC0)).or(last.shl16::<8>()))
    }
}

/// The UTF-8 of a vector in registers, for [`block`] and [`rounds`]: [`TwoBytes`] or
/// [`ThreeBytes`].
trait Packed<V>: Copy {
    /// The [`Round`] this form is for.
    const ROUND: Round;
    /// # Safety
    /// - The ISA of `V` is enabled in the caller.
    /// - The units of `u` fit the form (below 0x800 for [`TwoBytes`], no surrogate for
    ///   [`ThreeBytes`]).
    unsafe fn new(u: V) -> Self;
    /// Stores the UTF-8 with 16-byte stores; returns its length. They leave at most 8 bytes
    /// of garbage after it with `TIGHT`, else at most 12, which the first 16-byte store of a
    /// vector stored next covers (it holds 8 bytes or more: then at most 8 are left).
    ///
    /// # Safety
    /// - The ISA of `V` is enabled in the caller.
    /// - `dst` is valid for writing `block_room(V::LANES)` bytes.
    unsafe fn put<const TIGHT: bool>(self, dst: *mut u8) -> usize;
}

/// The `V::LANES / 2` units of a vector, all below 0x800, as UTF-8 in their u16 lanes (1 or 2
/// bytes each), and which are ASCII (a bit each): [`Packed::put`] packs them.
#[derive(Clone, Copy)]
struct TwoBytes<V> {
    v: V,
    one: u64,
}

impl<V: TranscodeVector> Packed<V> for TwoBytes<V> {
    const ROUND: Round = Round::Two;

    #[inline(always)]
    unsafe fn new(u: V) -> Self {
        // SAFETY: register operations; ISA enabled per contract.
        unsafe {
            let (_, pair) = last_and_pair(u);
            let below80 = u.below16(0x80);
            TwoBytes {
                v: V::select(below80, u, pair),
                one: V::mask_bits16(below80),
            }
        }
    }

    /// Packed by a row per 8 units, with 16-byte stores of its 16-byte lanes, which leave at
    /// most 8 bytes of garbage with or without `TIGHT` (a lane of 8 units holds 8 bytes or more
    /// of its 16); `V::LANES + 8 <= block_room(V::LANES)` bytes.
    #[inline(always)]
    unsafe fn put<const TIGHT: bool>(self, dst: *mut u8) -> usize {
        let mut at = 0;
        for j in 0..V::LANES / 16 {
            let one = (self.one >> (16 * j)) as u8;
            // SAFETY: a 16-byte store per lane from `at`, which grows by the lane's bytes (8
            // to 16: the last lane's store is from at most `LANES - 8`), per contract; ISA
            // enabled per contract.
            unsafe {
                self.v
                    .lane(j)
                    .shuffle(&ROWS12[usize::from(one)])
                    .store(dst.add(at))
            };
            at += usize::from(ROWS12_LENS[usize::from(one)]);
        }
        at
    }
}

/// The two vectors of units from unit `at` of the UTF-16 bytes at `src` (`be` as in
/// [`TranscodeVector::load_units`]).
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `src` is valid for reading `2 * at + 2 * V::LANES` bytes.
#[inline(always)]
unsafe fn load_pair<V: TranscodeVector>(src: *const u8, at: usize, be: bool) -> (V, V) {
    // SAFETY: `2 * LANES` readable bytes from `2 * at`, per contract; ISA enabled per contract.
    unsafe {
        let s = src.add(2 * at);
        (V::load_units(s, be), V::load_units(s.add(V::LANES), be))
    }
}

/// The `V::LANES / 2` units of a vector, none a surrogate, as UTF-8 in their u16 lanes (1 or 2
/// bytes each, the first two of 3), their trailing bytes, and by 2 bits a unit whether it is
/// ASCII and below 0x800: [`Packed::put`] packs them.
#[derive(Clone, Copy)]
struct ThreeBytes<V> {
    v: V,
    last: V,
    bits: u64,
}

impl<V: TranscodeVector> Packed<V> for ThreeBytes<V> {
    const ROUND: Round = Round::Three;

    #[inline(always)]
    unsafe fn new(u: V) -> Self {
        // SAFETY: register operations; ISA enabled per contract.
        unsafe {
            let (last, pair) = last_and_pair(u);
            let below80 = u.below16(0x80);
            let below800 = u.below16(0x800);
            // (0xE0 | u >> 12, 0x80 | (u >> 6) & 0x3F) for u >= 0x800; `last` is the third.
            let lead3 = u.shr16::<12>().or(V::splat16(0xE0));
            let second3 = u.shr16::<6>().and(V::splat16(0x3F)).or(V::splat16(0x80));
            let triple = lead3.or(second3.shl16::<8>());
            ThreeBytes {
                v: V::select(below80, u, V::select(below800, pair, triple)),
                last,
                bits: V::unit_pair_bits(below80, below800),
            }
        }
    }

    /// A u32 lane a unit packed by a row per 4 units. With `TIGHT` the last piece (4 units, 4
    /// to 12 bytes) is stored as 8 bytes when it holds 8 or fewer, and the piece before it (4
    /// bytes or more) ends its 16 bytes at most 8 after both; without, at most 12 are left.
    #[inline(always)]
    unsafe fn put<const TIGHT: bool>(self, dst: *mut u8) -> usize {
        let lanes = V::LANES / 16;
        let (rows, lens) = &ROWS123_PAIRS;
        let mut at = 0;
        // SAFETY: register operations and stores of 16 bytes from `at`; `at` grows by at most
        // 12 per piece of 4 units, the last piece is stored from at most `3 * LANES / 2 - 4`
        // (or `- 8`) and ends within `block_room(LANES)`, per contract; ISA enabled per
        // contract.
        unsafe {
            for j in 0..lanes {
                // u32 lane k = (lead, second, third, _) of unit k; 4 units a piece.
                let [lo, hi] = self.v.lane(j).zip16(self.last.lane(j));
                let i0 = usize::from((self.bits >> (16 * j)) as u8);
                let i1 = usize::from((self.bits >> (16 * j + 8)) as u8);
                lo.shuffle(&rows[i0]).store(dst.add(at));
                at += usize::from(lens[i0]);
                let piece = hi.shuffle(&rows[i1]);
                if TIGHT && j + 1 == lanes && lens[i1] <= 8 {
                    piece.store8(dst.add(at));
                } else {
                    piece.store(dst.add(at));
                }
                at += usize::from(lens[i1]);
            }
        }
        at
    }
}

/// What a round of [`runs`] does with two vectors of units.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Round {
    /// All below 0x800, not all ASCII: [`TwoBytes`].
    Two,
    /// Some unit 0x800 or more, none a surrogate: [`ThreeBytes`].
    Three,
    /// All ASCII (for the ASCII loop), or a surrogate: the run ends.
    Stop,
}

/// The [`Round`] of the two vectors `a` and `b`: one test of their class (the classes are
/// powers of two, so that of their or is the larger), and a test for surrogates only where
/// some unit is 0x800 or more.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn round_of<V: TranscodeVector>(a: V, b: V) -> Round {
    // SAFETY: register operations; ISA enabled per contract.
    unsafe {
        let max = a.or(b).max_class16();
        if (0x80..0x800).contains(&max) {
            Round::Two
        } else if max >= 0x800 {
            if surrogate_lanes(a).or(surrogate_lanes(b)).any() {
                Round::Stop
            } else {
                Round::Three
            }
        } else {
            Round::Stop
        }
    }
}

/// Runs of text without surrogates, two vectors a round, from unit `read` of the UTF-16 bytes
/// at `src` (`2 * units` bytes; `be` as in [`TranscodeVector::load_units`]) to
/// `dst[written..]`, while two vectors of units have no surrogate and are not all ASCII, and
/// their worst case (3 bytes a unit, and 16 bytes of room) fits: `(read, written)`. Each
/// round tests the class of both vectors at once (below 0x800: [`TwoBytes`], which rules out
/// surrogates too; else [`ThreeBytes`] after a test for surrogates), where [`blocks`] tests
/// each vector's class and the next vector's surrogates. NEON, instructions per 8 units:
/// Russian 46 there, 27 here; Chinese 65 there, 52 here.
///
/// A round is stored with whole 16-byte stores (at most 8 bytes of garbage) when the next
/// round goes on, or the next vector is one [`blocks`] surely converts (as it tests it:
/// there, without surrogates, and its room fits); else exactly.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `src` is valid for reading `2 * units` bytes.
#[inline(always)]
unsafe fn runs<V: TranscodeVector>(
    src: *const u8,
    units: usize,
    be: bool,
    dst: &mut OutBytes,
    read: usize,
    written: usize,
) -> (usize, usize) {
    let n = V::LANES / 2;
    // A round: 2n units, at most 6n bytes and 8 of garbage (see the `put`s).
    let room = 6 * n + 16;
    if read + 2 * n > units || written + room > dst.len() {
        return (read, written);
    }
    // SAFETY: `read + 2n <= units`: `4n` bytes readable from `2 * read`; ISA enabled.
    let (mut a, mut b) = unsafe { load_pair::<V>(src, read, be) };
    // SAFETY: ISA enabled per contract.
    let mut round = unsafe { round_of(a, b) };
    let mut at = (read, written);
    loop {
        // SAFETY: `(a, b)` are the units at `at`, of `round`, with `room` to write (tested
        // above, or by `rounds` before it returned them); ISA enabled per contract.
        (at, a, b, round) = unsafe {
            match round {
                Round::Two => rounds::<V, TwoBytes<V>>(src, units, be, dst, at, a, b),
                Round::Three => rounds::<V, ThreeBytes<V>>(src, units, be, dst, at, a, b),
                Round::Stop => return at,
            }
        };
    }
}

/// Stores the UTF-8 of a round's two vectors at `dst`: the first with the garbage its last
/// store leaves (at most 12 bytes, under the second's first 16-byte store), the second
/// `TIGHT` (at most 8 bytes of garbage); returns the number of bytes.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `dst` is valid for writing `3 * V::LANES + 16` bytes: the first vector's `3n + 12` at
///   most, the second's from at most `3n` (`n = V::LANES / 2`).
#[inline(always)]
unsafe fn put_pair<V: TranscodeVector, P: Packed<V>>(x: P, y: P, dst: *mut u8) -> usize {
    // SAFETY: per contract.
    unsafe {
        let len = x.put::<false>(dst);
        len + y.put::<true>(dst.add(len))
    }
}

/// The rounds of [`runs`] of one kind `P`, from `(a, b)` at `(read, written)`, while the next
/// round is of the same kind: `((read, written), a, b, round)` of the next round (`Stop` if
/// there is none).
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `src` is valid for reading `2 * units` bytes.
/// - `(a, b)` are the units from `read` (`read + V::LANES <= units`), of round `P::ROUND`, and
///   `written + 3 * V::LANES + 16 <= dst.len()`.
#[inline(always)]
unsafe fn rounds<V: TranscodeVector, P: Packed<V>>(
    src: *const u8,
    units: usize,
    be: bool,
    dst: &mut OutBytes,
    (mut read, mut written): (usize, usize),
    mut a: V,
    mut b: V,
) -> ((usize, usize), V, V, Round) {
    let n = V::LANES / 2;
    let room = 6 * n + 16;
    loop {
        // SAFETY: `(a, b)` fit `P`, per contract and as tested below; ISA enabled.
        let (x, y) = unsafe { (P::new(a), P::new(b)) };
        let next = read + 2 * n;
        let end = written + 6 * n;
        let mut round = Round::Stop;
        if next + 2 * n <= units && end + room <= dst.len() {
            // SAFETY: `next + 2n <= units`; ISA enabled per contract.
            (a, b) = unsafe { load_pair::<V>(src, next, be) };
            // SAFETY: ISA enabled per contract.
            round = unsafe { round_of(a, b) };
            if round == P::ROUND {
                // SAFETY: `written + room <= dst.len()` (per contract, then as tested
                // before the round); ISA enabled per contract.
                written += unsafe { put_pair(x, y, dst.as_mut_ptr().cast::<u8>().add(written)) };
                read = next;
                continue;
            }
        }
        // Whole stores, if what comes next surely writes 8 bytes or more over the garbage:
        // a round of either kind, or a block of `blocks`.
        let whole = round != Round::Stop
            || (next + n <= units
                && end + block_room(V::LANES) <= dst.len()
                // SAFETY: `next + n <= units`; ISA enabled per contract.
                && unsafe { block_convertible::<V>(src, next, be) });
        if whole {
            // SAFETY: as above.
            written += unsafe { put_pair(x, y, dst.as_mut_ptr().cast::<u8>().add(written)) };
        } else {
            let mut buf = [0u8; 3 * 32 + 16];
            debug_assert!(room <= buf.len());
            // SAFETY: `room <= 112` bytes of `buf` (`LANES <= 32` where this runs); ISA
            // enabled per contract.
            let len = unsafe { put_pair(x, y, buf.as_mut_ptr()) };
            copy_exact(&buf[..len], &mut dst[written..]);
            written += len;
        }
        return ((next, written), a, b, round);
    }
}

/// Converts the `V::LANES / 2` units of `u`, none a surrogate, to UTF-8 at `dst`; returns the
/// number of bytes. The stores leave garbage after them, at most 8 bytes, so that any block
/// stored after it (8 units: 8 bytes or more, exactly or not) covers it (see the `put`s).
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - No unit of `u` is a surrogate.
/// - `dst` is valid for writing `block_room(V::LANES)` bytes.
#[inline(always)]
unsafe fn block<V: TranscodeVector>(u: V, dst: *mut u8) -> usize {
    // SAFETY: per contract.
    unsafe {
        let max = u.max_class16();
        if max < 0x80 {
            // ASCII: exactly one byte a unit.
            u.store_low_bytes(dst);
            return V::LANES / 2;
        }
        if max < 0x800 {
            return TwoBytes::new(u).put::<true>(dst);
        }
        ThreeBytes::new(u).put::<true>(dst)
    }
}

/// Converts blocks of `V::LANES / 2` units without surrogates from unit `read` of the UTF-16
/// bytes `src[..2 * units]` (`be` as in [`TranscodeVector::load_units`]) to `dst[written..]`,
/// while a block and its [`block_room`] fit: `(read, written, ascii)`, `ascii` if it
/// stopped after an all-ASCII block (for the caller's ASCII loop).
///
/// A block is stored with whole 16-byte stores when the next one is sure to be converted
/// (its units are there and have no surrogate, and the worst case fits after this one), as
/// it then overwrites the garbage (at most 8 bytes, see [`block`]) however it is stored (8
/// bytes or more); else exactly, through a buffer.
///
/// # Safety
/// - The ISA of `V` is enabled in the caller.
/// - `src` is valid for reading `2 * units` bytes.
#[inline(always)]
unsafe fn blocks<V: TranscodeVector>(
    src: *const u8,
    units: usize,
    be: bool,
    dst: &mut OutBytes,
    mut read: usize,
    mut written: usize,
) -> (usize, usize, bool) {
    let n = V::LANES / 2;
    let room = block_room(V::LANES);
    // SAFETY: `read + n <= units`: `2 * read + LANES` bytes readable; ISA enabled per contract.
    let mut ok =
        read + n <= units && written + room <= dst.len() && unsafe { block_convertible::<V>(src, read, be) };
    while ok {
        // SAFETY: `read + 2n <= units`: the next block readable; ISA enabled per contract.
        let whole = read + 2 * n <= units
            && written + 3 * n + room <= dst.len()
            && unsafe { block_convertible::<V>(src, read + n, be) };
        // SAFETY: `ok`: `read + n <= units`, no surrogate in the block.
        let u = unsafe { V::load_units(src.add(2 * read), be) };
        let len = if whole {
            // SAFETY: `ok`: `written + room <= dst.len()`; ISA enabled per contract.
            unsafe { block(u, dst.as_mut_ptr().cast::<u8>().add(written)) }
        } else {
            let mut buf = [0u8; 128];
            debug_assert!(room <= buf.len());
            // SAFETY: `room <= 128` bytes of `buf` (`LANES <= 64`); ISA enabled per contract.
            let len = unsafe { block(u, buf.as_mut_ptr()) };
            copy_exact(&buf[..len], &mut dst[written..]);
            len
        };
        read += n;
        written += len;
        if len == n {
            return (read, written, true);
        }
        // Runs after a block with half its units or more beyond ASCII (one byte more each),
        // not after the letters of Latin-script text, which the blocks take alone.
        if whole && 2 * len >= 3 * n {
            // SAFETY: `src` is `2 * units` readable bytes; ISA enabled per contract.
            (read, written) = unsafe { runs::<V>(src, units, be, dst, read, written) };
            ok = read + n <= units
                && written + room <= dst.len()
                // SAFETY: `read + n <= units`; ISA enabled per contract.
                && unsafe { block_convertible::<V>(src, read, be) };
            continue;
        }
        ok = whole
            || (read + n <= units
                && written + room <= dst.len()
                // SAFETY: `read + n <= units`; ISA enabled per contract.
                && unsafe { block_convertible::<V>(src, read, be) });
    }
    (read, written, false)
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn utf16_to_utf8<V: TranscodeVector>(src: &[u16], dst: &mut OutBytes) -> (usize, usize) {
    // The units as bytes: native order is little-endian on every target with these kernels.
    // SAFETY: `src` is `2 * src.len()` initialised bytes, borrowed for as long.
    let bytes = unsafe { core::slice::from_raw_parts(src.as_ptr().cast::<u8>(), 2 * src.len()) };
    // SAFETY: ISA enabled per contract.
    let (read, written) = unsafe {
        convert::<V, false>(bytes, dst, |from, to, dst| {
            scalar::utf16_to_utf8(&src[from..to], dst)
        })
    };
    let (r, w) = scalar::utf16_to_utf8(&src[read..], &mut dst[written..]);
    (read + r, written + w)
}

/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn utf16_bytes_to_utf8<V: TranscodeVector>(
    src: &[u8],
    be: bool,
    dst: &mut OutBytes,
) -> (usize, usize) {
    let scalar = |from: usize, to: usize, dst: &mut OutBytes| {
        let (r, w) = scalar::utf16_bytes_to_utf8(&src[2 * from..2 * to], be, dst);
        (r / 2, w)
    };
    // SAFETY: ISA enabled per contract.
    let (read, written) = unsafe {
        if be {
            convert::<V, true>(src, dst, scalar)
        } else {
            convert::<V, false>(src, dst, scalar)
        }
    };
    let (r, w) = scalar::utf16_bytes_to_utf8(&src[2 * read..], be, &mut dst[written..]);
    (2 * read + r, written + w)
}

/// The vector loop of both kernels over the units of the UTF-16 bytes `src` (big-endian if
/// `BE`): `(units read, bytes written)`, greedily from the start, stopping where the scalar
/// kernel has to finish. `scalar(from, to, dst)` is the scalar kernel over units
/// `from..to`: `(units read, bytes written)`.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[inline(always)]
unsafe fn convert<V: TranscodeVector, const BE: bool>(
    src: &[u8],
    dst: &mut OutBytes,
    scalar: impl Fn(usize, usize, &mut OutBytes) -> (usize, usize),
) -> (usize, usize) {
    // A constant in each instance: no test of the byte order per load.
    let be = BE;
    let units = src.len() / 2;
    let (mut read, mut written) = (0, 0);
    let mut ascii = true;
    // Consecutive steps with unpaired surrogates: the scalar kernel takes 8, 16, 32, then 64
    // units.
    let mut streak = 0;
    loop {
        if ascii {
            // Four vectors a round while they fit (one bound, one index, one test: the loop is
            // the whole cost of ASCII text), then one; one vector first, as where ASCII runs
            // are short (words between spaces in other scripts) the run usually ends there,
            // before the four vectors' loads. (Written out, not `ascii::run1_then4`: through
            // its closures this loop compiled to 15 times the instructions at AVX2, 344,424
            // against 22,205 a run on Latin text.)
            let n = (units - read).min(dst.len() - written);
            let (s, d) = (
                src.as_ptr().wrapping_add(2 * read),
                dst.as_mut_ptr().cast::<u8>().wrapping_add(written),
            );
            let mut i = 0;
            if V::LANES <= n
                // SAFETY: `LANES <= n`: `2 * LANES` bytes readable from `s` (as below); ISA
                // enabled per contract.
                && let (v, not_ascii) = unsafe { V::load_units_narrow(s, be) }
                // SAFETY: register operations; ISA enabled per contract.
                && !unsafe { not_ascii.any() }
            {
                // SAFETY: `LANES <= n`: `LANES` bytes writable from `d`; ISA enabled per
                // contract.
                unsafe { v.store(d) };
                i = V::LANES;
                while i + 4 * V::LANES <= n {
                    // SAFETY: `i + 4 * LANES <= n`: `8 * LANES` bytes readable from
                    // `s + 2 * i` (`2 * (read + i + 4 * LANES) <= 2 * units`) and `4 * LANES`
                    // writable from `d + i` (`written + i + 4 * LANES <= dst.len()`); ISA
                    // enabled per contract.
                    unsafe {
                        let (a, not_a) = V::load_units_narrow(s.add(2 * i), be);
                        let (b, not_b) = V::load_units_narrow(s.add(2 * (i + V::LANES)), be);
                        let (c, not_c) = V::load_units_narrow(s.add(2 * (i + 2 * V::LANES)), be);
                        let (e, not_e) = V::load_units_narrow(s.add(2 * (i + 3 * V::LANES)), be);
                        if not_a.or(not_b).or(not_c.or(not_e)).any() {
                            break;
                        }
                        a.store(d.add(i));
                        b.store(d.add(i + V::LANES));
                        c.store(d.add(i + 2 * V::LANES));
                        e.store(d.add(i + 3 * V::LANES));
                    }
                    i += 4 * V::LANES;
                }
                while i + V::LANES <= n {
                    // SAFETY: as above, for `LANES` units.
                    unsafe {
                        let (v, not_ascii) = V::load_units_narrow(s.add(2 * i), be);
                        if not_ascii.any() {
                            break;
                        }
                        v.store(d.add(i));
                    }
                    i += V::LANES;
                }
            }
            read += i;
            written += i;
            if V::UTF16_LETTERS {
                // SAFETY: `src` is `2 * units` readable bytes; ISA enabled per contract.
                (read, written) = unsafe { letters::<V::Lane>(src, units, be, dst, read, written) };
            }
        }
        // SAFETY: `src` is `2 * units` readable bytes; ISA enabled per contract.
        let (r, w, all_ascii) = unsafe { blocks::<V>(src.as_ptr(), units, be, dst, read, written) };
        (read, written) = (r, w);
        if all_ascii {
            ascii = true;
            streak = 0;
            continue;
        }
        let room = read + 8 <= units && written + ROOM <= dst.len();
        let step = if room {
            // SAFETY: `room`: `read + 8 <= units`; ISA enabled per contract.
            unsafe { convert8::<_, false>(load_units::<V::Lane>(src, read, be)) }
        } else {
            None
        };
        match step {
            Some(step) => {
                let end = written + step.len();
                // Whole lanes if the next iteration surely converts a step of 8 units from
                // `end` (it takes the same conditions); the ASCII loop above runs only after
                // an exact 8-byte ASCII step.
                // SAFETY: `read + 16 <= units`: units `read + 8..read + 16` readable.
                let whole = read + 16 <= units
                    && end + ROOM <= dst.len()
                    && unsafe { convertible::<_, false>(load_units::<V::Lane>(src, read + 8, be)) };
                // SAFETY: `room`: `written + 32 <= dst.len()`; ISA enabled per contract.
                unsafe { put::<_, false>(&step, dst, written, whole) };
                ascii = step.len() == 8;
                streak = 0;
                read += 8;
                written = end;
            }
            None if room => {
                // A surrogate. SAFETY: `room` (above); ISA enabled per contract.
                let u = unsafe { load_units::<V::Lane>(src, read, be) };
                // SAFETY: ISA enabled per contract.
                if let Some(step) = unsafe { convert8::<_, true>(u) } {
                    // All paired: 7 or 8 units.
                    let (next, end) = (read + step.units, written + step.len());
                    // SAFETY: `next + 8 <= units`: units `next..next + 8` readable.
                    let whole = next + 8 <= units
                        && end + ROOM <= dst.len()
                        && unsafe { convertible::<_, true>(load_units::<V::Lane>(src, next, be)) };
                    // SAFETY: `room`: `written + 32 <= dst.len()`; ISA enabled per contract.
                    unsafe { put::<_, true>(&step, dst, written, whole) };
                    (read, written) = (next, end);
                    // Runs of surrogate pairs (emoji): 8 units to exactly 16 bytes.
                    while read + 8 <= units && written + 16 <= dst.len() {
                        // SAFETY: units `read..read + 8` are in bounds, bytes `written..written
                        // + 16` too; ISA enabled per contract.
                        unsafe {
                            let Some(bytes) = four_pairs(load_units::<V::Lane>(src, read, be)) else {
                                break;
                            };
                            bytes.store(dst.as_mut_ptr().cast::<u8>().add(written));
                        }
                        read += 8;
                        written += 16;
                    }
                    ascii = false;
                    streak = 0;
                    continue;
                }
                // An unpaired surrogate: the scalar kernel converts these units (a leading
                // surrogate at their end, paired after it, is left for the next step).
                let end = units.min(read + (8 << streak));
                let (r, w) = scalar(read, end, &mut dst[written..]);
                if r == 0 {
                    break;
                }
                read += r;
                written += w;
                ascii = false;
                streak = (streak + 1).min(3);
            }
            None => break,
        }
    }
    (read, written)
}

/// By the position `k` (0..15) of one letter among 16 units narrowed to bytes: the bytes
/// before it, two bytes for the letter (filled in after), the bytes after it but the last.
const HOLES: [[u8; 16]; 15] = {
    let mut rows = [[NONE; 16]; 15];
    let mut k = 0;
    while k < 15 {
        let mut j = 0;
        while j < 16 {
            rows[k][j] = if j < k {
                j as u8
            } else if j <= k + 1 {
                NONE
            } else {
                (j - 1) as u8
            };
            j += 1;
        }
        k += 1;
    }
    rows
};

/// ASCII with one letter below U+0800 among 16 units (Latin-script text), from unit `read`
/// of the UTF-16 bytes `src[..2 * units]` to `dst[written..]`: 16 ASCII units narrowed, or
/// the first 15 units with the letter in two bytes, as exactly 16 bytes (the units narrowed,
/// shuffled apart by a row of [`HOLES`], the letter written into the gap). Stops at anything
/// else (the blocks and steps take it). `(read, written)`.
///
/// # Safety
/// - The ISA of `L` is enabled in the caller.
/// - `src` is valid for reading `2 * units` bytes.
#[inline(always)]
unsafe fn letters<L: Lane>(
    src: &[u8],
    units: usize,
    be: bool,
    dst: &mut OutBytes,
    mut read: usize,
    mut written: usize,
) -> (usize, usize) {
    while read + 16 <= units && written + 16 <= dst.len() {
        // SAFETY: units `read..read + 16` (32 bytes) are readable and bytes `written..written
        // + 16` writable (the ASCII loop's: units `read + i..read + i + 16` and bytes from
        // `written + i`, with `i + 16 <= room`, what is left of both); the letter's two bytes
        // are at `k, k + 1 < 16` of them; ISA enabled per contract.
        unsafe {
            let d = dst.as_mut_ptr().cast::<u8>().add(written);
            let (v, not_ascii) = L::load_units_narrow(src.as_ptr().add(2 * read), be);
            if !not_ascii.any() {
                v.store(d);
                read += 16;
                written += 16;
                // The ASCII vectors after it, with one bound for input and output (they
                // advance together) and one index: the loop above tests both and moves
                // three registers a vector.
                let room = (units - read).min(dst.len() - written);
                let (s, d) = (src.as_ptr().add(2 * read), d.add(16));
                let mut i = 0;
                while i + 16 <= room {
                    let (v, not_ascii) = L::load_units_narrow(s.add(2 * i), be);
                    if not_ascii.any() {
                        break;
                    }
                    v.store(d.add(i));
                    i += 16;
                }
                read += i;
                written += i;
                continue;
            }
            // The units that are not ASCII, `HIGH_STRIDE` bits each, from the narrowing's test
            // (NEON: one compare and one narrowing; two u16 compares and two reductions before).
            let stride = L::HIGH_STRIDE;
            let other = !not_ascii.eq8(L::splat(0)).high_strided() & (u64::MAX >> (64 - 16 * stride));
            // One bit a unit.
            let ones = other & (u64::MAX / ((1 << stride) - 1));
            let k = (other.trailing_zeros() / stride) as usize;
            if ones & ones.wrapping_sub(1) != 0 || k == 15 {
                break;
            }
            let at = src.as_ptr().add(2 * (read + k));
            let pair = [*at, *at.add(1)];
            let unit = if be {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            };
            if unit >= 0x800 {
                break;
            }
            v.shuffle(&HOLES[k]).store(d);
            d.add(k).write(0xC0 | (unit >> 6) as u8);
            d.add(k + 1).write(0x80 | (unit & 0x3F) as u8);
            read += 15;
            written += 16;
        }
    }
    (read, written)
}

/// `utf16_to_utf8` for vectors without a byte shuffle (SSE2): ASCII runs narrowed a vector at
/// a time (`ascii::narrow`), everything else by the scalar kernel, in chunks of 32 to 256 units.
/// Both convert greedily from a character boundary, so the result is the scalar kernel's.
///
/// # Safety
/// The ISA of `V` is enabled in the caller.
#[cfg(target_arch = "x86_64")] // only the SSE2 table uses it
#[inline(always)]
pub(crate) unsafe fn utf16_to_utf8_ascii_runs<V: super::super::vector::Vector>(
    src: &[u16],
    dst: &mut OutBytes,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    // Scalar chunks grow while the text is not ASCII: 32 units, then up to 256.
    let mut chunk = 32;
    while let Some(&u) = src.get(read) {
        // An ASCII run, probably long (the unit 8 places on is ASCII too): narrowed; else
        // (single spaces between non-ASCII words) the scalar kernel takes it.
        let (r, w) = if u < 0x80 && src.get(read + 8).is_some_and(|&v| v < 0x80) {
            // SAFETY: ISA enabled per contract.
            let n = unsafe { super::ascii::narrow::<V>(&src[read..], &mut dst[written..]) };
            chunk = 32;
            (n, n)
        } else {
            let end = src.len().min(read + chunk);
            chunk = (2 * chunk).min(256);
            scalar_chunk(&src[read..end], &mut dst[written..])
        };
        if r == 0 {
            break;
        }
        read += r;
        written += w;
    }
    let (r, w) = scalar::utf16_to_utf8(&src[read..], &mut dst[written..]);
    (read + r, written + w)
}

/// The scalar kernel, not inlined: inlined into the SSE2 loop above it compiles slower
/// (docs/decisions.md, "Kernel tuning").
#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn scalar_chunk(src: &[u16], dst: &mut OutBytes) -> (usize, usize) {
    scalar::utf16_to_utf8(src, dst)
}
