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
