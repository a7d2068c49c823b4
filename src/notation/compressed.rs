//! Compressed game files: gzip, zstd and bzip2 inputs are recognised by
//! their first bytes (whatever the file is named, standard input as well)
//! and decompressed as they are read, a block at a time: a multi-gigabyte
//! archive is never decompressed whole, in memory or on disk. Outputs
//! are compressed by the name of the file they go to (`.gz`, `.zst`,
//! `.bz2`).
//!
//! Streams of several members (`cat a.pgn.gz b.pgn.gz`, parallel
//! compressors) are read to their end. A stream that is cut short or
//! damaged gives its text up to the damage, then an error
//! ([`Damaged`]) that says where it stopped: the byte of the compressed
//! input and how much text came before it. (Damaged bytes, as opposed to
//! a cut, may first give some garbage text: a gzip member or a bzip2
//! block is checked by a checksum at its end. The games such text makes
//! are read as what they are, invalid games, before the error.)

use std::io::{BufRead, Read, Write};

/// A compression format game files come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// gzip (RFC 1952), `.gz`.
    Gzip,
    /// Zstandard (RFC 8878), `.zst`.
    Zstd,
    /// bzip2, `.bz2`.
    Bzip2,
}

/// Bytes [`Format::sniff`] needs to tell every format.
pub const SNIFF_BYTES: usize = 10;

impl Format {
    /// The format's name in messages: `gzip`, `zstd`, `bzip2`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Gzip => "gzip",
            Format::Zstd => "zstd",
            Format::Bzip2 => "bzip2",
        }
    }

    /// The format whose magic number `head` (the first bytes of an input,
    /// [`SNIFF_BYTES`] of them or all there are) starts with.
    pub fn sniff(head: &[u8]) -> Option<Format> {
        if head.starts_with(b"\x1f\x8b") {
            return Some(Format::Gzip);
        }
        if head.starts_with(b"\x28\xb5\x2f\xfd") {
            return Some(Format::Zstd);
        }
        // `BZh` is also the start of a word: a block size digit and the
        // magic of a block, or of the end of an empty stream, follow it.
        let bzip2 = head.len() >= 10
            && head.starts_with(b"BZh")
            && (b'1'..=b'9').contains(&head[3])
            && (head[4..10] == *b"\x31\x41\x59\x26\x53\x59"
                || head[4..10] == *b"\x17\x72\x45\x38\x50\x90");
        bzip2.then_some(Format::Bzip2)
    }

    /// The format a file name asks for by its last extension, in any
    /// letter case: `games.pgn.zst`, `GAMES.PGN.GZ`, `out.bz2`.
    pub fn of_name(name: &str) -> Option<Format> {
        let (_, ext) = name.rsplit_once('.')?;
        [
            ("gz", Format::Gzip),
            ("zst", Format::Zstd),
            ("bz2", Format::Bzip2),
        ]
        .into_iter()
        .find(|(e, _)| ext.eq_ignore_ascii_case(e))
        .map(|(_, f)| f)
    }
}

/// A compressed input could not be read to its end: cut short, damaged,
/// or asking for more than the decoder allows. Carried by the
/// [`std::io::Error`] the reading gives (kind `UnexpectedEof` when cut
/// short, `InvalidData` otherwise); [`Damaged::of`] finds it.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.describe())]
pub struct Damaged {
    /// The format.
    pub format: Format,
    /// Bytes of the compressed input read when it stopped: where the
    /// damage is (to the decoder's block).
    pub at: u64,
    /// Bytes of text it gave before.
    pub text: u64,
    /// The input ended before its stream did.
    pub cut_short: bool,
    /// What the decoder said.
    pub source: std::io::Error,
}

impl Damaged {
    /// The damage `error` tells of, if it is one.
    pub fn of(error: &std::io::Error) -> Option<&Damaged> {
        error.get_ref().and_then(|e| e.downcast_ref::<Damaged>())
    }

    fn describe(&self) -> String {
        let format = self.format.name();
        if self.cut_short {
            format!(
                "{format} data cut short: the input ends at byte {} in the middle of a compressed stream, after {} bytes of text (the games before are read)",
                self.at, self.text
            )
        } else {
            format!(
                "{format} data cannot be decompressed at byte {} of the input, after {} bytes of text (the games before are read): {}",
                self.at, self.text, self.source
            )
        }
    }
}

