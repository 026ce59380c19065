//! The v7 seconds mode (`ruleset: (time_model: Seconds004)`): TIME-S1…S7 with TIME-E11's
//! conversion of AP costs, scripted event by event, and the AI playing whole battles in it.

mod common;

use common::{SHIPPED, level_text, since};
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::{LoadedLevel, builtin_compendium, parse_level};
use meshal_tactics::rules::grid::Pos;
use meshal_tactics::rules::ruleset::TimeModel;

const OPEN: [&str; 5] = ["WWWWWWWWWW", "W........W", "W........W", "W........W", "WWWWWWWWWW"];

fn seconds_level(creatures: &[&str]) -> LoadedLevel {
    let text = level_text("Seconds", &OPEN, creatures);
    let mut l = parse_level("seconds.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    l.level.ruleset.time_model = TimeModel::Seconds004;
    l
}

/// The battle on the first seed whose turn order is the creatures' level order.
fn in_level_order(l: &LoadedLevel) -> Battle {
    battles_in_level_order(l, 4000).next().expect("some seed orders the creatures as listed").1
}

/// The battles, seed by seed (with their seeds), whose turn order is the level order: what the
/// tests that need a roll to fall a certain way look through.
fn battles_in_level_order(l: &LoadedLevel, seeds: u64) -> impl Iterator<Item = (u64, Battle)> + '_ {
    let n = l.level.creatures.len() as CreatureId;
    (0..seeds)
        .map(move |seed| (seed, Battle::new(l, builtin_compendium(), seed).unwrap()))
        .filter(move |(_, b)| b.order() == (0..n).collect::<Vec<_>>().as_slice())
}

const BLUE: &str = r#"(name: "Blue", template: "human_fighter", side: "Blue", at: (3, 2), facing: E)"#;
const RED: &str = r#"(name: "Red", template: "human_fighter", side: "Red", at: (4, 2), facing: W)"#;

fn strike(additives: &[&str]) -> Command {
    Command::Attack {
        weapon: "sword".into(),
        target: Target::Creature(1),
        additives: additives.iter().map(|a| a.to_string()).collect(),
    }
}

/// Answer every reaction window by declining, until someone's slot asks for a command.
fn decline_all(b: &mut Battle) {
    while let Some((c, Some(kind))) = b.awaiting() {
        let answer = if kind == WindowKind::Defense { Command::Defend { defense: None } } else { Command::Pass };
        b.submit(c, answer).unwrap();
    }
}

// RULES: TIME-S1 — every creature acts once a second in initiative order; a round holds three
// seconds (Engine decision: an AP round's worth), then a new round begins.
#[test]
fn time_s1_each_second_every_creature_acts_once() {
    let mut b = in_level_order(&seconds_level(&[BLUE, RED]));
    let mark = b.log().len();
    let mut slots = Vec::new();
    for _ in 0..7 {
        let (c, w) = b.awaiting().unwrap();
        assert_eq!(w, None);
        slots.push((b.round(), b.second(), c));
        b.submit(c, Command::EndTurn).unwrap();
    }
    assert_eq!(
        slots,
        vec![(1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1), (1, 2, 0), (1, 2, 1), (2, 0, 0)],
        "round, second, creature"
    );
    let log = since(&b, mark);
    assert!(log.contains(&&Event::SecondStarted { round: 1, second: 1 }));
    assert!(log.contains(&&Event::SecondStarted { round: 1, second: 2 }));
    assert!(log.contains(&&Event::RoundEnded { round: 1 }));
    assert!(!log.iter().any(|e| matches!(e, Event::SecondStarted { second: 3, .. })));
}

