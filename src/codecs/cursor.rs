//! Cursors over caller-owned buffers: [`Dest`] (decoder output, UTF-8 or UTF-16), [`Source`]
//! (encoder input, UTF-8 or UTF-16) and [`ByteDest`] (encoder output).
//!
//! Each family's state machine is written once, generic over `Dest`/`Source`, and
//! monomorphised for both Unicode forms. Room checks are exact: a cursor reports room for a
//! character exactly when its encoding fits in what is left, so output buffers of any size
//! make progress as long as they can hold the next character (4 bytes or 2 code units cover
//! every step, including Big5's two-code-point outputs).
//!
//! Safe code only: all writes are checked slice accesses; the `push_*` methods have "the
//! caller checked room" as a contract, enforced by the slice bounds if it is broken.

use crate::codecs::runs;
use crate::simd::scalar_put_utf8 as put_utf8;
use crate::simd::{EncodeTables, Kernels, Lookup, PairTables};
use crate::simd::{OutBytes, write_bytes};

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
    /// Decodes UTF-16 units from `src` while not surrogates and fitting (a kernel); returns
    /// bytes consumed (even).
    fn utf16_bytes(&mut self, src: &[u8], be: bool) -> usize;
    /// Copies/converts the valid whole-character UTF-8 prefix of `src` as far as it fits (a
    /// kernel); returns bytes consumed.
    fn utf8_valid(&mut self, src: &[u8]) -> usize;
}

/// How many input bytes a legacy decode run takes with the codec's own loop where the pair
/// kernels stopped (at a character they leave to the codec: a single byte, a code point
/// below U+0800), before handing the rest back to them. Unbounded, the loop went on to its
/// next stop of its own (an ASCII run), often thousands of bytes on. The bound starts at
/// [`Resume::START`] and doubles, up to [`Resume::MAX`], while the kernels stop again
/// within [`Resume::FAR`] bytes (text dense with such characters, where calling them costs
/// more than it gains); it is back at the start once they run further.
///
/// Measured with an ad-hoc timing loop (`decode_to_utf8`/`decode_to_utf16` of
/// `data/corpus/wikipedia/ja.txt` with 'α' or 'ｱ' inserted after every n-th character,
/// Shift_JIS and EUC-JP, AVX2 against scalar in the same run, 2026-11-23): n = 3 to 40,
/// 0.5 to 0.8 times the scalar level with a fixed bound of 32 bytes, 0.85 to 1.1 times with
/// this one; n = 200, 1.6 -> 2.1 times; the text as it is, unchanged (2.2 times).
#[derive(Clone, Copy)]
struct Resume(usize);

impl Resume {
    const START: usize = 32;
    const MAX: usize = 2048;
    const FAR: usize = 128;

    /// The bound for the codec's loop after the kernels read `read` bytes.
    #[inline(always)]
    fn after(&mut self, read: usize) -> usize {
        self.0 = if read >= Self::FAR {
            Self::START
        } else {
            (self.0 * 2).min(Self::MAX)
        };
        self.0
    }
}

/// The shortest input the vector pair kernels are handed (they finish a short end with a
/// masked block). From 8 bytes, 16-byte Shift_JIS inputs measured 0.46 times encoding_rs
/// against 0.8 from 32 (a gather's latency is more than the whole scalar decode of 16
/// bytes; `simdenc bench --filter small16 --level avx512`, 2026-11-23).
const PAIRS_MIN: usize = 32;

/// The fewest input code units left (from UTF-16), or bytes left (from UTF-8; three times as
/// many for the CJK encoders, so that they stage about as many units), for which an encode
/// run calls the vector kernels; shorter ends go character by character through the codec's own mapping, which is
/// specialised for its encoding where the kernels' scalar fallback is not (16-byte inputs:
/// UTF-8 to windows-1251 1.06 -> 2.0 times encoding_rs, to Shift_JIS 12.7 -> 28 times;
/// UTF-16 to windows-1251 0.36 -> 0.8 times; ad-hoc timing loop, 2026-11-23. Tripled for
/// CJK: 64-byte inputs to Shift_JIS 1.5 times faster, `simdenc bench --filter small --level
/// avx512`, alternating builds; tripled for the single-byte encoders too, those to
/// windows-1251 were 1.3 times slower).
const VECTOR_ENCODE_MIN: usize = 32;

