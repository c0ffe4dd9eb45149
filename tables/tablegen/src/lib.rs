//! Generator of `src/tables/` from the WHATWG data files vendored in `tables/whatwg/`.
//!
//! The vendored files are the source of truth; everything under `src/tables/` except its
//! hand-written `mod.rs` is produced by [`render_all`], a pure function of those files. The
//! binary (`cargo run -p simdenc-tablegen`, alias `cargo tablegen`) writes the files, and
//! `tests/fresh.rs` fails when the committed files differ from what [`render_all`] produces.
//!
//! Output is deterministic: no timestamps, no hash-map iteration order, 16 values per row.
//!
//! This crate depends on nothing of `simdenc`; `simdenc::spec` parses the same index files
//! on its own, and a test in `simdenc` checks that both readings agree on every pointer.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// One index file, as the standard's "Indexes" section says to read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    /// `(pointer, code point)` in file order.
    pub entries: Vec<(u32, u32)>,
}

impl Index {
    /// Parses the text of an `index-*.txt` file.
    ///
    /// The standard: split the contents on U+000A LF, remove each line that is empty or starts
    /// with U+0023 (#), split each remaining line on U+0009 TAB; the first field is the pointer
    /// in decimal, the second the code point in hexadecimal. The files right-align pointers
    /// with spaces, so the pointer field is trimmed of ASCII spaces before parsing.
    ///
    /// ```
    /// let index = simdenc_tablegen::Index::parse("# comment\n\n  0\t0x3000\t x\n  1\t0x3001\n").unwrap();
    /// assert_eq!(index.entries, vec![(0, 0x3000), (1, 0x3001)]);
    /// ```
    pub fn parse(text: &str) -> Result<Index, String> {
        let mut entries = Vec::new();
        for (n, line) in text.split('\n').enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split('\t');
            let pointer = fields.next().unwrap_or("").trim_matches(' ');
            let code_point = fields.next().ok_or_else(|| format!("line {}: no TAB", n + 1))?;
            let pointer: u32 = pointer
                .parse()
                .map_err(|e| format!("line {}: pointer {pointer:?}: {e}", n + 1))?;
            let hex = code_point
                .strip_prefix("0x")
                .ok_or_else(|| format!("line {}: code point {code_point:?} lacks 0x", n + 1))?;
            let code_point = u32::from_str_radix(hex, 16)
                .map_err(|e| format!("line {}: code point {code_point:?}: {e}", n + 1))?;
            if code_point == 0 || char::from_u32(code_point).is_none() {
                return Err(format!(
                    "line {}: {code_point:#X} is not a usable scalar value",
                    n + 1
                ));
            }
            entries.push((pointer, code_point));
        }
        Ok(Index { entries })
    }

    /// The largest pointer plus one: the length of a dense pointer → code point table.
    pub fn dense_len(&self) -> usize {
        self.entries
            .iter()
            .map(|&(p, _)| p as usize + 1)
            .max()
            .unwrap_or(0)
    }

    /// A dense table, `table[pointer]` = code point, 0 where the pointer is not in the index.
    pub fn dense(&self) -> Result<Vec<u32>, String> {
        let mut table = vec![0u32; self.dense_len()];
        for &(p, c) in &self.entries {
            if table[p as usize] != 0 {
                return Err(format!("pointer {p} appears twice"));
            }
            table[p as usize] = c;
        }
        Ok(table)
    }
}

/// One encoding of `encodings.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodingEntry {
    /// The standard's name, e.g. `Shift_JIS`.
    pub name: String,
    /// Its labels, in the file's order.
    pub labels: Vec<String>,
    /// The heading of its group, e.g. `Legacy single-byte encodings`.
    pub heading: String,
}

