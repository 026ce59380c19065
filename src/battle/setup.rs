//! A battle from a validated level: creatures built from the compendium, the first initiative.

use super::state::*;
use super::types::*;
use crate::level::compendium::{Ability, Compendium};
use crate::level::{LoadedLevel, Relation};
use crate::rules::creature::{Attribute, Attributes};
use crate::rules::grid::Pos;
use crate::rules::initiative::roll_initiative_with;
use crate::rules::senses::{Disguise, search_difficulty};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Why a level cannot become a battle.
pub type SetupError = String;

/// Most sides a battle may have (the level validator refuses more, with the line).
pub const MAX_SIDES: usize = 16;

impl Battle {
    /// Set up a battle from a validated level, rolling initiative (TIME-1, TIME-2).
    pub fn new(level: &LoadedLevel, compendium: &Compendium, seed: u64) -> Result<Battle, SetupError> {
        Battle::with_players(level, compendium, seed, &[])
    }

    /// As [`Battle::new`], with the sides (by name) a person plays: under
    /// `FateOffer::Players` their creatures are offered Expense of Fate (DICE-13, GEN-E1).
    pub fn with_players(
        level: &LoadedLevel,
        compendium: &Compendium,
        seed: u64,
        players: &[String],
    ) -> Result<Battle, SetupError> {
        let l = &level.level;
        if let Some(unknown) = players.iter().find(|p| !l.sides.iter().any(|s| &s.name == *p)) {
            return Err(format!("no side named '{unknown}' plays in this level"));
        }
        if l.sides.len() > MAX_SIDES {
            return Err(format!("a battle may have at most {MAX_SIDES} sides"));
        }
        let sides: Vec<SideInfo> = l
            .sides
            .iter()
            .map(|s| SideInfo {
                name: s.name.clone(),
                human: s.human,
                fate: players.contains(&s.name),
                relations: l
                    .sides
                    .iter()
                    .map(|o| {
                        if o.name == s.name {
                            Relation::Friendly
                        } else {
                            // GEN-6: relations are mutual; an unlisted pair is hostile.
                            s.relations
                                .get(&o.name)
                                .or_else(|| o.relations.get(&s.name))
                                .copied()
                                .unwrap_or(Relation::Hostile)
                        }
                    })
                    .collect(),
            })
            .collect();
        let mut creatures = Vec::with_capacity(l.creatures.len());
        for (i, c) in l.creatures.iter().enumerate() {
            let t = compendium.creatures.get(&c.template).ok_or_else(|| format!("unknown creature {}", c.template))?;
            let o = &c.overrides;
            let attrs = Attributes::new(
                o.might.or(t.might).filter(|_| t.might.is_some()),
                o.activeness.or(t.activeness).filter(|_| t.activeness.is_some()),
                o.spirit.or(t.spirit).filter(|_| t.spirit.is_some()),
            );
            let weapon_keys = o.weapons.clone().unwrap_or_else(|| t.weapons.clone());
            let armour_keys = o.armour.clone().unwrap_or_else(|| t.armour.clone());
            let weapons = weapon_keys
                .iter()
                .map(|k| {
                    let w = compendium.weapons.get(k).ok_or_else(|| format!("unknown weapon {k}"))?;
                    Ok(Armed { key: k.clone(), weapon: w.clone(), ammo: w.ammo })
                })
                .collect::<Result<Vec<_>, String>>()?;
            let mut protection = t.natural_protection;
            for k in &armour_keys {
                protection =
                    protection.plus(compendium.armour.get(k).ok_or_else(|| format!("unknown armour {k}"))?.protection);
            }
            let abilities: Vec<(String, Ability)> = t
                .abilities
                .iter()
                .filter_map(|k| compendium.abilities.get(k).map(|a| (k.clone(), a.clone())))
                .collect();
            let trained = [t.might.unwrap_or(3), t.activeness.unwrap_or(3), t.spirit.unwrap_or(3)];
            let strength = t.strength.unwrap_or_else(|| {
                crate::rules::creature::strength(trained, &abilities.iter().map(|(_, a)| a.level).collect::<Vec<_>>())
            });
            let side =
                l.sides.iter().position(|s| s.name == c.side).ok_or_else(|| format!("unknown side {}", c.side))?;
            let ai_profile = c.ai.clone().or_else(|| l.sides[side].ai.clone()).unwrap_or_else(|| "normal".into());
            if !compendium.ai_profiles.contains_key(&ai_profile) {
                return Err(format!("creature {}: unknown AI profile {ai_profile}", c.name));
            }
            creatures.push(Fighter {
                id: i as CreatureId,
                name: c.name.clone(),
                template: c.template.clone(),
                side,
                size: t.size,
                origin: Pos::new(c.at.0, c.at.1),
                facing: c.facing,
                posture: c.posture,
                attrs,
                protection,
                // TIME-E4: everyone enters the Moment with full AP.
                ap: t.max_ap,
                max_ap: t.max_ap,
                speed: o.speed.unwrap_or(t.speed),
                weapons,
                abilities,
                senses: t.senses.clone(),
                ai_profile,
                presence: match c.arrives {
                    Some(r) => Presence::Waiting(r),
                    None => Presence::Active,
                },
                hidden: c.hidden.then(|| {
                    let fp = crate::rules::grid::Footprint::new(Pos::new(c.at.0, c.at.1), t.size.footprint());
                    let concealing = fp.cells().any(|p| level.map.terrain(p).concealing);
                    let grade = if concealing { Disguise::Careful } else { Disguise::Simple };
                    search_difficulty(t.size.search_difficulty(), grade)
                }),
                hit_this_round: false,
                hit_free_streak: 0,
                noisy_round: None,
                long_term: None,
                allocation: Vec::new(),
                reacted_chain: 0,
                spent_this_turn: 0,
                strength,
                delayed_round: None,
                controller: c.controller,
                hold: c.hold,
                surprised: false,
                fell: false,
                adapted: t.adapted.clone(),
                items: t.items.iter().chain(&c.items).cloned().collect(),
                readied: None,
                senses_lost: [0; 5],
                invisible: t.invisible,
                weight: t.weight.unwrap_or_else(|| t.size.default_weight()),
                dragging: None,
                carrying: None,
                mount: t.mount,
                riding: None,
                rider: None,
                betrayed_to: Vec::new(),
                locked_on: Vec::new(),
                clock: None,
            });
        }
        // MOVE-E8: riders start in the saddle (the level checked the pairs).
        for (i, c) in l.creatures.iter().enumerate() {
            if let Some(m) = c.rides.as_ref().and_then(|m| l.creatures.iter().position(|o| &o.name == m)) {
                creatures[i].riding = Some(m as CreatureId);
                creatures[i].posture = crate::rules::posture::Posture::Sit;
                creatures[m].rider = Some(i as CreatureId);
            }
        }
        let n = creatures.len();
        let mut battle = Battle {
            level_name: l.name.clone(),
            level_file: level.file.clone(),
            seed,
            map: level.map.clone(),
            ruleset: l.ruleset,
            sides,
            creatures,
            order: Vec::new(),
            turn: 0,
            round: 0,
            second: 0,
            max_rounds: l.max_rounds,
            victory: l.victory.clone(),
            phase: Phase::Turn(0),
            log: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            dice_by_turn: None,
            perceives: vec![false; n * n],
            chain: 0,
            last_seen: vec![None; n * l.sides.len()],
            seen_as: vec![None; n * l.sides.len()],
            lost_round: vec![0; n * l.sides.len()],
            announced: vec![false; n * l.sides.len()],
            ai_profiles: Arc::new(compendium.ai_profiles.clone()),
            objects: l.objects.iter().map(super::objects::ObjectState::new).collect(),
            item_defs: Arc::new(compendium.items.clone()),
            ground_items: l
                .items
                .iter()
                .map(|i| super::items::GroundItem { at: Pos::new(i.at.0, i.at.1), item: i.item.clone() })
                .collect(),
            ready_queue: Vec::new(),
        };
        battle.start(l.encounter_opening);
        Ok(battle)
    }

