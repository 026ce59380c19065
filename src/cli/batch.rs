//! `sim` and `duel`: many AI-vs-AI battles, win rates with intervals.

use super::run::{AiSetup, play_out_with};
use super::{compendium, fail, load, say};
use meshal_tactics::battle::{Battle, Outcome};
use meshal_tactics::files::escape_controls;
use meshal_tactics::level::LoadedLevel;
use std::io::IsTerminal;
use std::process::ExitCode;

struct SimRun {
    winner: Option<String>,
    rounds: u32,
    down: Vec<bool>,
    ai_rejections: u32,
    ai_fallbacks: u32,
    /// A side took damage for two rounds running without moving, attacking or hiding.
    passive: bool,
}

fn simulate(level: &LoadedLevel, seed: u64, ai: &AiSetup) -> Result<SimRun, String> {
    let p = play_out_with(level, seed, None, ai)?;
    let (b, rejections) = (p.battle, p.rejections);
    Ok(SimRun {
        winner: match b.outcome() {
            Some(Outcome::Victory { side, .. }) => Some(side.clone()),
            _ => None,
        },
        rounds: b.round(),
        down: b.creatures().iter().map(|c| !c.can_act()).collect(),
        ai_rejections: rejections.ai,
        ai_fallbacks: p.fallbacks.count,
        passive: !b.sides_passive_under_fire().is_empty(),
    })
}

