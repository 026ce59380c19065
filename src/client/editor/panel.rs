//! The editor's panels (egui): the tool bar, and beside the map the forms for terrain, the
//! selected creature, what Place puts down, the sides, victory, rounds and rule variants.
//! Every change goes through `Editor::edit`, so it is undoable and refused with its reason.

use super::{Editor, Tool, duplicate_selected, play_now};
use crate::client::map_view::{BAR, PANEL};
use crate::level::compendium::Compendium;
use crate::level::editing::Edit;
use crate::level::{ControllerDef, HoldArea, Relation, SideDef, Victory};
use crate::rules::facing::Facing;
use crate::rules::grid::Terrain;
use crate::rules::posture::Posture;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

const POSTURES: [Posture; 5] = [Posture::Standing, Posture::Crouch, Posture::Sit, Posture::Prone, Posture::Lying];

pub(super) fn panels(
    mut contexts: EguiContexts,
    editor: Option<ResMut<Editor>>,
    content: Res<crate::client::menu::Content>,
    mut commands: Commands,
) -> Result {
    let Some(mut editor) = editor else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let mut root = crate::client::map_view::root_ui(ctx, "editor");
    let e = &mut *editor;
    // A batch under way is collected (and its progress shown) even while its section is shut.
    e.balance.poll();
    if e.balance.is_running() {
        ctx.request_repaint_after(std::time::Duration::from_millis(150));
    }
    egui::Panel::top("editor-bar").exact_size(BAR).show(&mut root, |ui| {
        ui.horizontal_centered(|ui| tool_bar(ui, e, &content.0, &mut commands));
    });
    egui::Panel::right("editor-panel").exact_size(PANEL).resizable(false).show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.set_max_width(PANEL - 20.0);
            side_panel(ui, e, &content.0)
        });
    });
    Ok(())
}

fn tool_bar(ui: &mut egui::Ui, e: &mut Editor, c: &Compendium, commands: &mut Commands) {
    for t in Tool::ALL {
        ui.selectable_value(&mut e.tool, t, t.label());
    }
    ui.separator();
    if ui.add_enabled(e.doc.can_undo(), egui::Button::new("Undo")).on_hover_text("Ctrl+Z").clicked() {
        e.undo();
    }
    if ui.add_enabled(e.doc.can_redo(), egui::Button::new("Redo")).on_hover_text("Ctrl+Shift+Z").clicked() {
        e.redo();
    }
    ui.separator();
    ui.add(egui::TextEdit::singleline(&mut e.save_as).desired_width(190.0));
    if ui.button("Save").on_hover_text("Ctrl+S: validated, then written atomically").clicked() {
        e.save(c);
    }
    if ui.button("Play this now").on_hover_text("F5; leaving the battle comes back here").clicked() {
        play_now(e, c, commands);
    }
    if ui.button("Menu").on_hover_text("Esc").clicked() {
        commands.set_state(crate::client::screens::Screen::Menu);
    }
    if e.doc.dirty {
        ui.label("(unsaved)");
    }
}

fn side_panel(ui: &mut egui::Ui, e: &mut Editor, c: &Compendium) {
    ui.heading(&e.doc.level().name);
    ui.label(format!("{}×{} · {} creatures", e.doc.width(), e.doc.height(), e.doc.level().creatures.len()));
    for p in &e.problems {
        let at = p.square.map_or_else(String::new, |s| format!(" (marked at {s})"));
        ui.colored_label(egui::Color32::from_rgb(255, 110, 90), format!("{}{at}", p.message));
    }
    if e.problems.is_empty() {
        ui.colored_label(egui::Color32::from_rgb(140, 220, 140), "Valid: it can be saved and played.");
    }
    if !e.status.is_empty() {
        ui.label(&e.status);
    }
    ui.separator();
    egui::CollapsingHeader::new("Balance: how hard is it?").show(ui, |ui| {
        let valid = e.problems.is_empty();
        let doc = &e.doc;
        super::balance::show(ui, &mut e.balance, valid, || doc.validate(c).ok(), c);
    });
    egui::CollapsingHeader::new("Terrain").default_open(true).show(ui, |ui| terrain_section(ui, e));
    if let Some(i) = e.selected {
        egui::CollapsingHeader::new("Selected creature").default_open(true).show(ui, |ui| creature_form(ui, e, c, i));
    }
    egui::CollapsingHeader::new("Place").default_open(e.tool == Tool::Place).show(ui, |ui| place_section(ui, e, c));
    egui::CollapsingHeader::new("Objects")
        .default_open(e.tool == Tool::Object)
        .show(ui, |ui| super::placing::object_section(ui, e));
    egui::CollapsingHeader::new("Items")
        .default_open(e.tool == Tool::Item)
        .show(ui, |ui| super::placing::item_section(ui, e, c));
    egui::CollapsingHeader::new("Sides").show(ui, |ui| sides_section(ui, e, c));
    egui::CollapsingHeader::new("Level").show(ui, |ui| level_section(ui, e));
}

