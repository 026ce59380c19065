//! What several test binaries share.

/// Every level file, for the whole-battle checks (`the_shipped_list_holds_every_level_file`
/// keeps it whole).
#[allow(dead_code)]
pub const SHIPPED: [(&str, &str); 19] = [
    ("duel", include_str!("../../levels/duel.level.ron")),
    ("open_field", include_str!("../../levels/open_field.level.ron")),
    ("walls_and_cover", include_str!("../../levels/walls_and_cover.level.ron")),
    ("darkness", include_str!("../../levels/darkness.level.ron")),
    ("skirmish", include_str!("../../levels/skirmish.level.ron")),
    ("hold_the_gate", include_str!("../../levels/hold_the_gate.level.ron")),
    ("wolf_den", include_str!("../../levels/wolf_den.level.ron")),
    ("archers_wall", include_str!("../../levels/archers_wall.level.ron")),
    ("brute_corridor", include_str!("../../levels/brute_corridor.level.ron")),
    ("crypt", include_str!("../../levels/crypt.level.ron")),
    ("the_mill", include_str!("../../levels/the_mill.level.ron")),
    ("the_bridge", include_str!("../../levels/the_bridge.level.ron")),
    ("the_crossing", include_str!("../../levels/the_crossing.level.ron")),
    ("great_field", include_str!("../../levels/great_field.level.ron")),
    ("the_ledge", include_str!("../../levels/the_ledge.level.ron")),
    ("the_storehouse", include_str!("../../levels/the_storehouse.level.ron")),
    ("the_chapel", include_str!("../../levels/the_chapel.level.ron")),
    ("the_cloister", include_str!("../../levels/the_cloister.level.ron")),
    ("the_riders", include_str!("../../levels/the_riders.level.ron")),
];

/// The events logged since `mark` (a log length taken before a command).
#[allow(dead_code)]
pub fn since(b: &meshal_tactics::battle::Battle, mark: usize) -> Vec<&meshal_tactics::battle::Event> {
    b.log()[mark..].iter().map(|e| &e.event).collect()
}

/// A small test level: `rows` drawn with `.` floor, `W` wall, `=` low wall and `%` dark floor
/// (north row first), two hostile sides Blue and Red, and `creatures` (RON creature entries).
#[allow(dead_code)]
pub fn level_text(name: &str, rows: &[&str], creatures: &[&str]) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        r#"(name: "{name}", map: [{}],
        legend: {{ '.': "floor", 'W': "wall", '=': "low", '%': "dark" }},
        terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true),
            "low": (blocks_movement: true, cross_height: Some(1), low_cover: true), "dark": (dark: true) }},
        sides: [(name: "Blue"), (name: "Red")], creatures: [{}])"#,
        rows.join(", "),
        creatures.join(", ")
    )
}

/// The battle of `text` on the first seed that gives creature `first` the first turn.
#[allow(dead_code)]
pub fn battle_where_first(
    text: &str,
    compendium: &meshal_tactics::level::compendium::Compendium,
    first: meshal_tactics::battle::CreatureId,
) -> meshal_tactics::battle::Battle {
    let l = meshal_tactics::level::parse_level("test.level.ron", text, compendium).unwrap_or_else(|e| panic!("{e}"));
    (0..2000)
        .map(|seed| meshal_tactics::battle::Battle::new(&l, compendium, seed).expect("the level sets up"))
        .find(|b| b.awaiting() == Some((first, None)))
        .expect("some seed gives that creature the first turn")
}

/// What `profile` (a built-in AI profile) expects the option `summary` (e.g. "warhammer on
/// Foe") to deal, as the planner's explanation of `creature`'s decision shows it.
#[allow(dead_code)]
pub fn weighed_dealt(b: &meshal_tactics::battle::Battle, creature: u32, profile: &str, summary: &str) -> f64 {
    let p = &meshal_tactics::level::builtin_compendium().ai_profiles[profile];
    let d = meshal_tactics::ai::decision(b, creature, None, p, meshal_tactics::ai::Reasons::Shown);
    let options = d.explanation.expect("the planner weighed its options").options;
    let option = options.iter().find(|o| o.summary.starts_with(summary));
    option.unwrap_or_else(|| panic!("{profile}: no {summary} in {options:?}")).expected_dealt
}
