//! What a GM pins down when building an encounter: a creature ordered to hold an area (the
//! archer stays behind the wall) while the AI plays it, and a script for one creature only.
// RULES: GEN-1 — a level's order is a custom rule for that creature, overriding the basic
// movement rules; refusals name GEN-1.

use meshal_tactics::battle::{Battle, Command, Event};
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::grid::Pos;
use std::process::Command as Process;

const SKIRMISH: &str = include_str!("../levels/skirmish.level.ron");
/// Cato the archer (at 1,6) ordered to stay in the four columns behind the Company's line.
const HOLD: &str = "hold: Some((from: (0, 4), to: (3, 8))), ";

fn with_cato_holding(hold: &str) -> String {
    let line = "(name: \"Cato\", ";
    assert!(SKIRMISH.contains(line));
    SKIRMISH.replace(line, &format!("{line}{hold}"))
}

fn battle(text: &str, seed: u64) -> Battle {
    let level = parse_level("hold.level.ron", text, builtin_compendium()).expect("loads");
    Battle::new(&level, builtin_compendium(), seed).unwrap()
}

#[test]
fn a_holding_archer_stays_in_its_area_and_still_shoots() {
    let mut shots = 0;
    for seed in 1..=12 {
        let mut b = battle(&with_cato_holding(HOLD), seed);
        let cato = b.find("Cato").unwrap();
        meshal_tactics::ai::play_direct(&mut b, None, 100_000);
        for e in b.log() {
            match &e.event {
                Event::Moved { creature, path, .. } if *creature == cato => {
                    assert!(
                        path.iter().all(|p| (0..=3).contains(&p.x) && (4..=8).contains(&p.y)),
                        "seed {seed}: Cato walked {path:?}"
                    );
                }
                Event::AttackDeclared { attacker, .. } if *attacker == cato => shots += 1,
                Event::Fled { creature } => assert_ne!(*creature, cato),
                _ => {}
            }
        }
        assert!(b.outcome().is_some(), "seed {seed}: the battle ends");
    }
    assert!(shots >= 12, "the archer still fights from where it holds ({shots} shots in 12 battles)");
}

#[test]
fn moves_out_of_a_held_area_are_refused_with_the_order_and_nothing_changes() {
    let mut b = battle(&with_cato_holding(HOLD), 1);
    let cato = b.find("Cato").unwrap();
    b.skip_to_turn_of(cato).expect("Cato's turn comes");
    let before = format!("{:?}", b.fighter(cato));
    let log_len = b.log().len();
    // The engine's move field only offers squares inside the area.
    let field = b.reachable(cato, false).unwrap();
    let dests: Vec<Pos> = field.destinations().collect();
    assert!(!dests.is_empty());
    assert!(dests.iter().all(|d| (0..=3).contains(&d.x) && (4..=8).contains(&d.y)), "{dests:?}");
    // A path stepping out, even to come back, is refused naming the order.
    let out = vec![Pos::new(1, 6), Pos::new(2, 6), Pos::new(3, 6), Pos::new(4, 6)];
    let err = b.check(cato, &Command::Move { path: out, sprint: false, face: None }).unwrap_err();
    assert_eq!(err.rule, "GEN-1");
    assert!(
        err.reason.contains("ordered to hold (0, 4)–(3, 8)") && err.reason.contains("4,6 is outside"),
        "{}",
        err.reason
    );
    let excursion = vec![Pos::new(1, 6), Pos::new(1, 7), Pos::new(1, 8), Pos::new(1, 9), Pos::new(1, 8)];
    assert_eq!(b.check(cato, &Command::Move { path: excursion, sprint: false, face: None }).unwrap_err().rule, "GEN-1");
    assert_eq!(b.check(cato, &Command::Flee).unwrap_err().rule, "GEN-1");
    // Inside is fine.
    let inside = vec![Pos::new(1, 6), Pos::new(2, 6), Pos::new(3, 6)];
    assert!(b.check(cato, &Command::Move { path: inside, sprint: false, face: None }).is_ok());
    assert_eq!(format!("{:?}", b.fighter(cato)), before);
    assert_eq!(b.log().len(), log_len);
}

