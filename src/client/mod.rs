//! The game window: the battle on a tilemap, played with mouse and keyboard against the AI.
//!
//! The screen shows what the player's side perceives (PERC): hostile creatures it does not
//! perceive are not drawn, only a marker where they were last seen. Every aid on screen
//! (reachable squares and path cost, line of sight and cover, facing sectors, area templates,
//! attack odds) is computed by the same rules core the battle uses, so the screen cannot
//! disagree with the engine. Commands go through the battle plugin like the AI's: a refused
//! command shows its reason and the rule it breaks, and changes nothing.

mod board;
mod hud;
mod input;
mod overlay;

use crate::battle::{ActiveBattle, Battle, Controller, Fighter};
use crate::level::{LoadedLevel, builtin_compendium};
use crate::rules::grid::Pos;
use bevy::prelude::*;
use std::path::PathBuf;

pub struct ClientOptions {
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
}

/// The side whose view the screen shows, and whether the player commands it.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Viewer {
    pub side: usize,
    pub plays: bool,
}

/// Pixel size of a square at zoom 1.
pub const TILE: f32 = 32.0;

/// Width of the side panel and height of the log strip, in pixels.
pub const PANEL_WIDTH: f32 = 340.0;
pub const LOG_HEIGHT: f32 = 170.0;

pub fn square_centre(p: Pos) -> Vec2 {
    Vec2::new(p.x as f32 * TILE, p.y as f32 * TILE)
}

pub fn square_at(world: Vec2) -> Pos {
    Pos::new((world.x / TILE + 0.5).floor() as i32, (world.y / TILE + 0.5).floor() as i32)
}

/// The creature on `at` that `side` may be shown: its own, or one it perceives (PERC).
pub fn shown_creature_at(b: &Battle, side: usize, at: Pos) -> Option<&Fighter> {
    b.creatures.iter().find(|c| c.is_active() && c.footprint().contains(at) && b.side_perceives(side, c.id))
}

/// A short status line for the player: the last refused command, and the like.
#[derive(Resource, Default, Clone, Debug)]
pub struct Notice(pub String);

pub fn plugin(app: &mut App) {
    app.init_resource::<Notice>().add_plugins((board::plugin, input::plugin, overlay::plugin, hud::plugin));
}

/// Open the window and play until it is closed.
pub fn run(opts: ClientOptions) -> Result<(), String> {
    let battle = Battle::new(&opts.level, builtin_compendium(), opts.seed)?;
    let mut controllers = vec![Controller::Ai; battle.sides.len()];
    if let Some(side) = opts.player_side {
        controllers[side] = Controller::Human;
    }
    let viewer = Viewer { side: opts.player_side.unwrap_or(0), plays: opts.player_side.is_some() };
    let title = format!("Meshal Tactics — {}", battle.level_name);
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
    .add_plugins((crate::battle::plugin, crate::ai::plugin, plugin))
    .insert_resource(ActiveBattle { battle, controllers })
    .insert_resource(viewer)
    .insert_resource(crate::ai::AiPace(Timer::from_seconds(opts.ai_delay.max(0.0), TimerMode::Repeating)))
    .insert_resource(input::Hover { square: opts.hover, pinned: opts.hover.is_some() });
    if let Some((path, frames)) = opts.screenshot {
        // Quitting waits for the file to appear, so an old one must not count.
        if path.exists() {
            std::fs::remove_file(&path).map_err(|e| format!("cannot replace {}: {e}", path.display()))?;
        }
        app.insert_resource(input::ScreenshotPlan { path, frames, taken: false });
    }
    app.run();
    Ok(())
}
