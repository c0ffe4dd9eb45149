//! AVX-512 (VBMI, VBMI2) transcoding between UTF-8 and UTF-16, after Clausecker & Lemire,
//! "Transcoding Unicode Characters with AVX-512 Instructions" (2023), simplified.
//!
//! ```text
//! utf8_to_utf16: at a character boundary p (everything before it converted):
//!     load 64 bytes (masked at the end of the input: zeros after it)
//!     all ASCII: widen, store if it fits; p += 64
//!     leads of 2+, 3+ bytes, continuations: masks m2, m3, cont
//!     16 characters of 4 bytes (emoji): u32 lanes -> surrogate pairs, range-checked; p += 64
//!     21 characters of 3 bytes (CJK): gathered into u32 lanes, range-checked; p += 63
//!     validate the 64 bytes alone (the byte before p ends a character, which every check
//!         treats as ASCII); an error, or a character cut by the end of the input: stop
//!         no leads of 4 bytes: structure from the masks (cont == m2 << 1 | m3 << 2), plus
//!             C0/C1, E0 + <A0, ED + >=A0 (a lookup of the leads says if any is there)
//!         leads of 4 bytes: the Keiser-Lemire lookup algorithm
//!     keep the bytes up to the last complete character (61..=64 of them, from bytes 61..63)
//!     only 1- and 3-byte characters, 32 at most: lead positions compressed, each character
//!         gathered into a u32 lane (vpermb), decoded, packed to 16 bits
//!     else per 32-byte half, one u16 lane per byte j, from bytes j, j+1, j+2 (vpermb):
//!         ASCII: b0   2 bytes: b0:b1   3 bytes: b0:b1:b2
//!         4-byte lead: the high surrogate; the byte after it: the low surrogate
//!         compress the lanes of leads and after-4-byte-leads (vpcompressw)
//!     store if it fits, else stop
//! utf16_to_utf8 (and utf16_bytes_to_utf8, which loads bytes and swaps them if big-endian):
//!     32 units: all ASCII: narrow and store, then 64 at a time while ASCII
//!         all below U+0800: 2 bytes per u16 lane, vpcompressb the present ones
//!         all 3-byte: per 16, u32 lanes -> 3 bytes (vpmultishiftqb), packed (vpermb)
//!         ASCII and 3-byte only: per 16, the unit or its 3 bytes, vpcompressb
//!         16 surrogate pairs (emoji), one per u32 lane: 4 bytes each
//!     else per half of 16 units widened to u32 lanes: high surrogate + low surrogate: one
//!         4-byte character; an unpaired one: convert
//!         what precedes it and stop; the last unit of the input a high surrogate: leave it
//!         per lane the 1-4 bytes (vpmultishiftqb, markers, shift), vpcompressb
//!     store if it fits, else stop
//! every kernel finishes with the scalar kernel from where the vector loop stopped
//! ```
//! The vector loops stop only at character boundaries, after converting exactly the
//! characters before them, and write only what they return: the scalar kernels are greedy
//! and stateless at character boundaries, so the results equal theirs exactly, as the kernel
//! contract requires. Stores are masked to the bytes or units produced, after checking that
//! they fit; loads near the end of the input are masked, so nothing outside the slices is
//! touched.
//!
//! The special paths (runs of 3- and 4-byte characters, 1- and 3-byte chunks) are there for
//! the texts they target (docs/decisions.md, "Kernel tuning").
//!
//! The entry points enable `popcnt` besides the `Level::Avx512` features: `cpu::detect`
//! reports `Avx512` only inside its `Avx2` branch, which requires popcnt, so every table that
//! is handed out for this level runs on a CPU with popcnt (without it, counting mask bits is
//! a dozen instructions).
use crate::simd::OutBytes;
use core::arch::x86_64::*;

use crate::simd::generic::ascii::store_skew;
use crate::simd::generic::utf8::{BYTE_1_HIGH, BYTE_1_LOW, BYTE_2_HIGH, char_start};
use crate::simd::scalar;

// ---------------------------------------------------------------------------------------------
// Constants.

/// 64 bytes aligned for a vector load.
#[repr(C, align(64))]
struct Bytes64([u8; 64]);

/// A 16-entry table for `vpermb` indexed by `byte >> 2` (6 bits): entry `i` is `t[i >> 2]`.
/// `vpermb` ignores the two high index bits, so `srli_epi16(v, 2)` needs no mask.
const fn by_high_nibble(t: &[u8; 16]) -> Bytes64 {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = t[i >> 2];
        i += 1;
    }
    Bytes64(out)
}

/// A 16-entry table for `vpermb` indexed by the byte itself (low 6 bits): `t[i & 15]`.
const fn by_low_nibble(t: &[u8; 16]) -> Bytes64 {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = t[i & 15];
        i += 1;
    }
    Bytes64(out)
}

/// `vpermb` indices: byte `i` takes byte `i + shift` (mod 64).
const fn shifted(shift: usize) -> Bytes64 {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = ((i + shift) & 63) as u8;
        i += 1;
    }
    Bytes64(out)
}

/// `vpermb` indices making u16 lane `j` of a half from bytes `base + j` (low) and
/// `base + j + 1` (high), mod 64.
const fn pair_lanes(base: usize) -> Bytes64 {
    let mut out = [0; 64];
    let mut j = 0;
    while j < 32 {
        out[2 * j] = ((base + j) & 63) as u8;
        out[2 * j + 1] = ((base + j + 1) & 63) as u8;
        j += 1;
    }
    Bytes64(out)
}

/// `vpermb` indices for the low byte of u16 lane `j`: byte `base + j + 2` (mod 64); the odd
/// bytes are zeroed by the mask where it is used.
const fn third_lanes(base: usize) -> Bytes64 {
    let mut out = [0; 64];
    let mut j = 0;
    while j < 32 {
        out[2 * j] = ((base + j + 2) & 63) as u8;
        j += 1;
    }
    Bytes64(out)
}

/// `vpermw` indices for u32 lane `k`: u16 `base + k` (mod 32) in its low half; the high
/// halves are zeroed by the mask where it is used.
const fn unit_lanes(base: usize) -> Bytes64 {
    let mut out = [0; 64];
    let mut k = 0;
    while k < 16 {
        out[4 * k] = ((base + k) & 31) as u8;
        k += 1;
    }
    Bytes64(out)
}

static T1H: Bytes64 = by_high_nibble(&BYTE_1_HIGH);
static T1L: Bytes64 = by_low_nibble(&BYTE_1_LOW);
static T2H: Bytes64 = by_high_nibble(&BYTE_2_HIGH);
/// Byte `i` from byte `i - 1` (byte 0 is zeroed by the mask where it is used).
static PREV1: Bytes64 = shifted(63);
static PAIR: [Bytes64; 2] = [pair_lanes(0), pair_lanes(32)];
static THIRD: [Bytes64; 2] = [third_lanes(0), third_lanes(32)];
static UNIT: [Bytes64; 2] = [unit_lanes(0), unit_lanes(16)];
static NEXT: [Bytes64; 2] = [unit_lanes(1), unit_lanes(17)];

/// Even u16 of a vector (the low halves of u32 lanes).
const EVEN_WORDS: u32 = 0x5555_5555;

