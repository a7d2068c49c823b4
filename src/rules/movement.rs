//! Movement atoms: how a piece type moves, as data, and the Betza notation
//! that writes them down.
//!
//! Every non-pawn piece of every variant is a union of leaps and rides:
//! a knight leaps (1,2); a rook rides (1,0) without limit; the Counsellor
//! Chess Elephant, which cannot jump (R-CO-1), rides diagonally at most two
//! squares; the Chaturanga Elephant leaps (2,2) over whatever stands between
//! (R-CH-2). An atom may be restricted to moves to an empty square or to
//! captures, and its offsets need not be symmetric: they are written as
//! seen by White (rank numbers grow forward) and mirrored for Black. Pawns
//! are described by [`crate::rules::variant::PawnRules`].
//!
//! [`Movement::from_betza`] reads the Betza notation of these atoms
//! (`docs/variants.md` has the grammar): `N` knight, `R` rook, `B2` a
//! bishop of range two, `FfW` Makruk's Khon, `mW` a wazir that cannot
//! capture.

/// Whether an atom moves, captures, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Moves to an empty square and captures (Betza: no `m`/`c`).
    #[default]
    Any,
    /// Only to an empty square (Betza `m`).
    MoveOnly,
    /// Only captures (Betza `c`).
    CaptureOnly,
}

impl Mode {
    /// Whether a move to an empty square is allowed.
    pub fn moves(self) -> bool {
        self != Mode::CaptureOnly
    }
    /// Whether a capture is allowed (and so whether it attacks).
    pub fn captures(self) -> bool {
        self != Mode::MoveOnly
    }
}

/// One way of moving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// Jumps to `(file, rank)` offsets (White's view), whatever stands between.
    Leap {
        /// The offsets.
        offsets: Vec<(i8, i8)>,
        /// Moves, captures or both.
        mode: Mode,
    },
    /// Slides step by step along each direction through empty squares,
    /// at most `max` steps (`None`: to the edge). A rider limited to two
    /// steps is the lame (non-jumping) two-square leaper.
    Ride {
        /// Steps (White's view).
        directions: Vec<(i8, i8)>,
        /// Longest slide, if limited.
        max: Option<u8>,
        /// Moves, captures or both.
        mode: Mode,
    },
}

impl Atom {
    /// A leap that moves and captures.
    pub fn leap(offsets: Vec<(i8, i8)>) -> Atom {
        Atom::Leap {
            offsets,
            mode: Mode::Any,
        }
    }
    /// A ride that moves and captures.
    pub fn ride(directions: Vec<(i8, i8)>, max: Option<u8>) -> Atom {
        Atom::Ride {
            directions,
            max,
            mode: Mode::Any,
        }
    }
    /// Its mode.
    pub fn mode(&self) -> Mode {
        match self {
            Atom::Leap { mode, .. } | Atom::Ride { mode, .. } => *mode,
        }
    }
}

/// The moves of a piece type: a union of atoms.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Movement(pub Vec<Atom>);

