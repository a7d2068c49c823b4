//! Selecting games by what they hold, with or without a database: tag
//! comparisons (`WhiteElo>=2600`), bounds on plies, how the game ended,
//! comments, variations, underpromotion, and pgn-extract-style tag
//! criteria files. [`facts`] reads a game once, replaying it as
//! `validate` does (no tree of its moves), and [`GameSelection::matches`]
//! decides on what it found.

use super::diagnostic::has_error;
use super::pgn::read_with;
use super::reader::GameBytes;
use super::validation::{Validation, Validator};
use super::visitor::{At, Flow, MoveToken, Visitor};
use crate::notation::diagnostic::Diagnostic;
use crate::rules::{Ending, Move, Position, Registry};

/// A comparison between a tag's value and a value given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `=`: equal numbers, overlapping dates, or (text) the value contains
    /// the one given, case-blind.
    Eq,
    /// `!=` (or `<>`): not `=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl Compare {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Compare::Eq => "=",
            Compare::Ne => "!=",
            Compare::Lt => "<",
            Compare::Le => "<=",
            Compare::Gt => ">",
            Compare::Ge => ">=",
        }
    }

    fn holds(self, ordering: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::{Equal, Greater, Less};
        match self {
            Compare::Eq => ordering == Equal,
            Compare::Ne => ordering != Equal,
            Compare::Lt => ordering == Less,
            Compare::Le => ordering != Greater,
            Compare::Gt => ordering == Greater,
            Compare::Ge => ordering != Less,
        }
    }
}

/// A filter argument or criteria line that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FilterError(pub String);

/// The days a date can mean, as `YYYYMMDD` numbers: `1985.??.??` is all
/// of 1985. `None` for what is no date (an unknown year).
pub fn date_days(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.trim().split(['.', '-', '/']);
    let number = |t: &str, min: usize, max: usize| {
        (t.len() >= min && t.len() <= max && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u32>().ok())
            .flatten()
    };
    let year = number(parts.next()?, 4, 4)?;
    let month = parts
        .next()
        .and_then(|m| number(m, 1, 2))
        .filter(|m| (1..=12).contains(m));
    let day = month.and_then(|_| {
        parts
            .next()
            .and_then(|d| number(d, 1, 2))
            .filter(|d| (1..=31).contains(d))
    });
    let (m1, m2) = month.map_or((1, 12), |m| (m, m));
    let (d1, d2) = day.map_or((1, 31), |d| (d, d));
    Some((year * 10000 + m1 * 100 + d1, year * 10000 + m2 * 100 + d2))
}

/// A number as a tag holds it (`2650`, `-3`, `0.5`).
fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    (!t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+'))
    .then(|| t.parse::<f64>().ok())
    .flatten()
}

/// One test on a tag: `NAME OP VALUE`. `Player` stands for `White` or
/// `Black`, `Elo` for `WhiteElo` or `BlackElo` (either holds).
#[derive(Clone, Debug, PartialEq)]
pub struct TagTest {
    /// The tag's name, as written in games (case counts).
    pub name: String,
    /// The comparison.
    pub op: Compare,
    /// The value compared with.
    pub value: String,
    /// How the value is compared.
    pub kind: ValueKind,
    /// A text `=` matches a prefix of the tag's value, case as written
    /// (pgn-extract's tag files), instead of any part case-blind.
    pub prefix: bool,
}

/// How a [`TagTest`] compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueKind {
    /// As numbers: the value given is one; a tag that is none fails.
    Number(f64),
    /// As dates (a tag whose name ends in `Date`): the days each can mean.
    Date(u32, u32),
    /// As text.
    Text,
}

