//! The hot loops shared by the legacy multi-byte and single-byte codecs: a decode run over
//! one- and two-byte characters here, and an encode run over characters that map to one or
//! two bytes (`Source::encode_run`, a loop per input form in `encode_runs`). Each family supplies its mapping as closures (inlined, so every family gets its own
//! loop) built from direct lookup tables; everything the closures decline — errors,
//! characters cut by the end of the buffer, the rare special cases — is left to the family's
//! state machine, which is the standard's algorithm. A run only ever consumes whole
//! characters that the state machine would have produced identically.
//!
//! The runs exist because the per-byte state machines pay for generality on every byte
//! (state checks, room checks for every case, error bookkeeping); a run keeps the state in
//! registers and does one table lookup, one room check and one write per character.

use core::mem::MaybeUninit;

use crate::codecs::dest::Dest;
use crate::codecs::tuning::PAIRS_MIN;
use crate::simd::OutBytes;
use crate::simd::scalar_put_utf8 as put_utf8;
use crate::simd::{Lookup, PairTables};

/// The shape of a two-byte index: a pointer is `lead_base[lead] + trail_column[trail]`, where
/// `lead_base` is `NO_LEAD` for bytes that are not leads and `trail_column` is `NO_TRAIL`
/// for bytes that are not trails. Built at compile time by [`PairShape::new`].
pub(crate) struct PairShape {
    lead_base: [u16; 256],
    trail_column: [u16; 256],
    row_len: u16,
}

/// Larger than every pointer of an index (the largest, gb18030's two-byte one, has 23940),
/// so that a sum with `NO_LEAD` or `NO_TRAIL` in it is past the end of every index: one
/// bounds check tests the lead, the trail and the index (see [`PairShape::lookup`]).
const NO_LEAD: u16 = 0x8000;
const NO_TRAIL: u16 = 0x8000;

impl PairShape {
    /// Leads `leads` (ranges; consecutive rows of `row_len` pointers in the order given) and
    /// trails `trails` (ranges; consecutive columns from 0 in the order given).
    pub(crate) const fn new(leads: &[(u8, u8)], trails: &[(u8, u8)], row_len: u16) -> PairShape {
        let mut lead_base = [NO_LEAD; 256];
        let mut trail_column = [NO_TRAIL; 256];
        let mut row = 0u16;
        let mut i = 0;
        while i < leads.len() {
            let mut b = leads[i].0 as usize;
            while b <= leads[i].1 as usize {
                lead_base[b] = row * row_len;
                row += 1;
                b += 1;
            }
            i += 1;
        }
        assert!(
            row as u32 * row_len as u32 <= NO_LEAD as u32,
            "pointers are below NO_LEAD"
        );
        let mut column = 0u16;
        let mut i = 0;
        while i < trails.len() {
            let mut b = trails[i].0 as usize;
            while b <= trails[i].1 as usize {
                trail_column[b] = column;
                column += 1;
                b += 1;
            }
            i += 1;
        }
        assert!(column == row_len, "the trails must fill a row");
        PairShape {
            lead_base,
            trail_column,
            row_len,
        }
    }

    /// The same shape, with its index, as the `pairs_to_*` kernels read it.
    pub(crate) const fn tables(&self, index: Lookup) -> PairTables {
        let mut lead_row = [0u8; 128];
        let mut b = 0x80;
        while b < 0x100 {
            if self.lead_base[b] != NO_LEAD {
                let row = self.lead_base[b] / self.row_len + 1;
                assert!(row < 0x100, "rows fit in a byte");
                lead_row[b - 0x80] = row as u8;
            }
            b += 1;
        }
        let mut b = 0;
        while b < 0x80 {
            assert!(self.lead_base[b] == NO_LEAD, "leading bytes are 0x80 or above");
            b += 1;
        }
        let mut trail_column = [u8::MAX; 256];
        let mut b = 0;
        while b < 0x100 {
            if self.trail_column[b] != NO_TRAIL {
                trail_column[b] = self.trail_column[b] as u8;
            }
            b += 1;
        }
        PairTables::new(lead_row, trail_column, self.row_len, index)
    }

