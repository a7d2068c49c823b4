//! The lexical productions of game text, read over bytes: white space and
//! escape lines (`trivia`), comments, tag pairs, words (the tokens a move,
//! move number or result is written in) and the marks that stand alone.
//!
//! Both readers of game text use these and no other: the splitter
//! (src/notation/reader.rs) on a file's raw bytes, to find where each game
//! ends, and the reader of one game (src/notation/pgn.rs) on its decoded
//! text, to build it. So the two cannot disagree on where a comment, tag
//! pair or word ends. Every byte these productions stop at is ASCII, which
//! reads the same in UTF-8 and Windows-1252; only white space outside ASCII
//! is a character, which is read as UTF-8 ([`space_char_len`]): a
//! Windows-1252 no-break space (the lone byte `0xA0`) is part of a word to
//! the splitter, and white space to the reader once the game is decoded.

/// What the text at a byte is, by its first byte ([`lexeme_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lexeme {
    /// White space: ASCII, or a white-space character outside it.
    Space,
    /// `{`: a comment to its `}` ([`comment_close`]).
    BraceComment,
    /// `;`: a comment to the line's end ([`line_comment_end`]).
    LineComment,
    /// `(`: a variation opens.
    OpenVariation,
    /// `)`: a variation closes.
    CloseVariation,
    /// `[`: a tag pair ([`tag_pair_end`]).
    TagPair,
    /// `$`: a NAG.
    Nag,
    /// `}` with no comment open.
    StrayBrace,
    /// `]` or `"` outside a tag pair: no production starts with them.
    StrayMark,
    /// Any other byte: a word ([`word_end`]).
    Word,
    /// Not ASCII: white space or a word, as the character there tells
    /// ([`lexeme_at`] answers which; [`LEXEME`] cannot).
    NotAscii,
}

/// An ASCII byte that is white space as `char::is_whitespace` says (tab,
/// line feed, vertical tab, form feed, carriage return, space).
pub(crate) const fn is_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

/// The lexeme each byte starts, but for the bytes outside ASCII.
pub(crate) const LEXEME: [Lexeme; 256] = {
    let mut table = [Lexeme::Word; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = match byte {
            _ if is_space_byte(byte) => Lexeme::Space,
            0x80.. => Lexeme::NotAscii,
            b'{' => Lexeme::BraceComment,
            b';' => Lexeme::LineComment,
            b'(' => Lexeme::OpenVariation,
            b')' => Lexeme::CloseVariation,
            b'[' => Lexeme::TagPair,
            b'$' => Lexeme::Nag,
            b'}' => Lexeme::StrayBrace,
            b']' | b'"' => Lexeme::StrayMark,
            _ => Lexeme::Word,
        };
        b += 1;
    }
    table
};

/// The lexeme that starts at `bytes[i]` (`i` within them).
#[inline(always)]
pub(crate) fn lexeme_at(bytes: &[u8], i: usize) -> Lexeme {
    match LEXEME[usize::from(bytes[i])] {
        Lexeme::NotAscii if space_char_len(&bytes[i..]) > 0 => Lexeme::Space,
        Lexeme::NotAscii => Lexeme::Word,
        lexeme => lexeme,
    }
}

/// The length of the white-space character (`char::is_whitespace`) that
/// `bytes` starts with, read as UTF-8; 0 if they start with none.
#[inline]
pub(crate) fn space_char_len(bytes: &[u8]) -> usize {
    let Some(&first) = bytes.first() else {
        return 0;
    };
    if first < 0x80 {
        return usize::from(is_space_byte(first));
    }
    let width = match first {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return 0,
    };
    let is_space = bytes
        .get(..width)
        .and_then(|c| std::str::from_utf8(c).ok())
        .and_then(|c| c.chars().next())
        .is_some_and(char::is_whitespace);
    if is_space { width } else { 0 }
}

/// The first byte at or after `i` that does not start white space.
#[inline]
pub(crate) fn white_space_end(bytes: &[u8], mut i: usize) -> usize {
    loop {
        while i < bytes.len() && is_space_byte(bytes[i]) {
            i += 1;
        }
        match bytes.get(i) {
            Some(&b) if b >= 0x80 => match space_char_len(&bytes[i..]) {
                0 => return i,
                n => i += n,
            },
            _ => return i,
        }
    }
}

