//! Levels from Tiled maps (`meshal-tactics import-tiled MAP.tmx -o levels/NAME.level.ron`).
//!
//! The format (README, "Maps from Tiled"):
//! - an orthogonal map; its tile layers, top layer winning, give each square's terrain: a tile's
//!   custom property `terrain` names a terrain type (an empty square is `floor`);
//! - terrain types are the usual ones (`floor`, `wall`, `low_wall`, `rough`, `thicket`, `dark`,
//!   `water`, `pit` 3 deep, `chasm` 6 deep) or defined by a map property `terrain.NAME` whose value is the RON of its
//!   properties, e.g. `terrain.lava` = `(resistance: 2, dark: false)`;
//! - an object layer named `creatures` places compendium creatures: the object's name is the
//!   creature's, its square is where the object's point (or its tile's foot) lies, and its
//!   properties are `template` and `side` (both required), `facing`, `posture`, `controller`
//!   (`Human` or `Ai`), `ai` (a profile) and `hidden` (bool);
//! - map properties `name`, `description`, `max_rounds`, `human` (the side a person plays),
//!   `encounter_opening` (bool: PERC-E7's spot checks and a surprise round).
//!
//! Unknown properties, unknown terrains and creatures off the map are errors naming the object
//! or square; the result is checked like any level file before anything is written.

use super::{ControllerDef, CreatureDef, Level, SideDef, compendium::Compendium, parse_level};
use crate::rules::facing::Facing;
use crate::rules::grid::Terrain;
use std::collections::BTreeMap;
use std::path::Path;
use tiled::{LayerType, PropertyValue};

/// Tiled reads the map and its tilesets through this: the same bounded reader as every file
/// the program reads (a device or a huge file is refused, a pipe read only to the limit).
/// It counts the files read: the `tiled` crate keeps a template only once it has read it
/// whole, so a template that names itself (or two that name each other) was read again and
/// again until the stack overflowed.
struct BoundedReader {
    read: std::collections::BTreeSet<std::path::PathBuf>,
}

/// The most files one import reads: the map, its tilesets and its templates (the crate reads
/// each once); a chain of templates each naming the next is read by recursion too.
const MAX_FILES_READ: usize = 128;

impl tiled::ResourceReader for BoundedReader {
    type Resource = std::io::Cursor<Vec<u8>>;
    type Error = std::io::Error;
    fn read_from(&mut self, path: &Path) -> Result<Self::Resource, Self::Error> {
        let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if !self.read.insert(file) {
            return Err(std::io::Error::other(format!(
                "{}: read a second time: a template that names itself, directly or through others",
                path.display()
            )));
        }
        if self.read.len() > MAX_FILES_READ {
            return Err(std::io::Error::other(format!(
                "{}: more than {MAX_FILES_READ} files read for one map",
                path.display()
            )));
        }
        let text = crate::files::read_text(path, crate::files::FileKind::Level)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        super::tiled_bounds::check(&text).map_err(|e| std::io::Error::other(format!("{}: {e}", path.display())))?;
        Ok(std::io::Cursor::new(text.into_bytes()))
    }
}

/// The usual terrain types a Tiled map may name without defining them.
fn builtin_terrain(name: &str) -> Option<Terrain> {
    let t = Terrain::default();
    Some(match name {
        "floor" => t,
        "wall" => Terrain { blocks_movement: true, blocks_sight: true, ..t },
        "low_wall" => Terrain { blocks_movement: true, cross_height: Some(1), low_cover: true, ..t },
        "rough" => Terrain { difficult: true, ..t },
        "thicket" => Terrain { difficult: true, concealing: true, ..t },
        "dark" => Terrain { dark: true, ..t },
        "water" => Terrain { resistance: 2, ..t },
        "pit" => Terrain { drop: 3, ..t },
        "chasm" => Terrain { drop: 6, ..t },
        _ => return None,
    })
}

fn text(v: &PropertyValue) -> Option<String> {
    match v {
        PropertyValue::StringValue(s) | PropertyValue::FileValue(s) => Some(s.clone()),
        _ => None,
    }
}

