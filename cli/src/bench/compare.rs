//! `simdenc bench --compare A.json B.json`: two saved runs side by side.
//!
//! Per workload: simdenc's best figure in A and in B (with the level that gave it), B ÷ A,
//! then B ÷ A for every level and peer both runs measured. A ratio above 1 means B is faster.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::report::{FORMAT, Run, TableFormat, describe, fmt_mb_s, fmt_ratio};

/// Reads a saved run, checking its format.
pub fn load(path: &Path) -> Result<Run, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(format!(
                "{}: a run in format {other:?}; this simdenc reads {FORMAT:?}",
                path.display()
            ));
        }
        None => {
            return Err(format!(
                "{}: not a saved `simdenc bench --json` run (no \"format\" field)",
                path.display()
            ));
        }
    }
    serde_json::from_value(value).map_err(|e| format!("{}: {e}", path.display()))
}

/// Where the chart goes when `--svg` is not given: next to B, named after both files
/// (`runs/a.json` and `runs/b.json` give `runs/a-vs-b.svg`).
pub fn default_svg_path(a: &Path, b: &Path) -> PathBuf {
    let stem = |p: &Path| {
        p.file_stem()
            .map_or_else(|| "run".into(), |s| s.to_string_lossy().into_owned())
    };
    b.with_file_name(format!("{}-vs-{}.svg", stem(a), stem(b)))
}

/// Implementations measured in both runs, levels first (in A's order), then peers.
pub fn common_columns(a: &Run, b: &Run) -> Vec<String> {
    let mut columns: Vec<String> = a
        .levels
        .iter()
        .filter(|l| b.levels.contains(l))
        .cloned()
        .collect();
    columns.extend(a.peers.iter().filter(|p| b.peers.contains(p)).cloned());
    columns
}

/// The comparison table with both runs' descriptions.
pub fn render(a: &Run, a_path: &Path, b: &Run, b_path: &Path, format: TableFormat) -> String {
    let mut out = String::new();
    for (tag, run, path) in [("A", a, a_path), ("B", b, b_path)] {
        match format {
            TableFormat::Text => {
                let _ = writeln!(out, "{tag}: {}", path.display());
                for line in describe(run, format).lines() {
                    let _ = writeln!(out, "   {line}");
                }
            }
            TableFormat::Markdown => {
                let _ = writeln!(out, "**{tag}**: `{}`\n", path.display());
                out.push_str(&describe(run, format));
            }
        }
        out.push('\n');
    }
    let columns = common_columns(a, b);
    let mut head = vec![
        "workload".to_owned(),
        "A best MB/s".to_owned(),
        "B best MB/s".to_owned(),
        "B/A".to_owned(),
    ];
    head.extend(columns.iter().map(|c| format!("{c} B/A")));
    let rows: Vec<Vec<String>> = a
        .workloads
        .iter()
        .filter_map(|wa| {
            let wb = b.workloads.iter().find(|w| w.name == wa.name)?;
            let best_a = wa.best_of(&a.levels);
            let best_b = wb.best_of(&b.levels);
            let cell = |best: Option<(&str, f64)>| {
                best.map_or_else(|| "-".into(), |(l, v)| format!("{} {l}", fmt_mb_s(v)))
            };
            let ratio = |x: Option<f64>, y: Option<f64>| {
                x.zip(y).map_or_else(|| "-".into(), |(x, y)| fmt_ratio(y / x))
            };
            let mut row = vec![
                wa.name.clone(),
                cell(best_a),
                cell(best_b),
                ratio(best_a.map(|b| b.1), best_b.map(|b| b.1)),
            ];
            row.extend(columns.iter().map(|c| ratio(wa.mb_s(c), wb.mb_s(c))));
            Some(row)
        })
        .collect();
    out.push_str(&table(&head, &rows, format));
    let only = |x: &Run, y: &Run| -> Vec<String> {
        x.workloads
            .iter()
            .filter(|w| !y.workloads.iter().any(|v| v.name == w.name))
            .map(|w| w.name.clone())
            .collect()
    };
    for (tag, names) in [("A", only(a, b)), ("B", only(b, a))] {
        if !names.is_empty() {
            let _ = writeln!(out, "\nonly in {tag} ({}): {}", names.len(), names.join(", "));
        }
    }
    out
}

/// A table with the first column left-aligned and the others right-aligned.
fn table(head: &[String], rows: &[Vec<String>], format: TableFormat) -> String {
    let mut out = String::new();
    match format {
        TableFormat::Markdown => {
            let _ = writeln!(out, "| {} |", head.join(" | "));
            let mut rule = vec!["---"];
            rule.extend(std::iter::repeat_n("---:", head.len() - 1));
            let _ = writeln!(out, "| {} |", rule.join(" | "));
            for row in rows {
                let _ = writeln!(out, "| {} |", row.join(" | "));
            }
        }
        TableFormat::Text => {
            let widths: Vec<usize> = (0..head.len())
                .map(|i| {
                    std::iter::once(&head[i])
                        .chain(rows.iter().map(|r| &r[i]))
                        .map(|c| c.chars().count())
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let line = |cells: &[String]| {
                let mut s = format!("{:<w$}", cells[0], w = widths[0]);
                for (cell, w) in cells[1..].iter().zip(&widths[1..]) {
                    let _ = write!(s, "  {cell:>w$}");
                }
                s
            };
            let header = line(head);
            let _ = writeln!(out, "{header}");
            let _ = writeln!(out, "{}", "-".repeat(header.chars().count()));
            for row in rows {
                let _ = writeln!(out, "{}", line(row));
            }
        }
    }
    out
}