fn terrain_section(ui: &mut egui::Ui, e: &mut Editor) {
    ui.label("The brush, rectangle and line paint:");
    let legend: Vec<(char, String)> = e.doc.level().legend.iter().map(|(g, n)| (*g, n.clone())).collect();
    ui.horizontal_wrapped(|ui| {
        for (g, name) in &legend {
            ui.selectable_value(&mut e.glyph, *g, format!("{g} {name}"));
        }
    });
    ui.label("Define a terrain type (a new character, or an existing one to change it):");
    let form = &mut e.terrain_form;
    ui.horizontal(|ui| {
        ui.label("char");
        ui.add(egui::TextEdit::singleline(&mut form.glyph).desired_width(24.0).char_limit(1));
        ui.label("name");
        ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(120.0));
    });
    terrain_checks(ui, &mut form.terrain);
    if ui.button("Define").clicked() {
        match form.glyph.chars().next() {
            Some(glyph) => {
                let edit = Edit::DefineTerrain { glyph, name: form.name.clone(), terrain: form.terrain.clone() };
                if e.edit(edit) {
                    e.glyph = glyph;
                    e.status = format!("Terrain '{glyph}' defined.");
                }
            }
            None => e.status = "Refused: give the terrain a character".into(),
        }
    }
}

fn terrain_checks(ui: &mut egui::Ui, t: &mut Terrain) {
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut t.blocks_movement, "blocks movement");
        ui.checkbox(&mut t.blocks_sight, "blocks sight");
        ui.checkbox(&mut t.low_cover, "low cover");
        ui.checkbox(&mut t.difficult, "difficult");
        ui.checkbox(&mut t.smooth, "smooth");
        ui.checkbox(&mut t.concealing, "concealing");
        ui.checkbox(&mut t.dark, "dark");
    });
    ui.horizontal(|ui| {
        ui.label("resistance");
        ui.add(egui::DragValue::new(&mut t.resistance).range(0..=9));
        let mut crossable = t.cross_height.is_some();
        ui.checkbox(&mut crossable, "crossable, height");
        let mut h = t.cross_height.unwrap_or(1);
        ui.add_enabled(crossable, egui::DragValue::new(&mut h).range(1..=9));
        t.cross_height = crossable.then_some(h);
    });
    ui.horizontal(|ui| {
        // SPACE-E7, MOVE-12: a pit or chasm; only a knock back or tow gets a creature in.
        ui.label("drop (pit depth, 0 = solid)");
        ui.add(egui::DragValue::new(&mut t.drop).range(0..=100));
    });
    ui.horizontal(|ui| {
        // FLOW-10: dangerous ground; the attack meets erosion protection and harms Might or
        // Activeness (a level file may say otherwise).
        let mut dangerous = t.hazard.is_some();
        ui.checkbox(&mut dangerous, "hazard");
        if !dangerous {
            t.hazard = None;
            return;
        }
        let h = t.hazard.get_or_insert_with(|| crate::rules::hazard::Hazard {
            kind: "fire".into(),
            dice: 3,
            damage: Some(crate::rules::creature::DamageType::Erosion),
            targets: vec![crate::rules::creature::Attribute::Might, crate::rules::creature::Attribute::Activeness],
            drain: 0,
        });
        ui.add(egui::TextEdit::singleline(&mut h.kind).desired_width(70.0));
        ui.label("dice");
        ui.add(egui::DragValue::new(&mut h.dice).range(0..=crate::rules::hazard::MAX_HAZARD_DICE));
        ui.label("drain");
        ui.add(egui::DragValue::new(&mut h.drain).range(0..=crate::rules::hazard::MAX_HAZARD_DICE));
    });
}

