//! Fairy-Stockfish `variants.ini` sections (docs/variants.md): what the
//! reader plays, the sections it refuses with file, line and option, and
//! the promotion limit it brought into the definition format.

use xpgn::notation::coord::write_coord;
use xpgn::notation::position::read_position;
use xpgn::rules::{Position, Registry, SourceFormat, Variant, load_ini, load_toml, perft};

fn refusal(text: &str) -> String {
    load_ini("my.ini", text).unwrap_err().to_string()
}

fn load(text: &str) -> Registry {
    let mut reg = Registry::builtin();
    reg.load("my.ini", text).unwrap();
    reg
}

fn moves(pos: &Position) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .map(|m| write_coord(pos, m))
        .collect()
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn a_section_inheriting_chess_plays_xpgns_chess() {
    let reg = load("[plain:chess]\n");
    let plain = reg.lookup("plain").unwrap();
    let chess = Variant::chess();
    for (a, b) in plain.kinds().zip(chess.kinds()) {
        assert_eq!(plain.piece_def(a).letter, chess.piece_def(b).letter);
        assert_eq!(plain.piece_def(a).movement, chess.piece_def(b).movement);
    }
    assert_eq!(perft(&Position::start(plain), 4), 197_281);
    let kiwi = read_position(plain, KIWIPETE).unwrap();
    assert_eq!(perft(&kiwi, 3), 97_862);
    assert_eq!(
        xpgn::notation::position::write_position(&kiwi),
        xpgn::notation::position::write_position(&read_position(chess, KIWIPETE).unwrap())
    );
}

#[test]
fn sections_inherit_from_earlier_sections_and_keep_their_chain_as_source() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/variants/fairy.ini"
    ))
    .unwrap();
    let defs = load_ini("fairy.ini", &text).unwrap();
    let names: Vec<&str> = defs.iter().map(|d| d.name).collect();
    assert_eq!(
        names,
        [
            "capablanca-ini",
            "gothic-ini",
            "janus-ini",
            "embassy-ini",
            "grand-ini",
            "shatranj-ini",
            "makruk-ini",
            "courier-ini"
        ]
    );
    let gothic = &defs[1];
    let source = gothic.source.unwrap();
    assert!(source.starts_with("[capablanca-ini:chess]\n"), "{source}");
    assert!(source.contains("[gothic-ini:capablanca-ini]\n"));
    assert!(!source.contains("[janus-ini"));
    assert_eq!(gothic.source_format, SourceFormat::Ini);
    // The chain alone loads again (the database stores it so).
    let again = load_ini("stored.ini", source).unwrap();
    assert_eq!(again[1].name, "gothic-ini");
}

#[test]
fn custom_pieces_read_fairy_stockfish_betza() {
    // An archbishop as a custom piece plays as the predefined one.
    let reg = load(
        "[capa-custom:chess]\nmaxFile = 10\ncustomPiece1 = a:BN\nchancellor = c\n\
         castlingKingsideFile = i\npromotionPieceTypes = acqrbn\n\
         startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n",
    );
    assert_eq!(
        perft(&Position::start(reg.lookup("capa-custom").unwrap()), 3),
        25_228
    );
    // Fairy-Stockfish's `fN` is the shogi knight's two narrow forward leaps.
    let reg = load("[sk:chess]\ncustomPiece1 = s:fN\nstartFen = 4k3/8/8/8/3S4/8/8/4K3 w - - 0 1\n");
    let pos = Position::start(reg.lookup("sk").unwrap());
    let mut from_d4: Vec<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("d4"))
        .collect();
    from_d4.sort();
    assert_eq!(from_d4, ["d4c6", "d4e6"]);
}

#[test]
fn promotion_only_to_captured_pieces() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/variants/fairy.ini"
    ))
    .unwrap();
    let mut reg = Registry::builtin();
    reg.load("fairy.ini", &text).unwrap();
    let grand = reg.lookup("grand-ini").unwrap();
    // White keeps its queen and one rook: the pawn on b9 becomes anything
    // but a queen; on d7 it may also stay a pawn on d8.
    let pos = read_position(grand, "r4k4/1P6p1/10/3P6/10/5q4/10/2p7/1p8/Q3K4R w - - 0 1").unwrap();
    let ms = moves(&pos);
    for m in [
        "b9b10r", "b9b10b", "b9b10n", "b9b10a", "b9b10c", "d7d8", "d7d8r",
    ] {
        assert!(ms.contains(&m.to_string()), "{m} in {ms:?}");
    }
    assert!(!ms.iter().any(|m| m.ends_with('q')), "{ms:?}");
    assert!(!ms.contains(&"b9b10".to_string()));
}

#[test]
fn toml_definitions_take_a_promotion_limit() {
    let toml = xpgn::rules::builtin_source("chess")
        .unwrap()
        .replace("name = \"chess\"", "name = \"limited\"")
        .replace("aliases = [\"standard\", \"orthodox\", \"orthodox chess\", \"normal\", \"from position\"]\n", "")
        .replace("display-name = \"Chess\"", "display-name = \"Limited\"")
        .replace("rule = \"R-0-4\"\n\n[[castling]]", "promotion-limit = { Q = 1 }\nrule = \"R-0-4\"\n\n[[castling]]");
    let def = load_toml("limited.toml", &toml).unwrap();
    let v = Variant::compile(def).unwrap();
    let pos = read_position(v, "7k/1P6/8/8/8/8/8/1Q2K3 w - - 0 1").unwrap();
    let ms = moves(&pos);
    assert!(ms.contains(&"b7b8r".to_string()) && !ms.contains(&"b7b8q".to_string()));
    let bad = toml.replace("{ Q = 1 }", "{ K = 1 }");
    assert_eq!(
        load_toml("limited.toml", &bad).unwrap_err().to_string(),
        "limited.toml:44: pawns.promotion-limit: `K` is not the letter of a promotion choice"
    );
}

