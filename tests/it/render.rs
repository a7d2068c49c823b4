//! SVG diagrams: every built-in variant's pieces each have their own image
//! at the right squares, boards up to 16x16, valid XML, waiting pawns and
//! the legend of one-time rights; `xpgn diagram`.

use std::collections::{BTreeMap, BTreeSet};

use crate::scratch;
use scratch::Scratch;

use crate::run::xpgn;
use xpgn::notation::coord::resolve_coord;
use xpgn::notation::position::read_position;
use xpgn::render::{Diagram, legend_lines, render_svg};
use xpgn::rules::variant::builtin_def;
use xpgn::rules::{BoardSize, Color, Piece, PieceKind, Position, Square, Variant, VariantDef};

/// Per square: (`data-piece`, `data-image`) of the piece drawn there.
fn drawn(svg: &str) -> BTreeMap<String, (String, String)> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let mut out = BTreeMap::new();
    for n in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
    {
        let sq = n.attribute("data-square").unwrap().to_string();
        let v = (
            n.attribute("data-piece").unwrap().to_string(),
            n.attribute("data-image").unwrap().to_string(),
        );
        assert!(out.insert(sq.clone(), v).is_none(), "two pieces on {sq}");
        // Each piece is drawn with shapes, not only a letter.
        assert!(
            n.descendants()
                .any(|c| matches!(c.tag_name().name(), "path" | "circle")),
            "piece on {sq} has no shape"
        );
    }
    out
}