/// A text field typed into a draft, applied when it loses focus (Enter, Tab or a click away):
/// a half-typed name is not an edit of its own, nor refused for clashing on the way.
fn draft_field(
    ui: &mut egui::Ui,
    draft: &mut Option<(usize, String)>,
    key: usize,
    current: &str,
    multiline: bool,
) -> Option<String> {
    if draft.as_ref().is_none_or(|(k, _)| *k != key) {
        *draft = Some((key, current.to_string()));
    }
    let (_, text) = draft.as_mut().expect("set above");
    let response = if multiline { ui.text_edit_multiline(text) } else { ui.text_edit_singleline(text) };
    if response.has_focus() {
        return None;
    }
    let typed = text.clone();
    *draft = None;
    (typed != current).then_some(typed)
}

/// A combo box over `options` (shown by `label`); true when the choice changed.
/// One rule-variant switch: its name and a chooser of its values (by their names in the level
/// file).
fn variant_row<T: Clone + PartialEq + std::fmt::Debug>(ui: &mut egui::Ui, label: &str, value: &mut T, all: &[T]) {
    ui.horizontal(|ui| {
        ui.label(label);
        choose(ui, label, value, all, |a| format!("{a:?}"));
    });
}

pub(super) fn choose<T: Clone + PartialEq>(
    ui: &mut egui::Ui,
    id: &str,
    value: &mut T,
    options: &[T],
    label: impl Fn(&T) -> String,
) -> bool {
    let before = value.clone();
    egui::ComboBox::from_id_salt(id).selected_text(label(value)).show_ui(ui, |ui| {
        for o in options {
            ui.selectable_value(value, o.clone(), label(o));
        }
    });
    *value != before
}

fn creature_form(ui: &mut egui::Ui, e: &mut Editor, c: &Compendium, i: usize) {
    let Some(mut d) = e.doc.level().creatures.get(i).cloned() else { return };
    let before = d.clone();
    let templates: Vec<String> = c.creatures.keys().cloned().collect();
    let sides: Vec<String> = e.doc.level().sides.iter().map(|s| s.name.clone()).collect();
    let mut profiles: Vec<Option<String>> = vec![None];
    profiles.extend(c.ai_profiles.keys().cloned().map(Some));
    egui::Grid::new("creature").num_columns(2).show(ui, |ui| {
        ui.label("name");
        if let Some(name) = draft_field(ui, &mut e.drafts.creature_name, i, &before.name, false) {
            d.name = name;
        }
        ui.end_row();
        ui.label("template");
        choose(ui, "template", &mut d.template, &templates, |t| t.clone());
        ui.end_row();
        ui.label("side");
        choose(ui, "side", &mut d.side, &sides, |s| s.clone());
        ui.end_row();
        ui.label("at");
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut d.at.0).range(0..=e.doc.width() - 1));
            ui.add(egui::DragValue::new(&mut d.at.1).range(0..=e.doc.height() - 1));
        });
        ui.end_row();
        ui.label("facing");
        choose(ui, "facing", &mut d.facing, &Facing::ALL, |f| f.name().to_string());
        ui.end_row();
        ui.label("posture");
        choose(ui, "posture", &mut d.posture, &POSTURES, |p| p.name().to_string());
        ui.end_row();
        ui.label("AI profile");
        choose(ui, "ai", &mut d.ai, &profiles, |p| p.clone().unwrap_or_else(|| "(the side's)".into()));
        ui.end_row();
        ui.label("played by");
        let controllers = [None, Some(ControllerDef::Ai), Some(ControllerDef::Human)];
        choose(ui, "controller", &mut d.controller, &controllers, |k| match k {
            None => "(as its side)".into(),
            Some(ControllerDef::Ai) => "the AI".into(),
            Some(ControllerDef::Human) => "a person".into(),
        });
        ui.end_row();
        ui.label("arrives");
        ui.horizontal(|ui| {
            let mut late = d.arrives.is_some();
            ui.checkbox(&mut late, "in round");
            let mut r = d.arrives.unwrap_or(1);
            ui.add_enabled(late, egui::DragValue::new(&mut r).range(1..=e.doc.level().max_rounds));
            d.arrives = late.then_some(r);
        });
        ui.end_row();
        ui.label("ambush");
        ui.checkbox(&mut d.hidden, "starts hidden (PERC-E4)");
        ui.end_row();
        ui.label("order");
        ui.horizontal(|ui| {
            let mut holds = d.hold.is_some();
            ui.checkbox(&mut holds, "hold");
            let mut h = d.hold.unwrap_or(HoldArea { from: d.at, to: d.at });
            if holds {
                ui.add(egui::DragValue::new(&mut h.from.0).prefix("x "));
                ui.add(egui::DragValue::new(&mut h.from.1).prefix("y "));
                ui.label("to");
                ui.add(egui::DragValue::new(&mut h.to.0).prefix("x "));
                ui.add(egui::DragValue::new(&mut h.to.1).prefix("y "));
            }
            d.hold = holds.then_some(h);
        });
        ui.end_row();
        ui.label("overrides");
        ui.vertical(|ui| {
            for (label, keys, chosen) in [
                ("weapons", c.weapons.keys().cloned().collect::<Vec<_>>(), &mut d.overrides.weapons),
                ("armour", c.armour.keys().cloned().collect::<Vec<_>>(), &mut d.overrides.armour),
            ] {
                let mut set = chosen.is_some();
                ui.checkbox(&mut set, format!("{label} (instead of the template's)"));
                if set {
                    let list = chosen.get_or_insert_with(Vec::new);
                    ui.horizontal_wrapped(|ui| {
                        for k in &keys {
                            let mut on = list.contains(k);
                            if ui.checkbox(&mut on, k).changed() {
                                if on { list.push(k.clone()) } else { list.retain(|x| x != k) }
                            }
                        }
                    });
                } else {
                    *chosen = None;
                }
            }
            for (label, v) in [
                ("might", &mut d.overrides.might),
                ("activeness", &mut d.overrides.activeness),
                ("spirit", &mut d.overrides.spirit),
                ("speed", &mut d.overrides.speed),
            ] {
                ui.horizontal(|ui| {
                    let mut set = v.is_some();
                    ui.checkbox(&mut set, label);
                    let mut n = v.unwrap_or(3);
                    ui.add_enabled(set, egui::DragValue::new(&mut n).range(0..=20));
                    *v = set.then_some(n);
                });
            }
        });
        ui.end_row();
        // TIME-18: what it carries besides its template's, as a count per compendium item.
        ui.label("carries");
        // One item a line, its count before its name: wrapped in a row, a name was left at
        // one line's end and its count at the next one's start.
        ui.vertical(|ui| {
            for k in c.items.keys() {
                let had = d.items.iter().filter(|x| *x == k).count();
                let mut n = had;
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut n).range(0..=4));
                    ui.label(c.items[k].name.as_str());
                });
                if n != had {
                    d.items.retain(|x| x != k);
                    d.items.extend(std::iter::repeat_n(k.clone(), n));
                }
            }
        });
        ui.end_row();
    });
    if d != before {
        e.edit(Edit::SetCreature { index: i, creature: d });
    }
    ui.horizontal(|ui| {
        if ui.button("Turn (R)").clicked() {
            e.edit(Edit::RotateCreature { index: i, clockwise: true });
        }
        if ui.button("Copy (Ctrl+D)").clicked() {
            duplicate_selected(e);
        }
        if ui.button("Delete (Del)").clicked() {
            e.edit(Edit::DeleteCreature { index: i });
            e.selected = None;
        }
    });
}