// RULES: TIME-S2, TIME-S6, TIME-E11 — a sword (1 AP) with Power Strike (additive 1 AP) is an
// action of 2 seconds; nothing happens when it is declared; at the end of Blue's second second
// the target is chosen again, and the blow lands on a Red that stayed.
#[test]
fn time_s2_action_resolves_at_its_last_second() {
    let mut b = in_level_order(&seconds_level(&[BLUE, RED]));
    let mark = b.log().len();
    b.submit(0, strike(&["power_strike"])).unwrap();
    let log = since(&b, mark);
    assert!(log.contains(&&Event::ActionBegun { creature: 0, seconds: 2 }));
    assert!(!log.iter().any(|e| matches!(e, Event::AttackDeclared { .. })), "not yet");
    assert_eq!(b.clock(0), ClockView::Running { left: 1 });
    assert_eq!(b.awaiting(), Some((1, None)), "Blue's slot is over");
    let mark = b.log().len();
    b.submit(1, Command::EndTurn).unwrap();
    let log = since(&b, mark);
    let second = log.iter().position(|e| **e == Event::SecondStarted { round: 1, second: 1 }).unwrap();
    let declared = log
        .iter()
        .position(|e| matches!(e, Event::AttackDeclared { attacker: 0, targets, .. } if targets == &vec![1]))
        .expect("the blow lands at the end of Blue's second second");
    assert!(second < declared);
    decline_all(&mut b);
    assert_eq!(b.clock(0), ClockView::Idle);
    assert_eq!((b.second(), b.awaiting()), (1, Some((1, None))), "then Red's slot in second 2");
}

// RULES: TIME-S2 — targets are chosen when the last second completes: Red walked away in its
// slot, so the blow declared on it comes to nothing, and Blue's time is lost.
#[test]
fn time_s2_the_target_walked_away_and_the_action_is_wasted() {
    let mut b = in_level_order(&seconds_level(&[BLUE, RED]));
    b.submit(0, strike(&["power_strike"])).unwrap();
    let path = vec![Pos::new(4, 2), Pos::new(5, 2), Pos::new(6, 2)];
    b.submit(1, Command::Move { path, sprint: false, face: None }).unwrap();
    // Red's move was its 1-second action: the slot is over, and Blue's action resolves now.
    assert_eq!(b.second(), 1);
    let all = since(&b, 0);
    let wasted =
        all.iter().any(|e| matches!(e, Event::LongTermAborted { creature: 0, reason } if reason.contains("TIME-S2")));
    assert!(wasted, "the action is wasted: {all:?}");
    assert!(!all.iter().any(|e| matches!(e, Event::AttackDeclared { attacker: 0, .. })));
    assert_eq!(b.awaiting(), Some((1, None)), "Red's slot in second 2");
}

// RULES: TIME-S2 — the creature may abort at any time; the action does not happen.
#[test]
fn time_s2_abort_at_any_time() {
    let mut b = in_level_order(&seconds_level(&[BLUE, RED]));
    b.submit(0, strike(&["power_strike"])).unwrap();
    assert_eq!(b.awaiting(), Some((1, None)));
    b.submit(0, Command::AbortLongTerm).expect("Blue aborts during Red's slot");
    assert_eq!(b.clock(0), ClockView::Idle);
    b.submit(1, Command::EndTurn).unwrap();
    assert_eq!(b.awaiting(), Some((0, None)), "Blue acts again in second 2");
    assert!(!since(&b, 0).iter().any(|e| matches!(e, Event::AttackDeclared { .. })));
    let refused = b.submit(1, Command::AbortLongTerm);
    assert!(refused.is_err(), "no action to abort");
}

