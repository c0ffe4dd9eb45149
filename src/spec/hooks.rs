//! The standard's sections "Hooks for standards" and "Legacy hooks for standards", "get an
//! output encoding", and convenience runners over immediate queues for differential tests.
//!
//! <https://encoding.spec.whatwg.org/#specification-hooks>
//!
//! The hooks "block until the input I/O queue has been consumed in its entirety"; with no
//! thread to wait for here, they require an input queue that ends with end-of-queue (an
//! immediate queue, or a streaming one after its last push) and panic otherwise.

use super::{Decoder, Encoder, ErrorMode, IoQueue, Item, QueueResult, process_queue};
use crate::Encoding;

/// The failure of [`utf8_decode_without_bom_or_fail`].
///
/// ```
/// use simdenc::spec::{utf8_decode_without_bom_or_fail, Failure, IoQueue};
/// let mut output = IoQueue::new();
/// let result = utf8_decode_without_bom_or_fail(&mut IoQueue::from_items([0xC0]), &mut output);
/// assert_eq!(result, Err(Failure));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure;

/// Panics unless reading `io_queue` can never block.
fn assert_immediate<T: Copy>(io_queue: &IoQueue<T>, hook: &str) {
    assert!(
        io_queue.has_end_of_queue(),
        "{hook}: the input I/O queue has no end-of-queue, so the standard would block"
    );
}

/// The result of "process a queue" on a queue with end-of-queue, which cannot block.
fn not_blocked(result: QueueResult) -> QueueResult {
    assert!(
        result != QueueResult::Blocked,
        "a queue with end-of-queue never blocks"
    );
    result
}

/// "UTF-8 decode" `io_queue` into `output`: skips a UTF-8 byte order mark, then decodes
/// with replacement.
///
/// <https://encoding.spec.whatwg.org/#utf-8-decode>
///
/// # Panics
///
/// If `io_queue` has no end-of-queue.
///
/// ```
/// use simdenc::spec::{utf8_decode, IoQueue};
/// let mut output = IoQueue::new();
/// utf8_decode(&mut IoQueue::from_items(*b"\xEF\xBB\xBFa\xFF"), &mut output);
/// assert_eq!(output.to_vec(), ['a', '\u{FFFD}']);
/// ```
pub fn utf8_decode(io_queue: &mut IoQueue<u8>, output: &mut IoQueue<char>) {
    assert_immediate(io_queue, "UTF-8 decode");
    // 1. Let buffer be the result of peeking three bytes from ioQueue, converted to a byte
    //    sequence.
    let buffer = io_queue.peek(3).expect("a queue with end-of-queue never blocks");
    // 2. If buffer is 0xEF 0xBB 0xBF, then read three bytes from ioQueue. (Do nothing with
    //    those bytes.)
    if buffer == [0xEF, 0xBB, 0xBF] {
        io_queue.read_items(3);
    }
    // 3. Process a queue with an instance of UTF-8's decoder, ioQueue, output, and
    //    "replacement".
    not_blocked(process_queue(
        &mut Decoder::new(crate::UTF_8),
        io_queue,
        output,
        ErrorMode::Replacement,
    ));
    // 4. Return output.
}

/// "UTF-8 decode without BOM" `io_queue` into `output`: decodes with replacement, keeping a
/// byte order mark as U+FEFF.
///
/// <https://encoding.spec.whatwg.org/#utf-8-decode-without-bom>
///
/// # Panics
///
/// If `io_queue` has no end-of-queue.
///
/// ```
/// use simdenc::spec::{utf8_decode_without_bom, IoQueue};
/// let mut output = IoQueue::new();
/// utf8_decode_without_bom(&mut IoQueue::from_items(*b"\xEF\xBB\xBFa"), &mut output);
/// assert_eq!(output.to_vec(), ['\u{FEFF}', 'a']);
/// ```
pub fn utf8_decode_without_bom(io_queue: &mut IoQueue<u8>, output: &mut IoQueue<char>) {
    assert_immediate(io_queue, "UTF-8 decode without BOM");
    // 1. Process a queue with an instance of UTF-8's decoder, ioQueue, output, and
    //    "replacement".
    not_blocked(process_queue(
        &mut Decoder::new(crate::UTF_8),
        io_queue,
        output,
        ErrorMode::Replacement,
    ));
    // 2. Return output.
}