fn place_section(ui: &mut egui::Ui, e: &mut Editor, c: &Compendium) {
    let templates: Vec<String> = c.creatures.keys().cloned().collect();
    let sides: Vec<String> = e.doc.level().sides.iter().map(|s| s.name.clone()).collect();
    ui.horizontal(|ui| {
        ui.label("creature");
        choose(ui, "place-template", &mut e.template, &templates, |t| {
            c.creatures.get(t).map_or_else(|| t.clone(), |x| format!("{} ({t})", x.name))
        });
    });
    ui.horizontal(|ui| {
        ui.label("side");
        choose(ui, "place-side", &mut e.side, &sides, |s| s.clone());
    });
    if ui.button("Place with a click on the map").clicked() {
        e.tool = Tool::Place;
    }
}

fn sides_section(ui: &mut egui::Ui, e: &mut Editor, c: &Compendium) {
    let mut sides = e.doc.level().sides.clone();
    let before = sides.clone();
    let names: Vec<String> = sides.iter().map(|s| s.name.clone()).collect();
    let mut profiles: Vec<Option<String>> = vec![None];
    profiles.extend(c.ai_profiles.keys().cloned().map(Some));
    let mut rename = None;
    let mut remove = None;
    for (k, s) in sides.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("{}.", k + 1));
            if let Some(to) = draft_field(ui, &mut e.drafts.side_name, k, &s.name, false) {
                rename = Some((s.name.clone(), to));
            }
            if ui.small_button("x").on_hover_text("remove this side (once it has no creatures)").clicked() {
                remove = Some(s.name.clone());
            }
            ui.checkbox(&mut s.human, "human");
            choose(ui, &format!("side-ai-{k}"), &mut s.ai, &profiles, |p| p.clone().unwrap_or_else(|| "normal".into()));
        });
        for other in names.iter().filter(|n| **n != s.name) {
            ui.horizontal(|ui| {
                ui.label(format!("    toward {other}:"));
                let mut r = s.relations.get(other).copied().unwrap_or(Relation::Hostile);
                let all = [Relation::Hostile, Relation::Neutral, Relation::Friendly];
                if choose(ui, &format!("rel-{k}-{other}"), &mut r, &all, |r| format!("{r:?}")) {
                    s.relations.insert(other.clone(), r);
                }
            });
        }
    }
    // Relations are mutual (GEN-6): a change on one side is made on the other too.
    for k in 0..sides.len() {
        for (other, r) in sides[k].relations.clone() {
            let changed = before[k].relations.get(&other) != Some(&r);
            if changed && let Some(o) = sides.iter_mut().find(|s| s.name == other) {
                o.relations.insert(sides_name(&before, k), r);
            }
        }
    }
    if let Some((from, to)) = rename {
        e.edit(Edit::RenameSide { from, to });
        return;
    }
    if let Some(name) = remove {
        e.edit(Edit::RemoveSide(name));
        return;
    }
    if sides != before {
        e.edit(Edit::SetSides(sides.clone()));
    }
    if ui.button("Add a side").clicked() {
        let mut n = sides.len() + 1;
        while sides.iter().any(|s| s.name == format!("Side {n}")) {
            n += 1;
        }
        sides.push(SideDef { name: format!("Side {n}"), relations: Default::default(), human: false, ai: None });
        e.edit(Edit::SetSides(sides));
        e.status = "A new side needs a creature: place one for it.".into();
    }
}

