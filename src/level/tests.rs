use super::*;

const GOOD: &str = r#"(
    name: "Test",
    map: [
        "WWWWW",
        "W...W",
        "W.=.W",
        "WWWWW",
    ],
    legend: { 'W': "wall", '.': "floor", '=': "low" },
    terrains: {
        "wall": (blocks_movement: true, blocks_sight: true),
        "floor": (),
        "low": (blocks_movement: true, cross_height: Some(1), low_cover: true),
    },
    sides: [(name: "Blue"), (name: "Red")],
    creatures: [
        (name: "A", template: "human_fighter", side: "Blue", at: (1, 1)),
        (name: "B", template: "human_fighter", side: "Red", at: (3, 2)),
    ],
)"#;

fn parse(text: &str) -> Result<LoadedLevel, LevelError> {
    parse_level("t.level.ron", text, builtin_compendium())
}

#[test]
fn a_good_level_loads_with_north_first() {
    let l = parse(GOOD).unwrap();
    assert_eq!((l.map.width(), l.map.height()), (5, 4));
    assert_eq!(l.map.terrain(Pos::new(2, 1)).name, "low");
    assert!(l.map.blocks_sight(Pos::new(0, 3)));
    assert_eq!(l.level.victory, vec![Victory::DefeatAllHostiles]);
}

#[test]
fn unknown_terrain_character_names_line_and_column() {
    let bad = GOOD.replace("\"W.=.W\"", "\"W.Q.W\"");
    let e = parse(&bad).unwrap_err();
    assert_eq!((e.line, e.column), (6, 12), "{e}");
    assert!(e.message.contains("'Q'"), "{e}");
}

#[test]
fn syntax_errors_carry_ron_positions() {
    let bad = GOOD.replace("sides: [", "sides: [[");
    let e = parse(&bad).unwrap_err();
    assert!(e.line > 1, "{e}");
}

#[test]
fn semantic_errors_name_the_creature_line() {
    let cases = [
        (GOOD.replace("\"human_fighter\", side: \"Red\"", "\"dragon\", side: \"Red\""), "unknown compendium entry"),
        (GOOD.replace("at: (3, 2)", "at: (1, 1)"), "overlaps"),
        (GOOD.replace("at: (3, 2)", "at: (0, 2)"), "blocks movement"),
        (GOOD.replace("at: (3, 2)", "at: (9, 2)"), "does not fit"),
        (GOOD.replace("side: \"Red\"", "side: \"Green\""), "unknown side"),
    ];
    for (text, want) in cases {
        let e = parse(&text).unwrap_err();
        assert!(e.message.contains(want), "{e}");
        assert_eq!(e.line, 18, "{e}");
    }
}

#[test]
fn sizes_are_bounded() {
    let wide = format!("\"{}\"", ".".repeat(300));
    let e = parse(&GOOD.replace("\"W...W\"", &wide)).unwrap_err();
    assert!(e.message.contains("columns") || e.message.contains("256"), "{e}");
    let many: String = (0..600)
        .map(|i| format!("(name: \"c{i}\", template: \"human_fighter\", side: \"Blue\", at: (1, 1)),"))
        .collect();
    let e = parse(&GOOD.replace("creatures: [", &format!("creatures: [{many}"))).unwrap_err();
    assert!(e.message.contains("at most 512"), "{e}");
}

#[test]
fn builtin_compendium_is_complete() {
    let c = builtin_compendium();
    for key in ["human_fighter", "grey_wolf", "dire_wolf", "archer", "caster", "brute", "cave_lurker"] {
        assert!(c.creatures.contains_key(key), "{key}");
    }
    assert_eq!(c.creatures["brute"].size, crate::rules::creature::Size::Large);
    assert_eq!(c.weapons["dagger"].segments, 2);
    assert_eq!(c.weapons["whip"].range.min, 3);
}

