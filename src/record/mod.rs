//! A game record made ready for any store: read, replayed through the
//! rules, its main line packed ([`packed`]) and written in SAN (and
//! coordinates when asked), the key of every main-line position to index,
//! its content hash and the hash of its moves. The database's import
//! (the `db` module) and the Parquet datasets (the `dataset` module) both store
//! what `prepare` gives, so a game is the same row in either.
//!
//! Nothing here knows SQLite or any file format: this layer sits above
//! [`crate::notation`] and below both stores.

pub mod packed;

use sha2::{Digest, Sha256};

use crate::notation::coord::push_coord;
use crate::notation::diagnostic::{Diagnostic, Severity, has_error};
use crate::notation::game::Game;
use crate::notation::opening::{Opening, OpeningBook};
use crate::notation::pgn::{GameEnd, read_to_end};
use crate::notation::reader::{GameBytes, GameText};
use crate::notation::replay::{MoveStages, check_game};
use crate::notation::san::{push_check_mark_of, push_san_body};
use crate::notation::span::Location;
use crate::notation::tag_list::TagList;
use crate::notation::validation::{Validation, Validator};
use crate::notation::visitor::{MainLineToo, Visitor};
use crate::rules::{Move, Position, Registry, Variant};

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
    (*start != Position::start(start.variant().clone()))
        .then(|| crate::notation::position::write_position(start))
}

/// One game made ready for storage.
pub(crate) struct Prepared {
    pub(crate) variant: String,
    pub(crate) tags: TagList,
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
    /// The opening its main line is named after ([`classify`]).
    pub(crate) opening: Option<Opening>,
}

