//! The productions of grammar/xpgn.ebnf read token by token (moves,
//! tag pairs, move numbers, NAGs, results) written as nom combinators,
//! one combinator per production, in tests only: the oracle that property
//! tests hold the byte readers ([`super::pgn::any_move`] and the
//! functions it calls) to. Built only for tests.

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};

use nom::character::complete::{char, digit1, satisfy};
use nom::combinator::{all_consuming, eof, map, map_opt, opt, recognize, value};
use nom::sequence::{preceded, terminated};
use std::borrow::Cow;

use super::coord::CoordMove;
use super::pgn::AnyMove;
use super::san::{CheckMark, GateText, San};
use crate::rules::{CastlingSide, Square};

fn file_letter(input: &str) -> IResult<&str, u8> {
    map(satisfy(|c| ('a'..='p').contains(&c)), |c| c as u8 - b'a').parse(input)
}

fn rank_number(input: &str) -> IResult<&str, u8> {
    map_opt(digit1, |d: &str| {
        let n: u8 = d.parse().ok()?;
        ((1..=16).contains(&n) && !d.starts_with('0')).then(|| n - 1)
    })
    .parse(input)
}

pub fn square(input: &str) -> IResult<&str, Square> {
    map((file_letter, rank_number), |(f, r)| Square::new(f, r)).parse(input)
}

fn piece_letter(input: &str) -> IResult<&str, char> {
    satisfy(|c| c.is_ascii_uppercase() && c != 'O').parse(input)
}

fn castle(input: &str) -> IResult<&str, CastlingSide> {
    alt((
        value(CastlingSide::Long, alt((tag("O-O-O"), tag("0-0-0")))),
        value(CastlingSide::Short, alt((tag("O-O"), tag("0-0")))),
    ))
    .parse(input)
}

type OriginAndTarget = (Option<u8>, Option<u8>, bool, Square);

fn origin_and_target(input: &str) -> IResult<&str, OriginAndTarget> {
    let capture = alt((value(true, char('x')), value(false, char('-'))));
    map_opt(
        (
            opt(file_letter),
            opt(rank_number),
            opt(capture),
            opt(file_letter),
            opt(rank_number),
        ),
        |parts| match parts {
            (file, rank, sep, Some(f), Some(r)) => {
                Some((file, rank, sep.unwrap_or(false), Square::new(f, r)))
            }
            (Some(f), Some(r), None, None, None) => Some((None, None, false, Square::new(f, r))),
            _ => None,
        },
    )
    .parse(input)
}

fn promotion(input: &str) -> IResult<&str, char> {
    alt((
        preceded(
            char('='),
            map(
                satisfy(|c| c.is_ascii_alphabetic() && c != 'O' && c != 'o'),
                |c| c.to_ascii_uppercase(),
            ),
        ),
        piece_letter,
    ))
    .parse(input)
}

fn waiting_suffix(input: &str) -> IResult<&str, (Square, char)> {
    preceded(
        char('&'),
        (
            square,
            preceded(char('='), satisfy(|c| c.is_ascii_alphabetic())),
        ),
    )
    .parse(input)
}

fn waiting_suffixes(mut input: &str) -> IResult<&str, Vec<(Square, char)>> {
    let mut out = Vec::new();
    while input.starts_with('&') {
        let (rest, suffix) = waiting_suffix(input)?;
        out.push(suffix);
        input = rest;
    }
    Ok((input, out))
}

fn coord_move(input: &str) -> IResult<&str, CoordMove> {
    let drop =
        (opt(satisfy(|c| c.is_ascii_alphabetic())), char('@'), square).map(|(letter, _, to)| {
            CoordMove {
                from: to,
                to,
                promotion: None,
                waiting: Vec::new(),
                drop: true,
                drop_letter: letter.map(|c: char| c.to_ascii_uppercase()),
            }
        });
    let step = (
        square,
        square,
        opt(satisfy(|c| c.is_ascii_alphabetic())),
        waiting_suffixes,
    )
        .map(|(from, to, promotion, waiting)| CoordMove {
            from,
            to,
            promotion: promotion.map(|c: char| c.to_ascii_lowercase()),
            waiting,
            drop: false,
            drop_letter: None,
        });
    alt((drop, step)).parse(input)
}

/// Production `gate-suffix` after a piece move: `/H`.
fn piece_gate(input: &str) -> IResult<&str, GateText> {
    map(preceded(char('/'), piece_letter), |letter| GateText {
        letter,
        square: None,
    })
    .parse(input)
}

/// Production `gate-suffix` after castling: `/Ee1`.
fn castling_gate(input: &str) -> IResult<&str, GateText> {
    map(
        preceded(char('/'), (piece_letter, square)),
        |(letter, sq)| GateText {
            letter,
            square: Some(sq),
        },
    )
    .parse(input)
}

