//! The battle's events played one after another, so that a player can follow every action:
//! a move glides square by square along its path, a melee strike lunges at its target, a shot
//! flies to it, the dice faces and the outcome float up where they happened, a hit flashes the
//! token and a creature knocked out falls. Only the events the viewer's side was told are
//! played (their `visible_to`), never the true state; a GM watching sees the whole record.
//!
//! While the stage is playing, the AI waits (`AiPace::held`); after it, the AI waits the pace
//! (`-`/`=` slower/faster), so an enemy turn reads as a sequence. Holding T hurries: the beats
//! are skipped and the AI decides every frame.

use super::board::{Glide, token_centre};
use super::input::PlayerAction;
use super::popups::spawn_popup;
use super::screens::{OnBattleScreen, Screen};
use super::{Notice, TILE, Viewer};
use crate::ai::AiPace;
use crate::battle::{ActiveBattle, BattleEvent, BattleSystems, CreatureId, CreatureToken, Event, OnGrid};
use crate::rules::grid::Pos;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use std::collections::VecDeque;

/// Seconds between two AI decisions a player can choose from, slowest last.
pub const PACES: [f32; 7] = [0.0, 0.1, 0.2, 0.35, 0.6, 1.0, 1.6];

/// Seconds a strike (lunge or shot) takes, and the pause after an outcome is shown.
const STRIKE_SECONDS: f32 = 0.3;
const OUTCOME_SECONDS: f32 = 0.25;
const FALL_SECONDS: f32 = 0.35;

pub fn plugin(app: &mut App) {
    app.init_resource::<Stage>().add_systems(OnEnter(Screen::Battle), clear_stage.in_set(OnBattleScreen)).add_systems(
        Update,
        (queue_beats.after(BattleSystems::Publish), choose_pace, play_beats, fly_shots, fade_flashes)
            .chain()
            .in_set(OnBattleScreen),
    );
}

/// One step of the show.
#[derive(Clone, Debug, PartialEq)]
pub enum Beat {
    /// The token walks these squares (as the viewer's side saw the move).
    Walk { creature: CreatureId, path: Vec<Pos> },
    /// An attack on a target: a lunge when adjacent, else a shot flying to it.
    Strike { attacker: CreatureId, target: CreatureId },
    /// Words or numbers floating up from a creature; `flash` lights the token (a hit).
    Show { creature: CreatureId, text: String, colour: [f32; 3], flash: bool },
    /// The creature is knocked out.
    Fall { creature: CreatureId },
}

/// The beats still to play, and the one playing with its age in seconds.
#[derive(Resource, Default, Debug)]
pub struct Stage {
    pub beats: VecDeque<Beat>,
    pub playing: Option<(Beat, f32)>,
}

impl Stage {
    pub fn idle(&self) -> bool {
        self.beats.is_empty() && self.playing.is_none()
    }

    /// The beat playing now shows what happened to this creature (its bars and look may change).
    pub fn shows_creature(&self, id: CreatureId) -> bool {
        matches!(&self.playing, Some((Beat::Show { creature, .. } | Beat::Fall { creature }, _)) if *creature == id)
    }
}

/// A token lit by a hit for a moment: seconds left.
#[derive(Component)]
pub struct Flash(pub f32);

/// A shot on its way: from, to, age.
#[derive(Component)]
struct Shot(Vec3, Vec3, f32);

fn clear_stage(mut stage: ResMut<Stage>) {
    *stage = Stage::default();
}

/// The beats that show one event to the viewer's side (none for bookkeeping events).
pub fn beats_for(event: &Event) -> Vec<Beat> {
    let grey = [0.8, 0.8, 0.8];
    match event {
        Event::Moved { creature, path, .. } if path.len() > 1 => {
            vec![Beat::Walk { creature: *creature, path: path.clone() }]
        }
        Event::ForcedMoved { creature, path, .. } if path.len() > 1 => {
            vec![Beat::Walk { creature: *creature, path: path.clone() }]
        }
        Event::Fell { creature, depth, .. } => vec![Beat::Show {
            creature: *creature,
            text: format!("falls {depth} steps"),
            colour: [1.0, 0.6, 0.3],
            flash: true,
        }],
        Event::HazardStruck { creature, kind, .. } => {
            vec![Beat::Show { creature: *creature, text: kind.clone(), colour: [1.0, 0.55, 0.2], flash: true }]
        }
        Event::AttackDeclared { attacker, targets, .. } => {
            targets.iter().map(|&target| Beat::Strike { attacker: *attacker, target }).collect()
        }
        Event::CounterAttackDeclared { creature, against, .. } => {
            vec![Beat::Strike { attacker: *creature, target: *against }]
        }
        // ATK-1, ATK-2: the dice faces as rolled, attack and defense alike.
        Event::Rolled { creature, purpose, faces, points } if !purpose.starts_with("initiative") => {
            let faces: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
            let what = purpose.split(',').next().unwrap_or(purpose);
            vec![Beat::Show {
                creature: *creature,
                text: format!("{what} [{}] = {points}", faces.join(" ")),
                colour: [0.95, 0.9, 0.6],
                flash: false,
            }]
        }
        Event::SegmentResolved { target, hit, damage, solid_defense, .. } => {
            let (text, colour, flash) = match (hit, damage) {
                (true, d) if *d > 0 => (format!("-{d}"), [1.0, 0.3, 0.25], true),
                _ if *solid_defense => ("solid defense".to_string(), [0.75, 0.8, 0.9], false),
                (true, _) => ("no damage".to_string(), grey, false),
                _ => ("miss".to_string(), grey, false),
            };
            vec![Beat::Show { creature: *target, text, colour, flash }]
        }
        Event::Unconscious { creature } => vec![
            Beat::Show { creature: *creature, text: "DOWN".into(), colour: [1.0, 0.8, 0.2], flash: false },
            Beat::Fall { creature: *creature },
        ],
        Event::Died { creature } => {
            vec![Beat::Show { creature: *creature, text: "DEAD".into(), colour: [1.0, 0.5, 0.2], flash: false }]
        }
        Event::Fled { creature } => {
            vec![Beat::Show { creature: *creature, text: "fled".into(), colour: grey, flash: false }]
        }
        _ => vec![],
    }
}

