//! The definitions of the user-loaded variants a database stores games of
//! (`variant_definitions`, schema version 5): recorded on import, and
//! registered again when a command opens the database, so that its games
//! replay without the definition file. A definition that changed under the
//! same name (another hash) is refused, naming the variant.

use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

use super::{Database, DbError};
use crate::rules::{Registry, SourceFormat, Variant, load_ini, load_toml};

/// The hash stored for a definition text: SHA-256, lower-case hex.
pub fn definition_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One stored definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredVariant {
    /// The variant's short name.
    pub name: String,
    /// `toml` or `ini`.
    pub format: String,
    /// The definition text.
    pub definition: String,
    /// [`definition_hash`] of the text.
    pub hash: String,
}

/// The text and hash of a variant's definition, `None` for a built-in.
fn user_definition(variant: &Variant) -> Option<(&str, String)> {
    if variant.is_builtin() {
        return None;
    }
    let text = variant.def().source.as_deref()?;
    Some((text, definition_hash(text)))
}

/// Records the definition of the variant named `name` (as `registry`
/// knows it) unless it is a built-in or already stored.
///
/// # Errors
/// [`DbError::VariantChanged`] when another definition is stored under
/// that name; SQLite errors.
pub(crate) fn record(tx: &Connection, registry: &Registry, name: &str) -> Result<(), DbError> {
    let Some(variant) = registry.lookup(name) else {
        return Ok(());
    };
    let Some((text, hash)) = user_definition(&variant) else {
        return Ok(());
    };
    let stored: Option<String> = tx
        .query_row(
            "SELECT hash FROM variant_definitions WHERE name = ?1",
            [variant.name()],
            |r| r.get(0),
        )
        .optional()?;
    match stored {
        Some(h) if h == hash => Ok(()),
        Some(h) => Err(DbError::VariantChanged {
            name: variant.name().to_string(),
            stored: h,
            loaded: hash,
        }),
        None => {
            tx.execute(
                "INSERT INTO variant_definitions (name, format, definition, hash) VALUES (?1, ?2, ?3, ?4)",
                params![
                    variant.name(),
                    variant.def().source_format.as_str(),
                    text,
                    hash
                ],
            )?;
            Ok(())
        }
    }
}

impl Database {
    /// The stored definitions, by name.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn stored_variants(&self) -> Result<Vec<StoredVariant>, DbError> {
        let mut stmt = self.conn.prepare(
            "SELECT name, format, definition, hash FROM variant_definitions ORDER BY name",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(StoredVariant {
                name: r.get(0)?,
                format: r.get(1)?,
                definition: r.get(2)?,
                hash: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Adds the stored definitions to `registry`. A variant the registry
    /// already knows by that name (loaded with `--variants`) must have the
    /// stored definition. Returns the names added.
    ///
    /// # Errors
    /// [`DbError::VariantChanged`] for a known variant with another
    /// definition, [`DbError::StoredVariant`] for a stored definition that
    /// does not load (or whose name another variant has taken).
    pub fn register_variants(&self, registry: &mut Registry) -> Result<Vec<String>, DbError> {
        let mut added = Vec::new();
        for s in self.stored_variants()? {
            if let Some(known) = registry.lookup(&s.name) {
                if let Some((_, hash)) = user_definition(&known)
                    && hash != s.hash
                {
                    return Err(DbError::VariantChanged {
                        name: s.name,
                        stored: s.hash,
                        loaded: hash,
                    });
                }
                continue;
            }
            let bad = |message: String| DbError::StoredVariant {
                name: s.name.clone(),
                message,
            };
            let file = format!("stored definition of {}.{}", s.name, s.format);
            let defs = match s.format.as_str() {
                "ini" => load_ini(&file, &s.definition),
                _ => load_toml(&file, &s.definition).map(|d| vec![d]),
            }
            .map_err(|e| bad(e.to_string()))?;
            let def = defs
                .into_iter()
                .find(|d| d.name == s.name)
                .ok_or_else(|| bad("the text defines no variant of that name".into()))?;
            debug_assert!(
                def.source_format == SourceFormat::Ini || s.format != "ini",
                "formats agree"
            );
            let variant = Variant::compile(def).map_err(|e| bad(e.to_string()))?;
            registry.add(variant).map_err(bad)?;
            added.push(s.name);
        }
        Ok(added)
    }
}