impl TagTest {
    /// A test of `name` against `value`.
    ///
    /// # Errors
    /// An empty name, or a date tag compared with what is no date.
    pub fn new(name: &str, op: Compare, value: &str) -> Result<TagTest, FilterError> {
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(FilterError(format!("`{name}` is no tag name")));
        }
        let value = value.trim().to_string();
        let kind = if name.ends_with("Date") {
            let (lo, hi) = date_days(&value).ok_or_else(|| {
                FilterError(format!(
                    "`{value}` is no date to compare {name} with: expected YYYY, YYYY.MM or YYYY.MM.DD"
                ))
            })?;
            ValueKind::Date(lo, hi)
        } else if let Some(n) = number(&value) {
            ValueKind::Number(n)
        } else {
            ValueKind::Text
        };
        Ok(TagTest {
            name: name.to_string(),
            op,
            value,
            kind,
            prefix: false,
        })
    }

    /// Reads `NAME OP VALUE` (`WhiteElo>=2600`, `Date<1962`,
    /// `Event=Wijk`): OP is one of `>=`, `<=`, `!=`, `<>`, `=`, `>`, `<`.
    ///
    /// # Errors
    /// No operator, an empty name or value, or a date tag compared with
    /// what is no date.
    pub fn parse(text: &str) -> Result<TagTest, FilterError> {
        let at = text.find(['=', '<', '>', '!']).ok_or_else(|| {
            FilterError(format!(
                "`{text}`: expected NAME OP VALUE, OP one of = != < <= > >= (WhiteElo>=2600)"
            ))
        })?;
        let (name, rest) = text.split_at(at);
        let (op, value) = [
            (">=", Compare::Ge),
            ("<=", Compare::Le),
            ("!=", Compare::Ne),
            ("<>", Compare::Ne),
            ("=", Compare::Eq),
            (">", Compare::Gt),
            ("<", Compare::Lt),
        ]
        .iter()
        .find_map(|(s, op)| rest.strip_prefix(s).map(|v| (*op, v)))
        .ok_or_else(|| FilterError(format!("`{text}`: `!` must be followed by `=`")))?;
        if value.trim().is_empty() {
            return Err(FilterError(format!(
                "`{text}`: no value after `{}`",
                op.symbol()
            )));
        }
        if value.starts_with(['=', '<', '>', '!']) {
            return Err(FilterError(format!(
                "`{text}`: expected one operator, one of = != < <= > >="
            )));
        }
        TagTest::new(name, op, value).map_err(|e| FilterError(format!("`{text}`: {e}")))
    }

    /// Whether this test is `NAME=TEXT` matched as a case-blind part (the
    /// one form a database answers in SQL).
    pub fn is_text_contains(&self) -> bool {
        self.op == Compare::Eq && self.kind == ValueKind::Text && !self.prefix
    }

    /// The tags this test reads.
    fn names(&self) -> &[&str] {
        match self.name.as_str() {
            "Player" => &["White", "Black"],
            "Elo" => &["WhiteElo", "BlackElo"],
            _ => &[],
        }
    }

    /// Whether one of `tags` passes (a game without the tag fails).
    pub fn matches(&self, tags: &[(String, String)]) -> bool {
        let pseudo = self.names();
        tags.iter()
            .filter(|(n, _)| {
                if pseudo.is_empty() {
                    *n == self.name
                } else {
                    pseudo.contains(&n.as_str())
                }
            })
            .any(|(_, v)| self.value_matches(v))
    }

    fn value_matches(&self, tag: &str) -> bool {
        match self.kind {
            ValueKind::Number(want) => number(tag)
                .and_then(|n| n.partial_cmp(&want))
                .is_some_and(|o| self.op.holds(o)),
            ValueKind::Date(lo, hi) => {
                let Some((glo, ghi)) = date_days(tag) else {
                    return false;
                };
                // A game's date is the days it can mean: it passes when
                // one of them does.
                match self.op {
                    Compare::Eq => glo <= hi && ghi >= lo,
                    Compare::Ne => !(glo <= hi && ghi >= lo),
                    Compare::Lt => glo < lo,
                    Compare::Le => glo <= hi,
                    Compare::Gt => ghi > hi,
                    Compare::Ge => ghi >= lo,
                }
            }
            ValueKind::Text => match self.op {
                Compare::Eq | Compare::Ne => {
                    let found = if self.prefix {
                        tag.starts_with(&self.value)
                    } else {
                        tag.to_lowercase().contains(&self.value.to_lowercase())
                    };
                    found == (self.op == Compare::Eq)
                }
                _ => self.op.holds(tag.cmp(&self.value)),
            },
        }
    }
}

/// A pgn-extract-style tag criteria file: lines `Name "value"` (the
/// value a prefix of the tag's) or `Name OP "value"`; lines of one tag
/// name are or-ed, of different names and-ed; `%` starts a comment line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TagCriteria {
    /// Per tag name, in the order first written: the tests of which one
    /// must hold.
    pub groups: Vec<Vec<TagTest>>,
}

