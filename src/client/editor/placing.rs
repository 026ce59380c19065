//! The editor panel's sections for what the Object and Item tools place (ATK-16, TIME-18).

use super::Editor;
use super::panel::choose;
use bevy_egui::egui;

/// ATK-16: what the Object tool places; a click on a square with an object takes it away.
pub(super) fn object_section(ui: &mut egui::Ui, e: &mut Editor) {
    use crate::rules::objects::{Condition, Material, ObjectKind};
    let o = &mut e.object;
    ui.horizontal(|ui| {
        ui.label("kind");
        choose(ui, "okind", &mut o.kind, &[ObjectKind::Door, ObjectKind::Crate, ObjectKind::Barricade], |k| {
            format!("{k:?}")
        });
    });
    ui.horizontal(|ui| {
        ui.label("material");
        let all = [
            Material::Paper,
            Material::Leather,
            Material::Glass,
            Material::Wood,
            Material::Earth,
            Material::Rubber,
            Material::Iron,
            Material::Rock,
            Material::Steel,
        ];
        choose(ui, "omat", &mut o.material, &all, |m| format!("{m:?}"));
    });
    ui.horizontal(|ui| {
        ui.label("thickness (digits, SPACE-3)");
        ui.add(egui::DragValue::new(&mut o.thickness).range(1..=crate::rules::objects::MAX_THICKNESS));
    });
    ui.horizontal(|ui| {
        for c in [Condition::Worn, Condition::Reinforced, Condition::Enchanted, Condition::Fragile] {
            let mut on = o.conditions.contains(&c);
            if ui.checkbox(&mut on, format!("{c:?}").to_lowercase()).changed() {
                o.conditions.retain(|x| *x != c);
                if on {
                    o.conditions.push(c);
                }
            }
        }
    });
    if o.kind == ObjectKind::Door {
        ui.checkbox(&mut o.open, "starts open");
    } else {
        o.open = false;
    }
    ui.label(format!("durability {} (ATK-16); click a square with the Object tool (O)", o.durability()));
}

/// TIME-18: what the Item tool leaves on a square; a click where the same item lies takes it.
pub(super) fn item_section(ui: &mut egui::Ui, e: &mut Editor, c: &crate::level::compendium::Compendium) {
    let keys: Vec<String> = c.items.keys().cloned().collect();
    let name = |k: &String| c.items.get(k).map_or_else(|| k.clone(), |d| format!("{} ({:?})", d.name, d.weight));
    ui.horizontal(|ui| {
        ui.label("item");
        choose(ui, "item", &mut e.item, &keys, name);
    });
    ui.label(format!("{} on the map; click a square with the Item tool (I)", e.doc.level().items.len()));
}
