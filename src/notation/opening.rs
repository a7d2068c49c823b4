//! Opening names: a book maps positions to an ECO code and a name, and a
//! game is named by the last position of its main line that the book
//! knows. Positions are matched by their key (board, side to move,
//! castling rights, and an en passant square only where a capture en
//! passant is legal), so a game that reaches a named position by another
//! move order is named all the same.
//!
//! A book is read from tab-separated lines `eco`, `name`, `moves` (with a
//! header line), the moves in SAN with or without move numbers, played
//! from the variant's start position. The header line `eco name pgn`
//! and a line `B20 Sicilian Defense 1. e4 c5`, with a tab between the
//! fields, make a book of one opening.
//!
//! The book for orthodox chess is built in: the lichess chess-openings
//! data set (CC0), `data/chess-openings/` in the repository.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::replay::resolve_text;
use crate::rules::{Position, Variant};

/// An opening's ECO code and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `A00` to `E99`.
    pub eco: String,
    /// The name, family first: `Sicilian Defense: Najdorf Variation`.
    pub name: String,
}

/// A line of a book that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("opening book {source_name}, line {line}: {message}")]
pub struct OpeningBookError {
    /// The book's name (its file, or `built-in`).
    pub source_name: String,
    /// 1-based line number.
    pub line: usize,
    /// What is wrong, in words.
    pub message: String,
}

/// Position keys are hashes already: the map uses them as they are (a
/// lookup per ply of every game an import classifies).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Positions with the opening each is named after.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    variant: Variant,
    /// The names, by the index `by_key` gives.
    names: Names,
    by_key: KeyIndex,
}

/// Where a book's names are.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Names {
    /// Read from its lines.
    Owned(Vec<Opening>),
    /// The built-in book: `by_key` gives a slot of [`CHESS_TABLE`], which
    /// holds where the line is in [`CHESS_BOOK`]; the line is read when
    /// its name is asked for.
    Builtin,
}

/// From a position key to the index of its opening.
#[derive(Clone, Debug)]
enum KeyIndex {
    /// Built from the lines read.
    Map(HashMap<u64, u32, BuildHasherDefault<KeyHasher>>),
    /// The built-in table ([`CHESS_TABLE`]) as it is in the binary: the
    /// index is the slot. Only its [`KeyFilter`] is built at start-up.
    Table(&'static [u8], KeyFilter),
}

/// One bit for each of 65,536 groups of keys, set when the table holds a
/// key of the group: 8 KB that stay in the nearest cache, where a probe
/// of the 192 KB table mostly went to memory. Most positions of a game
/// are in no book, and with 3,807 lines about 94% of those are told so
/// by their bit alone.
#[derive(Clone, Debug)]
struct KeyFilter(Box<[u64]>);

impl KeyFilter {
    const BITS: u32 = 16;

    fn group(key: u64) -> usize {
        // Other bits than those `home_slot` reads.
        (key.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> (64 - Self::BITS)) as usize
    }

    fn of(table: &[u8]) -> KeyFilter {
        let mut bits = vec![0u64; (1 << Self::BITS) / 64].into_boxed_slice();
        for entry in table.chunks_exact(TABLE_ENTRY) {
            let key = entry_key(entry);
            if key != EMPTY_SLOT {
                let g = Self::group(key);
                bits[g / 64] |= 1 << (g % 64);
            }
        }
        KeyFilter(bits)
    }

