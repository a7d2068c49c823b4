//! The eight built-in variants, each a definition following RULES.md.

use super::{
    CastlingDef, CastlingSafety, CastlingSide, PawnRules, PieceDef, PromotionRule, Role,
    SpecialKingMove, StalemateOutcome, VariantDef,
};
use crate::rules::geometry::{BoardSize, Square};
use crate::rules::movement::{Movement, orthogonal, symmetric};
use crate::rules::piece::{Color, Piece, PieceKind};

/// Short names of the built-in variants, orthodox chess first.
pub const BUILTIN_NAMES: [&str; 8] = [
    "chess",
    "counsellor",
    "royal",
    "chaturanga",
    "courier-spiel",
    "chancellor",
    "chancellor-crosswise",
    "kings-leap",
];

/// The definition of a built-in variant, by short name.
pub fn builtin_def(name: &str) -> Option<VariantDef> {
    Some(match name {
        "chess" => chess(),
        "counsellor" => counsellor(),
        "royal" => royal(),
        "chaturanga" => chaturanga(),
        "courier-spiel" => courier_spiel(),
        "chancellor" => chancellor(
            "chancellor",
            "Paulowich's Chancellor Chess",
            &["chancellor chess"],
            "cnbrkbnq",
        ),
        "chancellor-crosswise" => chancellor(
            "chancellor-crosswise",
            "Chancellor Chess (crosswise)",
            &["chancellor chess crosswise", "crosswise chancellor chess"],
            "qnbkrbnc",
        ),
        "kings-leap" => kings_leap(),
        _ => return None,
    })
}

fn piece(name: &'static str, letter: char, movement: Movement) -> PieceDef {
    PieceDef {
        name,
        letter,
        movement,
        role: Role::Other,
        rule: None,
    }
}

impl PieceDef {
    /// The same piece, its movement defined by `rule`.
    fn ruled(self, rule: &'static str) -> PieceDef {
        PieceDef {
            rule: Some(rule),
            ..self
        }
    }
}

fn king() -> PieceDef {
    PieceDef {
        name: "King",
        letter: 'K',
        movement: Movement::king(),
        role: Role::King,
        rule: None,
    }
}

fn pawn() -> PieceDef {
    PieceDef {
        name: "Pawn",
        letter: 'P',
        movement: Movement::none(),
        role: Role::Pawn,
        rule: Some("R-0-4"),
    }
}

fn queen() -> PieceDef {
    piece("Queen", 'Q', Movement::rook().and(Movement::bishop()))
}
fn rook() -> PieceDef {
    piece("Rook", 'R', Movement::rook())
}
fn bishop() -> PieceDef {
    piece("Bishop", 'B', Movement::bishop())
}
fn knight() -> PieceDef {
    piece("Knight", 'N', Movement::knight())
}

fn kind(pieces: &[PieceDef], letter: char) -> PieceKind {
    let i = pieces
        .iter()
        .position(|p| p.letter == letter)
        .expect("setup letters are in the piece table");
    PieceKind(i as u8)
}

/// Both sides' setup: White's back rank (file a first) on rank 1 with pawns
/// on rank 2; Black's back rank (file a first, as seen from White) on the
/// last rank with pawns below it.
fn setup(pieces: &[PieceDef], size: BoardSize, white: &str, black: &str) -> Vec<(Square, Piece)> {
    let pawn = kind(pieces, 'P');
    let top = size.ranks - 1;
    let mut out = Vec::new();
    for (color, back, rank, pawn_rank) in [
        (Color::White, white, 0, 1),
        (Color::Black, black, top, top - 1),
    ] {
        for (f, letter) in back.chars().enumerate() {
            let kind = kind(pieces, letter.to_ascii_uppercase());
            out.push((Square::new(f as u8, rank), Piece { color, kind }));
        }
        for f in 0..size.files {
            out.push((Square::new(f, pawn_rank), Piece { color, kind: pawn }));
        }
    }
    out
}

fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    let file = b[0] - b'a';
    let rank: u8 = name[1..].parse().expect("builtin square names are valid");
    Square::new(file, rank - 1)
}

/// A castling given by White's squares, and Black's mirror image.
fn castling_pair(
    ranks: u8,
    side: CastlingSide,
    [king_from, king_to, partner_origin, partner_from, partner_to]: [&str; 5],
    safety: CastlingSafety,
    rule: &'static str,
) -> [CastlingDef; 2] {
    let white = CastlingDef {
        color: Color::White,
        side,
        king_from: sq(king_from),
        king_to: sq(king_to),
        partner_origin: sq(partner_origin),
        partner_from: sq(partner_from),
        partner_to: sq(partner_to),
        safety,
        rule,
    };
    let black = CastlingDef {
        color: Color::Black,
        king_from: white.king_from.flip_rank(ranks),
        king_to: white.king_to.flip_rank(ranks),
        partner_origin: white.partner_origin.flip_rank(ranks),
        partner_from: white.partner_from.flip_rank(ranks),
        partner_to: white.partner_to.flip_rank(ranks),
        ..white.clone()
    };
    [white, black]
}

fn orthodox_pawns(promotion: PromotionRule, rule: &'static str) -> PawnRules {
    PawnRules {
        double_step: true,
        en_passant: true,
        promotion,
        rule,
    }
}

fn chess() -> VariantDef {
    let pieces = vec![king(), queen(), rook(), bishop(), knight(), pawn()];
    let size = BoardSize::new(8, 8);
    let promo = ['Q', 'R', 'B', 'N'].map(|l| kind(&pieces, l)).to_vec();
    VariantDef {
        name: "chess",
        display_name: "Chess",
        aliases: &[
            "standard",
            "orthodox",
            "orthodox chess",
            "normal",
            "from position",
        ],
        size,
        setup: setup(&pieces, size, "RNBQKBNR", "rnbqkbnr"),
        pieces,
        pawns: orthodox_pawns(PromotionRule::Choice(promo), "R-0-4"),
        castling: [
            castling_pair(
                8,
                CastlingSide::Short,
                ["e1", "g1", "h1", "h1", "f1"],
                CastlingSafety::KingPath,
                "R-0-5",
            ),
            castling_pair(
                8,
                CastlingSide::Long,
                ["e1", "c1", "a1", "a1", "d1"],
                CastlingSafety::KingPath,
                "R-0-5",
            ),
        ]
        .concat(),
        special_king_move: None,
        stalemate: StalemateOutcome::Draw,
    }
}

fn counsellor() -> VariantDef {
    let pieces = vec![
        king(),
        queen(),
        rook(),
        bishop(),
        knight(),
        piece("Elephant", 'E', Movement::limited_bishop(2)).ruled("R-CO-1"),
        piece("Counsellor", 'C', Movement::king()).ruled("R-CO-2"),
        pawn(),
    ];
    let size = BoardSize::new(12, 8);
    let promo = ['C', 'B'].map(|l| kind(&pieces, l)).to_vec();
    VariantDef {
        name: "counsellor",
        display_name: "Counsellor Chess",
        aliases: &["councellor chess"],
        size,
        setup: setup(&pieces, size, "RNBECQKCEBNR", "rnbecqkcebnr"),
        pieces,
        pawns: orthodox_pawns(PromotionRule::Choice(promo), "R-CO-3"),
        castling: [
            castling_pair(
                8,
                CastlingSide::Short,
                ["h1", "j1", "l1", "l1", "i1"],
                CastlingSafety::KingPath,
                "R-CO-4a",
            ),
            castling_pair(
                8,
                CastlingSide::Short,
                ["g1", "i1", "l1", "k1", "j1"],
                CastlingSafety::KingPath,
                "R-CO-4b",
            ),
        ]
        .concat(),
        special_king_move: None,
        stalemate: StalemateOutcome::Draw,
    }
}

