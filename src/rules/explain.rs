//! Why a from-to move is not legal, in terms of the rules (R-0-1, R-0-5,
//! R-CS-3, castling stages), for error messages.

use super::castling::Stage;
use super::geometry::Square;
use super::movement::Atom;
use super::moves::Move;
use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::variant::CastlingSide;

/// The reason a move from one square to another is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegality {
    /// Nothing stands on the from-square.
    NoPiece(Square),
    /// The piece belongs to the side not to move.
    NotYourPiece {
        /// Its square.
        square: Square,
        /// Side to move.
        turn: Color,
    },
    /// A waiting pawn cannot move (R-CS-3).
    WaitingPawnMoves(Square),
    /// A waiting pawn cannot be captured (R-CS-3).
    WaitingPawnCaptured(Square),
    /// The target holds a piece of the mover.
    OwnPiece(Square),
    /// The piece does not move that way, or the way is blocked.
    CannotReach {
        /// Piece name ("Elephant").
        piece: String,
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// The square in the way, when the piece rides that way but is stopped.
        blocked_by: Option<Square>,
        /// The ruling on how the piece moves, where a ruling defines it.
        rule: Option<String>,
    },
    /// The move would leave the mover's king attacked (R-0-1).
    KingLeftAttacked,
    /// The king's once-per-game move that cannot be made now (R-KL-1, R-CH-5).
    SpecialKingMove {
        /// Why not.
        reason: String,
        /// The ruling.
        rule: String,
    },
    /// A castling that cannot be made now.
    Castling {
        /// `O-O` or `O-O-O`.
        side: CastlingSide,
        /// Why not.
        reason: String,
        /// The ruling.
        rule: String,
    },
    /// A move from `from` to `to` is legal here, but not this one: not
    /// of its kind, or with another promotion (or none).
    NotThisForm {
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A null move passes the turn only where a king stands and is not
    /// in check (R-0-6).
    NullMove,
}

impl std::fmt::Display for Illegality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Illegality::NoPiece(sq) => write!(f, "there is no piece on {sq}"),
            Illegality::NotYourPiece { square, turn } => {
                let t = if *turn == Color::White {
                    "White"
                } else {
                    "Black"
                };
                write!(f, "the piece on {square} is not {t}'s, and {t} is to move")
            }
            Illegality::WaitingPawnMoves(sq) => {
                write!(
                    f,
                    "the pawn on {sq} is still waiting and cannot move (R-CS-3)"
                )
            }
            Illegality::WaitingPawnCaptured(sq) => write!(
                f,
                "the pawn on {sq} is still waiting and cannot be captured (R-CS-3)"
            ),
            Illegality::OwnPiece(sq) => write!(f, "{sq} holds a piece of the side to move"),
            Illegality::CannotReach {
                piece,
                from,
                to,
                blocked_by,
                rule,
            } => {
                write!(f, "the {piece} on {from} cannot reach {to}")?;
                if let Some(sq) = blocked_by {
                    write!(f, ": {sq} is in the way")?;
                }
                match rule {
                    Some(rule) => write!(f, " ({rule})"),
                    None => Ok(()),
                }
            }
            Illegality::KingLeftAttacked => {
                write!(f, "it would leave the king attacked (R-0-1)")
            }
            Illegality::SpecialKingMove { reason, rule } => write!(f, "{reason} ({rule})"),
            Illegality::Castling { side, reason, rule } => {
                let s = if *side == CastlingSide::Short {
                    "O-O"
                } else {
                    "O-O-O"
                };
                write!(f, "castling {s} is not possible: {reason} ({rule})")
            }
            Illegality::NotThisForm { from, to } => write!(
                f,
                "a move from {from} to {to} is legal, but not of this kind or with this promotion"
            ),
            Illegality::NullMove => write!(
                f,
                "a null move is made from the mover's king square, and never in check (R-0-6)"
            ),
        }
    }
}