#[test]
fn sections_xpgn_cannot_play_are_refused_with_file_line_and_option() {
    let cases: &[(&str, &str)] = &[
        (
            "# drops\n[zh:chess]\npieceDrops = true\n",
            "my.ini:3: [zh] pieceDrops: xpgn cannot play `pieceDrops = true`; the section is refused rather than approximated",
        ),
        (
            "[x:chess]\nfoo = 1\n",
            "my.ini:2: [x] foo: not an option xpgn reads (docs/variants.md lists them); the section is refused rather than approximated",
        ),
        (
            "[x:chess]\ncannon = c\n",
            "my.ini:2: [x] cannon: Fairy-Stockfish's cannon hops or is lame; xpgn cannot play it",
        ),
        (
            "[x:chess]\ncustomPiece1 = z:pR\n",
            "my.ini:2: [x] customPiece1: Betza `pR`, column 1: `p` (hopper, as the cannon) is not supported",
        ),
        (
            "[x:capablanca]\n",
            "my.ini:1: [x:capablanca]: no parent `capablanca`: xpgn knows Fairy-Stockfish's built-in `chess` as a parent, and sections earlier in this file",
        ),
        (
            "[x:y]\n[y:chess]\n",
            "my.ini:1: [x:y]: the parent `y` is defined later in the file; Fairy-Stockfish needs it first",
        ),
        (
            "[x:chess]\nchecking = false\n",
            "my.ini:2: [x] checking: xpgn cannot play `checking = false`; the section is refused rather than approximated",
        ),
        (
            "[x:chess]\nextinctionValue = loss\nextinctionPieceTypes = q\n",
            "my.ini:2: [x] extinctionValue: xpgn plays extinction only as the bare-king rule: extinctionValue = loss, extinctionPieceTypes = *, extinctionPieceCount = 1, extinctionOpponentPieceCount = 2 (extinctionClaim = true)",
        ),
        (
            "[x:chess]\nmaxRank = 10\nstartFen = 4k3/8/8/8/8/8/8/8/8/4K3 w - - 0 1\n",
            "my.ini:2: [x] maxRank: the board has 10 ranks and the promotion zone is not given; Fairy-Stockfish's versions differ on its default there (rank 8 and beyond, or rank 8 alone): give promotionRank or promotionRegionWhite and promotionRegionBlack",
        ),
        (
            "[x:chess]\narchbishop = n\n",
            "my.ini:2: [x] archbishop: the letter n is used by both knight and archbishop",
        ),
        (
            "[x:chess]\nmandatoryPawnPromotion = false\n",
            "my.ini:2: [x] mandatoryPawnPromotion: without immobilityIllegal = true a pawn may stay a pawn on the last rank, which xpgn does not play",
        ),
        (
            "[x:chess]\npromotionRegionWhite = *7 *8\npromotionRegionBlack = *1\n",
            "my.ini:2: [x] promotionRegionWhite: xpgn's promotion zone is the same ranks for both sides, seen from each side, on the board",
        ),
        (
            "[x:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1\n",
            "my.ini:2: [x] startFen: castling rights `KQ`: xpgn's start positions give both sides both castlings (`KQkq`) or none (`-`)",
        ),
        (
            "[x]\nking = k\nqueen = q\n",
            "my.ini:1: [x] pawn: xpgn needs a pawn type (pawn = p); the section defines none",
        ),
        (
            "[x:chess]\ncustomPiece1 = z:flN\n",
            "my.ini:2: [x] customPiece1: Betza `flN`: `fl` before N means other moves to Fairy-Stockfish than to xpgn; write the moves with single letters (`ff`, `ss`...)",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(&refusal(text), want, "{text}");
    }
    // A name xpgn already knows is refused by the registry, naming the line.
    let mut reg = Registry::builtin();
    let err = reg
        .load("my.ini", "# one\n[royal:chess]\n")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "my.ini:2: name: the name `royal` is already taken by the variant `royal`"
    );
}

#[test]
fn a_blocked_one_way_rider_of_black_names_the_square_in_its_way() {
    // A lance (forward rook) for Black rides down the board.
    let reg = load(
        "[lances:chess]\ncustomPiece1 = l:fR\npromotionPieceTypes = ql\n\
         startFen = l3k3/8/8/p7/8/8/8/L3K3 w - - 0 1\n",
    );
    let v = reg.lookup("lances").unwrap();
    let pos = read_position(v, "l3k3/8/8/p7/8/8/8/L3K3 b - - 0 1").unwrap();
    let sq = |s: &str| {
        xpgn::rules::Square::new(s.as_bytes()[0] - b'a', s[1..].parse::<u8>().unwrap() - 1)
    };
    match pos.explain_illegal(sq("a8"), sq("a3")) {
        xpgn::rules::Illegality::CannotReach { blocked_by, .. } => {
            assert_eq!(blocked_by, Some(sq("a5")));
        }
        other => panic!("{other:?}"),
    }
}
