use super::*;
use crate::level::{builtin_compendium, parse_level};
use crate::rules::flow::intensity;

fn summary(winner: Option<usize>, rounds: u32) -> BattleSummary {
    BattleSummary {
        seed: 0,
        winner,
        rounds,
        down: vec![],
        dealt_taken: vec![],
        ai_rejections: 0,
        ai_fallbacks: 0,
        passive: false,
    }
}

fn tally(intensity: Option<Intensity>, side0_wins: usize, side1_wins: usize, draws: usize) -> Tally {
    let mut battles = Vec::new();
    battles.extend((0..side0_wins).map(|_| summary(Some(0), 5)));
    battles.extend((0..side1_wins).map(|_| summary(Some(1), 7)));
    battles.extend((0..draws).map(|_| summary(None, 40)));
    Tally {
        sides: vec!["Party".into(), "Monsters".into()],
        creatures: vec![],
        intensity,
        battles,
        stopped_early: false,
    }
}

#[test]
fn wilson_and_the_two_proportion_test_match_hand_computed_figures() {
    // 50 of 100: p = 0.5, z = 1.96: centre 0.5, half 0.0960 (Wilson, by hand).
    let r = Rate::new(50, 100);
    assert!((r.low - 0.4038).abs() < 1e-3 && (r.high - 0.5962).abs() < 1e-3, "{r:?}");
    assert!((normal_cdf(1.959964) - 0.975).abs() < 1e-6);
    assert!((normal_cdf(-1.0) - 0.158655).abs() < 1e-6);
    // 40/100 against 60/100: pooled 0.5, se = sqrt(0.25 × 0.02) = 0.07071, z = 2.828, p = 0.00468.
    let d = Difference::between(Rate::new(40, 100), Rate::new(60, 100));
    assert!((d.delta - 0.2).abs() < 1e-12);
    assert!((d.p_value - 0.00468).abs() < 1e-4, "{d:?}");
    assert!(d.significant());
    // 48/100 against 52/100: z = 0.566, p = 0.571: not significant.
    let d = Difference::between(Rate::new(48, 100), Rate::new(52, 100));
    assert!((d.p_value - 0.5716).abs() < 1e-3, "{d:?}");
    assert!(!d.significant());
    // Identical certainties differ by nothing; a certain flip is certain.
    assert_eq!(Difference::between(Rate::new(10, 10), Rate::new(20, 20)).p_value, 1.0);
    assert!(Difference::between(Rate::new(0, 10), Rate::new(20, 20)).p_value < 1e-6);
}

#[test]
fn flow_2_band_disagreement_for_a_hand_computed_strength_gap() {
    // RULES: FLOW-2 — enemy strength 120 against two PCs of 30 each: gap (120 − 60) / 2 = 30,
    // "Messy" (30 to 59), which means a win rate of 15–60% for the party.
    let band = intensity(120, 60, 2);
    assert_eq!(band, Some(Intensity::Messy));
    // The party won 95 of 100: the interval (89–98%) lies above the band: flagged as easier.
    let easy = tally(band, 95, 5, 0);
    let flag = easy.band_disagreement().expect("flagged");
    assert!(flag.starts_with("easier than its band") && flag.contains("Messy") && flag.contains("95.0%"), "{flag}");
    // 40 of 100 fits "somewhat hard": no flag.
    assert_eq!(tally(band, 40, 60, 0).band_disagreement(), None);
    // Gap −50 (Easy) yet the party won 50%: harder than its band.
    let band = intensity(0, 200, 4);
    assert_eq!(band, Some(Intensity::Easy));
    assert!(tally(band, 50, 50, 0).band_disagreement().unwrap().starts_with("harder than its band"));
    // Ten battles are too few to contradict anything but the extremes.
    assert_eq!(tally(intensity(30, 0, 1), 7, 3, 0).band_disagreement(), None);
    // No friendly side, no band, no flag.
    assert_eq!(tally(None, 100, 0, 0).band_disagreement(), None);
}

#[test]
fn tally_figures_from_its_battles() {
    let t = tally(None, 6, 3, 1);
    assert_eq!(t.n(), 10);
    assert_eq!((t.wins(0).count, t.wins(1).count, t.draws().count), (6, 3, 1));
    assert_eq!(t.rounds_histogram()[5], 6);
    assert_eq!(t.rounds_histogram()[7], 3);
    assert_eq!(t.rounds_histogram().len(), 41);
    assert_eq!(t.rounds_quantile(0.0), 5);
    assert_eq!(t.rounds_quantile(1.0), 40);
    assert!((t.rounds_mean() - (30.0 + 21.0 + 40.0) / 10.0).abs() < 1e-12);
}

