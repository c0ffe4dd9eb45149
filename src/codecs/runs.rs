//! The hot loops shared by the legacy multi-byte and single-byte codecs: a decode run over
//! one- and two-byte characters here, and an encode run over characters that map to one or
//! two bytes (`Source::encode_run`, a loop per input form in `cursor`). Each family supplies its mapping as closures (inlined, so every family gets its own
//! loop) built from direct lookup tables; everything the closures decline — errors,
//! characters cut by the end of the buffer, the rare special cases — is left to the family's
//! state machine, which is the standard's algorithm. A run only ever consumes whole
//! characters that the state machine would have produced identically.
//!
//! The runs exist because the per-byte state machines pay for generality on every byte
//! (state checks, room checks for every case, error bookkeeping); a run keeps the state in
//! registers and does one table lookup, one room check and one write per character.

use crate::codecs::cursor::{Dest, STAGE};

/// The shape of a two-byte index: a pointer is `lead_base[lead] + trail_column[trail]`, where
/// `lead_base` is `NO_LEAD` for bytes that are not leads and `trail_column` is `NO_TRAIL`
/// for bytes that are not trails. Built at compile time by [`PairShape::new`].
pub(crate) struct PairShape {
    lead_base: [u16; 256],
    trail_column: [u8; 256],
}

const NO_LEAD: u16 = u16::MAX;
const NO_TRAIL: u8 = u8::MAX;

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
        let mut column = 0u8;
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
        assert!(column as u16 == row_len, "the trails must fill a row");
        PairShape {
            lead_base,
            trail_column,
        }
    }

    /// The pointer of `lead`, `trail`, if both are in range.
    #[inline(always)]
    pub(crate) fn pointer(&self, lead: u8, trail: u8) -> Option<usize> {
        let base = self.lead_base[usize::from(lead)];
        let column = self.trail_column[usize::from(trail)];
        if base == NO_LEAD || column == NO_TRAIL {
            return None;
        }
        Some(usize::from(base) + usize::from(column))
    }
}

/// Decodes the characters at the start of `src` while they are ASCII, single non-ASCII
/// bytes that `single` maps (to a non-zero scalar value), or pairs that `pair` maps; stops
/// at anything else (`single(b) == 0` and `pair(b, trail) == 0`, or a lead at the end of
/// `src`) or when the output is full. Returns the bytes read and whether the output was full.
///
/// `single` and `pair` return scalar values (never surrogates) or 0.
#[inline(always)]
pub(crate) fn decode_run<D: Dest>(
    src: &[u8],
    dst: &mut D,
    single: impl Fn(u8) -> u32,
    pair: impl Fn(u8, u8) -> u32,
) -> (usize, bool) {
    let mut read = 0;
    loop {
        read += dst.copy_ascii(src.get(read..).unwrap_or_default());
        let room = dst.stage_room();
        if room >= 16 {
            // Stage code units, then convert them in bulk (UTF-8 output with vector kernels).
            let mut stage = [0u16; STAGE];
            let mut n = 0;
            // ASCII bytes in a row: short runs (spaces, digits, punctuation between words)
            // are staged; a long one goes back to the kernel.
            let mut ascii = 0;
            while n + 2 <= room.min(STAGE) {
                let Some(&byte) = src.get(read) else {
                    break;
                };
                if byte < 0x80 {
                    ascii += 1;
                    if ascii > 16 {
                        break;
                    }
                    stage[n] = u16::from(byte);
                    n += 1;
                    read += 1;
                    continue;
                }
                ascii = 0;
                let (code_point, len) = match single(byte) {
                    0 => match src.get(read + 1).map(|&trail| pair(byte, trail)) {
                        Some(c) if c != 0 => (c, 2),
                        _ => break,
                    },
                    c => (c, 1),
                };
                if code_point < 0x10000 {
                    stage[n] = code_point as u16;
                    n += 1;
                } else {
                    let c = code_point - 0x10000;
                    stage[n] = 0xD800 | (c >> 10) as u16;
                    stage[n + 1] = 0xDC00 | (c & 0x3FF) as u16;
                    n += 2;
                }
                read += len;
            }
            dst.push_staged(&stage[..n]);
            if n > 0 {
                continue;
            }
        }
        loop {
            let Some(&byte) = src.get(read) else {
                return (read, false);
            };
            if byte < 0x80 {
                // Either the kernel stopped here for lack of room, or an ASCII byte follows a
                // non-ASCII character: write it, and go back to the kernel only if another
                // ASCII byte follows (text often has single spaces and punctuation between
                // non-ASCII characters).
                if !dst.room_for_ascii() {
                    return (read, true);
                }
                dst.push_ascii(byte);
                read += 1;
                if src.get(read).is_some_and(|&next| next < 0x80) {
                    break;
                }
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
}

/// How a two-byte encoder turns an index pointer into its two bytes.
#[derive(Clone, Copy)]
pub(crate) enum PointerBytes {
    /// Shift_JIS encoder steps 9–13: rows of 188, leads 0x81/0xC1, trails 0x40/0x41.
    ShiftJis,
    /// EUC-JP encoder steps 9–11: rows of 94 from 0xA1.
    EucJp,
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
