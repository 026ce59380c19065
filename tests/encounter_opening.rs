//! The encounter opening (a level option): PERC-E7's distance and spot checks, and TIME-E9's
//! surprise round, played event by event.
// RULES: PERC-E7, TIME-E9, PERC-D1

use meshal_tactics::battle::{Battle, Event};
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::creature::Attribute;
use meshal_tactics::rules::dice::DicePoints;

fn opening_duel() -> meshal_tactics::level::LoadedLevel {
    let text = include_str!("../levels/duel.level.ron");
    let text = text.replacen("    sides:", "    encounter_opening: true,\n    sides:", 1);
    parse_level("levels/duel.level.ron", &text, builtin_compendium()).unwrap()
}

#[test]
fn the_opening_rolls_distance_and_spot_checks_and_surprise_gives_a_one_ap_round_zero() {
    let level = opening_duel();
    let (mut surprises, mut plain) = (0, 0);
    for seed in 1..=120 {
        let mut b = Battle::new(&level, builtin_compendium(), seed).unwrap();
        let fresh = b.clone();
        meshal_tactics::ai::play_direct(&mut b, None, 100_000);
        let log: Vec<_> = b.log().iter().filter(|e| !e.partial).collect();
        let (k, (distance, spots, surprised)) = log
            .iter()
            .enumerate()
            .find_map(|(k, e)| match &e.event {
                Event::EncounterOpened { distance, spots, surprised } => {
                    Some((k, (*distance, spots.clone(), surprised.clone())))
                }
                _ => None,
            })
            .expect("the opening is logged");
        // PERC-E7: 3Σ × 4 steps.
        assert!((12..=72).contains(&distance) && distance % 4 == 0, "distance {distance}");
        assert_eq!(spots.len(), 2, "one check a side");
        for c in &spots {
            let spotter = fresh.fighter(c.spotter);
            assert_eq!(b.sides()[spotter.side].name, c.side);
            assert_eq!(c.faces.len() as i32, spotter.attrs.dice(Attribute::Spirit), "Spirit dice");
            assert_eq!(c.points, DicePoints::Meshal.points(&c.faces) as i32);
            assert_eq!(c.spotted, c.points as i64 > c.difficulty, "DICE: a test succeeds above its difficulty");
        }
        let spotted: Vec<bool> = spots.iter().map(|c| c.spotted).collect();
        let want: Vec<String> = if spotted.iter().any(|&s| s) {
            spots.iter().filter(|c| !c.spotted).map(|c| c.side.clone()).collect()
        } else {
            Vec::new()
        };
        assert_eq!(surprised, want, "seed {seed}: the side that failed while the other spotted");
        let first_round = log[k..].iter().find_map(|e| match e.event {
            Event::RoundStarted { round } => Some(round),
            _ => None,
        });
        if surprised.is_empty() {
            plain += 1;
            assert_eq!(first_round, Some(1));
            continue;
        }
        surprises += 1;
        assert_eq!(first_round, Some(0), "seed {seed}: a surprise round first");
        let is_surprised = |c: u32| surprised.contains(&b.sides()[b.fighter(c).side].name);
        let mut round = 0;
        for e in &log[k..] {
            match &e.event {
                Event::RoundStarted { round: r } => round = *r,
                Event::TurnStarted { creature, ap } if round == 0 => {
                    assert!(!is_surprised(*creature), "seed {seed}: no turn for the surprised");
                    assert_eq!(*ap, 1, "TIME-E9: one AP in the surprise round");
                }
                Event::TurnStarted { ap, .. } if round == 1 => assert!(*ap >= 2, "full AP from round 1"),
                Event::ReactionWindowOpened { creature, .. } if round == 0 => {
                    assert!(!is_surprised(*creature), "seed {seed}: the surprised cannot react")
                }
                Event::Undefendable { target, reason } if round == 0 && is_surprised(*target) => {
                    assert!(
                        reason.contains("unaware") || reason.contains("unseen") || reason.contains("rear"),
                        "{reason}"
                    )
                }
                _ => {}
            }
        }
        // The whole log replays: the opening is as deterministic as the rest.
        Battle::from_log(&level, builtin_compendium(), b.log()).unwrap();
    }
    assert!(surprises >= 5 && plain >= 5, "both openings happen: {surprises} surprises, {plain} without");
}

#[test]
fn without_the_option_nothing_changes_and_each_side_sees_only_its_own_roll() {
    let plain = parse_level("duel", include_str!("../levels/duel.level.ron"), builtin_compendium()).unwrap();
    let b = Battle::new(&plain, builtin_compendium(), 1).unwrap();
    assert!(!b.log().iter().any(|e| matches!(e.event, Event::EncounterOpened { .. })));
    let b = Battle::new(&opening_duel(), builtin_compendium(), 1).unwrap();
    for side in ["Blue", "Red"] {
        let seen: Vec<_> = b
            .log()
            .iter()
            .filter(|e| e.visible_to.iter().any(|s| s == side))
            .filter_map(|e| match &e.event {
                Event::EncounterOpened { spots, .. } => Some(spots.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(seen.len(), 1, "{side} is told of the opening once");
        assert!(seen[0].iter().all(|c| c.side == side), "{side} sees its own check only: {:?}", seen[0]);
    }
}
