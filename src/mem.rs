//! Conversions between in-memory text forms (UTF-8, UTF-16, Latin1), validity checks, and
//! quick checks for whether the Unicode Bidirectional Algorithm can be skipped: encoding_rs
//! 0.8.44's `mem` module, with the same names, signatures and documented semantics.
//!
//! "Latin1" here means the code points U+0000 to U+00FF stored one byte each (the byte is
//! the code point), not windows-1252: some engines store text that way when they expose
//! UTF-16 indexing.
//!
//! ```
//! use simdenc::mem;
//! let mut utf16 = [0u16; 8];
//! let n = mem::convert_utf8_to_utf16(b"caf\xC3\xA9", &mut utf16);
//! assert_eq!(&utf16[..n], &[0x63, 0x61, 0x66, 0xE9]);
//! assert_eq!(mem::check_str_for_latin1_and_bidi("café"), mem::Latin1Bidi::Latin1);
//! ```
//!
//! # How it is fast
//! The bulk of every call is a kernel of the active level (`crate::simd`): ASCII runs
//! (`ascii_prefix_len`, `copy_ascii`, `widen_ascii`, `narrow_ascii`), UTF-8 validation,
//! UTF-8 <-> UTF-16 transcoding, Latin1 <-> UTF-8 (`latin1_to_utf8`, `utf8_to_latin1`).
//! What a kernel stops at (an error, a character that does
//! not fit) is handled here one character at a time, and the kernel is called again. The
//! scans that no kernel does (Latin1 and bidi checks, unpaired surrogates, Latin1 <->
//! UTF-16) are loops over fixed-size chunks, branch-free inside a chunk, that the compiler
//! vectorises at the crate's baseline (SSE2 on x86_64, NEON on aarch64); the bidi scans
//! filter in stages, so that text without candidates pays one compare per byte or unit.
//!
//! Nothing here writes past the output it reports (`dst[..written]`), except the `&mut str`
//! functions, which clear the continuation bytes that follow the written text so that the
//! `str` stays UTF-8. UTF-8 written into a `&mut str` or a `String` is trusted as the
//! kernels' contract says (`simd` module docs, point 4) and checked again in debug builds.
//!
//! # Differences from encoding_rs 0.8.44
//! Where encoding_rs's documentation and its code disagree, this module follows the
//! documentation. No such case was found: `tests/mem.rs` checks every function against a
//! reference written from the documentation and against encoding_rs itself, on every
//! generated input, and all three agree. What the documentation leaves unspecified may
//! differ, and does here:
//!
//! - The bytes after the written ones: `convert_latin1_to_str_partial` clears only the
//!   continuation bytes of a character that the written text cut (encoding_rs also zeroes
//!   the next 16 bytes); `convert_latin1_to_utf8` writes nothing there (encoding_rs
//!   documents that it may write garbage).
//! - Input outside the documented domain of the lossy functions, whose output is
//!   documented as unspecified: `convert_utf16_to_latin1_lossy` truncates each unit to a
//!   byte, as encoding_rs does (tested); `convert_utf8_to_latin1_lossy` and
//!   `encode_latin1_lossy` (which panic on such input when debug assertions are on, as
//!   documented) read each non-ASCII byte and the next as `(lead & 0x1F) << 6 | trail &
//!   0x3F`, as encoding_rs's portable code does (not tested: both panic in tests).

#[cfg(feature = "alloc")]
use alloc::borrow::Cow;
#[cfg(feature = "alloc")]
use alloc::string::String;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

#[cfg(feature = "alloc")]
use crate::encoder::append_to_vec;
use crate::simd::{self, Kernels, OutBytes, as_out, write_bytes};

/// Classification of text as Latin1 (all code points are below U+0100), left-to-right with
/// some non-Latin1 characters, or containing at least some right-to-left characters.
///
/// ```
/// use simdenc::mem::{check_str_for_latin1_and_bidi, Latin1Bidi};
/// assert_eq!(check_str_for_latin1_and_bidi("\u{FF}"), Latin1Bidi::Latin1);
/// assert_eq!(check_str_for_latin1_and_bidi("\u{100}"), Latin1Bidi::LeftToRight);
/// assert_eq!(check_str_for_latin1_and_bidi("\u{5D0}"), Latin1Bidi::Bidi);
/// ```
#[must_use]
#[derive(Debug, PartialEq, Eq)]
#[repr(C)]
pub enum Latin1Bidi {
    /// Every character is below U+0100.
    Latin1 = 0,
    /// There is at least one character that's U+0100 or higher, but there are no
    /// right-to-left characters.
    LeftToRight = 1,
    /// There is at least one right-to-left character.
    Bidi = 2,
}

/// Elements per chunk of the vectorised scans: 64 bytes of `u16`s, 32 bytes of `u8`s (short
/// enough that text with a hit every few dozen bytes does not pay much past it).
const UNITS_PER_CHUNK: usize = 32;
const BYTES_PER_CHUNK: usize = 32;

/// The index of the first element of `s` for which `hit` holds. `hit` is evaluated for
/// every element of a chunk of `N` and the results ORed, with no branch inside the chunk,
/// so that the compiler turns it into vector compares (`hit` must be branch-free for that).
#[inline(always)]
fn position_chunked<T: Copy, const N: usize>(s: &[T], hit: impl Fn(T) -> bool) -> Option<usize> {
    let (chunks, tail) = s.as_chunks::<N>();
    for (i, chunk) in chunks.iter().enumerate() {
        if chunk.iter().fold(0u8, |any, &x| any | u8::from(hit(x))) != 0 {
            let at = chunk.iter().position(|&x| hit(x)).unwrap_or(0);
            return Some(i * N + at);
        }
    }
    // Short inputs are all tail: one vectorisable pass says whether to look element-wise.
    if tail.iter().fold(0u8, |any, &x| any | u8::from(hit(x))) == 0 {
        return None;
    }
    tail.iter().position(|&x| hit(x)).map(|at| chunks.len() * N + at)
}

/// The index of the first unit of `s` at or above `bound`, a power of two.
#[inline(always)]
fn first_unit_from(s: &[u16], bound: u16) -> Option<usize> {
    debug_assert!(bound.is_power_of_two());
    // Below a power of two means no bit from it up: one OR-reduction per chunk.
    let high = !(bound - 1);
    position_chunked::<u16, UNITS_PER_CHUNK>(s, |u| u & high != 0)
}

/// Whether every unit of `s` is below `bound`, a power of two. Not fail-fast within a
/// chunk of 4 × [`UNITS_PER_CHUNK`] units.
#[inline(always)]
fn all_units_below(s: &[u16], bound: u16) -> bool {
    let high = !(bound - 1);
    let (chunks, tail) = s.as_chunks::<{ 4 * UNITS_PER_CHUNK }>();
    chunks
        .iter()
        .all(|chunk| chunk.iter().fold(0, |acc, &u| acc | u) & high == 0)
        && tail.iter().fold(0, |acc, &u| acc | u) & high == 0
}

// ---------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------

/// Checks whether the buffer is all-ASCII.
///
/// May read the entire buffer even if it isn't all-ASCII. (I.e. the function is not
/// guaranteed to fail fast.)
///
/// ```
/// assert!(simdenc::mem::is_ascii(b"abc"));
/// assert!(!simdenc::mem::is_ascii(b"ab\x80"));
/// ```
pub fn is_ascii(buffer: &[u8]) -> bool {
    // On NEON, one maximum per 256 bytes (umax, then one umaxv: `mem/is_ascii/latin` 0.204 →
    // 0.115 instructions a byte), where the prefix kernel tests every 64 bytes for the
    // position; elsewhere the kernel (AVX2 and AVX-512 reduce a vector in one instruction).
    #[cfg(target_arch = "aarch64")]
    {
        let high = |s: &[u8]| s.iter().fold(0u8, |m, &b| m.max(b)) >= 0x80;
        let (chunks, tail) = buffer.as_chunks::<256>();
        !chunks.iter().any(|c| high(c)) && !high(tail)
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        simd::active().ascii_prefix_len(buffer) == buffer.len()
    }
}

/// Checks whether the buffer is all-Basic Latin (i.e. UTF-16 representing only ASCII
/// characters).
///
/// May read the entire buffer even if it isn't all-ASCII. (I.e. the function is not
/// guaranteed to fail fast.)
///
/// ```
/// assert!(simdenc::mem::is_basic_latin(&[0x61, 0x7F]));
/// assert!(!simdenc::mem::is_basic_latin(&[0x61, 0x80]));
/// ```
pub fn is_basic_latin(buffer: &[u16]) -> bool {
    all_units_below(buffer, 0x80)
}

/// Checks whether the buffer is valid UTF-8 representing only code points less than or
/// equal to U+00FF.
///
/// Fails fast. (I.e. returns before having read the whole buffer if UTF-8 invalidity or
/// code points above U+00FF are discovered.)
///
/// ```
/// assert!(simdenc::mem::is_utf8_latin1(b"caf\xC3\xA9"));
/// assert!(!simdenc::mem::is_utf8_latin1(b"\xC4\x80"));
/// assert!(!simdenc::mem::is_utf8_latin1(b"caf\xE9"));
/// ```
pub fn is_utf8_latin1(buffer: &[u8]) -> bool {
    utf8_latin1_up_to(buffer) == buffer.len()
}

