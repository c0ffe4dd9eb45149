//! Decoding into a caller's `&mut str`: the only `unsafe` code outside `simd/`.

/// Lets `f` write UTF-8 into the bytes of `dst`; `f` returns how many bytes it wrote.
///
/// The decoders write only whole characters through [`Utf8Dest`](crate::codecs::dest::Utf8Dest) and never past the count
/// they return; to keep `dst` a valid `str` even if that were ever broken past the count,
/// continuation bytes right after it are set to zero (a character boundary), as encoding_rs
/// does.
pub(crate) fn with_str_bytes(dst: &mut str, f: impl FnOnce(&mut [u8]) -> usize) {
    // SAFETY: `as_bytes_mut` requires the bytes to be valid UTF-8 again when the borrow ends.
    // `f` is a decoder writing through `Utf8Dest`, whose writes are `char::encode_utf8`,
    // ASCII bytes, and kernels that copy or produce whole validated characters, all within
    // `bytes[..written]`; the bytes after `written` were valid UTF-8 before and are only
    // touched below to restore a character boundary.
    let bytes = unsafe { dst.as_bytes_mut() };
    let written = f(bytes).min(bytes.len());
    let mut trail = written;
    while trail < bytes.len() && (bytes[trail] & 0xC0) == 0x80 {
        bytes[trail] = 0;
        trail += 1;
    }
    debug_assert!(core::str::from_utf8(bytes).is_ok(), "decoder broke a &mut str");
}
