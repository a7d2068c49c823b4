//! A game's original text as the database stores it (schema 7): one
//! Zstandard frame per game, compressed against a dictionary of typical
//! PGN text built into xpgn ([`DICTIONARY`]).
//!
//! A game's text is a few hundred bytes: too short for a compressor to
//! learn from, so each is compressed as if it followed the dictionary (tag
//! lines, common tag values, opening lines, SAN tokens, move numbers).
//! On the 2,245 games of a TWIC issue this stores 837 bytes a game in
//! 429 (without the dictionary 539, zlib 500). Zstandard prepares the
//! dictionary once per process, where zlib would load it for every game;
//! level 3 cost about 75,000 instructions a game alone (level 4 would save
//! 28 bytes more for 45,000 more).
//!
//! Every reader of the column goes through [`unpack`] (export, `show`,
//! `serve`, migrations' checks), or reads a stream of it as it
//! decompresses (`read_prefix`, [`OriginalReader`]: a long game's text is
//! never held whole), and every writer goes through [`pack`].
//!
//! The dictionary is part of the format: changing a byte of it makes every
//! stored original unreadable. A new dictionary needs a new schema version
//! whose migration unpacks with the old one and packs with the new.
//!
//! Since schema 11 a game whose text begins with its tag section written
//! as xpgn writes tags (`[Name "value"]` and a newline each, in the order
//! stored: `render_tags`) keeps only the text after it, behind the byte
//! `TAGS_ELIDED`: the tags are stored in their columns already
//! (`roster`, the seven, `more_tags`), and rendered again when the text
//! is read. The tag section is a third of a typical game's packed text.
//! `pack_game` elides only what renders back byte for byte, so the
//! text read is always the text imported.
//!
//! Since schema 12 an import stores the texts of consecutive games
//! together: one Zstandard frame (without the dictionary) of up to
//! 32 KB of text, a row of `original_frames`, and each game's value is
//! only where its text stands in the frame (the byte 0x02, its offset and
//! length) with the frame's id in `games.frame`. Games share their tag
//! names, players, events and openings, which a frame of a few games
//! compresses once: on 5,293 real games (lichess, a TWIC issue,
//! chess.com) 344 bytes a game with every tag kept in the text, against
//! 344 for one frame a game without its tags plus 302 for those tags as
//! JSON, in about a third of the compression time. Readers see framed
//! values through the SQL function `xpgn_original`, which gives the text
//! itself behind the byte 0x03; a frame is decompressed once for all its
//! games read in a row on a thread. A game longer than 16 KB keeps a
//! frame of its own, read as a stream.

use std::cell::RefCell;
use std::io::{BufReader, Read};
use std::sync::OnceLock;

use zstd::bulk::{Compressor, Decompressor};
use zstd::dict::{DecoderDictionary, EncoderDictionary};

use super::DbError;
use super::tags::Pairs;

/// The dictionary: generic PGN text written for it (no stored games),
/// the most common strings last, where matches cost least.
pub const DICTIONARY: &[u8] = include_bytes!("original_dictionary.txt");

/// Zstandard's level: its fastest with a dictionary. On the frames of
/// 5,293 real games, level 1 takes 30% less time than level 3 (the
/// default) for 1.5% more bytes (344 a game against 339).
const LEVEL: i32 = 1;

/// The first byte of a stored value that leaves out the game's tag
/// section ([`pack_game`]); a Zstandard frame's first byte is 0x28.
pub(crate) const TAGS_ELIDED: u8 = 0x01;

/// A game's tags as xpgn writes them: `[Name "value"]` and a newline each,
/// in order, `\` and `"` escaped by a backslash.
pub(crate) fn render_tags(tags: &(impl Pairs + ?Sized)) -> Vec<u8> {
    let mut out = Vec::with_capacity(tags.pairs().map(|(n, v)| n.len() + v.len() + 6).sum());
    for (name, value) in tags.pairs() {
        out.push(b'[');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        for b in value.bytes() {
            if b == b'\\' || b == b'"' {
                out.push(b'\\');
            }
            out.push(b);
        }
        out.extend_from_slice(b"\"]\n");
    }
    out
}

/// The stored form of the text `raw` of a game whose tags are `tags` (as
/// their columns store them): without its tag section when `raw` begins
/// with exactly [`render_tags`]'s text, else whole ([`pack`]).
pub(crate) fn pack_game(raw: &[u8], tags: &(impl Pairs + ?Sized)) -> Vec<u8> {
    if tags.pairs().len() == 0 {
        return pack(raw);
    }
    let head = render_tags(tags);
    if !raw.starts_with(&head) {
        return pack(raw);
    }
    let rest = pack(&raw[head.len()..]);
    let mut stored = Vec::with_capacity(1 + rest.len());
    stored.push(TAGS_ELIDED);
    stored.extend_from_slice(&rest);
    stored
}

