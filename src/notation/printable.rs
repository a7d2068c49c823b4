//! Text that came from a user or a file, made safe to show in a message:
//! control characters escaped, long text shortened.
//!
//! Owns one function, [`printable`]. It imports nothing from the crate, so
//! every layer above `rules` (notation's diagnostics, the command line) can
//! use it.

use std::borrow::Cow;
use std::fmt::Write;

/// `text` made fit for a one-line message: every control character (C0,
/// DEL, C1, so `ESC` too) and every bidirectional-override or isolate
/// character (U+202A..U+202E, U+2066..U+2069, which reorder what a terminal
/// shows) is written as a Rust-style escape, `\u{1b}`; `\n`, `\r` and `\t`
/// as `\n`, `\r`, `\t`. Other characters, letters of any script included,
/// stay as they are. Text longer than `max_chars` characters is cut after
/// its first `max_chars` characters, followed by `… (N more characters)`.
/// Text that needs neither is returned borrowed.
///
/// ```
/// use xpgn::notation::printable::printable;
/// assert_eq!(printable("Königsspringer", 80), "Königsspringer");
/// assert_eq!(printable("a\u{1b}[31mred", 80), "a\\u{1b}[31mred");
/// assert_eq!(printable("abcdefgh", 3), "abc… (5 more characters)");
/// ```
pub fn printable(text: &str, max_chars: usize) -> Cow<'_, str> {
    // The byte offset where the kept part ends, and how many characters follow.
    let (kept, rest) = match text.char_indices().nth(max_chars) {
        Some((cut, _)) => (&text[..cut], text[cut..].chars().count()),
        None => (text, 0),
    };
    if rest == 0 && !kept.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(kept.len() + 32);
    for c in kept.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    if rest > 0 {
        let s = if rest == 1 { "" } else { "s" };
        let _ = write!(out, "… ({rest} more character{s})");
    }
    Cow::Owned(out)
}

/// Control characters (C0, DEL, C1) and the characters that change the
/// display order of what follows them.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_text_is_borrowed_unchanged() {
        for text in [
            "",
            "e2e4",
            "Königsspringer",
            "象棋 шахматы",
            "--variant `x`",
        ] {
            assert!(matches!(printable(text, 80), Cow::Borrowed(t) if t == text));
        }
    }

    #[test]
    fn every_control_character_is_escaped() {
        for c in (0u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
            let text = format!("a{c}b");
            let shown = printable(&text, 80);
            assert!(
                !shown.chars().any(|x| x.is_control()),
                "{c:?} shown as {shown:?}"
            );
            assert!(
                shown.starts_with("a\\") && shown.ends_with('b'),
                "{shown:?}"
            );
        }
        assert_eq!(printable("\x1b[31m", 80), "\\u{1b}[31m");
        assert_eq!(printable("\u{9b}31m", 80), "\\u{9b}31m");
        assert_eq!(printable("a\nb\tc\rd", 80), "a\\nb\\tc\\rd");
        assert_eq!(printable("x\u{7f}", 80), "x\\u{7f}");
    }

    #[test]
    fn bidirectional_overrides_are_escaped() {
        assert_eq!(printable("ab\u{202e}cd", 80), "ab\\u{202e}cd");
        assert_eq!(printable("\u{2066}", 80), "\\u{2066}");
    }

    #[test]
    fn long_text_keeps_its_first_characters_and_counts_the_rest() {
        let long = "é".repeat(120_000);
        let shown = printable(&long, 40);
        assert_eq!(
            shown,
            format!("{}… (119960 more characters)", "é".repeat(40))
        );
        assert_eq!(printable("abcd", 3), "abc… (1 more character)");
        assert_eq!(printable("abc", 3), "abc");
        assert_eq!(printable("abc", 0), "… (3 more characters)");
    }

    #[test]
    fn escaping_and_shortening_combine_by_characters_of_the_input() {
        assert_eq!(
            printable("\x1b\x1b\x1bxyz", 2),
            "\\u{1b}\\u{1b}… (4 more characters)"
        );
    }

    #[test]
    fn no_limit_means_escaping_only() {
        let long = "a".repeat(10_000);
        assert!(matches!(printable(&long, usize::MAX), Cow::Borrowed(_)));
    }
}
