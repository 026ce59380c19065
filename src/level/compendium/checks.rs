//! Checking a compendium: every reference resolves and every number is within its bound
//! (`Compendium::validate`), and a file's errors placed where it writes them (`locate`).

use super::*;

/// `file:line:column: message` for an error of `merge` or `validate` about an entry this
/// file's `text` defines (`creature 'hx': …` is placed on `"hx"` in its `creatures` map, or on
/// the field the message names inside that entry); `file: message` when the entry is not the
/// file's (a built-in one) or the message names none.
pub fn locate(file: &str, text: &str, message: &str) -> String {
    let section = [
        ("creature '", "creatures"),
        ("weapon '", "weapons"),
        ("armour '", "armour"),
        ("ability '", "abilities"),
        ("item '", "items"),
        ("AI profile '", "ai_profiles"),
    ]
    .into_iter()
    .find_map(|(prefix, section)| Some((message.strip_prefix(prefix)?.split_once('\'')?.0, section)));
    let at = section.and_then(|(key, section)| {
        let loc = crate::level::Locator::new(file, text);
        let entry = loc.find(&format!("{section}:")).and_then(|s| loc.find_from(&format!("\"{key}\""), s))?;
        // The field the message names (`natural_protection`, `dice.plus` → `plus:`), if the
        // entry writes it before the next entry of the map (a rough end: the next `"key":`).
        let rest = message.split_once(&format!("'{key}'"))?.1.trim_start_matches([':', ' ']);
        let word = rest.split([' ', ';', ',']).next().unwrap_or("");
        let name = word.rsplit('.').next().unwrap_or("");
        let next = loc.find_from("\":", entry + key.len() + 2).unwrap_or(text.len());
        let field = (!name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            .then(|| {
                let key = format!("{name}:");
                let mut from = entry;
                // A whole word: `ap:` is not the end of `heap:`.
                while let Some(i) = loc.find_from(&key, from).filter(|&i| i < next) {
                    if !text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                        return Some(i);
                    }
                    from = i + key.len();
                }
                None
            })
            .flatten();
        Some(field.unwrap_or(entry))
    });
    match at {
        Some(offset) => {
            let (line, column) = crate::level::line_col(text, offset);
            format!("{file}:{line}:{column}: {message}")
        }
        None => format!("{file}: {message}"),
    }
}

/// Every name a creature template lists is an entry of `known`, else the first that is not.
fn all_known<T>(key: &str, kind: &str, names: &[String], known: &BTreeMap<String, T>) -> Result<(), String> {
    match names.iter().find(|n| !known.contains_key(*n)) {
        Some(n) => Err(format!("creature '{key}' names unknown {kind} '{n}'")),
        None => Ok(()),
    }
}

