//! Game files to a dataset, on all cores: one thread splits the input
//! into games (the splitter is a small share of the work) and hands them
//! out in chunks; worker threads read, replay and prepare each game
//! ([`crate::record`]); the calling thread puts the chunks back in input
//! order and writes them, so the dataset is the same, byte for byte,
//! whatever the number of workers.

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use super::{DatasetError, DatasetWriter, WrittenSummary};
use crate::notation::reader::{GameSplitter, GameText};
use crate::record::{GameRecord, LineTexts, prepare_with};

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

/// Games per chunk handed to a worker.
const CHUNK: usize = 32;

/// A chunk of games of one input, numbered in input order.
struct Chunk {
    seq: u64,
    source: Arc<str>,
    texts: Vec<GameText>,
}

/// What comes back to the writing thread, numbered as the chunks.
enum Done {
    Games(u64, Vec<(GameRecord, u64)>),
    Failed(u64, DatasetError),
    /// The splitter has sent every chunk: `seq` is one past the last.
    End(u64),
}

/// Opens an input: a file, or standard input for `-`.
fn open(path: &str) -> Result<Box<dyn BufRead + Send>, DatasetError> {
    if path == "-" {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    std::fs::File::open(path)
        .map(|f| Box::new(BufReader::with_capacity(1 << 16, f)) as Box<dyn BufRead + Send>)
        .map_err(|source| DatasetError::Input {
            path: path.to_string(),
            source,
        })
}

/// Reads, replays and prepares the games of a chunk; each with its bytes read.
fn prepare_chunk(chunk: Chunk) -> Vec<(GameRecord, u64)> {
    chunk
        .texts
        .into_iter()
        .map(|text| {
            let game = text.read();
            let p = prepare_with(
                &chunk.source,
                &text,
                game,
                LineTexts {
                    san: true,
                    coord: true,
                },
            );
            let n = text.raw.len() as u64;
            (GameRecord::from_prepared(p, &chunk.source, text.raw), n)
        })
        .collect()
}

/// Splits every input into chunks, numbered from 0, handing each to `send`
/// (which says whether to go on); an input that cannot be read is the last
/// thing sent. Returns the number of chunks.
fn split(
    inputs: &[String],
    send: &mut dyn FnMut(Result<Chunk, (u64, DatasetError)>) -> bool,
) -> u64 {
    let mut seq = 0;
    for path in inputs {
        let source: Arc<str> = Arc::from(path.as_str());
        let input = match open(path) {
            Ok(input) => input,
            Err(e) => {
                send(Err((seq, e)));
                return seq + 1;
            }
        };
        let mut texts = Vec::with_capacity(CHUNK);
        for item in GameSplitter::new(input) {
            match item {
                Ok(text) => texts.push(text),
                Err(error) => {
                    if !texts.is_empty() {
                        let chunk = Chunk {
                            seq,
                            source: source.clone(),
                            texts: std::mem::take(&mut texts),
                        };
                        if !send(Ok(chunk)) {
                            return seq + 1;
                        }
                        seq += 1;
                    }
                    let e = DatasetError::Input {
                        path: path.clone(),
                        source: error,
                    };
                    send(Err((seq, e)));
                    return seq + 1;
                }
            }
            if texts.len() == CHUNK {
                let chunk = Chunk {
                    seq,
                    source: source.clone(),
                    texts: std::mem::replace(&mut texts, Vec::with_capacity(CHUNK)),
                };
                if !send(Ok(chunk)) {
                    return seq + 1;
                }
                seq += 1;
            }
        }
        if !texts.is_empty() {
            let chunk = Chunk {
                seq,
                source: source.clone(),
                texts,
            };
            if !send(Ok(chunk)) {
                return seq + 1;
            }
            seq += 1;
        }
    }
    seq
}

/// Adds one prepared game to the summary and the writer, unless an
/// earlier game of the run had its content.
fn take(
    (record, bytes): (GameRecord, u64),
    seen: &mut HashSet<[u8; 32]>,
    summary: &mut FilesSummary,
    writer: &mut DatasetWriter,
) -> Result<(), DatasetError> {
    summary.read += 1;
    summary.bytes += bytes;
    if !seen.insert(record.hash) {
        summary.duplicates += 1;
        return Ok(());
    }
    summary.invalid += u64::from(!record.valid);
    summary.warned += u64::from(record.valid && record.warnings > 0);
    writer.push(record)
}

/// Reads every game of `inputs` (paths; `-` is standard input) with `jobs`
/// worker threads (1: all in the calling thread) and writes them into
/// `writer`, in input order, skipping games whose content came earlier in
/// the run; `progress` is called after each chunk.
///
/// # Errors
/// An input that cannot be read, or a part that cannot be written; the
/// parts written before stay.
pub fn write_files(
    inputs: &[String],
    mut writer: DatasetWriter,
    jobs: usize,
    progress: &mut dyn FnMut(&FilesSummary),
) -> Result<FilesSummary, DatasetError> {
    let mut summary = FilesSummary::default();
    let mut seen = HashSet::new();
    if jobs <= 1 {
        let mut failed = None;
        split(inputs, &mut |chunk| match chunk {
            Ok(chunk) => {
                for game in prepare_chunk(chunk) {
                    if let Err(e) = take(game, &mut seen, &mut summary, &mut writer) {
                        failed = Some(e);
                        return false;
                    }
                }
                progress(&summary);
                true
            }
            Err((_, e)) => {
                failed = Some(e);
                false
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        summary.written = writer.finish()?;
        return Ok(summary);
    }
    let (work_tx, work_rx) = sync_channel::<Chunk>(jobs * 2);
    let (done_tx, done_rx) = sync_channel::<Done>(jobs * 4);
    std::thread::scope(|scope| {
        let splitter_done = done_tx.clone();
        scope.spawn(move || splitter(inputs, work_tx, splitter_done));
        let work_rx = Arc::new(Mutex::new(work_rx));
        for _ in 0..jobs {
            let (rx, tx) = (Arc::clone(&work_rx), done_tx.clone());
            scope.spawn(move || worker(&rx, &tx));
        }
        // Only the threads hold the channels now: when the writing thread
        // stops early (an error), dropping its receiver stops the workers,
        // whose receivers going stops the splitter.
        drop((work_rx, done_tx));
        collect(done_rx, &mut |games| {
            for game in games {
                take(game, &mut seen, &mut summary, &mut writer)?;
            }
            progress(&summary);
            Ok(())
        })
    })?;
    summary.written = writer.finish()?;
    Ok(summary)
}

/// The splitting thread: chunks to the workers, a failure and the end
/// straight to the writing thread.
fn splitter(inputs: &[String], work: SyncSender<Chunk>, done: SyncSender<Done>) {
    let end = split(inputs, &mut |chunk| match chunk {
        Ok(chunk) => work.send(chunk).is_ok(),
        Err((seq, e)) => {
            let _ = done.send(Done::Failed(seq, e));
            false
        }
    });
    let _ = done.send(Done::End(end));
}

/// A worker thread: prepares chunks until there are none.
fn worker(work: &Mutex<Receiver<Chunk>>, done: &SyncSender<Done>) {
    loop {
        let chunk = match work.lock() {
            Ok(rx) => match rx.recv() {
                Ok(chunk) => chunk,
                Err(_) => return,
            },
            Err(_) => return,
        };
        let seq = chunk.seq;
        if done.send(Done::Games(seq, prepare_chunk(chunk))).is_err() {
            return;
        }
    }
}

/// Takes the workers' chunks in input order.
fn collect(
    done: Receiver<Done>,
    take: &mut dyn FnMut(Vec<(GameRecord, u64)>) -> Result<(), DatasetError>,
) -> Result<(), DatasetError> {
    let mut waiting: BTreeMap<u64, Done> = BTreeMap::new();
    let (mut next, mut end) = (0u64, None);
    loop {
        while let Some(item) = waiting.remove(&next) {
            match item {
                Done::Games(_, games) => take(games)?,
                Done::Failed(_, e) => return Err(e),
                Done::End(_) => {}
            }
            next += 1;
        }
        if end == Some(next) {
            return Ok(());
        }
        match done.recv() {
            Ok(Done::End(n)) => end = Some(n),
            Ok(item @ (Done::Games(seq, _) | Done::Failed(seq, _))) => {
                waiting.insert(seq, item);
            }
            // Every thread ended without saying the end: nothing more comes.
            Err(_) => return Ok(()),
        }
    }
}
