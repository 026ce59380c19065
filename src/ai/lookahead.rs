//! `hard` and `expert`: the planner, looking past its own turn.
//!
//! The planner ranks this creature's first commands by its one-turn judgement. The look-ahead plays
//! the best few out, and ending the turn where it stands: each on the side's belief of the battle
//! (`Battle::belief_of`: only what the side perceives, dice from a seed of its own), with every
//! creature — the opponents included — moved by the `normal` planner until this creature's next
//! turn (`hard`) or the one after (`expert`, `rounds: 2`: a move toward a strike next turn is
//! scored with that strike and the replies to it, not only with the blows taken on the way; over
//! five levels that took `expert` against `normal` from 298 to 315 points of win rate). What is
//! left of each side then (dice in the pools, who still stands) scores the command; the mean over
//! the play-outs decides, and the planner's own choice is kept unless another beats it clearly.
//! Every candidate is played with the same dice seeds, and a belief draws each turn's dice afresh
//! from its seed, the round and whose turn it is, so the replies to two candidates roll the same
//! dice: the comparison is between commands, not between lucky and unlucky rolls (the paired
//! difference's standard error fell by a quarter, 0.84 → 0.62 dice, in skirmishes).

use super::Reasons;
use super::situation::describe;
use super::tactical::ranked_turn;
use crate::battle::{Battle, Command, CreatureId, Event, Explanation, LookAheadReport};
use crate::level::compendium::AiProfile;

/// A creature still standing is worth this many dice beyond those in its pools: downing one
/// takes its attacks out of every later round (tuned with `duel`).
const STANDING_WORTH: f64 = 3.0;

/// Another command must beat the planner's choice by this much (dice left, on average, beyond
/// the profile's `doubt` in standard errors) to replace it (tuned with `duel`).
const MARGIN: f64 = 0.25;

/// A play-out ends after this many decisions even if the round has not come round.
const MAX_PLAYOUT_DECISIONS: usize = 400;

/// The work one look-ahead decision may do, counted in creatures weighed: every decision in a
/// play-out is charged the creatures standing on the field (in the side's belief), which tracks
/// what it costs (3.9–4.7 µs a unit on the skirmish and the 64×64 great field, this 2-core
/// machine). A round of play-outs (one for each candidate) starts only while the work so far
/// plus one more round's fits, so the same battle always stops at the same play-out: the count
/// decides, never the clock. 60,000 is issue 9's 250 ms a decision as a count: on the 64×64
/// great field (30 creatures, about 245,000 for 16 play-outs) `expert` plays out a few times
/// instead of thinking for more than a second; on the shipped 6v8 levels only the heaviest
/// `expert` decisions of the skirmish (one in twenty, up to 110,000) are trimmed, and no `hard`
/// decision anywhere.
pub const WORK_BUDGET: u64 = 60_000;

/// Play-outs a candidate needs before the look-ahead may overrule the planner: two give the
/// paired difference a standard error. When the first round of play-outs alone takes more
/// than half the budget (a field far larger than the great field), no second round is played
/// and the planner's choice stands: the look-ahead then costs one round, not two.
const MIN_PLAYOUTS: u32 = 2;

/// The most work a decision ever does: the budget decides how many rounds of play-outs start,
/// from the rounds so far, and a round may cost more than those did; a round that would take
/// the work past twice the budget is stopped and dropped. No shipped level comes near it (the
/// skirmish's heaviest `expert` decision, untrimmed, is 110,000); a compendium's profile on a
/// crowded field, where the estimate above misjudges, would otherwise be unbounded.
const WORK_CEILING: u64 = 2 * WORK_BUDGET;

pub(super) fn turn(b: &Battle, me: CreatureId, p: &AiProfile, reasons: Reasons) -> (Command, Option<Explanation>) {
    turn_within(b, me, p, reasons, WORK_CEILING)
}