/// The frame of a stored value, and the text to put before what it holds
/// (the rendered tags when they were left out).
fn frame_and_head<'a>(stored: &'a [u8], tags: &[(String, String)]) -> (&'a [u8], Vec<u8>) {
    match stored.split_first() {
        Some((&TAGS_ELIDED, frame)) => (frame, render_tags(tags)),
        _ => (stored, Vec::new()),
    }
}

/// The longest original a stored value may claim to hold: a damaged
/// header must not make a reader allocate without bound. (One game of
/// 1 GiB is far past any real one; `import` reads games whole.)
const LONGEST: u64 = 1 << 30;

/// The first byte of a game's value whose text is in a frame of
/// `original_frames`: then come the text's offset in the frame's content
/// and its length, as LEB128 numbers.
pub(crate) const FRAMED: u8 = 0x02;

/// The first byte of a value that is the text itself: never stored, only
/// given by `xpgn_original` for a framed game.
pub(crate) const PLAIN: u8 = 0x03;

/// Text a frame holds at most before the next game starts a new one.
pub(crate) const FRAME_BYTES: usize = 32 * 1024;

/// A game's text longer than this keeps a frame of its own (read as a
/// stream: a long game is never held whole).
pub(crate) const SOLO_BYTES: usize = 16 * 1024;

/// [`ORIGINAL_SQL`] as a literal, for other SQL built at compile time.
macro_rules! original_sql {
    () => {
        "xpgn_original(g.id, g.frame, g.original_zstd, \
         CASE WHEN g.frame IS NULL OR xpgn_frame_at_hand(g.frame) THEN NULL \
         ELSE (SELECT f.frame FROM original_frames f WHERE f.id = g.frame) END)"
    };
}
pub(crate) use original_sql;

/// The SQL expression (over `games` as `g`) whose value [`read`] and its
/// kin take: a game's own value, or for a framed game its text behind
/// [`PLAIN`]. A frame's stored form is read only when it is not the one at hand
/// ([`frame_is_at_hand`]): a frame's games are mostly read in a row.
pub(crate) const ORIGINAL_SQL: &str = original_sql!();

/// Where a framed game's text stands in its frame's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    pub(crate) offset: usize,
    pub(crate) len: usize,
}

impl Placed {
    /// The value stored for the game: [`FRAMED`], offset, length.
    pub(crate) fn value(self) -> Vec<u8> {
        let mut out = vec![FRAMED];
        for mut n in [self.offset as u64, self.len as u64] {
            loop {
                let low = (n & 0x7f) as u8;
                n >>= 7;
                if n == 0 {
                    out.push(low);
                    break;
                }
                out.push(low | 0x80);
            }
        }
        out
    }

    /// The place a [`FRAMED`] value gives; `None` for any other value.
    pub(crate) fn of_value(stored: &[u8]) -> Option<Placed> {
        let (&FRAMED, mut rest) = stored.split_first()? else {
            return None;
        };
        let mut next = || {
            let mut n = 0u64;
            for shift in (0..64).step_by(7) {
                let (&b, tail) = rest.split_first()?;
                rest = tail;
                n |= u64::from(b & 0x7f) << shift;
                if b & 0x80 == 0 {
                    return usize::try_from(n).ok();
                }
            }
            None
        };
        let (offset, len) = (next()?, next()?);
        rest.is_empty().then_some(Placed { offset, len })
    }
}

/// The texts of consecutive games packed for storage: each text's frame
/// (by index into `frames`) and place, or `None` for a text that keeps a
/// frame of its own ([`SOLO_BYTES`]).
pub(crate) struct Framed {
    pub(crate) frames: Vec<Vec<u8>>,
    pub(crate) places: Vec<Option<(usize, Placed)>>,
}

