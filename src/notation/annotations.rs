//! Commands in comments, as online servers, clocks and engines write
//! them after a move (docs/notation.md §14, ruling R-A-1): the clock
//! `[%clk 0:03:00]` (the time left after the move), the time the move
//! took `[%emt 0:00:05]`, an evaluation `[%eval 0.25]` (in pawns, from
//! White's side; `[%eval #-3]`: Black mates in 3; a search depth may
//! follow, `[%eval 0.25,18]`), arrows `[%cal Ge2e4,Rd8d1]` and coloured
//! squares `[%csl Gd4,Yh7]` (colours `R`, `G`, `Y`, `B`).
//!
//! The comment's text is kept as written; what its commands say is read
//! from it ([`read`]). A command of these five names that cannot be read
//! stays text, and the reader warns of it ([`malformed`]). Commands of
//! other names (`[%evp ...]`, `[%mdl ...]`) are text.

use crate::rules::{Color, Registry, Square};

use super::game::Game;
use super::replay::{resolve_node, start_position};
use super::san::write_san;
use super::square::square_at;

/// What the commands of a move's comments say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// `[%clk]`: the mover's time left after the move, in milliseconds.
    pub clock_ms: Option<u64>,
    /// `[%emt]`: the time the move took, in milliseconds.
    pub elapsed_ms: Option<u64>,
    /// `[%eval]`.
    pub eval: Option<Eval>,
    /// `[%cal]`: arrows.
    pub arrows: Vec<Arrow>,
    /// `[%csl]`: coloured squares.
    pub squares: Vec<Marked>,
}

impl Annotations {
    /// Whether no command was read.
    pub fn is_empty(&self) -> bool {
        *self == Annotations::default()
    }
}

/// An evaluation, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    /// Centipawns or a mate.
    pub score: Score,
    /// The search depth, when given (`[%eval 0.25,18]`).
    pub depth: Option<u32>,
}

/// The score of an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Hundredths of a pawn, positive when White stands better.
    Centipawns(i32),
    /// Mate in this many moves: positive when White mates, negative when
    /// Black does.
    Mate(i32),
}

/// The colour of an arrow or a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `R`.
    Red,
    /// `G`.
    Green,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl Mark {
    fn of(letter: u8) -> Option<Mark> {
        match letter.to_ascii_uppercase() {
            b'R' => Some(Mark::Red),
            b'G' => Some(Mark::Green),
            b'Y' => Some(Mark::Yellow),
            b'B' => Some(Mark::Blue),
            _ => None,
        }
    }

    /// Its name in JSON: `red`, `green`, `yellow`, `blue`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Red => "red",
            Mark::Green => "green",
            Mark::Yellow => "yellow",
            Mark::Blue => "blue",
        }
    }
}

/// An arrow from a square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// Its colour.
    pub color: Mark,
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
}

/// A coloured square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marked {
    /// Its colour.
    pub color: Mark,
    /// The square.
    pub square: Square,
}

/// A command that cannot be read: where it is in the comment (byte
/// offset), how long, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// Byte offset of its `[` in the comment's text.
    pub offset: usize,
    /// The command as written.
    pub text: String,
    /// Why it cannot be read.
    pub why: String,
}

impl Malformed {
    /// The warning's message: `` `[%clk 1:7]`: not a clock H:MM:SS;
    /// kept as text (R-A-1) ``.
    pub fn message(&self) -> String {
        format!(
            "`{}`: {}; kept as text (R-A-1)",
            super::printable::printable(&self.text, 60),
            self.why
        )
    }
}

/// The names read.
const NAMES: [&str; 5] = ["clk", "emt", "eval", "cal", "csl"];

