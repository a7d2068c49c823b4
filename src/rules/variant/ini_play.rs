//! Fairy-Stockfish's `variants.ini` options for the rules beyond moving
//! pieces (docs/variants.md "Fairy-Stockfish's variants.ini"): hands,
//! drops and their regions, gating, compulsory capture, explosions,
//! forbidden checks, check counting and flag regions, read into the same
//! fields as a TOML definition's.

use super::file::parse_square;
use super::{Explosion, FlagRule, HandRules, PieceDef};
use crate::rules::geometry::{BoardSize, Square};
use crate::rules::piece::PieceKind;

/// The play-rule options of a section, as its options set them.
#[derive(Clone, Debug, Default)]
pub(super) struct IniPlay {
    piece_drops: bool,
    captures_to_hand: bool,
    must_drop: bool,
    must_capture: bool,
    /// `checking = false`: no move may give check.
    no_checks: bool,
    check_counting: bool,
    /// The flag piece's key (`king`).
    flag_piece: Option<String>,
    /// Per colour, the flag region as written (`d4 e4`, `*8`).
    flag_region: [Option<String>; 2],
    flag_move: bool,
    /// `dropLoop`: a promoted piece captured goes to hand as it is.
    drop_loop: bool,
    /// Per colour, `dropRegionWhite` / `dropRegionBlack` as written.
    drop_region: [Option<String>; 2],
    /// `sittuyinRookDrop`: rooks are dropped on the first rank only.
    rook_drop_first_rank: bool,
    /// `dropOppositeColoredBishop`.
    bishops_opposite_colours: bool,
    /// `castlingDroppedPiece`.
    castling_from_drops: bool,
    /// `gating` (the gates kept in the castling field) and
    /// `seirawanGating` (hand pieces gate onto them).
    gating: bool,
    seirawan_gating: bool,
    /// `blastOnCapture`.
    blast: bool,
}

/// The play rules of a section, made.
pub(super) struct PlayRules {
    pub hand: Option<HandRules>,
    pub explosion: Option<Explosion>,
    pub must_capture: bool,
    pub checks_forbidden: bool,
    pub check_limit: Option<u8>,
    pub flag: Option<FlagRule>,
}

const KEYS: &[&str] = &[
    "pieceDrops",
    "capturesToHand",
    "mustDrop",
    "mustCapture",
    "checking",
    "checkCounting",
    "flagPiece",
    "flagPieceWhite",
    "flagPieceBlack",
    "flagRegion",
    "flagRegionWhite",
    "flagRegionBlack",
    "flagMove",
    "dropLoop",
    "dropRegion",
    "dropRegionWhite",
    "dropRegionBlack",
    "sittuyinRookDrop",
    "dropOppositeColoredBishop",
    "castlingDroppedPiece",
    "gating",
    "seirawanGating",
    "blastOnCapture",
    "blastImmuneTypes",
];

impl IniPlay {
    /// Whether hand pieces gate (`seirawanGating`).
    pub fn gates(&self) -> bool {
        self.seirawan_gating
    }

    /// Whether dropped kings and rooks castle (`castlingDroppedPiece`).
    pub fn castles_from_drops(&self) -> bool {
        self.castling_from_drops
    }

    /// Whether `key` is one of the options read here.
    pub fn reads(key: &str) -> bool {
        KEYS.contains(&key)
    }

