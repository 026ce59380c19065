//! Save and resume. The log is the save: a battle in progress is written to
//! `saves/autosave.json` (the level file, the seed, who plays which side, and the whole log)
//! at the start of each of the player's turns and when leaving the battle screen, atomically;
//! "Continue" in the menu rebuilds exactly that state by replaying the log
//! (`Battle::from_log`, which refuses a log that does not replay). A finished battle's save
//! is removed.

use super::screens::{CurrentSetup, OnBattleScreen, Screen};
use super::{Notice, Viewer};
use crate::battle::{ActiveBattle, LogEntry};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the save goes, relative to the working directory.
pub fn autosave_path() -> PathBuf {
    PathBuf::from("saves").join("autosave.json")
}

#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct SavedBattle {
    pub level_file: String,
    pub player_side: Option<usize>,
    pub side_profiles: Vec<Option<String>>,
    pub log: Vec<LogEntry>,
}

impl SavedBattle {
    /// A save from disk, or why it cannot be used.
    pub fn read(path: &Path) -> Result<SavedBattle, String> {
        let text = crate::files::read_text(path, crate::files::FileKind::Log).map_err(|e| e.to_string())?;
        serde_json::from_str(&text).map_err(|e| format!("{}:{}:{}: {e}", path.display(), e.line(), e.column()))
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, autosave.in_set(OnBattleScreen)).add_systems(OnExit(Screen::Battle), save_on_leaving);
}

fn write(battle: &ActiveBattle, setup: &CurrentSetup) -> Result<(), String> {
    let path = autosave_path();
    if battle.battle.outcome().is_some() {
        // Over: nothing to continue.
        if path.exists() {
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        return Ok(());
    }
    let save = SavedBattle {
        level_file: setup.level.file.clone(),
        player_side: setup.player_side,
        side_profiles: setup.side_profiles.clone(),
        log: battle.battle.log().to_vec(),
    };
    let text = serde_json::to_string(&save).map_err(|e| e.to_string())?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    crate::files::write_atomically(&path, text.as_bytes()).map_err(|e| e.to_string())
}

/// At the start of each of the player's turns (and when the battle ends).
fn autosave(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    setup: Option<Res<CurrentSetup>>,
    screenshot: Option<Res<super::input::ScreenshotPlan>>,
    mut notice: ResMut<Notice>,
    mut saved_at: Local<Option<(u64, usize)>>,
) {
    // A screenshot run is not a game to continue.
    let (Some(setup), None) = (setup, screenshot) else { return };
    let b = &battle.battle;
    let turn_starts = super::input::player_awaited(&battle, &viewer).is_some_and(|(_, w)| w.is_none());
    let key = Some((b.seed(), b.log().len()));
    if !(turn_starts || b.outcome().is_some()) || *saved_at == key || !viewer.plays {
        return;
    }
    *saved_at = key;
    if let Err(e) = write(&battle, &setup) {
        notice.0 = format!("autosave failed: {e}");
    }
}

fn save_on_leaving(
    battle: Option<Res<ActiveBattle>>,
    viewer: Res<Viewer>,
    setup: Option<Res<CurrentSetup>>,
    screenshot: Option<Res<super::input::ScreenshotPlan>>,
) {
    if let (Some(battle), Some(setup), true, None) = (battle, setup, viewer.plays, screenshot) {
        let _ = write(&battle, &setup);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{Battle, Event};
    use crate::level::{builtin_compendium, parse_level};

    // The log is the save: a battle stopped mid-way and saved comes back in exactly the same
    // state (same log, same creature to act); a save whose log was altered is refused with the
    // first event that differs.
    #[test]
    fn a_saved_battle_resumes_exactly_and_a_tampered_one_is_refused() {
        let l = parse_level("levels/duel.level.ron", include_str!("../../levels/duel.level.ron"), builtin_compendium())
            .unwrap();
        let mut b = Battle::new(&l, builtin_compendium(), 9).unwrap();
        for _ in 0..40 {
            let Some((c, w)) = b.awaiting() else { break };
            let cmd = match w {
                None if b.fighter(c).ap > 1 => crate::battle::Command::Face { facing: crate::rules::facing::Facing::N },
                None => crate::battle::Command::EndTurn,
                Some(_) => crate::battle::Command::Pass,
            };
            if b.submit(c, cmd).is_err() {
                b.submit(c, crate::battle::Command::EndTurn).unwrap();
            }
        }
        let save = SavedBattle {
            level_file: l.file.clone(),
            player_side: Some(0),
            side_profiles: vec![None, Some("hard".into())],
            log: b.log().to_vec(),
        };
        let text = serde_json::to_string(&save).unwrap();
        let back: SavedBattle = serde_json::from_str(&text).unwrap();
        let resumed = Battle::from_log(&l, builtin_compendium(), &back.log).unwrap();
        assert_eq!(serde_json::to_string(resumed.log()).unwrap(), serde_json::to_string(b.log()).unwrap());
        assert_eq!(resumed.awaiting(), b.awaiting());
        assert_eq!(resumed.round(), b.round());
        let mut tampered = back.log.clone();
        let k = tampered.iter().position(|e| matches!(e.event, Event::InitiativeRolled { .. })).unwrap();
        tampered[k].round += 1;
        let Err(why) = Battle::from_log(&l, builtin_compendium(), &tampered) else { panic!("a tampered log replayed") };
        assert!(why.contains(&format!("diverges at event {k}")), "{why}");
    }
}
