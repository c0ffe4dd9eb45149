//! Parallel conversion of one large file, with output identical to the sequential one.
//!
//! The file is cut into pieces at positions where the sequential decoder is back in its
//! initial state, so a fresh decoder started there decodes exactly what the sequential one
//! would. Such a cut is knowable from the bytes just before it only for some encodings:
//!
//! - single-byte encodings and x-user-defined: anywhere;
//! - UTF-16: at an even offset (from the start of the data, after a BOM) whose preceding
//!   code unit is not a high surrogate (that one would still wait for its low surrogate);
//! - UTF-8: after an ASCII byte, or after a complete valid character, i.e. a lead byte
//!   followed by all its continuation bytes within their ranges (whatever state the decoder
//!   was in, a lead byte starts a new sequence: mid-sequence it is an error and is restored);
//!   and, as a belt-and-braces rule, before a byte that is not a continuation byte;
//! - Shift_JIS, EUC-JP, EUC-KR and Big5: after a byte below 0x40, and gb18030 and GBK after
//!   a byte below 0x30. Such a byte is never part of a multi-byte sequence: the standard's
//!   handlers take trailing bytes from 0x40 (Shift_JIS, Big5), 0x41 (EUC-KR), 0xA1 (EUC-JP),
//!   and gb18030's second byte from 0x30; met with a leading byte pending, it ends that
//!   sequence as an error and is restored (gb18030 restores the pending second and third
//!   bytes with it), then decoded as ASCII. Once it is decoded, every state variable is
//!   back to its initial value, whatever came before.
//!
//! Everything else (ISO-2022-JP, whose escape sequences hold across lines, and replacement)
//! stays sequential, and so does any file when the target encoder has state (ISO-2022-JP).
//! A BOM is looked at once, at the very start; pieces decode without BOM handling. If no cut
//! is found in a whole piece (long malformed stretches), the rest of the file is converted
//! sequentially from the last cut.
//!
//! Memory: pieces are read and converted in batches of `2 × threads` (at most 32); one batch
//! is converted while the next is read, and buffers are reused, so three batches of input
//! (plus their output) are in memory; [`default_piece_size`] keeps that input near 2 MiB.

use std::fs::File;
use std::io::{self, Cursor, Read, Write};
use std::path::Path;

use rayon::prelude::*;
use simdenc::Encoding;
use simdenc::io::Bom;

use crate::convert::{BadInput, ConvError, Outcome, Plan, Span, locate, locate_in_file, stream};
use crate::report::{Counting, Progress};

/// Pieces converted together by `threads` threads: two per thread (so that a slow piece
/// does not idle the others), at most 32.
fn window(threads: usize) -> usize {
    (2 * threads).clamp(2, 32)
}

/// The piece size for `threads` threads: about 2 MiB of input alive in all (3 batches: being
/// read, being converted, just written and kept for reuse), plus their output.
pub fn default_piece_size(threads: usize) -> usize {
    (2 * 1024 * 1024 / (3 * window(threads))).clamp(16 * 1024, 512 * 1024)
}

/// Whether a fresh `encoding` decoder can start at the cuts [`find_cut`] finds.
pub fn splittable(encoding: &'static Encoding) -> bool {
    encoding == simdenc::UTF_8
        || encoding == simdenc::UTF_16LE
        || encoding == simdenc::UTF_16BE
        || encoding.is_single_byte()
        || multi_byte_limit(encoding).is_some()
}

/// For the CJK multi-byte decoders: the bytes below this limit are never part of a
/// multi-byte sequence, so the decoder is in its initial state after one (module doc).
fn multi_byte_limit(encoding: &'static Encoding) -> Option<u8> {
    if encoding == simdenc::GB18030 || encoding == simdenc::GBK {
        Some(0x30)
    } else if encoding == simdenc::SHIFT_JIS
        || encoding == simdenc::EUC_JP
        || encoding == simdenc::EUC_KR
        || encoding == simdenc::BIG5
    {
        Some(0x40)
    } else {
        None
    }
}

