//! The sample game files under `samples/` (all but `samples/invalid/`,
//! which `tests/it/invalid.rs` covers).
//!
//! Every sample game must replay without fault through the library, survive
//! read -> write -> read -> write unchanged, carry the seven-tag roster, and
//! stand in the directory of its variant; the `.xpgn` samples must moreover
//! be written in canonical XPGN (the writer gives back their text unchanged;
//! regenerate one with `xpgn convert FILE --to xpgn`). Together the samples of a variant
//! must keep exercising that variant's special rules (castlings of every
//! kind, waiting promotions, king's leaps, stalemate outcomes, ...): each
//! rule is counted over the games, their variations included, so this test
//! fails if a sample is edited so that a rule no longer occurs.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use xpgn::notation::game::Game;
use xpgn::notation::pgn::parse_game;
use xpgn::notation::reader::read_games;
use xpgn::notation::replay::replay;
use xpgn::notation::san::{San, parse_san, write_san};
use xpgn::notation::writer::{MoveNotation, Ply, SEVEN_TAG_ROSTER, replay_tree, write_game};
use xpgn::rules::{CastlingSide, Color, Ending, MoveKind, Outcome, Position, Square};

/// One game of a sample file.
struct Sample {
    /// `samples/<dir>/<file>`.
    path: PathBuf,
    /// The directory, named after the variant.
    dir: String,
    /// 1-based number of the game in its file.
    number: usize,
    /// The game's text as it stands in the file.
    text: String,
    game: Game,
}

impl Sample {
    fn name(&self) -> String {
        format!("{} game {}", self.path.display(), self.number)
    }
}

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples")
}

/// Every game of every `.xpgn` and `.pgn` file under `samples/<variant>/`.
fn samples() -> Vec<Sample> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(samples_dir())
        .expect("samples/ exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.is_dir() && !p.ends_with("invalid"))
        .collect();
    dirs.sort();
    let mut out = Vec::new();
    for dir in dirs {
        let dir_name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "xpgn" || x == "pgn"))
            .collect();
        files.sort();
        for path in files {
            let input = BufReader::new(File::open(&path).unwrap());
            for item in read_games(input) {
                let (text, game) = item.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                if let Some(e) = game.diagnostics.iter().find(|d| d.is_error()) {
                    panic!(
                        "{} game {}: line {}, column {}: {}",
                        path.display(),
                        text.number,
                        e.at.line,
                        e.at.column,
                        e.message
                    );
                }
                out.push(Sample {
                    path: path
                        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                        .unwrap()
                        .to_path_buf(),
                    dir: dir_name.clone(),
                    number: text.number,
                    text: text.text,
                    game,
                });
            }
        }
    }
    out
}

