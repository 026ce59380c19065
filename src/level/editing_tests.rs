use super::*;
use crate::level::builtin_compendium;

fn skirmish() -> EditorDoc {
    let l = parse_level("skirmish.level.ron", include_str!("../../levels/skirmish.level.ron"), builtin_compendium())
        .unwrap();
    EditorDoc::new(l.level, Some(PathBuf::from("levels/skirmish.level.ron")))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("meshal-editing-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn every_edit_changes_the_level_and_undo_redo_walk_back_and_forth() {
    let c = builtin_compendium();
    let mut doc = skirmish();
    let original = doc.level().clone();
    let aldo = doc.level().creatures.iter().position(|c| c.name == "Captain Aldo").unwrap();
    let edits = vec![
        Edit::Paint { squares: rect_squares(Pos::new(5, 5), Pos::new(6, 6)), glyph: '#' },
        Edit::Paint { squares: line_squares(Pos::new(8, 2), Pos::new(12, 4)), glyph: '~' },
        Edit::DefineTerrain {
            glyph: 'F',
            name: "fire pit".into(),
            terrain: Terrain { dark: true, ..Terrain::default() },
        },
        Edit::MoveCreature { index: aldo, to: Pos::new(3, 11) },
        Edit::RotateCreature { index: aldo, clockwise: true },
        Edit::DuplicateCreature { index: aldo, to: Pos::new(4, 11) },
        Edit::DeleteCreature { index: 1 },
        Edit::Resize { width: 30, height: 18, fill: '.' },
        Edit::SetMaxRounds(25),
        Edit::SetRuleset(Ruleset { overreach: false, ..Ruleset::default() }),
        Edit::SetOpening(true),
        Edit::SetName { name: "Quarry, harder".into(), description: "".into() },
    ];
    let mut states = vec![doc.level().clone()];
    for e in edits.clone() {
        doc.apply(e.clone()).unwrap_or_else(|err| panic!("{e:?}: {err}"));
        assert_ne!(doc.level(), states.last().unwrap(), "{e:?} changed something");
        states.push(doc.level().clone());
    }
    // What each edit did, checked on the final state.
    let l = doc.level();
    assert_eq!(doc.glyph_at(Pos::new(5, 5)), Some('#'));
    assert_eq!(doc.glyph_at(Pos::new(6, 6)), Some('#'));
    assert_eq!(doc.glyph_at(Pos::new(10, 3)), Some('~'), "the line passes the middle");
    assert_eq!(l.legend.get(&'F').map(String::as_str), Some("fire pit"));
    let aldo_now = &l.creatures.iter().find(|c| c.name == "Captain Aldo").unwrap();
    assert_eq!(aldo_now.at, (3, 11));
    assert_eq!(aldo_now.facing, Facing::SE, "E turned one eighth clockwise");
    assert!(l.creatures.iter().any(|c| c.name == "Captain Aldo 2" && c.at == (4, 11)));
    assert!(!l.creatures.iter().any(|c| c.name == "Bryn"));
    assert_eq!((doc.width(), doc.height()), (30, 18));
    assert_eq!(doc.glyph_at(Pos::new(29, 17)), Some('.'), "new squares are filled");
    assert_eq!(doc.glyph_at(Pos::new(5, 5)), Some('#'), "the south-west corner stays put");
    assert_eq!(l.max_rounds, 25);
    assert!(l.encounter_opening);
    assert!(doc.dirty);
    assert!(doc.validate(c).is_ok(), "{:?}", doc.problems(c));
    // Undo walks back through every state, redo forward again.
    for want in states.iter().rev().skip(1) {
        assert!(doc.undo());
        assert_eq!(doc.level(), want);
    }
    assert!(!doc.undo(), "nothing left to undo");
    assert_eq!(doc.level(), &original);
    for want in states.iter().skip(1) {
        assert!(doc.redo());
        assert_eq!(doc.level(), want);
    }
    assert!(!doc.redo());
    // A new edit after an undo drops the redo branch.
    doc.undo();
    doc.apply(Edit::SetMaxRounds(7)).unwrap();
    assert!(!doc.can_redo());
}

#[test]
fn meaningless_edits_are_refused_with_the_reason_and_change_nothing() {
    let mut doc = skirmish();
    let before = doc.level().clone();
    let n = doc.level().creatures.len();
    for (edit, says) in [
        (Edit::Paint { squares: vec![Pos::new(99, 0)], glyph: '.' }, "off the"),
        (Edit::Paint { squares: vec![Pos::new(1, 1)], glyph: 'Q' }, "paints no terrain"),
        (Edit::MoveCreature { index: n, to: Pos::new(1, 1) }, "no creature"),
        (Edit::MoveCreature { index: 0, to: Pos::new(-1, 1) }, "off the"),
        (Edit::Resize { width: 0, height: 5, fill: '.' }, "1×1 to"),
        (Edit::Resize { width: 5, height: 100_000, fill: '.' }, "1×1 to"),
        (Edit::SetMaxRounds(0), "1 to 1000"),
        (Edit::SetName { name: "  ".into(), description: "".into() }, "needs a name"),
        (Edit::DefineTerrain { glyph: '"', name: "x".into(), terrain: Terrain::default() }, "cannot stand"),
        (Edit::PlaceCreature(CreatureDef { name: "Bryn".into(), ..before.creatures[0].clone() }), "already called"),
    ] {
        let err = doc.apply(edit.clone()).unwrap_err();
        assert!(err.contains(says), "{edit:?}: {err}");
        assert_eq!(doc.level(), &before);
        assert!(!doc.can_undo() && !doc.dirty);
    }
}

#[test]
fn an_edit_that_breaks_the_level_is_marked_at_its_square_until_fixed() {
    let c = builtin_compendium();
    let mut doc = skirmish();
    assert!(doc.problems(c).is_empty());
    // Paint a wall under Cato the archer: kept (the next edit may move Cato), marked at 1,6.
    doc.apply(Edit::Paint { squares: vec![Pos::new(1, 6)], glyph: '#' }).unwrap();
    let problems = doc.problems(c);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].message.contains("Cato") && problems[0].message.contains("blocks movement"), "{problems:?}");
    assert_eq!(problems[0].square, Some(Pos::new(1, 6)));
    // It cannot be saved like that.
    let dir = scratch("broken");
    let path = dir.join("x.level.ron");
    let err = doc.save(Some(&path), c).unwrap_err();
    assert!(err.starts_with("not saved:") && err.contains("blocks movement"), "{err}");
    assert!(!path.exists());
    // Moving Cato off the wall fixes it.
    let cato = doc.level().creatures.iter().position(|c| c.name == "Cato").unwrap();
    doc.apply(Edit::MoveCreature { index: cato, to: Pos::new(2, 6) }).unwrap();
    assert!(doc.problems(c).is_empty(), "{:?}", doc.problems(c));
}

