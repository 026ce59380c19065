//! The editor's balance panel: "how hard is this fight?" answered by playing it. AI-vs-AI
//! battles of the level as it stands run on background threads (every core; the window stays
//! responsive) with live progress, stopping once every side's win rate is known to the asked
//! precision. The answer sits beside the previous one, with the differences and whether they
//! are more than chance: change a creature or the terrain, run again, compare.

use crate::balance::{BatchOptions, Difference, Rate, Tally, run_batch};
use crate::level::LoadedLevel;
use crate::level::compendium::Compendium;
use bevy_egui::egui;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A batch under way on background threads.
struct Running {
    done: Arc<AtomicUsize>,
    cancel: Arc<AtomicBool>,
    result: Arc<Mutex<Option<Result<Tally, String>>>>,
    started: std::time::Instant,
}

/// What the panel asks and has found.
pub struct BalancePanel {
    pub most_battles: usize,
    /// Stop at ± this many points (0: play all `most_battles`).
    pub half_width_points: f64,
    running: Option<Running>,
    pub latest: Option<(Tally, f64)>,
    pub previous: Option<Tally>,
    pub error: Option<String>,
}

impl Default for BalancePanel {
    fn default() -> Self {
        BalancePanel {
            most_battles: 2000,
            half_width_points: 4.0,
            running: None,
            latest: None,
            previous: None,
            error: None,
        }
    }
}

impl BalancePanel {
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Start a batch of the level as it stands.
    pub fn start(&mut self, level: LoadedLevel, compendium: Compendium) {
        self.stop();
        let jobs = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 16);
        let opts = BatchOptions {
            runs: self.most_battles.clamp(1, 100_000),
            seed: 1,
            jobs,
            until_half_width: (self.half_width_points > 0.0).then(|| (self.half_width_points / 100.0).min(0.49)),
            ai: Default::default(),
        };
        let running = Running {
            done: Arc::new(AtomicUsize::new(0)),
            cancel: Arc::new(AtomicBool::new(false)),
            result: Arc::new(Mutex::new(None)),
            started: std::time::Instant::now(),
        };
        let (done, cancel, result) = (running.done.clone(), running.cancel.clone(), running.result.clone());
        std::thread::spawn(move || {
            let tally = run_batch(&level, &compendium, &opts, &|n, _| done.store(n, Ordering::Relaxed), &cancel);
            *result.lock().unwrap_or_else(|p| p.into_inner()) = Some(tally);
        });
        self.running = Some(running);
        self.error = None;
    }

    pub fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Collect a finished batch: the last answer becomes the previous one.
    pub fn poll(&mut self) {
        let Some(r) = &self.running else { return };
        let Some(outcome) = r.result.lock().unwrap_or_else(|p| p.into_inner()).take() else { return };
        let seconds = r.started.elapsed().as_secs_f64();
        self.running = None;
        match outcome {
            Ok(t) if t.n() > 0 => {
                if let Some((old, _)) = self.latest.take() {
                    self.previous = Some(old);
                }
                self.latest = Some((t, seconds));
            }
            Ok(_) => self.error = Some("stopped before any battle was played".into()),
            Err(e) => self.error = Some(e),
        }
    }

    /// Battles played so far by the batch under way.
    pub fn progress(&self) -> Option<usize> {
        self.running.as_ref().map(|r| r.done.load(Ordering::Relaxed))
    }
}

fn pct(r: Rate) -> String {
    format!("{:.1}% [{:.0}–{:.0}]", 100.0 * r.value(), 100.0 * r.low, 100.0 * r.high)
}

/// The panel's contents; `level` gives the level as it stands (None while it does not
/// validate), asked only when a batch starts.
pub fn show(
    ui: &mut egui::Ui,
    panel: &mut BalancePanel,
    valid: bool,
    level: impl FnOnce() -> Option<LoadedLevel>,
    compendium: &Compendium,
) {
    panel.poll();
    ui.horizontal(|ui| {
        ui.label("at most");
        ui.add(egui::DragValue::new(&mut panel.most_battles).range(10..=100_000));
        ui.label("battles, stop at ±");
        ui.add(egui::DragValue::new(&mut panel.half_width_points).range(0.0..=25.0).speed(0.1));
        ui.label("points");
    });
    ui.horizontal(|ui| match (panel.is_running(), valid) {
        (true, _) => {
            if ui.button("Stop").clicked() {
                panel.stop();
            }
        }
        (false, true) => {
            if ui.button("Run the battles").on_hover_text("AI against AI on every core").clicked()
                && let Some(level) = level()
            {
                panel.start(level, compendium.clone());
            }
        }
        (false, false) => {
            ui.add_enabled(false, egui::Button::new("Run the battles"));
            ui.label("(fix the level first)");
        }
    });
    if let Some(done) = panel.progress() {
        let frac = (done as f32 / panel.most_battles.max(1) as f32).min(1.0);
        ui.add(egui::ProgressBar::new(frac).text(format!("{done} battles played")));
        ui.ctx().request_repaint();
    }
    if let Some(e) = &panel.error {
        ui.colored_label(egui::Color32::from_rgb(255, 110, 90), e);
    }
    let Some((t, seconds)) = &panel.latest else { return };
    let stop = if t.stopped_early {
        format!(", stopped at ±{:.1} points", 100.0 * t.widest_half_width())
    } else {
        String::new()
    };
    ui.label(format!("{} battles in {seconds:.1} s{stop}.", t.n()));
    let previous = panel.previous.as_ref();
    egui::Grid::new("balance-wins").num_columns(3).striped(true).show(ui, |ui| {
        ui.strong("");
        ui.strong("now");
        ui.strong(if previous.is_some() { "Δ last run" } else { "" }).on_hover_text(
            "the change in points since the previous run; * when a two-proportion test says it is more than chance",
        );
        ui.end_row();
        for (s, name) in t.sides.iter().enumerate() {
            ui.label(format!("{name} wins"));
            ui.label(pct(t.wins(s)));
            let before = previous.and_then(|p| p.sides.iter().position(|x| x == name).map(|k| p.wins(k)));
            change(ui, before, t.wins(s));
            ui.end_row();
        }
        ui.label("draws");
        ui.label(pct(t.draws()));
        change(ui, previous.map(Tally::draws), t.draws());
        ui.end_row();
    });
    let band = t.intensity.map_or("n/a", |i| i.name());
    ui.label(format!("The rules' estimate (FLOW-2, for {}): {band}", t.sides[0]));
    if let Some(flag) = t.band_disagreement() {
        ui.colored_label(egui::Color32::from_rgb(255, 200, 90), format!("! {flag}"));
    }
    ui.label(format!(
        "Rounds: mean {:.1}, p10 {}, p50 {}, p90 {}",
        t.rounds_mean(),
        t.rounds_quantile(0.1),
        t.rounds_quantile(0.5),
        t.rounds_quantile(0.9)
    ));
    rounds_chart(ui, t);
    egui::CollapsingHeader::new("Per creature").show(ui, |ui| {
        egui::Grid::new("balance-creatures").num_columns(4).striped(true).show(ui, |ui| {
            for h in ["", "down", "dealt", "taken"] {
                ui.strong(h);
            }
            ui.end_row();
            for (c, (name, _)) in t.creatures.iter().enumerate() {
                let (dealt, taken) = t.mean_dealt_taken(c);
                ui.label(name);
                ui.label(format!("{:.0}%", 100.0 * t.down_rate(c).value()));
                ui.label(format!("{dealt:.1}"));
                ui.label(format!("{taken:.1}"));
                ui.end_row();
            }
        });
    });
}

