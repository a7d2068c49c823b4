//! Parquet datasets of games and positions (feature `parquet`), for
//! DuckDB, Spark, Polars and anything else that reads Parquet: a folder
//! of `games-NNNNN.parquet` and `positions-NNNNN.parquet` parts, written
//! from game files ([`files`], no database involved) or from a database
//! (`xpgn export --to parquet`, through [`crate::db::Database::stored_record`]).
//!
//! A game's id ([`crate::record::game_id`]) comes from its content hash, so
//! folders written on different machines from different shards of the
//! input are one dataset when read together
//! (`read_parquet('DIR/**/games*.parquet')`): the same game gets the same
//! id everywhere, different games different ids. Part `N`'s positions are
//! those of part `N`'s games, sorted by key, so an engine skips the row
//! groups whose key range misses the key it looks for. The schema is in
//! `docs/datasets.md`.
//!
//! This layer sits above [`crate::record`] (and so [`crate::notation`]);
//! the database is only a source of records, read by the command line.

mod encode;
pub mod files;
mod pages;

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use parquet::basic::Compression;
use parquet::column::writer::{ColumnWriter, get_typed_column_writer_mut};
use parquet::data_type::{DataType, Int32Type, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::{WriterProperties, WriterPropertiesPtr};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::{ColumnDescPtr, SchemaDescriptor, Type};

use crate::notation::annotations::{self, Annotations, Score};
use crate::notation::pgn::read_with;
use crate::notation::reader::GameSplitter;
use crate::notation::span::Location;
use crate::notation::visitor::{Flow, MoveToken, Visitor};
use crate::record::{GameRecord, MainLine};

/// Why a dataset could not be written.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// An input file could not be read.
    #[error("{path}: cannot read: {source}")]
    Input {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file of the dataset could not be written.
    #[error("{path}: cannot write: {source}")]
    Output {
        /// The file or folder.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The Parquet encoder failed.
    #[error("{path}: {source}")]
    Parquet {
        /// The file.
        path: String,
        /// Why.
        source: ParquetError,
    },
    /// The output folder holds parts of a dataset already.
    #[error(
        "{path}: holds dataset parts already ({file}); write each run into a folder of its own"
    )]
    Exists {
        /// The folder.
        path: String,
        /// One of the parts found.
        file: String,
    },
}

/// The schema of `games` parts (see `docs/datasets.md`).
pub const GAMES_SCHEMA: &str = "message games {
    required int64 game_id;
    required binary content_hash;
    required binary variant (STRING);
    optional binary event (STRING);
    optional binary site (STRING);
    optional binary date (STRING);
    optional int32 year;
    optional int32 month;
    optional int32 day;
    optional binary round (STRING);
    optional binary white (STRING);
    optional binary black (STRING);
    optional binary result (STRING);
    optional int32 white_elo;
    optional int32 black_elo;
    required group tags (LIST) {
        repeated group list {
            required group element {
                required binary name (STRING);
                required binary value (STRING);
            }
        }
    }
    required int32 plies;
    required binary status (STRING);
    required int32 warnings;
    optional binary diagnostic (STRING);
    required binary diagnostics (STRING);
    required binary source_file (STRING);
    required int64 source_line;
    required binary original;
    optional binary start (STRING);
    optional binary moves_packed;
    optional binary moves_san (STRING);
    optional binary moves_coord (STRING);
    optional binary moves_hash;
    optional binary eco (STRING);
    optional binary opening (STRING);
}";

/// The schema of `positions` parts.
pub const POSITIONS_SCHEMA: &str = "message positions {
    required binary variant (STRING);
    required int64 key;
    required int64 game_id;
    required int32 ply;
    optional int64 clock_ms;
    optional int32 eval_cp;
    optional int32 eval_mate;
}";

/// Games per row group of a `games` part.
const GAME_GROUP_ROWS: usize = 8 * 1024;

/// Positions per row group of a `positions` part: small enough that a key
/// looked up skips most of a part, large enough to compress well.
const POSITION_GROUP_ROWS: usize = 128 * 1024;

/// Default bound of a part, in rows of its `positions` file (and of its
/// `games` file): about 12,000 games of 80 plies.
pub const DEFAULT_PART_ROWS: usize = 1_000_000;

/// What a dataset writer wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrittenSummary {
    /// Rows of `games`.
    pub games: u64,
    /// Rows of `positions`.
    pub positions: u64,
    /// Parts (each a `games` and a `positions` file).
    pub parts: u64,
    /// Bytes of the `games` files.
    pub games_bytes: u64,
    /// Bytes of the `positions` files.
    pub positions_bytes: u64,
}

/// A row of `positions`, in 16 bytes: a part holds a million of them,
/// sorted, and memory first touched costs as much as the sort. The
/// game's id and variant, and what the comments of its moves say, are
/// its game's ([`PartTables`]), found by index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PositionRow {
    key: i64,
    /// The index of its game among the part's games.
    game: u32,
    ply: u32,
}

/// What the comments of a move say of the clock and the evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MoveNote {
    /// The `[%clk]`, in milliseconds (when [`MoveNote::CLOCK`] is set).
    clock_ms: i64,
    /// The `[%eval]`: centipawns or a mate in moves, as `kinds` says.
    eval: i32,
    /// Which of the clock and the evaluation the comments gave.
    kinds: u8,
}

impl MoveNote {
    const CLOCK: u8 = 1;
    const EVAL_CP: u8 = 2;
    const EVAL_MATE: u8 = 4;

    fn of(note: &Annotations) -> MoveNote {
        let clock_ms = note.clock_ms;
        let (eval, eval_kind) = match note.eval.map(|e| e.score) {
            Some(Score::Centipawns(cp)) => (cp, MoveNote::EVAL_CP),
            Some(Score::Mate(m)) => (m, MoveNote::EVAL_MATE),
            None => (0, 0),
        };
        MoveNote {
            clock_ms: clock_ms.map_or(0, |ms| i64::try_from(ms).unwrap_or(i64::MAX)),
            eval,
            kinds: eval_kind | (MoveNote::CLOCK * u8::from(clock_ms.is_some())),
        }
    }
}

/// A position's game id, ply, variant, clock, evaluation in centipawns
/// and as a mate.
type ColumnsAfterKey = (i64, u32, u32, Option<i64>, Option<i32>, Option<i32>);

/// What a position row takes from its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PartGame {
    id: i64,
    /// An index into the writer's variant names.
    variant: u32,
    /// Where the notes of its moves start in [`PartTables::notes`] (ply 1
    /// first), and how many there are.
    notes: u32,
    noted: u32,
}