// RULES: TIME-S2, MOVE-11 — forced movement interrupts a running action: a hammer guard's
// knock-back in its slot stops Blue's 2-second blow.
#[test]
fn time_s2_forced_move_interrupts() {
    let guard = r#"(name: "Guard", template: "hammer_guard", side: "Red", at: (4, 2), facing: W,
        overrides: (might: Some(12)))"#;
    let l = seconds_level(&[BLUE, guard]);
    let mut interrupted = 0;
    for (seed, mut b) in battles_in_level_order(&l, 400) {
        b.submit(0, strike(&["power_strike"])).unwrap();
        let hammer = Command::Attack { weapon: "warhammer".into(), target: Target::Creature(0), additives: vec![] };
        let mark = b.log().len();
        b.submit(1, hammer).unwrap();
        decline_all(&mut b);
        let log = since(&b, mark);
        let pushed = log.iter().position(|e| matches!(e, Event::ForcedMoved { creature: 0, .. }));
        let stopped = log
            .iter()
            .position(|e| matches!(e, Event::LongTermAborted { creature: 0, reason } if reason.contains("TIME-S2")));
        match pushed {
            Some(p) => {
                assert!(stopped.is_some(), "seed {seed}: the push at {p} stops the blow: {log:?}");
                assert_eq!(b.clock(0), ClockView::Idle);
                interrupted += 1;
                if interrupted == 3 {
                    return;
                }
            }
            None => assert!(stopped.is_none(), "seed {seed}: without a push the blow goes on"),
        }
    }
    panic!("no seed pushed Blue ({interrupted})");
}

/// Two Blue fighters, west of Red and north of it (its flank), and Red, in that order.
fn two_on_one() -> Battle {
    in_level_order(&two_on_one_level())
}

fn two_on_one_level() -> LoadedLevel {
    let blue2 = r#"(name: "Blue 2", template: "human_fighter", side: "Blue", at: (4, 1), facing: S,
        overrides: (might: Some(12)))"#;
    let red = r#"(name: "Red", template: "human_fighter", side: "Red", at: (4, 2), facing: W)"#;
    seconds_level(&[BLUE, blue2, red])
}

fn sword_on(target: CreatureId) -> Command {
    Command::Attack { weapon: "sword".into(), target: Target::Creature(target), additives: vec![] }
}

/// Red (2) answers the attack under way: no counter, and `defend` or not.
fn red_answers(b: &mut Battle, defend: bool) -> Vec<WindowKind> {
    let mut offered = Vec::new();
    while let Some((c, Some(kind))) = b.awaiting() {
        if c == 2 {
            offered.push(kind);
        }
        let answer = match kind {
            WindowKind::Defense if defend => {
                let d = b.window_preview().unwrap().attack.best_defense().map(|d| d.defense);
                Command::Defend { defense: d }
            }
            WindowKind::Defense => Command::Defend { defense: None },
            _ => Command::Pass,
        };
        b.submit(c, answer).unwrap();
    }
    offered
}

// RULES: TIME-S3, TIME-E11, TIME-S5 — a defense (1 AP reaction) is an instant followed by
// [Gap 1]: Red's next slot passes, and during the gap no instant is allowed, so the second
// Blue's blow in the same second finds Red unable to defend.
#[test]
fn time_s3_a_reaction_leaves_a_gap_and_time_s5_no_instant_in_it() {
    let l = two_on_one_level();
    let mut shown = 0;
    for (seed, mut b) in battles_in_level_order(&l, 300) {
        b.submit(0, sword_on(2)).unwrap();
        if !red_answers(&mut b, true).contains(&WindowKind::Defense) {
            continue; // the first blow missed: nothing to defend
        }
        if b.outcome().is_some() {
            continue;
        }
        assert_eq!(b.clock(2), ClockView::Gap { left: 1 });
        assert_eq!(b.fighter(2).ap, 0, "nothing to react with");
        assert_eq!(b.awaiting(), Some((1, None)));
        let mark = b.log().len();
        b.submit(1, sword_on(2)).unwrap();
        let offered = red_answers(&mut b, true);
        assert!(!offered.contains(&WindowKind::Defense), "no defense in a gap: {offered:?}");
        let blow: Vec<&Event> = since(&b, mark);
        let harmful = blow.iter().any(|e| {
            matches!(e, Event::SegmentResolved { attacker: Some(1), attack_points, protection, .. }
                if attack_points > protection)
        });
        let told =
            blow.iter().any(|e| matches!(e, Event::Undefendable { target: 2, reason } if reason.contains("TIME-S5")));
        assert_eq!(told, harmful, "seed {seed}: Red is told why it cannot defend a harmful blow: {blow:?}");
        if !b.fighter(2).can_act() {
            continue;
        }
        // Red's slot in this second is its gap's one second: it passes without asking.
        assert_eq!((b.second(), b.awaiting()), (1, Some((0, None))));
        assert_eq!(b.clock(2), ClockView::Idle);
        assert!(since(&b, 0).contains(&&Event::ClockSet { creature: 2, clock: ClockView::Gap { left: 1 } }));
        shown += usize::from(harmful);
        if shown == 3 {
            return;
        }
    }
    panic!("only {shown} harmful blows in a gap");
}

