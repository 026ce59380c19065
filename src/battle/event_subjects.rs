//! Which creatures each event names: what a side learns about by seeing it (used by
//! `perception.rs` to decide who may see an event).

use super::types::*;

impl Event {
    /// The creatures this event names (what a side learns about by seeing it); the creatures
    /// inside a command are the commanding side's own input and are not counted, except the
    /// target of an accepted attack or delay, which its side perceives.
    pub fn creatures(&self) -> Vec<CreatureId> {
        use Event::*;
        match self {
            BattleStarted { .. }
            | RoundStarted { .. }
            | SecondStarted { .. }
            | RoundEnded { .. }
            | BattleEnded { .. } => vec![],
            EncounterOpened { spots, .. } => spots.iter().map(|s| s.spotter).collect(),
            InitiativeRolled { members, .. } => members.clone(),
            TurnOrder { order } => order.clone(),
            CommandAccepted { creature, command } => {
                let mut v = vec![*creature];
                match command {
                    Command::Attack { target: Target::Creature(t), .. } => v.push(*t),
                    Command::Delay { after } => v.push(*after),
                    Command::GiveItem { to, .. } | Command::UseItem { on: Some(to), .. } => v.push(*to),
                    Command::Drag { creature: body, .. } => v.push(*body),
                    Command::Ready { trigger: ReadyTrigger::ComesIntoView { creature: c }, .. } => v.push(*c),
                    _ => {}
                }
                v
            }
            CommandRejected { creature, .. } => vec![*creature],
            AttackDeclared { attacker, targets, .. } => {
                std::iter::once(*attacker).chain(targets.iter().copied()).collect()
            }
            AttackedByUnseen { targets } => targets.clone(),
            ReactionWindowOpened { creature, attacker, .. } => vec![*creature, *attacker],
            Delayed { creature, after } => vec![*creature, *after],
            CounterAttackDeclared { creature, against, .. } => vec![*creature, *against],
            SegmentResolved { attacker, target, .. } => attacker.iter().copied().chain([*target]).collect(),
            Searched { creature, found, .. } => std::iter::once(*creature).chain(found.iter().copied()).collect(),
            SpotMade { creature, locked, noticed, .. } => {
                std::iter::once(*creature).chain(locked.iter().copied()).chain(noticed.iter().copied()).collect()
            }
            Spotted { creature, .. } | LostSight { creature, .. } => vec![*creature],
            AttackCancelled { attacker, .. } => vec![*attacker],
            Undefendable { target, .. } => vec![*target],
            ForcedMoved { creature, by, .. } => std::iter::once(*creature).chain(*by).collect(),
            ObjectAttacked { attacker, .. } => vec![*attacker],
            ObjectDamaged { .. } | ObjectBroken { .. } => Vec::new(),
            Fell { creature, onto, .. } => std::iter::once(*creature).chain(*onto).collect(),
            ItemGiven { from, to, .. } => vec![*from, *to],
            ReadyFired { creature, at } => vec![*creature, *at],
            Readied { creature, trigger: ReadyTrigger::ComesIntoView { creature: c }, .. } => vec![*creature, *c],
            ItemUsed { creature, on, .. } => vec![*creature, *on],
            InvisibleLocated { creature, attacker, .. } => vec![*creature, *attacker],
            Dragged { creature, by, .. } => std::iter::once(*creature).chain(*by).collect(),
            Lifted { creature, by } | PutDown { creature, by, .. } => std::iter::once(*creature).chain(*by).collect(),
            Mounted { creature, mount } => vec![*creature, *mount],
            Dismounted { creature, mount, .. } => std::iter::once(*creature).chain(*mount).collect(),
            TurnStarted { creature, .. }
            | SenseLost { creature, .. }
            | SenseRegained { creature, .. }
            | Moved { creature, .. }
            | Faced { creature, .. }
            | PostureChanged { creature, .. }
            | ApSpent { creature, .. }
            | LongTermStarted { creature, .. }
            | LongTermProgress { creature, .. }
            | LongTermAborted { creature, .. }
            | ReactionDeclined { creature }
            | QuickStepped { creature, .. }
            | Rolled { creature, .. }
            | FateSpent { creature, .. }
            | Damaged { creature, .. }
            | Unconscious { creature }
            | Died { creature }
            | AmmoSpent { creature, .. }
            | HidCreature { creature, .. }
            | HideFailed { creature }
            | MoveInterrupted { creature, .. }
            | Revealed { creature, .. }
            | FleeAttempted { creature, .. }
            | Fled { creature }
            | Joined { creature, .. }
            | ArrivalDelayed { creature, .. }
            | FallRecovery { creature, .. }
            | HazardStruck { creature, .. }
            | DoorOperated { creature, .. }
            | DoorBlocked { creature, .. }
            | Readied { creature, .. }
            | ReadyLapsed { creature }
            | ActionBegun { creature, .. }
            | ClockSet { creature, .. }
            | FatigueTaken { creature, .. }
            | ItemPickedUp { creature, .. }
            | PickUpFailed { creature, .. }
            | ItemDropped { creature, .. }
            | DiceRecovered { creature, .. }
            | Woke { creature }
            | Reloaded { creature, .. }
            | TurnEnded { creature } => vec![*creature],
        }
    }
}
