//! The executable standard: the [WHATWG Encoding Standard](https://encoding.spec.whatwg.org/)'s
//! algorithms, transcribed literally.
//!
//! Every decoder and encoder handler is written step by step from the standard's text (the
//! revision vendored in `tables/whatwg/`), with the step numbers as comments and the standard's
//! variable names, over the standard's [I/O queue](IoQueue) with its "restore" operation, and
//! driven by ["process a queue"](process_queue) and ["process an item"](process_item) with
//! the standard's [error modes](ErrorMode). The hooks for other standards ([`decode`],
//! [`utf8_decode`], [`encode`], [`encode_or_fail`], [`get_an_encoding`], …) are here too,
//! under the standard's names, and so are the [indexes](index) and their algorithms.
//!
//! It is slow and obviously right: nothing is optimised, nothing is shared with the fast
//! engine. It is **the reference an implementation is tested against**, byte for byte:
//! simdenc's own engine is, and anyone can test theirs, with the convenience runners
//! [`run_decoder`], [`run_encoder`] and [`decode_bytes`].
//!
//! ```
//! use simdenc::spec::{self, ErrorMode};
//! use simdenc::SHIFT_JIS;
//!
//! // An implementation to check: here, a (wrong) one that turns every byte into a char.
//! fn my_decode(bytes: &[u8]) -> String {
//!     bytes.iter().map(|&b| char::from(b)).collect()
//! }
//! for input in [&b"plain ASCII"[..], b"\x82\xA0", b"\x82\x22"] {
//!     let reference = spec::run_decoder(SHIFT_JIS, input, ErrorMode::Replacement);
//!     let agrees = my_decode(input) == reference.output;
//!     assert_eq!(agrees, input.is_ascii());
//! }
//! // The standard's own example: 0x82 0x22 must not "mask" the quotation mark.
//! assert_eq!(spec::decode_bytes(b"\x82\x22", SHIFT_JIS), "\u{FFFD}\"");
//! ```
//!
//! # Dependencies and invariants
//!
//! - `spec` depends on nothing but `std` (it requires the `std` feature, a default one), the
//!   [`Encoding`](crate::Encoding) statics (by name) and the vendored data files, which
//!   [`index`] and [`get_an_encoding`] parse themselves. It never uses the generated
//!   `crate::tables` nor [`Encoding::for_label`](crate::Encoding::for_label), so that a
//!   generator bug cannot hide behind it. Nothing outside tests depends on `spec`.
//! - Decoder output items are `char`, so the standard's assertion that a decoder produces no
//!   surrogates holds by construction (a handler computes a code point as `u32` and converts
//!   it with a panic naming the step); encoder input items are `char`, so "process an item"'s
//!   assertion that an encoder gets no surrogate holds by construction too.
//! - Arithmetic is done in `u32` (the standard asks for at least 21 bits).
//! - The standard's I/O queues may block, waiting for more input. Here, where a read would
//!   wait, [`IoQueue::read`] returns `None` and [`process_queue`] returns
//!   [`QueueResult::Blocked`]; push more items and call it again with the same instance to
//!   resume exactly where the standard would have. The hooks require input queues that end
//!   with end-of-queue.
#![forbid(unsafe_code)]

mod big5;
mod coders;
mod euc_jp;
mod euc_kr;
mod gb18030;
mod hooks;
pub mod index;
mod io_queue;
mod iso_2022_jp;
mod labels;
mod replacement;
mod shift_jis;
mod single_byte;
mod utf_16;
mod utf_8;
mod x_user_defined;

pub use self::coders::{Decoder, Encoder};
pub use self::hooks::{
    DecodeRun, EncodeRun, Failure, bom_sniff, decode, decode_bytes, encode, encode_or_fail, encode_str,
    get_an_encoder, get_an_output_encoding, run_decoder, run_encoder, utf8_decode, utf8_decode_without_bom,
    utf8_decode_without_bom_or_fail, utf8_encode,
};
pub use self::io_queue::{IoQueue, Item};
pub use self::labels::get_an_encoding;

