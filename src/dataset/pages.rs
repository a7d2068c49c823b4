//! Column chunks whose values the dataset already holds as indices into
//! small tables, encoded here page by page rather than by the Parquet
//! crate's column writer. A position row's game id and variant are its
//! game's, found by index, and its ply is a small number: the writer's
//! dictionary encoder would hash every value to find what the index
//! already says, which was most of the cost of a `positions` file. The
//! chunks have what the column writer gives them (a dictionary page
//! first, data pages of [`PAGE_ROWS`] rows compressed with Snappy, chunk
//! statistics, a column index and an offset index), so readers see no
//! difference but the order of dictionary entries.

use bytes::Bytes;
use parquet::basic::{BoundaryOrder, Compression, Encoding, PageType};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::metadata::{
    ColumnChunkMetaData, ColumnIndexBuilder, OffsetIndexBuilder, PageEncodingStats,
};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

use super::encode::Chunk;

/// Rows per data page: the column writer's default bound, which gives a
/// reader that looks up a key a page of 160 KB to read at most.
const PAGE_ROWS: usize = 20_000;

/// A value of a column as Parquet stores it.
pub(super) trait PlainValue: Copy + PartialOrd {
    /// Appends its PLAIN encoding.
    fn put(self, out: &mut Vec<u8>);
    /// Its bytes in statistics and the column index.
    fn stat_bytes(self) -> Vec<u8>;
    /// Chunk statistics of values from `min` to `max` with `nulls` nulls
    /// (with the deprecated fields too where the order is `signed`).
    fn statistics(min_max: Option<(Self, Self)>, nulls: u64, signed: bool) -> Statistics;
}

/// [`PlainValue`] for an integer type, with its variant of [`Statistics`].
macro_rules! plain_integer {
    ($type:ty, $statistics:ident) => {
        impl PlainValue for $type {
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn stat_bytes(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            fn statistics(min_max: Option<($type, $type)>, nulls: u64, signed: bool) -> Statistics {
                let (min, max) = min_max.unzip();
                Statistics::$statistics(
                    ValueStatistics::new(min, max, None, Some(nulls), false)
                        .with_backwards_compatible_min_max(signed),
                )
            }
        }
    };
}

plain_integer!(i64, Int64);
plain_integer!(i32, Int32);

impl PlainValue for &[u8] {
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.len() as u32).to_le_bytes());
        out.extend_from_slice(self);
    }
    fn stat_bytes(self) -> Vec<u8> {
        self.to_vec()
    }
    fn statistics(min_max: Option<(&[u8], &[u8])>, nulls: u64, signed: bool) -> Statistics {
        let (min, max) = min_max.unzip();
        let bytes = |v: Option<&[u8]>| v.map(|v| ByteArray::from(v.to_vec()));
        Statistics::ByteArray(
            ValueStatistics::new(bytes(min), bytes(max), None, Some(nulls), false)
                .with_backwards_compatible_min_max(signed),
        )
    }
}

/// The smallest and largest of `values`.
fn min_max<T: PlainValue>(values: impl Iterator<Item = T>) -> Option<(T, T)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((if v < lo { v } else { lo }, if v > hi { v } else { hi })),
    })
}

/// A column chunk whose row `i` holds `table[index(i)]` (null where
/// `index` gives `None`, only where the column is optional), written with
/// a dictionary of the entries it uses, in the order they first come.
pub(super) fn dictionary_chunk<T: PlainValue>(
    descr: ColumnDescPtr,
    table: &[T],
    rows: usize,
    index: impl Fn(usize) -> Option<usize>,
) -> Result<Chunk, ParquetError> {
    // Each table entry's place in the dictionary, once it has one.
    let mut place = vec![NULL_ENTRY; table.len()];
    let mut dictionary = Vec::new();
    let entries: Vec<u32> = (0..rows)
        .map(|i| {
            let Some(entry) = index(i) else {
                return NULL_ENTRY;
            };
            if place[entry] == NULL_ENTRY {
                place[entry] = dictionary.len() as u32;
                dictionary.push(table[entry]);
            }
            place[entry]
        })
        .collect();
    indexed_chunk(descr, &dictionary, &entries)
}

/// The entry of a null row in [`indexed_chunk`].
pub(super) const NULL_ENTRY: u32 = u32::MAX;

