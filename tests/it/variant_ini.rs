//! Fairy-Stockfish `variants.ini` sections (docs/variants.md): what the
//! reader plays, the sections it refuses with file, line and option, and
//! the promotion limit it brought into the definition format.

use xpgn::notation::coord::write_coord;
use xpgn::notation::position::read_position;
use xpgn::rules::{
    Position, Registry, SourceFormat, Variant, load_ini, load_toml, perft, read_ini,
};

/// The first section's refusal.
fn refusal(text: &str) -> String {
    let read = read_ini("my.ini", text).unwrap();
    read.refused
        .first()
        .unwrap_or_else(|| panic!("{text} is refused"))
        .to_string()
}

fn load(text: &str) -> Registry {
    let mut reg = Registry::builtin();
    let loaded = reg.load("my.ini", text).unwrap();
    assert!(loaded.refused.is_empty(), "{:?}", loaded.refused);
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
    assert_eq!(perft(&Position::start(&plain), 4), 197_281);
    let kiwi = read_position(&plain, KIWIPETE).unwrap();
    assert_eq!(perft(&kiwi, 3), 97_862);
    assert_eq!(
        xpgn::notation::position::write_position(&kiwi),
        xpgn::notation::position::write_position(&read_position(&chess, KIWIPETE).unwrap())
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
    let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
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
            "courier-ini",
            "torpedo-ini",
            "mini-ini",
            "kq-ini",
            "3check-crazyhouse",
            "coffeehouse",
            "crossing",
            "epicatomic",
            "queenless",
            "sittuyin-rooks-anywhere",
            "placement-two-ranks",
            "atomic-giveaway",
            "antihouse",
            "anti-losalamos"
        ]
    );
    // Sections on a built-in parent of the variants played online keep
    // its rules and add theirs.
    let coffee = &defs[12];
    assert!(coffee.must_capture && coffee.hand.as_ref().is_some_and(|h| h.captures_to_hand));
    assert_eq!(defs[11].check_limit, Some(3));
    let gothic = &defs[1];
    let source = gothic.source.clone().unwrap();
    assert!(source.starts_with("[capablanca-ini:chess]\n"), "{source}");
    assert!(source.contains("[gothic-ini:capablanca-ini]\n"));
    assert!(!source.contains("[janus-ini"));
    assert_eq!(gothic.source_format, SourceFormat::Ini);
    // The chain alone loads again (the database stores it so).
    let again = load_ini("stored.ini", &source).unwrap();
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
    let pos = read_position(
        &grand,
        "r4k4/1P6p1/10/3P6/10/5q4/10/2p7/1p8/Q3K4R w - - 0 1",
    )
    .unwrap();
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
        .replace("aliases = [\"standard\", \"orthodox\", \"orthodox chess\", \"normal\", \"regular\", \"from position\"]\n", "")
        .replace("display-name = \"Chess\"", "display-name = \"Limited\"")
        .replace("rule = \"R-0-4\"\n\n[[castling]]", "promotion-limit = { Q = 1 }\nrule = \"R-0-4\"\n\n[[castling]]");
    let def = load_toml("limited.toml", &toml).unwrap();
    let v = Variant::compile(def).unwrap();
    let pos = read_position(&v, "7k/1P6/8/8/8/8/8/1Q2K3 w - - 0 1").unwrap();
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
            "# drops\n[zh:chess]\ntwoBoards = true\n",
            "my.ini:3: [zh] twoBoards: xpgn cannot play `twoBoards = true`; the section is refused rather than approximated",
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
            "[x:bughouse]\n",
            "my.ini:1: [x:bughouse]: no parent `bughouse`: xpgn knows as parents sections earlier in this file and Fairy-Stockfish's built-in variants that it ships (docs/variants.md lists them)",
        ),
        (
            "[x:y]\n[y:chess]\n",
            "my.ini:1: [x:y]: the parent `y` is defined later in the file; Fairy-Stockfish needs it first",
        ),
        (
            "[x:chess]\nblastOnCapture = true\nblastImmuneTypes = q\n",
            "my.ini:3: [x] blastImmuneTypes: xpgn plays no piece immune to explosions at the square of capture; the section is refused rather than approximated",
        ),
        (
            "[x:chess]\nextinctionValue = loss\nextinctionPieceTypes = q\nextinctionPieceCount = 1\n",
            "my.ini:2: [x] extinctionValue: xpgn plays extinction as the bare-king rule (extinctionValue = loss, extinctionPieceTypes = *, extinctionPieceCount = 1, extinctionOpponentPieceCount = 2, extinctionClaim = true) or as a side with none of extinctionPieceTypes left winning or losing (extinctionValue = win or loss, no piece counts, no claim)",
        ),
        (
            "[x:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1\ngating = true\n",
            "my.ini:3: [x] gating: xpgn gates hand pieces as Seirawan does: gating and seirawanGating are set together",
        ),
        (
            "[x:crazyhouse]\ndropRegionWhite = *1 *2\ndropRegionBlack = *8\n",
            "my.ini:2: [x] dropRegionWhite: xpgn's drop regions are the same ranks for both sides, seen from each side: give dropRegionWhite and dropRegionBlack mirrored",
        ),
        (
            "[x:crazyhouse]\ndropRegionWhite = a1 b1\ndropRegionBlack = a8 b8\n",
            "my.ini:2: [x] dropRegionWhite: `a1` is not a whole rank (`*1`); xpgn's drop regions are whole ranks",
        ),
        (
            "[x:chess]\nsittuyinPromotion = true\n",
            "my.ini:2: [x] sittuyinPromotion: the in-place promotion needs promotionRegionWhite and promotionRegionBlack as squares of the board (`a8 b7`)",
        ),
        (
            "[x:chess]\nmaxRank = 10\nstartFen = 4k3/8/8/8/8/8/8/8/8/4K3 w - - 0 1\n",
            "my.ini:2: [x] maxRank: the board has 10 ranks and the promotion zone is not given; Fairy-Stockfish's default is rank 8 alone for White and rank 1 for Black, which xpgn does not play there: give promotionRank or promotionRegionWhite and promotionRegionBlack",
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
            "[x:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1\n",
            "my.ini:2: [x] startFen: castling rights `Kq`: xpgn's start positions give each side both castlings or none (`KQkq`, `KQ`, `kq`, `-`)",
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
    let loaded = reg.load("my.ini", "# one\n[royal:chess]\n").unwrap();
    assert!(loaded.names.is_empty());
    assert_eq!(
        loaded.refused[0].to_string(),
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
    let pos = read_position(&v, "l3k3/8/8/p7/8/8/8/L3K3 b - - 0 1").unwrap();
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

/// The legal moves of `variant` from `fen`, in coordinates, sorted.
fn sorted_moves(reg: &Registry, variant: &str, fen: &str) -> Vec<String> {
    let pos = read_position(reg.lookup(variant).unwrap(), fen).unwrap();
    let mut ms = moves(&pos);
    ms.sort();
    ms
}

#[test]
fn one_refused_section_leaves_the_others_loaded_and_is_reported() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/variants/fairy.ini"
    ))
    .unwrap()
    .replace(
        "[janus-ini:chess]\n",
        "[janus-ini:chess]\ntwoBoards = true\n",
    );
    // The file's first eight sections.
    let text = &text[..text.find("[torpedo-ini").unwrap()];
    assert_eq!(text.matches("\n[").count(), 8);
    let line = 1 + text.lines().position(|l| l == "twoBoards = true").unwrap();
    let read = read_ini("eight.ini", text).unwrap();
    assert_eq!(read.variants.len(), 7);
    assert!(read.variants.iter().all(|d| d.name != "janus-ini"));
    assert_eq!(
        read.refused
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [format!(
            "eight.ini:{line}: [janus-ini] twoBoards: xpgn cannot play `twoBoards = true`; the section is refused rather than approximated"
        )]
    );
    let mut reg = Registry::builtin();
    let loaded = reg.load("eight.ini", text).unwrap();
    assert_eq!(loaded.names.len(), 7);
    assert_eq!(loaded.refused, read.refused);
    assert!(reg.lookup("embassy-ini").is_some() && reg.lookup("janus-ini").is_none());
}