#[test]
fn a_hold_order_off_the_map_or_not_around_the_creature_is_a_located_error() {
    for (hold, says) in [
        ("hold: Some((from: (0, 4), to: (99, 8))), ", "not all on the"),
        ("hold: Some((from: (5, 5), to: (8, 8))), ", "starts partly outside it"),
        ("hold: Some((from: (-1, 0), to: (2, 2))), ", "not all on the"),
    ] {
        let text = with_cato_holding(hold);
        let err = parse_level("hold.level.ron", &text, builtin_compendium()).unwrap_err();
        let line = text[..text.find("hold:").unwrap()].matches('\n').count() + 1;
        assert_eq!(err.line, line, "{err}");
        assert!(err.message.contains(says) && err.message.contains("Cato"), "{err}");
    }
    // Corners in any order mean the same rectangle.
    let swapped = with_cato_holding("hold: Some((from: (3, 8), to: (0, 4))), ");
    assert!(parse_level("hold.level.ron", &swapped, builtin_compendium()).is_ok());
}

#[test]
fn a_script_naming_one_creature_leaves_the_rest_of_its_side_to_the_ai() {
    let dir = std::env::temp_dir().join(format!("meshal-gm-orders-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("brute_waits.ron");
    // The Pack's Brute is pinned: it ends its turns in place, the script is its whole plan.
    std::fs::write(&script, "[(actor: \"Brute\", command: EndTurn), (actor: \"Brute\", command: EndTurn)]").unwrap();
    let log = dir.join("log.jsonl");
    let out = Process::new(env!("CARGO_BIN_EXE_meshal-tactics"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "levels/skirmish.level.ron", "--seed", "4", "--quiet", "--commands"])
        .arg(&script)
        .arg("--log")
        .arg(&log)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let b = battle(SKIRMISH, 4);
    let (brute, wolf) = (b.find("Brute").unwrap(), b.find("Grey wolf 1").unwrap());
    let events: Vec<serde_json::Value> =
        std::fs::read_to_string(&log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let moved = |id: u32| events.iter().any(|e| e["event"]["Moved"]["creature"] == id);
    assert!(!moved(brute), "the scripted Brute never moves");
    assert!(moved(wolf), "its packmates are played by the AI");
    let pack: Vec<u32> =
        (0..b.n() as u32).filter(|&c| b.fighter(c).side == b.fighter(brute).side && c != brute).collect();
    let attacked = events.iter().any(|e| pack.iter().any(|&c| e["event"]["AttackDeclared"]["attacker"] == c));
    assert!(attacked, "and they fight");
}

/// README's level example: it loads, and it shows every field a level can have (a field added
/// to the format without a line in README fails here).
#[test]
fn the_readme_level_example_loads_and_uses_every_field() {
    let readme = include_str!("../README.md");
    let start = readme.find("<!-- level-example -->\n```ron\n").expect("the marked example") + 30;
    let example = &readme[start..start + readme[start..].find("```").unwrap()];
    let level = parse_level("README.md", example, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    // Every field of the format, set to something that is not its default (a struct literal
    // with no `..`: a new field fails to compile here until it is added, and then fails below
    // until README's example shows it).
    use meshal_tactics::level::{ControllerDef, CreatureDef, HoldArea, Overrides, SideDef, Victory};
    let mut full = level.level.clone();
    full.creatures = vec![CreatureDef {
        name: "n".into(),
        template: "grey_wolf".into(),
        side: "Wolves".into(),
        at: (1, 1),
        facing: meshal_tactics::rules::facing::Facing::E,
        posture: meshal_tactics::rules::posture::Posture::Crouch,
        overrides: Overrides {
            might: Some(1),
            activeness: Some(1),
            spirit: Some(1),
            speed: Some(1),
            weapons: Some(vec![]),
            armour: Some(vec![]),
        },
        ai: Some("easy".into()),
        arrives: Some(1),
        controller: Some(ControllerDef::Ai),
        hidden: true,
        hold: Some(HoldArea { from: (1, 1), to: (1, 1) }),
        items: vec!["healing_draught".into()],
        rides: Some("m".into()),
    }];
    full.items = vec![meshal_tactics::level::ItemOnMap { at: (1, 1), item: "arrow_bundle".into() }];
    full.sides = vec![SideDef {
        name: "s".into(),
        relations: [("t".to_string(), meshal_tactics::level::Relation::Neutral)].into(),
        human: true,
        ai: Some("easy".into()),
    }];
    full.victory = vec![Victory::DefeatAllHostiles, Victory::SurviveRounds { side: "s".into(), rounds: 2 }];
    full.max_rounds = 3;
    full.objects = vec![meshal_tactics::rules::objects::ObjectDef {
        kind: meshal_tactics::rules::objects::ObjectKind::Crate,
        at: (1, 1),
        material: meshal_tactics::rules::objects::Material::Wood,
        thickness: 2,
        conditions: vec![meshal_tactics::rules::objects::Condition::Worn],
        open: true,
    }];
    full.description = "d".into();
    full.ruleset.overreach = false;
    for t in full.terrains.values_mut() {
        *t = meshal_tactics::rules::grid::Terrain {
            name: "x".into(),
            resistance: 1,
            difficult: true,
            smooth: true,
            blocks_movement: true,
            cross_height: Some(1),
            blocks_sight: true,
            low_cover: true,
            concealing: true,
            dark: true,
            drop: 1,
            hazard: Some(meshal_tactics::rules::hazard::Hazard {
                kind: "fire".into(),
                dice: 1,
                damage: Some(meshal_tactics::rules::creature::DamageType::Erosion),
                targets: vec![meshal_tactics::rules::creature::Attribute::Might],
                drain: 1,
            }),
        };
    }
    let written = ron::ser::to_string(&full).unwrap();
    let mut missing = Vec::new();
    for (i, _) in written.match_indices(':') {
        let name: String = written[..i]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let is_field = !name.is_empty() && !name.chars().next().unwrap().is_ascii_digit();
        if is_field && !example.contains(&format!("{name}:")) && !missing.contains(&name) {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "README's example lacks the fields {missing:?}");
    let b = Battle::new(&level, builtin_compendium(), 1).unwrap();
    let cato = b.find("Cato").unwrap();
    assert!(b.fighter(cato).hold.is_some());
}

// `import-tiled` as a GM runs it: our example map becomes a level that checks; a broken map
// writes nothing and leaves an existing output as it was.
#[test]
fn import_tiled_writes_a_checked_level_or_nothing() {
    let dir = std::env::temp_dir().join(format!("meshal-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("ambush.level.ron");
    let run = |args: &[&std::ffi::OsStr]| {
        Process::new(env!("CARGO_BIN_EXE_meshal-tactics"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .unwrap()
    };
    let ok = run(&["import-tiled".as_ref(), "levels/tiled/ambush.tmx".as_ref(), "-o".as_ref(), out.as_os_str()]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("\"Ambush on the Farm Track\", 12×8, 7 creatures, 2 sides"));
    let check = run(&["check".as_ref(), out.as_os_str()]);
    assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stderr));
    let good = std::fs::read(&out).unwrap();
    let broken = dir.join("broken.tmx");
    let example = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/tiled/ambush.tmx")).unwrap();
    std::fs::write(&broken, example.replace("name=\"side\" value=\"Wolves\"", "name=\"team\" value=\"Wolves\""))
        .unwrap();
    let bad = run(&["import-tiled".as_ref(), broken.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("broken.tmx: object 4 \"Grey wolf 1\": unknown property 'team'"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), good, "the earlier output is untouched");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "no temporary file left");
}

// GEN-1, engine decision: the square a holding creature stands on is not a step of its path.
// On this generated level a hook raider towed C5, who holds (5,7)–(8,7), out to 8,6 (seed
// 962274, round 22); its walk back in, 8,6 → 8,7, was refused and the AI's safety net ended
// its turn instead (an AI fallback). Now every decision of the battle is accepted as planned,
// and the walk back is made. (C5 starts where the tow left it: the AI's play changed, and
// with it whether the raider ever tows it in that battle.)
#[test]
fn a_creature_towed_out_of_its_area_walks_back_in() {
    let text = include_str!("fixtures/towed_out_of_its_hold.level.ron");
    let mut b = battle(text, 962_274);
    let c5 = b.find("C5 human_fighter").unwrap();
    b.adjust_for_scenario(c5, |f| f.origin = Pos::new(8, 6));
    let mut walked_back = false;
    while b.outcome().is_none() {
        let Some((c, w)) = b.awaiting() else { break };
        let profile = meshal_tactics::ai::profile_for(&b, c, None);
        let d = meshal_tactics::ai::decision(&b, c, w, &profile, meshal_tactics::ai::Reasons::Unread);
        assert!(d.fallback.is_none(), "round {}: {:?}", b.round(), d.fallback);
        let outside = b.fighter(c5).origin.y != 7;
        let mark = b.log().len();
        b.submit(c, d.command).unwrap();
        walked_back |= c == c5
            && outside
            && b.log()[mark..].iter().any(|e| matches!(&e.event, Event::Moved { creature, .. } if *creature == c5))
            && b.fighter(c5).origin.y == 7;
    }
    assert!(walked_back, "C5 walked back into its area");
}