/// # Safety
/// AVX-512F is enabled in the caller.
#[inline(always)]
unsafe fn load_const(c: &Bytes64) -> __m512i {
    // SAFETY: `c` is 64 readable bytes; AVX-512F per the contract.
    unsafe { _mm512_loadu_si512(c.0.as_ptr().cast()) }
}

/// The mask of the low `n` bits (all of them for `n >= 64`); `bzhi` where BMI2 is enabled.
#[inline(always)]
pub(super) fn low_bits64(n: usize) -> u64 {
    if n >= 64 { !0 } else { (1 << n) - 1 }
}

/// The mask of the low `n` bits (all of them for `n >= 32`); `bzhi` where BMI2 is enabled.
#[inline(always)]
fn low_bits32(n: usize) -> u32 {
    if n >= 32 { !0 } else { (1 << n) - 1 }
}

// ---------------------------------------------------------------------------------------------
// UTF-8 to UTF-16.

/// Lead bytes of 21 three-byte characters from byte 0 (and of a 22nd at byte 63).
const PURE_3: u64 = 0x9249_2492_4924_9249;
/// Lead bytes of 16 four-byte characters.
const PURE_4: u64 = 0x1111_1111_1111_1111;

/// `vpermb` indices for characters of three bytes from byte 0 in u16 lanes: lane `j` takes
/// bytes `3j + first` and `3j + first + 1` (mod 64).
const fn every_third(first: usize) -> Bytes64 {
    let mut out = [0; 64];
    let mut j = 0;
    while j < 32 {
        out[2 * j] = ((3 * j + first) & 63) as u8;
        out[2 * j + 1] = ((3 * j + first + 1) & 63) as u8;
        j += 1;
    }
    Bytes64(out)
}

static PAIR3: Bytes64 = every_third(0);
static THIRD3: Bytes64 = every_third(2);
/// Lead bytes by their low 6 bits (`vpermb`): 1 for C0, C1 and F0..FF (invalid, or 4 bytes
/// long), 2 for E0, 4 for ED (limits on the second byte), 0 for the others.
static LEAD_CLASS: Bytes64 = {
    let mut out = [0; 64];
    out[0] = 1;
    out[1] = 1;
    out[0x20] = 2;
    out[0x2D] = 4;
    let mut i = 0x30;
    while i < 64 {
        out[i] = 1;
        i += 1;
    }
    Bytes64(out)
};
/// 0, 1, 2, ..., 63.
static IOTA: Bytes64 = shifted(0);
/// `vpermb` indices: both bytes of u16 lane `j` take byte `j`.
static SPREAD: Bytes64 = {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = (i / 2) as u8;
        i += 1;
    }
    Bytes64(out)
};

/// The constant vectors of [`utf8_to_utf16`], loaded once per call.
struct Utf8Consts {
    t1h: __m512i,
    t1l: __m512i,
    t2h: __m512i,
    prev1: __m512i,
    pair: [__m512i; 2],
    third: [__m512i; 2],
    pair3: __m512i,
    third3: __m512i,
    lead_class: __m512i,
    iota: __m512i,
    spread: __m512i,
}

impl Utf8Consts {
    /// # Safety
    /// AVX-512F is enabled in the caller.
    #[inline(always)]
    unsafe fn load() -> Self {
        // SAFETY: AVX-512F per the contract.
        unsafe {
            Utf8Consts {
                t1h: load_const(&T1H),
                t1l: load_const(&T1L),
                t2h: load_const(&T2H),
                prev1: load_const(&PREV1),
                pair: [load_const(&PAIR[0]), load_const(&PAIR[1])],
                third: [load_const(&THIRD[0]), load_const(&THIRD[1])],
                pair3: load_const(&PAIR3),
                third3: load_const(&THIRD3),
                lead_class: load_const(&LEAD_CLASS),
                iota: load_const(&IOTA),
                spread: load_const(&SPREAD),
            }
        }
    }
}

/// Whether the 64 bytes in `v`, which start at a character boundary, hold an error (the
/// Keiser-Lemire lookup, with zeros before the chunk: the byte before a character boundary
/// ends a character, and every check treats that as it treats ASCII). A character cut by the
/// end of the chunk is not an error; one cut by the zeros after a short chunk is.
///
/// # Safety
/// AVX-512F, BW and VBMI are enabled in the caller.
#[inline(always)]
unsafe fn lookup_error(v: __m512i, m3: u64, m4: u64, k: &Utf8Consts) -> bool {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        let prev1 = _mm512_maskz_permutexvar_epi8(!1, k.prev1, v);
        let special = _mm512_ternarylogic_epi64::<0x80>(
            _mm512_permutexvar_epi8(_mm512_srli_epi16::<2>(prev1), k.t1h),
            _mm512_permutexvar_epi8(prev1, k.t1l),
            _mm512_permutexvar_epi8(_mm512_srli_epi16::<2>(v), k.t2h),
        );
        // Continuations required as 3rd/4th bytes: two after a 3+ lead, three after a 4 lead.
        let must23 = (m3 << 2) | (m4 << 3);
        (_mm512_test_epi8_mask(special, _mm512_set1_epi8(0x7F)) | (_mm512_movepi8_mask(special) ^ must23))
            != 0
    }
}

/// Validates the bytes in `v` (64, or fewer and zeros after them), which start at a
/// character boundary; `cont`, `m2`, `m3`: the continuation bytes and the leads of 2+ and 3+
/// bytes. A character cut by the end of a full chunk is fine; one cut by the zeros after a
/// short chunk is an error. Returns the leads of 4 bytes, or `None` on an error.
///
/// Without leads of 4 bytes, the masks give the structure (every lead followed by exactly
/// its continuations); the values that the structure leaves open are C0/C1 leads and the
/// second bytes after E0 (A0 and up) and ED (below A0). A lookup of the lead bytes finds
/// whether any of those, or a lead of 4 bytes, is there at all; the chunks that have leads of
/// 4 bytes take the Keiser-Lemire lookup algorithm instead.
///
/// # Safety
/// AVX-512F, BW and VBMI are enabled in the caller.
#[inline(always)]
unsafe fn utf8_check(v: __m512i, cont: u64, m2: u64, m3: u64, k: &Utf8Consts) -> Option<u64> {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        if m3 == 0 {
            let overlong = _mm512_mask_cmplt_epu8_mask(m2, v, _mm512_set1_epi8(0xC2u8 as i8));
            return (cont == m2 << 1 && overlong == 0).then_some(0);
        }
        // Per lead (by its low 6 bits): 1 for C0, C1, F0..FF; 2 for E0; 4 for ED.
        let class = _mm512_permutexvar_epi8(v, k.lead_class);
        if _mm512_mask_test_epi8_mask(m2, class, class) == 0 {
            return (cont == (m2 << 1) | (m3 << 2)).then_some(0);
        }
        if _mm512_mask_test_epi8_mask(m2, class, _mm512_set1_epi8(1)) != 0 {
            let m4 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xF0u8 as i8));
            return (!lookup_error(v, m3, m4, k)).then_some(m4);
        }
        if cont != (m2 << 1) | (m3 << 2) {
            return None;
        }
        let e0 = _mm512_mask_test_epi8_mask(m2, class, _mm512_set1_epi8(2));
        let ed = _mm512_mask_test_epi8_mask(m2, class, _mm512_set1_epi8(4));
        // Where the next byte is below A0 (a continuation, by the structure; the next byte
        // of a lead in byte 63 is unknown: `cont >> 1` leaves that to the next chunk).
        let low_next = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0xA0u8 as i8)) >> 1;
        ((e0 & low_next) | (ed & !low_next & (cont >> 1)) == 0).then_some(0)
    }
}

