//! Kernels: coarse slice operations that the codecs hand their common runs to.
//!
//! # Contract (every kernel, every level)
//! 1. Inputs and outputs are slices. A kernel returns how far it got — a prefix length, or
//!    `(read, written)` — and never writes outside `dst[..written]` nor reads outside `src`.
//! 2. A kernel stops at the first input it cannot handle (a non-ASCII byte, an invalid or
//!    incomplete UTF-8 sequence, an unpaired surrogate, an unmapped byte) or when the output
//!    is full. It never reports an error and never decides what such input means: the codec
//!    state machine in `codecs/` resumes at `read` and owns all error semantics.
//! 3. Every level returns **identical** `(read, written)` to the scalar kernels, so that
//!    differential tests are exact.
//! 4. Callers never turn a kernel's answer into `unreachable_unchecked` or unchecked indexing:
//!    a wrong kernel must produce wrong output that a test catches, not undefined behaviour.
//!    The one exception, made for the speed of the `String`/`str`/`Cow` entry points, is
//!    UTF-8: what `utf8_valid_up_to` and `ascii_prefix_len` accept, and what the kernels and
//!    codecs write into UTF-8 output, is trusted to be UTF-8 without a second validation
//!    (`docs/decisions.md`, "UTF-8 output is not validated twice"). Debug builds (every test)
//!    and the fuzz targets validate it again.
//! 5. Byte output is [`OutBytes`] (`[MaybeUninit<u8>]`): kernels write it and never read it,
//!    so it may be the uninitialised spare capacity of a `String` or `Vec`.
//!
//! [`Kernels`] is a table of function pointers, one table per instruction-set level; holding a
//! `&'static Kernels` is the proof that the CPU supports its level. Decoders and encoders
//! capture the active table when they are created, so hot loops never touch the dispatch.
//! Levels: `scalar` (portable, the reference), on x86_64 `sse2`, `avx2`, `avx512`, on aarch64
//! `neon` (see `crate::cpu`), one module each (`x86/`, `aarch64/`). The kernels are written
//! once in `generic/` and instantiated per level; what a level has of its own is said in its
//! module. Each table also holds a [`Tuning`]: which kernels the codecs call at that level.
//!
//! Kernel names: `cjk_to_utf8` / `cjk_to_utf16` decode two-byte CJK characters (Shift_JIS,
//! EUC-JP, EUC-KR, Big5, GBK/gb18030), `utf16_to_legacy` encodes UTF-16 into a CJK or
//! single-byte encoding.

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod generic;
#[cfg(any(test, feature = "internals"))]
pub(crate) mod ops_check;
mod scalar;
mod vector;
#[cfg(target_arch = "x86_64")]
mod x86;

use core::mem::MaybeUninit;
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};

pub(crate) use crate::cpu::Level;

/// A kernel over a single-byte index: `(src, table, dst) -> (read, written)`.
pub(crate) type SingleByteKernel<T> = unsafe fn(&[u8], &[u16; 128], &mut [T]) -> (usize, usize);
/// A kernel over UTF-16 bytes: `(src, big_endian, dst) -> (read, written)`.
pub(crate) type Utf16BytesKernel<T> = unsafe fn(&[u8], bool, &mut [T]) -> (usize, usize);
/// A transcoding kernel: `(src, dst) -> (read, written)`.
pub(crate) type Transcode<S, D> = unsafe fn(&[S], &mut [D]) -> (usize, usize);
/// A kernel over a two-byte CJK index: `(src, tables, dst) -> (read, written)`.
pub(crate) type CjkDecodeKernel<T> = unsafe fn(&[u8], &PairTables, &mut [T]) -> (usize, usize);

/// A kernel over a CJK encoder's tables: `(units, tables, dst) -> (read, written)`.
pub(crate) type LegacyEncodeKernel =
    unsafe fn(&[u16], &EncodeTables, &mut [MaybeUninit<u8>]) -> (usize, usize);

/// Byte output of a kernel: possibly uninitialised memory, which the kernel only writes (the
/// spare capacity of a `String` or `Vec<u8>` is written straight, with no zero-fill first).
///
/// # The invariant that makes this sound
/// Nothing in this crate writes an uninitialised value into an output slice: every write is
/// a byte (`MaybeUninit::new`, [`write_bytes`]) or a vector register stored through
/// `as_mut_ptr().cast::<u8>()`, and no kernel reads its output. So [`as_out`] may view an
/// initialised `&mut [u8]` this way without it ever becoming uninitialised, and
/// `dst[..written]` is initialised when a kernel or codec returns `written`.
pub(crate) type OutBytes = [MaybeUninit<u8>];

