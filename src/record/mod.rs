//! A game record made ready for any store: read, replayed through the
//! rules, its main line packed ([`packed`]) and written in SAN (and
//! coordinates when asked), the key of every main-line position to index,
//! its content hash and the hash of its moves. The database's import
//! (the `db` module) and the Parquet datasets (the `dataset` module) both store
//! what [`prepare`] gives, so a game is the same row in either.
//!
//! Nothing here knows SQLite or any file format: this layer sits above
//! [`crate::notation`] and below both stores.

pub mod packed;

use sha2::{Digest, Sha256};

use crate::notation::coord::write_coord;
use crate::notation::diagnostic::{Diagnostic, Severity};
use crate::notation::game::Game;
use crate::notation::reader::GameText;
use crate::notation::replay::{check_game, game_variant};
use crate::notation::san::push_san_after;
use crate::rules::{Move, Position};

/// The stable 64-bit id of a game with content hash `hash`: its first
/// eight bytes, big-endian, as a signed integer. Games hashed on different
/// machines get the same id for the same content and, short of a 64-bit
/// collision, different ids otherwise.
pub fn game_id(hash: &[u8; 32]) -> i64 {
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash[..8]);
    i64::from_be_bytes(first)
}

/// The position string a game starts from when that is not its variant's
/// start position (`None` for the start position).
pub(crate) fn start_text(start: &Position) -> Option<String> {
    (*start != Position::start(start.variant()))
        .then(|| crate::notation::position::write_position(start))
}

/// One game made ready for storage.
pub(crate) struct Prepared {
    pub(crate) variant: String,
    pub(crate) tags: Vec<(String, String)>,
    pub(crate) plies: usize,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) valid: bool,
    pub(crate) warnings: usize,
    /// The first error, rendered (the `diagnostic` column).
    pub(crate) diagnostic: Option<String>,
    /// The main line in SAN separated by spaces, when asked for
    /// ([`prepare_with`]): the database rebuilds it from `packed`.
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub(crate) san: Option<String>,
    /// The main line in coordinates separated by spaces, when asked for
    /// ([`prepare_with`]).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub(crate) coord: Option<String>,
    pub(crate) packed: Vec<u8>,
    pub(crate) start: Option<String>,
    /// Keys of the main-line positions to index (none after a null move).
    pub(crate) keys: Vec<u64>,
    pub(crate) has_line: bool,
    pub(crate) line: usize,
    pub(crate) hash: [u8; 32],
    pub(crate) moves_hash: Option<[u8; 32]>,
}

/// A tag value as the content hash reads it: white space runs as one
/// space, trimmed; `None` for what says nothing (empty, `?`, `????.??.??`).
fn tag_content(value: &str) -> Option<String> {
    let v = value.split_whitespace().collect::<Vec<_>>().join(" ");
    (!v.is_empty() && !v.chars().all(|c| c == '?' || c == '.' || c == '-')).then_some(v)
}

/// The result a game records, in standard form (`*` when it records none).
fn result_content(game: &Game) -> &'static str {
    let written = game.result.as_deref().or_else(|| game.tag("Result"));
    match written.map(str::trim) {
        Some("1-0") => "1-0",
        Some("0-1") => "0-1",
        Some("1/2-1/2" | "1/2" | "½-½" | "½" | "0.5-0.5") => "1/2-1/2",
        _ => "*",
    }
}

