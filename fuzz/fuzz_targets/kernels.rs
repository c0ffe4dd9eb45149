//! Every kernel of every supported level against the scalar kernels: identical return values
//! and identical output prefix, on inputs at any alignment and outputs of any length.
//!
//! Header: `[0]` kernel, `[1]` source offset (alignment), `[2]` bits 0–5 destination offset
//! (bits 6–7: `utf8_to_utf16`'s stage), `[3]`
//! bit 0 big-endian (UTF-16 byte kernels; `utf8_to_latin1` and `latin1_to_utf8`: from 0xA0, not 0x80;
//! `utf8_to_utf16`: `utf8_to_utf16_stage` in stages of 64, 65, 97 or 200 units, as the
//! encoders call it, which must convert what one `utf8_to_utf16` call does), bit 1 raw UTF-16 payload, bits 2–7 single-byte
//! encoding (or CJK encoding, for the CJK decode and `utf16_to_legacy` kernels), `[4..6]` and `[6]` destination length, `[4..8]` PRNG seed. Payload: the input.
//!
//! Sources sit at the end of an allocation of exactly the right size and destinations too, so
//! AddressSanitizer sees any access past either. Beyond equality with scalar, what every
//! kernel produced is checked against std (its output is the conversion of what it read),
//! and `ascii_prefix_len` and `utf8_valid_up_to` against their exact definitions.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdenc::Encoding;
use simdenc::cpu::{self, Level};
use simdenc::internals::{CjkTables, KernelTable, cjk_tables, single_byte_table};
use simdenc_fuzz::{CANARY_U8, CANARY_U16, Input, assert_tail, twice, utf16_units};

/// What a kernel call returned, and the output prefix it reported.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Out {
    Len(usize),
    Bytes(usize, Vec<u8>),
    ReadWritten8(usize, usize, Vec<u8>),
    ReadWritten16(usize, usize, Vec<u16>),
}

const KERNELS: [&str; 18] = [
    "ascii_prefix_len",
    "copy_ascii",
    "widen_ascii",
    "narrow_ascii",
    "utf8_valid_up_to",
    "utf8_copy_valid",
    "utf8_to_utf16",
    "utf16_to_utf8",
    "single_byte_to_utf16",
    "single_byte_to_utf8",
    "utf16_bytes_to_utf16",
    "utf16_bytes_to_utf8",
    "cjk_to_utf8",
    "cjk_to_utf16",
    "utf16_to_legacy",
    "copy_ascii_loose",
    "utf8_to_latin1",
    "latin1_to_utf8",
];

/// The parameters of one call, shared by every level.
struct Case<'a> {
    kernel: usize,
    bytes: &'a [u8],
    units: Vec<u16>,
    src_offset: usize,
    dst_offset: usize,
    dst_len: usize,
    /// `utf8_to_utf16_stage`'s stage, in units.
    stage: usize,
    be: bool,
    table: &'static [u16; 128],
    cjk: CjkTables,
}

/// `src` copied to the end of a fresh allocation, `offset` elements in.
fn placed<T: Copy + Default>(src: &[T], offset: usize) -> Vec<T> {
    let mut storage = Vec::with_capacity(offset + src.len());
    storage.resize(offset, T::default());
    storage.extend_from_slice(src);
    storage.shrink_to_fit();
    storage
}

/// Runs `f` on a destination of `c.dst_len` elements `c.dst_offset` into a buffer filled with
/// `canary`; checks that nothing outside `dst[..written]` changed.
fn with_dst<T: Copy + PartialEq + std::fmt::Debug>(
    c: &Case<'_>,
    canary: T,
    f: impl FnOnce(&mut [T]) -> (usize, usize),
) -> (usize, usize, Vec<T>) {
    let mut buf = vec![canary; c.dst_offset + c.dst_len];
    buf.shrink_to_fit();
    let (read, written) = f(&mut buf[c.dst_offset..]);
    assert!(
        buf[..c.dst_offset].iter().all(|&x| x == canary),
        "{}: wrote before the destination",
        KERNELS[c.kernel]
    );
    assert_tail(&buf[c.dst_offset..], written, canary, KERNELS[c.kernel]);
    (read, written, buf[c.dst_offset..c.dst_offset + written].to_vec())
}

