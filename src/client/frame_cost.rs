//! What the client costs a frame (`play --frame-report N`): the time of the `Update` schedule,
//! where all of the client's own systems run (run on one thread here, so that the span is their
//! sum), less the AI's decisions made in it, over N frames drawn during AI turns; printed with
//! the whole frame's time, then the window closes. The battle's own command checks run in the
//! same schedule and are counted (a few microseconds a command).

use crate::ai::AiClock;
use crate::battle::{ActiveBattle, Controller};
use bevy::app::MainScheduleOrder;
use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;
use std::time::{Duration, Instant};

#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
struct UpdateStarts;

#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
struct UpdateEnds;

#[derive(Resource)]
struct FrameCost {
    wanted: usize,
    started: Option<(Instant, Duration)>,
    last_end: Option<Instant>,
    /// (client ms, whole frame ms) per frame during an AI turn.
    samples: Vec<(f64, f64)>,
}

pub fn install(app: &mut App, frames: u32) {
    app.init_schedule(UpdateStarts).init_schedule(UpdateEnds);
    {
        let mut order = app.world_mut().resource_mut::<MainScheduleOrder>();
        order.insert_before(Update, UpdateStarts);
        order.insert_after(Update, UpdateEnds);
    }
    app.edit_schedule(Update, |s| {
        s.set_executor(SingleThreadedExecutor::new());
    });
    app.insert_resource(FrameCost { wanted: frames as usize, started: None, last_end: None, samples: Vec::new() })
        .init_resource::<AiClock>()
        .add_systems(UpdateStarts, start_clock)
        .add_systems(UpdateEnds, stop_clock);
}

fn start_clock(mut cost: ResMut<FrameCost>, ai: Res<AiClock>) {
    cost.started = Some((Instant::now(), ai.0));
}

fn stop_clock(
    mut cost: ResMut<FrameCost>,
    ai: Res<AiClock>,
    battle: Option<Res<ActiveBattle>>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = Instant::now();
    let Some((start, ai_before)) = cost.started.take() else { return };
    let frame = cost.last_end.replace(now).map(|t| (now - t).as_secs_f64() * 1000.0);
    let ai_turn = battle.as_ref().is_some_and(|b| b.awaiting_from(Controller::Ai).is_some());
    if let (true, Some(frame)) = (ai_turn, frame) {
        let client = (now - start).saturating_sub(ai.0 - ai_before).as_secs_f64() * 1000.0;
        cost.samples.push((client, frame));
    }
    let over = battle.as_ref().is_some_and(|b| b.battle.outcome().is_some());
    if cost.samples.len() >= cost.wanted || (over && !cost.samples.is_empty()) {
        println!("{}", report(&cost.samples, battle.as_ref().map(|b| b.battle.level_name()).unwrap_or("?")));
        exit.write(AppExit::Success);
    }
}

fn report(samples: &[(f64, f64)], level: &str) -> String {
    let stats = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
        format!("mean {mean:.3} ms, median {:.3}, p95 {:.3}, max {:.3}", at(0.5), at(0.95), at(1.0))
    };
    format!(
        "frame report: {} frames during AI turns on {level}\n  client systems (Update, AI decisions excluded): {}\n  whole frame: {}",
        samples.len(),
        stats(samples.iter().map(|s| s.0).collect()),
        stats(samples.iter().map(|s| s.1).collect())
    )
}