/// The UTF-16 of half `H` (bytes 32H..32H+32) of a validated chunk, compressed: lane `j`
/// computes the unit of the character whose lead is byte `32H + j`, or the low surrogate if
/// byte `32H + j - 1` is a 4-byte lead; `out` selects the lanes. `m2`, `m3`, `m4`: leads of
/// 2+, 3+, 4 bytes. Returns the units and their number.
///
/// # Safety
/// AVX-512F, BW, VBMI, VBMI2 and POPCNT are enabled in the caller.
#[inline(always)]
unsafe fn utf8_half<const H: usize>(
    v: __m512i,
    out: u64,
    m2: u64,
    m3: u64,
    m4: u64,
    k: &Utf8Consts,
) -> (__m512i, usize) {
    let shift = 32 * H;
    let (out, m2, m3, m4, after4) = (
        (out >> shift) as u32,
        (m2 >> shift) as u32,
        (m3 >> shift) as u32,
        (m4 >> shift) as u32,
        ((m4 << 1) >> shift) as u32,
    );
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        // Lane j: b0 | b1 << 8.
        let x01 = _mm512_permutexvar_epi8(k.pair[H], v);
        let b0 = _mm512_and_si512(x01, _mm512_set1_epi16(0xFF));
        // (b0 & 0x1F) << 6 | (b1 & 0x3F): the 2-byte code point (bytes [64, 1] as i16 0x0140).
        let s = _mm512_maddubs_epi16(
            _mm512_and_si512(x01, _mm512_set1_epi16(0x3F1F)),
            _mm512_set1_epi16(0x0140),
        );
        let mut cp = _mm512_mask_blend_epi16(m2, b0, s);
        if m3 | after4 != 0 {
            // Lane j: b2 in the low byte (the high byte is masked off below).
            let x2 = _mm512_permutexvar_epi8(k.third[H], v);
            // s << 6 | (b2 & 0x3F): the 3-byte code point (E0..EF & 0x1F = their low nibble).
            let t3 =
                _mm512_ternarylogic_epi64::<0xF8>(_mm512_slli_epi16::<6>(s), x2, _mm512_set1_epi16(0x3F));
            cp = _mm512_mask_blend_epi16(m3, cp, t3);
            if m4 | after4 != 0 {
                // High surrogate: 0xD800 + (cp >> 10) - 0x40; with s = (0x10 | b0 & 7) << 6 |
                // b1' that is (s << 2 | b2' >> 4) + 0xD800 - 0x40 - 0x1000 (mod 2^16).
                let hi = _mm512_add_epi16(
                    _mm512_ternarylogic_epi64::<0xF8>(
                        _mm512_slli_epi16::<2>(s),
                        _mm512_srli_epi16::<4>(x2),
                        _mm512_set1_epi16(3),
                    ),
                    _mm512_set1_epi16(0xC7C0u16 as i16),
                );
                // Low surrogate, in the lane of the 2nd byte: its "3-byte" value's low 10 bits.
                let lo = _mm512_ternarylogic_epi64::<0xEA>(
                    t3,
                    _mm512_set1_epi16(0x3FF),
                    _mm512_set1_epi16(0xDC00u16 as i16),
                );
                cp = _mm512_mask_blend_epi16(m4, cp, hi);
                cp = _mm512_mask_blend_epi16(after4, cp, lo);
            }
        }
        (_mm512_maskz_compress_epi16(out, cp), out.count_ones() as usize)
    }
}

/// The 64 bytes of 16 four-byte characters (`v` has leads of 3+ bytes exactly at [`PURE_4`]
/// and continuations elsewhere) as 32 UTF-16 units, or `None` if one is out of range.
///
/// # Safety
/// AVX-512F and BW are enabled in the caller.
#[inline(always)]
unsafe fn pure4_to_utf16(v: __m512i) -> Option<__m512i> {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        // u32 lane: b0 b1 b2 b3. (b0 & 0x1F) << 6 | b1 and b2 << 6 | b3 (6 bits each), then
        // c = those << 12 | ...: the code point plus 0x400000 for F0..F7 (bit 4 of the lead),
        // less for E0..EF leads, more for F8..FF.
        let pairs = _mm512_maddubs_epi16(
            _mm512_and_si512(v, _mm512_set1_epi32(0x3F3F_3F1F)),
            _mm512_set1_epi16(0x0140),
        );
        let c = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x0001_1000));
        let out_of_range = _mm512_cmpge_epu32_mask(
            _mm512_sub_epi32(c, _mm512_set1_epi32(0x41_0000)),
            _mm512_set1_epi32(0x10_0000),
        );
        if out_of_range != 0 {
            return None;
        }
        // High surrogate 0xD7C0 + (cp >> 10) in the low half, low surrogate 0xDC00 | cp & 0x3FF
        // in the high half; cp >> 10 = (c >> 10) - 0x1000.
        let units = _mm512_ternarylogic_epi32::<0xEA>(
            _mm512_slli_epi32::<16>(c),
            _mm512_set1_epi32(0x03FF_0000),
            _mm512_srli_epi32::<10>(c),
        );
        Some(_mm512_add_epi32(units, _mm512_set1_epi32(0xDC00_C7C0u32 as i32)))
    }
}

/// The first 63 bytes of `v` (21 three-byte characters: leads of 3+ bytes exactly at
/// [`PURE_3`], continuations elsewhere) as 21 UTF-16 units (the first 21 lanes), or `None`
/// if a lead is E0 or ED (whose characters may be overlong or surrogates) or of 4 bytes:
/// those take the general path.
///
/// # Safety
/// AVX-512F, BW and VBMI are enabled in the caller.
#[inline(always)]
unsafe fn pure3_to_utf16(v: __m512i, k: &Utf8Consts) -> Option<__m512i> {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        let class = _mm512_permutexvar_epi8(v, k.lead_class);
        if _mm512_mask_test_epi8_mask(PURE_3, class, class) != 0 {
            return None;
        }
        // u16 lane j: b0 | b1 << 8 and b2 of character j; (b0 & 0x0F) << 6 | (b1 & 0x3F),
        // then << 6 | (b2 & 0x3F).
        let x01 = _mm512_permutexvar_epi8(k.pair3, v);
        let x2 = _mm512_permutexvar_epi8(k.third3, v);
        let s = _mm512_maddubs_epi16(
            _mm512_and_si512(x01, _mm512_set1_epi16(0x3F0F)),
            _mm512_set1_epi16(0x0140),
        );
        Some(_mm512_ternarylogic_epi64::<0xF8>(
            _mm512_slli_epi16::<6>(s),
            x2,
            _mm512_set1_epi16(0x3F),
        ))
    }
}

