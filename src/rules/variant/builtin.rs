//! The built-in variants: definition files under `variants/` in the
//! repository (docs/rules.md says what each one means), embedded in the binary
//! and read by the same loader as a user's files.

use std::sync::OnceLock;

use super::file::{load_toml, read_toml};
use super::{VariantDef, normalize_name};

/// The built-in variants: their short names, each the file
/// `variants/NAME.toml`, in one list from which both tables are made.
macro_rules! builtins {
    ($($name:literal),* $(,)?) => {
        /// Short names of the built-in variants, orthodox chess first.
        pub const BUILTIN_NAMES: [&str; [$($name),*].len()] = [$($name),*];

        const SOURCES: [&str; BUILTIN_NAMES.len()] =
            [$(include_str!(concat!("../../../variants/", $name, ".toml"))),*];
    };
}

builtins![
    "chess",
    "counsellor",
    "royal",
    "chaturanga",
    "courier-spiel",
    "chancellor",
    "chancellor-crosswise",
    "kings-leap",
    "chess960",
    // The variants played online (docs/rules.md "The variants played online").
    "crazyhouse",
    "three-check",
    "five-check",
    "king-of-the-hill",
    "antichess",
    "atomic",
    "racing-kings",
    "horde",
    "seirawan",
    "shouse",
    "placement",
    "sittuyin",
    // Fairy-Stockfish's built-in variants with plain move rules
    // (docs/variants.md "Fairy-Stockfish's built-in variants").
    "nocastle",
    "torpedo",
    "raazuvaa",
    "makruk",
    "asean",
    "ai-wok",
    "shatranj",
    "chaturanga-shatranj",
    "amazon",
    "georgian",
    "nightrider",
    "hoppelpoppel",
    "newzealand",
    "knightmate",
    "losalamos",
    "gardner",
    "almost",
    "perfect",
    "capablanca",
    "caparandom",
    "gothic",
    "embassy",
    "janus",
    "modern",
    "chancellor-9x9",
    "giveaway-castling",
    "centaur",
    "courier",
    "grand",
    "opulent",
    "tencubed",
];

/// Fairy-Stockfish's built-in variants that xpgn ships, in its
/// `variants.ini` terms: the parents a section may name besides `chess`
/// (`[gemini:janus]`). Each section names the definition file it plays
/// as, which a test checks.
pub(crate) const FAIRY_STOCKFISH_PARENTS: &str =
    include_str!("../../../variants/fairy-stockfish.ini");

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

/// The [`normalize_name`] keys of the names built-in number `i` answers
/// to, read from the top of its file the first time they are asked for:
/// looking a name up compiles nothing, and reads only the files of the
/// built-ins before the one it finds, once.
pub(crate) fn builtin_keys(i: usize) -> &'static [String] {
    static KEYS: [OnceLock<Vec<String>>; BUILTIN_NAMES.len()] =
        [const { OnceLock::new() }; BUILTIN_NAMES.len()];
    KEYS[i].get_or_init(|| builtin_names(i).iter().map(|n| normalize_name(n)).collect())
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

    /// A definition without what does not decide the rules: names,
    /// piece names, cited rulings, source text.
    fn rules_only(mut def: VariantDef) -> VariantDef {
        def.name.clear();
        def.display_name.clear();
        def.aliases.clear();
        for p in &mut def.pieces {
            p.name.clear();
            p.rule = None;
        }
        def.pawns.rule.clear();
        // No promotion ranks: the last. Choices and limits in any order.
        if def.pawns.promotion_ranks.is_empty() {
            def.pawns.promotion_ranks = vec![def.size.ranks - 1];
        }
        if let super::super::PromotionRule::Choice(kinds) = &mut def.pawns.promotion {
            kinds.sort_by_key(|k| k.0);
        }
        def.pawns.promotion_limits.sort_by_key(|(k, _)| k.0);
        if let Some(h) = &mut def.hand {
            h.rule.clear();
        }
        if let Some(f) = &mut def.flag {
            f.rule.clear();
        }
        if let Some(f) = &mut def.free_castling {
            f.rule.clear();
        }
        if let Some(e) = &mut def.extinction {
            e.rule.clear();
        }
        def
    }

    #[test]
    fn each_fairy_stockfish_parent_plays_as_the_definition_file_it_stands_for() {
        let read = crate::rules::read_ini("fairy-stockfish.ini", FAIRY_STOCKFISH_PARENTS).unwrap();
        assert!(read.refused.is_empty(), "{:?}", read.refused);
        // Each section's first line is `# plays as variants/NAME.toml`.
        let files: Vec<&str> = FAIRY_STOCKFISH_PARENTS
            .lines()
            .filter_map(|l| {
                l.strip_prefix("# plays as variants/")?
                    .strip_suffix(".toml")
            })
            .collect();
        assert_eq!(files.len(), read.variants.len());
        assert!(files.len() >= 25, "{files:?}");
        let mut differ = Vec::new();
        for (def, file) in read.variants.into_iter().zip(files) {
            let section = def.name.clone();
            let toml = builtin_def(file).unwrap_or_else(|| panic!("no built-in {file}"));
            let (def, toml) = (rules_only(def), rules_only(toml));
            if !def.same_definition(&toml) {
                differ.push(format!("[{section}] and {file}.toml:\n{def:?}\n{toml:?}"));
            }
        }
        assert!(differ.is_empty(), "{}", differ.join("\n"));
    }

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
