//! `sim` as a GM uses it to judge an encounter: the sequential stop, several variants compared
//! in one table, the chart, and the FLOW-2 band set against the battles.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meshal-tactics"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meshal-balance-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn json(out: &Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_str(&text(&out.stdout)).expect("one JSON object")
}

/// The skirmish without two of the Company's fighters: a clearly harder encounter.
fn weaker_skirmish() -> PathBuf {
    let shipped = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.level.ron")).unwrap();
    let weaker: String = shipped
        .lines()
        .filter(|l| !l.contains("\"Captain Aldo\"") && !l.contains("\"Edda\""))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(weaker.lines().count() + 2, shipped.lines().count());
    let path = scratch("skirmish_weaker.level.ron");
    std::fs::write(&path, weaker).unwrap();
    path
}

#[test]
fn until_ci_stops_once_every_win_rate_is_that_precise() {
    let v = json(&run(&["sim", "levels/skirmish.level.ron", "--until-ci", "6", "--seed", "2", "--json"]));
    let n = v["runs"].as_u64().unwrap();
    assert_eq!(v["stopped_early"], true);
    assert!((40..1000).contains(&n) && n.is_multiple_of(10), "{n} battles");
    for (_, ci) in v["ci95"].as_object().unwrap() {
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!((hi - lo) / 2.0 <= 0.06, "{ci}");
    }
    // The same request gives the same battles, whatever the jobs.
    let one =
        json(&run(&["sim", "levels/skirmish.level.ron", "--until-ci", "6", "--seed", "2", "--json", "--jobs", "1"]));
    assert_eq!(one["runs"], v["runs"]);
    assert_eq!(one["wins"], v["wins"]);
    // A cap it cannot beat: it says it played everything allowed.
    let capped = run(&["sim", "levels/skirmish.level.ron", "--until-ci", "1", "--runs", "30"]);
    assert_eq!(capped.status.code(), Some(0), "{}", text(&capped.stderr));
    assert!(text(&capped.stdout).contains("Played all 30 battles allowed"), "{}", text(&capped.stdout));
    for bad in ["0", "-3", "50", "NaN", "inf", "0.09", "1e-300", "1e300"] {
        let out = run(&["sim", "levels/skirmish.level.ron", &format!("--until-ci={bad}")]);
        assert_eq!(out.status.code(), Some(2), "--until-ci {bad}");
        let err = text(&out.stderr);
        assert!(err.contains("--until-ci") && err.contains("at least 0.1"), "{err}");
        // A number as written by a person, not three hundred digits.
        assert!(err.len() < 200, "{err}");
    }
}

