//! [`Decoder`] and [`Encoder`]: an instance of an encoding's decoder or encoder, dispatching
//! on the encoding's name to the handler of the standard's section for it.

use super::big5::{Big5Decoder, Big5Encoder};
use super::euc_jp::{EucJpDecoder, EucJpEncoder};
use super::euc_kr::{EucKrDecoder, EucKrEncoder};
use super::gb18030::{Gb18030Decoder, Gb18030Encoder};
use super::iso_2022_jp::{Iso2022JpDecoder, Iso2022JpEncoder};
use super::replacement::ReplacementDecoder;
use super::shift_jis::{ShiftJisDecoder, ShiftJisEncoder};
use super::single_byte::{SingleByteDecoder, SingleByteEncoder};
use super::utf_8::{Utf8Decoder, Utf8Encoder};
use super::utf_16::Utf16Decoder;
use super::x_user_defined::{XUserDefinedDecoder, XUserDefinedEncoder};
use super::{Handler, HandlerResult, IoQueue, Item, index};
use crate::Encoding;

/// An instance of an encoding's decoder: the handler and all its state.
///
/// <https://encoding.spec.whatwg.org/#decoder>
///
/// ```
/// use simdenc::spec::{Decoder, HandlerResult, IoQueue, Item};
/// let mut decoder = Decoder::new(simdenc::SHIFT_JIS);
/// let mut queue = IoQueue::from_items([0x82u8, 0xA0]);
/// let first = queue.read().unwrap();
/// assert_eq!(decoder.handler(&mut queue, first), HandlerResult::Continue);
/// let second = queue.read().unwrap();
/// assert_eq!(decoder.handler(&mut queue, second), HandlerResult::Items(vec!['あ']));
/// assert_eq!(decoder.handler(&mut queue, Item::EndOfQueue), HandlerResult::Finished);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoder {
    encoding: &'static Encoding,
    instance: DecoderInstance,
}

/// The decoder of each section of the standard.
#[derive(Clone, Debug, PartialEq, Eq)]
enum DecoderInstance {
    Utf8(Utf8Decoder),
    SingleByte(SingleByteDecoder),
    Gb18030(Gb18030Decoder),
    Big5(Big5Decoder),
    EucJp(EucJpDecoder),
    Iso2022Jp(Iso2022JpDecoder),
    ShiftJis(ShiftJisDecoder),
    EucKr(EucKrDecoder),
    Replacement(ReplacementDecoder),
    Utf16(Utf16Decoder),
    XUserDefined(XUserDefinedDecoder),
}

impl Decoder {
    /// A new instance of `encoding`'s decoder, in its initial state.
    ///
    /// ```
    /// let decoder = simdenc::spec::Decoder::new(simdenc::GBK);
    /// assert_eq!(decoder.encoding(), simdenc::GBK);
    /// ```
    pub fn new(encoding: &'static Encoding) -> Decoder {
        let instance = match encoding.name() {
            "UTF-8" => DecoderInstance::Utf8(Utf8Decoder::new()),
            // GBK's decoder is gb18030's decoder.
            "GBK" | "gb18030" => DecoderInstance::Gb18030(Gb18030Decoder::new()),
            "Big5" => DecoderInstance::Big5(Big5Decoder::new()),
            "EUC-JP" => DecoderInstance::EucJp(EucJpDecoder::new()),
            "ISO-2022-JP" => DecoderInstance::Iso2022Jp(Iso2022JpDecoder::new()),
            "Shift_JIS" => DecoderInstance::ShiftJis(ShiftJisDecoder::new()),
            "EUC-KR" => DecoderInstance::EucKr(EucKrDecoder::new()),
            "replacement" => DecoderInstance::Replacement(ReplacementDecoder::new()),
            // UTF-16BE's decoder is shared UTF-16 decoder with its is UTF-16BE decoder set to
            // true; UTF-16LE's decoder is shared UTF-16 decoder.
            "UTF-16BE" => DecoderInstance::Utf16(Utf16Decoder::new(true)),
            "UTF-16LE" => DecoderInstance::Utf16(Utf16Decoder::new(false)),
            "x-user-defined" => DecoderInstance::XUserDefined(XUserDefinedDecoder),
            name => {
                assert!(
                    index::is_single_byte_encoding(encoding),
                    "no decoder for encoding {name}"
                );
                DecoderInstance::SingleByte(SingleByteDecoder::new(encoding))
            }
        };
        Decoder { encoding, instance }
    }

