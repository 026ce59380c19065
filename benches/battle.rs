//! Speed targets of the battle engine (issue 3). Figures are recorded in README.md.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use meshal_tactics::ai;
use meshal_tactics::battle::{ActiveBattle, Battle, Command, Controller, headless_app, play_direct, run_until_input};
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
    let mut seed = 0;
    g.bench_function("direct", |b| {
        b.iter(|| {
            seed += 1;
            let mut battle = Battle::new(&level, builtin_compendium(), seed).unwrap();
            play_direct(&mut battle, ai::decide, 1_000_000);
            black_box(battle.round)
        })
    });
    let mut seed = 0;
    g.bench_function("bevy_minimal_plugins", |b| {
        b.iter(|| {
            seed += 1;
            let battle = Battle::new(&level, builtin_compendium(), seed).unwrap();
            let controllers = vec![Controller::Ai; battle.sides.len()];
            let mut app = headless_app(ActiveBattle { battle, controllers });
            black_box(run_until_input(&mut app, 1_000_000))
        })
    });
    let battle = Battle::new(&level, builtin_compendium(), 1).unwrap();
    g.bench_function("app_creation_only", |b| {
        b.iter(|| {
            let controllers = vec![Controller::Ai; battle.sides.len()];
            black_box(headless_app(ActiveBattle { battle: battle.clone(), controllers }))
        })
    });
    g.finish();
}

criterion_group!(benches, commands, whole_battles);
criterion_main!(benches);
