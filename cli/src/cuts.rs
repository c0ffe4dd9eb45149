//! Where a file is cut into pieces (`pieces.rs`'s module doc says where and why) and the
//! reader that cuts it there, apart from the rest of the command: the `pieces` fuzz target
//! (fuzz/fuzz_targets/pieces.rs) includes this file with `#[path]` and checks the pieces'
//! conversions against one sequential conversion.

use std::io::{self, Read};

use simdenc::Encoding;
use simdenc::io::Bom;

/// Whether a fresh `encoding` decoder can start at the cuts [`find_cut`] finds.
pub(crate) fn splittable(encoding: &'static Encoding) -> bool {
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
pub(crate) fn find_cut(encoding: &'static Encoding, block: &[u8]) -> Option<usize> {
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

/// The encoding a BOM at the start (`head`, the first bytes) selects under `bom` when the
/// input is `from`, and the BOM's length (0: none is skipped).
pub(crate) fn effective(from: &'static Encoding, bom: Bom, head: &[u8]) -> (&'static Encoding, usize) {
    match (bom, Encoding::for_bom(head)) {
        (Bom::Sniff, Some((encoding, len))) => (encoding, len),
        (Bom::Strip, Some((encoding, len))) if encoding == from => (encoding, len),
        _ => (from, 0),
    }
}

/// A piece: its offset in the file, its bytes, and a buffer for its output.
pub(crate) struct Piece {
    pub(crate) start: u64,
    pub(crate) input: Vec<u8>,
    pub(crate) output: Vec<u8>,
}

/// Reads the file in pieces that end at cuts. Buffers come back through `recycle`, so that
/// after the first batches no memory is allocated (nor faulted in) any more.
pub(crate) struct PieceReader<'a, R> {
    pub(crate) file: R,
    pub(crate) encoding: &'static Encoding,
    pub(crate) piece: usize,
    /// Bytes read after the last cut.
    pub(crate) carry: Vec<u8>,
    /// Offset in the file of `carry[0]`.
    pub(crate) start: u64,
    pub(crate) eof: bool,
    /// No cut was found in a whole piece: the rest goes sequentially.
    pub(crate) stuck: bool,
    pub(crate) spare: Vec<Vec<u8>>,
    /// Told the number of bytes of each read (the progress bar).
    pub(crate) progress: &'a (dyn Fn(u64) + Sync),
}

impl<R: Read> PieceReader<'_, R> {
    /// Up to `count` pieces; empty at the end or once stuck.
    pub(crate) fn next_batch(&mut self, count: usize) -> io::Result<Vec<Piece>> {
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
                (self.progress)(n as u64);
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
    pub(crate) fn recycle(&mut self, piece: Piece) {
        self.spare.push(piece.input);
        self.spare.push(piece.output);
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
