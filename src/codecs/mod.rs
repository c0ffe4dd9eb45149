//! The fast engine: one streaming state machine per encoding family, over slices.
//!
//! Depends on `simd` (kernels) and `tables` (generated data); never on `spec` outside tests.
//!
//! # The family contract
//! Each family module has a decoder type and, where the standard has one, an encoder type.
//! A decoder that holds state between bytes implements [`driver::StateMachine`] (its fast
//! run, one step of the standard, its end-of-queue step) and is run by [`driver::decode`];
//! the stateless ones (single-byte, x-user-defined, replacement) have a `decode` of their own
//! with the same signature:
//!
//! ```text
//! driver::decode<M: StateMachine, D: Dest>(&mut M, src: &[u8], dst: &mut D, last: bool,
//!     replace: bool) -> (Status, usize /* bytes read from src */)
//! XDecoder::held(&self) -> usize          // bytes held in state (for the max_* bounds)
//! XEncoder::encode<S: Source>(&mut self, src: &mut S, dst: &mut ByteDest<'_>, last: bool)
//!     -> EncoderResult
//! XEncoder::has_pending_state(&self) -> bool
//! ```
//!
//! - The state machine is the standard's, with its "restore" realised without a queue: a
//!   byte of the current buffer that the standard restores is simply not consumed; bytes held
//!   in decoder state that the standard restores go to a [`Pending`] queue that the decoder
//!   drains before reading `src` again.
//! - A decoder checks room before every state transition, exactly (`Dest::room_for*`), so
//!   `OutputFull` leaves the state as it was and the next call resumes losslessly.
//! - On malformed input with `replace == false`, the decoder makes the standard's error
//!   transition and returns `Malformed(bad, consumed_after)`; `consumed_after` counts the bytes
//!   it has consumed after the error position (bytes put in [`Pending`], and bytes it read
//!   past the error point): `total read − consumed_after` is where the standard's fatal mode
//!   stops. With `replace == true` it first checks room for U+FFFD (returning `OutputFull`
//!   with nothing changed if there is none), makes the transition, writes U+FFFD and returns
//!   `Malformed` all the same, so the caller learns that an error was replaced.
//! - At `last` with `src` exhausted, the decoder drains [`Pending`] and then acts on
//!   end-of-queue as the standard says (an incomplete sequence is one error).
//! - An encoder consumes an unmappable character before returning `Unmappable(c)`; it never
//!   writes a replacement (the public `Encoder` writes `&#N;` in html mode). At `last` with the
//!   input exhausted it writes what the standard's end-of-queue step writes (ISO-2022-JP's
//!   `ESC ( B`), if there is room, else `OutputFull`.

pub(crate) mod dest;
pub(crate) mod driver;
mod encode_runs;
pub(crate) mod source;
#[allow(unsafe_code)]
pub(crate) mod str_bytes;
#[cfg(test)]
pub(crate) mod testing;
pub(crate) mod tuning;

mod big5;
mod euc_jp;
mod euc_kr;
mod gb18030;
mod iso_2022_jp;
mod replacement;
mod runs;
mod shift_jis;
mod single_byte;
mod utf_16;
mod utf_8;
mod x_user_defined;

/// x-user-defined's upper-half table in the single-byte kernels' form (it shares them).
#[cfg(any(test, feature = "internals"))]
pub(crate) use x_user_defined::TABLE as X_USER_DEFINED_TABLE;

use crate::encoding::{Encoding, Kind};
use crate::results::{EncoderResult, Status};
use dest::Dest;
use source::{ByteDest, Source};

/// Bytes that the standard restores to the input queue but that no longer are in `src`
/// (they were held in decoder state). Drained, in order, before `src` is read again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    bytes: [u8; 4],
    len: u8,
}

impl Pending {
    /// No bytes pending.
    pub(crate) const EMPTY: Pending = Pending {
        bytes: [0; 4],
        len: 0,
    };