#[test]
fn a_refusal_is_inherited_until_a_section_sets_the_option_again() {
    let text = "[drops:chess]\ntwoBoards = true\n[undone:drops]\ntwoBoards = false\n\
                [kept:drops]\nmaxFile = 8\n";
    let read = read_ini("my.ini", text).unwrap();
    let names: Vec<&str> = read.variants.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["undone"]);
    let refused: Vec<String> = read.refused.iter().map(ToString::to_string).collect();
    assert_eq!(
        refused,
        [
            "my.ini:2: [drops] twoBoards: xpgn cannot play `twoBoards = true`; the section is refused rather than approximated",
            "my.ini:2: [kept] twoBoards: xpgn cannot play `twoBoards = true`; the section is refused rather than approximated (set in [drops])",
        ]
    );
}

#[test]
fn a_key_given_twice_keeps_its_last_value() {
    let reg = load(
        "[twice:chess]\ncastling = true\npromotionPieceTypes = q\ncastling = false\n\
         promotionPieceTypes = qn\nstartFen = 4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1\n",
    );
    let ms = moves(&Position::start(reg.lookup("twice").unwrap()));
    assert!(ms.contains(&"b7b8n".into()) && ms.contains(&"b7b8q".into()));
    assert!(!ms.contains(&"b7b8r".into()), "{ms:?}");
    assert!(!ms.contains(&"e1g1".into()), "{ms:?}");
}

