//! Expense of Fate (DICE-13): right after a roll with its own attribute dice a creature may set
//! any of those dice to any face; every changed die is then removed from the attribute. Offered
//! by default to the sides a person plays (GEN-E1), to everyone or nobody by the ruleset.

mod common;

use common::{level_text, since};
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::creature::Attribute;
use meshal_tactics::rules::fate::best_raise;

const OPEN: [&str; 5] = ["WWWWWWWW", "W......W", "W......W", "W......W", "WWWWWWWW"];

/// Blue and Red fighters face to face, Red facing `red_facing` (W: toward Blue; E: its back to
/// Blue).
fn two_fighters(red_facing: &str) -> String {
    level_text(
        "Fate",
        &OPEN,
        &[
            r#"(name: "Blue", template: "human_fighter", side: "Blue", at: (2, 2), facing: E)"#,
            &format!(r#"(name: "Red", template: "human_fighter", side: "Red", at: (3, 2), facing: {red_facing})"#),
        ],
    )
}

/// A level's text with its ruleset (the level has none of its own).
fn with_ruleset(text: &str, ruleset: &str) -> String {
    let body = text.trim_end().strip_suffix(')').expect("a level ends with its closing bracket");
    let body = body.trim_end().trim_end_matches(',');
    format!("{body}, ruleset: ({ruleset}))")
}

/// Blue and Red fighters face to face (Might 4, swords); `ruleset` is the level's, `players`
/// the sides a person plays; the first seed from `from` on which Blue acts first.
fn face_off(ruleset: &str, players: &[&str], from: u64) -> Battle {
    let text = two_fighters("W");
    let text = with_ruleset(&text, ruleset);
    let c = builtin_compendium();
    let l = parse_level("fate.level.ron", &text, c).unwrap_or_else(|e| panic!("{e}"));
    let players: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    (from..from + 2000)
        .map(|seed| Battle::with_players(&l, c, seed, &players).expect("sets up"))
        .find(|b| b.awaiting() == Some((0, None)))
        .expect("a seed where Blue starts")
}

/// Blue strikes Red with its sword; every window but a Fate window is declined (Red takes the
/// blow, no counter). Returns at the first Fate window, or when the attack is over.
fn strike(b: &mut Battle, answer_defense: Option<Command>) {
    b.submit(0, Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] }).unwrap();
    while let Some((c, Some(kind))) = b.awaiting() {
        match kind {
            WindowKind::Fate => return,
            WindowKind::Defense => b.submit(c, answer_defense.clone().unwrap_or(Command::Pass)).unwrap(),
            WindowKind::BeforeAttack => b.submit(c, Command::Pass).unwrap(),
        }
    }
}

/// The first battle (from seed `from`) whose first attack roll leaves a Fate window for Blue
/// with some own die to raise.
fn at_blue_fate(ruleset: &str, players: &[&str]) -> Battle {
    let mut from = 0;
    loop {
        let mut b = face_off(ruleset, players, from);
        strike(&mut b, None);
        if b.awaiting() == Some((0, Some(WindowKind::Fate))) {
            return b;
        }
        from = b.seed() + 1;
    }
}

// RULES: DICE-13 — the roll just made waits for the roller: setting one of its own dice to 2
// scores it 2, and the die is removed from the attribute (Might 4 → 3); the segment is settled
// on the changed roll.
#[test]
fn dice_13_a_player_sets_a_die_and_pays_for_it() {
    let mut b = at_blue_fate("", &["Blue"]);
    let w = b.fate_window().expect("a Fate window");
    assert_eq!((w.roller, w.own, w.attribute, w.dice_left), (0, 4, Attribute::Might, 4));
    assert_eq!(w.defense, None);
    assert_eq!(w.struck, 1);
    let kept = b.fate_preview(&[]).unwrap();
    let set = best_raise(w.points, &w.faces, w.own, 1);
    let raised = b.fate_preview(&set).unwrap();
    let before = w.points.face_points(w.faces[set[0].0 as usize]) as i32;
    assert_eq!(raised.points, kept.points + 2 - before, "{:?} → {set:?}", w.faces);
    assert_eq!(raised.dice_lost, 1);
    let mark = b.log().len();
    b.submit(0, Command::Fate { set: set.clone() }).unwrap();
    assert_eq!(b.fighter(0).attrs.dice(Attribute::Might), 3, "the changed die is removed");
    let log = since(&b, mark);
    let mut faces = w.faces.clone();
    faces[set[0].0 as usize] = 2;
    assert!(
        log.contains(&&Event::FateSpent {
            creature: 0,
            attribute: Attribute::Might,
            dice: 1,
            faces,
            points: raised.points,
            left: 3
        }),
        "{log:?}"
    );
    // The segment went on with the changed points (Red may still have defended: decline it).
    while let Some((c, Some(_))) = b.awaiting() {
        b.submit(c, Command::Pass).unwrap();
    }
    let resolved = b.log()[mark..].iter().find_map(|e| match &e.event {
        Event::SegmentResolved { attack_points, .. } => Some(*attack_points),
        _ => None,
    });
    assert_eq!(resolved, Some(raised.points));
}

