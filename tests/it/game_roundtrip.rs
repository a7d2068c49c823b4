//! Round trip of whole games, by property tests over random legal games of
//! every variant produced by the rules core: write (SAN, long algebraic,
//! coordinate) then read gives the same moves, positions and comments.

use proptest::prelude::*;
use xpgn::notation::coord::write_coord;
use xpgn::notation::game::{Game, Node};
use xpgn::notation::pgn::parse_game;
use xpgn::notation::position::write_position;
use xpgn::notation::writer::{MoveNotation, replay_tree, write_game};
use xpgn::rules::{Position, Variant};

/// A game of random legal moves with comments, NAGs and one-move variations.
fn random_game(variant: Variant, choices: &[(usize, u8)]) -> Game {
    let mut pos = Position::start(&variant);
    let mut nodes = Vec::new();
    for (i, &(c, extra)) in choices.iter().enumerate() {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[c % moves.len()];
        let mut node = Node::new(write_coord(&pos, &m));
        if extra % 5 == 0 {
            node.comments.push(if extra % 2 == 0 {
                format!("comment {i}  with\n white  space")
            } else {
                format!("comment {i} with a }} brace")
            });
        }
        if extra % 7 == 0 {
            node.nags.push(extra % 20 + 1);
        }
        if extra % 11 == 0 && moves.len() > 1 {
            let alt = moves[(c + 1) % moves.len()];
            let mut alternative = Node::new(write_coord(&pos, &alt));
            alternative.comments.push("alternative".into());
            node.variations.push(vec![alternative]);
        }
        pos.play_unchecked(&m);
        nodes.push(node);
    }
    Game {
        tags: vec![("Variant".into(), variant.def().display_name.clone())],
        moves: nodes,
        result: Some("*".into()),
        ..Game::default()
    }
}

/// Moves (as coordinates), positions and comments along the main line and
/// its variations.
fn summary(game: &Game) -> Vec<String> {
    let (_, tree) = replay_tree(&xpgn::rules::Registry::builtin(), game).expect("the game replays");
    fn walk(plies: &[xpgn::notation::writer::Ply<'_>], out: &mut Vec<String>) {
        for p in plies {
            let mut after = p.before.clone();
            after.play_unchecked(&p.mv);
            // The writer normalises white space in comments.
            let comments: Vec<String> = p
                .node
                .comments
                .iter()
                .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect();
            out.push(format!(
                "{} {} {:?} {:?}",
                write_coord(&p.before, &p.mv),
                write_position(&after),
                comments,
                p.node.nags
            ));
            for v in &p.variations {
                out.push("(".into());
                walk(v, out);
                out.push(")".into());
            }
        }
    }
    let mut out = Vec::new();
    walk(&tree, &mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn written_games_read_back_the_same(
        v in 0..Variant::builtin().len(),
        choices in prop::collection::vec((any::<usize>(), any::<u8>()), 0..150),
    ) {
        let game = random_game(Variant::builtin()[v].clone(), &choices);
        let expected = summary(&game);
        for notation in [MoveNotation::San, MoveNotation::Lan, MoveNotation::Coord] {
            let text = write_game(&xpgn::rules::Registry::builtin(), &game, notation).unwrap();
            let back = parse_game(&text, 1).unwrap_or_else(|e| panic!("{e}\n{text}"));
            prop_assert_eq!(&summary(&back), &expected, "{}", text);
            // Writing again gives the same text.
            prop_assert_eq!(write_game(&xpgn::rules::Registry::builtin(), &back, notation).unwrap(), text);
        }
    }
}