/// A reader that counts the bytes taken from it.
struct Counted<R> {
    inner: R,
    consumed: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.consumed += amt as u64;
        self.inner.consume(amt);
    }
}

/// The decoder of each format.
enum Decoder<R: BufRead> {
    Gzip(flate2::bufread::MultiGzDecoder<Counted<R>>),
    Zstd(zstd::stream::read::Decoder<'static, Counted<R>>),
    Bzip2(bzip2::bufread::MultiBzDecoder<Counted<R>>),
}

/// The text of a compressed input.
struct Decompress<R: BufRead> {
    format: Format,
    decoder: Decoder<R>,
    /// Bytes of text given.
    text: u64,
}

impl<R: BufRead> Decompress<R> {
    fn new(format: Format, input: R) -> std::io::Result<Decompress<R>> {
        let input = Counted {
            inner: input,
            consumed: 0,
        };
        let decoder = match format {
            Format::Gzip => Decoder::Gzip(flate2::bufread::MultiGzDecoder::new(input)),
            Format::Zstd => Decoder::Zstd(zstd::stream::read::Decoder::with_buffer(input)?),
            Format::Bzip2 => Decoder::Bzip2(bzip2::bufread::MultiBzDecoder::new(input)),
        };
        Ok(Decompress {
            format,
            decoder,
            text: 0,
        })
    }

    fn consumed(&self) -> u64 {
        match &self.decoder {
            Decoder::Gzip(d) => d.get_ref().consumed,
            Decoder::Zstd(d) => d.get_ref().consumed,
            Decoder::Bzip2(d) => d.get_ref().consumed,
        }
    }
}

impl<R: BufRead> Read for Decompress<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = match &mut self.decoder {
            Decoder::Gzip(d) => d.read(buf),
            Decoder::Zstd(d) => d.read(buf),
            Decoder::Bzip2(d) => d.read(buf),
        };
        match read {
            Ok(n) => {
                self.text += n as u64;
                Ok(n)
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Err(e),
            Err(source) => {
                let cut_short = source.kind() == std::io::ErrorKind::UnexpectedEof;
                let kind = if cut_short {
                    std::io::ErrorKind::UnexpectedEof
                } else {
                    std::io::ErrorKind::InvalidData
                };
                let damaged = Damaged {
                    format: self.format,
                    at: self.consumed(),
                    text: self.text,
                    cut_short,
                    source,
                };
                Err(std::io::Error::new(kind, damaged))
            }
        }
    }
}

/// Bytes of text decompressed at a time.
const TEXT_BUFFER: usize = 1 << 16;

/// `input` as text: decompressed when its first bytes are those of gzip,
/// zstd or bzip2, as it is otherwise.
///
/// # Errors
/// Reading the first bytes fails, or the decoder cannot be made.
pub fn decompressed<R>(mut input: R) -> std::io::Result<Box<dyn BufRead + Send>>
where
    R: BufRead + Send + 'static,
{
    let head = input.fill_buf()?;
    if head.len() >= SNIFF_BYTES || head.is_empty() {
        return Ok(match Format::sniff(head) {
            Some(format) => Box::new(std::io::BufReader::with_capacity(
                TEXT_BUFFER,
                Decompress::new(format, input)?,
            )),
            None => Box::new(input),
        });
    }
    // A pipe may give its first bytes a few at a time: they are gathered
    // until there are enough to tell, then given back first.
    let mut first = Vec::with_capacity(SNIFF_BYTES);
    while first.len() < SNIFF_BYTES {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let n = buf.len().min(SNIFF_BYTES - first.len());
        first.extend_from_slice(&buf[..n]);
        input.consume(n);
    }
    let format = Format::sniff(&first);
    let whole = std::io::Cursor::new(first).chain(input);
    Ok(match format {
        Some(format) => Box::new(std::io::BufReader::with_capacity(
            TEXT_BUFFER,
            Decompress::new(format, whole)?,
        )),
        None => Box::new(whole),
    })
}