mod robustness {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// Mangled level files (bytes deleted, duplicated, replaced; numbers made huge or negative)
    /// are errors, never panics.
    #[test]
    fn mangled_levels_never_panic() {
        let base = include_str!("../../levels/skirmish.level.ron");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
        let pieces = ["-1", "99999999999", "(", ")", "\"", "'", ",", "None", "Some(", "2147483647", "-2147483648", ":"];
        for _ in 0..3000 {
            let mut text: Vec<char> = base.chars().collect();
            for _ in 0..rng.random_range(1..6) {
                let at = rng.random_range(0..text.len());
                match rng.random_range(0..4) {
                    0 => {
                        text.remove(at);
                    }
                    1 => {
                        let c = text[at];
                        text.insert(at, c);
                    }
                    2 => text[at] = char::from(rng.random_range(32u8..127)),
                    _ => {
                        for (k, c) in pieces[rng.random_range(0..pieces.len())].chars().enumerate() {
                            text.insert(at + k, c);
                        }
                    }
                }
            }
            let text: String = text.into_iter().collect();
            if let Ok(l) = parse_level("mangled", &text, builtin_compendium()) {
                // Whatever loads must also set up and play without panicking.
                let mut b = crate::battle::Battle::new(&l, builtin_compendium(), 1).expect("validated level sets up");
                crate::battle::play_direct(&mut b, crate::ai::decide, 2_000);
            }
        }
    }
}

mod hostile {
    use super::*;

    fn parse(text: &str) -> Result<LoadedLevel, LevelError> {
        parse_level("t.level.ron", text, builtin_compendium())
    }

    /// Line and column of the first occurrence of `needle` in `text` (1-based).
    fn at(text: &str, needle: &str) -> (usize, usize) {
        let i = text.find(needle).unwrap_or_else(|| panic!("{needle} not in the text"));
        line_col(text, i)
    }

    // A typo is not silently ignored: every struct of the format refuses unknown fields and
    // names the field, where it is written.
    #[test]
    fn unknown_fields_are_errors_with_their_location() {
        let cases = [
            (super::GOOD.replace("at: (3, 2)", "at: (3, 2), arrive: Some(2)"), "arrive", "CreatureDef"),
            (super::GOOD.replace("name: \"Test\",", "name: \"Test\", max_round: 9,"), "max_round", "Level"),
            (super::GOOD.replace("\"floor\": (),", "\"floor\": (block_sight: true),"), "block_sight", "Terrain"),
            (super::GOOD.replace("(name: \"Blue\")", "(name: \"Blue\", relation: {})"), "relation", "SideDef"),
            (super::GOOD.replace("at: (1, 1))", "at: (1, 1), overrides: (mite: Some(3)))"), "mite", "Overrides"),
            (
                super::GOOD.replace("name: \"Test\",", "name: \"Test\", ruleset: (facings: false),"),
                "facings",
                "Ruleset",
            ),
        ];
        for (text, field, outer) in cases {
            let e = parse(&text).unwrap_err();
            assert!(e.message.contains(&format!("unknown field `{field}`")), "{e}");
            assert!(e.message.contains(outer), "{e}");
            let (line, _) = at(&text, &format!("{field}:"));
            assert_eq!(e.line, line, "{e}");
        }
    }

