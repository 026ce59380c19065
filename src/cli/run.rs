//! `run` and `replay`: one battle, its report and its log.

use super::{compendium, fail, load, say, warn};
pub use meshal_tactics::balance::{AiSetup, PlayedOut};
use meshal_tactics::battle::narrate::narrate;
use meshal_tactics::battle::script::{CommandScript, parse_script};
use meshal_tactics::battle::{Battle, Event, Explanation, LogEntry, Outcome, Presence};
use meshal_tactics::files::{FileKind, escape_controls, read_text, write_atomically};
use meshal_tactics::level::LoadedLevel;
use meshal_tactics::rules::creature::Attribute;
use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

/// Play a battle to its end with the AI for every side the script does not play.
pub fn play_out_with(
    level: &LoadedLevel,
    seed: u64,
    script: Option<CommandScript>,
    ai: &AiSetup,
) -> Result<PlayedOut, String> {
    meshal_tactics::balance::play_out(level, compendium(), seed, script, ai)
}

pub struct RunArgs {
    pub level: String,
    pub seed: u64,
    pub commands: Option<String>,
    pub log: Option<String>,
    pub side: Option<String>,
    pub quiet: bool,
    pub explain: bool,
    pub ai: Vec<String>,
    /// `--fate SIDE`: sides played as by a person, offered Expense of Fate (DICE-13).
    pub fate: Vec<String>,
}