/// The last cut in `block` (which starts at a cut, or at the start of the data), in
/// `1..=block.len()`; `None` if there is none.
pub fn find_cut(encoding: &'static Encoding, block: &[u8]) -> Option<usize> {
    if block.is_empty() {
        return None;
    }
    if encoding.is_single_byte() {
        return Some(block.len());
    }
    if let Some(limit) = multi_byte_limit(encoding) {
        return block.iter().rposition(|&b| b < limit).map(|p| p + 1);
    }
    if encoding == simdenc::UTF_16LE || encoding == simdenc::UTF_16BE {
        let mut p = block.len() & !1;
        while p >= 2 {
            let pair = [block[p - 2], block[p - 1]];
            let unit = if encoding == simdenc::UTF_16BE {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            };
            if !(0xD800..=0xDBFF).contains(&unit) {
                return Some(p);
            }
            p -= 2;
        }
        return None;
    }
    (1..block.len()).rev().find(|&p| utf8_cut(block, p))
}

/// Whether the UTF-8 decoder is in its initial state before `block[p]` (see the module
/// doc), with `block[p]` not a continuation byte.
fn utf8_cut(block: &[u8], p: usize) -> bool {
    if block[p] & 0xC0 == 0x80 {
        return false;
    }
    if block[p - 1] < 0x80 {
        return true;
    }
    (2..=4).any(|k| {
        p >= k && {
            let seq = &block[p - k..p];
            let len = match seq[0] {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => 0,
            };
            len == k && std::str::from_utf8(seq).is_ok()
        }
    })
}

/// The encoding a BOM at the start selects under `bom`, and the BOM's length.
fn effective(plan: &Plan, head: &[u8]) -> (&'static Encoding, usize) {
    match (plan.bom, Encoding::for_bom(head)) {
        (Bom::Sniff, Some((encoding, len))) => (encoding, len),
        (Bom::Strip, Some((encoding, len))) if encoding == plan.from => (encoding, len),
        _ => (plan.from, 0),
    }
}

/// A piece: its offset in the file, its bytes, and a buffer for its output.
struct Piece {
    start: u64,
    input: Vec<u8>,
    output: Vec<u8>,
}

/// Reads the file in pieces that end at cuts. Buffers come back through `recycle`, so that
/// after the first batches no memory is allocated (nor faulted in) any more.
struct PieceReader<'a> {
    file: File,
    encoding: &'static Encoding,
    piece: usize,
    /// Bytes read after the last cut.
    carry: Vec<u8>,
    /// Offset in the file of `carry[0]`.
    start: u64,
    eof: bool,
    /// No cut was found in a whole piece: the rest goes sequentially.
    stuck: bool,
    spare: Vec<Vec<u8>>,
    progress: &'a Progress,
}

impl PieceReader<'_> {
    /// Up to `count` pieces; empty at the end or once stuck.
    fn next_batch(&mut self, count: usize) -> io::Result<Vec<Piece>> {
        let mut batch = Vec::with_capacity(count);
        while batch.len() < count && !self.stuck && !(self.eof && self.carry.is_empty()) {
            let mut block = self.spare.pop().unwrap_or_default();
            block.clear();
            block.extend_from_slice(&self.carry);
            self.carry.clear();
            while block.len() < self.piece && !self.eof {
                let n = (&mut self.file)
                    .take((self.piece - block.len()) as u64)
                    .read_to_end(&mut block)?;
                self.progress.add_bytes(n as u64);
                self.eof = n == 0;
            }
            let cut = if self.eof {
                Some(block.len())
            } else {
                find_cut(self.encoding, &block)
            };
            match cut {
                Some(cut) => {
                    self.carry.extend_from_slice(&block[cut..]);
                    block.truncate(cut);
                    let output = self.spare.pop().unwrap_or_default();
                    batch.push(Piece {
                        start: self.start,
                        input: block,
                        output,
                    });
                    self.start += cut as u64;
                }
                None => {
                    self.carry = block;
                    self.stuck = true;
                }
            }
        }
        Ok(batch)
    }

    /// Takes back a piece's buffers.
    fn recycle(&mut self, piece: Piece) {
        self.spare.push(piece.input);
        self.spare.push(piece.output);
    }
}