/// A column chunk whose rows are the entries `entries` of `dictionary`
/// ([`NULL_ENTRY`]: null, only where the column is optional), every entry
/// used and in the order the rows first use it: the chunk's dictionary
/// page as it stands. A row is an index already, not an `Option` to
/// unwrap and copy out page by page.
pub(super) fn indexed_chunk<T: PlainValue>(
    descr: ColumnDescPtr,
    dictionary: &[T],
    entries: &[u32],
) -> Result<Chunk, ParquetError> {
    let optional = descr.max_def_level() > 0;
    if !optional && entries.contains(&NULL_ENTRY) {
        return Err(ParquetError::General(
            "a required column was given no value".into(),
        ));
    }
    let bit_width = bits_for(dictionary.len().saturating_sub(1) as u64);
    let mut chunk = ChunkWriter::new(descr);
    let mut plain = Vec::new();
    for &v in dictionary {
        v.put(&mut plain);
    }
    chunk.dictionary_page(&plain, dictionary.len())?;
    let mut used = vec![false; dictionary.len()];
    let mut present = Vec::new();
    for page in entries.chunks(PAGE_ROWS) {
        let mut buf =
            Vec::with_capacity((page.len() * (usize::from(bit_width) + 1)).div_ceil(8) + 64);
        let present: &[u32] = if optional {
            let levels: Vec<u32> = page.iter().map(|&e| u32::from(e != NULL_ENTRY)).collect();
            put_levels(&levels, &mut buf);
            present.clear();
            present.extend(page.iter().copied().filter(|&e| e != NULL_ENTRY));
            &present
        } else {
            page
        };
        buf.push(bit_width);
        hybrid(present, bit_width, &mut buf);
        // The page's bounds among the entries it uses: a comparison an
        // entry, not a row.
        used.fill(false);
        for &k in present {
            used[k as usize] = true;
        }
        let bounds = min_max(
            dictionary
                .iter()
                .zip(&used)
                .filter(|(_, u)| **u)
                .map(|(&v, _)| v),
        );
        let nulls = page.len() - present.len();
        chunk.data_page(&buf, page.len(), nulls, Encoding::RLE_DICTIONARY, bounds)?;
    }
    chunk.close(Encoding::RLE_DICTIONARY, entries.len())
}

/// A column chunk of `values` written PLAIN (`None` only where the column
/// is optional).
pub(super) fn plain_chunk<T: PlainValue>(
    descr: ColumnDescPtr,
    values: &[Option<T>],
) -> Result<Chunk, ParquetError> {
    let mut chunk = ChunkWriter::new(descr);
    for start in (0..values.len()).step_by(PAGE_ROWS) {
        let page = &values[start..(start + PAGE_ROWS).min(values.len())];
        let mut buf = chunk.levels(page)?;
        for v in page.iter().flatten() {
            v.put(&mut buf);
        }
        let nulls = page.iter().filter(|v| v.is_none()).count();
        let bounds = min_max(page.iter().flatten().copied());
        chunk.data_page(&buf, page.len(), nulls, Encoding::PLAIN, bounds)?;
    }
    chunk.close(Encoding::PLAIN, values.len())
}

/// A column chunk of a required column whose row `i` is `value(i)`, of
/// `rows` rows, written PLAIN: [`plain_chunk`] without the options to
/// gather, test and unwrap.
pub(super) fn plain_required_chunk<T: PlainValue>(
    descr: ColumnDescPtr,
    rows: usize,
    value: impl Fn(usize) -> T,
) -> Result<Chunk, ParquetError> {
    if descr.max_def_level() != 0 {
        return Err(ParquetError::General(format!(
            "{} is not a required column",
            descr.path()
        )));
    }
    let mut chunk = ChunkWriter::new(descr);
    for start in (0..rows).step_by(PAGE_ROWS) {
        let end = (start + PAGE_ROWS).min(rows);
        let mut buf = Vec::with_capacity((end - start) * 8);
        for i in start..end {
            value(i).put(&mut buf);
        }
        let bounds = min_max((start..end).map(&value));
        chunk.data_page(&buf, end - start, 0, Encoding::PLAIN, bounds)?;
    }
    chunk.close(Encoding::PLAIN, rows)
}

/// A column chunk of byte strings that come again and again (events,
/// sites, players, results, a file's name; `None` only where the column
/// is optional): with a dictionary of the values in the order they first
/// come, each compared first with the value of the row before and hashed
/// only when they differ, and statistics. PLAIN when the dictionary
/// would pass [`DICTIONARY_BYTES`]. The column writer hashed every value
/// and compared each with its page's bounds.
pub(super) fn text_chunk(
    descr: ColumnDescPtr,
    values: &[Option<&[u8]>],
) -> Result<Chunk, ParquetError> {
    // A row is a list of its one value or of none: the dictionary of the
    // tags' lists, each value compared with the row before's first.
    let lengths: Vec<u32> = values.iter().map(|v| u32::from(v.is_some())).collect();
    let present: Vec<&[u8]> = values.iter().flatten().copied().collect();
    let (keys, table, bytes) = list_dictionary(&lengths, &present);
    if bytes > DICTIONARY_BYTES {
        return plain_chunk(descr, values);
    }
    let mut present_keys = keys.into_iter();
    let keys: Vec<Option<usize>> = values
        .iter()
        .map(|v| v.and_then(|_| present_keys.next()).map(|k| k as usize))
        .collect();
    dictionary_chunk(descr, &table, values.len(), |i| keys[i])
}

/// The most bytes of a data page of byte strings (the column writer's
/// bound).
const PAGE_BYTES: usize = 1024 * 1024;

