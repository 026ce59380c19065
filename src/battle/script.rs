//! Command scripts (`run --commands FILE`): a RON list of `(actor: "Name", command: …)`.
//!
//! Every creature named as an actor is scripted: it takes its decisions from the script, in
//! order; the rest of its side is played as the level says (the AI, unless a creature or its
//! side is human), so a GM can pin one creature and let the AI play the others. When a scripted
//! creature must decide and the next entry is not its own (or the script has run out), it ends
//! its turn or declines the reaction window; in a
//! reaction window only a reaction entry (Defend, QuickStep, CounterAttack, Pass) is taken, and
//! in a Fate window (DICE-13, offered to the sides `run --fate SIDE` names) only a Fate entry,
//! so a window nobody planned for does not swallow the creature's next turn. An entry whose actor is down or gone when it comes up is skipped and reported
//! (`CommandScript::skipped`), so it cannot block the rest of the script.
//!
//! ```ron
//! [
//!     (actor: "Aldo", command: Move(path: [(x: 2, y: 3), (x: 3, y: 3)], face: Some(E))),
//!     (actor: "Aldo", command: Attack(weapon: "sword", target: Creature(1))),
//!     (actor: "Bryn", command: Defend(defense: Some(Dodge))),
//!     (actor: "Aldo", command: EndTurn),
//! ]
//! ```
//! Creatures are targeted by their index in the level's `creatures` list.

use super::{ActiveBattle, Battle, Command, Controller, CreatureId, IssueCommand, Presence, WindowKind};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptEntry {
    pub actor: String,
    pub command: Command,
}

/// The script being played.
#[derive(Resource, Clone, Debug, Default)]
pub struct CommandScript {
    /// (entry number from 1, actor, command), in order.
    pub entries: VecDeque<(usize, CreatureId, Command)>,
    /// The creatures the script plays (each named by at least one entry).
    pub actors: Vec<CreatureId>,
    /// Entries that could never run because their actor was down or gone when they came up:
    /// skipped so that the rest of the script goes on, and reported.
    pub skipped: Vec<String>,
}

/// Most entries a script may hold.
pub const MAX_ENTRIES: usize = 100_000;

/// The longest command a script may give, as the log writes it (JSON): far above any command
/// the rules accept (a move's path, a curve's bends), and well inside a log line
/// (`MAX_LOG_LINE`), so that a log `run` writes always replays. A move of 180,000 squares
/// was refused when played, but its entry in the log was too long for `replay` to read.
pub const MAX_COMMAND_BYTES: usize = 64 * 1024;

/// Parse a script against a battle (names → creatures); errors name line and column.
pub fn parse_script(file: &str, text: &str, battle: &Battle) -> Result<CommandScript, String> {
    let entries: Vec<ScriptEntry> = ron::from_str(text).map_err(|e| crate::level::ron_error(file, &e).to_string())?;
    if entries.len() > MAX_ENTRIES {
        return Err(format!("{file}: {} entries; a script may hold at most {MAX_ENTRIES}", entries.len()));
    }
    let mut script = CommandScript::default();
    // The entry's `actor:` as written (not a name in a comment, nor one with escapes).
    let entry_at = |i: usize| {
        let at = crate::level::Locator::new(file, text).find_nth("actor:", 0, i).unwrap_or(0);
        let (line, column) = crate::level::line_col(text, at);
        format!("{file}:{line}:{column}: entry {}", i + 1)
    };
    for (i, e) in entries.into_iter().enumerate() {
        let Some(id) = battle.find(&e.actor) else {
            let name = crate::files::escape_controls(&e.actor);
            return Err(format!("{}: names unknown creature \"{name}\"", entry_at(i)));
        };
        let bytes = serde_json::to_string(&e.command).map_or(usize::MAX, |json| json.len());
        if bytes > MAX_COMMAND_BYTES {
            return Err(format!(
                "{}: a command of {bytes} bytes as the log writes it; a command is at most {MAX_COMMAND_BYTES} \
                 (no move or curve the rules allow comes near it)",
                entry_at(i)
            ));
        }
        if !script.actors.contains(&id) {
            script.actors.push(id);
        }
        script.entries.push_back((i + 1, id, e.command));
    }
    Ok(script)
}

pub(super) fn feed_script(
    battle: Option<Res<ActiveBattle>>,
    script: Option<ResMut<CommandScript>>,
    mut out: MessageWriter<IssueCommand>,
) {
    let (Some(battle), Some(mut script)) = (battle, script) else { return };
    let Some((creature, window)) = battle.awaiting_from(Controller::Script) else { return };
    // A Fate window (DICE-13) takes only a Fate entry, so that a Pass meant for a reaction
    // window is not spent on keeping a roll.
    let takes = |c: &Command| match window {
        None => true,
        Some(WindowKind::Fate) => matches!(c, Command::Fate { .. }),
        Some(_) => {
            matches!(
                c,
                Command::Defend { .. } | Command::QuickStep { .. } | Command::CounterAttack { .. } | Command::Pass
            )
        }
    };
    // An entry whose actor is down or gone can never run: report it and go on, rather than
    // let it block every later entry.
    while let Some((n, actor, command)) = script.entries.front().cloned() {
        let f = battle.battle.fighter(actor);
        if f.can_act() || matches!(f.presence, Presence::Waiting(_)) {
            break;
        }
        script.entries.pop_front();
        let state = if f.is_active() { "unconscious" } else { "gone from the battle" };
        let what = super::narrate::describe_command(&battle.battle, &command);
        script.skipped.push(format!("script entry {n} ({}: {what}) skipped: {} is {state}", f.name, f.name));
    }
    let command = match script.entries.front() {
        // In a reaction window only a reaction entry is taken; a turn's entry waits for the turn.
        Some((_, actor, next)) if *actor == creature && takes(next) => script.entries.pop_front().expect("front").2,
        _ => match window {
            None => Command::EndTurn,
            Some(WindowKind::Defense) => Command::Defend { defense: None },
            Some(WindowKind::BeforeAttack | WindowKind::Fate) => Command::Pass,
        },
    };
    out.write(IssueCommand { creature, command });
}
