//! Scoring the candidates (the module docs, "Models", say what the costs are).

use super::model::{
    BAD, CJK_BIG5, CJK_EUC_JP, CJK_EUC_KR, CJK_GBK, CJK_SHIFT_JIS, SCALE, SINGLE_BYTE, UNIGRAM_BY_BYTE,
};
use super::{CjkModel, Guess, SbModel};
use crate::Encoding;
use alloc::vec;
use alloc::vec::Vec;

/// Cost of a malformed multi-byte sequence (20 nats).
const ERR: u32 = 80;
/// Cost of a half-width katakana (Shift_JIS single byte, EUC-JP `0x8E` pair).
const KANA: u32 = 48;
/// Extra cost of a character outside the main repertoire: JIS X 0212 (EUC-JP `0x8F`),
/// Big5's HKSCS rows, gb18030's four-byte sequences.
const RARE: u32 = 40;
/// At most how many single-byte candidates the bigram model scores after the unigram
/// ranking: those within 6 nats or an eighth (whichever is more) of the best unigram cost,
/// and at least two. Short inputs leave many candidates that close, long ones few; the
/// eighth lets through a language whose text departs from its word lists' letter
/// frequencies (pointed Hebrew, say) but whose bigrams still fit.
const BIGRAM_CANDIDATES: usize = 12;
const UNIGRAM_MARGIN: u32 = 6 * SCALE;
/// Texts from this many bytes on are scored over their distinct byte pairs (`byte_pairs`)
/// when three candidates or more are scored; shorter ones by walks.
const PAIRS_FROM: usize = 512;
/// How far above the best cost so far a candidate's bigram scoring stops (30 nats).
const GIVE_UP: u32 = 30 * SCALE;
/// Divides cost differences (in model units) for the confidence: tempers the models'
/// over-confidence (bigram models treat neighbouring bytes as independent evidence).
const TEMPER: f32 = (4 * SCALE) as f32;

/// UTF-16 without a BOM (module docs, "What it returns", 1).
pub(super) fn utf16(head: &[u8]) -> Option<Guess> {
    if head.len() < 2 {
        return None;
    }
    // Counted in bytes, 255 at a time, so that the loop is vectorised.
    let controls: usize = head
        .chunks(255)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &b| {
                let control =
                    (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != 0x0C) & (b != b'\r') & (b != 0x1B);
                n + u8::from(control)
            });
            usize::from(n)
        })
        .sum();
    if controls * 50 < head.len() {
        return None;
    }
    let le = utf16_plausibility(head, false);
    let be = utf16_plausibility(head, true);
    let (encoding, (good, bad, units, _)) = if le.0 + le.3 >= be.0 + be.3 {
        (crate::UTF_16LE, le)
    } else {
        (crate::UTF_16BE, be)
    };
    if bad * 20 > units || good * 10 < units * 8 {
        return None;
    }
    Some(Guess {
        encoding,
        confidence: if bad == 0 { 0.99 } else { 0.9 },
    })
}

