//! The panel's text for an attack under the pointer: the exact odds as the engine would
//! resolve it now (ATK-E7, ATK-11) and where a forced move would send the target (MOVE-11).

use crate::battle::{Battle, Command, CreatureId};
use std::fmt::Write;

/// ATK-E7, ATK-11: the exact odds of an attack, as the engine would resolve it now.
pub(super) fn odds_lines(out: &mut String, b: &Battle, me: CreatureId, cmd: &Command) {
    match b.attack_preview(me, cmd) {
        // An area over nobody the side sees (a blow at an object has no creature to chart).
        Ok(targets) if targets.is_empty() && is_area(b, me, cmd) => {
            let _ = writeln!(out, "  covers nobody you see (click twice to fire anyway)");
        }
        Ok(targets) => {
            for t in targets {
                let target = b.fighter(t.target);
                let best = t.best_defense();
                let d = t.odds(best.map_or(0, |o| o.dice));
                let _ = writeln!(
                    out,
                    "  on {}: {} dice vs protection {}, defense {}\n    hit {:.0}%, expected damage {:.2}",
                    target.name,
                    t.dice,
                    t.protection,
                    best.map_or("none".to_string(), |o| format!("{} dice ({:?})", o.dice, o.defense)),
                    d.hit_chance * 100.0,
                    d.expected_damage
                );
                if let Err(why) = &t.defendable {
                    let _ = writeln!(out, "    undefendable: {why}");
                }
                if let Some(f) = &t.forced {
                    let _ = writeln!(out, "    {}", forced_line(f));
                }
            }
        }
        Err(r) => {
            let _ = writeln!(out, "  refused: {r}");
        }
    }
}

/// An attack with an area weapon (AREA-*).
pub(super) fn is_area(b: &Battle, me: CreatureId, cmd: &Command) -> bool {
    matches!(cmd, Command::Attack { weapon, .. }
        if b.fighter(me).weapon(weapon).is_some_and(|w| w.weapon.area.is_some()))
}

/// MOVE-11, MOVE-12: where a hurting blow would send the target, and the fall it would cause.
fn forced_line(f: &crate::battle::ForcedOutcome) -> String {
    use crate::rules::forced::{ForcedKind, ForcedStop};
    let how = if f.kind == ForcedKind::KnockBack { "knocks back" } else { "tows" };
    match (f.stop, f.fall_depth) {
        (ForcedStop::Fell, Some(depth)) if f.fall_dice > 0 => {
            format!("if hurt: {how} over the edge at {}: falls {depth} steps, a {}-dice attack", f.end, f.fall_dice)
        }
        (ForcedStop::Fell, Some(depth)) => format!("if hurt: {how} into a {depth}-step drop at {} (harmless)", f.end),
        _ => format!("if hurt: {how} to {}", f.end),
    }
}