/// `turn`, its work stopped at `ceiling`.
fn turn_within(
    b: &Battle,
    me: CreatureId,
    p: &AiProfile,
    reasons: Reasons,
    ceiling: u64,
) -> (Command, Option<Explanation>) {
    let choice = ranked_turn(b, me, p, reasons);
    let look = p.look_ahead;
    let mut candidates = distinct(&choice.ranked, look.candidates as usize);
    // Ending the turn where it stands, keeping its AP for defenses (TIME-12), is always one of
    // the commands played out, in the last place if the planner did not rank it among its best.
    // The planner weighs the AP a plan keeps only against the next round's blows. It found a
    // shooter spending its last AP before the enemy archer's turn first (`open_field`: `expert`
    // against `normal` 52 → 83%); the planner now counts that volley in full itself
    // (`Threat::shared`), and the slot stays for the cases its one-round judgement still
    // misses (with it, over 18 levels `expert` 1134 → 1182 points, `hard` 980 → 1046).
    if look.candidates >= 2 && !candidates.contains(&Command::EndTurn) {
        candidates.truncate(look.candidates as usize - 1);
        candidates.push(Command::EndTurn);
    }
    // In a stall the planner's clock decides (`clock::stall_push`): the play-outs' score, dice
    // left after two rounds, has no notion of the draw at `max_rounds`. An archer ahead on
    // dice chose a readied dagger over the shot that could end the fight, turn after turn,
    // because the shot left it open should it miss, until the battle was drawn (The Crossing).
    if candidates.len() < 2 || look.rollouts == 0 || super::clock::stall_push(b, me) >= 1.0 {
        return (choice.command, choice.explanation);
    }
    let side = b.fighter(me).side;
    let model = opponent_model(b);
    let rounds = look.rounds.max(1);
    // Seeds from what the side itself knows: the battle's seed, how much of the log it has
    // seen, who decides. Nothing it cannot perceive changes them.
    let seen = b.log_for_side(&b.sides()[side].name).count() as u64;
    let mut values = vec![Vec::new(); candidates.len()];
    let mut replies = Vec::new();
    let mut work = 0;
    let mut playouts = 0;
    let mut belief = b.belief_of(side, mix(b.seed(), seen, u64::from(me), 0));
    // A round of play-outs costs about one decision a round for every creature able to act,
    // each decision charged the creatures standing. Where that estimate alone is over half the
    // budget, the first round would almost surely be played only to be set aside (too few to
    // judge, below), so none is
    // (512 creatures: a `hard` decision 1.06 s → the planner's at once). An estimate, not a
    // bound: creatures falling or the battle ending within a play-out make a round cheaper.
    // A profile that judges from a single play-out is gated alike: its one round, too, would
    // take the decision past the budget (a compendium's 8 candidates played out once over 3
    // rounds spent minutes a decision among 128 creatures).
    let acting = belief.creatures().iter().filter(|c| c.can_act()).count() as u64;
    let estimate = candidates.len() as u64 * u64::from(rounds) * acting * acting;
    let crowded = 2 * estimate > WORK_BUDGET;
    let rollouts = if crowded { 0 } else { look.rollouts };
    'rounds: while playouts < rollouts && (playouts == 0 || work + work / u64::from(playouts) <= WORK_BUDGET) {
        if playouts > 0 {
            belief = b.belief_of(side, mix(b.seed(), seen, u64::from(me), u64::from(playouts)));
        }
        for (i, first) in candidates.iter().enumerate() {
            let mut copy = belief.clone();
            let mark = copy.log().len();
            // The estimate can be wrong; the ceiling cannot: a round that runs past it is
            // dropped whole (its candidates were not played alike) and the look-ahead stops.
            let Some((value, spent)) = play_out(&mut copy, me, first, &model, rounds, ceiling - work) else {
                work = ceiling;
                for v in &mut values {
                    v.truncate(playouts as usize);
                }
                break 'rounds;
            };
            values[i].push(value);
            work += spent;
            if playouts == 0 {
                replies.push(reply_summary(&copy, mark, side));
            }
        }
        playouts += 1;
    }
    if playouts == 0 {
        replies.clear();
    }
    if replies.is_empty() {
        replies = vec!["not played out".to_string(); candidates.len()];
    }
    let means: Vec<f64> = values.iter().map(|v| v.iter().sum::<f64>() / v.len().max(1) as f64).collect();
    // Another command replaces the planner's only when it does better play-out by play-out
    // (the same dice seeds pair them) by a clear margin: MARGIN plus the profile's `doubt`
    // standard errors of the paired difference. A plain maximum of noisy means picks the
    // luckiest.
    let clear_gain = |i: usize| {
        let d: Vec<f64> = values[i].iter().zip(&values[0]).map(|(a, b)| a - b).collect();
        let n = d.len() as f64;
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        mean - MARGIN - f64::from(look.doubt) / 10.0 * (var / n).sqrt()
    };
    let judged = playouts >= MIN_PLAYOUTS.min(look.rollouts);
    let chosen = (1..candidates.len())
        .filter(|_| judged)
        .map(|i| (clear_gain(i), i))
        .filter(|(gain, _)| *gain > 0.0)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(0, |(_, i)| i);
    let report = LookAheadReport {
        playouts,
        planned: look.rollouts,
        work,
        rounds,
        candidates: candidates
            .iter()
            .zip(&means)
            .zip(replies)
            .map(|((c, m), reply)| (describe(b, c), *m, reply))
            .collect(),
        chosen,
    };
    let mut explanation =
        choice.explanation.unwrap_or(Explanation { creature: me, options: Vec::new(), look_ahead: None });
    explanation.look_ahead = Some(report);
    (candidates[chosen].clone(), Some(explanation))
}

