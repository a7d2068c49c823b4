//! Game files read on every core: worker threads split the inputs into
//! chunks of games in turn (a small share of the work: whichever worker
//! runs out of games splits the next chunk, so no thread of its own
//! competes with the workers for the cores), run the caller's function on
//! each game, and the calling thread takes the results back in input
//! order. Once everything is split, a worker with nothing left takes
//! games of the chunks others are still working on, so that the run does
//! not end on one worker's last chunk. What the caller makes of them
//! (a report, a converted file, database rows, a dataset) is therefore the
//! same, byte for byte, whatever the number of workers.
//!
//! Memory stays bounded: at most [`WINDOW_PER_JOB`] chunks per worker are
//! out between the splitting and the caller, counting those done but
//! waiting behind a slower one, and a chunk holds at most
//! [`CHUNK_GAMES`] games or about [`CHUNK_BYTES`] bytes.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};

use super::reader::{GameBytes, GameSplitter, GameText};

/// Games per chunk at most. Each chunk handed on costs a few thread
/// switches (the taking thread woken, a worker waiting its turn to
/// split): validating 36,260 real games of about 850 bytes on two cores,
/// chunks of 64 games made about 1,700 switches where chunks of 256 make
/// 470, and took 3% more time.
pub const CHUNK_GAMES: usize = 256;
/// Bytes per chunk, about: a chunk is closed once it holds this many.
pub const CHUNK_BYTES: usize = 256 * 1024;
/// Whether a chunk of `games` games and `bytes` bytes is whole: every
/// splitting of the inputs into chunks (by the workers, in the calling
/// thread, or by a caller that reads one input itself) closes a chunk
/// there, so that work done per chunk gives the same results.
pub fn chunk_is_whole(games: usize, bytes: usize) -> bool {
    games >= CHUNK_GAMES || bytes >= CHUNK_BYTES
}

/// Chunks in flight per worker, done or not.
pub const WINDOW_PER_JOB: u64 = 4;

/// Opens an input by name (the caller decides what `-` means).
pub type Open<'a> = dyn Fn(&str) -> std::io::Result<Box<dyn BufRead + Send>> + Sync + 'a;

/// What the caller takes, in input order.
#[derive(Debug)]
pub enum Event<T> {
    /// The worker's result for one game of input `input` (an index into
    /// the inputs).
    Game {
        /// Index of the game's input.
        input: usize,
        /// What the work function made of it.
        value: T,
    },
    /// Input `input` could not be opened; the next input follows.
    Unopened {
        /// Index of the input.
        input: usize,
        /// Why.
        error: std::io::Error,
    },
    /// Reading input `input` failed after the games already given; the
    /// rest of it is not read and the next input follows.
    Failed {
        /// Index of the input.
        input: usize,
        /// Why.
        error: std::io::Error,
    },
}

/// Opens `path` for [`map_games`], or standard input for `-`. With the
/// `compression` feature, an input compressed with gzip, zstd or bzip2
/// (told by its first bytes) is decompressed as it is read
/// (the module `compressed`).
///
/// # Errors
/// The file cannot be opened, or its first bytes cannot be read.
pub fn open_input(path: &str) -> std::io::Result<Box<dyn BufRead + Send>> {
    let input: Box<dyn BufRead + Send> = if path == "-" {
        Box::new(std::io::BufReader::with_capacity(1 << 16, std::io::stdin()))
    } else {
        Box::new(std::io::BufReader::with_capacity(
            1 << 16,
            std::fs::File::open(path)?,
        ))
    };
    #[cfg(feature = "compression")]
    return super::compressed::decompressed(input);
    #[cfg(not(feature = "compression"))]
    Ok(input)
}

