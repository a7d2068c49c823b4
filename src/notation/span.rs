//! Where text is: byte offsets turned into 1-based lines and columns once,
//! when a message is written.

/// A 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Location {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, in characters.
    pub column: usize,
}

/// Line starts of a text, to turn byte offsets into [`Location`]s.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    first_line: usize,
}

impl LineIndex {
    /// Indexes `text`, whose first line is line `first_line` of its file.
    pub fn new(text: &str, first_line: usize) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts, first_line }
    }

    /// The location of byte `offset` of `text` (the text indexed).
    pub fn locate(&self, text: &str, offset: usize) -> Location {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column = text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count())
            + 1;
        Location {
            line: line + self.first_line,
            column,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_from_offsets() {
        let text = "ab\ncdé\nf";
        let idx = LineIndex::new(text, 10);
        assert_eq!(
            idx.locate(text, 0),
            Location {
                line: 10,
                column: 1
            }
        );
        assert_eq!(
            idx.locate(text, 4),
            Location {
                line: 11,
                column: 2
            }
        );
        assert_eq!(
            idx.locate(text, 7),
            Location {
                line: 11,
                column: 4
            }
        );
        assert_eq!(
            idx.locate(text, 8),
            Location {
                line: 12,
                column: 1
            }
        );
    }
}
