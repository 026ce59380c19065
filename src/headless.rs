//! `check`, `run`, `replay`, `sim` and the no-display fallback of `play`: battles without a window.

use meshal_tactics::app::headless_app;
use meshal_tactics::battle::narrate::narrate;
use meshal_tactics::battle::script::{CommandScript, parse_script};
use meshal_tactics::battle::{ActiveBattle, Battle, Controller, Event, LogEntry, Outcome, Rejections, run_until_input};
use meshal_tactics::level::{LoadedLevel, builtin_compendium, load_level, parse_level};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

/// The level `cargo run` plays; compiled in so the fallback works from any directory.
pub const DEFAULT_LEVEL: (&str, &str) = ("levels/skirmish.level.ron", include_str!("../levels/skirmish.level.ron"));

fn fail(msg: &str) -> ExitCode {
    eprintln!("meshal-tactics: {msg}");
    ExitCode::from(2)
}

pub fn load(path: &str) -> Result<LoadedLevel, String> {
    if path == DEFAULT_LEVEL.0 && !Path::new(path).exists() {
        return parse_level(DEFAULT_LEVEL.0, DEFAULT_LEVEL.1, builtin_compendium()).map_err(|e| e.to_string());
    }
    load_level(Path::new(path), builtin_compendium()).map_err(|e| e.to_string())
}

pub fn check(paths: &[String]) -> ExitCode {
    let mut bad = 0;
    for p in paths {
        match load(p) {
            Ok(l) => println!(
                "ok    {p}: \"{}\", {}×{}, {} creatures, {} sides",
                l.level.name,
                l.map.width(),
                l.map.height(),
                l.level.creatures.len(),
                l.level.sides.len()
            ),
            Err(e) => {
                bad += 1;
                eprintln!("error {e}");
            }
        }
    }
    if bad > 0 { ExitCode::from(2) } else { ExitCode::SUCCESS }
}

/// How the AI plays a battle: per-side profile overrides, and whether to keep explanations.
#[derive(Default, Clone)]
pub struct AiSetup {
    pub side_profiles: Option<Vec<Option<String>>>,
    pub explain: bool,
}

pub struct PlayedOut {
    pub battle: Battle,
    pub rejections: Rejections,
    /// Planned AI commands the engine would have refused (replaced by the safety net).
    pub fallbacks: meshal_tactics::ai::AiFallbacks,
    pub explanations: Vec<(usize, meshal_tactics::battle::Explanation)>,
}

/// Play a battle to its end with the AI for every side the script does not play.
pub fn play_out(level: &LoadedLevel, seed: u64, script: Option<CommandScript>) -> Result<(Battle, Rejections), String> {
    let p = play_out_with(level, seed, script, &AiSetup::default())?;
    Ok((p.battle, p.rejections))
}

pub fn play_out_with(
    level: &LoadedLevel,
    seed: u64,
    script: Option<CommandScript>,
    ai: &AiSetup,
) -> Result<PlayedOut, String> {
    let battle = Battle::new(level, builtin_compendium(), seed)?;
    let mut controllers = vec![Controller::Ai; battle.sides().len()];
    if let Some(s) = &script {
        for &side in &s.sides {
            controllers[side] = Controller::Script;
        }
    }
    let mut app = headless_app(ActiveBattle { battle, controllers });
    if let Some(s) = script {
        app.insert_resource(s);
    }
    if let Some(p) = &ai.side_profiles {
        app.insert_resource(meshal_tactics::ai::SideProfiles(p.clone()));
    }
    if ai.explain {
        app.init_resource::<meshal_tactics::battle::Explanations>();
    }
    run_until_input(&mut app, 200_000);
    let world = app.world_mut();
    let rejections = world.remove_resource::<Rejections>().unwrap_or_default();
    let fallbacks = world.remove_resource::<meshal_tactics::ai::AiFallbacks>().unwrap_or_default();
    let explanations = world.remove_resource::<meshal_tactics::battle::Explanations>().map(|e| e.0).unwrap_or_default();
    let battle = world.remove_resource::<ActiveBattle>().expect("battle").battle;
    Ok(PlayedOut { battle, rejections, fallbacks, explanations })
}

