//! The checks a level passes after it parses: sides, relations and victory conditions, then
//! the creatures (templates, squares, latecomers, ambushes, hold orders), each error located in
//! the file.

use super::*;

pub(super) fn sides_and_victory(
    level: &Level,
    map: &GridMap,
    compendium: &Compendium,
    loc: &Locator,
) -> Result<(), LevelError> {
    let at = |s: &str| loc.find(s);
    if level.sides.len() < 2 {
        return Err(loc.err_at(at("sides"), "a battle needs at least two sides".into()));
    }
    if level.sides.len() > crate::battle::MAX_SIDES {
        return Err(loc.err_at(
            at("sides"),
            format!("{} sides; a battle may have at most {}", level.sides.len(), crate::battle::MAX_SIDES),
        ));
    }
    for (i, s) in level.sides.iter().enumerate() {
        let named = at(&format!("\"{}\"", s.name));
        if let Some(ai) = &s.ai
            && !compendium.ai_profiles.contains_key(ai)
        {
            let known: Vec<&String> = compendium.ai_profiles.keys().collect();
            return Err(loc.err_at(
                at(&format!("\"{ai}\"")).or(named),
                format!("side \"{}\": unknown AI profile \"{ai}\" (known: {known:?})", s.name),
            ));
        }
        if level.sides[..i].iter().any(|o| o.name == s.name) {
            return Err(loc.err_at(named, format!("side \"{}\" is defined twice", s.name)));
        }
        for (other, relation) in &s.relations {
            let Some(o) = level.sides.iter().find(|o| &o.name == other) else {
                return Err(loc.err_at(at(&format!("\"{other}\"")), format!("relation to unknown side \"{other}\"")));
            };
            if o.name == s.name {
                return Err(loc.err_at(
                    loc.relation(&s.name, &s.name).or(named),
                    format!("side \"{}\" names a relation to itself", s.name),
                ));
            }
            // GEN-6: relations are mutual; two sides saying different things contradict.
            if let Some(back) = o.relations.get(&s.name)
                && back != relation
            {
                return Err(loc.err_at(
                    loc.relation(&o.name, &s.name).or(named),
                    format!(
                        "sides \"{}\" and \"{}\" contradict each other: {relation:?} one way, {back:?} the other (GEN-6: relations are mutual)",
                        s.name, o.name
                    ),
                ));
            }
        }
    }
    let relation = |a: &SideDef, b: &SideDef| {
        a.relations.get(&b.name).or_else(|| b.relations.get(&a.name)).copied().unwrap_or(Relation::Hostile)
    };
    let any_hostile = level
        .sides
        .iter()
        .enumerate()
        .any(|(i, a)| level.sides[i + 1..].iter().any(|b| relation(a, b) == Relation::Hostile));
    if !any_hostile {
        return Err(loc.err_at(at("sides"), "no two sides are hostile: there is nobody to fight (GEN-6)".into()));
    }
    if level.max_rounds == 0 || level.max_rounds > 1000 {
        return Err(loc.err_at(at("max_rounds"), "max_rounds must be 1..=1000".into()));
    }
    if level.victory.len() > MAX_VICTORY_CONDITIONS {
        return Err(loc.err_at(
            at("victory"),
            format!("{} victory conditions; a level may hold at most {MAX_VICTORY_CONDITIONS}", level.victory.len()),
        ));
    }
    for (k, v) in level.victory.iter().enumerate() {
        // Where the entry is, looked up only for an error (a scan of the file per condition:
        // 60,000 conditions took `check` 79 s when it was looked up for each).
        let here = || loc.victory(k);
        let side = match v {
            Victory::DefeatAllHostiles => continue,
            Victory::SurviveRounds { side, .. } | Victory::ReachZone { side, .. } => side,
        };
        if !level.sides.iter().any(|s| &s.name == side) {
            return Err(loc.err_at(here(), format!("victory condition names unknown side \"{side}\"")));
        }
        match v {
            Victory::SurviveRounds { rounds, .. } if *rounds == 0 || *rounds > level.max_rounds => {
                return Err(loc.err_at(
                    here(),
                    format!(
                        "SurviveRounds of {rounds}: it must be 1..={} (max_rounds), or the condition can never be met",
                        level.max_rounds
                    ),
                ));
            }
            Victory::ReachZone { from, to, .. } => {
                let on_map = |p: &(i32, i32)| map.in_bounds(Pos::new(p.0, p.1));
                if !on_map(from) || !on_map(to) {
                    return Err(loc.err_at(
                        here(),
                        format!(
                            "ReachZone {from:?}..{to:?} lies off the {}×{} map (x 0..{}, y 0..{})",
                            map.width(),
                            map.height(),
                            map.width() - 1,
                            map.height() - 1
                        ),
                    ));
                }
                if from.0 > to.0 || from.1 > to.1 {
                    return Err(loc.err_at(
                        here(),
                        format!("ReachZone from {from:?} to {to:?} is inverted: `from` is the south-west corner, `to` the north-east"),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

pub(super) fn creatures(
    level: &Level,
    map: &GridMap,
    compendium: &Compendium,
    loc: &Locator,
) -> Result<(), LevelError> {
    if level.creatures.len() > MAX_CREATURES {
        return Err(loc.err_at(
            loc.find("creatures"),
            format!("{} creatures; a level may hold at most {MAX_CREATURES}", level.creatures.len()),
        ));
    }
    let mut occupied: BTreeMap<Pos, usize> = BTreeMap::new();
    for (i, c) in level.creatures.iter().enumerate() {
        let here = |field: &str, message: String| loc.err_at(loc.creature_field(i, field), message);
        if level.creatures[..i].iter().any(|o| o.name == c.name) {
            return Err(here("name", format!("two creatures are named \"{}\"", c.name)));
        }
        let Some(template) = compendium.creatures.get(&c.template) else {
            return Err(here(
                "template",
                format!("creature \"{}\": unknown compendium entry \"{}\"", c.name, c.template),
            ));
        };
        if !level.sides.iter().any(|s| s.name == c.side) {
            return Err(here("side", format!("creature \"{}\": unknown side \"{}\"", c.name, c.side)));
        }
        if let Some(ai) = &c.ai
            && !compendium.ai_profiles.contains_key(ai)
        {
            return Err(here("ai", format!("creature \"{}\": unknown AI profile \"{ai}\"", c.name)));
        }
        use crate::level::compendium::{MAX_ARMOUR, MAX_WEAPONS};
        if c.overrides.weapons.as_ref().is_some_and(|w| w.len() > MAX_WEAPONS) {
            return Err(here("weapons", format!("creature \"{}\": at most {MAX_WEAPONS} weapons", c.name)));
        }
        if c.overrides.armour.as_ref().is_some_and(|a| a.len() > MAX_ARMOUR) {
            return Err(here("armour", format!("creature \"{}\": at most {MAX_ARMOUR} pieces of armour", c.name)));
        }
        for w in c.overrides.weapons.iter().flatten() {
            if !compendium.weapons.contains_key(w) {
                return Err(here("weapons", format!("creature \"{}\": unknown weapon \"{w}\"", c.name)));
            }
        }
        for a in c.overrides.armour.iter().flatten() {
            if !compendium.armour.contains_key(a) {
                return Err(here("armour", format!("creature \"{}\": unknown armour \"{a}\"", c.name)));
            }
        }
        for (n, v) in
            [("might", c.overrides.might), ("activeness", c.overrides.activeness), ("spirit", c.overrides.spirit)]
        {
            if v.is_some_and(|v| !(1..=30).contains(&v)) {
                return Err(here(n, format!("creature \"{}\": {n} must be 1..=30", c.name)));
            }
        }
        for item in &c.items {
            if !compendium.items.contains_key(item) {
                return Err(here("items", format!("creature \"{}\": unknown item \"{item}\"", c.name)));
            }
        }
        if c.items.len() + template.items.len() > crate::rules::items::MAX_CARRIED {
            return Err(here(
                "items",
                format!("creature \"{}\" carries more than {} items", c.name, crate::rules::items::MAX_CARRIED),
            ));
        }
        if let Some(mount) = &c.rides {
            let problem = match level.creatures.iter().position(|o| &o.name == mount) {
                None => Some(format!("no creature is named \"{mount}\"")),
                Some(j) if j == i => Some("a creature cannot ride itself".to_string()),
                Some(j) => {
                    let m = &level.creatures[j];
                    let mt = compendium.creatures.get(&m.template);
                    if mt.is_some_and(|t| !t.mount) {
                        Some(format!("\"{mount}\" ({}) is not a mount (MOVE-E8)", m.template))
                    } else if m.side != c.side {
                        Some(format!("\"{mount}\" is of another side"))
                    } else if mt.is_some_and(|t| t.size <= template.size) || template.size.footprint() != 1 {
                        Some(format!("\"{mount}\" must be larger than its rider, and the rider one square (MOVE-E8)"))
                    } else if m.at != c.at {
                        Some(format!("the rider sits on its mount's south-west square: at must be {:?}", m.at))
                    } else if c.arrives.is_some() || m.arrives.is_some() || m.rides.is_some() {
                        Some("rider and mount start together, and a mount rides nothing".to_string())
                    } else if level
                        .creatures
                        .iter()
                        .enumerate()
                        .any(|(k, o)| k != i && o.rides.as_deref() == Some(mount))
                    {
                        Some(format!("\"{mount}\" carries one rider"))
                    } else {
                        None
                    }
                }
            };
            if let Some(p) = problem {
                return Err(here("rides", format!("creature \"{}\" rides \"{mount}\": {p}", c.name)));
            }
        }
        if c.overrides.speed.is_some_and(|s| !(0..=50).contains(&s)) {
            return Err(here("speed", format!("creature \"{}\": speed must be 0..=50", c.name)));
        }
        let fp = Footprint::new(Pos::new(c.at.0, c.at.1), template.size.footprint());
        for cell in fp.cells() {
            if !map.in_bounds(cell) {
                return Err(here(
                    "at",
                    format!(
                        "creature \"{}\" ({:?}, {}×{}) at {},{} does not fit on the {}×{} map",
                        c.name,
                        template.size,
                        fp.side,
                        fp.side,
                        c.at.0,
                        c.at.1,
                        map.width(),
                        map.height()
                    ),
                ));
            }
            if map.blocks_movement(cell) {
                return Err(here(
                    "at",
                    format!(
                        "creature \"{}\" stands on {} at {cell}, which blocks movement",
                        c.name,
                        map.terrain(cell).name
                    ),
                ));
            }
            let paired = |other: usize| {
                c.rides.as_deref() == Some(level.creatures[other].name.as_str())
                    || level.creatures[other].rides.as_deref() == Some(c.name.as_str())
            };
            if let Some(&other) = occupied.get(&cell).filter(|&&o| !paired(o)) {
                return Err(here(
                    "at",
                    format!("creature \"{}\" overlaps \"{}\" at {cell}", c.name, level.creatures[other].name),
                ));
            }
        }
        if let Some(round) = c.arrives
            && !(1..=level.max_rounds).contains(&round)
        {
            return Err(here(
                "arrives",
                format!(
                    "creature \"{}\" arrives in round {round}: latecomers arrive in rounds 1..={} (TIME-4), else never",
                    c.name, level.max_rounds
                ),
            ));
        }
        if c.hidden && c.arrives.is_some() {
            return Err(here(
                "hidden",
                format!("creature \"{}\" is a latecomer: it arrives in view, it cannot start hidden (PERC-E4)", c.name),
            ));
        }
        if let Some(hold) = &c.hold {
            let ((x0, y0), (x1, y1)) = hold.corners();
            if !map.in_bounds(Pos::new(x0, y0)) || !map.in_bounds(Pos::new(x1, y1)) {
                return Err(here(
                    "hold",
                    format!(
                        "creature \"{}\" holds ({x0}, {y0})–({x1}, {y1}), which is not all on the {}×{} map",
                        c.name,
                        map.width(),
                        map.height()
                    ),
                ));
            }
            if let Some(out) = fp.cells().find(|p| !hold.contains(p.x, p.y)) {
                return Err(here(
                    "hold",
                    format!(
                        "creature \"{}\" must hold ({x0}, {y0})–({x1}, {y1}) but starts partly outside it (at {out})",
                        c.name
                    ),
                ));
            }
        }
        if c.arrives.is_none() {
            for cell in fp.cells() {
                occupied.insert(cell, i);
            }
        }
    }
    for side in &level.sides {
        if !level.creatures.iter().any(|c| c.side == side.name) {
            return Err(loc.err_at(
                loc.find("sides").and_then(|from| loc.find_from(&format!("\"{}\"", side.name), from)),
                format!("side \"{}\" has no creatures: nobody could play it", side.name),
            ));
        }
    }
    Ok(())
}

/// TIME-18: the items lying on the map are known, on the map and on ground a hand can reach
/// (not inside a wall, not down a pit's unseen bottom: open ground only).
pub(super) fn items(level: &Level, map: &GridMap, compendium: &Compendium, loc: &Locator) -> Result<(), LevelError> {
    if level.items.is_empty() {
        return Ok(());
    }
    let section = loc.find("items:");
    if level.items.len() > super::MAX_ITEMS_ON_MAP {
        let message =
            format!("{} items; a level may leave at most {} on its map", level.items.len(), super::MAX_ITEMS_ON_MAP);
        return Err(loc.err_at(section, message));
    }
    // Where the i-th entry starts (its `item:`), looked up only for an error.
    let here = |i: usize| section.and_then(|from| loc.find_nth("item:", from, i));
    for (i, it) in level.items.iter().enumerate() {
        let at = Pos::new(it.at.0, it.at.1);
        let what = format!("item {} (\"{}\" at {},{})", i + 1, it.item, it.at.0, it.at.1);
        if !compendium.items.contains_key(&it.item) {
            let known: Vec<&String> = compendium.items.keys().collect();
            return Err(loc.err_at(here(i), format!("{what}: unknown item; the compendium has {known:?}")));
        }
        if !map.in_bounds(at) {
            return Err(loc.err_at(here(i), format!("{what} is off the {}×{} map", map.width(), map.height())));
        }
        if map.blocks_movement(at) {
            return Err(
                loc.err_at(here(i), format!("{what} lies on \"{}\", which blocks movement", map.terrain(at).name))
            );
        }
    }
    Ok(())
}
