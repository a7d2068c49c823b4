//! Squares in text: a file letter `a`..`p` and a rank number `1`..`16`
//! (docs/notation.md §2; grammar production `square`).

use nom::IResult;

use crate::rules::Square;

/// Appends `sq` as written (`e4`, `l10`): what `Display` gives, without
/// the formatting machinery, for writers that write a square per move.
#[inline]
pub fn push_square(out: &mut String, sq: Square) {
    out.push((b'a' + sq.file()) as char);
    let rank = sq.rank() + 1;
    if rank >= 10 {
        out.push('1');
    }
    out.push((b'0' + rank % 10) as char);
}

/// Production `file`: a letter `a`..`p` at the start of `text`, as its
/// index (0 = a).
#[inline(always)]
pub fn file_letter(text: &[u8]) -> Option<u8> {
    match text.first() {
        Some(&c @ b'a'..=b'p') => Some(c - b'a'),
        _ => None,
    }
}

/// Production `rank`: the digits at the start of `text`, all of them,
/// read as a rank `1`..`16` without a leading zero: `Ok` with the rank
/// (0 = rank 1) and the digits' length, `Ok(None)` where no digit
/// starts `text`, `Err` where digits stand that are no rank (`0`, `17`,
/// `01`), which no production takes.
#[inline(always)]
#[allow(clippy::result_unit_err)]
pub fn rank_number(text: &[u8]) -> Result<Option<(u8, usize)>, ()> {
    match text {
        // One digit, as nearly every rank is written.
        [d @ b'1'..=b'9', rest @ ..] if !rest.first().is_some_and(u8::is_ascii_digit) => {
            Ok(Some((d - b'1', 1)))
        }
        [b'0'..=b'9', ..] => {
            let len = text.iter().take_while(|b| b.is_ascii_digit()).count();
            match text[..len] {
                [b'1', d @ b'0'..=b'6'] => Ok(Some((9 + d - b'0', 2))),
                _ => Err(()),
            }
        }
        _ => Ok(None),
    }
}

/// Production `square` at the start of `text`: the square and its
/// length. The one reader of a square: the move readers and
/// [`square`] use it.
#[inline(always)]
pub fn square_at(text: &[u8]) -> Option<(Square, usize)> {
    let file = file_letter(text)?;
    let (rank, len) = rank_number(&text[1..]).ok()??;
    Some((Square::new(file, rank), 1 + len))
}

/// Parses production `square` (`e4`, `l8`, `j10`, `p16`) with
/// [`square_at`], for the position-string grammar's combinators.
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
    match square_at(input.as_bytes()) {
        Some((sq, len)) => Ok((&input[len..], sq)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Satisfy,
        ))),
    }
}

/// Parses a whole string as one square.
pub fn parse_square(text: &str) -> Option<Square> {
    match square_at(text.as_bytes()) {
        Some((sq, len)) if len == text.len() => Some(sq),
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