    const TWO_ROOMS: &str = r#"(
    name: "Rules",
    map: ["......", "......", "......"],
    legend: { '.': "floor" },
    terrains: { "floor": () },
    sides: [(name: "Blue"), (name: "Red")],
    creatures: [
        (name: "A", template: "human_fighter", side: "Blue", at: (0, 0)),
        (name: "B", template: "human_fighter", side: "Red", at: (5, 2)),
    ],
    max_rounds: 10,
)"#;

    // Semantic validation, each error located where the offending value is written.
    #[test]
    fn semantic_errors_are_located() {
        let cases: Vec<(String, &str, &str)> = vec![
            (
                TWO_ROOMS.replace(
                    "sides: [(name: \"Blue\"), (name: \"Red\")]",
                    "sides: [(name: \"Blue\", relations: {\"Red\": Friendly}), (name: \"Red\", relations: {\"Blue\": Hostile})]",
                ),
                "contradict",
                "\"Blue\": Hostile",
            ),
            (
                TWO_ROOMS.replace("(name: \"Blue\")", "(name: \"Blue\", relations: {\"Blue\": Friendly})"),
                "to itself",
                "\"Blue\": Friendly",
            ),
            (
                TWO_ROOMS.replace("(name: \"Blue\")", "(name: \"Blue\", relations: {\"Red\": Neutral})"),
                "no two sides are hostile",
                "sides",
            ),
            (
                TWO_ROOMS.replace("max_rounds: 10,", "max_rounds: 10, victory: [ReachZone(side: \"Blue\", from: (4, 1), to: (9, 2))],"),
                "off the 6×3 map",
                "ReachZone",
            ),
            (
                TWO_ROOMS.replace("max_rounds: 10,", "max_rounds: 10, victory: [ReachZone(side: \"Blue\", from: (4, 2), to: (3, 1))],"),
                "inverted",
                "ReachZone",
            ),
            (
                TWO_ROOMS.replace("max_rounds: 10,", "max_rounds: 10, victory: [DefeatAllHostiles, SurviveRounds(side: \"Red\", rounds: 0)],"),
                "SurviveRounds of 0",
                "SurviveRounds",
            ),
            (
                TWO_ROOMS.replace("max_rounds: 10,", "max_rounds: 10, victory: [SurviveRounds(side: \"Red\", rounds: 11)],"),
                "SurviveRounds of 11",
                "SurviveRounds",
            ),
            (TWO_ROOMS.replace("at: (5, 2))", "at: (5, 2), arrives: Some(0))"), "arrives in round 0", "arrives"),
            (TWO_ROOMS.replace("at: (5, 2))", "at: (5, 2), arrives: Some(11))"), "arrives in round 11", "arrives"),
            (
                TWO_ROOMS.replace("(name: \"Red\")", "(name: \"Red\"), (name: \"Green\")"),
                "\"Green\" has no creatures",
                "\"Green\"",
            ),
        ];
        for (text, want, where_) in cases {
            let e = parse(&text).unwrap_err();
            assert!(e.message.contains(want), "{want}: {e}");
            let (line, column) = at(&text, where_);
            assert_eq!((e.line, e.column), (line, column), "{want}: {e}");
        }
        // More than 16 sides: refused by check as by the battle.
        let sides: Vec<String> = (0..17).map(|i| format!("(name: \"S{i}\")")).collect();
        let creatures: Vec<String> = (0..17)
            .map(|i| {
                format!("(name: \"C{i}\", template: \"human_fighter\", side: \"S{i}\", at: ({}, {}))", i % 6, i / 6)
            })
            .collect();
        let many = TWO_ROOMS
            .replace("sides: [(name: \"Blue\"), (name: \"Red\")]", &format!("sides: [{}]", sides.join(", ")))
            .replace(
                "(name: \"A\", template: \"human_fighter\", side: \"Blue\", at: (0, 0)),\n        (name: \"B\", template: \"human_fighter\", side: \"Red\", at: (5, 2)),",
                &creatures.join(",\n"),
            );
        let e = parse(&many).unwrap_err();
        assert!(e.message.contains("at most 16"), "{e}");
        assert_eq!((e.line, e.column), at(&many, "sides"));
    }

    // What `check` accepts, a battle runs: everyone a latecomer, and latecomers with no free
    // square, set up and play without a panic and never share a square.
    #[test]
    fn time_4_every_latecomer_level_runs_and_nobody_joins_on_a_taken_square() {
        let all_late = TWO_ROOMS
            .replace("at: (0, 0))", "at: (0, 0), arrives: Some(1))")
            .replace("at: (5, 2))", "at: (5, 2), arrives: Some(2))");
        let l = parse(&all_late).unwrap();
        let mut b = crate::battle::Battle::new(&l, builtin_compendium(), 3).unwrap();
        assert!(b.log().iter().any(|e| matches!(e.event, crate::battle::Event::Joined { creature: 0, .. })));
        let count = crate::ai::play_direct(&mut b, None, 100_000);
        assert!(b.outcome().is_some());
        assert_eq!(count.fallbacks, 0);
        // A corridor with one square left for two latecomers: the second cannot join until a
        // square frees up.
        let full = r#"(
            name: "Full", map: ["...."], legend: { '.': "floor" }, terrains: { "floor": () },
            sides: [(name: "Blue"), (name: "Red")],
            creatures: [
                (name: "A", template: "human_fighter", side: "Blue", at: (0, 0)),
                (name: "B", template: "human_fighter", side: "Red", at: (1, 0)),
                (name: "C", template: "human_fighter", side: "Blue", at: (2, 0)),
                (name: "Late 1", template: "human_fighter", side: "Red", at: (3, 0), arrives: Some(1)),
                (name: "Late 2", template: "human_fighter", side: "Red", at: (3, 0), arrives: Some(1)),
            ],
        )"#;
        let l = parse(full).unwrap();
        let mut waited = 0;
        for seed in 0..20 {
            let mut b = crate::battle::Battle::new(&l, builtin_compendium(), seed).unwrap();
            for _ in 0..5_000 {
                let Some((c, w)) = b.awaiting() else { break };
                let cmd = crate::ai::decide(&b, c, w);
                b.submit(c, cmd).unwrap();
                let cells: Vec<Pos> =
                    b.creatures().iter().filter(|c| c.is_active()).flat_map(|c| c.footprint().cells()).collect();
                let mut unique = cells.clone();
                unique.sort();
                unique.dedup();
                assert_eq!(unique.len(), cells.len(), "two creatures share a square (seed {seed})");
            }
            // Unless a death or a flight in round 1 freed a square, the second latecomer waits.
            let freed = b.log().iter().any(|e| {
                e.round == 1 && matches!(e.event, crate::battle::Event::Died { .. } | crate::battle::Event::Fled { .. })
            });
            let delayed = b.log().iter().any(|e| matches!(e.event, crate::battle::Event::ArrivalDelayed { .. }));
            assert!(freed || delayed, "seed {seed}: the latecomer waits for a free square");
            waited += usize::from(delayed);
        }
        assert!(waited >= 10, "the no-free-square case was exercised ({waited} of 20)");
    }

    #[test]
    fn an_empty_file_says_so() {
        let e = parse("  \n").unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
    }
}

