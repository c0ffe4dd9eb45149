//! Hand-written SVG charts: horizontal grouped bars of MB/s per workload on a logarithmic
//! axis (the figures span four orders of magnitude, from 16-byte inputs to validation), one
//! section per workload group, a legend, and a note column on the right (a ratio).
//!
//! No plotting crate: the chart is a few hundred rectangles and labels, and writing them
//! directly keeps the file small, deterministic and readable in any browser or on GitHub.

use std::fmt::Write as _;

use super::compare::common_columns;
use super::report::{Run, WorkloadResult, fmt_mb_s, fmt_ratio};

/// One series of bars (an implementation, or a run).
pub struct Series {
    /// The legend text.
    pub name: String,
    /// A CSS colour.
    pub color: String,
}

/// One workload's bars.
pub struct Row {
    /// The label left of the bars.
    pub label: String,
    /// One value per series (MB/s), `None` where not measured.
    pub values: Vec<Option<f64>>,
    /// Text in the right-hand column (a ratio), if any.
    pub note: Option<String>,
}

/// A titled group of rows.
pub struct Section {
    /// The heading.
    pub title: String,
    /// The rows.
    pub rows: Vec<Row>,
}

/// A whole chart.
pub struct Chart {
    /// The title.
    pub title: String,
    /// Lines under the title.
    pub subtitle: Vec<String>,
    /// The heading of the note column.
    pub note_heading: String,
    /// The series, in legend and bar order.
    pub series: Vec<Series>,
    /// The sections, top to bottom.
    pub sections: Vec<Section>,
}

const WIDTH: f64 = 980.0;
const LABEL_RIGHT: f64 = 232.0;
const PLOT_LEFT: f64 = 240.0;
const PLOT_RIGHT: f64 = 820.0;
const NOTE_RIGHT: f64 = WIDTH - 16.0;
const BAR: f64 = 7.0;
const PITCH: f64 = 8.0;
const ROW_GAP: f64 = 7.0;
const SECTION_HEAD: f64 = 24.0;
const FONT: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/// The colour of an implementation's bars.
fn color_of(implementation: &str) -> &'static str {
    match implementation {
        "scalar" => "#9c9c9c",
        "sse2" => "#76b7b2",
        "avx2" => "#4e79a7",
        "avx512" => "#e15759",
        "neon" => "#59a14f",
        "encoding_rs" => "#f28e2b",
        "simdutf8" => "#edc948",
        "std" => "#b07aa1",
        _ => "#bab0ac",
    }
}

/// The font size of a row's label: 12, or less for a label too long to fit left of the bars
/// at 12 (the `api` group's, such as `decode_to_string_norepl/windows-1251/ru`), taking a
/// character as 0.55 em wide.
fn label_font_size(label: &str) -> String {
    let room = LABEL_RIGHT - 16.0;
    let size = (room / (0.55 * label.chars().count() as f64)).min(12.0);
    if size >= 12.0 {
        "12".to_owned()
    } else {
        format!("{:.1}", size.max(6.0))
    }
}

