//! `sim` and `duel`: many AI-vs-AI battles, win rates with intervals.

use super::run::{AiSetup, play_out_with};
use super::{compendium, fail, load, say};
use indicatif::{ProgressBar, ProgressStyle};
use meshal_tactics::balance::{BatchOptions, Difference, Tally, run_batch};
use meshal_tactics::battle::Outcome;
use meshal_tactics::files::{escape_controls, write_atomically};
use meshal_tactics::level::LoadedLevel;
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

pub use meshal_tactics::balance::wilson;

pub struct SimArgs {
    pub levels: Vec<String>,
    /// The most battles a level; None: 100, or 20,000 with `until_ci`.
    pub runs: Option<usize>,
    pub seed: u64,
    pub jobs: usize,
    pub json: bool,
    pub ai: Vec<String>,
    /// Stop a level's batch once every side's win rate is known to ± this many points.
    pub until_ci: Option<f64>,
    /// Write a chart of the win rates and rounds here (PNG).
    pub plot: Option<String>,
}

/// The most battles `--until-ci` plays before it gives up on the interval.
const UNTIL_CI_CAP: usize = 20_000;

pub fn sim(a: &SimArgs) -> ExitCode {
    let runs = a.runs.unwrap_or(if a.until_ci.is_some() { UNTIL_CI_CAP } else { 100 });
    if runs == 0 || runs > 1_000_000 {
        return fail("--runs must be 1..=1000000");
    }
    if a.jobs == 0 || a.jobs > 256 {
        return fail("--jobs must be 1..=256");
    }
    // Below a tenth of a point no count of battles this program plays gets there (20,000 give
    // ±0.7 at best), and the number was printed in full, some 300 digits.
    if let Some(w) = a.until_ci
        && !((0.1..50.0).contains(&w))
    {
        return fail(&format!(
            "--until-ci {}: give the half-width in points, at least 0.1 and less than 50 (e.g. 5 for ±5)",
            super::short_number(w)
        ));
    }
    if a.levels.len() > 16 {
        return fail("sim compares at most 16 levels at once");
    }
    // Every file is loaded before any battle: a typo in the third file fails at once.
    let mut levels = Vec::with_capacity(a.levels.len());
    for path in &a.levels {
        let level = match load(path) {
            Ok(l) => l,
            Err(e) => return fail(&e),
        };
        let side_profiles = match super::side_profiles(&level, &a.ai) {
            Ok(p) => p,
            Err(e) => return fail(&format!("{path}: {e}")),
        };
        levels.push((level, AiSetup { side_profiles, explain: false, players: Vec::new() }));
    }
    let show_progress = std::io::stderr().is_terminal() && !a.json;
    let mut tallies = Vec::with_capacity(levels.len());
    let mut seconds = Vec::with_capacity(levels.len());
    for (path, (level, setup)) in a.levels.iter().zip(&levels) {
        let opts = BatchOptions {
            runs,
            seed: a.seed,
            jobs: a.jobs,
            until_half_width: a.until_ci.map(|w| w / 100.0),
            ai: setup.clone(),
        };
        let bar = progress_bar(show_progress, runs, a.until_ci.is_some(), path);
        let started = std::time::Instant::now();
        let tally =
            run_batch(level, compendium(), &opts, &|done, _| bar.set_position(done as u64), &AtomicBool::new(false));
        bar.finish_and_clear();
        match tally {
            Ok(t) => tallies.push(t),
            Err(e) => return fail(&format!("{path}: {e}")),
        }
        seconds.push(started.elapsed().as_secs_f64());
    }
    if let Some(plot) = &a.plot {
        let png = match meshal_tactics::balance::plot::render_png(&a.levels, &tallies) {
            Ok(p) => p,
            Err(e) => return fail(&format!("--plot {plot}: {e}")),
        };
        if let Err(e) = write_atomically(Path::new(plot), &png) {
            return fail(&e.to_string());
        }
    }
    if a.json {
        let reports: Vec<serde_json::Value> =
            tallies.iter().zip(&seconds).zip(&a.levels).map(|((t, &s), p)| json_report(p, t, s, a.until_ci)).collect();
        if reports.len() == 1 {
            say(&reports[0].to_string());
        } else {
            let comparison: Vec<serde_json::Value> = comparisons(&a.levels, &tallies)
                .into_iter()
                .map(|c| {
                    serde_json::json!({
                        "level": c.level, "side": c.side, "delta": c.delta.delta,
                        "p_value": c.delta.p_value, "significant": c.delta.significant(),
                    })
                })
                .collect();
            say(&serde_json::json!({ "levels": reports, "comparison": comparison }).to_string());
        }
        return ExitCode::SUCCESS;
    }
    for ((t, (level, _)), &s) in tallies.iter().zip(&levels).zip(&seconds) {
        text_report(level, t, s, a);
    }
    if tallies.len() > 1 {
        comparison_table(&a.levels, &tallies);
    }
    if let Some(plot) = &a.plot {
        say(&format!("Chart written to {plot}."));
    }
    ExitCode::SUCCESS
}

