//! AREA-E5 in the window: aiming a curve. With a curve weapon ready, B bends the curve at the
//! square under the pointer (up to three bends), the orange template follows the pointer from
//! the last bend, a click (or Enter at the keyboard cursor) ends the curve there and fires,
//! and Esc clears the bends. The engine checks the curve (`Target::Curve`, AREA-E5).

use super::input::{Choice, Hover, PlayerAction, player_awaited};
use super::{Notice, Viewer};
use crate::battle::ActiveBattle;
use crate::level::compendium::AreaSpec;
use crate::rules::area::{MAX_CURVE_SEGMENTS, curve_length};
use crate::rules::grid::Pos;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// The curve's length when the ready weapon is a curve.
pub fn curve_weapon(battle: &ActiveBattle, choice: &Choice) -> Option<i32> {
    let (me, _) = battle.battle.awaiting()?;
    let w = battle.battle.fighter(me).weapon(choice.weapon.as_deref()?)?;
    match w.weapon.area {
        Some(AreaSpec::Curve { length }) => Some(length),
        _ => None,
    }
}

pub(super) fn place_bend(
    actions: Query<&ActionState<PlayerAction>>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    hover: Res<Hover>,
    mut choice: ResMut<Choice>,
    mut notice: ResMut<Notice>,
) {
    let Ok(a) = actions.single() else { return };
    if !a.just_pressed(&PlayerAction::Bend) {
        return;
    }
    let Some((me, None)) = player_awaited(&battle, &viewer) else { return };
    let Some(length) = curve_weapon(&battle, &choice) else { return };
    let Some(at) = hover.square else { return };
    let origin = battle.battle.fighter(me).origin;
    let mut bends = choice.bends_now(&battle.battle).to_vec();
    bends.push(at);
    let offsets: Vec<Pos> = bends.iter().map(|p| Pos::new(p.x - origin.x, p.y - origin.y)).collect();
    let used = curve_length(&offsets);
    notice.0 = if bends.len() >= MAX_CURVE_SEGMENTS {
        format!("a curve bends at most {} times: click where it ends", MAX_CURVE_SEGMENTS - 1)
    } else if offsets.windows(2).any(|w| w[0] == w[1]) || at == origin {
        "that square is where the curve already is".into()
    } else if used >= i64::from(length) {
        format!("a bend at {at} leaves nothing of its {length} steps (AREA-E5)")
    } else {
        choice.bends = bends;
        choice.bends_log = battle.battle.log().len();
        format!(
            "bend {} at {at}: {} of {length} steps left; B bends again, a click ends it, Esc clears",
            choice.bends.len(),
            i64::from(length) - used
        )
    };
}