/// The commands of a comment: (offset of `[`, name, argument, whole
/// command); a command of one of [`NAMES`] without its closing `]` gives
/// an argument of `None`.
fn commands(text: &str) -> impl Iterator<Item = (usize, &str, Option<&str>, &str)> {
    let bytes = text.as_bytes();
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            // `[` then `%`: a single-byte search, as most comments of
            // online games hold one or two commands.
            let at = from + find_byte(b'[', &bytes[from..])?;
            from = at + 1;
            if bytes.get(at + 1) != Some(&b'%') {
                continue;
            }
            let body = &text[at + 2..];
            let name_len = body
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            let name = &body[..name_len];
            from = at + 2;
            if !NAMES.contains(&name) {
                continue;
            }
            let rest = &body[name_len..];
            return Some(match find_byte(b']', rest.as_bytes()) {
                Some(end) => {
                    from = at + 2 + name_len + end + 1;
                    (at, name, Some(rest[..end].trim()), &text[at..from])
                }
                None => {
                    let whole = text[at..].lines().next().unwrap_or("");
                    from = text.len();
                    (at, name, None, whole)
                }
            });
        }
    })
}

/// The first `needle` in `bytes`: in a short text (a comment of an
/// online game, `[%clk 0:03:00]`, is a score of bytes) byte by byte,
/// as `memchr`'s set-up costs more than the search there; in a longer
/// one with `memchr`.
#[inline]
fn find_byte(needle: u8, bytes: &[u8]) -> Option<usize> {
    if bytes.len() < 32 {
        bytes.iter().position(|&b| b == needle)
    } else {
        memchr::memchr(needle, bytes)
    }
}

/// A clock `H:MM:SS`, `H:MM:SS.s` (or `MM:SS`), or seconds alone
/// (`0.656`, as FICS writes `[%emt]`), in milliseconds.
fn clock(text: &str) -> Result<u64, String> {
    let bad = || format!("not a time H:MM:SS (or seconds): `{text}`");
    // Read byte by byte, with no list built and no search: a clock
    // stands after nearly every move of an online game.
    let bytes = text.as_bytes();
    let mut fields = [0u64; 3];
    let mut lens = [0usize; 3];
    let mut count = 0;
    let mut i = 0;
    loop {
        let (value, len) = digits_at(&bytes[i..]).ok_or_else(bad)?;
        if count == 3 {
            return Err(bad());
        }
        (fields[count], lens[count]) = (value, len);
        count += 1;
        i += len;
        match bytes.get(i) {
            Some(b':') => i += 1,
            _ => break,
        }
    }
    let frac_ms = match bytes.get(i) {
        None => 0,
        Some(b'.') => match digits_at(&bytes[i + 1..]) {
            Some((f, n)) if n <= 3 && i + 1 + n == bytes.len() => f * 10u64.pow(3 - n as u32),
            _ => return Err(bad()),
        },
        Some(_) => return Err(bad()),
    };
    if count == 1 {
        // Seconds alone.
        return fields[0]
            .checked_mul(1000)
            .and_then(|s| s.checked_add(frac_ms))
            .ok_or_else(bad);
    }
    let (h, m, s) = match count {
        3 => (fields[0], fields[1], fields[2]),
        _ => (0, fields[0], fields[1]),
    };
    if s >= 60 || (count == 3 && m >= 60) || lens[count - 1] != 2 {
        return Err(bad());
    }
    // Minutes are unbounded in `MM:SS`: every step is checked.
    h.checked_mul(3_600_000)
        .zip(m.checked_mul(60_000))
        .and_then(|(h, m)| h.checked_add(m)?.checked_add(s * 1000 + frac_ms))
        .ok_or_else(bad)
}

/// Whether `comment` is one clock command and nothing else, in its usual
/// form ([`plain_clock_len`]), white space around it: a form [`clock`]
/// always reads.
pub(crate) fn is_plain_clock(comment: &[u8]) -> bool {
    let clock = comment.trim_ascii();
    plain_clock_len(clock) == Some(clock.len())
}