impl Position {
    /// Why `m` is not legal here (meaningful only when it is not).
    pub(crate) fn why_illegal(&self, m: &Move) -> Illegality {
        if m.is_null() {
            return Illegality::NullMove;
        }
        if self
            .legal_moves()
            .iter()
            .any(|l| l.from == m.from && l.to == m.to)
        {
            return Illegality::NotThisForm {
                from: m.from,
                to: m.to,
            };
        }
        self.explain_illegal(m.from, m.to)
    }

    /// Why no legal move goes from `from` to `to` (meaningful only when none does).
    pub fn explain_illegal(&self, from: Square, to: Square) -> Illegality {
        let t = self.tables();
        let Some(p) = self.piece_at(from) else {
            return Illegality::NoPiece(from);
        };
        if p.color != self.state.turn {
            return Illegality::NotYourPiece {
                square: from,
                turn: self.state.turn,
            };
        }
        if self.state.immune.contains(from) {
            return Illegality::WaitingPawnMoves(from);
        }
        if self.state.immune.contains(to) {
            return Illegality::WaitingPawnCaptured(to);
        }
        if p.kind == t.king {
            if let Some(reason) = self.explain_castling(from, to) {
                return reason;
            }
            if let Some(reason) = self.explain_special_king_move(from, to) {
                return reason;
            }
        }
        if self.piece_at(to).is_some_and(|q| q.color == p.color) {
            return Illegality::OwnPiece(to);
        }
        if self
            .pseudo_legal_moves()
            .iter()
            .any(|m| m.from == from && m.to == to)
        {
            return Illegality::KingLeftAttacked;
        }
        let def = self.variant.piece_def(p.kind);
        Illegality::CannotReach {
            piece: def.name.clone(),
            from,
            to,
            blocked_by: self.ride_blocker(p, from, to),
            rule: def.rule.clone(),
        }
    }

    /// The first occupied square between `from` and `to`, when a ride of
    /// piece `p` goes from one to the other within its range. Directions
    /// are written from White's side and mirrored for Black.
    fn ride_blocker(&self, p: Piece, from: Square, to: Square) -> Option<Square> {
        let df = to.file() as i8 - from.file() as i8;
        let dr = to.rank() as i8 - from.rank() as i8;
        let forward = if p.color == Color::White { 1 } else { -1 };
        for atom in &self.variant.piece_def(p.kind).movement.0 {
            let Atom::Ride {
                directions, max, ..
            } = atom
            else {
                continue;
            };
            for &(sf, sr) in directions {
                let sr = sr * forward;
                let steps = if sf != 0 { df / sf } else { dr / sr };
                if steps <= 1
                    || (sf * steps, sr * steps) != (df, dr)
                    || max.is_some_and(|m| steps > m as i8)
                {
                    continue;
                }
                let mut sq = from;
                for _ in 1..steps {
                    sq = sq.offset(sf, sr)?;
                    if self.piece_at(sq).is_some() {
                        return Some(sq);
                    }
                }
            }
        }
        None
    }

    fn explain_special_king_move(&self, from: Square, to: Square) -> Option<Illegality> {
        let sp = self.variant.special_king_move()?;
        let delta = (
            to.file() as i8 - from.file() as i8,
            to.rank() as i8 - from.rank() as i8,
        );
        if !sp.offsets.contains(&delta) {
            return None;
        }
        let us = self.state.turn;
        let them = us.other();
        let what = sp.name.as_str();
        let fail = |reason: String| {
            Some(Illegality::SpecialKingMove {
                reason,
                rule: sp.rule.clone(),
            })
        };
        if !self.state.king_rights[us.index()] {
            return fail(if sp.lost_on_any_king_move {
                format!("{what} is only possible while the king has never moved")
            } else {
                format!("{what} was already used; it is allowed once per game")
            });
        }
        if sp.forbidden_in_check && self.is_check() {
            return fail(format!("{what} is not allowed while the king is in check"));
        }
        match self.piece_at(to) {
            Some(q) if q.color == us => return None,
            Some(_) if !sp.may_capture => {
                return fail(format!(
                    "{what} must land on an empty square, and {to} is occupied"
                ));
            }
            _ => {}
        }
        if sp.leapt_square_guarded {
            let mid = Square::new(
                ((from.file() as i8 + delta.0 / 2) as u8).min(15),
                ((from.rank() as i8 + delta.1 / 2) as u8).min(15),
            );
            if self.piece_at(mid).is_some_and(|q| q.color == them) {
                return fail(format!("{what} cannot pass over the enemy piece on {mid}"));
            }
            if self.is_attacked(mid, them) {
                return fail(format!("{what} cannot pass over {mid}, which is attacked"));
            }
        }
        // What remains is the king ending attacked: R-0-1 says it.
        None
    }

