//! DICE-13 in the window: right after the player's creature rolls its own dice for an attack or
//! a defense, and the battle offers Expense of Fate, the banner shows the roll and what setting
//! the chosen dice would change (points, damage, knock-outs, the dice it costs). The digit keys
//! pick dice (each set to 2, DICE-2's best face), 0 adds the die scoring least, Enter spends,
//! N keeps the roll; F9 keeps every roll without asking. The numbers are the battle's own (`fate_window`, `fate_preview`).

use super::input::{PlayerAction, WEAPON_KEYS, player_awaited};
use super::screens::OnBattleScreen;
use super::{Notice, Viewer};
use crate::battle::{ActiveBattle, Battle, BattleSystems, Command, FateWindow, IssueCommand, WindowKind};
use crate::rules::fate::{FateDie, best_raise};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// The dice the player has picked in the open Fate window (indices into the roll), and the
/// log length it was picked at: a new window starts with none picked.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct FateChoice {
    pub dice: Vec<u32>,
    pub at_log: usize,
    /// F9: keep every roll without asking (a player who does not want the prompts).
    pub keep_all: bool,
}

impl FateChoice {
    /// The picked dice for the window open now (none when they were picked for another).
    pub fn picked(&self, b: &Battle) -> &[u32] {
        if self.at_log == b.log().len() { &self.dice } else { &[] }
    }