/// How a byte stands between tokens: ASCII white space, a byte after
/// which other white space or an escape line may follow (not ASCII, or
/// `%`), or the start of a token. One look-up a byte.
const SPACE: u8 = 0;
const SPACE_OR_ESCAPE: u8 = 1;
const SPACE_BYTES: [u8; 256] = {
    let mut table = [2; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        if is_space_byte(byte) {
            table[b] = SPACE;
        } else if byte >= 0x80 || byte == b'%' {
            table[b] = SPACE_OR_ESCAPE;
        }
        b += 1;
    }
    table
};

/// Production `trivia` from byte `i` on: white space and escape lines
/// (`%` in a line's first column, to the line's end); the first byte after
/// them.
#[inline(always)]
pub(crate) fn space_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&b) = bytes.get(i) {
        match SPACE_BYTES[usize::from(b)] {
            SPACE => i += 1,
            SPACE_OR_ESCAPE => return space_and_escapes_end(bytes, i),
            _ => return i,
        }
    }
    i
}

/// [`space_end`] from where other white space or an escape line may
/// stand.
#[inline(never)]
fn space_and_escapes_end(bytes: &[u8], mut i: usize) -> usize {
    loop {
        i = white_space_end(bytes, i);
        match escape_line_end(bytes, i) {
            Some(end) => i = end,
            None => return i,
        }
    }
}

/// Production `escape-line` at byte `i`: `%` in a line's first column;
/// the byte after its line end (or the text's end).
pub(crate) fn escape_line_end(bytes: &[u8], i: usize) -> Option<usize> {
    let at_line_start = i == 0 || matches!(bytes[i - 1], b'\n' | b'\r');
    (at_line_start && bytes.get(i) == Some(&b'%')).then(|| i + line_length(&bytes[i..]))
}

/// The length of the line at the start of `bytes`, its end (`\n`, `\r\n`
/// or a lone `\r`) included.
pub(crate) fn line_length(bytes: &[u8]) -> usize {
    match memchr::memchr2(b'\n', b'\r', bytes) {
        Some(i) if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') => i + 2,
        Some(i) => i + 1,
        None => bytes.len(),
    }
}

/// The end of the word that starts at byte `i`: the first byte after it
/// that is white space or one of `{ } ( ) ; $ [ ] "` (the production
/// `any-move-token`'s delimiters). ASCII is looked at byte by byte,
/// anything else as characters (a no-break space ends a word too).
#[inline(always)]
pub(crate) fn word_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&b) = bytes.get(i) {
        match LEXEME[usize::from(b)] {
            Lexeme::Word => i += 1,
            Lexeme::NotAscii => return not_ascii_word_end(bytes, i),
            _ => return i,
        }
    }
    i
}

/// [`word_end`] from a byte outside ASCII on.
#[inline(never)]
fn not_ascii_word_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&b) = bytes.get(i) {
        match LEXEME[usize::from(b)] {
            Lexeme::Word => i += 1,
            Lexeme::NotAscii if space_char_len(&bytes[i..]) == 0 => i += 1,
            _ => return i,
        }
    }
    i
}

/// Where the comment whose text starts `body` (the bytes after its `{`)
/// closes: the index of its `}`, and whether `\}` stood for a brace of
/// the text before it (docs/notation.md §11). A `\}` is a brace of the
/// text when another `}` follows it on the same line; else it closes the
/// comment, its `\` text (a path such as `C:\`). `None`: no `}` closes it.
pub(crate) fn comment_close(body: &[u8]) -> Option<(usize, bool)> {
    let mut from = 0;
    let mut escaped = false;
    loop {
        let at = from + memchr::memchr(b'}', &body[from..])?;
        if at > 0 && body[at - 1] == b'\\' {
            let rest = &body[at + 1..];
            let line_end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
            if memchr::memchr(b'}', &rest[..line_end]).is_some() {
                escaped = true;
                from = at + 1;
                continue;
            }
        }
        return Some((at, escaped));
    }
}

/// The byte after the `}` that closes, on its own line, the comment
/// whose text starts at `bytes[from]`, as [`comment_close`] reads that
/// line, found with one search; `None` when the comment goes on past the
/// line (or the bytes), or a `\}` makes the reading of the whole line
/// matter ([`comment_close`] then reads it).
#[inline]
pub(crate) fn comment_end_on_its_line(bytes: &[u8], from: usize) -> Option<usize> {
    let at = from + memchr::memchr3(b'}', b'\n', b'\r', &bytes[from..])?;
    (bytes[at] == b'}' && bytes[at - 1] != b'\\').then_some(at + 1)
}