/// The games of a part, and the notes of their moves.
#[derive(Default)]
struct PartTables {
    games: Vec<PartGame>,
    notes: Vec<MoveNote>,
}

impl PositionRow {
    /// The notes of the move that led here.
    fn note(&self, part: &PartTables) -> Option<MoveNote> {
        let game = part.games[self.game as usize];
        let i = (self.ply as usize).checked_sub(1)?;
        (i < game.noted as usize).then(|| part.notes[game.notes as usize + i])
    }

    fn clock_ms(&self, part: &PartTables) -> Option<i64> {
        self.note(part)
            .filter(|n| n.kinds & MoveNote::CLOCK != 0)
            .map(|n| n.clock_ms)
    }

    fn eval_cp(&self, part: &PartTables) -> Option<i32> {
        self.note(part)
            .filter(|n| n.kinds & MoveNote::EVAL_CP != 0)
            .map(|n| n.eval)
    }

    fn eval_mate(&self, part: &PartTables) -> Option<i32> {
        self.note(part)
            .filter(|n| n.kinds & MoveNote::EVAL_MATE != 0)
            .map(|n| n.eval)
    }

    /// How `self` and `other`, rows of one key, are ordered: by
    /// [`PositionRow::order_after_key`], their games' ids compared first
    /// and the notes looked up only when the games and plies are the same
    /// (the rows of one key are nearly all of different games).
    fn cmp_after_key(&self, other: &PositionRow, part: &PartTables) -> std::cmp::Ordering {
        let (a, b) = (
            part.games[self.game as usize],
            part.games[other.game as usize],
        );
        (a.id, self.ply)
            .cmp(&(b.id, other.ply))
            .then_with(|| self.order_after_key(part).cmp(&other.order_after_key(part)))
    }

    /// The columns after the key in the order the rows of one key are
    /// sorted.
    fn order_after_key(&self, part: &PartTables) -> ColumnsAfterKey {
        let game = part.games[self.game as usize];
        (
            game.id,
            self.ply,
            game.variant,
            self.clock_ms(part),
            self.eval_cp(part),
            self.eval_mate(part),
        )
    }
}

/// What the comments of each main-line move of `original` (a game's
/// text) say of clocks and evaluations, by ply from 1; empty when the
/// text has no command in a comment (docs/notation.md §14).
pub(crate) fn ply_notes(original: &[u8]) -> Vec<MoveNote> {
    if !has_commands(original) {
        return Vec::new();
    }
    match GameSplitter::new(original).next_game() {
        Some(Ok(game)) => text_ply_notes(&game.text),
        _ => Vec::new(),
    }
}

/// [`ply_notes`] of a game's decoded text.
pub(crate) fn text_ply_notes(text: &str) -> Vec<MoveNote> {
    if !has_commands(text.as_bytes()) {
        return Vec::new();
    }
    let mut notes = MainLineNotes::default();
    read_with(text, Location::default(), &mut notes);
    notes.finish()
}

/// Whether a game's text may hold a command in a comment (`[%`): without
/// one, its moves have no notes to read.
pub(crate) fn has_commands(text: &[u8]) -> bool {
    memchr::memmem::find(text, b"[%").is_some()
}

/// Reads the commands of the comments that follow each main-line move,
/// as the move's node of the game's tree holds them
/// ([`crate::notation::tree::TreeBuilder`]): a comment is the last
/// move's unless comments with no move before them wait for the next
/// move; variations are skipped unread.
#[derive(Default)]
pub(crate) struct MainLineNotes {
    /// Each move's clock and evaluation, made where the game is read:
    /// the thread that takes the games keeps them.
    notes: Vec<MoveNote>,
    /// Whether a move was read.
    moved: bool,
    /// What the last move's comments say so far, read as they come
    /// (none is kept to be read at the next move).
    last: Annotations,
    /// Comments wait for the next move.
    pending: bool,
    /// The result was read.
    ended: bool,
}

impl MainLineNotes {
    /// The notes of each main-line move, by ply from 1.
    pub(crate) fn finish(mut self) -> Vec<MoveNote> {
        if self.moved {
            self.notes.push(MoveNote::of(&self.last));
        }
        self.notes
    }
}

impl Visitor<'_> for MainLineNotes {
    fn move_token(&mut self, _: MoveToken<'_, '_>) {
        if self.moved {
            self.notes
                .push(MoveNote::of(&std::mem::take(&mut self.last)));
        }
        self.moved = true;
        self.pending = false;
    }

    fn comment(&mut self, text: &str) {
        if self.ended {
            return;
        }
        if !self.moved || self.pending {
            self.pending = true;
        } else {
            annotations::read_into(&mut self.last, text);
        }
    }

    fn begin_variation(&mut self) -> Flow {
        Flow::Skip
    }

    fn result(&mut self, _: &'static str) {
        self.ended = true;
    }
}

/// Writes game records into a dataset folder, part after part.
pub struct DatasetWriter {
    dir: PathBuf,
    part_rows: usize,
    props: WriterPropertiesPtr,
    games_schema: Arc<Type>,
    positions_schema: Arc<Type>,
    /// The leaf columns of the two schemas.
    games_descr: SchemaDescriptor,
    positions_descr: SchemaDescriptor,
    /// Threads that encode a part's columns.
    threads: usize,
    games: Vec<GameRecord>,
    /// The largest texts of `games`, taken out of their records.
    texts: PartTexts,
    /// The texts of the chunk of games that come, and how many of them
    /// came ([`DatasetWriter::texts_come`]).
    coming: Option<(ChunkTexts, usize)>,
    positions: Vec<PositionRow>,
    /// The id and variant of each game of `games` and the notes of its
    /// moves, for its positions.
    part: PartTables,
    variants: Vec<String>,
    summary: WrittenSummary,
}

/// The position key of the index as the `key` column holds it: the same
/// 64 bits read as a signed integer (what `xpgn key` prints).
pub fn key_column(key: u64) -> i64 {
    key as i64
}