/// The length of the clock command at the start of `bytes` in its usual
/// form, `[%clk H:MM:SS]` (hours of 1 to 6 digits, minutes and seconds
/// under 60, a fraction of 1 to 3 digits allowed); `None` when it is not
/// one.
pub(crate) fn plain_clock_len(bytes: &[u8]) -> Option<usize> {
    const OPEN: &[u8] = b"[%clk ";
    let time = bytes.strip_prefix(OPEN)?;
    // Seven digits at most are looked at: a seventh is one too many.
    let hours = time
        .iter()
        .take(7)
        .take_while(|b| b.is_ascii_digit())
        .count();
    let sixty = |tens: u8, units: u8| matches!((tens, units), (b'0'..=b'5', b'0'..=b'9'));
    let [b':', m1, m2, b':', s1, s2, after @ ..] = &time[hours..] else {
        return None;
    };
    if !(1..=6).contains(&hours) || !sixty(*m1, *m2) || !sixty(*s1, *s2) {
        return None;
    }
    let fraction = match after {
        [b'.', digits @ ..] => {
            let n = digits
                .iter()
                .take(4)
                .take_while(|b| b.is_ascii_digit())
                .count();
            if !(1..=3).contains(&n) {
                return None;
            }
            n + 1
        }
        _ => 0,
    };
    (after.get(fraction) == Some(&b']')).then_some(OPEN.len() + hours + 6 + fraction + 1)
}

/// The value and length of the run of ASCII digits that starts `bytes`;
/// `None` if there is none or it is past `u64`.
fn digits_at(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    let mut len = 0;
    while let Some(&b) = bytes.get(len).filter(|b| b.is_ascii_digit()) {
        value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
        len += 1;
    }
    (len > 0).then_some((value, len))
}

/// An evaluation: `0.25`, `-1.5`, `+3`, `#4`, `#-2`, each with an optional
/// `,depth`.
fn eval(text: &str) -> Result<Eval, String> {
    let bad = || format!("not an evaluation (pawns such as `0.25`, or a mate `#-3`): `{text}`");
    let (score, depth) = match text.split_once(',') {
        Some((s, d)) => (s.trim(), Some(d.trim().parse::<u32>().map_err(|_| bad())?)),
        None => (text, None),
    };
    let signed_digits = |s: &str| {
        let s = s.strip_prefix(['+', '-']).unwrap_or(s);
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
    };
    let score = if let Some(mate) = score.strip_prefix('#') {
        if !signed_digits(mate) {
            return Err(bad());
        }
        Score::Mate(mate.parse::<i32>().map_err(|_| bad())?)
    } else {
        let (int, frac) = score.split_once('.').unwrap_or((score, "0"));
        let int_ok = signed_digits(int) || matches!(int, "" | "+" | "-");
        if !int_ok || frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let pawns: f64 = score.parse().map_err(|_| bad())?;
        let cp = (pawns * 100.0).round();
        if !cp.is_finite() || cp.abs() > 1e9 {
            return Err(bad());
        }
        Score::Centipawns(cp as i32)
    };
    Ok(Eval { score, depth })
}

/// The items of `[%cal]` (`Ge2e4`) or `[%csl]` (`Gd4`), comma-separated.
fn marks<T>(
    text: &str,
    what: &str,
    read: impl Fn(Mark, &[u8]) -> Option<T>,
) -> Result<Vec<T>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let b = item.as_bytes();
            Mark::of(b[0])
                .and_then(|color| read(color, &b[1..]))
                .ok_or_else(|| {
                    format!("`{item}` is not {what} (a colour R, G, Y or B, then squares)")
                })
        })
        .collect()
}

fn arrow(color: Mark, b: &[u8]) -> Option<Arrow> {
    let (from, n) = square_at(b)?;
    let (to, m) = square_at(&b[n..])?;
    (n + m == b.len()).then_some(Arrow { color, from, to })
}

fn marked(color: Mark, b: &[u8]) -> Option<Marked> {
    let (square, n) = square_at(b)?;
    (n == b.len()).then_some(Marked { color, square })
}

/// Reads one command into `into`.
fn apply(into: &mut Annotations, name: &str, arg: Option<&str>) -> Result<(), String> {
    let Some(arg) = arg else {
        return Err("no `]` closes it".into());
    };
    match name {
        "clk" => into.clock_ms = Some(clock(arg)?),
        "emt" => into.elapsed_ms = Some(clock(arg)?),
        "eval" => into.eval = Some(eval(arg)?),
        "cal" => into
            .arrows
            .extend(marks(arg, "an arrow such as Ge2e4", arrow)?),
        "csl" => into
            .squares
            .extend(marks(arg, "a square such as Gd4", marked)?),
        _ => {}
    }
    Ok(())
}