/// The content hash: variant, start, the tags that say something (sorted,
/// white space normalised; `Variant`, `FEN`, `SetUp` and `Result` are read
/// through what they mean), the result, and the main line as moves (so
/// notation does not count). An invalid game adds its text with white
/// space normalised, the tag lines left out, as its moves are not all known.
pub(crate) fn content_hash(
    variant: &str,
    start: Option<&str>,
    game: &Game,
    packed: &[u8],
    invalid_text: Option<&str>,
) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"xpgn content 4\0");
    h.update(variant.as_bytes());
    h.update(b"\0");
    h.update(start.unwrap_or("").as_bytes());
    h.update(b"\0");
    let mut tags: Vec<(&str, String)> = game
        .tags
        .iter()
        .filter(|(n, _)| !matches!(n.as_str(), "Variant" | "FEN" | "SetUp" | "Result"))
        .filter_map(|(n, v)| tag_content(v).map(|v| (n.as_str(), v)))
        .collect();
    tags.sort();
    for (n, v) in &tags {
        h.update(n.as_bytes());
        h.update(b"\0");
        h.update(v.as_bytes());
        h.update(b"\0");
    }
    h.update(b"result\0");
    h.update(result_content(game).as_bytes());
    h.update(b"\0moves\0");
    h.update(packed);
    if let Some(text) = invalid_text {
        h.update(b"\0invalid\0");
        for line in text.lines().filter(|l| !l.trim_start().starts_with('[')) {
            for word in line.split_whitespace() {
                h.update(word.as_bytes());
                h.update(b" ");
            }
        }
    }
    h.finalize().into()
}

/// The hash of what `xpgn duplicates` compares: variant, start, main line.
pub(crate) fn moves_hash(variant: &str, start: Option<&str>, packed: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"xpgn moves 4\0");
    h.update(variant.as_bytes());
    h.update(b"\0");
    h.update(start.unwrap_or("").as_bytes());
    h.update(b"\0");
    h.update(packed);
    h.finalize().into()
}

/// Which texts of the main line [`prepare_with`] writes besides the packed
/// moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LineTexts {
    /// SAN, separated by spaces.
    pub(crate) san: bool,
    /// Coordinates, separated by spaces.
    pub(crate) coord: bool,
}

/// Reads, replays and hashes one game for storage (the database's form:
/// no move text, which the packed line gives back when asked for; SAN
/// needs a legal-move count per move, most of an import's cost).
pub(crate) fn prepare(source: &str, text: &GameText, game: Game) -> Prepared {
    prepare_with(source, text, game, LineTexts::default())
}

/// [`prepare`], also writing the main line as text where `texts` asks.
pub(crate) fn prepare_with(
    source: &str,
    text: &GameText,
    game: Game,
    texts: LineTexts,
) -> Prepared {
    let variant = game_variant(&game).map_or_else(
        |_| game.tag("Variant").unwrap_or("unknown").to_string(),
        |v| v.name().to_string(),
    );
    // SAN separated by spaces and the key of every position, made as the
    // replay plays each main-line move, so the game is played once.
    let (mut keys, mut after_null) = (Vec::with_capacity(game.moves.len() + 1), false);
    let mut san = texts.san.then(String::new);
    let mut coords = texts.coord.then(String::new);
    let mut visit = |before: &Position, m: &Move, after: &Position| {
        if keys.is_empty() {
            keys.push(before.key());
        }
        if let Some(s) = san.as_mut() {
            if !s.is_empty() {
                s.push(' ');
            }
            if m.is_null() {
                s.push_str("--");
            } else {
                push_san_after(s, before, m, after);
            }
        }
        if let Some(c) = coords.as_mut() {
            if !c.is_empty() {
                c.push(' ');
            }
            c.push_str(&write_coord(before, m));
        }
        if m.is_null() {
            // Positions after a null move are no positions of the game (R-0-6).
            after_null = true;
        }
        if !after_null {
            keys.push(after.key());
        }
    };
    let checked = check_game(&game, Some(&mut visit));
    let valid = checked.is_valid();
    let warnings = checked
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let diagnostic = checked.first_error().map(|e| e.render(source, text.number));
    let (mut packed, mut start, mut has_line) = (Vec::new(), None, false);
    if let Some(r) = &checked.replay {
        if keys.is_empty() {
            // A game without moves: its start is its one position.
            keys.push(r.start.key());
        }
        packed = packed::encode_all(&r.moves);
        // Without a `FEN` tag a game starts from its variant's start
        // position (`check_game`): no position to compare (two setups
        // built, 20,000 instructions a game).
        start = if game.tag("FEN").is_some() {
            start_text(&r.start)
        } else {
            None
        };
        has_line = true;
    }
    let hash = content_hash(
        &variant,
        start.as_deref(),
        &game,
        &packed,
        (!valid).then_some(text.text.as_str()),
    );
    let moves_hash = has_line.then(|| moves_hash(&variant, start.as_deref(), &packed));
    let line = game.at.line;
    Prepared {
        variant,
        plies: checked.replay.as_ref().map_or(0, |r| r.moves.len()),
        diagnostics: checked.diagnostics,
        valid,
        warnings,
        diagnostic,
        san,
        coord: coords,
        packed,
        start,
        keys,
        has_line,
        line,
        hash,
        moves_hash,
        tags: game.tags,
    }
}