/// `dst` as kernel output (see [`OutBytes`]).
#[inline(always)]
pub(crate) fn as_out(dst: &mut [u8]) -> &mut OutBytes {
    // SAFETY: `MaybeUninit<u8>` has the layout of `u8`, and the slice keeps its length and
    // borrow. The one thing a `&mut [MaybeUninit<u8>]` could do that a `&mut [u8]` cannot is
    // store an uninitialised byte, which no code of this crate does (`OutBytes`).
    unsafe { &mut *(ptr::from_mut(dst) as *mut OutBytes) }
}

/// Writes `src` at the start of `dst`, which must be at least as long (checked).
#[inline(always)]
pub(crate) fn write_bytes(dst: &mut OutBytes, src: &[u8]) {
    let dst = &mut dst[..src.len()];
    // SAFETY: `dst` is exactly `src.len()` bytes (the slicing above panics otherwise), `u8`
    // and `MaybeUninit<u8>` share a layout, and a `&[u8]` and a `&mut` slice cannot overlap.
    unsafe { ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<u8>(), src.len()) }
}

/// [`write_bytes`] for bytes mostly fewer than 64 (the runs between an encoder's escape
/// sequences): by [`copy_short`]'s pieces under 64 (no `memcpy` call), by `memcpy` from 64
/// (pieces up to 256 measured 0.5% more instructions on Japanese text into ISO-2022-JP at
/// NEON).
#[inline(always)]
pub(crate) fn write_short(dst: &mut OutBytes, src: &[u8]) {
    let dst = &mut dst[..src.len()];
    let n = src.len();
    // SAFETY: `dst` is exactly `n` bytes (the slicing above panics otherwise), `u8` and
    // `MaybeUninit<u8>` share a layout, and a `&[u8]` and a `&mut` slice cannot overlap;
    // `copy_short` gets `n < 64`.
    unsafe {
        if n < 64 {
            copy_short(src.as_ptr(), dst.as_mut_ptr().cast::<u8>(), n);
        } else {
            ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<u8>(), n);
        }
    }
}

/// Copies `n < 64` bytes from `src` to `dst` by overlapping loads and stores of 16, 8, 4, 2
/// and 1 bytes, no call.
///
/// # Safety
/// `src` is valid for reading and `dst` for writing `n` bytes, and the two do not overlap.
#[inline(always)]
pub(crate) unsafe fn copy_short(src: *const u8, dst: *mut u8, n: usize) {
    debug_assert!(n < 64);
    // SAFETY: every piece is `W` bytes at an offset `k` with `k + W <= n` (the last piece of
    // each size ends at `n`, at or after the first, which starts at 0), within both ranges
    // per the contract; unaligned reads and writes of plain bytes.
    unsafe {
        let piece = |k: usize, w: usize| match w {
            16 => dst
                .add(k)
                .cast::<[u8; 16]>()
                .write_unaligned(src.add(k).cast::<[u8; 16]>().read_unaligned()),
            8 => dst
                .add(k)
                .cast::<u64>()
                .write_unaligned(src.add(k).cast::<u64>().read_unaligned()),
            4 => dst
                .add(k)
                .cast::<u32>()
                .write_unaligned(src.add(k).cast::<u32>().read_unaligned()),
            _ => dst
                .add(k)
                .cast::<u16>()
                .write_unaligned(src.add(k).cast::<u16>().read_unaligned()),
        };
        match n {
            16.. => {
                let mut k = 0;
                while k + 16 < n {
                    piece(k, 16);
                    k += 16;
                }
                piece(n - 16, 16);
            }
            8..16 => {
                piece(0, 8);
                piece(n - 8, 8);
            }
            4..8 => {
                piece(0, 4);
                piece(n - 4, 4);
            }
            2..4 => {
                piece(0, 2);
                piece(n - 2, 2);
            }
            1 => *dst = *src,
            0 => {}
        }
    }
}

/// A single-byte index of consecutive code points: byte `0x80 + i` is `first + i`
/// (x-user-defined's, and Latin1's for `mem`).
pub(crate) const fn upper_half_from(first: u16) -> [u16; 128] {
    let mut table = [0u16; 128];
    let mut i = 0;
    while i < 128 {
        table[i] = first + i as u16;
        i += 1;
    }
    table
}

