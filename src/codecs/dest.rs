//! Decoder output: [`Dest`], over UTF-8 bytes ([`Utf8Dest`]) or UTF-16 code units
//! ([`Utf16Dest`]).
//!
//! Each family's state machine is written once, generic over `Dest`, and monomorphised for
//! both Unicode forms. Room checks are exact: a cursor reports room for a character exactly
//! when its encoding fits in what is left, so output buffers of any size make progress as
//! long as they can hold the next character (4 bytes or 2 code units cover every step,
//! including Big5's two-code-point outputs).
//!
//! Safe code only: all writes are checked slice accesses; the `push_*` methods have "the
//! caller checked room" as a contract, enforced by the slice bounds if it is broken.

use crate::codecs::runs;
use crate::codecs::tuning::{PAIRS_MIN, Resume};
use crate::simd::OutBytes;
use crate::simd::scalar_put_utf8 as put_utf8;
use crate::simd::{Kernels, PairTables};

/// Where a decoder writes: UTF-8 bytes or UTF-16 code units.
pub(crate) trait Dest {
    /// Code units written so far.
    fn written(&self) -> usize;
    /// Whether `c` fits in the space left.
    fn room_for(&self, c: char) -> bool;
    /// Whether one ASCII character fits.
    fn room_for_ascii(&self) -> bool;
    /// Whether U+FFFD fits.
    fn room_for_replacement(&self) -> bool {
        self.room_for('\u{FFFD}')
    }
    /// Whether an error fits: room for its U+FFFD in replacement mode, always otherwise.
    #[inline(always)]
    fn room_for_error(&self, replace: bool) -> bool {
        !replace || self.room_for_replacement()
    }
    /// Whether `a` followed by `b` fits.
    fn room_for_two(&self, a: char, b: char) -> bool;
    /// Writes `c`; the caller checked [`Dest::room_for`].
    fn push(&mut self, c: char);
    /// Writes an ASCII character (`b < 0x80`); the caller checked [`Dest::room_for_ascii`].
    fn push_ascii(&mut self, b: u8);
    /// Writes a BMP scalar value given as u16 (not a surrogate); the caller checked room for
    /// it with [`Dest::room_for_bmp`].
    fn push_bmp(&mut self, u: u16);
    /// Whether the BMP scalar value `u` fits.
    fn room_for_bmp(&self, u: u16) -> bool;
    /// Writes the scalar value `c` (not a surrogate) if it fits; returns whether it did.
    fn try_push_scalar(&mut self, c: u32) -> bool;
    /// Whether [`Dest::legacy_run`] goes through the vector pair kernels (which also take
    /// gb18030's four-byte sequences of the BMP).
    fn vector_pairs(&self) -> bool;
    /// For the legacy decode runs: decodes the common characters at the start of `src`
    /// straight into the output ([`runs::run_to_utf8`], [`runs::run_to_utf16`]); returns
    /// the bytes read.
    fn legacy_run(
        &mut self,
        src: &[u8],
        pairs: &PairTables,
        single: &impl Fn(u8) -> u32,
        pair: &impl Fn(u8, u8) -> u32,
    ) -> usize;
    /// Copies the ASCII prefix of `src` as far as it fits (a kernel); returns bytes consumed.
    fn copy_ascii(&mut self, src: &[u8]) -> usize;
    /// Decodes `src` through a single-byte index while mapped and fitting (a kernel);
    /// returns bytes consumed.
    fn single_byte(&mut self, src: &[u8], table: &[u16; 128]) -> usize;
    /// [`Dest::single_byte`] for an index whose bytes from `latin1_from` (not 0) are their
    /// own code points (`SingleByteTables::latin1_from`: windows-1252 from 0xA0).
    fn latin1_single_byte(&mut self, src: &[u8], table: &[u16; 128], latin1_from: u8) -> usize;
    /// Decodes UTF-16 units from `src` while not surrogates and fitting (a kernel); returns
    /// bytes consumed (even).
    fn utf16_bytes(&mut self, src: &[u8], be: bool) -> usize;
    /// Copies/converts the valid whole-character UTF-8 prefix of `src` as far as it fits (a
    /// kernel); returns bytes consumed.
    fn utf8_valid(&mut self, src: &[u8]) -> usize;
}

/// Decoder output into UTF-8.
pub(crate) struct Utf8Dest<'a> {
    buf: &'a mut OutBytes,
    pos: usize,
    kernels: &'static Kernels,
    resume: Resume,
}

impl<'a> Utf8Dest<'a> {
    pub(crate) fn new(buf: &'a mut OutBytes, kernels: &'static Kernels) -> Self {
        Utf8Dest {
            buf,
            pos: 0,
            kernels,
            resume: Resume(Resume::START),
        }
    }