impl TagCriteria {
    /// Reads the text of a criteria file named `file`.
    ///
    /// # Errors
    /// A line that is not `Name "value"` or `Name OP "value"`, naming the
    /// file and line; a `FEN` or `FENPattern` line (position searches are
    /// `query --fen`).
    pub fn parse(file: &str, text: &str) -> Result<TagCriteria, FilterError> {
        let mut criteria = TagCriteria::default();
        for (i, line) in text.lines().enumerate() {
            let fail = |why: &str| FilterError(format!("{file}:{}: {why}: {}", i + 1, line.trim()));
            let line = line.trim();
            if line.is_empty() || line.starts_with('%') {
                continue;
            }
            let Some(quote) = line.find('"') else {
                return Err(fail("expected Name \"value\" or Name OP \"value\""));
            };
            let value = line[quote + 1..]
                .strip_suffix('"')
                .ok_or_else(|| fail("the value does not end with `\"`"))?;
            let head = line[..quote].trim();
            let (name, op) = match head.split_once(char::is_whitespace) {
                Some((name, op)) => {
                    let op = match op.trim() {
                        ">=" => Compare::Ge,
                        "<=" => Compare::Le,
                        "<>" | "!=" => Compare::Ne,
                        "=" => Compare::Eq,
                        ">" => Compare::Gt,
                        "<" => Compare::Lt,
                        _ => return Err(fail("expected one of = <> < <= > >= before the value")),
                    };
                    (name, Some(op))
                }
                None => (head, None),
            };
            if matches!(name, "FEN" | "FENPattern") {
                return Err(fail(
                    "position criteria are not read from tag files (use query --fen)",
                ));
            }
            let mut test = TagTest::new(name, op.unwrap_or(Compare::Eq), value)
                .map_err(|e| fail(&e.to_string()))?;
            if op.is_none() {
                // pgn-extract's plain pair: a prefix of the value, as text.
                test.kind = ValueKind::Text;
                test.prefix = true;
            }
            match criteria
                .groups
                .iter_mut()
                .find(|g| g.first().is_some_and(|t| t.name == test.name))
            {
                Some(group) => group.push(test),
                None => criteria.groups.push(vec![test]),
            }
        }
        Ok(criteria)
    }

    /// Whether every group has a test that holds.
    pub fn matches(&self, tags: &[(String, String)]) -> bool {
        self.groups
            .iter()
            .all(|g| g.iter().any(|t| t.matches(tags)))
    }
}

/// How a game ended, as `--ending` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndingFilter {
    /// The final position ends the game this way (`checkmate`,
    /// `stalemate`, a variant's win: `bare-king`, `king-exploded`,
    /// `check-limit`, `goal-reached`, `no-pieces-left`).
    Board(Ending),
    /// The final position decides nothing and the game records a result
    /// (`1-0`, `0-1`, `1/2-1/2`): resigned, agreed, lost on time.
    ResultOnly,
}

/// The names `--ending` takes, in the order listed.
pub const ENDING_NAMES: [&str; 8] = [
    "checkmate",
    "stalemate",
    "bare-king",
    "king-exploded",
    "check-limit",
    "goal-reached",
    "no-pieces-left",
    "result-only",
];

impl EndingFilter {
    /// Reads one of [`ENDING_NAMES`] (case, `-`, `_` and spaces aside).
    ///
    /// # Errors
    /// Any other word.
    pub fn parse(text: &str) -> Result<EndingFilter, FilterError> {
        let key: String = text
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        Ok(match key.as_str() {
            "checkmate" | "mate" => EndingFilter::Board(Ending::Checkmate),
            "stalemate" => EndingFilter::Board(Ending::Stalemate),
            "bareking" => EndingFilter::Board(Ending::BareKing),
            "kingexploded" => EndingFilter::Board(Ending::KingExploded),
            "checklimit" => EndingFilter::Board(Ending::CheckLimit),
            "goalreached" | "flag" => EndingFilter::Board(Ending::Flag),
            "nopiecesleft" | "extinction" => EndingFilter::Board(Ending::Extinction),
            "resultonly" => EndingFilter::ResultOnly,
            _ => {
                return Err(FilterError(format!(
                    "`{text}` is no ending: expected one of {}",
                    ENDING_NAMES.join(", ")
                )));
            }
        })
    }
}

