//! Mouse and keyboard (leafwing-input-manager): the square under the cursor, commands for the
//! player's creatures, the camera, and the screenshot used by render tests.

use super::screens::{OnBattleScreen, Screen};
use super::{Notice, Viewer, square_at};
use crate::battle::{ActiveBattle, BattleSystems, Command, Controller, CreatureId, IssueCommand};
use crate::rules::attack::Defense;
use crate::rules::facing::Facing;
use crate::rules::grid::Pos;
use crate::rules::posture::Posture;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

#[derive(Actionlike, PartialEq, Eq, Clone, Copy, Hash, Debug, Reflect, serde::Deserialize)]
pub enum PlayerAction {
    /// Move to, attack or aim at the square under the cursor.
    Confirm,
    /// Enter: confirm at the keyboard cursor when it is in use, else end the turn.
    ConfirmKey,
    /// Put the weapon away (back to moving).
    Cancel,
    EndTurn,
    TurnLeft,
    TurnRight,
    Weapon1,
    Weapon2,
    Weapon3,
    Weapon4,
    Weapon5,
    Weapon6,
    Stand,
    Crouch,
    Prone,
    /// Sprint while held (MOVE-8).
    Sprint,
    Hide,
    Search,
    /// Open or close the door under the pointer (ATK-16).
    Door,
    /// TIME-18: use an item (on the friend under the pointer, else on oneself; `items.rs`).
    UseItem,
    /// TIME-18: pick up the item under the pointer, else one within reach.
    PickUp,
    /// TIME-18, TIME-E8: hand an item to the friend under the pointer, else one next to it.
    GiveItem,
    /// TIME-17: drop the last item taken.
    DropItem,
    /// MOVE-13: drag the body next to the creature to the square under the pointer.
    Drag,
    /// MOVE-13 [Ext]: lift the body next to the creature, or put the carried one down on the
    /// square under the pointer (3 AP each).
    Lift,
    /// MOVE-E8: mount the mount next to the creature, or dismount onto the square under the
    /// pointer (1 AP each).
    Mount,
    /// TIME-E10: ready the weapon in hand (else the best one) for the first hostile that ends
    /// a move in reach.
    Ready,
    Flee,
    /// Seconds mode: abort the running action (TIME-S2) or cut a second of gap with fatigue
    /// (TIME-S3) of one's creature under the pointer, else of the first busy one (`free_up.rs`).
    FreeUp,
    Block,
    Dodge,
    Resist,
    /// Take the attack / let the window pass.
    NoReaction,
    /// DICE-13: in a Fate window, pick the next own die scoring least (`fate.rs`).
    RaiseFate,
    /// AREA-E5: with a curve weapon ready, bend it at the square under the pointer (`bends.rs`).
    Bend,
    Counter,
    PanUp,
    PanDown,
    PanLeft,
    PanRight,
    #[actionlike(Axis)]
    Zoom,
    Help,
    /// Save the window as a PNG in the current directory.
    Snapshot,
    /// Show or hide what the AI weighed for its last decision.
    Reasons,
    ToggleReach,
    ToggleFacing,
    ToggleThreat,
    ToggleSight,
    ToggleFog,
    ToggleGrid,
    /// Answer defense windows automatically (the best defense on average) or not.
    ToggleAutoDefend,
    /// DICE-13: keep every roll at once instead of being asked about Expense of Fate.
    ToggleFatePrompts,
    /// Declare (or not) the creature's additive ability with its next attack (TIME-16).
    Additive,
    /// While held: skip the animations and let the AI decide without waiting.
    FastForward,
    /// Wait longer / shorter between two AI decisions.
    Slower,
    Faster,
}

/// Why `assets/input.ron` could not be used, shown when a battle begins.
#[derive(Resource, Default)]
pub struct BindingsProblem(pub Option<String>);

/// The keys that ready a creature's first to sixth weapon.
pub const WEAPON_KEYS: [PlayerAction; 6] = [
    PlayerAction::Weapon1,
    PlayerAction::Weapon2,
    PlayerAction::Weapon3,
    PlayerAction::Weapon4,
    PlayerAction::Weapon5,
    PlayerAction::Weapon6,
];

/// The square under the cursor (or pinned by `--hover`).
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct Hover {
    pub square: Option<Pos>,
    pub pinned: bool,
    /// Set by the keyboard cursor: the mouse takes over again when it moves.
    pub keyboard: bool,
}