fn call(k: KernelTable, c: &Case<'_>, canary: usize) -> Out {
    let storage = placed(c.bytes, c.src_offset);
    let src = &storage[c.src_offset..];
    let storage16 = placed(&c.units, c.src_offset);
    let src16 = &storage16[c.src_offset..];
    let (b, w) = (CANARY_U8[canary], CANARY_U16[canary]);
    match c.kernel {
        0 => Out::Len(k.ascii_prefix_len(src)),
        1 => {
            let (n, _, out) = with_dst(c, b, |d| {
                let n = k.copy_ascii(src, d);
                (n, n)
            });
            Out::Bytes(n, out)
        }
        15 => {
            // The loose copy may change fewer than 64 bytes past its prefix, and none at or
            // past `min(src.len(), dst.len())`.
            let mut buf = vec![b; c.dst_offset + c.dst_len];
            buf.shrink_to_fit();
            let n = k.copy_ascii_loose(src, &mut buf[c.dst_offset..]);
            let end = c.dst_offset + src.len().min(c.dst_len).min(n + 64).max(n);
            assert!(
                buf[..c.dst_offset].iter().all(|&x| x == b),
                "copy_ascii_loose: wrote before the destination"
            );
            assert!(
                buf[end..].iter().all(|&x| x == b),
                "copy_ascii_loose: wrote past min(src, dst) or 64 bytes past the prefix"
            );
            Out::Bytes(n, buf[c.dst_offset..c.dst_offset + n].to_vec())
        }
        16 => {
            // From 0xA0 (windows-1252's encoder) or 0x80 (`mem`'s Latin1), by the flag.
            let first = if c.be { 0xA0 } else { 0x80 };
            let (r, n, out) = with_dst(c, b, |d| k.utf8_to_latin1(src, first, d));
            Out::ReadWritten8(r, n, out)
        }
        17 => {
            // From 0xA0 (windows-1252's decoder) or 0x80 (`mem`'s Latin1), by the flag.
            let first = if c.be { 0xA0 } else { 0x80 };
            let (r, n, out) = with_dst(c, b, |d| k.latin1_to_utf8(src, first, d));
            Out::ReadWritten8(r, n, out)
        }
        2 => {
            let (n, _, out) = with_dst(c, w, |d| {
                let n = k.widen_ascii(src, d);
                (n, n)
            });
            Out::ReadWritten16(n, n, out)
        }
        3 => {
            let (n, _, out) = with_dst(c, b, |d| {
                let n = k.narrow_ascii(src16, d);
                (n, n)
            });
            Out::Bytes(n, out)
        }
        4 => Out::Len(k.utf8_valid_up_to(src)),
        5 => {
            let (r, n, out) = with_dst(c, b, |d| k.utf8_copy_valid(src, d));
            Out::ReadWritten8(r, n, out)
        }
        6 if c.be => {
            let (r, n, out) = with_dst(c, w, |d| {
                let (mut read, mut written) = (0, 0);
                loop {
                    let end = d.len().min(written + c.stage);
                    let (r, w) = k.utf8_to_utf16_stage(&src[read..], &mut d[written..end]);
                    if r == 0 {
                        return (read, written);
                    }
                    read += r;
                    written += w;
                }
            });
            Out::ReadWritten16(r, n, out)
        }
        6 => {
            let (r, n, out) = with_dst(c, w, |d| k.utf8_to_utf16(src, d));
            Out::ReadWritten16(r, n, out)
        }
        7 => {
            let (r, n, out) = with_dst(c, b, |d| k.utf16_to_utf8(src16, d));
            Out::ReadWritten8(r, n, out)
        }
        8 => {
            let (r, n, out) = with_dst(c, w, |d| k.single_byte_to_utf16(src, c.table, d));
            Out::ReadWritten16(r, n, out)
        }
        9 => {
            let (r, n, out) = with_dst(c, b, |d| k.single_byte_to_utf8(src, c.table, d));
            Out::ReadWritten8(r, n, out)
        }
        10 => {
            let (r, n, out) = with_dst(c, w, |d| k.utf16_bytes_to_utf16(src, c.be, d));
            Out::ReadWritten16(r, n, out)
        }
        11 => {
            let (r, n, out) = with_dst(c, b, |d| k.utf16_bytes_to_utf8(src, c.be, d));
            Out::ReadWritten8(r, n, out)
        }
        12 => {
            let (r, n, out) = with_dst(c, b, |d| k.cjk_to_utf8(src, &c.cjk, d));
            Out::ReadWritten8(r, n, out)
        }
        13 => {
            let (r, n, out) = with_dst(c, w, |d| k.cjk_to_utf16(src, &c.cjk, d));
            Out::ReadWritten16(r, n, out)
        }
        _ => {
            let (r, n, out) = with_dst(c, b, |d| k.utf16_to_legacy(src16, &c.cjk.legacy(), d));
            Out::ReadWritten8(r, n, out)
        }
    }
}