impl DatasetWriter {
    /// A writer into `dir` (created if missing), closing a part whenever
    /// one more game would take its `positions` or its `games` past
    /// `part_rows` rows (a single game longer than that is a part alone).
    ///
    /// # Errors
    /// The folder cannot be made or read, or holds parts already.
    pub fn create(dir: &Path, part_rows: usize) -> Result<DatasetWriter, DatasetError> {
        let shown = || dir.display().to_string();
        std::fs::create_dir_all(dir).map_err(|source| DatasetError::Output {
            path: shown(),
            source,
        })?;
        let entries = std::fs::read_dir(dir).map_err(|source| DatasetError::Output {
            path: shown(),
            source,
        })?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_part_name(&name) {
                return Err(DatasetError::Exists {
                    path: shown(),
                    file: name,
                });
            }
        }
        let schema = |text: &str| {
            parse_message_type(text)
                .map(Arc::new)
                .map_err(|source| DatasetError::Parquet {
                    path: shown(),
                    source,
                })
        };
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("xpgn {}", env!("CARGO_PKG_VERSION")))
            .build();
        let games_schema = schema(GAMES_SCHEMA)?;
        let positions_schema = schema(POSITIONS_SCHEMA)?;
        Ok(DatasetWriter {
            dir: dir.to_path_buf(),
            part_rows: part_rows.max(1),
            props: Arc::new(props),
            games_descr: SchemaDescriptor::new(games_schema.clone()),
            positions_descr: SchemaDescriptor::new(positions_schema.clone()),
            games_schema,
            positions_schema,
            threads: crate::notation::parallel::default_jobs(),
            games: Vec::new(),
            texts: PartTexts::default(),
            coming: None,
            positions: Vec::new(),
            part: PartTables::default(),
            variants: Vec::new(),
            summary: WrittenSummary::default(),
        })
    }

    /// Encodes each part's columns on `threads` threads (at least one;
    /// by default one per core): the files are the same for any number.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Adds one game and its positions.
    ///
    /// # Errors
    /// Writing a full part failed.
    pub fn push(&mut self, record: GameRecord) -> Result<(), DatasetError> {
        let notes = ply_notes(&record.original);
        self.push_noted(record, notes)
    }

    /// [`DatasetWriter::push`], with what the comments of the game's moves
    /// say already read ([`ply_notes`]: a worker reads them, not the one
    /// writer).
    pub(crate) fn push_noted(
        &mut self,
        mut record: GameRecord,
        notes: Vec<MoveNote>,
    ) -> Result<(), DatasetError> {
        if !self.games.is_empty()
            && (self.games.len() + 1 > self.part_rows
                || self.positions.len() + record.keys.len() > self.part_rows)
        {
            self.flush()?;
        }
        let variant = match self.variants.iter().position(|v| *v == record.variant) {
            Some(i) => i,
            None => {
                self.variants.push(record.variant.clone());
                self.variants.len() - 1
            }
        } as u32;
        let game =
            u32::try_from(self.part.games.len()).expect("a part holds fewer games than rows");
        let within = |n: usize| u32::try_from(n).expect("a part holds fewer notes than rows");
        self.part.games.push(PartGame {
            id: record.game_id(),
            variant,
            notes: within(self.part.notes.len()),
            noted: within(notes.len()),
        });
        self.part.notes.extend_from_slice(&notes);
        // The keys go into the rows; the record keeps what the games file
        // needs.
        let keys = std::mem::take(&mut record.keys);
        self.positions
            .extend(keys.iter().enumerate().map(|(ply, &key)| PositionRow {
                key: key_column(key),
                game,
                ply: ply as u32,
            }));
        match self.coming.as_ref() {
            Some((chunk, game)) => self.texts.copy_game(chunk, *game),
            None => self.texts.take_from(&mut record),
        }
        self.skip_texts();
        self.games.push(record);
        Ok(())
    }

    /// The texts of the games that come next, gathered on the worker
    /// that read them: each game pushed takes its own from there, each
    /// game skipped ([`DatasetWriter::skip_texts`]) passes its own by.
    pub(crate) fn texts_come(&mut self, chunk: ChunkTexts) {
        self.coming = Some((chunk, 0));
    }

    /// Passes the texts of the game that comes by, if they came apart.
    pub(crate) fn skip_texts(&mut self) {
        if let Some((chunk, game)) = self.coming.as_mut() {
            *game += 1;
            if *game == chunk.games() {
                self.coming = None;
            }
        }
    }

    /// Writes the last part (an empty one if no game came, so that the
    /// folder is a dataset with its schema) and says what was written.
    ///
    /// # Errors
    /// Writing the part failed.
    pub fn finish(mut self) -> Result<WrittenSummary, DatasetError> {
        if !self.games.is_empty() || self.summary.parts == 0 {
            self.flush()?;
        }
        Ok(self.summary)
    }

    /// Writes the games and positions gathered as part `summary.parts`.
    /// Each column chunk of the two files is a task for the writer's
    /// threads (the positions sorted by whichever first needs them); the
    /// calling thread splices the chunks into the files in order, and the
    /// games file is finished while the positions are still encoded.
    fn flush(&mut self) -> Result<(), DatasetError> {
        let part = self.summary.parts;
        let game_rows = self.games.len();
        // Dropped once encoded, while the positions are encoded (on a
        // thread of its own where there are threads).
        let games = RwLock::new(GameRows {
            records: std::mem::take(&mut self.games),
            texts: std::mem::take(&mut self.texts),
        });
        let unsorted = Mutex::new(std::mem::take(&mut self.positions));
        let position_rows = unsorted.lock().map_or(0, |p| p.len());
        let part_tables = std::mem::take(&mut self.part);
        let sorted = OnceLock::new();
        let sorted = || {
            sorted.get_or_init(|| {
                let rows = unsorted.lock().map(|mut p| std::mem::take(&mut *p));
                sort_positions(rows.unwrap_or_default(), &part_tables)
            })
        };
        let games_path = self.dir.join(format!("games-{part:05}.parquet"));
        let positions_path = self.dir.join(format!("positions-{part:05}.parquet"));
        let mut games_file = Some(self.create_file(&games_path, &self.games_schema)?);
        let mut positions_file = self.create_file(&positions_path, &self.positions_schema)?;
        let game_columns = self.games_descr.num_columns();
        let position_columns = self.positions_descr.num_columns();
        let game_tasks = game_rows.div_ceil(GAME_GROUP_ROWS) * game_columns;
        let position_tasks = position_rows.div_ceil(POSITION_GROUP_ROWS) * position_columns;
        let task = |i: usize| {
            if i < game_tasks {
                let (group, column) = (i / game_columns, i % game_columns);
                let games = games.read().unwrap_or_else(PoisonError::into_inner);
                let rows = group_rows(&games.records, group, GAME_GROUP_ROWS);
                let first = group * GAME_GROUP_ROWS;
                let texts = (&games.texts, first..first + rows.len());
                let descr = self.games_descr.column(column);
                game_chunk(descr, &self.props, column, rows, texts)
                    .map_err(|e| parquet_error(&games_path, e))
            } else {
                let i = i - game_tasks;
                let (group, column) = (i / position_columns, i % position_columns);
                let rows = group_rows(sorted(), group, POSITION_GROUP_ROWS);
                let descr = self.positions_descr.column(column);
                position_chunk(descr, column, rows, &part_tables, &self.variants)
                    .map_err(|e| parquet_error(&positions_path, e))
            }
        };
        let mut games_bytes = 0;
        // The calling thread sorts the positions while the threads encode
        // the games.
        let meanwhile = || {
            sorted();
        };
        // Where there are threads, the games file's footer and sync, and
        // the freeing of its rows (a part's thousands of records), take a
        // thread each while the positions are written: in the calling
        // thread they were a tenth of a two-thread run's time.
        let background = self.threads > 1;
        let games_path = &games_path;
        let positions_bytes = std::thread::scope(|scope| {
            let mut finishing = None;
            encode::in_order(
                game_tasks + position_tasks,
                self.threads,
                meanwhile,
                task,
                |i, chunk| {
                    if i >= game_tasks {
                        return positions_file
                            .push(chunk)
                            .map_err(|e| part_error(&positions_path, e));
                    }
                    let Some(file) = games_file.as_mut() else {
                        return Err(parquet_error(
                            games_path,
                            ParquetError::General("the file is finished already".into()),
                        ));
                    };
                    file.push(chunk).map_err(|e| part_error(games_path, e))?;
                    if i + 1 == game_tasks {
                        let file = games_file.take();
                        let rows = std::mem::take(
                            &mut *games.write().unwrap_or_else(PoisonError::into_inner),
                        );
                        if background {
                            scope.spawn(move || drop(rows));
                            finishing = Some(scope.spawn(move || finish_file(file, games_path)));
                        } else {
                            games_bytes = finish_file(file, games_path)?;
                            drop(rows);
                        }
                    }
                    Ok(())
                },
            )?;
            let positions_bytes = finish_file(Some(positions_file), &positions_path)?;
            if let Some(thread) = finishing {
                games_bytes = thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            }
            Ok::<_, DatasetError>(positions_bytes)
        })?;
        games_bytes += finish_file(games_file, games_path)?;
        self.summary.games_bytes += games_bytes;
        self.summary.positions_bytes += positions_bytes;
        self.summary.games += game_rows as u64;
        self.summary.positions += position_rows as u64;
        self.summary.parts += 1;
        Ok(())
    }

    /// Creates the temporary file of part file `path`.
    fn create_file(
        &self,
        path: &Path,
        schema: &Arc<Type>,
    ) -> Result<encode::PartFile, DatasetError> {
        encode::PartFile::create(path.to_path_buf(), schema, &self.props)
            .map_err(|e| part_error(path, e))
    }
}

