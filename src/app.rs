//! The application assembled from its parts: the battle and the AI (and, in a window, the
//! client) as one Bevy app. It sits above `battle`, `ai` and `client` so that none of them needs
//! to know the others: the battle does not depend on the AI, nor the client on the AI.

use crate::battle::{ActiveBattle, Battle, Controller};
use crate::client::menu::Content;
use crate::client::screens::{BeginBattle, CurrentSetup, Screen};
use crate::level::LoadedLevel;
use crate::level::compendium::Compendium;
use crate::rules::grid::Pos;
use bevy::prelude::*;
use std::path::PathBuf;

/// A battle app with no window: `MinimalPlugins`, the battle and the AI.
///
/// Its schedules run on the single-threaded executor: a headless battle makes one decision a
/// frame over a handful of small systems, and handing those to the thread pool every frame cost
/// ~30× the battle itself (measured in `benches/battle.rs`). Nor does it spawn tasks, so the
/// task pools are made but not ticked each frame (that tick was 5% of a `sim`, by callgrind).
pub fn headless_app(battle: ActiveBattle) -> App {
    use bevy::app::{Main, MainScheduleOrder, TaskPoolOptions};
    use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
    let mut app = App::new();
    TaskPoolOptions::default().create_default_pools();
    app.add_plugins(MinimalPlugins.build().disable::<TaskPoolPlugin>())
        .add_plugins((crate::battle::plugin, crate::ai::plugin))
        .insert_resource(battle);
    // The time plugin holds message buffers until a fixed-timestep pass has run, which the
    // headless frames (`battle::run_until_input`) never run: without this they kept every
    // message of a battle. Nothing here runs on the fixed timestep.
    app.world_mut().resource_mut::<bevy::ecs::message::MessageRegistry>().should_update =
        bevy::ecs::message::ShouldUpdateMessages::Always;
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
    /// The level to play at once; None = the main menu.
    pub level: Option<LoadedLevel>,
    pub seed: u64,
    /// The side the player commands; None = watch the AI play every side.
    pub player_side: Option<usize>,
    /// Watching: the side whose view is shown (None: everything, a GM's view).
    pub view_side: Option<usize>,
    /// For a picture: advance to this creature's turn, with this weapon ready.
    pub actor: Option<crate::battle::CreatureId>,
    pub ready: Option<String>,
    /// The overlays on at the start (None: the default set).
    pub overlays: Option<Vec<String>>,
    /// Seconds between two AI decisions, so that a person can follow them.
    pub ai_delay: f32,
    /// Save a screenshot once this many frames have been drawn, then quit.
    pub screenshot: Option<(PathBuf, u32)>,
    /// Act as if the cursor rested on this square (for screenshots of the overlays).
    pub hover: Option<Pos>,
    /// Print the client's cost per frame over this many frames of AI turns, then quit.
    pub frame_report: Option<u32>,
    /// Per side, an AI profile overriding the creatures' own (`--ai`).
    pub side_profiles: Option<Vec<Option<String>>>,
    /// Open the encounter editor on this level (None inside: a blank one) instead.
    pub editor: Option<crate::client::editor::OpenInEditor>,
    /// Open the rules sandbox, set up so, instead.
    pub sandbox: Option<crate::client::sandbox::Sandbox>,
    /// Open the replay viewer on this log instead.
    pub replay: Option<crate::client::replay::ReplayView>,
}

/// Open the window and play until it is closed.
pub fn run_window(opts: WindowOptions, compendium: &Compendium) -> Result<(), String> {
    let title = match &opts.level {
        Some(l) => format!("Meshal Tactics — {}", l.level.name),
        None => "Meshal Tactics".to_string(),
    };
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
    .add_plugins(bevy_egui::EguiPlugin::default())
    .add_plugins((crate::battle::plugin, crate::ai::plugin))
    .insert_resource(crate::ai::AiPace::new(opts.ai_delay, opts.screenshot.is_none()))
    .insert_resource(Content(compendium.clone()));
    // A turn-based screen sleeps until input: idle frames cost nothing. The client asks for
    // frames while the AI plays or a token glides. A screenshot counts frames, so it keeps them.
    if opts.screenshot.is_none() && opts.frame_report.is_none() {
        // Woken twice a second even when idle or unfocused, so that a level saved from a text
        // editor reloads while the GM looks at the other window (client::reload).
        use bevy::winit::{UpdateMode, WinitSettings};
        let wake = std::time::Duration::from_millis(500);
        app.insert_resource(WinitSettings {
            focused_mode: UpdateMode::reactive(wake),
            unfocused_mode: UpdateMode::reactive_low_power(wake),
        });
    }
    crate::client::install(
        &mut app,
        crate::client::ScreenOptions {
            hover: opts.hover,
            screenshot: opts.screenshot,
            overlays: opts.overlays,
            frame_report: opts.frame_report,
        },
    )?;
    app.add_systems(OnEnter(Screen::Battle), begin_battle.in_set(BeginBattle));
    if let Some(view) = opts.replay {
        app.insert_resource(view).insert_state(Screen::Replay);
    } else if let Some(sandbox) = opts.sandbox {
        app.insert_resource(sandbox).insert_state(Screen::Sandbox);
    } else if let Some(open) = opts.editor {
        app.insert_resource(open).insert_state(Screen::Editor);
    } else if let Some(level) = opts.level {
        let sides = level.level.sides.len();
        let side_profiles = opts.side_profiles.unwrap_or_else(|| vec![None; sides]);
        app.insert_resource(CurrentSetup {
            level,
            seed: opts.seed,
            player_side: opts.player_side,
            view_side: opts.view_side,
            actor: opts.actor,
            ready: opts.ready,
            side_profiles,
            resume: None,
        })
        .insert_state(Screen::Battle);
    } else {
        app.insert_resource(crate::client::menu::MenuChoice::with_seed(opts.seed));
    }
    app.run();
    Ok(())
}