/// Reads `encodings.json`: every encoding, in the standard's order.
///
/// ```
/// let json = r#"[{"encodings":[{"labels":["utf-8","utf8"],"name":"UTF-8"}],"heading":"The Encoding"}]"#;
/// let all = simdenc_tablegen::parse_encodings(json).unwrap();
/// assert_eq!(all[0].name, "UTF-8");
/// assert_eq!(all[0].labels, ["utf-8", "utf8"]);
/// ```
pub fn parse_encodings(json: &str) -> Result<Vec<EncodingEntry>, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let groups = value.as_array().ok_or("encodings.json: not an array")?;
    let mut out = Vec::new();
    for group in groups {
        let heading = group["heading"].as_str().ok_or("group without heading")?;
        for enc in group["encodings"].as_array().ok_or("group without encodings")? {
            let name = enc["name"].as_str().ok_or("encoding without name")?;
            let labels = enc["labels"]
                .as_array()
                .ok_or("encoding without labels")?
                .iter()
                .map(|l| l.as_str().map(str::to_owned).ok_or("label is not a string"))
                .collect::<Result<Vec<_>, _>>()?;
            out.push(EncodingEntry {
                name: name.to_owned(),
                labels,
                heading: heading.to_owned(),
            });
        }
    }
    Ok(out)
}

/// The Rust identifier encoding_rs gives an encoding's static: `Shift_JIS` → `SHIFT_JIS`.
///
/// ```
/// assert_eq!(simdenc_tablegen::static_name("ISO-8859-8-I"), "ISO_8859_8_I");
/// assert_eq!(simdenc_tablegen::static_name("x-mac-cyrillic"), "X_MAC_CYRILLIC");
/// ```
pub fn static_name(name: &str) -> String {
    name.to_ascii_uppercase().replace('-', "_")
}

/// The index file that an encoding's single-byte table comes from, if it is a single-byte
/// encoding with an index (ISO-8859-8-I shares ISO-8859-8's index).
fn single_byte_index_file(entry: &EncodingEntry) -> Option<String> {
    if entry.heading != "Legacy single-byte encodings" {
        return None;
    }
    let name = entry.name.to_ascii_lowercase();
    let name = if name == "iso-8859-8-i" {
        "iso-8859-8".to_owned()
    } else {
        name
    };
    Some(format!("index-{name}.txt"))
}

/// The Rust expression for an encoding's `Kind` in `src/encoding.rs`.
fn kind_expr(entry: &EncodingEntry) -> Result<String, String> {
    if let Some(file) = single_byte_index_file(entry) {
        let ident = static_name(file.trim_start_matches("index-").trim_end_matches(".txt"));
        return Ok(format!("Kind::SingleByte(&single_byte::{ident}_TABLES)"));
    }
    Ok(match entry.name.as_str() {
        "UTF-8" => "Kind::Utf8",
        "GBK" => "Kind::Gbk",
        "gb18030" => "Kind::Gb18030",
        "Big5" => "Kind::Big5",
        "EUC-JP" => "Kind::EucJp",
        "ISO-2022-JP" => "Kind::Iso2022Jp",
        "Shift_JIS" => "Kind::ShiftJis",
        "EUC-KR" => "Kind::EucKr",
        "replacement" => "Kind::Replacement",
        "UTF-16BE" => "Kind::Utf16Be",
        "UTF-16LE" => "Kind::Utf16Le",
        "x-user-defined" => "Kind::XUserDefined",
        other => {
            return Err(format!("encodings.json names an unknown encoding {other:?}"));
        }
    }
    .to_owned())
}

fn header(out: &mut String, source: &str, commit: &str) {
    writeln!(
        out,
        "// @generated by `cargo run -p simdenc-tablegen` from tables/whatwg/{source} \
         (whatwg/encoding@{commit}). DO NOT EDIT."
    )
    .unwrap();
}

/// Writes `values` as rows of 16, `0x`-prefixed hexadecimal.
fn rows(out: &mut String, values: impl IntoIterator<Item = u32>, width: usize) {
    let values: Vec<u32> = values.into_iter().collect();
    for chunk in values.chunks(16) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " 0x{v:0width$X},").unwrap();
        }
        out.push('\n');
    }
}

/// A dense pointer → code point table as a `static`.
fn dense_static(out: &mut String, doc: &str, ident: &str, ty: &str, table: &[u32]) {
    let width = if ty == "u16" { 4 } else { 5 };
    writeln!(out, "/// {doc}").unwrap();
    writeln!(
        out,
        "/// Indexed by pointer; 0 where the pointer is not in the index."
    )
    .unwrap();
    writeln!(out, "pub(crate) static {ident}: [{ty}; {}] = [", table.len()).unwrap();
    rows(out, table.iter().copied(), width);
    out.push_str("];\n");
}