/// Checks whether the buffer represents only code points less than or equal to U+00FF.
///
/// Fails fast. (I.e. returns before having read the whole buffer if code points above
/// U+00FF are discovered.)
///
/// ```
/// assert!(simdenc::mem::is_str_latin1("café"));
/// assert!(!simdenc::mem::is_str_latin1("Ā"));
/// ```
pub fn is_str_latin1(buffer: &str) -> bool {
    str_latin1_up_to(buffer) == buffer.len()
}

/// Checks whether the buffer represents only code point less than or equal to U+00FF.
///
/// May read the entire buffer even if it isn't all-Latin1. (I.e. the function is not
/// guaranteed to fail fast.)
///
/// ```
/// assert!(simdenc::mem::is_utf16_latin1(&[0x61, 0xFF]));
/// assert!(!simdenc::mem::is_utf16_latin1(&[0x61, 0x100]));
/// ```
pub fn is_utf16_latin1(buffer: &[u16]) -> bool {
    all_units_below(buffer, 0x100)
}

/// Returns the index of first byte that starts an invalid byte sequence or a non-Latin1
/// byte sequence, or the length of the string if there are neither.
///
/// ```
/// assert_eq!(simdenc::mem::utf8_latin1_up_to(b"a\xC3\xA9\xC4\x80"), 3);
/// assert_eq!(simdenc::mem::utf8_latin1_up_to(b"a\xC3"), 1);
/// assert_eq!(simdenc::mem::utf8_latin1_up_to(b"a\xC3\xA9"), 3);
/// ```
pub fn utf8_latin1_up_to(buffer: &[u8]) -> usize {
    let at = ascii_prefix_len(simd::active(), buffer);
    at + latin1_utf8_up_to(&buffer[at..])
}

/// [`utf8_latin1_up_to`] from a character boundary. Latin1 in UTF-8 is ASCII and the two
/// bytes of U+0080..=U+00FF (0xC2 or 0xC3, then a continuation byte), and every byte above
/// 0xC3 starts a sequence above U+00FF or is invalid. So a byte is where the answer lies if
/// it is above 0xC3 or 0xC0/0xC1, or is a continuation byte exactly when the byte before is
/// not 0xC2 or 0xC3 (a stray one; or the lead before it is cut); the end counts as a byte
/// that is not a continuation. The answer is that byte, or the lead before it. Per chunk of
/// 64 bytes and the bytes before them, one branch-free pass that vectorises: fail-fast by
/// the chunk.
fn latin1_utf8_up_to(s: &[u8]) -> usize {
    const N: usize = 64;
    #[inline(always)]
    fn wrong(prev: u8, b: u8) -> bool {
        ((b & 0xC0 == 0x80) != (prev >= 0xC2)) | (b & 0xFE == 0xC0) | (b > 0xC3)
    }
    let n = s.len();
    let answer = |i: usize| if i > 0 && s[i - 1] >= 0xC2 { i - 1 } else { i };
    let byte = |i: usize| if i < n { s[i] } else { 0 };
    if n == 0 || wrong(0, s[0]) {
        return 0;
    }
    // Bytes `at..at + N` against the ones before them.
    let mut at = 1;
    while at + N <= n {
        let (prev, cur) = (&s[at - 1..at - 1 + N], &s[at..at + N]);
        let any = prev
            .iter()
            .zip(cur)
            .fold(0u8, |any, (&p, &b)| any | u8::from(wrong(p, b)));
        if any != 0 {
            let i = (0..N).position(|j| wrong(prev[j], cur[j])).unwrap_or(0);
            return answer(at + i);
        }
        at += N;
    }
    // The rest and the end.
    (at..=n).find(|&i| wrong(s[i - 1], byte(i))).map_or(n, answer)
}

/// Returns the index of first byte that starts a non-Latin1 byte sequence, or the length
/// of the string if there are none.
///
/// ```
/// assert_eq!(simdenc::mem::str_latin1_up_to("aé\u{100}"), 3);
/// assert_eq!(simdenc::mem::str_latin1_up_to("aé"), 3);
/// ```
pub fn str_latin1_up_to(buffer: &str) -> usize {
    let bytes = buffer.as_bytes();
    let ascii = ascii_prefix_len(simd::active(), bytes);
    // In UTF-8, the bytes above 0xC3 are exactly the leads of characters above U+00FF.
    ascii + first_byte_above_c3(&bytes[ascii..]).unwrap_or(bytes.len() - ascii)
}

/// The length of the ASCII prefix of `bytes`, without the kernel call when there is none
/// (text in other scripts: the checks then answer in a few nanoseconds).
#[inline(always)]
fn ascii_prefix_len(k: &Kernels, bytes: &[u8]) -> usize {
    match bytes.first() {
        Some(&b) if b >= 0x80 => 0,
        _ => k.ascii_prefix_len(bytes),
    }
}

/// The index of the first byte above 0xC3.
#[inline]
fn first_byte_above_c3(bytes: &[u8]) -> Option<usize> {
    // Callers start at a non-ASCII byte, often the answer: tested before a whole chunk.
    if bytes.first().is_some_and(|&b| b > 0xC3) {
        return Some(0);
    }
    // Per chunk, one reduction: on NEON of the maximum (umax, then umaxv: 0.19 instructions
    // a byte against 0.39 for the form below), elsewhere of the OR of the bytes' excess over
    // 0xC3 (psubusb and por: SSE2 reduced a fold of maxima slowly, 4.6 GB/s against 64).
    // `position_chunked`'s OR of comparisons compiled to 59 instructions per 32 bytes on NEON.
    const N: usize = 2 * BYTES_PER_CHUNK;
    let (chunks, tail) = bytes.as_chunks::<N>();
    #[cfg(target_arch = "aarch64")]
    let above = |s: &[u8]| s.iter().fold(0u8, |m, &b| m.max(b)) > 0xC3;
    #[cfg(not(target_arch = "aarch64"))]
    let above = |s: &[u8]| s.iter().fold(0u8, |any, &b| any | b.saturating_sub(0xC3)) != 0;
    for (i, chunk) in chunks.iter().enumerate() {
        if above(chunk) {
            return chunk.iter().position(|&b| b > 0xC3).map(|at| i * N + at);
        }
    }
    if !above(tail) {
        return None;
    }
    tail.iter()
        .position(|&b| b > 0xC3)
        .map(|at| chunks.len() * N + at)
}

/// Returns the index of the first unpaired surrogate or, if the input is valid UTF-16 in
/// its entirety, the length of the input.
///
/// ```
/// assert_eq!(simdenc::mem::utf16_valid_up_to(&[0x61, 0xD83D, 0xDE00, 0xDC00]), 3);
/// assert_eq!(simdenc::mem::utf16_valid_up_to(&[0x61, 0xD83D]), 1);
/// assert_eq!(simdenc::mem::utf16_valid_up_to(&[0x61, 0xD83D, 0xDE00]), 3);
/// ```
pub fn utf16_valid_up_to(buffer: &[u16]) -> usize {
    // A surrogate is unpaired exactly when it is a high one not followed by a low one, or a
    // low one not preceded by a high one; the first such is where the valid prefix ends.
    // Per chunk of units, with the unit before and the unit after as shifted loads: one
    // OR-reduction when there is no surrogate, the pairing test otherwise (text in astral
    // scripts or with emoji has a pair in most chunks), both branch-free so that they
    // vectorise. The last chunk overlaps the one before (units found paired stay paired),
    // and the first and last units, which lack a neighbour, are tested on their own.
    const N: usize = UNITS_PER_CHUNK;
    let n = buffer.len();
    let unit = |i: usize| buffer.get(i).copied().unwrap_or(0);
    let unpaired_at = |i: usize| {
        let u = buffer[i];
        u & 0xF800 == 0xD800 && unpaired(if i == 0 { 0 } else { unit(i - 1) }, u, unit(i + 1))
    };
    if n < N + 2 {
        return if !any_surrogate(buffer) {
            n
        } else {
            (0..n).find(|&i| unpaired_at(i)).unwrap_or(n)
        };
    }
    if unpaired_at(0) {
        return 0;
    }
    // `window` is units `at - 1..at + N + 1`; the answer is `at` plus the index returned.
    let first_in = |window: &[u16]| first_unpaired_in(window.try_into().unwrap_or(&[0; N + 2]));
    let mut at = 1;
    while let Some(window) = buffer.get(at - 1..at + N + 1) {
        if let Some(i) = first_in(window) {
            return at + i;
        }
        at += N;
    }
    let last = n - 1 - N;
    if at < n - 1
        && let Some(i) = first_in(&buffer[last - 1..])
    {
        return last + i;
    }
    if unpaired_at(n - 1) { n - 1 } else { n }
}

/// Whether any of `units` is a surrogate: `u ^ 0xD800` is below 0x800 exactly for those.
/// On NEON one reduction of the minimum (umin, then uminv: `mem/utf16_valid_up_to/ru` 0.547
/// → 0.360 instructions a byte against the OR of comparisons); elsewhere the OR of
/// comparisons (SSE2 has no unsigned u16 minimum; the OR of each unit's shortfall under 0x800,
/// psubusw and por, ran at 46.6 GB/s against 57.8).
#[inline(always)]
fn any_surrogate(units: &[u16]) -> bool {
    #[cfg(target_arch = "aarch64")]
    return units.iter().fold(u16::MAX, |m, &u| m.min(u ^ 0xD800)) < 0x800;
    #[cfg(not(target_arch = "aarch64"))]
    return units
        .iter()
        .fold(0u8, |any, &u| any | u8::from(u & 0xF800 == 0xD800))
        != 0;
}

