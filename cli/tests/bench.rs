//! `simdenc bench` through the binary: a short run prints every workload at every supported
//! level, `--json` saves the run with its metadata, `--compare` prints ratios and writes a
//! well-formed SVG, bad arguments are usage errors. Nothing here checks a timing: the runs
//! use 1 ms batches, and the figures of a test build mean nothing.

mod common;

use std::fs;
use std::path::Path;

use common::{Out, arg, tempdir};
use serde_json::Value;
use simdenc::cpu;

/// The shortest run: one 1 ms batch per figure.
const FAST: [&str; 5] = ["bench", "--time", "1", "--batches", "1"];

/// Runs `simdenc args` with SIMDENC_LEVEL set to `level`, or unset.
fn run_with_level(args: &[&str], level: Option<&str>) -> Out {
    let mut command = std::process::Command::new(common::bin());
    command.args(args).current_dir(common::repo());
    match level {
        Some(level) => command.env("SIMDENC_LEVEL", level),
        None => command.env_remove("SIMDENC_LEVEL"),
    };
    let output = command.output().expect("run simdenc");
    Out {
        status: output.status.code().unwrap_or(-1),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs `simdenc args` (SIMDENC_LEVEL unset).
fn run(args: &[&str]) -> Out {
    run_with_level(args, None)
}

/// Runs `simdenc bench` with the shortest timing and `extra` options.
fn bench(extra: &[&str]) -> Out {
    let args: Vec<&str> = FAST.iter().chain(extra).copied().collect();
    run(&args)
}

fn supported() -> Vec<&'static str> {
    cpu::supported().map(cpu::Level::name).collect()
}

fn workload_names(filter: &[&str]) -> Vec<String> {
    let mut args = vec!["bench", "--list"];
    for f in filter {
        args.extend(["--filter", f]);
    }
    let out = run(&args).ok();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

fn load(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).expect("valid JSON")
}

#[test]
fn list_names_the_whole_suite() {
    let names = workload_names(&[]);
    for prefix in [
        "utf8-validate/",
        "utf8-to-utf8/",
        "utf8-to-utf16/",
        "utf16-to-utf8/",
        "utf16-decode/",
        "sb-decode/",
        "sb-decode16/",
        "sb-encode/",
        "cjk-decode/",
        "cjk-html/",
        "cjk-html16/",
        "cjk-encode/",
        "small16/",
        "small64/",
        "api/",
        "mem/",
    ] {
        assert!(
            names.iter().any(|n| n.starts_with(prefix)),
            "no {prefix} workload in {names:?}"
        );
    }
    for case in [
        "Shift_JIS/ja",
        "gb18030/zh_cn",
        "Big5/zh_tw",
        "EUC-KR/ko",
        "windows-1251/ru",
    ] {
        assert!(names.iter().any(|n| n.ends_with(case)), "no workload on {case}");
    }
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "duplicate workload names");
}

/// The `api` group measures each public entry point, and the slice calls beside them.
#[test]
fn api_group_names_every_entry_point() {
    let names = workload_names(&["api/"]);
    for call in [
        "decode",
        "decode_nobom",
        "decode_bom_removal",
        "decode_nobom_norepl",
        "decode_to_string",
        "decode_to_string_norepl",
        "decode_to_str",
        "TextDecoder",
        "DecodeReader",
        "TextDecoderStream",
        "slice-decode_to_utf8",
        "encode",
        "encode_to_vec",
        "encode_to_vec_norepl",
        "TextEncoder",
        "EncodeWriter",
        "slice-encode_from_utf8",
    ] {
        let prefix = format!("api/{call}/");
        assert!(
            names.iter().any(|n| n.starts_with(&prefix)),
            "no {prefix} workload in {names:?}"
        );
    }
    // Every call measured through the slice API is measured there on the same inputs.
    for name in &names {
        let Some((call, case)) = name["api/".len()..].split_once('/') else {
            panic!("{name}: not api/<call>/<case>");
        };
        let slice = if call.starts_with("decode") {
            "slice-decode_to_utf8"
        } else if call.starts_with("encode") {
            "slice-encode_from_utf8"
        } else {
            continue;
        };
        let baseline = format!("api/{slice}/{case}");
        assert!(names.contains(&baseline), "{name} has no {baseline}");
    }
    assert!(
        workload_names(&["api/decode/"])
            .iter()
            .all(|n| n.starts_with("api/decode/"))
    );
}

