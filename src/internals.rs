//! Not part of the API: the kernel tables of each level, for the fuzz targets and out-of-crate
//! tests. Compiled only with the `internals` feature; nothing here is covered by semver.
//!
//! ```
//! use simdenc::cpu::Level;
//! use simdenc::internals::KernelTable;
//! let scalar = KernelTable::for_level(Level::Scalar).unwrap();
//! assert_eq!(scalar.ascii_prefix_len(b"abc\xff"), 3);
//! ```

use crate::cpu::Level;
use crate::simd::{self, EncodeTables, Kernels, PairTables};

/// The kernels of one level this CPU supports (see `src/simd/mod.rs` for their contract).
#[derive(Clone, Copy)]
pub struct KernelTable(&'static Kernels);

impl core::fmt::Debug for KernelTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("KernelTable").field(&self.0.level()).finish()
    }
}

macro_rules! forward {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        impl KernelTable {
            $(
                #[doc = concat!("The `", stringify!($name), "` kernel of this level.")]
                pub fn $name(&self, $($arg: $ty),*) -> $ret {
                    self.0.$name($($arg),*)
                }
            )*
        }
    };
}

/// As `forward!`, for the kernels with byte output: the caller's bytes are their output.
macro_rules! forward_bytes {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        impl KernelTable {
            $(
                #[doc = concat!("The `", stringify!($name), "` kernel of this level.")]
                pub fn $name(&self, $($arg: $ty,)* dst: &mut [u8]) -> $ret {
                    self.0.$name($($arg,)* crate::simd::as_out(dst))
                }
            )*
        }
    };
}

forward_bytes! {
    copy_ascii(src: &[u8]) -> usize;
    copy_ascii_loose(src: &[u8]) -> usize;
    utf8_to_latin1(src: &[u8], first: u8) -> (usize, usize);
    latin1_to_utf8(src: &[u8], first: u8) -> (usize, usize);
    narrow_ascii(src: &[u16]) -> usize;
    utf8_copy_valid(src: &[u8]) -> (usize, usize);
    utf16_to_utf8(src: &[u16]) -> (usize, usize);
    single_byte_to_utf8(src: &[u8], table: &[u16; 128]) -> (usize, usize);
    utf16_bytes_to_utf8(src: &[u8], be: bool) -> (usize, usize);
}

forward! {
    ascii_prefix_len(src: &[u8]) -> usize;
    widen_ascii(src: &[u8], dst: &mut [u16]) -> usize;
    utf8_valid_up_to(src: &[u8]) -> usize;
    utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize);
    utf8_to_utf16_stage(src: &[u8], dst: &mut [u16]) -> (usize, usize);
    single_byte_to_utf16(src: &[u8], table: &[u16; 128], dst: &mut [u16]) -> (usize, usize);
    utf16_bytes_to_utf16(src: &[u8], be: bool, dst: &mut [u16]) -> (usize, usize);
}

impl KernelTable {
    /// The `cjk_to_utf8` kernel of this level, with the decoder tables of `cjk`.
    pub fn cjk_to_utf8(&self, src: &[u8], cjk: &CjkTables, dst: &mut [u8]) -> (usize, usize) {
        self.0.cjk_to_utf8(src, cjk.pairs, crate::simd::as_out(dst))
    }

    /// The `cjk_to_utf16` kernel of this level, with the decoder tables of `cjk`.
    pub fn cjk_to_utf16(&self, src: &[u8], cjk: &CjkTables, dst: &mut [u16]) -> (usize, usize) {
        self.0.cjk_to_utf16(src, cjk.pairs, dst)
    }

    /// The `utf16_to_legacy` kernel of this level, with an encoder's tables.
    pub fn utf16_to_legacy(&self, src: &[u16], tables: &LegacyTables, dst: &mut [u8]) -> (usize, usize) {
        self.0.utf16_to_legacy(src, &tables.0, crate::simd::as_out(dst))
    }

    /// The table of `level`, if this CPU supports it.
    pub fn for_level(level: Level) -> Option<KernelTable> {
        simd::kernels_for(level).map(KernelTable)
    }

    /// Its level.
    pub fn level(&self) -> Level {
        self.0.level()
    }
}

