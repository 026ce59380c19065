//! The replay viewer (`meshal-tactics replay LOG --view`): a saved battle stepped through event
//! by event or turn by turn, forward and back, jumped to a round, played at a chosen speed, seen
//! from any side's view (its fog) or all of it.
//!
//! The log is re-executed by the engine once (`Battle::states_of_log`, verified entry by entry as
//! `replay` verifies it), keeping the battle after each command; the board and the panel show
//! the state after the command the current entry belongs to, so what is shown is the battle's
//! own state then, not a redrawing of the events.

use super::map_view::{BAR, PANEL, fit_camera, outline, root_ui, spawn_picture};
use super::screens::Screen;
use super::{TILE, Viewer, square_centre};
use crate::battle::narrate::narrate;
use crate::battle::{Battle, Event, LogEntry, LogStates};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// A replay being watched.
#[derive(Resource)]
pub struct ReplayView {
    states: LogStates,
    pub log: Vec<LogEntry>,
    /// The entry shown (0-based); the board shows the battle once it has been logged.
    cursor: usize,
    /// The battle after the current entry's command: (that command's log length, the battle).
    current: (usize, Battle),
    pub playing: bool,
    /// Entries a second while playing.
    pub speed: f32,
    /// Whose view: None = everything (the GM's).
    pub side: Option<usize>,
    pub jump_round: u32,
    clock: f32,
}

impl ReplayView {
    pub fn new(states: LogStates) -> ReplayView {
        let log = states.log().to_vec();
        let first = states.boundary_of(0);
        let current = (first, states.battle_at(first));
        ReplayView {
            states,
            log,
            cursor: 0,
            current,
            playing: false,
            speed: 8.0,
            side: None,
            jump_round: 1,
            clock: 0.0,
        }
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Show entry `k` (clamped to the log): the battle is rebuilt when it belongs to another
    /// command.
    pub fn set_cursor(&mut self, k: usize) {
        self.cursor = k.min(self.log.len().saturating_sub(1));
        let boundary = self.states.boundary_of(self.cursor);
        if boundary != self.current.0 {
            self.current = (boundary, self.states.battle_at(boundary));
        }
    }

    /// The battle as it stood once the command of entry `cursor` had been carried out.
    pub fn battle(&self) -> &Battle {
        &self.current.1
    }

    pub fn viewer(&self) -> Viewer {
        Viewer { side: self.side.unwrap_or(0), plays: false, omniscient: self.side.is_none() }
    }

    /// Whether the current view shows entry `i` (a side's view: only what it was told).
    fn shows(&self, i: usize) -> bool {
        self.log.get(i).is_some_and(|e| self.viewer().shows(self.battle(), e))
    }

    /// One shown entry forward (or back).
    pub fn step(&mut self, forward: bool) {
        let mut i = self.cursor;
        loop {
            match forward {
                true if i + 1 < self.log.len() => i += 1,
                false if i > 0 => i -= 1,
                _ => break,
            }
            if self.shows(i) {
                break;
            }
        }
        self.set_cursor(i);
    }

    /// To the next (or previous) turn's start.
    pub fn step_turn(&mut self, forward: bool) {
        let is_turn = |e: &LogEntry| matches!(e.event, Event::TurnStarted { .. });
        let found = if forward {
            (self.cursor + 1..self.log.len()).find(|&i| is_turn(&self.log[i]) && self.shows(i))
        } else {
            (0..self.cursor).rev().find(|&i| is_turn(&self.log[i]) && self.shows(i))
        };
        self.set_cursor(found.unwrap_or(if forward { self.log.len() - 1 } else { 0 }));
    }

    /// To the start of round `r` (or the end when the battle never reached it).
    pub fn jump_to_round(&mut self, r: u32) {
        let at = self.log.iter().position(|e| matches!(e.event, Event::RoundStarted { round } if round >= r));
        self.set_cursor(at.unwrap_or(self.log.len().saturating_sub(1)));
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Replay), open_replay)
        .add_systems(OnExit(Screen::Replay), super::board::reset_camera)
        .add_systems(EguiPrimaryContextPass, panel.run_if(in_state(Screen::Replay)))
        .add_systems(
            Update,
            (keys, play, draw).chain().run_if(in_state(Screen::Replay).and_then(resource_exists::<ReplayView>)),
        );
}

