#!/usr/bin/env bash
# compat/run.sh: runs the test suites of published crates that depend on encoding_rs 0.8
# twice, once as published (with encoding_rs 0.8.44 from crates.io) and once with simdenc in
# its place (compat/shim, patched in with `[patch.crates-io]`), and reports in Markdown the
# tests that fail only with simdenc. docs/compat.md has the how and the why.
#
# Exit status: 0 when no test fails with simdenc that passes with encoding_rs; 1 when one
# does (or the crate does not build, or times out, with simdenc only); 2 when the suite itself
# could not do its work (bad arguments, a fetch that failed, a crate that fails to build or
# run with encoding_rs itself) and nothing regressed.

set -uo pipefail

COMPAT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$COMPAT_DIR/.." && pwd)
SHIM=$COMPAT_DIR/shim
CRATES_FILE=$COMPAT_DIR/crates.txt
CACHE=${COMPAT_CACHE:-$COMPAT_DIR/.cache}
# Builds, work copies, logs and per-run results: under $CARGO_TARGET_DIR if set (one target
# directory per crate below it, shared by its two runs), else under the repository's target/.
TARGET_BASE=${COMPAT_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/compat}
# The encoding_rs that the published runs use (its version is the shim's).
BASELINE=0.8.44

usage() {
    cat <<EOF
Usage: compat/run.sh [OPTIONS]

Runs each crate of compat/crates.txt's test suite with encoding_rs $BASELINE and with simdenc,
and writes a Markdown report to standard output (progress goes to standard error).

Options:
  --only NAME[,NAME...]  only these crates (repeatable)
  --jobs N               crates tested at once (default 1; each cargo still uses every core)
  --cargo-jobs N         passed to cargo test as --jobs N
  --timeout SECS         limit of each cargo test run, build included (default 1800)
  --offline              no network: run from the cache (compat/.cache) as it is; a crate
                         that was never fetched is reported as an error
  --refetch              fetch the crates' sources and dependencies again
  --fetch-only           fetch what is missing, run nothing
  --out FILE             also write the report to FILE
  --list                 print the crates and versions and exit
  -h, --help             this text

Environment: CARGO_TARGET_DIR (builds go to \$CARGO_TARGET_DIR/compat/), COMPAT_TARGET_DIR
(instead of that), COMPAT_CACHE (instead of compat/.cache).
EOF
}

die() {
    echo "run.sh: $*" >&2
    exit 2
}
note() { echo "$*" >&2; }

ONLY=()
JOBS=1
CARGO_JOBS=
TIMEOUT=1800
OFFLINE=0
REFETCH=0
FETCH_ONLY=0
OUT=
LIST=0
positive() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 needs a positive number, not '$2'"; }
while (($#)); do
    opt=$1
    shift
    if [[ $opt == --*=* ]]; then set -- "${opt#*=}" "$@"; opt=${opt%%=*}; fi
    case $opt in
    --only | --jobs | -j | --cargo-jobs | --timeout | --out)
        (($#)) || die "$opt needs a value"
        val=$1
        shift
        ;;
    esac
    case $opt in
    --only) IFS=, read -ra names <<<"$val"; ONLY+=("${names[@]}") ;;
    --jobs | -j) positive "$opt" "$val"; JOBS=$val ;;
    --cargo-jobs) positive "$opt" "$val"; CARGO_JOBS=$val ;;
    --timeout) positive "$opt" "$val"; TIMEOUT=$val ;;
    --out) OUT=$val ;;
    --offline) OFFLINE=1 ;;
    --refetch) REFETCH=1 ;;
    --fetch-only) FETCH_ONLY=1 ;;
    --list) LIST=1 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $opt" ;;
    esac
done
((OFFLINE && REFETCH)) && die "--offline and --refetch exclude each other"

# ---------------------------------------------------------------------------------------------
# The crate list: NAME VERSION [CARGO TEST ARGS...] a line.

