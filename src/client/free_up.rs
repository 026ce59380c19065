//! The seconds mode's two decisions a player may take at any moment, not only in a slot
//! (battle/seconds.rs): the FreeUp key aborts the running action of one of the player's
//! creatures (TIME-S2: the time spent is lost) or cuts one second off its gap for an
//! Activeness die (TIME-S3, TIME-E11). It acts on the player's creature under the pointer,
//! else on the first of the player's creatures that is busy.

use super::input::{Hover, PlayerAction};
use super::screens::OnBattleScreen;
use super::{Notice, Viewer, shown_creature_at};
use crate::battle::{ActiveBattle, Battle, ClockView, Command, CreatureId, IssueCommand};
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, free_up.in_set(crate::battle::BattleSystems::Decide).in_set(OnBattleScreen));
}

/// What the key does for this creature now, if anything.
pub(super) fn free_up_command(b: &Battle, c: CreatureId) -> Option<Command> {
    match b.clock(c) {
        ClockView::Running { .. } => Some(Command::AbortLongTerm),
        ClockView::Gap { .. } => Some(Command::CutGap { seconds: 1 }),
        ClockView::Idle | ClockView::Keeping => None,
    }
}

fn free_up(
    actions: Query<&ActionState<PlayerAction>>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    hover: Res<Hover>,
    mut notice: ResMut<Notice>,
    mut out: MessageWriter<IssueCommand>,
) {
    let Ok(a) = actions.single() else { return };
    if !a.just_pressed(&PlayerAction::FreeUp) || !viewer.plays {
        return;
    }
    let b = &battle.battle;
    let mine = |c: CreatureId| b.fighter(c).side == viewer.side && b.fighter(c).can_act();
    let pointed = hover.square.and_then(|at| shown_creature_at(b, &viewer, at)).map(|f| f.id).filter(|&c| mine(c));
    let busy = || b.creatures().iter().map(|f| f.id).find(|&c| mine(c) && free_up_command(b, c).is_some());
    let Some(c) = pointed.filter(|&c| free_up_command(b, c).is_some()).or_else(busy) else {
        notice.0 = "no creature of yours is acting or in a gap (seconds mode)".into();
        return;
    };
    let command = free_up_command(b, c).expect("chosen for it");
    let what = if command == Command::AbortLongTerm { "aborts its action" } else { "cuts a second of its gap" };
    notice.0 = format!("{} {what}", b.fighter(c).name);
    out.write(IssueCommand { creature: c, command });
}

#[cfg(test)]
mod tests {
    use super::free_up_command;
    use crate::battle::{Battle, ClockView, Command, Target};
    use crate::level::{builtin_compendium, parse_level};
    use crate::rules::ruleset::TimeModel;

    const LEVEL: &str = r#"(name: "Free", map: ["......", "......"], legend: { '.': "floor" },
        terrains: { "floor": () }, sides: [(name: "A"), (name: "B")],
        creatures: [(name: "Blue", template: "human_fighter", side: "A", at: (1, 0), facing: E),
                    (name: "Red", template: "human_fighter", side: "B", at: (2, 0), facing: W)])"#;

    // RULES: TIME-S2, TIME-S3 — the key aborts a running action; nothing for an idle creature.
    #[test]
    fn the_key_aborts_a_running_action() {
        let mut l = parse_level("free.level.ron", LEVEL, builtin_compendium()).unwrap();
        l.level.ruleset.time_model = TimeModel::Seconds004;
        let mut b = (0..500)
            .map(|seed| Battle::new(&l, builtin_compendium(), seed).unwrap())
            .find(|b| b.awaiting() == Some((0, None)))
            .unwrap();
        assert_eq!(free_up_command(&b, 0), None);
        let blow = Command::Attack {
            weapon: "sword".into(),
            target: Target::Creature(1),
            additives: vec!["power_strike".into()],
        };
        b.submit(0, blow).unwrap();
        assert_eq!(b.clock(0), ClockView::Running { left: 1 });
        let command = free_up_command(&b, 0).unwrap();
        assert_eq!(command, Command::AbortLongTerm);
        b.submit(0, command).unwrap();
        assert_eq!(b.clock(0), ClockView::Idle);
    }
}
