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
use std::io::{Cursor, Read, Write};
use std::path::Path;

use rayon::prelude::*;
use simdenc::Encoding;
use simdenc::io::Bom;

#[path = "cuts.rs"]
mod cuts;
use cuts::{Piece, PieceReader, effective, splittable};

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
    let (encoding, bom_len) = effective(plan.from, plan.bom, &head);
    if !splittable(encoding) || plan.target.is_stateful() {
        let input = Cursor::new(head).chain(Counting {
            inner: file,
            progress,
        });
        return stream(input, output, plan, plan.from, plan.bom)
            .map_err(|e| locate_in_file(e, path, 0, plan, plan.from, plan.bom));
    }
    let window = window(rayon::current_num_threads());
    let add_bytes = |n| progress.add_bytes(n);
    let mut reader = PieceReader {
        file,
        encoding,
        piece: piece.max(4),
        carry: head[bom_len..].to_vec(),
        start: bom_len as u64,
        eof: false,
        stuck: false,
        spare: Vec::new(),
        progress: &add_bytes,
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