pub struct RunArgs {
    pub level: String,
    pub seed: u64,
    pub commands: Option<String>,
    pub log: Option<String>,
    pub side: Option<String>,
    pub quiet: bool,
    pub explain: bool,
}

pub fn run(a: &RunArgs) -> ExitCode {
    let level = match load(&a.level) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    let script = match &a.commands {
        None => None,
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => return fail(&format!("{path}: {e}")),
            };
            let probe = match Battle::new(&level, builtin_compendium(), a.seed) {
                Ok(b) => b,
                Err(e) => return fail(&e),
            };
            match parse_script(path, &text, &probe) {
                Ok(s) => Some(s),
                Err(e) => return fail(&e),
            }
        }
    };
    if let Some(side) = &a.side
        && !level.level.sides.iter().any(|s| &s.name == side)
    {
        return fail(&format!("--side {side}: the level has no such side"));
    }
    let played = match play_out_with(&level, a.seed, script, &AiSetup { side_profiles: None, explain: a.explain }) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    let (battle, rejections) = (played.battle, played.rejections);
    let visible = |e: &&LogEntry| a.side.as_ref().is_none_or(|s| e.visible_to.contains(s));
    if let Some(path) = &a.log {
        let mut text = String::new();
        for e in battle.log().iter().filter(visible) {
            text.push_str(&serde_json::to_string(e).expect("events serialise"));
            text.push('\n');
        }
        // Write beside, then rename: a failed write never leaves half a log.
        let tmp = format!("{path}.tmp");
        if let Err(e) = std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, path)) {
            let _ = std::fs::remove_file(&tmp);
            return fail(&format!("{path}: {e}"));
        }
    }
    if !a.quiet {
        print_report(&battle, a.side.as_deref(), &played.explanations);
    }
    if rejections.ai > 0 {
        eprintln!("warning: the AI issued {} commands the engine rejected", rejections.ai);
    }
    ExitCode::SUCCESS
}