/// The code points of gb18030's encoder's step 5 table and the two bytes each encodes to (the
/// 18 rows kept for compatibility with GB18030-2005).
///
/// <https://encoding.spec.whatwg.org/#gb18030-encoder>
///
/// ```
/// use simdenc::spec::GB18030_ENCODER_TABLE;
/// assert_eq!(GB18030_ENCODER_TABLE[0], ('\u{E78D}', [0xA6, 0xD9]));
/// assert_eq!(GB18030_ENCODER_TABLE.len(), 18);
/// ```
pub const GB18030_ENCODER_TABLE: [(char, [u8; 2]); 18] = gb18030::GB18030_ENCODER_TABLE;

/// An error mode: "replacement" or "fatal" for a decoder, "fatal" or "html" for an encoder.
///
/// <https://encoding.spec.whatwg.org/#error-mode>
///
/// ```
/// use simdenc::spec::{run_encoder, ErrorMode};
/// let html = run_encoder(simdenc::WINDOWS_1252, "😀", ErrorMode::Html);
/// assert_eq!(html.output, b"&#128512;");
/// let fatal = run_encoder(simdenc::WINDOWS_1252, "😀", ErrorMode::Fatal);
/// assert_eq!(fatal.error, Some(('😀', 1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorMode {
    /// "replacement" (decoders only): an error pushes U+FFFD to the output.
    Replacement,
    /// "fatal": an error ends the processing and is returned.
    Fatal,
    /// "html" (encoders only): an error pushes `&#`, the code point in decimal, and `;`.
    Html,
}

/// What a handler returns: finished, one or more items, error (optionally with a code point),
/// or continue.
///
/// <https://encoding.spec.whatwg.org/#handler>
///
/// ```
/// use simdenc::spec::{Decoder, HandlerResult, IoQueue, Item};
/// let mut decoder = Decoder::new(simdenc::BIG5);
/// let mut queue = IoQueue::from_items([]);
/// assert_eq!(decoder.handler(&mut queue, Item::Value(0x88)), HandlerResult::Continue);
/// assert_eq!(
///     decoder.handler(&mut queue, Item::Value(0x62)),
///     HandlerResult::Items(vec!['\u{CA}', '\u{304}'])
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandlerResult<T> {
    /// finished: the end of the input was reached and handled.
    Finished,
    /// One or more items, in order (never empty).
    Items(Vec<T>),
    /// error: decoders give no code point, encoders the one they could not encode (the
    /// ISO-2022-JP encoder gives U+FFFD for U+000E, U+000F and U+001B).
    Error(Option<char>),
    /// continue: the item was consumed into the handler's state.
    Continue,
}

/// An encoding's decoder or encoder instance, as "process a queue" and "process an item"
/// take it: [`Decoder`] or [`Encoder`].
///
/// ```
/// use simdenc::spec::{Decoder, Encoder, Handler};
/// assert!(!<Decoder as Handler>::IS_ENCODER);
/// assert!(<Encoder as Handler>::IS_ENCODER);
/// ```
pub trait Handler {
    /// The items of the input queue: bytes for a decoder, scalar values for an encoder.
    type Input: Copy;
    /// The items of the output queue: scalar values for a decoder, bytes for an encoder.
    type Output: OutputItem;
    /// Whether this is an encoder instance (as opposed to a decoder instance).
    const IS_ENCODER: bool;
    /// Runs the handler on `input` and `item`.
    ///
    /// <https://encoding.spec.whatwg.org/#handler>
    ///
    /// ```
    /// use simdenc::spec::{Encoder, Handler, HandlerResult, IoQueue, Item};
    /// fn finish<H: Handler>(instance: &mut H) -> HandlerResult<H::Output> {
    ///     instance.handler(&mut IoQueue::from_items([]), Item::EndOfQueue)
    /// }
    /// let mut encoder = Encoder::new(simdenc::UTF_8).unwrap();
    /// assert_eq!(finish(&mut encoder), HandlerResult::Finished);
    /// ```
    fn handler(
        &mut self,
        input: &mut IoQueue<Self::Input>,
        item: Item<Self::Input>,
    ) -> HandlerResult<Self::Output>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for char {}
    impl Sealed for u8 {}
}

/// The item type of an output queue: `char` (a scalar value, decoders) or `u8` (a byte,
/// encoders). Sealed.
///
/// Gives "process an item" the items its error modes push.
///
/// ```
/// use simdenc::spec::OutputItem;
/// assert_eq!(char::replacement_character(), Some('\u{FFFD}'));
/// assert_eq!(u8::ascii_byte(b'&'), Some(0x26));
/// assert_eq!(u8::replacement_character(), None);
/// ```
pub trait OutputItem: Copy + sealed::Sealed {
    /// U+FFFD (�), what "replacement" mode pushes, if this is the scalar value type.
    fn replacement_character() -> Option<Self>;
    /// The byte `byte`, what "html" mode pushes, if this is the byte type.
    fn ascii_byte(byte: u8) -> Option<Self>;
}