// RULES: DICE-13 — refusals name the rule and leave the battle as it was: a die that is not
// the roller's own, a face no die has, a die named twice, a die set to the face it shows, an
// answer from another creature, a Fate command with no roll waiting.
#[test]
fn dice_13_refusals_name_the_rule_and_change_nothing() {
    let b = at_blue_fate("", &["Blue"]);
    let w = b.fate_window().unwrap();
    let shown = w.faces[0];
    let other = if shown == 2 { 3 } else { 2 };
    for set in [
        vec![(4, 2)],
        vec![(u32::MAX, 2)],
        vec![(0, 7)],
        vec![(0, other), (0, other)],
        vec![(0, shown)],
        vec![(0, 2), (1, 2), (2, 2), (3, 2), (0, 3)],
    ] {
        let mut copy = b.clone();
        let why = copy.submit(0, Command::Fate { set: set.clone() }).unwrap_err();
        assert_eq!(why.rule, "DICE-13", "{set:?}: {why}");
        assert_eq!(copy.log().len(), b.log().len() + 1, "only the rejection is logged");
        assert_eq!(copy.fighter(0).attrs, b.fighter(0).attrs);
        assert_eq!(copy.awaiting(), Some((0, Some(WindowKind::Fate))), "the window stays open");
    }
    let mut copy = b.clone();
    assert_eq!(copy.submit(1, Command::Fate { set: vec![(0, 2)] }).unwrap_err().rule, "TIME-7");
    let fresh = face_off("", &["Blue"], 0);
    assert_eq!(fresh.check(0, &Command::Fate { set: vec![(0, 2)] }).unwrap_err().rule, "DICE-13");
}

// RULES: DICE-13, GEN-E1 — "player-only": a battle told of no player, an AI side beside the
// player's, and `Off` offer no window; keeping the roll (Pass) costs nothing.
#[test]
fn gen_e1_fate_is_offered_to_players_only_by_default() {
    for (ruleset, players) in [("", &[][..]), ("", &["Red"][..]), ("expense_of_fate: Off", &["Blue"][..])] {
        for from in [0, 50, 100] {
            let mut b = face_off(ruleset, players, from);
            strike(&mut b, None);
            assert_ne!(b.awaiting().map(|(_, w)| w), Some(Some(WindowKind::Fate)), "{ruleset} {players:?}");
            assert!(!b.log().iter().any(|e| matches!(e.event, Event::FateSpent { .. })));
        }
    }
    let mut b = at_blue_fate("", &["Blue"]);
    // GEN-E1: asked for a creature of a player's side, the AI keeps the roll.
    assert_eq!(ai::decide(&b, 0, Some(WindowKind::Fate)), Command::Pass);
    let might = b.fighter(0).attrs.dice(Attribute::Might);
    b.submit(0, Command::Pass).unwrap();
    assert_eq!(b.fighter(0).attrs.dice(Attribute::Might), might, "keeping the roll is free");
}