/// What the commands of `comments` (a move's, in order) say; commands
/// that cannot be read are left out (a later clock or evaluation stands
/// over an earlier one; arrows and squares add up).
pub fn read<S: AsRef<str>>(comments: &[S]) -> Annotations {
    let mut out = Annotations::default();
    for c in comments {
        read_into(&mut out, c.as_ref());
    }
    out
}

/// Adds what the commands of `comment`, the next comment of a move, say
/// to `out`, as [`read`] does comment after comment.
pub fn read_into(out: &mut Annotations, comment: &str) {
    // The comment of nearly every move of an online game, read without
    // the general search and its list of what each command says.
    let trimmed = comment.trim_ascii();
    if plain_clock_len(trimmed.as_bytes()) == Some(trimmed.len()) {
        let time = &trimmed[b"[%clk ".len()..trimmed.len() - 1];
        if let Ok(ms) = clock(time) {
            out.clock_ms = Some(ms);
        }
        return;
    }
    if !comment.contains("[%") {
        return;
    }
    for (_, name, arg, _) in commands(comment) {
        let mut one = Annotations::default();
        if apply(&mut one, name, arg).is_ok() {
            out.clock_ms = one.clock_ms.or(out.clock_ms);
            out.elapsed_ms = one.elapsed_ms.or(out.elapsed_ms);
            out.eval = one.eval.or(out.eval);
            out.arrows.extend(one.arrows);
            out.squares.extend(one.squares);
        }
    }
}

/// The commands of `comment` that cannot be read.
pub fn malformed(comment: &str) -> Vec<Malformed> {
    // The comment of nearly every move of an online game: known good
    // without the general reading.
    if is_plain_clock(comment.as_bytes()) {
        return Vec::new();
    }
    // No search for `[%` first: `commands` finds none as cheaply.
    commands(comment)
        .filter_map(|(offset, name, arg, whole)| {
            apply(&mut Annotations::default(), name, arg)
                .err()
                .map(|why| Malformed {
                    offset,
                    text: whole.to_string(),
                    why,
                })
        })
        .collect()
}

/// `annotations` as JSON fields after a move's others: `"clock"` and
/// `"emt"` in seconds, `"eval": {"cp": 25}` or `{"mate": -3}` (and
/// `"depth"`), `"arrows": [{"color", "from", "to"}]`, `"squares":
/// [{"color", "square"}]`; nothing for what is not there.
pub fn write_json_fields(out: &mut String, a: &Annotations) {
    let seconds = |ms: u64| serde_json::Value::from(ms as f64 / 1000.0);
    if let Some(ms) = a.clock_ms {
        out.push_str(&format!(",\"clock\":{}", seconds(ms)));
    }
    if let Some(ms) = a.elapsed_ms {
        out.push_str(&format!(",\"emt\":{}", seconds(ms)));
    }
    if let Some(e) = a.eval {
        out.push_str(&format!(",\"eval\":{}", eval_json(&e)));
    }
    if !a.arrows.is_empty() {
        let arrows: Vec<_> = a
            .arrows
            .iter()
            .map(|x| {
                serde_json::json!({"color": x.color.name(), "from": x.from.to_string(), "to": x.to.to_string()})
            })
            .collect();
        out.push_str(&format!(",\"arrows\":{}", serde_json::Value::from(arrows)));
    }
    if !a.squares.is_empty() {
        let squares: Vec<_> = a
            .squares
            .iter()
            .map(|x| serde_json::json!({"color": x.color.name(), "square": x.square.to_string()}))
            .collect();
        out.push_str(&format!(
            ",\"squares\":{}",
            serde_json::Value::from(squares)
        ));
    }
}

/// An evaluation as JSON: `{"cp": 25}` or `{"mate": -3}`, and `"depth"`
/// when given.
fn eval_json(e: &Eval) -> serde_json::Value {
    let mut v = match e.score {
        Score::Centipawns(cp) => serde_json::json!({ "cp": cp }),
        Score::Mate(n) => serde_json::json!({ "mate": n }),
    };
    if let Some(d) = e.depth {
        v["depth"] = d.into();
    }
    v
}