/// The end of the `;` comment whose text starts at byte `from`: the
/// index of its line's end (or the text's end), which is not its text.
#[inline]
pub(crate) fn line_comment_end(bytes: &[u8], from: usize) -> usize {
    from + memchr::memchr2(b'\n', b'\r', &bytes[from..]).unwrap_or(bytes.len() - from)
}

/// The index of the first byte of `bytes` that is one of `needles`:
/// eight bytes a step, the bytes of a word compared with each needle at
/// once, then the last few one by one. Tag values and the like run to a
/// score of bytes, where this beats both a byte loop and `memchr`'s
/// set-up.
#[inline(always)]
fn find_any<const N: usize>(bytes: &[u8], needles: [u8; N]) -> Option<usize> {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while let Some(Ok(chunk)) = bytes.get(i..i + 8).map(<[u8; 8]>::try_from) {
        let word = u64::from_le_bytes(chunk);
        // A byte of `x` is zero where the word holds the needle; the
        // lowest bit this sets is that of the first such byte (a borrow
        // can only set bits above it), so the lowest over all needles
        // is the first byte that is any of them.
        let mut found = 0;
        for needle in needles {
            let x = word ^ (LOW * u64::from(needle));
            found |= x.wrapping_sub(LOW) & !x & HIGH;
        }
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    bytes[i..]
        .iter()
        .position(|b| needles.contains(b))
        .map(|j| i + j)
}

/// The bytes of a tag name: ASCII letters, digits and `_`.
const TAG_NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b as u8 == b'_';
        b += 1;
    }
    table
};

/// A tag pair as [`tag_pair`] reads it: where its name and value stand,
/// whether the value has escapes (`\"`, `\\`), and the byte after its
/// `]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TagPairSpan {
    pub name: std::ops::Range<usize>,
    pub value: std::ops::Range<usize>,
    pub escaped: bool,
    pub end: usize,
}

/// The production `tag-name` in the tag pair that `bytes` start with
/// (after its `[` and any white space): where it stands, empty if there
/// is none.
pub(crate) fn tag_name(bytes: &[u8]) -> std::ops::Range<usize> {
    let start = match bytes.get(1) {
        Some(&b) if TAG_NAME_BYTES[usize::from(b)] => 1,
        _ => white_space_end(bytes, 1),
    };
    let is_name = |b: u8| TAG_NAME_BYTES[usize::from(b)];
    let mut end = start;
    // Four bytes a step while all are the name's (a name is a few
    // bytes, read in each of a file's tag lines, by the splitter and by
    // the reader), then one by one.
    while let Some(&[a, b, c, d]) = bytes
        .get(end..end + 4)
        .and_then(|s| <&[u8; 4]>::try_from(s).ok())
    {
        if !(is_name(a) & is_name(b) & is_name(c) & is_name(d)) {
            break;
        }
        end += 4;
    }
    while end < bytes.len() && is_name(bytes[end]) {
        end += 1;
    }
    start..end
}

/// Production `tag-pair` at the start of `bytes`: `[Name "value"]`, with
/// white space allowed around the name and before the `]`, and `\"` and
/// `\\` escapes in the value. Names and values are a few bytes: plain
/// loops cost less than iterator adapters or `memchr`'s set-up.
#[inline(always)]
pub(crate) fn tag_pair(bytes: &[u8]) -> Option<TagPairSpan> {
    if bytes.first() != Some(&b'[') {
        return None;
    }
    let name = tag_name(bytes);
    if name.is_empty() {
        return None;
    }
    let quote = match bytes.get(name.end..name.end + 2) {
        Some(b" \"") => name.end + 1,
        _ => white_space_end(bytes, name.end),
    };
    if bytes.get(quote) != Some(&b'"') {
        return None;
    }
    let value_start = quote + 1;
    let mut close = value_start + find_any(&bytes[value_start..], [b'"', b'\\'])?;
    let escaped = bytes[close] == b'\\';
    // An escape takes the byte after its `\` with it.
    while bytes[close] == b'\\' {
        close += 2;
        close += find_any(bytes.get(close..)?, [b'"', b'\\'])?;
    }
    let bracket = match bytes.get(close + 1) {
        Some(b']') => close + 1,
        _ => white_space_end(bytes, close + 1),
    };
    if bytes.get(bracket) != Some(&b']') {
        return None;
    }
    Some(TagPairSpan {
        name,
        value: value_start..close,
        escaped,
        end: bracket + 1,
    })
}