    /// The encoding this is a decoder of.
    ///
    /// ```
    /// let decoder = simdenc::spec::Decoder::new(simdenc::UTF_16LE);
    /// assert_eq!(decoder.encoding().name(), "UTF-16LE");
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Runs the decoder's handler on `input` (the queue `item` was read from, to which the
    /// handler may restore bytes) and `item`.
    ///
    /// <https://encoding.spec.whatwg.org/#handler>
    ///
    /// ```
    /// use simdenc::spec::{Decoder, HandlerResult, IoQueue, Item};
    /// let mut decoder = Decoder::new(simdenc::UTF_8);
    /// let mut queue = IoQueue::from_items([0x41u8]);
    /// assert_eq!(decoder.handler(&mut queue, Item::Value(0xFF)), HandlerResult::Error(None));
    /// ```
    pub fn handler(&mut self, input: &mut IoQueue<u8>, item: Item<u8>) -> HandlerResult<char> {
        match &mut self.instance {
            DecoderInstance::Utf8(decoder) => decoder.handler(input, item),
            DecoderInstance::SingleByte(decoder) => decoder.handler(input, item),
            DecoderInstance::Gb18030(decoder) => decoder.handler(input, item),
            DecoderInstance::Big5(decoder) => decoder.handler(input, item),
            DecoderInstance::EucJp(decoder) => decoder.handler(input, item),
            DecoderInstance::Iso2022Jp(decoder) => decoder.handler(input, item),
            DecoderInstance::ShiftJis(decoder) => decoder.handler(input, item),
            DecoderInstance::EucKr(decoder) => decoder.handler(input, item),
            DecoderInstance::Replacement(decoder) => decoder.handler(input, item),
            DecoderInstance::Utf16(decoder) => decoder.handler(input, item),
            DecoderInstance::XUserDefined(decoder) => decoder.handler(input, item),
        }
    }
}

impl Handler for Decoder {
    type Input = u8;
    type Output = char;
    const IS_ENCODER: bool = false;

    fn handler(&mut self, input: &mut IoQueue<u8>, item: Item<u8>) -> HandlerResult<char> {
        Decoder::handler(self, input, item)
    }
}

/// An instance of an encoding's encoder: the handler and its state (ISO-2022-JP encoder
/// state; is GBK).
///
/// <https://encoding.spec.whatwg.org/#encoder>
///
/// ```
/// use simdenc::spec::{Encoder, HandlerResult, IoQueue, Item};
/// let mut encoder = Encoder::new(simdenc::GBK).unwrap();
/// let mut queue = IoQueue::from_items([]);
/// assert_eq!(encoder.handler(&mut queue, Item::Value('€')), HandlerResult::Items(vec![0x80]));
/// assert!(Encoder::new(simdenc::UTF_16BE).is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoder {
    encoding: &'static Encoding,
    instance: EncoderInstance,
}

/// The encoder of each section of the standard.
#[derive(Clone, Debug, PartialEq, Eq)]
enum EncoderInstance {
    Utf8(Utf8Encoder),
    SingleByte(SingleByteEncoder),
    Gb18030(Gb18030Encoder),
    Big5(Big5Encoder),
    EucJp(EucJpEncoder),
    Iso2022Jp(Iso2022JpEncoder),
    ShiftJis(ShiftJisEncoder),
    EucKr(EucKrEncoder),
    XUserDefined(XUserDefinedEncoder),
}