/// The UTF-16 of up to 32 valid characters of 1 or 3 bytes in `v`, whose leads are `leads`;
/// bit `i` of `three` tells whether character `i` has 3 bytes. Unit `i` of the result is
/// character `i`'s (the lanes after the last character are meaningless).
///
/// The positions of the leads are compressed (as Clausecker & Lemire do), then u16 lane `i`
/// gathers the bytes of character `i` (`vpermb`): b0 | b1 << 8, and b2.
///
/// # Safety
/// AVX-512F, BW, VBMI and VBMI2 are enabled in the caller.
#[inline(always)]
unsafe fn one_or_three_utf8_to_utf16(v: __m512i, leads: u64, three: u32, k: &Utf8Consts) -> __m512i {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        let positions = _mm512_maskz_compress_epi8(leads, k.iota);
        let at = _mm512_permutexvar_epi8(k.spread, positions);
        let x01 = _mm512_permutexvar_epi8(_mm512_add_epi8(at, _mm512_set1_epi16(0x0100)), v);
        let x2 = _mm512_permutexvar_epi8(_mm512_add_epi8(at, _mm512_set1_epi16(0x0302)), v);
        // 3 bytes: (b0 & 0x0F) << 6 | (b1 & 0x3F), then << 6 | (b2 & 0x3F).
        let s = _mm512_maddubs_epi16(
            _mm512_and_si512(x01, _mm512_set1_epi16(0x3F0F)),
            _mm512_set1_epi16(0x0140),
        );
        let c3 = _mm512_ternarylogic_epi64::<0xF8>(_mm512_slli_epi16::<6>(s), x2, _mm512_set1_epi16(0x3F));
        _mm512_mask_mov_epi16(_mm512_and_si512(x01, _mm512_set1_epi16(0x7F)), three, c3)
    }
}

/// How many of the 64 bytes from a character boundary hold complete characters, given bytes
/// 61, 62, 63, if the chunk is valid: a lead of 2+ bytes at 63, 3+ at 62 or 4 at 61 starts
/// a character the chunk does not finish (one at most, in a valid chunk). Without branches:
/// which one it is follows no pattern in most text.
#[inline(always)]
fn complete_len(tail: &[u8]) -> usize {
    64 - usize::from(tail[2] >= 0xC0) - 2 * usize::from(tail[1] >= 0xE0) - 3 * usize::from(tail[0] >= 0xF0)
}

crate::simd::x86::with_features! { avx512,
/// Converts the longest valid, whole-character UTF-8 prefix of `src` whose UTF-16 fits into
/// `dst`: `(read, written)`, exactly as `scalar::utf8_to_utf16`.
pub(crate) fn utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: the features are enabled on this function.
    let k = unsafe { Utf8Consts::load() };
    let (mut p, mut w) = (0, 0);
    // The input the loop converts: all of it, or up to a character cut by its end (below).
    let mut end = src.len();
    while p < end {
        let n = (end - p).min(64);
        // SAFETY: `p + n <= end <= src.len()`: the full load reads `src[p..p + 64]`, the
        // masked one only `src[p..p + n]`; AVX-512F/BW and BMI2 are enabled on this function.
        let v = unsafe {
            let at = src.as_ptr().add(p);
            if n == 64 {
                _mm512_loadu_si512(at.cast())
            } else {
                _mm512_maskz_loadu_epi8(low_bits64(n), at.cast())
            }
        };
        let high = _mm512_movepi8_mask(v);
        if high == 0 {
            // As many as fit.
            let n = n.min(dst.len() - w);
            if n == 0 {
                break;
            }
            let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
            let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
            // SAFETY: `w + n <= dst.len()`; the stores write `dst[w..w + n]` (whole when `n`
            // is 64, else masked), and the second pointer is formed only when `n > 32`;
            // features enabled here.
            unsafe {
                let at = dst.as_mut_ptr().add(w);
                if n == 64 {
                    // Plain stores: masked ones to memory cost more (Zen 4: ASCII text 24.7 ->
                    // 28.3 GB/s without them).
                    _mm512_storeu_si512(at.cast(), lo);
                    _mm512_storeu_si512(at.add(32).cast(), hi);
                } else {
                    _mm512_mask_storeu_epi16(at.cast(), low_bits32(n), lo);
                    if n > 32 {
                        _mm512_mask_storeu_epi16(at.add(32).cast(), low_bits32(n - 32), hi);
                    }
                }
            }
            p += n;
            w += n;
            // The whole ASCII blocks after it in a loop of their own (this loop's state stays
            // out of the way), as the generic transcoder does. After the first, the next
            // ones start where their stores are aligned, up to 31 units back (written again):
            // a 64-byte store not aligned crosses a cache line (`ascii::store_skew`); back
            // where the run was if it ends in the next 64.
            let (mut aligned, mut back) = (false, 0);
            while p + 64 <= end && w + 64 <= dst.len() {
                // SAFETY: `p + 64 <= end <= src.len()` and `w + 64 <= dst.len()`: the load
                // reads `src[p..p + 64]`, the stores write `dst[w..w + 64]`; features enabled
                // on this function.
                unsafe {
                    let v = _mm512_loadu_si512(src.as_ptr().add(p).cast());
                    if _mm512_movepi8_mask(v) != 0 {
                        p += back;
                        w += back;
                        break;
                    }
                    let at = dst.as_mut_ptr().add(w);
                    _mm512_storeu_si512(at.cast(), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)));
                    _mm512_storeu_si512(at.add(32).cast(), _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v)));
                }
                p += 64;
                w += 64;
                back = 0;
                if !aligned {
                    aligned = true;
                    back = store_skew(dst.as_ptr().cast(), w, 2, 64);
                    p -= back;
                    w -= back;
                }
            }
            continue;
        }
        let m2 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
        let m3 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xE0u8 as i8));
        let cont = high & !m2;
        // Runs of 4-byte characters (emoji) and of 3-byte characters (CJK) in u32 lanes.
        // (Without the room for all of a run, the general path below converts what fits.)
        if n == 64 && m2 == PURE_4 && m3 == PURE_4 && cont == !PURE_4 && w + 32 <= dst.len() {
            // SAFETY: the features are enabled on this function.
            let Some(units) = (unsafe { pure4_to_utf16(v) }) else {
                break;
            };
            // SAFETY: `w + 32 <= dst.len()`: the store writes `dst[w..w + 32]`.
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(w).cast(), units) };
            p += 64;
            w += 32;
            continue;
        }
        if n == 64 && m2 == PURE_3 && m3 == PURE_3 && cont == !PURE_3 && w + 21 <= dst.len() {
            // SAFETY: the features are enabled on this function.
            if let Some(units) = unsafe { pure3_to_utf16(v, &k) } {
                // SAFETY: `w + 21 <= dst.len()`: the masked store writes `dst[w..w + 21]`.
                unsafe { _mm512_mask_storeu_epi16(dst.as_mut_ptr().add(w).cast(), (1 << 21) - 1, units) };
                p += 63;
                w += 21;
                continue;
            }
        }
        // SAFETY: the features are enabled on this function.
        let Some(m4) = (unsafe { utf8_check(v, cont, m2, m3, &k) }) else {
            // A short last chunk that ends inside a character (an input cut in the middle of
            // one) fails the check: convert it again up to that character, which cannot be
            // whole, so that the scalar kernel is left only that character.
            let cut = char_start(&src[..p + n], p + n);
            if n < 64 && end == src.len() && cut > p && cut < p + n {
                end = cut;
                continue;
            }
            break;
        };
        // The chunk is valid; a short one ends with a complete character (zeros after a cut
        // one are an error), a full one may not.
        let consumed = if n == 64 {
            complete_len(&src[p + 61..p + 64])
        } else {
            n
        };
        let mut out = (!cont | (m4 << 1)) & low_bits64(consumed);
        let mut units = out.count_ones() as usize;
        let mut consumed = consumed;
        if w + units > dst.len() {
            // The characters whose units fit, as the scalar kernel would convert them: cut
            // before the first unit that does not fit (`out` marks where each unit starts),
            // or before its character if it is the second unit of a 4-byte one.
            let room = dst.len() - w;
            let mut cut = _pdep_u64(1 << room, out).trailing_zeros() as usize;
            if (m4 << 1) >> cut & 1 != 0 {
                cut -= 1;
            }
            if cut == 0 {
                break;
            }
            consumed = cut;
            out &= low_bits64(cut);
            units = out.count_ones() as usize;
        }
        if m2 == m3 && m4 == 0 && units <= 32 {
            // Characters of 1 and 3 bytes only, 32 at most: one u32 lane each.
            let three = _pext_u64(m3, out) as u32;
            // SAFETY: the features are enabled on this function; `w + units <= dst.len()`,
            // `units <= 32`: the masked store writes `dst[w..w + units]`.
            unsafe {
                let units_vec = one_or_three_utf8_to_utf16(v, out, three, &k);
                _mm512_mask_storeu_epi16(dst.as_mut_ptr().add(w).cast(), low_bits32(units), units_vec);
            }
            p += consumed;
            w += units;
            continue;
        }
        // SAFETY: the two halves hold `units` units together and `w + units <= dst.len()`:
        // the masked stores write inside `dst[w..w + units]`; features enabled here.
        unsafe {
            let (a, na) = utf8_half::<0>(v, out, m2, m3, m4, &k);
            _mm512_mask_storeu_epi16(dst.as_mut_ptr().add(w).cast(), low_bits32(na), a);
            if consumed > 32 {
                let (b, nb) = utf8_half::<1>(v, out, m2, m3, m4, &k);
                _mm512_mask_storeu_epi16(dst.as_mut_ptr().add(w + na).cast(), low_bits32(nb), b);
            }
        }
        p += consumed;
        w += units;
    }
    let (read, written) = scalar::utf8_to_utf16(&src[p..], &mut dst[w..]);
    (p + read, w + written)
}
}

