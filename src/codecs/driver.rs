//! The decode loop, written once for every decoder that holds state between bytes (UTF-8,
//! UTF-16, gb18030, Big5, EUC-JP, ISO-2022-JP, Shift_JIS, EUC-KR).
//!
//! A family supplies three parts through [`StateMachine`]: its fast run (the kernels and the
//! tight loops that decode whole characters straight from the buffer), one step of the
//! standard's handler, and the handler's end-of-queue step. [`decode`] drives them: fast run
//! while no byte is held, one step where it stopped, again, and at the end the end-of-queue
//! step. It is generic over the family and the output, so each (family, output) pair is
//! compiled into its own loop with the family's parts inlined, as encoding_rs's decoder
//! macros expand, but as plain Rust that rustfmt formats and errors point into.
//!
//! Single-byte, x-user-defined and replacement decoders hold no state between bytes and keep
//! their own short `decode`.

use crate::codecs::Pending;
use crate::codecs::dest::Dest;
use crate::results::Status;

/// What the standard's handler did with one byte, or at end-of-queue.
pub(crate) enum Step {
    /// The byte was consumed (any output written); at end-of-queue: finished.
    Consumed,
    /// No room for the output, or for the U+FFFD of an error in replacement mode; nothing
    /// changed.
    Full,
    /// The standard returned error, with its state transition made; room for U+FFFD was
    /// checked in replacement mode and [`decode`] writes it. `consumed` is false when the
    /// byte was restored (not consumed); `bad` is the length of the malformed sequence.
    Error { consumed: bool, bad: u8 },
}

/// A decoder's parts that [`decode`] drives; see the family contract in `codecs`.
pub(crate) trait StateMachine {
    /// Whether the state is between characters, so that [`StateMachine::fast_run`] may
    /// start, and a byte read now would only start a character (asked only with nothing
    /// pending).
    fn between_characters(&self) -> bool;

    /// Decodes what it can at the start of `src` from a state between characters: whole,
    /// valid characters that fit (and, for ISO-2022-JP, escape sequences that switch state
    /// without an error). Returns the bytes read and whether it stopped because the output
    /// is full; otherwise it stopped at the end of `src` or at a byte for
    /// [`StateMachine::step`].
    fn fast_run<D: Dest>(&mut self, src: &[u8], dst: &mut D) -> (usize, bool);

    /// The standard's handler for one byte (not end-of-queue). Checks room before changing
    /// anything (for U+FFFD too, in replacement mode, where it returns `Error`).
    fn step<D: Dest>(&mut self, byte: u8, dst: &mut D, replace: bool) -> Step;

    /// The standard's handler for end-of-queue (`last`, with the input and [`Pending`]
    /// exhausted): `Consumed` for finished, or `Error` with the state transition made (room
    /// for U+FFFD checked in replacement mode).
    fn at_end<D: Dest>(&mut self, dst: &mut D, replace: bool) -> Step;

    /// Bytes that the standard restored from state, to be read before `src` (`None` for a
    /// family whose restores are only ever of the current byte).
    #[inline(always)]
    fn pending(&mut self) -> Option<&mut Pending> {
        None
    }
}

/// Runs `machine` over `src` into `dst`: the family contract of `codecs` (`OutputFull` leaves
/// the state as it was; on an error, U+FFFD in replacement mode and `Malformed`; at `last`,
/// end-of-queue).
pub(crate) fn decode<M: StateMachine, D: Dest>(
    machine: &mut M,
    src: &[u8],
    dst: &mut D,
    last: bool,
    replace: bool,
) -> (Status, usize) {
    let mut read = 0;
    loop {
        let pending = machine.pending().and_then(|p| p.front());
        let byte = match pending {
            Some(byte) => byte,
            None => {
                if machine.between_characters() {
                    let (n, full) = machine.fast_run(src.get(read..).unwrap_or_default(), dst);
                    read += n;
                    // A full output takes no more input: a byte that only starts a character
                    // (a lead, an escape sequence) is left for the next call, as in
                    // encoding_rs.
                    if full || (read < src.len() && !dst.room_for_ascii()) {
                        return (Status::OUTPUT_FULL, read);
                    }
                }
                match src.get(read) {
                    Some(&byte) => byte,
                    None => break,
                }
            }
        };
        match machine.step(byte, dst, replace) {
            Step::Consumed => take(machine, pending.is_some(), &mut read),
            Step::Full => return (Status::OUTPUT_FULL, read),
            Step::Error { consumed, bad } => {
                if consumed {
                    take(machine, pending.is_some(), &mut read);
                }
                if replace {
                    dst.push('\u{FFFD}');
                }
                return (Status::malformed(bad, pending_len(machine)), read);
            }
        }
    }
    if !last {
        return (Status::INPUT_EMPTY, read);
    }
    match machine.at_end(dst, replace) {
        Step::Consumed => (Status::INPUT_EMPTY, read),
        Step::Full => (Status::OUTPUT_FULL, read),
        Step::Error { bad, .. } => {
            if replace {
                dst.push('\u{FFFD}');
            }
            (Status::malformed(bad, pending_len(machine)), read)
        }
    }
}

/// Consumes the byte just stepped: from [`Pending`] if it came from there, else from `src`.
#[inline(always)]
fn take<M: StateMachine>(machine: &mut M, from_pending: bool, read: &mut usize) {
    match machine.pending() {
        Some(pending) if from_pending => pending.pop_front(),
        _ => *read += 1,
    }
}

/// How many bytes are pending (what an error's `Malformed` counts as read after it).
#[inline(always)]
fn pending_len<M: StateMachine>(machine: &mut M) -> u8 {
    machine.pending().map_or(0, |p| p.len() as u8)
}

/// The end-of-queue step of the decoders whose only state is one leading byte (Big5, EUC-KR,
/// Shift_JIS): "1. If byte is end-of-queue and leading is not 0x00, then set leading to 0x00
/// and return error. 2. If byte is end-of-queue and leading is 0x00, then return finished."
#[inline(always)]
pub(crate) fn at_end_of_leading<D: Dest>(leading: &mut u8, dst: &D, replace: bool) -> Step {
    if *leading == 0 {
        return Step::Consumed;
    }
    if !dst.room_for_error(replace) {
        return Step::Full;
    }
    *leading = 0;
    Step::Error {
        consumed: false,
        bad: 1,
    }
}