    /// This with option `key` set to `value`; `key_of` gives a piece
    /// letter's type key.
    pub fn apply(
        mut self,
        key: &str,
        value: &str,
        key_of: impl Fn(char) -> Option<String>,
    ) -> Result<IniPlay, String> {
        let boolean = || match value {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("`{value}` is not true or false")),
        };
        match key {
            "pieceDrops" => self.piece_drops = boolean()?,
            "capturesToHand" => self.captures_to_hand = boolean()?,
            "mustDrop" => self.must_drop = boolean()?,
            "mustCapture" => self.must_capture = boolean()?,
            "checking" => self.no_checks = !boolean()?,
            "checkCounting" => self.check_counting = boolean()?,
            "flagMove" => self.flag_move = boolean()?,
            "flagPiece" | "flagPieceWhite" | "flagPieceBlack" => {
                let mut letters = value.chars();
                let key = match (letters.next(), letters.next()) {
                    (Some(c), None) => key_of(c),
                    _ => None,
                };
                let Some(key) = key else {
                    return Err(format!("`{value}` is not a piece type's letter"));
                };
                if self.flag_piece.as_ref().is_some_and(|k| *k != key) {
                    return Err("xpgn's flag piece is the same type for both sides".into());
                }
                self.flag_piece = Some(key);
            }
            "dropLoop" => self.drop_loop = boolean()?,
            "dropRegion" => self.drop_region = [Some(value.into()), Some(value.into())],
            "dropRegionWhite" => self.drop_region[0] = Some(value.into()),
            "dropRegionBlack" => self.drop_region[1] = Some(value.into()),
            "sittuyinRookDrop" => self.rook_drop_first_rank = boolean()?,
            "dropOppositeColoredBishop" => self.bishops_opposite_colours = boolean()?,
            "castlingDroppedPiece" => self.castling_from_drops = boolean()?,
            "gating" => self.gating = boolean()?,
            "seirawanGating" => self.seirawan_gating = boolean()?,
            "blastOnCapture" => self.blast = boolean()?,
            "blastImmuneTypes" if matches!(value, "" | "-" | "none") => {}
            "blastImmuneTypes" => {
                return Err(
                    "xpgn plays no piece immune to explosions at the square of capture; the section is refused rather than approximated".into(),
                );
            }
            "flagRegion" => self.flag_region = [Some(value.into()), Some(value.into())],
            "flagRegionWhite" => self.flag_region[0] = Some(value.into()),
            "flagRegionBlack" => self.flag_region[1] = Some(value.into()),
            _ => return Err(format!("`{key}` is not a play-rule option")),
        }
        Ok(self)
    }

    /// The play rules of the section: `start_fen` gives the hands at the
    /// start (`[HEhe]`) and the checks to give (`3+3`). A fault names the
    /// option it comes from.
    pub fn to_rules(
        &self,
        start_fen: &str,
        size: BoardSize,
        pieces: &[PieceDef],
        kind_of_key: &dyn Fn(&str) -> Option<PieceKind>,
    ) -> Result<PlayRules, (&'static str, String)> {
        let fields: Vec<&str> = start_fen.split_whitespace().collect();
        let (_, hand_text) = super::file_play::split_hand(fields.first().copied().unwrap_or(""));
        let hand = self.hand(hand_text, size, pieces, kind_of_key)?;
        let check_limit = if self.check_counting {
            let counters = fields.iter().skip(3).find(|f| f.contains('+'));
            let limit = counters
                .and_then(|c| c.split_once('+'))
                .and_then(|(w, b)| Some((w.parse::<u8>().ok()?, b.parse::<u8>().ok()?)))
                .filter(|(w, b)| w == b && *w > 0)
                .map(|(w, _)| w);
            match limit {
                Some(n) => Some(n),
                None => {
                    return Err((
                        "checkCounting",
                        "the startFen must give the checks to give, the same for both sides (`3+3`)".into(),
                    ));
                }
            }
        } else {
            None
        };
        let explosion = self.blast.then(|| Explosion {
            // Captures explode the pieces around but for pawns.
            immune: kind_of_key("pawn").map_or(0, |k| 1 << k.index()),
            rule: "R-AT-1".into(),
        });
        Ok(PlayRules {
            hand,
            explosion,
            must_capture: self.must_capture,
            checks_forbidden: self.no_checks,
            check_limit,
            flag: self.flag(size, kind_of_key)?,
        })
    }

    /// The hand rules, where the section has drops or starts with a hand.
    fn hand(
        &self,
        hand_text: Option<&str>,
        size: BoardSize,
        pieces: &[PieceDef],
        kind_of_key: &dyn Fn(&str) -> Option<PieceKind>,
    ) -> Result<Option<HandRules>, (&'static str, String)> {
        if !self.piece_drops && !self.captures_to_hand && hand_text.is_none() {
            if self.must_drop {
                return Err((
                    "mustDrop",
                    "a section without drops has nothing to drop".into(),
                ));
            }
            if self.seirawan_gating {
                return Err((
                    "seirawanGating",
                    "a section without a hand has nothing to gate".into(),
                ));
            }
            return Ok(None);
        }
        if self.gating != self.seirawan_gating {
            return Err((
                "gating",
                "xpgn gates hand pieces as Seirawan does: gating and seirawanGating are set together".into(),
            ));
        }
        let start = super::file_play::hand_pieces(hand_text.unwrap_or(""), |c| {
            pieces
                .iter()
                .position(|p| p.letter == c.to_ascii_uppercase())
                .map(|i| PieceKind(i as u8))
        })
        .map_err(|c| {
            (
                "startFen",
                format!("the hand holds `{c}`, which is no piece's letter in this section"),
            )
        })?;
        let every: Vec<u8> = (0..size.ranks).collect();
        let kind_of = |key: &'static str, option: &'static str| {
            kind_of_key(key).ok_or((option, format!("the section has no {key}")))
        };
        let mut kind_ranks = Vec::new();
        if self.rook_drop_first_rank {
            kind_ranks.push((kind_of("rook", "sittuyinRookDrop")?, vec![0]));
        }
        let opposite_colours = match self.bishops_opposite_colours {
            true => 1 << kind_of("bishop", "dropOppositeColoredBishop")?.index(),
            false => 0,
        };
        Ok(Some(HandRules {
            captures_to_hand: self.captures_to_hand,
            promoted_revert: self.captures_to_hand && !self.drop_loop,
            pawn_ranks: HandRules::default_pawn_ranks(size),
            ranks: self.drop_ranks(size)?.unwrap_or(every),
            kind_ranks,
            must_drop: self.must_drop,
            drops: self.piece_drops,
            gating: self.seirawan_gating,
            castling_from_drops: self.castling_from_drops,
            opposite_colours,
            start,
            rule: "R-ZH-1".into(),
        }))
    }

    /// The drop ranks (0-based, White's view) the drop regions give:
    /// whole ranks, Black's the mirror of White's, as xpgn's hands have
    /// them; `None` where the whole board is open.
    fn drop_ranks(&self, size: BoardSize) -> Result<Option<Vec<u8>>, (&'static str, String)> {
        let ranks = |text: &Option<String>,
                     key: &'static str|
         -> Result<Option<Vec<u8>>, (&'static str, String)> {
            let Some(text) = text else {
                return Ok(None);
            };
            let mut out = Vec::new();
            for token in text.split_whitespace() {
                let rank = token
                    .strip_prefix('*')
                    .and_then(|r| r.parse::<u8>().ok())
                    .filter(|&r| (1..=size.ranks).contains(&r))
                    .ok_or_else(|| {
                        (
                            key,
                            format!("`{token}` is not a whole rank (`*1`); xpgn's drop regions are whole ranks"),
                        )
                    })?;
                out.push(rank - 1);
            }
            out.sort_unstable();
            out.dedup();
            Ok(Some(out))
        };
        let white = ranks(&self.drop_region[0], "dropRegionWhite")?;
        let black = ranks(&self.drop_region[1], "dropRegionBlack")?;
        let mirror = |r: &Vec<u8>| {
            let mut m: Vec<u8> = r.iter().map(|&x| size.ranks - 1 - x).collect();
            m.sort_unstable();
            m
        };
        match (white, black) {
            (None, None) => Ok(None),
            (Some(w), Some(b)) if mirror(&w) == b => Ok(Some(w)),
            _ => Err((
                "dropRegionWhite",
                "xpgn's drop regions are the same ranks for both sides, seen from each side: give dropRegionWhite and dropRegionBlack mirrored".into(),
            )),
        }
    }

    /// The flag rule, where the section names a flag piece and regions.
    fn flag(
        &self,
        size: BoardSize,
        kind_of_key: &dyn Fn(&str) -> Option<PieceKind>,
    ) -> Result<Option<FlagRule>, (&'static str, String)> {
        let Some(key) = &self.flag_piece else {
            if self.flag_region.iter().any(Option::is_some) {
                return Err(("flagRegion", "a flag region needs a flagPiece".into()));
            }
            return Ok(None);
        };
        let kind =
            kind_of_key(key).ok_or_else(|| ("flagPiece", format!("the section has no `{key}`")))?;
        let region = |text: &Option<String>| -> Result<Vec<Square>, (&'static str, String)> {
            let text = text.as_deref().unwrap_or("");
            let mut out = Vec::new();
            for token in text.split_whitespace() {
                match token.strip_prefix('*') {
                    Some(rank) => {
                        let r = rank
                            .parse::<u8>()
                            .ok()
                            .filter(|&r| (1..=size.ranks).contains(&r))
                            .ok_or_else(|| ("flagRegion", format!("`{token}` is no rank")))?;
                        out.extend((0..size.files).map(|f| Square::new(f, r - 1)));
                    }
                    None => out.push(
                        parse_square(token, size)
                            .ok_or_else(|| ("flagRegion", format!("`{token}` is no square")))?,
                    ),
                }
            }
            if out.is_empty() {
                return Err(("flagRegion", "a flag piece needs a flag region".into()));
            }
            Ok(out)
        };
        Ok(Some(FlagRule {
            kind,
            regions: [region(&self.flag_region[0])?, region(&self.flag_region[1])?],
            black_reply: self.flag_move,
            rule: "R-RK-2".into(),
        }))
    }
}