/// What the player has chosen for the creature in turn.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct Choice {
    pub creature: Option<CreatureId>,
    /// The weapon to attack with; None = clicks move.
    pub weapon: Option<String>,
    pub sprint: bool,
    pub help: bool,
    /// Show the AI's reasoning (a GM's aid; it tells what the enemy thinks).
    pub reasons: bool,
    /// Answer defense windows at once with `auto_defense` (F8).
    pub auto_defend: bool,
    /// TIME-16: additive abilities declared with the next attack (J toggles the first).
    pub additives: Vec<String>,
    /// AREA-E5: the squares the ready curve bends at, in order (B adds one; a click ends it),
    /// and the log's length when they were placed: once anything happens they are spent.
    pub bends: Vec<Pos>,
    pub bends_log: usize,
}

impl Choice {
    /// The bends placed for the battle as it stands (none once it has moved on).
    pub fn bends_now(&self, b: &crate::battle::Battle) -> &[Pos] {
        if self.bends_log == b.log().len() { &self.bends } else { &[] }
    }
}

pub fn plugin(app: &mut App) {
    // Read as the app is built: the first screen may be entered before Startup runs.
    let (map, problem) = super::bindings::load_bindings(std::path::Path::new(super::bindings::BINDINGS_FILE));
    if let Some(p) = &problem {
        warn!("{p}");
    }
    app.add_plugins(InputManagerPlugin::<PlayerAction>::default())
        .init_resource::<Hover>()
        .init_resource::<Choice>()
        .init_resource::<Intent>()
        .init_resource::<PendingStrike>()
        .insert_resource(super::bindings::KeyNames::from_map(&map))
        .insert_resource(BindingsProblem(problem))
        .add_systems(Startup, move |mut commands: Commands| {
            commands.spawn(map.clone());
        })
        .add_systems(
            OnEnter(Screen::Battle),
            (|problem: Res<BindingsProblem>, mut notice: ResMut<Notice>| {
                if let Some(p) = &problem.0 {
                    notice.0 = p.clone();
                }
            })
            .in_set(OnBattleScreen),
        )
        .add_systems(
            OnEnter(Screen::Battle),
            (|viewer: Res<Viewer>,
              overlays: Res<super::overlay::Overlays>,
              setup: Option<Res<super::screens::CurrentSetup>>,
              battle: Res<ActiveBattle>,
              mut choice: ResMut<Choice>| {
                // `--ready WEAPON`: the creature in turn starts with it ready.
                let ready = setup.and_then(|s| s.ready.clone());
                *choice = Choice {
                    reasons: overlays.reasons.unwrap_or(!viewer.plays),
                    creature: ready.as_ref().and_then(|_| battle.battle.awaiting().map(|(c, _)| c)),
                    weapon: ready,
                    ..Choice::default()
                };
            })
            .in_set(OnBattleScreen),
        )
        .add_systems(
            Update,
            (
                (
                    track_hover,
                    super::cursor::steer_cursor,
                    follow_turn,
                    choose,
                    super::bends::place_bend,
                    resolve_intent,
                    act,
                    strike_on_arrival,
                )
                    .chain()
                    .in_set(BattleSystems::Decide)
                    .in_set(OnBattleScreen),
                super::camera_keys::move_camera.in_set(OnBattleScreen),
                super::pictures::snapshot,
                super::pictures::screenshot,
            ),
        );
}

/// The player's creature that must decide now, if any.
pub fn player_awaited(
    battle: &ActiveBattle,
    viewer: &Viewer,
) -> Option<(CreatureId, Option<crate::battle::WindowKind>)> {
    if !viewer.plays {
        return None;
    }
    battle.awaiting_from(Controller::Human)
}

/// What a click on the hovered square would do now: worked out once a frame, for the overlays,
/// the panel and the click itself, so that what is shown is what is done.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct Intent {
    /// The viewer's creature in its own turn (the player's, or any when watching).
    pub creature: Option<CreatureId>,
    pub command: Option<Command>,
    /// What to do once `command` (a move toward the clicked enemy) is done: a second move if
    /// it is two moves away, then the attack.
    pub then: Vec<Command>,
}

/// The commands waiting for the move before them (walk into reach and strike): the creature,
/// what is left to issue, and the log's length when the last was issued.
#[derive(Resource, Default, Clone, Debug)]
pub struct PendingStrike(Option<(CreatureId, Vec<Command>, usize)>);

