//! "How hard is this fight?" answered by playing it: many AI-vs-AI battles of a level, counted
//! (wins with their intervals, rounds, who falls, who deals and takes the damage), stopped as
//! soon as the answer is as precise as asked, compared with another version of the level, and
//! set against the rules' own estimate, the combat-intensity band of FLOW-2.
//!
//! It sits beside `app` above `battle` and `ai`: `sim` on the command line and the editor's
//! balance panel share it.

use crate::app::headless_app;
use crate::battle::script::CommandScript;
use crate::battle::{ActiveBattle, Battle, Controller, Explanation, Outcome, Rejections, run_until_input};
use crate::level::LoadedLevel;
use crate::level::compendium::Compendium;
use crate::rules::flow::Intensity;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

pub mod plot;

/// How the AI plays a battle: per-side profile overrides, and whether to keep explanations.
#[derive(Default, Clone)]
pub struct AiSetup {
    pub side_profiles: Option<Vec<Option<String>>>,
    pub explain: bool,
    /// The sides a person plays (`run --fate SIDE`): offered Expense of Fate (DICE-13).
    pub players: Vec<String>,
}

pub struct PlayedOut {
    pub battle: Battle,
    pub rejections: Rejections,
    /// Planned AI commands the engine would have refused (replaced by the safety net).
    pub fallbacks: crate::ai::AiFallbacks,
    pub explanations: Vec<(usize, Explanation)>,
    /// Script entries skipped because their actor was down or gone.
    pub skipped: Vec<String>,
}

/// Frames a headless battle may take before it is called stuck (a battle takes a few thousand).
const MAX_FRAMES: usize = 200_000;

/// Play a battle to its end with the AI for everything the script does not play.
pub fn play_out(
    level: &LoadedLevel,
    compendium: &Compendium,
    seed: u64,
    script: Option<CommandScript>,
    ai: &AiSetup,
) -> Result<PlayedOut, String> {
    let battle = Battle::with_players(level, compendium, seed, &ai.players)?;
    let controllers = vec![Controller::Ai; battle.sides().len()];
    let mut active = ActiveBattle::new(battle, controllers);
    active.nobody_plays = true;
    if let Some(s) = &script {
        active.scripted = s.actors.clone();
    }
    let mut app = headless_app(active);
    if let Some(s) = script {
        app.insert_resource(s);
    }
    if let Some(p) = &ai.side_profiles {
        app.insert_resource(crate::ai::SideProfiles(p.clone()));
    }
    if ai.explain {
        app.init_resource::<crate::battle::Explanations>();
    } else {
        app.init_resource::<crate::ai::ReasonsUnread>();
    }
    run_until_input(&mut app, MAX_FRAMES);
    let world = app.world_mut();
    let rejections = world.remove_resource::<Rejections>().unwrap_or_default();
    let fallbacks = world.remove_resource::<crate::ai::AiFallbacks>().unwrap_or_default();
    let explanations = world.remove_resource::<crate::battle::Explanations>().map(|e| e.0).unwrap_or_default();
    let skipped = world.remove_resource::<CommandScript>().map(|s| s.skipped).unwrap_or_default();
    let battle = world.remove_resource::<ActiveBattle>().ok_or("the battle app lost its battle")?.battle;
    Ok(PlayedOut { battle, rejections, fallbacks, explanations, skipped })
}

/// What one battle of a batch came to.
#[derive(Clone, Debug, PartialEq)]
pub struct BattleSummary {
    pub seed: u64,
    /// The winning side's index; None for a draw.
    pub winner: Option<usize>,
    pub rounds: u32,
    /// Per creature: out of the fight at the end (unconscious, dead or fled).
    pub down: Vec<bool>,
    /// Per creature: dice of damage dealt and taken in attacks.
    pub dealt_taken: Vec<(i32, i32)>,
    pub ai_rejections: u32,
    pub ai_fallbacks: u32,
    /// A side took damage two rounds running without moving, attacking, hiding or trying to flee.
    pub passive: bool,
}

