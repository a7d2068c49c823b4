//! User text made safe to print: control characters escaped, long text
//! shortened.

use std::borrow::Cow;

/// `text` with control characters (C0, DEL, C1) escaped as `\u{1b}` and
/// cut after `max_chars` characters, saying how many more there were.
pub fn printable(text: &str, max_chars: usize) -> Cow<'_, str> {
    let count = text.chars().count();
    if count <= max_chars && !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    for c in text.chars().take(max_chars) {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    if count > max_chars {
        out.push_str(&format!("… ({} more characters)", count - max_chars));
    }
    Cow::Owned(out)
}