/// Packs `texts`, in order, into frames of at most [`FRAME_BYTES`] bytes
/// of text (a text longer than [`SOLO_BYTES`] in none).
pub(crate) fn pack_frames<'a>(texts: impl IntoIterator<Item = &'a [u8]>) -> Framed {
    let mut framed = Framed {
        frames: Vec::new(),
        places: Vec::new(),
    };
    let mut content = Vec::new();
    let close = |content: &mut Vec<u8>, frames: &mut Vec<Vec<u8>>| {
        if !content.is_empty() {
            frames.push(pack_shared(content));
            content.clear();
        }
    };
    for text in texts {
        if text.len() > SOLO_BYTES {
            framed.places.push(None);
            continue;
        }
        if content.len() + text.len() > FRAME_BYTES {
            close(&mut content, &mut framed.frames);
        }
        let placed = Placed {
            offset: content.len(),
            len: text.len(),
        };
        content.extend_from_slice(text);
        framed.places.push(Some((framed.frames.len(), placed)));
    }
    close(&mut content, &mut framed.frames);
    framed
}

thread_local! {
    /// The content of the frame read last, by its id: the games of a
    /// frame are mostly read in a row (export, a query's list).
    static LAST_FRAME: RefCell<Option<(i64, Vec<u8>)>> = const { RefCell::new(None) };
}

/// The text of a framed game, placed as its value `stored` says in the
/// frame `frame_id` whose stored form is `frame` (read only when it is
/// not the frame read last on this thread: `None` then is enough).
///
/// # Errors
/// A value or frame that is damaged, or a frame that is missing.
pub(crate) fn framed_text(
    frame_id: i64,
    stored: &[u8],
    frame: Option<&[u8]>,
) -> Result<Vec<u8>, UnpackError> {
    let placed = Placed::of_value(stored)
        .ok_or_else(|| UnpackError("a framed value without its place".into()))?;
    LAST_FRAME.with(|last| {
        let mut last = last.borrow_mut();
        if last.as_ref().is_none_or(|(id, _)| *id != frame_id) {
            let frame = frame.ok_or_else(|| UnpackError(format!("frame {frame_id} is missing")))?;
            *last = Some((frame_id, unpack(frame)?));
        }
        let content = &last.as_ref().expect("set above").1;
        content
            .get(placed.offset..placed.offset.saturating_add(placed.len))
            .map(<[u8]>::to_vec)
            .ok_or_else(|| UnpackError(format!("past the end of frame {frame_id}")))
    })
}

/// Whether frame `frame_id` is the one this thread read last (its stored
/// form need not be read again).
pub(crate) fn frame_is_at_hand(frame_id: i64) -> bool {
    LAST_FRAME.with(|last| {
        last.borrow()
            .as_ref()
            .is_some_and(|(id, _)| *id == frame_id)
    })
}

/// A stored original that does not unpack (a damaged or foreign value).
#[derive(Debug, thiserror::Error)]
#[error("the stored original text does not decompress: {0}")]
pub struct UnpackError(String);

fn encoder_dictionary() -> &'static EncoderDictionary<'static> {
    static DICT: OnceLock<EncoderDictionary<'static>> = OnceLock::new();
    DICT.get_or_init(|| EncoderDictionary::copy(DICTIONARY, LEVEL))
}

fn decoder_dictionary() -> &'static DecoderDictionary<'static> {
    static DICT: OnceLock<DecoderDictionary<'static>> = OnceLock::new();
    DICT.get_or_init(|| DecoderDictionary::copy(DICTIONARY))
}

thread_local! {
    /// One context per thread, reused: creating one costs more than
    /// compressing a game.
    static COMPRESSOR: RefCell<Option<Compressor<'static>>> = const { RefCell::new(None) };
    static SHARED_COMPRESSOR: RefCell<Option<Compressor<'static>>> = const { RefCell::new(None) };
    static DECOMPRESSOR: RefCell<Option<Decompressor<'static>>> = const { RefCell::new(None) };
}

/// The stored form of `raw`.
///
/// # Panics
/// Only if Zstandard cannot allocate its context (out of memory).
pub fn pack(raw: &[u8]) -> Vec<u8> {
    COMPRESSOR.with(|c| {
        let mut c = c.borrow_mut();
        let compressor = c.get_or_insert_with(|| {
            Compressor::with_prepared_dictionary(encoder_dictionary())
                .expect("a Zstandard context is allocated")
        });
        // Compressing into a buffer of the bound's size cannot fail.
        compressor
            .compress(raw)
            .expect("Zstandard compresses into a buffer of its bound")
    })
}

