//! The player's own key bindings: `assets/input.ron` maps action names to keys or mouse
//! buttons, e.g. `{ EndTurn: [Key(Enter)], Dodge: [Key(KeyJ)] }` (key names as Bevy's
//! `KeyCode`: `KeyA`…`KeyZ`, `Digit1`, `Space`, `F2`, `ArrowUp`; buttons as `Mouse(Left)`).
//! Listed actions take exactly the listed inputs; the others keep their defaults. A missing
//! file is the defaults; a broken one is reported (file, line, column) and the defaults kept.

use super::input::PlayerAction;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::Path;

/// Where the game looks for the player's bindings (beside `levels/`).
pub const BINDINGS_FILE: &str = "assets/input.ron";

/// One input bound to an action.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq)]
pub enum Binding {
    Key(KeyCode),
    Mouse(MouseButton),
    /// Either Shift, Control or Alt key (as Sprint's default, `Modifier(Shift)`).
    Modifier(Modifier),
}

#[derive(Deserialize, Clone, Copy, Debug, PartialEq)]
pub enum Modifier {
    Shift,
    Control,
    Alt,
}

/// Actions that are not buttons: the zoom is the mouse wheel's axis.
const NOT_REBINDABLE: [PlayerAction; 1] = [PlayerAction::Zoom];

/// The default map with the file's bindings applied; the error names the file, line and column.
pub fn bindings_from_str(file: &str, text: &str) -> Result<InputMap<PlayerAction>, String> {
    let parsed: HashMap<PlayerAction, Vec<Binding>> =
        ron::from_str(text).map_err(|e| shorten(crate::level::ron_error(file, &e).to_string()))?;
    let mut map = PlayerAction::input_map();
    let mut actions: Vec<_> = parsed.into_iter().collect();
    // Applied in a fixed order, so the same file always gives the same map.
    actions.sort_by_key(|(a, _)| format!("{a:?}"));
    for (action, inputs) in actions {
        if NOT_REBINDABLE.contains(&action) {
            return Err(format!("{file}: {action:?} is the mouse wheel and cannot be bound to keys"));
        }
        if inputs.is_empty() {
            return Err(format!("{file}: {action:?} has no key: an action must keep at least one"));
        }
        map.clear_action(&action);
        for input in inputs {
            match input {
                Binding::Key(k) => map.insert(action, k),
                Binding::Mouse(b) => map.insert(action, b),
                Binding::Modifier(m) => map.insert(
                    action,
                    match m {
                        Modifier::Shift => ModifierKey::Shift,
                        Modifier::Control => ModifierKey::Control,
                        Modifier::Alt => ModifierKey::Alt,
                    },
                ),
            };
        }
    }
    Ok(map)
}

/// A wrong key name makes RON list all 190 key names: the banner says where to look instead.
fn shorten(message: String) -> String {
    match message.find(", expected one of") {
        Some(at) if message.len() - at > 300 => format!(
            "{} (key names as Bevy's KeyCode: KeyA..KeyZ, Digit0..Digit9, F1..F12, Space, Enter, Escape, ArrowUp, Minus, ...; the actions as listed in {BINDINGS_FILE})",
            &message[..at]
        ),
        _ => message,
    }
}

/// The bindings from `path`: the defaults if there is no such file, else the file's or why
/// it cannot be used (and then the defaults are kept).
pub fn load_bindings(path: &Path) -> (InputMap<PlayerAction>, Option<String>) {
    let shown = path.display().to_string();
    if !path.exists() {
        return (PlayerAction::input_map(), None);
    }
    if !path.is_file() {
        return (PlayerAction::input_map(), Some(format!("{shown}: not a file; the default keys are used")));
    }
    // A bindings file is a few lines: anything far larger is not one (and is not read whole).
    let text = match std::fs::metadata(path) {
        Ok(m) if m.len() > 256 * 1024 => Err(format!("{shown}: {} bytes is too large for a bindings file", m.len())),
        _ => std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}")),
    };
    match text.and_then(|t| bindings_from_str(&shown, &t)) {
        Ok(map) => (map, None),
        Err(e) => (PlayerAction::input_map(), Some(format!("{e}; the default keys are used"))),
    }
}

/// The key (or button) each action is bound to, for the help, the buttons and the pause menu:
/// what the player pressed to rebind shows where the keys are named.
#[derive(Resource, Clone, Debug, Default)]
pub struct KeyNames(pub HashMap<PlayerAction, String>);