impl Compendium {
    /// Every reference between entries resolves.
    pub fn validate(&self) -> Result<(), String> {
        let dice = |v: i32| (-MAX_ENTRY_DICE..=MAX_ENTRY_DICE).contains(&v);
        let protections = |p: &Protections| [p.physical, p.erosion, p.spectral].into_iter().all(dice);
        for (key, c) in &self.creatures {
            if c.weapons.len() > MAX_WEAPONS || c.armour.len() > MAX_ARMOUR {
                return Err(format!(
                    "creature '{key}' carries {} weapons and {} armour; at most {MAX_WEAPONS} and {MAX_ARMOUR}",
                    c.weapons.len(),
                    c.armour.len()
                ));
            }
            if !protections(&c.natural_protection) {
                return Err(format!(
                    "creature '{key}': natural_protection must be -{MAX_ENTRY_DICE}..={MAX_ENTRY_DICE} of each kind"
                ));
            }
            if c.strength.is_some_and(|s| !(0..=MAX_STRENGTH).contains(&s)) {
                return Err(format!("creature '{key}': strength must be 0..={MAX_STRENGTH} (CRE-11)"));
            }
            all_known(key, "weapon", &c.weapons, &self.weapons)?;
            all_known(key, "armour", &c.armour, &self.armour)?;
            all_known(key, "ability", &c.abilities, &self.abilities)?;
            all_known(key, "item", &c.items, &self.items)?;
            if c.items.len() > crate::rules::items::MAX_CARRIED {
                return Err(format!("creature '{key}' carries more than {} items", crate::rules::items::MAX_CARRIED));
            }
            if c.speed < 0 || c.speed > 50 || c.max_ap < 1 || c.max_ap > 20 {
                return Err(format!("creature '{key}': speed must be 0..=50 and max_ap 1..=20"));
            }
            if c.weight.is_some_and(|w| !(1..=crate::rules::creature::MAX_WEIGHT).contains(&w)) {
                return Err(format!("creature '{key}': weight must be 1..={} kg", crate::rules::creature::MAX_WEIGHT));
            }
            use crate::rules::senses::MAX_SENSE_RANGE;
            if let Some(sense) = Sense::ALL.into_iter().find(|&s| !(0..=MAX_SENSE_RANGE).contains(&c.senses.range(s))) {
                return Err(format!(
                    "creature '{key}': the range of its {} must be 0..={MAX_SENSE_RANGE}",
                    sense.name()
                ));
            }
            if let Some(h) = c.senses.habitual.filter(|&h| c.senses.range(h) == 0) {
                return Err(format!(
                    "creature '{key}' relies on {} (PERC-4: its habitual sense) but lacks it",
                    h.name()
                ));
            }
            for (n, v) in [("might", c.might), ("activeness", c.activeness), ("spirit", c.spirit)] {
                if v.is_some_and(|v| !(1..=30).contains(&v)) {
                    return Err(format!("creature '{key}': {n} must be 1..=30 or None"));
                }
            }
        }
        for (key, w) in &self.weapons {
            if w.targets.is_empty() {
                return Err(format!("weapon '{key}' damages no attribute"));
            }
            if w.range.max < 1 || w.range.min < 0 || w.range.min >= w.range.max || w.range.max > 200 {
                return Err(format!("weapon '{key}': range must satisfy 0 <= min < max <= 200"));
            }
            if w.segments == 0 || w.segments > 10 || w.dice.div < 1 || w.ap < 0 || w.ap > 20 {
                return Err(format!("weapon '{key}': segments 1..=10, dice.div >= 1, ap 0..=20"));
            }
            for (name, v, range) in [
                ("dice.plus", w.dice.plus, -MAX_ENTRY_DICE..=MAX_ENTRY_DICE),
                ("dice.div", w.dice.div, 1..=MAX_ENTRY_DICE),
                ("penetration", w.penetration, 0..=MAX_ENTRY_DICE),
                ("block_bonus", w.block_bonus, 0..=MAX_ENTRY_DICE),
            ] {
                if !range.contains(&v) {
                    return Err(format!(
                        "weapon '{key}': {name} is {v}; it must be {}..={}",
                        range.start(),
                        range.end()
                    ));
                }
            }
            if w.forced.is_some_and(|f| !(1..=crate::rules::forced::MAX_FORCED_STEPS).contains(&f.steps)) {
                return Err(format!(
                    "weapon '{key}': a forced move's steps must be 1..={}",
                    crate::rules::forced::MAX_FORCED_STEPS
                ));
            }
            if let Some(problem) = w.area.as_ref().and_then(AreaSpec::problem) {
                return Err(format!("weapon '{key}': {problem}"));
            }
            if w.takes_sense.is_some_and(|l| !(1..=crate::rules::senses::MAX_SENSE_LOSS_TURNS).contains(&l.turns)) {
                return Err(format!(
                    "weapon '{key}': a sense is taken for 1..={} turns",
                    crate::rules::senses::MAX_SENSE_LOSS_TURNS
                ));
            }
        }
        for (key, a) in &self.armour {
            if !protections(&a.protection) {
                return Err(format!(
                    "armour '{key}': protection must be -{MAX_ENTRY_DICE}..={MAX_ENTRY_DICE} of each kind (CRE-10)"
                ));
            }
        }
        for (key, a) in &self.abilities {
            let (ap, extra) = match a.effect {
                AbilityEffect::Additive { ap, dice, .. } => (ap, dice),
                AbilityEffect::QuickStep { ap } | AbilityEffect::CounterAttack { ap } => (ap, 0),
            };
            if !(0..=20).contains(&ap)
                || !(0..=MAX_ENTRY_DICE).contains(&extra)
                || !(0..=MAX_ENTRY_DICE).contains(&a.level)
            {
                return Err(format!(
                    "ability '{key}': ap must be 0..=20, an additive's dice and the level 0..={MAX_ENTRY_DICE}"
                ));
            }
        }
        for (key, item) in &self.items {
            if let Some(problem) = item.problem() {
                return Err(format!("item '{key}': {problem}"));
            }
            if let Some(crate::rules::items::ItemUse::Reload { weapon, .. }) = &item.on_use
                && self.weapons.get(weapon).is_none_or(|w| w.ammo.is_none())
            {
                return Err(format!("item '{key}' reloads '{weapon}', which is no weapon with ammunition"));
            }
        }
        for (key, p) in &self.ai_profiles {
            let knobs = [
                ("aggression", p.aggression),
                ("caution", p.caution),
                ("focus_fire", p.focus_fire),
                ("self_preservation", p.self_preservation),
            ];
            if let Some((knob, v)) = knobs.iter().find(|(_, k)| !k.is_finite() || !(0.0..=10.0).contains(k)) {
                return Err(format!("AI profile '{key}': {knob} is {v}; it must be 0..=10"));
            }
            if p.difficulty > 2 {
                return Err(format!("AI profile '{key}': difficulty is {}; it must be 0..=2", p.difficulty));
            }
            // Bounded so that a profile cannot make one decision take minutes.
            let look = p.look_ahead;
            if look.candidates > MAX_LOOK_AHEAD_CANDIDATES
                || look.rollouts > MAX_LOOK_AHEAD_ROLLOUTS
                || look.rounds > MAX_LOOK_AHEAD_ROUNDS
                || look.doubt > MAX_LOOK_AHEAD_DOUBT
            {
                return Err(format!(
                    "AI profile '{key}': look_ahead candidates 0..={MAX_LOOK_AHEAD_CANDIDATES}, rollouts 0..={MAX_LOOK_AHEAD_ROLLOUTS}, rounds 0..={MAX_LOOK_AHEAD_ROUNDS}, doubt 0..={MAX_LOOK_AHEAD_DOUBT}"
                ));
            }
        }
        Ok(())
    }
}