fn sides_name(sides: &[SideDef], k: usize) -> String {
    sides[k].name.clone()
}

fn level_section(ui: &mut egui::Ui, e: &mut Editor) {
    let (name, description) = (e.doc.level().name.clone(), e.doc.level().description.clone());
    ui.label("name");
    if let Some(new) = draft_field(ui, &mut e.drafts.level_name, 0, &name, false) {
        e.edit(Edit::SetName { name: new, description: description.clone() });
    }
    ui.label("description");
    if let Some(new) = draft_field(ui, &mut e.drafts.description, 0, &description, true) {
        e.edit(Edit::SetName { name, description: new });
    }
    let mut rounds = e.doc.level().max_rounds;
    ui.horizontal(|ui| {
        ui.label("max rounds (then a draw)");
        ui.add(egui::DragValue::new(&mut rounds).range(1..=1000));
    });
    if rounds != e.doc.level().max_rounds {
        e.edit(Edit::SetMaxRounds(rounds));
    }
    ui.horizontal(|ui| {
        ui.label("size");
        ui.add(egui::DragValue::new(&mut e.resize.0).range(1..=256));
        ui.label("×");
        ui.add(egui::DragValue::new(&mut e.resize.1).range(1..=256));
        if ui.button("Resize").clicked() {
            let (width, height, fill) = (e.resize.0, e.resize.1, e.glyph);
            e.edit(Edit::Resize { width, height, fill });
        }
    });
    ui.label("Victory:");
    let mut victory = e.doc.level().victory.clone();
    let mut all = victory.iter().any(|v| matches!(v, Victory::DefeatAllHostiles));
    if ui.checkbox(&mut all, "defeat all hostiles (FLOW-3)").changed() {
        if all {
            victory.insert(0, Victory::DefeatAllHostiles);
        } else {
            victory.retain(|v| !matches!(v, Victory::DefeatAllHostiles));
        }
        e.edit(Edit::SetVictory(victory.clone()));
    }
    let mut remove = None;
    for (k, v) in victory.iter().enumerate() {
        let text = match v {
            Victory::SurviveRounds { side, rounds } => format!("{side} wins by surviving {rounds} rounds"),
            Victory::ReachZone { side, from, to } => format!("{side} wins on reaching {from:?}–{to:?}"),
            Victory::DefeatAllHostiles => continue,
        };
        ui.horizontal(|ui| {
            ui.label(format!("· {text}"));
            if ui.small_button("remove").clicked() {
                remove = Some(k);
            }
        });
    }
    if let Some(k) = remove {
        victory.remove(k);
        e.edit(Edit::SetVictory(victory.clone()));
    }
    let sides: Vec<String> = e.doc.level().sides.iter().map(|s| s.name.clone()).collect();
    let form = &mut e.victory_form;
    if !sides.contains(&form.side) {
        form.side = sides.first().cloned().unwrap_or_default();
    }
    ui.horizontal(|ui| {
        ui.label("add for");
        choose(ui, "victory-side", &mut form.side, &sides, |s| s.clone());
    });
    let mut add = None;
    ui.horizontal(|ui| {
        ui.label("survive");
        ui.add(egui::DragValue::new(&mut form.rounds).range(1..=1000));
        if ui.button("rounds").clicked() {
            add = Some(Victory::SurviveRounds { side: form.side.clone(), rounds: form.rounds });
        }
    });
    ui.horizontal(|ui| {
        ui.label("reach");
        ui.add(egui::DragValue::new(&mut form.from.0).prefix("x "));
        ui.add(egui::DragValue::new(&mut form.from.1).prefix("y "));
        ui.label("to");
        ui.add(egui::DragValue::new(&mut form.to.0).prefix("x "));
        ui.add(egui::DragValue::new(&mut form.to.1).prefix("y "));
        if ui.button("zone").clicked() {
            add = Some(Victory::ReachZone { side: form.side.clone(), from: form.from, to: form.to });
        }
    });
    if let Some(v) = add {
        victory.push(v);
        e.edit(Edit::SetVictory(victory));
    }
    let mut opening = e.doc.level().encounter_opening;
    if ui.checkbox(&mut opening, "encounter opening: spot checks, surprise round (PERC-E7, TIME-E9)").changed() {
        e.edit(Edit::SetOpening(opening));
    }
    ui.label("Rule variants:");
    let mut r = e.doc.level().ruleset;
    ui.checkbox(&mut r.facing, "facing (FACE)");
    ui.checkbox(&mut r.postures, "postures (POST)");
    ui.checkbox(&mut r.overreach, "overreach (ATK-5)");
    ui.checkbox(&mut r.coup_de_grace, "coup de grâce (FLOW-7)");
    ui.checkbox(&mut r.group_initiative, "group initiative (TIME-5)");
    use crate::rules::ruleset::{
        AreaCoverage, AttackResolution, Attempts, DicePoints, FacingArcs, FateOffer, Hiding, InitiativeTies,
        PostureCosts, PostureEffects, Reactions, TimeModel,
    };
    use AttackResolution as Attack;
    variant_row(ui, "attack resolution", &mut r.attack_resolution, &[Attack::Meshal, Attack::Test001]);
    variant_row(ui, "dice points (DICE-2)", &mut r.dice_points, &[DicePoints::Meshal, DicePoints::HighFaces001]);
    variant_row(ui, "attempts (DICE-6)", &mut r.attempts, &[Attempts::Meshal, Attempts::Test001]);
    variant_row(ui, "reactions (TIME-E6)", &mut r.reactions, &[Reactions::Meshal, Reactions::OneEmergency001]);
    variant_row(ui, "hiding (PERC-E4)", &mut r.hiding, &[Hiding::Meshal, Hiding::HideSpot001]);
    let ties = [InitiativeTies::ThreeDice, InitiativeTies::RollAdd001];
    variant_row(ui, "initiative ties (TIME-3)", &mut r.initiative_ties, &ties);
    let fate = [FateOffer::Players, FateOffer::Everyone, FateOffer::Off];
    variant_row(ui, "Expense of Fate (DICE-13)", &mut r.expense_of_fate, &fate);
    variant_row(ui, "facing arcs", &mut r.facing_arcs, &[FacingArcs::Quarters, FacingArcs::Wide]);
    let costs = [PostureCosts::Flat, PostureCosts::V7, PostureCosts::Table001];
    variant_row(ui, "posture costs", &mut r.posture_costs, &costs);
    let effects = [PostureEffects::Meshal, PostureEffects::Table001];
    variant_row(ui, "posture effects (POST-3)", &mut r.posture_effects, &effects);
    variant_row(ui, "areas", &mut r.area_coverage, &[AreaCoverage::Meshal, AreaCoverage::Dnd]);
    variant_row(ui, "time (TIME-S1)", &mut r.time_model, &[TimeModel::ApRounds, TimeModel::Seconds004]);
    if r != e.doc.level().ruleset {
        e.edit(Edit::SetRuleset(r));
    }
}