/// Everything the generator writes: `(path relative to the repository root, contents)`.
///
/// `whatwg` is the folder with the vendored data files (`tables/whatwg`).
///
/// ```no_run
/// let files = simdenc_tablegen::render_all(std::path::Path::new("tables/whatwg")).unwrap();
/// assert!(files.iter().any(|(path, _)| path.ends_with("labels.rs")));
/// ```
pub fn render_all(whatwg: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let read = |name: &str| {
        fs::read_to_string(whatwg.join(name)).map_err(|e| format!("{}: {e}", whatwg.join(name).display()))
    };
    let commit = read("SOURCE-COMMIT")?;
    let commit = commit.split_whitespace().next().ok_or("SOURCE-COMMIT is empty")?;
    let commit = &commit[..commit.len().min(12)];
    let encodings = parse_encodings(&read("encodings.json")?)?;
    let index = |name: &str| Index::parse(&read(name)?).map_err(|e| format!("{name}: {e}"));
    let mut files = Vec::new();
    let dir = PathBuf::from("src/tables");

    // encodings.rs and labels.rs
    files.push((dir.join("encodings.rs"), render_encodings(&encodings, commit)?));
    files.push((dir.join("labels.rs"), render_labels(&encodings, commit)?));

    // single_byte.rs: one 128-entry table per distinct index.
    let mut out = String::new();
    header(&mut out, "index-<name>.txt for each single-byte encoding", commit);
    out.push_str("//! The single-byte indexes: `TABLE[byte - 0x80]` is the code point, 0 if unmapped.\n\n");
    out.push_str("use super::SingleByteTables;\n");
    let mut seen = BTreeMap::new();
    for entry in &encodings {
        if let Some(file) = single_byte_index_file(entry) {
            if seen.contains_key(&file) {
                continue;
            }
            let idx = index(&file)?;
            if idx.dense_len() > 128 {
                return Err(format!("{file}: pointer above 127"));
            }
            let mut table = idx.dense()?;
            table.resize(128, 0);
            let ident = static_name(file.trim_start_matches("index-").trim_end_matches(".txt"));
            out.push('\n');
            dense_static(
                &mut out,
                &format!("Index single-byte of {} (`{file}`).", entry.name),
                &ident,
                "u16",
                &table,
            );
            // The encoder's inverse: code point -> byte (0 = unmappable; never ASCII here).
            let inverse: Vec<(u32, u32)> = idx.entries.iter().map(|&(p, c)| (c, p + 0x80)).collect();
            paged_static(&mut out, &format!("{ident}_ENC"), "u8", &inverse, 0x10000)?;
            // The longest run of bytes whose code points follow each other (the first one
            // wins a tie): the encoder maps it by subtraction.
            let (mut run, mut start) = ((0u32, 0usize, 0usize), 0);
            for i in 0..=table.len() {
                let continues = i > start && i < table.len() && table[i] != 0 && table[i] == table[i - 1] + 1;
                if !continues {
                    if i > start && table[start] != 0 && i - start > run.2 {
                        run = (table[start], start + 0x80, i - start);
                    }
                    start = i;
                }
            }
            // Bytes from `latin1_from` to 0xFF that are their own code points (the run, when it
            // is that: windows-1252's U+00A0..=U+00FF), for the encoder's `utf8_to_latin1`.
            let latin1_from = if run.0 as usize == run.1 && run.1 >= 0x80 && run.1 + run.2 == 0x100 {
                run.1
            } else {
                0
            };
            writeln!(out, "\n/// The decoder and encoder tables of {}.", entry.name).unwrap();
            writeln!(
                out,
                "pub(crate) static {ident}_TABLES: SingleByteTables = SingleByteTables {{ decode: &{ident}, enc_pages: &{ident}_ENC_PAGES, enc_blocks: &{ident}_ENC_BLOCKS, run: (0x{:04X}, 0x{:02X}, {}), latin1_from: 0x{:02X} }};",
                run.0, run.1, run.2, latin1_from
            )
            .unwrap();
            seen.insert(file, ident);
        }
    }
    files.push((dir.join("single_byte.rs"), out));

    // The multi-byte indexes, dense.
    let multi: [(&str, &str, &str, &str); 6] = [
        ("index-big5.txt", "big5.rs", "BIG5", "u32"),
        ("index-euc-kr.txt", "euc_kr.rs", "EUC_KR", "u16"),
        ("index-gb18030.txt", "gb18030.rs", "GB18030", "u16"),
        ("index-jis0208.txt", "jis0208.rs", "JIS0208", "u16"),
        ("index-jis0212.txt", "jis0212.rs", "JIS0212", "u16"),
        (
            "index-iso-2022-jp-katakana.txt",
            "iso_2022_jp_katakana.rs",
            "ISO_2022_JP_KATAKANA",
            "u16",
        ),
    ];
    for (file, rs, ident, ty) in multi {
        let idx = index(file)?;
        let table = idx.dense()?;
        if ty == "u16" && table.iter().any(|&c| c > 0xFFFF) {
            return Err(format!("{file}: code point above U+FFFF in a u16 table"));
        }
        let mut out = String::new();
        header(&mut out, file, commit);
        out.push('\n');
        dense_static(&mut out, &format!("The index of `{file}`."), ident, ty, &table);
        if file == "index-gb18030.txt" {
            let ranges = index("index-gb18030-ranges.txt")?;
            writeln!(
                out,
                "\n/// Index gb18030 ranges (`index-gb18030-ranges.txt`): `(pointer, code point)`, ascending.\n/// A `const`, so that the decoder can build its lookup from it at compile time."
            )
            .unwrap();
            writeln!(
                out,
                "pub(crate) const GB18030_RANGES: [(u32, u32); {}] = [",
                ranges.entries.len()
            )
            .unwrap();
            for chunk in ranges.entries.chunks(8) {
                out.push_str("   ");
                for (p, c) in chunk {
                    write!(out, " ({p}, 0x{c:04X}),").unwrap();
                }
                out.push('\n');
            }
            out.push_str("];\n");
        }
        match file {
            "index-jis0208.txt" => {
                // "index pointer": the first pointer of a code point (EUC-JP, ISO-2022-JP).
                let first = first_pointers(&idx.entries, |_| true);
                paged_static(&mut out, "JIS0208_ENC", "u16", &first, 0x10000)?;
                // "index Shift_JIS pointer": pointers 8272..=8835 excluded.
                let sjis = first_pointers(&idx.entries, |p| !(8272..=8835).contains(&p));
                paged_static(&mut out, "SHIFT_JIS_ENC", "u16", &sjis, 0x10000)?;
            }
            "index-euc-kr.txt" => {
                let first = first_pointers(&idx.entries, |_| true);
                paged_static(&mut out, "EUC_KR_ENC", "u16", &first, 0x10000)?;
            }
            "index-gb18030.txt" => {
                let first = first_pointers(&idx.entries, |_| true);
                paged_static(&mut out, "GB18030_ENC", "u16", &first, 0x10000)?;
            }
            "index-big5.txt" => {
                // "index Big5 pointer": pointers below (0xA1 - 0x81) * 157 excluded; the last
                // pointer for six code points, the first for all others.
                const LAST: [u32; 6] = [0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345];
                let min = (0xA1 - 0x81) * 157;
                let mut map: BTreeMap<u32, u32> = BTreeMap::new();
                for &(p, c) in idx.entries.iter().filter(|&&(p, _)| p >= min) {
                    if LAST.contains(&c) {
                        map.insert(c, p);
                    } else {
                        map.entry(c).or_insert(p);
                    }
                }
                let bmp: Vec<(u32, u32)> = map
                    .iter()
                    .filter(|e| *e.0 <= 0xFFFF)
                    .map(|(&c, &p)| (c, p + 1))
                    .collect();
                paged_static(&mut out, "BIG5_ENC", "u16", &bmp, 0x10000)?;
                let astral: Vec<String> = map
                    .iter()
                    .filter(|e| *e.0 > 0xFFFF)
                    .map(|(c, p)| format!("(0x{c:05X}, {p})"))
                    .collect();
                writeln!(out, "\n/// The Big5 encoder for code points above U+FFFF: `(code point, index Big5 pointer)`, ascending.").unwrap();
                writeln!(
                    out,
                    "pub(crate) static BIG5_ENC_ASTRAL: [(u32, u16); {}] = [",
                    astral.len()
                )
                .unwrap();
                for chunk in astral.chunks(8) {
                    writeln!(out, "    {},", chunk.join(", ")).unwrap();
                }
                out.push_str("];\n");
            }
            _ => {}
        }
        files.push((dir.join(rs), out));
    }
    Ok(files)
}