/// The first `k` of the planner's ranked commands that differ in kind or place: moves to
/// neighbouring squares play out alike, so only the best of them is kept.
fn distinct(ranked: &[Command], k: usize) -> Vec<Command> {
    let end = |c: &Command| match c {
        Command::Move { path, .. } => path.last().copied(),
        _ => None,
    };
    let mut out: Vec<Command> = Vec::new();
    for c in ranked {
        if out.len() >= k {
            break;
        }
        let near = end(c).is_some_and(|p| out.iter().filter_map(end).any(|q| crate::rules::grid::distance(p, q) <= 1));
        if !near {
            out.push(c.clone());
        }
    }
    out
}

/// How the opponents (and its own side) are expected to play: the compendium's `normal`, the
/// planner without look-ahead.
fn opponent_model(b: &Battle) -> AiProfile {
    let mut model = b.ai_profile("normal").cloned().unwrap_or(AiProfile { difficulty: 2, ..AiProfile::default() });
    model.look_ahead = Default::default();
    model.difficulty = model.difficulty.max(1);
    model
}

/// Play `first`, then everyone by `model` until `me`'s turn `rounds` rounds on (or the end):
/// the dice left to `me`'s side minus those left to the sides hostile to it, and the work done
/// (see `WORK_BUDGET`); None once the work would pass `limit`.
fn play_out(
    copy: &mut Battle,
    me: CreatureId,
    first: &Command,
    model: &AiProfile,
    rounds: u32,
    limit: u64,
) -> Option<(f64, u64)> {
    let (round, slot) = (copy.round(), copy.turn_slot());
    if copy.submit(me, first.clone()).is_err() {
        return Some((f64::NEG_INFINITY, 0));
    }
    let mut work = 0;
    for _ in 0..MAX_PLAYOUT_DECISIONS * rounds as usize {
        if copy.outcome().is_some() || (copy.round() >= round + rounds && copy.turn_slot() >= slot) {
            break;
        }
        let Some((c, w)) = copy.awaiting() else { break };
        work += copy.creatures().iter().filter(|c| c.is_active()).count() as u64;
        if work > limit {
            return None;
        }
        let d = super::decision(copy, c, w, model, Reasons::Unread);
        if copy.submit(c, d.command).is_err() {
            let _ = copy.submit(c, super::fallback(w));
        }
    }
    Some((material(copy, me), work))
}