    /// No bytes pending.
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// How many bytes are pending.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }
    /// The next pending byte.
    #[inline(always)]
    pub(crate) fn front(&self) -> Option<u8> {
        (self.len > 0).then_some(self.bytes[0])
    }
    /// Removes the next pending byte.
    #[inline(always)]
    pub(crate) fn pop_front(&mut self) {
        if self.len > 0 {
            self.bytes.copy_within(1..usize::from(self.len), 0);
            self.len -= 1;
        }
    }
    /// "Restore" `items` before the pending bytes (at most 4 in all).
    #[inline]
    pub(crate) fn restore(&mut self, items: &[u8]) {
        let old = usize::from(self.len);
        let new = old + items.len();
        assert!(new <= self.bytes.len(), "Pending holds at most 4 bytes");
        self.bytes.copy_within(0..old, items.len());
        self.bytes[..items.len()].copy_from_slice(items);
        self.len = new as u8;
    }
}

/// A decoder of any family.
///
/// `repr(u8)`: a tag byte of its own, which the entry points' dispatch reads and jumps on
/// (with a variant more, the compiler stored the tag in a niche of a variant's field, which
/// took four more instructions a call to decode).
#[derive(Clone, Copy)]
#[repr(u8)]
pub(crate) enum VariantDecoder {
    Utf8(utf_8::Utf8Decoder),
    Utf16(utf_16::Utf16Decoder),
    SingleByte(single_byte::SingleByteDecoder),
    /// A single-byte decoder whose bytes from `latin1_from` are their own code points
    /// (windows-1252, ISO-8859-15): a variant of its own rather than a test in the
    /// `SingleByte` arm, which cost 16-byte pieces of windows-1251 at NEON 4% more
    /// instructions (this way: 2.8%, what the entry points' larger body costs).
    SingleByteLatin1(single_byte::Latin1SingleByteDecoder),
    XUserDefined(x_user_defined::XUserDefinedDecoder),
    Gb18030(gb18030::Gb18030Decoder),
    Big5(big5::Big5Decoder),
    EucJp(euc_jp::EucJpDecoder),
    Iso2022Jp(iso_2022_jp::Iso2022JpDecoder),
    ShiftJis(shift_jis::ShiftJisDecoder),
    EucKr(euc_kr::EucKrDecoder),
    Replacement(replacement::ReplacementDecoder),
}

impl VariantDecoder {
    /// A decoder for `encoding` in its initial state.
    ///
    /// Copied whole from a table built at compile time: built here field by field (a
    /// `match` whose arms store different widths at different offsets), the value was then
    /// moved with 8-byte loads that straddled those stores, a store-forwarding stall on
    /// every `Decoder` created (`perf annotate` of 16-byte decodes).
    #[inline(always)]
    pub(crate) fn new(encoding: &'static Encoding) -> VariantDecoder {
        INITIAL[usize::from(encoding.index())].0
    }

    /// A decoder of `kind` in its initial state.
    const fn initial(kind: Kind) -> VariantDecoder {
        match kind {
            Kind::Utf8 => VariantDecoder::Utf8(utf_8::Utf8Decoder::new()),
            Kind::Utf16Be => VariantDecoder::Utf16(utf_16::Utf16Decoder::new(true)),
            Kind::Utf16Le => VariantDecoder::Utf16(utf_16::Utf16Decoder::new(false)),
            Kind::SingleByte(tables) if tables.latin1_from != 0 => {
                VariantDecoder::SingleByteLatin1(single_byte::Latin1SingleByteDecoder::new(tables))
            }
            Kind::SingleByte(tables) => {
                VariantDecoder::SingleByte(single_byte::SingleByteDecoder::new(tables.decode))
            }
            Kind::XUserDefined => VariantDecoder::XUserDefined(x_user_defined::XUserDefinedDecoder::new()),
            Kind::Gbk | Kind::Gb18030 => VariantDecoder::Gb18030(gb18030::Gb18030Decoder::new()),
            Kind::Big5 => VariantDecoder::Big5(big5::Big5Decoder::new()),
            Kind::EucJp => VariantDecoder::EucJp(euc_jp::EucJpDecoder::new()),
            Kind::Iso2022Jp => VariantDecoder::Iso2022Jp(iso_2022_jp::Iso2022JpDecoder::new()),
            Kind::ShiftJis => VariantDecoder::ShiftJis(shift_jis::ShiftJisDecoder::new()),
            Kind::EucKr => VariantDecoder::EucKr(euc_kr::EucKrDecoder::new()),
            Kind::Replacement => VariantDecoder::Replacement(replacement::ReplacementDecoder::new()),
        }
    }

