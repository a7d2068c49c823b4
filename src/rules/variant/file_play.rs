//! The play-rule tables of a TOML definition (docs/variants.md "Rules
//! beyond moving pieces"): `[hand]`, `check-limit`, `[extinction]`,
//! `[flag]` and `[explosion]`. Compulsory capture, the king's royalty and
//! forbidden checks are plain flags read with the rest of the file.

use serde::Deserialize;
use toml::Spanned;

use super::file::{Kinds, Source, parse_square};
use super::{Explosion, Extinction, FlagRule, HandRules};
use crate::rules::geometry::{BoardSize, Square};
use crate::rules::piece::{Color, Piece, PieceKind};
use crate::rules::variant::DefinitionError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct HandEntry {
    #[serde(default)]
    captures_to_hand: bool,
    #[serde(default)]
    promoted_revert: bool,
    pawn_ranks: Option<Spanned<Vec<u8>>>,
    ranks: Option<Spanned<Vec<u8>>>,
    piece_ranks: Option<Spanned<std::collections::BTreeMap<String, Vec<u8>>>>,
    #[serde(default)]
    must_drop: bool,
    drops: Option<bool>,
    #[serde(default)]
    gating: bool,
    #[serde(default)]
    castling_from_drops: bool,
    opposite_colours: Option<Spanned<String>>,
    rule: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct ExtinctionEntry {
    pieces: Spanned<String>,
    outcome: Spanned<String>,
    rule: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct FlagEntry {
    piece: Spanned<String>,
    white: Spanned<Vec<String>>,
    black: Spanned<Vec<String>>,
    #[serde(default)]
    black_reply: bool,
    rule: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct ExplosionEntry {
    immune: Option<Spanned<String>>,
    rule: Option<String>,
}

/// The play-rule tables of a file, as read by serde.
pub(super) struct PlayTables<'a> {
    pub setup: &'a Spanned<String>,
    pub hand: Option<&'a Spanned<HandEntry>>,
    pub check_limit: Option<&'a Spanned<u8>>,
    pub extinction: Option<&'a Spanned<ExtinctionEntry>>,
    pub flag: Option<&'a Spanned<FlagEntry>>,
    pub explosion: Option<&'a Spanned<ExplosionEntry>>,
}

/// The play rules of a definition, read.
pub(super) struct PlayRules {
    pub hand: Option<HandRules>,
    pub check_limit: Option<u8>,
    pub extinction: Option<Extinction>,
    pub flag: Option<FlagRule>,
    pub explosion: Option<Explosion>,
}

/// A setup string's board and its hand (`...RNBQKBNR[HEhe]`), if any.
pub(crate) fn split_hand(setup: &str) -> (&str, Option<&str>) {
    let board = setup.split_whitespace().next().unwrap_or("");
    match board.split_once('[') {
        Some((b, rest)) => (b, Some(rest.trim_end_matches(']'))),
        None => (board, None),
    }
}

/// The pieces of a setup string's hand (`HEhe`; `-` for none), each
/// letter's kind given by `kind_of`: upper case White's, lower case
/// Black's. A letter of no kind is returned as the fault.
pub(super) fn hand_pieces(
    text: &str,
    kind_of: impl Fn(char) -> Option<PieceKind>,
) -> Result<Vec<Piece>, char> {
    text.chars()
        .filter(|&c| c != '-')
        .map(|c| {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            Ok(Piece {
                color,
                kind: kind_of(c).ok_or(c)?,
            })
        })
        .collect()
}

fn at<T>(s: &Spanned<T>) -> usize {
    s.span().start
}

/// Reads the play-rule tables.
pub(super) fn read_play_rules(
    src: &Source<'_>,
    raw: &PlayTables<'_>,
    size: BoardSize,
    kinds: Kinds<'_>,
) -> Result<PlayRules, DefinitionError> {
    let (_, start_hand) = split_hand(raw.setup.get_ref());
    let hand = match raw.hand {
        Some(h) => Some(read_hand(src, h, start_hand, raw.setup, size, kinds)?),
        None if start_hand.is_some_and(|h| !h.is_empty()) => {
            return Err(src.err(
                at(raw.setup),
                "setup",
                "gives pieces in hand, but the variant has no [hand] table",
            ));
        }
        None => None,
    };
    let check_limit = match raw.check_limit {
        Some(n) if *n.get_ref() == 0 => {
            return Err(src.err(at(n), "check-limit", "must be at least 1"));
        }
        Some(n) => Some(*n.get_ref()),
        None => None,
    };
    Ok(PlayRules {
        hand,
        check_limit,
        extinction: raw
            .extinction
            .map(|e| read_extinction(src, e, kinds))
            .transpose()?,
        flag: raw
            .flag
            .map(|f| read_flag(src, f, size, kinds))
            .transpose()?,
        explosion: raw
            .explosion
            .map(|e| read_explosion(src, e, kinds))
            .transpose()?,
    })
}

/// Ranks written 1-based, as 0-based, each on the board.
fn ranks_of(
    src: &Source<'_>,
    ranks: Option<&Spanned<Vec<u8>>>,
    size: BoardSize,
    field: &str,
) -> Result<Option<Vec<u8>>, DefinitionError> {
    let Some(r) = ranks else {
        return Ok(None);
    };
    r.get_ref()
        .iter()
        .map(|&n| {
            if n >= 1 && n <= size.ranks {
                Ok(n - 1)
            } else {
                Err(src.err(
                    at(r),
                    field,
                    format!("rank {n} is not on a board of {} ranks", size.ranks),
                ))
            }
        })
        .collect::<Result<Vec<u8>, _>>()
        .map(Some)
}

fn read_hand(
    src: &Source<'_>,
    h: &Spanned<HandEntry>,
    start_hand: Option<&str>,
    setup: &Spanned<String>,
    size: BoardSize,
    kinds: Kinds<'_>,
) -> Result<HandRules, DefinitionError> {
    let e = h.get_ref();
    let every: Vec<u8> = (0..size.ranks).collect();
    let ranks = ranks_of(src, e.ranks.as_ref(), size, "hand.ranks")?.unwrap_or(every.clone());
    let pawn_ranks = ranks_of(src, e.pawn_ranks.as_ref(), size, "hand.pawn-ranks")?
        .unwrap_or_else(|| HandRules::default_pawn_ranks(size));
    let mut kind_ranks = Vec::new();
    if let Some(table) = &e.piece_ranks {
        for (letter, list) in table.get_ref() {
            let kind = letter
                .chars()
                .next()
                .and_then(|c| kinds.of_letter(c))
                .filter(|_| letter.chars().count() == 1)
                .ok_or_else(|| {
                    src.err(
                        at(table),
                        "hand.piece-ranks",
                        format!("`{letter}` is no piece's letter"),
                    )
                })?;
            let spanned = Spanned::new(table.span(), list.clone());
            let ranks =
                ranks_of(src, Some(&spanned), size, "hand.piece-ranks")?.unwrap_or_default();
            kind_ranks.push((kind, ranks));
        }
    }
    let start = hand_pieces(start_hand.unwrap_or(""), |c| kinds.of_letter(c)).map_err(|c| {
        src.err(
            at(setup),
            "setup",
            format!("the hand holds `{c}`, which is no piece's letter"),
        )
    })?;
    Ok(HandRules {
        captures_to_hand: e.captures_to_hand,
        promoted_revert: e.promoted_revert,
        pawn_ranks,
        ranks,
        kind_ranks,
        must_drop: e.must_drop,
        drops: e.drops.unwrap_or(true),
        gating: e.gating,
        castling_from_drops: e.castling_from_drops,
        opposite_colours: match &e.opposite_colours {
            Some(text) => kind_set(src, text, "hand.opposite-colours", kinds)?,
            None => 0,
        },
        start,
        rule: e.rule.clone().unwrap_or_else(|| "R-ZH-1".into()),
    })
}

/// A set of kinds written as letters, or `*` for every kind.
fn kind_set(
    src: &Source<'_>,
    text: &Spanned<String>,
    field: &str,
    kinds: Kinds<'_>,
) -> Result<u16, DefinitionError> {
    if text.get_ref().trim() == "*" {
        return Ok(u16::MAX);
    }
    let mut set = 0u16;
    for c in text.get_ref().chars().filter(|c| !c.is_whitespace()) {
        let k = kinds
            .of_letter(c)
            .ok_or_else(|| src.err(at(text), field, format!("`{c}` is no piece's letter")))?;
        set |= 1 << k.index();
    }
    Ok(set)
}

fn read_extinction(
    src: &Source<'_>,
    e: &Spanned<ExtinctionEntry>,
    kinds: Kinds<'_>,
) -> Result<Extinction, DefinitionError> {
    let e = e.get_ref();
    let extinct_side_wins = match e.outcome.get_ref().as_str() {
        "wins" => true,
        "loses" => false,
        other => {
            return Err(src.err(
                at(&e.outcome),
                "extinction.outcome",
                format!("`{other}` is not wins or loses"),
            ));
        }
    };
    Ok(Extinction {
        kinds: kind_set(src, &e.pieces, "extinction.pieces", kinds)?,
        extinct_side_wins,
        rule: e.rule.clone().unwrap_or_else(|| "R-0-3".into()),
    })
}

/// A region: square names, or rank numbers for whole ranks.
fn region(
    src: &Source<'_>,
    names: &Spanned<Vec<String>>,
    field: &str,
    size: BoardSize,
) -> Result<Vec<Square>, DefinitionError> {
    let mut out = Vec::new();
    for name in names.get_ref() {
        if let Ok(rank) = name.parse::<u8>() {
            if rank == 0 || rank > size.ranks {
                return Err(src.err(
                    at(names),
                    field,
                    format!("rank {rank} is not on a board of {} ranks", size.ranks),
                ));
            }
            out.extend((0..size.files).map(|f| Square::new(f, rank - 1)));
            continue;
        }
        let sq = parse_square(name, size).ok_or_else(|| {
            src.err(
                at(names),
                field,
                format!("`{name}` is neither a square of the board nor a rank number"),
            )
        })?;
        out.push(sq);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn read_flag(
    src: &Source<'_>,
    f: &Spanned<FlagEntry>,
    size: BoardSize,
    kinds: Kinds<'_>,
) -> Result<FlagRule, DefinitionError> {
    let e = f.get_ref();
    let mut letters = e.piece.get_ref().chars();
    let kind = match (
        letters.next().and_then(|c| kinds.of_letter(c)),
        letters.next(),
    ) {
        (Some(k), None) => k,
        _ => {
            return Err(src.err(at(&e.piece), "flag.piece", "must be one piece's letter"));
        }
    };
    Ok(FlagRule {
        kind,
        regions: [
            region(src, &e.white, "flag.white", size)?,
            region(src, &e.black, "flag.black", size)?,
        ],
        black_reply: e.black_reply,
        rule: e.rule.clone().unwrap_or_else(|| "R-0-3".into()),
    })
}

fn read_explosion(
    src: &Source<'_>,
    e: &Spanned<ExplosionEntry>,
    kinds: Kinds<'_>,
) -> Result<Explosion, DefinitionError> {
    let e = e.get_ref();
    let immune = match &e.immune {
        Some(letters) => kind_set(src, letters, "explosion.immune", kinds)?,
        None => 0,
    };
    Ok(Explosion {
        immune,
        rule: e.rule.clone().unwrap_or_else(|| "R-0-3".into()),
    })
}