/// The stored form of a frame of several games' texts, `content`.
///
/// Compressed without the dictionary: a frame's games give its compressor
/// their own history, and loading the dictionary's tables for each frame
/// cost a third of the compression time, for 11 bytes a game (344 against
/// 355 on 5,293 real games). The dictionary's reader reads such a frame
/// too: its matches reach only the frame's own bytes.
///
/// # Panics
/// Only if Zstandard cannot allocate its context (out of memory).
fn pack_shared(content: &[u8]) -> Vec<u8> {
    SHARED_COMPRESSOR.with(|c| {
        let mut c = c.borrow_mut();
        let compressor = c.get_or_insert_with(|| {
            Compressor::new(LEVEL).expect("a Zstandard context is allocated")
        });
        compressor
            .compress(content)
            .expect("Zstandard compresses into a buffer of its bound")
    })
}

/// The original bytes of a stored value written by [`pack`], or of a
/// frame of several games' texts.
///
/// # Errors
/// A value that is not such a frame.
pub fn unpack(stored: &[u8]) -> Result<Vec<u8>, UnpackError> {
    let size = match zstd::zstd_safe::get_frame_content_size(stored) {
        Ok(Some(n)) if n <= LONGEST => n as usize,
        Ok(Some(n)) => return Err(UnpackError(format!("its header claims {n} bytes"))),
        Ok(None) => return Err(UnpackError("no content size".into())),
        Err(e) => return Err(UnpackError(format!("{e:?}"))),
    };
    DECOMPRESSOR.with(|d| {
        let mut d = d.borrow_mut();
        let decompressor = match d.as_mut() {
            Some(d) => d,
            None => d.insert(
                Decompressor::with_prepared_dictionary(decoder_dictionary())
                    .map_err(|e| UnpackError(e.to_string()))?,
            ),
        };
        let out = decompressor
            .decompress(stored, size)
            .map_err(|e| UnpackError(e.to_string()))?;
        if out.len() == size {
            Ok(out)
        } else {
            Err(UnpackError("shorter than its header says".into()))
        }
    })
}

/// The original bytes of game `game` from its stored `original_zstd`
/// value and its stored `tags`: the one way the database's readers take a
/// game's text.
///
/// # Errors
/// [`DbError::Original`] for a value that does not unpack.
pub(crate) fn read(
    game: i64,
    stored: &[u8],
    tags: &[(String, String)],
) -> Result<Vec<u8>, DbError> {
    if let Some((&PLAIN, text)) = stored.split_first() {
        return Ok(text.to_vec());
    }
    let (frame, mut text) = frame_and_head(stored, tags);
    let rest = unpack(frame).map_err(|source| DbError::Original { game, source })?;
    if text.is_empty() {
        return Ok(rest);
    }
    text.extend_from_slice(&rest);
    Ok(text)
}

/// Reads the first byte of a stored value when it is [`TAGS_ELIDED`], and
/// gives the text to put before the frame's (the rendered tags), or the
/// byte back to be read as the frame's first.
fn take_head(
    game: i64,
    stored: &mut impl Read,
    tags: &[(String, String)],
) -> Result<(Vec<u8>, Vec<u8>), DbError> {
    let mut first = [0u8; 1];
    let n = stored.read(&mut first).map_err(|e| DbError::Original {
        game,
        source: UnpackError(e.to_string()),
    })?;
    Ok(match (n, first[0]) {
        (1, TAGS_ELIDED) => (render_tags(tags), Vec::new()),
        (1, b) => (Vec::new(), vec![b]),
        _ => (Vec::new(), Vec::new()),
    })
}

/// The first bytes of a stored value, its frame header (at most 18
/// bytes: read first for the length, then given back to the decoder), and
/// the original's length it gives.
/// `taken`: the value's first bytes already read.
fn read_frame_header(
    game: i64,
    taken: Vec<u8>,
    stored: &mut impl Read,
) -> Result<(Vec<u8>, u64), DbError> {
    let fail = |why: String| DbError::Original {
        game,
        source: UnpackError(why),
    };
    let mut header = taken;
    stored
        .take(18 - header.len() as u64)
        .read_to_end(&mut header)
        .map_err(|e| fail(e.to_string()))?;
    let len = frame_len(&header).map_err(fail)?;
    Ok((header, len))
}

/// The original's length as a stored value's first bytes (its frame
/// header, at most 18 bytes) give it.
fn frame_len(header: &[u8]) -> Result<u64, String> {
    match zstd::zstd_safe::get_frame_content_size(header) {
        Ok(Some(n)) if n <= LONGEST => Ok(n),
        Ok(Some(n)) => Err(format!("its header claims {n} bytes")),
        Ok(None) => Err("no content size".into()),
        Err(e) => Err(format!("{e:?}")),
    }
}

/// The stored value read after its header was taken for the length.
type Stored<R> = BufReader<std::io::Chain<std::io::Cursor<Vec<u8>>, R>>;

