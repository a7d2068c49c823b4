//! Where text is: byte offsets turned into 1-based lines and columns.

use std::cell::Cell;

/// A 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Location {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, in characters.
    pub column: usize,
}

/// Turns byte offsets of one text into [`Location`]s. A reader asks for
/// offsets in increasing order, so each answer walks on from the last one:
/// locating every move of a game costs one pass over its text, not one
/// per move.
#[derive(Clone, Debug)]
pub struct Locator<'a> {
    text: &'a str,
    first_line: usize,
    first_column: usize,
    offset: Cell<usize>,
    here: Cell<Location>,
}

impl<'a> Locator<'a> {
    /// Locates in `text`, whose first line is line `first_line` of its file.
    pub fn new(text: &'a str, first_line: usize) -> Locator<'a> {
        Locator::starting_at(
            text,
            Location {
                line: first_line,
                column: 1,
            },
        )
    }

    /// Locates in `text`, whose first byte stands at `start` of its file
    /// (a game that begins in the middle of a line).
    pub fn starting_at(text: &'a str, start: Location) -> Locator<'a> {
        Locator {
            text,
            first_line: start.line,
            first_column: start.column,
            offset: Cell::new(0),
            here: Cell::new(start),
        }
    }

    /// The location of byte `offset` (a character boundary) of the text.
    pub fn locate(&self, offset: usize) -> Location {
        let offset = offset.min(self.text.len());
        if offset < self.offset.get() {
            self.offset.set(0);
            self.here.set(Location {
                line: self.first_line,
                column: self.first_column,
            });
        }
        let mut here = self.here.get();
        for &b in &self.text.as_bytes()[self.offset.get()..offset] {
            if b == b'\n' {
                here.line += 1;
                here.column = 1;
            } else if b & 0xC0 != 0x80 {
                // Not a UTF-8 continuation byte: a character starts here.
                here.column += 1;
            }
        }
        self.offset.set(offset);
        self.here.set(here);
        here
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_from_offsets_in_any_order() {
        let text = "ab\ncdé\nf";
        let at = Locator::new(text, 10);
        let loc = |line, column| Location { line, column };
        assert_eq!(at.locate(4), loc(11, 2));
        assert_eq!(at.locate(7), loc(11, 4));
        assert_eq!(at.locate(8), loc(12, 1));
        assert_eq!(at.locate(0), loc(10, 1));
        assert_eq!(at.locate(99), loc(12, 2));
    }
}