fn royal() -> VariantDef {
    let pieces = vec![
        king(),
        rook(),
        bishop(),
        knight(),
        piece("Elephant", 'E', Movement::limited_bishop(2)).ruled("R-RO-1"),
        piece("Firzan", 'F', Movement::ferz()).ruled("R-RO-1"),
        pawn(),
    ];
    let size = BoardSize::new(10, 8);
    let promo = vec![kind(&pieces, 'F')];
    VariantDef {
        name: "royal",
        display_name: "Royal Chess",
        aliases: &[],
        size,
        setup: setup(&pieces, size, "RNBEFKEBNR", "rnbefkebnr"),
        pieces,
        pawns: orthodox_pawns(PromotionRule::Choice(promo), "R-RO-2"),
        castling: [
            castling_pair(
                8,
                CastlingSide::Short,
                ["f1", "h1", "j1", "j1", "g1"],
                CastlingSafety::KingPath,
                "R-RO-3a",
            ),
            castling_pair(
                8,
                CastlingSide::Long,
                ["e1", "c1", "a1", "a1", "d1"],
                CastlingSafety::KingPath,
                "R-RO-3b",
            ),
            castling_pair(
                8,
                CastlingSide::Long,
                ["f1", "d1", "a1", "b1", "e1"],
                CastlingSafety::KingPath,
                "R-RO-3c",
            ),
        ]
        .concat(),
        special_king_move: None,
        stalemate: StalemateOutcome::StalematedLoses,
    }
}

fn chaturanga() -> VariantDef {
    let pieces = vec![
        king(),
        piece("Councelor", 'C', Movement::ferz()).ruled("R-CH-2"),
        piece("Chariot", 'R', Movement::rook()).ruled("R-CH-2"),
        knight(),
        piece("Elephant", 'E', Movement::alfil()).ruled("R-CH-2"),
        pawn().ruled("R-CH-3"),
    ];
    let size = BoardSize::new(8, 8);
    let councelor = kind(&pieces, 'C');
    VariantDef {
        name: "chaturanga",
        display_name: "Chaturanga",
        aliases: &[],
        size,
        setup: setup(&pieces, size, "RNECKENR", "rnekcenr"),
        pieces,
        pawns: PawnRules {
            double_step: false,
            en_passant: false,
            promotion: PromotionRule::SetupSquare {
                on_king_square: councelor,
            },
            rule: "R-CH-4",
        },
        castling: Vec::new(),
        special_king_move: Some(SpecialKingMove {
            name: "the king's knight move",
            offsets: symmetric(1, 2),
            lost_on_any_king_move: false,
            may_capture: true,
            forbidden_in_check: false,
            leapt_square_guarded: false,
            attacks_while_unused: true,
            rule: "R-CH-5",
        }),
        stalemate: StalemateOutcome::StalematedWins,
    }
}

fn courier_spiel() -> VariantDef {
    let pieces = vec![
        king(),
        queen(),
        rook(),
        knight(),
        piece("Bishop", 'B', Movement::ferz().and(Movement::alfil())).ruled("R-CS-1"),
        piece("Courier", 'C', Movement::bishop()).ruled("R-CS-1"),
        piece("Councillor", 'M', Movement::knight().and(Movement::king())).ruled("R-CS-1"),
        piece("Fool", 'F', Movement::king()).ruled("R-CS-1"),
        pawn(),
    ];
    let size = BoardSize::new(12, 8);
    VariantDef {
        name: "courier-spiel",
        display_name: "Courier-Spiel",
        aliases: &["courier spiel"],
        size,
        setup: setup(&pieces, size, "RNBCMKQFCBNR", "rnbcmkqfcbnr"),
        pieces,
        pawns: orthodox_pawns(PromotionRule::Waiting { turns: 2 }, "R-CS-3"),
        castling: [
            castling_pair(
                8,
                CastlingSide::Short,
                ["f1", "j1", "l1", "l1", "i1"],
                CastlingSafety::PartnerToKing,
                "R-CS-2",
            ),
            castling_pair(
                8,
                CastlingSide::Long,
                ["f1", "c1", "a1", "a1", "d1"],
                CastlingSafety::PartnerToKing,
                "R-CS-2",
            ),
        ]
        .concat(),
        special_king_move: None,
        stalemate: StalemateOutcome::Draw,
    }
}