fn play(variant: &str, moves: &str) -> Position {
    let mut pos = Position::start(Variant::by_name(variant).unwrap());
    for t in moves.split_whitespace() {
        let m = resolve_coord(&pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        pos.play_unchecked(&m);
    }
    pos
}

#[test]
fn every_builtin_start_position_draws_each_piece_with_its_own_image_on_its_square() {
    for v in Variant::builtin() {
        let pos = Position::start(v);
        let svg = render_svg(
            &pos,
            &Diagram {
                coordinates: true,
                ..Diagram::default()
            },
        );
        let pieces = drawn(&svg);
        assert_eq!(pieces.len(), pos.pieces().count(), "{}", v.name());
        let mut image_of_kind: BTreeMap<PieceKind, String> = BTreeMap::new();
        let mut tokens = BTreeSet::new();
        for (sq, p) in pos.pieces() {
            let def = v.piece_def(p.kind);
            let color = if p.color == Color::White {
                "white"
            } else {
                "black"
            };
            let (piece, image) = &pieces[&sq.to_string()];
            assert_eq!(
                piece,
                &format!("{color} {}", def.name.to_lowercase()),
                "{} {sq}",
                v.name()
            );
            if image == "token" {
                // Drawn as its lettered token: only the pieces listed.
                assert!(
                    WITHOUT_IMAGE.contains(&def.name.as_str()),
                    "{}: {} has no image",
                    v.name(),
                    def.name
                );
                tokens.insert(p.kind);
                continue;
            }
            let seen = image_of_kind.entry(p.kind).or_insert_with(|| image.clone());
            assert_eq!(seen, image, "one kind, one image");
        }
        // Different kinds of one variant look different.
        let images: BTreeSet<&String> = image_of_kind.values().collect();
        assert_eq!(
            images.len(),
            image_of_kind.len(),
            "{}: two kinds share an image: {image_of_kind:?}",
            v.name()
        );
        // Every kind the start position holds (Racing Kings has no pawns).
        let on_board: BTreeSet<_> = v.def().setup.iter().map(|(_, p)| p.kind).collect();
        assert_eq!(
            image_of_kind.len() + tokens.len(),
            on_board.len(),
            "{}",
            v.name()
        );
    }
}

/// Pieces of Fairy-Stockfish's built-in variants that have no image of
/// their own yet: drawn as lettered tokens, as a user's pieces are.
const WITHOUT_IMAGE: &[&str] = &[
    "Archbishop",
    "Janus",
    "Amazon",
    "Centaur",
    "Nightrider",
    "Ai-wok",
    "Wizard",
    "Lion",
    "Champion",
    "Schleich",
];

#[test]
fn the_named_pieces_of_the_historic_variants_have_the_images_their_names_say() {
    let image = |variant: &str, letter: char| {
        let v = Variant::by_name(variant).unwrap();
        let kind = v.kind_by_letter(letter).unwrap();
        xpgn::render::pieces::image_for(&v.piece_def(kind).name).map(|i| i.id)
    };
    assert_eq!(image("counsellor", 'E'), Some("elephant"));
    assert_eq!(image("counsellor", 'C'), Some("counsellor"));
    assert_eq!(image("royal", 'F'), Some("firzan"));
    assert_eq!(image("chaturanga", 'R'), Some("chariot"));
    // Fairy-Stockfish's built-ins: the alfil is the elephant, the fers and
    // Makruk's met the firzan, the commoner and the Mann a man.
    assert_eq!(image("shatranj", 'B'), Some("elephant"));
    assert_eq!(image("makruk", 'M'), Some("firzan"));
    assert_eq!(image("makruk", 'S'), Some("elephant"));
    assert_eq!(image("courier", 'M'), Some("councillor"));
    assert_eq!(image("knightmate", 'M'), Some("councillor"));
    assert_eq!(image("hoppelpoppel", 'B'), Some("bishop"));
    assert_eq!(image("chaturanga", 'C'), Some("firzan"));
    assert_eq!(image("courier-spiel", 'C'), Some("courier"));
    assert_eq!(image("courier-spiel", 'M'), Some("councillor"));
    assert_eq!(image("courier-spiel", 'F'), Some("fool"));
    assert_eq!(image("chancellor", 'C'), Some("chancellor"));
}

fn big_variant() -> Variant {
    let mut def: VariantDef = builtin_def("chess").unwrap();
    def.name = "sixteen".into();
    def.size = BoardSize::new(16, 16);
    let kind = |l: char| PieceKind(def.pieces.iter().position(|p| p.letter == l).unwrap() as u8);
    let back = "RNBQKBNRRNBQQBNR";
    def.setup.clear();
    for (color, rank, pawns) in [(Color::White, 0, 1), (Color::Black, 15, 14)] {
        for (f, l) in back.chars().enumerate() {
            def.setup.push((
                Square::new(f as u8, rank),
                Piece {
                    color,
                    kind: kind(l),
                },
            ));
            def.setup.push((
                Square::new(f as u8, pawns),
                Piece {
                    color,
                    kind: kind('P'),
                },
            ));
        }
    }
    def.castling.clear();
    Variant::compile(def).unwrap()
}

#[test]
fn a_16x16_board_renders_every_square_label_and_piece() {
    let pos = Position::start(big_variant());
    let svg = render_svg(
        &pos,
        &Diagram {
            coordinates: true,
            ..Diagram::default()
        },
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let squares: BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("square"))
        .map(|n| n.attribute("data-square").unwrap())
        .collect();
    assert_eq!(squares.len(), 256);
    assert!(squares.contains("p16") && squares.contains("a1"));
    let labels: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .collect();
    assert!(
        labels.contains(&"p") && labels.contains(&"16"),
        "{labels:?}"
    );
    let pieces = drawn(&svg);
    assert_eq!(pieces.len(), 64);
    assert_eq!(pieces["e1"], ("white king".into(), "king".into()));
    assert_eq!(pieces["p16"], ("black rook".into(), "rook".into()));
}

/// The (x, y) of a square's rectangle.
fn square_xy(svg: &str, sq: &str) -> (f64, f64) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let n = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("square") && n.attribute("data-square") == Some(sq))
        .unwrap();
    (
        n.attribute("x").unwrap().parse().unwrap(),
        n.attribute("y").unwrap().parse().unwrap(),
    )
}