/// (plausible units, impossible units, units, units in the same 256-unit block as the
/// previous one) of `bytes` read as UTF-16: text keeps to a script, so the right byte order
/// repeats its high bytes.
fn utf16_plausibility(bytes: &[u8], be: bool) -> (usize, usize, usize, usize) {
    let (mut good, mut bad, mut units, mut same) = (0, 0, 0, 0);
    let mut prev_high = 0u16;
    let mut pending_lead = false;
    for pair in bytes.chunks_exact(2) {
        let u = if be {
            u16::from_be_bytes([pair[0], pair[1]])
        } else {
            u16::from_le_bytes([pair[0], pair[1]])
        };
        units += 1;
        same += usize::from(u >> 8 == prev_high);
        prev_high = u >> 8;
        let lead = (0xD800..0xDC00).contains(&u);
        let trail = (0xDC00..0xE000).contains(&u);
        if pending_lead {
            if trail {
                good += 2;
                pending_lead = false;
                continue;
            }
            bad += 1;
        }
        pending_lead = lead;
        if lead {
            continue;
        }
        if trail
            || (u < 0x20 && !matches!(u, 0x09 | 0x0A | 0x0C | 0x0D))
            || (0x7F..0xA0).contains(&u)
            || u >= 0xFFFE
        {
            bad += 1;
        } else if matches!(u,
            0x20..=0x7E
            | 0x09 | 0x0A | 0x0C | 0x0D
            | 0xA0..=0x24F // Latin-1, Latin Extended-A and -B
            | 0x300..=0x36F // combining marks
            | 0x370..=0x52F // Greek, Cyrillic
            | 0x590..=0x6FF // Hebrew, Arabic
            | 0x900..=0x97F // Devanagari
            | 0xE00..=0xE7F // Thai
            | 0x1E00..=0x1EFF // Latin Extended Additional (Vietnamese)
            | 0x2000..=0x206F // general punctuation
            | 0x3000..=0x30FF // CJK punctuation, kana
            | 0x4E00..=0x9FFF // CJK ideographs
            | 0xAC00..=0xD7A3 // Hangul syllables
            | 0xFF00..=0xFFEF // half- and full-width forms
        ) {
            good += 1;
        }
    }
    (good, bad, units, same)
}