// RULES: DICE-13 — a defense roll is the defender's own too: the defender of a player side
// raises its Dodge roll, pays an Activeness die, and the segment is settled on the raised
// defense points.
#[test]
fn dice_13_a_defender_raises_its_defense_roll() {
    let (mut b, w) = (0..)
        .find_map(|from| {
            let mut b = face_off("", &["Red"], from * 40);
            strike(&mut b, Some(Command::Defend { defense: Some(meshal_tactics::rules::attack::Defense::Dodge) }));
            let w = b.fate_window()?;
            (w.roller == 1).then_some((b, w))
        })
        .unwrap();
    assert_eq!(w.defense, Some(meshal_tactics::rules::attack::Defense::Dodge));
    assert_eq!((w.attribute, w.own, w.struck), (Attribute::Activeness, 3, 1));
    let set = best_raise(w.points, &w.faces, w.own, 1);
    let p = b.fate_preview(&set).unwrap();
    let mark = b.log().len();
    b.submit(1, Command::Fate { set }).unwrap();
    assert_eq!(b.fighter(1).attrs.dice(Attribute::Activeness), 2);
    let defended = b.log()[mark..].iter().find_map(|e| match &e.event {
        Event::SegmentResolved { defense_points, .. } => Some(*defense_points),
        _ => None,
    });
    assert_eq!(defended, Some(Some(p.points)));
}

// RULES: DICE-13, CRE-6 — no effect prevents the loss: a roller that spends its last die of an
// attribute falls unconscious once the roll is settled, and rolls no further.
#[test]
fn dice_13_spending_the_last_die_knocks_the_roller_out() {
    let mut b = at_blue_fate("", &["Blue"]);
    let w = b.fate_window().unwrap();
    // Leave Blue one Might die in the pool its sword rolled with (as if hurt since the roll).
    b.adjust_for_scenario(0, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, w.dice_left - 1);
    });
    let set = best_raise(w.points, &w.faces, w.own, 1);
    assert!(b.fate_preview(&set).unwrap().roller_knocked_out);
    let mark = b.log().len();
    b.submit(0, Command::Fate { set }).unwrap();
    assert!(since(&b, mark).contains(&&Event::Unconscious { creature: 0 }));
    assert!(b.fighter(0).attrs.is_unconscious());
}

// RULES: DICE-13 — the log records who was offered Fate, so a replay rebuilds the same windows;
// a battle offering it to nobody logs exactly what it logged before Fate existed.
#[test]
fn dice_13_a_battle_with_fate_replays_exactly() {
    let mut b = at_blue_fate("", &["Blue"]);
    let set = best_raise(b.fate_window().unwrap().points, &b.fate_window().unwrap().faces, 4, 2);
    b.submit(0, Command::Fate { set }).unwrap();
    let count = ai::play_direct(&mut b, None, 5000);
    assert_eq!((count.fallbacks, count.rejected), (0, 0));
    match &b.log()[0].event {
        Event::BattleStarted { fate, .. } => assert_eq!(fate, &vec!["Blue".to_string()]),
        e => panic!("{e:?}"),
    }
    let text = two_fighters("W");
    let text = with_ruleset(&text, "");
    let l = parse_level("fate.level.ron", &text, builtin_compendium()).unwrap();
    let again = Battle::from_log(&l, builtin_compendium(), b.log()).expect("replays");
    assert_eq!(again.log(), b.log());
    let plain = Battle::new(&l, builtin_compendium(), 7).unwrap();
    let json = serde_json::to_string(&plain.log()[0]).unwrap();
    assert!(!json.contains("\"fate\""), "{json}");
}

// RULES: DICE-13 — under `Everyone` the AI is asked too, and spends only where a die turns a
// loss into a win: a blow that then knocks out a foe that cannot defend it. Against a foe that
// may still defend, or when the blow knocks out anyway, it keeps the roll.
#[test]
fn dice_13_the_ai_spends_fate_only_to_turn_a_loss_into_a_win() {
    // Red cannot defend a blow from behind (FACE-4), and has one Might die left.
    let text = two_fighters("E");
    let text = with_ruleset(&text, "expense_of_fate: Everyone");
    let c = builtin_compendium();
    let l = parse_level("fate.level.ron", &text, c).unwrap();
    let mut spent = 0;
    let mut kept = 0;
    for seed in 0..400 {
        let mut b = Battle::new(&l, c, seed).unwrap();
        if b.awaiting() != Some((0, None)) {
            continue;
        }
        b.adjust_for_scenario(1, |f| {
            let _ = f.attrs.remove_dice(Attribute::Might, 3);
        });
        strike(&mut b, None);
        let Some(w) = b.fate_window() else { continue };
        assert!(!w.defendable, "from the rear");
        let keep = b.fate_preview(&[]).unwrap();
        let command = ai::decide(&b, 0, Some(WindowKind::Fate));
        // Red has physical protection 1 (leather): 2 points knock it out.
        match &command {
            Command::Fate { set } => {
                spent += 1;
                assert!(!keep.struck_knocked_out, "{:?}", w.faces);
                assert!(set.len() <= ai::MOST_FATE_DICE);
                let p = b.fate_preview(set).unwrap();
                assert!(p.struck_knocked_out && !p.roller_knocked_out);
                // The fewest dice that do it.
                if set.len() == 2 {
                    assert!(!b.fate_preview(&best_raise(w.points, &w.faces, w.own, 1)).unwrap().struck_knocked_out);
                }
            }
            Command::Pass => {
                kept += 1;
                let two = b.fate_preview(&best_raise(w.points, &w.faces, w.own, 2)).unwrap();
                assert!(keep.struck_knocked_out || !two.struck_knocked_out, "{:?}", w.faces);
            }
            other => panic!("{other:?}"),
        }
        b.submit(0, command).unwrap();
    }
    assert!(spent > 0 && kept > 0, "spent {spent}, kept {kept}");
}