    fn may_hold(&self, key: u64) -> bool {
        let g = Self::group(key);
        self.0[g / 64] & (1 << (g % 64)) != 0
    }
}

impl KeyIndex {
    fn get(&self, key: u64) -> Option<u32> {
        match self {
            KeyIndex::Map(map) => map.get(&key).copied(),
            KeyIndex::Table(table, filter) => {
                filter.may_hold(key).then(|| table_slot(table, key))?
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            KeyIndex::Map(map) => map.len(),
            KeyIndex::Table(table, _) => table
                .chunks_exact(TABLE_ENTRY)
                .filter(|entry| entry_key(entry) != EMPTY_SLOT)
                .count(),
        }
    }
}

/// The books read from files, once each: the variant and the file they
/// were read for, and the book.
type FileBooks = Vec<(Variant, PathBuf, Arc<OpeningBook>)>;
static FILE_BOOKS: Mutex<FileBooks> = Mutex::new(Vec::new());

/// The data set built in for orthodox chess, in ECO order.
const CHESS_BOOK: [&str; 5] = [
    include_str!("../../data/chess-openings/a.tsv"),
    include_str!("../../data/chess-openings/b.tsv"),
    include_str!("../../data/chess-openings/c.tsv"),
    include_str!("../../data/chess-openings/d.tsv"),
    include_str!("../../data/chess-openings/e.tsv"),
];

/// The built-in book as a hash table of [`TABLE_SLOTS`] slots, looked
/// up where it lies in the binary: a slot holds a position key a line of
/// [`CHESS_BOOK`] reaches (8 bytes little-endian; [`EMPTY_SLOT`] for
/// none), then where that line starts in the five texts taken one after
/// another (4 bytes little-endian). A key is in the slot [`home_slot`]
/// gives or, that one taken, in the next free one after it (the last
/// slot followed by the first); where two lines reach one position, only
/// the first is there. It is what replaying the lines gives
/// (`tests::the_kept_table_is_what_the_lines_reach` checks it, and writes
/// the file again when `XPGN_WRITE_OPENING_KEYS` is set): nothing is
/// replayed (3,807 lines, 30 ms) nor built (a map of their keys, about
/// 0.3 ms) when a process starts, and a name is read only when asked for.
const CHESS_TABLE: &[u8] = include_bytes!("../../data/chess-openings/keys.bin");

/// Bytes per slot of [`CHESS_TABLE`].
const TABLE_ENTRY: usize = 12;

/// Slots of [`CHESS_TABLE`]: a power of two, about four times the
/// lines, so that a key the book lacks (most positions of a game) is
/// mostly told by its first probe.
const TABLE_SLOTS: usize = 16_384;

/// The key of a free slot (no position has it: a unit test checks that
/// no line reaches it).
const EMPTY_SLOT: u64 = 0;

/// The slot where the search for `key` starts: the key's top bits after
/// a multiplication that mixes all of them in.
fn home_slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_SLOTS.trailing_zeros())) as usize
}

fn entry_key(entry: &[u8]) -> u64 {
    u64::from_le_bytes(entry[..8].try_into().expect("8 bytes"))
}

/// The slot of `table` that holds `key`, if one does.
fn table_slot(table: &[u8], key: u64) -> Option<u32> {
    let mut slot = home_slot(key);
    // A table always has free slots: the search ends at one at the latest.
    for _ in 0..TABLE_SLOTS {
        let at = slot * TABLE_ENTRY;
        let found = entry_key(table.get(at..at + 8)?);
        if found == key {
            return Some(slot as u32);
        }
        if found == EMPTY_SLOT {
            return None;
        }
        slot = (slot + 1) & (TABLE_SLOTS - 1);
    }
    None
}

/// The eco and name of the built-in line starting at `offset` of the
/// [`CHESS_BOOK`] texts taken one after another.
fn builtin_line(mut offset: usize) -> Option<Opening> {
    for text in CHESS_BOOK {
        if offset < text.len() {
            let line = text[offset..].lines().next()?;
            let mut fields = line.split('\t');
            return Some(Opening {
                eco: fields.next()?.to_string(),
                name: fields.next()?.to_string(),
            });
        }
        offset -= text.len();
    }
    None
}