/// The upper half (bytes 0x80..=0xFF) of a single-byte encoding's index as the kernels take
/// it (`0` = unmapped; for x-user-defined, which shares the kernels, U+F780..U+F7FF), or
/// `None` if `encoding` is not single-byte.
pub fn single_byte_table(encoding: &'static crate::Encoding) -> Option<&'static [u16; 128]> {
    match encoding.kind() {
        crate::encoding::Kind::SingleByte(tables) => Some(tables.decode),
        crate::encoding::Kind::XUserDefined => Some(&crate::codecs::X_USER_DEFINED_TABLE),
        _ => None,
    }
}

/// A two-byte CJK encoding's tables as the `cjk_to_*` (decoder) and `utf16_to_legacy`
/// (encoder, [`CjkTables::legacy`]) kernels take them.
///
/// ```
/// use simdenc::cpu::Level;
/// use simdenc::internals::{KernelTable, cjk_tables};
/// let scalar = KernelTable::for_level(Level::Scalar).unwrap();
/// let sjis = cjk_tables().into_iter().find(|t| t.encoding() == simdenc::SHIFT_JIS).unwrap();
/// let mut out = [0u8; 8];
/// assert_eq!(scalar.cjk_to_utf8(b"a\x82\xa0", &sjis, &mut out), (3, 4));
/// assert_eq!(&out[..4], "aあ".as_bytes());
/// ```
#[derive(Clone, Copy)]
pub struct CjkTables {
    encoding: &'static crate::Encoding,
    pairs: &'static PairTables,
    encode: &'static EncodeTables,
}

impl core::fmt::Debug for CjkTables {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("CjkTables").field(&self.encoding.name()).finish()
    }
}

impl CjkTables {
    /// The encoding whose decoder and encoder these tables belong to.
    pub fn encoding(&self) -> &'static crate::Encoding {
        self.encoding
    }

    /// The encoder's tables, for `utf16_to_legacy`.
    pub fn legacy(&self) -> LegacyTables {
        LegacyTables(*self.encode)
    }
}

/// An encoder's tables as the `utf16_to_legacy` kernel takes them: a CJK encoding's
/// ([`CjkTables::legacy`]) or a single-byte one's ([`single_byte_legacy_tables`]).
#[derive(Clone, Copy)]
pub struct LegacyTables(EncodeTables);

impl core::fmt::Debug for LegacyTables {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("LegacyTables")
    }
}

/// The single-byte encoder's tables of `encoding` as `utf16_to_legacy` takes them (as the
/// encoder builds them), or `None` if `encoding` is not single-byte (x-user-defined's encoder
/// has no tables).
pub fn single_byte_legacy_tables(encoding: &'static crate::Encoding) -> Option<LegacyTables> {
    match encoding.kind() {
        crate::encoding::Kind::SingleByte(t) => Some(LegacyTables(EncodeTables {
            pages: t.enc_pages,
            blocks: crate::simd::Lookup::U8(t.enc_blocks),
            latin1_from: t.latin1_from,
        })),
        _ => None,
    }
}

/// The number of gb18030's four-byte pointers below the astral planes, which the CJK decode
/// kernels decode (index gb18030 ranges: U+0080..=U+FFFF).
pub const FOUR_BYTE_POINTERS: usize = crate::simd::FOUR_BYTE_POINTERS;

/// The tables of Shift_JIS, EUC-JP, EUC-KR, GBK, gb18030 and Big5.
pub fn cjk_tables() -> Vec<CjkTables> {
    crate::codecs::pair_tables()
        .into_iter()
        .zip(crate::codecs::encode_tables())
        .map(|((encoding, pairs), (same, encode))| {
            debug_assert_eq!(encoding, same);
            CjkTables {
                encoding,
                pairs,
                encode,
            }
        })
        .collect()
}

/// Checks every operation of the vector type of `level` (and, for AVX2, of its 16-byte
/// lane) against a model on plain bytes, on `cases` generated inputs each; returns the number
/// of checks (0 for the scalar level), or a description of the first mismatch. `level` must
/// be one `cpu::supported` reports.
///
/// ```
/// for level in simdenc::cpu::supported() {
///     assert!(simdenc::internals::check_vector_operations(level, 10).is_ok());
/// }
/// ```
pub fn check_vector_operations(level: Level, cases: usize) -> Result<usize, alloc::string::String> {
    simd::ops_check::check(level, cases)
}