// ---------------------------------------------------------------------------------------------
// UTF-16 to UTF-8.

/// The UTF-8 of 16 code points in u32 lanes: lanes in `four` hold supplementary code points
/// (encoded as 4 bytes), the others values below 0x10000; `two` and `three` are the lanes of
/// U+0080 and up and of U+0800 and up (including `four`). Only lanes in `keep` produce bytes.
/// Returns the bytes, contiguous from byte 0, and their number (at most 64).
///
/// # Safety
/// AVX-512F, BW, VBMI, VBMI2 and POPCNT are enabled in the caller.
#[inline(always)]
unsafe fn code_points_to_utf8(
    c: __m512i,
    two: __mmask16,
    three: __mmask16,
    four: __mmask16,
    keep: __mmask16,
) -> (__m512i, usize) {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        // Bytes c >> 18, c >> 12, c >> 6, c (low 8 bits each) of each u32 lane: vpmultishiftqb
        // offsets 18, 12, 6, 0 and, for the upper lane of each qword, 50, 44, 38, 32.
        let groups = _mm512_multishift_epi64_epi8(_mm512_set1_epi64(0x2026_2C32_0006_0C12), c);
        // Markers of the 4-byte form, and of the 3- and 2-byte forms placed at its end.
        let mut marker = _mm512_set1_epi32(0x80C0_0000u32 as i32);
        marker = _mm512_mask_mov_epi32(marker, three, _mm512_set1_epi32(0x8080_E000u32 as i32));
        marker = _mm512_mask_mov_epi32(marker, four, _mm512_set1_epi32(0x8080_80F0u32 as i32));
        let mut shift = _mm512_set1_epi32(16);
        shift = _mm512_mask_mov_epi32(shift, three, _mm512_set1_epi32(8));
        shift = _mm512_mask_mov_epi32(shift, four, _mm512_setzero_si512());
        // (groups & 0x3F) | marker, moved down to byte 0; ASCII lanes are the value itself.
        let x = _mm512_ternarylogic_epi32::<0xEA>(groups, _mm512_set1_epi32(0x3F3F_3F3F), marker);
        let x = _mm512_mask_mov_epi32(_mm512_srlv_epi32(x, shift), !two, c);
        // Every byte of a kept lane is non-zero where present, except an ASCII NUL: or 1.
        let present = _mm512_maskz_or_epi32(keep, x, _mm512_set1_epi32(1));
        let bytes = _mm512_test_epi8_mask(present, present);
        (_mm512_maskz_compress_epi8(bytes, x), bytes.count_ones() as usize)
    }
}

/// The UTF-8 of up to 16 UTF-16 code units.
///
/// Input: `units`, 16 u32 lanes each holding a code unit (zero-extended) that is **not a
/// surrogate** (a surrogate lane produces three meaningless bytes; never undefined behaviour);
/// `keep` selects the lanes to convert. Output: the UTF-8 of the kept lanes, in lane order,
/// contiguous from byte 0 of the vector, and its length in bytes (at most 48). Store it with
/// `_mm512_mask_storeu_epi8(dst, _bzhi_u64(!0, len as u32), bytes)` after checking room.
///
/// # Safety
/// AVX-512F, AVX-512BW, AVX-512VBMI, AVX-512VBMI2 and POPCNT are enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn bmp_to_utf8(units: __m512i, keep: __mmask16) -> (__m512i, usize) {
    // SAFETY: the ISA per the contract.
    unsafe {
        let two = _mm512_cmpge_epu32_mask(units, _mm512_set1_epi32(0x80));
        let three = _mm512_cmpge_epu32_mask(units, _mm512_set1_epi32(0x800));
        code_points_to_utf8(units, two, three, 0, keep)
    }
}

/// The UTF-8 of up to 32 UTF-16 code units that are **all below U+0800** (1 or 2 bytes each).
///
/// Input: `units`, 32 u16 lanes; `keep` selects the lanes to convert. Output: the UTF-8 of the
/// kept lanes, in lane order, contiguous from byte 0, and its length in bytes (at most 64).
/// Lanes of U+0800 and above produce meaningless bytes (never undefined behaviour).
///
/// # Safety
/// AVX-512F, AVX-512BW, AVX-512VBMI2 and POPCNT are enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn below_0800_to_utf8(units: __m512i, keep: __mmask32) -> (__m512i, usize) {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        // Low byte 0xC0 | u >> 6, high byte 0x80 | u & 0x3F; ASCII lanes: the unit.
        let y = _mm512_ternarylogic_epi64::<0xEA>(
            _mm512_slli_epi16::<8>(units),
            _mm512_set1_epi16(0x3F00),
            _mm512_srli_epi16::<6>(units),
        );
        let x = _mm512_or_si512(y, _mm512_set1_epi16(0x80C0u16 as i16));
        let ascii = _mm512_cmplt_epu16_mask(units, _mm512_set1_epi16(0x80));
        let x = _mm512_mask_mov_epi16(x, ascii, units);
        // The high byte of an ASCII lane is 0; the low one may be (NUL): or 1 for the count.
        let present = _mm512_maskz_mov_epi16(keep, _mm512_or_si512(x, _mm512_set1_epi16(1)));
        let bytes = _mm512_test_epi8_mask(present, present);
        (_mm512_maskz_compress_epi8(bytes, x), bytes.count_ones() as usize)
    }
}

