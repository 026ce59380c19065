//! A level's objects (ATK-16, ATK-E6) on its map: checked, and their squares given the terrain
//! each makes (a closed door blocks like a wall, a crate like a low wall).

use super::{Level, LevelError, Locator};
use crate::rules::grid::{GridMap, Pos};
use crate::rules::objects::{MAX_THICKNESS, ObjectKind, looks};

/// The map with the level's objects on it; the map as it was when there are none.
pub(super) fn place(level: &Level, map: GridMap, loc: &Locator) -> Result<GridMap, LevelError> {
    if level.objects.is_empty() {
        return Ok(map);
    }
    let section = loc.find("objects");
    let mut terrains = map.terrains().to_vec();
    let looks = looks::all();
    let Some(first) = u16::try_from(terrains.len()).ok().filter(|&n| n < u16::MAX - looks.len() as u16) else {
        return Err(loc.err_at(section, "too many terrain types for objects to be added".into()));
    };
    let index = |name: &str| first + looks.iter().position(|t| t.name == name).expect("a known look") as u16;
    terrains.extend(looks.iter().cloned());
    let mut cells: Vec<u16> = (0..map.height())
        .flat_map(|y| (0..map.width()).map(move |x| Pos::new(x, y)))
        .map(|p| map.terrain_index(p))
        .collect();
    let mut seen = vec![false; cells.len()];
    for (i, o) in level.objects.iter().enumerate() {
        let at = Pos::new(o.at.0, o.at.1);
        // Where the entry is, looked up only for an error (a scan of the file per object).
        let here = LazyAt(|| section.and_then(|from| loc.find_nth("kind:", from, i)));
        let what = format!("object {} ({:?} at {at})", i + 1, o.kind);
        if !map.in_bounds(at) {
            return Err(loc.err_at(here.get(), format!("{what} is off the map")));
        }
        let t = map.terrain(at);
        if t.blocks_movement || t.drop > 0 {
            return Err(loc.err_at(here.get(), format!("{what} stands on \"{}\"; an object needs open ground", t.name)));
        }
        if seen[map.index(at)] {
            return Err(loc.err_at(here.get(), format!("{what}: another object already stands there")));
        }
        if !(1..=MAX_THICKNESS).contains(&o.thickness) {
            return Err(
                loc.err_at(here.get(), format!("{what}: thickness must be 1..={MAX_THICKNESS} digits (SPACE-3)"))
            );
        }
        if o.open && o.kind != ObjectKind::Door {
            return Err(loc.err_at(here.get(), format!("{what}: only a door can start open")));
        }
        seen[map.index(at)] = true;
        cells[map.index(at)] = index(o.look(o.open));
    }
    GridMap::new(map.width(), map.height(), terrains, cells).map_err(|e| loc.err_at(section, e.to_string()))
}

/// A source offset worked out only when asked.
struct LazyAt<F: Fn() -> Option<usize>>(F);

impl<F: Fn() -> Option<usize>> LazyAt<F> {
    fn get(&self) -> Option<usize> {
        (self.0)()
    }
}