/// A progress bar on a terminal; hidden when piped, with `--json`, or in CI.
fn progress_bar(show: bool, runs: usize, open_ended: bool, path: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(runs as u64);
    let template = if open_ended {
        "{spinner} {prefix}: {pos} battles, until the interval is narrow enough ({elapsed})"
    } else {
        "{prefix} [{bar:30}] {pos}/{len} battles ({elapsed}, {eta} left)"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("#>."));
    }
    bar.set_prefix(escape_controls(path).into_owned());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

fn json_report(path: &str, t: &Tally, seconds: f64, until_ci: Option<f64>) -> serde_json::Value {
    let n = t.n();
    let wins: serde_json::Map<String, serde_json::Value> =
        t.sides.iter().enumerate().map(|(s, name)| (name.clone(), serde_json::json!(t.wins(s).count))).collect();
    let ci: serde_json::Map<String, serde_json::Value> = t
        .sides
        .iter()
        .enumerate()
        .map(|(s, name)| {
            let r = t.wins(s);
            (name.clone(), serde_json::json!([r.low, r.high]))
        })
        .collect();
    let creatures: Vec<serde_json::Value> = t
        .creatures
        .iter()
        .enumerate()
        .map(|(c, (name, side))| {
            let (dealt, taken) = t.mean_dealt_taken(c);
            serde_json::json!({
                "name": name, "side": t.sides[*side], "down_rate": t.down_rate(c).value(),
                "dealt_mean": dealt, "taken_mean": taken,
            })
        })
        .collect();
    serde_json::json!({
        "level": path,
        "runs": n,
        "wins": wins,
        "draws": t.draws().count,
        "rounds_mean": t.rounds_mean(),
        "rounds_p10": t.rounds_quantile(0.1),
        "rounds_p50": t.rounds_quantile(0.5),
        "rounds_p90": t.rounds_quantile(0.9),
        "rounds_histogram": t.rounds_histogram(),
        "intensity": t.intensity.map_or("n/a", |i| i.name()),
        "band_disagreement": t.band_disagreement(),
        "ci95": ci,
        "until_ci": until_ci,
        "stopped_early": t.stopped_early,
        "creatures": creatures,
        "ai_rejections": t.ai_rejections(),
        "ai_fallbacks": t.ai_fallbacks(),
        "passive_under_fire": t.passive().count,
        "seconds": seconds,
    })
}