// Errors are placed where the RON says what is wrong, never on prose that happens to hold the
// same words: a description naming "creatures", "name:" or a side, a comment, a map row written
// with escapes (all placed on the description or at 1:1 before).
#[test]
fn errors_are_located_past_prose_and_escapes() {
    let prose = GOOD.replace(
        "    name: \"Test\",",
        "    name: \"Test\",\n    description: \"creatures: (name: \\\"Red\\\"), max_rounds: 0\", // creatures: name:",
    );
    let line_of = |text: &str, needle: &str| text[..text.find(needle).unwrap()].matches('\n').count() + 1;
    let off_map = prose.replace("at: (3, 2)", "at: (30, 2)");
    let e = parse(&off_map).unwrap_err();
    assert_eq!(e.line, line_of(&off_map, "(name: \"B\""), "{e}");
    let lonely = prose
        .replace("(name: \"Red\")]", "(name: \"Red\"), (name: \"Green\")]")
        .replace("creatures: name:", "\"Green\"");
    let e = parse(&lonely).unwrap_err();
    assert!(e.message.contains("Green"), "{e}");
    let sides_line = lonely.lines().find(|l| l.contains("sides:")).unwrap();
    assert_eq!((e.line, e.column), (line_of(&lonely, "sides:"), sides_line.find("\"Green\"").unwrap() + 1), "{e}");
    let rounds = prose.replace("\n)", "\n    max_rounds: 0,\n)");
    let e = parse(&rounds).unwrap_err();
    assert_eq!(e.line, line_of(&rounds, "    max_rounds: 0,"), "{e}");
    // The fourth row, with its floor written as an escape, holds a character the legend lacks.
    let escaped = GOOD.replace("\"W.=.W\"", "\"W\\u{2e}=X\\u{57}\"");
    let e = parse(&escaped).unwrap_err();
    assert!(e.message.contains("'X'"), "{e}");
    assert_eq!(e.line, line_of(&escaped, "\"W\\u{2e}"), "{e}");
}

// RULES: CRE-10 — protection may be negative, within bounds: every number a compendium gives a
// creature, a weapon, armour or an ability is bounded (a protection of −2³¹ made the odds
// allocate without bound; a weapon of 100,000 dice, or a shield of a million, made one decision
// take minutes), and the message names the entry, the field and the bound.
#[test]
fn compendium_numbers_are_bounded() {
    use crate::level::compendium::{AbilityEffect, Compendium};
    let base = builtin_compendium().clone();
    assert_eq!(base.validate(), Ok(()));
    type Breakage = Box<dyn Fn(&mut Compendium)>;
    let cases: Vec<(&str, Breakage)> = vec![
        ("natural_protection", Box::new(|c| c.creatures.get_mut("brute").unwrap().natural_protection.physical = -31)),
        ("protection", Box::new(|c| c.armour.get_mut("chain").unwrap().protection.erosion = i32::MIN)),
        ("dice.plus", Box::new(|c| c.weapons.get_mut("sword").unwrap().dice.plus = 100_000)),
        ("block_bonus", Box::new(|c| c.weapons.get_mut("shield").unwrap().block_bonus = 1_000_000)),
        ("penetration", Box::new(|c| c.weapons.get_mut("spear").unwrap().penetration = -1)),
        (
            "additive's dice",
            Box::new(|c| {
                let a = c.abilities.values_mut().find(|a| matches!(a.effect, AbilityEffect::Additive { .. })).unwrap();
                a.effect = AbilityEffect::Additive { ap: 1, dice: 10_000_000, melee_only: true };
            }),
        ),
        ("at most 16", Box::new(|c| c.creatures.get_mut("brute").unwrap().weapons = vec!["greatclub".into(); 17])),
        ("strength", Box::new(|c| c.creatures.get_mut("brute").unwrap().strength = Some(-1))),
    ];
    for (field, break_it) in cases {
        let mut c = base.clone();
        break_it(&mut c);
        let e = c.validate().unwrap_err();
        assert!(e.contains(field), "{field}: {e}");
    }
    let mut c = base.clone();
    c.armour.get_mut("chain").unwrap().protection.physical = -30;
    assert_eq!(c.validate(), Ok(()), "−30 is within CRE-10's reach");
}

