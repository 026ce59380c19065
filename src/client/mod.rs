//! The game window: the battle on a tilemap, played with mouse and keyboard against the AI.
//!
//! The screen shows what the player's side perceives (PERC): hostile creatures it does not
//! perceive are not drawn, only a marker where they were last seen. Every rule on screen
//! (reachable squares and path cost, what the side sees, attack odds and defenses, area
//! templates) is asked of the battle's query API, so the screen cannot disagree with the
//! engine; the geometry aids (line of sight and cover, facing sectors) come from the rules core. Commands go through the battle plugin like the AI's: a refused
//! command shows its reason and the rule it breaks, and changes nothing.

mod actions;
mod art;
mod banner;
mod bends;
mod bindings;
mod board;
mod camera_keys;
mod card;
mod click;
mod clock_badge;
mod cursor;
pub mod editor;
mod fate;
mod flow;
mod frame_cost;
mod free_up;
mod gauges;
#[cfg(test)]
mod guard_tests;
mod hud;
mod input;
pub(crate) mod items;
mod labels;
mod log;
mod map_view;
pub mod menu;
mod odds_text;
mod overlay;
mod panel_room;
mod pictures;
#[cfg(test)]
mod play_tests;
mod popups;
mod reload;
pub mod replay;
mod result;
pub mod sandbox;
mod save;
pub mod screens;
mod stage;
mod tooltip;

use crate::battle::{Battle, Fighter};
use crate::rules::grid::Pos;
use bevy::prelude::*;
use std::path::PathBuf;

/// The side whose view the screen shows, and whether the player commands it. Watching with
/// no side named, the view is a GM's: every creature and the whole record (`omniscient`).
#[derive(Resource, Clone, Copy, Debug)]
pub struct Viewer {
    pub side: usize,
    pub plays: bool,
    pub omniscient: bool,
}

impl Viewer {
    /// May this creature be drawn: the side's own or one it perceives (PERC), or any for a GM.
    pub fn sees(&self, b: &Battle, creature: crate::battle::CreatureId) -> bool {
        self.omniscient || b.shown_to(self.side, creature)
    }

    /// Is this log entry part of the view: the side's own version of events, or for a GM the
    /// whole record (no side's partial copies).
    pub fn shows(&self, b: &Battle, entry: &crate::battle::LogEntry) -> bool {
        if self.omniscient {
            !entry.partial
        } else {
            b.sides().get(self.side).is_some_and(|s| entry.visible_to.contains(&s.name))
        }
    }
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

/// The creature on `at` that the viewer may be shown: its own, or one it perceives (PERC).
pub fn shown_creature_at<'a>(b: &'a Battle, viewer: &Viewer, at: Pos) -> Option<&'a Fighter> {
    if viewer.omniscient {
        b.creatures().iter().find(|c| c.is_active() && c.footprint().contains(at))
    } else {
        b.shown_creature_at(viewer.side, at)
    }
}

/// A short status line for the player: the last refused command, and the like.
#[derive(Resource, Default, Clone, Debug)]
pub struct Notice(pub String);

pub fn plugin(app: &mut App) {
    app.init_resource::<Notice>()
        .insert_resource(Viewer { side: 0, plays: false, omniscient: false })
        .add_plugins(screens::plugin)
        .add_plugins((
            board::plugin,
            input::plugin,
            overlay::plugin,
            hud::plugin,
            banner::plugin,
            log::plugin,
            items::plugin,
            fate::plugin,
        ))
        .add_plugins((menu::plugin, flow::plugin, result::plugin, popups::plugin, actions::plugin, save::plugin))
        .add_plugins((
            stage::plugin,
            gauges::plugin,
            tooltip::plugin,
            editor::plugin,
            reload::plugin,
            sandbox::plugin,
            replay::plugin,
            clock_badge::plugin,
            free_up::plugin,
            panel_room::plugin,
        ));
}

/// How the screen is set up.
pub struct ScreenOptions {
    /// Act as if the cursor rested on this square (for screenshots of the overlays).
    pub hover: Option<Pos>,
    /// Save a screenshot once this many frames have been drawn, then quit.
    pub screenshot: Option<(PathBuf, u32)>,
    /// The overlays on at the start, by name (`--overlay`); None = the default set.
    pub overlays: Option<Vec<String>>,
    /// Measure the client's cost over this many frames of AI turns, print it and quit.
    pub frame_report: Option<u32>,
}

pub use overlay::{Overlays, overlays_from};

/// Add the client to an app that already has the battle (and whoever plays the other sides).
pub fn install(app: &mut App, opts: ScreenOptions) -> Result<(), String> {
    app.add_plugins(plugin).insert_resource(input::Hover {
        square: opts.hover,
        pinned: opts.hover.is_some(),
        keyboard: false,
    });
    if let Some(frames) = opts.frame_report {
        frame_cost::install(app, frames);
    }
    if let Some(names) = &opts.overlays {
        app.insert_resource(overlays_from(names)?);
    }
    if let Some((path, frames)) = opts.screenshot {
        // Quitting waits for the file to appear, so an old one must not count.
        if path.exists() {
            std::fs::remove_file(&path).map_err(|e| format!("cannot replace {}: {e}", path.display()))?;
        }
        app.insert_resource(input::ScreenshotPlan { path, frames, taken: false });
    }
    Ok(())
}