/// Bytes of a stored value read at once by an [`OriginalReader`].
const STORED_CHUNK: usize = 64 * 1024;

/// The original a stored value holds, decompressed as it is read: the
/// value is read 64 KB at a time and the text given as
/// asked, so an original of any length costs the decoder's window (at
/// most 8 MB, as Zstandard bounds it by default) and a chunk, never its
/// whole text. Reading fails (`InvalidData`) where the value is damaged
/// or ends before the length its header gives.
pub struct OriginalReader<R: Read> {
    /// The rendered tags of a value that left them out, given first.
    head: std::io::Cursor<Vec<u8>>,
    /// `None` for a framed game's text, given whole as the head.
    decoder: Option<zstd::stream::read::Decoder<'static, Stored<R>>>,
    len: u64,
    given: u64,
}

impl<R: Read> OriginalReader<R> {
    /// The reader of the value `stored` of game `game`, whose stored tags
    /// are `tags`, its header read.
    ///
    /// # Errors
    /// [`DbError::Original`] for a value that is not one [`pack_game`]
    /// writes.
    pub(crate) fn new(
        game: i64,
        mut stored: R,
        tags: &[(String, String)],
    ) -> Result<OriginalReader<R>, DbError> {
        let fail = |why: String| DbError::Original {
            game,
            source: UnpackError(why),
        };
        let (head, taken) = take_head(game, &mut stored, tags)?;
        let (header, len) = read_frame_header(game, taken, &mut stored)?;
        let input =
            BufReader::with_capacity(STORED_CHUNK, std::io::Cursor::new(header).chain(stored));
        let decoder =
            zstd::stream::read::Decoder::with_prepared_dictionary(input, decoder_dictionary())
                .map_err(|e| fail(e.to_string()))?;
        Ok(OriginalReader {
            len: head.len() as u64 + len,
            head: std::io::Cursor::new(head),
            decoder: Some(decoder),
            given: 0,
        })
    }

    /// The reader of a text already at hand (a framed game's, which
    /// [`SOLO_BYTES`] bounds).
    pub(crate) fn of_text(text: Vec<u8>) -> OriginalReader<R> {
        OriginalReader {
            len: text.len() as u64,
            head: std::io::Cursor::new(text),
            decoder: None,
            given: 0,
        }
    }

    /// The original's length in bytes, as the value's header gives it.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the original is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<R: Read> Read for OriginalReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = match (self.head.read(buf)?, self.decoder.as_mut()) {
            (0, Some(decoder)) => decoder.read(buf)?,
            (n, _) => n,
        };
        self.given += n as u64;
        let wrong =
            |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string());
        if self.given > self.len {
            return Err(wrong("the stored original is longer than its header says"));
        }
        if n == 0 && !buf.is_empty() && self.given < self.len {
            return Err(wrong("the stored original is shorter than its header says"));
        }
        Ok(n)
    }
}

