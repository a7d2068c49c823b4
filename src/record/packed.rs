//! The packed main line: every move in three bytes (from, to, flags), plus
//! one or two bytes for what few moves carry (castling index, promotion,
//! waiting and instant promotions). Pattern queries replay these with
//! `Position::play_unchecked`, without resolving or checking any text, so
//! the encoding must give back exactly the `Move` the generator produced.
//!
//! The flags byte: bits 0-2 the kind (0 normal, 1 double step, 2 en
//! passant, 3 castling, 4 the king's once-per-game move, 5 a null move of
//! R-0-6, 6 a drop from the hand), bit 3 a promotion follows, bit 4 a waiting promotion follows,
//! bit 5 an instant promotion follows, bit 6 a gate follows. Then, in this
//! order and only when flagged: the castling index or the dropped kind (1
//! byte), the promotion kind (1 byte), the waiting promotion's square and
//! kind (2 bytes), the instant promotion's square and kind (2 bytes), the
//! gate's square and the kind entering it (2 bytes). Squares are their packed index (`rank * 16 + file`).

use crate::rules::{Gate, Move, MoveKind, PieceKind, Position, Square, Variant, WaitingPromotion};

const KIND_MASK: u8 = 0b111;
const PROMOTION: u8 = 1 << 3;
const WAITING: u8 = 1 << 4;
const INSTANT: u8 = 1 << 5;
const GATE: u8 = 1 << 6;
const KNOWN: u8 = KIND_MASK | PROMOTION | WAITING | INSTANT | GATE;

/// Why packed bytes do not decode to a move of the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackedError {
    /// The bytes end inside a move.
    #[error("packed moves end inside move {0}")]
    Truncated(usize),
    /// A byte that no encoder writes.
    #[error("packed move {ply}: {what}")]
    Invalid {
        /// 1-based ply.
        ply: usize,
        /// What is wrong.
        what: String,
    },
}

/// Appends `m` to `out`.
#[inline]
pub fn encode(m: &Move, out: &mut Vec<u8>) {
    // Nearly every move is a plain one, three bytes with no flag: written
    // without the match on its kind (an indirect jump) and the extras.
    if m.kind == MoveKind::Normal
        && m.promotion.is_none()
        && m.waiting_promotion.is_none()
        && m.instant_promotion.is_none()
        && m.gate.is_none()
    {
        out.extend_from_slice(&[m.from.index() as u8, m.to.index() as u8, 0]);
        return;
    }
    encode_flagged(m, out);
}

/// [`encode`] of any move.
fn encode_flagged(m: &Move, out: &mut Vec<u8>) {
    let (kind, castle) = match m.kind {
        MoveKind::Normal => (0, None),
        MoveKind::DoubleStep => (1, None),
        MoveKind::EnPassant => (2, None),
        MoveKind::Castle(i) => (3, Some(i)),
        MoveKind::SpecialKing => (4, None),
        MoveKind::Null => (5, None),
        MoveKind::Drop(k) => (6, Some(k.0)),
    };
    let flags = kind
        | if m.promotion.is_some() { PROMOTION } else { 0 }
        | if m.waiting_promotion.is_some() {
            WAITING
        } else {
            0
        }
        | if m.instant_promotion.is_some() {
            INSTANT
        } else {
            0
        }
        | if m.gate.is_some() { GATE } else { 0 };
    out.extend_from_slice(&[m.from.index() as u8, m.to.index() as u8, flags]);
    out.extend(castle);
    out.extend(m.promotion.map(|k| k.0));
    // Each read apart: gathered into an array first, the two were
    // written a byte at a time and read back whole, which waited on the
    // writes (a failed store forwarding, half of this function's time).
    if let Some(wp) = m.waiting_promotion {
        out.extend_from_slice(&[wp.square.index() as u8, wp.kind.0]);
    }
    if let Some(wp) = m.instant_promotion {
        out.extend_from_slice(&[wp.square.index() as u8, wp.kind.0]);
    }
    if let Some(g) = m.gate {
        out.extend_from_slice(&[g.square.index() as u8, g.kind.0]);
    }
}

/// The packed form of a whole line.
pub fn encode_all(moves: &[Move]) -> Vec<u8> {
    let mut out = Vec::with_capacity(moves.len() * 3);
    for m in moves {
        encode(m, &mut out);
    }
    out
}

/// Reads packed moves one by one, checking that squares, kinds and
/// castling indices exist in the variant (a damaged database must not make
/// `play_unchecked` index outside its tables).
pub struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
    ply: usize,
    variant: &'a Variant,
}