// RULES: TIME-S3, TIME-E11 — 1 fatigue per second shortens the gap: an Activeness die each,
// removed like damage; Red then keeps its slot. Refused beyond the gap, and in the AP model.
#[test]
fn time_s3_fatigue_cuts_gap() {
    let mut b = two_on_one();
    b.submit(0, sword_on(2)).unwrap();
    red_answers(&mut b, true);
    assert_eq!(b.clock(2), ClockView::Gap { left: 1 });
    let before = b.fighter(2).attrs.dice(meshal_tactics::rules::creature::Attribute::Activeness);
    assert_eq!(b.submit(2, Command::CutGap { seconds: 2 }).unwrap_err().rule, "TIME-S3");
    b.submit(2, Command::CutGap { seconds: 1 }).unwrap();
    let after = b.fighter(2).attrs.dice(meshal_tactics::rules::creature::Attribute::Activeness);
    assert_eq!(after, before - 1);
    assert_eq!(b.clock(2), ClockView::Idle);
    b.submit(1, Command::EndTurn).unwrap();
    assert_eq!(b.awaiting(), Some((2, None)), "Red acts in second 1 after all");
    // The AP model has no gaps.
    let text = level_text("AP", &OPEN, &[BLUE, RED]);
    let l = parse_level("ap.level.ron", &text, builtin_compendium()).unwrap();
    let mut ap = Battle::new(&l, builtin_compendium(), 1).unwrap();
    let (c, _) = ap.awaiting().unwrap();
    assert_eq!(ap.submit(c, Command::CutGap { seconds: 1 }).unwrap_err().rule, "TIME-S3");
}

const ARCHER: &str = r#"(name: "Archer", template: "archer", side: "Blue", at: (1, 1), facing: E)"#;
const WALKER: &str = r#"(name: "Walker", template: "human_fighter", side: "Red", at: (8, 3), facing: W)"#;

// RULES: TIME-S4, TIME-E10, TIME-E11 — readying keeps the shot until the archer's next slot;
// firing it is its reaction, which ends the keep and leaves [Gap 2] (the bow's 1 AP + 1).
#[test]
fn time_s4_keep_then_gap() {
    let mut b = in_level_order(&seconds_level(&[ARCHER, WALKER]));
    b.submit(0, Command::Ready { weapon: "bow".into(), trigger: ReadyTrigger::InReach }).unwrap();
    assert_eq!(b.clock(0), ClockView::Keeping);
    assert_eq!(b.awaiting(), Some((1, None)), "the keep takes the slot");
    let path = vec![Pos::new(8, 3), Pos::new(7, 3)];
    b.submit(1, Command::Move { path, sprint: false, face: None }).unwrap();
    assert!(since(&b, 0).contains(&&Event::ReadyFired { creature: 0, at: 1 }));
    decline_all(&mut b);
    assert_eq!(b.clock(0), ClockView::Gap { left: 1 }, "its first gap second was this slot");
    assert_eq!((b.second(), b.awaiting()), (1, Some((1, None))), "the archer sits out second 2");
}