impl KeyNames {
    pub fn from_map(map: &InputMap<PlayerAction>) -> KeyNames {
        let mut names = HashMap::new();
        for (action, inputs) in map.iter_buttonlike() {
            if let Some(first) = inputs.first() {
                names.insert(*action, input_name(first.as_ref()));
            }
        }
        KeyNames(names)
    }

    /// The name of the key bound to `action` ("?" if none).
    pub fn of(&self, action: PlayerAction) -> &str {
        self.0.get(&action).map_or("?", String::as_str)
    }

    /// `text` with each `{Action}` replaced by its key's name.
    pub fn fill(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else { break };
            out.push_str(&rest[..open]);
            let name = &rest[open + 1..open + close];
            match ron::from_str::<PlayerAction>(name) {
                Ok(action) => out.push_str(self.of(action)),
                Err(_) => out.push_str(&rest[open..=open + close]),
            }
            rest = &rest[open + close + 1..];
        }
        out.push_str(rest);
        out
    }
}

/// A short name for one input: "B", "1", "Space", "F2", "Shift", "click".
fn input_name(input: &dyn Buttonlike) -> String {
    let any = input.as_reflect();
    if let Some(k) = any.downcast_ref::<KeyCode>() {
        let name = format!("{k:?}");
        let short = name.strip_prefix("Key").or_else(|| name.strip_prefix("Digit")).unwrap_or(&name);
        return match short {
            "Escape" => "Esc".into(),
            "Minus" => "-".into(),
            "Equal" => "=".into(),
            "Period" => ".".into(),
            "Comma" => ",".into(),
            "Slash" => "/".into(),
            "Semicolon" => ";".into(),
            "Delete" => "Del".into(),
            "ArrowUp" => "Up".into(),
            "ArrowDown" => "Down".into(),
            "ArrowLeft" => "Left".into(),
            "ArrowRight" => "Right".into(),
            other => other.to_string(),
        };
    }
    if let Some(m) = any.downcast_ref::<MouseButton>() {
        return match m {
            MouseButton::Left => "click".into(),
            MouseButton::Right => "right click".into(),
            other => format!("{other:?} click").to_lowercase(),
        };
    }
    if let Some(m) = any.downcast_ref::<ModifierKey>() {
        return format!("{m:?}");
    }
    format!("{input:?}")
}