/// A column chunk of byte strings in no order (`None` only where the
/// column is optional): a game's whole text, its moves, its hashes.
/// Written PLAIN, without statistics or a column index, as the column
/// writer writes the columns so configured (their bounds tell a reader
/// nothing to skip by); a page holds at most [`PAGE_ROWS`] rows and
/// passes [`PAGE_BYTES`] by its last value at most, its room taken at
/// once: the column writer grew its pages and its compressed output by
/// doubling, copying each kilobyte of text twice more.
pub(super) fn unordered_chunk(
    descr: ColumnDescPtr,
    values: &[Option<&[u8]>],
) -> Result<Chunk, ParquetError> {
    let mut chunk = ChunkWriter::<&[u8]>::new(descr);
    chunk.column_index = None;
    let mut start = 0;
    while start < values.len() {
        let (mut end, mut bytes) = (start, 0);
        while end < values.len() && end - start < PAGE_ROWS && bytes < PAGE_BYTES {
            bytes += values[end].map_or(0, |v| 4 + v.len());
            end += 1;
        }
        let page = &values[start..end];
        let mut buf = chunk.levels(page)?;
        buf.reserve(bytes);
        for v in page.iter().flatten() {
            v.put(&mut buf);
        }
        let nulls = page.iter().filter(|v| v.is_none()).count();
        chunk.data_page(&buf, page.len(), nulls, Encoding::PLAIN, None)?;
        start = end;
    }
    chunk.close(Encoding::PLAIN, values.len())
}

/// The most bytes of a dictionary: a chunk of more distinct values than
/// fit is written PLAIN (the column writer's bound too).
const DICTIONARY_BYTES: usize = 1024 * 1024;

/// A column chunk of the leaf of a list of byte strings (`tags.name`,
/// `tags.value`): row `r` holds the next `lengths[r]` of `values`, an
/// empty list where 0. Written with a dictionary of the values in the
/// order they first come, unless it would pass [`DICTIONARY_BYTES`]; each
/// data page holds whole rows, [`PAGE_ROWS`] level entries or a little
/// more. The column writer, which also compared each value with its
/// page's bounds and measured its page value by value, took twice the
/// instructions.
pub(super) fn list_chunk(
    descr: ColumnDescPtr,
    lengths: &[u32],
    values: &[&[u8]],
) -> Result<Chunk, ParquetError> {
    if descr.max_rep_level() != 1 || descr.max_def_level() != 1 {
        return Err(ParquetError::General(format!(
            "{} is no leaf of a list of required values",
            descr.path()
        )));
    }
    if lengths.iter().map(|&n| n as usize).sum::<usize>() != values.len() {
        return Err(ParquetError::General(
            "the lists' lengths do not add up to their values".into(),
        ));
    }
    let (keys, dictionary, dictionary_bytes) = list_dictionary(lengths, values);
    let by_dictionary = dictionary_bytes <= DICTIONARY_BYTES;
    let mut chunk = ChunkWriter::new(descr);
    let encoding = if by_dictionary {
        let mut plain = Vec::with_capacity(dictionary_bytes);
        for &v in &dictionary {
            v.put(&mut plain);
        }
        chunk.dictionary_page(&plain, dictionary.len())?;
        Encoding::RLE_DICTIONARY
    } else {
        Encoding::PLAIN
    };
    let bit_width = bits_for(dictionary.len().saturating_sub(1) as u64);
    let mut used = vec![false; if by_dictionary { dictionary.len() } else { 0 }];
    let (mut row, mut value) = (0, 0);
    while row < lengths.len() {
        // Whole rows up to the page's bound.
        let (first_row, first_value) = (row, value);
        let mut levels = 0;
        while row < lengths.len() && levels < PAGE_ROWS {
            levels += (lengths[row] as usize).max(1);
            value += lengths[row] as usize;
            row += 1;
        }
        let page_lengths = &lengths[first_row..row];
        let mut buf = list_levels(page_lengths, levels);
        let bounds = if by_dictionary {
            let page_keys = &keys[first_value..value];
            buf.push(bit_width);
            hybrid(page_keys, bit_width, &mut buf);
            used.fill(false);
            for &k in page_keys {
                used[k as usize] = true;
            }
            min_max(
                dictionary
                    .iter()
                    .zip(&used)
                    .filter(|(_, u)| **u)
                    .map(|(&v, _)| v),
            )
        } else {
            let page_values = &values[first_value..value];
            for &v in page_values {
                v.put(&mut buf);
            }
            min_max(page_values.iter().copied())
        };
        let empty = page_lengths.iter().filter(|&&n| n == 0).count();
        chunk.page_of_levels(&buf, levels, row - first_row, empty, encoding, bounds)?;
    }
    chunk.close(encoding, lengths.len())
}