/// The `diagnostics` column: a JSON array of objects (severity, kind,
/// ply, in_variation, line, column, move, message).
pub(crate) fn diagnostics_json(diagnostics: &[Diagnostic]) -> String {
    serde_json::to_string(diagnostics).unwrap_or_else(|_| "[]".into())
}

/// Positions past this ply (no real game reaches it) are left out of the
/// position index, in the database and in the datasets alike.
pub const MAX_INDEXED_PLY: usize = u16::MAX as usize;

/// A game's main line as far as it replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainLine {
    /// The position string it starts from, when that is not the variant's
    /// start position.
    pub start: Option<String>,
    /// The moves packed ([`packed`]).
    pub packed: Vec<u8>,
    /// The moves in SAN, separated by spaces (`--` for a null move).
    pub san: String,
    /// The moves in coordinates, separated by spaces (`0000` for a null move).
    pub coord: String,
    /// The hash of variant, start and moves (what `xpgn duplicates` compares).
    pub moves_hash: [u8; 32],
}

/// One game as a store keeps it: what the database's `games` and `moves`
/// rows and its position index hold, in one owned value. Made from a game
/// file ([`GameRecord::from_prepared`]) or from a database row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The content hash (see [`game_id`]).
    pub hash: [u8; 32],
    /// The variant's name (the `Variant` tag as written when it names no
    /// known variant).
    pub variant: String,
    /// Every tag pair in the order written.
    pub tags: Vec<(String, String)>,
    /// Main-line plies replayed.
    pub plies: u32,
    /// Whether the game is valid.
    pub valid: bool,
    /// How many of its diagnostics are warnings.
    pub warnings: u32,
    /// Its first error, rendered with file, line, column, game and ply.
    pub diagnostic: Option<String>,
    /// Every diagnostic, as a JSON array (the database's `diagnostics`).
    pub diagnostics: String,
    /// The file it was read from.
    pub source_file: String,
    /// The line of that file where it starts.
    pub source_line: u64,
    /// Its bytes exactly as read.
    pub original: Vec<u8>,
    /// Its main line, when its variant and start are known.
    pub line: Option<MainLine>,
    /// The keys of the main-line positions the index holds, by ply from 0:
    /// up to an invalid game's fault, none after a main-line null move,
    /// none past ply [`MAX_INDEXED_PLY`].
    pub keys: Vec<u64>,
}

impl GameRecord {
    /// The game's stable id ([`game_id`] of its content hash).
    pub fn game_id(&self) -> i64 {
        game_id(&self.hash)
    }

    /// The first value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The record of a game prepared with SAN and coordinates ([`prepare_with`]),
    /// read from `source` as `original`.
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub(crate) fn from_prepared(p: Prepared, source: &str, original: Vec<u8>) -> GameRecord {
        let line = p.has_line.then(|| MainLine {
            start: p.start,
            san: p.san.unwrap_or_default(),
            coord: p.coord.unwrap_or_default(),
            moves_hash: p.moves_hash.unwrap_or_default(),
            packed: p.packed,
        });
        let mut keys = p.keys;
        keys.truncate(MAX_INDEXED_PLY + 1);
        GameRecord {
            hash: p.hash,
            variant: p.variant,
            tags: p.tags,
            plies: u32::try_from(p.plies).unwrap_or(u32::MAX),
            valid: p.valid,
            warnings: u32::try_from(p.warnings).unwrap_or(u32::MAX),
            diagnostic: p.diagnostic,
            diagnostics: diagnostics_json(&p.diagnostics),
            source_file: source.to_string(),
            source_line: p.line as u64,
            original,
            line,
            keys,
        }
    }
}