pub fn summarise(p: &PlayedOut, seed: u64) -> BattleSummary {
    let b = &p.battle;
    BattleSummary {
        seed,
        winner: match b.outcome() {
            Some(Outcome::Victory { side, .. }) => b.sides().iter().position(|s| &s.name == side),
            _ => None,
        },
        rounds: b.round(),
        down: b.creatures().iter().map(|c| !c.can_act()).collect(),
        dealt_taken: b.damage_tally(),
        ai_rejections: p.rejections.ai,
        ai_fallbacks: p.fallbacks.count,
        passive: !b.sides_passive_under_fire().is_empty(),
    }
}

/// A batch's battles, in seed order, and what the level is.
#[derive(Clone, Debug)]
pub struct Tally {
    pub sides: Vec<String>,
    /// Per creature: name and side index.
    pub creatures: Vec<(String, usize)>,
    /// The rules' estimate from side 0's point of view (FLOW-2), if side 0 has anyone.
    pub intensity: Option<Intensity>,
    pub battles: Vec<BattleSummary>,
    /// The batch stopped early because the intervals were as narrow as asked.
    pub stopped_early: bool,
}

/// A proportion with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub count: usize,
    pub n: usize,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(count: usize, n: usize) -> Rate {
        let (low, high) = wilson(count, n);
        Rate { count, n, low, high }
    }
    pub fn value(&self) -> f64 {
        if self.n == 0 { 0.0 } else { self.count as f64 / self.n as f64 }
    }
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// Wilson score interval for a proportion, 95%.
pub fn wilson(successes: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (p, n) = (successes as f64 / n as f64, n as f64);
    let z = Z_95;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

const Z_95: f64 = 1.959964;

impl Tally {
    pub fn n(&self) -> usize {
        self.battles.len()
    }
    pub fn wins(&self, side: usize) -> Rate {
        Rate::new(self.battles.iter().filter(|b| b.winner == Some(side)).count(), self.n())
    }
    pub fn draws(&self) -> Rate {
        Rate::new(self.battles.iter().filter(|b| b.winner.is_none()).count(), self.n())
    }
    /// The widest win-rate interval of any side, as a half-width (0.05 = ±5 points).
    pub fn widest_half_width(&self) -> f64 {
        (0..self.sides.len()).map(|s| self.wins(s).half_width()).fold(0.0, f64::max)
    }
    pub fn sorted_rounds(&self) -> Vec<u32> {
        let mut r: Vec<u32> = self.battles.iter().map(|b| b.rounds).collect();
        r.sort_unstable();
        r
    }
    /// The rounds at quantile q (0..=1), nearest rank.
    pub fn rounds_quantile(&self, q: f64) -> u32 {
        let r = self.sorted_rounds();
        if r.is_empty() { 0 } else { r[((r.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize] }
    }
    pub fn rounds_mean(&self) -> f64 {
        if self.n() == 0 { 0.0 } else { self.battles.iter().map(|b| b.rounds as f64).sum::<f64>() / self.n() as f64 }
    }
    /// Battles ending in round r, for r = 0..=the longest.
    pub fn rounds_histogram(&self) -> Vec<usize> {
        let longest = self.battles.iter().map(|b| b.rounds).max().unwrap_or(0) as usize;
        let mut h = vec![0; longest + 1];
        for b in &self.battles {
            h[b.rounds as usize] += 1;
        }
        h
    }
    pub fn down_rate(&self, creature: usize) -> Rate {
        Rate::new(self.battles.iter().filter(|b| b.down.get(creature) == Some(&true)).count(), self.n())
    }
    /// Mean dice of damage a creature dealt and took a battle.
    pub fn mean_dealt_taken(&self, creature: usize) -> (f64, f64) {
        if self.n() == 0 {
            return (0.0, 0.0);
        }
        let sum = self.battles.iter().fold((0i64, 0i64), |(d, t), b| {
            let (bd, bt) = b.dealt_taken.get(creature).copied().unwrap_or((0, 0));
            (d + bd as i64, t + bt as i64)
        });
        (sum.0 as f64 / self.n() as f64, sum.1 as f64 / self.n() as f64)
    }
    pub fn ai_rejections(&self) -> u32 {
        self.battles.iter().map(|b| b.ai_rejections).sum()
    }
    pub fn ai_fallbacks(&self) -> u32 {
        self.battles.iter().map(|b| b.ai_fallbacks).sum()
    }
    pub fn passive(&self) -> Rate {
        Rate::new(self.battles.iter().filter(|b| b.passive).count(), self.n())
    }
    /// When the battles say something else than the intensity band: side 0's win-rate interval
    /// lies wholly outside what the band means (see [`band_win_range`]).
    pub fn band_disagreement(&self) -> Option<String> {
        let band = self.intensity?;
        let (lo, hi) = band_win_range(band);
        let w = self.wins(0);
        let meaning = format!(
            "the rules' band is {} (for {}: a win rate of {:.0}–{:.0}% expected) but {} won {:.1}% (95% CI {:.1}–{:.1}%)",
            band.name(),
            self.sides[0],
            100.0 * lo,
            100.0 * hi,
            self.sides[0],
            100.0 * w.value(),
            100.0 * w.low,
            100.0 * w.high
        );
        if w.high < lo {
            Some(format!("harder than its band: {meaning}"))
        } else if w.low > hi {
            Some(format!("easier than its band: {meaning}"))
        } else {
            None
        }
    }
}

/// What each FLOW-2 band promises side 0 as a win rate. Engine decision: the seed words each
/// band ("won unless a fatal mistake", "evenly matched", "needs careful tactics", "hopeless
/// without luck") but gives no numbers; these ranges are our reading of those words, wide
/// enough that only a clear contradiction is flagged.
pub fn band_win_range(band: Intensity) -> (f64, f64) {
    match band {
        Intensity::Easy => (0.85, 1.0),
        Intensity::Basic => (0.70, 1.0),
        Intensity::Rival => (0.30, 0.70),
        Intensity::Messy => (0.15, 0.60),
        Intensity::Tough => (0.05, 0.45),
        Intensity::Desperate => (0.0, 0.20),
    }
}

/// How a batch is run.
#[derive(Clone)]
pub struct BatchOptions {
    /// The most battles; the batch plays exactly this many unless `until_half_width` stops it.
    pub runs: usize,
    /// Battle k plays seed `seed + k`.
    pub seed: u64,
    pub jobs: usize,
    /// Stop once every side's win-rate interval is at most ± this (0.03 = ±3 points).
    pub until_half_width: Option<f64>,
    pub ai: AiSetup,
}

/// Fewest battles before an interval may stop a batch: below this Wilson's interval itself is
/// rough, and a lucky start would stop a batch that is not yet precise.
pub const MIN_BATTLES_BEFORE_STOP: usize = 40;
/// The stop rule is looked at after every this many battles.
const STOP_CHECK_EVERY: usize = 10;

/// Play a batch of battles on `jobs` threads. `progress(done, planned)` is called as battles
/// finish; `cancel` stops it early (what was played is returned). The result does not depend on
/// `jobs` or on timing: the stop rule is applied to the first k battles in seed order only, so
/// the same options give the same tally on any machine.
pub fn run_batch(
    level: &LoadedLevel,
    compendium: &Compendium,
    opts: &BatchOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &AtomicBool,
) -> Result<Tally, String> {
    if opts.runs == 0 || opts.runs > 1_000_000 {
        return Err(format!("{} battles asked: the batch plays 1 to 1000000", opts.runs));
    }
    if opts.jobs == 0 || opts.jobs > 256 {
        return Err(format!("{} jobs asked: 1 to 256", opts.jobs));
    }
    if let Some(h) = opts.until_half_width
        && !(h > 0.0 && h < 0.5)
    {
        return Err(format!("an interval of ±{:.1} points asked: give more than 0 and less than 50", 100.0 * h));
    }
    let probe = Battle::new(level, compendium, opts.seed)?;
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // Results by battle index, and the length of the prefix already judged by the stop rule.
    let results: Mutex<(Vec<Option<BattleSummary>>, usize)> = Mutex::new((vec![None; opts.runs], 0));
    let stopped_at = Mutex::new(None::<usize>);
    let failure = Mutex::new(None::<String>);
    let sides = probe.sides().len();
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= opts.runs {
                        return;
                    }
                    let seed = opts.seed.wrapping_add(k as u64);
                    let summary = match play_out(level, compendium, seed, None, &opts.ai) {
                        Ok(p) => summarise(&p, seed),
                        Err(e) => {
                            *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!("seed {seed}: {e}"));
                            stop.store(true, Ordering::Relaxed);
                            return;
                        }
                    };
                    let mut guard = results.lock().unwrap_or_else(|p| p.into_inner());
                    let (slots, judged) = &mut *guard;
                    slots[k] = Some(summary);
                    // Judge every complete prefix of a checkpoint length, in order.
                    while let Some(h) = opts.until_half_width {
                        let next_check = (*judged + STOP_CHECK_EVERY).max(MIN_BATTLES_BEFORE_STOP);
                        if next_check > opts.runs || slots[..next_check].iter().any(Option::is_none) {
                            break;
                        }
                        *judged = next_check;
                        let widest = (0..sides)
                            .map(|s| {
                                let wins = slots[..next_check].iter().filter(|b| b.as_ref().unwrap().winner == Some(s));
                                Rate::new(wins.count(), next_check).half_width()
                            })
                            .fold(0.0, f64::max);
                        if widest <= h {
                            *stopped_at.lock().unwrap_or_else(|p| p.into_inner()) = Some(next_check);
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    drop(guard);
                    let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(done, opts.runs);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let stopped_at = stopped_at.into_inner().unwrap_or_else(|p| p.into_inner());
    let slots = results.into_inner().unwrap_or_else(|p| p.into_inner()).0;
    // Battles past the stopping point were played by threads already under way: dropped, so the
    // tally is the same whatever the timing. A cancelled batch keeps its complete prefix.
    let keep = stopped_at.unwrap_or(opts.runs);
    let battles: Vec<BattleSummary> = slots.into_iter().take(keep).map_while(|b| b).collect();
    Ok(Tally {
        sides: probe.sides().iter().map(|s| s.name.clone()).collect(),
        creatures: probe.creatures().iter().map(|c| (c.name.clone(), c.side)).collect(),
        intensity: probe.intensity_for(0),
        battles,
        stopped_early: stopped_at.is_some(),
    })
}

/// The difference of two win rates and whether it is more than chance: a two-sided test of two
/// proportions (pooled z), significant at 5%.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// b − a, as a proportion.
    pub delta: f64,
    pub p_value: f64,
}

impl Difference {
    pub fn between(a: Rate, b: Rate) -> Difference {
        let delta = b.value() - a.value();
        if a.n == 0 || b.n == 0 {
            return Difference { delta, p_value: 1.0 };
        }
        let pooled = (a.count + b.count) as f64 / (a.n + b.n) as f64;
        let se = (pooled * (1.0 - pooled) * (1.0 / a.n as f64 + 1.0 / b.n as f64)).sqrt();
        let p_value =
            if se == 0.0 { if delta == 0.0 { 1.0 } else { 0.0 } } else { 2.0 * (1.0 - normal_cdf((delta / se).abs())) };
        Difference { delta, p_value: p_value.clamp(0.0, 1.0) }
    }
    pub fn significant(&self) -> bool {
        self.p_value < 0.05
    }
}

/// Φ(x) through erf (Abramowitz & Stegun 7.1.26, error below 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.3275911 * x.abs() / std::f64::consts::SQRT_2);
    let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    let erf = 1.0 - poly * (-(x * x) / 2.0).exp();
    if x >= 0.0 { 0.5 * (1.0 + erf) } else { 0.5 * (1.0 - erf) }
}

#[cfg(test)]
mod tests;
