//! Squares in text: a file letter `a`..`p` and a rank number `1`..`16`
//! (docs/notation.md §2; grammar production `square`).

use nom::IResult;
use nom::Parser;
use nom::character::complete::{digit1, satisfy};
use nom::combinator::map_opt;

use crate::rules::Square;

/// Appends `sq` as written (`e4`, `l10`): what `Display` gives, without
/// the formatting machinery, for writers that write a square per move.
pub fn push_square(out: &mut String, sq: Square) {
    out.push((b'a' + sq.file()) as char);
    let rank = sq.rank() + 1;
    if rank >= 10 {
        out.push('1');
    }
    out.push((b'0' + rank % 10) as char);
}

/// Parses production `square` (`e4`, `l8`, `j10`, `p16`).
///
/// ```
/// use xpgn::notation::square::square;
/// let (rest, sq) = square("j10j9").unwrap();
/// assert_eq!((sq.file(), sq.rank(), rest), (9, 9, "j9"));
/// ```
///
/// # Errors
/// A nom error if the input does not start with a square.
pub fn square(input: &str) -> IResult<&str, Square> {
    map_opt(
        (satisfy(|c| ('a'..='p').contains(&c)), digit1),
        |(f, digits): (char, &str)| {
            let rank: u8 = digits.parse().ok()?;
            if !(1..=16).contains(&rank) || digits.starts_with('0') {
                return None;
            }
            Some(Square::new(f as u8 - b'a', rank - 1))
        },
    )
    .parse(input)
}

/// Parses a whole string as one square.
pub fn parse_square(text: &str) -> Option<Square> {
    match square(text) {
        Ok(("", sq)) => Some(sq),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushed_squares_are_displayed_squares() {
        for file in 0..16 {
            for rank in 0..16 {
                let sq = Square::new(file, rank);
                let mut out = String::new();
                push_square(&mut out, sq);
                assert_eq!(out, sq.to_string());
            }
        }
    }

    #[test]
    fn squares_up_to_16x16() {
        assert_eq!(parse_square("a1"), Some(Square::new(0, 0)));
        assert_eq!(parse_square("p16"), Some(Square::new(15, 15)));
        assert_eq!(parse_square("l8").map(|s| s.to_string()), Some("l8".into()));
        for bad in ["q1", "a0", "a17", "a01", "e", "4e", ""] {
            assert_eq!(parse_square(bad), None, "{bad}");
        }
    }
}