/// Worker threads to use by default: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work` on every game of `inputs` (opened by `open`, split by
/// [`GameSplitter`]) on `jobs` worker threads (1: everything in the
/// calling thread, each game borrowed from the splitter's buffer), and
/// hands each result, and each input that fails, to `take` in input
/// order. `work` gets the index of the game's input.
///
/// # Errors
/// The first error `take` returns: everything stops (the threads finish
/// the chunk they hold and end).
pub fn map_games<T, E, W, C>(
    inputs: &[String],
    open: &Open<'_>,
    jobs: usize,
    work: W,
    take: C,
) -> Result<(), E>
where
    T: Send,
    W: Fn(usize, &GameBytes<'_>) -> T + Sync,
    C: FnMut(Event<T>) -> Result<(), E>,
{
    // Each result handed on as soon as it is ready.
    in_input_order(inputs, open, jobs, work, None, None::<fn(&mut [T])>, take)
}

/// [`map_games`], reading each game once where it can: a game
/// that opens with a tag line is cut by its layout, without the
/// splitter's scan ([`GameSplitter::guess_next_game`]), and handed to
/// `work_guessed`, which returns `None` unless its reading of the game
/// found that the game ends with its result
/// ([`super::pgn::GameEnd::ends_at_result`]): the scan then cuts the game
/// and `work` gets it. The results are those of [`map_games`] with `work`:
/// the scan cuts a game that ends with its result where the layout does.
/// On more jobs the workers cut whole chunks by the games' layout (but
/// for standard input, a pipe or a device, which cannot be read again),
/// since a game's cut is sure only once every game before it is vouched
/// for: when a game of a chunk is refused, the results from that chunk
/// on are dropped and the input is split again from the chunk's first
/// game by the scan (read anew and skipped to it).
///
/// # Errors
/// As [`map_games`].
pub fn map_games_reading_once<T, E, W, G, C>(
    inputs: &[String],
    open: &Open<'_>,
    jobs: usize,
    work: W,
    work_guessed: G,
    take: C,
) -> Result<(), E>
where
    T: Send,
    W: Fn(usize, &GameBytes<'_>) -> T + Sync,
    G: Fn(usize, &GameBytes<'_>) -> Option<T> + Sync,
    C: FnMut(Event<T>) -> Result<(), E>,
{
    let guessed: &WorkGuessed<'_, T> = &work_guessed;
    let no_finish = None::<fn(&mut [T])>;
    in_input_order(inputs, open, jobs, work, Some(guessed), no_finish, take)
}

/// [`map_games`], with `finish` run on the results of each chunk of
/// consecutive games of one input (at most [`CHUNK_GAMES`] games or about
/// [`CHUNK_BYTES`] bytes) by the thread that worked on them, before they
/// are handed on: for work done on several games together (an import
/// compresses their texts together).
///
/// # Errors
/// As [`map_games`].
pub fn map_game_chunks<T, E, W, F, C>(
    inputs: &[String],
    open: &Open<'_>,
    jobs: usize,
    work: W,
    finish: F,
    take: C,
) -> Result<(), E>
where
    T: Send,
    W: Fn(usize, &GameBytes<'_>) -> T + Sync,
    F: Fn(&mut [T]) + Sync,
    C: FnMut(Event<T>) -> Result<(), E>,
{
    in_input_order(inputs, open, jobs, work, None, Some(finish), take)
}

/// [`map_game_chunks`], reading each game once where it can,
/// as [`map_games_reading_once`] does.
///
/// # Errors
/// As [`map_games`].
pub fn map_game_chunks_reading_once<T, E, W, G, F, C>(
    inputs: &[String],
    open: &Open<'_>,
    jobs: usize,
    work: W,
    work_guessed: G,
    finish: F,
    take: C,
) -> Result<(), E>
where
    T: Send,
    W: Fn(usize, &GameBytes<'_>) -> T + Sync,
    G: Fn(usize, &GameBytes<'_>) -> Option<T> + Sync,
    F: Fn(&mut [T]) + Sync,
    C: FnMut(Event<T>) -> Result<(), E>,
{
    let guessed: &WorkGuessed<'_, T> = &work_guessed;
    in_input_order(inputs, open, jobs, work, Some(guessed), Some(finish), take)
}

/// What the four functions above do: on one job in the calling thread
/// ([`InPlace`]), on more by worker threads that split the inputs in
/// turn, their results taken back in input order.
fn in_input_order<T, E, W, F, C>(
    inputs: &[String],
    open: &Open<'_>,
    jobs: usize,
    work: W,
    work_guessed: Option<&WorkGuessed<'_, T>>,
    finish: Option<F>,
    mut take: C,
) -> Result<(), E>
where
    T: Send,
    W: Fn(usize, &GameBytes<'_>) -> T + Sync,
    F: Fn(&mut [T]) + Sync,
    C: FnMut(Event<T>) -> Result<(), E>,
{
    if jobs <= 1 {
        let splitting = InPlace {
            work: &work,
            work_guessed,
            finish: finish.as_ref().map(|f| f as &Finish<'_, T>),
        };
        return splitting.run(inputs, open, &mut take);
    }
    let finish = finish.as_ref().map(|f| f as &Finish<'_, T>);
    let mut restart = None;
    loop {
        let workers = Workers {
            work: &work,
            work_guessed,
            finish,
        };
        match workers.run(inputs, open, jobs, restart, &mut take)? {
            None => return Ok(()),
            Some(again) => restart = Some(again),
        }
    }
}

/// What the worker threads run on each chunk.
struct Workers<'w, T> {
    work: &'w Work<'w, T>,
    work_guessed: Option<&'w WorkGuessed<'w, T>>,
    finish: Option<&'w Finish<'w, T>>,
}

impl<T: Send> Workers<'_, T> {
    /// Splits the inputs (from `restart` on, if given) on `jobs` threads
    /// and hands the results on in input order; the place to split again
    /// from if a chunk's guesses were refused.
    fn run<E>(
        &self,
        inputs: &[String],
        open: &Open<'_>,
        jobs: usize,
        restart: Option<Restart>,
        take: &mut dyn FnMut(Event<T>) -> Result<(), E>,
    ) -> Result<Option<Restart>, E> {
        let window = Window::new(jobs as u64 * WINDOW_PER_JOB);
        let (done_tx, done_rx) = sync_channel::<Done<T>>(jobs * WINDOW_PER_JOB as usize + 1);
        let guess = self.work_guessed.is_some();
        let splitting = Mutex::new(Splitting::new(inputs, open, guess, restart));
        let open_chunks = OpenChunks::default();
        std::thread::scope(|scope| {
            let (splitting, window) = (&splitting, &window);
            let shared = Shared {
                workers: self,
                open_chunks: &open_chunks,
            };
            for _ in 0..jobs {
                let done = done_tx.clone();
                scope.spawn(move || worker(splitting, window, &done, shared));
            }
            // Only the threads hold the senders now: when every thread has
            // ended, `collect` sees the channel close.
            drop(done_tx);
            let result = collect(done_rx, window, take);
            // Wakes a worker waiting for room, so the scope can end after an
            // early stop.
            window.close();
            result
        })
    }
}

/// Where a split starts again: in input `input`, at the first game of a
/// chunk whose guesses a reading refused (every game before it vouched
/// for, so the scan would cut there too).
#[derive(Clone, Copy, Debug)]
struct Restart {
    input: usize,
    offset: u64,
    start: super::span::Location,
    /// Games of the input before it.
    before: usize,
}

/// What [`map_game_chunks`] runs on a chunk's results.
type Finish<'a, T> = dyn Fn(&mut [T]) + Sync + 'a;

/// What runs on a game: the caller's work.
type Work<'a, T> = dyn Fn(usize, &GameBytes<'_>) -> T + Sync + 'a;

/// What runs on a game cut by its layout ([`map_games_reading_once`]).
type WorkGuessed<'a, T> = dyn Fn(usize, &GameBytes<'_>) -> Option<T> + Sync + 'a;

/// The games of the inputs worked on in the calling thread, each
/// borrowed from the splitter's buffer; with `finish`, the results held
/// until their chunk (split as the workers split) is whole; with
/// `work_guessed`, each game cut by its layout where the reading vouches
/// for the cut.
struct InPlace<'w, T> {
    work: &'w Work<'w, T>,
    work_guessed: Option<&'w WorkGuessed<'w, T>>,
    finish: Option<&'w Finish<'w, T>>,
}

impl<T> InPlace<'_, T> {
    fn run<E>(
        &self,
        inputs: &[String],
        open: &Open<'_>,
        take: &mut dyn FnMut(Event<T>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut chunk = Chunked {
            values: Vec::new(),
            bytes: 0,
            finish: self.finish,
        };
        for (input, name) in inputs.iter().enumerate() {
            let reader = match open(name) {
                Ok(reader) => reader,
                Err(error) => {
                    take(Event::Unopened { input, error })?;
                    continue;
                }
            };
            let mut splitter = GameSplitter::new(reader);
            let mut guesses = Guesses::default();
            loop {
                if let Some(work_guessed) = self.work_guessed
                    && guesses.worth_making()
                {
                    let value = splitter
                        .guess_next_game()
                        .and_then(|game| Some((game.raw.len(), work_guessed(input, &game)?)));
                    guesses.count(value.is_some());
                    if let Some((len, value)) = value {
                        splitter.take_guessed();
                        chunk.push(input, value, len, take)?;
                        continue;
                    }
                }
                match splitter.next_game() {
                    Some(Ok(game)) => {
                        let len = game.raw.len();
                        chunk.push(input, (self.work)(input, &game), len, take)?;
                    }
                    Some(Err(error)) => {
                        chunk.hand_on(input, take)?;
                        take(Event::Failed { input, error })?;
                        break;
                    }
                    None => break,
                }
            }
            chunk.hand_on(input, take)?;
        }
        Ok(())
    }
}

/// The guesses of one input's games: each one refused after its reading
/// costs a second reading, and one not made a look at the game's lines,
/// so an input whose games mostly end otherwise than with their result
/// (a comment after every result, which starts the next game) or are
/// not guessed (Windows-1252, `\r\n` line ends) is scanned instead
/// after a few.
#[derive(Default)]
struct Guesses {
    taken: u64,
    refused: u64,
}

impl Guesses {
    /// Whether to go on guessing: always for the first few refusals,
    /// then while at most one guess in eight is refused.
    fn worth_making(&self) -> bool {
        self.refused < 16 || self.refused * 8 <= self.taken
    }

    fn count(&mut self, taken: bool) {
        if taken {
            self.taken += 1;
        } else {
            self.refused += 1;
        }
    }
}

/// Results of one input held until their chunk is whole.
struct Chunked<'f, T> {
    values: Vec<T>,
    bytes: usize,
    finish: Option<&'f Finish<'f, T>>,
}

impl<T> Chunked<'_, T> {
    /// Adds the result of a game of `len` bytes; hands the chunk on when
    /// it is whole (at once without `finish`).
    fn push<E>(
        &mut self,
        input: usize,
        value: T,
        len: usize,
        take: &mut dyn FnMut(Event<T>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.values.push(value);
        self.bytes += len;
        if self.finish.is_none() || chunk_is_whole(self.values.len(), self.bytes) {
            self.hand_on(input, take)?;
        }
        Ok(())
    }

    /// Hands the results held on, finished.
    fn hand_on<E>(
        &mut self,
        input: usize,
        take: &mut dyn FnMut(Event<T>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some(finish) = self.finish {
            finish(&mut self.values);
        }
        self.bytes = 0;
        self.values
            .drain(..)
            .try_for_each(|value| take(Event::Game { input, value }))
    }
}

/// A chunk of games of one input, numbered in input order.
struct Chunk {
    seq: u64,
    input: usize,
    texts: Vec<GameText>,
    /// Which games were cut by their layout.
    guessed: Vec<bool>,
}

/// What the splitting gives, in order.
enum Piece<T> {
    Games(Chunk),
    /// An input's failure, numbered as the chunks.
    Event(u64, Event<T>),
}

/// What comes back to the calling thread, numbered as the chunks.
enum Done<T> {
    Games(u64, Vec<Event<T>>),
    /// A game of the chunk cut by its layout was refused by its reading.
    Refused(u64, Restart),
    /// Everything is split: the number is one past the last piece.
    End(u64),
}

impl<T> Done<T> {
    fn seq(&self) -> u64 {
        match self {
            Done::Games(seq, _) | Done::Refused(seq, _) | Done::End(seq) => *seq,
        }
    }
}

/// How far the caller has taken: the splitting may run at most `size`
/// chunks ahead of it.
struct Window {
    size: u64,
    taken: Mutex<(u64, bool)>,
    moved: Condvar,
}

impl Window {
    fn new(size: u64) -> Window {
        Window {
            size,
            taken: Mutex::new((0, false)),
            moved: Condvar::new(),
        }
    }

    /// Waits until chunk `seq` may be sent; false once the caller has
    /// stopped.
    fn wait_for(&self, seq: u64) -> bool {
        let Ok(mut state) = self.taken.lock() else {
            return false;
        };
        while !state.1 && seq >= state.0 + self.size {
            state = match self.moved.wait(state) {
                Ok(s) => s,
                Err(_) => return false,
            };
        }
        !state.1
    }

    fn advance(&self, taken: u64) {
        if let Ok(mut state) = self.taken.lock() {
            state.0 = taken;
        }
        self.moved.notify_all();
    }

    fn close(&self) {
        if let Ok(mut state) = self.taken.lock() {
            state.1 = true;
        }
        self.moved.notify_all();
    }
}

/// The inputs as far as they are split, shared by the workers: each piece
/// (a chunk of games, or an input's failure) is numbered from 0 in input
/// order.
struct Splitting<'a> {
    inputs: &'a [String],
    open: &'a Open<'a>,
    /// Whether games may be cut by their layout.
    guess: bool,
    /// Where to start again, once the input it names is opened.
    restart: Option<Restart>,
    /// The next input to open.
    next_input: usize,
    /// The input being split.
    current: Option<Current>,
    /// An input's failure, told after the games read before it.
    failed: Option<(usize, std::io::Error)>,
    /// The number of the next piece.
    seq: u64,
    /// `Done::End` was sent.
    ended: bool,
}

/// The input being split.
struct Current {
    input: usize,
    splitter: GameSplitter<Box<dyn BufRead + Send>>,
    /// Whether its games are cut by their layout where they can be: not
    /// for an input that cannot be read again ([`can_read_again`]), nor
    /// for the rest of an input split again.
    guess: bool,
    guesses: Guesses,
}

impl<'a> Splitting<'a> {
    fn new(
        inputs: &'a [String],
        open: &'a Open<'a>,
        guess: bool,
        restart: Option<Restart>,
    ) -> Splitting<'a> {
        Splitting {
            inputs,
            open,
            guess,
            next_input: restart.map_or(0, |r| r.input),
            restart,
            current: None,
            failed: None,
            seq: 0,
            ended: false,
        }
    }

    /// The next piece, numbered; `None` once every input is split.
    fn next_piece<T>(&mut self) -> Option<Piece<T>> {
        let piece = self.split()?;
        self.seq += 1;
        Some(piece)
    }

    /// Opens input `input`, at the place to start again if it is there.
    fn open_input<T>(&mut self, input: usize, name: &str) -> Result<Current, Piece<T>> {
        let seq = self.seq;
        let restart = self.restart.take_if(|r| r.input == input);
        let reader = match (self.open)(name) {
            Ok(reader) => reader,
            // Opened before, when its first games were read.
            Err(error) if restart.is_some() => {
                return Err(Piece::Event(seq, Event::Failed { input, error }));
            }
            Err(error) => return Err(Piece::Event(seq, Event::Unopened { input, error })),
        };
        let mut splitter = GameSplitter::new(reader);
        if let Some(r) = restart
            && let Err(error) = splitter.skip_to(r.offset, r.start, r.before)
        {
            return Err(Piece::Event(seq, Event::Failed { input, error }));
        }
        Ok(Current {
            input,
            splitter,
            guess: self.guess && restart.is_none() && can_read_again(name),
            guesses: Guesses::default(),
        })
    }

    fn split<T>(&mut self) -> Option<Piece<T>> {
        let seq = self.seq;
        loop {
            if let Some((input, error)) = self.failed.take() {
                return Some(Piece::Event(seq, Event::Failed { input, error }));
            }
            let Some(current) = self.current.as_mut() else {
                let input = self.next_input;
                let name = self.inputs.get(input)?;
                self.next_input += 1;
                match self.open_input(input, name) {
                    Ok(current) => self.current = Some(current),
                    Err(piece) => return Some(piece),
                }
                continue;
            };
            let input = current.input;
            let (mut texts, mut guessed, mut bytes, mut ended) = (Vec::new(), Vec::new(), 0, false);
            while !chunk_is_whole(texts.len(), bytes) {
                if current.guess && current.guesses.worth_making() {
                    let text = current.splitter.guess_next_game().map(|g| g.to_game_text());
                    current.guesses.count(text.is_some());
                    if let Some(text) = text {
                        current.splitter.take_guessed();
                        bytes += text.raw.len();
                        texts.push(text);
                        guessed.push(true);
                        continue;
                    }
                }
                match current.splitter.next() {
                    Some(Ok(text)) => {
                        bytes += text.raw.len();
                        texts.push(text);
                        guessed.push(false);
                    }
                    Some(Err(error)) => {
                        self.failed = Some((input, error));
                        ended = true;
                        break;
                    }
                    None => {
                        ended = true;
                        break;
                    }
                }
            }
            if ended {
                self.current = None;
            }
            if !texts.is_empty() {
                return Some(Piece::Games(Chunk {
                    seq,
                    input,
                    texts,
                    guessed,
                }));
            }
        }
    }
}

/// Whether input `name` gives the same bytes when opened again: not
/// standard input (`-`), nor a pipe, a device or a socket (a file
/// descriptor of a shell's process substitution, say), which would go on
/// where the first reading stopped. A name that is no path is the
/// opener's to read again.
fn can_read_again(name: &str) -> bool {
    name != "-" && std::fs::metadata(name).map_or(true, |m| m.is_file())
}

/// A worker thread: splits the next chunk when the window has room for
/// it, runs the work on its games, and again, until everything is split;
/// then helps with the games of the chunks still open before it ends.
fn worker<T: Send>(
    splitting: &Mutex<Splitting<'_>>,
    window: &Window,
    done: &SyncSender<Done<T>>,
    shared: Shared<'_, T>,
) {
    loop {
        // The lock is held while splitting one piece (and waiting for room
        // for it: the workers it keeps waiting have nothing to hand in).
        let chunk = {
            let Ok(mut state) = splitting.lock() else {
                return;
            };
            if state.ended {
                drop(state);
                help(shared, done);
                return;
            }
            if !window.wait_for(state.seq) {
                return;
            }
            match state.next_piece() {
                Some(Piece::Games(chunk)) => chunk,
                Some(Piece::Event(seq, event)) => {
                    if done.send(Done::Games(seq, vec![event])).is_err() {
                        return;
                    }
                    continue;
                }
                None => {
                    state.ended = true;
                    let _ = done.send(Done::End(state.seq));
                    drop(state);
                    help(shared, done);
                    return;
                }
            }
        };
        let open = Arc::new(OpenChunk::new(chunk));
        if let Ok(mut list) = shared.open_chunks.lock() {
            list.push(Arc::clone(&open));
        }
        if !work_on(&open, shared, done) {
            return;
        }
    }
}

/// What every worker shares besides the splitting: the work, and the
/// chunks whose games are not all taken yet.
struct Shared<'w, T> {
    workers: &'w Workers<'w, T>,
    open_chunks: &'w OpenChunks<T>,
}

impl<T> Clone for Shared<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Shared<'_, T> {}

/// The chunks being worked on whose games are not all taken.
type OpenChunks<T> = Mutex<Vec<Arc<OpenChunk<T>>>>;

/// A chunk being worked on. Its games are taken one at a time, by the
/// worker that split it and, once everything is split, by any worker
/// that has nothing else to do: the last chunks of a run are shared
/// instead of one worker finishing its own while the others wait (a
/// chunk's games take a few milliseconds). Whoever does its last game
/// finishes it and hands it on.
struct OpenChunk<T> {
    chunk: Chunk,
    /// The next game to take.
    next: AtomicUsize,
    /// Games done.
    done: AtomicUsize,
    /// A game cut by its layout was refused by its reading.
    refused: AtomicBool,
    results: Vec<Mutex<Option<T>>>,
}

impl<T> OpenChunk<T> {
    fn new(chunk: Chunk) -> OpenChunk<T> {
        let results = (0..chunk.texts.len()).map(|_| Mutex::new(None)).collect();
        OpenChunk {
            chunk,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            refused: AtomicBool::new(false),
            results,
        }
    }

    fn has_games_left(&self) -> bool {
        self.next.load(Ordering::Relaxed) < self.results.len()
    }
}

/// Works on the open chunks' games left until none is, or the calling
/// thread has stopped taking.
fn help<T: Send>(shared: Shared<'_, T>, done: &SyncSender<Done<T>>) {
    loop {
        let open = match shared.open_chunks.lock() {
            Ok(list) => list.iter().find(|c| c.has_games_left()).cloned(),
            Err(_) => return,
        };
        match open {
            Some(open) if work_on(&open, shared, done) => {}
            _ => return,
        }
    }
}

/// Takes and works on games of `open` until none is left; the one who
/// does its last game finishes the chunk and hands it on. False once the
/// calling thread has stopped taking.
fn work_on<T: Send>(
    open: &Arc<OpenChunk<T>>,
    shared: Shared<'_, T>,
    done: &SyncSender<Done<T>>,
) -> bool {
    let (chunk, games) = (&open.chunk, open.results.len());
    loop {
        let i = open.next.fetch_add(1, Ordering::Relaxed);
        if i >= games {
            return true;
        }
        // After a refusal the chunk's results are dropped: its games
        // are counted, not read.
        if !open.refused.load(Ordering::Relaxed) {
            let game = chunk.texts[i].as_game_bytes();
            let workers = shared.workers;
            let value = match workers.work_guessed {
                Some(work_guessed) if chunk.guessed[i] => work_guessed(chunk.input, &game),
                _ => Some((workers.work)(chunk.input, &game)),
            };
            match (value, open.results[i].lock()) {
                (Some(value), Ok(mut slot)) => *slot = Some(value),
                _ => open.refused.store(true, Ordering::Relaxed),
            }
        }
        // The last game's counter sees every other game's result stored.
        if open.done.fetch_add(1, Ordering::AcqRel) + 1 == games {
            return finish_chunk(open, shared, done);
        }
    }
}

/// Hands on a chunk whose games are all done: its results, finished, or
/// where to split again from if one of its games was refused.
fn finish_chunk<T: Send>(
    open: &Arc<OpenChunk<T>>,
    shared: Shared<'_, T>,
    done: &SyncSender<Done<T>>,
) -> bool {
    if let Ok(mut list) = shared.open_chunks.lock() {
        list.retain(|c| !Arc::ptr_eq(c, open));
    }
    let chunk = &open.chunk;
    let values: Option<Vec<T>> = if open.refused.load(Ordering::Relaxed) {
        None
    } else {
        open.results
            .iter()
            .map(|slot| slot.lock().ok().and_then(|mut v| v.take()))
            .collect()
    };
    let done_with = match values {
        Some(mut values) => {
            if let Some(finish) = shared.workers.finish {
                finish(&mut values);
            }
            let input = chunk.input;
            let events = values
                .into_iter()
                .map(|value| Event::Game { input, value })
                .collect();
            Done::Games(chunk.seq, events)
        }
        None => {
            // Every game before the chunk's first was vouched for, or
            // this chunk's results would never be taken.
            let first = &chunk.texts[0];
            let restart = Restart {
                input: chunk.input,
                offset: first.offset,
                start: first.start,
                before: first.number - 1,
            };
            Done::Refused(chunk.seq, restart)
        }
    };
    done.send(done_with).is_ok()
}

/// Takes the workers' chunks in input order; where to split again from
/// if a chunk's guesses were refused (the chunks after it are dropped).
fn collect<T, E>(
    done: Receiver<Done<T>>,
    window: &Window,
    take: &mut dyn FnMut(Event<T>) -> Result<(), E>,
) -> Result<Option<Restart>, E> {
    let mut waiting: BTreeMap<u64, Done<T>> = BTreeMap::new();
    let (mut next, mut end) = (0u64, None);
    loop {
        while let Some(item) = waiting.remove(&next) {
            match item {
                Done::Games(_, events) => {
                    for event in events {
                        take(event)?;
                    }
                }
                Done::Refused(_, restart) => return Ok(Some(restart)),
                Done::End(_) => {}
            }
            next += 1;
            window.advance(next);
        }
        if end.is_some_and(|end| next >= end) {
            return Ok(None);
        }
        match done.recv() {
            Ok(Done::End(n)) => end = Some(n),
            Ok(item) => {
                waiting.insert(item.seq(), item);
            }
            // Every thread ended without saying the end: nothing more comes.
            Err(_) => return Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::reader::tests::{LAYOUT_ENDS, LAYOUT_MOVES, LAYOUT_TAGS};
    use super::*;
    use std::collections::HashSet;

    fn games(n: usize) -> String {
        (0..n)
            .map(|i| format!("[Event \"{i}\"]\n1. e4 *\n\n"))
            .collect()
    }

    fn open_named(name: &str) -> std::io::Result<Box<dyn BufRead + Send>> {
        if let Some(n) = name.strip_prefix("failing:") {
            // The games, then a read error.
            let n: usize = n.parse().map_err(std::io::Error::other)?;
            let games = std::io::Cursor::new(games(n).into_bytes());
            let broken = std::io::BufReader::new(Failing);
            return Ok(Box::new(std::io::Read::chain(games, broken)));
        }
        if let Some(spec) = name.strip_prefix("odd:") {
            // Games, one of which (the `k`th, from 1) has a comment after
            // its result, which starts the next game: its guess is refused.
            let (n, k) = spec
                .split_once(':')
                .ok_or_else(|| std::io::Error::other(spec))?;
            let n: usize = n.parse().map_err(std::io::Error::other)?;
            let k: usize = k.parse().map_err(std::io::Error::other)?;
            let games: String = (1..=n)
                .map(|i| {
                    let after = if i == k { " {c}" } else { "" };
                    format!("[Event \"{i}\"]\n1. e4 *{after}\n\n")
                })
                .collect();
            return Ok(Box::new(std::io::Cursor::new(games.into_bytes())));
        }
        if let Some(n) = name.strip_prefix("commented:") {
            // Games with a comment after each result: it starts the next
            // game, so no guess is vouched for.
            let n: usize = n.parse().map_err(std::io::Error::other)?;
            let games: String = (0..n)
                .map(|i| format!("[Event \"{i}\"]\n1. e4 * {{c}}\n\n"))
                .collect();
            return Ok(Box::new(std::io::Cursor::new(games.into_bytes())));
        }
        match name.strip_prefix("games:") {
            Some(n) => {
                let n: usize = n.parse().map_err(std::io::Error::other)?;
                Ok(Box::new(std::io::Cursor::new(games(n).into_bytes())))
            }
            None => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such input",
            )),
        }
    }

    /// A reader whose every read fails.
    struct Failing;

    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("broken"))
        }
    }

    /// A game as text: its input, number and first line.
    fn shown(input: usize, text: &GameBytes<'_>) -> String {
        format!(
            "{input}:{}:{}",
            text.number,
            text.text.lines().next().unwrap_or("")
        )
    }

    /// An event as text.
    fn event_shown(event: Event<String>) -> String {
        match event {
            Event::Game { value, .. } => value,
            Event::Unopened { input, .. } => format!("{input}: unopened"),
            Event::Failed { input, .. } => format!("{input}: failed"),
        }
    }

    /// Each event as text: the same list for any number of workers.
    fn run(inputs: &[&str], jobs: usize) -> Vec<String> {
        let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
        let mut seen = Vec::new();
        map_games::<_, (), _, _>(&inputs, &open_named, jobs, shown, |event| {
            seen.push(event_shown(event));
            Ok(())
        })
        .unwrap();
        seen
    }

    #[test]
    fn results_come_in_input_order_for_any_number_of_workers() {
        let inputs = ["games:500", "missing", "games:3", "games:0", "games:130"];
        let one = run(&inputs, 1);
        assert_eq!(one.len(), 500 + 1 + 3 + 130);
        assert_eq!(one[0], "0:1:[Event \"0\"]");
        assert_eq!(one[500], "1: unopened");
        assert_eq!(one[501], "2:1:[Event \"0\"]");
        assert_eq!(
            one.last().map(String::as_str),
            Some("4:130:[Event \"129\"]")
        );
        for jobs in [2, 3, 8] {
            assert_eq!(run(&inputs, jobs), one, "{jobs} workers");
        }
    }

    #[test]
    fn a_worker_with_nothing_left_to_split_helps_with_the_last_chunk() {
        // The second and last chunk's games wait (up to a few seconds,
        // once) for a second thread to work on that chunk: the worker
        // that finishes the first chunk must come and take some of them.
        let inputs = vec![format!("games:{}", CHUNK_GAMES + 40)];
        let seen = (Mutex::new((HashSet::new(), false)), Condvar::new());
        let mut by = Vec::new();
        map_games::<_, (), _, _>(
            &inputs,
            &open_named,
            2,
            |_, text| {
                let id = std::thread::current().id();
                if text.number > CHUNK_GAMES {
                    let (state, changed) = &seen;
                    let mut state = state.lock().unwrap();
                    state.0.insert(id);
                    changed.notify_all();
                    let wait = std::time::Duration::from_secs(5);
                    let (mut state, waited) = changed
                        .wait_timeout_while(state, wait, |(ids, gave_up)| {
                            ids.len() < 2 && !*gave_up
                        })
                        .unwrap();
                    state.1 |= waited.timed_out();
                }
                (text.number, id)
            },
            |event| {
                if let Event::Game { value, .. } = event {
                    by.push(value);
                }
                Ok(())
            },
        )
        .unwrap();
        let numbers: Vec<usize> = by.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, (1..=CHUNK_GAMES + 40).collect::<Vec<_>>());
        let last: HashSet<_> = by[CHUNK_GAMES..].iter().map(|(_, id)| id).collect();
        assert_eq!(
            last.len(),
            2,
            "the last chunk's games were done by both workers"
        );
    }

    #[test]
    fn a_failing_input_is_told_after_its_games_read_and_the_next_input_follows() {
        let inputs = ["games:3", "failing:200", "games:2"];
        let one = run(&inputs, 1);
        // The last game before the failure is cut off by it: 199 games.
        assert_eq!(one.len(), 3 + 199 + 1 + 2, "{one:?}");
        assert_eq!(one[3 + 199], "1: failed");
        for jobs in [2, 3] {
            assert_eq!(run(&inputs, jobs), one, "{jobs} workers");
        }
    }

    /// [`run`] through [`map_games_reading_once`]: each event as text, and
    /// how many games were taken as their layout cut them.
    fn run_reading_once(inputs: &[&str], jobs: usize) -> (Vec<String>, usize, usize) {
        struct Nothing;
        impl crate::notation::visitor::Visitor<'_> for Nothing {}
        let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
        use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
        let (guessed, tried) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let mut seen = Vec::new();
        map_games_reading_once::<_, (), _, _, _>(
            &inputs,
            &open_named,
            jobs,
            shown,
            |input, text| {
                let end = super::super::pgn::read_to_end(&text.text, text.start, &mut Nothing);
                guessed.fetch_add(usize::from(end.ends_at_result), Relaxed);
                tried.fetch_add(1, Relaxed);
                end.ends_at_result.then(|| shown(input, text))
            },
            |event| {
                seen.push(event_shown(event));
                Ok(())
            },
        )
        .unwrap();
        (seen, guessed.into_inner(), tried.into_inner())
    }

    #[test]
    fn games_read_once_come_as_the_scan_cuts_them_and_failures_in_their_place() {
        let inputs = ["games:300", "missing", "failing:200", "games:1", "games:2"];
        let (once, guessed, _) = run_reading_once(&inputs, 1);
        assert_eq!(once, run(&inputs, 1));
        // All but each input's last game, which has no next line (the
        // failing input's last, cut off by the failure, is not given; the
        // input of one game has none).
        assert_eq!(guessed, 299 + 199 + 1);
        for jobs in [2, 3] {
            let (events, guessed, tried) = run_reading_once(&inputs, jobs);
            assert_eq!(events, once, "{jobs} workers");
            // The workers guess as far as the splitting does, which is
            // not the same: a guess is refused only by its reading.
            assert!(
                guessed > 400 && guessed == tried,
                "{jobs} workers: {guessed} of {tried}"
            );
        }
    }

    #[test]
    fn workers_split_again_by_the_scan_from_a_chunk_whose_guess_is_refused() {
        let inputs = [
            "games:300",
            "odd:700:1",
            "odd:700:300",
            "odd:700:700",
            "-",
            "commented:300",
            "odd:600:599",
            "games:20",
        ];
        let scanned = run(&inputs, 1);
        assert_eq!(run_reading_once(&inputs, 1).0, scanned);
        for jobs in [2, 3, 8] {
            let (events, guessed, tried) = run_reading_once(&inputs, jobs);
            assert_eq!(events, scanned, "{jobs} workers");
            // The input whose refused game is its last is guessed to its
            // end; the refusal comes from the reading.
            assert!(
                tried > guessed && guessed > 1000,
                "{jobs} workers: {guessed} of {tried}"
            );
        }
    }

    #[test]
    fn an_input_whose_guesses_are_refused_is_scanned_after_a_few() {
        let inputs = ["commented:300", "games:100"];
        let (once, guessed, tried) = run_reading_once(&inputs, 1);
        assert_eq!(once, run(&inputs, 1));
        // Sixteen games of the first input read twice, then none; the
        // next input is guessed again.
        assert_eq!((guessed, tried), (99, 16 + 99));
    }

    #[test]
    fn chunks_are_finished_whole_and_the_same_for_any_number_of_workers() {
        // Two whole chunks and 22 games; one whole chunk and 69 games read
        // before the failure cuts the next off.
        let (games, failing) = (2 * CHUNK_GAMES + 22, CHUNK_GAMES + 70);
        // Each result names the first game of its chunk and the chunk's
        // size, as `finish` saw them.
        let chunked = |jobs: usize| {
            let inputs: Vec<String> = [
                format!("games:{games}"),
                format!("failing:{failing}"),
                "missing".to_string(),
                "games:3".to_string(),
            ]
            .to_vec();
            let mut seen = Vec::new();
            map_game_chunks::<_, (), _, _, _>(
                &inputs,
                &open_named,
                jobs,
                |input, text| (input, text.number, String::new()),
                |chunk| {
                    let (first, len) = (chunk.first().map(|&(i, n, _)| (i, n)), chunk.len());
                    for result in chunk.iter_mut() {
                        result.2 = format!("{first:?} of {len}");
                    }
                },
                |event| {
                    seen.push(match event {
                        Event::Game { value, .. } => format!("{}:{} {}", value.0, value.1, value.2),
                        Event::Unopened { input, .. } => format!("{input}: unopened"),
                        Event::Failed { input, .. } => format!("{input}: failed"),
                    });
                    Ok(())
                },
            )
            .unwrap();
            seen
        };
        let one = chunked(1);
        let read = failing - 1;
        assert_eq!(one.len(), games + read + 1 + 1 + 3, "{one:?}");
        assert_eq!(one[0], format!("0:1 Some((0, 1)) of {CHUNK_GAMES}"));
        assert_eq!(
            one[games - 1],
            format!("0:{games} Some((0, {})) of 22", 2 * CHUNK_GAMES + 1)
        );
        assert_eq!(
            one[games + read - 1],
            format!("1:{read} Some((1, {})) of 69", CHUNK_GAMES + 1)
        );
        assert_eq!(one[games + read], "1: failed");
        assert_eq!(one[games + read + 1], "2: unopened");
        assert_eq!(one[games + read + 2], "3:1 Some((3, 1)) of 3");
        for jobs in [2, 3] {
            assert_eq!(chunked(jobs), one, "{jobs} workers");
        }
    }

    #[test]
    fn only_inputs_that_give_the_same_bytes_again_are_guessed_on_workers() {
        assert!(!can_read_again("-"));
        let file = std::env::temp_dir().join(format!("xpgn-again-{}.pgn", std::process::id()));
        std::fs::write(&file, games(2)).unwrap();
        assert!(can_read_again(&file.to_string_lossy()));
        std::fs::remove_file(&file).unwrap();
        assert!(can_read_again("games:3"));
        #[cfg(unix)]
        assert!(!can_read_again("/dev/null"));
    }

    #[test]
    fn chunks_read_once_are_the_chunks_the_scan_cuts() {
        struct Nothing;
        impl crate::notation::visitor::Visitor<'_> for Nothing {}
        let inputs: Vec<String> = ["odd:700:400", "games:600", "odd:300:1", "commented:40"]
            .map(String::from)
            .to_vec();
        // Each result names its game and the first game and size of its
        // chunk, as `finish` saw them.
        let chunked = |jobs: usize, once: bool| {
            let mut seen = Vec::new();
            let work = |input: usize, text: &GameBytes<'_>| (input, text.number, String::new());
            let finish = |chunk: &mut [(usize, usize, String)]| {
                let (first, len) = (chunk.first().map(|&(i, n, _)| (i, n)), chunk.len());
                for result in chunk.iter_mut() {
                    result.2 = format!("{first:?} of {len}");
                }
            };
            let take = |event: Event<(usize, usize, String)>| {
                if let Event::Game { value, .. } = event {
                    seen.push(format!("{}:{} {}", value.0, value.1, value.2));
                }
                Ok::<(), ()>(())
            };
            if once {
                let guessed = |input: usize, text: &GameBytes<'_>| {
                    let end = super::super::pgn::read_to_end(&text.text, text.start, &mut Nothing);
                    end.ends_at_result.then(|| work(input, text))
                };
                map_game_chunks_reading_once(
                    &inputs,
                    &open_named,
                    jobs,
                    work,
                    guessed,
                    finish,
                    take,
                )
                .unwrap();
            } else {
                map_game_chunks(&inputs, &open_named, jobs, work, finish, take).unwrap();
            }
            seen
        };
        let scanned = chunked(1, false);
        assert_eq!(scanned.len(), 700 + 600 + 300 + 40);
        for jobs in [1, 2, 3] {
            assert_eq!(chunked(jobs, true), scanned, "{jobs} workers");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 200,
            ..Default::default()
        })]

        /// Inputs of games laid out as files lay them out (the reader's
        /// pieces: tag lines broken or indented, comments over lines, text
        /// after results, escape lines), long enough for several chunks:
        /// the workers reading once give every game, cut and numbered,
        /// as one job scanning gives it.
        #[test]
        fn workers_reading_once_give_what_the_scan_gives(
            pieces in proptest::collection::vec(
                (
                    proptest::collection::vec(0..LAYOUT_TAGS.len(), 1..4),
                    proptest::prelude::any::<bool>(),
                    proptest::collection::vec(0..LAYOUT_MOVES.len(), 0..6),
                    0..LAYOUT_ENDS.len(),
                ),
                1..12,
            ),
            games in (0usize..700, 0usize..700),
            jobs in 2usize..4,
        ) {
            let text = |n: usize| -> String {
                let mut text = String::new();
                for (tags, blank, moves, end) in pieces.iter().cycle().take(n) {
                    tags.iter().for_each(|&i| text.push_str(LAYOUT_TAGS[i]));
                    if *blank {
                        text.push('\n');
                    }
                    moves.iter().for_each(|&i| text.push_str(LAYOUT_MOVES[i]));
                    text.push_str(LAYOUT_ENDS[*end]);
                }
                text
            };
            let texts = [text(games.0), text(games.1)];
            let open = |name: &str| -> std::io::Result<Box<dyn BufRead + Send>> {
                let i: usize = name.parse().map_err(std::io::Error::other)?;
                Ok(Box::new(std::io::Cursor::new(texts[i].clone().into_bytes())))
            };
            let inputs = vec!["0".to_string(), "1".to_string()];
            let whole = |input: usize, game: &GameBytes<'_>| {
                format!("{input}:{}:{:?}:{}:{:?}", game.number, game.start, game.offset, game.text)
            };
            let mut scanned = Vec::new();
            map_games::<_, (), _, _>(&inputs, &open, 1, whole, |event| {
                scanned.push(event_shown(event));
                Ok(())
            })
            .unwrap();
            struct Nothing;
            impl crate::notation::visitor::Visitor<'_> for Nothing {}
            let mut read = Vec::new();
            map_games_reading_once::<_, (), _, _, _>(
                &inputs,
                &open,
                jobs,
                whole,
                |input, game| {
                    let end = super::super::pgn::read_to_end(&game.text, game.start, &mut Nothing);
                    end.ends_at_result.then(|| whole(input, game))
                },
                |event| {
                    read.push(event_shown(event));
                    Ok(())
                },
            )
            .unwrap();
            proptest::prop_assert_eq!(read, scanned);
        }
    }

    #[test]
    fn an_error_of_the_caller_stops_everything() {
        let inputs = vec!["games:5000".to_string()];
        for jobs in [1, 2] {
            let mut taken = 0;
            let result = map_games(
                &inputs,
                &open_named,
                jobs,
                |_, text| text.number,
                |event| {
                    taken += 1;
                    match event {
                        Event::Game { value: 100, .. } => Err("stop"),
                        _ => Ok(()),
                    }
                },
            );
            assert_eq!(result, Err("stop"));
            assert_eq!(taken, 100, "{jobs} workers");
        }
    }
}