fn text_report(level: &LoadedLevel, t: &Tally, seconds: f64, a: &SimArgs) {
    let n = t.n();
    let shown: Vec<String> = t.sides.iter().map(|s| escape_controls(s).into_owned()).collect();
    let last = a.seed.wrapping_add(n.max(1) as u64 - 1);
    // Seeds count on past the largest and start again from 0 (battle k plays seed + k).
    let wraps = if last < a.seed { ", counting on from 0 past the largest seed" } else { "" };
    say(&format!(
        "{} ({}) — {n} AI-vs-AI battles, seeds {}..{last}{wraps}",
        escape_controls(&level.level.name),
        escape_controls(&level.file),
        a.seed,
    ));
    if let Some(w) = a.until_ci {
        if t.stopped_early {
            say(&format!(
                "Stopped after {n} battles: every side's win rate is known to ±{:.1} points (asked ±{w}).",
                100.0 * t.widest_half_width()
            ));
        } else {
            say(&format!(
                "Played all {n} battles allowed (--runs) before the interval reached ±{w} points: widest ±{:.1}.",
                100.0 * t.widest_half_width()
            ));
        }
    }
    say(&format!("Combat intensity (FLOW-2, seen from {}): {}", shown[0], t.intensity.map_or("n/a", |i| i.name())));
    if let Some(flag) = t.band_disagreement() {
        say(&format!("  ! The battles disagree with the rules' estimate: {flag}."));
    }
    for (s, name) in shown.iter().enumerate() {
        let r = t.wins(s);
        say(&format!(
            "  {name:<10} wins {:>6} ({:5.1}%, 95% CI {:5.1}%–{:5.1}%)",
            r.count,
            100.0 * r.value(),
            100.0 * r.low,
            100.0 * r.high
        ));
    }
    let d = t.draws();
    say(&format!("  draws      {:>6} ({:5.1}%)", d.count, 100.0 * d.value()));
    say(&format!(
        "Rounds: mean {:.1}, p10 {}, p50 {}, p90 {}",
        t.rounds_mean(),
        t.rounds_quantile(0.1),
        t.rounds_quantile(0.5),
        t.rounds_quantile(0.9)
    ));
    say(&rounds_bars(t));
    say("Creatures (down at the end: unconscious, dead or fled; dice of damage dealt and taken a battle):");
    for (c, (name, side)) in t.creatures.iter().enumerate() {
        let (dealt, taken) = t.mean_dealt_taken(c);
        say(&format!(
            "  {:<14} {:<8} down {:5.1}%   dealt {dealt:5.2}   taken {taken:5.2}",
            escape_controls(name),
            shown[*side],
            100.0 * t.down_rate(c).value()
        ));
    }
    let passive = t.passive();
    say(&format!(
        "Battles where a side took damage two rounds running without moving, attacking, hiding or trying to flee: {} ({:.1}%)",
        passive.count,
        100.0 * passive.value()
    ));
    say(&format!(
        "AI commands rejected: {}; AI fallbacks (planned commands the engine would refuse): {}. \
         Time: {seconds:.2} s with {} jobs.",
        t.ai_rejections(),
        t.ai_fallbacks(),
        a.jobs
    ));
}

/// The rounds histogram as text, in up to eight bins.
fn rounds_bars(t: &Tally) -> String {
    let h = t.rounds_histogram();
    let width = h.len().div_ceil(8).max(1);
    let bins: Vec<(usize, usize, usize)> =
        h.chunks(width).enumerate().map(|(k, c)| (k * width, k * width + c.len() - 1, c.iter().sum())).collect();
    let most = bins.iter().map(|b| b.2).max().unwrap_or(0).max(1);
    let mut out = String::from("Battles by the round they ended:");
    for (lo, hi, count) in bins {
        out.push_str(&format!("\n  rounds {lo:>2}–{hi:<2} {:<30} {count}", "#".repeat(count * 30 / most)));
    }
    out
}

struct Comparison {
    level: String,
    side: String,
    delta: Difference,
}