/// The bytes a tag pair the production refuses spans, from its `[`
/// (production `loose-tag-pair`): to the first `"]` before the line's
/// next `[` (which may open the next pair: `[x] [Event "y"]`), else to
/// the line's first `]`, else to the line's end (which it does not
/// include).
pub(crate) fn loose_tag_pair_end(bytes: &[u8]) -> usize {
    let line = &bytes[..line_comment_end(bytes, 0)];
    let before_next =
        memchr::memchr(b'[', &line[1.min(line.len())..]).map_or(line.len(), |i| i + 1);
    memchr::memmem::find(&line[..before_next], b"\"]")
        .map(|i| i + 2)
        .or_else(|| memchr::memchr(b']', line).map(|i| i + 1))
        .unwrap_or(line.len())
        .max(1)
}

/// The bytes of the tag pair at the start of `bytes` (which start with
/// `[`), as the reader takes them: the production `tag-pair`'s, else
/// those of a `loose-tag-pair`.
pub(crate) fn tag_pair_end(bytes: &[u8]) -> usize {
    match tag_pair(bytes) {
        Some(pair) => pair.end,
        None => loose_tag_pair_end(bytes),
    }
}

/// The end of a tag pair written as real files write them: `[`, bytes
/// with no `[`, `]` or line end up to the first `"`, a value with no `\\`,
/// `[` or line end up to the next `"` (not right after the first), then `]`;
/// found with two searches a word at a time. Where it answers,
/// [`tag_pair_end`] answers the same: the production's `]`, or, for a
/// name the production refuses, the loose reading's first `"]`, which is
/// the same byte (no other `"` comes before it). `None` leaves the pair to
/// [`tag_pair_end`]; the pair is on one line either way.
#[inline(always)]
pub(crate) fn plain_tag_pair_end(bytes: &[u8]) -> Option<usize> {
    if bytes.first() != Some(&b'[') {
        return None;
    }
    let quote = 1 + find_any(&bytes[1..], [b'"', b']', b'[', b'\n', b'\r'])?;
    if bytes[quote] != b'"' {
        return None;
    }
    let value = quote + 1;
    // `"]` at the opening quote would end a loose reading there.
    if bytes.get(value) == Some(&b']') {
        return None;
    }
    let close = value + find_any(&bytes[value..], [b'"', b'\\', b'[', b'\n', b'\r'])?;
    (bytes[close] == b'"' && bytes.get(close + 1) == Some(&b']')).then_some(close + 2)
}

