//! The rules of the variants played online (docs/rules.md "The variants
//! played online"): hands and drops, compulsory capture, check counting,
//! flag regions and explosions, through the public API.

use xpgn::notation::position::read_position;
use xpgn::rules::{Color, Ending, Outcome, Position, Square, Variant, perft};

fn variant(name: &str) -> Variant {
    Variant::by_name(name).unwrap()
}

#[test]
fn a_capture_goes_to_the_captors_hand_and_comes_back_as_a_drop() {
    let zh = variant("crazyhouse");
    let mut pos = Position::start(&zh);
    // 1. e4 d5 2. exd5: White holds a pawn and may drop it.
    for (from, to) in [("e2", "e4"), ("d7", "d5"), ("e4", "d5")] {
        let m = *pos
            .legal_moves()
            .iter()
            .find(|m| m.from().to_string() == from && m.to().to_string() == to)
            .unwrap();
        pos = pos.play(&m).unwrap();
    }
    let pawn = zh.pawn_kind();
    assert_eq!(pos.in_hand(Color::White, pawn), 1);
    assert_eq!(pos.in_hand(Color::Black, pawn), 0);
    // Black moves; then White's drops are on every empty square but
    // the first and last ranks.
    let m = pos.legal_moves()[0];
    pos = pos.play(&m).unwrap();
    let drops = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.dropped() == Some(pawn))
        .count();
    let empty_middle = (1..7u8)
        .flat_map(|r| (0..8u8).map(move |f| Square::new(f, r)))
        .filter(|&sq| pos.piece_at(sq).is_none())
        .count();
    assert_eq!(drops, empty_middle);
}

#[test]
fn the_same_board_with_other_hands_is_another_position() {
    let zh = variant("crazyhouse");
    let a = read_position(&zh, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1").unwrap();
    let b = read_position(&zh, "4k3/8/8/8/8/8/8/4K3[q] w - - 0 1").unwrap();
    assert_ne!(a.key(), b.key());
    assert_ne!(a, b);
}

#[test]
fn antichess_forces_captures_and_the_side_without_pieces_wins() {
    let anti = variant("antichess");
    let pos = read_position(&anti, "8/8/8/8/8/8/p7/1R6 b - - 0 1").unwrap();
    let moves = pos.legal_moves();
    // The pawn must take on b1, promoting to any of five types (a king
    // too); the step to a1 is not allowed.
    assert_eq!(moves.len(), 5, "{moves:?}");
    assert!(moves.iter().all(|m| m.to() == Square::new(1, 0)));
    let after = pos.play(&moves[0]).unwrap();
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::Extinction
        })
    );
    let empty_white = read_position(&anti, "8/8/8/8/8/8/8/1q6 w - - 0 1").unwrap();
    assert_eq!(
        empty_white.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::Extinction
        })
    );
    assert_eq!(perft(&empty_white, 1), 0);
}

#[test]
fn the_third_check_ends_a_three_check_game() {
    let v = variant("three-check");
    let pos = read_position(&v, "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1").unwrap();
    let check = *pos
        .legal_moves()
        .iter()
        .find(|m| m.to().to_string() == "a8")
        .unwrap();
    let after = pos.play(&check).unwrap();
    assert_eq!(after.checks_given(Color::White), 3);
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::CheckLimit
        })
    );
    assert!(after.legal_moves().is_empty());
}

#[test]
fn a_king_on_the_hill_wins() {
    let v = variant("king-of-the-hill");
    let pos = read_position(&v, "4k3/8/8/8/3K4/8/8/8 b - - 0 1").unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::Flag
        })
    );
}

#[test]
fn racing_kings_gives_black_one_more_move() {
    let v = variant("racing-kings");
    // White arrived; Black's king can arrive too: play goes on.
    let pos = read_position(&v, "4K3/6k1/8/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(pos.outcome(), None);
    // It cannot: White has won.
    let far = read_position(&v, "4K3/8/8/8/8/8/6k1/8 b - - 0 1").unwrap();
    assert_eq!(
        far.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::Flag
        })
    );
}

#[test]
fn an_atomic_capture_next_to_the_king_wins() {
    let v = variant("atomic");
    let pos = read_position(&v, "4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1").unwrap();
    let take = *pos
        .legal_moves()
        .iter()
        .find(|m| m.to().to_string() == "e7")
        .unwrap();
    let after = pos.play(&take).unwrap();
    assert!(
        after.piece_at(take.to()).is_none(),
        "the capturing rook exploded"
    );
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::KingExploded
        })
    );
}