/// The dictionary of the values of lists (`lengths` as in
/// [`list_chunk`]) in the order they first come, each value's index into
/// it, and its size PLAIN. Games list their tags in one order, often with
/// the same values game after game (`Event`, `Site`, `Result`): a value
/// is compared with the value at its place in the list before, and
/// hashed only when they differ.
fn list_dictionary<'v>(lengths: &[u32], values: &[&'v [u8]]) -> (Vec<u32>, Vec<&'v [u8]>, usize) {
    let mut places = std::collections::HashMap::with_capacity(values.len() / 4);
    let mut dictionary: Vec<&[u8]> = Vec::new();
    let mut bytes = 0;
    let mut keys: Vec<u32> = Vec::with_capacity(values.len());
    let (mut before, mut at) = (0..0, 0);
    for &n in lengths {
        let list = at..at + n as usize;
        for (i, &v) in values[list.clone()].iter().enumerate() {
            let same =
                (i < before.len() && values[before.start + i] == v).then(|| keys[before.start + i]);
            let key = same.unwrap_or_else(|| {
                *places.entry(v).or_insert_with(|| {
                    dictionary.push(v);
                    bytes += 4 + v.len();
                    dictionary.len() as u32 - 1
                })
            });
            keys.push(key);
        }
        (before, at) = (list.clone(), list.end);
    }
    (keys, dictionary, bytes)
}

/// The repetition and definition levels of a page of lists of
/// `lengths` values (`levels` entries), as a version 1 data page starts
/// with them, each with its length first: a list's first value repeats
/// at level 0 and the others at 1; an empty list is one entry, undefined.
fn list_levels(lengths: &[u32], levels: usize) -> Vec<u8> {
    let mut repetition = Vec::with_capacity(levels);
    let mut definition = Vec::with_capacity(levels);
    for &n in lengths {
        repetition.push(0);
        definition.push(u32::from(n > 0));
        for _ in 1..n {
            repetition.push(1);
            definition.push(1);
        }
    }
    let mut buf = Vec::with_capacity(levels * 6 + 16);
    put_levels(&repetition, &mut buf);
    put_levels(&definition, &mut buf);
    buf
}

/// Appends levels of one bit as a version 1 data page holds them: their
/// length in bytes, then the RLE / bit-packing hybrid.
fn put_levels(levels: &[u32], out: &mut Vec<u8>) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    hybrid(levels, 1, out);
    let length = (out.len() - at - 4) as u32;
    out[at..at + 4].copy_from_slice(&length.to_le_bytes());
}