/// What the samples of one variant contain.
#[derive(Debug, Default)]
struct Stats {
    games: usize,
    /// Castlings by `Color king-from-king-to` (e.g. `White h1-j1`).
    castlings: BTreeMap<String, usize>,
    /// Castlings by side and color (`White O-O`).
    castling_sides: BTreeMap<String, usize>,
    /// Moves of the king's once-per-game move (R-KL-1 leap, R-CH-5 knight move).
    special_king: usize,
    /// King's leaps over a square held by a piece of the leaping side.
    leaps_over_friend: usize,
    /// King's leaps over an empty square.
    leaps_over_empty: usize,
    /// Immediate promotions by promoted-to letter.
    promotions: BTreeMap<char, usize>,
    /// Promotions whose type is the one that stood on the square in the setup
    /// (or the Councelor on the enemy king's setup square), R-CH-4.
    promotions_by_square: usize,
    promotions_by_square_wrong: usize,
    /// Waiting promotions (R-CS-4) where the owner chose among several types.
    waiting_with_choice: usize,
    /// Waiting promotions with only one type available.
    waiting_single: usize,
    /// Waiting promotions by letter.
    waiting_kinds: BTreeMap<char, usize>,
    /// Plies after which a blocked waiting pawn (turns 0, R-CS-6) stands.
    blocked_pawn_plies: usize,
    /// Instant promotions of a blocked pawn by a capture (R-CS-6).
    instant: usize,
    /// Moves whose SAN needs a from-file or from-rank.
    disambiguated: usize,
    /// Disambiguated moves from or to a file beyond h (wide boards).
    disambiguated_wide: usize,
    /// Moves from or to a file beyond h.
    wide_moves: usize,
    checkmates: usize,
    /// Stalemates with the side that wins: "stalemated" or "stalemating" or "draw".
    stalemates: BTreeMap<&'static str, usize>,
    resignations_or_draws: usize,
    /// Games ended by a variant rule (explosion, checks, flag, extinction), by ending.
    variant_wins: BTreeMap<String, usize>,
    comments: usize,
    nags: usize,
    variations: usize,
    results: BTreeMap<String, usize>,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn count_plies(plies: &[Ply<'_>], stats: &mut Stats) {
    for ply in plies {
        let pos = &ply.before;
        let variant = pos.variant();
        let m = ply.mv;
        let us = pos.turn();
        stats.comments += ply.node.comments.len() + ply.node.comments_before.len();
        stats.nags += ply.node.nags.len();
        stats.variations += ply.variations.len();
        match m.kind() {
            MoveKind::Castle(i) => {
                let def = variant.castling(i as usize);
                *stats
                    .castlings
                    .entry(format!(
                        "{} {}-{}",
                        color_name(us),
                        def.king_from,
                        def.king_to
                    ))
                    .or_default() += 1;
                let side = match def.side {
                    CastlingSide::Short => "O-O",
                    CastlingSide::Long => "O-O-O",
                };
                *stats
                    .castling_sides
                    .entry(format!("{} {side}", color_name(us)))
                    .or_default() += 1;
            }
            MoveKind::SpecialKing => {
                stats.special_king += 1;
                let (df, dr) = (
                    i32::from(m.to().file()) - i32::from(m.from().file()),
                    i32::from(m.to().rank()) - i32::from(m.from().rank()),
                );
                // A straight two-square leap passes over the middle square.
                if (df.abs() == 2 && dr == 0) || (df == 0 && dr.abs() == 2) {
                    let mid = Square::new(
                        (i32::from(m.from().file()) + df / 2) as u8,
                        (i32::from(m.from().rank()) + dr / 2) as u8,
                    );
                    match pos.piece_at(mid) {
                        Some(p) if p.color == us => stats.leaps_over_friend += 1,
                        Some(_) => panic!("a leap over an enemy piece was accepted"),
                        None => stats.leaps_over_empty += 1,
                    }
                }
            }
            _ => {}
        }
        if let Some(kind) = m.promotion() {
            let letter = variant.piece_def(kind).letter;
            *stats.promotions.entry(letter).or_default() += 1;
            if variant.name() == "chaturanga" {
                let start = Position::start(variant);
                let setup_kind = start.piece_at(m.to()).map(|p| p.kind);
                let expected = if setup_kind == Some(variant.king_kind()) {
                    variant.kind_by_letter('C')
                } else {
                    setup_kind
                };
                if expected == Some(kind) {
                    stats.promotions_by_square += 1;
                } else {
                    stats.promotions_by_square_wrong += 1;
                }
            }
        }
        if let Some(w) = m.waiting_promotion() {
            *stats
                .waiting_kinds
                .entry(variant.piece_def(w.kind).letter)
                .or_default() += 1;
            let choices = pos
                .legal_moves()
                .iter()
                .filter(|o| {
                    o.from() == m.from()
                        && o.to() == m.to()
                        && o.promotion() == m.promotion()
                        && o.waiting_promotion().is_some_and(|x| x.square == w.square)
                })
                .count();
            if choices > 1 {
                stats.waiting_with_choice += 1;
            } else {
                stats.waiting_single += 1;
            }
        }
        if m.instant_promotion().is_some() {
            stats.instant += 1;
        }
        let mut after = pos.clone();
        after.play_unchecked(&m);
        if after.waiting_pawns().iter().any(|w| w.turns == 0) {
            stats.blocked_pawn_plies += 1;
        }
        let san = write_san(pos, &m);
        let wide = m.from().file() >= 8 || m.to().file() >= 8;
        if wide {
            stats.wide_moves += 1;
        }
        if let Ok(token) = parse_san(&san)
            && let San::Normal {
                piece: Some(_),
                file,
                rank,
                ..
            } = token.san
            && (file.is_some() || rank.is_some())
        {
            stats.disambiguated += 1;
            if wide {
                stats.disambiguated_wide += 1;
            }
        }
        for v in &ply.variations {
            count_plies(v, stats);
        }
    }
}

/// Replays every sample, checks it, and gathers the statistics per directory.
fn checked_stats() -> BTreeMap<String, Stats> {
    let samples = samples();
    assert!(!samples.is_empty(), "no sample games found");
    let mut faults = Vec::new();
    let mut by_dir: BTreeMap<String, Stats> = BTreeMap::new();
    for s in &samples {
        let name = s.name();
        let replayed = match replay(&xpgn::rules::Registry::builtin(), &s.game) {
            Ok(r) => r,
            Err(f) => {
                faults.push(format!(
                    "{name}: line {}, column {}: {}",
                    f.error.at.line, f.error.at.column, f.error.message
                ));
                continue;
            }
        };
        if replayed.variant.name() != s.dir {
            faults.push(format!(
                "{name}: a {} game in samples/{}/",
                replayed.variant.name(),
                s.dir
            ));
        }
        for tag in SEVEN_TAG_ROSTER {
            if s.game.tag(tag).is_none() {
                faults.push(format!("{name}: no {tag} tag"));
            }
        }
        if s.dir != "chess" && s.game.tag("Variant").is_none() {
            faults.push(format!("{name}: no Variant tag"));
        }
        // Canonical form: the writer gives back the text as it stands. The
        // orthodox `.pgn` samples are plain hand-written PGN (`!?` suffixes,
        // their own line breaks) and need only read back stably.
        let written = write_game(
            &xpgn::rules::Registry::builtin(),
            &s.game,
            MoveNotation::San,
        )
        .expect("a valid game is written");
        let canonical_required = s.path.extension().is_some_and(|x| x == "xpgn");
        if canonical_required && written.trim_end() != s.text.trim_end() {
            faults.push(format!(
                "{name}: not in canonical form; `xpgn convert --to xpgn` writes:\n{written}"
            ));
        }
        // Read -> write -> read -> write is stable.
        let again = parse_game(&written, 1).expect("written text reads back");
        let rewritten = write_game(&xpgn::rules::Registry::builtin(), &again, MoveNotation::San)
            .expect("and is written again");
        if rewritten != written {
            faults.push(format!(
                "{name}: read -> write -> read -> write differs:\n{written}\n---\n{rewritten}"
            ));
        }
        let stats = by_dir.entry(s.dir.clone()).or_default();
        stats.games += 1;
        let result = s.game.result.clone().unwrap_or_else(|| "*".into());
        *stats.results.entry(result).or_default() += 1;
        match replayed.end.outcome() {
            Some(Outcome::Win {
                by: Ending::Checkmate,
                ..
            }) => stats.checkmates += 1,
            Some(Outcome::Win {
                winner,
                by: Ending::Stalemate,
            }) => {
                let who = if winner == replayed.end.turn() {
                    "stalemated"
                } else {
                    "stalemating"
                };
                *stats.stalemates.entry(who).or_default() += 1;
            }
            Some(Outcome::Draw { .. }) => *stats.stalemates.entry("draw").or_default() += 1,
            Some(Outcome::Win {
                by: Ending::BareKing,
                ..
            }) => panic!("no sample variant has a bare-king rule"),
            Some(Outcome::Win { by, .. }) => {
                *stats.variant_wins.entry(format!("{by:?}")).or_default() += 1
            }
            None => stats.resignations_or_draws += 1,
        }
        stats.comments += s.game.final_comments.len();
        let (_, tree) = replay_tree(&xpgn::rules::Registry::builtin(), &s.game).expect("replays");
        count_plies(&tree, stats);
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    by_dir
}

fn stats() -> &'static BTreeMap<String, Stats> {
    static STATS: std::sync::OnceLock<BTreeMap<String, Stats>> = std::sync::OnceLock::new();
    STATS.get_or_init(checked_stats)
}

fn of(variant: &str) -> &'static Stats {
    stats()
        .get(variant)
        .unwrap_or_else(|| panic!("no samples/{variant}/"))
}

#[test]
fn every_sample_game_is_valid_canonical_and_round_trips() {
    let stats = stats();
    let variants = [
        "chess",
        "counsellor",
        "royal",
        "chaturanga",
        "courier-spiel",
        "chancellor",
        "chancellor-crosswise",
        "kings-leap",
    ];
    for v in variants {
        let s = of(v);
        let least = if v == "chess" { 2 } else { 3 };
        assert!(s.games >= least, "{v}: {} games, want {least}", s.games);
        assert!(s.comments > 0 && s.nags > 0, "{v}: {s:?}");
        assert!(s.variations > 0, "{v}: no variation");
        assert!(
            !s.results.contains_key("*"),
            "{v}: every sample game is finished: {:?}",
            s.results
        );
    }
    assert_eq!(
        stats.keys().collect::<Vec<_>>().len(),
        variants.len(),
        "one directory per variant: {:?}",
        stats.keys().collect::<Vec<_>>()
    );
}

#[test]
fn every_variant_has_a_checkmate() {
    for v in [
        "counsellor",
        "royal",
        "chaturanga",
        "courier-spiel",
        "chancellor",
        "chancellor-crosswise",
        "kings-leap",
    ] {
        assert!(of(v).checkmates >= 1, "{v}: {:?}", of(v));
    }
}

#[test]
fn wide_board_san_with_disambiguation() {
    for v in ["counsellor", "courier-spiel"] {
        let s = of(v);
        assert!(s.wide_moves > 0, "{v}: {s:?}");
        assert!(s.disambiguated_wide > 0, "{v}: {s:?}");
    }
    assert!(of("royal").wide_moves > 0);
    assert!(of("chess").disambiguated > 0);
}

#[test]
fn counsellor_two_stage_castlings_and_promotions() {
    let s = of("counsellor");
    let either = |a: &str, b: &str| {
        s.castlings.get(a).copied().unwrap_or(0) + s.castlings.get(b).copied().unwrap_or(0)
    };
    // R-CO-4 (a) king first: Kh1, later O-O = king h1-j1.
    assert!(either("White h1-j1", "Black h8-j8") > 0, "{s:?}");
    // R-CO-4 (b) rook first: Rk1, later O-O = king g1-i1.
    assert!(either("White g1-i1", "Black g8-i8") > 0, "{s:?}");
    // R-CO-3: pawns promote to Counsellor or Bishop only.
    assert!(!s.promotions.is_empty(), "{s:?}");
    assert!(s.promotions.keys().all(|k| matches!(k, 'C' | 'B')), "{s:?}");
}

#[test]
fn royal_castlings_promotion_and_stalemate() {
    let s = of("royal");
    let either = |a: &str, b: &str| {
        s.castlings.get(a).copied().unwrap_or(0) + s.castlings.get(b).copied().unwrap_or(0)
    };
    // R-RO-3 (a) one stage, (b) king first, (c) rook first.
    assert!(either("White f1-h1", "Black f8-h8") > 0, "{s:?}");
    assert!(either("White e1-c1", "Black e8-c8") > 0, "{s:?}");
    assert!(either("White f1-d1", "Black f8-d8") > 0, "{s:?}");
    // R-RO-2: to Firzan only.
    assert!(s.promotions.get(&'F').is_some_and(|&n| n > 0), "{s:?}");
    assert_eq!(s.promotions.len(), 1, "{s:?}");
    // R-RO-4: the stalemated player loses.
    assert!(
        s.stalemates.get("stalemating").is_some_and(|&n| n > 0),
        "{s:?}"
    );
    assert!(!s.stalemates.contains_key("stalemated"), "{s:?}");
}

#[test]
fn chaturanga_king_knight_move_promotion_by_square_and_stalemate() {
    let s = of("chaturanga");
    // R-CH-5: the king's once-per-game knight move.
    assert!(s.special_king > 0, "{s:?}");
    // R-CH-4: promotion to the type that stood on the square.
    assert!(s.promotions_by_square > 0, "{s:?}");
    assert_eq!(s.promotions_by_square_wrong, 0, "{s:?}");
    assert!(s.promotions.len() >= 2, "promotions to two types: {s:?}");
    // R-CH-7: the stalemated player wins.
    assert!(
        s.stalemates.get("stalemated").is_some_and(|&n| n > 0),
        "{s:?}"
    );
    assert!(!s.stalemates.contains_key("stalemating"), "{s:?}");
    assert!(s.castlings.is_empty(), "R-CH-6: no castling");
}

#[test]
fn courier_spiel_castling_and_every_waiting_promotion_path() {
    let s = of("courier-spiel");
    // R-CS-2 both sides.
    let side = |a: &str, b: &str| {
        s.castling_sides.get(a).copied().unwrap_or(0)
            + s.castling_sides.get(b).copied().unwrap_or(0)
    };
    assert!(side("White O-O", "Black O-O") > 0, "{s:?}");
    assert!(side("White O-O-O", "Black O-O-O") > 0, "{s:?}");
    // R-CS-3/4/5: a wait ending in a chosen promotion.
    assert!(s.waiting_with_choice > 0, "{s:?}");
    // R-CS-6: a blocked pawn, later promoted instantly by a capture.
    assert!(s.blocked_pawn_plies > 0, "{s:?}");
    assert!(s.instant > 0, "{s:?}");
    // No promotion on arrival.
    assert!(s.promotions.is_empty(), "{s:?}");
}

#[test]
fn chancellor_castlings() {
    // R-PC-2: O-O with the Queen, O-O-O with the Chancellor.
    let s = of("chancellor");
    assert!(s.castlings.contains_key("White e1-g1") || s.castlings.contains_key("Black e8-g8"));
    assert!(s.castlings.contains_key("White e1-c1") || s.castlings.contains_key("Black e8-c8"));
    // R-PX-1: Black's reversed back rank castles d8-b8 with the queen and
    // d8-f8 with the chancellor.
    let s = of("chancellor-crosswise");
    assert!(s.castlings.contains_key("Black d8-b8"), "{s:?}");
    assert!(s.castlings.contains_key("Black d8-f8"), "{s:?}");
}

#[test]
fn kings_leaps() {
    // R-KL-1: leaps over a friendly piece and over an empty square.
    let s = of("kings-leap");
    assert!(s.leaps_over_friend > 0, "{s:?}");
    assert!(s.leaps_over_empty > 0, "{s:?}");
    assert!(s.castlings.is_empty(), "no castling in King's Leap Chess");
}
