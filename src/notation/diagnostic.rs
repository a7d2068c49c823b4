//! Diagnostics: what the reader and the replay say about a game, as data
//! (severity, kind, where, ply, the ruling it rests on), rendered to text
//! in one place ([`Diagnostic::render`]).
//!
//! Errors make a game invalid. Warnings do not: the text bends the
//! standard but its meaning is sure (docs/notation.md §11), such as `...Nf6`
//! without a move number or `*` after a mate (R-0-3).

use serde::Serialize;

use super::pgn::ParseError;
use super::span::Location;
use crate::rules::{BetzaError, DefinitionError};

/// How much a diagnostic weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The text is irregular, its meaning sure: the game stays valid.
    Warning,
    /// The game is wrong: invalid.
    Error,
}

impl Severity {
    /// `warning` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// What a diagnostic is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiagnosticKind {
    /// The text is not XPGN where it stands: the movetext breaks off.
    Syntax,
    /// A comment never closed: the game was cut at the next tag line.
    RunawayComment,
    /// The bytes are not UTF-8 (read as Windows-1252) or are UTF-16.
    Encoding,
    /// A tag pair that is malformed but readable.
    Tag,
    /// A result written in a non-standard form, or missing.
    Result,
    /// A null move (R-0-6).
    NullMove,
    /// A check or mate mark that the position does not bear out.
    CheckMark,
    /// A position string read with a fix (fullmove number 0).
    PositionString,
    /// The `Variant` tag names no known variant.
    UnknownVariant,
    /// The `FEN` tag is not a legal position of the variant.
    BadPosition,
    /// A move text that is no move in any notation.
    BadMove,
    /// A move that is not legal.
    IllegalMove,
    /// A move that matches several legal moves.
    AmbiguousMove,
    /// The result contradicts the final position or the other result.
    ResultMismatch,
    /// A variant definition file that cannot be used (a field and why).
    Definition,
    /// A Betza string that cannot be read.
    Betza,
    /// A command in a comment (`[%clk ...]`, `[%eval ...]`) that cannot
    /// be read: it stays text (R-A-1).
    Annotation,
}

impl DiagnosticKind {
    /// A short name for machine-readable output (`illegal_move`).
    pub fn name(self) -> &'static str {
        match self {
            DiagnosticKind::Syntax => "syntax",
            DiagnosticKind::RunawayComment => "runaway_comment",
            DiagnosticKind::Encoding => "encoding",
            DiagnosticKind::Tag => "tag",
            DiagnosticKind::Result => "result",
            DiagnosticKind::NullMove => "null_move",
            DiagnosticKind::CheckMark => "check_mark",
            DiagnosticKind::PositionString => "position_string",
            DiagnosticKind::UnknownVariant => "unknown_variant",
            DiagnosticKind::BadPosition => "bad_position",
            DiagnosticKind::BadMove => "bad_move",
            DiagnosticKind::IllegalMove => "illegal_move",
            DiagnosticKind::AmbiguousMove => "ambiguous_move",
            DiagnosticKind::ResultMismatch => "result_mismatch",
            DiagnosticKind::Definition => "definition",
            DiagnosticKind::Betza => "betza",
            DiagnosticKind::Annotation => "annotation",
        }
    }
}

/// One thing the reader or the replay says about a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What about.
    pub kind: DiagnosticKind,
    /// 1-based ply of the move concerned, counted from the game's start
    /// along its line (a variation's first move has the ply of the move it
    /// replaces).
    pub ply: Option<usize>,
    /// Whether the move is in a variation.
    pub in_variation: bool,
    /// Where in the file the text concerned starts.
    #[serde(flatten)]
    pub at: Location,
    /// Where it ends (the column after its last character); `at` itself
    /// where no text is concerned (a missing result, the end of a file).
    pub end: Location,
    /// The ruling the diagnostic rests on (`R-0-3`), when one does
    /// (docs/rules.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The move as written, if a move is concerned.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The reason in words (citing the ruling where one applies).
    pub message: String,
}

/// The longest piece of the user's text a message quotes.
pub const QUOTE_CHARS: usize = 60;

impl Diagnostic {
    /// An error.
    pub fn error(kind: DiagnosticKind, at: Location, message: impl Into<String>) -> Diagnostic {
        let message = message.into();
        Diagnostic {
            severity: Severity::Error,
            kind,
            ply: None,
            in_variation: false,
            at,
            end: at,
            rule: ruling_cited(&message),
            text: None,
            message,
        }
    }

