//! The headless commands as a user runs them: check, run, replay, sim, and the default with no
//! display.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_meshal-tactics"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meshal-battle-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn every_shipped_level_checks() {
    let mut args = vec!["check".to_string()];
    let mut n = 0;
    for e in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("levels")).unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().ends_with(".level.ron") {
            args.push(p.to_string_lossy().into_owned());
            n += 1;
        }
    }
    assert!(n >= 5, "at least five playable levels");
    let out = bin().args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().filter(|l| l.starts_with("ok")).count(), n);
}

#[test]
fn check_rejects_broken_levels_precisely() {
    let cases = [
        ("unknown_character", "7:17: unknown terrain character 'Q'"),
        ("unknown_creature", "30:31: creature \"Red Duelist\": unknown compendium entry \"dragon\""),
        ("overlapping", "30:71: creature \"Red Duelist\" overlaps \"Red Fighter\" at 9,4"),
        ("on_a_wall", "27:73: creature \"Blue Fighter\" stands on wall at 0,4"),
        ("syntax_error", "14:14: RON syntax"),
        ("ragged_row", "7:10: map row 3 has 13 columns; the first row has 12"),
        ("too_large", "4:5: map is 300×8; it must be 1×1 to 256×256"),
        ("unknown_side", "29:58: creature \"Red Fighter\": unknown side \"Green\""),
    ];
    for (name, want) in cases {
        let file = format!("tests/fixtures/broken/{name}.level.ron");
        let before = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(&file)).unwrap();
        let out = run(&["check", &file]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = text(&out.stderr);
        assert!(err.contains(&format!("{file}:{want}")), "{name}: {err}");
        let after = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(&file)).unwrap();
        assert_eq!(before, after, "checking never touches the file");
    }
    let out = run(&["check", "no/such.level.ron"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no/such.level.ron: cannot read"));
}

#[test]
fn same_level_seed_and_commands_give_the_same_log_byte_for_byte() {
    let (a, b, c) = (scratch("a.jsonl"), scratch("b.jsonl"), scratch("c.jsonl"));
    for (p, seed) in [(&a, "11"), (&b, "11"), (&c, "12")] {
        let out = run(&["run", "levels/skirmish.level.ron", "--seed", seed, "--log", p.to_str().unwrap(), "--quiet"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let (a, b, c) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap(), std::fs::read(c).unwrap());
    assert!(a.len() > 10_000);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn replay_verifies_and_reports_the_first_divergence() {
    let log = scratch("replay.jsonl");
    let out = run(&["run", "levels/duel.level.ron", "--seed", "3", "--log", log.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(0));
    let out = run(&["replay", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("replay ok:"));

    // Change one die in the middle of the log: the replay must point at exactly that event.
    let original = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = original.lines().collect();
    let at = lines.iter().position(|l| l.contains("\"Rolled\"") && l.contains("\"faces\":[")).unwrap();
    let tampered_line = lines[at].replacen("\"faces\":[", "\"faces\":[9,", 1);
    let mut tampered: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    tampered[at] = tampered_line;
    let bad = scratch("tampered.jsonl");
    std::fs::write(&bad, tampered.join("\n")).unwrap();
    let out = run(&["replay", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(&format!("replay diverges at event {at}")), "{}", text(&out.stderr));

    let junk = scratch("junk.jsonl");
    std::fs::write(&junk, "not json\n").unwrap();
    let out = run(&["replay", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("junk.jsonl:1: not a log entry"));

    // One entry naming a million sides (a 240 MB line of them took 4 GB to parse): refused by
    // its length before it is parsed.
    let wide = scratch("wide.jsonl");
    let names = vec!["\"x\""; 400_000].join(",");
    std::fs::write(&wide, format!("{}\n{{\"seq\":1,\"visible_to\":[{names}]}}\n", lines[0])).unwrap();
    let out = run(&["replay", wide.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("wide.jsonl:2: a line of 1600"), "{}", text(&out.stderr));
}

/// A side's log (`run --side S --log`) holds only the events S saw, so the other sides' commands
/// are not in it: `replay` says so instead of reporting a divergence at the first unseen event.
/// A whole log with an entry cut out is a divergence at the first missing event.
#[test]
fn replay_tells_a_sides_view_and_a_cut_log_from_a_divergence() {
    let pack = scratch("pack_view.jsonl");
    let out = run(&["run", "levels/skirmish.level.ron", "--side", "Pack", "--log", pack.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&["replay", pack.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(said.contains("this log holds only what Pack saw"), "{said}");
    assert!(said.contains("`run --log` without `--side`"), "{said}");
    assert!(!said.contains("diverges"), "{said}");

    let whole = scratch("whole_to_cut.jsonl");
    let out = run(&["run", "levels/skirmish.level.ron", "--log", whole.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let original = std::fs::read_to_string(&whole).unwrap();
    let mut lines: Vec<&str> = original.lines().collect();
    let at = lines.iter().position(|l| l.contains("\"RoundStarted\"")).unwrap();
    lines.remove(at);
    let cut = scratch("cut.jsonl");
    std::fs::write(&cut, lines.join("\n")).unwrap();
    let out = run(&["replay", cut.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(
        said.contains(&format!("replay diverges at event {at}: the log's entry {at} is numbered {}", at + 1)),
        "{said}"
    );
}

// RULES: TIME-7, ATK-11 — a scripted side plays exactly its script; its log shows the commands
// and the engine's answers.
#[test]
fn run_with_a_command_script() {
    let script = scratch("script.ron");
    std::fs::write(
        &script,
        r#"[
            (actor: "Blue Fighter", command: Face(facing: N)),
            (actor: "Blue Fighter", command: Attack(weapon: "sword", target: Creature(2), additives: [])),
            (actor: "Blue Fighter", command: EndTurn),
        ]"#,
    )
    .unwrap();
    let log = scratch("script.jsonl");
    let out = run(&[
        "run",
        "levels/duel.level.ron",
        "--seed",
        "4",
        "--commands",
        script.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = std::fs::read_to_string(log).unwrap();
    assert!(log.contains(r#"{"CommandAccepted":{"creature":0,"command":{"Face":{"facing":"N"}}}}"#));
    // The sword cannot reach across the field: rejected with its rule, nothing changed.
    assert!(log.contains(r#""rule":"ATK-4""#), "the out-of-reach attack is rejected");
    let bad = scratch("bad_script.ron");
    std::fs::write(&bad, r#"[(actor: "Nobody", command: EndTurn)]"#).unwrap();
    let out = run(&["run", "levels/duel.level.ron", "--commands", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown creature \"Nobody\""));
    // A move of 180,000 squares was refused when played, but `run` logged it on a line too
    // long for `replay`: such a command is refused with the script, where it is written.
    let path = vec!["(x: 2, y: 4), (x: 3, y: 4)"; 3000].join(", ");
    std::fs::write(&bad, format!("[\n (actor: \"Blue Fighter\", command: EndTurn),\n (actor: \"Blue Fighter\", command: Move(path: [{path}])),\n]")).unwrap();
    let out = run(&["run", "levels/duel.level.ron", "--commands", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains(":3:3: entry 2: a command of 84046 bytes") && err.contains("bytes as the log writes it"),
        "{err}"
    );
}

#[test]
fn sim_json_has_the_documented_fields() {
    let out = run(&["sim", "levels/duel.level.ron", "--runs", "40", "--seed", "5", "--jobs", "2", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(v["runs"], 40);
    let wins = v["wins"]["Blue"].as_u64().unwrap() + v["wins"]["Red"].as_u64().unwrap();
    assert_eq!(wins + v["draws"].as_u64().unwrap(), 40);
    assert!(v["rounds_mean"].as_f64().unwrap() >= 1.0);
    assert_eq!(v["intensity"], "Rival");
    assert_eq!(v["ai_rejections"], 0);
    assert_eq!(v["ai_fallbacks"], 0);
    assert_eq!(v["passive_under_fire"], 0, "two duellists never wait under fire");
    // The same seeds give the same result with one job or two.
    let one = run(&["sim", "levels/duel.level.ron", "--runs", "40", "--seed", "5", "--jobs", "1", "--json"]);
    let v1: serde_json::Value = serde_json::from_str(&text(&one.stdout)).unwrap();
    assert_eq!(v1["wins"], v["wins"]);
    assert_eq!(v1["rounds_mean"], v["rounds_mean"]);
    assert_eq!(v1["passive_under_fire"], v["passive_under_fire"]);
}

#[test]
fn default_run_without_display_falls_back_to_a_headless_report() {
    let out = bin().env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no display found"));
    let report = text(&out.stdout);
    assert!(report.contains("Skirmish at the Quarry"));
    assert!(report.contains("Battle over:"));
    assert!(report.contains("Standing at the end:"));
}

// The fallback plays the battle asked for: the seed and the AI profiles given to `play` (it
// took a seed from the clock and the levels' own profiles) — the same report as `run` gives.
#[test]
fn the_headless_fallback_keeps_the_seed_and_profiles_asked_for() {
    let args = ["levels/duel.level.ron", "--seed", "5", "--ai", "easy"];
    let play = bin().arg("play").args(args).env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").output().unwrap();
    assert_eq!(play.status.code(), Some(0), "{}", text(&play.stderr));
    assert!(text(&play.stderr).contains("run levels/duel.level.ron --seed 5 --ai easy"), "{}", text(&play.stderr));
    let run = bin().arg("run").args(args).output().unwrap();
    assert_eq!(text(&play.stdout), text(&run.stdout));
    let normal = bin().args(["run", "levels/duel.level.ron", "--seed", "5"]).output().unwrap();
    assert_ne!(text(&run.stdout), text(&normal.stdout), "the profile changes the battle");
}

// A creature marked `controller: Some(Human)` is played by the AI where nobody plays: `run`
// stopped at its first turn (exit 0, no end) and `sim` counted every battle a draw.
#[test]
fn a_creature_marked_for_a_person_is_played_by_the_ai_headless() {
    let level = scratch("human_creature.level.ron");
    std::fs::write(
        &level,
        r#"(name: "Marked", map: [".....", ".....", "....."], legend: { '.': "floor" }, terrains: { "floor": () },
            sides: [(name: "A"), (name: "B")],
            creatures: [
                (name: "a", template: "human_fighter", side: "A", at: (0, 0), facing: E, controller: Some(Human)),
                (name: "b", template: "human_fighter", side: "B", at: (4, 0), facing: W),
            ],
            max_rounds: 10)"#,
    )
    .unwrap();
    let out = run(&["run", level.to_str().unwrap(), "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("Battle over:") && report.contains("a attacks b"), "{report}");
}

#[test]
fn play_refuses_bad_arguments_with_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 5] = [
        (&["play", "levels/duel.level.ron", "--screenshot", "/nonexistent/x.png"], "no such directory"),
        (&["play", "levels/duel.level.ron", "--side", "Green"], "has no side \"Green\" (sides: Blue, Red)"),
        (&["play", "levels/duel.level.ron", "--hover", "40,2"], "--hover 40,2 is off the"),
        (&["play", "levels/nope.level.ron"], "nope.level.ron"),
        (&["play", "levels/duel.level.ron", "--screenshot", "x.png"], "--screenshot needs a display"),
    ];
    for (args, expected) in cases {
        let out = bin().args(args).env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").output().unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: no report");
    }
}

#[test]
fn the_readme_script_example_is_a_valid_script() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme.find("```ron\n").expect("a RON example") + "```ron\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let script = scratch("readme_script.ron");
    std::fs::write(&script, &readme[start..end]).unwrap();
    let out = run(&["run", "levels/duel.level.ron", "--commands", script.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn duel_json_is_mirrored_and_documented() {
    let out = run(&["duel", "levels/duel.level.ron", "--a", "default", "--b", "baseline", "--runs", "40", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(v["runs"], 40);
    let (a, b, d) = (v["a_wins"].as_u64().unwrap(), v["b_wins"].as_u64().unwrap(), v["draws"].as_u64().unwrap());
    assert_eq!(a + b + d, 40);
    assert!((v["a_win_rate"].as_f64().unwrap() - a as f64 / 40.0).abs() < 1e-12);
    assert_eq!(v["ai_fallbacks"], 0);
    let ci = v["ci95"].as_array().unwrap();
    assert!(
        ci[0].as_f64().unwrap() <= v["a_win_rate"].as_f64().unwrap()
            && v["a_win_rate"].as_f64().unwrap() <= ci[1].as_f64().unwrap()
    );
    // A profile against itself, mirrored: every seed is played both ways, so exactly half.
    let same = run(&["duel", "levels/duel.level.ron", "--a", "baseline", "--b", "baseline", "--runs", "20", "--json"]);
    let s: serde_json::Value = serde_json::from_str(&text(&same.stdout)).unwrap();
    assert_eq!(s["a_wins"], s["b_wins"]);
    let bad = run(&["duel", "levels/duel.level.ron", "--a", "genius", "--b", "baseline"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("unknown AI profile 'genius'"));
}

/// A level file in the scratch directory.
fn level_file(name: &str, text: &str) -> PathBuf {
    let p = scratch(name);
    std::fs::write(&p, text).unwrap();
    p
}

// Inputs without a size (devices, pipes) are read with a bound, and refused at once when they
// are devices: `check /dev/zero` used to grow without bound.
#[test]
fn devices_and_pipes_are_refused_or_bounded() {
    let started = std::time::Instant::now();
    for args in [
        &["check", "/dev/zero"][..],
        &["run", "/dev/urandom"],
        &["replay", "/dev/zero"],
        &["run", "levels/duel.level.ron", "--commands", "/dev/zero"],
        &["--compendium", "/dev/zero", "check", "levels/duel.level.ron"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("is a device"), "{args:?}: {}", text(&out.stderr));
    }
    // A named pipe nobody writes to: read as empty, not waited on.
    let fifo = scratch("nobody.level.ron");
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let out = run(&["check", fifo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("empty"), "{}", text(&out.stderr));
    // A writer holds it open (read-write: that open never waits) and never writes: given up on
    // after PIPE_IDLE_SECONDS (10 s), where it used to hang for good.
    let mut writer =
        Command::new("sh").arg("-c").arg(format!("exec 3<>'{}'; sleep 60", fifo.display())).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let out = run(&["check", fifo.to_str().unwrap()]);
    let _ = writer.kill();
    let _ = writer.wait();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("sent nothing for 10 s"), "{}", text(&out.stderr));
    assert!(started.elapsed().as_secs() < 40, "nothing hangs");
}

// `run --log` writes through an exclusively created temporary file: a symlink planted at the
// old predictable name is never followed, and a failed write leaves the old log whole.
#[test]
fn run_log_never_follows_a_planted_symlink() {
    let dir = scratch("symlink-dir");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let log = dir.join("duel.jsonl");
    std::os::unix::fs::symlink(&victim, dir.join("duel.jsonl.tmp")).unwrap();
    let out = run(&["run", "levels/duel.level.ron", "--seed", "7", "--quiet", "--log", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::read_to_string(&log).unwrap().starts_with(r#"{"seq":0"#));
    // The log's place is a directory now: the write fails, saying where, and leaves no debris.
    let out = run(&["run", "levels/duel.level.ron", "--quiet", "--log", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is a directory"), "{}", text(&out.stderr));
    let debris = std::fs::read_dir(&dir).unwrap().filter(|e| {
        let n = e.as_ref().unwrap().file_name().to_string_lossy().into_owned();
        n.ends_with(".tmp") && n != "duel.jsonl.tmp"
    });
    assert_eq!(debris.count(), 0);
}

// Names from files reach the terminal escaped: a creature named with terminal control codes
// cannot clear the screen or forge lines of the report.
#[test]
fn names_from_files_are_escaped_on_the_terminal() {
    let evil = include_str!("../levels/duel.level.ron")
        .replace("\"Blue Fighter\"", "\"Blue\\u{1b}[2J\\nFighter\"")
        .replace("name: \"Duel at the Ford\"", "name: \"Ford\\u{7}\"");
    let p = level_file("evil.level.ron", &evil);
    for args in [&["check", p.to_str().unwrap()][..], &["run", p.to_str().unwrap(), "--seed", "2"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let all = [out.stdout.clone(), out.stderr.clone()].concat();
        assert!(!all.contains(&0x1b) && !all.contains(&0x07), "{args:?}: a raw control character reached the terminal");
        assert!(text(&out.stdout).contains("\\u{7}"), "{}", text(&out.stdout));
    }
    let report = text(&run(&["run", p.to_str().unwrap(), "--seed", "2"]).stdout);
    assert!(report.contains("Blue\\u{1b}[2J\\u{a}Fighter"), "the line break is shown, not made");
    // Errors that quote the file are escaped too.
    let bad =
        evil.replace("template: \"human_fighter\", side: \"Blue\"", "template: \"\\u{1b}]0;pwned\", side: \"Blue\"");
    let p = level_file("evil2.level.ron", &bad);
    let out = run(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.contains(&0x1b), "{}", text(&out.stderr));
}

// RULES: PERC-3 — `run --side` reports only what that side perceives: a creature of the other
// side it never saw is "unseen", its pools not shown, and the other side's AI reasoning is not
// printed.
#[test]
fn the_side_report_shows_only_what_the_side_knows() {
    let level = r#"(
        name: "Sealed room",
        map: [
            "WWWWWWWWWW",
            "W...W....W",
            "W...W....W",
            "WWWWWWWWWW",
        ],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "Blue"), (name: "Red")],
        creatures: [
            (name: "Prisoner", template: "human_fighter", side: "Blue", at: (1, 1)),
            (name: "Guard", template: "human_fighter", side: "Red", at: (6, 1)),
            (name: "Warden", template: "human_fighter", side: "Red", at: (2, 2)),
        ],
        max_rounds: 2,
    )"#;
    let p = level_file("sealed.level.ron", level);
    let out = run(&["run", p.to_str().unwrap(), "--seed", "3", "--side", "Blue", "--explain"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let end_line =
        |r: &str| r.lines().find(|l| l.trim_start().starts_with("Guard ") && l.contains("M/A/S")).map(String::from);
    let guard = end_line(&report).expect(&report);
    assert!(guard.contains("unseen") && guard.contains("M/A/S ? ? ?"), "{guard}");
    assert!(!report.contains("Guard weighs"), "Red's AI reasoning stays Red's: {report}");
    let full = text(&run(&["run", p.to_str().unwrap(), "--seed", "3"]).stdout);
    let guard = end_line(&full).unwrap();
    assert!(guard.contains("standing") && guard.contains("4/4"), "{guard}");
}

// The difficulty ladder, measured as a GM would (`duel`, mirrored seeds): each rung beats the
// one below it with a 95% interval wholly above one half, normal beats easy 60% of the time.
// (Per level figures: README.)
#[test]
fn the_difficulty_ladder_is_ordered() {
    // The Wolf Den (a pack against a party) held only the first two rungs before `easy` changed;
    // in the dark `normal` beat `easy` 53.4% of the time (1,000 duels) until `easy` stopped
    // weighing the blows that can finish a foe.
    let levels = ["duel", "skirmish", "wolf_den", "darkness"];
    for level in levels.map(|l| format!("levels/{l}.level.ron")) {
        let level = level.as_str();
        for (a, b) in [("easy", "baseline"), ("normal", "easy"), ("normal", "baseline")] {
            // 2,000 duels: `easy`'s edge over the baseline in the Wolf Den is about 5 points
            // (54.8%, 53.4–56.1, in 5,000 duels), within the ±5 of 400.
            let out = run(&["duel", level, "--a", a, "--b", b, "--runs", "2000", "--seed", "3", "--json"]);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
            let low = v["ci95"][0].as_f64().unwrap();
            assert!(low > 0.5, "{level}: {a} vs {b}: {} (95% from {low})", v["a_win_rate"]);
            // Issue 9's step between the planner's rungs: 60% (README: it holds on 16 of the 18
            // levels).
            if (a, b) == ("normal", "easy") {
                assert!(v["a_win_rate"].as_f64().unwrap() >= 0.6, "{level}: normal vs easy {}", v["a_win_rate"]);
            }
            assert_eq!(v["ai_fallbacks"], 0);
        }
    }
}

/// `sim LEVEL` of two `normal` sides, 400 battles: at most 20 draws (5%), rounds p90 under `p90`.
fn assert_no_standoff(level: &str, p90: u64) {
    let out = run(&["sim", level, "--runs", "400", "--seed", "1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert!(v["draws"].as_u64().unwrap() <= 20, "{level}: draws {}", v["draws"]);
    assert!(v["rounds_p90"].as_u64().unwrap() < p90, "{level}: p90 {}", v["rounds_p90"]);
}

// No standoff at a choke point: two equal bands in a corridor one square wide, the fallen
// blocking it, settle the fight (at most 5% draws over 400 battles). It was 10.4% (and p90 at
// the 40-round limit) while a square one turn from a strike outscored a square to strike from
// for a side whose boldness had grown.
#[test]
fn no_standoff_at_the_crossing() {
    assert_no_standoff("levels/the_crossing.level.ron", 40);
}

// No standoff at a held bridge (issue 9's "no passive stalemates"): two `normal` sides out of
// each other's reach end at most 5% of 400 battles in draws, p90 under 24 rounds. It was 10.6%
// (p90 30) while a strike two or three turns away was discounted per turn and waiting one
// square short scored as well as closing in; a stall now pays for every step nearer a strike.
#[test]
fn no_standoff_at_the_bridge() {
    assert_no_standoff("levels/the_bridge.level.ron", 24);
}

/// `sim LEVEL` of two `normal` sides, 200 battles (seed 11): at most `most` battles in which a
/// side took damage two rounds running without moving, attacking, hiding or trying to flee.
fn assert_few_passive(level: &str, most: u64) {
    let out = run(&["sim", level, "--runs", "200", "--seed", "11", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let passive = v["passive_under_fire"].as_u64().unwrap();
    assert!(passive <= most, "{level}: {passive} of 200 battles with a side waiting under fire");
}

// Issue 9's "a side under fire it cannot answer moves": measured 1, 1, 9 and 9 of 200 (eleventh
// session); 31, 40, 46 and 26 before a flee attempt with no chance was given up for a fight and
// unanswered fire was weighed for three rounds instead of one.
#[test]
fn few_sides_wait_under_fire() {
    assert_few_passive("levels/skirmish.level.ron", 4);
    assert_few_passive("levels/the_mill.level.ron", 4);
    assert_few_passive("levels/walls_and_cover.level.ron", 14);
    assert_few_passive("levels/the_crossing.level.ron", 14);
}