/// "UTF-8 decode without BOM or fail" `io_queue` into `output`: decodes in "fatal" mode;
/// on an error, returns failure (`output` then holds what was decoded before it, and no
/// end-of-queue).
///
/// <https://encoding.spec.whatwg.org/#utf-8-decode-without-bom-or-fail>
///
/// # Panics
///
/// If `io_queue` has no end-of-queue.
///
/// ```
/// use simdenc::spec::{utf8_decode_without_bom_or_fail, IoQueue};
/// let mut output = IoQueue::new();
/// assert!(utf8_decode_without_bom_or_fail(&mut IoQueue::from_items(*b"ok"), &mut output).is_ok());
/// assert_eq!(output.to_vec(), ['o', 'k']);
/// ```
pub fn utf8_decode_without_bom_or_fail(
    io_queue: &mut IoQueue<u8>,
    output: &mut IoQueue<char>,
) -> Result<(), Failure> {
    assert_immediate(io_queue, "UTF-8 decode without BOM or fail");
    // 1. Let potentialError be the result of processing a queue with an instance of UTF-8's
    //    decoder, ioQueue, output, and "fatal".
    let potential_error = not_blocked(process_queue(
        &mut Decoder::new(crate::UTF_8),
        io_queue,
        output,
        ErrorMode::Fatal,
    ));
    // 2. If potentialError is an error, then return failure.
    if let QueueResult::Error(_) = potential_error {
        return Err(Failure);
    }
    // 3. Return output.
    Ok(())
}

/// "UTF-8 encode" `io_queue` into `output`: encode with UTF-8.
///
/// <https://encoding.spec.whatwg.org/#utf-8-encode>
///
/// # Panics
///
/// If `io_queue` has no end-of-queue.
///
/// ```
/// use simdenc::spec::{utf8_encode, IoQueue};
/// let mut output = IoQueue::new();
/// utf8_encode(&mut IoQueue::from_items("é".chars()), &mut output);
/// assert_eq!(output.to_vec(), [0xC3, 0xA9]);
/// ```
pub fn utf8_encode(io_queue: &mut IoQueue<char>, output: &mut IoQueue<u8>) {
    // Return the result of encoding ioQueue with encoding UTF-8 and output.
    encode(io_queue, crate::UTF_8, output);
}

/// "Decode" `io_queue` into `output` given a fallback encoding: a byte order mark overrides
/// `fallback` (and is skipped); then decodes with replacement.
///
/// <https://encoding.spec.whatwg.org/#decode>
///
/// # Panics
///
/// If `io_queue` has no end-of-queue.
///
/// ```
/// use simdenc::spec::{decode, IoQueue};
/// let mut output = IoQueue::new();
/// decode(&mut IoQueue::from_items(*b"\xFF\xFEa\x00"), simdenc::WINDOWS_1252, &mut output);
/// assert_eq!(output.to_vec(), ['a']);
/// ```
pub fn decode(io_queue: &mut IoQueue<u8>, fallback: &'static Encoding, output: &mut IoQueue<char>) {
    assert_immediate(io_queue, "decode");
    let mut encoding = fallback;
    // 1. Let BOMEncoding be the result of BOM sniffing ioQueue.
    let bom_encoding = bom_sniff(io_queue);
    // 2. If BOMEncoding is non-null:
    if let Some(bom_encoding) = bom_encoding {
        // 1. Set encoding to BOMEncoding.
        encoding = bom_encoding;
        // 2. Read three bytes from ioQueue, if BOMEncoding is UTF-8; otherwise read two
        //    bytes. (Do nothing with those bytes.)
        if bom_encoding == crate::UTF_8 {
            io_queue.read_items(3);
        } else {
            io_queue.read_items(2);
        }
    }
    // 3. Process a queue with an instance of encoding's decoder, ioQueue, output, and
    //    "replacement".
    not_blocked(process_queue(
        &mut Decoder::new(encoding),
        io_queue,
        output,
        ErrorMode::Replacement,
    ));
    // 4. Return output.
}