/// The games of a part as their columns are written: the records, and
/// their largest texts apart ([`PartTexts`]).
#[derive(Default)]
struct GameRows {
    records: Vec<GameRecord>,
    texts: PartTexts,
}

/// Byte strings of one column of a part's games, one after the other in
/// one buffer, and each game's place in it (`None`: null).
#[derive(Default)]
struct Texts {
    bytes: Vec<u8>,
    spans: Vec<Option<(usize, usize)>>,
}

impl Texts {
    fn push(&mut self, value: Option<&[u8]>) {
        self.spans.push(value.map(|v| {
            let start = self.bytes.len();
            self.bytes.extend_from_slice(v);
            (start, self.bytes.len())
        }));
    }

    /// The value of game `game`.
    fn value(&self, game: usize) -> Option<&[u8]> {
        self.spans[game].map(|(start, end)| &self.bytes[start..end])
    }

    /// The values of games `games`.
    fn values(&self, games: Range<usize>) -> Vec<Option<&[u8]>> {
        self.spans[games]
            .iter()
            .map(|span| span.map(|(start, end)| &self.bytes[start..end]))
            .collect()
    }
}

/// The texts that are most of a game's bytes (its original text and the
/// three forms of its moves), copied out of each record as it comes and
/// freed there, while they are in the processor's caches: freed with the
/// records once the part was written, a few thousand blocks of a
/// kilobyte or so from all over memory, they took about a twentieth of
/// a dataset's time on one core.
#[derive(Default)]
pub(super) struct PartTexts {
    original: Texts,
    packed: Texts,
    san: Texts,
    coord: Texts,
}

/// The texts of a chunk of games, gathered on the worker that read them
/// ([`files`]), in the part's form.
pub(super) type ChunkTexts = PartTexts;

impl PartTexts {
    /// Texts with room for those of `records`, taken at once: grown
    /// value by value, the buffers were copied and first touched again
    /// at each doubling.
    fn with_room_for<'r>(records: impl Iterator<Item = &'r GameRecord> + Clone) -> PartTexts {
        let games = records.clone().count();
        let room = |bytes: &dyn Fn(&GameRecord) -> usize| Texts {
            bytes: Vec::with_capacity(records.clone().map(bytes).sum()),
            spans: Vec::with_capacity(games),
        };
        let line = |record: &GameRecord, bytes: &dyn Fn(&MainLine) -> usize| {
            record.line.as_ref().map_or(0, bytes)
        };
        PartTexts {
            original: room(&|r| r.original.len()),
            packed: room(&|r| line(r, &|l| l.packed.len())),
            san: room(&|r| line(r, &|l| l.san.len())),
            coord: room(&|r| line(r, &|l| l.coord.len())),
        }
    }

    /// Copies game `game` of `chunk`'s texts here.
    fn copy_game(&mut self, chunk: &ChunkTexts, game: usize) {
        self.original.push(chunk.original.value(game));
        self.packed.push(chunk.packed.value(game));
        self.san.push(chunk.san.value(game));
        self.coord.push(chunk.coord.value(game));
    }

    /// Games whose texts are here.
    fn games(&self) -> usize {
        self.original.spans.len()
    }

    /// Moves `record`'s texts here, leaving it empty ones.
    fn take_from(&mut self, record: &mut GameRecord) {
        self.original.push(Some(&record.original));
        record.original = Vec::new();
        match record.line.as_mut() {
            Some(line) => {
                self.packed.push(Some(&line.packed));
                self.san.push(Some(line.san.as_bytes()));
                self.coord.push(Some(line.coord.as_bytes()));
                (line.packed, line.san, line.coord) = Default::default();
            }
            None => {
                for texts in [&mut self.packed, &mut self.san, &mut self.coord] {
                    texts.push(None);
                }
            }
        }
    }
}