#[test]
fn a_saved_level_loads_as_it_was_edited_and_a_failed_write_damages_nothing() {
    let c = builtin_compendium();
    let dir = scratch("save");
    let path = dir.join("quarry.level.ron");
    let mut doc = skirmish();
    doc.apply(Edit::SetMaxRounds(33)).unwrap();
    doc.apply(Edit::Paint { squares: vec![Pos::new(10, 10)], glyph: '=' }).unwrap();
    assert_eq!(doc.save(Some(&path), c).unwrap(), path);
    assert!(!doc.dirty);
    let loaded = crate::level::load_level(&path, c).unwrap();
    assert_eq!(loaded.level, *doc.level(), "what was saved is what was edited");
    let good = std::fs::read(&path).unwrap();
    // Creatures are one line each: a GM can still read and diff the file.
    let text = String::from_utf8(good.clone()).unwrap();
    assert!(text.lines().any(|l| l.contains("name: \"Cato\"") && l.contains("template: \"archer\"")), "{text}");
    // A disk that fails half way: the old file stays whole, no temporary is left, the doc
    // stays dirty (unsaved).
    doc.apply(Edit::SetMaxRounds(12)).unwrap();
    let failing = |p: &Path, bytes: &[u8]| {
        crate::files::write_atomically_via(p, bytes, |f, b| {
            use std::io::Write;
            f.write_all(&b[..b.len() / 2])?;
            Err(std::io::Error::other("disk full (simulated)"))
        })
    };
    let err = doc.save_with(None, c, failing).unwrap_err();
    assert!(err.contains("disk full"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), good);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
    assert!(doc.dirty);
    // Saving to a directory is refused the same way.
    assert!(doc.save(Some(&dir), c).unwrap_err().contains("directory"));
}

