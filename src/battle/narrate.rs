//! Events as sentences, for the battle report and the client's log.

use super::state::Battle;
use super::types::{Command, Event, Outcome, Target, WindowKind};
use crate::files::escape_controls;
use crate::rules::forced::{ForcedKind, ForcedStop};

/// A creature's name, control characters escaped (names come from level files).
fn name(b: &Battle, id: u32) -> std::borrow::Cow<'_, str> {
    b.creatures().get(id as usize).map_or(std::borrow::Cow::Borrowed("?"), |c| escape_controls(&c.name))
}

/// A command in words ("attack Red Fighter with sword"), names escaped for the terminal.
pub fn describe_command(b: &Battle, c: &Command) -> String {
    match c {
        Command::Attack { weapon, target, additives } => {
            let t = match target {
                Target::Creature(id) => name(b, *id).to_string(),
                Target::Square(p) => format!("square {p}"),
                Target::Toward(f) => format!("toward {}", f.name()),
                Target::Curve(points) => {
                    let points: Vec<String> = points.iter().map(|p| p.to_string()).collect();
                    format!("along a curve through {}", points.join(", "))
                }
            };
            let plus = if additives.is_empty() { String::new() } else { format!(" + {}", additives.join(" + ")) };
            format!("attack {t} with {weapon}{plus}")
        }
        other => format!("{other:?}"),
    }
}

