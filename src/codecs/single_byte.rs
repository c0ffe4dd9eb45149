//! The legacy single-byte encodings (28 of them; x-user-defined reuses the decoder).
//!
//! <https://encoding.spec.whatwg.org/#single-byte-decoder>: ASCII bytes are themselves; other
//! bytes are looked up in index single-byte, unmapped ones are errors. Stateless, so a
//! buffer boundary can never fall inside a character. The whole byte range goes through
//! the `single_byte_to_*` kernels; this state machine only handles what a kernel stops at.

use crate::codecs::dest::Dest;
use crate::codecs::encode_runs;
use crate::codecs::source::{ByteDest, Source};
use crate::results::{EncoderResult, Status};
use crate::simd::OutBytes;
use crate::simd::{EncodeTables, Lookup};
use crate::tables::SingleByteTables;

#[derive(Clone, Copy)]
pub(crate) struct SingleByteDecoder {
    table: &'static [u16; 128],
}

impl SingleByteDecoder {
    pub(crate) const fn new(table: &'static [u16; 128]) -> Self {
        SingleByteDecoder { table }
    }

    pub(crate) fn decode<D: Dest>(
        &mut self,
        src: &[u8],
        dst: &mut D,
        _last: bool,
        replace: bool,
    ) -> (Status, usize) {
        let read = dst.single_byte(src, self.table);
        after_kernel(self.table, src, dst, read, replace)
    }

    pub(crate) fn latin1_byte_compatible_up_to(&self, bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&b| b >= 0x80 && self.table[usize::from(b - 0x80)] != u16::from(b))
            .unwrap_or(bytes.len())
    }
}

/// The single-byte decoder of an index whose bytes from `latin1_from` are their own code
/// points (windows-1252 from 0xA0, ISO-8859-15 from 0xBF): those through `latin1_to_utf8`
/// (`Dest::latin1_single_byte`), the others through the index.
#[derive(Clone, Copy)]
pub(crate) struct Latin1SingleByteDecoder {
    tables: &'static SingleByteTables,
}

impl Latin1SingleByteDecoder {
    pub(crate) const fn new(tables: &'static SingleByteTables) -> Self {
        Latin1SingleByteDecoder { tables }
    }

    pub(crate) fn decode<D: Dest>(
        &mut self,
        src: &[u8],
        dst: &mut D,
        _last: bool,
        replace: bool,
    ) -> (Status, usize) {
        let t = self.tables;
        let read = dst.latin1_single_byte(src, t.decode, t.latin1_from);
        after_kernel(t.decode, src, dst, read, replace)
    }

    pub(crate) fn latin1_byte_compatible_up_to(&self, bytes: &[u8]) -> usize {
        SingleByteDecoder::new(self.tables.decode).latin1_byte_compatible_up_to(bytes)
    }
}

/// What a single-byte decoder returns after its kernel read `read` bytes of `src`.
#[inline(always)]
fn after_kernel<D: Dest>(
    table: &[u16; 128],
    src: &[u8],
    dst: &mut D,
    read: usize,
    replace: bool,
) -> (Status, usize) {
    let Some(&byte) = src.get(read) else {
        return (Status::INPUT_EMPTY, read);
    };
    // The kernel stopped before `byte`: it is unmapped, or its character did not fit.
    let mapped = byte < 0x80 || table[usize::from(byte - 0x80)] != 0;
    if mapped {
        return (Status::OUTPUT_FULL, read);
    }
    if replace {
        if !dst.room_for_replacement() {
            return (Status::OUTPUT_FULL, read);
        }
        dst.push('\u{FFFD}');
    }
    (Status::malformed(1, 0), read + 1)
}

#[derive(Clone, Copy)]
pub(crate) struct SingleByteEncoder {
    tables: &'static SingleByteTables,
}

impl SingleByteEncoder {
    pub(crate) const fn new(tables: &'static SingleByteTables) -> Self {
        SingleByteEncoder { tables }
    }

    /// Encodes the prefix of `src` (UTF-16) whose units are ASCII or mapped, as far as `dst`
    /// holds it; returns its length (units read = bytes written). It stops at a surrogate
    /// and at an unmappable unit, which it leaves to [`SingleByteEncoder::encode`].
    #[inline]
    pub(crate) fn encode_utf16_prefix(&self, src: &[u16], dst: &mut OutBytes) -> usize {
        encode_runs::single_byte_units(src, dst, |c| u16::from(self.tables.encode(c)))
    }

    /// [`SingleByteEncoder::encode_utf16_prefix`] from UTF-8: `(bytes read, bytes written)`.
    #[inline]
    pub(crate) fn encode_utf8_prefix(&self, src: &str, dst: &mut OutBytes) -> (usize, usize) {
        encode_runs::single_byte_utf8(src, dst, |c| u16::from(self.tables.encode(c)))
    }

