//! The `rules` calculator as a user runs it: the real binary, its JSON and its exit codes.

use serde_json::Value;
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_meshal-tactics")).args(args).output().expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> Value {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    assert_eq!(stdout.lines().count(), 1, "one JSON object on stdout");
    serde_json::from_str(&stdout).expect("valid JSON")
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("meshal-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

// RULES: SPACE-6
#[test]
fn distance_json() {
    assert_eq!(json(&["rules", "distance", "0,0", "4,2", "--json"])["steps"], 5);
    assert_eq!(json(&["rules", "distance", "-1,-1", "2,2", "--json"])["steps"], 4);
    let (code, stdout, _) = run(&["rules", "distance", "0,0", "2,2"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("3 steps"));
}

// RULES: AREA-E1, AREA-E3, AREA-D1
#[test]
fn area_json_counts() {
    assert_eq!(json(&["rules", "area", "circle", "--radius", "1", "--json"])["count"], 9);
    let cone = json(&["rules", "area", "sector", "--radius", "6", "--angle", "30", "--facing", "NE", "--json"]);
    assert_eq!(cone["count"], 10);
    assert_eq!(cone["cells"].as_array().unwrap().len(), 10);
    assert_eq!(json(&["rules", "area", "circle", "--radius", "1", "--coverage", "dnd", "--json"])["count"], 4);
    assert_eq!(json(&["rules", "area", "ring", "--radius", "2", "--json"])["count"], 12);
    assert_eq!(json(&["rules", "area", "ray", "--radius", "4", "--facing", "E", "--json"])["count"], 4);
    let (code, stdout, _) = run(&["rules", "area", "circle", "--radius", "1"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("9 squares") && stdout.contains("# # #"));
}

// RULES: FACE-3, FACE-E2
#[test]
fn facing_json_sectors() {
    let s = json(&["rules", "facing", "--facing", "N", "--at", "-1,-1", "--json"]);
    assert_eq!(s["sectors"], serde_json::json!(["left", "rear"]));
    let s = json(&["rules", "facing", "--facing", "N", "--at", "-1,-1", "--arcs", "120", "--json"]);
    assert_eq!(s["sectors"], serde_json::json!(["rear"]));
    let s = json(&["rules", "facing", "--facing", "E", "--at", "0,3", "--json"]);
    assert_eq!(s["sectors"], serde_json::json!(["left"]));
    let (code, stdout, _) = run(&["rules", "facing", "--facing", "S", "--radius", "2"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().count(), 6);
}

// RULES: ATK-E4, ATK-10, ATK-11
#[test]
fn odds_json_distribution() {
    let d = json(&["rules", "odds", "--dice", "1", "--json"]);
    let dist: Vec<f64> = d["distribution"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(dist.len(), 3);
    assert!((dist[0] - 4.0 / 6.0).abs() < 1e-12);
    assert!((d["hit_chance"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert!((d["expected_damage"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    // Penetration 3 against protection 1 leaves 0: same as no protection.
    let pen = json(&["rules", "odds", "--dice", "4", "--protection", "1", "--penetration", "3", "--json"]);
    let bare = json(&["rules", "odds", "--dice", "4", "--json"]);
    assert_eq!(pen["distribution"], bare["distribution"]);
    // A defense can only lower expected damage.
    let open = json(&["rules", "odds", "--dice", "10", "--json"]);
    let def = json(&["rules", "odds", "--dice", "10", "--defense-dice", "6", "--json"]);
    assert!((open["expected_damage"].as_f64().unwrap() - 5.0).abs() < 1e-9);
    assert!(def["expected_damage"].as_f64().unwrap() < 3.0);
    let none = json(&["rules", "odds", "--dice", "0", "--json"]);
    assert_eq!(none["hit_chance"].as_f64().unwrap(), 0.0);
}

// RULES: DICE-2 — `--points 001`: fives and sixes score one point each, so one die hits with
// 1/3 and never scores 2; three dice against protection 1 need two points: P = 7/27.
#[test]
fn odds_with_001_points() {
    let one = json(&["rules", "odds", "--dice", "1", "--points", "001", "--json"]);
    let dist: Vec<f64> = one["distribution"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(dist.len(), 2);
    assert!((dist[1] - 1.0 / 3.0).abs() < 1e-12);
    let three = json(&["rules", "odds", "--dice", "3", "--protection", "1", "--points", "001", "--json"]);
    assert!((three["hit_chance"].as_f64().unwrap() - 7.0 / 27.0).abs() < 1e-12);
    let (code, _, stderr) = run(&["rules", "odds", "--dice", "3", "--points", "002"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("002") && stderr.contains("--points"), "{stderr}");
}

// RULES: PERC-E1, ATK-E5
#[test]
fn los_json_and_map_errors() {
    let map = temp_file("m.txt", "........\n..#.....\n.....=..\n........\n");
    let m = map.to_str().unwrap();
    let v = json(&["rules", "los", "--map", m, "--from", "0,0", "--to", "7,3", "--json"]);
    assert_eq!(v["visible"], true);
    assert_eq!(v["traced"][0], serde_json::json!([0, 0]));
    let b = json(&["rules", "los", "--map", m, "--from", "0,3", "--to", "4,1", "--json"]);
    assert_eq!(b["visible"], false);
    let c = json(&["rules", "los", "--map", m, "--from", "7,1", "--to", "4,1", "--json"]);
    assert_eq!((c["visible"].clone(), c["cover"].clone()), (true.into(), true.into()));
    let bad = temp_file("bad.txt", "..\n.Q\n");
    let (code, _, stderr) = run(&["rules", "los", "--map", bad.to_str().unwrap(), "--from", "0,0", "--to", "1,1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("bad.txt") && stderr.contains("line 2, column 2"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);
    let (code, _, stderr) = run(&["rules", "los", "--map", m, "--from", "0,0", "--to", "9,9"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("off the 8×4 map"), "{stderr}");
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    for args in [
        &["rules", "odds", "--dice", "x"][..],
        &["rules", "distance", "1", "2"],
        &["rules", "area", "blob", "--radius", "2"],
        &["rules", "area", "circle", "--radius", "999999"],
        &["rules", "facing", "--facing", "UP", "--at", "1,1"],
        &["rules", "facing", "--facing", "N", "--at", "1,1", "--arcs", "100"],
        &["rules", "odds", "--dice", "3", "--multiplier", "-2"],
        // Bounded so the exact distribution stays small: ×1,000,000 on 200 dice took 15 GB.
        &["rules", "odds", "--dice", "3", "--multiplier", "1000000/1"],
        &["rules", "odds", "--dice", "3", "--multiplier", "1/0"],
        &["rules", "odds", "--dice", "101"],
        &["rules", "odds", "--dice", "3", "--segments", "11"],
        &["rules", "nonsense"],
        // Numbers at the edge of i32 are range-checked before any arithmetic (no wrapping).
        &["rules", "odds", "--dice", "3", "--protection", "-2147483648"],
        &["rules", "odds", "--dice", "3", "--bonus", "-2147483648"],
        &["rules", "odds", "--dice", "3", "--penetration", "-1"],
        &["rules", "odds", "--dice", "-5"],
        &["rules", "odds", "--dice", "3", "--defense-dice", "-1"],
        &["rules", "distance", "-2147483648,0", "0,0"],
        &["rules", "distance", "0,0", "2147483647,2147483647"],
        &["rules", "facing", "--facing", "N", "--at", "-2147483648,5"],
        &["rules", "los", "--map", "/dev/zero", "--from", "0,0", "--to", "1,1"],
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
}

// RULES: AREA-E5 — the calculator draws a curve through its bends; one longer than its length
// is refused with the rule and the reason, exit code 2.
#[test]
fn area_curve_json_and_refusal() {
    let hook = json(&["rules", "area", "curve", "--radius", "6", "--bend", "3,0", "--bend", "3,3", "--json"]);
    assert_eq!(hook["count"], 6);
    assert_eq!(hook["cells"][0], serde_json::json!([3, 3]));
    let (code, stdout, _) = run(&["rules", "area", "curve", "--radius", "6", "--bend", "-2,1"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("curve length 6 through -2,1") && stdout.contains("3 squares"), "{stdout}");
    let (code, _, stderr) = run(&["rules", "area", "curve", "--radius", "6", "--bend", "4,2", "--bend", "4,4"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("AREA-E5") && stderr.contains("7 steps long"), "{stderr}");
    let (code, _, stderr) = run(&["rules", "area", "curve", "--radius", "6"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("at least the square it ends on"), "{stderr}");
}
