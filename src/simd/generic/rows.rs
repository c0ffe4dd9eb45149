//! Shuffle rows that compact vector lanes: for each of 256 bit patterns, the bytes of the
//! 16-byte vector to keep, in order (`0xFF`, which makes `pshufb`/`tbl` write zero, after
//! them), and how many. Built at compile time by one loop, [`compact_rows`], from how many
//! bytes of each lane a pattern keeps ([`Keep`]).

/// A shuffle index that writes zero.
pub(crate) const NONE: u8 = 0xFF;

/// How many leading bytes of lane `k` the pattern `i` keeps (bit `k` of `i` is the lane's
/// first flag, bit `k + 4` its second, for the u32-lane forms but `ThreeLessPairs`, whose
/// flags are bits `2k` and `2k + 1`).
#[derive(Clone, Copy)]
pub(crate) enum Keep {
    /// Eight u16 lanes: one byte where bit `k` is set, else two (UTF-16 units to UTF-8 of
    /// one or two bytes: an ASCII unit keeps its low byte).
    OneOrTwo,
    /// Eight u16 lanes: both bytes where bit `k` is set, else none (the pair kernels).
    TwoOrNone,
    /// Four u32 lanes: `1 + bit k + bit k+4` bytes (UTF-8 of one to three bytes).
    OneToThree,
    /// Eight byte lanes: none where bit `k` is set, else one (the bytes of a piece of 8 that
    /// are not leads: UTF-8 → Latin1).
    OneOrNone,
    /// Four u32 lanes: `3 - bit 2k - bit 2k+1` bytes (UTF-8 of one to three bytes, by
    /// whether the unit is below 0x80 and below 0x800).
    ThreeLessPairs,
}

impl Keep {
    /// Bytes per lane.
    const fn width(self) -> usize {
        match self {
            Keep::OneOrNone => 1,
            Keep::OneOrTwo | Keep::TwoOrNone => 2,
            Keep::OneToThree | Keep::ThreeLessPairs => 4,
        }
    }

    /// Lanes of a pattern: 16 bytes' worth, but eight byte lanes for `OneOrNone` (8 bits).
    const fn lanes(self) -> usize {
        match self {
            Keep::OneOrNone => 8,
            _ => 16 / self.width(),
        }
    }

    /// Bytes of lane `k` the pattern `i` keeps.
    const fn len(self, i: usize, k: usize) -> usize {
        let first = (i >> k) & 1;
        let second = (i >> (k + 4)) & 1;
        match self {
            Keep::OneOrNone => 1 - first,
            Keep::OneOrTwo => 2 - first,
            Keep::TwoOrNone => 2 * first,
            Keep::OneToThree => 1 + first + second,
            Keep::ThreeLessPairs => 3 - ((i >> (2 * k)) & 1) - ((i >> (2 * k + 1)) & 1),
        }
    }
}

/// The rows of `keep` for every pattern, and the number of bytes each keeps.
pub(crate) const fn compact_rows(keep: Keep) -> ([[u8; 16]; 256], [u8; 256]) {
    let width = keep.width();
    let mut rows = [[NONE; 16]; 256];
    let mut lens = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let (mut o, mut k) = (0, 0);
        while k < keep.lanes() {
            let mut j = 0;
            while j < keep.len(i, k) {
                rows[i][o] = (width * k + j) as u8;
                o += 1;
                j += 1;
            }
            k += 1;
        }
        lens[i] = o as u8;
        i += 1;
    }
    (rows, lens)
}