pub fn print_report(
    battle: &Battle,
    side: Option<&str>,
    explanations: &[(usize, meshal_tactics::battle::Explanation)],
) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{} (seed {})", battle.level_name(), battle.seed());
    let mut why = explanations.iter().peekable();
    for (i, e) in battle.log().iter().enumerate() {
        while let Some((at, ex)) = why.next_if(|(at, _)| *at <= i) {
            let _ = at;
            let who = &battle.fighter(ex.creature).name;
            let _ = writeln!(out, "  ? {who} weighs:");
            if ex.options.first().is_some_and(|o| o.expected_dealt == 0.0 && o.summary.contains(" against ")) {
                for o in &ex.options {
                    let _ = writeln!(
                        out,
                        "      {:<28} prevents {:>4.2}, lets through {:>4.2}",
                        o.summary, o.total, o.expected_taken
                    );
                }
                continue;
            }
            for o in &ex.options {
                let _ = writeln!(
                    out,
                    "      {:<28} score {:>6.2}  dealt {:>4.2}  taken {:>4.2}  rear-attack {}  AP kept {}",
                    o.summary,
                    o.total,
                    o.expected_dealt,
                    o.expected_taken,
                    if o.rear_attack { "yes" } else { "no " },
                    o.ap_kept
                );
            }
        }
        if side.is_some_and(|s| !e.visible_to.iter().any(|v| v == s)) {
            continue;
        }
        if let Some(line) = narrate(battle, &e.event) {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = writeln!(out, "\nStanding at the end:");
    for c in battle.creatures() {
        let state = match c.presence {
            meshal_tactics::battle::Presence::Dead => "dead".to_string(),
            meshal_tactics::battle::Presence::Fled => "fled".to_string(),
            meshal_tactics::battle::Presence::Waiting(r) => format!("never arrived (round {r})"),
            meshal_tactics::battle::Presence::Active if c.attrs.is_unconscious() => "unconscious".to_string(),
            meshal_tactics::battle::Presence::Active => "standing".to_string(),
        };
        let dice: Vec<String> = meshal_tactics::rules::creature::Attribute::ALL
            .iter()
            .map(|a| match c.attrs.pool(*a) {
                Some(p) => format!("{}/{}", p.current, p.max),
                None => "-".into(),
            })
            .collect();
        let _ =
            writeln!(out, "  {:<14} {:<8} {:<12} M/A/S {}", c.name, battle.sides()[c.side].name, state, dice.join(" "));
    }
}

/// Re-execute a log and verify every event; report the first divergence.
pub fn replay(path: &str) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return fail(&format!("{path}: {e}")),
    };
    let mut recorded = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match serde_json::from_str::<LogEntry>(line) {
            Ok(e) => recorded.push(e),
            Err(e) => return fail(&format!("{path}:{}: not a log entry: {e}", i + 1)),
        }
    }
    let Some(Event::BattleStarted { level, seed }) = recorded.first().map(|e| &e.event) else {
        return fail(&format!("{path}: the log does not start with BattleStarted"));
    };
    let level = match load(level) {
        Ok(l) => l,
        Err(e) => return fail(&format!("{path}: the log's level: {e}")),
    };
    let mut battle = match Battle::new(&level, builtin_compendium(), *seed) {
        Ok(b) => b,
        Err(e) => return fail(&e),
    };
    if recorded
        .iter()
        .any(|e| e.visible_to.len() < battle.sides().len() && matches!(e.event, Event::RoundStarted { .. }))
    {
        return fail(&format!("{path}: this is one side's view; replay needs the full log (run without --side)"));
    }
    let diverged = |at: usize, got: Option<&LogEntry>, want: Option<&LogEntry>| {
        let show =
            |e: Option<&LogEntry>| e.map_or("(nothing)".to_string(), |e| serde_json::to_string(e).unwrap_or_default());
        eprintln!("replay diverges at event {at}:\n  log:    {}\n  replay: {}", show(want), show(got));
        ExitCode::from(1)
    };
    let mut i = 0;
    loop {
        // Everything the engine produced so far must match the record.
        while i < battle.log().len() {
            if recorded.get(i) != Some(&battle.log()[i]) {
                return diverged(i, battle.log().get(i), recorded.get(i));
            }
            i += 1;
        }
        let Some(next) = recorded.get(i) else { break };
        let (creature, command) = match &next.event {
            Event::CommandAccepted { creature, command } | Event::CommandRejected { creature, command, .. } => {
                (*creature, command.clone())
            }
            _ => return diverged(i, None, Some(next)),
        };
        let _ = battle.submit(creature, command);
    }
    if battle.log().len() != recorded.len() {
        return diverged(recorded.len(), battle.log().get(recorded.len()), None);
    }
    println!("replay ok: {} events verified ({})", recorded.len(), summary(&battle));
    ExitCode::SUCCESS
}

fn summary(b: &Battle) -> String {
    match b.outcome() {
        Some(Outcome::Victory { side, reason }) => format!("{side} wins: {reason}, round {}", b.round()),
        Some(Outcome::Draw { reason }) => format!("draw: {reason}"),
        None => format!("unfinished at round {}", b.round()),
    }
}

struct SimRun {
    winner: Option<String>,
    rounds: u32,
    down: Vec<bool>,
    ai_rejections: u32,
    ai_fallbacks: u32,
}