/// What the filters look at in a game, found by [`facts`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFacts {
    /// Every tag pair in the order written.
    pub tags: Vec<(String, String)>,
    /// Main-line plies replayed.
    pub plies: usize,
    /// Whether the game is valid (no error).
    pub valid: bool,
    /// How the final position ends the game, if it does (valid games).
    pub ending: Option<Ending>,
    /// The result it records: its termination marker, else its `Result`
    /// tag.
    pub result: Option<String>,
    /// A comment anywhere in its movetext.
    pub comments: bool,
    /// A NAG anywhere (suffix annotations too).
    pub nags: bool,
    /// A variation anywhere.
    pub variations: bool,
    /// A main-line promotion to another type than the queen, in a variant
    /// that has a queen (`Q`).
    pub underpromotion: bool,
}

/// Passes everything the reader tells to a validator, noting the tags,
/// comments, NAGs and variations on the way.
struct Noting<'a, V> {
    inner: &'a mut V,
    facts: GameFacts,
}

impl<'t, V: Visitor<'t>> Visitor<'t> for Noting<'_, V> {
    fn begin_game(&mut self, at: At<'_>) {
        self.inner.begin_game(at);
    }
    fn tag(&mut self, name: &str, value: &str, at: At<'_>) {
        self.facts.tags.push((name.to_string(), value.to_string()));
        self.inner.tag(name, value, at);
    }
    fn begin_movetext(&mut self) -> Flow {
        self.inner.begin_movetext()
    }
    fn move_token(&mut self, token: MoveToken<'_, 't>) {
        self.facts.nags |= token.suffix.is_some();
        self.inner.move_token(token);
    }
    fn nag(&mut self, nag: u8) {
        self.facts.nags = true;
        self.inner.nag(nag);
    }
    fn comment(&mut self, text: &str) {
        self.facts.comments = true;
        self.inner.comment(text);
    }
    fn begin_variation(&mut self) -> Flow {
        self.facts.variations = true;
        self.inner.begin_variation()
    }
    fn end_variation(&mut self, at: At<'_>) {
        self.inner.end_variation(at);
    }
    fn result(&mut self, marker: &'static str) {
        self.inner.result(marker);
    }
    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.inner.diagnostic(diagnostic);
    }
    fn end_game(&mut self, at: At<'_>) {
        self.inner.end_game(at);
    }
}

/// Whether `m`, played in `before`, promotes to another type than the
/// queen of a variant that has one.
fn underpromotes(before: &Position, m: &Move) -> bool {
    let Some(kind) = m.promotion() else {
        return false;
    };
    let variant = before.variant();
    variant
        .kind_by_letter('Q')
        .is_some_and(|queen| queen != kind)
}

/// Reads and replays `game` as `validate` does and returns what the
/// filters look at, with the validation.
pub fn facts(registry: &Registry, game: &GameBytes<'_>) -> (GameFacts, Validation) {
    let mut under = false;
    let mut visit = |before: &Position, m: &Move, _: &Position| {
        under |= underpromotes(before, m);
    };
    let mut validator = Validator::visiting(registry, game.source_notes(), &mut visit);
    let mut noting = Noting {
        inner: &mut validator,
        facts: GameFacts::default(),
    };
    read_with(&game.text, game.start, &mut noting);
    let mut facts = noting.facts;
    let validation = validator.finish();
    facts.underpromotion = under;
    facts.plies = validation.plies;
    facts.valid = !has_error(&validation.diagnostics);
    facts.result.clone_from(&validation.result);
    facts.ending = validation
        .end
        .as_ref()
        .filter(|_| facts.valid)
        .and_then(|end| end.outcome())
        .map(|o| o.ending());
    (facts, validation)
}

/// The filters that need more than a database's columns: every one holds
/// for a game to be selected.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSelection {
    /// Tag tests (`--tag`).
    pub tags: Vec<TagTest>,
    /// Criteria files (`--tag-file`): each must hold.
    pub criteria: Vec<TagCriteria>,
    /// At least this many main-line plies.
    pub min_plies: Option<usize>,
    /// At most this many.
    pub max_plies: Option<usize>,
    /// Ended one of these ways.
    pub endings: Vec<EndingFilter>,
    /// With (`Some(true)`) or without comments.
    pub comments: Option<bool>,
    /// With or without variations.
    pub variations: Option<bool>,
    /// With a main-line underpromotion.
    pub underpromotion: bool,
}