fn open_replay(
    mut commands: Commands,
    view: Option<Res<ReplayView>>,
    mut images: ResMut<Assets<Image>>,
    window: Query<&Window>,
    mut camera: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let Some(view) = view else {
        commands.set_state(Screen::Menu);
        return;
    };
    let map = view.battle().map();
    let (w, h) = (map.width(), map.height());
    spawn_picture(&mut commands, &mut images, super::art::grid_picture(map), Screen::Replay);
    fit_camera(&mut commands, &mut camera, w, h, window.iter().next());
}

fn keys(mut view: ResMut<ReplayView>, keys: Res<ButtonInput<KeyCode>>, mut commands: Commands) {
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if keys.just_pressed(KeyCode::ArrowRight) {
        if shift { view.step_turn(true) } else { view.step(true) }
    }
    if keys.just_pressed(KeyCode::ArrowLeft) {
        if shift { view.step_turn(false) } else { view.step(false) }
    }
    if keys.just_pressed(KeyCode::Space) {
        view.playing = !view.playing;
    }
    if keys.just_pressed(KeyCode::Home) {
        view.set_cursor(0);
    }
    if keys.just_pressed(KeyCode::End) {
        view.set_cursor(usize::MAX);
    }
    if keys.just_pressed(KeyCode::Escape) {
        commands.set_state(Screen::Menu);
    }
}

fn play(mut view: ResMut<ReplayView>, time: Res<Time<Real>>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    if !view.playing {
        return;
    }
    view.clock += time.delta_secs() * view.speed;
    while view.clock >= 1.0 {
        view.clock -= 1.0;
        let before = view.cursor;
        view.step(true);
        if view.cursor == before {
            view.playing = false;
            break;
        }
    }
    redraw.write(bevy::window::RequestRedraw);
}

/// The tokens as the battle had them, each shown only if the chosen side saw it then.
fn draw(view: Res<ReplayView>, mut gizmos: Gizmos) {
    let b = view.battle();
    let viewer = view.viewer();
    for f in b.creatures().iter().filter(|f| f.is_active() && viewer.sees(b, f.id)) {
        let s = f.footprint().side as f32;
        let centre = square_centre(f.origin) + Vec2::splat((s - 1.0) * TILE / 2.0);
        let colour = super::board::side_colour(f.side, &Viewer { side: 0, plays: true, omniscient: true });
        let colour = if f.can_act() { colour } else { Color::srgb(0.45, 0.45, 0.45) };
        gizmos.circle_2d(centre, TILE * 0.42 * s, colour);
        gizmos.circle_2d(centre, TILE * 0.36 * s, colour);
        let (dx, dy) = f.facing.delta();
        gizmos.line_2d(
            centre,
            centre + Vec2::new(dx as f32, dy as f32).normalize_or_zero() * TILE * 0.5 * s,
            Color::WHITE,
        );
        if !f.can_act() {
            let d = TILE * 0.35 * s;
            gizmos.line_2d(centre - Vec2::splat(d), centre + Vec2::splat(d), Color::srgb(0.9, 0.1, 0.1));
            gizmos.line_2d(centre + Vec2::new(-d, d), centre + Vec2::new(d, -d), Color::srgb(0.9, 0.1, 0.1));
        }
    }
    if let Some((c, _)) = b.awaiting().filter(|(c, _)| viewer.sees(b, *c)) {
        let f = b.fighter(c);
        let s = f.footprint().side;
        outline(&mut gizmos, f.origin, f.origin.offset(s - 1, s - 1), Color::srgb(1.0, 0.85, 0.3));
    }
}