/// Escapes text for XML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `1000000` as `1 000 000`.
fn grouped(v: f64) -> String {
    let digits = format!("{v:.0}");
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

/// Splits `name` (`group/case`) into its case, the label under a section heading.
fn case_of(name: &str) -> &str {
    name.split_once('/').map_or(name, |(_, case)| case)
}

/// Groups workloads into sections by their group title, in order.
fn sections<T>(
    workloads: &[WorkloadResult],
    mut row: impl FnMut(&WorkloadResult) -> T,
) -> Vec<(String, Vec<T>)> {
    let mut out: Vec<(String, Vec<T>)> = Vec::new();
    for w in workloads {
        match out.last_mut() {
            Some((title, rows)) if *title == w.group => rows.push(row(w)),
            _ => out.push((w.group.clone(), vec![row(w)])),
        }
    }
    out
}

/// The chart of one run: a bar per level and peer, and the best level ÷ scalar.
pub fn run_chart(run: &Run) -> Chart {
    let columns: Vec<String> = run.levels.iter().chain(&run.peers).cloned().collect();
    let has_scalar = run.levels.iter().any(|l| l == "scalar") && run.levels.len() > 1;
    let sections = sections(&run.workloads, |w| Row {
        label: case_of(&w.name).to_owned(),
        values: columns.iter().map(|c| w.mb_s(c)).collect(),
        note: has_scalar
            .then(|| Some(w.best_of(&run.levels)?.1 / w.mb_s("scalar")?))
            .flatten()
            .map(fmt_ratio),
    })
    .into_iter()
    .map(|(title, rows)| Section { title, rows })
    .collect();
    Chart {
        title: format!("simdenc bench on {}", run.machine.cpu),
        subtitle: vec![
            format!(
                "{}, {} logical CPUs{}; levels {} (detected {}); {} UTC",
                run.machine.arch,
                run.machine.logical_cpus,
                if run.machine.virtual_machine == Some(true) {
                    ", virtual machine"
                } else {
                    ""
                },
                run.levels.join(" "),
                run.machine.detected_level,
                run.date.replace('T', " ").trim_end_matches('Z'),
            ),
            format!(
                "simdenc {}, {}; {}, best of {} batches of ≥ {} ms of {}; log scale",
                run.software.simdenc,
                run.software.rustc,
                run.method.unit,
                run.method.batches,
                run.method.batch_ms,
                run.method.clock
            ),
        ],
        note_heading: if has_scalar {
            "best ÷ scalar".into()
        } else {
            String::new()
        },
        series: columns
            .iter()
            .map(|c| Series {
                name: c.clone(),
                color: color_of(c).into(),
            })
            .collect(),
        sections,
    }
}

/// A short description of a run for a legend: CPU, levels, date.
fn run_label(run: &Run) -> String {
    format!(
        "{} ({}; {})",
        run.machine.cpu,
        run.levels.join(" "),
        run.date.split('T').next().unwrap_or(&run.date)
    )
}

/// The chart comparing two runs: per workload measured in both, simdenc's best figure in A
/// and in B, and B ÷ A.
pub fn compare_chart(a: &Run, b: &Run) -> Chart {
    let both: Vec<WorkloadResult> = a
        .workloads
        .iter()
        .filter(|wa| b.workloads.iter().any(|wb| wb.name == wa.name))
        .cloned()
        .collect();
    let rows = sections(&both, |wa| {
        let wb = b.workloads.iter().find(|w| w.name == wa.name);
        let va = wa.best_of(&a.levels).map(|x| x.1);
        let vb = wb.and_then(|w| w.best_of(&b.levels)).map(|x| x.1);
        Row {
            label: case_of(&wa.name).to_owned(),
            values: vec![va, vb],
            note: va.zip(vb).map(|(x, y)| fmt_ratio(y / x)),
        }
    });
    let common = common_columns(a, b);
    let title = if a.machine.cpu == b.machine.cpu {
        format!("simdenc bench: two runs on {}", a.machine.cpu)
    } else {
        format!("simdenc bench: {} vs {}", a.machine.cpu, b.machine.cpu)
    };
    Chart {
        title,
        subtitle: vec![
            format!(
                "A: {}, {}, simdenc {}",
                run_label(a),
                a.software.rustc,
                a.software.simdenc
            ),
            format!(
                "B: {}, {}, simdenc {}",
                run_label(b),
                b.software.rustc,
                b.software.simdenc
            ),
            format!(
                "simdenc's best level in each run; {}; log scale; measured in both: {}",
                a.method.unit,
                if common.is_empty() {
                    "none".into()
                } else {
                    common.join(" ")
                }
            ),
        ],
        note_heading: "B ÷ A".into(),
        series: vec![
            Series {
                name: format!("A: {}", run_label(a)),
                color: "#4e79a7".into(),
            },
            Series {
                name: format!("B: {}", run_label(b)),
                color: "#f28e2b".into(),
            },
        ],
        sections: rows
            .into_iter()
            .map(|(title, rows)| Section { title, rows })
            .collect(),
    }
}

/// The SVG document of `chart`.
pub fn render(chart: &Chart) -> String {
    let values = chart
        .sections
        .iter()
        .flat_map(|s| &s.rows)
        .flat_map(|r| r.values.iter().flatten().copied())
        .filter(|v| v.is_finite() && *v > 0.0);
    let (min, max) = values.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = if max > 0.0 {
        let lo = 10f64.powf(min.log10().floor());
        let hi = 10f64.powf(max.log10().ceil()).max(lo * 10.0);
        (lo, hi)
    } else {
        (1.0, 10.0)
    };
    let x_of = |v: f64| {
        let t = (v.max(lo).log10() - lo.log10()) / (hi.log10() - lo.log10());
        PLOT_LEFT + t * (PLOT_RIGHT - PLOT_LEFT)
    };

    let mut body = String::new();
    let mut y = 20.0;
    let _ = writeln!(
        body,
        r#"<text x="16" y="{:.1}" font-size="18" font-weight="bold">{}</text>"#,
        y + 8.0,
        esc(&chart.title)
    );
    y += 18.0;
    for line in &chart.subtitle {
        y += 16.0;
        let _ = writeln!(
            body,
            r##"<text x="16" y="{y:.1}" font-size="12" fill="#444">{}</text>"##,
            esc(line)
        );
    }
    // Legend, wrapping as needed.
    y += 22.0;
    let mut x = 16.0;
    for s in &chart.series {
        let w = 22.0 + 7.0 * s.name.chars().count() as f64;
        if x + w > WIDTH - 16.0 && x > 16.0 {
            x = 16.0;
            y += 18.0;
        }
        let _ = writeln!(
            body,
            r#"<rect x="{x:.1}" y="{:.1}" width="12" height="12" rx="2" fill="{}"/><text x="{:.1}" y="{y:.1}" font-size="12">{}</text>"#,
            y - 10.0,
            s.color,
            x + 17.0,
            esc(&s.name)
        );
        x += w + 14.0;
    }
    y += 26.0;
    let axis_labels = |body: &mut String, y: f64| {
        let mut decade = lo;
        while decade <= hi * 1.0001 {
            let _ = writeln!(
                body,
                r##"<text x="{:.1}" y="{y:.1}" font-size="11" fill="#555" text-anchor="middle">{}</text>"##,
                x_of(decade),
                grouped(decade)
            );
            decade *= 10.0;
        }
    };
    axis_labels(&mut body, y);
    let _ = writeln!(
        body,
        r##"<text x="16" y="{y:.1}" font-size="11" fill="#555">MB/s of input, log scale</text>"##
    );
    if !chart.note_heading.is_empty() {
        let _ = writeln!(
            body,
            r##"<text x="{NOTE_RIGHT}" y="{y:.1}" font-size="11" fill="#555" text-anchor="end">{}</text>"##,
            esc(&chart.note_heading)
        );
    }
    y += 8.0;
    let grid_top = y;

    let mut bars = String::new();
    for section in &chart.sections {
        y += SECTION_HEAD;
        let _ = writeln!(
            bars,
            r#"<text x="16" y="{:.1}" font-size="13" font-weight="bold">{}</text>"#,
            y - 7.0,
            esc(&section.title)
        );
        for row in &section.rows {
            let present: Vec<(usize, f64)> = row
                .values
                .iter()
                .enumerate()
                .filter_map(|(i, v)| Some((i, (*v)?)))
                .collect();
            let height = (present.len().max(1) as f64) * PITCH;
            let _ = writeln!(
                bars,
                r#"<text x="{:.1}" y="{:.1}" font-size="{}" text-anchor="end">{}</text>"#,
                LABEL_RIGHT,
                y + height / 2.0 + 4.0,
                label_font_size(&row.label),
                esc(&row.label)
            );
            for (k, (i, v)) in present.iter().enumerate() {
                let series = &chart.series[*i];
                let top = y + k as f64 * PITCH;
                let end = x_of(*v).max(PLOT_LEFT + 1.0);
                let _ = writeln!(
                    bars,
                    r##"<rect x="{PLOT_LEFT}" y="{top:.1}" width="{:.1}" height="{BAR}" fill="{}"><title>{}: {} MB/s</title></rect><text x="{:.1}" y="{:.1}" font-size="7.5" fill="#333">{}</text>"##,
                    end - PLOT_LEFT,
                    series.color,
                    esc(&series.name),
                    fmt_mb_s(*v),
                    end + 3.0,
                    top + BAR - 0.5,
                    fmt_mb_s(*v)
                );
            }
            if let Some(note) = &row.note {
                let _ = writeln!(
                    bars,
                    r#"<text x="{NOTE_RIGHT}" y="{:.1}" font-size="12" text-anchor="end">{}</text>"#,
                    y + height / 2.0 + 4.0,
                    esc(note)
                );
            }
            y += height + ROW_GAP;
        }
    }
    let grid_bottom = y;

    // Grid lines behind the bars: decades darker, 2× and 5× lighter.
    let mut grid = String::new();
    let mut decade = lo;
    while decade <= hi * 1.0001 {
        for (m, color) in [(1.0, "#c8c8c8"), (2.0, "#ececec"), (5.0, "#ececec")] {
            let v = decade * m;
            if v <= hi * 1.0001 {
                let _ = writeln!(
                    grid,
                    r#"<line x1="{x:.1}" y1="{grid_top:.1}" x2="{x:.1}" y2="{grid_bottom:.1}" stroke="{color}" stroke-width="1"/>"#,
                    x = x_of(v)
                );
            }
        }
        decade *= 10.0;
    }
    y += 14.0;
    axis_labels(&mut bars, y);
    y += 18.0;
    let _ = writeln!(
        bars,
        r##"<text x="16" y="{y:.1}" font-size="11" fill="#666">Drawn by `simdenc bench`. Each figure is also in the run's table and JSON; hover over a bar to see what it is.</text>"##
    );
    let height = y + 14.0;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0}" viewBox="0 0 {WIDTH} {height:.0}" font-family="{FONT}">"#
    );
    let _ = writeln!(
        out,
        r#"<rect x="0" y="0" width="{WIDTH}" height="{height:.0}" fill="white"/>"#
    );
    out.push_str(&grid);
    out.push_str(&body);
    out.push_str(&bars);
    out.push_str("</svg>\n");
    out
}
