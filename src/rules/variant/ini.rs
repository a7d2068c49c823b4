//! Fairy-Stockfish's `variants.ini` format. Not read yet: a `.ini` file is
//! refused as a whole, with a message saying so, never approximated.

use super::VariantDef;
use super::file::DefinitionError;

/// Reads the sections of a `variants.ini` file. Not implemented yet: every
/// file is refused.
///
/// # Errors
/// Always, naming the file and line 1.
pub fn load_ini(file: &str, _text: &str) -> Result<Vec<VariantDef>, DefinitionError> {
    Err(DefinitionError {
        file: file.into(),
        line: 1,
        field: "file".into(),
        reason: "Fairy-Stockfish variants.ini files are not read yet; write the variant as a TOML definition (docs/variants.md)".into(),
    })
}
