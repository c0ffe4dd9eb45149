//! `simdenc::text` against the standard's API algorithms, transcribed here from the sections
//! "Interface TextDecoder", "Interface TextEncoder", "Interface TextDecoderStream" and
//! "Interface TextEncoderStream" over `simdenc::spec`'s decoders, encoders, I/O queues and
//! "process an item".
//!
//! Header: `[0]` which interface, `[1]` label (an encoding, one of its labels, mangled by
//! the PRNG), `[2]` bit 0 fatal, bit 1 ignoreBOM, `[3]` chunking and buffer styles, `[4..8]`
//! PRNG seed. Payload: the bytes to decode, or the text to encode (as UTF-16 with lone
//! surrogates inserted, for the interfaces that take JavaScript strings).
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdenc::spec::{self, ErrorMode, HandlerResult, IoQueue, Item, ItemResult};
use simdenc::text::{TextDecoder, TextDecoderOptions, TextDecoderStream, TextEncoder, TextEncoderStream};
use simdenc::{Encoding, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE};
use simdenc_fuzz::{
    CANARY_U8, Caps, Input, Rng, assert_tail, chunk_ends, encoding, force_level, is_leading_surrogate,
    is_trailing_surrogate, twice, usv_string, utf16_units,
};

/// The `TextDecoderCommon` state of the standard, with spec's decoder instance and queue.
struct Common {
    encoding: &'static Encoding,
    decoder: spec::Decoder,
    io_queue: IoQueue<u8>,
    ignore_bom: bool,
    bom_seen: bool,
    error_mode: ErrorMode,
}

impl Common {
    fn new(encoding: &'static Encoding, options: TextDecoderOptions, io_queue: IoQueue<u8>) -> Common {
        Common {
            encoding,
            decoder: spec::Decoder::new(encoding),
            io_queue,
            ignore_bom: options.ignore_bom,
            bom_seen: false,
            error_mode: if options.fatal {
                ErrorMode::Fatal
            } else {
                ErrorMode::Replacement
            },
        }
    }

    /// "Serialize I/O queue".
    fn serialize(&mut self, mut io_queue: IoQueue<char>) -> String {
        // 1. Let output be the empty string.
        let mut output = String::new();
        // 2. While true:
        loop {
            // 1. Let item be the result of reading from ioQueue.
            let item = io_queue.read().expect("an output queue ends with end-of-queue");
            // 2. If item is end-of-queue, then return output.
            let Item::Value(item) = item else {
                return output;
            };
            // 3. If decoder's encoding is UTF-8 or UTF-16BE/LE, and decoder's ignore BOM and
            //    BOM seen are false:
            if [UTF_8, UTF_16BE, UTF_16LE].contains(&self.encoding) && !self.ignore_bom && !self.bom_seen {
                // 1. Set decoder's BOM seen to true.
                self.bom_seen = true;
                // 2. If item is U+FEFF BOM, then continue.
                if item == '\u{FEFF}' {
                    continue;
                }
            }
            // 4. Append item to output.
            output.push(item);
        }
    }
}

/// "Get an encoding" and the constructors' step 2 (failure or replacement: RangeError).
fn constructor_encoding(label: &str) -> Option<&'static Encoding> {
    spec::get_an_encoding(label).filter(|&e| e != REPLACEMENT)
}

/// The standard's `TextDecoder`.
struct SpecTextDecoder {
    common: Common,
    do_not_flush: bool,
}

impl SpecTextDecoder {
    fn new(label: &str, options: TextDecoderOptions) -> Option<SpecTextDecoder> {
        let encoding = constructor_encoding(label)?;
        Some(SpecTextDecoder {
            common: Common::new(encoding, options, IoQueue::from_items([])),
            do_not_flush: false,
        })
    }