/// A tag value as the content hash reads it: white space runs as one
/// space, trimmed; `None` for what says nothing (empty, `?`, `????.??.??`).
fn tag_content(value: &str) -> Option<std::borrow::Cow<'_, str>> {
    // Most values are written so already: borrowed, not built again.
    let v = if is_spaced(value) {
        std::borrow::Cow::Borrowed(value)
    } else {
        std::borrow::Cow::Owned(value.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    // The three marks are ASCII: no byte of another character is one.
    (!v.is_empty() && !v.bytes().all(|b| matches!(b, b'?' | b'.' | b'-'))).then_some(v)
}

/// Whether `value` has words and, between them, single spaces and no
/// other white space. ASCII values, nearly all, are read a byte at a time.
fn is_spaced(value: &str) -> bool {
    let mut after_space = true;
    if value.is_ascii() {
        for &b in value.as_bytes() {
            // The ASCII white space of `char::is_whitespace`.
            let space = matches!(b, b'\t'..=b'\r' | b' ');
            if space && (b != b' ' || after_space) {
                return false;
            }
            after_space = space;
        }
        return !after_space;
    }
    value.chars().all(|c| {
        let ok = !c.is_whitespace() || (c == ' ' && !after_space);
        after_space = c.is_whitespace();
        ok
    }) && !after_space
}

/// The result a game records (its termination marker, else its `Result`
/// tag), in standard form (`*` when it records none).
fn result_content(written: Option<&str>) -> &'static str {
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
    game_tags: &TagList,
    result: Option<&str>,
    packed: &[u8],
    invalid_text: Option<&str>,
) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"xpgn content 4\0");
    h.update(variant.as_bytes());
    h.update(b"\0");
    h.update(start.unwrap_or("").as_bytes());
    h.update(b"\0");
    // Sized at once: grown from empty, the list took three allocations.
    let mut tags: Vec<(&str, std::borrow::Cow<'_, str>)> = Vec::with_capacity(game_tags.len());
    tags.extend(
        game_tags
            .iter()
            .filter(|(n, _)| !matches!(*n, "Variant" | "FEN" | "SetUp" | "Result"))
            .filter_map(|(n, v)| tag_content(v).map(|v| (n, v))),
    );
    tags.sort();
    for (n, v) in &tags {
        h.update(n.as_bytes());
        h.update(b"\0");
        h.update(v.as_bytes());
        h.update(b"\0");
    }
    h.update(b"result\0");
    h.update(result_content(result).as_bytes());
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
#[cfg(test)]
pub(crate) fn prepare(registry: &Registry, source: &str, text: &GameText, game: Game) -> Prepared {
    prepare_with(registry, source, text, game, LineTexts::default())
}

/// `prepare`, also writing the main line as text where `texts` asks.
pub(crate) fn prepare_with(
    registry: &Registry,
    source: &str,
    text: &GameText,
    game: Game,
    texts: LineTexts,
) -> Prepared {
    let mut line = LineRecorder::new(texts);
    let checked = check_game(registry, &game, Some(&mut |b, m, a| line.visit(b, m, a)));
    let (start, moves) = checked
        .replay
        .map_or((None, Vec::new()), |r| (Some(r.start), r.moves));
    let replayed = Replayed {
        result: game.recorded_result().map(str::to_string),
        tags: game
            .tags
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect(),
        diagnostics: checked.diagnostics,
        start,
        moves,
        line: game.at.line,
    };
    assemble(source, text.number, &text.text, replayed, line)
}

/// `prepare` straight from the reader: the game is replayed as it is
/// read ([`Validator::replaying`]), without the tree of its moves, which
/// took some 200 bytes a ply (2.7 GB for one game of 11.9 million plies,
/// against 100 MB of text). The same [`Prepared`] as `prepare` gives.
pub(crate) fn prepare_bytes(registry: &Registry, source: &str, game: &GameBytes<'_>) -> Prepared {
    prepare_bytes_with(registry, source, game, LineTexts::default())
}

/// [`prepare_bytes`], also writing the main line as text where `texts`
/// asks.
pub(crate) fn prepare_bytes_with(
    registry: &Registry,
    source: &str,
    game: &GameBytes<'_>,
    texts: LineTexts,
) -> Prepared {
    prepare_bytes_to_end(registry, source, game, texts).0
}

/// [`prepare_bytes_with`], telling also whether the game's text ends
/// with its result ([`crate::notation::pgn::GameEnd::ends_at_result`]).
pub(crate) fn prepare_bytes_to_end(
    registry: &Registry,
    source: &str,
    game: &GameBytes<'_>,
    texts: LineTexts,
) -> (Prepared, bool) {
    prepare_bytes_telling(registry, source, game, texts, None)
}

/// [`prepare_bytes_to_end`], telling `main_line` also the game's main
/// line as the one reading of its text goes (see [`MainLineToo`]).
pub(crate) fn prepare_bytes_telling(
    registry: &Registry,
    source: &str,
    game: &GameBytes<'_>,
    texts: LineTexts,
    main_line: Option<&mut dyn for<'t> Visitor<'t>>,
) -> (Prepared, bool) {
    /// Reads the text with `validator`, and `main_line` beside it.
    fn read<'t>(
        text: &'t str,
        start: Location,
        mut validator: Validator<'t, '_, '_>,
        main_line: Option<&mut dyn for<'v> Visitor<'v>>,
    ) -> (Validation, GameEnd) {
        let end = match main_line {
            None => read_to_end(text, start, &mut validator),
            Some(main_line) => read_to_end(
                text,
                start,
                &mut MainLineToo::new(&mut validator, main_line),
            ),
        };
        (validator.finish(), end)
    }
    let mut line = LineRecorder::new(texts);
    let (validation, end) = if line.wants_before() {
        // Told of each move before it is played and after: the position
        // before it is not copied for the texts.
        let validator = Validator::replaying_staged(registry, game.source_notes(), &mut line);
        read(&game.text, game.start, validator, main_line)
    } else {
        let mut visit = |m: &Move, a: &Position| line.visit_after(m, a);
        let validator = Validator::replaying_after(registry, game.source_notes(), &mut visit);
        read(&game.text, game.start, validator, main_line)
    };
    let kept = validation.kept.unwrap_or_default();
    let replayed = Replayed {
        result: validation.result,
        tags: kept.tags,
        diagnostics: validation.diagnostics,
        start: kept.start,
        moves: kept.moves,
        line: kept.line,
    };
    (
        assemble(source, game.number, &game.text, replayed, line),
        end.ends_at_result,
    )
}