pub fn resolve_intent(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    hover: Res<Hover>,
    choice: Res<Choice>,
    mut intent: ResMut<Intent>,
) {
    if !(battle.is_changed() || hover.is_changed() || choice.is_changed()) {
        return;
    }
    let b = &battle.battle;
    let creature = match b.awaiting() {
        Some((c, None))
            if b.fighter(c).side == viewer.side && (!viewer.plays || battle.controller_of(c) == Controller::Human) =>
        {
            Some(c)
        }
        _ => None,
    };
    let plan = creature.zip(hover.square).and_then(|(me, at)| click_plan(b, me, at, &choice));
    let (command, then) = plan.map_or((None, Vec::new()), |(c, t)| (Some(c), t));
    intent.set_if_neq(Intent { creature, command, then });
}

pub(super) fn track_hover(
    mut hover: ResMut<Hover>,
    mut moved: MessageReader<bevy::window::CursorMoved>,
    window: Query<&Window>,
    camera: Query<(&Camera, &GlobalTransform)>,
    battle: Res<ActiveBattle>,
) {
    if hover.pinned {
        return;
    }
    if hover.keyboard {
        if moved.is_empty() {
            return;
        }
        moved.clear();
        hover.keyboard = false;
    }
    let (Ok(window), Ok((camera, at))) = (window.single(), camera.single()) else { return };
    // Over the panel or the log strip the cursor is on the HUD, not on a square (a button
    // click there must not also move).
    let on_map = |c: &Vec2| c.x < window.width() - super::PANEL_WIDTH && c.y < window.height() - super::LOG_HEIGHT;
    let square = window
        .cursor_position()
        .filter(on_map)
        .and_then(|c| camera.viewport_to_world_2d(at, c).ok())
        .map(square_at)
        .filter(|p| battle.battle.map().in_bounds(*p));
    if hover.square != square {
        hover.square = square;
    }
}

/// A new creature's turn starts with no weapon chosen.
fn follow_turn(battle: Res<ActiveBattle>, viewer: Res<Viewer>, mut choice: ResMut<Choice>) {
    let now = player_awaited(&battle, &viewer).map(|(c, _)| c);
    if choice.creature != now {
        choice.creature = now;
        choice.weapon = None;
        choice.additives.clear();
        choice.bends.clear();
    }
}