impl OutputItem for char {
    fn replacement_character() -> Option<char> {
        Some('\u{FFFD}')
    }
    fn ascii_byte(_: u8) -> Option<char> {
        None
    }
}

impl OutputItem for u8 {
    fn replacement_character() -> Option<u8> {
        None
    }
    fn ascii_byte(byte: u8) -> Option<u8> {
        Some(byte)
    }
}

/// What ["process an item"](process_item) returns: finished, an error (in "fatal" mode), or
/// continue.
///
/// ```
/// use simdenc::spec::{process_item, Decoder, ErrorMode, IoQueue, Item, ItemResult};
/// let mut decoder = Decoder::new(simdenc::UTF_8);
/// let (mut input, mut output) = (IoQueue::new(), IoQueue::new());
/// let result = process_item(Item::Value(0xFF), &mut decoder, &mut input, &mut output, ErrorMode::Fatal);
/// assert_eq!(result, ItemResult::Error(None));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemResult {
    /// The handler returned finished; end-of-queue was pushed to the output.
    Finished,
    /// The handler returned an error and the mode is "fatal".
    Error(Option<char>),
    /// Anything else: processing goes on.
    Continue,
}

/// What ["process a queue"](process_queue) returns: finished or an error (in "fatal" mode), as
/// in the standard, or, for a streaming queue, that the standard would block reading.
///
/// ```
/// use simdenc::spec::{process_queue, Decoder, ErrorMode, IoQueue, Item, QueueResult};
/// let mut decoder = Decoder::new(simdenc::UTF_8);
/// let (mut input, mut output) = (IoQueue::new(), IoQueue::new());
/// input.push(Item::Value(0xE3));
/// assert_eq!(process_queue(&mut decoder, &mut input, &mut output, ErrorMode::Replacement), QueueResult::Blocked);
/// input.push_items([Item::Value(0x81), Item::Value(0x82), Item::EndOfQueue]);
/// assert_eq!(process_queue(&mut decoder, &mut input, &mut output, ErrorMode::Replacement), QueueResult::Finished);
/// assert_eq!(output.to_vec(), ['あ']);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueResult {
    /// finished: the handler saw end-of-queue; end-of-queue was pushed to the output.
    Finished,
    /// error, returned in "fatal" mode, with the encoder's code point if any.
    Error(Option<char>),
    /// The input queue is empty and has no end-of-queue: the standard's read would wait here.
    /// Push more items (or end-of-queue) and call again with the same instance.
    Blocked,
}

/// "Process a queue" given an encoder or decoder instance, an input and an output I/O queue,
/// and an error mode.
///
/// <https://encoding.spec.whatwg.org/#concept-encoding-run>
///
/// Returns [`QueueResult::Blocked`] where the standard's read would wait (see
/// [`QueueResult`]).
///
/// ```
/// use simdenc::spec::{process_queue, Encoder, ErrorMode, IoQueue, QueueResult};
/// let mut encoder = Encoder::new(simdenc::EUC_KR).unwrap();
/// let mut input = IoQueue::from_items("가a".chars());
/// let mut output = IoQueue::new();
/// let result = process_queue(&mut encoder, &mut input, &mut output, ErrorMode::Fatal);
/// assert_eq!(result, QueueResult::Finished);
/// assert_eq!(output.to_vec(), [0xB0, 0xA1, b'a']);
/// ```
pub fn process_queue<H: Handler>(
    encoder_decoder: &mut H,
    input: &mut IoQueue<H::Input>,
    output: &mut IoQueue<H::Output>,
    mode: ErrorMode,
) -> QueueResult {
    // 1. While true:
    loop {
        // 1. Let result be the result of processing an item with the result of reading from
        //    input, encoderDecoder, input, output, and mode.
        let Some(item) = input.read() else {
            return QueueResult::Blocked;
        };
        let result = process_item(item, encoder_decoder, input, output, mode);
        // 2. If result is not continue, then return result.
        match result {
            ItemResult::Continue => {}
            ItemResult::Finished => return QueueResult::Finished,
            ItemResult::Error(code_point) => return QueueResult::Error(code_point),
        }
    }
}