    /// `decode(input, options)`; `Err(())` is the TypeError.
    fn decode(&mut self, input: &[u8], stream: bool) -> Result<String, ()> {
        let c = &mut self.common;
        // 1. If this's do not flush is false, then set this's decoder to a new instance of
        //    this's encoding's decoder, this's I/O queue to the I/O queue of bytes
        //    « end-of-queue », and this's BOM seen to false.
        if !self.do_not_flush {
            c.decoder = spec::Decoder::new(c.encoding);
            c.io_queue = IoQueue::from_items([]);
            c.bom_seen = false;
        }
        // 2. Set this's do not flush to options["stream"].
        self.do_not_flush = stream;
        // 3. If input is given, then push a copy of input to this's I/O queue.
        c.io_queue.push_items(input.iter().map(|&b| Item::Value(b)));
        // 4. Let output be the I/O queue of scalar values « end-of-queue ».
        let mut output = IoQueue::from_items([]);
        // 5. While true:
        loop {
            // 1. Let item be the result of reading from this's I/O queue.
            let item = c.io_queue.read().expect("the queue ends with end-of-queue");
            // 2. If item is end-of-queue and this's do not flush is true, then return the
            //    result of running serialize I/O queue with this and output.
            if item == Item::EndOfQueue && self.do_not_flush {
                return Ok(c.serialize(output));
            }
            // 3. Otherwise:
            //    1. Let result be the result of processing an item with item, this's decoder,
            //       this's I/O queue, output, and this's error mode.
            let result = spec::process_item(item, &mut c.decoder, &mut c.io_queue, &mut output, c.error_mode);
            match result {
                // 2. If result is finished, then return the result of running serialize I/O
                //    queue with this and output.
                ItemResult::Finished => return Ok(c.serialize(output)),
                // 3. Otherwise, if result is error, throw a TypeError.
                ItemResult::Error(_) => return Err(()),
                ItemResult::Continue => {}
            }
        }
    }
}

/// The standard's `TextDecoderStream`: transform and flush algorithms; an error errors the
/// stream, after which every write and the close are rejected.
struct SpecTextDecoderStream {
    common: Common,
    errored: bool,
}

impl SpecTextDecoderStream {
    fn new(label: &str, options: TextDecoderOptions) -> Option<SpecTextDecoderStream> {
        let encoding = constructor_encoding(label)?;
        // "Set stream's I/O queue to a new I/O queue": a streaming queue, empty, whose read
        // blocks (here: returns None) at the end of what has been pushed.
        Some(SpecTextDecoderStream {
            common: Common::new(encoding, options, IoQueue::new()),
            errored: false,
        })
    }

    /// "Decode and enqueue a chunk" (the chunk enqueued; empty if nothing was).
    fn transform(&mut self, chunk: &[u8]) -> Result<String, ()> {
        if self.errored {
            return Err(());
        }
        let c = &mut self.common;
        // 2. Push a copy of bufferSource to decoder's I/O queue.
        c.io_queue.push_items(chunk.iter().map(|&b| Item::Value(b)));
        // 3. Let output be the I/O queue of scalar values « end-of-queue ».
        let mut output = IoQueue::from_items([]);
        // 4. While true:
        loop {
            // 1. Let item be the result of reading from decoder's I/O queue.
            // 2. If item is end-of-queue (here: the read would wait for the next chunk):
            //    serialize, enqueue if not empty, return.
            let Some(item) = c.io_queue.read() else {
                return Ok(c.serialize(output));
            };
            // 3. Let result be the result of processing an item with item, decoder's decoder,
            //    decoder's I/O queue, output, and decoder's error mode.
            let result = spec::process_item(item, &mut c.decoder, &mut c.io_queue, &mut output, c.error_mode);
            // 4. If result is error, then throw a TypeError.
            if let ItemResult::Error(_) = result {
                self.errored = true;
                return Err(());
            }
        }
    }

    /// "Flush and enqueue" (the end of the input: end-of-queue is pushed to the queue).
    fn flush(&mut self) -> Result<String, ()> {
        if self.errored {
            return Err(());
        }
        let c = &mut self.common;
        c.io_queue.push(Item::EndOfQueue);
        // 1. Let output be the I/O queue of scalar values « end-of-queue ».
        let mut output = IoQueue::from_items([]);
        // 2. While true:
        loop {
            // 1. Let item be the result of reading from decoder's I/O queue.
            let item = c.io_queue.read().expect("end-of-queue was pushed");
            // 2. Let result be the result of processing an item with item, decoder's decoder,
            //    decoder's I/O queue, output, and decoder's error mode.
            let result = spec::process_item(item, &mut c.decoder, &mut c.io_queue, &mut output, c.error_mode);
            match result {
                // 3. If result is finished: serialize, enqueue if not empty, return.
                ItemResult::Finished => return Ok(c.serialize(output)),
                // 4. Otherwise, if result is error, throw a TypeError.
                ItemResult::Error(_) => {
                    self.errored = true;
                    return Err(());
                }
                ItemResult::Continue => {}
            }
        }
    }
}