    fn explain_castling(&self, from: Square, to: Square) -> Option<Illegality> {
        let t = self.tables();
        let us = self.state.turn;
        let them = us.other();
        let candidates: Vec<_> = t.castlings[us.index()]
            .iter()
            .enumerate()
            .filter(|(_, c)| c.king_to == to)
            .collect();
        // Of several castlings from the king's square toward `to` (Chess960
        // keeps one for each file a partner may stand on), the one whose
        // rights the position still holds is the one the player meant.
        let (i, c) = candidates
            .iter()
            .filter(|(_, c)| c.king_from == from)
            .find(|(i, _)| self.state.castling.ready_for(t, us, *i))
            .or_else(|| candidates.iter().find(|(_, c)| c.king_from == from))
            .or_else(|| {
                // A two-stage castling tried before its king stage.
                candidates.iter().find(|(_, c)| {
                    c.king_stage.is_some()
                        && from == t.king_origin[us.index()]
                        && from.file().abs_diff(to.file()) >= 2
                })
            })
            .copied()?;
        let def = &t.def.castling[c.index as usize];
        let fail = |reason: String| {
            Some(Illegality::Castling {
                side: def.side,
                reason,
                rule: def.rule.clone(),
            })
        };
        let partner_origin = def.partner_origin;
        let partner_name = || {
            t.def
                .setup
                .iter()
                .find(|(s, _)| *s == partner_origin)
                .map_or("partner", |(_, p)| {
                    t.def.pieces[p.kind.index()].name.as_str()
                })
        };
        if !self.state.castling.ready_for(t, us, i) {
            let history = &self.state.castling_history;
            let king = history.king[us.index()];
            let partner = history.partners[us.index()][c.partner as usize];
            let king_spoilt = match (king, c.king_stage) {
                (Stage::Moved, _) => true,
                (Stage::Staged(s), need) => need != Some(s),
                (Stage::Unmoved, _) => false,
            };
            let partner_spoilt = match (partner, c.partner_stage) {
                (Stage::Moved, _) => true,
                (Stage::Staged(s), need) => need != Some(s),
                (Stage::Unmoved, _) => false,
            };
            let reason = if king_spoilt && partner_spoilt {
                format!(
                    "the king and the {} from {partner_origin} have moved",
                    partner_name()
                )
            } else if king_spoilt {
                match c.king_stage {
                    Some(s) => format!(
                        "the king has made a move other than {} -> {s}",
                        t.king_origin[us.index()]
                    ),
                    None => "the king has moved".to_string(),
                }
            } else if partner_spoilt {
                match c.partner_stage {
                    Some(s) => format!(
                        "the {} from {partner_origin} has made a move other than {partner_origin} -> {s}, or was captured",
                        partner_name()
                    ),
                    None => format!(
                        "the {} from {partner_origin} has moved or was captured",
                        partner_name()
                    ),
                }
            } else if let Some(stage) = c.king_stage.filter(|&s| king != Stage::Staged(s)) {
                format!(
                    "the king must first move {} -> {stage} as its only move",
                    t.king_origin[us.index()]
                )
            } else if let Some(stage) = c.partner_stage.filter(|&s| partner != Stage::Staged(s)) {
                format!(
                    "the {} must first move {partner_origin} -> {stage} as its only move",
                    partner_name()
                )
            } else {
                "its first stage was not made".to_string()
            };
            return fail(reason);
        }
        if from != c.king_from {
            return fail(format!("the king must stand on {}", c.king_from));
        }
        if self.is_check() {
            return fail("the king is in check".into());
        }
        if let Some(s) = c.empty.iter().find(|s| self.piece_at(**s).is_some()) {
            return fail(format!("{s} is not empty"));
        }
        if let Some(s) = c.safe.iter().find(|&&s| self.is_attacked(s, them)) {
            return fail(format!("{s} is attacked"));
        }
        if self.castling_lands_in_check(c.index) {
            return fail(format!(
                "the king would stand attacked on {} once the {} has left {}",
                def.king_to,
                t.def.pieces[c.partner_kind.index()].name,
                def.partner_from
            ));
        }
        None
    }
}

