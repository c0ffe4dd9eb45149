//! The engine's tuning: input lengths and bounds at which the codecs switch between the
//! vector kernels and their own loops. Each value is chosen by measurement; `docs/decisions.md`
//! has what was tried and the figures.

/// How many input bytes a legacy decode run takes with the codec's own loop where the pair
/// kernels stopped (at a character they leave to the codec: a single byte, a code point
/// below U+0800), before handing the rest back to them. Unbounded, the loop went on to its
/// next stop of its own (an ASCII run), often thousands of bytes on. The bound starts at
/// [`Resume::START`] and doubles, up to [`Resume::MAX`], while the kernels stop again
/// within [`Resume::FAR`] bytes (text dense with such characters, where calling them costs
/// more than it gains); it is back at the start once they run further.
///
/// Measured with an ad-hoc timing loop (`decode_to_utf8`/`decode_to_utf16` of
/// `data/corpus/wikipedia/ja.txt` with 'α' or 'ｱ' inserted after every n-th character,
/// Shift_JIS and EUC-JP, AVX2 against scalar in the same run, 2026-11-23): n = 3 to 40,
/// 0.5 to 0.8 times the scalar level with a fixed bound of 32 bytes, 0.85 to 1.1 times with
/// this one; n = 200, 1.6 -> 2.1 times; the text as it is, unchanged (2.2 times).
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
/// masked block). From 8 bytes, 16-byte Shift_JIS inputs measured 0.46 times encoding_rs
/// against 0.8 from 32 (a gather's latency is more than the whole scalar decode of 16
/// bytes; `simdenc bench --filter small16 --level avx512`, 2026-11-23).
pub(super) const PAIRS_MIN: usize = 32;

/// The fewest input code units left (from UTF-16), or bytes left (from UTF-8; three times as
/// many for the CJK encoders, so that they stage about as many units), for which an encode
/// run calls the vector kernels; shorter ends go character by character through the codec's own mapping, which is
/// specialised for its encoding where the kernels' scalar fallback is not (16-byte inputs:
/// UTF-8 to windows-1251 1.06 -> 2.0 times encoding_rs, to Shift_JIS 12.7 -> 28 times;
/// UTF-16 to windows-1251 0.36 -> 0.8 times; ad-hoc timing loop, 2026-11-23. Tripled for
/// CJK: 64-byte inputs to Shift_JIS 1.5 times faster, `simdenc bench --filter small --level
/// avx512`, alternating builds; tripled for the single-byte encoders too, those to
/// windows-1251 were 1.3 times slower).
pub(super) const VECTOR_ENCODE_MIN: usize = 32;

/// The most UTF-16 code units an encode run from UTF-8 converts at a time, where the
/// transcoding kernels are vector kernels (the UTF-8 to UTF-16 kernel leaves less of each
/// piece to its scalar tail; EUC-KR encode 1.0 -> 1.4 GB/s against 64, `simdenc bench
/// --filter cjk-encode --level avx512`, 2026-11-23). 1024 against 256, since a run zeroes its
/// stage once (same bench, 4 alternating rounds, best, 2026-11-24): EUC-KR 2110 -> 2322 MB/s,
/// Big5 2463 -> 2647, gb18030 2278 -> 2568, Shift_JIS 2187 -> 2297; `--filter sb-encode`:
/// windows-1256 1849 -> 2327, windows-1253 2468 -> 2737, the others within 1.5%.
pub(super) const ENCODE_STAGE: usize = 1024;

/// The most UTF-16 code units `Source::with_utf16` hands over at a time (its stage is
/// zeroed at each call, and ISO-2022-JP, its user, takes 256 at most).
pub(super) const WITH_UTF16_STAGE: usize = 256;

/// How far past a position where the vector encode kernels made no progress (the first
/// character unmappable) an encode run from UTF-8 goes character by character before trying
/// them again.
/// Text that is mostly unmappable (Japanese into windows-1251, written as `&#N;`) otherwise
/// staged and looked up a whole block for every character: 37 against 169 MB/s at the scalar
/// level and 120 for encoding_rs (`simdenc bench --filter api/encode/windows-1251/ja`).
pub(super) const KERNEL_BACKOFF: usize = 3 * VECTOR_ENCODE_MIN;

/// Below this many UTF-16 code units left, an encode run into a single-byte encoding takes
/// them in one scalar loop (`encode_runs::single_byte_units`); so does `Encoder::encode_from_utf16` for
/// a whole input this short.
pub(crate) const SINGLE_BYTE_UNITS_MIN: usize = 64;

/// ASCII code units after the first that an encode run from UTF-16 writes itself before
/// calling the `narrow_ascii` kernel for the rest of the run.
pub(super) const ASCII_INLINE_UNITS: usize = 8;

/// The most code units `Source::encode_non_ascii_run` looks ahead for its end.
pub(super) const NON_ASCII_RUN_MAX: usize = 4096;
