//! Pictures of the window: F12 saves one named after the screen (and the battle's seed and
//! round), and `--screenshot PATH --frames N` saves one after N frames, then quits.

use super::Notice;
use super::input::PlayerAction;
use super::screens::Screen;
use crate::battle::ActiveBattle;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use leafwing_input_manager::prelude::*;
use std::path::PathBuf;

/// Save a screenshot after `frames` frames, then quit.
#[derive(Resource, Clone, Debug)]
pub struct ScreenshotPlan {
    pub path: PathBuf,
    pub frames: u32,
    pub taken: bool,
}

pub(super) fn screenshot(
    mut commands: Commands,
    plan: Option<ResMut<ScreenshotPlan>>,
    mut frames: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(mut plan) = plan else { return };
    *frames += 1;
    if !plan.taken && *frames >= plan.frames {
        plan.taken = true;
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(plan.path.clone()));
    }
    // The capture is read back and written a few frames later.
    if plan.taken && plan.path.exists() {
        exit.write(AppExit::Success);
    } else if *frames > plan.frames + 600 {
        error!("the screenshot was never written to {}", plan.path.display());
        exit.write(AppExit::from_code(3));
    }
}

pub(super) fn snapshot(
    mut commands: Commands,
    actions: Query<&ActionState<PlayerAction>>,
    battle: Option<Res<ActiveBattle>>,
    screen: Res<State<Screen>>,
    mut notice: ResMut<Notice>,
    mut saved: Local<Option<String>>,
) {
    // Told a frame later, so that the message is not in the picture.
    if let Some(told) = saved.take() {
        notice.0 = told;
    }
    let Ok(a) = actions.single() else { return };
    if !a.just_pressed(&PlayerAction::Snapshot) {
        return;
    }
    let stem = match (screen.get(), battle) {
        (Screen::Battle, Some(b)) => format!("meshal-seed{}-round{}", b.battle.seed(), b.battle.round()),
        (other, _) => format!("meshal-{}", format!("{other:?}").to_lowercase()),
    };
    let path = (0..).map(|k| PathBuf::from(format!("{stem}-{k}.png"))).find(|p| !p.exists()).unwrap_or_default();
    *saved = Some(format!("screenshot saved to {}", path.display()));
    commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
}
