//! The battle on Bevy ECS.
//!
//! The rules of a battle run in [`Battle`], a plain cloneable state machine (command → check →
//! execute → events), so that a battle is deterministic, replayable, and cheap to copy for AI
//! look-ahead and thousand-battle simulations. The ECS side is [`plugin`]: commands arrive as
//! [`IssueCommand`] messages (from input, the AI or a script), are applied in order, and every
//! log entry goes out as a [`BattleEvent`] message; creature entities mirror the state for the
//! client and for queries. The same plugin runs under `MinimalPlugins` (tests, `run`, `sim`) and
//! in the windowed client.

mod areas;
mod attack;
mod belief;
mod carry;
mod check;
mod command;
pub mod danger;
mod drag;
mod engage;
mod event_subjects;
mod execute;
pub mod explain;
mod fate;
pub mod forced;
mod hazard;
pub mod items;
mod journeys;
mod mount;
pub mod narrate;
mod objects;
mod perception;
pub mod query;
mod reactions;
pub mod ready;
mod replay;
pub mod script;
mod seconds;
mod senses;
mod setup;
mod spot;
pub mod state;
mod stats;
mod strike_from;
mod turns;
pub mod types;

pub use attack::PendingAttack;
pub use engage::{Engagement, ReachError, Undefendable};
pub use explain::{AiExplained, Explanation, Explanations, LookAheadReport, OptionScore};
pub use fate::{FatePreview, FateWindow};
pub use forced::ForcedOutcome;
pub use hazard::HazardNumbers;
pub use objects::{DOOR_AP, ObjectState};
pub use query::{AttackNumbers, AttackPreview, AttackQuery, DefenseOption, StepOption};
pub use reactions::WindowPreview;
pub use ready::{READY_EXTRA_AP, Readied};
pub use replay::{CHECKPOINT_EVERY, LogStates, MAX_LOG_LINE, parse_log};
pub use seconds::{Clock, ClockView};
pub use setup::{MAX_SIDES, SetupError};
pub use state::{Armed, Battle, Fighter, Phase, Placement, Presence, ReactionWindow};
pub use strike_from::StrikeFrom;
pub use types::{Command, CreatureId, Event, LogEntry, Outcome, ReadyTrigger, Rejection, Target, WindowKind};

use crate::rules::creature::{Attributes, Size};
use crate::rules::facing::Facing;
use crate::rules::grid::Pos;
use crate::rules::posture::Posture;
use bevy::prelude::*;

/// Who answers for a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controller {
    /// A person, through the client.
    Human,
    /// The AI (`src/ai`).
    Ai,
    /// A command script (`--commands`).
    Script,
}

/// The battle being played.
#[derive(Resource)]
pub struct ActiveBattle {
    pub battle: Battle,
    /// Per side.
    pub controllers: Vec<Controller>,
    /// Creatures a command script plays, whatever their side's controller: a GM pins one
    /// creature and lets the AI play the rest of its side.
    pub scripted: Vec<CreatureId>,
    /// Nobody is at the keyboard (`run`, `sim`): a creature the level marks for a person is
    /// played by the AI. `run` stopped at such a creature's first turn, waiting for nobody, and
    /// `sim` counted every such battle a draw.
    pub nobody_plays: bool,
}

impl ActiveBattle {
    pub fn new(battle: Battle, controllers: Vec<Controller>) -> ActiveBattle {
        ActiveBattle { battle, controllers, scripted: Vec::new(), nobody_plays: false }
    }

    /// Who answers for a creature: a script plays the creatures it names (or a whole side set
    /// to `Script`); otherwise the level may name a controller for the creature, else its
    /// side's applies.
    pub fn controller_of(&self, creature: CreatureId) -> Controller {
        if self.scripted.contains(&creature) {
            return Controller::Script;
        }
        let f = self.battle.fighter(creature);
        let side = self.controllers[f.side];
        match (side, f.controller) {
            (Controller::Script, _) | (_, None) => side,
            (_, Some(crate::level::ControllerDef::Human)) if self.nobody_plays => Controller::Ai,
            (_, Some(crate::level::ControllerDef::Human)) => Controller::Human,
            (_, Some(crate::level::ControllerDef::Ai)) => Controller::Ai,
        }
    }