// RULES: TIME-S4 — a keep that nothing set off ends at the creature's next slot; it acts then.
#[test]
fn time_s4_keep_lapses_at_the_next_slot() {
    let mut b = in_level_order(&seconds_level(&[ARCHER, WALKER]));
    b.submit(0, Command::Ready { weapon: "bow".into(), trigger: ReadyTrigger::InReach }).unwrap();
    let mark = b.log().len();
    b.submit(1, Command::EndTurn).unwrap();
    assert!(since(&b, mark).contains(&&Event::ReadyLapsed { creature: 0 }));
    assert_eq!(b.clock(0), ClockView::Idle);
    assert_eq!(b.awaiting(), Some((0, None)));
}

fn seconds_copy(name: &str, text: &str) -> LoadedLevel {
    let mut l = parse_level(name, text, builtin_compendium()).unwrap();
    l.level.ruleset.time_model = TimeModel::Seconds004;
    l
}

// RULES: TIME-S1, TIME-E11 — the AI plays whole battles in seconds on the default skirmish and
// two more levels: every battle ends, no command is refused or replaced, long actions are
// declared and gaps taken, and the same seed gives the same log byte for byte.
#[test]
fn the_ai_plays_seconds_mode_to_the_end() {
    let mut begun = 0;
    let mut gaps = 0;
    for (name, text) in SHIPPED.iter().filter(|(n, _)| ["skirmish", "archers_wall", "the_bridge"].contains(n)) {
        let l = seconds_copy(name, text);
        for seed in 0..6 {
            let mut b = Battle::new(&l, builtin_compendium(), seed).unwrap();
            let count = ai::play_direct(&mut b, None, 200_000);
            assert!(b.outcome().is_some(), "{name} seed {seed} ends");
            assert_eq!((count.fallbacks, count.rejected), (0, 0), "{name} seed {seed}");
            begun += b.log().iter().filter(|e| matches!(e.event, Event::ActionBegun { .. })).count();
            gaps += b
                .log()
                .iter()
                .filter(|e| matches!(e.event, Event::ClockSet { clock: ClockView::Gap { .. }, .. }))
                .count();
            if seed == 0 {
                let mut again = Battle::new(&l, builtin_compendium(), seed).unwrap();
                ai::play_direct(&mut again, None, 200_000);
                assert_eq!(
                    ron::to_string(b.log()).unwrap(),
                    ron::to_string(again.log()).unwrap(),
                    "{name}: same seed, same log"
                );
            }
        }
    }
    assert!(begun > 0 && gaps > 0, "long actions {begun}, gaps {gaps}");
}

// RULES: TIME-S7, TIME-E11 — the die by the token: a search (3 AP) is [Action 3]; the die
// shows 2, then 1, and the search is made at the end of Blue's third second.
#[test]
fn time_s7_the_die_counts_down() {
    let mut b = in_level_order(&seconds_level(&[BLUE, RED]));
    b.submit(0, Command::Search { at: Pos::new(6, 2) }).unwrap();
    let mut faces = vec![b.clock(0)];
    let mut searched_in = None;
    while searched_in.is_none() {
        let (c, w) = b.awaiting().unwrap();
        assert_eq!((c, w), (1, None), "only Red is asked while Blue searches");
        let mark = b.log().len();
        b.submit(1, Command::EndTurn).unwrap();
        if since(&b, mark).iter().any(|e| matches!(e, Event::Searched { creature: 0, .. })) {
            searched_in = Some(b.second());
        }
        faces.push(b.clock(0));
    }
    assert_eq!(faces, vec![ClockView::Running { left: 2 }, ClockView::Running { left: 1 }, ClockView::Idle]);
    assert_eq!(searched_in, Some(2), "the third second (counted from 0)");
    let shown: Vec<ClockView> = b
        .log()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ClockSet { creature: 0, clock } => Some(*clock),
            _ => None,
        })
        .collect();
    assert_eq!(shown, faces, "every change of the die is told");
    assert_eq!(ClockView::Running { left: 2 }.label().as_deref(), Some("A2"));
    assert_eq!(ClockView::Gap { left: 1 }.label().as_deref(), Some("G1"));
}