/// Where the UTF-16 comes from: native code units, or bytes in either order.
trait Utf16Source {
    /// Code units available (whole ones).
    fn units(&self) -> usize;
    /// Units `i..i + n` in u16 lanes, native order, zeros after them.
    ///
    /// # Safety
    /// - AVX-512F, AVX-512BW, AVX-512VBMI2 and BMI2 are enabled in the caller.
    /// - `1 <= n <= 32` and `i + n <= self.units()`.
    unsafe fn load(&self, i: usize, n: usize) -> __m512i;
}

struct Units<'a>(&'a [u16]);

impl Utf16Source for Units<'_> {
    #[inline(always)]
    fn units(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    unsafe fn load(&self, i: usize, n: usize) -> __m512i {
        // SAFETY: `i + n <= self.0.len()`: the full load reads `[i, i + 32)`, the masked one
        // `[i, i + n)`; the ISA per the contract.
        unsafe {
            let at = self.0.as_ptr().add(i);
            if n == 32 {
                _mm512_loadu_si512(at.cast())
            } else {
                _mm512_maskz_loadu_epi16(low_bits32(n), at.cast())
            }
        }
    }
}

struct UnitBytes<'a, const BE: bool>(&'a [u8]);

impl<const BE: bool> Utf16Source for UnitBytes<'_, BE> {
    #[inline(always)]
    fn units(&self) -> usize {
        self.0.len() / 2
    }
    #[inline(always)]
    unsafe fn load(&self, i: usize, n: usize) -> __m512i {
        // SAFETY: `2 * (i + n) <= self.0.len()`: the full load reads bytes `[2i, 2i + 64)`,
        // the masked one `[2i, 2i + 2n)`; the ISA per the contract.
        unsafe {
            let at = self.0.as_ptr().add(2 * i);
            let v = if n == 32 {
                _mm512_loadu_si512(at.cast())
            } else {
                _mm512_maskz_loadu_epi8(low_bits64(2 * n), at.cast())
            };
            if BE { _mm512_shldi_epi16::<8>(v, v) } else { v }
        }
    }
}

/// The result of converting one half (16 units) of a block.
struct Half {
    bytes: __m512i,
    len: usize,
    /// Units consumed, counted from the start of the half (a pair may end in the next half).
    consumed: usize,
    /// An unpaired surrogate (any surrogate, without `pairs`) follows what was converted.
    stop: bool,
}

/// Converts `lanes` (1..=16) units of half `H` (units 16H..) of the block `v` (32 u16 lanes).
/// `pairs`: surrogate pairs are converted (else any surrogate stops). `two`, `three`, `sur`:
/// the lanes of U+0080 and up, of U+0800 and up, and of surrogates. `skip_first`: unit 0 of
/// the half is the low surrogate of a pair the previous half converted. `last_has_next`: the
/// unit after the last lane is in `v` (else a high surrogate there is left for the next
/// block, or for the scalar kernel at the end of the input).
///
/// # Safety
/// AVX-512F, BW, VBMI, VBMI2, BMI2 and POPCNT are enabled in the caller.
#[inline(always)]
unsafe fn utf16_half<const H: usize>(
    pairs: bool,
    v: __m512i,
    (two, three, sur): (u16, u16, u16),
    lanes: usize,
    skip_first: bool,
    last_has_next: bool,
) -> Half {
    // SAFETY: register operations on constants; the ISA per the contract.
    unsafe {
        let u = _mm512_maskz_permutexvar_epi16(EVEN_WORDS, load_const(&UNIT[H]), v);
        let lane_mask = low_bits32(lanes) as u16;
        let sur = sur & lane_mask;
        if sur == 0 {
            let keep = lane_mask & !u16::from(skip_first);
            let (bytes, len) = code_points_to_utf8(u, two, three, 0, keep);
            return Half {
                bytes,
                len,
                consumed: lanes,
                stop: false,
            };
        }
        if !pairs {
            let n = sur.trailing_zeros() as usize;
            let (bytes, len) = code_points_to_utf8(u, two, three, 0, low_bits32(n) as u16);
            return Half {
                bytes,
                len,
                consumed: n,
                stop: true,
            };
        }
        let next = _mm512_maskz_permutexvar_epi16(EVEN_WORDS, load_const(&NEXT[H]), v);
        let high = _mm512_mask_cmpeq_epi32_mask(
            lane_mask,
            _mm512_and_si512(u, _mm512_set1_epi32(0xFC00)),
            _mm512_set1_epi32(0xD800),
        );
        let mut low = sur & !high & !u16::from(skip_first);
        let mut n = lanes;
        if !last_has_next && high >> (n - 1) & 1 != 0 {
            n -= 1;
        }
        let next_low = _mm512_cmpeq_epi32_mask(
            _mm512_and_si512(next, _mm512_set1_epi32(0xFC00)),
            _mm512_set1_epi32(0xDC00),
        );
        let mut valid = low_bits32(n) as u16;
        let mut high = high & valid;
        low &= valid;
        // The unit after a high surrogate of the last lane is the next half's unit 0.
        let bad = (high & !next_low) | (low & !(high << 1));
        let stop = bad != 0;
        if stop {
            // Everything before the first bad lane is whole characters.
            n = bad.trailing_zeros() as usize;
            valid = low_bits32(n) as u16;
            high &= valid;
            low &= valid;
        }
        // 0x10000 + (hi - 0xD800) << 10 + (lo - 0xDC00).
        let c = _mm512_mask_add_epi32(
            u,
            high,
            _mm512_slli_epi32::<10>(u),
            _mm512_add_epi32(next, _mm512_set1_epi32(-0x35F_DC00)),
        );
        let keep = valid & !low & !u16::from(skip_first);
        let (bytes, len) = code_points_to_utf8(c, two, three, high, keep);
        // A pair in the last lane consumes the next half's first unit.
        let pair_at_end = n > 0 && high >> (n - 1) & 1 != 0;
        Half {
            bytes,
            len,
            consumed: n + usize::from(pair_at_end),
            stop,
        }
    }
}

/// `vpermt2b` indices of the low bytes of the u16 lanes of two vectors.
static EVEN_BYTE_INDEX: Bytes64 = {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = (2 * i) as u8;
        i += 1;
    }
    Bytes64(out)
};

/// The UTF-8 of 16 surrogate pairs, high surrogate in the low half of each u32 lane (as
/// loaded), checked by the caller: 64 bytes.
///
/// # Safety
/// AVX-512F, BW and VBMI are enabled in the caller.
#[inline(always)]
unsafe fn cjk_to_utf8(v: __m512i) -> __m512i {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        // hi * 1024 + lo, with both read as i16 (so each is 0x10000 too small), plus what
        // makes it the code point: 0x10000 - 0xD800 << 10 - 0xDC00 + 0x10000 * 1025.
        let c = _mm512_add_epi32(
            _mm512_madd_epi16(v, _mm512_set1_epi32(0x0001_0400)),
            _mm512_set1_epi32(0x00A1_2400),
        );
        let groups = _mm512_multishift_epi64_epi8(_mm512_set1_epi64(0x2026_2C32_0006_0C12), c);
        _mm512_ternarylogic_epi32::<0xEA>(
            groups,
            _mm512_set1_epi32(0x3F3F_3F3F),
            _mm512_set1_epi32(0x8080_80F0u32 as i32),
        )
    }
}