/// Whether `u`, between `prev` and `next`, is an unpaired surrogate. Branch-free.
#[inline(always)]
fn unpaired(prev: u16, u: u16, next: u16) -> bool {
    (u & 0xFC00 == 0xD800) & (next & 0xFC00 != 0xDC00) | (u & 0xFC00 == 0xDC00) & (prev & 0xFC00 != 0xD800)
}

/// The index of the first unpaired surrogate among `window[1..=N]`, whose neighbours are
/// `window[0]` and `window[N + 1]`; see [`utf16_valid_up_to`].
#[inline(always)]
fn first_unpaired_in(w: &[u16; UNITS_PER_CHUNK + 2]) -> Option<usize> {
    const N: usize = UNITS_PER_CHUNK;
    if !any_surrogate(&w[1..=N])
        || (0..N).fold(0u8, |any, i| any | u8::from(unpaired(w[i], w[i + 1], w[i + 2]))) == 0
    {
        return None;
    }
    (0..N).find(|&i| unpaired(w[i], w[i + 1], w[i + 2]))
}

/// Replaces unpaired surrogates in the input with the REPLACEMENT CHARACTER.
///
/// ```
/// let mut text = [0x61, 0xDC00, 0xD83D, 0xDE00, 0xD800];
/// simdenc::mem::ensure_utf16_validity(&mut text);
/// assert_eq!(text, [0x61, 0xFFFD, 0xD83D, 0xDE00, 0xFFFD]);
/// ```
pub fn ensure_utf16_validity(buffer: &mut [u16]) {
    let mut at = 0;
    loop {
        at += utf16_valid_up_to(&buffer[at..]);
        if at == buffer.len() {
            return;
        }
        buffer[at] = 0xFFFD;
        at += 1;
    }
}

// ---------------------------------------------------------------------------------------
// Bidi
// ---------------------------------------------------------------------------------------

/// Checks whether a scalar value triggers right-to-left processing.
///
/// The check is done on a Unicode block basis without regard to assigned vs. unassigned
/// code points in the block. Hebrew presentation forms in the Alphabetic Presentation
/// Forms block are treated as if they formed a block on their own (i.e. it treated as
/// right-to-left). Additionally, the four RIGHT-TO-LEFT FOO controls in General
/// Punctuation are checked for. Control characters that are technically bidi controls but
/// do not cause right-to-left behavior without the presence of right-to-left characters
/// or right-to-left controls are not checked for. As a special case, U+FEFF is excluded
/// from Arabic Presentation Forms-B.
///
/// The right-to-left code points are therefore U+0590–U+08FF (Hebrew to Arabic
/// Extended-A), U+200F, U+202B, U+202E, U+2067, U+FB1D–U+FDFF (Hebrew presentation forms,
/// Arabic Presentation Forms-A), U+FE70–U+FEFE (Arabic Presentation Forms-B without the
/// BOM), U+10800–U+10FFF and U+1E800–U+1EFFF.
///
/// ```
/// use simdenc::mem::is_char_bidi;
/// assert!(is_char_bidi('\u{5D0}') && is_char_bidi('\u{202E}') && is_char_bidi('\u{10900}'));
/// assert!(!is_char_bidi('a') && !is_char_bidi('\u{FEFF}') && !is_char_bidi('\u{202A}'));
/// ```
#[inline(always)]
pub fn is_char_bidi(c: char) -> bool {
    matches!(
        u32::from(c),
        0x0590..=0x08FF
            | 0x200F
            | 0x202B
            | 0x202E
            | 0x2067
            | 0xFB1D..=0xFDFF
            | 0xFE70..=0xFEFE
            | 0x10800..=0x10FFF
            | 0x1E800..=0x1EFFF
    )
}

/// Checks whether a UTF-16 code unit triggers right-to-left processing.
///
/// The check is done on a Unicode block basis without regard to assigned vs. unassigned
/// code points in the block. Hebrew presentation forms in the Alphabetic Presentation
/// Forms block are treated as if they formed a block on their own (i.e. it treated as
/// right-to-left). Additionally, the four RIGHT-TO-LEFT FOO controls in General
/// Punctuation are checked for. Control characters that are technically bidi controls but
/// do not cause right-to-left behavior without the presence of right-to-left characters
/// or right-to-left controls are not checked for. As a special case, U+FEFF is excluded
/// from Arabic Presentation Forms-B.
///
/// Since supplementary-plane right-to-left blocks are identifiable from the high surrogate
/// without examining the low surrogate, this function returns `true` for such high
/// surrogates (U+D802, U+D803, U+D83A, U+D83B) making the function suitable for handling
/// supplementary-plane text without decoding surrogate pairs to scalar values. Obviously,
/// such high surrogates are then reported as right-to-left even if actually unpaired.
///
/// ```
/// use simdenc::mem::is_utf16_code_unit_bidi;
/// assert!(is_utf16_code_unit_bidi(0x05D0) && is_utf16_code_unit_bidi(0xD802));
/// assert!(!is_utf16_code_unit_bidi(0xFEFF) && !is_utf16_code_unit_bidi(0xDC00));
/// ```
#[inline(always)]
pub fn is_utf16_code_unit_bidi(u: u16) -> bool {
    // Branch-free (`|`, wrapping range tests), so that `is_utf16_bidi`'s chunks vectorise.
    (u.wrapping_sub(0x0590) < 0x0900 - 0x0590)
        | (u == 0x200F)
        | (u == 0x202B)
        | (u == 0x202E)
        | (u == 0x2067)
        | (u & 0xFFFE == 0xD802)
        | (u & 0xFFFE == 0xD83A)
        | (u.wrapping_sub(0xFB1D) < 0xFE00 - 0xFB1D)
        | (u.wrapping_sub(0xFE70) < 0xFEFF - 0xFE70)
}

/// Checks whether a potentially-invalid UTF-8 buffer contains code points that trigger
/// right-to-left processing.
///
/// The check is done on a Unicode block basis without regard to assigned vs. unassigned
/// code points in the block (the ranges of [`is_char_bidi`]). Hebrew presentation forms
/// in the Alphabetic Presentation Forms block are treated as if they formed a block on
/// their own (i.e. it treated as right-to-left). Additionally, the four RIGHT-TO-LEFT FOO
/// controls in General Punctuation are checked for. Control characters that are
/// technically bidi controls but do not cause right-to-left behavior without the presence
/// of right-to-left characters or right-to-left controls are not checked for. As a special
/// case, U+FEFF is excluded from Arabic Presentation Forms-B.
///
/// Returns `true` if the input is invalid UTF-8 or the input contains an RTL character.
/// Returns `false` if the input is valid UTF-8 and contains no RTL characters.
///
/// ```
/// use simdenc::mem::is_utf8_bidi;
/// assert!(is_utf8_bidi("a\u{5D0}".as_bytes()));
/// assert!(is_utf8_bidi(b"a\xFF"));
/// assert!(!is_utf8_bidi("a\u{4E00}".as_bytes()));
/// ```
pub fn is_utf8_bidi(buffer: &[u8]) -> bool {
    if starts_with_bidi(buffer) {
        return true;
    }
    let k = simd::active();
    let ascii = ascii_prefix_len(k, buffer);
    let rest = &buffer[ascii..];
    // The scan is exact on valid UTF-8, and `true` is the answer for invalid input anyway,
    // so a hit is final; only a miss needs the validation.
    has_bidi_lead(rest) || k.utf8_valid_up_to(rest) != rest.len()
}

/// Checks whether a valid UTF-8 buffer contains code points that trigger right-to-left
/// processing.
///
/// The check is done on a Unicode block basis without regard to assigned vs. unassigned
/// code points in the block (the ranges of [`is_char_bidi`]). Hebrew presentation forms
/// in the Alphabetic Presentation Forms block are treated as if they formed a block on
/// their own (i.e. it treated as right-to-left). Additionally, the four RIGHT-TO-LEFT FOO
/// controls in General Punctuation are checked for. Control characters that are
/// technically bidi controls but do not cause right-to-left behavior without the presence
/// of right-to-left characters or right-to-left controls are not checked for. As a special
/// case, U+FEFF is excluded from Arabic Presentation Forms-B.
///
/// ```
/// use simdenc::mem::is_str_bidi;
/// assert!(is_str_bidi("abc \u{627}"));
/// assert!(!is_str_bidi("abc \u{FEFF}"));
/// ```
pub fn is_str_bidi(buffer: &str) -> bool {
    let bytes = buffer.as_bytes();
    if starts_with_bidi(bytes) {
        return true;
    }
    let ascii = ascii_prefix_len(simd::active(), bytes);
    has_bidi_lead(&bytes[ascii..])
}