/// The kinds a waiting pawn of `color` could become now, for messages.
pub fn kind_names<'p>(pos: &'p Position, kinds: &[PieceKind]) -> Vec<&'p str> {
    kinds
        .iter()
        .map(|&k| pos.variant().piece_def(k).name.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rules::{Color, Illegality, Move, Piece, Position, Setup, Square, Variant};

    /// White to move with the kings on a8 and e1 and White's `extra`
    /// pieces (letter, file, rank, 0-based).
    fn position(extra: &[(char, u8, u8)]) -> Position {
        let v = Variant::chess();
        let piece = |color, letter| Piece {
            color,
            kind: v.kind_by_letter(letter).unwrap(),
        };
        let mut board = vec![
            (Square::new(0, 7), piece(Color::Black, 'K')),
            (Square::new(4, 0), piece(Color::White, 'K')),
        ];
        for &(letter, file, rank) in extra {
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            board.push((
                Square::new(file, rank),
                piece(color, letter.to_ascii_uppercase()),
            ));
        }
        let setup = Setup {
            board,
            turn: Color::White,
            castling: Vec::new(),
            castling_rooks: Vec::new(),
            castling_stages: Vec::new(),
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            king_rights: None,
            waiting: Vec::new(),
            hand: None,
            promoted: Vec::new(),
            checks_given: None,
            gates: Vec::new(),
        };
        Position::from_setup(v, &setup).unwrap()
    }

    #[test]
    fn playing_an_illegal_move_says_why() {
        // A white pawn on e7.
        let pos = position(&[('P', 4, 6)]);
        let queen = *pos
            .legal_moves()
            .iter()
            .find(|m| m.promotion().is_some())
            .unwrap();
        // Played twice: the pawn has left e7.
        let after = pos.play(&queen).unwrap();
        let err = after.play(&queen).unwrap_err();
        assert_eq!(err.reason, Illegality::NoPiece(queen.from()));
        assert!(err.to_string().contains("no piece on e7"), "{err}");
        // A move of the start position, where its pawn does not stand.
        let start = Position::start(Variant::chess());
        let first = start.legal_moves()[0];
        assert!(matches!(
            pos.play(&first).unwrap_err().reason,
            Illegality::NoPiece(_)
        ));
        // A null move: fine at the start, not in check (a black rook on a1).
        let check = position(&[('r', 0, 0)]);
        let null = start.null_move().unwrap();
        assert!(start.play(&null).is_ok());
        assert_eq!(check.play(&null).unwrap_err().reason, Illegality::NullMove);
    }

    #[test]
    fn a_legal_move_of_another_form_is_named_so() {
        let pos = position(&[('P', 4, 6)]);
        let promotion = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.promotion().is_some())
            .unwrap();
        // e7-e8 without a promotion: a move e7-e8 is legal, but only one
        // that promotes.
        let bare = Move::normal(promotion.from(), promotion.to());
        assert_eq!(
            pos.play(&bare).unwrap_err().reason,
            Illegality::NotThisForm {
                from: bare.from(),
                to: bare.to()
            }
        );
    }
}