/// "−12.5*" (significant) or "+1.0", the test's verdict on hover.
fn change(ui: &mut egui::Ui, before: Option<Rate>, now: Rate) {
    let Some(before) = before else {
        ui.label("");
        return;
    };
    let d = Difference::between(before, now);
    let star = if d.significant() { "*" } else { "" };
    let verdict = if d.significant() {
        format!("more than chance (p = {:.4})", d.p_value)
    } else {
        format!("within chance (p = {:.2})", d.p_value)
    };
    ui.label(format!("{:+.1}{star}", 100.0 * d.delta)).on_hover_text(format!(
        "{} then, {} now: {verdict}",
        pct(before),
        pct(now)
    ));
}

/// Battles by the round they ended, as bars.
fn rounds_chart(ui: &mut egui::Ui, t: &Tally) {
    let h = t.rounds_histogram();
    let most = h.iter().copied().max().unwrap_or(0).max(1) as f32;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(ui.available_width().min(290.0), 70.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, egui::Color32::from_gray(40));
    let w = rect.width() / h.len().max(1) as f32;
    for (r, &n) in h.iter().enumerate() {
        let height = (rect.height() - 4.0) * n as f32 / most;
        let x = rect.left() + r as f32 * w;
        let bar = egui::Rect::from_min_max(
            egui::pos2(x + 0.5, rect.bottom() - height),
            egui::pos2(x + w - 0.5, rect.bottom()),
        );
        painter.rect_filled(bar, 0.0, egui::Color32::from_rgb(110, 160, 220));
    }
    ui.label(format!("rounds 0 to {} (the tallest bar: {} battles)", h.len().saturating_sub(1), most as usize));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, parse_level};

    fn wait_for(panel: &mut BalancePanel) {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
        while panel.is_running() && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(20));
            panel.poll();
        }
        assert!(!panel.is_running(), "the batch ends");
    }

    // The panel in the background: a run with a sequential stop, then a what-if run of a
    // weaker Company that keeps the first as "previous", the difference significant.
    #[test]
    fn a_what_if_run_keeps_the_previous_answer_beside_the_new_one() {
        let c = builtin_compendium();
        let text = include_str!("../../../levels/skirmish.level.ron");
        let level = parse_level("skirmish", text, c).unwrap();
        let mut panel = BalancePanel { most_battles: 400, half_width_points: 8.0, ..Default::default() };
        panel.start(level.clone(), c.clone());
        assert!(panel.progress().is_some());
        wait_for(&mut panel);
        let (first, _) = panel.latest.clone().expect("an answer");
        assert!(first.stopped_early && first.n() < 400 && first.widest_half_width() <= 0.08);
        assert!(panel.previous.is_none());
        let mut weaker = level.clone();
        weaker.level.creatures.retain(|k| !["Captain Aldo", "Edda", "Bryn"].contains(&k.name.as_str()));
        panel.start(weaker, c.clone());
        wait_for(&mut panel);
        let (now, _) = panel.latest.clone().unwrap();
        let before = panel.previous.clone().expect("the first answer kept");
        assert_eq!(before.battles, first.battles);
        let d = Difference::between(before.wins(0), now.wins(0));
        assert!(d.delta < -0.2 && d.significant(), "{d:?}");
        // Stop ends a run early with what it has (or nothing, said so).
        panel.most_battles = 100_000;
        panel.half_width_points = 0.0;
        panel.start(level, c.clone());
        panel.stop();
        wait_for(&mut panel);
        let stopped_with = panel.latest.as_ref().map(|l| l.0.n());
        assert!(panel.error.is_some() || stopped_with.is_some_and(|n| n < 100_000));
    }
}