/// `(code point, pointer + 1)` for the first pointer of each code point among the entries whose
/// pointer passes `keep`, ascending by code point.
fn first_pointers(entries: &[(u32, u32)], keep: impl Fn(u32) -> bool) -> Vec<(u32, u32)> {
    let mut map: BTreeMap<u32, u32> = BTreeMap::new();
    for &(p, c) in entries.iter().filter(|&&(p, _)| keep(p)) {
        map.entry(c).or_insert(p + 1);
    }
    map.into_iter().filter(|&(c, _)| c <= 0xFFFF).collect()
}

/// A two-level table for the BMP: `{ident}_PAGES[cp >> 8]` is the block number of the
/// code point's 256-entry page (block 0 is all zeros), `{ident}_BLOCKS[block * 256 + (cp & 0xFF)]`
/// the value. `entries` are `(code point, value)` with values non-zero.
fn paged_static(
    out: &mut String,
    ident: &str,
    ty: &str,
    entries: &[(u32, u32)],
    limit: u32,
) -> Result<(), String> {
    let mut blocks: Vec<Vec<u32>> = vec![vec![0; 256]];
    let mut pages = vec![0u32; (limit >> 8) as usize];
    for &(c, v) in entries {
        if c >= limit || v == 0 || (ty == "u8" && v > 0xFF) || v > 0xFFFF {
            return Err(format!("{ident}: entry ({c:#X}, {v}) does not fit"));
        }
        let page = (c >> 8) as usize;
        if pages[page] == 0 {
            pages[page] = blocks.len() as u32;
            blocks.push(vec![0; 256]);
        }
        let block = &mut blocks[pages[page] as usize];
        if block[(c & 0xFF) as usize] != 0 {
            return Err(format!("{ident}: code point {c:#X} twice"));
        }
        block[(c & 0xFF) as usize] = v;
    }
    let page_ty = if blocks.len() <= 256 { "u8" } else { "u16" };
    writeln!(
        out,
        "\n/// Encoder lookup, page level: block number of `code_point >> 8` in `{ident}_BLOCKS` (0: none)."
    )
    .unwrap();
    writeln!(
        out,
        "pub(crate) static {ident}_PAGES: [{page_ty}; {}] = [",
        pages.len()
    )
    .unwrap();
    rows(out, pages, if page_ty == "u8" { 2 } else { 4 });
    out.push_str("];\n");
    let value_doc = if ty == "u8" { "the byte" } else { "the pointer + 1" };
    writeln!(out, "\n/// Encoder lookup, value level: `{ident}_BLOCKS[block * 256 + (code_point & 0xFF)]` is {value_doc}, 0 if unmappable.").unwrap();
    writeln!(
        out,
        "pub(crate) static {ident}_BLOCKS: [{ty}; {}] = [",
        blocks.len() * 256
    )
    .unwrap();
    rows(out, blocks.into_iter().flatten(), if ty == "u8" { 2 } else { 4 });
    out.push_str("];\n");
    Ok(())
}

