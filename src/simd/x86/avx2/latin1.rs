//! The AVX2 instance of UTF-8 to Latin1 (`generic/latin1.rs`): 32 input bytes a block; one
//! lead dropped by one `pshufb` of its 16-byte half (`DROP_ONE`), more by four pieces of 8
//! compacted by one `vpshufb` with the shared rows (two per 128-bit lane). Back to UTF-8: the
//! single-byte decoder's pairs (`single_byte::put_two_byte`) with the byte as the unit.

use core::arch::x86_64::*;

use crate::simd::generic::latin1::{DROP_LENS, DROP_ONE, DROP_ROWS, Latin1Vector};
use crate::simd::generic::single_byte::{SingleByteVector, TAIL8, put_two_byte};

impl Latin1Vector for __m256i {
    const READ_BY_BRANCH: bool = true;

    #[inline(always)]
    unsafe fn put_latin1(self, first: Self, out: *mut u8) -> Option<(usize, usize)> {
        // SAFETY: register operations; the row loads read the 16 bytes of `DROP_ONE[p & 15]`,
        // 8 bytes of rows of tables of 256 indexed by a byte, and of `TAIL8` indexed by `n3 -
        // 4` (each piece keeps 4 to 8 bytes: below); the stores write 16 bytes at `out` and
        // `out + 15`, or 16 at `out` and 8 at `out + 16` and `out + 23` (one lead), or 8 bytes
        // at `out`, `out + n0` and `out + n0 + n1`, then 4 at `out + at` and 4 ending at `out
        // + at + n3`, `at = n0 + n1 + n2`: at most 31 or 32 bytes, inside the contract's 32;
        // AVX2 per the contract.
        unsafe {
            let v = self;
            let byte = |b: u8| _mm256_set1_epi8(b as i8);
            let lead =
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(v, byte(0xFE)), byte(0xC2))) as u32;
            let after = lead << 1;
            let high = _mm256_movemask_epi8(v) as u32;
            // 0x80..=0xBF, as signed bytes below -64.
            let continuation = _mm256_movemask_epi8(_mm256_cmpgt_epi8(byte(0xC0), v)) as u32;
            // Each continuation byte after 0xC3 gains its bit 6 (0xC3 shifted by one byte,
            // across the 128-bit lanes).
            let c3 = _mm256_cmpeq_epi8(v, byte(0xC3));
            let after_c3 = _mm256_alignr_epi8::<15>(c3, _mm256_permute2x128_si256::<0x08>(c3, c3));
            let x = _mm256_or_si256(v, _mm256_and_si256(after_c3, byte(0x40)));
            let at_least = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(x, first), x)) as u32;
            let bad = (high & !(lead | (continuation & after))) | (after & !(continuation & at_least));
            if bad != 0 {
                return None;
            }
            // One lead (a letter among ASCII, the common case): the 16-byte half with it
            // less the lead by one shuffle, the other half as it is; 31 bytes, stored exactly.
            // (A block that passed the checks with a non-ASCII byte has a lead: `lead` is not
            // 0; `& 15` keeps the index in bounds all the same.)
            if lead & lead.wrapping_sub(1) == 0 {
                let p = lead.trailing_zeros() as usize;
                let gap = _mm_loadu_si128(DROP_ONE[p & 15].as_ptr().cast());
                let (a, b) = (_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
                if p < 16 {
                    _mm_storeu_si128(out.cast(), _mm_shuffle_epi8(a, gap));
                    _mm_storeu_si128(out.add(15).cast(), b);
                } else {
                    let c = _mm_shuffle_epi8(b, gap);
                    _mm_storeu_si128(out.cast(), a);
                    _mm_storel_epi64(out.add(16).cast(), c);
                    _mm_storel_epi64(out.add(23).cast(), _mm_srli_si128::<7>(c));
                }
                return Some((32 - usize::from(p == 31), 31));
            }
            // Lead bits per piece of 8 (a lead in the last byte among them: dropped). A piece
            // keeps 4 bytes or more: a lead's next byte is a continuation, kept.
            let index = |q: u32| (lead >> (8 * q) & 0xFF) as usize;
            // (Not `array::map`: its closure would be a function without AVX2.)
            let len = |q: u32| usize::from(DROP_LENS[index(q)]);
            let n = [len(0), len(1), len(2), len(3)];
            let row = |q: u32| _mm_loadl_epi64(DROP_ROWS[index(q)].as_ptr().cast());
            // Pieces 0, 1 in lane 0 and 2, 3 in lane 1; the odd ones' rows index their lane's
            // bytes 8..16.
            let pattern = _mm256_add_epi8(
                _mm256_inserti128_si256::<1>(
                    _mm256_castsi128_si256(_mm_unpacklo_epi64(row(0), row(1))),
                    _mm_unpacklo_epi64(row(2), row(3)),
                ),
                _mm256_setr_epi64x(0, 0x0808_0808_0808_0808, 0, 0x0808_0808_0808_0808),
            );
            let packed = _mm256_shuffle_epi8(x, pattern);
            let (a, b) = (
                _mm256_castsi256_si128(packed),
                _mm256_extracti128_si256::<1>(packed),
            );
            // Each piece's 8 bytes over the garbage of the one before; the last one's exactly:
            // 4 at its start, 4 ending at its end.
            _mm_storel_epi64(out.cast(), a);
            _mm_storel_epi64(out.add(n[0]).cast(), _mm_unpackhi_epi64(a, a));
            _mm_storel_epi64(out.add(n[0] + n[1]).cast(), b);
            let at = n[0] + n[1] + n[2];
            let last = _mm_unpackhi_epi64(b, b);
            _mm_storeu_si32(out.add(at), last);
            let tail = _mm_shuffle_epi8(last, _mm_loadl_epi64(TAIL8[n[3] - 4].as_ptr().cast()));
            _mm_storeu_si32(out.add(at + n[3] - 4), tail);
            Some((32 - (lead >> 31) as usize, at + n[3]))
        }
    }

    #[inline(always)]
    unsafe fn put_utf8(self, first: Self, out: *mut u8) -> Option<usize> {
        // SAFETY: register operations; the one-letter stores write 32 bytes at `out + 1` and
        // at `out`, and `put_two_byte` `32 + letters <= 64` bytes at `out` (with `ones` the
        // mask of `ones_v`): inside the `2 * 32` of the contract; AVX2 per the contract.
        unsafe {
            let v = self;
            // A byte from 0x80 below `first`: signed, both below 0 (ASCII is not below it).
            if _mm256_movemask_epi8(_mm256_cmpgt_epi8(first, v)) != 0 {
                return None;
            }
            let high = _mm256_movemask_epi8(v) as u32;
            if high & high.wrapping_sub(1) == 0 {
                // One letter (the caller's block has one at least), at `k`: the block with
                // the bytes from `k` on (the letter's continuation first) moved one on, and
                // the lead at `k`, by compares with the index and blends rather than the
                // pairs' compaction.
                const INDEX: [u8; 32] = {
                    let mut index = [0; 32];
                    let mut i = 0;
                    while i < 32 {
                        index[i] = i as u8;
                        i += 1;
                    }
                    index
                };
                let index = _mm256_loadu_si256(INDEX.as_ptr().cast());
                let k = _mm256_set1_epi8(high.trailing_zeros() as i8);
                let at = _mm256_cmpeq_epi8(index, k);
                let cont = _mm256_andnot_si256(_mm256_and_si256(at, _mm256_set1_epi8(0x40)), v);
                // `cont` one byte later, across the 128-bit lanes.
                let later = _mm256_alignr_epi8::<15>(cont, _mm256_permute2x128_si256::<0x08>(cont, cont));
                let lead = _mm256_or_si256(v.shr6(), _mm256_set1_epi8(-0x40));
                let spread = _mm256_blendv_epi8(
                    _mm256_blendv_epi8(cont, later, _mm256_cmpgt_epi8(index, k)),
                    lead,
                    at,
                );
                // Byte 32 is `cont`'s last: stored one on, then the first 32 over it.
                _mm256_storeu_si256(out.add(1).cast(), cont);
                _mm256_storeu_si256(out.cast(), spread);
                return Some(33);
            }
            let ones_v = _mm256_cmpgt_epi8(v, _mm256_set1_epi8(-1));
            let ones = u64::from(!high);
            let cont = _mm256_or_si256(
                _mm256_and_si256(v, _mm256_set1_epi8(0x3F)),
                _mm256_set1_epi8(-0x80),
            );
            Some(put_two_byte(ones_v, v, v.shr6(), cont, ones, out))
        }
    }
}