/// "BOM sniff" `io_queue`: the encoding its byte order mark selects, or `None` (null).
///
/// <https://encoding.spec.whatwg.org/#bom-sniff>
///
/// # Panics
///
/// If peeking three bytes would block (fewer than three bytes and no end-of-queue).
///
/// ```
/// use simdenc::spec::{bom_sniff, IoQueue};
/// assert_eq!(bom_sniff(&IoQueue::from_items(*b"\xFE\xFF")), Some(simdenc::UTF_16BE));
/// assert_eq!(bom_sniff(&IoQueue::from_items(*b"\xEF\xBB")), None);
/// ```
pub fn bom_sniff(io_queue: &IoQueue<u8>) -> Option<&'static Encoding> {
    // 1. Let BOM be the result of peeking 3 bytes from ioQueue, converted to a byte sequence.
    let bom = io_queue.peek(3).expect("BOM sniff: peeking 3 bytes would block");
    // 2. For each of the rows in the table below, starting with the first one and going down,
    //    if BOM starts with the bytes given in the first column, then return the encoding
    //    given in the cell in the second column of that row. Otherwise, return null.
    let table: [(&[u8], &'static Encoding); 3] = [
        (&[0xEF, 0xBB, 0xBF], crate::UTF_8),
        (&[0xFE, 0xFF], crate::UTF_16BE),
        (&[0xFF, 0xFE], crate::UTF_16LE),
    ];
    table
        .into_iter()
        .find(|(byte_order_mark, _)| bom.starts_with(byte_order_mark))
        .map(|(_, encoding)| encoding)
}

/// "Encode" `io_queue` into `output` with `encoding`, in "html" mode.
///
/// <https://encoding.spec.whatwg.org/#encode>
///
/// # Panics
///
/// If `io_queue` has no end-of-queue, or `encoding` has no encoder (replacement, UTF-16BE,
/// UTF-16LE: the standard asserts; use [`get_an_output_encoding`] first).
///
/// ```
/// use simdenc::spec::{encode, IoQueue};
/// let mut output = IoQueue::new();
/// encode(&mut IoQueue::from_items("€😀".chars()), simdenc::WINDOWS_1252, &mut output);
/// assert_eq!(output.to_vec(), b"\x80&#128512;");
/// ```
pub fn encode(io_queue: &mut IoQueue<char>, encoding: &'static Encoding, output: &mut IoQueue<u8>) {
    assert_immediate(io_queue, "encode");
    // 1. Let encoder be the result of getting an encoder from encoding.
    let mut encoder = get_an_encoder(encoding);
    // 2. Process a queue with encoder, ioQueue, output, and "html".
    not_blocked(process_queue(&mut encoder, io_queue, output, ErrorMode::Html));
    // 3. Return output.
}

/// "Get an encoder" from `encoding`.
///
/// <https://encoding.spec.whatwg.org/#get-an-encoder>
///
/// # Panics
///
/// As the standard asserts, if `encoding` is replacement, UTF-16BE or UTF-16LE.
///
/// ```
/// let encoder = simdenc::spec::get_an_encoder(simdenc::SHIFT_JIS);
/// assert_eq!(encoder.encoding(), simdenc::SHIFT_JIS);
/// ```
pub fn get_an_encoder(encoding: &'static Encoding) -> Encoder {
    // 1. Assert: encoding is not replacement or UTF-16BE/LE.
    // 2. Return an instance of encoding's encoder.
    Encoder::new(encoding)
        .unwrap_or_else(|| panic!("get an encoder, step 1: {} has no encoder", encoding.name()))
}