    #[inline(always)]
    fn left(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// A legacy decode run with the codec's own loop (see `Dest::legacy_run`).
    #[inline(always)]
    fn codec_run(&mut self, src: &[u8], single: &impl Fn(u8) -> u32, pair: &impl Fn(u8, u8) -> u32) -> usize {
        // Character by character: staging UTF-16 for the vector transcoder here (what the
        // pair kernels leave) measured no faster.
        runs::run_to_utf8(src, self.buf, &mut self.pos, single, pair)
    }
}

impl Utf8Dest<'_> {
    /// [`Dest::single_byte`] for the decoders whose bytes from `latin1_from` are their own
    /// code points (windows-1252 from 0xA0): those by `latin1_to_utf8`, which needs no table,
    /// what it stops at through the table one by one. German windows-1252 is ASCII with a
    /// letter every few dozen bytes, which the table kernel takes a vector at a time and
    /// the Latin1 one a few at a time (NEON: 1.63 -> 1.21 instructions a byte). Out of line,
    /// as the decoder's entry points inline every family's arm.
    #[inline(never)]
    fn latin1_run(&mut self, src: &[u8], table: &[u16; 128], latin1_from: u8) -> usize {
        let mut read = 0;
        loop {
            let (r, w) = self
                .kernels
                .latin1_to_utf8(&src[read..], latin1_from, &mut self.buf[self.pos..]);
            read += r;
            self.pos += w;
            // A byte below `latin1_from` (from 0x80), or one that did not fit.
            let Some(&b) = src.get(read).filter(|&&b| b < latin1_from) else {
                return read;
            };
            let c = table[usize::from(b & 0x7F)];
            if c == 0 || !self.try_push_scalar(u32::from(c)) {
                return read;
            }
            read += 1;
        }
    }
}