fn panel(mut contexts: EguiContexts, view: Option<ResMut<ReplayView>>, mut commands: Commands) -> Result {
    let Some(mut view) = view else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui(ctx, "replay");
    let v = &mut *view;
    egui::Panel::top("replay-bar").exact_size(BAR).show(&mut root, |ui| {
        ui.horizontal_centered(|ui| {
            if ui.button("|<").on_hover_text("Home").clicked() {
                v.set_cursor(0);
            }
            if ui.button("<< turn").on_hover_text("Shift+Left").clicked() {
                v.step_turn(false);
            }
            if ui.button("< event").on_hover_text("Left").clicked() {
                v.step(false);
            }
            let label = if v.playing { "Pause (Space)" } else { "Play (Space)" };
            if ui.button(label).clicked() {
                v.playing = !v.playing;
            }
            if ui.button("event >").on_hover_text("Right").clicked() {
                v.step(true);
            }
            if ui.button("turn >>").on_hover_text("Shift+Right").clicked() {
                v.step_turn(true);
            }
            if ui.button(">|").on_hover_text("End").clicked() {
                v.set_cursor(usize::MAX);
            }
            ui.separator();
            ui.label("speed");
            ui.add(egui::DragValue::new(&mut v.speed).range(0.5..=200.0).suffix(" events/s"));
            ui.separator();
            ui.label("round");
            ui.add(egui::DragValue::new(&mut v.jump_round).range(1..=1000));
            if ui.button("Go").clicked() {
                let r = v.jump_round;
                v.jump_to_round(r);
            }
            ui.separator();
            if ui.button("Menu (Esc)").clicked() {
                commands.set_state(Screen::Menu);
            }
        });
    });
    egui::Panel::right("replay-panel").exact_size(PANEL).resizable(false).show(&mut root, |ui| {
        ui.set_max_width(PANEL - 20.0);
        let sides: Vec<String> = v.battle().sides().iter().map(|s| s.name.clone()).collect();
        ui.horizontal_wrapped(|ui| {
            ui.label("View:");
            ui.selectable_value(&mut v.side, None, "everything");
            for (k, name) in sides.iter().enumerate() {
                ui.selectable_value(&mut v.side, Some(k), name);
            }
        });
        if v.side.is_some() && !v.shows(v.cursor) {
            v.step(true);
        }
        let b = v.battle();
        ui.label(format!("Event {} of {} · round {}", v.cursor + 1, v.log.len(), b.round()));
        if let Some((c, _)) = b.awaiting() {
            ui.label(format!("{} to decide ({} AP)", b.fighter(c).name, b.fighter(c).ap));
        } else if let Some(o) = b.outcome() {
            ui.label(format!("{o:?}"));
        }
        ui.separator();
        let viewer = v.viewer();
        egui::Grid::new("replay-creatures").num_columns(3).striped(true).show(ui, |ui| {
            for f in b.creatures().iter().filter(|f| viewer.sees(b, f.id)) {
                ui.label(&f.name);
                ui.label(format!("AP {}", f.ap));
                let pools: Vec<String> =
                    crate::rules::creature::Attribute::ALL.iter().map(|a| format!("{}", f.attrs.dice(*a))).collect();
                ui.label(if f.can_act() { pools.join("/") } else { "down".into() });
                ui.end_row();
            }
        });
        ui.separator();
        egui::ScrollArea::vertical().stick_to_bottom(true).show(ui, |ui| {
            let from = v.cursor.saturating_sub(40);
            for i in from..=v.cursor.min(v.log.len().saturating_sub(1)) {
                if !v.shows(i) {
                    continue;
                }
                // Bookkeeping entries (a command accepted, AP spent) are listed only when current.
                let Some(text) =
                    narrate(b, &v.log[i].event).or_else(|| (i == v.cursor).then(|| format!("{:?}", v.log[i].event)))
                else {
                    continue;
                };
                // The panel's font has no arrow.
                let text: String = text.replace('→', "->").chars().take(160).collect();
                if i == v.cursor {
                    ui.colored_label(egui::Color32::from_rgb(255, 217, 115), text);
                } else {
                    ui.label(text);
                }
            }
        });
    });
    Ok(())
}

