//! The panel's card of a creature: its AP, pools, protection, abilities, senses (what it
//! perceives by and what it has lost), what it carries, its readiness and its weapons.

use super::input::Choice;
use crate::battle::{Battle, Fighter};
use std::fmt::Write;

pub(super) fn pools(f: &Fighter) -> String {
    let names = ["Might", "Activeness", "Spirit"];
    f.attrs
        .pools
        .iter()
        .zip(names)
        .filter_map(|(p, n)| p.map(|p| format!("{n} {}/{}", p.current, p.max)))
        .collect::<Vec<_>>()
        .join("  ")
}

/// PERC-1, PERC-4, PERC-E6, FLOW-D3: what it perceives by, what it relies on, what it has
/// lost and for how many more of its turns, and whether it is invisible.
fn senses_line(f: &Fighter) -> String {
    use crate::rules::senses::Sense;
    let now = f.sense_ranges();
    let mut parts: Vec<String> = Sense::ALL
        .into_iter()
        .filter(|&s| f.senses.range(s) > 0)
        .map(|s| {
            let lost = f.senses_lost[s.index()];
            let dark = if s == Sense::Vision && f.senses.darkvision { " in the dark too" } else { "" };
            if lost > 0 {
                format!("{} ({}, {lost} more turns)", s.name(), s.lost_word())
            } else {
                format!("{} {}{dark}", s.name(), now[s.index()])
            }
        })
        .collect();
    if parts.is_empty() {
        parts.push("none".into());
    }
    let relies = f.senses.habitual().map_or(String::new(), |h| {
        if f.has_lost(h) {
            format!("; relies on {}: lost, so it perceives only what is next to it (PERC-4)", h.name())
        } else {
            format!("; relies on {}", h.name())
        }
    });
    let invisible = if f.invisible { "; INVISIBLE (PERC-E6)" } else { "" };
    format!("senses: {}{relies}{invisible}", parts.join(", "))
}

pub(super) fn creature_card(out: &mut String, b: &Battle, f: &Fighter, choice: Option<&Choice>) {
    let _ = writeln!(out, "{}  ({})", f.name, b.sides()[f.side].name);
    let _ = writeln!(
        out,
        "  AP {}/{}  speed {}  {}, facing {}",
        f.ap,
        f.max_ap,
        f.speed,
        f.posture.name(),
        f.facing.name()
    );
    if let Some(clock) = clock_line(b.clock(f.id)) {
        let _ = writeln!(out, "  {clock}");
    }
    let _ = writeln!(out, "  {}", pools(f));
    let p = &f.protection;
    let _ = writeln!(out, "  protection: physical {}, erosion {}, spectral {}", p.physical, p.erosion, p.spectral);
    if !f.abilities.is_empty() {
        let names: Vec<String> = f
            .abilities
            .iter()
            .map(|(_, a)| match a.effect {
                crate::level::compendium::AbilityEffect::Additive { ap, dice, .. } => {
                    format!("{} (+{ap} AP, +{dice} dice)", a.name)
                }
                crate::level::compendium::AbilityEffect::QuickStep { ap } => format!("{} (reaction, {ap} AP)", a.name),
                crate::level::compendium::AbilityEffect::CounterAttack { ap } => {
                    format!("{} (reaction, {ap} AP)", a.name)
                }
            })
            .collect();
        let _ = writeln!(out, "  abilities: {}", names.join(", "));
    }
    let _ = writeln!(out, "  {}", senses_line(f));
    if !f.items.is_empty() {
        let names: Vec<&str> = f.items.iter().map(|k| b.item_name(k)).collect();
        let _ = writeln!(out, "  carries: {}", names.join(", "));
    }
    if let Some(m) = b.mount_of(f.id) {
        let _ = writeln!(out, "  riding {} (MOVE-14: moves only with it)", b.fighter(m).name);
    }
    if let Some(r) = b.rider_of(f.id) {
        let _ = writeln!(out, "  ridden by {}", b.fighter(r).name);
    }
    if let Some(body) = b.carried_by(f.id) {
        let _ = writeln!(out, "  carrying {} (MOVE-E7: its weight slows every move)", b.fighter(body).name);
    }
    if let Some(r) = &f.readied {
        let name = f.weapon(&r.weapon).map_or(r.weapon.as_str(), |w| w.weapon.name.as_str());
        let _ = writeln!(
            out,
            "  readied: {name} (TIME-E10: fires at {})",
            r.trigger.describe(|c| b.fighter(c).name.clone())
        );
    }
    if f.attrs.is_unconscious() {
        let _ = writeln!(out, "  UNCONSCIOUS");
    }
    if let Some(choice) = choice {
        for (k, w) in f.weapons.iter().enumerate() {
            let mark = if choice.weapon.as_deref() == Some(w.key.as_str()) { ">" } else { " " };
            let ammo = w.ammo.map_or(String::new(), |a| format!(", {a} left"));
            let range = if w.weapon.range.ranged {
                format!("range {}", w.weapon.range.max)
            } else {
                format!("reach {}", w.weapon.range.max)
            };
            let _ = writeln!(out, " {mark}{} {} ({} AP, {range}{ammo})", k + 1, w.weapon.name, w.weapon.ap);
        }
    }
}