// A compendium file's rule errors are placed on the entry, and on the field they name inside
// it, where the file writes them (not on a comment naming the same entry).
#[test]
fn compendium_errors_are_located_in_their_file() {
    use crate::level::compendium::locate;
    let text = "(\n  // \"xw\" below is a weapon\n  weapons: {\n    \"xw\": (name: \"X\",\n      dice: (plus: 99), ap: 1),\n  },\n)";
    let e = locate("c.ron", text, "weapon 'xw': dice.plus is 99; it must be -30..=30");
    assert_eq!(e, "c.ron:5:14: weapon 'xw': dice.plus is 99; it must be -30..=30");
    let e = locate("c.ron", text, "weapon 'xw' damages no attribute");
    assert_eq!(e, "c.ron:4:5: weapon 'xw' damages no attribute");
    // An entry the file does not define (a built-in one): the file alone.
    assert_eq!(locate("c.ron", text, "creature 'brute': x"), "c.ron: creature 'brute': x");
}

#[test]
fn too_many_victory_conditions_are_refused_at_once_and_the_bad_one_is_located() {
    // 60,000 conditions took `check` 79 s while every entry's place in the file was looked up.
    let many = vec!["DefeatAllHostiles"; 60_000].join(", ");
    let bad = GOOD.replace("    sides:", &format!("    victory: [{many}],\n    sides:"));
    let e = parse(&bad).unwrap_err();
    assert!(e.message.contains("60000 victory conditions; a level may hold at most 64"), "{e}");
    assert_eq!(e.line, 15, "{e}");
    // Within the limit, the condition that is wrong is still named where it is written.
    let few = ["DefeatAllHostiles"; 40].join(", ") + ", SurviveRounds(side: \"Green\", rounds: 3)";
    let bad = GOOD.replace("    sides:", &format!("    victory: [{few}],\n    sides:"));
    let e = parse(&bad).unwrap_err();
    assert!(e.message.contains("unknown side \"Green\""), "{e}");
    assert_eq!((e.line, e.column), (15, 1 + "    victory: [".len() + 40 * "DefeatAllHostiles, ".len()), "{e}");
}

#[test]
fn a_key_written_twice_in_a_level_is_refused_where_it_stands() {
    // The second `"floor"` terrain was used without a word, and a legend's character twice too.
    let twice =
        GOOD.replace("        \"floor\": (),\n", "        \"floor\": (),\n        \"floor\": (difficult: true),\n");
    let e = parse(&twice).unwrap_err();
    assert_eq!(e.message, "the key \"floor\" is written twice");
    assert_eq!(e.line, 13, "{e}");
    let legend = GOOD.replace("'W': \"wall\",", "'W': \"wall\", 'W': \"floor\",");
    let e = parse(&legend).unwrap_err();
    assert_eq!((e.line, e.message.as_str()), (9, "the key 'W' is written twice"), "{e}");
    let relations =
        GOOD.replace("(name: \"Blue\")", "(name: \"Blue\", relations: { \"Red\": Hostile, \"Red\": Allied })");
    assert!(parse(&relations).unwrap_err().message.contains("\"Red\" is written twice"));
}

#[test]
fn a_key_written_twice_in_a_compendium_file_is_refused_where_it_stands() {
    let path = std::env::temp_dir().join(format!("meshal-dup-{}.ron", std::process::id()));
    let weapon = r#"(name: "Club", dice: (attribute: Some(Might)), damage: Some(Physical), targets: [Might], range: (max: 1, ranged: false), defenses: [Block])"#;
    std::fs::write(&path, format!("(\n weapons: {{\n  \"club\": {weapon},\n  \"club\": {weapon},\n }},\n)")).unwrap();
    let err = compendium::load_file(&path).unwrap_err();
    std::fs::remove_file(&path).ok();
    assert!(err.contains(":4:") && err.ends_with("the key \"club\" is written twice"), "{err}");
}