/// Converts the file in parallel pieces where it can (see the module doc).
pub fn convert<W: Write>(
    path: &Path,
    mut file: File,
    mut output: W,
    plan: &Plan,
    piece: usize,
    progress: &Progress,
) -> Result<(W, Outcome), ConvError> {
    let mut head = Vec::with_capacity(3);
    (&mut file)
        .take(3)
        .read_to_end(&mut head)
        .map_err(ConvError::Read)?;
    progress.add_bytes(head.len() as u64);
    let (encoding, bom_len) = effective(plan, &head);
    if !splittable(encoding) || plan.target.is_stateful() {
        let input = Cursor::new(head).chain(Counting {
            inner: file,
            progress,
        });
        return stream(input, output, plan, plan.from, plan.bom)
            .map_err(|e| locate_in_file(e, path, 0, plan, plan.from, plan.bom));
    }
    let window = window(rayon::current_num_threads());
    let mut reader = PieceReader {
        file,
        encoding,
        piece: piece.max(4),
        carry: head[bom_len..].to_vec(),
        start: bom_len as u64,
        eof: false,
        stuck: false,
        spare: Vec::new(),
        progress,
    };
    let mut outcome = Outcome {
        bytes_in: bom_len as u64,
        ..Outcome::default()
    };
    let mut batch = reader.next_batch(window).map_err(ConvError::Read)?;
    while !batch.is_empty() {
        // Convert this batch while the next one is read.
        let (results, next) = rayon::join(
            || {
                batch
                    .par_iter_mut()
                    .map(|piece| convert_piece(piece, encoding, plan))
                    .collect::<Vec<_>>()
            },
            || reader.next_batch(window),
        );
        for (piece, result) in batch.into_iter().zip(results) {
            output.write_all(&piece.output).map_err(ConvError::Write)?;
            let piece_outcome = result?;
            outcome.bytes_in += piece_outcome.bytes_in;
            outcome.had_errors |= piece_outcome.had_errors;
            outcome.replaced += piece_outcome.replaced;
            reader.recycle(piece);
        }
        batch = next.map_err(ConvError::Read)?;
    }
    if reader.stuck {
        let start = reader.start;
        let input = Cursor::new(std::mem::take(&mut reader.carry)).chain(Counting {
            inner: reader.file,
            progress,
        });
        let (w, rest) = stream(input, output, plan, encoding, Bom::Keep)
            .map_err(|e| shift(e, start))
            .map_err(|e| locate_in_file(e, path, start, plan, encoding, Bom::Keep))?;
        output = w;
        outcome.bytes_in += rest.bytes_in;
        outcome.had_errors |= rest.had_errors;
        outcome.replaced += rest.replaced;
    }
    Ok((output, outcome))
}

/// Converts one piece into its output buffer, which holds the conversion of the text before
/// an error if there is one.
fn convert_piece(piece: &mut Piece, encoding: &'static Encoding, plan: &Plan) -> Result<Outcome, ConvError> {
    let Piece { start, input, output } = piece;
    output.clear();
    output.reserve(input.len() + input.len() / 2);
    let piece_plan = Plan {
        buffer_size: input.len().clamp(64, 16 * 1024),
        ..*plan
    };
    stream(&input[..], &mut *output, &piece_plan, encoding, Bom::Keep)
        .map(|(_, outcome)| outcome)
        .map_err(|e| match shift(e, *start) {
            ConvError::Unmappable { err, span: None } => {
                let span = locate(&input[..], encoding, Bom::Keep, plan.on_malformed, err.offset())
                    .ok()
                    .flatten()
                    .map(|span| Span {
                        start: *start + span.start,
                        end: *start + span.end,
                        bytes: span.bytes,
                    });
                ConvError::Unmappable { err, span }
            }
            other => other,
        })
}