/// The `mem` group measures each `simdenc::mem` function users call on hot paths.
#[test]
fn mem_group_names_every_hot_function() {
    let names = workload_names(&["mem/"]);
    for function in [
        "convert_utf8_to_utf16",
        "convert_str_to_utf16",
        "convert_utf16_to_utf8",
        "convert_utf16_to_str",
        "convert_latin1_to_utf8",
        "convert_latin1_to_utf16",
        "decode_latin1",
        "encode_latin1_lossy",
        "is_ascii",
        "is_basic_latin",
        "is_utf8_latin1",
        "is_str_latin1",
        "is_utf16_latin1",
        "utf16_valid_up_to",
        "is_str_bidi",
        "is_utf8_bidi",
        "is_utf16_bidi",
        "check_str_for_latin1_and_bidi",
        "copy_ascii_to_ascii",
        "copy_ascii_to_basic_latin",
        "copy_basic_latin_to_ascii",
        "ensure_utf16_validity",
    ] {
        let prefix = format!("mem/{function}/");
        assert!(
            names.iter().any(|n| n.starts_with(&prefix)),
            "no {prefix} workload in {names:?}"
        );
    }
    // That every level, and encoding_rs in a build with it, gives the same answers is checked
    // by the harness, in `quick_run_prints_every_workload_at_every_level`.
    for name in &names {
        assert_eq!(name.split('/').count(), 3, "{name}: not mem/<function>/<input>");
    }
}

#[test]
fn quick_run_prints_every_workload_at_every_level() {
    let out = bench(&[]);
    let text = out.text();
    assert_eq!(out.status, 0, "stderr: {}\nstdout: {text}", out.stderr);
    let header = text
        .lines()
        .find(|l| l.starts_with("workload"))
        .expect("a header row");
    for level in supported() {
        assert!(
            header.split_whitespace().any(|c| c == level),
            "no {level} column in {header:?}"
        );
    }
    if supported().len() > 1 {
        assert!(header.contains("best/scalar"), "{header}");
    }
    for key in ["CPU:", "flags:", "levels:", "build:", "date:", "method:"] {
        assert!(
            text.lines().any(|l| l.starts_with(key)),
            "no {key} line in\n{text}"
        );
    }
    let levels = supported().len();
    for name in workload_names(&[]) {
        let row = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name.as_str()))
            .unwrap_or_else(|| panic!("no row for {name} in\n{text}"));
        // name, input size (two words), then one figure per level.
        let figures: Vec<&str> = row.split_whitespace().skip(3).take(levels).collect();
        assert_eq!(figures.len(), levels, "{row}");
        for f in figures {
            assert!(
                f.parse::<f64>().is_ok_and(|v| v > 0.0),
                "not a figure: {f:?} in {row}"
            );
        }
    }
    assert!(text.contains("workloads in"), "no closing line in\n{text}");
}