/// `TextEncoder`'s `encode(input)`: the UTF-8 encoder over the scalar values, "fatal".
fn spec_encode(input: &str) -> Vec<u8> {
    // 1. Convert input to an I/O queue of scalar values.
    let mut input = IoQueue::from_items(input.chars());
    // 2. Let output be the I/O queue of bytes « end-of-queue ».
    let mut output = IoQueue::from_items([]);
    let mut encoder = spec::get_an_encoder(UTF_8);
    // 3. While true:
    loop {
        // 1. Let item be the result of reading from input.
        let item = input.read().expect("an immediate queue");
        // 2. Let result be the result of processing an item with item, an instance of the
        //    UTF-8 encoder, input, output, and "fatal".
        let result = spec::process_item(item, &mut encoder, &mut input, &mut output, ErrorMode::Fatal);
        // 3. Assert: result is not an error.
        assert!(
            !matches!(result, ItemResult::Error(_)),
            "the UTF-8 encoder cannot fail"
        );
        // 4. If result is finished, then return output as a byte sequence.
        if result == ItemResult::Finished {
            return output.to_vec();
        }
    }
}

/// `TextEncoder`'s `encodeInto(source, destination)`: (read, written).
fn spec_encode_into(source: &str, destination: &mut [u8]) -> (usize, usize) {
    // 1.–2. Let read and written be 0.
    let (mut read, mut written) = (0, 0);
    // 3. Let encoder be an instance of the UTF-8 encoder.
    let mut encoder = spec::get_an_encoder(UTF_8);
    // 4. Let unused be the I/O queue of scalar values « end-of-queue ».
    let mut unused = IoQueue::from_items([]);
    // 5. Convert source to an I/O queue of scalar values.
    let mut source = IoQueue::from_items(source.chars());
    // 6. While true:
    loop {
        // 1. Let item be the result of reading from source.
        let item = source.read().expect("an immediate queue");
        // 2. Let result be the result of running encoder's handler on unused and item.
        match encoder.handler(&mut unused, item) {
            // 3. If result is finished, then break.
            HandlerResult::Finished => break,
            // 4. Otherwise:
            HandlerResult::Items(bytes) => {
                // 1. If destination's byte length − written is greater than or equal to the
                //    number of bytes in result:
                if destination.len() - written >= bytes.len() {
                    // 1.–2. Increment read by 2 if item is greater than U+FFFF, else by 1.
                    let Item::Value(c) = item else {
                        unreachable!("end-of-queue gives finished")
                    };
                    read += if u32::from(c) > 0xFFFF { 2 } else { 1 };
                    // 3. Write the bytes in result into destination at written.
                    destination[written..written + bytes.len()].copy_from_slice(&bytes);
                    // 4. Increment written by the number of bytes in result.
                    written += bytes.len();
                } else {
                    // 2. Otherwise, break.
                    break;
                }
            }
            other => panic!("the UTF-8 encoder returned {other:?}"),
        }
    }
    // 7. Return «[ "read" → read, "written" → written ]».
    (read, written)
}

/// The standard's `TextEncoderStream`.
struct SpecTextEncoderStream {
    encoder: spec::Encoder,
    leading_surrogate: Option<u16>,
}

impl SpecTextEncoderStream {
    fn new() -> SpecTextEncoderStream {
        SpecTextEncoderStream {
            encoder: spec::get_an_encoder(UTF_8),
            leading_surrogate: None,
        }
    }

    /// "Encode and enqueue a chunk" of code units: the bytes enqueued (empty if none).
    fn transform(&mut self, chunk: &[u16]) -> Vec<u8> {
        // 2. Convert input to an I/O queue of code units.
        let mut input = IoQueue::from_items(chunk.iter().copied());
        // 3. Let output be the I/O queue of bytes « end-of-queue ».
        let mut output = IoQueue::from_items([]);
        // The UTF-8 encoder never looks at its input queue (it restores nothing); process
        // an item wants one of scalar values.
        let mut unused = IoQueue::from_items([]);
        // 4. While true:
        loop {
            // 1. Let item be the result of reading from input.
            // 2. If item is end-of-queue: convert output into a byte sequence, enqueue it if
            //    it is not empty, return.
            let Item::Value(item) = input.read().expect("an immediate queue") else {
                return output.to_vec();
            };
            // 3. Let result be the result of executing the convert code unit to scalar value
            //    algorithm with encoder, item and input.
            // 4. If result is not continue, then process an item with result, encoder's
            //    encoder, input, output, and "fatal".
            if let Some(c) = self.convert_code_unit_to_scalar_value(item, &mut input) {
                let result = spec::process_item(
                    Item::Value(c),
                    &mut self.encoder,
                    &mut unused,
                    &mut output,
                    ErrorMode::Fatal,
                );
                assert_eq!(result, ItemResult::Continue);
            }
        }
    }