/// Validates every game of `tests/data/played/FILE`, games without a
/// Variant tag read as `untagged`: the games' count and the faults found.
fn validate_file(file: &str, untagged: Option<&str>) -> (usize, Vec<String>) {
    use xpgn::notation::reader::GameSplitter;
    use xpgn::notation::validation::validate;
    use xpgn::rules::Registry;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/played")
        .join(file);
    let bytes = std::fs::read(&path).unwrap();
    let mut registry = Registry::builtin();
    if let Some(name) = untagged {
        registry = registry.with_untagged_variant(Variant::by_name(name).unwrap());
    }
    let mut games = GameSplitter::new(&bytes[..]);
    let (mut read, mut faults) = (0, Vec::new());
    while let Some(next) = games.next_game() {
        let text = next.unwrap();
        let checked = validate(&registry, &text);
        read += 1;
        faults.extend(
            checked
                .diagnostics
                .iter()
                .map(|d| d.render_in(file, text.number, &text.text, text.start)),
        );
    }
    (read, faults)
}

#[test]
fn real_games_of_the_variants_played_online_validate_without_a_fault() {
    for (file, untagged, games) in [
        ("fics-crazyhouse.pgn", Some("crazyhouse"), 200),
        ("fics-atomic.pgn", Some("atomic"), 200),
        ("server-crazyhouse.pgn", None, 4),
        ("lichess-atomic.pgn", None, 1),
        ("server-antichess.pgn", None, 2),
    ] {
        let (read, faults) = validate_file(file, untagged);
        assert_eq!(read, games, "{file}");
        assert!(faults.is_empty(), "{file}:\n{}", faults.join("\n"));
    }
}

#[test]
fn a_drop_in_a_game_read_as_orthodox_chess_names_the_option_for_untagged_games() {
    let (read, faults) = validate_file("fics-crazyhouse.pgn", None);
    assert_eq!(read, 200);
    assert!(faults.len() >= 190, "{}", faults.len());
    assert!(
        faults[0].contains("`P@b4` is a drop from the hand")
            && faults[0].contains("a game without a Variant tag is read as orthodox chess")
            && faults[0].contains("--variant NAME"),
        "{}",
        faults[0]
    );
}

/// The board field with its hand's letters sorted, and the side to move,
/// of a position string: what two writers of the same position agree on.
fn board_and_turn(fen: &str) -> (String, String, String) {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or_default();
    let (board, hand) = match board.split_once('[') {
        Some((b, h)) => {
            let mut letters: Vec<char> = h.trim_end_matches(']').chars().collect();
            letters.sort_unstable();
            (b.to_string(), letters.into_iter().collect())
        }
        None => (board.to_string(), String::new()),
    };
    (board, hand, fields.next().unwrap_or_default().to_string())
}

#[test]
fn random_games_written_by_another_implementation_end_where_it_says() {
    use xpgn::notation::position::write_position;
    use xpgn::notation::reader::GameSplitter;
    use xpgn::notation::validation::validate;
    let registry = xpgn::rules::Registry::builtin();
    let mut compared = 0;
    for v in [
        "crazyhouse",
        "atomic",
        "antichess",
        "3check",
        "kingofthehill",
        "horde",
        "racingkings",
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/data/played/random-{v}.pgn"));
        let bytes = std::fs::read(&path).unwrap();
        let mut games = GameSplitter::new(&bytes[..]);
        while let Some(next) = games.next_game() {
            let text = next.unwrap();
            let game = text.text.to_string();
            let tag = |name: &str| {
                let start = game.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
                game[start..start + game[start..].find('"').unwrap()].to_string()
            };
            let checked = validate(&registry, &text);
            assert!(
                checked.diagnostics.is_empty(),
                "{v} game {}: {:?}",
                text.number,
                checked.diagnostics
            );
            let end = checked.end.expect("replayed to the end");
            assert_eq!(
                board_and_turn(&write_position(&end)),
                board_and_turn(&tag("FinalFEN")),
                "{v} game {}",
                text.number
            );
            // A game the other implementation ended has ended here too.
            assert_eq!(
                tag("Result") != "*",
                end.outcome().is_some(),
                "{v} game {}",
                text.number
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 7 * 25);
}