fn queue_beats(
    mut events: MessageReader<BattleEvent>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut stage: ResMut<Stage>,
) {
    // A battle begun afresh (or resumed) publishes its whole log: the past is not replayed.
    if battle.is_added() {
        events.clear();
        return;
    }
    for BattleEvent(entry) in events.read() {
        if viewer.shows(&battle.battle, entry) {
            stage.beats.extend(beats_for(&entry.event));
        }
    }
}

/// `-`/`=` slow down or speed up the AI; the pace is shown in the status line.
fn choose_pace(actions: Query<&ActionState<PlayerAction>>, pace: Option<ResMut<AiPace>>, mut notice: ResMut<Notice>) {
    let (Ok(a), Some(mut pace)) = (actions.single(), pace) else { return };
    let now = pace.timer.duration().as_secs_f32();
    let at = PACES.iter().position(|&p| p >= now - 1e-4).unwrap_or(PACES.len() - 1);
    let to = if a.just_pressed(&PlayerAction::Slower) {
        (at + 1).min(PACES.len() - 1)
    } else if a.just_pressed(&PlayerAction::Faster) {
        at.saturating_sub(1)
    } else {
        return;
    };
    pace.timer.set_duration(std::time::Duration::from_secs_f32(PACES[to]));
    notice.0 = format!("AI pace: {:.2} s between decisions (-/= to change, hold T to hurry)", PACES[to]);
}

type Tokens<'w, 's> =
    Query<'w, 's, (Entity, &'static CreatureToken, &'static OnGrid, &'static mut Glide, &'static Transform)>;