    fn set(&self, b: &Battle) -> Vec<FateDie> {
        let best = b.ruleset().dice_points.best_face();
        self.picked(b).iter().map(|&d| (d, best)).collect()
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<FateChoice>().add_systems(
        Update,
        answer.in_set(BattleSystems::Decide).after(super::input::track_hover).in_set(OnBattleScreen),
    );
}

/// The player's keys in a Fate window.
fn answer(
    actions: Query<&ActionState<PlayerAction>>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut choice: ResMut<FateChoice>,
    mut notice: ResMut<Notice>,
    mut out: MessageWriter<IssueCommand>,
) {
    let Ok(a) = actions.single() else { return };
    if a.just_pressed(&PlayerAction::ToggleFatePrompts) {
        choice.keep_all = !choice.keep_all;
        notice.0 = if choice.keep_all {
            "Expense of Fate: every roll is kept without asking (F9 asks again)".into()
        } else {
            "Expense of Fate: you are asked after each roll of your own dice (F9)".into()
        };
    }
    let Some((me, Some(WindowKind::Fate))) = player_awaited(&battle, &viewer) else { return };
    let b = &battle.battle;
    if choice.keep_all {
        out.write(IssueCommand { creature: me, command: Command::Pass });
        return;
    }
    let Some(w) = b.fate_window() else { return };
    let mut picked = choice.picked(b).to_vec();
    for (i, key) in WEAPON_KEYS.iter().enumerate() {
        if a.just_pressed(key) {
            toggle(&mut picked, &w, i as u32, &mut notice);
        }
    }
    if a.just_pressed(&PlayerAction::RaiseFate) {
        let next = best_raise(w.points, &w.faces, w.own, picked.len() + 1)
            .into_iter()
            .map(|(d, _)| d)
            .find(|d| !picked.contains(d));
        match next {
            Some(d) => picked.push(d),
            None => notice.0 = "every one of the roll's own dice already scores its most".into(),
        }
    }
    let now = FateChoice { dice: picked, at_log: b.log().len(), keep_all: choice.keep_all };
    if *choice != now {
        *choice = now;
    }
    let command = if a.just_pressed(&PlayerAction::NoReaction) {
        Some(Command::Pass)
    } else if a.just_pressed(&PlayerAction::ConfirmKey) {
        let set = choice.set(b);
        Some(if set.is_empty() { Command::Pass } else { Command::Fate { set } })
    } else {
        None
    };
    let Some(command) = command else { return };
    match b.check(me, &command) {
        Ok(()) => {
            notice.0.clear();
            out.write(IssueCommand { creature: me, command });
        }
        Err(r) => notice.0 = format!("Refused: {r}"),
    }
}

/// Pick die `i` (or unpick it); only the roller's own dice showing another face than 2 can be.
fn toggle(picked: &mut Vec<u32>, w: &FateWindow, i: u32, notice: &mut Notice) {
    if let Some(k) = picked.iter().position(|&d| d == i) {
        picked.remove(k);
    } else if i as usize >= w.own {
        notice.0 = if (i as usize) < w.faces.len() {
            format!("die {} is not one of the {} own dice (DICE-13)", i + 1, w.attribute.name())
        } else {
            format!("the roll has {} dice", w.faces.len())
        };
    } else if w.points.scores_most(w.faces[i as usize]) {
        notice.0 = format!("die {} already scores its most", i + 1);
    } else {
        picked.push(i);
    }
}

/// The banner's lines for an open Fate window: the roll, the picked dice and what they change.
pub fn prompt(b: &Battle, choice: &FateChoice) -> Option<String> {
    let w = b.fate_window()?;
    let kept = b.fate_preview(&[]).ok()?;
    let me = b.fighter(w.roller);
    let struck = &b.fighter(w.struck).name;
    let what = match w.defense {
        None => format!("attack roll on {struck}"),
        Some(d) => format!("{d:?} roll"),
    };
    let faces: Vec<String> = w
        .faces
        .iter()
        .enumerate()
        .map(|(i, f)| if i < w.own { format!("{}:{f}", i + 1) } else { format!("+{f}") })
        .collect();
    // Short lines: the banner shares the top of the map with the creature's gauges.
    let mut lines = vec![
        format!("{}'s {what}: {} = {} points", me.name, faces.join(" "), kept.points),
        format!(
            "Expense of Fate (DICE-13): own dice 1-{} can be set to 2, a {} die each ({} left)",
            w.own,
            w.attribute.name(),
            w.dice_left
        ),
    ];
    let set = choice.set(b);
    let outcome = |p: &crate::battle::FatePreview| {
        let mut s = format!("{} damage to {struck}", p.damage);
        if p.struck_knocked_out {
            s.push_str(" (knocked out)");
        }
        if w.defendable && p.damage > 0 {
            s.push_str(" before its defense");
        }
        s
    };
    let keep = if set.is_empty() { "N / Enter" } else { "N" };
    lines.push(format!("  {keep}  keep it: {}", outcome(&kept)));
    if set.is_empty() {
        lines.push(format!("  1-{} pick a die, 0 the next scoring least", w.own.min(WEAPON_KEYS.len())));
    } else if let Ok(p) = b.fate_preview(&set) {
        let dice: Vec<String> = set.iter().map(|(d, _)| (d + 1).to_string()).collect();
        let cost = if p.dice_lost == 1 { "die" } else { "dice" };
        lines.push(format!(
            "  Enter  {} {} to 2: {} points, {}",
            if set.len() == 1 { "die" } else { "dice" },
            dice.join(", "),
            p.points,
            outcome(&p)
        ));
        let mut line = format!("         for {} {} {cost}", p.dice_lost, w.attribute.name());
        if p.roller_knocked_out {
            line.push_str(&format!(": {} falls unconscious (CRE-6)", me.name));
        }
        lines.push(line);
    }
    Some(lines.join("\n"))
}

/// The action bar in a Fate window: a button per own die, then spend and keep.
pub fn bar_items(
    b: &Battle,
    choice: &FateChoice,
    keys: &super::bindings::KeyNames,
) -> Vec<(String, PlayerAction, bool)> {
    let Some(w) = b.fate_window() else { return Vec::new() };
    let picked = choice.picked(b);
    let mut items = Vec::new();
    for (i, key) in WEAPON_KEYS.iter().enumerate().take(w.own) {
        let face = w.faces[i];
        if !w.points.scores_most(face) {
            let on = picked.contains(&(i as u32));
            let best = w.points.best_face();
            items.push((format!("Die {} ({}): {face} to {best}", i + 1, keys.of(*key)), *key, on));
        }
    }
    if !picked.is_empty() {
        let n = picked.len();
        items.push((
            format!("Spend {n} {} {} (Enter)", w.attribute.name(), if n == 1 { "die" } else { "dice" }),
            PlayerAction::ConfirmKey,
            false,
        ));
    }
    items.push((format!("Keep the roll ({})", keys.of(PlayerAction::NoReaction)), PlayerAction::NoReaction, false));
    items
}
