//! A second, literal transcription of the HTML Standard's prescan ("prescan a byte stream to
//! determine its encoding", "get an attribute", "the algorithm for extracting a character
//! encoding from a meta element", "get an XML encoding"), written to be read beside the
//! standard rather than to be fast: it builds the lowercase strings and the attribute list the
//! standard describes, and moves one byte at a time. `tests/sniff.rs` and the `sniff` fuzz
//! target compare `simdenc::sniff` with it.

// Literal on purpose: the steps as the standard writes them, not as clippy would fold them.
#![allow(
    clippy::collapsible_match,
    clippy::collapsible_if,
    clippy::manual_ignore_case_cmp
)]

use simdenc::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// What the reference finds: the encoding and whether it came from a `<meta>` (`false`: the
/// UTF-16 `<?x` check or the XML declaration).
pub fn prescan(input: &[u8]) -> Option<(&'static Encoding, bool)> {
    let bytes = &input[..input.len().min(1024)];
    match prescan_meta(bytes) {
        Ok(found) => Some(found),
        Err(Abort) => xml(input).map(|e| (e, false)),
    }
}

struct Abort;

fn at(bytes: &[u8], position: usize) -> Result<u8, Abort> {
    bytes.get(position).copied().ok_or(Abort)
}

fn space(b: u8) -> bool {
    matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

fn starts(bytes: &[u8], position: usize, prefix: &[u8]) -> bool {
    bytes.len() >= position + prefix.len() && &bytes[position..position + prefix.len()] == prefix
}

#[derive(PartialEq)]
enum Charset {
    Null,
    Failure,
    Found(&'static Encoding),
}

fn prescan_meta(bytes: &[u8]) -> Result<(&'static Encoding, bool), Abort> {
    let mut position = 0;
    if starts(bytes, 0, &[0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00]) {
        return Ok((UTF_16LE, false));
    }
    if starts(bytes, 0, &[0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78]) {
        return Ok((UTF_16BE, false));
    }
    loop {
        if position >= bytes.len() {
            return Err(Abort);
        }
        let lower = |i: usize| bytes.get(position + i).map(|b| b.to_ascii_lowercase());
        if starts(bytes, position, b"<!--") {
            // The first '>' preceded by two '-', after the '<' (the dashes may be those of "<!--").
            let mut p = position + 2;
            loop {
                if at(bytes, p)? == b'>' && bytes[p - 1] == b'-' && bytes[p - 2] == b'-' && p >= position + 4
                {
                    break;
                }
                p += 1;
            }
            position = p;
        } else if lower(0) == Some(b'<')
            && lower(1) == Some(b'm')
            && lower(2) == Some(b'e')
            && lower(3) == Some(b't')
            && lower(4) == Some(b'a')
            && bytes.get(position + 5).is_some_and(|&b| space(b) || b == b'/')
        {
            position += 5;
            let mut attribute_list: Vec<Vec<u8>> = Vec::new();
            let mut got_pragma = false;
            let mut need_pragma: Option<bool> = None;
            let mut charset = Charset::Null;
            while let Some((name, value)) = get_an_attribute(bytes, &mut position)? {
                if attribute_list.contains(&name) {
                    continue;
                }
                attribute_list.push(name.clone());
                match &name[..] {
                    b"http-equiv" => {
                        if value == b"content-type" {
                            got_pragma = true;
                        }
                    }
                    b"content" => {
                        if let Some(e) = extract_from_meta(&value) {
                            if charset == Charset::Null {
                                charset = Charset::Found(e);
                                need_pragma = Some(true);
                            }
                        }
                    }
                    b"charset" => {
                        charset = match Encoding::for_label(&value) {
                            Some(e) => Charset::Found(e),
                            None => Charset::Failure,
                        };
                        need_pragma = Some(false);
                    }
                    _ => {}
                }
            }
            let decided = match need_pragma {
                None => None,
                Some(true) if !got_pragma => None,
                _ => match charset {
                    Charset::Found(e) if e == UTF_16BE || e == UTF_16LE => Some(UTF_8),
                    Charset::Found(e) if e == X_USER_DEFINED => Some(WINDOWS_1252),
                    Charset::Found(e) => Some(e),
                    _ => None,
                },
            };
            if let Some(e) = decided {
                return Ok((e, true));
            }
        } else if at(bytes, position)? == b'<'
            && (bytes.get(position + 1).is_some_and(u8::is_ascii_alphabetic)
                || (bytes.get(position + 1) == Some(&b'/')
                    && bytes.get(position + 2).is_some_and(u8::is_ascii_alphabetic)))
        {
            loop {
                let b = at(bytes, position)?;
                if space(b) || b == b'>' {
                    break;
                }
                position += 1;
            }
            while get_an_attribute(bytes, &mut position)?.is_some() {}
        } else if starts(bytes, position, b"<!")
            || starts(bytes, position, b"</")
            || starts(bytes, position, b"<?")
        {
            position += 1;
            while at(bytes, position)? != b'>' {
                position += 1;
            }
        }
        position += 1;
    }
}

fn lower(b: u8) -> u8 {
    if b.is_ascii_uppercase() { b + 0x20 } else { b }
}

#[allow(clippy::type_complexity)]
fn get_an_attribute(bytes: &[u8], position: &mut usize) -> Result<Option<(Vec<u8>, Vec<u8>)>, Abort> {
    while space(at(bytes, *position)?) || at(bytes, *position)? == b'/' {
        *position += 1;
    }
    if at(bytes, *position)? == b'>' {
        return Ok(None);
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    loop {
        let b = at(bytes, *position)?;
        if b == b'=' && !name.is_empty() {
            *position += 1;
            break;
        } else if space(b) {
            while space(at(bytes, *position)?) {
                *position += 1;
            }
            if at(bytes, *position)? != b'=' {
                return Ok(Some((name, value)));
            }
            *position += 1;
            break;
        } else if b == b'/' || b == b'>' {
            return Ok(Some((name, value)));
        } else {
            name.push(lower(b));
        }
        *position += 1;
    }
    while space(at(bytes, *position)?) {
        *position += 1;
    }
    let b = at(bytes, *position)?;
    if b == b'"' || b == b'\'' {
        loop {
            *position += 1;
            let c = at(bytes, *position)?;
            if c == b {
                *position += 1;
                return Ok(Some((name, value)));
            }
            value.push(lower(c));
        }
    } else if b == b'>' {
        return Ok(Some((name, value)));
    }
    value.push(lower(b));
    *position += 1;
    loop {
        let c = at(bytes, *position)?;
        if space(c) || c == b'>' {
            return Ok(Some((name, value)));
        }
        value.push(lower(c));
        *position += 1;
    }
}

/// HTML 2.5.3 over a string; here the bytes of an attribute value.
pub fn extract_from_meta(s: &[u8]) -> Option<&'static Encoding> {
    let mut position = 0;
    loop {
        let mut found = None;
        let mut p = position;
        while p + 7 <= s.len() {
            if s[p..p + 7].to_ascii_lowercase() == b"charset" {
                found = Some(p);
                break;
            }
            p += 1;
        }
        position = found? + 7;
        while position < s.len() && space(s[position]) {
            position += 1;
        }
        if position < s.len() && s[position] == b'=' {
            position += 1;
            break;
        }
    }
    while position < s.len() && space(s[position]) {
        position += 1;
    }
    let c = *s.get(position)?;
    if c == b'"' || c == b'\'' {
        let rest = &s[position + 1..];
        let end = rest.iter().position(|&b| b == c)?;
        Encoding::for_label(&rest[..end])
    } else {
        let mut end = position;
        while end < s.len() && !space(s[end]) && s[end] != b';' {
            end += 1;
        }
        Encoding::for_label(&s[position..end])
    }
}

/// "Get an XML encoding", reading the declaration up to its first '>'.
pub fn xml(bytes: &[u8]) -> Option<&'static Encoding> {
    if !starts(bytes, 0, b"<?xml") {
        return None;
    }
    let end = bytes.iter().position(|&b| b == b'>')?;
    let d = &bytes[..end];
    let mut p = (0..d.len().saturating_sub(7)).find(|&i| &d[i..i + 8] == b"encoding")? + 8;
    while *d.get(p)? <= 0x20 {
        p += 1;
    }
    if d[p] != b'=' {
        return None;
    }
    p += 1;
    while *d.get(p)? <= 0x20 {
        p += 1;
    }
    let q = d[p];
    if q != b'"' && q != b'\'' {
        return None;
    }
    p += 1;
    let mut e = p;
    while *d.get(e)? != q {
        e += 1;
    }
    let potential = &d[p..e];
    if potential.iter().any(|&b| b <= 0x20) {
        return None;
    }
    let encoding = Encoding::for_label(potential)?;
    Some(if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else {
        encoding
    })
}