/// "Encode or fail" `io_queue` into `output` with `encoder`: encodes in "fatal" mode, pushes
/// end-of-queue to `output`, and returns the value of the code point that could not be
/// encoded, or `None` (null).
///
/// <https://encoding.spec.whatwg.org/#encode-or-fail>
///
/// After an error, call it again with the same `encoder` (whose ISO-2022-JP encoder state
/// matters), the same `io_queue` (which still holds the rest of the input), and a new output
/// queue.
///
/// # Panics
///
/// If `io_queue` has no end-of-queue.
///
/// ```
/// use simdenc::spec::{encode_or_fail, get_an_encoder, IoQueue};
/// let mut encoder = get_an_encoder(simdenc::WINDOWS_1252);
/// let mut input = IoQueue::from_items("a☃b".chars());
/// let mut output = IoQueue::new();
/// assert_eq!(encode_or_fail(&mut input, &mut encoder, &mut output), Some(0x2603));
/// assert_eq!(output.to_vec(), b"a");
/// let mut output = IoQueue::new();
/// assert_eq!(encode_or_fail(&mut input, &mut encoder, &mut output), None);
/// assert_eq!(output.to_vec(), b"b");
/// ```
pub fn encode_or_fail(
    io_queue: &mut IoQueue<char>,
    encoder: &mut Encoder,
    output: &mut IoQueue<u8>,
) -> Option<u32> {
    assert_immediate(io_queue, "encode or fail");
    // 1. Let potentialError be the result of processing a queue with encoder, ioQueue, output,
    //    and "fatal".
    let potential_error = not_blocked(process_queue(encoder, io_queue, output, ErrorMode::Fatal));
    // 2. Push end-of-queue to output.
    output.push(Item::EndOfQueue);
    // 3. If potentialError is an error, then return error's code point's value.
    if let QueueResult::Error(code_point) = potential_error {
        let code_point = code_point.expect("an encoder's error has a code point");
        return Some(u32::from(code_point));
    }
    // 4. Return null.
    None
}

/// "Get an output encoding" from `encoding`: UTF-8 for replacement and UTF-16BE/LE,
/// `encoding` otherwise.
///
/// <https://encoding.spec.whatwg.org/#get-an-output-encoding>
///
/// ```
/// use simdenc::spec::get_an_output_encoding;
/// assert_eq!(get_an_output_encoding(simdenc::UTF_16BE), simdenc::UTF_8);
/// assert_eq!(get_an_output_encoding(simdenc::GBK), simdenc::GBK);
/// ```
pub fn get_an_output_encoding(encoding: &'static Encoding) -> &'static Encoding {
    // 1. If encoding is replacement or UTF-16BE/LE, then return UTF-8.
    if encoding == crate::REPLACEMENT || encoding == crate::UTF_16BE || encoding == crate::UTF_16LE {
        return crate::UTF_8;
    }
    // 2. Return encoding.
    encoding
}

/// [`decode`] over `bytes` (an immediate queue) with fallback encoding `fallback`, collected
/// into a string: BOM sniffing, replacement mode.
///
/// ```
/// let text = simdenc::spec::decode_bytes(b"\xEF\xBB\xBF\xE6\x97\xA5", simdenc::SHIFT_JIS);
/// assert_eq!(text, "日"); // the BOM overrides the fallback
/// ```
pub fn decode_bytes(bytes: &[u8], fallback: &'static Encoding) -> String {
    let mut output = IoQueue::new();
    decode(
        &mut IoQueue::from_items(bytes.iter().copied()),
        fallback,
        &mut output,
    );
    output.to_vec().into_iter().collect()
}

/// [`encode`] of `input` (an immediate queue) with `encoding`, collected into bytes: "html"
/// mode.
///
/// # Panics
///
/// If `encoding` has no encoder (replacement, UTF-16BE, UTF-16LE).
///
/// ```
/// assert_eq!(simdenc::spec::encode_str("a\u{3042}", simdenc::EUC_JP), b"a\xA4\xA2");
/// ```
pub fn encode_str(input: &str, encoding: &'static Encoding) -> Vec<u8> {
    let mut output = IoQueue::new();
    encode(&mut IoQueue::from_items(input.chars()), encoding, &mut output);
    output.to_vec()
}

/// What [`run_decoder`] produced.
///
/// ```
/// use simdenc::spec::{run_decoder, DecodeRun, ErrorMode};
/// let run = run_decoder(simdenc::UTF_8, b"ab\xFFc", ErrorMode::Fatal);
/// assert_eq!(run, DecodeRun { output: "ab".to_owned(), error: Some(3) });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeRun {
    /// Everything pushed to the output queue (before the error, in "fatal" mode).
    pub output: String,
    /// In "fatal" mode, `Some(p)` if the decoder returned an error, when `p` input bytes had
    /// been taken from the input queue net of restores (the position of the queue's head).
    pub error: Option<usize>,
}