impl Dest for Utf8Dest<'_> {
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn vector_pairs(&self) -> bool {
        self.kernels.tuning().call_cjk_decode
    }
    #[inline(always)]
    fn room_for(&self, c: char) -> bool {
        c.len_utf8() <= self.left()
    }
    #[inline(always)]
    fn room_for_ascii(&self) -> bool {
        self.pos < self.buf.len()
    }
    #[inline(always)]
    fn room_for_two(&self, a: char, b: char) -> bool {
        a.len_utf8() + b.len_utf8() <= self.left()
    }
    #[inline(always)]
    fn push(&mut self, c: char) {
        let n = put_utf8(u32::from(c), &mut self.buf[self.pos..]);
        debug_assert!(n > 0, "push without room");
        self.pos += n;
    }
    #[inline(always)]
    fn push_ascii(&mut self, b: u8) {
        self.buf[self.pos].write(b);
        self.pos += 1;
    }
    #[inline(always)]
    fn push_bmp(&mut self, u: u16) {
        let n = put_utf8(u32::from(u), &mut self.buf[self.pos..]);
        debug_assert!(n > 0, "push_bmp without room");
        self.pos += n;
    }
    #[inline(always)]
    fn room_for_bmp(&self, u: u16) -> bool {
        let len = if u < 0x80 {
            1
        } else if u < 0x800 {
            2
        } else {
            3
        };
        len <= self.left()
    }
    #[inline(always)]
    fn try_push_scalar(&mut self, c: u32) -> bool {
        let n = put_utf8(c, self.buf.get_mut(self.pos..).unwrap_or_default());
        self.pos += n;
        n != 0
    }
    #[inline(always)]
    fn legacy_run(
        &mut self,
        src: &[u8],
        pairs: &PairTables,
        single: &impl Fn(u8) -> u32,
        pair: &impl Fn(u8, u8) -> u32,
    ) -> usize {
        if self.kernels.tuning().call_cjk_decode && src.len() >= PAIRS_MIN {
            let (read, written) =
                self.kernels
                    .cjk_to_utf8(src, pairs, self.buf.get_mut(self.pos..).unwrap_or_default());
            self.pos += written;
            // Where they stopped, the codec's loop (`Resume`).
            let rest = &src[read..];
            let bound = self.resume.after(read);
            return read + self.codec_run(&rest[..rest.len().min(bound)], single, pair);
        }
        self.codec_run(src, single, pair)
    }
    #[inline]
    fn copy_ascii(&mut self, src: &[u8]) -> usize {
        let n = self.kernels.copy_ascii(src, &mut self.buf[self.pos..]);
        self.pos += n;
        n
    }
    #[inline]
    fn single_byte(&mut self, src: &[u8], table: &[u16; 128]) -> usize {
        let (read, written) = self
            .kernels
            .single_byte_to_utf8(src, table, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
    #[inline]
    fn latin1_single_byte(&mut self, src: &[u8], table: &[u16; 128], latin1_from: u8) -> usize {
        self.latin1_run(src, table, latin1_from)
    }
    #[inline]
    fn utf16_bytes(&mut self, src: &[u8], be: bool) -> usize {
        let (read, written) = self
            .kernels
            .utf16_bytes_to_utf8(src, be, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
    #[inline]
    fn utf8_valid(&mut self, src: &[u8]) -> usize {
        let (read, written) = self.kernels.utf8_copy_valid(src, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
}

/// Decoder output into UTF-16.
pub(crate) struct Utf16Dest<'a> {
    buf: &'a mut [u16],
    pos: usize,
    kernels: &'static Kernels,
    resume: Resume,
}

impl<'a> Utf16Dest<'a> {
    pub(crate) fn new(buf: &'a mut [u16], kernels: &'static Kernels) -> Self {
        Utf16Dest {
            buf,
            pos: 0,
            kernels,
            resume: Resume(Resume::START),
        }
    }
}

impl Dest for Utf16Dest<'_> {
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn vector_pairs(&self) -> bool {
        self.kernels.tuning().call_cjk_decode
    }
    #[inline(always)]
    fn room_for(&self, c: char) -> bool {
        c.len_utf16() <= self.buf.len() - self.pos
    }
    #[inline(always)]
    fn room_for_ascii(&self) -> bool {
        self.pos < self.buf.len()
    }
    #[inline(always)]
    fn room_for_two(&self, a: char, b: char) -> bool {
        a.len_utf16() + b.len_utf16() <= self.buf.len() - self.pos
    }
    #[inline(always)]
    fn push(&mut self, c: char) {
        self.pos += c.encode_utf16(&mut self.buf[self.pos..]).len();
    }
    #[inline(always)]
    fn push_ascii(&mut self, b: u8) {
        self.buf[self.pos] = u16::from(b);
        self.pos += 1;
    }
    #[inline(always)]
    fn push_bmp(&mut self, u: u16) {
        self.buf[self.pos] = u;
        self.pos += 1;
    }
    #[inline(always)]
    fn room_for_bmp(&self, _u: u16) -> bool {
        self.pos < self.buf.len()
    }
    #[inline(always)]
    fn try_push_scalar(&mut self, c: u32) -> bool {
        if c < 0x10000 {
            let Some(slot) = self.buf.get_mut(self.pos) else {
                return false;
            };
            *slot = c as u16;
            self.pos += 1;
            return true;
        }
        let Some(slots) = self.buf.get_mut(self.pos..self.pos + 2) else {
            return false;
        };
        let c = c - 0x10000;
        slots[0] = 0xD800 | (c >> 10) as u16;
        slots[1] = 0xDC00 | (c & 0x3FF) as u16;
        self.pos += 2;
        true
    }
    #[inline(always)]
    fn legacy_run(
        &mut self,
        src: &[u8],
        pairs: &PairTables,
        single: &impl Fn(u8) -> u32,
        pair: &impl Fn(u8, u8) -> u32,
    ) -> usize {
        if self.kernels.tuning().call_cjk_decode && src.len() >= PAIRS_MIN {
            let (read, written) =
                self.kernels
                    .cjk_to_utf16(src, pairs, self.buf.get_mut(self.pos..).unwrap_or_default());
            self.pos += written;
            // Where they stopped, the codec's loop (`Resume`).
            let rest = &src[read..];
            let bound = self.resume.after(read);
            return read
                + runs::run_to_utf16(
                    &rest[..rest.len().min(bound)],
                    self.buf,
                    &mut self.pos,
                    single,
                    pair,
                );
        }
        runs::run_to_utf16(src, self.buf, &mut self.pos, single, pair)
    }
    #[inline]
    fn copy_ascii(&mut self, src: &[u8]) -> usize {
        let n = self.kernels.widen_ascii(src, &mut self.buf[self.pos..]);
        self.pos += n;
        n
    }
    #[inline]
    fn single_byte(&mut self, src: &[u8], table: &[u16; 128]) -> usize {
        let (read, written) = self
            .kernels
            .single_byte_to_utf16(src, table, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
    #[inline]
    fn latin1_single_byte(&mut self, src: &[u8], table: &[u16; 128], _latin1_from: u8) -> usize {
        // Widening needs no Latin1 path: the table kernel stores each vector's units whole.
        self.single_byte(src, table)
    }
    #[inline]
    fn utf16_bytes(&mut self, src: &[u8], be: bool) -> usize {
        let (read, written) = self
            .kernels
            .utf16_bytes_to_utf16(src, be, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
    #[inline]
    fn utf8_valid(&mut self, src: &[u8]) -> usize {
        let (read, written) = self.kernels.utf8_to_utf16(src, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
}
