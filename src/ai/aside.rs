//! In the window the AI thinks on a worker thread, so the window keeps drawing while a
//! look-ahead plays its battles out: tokens glide, the pointer and the menus answer. It starts
//! as soon as a creature of its is awaited, while the last decision's events are still being
//! shown, and its command is issued once the pace allows: the pace and the animations hide the
//! thinking. An answer to a battle that has moved on since it was asked (a new battle, a loaded
//! one, another profile) is dropped.
//!
//! One thread thinks every question, in the order asked, as the frame did before: the planner
//! keeps per-thread memos, one of which (`intent::strike_worth`) holds a worth "as first asked
//! this round", so a decision depends on the decisions made before it on its thread. On one
//! thread, in order, the window's battle is the one `sim` plays (a battle there also runs on one
//! thread); spread over a pool's threads it could differ.
//!
//! Headless battles (`sim`, `duel`, `run`, the tests) and counted-frame screenshots decide in
//! the frame instead: they wait for every decision anyway, and a screenshot must show the same
//! frame each time.

use super::{Decision, Reasons};
use crate::battle::{Battle, CreatureId, LogEntry, WindowKind};
use crate::level::compendium::AiProfile;
use bevy::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

type Job = Box<dyn FnOnce() + Send>;

/// The decision being thought out beside the window, if any.
#[derive(Resource, Default)]
pub struct Thinking {
    worker: Option<Worker>,
    /// The thread died (a decision panicked): think in the frame from then on, where a panic
    /// shows as it does headless, instead of starting thread after thread.
    broken: bool,
    pending: Option<Pending>,
}

/// The thinking thread: jobs in, and the number of the latest question, so that questions
/// dropped while queued are skipped rather than thought out for nothing.
struct Worker {
    jobs: mpsc::Sender<Job>,
    latest: Arc<AtomicU64>,
}

/// What a question was asked about: an answer counts only for the same question.
struct Question {
    creature: CreatureId,
    window: Option<WindowKind>,
    profile: AiProfile,
    reasons: Reasons,
    /// The battle: its first and last log entries and the log's length. A new battle starts
    /// with another first entry (level and seed); the same one moves on by adding to its log.
    first: Option<LogEntry>,
    last: Option<LogEntry>,
    len: usize,
}

struct Pending {
    question: Question,
    /// `Time::elapsed` when it was asked.
    since: Duration,
    /// In a mutex only because a resource must be `Sync`; only `&mut self` reads it.
    answers: Mutex<mpsc::Receiver<Decision>>,
    answer: Option<Decision>,
}

impl Thinking {
    /// Whose decision is being thought out, and since when (`Time::elapsed`), while its answer
    /// is not in: what the screen shows as "thinking".
    pub fn thinking(&self) -> Option<(CreatureId, Duration)> {
        self.pending.as_ref().filter(|p| p.answer.is_none()).map(|p| (p.question.creature, p.since))
    }

    /// Forget the question (no battle, or nobody of the AI's awaited).
    pub(super) fn clear(&mut self) {
        self.pending = None;
    }

    /// Ask how `profile` plays `creature` in `battle`, unless that very question is already
    /// out. A question about another battle, an older state or another profile is dropped: if
    /// still queued it is skipped, if being thought out its answer is thrown away.
    pub(super) fn ask(
        &mut self,
        battle: &Battle,
        (creature, window): (CreatureId, Option<WindowKind>),
        profile: &AiProfile,
        reasons: Reasons,
        now: Duration,
    ) {
        let log = battle.log();
        // Asked again every frame while it thinks: compared in place, cloned only when new.
        let same = self.pending.as_ref().map(|p| &p.question).is_some_and(|q| {
            q.creature == creature
                && q.window == window
                && q.reasons == reasons
                && q.len == log.len()
                && q.first.as_ref() == log.first()
                && q.last.as_ref() == log.last()
                && q.profile == *profile
        });
        if same {
            return;
        }
        // The old question goes first, so that no answer of its is issued for this one.
        self.pending = None;
        let question = Question {
            creature,
            window,
            profile: profile.clone(),
            reasons,
            first: log.first().cloned(),
            last: log.last().cloned(),
            len: log.len(),
        };
        let (reply, answers) = mpsc::sync_channel(1);
        let (copy, profile) = (battle.clone(), profile.clone());
        let think = move || super::decision(&copy, creature, window, &profile, reasons);
        let mut pending = Pending { question, since: now, answers: Mutex::new(answers), answer: None };
        match self.worker() {
            Some(worker) => {
                let number = worker.latest.fetch_add(1, Ordering::SeqCst) + 1;
                let latest = worker.latest.clone();
                let job: Job = Box::new(move || {
                    if latest.load(Ordering::SeqCst) == number {
                        let _ = reply.send(think());
                    }
                });
                if worker.jobs.send(job).is_err() {
                    self.worker = None;
                    return;
                }
            }
            // No thread to be had: think in the frame, as headless battles do.
            None => pending.answer = Some(think()),
        }
        self.pending = Some(pending);
    }

    /// The thinking thread, started on the first question.
    fn worker(&mut self) -> Option<&Worker> {
        if self.worker.is_none() && !self.broken {
            let (jobs, queue) = mpsc::channel::<Job>();
            let started = std::thread::Builder::new().name("ai thinking".into()).spawn(move || {
                for job in queue {
                    job();
                }
            });
            if started.is_ok() {
                self.worker = Some(Worker { jobs, latest: Arc::new(AtomicU64::new(0)) });
            }
        }
        self.worker.as_ref()
    }

    /// The answer, once it is in and `take` is true (the pace allows it): the question is then
    /// settled.
    pub(super) fn answer(&mut self, take: bool) -> Option<Decision> {
        let p = self.pending.as_mut()?;
        if p.answer.is_none() {
            match p.answers.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).try_recv() {
                Ok(answer) => p.answer = Some(answer),
                Err(mpsc::TryRecvError::Empty) => {}
                Err(mpsc::TryRecvError::Disconnected) => {
                    (self.broken, self.worker, self.pending) = (true, None, None);
                    return None;
                }
            }
        }
        if !take || p.answer.is_none() {
            return None;
        }
        self.pending.take().and_then(|p| p.answer)
    }
}