/// The default keys and buttons (`assets/input.ron` may override them, above).
impl PlayerAction {
    pub fn input_map() -> InputMap<PlayerAction> {
        use PlayerAction::*;
        InputMap::new([
            (ConfirmKey, KeyCode::Enter),
            (ConfirmKey, KeyCode::NumpadEnter),
            (EndTurn, KeyCode::Space),
            (TurnLeft, KeyCode::KeyQ),
            (TurnRight, KeyCode::KeyE),
            (Weapon1, KeyCode::Digit1),
            (Weapon2, KeyCode::Digit2),
            (Weapon3, KeyCode::Digit3),
            (Weapon4, KeyCode::Digit4),
            (Weapon5, KeyCode::Digit5),
            (Weapon6, KeyCode::Digit6),
            (Stand, KeyCode::KeyX),
            (Crouch, KeyCode::KeyC),
            (Prone, KeyCode::KeyZ),
            (Hide, KeyCode::KeyH),
            (Search, KeyCode::KeyF),
            (Door, KeyCode::KeyO),
            (UseItem, KeyCode::KeyU),
            (PickUp, KeyCode::KeyY),
            (GiveItem, KeyCode::KeyM),
            (DropItem, KeyCode::Delete),
            (Ready, KeyCode::Period),
            (Drag, KeyCode::Comma),
            (Lift, KeyCode::Slash),
            (Mount, KeyCode::Semicolon),
            (Flee, KeyCode::KeyG),
            (FreeUp, KeyCode::Backspace),
            (Block, KeyCode::KeyB),
            // In the turn, with a curve ready, B bends it (`bends.rs`); in a defense window, Block.
            (Bend, KeyCode::KeyB),
            (Dodge, KeyCode::KeyD),
            (Resist, KeyCode::KeyR),
            (NoReaction, KeyCode::KeyN),
            (RaiseFate, KeyCode::Digit0),
            (Counter, KeyCode::KeyK),
            // The arrows move the keyboard cursor (`cursor.rs`); WASD pans.
            (PanUp, KeyCode::KeyW),
            (PanDown, KeyCode::KeyS),
            (PanLeft, KeyCode::KeyA),
            (PanRight, KeyCode::KeyD),
            (Cancel, KeyCode::Escape),
            (Help, KeyCode::F1),
            (Snapshot, KeyCode::F12),
            (Reasons, KeyCode::KeyI),
            (FastForward, KeyCode::KeyT),
            (ToggleReach, KeyCode::F2),
            (ToggleFacing, KeyCode::F3),
            (ToggleThreat, KeyCode::F4),
            (ToggleSight, KeyCode::F5),
            (ToggleFog, KeyCode::F6),
            (ToggleGrid, KeyCode::F7),
            (ToggleAutoDefend, KeyCode::F8),
            (ToggleFatePrompts, KeyCode::F9),
            (Additive, KeyCode::KeyJ),
            (Slower, KeyCode::Minus),
            (Faster, KeyCode::Equal),
        ])
        .with(Confirm, MouseButton::Left)
        .with(Cancel, MouseButton::Right)
        .with(Sprint, ModifierKey::Shift)
        .with_axis(Zoom, MouseScrollAxis::Y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys_of(map: &InputMap<PlayerAction>, action: PlayerAction) -> usize {
        map.get_buttonlike(&action).map_or(0, |b| b.len())
    }

    #[test]
    fn the_help_names_the_keys_as_bound() {
        let defaults = KeyNames::from_map(&PlayerAction::input_map());
        assert_eq!(
            defaults.fill("{Block}/{Dodge}: defend, {EndTurn}: end turn, {Sprint}, {Confirm}"),
            "B/D: defend, Space: end turn, Shift, click"
        );
        assert_eq!(
            defaults.fill("{Weapon1}-{Weapon6}, {Cancel}, {Slower}/{Faster}, {Nope} {"),
            "1-6, Esc, -/=, {Nope} {"
        );
        let mine = bindings_from_str("input.ron", "{ EndTurn: [Key(Enter)], Dodge: [Key(KeyJ)] }").unwrap();
        assert_eq!(KeyNames::from_map(&mine).fill("{Dodge} / {EndTurn}"), "J / Enter");
    }

    #[test]
    fn a_file_rebinds_only_what_it_lists() {
        let map =
            bindings_from_str("input.ron", "{ EndTurn: [Key(Enter), Mouse(Middle)], Dodge: [Key(KeyJ)] }").unwrap();
        assert_eq!(keys_of(&map, PlayerAction::EndTurn), 2);
        assert_eq!(keys_of(&map, PlayerAction::Dodge), 1);
        assert_eq!(keys_of(&map, PlayerAction::Block), keys_of(&PlayerAction::input_map(), PlayerAction::Block));
    }

    #[test]
    fn a_broken_file_is_located_and_the_defaults_kept() {
        let cases = [
            ("{ EndTurn: [Key(Spcae)] }", "input.ron:1:"),
            ("{ Teleport: [Key(KeyT)] }", "input.ron:1:"),
            ("{ EndTurn: [Key(Space)]\n", "Expected comma"),
            ("{ Zoom: [Key(KeyZ)] }", "cannot be bound"),
            ("{ EndTurn: [] }", "at least one"),
        ];
        for (text, says) in cases {
            let e = bindings_from_str("input.ron", text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
        let dir = std::env::temp_dir().join(format!("meshal-bindings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let broken = dir.join("input.ron");
        std::fs::write(&broken, "{ EndTurn: [Key(Spcae)] }").unwrap();
        let (map, problem) = load_bindings(&broken);
        let problem = problem.unwrap();
        assert!(problem.contains("the default keys are used"));
        assert!(problem.contains("`Spcae`") && problem.len() < 400, "short enough for the banner: {problem}");
        assert_eq!(keys_of(&map, PlayerAction::EndTurn), keys_of(&PlayerAction::input_map(), PlayerAction::EndTurn));
        assert_eq!(std::fs::read_to_string(&broken).unwrap(), "{ EndTurn: [Key(Spcae)] }", "the file is left alone");
        // A directory where the file should be.
        let (_, problem) = load_bindings(&dir);
        assert!(problem.unwrap().contains("not a file"));
        let (_, none) = load_bindings(&dir.join("missing.ron"));
        assert!(none.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_shipped_file_is_the_defaults() {
        let text = std::fs::read_to_string(BINDINGS_FILE).unwrap();
        let parsed: HashMap<PlayerAction, Vec<Binding>> = ron::from_str(&text).unwrap();
        let defaults = PlayerAction::input_map();
        for (action, inputs) in &parsed {
            assert_eq!(inputs.len(), keys_of(&defaults, *action), "{action:?}");
        }
        assert!(bindings_from_str(BINDINGS_FILE, &text).is_ok());
    }
}