    /// <https://encoding.spec.whatwg.org/#single-byte-encoder>
    pub(crate) fn encode<S: Source>(
        &mut self,
        src: &mut S,
        dst: &mut ByteDest<'_>,
        _last: bool,
    ) -> EncoderResult {
        loop {
            let (pages, blocks) = (self.tables.enc_pages, self.tables.enc_blocks);
            let tables = EncodeTables {
                pages,
                blocks: Lookup::U8(blocks),
                latin1_from: self.tables.latin1_from,
            };
            src.encode_run(dst, Some(&tables), |c| u16::from(self.tables.encode(c)));
            let Some((c, len)) = src.peek() else {
                return EncoderResult::InputEmpty;
            };
            if dst.left() == 0 {
                return EncoderResult::OutputFull;
            }
            // The copy stopped at a non-ASCII character (or the output was full, handled above).
            let byte = self.tables.encode(u32::from(c));
            src.advance(len);
            if byte == 0 {
                return EncoderResult::Unmappable(c);
            }
            dst.push_byte(byte);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::codecs::testing::{
        check_decode, check_decode_thoroughly, check_encode, check_encode_thoroughly,
    };
    use crate::{CoderResult, Encoding, X_USER_DEFINED};

    fn single_byte_encodings() -> impl Iterator<Item = &'static Encoding> {
        Encoding::all()
            .iter()
            .copied()
            .filter(|e| e.is_single_byte() && *e != X_USER_DEFINED)
    }

    #[test]
    fn every_byte_and_pair_equals_spec() {
        for enc in single_byte_encodings() {
            let all: Vec<u8> = (0..=255).collect();
            check_decode_thoroughly(enc, &all);
            for a in (0..=255u8).step_by(3) {
                for b in 0..=255u8 {
                    check_decode(enc, &[a, b], &[], 16);
                }
            }
        }
    }

    #[test]
    fn every_bmp_scalar_encodes_as_spec() {
        for enc in single_byte_encodings() {
            let text: String = (0..=0xFFFFu32).filter_map(char::from_u32).collect();
            check_encode(enc, &text, &[], text.len() * 8);
            for c in [
                '\u{80}',
                '\u{A0}',
                '\u{20AC}',
                '\u{FFFD}',
                '\u{1F600}',
                '\u{10FFFF}',
            ] {
                check_encode(enc, &c.to_string(), &[], 16);
            }
        }
    }

    /// Inputs shorter than `SHORT_UTF8_MIN` bytes (and `SINGLE_BYTE_UNITS_MIN` units)
    /// take the encoder's short loops (`encode_runs::single_byte_utf8`,
    /// `single_byte_units`): every BMP scalar in pieces of 16 characters (at most 48 bytes),
    /// through the public `encode_from_utf8` and `encode_from_utf16`, against the standard's
    /// encoder (an unmappable character among them is handed on to the general path, which
    /// writes its `&#N;`).
    #[test]
    fn short_inputs_encode_as_spec() {
        let all: Vec<char> = (0x20..=0xFFFFu32).filter_map(char::from_u32).collect();
        for enc in single_byte_encodings() {
            for piece in all.chunks(16) {
                let text: String = piece.iter().collect();
                let want = crate::spec::run_encoder(enc, &text, crate::spec::ErrorMode::Html).output;
                let units: Vec<u16> = text.encode_utf16().collect();
                let mut buf = vec![0u8; 10 * piece.len() + 16];
                let from_utf8 = enc.new_encoder().encode_from_utf8(&text, &mut buf, true);
                let out8 = buf.clone();
                let from_utf16 = enc.new_encoder().encode_from_utf16(&units, &mut buf, true);
                for ((result, read, written, _), out, len, from) in [
                    (from_utf8, &out8, text.len(), "UTF-8"),
                    (from_utf16, &buf, units.len(), "UTF-16"),
                ] {
                    assert_eq!(
                        (result, read),
                        (CoderResult::InputEmpty, len),
                        "{} from {from}",
                        enc.name()
                    );
                    assert_eq!(out[..written], want[..], "{} {text:?} from {from}", enc.name());
                }
            }
        }
    }

    /// `latin1_from`: the bytes from it to 0xFF encode their own code points (the
    /// `utf8_to_latin1` kernel's condition), and it is the lowest such byte from 0x80;
    /// windows-1252's is 0xA0.
    #[test]
    fn latin1_from_is_where_bytes_are_their_code_points() {
        for enc in single_byte_encodings() {
            let crate::encoding::Kind::SingleByte(t) = enc.kind() else {
                continue;
            };
            let identity = |b: u32| t.encode(b) == b as u8;
            let lowest = (0x80..=0xFFu32).rev().take_while(|&b| identity(b)).last();
            let expect = match lowest {
                // Only a run that `run` holds: windows-1252's U+00A0..=U+00FF.
                Some(b) if t.run.0 == b as u16 && u32::from(t.run.2) == 0x100 - b => b as u8,
                _ => 0,
            };
            assert_eq!(t.latin1_from, expect, "{}", enc.name());
        }
        let crate::encoding::Kind::SingleByte(t) = crate::WINDOWS_1252.kind() else {
            unreachable!("windows-1252 is single-byte");
        };
        assert_eq!(t.latin1_from, 0xA0);
    }

    #[test]
    fn mixed_text_in_chunks_and_small_buffers() {
        for enc in single_byte_encodings() {
            check_encode_thoroughly(enc, "a\u{e9}\u{20ac}\u{416}\u{5d0}\u{e01}\u{3042}z \u{1F600}.");
            let bytes: Vec<u8> = b"Hi \x80\x81\x8d\x90\x9d\xa0\xa4\xbf\xc0\xd7\xde\xff!".to_vec();
            check_decode_thoroughly(enc, &bytes);
        }
    }
}
