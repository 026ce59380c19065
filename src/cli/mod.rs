//! The commands that run without a window: `check`, `run`, `replay`, `sim`, `duel`, and the
//! no-display fallback of `play`. Everything printed goes through [`say`] / [`warn`], which
//! escape control characters: names and reasons come from files.

pub mod batch;
pub mod run;
pub mod tools;

use meshal_tactics::files::escape_controls;
use meshal_tactics::level::compendium::Compendium;
use meshal_tactics::level::{LoadedLevel, builtin_compendium, load_level, parse_level};
use std::path::Path;
use std::process::ExitCode;
use std::sync::OnceLock;

/// The level `cargo run` plays; compiled in so the fallback works from any directory.
pub const DEFAULT_LEVEL: (&str, &str) = ("levels/skirmish.level.ron", include_str!("../../levels/skirmish.level.ron"));

static COMPENDIUM: OnceLock<Compendium> = OnceLock::new();

/// Add a compendium file's entries to the built-in ones for this run (`--compendium`).
pub fn use_compendium(path: &str) -> Result<(), String> {
    use meshal_tactics::level::compendium::{load_file_text, locate};
    let (extra, text) = load_file_text(Path::new(path))?;
    let mut all = builtin_compendium().clone();
    all.merge(extra).map_err(|e| locate(path, &text, &e))?;
    all.validate().map_err(|e| locate(path, &text, &e))?;
    COMPENDIUM.set(all).map_err(|_| "only one --compendium may be given".to_string())
}

/// The compendium levels are checked and played with.
pub fn compendium() -> &'static Compendium {
    COMPENDIUM.get().unwrap_or_else(|| builtin_compendium())
}

/// Print lines on stdout, control characters escaped.
pub fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    for line in text.lines() {
        let _ = writeln!(out, "{}", escape_controls(line));
    }
}

/// Print lines on stderr, control characters escaped.
pub fn warn(text: &str) {
    for line in text.lines() {
        eprintln!("{}", escape_controls(line));
    }
}

/// The one-line failure of a command: exit 2.
pub fn fail(msg: &str) -> ExitCode {
    // One line: a line break in the message (from a file) is escaped like any control.
    eprintln!("meshal-tactics: {}", escape_controls(msg));
    ExitCode::from(2)
}

pub fn load(path: &str) -> Result<LoadedLevel, String> {
    if path == DEFAULT_LEVEL.0 && !Path::new(path).exists() {
        return parse_level(DEFAULT_LEVEL.0, DEFAULT_LEVEL.1, compendium()).map_err(|e| e.to_string());
    }
    load_level(Path::new(path), compendium()).map_err(|e| e.to_string())
}

pub fn check(paths: &[String]) -> ExitCode {
    let mut bad = 0;
    for p in paths {
        match load(p) {
            Ok(l) => say(&format!(
                "ok    {p}: \"{}\", {}×{}, {} creatures, {} sides",
                escape_controls(&l.level.name),
                l.map.width(),
                l.map.height(),
                l.level.creatures.len(),
                l.level.sides.len()
            )),
            Err(e) => {
                bad += 1;
                eprintln!("error {}", escape_controls(&e));
            }
        }
    }
    if bad > 0 { ExitCode::from(2) } else { ExitCode::SUCCESS }
}

/// `--ai` values: `PROFILE` for every side, or `SIDE=PROFILE`; checked against the level's
/// sides and the compendium's profiles. None when none is given.
pub fn side_profiles(level: &LoadedLevel, specs: &[String]) -> Result<Option<Vec<Option<String>>>, String> {
    if specs.is_empty() {
        return Ok(None);
    }
    let sides = &level.level.sides;
    let mut out = vec![None; sides.len()];
    for spec in specs {
        let (side, profile) = match spec.split_once('=') {
            Some((s, p)) => (Some(s), p),
            None => (None, spec.as_str()),
        };
        if !compendium().ai_profiles.contains_key(profile) {
            let known: Vec<&String> = compendium().ai_profiles.keys().collect();
            return Err(format!("--ai {spec}: unknown AI profile '{profile}' (known: {known:?})"));
        }
        match side {
            None => out.iter_mut().for_each(|o| *o = Some(profile.to_string())),
            Some(name) => {
                let Some(k) = sides.iter().position(|s| s.name == name) else {
                    let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
                    return Err(format!("--ai {spec}: the level has no side \"{name}\" (sides: {})", names.join(", ")));
                };
                out[k] = Some(profile.to_string());
            }
        }
    }
    Ok(Some(out))
}