    fn start(&mut self, opening: bool) {
        let all = self.all_sides();
        let fate = self.sides.iter().filter(|s| s.fate).map(|s| s.name.clone()).collect();
        self.log_to(Event::BattleStarted { level: self.level_file.clone(), seed: self.seed, fate }, all);
        // PERC-E4: an ambusher placed hidden where a hostile is adjacent or would spot it in
        // the open starts revealed (the engine's own test of exposure, as after a move).
        let mut exposed: Vec<(CreatureId, String)> = Vec::new();
        for v in 0..self.creatures.len() as CreatureId {
            if self.creatures[v as usize].is_active()
                && let Some(why) = self.exposure(v)
            {
                exposed.push((v, why));
            }
        }
        // Perception first: each side learns whom it sees, then only their initiative.
        for v in 0..self.creatures.len() {
            self.refresh_perception_of(v as CreatureId);
        }
        self.sync_perception();
        for (v, reason) in exposed {
            self.log_about(Event::Revealed { creature: v, reason }, &[v]);
        }
        let entrants: Vec<CreatureId> =
            self.creatures.iter().filter(|c| c.presence == Presence::Active).map(|c| c.id).collect();
        let order = self.roll_order(&entrants);
        self.order = order;
        self.log_turn_order();
        // TIME-E9: a side caught unaware gives the others a surprise round (round 0) first.
        self.round = if opening && self.open_encounter() { 0 } else { 1 };
        self.begin_round();
    }