#[test]
fn json_saves_the_run_with_its_metadata() {
    let dir = tempdir();
    let path = dir.path().join("run.json");
    let out = bench(&["--filter", "utf8-validate", "--json", arg(&path)]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let run = load(&path);
    assert_eq!(run["format"], "simdenc-bench 1");
    let date = run["date"].as_str().unwrap();
    assert_eq!(date.len(), 20, "{date}");
    assert!(date.ends_with('Z') && date.as_bytes()[10] == b'T', "{date}");
    let machine = &run["machine"];
    assert!(!machine["cpu"].as_str().unwrap().is_empty());
    assert_eq!(machine["arch"], std::env::consts::ARCH);
    assert!(machine["flags"].is_array());
    assert_eq!(machine["detected_level"], cpu::detected().name());
    assert!(machine["logical_cpus"].as_u64().unwrap() >= 1);
    let software = &run["software"];
    assert!(
        software["rustc"].as_str().unwrap().starts_with("rustc "),
        "{software}"
    );
    assert_eq!(software["simdenc"], env!("CARGO_PKG_VERSION"));
    assert!(software["profile"].is_string());
    assert_eq!(run["method"]["batch_ms"], 1);
    assert_eq!(run["method"]["statistic"], "best");
    let clock = run["method"]["clock"].as_str().unwrap();
    assert!(["thread CPU time", "wall time"].contains(&clock), "{clock}");
    let levels: Vec<&str> = run["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(levels, supported());
    let peers = run["peers"].as_array().unwrap();
    if cfg!(feature = "peers") {
        for p in ["encoding_rs", "simdutf8", "std"] {
            assert!(peers.iter().any(|v| v == p), "no {p} in {peers:?}");
        }
    } else {
        assert!(peers.is_empty());
    }
    let workloads = run["workloads"].as_array().unwrap();
    assert_eq!(workloads.len(), workload_names(&["utf8-validate"]).len());
    for w in workloads {
        assert!(w["input_bytes"].as_u64().unwrap() > 0);
        let results = w["results"].as_array().unwrap();
        for level in supported() {
            let m = results
                .iter()
                .find(|m| m["implementation"] == level)
                .unwrap_or_else(|| panic!("no {level} figure in {w}"));
            assert!(m["mb_s"].as_f64().unwrap() > 0.0);
            assert!(m["mb_s_median"].as_f64().unwrap() > 0.0);
        }
    }
}

#[test]
fn level_and_environment_restrict_the_levels() {
    let out = bench(&[
        "--filter",
        "small16/utf8-validate",
        "--level",
        "scalar",
        "--clock",
        "wall",
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let text = out.text();
    assert!(text.lines().any(|l| l.starts_with("levels: scalar (")), "{text}");
    assert!(text.contains("ms of wall time each"), "{text}");

    let args = [&FAST[..], &["--filter", "small16/utf8-validate"]].concat();
    let out = run_with_level(&args, Some("scalar"));
    assert_eq!(out.status, 0, "{}", out.stderr);
    let text = out.text();
    assert!(text.lines().any(|l| l.starts_with("levels: scalar (")), "{text}");
    let out = run_with_level(&args, Some("mmx"));
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("SIMDENC_LEVEL: unknown level"),
        "{}",
        out.stderr
    );
}

/// `--svg` on a run: a bar per level (and peer) per workload.
#[test]
fn svg_of_a_run_has_a_bar_per_figure() {
    let dir = tempdir();
    let json = dir.path().join("run.json");
    let svg = dir.path().join("run.svg");
    let out = bench(&["--filter", "sb-decode/", "--json", arg(&json), "--svg", arg(&svg)]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let figures: usize = load(&json)["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["results"].as_array().unwrap().len())
        .sum();
    let text = fs::read_to_string(&svg).unwrap();
    check_svg(&text, figures);

    // --show prints the saved run again, and charts it the same way.
    let svg2 = dir.path().join("again.svg");
    let shown = run(&[
        "bench",
        "--show",
        arg(&json),
        "--format",
        "markdown",
        "--svg",
        arg(&svg2),
    ]);
    assert_eq!(shown.status, 0, "{}", shown.stderr);
    assert!(
        shown.text().contains("| sb-decode/windows-1251/ru |"),
        "{}",
        shown.text()
    );
    assert_eq!(fs::read_to_string(&svg2).unwrap(), text);
}

/// Minimal well-formedness: one root element, at least `bars` bars, balanced text elements.
fn check_svg(text: &str, bars: usize) {
    assert!(text.starts_with("<svg "), "{}", &text[..40]);
    assert!(text.trim_end().ends_with("</svg>"));
    assert_eq!(text.matches("<svg").count(), 1);
    let with_title = text.matches("</title></rect>").count();
    assert_eq!(with_title, bars, "one titled <rect> per bar");
    assert!(
        text.matches("<rect").count() > bars,
        "bars, background and legend"
    );
    assert_eq!(text.matches("<text").count(), text.matches("</text>").count());
    assert_eq!(text.matches("<title>").count(), text.matches("</title>").count());
    for bad in ["\"NaN\"", "\"inf\"", "\"-inf\""] {
        assert!(!text.contains(bad), "non-finite coordinate {bad}");
    }
}

#[test]
fn compare_prints_ratios_and_writes_a_chart() {
    let dir = tempdir();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    let filter = ["--filter", "utf16-to-utf8/", "--filter", "cjk-decode/Shift"];
    let out = bench(&[&filter[..], &["--level", "scalar", "--json", arg(&a)]].concat());
    assert_eq!(out.status, 0, "{}", out.stderr);
    let out = bench(&[&filter[..], &["--json", arg(&b)]].concat());
    assert_eq!(out.status, 0, "{}", out.stderr);

    let svg = dir.path().join("chart.svg");
    let out = run(&["bench", "--compare", arg(&a), arg(&b), "--svg", arg(&svg)]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let text = out.text();
    assert!(text.starts_with("A: "), "{text}");
    assert!(text.contains("\nB: "), "{text}");
    let header = text.lines().find(|l| l.starts_with("workload")).expect("header");
    assert!(
        header.contains("B/A") && header.contains("scalar B/A"),
        "{header}"
    );
    let names = workload_names(&filter[1..2]).len() + workload_names(&filter[3..4]).len();
    // The rows of the workloads the filters matched (by substring, as `--filter` does).
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|name| name.contains(filter[1]) || name.contains(filter[3]))
        })
        .collect();
    assert_eq!(rows.len(), names, "{text}");
    for row in rows {
        // name, A figure + level, B figure + level, B/A, scalar B/A, ...
        let cells: Vec<&str> = row.split_whitespace().collect();
        let ratio = cells[5];
        assert!(
            ratio
                .strip_suffix('x')
                .is_some_and(|r| r.parse::<f64>().is_ok_and(|v| v > 0.0)),
            "not a ratio: {ratio:?} in {row}"
        );
    }
    check_svg(&fs::read_to_string(&svg).unwrap(), 2 * names);

    // Without --svg the chart goes next to B.
    let out = run(&["bench", "--compare", arg(&a), arg(&b)]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    check_svg(
        &fs::read_to_string(dir.path().join("a-vs-b.svg")).unwrap(),
        2 * names,
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    for (args, message) in [
        (&["--level", "mmx"][..], "unknown level"),
        (&["--filter", "no-such-workload"][..], "selects no workload"),
        (&["--time", "0"][..], "--time"),
        (&["--batches", "0"][..], "--batches"),
        (&["--compare", "only-one.json"][..], "--compare"),
        (&["--quick", "--time", "5"][..], "--quick"),
        (&["--format", "html"][..], "--format"),
    ] {
        let out = run(&[&["bench"][..], args].concat());
        assert_eq!(out.status, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    if let Some(level) = cpu::Level::ALL.into_iter().find(|l| !l.is_supported()) {
        let out = run(&["bench", "--level", level.name()]);
        assert_eq!(out.status, 2);
        assert!(out.stderr.contains("does not support"), "{}", out.stderr);
    }
}

#[test]
fn compare_refuses_files_that_are_not_runs() {
    let dir = tempdir();
    let junk = dir.path().join("junk.json");
    fs::write(&junk, "{\"hello\": 1}").unwrap();
    let out = run(&["bench", "--compare", arg(&junk), arg(&junk)]);
    assert_eq!(out.status, 1);
    assert!(
        out.stderr.contains("not a saved `simdenc bench --json` run"),
        "{}",
        out.stderr
    );
    let missing = dir.path().join("missing.json");
    let out = run(&["bench", "--compare", arg(&missing), arg(&junk)]);
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("missing.json"), "{}", out.stderr);
}

/// The hidden options cli/bench-insn.sh drives: `--list-impls` names each selected workload's
/// input size and implementations, `--count-runs` runs one of them exactly N times and says
/// what the call did, `--insn-table` turns counts into a table; unknown names are usage errors.
#[test]
fn instruction_count_options() {
    let list = String::from_utf8(
        run(&[
            "bench",
            "--list-impls",
            "--level",
            "scalar",
            "--filter",
            "utf8-validate/latin",
        ])
        .ok(),
    )
    .unwrap();
    let fields: Vec<&str> = list.trim_end().split('\t').collect();
    assert_eq!(fields.len(), 3, "{list}");
    assert_eq!(fields[0], "utf8-validate/latin");
    let bytes: usize = fields[1].parse().unwrap();
    assert!(fields[2].split(',').any(|i| i == "scalar"), "{list}");

    let out = run(&[
        "bench",
        "--count-runs",
        "3",
        "--only",
        "utf8-validate/latin",
        "--impl",
        "scalar",
    ])
    .ok();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(
        out,
        format!("utf8-validate/latin\tscalar\t3 runs\tread {bytes}\twritten 0\n")
    );

    for (args, message) in [
        (&["--only", "no-such", "--impl", "scalar"][..], "no such workload"),
        (
            &["--only", "utf8-validate/latin", "--impl", "nobody"][..],
            "neither a level nor a peer",
        ),
    ] {
        let out = run(&[&["bench", "--count-runs", "1"][..], args].concat());
        assert_eq!(out.status, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
    }

    let dir = tempdir();
    let counts = dir.path().join("counts.tsv");
    fs::write(
        &counts,
        "w\t1000\tscalar\t10\t100\t40100\nw\t1000\tneon\t10\t100\t10100\n",
    )
    .unwrap();
    let table = String::from_utf8(run(&["bench", "--insn-table", arg(&counts)]).ok()).unwrap();
    assert_eq!(
        table,
        "| workload | input | neon insn/B | scalar insn/B |\n| --- | ---: | ---: | ---: |\n| w | 1.0 kB | 1.00 | 4.00 |\n"
    );
}