/// Costs of the candidates scored in full: the best single-byte ones, then the multi-byte
/// ones (GBK or gb18030, Big5, EUC-KR, EUC-JP, Shift_JIS); `u32::MAX` for a missing one.
pub(super) type Costs = [(u32, &'static Encoding); BIGRAM_CANDIDATES + 5];

/// The best legacy encoding for `text` (markup removed, ASCII runs cut).
pub(super) fn legacy(text: &[u8]) -> Guess {
    let results = legacy_costs(text);
    let (best_cost, encoding) = results
        .iter()
        .copied()
        .min_by_key(|r| r.0)
        .unwrap_or((0, crate::WINDOWS_1252));
    // Confidence: the best encoding's share of the tempered likelihoods, each other
    // encoding counted once (at its best cost).
    let mut others = 0.0f32;
    for (i, &(cost, enc)) in results.iter().enumerate() {
        if enc == encoding || results[..i].iter().any(|r| r.1 == enc && r.0 <= cost) {
            continue;
        }
        let d = cost.saturating_sub(best_cost) as f32 / TEMPER;
        if d < 30.0 {
            others += exp_neg(d);
        }
    }
    Guess {
        encoding,
        confidence: 1.0 / (1.0 + others),
    }
}

/// The costs `legacy` chooses from.
pub(super) fn legacy_costs(text: &[u8]) -> Costs {
    let mut hist = [0u32; 128];
    for &b in text {
        if b >= 0x80 {
            hist[usize::from(b - 0x80)] += 1;
        }
    }
    let present: ([u8; 128], usize) = {
        let mut list = [0u8; 128];
        let mut n = 0;
        for (i, &c) in hist.iter().enumerate() {
            if c > 0 {
                list[n] = i as u8;
                n += 1;
            }
        }
        (list, n)
    };
    let present = &present.0[..present.1];

    // Stage 1: unigram costs of every single-byte candidate (all at once: the compiler
    // vectorises the inner loop over the candidates); keep the best few.
    let mut unigram = [0u32; SINGLE_BYTE.len()];
    for &b in present {
        let n = hist[usize::from(b)];
        for (acc, &c) in unigram.iter_mut().zip(UNIGRAM_BY_BYTE[usize::from(b)].iter()) {
            *acc += u32::from(c) * n;
        }
    }
    let mut best: [(u32, usize); BIGRAM_CANDIDATES] = [(u32::MAX, 0); BIGRAM_CANDIDATES];
    for (i, (m, &cost)) in SINGLE_BYTE.iter().zip(unigram.iter()).enumerate() {
        insert_best(&mut best, (m.prior + cost, i));
    }

    // Stage 2: full costs, each candidate abandoned once it is `GIVE_UP` above the best cost
    // so far (its cost is then a lower bound, which only matters to the confidence, by less
    // than e^-7): first the best single-byte candidate by unigrams (on single-byte text, a
    // bound that stops the multi-byte walks early), then the multi-byte candidates, then the
    // other single-byte ones in the unigram ranking's order.
    let mut results: Costs = [(u32::MAX, crate::WINDOWS_1252); BIGRAM_CANDIDATES + 5];
    let limit = best[0].0.saturating_add(UNIGRAM_MARGIN.max(best[0].0 / 8));
    let scored = |k: usize, cost: u32| cost != u32::MAX && (k < 2 || cost <= limit);
    let n = best
        .iter()
        .enumerate()
        .filter(|&(k, &(cost, _))| scored(k, cost))
        .count();
    // Sums over the distinct pairs pay for building them from three candidates and a few
    // hundred bytes on.
    let pairs = (n >= 3 && (PAIRS_FROM..1 << 16).contains(&text.len())).then(|| byte_pairs(text));
    let mut best_cost = u32::MAX;
    let single = |k: usize, best_cost: u32| -> (u32, &'static Encoding) {
        let m = &SINGLE_BYTE[best[k].1];
        let give_up = best_cost.saturating_add(GIVE_UP).saturating_sub(m.prior);
        let bigrams = match &pairs {
            Some(pairs) => bigram_cost(pairs, m, give_up),
            None => bigram_cost_by_walk(text, m, give_up),
        };
        (m.prior.saturating_add(bigrams), m.encoding)
    };
    if scored(0, best[0].0) {
        results[0] = single(0, best_cost);
        best_cost = results[0].0;
    }
    type Walker = fn(&[u8], u32) -> (u32, &'static Encoding);
    let walkers: [Walker; 5] = [
        |text, give_up| gbk_cost(text, &CJK_GBK, give_up),
        |text, give_up| (big5_cost(text, &CJK_BIG5, give_up), crate::BIG5),
        |text, give_up| (euc_kr_cost(text, &CJK_EUC_KR, give_up), crate::EUC_KR),
        |text, give_up| (euc_jp_cost(text, &CJK_EUC_JP, give_up), crate::EUC_JP),
        |text, give_up| (shift_jis_cost(text, &CJK_SHIFT_JIS, give_up), crate::SHIFT_JIS),
    ];
    for (j, walker) in walkers.iter().enumerate() {
        let cost = walker(text, best_cost.saturating_add(GIVE_UP));
        best_cost = best_cost.min(cost.0);
        results[BIGRAM_CANDIDATES + j] = cost;
    }
    for k in 1..BIGRAM_CANDIDATES {
        if scored(k, best[k].0) {
            results[k] = single(k, best_cost);
            best_cost = best_cost.min(results[k].0);
        }
    }
    results
}

/// `e^-x` for `x >= 0` (core has no `exp`): by halving into `[0, 1/16)` and a Taylor series.
fn exp_neg(x: f32) -> f32 {
    let mut k = 0;
    let mut y = x;
    while y >= 0.0625 && k < 16 {
        y *= 0.5;
        k += 1;
    }
    let mut r = 1.0 - y + y * y / 2.0 - y * y * y / 6.0;
    for _ in 0..k {
        r *= r;
    }
    r
}

/// Every single-byte candidate's unigram and bigram costs (for `tests::explain`).
#[cfg(test)]
pub(super) fn single_byte_costs(text: &[u8]) -> alloc::vec::Vec<(u32, u32, &'static str, &'static str)> {
    let mut v: alloc::vec::Vec<_> = SINGLE_BYTE
        .iter()
        .map(|m| {
            let uni: u32 = text
                .iter()
                .filter(|&&b| b >= 0x80)
                .map(|&b| {
                    let class = m.classes[usize::from(b - 0x80)];
                    if class == 255 {
                        BAD
                    } else {
                        u32::from(m.lang.unigram[usize::from(class)])
                    }
                })
                .sum();
            (
                m.prior + uni,
                m.prior + bigram_cost_reference(text, m),
                m.encoding.name(),
                m.lang.name,
            )
        })
        .collect();
    v.sort();
    v
}

#[cfg(test)]
pub(super) fn exp_neg_for_tests(x: f32) -> f32 {
    exp_neg(x)
}

/// Keeps the `BIGRAM_CANDIDATES` lowest costs, sorted.
fn insert_best(best: &mut [(u32, usize); BIGRAM_CANDIDATES], item: (u32, usize)) {
    if item.0 >= best[BIGRAM_CANDIDATES - 1].0 {
        return;
    }
    let mut i = BIGRAM_CANDIDATES - 1;
    while i > 0 && best[i - 1].0 > item.0 {
        best[i] = best[i - 1];
        i -= 1;
    }
    best[i] = item;
}

/// The pairs of adjacent bytes the bigram model reads in `text` (those with a byte above
/// 0x7F; the text is read as if after a space), each once, with how often it occurs: the
/// candidates' bigram costs are then sums over the distinct pairs (a few hundred in 1024
/// letters of a language) instead of over the text.
fn byte_pairs(text: &[u8]) -> Vec<(u8, u8, u32)> {
    // Open addressing, at most half full, doubled when it would be more: slot = pair << 16 |
    // count, 0 unused (counts start at 1, and stay below 2^16: the caller's texts are shorter).
    debug_assert!(text.len() < 1 << 16);
    let mut bits = 10;
    let mut table = vec![0u32; 1 << bits];
    let mut distinct = 0;
    let mut prev = b' ';
    for &b in text {
        if b >= 0x80 || prev >= 0x80 {
            let pair = u32::from(prev) << 8 | u32::from(b);
            if !add_pair(&mut table, bits, pair << 16 | 1) {
                distinct += 1;
                if 2 * distinct > table.len() {
                    bits += 1;
                    let old = core::mem::replace(&mut table, vec![0u32; 1 << bits]);
                    for slot in old.into_iter().filter(|&slot| slot != 0) {
                        add_pair(&mut table, bits, slot);
                    }
                }
            }
        }
        prev = b;
    }
    let mut pairs = Vec::with_capacity(distinct);
    pairs.extend(
        table
            .into_iter()
            .filter(|&slot| slot != 0)
            .map(|slot| ((slot >> 24) as u8, (slot >> 16) as u8, slot & 0xFFFF)),
    );
    pairs
}

/// Adds `entry` (pair << 16 | count) to the table of `byte_pairs`: to the pair's count if it
/// is there (returns true), else in a free slot (false).
fn add_pair(table: &mut [u32], bits: u32, entry: u32) -> bool {
    let pair = entry >> 16;
    let mask = table.len() - 1;
    let mut at = (pair.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize;
    loop {
        let slot = table[at];
        if slot == 0 {
            table[at] = entry;
            return false;
        }
        if slot >> 16 == pair {
            table[at] = slot + (entry & 0xFFFF);
            return true;
        }
        at = (at + 1) & mask;
    }
}

/// A candidate's bigram model by byte: `cost(first, second)` is `-log P` of the second
/// byte's class after the first's.
struct Bigrams {
    table: &'static [u8],
    classes: usize,
    /// The class of each byte (255: none, a control or unmapped byte).
    class: [u8; 256],
}

impl Bigrams {
    fn new(m: &SbModel) -> Bigrams {
        let mut class = [0u8; 256];
        class[..128].copy_from_slice(&ASCII_CLASS);
        class[128..].copy_from_slice(m.classes);
        Bigrams {
            table: m.lang.bigram,
            classes: m.lang.classes,
            class,
        }
    }

    #[inline]
    fn cost(&self, first: u8, second: u8) -> u32 {
        match self.class[usize::from(second)] {
            255 => BAD,
            c => {
                // A byte without a class (a control) reads as a non-letter before the next.
                let a = match self.class[usize::from(first)] {
                    255 => 0,
                    a => usize::from(a),
                };
                u32::from(
                    self.table
                        .get(a * self.classes + usize::from(c))
                        .copied()
                        .unwrap_or(255),
                )
            }
        }
    }
}

/// The bigram cost of a text in a single-byte candidate, from the text's `byte_pairs`: every
/// pair of adjacent bytes one of which is above 0x7F. Stops once past `give_up` (the cost is
/// then a lower bound), checked every 64 pairs.
fn bigram_cost(pairs: &[(u8, u8, u32)], m: &SbModel, give_up: u32) -> u32 {
    let model = Bigrams::new(m);
    let mut cost = 0u32;
    for chunk in pairs.chunks(64) {
        for &(first, second, count) in chunk {
            cost = cost.saturating_add(model.cost(first, second).saturating_mul(count));
        }
        if cost > give_up {
            break;
        }
    }
    cost
}

/// The bigram cost by a walk over the text (cheaper than `byte_pairs` for one or two
/// candidates or a short text). Stops once past `give_up`, checked every 64 bytes.
fn bigram_cost_by_walk(text: &[u8], m: &SbModel, give_up: u32) -> u32 {
    let model = Bigrams::new(m);
    let mut cost = 0u32;
    let mut prev = b' ';
    for chunk in text.chunks(64) {
        for &b in chunk {
            if (b | prev) >= 0x80 {
                cost = cost.saturating_add(model.cost(prev, b));
            }
            prev = b;
        }
        if cost > give_up {
            break;
        }
    }
    cost
}

/// The bigram cost byte by byte with the classes looked up in the model (the tests'
/// reference for `Bigrams` and both sums).
#[cfg(test)]
fn bigram_cost_reference(text: &[u8], m: &SbModel) -> u32 {
    let n = m.lang.classes;
    let class = |b: u8| -> u8 {
        if b >= 0x80 {
            m.classes[usize::from(b - 0x80)]
        } else {
            ASCII_CLASS[usize::from(b)]
        }
    };
    let mut cost = 0u32;
    let mut prev_byte = b' ';
    let mut prev = 0u8;
    for &b in text {
        let c = class(b);
        if b >= 0x80 || prev_byte >= 0x80 {
            if c == 255 {
                cost += BAD;
            } else {
                let a = if prev == 255 { 0 } else { usize::from(prev) };
                cost += u32::from(m.lang.bigram.get(a * n + usize::from(c)).copied().unwrap_or(255));
            }
        }
        prev = c;
        prev_byte = b;
    }
    cost
}

/// Every single-byte candidate's bigram cost over distinct pairs, by walk and by the
/// reference (for the tests).
#[cfg(test)]
pub(super) fn bigram_costs_three_ways(text: &[u8]) -> alloc::vec::Vec<[u32; 3]> {
    let pairs = byte_pairs(text);
    SINGLE_BYTE
        .iter()
        .map(|m| {
            [
                bigram_cost(&pairs, m, u32::MAX),
                bigram_cost_by_walk(text, m, u32::MAX),
                bigram_cost_reference(text, m),
            ]
        })
        .collect()
}

/// Classes of the ASCII bytes: 0 for non-letters, 1..=26 for the letters, case folded.
static ASCII_CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 26 {
        t[b'a' as usize + b] = 1 + b as u8;
        t[b'A' as usize + b] = 1 + b as u8;
        b += 1;
    }
    t
};

/// Two-byte code of a (lead, trail) pair as the multi-byte models index them.
#[inline]
fn code(lead: u8, trail: u8) -> usize {
    usize::from(lead.wrapping_sub(0x81)) * 191 + usize::from(trail.wrapping_sub(0x40))
}

#[inline]
fn char_cost(m: &CjkModel, lead: u8, trail: u8) -> u32 {
    u32::from(m.cost.get(code(lead, trail)).copied().unwrap_or(255))
}

/// GBK and gb18030 (gb18030 when a four-byte sequence occurs).
/// The cost of `text` in one CJK encoding: ASCII is free; at each byte above 0x7F, `sequence`
/// gives the cost and length of the sequence starting there (an error costs [`ERR`] and is one
/// byte long), or `None` when the text ends inside it.
fn cjk_cost(text: &[u8], give_up: u32, mut sequence: impl FnMut(&[u8]) -> Option<(u32, usize)>) -> u32 {
    let mut cost = 0u32;
    let mut i = 0;
    let mut check = 0;
    while i < text.len() {
        if i >= check {
            // Abandoned once past `give_up`, checked every 64 bytes.
            if cost > give_up {
                break;
            }
            check = i + 64;
        }
        if text[i] < 0x80 {
            i += 1;
            continue;
        }
        let Some((c, len)) = sequence(&text[i..]) else {
            break;
        };
        cost = cost.saturating_add(c);
        i += len;
    }
    cost
}

fn gbk_cost(text: &[u8], m: &CjkModel, give_up: u32) -> (u32, &'static Encoding) {
    let mut four = false;
    let cost = cjk_cost(text, give_up, |s| {
        let (b, t) = (s[0], *s.get(1)?);
        Some(if !(0x81..=0xFE).contains(&b) {
            (ERR, 1)
        } else if (0x30..=0x39).contains(&t) {
            match (s.get(2), s.get(3)) {
                (Some(0x81..=0xFE), Some(0x30..=0x39)) => {
                    four = true;
                    (RARE, 4)
                }
                (Some(0x81..=0xFE), None) | (None, None) => return None,
                _ => (ERR, 1),
            }
        } else if (0x40..=0x7E).contains(&t) || (0x80..=0xFE).contains(&t) {
            (char_cost(m, b, t), 2)
        } else {
            (ERR, 1)
        })
    });
    (cost, if four { crate::GB18030 } else { m.encoding })
}

fn big5_cost(text: &[u8], m: &CjkModel, give_up: u32) -> u32 {
    cjk_cost(text, give_up, |s| {
        let (b, t) = (s[0], *s.get(1)?);
        Some(
            if (0x81..=0xFE).contains(&b) && ((0x40..=0x7E).contains(&t) || (0xA1..=0xFE).contains(&t)) {
                (char_cost(m, b, t) + if b < 0xA1 { RARE } else { 0 }, 2)
            } else {
                (ERR, 1)
            },
        )
    })
}

fn euc_kr_cost(text: &[u8], m: &CjkModel, give_up: u32) -> u32 {
    cjk_cost(text, give_up, |s| {
        let (b, t) = (s[0], *s.get(1)?);
        Some(if (0x81..=0xFE).contains(&b) && (0x41..=0xFE).contains(&t) {
            (char_cost(m, b, t), 2)
        } else {
            (ERR, 1)
        })
    })
}

fn euc_jp_cost(text: &[u8], m: &CjkModel, give_up: u32) -> u32 {
    cjk_cost(text, give_up, |s| {
        let (b, t) = (s[0], *s.get(1)?);
        Some(match b {
            0x8E if (0xA1..=0xDF).contains(&t) => (KANA, 2),
            0x8F if (0xA1..=0xFE).contains(&t) => match s.get(2) {
                Some(0xA1..=0xFE) => (RARE + char_cost(m, 0xFE, 0xFE), 3),
                None => return None,
                _ => (ERR, 1),
            },
            0xA1..=0xFE if (0xA1..=0xFE).contains(&t) => (char_cost(m, b, t), 2),
            _ => (ERR, 1),
        })
    })
}

fn shift_jis_cost(text: &[u8], m: &CjkModel, give_up: u32) -> u32 {
    cjk_cost(text, give_up, |s| {
        let b = s[0];
        if b == 0x80 {
            return Some((0, 1));
        }
        if (0xA1..=0xDF).contains(&b) {
            return Some((KANA, 1));
        }
        let t = *s.get(1)?;
        Some(
            if matches!(b, 0x81..=0x9F | 0xE0..=0xFC) && matches!(t, 0x40..=0x7E | 0x80..=0xFC) {
                (char_cost(m, b, t), 2)
            } else {
                (ERR, 1)
            },
        )
    })
}
