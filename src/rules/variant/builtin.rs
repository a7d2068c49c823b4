//! The built-in variants: definition files under `variants/` in the
//! repository (docs/rules.md says what each one means), embedded in the binary
//! and read by the same loader as a user's files.

use super::VariantDef;
use super::file::{load_toml, read_toml};

/// Short names of the built-in variants, orthodox chess first.
pub const BUILTIN_NAMES: [&str; 17] = [
    "chess",
    "counsellor",
    "royal",
    "chaturanga",
    "courier-spiel",
    "chancellor",
    "chancellor-crosswise",
    "kings-leap",
    "chess960",
    "crazyhouse",
    "three-check",
    "five-check",
    "king-of-the-hill",
    "antichess",
    "atomic",
    "racing-kings",
    "horde",
];

const SOURCES: [&str; 17] = [
    include_str!("../../../variants/chess.toml"),
    include_str!("../../../variants/counsellor.toml"),
    include_str!("../../../variants/royal.toml"),
    include_str!("../../../variants/chaturanga.toml"),
    include_str!("../../../variants/courier-spiel.toml"),
    include_str!("../../../variants/chancellor.toml"),
    include_str!("../../../variants/chancellor-crosswise.toml"),
    include_str!("../../../variants/kings-leap.toml"),
    include_str!("../../../variants/chess960.toml"),
    include_str!("../../../variants/crazyhouse.toml"),
    include_str!("../../../variants/three-check.toml"),
    include_str!("../../../variants/five-check.toml"),
    include_str!("../../../variants/king-of-the-hill.toml"),
    include_str!("../../../variants/antichess.toml"),
    include_str!("../../../variants/atomic.toml"),
    include_str!("../../../variants/racing-kings.toml"),
    include_str!("../../../variants/horde.toml"),
];

/// The definition file of a built-in variant, by short name, as shipped in
/// `variants/NAME.toml`.
///
/// ```
/// assert!(xpgn::rules::builtin_source("royal").unwrap().contains("R-RO-4"));
/// ```
pub fn builtin_source(name: &str) -> Option<&'static str> {
    let i = BUILTIN_NAMES.iter().position(|&n| n == name)?;
    Some(SOURCES[i])
}

/// The definition of a built-in variant, by short name.
///
/// # Panics
/// If a shipped file does not load (the tests load each one).
pub fn builtin_def(name: &str) -> Option<VariantDef> {
    let text = builtin_source(name)?;
    let def = load_toml(&format!("variants/{name}.toml"), text)
        .unwrap_or_else(|e| panic!("built-in definition: {e}"));
    Some(def)
}

/// The definition of built-in number `i` (in the order of
/// [`BUILTIN_NAMES`]), read without the trial compilation
/// [`builtin_def`] makes: for compiling it (which refuses what that
/// would).
///
/// # Panics
/// If a shipped file does not read (the tests load each one).
pub(crate) fn builtin_def_to_compile(i: usize) -> VariantDef {
    let name = BUILTIN_NAMES[i];
    read_toml(&format!("variants/{name}.toml"), SOURCES[i])
        .unwrap_or_else(|e| panic!("built-in definition: {e}"))
}

/// The names a built-in answers to (short name, display name, aliases),
/// read from the top of its file without loading it: name lookups then
/// need no variant compiled but the one they find. A test checks these
/// against the loaded definitions.
pub(crate) fn builtin_names(i: usize) -> Vec<String> {
    let mut names = Vec::new();
    let unquote = |v: &str| v.trim().trim_matches('"').to_string();
    for line in SOURCES[i].lines().take_while(|l| !l.starts_with('[')) {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        match key.trim() {
            "name" | "display-name" => names.push(unquote(value)),
            "aliases" => names.extend(
                value
                    .trim()
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .split(',')
                    .map(unquote)
                    .filter(|a| !a.is_empty()),
            ),
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_read_without_loading_are_those_of_the_definitions() {
        for (i, name) in BUILTIN_NAMES.iter().enumerate() {
            let def = builtin_def(name).unwrap();
            let mut expected = vec![def.name.to_string(), def.display_name.to_string()];
            expected.extend(def.aliases.iter().map(|a| a.to_string()));
            assert_eq!(builtin_names(i), expected, "{name}");
        }
    }
}