/// A JSON-lines log from disk, re-executed into a viewer; or why it cannot be watched (the file,
/// the line, the level, or where the replay diverges).
pub fn load_replay(
    path: &std::path::Path,
    compendium: &crate::level::compendium::Compendium,
) -> Result<ReplayView, String> {
    let shown = path.display();
    let text = crate::files::read_text(path, crate::files::FileKind::Log).map_err(|e| e.to_string())?;
    let log = crate::battle::parse_log(&shown.to_string(), &text)?;
    let Some(Event::BattleStarted { level, .. }) = log.first().map(|e| &e.event) else {
        return Err(format!("{shown}: the log does not start with BattleStarted"));
    };
    let level = crate::level::load_level(std::path::Path::new(level), compendium)
        .map_err(|e| format!("{shown}: the log's level: {e}"))?;
    let states = Battle::log_states(&level, compendium, &log).map_err(|e| format!("{shown}: {e}"))?;
    Ok(ReplayView::new(states))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, parse_level};

    // The viewer's state at a step is the battle's state then: every command boundary of a
    // played battle, replayed into the viewer, equals the battle that was saved at that moment.
    #[test]
    fn the_viewer_state_at_each_step_is_the_battles_state_then() {
        let c = builtin_compendium();
        let level =
            parse_level("levels/skirmish.level.ron", include_str!("../../levels/skirmish.level.ron"), c).unwrap();
        let mut b = Battle::new(&level, c, 5).unwrap();
        // Play it, keeping the battle after every decision.
        let mut truth: Vec<(usize, Battle)> = vec![(b.log().len(), b.clone())];
        for _ in 0..100_000 {
            let Some((who, window)) = b.awaiting() else { break };
            let p = crate::ai::profile_for(&b, who, None);
            let command = crate::ai::decision(&b, who, window, &p, crate::ai::Reasons::Unread).command;
            let _ = b.submit(who, command);
            truth.push((b.log().len(), b.clone()));
        }
        assert!(b.outcome().is_some());
        let mut view = ReplayView::new(Battle::log_states(&level, c, b.log()).unwrap());
        assert!(truth.len() > 2 * crate::battle::CHECKPOINT_EVERY, "long enough to cross checkpoints");
        // Forward, then backward: each command's last entry shows the battle as it was then.
        let order: Vec<&(usize, Battle)> = truth.iter().skip(1).chain(truth.iter().skip(1).rev()).collect();
        for (len, want) in order {
            view.set_cursor(len - 1);
            let got = view.battle();
            assert_eq!(format!("{:?}", got.creatures()), format!("{:?}", want.creatures()), "at entry {}", len - 1);
            assert_eq!((got.round(), got.awaiting()), (want.round(), want.awaiting()));
        }
        // Stepping: by event, by turn, to a round, and back.
        view.set_cursor(0);
        view.step_turn(true);
        assert!(matches!(view.log[view.cursor()].event, Event::TurnStarted { .. }));
        let first_turn = view.cursor();
        view.step(true);
        assert_eq!(view.cursor(), first_turn + 1);
        view.step(false);
        assert_eq!(view.cursor(), first_turn);
        view.jump_to_round(2);
        assert!(matches!(view.log[view.cursor()].event, Event::RoundStarted { round: 2 }));
        assert_eq!(view.battle().round(), 2);
        // A side's view skips what that side was not told.
        view.side = Some(1);
        view.set_cursor(0);
        for _ in 0..50 {
            view.step(true);
            assert!(
                view.log[view.cursor()].visible_to.contains(&"Pack".to_string()) || view.cursor() == view.log.len() - 1
            );
        }
    }

    #[test]
    fn a_broken_or_foreign_log_is_refused_with_its_line() {
        let dir = std::env::temp_dir().join(format!("meshal-replay-view-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("bad.log.jsonl");
        std::fs::write(&p, "{\"seq\":0}\nnot json\n").unwrap();
        let err = load_replay(&p, builtin_compendium()).err().unwrap();
        assert!(err.contains("bad.log.jsonl:1:"), "{err}");
        assert!(load_replay(std::path::Path::new("/dev/zero"), builtin_compendium()).is_err());
    }
}