    /// `index[pointer]` for the pointer of `lead`, `trail`: `None` if either is out of range
    /// or the pointer is past the end of `index` (which is shorter than `NO_LEAD`). One
    /// bounds check for all three, where a check of each took three (short inputs feel it).
    #[inline(always)]
    pub(crate) fn lookup<T: Copy>(&self, lead: u8, trail: u8, index: &[T]) -> Option<T> {
        debug_assert!(index.len() <= usize::from(NO_LEAD));
        let base = self.lead_base[usize::from(lead)];
        let column = self.trail_column[usize::from(trail)];
        index.get(usize::from(base) + usize::from(column)).copied()
    }
}

/// Whether a plain four-byte sequence (gb18030) starts at `src[read]`; out of line, for the
/// loop below (16-byte Shift_JIS inputs 4% slower with it inline).
#[cold]
#[inline(never)]
fn four_byte_at(pairs: &PairTables, src: &[u8], read: usize) -> bool {
    pairs
        .four_byte_from::<0x80>(src.get(read..read + 4).unwrap_or_default())
        .is_some()
}

/// Decodes the characters at the start of `src` while they are ASCII, single non-ASCII
/// bytes that `single` maps (to a non-zero scalar value), or pairs that `pair` maps; stops
/// at anything else (`single(b) == 0` and `pair(b, trail) == 0`, or a lead at the end of
/// `src`) or when the output is full. Returns the bytes read and whether the output was full.
///
/// `single` and `pair` return scalar values (never surrogates) or 0; `pairs` describes the
/// same pairs for the vector kernels (whose "plain" pairs are a subset of what `pair` maps,
/// with the same code points).
///
/// The work is done by [`Dest::legacy_run`] (the loops [`run_to_utf8`] and [`run_to_utf16`],
/// which write straight into the output slice) and the `copy_ascii` kernel for ASCII runs;
/// the character-by-character loop here takes what they leave at the edges: a lead at the
/// end of `src`, the last few code units of room, astral scalar values.
#[inline(always)]
pub(crate) fn decode_run<D: Dest>(
    src: &[u8],
    dst: &mut D,
    pairs: &PairTables,
    single: impl Fn(u8) -> u32,
    pair: impl Fn(u8, u8) -> u32,
) -> (usize, bool) {
    let mut read = 0;
    loop {
        if src.get(read).is_some_and(|&b| b < 0x80) {
            // An ASCII run: the kernel. Not called at a non-ASCII byte, where CJK text mostly
            // is (a call that reads nothing costs short inputs most).
            read += dst.copy_ascii(src.get(read..).unwrap_or_default());
        }
        if let Some(&byte) = src.get(read)
            && byte >= 0x80
            // Shorter runs go to the codec's own loop, which stops at such a character as
            // soon (a test here cost 16-byte inputs a lookup a call).
            && src.len() - read >= PAIRS_MIN
            && single(byte) == 0
            && src.get(read + 1).is_none_or(|&trail| pair(byte, trail) == 0)
            && !(pairs.four_byte.is_some() && dst.vector_pairs() && four_byte_at(pairs, src, read))
        {
            // A character the run does not take (errors; gb18030's four-byte sequences
            // unless the vector kernels do): the kernels would stop at once.
            return (read, false);
        }
        read += dst.legacy_run(src.get(read..).unwrap_or_default(), pairs, &single, &pair);
        // One character the fast loops left (at the edges of the input or the output, an
        // astral scalar value into UTF-8, or one this loop does not take either), then back
        // to them. Calling them again at once would stop at the same character (gb18030's
        // four-byte sequences, on the Chinese Wikipedia page).
        let Some(&byte) = src.get(read) else {
            return (read, false);
        };
        if byte < 0x80 {
            // The kernel stopped here for lack of room.
            if !dst.room_for_ascii() {
                return (read, true);
            }
            dst.push_ascii(byte);
            read += 1;
            continue;
        }
        let (code_point, len) = match single(byte) {
            0 => {
                let Some(&trail) = src.get(read + 1) else {
                    return (read, false);
                };
                match pair(byte, trail) {
                    0 => return (read, false),
                    c => (c, 2),
                }
            }
            c => (c, 1),
        };
        if !dst.try_push_scalar(code_point) {
            return (read, true);
        }
        read += len;
    }
}