    /// "Convert code unit to scalar value"; `None` is continue.
    fn convert_code_unit_to_scalar_value(&mut self, item: u16, input: &mut IoQueue<u16>) -> Option<char> {
        // 1. If encoder's leading surrogate is non-null:
        if let Some(leading_surrogate) = self.leading_surrogate {
            // 1.–2. Let leadingSurrogate be it; set encoder's leading surrogate to null.
            self.leading_surrogate = None;
            // 3. If item is a trailing surrogate, then return a scalar value from surrogates
            //    given leadingSurrogate and item.
            if is_trailing_surrogate(item) {
                let value =
                    0x10000 + ((u32::from(leading_surrogate) - 0xD800) << 10) + (u32::from(item) - 0xDC00);
                return Some(char::from_u32(value).expect("a surrogate pair is a scalar value"));
            }
            // 4. Restore item to input.
            input.restore(item);
            // 5. Return U+FFFD.
            return Some('\u{FFFD}');
        }
        // 2. If item is a leading surrogate, then set encoder's leading surrogate to item and
        //    return continue.
        if is_leading_surrogate(item) {
            self.leading_surrogate = Some(item);
            return None;
        }
        // 3. If item is a trailing surrogate, then return U+FFFD.
        if is_trailing_surrogate(item) {
            return Some('\u{FFFD}');
        }
        // 4. Return item.
        Some(char::from_u32(u32::from(item)).expect("not a surrogate"))
    }

    /// "Encode and flush".
    fn flush(&mut self) -> Vec<u8> {
        // 1. If encoder's leading surrogate is non-null: enqueue « 0xEF, 0xBF, 0xBD ».
        match self.leading_surrogate {
            Some(_) => vec![0xEF, 0xBF, 0xBD],
            None => Vec::new(),
        }
    }
}

/// A label for `encoding`: one of its labels, with ASCII case changed and whitespace around
/// it (sometimes not ASCII whitespace, or a wrong label).
fn label(rng: &mut Rng, encoding: &'static Encoding) -> String {
    let labels = encoding.labels();
    let base = labels[rng.below(labels.len())];
    let mut label: String = base
        .chars()
        .map(|c| if rng.one_in(3) { c.to_ascii_uppercase() } else { c })
        .collect();
    const SPACE: [&str; 8] = ["", " ", "\t", "\n", "\x0C", "\r", "\x0B", "\u{A0}"];
    if rng.one_in(3) {
        label.insert_str(0, SPACE[rng.below(SPACE.len())]);
    }
    if rng.one_in(3) {
        label.push_str(SPACE[rng.below(SPACE.len())]);
    }
    match rng.below(16) {
        0 => label.push('x'),
        1 => label = label.replace('-', "_"),
        2 => label.clear(),
        _ => {}
    }
    label
}

fn check_decoder(input: &Input<'_>, rng: &mut Rng, label: &str, options: TextDecoderOptions) {
    let bytes = input.payload;
    let expect = SpecTextDecoder::new(label, options);
    let got = TextDecoder::with_options(label, options);
    assert_eq!(
        got.is_ok(),
        expect.is_some(),
        "TextDecoder({label:?}): RangeError"
    );
    let (Ok(mut got), Some(mut expect)) = (got, expect) else {
        return;
    };
    assert_eq!(got.encoding(), expect.common.encoding.name().to_ascii_lowercase());
    assert_eq!(
        (got.fatal(), got.ignore_bom()),
        (options.fatal, options.ignore_bom)
    );
    let ends = chunk_ends(rng, bytes.len(), input.header[3], |e| e);
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        // Mostly streaming, then a final call without; sometimes a non-streaming call in the
        // middle (which ends that decode) or a stream left open.
        let stream = if i + 1 == ends.len() {
            rng.one_in(4)
        } else {
            !rng.one_in(6)
        };
        let chunk = &bytes[start..end];
        start = end;
        let want = expect.decode(chunk, stream);
        let have = got.decode(chunk, stream).map_err(|_| ());
        assert_eq!(
            have, want,
            "TextDecoder({label:?}, {options:?}).decode(chunk {i} = {chunk:02X?}, stream {stream}), chunk ends {ends:?}"
        );
    }
    if rng.one_in(2) {
        assert_eq!(
            got.decode(b"", false).map_err(|_| ()),
            expect.decode(b"", false),
            "TextDecoder({label:?}, {options:?}).decode() at the end, chunk ends {ends:?}"
        );
    }
}