/// Dice in the pools of every creature still able to act, plus a standing creature's worth:
/// `me`'s side counts for, hostile sides against. One knocked out counts for nothing (its
/// other pools are no use to its side until someone brings it round, which a play-out plays),
/// so finishing it off is worth nothing and downing a foe is worth all it had.
fn material(b: &Battle, me: CreatureId) -> f64 {
    b.creatures()
        .iter()
        .filter(|c| c.can_act())
        .map(|c| {
            let sign = if c.side == b.fighter(me).side {
                1.0
            } else if b.hostile(me, c.id) {
                -1.0
            } else {
                0.0
            };
            let dice: i32 = c.attrs.pools.iter().flatten().map(|p| p.current.max(0)).sum();
            sign * (f64::from(dice) + STANDING_WORTH)
        })
        .sum()
}

/// What the other sides did in a play-out, as `side` saw it: their attacks, in order.
fn reply_summary(b: &Battle, from: usize, side: usize) -> String {
    let name = &b.sides()[side].name;
    let attacks: Vec<String> = b.log()[from..]
        .iter()
        .filter(|e| e.visible_to.contains(name))
        .filter_map(|e| match &e.event {
            Event::AttackDeclared { attacker, weapon, targets, .. } if b.fighter(*attacker).side != side => {
                let on: Vec<&str> = targets.iter().map(|t| b.fighter(*t).name.as_str()).collect();
                Some(format!("{} {weapon} on {}", b.fighter(*attacker).name, on.join(", ")))
            }
            _ => None,
        })
        .take(3)
        .collect();
    if attacks.is_empty() { "no attack in reply".into() } else { attacks.join("; ") }
}