#[test]
fn white_is_at_the_bottom_unless_flipped_and_a1_is_dark() {
    let pos = Position::start(Variant::by_name("counsellor").unwrap());
    let svg = render_svg(&pos, &Diagram::default());
    assert_eq!(square_xy(&svg, "a1"), (0.0, 7.0 * 45.0));
    assert_eq!(square_xy(&svg, "l8"), (11.0 * 45.0, 0.0));
    assert!(
        svg.contains(r##"data-square="a1" x="0" y="315" width="45" height="45" fill="#b48a63""##)
    );
    let flipped = render_svg(
        &pos,
        &Diagram {
            flip: true,
            ..Diagram::default()
        },
    );
    assert_eq!(square_xy(&flipped, "a1"), (11.0 * 45.0, 0.0));
    assert_eq!(square_xy(&flipped, "l8"), (0.0, 7.0 * 45.0));
}

#[test]
fn last_move_highlights_and_arrows_are_drawn_and_the_width_scales() {
    let pos = play("chess", "e2e4");
    let d = Diagram {
        last_move: Some((Square::new(4, 1), Square::new(4, 3))),
        highlights: vec![Square::new(3, 4)],
        arrows: vec![(Square::new(6, 0), Square::new(5, 2))],
        width: Some(320),
        ..Diagram::default()
    };
    let svg = render_svg(&pos, &d);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let marked: Vec<&str> = doc
        .descendants()
        .filter(|n| n.parent().and_then(|p| p.attribute("class")) == Some("last-move"))
        .filter_map(|n| n.attribute("data-square"))
        .collect();
    assert_eq!(marked, ["e2", "e4"]);
    assert!(
        doc.descendants()
            .any(|n| n.attribute("class") == Some("highlight")
                && n.attribute("data-square") == Some("d5"))
    );
    assert!(
        doc.descendants()
            .any(|n| n.attribute("class") == Some("arrow")
                && n.attribute("data-from") == Some("g1")
                && n.attribute("data-to") == Some("f3"))
    );
    assert_eq!(doc.root_element().attribute("width"), Some("320"));
}

#[test]
fn waiting_pawns_are_marked_and_the_legend_says_when_they_promote() {
    let v = Variant::by_name("courier-spiel").unwrap();
    let pos = read_position(&v, "k11/3P8/12/12/12/12/12/5K6 w - - 0 30").unwrap();
    let m = resolve_coord(&pos, "d7d8").unwrap();
    let mut pos = pos;
    pos.play_unchecked(&m);
    let svg = render_svg(&pos, &Diagram::default());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let mark = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("waiting"))
        .expect("a waiting mark");
    assert_eq!(mark.attribute("data-square"), Some("d8"));
    assert_eq!(drawn(&svg)["d8"].0, "white pawn");
    let legend = legend_lines(&pos);
    assert!(
        legend
            .iter()
            .any(|l| l.contains("waiting pawn on d8") && l.contains("R-CS-4")),
        "{legend:?}"
    );
    let text: String = doc
        .descendants()
        .filter(|n| n.parent().and_then(|p| p.attribute("class")) == Some("legend"))
        .filter_map(|n| n.text())
        .collect();
    assert!(text.contains("waiting pawn on d8"), "{text}");
}

#[test]
fn the_legend_lists_unused_one_time_rights_and_castling_stages() {
    let legend = legend_lines(&play("counsellor", "h2h3 h7h6 h1h2 h8h7 g1h1 g8h8"));
    assert!(
        legend
            .iter()
            .any(|l| l.starts_with("White: castling O-O unused")
                && l.contains("king's first stage to h1 done")),
        "{legend:?}"
    );
    let legend = legend_lines(&play("counsellor", "k1j3 k8j6 l1k1"));
    assert!(
        legend
            .iter()
            .any(|l| l.contains("rook's first stage to k1 done")),
        "{legend:?}"
    );
    let legend = legend_lines(&play("kings-leap", "e2e4 e7e5 e1e2"));
    assert!(
        !legend
            .iter()
            .any(|l| l.starts_with("White: the king's leap")),
        "{legend:?}"
    );
    assert!(
        legend
            .iter()
            .any(|l| l.starts_with("Black: the king's leap unused (R-KL-1)"))
    );
    let legend = legend_lines(&play("chaturanga", ""));
    assert_eq!(legend.len(), 2, "{legend:?}");
    assert!(legend_lines(&play("chess", "e2e4 e7e5 e1e2 e8e7")).is_empty());
}