    /// A warning.
    pub fn warning(kind: DiagnosticKind, at: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(kind, at, message)
        }
    }

    /// The same, about the move `text` at `ply` (written from `at` on).
    pub fn at_ply(mut self, ply: usize, in_variation: bool, text: &str) -> Diagnostic {
        self.ply = Some(ply);
        self.in_variation = in_variation;
        if !text.contains('\n') {
            self.end = Location {
                line: self.at.line,
                column: self.at.column + text.chars().count(),
            };
        }
        self.text = Some(text.to_string());
        self
    }

    /// The same, resting on ruling `rule` (`R-0-3`).
    pub fn with_rule(mut self, rule: &str) -> Diagnostic {
        self.rule = Some(rule.to_string());
        self
    }

    /// Whether this makes the game invalid.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The one text form: `path:line:col: game N, ply M: message`, with
    /// `warning: ` before the message of a warning. Control characters of
    /// the input are escaped so that no file can drive the terminal.
    pub fn render(&self, path: &str, game: usize) -> String {
        self.render_head(path, Some(game))
    }

    /// The same form for a diagnostic about a file that holds no games (a
    /// variant definition file, a Betza string): `path:line:col: message`.
    pub fn render_file(&self, path: &str) -> String {
        self.render_head(path, None)
    }

    /// [`Diagnostic::render`] and [`Diagnostic::render_file`]: the game and
    /// ply, where a game is concerned.
    fn render_head(&self, path: &str, game: Option<usize>) -> String {
        let ply = self.ply.map_or(String::new(), |p| {
            if self.in_variation {
                format!(", ply {p} (variation)")
            } else {
                format!(", ply {p}")
            }
        });
        let game = game.map_or(String::new(), |game| format!(" game {game}{ply}:"));
        let severity = match self.severity {
            Severity::Warning => "warning: ",
            Severity::Error => "",
        };
        format!(
            "{}:{}:{}:{game} {severity}{}",
            super::printable::printable(path, 200),
            self.at.line,
            self.at.column,
            super::printable::printable(&self.message, 400)
        )
    }
}