/// Whatever a kernel reported must be right: its output is exactly the conversion of what it
/// read, and the two prefix lengths are exact.
fn check_meaning(c: &Case<'_>, out: &Out) {
    let name = KERNELS[c.kernel];
    let ascii = c
        .bytes
        .iter()
        .position(|b| !b.is_ascii())
        .unwrap_or(c.bytes.len());
    let sb = |b: u8| {
        if b < 0x80 {
            u16::from(b)
        } else {
            c.table[usize::from(b - 0x80)]
        }
    };
    let units_of = |bytes: &[u8]| -> Vec<u16> {
        bytes
            .chunks_exact(2)
            .map(|p| {
                if c.be {
                    u16::from_be_bytes([p[0], p[1]])
                } else {
                    u16::from_le_bytes([p[0], p[1]])
                }
            })
            .collect()
    };
    match (c.kernel, out) {
        (0, Out::Len(n)) => assert_eq!(*n, ascii, "{name}"),
        (4, Out::Len(n)) => {
            let valid = std::str::from_utf8(c.bytes).map_or_else(|e| e.valid_up_to(), |_| c.bytes.len());
            assert_eq!(*n, valid, "{name}");
        }
        (1 | 15, Out::Bytes(n, out)) => {
            assert!(*n <= ascii.min(c.dst_len), "{name}: {n} > ascii prefix / room");
            assert_eq!(out[..], c.bytes[..*n], "{name}");
        }
        (3, Out::Bytes(n, out)) => {
            assert!(*n <= c.units.len().min(c.dst_len), "{name}");
            let want: Vec<u8> = c.units[..*n]
                .iter()
                .map(|&u| u8::try_from(u).unwrap_or(0xFF))
                .collect();
            assert!(
                want.iter().all(u8::is_ascii) && *out == want,
                "{name}: {out:02X?}"
            );
        }
        (2, Out::ReadWritten16(n, _, out)) => {
            assert!(*n <= ascii.min(c.dst_len), "{name}");
            assert!(
                out.iter().zip(c.bytes).all(|(&u, &b)| u == u16::from(b)),
                "{name}"
            );
        }
        (5, Out::ReadWritten8(r, w, out)) => {
            assert_eq!(r, w, "{name}");
            assert!(
                std::str::from_utf8(&c.bytes[..*r]).is_ok(),
                "{name}: read invalid UTF-8"
            );
            assert_eq!(out[..], c.bytes[..*r], "{name}");
        }
        (16, Out::ReadWritten8(r, _, out)) => {
            // What it read is UTF-8 of ASCII and of U+0080..=U+00FF from `first`, and it
            // wrote those code points.
            let first = if c.be { 0xA0 } else { 0x80 };
            let text = std::str::from_utf8(&c.bytes[..*r]).expect("read valid UTF-8");
            assert!(
                text.chars()
                    .all(|ch| ch.is_ascii() || (first..=0xFF).contains(&u32::from(ch))),
                "{name}: read a character it does not convert"
            );
            assert_eq!(
                *out,
                text.chars().map(|ch| ch as u8).collect::<Vec<_>>(),
                "{name}"
            );
        }
        (17, Out::ReadWritten8(r, _, out)) => {
            // What it read is ASCII and bytes from `first`, and it wrote their code points.
            let first = if c.be { 0xA0 } else { 0x80 };
            let read = &c.bytes[..*r];
            assert!(
                read.iter().all(|&b| b < 0x80 || b >= first),
                "{name}: read a byte it does not convert"
            );
            let want: String = read.iter().map(|&b| char::from(b)).collect();
            assert_eq!(out[..], *want.as_bytes(), "{name}");
        }
        (6, Out::ReadWritten16(r, _, out)) => {
            let text = std::str::from_utf8(&c.bytes[..*r]).expect("read valid UTF-8");
            assert_eq!(*out, text.encode_utf16().collect::<Vec<_>>(), "{name}");
        }
        (7, Out::ReadWritten8(r, _, out)) => {
            let text = String::from_utf16(&c.units[..*r]).expect("read no unpaired surrogate");
            assert_eq!(out[..], *text.as_bytes(), "{name}");
        }
        (8, Out::ReadWritten16(r, w, out)) => {
            assert_eq!(r, w, "{name}");
            let want: Vec<u16> = c.bytes[..*r].iter().map(|&b| sb(b)).collect();
            assert!(
                c.bytes[..*r].iter().all(|&b| b < 0x80 || sb(b) != 0),
                "{name}: read an unmapped byte"
            );
            assert_eq!(*out, want, "{name}");
        }
        (9, Out::ReadWritten8(r, _, out)) => {
            let want: String = c.bytes[..*r]
                .iter()
                .map(|&b| char::from_u32(u32::from(sb(b))).expect("a table value is a scalar value"))
                .collect();
            assert!(
                c.bytes[..*r].iter().all(|&b| b < 0x80 || sb(b) != 0),
                "{name}: read an unmapped byte"
            );
            assert_eq!(out[..], *want.as_bytes(), "{name}");
        }
        (10, Out::ReadWritten16(r, w, out)) => {
            assert_eq!((r % 2, r / 2), (0, *w), "{name}: whole units");
            let want = units_of(&c.bytes[..*r]);
            // Surrogate pairs are read whole; an unpaired surrogate never.
            assert!(
                String::from_utf16(&want).is_ok(),
                "{name}: read an unpaired surrogate"
            );
            assert_eq!(*out, want, "{name}");
        }
        (11, Out::ReadWritten8(r, _, out)) => {
            assert_eq!(r % 2, 0, "{name}: whole units");
            // Surrogate pairs are read whole; an unpaired surrogate never.
            let text = String::from_utf16(&units_of(&c.bytes[..*r])).expect("no unpaired surrogate");
            assert_eq!(out[..], *text.as_bytes(), "{name}");
        }
        (12 | 13, out) => {
            let (r, decoded) = match out {
                Out::ReadWritten8(r, _, out) => (*r, String::from_utf8(out.clone()).expect("UTF-8 out")),
                Out::ReadWritten16(r, _, out) => (*r, String::from_utf16(out).expect("UTF-16 out")),
                _ => unreachable!("kernel {} gave {out:?}", c.kernel),
            };
            let want = c
                .cjk
                .encoding()
                .decode_without_bom_handling_and_without_replacement(&c.bytes[..r])
                .unwrap_or_else(|| panic!("{name}: read malformed {:02X?}", &c.bytes[..r]));
            assert_eq!(decoded, want, "{name} ({})", c.cjk.encoding().name());
        }
        (14, Out::ReadWritten8(r, _, out)) => {
            let text = String::from_utf16(&c.units[..*r]).expect("read no unpaired surrogate");
            let (bytes, _, unmappable) = c.cjk.encoding().encode(&text);
            assert!(!unmappable, "{name}: read an unmappable character");
            assert_eq!(out[..], bytes[..], "{name} ({})", c.cjk.encoding().name());
        }
        _ => unreachable!("kernel {} gave {out:?}", c.kernel),
    }
}

