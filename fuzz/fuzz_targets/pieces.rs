//! The command line's piece splitter (`cli/src/cuts.rs`, included as it is: where a file is
//! cut so that a fresh decoder starts each piece, and the reader that cuts it) against one
//! sequential conversion.
//!
//! Header: `[0]` the input encoding (any of the 40: the stateful ISO-2022-JP and replacement
//! are never split, UTF-16 and gb18030 are); `[1]` bits 0–1 the BOM mode (sniff, strip, keep),
//! bits 2–3 what is done with malformed input (replace, fail, skip); `[2]` the piece size
//! (4–67 bytes, the CLI's minimum 4); `[3]` the pieces read at once (2–8) and the file's
//! short reads; `[4..8]` PRNG seed (the buffer sizes). Payload: the file.
//!
//! As `pieces::convert` does it: the first three bytes decide the BOM, the rest is read in
//! pieces ending at cuts, each piece decoded alone without BOM handling (its malformed-input
//! error moved by the piece's offset), and what no cut was found for decoded as one stream
//! from the last cut. Checked: the pieces are consecutive, at most the piece size, and empty
//! only at the end; the text, the first error's offset (with fail) and whether there were
//! errors equal one `DecodeReader` over the whole file, as the CLI's sequential `stream` reads
//! it; the progress count is every byte read.
#![no_main]

use std::io::{self, BufRead, Cursor, Read};
use std::sync::atomic::{AtomicU64, Ordering};

use libfuzzer_sys::fuzz_target;
use simdenc::Encoding;
use simdenc::io::{Bom, DecodeOptions, DecodeReader, MalformedError, OnMalformed};
use simdenc_fuzz::{Input, Rng, encoding};

// The cuts as the CLI compiles them.
#[path = "../../cli/src/cuts.rs"]
mod cuts;

use cuts::{PieceReader, effective, splittable};

/// A file that gives at most `max` bytes a read.
struct Short<'a> {
    data: &'a [u8],
    rng: Rng,
    max: usize,
}

impl Read for Short<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.data.len()).min(1 + self.rng.below(self.max));
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// What a conversion gave: the text, the first malformed sequence's offset if it stopped
/// there, whether it met malformed input.
#[derive(Debug, PartialEq, Eq)]
struct Converted {
    text: String,
    error: Option<u64>,
    had_errors: bool,
}

/// The decoding half of the CLI's `stream`: a `DecodeReader` read to the end or to the error.
fn convert(
    input: impl Read,
    encoding: &'static Encoding,
    bom: Bom,
    on_malformed: OnMalformed,
    buffer: usize,
) -> Converted {
    let options = DecodeOptions::new()
        .bom(bom)
        .on_malformed(on_malformed)
        .buffer_size(buffer);
    let mut reader = DecodeReader::with_options(input, encoding, options);
    let mut text = String::new();
    loop {
        match reader.fill_str() {
            Ok("") => break,
            Ok(chunk) => {
                let n = chunk.len();
                text.push_str(chunk);
                reader.consume(n);
            }
            Err(e) => {
                let bad =
                    MalformedError::from_io_error(&e).expect("reading a slice fails only on malformed input");
                return Converted {
                    text,
                    error: Some(bad.offset()),
                    had_errors: true,
                };
            }
        }
    }
    Converted {
        text,
        error: None,
        had_errors: reader.had_errors(),
    }
}

fn check(data: &[u8]) {
    let input = Input::parse(data);
    let h = input.header;
    let bytes = input.payload;
    let from = encoding(h[0]);
    let bom = [Bom::Sniff, Bom::Strip, Bom::Keep, Bom::Keep][usize::from(h[1] & 3)];
    let on_malformed = [
        OnMalformed::Replace,
        OnMalformed::Fail,
        OnMalformed::Skip,
        OnMalformed::Replace,
    ][usize::from(h[1] >> 2 & 3)];
    let piece = 4 + usize::from(h[2]) % 64;
    let window = 2 + usize::from(h[3] & 7) % 7;
    let mut rng = input.rng();
    let sequential_buffer = [64, 100, 1024, 16 * 1024][rng.below(4)];
    let what = format!(
        "{} {bom:?} {on_malformed:?}, pieces of {piece}, {window} at once, bytes {bytes:02X?}",
        from.name()
    );

    let sequential = convert(bytes, from, bom, on_malformed, sequential_buffer);

    let head_len = bytes.len().min(3);
    let head = &bytes[..head_len];
    let (encoding, bom_len) = effective(from, bom, head);
    if !splittable(encoding) {
        // The CLI converts such a file as one stream: `sequential` is what it does.
        return;
    }
    let read = AtomicU64::new(0);
    let progress = |n| {
        read.fetch_add(n, Ordering::Relaxed);
    };
    let mut reader = PieceReader {
        file: Short {
            data: &bytes[head_len..],
            rng: Rng::new(rng.next_u64()),
            max: [1, 3, 16, 4096][usize::from(h[3] >> 3 & 3)],
        },
        encoding,
        piece,
        carry: head[bom_len..].to_vec(),
        start: bom_len as u64,
        eof: false,
        stuck: false,
        spare: Vec::new(),
        progress: &progress,
    };
    let mut got = Converted {
        text: String::new(),
        error: None,
        had_errors: false,
    };
    let mut next = bom_len as u64;
    'batches: loop {
        let batch = reader.next_batch(window).expect("reading a slice");
        if batch.is_empty() {
            break;
        }
        assert!(batch.len() <= window, "{what}: {} pieces in a batch", batch.len());
        for piece_read in batch {
            assert_eq!(piece_read.start, next, "{what}: the pieces are not consecutive");
            // An empty piece only at the end (a file that ends at a cut: the read that finds
            // the end gives one).
            assert!(
                piece_read.input.len() <= piece
                    && (!piece_read.input.is_empty() || next == bytes.len() as u64),
                "{what}: a piece of {} bytes at {next}",
                piece_read.input.len()
            );
            next += piece_read.input.len() as u64;
            let buffer = piece_read.input.len().clamp(64, 16 * 1024);
            let part = convert(&piece_read.input[..], encoding, Bom::Keep, on_malformed, buffer);
            got.text.push_str(&part.text);
            got.had_errors |= part.had_errors;
            if let Some(offset) = part.error {
                got.error = Some(piece_read.start + offset);
                break 'batches;
            }
            reader.recycle(piece_read);
        }
    }
    if got.error.is_none() {
        if reader.stuck {
            assert_eq!(
                reader.start, next,
                "{what}: the sequential rest starts after the pieces"
            );
            let start = reader.start;
            let rest = Cursor::new(std::mem::take(&mut reader.carry)).chain(reader.file);
            let part = convert(rest, encoding, Bom::Keep, on_malformed, sequential_buffer);
            got.text.push_str(&part.text);
            got.had_errors |= part.had_errors;
            got.error = part.error.map(|offset| start + offset);
        } else {
            assert_eq!(next, bytes.len() as u64, "{what}: the pieces cover the file");
            assert_eq!(
                read.load(Ordering::Relaxed),
                (bytes.len() - head_len) as u64,
                "{what}: the bytes read, as the progress bar counts them"
            );
        }
    }
    assert!(
        got == sequential,
        "{what}: in pieces {got:?}, sequentially {sequential:?}"
    );
}

fuzz_target!(|data: &[u8]| check(data));