/// Whether `bytes` (exactly, if they are UTF-8) contain a right-to-left character.
///
/// Every right-to-left character starts with one of the lead bytes 0xD6–0xE0, 0xE2, 0xEF
/// and 0xF0, and its first three bytes tell whether it is one ([`starts_bidi`]). Per chunk
/// of [`BYTES_PER_CHUNK`] bytes, three filters, each cheaper than the next and each
/// branch-free inside the chunk so that the compiler vectorises it (the next bytes are
/// shifted loads): those lead bytes (none in Latin, Greek, Cyrillic and most CJK text);
/// then the lead and the second byte ([`near_bidi`]: rules out Devanagari and Thai, E0 A4
/// and up, and emoji, F0 9F); then [`starts_bidi`] itself (punctuation, E2 80, gets this
/// far). Lead bytes are never continuation bytes, so in UTF-8 a match is always at the
/// start of a character.
fn has_bidi_lead(bytes: &[u8]) -> bool {
    const N: usize = BYTES_PER_CHUNK;
    let n = bytes.len();
    let byte = |i: usize| bytes.get(i).copied().unwrap_or(0);
    // Outside vectors, the lead test first: `starts_bidi` costs some 30 operations.
    let bidi_at = |i: usize| is_bidi_lead(bytes[i]) && starts_bidi(bytes[i], byte(i + 1), byte(i + 2));
    if n < N + 2 {
        let any_lead = bytes.iter().fold(0u8, |any, &b| any | u8::from(is_bidi_lead(b)));
        return any_lead != 0 && (0..n).any(bidi_at);
    }
    // The first character on its own: callers pass text from its first non-ASCII (or
    // non-Latin1) character, which in right-to-left text is usually right-to-left.
    if bidi_at(0) {
        return true;
    }
    let mut at = 0;
    while let Some(window) = bytes.get(at..at + N + 2) {
        if window_has_bidi(window.try_into().unwrap_or(&[0; N + 2])) {
            return true;
        }
        at += N;
    }
    // The last window overlaps the one before; the last two bytes have no two after them.
    at < n - 2 && window_has_bidi(bytes[n - N - 2..].try_into().unwrap_or(&[0; N + 2]))
        || bidi_at(n - 2)
        || bidi_at(n - 1)
}

/// Whether `bytes` starts with a right-to-left character, before any kernel is called:
/// right-to-left text usually does, and the answer is then final without a kernel call.
#[inline(always)]
fn starts_with_bidi(bytes: &[u8]) -> bool {
    match *bytes {
        [b0, ..] if !is_bidi_lead(b0) => false,
        // U+05C0..=U+07FF (Hebrew letters, Arabic, Syriac, Thaana, NKo): how right-to-left
        // text starts, answered without the whole test.
        [0xD7..=0xDF, ..] => true,
        [b0, b1, b2, ..] => starts_bidi(b0, b1, b2),
        [b0, b1] => starts_bidi(b0, b1, 0),
        _ => false,
    }
}

/// Whether `b` is a lead byte of right-to-left characters (0xD6–0xE0, 0xE2, 0xEF, 0xF0).
#[inline(always)]
fn is_bidi_lead(b: u8) -> bool {
    (b.wrapping_sub(0xD6) <= 0xE0 - 0xD6) | (b == 0xE2) | (b == 0xEF) | (b == 0xF0)
}

/// Whether a character starting at one of `w[..N]` is right-to-left ([`has_bidi_lead`]).
#[inline(always)]
fn window_has_bidi(w: &[u8; BYTES_PER_CHUNK + 2]) -> bool {
    const N: usize = BYTES_PER_CHUNK;
    w[..N].iter().fold(0u8, |any, &b| any | u8::from(is_bidi_lead(b))) != 0
        && (0..N).fold(0u8, |any, i| any | u8::from(near_bidi(w[i], w[i + 1]))) != 0
        && (0..N).fold(0u8, |any, i| {
            any | u8::from(starts_bidi(w[i], w[i + 1], w[i + 2]))
        }) != 0
}

/// Whether a UTF-8 character whose first two bytes are `b0`, `b1` may be right-to-left:
/// `true` for every one that is ([`starts_bidi`]), and for few others. Branch-free.
#[inline(always)]
fn near_bidi(b0: u8, b1: u8) -> bool {
    (b0.wrapping_sub(0xD6) <= 0xDF - 0xD6) & ((b0 != 0xD6) | (b1 >= 0x90))
        | (b0 == 0xE0) & (b1 <= 0xA3)
        | (b0 == 0xE2) & (b1 <= 0x81)
        | (b0 == 0xEF) & (b1.wrapping_sub(0xAC) <= 0xBB - 0xAC)
        | (b0 == 0xF0) & ((b1 == 0x90) | (b1 == 0x9E))
}

/// Whether the UTF-8 character whose first bytes are `b0`, `b1`, `b2` is right-to-left
/// (the ranges of [`is_char_bidi`]); exact for a character of valid UTF-8 (whatever
/// follows a shorter one), `false` for a continuation byte `b0`. Branch-free.
///
/// ```text
/// U+0590..=U+08FF  D6 90.. to E0 A3 BF      U+200F U+202B U+202E  E2 80 8F, E2 80 AB, E2 80 AE
/// U+2067           E2 81 A7                 U+FB1D..=U+FDFF       EF AC 9D to EF B7 BF
/// U+FE70..=U+FEFE  EF B9 B0 to EF BB BE     U+10800..=U+10FFF     F0 90 A0 80 to F0 90 BF BF
/// U+1E800..=U+1EFFF  F0 9E A0 80 to F0 9E BF BF
/// ```
#[inline(always)]
fn starts_bidi(b0: u8, b1: u8, b2: u8) -> bool {
    let two = (b0 == 0xD6) & (b1 >= 0x90) | (b0.wrapping_sub(0xD7) <= 0xDF - 0xD7);
    let e0 = (b0 == 0xE0) & (b1 <= 0xA3);
    let controls = (b1 == 0x80) & ((b2 == 0x8F) | (b2 == 0xAB) | (b2 == 0xAE)) | (b1 == 0x81) & (b2 == 0xA7);
    let e2 = (b0 == 0xE2) & controls;
    let forms = (b1 == 0xAC) & (b2 >= 0x9D)
        | (b1.wrapping_sub(0xAD) <= 0xB7 - 0xAD)
        | (b1 == 0xB9) & (b2 >= 0xB0)
        | (b1 == 0xBA)
        | (b1 == 0xBB) & (b2 != 0xBF);
    let ef = (b0 == 0xEF) & forms;
    let f0 = (b0 == 0xF0) & ((b1 == 0x90) | (b1 == 0x9E)) & (b2 >= 0xA0);
    two | e0 | e2 | ef | f0
}

/// Checks whether a UTF-16 buffer contains code points that trigger right-to-left
/// processing.
///
/// The check is done on a Unicode block basis without regard to assigned vs. unassigned
/// code points in the block (the ranges of [`is_char_bidi`]). Hebrew presentation forms
/// in the Alphabetic Presentation Forms block are treated as if they formed a block on
/// their own (i.e. it treated as right-to-left). Additionally, the four RIGHT-TO-LEFT FOO
/// controls in General Punctuation are checked for. Control characters that are
/// technically bidi controls but do not cause right-to-left behavior without the presence
/// of right-to-left characters or right-to-left controls are not checked for. As a special
/// case, U+FEFF is excluded from Arabic Presentation Forms-B.
///
/// Returns `true` if the input contains an RTL character or an unpaired high surrogate
/// that could be the high half of an RTL character. Returns `false` if the input contains
/// neither RTL characters nor unpaired high surrogates that could be higher halves of RTL
/// characters.
///
/// ```
/// use simdenc::mem::is_utf16_bidi;
/// assert!(is_utf16_bidi(&[0x61, 0x05D0]));
/// assert!(is_utf16_bidi(&[0xD802, 0xDC00]));
/// assert!(!is_utf16_bidi(&[0x61, 0xD83D, 0xDE00]));
/// ```
pub fn is_utf16_bidi(buffer: &[u16]) -> bool {
    // Per chunk, a maximum below U+0590 (text in Latin, Greek and Cyrillic scripts) rules it
    // out; other chunks get the whole test, both branch-free so that they vectorise. The
    // last chunk overlaps the one before. Outside vectors, a unit is compared with U+0590
    // first (the whole test costs some 20 operations); the first unit is tested on its own,
    // for early answers on right-to-left text.
    const N: usize = UNITS_PER_CHUNK;
    let scalar = |u: u16| u >= 0x0590 && is_utf16_code_unit_bidi(u);
    if buffer.len() < N {
        return buffer.iter().fold(0, |max, &u| max.max(u)) >= 0x0590 && buffer.iter().any(|&u| scalar(u));
    }
    if scalar(buffer[0]) {
        return true;
    }
    let (chunks, tail) = buffer.as_chunks::<N>();
    chunks.iter().any(chunk_has_bidi)
        || !tail.is_empty() && chunk_has_bidi(buffer[buffer.len() - N..].try_into().unwrap_or(&[0; N]))
}