/// A reproducible seed from four numbers (SplitMix64 finaliser).
fn mix(a: u64, b: u64, c: u64, d: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ c.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ d.rotate_left(29);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, parse_level};

    // Issue 9, the play-outs' score (RULES: CRE-6, ATK-17): a creature knocked out is out of
    // the fight, so what is left in its other pools counts for nobody; finishing it off is
    // worth nothing more. Counting those pools made a play-out that knocked a foe out worth
    // less than one that went on to kill it, and a spearman readied rather than strike down
    // a raider with no AP to defend (The Cloister, `run --seed 3 --ai Chapter=hard`).
    #[test]
    fn a_foe_knocked_out_counts_for_nothing_in_a_play_outs_score() {
        let text = r#"(name: "Knock-out", map: ["WWWWWWWWWWWW", "W..........W", "WWWWWWWWWWWW"],
            legend: { '.': "floor", 'W': "wall" },
            terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
            sides: [(name: "Blue"), (name: "Red")],
            creatures: [
                (name: "A", template: "human_fighter", side: "Blue", at: (2, 1), facing: E,
                    overrides: (activeness: Some(10), might: Some(30))),
                (name: "B", template: "human_fighter", side: "Red", at: (3, 1), facing: W, overrides: (activeness: Some(1))),
                (name: "C", template: "human_fighter", side: "Red", at: (9, 1), facing: W, overrides: (activeness: Some(1))),
            ])"#;
        let compendium = builtin_compendium();
        let level = parse_level("knock-out.level.ron", text, compendium).unwrap();
        let mut b = Battle::new(&level, compendium, 11).unwrap();
        let dice = |b: &Battle, id: CreatureId| -> f64 {
            f64::from(b.fighter(id).attrs.pools.iter().flatten().map(|p| p.current.max(0)).sum::<i32>())
        };
        let before = material(&b, 0);
        assert_eq!(before, dice(&b, 0) - dice(&b, 1) - dice(&b, 2) - STANDING_WORTH);
        let sword =
            Command::Attack { weapon: "sword".into(), target: crate::battle::Target::Creature(1), additives: vec![] };
        while b.awaiting().is_some_and(|(c, _)| c != 0) {
            let (c, w) = b.awaiting().unwrap();
            b.submit(c, crate::ai::fallback(w)).unwrap();
        }
        b.submit(0, sword.clone()).unwrap();
        while let Some((c, Some(_))) = b.awaiting() {
            b.submit(c, Command::Defend { defense: None }).unwrap();
        }
        assert!(b.fighter(1).attrs.is_unconscious(), "30 dice knock B out");
        assert!(dice(&b, 1) > 0.0, "B keeps dice in its other pools");
        let knocked_out = material(&b, 0);
        assert_eq!(knocked_out, dice(&b, 0) + STANDING_WORTH - dice(&b, 2) - STANDING_WORTH, "B counts for nothing");
        b.submit(0, sword).unwrap();
        assert_eq!(b.fighter(1).presence, crate::battle::Presence::Dead);
        assert_eq!(material(&b, 0), knocked_out, "killing B adds nothing");
    }

    // Issue 9, the work budget: a round of play-outs that runs past the ceiling is stopped and
    // dropped whole, and the planner's choice stands, said so; under a ceiling it keeps to,
    // the same decision plays every round out.
    #[test]
    fn a_round_past_the_ceiling_is_dropped_and_the_planner_decides() {
        let text = r#"(name: "Ceiling", map: ["WWWWWWWWWWWW", "W..........W", "W..........W", "WWWWWWWWWWWW"],
            legend: { '.': "floor", 'W': "wall" },
            terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
            sides: [(name: "AI"), (name: "Foe")],
            creatures: [
                (name: "A", template: "human_fighter", side: "AI", at: (2, 1), facing: E),
                (name: "B", template: "archer", side: "AI", at: (1, 2), facing: E),
                (name: "C", template: "human_fighter", side: "Foe", at: (8, 1), facing: W),
                (name: "D", template: "archer", side: "Foe", at: (10, 2), facing: W),
            ])"#;
        let compendium = builtin_compendium();
        let level = parse_level("ceiling.level.ron", text, compendium).unwrap();
        let b = Battle::new(&level, compendium, 1).unwrap();
        let (me, _) = b.awaiting().unwrap();
        let hard = &compendium.ai_profiles["hard"];
        let report = |ceiling| turn_within(&b, me, hard, Reasons::Shown, ceiling).1.and_then(|e| e.look_ahead).unwrap();
        let whole = report(WORK_CEILING);
        assert_eq!(whole.playouts, hard.look_ahead.rollouts, "every play-out under the real ceiling");
        // A ceiling below one round's work: the first round is stopped.
        let ceiling = whole.work / u64::from(whole.playouts) / 2;
        let (command, why) = turn_within(&b, me, hard, Reasons::Shown, ceiling);
        let stopped = why.and_then(|e| e.look_ahead).unwrap();
        assert_eq!((stopped.playouts, stopped.work), (0, ceiling));
        assert!(stopped.lines()[0].contains("ran past twice its work budget"), "{:?}", stopped.lines());
        assert_eq!(command, ranked_turn(&b, me, hard, Reasons::Shown).command, "the planner's choice");
        // A ceiling inside the third round: two rounds are kept and judged, as a profile of
        // two play-outs judges them (the third round's values dropped for every candidate).
        let ceiling = whole.work / u64::from(whole.playouts) * 5 / 2;
        let cut = report(ceiling);
        let mut two = hard.clone();
        two.look_ahead.rollouts = 2;
        let judged = turn_within(&b, me, &two, Reasons::Shown, WORK_CEILING).1.and_then(|e| e.look_ahead).unwrap();
        assert_eq!((cut.playouts, &cut.candidates, cut.chosen), (2, &judged.candidates, judged.chosen));
    }
}