/// `vpermb` indices packing the first three bytes of each u32 lane: 48 bytes.
static PACK3: Bytes64 = {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 48 {
        out[i] = (4 * (i / 3) + i % 3) as u8;
        i += 1;
    }
    Bytes64(out)
};

/// The UTF-8 of 16 code units from U+0800 up that are not surrogates (u32 lanes), 3 bytes
/// each: the first 48 bytes of the result.
///
/// # Safety
/// AVX-512F, BW and VBMI are enabled in the caller.
#[inline(always)]
unsafe fn three_byte_units_to_utf8(c: __m512i, pack: __m512i) -> __m512i {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        // Bytes c >> 12, c >> 6, c of each u32 lane (offsets 12, 6, 0 and 44, 38, 32).
        let groups = _mm512_multishift_epi64_epi8(_mm512_set1_epi64(0x0020_262C_0000_060C), c);
        let x = _mm512_ternarylogic_epi32::<0xEA>(
            groups,
            _mm512_set1_epi32(0x003F_3F3F),
            _mm512_set1_epi32(0x0080_80E0),
        );
        _mm512_permutexvar_epi8(pack, x)
    }
}

/// The UTF-8 of 16 code units in u32 lanes that are ASCII or from U+0800 up and not
/// surrogates (`three`); only lanes in `keep` produce bytes. Returns the bytes, contiguous
/// from byte 0, and their number (at most 48).
///
/// # Safety
/// AVX-512F, BW, VBMI, VBMI2 and POPCNT are enabled in the caller.
#[inline(always)]
unsafe fn one_or_three_to_utf8(c: __m512i, three: __mmask16, keep: __mmask16) -> (__m512i, usize) {
    // SAFETY: register operations only; the ISA per the contract.
    unsafe {
        // Bytes c >> 12, c >> 6, c of each u32 lane (offsets 12, 6, 0 and 44, 38, 32).
        let groups = _mm512_multishift_epi64_epi8(_mm512_set1_epi64(0x0020_262C_0000_060C), c);
        let x = _mm512_ternarylogic_epi32::<0xEA>(
            groups,
            _mm512_set1_epi32(0x003F_3F3F),
            _mm512_set1_epi32(0x0080_80E0),
        );
        let x = _mm512_mask_mov_epi32(c, three, x);
        // Every byte of a kept lane is non-zero where present, except an ASCII NUL: or 1.
        let present = _mm512_maskz_or_epi32(keep, x, _mm512_set1_epi32(1));
        let bytes = _mm512_test_epi8_mask(present, present);
        (_mm512_maskz_compress_epi8(bytes, x), bytes.count_ones() as usize)
    }
}

/// The vector loop shared by the UTF-16 to UTF-8 kernels: `(units read, bytes written)`,
/// stopping at a character boundary.
///
/// # Safety
/// AVX-512F, BW, VL, VBMI, VBMI2, BMI2 and POPCNT are enabled in the caller.
#[inline(always)]
unsafe fn utf16_to_utf8_loop<S: Utf16Source>(src: &S, dst: &mut OutBytes) -> (usize, usize) {
    let len = src.units();
    let (mut r, mut w) = (0, 0);
    // SAFETY: AVX-512F per the contract.
    let (even_bytes, pack3) = unsafe { (load_const(&EVEN_BYTE_INDEX), load_const(&PACK3)) };
    while r < len {
        let n = (len - r).min(32);
        // SAFETY: `1 <= n <= 32`, `r + n <= len`; the ISA per the contract.
        let v = unsafe { src.load(r, n) };
        // SAFETY: register operations; the ISA per the contract.
        let (non_ascii, wide) = unsafe {
            (
                _mm512_cmpge_epu16_mask(v, _mm512_set1_epi16(0x80)),
                _mm512_cmpge_epu16_mask(v, _mm512_set1_epi16(0x800)),
            )
        };
        if non_ascii == 0 {
            if w + n > dst.len() {
                break;
            }
            // SAFETY: `w + n <= dst.len()`: the masked store writes `dst[w..w + n]`; the ISA
            // per the contract.
            unsafe {
                let at = dst.as_mut_ptr().add(w);
                _mm256_mask_storeu_epi8(at.cast(), low_bits32(n), _mm512_cvtepi16_epi8(v));
            }
            r += n;
            w += n;
            // An ASCII run: 64 units at a time.
            while len - r >= 64 && w + 64 <= dst.len() {
                // SAFETY: `r + 64 <= len`: both loads are of 32 units in bounds; `w + 64 <=
                // dst.len()`: the store writes `dst[w..w + 64]`; the ISA per the contract.
                let ascii = unsafe {
                    let (a, b) = (src.load(r, 32), src.load(r + 32, 32));
                    let ascii = _mm512_cmpge_epu16_mask(_mm512_or_si512(a, b), _mm512_set1_epi16(0x80)) == 0;
                    if ascii {
                        let bytes = _mm512_permutex2var_epi8(a, even_bytes, b);
                        _mm512_storeu_si512(dst.as_mut_ptr().add(w).cast(), bytes);
                    }
                    ascii
                };
                if !ascii {
                    break;
                }
                r += 64;
                w += 64;
            }
            continue;
        }
        if wide == 0 {
            // SAFETY: register operations; the ISA per the contract.
            let (bytes, count) = unsafe { below_0800_to_utf8(v, low_bits32(n)) };
            if w + count > dst.len() {
                break;
            }
            // SAFETY: `w + count <= dst.len()`; the ISA per the contract.
            unsafe { store_bytes(dst, w, bytes, count) };
            r += n;
            w += count;
            continue;
        }
        // SAFETY: register operations; the ISA per the contract.
        let surrogates = unsafe {
            _mm512_cmpeq_epi16_mask(
                _mm512_and_si512(v, _mm512_set1_epi16(0xF800u16 as i16)),
                _mm512_set1_epi16(0xD800u16 as i16),
            )
        };
        if n == 32 && wide == !0 && surrogates == 0 {
            // 32 units of 3 bytes each (CJK): 96 bytes of UTF-8.
            if w + 96 > dst.len() {
                break;
            }
            // SAFETY: `w + 96 <= dst.len()`: the two masked stores write `dst[w..w + 96]`;
            // the ISA per the contract.
            unsafe {
                let lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
                let hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(v));
                let a = three_byte_units_to_utf8(lo, pack3);
                let b = three_byte_units_to_utf8(hi, pack3);
                let at = dst.as_mut_ptr().add(w);
                _mm512_mask_storeu_epi8(at.cast(), (1 << 48) - 1, a);
                _mm512_mask_storeu_epi8(at.add(48).cast(), (1 << 48) - 1, b);
            }
            r += 32;
            w += 96;
            continue;
        }
        if wide == non_ascii && surrogates == 0 {
            // 1- and 3-byte units only (Korean, Hindi, CJK with ASCII).
            // SAFETY: register operations; the ISA per the contract.
            let (a, b) = unsafe {
                let lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
                let hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(v));
                let keep = low_bits32(n);
                (
                    one_or_three_to_utf8(lo, wide as u16, keep as u16),
                    one_or_three_to_utf8(hi, (wide >> 16) as u16, (keep >> 16) as u16),
                )
            };
            if w + a.1 + b.1 > dst.len() {
                break;
            }
            // SAFETY: `w + a.1 + b.1 <= dst.len()`; the ISA per the contract.
            unsafe {
                store_bytes(dst, w, a.0, a.1);
                store_bytes(dst, w + a.1, b.0, b.1);
            }
            r += n;
            w += a.1 + b.1;
            continue;
        }
        if n == 32 && surrogates == !0 {
            // Sixteen surrogate pairs (emoji), one per u32 lane: 64 bytes of UTF-8.
            // SAFETY: register operations; the ISA per the contract.
            let pairs = unsafe {
                _mm512_cmpeq_epi32_mask(
                    _mm512_and_si512(v, _mm512_set1_epi32(0xFC00_FC00u32 as i32)),
                    _mm512_set1_epi32(0xDC00_D800u32 as i32),
                )
            };
            if pairs == 0xFFFF {
                if w + 64 > dst.len() {
                    break;
                }
                // SAFETY: `w + 64 <= dst.len()`: the store writes `dst[w..w + 64]`; the ISA
                // per the contract.
                unsafe {
                    let bytes = cjk_to_utf8(v);
                    _mm512_storeu_si512(dst.as_mut_ptr().add(w).cast(), bytes);
                }
                r += 32;
                w += 64;
                continue;
            }
        }
        let masks = |h: usize| {
            let at = 16 * h;
            (
                (non_ascii >> at) as u16,
                (wide >> at) as u16,
                (surrogates >> at) as u16,
            )
        };
        // SAFETY: register operations; the ISA per the contract.
        let a = unsafe { utf16_half::<0>(true, v, masks(0), n.min(16), false, n > 16) };
        if w + a.len > dst.len() {
            break;
        }
        // SAFETY: `w + a.len <= dst.len()`; the ISA per the contract.
        unsafe { store_bytes(dst, w, a.bytes, a.len) };
        r += a.consumed;
        w += a.len;
        if a.stop || a.consumed == 0 {
            break;
        }
        if n > 16 {
            // The first half consumed 16 units, or 17 with a pair ending in this half.
            let skip = a.consumed == 17;
            // SAFETY: register operations; the ISA per the contract.
            let b = unsafe { utf16_half::<1>(true, v, masks(1), n - 16, skip, false) };
            if w + b.len > dst.len() {
                break;
            }
            // SAFETY: `w + b.len <= dst.len()`; the ISA per the contract.
            unsafe { store_bytes(dst, w, b.bytes, b.len) };
            r += b.consumed - usize::from(skip);
            w += b.len;
            if b.stop {
                break;
            }
        }
    }
    (r, w)
}