impl<'a> Decoder<'a> {
    /// Decodes `bytes` as moves of `variant`.
    pub fn new(variant: &'a Variant, bytes: &'a [u8]) -> Decoder<'a> {
        Decoder {
            bytes,
            at: 0,
            ply: 0,
            variant,
        }
    }

    /// Bytes decoded so far.
    pub fn offset(&self) -> usize {
        self.at
    }

    fn byte(&mut self) -> Result<u8, PackedError> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or(PackedError::Truncated(self.ply))?;
        self.at += 1;
        Ok(b)
    }

    fn invalid(&self, what: String) -> PackedError {
        PackedError::Invalid {
            ply: self.ply,
            what,
        }
    }

    fn square(&mut self) -> Result<Square, PackedError> {
        let sq = Square::from_index(self.byte()?);
        if self.variant.size().contains(sq) {
            Ok(sq)
        } else {
            Err(self.invalid(format!("square {sq} is off the board")))
        }
    }

    fn kind(&mut self) -> Result<PieceKind, PackedError> {
        let k = self.byte()?;
        if (k as usize) < self.variant.def().pieces.len() {
            Ok(PieceKind(k))
        } else {
            Err(self.invalid(format!("piece kind {k} does not exist")))
        }
    }

    fn next_move(&mut self) -> Result<Move, PackedError> {
        self.ply += 1;
        let from = self.square()?;
        let to = self.square()?;
        let flags = self.byte()?;
        if flags & !KNOWN != 0 {
            return Err(self.invalid(format!("unknown flags {flags:#04x}")));
        }
        let kind = match flags & KIND_MASK {
            0 => MoveKind::Normal,
            1 => MoveKind::DoubleStep,
            2 => MoveKind::EnPassant,
            3 => {
                let i = self.byte()?;
                if (i as usize) >= self.variant.def().castling.len() {
                    return Err(self.invalid(format!("castling {i} does not exist")));
                }
                MoveKind::Castle(i)
            }
            4 => MoveKind::SpecialKing,
            5 => MoveKind::Null,
            6 => MoveKind::Drop(self.kind()?),
            k => return Err(self.invalid(format!("move kind {k} does not exist"))),
        };
        let promotion = if flags & PROMOTION != 0 {
            Some(self.kind()?)
        } else {
            None
        };
        let mut waiting = |flag: u8| -> Result<Option<WaitingPromotion>, PackedError> {
            if flags & flag == 0 {
                return Ok(None);
            }
            Ok(Some(WaitingPromotion {
                square: self.square()?,
                kind: self.kind()?,
            }))
        };
        let waiting_promotion = waiting(WAITING)?;
        let instant_promotion = waiting(INSTANT)?;
        let gate = waiting(GATE)?.map(|g| Gate {
            square: g.square,
            kind: g.kind,
        });
        Ok(Move {
            from,
            to,
            kind,
            promotion,
            waiting_promotion,
            instant_promotion,
            gate,
        })
    }
}

impl Iterator for Decoder<'_> {
    type Item = Result<Move, PackedError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let r = self.next_move();
        if r.is_err() {
            // One error ends the line: what follows cannot be framed.
            self.at = self.bytes.len();
        }
        Some(r)
    }
}

/// Plays a decoded move, refusing one whose from-square is empty (a
/// damaged line), which `play_unchecked` would otherwise trip over.
///
/// # Errors
/// No piece stands on the move's from-square.
pub fn play(pos: &mut Position, m: &Move, ply: usize) -> Result<(), PackedError> {
    if let Some(kind) = m.dropped() {
        if pos.in_hand(pos.turn(), kind) == 0 || pos.piece_at(m.to).is_some() {
            return Err(PackedError::Invalid {
                ply,
                what: format!("no such piece in hand to drop on {}", m.to),
            });
        }
    } else if pos.piece_at(m.from).is_none() {
        return Err(PackedError::Invalid {
            ply,
            what: format!("no piece on {}", m.from),
        });
    }
    if let Some(gate) = m.gate {
        let castling = match m.kind {
            MoveKind::Castle(i) => pos.variant().def().castling.get(usize::from(i)),
            _ => None,
        };
        let left = gate.square == m.from || castling.is_some_and(|c| gate.square == c.partner_from);
        let landed =
            castling.is_some_and(|c| gate.square == c.king_to || gate.square == c.partner_to);
        if pos.in_hand(pos.turn(), gate.kind) == 0 || !left || landed {
            return Err(PackedError::Invalid {
                ply,
                what: format!("no such gate on {}", gate.square),
            });
        }
    }
    pos.play_unchecked(m);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::coord::resolve_coord;

    /// Every legal move of every position of a pseudo-random game per
    /// variant decodes back to itself; the tests in `tests/it/db.rs` cover
    /// the special moves on purpose-built games.
    #[test]
    fn every_legal_move_of_random_games_round_trips() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for variant in Variant::builtin() {
            for _ in 0..8 {
                let mut pos = Position::start(variant);
                for _ in 0..200 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let packed = encode_all(&moves);
                    let back: Vec<Move> = Decoder::new(variant, &packed)
                        .collect::<Result<_, _>>()
                        .unwrap();
                    assert_eq!(back, moves, "{}", variant.name());
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.play_unchecked(&moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
    }

    #[test]
    fn damaged_bytes_are_errors_not_panics() {
        let chess = Variant::chess();
        let pos = Position::start(&chess);
        let m = resolve_coord(&pos, "e2e4").unwrap();
        let mut bytes = Vec::new();
        encode(&m, &mut bytes);
        assert_eq!(bytes.len(), 3);
        let decode = |b: &[u8]| Decoder::new(&chess, b).collect::<Result<Vec<_>, _>>();
        assert_eq!(decode(&bytes[..2]), Err(PackedError::Truncated(1)));
        // h9 is off an 8x8 board.
        assert!(decode(&[0x87, 0x00, 0x00]).is_err());
        assert!(decode(&[0x0c, 0x1c, 0x07]).is_err());
        assert!(decode(&[0x0c, 0x1c, 0x40]).is_err());
        // Chess has four castlings.
        assert!(decode(&[0x04, 0x06, 0x03, 0x04]).is_err());
        assert!(decode(&[0x04, 0x06, 0x03, 0x00]).is_ok());
        let mut empty = pos.clone();
        let e3e4 = Move::normal(Square::new(4, 2), Square::new(4, 3));
        assert!(play(&mut empty, &e3e4, 1).is_err());
    }
}