/// A group's games: the part's texts and the group's games among them.
type GroupTexts<'t> = (&'t PartTexts, Range<usize>);

/// Finishes a part's file, if not finished yet; its size (0 if it was).
fn finish_file(file: Option<encode::PartFile>, path: &Path) -> Result<u64, DatasetError> {
    file.map_or(Ok(0), |f| f.finish().map_err(|e| part_error(path, e)))
}

fn parquet_error(path: &Path, source: ParquetError) -> DatasetError {
    DatasetError::Parquet {
        path: path.display().to_string(),
        source,
    }
}

fn part_error(path: &Path, e: encode::PartFileError) -> DatasetError {
    match e {
        encode::PartFileError::Io(source) => DatasetError::Output {
            path: path.display().to_string(),
            source,
        },
        encode::PartFileError::Parquet(source) => parquet_error(path, source),
    }
}

/// Rows `group * size ..` of `rows`, at most `size` of them.
fn group_rows<T>(rows: &[T], group: usize, size: usize) -> &[T] {
    let start = (group * size).min(rows.len());
    &rows[start..(start + size).min(rows.len())]
}

/// `rows` in the order of the `positions` columns, key first: dealt once
/// into a second array by their keys' top bits, then each bucket sorted
/// where it lies ([`sort_bucket`]). One pass over memory, against the six
/// of a radix sort by 11-bit digits (each scattering into 2,048 places),
/// whose misses cost more than the comparisons saved; and no row moved
/// along a permutation's cycles, each step of which waits on a miss.
fn sort_positions(rows: Vec<PositionRow>, part: &PartTables) -> Vec<PositionRow> {
    /// Few enough buckets that the places written to stay in the
    /// processor's caches and address tables.
    const TOP_BITS: u32 = 10;
    // The key's sign bit flipped: unsigned order is the signed order.
    let bucket = |r: &PositionRow| (((r.key as u64) ^ (1 << 63)) >> (64 - TOP_BITS)) as usize;
    let mut next = vec![0usize; 1 << TOP_BITS];
    for r in &rows {
        next[bucket(r)] += 1;
    }
    let mut sum = 0;
    for start in next.iter_mut() {
        (*start, sum) = (sum, sum + *start);
    }
    let mut sorted = vec![PositionRow::default(); rows.len()];
    for r in rows {
        let slot = &mut next[bucket(&r)];
        sorted[*slot] = r;
        *slot += 1;
    }
    // `next` now holds each bucket's end.
    let mut start = 0;
    let mut scratch = Vec::new();
    for &end in &next {
        sort_bucket(&mut sorted[start..end], TOP_BITS, &mut scratch, part);
        start = end;
    }
    sorted
}

/// Sorts the rows of one bucket, whose keys share their top `known` bits:
/// a large bucket is dealt again, in place through `scratch`, by the
/// next eight bits of its keys, and each part sorted by comparing.
/// A bucket holds a few hundred rows, so the dealing stays in the
/// processor's first cache, and it leaves runs of a row or two where a
/// comparison sort of the whole bucket took about nine comparisons a
/// row. Rows of one key (the start position, once a game) stay together
/// and are sorted by their other columns.
fn sort_bucket(
    rows: &mut [PositionRow],
    known: u32,
    scratch: &mut Vec<PositionRow>,
    part: &PartTables,
) {
    /// Bits of the key dealt by in a bucket: about as many places as a
    /// bucket has rows.
    const SUB_BITS: u32 = 8;
    /// Buckets this small are sorted by comparing alone.
    const SMALL: usize = 64;
    let order =
        |a: &PositionRow, b: &PositionRow| a.key.cmp(&b.key).then_with(|| a.cmp_after_key(b, part));
    if rows.len() <= SMALL {
        rows.sort_unstable_by(order);
        return;
    }
    let shift = 64 - known - SUB_BITS;
    let place = |r: &PositionRow| {
        ((((r.key as u64) ^ (1 << 63)) >> shift) & ((1 << SUB_BITS) - 1)) as usize
    };
    let mut next = [0usize; 1 << SUB_BITS];
    for r in rows.iter() {
        next[place(r)] += 1;
    }
    let mut sum = 0;
    for start in next.iter_mut() {
        (*start, sum) = (sum, sum + *start);
    }
    scratch.clear();
    scratch.resize(rows.len(), PositionRow::default());
    for r in rows.iter() {
        let slot = &mut next[place(r)];
        scratch[*slot] = *r;
        *slot += 1;
    }
    rows.copy_from_slice(scratch);
    let mut start = 0;
    for &end in &next {
        if end - start > 1 {
            rows[start..end].sort_unstable_by(order);
        }
        start = end;
    }
}

/// Whether `name` is a part of a dataset (`games*.parquet`,
/// `positions*.parquet`).
fn is_part_name(name: &str) -> bool {
    (name.starts_with("games") || name.starts_with("positions")) && name.ends_with(".parquet")
}

/// Year, month and day of a `Date` tag (`YYYY.MM.DD`, `-` or `/` also
/// separating), each `None` where unknown (`??`) or out of range.
pub fn date_parts(date: &str) -> (Option<i32>, Option<i32>, Option<i32>) {
    let mut parts = date.trim().split(['.', '-', '/']);
    let mut number = |lo: i32, hi: i32| {
        parts
            .next()
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.len() <= 4)
            .and_then(|p| p.parse::<i32>().ok())
            .filter(|n| (lo..=hi).contains(n))
    };
    let year = number(0, 9999);
    let month = number(1, 12);
    let day = number(1, 31);
    // A month or day without the year before it is no date.
    match (year, month) {
        (None, _) => (None, None, None),
        (Some(_), None) => (year, None, None),
        _ => (year, month, day),
    }
}

/// An Elo tag as an integer: a positive whole number, else `None`
/// (`""`, `"-"`, `"?"`, `"0"`).
pub fn elo(value: &str) -> Option<i32> {
    value.trim().parse::<i32>().ok().filter(|&n| n > 0)
}

fn text(s: &str) -> &[u8] {
    s.as_bytes()
}

fn bytes(b: &[u8]) -> &[u8] {
    b
}

/// Rows of an integer column handed to the column writer at once: its
/// own batch, so that its pages are those of a single call, and few
/// enough that the values gathered for a call stay small and in cache.
const WRITE_ROWS: usize = 1024;