/// Read a Tiled map as a level, checked against the compendium as `check` would.
pub fn import(path: &Path, compendium: &Compendium) -> Result<Level, String> {
    let file = path.display().to_string();
    let err = |m: String| format!("{file}: {m}");
    // The map's size is checked before Tiled builds its layers: a hostile file must not make
    // it allocate billions of tiles.
    // So are its layers' data, its tilesets and whatever else the `tiled` crate would trust
    // (`tiled_bounds`); the tilesets and templates it reads are checked as they are read.
    let source = crate::files::read_text(path, crate::files::FileKind::Level).map_err(|e| e.to_string())?;
    super::tiled_bounds::check(&source).map_err(err)?;
    let map = tiled::Loader::with_reader(BoundedReader { read: Default::default() })
        .load_tmx_map(path)
        .map_err(|e| err(e.to_string()))?;
    if map.orientation != tiled::Orientation::Orthogonal {
        return Err(err(format!("the map is {:?}; only orthogonal maps are squares", map.orientation)));
    }
    let (w, h) = (map.width as i32, map.height as i32);
    if !(1..=crate::rules::grid::MAX_SIDE).contains(&w) || !(1..=crate::rules::grid::MAX_SIDE).contains(&h) {
        return Err(err(format!("a {w}×{h} map; a level is 1×1 to 256×256")));
    }
    // Map properties.
    let mut level_name = path.file_stem().map_or("Imported map".into(), |s| s.to_string_lossy().into_owned());
    let (mut description, mut max_rounds, mut human) = (String::new(), 40u32, None::<String>);
    let mut encounter_opening = false;
    let mut terrains: BTreeMap<String, Terrain> = BTreeMap::new();
    let mut props: Vec<(&String, &PropertyValue)> = map.properties.iter().collect();
    props.sort_by_key(|(k, _)| k.as_str());
    for (key, value) in props {
        let s = || text(value).ok_or_else(|| err(format!("map property '{key}' must be a string")));
        match key.as_str() {
            "name" => level_name = s()?,
            "description" => description = s()?,
            "human" => human = Some(s()?),
            "max_rounds" => {
                max_rounds = match value {
                    PropertyValue::IntValue(n) if (1..=1000).contains(n) => *n as u32,
                    _ => return Err(err(format!("map property 'max_rounds' must be an int 1..=1000, not {value:?}"))),
                }
            }
            "encounter_opening" => match value {
                PropertyValue::BoolValue(b) => encounter_opening = *b,
                _ => return Err(err("map property 'encounter_opening' must be a bool".into())),
            },
            k if k.starts_with("terrain.") => {
                let name = &k["terrain.".len()..];
                let t: Terrain = ron::from_str(&s()?).map_err(|e| err(format!("map property '{key}': {e}")))?;
                terrains.insert(name.to_string(), Terrain { name: name.to_string(), ..t });
            }
            other => {
                return Err(err(format!(
                    "unknown map property '{other}' (known: name, description, max_rounds, human, encounter_opening, terrain.NAME)"
                )));
            }
        }
    }
    // Terrain of every square: the top tile layer with a tile there wins.
    let mut grid: Vec<Vec<String>> = vec![vec!["floor".to_string(); w as usize]; h as usize];
    let mut saw_tiles = false;
    let mut creatures: Vec<CreatureDef> = Vec::new();
    let mut items: Vec<super::ItemOnMap> = Vec::new();
    let mut sides: Vec<String> = Vec::new();
    for layer in map.layers() {
        match layer.layer_type() {
            LayerType::Tiles(tiles) => {
                saw_tiles = true;
                for row in 0..h {
                    for x in 0..w {
                        let Some(tile) = tiles.get_tile(x, row) else { continue };
                        let at = (x, h - 1 - row);
                        let data = tile
                            .get_tile()
                            .ok_or_else(|| err(format!("the tile at {},{} has no data in its tileset", at.0, at.1)))?;
                        let name = data.properties.get("terrain").and_then(text).ok_or_else(|| {
                            err(format!(
                                "tile {} of tileset '{}' (at {},{}) has no string property 'terrain'",
                                tile.id(),
                                tile.get_tileset().name,
                                at.0,
                                at.1
                            ))
                        })?;
                        if let Some(other) = data.properties.keys().find(|k| *k != "terrain") {
                            return Err(err(format!(
                                "tile {} of tileset '{}': unknown property '{other}' (a tile has only 'terrain')",
                                tile.id(),
                                tile.get_tileset().name
                            )));
                        }
                        grid[row as usize][x as usize] = name;
                    }
                }
            }
            // TIME-18: items lying on the map, one object each, its string property `item`
            // naming the compendium entry.
            LayerType::Objects(objects) if layer.name == "items" => {
                for o in objects.objects() {
                    let item = ground_item(&o, &map, compendium)
                        .map_err(|m| err(format!("object {} \"{}\": {m}", o.id(), o.name)))?;
                    items.push(item);
                }
            }
            LayerType::Objects(objects) if layer.name == "creatures" => {
                for o in objects.objects() {
                    let c = creature(&o, &map, compendium)
                        .map_err(|m| err(format!("object {} \"{}\": {m}", o.id(), o.name)))?;
                    if !sides.contains(&c.side) {
                        sides.push(c.side.clone());
                    }
                    creatures.push(c);
                }
            }
            _ => {}
        }
    }
    if !saw_tiles {
        return Err(err("the map has no tile layer to take the terrain from".into()));
    }
    // Every terrain named is defined: by the map, else a usual one.
    for (row, line) in grid.iter().enumerate() {
        for (x, name) in line.iter().enumerate() {
            if !terrains.contains_key(name) {
                let t = builtin_terrain(name).ok_or_else(|| {
                    err(format!(
                        "unknown terrain '{name}' at {x},{} (define it with a map property 'terrain.{name}')",
                        h as usize - 1 - row
                    ))
                })?;
                terrains.insert(name.clone(), Terrain { name: name.clone(), ..t });
            }
        }
    }
    // One legend character per terrain in use.
    const GLYPHS: &str = ".#=~T%wabcdefghijklmnopqrstuvxyzABCDEFGHIJKLMNOPQRSUVWXYZ0123456789";
    let preferred = |n: &str| match n {
        "floor" => Some('.'),
        "wall" => Some('#'),
        "low_wall" => Some('='),
        "rough" => Some('~'),
        "thicket" => Some('T'),
        "dark" => Some('%'),
        "water" => Some('w'),
        "chasm" => Some('_'),
        _ => None,
    };
    let mut legend: BTreeMap<char, String> = BTreeMap::new();
    let mut glyph_of: BTreeMap<String, char> = BTreeMap::new();
    let used: std::collections::BTreeSet<&String> = grid.iter().flatten().collect();
    // The usual terrains keep their usual characters; the others take the next free one.
    for name in &used {
        if let Some(g) = preferred(name) {
            legend.insert(g, (*name).clone());
            glyph_of.insert((*name).clone(), g);
        }
    }
    let rest: Vec<&String> = used.iter().copied().filter(|n| !glyph_of.contains_key(*n)).collect();
    for name in rest {
        let g = GLYPHS
            .chars()
            .find(|g| !legend.contains_key(g))
            .ok_or_else(|| err(format!("more than {} terrain types", GLYPHS.len())))?;
        legend.insert(g, name.clone());
        glyph_of.insert(name.clone(), g);
    }
    terrains.retain(|name, _| glyph_of.contains_key(name));
    if let Some(h) = &human
        && !sides.contains(h)
    {
        return Err(err(format!("map property 'human' names \"{h}\", which no creature's side is")));
    }
    let level = Level {
        name: level_name,
        description,
        map: grid.iter().map(|line| line.iter().map(|n| glyph_of[n]).collect()).collect(),
        legend,
        terrains,
        sides: sides
            .iter()
            .map(|s| SideDef {
                name: s.clone(),
                relations: BTreeMap::new(),
                human: human.as_ref() == Some(s),
                ai: None,
            })
            .collect(),
        creatures,
        victory: vec![super::Victory::DefeatAllHostiles],
        ruleset: Default::default(),
        max_rounds,
        encounter_opening,
        objects: Vec::new(),
        items,
    };
    // The same checks as any level file.
    let doc = super::editing::EditorDoc::new(level, None);
    parse_level(&file, &doc.to_ron(), compendium).map_err(|e| err(e.message))?;
    Ok(doc.level().clone())
}