/// TIME-S7 in words, for the seconds mode (None while the creature is free to act).
fn clock_line(clock: crate::battle::ClockView) -> Option<String> {
    use crate::battle::ClockView;
    match clock {
        ClockView::Idle => None,
        ClockView::Running { left } => Some(format!("acting: its action resolves in {left} s (TIME-S2)")),
        ClockView::Keeping => Some("keeping a readied attack until its next slot (TIME-S4)".into()),
        ClockView::Gap { left } => Some(format!("in a gap: {left} s before it may act or react (TIME-S3)")),
    }
}

#[cfg(test)]
mod tests {
    use crate::battle::Battle;
    use crate::level::{builtin_compendium, parse_level};
    use crate::rules::senses::Sense;

    const LEVEL: &str = r#"(name: "Panel", map: ["....", "...."], legend: { '.': "floor" },
        terrains: { "floor": () }, sides: [(name: "A"), (name: "B")],
        creatures: [(name: "Guard", template: "human_fighter", side: "A", at: (0, 0)),
                    (name: "Phantom", template: "phantom", side: "B", at: (3, 1))])"#;

    // RULES: FLOW-D3, PERC-4, PERC-E6 — the panel's senses line: ranges, a lost sense with its
    // turns left, the habitual sense's loss shrinking the rest to adjacency, invisibility.
    #[test]
    fn the_senses_line_tells_what_a_creature_perceives_by() {
        let l = parse_level("panel.level.ron", LEVEL, builtin_compendium()).unwrap();
        let b = Battle::new(&l, builtin_compendium(), 1).unwrap();
        let mut guard = b.fighter(0).clone();
        assert_eq!(super::senses_line(&guard), "senses: sight 40, hearing 12; relies on sight");
        guard.senses_lost[Sense::Vision.index()] = 2;
        assert_eq!(
            super::senses_line(&guard),
            "senses: sight (blinded, 2 more turns), hearing 1; relies on sight: lost, so it perceives only what \
             is next to it (PERC-4)"
        );
        assert!(super::senses_line(b.fighter(1)).ends_with("; relies on sight; INVISIBLE (PERC-E6)"));
    }

    // RULES: TIME-S7 — the card says in words what the die by the token counts.
    #[test]
    fn the_card_says_what_the_clock_counts() {
        use crate::battle::ClockView;
        assert_eq!(super::clock_line(ClockView::Idle), None);
        let running = super::clock_line(ClockView::Running { left: 2 }).unwrap();
        assert_eq!(running, "acting: its action resolves in 2 s (TIME-S2)");
        assert!(super::clock_line(ClockView::Gap { left: 1 }).unwrap().starts_with("in a gap: 1 s"));
        assert!(super::clock_line(ClockView::Keeping).unwrap().contains("TIME-S4"));
    }
}
