//! Shared by the `spec_*` tests: an independent reading of the vendored data files, and the
//! byte sequences each decoder's formula maps to a pointer, worked out from the standard's
//! text (the inverse of the decoders' pointer computations).
#![allow(dead_code)] // each test file uses part of it

use std::path::PathBuf;

fn whatwg_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tables/whatwg")
}

/// `index-{name}.txt` as (pointer, code point) pairs in file order. Deliberately a different
/// reading from `spec::index`'s parser: whitespace-separated fields, lines with a `#` skipped.
pub fn read_index(name: &str) -> Vec<(u32, char)> {
    let path = whatwg_dir().join(format!("index-{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut fields = line.split_whitespace();
            let pointer = fields.next().unwrap().parse().unwrap();
            let hex = fields.next().unwrap().trim_start_matches("0x");
            let code_point = char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap();
            (pointer, code_point)
        })
        .collect()
}

/// The index file name of a single-byte encoding, per the standard's table.
pub fn single_byte_index_name(encoding_name: &str) -> String {
    match encoding_name {
        "ISO-8859-8-I" => "iso-8859-8".to_owned(),
        name => name.to_ascii_lowercase(),
    }
}

/// (encoding name, label) for every label of `encodings.json`, read line by line: a line
/// `"name": "X"` closes the list of quoted labels read since the previous one.
pub fn read_labels() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(whatwg_dir().join("encodings.json")).unwrap();
    let mut table = Vec::new();
    let mut labels = Vec::new();
    let mut in_labels = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("\"labels\"") {
            in_labels = true;
        } else if in_labels && line.starts_with(']') {
            in_labels = false;
        } else if in_labels {
            labels.push(line.trim_end_matches(',').trim_matches('"').to_owned());
        } else if let Some(name) = line.strip_prefix("\"name\": ") {
            let name = name.trim_end_matches(',').trim_matches('"').to_owned();
            table.extend(labels.drain(..).map(|label| (name.clone(), label)));
        }
    }
    assert!(labels.is_empty());
    table
}

/// The two bytes the gb18030 decoder's step 5 maps to `pointer`.
pub fn gb18030_two_bytes(pointer: u32) -> [u8; 2] {
    let trailing = pointer % 190;
    let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
    [(pointer / 190 + 0x81) as u8, (trailing + offset) as u8]
}

/// The four bytes the gb18030 decoder's step 3 maps to `pointer`.
pub fn gb18030_four_bytes(pointer: u32) -> [u8; 4] {
    [
        (pointer / 12600 + 0x81) as u8,
        (pointer % 12600 / 1260 + 0x30) as u8,
        (pointer % 1260 / 10 + 0x81) as u8,
        (pointer % 10 + 0x30) as u8,
    ]
}

/// The two bytes the Big5 decoder maps to `pointer`.
pub fn big5_bytes(pointer: u32) -> [u8; 2] {
    let trailing = pointer % 157;
    let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
    [(pointer / 157 + 0x81) as u8, (trailing + offset) as u8]
}

/// The two bytes the Shift_JIS decoder maps to `pointer`.
pub fn shift_jis_bytes(pointer: u32) -> [u8; 2] {
    let leading = pointer / 188;
    let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
    let trailing = pointer % 188;
    let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
    [(leading + leading_offset) as u8, (trailing + offset) as u8]
}

/// The two bytes the EUC-KR decoder maps to `pointer`.
pub fn euc_kr_bytes(pointer: u32) -> [u8; 2] {
    [(pointer / 190 + 0x81) as u8, (pointer % 190 + 0x41) as u8]
}

/// The two bytes the EUC-JP decoder maps to `pointer` (jis0208; jis0212 after 0x8F).
pub fn euc_jp_bytes(pointer: u32) -> [u8; 2] {
    [(pointer / 94 + 0xA1) as u8, (pointer % 94 + 0xA1) as u8]
}

/// The two bytes the ISO-2022-JP decoder's trailing byte state maps to `pointer`.
pub fn iso_2022_jp_bytes(pointer: u32) -> [u8; 2] {
    [(pointer / 94 + 0x21) as u8, (pointer % 94 + 0x21) as u8]
}