/// The square an object stands on (its point; a tile object's foot), y counted from the south.
fn object_square(o: &tiled::Object, map: &tiled::Map) -> Result<(i32, i32), String> {
    let (tw, th) = (map.tile_width.max(1) as f32, map.tile_height.max(1) as f32);
    // A tile object's (x, y) is its bottom-left corner; a point or rectangle's, its top-left.
    let foot = if o.tile_data().is_some() { o.y - 0.5 } else { o.y };
    let (col, row) = ((o.x / tw).floor(), (foot / th).floor());
    let (w, h) = (map.width as f32, map.height as f32);
    if !(o.x.is_finite() && foot.is_finite()) || col < 0.0 || row < 0.0 || col >= w || row >= h {
        return Err(format!("at pixel ({}, {}), off the {}×{} map", o.x, o.y, map.width, map.height));
    }
    Ok((col as i32, map.height as i32 - 1 - row as i32))
}

/// An object of the `items` layer: an item lying on its square.
fn ground_item(o: &tiled::Object, map: &tiled::Map, compendium: &Compendium) -> Result<super::ItemOnMap, String> {
    let at = object_square(o, map)?;
    if let Some(other) = o.properties.keys().find(|k| *k != "item") {
        return Err(format!("unknown property '{other}' (an item has only 'item')"));
    }
    let item = o
        .properties
        .get("item")
        .and_then(text)
        .ok_or_else(|| "an item needs the string property 'item'".to_string())?;
    if !compendium.items.contains_key(&item) {
        return Err(format!("item '{item}' is not in the compendium"));
    }
    Ok(super::ItemOnMap { at, item })
}