/// A main-line move with what its comments say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyNotes {
    /// 1-based ply.
    pub ply: usize,
    /// The side that made it.
    pub mover: Color,
    /// The move in SAN.
    pub san: String,
    /// What its comments say.
    pub notes: Annotations,
}

/// The moves of `game`'s main line, as far as it replays (up to its
/// first fault), each with what its comments say.
pub fn main_line(registry: &Registry, game: &Game) -> Vec<PlyNotes> {
    let Ok(mut pos) = start_position(registry, game) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(game.moves.len());
    for (i, node) in game.moves.iter().enumerate() {
        let Ok(mv) = resolve_node(&pos, node) else {
            break;
        };
        out.push(PlyNotes {
            ply: i + 1,
            mover: pos.turn(),
            san: write_san(&pos, &mv),
            notes: read(&node.comments),
        });
        pos.play_unchecked(&mv);
    }
    out
}

/// A game's summary of its main line's commands: `clocks`, each side's
/// last `[%clk]` in seconds (`{"white": 175.5, "black": 160}`, a side
/// without one left out; `null` when neither has one), and
/// `final_eval`, the last `[%eval]` with its ply (`{"ply": 57, "cp":
/// 25}`; `null` for none).
pub fn summary_json(plies: &[PlyNotes]) -> (serde_json::Value, serde_json::Value) {
    let mut clocks = serde_json::Map::new();
    for color in [Color::White, Color::Black] {
        let last = plies
            .iter()
            .rev()
            .filter(|p| p.mover == color)
            .find_map(|p| p.notes.clock_ms);
        if let Some(ms) = last {
            let side = if color == Color::White {
                "white"
            } else {
                "black"
            };
            clocks.insert(side.into(), (ms as f64 / 1000.0).into());
        }
    }
    let clocks = if clocks.is_empty() {
        serde_json::Value::Null
    } else {
        clocks.into()
    };
    let final_eval = plies
        .iter()
        .rev()
        .find_map(|p| p.notes.eval.map(|e| (p.ply, e)))
        .map_or(serde_json::Value::Null, |(ply, e)| {
            let mut v = eval_json(&e);
            v["ply"] = ply.into();
            v
        });
    (clocks, final_eval)
}