/// The eight sign variants of `(a, b)` and `(b, a)`, without repeats.
pub fn symmetric(a: i8, b: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// The orthogonal unit steps.
pub fn orthogonal() -> Vec<(i8, i8)> {
    symmetric(1, 0)
}

/// The diagonal unit steps.
pub fn diagonal() -> Vec<(i8, i8)> {
    symmetric(1, 1)
}

impl Movement {
    /// No moves at all (used for pawns, which move by their own rules).
    pub fn none() -> Movement {
        Movement(Vec::new())
    }
    /// One square in any direction (king, Counsellor, Fool).
    pub fn king() -> Movement {
        Movement(vec![Atom::leap([orthogonal(), diagonal()].concat())])
    }
    /// The knight's (1,2) leap.
    pub fn knight() -> Movement {
        Movement(vec![Atom::leap(symmetric(1, 2))])
    }
    /// One square diagonally (Firzan, Chaturanga Councelor).
    pub fn ferz() -> Movement {
        Movement(vec![Atom::leap(diagonal())])
    }
    /// Exactly two squares diagonally, jumping (Chaturanga Elephant, R-CH-2).
    pub fn alfil() -> Movement {
        Movement(vec![Atom::leap(symmetric(2, 2))])
    }
    /// Orthogonal rider.
    pub fn rook() -> Movement {
        Movement(vec![Atom::ride(orthogonal(), None)])
    }
    /// Diagonal rider.
    pub fn bishop() -> Movement {
        Movement(vec![Atom::ride(diagonal(), None)])
    }
    /// Diagonal rider limited to `n` steps; with `n = 2`, the Elephant of
    /// R-CO-1 that cannot jump.
    pub fn limited_bishop(n: u8) -> Movement {
        Movement(vec![Atom::ride(diagonal(), Some(n))])
    }
    /// The union of two movements (a compound piece).
    pub fn and(mut self, other: Movement) -> Movement {
        self.0.extend(other.0);
        self
    }

    /// Whether the moves differ for White and Black beyond the mirror
    /// image (some atom is not symmetric forward/backward).
    pub fn is_directional(&self) -> bool {
        self.0.iter().any(|a| {
            let offs = match a {
                Atom::Leap { offsets, .. } => offsets,
                Atom::Ride { directions, .. } => directions,
            };
            offs.iter().any(|&(f, r)| !offs.contains(&(f, -r)))
        })
    }

    /// Reads a Betza string (`docs/variants.md`, "Betza notation").
    ///
    /// ```
    /// use xpgn::rules::{Atom, Movement};
    /// let khon = Movement::from_betza("FfW").unwrap();
    /// assert_eq!(khon.0[1], Atom::leap(vec![(0, 1)]));
    /// assert_eq!(Movement::from_betza("Q").unwrap(), Movement::rook().and(Movement::bishop()));
    /// assert!(Movement::from_betza("pR").is_err());
    /// ```
    ///
    /// # Errors
    /// [`BetzaError`] with the column of the first character that cannot
    /// be read and why.
    pub fn from_betza(text: &str) -> Result<Movement, BetzaError> {
        parse_betza(text)
    }
}

/// A Betza string that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Betza `{text}`, column {column}: {reason}")]
pub struct BetzaError {
    /// The whole string.
    pub text: String,
    /// 1-based column (in characters) of the fault.
    pub column: usize,
    /// Why.
    pub reason: String,
}

/// The basic leaps of Betza's notation, in the order [`symmetric`] takes.
fn base_leap(c: char) -> Option<(i8, i8)> {
    Some(match c {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' | 'L' => (1, 3),
        'Z' | 'J' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

/// What a modifier letter Betza defines but xpgn does not do means.
fn unsupported_modifier(c: char) -> Option<&'static str> {
    Some(match c {
        'n' => {
            "`n` (lame, non-jumping leaper) is not supported; a limited rider such as `B2` is the non-jumping two-square diagonal mover"
        }
        'j' => "`j` (jumping-only) is not supported",
        'p' => "`p` (hopper, as the cannon) is not supported",
        'g' => "`g` (grasshopper) is not supported",
        'i' => "`i` (initial move only) is not supported",
        'a' | 'y' | 'o' | 'z' | 'q' | 'e' | 't' | 'u' | 'x' | 'd' | 'k' | 'h' | 'w' => {
            "this XBetza modifier is not supported"
        }
        _ => return None,
    })
}

fn is_direction(c: char) -> bool {
    matches!(c, 'f' | 'b' | 'l' | 'r' | 'v' | 's')
}

/// Whether offset `(x, y)` (White's view) lies in direction `d`.
fn in_direction(d: char, (x, y): (i8, i8)) -> bool {
    let oblique = x != 0 && y != 0 && x.abs() != y.abs();
    match d {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' if oblique => y.abs() > x.abs(),
        'v' => x == 0 || x.abs() == y.abs(),
        's' if oblique => x.abs() > y.abs(),
        's' => y == 0 || x.abs() == y.abs(),
        _ => false,
    }
}

/// The offsets of `all` a group of direction letters selects: each letter,
/// or each pair such as `fl` (forward-left) or `ff` (the narrow forward
/// moves of an oblique leaper), where the pair selects anything; a pair that
/// selects nothing (`fs` on a wazir) means both its letters.
fn select(dirs: &[char], all: &[(i8, i8)]) -> Vec<(i8, i8)> {
    if dirs.is_empty() {
        return all.to_vec();
    }
    let mut keep = vec![false; all.len()];
    let mut i = 0;
    while i < dirs.len() {
        let a = dirs[i];
        if let Some(&b) = dirs.get(i + 1) {
            let second = |o: (i8, i8)| {
                if a == b {
                    // Doubled: f/b with v (narrow), l/r with s (wide).
                    in_direction(if matches!(a, 'f' | 'b') { 'v' } else { 's' }, o)
                } else {
                    in_direction(b, o)
                }
            };
            let both: Vec<bool> = all
                .iter()
                .map(|&o| in_direction(a, o) && second(o))
                .collect();
            if both.iter().any(|&x| x) {
                for (k, x) in keep.iter_mut().zip(both) {
                    *k |= x;
                }
                i += 2;
                continue;
            }
        }
        for (k, &o) in keep.iter_mut().zip(all) {
            *k |= in_direction(a, o);
        }
        i += 1;
    }
    all.iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(&o, _)| o)
        .collect()
}

/// The longest Betza string read, in bytes: every move of a piece on a
/// 16x16 board is written in far fewer, and a longer one would only make
/// the tables big (a string of a million atoms took gigabytes).
pub const MAX_BETZA_LEN: usize = 128;

/// `betza = { group } ; group = { modifier } atom [ atom-again ] [ range ]`.
fn parse_betza(text: &str) -> Result<Movement, BetzaError> {
    if text.len() > MAX_BETZA_LEN {
        return Err(BetzaError {
            text: text.chars().take(20).chain("...".chars()).collect(),
            column: MAX_BETZA_LEN + 1,
            reason: format!(
                "{} bytes long; xpgn reads Betza strings of at most {MAX_BETZA_LEN}",
                text.len()
            ),
        });
    }
    let chars: Vec<char> = text.chars().collect();
    let err = |i: usize, reason: String| BetzaError {
        text: text.to_string(),
        column: i + 1,
        reason,
    };
    if chars.is_empty() {
        return Err(err(0, "empty: a piece needs at least one atom".into()));
    }
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let mut dirs = Vec::new();
        let (mut m, mut c) = (false, false);
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            let ch = chars[i];
            match ch {
                'm' => m = true,
                'c' => c = true,
                _ if is_direction(ch) => dirs.push(ch),
                _ => {
                    return Err(err(
                        i,
                        unsupported_modifier(ch)
                            .map(str::to_string)
                            .unwrap_or_else(|| format!("`{ch}` is not a Betza modifier")),
                    ));
                }
            }
            i += 1;
        }
        let Some(&letter) = chars.get(i) else {
            return Err(err(i, "modifiers without an atom after them".into()));
        };
        let start = i;
        i += 1;
        // The parts of the atom: (base leap, is a rider by its letter).
        let parts: Vec<((i8, i8), bool)> = match letter {
            'K' => vec![((1, 0), false), ((1, 1), false)],
            'R' => vec![((1, 0), true)],
            'B' => vec![((1, 1), true)],
            'Q' => vec![((1, 0), true), ((1, 1), true)],
            _ => match base_leap(letter) {
                Some(b) => vec![(b, false)],
                None => {
                    return Err(err(
                        start,
                        format!("`{letter}` is not a Betza atom (W F D N A H C Z G K R B Q)"),
                    ));
                }
            },
        };
        let mut rider = false;
        if chars.get(i) == Some(&letter) && base_leap(letter).is_some() {
            rider = true;
            i += 1;
        }
        let digits: String = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let mut range = None;
        if !digits.is_empty() {
            let n: u32 = digits
                .parse()
                .map_err(|_| err(i, format!("range `{digits}` is not a number")))?;
            if n > 15 {
                return Err(err(i, format!("range {n} is longer than any board")));
            }
            range = Some(n as u8);
            i += digits.chars().count();
        }
        let mode = match (m, c) {
            (true, false) => Mode::MoveOnly,
            (false, true) => Mode::CaptureOnly,
            _ => Mode::Any,
        };
        let mut leaps = Vec::new();
        for ((a, b), letter_rides) in parts {
            let offsets = select(&dirs, &symmetric(a, b));
            if offsets.is_empty() {
                let d: String = dirs.iter().collect();
                return Err(err(
                    start,
                    format!("directions `{d}` select no move of `{letter}`"),
                ));
            }
            // A range of 0 means unlimited; 1 a single leap.
            let (ride, max) = match range {
                Some(0) => (true, None),
                Some(1) => (false, None),
                Some(n) => (true, Some(n)),
                None => (rider || letter_rides, None),
            };
            if ride {
                atoms.push(Atom::Ride {
                    directions: offsets,
                    max,
                    mode,
                });
            } else {
                leaps.extend(offsets);
            }
        }
        if !leaps.is_empty() {
            atoms.push(Atom::Leap {
                offsets: leaps,
                mode,
            });
        }
    }
    Ok(Movement(atoms))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> Movement {
        Movement::from_betza(s).unwrap()
    }

    #[test]
    fn a_betza_string_longer_than_the_limit_is_refused_unread() {
        let long = "N".repeat(1_000_000);
        let e = Movement::from_betza(&long).unwrap_err();
        assert_eq!(e.column, MAX_BETZA_LEN + 1);
        assert_eq!(
            e.to_string(),
            "Betza `NNNNNNNNNNNNNNNNNNNN...`, column 129: 1000000 bytes long; xpgn reads Betza strings of at most 128"
        );
        assert_eq!(
            Movement::from_betza(&"W".repeat(MAX_BETZA_LEN)).map(|m| m.0.len()),
            Ok(64)
        );
    }

    #[test]
    fn symmetric_offsets_have_no_repeats() {
        assert_eq!(symmetric(1, 2).len(), 8);
        assert_eq!(symmetric(1, 1).len(), 4);
        assert_eq!(symmetric(2, 0).len(), 4);
    }

    #[test]
    fn queen_is_rook_and_bishop() {
        let q = Movement::rook().and(Movement::bishop());
        assert_eq!(q.0.len(), 2);
        assert_eq!(b("Q"), q);
        assert_eq!(b("WWFF"), q);
        assert_eq!(b("RB"), q);
    }

    #[test]
    fn the_builtin_pieces_in_betza() {
        assert_eq!(b("K"), Movement::king());
        assert_eq!(b("N"), Movement::knight());
        assert_eq!(b("F"), Movement::ferz());
        assert_eq!(b("A"), Movement::alfil());
        assert_eq!(b("B2"), Movement::limited_bishop(2));
        assert_eq!(b("FA"), Movement::ferz().and(Movement::alfil()));
        assert_eq!(b("RN"), Movement::rook().and(Movement::knight()));
        assert_eq!(b("NK"), Movement::knight().and(Movement::king()));
    }

    #[test]
    fn riders_ranges_and_unusual_leapers() {
        assert_eq!(b("NN"), Movement(vec![Atom::ride(symmetric(1, 2), None)]));
        assert_eq!(b("W0"), Movement::rook());
        assert_eq!(b("R4"), Movement(vec![Atom::ride(orthogonal(), Some(4))]));
        assert_eq!(b("W1"), Movement(vec![Atom::leap(orthogonal())]));
        assert_eq!(b("C").0, vec![Atom::leap(symmetric(1, 3))]);
        assert_eq!(b("Z").0, vec![Atom::leap(symmetric(2, 3))]);
        assert_eq!(b("G").0, vec![Atom::leap(symmetric(3, 3))]);
        assert_eq!(b("H").0, vec![Atom::leap(symmetric(3, 0))]);
    }

    #[test]
    fn move_only_and_capture_only() {
        assert_eq!(
            b("mWcF").0,
            vec![
                Atom::Leap {
                    offsets: orthogonal(),
                    mode: Mode::MoveOnly
                },
                Atom::Leap {
                    offsets: diagonal(),
                    mode: Mode::CaptureOnly
                }
            ]
        );
        assert_eq!(b("mcR"), Movement::rook());
    }

    #[test]
    fn directions() {
        let offs = |s: &str| match &b(s).0[0] {
            Atom::Leap { offsets, .. }
            | Atom::Ride {
                directions: offsets,
                ..
            } => {
                let mut o = offsets.clone();
                o.sort();
                o
            }
        };
        assert_eq!(offs("fW"), vec![(0, 1)]);
        assert_eq!(offs("bW"), vec![(0, -1)]);
        assert_eq!(offs("vW"), vec![(0, -1), (0, 1)]);
        assert_eq!(offs("sW"), vec![(-1, 0), (1, 0)]);
        assert_eq!(offs("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(offs("flW"), vec![(-1, 0), (0, 1)]);
        assert_eq!(offs("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(offs("flF"), vec![(-1, 1)]);
        assert_eq!(offs("fN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(offs("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(offs("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(offs("flN"), vec![(-2, 1), (-1, 2)]);
        assert_eq!(offs("vN"), vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]);
        assert_eq!(offs("fR"), vec![(0, 1)]);
        assert!(b("fR").is_directional());
        assert!(!b("vR").is_directional());
        assert!(!b("sN").is_directional());
    }

    #[test]
    fn refusals_name_the_column_and_reason() {
        let e = |s: &str| Movement::from_betza(s).unwrap_err().to_string();
        assert_eq!(
            e("RpR"),
            "Betza `RpR`, column 2: `p` (hopper, as the cannon) is not supported"
        );
        assert_eq!(
            e("X"),
            "Betza `X`, column 1: `X` is not a Betza atom (W F D N A H C Z G K R B Q)"
        );
        assert_eq!(
            e("fm"),
            "Betza `fm`, column 3: modifiers without an atom after them"
        );
        assert_eq!(
            e(""),
            "Betza ``, column 1: empty: a piece needs at least one atom"
        );
        assert_eq!(
            e("N99"),
            "Betza `N99`, column 2: range 99 is longer than any board"
        );
        assert!(e("nN").contains("`n` (lame"));
        assert!(e("%").contains("`%` is not a Betza atom"));
    }
}