    /// Controllers per side for a battle: human where the level says so, else the AI.
    pub fn default_controllers(battle: &Battle) -> Vec<Controller> {
        battle.sides().iter().map(|s| if s.human { Controller::Human } else { Controller::Ai }).collect()
    }
    /// The creature that must decide now, if an automatic controller of `kind` answers for it.
    pub fn awaiting_from(&self, kind: Controller) -> Option<(CreatureId, Option<WindowKind>)> {
        self.battle.awaiting().filter(|(c, _)| self.controller_of(*c) == kind)
    }
}

/// A command for one creature.
#[derive(Message, Clone, Debug)]
pub struct IssueCommand {
    pub creature: CreatureId,
    pub command: Command,
}

/// One log entry, as it happens.
#[derive(Message, Clone, Debug)]
pub struct BattleEvent(pub LogEntry);

/// The order of the battle's systems within a frame.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BattleSystems {
    /// Input, scripts and the AI write commands.
    Decide,
    /// Commands are checked and executed.
    Apply,
    /// Events go out and entities are updated.
    Publish,
}

/// Mirrors a creature of the battle.
#[derive(Component, Clone, Copy, Debug)]
pub struct CreatureToken {
    pub id: CreatureId,
    pub side: usize,
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct OnGrid {
    pub origin: Pos,
    pub size: Size,
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Heading(pub Facing);

#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Stance(pub Posture);

#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Vitals {
    pub attrs: Attributes,
    pub ap: i32,
    pub max_ap: i32,
    pub presence: Presence,
}

#[derive(Resource, Default)]
struct Published(usize);

/// Put `battle` on in this world afresh (a new battle or a restart): the last one's tokens go,
/// and the new log is published from its start.
pub fn begin(world: &mut World, battle: ActiveBattle) {
    end(world);
    world.insert_resource(battle);
}

/// Take the battle off: its tokens and its counts go with it.
pub fn end(world: &mut World) {
    let tokens: Vec<Entity> = world.query_filtered::<Entity, With<CreatureToken>>().iter(world).collect();
    for e in tokens {
        world.despawn(e);
    }
    world.remove_resource::<ActiveBattle>();
    world.insert_resource(Published(0));
    world.insert_resource(Rejections::default());
}

/// Commands rejected during this battle, by controller (the AI must never be rejected).
#[derive(Resource, Default, Debug)]
pub struct Rejections {
    pub ai: u32,
    pub script: u32,
    pub human: u32,
}

pub fn plugin(app: &mut App) {
    app.add_message::<IssueCommand>()
        .add_message::<BattleEvent>()
        .add_message::<AiExplained>()
        .init_resource::<Published>()
        .init_resource::<Rejections>()
        .configure_sets(Update, (BattleSystems::Decide, BattleSystems::Apply, BattleSystems::Publish).chain())
        .add_systems(Update, script::feed_script.in_set(BattleSystems::Decide))
        .add_systems(Update, apply_commands.in_set(BattleSystems::Apply))
        .add_systems(Update, (publish_events, sync_tokens).chain().in_set(BattleSystems::Publish));
}

fn apply_commands(
    battle: Option<ResMut<ActiveBattle>>,
    mut incoming: MessageReader<IssueCommand>,
    mut rejections: ResMut<Rejections>,
) {
    let Some(mut battle) = battle else { return };
    for c in incoming.read() {
        let who = if (c.creature as usize) < battle.battle.n() {
            battle.controller_of(c.creature)
        } else {
            Controller::Human
        };
        if battle.battle.submit(c.creature, c.command.clone()).is_err() {
            match who {
                Controller::Ai => rejections.ai += 1,
                Controller::Script => rejections.script += 1,
                Controller::Human => rejections.human += 1,
            }
        }
    }
}

fn publish_events(
    battle: Option<Res<ActiveBattle>>,
    mut published: ResMut<Published>,
    mut out: MessageWriter<BattleEvent>,
) {
    let Some(battle) = battle else { return };
    let log = battle.battle.log();
    for entry in &log[published.0.min(log.len())..] {
        out.write(BattleEvent(entry.clone()));
    }
    published.0 = log.len();
}

type TokenQuery<'w, 's> = Query<
    'w,
    's,
    (&'static CreatureToken, &'static mut OnGrid, &'static mut Heading, &'static mut Stance, &'static mut Vitals),
>;

fn sync_tokens(mut commands: Commands, battle: Option<Res<ActiveBattle>>, mut tokens: TokenQuery) {
    let Some(battle) = battle else { return };
    if !battle.is_changed() {
        return;
    }
    let mut seen = vec![false; battle.battle.n()];
    for (token, mut place, mut heading, mut stance, mut vitals) in &mut tokens {
        let Some(f) = battle.battle.creatures().get(token.id as usize) else { continue };
        seen[token.id as usize] = true;
        place.set_if_neq(OnGrid { origin: f.origin, size: f.size });
        heading.set_if_neq(Heading(f.facing));
        stance.set_if_neq(Stance(f.posture));
        vitals.set_if_neq(Vitals { attrs: f.attrs, ap: f.ap, max_ap: f.max_ap, presence: f.presence });
    }
    for f in battle.battle.creatures() {
        if !seen[f.id as usize] {
            commands.spawn((
                Name::new(f.name.clone()),
                CreatureToken { id: f.id, side: f.side },
                OnGrid { origin: f.origin, size: f.size },
                Heading(f.facing),
                Stance(f.posture),
                Vitals { attrs: f.attrs, ap: f.ap, max_ap: f.max_ap, presence: f.presence },
            ));
        }
    }
}

/// Play a battle to the end without the ECS, asking `decide` for every decision. For AI
/// look-ahead and benchmarks; returns the number of commands that were rejected.
pub fn play_direct(
    battle: &mut Battle,
    mut decide: impl FnMut(&Battle, CreatureId, Option<WindowKind>) -> Command,
    max_decisions: usize,
) -> usize {
    let mut rejected = 0;
    for _ in 0..max_decisions {
        let Some((c, w)) = battle.awaiting() else { break };
        let command = decide(battle, c, w);
        if battle.submit(c, command).is_err() {
            rejected += 1;
            let fallback = if w.is_some() { Command::Pass } else { Command::EndTurn };
            let _ = battle.submit(c, fallback);
        }
    }
    rejected
}

/// Run frames of a headless battle app until the battle ends or waits for a person. Returns
/// the frames run.
pub fn run_until_input(app: &mut App, max_frames: usize) -> usize {
    for frame in 0..max_frames {
        if frame == 0 {
            app.update()
        } else {
            headless_frame(app)
        }
        let battle = app.world().resource::<ActiveBattle>();
        if battle.battle.outcome().is_some() || battle.awaiting_from(Controller::Human).is_some() {
            // One more frame publishes the last events.
            headless_frame(app);
            return frame + 2;
        }
    }
    max_frames
}

/// A frame after the first (which also runs the startup schedules): only the schedules a
/// battle without a window needs — `Update`, where every battle and AI system lives, and
/// `First`, which turns the message buffers over (`app::headless_app` lets it every frame). A
/// whole frame's other schedules run no system of ours and were 3.4% of the instructions of a
/// batch of battles (one command a frame).
fn headless_frame(app: &mut App) {
    let world = app.world_mut();
    world.run_schedule(First);
    world.run_schedule(Update);
    world.clear_trackers();
}
