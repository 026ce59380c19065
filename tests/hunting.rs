//! Hunting what is out of sight: the AI goes to where its side last saw a foe (PERC-7's
//! memory), foes it saw go down last, and never by what it did not see.

mod common;

use common::level_text;
use meshal_tactics::ai;
use meshal_tactics::battle::{Battle, Command, Event, Target};
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::creature::Attribute;
use meshal_tactics::rules::grid::Pos;

/// A corridor along the top (y = 4), a nook below it (y = 1) that walls hide it from, and a
/// closet (11..12, 1) walled off from both.
const MAP: [&str; 6] =
    ["WWWWWWWWWWWWWW", "W............W", "W.WWWWWWWWWWWW", "W.WWWWWWWWWWWW", "W....WWWWWW..W", "WWWWWWWWWWWWWW"];

/// Hunter (Blue) has struck Weak (Red, one Might die left) down beside it, with Far (Red)
/// in sight down the corridor: the first seed whose blow knocks Weak out.
fn after_the_fall() -> Battle {
    let text = level_text(
        "Hunt",
        &MAP,
        &[
            r#"(name: "Hunter", template: "human_fighter", side: "Blue", at: (1, 4), facing: E)"#,
            r#"(name: "Weak", template: "human_fighter", side: "Red", at: (2, 4), facing: W)"#,
            r#"(name: "Far", template: "human_fighter", side: "Red", at: (12, 4), facing: W)"#,
        ],
    );
    let level = parse_level("hunt.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    (0..500)
        .filter_map(|seed| {
            let mut b = Battle::new(&level, builtin_compendium(), seed).ok()?;
            (b.awaiting() == Some((0, None))).then_some(())?;
            b.adjust_for_scenario(1, |f| {
                let _ = f.attrs.remove_dice(Attribute::Might, 3);
            });
            let blow = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
            b.submit(0, blow).ok()?;
            // The defense window (and any other) answered by the AI.
            while let Some((c, Some(w))) = b.awaiting() {
                let answer = ai::decide(&b, c, Some(w));
                b.submit(c, answer).ok()?;
            }
            b.fighter(1).attrs.is_unconscious().then_some(b)
        })
        .next()
        .expect("some seed's blow knocks Weak out")
}

// RULES: PERC-7, FLOW-7 — out of sight of both foes, the hunter goes for the one still
// standing, not for the nearer one it saw fall (a brute hunting a fallen foe walked back and
// forth between it and the last foe standing); with only the fallen left, it searches where
// they lie (where the fight was).
#[test]
fn the_hunter_seeks_the_foe_it_did_not_see_fall() {
    let mut b = after_the_fall();
    assert!(b.log().iter().any(|e| matches!(e.event, Event::Unconscious { creature: 1 })));
    assert!(b.seen_down(0, 1), "Blue saw Weak fall");
    assert!(!b.seen_down(0, 2) && !b.seen_down(1, 0));
    // Into the nook: the walls hide the corridor.
    b.adjust_for_scenario(0, |f| f.origin = Pos::new(4, 1));
    assert!(!b.side_perceives(0, 1) && !b.side_perceives(0, 2), "both out of sight");
    assert_eq!((b.last_seen(0, 1), b.last_seen(0, 2)), (Some(Pos::new(2, 4)), Some(Pos::new(12, 4))));
    let goal = ai::hunting_goal(&b, 0, &[]).expect("a goal");
    assert_eq!(goal.origin, Pos::new(12, 4), "Far, still standing when last seen, though Weak lies nearer");
    // Far gone from the side's memory (Blue stands by its square and sees nothing: it slipped
    // into the closet): the fallen one's square is next.
    let mut alone = b.clone();
    alone.adjust_for_scenario(0, |f| f.origin = Pos::new(11, 4));
    alone.adjust_for_scenario(2, |f| f.origin = Pos::new(12, 1));
    alone.adjust_for_scenario(0, |f| f.origin = Pos::new(4, 1));
    assert_eq!(alone.last_seen(0, 2), None, "Blue stood by Far's square and saw nothing there");
    assert_eq!(ai::hunting_goal(&alone, 0, &[]).map(|g| g.origin), Some(Pos::new(2, 4)));
}

// RULES: PERC-7, TIME-E10 — issue 9's ambush: its side sees no foe but remembers where one
// still standing was seen (down the corridor, out of sight of the nook). `normal` holds its
// ground, readied, instead of walking into the foe's view: walking to the sighting, the Mill's
// wolves came into the party's view, turned back out of the bows' reach, and did so every turn.
// A sloppy `easy` walks on; once the fight stalls (no blood for five rounds), `normal` goes
// looking too.
#[test]
fn knowing_where_a_foe_was_it_holds_an_ambush_until_the_fight_stalls() {
    let text = level_text(
        "Ambush",
        &MAP,
        &[
            r#"(name: "Hunter", template: "human_fighter", side: "Blue", at: (1, 4), facing: E)"#,
            r#"(name: "Far", template: "human_fighter", side: "Red", at: (12, 4), facing: W)"#,
        ],
    );
    let mut b = common::battle_where_first(&text, builtin_compendium(), 0);
    assert!(b.side_perceives(0, 1), "Far is in sight down the corridor");
    b.adjust_for_scenario(0, |f| f.origin = Pos::new(4, 1));
    assert!(!b.side_perceives(0, 1) && b.last_seen(0, 1) == Some(Pos::new(12, 4)), "out of sight, remembered");
    let profile = |name: &str| builtin_compendium().ai_profiles[name].clone();
    let walks = |b: &Battle, name: &str| matches!(ai::decide_with(b, 0, None, &profile(name)).0, Command::Move { .. });
    match ai::decide_with(&b, 0, None, &profile("normal")).0 {
        Command::Hide | Command::Ready { .. } | Command::EndTurn => {}
        other => panic!("normal holds its ground: {other:?}"),
    }
    assert!(walks(&b, "easy"), "easy walks toward the sighting");
    // Five rounds without blood: the stall sends it looking.
    while b.round() < 6 || b.awaiting() != Some((0, None)) {
        let (c, w) = b.awaiting().expect("the battle goes on");
        b.submit(c, if w.is_some() { Command::Pass } else { Command::EndTurn }).expect("accepted");
    }
    assert_eq!(b.last_seen(0, 1), Some(Pos::new(12, 4)), "still remembered");
    assert!(walks(&b, "normal"), "in a stall normal goes looking");
}

// RULES: PERC-E4, TIME-E10 — holding that ambush with AP its readied blow cannot use (a sword
// readied costs 3: the blow, the readying and a defense kept), a blade hides (1 AP): foes that
// come round the corner do not spot it from afar, and its first blow comes from a foe nobody
// has spotted, which cannot be defended (000:326). With 3 AP it keeps its readied blow instead;
// a shooter keeps its AP for the readied shot or a defense; `easy` walks on. (The Mill's
// wolves and brute, stopping behind the mill out of the party's sight: their side won 1,122 of
// 2,500 duels against a baseline party, 1,167 hiding.)
#[test]
fn a_blade_lying_in_wait_hides_with_the_ap_its_readied_blow_cannot_use() {
    let ambush = |template: &str, ap: i32| {
        let hunter = format!(r#"(name: "Hunter", template: "{template}", side: "Blue", at: (1, 4), facing: E)"#);
        let far = r#"(name: "Far", template: "human_fighter", side: "Red", at: (12, 4), facing: W)"#;
        let text = level_text("Ambush", &MAP, &[hunter.as_str(), far]);
        let mut b = common::battle_where_first(&text, builtin_compendium(), 0);
        assert_eq!(b.fighter(0).ap, 3);
        // Walked into the nook this turn, with `ap` left.
        b.adjust_for_scenario(0, |f| {
            f.origin = Pos::new(4, 1);
            f.spent_this_turn = 3 - ap;
            f.ap = ap;
        });
        assert!(!b.side_perceives(0, 1) && !b.side_perceives(1, 0), "nobody perceives anybody");
        assert_eq!(b.last_seen(0, 1), Some(Pos::new(12, 4)), "Far remembered down the corridor");
        b
    };
    let profile = |name: &str| builtin_compendium().ai_profiles[name].clone();
    let normal = |b: &Battle| ai::decide_with(b, 0, None, &profile("normal")).0;
    let mut b = ambush("human_fighter", 2);
    assert_eq!(normal(&b), Command::Hide, "with 2 AP the fighter hides where it waits");
    b.submit(0, Command::Hide).expect("nobody perceives it: Hide is legal");
    assert!(b.fighter(0).hidden.is_some() && b.fighter(0).ap == 1);
    assert_eq!(normal(&b), Command::EndTurn, "hidden, it keeps its last AP to defend");
    let rested = ambush("human_fighter", 3);
    assert!(matches!(normal(&rested), Command::Ready { .. }), "with 3 AP it readies its sword: {:?}", normal(&rested));
    let wolf = ambush("grey_wolf", 2);
    assert_eq!(normal(&wolf), Command::Hide, "a wolf hides too");
    let archer = ambush("archer", 2);
    assert_ne!(normal(&archer), Command::Hide, "the archer does not");
    assert!(
        matches!(ai::decide_with(&ambush("human_fighter", 2), 0, None, &profile("easy")).0, Command::Move { .. }),
        "easy walks toward the sighting"
    );
}

/// A bend of one-square corridors (north row first): a column up at x = 2 (y 6..7), the bend's
/// row at y = 5 (x 2..11), a column down at x = 11 (y 3..4) into a room (x 8..14, y 1..2).
const BEND: [&str; 9] = [
    "WWWWWWWWWWWWWWWW",
    "WW.WWWWWWWWWWWWW",
    "WW.WWWWWWWWWWWWW",
    "WW..........WWWW",
    "WWWWWWWWWWW.WWWW",
    "WWWWWWWWWWW.WWWW",
    "WWWWWWWW.......W",
    "WWWWWWWW.......W",
    "WWWWWWWWWWWWWWWW",
];

fn bend(creatures: &[&str], fallen: &[u32]) -> Battle {
    with_fallen(&BEND, creatures, fallen)
}

/// The battle on `map` (seed 1) with the creatures `fallen` knocked out.
fn with_fallen(map: &[&str], creatures: &[&str], fallen: &[u32]) -> Battle {
    let text = level_text("Fallen", map, creatures);
    let level = parse_level("fallen.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    let mut b = Battle::new(&level, builtin_compendium(), 1).unwrap_or_else(|e| panic!("{e}"));
    for &f in fallen {
        b.adjust_for_scenario(f, |f| {
            let _ = f.attrs.remove_dice(Attribute::Might, 99);
        });
        assert!(b.fighter(f).attrs.is_unconscious());
    }
    b
}

// RULES: PERC-7 — issue 9's "no passive stalemates": a lone searcher at the bend sees only a
// fallen foe down the row and remembers no other. It searches from where the fallen lies (where
// the fight was: up the far column), not from where it stands: the nearest square out of its
// sight was the corner of its own room behind it, from which it no longer saw the fallen, so
// it walked back to them, and paced so until `max_rounds` (The Crossing's draws).
#[test]
fn with_only_a_fallen_foe_in_sight_the_search_starts_where_it_lies() {
    let b = bend(
        &[
            r#"(name: "Searcher", template: "human_fighter", side: "Blue", at: (11, 5), facing: W)"#,
            r#"(name: "Fallen", template: "human_fighter", side: "Red", at: (4, 5), facing: E)"#,
            r#"(name: "Unseen", template: "human_fighter", side: "Red", at: (2, 7), facing: S)"#,
        ],
        &[1],
    );
    assert_eq!(b.perceived_hostiles(0), vec![1], "only the fallen one is in sight");
    assert_eq!(b.last_seen(0, 2), None, "the other was never seen");
    assert!(!b.seen_squares(0)[b.map().index(Pos::new(10, 2))], "its room's corner is out of its sight");
    let goal = ai::hunting_goal(&b, 0, &[]).expect("a goal").origin;
    assert!(goal.x <= 3 && goal.y >= 6, "up the far column, beyond the fallen: {goal}");
    match ai::decide(&b, 0, None) {
        Command::Move { path, .. } => {
            let end = *path.last().unwrap();
            assert!(end.y == 5 && end.x < 11, "it walks along the row toward the fallen: {end}");
        }
        other => panic!("it walks on: {other:?}"),
    }
}

/// The round in which `body` was first lifted.
fn lifted_in(b: &Battle, body: u32) -> Option<u32> {
    b.log()
        .iter()
        .find_map(|e| matches!(e.event, Event::Lifted { creature, .. } if creature == body).then_some(e.round))
}

/// The round and square where `body` was first put down.
fn put_down(b: &Battle, body: u32) -> Option<(u32, Pos)> {
    b.log().iter().find_map(|e| match e.event {
        Event::PutDown { creature, at, .. } if creature == body => Some((e.round, at)),
        _ => None,
    })
}

/// The log, one event a line, for a failure's message.
fn log_text(b: &Battle) -> String {
    b.log().iter().map(|e| format!("r{} {:?}", e.round, e.event)).collect::<Vec<_>>().join("\n")
}

/// Creature 0 by `normal`, the others (its fallen friends, the foe) end their turns.
fn normal_round(b: &mut Battle) {
    let start = b.round();
    let normal = builtin_compendium().ai_profiles["normal"].clone();
    for _ in 0..500 {
        let Some((c, w)) = b.awaiting() else { return };
        if b.round() != start {
            return;
        }
        let cmd = match (c, w) {
            (0, _) => ai::decide_with(b, c, w, &normal).0,
            (_, Some(_)) => Command::Pass,
            _ => Command::EndTurn,
        };
        b.submit(c, cmd).expect("accepted");
    }
}

// RULES: MOVE-13, MOVE-E7 — two of its fallen friends lie in the bend, in its column's mouth and
// the next square along the row; the foe was never seen. In a stall it lifts the first: that
// shortens the walk to where its hunt leads, though not the straight distance (the row runs
// sideways), which was all the lift was judged by, so neither body was lifted and the last
// creature of a band waited behind them until `max_rounds` (The Crossing's draws). Then it
// walks on along the row: exploring, a square behind it counts four times as far (with the
// nearest square out of sight alone, the column behind it from one end of the body's square
// and the row's far end from the other, it paced between them with the second body in its
// arms).
#[test]
fn in_a_bend_the_first_of_two_bodies_is_lifted_because_the_walk_shortens() {
    let mut b = bend(
        &[
            r#"(name: "Fighter", template: "human_fighter", side: "Blue", at: (2, 6), facing: S)"#,
            r#"(name: "Fallen", template: "human_fighter", side: "Blue", at: (2, 5), facing: S)"#,
            r#"(name: "Fallen 2", template: "human_fighter", side: "Blue", at: (3, 5), facing: E)"#,
            r#"(name: "Foe", template: "human_fighter", side: "Red", at: (12, 1), facing: N)"#,
        ],
        &[1, 2],
    );
    assert!(b.perceived_hostiles(0).is_empty(), "the foe is never seen");
    for _ in 0..20 {
        normal_round(&mut b);
    }
    let log = log_text(&b);
    let first = lifted_in(&b, 1).unwrap_or_else(|| panic!("the body in the column's mouth is lifted: {log}"));
    assert!(first >= 3, "only once the fight has stalled: round {first}");
    // The last of its side able to act puts it down in the passage it came by: it shuts no
    // friend out, and nothing else is free.
    assert_eq!(put_down(&b, 1).map(|(_, at)| at), Some(Pos::new(2, 6)), "put down behind it: {log}");
    assert!(lifted_in(&b, 2).is_some_and(|r| r > first), "then the one along the row: {log}");
    let at = b.fighter(0).origin;
    assert!(at.x >= 6 || b.side_perceives(0, 3), "and it goes on along the row: {at}\n{log}");
}

// RULES: MOVE-13, MOVE-E7 — a Large brute, the last of its side, in a corridor two squares wide
// that two fallen wolves shut in turn (it needs both squares of the width). In a stall it lifts
// the first, walks on with it to the second, sets it down (alone, it shuts no friend out) and
// lifts the second. Before, only a one-square carrier set a burden down, and the brute stood
// holding the first wolf until `max_rounds` (The Brute in the Corridor's draws).
#[test]
fn a_large_carrier_alone_sets_its_burden_down_to_lift_the_next() {
    let mut b = with_fallen(
        &["WWWWWWWWWWWWWWWW", "W..............W", "W..............W", "WWWWWWWWWWWWWWWW"],
        &[
            r#"(name: "Brute", template: "brute", side: "Blue", at: (1, 1), facing: E)"#,
            r#"(name: "Fallen", template: "grey_wolf", side: "Blue", at: (4, 2), facing: E)"#,
            r#"(name: "Fallen 2", template: "grey_wolf", side: "Blue", at: (8, 1), facing: E)"#,
            r#"(name: "Foe", template: "human_duelist", side: "Red", at: (14, 1), facing: W)"#,
        ],
        &[1, 2],
    );
    assert!(b.reachable(0, false).unwrap().cost_quarters(Pos::new(5, 1)).is_none(), "shut in");
    for _ in 0..16 {
        normal_round(&mut b);
    }
    let log = log_text(&b);
    let first = lifted_in(&b, 1).unwrap_or_else(|| panic!("the first wolf is lifted: {log}"));
    assert!(put_down(&b, 1).is_some_and(|(r, _)| r > first), "then set down: {log}");
    assert!(lifted_in(&b, 2).is_some(), "and the second lifted: {log}");
}