/// The main line ply by ply as JSON: `[{"ply", "san", "clock", "emt",
/// "eval", "arrows", "squares"}]`, the last five as in
/// [`write_json_fields`] (where the comments say them).
pub fn plies_json(plies: &[PlyNotes]) -> serde_json::Value {
    plies
        .iter()
        .map(|p| {
            let mut text = format!(
                "{{\"ply\":{},\"san\":{}",
                p.ply,
                serde_json::Value::from(p.san.as_str())
            );
            write_json_fields(&mut text, &p.notes);
            text.push('}');
            // What write_json_fields writes is JSON by construction.
            serde_json::from_str(&text).unwrap_or(serde_json::Value::Null)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::square::parse_square;

    proptest::proptest! {
        /// A comment the clock's fast path passes is one the general
        /// reading finds well formed, and reads as a clock.
        #[test]
        fn a_plain_clock_is_well_formed(comment in "[ ]?\\[%clk [0-9]{0,7}[:.]?[0-9]{0,3}[:.]?[0-9]{0,4}\\]?[ ]?") {
            if is_plain_clock(comment.as_bytes()) {
                let found: Vec<_> = commands(&comment).map(|(_, _, arg, _)| arg).collect();
                proptest::prop_assert_eq!(found.len(), 1);
                proptest::prop_assert!(clock(found[0].unwrap()).is_ok(), "{}", comment);
            }
        }
    }

    #[test]
    fn the_clocks_of_online_games_take_the_fast_path_and_others_do_not() {
        for plain in [
            "[%clk 0:10:00]",
            " [%clk 0:09:57.1] ",
            "[%clk 123:59:59.999]",
        ] {
            assert!(is_plain_clock(plain.as_bytes()), "{plain}");
            assert!(malformed(plain).is_empty());
        }
        for other in [
            "[%clk 0:60:00]",
            "[%clk 0:9:00]",
            "[%clk 0:10:00.1234]",
            "[%clk 10:00]",
            "[%clk 0:10:00] and text",
            "[%eval 0.17] [%clk 0:03:00]",
            "[%clk 1234567:00:00]",
        ] {
            assert!(!is_plain_clock(other.as_bytes()), "{other}");
        }
        assert_eq!(malformed("[%clk 0:60:00]").len(), 1);
    }

    fn sq(s: &str) -> Square {
        parse_square(s).unwrap()
    }

    #[test]
    fn a_main_line_is_summed_up_by_each_sides_last_clock_and_the_last_eval() {
        let text = "[Variant \"chess\"]\n\n1. e4 { [%clk 0:03:00] [%eval 0.2] } e5 { [%clk 0:02:58] } \
                    2. Nf3 { [%clk 0:02:55.5] } (2. Qh5 { [%eval -1] }) Nc6 { [%cal Gb8c6] } 3. Zz9 *";
        let game = crate::notation::pgn::read_game(text, 1);
        let plies = main_line(&crate::rules::Registry::builtin(), &game);
        // The faulty third move ends the main line; the variation is not in it.
        assert_eq!(plies.len(), 4);
        assert_eq!(plies[2].san, "Nf3");
        assert_eq!(plies[1].mover, Color::Black);
        let (clocks, final_eval) = summary_json(&plies);
        assert_eq!(clocks, serde_json::json!({"white": 175.5, "black": 178.0}));
        assert_eq!(final_eval, serde_json::json!({"ply": 1, "cp": 20}));
        let listed = plies_json(&plies);
        assert_eq!(
            listed[3],
            serde_json::json!({"ply": 4, "san": "Nc6", "arrows": [{"color": "green", "from": "b8", "to": "c6"}]})
        );
        assert_eq!(
            listed[1],
            serde_json::json!({"ply": 2, "san": "e5", "clock": 178.0})
        );
        let none = main_line(
            &crate::rules::Registry::builtin(),
            &crate::notation::pgn::read_game("1. e4 *", 1),
        );
        assert_eq!(
            summary_json(&none),
            (serde_json::Value::Null, serde_json::Value::Null)
        );
    }

    #[test]
    fn lichess_comments_give_clock_and_evaluation() {
        let a = read(&[" [%eval 0.17] [%clk 0:03:00] "]);
        assert_eq!(a.clock_ms, Some(180_000));
        assert_eq!(
            a.eval,
            Some(Eval {
                score: Score::Centipawns(17),
                depth: None
            })
        );
        let a = read(&["[%eval #-3] [%clk 1:02:03.5]"]);
        assert_eq!(a.eval.unwrap().score, Score::Mate(-3));
        assert_eq!(a.clock_ms, Some(3_723_500));
        let a = read(&["[%eval -1.5,22] [%emt 0:00:07]"]);
        assert_eq!(
            a.eval,
            Some(Eval {
                score: Score::Centipawns(-150),
                depth: Some(22)
            })
        );
        assert_eq!(a.elapsed_ms, Some(7000));
        assert_eq!(
            read(&["[%eval +.5]"]).eval.unwrap().score,
            Score::Centipawns(50)
        );
        assert_eq!(read(&["[%clk 2:59.9]"]).clock_ms, Some(179_900));
        // FICS writes the time a move took in seconds.
        assert_eq!(read(&["[%emt 0.656]"]).elapsed_ms, Some(656));
        assert_eq!(read(&["[%emt 12]"]).elapsed_ms, Some(12_000));
    }

    #[test]
    fn arrows_and_squares_keep_their_colours() {
        let a = read(&["a plan [%cal Ge2e4,Rd8d1] and [%csl Yd4, bh7]"]);
        assert_eq!(
            a.arrows,
            [
                Arrow {
                    color: Mark::Green,
                    from: sq("e2"),
                    to: sq("e4")
                },
                Arrow {
                    color: Mark::Red,
                    from: sq("d8"),
                    to: sq("d1")
                }
            ]
        );
        assert_eq!(
            a.squares,
            [
                Marked {
                    color: Mark::Yellow,
                    square: sq("d4")
                },
                Marked {
                    color: Mark::Blue,
                    square: sq("h7")
                }
            ]
        );
        let mut json = String::new();
        write_json_fields(&mut json, &a);
        assert_eq!(
            json,
            r#","arrows":[{"color":"green","from":"e2","to":"e4"},{"color":"red","from":"d8","to":"d1"}],"squares":[{"color":"yellow","square":"d4"},{"color":"blue","square":"h7"}]"#
        );
    }

    #[test]
    fn commands_are_found_in_short_and_long_comments_alike() {
        let long = "a comment that goes on well past thirty-two bytes";
        for text in [
            "[%clk 0:00:07]".to_string(),
            format!("{long} [%clk 0:00:07]"),
            format!("[%clk 0:00:07] {long}"),
            format!("{long} [%clk 0:00:07] {long}"),
        ] {
            assert_eq!(read(&[&text]).clock_ms, Some(7_000), "{text}");
            let bad = text.replace("0:00:07", "0:0:7");
            let found = malformed(&bad);
            assert_eq!(found.len(), 1, "{bad}");
            assert_eq!(found[0].offset, bad.find("[%").unwrap(), "{bad}");
        }
        for len in [0, 1, 31, 32, 33, 100] {
            let mut bytes = vec![b'a'; len];
            assert_eq!(find_byte(b'[', &bytes), None);
            bytes.push(b'[');
            assert_eq!(find_byte(b'[', &bytes), Some(len));
        }
    }

    #[test]
    fn malformed_commands_are_told_and_left_out() {
        for (text, why) in [
            ("[%clk 1:7]", "not a time H:MM:SS"),
            ("[%emt 1.2345]", "not a time H:MM:SS"),
            ("[%emt -3]", "not a time H:MM:SS"),
            ("[%clk 0:61:00]", "not a time H:MM:SS"),
            ("[%clk abc]", "not a time H:MM:SS"),
            ("[%emt ]", "not a time H:MM:SS"),
            ("[%eval x]", "not an evaluation"),
            ("[%eval #]", "not an evaluation"),
            ("[%eval 1.2.3]", "not an evaluation"),
            ("[%eval 0.2,deep]", "not an evaluation"),
            ("[%cal Ge2]", "`Ge2` is not an arrow"),
            ("[%cal Xe2e4]", "`Xe2e4` is not an arrow"),
            ("[%csl Gz]", "`Gz` is not a square"),
            ("[%clk 0:01:00", "no `]` closes it"),
            ("[%clk 1:00:00:00]", "not a time H:MM:SS"),
            ("[%clk 999999999999999999:00]", "not a time H:MM:SS"),
            ("[%clk 99999999999999999999]", "not a time H:MM:SS"),
        ] {
            let found = malformed(&format!("ok {text}"));
            assert_eq!(found.len(), 1, "{text}");
            assert_eq!(found[0].offset, 3, "{text}");
            assert_eq!(found[0].text, text);
            assert!(found[0].why.contains(why), "{text}: {}", found[0].why);
            assert!(found[0].message().ends_with("; kept as text (R-A-1)"));
            assert!(read(&[text]).is_empty(), "{text}");
        }
        // Other commands, and text that only looks like one, are text.
        assert!(malformed("[%evp 10,20] [%mdl 8] [% clk] 50%").is_empty());
        assert_eq!(read(&["[a] [[%clk 0:00:07]"]).clock_ms, Some(7_000));
        assert!(read(&["[%evp 10,20] [%clocks 1]"]).is_empty());
    }

    #[test]
    fn a_later_clock_stands_over_an_earlier_one() {
        let a = read(&["[%clk 0:01:00]", "[%clk 0:00:59] [%clk bad]"]);
        assert_eq!(a.clock_ms, Some(59_000));
        let mut json = String::new();
        write_json_fields(&mut json, &a);
        assert_eq!(json, ",\"clock\":59.0");
    }
}