#[test]
fn a_blank_level_is_valid_and_names_stay_unique() {
    let c = builtin_compendium();
    let doc = EditorDoc::blank(12, 8);
    assert!(doc.validate(c).is_ok(), "{:?}", doc.problems(c));
    assert_eq!((doc.width(), doc.height()), (12, 8));
    let l = doc.level();
    assert_eq!(unique_name(l, "Wolf"), "Wolf 2");
    assert_eq!(unique_name(l, "Wolf 7"), "Wolf 2");
    assert_eq!(line_squares(Pos::new(0, 0), Pos::new(3, 1)).len(), 4);
    assert_eq!(rect_squares(Pos::new(2, 2), Pos::new(0, 0)).len(), 9);
    let huge = EditorDoc::blank(100_000, -5);
    assert_eq!((huge.width(), huge.height()), (MAX_SIDE, 3));
}

#[test]
fn a_side_is_renamed_everywhere_and_removed_only_when_empty() {
    let c = builtin_compendium();
    let mut doc = skirmish();
    doc.apply(Edit::SetVictory(vec![
        Victory::DefeatAllHostiles,
        Victory::SurviveRounds { side: "Pack".into(), rounds: 9 },
    ]))
    .unwrap();
    doc.apply(Edit::RenameSide { from: "Pack".into(), to: "Wolves".into() }).unwrap();
    let l = doc.level();
    assert!(l.sides.iter().any(|s| s.name == "Wolves") && !l.sides.iter().any(|s| s.name == "Pack"));
    assert!(l.creatures.iter().filter(|k| k.template == "grey_wolf").all(|k| k.side == "Wolves"));
    assert!(matches!(&l.victory[1], Victory::SurviveRounds { side, .. } if side == "Wolves"));
    assert!(doc.validate(c).is_ok(), "{:?}", doc.problems(c));
    assert!(
        doc.apply(Edit::RenameSide { from: "Wolves".into(), to: "Company".into() }).unwrap_err().contains("already")
    );
    assert!(doc.apply(Edit::RemoveSide("Wolves".into())).unwrap_err().contains("still has creatures"));
    let mut sides = doc.level().sides.clone();
    sides.push(SideDef { name: "Crows".into(), relations: Default::default(), human: false, ai: None });
    doc.apply(Edit::SetSides(sides)).unwrap();
    assert!(!doc.problems(c).is_empty(), "a side with no creature is a problem until fixed");
    doc.apply(Edit::RemoveSide("Crows".into())).unwrap();
    assert!(doc.problems(c).is_empty());
    assert!(doc.apply(Edit::RemoveSide("Company".into())).is_err());
}

#[test]
fn a_brush_stroke_is_one_undo_step() {
    let mut doc = skirmish();
    let before = doc.level().clone();
    let depth = doc.undo_depth();
    for x in 4..9 {
        doc.apply(Edit::Paint { squares: vec![Pos::new(x, 2)], glyph: '~' }).unwrap();
    }
    doc.squash_since(depth);
    assert_eq!(doc.undo_depth(), depth + 1);
    assert!(doc.undo());
    assert_eq!(doc.level(), &before, "one undo takes the whole stroke back");
    assert!(doc.redo());
    assert_eq!(doc.glyph_at(Pos::new(8, 2)), Some('~'));
}

// RULES: ATK-16 — the editor places an object and takes it away again (one undo step each); a
// door in a wall is a problem marked in the list; saved, the object loads with the level.
#[test]
fn objects_are_placed_and_taken_away() {
    use crate::rules::objects::{Material, ObjectDef, ObjectKind};
    let c = builtin_compendium();
    let mut doc = skirmish();
    let door = |x, y| ObjectDef {
        kind: ObjectKind::Door,
        at: (x, y),
        material: Material::Wood,
        thickness: 4,
        conditions: Vec::new(),
        open: false,
    };
    doc.apply(Edit::ToggleObject(door(5, 5))).unwrap();
    assert_eq!(doc.level().objects, vec![door(5, 5)]);
    assert!(doc.problems(c).is_empty(), "{:?}", doc.problems(c));
    let dir = scratch("objects");
    let path = dir.join("o.level.ron");
    doc.save(Some(&path), c).unwrap();
    assert_eq!(crate::level::load_level(&path, c).unwrap().level.objects, vec![door(5, 5)]);
    doc.apply(Edit::ToggleObject(door(5, 5))).unwrap();
    assert!(doc.level().objects.is_empty());
    doc.undo();
    assert_eq!(doc.level().objects.len(), 1);
    // On a wall: kept, and reported.
    doc.apply(Edit::ToggleObject(door(0, 0))).unwrap();
    let problems = doc.problems(c);
    assert!(problems.iter().any(|p| p.message.contains("open ground")), "{problems:?}");
    assert!(doc.apply(Edit::ToggleObject(door(99, 0))).is_err(), "off the map");
}