/// Whether a unit of `chunk` is right-to-left ([`is_utf16_bidi`]): no unit from U+0590 on
/// rules it out (Latin, Greek, Cyrillic text), then three ranges without right-to-left
/// units ([`far_from_bidi`]: CJK text), then a cheaper superset of the test
/// ([`near_bidi_unit`]: the dashes and quotes of General Punctuation), then the whole test.
#[inline(always)]
fn chunk_has_bidi(chunk: &[u16; UNITS_PER_CHUNK]) -> bool {
    // Any unit from U+0590 on: on aarch64 a maximum (`umax`, one `umaxv`: an OR of saturated
    // differences took 0.27 -> 0.43 instructions a byte on Russian), elsewhere an OR of
    // saturated differences (SSE2 has no u16 maximum: it took twice the operations).
    let beyond_hebrew = if cfg!(target_arch = "aarch64") {
        chunk.iter().fold(0, |max, &u| max.max(u)) >= 0x0590
    } else {
        chunk.iter().fold(0, |any, &u| any | u.saturating_sub(0x058F)) != 0
    };
    beyond_hebrew
        && chunk
            .iter()
            .fold(0u8, |any, &u| any | u8::from(!far_from_bidi(u)))
            != 0
        && chunk
            .iter()
            .fold(0u8, |any, &u| any | u8::from(near_bidi_unit(u)))
            != 0
        && chunk
            .iter()
            .fold(0u8, |any, &u| any | u8::from(is_utf16_code_unit_bidi(u)))
            != 0
}

/// Whether `u` lies in one of three ranges without right-to-left units: U+FF00..U+058F
/// (wrapping: the halfwidth and fullwidth forms, and below Hebrew), U+0900..U+200E,
/// U+2068..U+D801. Japanese and Chinese text is all in them (its fullwidth punctuation
/// too).
#[inline(always)]
fn far_from_bidi(u: u16) -> bool {
    (u.wrapping_sub(0xFF00) < 0x0590 + 0x100)
        | (u.wrapping_sub(0x0900) < 0x200F - 0x0900)
        | (u.wrapping_sub(0x2068) < 0xD802 - 0x2068)
}

/// `true` for every unit [`is_utf16_code_unit_bidi`] is `true` for, in fewer operations (15
/// against 21 a vector): U+0590..U+08FF, U+FB1D..U+FEFE (with the variation selectors and
/// CJK compatibility forms between its two ranges), the high surrogates U+D802..U+D83B (with
/// the ones between its two pairs), U+202B..U+202E (with U+202C, U+202D), U+200F, U+2067.
/// Not one range for the controls: U+200F..U+2067 holds the dashes and quotes of most
/// scripts (Russian text took 14% more instructions with it).
#[inline(always)]
fn near_bidi_unit(u: u16) -> bool {
    (u.wrapping_sub(0x0590) < 0x0900 - 0x0590)
        | (u.wrapping_sub(0xFB1D) < 0xFEFF - 0xFB1D)
        | (u.wrapping_sub(0xD802) < 0xD83C - 0xD802)
        | (u.wrapping_sub(0x202B) < 4)
        | (u == 0x200F)
        | (u == 0x2067)
}

/// Checks whether a potentially invalid UTF-8 buffer contains code points that trigger
/// right-to-left processing or is all-Latin1.
///
/// Possibly more efficient than performing the checks separately.
///
/// Returns `Latin1Bidi::Latin1` if `is_utf8_latin1()` would return `true`. Otherwise,
/// returns `Latin1Bidi::Bidi` if `is_utf8_bidi()` would return `true`. Otherwise, returns
/// `Latin1Bidi::LeftToRight`.
///
/// ```
/// use simdenc::mem::{check_utf8_for_latin1_and_bidi, Latin1Bidi};
/// assert_eq!(check_utf8_for_latin1_and_bidi(b"caf\xC3\xA9"), Latin1Bidi::Latin1);
/// assert_eq!(check_utf8_for_latin1_and_bidi("\u{4E00}".as_bytes()), Latin1Bidi::LeftToRight);
/// assert_eq!(check_utf8_for_latin1_and_bidi(b"caf\xE9"), Latin1Bidi::Bidi);
/// ```
pub fn check_utf8_for_latin1_and_bidi(buffer: &[u8]) -> Latin1Bidi {
    if starts_with_bidi(buffer) {
        return Latin1Bidi::Bidi;
    }
    // `buffer[..up_to]` is valid Latin1, so it changes neither answer of `is_utf8_bidi`.
    let up_to = utf8_latin1_up_to(buffer);
    if up_to == buffer.len() {
        Latin1Bidi::Latin1
    } else if is_utf8_bidi(&buffer[up_to..]) {
        Latin1Bidi::Bidi
    } else {
        Latin1Bidi::LeftToRight
    }
}

/// Checks whether a valid UTF-8 buffer contains code points that trigger right-to-left
/// processing or is all-Latin1.
///
/// Possibly more efficient than performing the checks separately.
///
/// Returns `Latin1Bidi::Latin1` if `is_str_latin1()` would return `true`. Otherwise,
/// returns `Latin1Bidi::Bidi` if `is_str_bidi()` would return `true`. Otherwise, returns
/// `Latin1Bidi::LeftToRight`.
///
/// ```
/// use simdenc::mem::{check_str_for_latin1_and_bidi, Latin1Bidi};
/// assert_eq!(check_str_for_latin1_and_bidi("\u{10800}"), Latin1Bidi::Bidi);
/// ```
pub fn check_str_for_latin1_and_bidi(buffer: &str) -> Latin1Bidi {
    // A right-to-left character is above U+00FF: not Latin1.
    if starts_with_bidi(buffer.as_bytes()) {
        return Latin1Bidi::Bidi;
    }
    let up_to = str_latin1_up_to(buffer);
    if up_to == buffer.len() {
        Latin1Bidi::Latin1
    } else if has_bidi_lead(&buffer.as_bytes()[up_to..]) {
        Latin1Bidi::Bidi
    } else {
        Latin1Bidi::LeftToRight
    }
}

/// Checks whether a potentially invalid UTF-16 buffer contains code points that trigger
/// right-to-left processing or is all-Latin1.
///
/// Possibly more efficient than performing the checks separately.
///
/// Returns `Latin1Bidi::Latin1` if `is_utf16_latin1()` would return `true`. Otherwise,
/// returns `Latin1Bidi::Bidi` if `is_utf16_bidi()` would return `true`. Otherwise,
/// returns `Latin1Bidi::LeftToRight`.
///
/// ```
/// use simdenc::mem::{check_utf16_for_latin1_and_bidi, Latin1Bidi};
/// assert_eq!(check_utf16_for_latin1_and_bidi(&[0xE9, 0xD83A]), Latin1Bidi::Bidi);
/// ```
pub fn check_utf16_for_latin1_and_bidi(buffer: &[u16]) -> Latin1Bidi {
    // Units below U+0100 are not right-to-left: the bidi check starts at the first other.
    match first_unit_from(buffer, 0x100) {
        None => Latin1Bidi::Latin1,
        Some(at) if is_utf16_bidi(&buffer[at..]) => Latin1Bidi::Bidi,
        Some(_) => Latin1Bidi::LeftToRight,
    }
}

// ---------------------------------------------------------------------------------------
// UTF-8 -> UTF-16
// ---------------------------------------------------------------------------------------

/// The character at the start of `src` (not empty) and its length, or the length of the
/// malformed sequence there that the standard's UTF-8 decoder replaces with one U+FFFD (its
/// maximal subpart; an incomplete sequence at the end is one error).
#[inline]
fn next_utf8(src: &[u8]) -> Result<(char, usize), usize> {
    let lead = src[0];
    let (trail, lower, upper) = match lead {
        0x00..=0x7F => return Ok((char::from(lead), 1)),
        0xC2..=0xDF => (1, 0x80, 0xBF),
        0xE0 => (2, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (2, 0x80, 0xBF),
        0xED => (2, 0x80, 0x9F),
        0xF0 => (3, 0x90, 0xBF),
        0xF1..=0xF3 => (3, 0x80, 0xBF),
        0xF4 => (3, 0x80, 0x8F),
        _ => return Err(1),
    };
    let mut code_point = u32::from(lead) & (0x7F >> (trail + 1));
    for i in 1..=trail {
        let Some(&b) = src.get(i) else { return Err(i) };
        let (lo, hi) = if i == 1 { (lower, upper) } else { (0x80, 0xBF) };
        if !(lo..=hi).contains(&b) {
            return Err(i);
        }
        code_point = code_point << 6 | u32::from(b & 0x3F);
    }
    char::from_u32(code_point)
        .map(|c| (c, trail + 1))
        .ok_or(trail + 1)
}

/// Converts UTF-8 to UTF-16 with the transcoding kernel, handling what it stops at one
/// character at a time: a character that does not fit ends the conversion; malformed
/// input is U+FFFD if `replace`, else ends it. Returns `(read, written)`.
fn utf8_to_utf16(k: &Kernels, src: &[u8], dst: &mut [u16], replace: bool) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        let (r, w) = k.utf8_to_utf16(&src[read..], &mut dst[written..]);
        read += r;
        written += w;
        if read == src.len() {
            return (read, written);
        }
        let (c, n) = match next_utf8(&src[read..]) {
            Ok(ok) => ok,
            Err(n) if replace => ('\u{FFFD}', n),
            Err(_) => return (read, written),
        };
        let Some(out) = dst.get_mut(written..written + c.len_utf16()) else {
            return (read, written);
        };
        c.encode_utf16(out);
        read += n;
        written += c.len_utf16();
    }
}

