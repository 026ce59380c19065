//! What a turn decision returns: the first step of each plan weighed, and the choice made.

use crate::battle::{Command, Explanation};
use crate::rules::facing::Facing;
use crate::rules::grid::Pos;
use crate::rules::movement::MoveField;

/// The first step of a scored plan for the rest of this turn.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    /// A move's path holds only its destination until the plan leaves the planner (see
    /// [`Plan::command`]): tracing the walk for every candidate square was ~3% of a battle.
    pub(super) first: Command,
    /// Where it ends the turn and which way it faces there, for the explanation's "rear
    /// exposed" (worked out for the few options shown only).
    pub(super) stands: Option<(Pos, Facing)>,
}

impl Plan {
    /// The command as the battle takes it: a move walks the path `walk` (or `sprint`) finds.
    pub(super) fn command(&self, walk: Option<&MoveField>, sprint: Option<&MoveField>) -> Command {
        match &self.first {
            Command::Move { path, sprint: sprinting, face } => {
                let field = if *sprinting { sprint } else { walk };
                let to = path.last().copied();
                let path = field.zip(to).and_then(|(fl, to)| fl.path_to(to)).unwrap_or_default();
                Command::Move { path, sprint: *sprinting, face: *face }
            }
            other => other.clone(),
        }
    }
}

/// A turn decision with the other first commands it weighed, best first.
pub struct TurnChoice {
    pub command: Command,
    pub explanation: Option<Explanation>,
    /// Distinct first commands of the plans weighed, best first (the chosen one first); empty
    /// when the decision weighed nothing (fleeing, hiding, hunting the unseen).
    pub ranked: Vec<Command>,
}

impl TurnChoice {
    pub(in crate::ai) fn only(command: Command) -> TurnChoice {
        TurnChoice { command, explanation: None, ranked: Vec::new() }
    }
}
