//! What several test binaries share.

/// Every level file, for the whole-battle checks (`the_shipped_list_holds_every_level_file`
/// keeps it whole).
pub const SHIPPED: [(&str, &str); 16] = [
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
];