fn creature(o: &tiled::Object, map: &tiled::Map, compendium: &Compendium) -> Result<CreatureDef, String> {
    let at = object_square(o, map)?;
    let mut c = CreatureDef::new(o.name.trim(), "", "", at);
    let mut props: Vec<(&String, &PropertyValue)> = o.properties.iter().collect();
    props.sort_by_key(|(k, _)| k.as_str());
    for (key, value) in props {
        let s = || text(value).ok_or_else(|| format!("property '{key}' must be a string"));
        match key.as_str() {
            "template" => {
                let t = s()?;
                if !compendium.creatures.contains_key(&t) {
                    return Err(format!("template '{t}' is not in the compendium"));
                }
                c.template = t;
            }
            "side" => c.side = s()?,
            "facing" => {
                c.facing = Facing::parse(&s()?)
                    .ok_or_else(|| format!("facing '{}': use N, NE … NW", s().unwrap_or_default()))?
            }
            "posture" => {
                let p = s()?;
                c.posture = ron::from_str(&p)
                    .map_err(|_| format!("posture '{p}': use Standing, Crouch, Sit, Prone or Lying"))?;
            }
            "controller" => {
                c.controller = Some(match s()?.as_str() {
                    "Human" | "human" => ControllerDef::Human,
                    "Ai" | "AI" | "ai" => ControllerDef::Ai,
                    other => return Err(format!("controller '{other}': use Human or Ai")),
                })
            }
            "ai" => {
                let p = s()?;
                if !compendium.ai_profiles.contains_key(&p) {
                    return Err(format!("AI profile '{p}' is not in the compendium"));
                }
                c.ai = Some(p);
            }
            // TIME-18: what it carries, compendium keys separated by commas.
            "items" => {
                for key in s()?.split(',').map(str::trim).filter(|k| !k.is_empty()) {
                    if !compendium.items.contains_key(key) {
                        return Err(format!("item '{key}' is not in the compendium"));
                    }
                    c.items.push(key.to_string());
                }
            }
            "hidden" => match value {
                PropertyValue::BoolValue(b) => c.hidden = *b,
                _ => return Err("property 'hidden' must be a bool".into()),
            },
            other => {
                return Err(format!(
                    "unknown property '{other}' (known: template, side, facing, posture, controller, ai, items, hidden)"
                ));
            }
        }
    }
    if c.template.is_empty() || c.side.is_empty() {
        return Err("a creature needs the properties 'template' and 'side'".into());
    }
    if c.name.is_empty() {
        c.name = format!("{} {}", c.template, o.id());
    }
    Ok(c)
}

#[cfg(test)]
#[path = "tiled_tests.rs"]
mod tests;
