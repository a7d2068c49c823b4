//! Diagnostics: what the reader and the replay say about a game, as data
//! (severity, kind, where, ply, the ruling it rests on), rendered to text
//! in one place ([`Diagnostic::render`]).
//!
//! Errors make a game invalid. Warnings do not: the text bends the
//! standard but its meaning is sure (docs/notation.md §11), such as `...Nf6`
//! without a move number or `*` after a mate (R-0-3).

use serde::Serialize;

use super::span::Location;

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
    /// Where in the file.
    #[serde(flatten)]
    pub at: Location,
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
        Diagnostic {
            severity: Severity::Error,
            kind,
            ply: None,
            in_variation: false,
            at,
            text: None,
            message: message.into(),
        }
    }

    /// A warning.
    pub fn warning(kind: DiagnosticKind, at: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(kind, at, message)
        }
    }

    /// The same, about the move `text` at `ply`.
    pub fn at_ply(mut self, ply: usize, in_variation: bool, text: &str) -> Diagnostic {
        self.ply = Some(ply);
        self.in_variation = in_variation;
        self.text = Some(text.to_string());
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
        let ply = self.ply.map_or(String::new(), |p| {
            if self.in_variation {
                format!(", ply {p} (variation)")
            } else {
                format!(", ply {p}")
            }
        });
        let severity = match self.severity {
            Severity::Warning => "warning: ",
            Severity::Error => "",
        };
        format!(
            "{}:{}:{}: game {game}{ply}: {severity}{}",
            super::printable::printable(path, 200),
            self.at.line,
            self.at.column,
            super::printable::printable(&self.message, 400)
        )
    }
}

/// Whether any of `diagnostics` is an error.
pub fn has_error(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}