/// "Process an item" given an item, an encoder or decoder instance, an input and an output
/// I/O queue, and an error mode.
///
/// <https://encoding.spec.whatwg.org/#concept-encoding-process>
///
/// # Panics
///
/// As the standard asserts: for an encoder in "replacement" mode and a decoder in "html" mode.
///
/// ```
/// use simdenc::spec::{process_item, Encoder, ErrorMode, IoQueue, Item, ItemResult};
/// let mut encoder = Encoder::new(simdenc::ISO_8859_2).unwrap();
/// let (mut input, mut output) = (IoQueue::new(), IoQueue::new());
/// let result = process_item(Item::Value('€'), &mut encoder, &mut input, &mut output, ErrorMode::Html);
/// assert_eq!(result, ItemResult::Continue);
/// assert_eq!(output.to_vec(), b"&#8364;");
/// ```
pub fn process_item<H: Handler>(
    item: Item<H::Input>,
    encoder_decoder: &mut H,
    input: &mut IoQueue<H::Input>,
    output: &mut IoQueue<H::Output>,
    mode: ErrorMode,
) -> ItemResult {
    // 1. Assert: encoderDecoder is not an encoder instance or mode is not "replacement".
    assert!(
        !H::IS_ENCODER || mode != ErrorMode::Replacement,
        "process an item, step 1: an encoder in \"replacement\" mode"
    );
    // 2. Assert: encoderDecoder is not a decoder instance or mode is not "html".
    assert!(
        H::IS_ENCODER || mode != ErrorMode::Html,
        "process an item, step 2: a decoder in \"html\" mode"
    );
    // 3. Assert: encoderDecoder is not an encoder instance or item is not a surrogate.
    //    (Structural: an encoder's items are `char`.)
    // 4. Let result be the result of running encoderDecoder's handler on input and item.
    let result = encoder_decoder.handler(input, item);
    match result {
        // 5. If result is finished:
        HandlerResult::Finished => {
            // 1. Push end-of-queue to output.
            output.push(Item::EndOfQueue);
            // 2. Return result.
            return ItemResult::Finished;
        }
        // 6. Otherwise, if result is one or more items:
        HandlerResult::Items(items) => {
            assert!(!items.is_empty(), "a handler returned zero items");
            // 1. Assert: encoderDecoder is not a decoder instance or result does not contain
            //    any surrogates. (Structural: a decoder's items are `char`.)
            // 2. Push result to output.
            output.push_items(items.into_iter().map(Item::Value));
        }
        // 7. Otherwise, if result is an error, switch on mode and run the associated steps:
        HandlerResult::Error(code_point) => {
            match mode {
                // "replacement": Push U+FFFD (�) to output.
                ErrorMode::Replacement => output
                    .push(Item::Value(H::Output::replacement_character().expect(
                        "step 1 asserted that this is a decoder, whose output is scalar values",
                    ))),
                // "html": Push 0x26 (&), 0x23 (#), followed by the shortest sequence of 0x30 (0) to
                // 0x39 (9), inclusive, representing result's code point's value in base ten,
                // followed by 0x3B (;) to output.
                ErrorMode::Html => {
                    let code_point = code_point.expect("an encoder's error has a code point");
                    let html = format!("&#{};", u32::from(code_point));
                    output.push_items(html.bytes().map(|byte| {
                        Item::Value(
                            H::Output::ascii_byte(byte)
                                .expect("step 2 asserted that this is an encoder, whose output is bytes"),
                        )
                    }));
                }
                // "fatal": Return result.
                ErrorMode::Fatal => return ItemResult::Error(code_point),
            }
        }
        HandlerResult::Continue => {}
    }
    // 8. Return continue.
    ItemResult::Continue
}

/// "A code point whose value is `value`", which a decoder's `step` computed: a scalar value,
/// as the standard asserts of every decoder's output.
fn scalar_value(value: u32, step: &str) -> char {
    char::from_u32(value).unwrap_or_else(|| panic!("{step}: {value:#X} is not a scalar value"))
}

/// "A byte whose value is `value`", which the encoder step computing it keeps below 0x100.
fn byte(value: u32) -> u8 {
    u8::try_from(value).unwrap_or_else(|_| panic!("{value:#X} is not a byte"))
}