/// On entering the battle screen: the battle the client chose, with the player's side human
/// and the AI (under the chosen profiles) on the others.
fn begin_battle(world: &mut World) {
    let Some(setup) = world.get_resource::<CurrentSetup>().cloned() else {
        world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
        return;
    };
    let content = &world.resource::<Content>().0;
    let built = match &setup.resume {
        Some(log) => Battle::from_log(&setup.level, content, log),
        // DICE-13, GEN-E1: Expense of Fate is offered to the player's own side.
        None => {
            let sides = &setup.level.level.sides;
            let player: Vec<String> =
                setup.player_side.and_then(|s| sides.get(s)).map(|s| s.name.clone()).into_iter().collect();
            Battle::with_players(&setup.level, content, setup.seed, &player)
        }
    };
    let staged = built.map_err(|e| e.to_string()).and_then(|mut b| match setup.actor {
        Some(actor) => b.skip_to_turn_of(actor).map(|()| b).map_err(|r| r.to_string()),
        None => Ok(b),
    });
    let battle = match staged {
        Ok(b) => b,
        Err(e) => {
            warn!("the battle could not begin: {}: {e}", setup.level.file);
            world.insert_resource(crate::client::Notice(format!("{}: {e}", setup.level.file)));
            world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
            return;
        }
    };
    // A saved battle is continued once: "Play again" and "Restart, same seed" begin it anew
    // from round 1 (they had gone back to where it was continued from).
    if setup.resume.is_some() {
        world.resource_mut::<CurrentSetup>().resume = None;
    }
    let mut controllers = vec![Controller::Ai; battle.sides().len()];
    if let Some(side) = setup.player_side
        && side < controllers.len()
    {
        controllers[side] = Controller::Human;
    }
    crate::battle::begin(world, ActiveBattle::new(battle, controllers));
    world.insert_resource(crate::ai::SideProfiles(setup.side_profiles.clone()));
    world.insert_resource(crate::ai::AiFallbacks::default());
    // Watching with no side named is a GM's view of everything; with one, that side's.
    world.insert_resource(crate::client::Viewer {
        side: setup.player_side.or(setup.view_side).unwrap_or(0),
        plays: setup.player_side.is_some(),
        omniscient: setup.player_side.is_none() && setup.view_side.is_none(),
    });
    world.insert_resource(crate::client::Notice::default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, load_level};

    /// Entering the battle screen with `setup`: the battle it begins.
    fn enter(world: &mut World) -> Battle {
        begin_battle(world);
        world.resource::<ActiveBattle>().battle.clone()
    }

    // A continued battle is rebuilt from its log once; entering the battle screen again (the
    // result screen's "Play again, same seed", the pause menu's "Restart") begins it anew
    // from round 1 with the same seed.
    #[test]
    fn a_continued_battle_restarts_from_its_first_round() {
        let level = load_level(std::path::Path::new("levels/duel.level.ron"), builtin_compendium()).unwrap();
        let mut played = Battle::new(&level, builtin_compendium(), 5).unwrap();
        while played.round() < 3 && played.outcome().is_none() {
            let (c, w) = played.awaiting().unwrap();
            let cmd = crate::ai::decide(&played, c, w);
            played.submit(c, cmd).unwrap();
        }
        assert_eq!(played.round(), 3, "the duel lasts into its third round");
        let mut world = World::new();
        world.insert_resource(Content(builtin_compendium().clone()));
        world.init_resource::<NextState<Screen>>();
        world.insert_resource(CurrentSetup {
            seed: 5,
            player_side: Some(0),
            view_side: None,
            actor: None,
            ready: None,
            side_profiles: vec![None; level.level.sides.len()],
            resume: Some(std::sync::Arc::new(played.log().to_vec())),
            level: level.clone(),
        });
        let continued = enter(&mut world);
        assert_eq!((continued.round(), continued.log().len()), (3, played.log().len()), "continued where it was");
        assert!(world.resource::<CurrentSetup>().resume.is_none(), "the save is used once");
        let again = enter(&mut world);
        assert_eq!(again.round(), 1, "played again from the start");
        assert_eq!(again.seed(), 5);
        let fresh =
            Battle::with_players(&level, builtin_compendium(), 5, &[level.level.sides[0].name.clone()]).unwrap();
        assert_eq!(again.log(), fresh.log(), "the same battle as one begun with that seed");
    }
}