/// Whether `bytes` start as a tag pair does: `[`, a name, a quote.
pub(crate) fn opens_tag_pair(bytes: &[u8]) -> bool {
    let name = tag_name(bytes);
    !name.is_empty() && bytes.get(white_space_end(bytes, name.end)) == Some(&b'"')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn is_delimiter(c: char) -> bool {
        c.is_whitespace() || "{}();$[]\"".contains(c)
    }

    #[test]
    fn lexemes_are_told_by_their_first_character() {
        let cases: [(&str, Lexeme); 12] = [
            (" x", Lexeme::Space),
            ("\u{a0}x", Lexeme::Space),
            ("é4", Lexeme::Word),
            ("{a}", Lexeme::BraceComment),
            (";a", Lexeme::LineComment),
            ("(", Lexeme::OpenVariation),
            (")", Lexeme::CloseVariation),
            ("[Event", Lexeme::TagPair),
            ("$1", Lexeme::Nag),
            ("}", Lexeme::StrayBrace),
            ("\"", Lexeme::StrayMark),
            ("Nf3", Lexeme::Word),
        ];
        for (text, lexeme) in cases {
            assert_eq!(lexeme_at(text.as_bytes(), 0), lexeme, "{text:?}");
        }
        // A Windows-1252 no-break space is no UTF-8 character.
        assert_eq!(lexeme_at(b"\xA0x", 0), Lexeme::Word);
    }

    #[test]
    fn trivia_takes_escape_lines_only_in_the_first_column() {
        let text = b"  \n%escape\r\n%more\n  %not";
        assert_eq!(space_end(text, 0), 20);
        assert_eq!(space_end(b"%a\n", 0), 3);
        assert_eq!(escape_line_end(b"x%a", 1), None);
    }

    #[test]
    fn tag_pair_ends_are_the_pairs_else_the_loose_readings() {
        for (tag, end) in [
            ("[Event \"x\"] 1. e4", 11),
            ("[Event \"a]b\"]", 13),
            ("[Event \"a\\\"]\"]", 14),
            ("[Event \"a\"b\"]\n1. e4", 13),
            ("[Event \"x] 1. e4", 10),
            ("[Event x\n", 8),
            ("[", 1),
            ("[\"]x\"]", 3),
            ("[a- \"]\"]", 6),
            ("[a \"]\"]", 7),
            ("[x]0-1[Event \"x\"]", 3),
            ("[Annotator \"Lopez \"Battle Royale\"\"]", 35),
            ("[a- \"x[]y\"]", 8),
        ] {
            assert_eq!(tag_pair_end(tag.as_bytes()), end, "{tag:?}");
            if let Some(plain) = plain_tag_pair_end(tag.as_bytes()) {
                assert_eq!(plain, end, "{tag:?}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]

        /// `find_any` finds what a byte-by-byte search finds, wherever
        /// the needles stand in the words it reads.
        #[test]
        fn find_any_finds_the_first_needle(
            bytes in proptest::collection::vec(prop_oneof![Just(b'"'), Just(b'\\'), Just(b'\n'), Just(0x80u8), Just(0x22u8 ^ 0x80), any::<u8>()], 0..40),
        ) {
            let naive = bytes.iter().position(|&b| b == b'"' || b == b'\\' || b == b'\n');
            prop_assert_eq!(find_any(&bytes, [b'"', b'\\', b'\n']), naive);
            prop_assert_eq!(find_any(&bytes, [b'"']), bytes.iter().position(|&b| b == b'"'));
        }

        /// Words end where the character-wise definition says, whatever
        /// the mix of ASCII and other characters.
        #[test]
        fn word_ends_are_found_byte_by_byte_as_by_characters(
            text in "[a-e1-3x+ {}()$\"\u{a0}\u{e9}\u{2003}\u{b}\u{c};\t\n\\]\\[]{0,24}"
        ) {
            let expected = text.find(is_delimiter).unwrap_or(text.len());
            prop_assert_eq!(word_end(text.as_bytes(), 0), expected);
        }

        /// The plain reading of a tag pair ends it where the general one
        /// does, on its line.
        #[test]
        fn plain_tag_pairs_end_where_tag_pairs_end(
            text in "\\[ ?[A-Za-z_\\-\\[]{0,4}( |  |\n)?(\"|\"\\])?[ a-z\\]\\[\\\\\"\n\r]{0,4}\"?\\]?[ a-z\\]\\[]{0,2}",
        ) {
            let bytes = text.as_bytes();
            if let Some(end) = plain_tag_pair_end(bytes) {
                prop_assert_eq!(end, tag_pair_end(bytes), "{:?}", text);
                prop_assert!(!bytes[..end].contains(&b'\n'), "{:?}", text);
            }
        }

        /// A comment closed on its line ends, read in one search, where
        /// the general reading ends it.
        #[test]
        fn comments_closed_on_their_line_end_where_comments_end(
            text in "[a }\\\\\n\r]{0,12}",
        ) {
            let bytes = format!("{{{text}").into_bytes();
            if let Some(end) = comment_end_on_its_line(&bytes, 1) {
                let (close, escaped) = comment_close(&bytes[1..]).unwrap();
                prop_assert_eq!((end, escaped), (close + 2, false), "{:?}", text);
            }
        }

        /// White space ends where the character-wise definition says.
        #[test]
        fn white_space_ends_are_found_as_by_characters(
            text in "[ \t\n\u{a0}\u{2003}\u{3000}\u{85}\u{b}\u{c}é1]{0,12}"
        ) {
            let expected = text.len() - text.trim_start().len();
            prop_assert_eq!(white_space_end(text.as_bytes(), 0), expected);
        }
    }
}
