use super::*;
use crate::level::builtin_compendium;
use std::path::PathBuf;

const EXAMPLE: &str = include_str!("../../levels/tiled/ambush.tmx");

fn scratch(name: &str, text: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("meshal-tiled-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn the_example_map_imports_as_a_valid_level() {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/tiled/ambush.tmx"));
    let level = import(path, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(level.name, "Ambush on the Farm Track");
    assert_eq!(level.max_rounds, 30);
    assert_eq!((level.map.len(), level.map[0].len()), (8, 12));
    // The top row of the file is north: all wall; the wheat and mud are defined by the map.
    assert_eq!(level.map[0], "############");
    // Row 2: wall, floor, mud (its own character: '~' is free here), low wall, dark.
    assert_eq!(level.map[2], "#...~~..=.%#");
    assert_eq!(level.legend[&'~'], "mud");
    assert!(level.terrains["wheat"].concealing && level.terrains["wheat"].difficult);
    assert_eq!(level.terrains["mud"].resistance, 1);
    assert!(level.terrains["wall"].blocks_sight, "a usual terrain needs no definition");
    let wolf = level.creatures.iter().find(|c| c.name == "Grey wolf 1").unwrap();
    assert_eq!((wolf.at, wolf.facing, wolf.hidden), ((1, 6), Facing::S, true));
    let glyph = level.map[(8 - 1 - wolf.at.1) as usize].chars().nth(wolf.at.0 as usize).unwrap();
    assert_eq!(level.legend[&glyph], "wheat", "the wolf lies in the wheat");
    assert_eq!(level.creatures.iter().find(|c| c.name == "Dire wolf").unwrap().ai.as_deref(), Some("berserk"));
    // TIME-18: what a creature carries and what lies on the map.
    assert_eq!(level.creatures.iter().find(|c| c.name == "Cato").unwrap().items, ["arrow_bundle"]);
    assert_eq!(level.items, [crate::level::ItemOnMap { at: (1, 2), item: "healing_draught".into() }]);
    assert_eq!(
        level.sides.iter().map(|s| (s.name.as_str(), s.human)).collect::<Vec<_>>(),
        [("Travellers", true), ("Wolves", false)]
    );
    // It plays.
    let doc = crate::level::editing::EditorDoc::new(level, None);
    let loaded = doc.validate(builtin_compendium()).unwrap();
    let mut b = crate::battle::Battle::new(&loaded, builtin_compendium(), 1).unwrap();
    crate::ai::play_direct(&mut b, None, 100_000);
    assert!(b.outcome().is_some());
}

#[test]
fn bad_maps_are_refused_naming_what_and_where() {
    for (broken, says) in [
        (
            EXAMPLE.replace("name=\"facing\" value=\"W\"", "name=\"speed\" value=\"9\""),
            "object 7 \"Dire wolf\": unknown property 'speed'",
        ),
        (
            EXAMPLE.replace("value=\"mud\"/></properties></tile>", "value=\"lava\"/></properties></tile>"),
            "unknown terrain 'lava' at 4,5",
        ),
        (
            EXAMPLE.replace("x=\"336\" y=\"112\"", "x=\"999\" y=\"112\""),
            "object 7 \"Dire wolf\": at pixel (999, 112), off the 12×8 map",
        ),
        (EXAMPLE.replace("value=\"grey_wolf\"", "value=\"dragon\""), "template 'dragon' is not in the compendium"),
        (
            EXAMPLE.replace("name=\"human\" value=\"Travellers\"", "name=\"humans\" value=\"Travellers\""),
            "unknown map property 'humans'",
        ),
        (
            EXAMPLE.replace(
                "<property name=\"terrain\" value=\"floor\"/>",
                "<property name=\"terrian\" value=\"floor\"/>",
            ),
            "has no string property 'terrain'",
        ),
        (EXAMPLE.replace("</objectgroup>", ""), ""),
        (
            EXAMPLE.replace("width=\"12\" height=\"8\" tilewidth", "width=\"4000000000\" height=\"8\" tilewidth"),
            "at most 256",
        ),
        (
            EXAMPLE.replace("width=\"12\" height=\"8\" tilewidth", "width=\"12\" height=\"300\" tilewidth"),
            "height is 300",
        ),
        (
            EXAMPLE.replace("value=\"healing_draught\"", "value=\"elixir\""),
            "object 8 \"Draught\": item 'elixir' is not in the compendium",
        ),
        (EXAMPLE.replace("name=\"item\" value", "name=\"itme\" value"), "unknown property 'itme'"),
        (
            EXAMPLE.replace("value=\"arrow_bundle\"", "value=\"arrows, rope\""),
            "object 2 \"Cato\": item 'arrows' is not",
        ),
        // Two creatures on one square: the level's own check, passed on.
        (EXAMPLE.replace("x=\"80\" y=\"144\"", "x=\"48\" y=\"144\""), "overlaps"),
    ] {
        let path = scratch("broken.tmx", &broken);
        let err = import(&path, builtin_compendium()).unwrap_err();
        assert!(err.starts_with(&path.display().to_string()), "{err}");
        assert!(err.contains(says), "expected {says:?} in: {err}");
    }
    let err = import(Path::new("/dev/null"), builtin_compendium()).unwrap_err();
    assert!(err.contains("/dev/null"), "{err}");
}

#[test]
fn a_template_that_names_itself_is_refused_not_read_forever() {
    // It overflowed the stack: the `tiled` crate keeps a template only once read whole.
    let template =
        r#"<?xml version="1.0" encoding="UTF-8"?><template><object name="Loop" template="loop.tx"/></template>"#;
    scratch("loop.tx", template);
    let object = r#"<object id="99" name="X" template="loop.tx" x="48" y="48"><point/></object></objectgroup>"#;
    let path = scratch("looped.tmx", &EXAMPLE.replacen("</objectgroup>", object, 1));
    let err = import(&path, builtin_compendium()).unwrap_err();
    assert!(err.contains("loop.tx: read a second time: a template that names itself"), "{err}");
    // Two that name each other, and a chain of distinct templates too long to follow.
    scratch("ping.tx", &template.replace("loop.tx", "pong.tx"));
    scratch("pong.tx", &template.replace("loop.tx", "ping.tx"));
    let path = scratch("pingpong.tmx", &EXAMPLE.replacen("</objectgroup>", &object.replace("loop.tx", "ping.tx"), 1));
    let err = import(&path, builtin_compendium()).unwrap_err();
    assert!(err.contains("ping.tx: read a second time"), "{err}");
    for k in 0..200 {
        scratch(&format!("chain{k}.tx"), &template.replace("loop.tx", &format!("chain{}.tx", k + 1)));
    }
    let path = scratch("chain.tmx", &EXAMPLE.replacen("</objectgroup>", &object.replace("loop.tx", "chain0.tx"), 1));
    let err = import(&path, builtin_compendium()).unwrap_err();
    assert!(err.contains("more than 128 files read for one map"), "{err}");
}