fn simulate(level: &LoadedLevel, seed: u64) -> Result<SimRun, String> {
    let p = play_out_with(level, seed, None, &AiSetup::default())?;
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
    let done = std::sync::atomic::AtomicUsize::new(0);
    let progress = std::io::stderr().is_terminal() && !a.json;
    let started = std::time::Instant::now();
    let mut results: Vec<(u64, Result<SimRun, String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..a.jobs)
            .map(|j| {
                let level = &level;
                let done = &done;
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for k in (j..a.runs).step_by(a.jobs) {
                        let seed = a.seed.wrapping_add(k as u64);
                        out.push((seed, simulate(level, seed)));
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
    let probe = Battle::new(&level, builtin_compendium(), a.seed).expect("level loads");
    let intensity = probe.intensity_for(0).map_or("n/a", |i| i.name());
    let rejections: u32 = runs.iter().map(|r| r.ai_rejections).sum();
    let fallbacks: u32 = runs.iter().map(|r| r.ai_fallbacks).sum();
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
        println!(
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
                "seconds": elapsed,
            })
        );
        return ExitCode::SUCCESS;
    }
    println!("{} — {n} AI-vs-AI battles, seeds {}..{}", level.level.name, a.seed, a.seed + n as u64 - 1);
    println!("Combat intensity (FLOW-2, seen from {}): {intensity}", sides[0]);
    for (s, &w) in sides.iter().zip(&wins) {
        let (lo, hi) = wilson(w, n);
        println!(
            "  {s:<10} wins {w:>6} ({:5.1}%, 95% CI {:5.1}%–{:5.1}%)",
            100.0 * w as f64 / n as f64,
            100.0 * lo,
            100.0 * hi
        );
    }
    println!("  draws      {draws:>6} ({:5.1}%)", 100.0 * draws as f64 / n as f64);
    println!("Rounds: mean {mean:.1}, p10 {}, p50 {}, p90 {}", pct(0.1), pct(0.5), pct(0.9));
    println!("Casualties (down at the end: unconscious, dead or fled):");
    for c in probe.creatures() {
        let k = runs.iter().filter(|r| r.down[c.id as usize]).count();
        println!("  {:<14} {:<8} {:5.1}%", c.name, probe.sides()[c.side].name, 100.0 * k as f64 / n as f64);
    }
    println!(
        "AI commands rejected: {rejections}; AI fallbacks (planned commands the engine would refuse): {fallbacks}. \
         Time: {elapsed:.2} s with {} jobs.",
        a.jobs
    );
    ExitCode::SUCCESS
}

/// Whether a window could open here.
pub fn display_available() -> bool {
    std::env::var_os("DISPLAY").is_some_and(|v| !v.is_empty())
}

/// A seed for battles nobody asked to repeat (printed, so they can be).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs() % 100_000)
}

pub fn play_fallback(level_path: &str, why: &str) -> ExitCode {
    let seed = clock_seed();
    eprintln!("meshal-tactics: {why}");
    eprintln!(
        "Running a headless AI-vs-AI battle of {level_path} instead (seed {seed}; \
         repeat it with `meshal-tactics run {level_path} --seed {seed}`).\n"
    );
    run(&RunArgs {
        level: level_path.to_string(),
        seed,
        commands: None,
        log: None,
        side: None,
        quiet: false,
        explain: false,
    })
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
        if !builtin_compendium().ai_profiles.contains_key(p) {
            let known: Vec<&String> = builtin_compendium().ai_profiles.keys().collect();
            return fail(&format!("unknown AI profile '{p}' (known: {known:?})"));
        }
    }
    let started = std::time::Instant::now();
    // Run k: A plays side k % 2; battles k and k+1 share a seed, so each seed is played both ways.
    let results: Vec<(usize, Result<(Option<usize>, u32), String>)> = std::thread::scope(|scope| {
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
                                    eprintln!("warning: seed {seed}: {} AI commands rejected", p.rejections.ai);
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
        println!(
            "{}",
            serde_json::json!({
                "runs": n, "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
                "a_win_rate": rate, "ci95": [lo, hi], "ai_fallbacks": fallbacks,
                "seconds": started.elapsed().as_secs_f64(),
            })
        );
    } else {
        println!("{} — {} (A) against {} (B), {n} mirrored battles", level.level.name, d.a, d.b);
        println!(
            "  A wins {a_wins} ({:.1}%, 95% CI {:.1}%–{:.1}%), B wins {b_wins}, draws {draws}",
            100.0 * rate,
            100.0 * lo,
            100.0 * hi
        );
        println!("  AI fallbacks {fallbacks}; time {:.2} s with {} jobs", started.elapsed().as_secs_f64(), d.jobs);
    }
    ExitCode::SUCCESS
}