/// The bits an unsigned value up to `max` takes.
fn bits_for(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

/// Appends `values` in the RLE / bit-packing hybrid of `bit_width` bits
/// (without the length prefix levels carry): a run of eight or more equal
/// values as one repeated value, the others bit-packed in groups of
/// eight, the last group filled out with zeros.
fn hybrid(values: &[u32], bit_width: u8, out: &mut Vec<u8>) {
    let value_bytes = usize::from(bit_width).div_ceil(8);
    // Whether a run of eight equal values starts at `at`.
    let run_starts = |at: usize| {
        values
            .get(at..at + 8)
            .is_some_and(|group| group.iter().all(|&v| v == group[0]))
    };
    let mut i = 0;
    while i < values.len() {
        if run_starts(i) {
            let run = values[i..].iter().take_while(|&&v| v == values[i]).count();
            put_varint(out, (run as u64) << 1);
            out.extend_from_slice(&values[i].to_le_bytes()[..value_bytes]);
            i += run;
            continue;
        }
        // Groups of eight up to the next run, or the end.
        let mut end = i + 8;
        while end < values.len() && !run_starts(end) {
            end += 8;
        }
        let end = end.min(values.len());
        put_varint(out, (((end - i).div_ceil(8) as u64) << 1) | 1);
        for group in values[i..end].chunks(8) {
            bit_pack(group, bit_width, out);
        }
        i = end;
    }
}

/// Appends eight values (fewer at the end, the rest zero) of `bit_width`
/// bits each (at most 32), least significant bit first.
fn bit_pack(group: &[u32], bit_width: u8, out: &mut Vec<u8>) {
    let mut packed = [0u8; 32];
    let (mut acc, mut bits, mut n) = (0u64, 0u32, 0);
    for k in 0..8 {
        acc |= u64::from(group.get(k).copied().unwrap_or(0)) << bits;
        bits += u32::from(bit_width);
        while bits >= 8 {
            packed[n] = acc as u8;
            n += 1;
            acc >>= 8;
            bits -= 8;
        }
    }
    out.extend_from_slice(&packed[..n]);
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A column chunk being written into memory page by page, with what its
/// footer entry and page indexes say of it.
struct ChunkWriter<T> {
    descr: ColumnDescPtr,
    sink: TrackedWrite<Vec<u8>>,
    offsets: OffsetIndexBuilder,
    /// `None` for a chunk written without statistics (nor column index).
    column_index: Option<ColumnIndexBuilder>,
    encoding_stats: Vec<PageEncodingStats>,
    dictionary_offset: Option<i64>,
    data_offset: Option<i64>,
    compressed: i64,
    uncompressed: i64,
    values: i64,
    nulls: u64,
    /// The chunk's smallest and largest value.
    bounds: Option<(T, T)>,
    /// The last page's that had values.
    last: Option<(T, T)>,
    /// Whether each page's bounds are at least those before.
    ascending: bool,
    /// Whether each page's bounds are at most those before.
    descending: bool,
    /// One encoder for every page: a new one allocates and zeroes its
    /// table of 32 KB.
    snappy: snap::raw::Encoder,
}

impl<T: PlainValue> ChunkWriter<T> {
    fn new(descr: ColumnDescPtr) -> ChunkWriter<T> {
        let column_index = Some(ColumnIndexBuilder::new(descr.physical_type()));
        ChunkWriter {
            descr,
            sink: TrackedWrite::new(Vec::new()),
            offsets: OffsetIndexBuilder::new(),
            column_index,
            encoding_stats: Vec::new(),
            dictionary_offset: None,
            data_offset: None,
            compressed: 0,
            uncompressed: 0,
            values: 0,
            nulls: 0,
            bounds: None,
            last: None,
            ascending: true,
            descending: true,
            snappy: snap::raw::Encoder::new(),
        }
    }

    /// The definition levels of a page's values, as a version 1 data
    /// page starts with them (its length first); nothing for a required
    /// column, which must have every value.
    fn levels<V>(&self, page: &[Option<V>]) -> Result<Vec<u8>, ParquetError> {
        let mut buf = Vec::with_capacity(page.len() * 8 + 16);
        if self.descr.max_def_level() == 0 {
            if page.iter().any(Option::is_none) {
                return Err(ParquetError::General(
                    "a required column was given no value".into(),
                ));
            }
            return Ok(buf);
        }
        let levels: Vec<u32> = page.iter().map(|v| u32::from(v.is_some())).collect();
        put_levels(&levels, &mut buf);
        Ok(buf)
    }

    /// Compresses and writes one page; where it starts and its size with
    /// its header.
    fn write(
        &mut self,
        page: impl FnOnce(Bytes) -> Page,
        raw: &[u8],
    ) -> Result<(i64, i32), ParquetError> {
        let compressed = self
            .snappy
            .compress_vec(raw)
            .map_err(|e| ParquetError::External(Box::new(e)))?;
        let page = CompressedPage::new(page(Bytes::from(compressed)), raw.len());
        let spec = SerializedPageWriter::new(&mut self.sink).write_page(page)?;
        self.compressed += spec.compressed_size as i64;
        self.uncompressed += spec.uncompressed_size as i64;
        Ok((spec.offset as i64, spec.compressed_size as i32))
    }

    fn dictionary_page(&mut self, plain: &[u8], entries: usize) -> Result<(), ParquetError> {
        let (offset, _) = self.write(
            |buf| Page::DictionaryPage {
                buf,
                num_values: entries as u32,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            },
            plain,
        )?;
        self.dictionary_offset = Some(offset);
        self.encoding_stats.push(PageEncodingStats {
            page_type: PageType::DICTIONARY_PAGE,
            encoding: Encoding::PLAIN,
            count: 1,
        });
        Ok(())
    }

    /// Writes a data page of `rows` rows, `nulls` of them null, whose
    /// values lie within `bounds`.
    fn data_page(
        &mut self,
        raw: &[u8],
        rows: usize,
        nulls: usize,
        encoding: Encoding,
        bounds: Option<(T, T)>,
    ) -> Result<(), ParquetError> {
        self.page_of_levels(raw, rows, rows, nulls, encoding, bounds)
    }

    /// [`ChunkWriter::data_page`] of `levels` level entries making `rows`
    /// rows: a list's leaf has an entry a value and one an empty list.
    fn page_of_levels(
        &mut self,
        raw: &[u8],
        levels: usize,
        rows: usize,
        nulls: usize,
        encoding: Encoding,
        bounds: Option<(T, T)>,
    ) -> Result<(), ParquetError> {
        let (offset, size) = self.write(
            |buf| Page::DataPage {
                buf,
                num_values: levels as u32,
                encoding,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                statistics: None,
            },
            raw,
        )?;
        self.data_offset.get_or_insert(offset);
        self.offsets.append_offset_and_size(offset, size);
        self.offsets.append_row_count(rows as i64);
        match self.encoding_stats.last_mut() {
            Some(s) if s.page_type == PageType::DATA_PAGE => s.count += 1,
            _ => self.encoding_stats.push(PageEncodingStats {
                page_type: PageType::DATA_PAGE,
                encoding,
                count: 1,
            }),
        }
        self.values += levels as i64;
        self.nulls += nulls as u64;
        let Some(column_index) = self.column_index.as_mut() else {
            return Ok(());
        };
        let Some((lo, hi)) = bounds else {
            column_index.append(true, Vec::new(), Vec::new(), nulls as i64);
            return Ok(());
        };
        column_index.append(false, lo.stat_bytes(), hi.stat_bytes(), nulls as i64);
        if let Some((last_lo, last_hi)) = self.last {
            self.ascending &= last_lo <= lo && last_hi <= hi;
            self.descending &= last_lo >= lo && last_hi >= hi;
        }
        self.last = Some((lo, hi));
        self.bounds = min_max(
            self.bounds
                .into_iter()
                .flat_map(|(a, b)| [a, b])
                .chain([lo, hi]),
        );
        Ok(())
    }

    /// The chunk, its data pages encoded as `encoding` says.
    fn close(mut self, encoding: Encoding, rows: usize) -> Result<Chunk, ParquetError> {
        let signed = self.descr.sort_order().is_signed();
        let mut encodings = vec![Encoding::PLAIN, Encoding::RLE];
        if encoding != Encoding::PLAIN {
            encodings.push(encoding);
        }
        let mut metadata = ColumnChunkMetaData::builder(self.descr.clone())
            .set_compression(Compression::SNAPPY)
            .set_encodings(encodings)
            .set_page_encoding_stats(std::mem::take(&mut self.encoding_stats))
            .set_total_compressed_size(self.compressed)
            .set_total_uncompressed_size(self.uncompressed)
            .set_num_values(self.values)
            .set_data_page_offset(self.data_offset.unwrap_or(0))
            .set_dictionary_page_offset(self.dictionary_offset);
        if self.column_index.is_some() {
            metadata = metadata.set_statistics(T::statistics(self.bounds, self.nulls, signed));
        }
        let metadata = metadata.build()?;
        let order = match (self.ascending, self.descending) {
            (true, _) => BoundaryOrder::ASCENDING,
            (false, true) => BoundaryOrder::DESCENDING,
            (false, false) => BoundaryOrder::UNORDERED,
        };
        let column_index = match self.column_index.take() {
            Some(mut index) => {
                index.set_boundary_order(order);
                Some(index.build()?)
            }
            None => None,
        };
        let bytes_written = self.sink.bytes_written() as u64;
        let bytes = self.sink.into_inner()?;
        Ok(Chunk::new(
            bytes,
            ColumnCloseResult {
                bytes_written,
                rows_written: rows as u64,
                metadata,
                bloom_filter: None,
                column_index,
                offset_index: Some(self.offsets.build()),
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::encode::PartFile;
    use parquet::file::page_index::column_index::ColumnIndexMetaData;
    use parquet::file::properties::WriterProperties;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::file::serialized_reader::ReadOptionsBuilder;
    use parquet::record::Field;
    use parquet::schema::parser::parse_message_type;
    use parquet::schema::types::SchemaDescriptor;
    use std::sync::Arc;

    const SCHEMA: &str = "message t {
        required int64 id;
        optional int32 small;
        optional int64 plain;
        required binary name (STRING);
    }";

    /// Row `i` of group `group`: runs longer and shorter than eight, a
    /// value alone, nulls in pages of their own and among values.
    fn row(group: usize, i: usize) -> (i64, Option<i32>, Option<i64>, usize) {
        let id = [-5i64, 7, i64::MAX, i64::MIN][(i / 9 + group) % 4];
        let small = (i % 50_000 >= 20_000 || i.is_multiple_of(3)).then_some((i % 7) as i32 - 3);
        let plain = (!i.is_multiple_of(5)).then_some((i as i64) * 1_000_003 - 40_000);
        let name = usize::from(group == 1 && i.is_multiple_of(11));
        (id, small, plain, name)
    }

    #[test]
    fn chunks_read_back_as_written_with_their_statistics_and_indexes() {
        let dir = std::env::temp_dir().join(format!("xpgn-pages-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let schema = Arc::new(parse_message_type(SCHEMA).unwrap());
        let columns = SchemaDescriptor::new(schema.clone());
        let props = Arc::new(WriterProperties::builder().build());
        let path = dir.join("t.parquet");
        let mut file = PartFile::create(path.clone(), &schema, &props)
            .map_err(|_| ())
            .unwrap();
        let names: [&[u8]; 2] = [b"chess", b"courier"];
        let sizes = [45_001, 7];
        for (group, &rows) in sizes.iter().enumerate() {
            let rows: Vec<_> = (0..rows).map(|i| row(group, i)).collect();
            let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
            let smalls: Vec<i32> = (-3..4).collect();
            let chunks = [
                dictionary_chunk(columns.column(0), &ids, rows.len(), Some).unwrap(),
                dictionary_chunk(columns.column(1), &smalls, rows.len(), |i| {
                    rows[i].1.map(|v| (v + 3) as usize)
                })
                .unwrap(),
                plain_chunk(
                    columns.column(2),
                    &rows.iter().map(|r| r.2).collect::<Vec<_>>(),
                )
                .unwrap(),
                dictionary_chunk(columns.column(3), &names, rows.len(), |i| Some(rows[i].3))
                    .unwrap(),
            ];
            for chunk in chunks {
                file.push(chunk).map_err(|_| ()).unwrap();
            }
        }
        file.finish().map_err(|_| ()).unwrap();
        let options = ReadOptionsBuilder::new().with_page_index().build();
        let reader =
            SerializedFileReader::new_with_options(std::fs::File::open(&path).unwrap(), options)
                .unwrap();
        let mut read = reader.get_row_iter(None).unwrap();
        for (group, &rows) in sizes.iter().enumerate() {
            for i in 0..rows {
                let (id, small, plain, name) = row(group, i);
                let got: Vec<Field> = read
                    .next()
                    .unwrap()
                    .unwrap()
                    .get_column_iter()
                    .map(|(_, f)| f.clone())
                    .collect();
                let expected = vec![
                    Field::Long(id),
                    small.map_or(Field::Null, Field::Int),
                    plain.map_or(Field::Null, Field::Long),
                    Field::Str(String::from_utf8(names[name].to_vec()).unwrap()),
                ];
                assert_eq!(got, expected, "group {group} row {i}");
            }
        }
        assert!(read.next().is_none());
        let metadata = reader.metadata();
        let first = metadata.row_group(0);
        let stats = first.column(2).statistics().unwrap();
        assert_eq!(stats.null_count_opt(), Some(9_001));
        match stats {
            Statistics::Int64(s) => assert_eq!(
                (s.min_opt(), s.max_opt()),
                (
                    Some(&(1_000_003 - 40_000)),
                    Some(&(44_999 * 1_000_003 - 40_000))
                )
            ),
            other => panic!("{other:?}"),
        }
        let pages = &metadata.offset_index().unwrap()[0][0];
        assert_eq!(pages.page_locations().len(), 3);
        assert_eq!(metadata.column_index().unwrap()[0].len(), 4);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file of the one chunk `chunk` makes for the one leaf column of
    /// `schema`, written as `name` in `dir`, opened with its page index.
    fn one_chunk_file(
        dir: &std::path::Path,
        name: &str,
        schema: &str,
        chunk: impl FnOnce(ColumnDescPtr) -> Chunk,
    ) -> SerializedFileReader<std::fs::File> {
        std::fs::create_dir_all(dir).unwrap();
        let schema = Arc::new(parse_message_type(schema).unwrap());
        let columns = SchemaDescriptor::new(schema.clone());
        let props = Arc::new(WriterProperties::builder().build());
        let path = dir.join(name);
        let mut file = PartFile::create(path.clone(), &schema, &props)
            .map_err(|_| ())
            .unwrap();
        file.push(chunk(columns.column(0))).map_err(|_| ()).unwrap();
        file.finish().map_err(|_| ()).unwrap();
        let options = ReadOptionsBuilder::new().with_page_index().build();
        SerializedFileReader::new_with_options(std::fs::File::open(&path).unwrap(), options)
            .unwrap()
    }

    /// Row `i`'s list: empty lists, long ones, values repeated from the
    /// row before and values of their own.
    fn list(i: usize, distinct: bool) -> Vec<String> {
        let n = [0, 3, 1, 12, 0, 0, 7][i % 7];
        (0..n)
            .map(|k| match (distinct, k % 3) {
                (true, _) => format!("value {i} {k} {}", "x".repeat(40)),
                (false, 0) => format!("tag {k}"),
                (false, _) => format!("{}", (i / 5 + k) % 97),
            })
            .collect()
    }

    #[test]
    fn lists_read_back_as_written_with_a_dictionary_or_plain() {
        const LIST: &str = "message l {
            required group tags (LIST) {
                repeated group list { required group element { required binary v (STRING); } }
            }
        }";
        let dir = std::env::temp_dir().join(format!("xpgn-lists-{}", std::process::id()));
        // 40,000 rows of short values take three pages and a dictionary;
        // 30,000 of long distinct values pass the dictionary's bound.
        for (rows, distinct) in [(40_000, false), (30_000, true)] {
            let lists: Vec<Vec<String>> = (0..rows).map(|i| list(i, distinct)).collect();
            let lengths: Vec<u32> = lists.iter().map(|l| l.len() as u32).collect();
            let values: Vec<&[u8]> = lists.iter().flatten().map(|v| v.as_bytes()).collect();
            let name = format!("l-{distinct}.parquet");
            let reader = one_chunk_file(&dir, &name, LIST, |column| {
                assert!(list_chunk(column.clone(), &lengths, &values[1..]).is_err());
                list_chunk(column, &lengths, &values).unwrap()
            });
            let mut read = reader.get_row_iter(None).unwrap();
            for (i, expected) in lists.iter().enumerate() {
                let row = read.next().unwrap().unwrap();
                let Some((_, Field::ListInternal(got))) = row.get_column_iter().next() else {
                    panic!("row {i}: {row:?}");
                };
                let got: Vec<String> = got
                    .elements()
                    .iter()
                    .map(|e| match e {
                        Field::Group(g) => match g.get_column_iter().next() {
                            Some((_, Field::Str(v))) => v.clone(),
                            other => panic!("row {i}: {other:?}"),
                        },
                        other => panic!("row {i}: {other:?}"),
                    })
                    .collect();
                assert_eq!(&got, expected, "row {i}");
            }
            assert!(read.next().is_none());
            let metadata = reader.metadata();
            let column = metadata.row_group(0).column(0);
            assert_eq!(
                column.dictionary_page_offset().is_some(),
                !distinct,
                "a dictionary where the values fit one"
            );
            let empty = lists.iter().filter(|l| l.is_empty()).count() as u64;
            let stats = column.statistics().unwrap();
            assert_eq!(stats.null_count_opt(), Some(empty));
            let pages = &metadata.offset_index().unwrap()[0][0];
            let firsts: Vec<i64> = pages
                .page_locations()
                .iter()
                .map(|p| p.first_row_index)
                .collect();
            assert!(firsts.len() > 1 && firsts[0] == 0, "{firsts:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unordered_texts_read_back_in_pages_bounded_by_bytes_without_statistics() {
        const TEXTS: &str = "message u { optional binary text; }";
        let dir = std::env::temp_dir().join(format!("xpgn-unordered-{}", std::process::id()));
        // 3,000 texts of about a kilobyte, every seventh null: three
        // pages of a megabyte at most.
        let texts: Vec<Option<Vec<u8>>> = (0..3_000)
            .map(|i| {
                (i % 7 != 3).then(|| format!("{i} {}", "e4 ".repeat(300 + i % 50)).into_bytes())
            })
            .collect();
        let values: Vec<Option<&[u8]>> = texts.iter().map(|t| t.as_deref()).collect();
        let reader = one_chunk_file(&dir, "u.parquet", TEXTS, |column| {
            unordered_chunk(column, &values).unwrap()
        });
        let mut read = reader.get_row_iter(None).unwrap();
        for (i, text) in texts.iter().enumerate() {
            let row = read.next().unwrap().unwrap();
            let got = match row.get_column_iter().next() {
                Some((_, Field::Bytes(b))) => Some(b.data().to_vec()),
                Some((_, Field::Null)) => None,
                other => panic!("row {i}: {other:?}"),
            };
            assert_eq!(&got, text, "row {i}");
        }
        assert!(read.next().is_none());
        let metadata = reader.metadata();
        let column = metadata.row_group(0).column(0);
        assert!(column.statistics().is_none());
        let index = &metadata.column_index().unwrap()[0][0];
        assert!(matches!(index, ColumnIndexMetaData::NONE), "{index:?}");
        let pages = metadata.offset_index().unwrap()[0][0].page_locations();
        assert!((3..=4).contains(&pages.len()), "{} pages", pages.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn repeated_texts_read_back_with_a_dictionary_or_plain_and_their_bounds() {
        const TEXTS: &str = "message r { optional binary text (STRING); }";
        let dir = std::env::temp_dir().join(format!("xpgn-repeated-{}", std::process::id()));
        // Runs of one value, values back after others, nulls; then 3,000
        // values of 400 bytes all different, past the dictionary's bound.
        for distinct in [false, true] {
            let texts: Vec<Option<String>> = (0..3_000)
                .map(|i| match (distinct, i % 11) {
                    (true, _) => Some(format!("{i:04} {}", "x".repeat(395))),
                    (false, 0) => None,
                    (false, _) => Some(format!("value {}", (i / 4) % 13)),
                })
                .collect();
            let values: Vec<Option<&[u8]>> = texts
                .iter()
                .map(|t| t.as_deref().map(str::as_bytes))
                .collect();
            let name = format!("r-{distinct}.parquet");
            let reader = one_chunk_file(&dir, &name, TEXTS, |column| {
                text_chunk(column, &values).unwrap()
            });
            let mut read = reader.get_row_iter(None).unwrap();
            for (i, text) in texts.iter().enumerate() {
                let row = read.next().unwrap().unwrap();
                let got = match row.get_column_iter().next() {
                    Some((_, Field::Str(s))) => Some(s.clone()),
                    Some((_, Field::Null)) => None,
                    other => panic!("row {i}: {other:?}"),
                };
                assert_eq!(&got, text, "row {i}");
            }
            let column = reader.metadata().row_group(0).column(0);
            assert_eq!(column.dictionary_page_offset().is_some(), !distinct);
            let present = texts.iter().flatten();
            let (lo, hi) = (present.clone().min().unwrap(), present.max().unwrap());
            match column.statistics().unwrap() {
                Statistics::ByteArray(s) => assert_eq!(
                    (s.min_opt().map(|v| v.data()), s.max_opt().map(|v| v.data())),
                    (Some(lo.as_bytes()), Some(hi.as_bytes()))
                ),
                other => panic!("{other:?}"),
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_hybrid_encoding_packs_and_repeats() {
        // A group of eight bit-packed, then a run of nine; a run that
        // starts inside a group is packed with it.
        let mut out = Vec::new();
        hybrid(
            &[1, 2, 3, 4, 5, 6, 7, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5],
            3,
            &mut out,
        );
        assert_eq!(
            out,
            vec![0b11, 0b1101_0001, 0b0101_1000, 0b0001_1111, 9 << 1, 5]
        );
        let mut out = Vec::new();
        hybrid(&[1, 5, 5, 5, 5, 5, 5, 5, 5], 3, &mut out);
        assert_eq!(
            out,
            vec![
                (2 << 1) | 1,
                0b0110_1001,
                0b1101_1011,
                0b1011_0110,
                0b101,
                0,
                0
            ]
        );
        // A single dictionary entry takes no bits.
        let mut out = Vec::new();
        hybrid(&[0; 300], 0, &mut out);
        assert_eq!(out, vec![0xd8, 0x04]);
    }
}