/// Every later level against the first, side by side of the same name, and the draws.
fn comparisons(paths: &[String], tallies: &[Tally]) -> Vec<Comparison> {
    let first = &tallies[0];
    let mut out = Vec::new();
    for (path, t) in paths.iter().zip(tallies).skip(1) {
        for (s, name) in t.sides.iter().enumerate() {
            if let Some(f) = first.sides.iter().position(|x| x == name) {
                out.push(Comparison {
                    level: path.clone(),
                    side: name.clone(),
                    delta: Difference::between(first.wins(f), t.wins(s)),
                });
            }
        }
        out.push(Comparison {
            level: path.clone(),
            side: "draws".into(),
            delta: Difference::between(first.draws(), t.draws()),
        });
    }
    out
}

fn comparison_table(paths: &[String], tallies: &[Tally]) {
    let mut sides: Vec<String> = Vec::new();
    for t in tallies {
        for s in &t.sides {
            if !sides.contains(s) {
                sides.push(s.clone());
            }
        }
    }
    sides.push("draws".into());
    say(&format!(
        "\nComparison against 1 ({}): win rates with 95% CI; Δ in points, p from a two-proportion test, * significant at 5%.",
        escape_controls(&paths[0])
    ));
    let mut header = format!("  {:<3} {:<28} {:>7}", "", "level", "battles");
    for s in &sides {
        header.push_str(&format!("  {:<30}", escape_controls(s)));
    }
    say(&format!("{header}  band"));
    let first = &tallies[0];
    for (k, (path, t)) in paths.iter().zip(tallies).enumerate() {
        let name = Path::new(path).file_name().map_or(path.clone(), |f| f.to_string_lossy().into_owned());
        let mut row = format!("  {:<3} {:<28} {:>7}", k + 1, escape_controls(&name), t.n());
        for s in &sides {
            let rate = |t: &Tally| {
                if s == "draws" { Some(t.draws()) } else { t.sides.iter().position(|x| x == s).map(|i| t.wins(i)) }
            };
            let cell = match (rate(t), rate(first)) {
                (None, _) => "—".to_string(),
                (Some(r), reference) => {
                    let mut c = format!("{:5.1}% [{:4.1}–{:4.1}]", 100.0 * r.value(), 100.0 * r.low, 100.0 * r.high);
                    if k > 0
                        && let Some(f) = reference
                    {
                        let d = Difference::between(f, r);
                        c.push_str(&format!(" {:+.1}{}", 100.0 * d.delta, if d.significant() { "*" } else { "" }));
                        if d.p_value < 0.001 {
                            c.push_str(" p<0.001");
                        } else if d.significant() {
                            c.push_str(&format!(" p={:.3}", d.p_value));
                        }
                    }
                    c
                }
            };
            row.push_str(&format!("  {cell:<30}"));
        }
        let band = t.intensity.map_or("n/a", |i| i.name());
        let flag = if t.band_disagreement().is_some() { " (!)" } else { "" };
        say(&format!("{row}  {band}{flag}"));
    }
}

pub struct DuelArgs {
    pub level: String,
    pub a: String,
    pub b: String,
    pub runs: usize,
    pub seed: u64,
    pub jobs: usize,
    pub json: bool,
}

/// One duel battle: the side A played, the winner (0 = A, 1 = B, None = a draw), AI fallbacks.
type DuelBattle = (usize, Option<usize>, u32);