/// Converts potentially-invalid UTF-8 to valid UTF-16 with errors replaced with the
/// REPLACEMENT CHARACTER.
///
/// The length of the destination buffer must be at least the length of the source buffer
/// _plus one_.
///
/// Returns the number of `u16`s written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// ```
/// let mut dst = [0u16; 5];
/// let n = simdenc::mem::convert_utf8_to_utf16(b"a\xF0\x9F\x98", &mut dst);
/// assert_eq!(&dst[..n], &[0x61, 0xFFFD]);
/// ```
pub fn convert_utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> usize {
    assert!(dst.len() > src.len());
    let (read, written) = utf8_to_utf16(simd::active(), src, dst, true);
    debug_assert_eq!(read, src.len());
    written
}

/// Converts valid UTF-8 to valid UTF-16.
///
/// The length of the destination buffer must be at least the length of the source buffer.
///
/// Returns the number of `u16`s written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// ```
/// let mut dst = [0u16; 5];
/// let n = simdenc::mem::convert_str_to_utf16("a\u{1F600}", &mut dst);
/// assert_eq!(&dst[..n], &[0x61, 0xD83D, 0xDE00]);
/// ```
pub fn convert_str_to_utf16(src: &str, dst: &mut [u16]) -> usize {
    assert!(
        dst.len() >= src.len(),
        "Destination must not be shorter than the source."
    );
    let (read, written) = utf8_to_utf16(simd::active(), src.as_bytes(), dst, true);
    debug_assert_eq!(read, src.len());
    written
}

/// Converts potentially-invalid UTF-8 to valid UTF-16 signaling on error.
///
/// The length of the destination buffer must be at least the length of the source buffer.
///
/// Returns the number of `u16`s written or `None` if the input was invalid.
///
/// When the input was invalid, some output may have been written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// ```
/// use simdenc::mem::convert_utf8_to_utf16_without_replacement as convert;
/// let mut dst = [0u16; 4];
/// assert_eq!(convert(b"ab\xC3\xA9", &mut dst), Some(3));
/// assert_eq!(convert(b"ab\xC3", &mut dst), None);
/// ```
pub fn convert_utf8_to_utf16_without_replacement(src: &[u8], dst: &mut [u16]) -> Option<usize> {
    assert!(
        dst.len() >= src.len(),
        "Destination must not be shorter than the source."
    );
    let (read, written) = utf8_to_utf16(simd::active(), src, dst, false);
    (read == src.len()).then_some(written)
}

// ---------------------------------------------------------------------------------------
// UTF-16 -> UTF-8
// ---------------------------------------------------------------------------------------

/// Converts UTF-16 to UTF-8 with the transcoding kernel, unpaired surrogates as U+FFFD,
/// stopping before the first character whose UTF-8 does not fit (`TextEncoder.encodeInto`).
/// Writes nothing past what it returns.
fn utf16_to_utf8(k: &Kernels, src: &[u16], dst: &mut OutBytes) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        let (r, w) = k.utf16_to_utf8(&src[read..], &mut dst[written..]);
        read += r;
        written += w;
        if read == src.len() {
            return (read, written);
        }
        // An unpaired surrogate (U+FFFD), or a character that may not fit.
        let (c, n) = match char::decode_utf16(src[read..].iter().copied().take(2)).next() {
            Some(Ok(c)) => (c, c.len_utf16()),
            _ => ('\u{FFFD}', 1),
        };
        let mut buf = [0; 4];
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        let Some(out) = dst.get_mut(written..written + bytes.len()) else {
            return (read, written);
        };
        write_bytes(out, bytes);
        read += n;
        written += bytes.len();
    }
}

/// Converts potentially-invalid UTF-16 to valid UTF-8 with errors replaced with the
/// REPLACEMENT CHARACTER with potentially insufficient output space.
///
/// Returns the number of code units read and the number of bytes written.
///
/// Guarantees that the bytes in the destination beyond the number of bytes claimed as
/// written by the second item of the return tuple are left unmodified.
///
/// Not all code units are read if there isn't enough output space.
///
/// Note that this method isn't designed for general streamability but for not allocating
/// memory for the worst case up front. Specifically, if the input starts with or ends with
/// an unpaired surrogate, those are replaced with the REPLACEMENT CHARACTER.
///
/// Matches the semantics of `TextEncoder.encodeInto()` from the Encoding Standard.
///
/// # Safety
///
/// If you want to convert into a `&mut str`, use `convert_utf16_to_str_partial()` instead
/// of using this function together with the `unsafe` method `as_bytes_mut()` on `&mut str`.
///
/// ```
/// let mut dst = [b'q'; 6];
/// let (read, written) = simdenc::mem::convert_utf16_to_utf8_partial(&[0x61, 0xE9, 0xD83D, 0xDE00], &mut dst);
/// assert_eq!((read, written, &dst[..]), (2, 3, &b"a\xC3\xA9qqq"[..]));
/// ```
#[inline]
pub fn convert_utf16_to_utf8_partial(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    utf16_to_utf8(simd::active(), src, as_out(dst))
}

/// Converts potentially-invalid UTF-16 to valid UTF-8 with errors replaced with the
/// REPLACEMENT CHARACTER.
///
/// The length of the destination buffer must be at least the length of the source buffer
/// times three.
///
/// Returns the number of bytes written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// # Safety
///
/// If you want to convert into a `&mut str`, use `convert_utf16_to_str()` instead of using
/// this function together with the `unsafe` method `as_bytes_mut()` on `&mut str`.
///
/// ```
/// let mut dst = [0u8; 9];
/// let n = simdenc::mem::convert_utf16_to_utf8(&[0x61, 0xDC00, 0xE9], &mut dst);
/// assert_eq!(&dst[..n], "a\u{FFFD}é".as_bytes());
/// ```
#[inline]
pub fn convert_utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> usize {
    assert!(dst.len() >= src.len() * 3);
    let (read, written) = convert_utf16_to_utf8_partial(src, dst);
    debug_assert_eq!(read, src.len());
    written
}

/// Converts potentially-invalid UTF-16 to valid UTF-8 with errors replaced with the
/// REPLACEMENT CHARACTER such that the validity of the output is signaled using the Rust
/// type system with potentially insufficient output space.
///
/// Returns the number of code units read and the number of bytes written.
///
/// Not all code units are read if there isn't enough output space.
///
/// Note that this method isn't designed for general streamability but for not allocating
/// memory for the worst case up front. Specifically, if the input starts with or ends with
/// an unpaired surrogate, those are replaced with the REPLACEMENT CHARACTER.
///
/// ```
/// let mut text = String::from("qqq");
/// let (read, written) = simdenc::mem::convert_utf16_to_str_partial(&[0x61, 0x4E00], &mut text);
/// assert_eq!((read, written, text.as_str()), (1, 1, "aqq"));
/// ```
pub fn convert_utf16_to_str_partial(src: &[u16], dst: &mut str) -> (usize, usize) {
    let k = simd::active();
    let mut read = 0;
    let written = write_into_str(dst, |out| {
        let (r, w) = utf16_to_utf8(k, src, out);
        read = r;
        w
    });
    (read, written)
}

/// Converts potentially-invalid UTF-16 to valid UTF-8 with errors replaced with the
/// REPLACEMENT CHARACTER such that the validity of the output is signaled using the Rust
/// type system.
///
/// The length of the destination buffer must be at least the length of the source buffer
/// times three.
///
/// Returns the number of bytes written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// ```
/// let mut text = "\0".repeat(6);
/// let n = simdenc::mem::convert_utf16_to_str(&[0x61, 0x4E00], &mut text);
/// assert_eq!(&text[..n], "a\u{4E00}");
/// ```
#[inline]
pub fn convert_utf16_to_str(src: &[u16], dst: &mut str) -> usize {
    assert!(dst.len() >= src.len() * 3);
    let (read, written) = convert_utf16_to_str_partial(src, dst);
    debug_assert_eq!(read, src.len());
    written
}

/// Lets `write` put UTF-8 at the start of `dst` and returns how much it wrote, `written`;
/// then clears the continuation bytes that follow (a character of the old text cut by the
/// new one) so that `dst` is still a `str`.
#[allow(unsafe_code)]
fn write_into_str(dst: &mut str, write: impl FnOnce(&mut OutBytes) -> usize) -> usize {
    /// Zeroes the bytes if dropped: if `write` panics (a bug), the `str` that unwinding
    /// leaves behind is all NUL characters, not invalid UTF-8 (encoding_rs does the same).
    struct ZeroOnDrop<'a>(&'a mut [u8]);
    impl Drop for ZeroOnDrop<'_> {
        fn drop(&mut self) {
            self.0.fill(0);
        }
    }
    // SAFETY: the bytes are valid UTF-8 again before this function returns: `write` puts
    // whole characters of UTF-8 into `bytes[..written]` (the kernels' and this module's
    // writers; contract point 4 of `simd`), the loop below removes the tail of any
    // character cut at `written`, and the rest is the old text. On a panic, the guard
    // makes them all NUL first.
    let guard = ZeroOnDrop(unsafe { dst.as_bytes_mut() });
    let bytes = &mut *guard.0;
    let written = write(as_out(bytes));
    for b in bytes[written..].iter_mut().take_while(|b| **b & 0xC0 == 0x80) {
        *b = 0;
    }
    debug_assert!(
        core::str::from_utf8(bytes).is_ok(),
        "wrote invalid UTF-8 into a str"
    );
    core::mem::forget(guard);
    written
}

