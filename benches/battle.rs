//! Speed targets of the battle engine (issue 3). Figures are recorded in README.md.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use meshal_tactics::ai;
use meshal_tactics::app::headless_app;
use meshal_tactics::battle::{ActiveBattle, Battle, Command, Controller, play_direct, run_until_input};
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::facing::Facing;
use std::hint::black_box;

fn skirmish() -> meshal_tactics::level::LoadedLevel {
    parse_level("skirmish", include_str!("../levels/skirmish.level.ron"), builtin_compendium()).unwrap()
}

fn commands(c: &mut Criterion) {
    let level = skirmish();
    let battle = Battle::new(&level, builtin_compendium(), 7).unwrap();
    let (actor, _) = battle.awaiting().unwrap();
    let f = battle.fighter(actor);
    // A legal one-step move east or west, whichever is free, from the first creature to act.
    let step = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .map(|(dx, dy)| Command::Move {
            path: vec![f.origin, f.origin.offset(dx, dy)],
            sprint: false,
            face: Some(Facing::E),
        })
        .find(|m| battle.check(actor, m).is_ok())
        .expect("a free neighbour");
    let mut g = c.benchmark_group("command_check_execute_events");
    g.bench_function("move_one_step", |b| {
        b.iter_batched_ref(
            || battle.clone(),
            |b| black_box(b.submit(actor, step.clone()).is_ok()),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("face", |b| {
        b.iter_batched_ref(
            || battle.clone(),
            |b| black_box(b.submit(actor, Command::Face { facing: Facing::S }).is_ok()),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("end_turn", |b| {
        b.iter_batched_ref(
            || battle.clone(),
            |b| black_box(b.submit(actor, Command::EndTurn).is_ok()),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("rejected_move", |b| {
        let bad = Command::Move { path: vec![f.origin, f.origin.offset(5, 0)], sprint: false, face: None };
        b.iter_batched_ref(
            || battle.clone(),
            |b| black_box(b.submit(actor, bad.clone()).is_err()),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn whole_battles(c: &mut Criterion) {
    let level = skirmish();
    let mut g = c.benchmark_group("skirmish_6v8_baseline_ai");
    g.sample_size(20);
    // Whole battles driven directly (no ECS), one new seed per iteration, with a given profile.
    for (name, profile) in [("direct", "baseline"), ("direct_default_ai", "default")] {
        let profile = builtin_compendium().ai_profiles[profile].clone();
        let mut seed = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut battle = Battle::new(&level, builtin_compendium(), seed).unwrap();
                play_direct(&mut battle, |bt, c, w| ai::decide_with(bt, c, w, &profile).0, 1_000_000);
                black_box(battle.round())
            })
        });
    }
    let mut seed = 0;
    g.bench_function("bevy_minimal_plugins", |b| {
        b.iter(|| {
            seed += 1;
            let battle = Battle::new(&level, builtin_compendium(), seed).unwrap();
            let controllers = vec![Controller::Ai; battle.sides().len()];
            let mut app = headless_app(ActiveBattle::new(battle, controllers));
            app.insert_resource(ai::SideProfiles(vec![Some("baseline".into()); 2]));
            black_box(run_until_input(&mut app, 1_000_000))
        })
    });
    let battle = Battle::new(&level, builtin_compendium(), 1).unwrap();
    g.bench_function("app_creation_only", |b| {
        b.iter(|| {
            let controllers = vec![Controller::Ai; battle.sides().len()];
            black_box(headless_app(ActiveBattle::new(battle.clone(), controllers)))
        })
    });
    g.finish();
}

/// A skirmish state a few decisions in, and one with a defense window open.
fn ai_states() -> (Battle, Battle) {
    let level = skirmish();
    let mut turn = Battle::new(&level, builtin_compendium(), 7).unwrap();
    // Play into round 2 so both sides are engaged.
    while turn.round() < 2 {
        let (c, w) = turn.awaiting().unwrap();
        let cmd = ai::decide(&turn, c, w);
        turn.submit(c, cmd).unwrap();
    }
    while turn.awaiting().unwrap().1.is_some() {
        let (c, w) = turn.awaiting().unwrap();
        let cmd = ai::decide(&turn, c, w);
        turn.submit(c, cmd).unwrap();
    }
    let mut window = turn.clone();
    loop {
        let (c, w) = window.awaiting().unwrap();
        if w == Some(meshal_tactics::battle::WindowKind::Defense) {
            break;
        }
        let cmd = ai::decide(&window, c, w);
        window.submit(c, cmd).unwrap();
    }
    (turn, window)
}

fn ai_decisions(c: &mut Criterion) {
    let (turn, window) = ai_states();
    let mut g = c.benchmark_group("ai_default_6v8");
    let (who, _) = turn.awaiting().unwrap();
    g.bench_function("turn_decision", |b| b.iter(|| black_box(ai::decide(&turn, who, None))));
    // The look-ahead rungs: the same decision, each candidate played out to its next turn.
    g.sample_size(10);
    for rung in ["hard", "expert"] {
        let profile = builtin_compendium().ai_profiles[rung].clone();
        g.bench_function(format!("{rung}_turn_decision"), |b| {
            b.iter(|| black_box(ai::decide_with(&turn, who, None, &profile).0))
        });
    }
    g.sample_size(100);
    let (defender, kind) = window.awaiting().unwrap();
    g.bench_function("reaction_decision", |b| b.iter(|| black_box(ai::decide(&window, defender, kind))));
    // Every decision one side makes in a whole round (its creatures' turns and reactions).
    g.sample_size(20);
    g.bench_function("one_side_whole_round", |b| {
        b.iter_custom(|iters| {
            let mut total = std::time::Duration::ZERO;
            for _ in 0..iters {
                let mut bt = turn.clone();
                let side = bt.fighter(who).side;
                let round = bt.round();
                while bt.round() == round && bt.outcome().is_none() {
                    let (c, w) = bt.awaiting().unwrap();
                    let start = std::time::Instant::now();
                    let cmd = ai::decide(&bt, c, w);
                    if bt.fighter(c).side == side {
                        total += start.elapsed();
                    }
                    bt.submit(c, cmd).unwrap();
                }
            }
            total
        })
    });
    g.finish();
}

/// The engine's overlay queries the client asks when the battle changes (issue 10), on the
/// 64×64 great field with 30 creatures: reach rings by moves and the threat view.
fn overlay_queries(c: &mut Criterion) {
    let l = parse_level("great_field", include_str!("../levels/great_field.level.ron"), builtin_compendium()).unwrap();
    let b = Battle::new(&l, builtin_compendium(), 1).unwrap();
    let (who, _) = b.awaiting().unwrap();
    let side = b.fighter(who).side;
    let mut g = c.benchmark_group("overlays_great_field");
    g.bench_function("moves_to_squares", |bn| bn.iter(|| black_box(b.moves_to_squares(who))));
    g.bench_function("threat_map", |bn| bn.iter(|| black_box(b.threat_map(side, Some(who)))));
    g.finish();
}

/// The look-ahead rungs on the 64×64 great field (30 creatures), where the work budget
/// (`ai::LOOK_AHEAD_WORK_BUDGET`) trims `expert`'s play-outs: the first own-turn decision of
/// round 2, the battle played by the default AI until then.
fn look_ahead_great_field(c: &mut Criterion) {
    let l = parse_level("great_field", include_str!("../levels/great_field.level.ron"), builtin_compendium()).unwrap();
    let mut b = Battle::new(&l, builtin_compendium(), 7).unwrap();
    while b.round() < 2 || b.awaiting().unwrap().1.is_some() {
        let (c, w) = b.awaiting().unwrap();
        let cmd = ai::decide(&b, c, w);
        b.submit(c, cmd).unwrap();
    }
    let (who, _) = b.awaiting().unwrap();
    let mut g = c.benchmark_group("look_ahead_great_field");
    g.sample_size(10);
    for rung in ["hard", "expert"] {
        let profile = builtin_compendium().ai_profiles[rung].clone();
        g.bench_function(format!("{rung}_turn_decision"), |bn| {
            bn.iter(|| black_box(ai::decide_with(&b, who, None, &profile).0))
        });
    }
    g.finish();
}

/// A level at the validator's limits: an open 256×256 field, 256 fighters a side in two
/// ranks, the sides `gap` rows apart.
fn field_at_the_limits(gap: i32) -> meshal_tactics::level::LoadedLevel {
    let side = 256;
    let rows: Vec<String> = (0..side)
        .map(|y| {
            let row: String =
                (0..side).map(|x| if x == 0 || y == 0 || x == side - 1 || y == side - 1 { '#' } else { '.' }).collect();
            format!("\"{row}\"")
        })
        .collect();
    let mut creatures = Vec::new();
    for (name, y0, facing) in [("North", 100, "S"), ("South", 100 + gap, "N")] {
        for i in 0..256 {
            let (x, y) = (2 + (i % 126) * 2, y0 + (i / 126) * 2);
            creatures.push(format!(
                r#"(name: "{name} {i}", template: "human_fighter", side: "{name}", at: ({x}, {y}), facing: {facing})"#
            ));
        }
    }
    let text = format!(
        r#"(name: "limits", map: [{}], legend: {{ '.': "floor", '#': "wall" }},
            terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true) }},
            sides: [(name: "North"), (name: "South")], creatures: [{}])"#,
        rows.join(","),
        creatures.join(",")
    );
    parse_level("limits", &text, builtin_compendium()).unwrap()
}

/// `normal` at the validator's limits (512 creatures on 256×256): a decision of a searcher
/// whose side sees no foe yet (the sides 120 rows apart: its side's view, 256 fields of view),
/// and one in the thick of it (20 rows apart, second round: 256 foes' threats).
fn decisions_at_the_limits(c: &mut Criterion) {
    let mut g = c.benchmark_group("normal_at_the_limits_512_on_256x256");
    g.sample_size(10);
    for (name, gap, round) in [("searching_decision", 120, 1), ("in_contact_decision", 20, 2)] {
        let l = field_at_the_limits(gap);
        let mut b = Battle::new(&l, builtin_compendium(), 1).unwrap();
        while b.round() < round || b.awaiting().unwrap().1.is_some() {
            let (c, w) = b.awaiting().unwrap();
            let cmd = ai::decide(&b, c, w);
            b.submit(c, cmd).unwrap();
        }
        let (who, _) = b.awaiting().unwrap();
        g.bench_function(name, |bn| bn.iter(|| black_box(ai::decide(&b, who, None))));
    }
    g.finish();
}

criterion_group!(
    benches,
    commands,
    whole_battles,
    ai_decisions,
    overlay_queries,
    look_ahead_great_field,
    decisions_at_the_limits
);
criterion_main!(benches);