/// Wilson score interval for a proportion, 95%.
pub fn wilson(successes: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (p, n) = (successes as f64 / n as f64, n as f64);
    let z = 1.959964f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

pub struct SimArgs {
    pub level: String,
    pub runs: usize,
    pub seed: u64,
    pub jobs: usize,
    pub json: bool,
    pub ai: Vec<String>,
}

pub fn sim(a: &SimArgs) -> ExitCode {
    if a.runs == 0 || a.runs > 1_000_000 {
        return fail("--runs must be 1..=1000000");
    }
    if a.jobs == 0 || a.jobs > 256 {
        return fail("--jobs must be 1..=256");
    }
    let level = match load(&a.level) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    let setup = match super::side_profiles(&level, &a.ai) {
        Ok(side_profiles) => AiSetup { side_profiles, explain: false },
        Err(e) => return fail(&e),
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let progress = std::io::stderr().is_terminal() && !a.json;
    let started = std::time::Instant::now();
    let mut results: Vec<(u64, Result<SimRun, String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..a.jobs)
            .map(|j| {
                let level = &level;
                let done = &done;
                let setup = &setup;
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for k in (j..a.runs).step_by(a.jobs) {
                        let seed = a.seed.wrapping_add(k as u64);
                        out.push((seed, simulate(level, seed, setup)));
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        if progress && (n.is_multiple_of(10) || n == a.runs) {
                            let filled = n * 30 / a.runs;
                            eprint!("\r[{}{}] {n}/{}", "#".repeat(filled), ".".repeat(30 - filled), a.runs);
                        }
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("simulation thread")).collect()
    });
    if progress {
        eprintln!();
    }
    results.sort_by_key(|(seed, _)| *seed);
    let mut runs = Vec::with_capacity(results.len());
    for (seed, r) in results {
        match r {
            Ok(r) => runs.push(r),
            Err(e) => return fail(&format!("seed {seed}: {e}")),
        }
    }
    let n = runs.len();
    let sides: Vec<String> = level.level.sides.iter().map(|s| s.name.clone()).collect();
    let wins: Vec<usize> = sides.iter().map(|s| runs.iter().filter(|r| r.winner.as_ref() == Some(s)).count()).collect();
    let draws = runs.iter().filter(|r| r.winner.is_none()).count();
    let mut rounds: Vec<u32> = runs.iter().map(|r| r.rounds).collect();
    rounds.sort_unstable();
    let pct = |q: f64| rounds[((n - 1) as f64 * q).round() as usize];
    let mean = rounds.iter().map(|&r| r as f64).sum::<f64>() / n as f64;
    let probe = match Battle::new(&level, compendium(), a.seed) {
        Ok(b) => b,
        Err(e) => return fail(&e),
    };
    let intensity = probe.intensity_for(0).map_or("n/a", |i| i.name());
    let rejections: u32 = runs.iter().map(|r| r.ai_rejections).sum();
    let fallbacks: u32 = runs.iter().map(|r| r.ai_fallbacks).sum();
    let passive = runs.iter().filter(|r| r.passive).count();
    let elapsed = started.elapsed().as_secs_f64();
    if a.json {
        let wins_obj: serde_json::Map<String, serde_json::Value> =
            sides.iter().zip(&wins).map(|(s, w)| (s.clone(), serde_json::json!(w))).collect();
        let ci: serde_json::Map<String, serde_json::Value> = sides
            .iter()
            .zip(&wins)
            .map(|(s, &w)| {
                let (lo, hi) = wilson(w, n);
                (s.clone(), serde_json::json!([lo, hi]))
            })
            .collect();
        say(&format!(
            "{}",
            serde_json::json!({
                "runs": n,
                "wins": wins_obj,
                "draws": draws,
                "rounds_mean": mean,
                "rounds_p10": pct(0.1),
                "rounds_p50": pct(0.5),
                "rounds_p90": pct(0.9),
                "intensity": intensity,
                "ci95": ci,
                "ai_rejections": rejections,
                "ai_fallbacks": fallbacks,
                "passive_under_fire": passive,
                "seconds": elapsed,
            })
        ));
        return ExitCode::SUCCESS;
    }
    say(&format!(
        "{} — {n} AI-vs-AI battles, seeds {}..{}",
        escape_controls(&level.level.name),
        a.seed,
        a.seed.wrapping_add(n as u64 - 1)
    ));
    let shown: Vec<String> = sides.iter().map(|s| escape_controls(s).into_owned()).collect();
    say(&format!("Combat intensity (FLOW-2, seen from {}): {intensity}", shown[0]));
    for (s, &w) in shown.iter().zip(&wins) {
        let (lo, hi) = wilson(w, n);
        say(&format!(
            "  {s:<10} wins {w:>6} ({:5.1}%, 95% CI {:5.1}%–{:5.1}%)",
            100.0 * w as f64 / n as f64,
            100.0 * lo,
            100.0 * hi
        ));
    }
    say(&format!("  draws      {draws:>6} ({:5.1}%)", 100.0 * draws as f64 / n as f64));
    say(&format!("Rounds: mean {mean:.1}, p10 {}, p50 {}, p90 {}", pct(0.1), pct(0.5), pct(0.9)));
    say("Casualties (down at the end: unconscious, dead or fled):");
    for c in probe.creatures() {
        let k = runs.iter().filter(|r| r.down[c.id as usize]).count();
        say(&format!(
            "  {:<14} {:<8} {:5.1}%",
            escape_controls(&c.name),
            escape_controls(&probe.sides()[c.side].name),
            100.0 * k as f64 / n as f64
        ));
    }
    say(&format!(
        "Battles where a side took damage two rounds running without moving, attacking or hiding: {passive} ({:.1}%)",
        100.0 * passive as f64 / n as f64
    ));
    say(&format!(
        "AI commands rejected: {rejections}; AI fallbacks (planned commands the engine would refuse): {fallbacks}. \
         Time: {elapsed:.2} s with {} jobs.",
        a.jobs
    ));
    ExitCode::SUCCESS
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

/// One duel battle: the winner (0 = A, 1 = B, None = draw) and the AI fallbacks counted.
type DuelBattle = (Option<usize>, u32);

/// Mirrored AI-against-AI: half the battles with A on the first side, half on the second.
pub fn duel(d: &DuelArgs) -> ExitCode {
    if d.runs < 2 || d.runs > 1_000_000 || d.jobs == 0 || d.jobs > 256 {
        return fail("--runs must be 2..=1000000 and --jobs 1..=256");
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
                            let setup = AiSetup { side_profiles: Some(profiles), explain: false };
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
                                (winner, p.fallbacks.count)
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
    for (k, r) in results {
        match r {
            Ok((winner, f)) => {
                fallbacks += f;
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
        say(&format!("  AI fallbacks {fallbacks}; time {:.2} s with {} jobs", started.elapsed().as_secs_f64(), d.jobs));
    }
    ExitCode::SUCCESS
}