/// A table the CJK and single-byte kernels look entries up in, by the width of its entries.
#[derive(Clone, Copy)]
pub(crate) enum Lookup {
    U8(&'static [u8]),
    U16(&'static [u16]),
}

impl Lookup {
    /// Indexes at or above this are left to the codecs: a vector gather reads 4 bytes at an
    /// entry, which must stay inside the table (so the last 3 entries of a byte table and
    /// the last entry of a u16 table are excluded).
    #[inline(always)]
    pub(crate) const fn limit(self) -> usize {
        match self {
            Lookup::U8(t) => t.len().saturating_sub(3),
            Lookup::U16(t) => t.len().saturating_sub(1),
        }
    }

    /// Entry `i`, if `i` is below [`Lookup::limit`].
    #[inline(always)]
    pub(crate) const fn get(self, i: usize) -> Option<u32> {
        if i >= self.limit() {
            return None;
        }
        Some(match self {
            Lookup::U8(t) => t[i] as u32,
            Lookup::U16(t) => t[i] as u32,
        })
    }
}

/// An encoder's lookup as the `utf16_to_legacy` kernels read it: the bytes of a BMP code
/// point `c` are `blocks[pages[c >> 8] * 256 + (c & 0xFF)]`, one byte (below 0x100) or two
/// (`lead << 8 | trail`, CJK encoders only), 0 for none.
///
/// A "plain" code unit is ASCII, or a code unit that is not a surrogate, whose block index is
/// below `blocks.limit()` and whose bytes are not 0. The kernels encode plain code units only;
/// the codec's state machine takes the rest. So the code points an encoder treats before its
/// index (Shift_JIS's single bytes, gb18030's U+20AC, ...) have no bytes in its table (each
/// codec's `declined_code_points_*` test), and the kernels need no test of their own for them.
#[derive(Clone, Copy)]
pub(crate) struct EncodeTables {
    pub(crate) pages: &'static [u8; 256],
    /// `U16` for the CJK encoders, `U8` for the single-byte ones.
    pub(crate) blocks: Lookup,
    /// A single-byte encoding whose bytes from this one to 0xFF are the code points
    /// themselves, as `Kernels::utf8_to_latin1` takes them (windows-1252: 0xA0); 0 for the
    /// others. (For the UTF-8 encode runs; the kernels of this struct do not read it.)
    pub(crate) latin1_from: u8,
}

impl EncodeTables {
    /// The bytes of the non-ASCII code unit `u` if it is plain, else 0.
    #[inline(always)]
    pub(crate) fn bytes(&self, u: u16) -> u16 {
        if u & 0xF800 == 0xD800 {
            return 0;
        }
        let index = usize::from(self.pages[usize::from(u >> 8)]) * 256 + usize::from(u & 0xFF);
        self.blocks.get(index).map_or(0, |bytes| bytes as u16)
    }
}

/// A two-byte CJK encoding's pairs as the `cjk_to_*` kernels read them: the pointer of
/// `lead`, `trail` is `(lead_row[lead - 0x80] - 1) * row_len + trail_col[trail]`, and its
/// code point is `index[pointer]`.
///
/// A "plain" character is an ASCII byte, or a lead (`lead_row` not 0) and a trail
/// (`trail_col` not 0xFF) whose pointer is below `index.limit()` and whose code point is in
/// U+0080..=U+FFFF and not a surrogate (two or three bytes of UTF-8, one UTF-16 unit). The
/// kernels decode plain characters only; everything else (single non-ASCII bytes, unmapped
/// pointers, astral code points, errors) is the codec's.
///
/// gb18030's tables also have `four_byte`: then a lead followed by a digit (0x30–0x39), a
/// lead and a digit is a four-byte sequence, plain if its pointer is below
/// [`FOUR_BYTE_POINTERS`] ([`PairTables::four_byte_from`]).
pub(crate) struct PairTables {
    /// For bytes 0x80..=0xFF: the row of a leading byte plus one, 0 for other bytes.
    pub(crate) lead_row: [u8; 128],
    /// For every byte: the column of a trailing byte, 0xFF for other bytes (every byte
    /// below 0x40: no encoding has trailing bytes there, and [`PairTables::new`] checks it).
    pub(crate) trail_col: [u8; 256],
    /// Pointers per row.
    pub(crate) row_len: u16,
    /// The index, code point by pointer (0: none); `U16` (Big5's has the BMP part of the
    /// index only: see `codecs::big5`).
    pub(crate) index: Lookup,
    /// Whether every entry of `index` below its limit is a plain code point from U+0080
    /// (mapped, BMP, not a surrogate): then a kernel's gathered code points need no check
    /// (index gb18030's two-byte pointers; the others have holes).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) all_plain: bool,
    /// Whether every entry of `index` below its limit is plain or 0 (none): then a kernel
    /// checks its gathered code points against 0 only (index EUC-KR's and jis0208's, and
    /// Big5's BMP part).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) plain_or_zero: bool,
    /// The same leads and trails by nibbles, for kernels without 128-entry byte lookups (AVX2
    /// and NEON: 16-entry lookups, one register each).
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
    pub(crate) nibbles: PairNibbles,
    /// gb18030's four-byte sequences below the astral planes: the code point of each pointer
    /// below [`FOUR_BYTE_POINTERS`] (all plain), and a 0 after them (so that a vector gather
    /// of 4 bytes at the last pointer stays inside). `None` for the others.
    pub(crate) four_byte: Option<&'static [u16; FOUR_BYTE_POINTERS + 1]>,
}

/// The four-byte pointers of gb18030 below the astral planes' (index gb18030 ranges code
/// points U+0080..=U+FFFF; see [`four_byte_pointer`]).
pub(crate) const FOUR_BYTE_POINTERS: usize = 39420;

/// The pointer of gb18030's four-byte sequence `first second third fourth` (each in range:
/// 0x81–0xFE, 0x30–0x39, 0x81–0xFE, 0x30–0x39), as the decoder's step 5.3.1 computes it.
#[inline(always)]
pub(crate) const fn four_byte_pointer(first: u8, second: u8, third: u8, fourth: u8) -> u32 {
    (first.wrapping_sub(0x81) as u32) * (10 * 126 * 10)
        + (second.wrapping_sub(0x30) as u32) * (10 * 126)
        + (third.wrapping_sub(0x81) as u32) * 10
        + fourth.wrapping_sub(0x30) as u32
}

/// [`PairTables`]' leads and trails as 16-entry tables (one `pshufb` each): which bytes are
/// leads and trails as bitmaps by low nibble, and the row and column of a byte as the byte
/// minus a base looked up by its high nibble (within a high nibble, the rows and columns of
/// every two-byte encoding are consecutive, which [`PairTables::new`] checks). Pointers
/// fit in 16 bits (checked there too).
pub(crate) struct PairNibbles {
    /// Bit `h` of entry `l`: byte `0x80 + 16 * h + l` is a lead.
    pub(crate) lead_bits: [u8; 16],
    /// By high nibble: `row - 1` of a lead is the byte minus this (wrapping).
    pub(crate) lead_base: [u8; 16],
    /// Bit `h` of entry `l` of half `i`: byte `0x80 * i + 16 * h + l` is a trail.
    pub(crate) trail_bits: [[u8; 16]; 2],
    /// By high nibble: the column of a trail is the byte minus this (wrapping).
    pub(crate) trail_base: [u8; 16],
}

/// Whether an entry of `bits` has `bit` (a byte of that high nibble was seen already).
const fn any_bit(bits: &[u8; 16], bit: u8) -> bool {
    let mut l = 0;
    while l < 16 {
        if bits[l] & bit != 0 {
            return true;
        }
        l += 1;
    }
    false
}

impl PairTables {
    /// The tables of `lead_row`, `trail_col` (see the fields), with their nibble form.
    ///
    /// Panics (at compile time, in a `static`) if rows or columns are not consecutive
    /// within each high nibble or a pointer does not fit in 16 bits.
    pub(crate) const fn new(lead_row: [u8; 128], trail_col: [u8; 256], row_len: u16, index: Lookup) -> Self {
        let mut nibbles = PairNibbles {
            lead_bits: [0; 16],
            lead_base: [0; 16],
            trail_bits: [[0; 16]; 2],
            trail_base: [0; 16],
        };
        let (mut max_row, mut max_col) = (0u32, 0u32);
        let mut b = 0;
        while b < 256 {
            let (high, low) = (b >> 4, b & 0xF);
            if b >= 0x80 && lead_row[b - 0x80] != 0 {
                let row = lead_row[b - 0x80];
                let bit = 1u8 << (high - 8);
                let base = (b as u8).wrapping_sub(row - 1);
                assert!(
                    !any_bit(&nibbles.lead_bits, bit) || nibbles.lead_base[high] == base,
                    "rows are consecutive within a high nibble"
                );
                nibbles.lead_base[high] = base;
                nibbles.lead_bits[low] |= bit;
                if row as u32 > max_row {
                    max_row = row as u32;
                }
            }
            let col = trail_col[b];
            // The NEON kernel looks columns up from 0x40 only (three 64-byte lookups).
            assert!(b >= 0x40 || col == 0xFF, "no trailing byte below 0x40");
            if col != 0xFF {
                let half = b >> 7;
                let bit = 1u8 << (high & 7);
                let base = (b as u8).wrapping_sub(col);
                assert!(
                    !any_bit(&nibbles.trail_bits[half], bit) || nibbles.trail_base[high] == base,
                    "columns are consecutive within a high nibble"
                );
                nibbles.trail_base[high] = base;
                nibbles.trail_bits[half][low] |= bit;
                if col as u32 > max_col {
                    max_col = col as u32;
                }
            }
            b += 1;
        }
        assert!(
            max_row == 0 || (max_row - 1) * row_len as u32 + max_col <= 0xFFFF,
            "pointers fit in 16 bits"
        );
        // Whether every entry a kernel may look up (below the limit) is plain, from 0x80.
        let (mut all_plain, mut plain_or_zero) = (true, true);
        let mut i = 0;
        while let Some(code_point) = index.get(i) {
            all_plain &= is_plain(code_point, 0x80);
            plain_or_zero &= code_point == 0 || is_plain(code_point, 0x80);
            i += 1;
        }
        PairTables {
            lead_row,
            trail_col,
            row_len,
            index,
            all_plain,
            plain_or_zero,
            nibbles,
            four_byte: None,
        }
    }

    /// The same tables with gb18030's four-byte sequences (see [`PairTables::four_byte`]).
    ///
    /// Panics (at compile time, in a `static`) unless the leads are 0x81–0xFE in rows from
    /// 1 (so a kernel's `row - 1` of a first byte is the byte minus 0x81) and `table` is
    /// plain at every pointer (so a kernel need not check what it gathers), with the 0 after
    /// them.
    pub(crate) const fn with_four_byte(self, table: &'static [u16; FOUR_BYTE_POINTERS + 1]) -> Self {
        let mut b = 0x80;
        while b < 0x100 {
            let expect = if b >= 0x81 && b <= 0xFE { b - 0x80 } else { 0 };
            assert!(
                self.lead_row[b - 0x80] as usize == expect,
                "leads 0x81-0xFE from row 1"
            );
            b += 1;
        }
        let mut i = 0;
        while i < FOUR_BYTE_POINTERS {
            assert!(is_plain(table[i] as u32, 0x80), "plain at every pointer");
            i += 1;
        }
        assert!(table[FOUR_BYTE_POINTERS] == 0, "a 0 after the pointers");
        PairTables {
            four_byte: Some(table),
            ..self
        }
    }

    /// The code point of `lead` (0x80 or above), `trail` if that pair is plain, with plain
    /// code points from `MIN` (0x80; a vector kernel's checks for its UTF-8 stores may use
    /// 0x800, and leave the rest to the scalar kernel).
    #[inline(always)]
    pub(crate) fn plain_from<const MIN: u32>(&self, lead: u8, trail: u8) -> Option<u32> {
        let row = self.lead_row[usize::from(lead & 0x7F)];
        let col = self.trail_col[usize::from(trail)];
        if row == 0 || col == 0xFF {
            return None;
        }
        let pointer = usize::from(row - 1) * usize::from(self.row_len) + usize::from(col);
        let code_point = self.index.get(pointer)?;
        is_plain(code_point, MIN).then_some(code_point)
    }

    /// The code point of the four-byte sequence `bytes` (gb18030's tables only) if it is
    /// plain, with plain code points from `MIN` as in [`PairTables::plain_from`].
    #[inline(always)]
    pub(crate) fn four_byte_from<const MIN: u32>(&self, bytes: &[u8]) -> Option<u32> {
        let table = self.four_byte?;
        let &[first, second, third, fourth] = bytes else {
            return None;
        };
        let digit = |b: u8| b.wrapping_sub(0x30) < 10;
        let lead = |b: u8| b.wrapping_sub(0x81) < 0x7E;
        if !(lead(first) && digit(second) && lead(third) && digit(fourth)) {
            return None;
        }
        let pointer = four_byte_pointer(first, second, third, fourth) as usize;
        if pointer >= FOUR_BYTE_POINTERS {
            return None;
        }
        let code_point = u32::from(*table.get(pointer)?);
        (code_point >= MIN).then_some(code_point)
    }
}

/// Whether a pair kernel may write `code_point` itself: from `min` (0x80 or 0x800), in the
/// BMP, not a surrogate (0, "none", is below `min`).
#[inline(always)]
pub(crate) const fn is_plain(code_point: u32, min: u32) -> bool {
    code_point >= min && code_point <= 0xFFFF && code_point & 0xF800 != 0xD800
}

/// One table of kernels, for one level. See the module docs for the contract.
///
/// The fields are `unsafe fn`s because SIMD kernels require their instruction set; a
/// `&'static Kernels` is only handed out by [`kernels_for`] after checking the CPU, so the
/// safe methods below may call them. Scalar kernels are safe functions coerced to the same
/// pointer type.
pub(crate) struct Kernels {
    level: Level,
    ascii_prefix_len: unsafe fn(&[u8]) -> usize,
    copy_ascii: unsafe fn(&[u8], &mut OutBytes) -> usize,
    copy_ascii_loose: unsafe fn(&[u8], &mut OutBytes) -> usize,
    widen_ascii: unsafe fn(&[u8], &mut [u16]) -> usize,
    narrow_ascii: unsafe fn(&[u16], &mut OutBytes) -> usize,
    utf8_to_latin1: unsafe fn(&[u8], u8, &mut OutBytes) -> (usize, usize),
    latin1_to_utf8: unsafe fn(&[u8], u8, &mut OutBytes) -> (usize, usize),
    utf8_valid_up_to: unsafe fn(&[u8]) -> usize,
    utf8_copy_valid: Transcode<u8, MaybeUninit<u8>>,
    utf8_to_utf16: Transcode<u8, u16>,
    utf8_to_utf16_stage: Transcode<u8, u16>,
    utf16_to_utf8: Transcode<u16, MaybeUninit<u8>>,
    single_byte_to_utf16: SingleByteKernel<u16>,
    single_byte_to_utf8: SingleByteKernel<MaybeUninit<u8>>,
    utf16_bytes_to_utf16: Utf16BytesKernel<u16>,
    utf16_bytes_to_utf8: Utf16BytesKernel<MaybeUninit<u8>>,
    cjk_to_utf8: CjkDecodeKernel<MaybeUninit<u8>>,
    cjk_to_utf16: CjkDecodeKernel<u16>,
    utf16_to_legacy: LegacyEncodeKernel,
    /// How the codecs use this table.
    tuning: Tuning,
}

/// Generates the safe method for each kernel: every call goes through one `unsafe` block
/// whose justification is the same for all of them.
macro_rules! kernel_methods {
    ($($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        impl Kernels {
            $(
                $(#[$doc])*
                #[inline(always)]
                pub(crate) fn $name(&self, $($arg: $ty),*) -> $ret {
                    // SAFETY: a `&Kernels` exists only as one of the private statics, handed
                    // out by `kernels_for` after `self.level.is_supported()` was checked, so
                    // the instruction set the kernel was compiled for is available. The
                    // kernels have no other precondition: they take slices and stay in bounds.
                    unsafe { (self.$name)($($arg),*) }
                }
            )*
        }
    };
}

kernel_methods! {
    /// Length of the longest ASCII prefix of `src`.
    ascii_prefix_len(src: &[u8]) -> usize;
    /// Copies the longest ASCII prefix of `src` that fits into `dst`; returns its length.
    /// (In the tables of [`Kernels::for_spare_output`]: [`Kernels::copy_ascii_loose`].)
    copy_ascii(src: &[u8], dst: &mut OutBytes) -> usize;
    /// [`Kernels::copy_ascii`], but it may also change bytes of `dst` after the prefix it
    /// returns: fewer than 64 of them, and none at or past `src.len().min(dst.len())` (where
    /// the prefix ends inside a vector, the whole vector is stored, as no masked store does it
    /// at this level). For callers whose later output surely covers them: their output grows
    /// by at least one byte for each byte of `src` after the prefix, and has the room for it.
    /// (The crate calls it only as the `copy_ascii` of those tables; the sweeps and the
    /// `kernels` fuzz target call it by name, through `internals`.)
    #[cfg_attr(not(feature = "internals"), expect(dead_code, reason = "called through the tables' copy_ascii"))]
    copy_ascii_loose(src: &[u8], dst: &mut OutBytes) -> usize;
    /// Widens the longest ASCII prefix of `src` that fits into `dst`; returns its length.
    widen_ascii(src: &[u8], dst: &mut [u16]) -> usize;
    /// Narrows the longest prefix of `src` below U+0080 that fits into `dst`; returns its length.
    narrow_ascii(src: &[u16], dst: &mut OutBytes) -> usize;
    /// Converts the longest prefix of `src` made of ASCII bytes and of the two-byte UTF-8 of
    /// U+0080..=U+00FF whose code point is `first` or above (`first` from 0x80; a lead and a
    /// continuation byte, the lead 0xC2 or 0xC3) into a byte per character, the code point,
    /// as far as it fits in `dst`: `(read, written)`. (A single-byte encoder whose bytes from
    /// `first` are those code points: windows-1252 from 0xA0; `mem`'s Latin1 from 0x80.)
    utf8_to_latin1(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize);
    /// Converts the longest prefix of `src` made of ASCII bytes and of bytes from `first`
    /// (0x80 or above), each byte taken as the code point of its value, into UTF-8 (one byte
    /// for ASCII, two for the others), as far as it fits in `dst`: `(read, written)`.
    /// (`utf8_to_latin1` the other way: a single-byte decoder whose bytes from `first` are
    /// those code points, windows-1252 from 0xA0; `mem`'s Latin1 from 0x80.)
    latin1_to_utf8(src: &[u8], first: u8, dst: &mut OutBytes) -> (usize, usize);
    /// Length of the longest prefix of `src` that is valid UTF-8 made of whole characters.
    utf8_valid_up_to(src: &[u8]) -> usize;
    /// Copies the longest valid, whole-character UTF-8 prefix of `src` that fits into `dst`:
    /// `(read, written)`, equal.
    utf8_copy_valid(src: &[u8], dst: &mut OutBytes) -> (usize, usize);
    /// Converts the longest valid, whole-character UTF-8 prefix of `src` whose UTF-16 fits.
    utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize);
    /// [`Kernels::utf8_to_utf16`] for a caller that converts in stages and calls again from
    /// where a stage stopped, each time into an output of its own: it may stop before the
    /// longest prefix where its output has room for fewer than 64 more units and 64 bytes or
    /// more of `src` are left, having converted at least one character (the vector loops
    /// stop there, and the scalar kernel's tail is left to the next call); its `(read,
    /// written)` is then a character boundary with exactly the units of `src[..read]` in
    /// `dst[..written]`. Calls repeated from where each stopped convert what one call of
    /// `utf8_to_utf16` into the whole output converts.
    utf8_to_utf16_stage(src: &[u8], dst: &mut [u16]) -> (usize, usize);
    /// Converts the longest prefix of `src` without unpaired surrogates (a leading surrogate
    /// at the very end counts as unpaired) whose UTF-8 fits.
    utf16_to_utf8(src: &[u16], dst: &mut OutBytes) -> (usize, usize);
    /// Decodes bytes through a single-byte index (`table[byte - 0x80]`, 0 = unmapped) while
    /// mapped and fitting, to UTF-16.
    single_byte_to_utf16(src: &[u8], table: &[u16; 128], dst: &mut [u16]) -> (usize, usize);
    /// As `single_byte_to_utf16`, to UTF-8, stopping before a character that does not fit.
    single_byte_to_utf8(src: &[u8], table: &[u16; 128], dst: &mut OutBytes) -> (usize, usize);
    /// Decodes UTF-16 code units from bytes (big-endian if `be`) while no surrogate is
    /// unpaired (a leading surrogate in the last whole unit counts as unpaired) and they fit
    /// (a pair whole): `(bytes read, units written)`; whole units only.
    utf16_bytes_to_utf16(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize);
    /// As `utf16_bytes_to_utf16`, to UTF-8, stopping before a character that does not fit.
    utf16_bytes_to_utf8(src: &[u8], be: bool, dst: &mut OutBytes) -> (usize, usize);
    /// Decodes the plain characters (see [`PairTables`]) at the start of `src` while they
    /// fit, to UTF-8 (two or three bytes per pair).
    cjk_to_utf8(src: &[u8], tables: &PairTables, dst: &mut OutBytes) -> (usize, usize);
    /// As `cjk_to_utf8`, to UTF-16 (one unit per character).
    cjk_to_utf16(src: &[u8], tables: &PairTables, dst: &mut [u16]) -> (usize, usize);
    /// Encodes the plain code units (see [`EncodeTables`]) at the start of `src` while
    /// their bytes fit.
    utf16_to_legacy(src: &[u16], tables: &EncodeTables, dst: &mut OutBytes) -> (usize, usize);
}

impl Kernels {
    /// The level of this table.
    pub(crate) fn level(&self) -> Level {
        self.level
    }

    /// How the codecs use this table.
    #[inline(always)]
    pub(crate) fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    /// This level's table for output into a `Vec`'s spare capacity, whose bytes past what is
    /// written are never seen: its `copy_ascii` is this table's `copy_ascii_loose`. A table
    /// of its own, not a flag beside the table: a flag the encoders carried cost 16-byte
    /// pieces 3-4% at NEON (`docs/decisions.md`, "The loose ASCII copy").
    pub(crate) fn for_spare_output(&'static self) -> &'static Kernels {
        match self.level {
            #[cfg(target_arch = "x86_64")]
            Level::Sse2 => &x86::sse2::SPARE_OUTPUT,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => &x86::avx2::SPARE_OUTPUT,
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => &x86::avx512::SPARE_OUTPUT,
            #[cfg(target_arch = "aarch64")]
            Level::Neon => &aarch64::neon::SPARE_OUTPUT,
            // The scalar copy stores exactly: its table serves both.
            _ => self,
        }
    }
}

/// How the codecs use one level's kernels, where a kernel exists at every level but pays
/// only at some: each flag is true at the levels where the codecs measured faster calling
/// the kernel than with their own loops (the scalar kernels do no better than those).
#[derive(Clone, Copy)]
pub(crate) struct Tuning {
    /// The CJK decoders hand their runs of pairs to `cjk_to_utf8` and `cjk_to_utf16` (vector
    /// kernels at this level).
    pub(crate) call_cjk_decode: bool,
    /// The CJK and single-byte encoders hand their runs of mapped code units to
    /// `utf16_to_legacy` (a vector kernel at this level).
    pub(crate) call_legacy_encode: bool,
    /// The legacy encoders convert UTF-8 input to UTF-16 in stages (`utf8_to_utf16`) and map
    /// the staged units, rather than character by character (see `codecs::encode_runs`), which
    /// pays only with vector kernels (set at AVX-512).
    pub(crate) stage_encode_in_utf16: bool,
    /// The fewest UTF-8 bytes left for which an encode run stages UTF-16 for a single-byte
    /// encoder (three times as many for the CJK encoders), where `stage_encode_in_utf16`:
    /// the kernels' calls cost more than character by character on shorter ends.
    pub(crate) stage_encode_min: usize,
    /// The fewest UTF-16 code units a stage of an encode run holds (where it starts, and
    /// after a stage that stopped early or was mostly ASCII): at a level whose `utf8_to_utf16`
    /// converts only whole 64-byte blocks in vector code (NEON), 64, as a shorter stage goes
    /// through its scalar kernel whole.
    pub(crate) stage_units_min: usize,
}

impl Tuning {
    /// The scalar level's: the codecs' own loops everywhere.
    pub(crate) const SCALAR: Tuning = Tuning {
        call_cjk_decode: false,
        call_legacy_encode: false,
        stage_encode_in_utf16: false,
        stage_encode_min: 32,
        stage_units_min: 32,
    };
}

/// The kernel table of `level`, if this CPU supports it. The one dispatch point.
pub(crate) fn kernels_for(level: Level) -> Option<&'static Kernels> {
    if !level.is_supported() {
        return None;
    }
    match level {
        Level::Scalar => Some(&scalar::KERNELS),
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => Some(&x86::sse2::KERNELS),
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => Some(&x86::avx2::KERNELS),
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => Some(&x86::avx512::KERNELS),
        #[cfg(target_arch = "aarch64")]
        Level::Neon => Some(&aarch64::neon::KERNELS),
        _ => None,
    }
}

/// The active table; null until first use.
static ACTIVE: AtomicPtr<Kernels> = AtomicPtr::new(ptr::null_mut());

/// The kernel table that new decoders and encoders use.
#[inline]
pub(crate) fn active() -> &'static Kernels {
    let p = ACTIVE.load(Ordering::Relaxed);
    if p.is_null() {
        return init_active();
    }
    // SAFETY: ACTIVE only ever holds pointers made from `&'static Kernels` (below).
    unsafe { &*p }
}

#[cold]
fn init_active() -> &'static Kernels {
    let k = kernels_for(crate::cpu::detected()).unwrap_or(&scalar::KERNELS);
    ACTIVE.store(ptr::from_ref(k).cast_mut(), Ordering::Relaxed);
    k
}

/// Makes `level` active if supported (see `cpu::force`).
pub(crate) fn set_active(level: Level) -> bool {
    match kernels_for(level) {
        Some(k) => {
            ACTIVE.store(ptr::from_ref(k).cast_mut(), Ordering::Relaxed);
            true
        }
        None => false,
    }
}

/// Every kernel table this CPU can run, lowest level first (tests iterate it).
#[cfg(test)]
pub(crate) fn available() -> impl Iterator<Item = &'static Kernels> {
    crate::cpu::supported().filter_map(kernels_for)
}

/// Writes a scalar value as UTF-8 if it fits; returns its length, or 0 (shared with cursors).
pub(crate) use scalar::put_utf8 as scalar_put_utf8;

/// The ASCII prefix length with the active kernels (for callers that hold no table).
#[inline]
pub(crate) fn active_ascii_prefix_len(src: &[u8]) -> usize {
    active().ascii_prefix_len(src)
}

#[cfg(test)]
mod tests;
