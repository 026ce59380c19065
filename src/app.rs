//! The application assembled from its parts: the battle and the AI (and, in a window, the
//! client) as one Bevy app. It sits above `battle`, `ai` and `client` so that none of them needs
//! to know the others: the battle does not depend on the AI, nor the client on the AI.

use crate::battle::{ActiveBattle, Battle, Controller};
use crate::level::LoadedLevel;
use crate::level::compendium::Compendium;
use crate::rules::grid::Pos;
use bevy::prelude::*;
use std::path::PathBuf;

/// A battle app with no window: `MinimalPlugins`, the battle and the AI.
///
/// Its schedules run on the single-threaded executor: a headless battle makes one decision a
/// frame over a handful of small systems, and handing those to the thread pool every frame cost
/// ~30× the battle itself (measured in `benches/battle.rs`).
pub fn headless_app(battle: ActiveBattle) -> App {
    use bevy::app::{Main, MainScheduleOrder};
    use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins((crate::battle::plugin, crate::ai::plugin)).insert_resource(battle);
    let order = app.world().resource::<MainScheduleOrder>();
    let labels: Vec<_> = order.labels.iter().chain(&order.startup_labels).copied().chain([Main.intern()]).collect();
    for label in labels {
        app.edit_schedule(label, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
    }
    app
}

/// What the window opens on.
pub struct WindowOptions {
    pub level: LoadedLevel,
    pub seed: u64,
    /// The side the player commands; None = watch the AI play every side (from side 0's view).
    pub player_side: Option<usize>,
    /// Seconds between two AI decisions, so that a person can follow them.
    pub ai_delay: f32,
    /// Save a screenshot once this many frames have been drawn, then quit.
    pub screenshot: Option<(PathBuf, u32)>,
    /// Act as if the cursor rested on this square (for screenshots of the overlays).
    pub hover: Option<Pos>,
    /// Per side, an AI profile overriding the creatures' own (`--ai`).
    pub side_profiles: Option<Vec<Option<String>>>,
}

/// Open the window and play until it is closed.
pub fn run_window(opts: WindowOptions, compendium: &Compendium) -> Result<(), String> {
    let battle = Battle::new(&opts.level, compendium, opts.seed)?;
    let mut controllers = vec![Controller::Ai; battle.sides().len()];
    if let Some(side) = opts.player_side {
        controllers[side] = Controller::Human;
    }
    let title = format!("Meshal Tactics — {}", battle.level_name());
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window { title, resolution: (1280, 720).into(), ..default() }),
                ..default()
            })
            .set(ImagePlugin::default_nearest()),
    )
    .add_plugins(bevy_ecs_tilemap::TilemapPlugin)
    .add_plugins((crate::battle::plugin, crate::ai::plugin))
    .insert_resource(ActiveBattle { battle, controllers })
    .insert_resource(crate::ai::AiPace(Timer::from_seconds(opts.ai_delay.max(0.0), TimerMode::Repeating)));
    if let Some(p) = opts.side_profiles {
        app.insert_resource(crate::ai::SideProfiles(p));
    }
    crate::client::install(
        &mut app,
        crate::client::ScreenOptions { player_side: opts.player_side, hover: opts.hover, screenshot: opts.screenshot },
    )?;
    app.run();
    Ok(())
}