/// Moves a malformed-input error `base` bytes into the file.
fn shift(e: ConvError, base: u64) -> ConvError {
    match e {
        ConvError::Malformed(bad) => ConvError::Malformed(BadInput {
            offset: bad.offset + base,
            end: bad.end + base,
            ..bad
        }),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_cuts() {
        let text = "aé日😀".as_bytes();
        // After "a", "é", "日"; never inside a character.
        let cuts: Vec<usize> = (1..text.len()).filter(|&p| utf8_cut(text, p)).collect();
        assert_eq!(cuts, [1, 3, 6]);
        // Not after an incomplete sequence, nor before a stray continuation byte.
        assert!(!utf8_cut(b"\xE6\x97a", 2));
        assert!(!utf8_cut(b"a\x80", 1));
        // An overlong or surrogate form is not a complete character.
        assert!(!utf8_cut(b"\xE0\x80\x80a", 3));
        assert!(!utf8_cut(b"\xED\xA0\x80a", 3));
        assert_eq!(find_cut(simdenc::UTF_8, b"\xFF\xFF\xFF"), None);
    }

    #[test]
    fn utf16_cuts() {
        // "a😀" in UTF-16LE: 61 00 3D D8 00 DE.
        let bytes = b"a\x00\x3D\xD8\x00\xDE\x00";
        assert_eq!(find_cut(simdenc::UTF_16LE, &bytes[..4]), Some(2));
        assert_eq!(find_cut(simdenc::UTF_16LE, bytes), Some(6));
        assert_eq!(find_cut(simdenc::UTF_16LE, b"\x3D\xD8"), None);
    }

    #[test]
    fn multi_byte_cuts() {
        // Shift_JIS "火星\n" = 89 CE 90 AF 0A, then a trail-range byte '@'.
        assert_eq!(find_cut(simdenc::SHIFT_JIS, b"\x89\xCE\x90\xAF\n\x89@"), Some(5));
        assert_eq!(find_cut(simdenc::SHIFT_JIS, b"\x89@"), None);
        // gb18030: digits can be second bytes, so only bytes below 0x30 are cuts.
        assert_eq!(find_cut(simdenc::GB18030, b"a \x81\x30\x81\x30"), Some(2));
        assert_eq!(find_cut(simdenc::GBK, b"\x81\x30"), None);
        assert!(!splittable(simdenc::ISO_2022_JP) && !splittable(simdenc::REPLACEMENT));
    }

    /// Cutting at every cut and decoding the pieces separately gives the sequential text.
    #[test]
    fn cuts_preserve_the_decoding() {
        let mut seed = 0x1234_5678_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for encoding in [
            simdenc::UTF_8,
            simdenc::UTF_16LE,
            simdenc::UTF_16BE,
            simdenc::WINDOWS_1252,
            simdenc::SHIFT_JIS,
            simdenc::EUC_JP,
            simdenc::EUC_KR,
            simdenc::BIG5,
            simdenc::GB18030,
            simdenc::GBK,
        ] {
            for _ in 0..3000 {
                // Leads, trails, gb18030's digits and four-byte forms, EUC-JP's 0x8E/0x8F,
                // ASCII on both sides of the limits.
                let alphabet: &[u8] = &[
                    b'a', 0x80, 0xBF, 0xC3, 0xA9, 0xE6, 0x97, 0xA5, 0xF0, 0x9F, 0xD8, 0xDC, 0xED, 0xFF, 0,
                    b'0', b'9', b'\n', b'/', b'@', b'A', 0x81, 0x8E, 0x8F, 0xA1, 0xFE, 0x30, 0x3F,
                ];
                let len = (next() % 40) as usize;
                let bytes: Vec<u8> = (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect();
                let expected = encoding.decode_without_bom_handling(&bytes).0.into_owned();
                let mut text = String::new();
                let mut rest = &bytes[..];
                while !rest.is_empty() {
                    let cut = match find_cut(encoding, &rest[..rest.len().min(1 + (next() % 8) as usize)]) {
                        Some(cut) if cut < rest.len() => cut,
                        _ => rest.len(),
                    };
                    text.push_str(&encoding.decode_without_bom_handling(&rest[..cut]).0);
                    rest = &rest[cut..];
                }
                assert_eq!(text, expected, "{} {bytes:02X?}", encoding.name());
            }
        }
    }
}