    /// Runs the family's state machine; see the module docs. Inlined into each of the
    /// decoder's entry points: the dispatch's jump was as costly as a 16-byte UTF-8 kernel
    /// call (the encoders' `encode`, inlined as well, was slower).
    #[inline(always)]
    pub(crate) fn decode<D: Dest>(
        &mut self,
        src: &[u8],
        dst: &mut D,
        last: bool,
        replace: bool,
    ) -> (Status, usize) {
        match self {
            VariantDecoder::Utf8(d) => driver::decode(d, src, dst, last, replace),
            VariantDecoder::Utf16(d) => driver::decode(d, src, dst, last, replace),
            VariantDecoder::SingleByte(d) => d.decode(src, dst, last, replace),
            VariantDecoder::SingleByteLatin1(d) => d.decode(src, dst, last, replace),
            VariantDecoder::XUserDefined(d) => d.decode(src, dst, last, replace),
            VariantDecoder::Gb18030(d) => driver::decode(d, src, dst, last, replace),
            VariantDecoder::Big5(d) => driver::decode(d, src, dst, last, replace),
            VariantDecoder::EucJp(d) => driver::decode(d, src, dst, last, replace),
            VariantDecoder::Iso2022Jp(d) => driver::decode(d, src, dst, last, replace),
            VariantDecoder::ShiftJis(d) => driver::decode(d, src, dst, last, replace),
            VariantDecoder::EucKr(d) => driver::decode(d, src, dst, last, replace),
            VariantDecoder::Replacement(d) => d.decode(src, dst, last, replace),
        }
    }

    /// Bytes held in state (including pending restored bytes).
    fn held(&self) -> usize {
        match self {
            VariantDecoder::Utf8(d) => d.held(),
            VariantDecoder::Utf16(d) => d.held(),
            VariantDecoder::SingleByte(_)
            | VariantDecoder::SingleByteLatin1(_)
            | VariantDecoder::XUserDefined(_) => 0,
            VariantDecoder::Gb18030(d) => d.held(),
            VariantDecoder::Big5(d) => d.held(),
            VariantDecoder::EucJp(d) => d.held(),
            VariantDecoder::Iso2022Jp(d) => d.held(),
            VariantDecoder::ShiftJis(d) => d.held(),
            VariantDecoder::EucKr(d) => d.held(),
            VariantDecoder::Replacement(_) => 0,
        }
    }

    /// The most UTF-16 code units decoding `byte_length` more bytes (and `last`) can write.
    ///
    /// Every step of every decoder writes at most one code unit per byte it consumes or holds
    /// (Big5's pairs and astral characters: two units for two bytes; an error: one unit for
    /// at least one byte, an error at end-of-queue one for the bytes held); UTF-16, one per
    /// two bytes and one for an odd byte at the end.
    pub(crate) fn max_utf16_buffer_length(&self, byte_length: usize) -> Option<usize> {
        let bytes = byte_length.checked_add(self.held())?;
        match self {
            VariantDecoder::Replacement(_) => Some(1),
            VariantDecoder::Utf16(_) => Some(bytes.div_ceil(2)),
            _ => Some(bytes),
        }
    }

    /// The most UTF-8 bytes decoding `byte_length` more bytes can write, with replacement.
    ///
    /// At most three bytes per byte consumed or held (U+FFFD for one byte, or for the bytes
    /// held at end-of-queue; three-byte characters from single bytes; no two-byte input gives
    /// more than four); UTF-16, three per two bytes (a surrogate pair: four per four) and
    /// three for an odd byte at the end.
    pub(crate) fn max_utf8_buffer_length(&self, byte_length: usize) -> Option<usize> {
        let bytes = byte_length.checked_add(self.held())?;
        match self {
            VariantDecoder::Replacement(_) => Some(3),
            VariantDecoder::Utf16(_) => bytes.div_ceil(2).checked_mul(3),
            _ => bytes.checked_mul(3),
        }
    }