/// The ruling a message cites in its last parentheses, e.g. `R-CS-3`
/// in "... cannot move (R-CS-3)": messages name the ruling they apply
/// there, as docs/rules.md numbers them.
fn ruling_cited(message: &str) -> Option<String> {
    let open = message.rfind("(R-")?;
    let id: String = message[open + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let parts: Vec<&str> = id.split('-').collect();
    (parts.len() >= 3 && parts.iter().all(|p| !p.is_empty())).then_some(id)
}

/// The characters of a quoted source line shown before and after the
/// caret: a long line is cut to a window around it.
const SNIPPET_BEFORE: usize = 60;
const SNIPPET_AFTER: usize = 60;

impl Diagnostic {
    /// [`Diagnostic::render`], then the line it points at and a caret
    /// under the text concerned:
    ///
    /// ```text
    /// game.pgn:3:13: game 1, ply 5: `Ke3`: ...
    ///   |
    /// 3 | 1. e4 e5 2. Ke3
    ///   |             ^^^
    /// ```
    ///
    /// `text` is the game's text, whose first character stands at `start`
    /// in the file; without the line (a diagnostic about the file), the
    /// one-line form alone.
    pub fn render_in(&self, path: &str, game: usize, text: &str, start: Location) -> String {
        let mut out = self.render(path, game);
        if let Some(snippet) = self.snippet(text, start) {
            out.push('\n');
            out.push_str(&snippet);
        }
        out
    }

    /// [`Diagnostic::render_file`], then the line it points at in `text`,
    /// the whole file's text, with a caret under the text concerned, as
    /// [`Diagnostic::render_in`] shows it.
    pub fn render_file_in(&self, path: &str, text: &str) -> String {
        let mut out = self.render_file(path);
        if let Some(snippet) = self.snippet(text, Location { line: 1, column: 1 }) {
            out.push('\n');
            out.push_str(&snippet);
        }
        out
    }

    /// The quoted line and its caret, as [`Diagnostic::render_in`] shows
    /// them.
    fn snippet(&self, text: &str, start: Location) -> Option<String> {
        let index = self.at.line.checked_sub(start.line)?;
        let line = text.split('\n').nth(index)?;
        // The game's first line starts at `start.column` of the file.
        let first_column = if index == 0 { start.column } else { 1 };
        let at = self.at.column.checked_sub(first_column)?;
        let width = if self.end.line == self.at.line {
            self.end.column.saturating_sub(self.at.column).max(1)
        } else {
            1
        };
        let chars: Vec<char> = line.trim_end_matches('\r').chars().collect();
        if at > chars.len() {
            return None;
        }
        let from = at.saturating_sub(SNIPPET_BEFORE);
        let to = (at + width + SNIPPET_AFTER).min(chars.len());
        let before: String = chars[from..at].iter().collect();
        let shown: String = chars[from..to].iter().collect();
        let lead = if from > 0 { "…" } else { "" };
        let tail = if to < chars.len() { "…" } else { "" };
        // Escapes widen what they replace: the caret goes under the escaped
        // text as printed.
        let pad = lead.chars().count()
            + super::printable::printable(&before, usize::MAX)
                .chars()
                .count();
        let number = self.at.line.to_string();
        let gutter = " ".repeat(number.len());
        Some(format!(
            "{gutter} |\n{number} | {lead}{}{tail}\n{gutter} | {}{}",
            super::printable::printable(&shown, usize::MAX),
            " ".repeat(pad),
            "^".repeat(width.min(to - at).max(1))
        ))
    }
}

impl From<&ParseError> for Diagnostic {
    /// A syntax error of a game's text, where it stands.
    fn from(e: &ParseError) -> Diagnostic {
        Diagnostic::error(DiagnosticKind::Syntax, e.at, e.to_string())
    }
}

impl From<&BetzaError> for Diagnostic {
    /// A Betza string that cannot be read, at its column: rendered with
    /// [`Diagnostic::render_file_in`] and the string as the text, the
    /// caret stands under the character at fault.
    fn from(e: &BetzaError) -> Diagnostic {
        let at = Location {
            line: 1,
            column: e.column,
        };
        Diagnostic {
            end: Location {
                line: 1,
                column: e.column + 1,
            },
            ..Diagnostic::error(DiagnosticKind::Betza, at, e.reason.clone())
        }
    }
}

/// A fault of a variant definition file as a diagnostic: at its line,
/// the field and the reason; `text` the file's text, when it can be
/// read, spans the line's text (the caret underlines it). An error, or a
/// warning where the file's other definitions load without it (a
/// refused `variants.ini` section).
pub fn definition_diagnostic(
    e: &DefinitionError,
    text: Option<&str>,
    severity: Severity,
) -> Diagnostic {
    let line = text.and_then(|t| t.lines().nth(e.line.saturating_sub(1)));
    let (column, end) = line.map_or((1, 1), |line| {
        let shown = line.trim_end();
        let indent = shown.chars().count() - shown.trim_start().chars().count();
        (indent + 1, shown.chars().count() + 1)
    });
    let at = Location {
        line: e.line,
        column,
    };
    Diagnostic {
        severity,
        end: Location {
            line: e.line,
            column: end.max(column),
        },
        ..Diagnostic::error(
            DiagnosticKind::Definition,
            at,
            format!("{}: {}", e.field, e.reason),
        )
    }
}

/// Whether any of `diagnostics` is an error.
pub fn has_error(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, column: usize) -> Location {
        Location { line, column }
    }

    #[test]
    fn the_ruling_a_message_cites_is_data() {
        let d = Diagnostic::error(
            DiagnosticKind::IllegalMove,
            at(1, 1),
            "the pawn on e8 is still waiting and cannot be captured (R-CS-3)",
        );
        assert_eq!(d.rule.as_deref(), Some("R-CS-3"));
        let json = serde_json::to_string(&d).unwrap();
        assert!(json.contains("\"rule\":\"R-CS-3\""), "{json}");
        // A parenthesis that is no ruling, or none at all.
        for message in ["the result (1-0) stands", "no legal move matches", "(R-)"] {
            let d = Diagnostic::error(DiagnosticKind::Result, at(1, 1), message);
            assert_eq!(d.rule, None, "{message}");
        }
        let d = Diagnostic::warning(DiagnosticKind::Result, at(1, 1), "x").with_rule("R-0-3");
        assert_eq!(d.rule.as_deref(), Some("R-0-3"));
    }

    #[test]
    fn a_move_spans_its_text_and_the_caret_underlines_it() {
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
        let d =
            Diagnostic::error(DiagnosticKind::IllegalMove, at(7, 13), "no").at_ply(3, false, "Ke3");
        assert_eq!(d.end, at(7, 16));
        let shown = d.render_in("g.pgn", 1, text, at(5, 1));
        assert_eq!(
            shown,
            "g.pgn:7:13: game 1, ply 3: no\n  |\n7 | 1. e4 e5 2. Ke3 *\n  |             ^^^"
        );
        // A game starting within a line: its first line's columns count
        // from there.
        let d =
            Diagnostic::error(DiagnosticKind::IllegalMove, at(4, 13), "no").at_ply(1, false, "Ke3");
        let shown = d.render_in("g.pgn", 2, "1. Ke3 *", at(4, 10));
        assert!(shown.ends_with("4 | 1. Ke3 *\n  |    ^^^"), "{shown}");
    }

    #[test]
    fn the_quoted_line_is_escaped_and_cut_around_the_caret() {
        let line = format!("{}\t2. Ke3{}", "x".repeat(100), "y".repeat(100));
        let d = Diagnostic::error(DiagnosticKind::IllegalMove, at(1, 105), "no")
            .at_ply(3, false, "Ke3");
        let shown = d.render_in("g.pgn", 1, &line, at(1, 1));
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 4, "{shown}");
        // The tab is shown escaped, and the caret stands under `Ke3` as
        // printed.
        let quoted = lines[2];
        let caret = lines[3];
        assert!(quoted.contains("\\t2. Ke3"), "{quoted}");
        let chars_before = |s: &str, i: usize| s[..i].chars().count();
        let under = chars_before(quoted, quoted.find("Ke3").unwrap());
        assert_eq!(
            chars_before(caret, caret.find('^').unwrap()),
            under,
            "{shown}"
        );
        assert!(
            quoted.starts_with("1 | …") && quoted.ends_with('…'),
            "{quoted}"
        );
        // Past the end of the text, or a line the text does not have: the
        // one-line form alone.
        let far = Diagnostic::error(DiagnosticKind::Result, at(9, 1), "no");
        assert_eq!(
            far.render_in("g.pgn", 1, "1. e4 *", at(1, 1)),
            far.render("g.pgn", 1)
        );
    }

    #[test]
    fn a_syntax_error_renders_where_it_stands() {
        let e = super::super::pgn::parse_game("1. e4\n  e5 ) *", 3).unwrap_err();
        let d = Diagnostic::from(&e);
        assert_eq!(
            (d.kind, d.severity, d.at),
            (DiagnosticKind::Syntax, Severity::Error, at(4, 6))
        );
        assert_eq!(
            d.render_in("g.pgn", 2, "1. e4\n  e5 ) *", at(3, 1)),
            format!("g.pgn:4:6: game 2: {e}\n  |\n4 |   e5 ) *\n  |      ^")
        );
    }

    #[test]
    fn a_betza_error_renders_with_a_caret_under_its_column() {
        let e = crate::rules::Movement::from_betza("FpR").unwrap_err();
        let d = Diagnostic::from(&e);
        assert_eq!(
            (d.kind, d.at, d.end),
            (DiagnosticKind::Betza, at(1, 2), at(1, 3))
        );
        let shown = d.render_file_in("piece.betza", &e.text);
        assert_eq!(
            shown,
            format!("piece.betza:1:2: {}\n  |\n1 | FpR\n  |  ^", e.reason)
        );
    }

    #[test]
    fn a_definition_error_renders_its_line_underlined() {
        let text = "[variant]\nname = \"x\"\n\n[[piece]]\n  betza = \"pR\"  \n";
        let e = crate::rules::DefinitionError {
            file: "v.toml".into(),
            line: 5,
            field: "piece.betza".into(),
            reason: "not supported (R-0-1)".into(),
        };
        let d = definition_diagnostic(&e, Some(text), Severity::Error);
        assert_eq!(
            (d.kind, d.at, d.end),
            (DiagnosticKind::Definition, at(5, 3), at(5, 15))
        );
        assert_eq!(d.rule.as_deref(), Some("R-0-1"));
        assert_eq!(
            d.render_file_in(&e.file, text),
            "v.toml:5:3: piece.betza: not supported (R-0-1)\n  |\n5 |   betza = \"pR\"  \n  |   ^^^^^^^^^^^^"
        );
        // Without the file's text, or as a warning: the line alone.
        let d = definition_diagnostic(&e, None, Severity::Warning);
        assert_eq!(
            d.render_file_in(&e.file, ""),
            "v.toml:5:1: warning: piece.betza: not supported (R-0-1)"
        );
    }
}
