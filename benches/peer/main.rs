//! The yardstick of `benches/compare.sh`: pgn-reader and shakmaty
//! replaying the SAN moves of PGN files, one core, built outside this
//! repository (both crates are GPL).
//!
//! `peer [--main-line] FILE...`: replays every move of every game, the
//! moves of variations too (a variation's first move from the position
//! before the move it stands for), from the `FEN` tag where there is one;
//! with `--main-line`, the main line alone. Prints the games, the moves
//! replayed and the games with a move that could not be played.
//!
//! `peer --perft DEPTH [FEN]`: the leaves of orthodox chess at `DEPTH`
//! from the start or from `FEN`.

use std::ops::ControlFlow;
use std::{env, fs::File, process};

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

/// Counts across the files.
#[derive(Default)]
struct Replay {
    main_line_only: bool,
    games: u64,
    moves: u64,
    failed: u64,
}

/// The positions of one line: before its last move, and now.
struct Line {
    before: Chess,
    now: Chess,
}

/// A game's movetext: the open lines, innermost last, and whether a move
/// failed.
struct Lines {
    open: Vec<Line>,
    failed: bool,
}

impl Lines {
    fn current(&mut self) -> &mut Line {
        self.open.last_mut().expect("the main line is open")
    }
}

impl Visitor for Replay {
    type Tags = Option<Chess>;
    type Movetext = Lines;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        start: &mut Option<Chess>,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<()> {
        if name == b"FEN" {
            let position = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Chess960).ok());
            match position {
                Some(position) => *start = Some(position),
                None => {
                    self.failed += 1;
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, start: Option<Chess>) -> ControlFlow<(), Lines> {
        let now = start.unwrap_or_default();
        ControlFlow::Continue(Lines {
            open: vec![Line {
                before: now.clone(),
                now,
            }],
            failed: false,
        })
    }

    fn begin_variation(&mut self, lines: &mut Lines) -> ControlFlow<(), Skip> {
        if self.main_line_only || lines.failed {
            return ControlFlow::Continue(Skip(true));
        }
        let from = lines.current().before.clone();
        lines.open.push(Line {
            before: from.clone(),
            now: from,
        });
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, lines: &mut Lines) -> ControlFlow<()> {
        if lines.open.len() > 1 {
            lines.open.pop();
        }
        ControlFlow::Continue(())
    }

    fn san(&mut self, lines: &mut Lines, san_plus: SanPlus) -> ControlFlow<()> {
        let line = lines.current();
        match san_plus.san.to_move(&line.now) {
            Ok(m) => {
                line.before.clone_from(&line.now);
                line.now.play_unchecked(m);
                self.moves += 1;
                ControlFlow::Continue(())
            }
            Err(_) => {
                lines.failed = true;
                self.failed += 1;
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self, _lines: Lines) {}
}

/// `--perft DEPTH [FEN]`.
fn perft(args: &[String]) {
    let depth: u32 = args
        .first()
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| {
            eprintln!("--perft DEPTH [FEN]");
            process::exit(2);
        });
    let position: Chess = match args.get(1) {
        Some(fen) => Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|fen| fen.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| {
                eprintln!("{fen}: not a legal position");
                process::exit(2);
            }),
        None => Chess::default(),
    };
    println!("perft {depth}: {}", shakmaty::perft(&position, depth));
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--perft") {
        perft(&args[1..]);
        return;
    }
    let mut replay = Replay::default();
    let mut files = Vec::new();
    for arg in args {
        match arg.as_str() {
            "--main-line" => replay.main_line_only = true,
            _ => files.push(arg),
        }
    }
    for name in &files {
        let file = File::open(name).unwrap_or_else(|e| {
            eprintln!("{name}: {e}");
            process::exit(2);
        });
        let mut reader = Reader::new(file);
        loop {
            match reader.read_game(&mut replay) {
                Ok(Some(())) => {}
                Ok(None) => break,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    process::exit(2);
                }
            }
        }
    }
    println!(
        "{} games, {} moves replayed, {} games with a move that could not be played",
        replay.games, replay.moves, replay.failed
    );
}