fn skirmish() -> LoadedLevel {
    let text = include_str!("../../levels/skirmish.level.ron");
    parse_level("skirmish.level.ron", text, builtin_compendium()).expect("the skirmish loads")
}

#[test]
fn a_sequential_batch_stops_at_the_first_checkpoint_narrow_enough_whatever_the_jobs() {
    let level = skirmish();
    let opts = |jobs| BatchOptions { runs: 1000, seed: 3, jobs, until_half_width: Some(0.08), ai: AiSetup::default() };
    let never = AtomicBool::new(false);
    let calls = AtomicUsize::new(0);
    let one = run_batch(
        &level,
        builtin_compendium(),
        &opts(1),
        &|_, _| {
            calls.fetch_add(1, Ordering::Relaxed);
        },
        &never,
    )
    .unwrap();
    let two = run_batch(&level, builtin_compendium(), &opts(2), &|_, _| {}, &never).unwrap();
    assert!(one.stopped_early);
    let n = one.n();
    assert!(n >= MIN_BATTLES_BEFORE_STOP && n.is_multiple_of(STOP_CHECK_EVERY) && n < 1000, "{n}");
    assert!(one.widest_half_width() <= 0.08);
    // It stopped at the first checkpoint that was narrow enough, not later.
    if n > MIN_BATTLES_BEFORE_STOP {
        let earlier = Tally { battles: one.battles[..n - STOP_CHECK_EVERY].to_vec(), ..one.clone() };
        assert!(earlier.widest_half_width() > 0.08);
    }
    assert_eq!(one.battles, two.battles, "the tally does not depend on the threads");
    assert_eq!(calls.load(Ordering::Relaxed), n, "one progress call a battle");
    // Battle k played seed 3 + k.
    assert!(one.battles.iter().enumerate().all(|(k, b)| b.seed == 3 + k as u64));
}

#[test]
fn a_cancelled_batch_returns_what_it_played_and_absurd_options_are_refused() {
    let level = skirmish();
    let cancel = AtomicBool::new(false);
    let opts = BatchOptions { runs: 500, seed: 1, jobs: 1, until_half_width: None, ai: AiSetup::default() };
    let t = run_batch(
        &level,
        builtin_compendium(),
        &opts,
        &|done, _| {
            if done == 7 {
                cancel.store(true, Ordering::Relaxed);
            }
        },
        &cancel,
    )
    .unwrap();
    assert_eq!(t.n(), 7);
    for bad in [
        BatchOptions { runs: 0, ..opts.clone() },
        BatchOptions { jobs: 0, ..opts.clone() },
        BatchOptions { until_half_width: Some(0.0), ..opts.clone() },
        BatchOptions { until_half_width: Some(f64::NAN), ..opts.clone() },
        BatchOptions { until_half_width: Some(0.7), ..opts.clone() },
    ] {
        assert!(run_batch(&level, builtin_compendium(), &bad, &|_, _| {}, &AtomicBool::new(false)).is_err());
    }
}

#[test]
fn what_if_a_weaker_side_shows_as_a_significant_difference() {
    // The skirmish as shipped, then with the Company's three front fighters left at home.
    let before = skirmish();
    let mut weaker = before.clone();
    let gone = ["Captain Aldo", "Bryn", "Edda"];
    weaker.level.creatures.retain(|c| !gone.contains(&c.name.as_str()));
    assert_eq!(weaker.level.creatures.len() + 3, before.level.creatures.len());
    let company = before.level.sides.iter().position(|s| s.name == "Company").expect("a Company side");
    let opts = BatchOptions { runs: 60, seed: 1, jobs: 2, until_half_width: None, ai: AiSetup::default() };
    let never = AtomicBool::new(false);
    let a = run_batch(&before, builtin_compendium(), &opts, &|_, _| {}, &never).unwrap();
    let b = run_batch(&weaker, builtin_compendium(), &opts, &|_, _| {}, &never).unwrap();
    let d = Difference::between(a.wins(company), b.wins(company));
    assert!(d.delta < -0.2 && d.significant(), "{:?} → {:?}: {d:?}", a.wins(company), b.wins(company));
    // And the same level twice is the same tally: no difference at all.
    let again = run_batch(&before, builtin_compendium(), &opts, &|_, _| {}, &never).unwrap();
    assert_eq!(Difference::between(a.wins(company), again.wins(company)).delta, 0.0);
}