/// Bytes set aside for a main line written as text.
const LINE_BYTES: usize = crate::notation::replay::TYPICAL_PLIES * 6;

/// `text` without its spare room.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
fn shrunk(mut text: String) -> String {
    text.shrink_to_fit();
    text
}

/// What a store keeps of the main line as a replay plays it: the key of
/// every position up to ply [`MAX_INDEXED_PLY`] (none after a null move;
/// the index and the opening trees leave out the rest), and the SAN and
/// coordinate texts when asked for.
struct LineRecorder {
    keys: Vec<u64>,
    after_null: bool,
    san: Option<String>,
    coords: Option<String>,
    /// The position after the SAN line's last move when that move gave
    /// check and its mark is not written yet: `+` or `#` asks whether the
    /// side in check has a legal move, which the next move of the line
    /// answers without a search (`None` until a move first gives check).
    checked: Option<Position>,
    /// Whether the last move's check mark waits in `checked`.
    mark_waits: bool,
}

impl LineRecorder {
    fn new(texts: LineTexts) -> LineRecorder {
        LineRecorder {
            keys: Vec::with_capacity(crate::notation::replay::TYPICAL_PLIES + 1),
            after_null: false,
            // Room for a typical game's line (about five bytes a move in
            // either notation), not grown from nothing a few bytes at a
            // time: the growing copied each line seven times over.
            san: texts.san.then(|| String::with_capacity(LINE_BYTES)),
            coords: texts.coord.then(|| String::with_capacity(LINE_BYTES)),
            checked: None,
            mark_waits: false,
        }
    }

    /// Writes the check mark that waits, if one does: `+` when `next` is
    /// a move of the side in check, which is legal (the replay plays no
    /// other), else as the position decides.
    fn write_waiting_mark(&mut self, next: Option<&Move>) {
        if !std::mem::take(&mut self.mark_waits) {
            return;
        }
        let (Some(s), Some(pos)) = (self.san.as_mut(), self.checked.as_ref()) else {
            return;
        };
        match next {
            Some(m) if !m.is_null() => s.push('+'),
            _ => push_check_mark_of(pos, s),
        }
    }

    /// Whether the recorder reads the position before each move (to
    /// write its move as text); without it the replay need not copy it.
    fn wants_before(&self) -> bool {
        self.san.is_some() || self.coords.is_some()
    }

    /// The key of the position a main-line move led to (the start's, in
    /// the first place, is filled in by [`assemble`], which has the start):
    /// all a recorder writing no text is told.
    fn visit_after(&mut self, m: &Move, after: &Position) {
        if self.keys.is_empty() {
            self.keys.push(0);
        }
        if m.is_null() {
            // Positions after a null move are no positions of the game (R-0-6).
            self.after_null = true;
        }
        if !self.after_null && self.keys.len() <= MAX_INDEXED_PLY {
            self.keys.push(after.key());
        }
    }

    /// One main-line move, from `before` to `after`: its texts, and the key
    /// of `after`.
    fn visit(&mut self, before: &Position, m: &Move, after: &Position) {
        self.before_move(before, m);
        self.after_move(m, after);
    }
}

impl MoveStages for LineRecorder {
    /// The texts of a move as far as the position before it tells them:
    /// SAN but its check mark, coordinates.
    fn before_move(&mut self, before: &Position, m: &Move) {
        self.write_waiting_mark(Some(m));
        if let Some(s) = self.san.as_mut() {
            if !s.is_empty() {
                s.push(' ');
            }
            if m.is_null() {
                s.push_str("--");
            } else {
                push_san_body(s, before, m);
            }
        }
        if let Some(c) = self.coords.as_mut() {
            if !c.is_empty() {
                c.push(' ');
            }
            push_coord(c, before, m);
        }
    }

