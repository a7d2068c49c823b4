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
fn horde_with_the_colours_reversed_gives_the_kingless_army_to_black() {
    use xpgn::notation::position::write_position;
    use xpgn::notation::reader::GameSplitter;
    use xpgn::notation::validation::validate;
    // R-HD-3: Black's pawns against White's army, which castles.
    let text = "[Variant \"Horde\"]\n[FEN \"pppppppp/pppppppp/pppppppp/pppppppp/1pp2pp1/8/PPPPPPPP/RNBQKBNR w KQ - 0 1\"]\n\n1. Nf3 b3 2. e3 bxa2 3. Be2 c3 4. O-O *\n";
    let registry = xpgn::rules::Registry::builtin();
    let mut games = GameSplitter::new(text.as_bytes());
    let game = games.next_game().unwrap().unwrap();
    let checked = validate(&registry, &game);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let end = checked.end.unwrap();
    assert_eq!(
        write_position(&end),
        "pppppppp/pppppppp/pppppppp/pppppppp/5pp1/2p1PN2/pPPPBPPP/RNBQ1RK1 b - - 1 4"
    );
    // Black's king is nowhere, and nothing Black does is illegal for
    // its sake: 15 moves here, as the other implementation counts.
    assert_eq!(end.legal_moves().len(), 15);
    // A kingless Black that has lost its last piece has lost.
    let horde = variant("horde");
    let bare = read_position(&horde, "8/8/8/8/8/8/3K4/Q7 b - - 0 63").unwrap();
    assert_eq!(
        bare.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::Extinction
        })
    );
    // Each side has at most one king, and one side has its king.
    assert!(read_position(&horde, "8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    assert!(read_position(&horde, "k7/k7/8/8/8/8/PPPPPPPP/8 w - - 0 1").is_err());
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

/// A position string with its en passant field `-`.
fn without_ep(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() > 3 {
        fields[3] = "-";
    }
    fields.join(" ")
}

#[test]
fn random_games_written_by_another_implementation_end_where_it_says() {
    use xpgn::notation::position::{read_position, write_position};
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
        "seirawan",
        "seirawan960",
        "shouse",
        "shouse960",
        "placement",
        "sittuyin",
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
            // The whole position (hands, castlings, gates, counters) is the
            // same, but for the en passant square, which the other writer
            // gives only where a capture can use it.
            let theirs = read_position(end.variant().clone(), &without_ep(&tag("FinalFEN")))
                .unwrap_or_else(|e| panic!("{v} game {}: {e}", text.number));
            let ours =
                read_position(end.variant().clone(), &without_ep(&write_position(&end))).unwrap();
            assert_eq!(ours.key(), theirs.key(), "{v} game {}", text.number);
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
    assert_eq!(compared, 13 * 25);
}

#[test]
fn placement_drops_come_first_and_castling_arises_where_king_and_rook_land() {
    use xpgn::notation::position::write_position;
    let v = variant("placement");
    let pos = read_position(
        v.clone(),
        "r3k3/pppppppp/8/8/8/8/PPPPPPPP/R6R[Kr] w q - 0 1",
    )
    .unwrap();
    let moves = pos.legal_moves();
    // While a side holds pieces it drops them, on its first rank only.
    assert_eq!(moves.len(), 6);
    assert!(
        moves
            .iter()
            .all(|m| m.dropped() == Some(v.king_kind()) && m.to().rank() == 0)
    );
    let on = |file: &str| *moves.iter().find(|m| m.to().to_string() == file).unwrap();
    // The king on e1, between its rooks: both castlings arise.
    let after = pos.play(&on("e1")).unwrap();
    assert!(
        write_position(&after).contains(" b KQq "),
        "{}",
        write_position(&after)
    );
    // On d1 it gets none.
    let after = pos.play(&on("d1")).unwrap();
    assert!(
        write_position(&after).contains(" b q "),
        "{}",
        write_position(&after)
    );
}

#[test]
fn seirawan_gates_until_the_piece_on_them_moves_and_the_hand_empties() {
    use xpgn::notation::position::write_position;
    let v = variant("seirawan");
    let pos = Position::start(&v);
    assert_eq!(
        write_position(&pos),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1"
    );
    let play = |pos: &Position, from: &str, to: &str, gate: bool| {
        let m = *pos
            .legal_moves()
            .iter()
            .find(|m| {
                m.from().to_string() == from
                    && m.to().to_string() == to
                    && m.gate().is_some() == gate
            })
            .unwrap();
        pos.play(&m).unwrap()
    };
    // Nf3 without gating loses g1's gate; Nf6/H puts a hawk on g8.
    let pos = play(&pos, "g1", "f3", false);
    let pos = play(&pos, "g8", "f6", true);
    let fen = write_position(&pos);
    assert!(fen.starts_with("rnbqkbhr/"), "{fen}");
    assert!(fen.contains("[HEe] w KQBCDFkqbcdf "), "{fen}");
    // Gating is not a drop: no hand piece lands elsewhere.
    assert!(pos.legal_moves().iter().all(|m| m.dropped().is_none()));
}

#[test]
fn a_sittuyin_pawn_promotes_as_a_move_of_its_own_in_place_or_one_step_away() {
    use xpgn::notation::san::{parse_san, resolve_san, write_san};
    let v = variant("sittuyin");
    // White's last pawn, on g7: it may promote anywhere, while White has
    // no ferz, in place or onto an empty square a ferz step away (h8
    // holds White's king); no new ferz would attack the rook on d7.
    let pos = read_position(v.clone(), "1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1").unwrap();
    let promotions: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.promotion().is_some())
        .map(|m| write_san(&pos, m))
        .collect();
    assert_eq!(promotions, ["g7=F", "g7f6=F", "g7h6=F", "g7f8=F"]);
    // With the rook on e7 the ferz may not land on f6 or f8: it would
    // attack the rook.
    let near = read_position(v.clone(), "1k5K/4r1P1/8/8/8/8/8/8[] w - - 0 1").unwrap();
    let promotions: Vec<String> = near
        .legal_moves()
        .iter()
        .filter(|m| m.promotion().is_some())
        .map(|m| write_san(&near, m))
        .collect();
    assert_eq!(promotions, ["g7=F", "g7h6=F"]);
    for san in ["g7=F", "g7f8=F"] {
        let m = resolve_san(&pos, &parse_san(san).unwrap().san).unwrap();
        assert_eq!(write_san(&pos, &m), san);
    }
    // A pawn may stand on its last rank unpromoted.
    assert!(read_position(v, "1k4PK/3r4/8/8/8/8/8/8[] b - - 0 1").is_ok());
}

#[test]
fn json_gives_each_position_its_hands_checks_and_gates() {
    use xpgn::notation::pgn::read_game;
    use xpgn::notation::writer::write_json;
    let registry = xpgn::rules::Registry::builtin();
    let json = |text: &str| -> serde_json::Value {
        let game = read_game(text, 1);
        serde_json::from_str(&write_json(&registry, &game).unwrap()).unwrap()
    };
    let zh = json("[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n");
    let moves = zh["moves"].as_array().unwrap();
    assert_eq!(
        moves[2]["hands"],
        serde_json::json!({"white": "P", "black": ""})
    );
    assert_eq!(
        moves[3]["hands"],
        serde_json::json!({"white": "P", "black": "p"})
    );
    assert_eq!(
        moves[4]["hands"],
        serde_json::json!({"white": "", "black": "p"})
    );
    assert!(moves[4].get("checks_given").is_none());
    let three = json("[Variant \"Three-check\"]\n\n1. e4 f6 2. Qh5+ *\n");
    assert_eq!(three["moves"][1]["checks_given"], serde_json::json!([0, 0]));
    assert_eq!(three["moves"][2]["checks_given"], serde_json::json!([1, 0]));
    assert!(three["moves"][2].get("hands").is_none());
    let s = json("[Variant \"Seirawan\"]\n\n1. Nf3/H *\n");
    let gates = &s["moves"][0]["gates"];
    assert_eq!(gates.as_array().unwrap().len(), 15, "{gates}");
    assert!(!gates.as_array().unwrap().contains(&serde_json::json!("g1")));
    assert_eq!(s["moves"][0]["hands"]["white"], "E");
}

#[test]
fn a_gating_move_written_without_its_origin_is_read_as_the_moves_after_it_allow() {
    use xpgn::notation::diagnostic::{DiagnosticKind, Severity};
    use xpgn::notation::position::write_position;
    use xpgn::notation::reader::GameSplitter;
    use xpgn::notation::validation::validate;
    let registry = xpgn::rules::Registry::builtin();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/played/fsf-gating-undisambiguated.pgn");
    let bytes = std::fs::read(path).unwrap();
    let mut games = GameSplitter::new(&bytes[..]);
    let mut seen = Vec::new();
    while let Some(next) = games.next_game() {
        let text = next.unwrap();
        let checked = validate(&registry, &text);
        let kinds: Vec<(DiagnosticKind, Severity, Option<usize>)> = checked
            .diagnostics
            .iter()
            .map(|d| (d.kind, d.severity, d.ply))
            .collect();
        let message = checked.diagnostics.first().map(|d| d.message.clone());
        let game = text.text.to_string();
        let final_fen = game
            .split("[FinalFEN \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap()
            .to_string();
        seen.push((
            text.number,
            kinds,
            message,
            checked.end,
            final_fen,
            checked.plies,
        ));
    }
    assert_eq!(seen.len(), 4);
    // The first two: one reading is left, taken with a warning, and the
    // game ends where the writer's final position says.
    for (game, ply, taken) in [(1, 4, "Nab6/E"), (2, 5, "Nfe3/E")] {
        let (_, kinds, message, end, final_fen, _) = &seen[game - 1];
        assert_eq!(
            kinds,
            &[(DiagnosticKind::AmbiguousMove, Severity::Warning, Some(ply))],
            "game {game}"
        );
        assert!(
            message
                .as_ref()
                .unwrap()
                .contains(&format!("read as {taken}")),
            "{message:?}"
        );
        let end = end.as_ref().expect("replayed");
        assert_eq!(
            board_and_turn(&write_position(end)),
            board_and_turn(final_fen),
            "game {game}"
        );
    }
    assert_eq!(seen[0].5, 91);
    // Both readings of the third replay to the end; the fourth opens a
    // variation before the moves tell them apart: ambiguous, and the
    // main line stops before the move.
    for (game, ply, why) in [
        (3, 13, "more than one of its readings replays to the end"),
        (4, 4, "a variation follows"),
    ] {
        let (_, kinds, message, _, _, plies) = &seen[game - 1];
        assert_eq!(
            kinds,
            &[(DiagnosticKind::AmbiguousMove, Severity::Error, Some(ply))],
            "game {game}"
        );
        assert!(message.as_ref().unwrap().contains(why), "{message:?}");
        assert_eq!(*plies, ply - 1, "game {game}");
    }
}