fn chancellor_pieces() -> Vec<PieceDef> {
    vec![
        king(),
        queen(),
        rook(),
        bishop(),
        knight(),
        piece("Chancellor", 'C', Movement::rook().and(Movement::knight())),
        pawn(),
    ]
}

fn chancellor(
    name: &'static str,
    display_name: &'static str,
    aliases: &'static [&'static str],
    black: &str,
) -> VariantDef {
    let pieces = chancellor_pieces();
    let size = BoardSize::new(8, 8);
    let promo = ['Q', 'C', 'R', 'B', 'N'].map(|l| kind(&pieces, l)).to_vec();
    let castling = if black == "qnbkrbnc" {
        // R-PX-1: Black's king starts on d8, so Black's castlings are not
        // White's mirrored.
        let [w_short, _] = castling_pair(
            8,
            CastlingSide::Short,
            ["e1", "g1", "h1", "h1", "f1"],
            CastlingSafety::KingPath,
            "R-PX-1",
        );
        let [w_long, _] = castling_pair(
            8,
            CastlingSide::Long,
            ["e1", "c1", "a1", "a1", "d1"],
            CastlingSafety::KingPath,
            "R-PX-1",
        );
        let black_castling = |side, k_to: &str, p: &str, p_to: &str| CastlingDef {
            color: Color::Black,
            side,
            king_from: sq("d8"),
            king_to: sq(k_to),
            partner_origin: sq(p),
            partner_from: sq(p),
            partner_to: sq(p_to),
            safety: CastlingSafety::KingPath,
            rule: "R-PX-1",
        };
        vec![
            w_short,
            w_long,
            black_castling(CastlingSide::Short, "f8", "h8", "e8"),
            black_castling(CastlingSide::Long, "b8", "a8", "c8"),
        ]
    } else {
        [
            castling_pair(
                8,
                CastlingSide::Short,
                ["e1", "g1", "h1", "h1", "f1"],
                CastlingSafety::KingPath,
                "R-PC-2",
            ),
            castling_pair(
                8,
                CastlingSide::Long,
                ["e1", "c1", "a1", "a1", "d1"],
                CastlingSafety::KingPath,
                "R-PC-2",
            ),
        ]
        .concat()
    };
    VariantDef {
        name,
        display_name,
        aliases,
        size,
        setup: setup(&pieces, size, "CNBRKBNQ", black),
        pieces,
        pawns: orthodox_pawns(PromotionRule::Choice(promo), "R-PC-1"),
        castling,
        special_king_move: None,
        stalemate: StalemateOutcome::Draw,
    }
}

fn kings_leap() -> VariantDef {
    let pieces = chancellor_pieces();
    let size = BoardSize::new(8, 8);
    let promo = ['Q', 'C', 'R', 'B', 'N'].map(|l| kind(&pieces, l)).to_vec();
    let leaps = orthogonal().iter().map(|&(f, r)| (2 * f, 2 * r)).collect();
    VariantDef {
        name: "kings-leap",
        display_name: "King's Leap Chess",
        aliases: &["king's leap"],
        size,
        setup: setup(&pieces, size, "CNBRKBNQ", "cnbrkbnq"),
        pieces,
        pawns: orthodox_pawns(PromotionRule::Choice(promo), "R-PC-1"),
        castling: Vec::new(),
        special_king_move: Some(SpecialKingMove {
            name: "the king's leap",
            offsets: leaps,
            lost_on_any_king_move: true,
            may_capture: false,
            forbidden_in_check: true,
            leapt_square_guarded: true,
            attacks_while_unused: false,
            rule: "R-KL-1",
        }),
        stalemate: StalemateOutcome::Draw,
    }
}