fn choose(
    actions: Query<&ActionState<PlayerAction>>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut choice: ResMut<Choice>,
    mut notice: ResMut<Notice>,
) {
    let Ok(a) = actions.single() else { return };
    if a.just_pressed(&PlayerAction::Help) {
        choice.help = !choice.help;
    }
    if a.just_pressed(&PlayerAction::Reasons) {
        choice.reasons = !choice.reasons;
    }
    if a.just_pressed(&PlayerAction::ToggleAutoDefend) {
        choice.auto_defend = !choice.auto_defend;
        notice.0 = if choice.auto_defend {
            "Auto-defend on: each attack is answered with the defense that prevents the most (F8)".into()
        } else {
            "Auto-defend off: you choose each defense (F8)".into()
        };
    }
    let sprint = a.pressed(&PlayerAction::Sprint);
    if choice.sprint != sprint {
        choice.sprint = sprint;
    }
    let Some((me, None)) = player_awaited(&battle, &viewer) else { return };
    let f = battle.battle.fighter(me);
    if a.just_pressed(&PlayerAction::Additive) {
        match additive_of(f) {
            Some((key, name)) if choice.additives.contains(&key) => {
                choice.additives.clear();
                notice.0 = format!("{name}: off");
            }
            Some((key, name)) => {
                choice.additives = vec![key];
                notice.0 = format!("{name}: declared with the next attack");
            }
            None => notice.0 = format!("{} has no additive ability (TIME-16)", f.name),
        }
    }
    for (k, key) in WEAPON_KEYS.iter().enumerate() {
        if a.just_pressed(key) {
            match f.weapons.get(k) {
                Some(w) => {
                    choice.weapon = Some(w.key.clone());
                    choice.bends.clear();
                    notice.0 = format!("{} ready: click a target", w.weapon.name);
                }
                None => notice.0 = format!("{} has no weapon {}", f.name, k + 1),
            }
        }
    }
    if a.just_pressed(&PlayerAction::Cancel) {
        if !choice.bends_now(&battle.battle).is_empty() {
            choice.bends.clear();
            choice.bends_log = 0;
            notice.0 = "the curve's bends cleared (Esc again lowers the weapon)".into();
        } else if choice.weapon.take().is_some() {
            notice.0 = "weapon lowered: clicks move".into();
        }
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource it uses
fn act(
    actions: Query<&ActionState<PlayerAction>>,
    choice: Res<Choice>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    hover: Res<Hover>,
    intent: Res<Intent>,
    mut notice: ResMut<Notice>,
    mut pending: ResMut<PendingStrike>,
    mut out: MessageWriter<IssueCommand>,
    mut empty_area_armed: Local<Option<Command>>,
) {
    let Ok(a) = actions.single() else { return };
    let Some((me, window)) = player_awaited(&battle, &viewer) else { return };
    let b = &battle.battle;
    let f = b.fighter(me);
    let keyed = a.just_pressed(&PlayerAction::ConfirmKey);
    // Enter confirms at the keyboard cursor when it is in use; otherwise it ends the turn.
    // A click counts on a square only (over the HUD it is a button's).
    let confirm = (a.just_pressed(&PlayerAction::Confirm) && hover.square.is_some()) || (keyed && hover.keyboard);
    let pressed = |k: PlayerAction| match k {
        PlayerAction::Confirm => confirm,
        PlayerAction::EndTurn => a.just_pressed(&k) || (keyed && !hover.keyboard),
        k => a.just_pressed(&k),
    };
    let command = match window {
        None => {
            if pressed(PlayerAction::Confirm) {
                match hover.square {
                    Some(at) => intent.command.clone().or_else(|| {
                        // Why, as the engine says it of a move there (the rule broken).
                        let there = Command::Move { path: vec![at], sprint: choice.sprint, face: None };
                        let why = b.check(me, &there).err().map_or(String::new(), |r| format!(": {r}"));
                        notice.0 = format!("{} cannot end a move on {at}{why}", f.name);
                        None
                    }),
                    None => None,
                }
            } else if pressed(PlayerAction::EndTurn) {
                Some(Command::EndTurn)
            } else if pressed(PlayerAction::TurnLeft) || pressed(PlayerAction::TurnRight) {
                let k = Facing::ALL.iter().position(|&x| x == f.facing).unwrap_or(0);
                let step = if pressed(PlayerAction::TurnLeft) { Facing::ALL.len() - 1 } else { 1 };
                Some(Command::Face { facing: Facing::ALL[(k + step) % Facing::ALL.len()] })
            } else if pressed(PlayerAction::Stand) {
                Some(Command::ChangePosture { posture: Posture::Standing })
            } else if pressed(PlayerAction::Crouch) {
                Some(Command::ChangePosture { posture: Posture::Crouch })
            } else if pressed(PlayerAction::Prone) {
                Some(Command::ChangePosture { posture: Posture::Prone })
            } else if pressed(PlayerAction::Hide) {
                Some(Command::Hide)
            } else if pressed(PlayerAction::Flee) {
                Some(Command::Flee)
            } else if pressed(PlayerAction::Search) {
                // Under 001's Hide and Spot the key spots (every hider in range, 1 AP).
                if b.ruleset().hiding == crate::rules::ruleset::Hiding::HideSpot001 {
                    Some(Command::Spot)
                } else {
                    hover.square.map(|at| Command::Search { at })
                }
            } else if pressed(PlayerAction::Door) {
                let door = hover.square.and_then(|at| battle.battle.object_at(at).map(|i| (at, i)));
                door.map(|(at, i)| Command::Door { at, open: !battle.battle.objects()[i].open })
            } else if pressed(PlayerAction::Ready) {
                let c = super::items::ready_command(b, me, choice.weapon.as_deref());
                if c.is_none() {
                    notice.0 = format!("{} has no single-target weapon with its AP + 1 to spare", f.name);
                }
                c.map(|(c, _)| c)
            } else if let Some(k) = super::items::KEYS.into_iter().find(|&k| pressed(k)) {
                let c = super::items::command_for(k, b, me, hover.square);
                if c.is_none() {
                    notice.0 = format!("{}: {}", f.name, super::items::why_not(k));
                }
                c.map(|(c, _)| c)
            } else {
                None
            }
        }
        Some(crate::battle::WindowKind::Defense) => {
            if pressed(PlayerAction::Block) {
                Some(Command::Defend { defense: Some(Defense::Block) })
            } else if pressed(PlayerAction::Dodge) {
                Some(Command::Defend { defense: Some(Defense::Dodge) })
            } else if pressed(PlayerAction::Resist) {
                Some(Command::Defend { defense: Some(Defense::Resist) })
            } else if pressed(PlayerAction::NoReaction) {
                Some(Command::Defend { defense: None })
            } else if choice.auto_defend {
                auto_defense(b)
            } else {
                None
            }
        }
        Some(crate::battle::WindowKind::BeforeAttack) => {
            if pressed(PlayerAction::NoReaction) {
                Some(Command::Pass)
            } else if pressed(PlayerAction::Counter) {
                f.weapons
                    .iter()
                    .filter(|w| !w.weapon.range.ranged && w.weapon.area.is_none())
                    .map(|w| Command::CounterAttack { weapon: w.key.clone() })
                    .find(|c| b.check(me, c).is_ok())
                    // None can: still a counter, so that the refusal says why.
                    .or(Some(Command::CounterAttack { weapon: String::new() }))
            } else if pressed(PlayerAction::Confirm) {
                hover.square.map(|to| Command::QuickStep { to, face: None })
            } else {
                None
            }
        }
        // DICE-13: answered in `fate.rs`, with the dice the player picks.
        Some(crate::battle::WindowKind::Fate) => None,
    };
    let Some(command) = command else { return };
    // An area that covers nobody the side sees fires on a second click only: a cone aimed at a
    // foe past its reach spent AP and a shot on empty ground without a word (a shot into the
    // dark, where a foe was last seen, stays possible).
    if super::odds_text::is_area(b, me, &command)
        && b.attack_preview(me, &command).is_ok_and(|seen| seen.is_empty())
        && empty_area_armed.as_ref() != Some(&command)
    {
        notice.0 = format!("{}'s attack there covers nobody you see: click again to fire anyway", f.name);
        *empty_area_armed = Some(command);
        return;
    }
    *empty_area_armed = None;
    match b.check(me, &command) {
        Ok(()) => {
            notice.0.clear();
            if window.is_none() && Some(&command) == intent.command.as_ref() && pressed(PlayerAction::Confirm) {
                pending.0 = (!intent.then.is_empty()).then(|| (me, intent.then.clone(), b.log().len()));
            }
            out.write(IssueCommand { creature: me, command });
        }
        // Refused before it reaches the battle: the state is untouched, the reason shown.
        Err(r) => notice.0 = format!("Refused: {r}{}", out_of_reach_this_turn(b, me, &command)),
    }
}

/// Why a refused attack on a creature was not turned into a walk and a strike (`click_plan`):
/// the refusal says what is wrong from where the creature stands ("does not itself perceive",
/// "is 19 steps away"), which read as if walking would not help either.
fn out_of_reach_this_turn(b: &crate::battle::Battle, me: CreatureId, command: &Command) -> String {
    let f = b.fighter(me);
    match command {
        Command::Attack { target: crate::battle::Target::Creature(t), .. }
            if b.shown_to(f.side, *t) && b.walk_to_strike(me, *t, false, 0).is_none() =>
        {
            format!("; no square within two moves lets {} strike {} this turn", f.name, b.fighter(*t).name)
        }
        _ => String::new(),
    }
}

/// Once the move into reach is done and the creature is still in its turn, the strike.
fn strike_on_arrival(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut pending: ResMut<PendingStrike>,
    mut notice: ResMut<Notice>,
    mut out: MessageWriter<IssueCommand>,
) {
    let Some((me, rest, issued_at)) = pending.0.clone() else { return };
    let b = &battle.battle;
    if b.log().len() == issued_at {
        return; // the last command is not applied yet
    }
    match player_awaited(&battle, &viewer) {
        Some((c, None)) if c == me => {
            let Some((next, later)) = rest.split_first() else {
                pending.0 = None;
                return;
            };
            match b.check(me, next) {
                Ok(()) => {
                    out.write(IssueCommand { creature: me, command: next.clone() });
                    pending.0 = (!later.is_empty()).then(|| (me, later.to_vec(), b.log().len()));
                }
                Err(r) => {
                    pending.0 = None;
                    notice.0 = format!("On the way, the next step is refused: {r}");
                }
            }
        }
        // A reaction to the move (a window) is answered first; the rest waits for it.
        Some((_, Some(_))) => {}
        _ if b.awaiting().is_some_and(|(_, w)| w.is_some()) => {}
        // Its turn is over: the rest is dropped.
        _ => pending.0 = None,
    }
}

pub use super::click::*;
pub use super::pictures::ScreenshotPlan;

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