/// Mirrored AI-against-AI: half the battles with A on the first side, half on the second.
pub fn duel(d: &DuelArgs) -> ExitCode {
    if d.runs < 2 || d.runs > 1_000_000 {
        return fail(&format!("--runs {} must be 2..=1000000 (a pair of battles at least)", d.runs));
    }
    if d.jobs == 0 || d.jobs > 256 {
        return fail(&format!("--jobs {} must be 1..=256", d.jobs));
    }
    let level = match load(&d.level) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    if level.level.sides.len() != 2 {
        return fail("duel needs a level with exactly two sides");
    }
    for p in [&d.a, &d.b] {
        if !compendium().ai_profiles.contains_key(p) {
            let known: Vec<&String> = compendium().ai_profiles.keys().collect();
            return fail(&format!("unknown AI profile '{p}' (known: {known:?})"));
        }
    }
    let started = std::time::Instant::now();
    // Run k: A plays side k % 2; battles k and k+1 share a seed, so each seed is played both ways.
    let results: Vec<(usize, Result<DuelBattle, String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..d.jobs)
            .map(|j| {
                let level = &level;
                scope.spawn(move || {
                    (j..d.runs)
                        .step_by(d.jobs)
                        .map(|k| {
                            let a_side = k % 2;
                            let mut profiles = vec![Some(d.b.clone()), Some(d.b.clone())];
                            profiles[a_side] = Some(d.a.clone());
                            let setup = AiSetup { side_profiles: Some(profiles), explain: false, players: Vec::new() };
                            let seed = d.seed.wrapping_add((k / 2) as u64);
                            let r = play_out_with(level, seed, None, &setup).map(|p| {
                                if p.rejections.ai > 0 {
                                    super::warn(&format!(
                                        "warning: seed {seed}: {} AI commands rejected",
                                        p.rejections.ai
                                    ));
                                }
                                let winner = match p.battle.outcome() {
                                    Some(Outcome::Victory { side, .. }) => {
                                        let s = p.battle.sides().iter().position(|x| &x.name == side);
                                        s.map(|s| usize::from(s != a_side))
                                    }
                                    _ => None,
                                };
                                (a_side, winner, p.fallbacks.count)
                            });
                            (k, r)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("duel thread")).collect()
    });
    let (mut a_wins, mut b_wins, mut draws, mut fallbacks) = (0, 0, 0, 0u32);
    // Per side A played: battles, A's wins (an asymmetric level is won mostly from one side).
    let mut by_side = [(0usize, 0usize); 2];
    for (k, r) in results {
        match r {
            Ok((a_side, winner, f)) => {
                fallbacks += f;
                by_side[a_side].0 += 1;
                by_side[a_side].1 += usize::from(winner == Some(0));
                match winner {
                    Some(0) => a_wins += 1,
                    Some(_) => b_wins += 1,
                    None => draws += 1,
                }
            }
            Err(e) => return fail(&format!("battle {k}: {e}")),
        }
    }
    let n = d.runs;
    let (lo, hi) = wilson(a_wins, n);
    let rate = a_wins as f64 / n as f64;
    if d.json {
        say(&format!(
            "{}",
            serde_json::json!({
                "runs": n, "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
                "a_win_rate": rate, "ci95": [lo, hi], "ai_fallbacks": fallbacks,
                "a_wins_by_side": level.level.sides.iter().zip(by_side).map(|(s, (n, w))| {
                    serde_json::json!({ "side": s.name, "battles": n, "a_wins": w })
                }).collect::<Vec<_>>(),
                "seconds": started.elapsed().as_secs_f64(),
            })
        ));
    } else {
        say(&format!("{} — {} (A) against {} (B), {n} mirrored battles", escape_controls(&level.level.name), d.a, d.b));
        say(&format!(
            "  A wins {a_wins} ({:.1}%, 95% CI {:.1}%–{:.1}%), B wins {b_wins}, draws {draws}",
            100.0 * rate,
            100.0 * lo,
            100.0 * hi
        ));
        let per_side: Vec<String> = level
            .level
            .sides
            .iter()
            .zip(by_side)
            .map(|(s, (n, w))| {
                format!("as {} {w} of {n} ({:.1}%)", escape_controls(&s.name), 100.0 * w as f64 / n.max(1) as f64)
            })
            .collect();
        say(&format!("  A wins {}", per_side.join(", ")));
        say(&format!("  AI fallbacks {fallbacks}; time {:.2} s with {} jobs", started.elapsed().as_secs_f64(), d.jobs));
    }
    ExitCode::SUCCESS
}