// RULES: DICE-13 — with Fate offered to everyone, AI battles of a shipped level stay clean (no
// refused plan, no fallback) and the AI does spend dice now and then.
#[test]
fn dice_13_ai_battles_with_fate_for_everyone_stay_clean() {
    let c = builtin_compendium();
    let text = common::SHIPPED.iter().find(|(n, _)| *n == "duel").unwrap().1;
    assert!(!text.contains("ruleset"), "the duel plays the default rules");
    let text = with_ruleset(text, "expense_of_fate: Everyone");
    let l = parse_level("duel.level.ron", &text, c).unwrap_or_else(|e| panic!("{e}"));
    let mut spent = 0;
    for seed in 0..100 {
        let mut b = Battle::new(&l, c, seed).unwrap();
        let count = ai::play_direct(&mut b, None, 20_000);
        assert_eq!((count.fallbacks, count.rejected), (0, 0), "seed {seed}");
        assert!(b.outcome().is_some());
        spent += b.log().iter().filter(|e| matches!(e.event, Event::FateSpent { .. })).count();
    }
    assert!(spent > 0, "the AI never found a roll worth its dice in 100 duels");
}

// RULES: DICE-13, DICE-12 — a die set by Fate is gone for the attack's later rolls too: a
// duelist with 4 Activeness stabs twice with its dagger (Activeness ÷ 2: 2 dice a segment);
// spending one die on the first segment leaves 3 Activeness, so the second rolls 1 die.
#[test]
fn dice_13_later_segments_roll_the_dice_fate_left() {
    let text = level_text(
        "Fate",
        &OPEN,
        &[
            r#"(name: "Blue", template: "human_duelist", side: "Blue", at: (2, 2), facing: E, overrides: (activeness: Some(4)))"#,
            r#"(name: "Red", template: "human_fighter", side: "Red", at: (3, 2), facing: W)"#,
        ],
    );
    let l = parse_level("fate.level.ron", &text, builtin_compendium()).unwrap();
    let players = vec!["Blue".to_string()];
    let mut checked = 0;
    for seed in 0..400 {
        let mut b = Battle::with_players(&l, builtin_compendium(), seed, &players).unwrap();
        if b.awaiting() != Some((0, None)) {
            continue;
        }
        b.submit(0, Command::Attack { weapon: "dagger".into(), target: Target::Creature(1), additives: vec![] })
            .unwrap();
        while let Some((c, Some(kind))) = b.awaiting() {
            if kind == WindowKind::Fate {
                break;
            }
            b.submit(c, Command::Pass).unwrap();
        }
        let Some(w) = b.fate_window() else { continue };
        assert_eq!((w.own, w.faces.len()), (2, 2));
        let mark = b.log().len();
        b.submit(0, Command::Fate { set: best_raise(w.points, &w.faces, w.own, 1) }).unwrap();
        while let Some((c, Some(_))) = b.awaiting() {
            b.submit(c, Command::Pass).unwrap();
        }
        let second = b.log()[mark..].iter().find_map(|e| match &e.event {
            Event::Rolled { faces, purpose, .. } if purpose == "attack, segment 2" => Some(faces.len()),
            _ => None,
        });
        assert_eq!(second, Some(1), "seed {seed}");
        checked += 1;
        if checked == 5 {
            break;
        }
    }
    assert_eq!(checked, 5);
}