/// ASCII bytes in a row that the direct loops write themselves before handing the rest of
/// the run to the `copy_ascii` kernel (short runs — spaces, digits, punctuation between
/// words — are cheaper inline than a kernel call).
const ASCII_INLINE: u32 = 16;

/// The decode run's common case, into UTF-8: characters of at most two bytes that map to
/// BMP scalar values, while three output bytes remain. Writes at `buf[*pos..]`, advances
/// `*pos`, returns the bytes of `src` read: whole characters only, each exactly as
/// [`decode_run`]'s character loop would have written it. Stops (leaving the rest to that
/// loop) at a character `single` and `pair` decline, a lead that is the last byte of `src`,
/// an astral scalar value, the last two bytes of room, or after [`ASCII_INLINE`] ASCII bytes
/// in a row.
#[inline(always)]
pub(crate) fn run_to_utf8(
    src: &[u8],
    buf: &mut OutBytes,
    pos: &mut usize,
    single: impl Fn(u8) -> u32,
    pair: impl Fn(u8, u8) -> u32,
) -> usize {
    // Three bytes of room: `put_utf8` writes 1 to 3 bytes, and 0 (stop) for an astral value.
    run_direct::<MaybeUninit<u8>, 3>(src, buf, pos, single, pair, |out, c| put_utf8(c, out))
}

/// [`run_to_utf8`] into UTF-16: the same characters, while two code units of room remain (astral scalar values included, as surrogate pairs).
#[inline(always)]
pub(crate) fn run_to_utf16(
    src: &[u8],
    buf: &mut [u16],
    pos: &mut usize,
    single: impl Fn(u8) -> u32,
    pair: impl Fn(u8, u8) -> u32,
) -> usize {
    run_direct::<u16, 2>(src, buf, pos, single, pair, |out, c| {
        if c < 0x10000 {
            out[0] = c as u16;
            1
        } else {
            let c = c - 0x10000;
            out[0] = 0xD800 | (c >> 10) as u16;
            out[1] = 0xDC00 | (c & 0x3FF) as u16;
            2
        }
    })
}

/// The loop of [`run_to_utf8`] and [`run_to_utf16`]: `put` writes a scalar value into the
/// `ROOM` code units it is given and returns how many it used (0: not here, stop).
#[inline(always)]
fn run_direct<T, const ROOM: usize>(
    src: &[u8],
    buf: &mut [T],
    pos: &mut usize,
    single: impl Fn(u8) -> u32,
    pair: impl Fn(u8, u8) -> u32,
    put: impl Fn(&mut [T], u32) -> usize,
) -> usize {
    let mut read = 0;
    let total = buf.len();
    // What is left of the output: its length is the loop's one test of room, and the put
    // below needs no bounds check (a position `w + ROOM` could wrap, for all the compiler
    // knows: a test a character).
    let mut out = buf.get_mut(*pos..).unwrap_or_default();
    let mut ascii = 0;
    while read < src.len() && out.len() >= ROOM {
        let byte = src[read];
        let (c, len) = if byte < 0x80 {
            ascii += 1;
            if ascii > ASCII_INLINE {
                break;
            }
            (u32::from(byte), 1)
        } else {
            ascii = 0;
            match single(byte) {
                0 => match src.get(read + 1).map_or(0, |&trail| pair(byte, trail)) {
                    0 => break,
                    c => (c, 2),
                },
                c => (c, 1),
            }
        };
        let n = put(&mut out[..ROOM], c);
        if n == 0 {
            break;
        }
        out = &mut core::mem::take(&mut out)[n..];
        read += len;
    }
    *pos = total - out.len();
    read
}