fn san_move(input: &str) -> IResult<&str, San> {
    alt((
        map((castle, castling_gate), |(side, gate)| San::Castle {
            side,
            waiting: Vec::new(),
            gate: Some(gate),
        }),
        map((castle, waiting_suffixes), |(side, waiting)| San::Castle {
            side,
            waiting,
            gate: None,
        }),
        map(
            (opt(piece_letter), origin_and_target, piece_gate),
            |(piece, (file, rank, capture, to), gate)| San::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion: None,
                waiting: Vec::new(),
                gate: Some(gate),
            },
        ),
        map(
            (
                opt(piece_letter),
                origin_and_target,
                opt(promotion),
                waiting_suffixes,
            ),
            |(piece, (file, rank, capture, to), promotion, waiting)| San::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion,
                waiting,
                gate: None,
            },
        ),
    ))
    .parse(input)
}

fn suffix_annotation(input: &str) -> IResult<&str, u8> {
    alt((
        value(3, tag("!!")),
        value(4, tag("??")),
        value(5, tag("!?")),
        value(6, tag("?!")),
        value(1, tag("!")),
        value(2, tag("?")),
    ))
    .parse(input)
}

fn null_move(input: &str) -> IResult<&str, AnyMove> {
    value(
        AnyMove::Null,
        alt((tag("--"), tag("Z0"), tag("0000"), tag("@@@@"))),
    )
    .parse(input)
}

type Read = (AnyMove, Option<CheckMark>, Option<u8>);

fn any_move(input: &str) -> IResult<&str, Read> {
    let check = || {
        opt(alt((
            value(CheckMark::Mate, char('#')),
            value(CheckMark::Check, tag("++")),
            value(CheckMark::Check, char('+')),
        )))
    };
    alt((
        map((null_move, opt(suffix_annotation)), |(m, s)| (m, None, s)),
        map(
            terminated((coord_move, check(), opt(suffix_annotation)), eof),
            |(m, c, s)| (AnyMove::Coord(m), c, s),
        ),
        map((san_move, check(), opt(suffix_annotation)), |(m, c, s)| {
            (AnyMove::San(m), c, s)
        }),
    ))
    .parse(input)
}

/// A whole token as production `any-move`.
pub fn parse_any_move(text: &str) -> Option<Read> {
    all_consuming(any_move).parse(text).ok().map(|(_, m)| m)
}

/// A whole token as production `coord-move`.
pub fn parse_coord(text: &str) -> Option<CoordMove> {
    all_consuming(coord_move).parse(text).ok().map(|(_, m)| m)
}

/// Production `tag-pair`: `[Name "value"]`, with `\"` and `\\` escapes.
#[allow(clippy::type_complexity)]
pub fn tag_pair(input: &str) -> IResult<&str, (&str, Cow<'_, str>)> {
    let (rest, _) = (char('['), opt(take_while1(char::is_whitespace))).parse(input)?;
    let (rest, name) = take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_').parse(rest)?;
    let (rest, _) = (opt(take_while1(char::is_whitespace)), char('"')).parse(rest)?;
    let mut value = String::new();
    let mut escaped = false;
    let mut chars = rest.char_indices();
    let end = loop {
        match chars.next() {
            None => {
                return Err(nom::Err::Error(nom::error::Error::new(
                    rest,
                    nom::error::ErrorKind::Char,
                )));
            }
            Some((i, '"')) => break i + 1,
            Some((_, '\\')) => {
                escaped = true;
                match chars.next() {
                    Some((_, c @ ('"' | '\\'))) => value.push(c),
                    Some((_, c)) => {
                        value.push('\\');
                        value.push(c);
                    }
                    None => value.push('\\'),
                }
            }
            Some((_, c)) => value.push(c),
        }
    };
    let value = if escaped {
        Cow::Owned(value)
    } else {
        Cow::Borrowed(&rest[..end - 1])
    };
    let (rest, _) = (opt(take_while1(char::is_whitespace)), char(']')).parse(&rest[end..])?;
    Ok((rest, (name, value)))
}

/// Production `result`, standard forms (the reader compares tokens byte
/// by byte, `whole_result`).
pub fn result_marker(input: &str) -> IResult<&str, &str> {
    alt((tag("1-0"), tag("0-1"), tag("1/2-1/2"), tag("*"))).parse(input)
}

/// Production `move-number`: digits and then dots or an ellipsis (`12.`,
/// `12...`, `12…`, `...`, `…`), or digits alone (`12`). The reader uses
/// its byte form, `move_number_prefix`.
pub fn move_number(input: &str) -> IResult<&str, &str> {
    alt((
        recognize((
            take_while(|c: char| c.is_ascii_digit()),
            alt((take_while1(|c| c == '.'), tag("…"))),
            take_while(|c| c == '.' || c == '…'),
        )),
        take_while1(|c: char| c.is_ascii_digit()),
    ))
    .parse(input)
}

/// Production `nag`: `$` and a number 0..255. The reader uses its byte
/// form, `nag_prefix`.
pub fn nag(input: &str) -> IResult<&str, u8> {
    let (rest, digits) = preceded(char('$'), digit1).parse(input)?;
    match digits.parse::<u8>() {
        Ok(n) => Ok((rest, n)),
        Err(_) => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Digit,
        ))),
    }
}