/// Hands `values` (`None` only where `optional`) to `write`
/// [`WRITE_ROWS`] at a time: the values present, and where `optional`
/// a definition level each.
fn in_batches<V>(
    values: impl Iterator<Item = Option<V>>,
    optional: bool,
    mut write: impl FnMut(&[V], Option<&[i16]>) -> Result<(), ParquetError>,
) -> Result<(), ParquetError> {
    let mut values = values.peekable();
    let (mut present, mut defs) = (Vec::new(), Vec::new());
    while values.peek().is_some() {
        present.clear();
        defs.clear();
        for v in values.by_ref().take(WRITE_ROWS) {
            if optional {
                defs.push(i16::from(v.is_some()));
            }
            present.extend(v);
        }
        write(&present, optional.then_some(&defs[..]))?;
    }
    Ok(())
}

/// Writes `values` into a column of type `T`.
fn write_values<T: DataType>(
    col: &mut ColumnWriter<'_>,
    values: impl Iterator<Item = Option<T::T>>,
    optional: bool,
) -> Result<(), ParquetError> {
    let writer = get_typed_column_writer_mut::<T>(col);
    in_batches(values, optional, |present, defs| {
        writer.write_batch(present, defs, None).map(drop)
    })
}

fn write_i64(
    col: &mut ColumnWriter<'_>,
    values: impl Iterator<Item = i64>,
) -> Result<(), ParquetError> {
    write_values::<Int64Type>(col, values.map(Some), false)
}

fn write_i32(
    col: &mut ColumnWriter<'_>,
    values: impl Iterator<Item = i32>,
) -> Result<(), ParquetError> {
    write_values::<Int32Type>(col, values.map(Some), false)
}

fn write_opt_i32(
    col: &mut ColumnWriter<'_>,
    values: impl Iterator<Item = Option<i32>>,
) -> Result<(), ParquetError> {
    write_values::<Int32Type>(col, values, true)
}

/// Leaf column `index` of [`GAMES_SCHEMA`] for `rows`, whose texts are
/// `texts`, encoded: the tags' two leaves by [`pages::list_chunk`], the
/// hashes and whole texts by [`pages::unordered_chunk`], the strings that
/// come again by [`pages::text_chunk`], the integers by the column
/// writer.
fn game_chunk(
    descr: ColumnDescPtr,
    props: &WriterPropertiesPtr,
    index: usize,
    rows: &[GameRecord],
    texts: GroupTexts<'_>,
) -> Result<encode::Chunk, ParquetError> {
    match index {
        TAG_NAMES | TAG_VALUES => {
            let lengths: Vec<u32> = rows
                .iter()
                .map(|g| u32::try_from(g.tags.len()).unwrap_or(u32::MAX))
                .collect();
            let values: Vec<&[u8]> = rows
                .iter()
                .flat_map(|g| g.tags.iter())
                .map(|(name, value)| text(if index == TAG_NAMES { name } else { value }))
                .collect();
            pages::list_chunk(descr, &lengths, &values)
        }
        CONTENT_HASH | ORIGINAL | MOVES_PACKED | MOVES_SAN | MOVES_COORD | MOVES_HASH => {
            let (texts, games) = texts;
            let values = match index {
                CONTENT_HASH => rows.iter().map(|g| Some(bytes(&g.hash))).collect(),
                ORIGINAL => texts.original.values(games.clone()),
                MOVES_PACKED => texts.packed.values(games.clone()),
                MOVES_SAN => texts.san.values(games.clone()),
                MOVES_COORD => texts.coord.values(games.clone()),
                _ => rows
                    .iter()
                    .map(|g| g.line.as_ref().map(|l| bytes(&l.moves_hash)))
                    .collect(),
            };
            pages::unordered_chunk(descr, &values)
        }
        _ => match game_texts(index, rows) {
            Some(values) => pages::text_chunk(descr, &values),
            None => encode::encode_chunk(descr, props, |w| write_game_column(w, index, rows)),
        },
    }
}

/// The leaves of [`GAMES_SCHEMA`]'s `tags` list.
const TAG_NAMES: usize = 15;
const TAG_VALUES: usize = 16;
/// The leaves of [`GAMES_SCHEMA`] of hashes and whole texts: their
/// values are all different (or nearly) and in no order within a part.
/// Written without a dictionary, which would hash each value (a whole
/// game's text) only to be given up, and without statistics: their
/// minimum and maximum tell nothing a query could skip a page or a row
/// group by, and cost a comparison of each value (a game's text compared
/// from its common `[Event "` on) and two values of up to 64 bytes a page
/// in the file ([`pages::unordered_chunk`]).
const CONTENT_HASH: usize = 1;
const ORIGINAL: usize = 24;
const MOVES_PACKED: usize = 26;
const MOVES_SAN: usize = 27;
const MOVES_COORD: usize = 28;
const MOVES_HASH: usize = 29;

/// The values of leaf column `index` of [`GAMES_SCHEMA`] for `rows`, if it
/// is one of the strings that come again ([`pages::text_chunk`]).
fn game_texts(index: usize, rows: &[GameRecord]) -> Option<Vec<Option<&[u8]>>> {
    let each = |value: &dyn Fn(&GameRecord) -> Option<&[u8]>| rows.iter().map(value).collect();
    let tag = |name: &'static str| each(&move |g: &GameRecord| g.tag(name).map(text));
    Some(match index {
        2 => each(&|g| Some(text(&g.variant))),
        3 => tag("Event"),
        4 => tag("Site"),
        5 => tag("Date"),
        9 => tag("Round"),
        10 => tag("White"),
        11 => tag("Black"),
        12 => tag("Result"),
        18 => each(&|g| Some(text(if g.valid { "valid" } else { "invalid" }))),
        20 => each(&|g| g.diagnostic.as_deref().map(text)),
        21 => each(&|g| Some(text(&g.diagnostics))),
        22 => each(&|g| Some(text(&g.source_file))),
        25 => each(&|g| g.line.as_ref().and_then(|l| l.start.as_deref()).map(text)),
        30 => each(&|g| g.opening.as_ref().map(|o| text(&o.eco))),
        31 => each(&|g| g.opening.as_ref().map(|o| text(&o.name))),
        _ => return None,
    })
}

