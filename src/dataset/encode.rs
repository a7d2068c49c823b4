//! A part's files written from column chunks encoded apart: each chunk
//! (one column of one row group) is encoded into memory by whichever
//! thread takes it, and the chunks are spliced into the file in schema
//! order, row group after row group. The bytes are those the file would
//! have had with every column written in place, one after the other
//! (the Parquet writer moves the chunk's page offsets to where it lands),
//! so the files are the same for any number of threads. The encoded
//! chunks of a part wait in memory only until their row group is whole
//! and its turn has come: at most a part's files, compressed.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use bytes::Bytes;
use parquet::column::writer::{ColumnCloseResult, ColumnWriter, get_column_writer};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterPropertiesPtr;
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, Type};

/// One column chunk, encoded and compressed: its bytes (pages, the
/// dictionary first) and what the footer says of it.
pub(super) struct Chunk {
    bytes: Bytes,
    close: ColumnCloseResult,
}

impl Chunk {
    /// A chunk encoded elsewhere: its bytes, and what the column writer
    /// would have said of them.
    pub(super) fn new(mut bytes: Vec<u8>, close: ColumnCloseResult) -> Chunk {
        bytes.shrink_to_fit();
        Chunk {
            bytes: Bytes::from(bytes),
            close,
        }
    }
}

