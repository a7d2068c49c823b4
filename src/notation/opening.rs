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
    openings: Vec<Opening>,
    by_key: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
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

impl OpeningBook {
    /// The built-in book of orthodox chess, read once on first use.
    pub fn chess() -> &'static OpeningBook {
        OpeningBook::chess_arc()
    }

    fn chess_arc() -> &'static Arc<OpeningBook> {
        static BOOK: OnceLock<Arc<OpeningBook>> = OnceLock::new();
        BOOK.get_or_init(|| {
            let mut book = OpeningBook::new(Variant::chess());
            for (i, text) in CHESS_BOOK.iter().enumerate() {
                let name = format!("data/chess-openings/{}.tsv", (b'a' + i as u8) as char);
                book.add_tsv(&name, text)
                    .expect("the built-in opening book reads");
            }
            Arc::new(book)
        })
    }

    /// The built-in book of `variant`, if it has one.
    pub fn builtin(variant: Variant) -> Option<&'static OpeningBook> {
        (variant == Variant::chess()).then(OpeningBook::chess)
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
            openings: Vec::new(),
            by_key: HashMap::default(),
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
        for (key, opening) in added {
            let index = self.openings.len() as u32;
            if let std::collections::hash_map::Entry::Vacant(e) = self.by_key.entry(key) {
                e.insert(index);
                self.openings.push(opening);
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
        self.openings.len()
    }

    /// Whether no position has a name.
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The opening `pos` is named after, if the book names it.
    pub fn lookup(&self, pos: &Position) -> Option<&Opening> {
        self.by_key_only(pos.key())
    }

    /// The opening of a position key, if the book names it.
    pub fn by_key_only(&self, key: u64) -> Option<&Opening> {
        self.by_key.get(&key).map(|&i| &self.openings[i as usize])
    }

    /// A game's opening: that of the last of its main-line positions
    /// (the start first) that the book names.
    pub fn classify(&self, keys: impl IntoIterator<Item = u64>) -> Option<&Opening> {
        keys.into_iter().filter_map(|k| self.by_key_only(k)).last()
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
        if first && let Some(&i) = book.by_key.get(&before.key()) {
            self.last = Some(i);
        }
        if m.is_null() {
            self.stopped = true;
            return;
        }
        if let Some(&i) = book.by_key.get(&after.key()) {
            self.last = Some(i);
        }
    }

    /// The opening of the line so far; for a line without moves, that of
    /// `start` if given.
    pub fn opening(&self, start: Option<&Position>) -> Option<Opening> {
        match (&self.book, start) {
            (Some(Some(book)), _) => self.last.map(|i| book.openings[i as usize].clone()),
            (None, Some(start)) => {
                OpeningBook::of_or_none(start.variant()).and_then(|b| b.lookup(start).cloned())
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
        let direct = book.classify(keys("d4 Nf6 c4 e6 Nc3 Bb4")).unwrap().clone();
        let transposed = book.classify(keys("c4 e6 Nc3 Nf6 d4 Bb4")).unwrap();
        assert_eq!(&direct, transposed);
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