#[test]
fn a_letter_given_to_a_new_type_takes_it_from_the_old_one() {
    // The archbishop takes `n` from the knight, which leaves the game and
    // its promotions.
    let reg = load("[nightbishop:chess]\narchbishop = n\n");
    let v = reg.lookup("nightbishop").unwrap();
    let n = v.kind_by_letter('N').unwrap();
    assert_eq!(v.piece_def(n).name, "Archbishop");
    assert!(v.kinds().all(|k| v.piece_def(k).name != "Knight"));
    let ms = sorted_moves(&reg, "nightbishop", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let promotions: Vec<&String> = ms.iter().filter(|m| m.starts_with("b7b8")).collect();
    assert_eq!(promotions, ["b7b8b", "b7b8q", "b7b8r"]);
}

#[test]
fn a_re_lettered_type_stays_a_promotion_type() {
    let reg = load(
        "[capa:chess]\nmaxFile = 10\narchbishop = a\npromotionPieceTypes = aqrbn\n\
         castling = false\nstartFen = 4k5/1P8/10/10/10/10/10/4K5 w - - 0 1\n\
         [capa-j:capa]\narchbishop = j\n",
    );
    let ms = sorted_moves(&reg, "capa-j", "4k5/1P8/10/10/10/10/10/4K5 w - - 0 1");
    assert!(ms.contains(&"b7b8j".into()), "{ms:?}");
}

#[test]
fn fairy_stockfish_start_positions_and_draw_rules_are_read() {
    // An immobile piece, a start position without an en passant field,
    // White's castlings only, and Makruk's counting and material counting
    // (draw and adjudication rules: recorded, not applied).
    let reg = load(
        "[still:chess]\nimmobile = w\ncountingRule = makruk\nmaterialCounting = janggi\n\
         startFen = r3k2r/8/8/8/3W4/8/8/R3K2R w KQ 0 1\n",
    );
    let v = reg.lookup("still").unwrap();
    let start = Position::start(&v);
    let ms = moves(&start);
    assert!(!ms.iter().any(|m| m.starts_with("d4")), "{ms:?}");
    assert!(ms.contains(&"e1g1".into()) && ms.contains(&"e1c1".into()));
    let mut after = start.clone();
    let a3 = after
        .legal_moves()
        .into_iter()
        .find(|m| write_coord(&start, m) == "a1a3")
        .unwrap();
    after.play_unchecked(&a3);
    let ms = moves(&after);
    assert!(
        !ms.contains(&"e8g8".into()) && !ms.contains(&"e8c8".into()),
        "{ms:?}"
    );
}

#[test]
fn chess960_en_passant_region_and_castling_types_play_with_their_meaning() {
    let reg = load(
        "[my-frc:chess]\nchess960 = true\n\
         [no-ep:chess]\nenPassantRegion = -\n\
         [all-ep:chess]\nenPassantRegion = *3 *6\n\
         [two-types:chess]\ncastlingRookPieces = rq\n",
    );
    let castled = sorted_moves(&reg, "my-frc", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(castled.contains(&"e1h1".into()) && castled.contains(&"e1a1".into()));
    let fen = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1";
    let no_ep = reg.lookup("no-ep").unwrap();
    assert!(!no_ep.def().pawns.en_passant);
    assert!(sorted_moves(&reg, "all-ep", fen).contains(&"d4e3".into()));
    let two = sorted_moves(&reg, "two-types", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(two.contains(&"e1g1".into()) && two.contains(&"e1c1".into()));
    assert_eq!(
        refusal(
            "[both:chess]\ncastlingRookPieces = rq\nstartFen = q3k2r/8/8/8/8/8/8/Q3K2R w KQkq - 0 1\n"
        ),
        "my.ini:2: [both] castlingRookPieces: xpgn castles with one type of piece; in the start position the outermost pieces of these types are of several"
    );
    assert_eq!(
        refusal("[part:chess]\nenPassantRegion = *3\n"),
        "my.ini:2: [part] enPassantRegion: xpgn plays en passant after every double step or after none; the region holds the passed squares of some only"
    );
}

#[test]
fn double_steps_follow_fairy_stockfishs_current_defaults() {
    // pyffish 0.0.90: on a board of 10 ranks White double-steps from rank
    // 2 and Black from rank 7 (counted from White's side), not from its
    // rank 9; `doubleStepRank = 3` gives ranks 2 and 3.
    let reg = load(
        "[tall:chess]\nmaxRank = 10\npromotionRank = 10\n\
         startFen = 4k3/pppppppp/8/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\n\
         [ds3:chess]\ndoubleStepRank = 3\n",
    );
    let white = sorted_moves(
        &reg,
        "tall",
        "4k3/pppppppp/8/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    );
    assert!(
        white.contains(&"a2a4".into()) && white.len() == 18,
        "{white:?}"
    );
    let black = sorted_moves(
        &reg,
        "tall",
        "4k3/pppppppp/8/8/8/8/8/8/PPPPPPPP/4K3 b - - 0 1",
    );
    assert_eq!(black.len(), 10, "{black:?}");
    let black7 = sorted_moves(&reg, "tall", "4k3/8/8/p7/8/8/8/8/8/4K3 b - - 0 1");
    assert!(black7.contains(&"a7a5".into()), "{black7:?}");
    let third = sorted_moves(&reg, "ds3", "4k3/8/8/8/8/P7/8/4K3 w - - 0 1");
    assert!(third.contains(&"a3a5".into()), "{third:?}");
}

#[test]
fn files_and_chains_beyond_the_limits_are_refused_without_exhausting_memory() {
    // A chain of sections each inheriting the one before: past the deepest
    // inheritance xpgn follows, each is refused.
    let mut chain = String::from("[s0:chess]\n");
    for i in 1..40 {
        chain.push_str(&format!("[s{i}:s{}]\nmaxFile = 8\n", i - 1));
    }
    let read = read_ini("chain.ini", &chain).unwrap();
    assert_eq!(read.variants.len(), 33);
    assert_eq!(read.refused.len(), 7);
    assert_eq!(
        read.refused[0].to_string(),
        "chain.ini:66: [s33:s32]: inherits through more than 32 sections, the most xpgn follows"
    );
    assert_eq!(
        read.refused[1].to_string(),
        "chain.ini:68: [s34:s33]: the parent `s33` could not be read, so neither can this section"
    );
    // 20,000 sections: refused as a whole, at once.
    let mut many = String::from("[s0:chess]\n");
    for i in 1..20_000 {
        many.push_str(&format!("[s{i}:s{}]\n", i - 1));
    }
    let e = read_ini("many.ini", &many).unwrap_err();
    assert_eq!(
        e.to_string(),
        "many.ini:0: file: the file is larger than 262144 bytes, the most a definition file may have"
    );
    let mut sections = String::new();
    for i in 0..600 {
        sections.push_str(&format!("[t{i}:chess]\n"));
    }
    assert_eq!(
        read_ini("wide.ini", &sections).unwrap_err().to_string(),
        "wide.ini:513: file: more than 512 sections, the most a file may have"
    );
}

/// Fairy-Stockfish's built-in variants that xpgn ships are parents, by the
/// names Fairy-Stockfish gives them, as in its loader: `chancellor` is its
/// 9x9 game, not xpgn's `chancellor`; a section of the file named as a
/// built-in does not replace it as a parent (Fairy-Stockfish keeps the
/// built-in); the child's own options come after the parent's.
#[test]
fn sections_inherit_from_fairy_stockfishs_builtin_variants() {
    let text = "\
# Gemini chess: Janus chess with an archbishop called a, on 10x8.
[gemini:janus]
archbishop = a
startFen = rnbaqkabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBAQKABNR w KQkq - 0 1
promotionPieceTypes = aqrbn

# Not what Fairy-Stockfish's janus is: xpgn, as Fairy-Stockfish, keeps the
# built-in as the parent (and refuses this section's name).
[janus:chess]
maxFile = 10
startFen = rnbqkbnrrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRRR w - - 0 1
castling = false

[plain-janus:janus]

[small-chancellor:chancellor]
startFen = rnbqkcnbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKCNBR w - - 0 1

[micro-gardner:gardner]
maxFile = d
startFen = rbnk/p3/4/3P/RBNK w - - 0 1

[tiny-wok:ai-wok]
";
    let mut reg = Registry::builtin();
    let loaded = reg.load("parents.ini", text).unwrap();
    assert_eq!(
        loaded.names,
        [
            "gemini",
            "plain-janus",
            "small-chancellor",
            "micro-gardner",
            "tiny-wok"
        ]
    );
    assert_eq!(loaded.refused.len(), 1, "{:?}", loaded.refused);
    assert_eq!(
        loaded.refused[0].to_string(),
        "parents.ini:9: name: the name `janus` is already taken by the variant `janus`"
    );
    // Counts of Fairy-Stockfish loading the same sections.
    let janus = reg.lookup("janus").unwrap();
    let plain = reg.lookup("plain-janus").unwrap();
    assert!(janus.is_builtin());
    assert_eq!(perft(&Position::start(&plain), 3), 24_747);
    assert_eq!(perft(&Position::start(&janus), 3), 24_747);
    let gemini = reg.lookup("gemini").unwrap();
    assert_eq!(gemini.size().files, 10);
    assert_eq!(perft(&Position::start(&gemini), 3), 25_304);
    // The 9x9 chancellor of Fairy-Stockfish, without castling.
    let small = reg.lookup("small-chancellor").unwrap();
    assert_eq!((small.size().files, small.size().ranks), (9, 9));
    assert_eq!(perft(&Position::start(&small), 3), 15_896);
    let micro = reg.lookup("micro-gardner").unwrap();
    assert_eq!(perft(&Position::start(&micro), 4), 5_347);
    let wok = reg.lookup("tiny-wok").unwrap();
    assert_eq!(perft(&Position::start(&wok), 3), 18_102);
    // The definition text keeps the built-in parent's section, so that a
    // database can load it again without it.
    let source = gemini.def().source.clone().unwrap();
    assert!(source.starts_with("[janus:chess]\n"), "{source}");
    assert!(source.contains("[gemini:janus]\n"), "{source}");
    let again = load_ini("stored.ini", &source).unwrap();
    assert_eq!(again.last().unwrap().name, "gemini");
    // A section's faults are reported on its own lines, not the parent's.
    let read = read_ini("bad.ini", "\n[x:makruk]\npromotionRank = 9\n").unwrap();
    assert_eq!(
        read.refused[0].to_string(),
        "bad.ini:3: [x] promotionRank: the promotion zone does not reach the last rank (8); a pawn there could never move, which xpgn does not play"
    );
}