#[test]
fn several_levels_print_one_comparison_with_significance() {
    let weaker = weaker_skirmish();
    let w = weaker.to_str().unwrap();
    let out = run(&["sim", "levels/skirmish.level.ron", w, "--runs", "80", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let table = &stdout[stdout.find("Comparison against 1").expect("a comparison table")..];
    let row = table.lines().find(|l| l.contains("skirmish_weaker.level.ron")).expect("a row for the variant");
    // The Company loses much more often without two fighters: a negative, significant change.
    let company = &row[row.find('[').unwrap()..];
    assert!(company.contains("] -") && company.split_whitespace().nth(1).unwrap().ends_with('*'), "{row}");
    let v = json(&run(&["sim", "levels/skirmish.level.ron", w, "--runs", "80", "--seed", "1", "--json"]));
    assert_eq!(v["levels"].as_array().unwrap().len(), 2);
    let company = v["comparison"].as_array().unwrap().iter().find(|c| c["side"] == "Company").unwrap();
    assert!(company["delta"].as_f64().unwrap() < -0.15 && company["significant"] == true, "{company}");
    // The JSON agrees with the counts it reports.
    let (a, b) = (&v["levels"][0], &v["levels"][1]);
    let rate = |l: &serde_json::Value| l["wins"]["Company"].as_f64().unwrap() / l["runs"].as_f64().unwrap();
    assert!((company["delta"].as_f64().unwrap() - (rate(b) - rate(a))).abs() < 1e-12);
    // A broken file anywhere in the list fails before any battle is played, naming the file.
    let broken = scratch("broken.level.ron");
    std::fs::write(&broken, "(name: \"x\",\n  map: oops").unwrap();
    let out = run(&["sim", "levels/skirmish.level.ron", broken.to_str().unwrap(), "--runs", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("broken.level.ron:2:"), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "nothing reported before the error");
}

#[test]
fn the_band_is_flagged_when_the_battles_contradict_it() {
    // RULES: FLOW-2 — the skirmish's strength gap puts it in "Rival" (evenly matched), yet the
    // Company wins ~90%: the report says so.
    let v = json(&run(&["sim", "levels/skirmish.level.ron", "--runs", "100", "--json"]));
    assert_eq!(v["intensity"], "Rival");
    let flag = v["band_disagreement"].as_str().expect("flagged");
    assert!(flag.starts_with("easier than its band"), "{flag}");
    // Per creature: down rates and damage, the Pack's dealt equal to what the Company took.
    let creatures = v["creatures"].as_array().unwrap();
    assert_eq!(creatures.len(), 14);
    let sum = |side: &str, key: &str| {
        creatures.iter().filter(|c| c["side"] == side).map(|c| c[key].as_f64().unwrap()).sum::<f64>()
    };
    let all = |key: &str| sum("Pack", key) + sum("Company", key);
    assert!((all("dealt_mean") - all("taken_mean")).abs() < 1e-9, "every die dealt was taken by someone");
    assert!(sum("Company", "dealt_mean") > sum("Pack", "dealt_mean"));
    let hist: u64 = v["rounds_histogram"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum();
    assert_eq!(hist, 100);
}

/// Pixels of exactly this colour.
fn count(rgb: &[u8], colour: [u8; 3]) -> usize {
    rgb.chunks(3).filter(|p| *p == colour).count()
}

#[test]
fn the_plot_draws_bars_as_tall_as_the_win_rates() {
    let png_path = scratch("chart.png");
    let v = json(&run(&[
        "sim",
        "levels/skirmish.level.ron",
        "--runs",
        "60",
        "--json",
        "--plot",
        png_path.to_str().unwrap(),
    ]));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png_path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1200, 520));
    let rgb = &buf[..info.buffer_size()];
    // Bars are the side colours at 75% over white, all of one width: their areas go as the rates.
    let blend = |c: [u8; 3]| c.map(|x| (x as f64 * 0.75 + 255.0 * 0.25).round() as u8);
    let company = count(rgb, blend([52, 101, 164])) as f64;
    let pack = count(rgb, blend([204, 0, 0])) as f64;
    let (cw, pw) = (v["wins"]["Company"].as_f64().unwrap(), v["wins"]["Pack"].as_f64().unwrap());
    assert!(company > 1000.0, "a Company bar is drawn ({company} pixels)");
    if pw > 0.0 {
        let ratio = company / pack;
        assert!((ratio / (cw / pw) - 1.0).abs() < 0.25, "bar areas {company}/{pack} against wins {cw}/{pw}");
    }
    // A place it cannot write: a clear error, and no file left behind or damaged.
    let dir = scratch("a_directory");
    std::fs::create_dir_all(&dir).unwrap();
    let out = run(&["sim", "levels/duel.level.ron", "--runs", "2", "--plot", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a_directory"), "{}", text(&out.stderr));
    assert!(dir.is_dir());
}

// The seeds of a batch count on past the largest and start again from 0, and the report says
// so rather than print a range that runs backwards.
#[test]
fn seeds_past_the_largest_count_on_from_zero() {
    let out = run(&["sim", "levels/duel.level.ron", "--seed", "18446744073709551615", "--runs", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("seeds 18446744073709551615..0, counting on from 0 past the largest seed"), "{report}");
    let plain = text(&run(&["sim", "levels/duel.level.ron", "--seed", "7", "--runs", "2"]).stdout);
    assert!(plain.contains("2 AI-vs-AI battles, seeds 7..8\n"), "{plain}");
}