#[test]
fn pieces_of_a_user_defined_variant_fall_back_to_escaped_letter_tokens() {
    let mut def: VariantDef = builtin_def("chess").unwrap();
    def.name = "odd".into();
    def.display_name = "Odd <Chess> & \"friends\"".into();
    def.pieces[1].name = "Wazir<script>".into();
    def.pieces[1].letter = 'W';
    let v = Variant::compile(def).unwrap();
    let svg = render_svg(&Position::start(&v), &Diagram::default());
    let pieces = drawn(&svg);
    assert_eq!(pieces["d1"], ("white wazir<script>".into(), "token".into()));
    assert!(!svg.contains("<script"));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(
        doc.descendants()
            .any(|n| n.tag_name().name() == "text" && n.text() == Some("W"))
    );
}

#[test]
fn diagram_command_draws_fen_moves_and_game_file_plies() {
    let o = xpgn(&[
        "diagram",
        "--variant",
        "royal",
        "--moves",
        "e2e3 e7e6",
        "--coordinates",
        "--flip",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = String::from_utf8(o.stdout).unwrap();
    assert_eq!(drawn(&svg)["e6"].0, "black pawn");
    assert!(svg.contains(r#"<g class="last-move"><rect data-square="e7""#));

    let dir = Scratch::new("render", "diagram");
    let out = dir.join("d.svg");
    let game = "samples/courier-spiel/01-castling-both-sides-and-waiting-promotion.xpgn";
    let o = xpgn(&[
        "diagram",
        game,
        "--ply",
        "0",
        "--size",
        "400",
        "--highlight",
        "e4,d5",
        "--arrow",
        "g1-f3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_eq!(drawn(&svg).len(), 48);
    assert!(svg.contains(r#"width="400""#));

    let o = xpgn(&["diagram", game, "--ply", "9999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("plies"));
    let o = xpgn(&["diagram", "--highlight", "z9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--highlight `z9`"));
    let o = xpgn(&["diagram", "--arrow", "e2e4"]);
    assert_eq!(o.status.code(), Some(2));
    let o = xpgn(&["diagram", "--variant", "chess", "--moves", "e2e5"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn hands_are_drawn_beside_the_board_with_their_counts_and_check_counters_in_the_legend() {
    use xpgn::notation::position::read_position;
    use xpgn::render::{Diagram, render_svg};
    use xpgn::rules::Variant;
    let zh = Variant::by_name("crazyhouse").unwrap();
    let pos = read_position(
        zh,
        "r1bqk2r/ppp2ppp/3p4/3Pp3/3b4/3P4/PPP1BPPP/R1BQ1RK1[NNnp] b kq - 0 9",
    )
    .unwrap();
    let svg = render_svg(&pos, &Diagram::default());
    assert!(
        svg.contains(r#"data-piece="white knight" data-count="2""#),
        "{svg}"
    );
    assert!(svg.contains(r#"data-piece="black knight" data-count="1""#));
    assert!(svg.contains(r#"data-piece="black pawn" data-count="1""#));
    assert!(svg.contains(r#"<g class="hand" data-color="white" data-pieces="2">"#));
    // The pieces on the board keep their squares; those in hand have none.
    assert_eq!(svg.matches(r#"class="piece" data-square"#).count(), 28);
    let three = Variant::by_name("three-check").unwrap();
    let pos = read_position(
        three,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+3 0 2",
    )
    .unwrap();
    let svg = render_svg(&pos, &Diagram::default());
    assert!(svg.contains("White: 1 of 3 checks given"));
    assert!(!svg.contains(r#"class="hands""#));
}
