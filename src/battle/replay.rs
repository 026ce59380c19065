//! A battle rebuilt from its log: the log is the save. Replaying re-submits every recorded
//! command to a fresh battle of the same level and seed and checks that each event the engine
//! produces is the one recorded, so a log that was edited, truncated mid-command or made by
//! other rules is refused with the first event that differs.

use super::state::Battle;
use super::types::{Event, LogEntry};
use crate::level::LoadedLevel;
use crate::level::compendium::Compendium;

/// The longest line a log may hold: far above any entry a battle writes (a long path, every
/// side's name), and small enough that one line cannot make its reader allocate gigabytes (a
/// 240 MB line naming 60 million sides took 4 GB to parse).
pub const MAX_LOG_LINE: usize = 1 << 20;

/// The entries of a JSON-lines log (`shown` names the file in errors, with the line).
pub fn parse_log(shown: &str, text: &str) -> Result<Vec<LogEntry>, String> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        if line.len() > MAX_LOG_LINE {
            return Err(format!(
                "{shown}:{}: a line of {} bytes; a log entry is at most {MAX_LOG_LINE}",
                i + 1,
                line.len()
            ));
        }
        entries.push(
            serde_json::from_str::<LogEntry>(line).map_err(|e| format!("{shown}:{}: not a log entry: {e}", i + 1))?,
        );
    }
    Ok(entries)
}

impl Battle {
    /// The battle `recorded` (a whole log, every side's entries) leads to, from `level`.
    pub fn from_log(level: &LoadedLevel, compendium: &Compendium, recorded: &[LogEntry]) -> Result<Battle, String> {
        Battle::replay_with(level, compendium, recorded, |_| {})
    }

    /// A full log replayed (and verified as [`Battle::from_log`] verifies it) into what a
    /// viewer needs to show the battle after any of its commands: where each command's events
    /// end, and a checkpoint every [`CHECKPOINT_EVERY`] commands. Memory stays linear in the log
    /// (a checkpoint holds no log of its own); a state between checkpoints is replayed from the
    /// one before (a few dozen commands, microseconds each).
    pub fn log_states(
        level: &LoadedLevel,
        compendium: &Compendium,
        recorded: &[LogEntry],
    ) -> Result<LogStates, String> {
        let mut boundaries = Vec::new();
        let mut checkpoints = Vec::new();
        Battle::replay_with(level, compendium, recorded, |b| {
            if boundaries.len() % CHECKPOINT_EVERY == 0 {
                checkpoints.push((b.log.len(), b.without_log()));
            }
            boundaries.push(b.log.len());
        })?;
        Ok(LogStates { boundaries, checkpoints, recorded: recorded.to_vec() })
    }

    /// A copy of the battle with an empty log (its events live elsewhere), without copying it.
    fn without_log(&mut self) -> Battle {
        let log = std::mem::take(&mut self.log);
        let copy = self.clone();
        self.log = log;
        copy
    }

    /// Replay a full log, calling `each` with the battle at the start and after every command.
    fn replay_with(
        level: &LoadedLevel,
        compendium: &Compendium,
        recorded: &[LogEntry],
        mut each: impl FnMut(&mut Battle),
    ) -> Result<Battle, String> {
        let Some(Event::BattleStarted { seed, fate, .. }) = recorded.first().map(|e| &e.event) else {
            return Err("the log does not start with BattleStarted".into());
        };
        let mut battle = Battle::with_players(level, compendium, *seed, fate)?;
        check_numbering(&battle, recorded)?;
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
            each(&mut battle);
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

/// A whole log numbers its entries 0, 1, 2, …; one that skips numbers lacks events. Where every
/// entry is one that a single side saw, it is that side's view (`run --side S --log`), which
/// cannot be replayed: the other sides' commands are not in it. Said so here, rather than as a
/// divergence at the first event that side did not see.
fn check_numbering(battle: &Battle, recorded: &[LogEntry]) -> Result<(), String> {
    let Some((at, entry)) = recorded.iter().enumerate().find(|(i, e)| e.seq as usize != *i) else {
        return Ok(());
    };
    let sides = battle.sides();
    let viewer = sides.iter().find(|s| recorded.iter().all(|e| e.visible_to.contains(&s.name)));
    match viewer {
        Some(side) if sides.len() > 1 => Err(format!(
            "this log holds only what {0} saw (its entry {at} is event {1}; every entry is one {0} saw): \
             it is one side's view, as `run --side {0} --log` writes it; a replay needs the whole log \
             (`run --log` without `--side`)",
            side.name, entry.seq
        )),
        _ => Err(format!(
            "replay diverges at event {at}: the log's entry {at} is numbered {}; events are missing or \
             out of order (a log cut or edited)",
            entry.seq
        )),
    }
}

/// Commands between two checkpoints of [`LogStates`].
pub const CHECKPOINT_EVERY: usize = 32;

/// A verified log and the means to rebuild the battle after any of its commands.
#[derive(Clone)]
pub struct LogStates {
    /// Log length after each command (the start first).
    boundaries: Vec<usize>,
    /// (log length, the battle then, without its log), every [`CHECKPOINT_EVERY`] commands.
    checkpoints: Vec<(usize, Battle)>,
    recorded: Vec<LogEntry>,
}

impl LogStates {
    pub fn log(&self) -> &[LogEntry] {
        &self.recorded
    }

    /// The log length after the command that entry `k` belongs to (the start's events belong
    /// to the start).
    pub fn boundary_of(&self, k: usize) -> usize {
        let i = self.boundaries.partition_point(|&n| n <= k);
        self.boundaries[i.min(self.boundaries.len() - 1)]
    }

    /// The battle once the log had `len` entries (`len` a boundary), its log holding only the
    /// entries since the checkpoint it was rebuilt from.
    pub fn battle_at(&self, len: usize) -> Battle {
        let c = self.checkpoints.partition_point(|(n, _)| *n <= len).saturating_sub(1);
        let (start, checkpoint) = &self.checkpoints[c];
        let mut b = checkpoint.clone();
        let mut at = *start;
        while at < len {
            let Some(next) = self.recorded.get(at) else { break };
            let (creature, command) = match &next.event {
                Event::CommandAccepted { creature, command } | Event::CommandRejected { creature, command, .. } => {
                    (*creature, command.clone())
                }
                // A verified log has a command at every boundary; anything else ends the walk.
                _ => break,
            };
            let before = b.log.len();
            let _ = b.submit(creature, command);
            at += b.log.len() - before;
        }
        b
    }
}