#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource it uses
fn play_beats(
    mut commands: Commands,
    mut stage: ResMut<Stage>,
    time: Res<Time>,
    actions: Query<&ActionState<PlayerAction>>,
    battle: Res<ActiveBattle>,
    mut tokens: Tokens,
    pace: Option<ResMut<AiPace>>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let hurry = actions.single().is_ok_and(|a| a.pressed(&PlayerAction::FastForward));
    let dt = time.delta_secs();
    let b = &battle.battle;
    let centre_of = |id: CreatureId| {
        let f = b.creatures().get(id as usize)?;
        Some(token_centre(&OnGrid { origin: f.origin, size: f.size }).extend(10.0))
    };
    loop {
        if stage.playing.is_none() {
            let Some(next) = stage.beats.pop_front() else { break };
            // Starting a beat.
            match &next {
                Beat::Walk { creature, path } => {
                    if let Some((_, _, place, mut glide, t)) = tokens.iter_mut().find(|(_, k, ..)| k.id == *creature) {
                        let side = place.size.footprint() as f32;
                        let offset = Vec2::splat((side - 1.0) * TILE / 2.0);
                        let squares: Vec<Vec3> =
                            path.iter().map(|p| (super::square_centre(*p) + offset).extend(10.0)).collect();
                        // A token first seen mid-move starts where the side first saw it.
                        if squares[0].truncate().distance(t.translation.truncate()) > TILE * 1.5 {
                            glide.snap_to = Some(squares[0]);
                        }
                        glide.path = squares.into_iter().skip(1).collect();
                    }
                }
                Beat::Strike { attacker, target } => {
                    let (Some(from), Some(to)) = (centre_of(*attacker), centre_of(*target)) else { continue };
                    let adjacent = from.truncate().distance(to.truncate()) <= TILE * 2.5;
                    if adjacent {
                        // A lunge: a third of the way toward the target and back.
                        if let Some((.., mut glide, _)) = tokens.iter_mut().find(|(_, k, ..)| k.id == *attacker) {
                            let toward = from + (to - from).normalize_or_zero() * TILE * 0.35;
                            glide.path.extend([toward, from]);
                        }
                    } else if !hurry {
                        commands.spawn((
                            DespawnOnExit(Screen::Battle),
                            Shot(from.with_z(35.0), to.with_z(35.0), 0.0),
                            Sprite::from_color(Color::srgb(1.0, 0.95, 0.6), Vec2::new(10.0, 3.0)),
                            Transform::from_translation(from.with_z(35.0)),
                        ));
                    }
                }
                Beat::Show { creature, text, colour, flash } => {
                    if let Some(at) = centre_of(*creature) {
                        let width = b.map().width() as f32 * TILE;
                        spawn_popup(
                            &mut commands,
                            at.truncate(),
                            width,
                            text,
                            Color::srgb(colour[0], colour[1], colour[2]),
                        );
                    }
                    if *flash && let Some((e, ..)) = tokens.iter().find(|(_, k, ..)| k.id == *creature) {
                        commands.entity(e).insert(Flash(0.25));
                    }
                }
                Beat::Fall { .. } => {}
            }
            stage.playing = Some((next, 0.0));
        }
        let Some((beat, age)) = &mut stage.playing else { break };
        *age += dt;
        let done = hurry
            || match beat {
                Beat::Walk { creature, .. } => {
                    tokens.iter().find(|(_, k, ..)| k.id == *creature).is_none_or(|(.., g, _)| g.path.is_empty())
                }
                Beat::Strike { .. } => *age >= STRIKE_SECONDS,
                Beat::Show { .. } => *age >= OUTCOME_SECONDS,
                Beat::Fall { .. } => *age >= FALL_SECONDS,
            };
        if !done {
            break;
        }
        stage.playing = None;
    }
    if hurry {
        for (.., mut glide, _) in &mut tokens {
            glide.hurry = true;
        }
    }
    if let Some(mut pace) = pace {
        pace.held = !stage.idle();
        pace.hurry = hurry;
    }
    if !stage.idle() {
        redraw.write(bevy::window::RequestRedraw);
    }
}

fn fly_shots(
    mut commands: Commands,
    time: Res<Time>,
    mut shots: Query<(Entity, &mut Shot, &mut Transform)>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    for (e, mut shot, mut t) in &mut shots {
        shot.2 += time.delta_secs();
        let k = (shot.2 / STRIKE_SECONDS).min(1.0);
        let dir = (shot.1 - shot.0).truncate();
        t.translation = shot.0.lerp(shot.1, k);
        t.rotation = Quat::from_rotation_z(dir.y.atan2(dir.x));
        if k >= 1.0 {
            commands.entity(e).despawn();
        }
        redraw.write(bevy::window::RequestRedraw);
    }
}

fn fade_flashes(
    mut commands: Commands,
    time: Res<Time>,
    mut lit: Query<(Entity, &mut Flash)>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    for (e, mut f) in &mut lit {
        f.0 -= time.delta_secs();
        if f.0 <= 0.0 {
            commands.entity(e).remove::<Flash>();
        }
        redraw.write(bevy::window::RequestRedraw);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::attack::Defense;

    #[test]
    fn every_visible_action_has_a_beat_and_bookkeeping_has_none() {
        // RULES: ATK-1 — the dice faces of an attack are shown as rolled.
        let rolled =
            Event::Rolled { creature: 2, purpose: "attack, segment 1".into(), faces: vec![6, 4, 1], points: 2 };
        assert_eq!(
            beats_for(&rolled),
            vec![Beat::Show { creature: 2, text: "attack [6 4 1] = 2".into(), colour: [0.95, 0.9, 0.6], flash: false }]
        );
        let hit = Event::SegmentResolved {
            attacker: Some(1),
            target: 2,
            segment: 0,
            attack_points: 3,
            protection: 1,
            defense: Some(Defense::Block),
            defense_points: Some(1),
            solid_defense: false,
            hit: true,
            damage: 2,
        };
        assert!(matches!(&beats_for(&hit)[..], [Beat::Show { text, flash: true, .. }] if text == "-2"));
        let walk =
            Event::Moved { creature: 1, path: vec![Pos::new(0, 0), Pos::new(1, 0)], cost_quarters: 4, sprint: false };
        assert_eq!(beats_for(&walk), vec![Beat::Walk { creature: 1, path: vec![Pos::new(0, 0), Pos::new(1, 0)] }]);
        let down = beats_for(&Event::Unconscious { creature: 3 });
        assert_eq!(down.last(), Some(&Beat::Fall { creature: 3 }));
        assert!(beats_for(&Event::RoundStarted { round: 2 }).is_empty());
        assert!(beats_for(&Event::ApSpent { creature: 1, ap: 1, left: 2 }).is_empty());
    }
}
