//! What a click or a key means: the command a click on a square makes for the creature in
//! turn (a move, an attack, an area aimed at an enemy, or a walk into reach and a strike), the
//! additives declared with it, and the auto-defend policy. Pure functions of the battle's query
//! API, shared by the input systems, the panel and the tests.

use super::input::Choice;
use crate::battle::{Battle, Command, CreatureId, Target};
use crate::level::compendium::AreaSpec;
use crate::rules::attack::Defense;
use crate::rules::facing::Facing;
use crate::rules::grid::{Footprint, Pos};

/// The command a click on `at` means for creature `me`.
#[cfg(test)]
pub fn click_command(b: &Battle, me: CreatureId, at: Pos, choice: &Choice) -> Option<Command> {
    click_plan(b, me, at, choice).map(|(c, _)| c)
}

/// The command a click on `at` means, and the attack to follow it: an enemy no weapon reaches
/// from here is walked up to (the cheapest move into reach, the engine's `walk_to_strike`) and
/// then struck.
pub fn click_plan(b: &Battle, me: CreatureId, at: Pos, choice: &Choice) -> Option<(Command, Vec<Command>)> {
    let f = b.fighter(me);
    if choice.weapon.is_none()
        && let Some(o) = b.shown_creature_at(f.side, at).filter(|c| c.id != me && b.hostile(me, c.id))
        && let Some(strike) = click_here(b, me, at, choice)
            .filter(|c| b.check(me, c).is_err())
            .and_then(|_| b.walk_to_strike(me, o.id, choice.sprint, additives_ap(f, &choice.additives)))
    {
        let face = b.ruleset().facing.then_some(strike.facing);
        let attack = Command::Attack {
            weapon: strike.weapon,
            target: Target::Creature(o.id),
            additives: choice.additives.clone(),
        };
        let mut then = Vec::new();
        let first = match strike.then_path {
            // Two moves: the first needs no facing; the second ends facing the target.
            Some(second) => {
                then.push(Command::Move { path: second, sprint: choice.sprint, face });
                Command::Move { path: strike.path, sprint: choice.sprint, face: None }
            }
            None => Command::Move { path: strike.path, sprint: choice.sprint, face },
        };
        then.push(attack);
        return Some((first, then));
    }
    if let Some(c) = click_here(b, me, at, choice) {
        return Some((c, Vec::new()));
    }
    // MOVE-1, TIME-8: an empty square one move does not reach, but the reach overlay's paler
    // rings do: walked to in as many moves as it shows.
    if choice.weapon.is_some() || choice.sprint || b.shown_creature_at(f.side, at).is_some() {
        return None;
    }
    let mut moves = b.walk_in_moves(me, at)?.into_iter().map(|path| Command::Move { path, sprint: false, face: None });
    let first = moves.next()?;
    Some((first, moves.collect()))
}

/// TIME-16: the AP these additive abilities add to an attack.
fn additives_ap(f: &crate::battle::Fighter, additives: &[String]) -> i32 {
    f.abilities
        .iter()
        .filter(|(k, _)| additives.contains(k))
        .map(|(_, a)| match a.effect {
            crate::level::compendium::AbilityEffect::Additive { ap, .. } => ap,
            _ => 0,
        })
        .sum()
}

/// TIME-16: the creature's first additive ability (key, name), if it has one.
pub fn additive_of(f: &crate::battle::Fighter) -> Option<(String, String)> {
    f.abilities
        .iter()
        .find(|(_, a)| matches!(a.effect, crate::level::compendium::AbilityEffect::Additive { .. }))
        .map(|(k, a)| (k.clone(), a.name.clone()))
}