    /// TIME-2/3/E1, with TIME-5/E3 group initiative: identical AI creatures of one side share a
    /// roll and a slot, in level order within it.
    pub(super) fn roll_order(&mut self, entrants: &[CreatureId]) -> Vec<CreatureId> {
        let mut groups: Vec<Vec<CreatureId>> = Vec::new();
        for &id in entrants {
            let c = &self.creatures[id as usize];
            let grouped = self.ruleset.group_initiative && !self.sides[c.side].human;
            let found = groups.iter_mut().find(|g| {
                let h = &self.creatures[g[0] as usize];
                grouped && h.template == c.template && h.side == c.side
            });
            match found {
                Some(g) => g.push(id),
                None => groups.push(vec![id]),
            }
        }
        let dice: Vec<(usize, i32)> = groups
            .iter()
            .enumerate()
            .map(|(gi, g)| (gi, self.creatures[g[0] as usize].attrs.dice(Attribute::Activeness)))
            .collect();
        let rolls = roll_initiative_with(&mut self.rng, &dice, self.ruleset.initiative_ties.tie_dice());
        let mut order = Vec::new();
        for r in rolls {
            let members = groups[r.id].clone();
            // PERC-3: a side sees the rolls of the creatures it knows of, and only theirs.
            let rolled = |members: Vec<CreatureId>| Event::InitiativeRolled {
                members,
                faces: r.faces.clone(),
                total: r.total,
                tie_breaks: r.tie_breaks.clone(),
            };
            self.log_views(rolled(members.clone()), |b, s| {
                let known: Vec<CreatureId> = members.iter().copied().filter(|&m| b.knows(s, m)).collect();
                (!known.is_empty()).then(|| rolled(known))
            });
            order.extend(members);
        }
        order
    }

    /// PERC-E7: the encounter distance (3Σ × 4 steps: 3d6 × 10 ft by GEN-E4; logged for the
    /// record, since the level places the creatures) and each side's spot check: its best
    /// spotter (most Spirit dice) rolls Spirit points against the PERC-8 size row of the other
    /// sides' easiest hostile to spot, or the difficulty it hides at (×2, ×3 concealed). Engine
    /// decision: with several sides a side spots if it spots any hostile side. When some sides
    /// spot and others do not, the others are surprised (TIME-E9). Returns whether anyone is.
    fn open_encounter(&mut self) -> bool {
        let distance = crate::rules::dice::roll_sum(&mut self.rng, 3) * 4;
        let mut spots = Vec::new();
        for s in 0..self.sides.len() {
            let members = || self.creatures.iter().filter(move |c| c.side == s && c.presence == Presence::Active);
            let Some(spotter) = members().max_by_key(|c| (c.attrs.dice(Attribute::Spirit), std::cmp::Reverse(c.id)))
            else {
                continue;
            };
            let difficulty = self
                .creatures
                .iter()
                .filter(|o| o.presence == Presence::Active && self.sides[s].relations[o.side] == Relation::Hostile)
                .map(|o| o.hidden.unwrap_or_else(|| o.size.search_difficulty()))
                .min();
            let Some(difficulty) = difficulty else { continue };
            let (id, dice) = (spotter.id, spotter.attrs.dice(Attribute::Spirit));
            let faces = crate::rules::dice::roll_faces(&mut self.rng, dice);
            let points = self.ruleset.dice_points.points(&faces) as i32;
            let spotted = self.ruleset.attempts.succeeds(self.ruleset.dice_points, &faces, difficulty);
            spots.push(SpotCheck { side: self.sides[s].name.clone(), spotter: id, faces, points, difficulty, spotted });
        }
        let some = spots.iter().any(|c| c.spotted);
        let surprised: Vec<String> =
            if some { spots.iter().filter(|c| !c.spotted).map(|c| c.side.clone()).collect() } else { Vec::new() };
        for c in self.creatures.iter_mut() {
            c.surprised = surprised.contains(&self.sides[c.side].name);
        }
        let any = !surprised.is_empty();
        // DICE-E1 / PERC-3: a side sees its own check, and whether it was itself surprised;
        // the whole record (every roll) is the GM's.
        let whole = Event::EncounterOpened { distance, spots: spots.clone(), surprised: surprised.clone() };
        self.log_views(whole, |b, s| {
            let name = &b.sides[s].name;
            Some(Event::EncounterOpened {
                distance,
                spots: spots.iter().filter(|c| &c.side == name).cloned().collect(),
                surprised: surprised.iter().filter(|x| *x == name).cloned().collect(),
            })
        });
        any
    }
}