impl Encoder {
    /// A new instance of `encoding`'s encoder, or `None` for the encodings without one
    /// (replacement, UTF-16BE and UTF-16LE).
    ///
    /// ```
    /// use simdenc::spec::Encoder;
    /// assert!(Encoder::new(simdenc::ISO_2022_JP).is_some());
    /// assert!(Encoder::new(simdenc::REPLACEMENT).is_none());
    /// ```
    pub fn new(encoding: &'static Encoding) -> Option<Encoder> {
        let instance = match encoding.name() {
            // "The replacement and UTF-16BE/LE encodings have no encoder."
            "replacement" | "UTF-16BE" | "UTF-16LE" => return None,
            "UTF-8" => EncoderInstance::Utf8(Utf8Encoder),
            // GBK's encoder is gb18030's encoder with its is GBK set to true.
            "GBK" => EncoderInstance::Gb18030(Gb18030Encoder::new(true)),
            "gb18030" => EncoderInstance::Gb18030(Gb18030Encoder::new(false)),
            "Big5" => EncoderInstance::Big5(Big5Encoder),
            "EUC-JP" => EncoderInstance::EucJp(EucJpEncoder),
            "ISO-2022-JP" => EncoderInstance::Iso2022Jp(Iso2022JpEncoder::new()),
            "Shift_JIS" => EncoderInstance::ShiftJis(ShiftJisEncoder),
            "EUC-KR" => EncoderInstance::EucKr(EucKrEncoder),
            "x-user-defined" => EncoderInstance::XUserDefined(XUserDefinedEncoder),
            name => {
                assert!(
                    index::is_single_byte_encoding(encoding),
                    "no encoder for encoding {name}"
                );
                EncoderInstance::SingleByte(SingleByteEncoder::new(encoding))
            }
        };
        Some(Encoder { encoding, instance })
    }

    /// The encoding this is an encoder of.
    ///
    /// ```
    /// let encoder = simdenc::spec::Encoder::new(simdenc::BIG5).unwrap();
    /// assert_eq!(encoder.encoding(), simdenc::BIG5);
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Runs the encoder's handler on `input` (the queue `item` was read from, to which the
    /// ISO-2022-JP encoder restores code points) and `item`.
    ///
    /// <https://encoding.spec.whatwg.org/#handler>
    ///
    /// ```
    /// use simdenc::spec::{Encoder, HandlerResult, IoQueue, Item};
    /// let mut encoder = Encoder::new(simdenc::WINDOWS_1252).unwrap();
    /// let mut queue = IoQueue::from_items([]);
    /// assert_eq!(encoder.handler(&mut queue, Item::Value('é')), HandlerResult::Items(vec![0xE9]));
    /// assert_eq!(encoder.handler(&mut queue, Item::Value('あ')), HandlerResult::Error(Some('あ')));
    /// ```
    pub fn handler(&mut self, input: &mut IoQueue<char>, item: Item<char>) -> HandlerResult<u8> {
        match &mut self.instance {
            EncoderInstance::Utf8(encoder) => encoder.handler(input, item),
            EncoderInstance::SingleByte(encoder) => encoder.handler(input, item),
            EncoderInstance::Gb18030(encoder) => encoder.handler(input, item),
            EncoderInstance::Big5(encoder) => encoder.handler(input, item),
            EncoderInstance::EucJp(encoder) => encoder.handler(input, item),
            EncoderInstance::Iso2022Jp(encoder) => encoder.handler(input, item),
            EncoderInstance::ShiftJis(encoder) => encoder.handler(input, item),
            EncoderInstance::EucKr(encoder) => encoder.handler(input, item),
            EncoderInstance::XUserDefined(encoder) => encoder.handler(input, item),
        }
    }
}

impl Handler for Encoder {
    type Input = char;
    type Output = u8;
    const IS_ENCODER: bool = true;

    fn handler(&mut self, input: &mut IoQueue<char>, item: Item<char>) -> HandlerResult<u8> {
        Encoder::handler(self, input, item)
    }
}