fn check(data: &[u8]) {
    let input = Input::parse(data);
    let h = input.header;
    let kernel = usize::from(h[0]) % KERNELS.len();
    let mut rng = input.rng();
    let units = utf16_units(&mut rng, input.payload, h[3] & 2 != 0);
    let single_byte: Vec<&'static [u16; 128]> = Encoding::all()
        .iter()
        .filter_map(|&e| single_byte_table(e))
        .collect();
    let cjk = cjk_tables();
    let src_len = if kernel == 3 || kernel == 7 || kernel == 14 {
        units.len()
    } else {
        input.payload.len()
    };
    // Enough for any kernel's whole output (3 UTF-8 bytes per input unit or byte).
    let needed = 3 * src_len + 4;
    let dst_len = match h[6] % 4 {
        0 => needed,
        1 => usize::from(h[4]),
        2 => usize::from(u16::from_le_bytes([h[4], h[5]])) % (needed + 1),
        _ => needed
            .saturating_sub(3 * usize::from(h[4] % 32))
            .min(src_len + usize::from(h[5] % 8)),
    };
    let case = Case {
        kernel,
        bytes: input.payload,
        units,
        src_offset: usize::from(h[1] % 64),
        dst_offset: usize::from(h[2] % 64),
        dst_len,
        stage: [64, 65, 97, 200][usize::from(h[2] >> 6)],
        be: h[3] & 1 != 0,
        table: single_byte[usize::from(h[3] >> 2) % single_byte.len()],
        cjk: cjk[usize::from(h[3] >> 2) % cjk.len()],
    };
    let scalar = KernelTable::for_level(Level::Scalar).expect("scalar is always supported");
    let expect = twice("scalar", |canary| call(scalar, &case, canary));
    check_meaning(&case, &expect);
    for level in cpu::supported().filter(|&l| l != Level::Scalar) {
        let table = KernelTable::for_level(level).expect("a supported level");
        let what = format!(
            "{} at {level} (src offset {}, dst offset {}, dst len {})",
            KERNELS[kernel], case.src_offset, case.dst_offset, case.dst_len
        );
        let got = twice(&what, |canary| call(table, &case, canary));
        let scalar = KernelTable::for_level(Level::Scalar).expect("scalar is always supported");
        let expect = twice("scalar", |canary| call(scalar, &case, canary));
        assert_eq!(got, expect, "{what} differs from scalar");
    }
}

fuzz_target!(|data: &[u8]| check(data));