// ---------------------------------------------------------------------------------------
// Latin1
// ---------------------------------------------------------------------------------------

/// Converts Latin1 to UTF-8 (the `latin1_to_utf8` kernel: ASCII blocks copied, blocks with
/// letters spread in vectors), stopping before the first byte whose UTF-8 does not fit.
/// Writes nothing past what it returns.
#[inline]
fn latin1_to_utf8(k: &Kernels, src: &[u8], dst: &mut OutBytes) -> (usize, usize) {
    k.latin1_to_utf8(src, 0x80, dst)
}

/// Converts bytes whose unsigned value is interpreted as Unicode code point (i.e. U+0000
/// to U+00FF, inclusive) to UTF-16.
///
/// The length of the destination buffer must be at least the length of the source buffer.
///
/// The number of `u16`s written equals the length of the source buffer.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// ```
/// let mut dst = [0u16; 3];
/// simdenc::mem::convert_latin1_to_utf16(b"a\xE9\xFF", &mut dst);
/// assert_eq!(dst, [0x61, 0xE9, 0xFF]);
/// ```
pub fn convert_latin1_to_utf16(src: &[u8], dst: &mut [u16]) {
    assert!(
        dst.len() >= src.len(),
        "Destination must not be shorter than the source."
    );
    // Zero-extension with no condition: the compiler vectorises it (punpcklbw on SSE2),
    // which beats the ASCII widening kernel plus a loop for the rest.
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = u16::from(s);
    }
}

/// Converts bytes whose unsigned value is interpreted as Unicode code point (i.e. U+0000
/// to U+00FF, inclusive) to UTF-8 with potentially insufficient output space.
///
/// Returns the number of bytes read and the number of bytes written.
///
/// If the output isn't large enough, not all input is consumed.
///
/// # Safety
///
/// If you want to convert into a `&mut str`, use `convert_latin1_to_str_partial()` instead
/// of using this function together with the `unsafe` method `as_bytes_mut()` on `&mut str`.
///
/// ```
/// let mut dst = [0u8; 4];
/// assert_eq!(simdenc::mem::convert_latin1_to_utf8_partial(b"ab\xE9\xE9", &mut dst), (3, 4));
/// assert_eq!(&dst, b"ab\xC3\xA9");
/// ```
pub fn convert_latin1_to_utf8_partial(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    latin1_to_utf8(simd::active(), src, as_out(dst))
}

/// Converts bytes whose unsigned value is interpreted as Unicode code point (i.e. U+0000
/// to U+00FF, inclusive) to UTF-8.
///
/// The length of the destination buffer must be at least the length of the source buffer
/// times two.
///
/// Returns the number of bytes written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// # Safety
///
/// encoding_rs documents that this function may write garbage beyond the number of bytes
/// indicated by the return value (this implementation does not), so using a `&mut str`
/// interpreted as `&mut [u8]` as the destination is not safe. If you want to convert into
/// a `&mut str`, use `convert_latin1_to_str()` instead of this function.
///
/// ```
/// let mut dst = [0u8; 4];
/// let n = simdenc::mem::convert_latin1_to_utf8(b"a\xFF", &mut dst);
/// assert_eq!(&dst[..n], "aÿ".as_bytes());
/// ```
#[inline]
pub fn convert_latin1_to_utf8(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(
        dst.len() >= src.len() * 2,
        "Destination must not be shorter than the source times two."
    );
    let (read, written) = convert_latin1_to_utf8_partial(src, dst);
    debug_assert_eq!(read, src.len());
    written
}

/// Converts bytes whose unsigned value is interpreted as Unicode code point (i.e. U+0000
/// to U+00FF, inclusive) to UTF-8 such that the validity of the output is signaled using
/// the Rust type system with potentially insufficient output space.
///
/// Returns the number of bytes read and the number of bytes written.
///
/// If the output isn't large enough, not all input is consumed.
///
/// ```
/// let mut text = String::from("qq");
/// assert_eq!(simdenc::mem::convert_latin1_to_str_partial(b"a\xE9", &mut text), (1, 1));
/// assert_eq!(text, "aq");
/// ```
#[inline]
pub fn convert_latin1_to_str_partial(src: &[u8], dst: &mut str) -> (usize, usize) {
    let k = simd::active();
    let mut read = 0;
    let written = write_into_str(dst, |out| {
        let (r, w) = latin1_to_utf8(k, src, out);
        read = r;
        w
    });
    (read, written)
}

/// Converts bytes whose unsigned value is interpreted as Unicode code point (i.e. U+0000
/// to U+00FF, inclusive) to UTF-8 such that the validity of the output is signaled using
/// the Rust type system.
///
/// The length of the destination buffer must be at least the length of the source buffer
/// times two.
///
/// Returns the number of bytes written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// ```
/// let mut text = "\0".repeat(6);
/// let n = simdenc::mem::convert_latin1_to_str(b"\xE9t\xE9", &mut text);
/// assert_eq!(&text[..n], "été");
/// ```
#[inline]
pub fn convert_latin1_to_str(src: &[u8], dst: &mut str) -> usize {
    assert!(
        dst.len() >= src.len() * 2,
        "Destination must not be shorter than the source times two."
    );
    let (read, written) = convert_latin1_to_str_partial(src, dst);
    debug_assert_eq!(read, src.len());
    written
}

/// Converts UTF-8 of Latin1 to Latin1: ASCII and Latin1 letters by `utf8_to_latin1`, any
/// other byte with the next as one character (`(lead & 0x1F) << 6 | trail & 0x3F`, what the
/// kernel writes for the letters too; a last lone byte writes nothing), which is what
/// encoding_rs writes for any input. Writes at most `src.len()` bytes.
fn utf8_to_latin1(k: &Kernels, src: &[u8], dst: &mut OutBytes) -> usize {
    let (mut read, mut written) = (0, 0);
    loop {
        // ASCII and Latin1 letters (U+0080..=U+00FF) through the kernel; it stops at what is
        // not, which is converted as the lossy conversion does (the callers give room for
        // all: the output is never longer than the input).
        let (r, w) = k.utf8_to_latin1(&src[read..], 0x80, &mut dst[written..]);
        read += r;
        written += w;
        let (Some(&lead), Some(&trail)) = (src.get(read), src.get(read + 1)) else {
            return written;
        };
        dst[written].write((lead & 0x1F) << 6 | trail & 0x3F);
        read += 2;
        written += 1;
    }
}

/// Whether `src` is Latin1 as the `*_latin1_lossy` functions require; always `true` under
/// cargo-fuzz, where encoding_rs skips the check too.
#[allow(unexpected_cfgs)]
fn lossy_input_ok(src: &[u8]) -> bool {
    cfg!(fuzzing) || is_utf8_latin1(src)
}

/// If the input is valid UTF-8 representing only Unicode code points from U+0000 to
/// U+00FF, inclusive, converts the input into output that represents the value of each
/// code point as the unsigned byte value of each output byte.
///
/// If the input does not fulfill the condition stated above, this function panics if debug
/// assertions are enabled (and fuzzing isn't) and otherwise does something that is
/// memory-safe without any promises about any properties of the output. In particular,
/// callers shouldn't assume the output to be the same across crate versions or CPU
/// architectures and should not assume that non-ASCII input can't map to ASCII output.
///
/// The length of the destination buffer must be at least the length of the source buffer.
///
/// Returns the number of bytes written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// If debug assertions are enabled (and not fuzzing) and the input is not in the range
/// U+0000 to U+00FF, inclusive.
///
/// ```
/// let mut dst = [0u8; 5];
/// let n = simdenc::mem::convert_utf8_to_latin1_lossy("café".as_bytes(), &mut dst);
/// assert_eq!(&dst[..n], b"caf\xE9");
/// ```
pub fn convert_utf8_to_latin1_lossy(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(
        dst.len() >= src.len(),
        "Destination must not be shorter than the source."
    );
    debug_assert!(lossy_input_ok(src), "the input is not UTF-8 of U+0000 to U+00FF");
    utf8_to_latin1(simd::active(), src, as_out(dst))
}

/// If the input is valid UTF-16 representing only Unicode code points from U+0000 to
/// U+00FF, inclusive, converts the input into output that represents the value of each
/// code point as the unsigned byte value of each output byte.
///
/// If the input does not fulfill the condition stated above, does something that is
/// memory-safe without any promises about any properties of the output and will probably
/// assert in debug builds in future versions. In particular, callers shouldn't assume the
/// output to be the same across crate versions or CPU architectures and should not assume
/// that non-ASCII input can't map to ASCII output.
///
/// The length of the destination buffer must be at least the length of the source buffer.
///
/// The number of bytes written equals the length of the source buffer.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// (Probably in future versions if debug assertions are enabled (and not fuzzing) and the
/// input is not in the range U+0000 to U+00FF, inclusive.)
///
/// ```
/// let mut dst = [0u8; 2];
/// simdenc::mem::convert_utf16_to_latin1_lossy(&[0x61, 0xE9], &mut dst);
/// assert_eq!(&dst, b"a\xE9");
/// ```
pub fn convert_utf16_to_latin1_lossy(src: &[u16], dst: &mut [u8]) {
    assert!(
        dst.len() >= src.len(),
        "Destination must not be shorter than the source."
    );
    // Truncation with no condition: vectorised by the compiler (as encoding_rs truncates).
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = s as u8;
    }
}