// RULES: TIME-S2, FLOW-5 — a flight (3 AP) is [Action 3]; made good at its last second, it ends
// the fleer's slot itself, and the next creature in the order is asked, not skipped.
#[test]
fn time_s2_a_flight_resolved_at_its_last_second_skips_nobody() {
    let runner = r#"(name: "Runner", template: "human_fighter", side: "Blue", at: (1, 1), facing: W,
        overrides: (activeness: Some(12)))"#;
    let friend = r#"(name: "Friend", template: "human_fighter", side: "Blue", at: (1, 3), facing: W)"#;
    let red = r#"(name: "Red", template: "human_fighter", side: "Red", at: (8, 2), facing: W)"#;
    let l = seconds_level(&[runner, friend, red]);
    let mut fled = 0;
    for (seed, mut b) in battles_in_level_order(&l, 400) {
        b.adjust_for_scenario(0, |f| f.hit_free_streak = 5);
        b.submit(0, Command::Flee).unwrap();
        assert_eq!(b.clock(0), ClockView::Running { left: 2 });
        for _ in 0..2 {
            b.submit(1, Command::EndTurn).unwrap();
            b.submit(2, Command::EndTurn).unwrap();
        }
        // The third second began with the runner's slot: the flight was made then.
        let made = b.log().iter().any(|e| matches!(e.event, Event::FleeAttempted { creature: 0, .. }));
        assert!(made, "seed {seed}: the flight is made at its last second");
        assert_eq!(b.second(), 2);
        assert_eq!(b.awaiting(), Some((1, None)), "seed {seed}: the friend's slot comes next");
        if b.fighter(0).presence == Presence::Fled {
            fled += 1;
            if fled == 3 {
                return;
            }
        }
    }
    panic!("the runner got away {fled} times");
}

// RULES: TIME-S2, TIME-14 — a blow cancelled by the target's Quick Step gives no time back in
// seconds: the attacker's slot is spent (it is not asked again in the same second) and it holds
// no AP for an instant; and (TIME-E10) only its own side is told that a creature keeps a
// readied attack.
#[test]
fn time_s2_a_cancelled_blow_gives_no_time_back() {
    let guard = r#"(name: "Guard", template: "human_fighter", side: "Blue", at: (3, 2), facing: E)"#;
    let duelist = r#"(name: "Duelist", template: "human_duelist", side: "Red", at: (4, 2), facing: W)"#;
    let l = seconds_level(&[guard, duelist]);
    let mut cancelled = 0;
    for (seed, mut b) in battles_in_level_order(&l, 300) {
        if cancelled == 0 {
            let mut keeper = b.clone();
            keeper.submit(0, Command::Ready { weapon: "sword".into(), trigger: ReadyTrigger::InReach }).unwrap();
            let keep =
                keeper.log().iter().find(|e| e.event == Event::ClockSet { creature: 0, clock: ClockView::Keeping });
            let told = keep.map(|e| e.visible_to.clone());
            assert_eq!(told, Some(vec!["Blue".to_string()]), "the keep is Blue's secret");
        }
        b.submit(0, sword_on(1)).unwrap();
        if b.awaiting() != Some((1, Some(WindowKind::BeforeAttack))) {
            continue;
        }
        b.submit(1, Command::QuickStep { to: Pos::new(5, 2), face: None }).unwrap();
        decline_all(&mut b);
        if !b.log().iter().any(|e| matches!(e.event, Event::AttackCancelled { attacker: 0, .. })) {
            continue;
        }
        assert_eq!(b.fighter(0).ap, 3, "seed {seed}: idle again between slots, with its full AP");
        assert_eq!(
            (b.second(), b.awaiting()),
            (1, Some((0, None))),
            "seed {seed}: the guard's next slot is the next second's"
        );
        cancelled += 1;
        if cancelled == 2 {
            return;
        }
    }
    panic!("no blow was cancelled ({cancelled})");
}