impl OpeningBook {
    /// The built-in book of orthodox chess, read once on first use.
    pub fn chess() -> &'static OpeningBook {
        OpeningBook::chess_arc()
    }

    fn chess_arc() -> &'static Arc<OpeningBook> {
        static BOOK: OnceLock<Arc<OpeningBook>> = OnceLock::new();
        BOOK.get_or_init(|| {
            Arc::new(OpeningBook::chess_from_table().unwrap_or_else(OpeningBook::chess_replayed))
        })
    }

    /// The built-in book, every line's moves replayed (about 30 ms).
    fn chess_replayed() -> OpeningBook {
        let mut book = OpeningBook::new(Variant::chess());
        for (i, text) in CHESS_BOOK.iter().enumerate() {
            let name = format!("data/chess-openings/{}.tsv", (b'a' + i as u8) as char);
            book.add_tsv(&name, text)
                .expect("the built-in opening book reads");
        }
        book
    }

    /// The built-in book from the table of the keys its lines reach,
    /// computed once and kept beside them ([`CHESS_TABLE`]). `None` if the
    /// file is not a whole table (a unit test keeps it matched to the
    /// lines).
    fn chess_from_table() -> Option<OpeningBook> {
        if CHESS_TABLE.len() != TABLE_SLOTS * TABLE_ENTRY {
            return None;
        }
        Some(OpeningBook {
            variant: Variant::chess(),
            names: Names::Builtin,
            by_key: KeyIndex::Table(CHESS_TABLE, KeyFilter::of(CHESS_TABLE)),
        })
    }

    /// The opening of index `i` (a value of `by_key`).
    fn opening_at(&self, i: u32) -> Option<Opening> {
        match &self.names {
            Names::Owned(openings) => openings.get(i as usize).cloned(),
            Names::Builtin => {
                let at = i as usize * TABLE_ENTRY + 8;
                let offset = CHESS_TABLE.get(at..at + 4)?;
                builtin_line(u32::from_le_bytes(offset.try_into().ok()?) as usize)
            }
        }
    }

    /// The book that names the openings of `variant`: the built-in one of
    /// orthodox chess, or the file its definition points at (`openings =
    /// "FILE"`, read once per process); `None` for a variant with neither.
    ///
    /// # Errors
    /// A book file that cannot be read, or a line of it that does not
    /// play (naming the file and line).
    pub fn of(variant: &Variant) -> Result<Option<Arc<OpeningBook>>, OpeningBookError> {
        if let Some(path) = &variant.def().openings {
            return OpeningBook::from_file(variant, path).map(Some);
        }
        if variant.is_builtin() && *variant == Variant::chess() {
            return Ok(Some(Arc::clone(OpeningBook::chess_arc())));
        }
        Ok(None)
    }

    /// [`OpeningBook::of`] where a book that does not read counts as none
    /// (the command line checks the books of the files it loads first).
    pub fn of_or_none(variant: &Variant) -> Option<Arc<OpeningBook>> {
        OpeningBook::of(variant).ok().flatten()
    }

    fn from_file(variant: &Variant, path: &Path) -> Result<Arc<OpeningBook>, OpeningBookError> {
        let mut books = FILE_BOOKS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, book)) = books.iter().find(|(v, p, _)| p == path && v == variant) {
            return Ok(Arc::clone(book));
        }
        let source_name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| OpeningBookError {
            source_name: source_name.clone(),
            line: 0,
            message: e.to_string(),
        })?;
        let mut book = OpeningBook::new(variant.clone());
        book.add_tsv(&source_name, &text)?;
        let book = Arc::new(book);
        books.push((variant.clone(), path.to_path_buf(), Arc::clone(&book)));
        Ok(book)
    }

    /// An empty book of `variant`.
    pub fn new(variant: Variant) -> OpeningBook {
        OpeningBook {
            variant,
            names: Names::Owned(Vec::new()),
            by_key: KeyIndex::Map(HashMap::default()),
        }
    }

    /// Adds the lines of a tab-separated book (`eco`, `name`, `moves`, a
    /// header line first). Where two lines reach one position, the first
    /// names it.
    ///
    /// # Errors
    /// A line without three fields, or whose moves do not play from the
    /// start position; nothing of the text is added then.
    pub fn add_tsv(&mut self, source_name: &str, text: &str) -> Result<(), OpeningBookError> {
        let mut added = Vec::new();
        for (i, line) in text.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let fail = |message: String| OpeningBookError {
                source_name: source_name.to_string(),
                line: i + 1,
                message,
            };
            let mut fields = line.split('\t');
            let (Some(eco), Some(name), Some(moves)) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err(fail(
                    "expected three tab-separated fields: eco, name, moves".into(),
                ));
            };
            let key = self.key_after(moves).map_err(fail)?;
            added.push((
                key,
                Opening {
                    eco: eco.to_string(),
                    name: name.to_string(),
                },
            ));
        }
        let (Names::Owned(openings), KeyIndex::Map(by_key)) = (&mut self.names, &mut self.by_key)
        else {
            return Err(OpeningBookError {
                source_name: source_name.to_string(),
                line: 0,
                message: "the built-in book takes no more lines".into(),
            });
        };
        for (key, opening) in added {
            let index = openings.len() as u32;
            if let std::collections::hash_map::Entry::Vacant(e) = by_key.entry(key) {
                e.insert(index);
                openings.push(opening);
            }
        }
        Ok(())
    }

    /// The key of the position `moves` reach from the start.
    fn key_after(&self, moves: &str) -> Result<u64, String> {
        let mut pos = Position::start(self.variant.clone());
        let tokens = moves
            .split_whitespace()
            .filter(|t| !t.ends_with('.') && !t.chars().all(|c| c.is_ascii_digit()));
        for (ply, token) in tokens.enumerate() {
            let mv = resolve_text(&pos, token)
                .map_err(|(_, why)| format!("ply {} `{token}`: {why}", ply + 1))?;
            pos.play_unchecked(&mv);
        }
        Ok(pos.key())
    }

    /// The variant the book names positions of.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// How many positions have a name.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Whether no position has a name.
    pub fn is_empty(&self) -> bool {
        self.by_key.len() == 0
    }

    /// The opening `pos` is named after, if the book names it.
    pub fn lookup(&self, pos: &Position) -> Option<Opening> {
        self.by_key_only(pos.key())
    }

    /// The opening of a position key, if the book names it.
    pub fn by_key_only(&self, key: u64) -> Option<Opening> {
        self.by_key.get(key).and_then(|i| self.opening_at(i))
    }

    /// A game's opening: that of the last of its main-line positions
    /// (the start first) that the book names.
    pub fn classify(&self, keys: impl IntoIterator<Item = u64>) -> Option<Opening> {
        let last = keys.into_iter().filter_map(|k| self.by_key.get(k)).last()?;
        self.opening_at(last)
    }
}

