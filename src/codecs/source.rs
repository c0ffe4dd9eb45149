//! Encoder input and output: [`Source`], over UTF-8 ([`Utf8Source`]) or UTF-16
//! ([`Utf16Source`]), and [`ByteDest`].
//!
//! Each family's encoder is written once, generic over `Source`, and monomorphised for both
//! Unicode forms; the runs that encode many characters at once are in `encode_runs`.
//!
//! Safe code only: all writes are checked slice accesses; the `push*` methods have "the
//! caller checked room" as a contract, enforced by the slice bounds if it is broken.

use crate::codecs::encode_runs::{self, bmp_utf8_len, copy_allowed};
use crate::simd::{EncodeTables, Kernels};
use crate::simd::{OutBytes, write_bytes};

/// Where an encoder reads from: UTF-8 (`&str`) or UTF-16 (`&[u16]`, unpaired surrogates read
/// as U+FFFD, as in encoding_rs; a surrogate pair split across buffers is two U+FFFD).
pub(crate) trait Source {
    /// Code units consumed so far.
    fn read(&self) -> usize;
    /// The next scalar value and its length in code units, without consuming it.
    fn peek(&self) -> Option<(char, usize)>;
    /// Consumes `units` code units (a length returned by [`Source::peek`]).
    fn advance(&mut self, units: usize);
    /// Writes the rest of the input as UTF-8 into `dst` as far as whole characters fit,
    /// stopping before an unpaired surrogate (a kernel), consuming it; returns units consumed.
    fn copy_as_utf8(&mut self, dst: &mut ByteDest<'_>) -> usize;
    /// Encodes characters while they are ASCII or `map` encodes them, consuming them; stops at
    /// the end of the input, at a character `map` declines (left unconsumed), or when the
    /// output is full. `map(code_point)` for a non-ASCII scalar value is 0 (declined: the
    /// state machine decides), a single byte `0x01..=0xFF`, or two bytes `lead << 8 | trail`
    /// with `lead != 0`. Surrogates in UTF-16 input are always left to the state machine.
    /// `tables`, if given, is the same lookup for the vector kernels (their plain code units
    /// are a subset of what `map` encodes, with the same bytes).
    fn encode_run(&mut self, dst: &mut ByteDest<'_>, tables: Option<&EncodeTables>, map: impl Fn(u32) -> u16);
    /// Encodes the non-ASCII characters at the start of the input while `map` encodes them
    /// (as in [`Source::encode_run`], character by character) and they fit, consuming them;
    /// stops at an ASCII character too (ISO-2022-JP in jis0208 state, where ASCII needs an
    /// escape sequence first). Surrogates in UTF-16 input are left to the state machine.
    /// Looks at most about `2 * dst.left()` code units ahead (the input that fills the
    /// output), so that small output buffers do not make every call scan far.
    fn encode_non_ascii_run(&mut self, dst: &mut ByteDest<'_>, map: impl Fn(u32) -> u16);
    /// Copies the characters at the start of the input while they are ASCII code points `c`
    /// with bit `c` of `allowed` set, as far as they fit, consuming them (ISO-2022-JP in ASCII
    /// and Roman state, where U+000E, U+000F and U+001B, and in Roman U+005C and U+007E, are
    /// not themselves).
    fn copy_ascii_in(&mut self, dst: &mut ByteDest<'_>, allowed: u128);
    /// Hands `f` the kernels and the next code units of the input as UTF-16, at most
    /// `stage.len()` (from UTF-8: whole characters converted by the transcoding kernel into
    /// `stage`, which may hold up to 63 units fewer than fit where more input follows:
    /// `Kernels::utf8_to_utf16_stage`), and consumes the units `f` returns it used (rounded
    /// down to whole characters). For an encoder that works on UTF-16 units with its own loop
    /// around the `utf16_to_legacy` kernel (ISO-2022-JP, whose escape sequences go between the
    /// kernel's runs).
    fn with_utf16(&mut self, stage: &mut [u16], f: impl FnOnce(&'static Kernels, &[u16]) -> usize);
    /// The kernels this source was made with (the encoder's level).
    fn kernels(&self) -> &'static Kernels;
    /// Where [`Source::encode_run`] may stage for the vector kernels again, in code units
    /// from the source's start ([`KERNEL_BACKOFF`](crate::codecs::tuning::KERNEL_BACKOFF); 0 for a source that does not back off),
    /// and how far it backs off after the next stage that makes no progress.
    fn kernels_from(&self) -> (usize, usize) {
        (0, 0)
    }
    /// Sets [`Source::kernels_from`] (for a source made after an unmappable character, from
    /// the one before it; a backoff of 0 leaves the source's own).
    fn set_kernels_from(&mut self, _at: usize, _backoff: usize) {}
}

/// How many of `units` (UTF-16) `used` stands for, rounded down to whole characters: a
/// leading surrogate at the end goes with its trailing one.
#[inline(always)]
fn whole_units(units: &[u16], used: usize) -> usize {
    let used = used.min(units.len());
    match used.checked_sub(1).map(|i| units[i]) {
        Some(0xD800..=0xDBFF) => used - 1,
        _ => used,
    }
}

/// Encoder input from UTF-8.
pub(crate) struct Utf8Source<'a> {
    pub(super) src: &'a str,
    pub(super) pos: usize,
    pub(super) kernels: &'static Kernels,
    /// No staging for the vector kernels before this byte ([`KERNEL_BACKOFF`](crate::codecs::tuning::KERNEL_BACKOFF)).
    pub(super) stage_from: usize,
    /// How far past a stage that made no progress the next one waits: doubled at each, back to
    /// [`KERNEL_BACKOFF`](crate::codecs::tuning::KERNEL_BACKOFF) after one that made some.
    pub(super) stage_backoff: usize,
}

impl<'a> Utf8Source<'a> {
    pub(crate) fn new(src: &'a str, kernels: &'static Kernels) -> Self {
        Utf8Source {
            src,
            pos: 0,
            kernels,
            stage_from: 0,
            stage_backoff: crate::codecs::tuning::KERNEL_BACKOFF,
        }
    }
}

impl Source for Utf8Source<'_> {
    #[inline(always)]
    fn read(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn peek(&self) -> Option<(char, usize)> {
        let c = self.src.get(self.pos..)?.chars().next()?;
        Some((c, c.len_utf8()))
    }
    #[inline(always)]
    fn advance(&mut self, units: usize) {
        self.pos += units;
    }
    #[inline]
    fn copy_as_utf8(&mut self, dst: &mut ByteDest<'_>) -> usize {
        // The input is valid UTF-8 already: copy up to the last character boundary that fits.
        let rest = &self.src.as_bytes()[self.pos..];
        let mut n = rest.len().min(dst.left());
        while !self.src.is_char_boundary(self.pos + n) {
            n -= 1;
        }
        dst.push(&rest[..n]);
        self.pos += n;
        n
    }
    #[inline(always)]
    fn encode_run(
        &mut self,
        dst: &mut ByteDest<'_>,
        tables: Option<&EncodeTables>,
        map: impl Fn(u32) -> u16,
    ) {
        encode_runs::from_utf8(self, dst, tables, map);
    }
    #[inline(always)]
    fn encode_non_ascii_run(&mut self, dst: &mut ByteDest<'_>, map: impl Fn(u32) -> u16) {
        encode_runs::from_utf8_non_ascii(self, dst, map);
    }
    #[inline(always)]
    fn copy_ascii_in(&mut self, dst: &mut ByteDest<'_>, allowed: u128) {
        let n = copy_allowed(
            &self.src.as_bytes()[self.pos..],
            dst.buf.get_mut(dst.pos..).unwrap_or_default(),
            allowed,
        );
        self.pos += n;
        dst.pos += n;
    }
    #[inline(always)]
    fn with_utf16(&mut self, stage: &mut [u16], f: impl FnOnce(&'static Kernels, &[u16]) -> usize) {
        let rest = &self.src.as_bytes()[self.pos..];
        // The stage's kernel: it may leave its last units (fewer than 64) to the next stage
        // where its vector loops stop for the stage's room; all the input left is its input,
        // so that the room, not the input, stops them.
        let (read, units) = self.kernels.utf8_to_utf16_stage(rest, stage);
        let units = &stage[..units];
        let used = whole_units(units, f(self.kernels, units));
        self.pos += if used == units.len() {
            read
        } else {
            units[..used]
                .iter()
                .map(|&u| match u {
                    // A surrogate pair: four bytes.
                    0xD800..=0xDBFF => 4,
                    0xDC00..=0xDFFF => 0,
                    _ => bmp_utf8_len(u),
                })
                .sum::<usize>()
        };
    }
    #[inline(always)]
    fn kernels(&self) -> &'static Kernels {
        self.kernels
    }
    #[inline(always)]
    fn kernels_from(&self) -> (usize, usize) {
        (self.stage_from, self.stage_backoff)
    }
    #[inline(always)]
    fn set_kernels_from(&mut self, at: usize, backoff: usize) {
        self.stage_from = at;
        if backoff > 0 {
            self.stage_backoff = backoff;
        }
    }
}

/// Encoder input from UTF-16.
pub(crate) struct Utf16Source<'a> {
    pub(super) src: &'a [u16],
    pub(super) pos: usize,
    pub(super) kernels: &'static Kernels,
}

impl<'a> Utf16Source<'a> {
    pub(crate) fn new(src: &'a [u16], kernels: &'static Kernels) -> Self {
        Utf16Source { src, pos: 0, kernels }
    }
}

impl Source for Utf16Source<'_> {
    #[inline(always)]
    fn read(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn peek(&self) -> Option<(char, usize)> {
        let u = *self.src.get(self.pos)?;
        Some(match u {
            0xD800..=0xDBFF => match self.src.get(self.pos + 1) {
                Some(&t @ 0xDC00..=0xDFFF) => {
                    let c = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(t) - 0xDC00);
                    (char::from_u32(c).unwrap_or('\u{FFFD}'), 2)
                }
                _ => ('\u{FFFD}', 1),
            },
            0xDC00..=0xDFFF => ('\u{FFFD}', 1),
            _ => (char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}'), 1),
        })
    }
    #[inline(always)]
    fn advance(&mut self, units: usize) {
        self.pos += units;
    }
    #[inline]
    fn copy_as_utf8(&mut self, dst: &mut ByteDest<'_>) -> usize {
        let (read, written) = self
            .kernels
            .utf16_to_utf8(&self.src[self.pos..], &mut dst.buf[dst.pos..]);
        self.pos += read;
        dst.pos += written;
        read
    }
    #[inline(always)]
    fn encode_run(
        &mut self,
        dst: &mut ByteDest<'_>,
        tables: Option<&EncodeTables>,
        map: impl Fn(u32) -> u16,
    ) {
        encode_runs::from_utf16(self, dst, tables, map);
    }
    #[inline(always)]
    fn encode_non_ascii_run(&mut self, dst: &mut ByteDest<'_>, map: impl Fn(u32) -> u16) {
        encode_runs::from_utf16_non_ascii(self, dst, map);
    }
    #[inline(always)]
    fn copy_ascii_in(&mut self, dst: &mut ByteDest<'_>, allowed: u128) {
        let n = copy_allowed(
            &self.src[self.pos..],
            dst.buf.get_mut(dst.pos..).unwrap_or_default(),
            allowed,
        );
        self.pos += n;
        dst.pos += n;
    }
    #[inline(always)]
    fn with_utf16(&mut self, stage: &mut [u16], f: impl FnOnce(&'static Kernels, &[u16]) -> usize) {
        let rest = &self.src[self.pos..];
        let units = &rest[..rest.len().min(stage.len())];
        self.pos += whole_units(units, f(self.kernels, units));
    }
    #[inline(always)]
    fn kernels(&self) -> &'static Kernels {
        self.kernels
    }
}

/// Encoder output.
pub(crate) struct ByteDest<'a> {
    pub(super) buf: &'a mut OutBytes,
    pub(super) pos: usize,
}

impl<'a> ByteDest<'a> {
    pub(crate) fn new(buf: &'a mut OutBytes) -> Self {
        ByteDest { buf, pos: 0 }
    }
    /// Bytes written so far.
    #[inline(always)]
    pub(crate) fn written(&self) -> usize {
        self.pos
    }
    /// Bytes left.
    #[inline(always)]
    pub(crate) fn left(&self) -> usize {
        self.buf.len() - self.pos
    }
    /// Writes `bytes`; the caller checked [`ByteDest::left`].
    #[inline(always)]
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        write_bytes(&mut self.buf[self.pos..self.pos + bytes.len()], bytes);
        self.pos += bytes.len();
    }
    /// [`ByteDest::push`] for bytes mostly fewer than 64 (`simd::write_short`); the caller
    /// checked [`ByteDest::left`].
    #[inline(always)]
    pub(crate) fn push_short(&mut self, bytes: &[u8]) {
        crate::simd::write_short(&mut self.buf[self.pos..], bytes);
        self.pos += bytes.len();
    }
    /// Writes one byte; the caller checked [`ByteDest::left`].
    #[inline(always)]
    pub(crate) fn push_byte(&mut self, b: u8) {
        self.buf[self.pos].write(b);
        self.pos += 1;
    }
}