    /// The SAN check mark the position after the move calls for, and its
    /// key.
    fn after_move(&mut self, m: &Move, after: &Position) {
        if let Some(s) = self.san.as_mut()
            && !m.is_null()
        {
            // A check's mark waits for the next move (play rules, which may
            // end the game at a check, decide at once).
            if after.is_check() && !after.variant().def().has_play_rules() {
                match self.checked.as_mut() {
                    Some(kept) => kept.clone_from(after),
                    None => self.checked = Some(after.clone()),
                }
                self.mark_waits = true;
            } else {
                push_check_mark_of(after, s);
            }
        }
        self.visit_after(m, after);
    }
}

/// What reading and replaying a game gave, from a tree or from the reader.
struct Replayed {
    tags: TagList,
    /// The result it records: its termination marker, else its `Result` tag.
    result: Option<String>,
    diagnostics: Vec<Diagnostic>,
    /// The start position, when known (then the main line was replayed).
    start: Option<Position>,
    /// The main-line moves replayed.
    moves: Vec<Move>,
    /// The line where the game starts.
    line: usize,
}

/// The [`Prepared`] game `number` of `source`, of text `text`, from what
/// its replay gave and what `recorded` kept of its main line.
fn assemble(
    source: &str,
    number: usize,
    text: &str,
    game: Replayed,
    mut recorded: LineRecorder,
) -> Prepared {
    recorded.write_waiting_mark(None);
    let variant_tag = game.tags.get("Variant");
    // The variant the game was replayed as (an untagged game's is the one
    // `--variant` names); as its tag writes it when it could not be.
    let variant = match (&game.start, variant_tag) {
        (Some(first), _) => first.variant().name().to_string(),
        (None, None) => Variant::chess().name().to_string(),
        (None, Some(name)) => {
            Variant::by_name(name).map_or_else(|| name.to_string(), |v| v.name().to_string())
        }
    };
    let valid = !has_error(&game.diagnostics);
    let warnings = game
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let diagnostic = game
        .diagnostics
        .iter()
        .find(|d| d.is_error())
        .map(|e| e.render(source, number));
    let LineRecorder {
        mut keys,
        san,
        coords,
        ..
    } = recorded;
    let (mut packed, mut start, has_line) = (Vec::new(), None, game.start.is_some());
    if let Some(first) = &game.start {
        match keys.first_mut() {
            // A game without moves: its start is its one position.
            None => keys.push(first.key()),
            Some(start_key) => *start_key = first.key(),
        }
        packed = packed::encode_all(&game.moves);
        // Without a `FEN` tag a game starts from its variant's start
        // position: no position to compare (two setups built, 20,000
        // instructions a game).
        if game.tags.get("FEN").is_some() {
            start = start_text(first);
        }
    }
    let hash = content_hash(
        &variant,
        start.as_deref(),
        &game.tags,
        game.result.as_deref(),
        &packed,
        (!valid).then_some(text),
    );
    let moves_hash = has_line.then(|| moves_hash(&variant, start.as_deref(), &packed));
    let opening = game
        .start
        .as_ref()
        .and_then(|first| classify(first.variant(), &keys));
    Prepared {
        opening,
        variant,
        plies: game.moves.len(),
        diagnostics: game.diagnostics,
        valid,
        warnings,
        diagnostic,
        san,
        coord: coords,
        packed,
        start,
        keys,
        has_line,
        line: game.line,
        hash,
        moves_hash,
        tags: game.tags,
    }
}