impl GameSelection {
    /// Whether nothing is asked.
    pub fn is_empty(&self) -> bool {
        *self == GameSelection::default()
    }

    /// Whether the game `facts` describe is selected.
    pub fn matches(&self, facts: &GameFacts) -> bool {
        self.tags.iter().all(|t| t.matches(&facts.tags))
            && self.criteria.iter().all(|c| c.matches(&facts.tags))
            && self.min_plies.is_none_or(|n| facts.plies >= n)
            && self.max_plies.is_none_or(|n| facts.plies <= n)
            && (self.endings.is_empty() || self.endings.iter().any(|e| ended(facts, *e)))
            && self.comments.is_none_or(|c| facts.comments == c)
            && self.variations.is_none_or(|v| facts.variations == v)
            && (!self.underpromotion || facts.underpromotion)
    }
}

fn ended(facts: &GameFacts, how: EndingFilter) -> bool {
    match how {
        EndingFilter::Board(e) => facts.ending == Some(e),
        EndingFilter::ResultOnly => {
            facts.valid
                && facts.ending.is_none()
                && matches!(facts.result.as_deref(), Some("1-0" | "0-1" | "1/2-1/2"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::reader::GameSplitter;

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    fn holds(test: &str, pairs: &[(&str, &str)]) -> bool {
        TagTest::parse(test).unwrap().matches(&tags(pairs))
    }

    #[test]
    fn tags_compare_as_numbers_dates_or_text() {
        assert!(holds("WhiteElo>=2600", &[("WhiteElo", "2600")]));
        assert!(!holds("WhiteElo>=2600", &[("WhiteElo", "2599")]));
        // Numbers compare as numbers, not as text.
        assert!(holds("WhiteElo>2600", &[("WhiteElo", "10000")]));
        assert!(holds("WhiteElo<2600", &[("WhiteElo", "999")]));
        // A tag that is no number, or no tag, fails every comparison.
        assert!(!holds("WhiteElo>=2600", &[("WhiteElo", "?")]));
        assert!(!holds("WhiteElo!=2600", &[("WhiteElo", "")]));
        assert!(!holds("WhiteElo>=2600", &[]));
        assert!(holds("WhiteElo!=2600", &[("WhiteElo", "2500")]));
        assert!(holds("WhiteElo=2600", &[("WhiteElo", " 2600 ")]));
        assert!(holds(
            "Elo>=2700",
            &[("WhiteElo", "2500"), ("BlackElo", "2750")]
        ));
        // Dates as the days they can mean.
        assert!(holds("Date<1962", &[("Date", "1961.12.31")]));
        assert!(!holds("Date<1962", &[("Date", "1962.01.01")]));
        assert!(holds("Date>=2012.06", &[("Date", "2012.??.??")]));
        assert!(!holds("Date>2012", &[("Date", "2012.12.31")]));
        assert!(holds("Date=2012.06", &[("Date", "2012.06.20")]));
        assert!(holds("Date<=2012-06-20", &[("Date", "2012.06.20")]));
        assert!(!holds("Date>=2000", &[("Date", "????.??.??")]));
        assert!(holds("EventDate>2000", &[("EventDate", "2001.01.01")]));
        // Text: `=` a part, case-blind; order by characters.
        assert!(holds("Event=wijk", &[("Event", "Tata Steel Wijk aan Zee")]));
        assert!(holds("Event!=wijk", &[("Event", "Dortmund")]));
        assert!(holds("Player=carlsen", &[("Black", "Carlsen, M")]));
        assert!(holds("ECO>=B20", &[("ECO", "B90")]));
        assert!(!holds("ECO>=B20", &[("ECO", "A45")]));
    }

    #[test]
    fn bad_comparisons_say_what_is_wrong() {
        let e = |t: &str| TagTest::parse(t).unwrap_err().to_string();
        assert!(
            e("WhiteElo").contains("expected NAME OP VALUE"),
            "{}",
            e("WhiteElo")
        );
        assert!(e("WhiteElo>=").contains("no value"), "{}", e("WhiteElo>="));
        assert!(e(">=2600").contains("no tag name"), "{}", e(">=2600"));
        assert!(
            e("WhiteElo=>2600").contains("one operator"),
            "{}",
            e("WhiteElo=>2600")
        );
        assert!(
            e("WhiteElo!2600").contains("`!` must be followed"),
            "{}",
            e("WhiteElo!2600")
        );
        assert!(
            e("Date<yesterday").contains("no date"),
            "{}",
            e("Date<yesterday")
        );
    }

    #[test]
    fn criteria_files_or_one_name_and_and_names() {
        let text =
            "% players\nWhite \"Tal\"\nWhite \"Fischer\"\nDate >= \"1960\"\n\nElo <> \"0\"\n";
        let c = TagCriteria::parse("t.txt", text).unwrap();
        assert_eq!(c.groups.len(), 3);
        let game = |w: &str, d: &str| tags(&[("White", w), ("Date", d), ("WhiteElo", "2600")]);
        assert!(c.matches(&game("Tal, M", "1962.01.01")));
        assert!(c.matches(&game("Fischer", "1960.??.??")));
        // A prefix, case as written.
        assert!(!c.matches(&game("M. Tal", "1962.01.01")));
        assert!(!c.matches(&game("tal", "1962.01.01")));
        assert!(!c.matches(&game("Tal", "1959.12.31")));
        for (bad, why) in [
            ("White Tal\n", "t.txt:1: expected Name \"value\""),
            ("White \"Tal\n", "t.txt:1: the value does not end"),
            ("\n\nWhite ~ \"Tal\"\n", "t.txt:3: expected one of"),
            (
                "FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"\n",
                "t.txt:1: position criteria",
            ),
            ("Date < \"soon\"\n", "t.txt:1: `soon` is no date"),
        ] {
            let e = TagCriteria::parse("t.txt", bad).unwrap_err().to_string();
            assert!(e.starts_with(why), "{e}");
        }
    }

    #[test]
    fn endings_are_read_by_name() {
        assert_eq!(
            EndingFilter::parse("Checkmate"),
            Ok(EndingFilter::Board(Ending::Checkmate))
        );
        assert_eq!(
            EndingFilter::parse("king_exploded"),
            Ok(EndingFilter::Board(Ending::KingExploded))
        );
        assert_eq!(
            EndingFilter::parse("result-only"),
            Ok(EndingFilter::ResultOnly)
        );
        let e = EndingFilter::parse("resign").unwrap_err().to_string();
        assert!(
            e.starts_with("`resign` is no ending: expected one of checkmate"),
            "{e}"
        );
    }

    fn facts_of(text: &str) -> GameFacts {
        let mut games = GameSplitter::new(text.as_bytes());
        let game = games.next_game().unwrap().unwrap();
        facts(&Registry::builtin(), &game).0
    }

    #[test]
    fn facts_find_endings_annotations_and_underpromotion() {
        let mate = facts_of("1. f3 e5 2. g4 Qh4# 0-1");
        assert_eq!(mate.ending, Some(Ending::Checkmate));
        assert_eq!(
            (mate.plies, mate.comments, mate.variations, mate.nags),
            (4, false, false, false)
        );
        let annotated = facts_of("[White \"A\"]\n1. e4 {good} e5 (1... c5 $1) 2. Nf3! 1-0");
        assert_eq!(annotated.tags, tags(&[("White", "A")]));
        assert!(annotated.comments && annotated.variations && annotated.nags);
        assert_eq!(annotated.ending, None);
        let sel = GameSelection {
            endings: vec![EndingFilter::ResultOnly],
            comments: Some(true),
            ..Default::default()
        };
        assert!(sel.matches(&annotated));
        assert!(!sel.matches(&mate));
        let under = facts_of("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n1. a8=R Kd7 *");
        assert!(under.underpromotion);
        let queen = facts_of("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n1. a8=Q+ Kd7 *");
        assert!(!queen.underpromotion);
        // In a variation only: not the game's.
        let aside = facts_of("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n1. a8=Q+ (1. a8=N) Kd7 *");
        assert!(!aside.underpromotion && aside.variations);
        let bounds = GameSelection {
            min_plies: Some(4),
            max_plies: Some(4),
            ..Default::default()
        };
        assert!(bounds.matches(&mate) && !bounds.matches(&under));
    }
}