    /// The most UTF-8 bytes decoding `byte_length` more bytes can write, without replacement:
    /// as [`VariantDecoder::max_utf8_buffer_length`], less what only errors write. EUC-KR and
    /// EUC-JP write at most three bytes per two (a pair, or EUC-JP's `8E` and half-width
    /// katakana) and one per ASCII byte; Big5 four per two; UTF-16 three per whole unit (and
    /// one byte of room for an odd byte); Shift_JIS, gb18030 (0x80 is U+20AC), ISO-2022-JP
    /// (katakana state) and the single-byte encodings can write three for one byte.
    pub(crate) fn max_utf8_buffer_length_without_replacement(&self, byte_length: usize) -> Option<usize> {
        let bytes = byte_length.checked_add(self.held())?;
        match self {
            VariantDecoder::Utf8(d) => d.max_utf8_buffer_length_without_replacement(byte_length),
            // One byte more for an odd byte at the end, which writes nothing but is read only
            // with room left (a full output takes no byte that starts a character).
            VariantDecoder::Utf16(_) => (bytes / 2).checked_mul(3)?.checked_add(bytes % 2),
            VariantDecoder::EucKr(_) | VariantDecoder::EucJp(_) => bytes.checked_add(bytes.div_ceil(2)),
            VariantDecoder::Big5(_) => bytes.checked_mul(2),
            _ => self.max_utf8_buffer_length(byte_length),
        }
    }

    /// For single-byte encodings: how many bytes at the start of `bytes` decode to the
    /// same-numbered code point (ASCII, plus upper-half bytes the table maps to U+0080..U+00FF
    /// identically). None for other families, as in encoding_rs.
    pub(crate) fn latin1_byte_compatible_up_to(&self, bytes: &[u8]) -> Option<usize> {
        match self {
            VariantDecoder::SingleByte(d) => Some(d.latin1_byte_compatible_up_to(bytes)),
            VariantDecoder::SingleByteLatin1(d) => Some(d.latin1_byte_compatible_up_to(bytes)),
            VariantDecoder::Utf8(d) => d.latin1_byte_compatible_up_to(bytes),
            VariantDecoder::XUserDefined(_) => Some(crate::simd::active_ascii_prefix_len(bytes)),
            VariantDecoder::Gb18030(d) if d.is_initial() => Some(crate::simd::active_ascii_prefix_len(bytes)),
            VariantDecoder::Big5(d) if d.is_initial() => Some(crate::simd::active_ascii_prefix_len(bytes)),
            VariantDecoder::EucJp(d) if d.is_initial() => Some(crate::simd::active_ascii_prefix_len(bytes)),
            VariantDecoder::ShiftJis(d) if d.is_initial() => {
                Some(crate::simd::active_ascii_prefix_len(bytes))
            }
            VariantDecoder::EucKr(d) if d.is_initial() => Some(crate::simd::active_ascii_prefix_len(bytes)),
            VariantDecoder::Iso2022Jp(d) if d.is_initial() => Some(d.latin1_byte_compatible_up_to(bytes)),
            _ => None,
        }
    }
}

/// Every encoding's decoder and encoder in their initial states, by [`Encoding::index`].
static INITIAL: [(VariantDecoder, VariantEncoder); 40] = {
    let mut table = [(
        VariantDecoder::Replacement(replacement::ReplacementDecoder::new()),
        VariantEncoder::Utf8(utf_8::Utf8Encoder::new()),
    ); 40];
    let mut i = 0;
    while i < crate::tables::encodings::ALL.len() {
        let kind = crate::tables::encodings::ALL[i].kind();
        table[i] = (VariantDecoder::initial(kind), VariantEncoder::initial(kind));
        i += 1;
    }
    table
};

/// An encoder of any family (replacement and UTF-16 have none: their output encoding, UTF-8,
/// is used).
#[derive(Clone, Copy)]
pub(crate) enum VariantEncoder {
    Utf8(utf_8::Utf8Encoder),
    SingleByte(single_byte::SingleByteEncoder),
    XUserDefined(x_user_defined::XUserDefinedEncoder),
    Gb18030(gb18030::Gb18030Encoder),
    Big5(big5::Big5Encoder),
    EucJp(euc_jp::EucJpEncoder),
    Iso2022Jp(iso_2022_jp::Iso2022JpEncoder),
    ShiftJis(shift_jis::ShiftJisEncoder),
    EucKr(euc_kr::EucKrEncoder),
}

impl VariantEncoder {
    /// Whether this is a stateless CJK encoder (Shift_JIS, EUC-JP, EUC-KR, Big5, gb18030 or
    /// GBK): one that [`VariantEncoder::encode_utf8_prefix`] takes.
    #[inline(always)]
    pub(crate) fn is_stateless_multibyte(&self) -> bool {
        matches!(
            self,
            VariantEncoder::ShiftJis(_)
                | VariantEncoder::EucJp(_)
                | VariantEncoder::EucKr(_)
                | VariantEncoder::Big5(_)
                | VariantEncoder::Gb18030(_)
        )
    }