/// Runs a fresh instance of `encoding`'s decoder over `bytes` (an immediate queue) with
/// "process a queue" in `mode` ([`ErrorMode::Replacement`] or [`ErrorMode::Fatal`]). No BOM
/// handling: see [`decode_bytes`] for that.
///
/// # Panics
///
/// In [`ErrorMode::Html`], as "process an item" asserts.
///
/// ```
/// use simdenc::spec::{run_decoder, ErrorMode};
/// // The ASCII byte after a bad leading byte is restored, so the error is reported with the
/// // queue's head at that byte.
/// let run = run_decoder(simdenc::EUC_KR, b"\x81 ", ErrorMode::Fatal);
/// assert_eq!((run.output.as_str(), run.error), ("", Some(1)));
/// let run = run_decoder(simdenc::EUC_KR, b"\x81 ", ErrorMode::Replacement);
/// assert_eq!(run.output, "\u{FFFD} ");
/// ```
pub fn run_decoder(encoding: &'static Encoding, bytes: &[u8], mode: ErrorMode) -> DecodeRun {
    let mut decoder = Decoder::new(encoding);
    let mut input = IoQueue::from_items(bytes.iter().copied());
    let mut output = IoQueue::new();
    let result = not_blocked(process_queue(&mut decoder, &mut input, &mut output, mode));
    let error = match result {
        QueueResult::Error(_) => Some(bytes.len() - input.len()),
        _ => None,
    };
    DecodeRun {
        output: output.to_vec().into_iter().collect(),
        error,
    }
}

/// What [`run_encoder`] produced.
///
/// ```
/// use simdenc::spec::{run_encoder, EncodeRun, ErrorMode};
/// let run = run_encoder(simdenc::KOI8_R, "Ж€", ErrorMode::Fatal);
/// assert_eq!(run, EncodeRun { output: vec![0xF6], error: Some(('€', 2)) });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeRun {
    /// Everything pushed to the output queue (before the error, in "fatal" mode).
    pub output: Vec<u8>,
    /// In "fatal" mode, the code point of the error and how many input scalar values had been
    /// taken from the input queue net of restores when it was returned.
    pub error: Option<(char, usize)>,
}

/// Runs a fresh instance of `encoding`'s encoder over `input` (an immediate queue) with
/// "process a queue" in `mode` ([`ErrorMode::Html`] or [`ErrorMode::Fatal`]). The encoder is
/// `encoding`'s own: callers take the output encoding themselves.
///
/// # Panics
///
/// In [`ErrorMode::Replacement`], as "process an item" asserts, and if `encoding` has no
/// encoder.
///
/// ```
/// use simdenc::spec::{run_encoder, ErrorMode};
/// let run = run_encoder(simdenc::ISO_2022_JP, "¥", ErrorMode::Html);
/// assert_eq!(run.output, b"\x1B(J\x5C\x1B(B");
/// ```
pub fn run_encoder(encoding: &'static Encoding, input: &str, mode: ErrorMode) -> EncodeRun {
    let mut encoder = get_an_encoder(encoding);
    let mut queue = IoQueue::from_items(input.chars());
    let mut output = IoQueue::new();
    let result = not_blocked(process_queue(&mut encoder, &mut queue, &mut output, mode));
    let error = match result {
        QueueResult::Error(code_point) => Some((
            code_point.expect("an encoder's error has a code point"),
            input.chars().count() - queue.len(),
        )),
        _ => None,
    };
    EncodeRun {
        output: output.to_vec(),
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::super::index;
    use super::*;

    #[test]
    fn every_encoding_has_a_decoder_and_all_but_three_an_encoder() {
        for &encoding in Encoding::all() {
            assert_eq!(Decoder::new(encoding).encoding(), encoding);
            let has_encoder = Encoder::new(encoding).is_some();
            assert_eq!(
                has_encoder,
                get_an_output_encoding(encoding) == encoding,
                "{encoding:?}"
            );
            if !has_encoder {
                assert!(["replacement", "UTF-16BE", "UTF-16LE"].contains(&encoding.name()));
            }
        }
        assert_eq!(
            Encoding::all()
                .iter()
                .filter(|&&e| index::is_single_byte_encoding(e))
                .count(),
            28
        );
    }

    #[test]
    #[should_panic(expected = "would block")]
    fn hooks_refuse_queues_that_would_block() {
        let mut output = IoQueue::new();
        utf8_decode(&mut IoQueue::new(), &mut output);
    }
}