/// Names a main line as it is played: told each move (the position
/// before, the move, the position after), it keeps the opening of the
/// last position its variant's book names. Positions after a null move
/// are no positions of the game (R-0-6) and are not looked up.
#[derive(Default)]
pub struct OpeningTracker {
    book: Option<Option<Arc<OpeningBook>>>,
    last: Option<u32>,
    stopped: bool,
}

impl OpeningTracker {
    /// A tracker that has seen no move yet.
    pub fn new() -> OpeningTracker {
        OpeningTracker::default()
    }

    /// One main-line move.
    pub fn visit(&mut self, before: &Position, m: &crate::rules::Move, after: &Position) {
        if self.stopped {
            return;
        }
        let first = self.book.is_none();
        let book = self
            .book
            .get_or_insert_with(|| OpeningBook::of_or_none(before.variant()));
        let Some(book) = book else {
            self.stopped = true;
            return;
        };
        if first && let Some(i) = book.by_key.get(before.key()) {
            self.last = Some(i);
        }
        if m.is_null() {
            self.stopped = true;
            return;
        }
        if let Some(i) = book.by_key.get(after.key()) {
            self.last = Some(i);
        }
    }

    /// The opening of the line so far; for a line without moves, that of
    /// `start` if given.
    pub fn opening(&self, start: Option<&Position>) -> Option<Opening> {
        match (&self.book, start) {
            (Some(Some(book)), _) => self.last.and_then(|i| book.opening_at(i)),
            (None, Some(start)) => {
                OpeningBook::of_or_none(start.variant()).and_then(|b| b.lookup(start))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(moves: &str) -> Vec<u64> {
        let mut pos = Position::start(Variant::chess());
        let mut out = vec![pos.key()];
        for token in moves.split_whitespace() {
            let mv = resolve_text(&pos, token).unwrap();
            pos.play_unchecked(&mv);
            out.push(pos.key());
        }
        out
    }

    /// The table of the built-in book ([`CHESS_TABLE`]), its lines
    /// replayed.
    fn replayed_table() -> Vec<u8> {
        let book = OpeningBook::new(Variant::chess());
        let mut table = vec![0u8; TABLE_SLOTS * TABLE_ENTRY];
        let mut before = 0;
        for text in CHESS_BOOK {
            let mut at = 0;
            for (i, line) in text.split_inclusive('\n').enumerate() {
                let start = at;
                at += line.len();
                if i == 0 || line.trim().is_empty() {
                    continue;
                }
                let moves = line.trim_end().split('\t').nth(2).unwrap();
                let key = book.key_after(moves).unwrap();
                assert_ne!(key, EMPTY_SLOT, "{line}");
                let mut slot = home_slot(key);
                loop {
                    let entry = &mut table[slot * TABLE_ENTRY..(slot + 1) * TABLE_ENTRY];
                    match entry_key(entry) {
                        EMPTY_SLOT => {
                            entry[..8].copy_from_slice(&key.to_le_bytes());
                            entry[8..].copy_from_slice(&((before + start) as u32).to_le_bytes());
                            break;
                        }
                        // Where two lines reach one position, the first names it.
                        found if found == key => break,
                        _ => slot = (slot + 1) & (TABLE_SLOTS - 1),
                    }
                }
            }
            before += text.len();
        }
        table
    }

    #[test]
    fn the_kept_table_is_what_the_lines_reach() {
        let table = replayed_table();
        if std::env::var_os("XPGN_WRITE_OPENING_KEYS").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/chess-openings/keys.bin");
            std::fs::write(path, &table).unwrap();
        }
        assert!(
            table == CHESS_TABLE,
            "data/chess-openings/keys.bin is not what the lines reach: \
             write it again with XPGN_WRITE_OPENING_KEYS=1 cargo test --lib opening"
        );
        let kept = OpeningBook::chess_from_table().unwrap();
        let replayed = OpeningBook::chess_replayed();
        assert_eq!(kept.len(), replayed.len());
        let KeyIndex::Map(replayed_keys) = &replayed.by_key else {
            panic!("a book read from lines has a map");
        };
        for (key, &i) in replayed_keys {
            assert_eq!(kept.by_key_only(*key), replayed.opening_at(i), "{key}");
        }
        // Keys no line reaches: none is found, whatever slot it starts at.
        for key in (1..2_000u64).map(|k| k.wrapping_mul(0x2545_F491_4F6C_DD1D)) {
            assert_eq!(kept.by_key_only(key), replayed.by_key_only(key), "{key}");
        }
    }

    #[test]
    fn the_key_filter_passes_every_key_of_the_table_and_few_others() {
        let filter = KeyFilter::of(CHESS_TABLE);
        let index = KeyIndex::Table(CHESS_TABLE, filter.clone());
        for (slot, entry) in CHESS_TABLE.chunks_exact(TABLE_ENTRY).enumerate() {
            let key = entry_key(entry);
            if key != EMPTY_SLOT {
                assert!(filter.may_hold(key));
                assert_eq!(index.get(key), Some(slot as u32));
            }
        }
        // Keys the table lacks: the filter answers for itself, and lets
        // through only a few.
        let mut x = 0x1234_5678_9abc_def1_u64;
        let mut passed = 0;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(index.get(x), table_slot(CHESS_TABLE, x));
            passed += usize::from(filter.may_hold(x));
        }
        assert!(passed < 1_000, "{passed} of 10,000 passed");
    }

    #[test]
    fn the_built_in_book_names_every_line_it_holds() {
        let book = OpeningBook::chess();
        // 3,807 lines; a few reach a position another line names first.
        assert!(book.len() > 3_700 && book.len() <= 3_807, "{}", book.len());
        let sicilian = book.classify(keys("e4 c5")).unwrap();
        assert_eq!(sicilian.eco, "B20");
        assert_eq!(sicilian.name, "Sicilian Defense");
    }

    #[test]
    fn a_game_is_named_by_its_last_named_position() {
        let book = OpeningBook::chess();
        // The Najdorf, then moves the book does not name.
        let game = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 h3 h6 a3 a5";
        let named = book.classify(keys(game)).unwrap();
        assert_eq!(named.eco, "B90");
        assert!(
            named
                .name
                .starts_with("Sicilian Defense: Najdorf Variation"),
            "{}",
            named.name
        );
    }

    #[test]
    fn transpositions_are_named_by_position() {
        let book = OpeningBook::chess();
        let direct = book.classify(keys("d4 Nf6 c4 e6 Nc3 Bb4")).unwrap();
        let transposed = book.classify(keys("c4 e6 Nc3 Nf6 d4 Bb4")).unwrap();
        assert_eq!(direct, transposed);
        assert_eq!(direct.eco, "E20");
    }

    #[test]
    fn a_game_the_book_does_not_name_has_no_opening() {
        let book = OpeningBook::chess();
        assert_eq!(book.classify(keys("")), None);
    }

    #[test]
    fn bad_lines_name_their_line_and_add_nothing() {
        let mut book = OpeningBook::new(Variant::chess());
        let text = "eco\tname\tpgn\nB20\tSicilian\t1. e4 c5\nX00\tNonsense\t1. e5\n";
        let e = book.add_tsv("mine.tsv", text).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.to_string()
                .starts_with("opening book mine.tsv, line 3: ply 1 `e5`"),
            "{e}"
        );
        assert!(book.is_empty());
        let e = book
            .add_tsv("mine.tsv", "eco\tname\tpgn\nB20 Sicilian\n")
            .unwrap_err();
        assert_eq!(e.line, 2);
    }
}