/// Leaf column `index` of [`GAMES_SCHEMA`] for `rows` into the column
/// writer: any but those [`game_chunk`] encodes itself.
fn write_game_column(
    col: &mut ColumnWriter<'_>,
    index: usize,
    rows: &[GameRecord],
) -> Result<(), ParquetError> {
    let date = |which: usize| {
        rows.iter().map(move |g| {
            let (y, m, d) = g.tag("Date").map_or((None, None, None), date_parts);
            [y, m, d][which]
        })
    };
    match index {
        0 => write_i64(col, rows.iter().map(GameRecord::game_id)),
        6..=8 => write_opt_i32(col, date(index - 6)),
        13 => write_opt_i32(col, rows.iter().map(|g| g.tag("WhiteElo").and_then(elo))),
        14 => write_opt_i32(col, rows.iter().map(|g| g.tag("BlackElo").and_then(elo))),
        17 => write_i32(
            col,
            rows.iter()
                .map(|g| i32::try_from(g.plies).unwrap_or(i32::MAX)),
        ),
        19 => write_i32(
            col,
            rows.iter()
                .map(|g| i32::try_from(g.warnings).unwrap_or(i32::MAX)),
        ),
        23 => write_i64(
            col,
            rows.iter()
                .map(|g| i64::try_from(g.source_line).unwrap_or(i64::MAX)),
        ),
        _ => Err(ParquetError::General(format!(
            "no column {index} of the games schema goes through the column writer"
        ))),
    }
}

/// An optional column chunk of `values` with a dictionary: clocks and
/// evaluations take few values, a few bits a row where they are there.
fn interned_chunk<T: pages::PlainValue + Eq + std::hash::Hash>(
    descr: ColumnDescPtr,
    values: impl Iterator<Item = Option<T>>,
) -> Result<encode::Chunk, ParquetError> {
    let mut dictionary = Vec::new();
    let mut places: HashMap<T, u32, BuildHasherDefault<IntegerHasher>> = HashMap::default();
    let entries: Vec<u32> = values
        .map(|v| {
            v.map_or(pages::NULL_ENTRY, |v| {
                *places.entry(v).or_insert_with(|| {
                    dictionary.push(v);
                    dictionary.len() as u32 - 1
                })
            })
        })
        .collect();
    pages::indexed_chunk(descr, &dictionary, &entries)
}

/// A hash of the integers of a positions column (a clock, an
/// evaluation) for [`interned_chunk`]'s table: one multiplication a value
/// where the standard hash took a few dozen instructions. The values
/// come from clock and evaluation comments, within their ranges; the
/// table lives while one row group is encoded.
#[derive(Default)]
struct IntegerHasher(u64);

impl std::hash::Hasher for IntegerHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_i64(&mut self, v: i64) {
        self.write_u64(v as u64);
    }

    fn write_i32(&mut self, v: i32) {
        self.write_u64(v as u64);
    }

    fn finish(&self) -> u64 {
        // The table also takes a bucket from the low bits, which depend
        // only on the value's low bits (clocks count whole seconds in
        // milliseconds): the well-mixed high bits are brought down.
        self.0.rotate_left(26)
    }
}