    /// For a stateless CJK encoder ([`VariantEncoder::is_stateless_multibyte`]): the prefix of
    /// a short input `src` its encode run would take (through the encoder's `run_bytes`),
    /// written by one loop without the run's set-up (`encode_runs::mapped_utf8`): `(bytes
    /// read, bytes written)`; nothing for the others. `dst` holds `src.len()` bytes or more,
    /// which is enough: no character takes more bytes than its UTF-8 there.
    #[inline(always)]
    pub(crate) fn encode_utf8_prefix(&self, src: &str, dst: &mut crate::simd::OutBytes) -> (usize, usize) {
        // Each arm its own loop, the lookup inlined in it.
        match self {
            VariantEncoder::ShiftJis(_) => encode_runs::mapped_utf8(src, dst, shift_jis::run_bytes),
            VariantEncoder::EucJp(_) => encode_runs::mapped_utf8(src, dst, euc_jp::run_bytes),
            VariantEncoder::EucKr(_) => encode_runs::mapped_utf8(src, dst, euc_kr::run_bytes),
            VariantEncoder::Big5(_) => encode_runs::mapped_utf8(src, dst, big5::run_bytes),
            VariantEncoder::Gb18030(_) => encode_runs::mapped_utf8(src, dst, gb18030::run_bytes),
            _ => (0, 0),
        }
    }

    /// The encoder of `encoding`'s output encoding, copied whole from a table built at
    /// compile time (see [`VariantDecoder::new`]).
    #[inline(always)]
    pub(crate) fn new(encoding: &'static Encoding) -> VariantEncoder {
        INITIAL[usize::from(encoding.index())].1
    }

    /// The encoder of the output encoding of an encoding of `kind`.
    const fn initial(kind: Kind) -> VariantEncoder {
        match kind {
            Kind::SingleByte(tables) => {
                VariantEncoder::SingleByte(single_byte::SingleByteEncoder::new(tables))
            }
            Kind::XUserDefined => VariantEncoder::XUserDefined(x_user_defined::XUserDefinedEncoder::new()),
            Kind::Gbk => VariantEncoder::Gb18030(gb18030::Gb18030Encoder::new(true)),
            Kind::Gb18030 => VariantEncoder::Gb18030(gb18030::Gb18030Encoder::new(false)),
            Kind::Big5 => VariantEncoder::Big5(big5::Big5Encoder::new()),
            Kind::EucJp => VariantEncoder::EucJp(euc_jp::EucJpEncoder::new()),
            Kind::Iso2022Jp => VariantEncoder::Iso2022Jp(iso_2022_jp::Iso2022JpEncoder::new()),
            Kind::ShiftJis => VariantEncoder::ShiftJis(shift_jis::ShiftJisEncoder::new()),
            Kind::EucKr => VariantEncoder::EucKr(euc_kr::EucKrEncoder::new()),
            // The output encoding of UTF-16BE/LE and replacement is UTF-8.
            Kind::Utf8 | Kind::Utf16Be | Kind::Utf16Le | Kind::Replacement => {
                VariantEncoder::Utf8(utf_8::Utf8Encoder::new())
            }
        }
    }