/// The opening of a main line whose positions have the keys `keys` (the
/// start first; none after a null move, R-0-6), in the book of `variant`:
/// that of the last position the book names. `None` when the variant has
/// no book or the book names none of them.
pub fn classify(variant: &Variant, keys: &[u64]) -> Option<Opening> {
    let book = OpeningBook::of_or_none(variant)?;
    book.classify(keys.iter().copied())
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
/// file (`GameRecord::from_prepared`) or from a database row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The content hash (see [`game_id`]).
    pub hash: [u8; 32],
    /// The variant's name (the `Variant` tag as written when it names no
    /// known variant).
    pub variant: String,
    /// Every tag pair in the order written (in one string: a part of a
    /// dataset holds thousands of records).
    pub tags: TagList,
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
    /// The ECO code and name of its opening ([`classify`]), when its
    /// variant has a book that names a position of its main line.
    pub opening: Option<Opening>,
}

impl GameRecord {
    /// The game's stable id ([`game_id`] of its content hash).
    pub fn game_id(&self) -> i64 {
        game_id(&self.hash)
    }

    /// The first value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.get(name)
    }

    /// The record of a game prepared with SAN and coordinates ([`prepare_with`]),
    /// read from `source` as `original`.
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub(crate) fn from_prepared(p: Prepared, source: &str, original: Vec<u8>) -> GameRecord {
        let line = p.has_line.then(|| MainLine {
            start: p.start,
            // Kept until the part is written: without the room left over.
            san: p.san.map(shrunk).unwrap_or_default(),
            coord: p.coord.map(shrunk).unwrap_or_default(),
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
            opening: p.opening,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::reader::GameSplitter;

    proptest::proptest! {
        /// A tag value's content is its words joined by one space, whether
        /// it is borrowed as written or built again.
        #[test]
        fn a_tag_values_content_is_its_words_joined_by_one_space(value in "[ a?.\t\n\u{b}\u{c}\r\u{a0}\u{2003}-]{0,12}") {
            let words = value.split_whitespace().collect::<Vec<_>>().join(" ");
            let says = !words.is_empty() && !words.chars().all(|c| c == '?' || c == '.' || c == '-');
            proptest::prop_assert_eq!(tag_content(&value).map(|v| v.into_owned()), says.then_some(words));
        }
    }

    /// Games that take every path: faults in the main line and in
    /// variations, null moves, a FEN tag, an unknown variant, broken
    /// text, results against the position, repeated tags.
    const TRICKY: &str = r#"
[Event "a"]
[Result "1-0"]
1. e4 (1. d4 Ke3) e5+ 2. Ke3 (2. Nf3 Nc6) Nc6 1-0

[White "x"] [White "y"]
1. e4 e5 2. -- Nc6 3. Bc4?! $1 {x} 0-1 {after}

[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
1. e4 e5 1/2

[Variant "Xiangqi"]
1. e4 *

[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]
1. e4 *

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1/2-1/2

[Variant "Royal Chess"]
1. e3 e6 2. Ke2 *

1. e4 {open
[Event "next"]
1. d4 ( 1. e4 ) d5 ) *
"#;

    /// Every game of `text`, prepared from its tree and from the reader.
    fn both_ways(source: &str, text: &[u8]) -> usize {
        let mut games = GameSplitter::new(text);
        let mut n = 0;
        while let Some(game) = games.next_game() {
            let game = game.unwrap();
            n += 1;
            let kept = game.to_game_text();
            let tree = prepare_with(
                &crate::rules::Registry::builtin(),
                source,
                &kept,
                kept.read(),
                LineTexts {
                    san: true,
                    coord: true,
                },
            );
            let streamed = prepare_bytes_with(
                &crate::rules::Registry::builtin(),
                source,
                &game,
                LineTexts {
                    san: true,
                    coord: true,
                },
            );
            let what = format!("{source} game {n}");
            assert_eq!(streamed.variant, tree.variant, "{what}");
            assert_eq!(streamed.tags, tree.tags, "{what}");
            assert_eq!(streamed.plies, tree.plies, "{what}");
            assert_eq!(streamed.diagnostics, tree.diagnostics, "{what}");
            assert_eq!(streamed.valid, tree.valid, "{what}");
            assert_eq!(streamed.warnings, tree.warnings, "{what}");
            assert_eq!(streamed.diagnostic, tree.diagnostic, "{what}");
            assert_eq!(streamed.san, tree.san, "{what}");
            assert_eq!(streamed.coord, tree.coord, "{what}");
            assert_eq!(streamed.packed, tree.packed, "{what}");
            assert_eq!(streamed.start, tree.start, "{what}");
            assert_eq!(streamed.keys, tree.keys, "{what}");
            assert_eq!(streamed.has_line, tree.has_line, "{what}");
            assert_eq!(streamed.line, tree.line, "{what}");
            assert_eq!(streamed.hash, tree.hash, "{what}");
            assert_eq!(streamed.moves_hash, tree.moves_hash, "{what}");
            assert_eq!(streamed.opening, tree.opening, "{what}");
            // Without the move texts the replay tells no position before
            // a move: the keys come out the same.
            let bare = prepare_bytes(&crate::rules::Registry::builtin(), source, &game);
            assert_eq!(bare.keys, tree.keys, "{what}");
            assert_eq!(bare.opening, tree.opening, "{what}");
            assert_eq!(bare.hash, tree.hash, "{what}");
            assert_eq!((bare.san, bare.coord), (None, None), "{what}");
        }
        n
    }

    #[test]
    fn games_prepared_as_read_are_those_prepared_from_their_tree() {
        assert_eq!(both_ways("tricky", TRICKY.as_bytes()), 9);
        let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
        let mut files = 0;
        for folder in std::fs::read_dir(samples).unwrap() {
            for file in std::fs::read_dir(folder.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                let bytes = std::fs::read(&path).unwrap();
                assert!(both_ways(&path.display().to_string(), &bytes) > 0);
                files += 1;
            }
        }
        assert!(files >= 20, "{files} sample files");
    }

    /// A check's mark waits for the next move, which shows that the side
    /// in check can move; the line's last move, a null move or a move the
    /// replay refuses leave the position to decide.
    #[test]
    fn a_checks_mark_is_written_once_the_next_move_or_the_end_tells_it() {
        let san = |text: &str| {
            let mut games = GameSplitter::new(text.as_bytes());
            let game = games.next_game().unwrap().unwrap();
            let texts = LineTexts {
                san: true,
                coord: false,
            };
            prepare_bytes_with(&crate::rules::Registry::builtin(), "t", &game, texts)
                .san
                .unwrap()
        };
        assert_eq!(
            san("1. e4 f5 2. Qh5 g6 3. Qxg6 hxg6 *"),
            "e4 f5 Qh5+ g6 Qxg6+ hxg6"
        );
        assert_eq!(san("1. e4 f5 2. Qh5 *"), "e4 f5 Qh5+");
        assert_eq!(san("1. f3 e5 2. g4 Qh4+ 0-1"), "f3 e5 g4 Qh4#");
        assert_eq!(san("1. e4 f5 2. Qh5+ Ke7 *"), "e4 f5 Qh5+");
        // A null move in check is refused too (R-0-6).
        assert_eq!(san("1. e4 f5 2. Qh5+ -- *"), "e4 f5 Qh5+");
    }

    /// Keys past ply 65,535 are never stored: they are not kept either.
    #[test]
    fn a_long_game_keeps_the_keys_of_the_indexed_plies_only() {
        let mut text = String::new();
        for i in 1..=33_000 {
            let moves = if i % 2 == 1 { "Nf3 Nf6" } else { "Ng1 Ng8" };
            text.push_str(&format!("{i}. {moves} "));
        }
        let mut games = GameSplitter::new(text.as_bytes());
        let p = prepare_bytes(
            &crate::rules::Registry::builtin(),
            "long",
            &games.next_game().unwrap().unwrap(),
        );
        assert_eq!(p.plies, 66_000);
        assert_eq!(p.keys.len(), MAX_INDEXED_PLY + 1);
    }
}