/// Encodes one column chunk into memory: `fill` writes its values.
pub(super) fn encode_chunk(
    descr: ColumnDescPtr,
    props: &WriterPropertiesPtr,
    fill: impl FnOnce(&mut ColumnWriter<'_>) -> Result<(), ParquetError>,
) -> Result<Chunk, ParquetError> {
    let mut sink = TrackedWrite::new(Vec::new());
    let close = {
        let pages = Box::new(SerializedPageWriter::new(&mut sink));
        let mut writer = get_column_writer(descr, props.clone(), pages);
        fill(&mut writer)?;
        writer.close()?
    };
    // Held until its row group is whole: without the room it grew into.
    Ok(Chunk::new(sink.into_inner()?, close))
}

/// Runs `task` on 0..count on `threads` threads (1: in the calling
/// thread) and hands each result to `take` in order, in the calling
/// thread, as soon as the results before it have been taken. The calling
/// thread runs `meanwhile` first, while the threads start on the tasks.
///
/// # Errors
/// The first error of `task` or `take`, in order; the threads stop taking
/// tasks.
pub(super) fn in_order<T: Send, E: Send>(
    count: usize,
    threads: usize,
    meanwhile: impl FnOnce(),
    task: impl Fn(usize) -> Result<T, E> + Sync,
    mut take: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E> {
    if threads <= 1 || count <= 1 {
        meanwhile();
        return (0..count).try_for_each(|i| take(i, task(i)?));
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (done_tx, done_rx) = channel::<(usize, Result<T, E>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(count) {
            let done = done_tx.clone();
            let (next, stop, task) = (&next, &stop, &task);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count || done.send((i, task(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        meanwhile();
        let mut waiting = BTreeMap::new();
        let mut taken = 0;
        let result = (|| {
            for (i, result) in done_rx.iter() {
                waiting.insert(i, result);
                while let Some(result) = waiting.remove(&taken) {
                    take(taken, result?)?;
                    taken += 1;
                }
                if taken == count {
                    break;
                }
            }
            Ok(())
        })();
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// A part's file being written under a hidden temporary name (a reader's
/// `games*.parquet` never sees half a file), row group by row group from
/// encoded chunks; removed if dropped unfinished.
pub(super) struct PartFile {
    path: PathBuf,
    temp: PathBuf,
    writer: Option<SerializedFileWriter<File>>,
    /// The chunks of the row group being gathered.
    group: Vec<Chunk>,
    columns: usize,
}

/// Why a part's file could not be written.
pub(super) enum PartFileError {
    Io(std::io::Error),
    Parquet(ParquetError),
}

impl From<ParquetError> for PartFileError {
    fn from(e: ParquetError) -> Self {
        PartFileError::Parquet(e)
    }
}

impl PartFile {
    /// Creates the temporary file of `path`, for `schema`.
    pub(super) fn create(
        path: PathBuf,
        schema: &Arc<Type>,
        props: &WriterPropertiesPtr,
    ) -> Result<PartFile, PartFileError> {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let temp = path.with_file_name(format!(".{name}.tmp"));
        let file = File::create(&temp).map_err(PartFileError::Io)?;
        let writer = match SerializedFileWriter::new(file, schema.clone(), props.clone()) {
            Ok(writer) => writer,
            Err(e) => {
                let _ = std::fs::remove_file(&temp);
                return Err(e.into());
            }
        };
        Ok(PartFile {
            path,
            temp,
            columns: writer.schema_descr().num_columns(),
            writer: Some(writer),
            group: Vec::new(),
        })
    }

    /// Adds the next chunk in schema order; a row group is written once
    /// it has all its columns.
    pub(super) fn push(&mut self, chunk: Chunk) -> Result<(), PartFileError> {
        self.group.push(chunk);
        if self.group.len() < self.columns {
            return Ok(());
        }
        let writer = self.writer.as_mut().ok_or_else(finished)?;
        let mut row_group = writer.next_row_group()?;
        for chunk in self.group.drain(..) {
            row_group.append_column(&chunk.bytes, chunk.close)?;
        }
        row_group.close()?;
        Ok(())
    }

    /// Writes the footer, syncs the file to disk and gives it its name;
    /// its size.
    pub(super) fn finish(mut self) -> Result<u64, PartFileError> {
        if !self.group.is_empty() {
            return Err(ParquetError::General("a row group lacks columns".into()).into());
        }
        let writer = self.writer.take().ok_or_else(finished)?;
        let result = (|| {
            let file = writer.into_inner()?;
            file.sync_all().map_err(PartFileError::Io)?;
            std::fs::rename(&self.temp, &self.path).map_err(PartFileError::Io)?;
            Ok(std::fs::metadata(&self.path)
                .map_err(PartFileError::Io)?
                .len())
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&self.temp);
        }
        result
    }
}

fn finished() -> ParquetError {
    ParquetError::General("the file is finished already".into())
}

impl Drop for PartFile {
    fn drop(&mut self) {
        if self.writer.is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::basic::Compression;
    use parquet::column::writer::get_typed_column_writer_mut;
    use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::schema::parser::parse_message_type;
    use parquet::schema::types::SchemaDescriptor;

    const SCHEMA: &str = "message t { required int64 n; optional binary s (STRING); }";

    /// Column `column` of row group `group` (groups of different sizes).
    fn fill(col: &mut ColumnWriter<'_>, column: usize, group: usize) -> Result<(), ParquetError> {
        let rows = 100 + group * 37;
        if column == 0 {
            let values: Vec<i64> = (0..rows as i64)
                .map(|i| i * i % 17 + group as i64)
                .collect();
            get_typed_column_writer_mut::<Int64Type>(col).write_batch(&values, None, None)?;
        } else {
            let defs: Vec<i16> = (0..rows).map(|i| i16::from(i % 3 > 0)).collect();
            let values: Vec<ByteArray> = (0..rows)
                .filter(|i| i % 3 > 0)
                .map(|i| ByteArray::from(format!("value {}", i % 11 + group).as_str()))
                .collect();
            get_typed_column_writer_mut::<ByteArrayType>(col).write_batch(
                &values,
                Some(&defs),
                None,
            )?;
        }
        Ok(())
    }

    fn shown(e: PartFileError) -> String {
        match e {
            PartFileError::Io(e) => e.to_string(),
            PartFileError::Parquet(e) => e.to_string(),
        }
    }

    #[test]
    fn spliced_chunks_make_the_file_written_in_place() {
        let dir = std::env::temp_dir().join(format!("xpgn-encode-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let schema = Arc::new(parse_message_type(SCHEMA).unwrap());
        let columns = SchemaDescriptor::new(schema.clone());
        let props = Arc::new(
            WriterProperties::builder()
                .set_compression(Compression::SNAPPY)
                .build(),
        );
        let groups = 3;
        let in_place = dir.join("in-place.parquet");
        let file = File::create(&in_place).unwrap();
        let mut writer = SerializedFileWriter::new(file, schema.clone(), props.clone()).unwrap();
        for group in 0..groups {
            let mut row_group = writer.next_row_group().unwrap();
            let mut column = 0;
            while let Some(mut col) = row_group.next_column().unwrap() {
                fill(col.untyped(), column, group).unwrap();
                col.close().unwrap();
                column += 1;
            }
            row_group.close().unwrap();
        }
        writer.close().unwrap();
        let expected = std::fs::read(&in_place).unwrap();
        let n = columns.num_columns();
        for threads in [1, 2, 3] {
            let path = dir.join(format!("spliced-{threads}.parquet"));
            let mut part = PartFile::create(path.clone(), &schema, &props)
                .map_err(shown)
                .unwrap();
            let task = |i: usize| {
                encode_chunk(columns.column(i % n), &props, |w| fill(w, i % n, i / n))
                    .map_err(|e| e.to_string())
            };
            let take = |_, chunk| part.push(chunk).map_err(shown);
            in_order(groups * n, threads, || {}, task, take).unwrap();
            part.finish().map_err(shown).unwrap();
            assert!(
                std::fs::read(&path).unwrap() == expected,
                "{threads} threads"
            );
        }
        // A file given up unfinished leaves nothing behind.
        let path = dir.join("given-up.parquet");
        drop(
            PartFile::create(path.clone(), &schema, &props)
                .map_err(shown)
                .unwrap(),
        );
        assert!(!path.exists() && !dir.join(".given-up.parquet.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