/// Leaf column `index` of [`POSITIONS_SCHEMA`] for `rows`, whose games
/// are `part`'s, encoded: a row's variant, game id and ply as indices into
/// the tables they come from ([`pages`]).
fn position_chunk(
    descr: ColumnDescPtr,
    index: usize,
    rows: &[PositionRow],
    part: &PartTables,
    variants: &[String],
) -> Result<encode::Chunk, ParquetError> {
    let games = &part.games;
    let game = |i: usize| games[rows[i].game as usize];
    match index {
        0 => {
            let names: Vec<&[u8]> = variants.iter().map(|v| v.as_bytes()).collect();
            pages::dictionary_chunk(descr, &names, rows.len(), |i| {
                Some(game(i).variant as usize)
            })
        }
        1 => {
            // Plain: the keys of a row group are nearly all different,
            // and a dictionary of them cost a hash of each and made the
            // column larger. They are sorted, so their statistics are
            // kept: a query for a key reads only the row groups whose
            // range holds it.
            pages::plain_required_chunk(descr, rows.len(), |i| rows[i].key)
        }
        2 => {
            let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
            pages::dictionary_chunk(descr, &ids, rows.len(), |i| Some(rows[i].game as usize))
        }
        3 => {
            let most = rows.iter().map(|r| r.ply).max().unwrap_or(0);
            let plies: Vec<i32> = (0..=most)
                .map(|p| i32::try_from(p).unwrap_or(i32::MAX))
                .collect();
            pages::dictionary_chunk(descr, &plies, rows.len(), |i| Some(rows[i].ply as usize))
        }
        4 => interned_chunk(descr, rows.iter().map(|r| r.clock_ms(part))),
        5 => interned_chunk(descr, rows.iter().map(|r| r.eval_cp(part))),
        6 => interned_chunk(descr, rows.iter().map(|r| r.eval_mate(part))),
        _ => Err(ParquetError::General(format!(
            "positions schema has no column {index}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_elos() {
        assert_eq!(date_parts("1985.03.07"), (Some(1985), Some(3), Some(7)));
        assert_eq!(date_parts("1985.??.??"), (Some(1985), None, None));
        assert_eq!(date_parts("????.??.??"), (None, None, None));
        assert_eq!(date_parts("????.03.07"), (None, None, None));
        assert_eq!(date_parts("2019-11-30"), (Some(2019), Some(11), Some(30)));
        assert_eq!(date_parts("2019.13.01"), (Some(2019), None, None));
        assert_eq!(date_parts(""), (None, None, None));
        assert_eq!(elo(" 2750 "), Some(2750));
        assert_eq!((elo("0"), elo("-"), elo("")), (None, None, None));
        assert_eq!(key_column(u64::MAX), -1);
    }

    /// Games whose ids and variants repeat (ties on the id broken by the
    /// variant).
    /// Pseudo-random numbers from `state`.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// Twelve games sharing their ids and variants, each with the notes
    /// of three moves: clocks, evaluations in centipawns and as mates,
    /// either, both and neither.
    fn shuffled_part() -> PartTables {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut part = PartTables::default();
        for i in 0..12 {
            part.games.push(PartGame {
                id: i % 5 - 2,
                variant: (i / 5) as u32 % 2,
                notes: part.notes.len() as u32,
                noted: 3,
            });
            for _ in 0..3 {
                let r = next();
                let clock = !(r >> 42).is_multiple_of(3);
                let eval = [0, MoveNote::EVAL_CP, MoveNote::EVAL_MATE][(r >> 47) as usize % 3];
                part.notes.push(MoveNote {
                    clock_ms: if clock { (r >> 44) as i64 % 7 } else { 0 },
                    eval: if eval == 0 {
                        0
                    } else {
                        (r >> 50) as i32 % 5 - 2
                    },
                    kinds: eval | if clock { MoveNote::CLOCK } else { 0 },
                });
            }
        }
        part
    }

    /// Pseudo-random rows of [`shuffled_part`]: keys from a small set
    /// (runs of one key), both signs, and ties on (key, game, ply) broken
    /// by the later columns.
    fn shuffled_rows(n: usize) -> Vec<PositionRow> {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let keys: Vec<i64> = (0..n / 3 + 1).map(|_| next() as i64).collect();
        (0..n)
            .map(|_| {
                let r = next();
                PositionRow {
                    key: keys[(r % keys.len() as u64) as usize],
                    game: (r >> 20) as u32 % 12,
                    ply: (r >> 30) as u32 % 5,
                }
            })
            .collect()
    }

    /// Each row's columns.
    fn columns(rows: &[PositionRow], part: &PartTables) -> Vec<(i64, ColumnsAfterKey)> {
        rows.iter()
            .map(|r| (r.key, r.order_after_key(part)))
            .collect()
    }

    /// The columns of `rows` sorted by comparing every column.
    fn sorted_by_columns(rows: &[PositionRow], part: &PartTables) -> Vec<(i64, ColumnsAfterKey)> {
        let mut columns = columns(rows, part);
        columns.sort();
        columns
    }

    #[test]
    fn positions_come_in_the_order_of_their_columns() {
        let part = shuffled_part();
        for n in [0, 1, 2, 7, 1000, 5000, 70_000] {
            let rows = shuffled_rows(n);
            let expected = sorted_by_columns(&rows, &part);
            let sorted = sort_positions(rows, &part);
            assert!(columns(&sorted, &part) == expected, "{n} rows");
        }
        // Keys sharing their top bits (one bucket), and keys apart only
        // in their top bits.
        for shift in [0, 44, 60] {
            let rows: Vec<PositionRow> = shuffled_rows(1000)
                .into_iter()
                .enumerate()
                .map(|(i, r)| PositionRow {
                    key: ((i % 7) as i64 - 3) << shift,
                    ..r
                })
                .collect();
            let expected = sorted_by_columns(&rows, &part);
            let sorted = sort_positions(rows, &part);
            assert!(columns(&sorted, &part) == expected, "shift {shift}");
        }
    }

    #[test]
    fn a_row_has_the_notes_of_the_move_that_led_there() {
        let part = shuffled_part();
        let game = 5;
        let first = part.games[game as usize].notes as usize;
        let row = |ply| PositionRow { key: 0, game, ply };
        // The start has no move, and the game notes three.
        assert_eq!(row(0).note(&part), None);
        assert_eq!(row(4).note(&part), None);
        for ply in 1..=3 {
            let note = part.notes[first + ply as usize - 1];
            assert_eq!(row(ply).note(&part), Some(note));
            let clock = (note.kinds & MoveNote::CLOCK != 0).then_some(note.clock_ms);
            assert_eq!(row(ply).clock_ms(&part), clock);
        }
        let mate = (0..12 * 3)
            .find(|&i| part.notes[i].kinds == MoveNote::CLOCK | MoveNote::EVAL_MATE)
            .unwrap();
        let (game, ply) = ((mate / 3) as u32, (mate % 3 + 1) as u32);
        let row = PositionRow { key: 0, game, ply };
        assert_eq!(
            (row.eval_cp(&part), row.eval_mate(&part)),
            (None, Some(part.notes[mate].eval))
        );
        assert_eq!(std::mem::size_of::<PositionRow>(), 16);
    }

    /// What the comments of each main-line move say, read from the tree
    /// of the game.
    fn notes_from_tree(text: &str) -> Vec<MoveNote> {
        crate::notation::pgn::read_game(text, 1)
            .moves
            .iter()
            .map(|n| MoveNote::of(&annotations::read(&n.comments)))
            .collect()
    }

    #[test]
    fn main_line_notes_are_those_of_the_tree() {
        let texts = [
            "1. e4 { [%clk 0:03:00] } e5 { [%eval 0.3] } 2. Nf3 *",
            // Comments before the first move, after a variation, waiting
            // for the next move, in variations, after the result.
            "{ [%clk 0:09:00] } 1. e4 { [%clk 0:03:00] } ( 1. d4 { [%clk 0:01:00] } \
             ( 1. c4 { [%eval #3] } ) ) { [%eval -1.5] } e5 { plain } { [%clk 0:02:59] } \
             2. Nf3 $1 { [%eval #-2] } ( 2. Bc4 ) 2... Nc6 { [%clk 1:00:00] } 1-0 { [%clk 0:00:01] }",
            "1. e4 ( 1. d4 ) { [%clk 0:03:00] } { [%eval 0.1] } 1... e5 *",
            // A text that breaks off, and one without moves.
            "1. e4 { [%clk 0:03:00] } e5 ( 2. Nf3 { [%clk 0:02:00] }",
            "{ [%clk 0:03:00] } *",
        ];
        let registry = crate::rules::Registry::builtin();
        for text in texts {
            let (tree, read) = (notes_from_tree(text), text_ply_notes(text));
            assert_eq!(read, tree, "{text}");
            assert_eq!(ply_notes(text.as_bytes()), tree, "{text}");
            // Read beside the validation, in the one reading of a game
            // prepared for a dataset.
            let mut splitter = GameSplitter::new(text.as_bytes());
            let game = splitter.next_game().unwrap().unwrap();
            let beside = files::prepare_game(&registry, "notes.pgn", &game).notes;
            assert_eq!(beside, tree, "{text}");
        }
        let e5 = text_ply_notes(texts[0])[1];
        assert_eq!((e5.kinds, e5.eval), (MoveNote::EVAL_CP, 30));
    }

    #[test]
    fn a_positions_key_column_has_no_dictionary() {
        let dir = std::env::temp_dir().join(format!("xpgn-dataset-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut writer = DatasetWriter::create(&dir, DEFAULT_PART_ROWS).unwrap();
        writer.positions = shuffled_rows(3000);
        writer.part = shuffled_part();
        writer.variants = vec!["chess".into(), "courier".into()];
        writer.finish().unwrap();
        let file = std::fs::File::open(dir.join("positions-00000.parquet")).unwrap();
        let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
        use parquet::file::reader::FileReader;
        let group = reader.metadata().row_group(0);
        assert_eq!(group.column(1).column_path().string(), "key");
        assert!(group.column(1).dictionary_page_offset().is_none());
        assert!(group.column(2).dictionary_page_offset().is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
