//! A battle rebuilt from its log: the log is the save. Replaying re-submits every recorded
//! command to a fresh battle of the same level and seed and checks that each event the engine
//! produces is the one recorded, so a log that was edited, truncated mid-command or made by
//! other rules is refused with the first event that differs.

use super::state::Battle;
use super::types::{Event, LogEntry};
use crate::level::LoadedLevel;
use crate::level::compendium::Compendium;

impl Battle {
    /// The battle `recorded` (a whole log, every side's entries) leads to, from `level`.
    pub fn from_log(level: &LoadedLevel, compendium: &Compendium, recorded: &[LogEntry]) -> Result<Battle, String> {
        Battle::replay_with(level, compendium, recorded, |_| {})
    }

    /// The battle after each command of a full log, verified as [`Battle::from_log`] verifies it:
    /// `(entries of the log so far, the battle then)`, the start first. A replay viewer steps
    /// through these. At most `max` states are kept (a longer log is refused).
    pub fn states_of_log(
        level: &LoadedLevel,
        compendium: &Compendium,
        recorded: &[LogEntry],
        max: usize,
    ) -> Result<Vec<(usize, Battle)>, String> {
        let mut states = Vec::new();
        let mut too_long = false;
        let last = Battle::replay_with(level, compendium, recorded, |b| {
            if states.len() < max {
                states.push((b.log().len(), b.clone()));
            } else {
                too_long = true;
            }
        })?;
        if too_long {
            return Err(format!("the log holds more than {max} commands; a viewer keeps at most that many states"));
        }
        if states.last().is_none_or(|(n, _)| *n != last.log().len()) {
            states.push((last.log().len(), last));
        }
        Ok(states)
    }

    /// Replay a full log, calling `each` with the battle at the start and after every command.
    fn replay_with(
        level: &LoadedLevel,
        compendium: &Compendium,
        recorded: &[LogEntry],
        mut each: impl FnMut(&Battle),
    ) -> Result<Battle, String> {
        let Some(Event::BattleStarted { seed, .. }) = recorded.first().map(|e| &e.event) else {
            return Err("the log does not start with BattleStarted".into());
        };
        let mut battle = Battle::new(level, compendium, *seed)?;
        if recorded
            .iter()
            .any(|e| e.visible_to.len() < battle.sides().len() && matches!(e.event, Event::RoundStarted { .. }))
        {
            return Err("this is one side's view; a replay needs the full log (run without --side)".into());
        }
        let diverged = |at: usize, got: Option<&LogEntry>, want: Option<&LogEntry>| {
            let show = |e: Option<&LogEntry>| {
                e.map_or("(nothing)".to_string(), |e| serde_json::to_string(e).unwrap_or_default())
            };
            Err(format!("replay diverges at event {at}:\n  log:    {}\n  replay: {}", show(want), show(got)))
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
            each(&battle);
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
        Ok(battle)
    }
}