/// What a click on `at` means from where `me` stands.
fn click_here(b: &Battle, me: CreatureId, at: Pos, choice: &Choice) -> Option<Command> {
    let f = b.fighter(me);
    let occupant = b.shown_creature_at(f.side, at).filter(|c| c.id != me);
    if let Some(key) = &choice.weapon {
        let w = f.weapon(key)?;
        let target = match &w.weapon.area {
            Some(AreaSpec::Circle { .. } | AreaSpec::Ring { .. }) => Target::Square(at),
            // AREA-E5: through the bends placed with B, to the square clicked.
            Some(AreaSpec::Curve { .. }) => Target::Curve(choice.bends_now(b).iter().copied().chain([at]).collect()),
            Some(_) => Target::Toward(aim(f.footprint(), at)),
            // ATK-16: a single-target weapon on an object's square strikes the object.
            None => match (occupant, b.object_at(at)) {
                (Some(o), _) => Target::Creature(o.id),
                (None, Some(_)) => Target::Square(at),
                (None, None) => return None,
            },
        };
        return Some(Command::Attack { weapon: key.clone(), target, additives: choice.additives.clone() });
    }
    // A closed door: a click opens it (1 AP, ATK-16; O closes one, `input.rs`).
    if occupant.is_none()
        && let Some(door) = b.object_at(at).map(|i| &b.objects()[i])
        && door.def.kind == crate::rules::objects::ObjectKind::Door
        && !door.open
    {
        return Some(Command::Door { at, open: true });
    }
    if let Some(o) = occupant
        && b.hostile(me, o.id)
    {
        // No weapon chosen: the first single-target one the engine accepts, else an area
        // weapon aimed at it (a cone or ray toward it, a circle on its square).
        let aimed = |w: &crate::battle::Armed| {
            let target = match &w.weapon.area {
                None => Target::Creature(o.id),
                Some(AreaSpec::Circle { .. } | AreaSpec::Ring { .. }) => Target::Square(at),
                Some(AreaSpec::Curve { .. }) => Target::Curve(vec![at]),
                Some(_) => Target::Toward(aim(f.footprint(), at)),
            };
            Command::Attack { weapon: w.key.clone(), target, additives: choice.additives.clone() }
        };
        let single = f.weapons.iter().filter(|w| w.weapon.area.is_none());
        let area = f.weapons.iter().filter(|w| w.weapon.area.is_some());
        // An area shot counts only if it covers the creature clicked.
        let covers = |c: &Command| match c {
            Command::Attack { target: Target::Creature(_), .. } => true,
            c => b.area_targets(me, c).is_some_and(|t| t.contains(&o.id)),
        };
        return single
            .clone()
            .chain(area)
            .map(aimed)
            .find(|c| b.check(me, c).is_ok() && covers(c))
            // None can: still an attack (with a single-target weapon if it has one), so that
            // the refusal says why.
            .or_else(|| single.chain(f.weapons.iter()).next().map(aimed));
    }
    let path = move_path(b, me, at, choice.sprint)?;
    Some(Command::Move { path, sprint: choice.sprint, face: None })
}

/// The facing from a footprint toward a square.
pub fn aim(from: Footprint, at: Pos) -> Facing {
    Facing::toward_footprint(from, Footprint::single(at))
}

/// The cheapest path for `me` to `at` this move, if it can end there.
pub fn move_path(b: &Battle, me: CreatureId, at: Pos, sprint: bool) -> Option<Vec<Pos>> {
    b.path_to(me, at, sprint)
}

/// The auto-defend policy (F8): the allowed defense that prevents the most damage on average
/// (ties: the attack's listed order); "take it" when none is allowed or none would prevent
/// anything, keeping the AP.
pub fn auto_defense(b: &Battle) -> Option<Command> {
    let w = b.window_preview()?;
    if w.kind != crate::battle::WindowKind::Defense {
        return None;
    }
    let best =
        w.attack.defenses.iter().filter(|o| o.allowed.is_ok()).map(|o| (w.expected_prevented(o), o.defense)).fold(
            None,
            |best: Option<(f64, Defense)>, (p, d)| match best {
                Some((q, _)) if q >= p => best,
                _ => Some((p, d)),
            },
        );
    Some(Command::Defend { defense: best.filter(|(p, _)| *p > 0.0).map(|(_, d)| d) })
}
