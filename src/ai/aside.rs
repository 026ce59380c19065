//! In the window the AI thinks on a worker thread (Bevy's async compute pool), so the window
//! keeps drawing while a look-ahead plays its battles out: tokens glide, the pointer and the
//! menus answer. It starts as soon as a creature of its is awaited, while the last decision's
//! events are still being shown, and its command is issued once the pace allows: the pace and
//! the animations hide the thinking. The answer is the one the same battle gets in `sim` (a
//! decision is a function of the battle alone); an answer to a battle that has moved on since it
//! was asked (a new battle, a loaded one) is dropped.
//!
//! Headless battles (`sim`, `duel`, `run`, the tests) and counted-frame screenshots decide in
//! the frame instead: they wait for every decision anyway, and a screenshot must show the same
//! frame each time.

use super::Decision;
use crate::battle::{Battle, CreatureId, LogEntry, WindowKind};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use std::time::Duration;

/// The decision being thought out beside the window, if any.
#[derive(Resource, Default)]
pub struct Thinking {
    pending: Option<Pending>,
}

struct Pending {
    creature: CreatureId,
    window: Option<WindowKind>,
    /// The battle it was asked about: its first and last log entries and the log's length. A new
    /// battle starts with another first entry (level and seed); the same one moves on by adding
    /// to its log.
    first: Option<LogEntry>,
    last: Option<LogEntry>,
    len: usize,
    /// `Time::elapsed` when it was asked.
    since: Duration,
    task: Task<Decision>,
    answer: Option<Decision>,
}

impl Thinking {
    /// Whose decision is being thought out, and since when (`Time::elapsed`), while its answer
    /// is not in: what the screen shows as "thinking".
    pub fn thinking(&self) -> Option<(CreatureId, Duration)> {
        self.pending.as_ref().filter(|p| p.answer.is_none()).map(|p| (p.creature, p.since))
    }

    /// Forget the question (no battle, or nobody of the AI's awaited).
    pub(super) fn clear(&mut self) {
        self.pending = None;
    }

    /// Ask about `creature` in `battle` unless that very question is already out. The question
    /// about another battle or an older state is dropped: a task not yet started never runs,
    /// one running finishes on its thread and its answer is thrown away.
    pub(super) fn ask(
        &mut self,
        battle: &Battle,
        creature: CreatureId,
        window: Option<WindowKind>,
        now: Duration,
        think: impl FnOnce(Battle) -> Decision + Send + 'static,
    ) {
        let log = battle.log();
        let same = self.pending.as_ref().is_some_and(|p| {
            p.creature == creature
                && p.window == window
                && p.len == log.len()
                && p.first.as_ref() == log.first()
                && p.last.as_ref() == log.last()
        });
        if same {
            return;
        }
        let copy = battle.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move { think(copy) });
        self.pending = Some(Pending {
            creature,
            window,
            first: log.first().cloned(),
            last: log.last().cloned(),
            len: log.len(),
            since: now,
            task,
            answer: None,
        });
    }

    /// The answer, once it is in and `take` is true (the pace allows it): the question is then
    /// settled.
    pub(super) fn answer(&mut self, take: bool) -> Option<Decision> {
        let p = self.pending.as_mut()?;
        if p.answer.is_none() {
            p.answer = check_ready(&mut p.task);
        }
        if !take || p.answer.is_none() {
            return None;
        }
        self.pending.take().and_then(|p| p.answer)
    }
}
