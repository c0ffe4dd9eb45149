//! The engine's tuning: input lengths and bounds at which the codecs switch between the
//! vector kernels and their own loops. Each value is chosen by measurement; `docs/decisions.md`
//! has what was tried and the figures.

/// How many input bytes a legacy decode run takes with the codec's own loop where the pair
/// kernels stopped (at a character they leave to the codec: a single byte, a code point
/// below U+0800), before handing the rest back to them. Unbounded, the loop went on to its
/// next stop of its own (an ASCII run), often thousands of bytes on. The bound starts at
/// [`Resume::START`] and doubles, up to [`Resume::MAX`], while the kernels stop again
/// within [`Resume::FAR`] bytes (text dense with such characters, where calling them costs
/// more than it gains); it is back at the start once they run further. A fixed bound lost
/// to the scalar level on such text (`docs/decisions.md`).
#[derive(Clone, Copy)]
pub(super) struct Resume(pub(super) usize);

impl Resume {
    pub(super) const START: usize = 32;
    pub(super) const MAX: usize = 2048;
    pub(super) const FAR: usize = 128;

    /// The bound for the codec's loop after the kernels read `read` bytes.
    #[inline(always)]
    pub(super) fn after(&mut self, read: usize) -> usize {
        self.0 = if read >= Self::FAR {
            Self::START
        } else {
            (self.0 * 2).min(Self::MAX)
        };
        self.0
    }
}

/// The shortest input the vector pair kernels are handed (they finish a short end with a
/// masked block): below it, a gather's latency is more than the codec's loop over the whole
/// input.
pub(super) const PAIRS_MIN: usize = 32;

/// The fewest input code units left (from UTF-16), or bytes left (from UTF-8; three times as
/// many for the CJK encoders, so that they stage about as many units), for which an encode
/// run calls the vector kernels; shorter ends go character by character through the
/// codec's own mapping, which is specialised for its encoding where the kernels' scalar
/// fallback is not.
pub(super) const VECTOR_ENCODE_MIN: usize = 32;

/// The most UTF-16 code units an encode run from UTF-8 converts at a time, where the
/// transcoding kernels are vector kernels: the longer the piece, the less of it the UTF-8 to
/// UTF-16 kernel leaves to its scalar tail, and a run zeroes its stage only once.
pub(super) const ENCODE_STAGE: usize = 1024;

/// How far past a position where the vector encode kernels made no progress (the first
/// character unmappable) an encode run from UTF-8 goes character by character before trying
/// them again: text that is mostly unmappable (Japanese into windows-1251, written as
/// `&#N;`) otherwise stages and looks up a whole block for every character.
pub(super) const KERNEL_BACKOFF: usize = 3 * VECTOR_ENCODE_MIN;

/// The farthest an encode run from UTF-8 backs off after stages that made no progress, one
/// after another (each doubles the distance, carried from one source to the next across
/// unmappable characters): Japanese into windows-1251 at NEON, 142 instructions a byte with a
/// fixed [`KERNEL_BACKOFF`], 121 so (115 without staging).
pub(super) const KERNEL_BACKOFF_MAX: usize = 32 * KERNEL_BACKOFF;

/// Below this many UTF-16 code units left, an encode run into a single-byte encoding takes
/// them in one scalar loop (`encode_runs::single_byte_units`); so does
/// `Encoder::encode_from_utf16` for a whole input this short: a vector kernel's latency is
/// more than this loop's time on fewer units.
pub(crate) const SINGLE_BYTE_UNITS_MIN: usize = 64;

/// Below this many UTF-8 bytes, `Encoder::encode_from_utf8` into a single-byte encoding or
/// a stateless CJK one takes a whole input in one scalar loop
/// (`encode_runs::single_byte_utf8`, `encode_runs::mapped_utf8`), as
/// [`SINGLE_BYTE_UNITS_MIN`] from UTF-16: the general path's set-up (the replacing loop, the
/// source, the family's dispatch) cost 16-byte pieces of Russian into windows-1251 more than
/// the characters (NEON: 33.3 -> 22.2 instructions a byte; 64-byte pieces 19.6 -> 18.2, and
/// 16.8 with 128 here). Not more: the loop takes ASCII a byte at a time (about 7
/// instructions), which the general path's copy kernel beats from about 32 bytes of ASCII
/// on, set-up included.
pub(crate) const SHORT_UTF8_MIN: usize = 64;

/// ASCII code units after the first that an encode run from UTF-16 writes itself before
/// calling the `narrow_ascii` kernel for the rest of the run (punctuation and a space
/// between words cost less inline than a kernel call).
pub(super) const ASCII_INLINE_UNITS: usize = 8;

/// The most code units `Source::encode_non_ascii_run` looks ahead for its end.
pub(super) const NON_ASCII_RUN_MAX: usize = 4096;