NAMES=() VERSIONS=() ARGS=()
while IFS= read -r line || [[ -n $line ]]; do
    line=${line%%#*}
    read -ra f <<<"$line"
    ((${#f[@]})) || continue
    ((${#f[@]} >= 2)) || die "$CRATES_FILE: no version in: $line"
    NAMES+=("${f[0]}") VERSIONS+=("${f[1]}") ARGS+=("${f[*]:2}")
done <"$CRATES_FILE"

if ((LIST)); then
    for i in "${!NAMES[@]}"; do printf '%-16s %-8s %s\n' "${NAMES[$i]}" "${VERSIONS[$i]}" "${ARGS[$i]}"; done
    exit 0
fi

SELECTED=()
if ((${#ONLY[@]})); then
    for want in "${ONLY[@]}"; do
        found=
        for i in "${!NAMES[@]}"; do [[ ${NAMES[$i]} == "$want" ]] && { SELECTED+=("$i"); found=1; }; done
        [[ -n $found ]] || die "--only $want: not in $CRATES_FILE (compat/run.sh --list)"
    done
else
    SELECTED=("${!NAMES[@]}")
fi

command -v cargo >/dev/null || die "cargo is not on PATH"
command -v timeout >/dev/null || die "timeout (coreutils) is not on PATH"
mkdir -p "$CACHE" "$TARGET_BASE" || die "cannot create $CACHE or $TARGET_BASE"
CACHE=$(cd "$CACHE" && pwd)
TARGET_BASE=$(cd "$TARGET_BASE" && pwd)
VENDOR=$CACHE/vendor
RESULTS=$TARGET_BASE/results
LOGS=$TARGET_BASE/logs
mkdir -p "$RESULTS" "$LOGS"

export CARGO_TERM_COLOR=never CARGO_TERM_PROGRESS_WHEN=never CARGO_INCREMENTAL=0 RUST_BACKTRACE=0
# Nothing of the environment that would change a build or pin a level may leak in.
unset RUSTFLAGS RUSTDOCFLAGS CARGO_BUILD_RUSTFLAGS SIMDENC_LEVEL

# ---------------------------------------------------------------------------------------------
# Fetching: the crate's published package and every dependency of both runs, vendored, with a
# lockfile resolved once (encoding_rs at $BASELINE) and kept, so that later runs, --offline ones
# included, build exactly the same graph.
#
#   $CACHE/NAME-VERSION/src/       the package as published, with an empty [workspace] added
#                                  (so that it is its own root) and the Cargo.lock of the fetch
#   $CACHE/NAME-VERSION/fetched    written last: the fetch is complete
#   $CACHE/vendor/NAME-VERSION/    every crate either run needs, for all crates (cargo vendor
#                                  --versioned-dirs --no-delete), used as a directory source

vendor_config() {
    printf '%s\n' --config 'source.crates-io.replace-with="compat-vendor"' \
        --config "source.compat-vendor.directory=\"$VENDOR\""
}
patch_config() {
    printf '%s\n' --config "patch.crates-io.encoding_rs.path=\"$SHIM\""
}

fetch() { # NAME VERSION -> 0 when $CACHE/NAME-VERSION is complete
    local name=$1 version=$2 dir=$CACHE/$1-$2 tmp log
    local -a patch
    tmp=$(mktemp -d "$CACHE/.fetch-$name-XXXXXX") || return 1
    log=$LOGS/$name-$version.fetch.log
    : >"$log"
    {
        # 1. The package itself: a throw-away project that depends on exactly that version,
        #    vendored, leaves the published package under probe-vendor/.
        mkdir -p "$tmp/probe/src" && : >"$tmp/probe/src/lib.rs" &&
            printf '[package]\nname = "compat-probe"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n%s = "=%s"\n\n[workspace]\n' \
                "$name" "$version" >"$tmp/probe/Cargo.toml" &&
            cargo vendor --quiet --versioned-dirs --manifest-path "$tmp/probe/Cargo.toml" "$tmp/probe-vendor" >/dev/null &&
            [[ -d $tmp/probe-vendor/$name-$version ]] &&
            cp -a "$tmp/probe-vendor/$name-$version" "$tmp/src" &&
            rm -f "$tmp/src/.cargo-checksum.json" &&
            # 2. Its own workspace root, whatever directory it is run from.
            { grep -q '^\[workspace\]' "$tmp/src/Cargo.toml" || printf '\n[workspace]\n' >>"$tmp/src/Cargo.toml"; } &&
            # 3. A lockfile resolved now (the published one, where there is one, is kept as
            #    Cargo.lock.published) with the baseline encoding_rs.
            { [[ ! -f $tmp/src/Cargo.lock ]] || mv "$tmp/src/Cargo.lock" "$tmp/src/Cargo.lock.published"; } &&
            cargo generate-lockfile --quiet --manifest-path "$tmp/src/Cargo.toml" &&
            cargo update --quiet --manifest-path "$tmp/src/Cargo.toml" -p encoding_rs --precise "$BASELINE" &&
            grep -A1 '^name = "encoding_rs"$' "$tmp/src/Cargo.lock" | grep -qx "version = \"$BASELINE\"" &&
            # 4. The dependencies of the published run (dev-dependencies included, as this is
            #    the workspace root now) and then of the patched one (simdenc's own).
            cargo vendor --quiet --versioned-dirs --no-delete --manifest-path "$tmp/src/Cargo.toml" "$VENDOR" >/dev/null &&
            cp -a "$tmp/src" "$tmp/patched" &&
            mapfile -t patch < <(patch_config) &&
            cargo vendor --quiet --versioned-dirs --no-delete "${patch[@]}" --manifest-path "$tmp/patched/Cargo.toml" "$VENDOR" >/dev/null &&
            rm -rf "$dir" && mkdir -p "$dir" && mv "$tmp/src" "$dir/src" &&
            date -u +%FT%TZ >"$dir/fetched"
    } >>"$log" 2>&1
    local rc=$?
    rm -rf "$tmp"
    if ((rc)); then
        note "  fetch of $name $version failed; see $log:"
        tail -n 5 "$log" | sed 's/^/    /' >&2
    fi
    return $rc
}

# ---------------------------------------------------------------------------------------------
# Reading cargo test's output. A test binary's section starts with cargo's `Running unittests
# src/lib.rs (...)`, `Running tests/x.rs (...)` or `Doc-tests name`; the test key is that
# target ("src/lib.rs", "tests/x.rs", "doc") and the name, a tab between.

parse_log() { # LOG PREFIX -> PREFIX.{counts,passed,failed,msgs,errors,targets}
    awk -v P="$2" '
        function num(s, what,   a) { return match(s, "[0-9]+ " what) ? substr(s, RSTART, RLENGTH - length(what) - 1) + 0 : 0 }
        BEGIN { t = "?"; printf "" > (P ".passed"); printf "" > (P ".failed"); printf "" > (P ".msgs")
                printf "" > (P ".errors"); printf "" > (P ".targets") }
        /^ +Running / { t = ($2 == "unittests") ? $3 : $2; cap = 0; next }
        /^ +Doc-tests / { t = "doc"; cap = 0; next }
        /^test result: / { passed += num($0, "passed"); failed += num($0, "failed"); ignored += num($0, "ignored"); cap = 0; next }
        /^test .* \.\.\. (ok|FAILED|ignored)/ {
            line = substr($0, 6)
            if (match(line, / \.\.\. ok$/)) print t "\t" substr(line, 1, RSTART - 1) > (P ".passed")
            else if (match(line, / \.\.\. FAILED$/)) print t "\t" substr(line, 1, RSTART - 1) > (P ".failed")
            next
        }
        /^---- .* stdout ----$/ { name = substr($0, 6, length($0) - 17); cap = 1; next }
        /^failures:$/ { cap = 0 }
        cap { print t "\t" name "\t" $0 > (P ".msgs"); next }
        # Build errors: the first few, each as rustc shows it (up to its blank line).
        /^error(\[E[0-9]+\])?: / && !/^error: test failed/ && !/^error: [0-9]+ targets? failed/ {
            inerr = (nerr++ < 6); nl = 0
        }
        inerr {
            if ($0 == "") { inerr = 0; next }
            if (nl++ < 14) print > (P ".errors")
            if (/^error: could not compile/) inerr = 0
            next
        }
        /^error: test failed, to rerun pass / { print > (P ".targets"); next }
        /^    `--/ { print substr($0, 5) > (P ".targets"); next }
        END { print passed + 0, failed + 0, ignored + 0 > (P ".counts") }
    ' "$1"
}

# What a failing test printed (its panic message), as the libtest summary shows it.
failure_message() { # MSGS TARGET NAME
    awk -F'\t' -v t="$2" -v n="$3" '$1 == t && $2 == n { sub(/^[^\t]*\t[^\t]*\t/, ""); print }' "$1" |
        grep -v '^note: run with `RUST_BACKTRACE=1`' | sed -e '/./,$!d' -e :a -e '/^\n*$/{$d;N;ba' -e '}' | head -n 25
}

# ---------------------------------------------------------------------------------------------
# One cargo test run: MODE is `encoding_rs` (as published) or `simdenc` (with the shim).

run_mode() { # INDEX MODE
    local i=$1 mode=$2 name=${NAMES[$1]} version=${VERSIONS[$1]}
    local id=$name-$version
    local work=$TARGET_BASE/work/$id-$mode res=$RESULTS/$id/$mode log=$LOGS/$id.$mode.log
    local -a cfg extra
    rm -rf "$work" && mkdir -p "$TARGET_BASE/work" && cp -a "$CACHE/$id/src" "$work" || {
        echo error >"$res.status"; echo "could not copy $CACHE/$id/src" >"$res.errors"; return
    }
    mapfile -t cfg < <(vendor_config)
    [[ $mode == simdenc ]] && mapfile -t -O "${#cfg[@]}" cfg < <(patch_config)
    read -ra extra <<<"${ARGS[$i]}"
    [[ -n $CARGO_JOBS ]] && extra=(--jobs "$CARGO_JOBS" "${extra[@]}")
    local start=$SECONDS rc
    (
        cd "$work" &&
            CARGO_TARGET_DIR=$TARGET_BASE/build/$id timeout --kill-after=30 "$TIMEOUT" \
                cargo test "${cfg[@]}" --offline --no-fail-fast "${extra[@]}"
    ) >"$log" 2>&1 </dev/null
    rc=$?
    echo $((SECONDS - start)) >"$res.secs"
    parse_log "$log" "$res"
    # Which encoding_rs the run had: the patched one is a path package (no `source`).
    local src
    src=$(awk '/^\[\[package\]\]/ { p = 0 } /^name = "encoding_rs"$/ { p = 1 } p && /^source = / { print $3 }' "$work/Cargo.lock" 2>/dev/null)
    local status
    if ((rc == 124 || rc == 137)); then
        status=timeout
    elif grep -q '^error: could not compile' "$log"; then
        status=build-failed
    elif [[ $mode == simdenc && -n $src ]] || grep -q 'Patch `encoding_rs .*` was not used' "$log"; then
        status=error
        echo "the patch did not apply: encoding_rs still comes from $src (is compat/shim's version $BASELINE?)" >>"$res.errors"
    elif [[ $mode == encoding_rs && $src != *registry* ]]; then
        status=error
        echo "encoding_rs did not come from the registry" >>"$res.errors"
    elif ((rc == 0)); then
        status=ok
    elif [[ -s $res.failed || -s $res.targets ]]; then
        status=failed
    else
        status=error
        [[ -s $res.errors ]] || tail -n 5 "$log" >"$res.errors"
    fi
    echo "$status" >"$res.status"
}

describe_run() { # RES -> "26 passed, 1 failed (2 ignored), 41 s" or the status
    local res=$1 status passed failed ignored secs
    status=$(cat "$res.status" 2>/dev/null || echo "not run")
    read -r passed failed ignored 2>/dev/null <"$res.counts" || passed=0 failed=0 ignored=0
    secs=$(cat "$res.secs" 2>/dev/null || echo '?')
    case $status in
    ok | failed)
        local s="$passed passed"
        ((failed)) && s+=", $failed failed"
        ((ignored)) && s+=" ($ignored ignored)"
        ((failed == 0)) && [[ $status == failed ]] && s+=", a target failed"
        echo "$s, ${secs} s" ;;
    build-failed) echo "**does not compile**, ${secs} s" ;;
    timeout) echo "**timed out** after ${secs} s" ;;
    *) echo "**$status**" ;;
    esac
}

test_crate() { # INDEX
    local i=$1 name=${NAMES[$1]} version=${VERSIONS[$1]} mode
    local id=$name-$version
    rm -rf "${RESULTS:?}/$id" && mkdir -p "$RESULTS/$id"
    if [[ ! -f $CACHE/$id/fetched ]]; then
        echo "not fetched (run without --offline)" >"$RESULTS/$id/fetch-error"
        note "$name $version: not in the cache"
        return
    fi
    for mode in encoding_rs simdenc; do
        note "$name $version: testing with $mode ..."
        run_mode "$i" "$mode"
        note "$name $version: with $mode: $(describe_run "$RESULTS/$id/$mode" | tr -d '*')"
    done
}

# ---------------------------------------------------------------------------------------------

for i in "${SELECTED[@]}"; do
    id=${NAMES[$i]}-${VERSIONS[$i]}
    if ((REFETCH)) || { ((!OFFLINE)) && [[ ! -f $CACHE/$id/fetched ]]; }; then
        note "${NAMES[$i]} ${VERSIONS[$i]}: fetching from crates.io ..."
        fetch "${NAMES[$i]}" "${VERSIONS[$i]}" || true
    fi
done
if ((FETCH_ONLY)); then
    rc=0
    for i in "${SELECTED[@]}"; do [[ -f $CACHE/${NAMES[$i]}-${VERSIONS[$i]}/fetched ]] || rc=2; done
    exit $rc
fi

for i in "${SELECTED[@]}"; do
    while (($(jobs -rp | wc -l) >= JOBS)); do wait -n; done
    test_crate "$i" &
done
wait

# ---------------------------------------------------------------------------------------------
# The report.

# Compares a crate's two runs: sets VERDICT to `same` (nothing fails with simdenc that passes
# with encoding_rs), `regressed` or `untested` (the published run itself did not get through),
# and writes the failing tests of both runs, of each only, under $RESULTS/ID/.
compare() { # ID
    local dir=$RESULTS/$1 se ss
    if [[ -f $dir/fetch-error || ! -f $dir/encoding_rs.status || ! -f $dir/simdenc.status ]]; then
        VERDICT=untested
        return
    fi
    se=$(cat "$dir/encoding_rs.status") ss=$(cat "$dir/simdenc.status")
    sort -u "$dir/encoding_rs.failed" >"$dir/failed-e"
    sort -u "$dir/simdenc.failed" >"$dir/failed-s"
    comm -13 "$dir/failed-e" "$dir/failed-s" >"$dir/only-simdenc"
    comm -23 "$dir/failed-e" "$dir/failed-s" >"$dir/only-encoding_rs"
    comm -12 "$dir/failed-e" "$dir/failed-s" >"$dir/both"
    if [[ $se != ok && $se != failed ]]; then
        VERDICT=untested
    elif [[ $ss != ok && $ss != failed || -s $dir/only-simdenc || ($ss == failed && $se == ok) ]]; then
        VERDICT=regressed
    else
        VERDICT=same
    fi
}

# `a`, `b`, `c` of a results file's test names (at most 12).
name_list() { # FILE
    cut -f2 "$1" | awk 'NR <= 12 { printf "%s`%s`", (NR > 1 ? ", " : ""), $0 } END { if (NR > 12) printf ", … (%d)", NR }'
}

report() {
    local commit rustc_version i id dir ss only nregressed=0 nuntested=0
    commit=$(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)
    # The suite's own files aside: a change there does not change what was tested.
    if [[ -n $(git -C "$REPO" status --porcelain --untracked-files=no -- . ':!compat' ':!docs/compat.md' 2>/dev/null) ]]; then
        commit+=" (with uncommitted changes)"
    fi
    rustc_version=$(rustc --version 2>/dev/null | awk '{print $2}')

    echo "## simdenc against published clients of encoding_rs"
    echo
    echo "Run $(date -u '+%F %H:%M UTC') with simdenc \`$commit\`, rustc $rustc_version,"
    echo "by \`compat/run.sh\`: each crate's tests as published (encoding_rs $BASELINE from"
    echo "crates.io) and with simdenc patched in for encoding_rs (\`compat/shim\`)."
    echo
    echo "| crate | version | with encoding_rs $BASELINE | with simdenc | failing only with simdenc |"
    echo "|---|---|---|---|---|"
    for i in "${SELECTED[@]}"; do
        id=${NAMES[$i]}-${VERSIONS[$i]} dir=$RESULTS/${NAMES[$i]}-${VERSIONS[$i]}
        compare "$id"
        if [[ -f $dir/fetch-error || ! -f $dir/encoding_rs.status ]]; then
            echo "| ${NAMES[$i]} | ${VERSIONS[$i]} | **not fetched** | **not fetched** | ? |"
            ((++nuntested))
            continue
        fi
        ss=$(cat "$dir/simdenc.status")
        case $VERDICT in
        untested) only="? (the published run: $(cat "$dir/encoding_rs.status"))"; ((++nuntested)) ;;
        same) only=0 ;;
        regressed)
            ((++nregressed))
            case $ss in
            build-failed) only="**does not compile**" ;;
            ok | failed) only="**$(wc -l <"$dir/only-simdenc")**" ;;
            *) only="**$ss**" ;;
            esac ;;
        esac
        echo "| ${NAMES[$i]} | ${VERSIONS[$i]} | $(describe_run "$dir/encoding_rs") | $(describe_run "$dir/simdenc") | $only |"
    done
    echo
    if ((nregressed)); then
        EXIT=1
        echo "Verdict: $nregressed of ${#SELECTED[@]} crates fail with simdenc where they pass with"
        echo "encoding_rs $BASELINE (exit status 1)."
    elif ((nuntested)); then
        EXIT=2
        echo "Verdict: nothing fails with simdenc that passes with encoding_rs $BASELINE, but"
        echo "$nuntested of ${#SELECTED[@]} crates could not be tested (exit status 2)."
    else
        EXIT=0
        echo "Verdict: no test fails with simdenc that passes with encoding_rs $BASELINE (exit status 0)."
    fi
    echo
    echo "Logs: \`$LOGS/NAME-VERSION.{encoding_rs,simdenc}.log\`."

    local header=0 target tname
    for i in "${SELECTED[@]}"; do
        id=${NAMES[$i]}-${VERSIONS[$i]} dir=$RESULTS/${NAMES[$i]}-${VERSIONS[$i]}
        compare "$id"
        [[ $VERDICT == regressed ]] || continue
        ((header++)) || { echo; echo "### Failing with simdenc only"; }
        echo
        ss=$(cat "$dir/simdenc.status")
        case $ss in
        ok | failed)
            echo "**${NAMES[$i]} ${VERSIONS[$i]}**"
            echo
            while IFS=$'\t' read -r target tname; do
                if [[ $target == src/lib.rs ]]; then echo "- \`$tname\`"; else echo "- \`$tname\` ($target)"; fi
                echo
                echo '  ```text'
                failure_message "$dir/simdenc.msgs" "$target" "$tname" | sed 's/^/  /'
                echo '  ```'
            done <"$dir/only-simdenc"
            if [[ ! -s $dir/only-simdenc ]]; then
                echo "No test failed by name, but these targets did:"
                sed 's/^/- /' "$dir/simdenc.targets"
            fi
            ;;
        build-failed)
            echo "**${NAMES[$i]} ${VERSIONS[$i]} does not compile with simdenc:**"
            echo
            echo '```text'
            cat "$dir/simdenc.errors"
            echo '```'
            ;;
        timeout)
            echo "**${NAMES[$i]} ${VERSIONS[$i]} timed out with simdenc** (after $(cat "$dir/simdenc.secs") s); the log ends:"
            echo
            echo '```text'
            tail -n 8 "$LOGS/$id.simdenc.log"
            echo '```'
            ;;
        *)
            echo "**${NAMES[$i]} ${VERSIONS[$i]}: the run with simdenc went wrong:**"
            echo
            echo '```text'
            cat "$dir/simdenc.errors"
            echo '```'
            ;;
        esac
    done

    header=0
    for i in "${SELECTED[@]}"; do
        dir=$RESULTS/${NAMES[$i]}-${VERSIONS[$i]}
        [[ -s $dir/both || -s $dir/only-encoding_rs ]] || continue
        ((header++)) || { echo; echo "### Failing with encoding_rs too, or only with it (not counted)"; echo; }
        [[ -s $dir/both ]] && echo "- ${NAMES[$i]} ${VERSIONS[$i]}, with both: $(name_list "$dir/both")"
        [[ -s $dir/only-encoding_rs ]] && echo "- ${NAMES[$i]} ${VERSIONS[$i]}, with encoding_rs only: $(name_list "$dir/only-encoding_rs")"
    done
    return 0
}

# In this shell (not a pipeline's), so that report's verdict reaches EXIT.
EXIT=0
report >"$RESULTS/report.md"
cat "$RESULTS/report.md"
if [[ -n $OUT ]]; then cp "$RESULTS/report.md" "$OUT" || die "cannot write $OUT"; fi
exit $EXIT