    /// Runs the family's encoder; see the module docs.
    #[inline]
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        last: bool,
    ) -> EncoderResult {
        match self {
            VariantEncoder::Utf8(e) => e.encode(src, dst, last),
            VariantEncoder::SingleByte(e) => e.encode(src, dst, last),
            VariantEncoder::XUserDefined(e) => e.encode(src, dst, last),
            VariantEncoder::Gb18030(e) => e.encode(src, dst, last),
            VariantEncoder::Big5(e) => e.encode(src, dst, last),
            VariantEncoder::EucJp(e) => e.encode(src, dst, last),
            VariantEncoder::Iso2022Jp(e) => e.encode(src, dst, last),
            VariantEncoder::ShiftJis(e) => e.encode(src, dst, last),
            VariantEncoder::EucKr(e) => e.encode(src, dst, last),
        }
    }

    /// Whether the encoder holds state that `last` would flush (ISO-2022-JP not in ASCII).
    pub(crate) fn has_pending_state(&self) -> bool {
        match self {
            VariantEncoder::Iso2022Jp(e) => e.has_pending_state(),
            _ => false,
        }
    }

    /// The most bytes encoding `byte_length` bytes of UTF-8 can write, without replacement:
    ///
    /// - UTF-8: a UTF-8 byte is copied.
    /// - Single-byte, x-user-defined: at most one byte a character.
    /// - Big5, EUC-JP, Shift_JIS, EUC-KR, GBK: at most two bytes a character, from two or
    ///   more UTF-8 bytes (GBK has no four-byte sequences; `€` is one byte, 0x80).
    /// - gb18030: four bytes for a character of two or more UTF-8 bytes.
    /// - ISO-2022-JP: the worst text alternates a character in jis0208 (`ESC $ B` and two
    ///   bytes, from three UTF-8 bytes) and one in ASCII (`ESC ( B` and the byte, from one):
    ///   nine bytes from four; plus `ESC ( B`, `\` (four from one) first, and `ESC ( B` at
    ///   the end.
    pub(crate) fn max_buffer_length_from_utf8_without_replacement(
        &self,
        byte_length: usize,
    ) -> Option<usize> {
        let per_byte = match self {
            VariantEncoder::Iso2022Jp(_) => return byte_length.checked_mul(3)?.checked_add(3),
            VariantEncoder::Gb18030(e) if !e.is_gbk() => 2,
            _ => 1,
        };
        byte_length.checked_mul(per_byte)
    }

    /// The most bytes encoding `u16_length` UTF-16 code units can write, without
    /// replacement: UTF-8 three a unit (four for a pair); single-byte and x-user-defined one;
    /// Big5, EUC-JP, Shift_JIS, EUC-KR, GBK two; gb18030 four; ISO-2022-JP alternating
    /// jis0208 (five bytes a unit, with its escape) and ASCII (four), so five for the first
    /// of every two units and four for the second, and `ESC ( B` at the end.
    pub(crate) fn max_buffer_length_from_utf16_without_replacement(
        &self,
        u16_length: usize,
    ) -> Option<usize> {
        let per_unit = match self {
            VariantEncoder::Iso2022Jp(_) => {
                return u16_length
                    .checked_mul(4)?
                    .checked_add(u16_length.div_ceil(2))?
                    .checked_add(3);
            }
            VariantEncoder::Utf8(_) => 3,
            VariantEncoder::SingleByte(_) | VariantEncoder::XUserDefined(_) => 1,
            VariantEncoder::Gb18030(e) if !e.is_gbk() => 4,
            VariantEncoder::Gb18030(_)
            | VariantEncoder::Big5(_)
            | VariantEncoder::EucJp(_)
            | VariantEncoder::ShiftJis(_)
            | VariantEncoder::EucKr(_) => 2,
        };
        u16_length.checked_mul(per_unit)
    }
}

/// The two-byte CJK families' tables for the `pairs_to_*` kernels, with an encoding of each
/// (the kernel tests run them on text in that encoding).
#[cfg(any(test, feature = "internals"))]
pub(crate) fn pair_tables() -> [(&'static crate::Encoding, &'static crate::simd::PairTables); 6] {
    [
        (crate::SHIFT_JIS, &shift_jis::PAIRS),
        (crate::EUC_JP, &euc_jp::PAIRS),
        (crate::EUC_KR, &euc_kr::PAIRS),
        (crate::GBK, &gb18030::PAIRS),
        (crate::GB18030, &gb18030::PAIRS),
        (crate::BIG5, &big5::PAIRS),
    ]
}

/// The CJK encoders' tables for the `utf16_to_legacy` kernels, with each encoding.
#[cfg(any(test, feature = "internals"))]
pub(crate) fn encode_tables() -> [(&'static crate::Encoding, &'static crate::simd::EncodeTables); 6] {
    [
        (crate::SHIFT_JIS, &shift_jis::ENC_TABLES),
        (crate::EUC_JP, &euc_jp::ENC_TABLES),
        (crate::EUC_KR, &euc_kr::ENC_TABLES),
        (crate::GBK, &gb18030::ENC_TABLES),
        (crate::GB18030, &gb18030::ENC_TABLES),
        (crate::BIG5, &big5::ENC_TABLES),
    ]
}