fn render_encodings(encodings: &[EncodingEntry], commit: &str) -> Result<String, String> {
    let mut out = String::new();
    header(&mut out, "encodings.json", commit);
    out.push_str("//! The encodings of the standard, in its order, with their labels.\n\n");
    out.push_str("use crate::encoding::{Encoding, Kind};\nuse crate::tables::single_byte;\n");
    for (i, entry) in encodings.iter().enumerate() {
        let ident = static_name(&entry.name);
        let kind = kind_expr(entry)?;
        let labels: Vec<String> = entry.labels.iter().map(|l| format!("{l:?}")).collect();
        writeln!(out).unwrap();
        writeln!(
            out,
            "/// The initializer of [`{ident}`]; use that static instead."
        )
        .unwrap();
        writeln!(out, "pub static {ident}_INIT: Encoding = Encoding::new(").unwrap();
        writeln!(
            out,
            "    {:?},\n    {i},\n    {kind},\n    &[{}],\n);",
            entry.name,
            labels.join(", ")
        )
        .unwrap();
        writeln!(out).unwrap();
        writeln!(
            out,
            "/// The {} encoding (section *{}* of the standard).",
            entry.name, entry.heading
        )
        .unwrap();
        writeln!(out, "///").unwrap();
        writeln!(
            out,
            "/// Its labels: {}.",
            entry
                .labels
                .iter()
                .map(|l| format!("`{l}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
        .unwrap();
        writeln!(out, "///").unwrap();
        writeln!(out, "/// ```").unwrap();
        writeln!(out, "/// assert_eq!(simdenc::{ident}.name(), {:?});", entry.name).unwrap();
        writeln!(
            out,
            "/// assert_eq!(simdenc::Encoding::for_label(b\"{}\"), Some(simdenc::{ident}));",
            entry.labels[0]
        )
        .unwrap();
        writeln!(out, "/// ```").unwrap();
        writeln!(out, "pub static {ident}: &Encoding = &{ident}_INIT;").unwrap();
    }
    writeln!(
        out,
        "\n/// Every encoding, in the standard's order (`Encoding::index` is the position here)."
    )
    .unwrap();
    writeln!(out, "pub(crate) static ALL: [&Encoding; {}] = [", encodings.len()).unwrap();
    for entry in encodings {
        writeln!(out, "    {},", static_name(&entry.name)).unwrap();
    }
    out.push_str("];\n");
    Ok(out)
}

fn render_labels(encodings: &[EncodingEntry], commit: &str) -> Result<String, String> {
    let mut labels: Vec<(&str, usize)> = Vec::new();
    for (i, entry) in encodings.iter().enumerate() {
        for label in &entry.labels {
            if !label
                .bytes()
                .all(|b| b.is_ascii_graphic() && !b.is_ascii_uppercase())
            {
                return Err(format!("label {label:?} is not lowercase printable ASCII"));
            }
            labels.push((label, i));
        }
    }
    // Sorted by length, then bytes: the lookup picks the block of one length and
    // binary-searches it.
    labels.sort_by(|a, b| (a.0.len(), a.0).cmp(&(b.0.len(), b.0)));
    if let Some(w) = labels.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!("label {:?} appears twice", w[0].0));
    }
    let max = labels.iter().map(|l| l.0.len()).max().unwrap_or(0);
    let mut out = String::new();
    header(&mut out, "encodings.json", commit);
    out.push_str(
        "//! Every label, sorted by (length, bytes), with the position of its encoding in `ALL`.\n\n",
    );
    writeln!(out, "/// The longest label, in bytes.").unwrap();
    writeln!(out, "pub(crate) const MAX_LABEL_LEN: usize = {max};\n").unwrap();
    writeln!(
        out,
        "/// `LENGTH_STARTS[n]..LENGTH_STARTS[n + 1]` is the block of labels of length `n`."
    )
    .unwrap();
    let starts: Vec<usize> = (0..=max + 1)
        .map(|n| labels.iter().filter(|l| l.0.len() < n).count())
        .collect();
    writeln!(
        out,
        "pub(crate) static LENGTH_STARTS: [u16; {}] = [",
        starts.len()
    )
    .unwrap();
    let starts: Vec<String> = starts.iter().map(|s| s.to_string()).collect();
    writeln!(out, "    {},\n];\n", starts.join(", ")).unwrap();
    writeln!(out, "/// `(label, index of its encoding in ALL)`.").unwrap();
    writeln!(
        out,
        "pub(crate) static LABELS: [(&[u8], u8); {}] = [",
        labels.len()
    )
    .unwrap();
    for (label, i) in &labels {
        writeln!(out, "    (b{label:?}, {i}),").unwrap();
    }
    out.push_str("];\n");
    Ok(out)
}

/// The repository root, from this crate's manifest directory.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