/// How a two-byte encoder turns an index pointer into its two bytes.
#[derive(Clone, Copy)]
pub(crate) enum PointerBytes {
    /// Shift_JIS encoder steps 9–13: rows of 188, leads 0x81/0xC1, trails 0x40/0x41.
    ShiftJis,
    /// EUC-JP encoder steps 9–11: rows of 94 from 0xA1.
    EucJp,
    /// ISO-2022-JP encoder steps 13–15: rows of 94 from 0x21.
    Iso2022Jp,
    /// gb18030 encoder steps 7–10: rows of 190 from 0x81, trails 0x40/0x41.
    Gb18030,
    /// EUC-KR encoder steps 5–7: rows of 190 from 0x81, trails from 0x41.
    EucKr,
    /// Big5 encoder steps 5–8: rows of 157 from 0x81, trails 0x40/0x62.
    Big5,
}

impl PointerBytes {
    /// The two bytes of `pointer`, as `lead << 8 | trail`.
    const fn bytes(self, pointer: u32) -> u16 {
        let (lead, trail) = match self {
            PointerBytes::ShiftJis => {
                let leading = pointer / 188;
                let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
                let trailing = pointer % 188;
                let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
                (leading + leading_offset, trailing + offset)
            }
            PointerBytes::EucJp => (pointer / 94 + 0xA1, pointer % 94 + 0xA1),
            PointerBytes::Iso2022Jp => (pointer / 94 + 0x21, pointer % 94 + 0x21),
            PointerBytes::Gb18030 => {
                let trailing = pointer % 190;
                let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
                (pointer / 190 + 0x81, trailing + offset)
            }
            PointerBytes::EucKr => (pointer / 190 + 0x81, pointer % 190 + 0x41),
            PointerBytes::Big5 => {
                let trailing = pointer % 157;
                let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
                (pointer / 157 + 0x81, trailing + offset)
            }
        };
        ((lead << 8) | trail) as u16
    }
}

/// An encoder's paged blocks of `pointer + 1` (0 for none) turned, at compile time, into
/// blocks of the bytes themselves (`lead << 8 | trail`, 0 for none), for the same pages: the
/// encode runs then need one lookup per character.
pub(crate) const fn pointer_bytes<const N: usize>(blocks: &[u16; N], scheme: PointerBytes) -> [u16; N] {
    let mut out = [0u16; N];
    let mut i = 0;
    while i < N {
        if blocks[i] != 0 {
            out[i] = scheme.bytes(blocks[i] as u32 - 1);
        }
        i += 1;
    }
    out
}

/// `bytes` (paged by `pages`, as `pointer_bytes`'s) without the bytes of the code points in
/// `ranges` (inclusive): those the state machine takes, so that neither the run's closure nor
/// the vector kernels need a test of their own for them. (A block shared by two pages would
/// lose them for both: each codec's test compares every other code point with its pointer's
/// bytes.)
pub(crate) const fn without<const N: usize>(
    mut bytes: [u16; N],
    pages: &[u8; 256],
    ranges: &[(u16, u16)],
) -> [u16; N] {
    let mut r = 0;
    while r < ranges.len() {
        let (lo, hi) = ranges[r];
        let mut c = lo as usize;
        while c <= hi as usize {
            let index = pages[c >> 8] as usize * 256 + (c & 0xFF);
            if index < N {
                bytes[index] = 0;
            }
            c += 1;
        }
        r += 1;
    }
    bytes
}