/// Stores the first `count` bytes of `bytes` at `dst[w..]`.
///
/// # Safety
/// - AVX-512F and AVX-512BW are enabled in the caller.
/// - `w + count <= dst.len()` and `count <= 64`.
#[inline(always)]
unsafe fn store_bytes(dst: &mut OutBytes, w: usize, bytes: __m512i, count: usize) {
    debug_assert!(w + count <= dst.len());
    // SAFETY: `w <= dst.len()`, and the masked store writes only `dst[w..w + count]`, in
    // bounds per the contract; the ISA per the contract.
    unsafe { _mm512_mask_storeu_epi8(dst.as_mut_ptr().add(w).cast(), low_bits64(count), bytes) }
}

crate::simd::x86::with_features! { avx512,
/// Converts the longest prefix of `src` without unpaired surrogates (a leading surrogate at
/// the very end counts as unpaired) whose UTF-8 fits into `dst`: `(read, written)`, exactly
/// as `scalar::utf16_to_utf8`.
pub(crate) fn utf16_to_utf8(src: &[u16], dst: &mut OutBytes) -> (usize, usize) {
    // SAFETY: the features are enabled on this function.
    let (r, w) = unsafe { utf16_to_utf8_loop(&Units(src), dst) };
    let (read, written) = scalar::utf16_to_utf8(&src[r..], &mut dst[w..]);
    (r + read, w + written)
}
}

crate::simd::x86::with_features! { avx512,
/// Decodes UTF-16 code units from bytes (big-endian if `be`) to UTF-8 while no surrogate is
/// unpaired and they fit: `(bytes read, bytes written)`, exactly as
/// `scalar::utf16_bytes_to_utf8`.
pub(crate) fn utf16_bytes_to_utf8(src: &[u8], be: bool, dst: &mut OutBytes) -> (usize, usize) {
    // SAFETY: the features are enabled on this function.
    let (r, w) = unsafe {
        if be {
            utf16_to_utf8_loop(&UnitBytes::<true>(src), dst)
        } else {
            utf16_to_utf8_loop(&UnitBytes::<false>(src), dst)
        }
    };
    let (read, written) = scalar::utf16_bytes_to_utf8(&src[2 * r..], be, &mut dst[w..]);
    (2 * r + read, w + written)
}
}

#[cfg(test)]
mod tests {
    //! What the kernel sweeps (`tests/levels/transcode.rs`, which check these kernels against
    //! the scalar ones at every level) cannot reach: the helpers inside the kernels.

    use super::*;
    use quickcheck::{QuickCheck, TestResult};

    /// Whether `test` cannot run (no AVX-512 on this CPU), which it then says on standard
    /// error: written to the stream itself, which libtest does not capture, so that a run
    /// without AVX-512 shows what it did not check.
    fn skipped(test: &str) -> bool {
        if crate::cpu::Level::Avx512.is_supported() {
            return false;
        }
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "{test}: SKIPPED, this CPU has no AVX-512");
        true
    }

    #[test]
    fn bmp_to_utf8_matches_std() {
        if skipped("bmp_to_utf8_matches_std") {
            return;
        }
        fn prop(units: Vec<u16>, keep: u16) -> TestResult {
            let units: Vec<u16> = units
                .iter()
                .take(16)
                .map(|&u| if (0xD800..0xE000).contains(&u) { u >> 4 } else { u })
                .collect();
            let mut lanes = [0u32; 16];
            for (l, &u) in lanes.iter_mut().zip(&units) {
                *l = u32::from(u);
            }
            let expect: String = (0..16)
                .filter(|&i| keep >> i & 1 != 0)
                .map(|i| char::from_u32(lanes[i]).unwrap())
                .collect();
            let mut out = [0u8; 64];
            // SAFETY: `Level::Avx512` (with popcnt, see the module docs) is supported, checked
            // above; `lanes` and `out` are 64 readable and writable bytes.
            let len = unsafe { bmp_lanes(&lanes, keep, &mut out) };
            TestResult::from_bool(&out[..len] == expect.as_bytes())
        }
        QuickCheck::new()
            .tests(3000)
            .quickcheck(prop as fn(Vec<u16>, u16) -> TestResult);
    }

    crate::simd::x86::with_features! { avx512,
    /// # Safety
    /// `Level::Avx512` is supported.
    unsafe fn bmp_lanes(lanes: &[u32; 16], keep: u16, out: &mut [u8; 64]) -> usize {
        // SAFETY: 64 readable and writable bytes; the features are enabled on this function.
        unsafe {
            let (bytes, len) = bmp_to_utf8(_mm512_loadu_si512(lanes.as_ptr().cast()), keep);
            _mm512_storeu_si512(out.as_mut_ptr().cast(), bytes);
            len
        }
    }
    }
}