/// Converts bytes whose unsigned value is interpreted as Unicode code point (i.e. U+0000
/// to U+00FF, inclusive) to UTF-8.
///
/// Borrows if input is ASCII-only. Performs a single heap allocation otherwise.
///
/// ```
/// use std::borrow::Cow;
/// assert!(matches!(simdenc::mem::decode_latin1(b"abc"), Cow::Borrowed("abc")));
/// assert_eq!(simdenc::mem::decode_latin1(b"caf\xE9"), "café");
/// ```
#[cfg(feature = "alloc")]
pub fn decode_latin1(bytes: &[u8]) -> Cow<'_, str> {
    let k = simd::active();
    let up_to = k.ascii_prefix_len(bytes);
    if up_to == bytes.len() {
        return Cow::Borrowed(crate::oneshot::as_str(bytes));
    }
    let (head, tail) = bytes.split_at(up_to);
    // At most two bytes per byte (no overflow: a slice has at most `isize::MAX` bytes).
    let mut out = Vec::with_capacity(head.len() + 2 * tail.len());
    out.extend_from_slice(head);
    append_to_vec(&mut out, |spare| {
        let (read, written) = latin1_to_utf8(k, tail, spare);
        debug_assert_eq!(read, tail.len());
        written
    });
    Cow::Owned(trusted_string(out))
}

/// If the input is valid UTF-8 representing only Unicode code points from U+0000 to
/// U+00FF, inclusive, converts the input into output that represents the value of each
/// code point as the unsigned byte value of each output byte.
///
/// If the input does not fulfill the condition stated above, this function panics if debug
/// assertions are enabled (and fuzzing isn't) and otherwise does something that is
/// memory-safe without any promises about any properties of the output. In particular,
/// callers shouldn't assume the output to be the same across crate versions or CPU
/// architectures and should not assume that non-ASCII input can't map to ASCII output.
///
/// Borrows if input is ASCII-only. Performs a single heap allocation otherwise.
///
/// ```
/// use std::borrow::Cow;
/// assert!(matches!(simdenc::mem::encode_latin1_lossy("abc"), Cow::Borrowed(b"abc")));
/// assert_eq!(&*simdenc::mem::encode_latin1_lossy("café"), b"caf\xE9");
/// ```
#[cfg(feature = "alloc")]
pub fn encode_latin1_lossy(string: &str) -> Cow<'_, [u8]> {
    let bytes = string.as_bytes();
    let k = simd::active();
    let up_to = k.ascii_prefix_len(bytes);
    if up_to == bytes.len() {
        return Cow::Borrowed(bytes);
    }
    let (head, tail) = bytes.split_at(up_to);
    debug_assert!(lossy_input_ok(tail), "the input is not U+0000 to U+00FF");
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(head);
    append_to_vec(&mut out, |spare| utf8_to_latin1(k, tail, spare));
    Cow::Owned(out)
}

/// `bytes`, ASCII followed by what `latin1_to_utf8` wrote, as a `String` without a second
/// validation (checked again in debug builds).
#[cfg(feature = "alloc")]
#[allow(unsafe_code)]
fn trusted_string(bytes: Vec<u8>) -> String {
    debug_assert!(core::str::from_utf8(&bytes).is_ok(), "Latin1 decode is not UTF-8");
    // SAFETY: the bytes are an ASCII prefix and the UTF-8 of whole Latin1 characters, as
    // written by the single-byte kernel (contract point 4 of `simd`) or `char::encode_utf8`.
    unsafe { String::from_utf8_unchecked(bytes) }
}

// ---------------------------------------------------------------------------------------
// ASCII copies
// ---------------------------------------------------------------------------------------

/// Copies ASCII from source to destination up to the first non-ASCII byte (or the end of
/// the input if it is ASCII in its entirety).
///
/// The length of the destination buffer must be at least the length of the source buffer.
///
/// Returns the number of bytes written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// ```
/// let mut dst = [0u8; 4];
/// assert_eq!(simdenc::mem::copy_ascii_to_ascii(b"ab\xE9c", &mut dst), 2);
/// assert_eq!(&dst[..2], b"ab");
/// ```
pub fn copy_ascii_to_ascii(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(
        dst.len() >= src.len(),
        "Destination must not be shorter than the source."
    );
    simd::active().copy_ascii(src, as_out(dst))
}

/// Copies ASCII from source to destination zero-extending it to UTF-16 up to the first
/// non-ASCII byte (or the end of the input if it is ASCII in its entirety).
///
/// The length of the destination buffer must be at least the length of the source buffer.
///
/// Returns the number of `u16`s written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// ```
/// let mut dst = [0u16; 4];
/// assert_eq!(simdenc::mem::copy_ascii_to_basic_latin(b"ab\xE9c", &mut dst), 2);
/// assert_eq!(&dst[..2], &[0x61, 0x62]);
/// ```
pub fn copy_ascii_to_basic_latin(src: &[u8], dst: &mut [u16]) -> usize {
    assert!(
        dst.len() >= src.len(),
        "Destination must not be shorter than the source."
    );
    simd::active().widen_ascii(src, dst)
}

/// Copies Basic Latin from source to destination narrowing it to ASCII up to the first
/// non-Basic Latin code unit (or the end of the input if it is Basic Latin in its
/// entirety).
///
/// The length of the destination buffer must be at least the length of the source buffer.
///
/// Returns the number of bytes written.
///
/// # Panics
///
/// Panics if the destination buffer is shorter than stated above.
///
/// ```
/// let mut dst = [0u8; 4];
/// assert_eq!(simdenc::mem::copy_basic_latin_to_ascii(&[0x61, 0x62, 0xE9, 0x63], &mut dst), 2);
/// assert_eq!(&dst[..2], b"ab");
/// ```
pub fn copy_basic_latin_to_ascii(src: &[u16], dst: &mut [u8]) -> usize {
    assert!(
        dst.len() >= src.len(),
        "Destination must not be shorter than the source."
    );
    simd::active().narrow_ascii(src, as_out(dst))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel paths at every level this CPU has, against std, without the global switch.
    #[test]
    fn kernel_paths_every_level() {
        let inputs: [&[u8]; 6] = [
            b"",
            b"plain ascii text that is longer than one vector of any level, 64+ bytes.....",
            "caf\u{e9} \u{5d0}\u{1f600} \u{4e00}".as_bytes(),
            b"\xC3\xA9\xC3",
            b"a\xF0\x9F\x98b\xED\xA0\x80c\xE0\x80",
            b"\xFF\xC2\xC2\x80",
        ];
        for k in simd::available() {
            for input in inputs {
                let lossy = String::from_utf8_lossy(input);
                let expect: Vec<u16> = lossy.encode_utf16().collect();
                let mut dst = vec![0u16; input.len() + 1];
                let (read, written) = utf8_to_utf16(k, input, &mut dst, true);
                assert_eq!(
                    (read, &dst[..written]),
                    (input.len(), &expect[..]),
                    "{:?}",
                    k.level()
                );

                let mut out = vec![0u8; expect.len() * 3];
                let (read, written) = utf16_to_utf8(k, &expect, as_out(&mut out));
                assert_eq!((read, &out[..written]), (expect.len(), lossy.as_bytes()));

                let mut out = vec![0u8; input.len() * 2];
                let (read, written) = latin1_to_utf8(k, input, as_out(&mut out));
                let latin1: String = input.iter().map(|&b| char::from(b)).collect();
                assert_eq!((read, &out[..written]), (input.len(), latin1.as_bytes()));

                let mut back = vec![0u8; written];
                let n = utf8_to_latin1(k, &out[..written], as_out(&mut back));
                assert_eq!(&back[..n], input);
            }
        }
    }

    #[test]
    fn next_utf8_maximal_subparts() {
        assert_eq!(next_utf8(b"\xE0\x80"), Err(1));
        assert_eq!(next_utf8(b"\xE0\xA0"), Err(2));
        assert_eq!(next_utf8(b"\xF4\x90"), Err(1));
        assert_eq!(next_utf8(b"\xF4\x8F\xBF"), Err(3));
        assert_eq!(next_utf8(b"\xF4\x8F\xBF\xBF"), Ok(('\u{10FFFF}', 4)));
        assert_eq!(next_utf8(b"\xED\xA0\x80"), Err(1));
        assert_eq!(next_utf8(b"\xC1\xBF"), Err(1));
    }

    #[test]
    fn bidi_unit_matches_ranges() {
        for u in 0..=0xFFFFu16 {
            let expect = match char::from_u32(u32::from(u)) {
                Some(c) => is_char_bidi(c),
                None => matches!(u, 0xD802 | 0xD803 | 0xD83A | 0xD83B),
            };
            assert_eq!(is_utf16_code_unit_bidi(u), expect, "{u:04X}");
        }
    }
}