/// The most UTF-16 code units an encode run from UTF-8 converts at a time, where the
/// transcoding kernels are vector kernels (the UTF-8 to UTF-16 kernel leaves less of each
/// piece to its scalar tail; EUC-KR encode 1.0 -> 1.4 GB/s against 64, `simdenc bench
/// --filter cjk-encode --level avx512`, 2026-11-23). 1024 against 256, since a run zeroes its
/// stage once (same bench, 4 alternating rounds, best, 2026-11-24): EUC-KR 2110 -> 2322 MB/s,
/// Big5 2463 -> 2647, gb18030 2278 -> 2568, Shift_JIS 2187 -> 2297; `--filter sb-encode`:
/// windows-1256 1849 -> 2327, windows-1253 2468 -> 2737, the others within 1.5%.
const ENCODE_STAGE: usize = 1024;

/// The most UTF-16 code units [`Source::with_utf16`] hands over at a time (its stage is
/// zeroed at each call, and ISO-2022-JP, its user, takes 256 at most).
const WITH_UTF16_STAGE: usize = 256;

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
        // pair kernels leave) measured no faster (CJK decode at AVX-512 within 2% either way,
        // `simdenc bench --filter cjk-decode --level avx512 --batches 5`, 2026-11-23).
        runs::run_to_utf8(src, self.buf, &mut self.pos, single, pair)
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
    /// Hands `f` the kernels and the next code units of the input as UTF-16, at most `max` and
    /// [`WITH_UTF16_STAGE`] (from UTF-8: whole characters converted by the transcoding kernel into
    /// a stage), and consumes the units `f` returns it used (rounded down to whole
    /// characters). For an encoder that works on UTF-16 units with its own loop around the
    /// `units_to_bytes` kernel (ISO-2022-JP, whose escape sequences go between the kernel's
    /// runs).
    fn with_utf16(&mut self, max: usize, f: impl FnOnce(&'static Kernels, &[u16]) -> usize);
    /// The kernels this source was made with (the encoder's level).
    fn kernels(&self) -> &'static Kernels;
    /// Where [`Source::encode_run`] may stage for the vector kernels again, in code units
    /// from the source's start ([`KERNEL_BACKOFF`]; 0 for a source that does not back off).
    fn kernels_from(&self) -> usize {
        0
    }
    /// Sets [`Source::kernels_from`] (for a source made after an unmappable character, from
    /// the one before it).
    fn set_kernels_from(&mut self, _at: usize) {}
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

/// The most code units [`Source::encode_non_ascii_run`] looks ahead for its end.
const NON_ASCII_RUN_MAX: usize = 4096;

/// How far [`Source::encode_non_ascii_run`] looks ahead: the input that could fill `left`
/// bytes of output (each character it encodes is at most two bytes from at least one unit,
/// or three from two), plus a character's worth so that any room makes progress.
#[inline(always)]
fn non_ascii_bound(left: usize) -> usize {
    left.saturating_mul(2).saturating_add(4).min(NON_ASCII_RUN_MAX)
}

/// The length of the prefix of `units` with no unit below 0x80, sixteen at a time (a loop the
/// compiler vectorises) and then one by one in the block that has one.
#[inline(always)]
pub(crate) fn non_ascii_prefix<T: Copy + Into<u32>>(units: &[T]) -> usize {
    let mut n = 0;
    while let Some(block) = units.get(n..n + 16) {
        if !block.iter().fold(true, |all, &u| all & (u.into() >= 0x80)) {
            break;
        }
        n += 16;
    }
    n + units[n..]
        .iter()
        .position(|&u| u.into() < 0x80)
        .unwrap_or(units.len() - n)
}

/// Copies the prefix of `src` whose units are ASCII `c` with bit `c` of `allowed` set into
/// `dst`, as far as it fits; returns its length. Sixteen units at a time while they are all
/// printable (and allowed), one by one in a block that is not.
#[inline(always)]
fn copy_allowed<T: Copy + Into<u32>>(src: &[T], dst: &mut OutBytes, allowed: u128) -> usize {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    // Bits 0x20 to 0x7E.
    const PRINTABLE: u128 = (u128::MAX >> 1) >> 0x20 << 0x20;
    // All of 0x20..=0x7E allowed: a block of those is copied without the bit test.
    let printable = allowed & PRINTABLE == PRINTABLE;
    let ok = |u: T| {
        let u: u32 = u.into();
        u < 0x80 && allowed >> u & 1 != 0
    };
    let mut n = 0;
    loop {
        if printable
            && let (Some(block), Some(out)) = (src.get(n..n + 16), dst.get_mut(n..n + 16))
            && block
                .iter()
                .fold(true, |all, &u| all & (u.into().wrapping_sub(0x20) < 0x5F))
        {
            for (slot, &u) in out.iter_mut().zip(block) {
                slot.write(u.into() as u8);
            }
            n += 16;
            continue;
        }
        let end = len.min(n + 16);
        while n < end && ok(src[n]) {
            dst[n].write(src[n].into() as u8);
            n += 1;
        }
        if n < end || n == len {
            return n;
        }
    }
}

/// The scalar value and length of the non-ASCII character whose first byte `b0` is at `p` in
/// `bytes`, the bytes of a `str` with a character boundary at `p`.
#[inline(always)]
fn non_ascii_char_at(bytes: &[u8], p: usize, b0: u8) -> (u32, usize) {
    let cont = |i: usize| u32::from(bytes.get(p + i).copied().unwrap_or(0) & 0x3F);
    if b0 < 0xE0 {
        (u32::from(b0 & 0x1F) << 6 | cont(1), 2)
    } else if b0 < 0xF0 {
        (u32::from(b0 & 0x0F) << 12 | cont(1) << 6 | cont(2), 3)
    } else {
        (
            u32::from(b0 & 0x07) << 18 | cont(1) << 12 | cont(2) << 6 | cont(3),
            4,
        )
    }
}

/// The UTF-8 length of a code unit that is not a surrogate.
#[inline(always)]
fn bmp_utf8_len(u: u16) -> usize {
    1 + usize::from(u >= 0x80) + usize::from(u >= 0x800)
}

/// Writes what `map` returned for a character (one byte, or two as `lead << 8 | trail`) if
/// it is mapped (not 0) and fits; returns the bytes written, 0 if unmapped or it does not fit.
#[inline(always)]
fn put_mapped(buf: &mut OutBytes, w: usize, m: u16) -> usize {
    if m == 0 {
        0
    } else if m < 0x100 {
        match buf.get_mut(w) {
            Some(slot) => {
                slot.write(m as u8);
                1
            }
            None => 0,
        }
    } else {
        match buf.get_mut(w..w + 2) {
            Some(slots) => {
                write_bytes(slots, &m.to_be_bytes());
                2
            }
            None => 0,
        }
    }
}

/// How far past a position where the vector encode kernels made no progress (the first
/// character unmappable) an encode run from UTF-8 goes character by character before trying
/// them again.
/// Text that is mostly unmappable (Japanese into windows-1251, written as `&#N;`) otherwise
/// staged and looked up a whole block for every character: 37 against 169 MB/s at the scalar
/// level and 120 for encoding_rs (`simdenc bench --filter api/encode/windows-1251/ja`).
const KERNEL_BACKOFF: usize = 3 * VECTOR_ENCODE_MIN;

/// Encoder input from UTF-8.
pub(crate) struct Utf8Source<'a> {
    src: &'a str,
    pos: usize,
    kernels: &'static Kernels,
    /// No staging for the vector kernels before this byte ([`KERNEL_BACKOFF`]).
    stage_from: usize,
}

impl<'a> Utf8Source<'a> {
    pub(crate) fn new(src: &'a str, kernels: &'static Kernels) -> Self {
        Utf8Source {
            src,
            pos: 0,
            kernels,
            stage_from: 0,
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
        let bytes = self.src.as_bytes();
        let buf = &mut *dst.buf;
        let (mut p, mut w) = (self.pos, dst.pos);
        let stage_utf16 = self.kernels.tuning().stage_encode_in_utf16;
        // Units per staging: from 32, doubled while whole stages are encoded, back to 32 when
        // one stops early (so a character the run declines wastes at most a short stage).
        let mut stage_len = 32;
        // Zeroed once, at the first stage (every stage zeroed its own: 2.6% of an HTML page's
        // encode, one stage per few words).
        let mut stage_buf: Option<[u16; ENCODE_STAGE]> = None;
        while let Some(&b0) = bytes.get(p) {
            // Stage where the vector kernel maps the staged units (ASCII too): always for the
            // CJK encoders; for the single-byte ones only where two non-ASCII characters
            // follow each other (Cyrillic, Greek, Hebrew, Arabic, Thai), as text with isolated
            // non-ASCII letters (German, French) measured faster character by character with
            // the ASCII kernel between (`simdenc bench --filter sb-encode`, AVX-512,
            // 2026-11-23: German 7.6 GB/s unstaged against 1.4 to 2.1 staged).
            let stage_here = stage_utf16
                && b0 >= 0x80
                && p >= self.stage_from
                && tables.is_some_and(|t| {
                    if !matches!(t.blocks, Lookup::U8(_)) {
                        // CJK: three bytes a unit.
                        return bytes.len() - p >= 3 * VECTOR_ENCODE_MIN;
                    }
                    bytes.len() - p >= VECTOR_ENCODE_MIN && {
                        // `p` is a character boundary of the `str`.
                        let next = p + self.src[p..].chars().next().map_or(1, char::len_utf8);
                        bytes.get(next).is_some_and(|&b| b >= 0x80)
                    }
                });
            if stage_here {
                // Where `utf8_to_utf16` is a vector kernel: convert up to `stage_len` units in
                // bulk, then map unit by unit, counting the UTF-8 bytes each one came from.
                let stage = stage_buf.get_or_insert([0u16; ENCODE_STAGE]);
                let end = bytes.len().min(p + 3 * stage_len);
                let (staged_bytes, units) = self
                    .kernels
                    .utf8_to_utf16(&bytes[p..end], &mut stage[..stage_len]);
                let before = p;
                let mut rest = &stage[..units];
                if let Some(tables) = tables
                    && self.kernels.tuning().call_legacy_encode
                {
                    // The plain units in bulk (BMP, not surrogates: 1 to 3 UTF-8 bytes each).
                    let (k, n) =
                        self.kernels
                            .utf16_to_legacy(rest, tables, buf.get_mut(w..).unwrap_or_default());
                    w += n;
                    p += if k == rest.len() {
                        // All of them: exactly the bytes the transcoder read.
                        staged_bytes
                    } else {
                        rest[..k].iter().map(|&u| bmp_utf8_len(u)).sum::<usize>()
                    };
                    rest = &rest[k..];
                }
                let mut whole = true;
                for &u in rest {
                    // Surrogates (astral characters) are the state machine's.
                    if u & 0xF800 == 0xD800 {
                        whole = false;
                        break;
                    }
                    let m = if u < 0x80 { u } else { map(u32::from(u)) };
                    let len = bmp_utf8_len(u);
                    let n = put_mapped(buf, w, m);
                    if n == 0 {
                        whole = false;
                        break;
                    }
                    w += n;
                    p += len;
                }
                if p != before {
                    stage_len = if whole {
                        (2 * stage_len).min(ENCODE_STAGE)
                    } else {
                        32
                    };
                    continue;
                }
                stage_len = 32;
                self.stage_from = p + KERNEL_BACKOFF;
            }
            if b0 < 0x80 {
                let Some(slot) = buf.get_mut(w) else {
                    break;
                };
                slot.write(b0);
                p += 1;
                w += 1;
                if bytes.get(p).is_some_and(|&b| b < 0x80) {
                    let n = self
                        .kernels
                        .copy_ascii(&bytes[p..], buf.get_mut(w..).unwrap_or_default());
                    p += n;
                    w += n;
                }
                continue;
            }
            // `p` is a character boundary of a `str`: the whole character is there.
            let (c, len) = non_ascii_char_at(bytes, p, b0);
            let n = put_mapped(buf, w, map(c));
            if n == 0 {
                break;
            }
            w += n;
            p += len;
        }
        self.pos = p;
        dst.pos = w;
    }

    #[inline(always)]
    fn encode_non_ascii_run(&mut self, dst: &mut ByteDest<'_>, map: impl Fn(u32) -> u16) {
        let bytes = self.src.as_bytes();
        let rest = &bytes[self.pos..];
        let mut n = non_ascii_prefix(&rest[..rest.len().min(non_ascii_bound(dst.left()))]);
        // An ASCII byte, or the end of the input, is a character boundary; the bound may not be.
        while !self.src.is_char_boundary(self.pos + n) {
            n -= 1;
        }
        let end = self.pos + n;
        let buf = &mut *dst.buf;
        let (mut p, mut w) = (self.pos, dst.pos);
        // `p` is a character boundary of a `str` before `end`, which is one too: the whole
        // character is there.
        while let Some(&b0) = bytes[..end].get(p) {
            let (c, len) = non_ascii_char_at(bytes, p, b0);
            let n = put_mapped(buf, w, map(c));
            if n == 0 {
                break;
            }
            w += n;
            p += len;
        }
        self.pos = p;
        dst.pos = w;
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
    fn with_utf16(&mut self, max: usize, f: impl FnOnce(&'static Kernels, &[u16]) -> usize) {
        let rest = &self.src.as_bytes()[self.pos..];
        let max = max.min(WITH_UTF16_STAGE);
        let mut stage = [0u16; WITH_UTF16_STAGE];
        let (read, units) = self
            .kernels
            .utf8_to_utf16(&rest[..rest.len().min(3 * max)], &mut stage[..max]);
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
    fn kernels_from(&self) -> usize {
        self.stage_from
    }
    #[inline(always)]
    fn set_kernels_from(&mut self, at: usize) {
        self.stage_from = at;
    }
}

/// Below this many UTF-16 code units left, an encode run into a single-byte encoding takes
/// them in one scalar loop ([`single_byte_units`]); so does `Encoder::encode_from_utf16` for
/// a whole input this short.
pub(crate) const SINGLE_BYTE_UNITS_MIN: usize = 64;

/// Encodes the prefix of `units` (UTF-16) whose units are ASCII or mapped by `map` to one
/// byte, as far as `dst` holds it; returns its length (units read = bytes written). Stops at
/// a surrogate and at an unmapped unit (`map` returns 0), which are the state machine's.
#[inline(always)]
pub(crate) fn single_byte_units(units: &[u16], dst: &mut OutBytes, map: impl Fn(u32) -> u16) -> usize {
    let mut k = 0;
    for (&u, slot) in units.iter().zip(dst) {
        slot.write(if u < 0x80 {
            u as u8
        } else if u & 0xF800 == 0xD800 {
            break;
        } else {
            match map(u32::from(u)) {
                0 => break,
                m => m as u8,
            }
        });
        k += 1;
    }
    k
}

/// ASCII code units after the first that an encode run from UTF-16 writes itself before
/// calling the `narrow_ascii` kernel for the rest of the run.
const ASCII_INLINE_UNITS: usize = 8;

/// Encoder input from UTF-16.
pub(crate) struct Utf16Source<'a> {
    src: &'a [u16],
    pos: usize,
    kernels: &'static Kernels,
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
        let units = self.src;
        let buf = &mut *dst.buf;
        let (mut p, mut w) = (self.pos, dst.pos);
        let single_byte = tables.is_some_and(|t| matches!(t.blocks, Lookup::U8(_)));
        while let Some(&u) = units.get(p) {
            if single_byte && u >= 0x80 && units.len() - p < SINGLE_BYTE_UNITS_MIN {
                // A short end into a single-byte encoding: one byte a unit, ASCII or mapped,
                // in one loop: a vector kernel's latency is more than this loop's time on
                // fewer units (`simdenc bench --filter utf16-to-windows --level avx512`, 5
                // alternating rounds, best: 64-byte inputs 1103 -> 1549 MB/s, 2026-11-24).
                let k = single_byte_units(&units[p..], &mut buf[w..], &map);
                p += k;
                w += k;
                break;
            }
            if u >= 0x80
                && units.len() - p >= VECTOR_ENCODE_MIN
                && let Some(tables) = tables
                && self.kernels.tuning().call_legacy_encode
            {
                let (k, n) =
                    self.kernels
                        .utf16_to_legacy(&units[p..], tables, buf.get_mut(w..).unwrap_or_default());
                p += k;
                w += n;
                if k > 0 {
                    continue;
                }
            }
            if u < 0x80 {
                let Some(slot) = buf.get_mut(w) else {
                    break;
                };
                slot.write(u as u8);
                p += 1;
                w += 1;
                // A few more ASCII units inline (punctuation and a space between words), a
                // longer run through the kernel: 9-unit inputs of Russian ending in ", "
                // into windows-1251, 21.2 -> 19.2 ns (ad-hoc loop, AVX-512, 2026-11-24).
                let mut inline = 0;
                while inline < ASCII_INLINE_UNITS
                    && let Some(&u) = units.get(p)
                    && u < 0x80
                    && let Some(slot) = buf.get_mut(w)
                {
                    slot.write(u as u8);
                    p += 1;
                    w += 1;
                    inline += 1;
                }
                if inline == ASCII_INLINE_UNITS && units.get(p).is_some_and(|&u| u < 0x80) {
                    let n = self
                        .kernels
                        .narrow_ascii(&units[p..], buf.get_mut(w..).unwrap_or_default());
                    p += n;
                    w += n;
                }
                continue;
            }
            // Surrogates (pairs and unpaired ones) are the state machine's.
            if u & 0xF800 == 0xD800 {
                break;
            }
            let n = put_mapped(buf, w, map(u32::from(u)));
            if n == 0 {
                break;
            }
            w += n;
            p += 1;
        }
        self.pos = p;
        dst.pos = w;
    }

    #[inline(always)]
    fn encode_non_ascii_run(&mut self, dst: &mut ByteDest<'_>, map: impl Fn(u32) -> u16) {
        let units = self.src;
        let rest = &units[self.pos..];
        let end = self.pos + non_ascii_prefix(&rest[..rest.len().min(non_ascii_bound(dst.left()))]);
        let buf = &mut *dst.buf;
        let (mut p, mut w) = (self.pos, dst.pos);
        while let Some(&u) = units[..end].get(p) {
            // Surrogates (pairs and unpaired ones) are the state machine's.
            let m = if u & 0xF800 == 0xD800 {
                0
            } else {
                map(u32::from(u))
            };
            let n = put_mapped(buf, w, m);
            if n == 0 {
                break;
            }
            w += n;
            p += 1;
        }
        self.pos = p;
        dst.pos = w;
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
    fn with_utf16(&mut self, max: usize, f: impl FnOnce(&'static Kernels, &[u16]) -> usize) {
        let rest = &self.src[self.pos..];
        let units = &rest[..rest.len().min(max).min(WITH_UTF16_STAGE)];
        self.pos += whole_units(units, f(self.kernels, units));
    }
    #[inline(always)]
    fn kernels(&self) -> &'static Kernels {
        self.kernels
    }
}

/// Encoder output.
pub(crate) struct ByteDest<'a> {
    buf: &'a mut OutBytes,
    pos: usize,
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
    /// Writes one byte; the caller checked [`ByteDest::left`].
    #[inline(always)]
    pub(crate) fn push_byte(&mut self, b: u8) {
        self.buf[self.pos].write(b);
        self.pos += 1;
    }
}

/// Lets `f` write UTF-8 into the bytes of `dst`; `f` returns how many bytes it wrote.
///
/// The decoders write only whole characters through [`Utf8Dest`] and never past the count
/// they return; to keep `dst` a valid `str` even if that were ever broken past the count,
/// continuation bytes right after it are set to zero (a character boundary), as encoding_rs
/// does.
#[allow(unsafe_code)]
pub(crate) fn with_str_bytes(dst: &mut str, f: impl FnOnce(&mut [u8]) -> usize) {
    // SAFETY: `as_bytes_mut` requires the bytes to be valid UTF-8 again when the borrow ends.
    // `f` is a decoder writing through `Utf8Dest`, whose writes are `char::encode_utf8`,
    // ASCII bytes, and kernels that copy or produce whole validated characters, all within
    // `bytes[..written]`; the bytes after `written` were valid UTF-8 before and are only
    // touched below to restore a character boundary.
    let bytes = unsafe { dst.as_bytes_mut() };
    let written = f(bytes).min(bytes.len());
    let mut trail = written;
    while trail < bytes.len() && (bytes[trail] & 0xC0) == 0x80 {
        bytes[trail] = 0;
        trail += 1;
    }
    debug_assert!(core::str::from_utf8(bytes).is_ok(), "decoder broke a &mut str");
}
