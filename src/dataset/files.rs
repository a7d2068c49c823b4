//! Game files to a dataset, on all cores ([`crate::notation::parallel`]):
//! worker threads read, replay and prepare each game ([`crate::record`]);
//! the calling thread takes them in input order and writes them, so the
//! dataset is the same, byte for byte, whatever the number of workers.

use std::collections::HashSet;

use super::{
    ChunkTexts, DatasetError, DatasetWriter, MainLineNotes, MoveNote, WrittenSummary, has_commands,
};
use crate::notation::parallel::{Event, map_game_chunks_reading_once, open_input};
use crate::notation::reader::GameBytes;
use crate::record::{GameRecord, LineTexts, prepare_bytes_telling, prepare_bytes_to_end};
use crate::rules::Registry;

/// What a dataset run read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilesSummary {
    /// Games read.
    pub read: u64,
    /// Games read whose content an earlier game of the run had (skipped,
    /// as import skips them).
    pub duplicates: u64,
    /// Games written as invalid.
    pub invalid: u64,
    /// Games written as valid with warnings.
    pub warned: u64,
    /// Bytes read.
    pub bytes: u64,
    /// What was written.
    pub written: WrittenSummary,
}

/// One game prepared for the writer: its record, what the comments of its
/// moves say, and its bytes read.
pub(super) struct Prepared {
    pub(super) record: GameRecord,
    pub(super) notes: Vec<MoveNote>,
    pub(super) bytes: u64,
    /// On worker threads, with the first game of each chunk: the texts
    /// of the chunk's games, taken out of their records
    /// ([`gather_texts`]).
    pub(super) texts: Option<Box<ChunkTexts>>,
}

/// Moves the texts of a chunk's games out of their records into one
/// [`ChunkTexts`], which the first game carries, on the worker thread
/// that made them. The thread that takes the games copies each game's
/// texts from there: freed in that thread, a game's own texts (four
/// blocks of the worker's heap) made each thread wait for the other's
/// heap, the most of a two-core dataset's thread switches.
fn gather_texts(chunk: &mut [Prepared]) {
    let mut texts = ChunkTexts::with_room_for(chunk.iter().map(|game| &game.record));
    for game in chunk.iter_mut() {
        texts.take_from(&mut game.record);
    }
    if let Some(first) = chunk.first_mut() {
        first.texts = Some(Box::new(texts));
    }
}

/// Reads, replays and prepares one game (as read: no tree of its moves is
/// built), and reads its comments' clocks and evaluations.
pub(super) fn prepare_game(registry: &Registry, source: &str, text: &GameBytes<'_>) -> Prepared {
    prepare_game_to_end(registry, source, text).0
}

/// [`prepare_game`], telling also whether the game's text ends with its
/// result ([`crate::notation::pgn::GameEnd::ends_at_result`]).
fn prepare_game_to_end(
    registry: &Registry,
    source: &str,
    text: &GameBytes<'_>,
) -> (Prepared, bool) {
    let texts = LineTexts {
        san: true,
        coord: true,
    };
    // What the comments say of each move is read in the one reading of
    // the game's text, where it may say anything.
    let ((p, ends_at_result), notes) = if has_commands(text.text.as_bytes()) {
        let mut notes = MainLineNotes::default();
        let prepared = prepare_bytes_telling(registry, source, text, texts, Some(&mut notes));
        (prepared, notes.finish())
    } else {
        (
            prepare_bytes_to_end(registry, source, text, texts),
            Vec::new(),
        )
    };
    let prepared = Prepared {
        record: GameRecord::from_prepared(p, source, text.raw.to_vec()),
        notes,
        bytes: text.raw.len() as u64,
        texts: None,
    };
    (prepared, ends_at_result)
}

/// Adds one prepared game to the summary and the writer, unless an
/// earlier game of the run had its content.
fn take(
    game: Prepared,
    seen: &mut HashSet<[u8; 32]>,
    summary: &mut FilesSummary,
    writer: &mut DatasetWriter,
) -> Result<(), DatasetError> {
    let Prepared {
        record,
        notes,
        bytes,
        texts,
    } = game;
    if let Some(texts) = texts {
        writer.texts_come(*texts);
    }
    summary.read += 1;
    summary.bytes += bytes;
    if !seen.insert(record.hash) {
        summary.duplicates += 1;
        writer.skip_texts();
        return Ok(());
    }
    summary.invalid += u64::from(!record.valid);
    summary.warned += u64::from(record.valid && record.warnings > 0);
    writer.push_noted(record, notes)
}

/// Reads every game of `inputs` (paths; `-` is standard input) with `jobs`
/// worker threads (1: all in the calling thread) and writes them into
/// `writer`, in input order, their variants looked up in `registry`, skipping games whose content came earlier in
/// the run; `progress` is called after each chunk.
///
/// # Errors
/// An input that cannot be read, or a part that cannot be written; the
/// parts written before stay.
pub fn write_files(
    registry: &Registry,
    inputs: &[String],
    mut writer: DatasetWriter,
    jobs: usize,
    progress: &mut dyn FnMut(&FilesSummary),
) -> Result<FilesSummary, DatasetError> {
    let mut summary = FilesSummary::default();
    let mut seen = HashSet::new();
    writer.set_threads(jobs);
    map_game_chunks_reading_once(
        inputs,
        &open_input,
        jobs,
        |input, text| prepare_game(registry, &inputs[input], text),
        |input, text| match prepare_game_to_end(registry, &inputs[input], text) {
            (prepared, true) => Some(prepared),
            (_, false) => None,
        },
        // On one job the calling thread makes the texts and takes them.
        |chunk| {
            if jobs > 1 {
                gather_texts(chunk);
            }
        },
        |event| match event {
            Event::Game { value, .. } => {
                take(value, &mut seen, &mut summary, &mut writer)?;
                progress(&summary);
                Ok(())
            }
            Event::Unopened { input, error } | Event::Failed { input, error } => {
                Err(DatasetError::Input {
                    path: inputs[input].clone(),
                    source: error,
                })
            }
        },
    )?;
    summary.written = writer.finish()?;
    Ok(summary)
}