pub fn run(a: &RunArgs) -> ExitCode {
    let level = match load(&a.level) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    let script = match &a.commands {
        None => None,
        Some(path) => {
            let text = match read_text(Path::new(path), FileKind::Script) {
                Ok(t) => t,
                Err(e) => return fail(&e.to_string()),
            };
            let probe = match Battle::new(&level, compendium(), a.seed) {
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
    if let Some(side) = a.fate.iter().find(|s| !level.level.sides.iter().any(|l| &l.name == *s)) {
        return fail(&format!("--fate {side}: the level has no such side"));
    }
    let side_profiles = match super::side_profiles(&level, &a.ai) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let played = match play_out_with(
        &level,
        a.seed,
        script,
        &AiSetup { side_profiles, explain: a.explain, players: a.fate.clone() },
    ) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    let (battle, rejections) = (&played.battle, &played.rejections);
    let visible = |e: &&LogEntry| a.side.as_ref().is_none_or(|s| e.visible_to.contains(s));
    if let Some(path) = &a.log {
        let mut text = String::new();
        for e in battle.log().iter().filter(visible) {
            text.push_str(&serde_json::to_string(e).expect("events serialise"));
            text.push('\n');
        }
        // A failed write never leaves half a log, nor touches what a planted symlink names.
        if let Err(e) = write_atomically(Path::new(path), text.as_bytes()) {
            return fail(&e.to_string());
        }
    }
    if !a.quiet {
        print_report(battle, a.side.as_deref(), &played.explanations);
    }
    for s in &played.skipped {
        warn(&format!("warning: {s}"));
    }
    if rejections.ai > 0 || played.fallbacks.count > 0 {
        warn(&format!(
            "warning: the engine rejected {} AI commands; the AI planned {} commands it had to replace",
            rejections.ai, played.fallbacks.count
        ));
        for (creature, command, why) in &played.fallbacks.examples {
            let name = escape_controls(&battle.fighter(*creature).name);
            let what = meshal_tactics::battle::narrate::describe_command(battle, command);
            warn(&format!("  {name}: {what} refused: {why}"));
        }
    }
    ExitCode::SUCCESS
}

/// The battle's story: every event (only what `side` may see, if given), the AI's weighed
/// options (only its own side's), and who stands at the end (only what the side knows).
pub fn print_report(battle: &Battle, side: Option<&str>, explanations: &[(usize, Explanation)]) {
    let viewer = side.and_then(|s| battle.side_index(s));
    let mut out = String::new();
    let _ = writeln!(out, "{} (seed {})", escape_controls(battle.level_name()), battle.seed());
    let mut why = explanations.iter().peekable();
    for (i, e) in battle.log().iter().enumerate() {
        while let Some((_, ex)) = why.next_if(|(at, _)| *at <= i) {
            if viewer.is_some_and(|v| battle.fighter(ex.creature).side != v) {
                continue;
            }
            explain_lines(&mut out, battle, ex);
        }
        // A side's view, or the whole record (which skips the sides' partial views).
        let shown = match side {
            Some(s) => e.visible_to.iter().any(|v| v == s),
            None => !e.partial,
        };
        if !shown {
            continue;
        }
        if let Some(line) = narrate(battle, &e.event) {
            // Reasons quote names: the whole line is escaped, line breaks included.
            let _ = writeln!(out, "{}", escape_controls(&line));
        }
    }
    // The AI's stall `sim` counts, shown where it happened (the whole record only: a side's
    // view must not learn of blows it did not see).
    if side.is_none() {
        for (s, r) in battle.passive_stretches() {
            let name = &battle.sides()[s].name;
            let _ = writeln!(
                out,
                "\n{name} took damage in rounds {} and {r} without moving, attacking, hiding or trying to flee",
                r - 1
            );
        }
    }
    let _ = writeln!(out, "\nStanding at the end{}:", side.map_or(String::new(), |s| format!(", as {s} knows it")));
    for c in battle.creatures() {
        let known = viewer.is_none_or(|v| c.side == v || battle.shown_to(v, c.id));
        let state = match c.presence {
            _ if !known => match viewer.and_then(|v| battle.last_seen(v, c.id)) {
                Some(p) => format!("unseen (last seen at {p})"),
                None => "unseen".to_string(),
            },
            Presence::Dead => "dead".to_string(),
            Presence::Fled => "fled".to_string(),
            Presence::Carried(by) => format!("carried by {}", battle.fighter(by).name),
            Presence::Waiting(r) => format!("never arrived (round {r})"),
            Presence::Active if c.attrs.is_unconscious() => "unconscious".to_string(),
            Presence::Active => "standing".to_string(),
        };
        let dice: Vec<String> = Attribute::ALL
            .iter()
            .map(|a| match c.attrs.pool(*a) {
                Some(p) if known => format!("{}/{}", p.current, p.max),
                Some(_) => "?".into(),
                None => "-".into(),
            })
            .collect();
        let _ =
            writeln!(out, "  {:<14} {:<8} {:<12} M/A/S {}", c.name, battle.sides()[c.side].name, state, dice.join(" "));
    }
    say(&out);
}

fn explain_lines(out: &mut String, battle: &Battle, ex: &Explanation) {
    let who = escape_controls(&battle.fighter(ex.creature).name);
    let _ = writeln!(out, "  ? {who} weighs:");
    if ex.options.first().is_some_and(|o| o.expected_dealt == 0.0 && o.summary.contains(" against ")) {
        for o in &ex.options {
            let _ = writeln!(
                out,
                "      {:<28} prevents {:>4.2}, lets through {:>4.2}",
                o.summary, o.total, o.expected_taken
            );
        }
        return;
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
    for line in ex.look_ahead.iter().flat_map(|l| l.lines()) {
        let _ = writeln!(out, "      {}", escape_controls(&line));
    }
}

/// Re-execute a log and verify every event; report the first divergence.
pub fn replay(path: &str) -> ExitCode {
    let text = match read_text(Path::new(path), FileKind::Log) {
        Ok(t) => t,
        Err(e) => return fail(&e.to_string()),
    };
    let recorded = match meshal_tactics::battle::parse_log(path, &text) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    let Some(Event::BattleStarted { level, .. }) = recorded.first().map(|e| &e.event) else {
        return fail(&format!("{path}: the log does not start with BattleStarted"));
    };
    let level = match load(level) {
        Ok(l) => l,
        Err(e) => return fail(&format!("{path}: the log's level: {e}")),
    };
    let battle = match Battle::from_log(&level, compendium(), &recorded) {
        Ok(b) => b,
        Err(e) if e.starts_with("replay diverges") => {
            warn(&e);
            return ExitCode::from(1);
        }
        Err(e) => return fail(&format!("{path}: {e}")),
    };
    say(&format!("replay ok: {} events verified ({})", recorded.len(), summary(&battle)));
    ExitCode::SUCCESS
}

fn summary(b: &Battle) -> String {
    match b.outcome() {
        Some(Outcome::Victory { side, reason }) => format!("{side} wins: {reason}, round {}", b.round()),
        Some(Outcome::Draw { reason }) => format!("draw: {reason}"),
        None => format!("unfinished at round {}", b.round()),
    }
}