/// At most `keep` bytes from the start of the original a stored value
/// holds, decompressed as a stream from `stored` (so the text of a long
/// game is never held whole), and the whole original's length as the
/// value's header gives it.
///
/// # Errors
/// [`DbError::Original`] for a value that is not a frame of [`pack`], or
/// that ends before its first `keep` bytes.
pub(crate) fn read_prefix(
    game: i64,
    mut stored: impl Read,
    keep: usize,
    tags: &[(String, String)],
) -> Result<(Vec<u8>, u64), DbError> {
    let fail = |why: String| DbError::Original {
        game,
        source: UnpackError(why),
    };
    let (mut head, taken) = take_head(game, &mut stored, tags)?;
    let (mut header, frame_len) = read_frame_header(game, taken, &mut stored)?;
    let len = head.len() as u64 + frame_len;
    if len <= keep as u64 {
        // Whole: the thread's reused context, not a new stream's.
        stored
            .read_to_end(&mut header)
            .map_err(|e| fail(e.to_string()))?;
        let rest = unpack(&header).map_err(|source| DbError::Original { game, source })?;
        head.extend_from_slice(&rest);
        return Ok((head, len));
    }
    let input = BufReader::new(std::io::Cursor::new(header).chain(stored));
    let decoder =
        zstd::stream::read::Decoder::with_prepared_dictionary(input, decoder_dictionary())
            .map_err(|e| fail(e.to_string()))?;
    let want = len.min(keep as u64);
    let mut out = Vec::with_capacity(want as usize);
    std::io::Cursor::new(head)
        .chain(decoder)
        .take(want)
        .read_to_end(&mut out)
        .map_err(|e| fail(e.to_string()))?;
    if out.len() as u64 == want {
        Ok((out, len))
    } else {
        Err(fail("shorter than its header says".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::tag_list::TagList;
    use proptest::prelude::*;

    #[test]
    fn a_prefix_is_the_start_of_the_original_and_its_length_the_whole() {
        let game: Vec<u8> = (0..50_000u32)
            .flat_map(|i| format!("{}. Nf3 Nf6 {{{i}}} ", i + 1).into_bytes())
            .collect();
        let stored = pack(&game);
        let (head, len) = read_prefix(1, &stored[..], 1000, &[]).unwrap();
        assert_eq!((&head[..], len), (&game[..1000], game.len() as u64));
        let (whole, _) = read_prefix(1, &stored[..], usize::MAX, &[]).unwrap();
        assert_eq!(whole, game);
        assert!(read_prefix(1, &stored[..stored.len() / 2], usize::MAX, &[]).is_err());
        assert!(read_prefix(1, &b"not a frame"[..], 10, &[]).is_err());
    }

    /// A reader that gives at most 7 bytes a call, and counts the bytes
    /// it gave.
    struct Trickle<'a>(&'a [u8], std::rc::Rc<std::cell::Cell<usize>>);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(7);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            self.1.set(self.1.get() + n);
            Ok(n)
        }
    }

    #[test]
    fn an_original_reader_gives_the_whole_text_reading_the_value_as_it_goes() {
        let game: Vec<u8> = (0..200_000u32)
            .flat_map(|i| format!("{}. Nf3 Nf6 {{{}}} ", i + 1, i * 7919 % 1000).into_bytes())
            .collect();
        let stored = pack(&game);
        let read = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut reader = OriginalReader::new(1, Trickle(&stored, read.clone()), &[]).unwrap();
        assert_eq!(reader.len(), game.len() as u64);
        // The header, and no more than one chunk of the value, before the
        // first bytes of text are given.
        let mut first = [0; 100];
        reader.read_exact(&mut first).unwrap();
        assert_eq!(&first[..], &game[..100]);
        assert!(
            read.get() <= 18 + STORED_CHUNK,
            "{} of {}",
            read.get(),
            stored.len()
        );
        let mut rest = Vec::new();
        reader.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, game[100..]);
        // A value cut short fails, where the cut is reached.
        let mut cut = OriginalReader::new(1, &stored[..stored.len() - 10], &[]).unwrap();
        assert!(cut.read_to_end(&mut Vec::new()).is_err());
        assert!(OriginalReader::new(1, &b"not a frame"[..], &[]).is_err());
    }

    #[test]
    fn a_pgn_game_comes_back_byte_for_byte_and_smaller() {
        let game = b"[Event \"Club match\"]\r\n[Site \"Leeds ENG\"]\n[Date \"2019.03.02\"]\n[Round \"4\"]\n\
            [White \"Hughes,P\"]\n[Black \"Okafor,B\"]\n[Result \"1-0\"]\n[WhiteElo \"2210\"]\n\n\
            1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2 e5 7. Nb3 Be7 8. O-O O-O \
            {a comment} 9. Be3 Be6 10. Qd2 Nbd7 11. a4 Qc7 12. Rfd1 Rfc8 1-0\n";
        let stored = pack(game);
        assert!(
            stored.len() * 10 < game.len() * 6,
            "{} of {}",
            stored.len(),
            game.len()
        );
        assert_eq!(unpack(&stored).unwrap(), game);
    }

    #[test]
    fn frames_stored_by_earlier_builds_still_unpack() {
        // The dictionary is part of the stored format: this frame was
        // packed on 2026-11-23 (schema 7); a changed dictionary or an
        // incompatible Zstandard would fail here, before users' data.
        let text: &[u8] = b"[Event \"Club match\"]\n[White \"Hughes,P\"]\n[Black \"Okafor,B\"]\n[Result \"1-0\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1-0\n";
        let frame: &[u8] = &[
            40, 181, 47, 253, 32, 131, 237, 1, 0, 84, 2, 108, 117, 98, 32, 109, 97, 116, 99, 104,
            32, 34, 72, 117, 103, 104, 101, 115, 44, 80, 32, 34, 79, 107, 97, 102, 111, 114, 44,
            66, 49, 45, 48, 99, 49, 45, 48, 10, 7, 0, 253, 1, 9, 128, 190, 7, 179, 13, 12, 194,
            209, 221, 10, 178, 155, 114, 215, 92, 28, 32,
        ];
        assert_eq!(unpack(frame).unwrap(), text);
        // A changed byte the frame above does not refer to is caught here.
        let fnv1a = DICTIONARY.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        assert_eq!(
            (DICTIONARY.len(), fnv1a),
            (7893, 11_229_160_974_395_320_670)
        );
    }

    #[test]
    fn what_is_not_a_frame_is_an_error() {
        assert!(unpack(b"").is_err());
        assert!(unpack(b"[Event \"x\"]").is_err());
        let mut stored = pack(b"1. e4 e5 *");
        stored.truncate(stored.len() - 1);
        assert!(unpack(&stored).is_err());
    }

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_tag_section_written_as_xpgn_writes_it_is_left_out_and_rendered_back() {
        let pairs = tags(&[
            ("Event", "Rated \"Blitz\" game"),
            ("Site", "C:\\games"),
            ("White", "Hughes, P"),
        ]);
        let raw = b"[Event \"Rated \\\"Blitz\\\" game\"]\n[Site \"C:\\\\games\"]\n\
            [White \"Hughes, P\"]\n\n1. e4 c5 2. Nf3 d6 {a comment} 1-0\n";
        assert!(raw.starts_with(&render_tags(&pairs)));
        let stored = pack_game(raw, &pairs);
        assert_eq!(stored[0], TAGS_ELIDED);
        assert!(
            stored.len() < pack(raw).len(),
            "{} of {}",
            stored.len(),
            pack(raw).len()
        );
        assert_eq!(read(1, &stored, &pairs).unwrap(), raw);
        for keep in [0, 5, 40, 75, 80, raw.len(), usize::MAX] {
            let (head, len) = read_prefix(1, &stored[..], keep, &pairs).unwrap();
            assert_eq!(
                (&head[..], len),
                (&raw[..keep.min(raw.len())], raw.len() as u64)
            );
        }
        let mut reader = OriginalReader::new(1, &stored[..], &pairs).unwrap();
        assert_eq!(reader.len(), raw.len() as u64);
        let mut all = Vec::new();
        reader.read_to_end(&mut all).unwrap();
        assert_eq!(all, raw);
    }

    #[test]
    fn a_tag_section_written_otherwise_is_kept_whole() {
        let pairs = tags(&[("Event", "x"), ("Site", "y")]);
        for raw in [
            &b"[Event \"x\"]\r\n[Site \"y\"]\r\n\r\n1. e4 *\r\n"[..],
            b"[Event  \"x\"]\n[Site \"y\"]\n\n1. e4 *\n",
            b"[Site \"y\"]\n[Event \"x\"]\n\n1. e4 *\n",
            b"{before} [Event \"x\"]\n[Site \"y\"]\n1. e4 *\n",
        ] {
            let stored = pack_game(raw, &pairs);
            assert_eq!(stored, pack(raw));
            assert_eq!(read(1, &stored, &pairs).unwrap(), raw);
        }
        let raw = b"1. e4 e5 *\n";
        assert_eq!(pack_game(raw, &TagList::default()), pack(raw));
    }

    proptest! {
        /// A game's text comes back byte for byte whatever its tags hold
        /// and whether or not its tag section renders as xpgn writes it.
        #[test]
        fn games_round_trip_with_their_tags(
            pairs in proptest::collection::vec(("[A-Za-z]{1,8}", "[ -~é\\\\\"]{0,12}"), 0..6),
            rest in "[ -~\n]{0,60}",
            written in any::<bool>(),
        ) {
            let head = if written { render_tags(&pairs) } else { b"[Other  \"tag\"]\n".to_vec() };
            let raw = [head, rest.into_bytes()].concat();
            let stored = pack_game(&raw, &pairs);
            prop_assert_eq!(stored[0] == TAGS_ELIDED, written && !pairs.is_empty());
            prop_assert_eq!(&read(1, &stored, &pairs).unwrap(), &raw);
            let (head, len) = read_prefix(1, &stored[..], 7, &pairs).unwrap();
            prop_assert_eq!((&head[..], len), (&raw[..7.min(raw.len())], raw.len() as u64));
        }

        /// Any bytes (not UTF-8, empty, long) round-trip.
        #[test]
        fn any_bytes_round_trip(raw in proptest::collection::vec(any::<u8>(), 0..3000)) {
            prop_assert_eq!(unpack(&pack(&raw)).unwrap(), raw);
        }

        /// Damaged values are errors or some bytes, never a panic.
        #[test]
        fn damaged_values_do_not_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = unpack(&bytes);
            let _ = framed_text(-1, &bytes, Some(&bytes));
            let _ = Placed::of_value(&bytes);
        }

        /// A place's value reads back as that place, and nothing else is
        /// read as a place.
        #[test]
        fn places_round_trip(offset in any::<u32>(), len in any::<u32>(), junk in any::<u8>()) {
            let placed = Placed { offset: offset as usize, len: len as usize };
            let mut value = placed.value();
            prop_assert_eq!(Placed::of_value(&value), Some(placed));
            value.push(junk);
            prop_assert_eq!(Placed::of_value(&value), None);
            value.truncate(value.len() - 2);
            prop_assert_eq!(Placed::of_value(&value), None);
        }

        /// Texts packed together come back each whole, from any frame in
        /// any order; each frame holds at most `FRAME_BYTES` of text, and
        /// only a text longer than `SOLO_BYTES` is left out.
        #[test]
        fn framed_texts_come_back_each_whole(
            lens in proptest::collection::vec(0usize..20_000, 0..12),
            order in any::<u64>(),
        ) {
            let texts: Vec<Vec<u8>> = lens
                .iter()
                .enumerate()
                .map(|(i, &n)| format!("[Event \"{i}\"]\n1. e4 ").into_bytes().repeat(n / 20 + 1))
                .collect();
            let framed = pack_frames(texts.iter().map(|t| &t[..]));
            prop_assert_eq!(framed.places.len(), texts.len());
            // Frame ids of this case only: the thread's frame at hand is
            // never one of another case or test.
            static CASES: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);
            let case = CASES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let mut per_frame = vec![0; framed.frames.len()];
            let mut read: Vec<usize> = (0..texts.len()).collect();
            read.rotate_left(if texts.is_empty() { 0 } else { order as usize % texts.len() });
            for i in read {
                match framed.places[i] {
                    None => prop_assert!(texts[i].len() > SOLO_BYTES),
                    Some((frame, placed)) => {
                        prop_assert!(texts[i].len() <= SOLO_BYTES);
                        per_frame[frame] += placed.len;
                        let id = -1_000_000 - case * 1000 - frame as i64;
                        let text = framed_text(id, &placed.value(), Some(&framed.frames[frame]));
                        prop_assert_eq!(&text.unwrap(), &texts[i]);
                        prop_assert!(frame_is_at_hand(id));
                        // At hand: the frame's stored form is not needed.
                        prop_assert_eq!(&framed_text(id, &placed.value(), None).unwrap(), &texts[i]);
                    }
                }
            }
            prop_assert!(per_frame.iter().all(|&n| n > 0 && n <= FRAME_BYTES));
        }
    }

    #[test]
    fn shared_frames_need_no_dictionary() {
        // Text the dictionary holds nearly whole: packed against it, the
        // frame would refer to it and not decompress alone.
        let texts: Vec<&[u8]> = vec![
            b"[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abcdefgh\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n",
            b"[Event \"Rated Bullet game\"]\n[Site \"https://lichess.org/hgfedcba\"]\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 0-1\n\n",
        ];
        let framed = pack_frames(texts.iter().copied());
        assert_eq!(framed.frames.len(), 1);
        let alone = zstd::bulk::decompress(&framed.frames[0], FRAME_BYTES).unwrap();
        assert_eq!(alone, texts.concat());
        assert_eq!(unpack(&framed.frames[0]).unwrap(), texts.concat());
    }

    #[test]
    fn a_framed_value_past_its_frame_or_without_its_frame_is_an_error() {
        let framed = pack_frames([&b"1. e4 e5 *\n"[..], b"1. d4 d5 *\n"]);
        let frame = &framed.frames[0];
        let past = Placed {
            offset: 5,
            len: 100,
        }
        .value();
        assert!(framed_text(-7, &past, Some(frame)).is_err());
        assert!(framed_text(-8, &Placed { offset: 0, len: 1 }.value(), None).is_err());
        assert!(framed_text(-9, b"\x02", Some(frame)).is_err());
        let second = framed.places[1].unwrap().1;
        assert_eq!(
            framed_text(-10, &second.value(), Some(frame)).unwrap(),
            b"1. d4 d5 *\n"
        );
        // The text a reader takes behind `PLAIN`, whatever the tags.
        let plain = [&[PLAIN][..], b"1. d4 d5 *\n"].concat();
        assert_eq!(
            read(1, &plain, &[("White".into(), "A".into())]).unwrap(),
            b"1. d4 d5 *\n"
        );
    }
}