fn check_decoder_stream(input: &Input<'_>, rng: &mut Rng, label: &str, options: TextDecoderOptions) {
    let bytes = input.payload;
    let expect = SpecTextDecoderStream::new(label, options);
    let got = TextDecoderStream::with_options(label, options);
    assert_eq!(
        got.is_ok(),
        expect.is_some(),
        "TextDecoderStream({label:?}): RangeError"
    );
    let (Ok(mut got), Some(mut expect)) = (got, expect) else {
        return;
    };
    assert_eq!(got.encoding(), expect.common.encoding.name().to_ascii_lowercase());
    let ends = chunk_ends(rng, bytes.len(), input.header[3], |e| e);
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        let chunk = &bytes[start..end];
        start = end;
        assert_eq!(
            got.transform(chunk).map_err(|_| ()),
            expect.transform(chunk),
            "TextDecoderStream({label:?}, {options:?}) chunk {i} = {chunk:02X?}, chunk ends {ends:?}"
        );
    }
    assert_eq!(
        got.flush().map_err(|_| ()),
        expect.flush(),
        "TextDecoderStream({label:?}, {options:?}) flush, chunk ends {ends:?}"
    );
}

fn check_encoder(input: &Input<'_>, rng: &mut Rng) {
    let encoder = TextEncoder::new();
    assert_eq!(encoder.encoding(), "utf-8");
    let text = String::from_utf8_lossy(input.payload).into_owned();
    assert_eq!(encoder.encode(&text), spec_encode(&text), "encode({text:?})");
    let units = utf16_units(rng, input.payload, input.header[2] & 4 != 0);
    let usv = usv_string(&units);
    assert_eq!(
        encoder.encode_utf16(&units),
        spec_encode(&usv),
        "encode({units:04X?})"
    );
    let mut caps = Caps::new(input.header[3]);
    for utf16 in [false, true] {
        let len = if utf16 { usv.len() } else { text.len() };
        let cap = caps.next(rng, len + 4);
        let mut want = vec![0u8; cap];
        let (read, written) = spec_encode_into(if utf16 { &usv } else { &text }, &mut want);
        let got = twice("encodeInto", |canary| {
            let mut buf = vec![CANARY_U8[canary]; cap];
            let r = if utf16 {
                encoder.encode_into_utf16(&units, &mut buf)
            } else {
                encoder.encode_into(&text, &mut buf)
            };
            assert_tail(&buf, r.written, CANARY_U8[canary], "encodeInto");
            (r.read, r.written, buf[..r.written].to_vec())
        });
        assert_eq!(
            got,
            (read, written, want[..written].to_vec()),
            "encodeInto(utf16 {utf16}) into {cap} bytes"
        );
    }
}

fn check_encoder_stream(input: &Input<'_>, rng: &mut Rng) {
    let units = utf16_units(rng, input.payload, input.header[2] & 4 != 0);
    // Chunks anywhere, surrogate pairs split too: the stream puts them back together.
    let ends = chunk_ends(rng, units.len(), input.header[3], |e| e);
    let mut got = TextEncoderStream::new();
    assert_eq!(got.encoding(), "utf-8");
    let mut expect = SpecTextEncoderStream::new();
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        let chunk = &units[start..end];
        start = end;
        let want = expect.transform(chunk);
        // A chunk without unpaired surrogates may also be given as &str.
        let have = match String::from_utf16(chunk) {
            Ok(text) if rng.one_in(2) => got.transform_str(&text),
            _ => got.transform(chunk),
        };
        assert_eq!(
            have, want,
            "TextEncoderStream chunk {i} = {chunk:04X?}, chunk ends {ends:?}"
        );
    }
    assert_eq!(
        got.flush(),
        expect.flush(),
        "TextEncoderStream flush, chunk ends {ends:?}"
    );
}

fn check(data: &[u8]) {
    let input = Input::parse(data);
    let h = input.header;
    force_level(h[1] >> 6);
    let mut rng = input.rng();
    let options = TextDecoderOptions {
        fatal: h[2] & 1 != 0,
        ignore_bom: h[2] & 2 != 0,
    };
    let label = label(&mut rng, encoding(h[1]));
    match h[0] % 4 {
        0 => check_decoder(&input, &mut rng, &label, options),
        1 => check_decoder_stream(&input, &mut rng, &label, options),
        2 => check_encoder(&input, &mut rng),
        _ => check_encoder_stream(&input, &mut rng),
    }
}

fuzz_target!(|data: &[u8]| check(data));
