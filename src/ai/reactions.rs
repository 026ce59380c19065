//! The AI's reactions: defend when the damage a defense prevents is worth its AP, Quick Step
//! out of reach when that cancels the attack, counter-attack when that beats defending.

use super::odds::preview_odds;
use crate::battle::{Battle, Command, CreatureId, Explanation, OptionScore};
use crate::rules::attack::Defense;
use crate::rules::facing::Facing;
use crate::rules::grid::Footprint;

/// ATK-11: defend when it prevents damage worth the AP, with the defense preventing most.
pub(super) fn defend(b: &Battle, me: CreatureId) -> (Command, Option<Explanation>) {
    let none = (Command::Defend { defense: None }, None);
    let Some(w) = b.window_preview() else { return none };
    let Some(after) = w.damage_if_taken else { return none };
    let f = b.fighter(me);
    let mut options: Vec<(f64, Defense, i32)> = w
        .attack
        .defenses
        .iter()
        .filter(|d| d.allowed.is_ok())
        .map(|d| (w.expected_prevented(d), d.defense, d.ap))
        .collect();
    options.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1 as i32).cmp(&(b.1 as i32))));
    let explain = Explanation {
        creature: me,
        options: options
            .iter()
            .map(|&(prevented, d, ap)| OptionScore {
                summary: format!("{d:?} against {after}"),
                expected_dealt: 0.0,
                expected_taken: after as f64 - prevented,
                rear_attack: false,
                rear_exposed: false,
                cover: false,
                ap_kept: f.ap - ap,
                total: prevented,
            })
            .collect(),
        look_ahead: None,
    };
    match options.first() {
        // Any AP left is only good for reactions until our next turn starts: spend it.
        Some(&(prevented, d, _)) if prevented > 0.05 => (Command::Defend { defense: Some(d) }, Some(explain)),
        _ => (Command::Defend { defense: None }, Some(explain)),
    }
}

/// TIME-14: Quick Step out of reach when that cancels the attack; TIME-13: counter when the
/// strike is worth more than a defense would prevent.
pub(super) fn before_attack(b: &Battle, me: CreatureId) -> Command {
    let Some(w) = b.window_preview() else { return Command::Pass };
    let f = b.fighter(me);
    let a = b.fighter(w.attacker);
    if let Some(step) = b.quick_step_options().into_iter().filter(|s| s.cancels).min_by_key(|s| s.to) {
        let face = Facing::toward_footprint(Footprint::new(step.to, f.size.footprint()), a.footprint());
        return Command::QuickStep { to: step.to, face: b.ruleset().facing.then_some(face) };
    }
    // A counter is our one reaction in this chain: no defense after it.
    let defense = w.attack.best_defense_dice();
    let prevented = preview_odds(&w.attack, 0, 1).0.expected - preview_odds(&w.attack, defense, 1).0.expected;
    let counter = b
        .counter_options()
        .into_iter()
        .filter(|c| c.dice > 0)
        .map(|c| (preview_odds(&c, c.best_defense_dice(), 1).0.expected, c.weapon))
        .max_by(|x, y| x.0.total_cmp(&y.0));
    match counter {
        Some((value, weapon)) if value > prevented => Command::CounterAttack { weapon },
        _ => Command::Pass,
    }
}