/// One line for an event, or None for bookkeeping events that a reader does not need.
pub fn narrate(b: &Battle, e: &Event) -> Option<String> {
    Some(match e {
        Event::BattleStarted { level, seed, .. } => format!("Battle begins: {level}, seed {seed}"),
        Event::EncounterOpened { distance, spots, surprised } => {
            // One line: reports print an event a line.
            let mut s = format!("Encounter at {distance} steps (PERC-E7):");
            for c in spots {
                let verdict = if c.spotted { "spots them" } else { "does not" };
                s.push_str(&format!(
                    " {} ({}) rolls {:?} = {} against {}, {verdict};",
                    c.side,
                    name(b, c.spotter),
                    c.faces,
                    c.points,
                    c.difficulty
                ));
            }
            if surprised.is_empty() {
                s.push_str(" nobody is surprised.");
            } else {
                s.push_str(&format!(
                    " surprised: {} (a surprise round, 1 AP each, for the others).",
                    surprised.join(", ")
                ));
            }
            s
        }
        Event::InitiativeRolled { members, faces, total, tie_breaks } => {
            let who: Vec<_> = members.iter().map(|m| name(b, *m)).collect();
            let tb = if tie_breaks.is_empty() { String::new() } else { format!(", tie-breaks {tie_breaks:?}") };
            format!("Initiative {}: {total} (rolled {faces:?}{tb})", who.join(" + "))
        }
        Event::TurnOrder { order } => {
            format!("Turn order: {}", order.iter().map(|m| name(b, *m)).collect::<Vec<_>>().join(", "))
        }
        Event::RoundStarted { round } => format!("— Round {round} —"),
        Event::SecondStarted { round, second } => format!("— Round {round}, second {} —", second + 1),
        Event::ActionBegun { creature, seconds } => {
            format!("  {} starts an action of {seconds} seconds (TIME-S2)", name(b, *creature))
        }
        Event::ClockSet { creature, clock } => match clock.label() {
            Some(face) => format!("  {}'s clock shows {face}", name(b, *creature)),
            // Also when an unconscious creature's gap is dropped: not "free to act".
            None => format!("  {}'s clock is clear", name(b, *creature)),
        },
        Event::FatigueTaken { creature, seconds } => {
            format!("  {} takes {seconds} fatigue to cut its gap", name(b, *creature))
        }
        Event::TurnStarted { creature, ap } => format!("{}'s turn ({ap} AP)", name(b, *creature)),
        Event::CommandRejected { creature, command, rule, reason } => {
            format!("  ✗ {} cannot {}: {reason} ({rule})", name(b, *creature), describe_command(b, command))
        }
        Event::Moved { creature, path, cost_quarters, sprint } => format!(
            "  {} {} {} → {} ({})",
            name(b, *creature),
            if *sprint { "sprints" } else { "moves" },
            path.first()?,
            path.last()?,
            // A side that saw only a stretch of the move is not told what it cost (`partial`).
            match *cost_quarters {
                0 if path.len() > 1 => "seen in part".to_string(),
                4 => "1 step".to_string(),
                q => format!("{} steps", q as f64 / 4.0),
            }
        ),
        Event::Faced { creature, facing } => format!("  {} faces {}", name(b, *creature), facing.name()),
        Event::PostureChanged { creature, posture, forced } => {
            format!("  {} {} {}", name(b, *creature), if *forced { "falls" } else { "goes" }, posture.name())
        }
        Event::LongTermStarted { creature, weapon, remaining } => {
            format!("  {} starts a long action ({weapon}), {remaining} AP still to pay", name(b, *creature))
        }
        Event::LongTermProgress { creature, paid, remaining } => {
            format!("  {} keeps at it: pays {paid} AP, {remaining} left", name(b, *creature))
        }
        Event::LongTermAborted { creature, reason } => {
            format!("  {}'s long action fails: {reason}", name(b, *creature))
        }
        Event::AttackDeclared { attacker, weapon, targets, dice } => {
            let t: Vec<_> = targets.iter().map(|t| name(b, *t)).collect();
            format!(
                "  {} attacks {} with {weapon} ({dice} dice)",
                name(b, *attacker),
                if t.is_empty() { "nobody".into() } else { t.join(", ") }
            )
        }
        Event::ReactionWindowOpened { creature, kind, .. } => match kind {
            WindowKind::BeforeAttack => format!("    {} may react before the attack", name(b, *creature)),
            WindowKind::Defense => return None,
            WindowKind::Fate => format!("    {} may spend fate on the roll", name(b, *creature)),
        },
        Event::Delayed { creature, after } => {
            format!("  {} delays until after {}", name(b, *creature), name(b, *after))
        }
        Event::CounterAttackDeclared { creature, weapon, against } => {
            format!("    {} counter-attacks {} with {weapon}", name(b, *creature), name(b, *against))
        }
        Event::ForcedMoved { creature, by, kind, path, stop } => {
            let by = by.map_or_else(|| "someone unseen".to_string(), |c| name(b, c).to_string());
            let how = match kind {
                ForcedKind::KnockBack => "knocks back",
                ForcedKind::Tow => "tows",
            };
            let end = path.last().copied().unwrap_or_default();
            let why = match stop {
                ForcedStop::Spent => "",
                ForcedStop::Obstacle => ", stopped by an obstacle",
                ForcedStop::Creature => ", stopped by a creature",
                ForcedStop::Source => ", up against it",
                ForcedStop::Fell => ", over the edge",
            };
            format!("    {by} {how} {} to {end}{why}", name(b, *creature))
        }
        Event::Fell { creature, depth, dice, onto, .. } => {
            let on = onto.map(|o| format!(" onto {}", name(b, o))).unwrap_or_default();
            let hurt = if *dice > 0 { format!(": a {dice}-dice attack") } else { ": no harm".into() };
            format!("    {} falls {depth} steps{on}{hurt}", name(b, *creature))
        }
        Event::Mounted { creature, mount } => format!("    {} mounts {}", name(b, *creature), name(b, *mount)),
        Event::Dismounted { creature, mount, at, forced } => {
            let from = mount.map_or_else(|| "its mount".to_string(), |m| name(b, m).to_string());
            let how = if *forced { "falls off" } else { "gets off" };
            format!("    {} {how} {from} onto {at}", name(b, *creature))
        }
        Event::Lifted { creature, by } => {
            let by = by.map_or_else(|| "someone unseen".to_string(), |c| name(b, c).to_string());
            format!("    {by} lifts {} and carries it", name(b, *creature))
        }
        Event::PutDown { creature, by, at } => {
            let by = by.map_or_else(|| "someone unseen".to_string(), |c| name(b, c).to_string());
            format!("    {by} puts {} down on {at}", name(b, *creature))
        }
        Event::Dragged { creature, by, to, .. } => {
            let by = by.map_or_else(|| "someone unseen".to_string(), |c| name(b, c).to_string());
            format!("    {by} drags {} along to {to}", name(b, *creature))
        }
        Event::SenseLost { creature, sense, turns } => {
            let s = if *turns == 1 { "" } else { "s" };
            format!("    {} is {} for {turns} turn{s}", name(b, *creature), sense.lost_word())
        }
        Event::SenseRegained { creature, sense } => format!("  {} has its {} back", name(b, *creature), sense.name()),
        Event::InvisibleLocated { creature, attacker, at } => {
            format!("    {} feels where {} struck from: {at}", name(b, *creature), name(b, *attacker))
        }
        Event::ObjectAttacked { attacker, weapon, at, dice } => {
            format!("  {} attacks the object at {at} with {weapon} ({dice} dice)", name(b, *attacker))
        }
        Event::ObjectDamaged { at, protection, damage, total, durability } => {
            format!("    the object at {at} (protection {protection}) takes {damage}: {total} of {durability}")
        }
        Event::ObjectBroken { at } => format!("    the object at {at} breaks: rubble"),
        Event::DoorBlocked { creature, at } => {
            format!("  {} cannot close the door at {at}: something is in the way", name(b, *creature))
        }
        Event::DoorOperated { creature, at, open } => {
            format!("  {} {} the door at {at}", name(b, *creature), if *open { "opens" } else { "closes" })
        }
        Event::Readied { creature, weapon, trigger } => {
            let when = trigger.describe(|c| name(b, c).into_owned());
            format!("  {} readies {weapon} for {when}", name(b, *creature))
        }
        Event::ReadyFired { creature, at } => {
            format!("  {} fires its readied attack at {}", name(b, *creature), name(b, *at))
        }
        Event::ReadyLapsed { creature } => format!("  {}'s readied attack lapses", name(b, *creature)),
        Event::ItemPickedUp { creature, item, at } => {
            format!("  {} picks up the {} at {at}", name(b, *creature), b.item_name(item))
        }
        Event::PickUpFailed { creature, item, at } => {
            format!(
                "  {} cannot pick up the {} at {at}: something is in the way",
                name(b, *creature),
                b.item_name(item)
            )
        }
        Event::ItemDropped { creature, item, at } => {
            format!("  {} drops the {} at {at}", name(b, *creature), b.item_name(item))
        }
        Event::ItemGiven { from, to, item } => {
            format!("  {} hands the {} to {}", name(b, *from), b.item_name(item), name(b, *to))
        }
        Event::ItemUsed { creature, item, on } if creature == on => {
            format!("  {} uses the {}", name(b, *creature), b.item_name(item))
        }
        Event::ItemUsed { creature, item, on } => {
            format!("  {} uses the {} on {}", name(b, *creature), b.item_name(item), name(b, *on))
        }
        Event::DiceRecovered { creature, attribute, dice } => {
            format!("    {} recovers {dice} {} dice", name(b, *creature), attribute.name())
        }
        Event::Woke { creature } => format!("    {} wakes up", name(b, *creature)),
        Event::Reloaded { creature, weapon, left } => {
            let w = b.fighter(*creature).weapon(weapon).map_or(weapon.as_str(), |w| w.weapon.name.as_str());
            format!("    {}'s {w} is loaded: {left} shots", name(b, *creature))
        }
        Event::HazardStruck { creature, kind, at } => {
            format!("    {} is caught by the {kind} at {at}", name(b, *creature))
        }
        Event::FallRecovery { creature, ap_lost, left } => {
            format!("  {} is still recovering from the fall: −{ap_lost} AP ({left} left)", name(b, *creature))
        }
        Event::QuickStepped { creature, to } => format!("    {} quick-steps to {to}", name(b, *creature)),
        Event::AttackCancelled { attacker, refunded_ap, reason } => {
            format!("    the attack is cancelled ({reason}); {} gets {refunded_ap} AP back", name(b, *attacker))
        }
        Event::Rolled { creature, purpose, faces, points } => {
            format!("    {} rolls {faces:?} = {points} ({purpose})", name(b, *creature))
        }
        Event::FateSpent { creature, attribute, dice, faces, points, left } => format!(
            "    {} spends fate: {dice} {} {} set, the roll is now {faces:?} = {points}; {left} {} dice left",
            name(b, *creature),
            if *dice == 1 { "die" } else { "dice" },
            attribute.name(),
            attribute.name()
        ),
        Event::SegmentResolved {
            target,
            attack_points,
            protection,
            defense,
            defense_points,
            solid_defense,
            hit,
            damage,
            ..
        } => {
            let d = match (defense, defense_points) {
                (Some(d), Some(p)) => format!(", {d:?} {p}"),
                _ => String::new(),
            };
            let verdict = if *hit {
                format!("hit for {damage}")
            } else if *solid_defense {
                "solid defense".into()
            } else {
                "miss".into()
            };
            format!("    vs {}: {attack_points} − protection {protection}{d} → {verdict}", name(b, *target))
        }
        Event::Undefendable { target, reason } => format!("    {} cannot defend: {reason}", name(b, *target)),
        Event::Damaged { creature, attribute, dice, left } => {
            format!("    {} loses {dice} {} dice ({left} left)", name(b, *creature), attribute.name())
        }
        Event::Unconscious { creature } => format!("    {} falls unconscious", name(b, *creature)),
        Event::Died { creature } => format!("    {} dies", name(b, *creature)),
        Event::Searched { creature, at, found, .. } => format!(
            "  {} searches around {at}: {}",
            name(b, *creature),
            if found.is_empty() {
                "nothing".to_string()
            } else {
                found.iter().map(|f| name(b, *f)).collect::<Vec<_>>().join(", ")
            }
        ),
        Event::HidCreature { creature, difficulty } => {
            let what = if b.ruleset().hiding == crate::rules::ruleset::Hiding::HideSpot001 {
                "hide points"
            } else {
                "difficulty"
            };
            format!("  {} hides ({what} {difficulty})", name(b, *creature))
        }
        Event::SpotMade { creature, points, locked, noticed } => {
            let names =
                |ids: &[crate::battle::CreatureId]| ids.iter().map(|f| name(b, *f)).collect::<Vec<_>>().join(", ");
            let mut found = Vec::new();
            if !locked.is_empty() {
                found.push(format!("locks on to {}", names(locked)));
            }
            if !noticed.is_empty() {
                found.push(format!("notices {} out of sight", names(noticed)));
            }
            if found.is_empty() {
                found.push("finds nobody".into());
            }
            format!("  {} spots ({points} points): {}", name(b, *creature), found.join("; "))
        }
        Event::Revealed { creature, reason } => format!("  {} is revealed: {reason}", name(b, *creature)),
        Event::FleeAttempted { creature, points, difficulty, success } => format!(
            "  {} tries to flee: {points} vs {difficulty}, {}",
            name(b, *creature),
            if *success { "gets away" } else { "fails" }
        ),
        Event::Joined { creature, at } => format!("  {} joins the fight at {at}", name(b, *creature)),
        Event::BattleEnded { outcome } => match outcome {
            Outcome::Victory { side, reason } => format!("Battle over: {side} wins ({reason}) in round {}", b.round()),
            Outcome::Draw { reason } => format!("Battle over: draw ({reason})"),
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, load_level};
    use crate::rules::grid::Pos;

    // A move's cost in words: one step is "1 step"; a stretch of a move that a side saw only in
    // part carries no cost (`partial`), and is told as seen in part, not as "0 steps".
    #[test]
    fn a_move_is_told_with_its_cost_or_as_seen_in_part() {
        let level = load_level(std::path::Path::new("levels/duel.level.ron"), builtin_compendium()).unwrap();
        let b = Battle::new(&level, builtin_compendium(), 1).unwrap();
        let (a, z) = (Pos::new(1, 1), Pos::new(2, 1));
        let moved = |cost_quarters| Event::Moved { creature: 0, path: vec![a, z], cost_quarters, sprint: false };
        let told = |e: Event| narrate(&b, &e).unwrap();
        assert!(told(moved(4)).ends_with("(1 step)"), "{}", told(moved(4)));
        assert!(told(moved(6)).ends_with("(1.5 steps)"), "{}", told(moved(6)));
        assert!(told(moved(0)).ends_with("(seen in part)"), "{}", told(moved(0)));
    }
}