/// A writer that compresses what is written to it; [`Encoder::finish`]
/// ends the stream.
pub enum Encoder<W: Write> {
    /// gzip, at the default level (6).
    Gzip(flate2::write::GzEncoder<W>),
    /// zstd, at the default level (3), each frame with its checksum.
    Zstd(zstd::stream::write::Encoder<'static, W>),
    /// bzip2, with 900 kB blocks.
    Bzip2(bzip2::write::BzEncoder<W>),
}

impl<W: Write> Encoder<W> {
    /// Compresses into `out` in `format`.
    ///
    /// # Errors
    /// The zstd encoder cannot be made.
    pub fn new(format: Format, out: W) -> std::io::Result<Encoder<W>> {
        Ok(match format {
            Format::Gzip => Encoder::Gzip(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::default(),
            )),
            Format::Zstd => {
                // With a checksum of each frame, as the zstd program
                // writes by default: damage is found when read back.
                let mut e = zstd::stream::write::Encoder::new(out, 0)?;
                e.include_checksum(true)?;
                Encoder::Zstd(e)
            }
            Format::Bzip2 => Encoder::Bzip2(bzip2::write::BzEncoder::new(
                out,
                bzip2::Compression::best(),
            )),
        })
    }

    /// Ends the compressed stream and gives the writer back.
    ///
    /// # Errors
    /// Writing the stream's end fails.
    pub fn finish(self) -> std::io::Result<W> {
        match self {
            Encoder::Gzip(e) => e.finish(),
            Encoder::Zstd(e) => e.finish(),
            Encoder::Bzip2(e) => e.finish(),
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Encoder::Gzip(e) => e.write(buf),
            Encoder::Zstd(e) => e.write(buf),
            Encoder::Bzip2(e) => e.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Encoder::Gzip(e) => e.flush(),
            Encoder::Zstd(e) => e.flush(),
            Encoder::Bzip2(e) => e.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n";

    fn compress(format: Format, text: &[u8]) -> Vec<u8> {
        let mut e = Encoder::new(format, Vec::new()).unwrap();
        e.write_all(text).unwrap();
        e.finish().unwrap()
    }

    fn read_all(bytes: Vec<u8>) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decompressed(std::io::Cursor::new(bytes))?.read_to_end(&mut out)?;
        Ok(out)
    }

    const FORMATS: [Format; 3] = [Format::Gzip, Format::Zstd, Format::Bzip2];

    #[test]
    fn each_format_is_told_by_its_first_bytes_and_read_back() {
        for format in FORMATS {
            let packed = compress(format, TEXT.as_bytes());
            assert_eq!(Format::sniff(&packed), Some(format));
            assert_eq!(read_all(packed).unwrap(), TEXT.as_bytes(), "{format:?}");
        }
        // Text is given as it is.
        assert_eq!(read_all(TEXT.as_bytes().to_vec()).unwrap(), TEXT.as_bytes());
        assert_eq!(read_all(b"BZh".to_vec()).unwrap(), b"BZh");
        assert_eq!(read_all(Vec::new()).unwrap(), b"");
    }

    #[test]
    fn an_empty_stream_is_no_text() {
        for format in FORMATS {
            let packed = compress(format, b"");
            assert_eq!(Format::sniff(&packed), Some(format), "{format:?}");
            assert_eq!(read_all(packed).unwrap(), b"", "{format:?}");
        }
    }

    #[test]
    fn streams_one_after_the_other_are_read_to_the_end() {
        for format in FORMATS {
            let mut packed = compress(format, b"[Event \"a\"]\n1. e4 *\n");
            packed.extend(compress(format, b"[Event \"b\"]\n1. d4 *\n"));
            assert_eq!(
                read_all(packed).unwrap(),
                b"[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n",
                "{format:?}"
            );
        }
    }

    /// A reader that gives one byte at a time, as a slow pipe may.
    struct Trickle(std::io::Cursor<Vec<u8>>);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(1);
            self.0.read(&mut buf[..n])
        }
    }

    #[test]
    fn first_bytes_that_come_one_at_a_time_are_told_all_the_same() {
        for format in FORMATS {
            let packed = compress(format, TEXT.as_bytes());
            let input = std::io::BufReader::with_capacity(1, Trickle(std::io::Cursor::new(packed)));
            let mut out = Vec::new();
            decompressed(input).unwrap().read_to_end(&mut out).unwrap();
            assert_eq!(out, TEXT.as_bytes(), "{format:?}");
        }
        let input = std::io::BufReader::with_capacity(
            1,
            Trickle(std::io::Cursor::new(TEXT.as_bytes().to_vec())),
        );
        let mut out = Vec::new();
        decompressed(input).unwrap().read_to_end(&mut out).unwrap();
        assert_eq!(out, TEXT.as_bytes());
    }

    /// Text that does not compress to nothing: many games, each other
    /// (numbers of a linear congruential generator in their comments),
    /// about 2 MB: several blocks of every format.
    fn many_games() -> Vec<u8> {
        let mut x = 1u64;
        let mut text = String::new();
        for i in 0..20_000 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            text.push_str(&format!(
                "[Event \"game {i}\"]\n\n1. e4 e5 {{{x:x} {:x}}} *\n\n",
                x >> 17
            ));
        }
        text.into_bytes()
    }

    #[test]
    fn a_stream_cut_short_gives_its_text_then_says_where_it_stopped() {
        let text = many_games();
        for format in FORMATS {
            let packed = compress(format, &text);
            let cut = packed.len() * 2 / 3;
            let mut reader = decompressed(std::io::Cursor::new(packed[..cut].to_vec())).unwrap();
            let mut out = Vec::new();
            let e = reader.read_to_end(&mut out).unwrap_err();
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::UnexpectedEof,
                "{format:?}: {e}"
            );
            let damaged = Damaged::of(&e).unwrap();
            assert!(damaged.cut_short);
            assert_eq!(damaged.at, cut as u64, "{format:?}");
            assert_eq!(damaged.text, out.len() as u64, "{format:?}");
            assert!(
                e.to_string()
                    .contains(&format!("{} data cut short", format.name()))
            );
            assert!(e.to_string().contains(&format!("at byte {cut}")), "{e}");
            // What came before the cut is the text's start. (bzip2 gives
            // nothing of a block it has not read whole.)
            assert!(text.starts_with(&out), "{format:?}");
            if format != Format::Bzip2 {
                assert!(out.len() > text.len() / 3, "{format:?}: {}", out.len());
            }
        }
    }

    #[test]
    fn a_damaged_stream_says_it_cannot_be_decompressed_and_where() {
        let text = many_games();
        for format in FORMATS {
            let mut packed = compress(format, &text);
            // Past the first of bzip2's blocks of 900 kB of text.
            let at = packed.len() * 7 / 8;
            for b in &mut packed[at..at + 64] {
                *b ^= 0x5a;
            }
            let mut reader = decompressed(std::io::Cursor::new(packed.clone())).unwrap();
            let mut out = Vec::new();
            let e = reader.read_to_end(&mut out).unwrap_err();
            let damaged = Damaged::of(&e).unwrap_or_else(|| panic!("{format:?}: {e}"));
            assert!(!damaged.cut_short, "{format:?}: {e}");
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
            assert!(
                damaged.at >= at as u64 / 2 && damaged.at <= packed.len() as u64,
                "{format:?}: damaged at {at}, told {}",
                damaged.at
            );
            // The text before the damage comes out as it was (what gzip
            // or bzip2 gives between the damage and where its decoder
            // sees it may be garbage: their checksums are at the end of a
            // member or a block).
            let same = out.iter().zip(&text).take_while(|(a, b)| a == b).count();
            assert!(same > text.len() / 2, "{format:?}: {same} bytes");
            assert!(
                e.to_string().contains(&format!(
                    "{} data cannot be decompressed at byte",
                    format.name()
                )),
                "{e}"
            );
        }
    }

    #[test]
    fn output_names_ask_for_their_format_in_any_letter_case() {
        assert_eq!(Format::of_name("a.pgn.gz"), Some(Format::Gzip));
        assert_eq!(Format::of_name("A.PGN.ZST"), Some(Format::Zstd));
        assert_eq!(Format::of_name("dir.x/a.Bz2"), Some(Format::Bzip2));
        assert_eq!(Format::of_name("a.pgn"), None);
        assert_eq!(Format::of_name("gz"), None);
        assert_eq!(Format::of_name("a.tgz"), None);
    }
}