/// Whether a window could open here.
pub fn display_available() -> bool {
    std::env::var_os("DISPLAY").is_some_and(|v| !v.is_empty())
}

/// A seed for battles nobody asked to repeat (printed, so they can be).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs() % 100_000)
}

/// A number as a person reads it: as written when short, else in scientific notation (an
/// angle or an interval of 1e-300 was printed with three hundred digits).
pub fn short_number(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() <= 12 { plain } else { format!("{x:.3e}") }
}

/// A word as a shell reads it back: as it is when plain, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The headless report in place of the window, with the seed and AI profiles asked for.
pub fn play_fallback(level_path: &str, why: &str, seed: u64, ai: &[String]) -> ExitCode {
    warn(&format!("meshal-tactics: {why}"));
    let profiles: String = ai.iter().map(|a| format!(" --ai {}", shell_word(a))).collect();
    warn(&format!(
        "Running a headless AI-vs-AI battle of {level_path} instead (seed {seed}; \
         repeat it with `meshal-tactics run {} --seed {seed}{profiles}`).\n",
        shell_word(level_path)
    ));
    run::run(&run::RunArgs {
        level: level_path.to_string(),
        seed,
        commands: None,
        log: None,
        side: None,
        quiet: false,
        explain: false,
        ai: ai.to_vec(),
        fate: Vec::new(),
    })
}

/// `--actor NAME` as a creature of the level, and `--ready WEAPON` as one of the weapons of the
/// creature that will be in turn; each refused with what the level offers.
pub fn staged_actor(
    level: &meshal_tactics::level::LoadedLevel,
    path: &str,
    actor: Option<&str>,
    ready: Option<&str>,
) -> Result<Option<meshal_tactics::battle::CreatureId>, String> {
    if actor.is_none() && ready.is_none() {
        return Ok(None);
    }
    let mut b = meshal_tactics::battle::Battle::new(level, compendium(), 1).map_err(|e| format!("{path}: {e}"))?;
    let id = match actor {
        Some(name) => match b.creatures().iter().find(|c| c.name == name) {
            Some(c) => Some(c.id),
            None => {
                let names: Vec<&str> = b.creatures().iter().map(|c| c.name.as_str()).collect();
                return Err(format!("--actor {name}: {path} has no such creature ({})", names.join(", ")));
            }
        },
        None => None,
    };
    if let Some(id) = id {
        b.skip_to_turn_of(id).map_err(|r| format!("--actor: {r}"))?;
    }
    if let Some(w) = ready {
        let Some((who, _)) = b.awaiting() else { return Err("--ready: nobody is in turn".into()) };
        let f = b.fighter(who);
        if f.weapon(w).is_none() {
            let keys: Vec<&str> = f.weapons.iter().map(|a| a.key.as_str()).collect();
            return Err(format!("--ready {w}: {} has no such weapon ({})", f.name, keys.join(", ")));
        }
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_number_is_printed_short() {
        assert_eq!(super::short_number(90.0), "90");
        assert_eq!(super::short_number(22.5), "22.5");
        assert_eq!(super::short_number(1e-300), "1.000e-300");
        assert_eq!(super::short_number(1e300), "1.000e300");
    }

    #[test]
    fn a_word_is_quoted_as_a_shell_reads_it_back() {
        assert_eq!(super::shell_word("levels/duel.level.ron"), "levels/duel.level.ron");
        assert_eq!(super::shell_word("Blue=hard"), "Blue=hard");
        assert_eq!(super::shell_word("Blue Side=hard"), "'Blue Side=hard'");
        assert_eq!(super::shell_word("it's"), "'it'\\''s'");
        assert_eq!(super::shell_word(""), "''");
    }
}
