//! The position index as posting lists: for each import batch, every
//! (position key, game, ply) of its games, grouped by the key's top bits
//! (its bucket), sorted, one compact blob per bucket. A batch writes at
//! most one row per bucket instead of one per position, and "which games
//! reach this position" reads one primary-key range (the bucket's rows,
//! one per batch) and decodes each blob up to the key: an index, not a scan.
//!
//! A blob (schema 6): the smallest game id of the blob (a varint, LEB128)
//! and the width `w` (one byte, 0 to 8) of the raw part of each key step;
//! then per distinct key in ascending order its step `s` from the previous
//! key (from 0 for the first) doubled, plus one when the key has a single
//! entry: the low `w` bytes of `2s + single` raw, little-endian, the rest
//! as a varint; unless single, the number of its entries (varint); and
//! per entry, by game and ply, the game's distance from the previous entry
//! of the key (from the smallest game id for the first) and the ply
//! (varints). `w` is chosen from the blob's mean step so that the varint
//! part is mostly one byte: a key one game reaches takes about 9 bytes
//! with its entry, where a plain varint step and count took 11 and the
//! schema 3 to 5 entries 14 (`legacy`).

use rusqlite::{Connection, params};

use super::DbError;

/// Bits of the key that choose its bucket. Each batch touches one B-tree
/// leaf per bucket: with 12 bits (4,096 buckets) that was most of the
/// index's pages, and import slowed from 7,000 to 3,500 games/s by
/// 100,000 games; with 8 bits it keeps 5,100 games/s there, and a position
/// query reads 256 times fewer rows than a full scan (0.5 ms for a rare
/// position in 100,000 games).
pub const BUCKET_BITS: u32 = 8;

/// The bucket of `key`.
pub fn bucket(key: u64) -> i64 {
    (key >> (64 - BUCKET_BITS)) as i64
}

/// One position of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Posting {
    /// The position key ([`crate::rules::Position::key`]).
    pub key: u64,
    /// The game's row id.
    pub game: u32,
    /// The ply after which the position stands (0 = the start).
    pub ply: u16,
}

pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u128) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a varint at `*at`; `None` at the end of `blob`, inside a varint
/// or past 128 bits (a damaged blob reads as ending there).
pub(crate) fn get_varint(blob: &[u8], at: &mut usize) -> Option<u128> {
    let mut v = 0u128;
    let mut shift = 0;
    loop {
        let b = *blob.get(*at)?;
        *at += 1;
        if shift > 127 {
            return None;
        }
        v |= u128::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
        shift += 7;
    }
}

fn get_small(blob: &[u8], at: &mut usize) -> Option<u64> {
    get_varint(blob, at).and_then(|v| u64::try_from(v).ok())
}

/// Sorts `entries` into buckets, in bucket order: per bucket its entries
/// by key, game and ply.
fn sorted_by_bucket(entries: Vec<Posting>) -> ByBucket {
    let Some(&first) = entries.first() else {
        return ByBucket::default();
    };
    // A counting sort by bucket, then each bucket's entries: linear, where
    // a comparison sort of a whole batch is not. The buckets stay slices
    // of one vector: a batch's entries are most of an import's memory,
    // and are held once.
    let mut sorted = vec![first; entries.len()];
    let starts = scatter(&[&entries], &mut sorted, 1 << BUCKET_BITS, |p| {
        bucket(p.key) as usize
    });
    drop(entries);
    let mut runs = Vec::new();
    let mut scratch = Vec::new();
    for (b, pair) in starts.windows(2).enumerate() {
        let (start, end) = (pair[0], pair[1]);
        if start < end {
            sort_bucket(&mut sorted[start..end], &mut scratch);
            runs.push((b as i64, start..end));
        }
    }
    ByBucket { sorted, runs }
}

/// Copies the entries of the blocks `from` into `to` (of their total
/// length) ordered by `digit`, below `digits`, keeping the order of
/// entries of one digit; gives where each digit's entries start, and the
/// end.
fn scatter<B: AsRef<[Posting]>>(
    from: &[B],
    to: &mut [Posting],
    digits: usize,
    digit: impl Fn(&Posting) -> usize,
) -> Vec<usize> {
    let mut starts = vec![0usize; digits + 1];
    for p in from.iter().flat_map(AsRef::as_ref) {
        starts[digit(p) + 1] += 1;
    }
    for d in 0..digits {
        starts[d + 1] += starts[d];
    }
    let mut next = starts.clone();
    for block in from {
        for p in block.as_ref() {
            let d = digit(p);
            to[next[d]] = *p;
            next[d] += 1;
        }
    }
    starts
}

/// Sorts one bucket's entries, `run`, by key, game and ply (`scratch`
/// holds a copy meanwhile).
fn sort_bucket(run: &mut [Posting], scratch: &mut Vec<Posting>) {
    if run.len() <= SMALL_RUN {
        run.sort_unstable();
        return;
    }
    scratch.clear();
    scratch.extend_from_slice(run);
    sort_from(&[&scratch[..]], run);
}

/// Below this many entries a bucket is sorted by comparison alone.
const SMALL_RUN: usize = 64;

/// Writes the entries of one bucket, held in the blocks `from`, into `to`
/// (of their total length), sorted by key, game and ply. A large bucket
/// is first spread by the key's next byte, into runs of a few entries
/// each: a comparison sort of random keys mispredicts about half its
/// branches, which made it the costliest step of storing a batch.
fn sort_from<B: AsRef<[Posting]>>(from: &[B], to: &mut [Posting]) {
    if to.len() <= SMALL_RUN {
        let mut at = 0;
        for block in from {
            let block = block.as_ref();
            to[at..at + block.len()].copy_from_slice(block);
            at += block.len();
        }
        to.sort_unstable();
        return;
    }
    let shift = 64 - BUCKET_BITS - 8;
    let starts = scatter(from, to, 256, |p| (p.key >> shift) as usize & 0xff);
    for pair in starts.windows(2) {
        if pair[1] - pair[0] > 1 {
            to[pair[0]..pair[1]].sort_unstable();
        }
    }
}

/// A batch's entries sorted by bucket, then key, game and ply, with the
/// range of each bucket that has any.
#[derive(Default)]
struct ByBucket {
    sorted: Vec<Posting>,
    runs: Vec<(i64, std::ops::Range<usize>)>,
}

impl ByBucket {
    /// Each bucket with its entries, in bucket order.
    fn iter(&self) -> impl Iterator<Item = (i64, &[Posting])> {
        self.runs
            .iter()
            .map(|(b, range)| (*b, &self.sorted[range.clone()]))
    }
}

/// The raw width of the key steps of a blob whose keys run from `first`
/// to `last` in `runs` steps: the varint part of a step of the mean size
/// takes one byte and rarely two.
fn step_width(first: u64, last: u64, runs: usize) -> u8 {
    let mean = u128::from(last - first) * 2 / runs.max(1) as u128;
    let bits = 128 - mean.leading_zeros();
    (bits.saturating_sub(6) / 8).min(8) as u8
}

/// The smallest game id and the raw step width of a blob of `sorted`
/// entries.
fn blob_params(sorted: &[Posting]) -> (u32, u8) {
    let base = sorted.iter().map(|p| p.game).min().unwrap_or(0);
    let keys = 1 + sorted.windows(2).filter(|w| w[0].key != w[1].key).count();
    let width = match (sorted.first(), sorted.last()) {
        (Some(f), Some(l)) => step_width(f.key, l.key, keys),
        _ => 0,
    };
    (base, width)
}

/// The blob of `sorted` entries (by key, game, ply).
pub fn encode(sorted: &[Posting]) -> Vec<u8> {
    let (base, width) = blob_params(sorted);
    encode_with(sorted, base, width)
}

fn varint_len(mut v: u128) -> usize {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

/// The blob of `sorted` entries, with `base` at most their smallest game id
/// and key steps of `width` raw bytes.
fn encode_with(sorted: &[Posting], base: u32, width: u8) -> Vec<u8> {
    let mut blob = Vec::new();
    let len = encode_runs(sorted, base, width, usize::MAX, None, &mut blob);
    blob.truncate(len);
    blob
}

/// Where one key's run lies in a blob: its first entry's index, the
/// offset of its key step and of what follows the step (its count and
/// entries, the same bytes whatever the previous key).
#[derive(Clone, Copy)]
struct RunAt {
    entry: usize,
    step: usize,
    rest: usize,
}

/// [`encode_with`] into the start of `room` (grown when too short),
/// telling where each run lies when `runs` is given, a key's run cut
/// into runs of at most `most` entries (each then starts a piece of its
/// own: two runs of one key in a blob would hide the second from
/// [`find`]). Gives the blob's length.
fn encode_runs(
    sorted: &[Posting],
    base: u32,
    width: u8,
    most: usize,
    mut runs: Option<&mut Vec<RunAt>>,
    room: &mut Vec<u8>,
) -> usize {
    let most = most.max(1);
    let mut out = BlobWriter::within(room, sorted.len());
    out.small(u64::from(base));
    out.byte(width);
    let mut prev_key = 0u64;
    let mut start = 0;
    while start < sorted.len() {
        let key = sorted[start].key;
        let limit = sorted.len().min(start.saturating_add(most));
        let mut end = start + 1;
        while end < limit && sorted[end].key == key {
            end += 1;
        }
        let run = &sorted[start..end];
        let single = run.len() == 1;
        let step = out.at;
        out.step(key - prev_key, single, width);
        prev_key = key;
        if let Some(runs) = runs.as_deref_mut() {
            runs.push(RunAt {
                entry: start,
                step,
                rest: out.at,
            });
        }
        if !single {
            out.small(run.len() as u64);
        }
        let mut prev_game = base;
        for p in run {
            out.small(u64::from(p.game - prev_game));
            prev_game = p.game;
            out.small(u64::from(p.ply));
        }
        start = end;
    }
    out.at
}

/// Writes a blob into a buffer sized for its longest form, so that no
/// write checks for room: a blob of a batch's bucket is written a byte at
/// a time, and a growing vector's check and length update on every byte
/// took more than the encoding.
struct BlobWriter<'a> {
    buf: &'a mut [u8],
    at: usize,
}

impl<'a> BlobWriter<'a> {
    /// Writes from the start of `room`, first grown to hold the header and
    /// `entries` entries: per entry at most a key step (8 raw bytes and a
    /// varint of 10), a count (10), a game step (5) and a ply (3), and 8
    /// bytes of slack for the raw step's store. A room kept from blob to
    /// blob is zeroed once, where a new one for each blob cost a fill of
    /// four times the bytes written.
    fn within(room: &'a mut Vec<u8>, entries: usize) -> BlobWriter<'a> {
        let need = 24 + entries * 36;
        if room.len() < need {
            room.resize(need, 0);
        }
        BlobWriter {
            buf: &mut room[..],
            at: 0,
        }
    }

    fn byte(&mut self, b: u8) {
        self.buf[self.at] = b;
        self.at += 1;
    }

    /// A varint. Values under 2^14 (nearly every game step, ply and
    /// count) are written as two bytes of which the second counts only
    /// when needed: no branch on the length, which varies from entry to
    /// entry and was mispredicted.
    #[inline(always)]
    fn small(&mut self, v: u64) {
        if v < 1 << 14 {
            let two = v >= 0x80;
            self.buf[self.at] = (v as u8 & 0x7f) | (u8::from(two) << 7);
            self.buf[self.at + 1] = (v >> 7) as u8;
            self.at += 1 + usize::from(two);
        } else {
            self.varint(u128::from(v));
        }
    }

    fn varint(&mut self, mut v: u128) {
        while v >= 0x80 {
            self.byte(v as u8 | 0x80);
            v >>= 7;
        }
        self.byte(v as u8);
    }

    /// The key step of a run `delta` after the previous key: the low
    /// `width` bytes of twice `delta` (plus one for a key of a single
    /// entry) raw, the rest as a varint.
    #[inline(always)]
    fn step(&mut self, delta: u64, single: bool, width: u8) {
        let step = (u128::from(delta) << 1) | u128::from(single);
        // All eight low bytes stored, `width` of them kept.
        self.buf[self.at..self.at + 8].copy_from_slice(&(step as u64).to_le_bytes());
        self.at += usize::from(width);
        let high = step >> (8 * u32::from(width));
        match u64::try_from(high) {
            Ok(high) => self.small(high),
            Err(_) => self.varint(high),
        }
    }
}

/// Where SQLite puts a row of `position_postings` (a WITHOUT ROWID table:
/// an index B-tree) in pages of `usable` bytes: a row longer than
/// `max_local` keeps `min_local` bytes, or up to `max_local` when that
/// fills its last overflow page, in its leaf and the rest in overflow
/// pages of `usable - 4` bytes (SQLite's file format, "B-tree pages").
/// A row whose overflow pages are not all full wastes the rest of the
/// last one: half a page on average, 300 bytes a game in a new database
/// of 2,245 games (256 such rows), where every row is cut to fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageFit {
    usable: usize,
}

impl PageFit {
    /// Pages of `usable` bytes (the page size less the reserved bytes,
    /// 512 to 65,536).
    pub fn new(usable: usize) -> PageFit {
        PageFit {
            usable: usable.clamp(512, 65_536),
        }
    }

    /// The page layout of `conn`'s main database.
    ///
    /// # Errors
    /// SQLite errors.
    pub(crate) fn of(conn: &Connection) -> Result<PageFit, DbError> {
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok(PageFit::new(usize::try_from(size).unwrap_or(4096)))
    }

    fn max_local(self) -> usize {
        (self.usable - 12) * 64 / 255 - 23
    }

    fn min_local(self) -> usize {
        (self.usable - 12) * 32 / 255 - 23
    }

    /// Whether a row of `payload` bytes lies in its leaf alone or fills
    /// every overflow page it takes.
    fn fits(self, payload: usize) -> bool {
        let (min, max) = (self.min_local(), self.max_local());
        payload <= max || min + (payload - min) % (self.usable - 4) <= max
    }
}

/// Bytes SQLite's record format takes for the integer `v`.
fn int_len(v: i64) -> usize {
    match v {
        0 | 1 => 0,
        -128..=127 => 1,
        -32_768..=32_767 => 2,
        -8_388_608..=8_388_607 => 3,
        -2_147_483_648..=2_147_483_647 => 4,
        -140_737_488_355_328..=140_737_488_355_327 => 6,
        _ => 8,
    }
}

/// The payload of a `position_postings` row: the record of `bucket`,
/// `batch`, `piece`, `count` and a blob of `blob` bytes.
fn row_payload(bucket: i64, batch: i64, piece: i64, count: usize, blob: usize) -> usize {
    let blob_type = varint_len((blob as u128) * 2 + 12);
    let header = 1 + 4 + blob_type;
    header + int_len(bucket) + int_len(batch) + int_len(piece) + int_len(count as i64) + blob
}

/// The rows of one bucket's `sorted` entries (by key, game and ply) in
/// one batch: `(piece, count, blob)`, each piece at most `most` entries
/// (a key with more is cut into pieces of `most`, so a query that wants
/// its first games reads the first), cut between keys where a row of its
/// size fills its pages (or lies in its leaf alone). Pieces share the whole's smallest game id and step
/// width, so a piece's size is known before it is written.
pub fn pieces(
    bucket: i64,
    batch: i64,
    sorted: &[Posting],
    fit: PageFit,
    most: usize,
) -> Vec<(i64, usize, Vec<u8>)> {
    let (base, width) = blob_params(sorted);
    // The whole blob once: a piece is its header, its first run's key step
    // from 0, and the whole's bytes from there to its end.
    // A run per key at most: sized at once, not grown run by run.
    let mut runs: Vec<RunAt> = Vec::with_capacity(sorted.len());
    WHOLE_BLOB.with_borrow_mut(|room| {
        let len = encode_runs(sorted, base, width, most, Some(&mut runs), room);
        let cut = cut_pieces(
            bucket,
            batch,
            sorted,
            fit,
            most,
            (&room[..len], &runs),
            width,
        );
        if room.len() > KEPT_ROOM {
            *room = Vec::new();
        }
        cut
    })
}

thread_local! {
    /// The room [`pieces`] writes a bucket's whole blob into, kept for the
    /// next bucket.
    static WHOLE_BLOB: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The largest room [`WHOLE_BLOB`] keeps: a batch's buckets fit it (about
/// 115 KB for 10,000 games), where one of `optimize`'s, the bucket's
/// whole index, would hold megabytes after it is done.
const KEPT_ROOM: usize = 1 << 20;

/// The pieces of [`pieces`], cut from the blob `whole` of all `sorted`
/// entries, whose runs lie at `runs`.
fn cut_pieces(
    bucket: i64,
    batch: i64,
    sorted: &[Posting],
    fit: PageFit,
    most: usize,
    (whole, runs): (&[u8], &[RunAt]),
    width: u8,
) -> Vec<(i64, usize, Vec<u8>)> {
    let head = &whole[..runs.first().map_or(whole.len(), |r| r.step)];
    // Offsets past the last run.
    let end_at = RunAt {
        entry: sorted.len(),
        step: whole.len(),
        rest: whole.len(),
    };
    let at = |i: usize| runs.get(i).copied().unwrap_or(end_at);
    let first_step = |i: usize| {
        let mut room = Vec::new();
        let mut step = BlobWriter::within(&mut room, 1);
        let single = at(i + 1).entry - at(i).entry == 1;
        step.step(sorted[at(i).entry].key, single, width);
        let len = step.at;
        room.truncate(len);
        room
    };
    let mut out = Vec::new();
    let mut start = 0;
    // Set once a scan to the end found no prefix that fills its pages: the
    // rest (under two pages) is cut into pieces that stay in the leaf,
    // each scan stopping at the leaf's limit.
    let mut chop = false;
    while start < runs.len() {
        let piece = out.len() as i64;
        let step = first_step(start);
        // Bytes and entries of the piece of runs `start..end`.
        let size = |end: usize| head.len() + step.len() + at(end).step - at(start).rest;
        let count = |end: usize| at(end).entry - at(start).entry;
        let payload = |end: usize| row_payload(bucket, batch, piece, count(end), size(end));
        // Payloads grow with `end`, so each bound is a binary search. The
        // ends looked at: up to the last run, the last under `most`
        // entries and, when chopping, the first out of the leaf.
        let mut last = first_where(start + 1, runs.len(), |e| count(e + 1) > most);
        let out_of_leaf = first_where(start + 1, last + 1, |e| payload(e) > fit.max_local());
        if chop && out_of_leaf <= last {
            last = out_of_leaf;
        }
        // The longest prefix that stays in the leaf, and the longest that
        // fills its pages.
        let local = (out_of_leaf > start + 1).then(|| out_of_leaf - 1);
        let filling = last_filling(out_of_leaf, last, payload, fit);
        let all_fits = last == runs.len() && fit.fits(payload(last));
        let stop = if all_fits {
            last
        } else {
            chop |= filling.is_none() && last == runs.len();
            filling.or(local).unwrap_or(start + 1)
        };
        let mut blob = Vec::with_capacity(size(stop));
        blob.extend_from_slice(head);
        blob.extend_from_slice(&step);
        blob.extend_from_slice(&whole[at(start).rest..at(stop).step]);
        out.push((piece, count(stop), blob));
        start = stop;
    }
    out
}

/// The first of `from..to` for which `past` holds (`to` if none), `past`
/// being false and then true along the range.
fn first_where(from: usize, to: usize, past: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (from, to.max(from));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if past(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// The last end of `from..=to` whose row, longer than its leaf holds,
/// fills its overflow pages, `payload` growing with the end. A row fills
/// them when its length falls in one of the windows a page apart that
/// [`PageFit::fits`] describes: the last end at or under the top of the
/// window of the longest row, else under the window below, and so on.
fn last_filling(
    from: usize,
    mut to: usize,
    payload: impl Fn(usize) -> usize,
    fit: PageFit,
) -> Option<usize> {
    let (min, max, page) = (fit.min_local(), fit.max_local(), fit.usable - 4);
    while from <= to {
        let top = payload(to);
        if top <= max {
            return None;
        }
        let window_top = min + (top - min) / page * page + (max - min);
        let below = first_where(from, to + 1, |e| payload(e) > window_top);
        let e = below.checked_sub(1).filter(|&e| e >= from)?;
        if fit.fits(payload(e)) {
            return Some(e);
        }
        to = e;
    }
    None
}

/// Sorts `entries` and splits them into one blob per bucket, in bucket
/// order, with the number of entries of each.
pub fn group(entries: Vec<Posting>) -> Vec<(i64, usize, Vec<u8>)> {
    sorted_by_bucket(entries)
        .iter()
        .map(|(b, run)| (b, run.len(), encode(run)))
        .collect()
}

/// The runs of a blob: each key with its entries, in key order.
struct Runs<'a> {
    blob: &'a [u8],
    at: usize,
    base: u64,
    key: u64,
    /// Raw bytes of each key step.
    width: u8,
}

impl<'a> Runs<'a> {
    fn new(blob: &'a [u8]) -> Runs<'a> {
        let mut at = 0;
        let base = get_small(blob, &mut at).unwrap_or(0);
        let width = blob.get(at).copied().unwrap_or(0).min(8);
        Runs {
            blob,
            at: at + 1,
            base,
            key: 0,
            width,
        }
    }

    /// The next key and its entry count, the cursor on its first entry.
    fn next_key(&mut self) -> Option<(u64, u64)> {
        let width = usize::from(self.width);
        let raw = self.blob.get(self.at..self.at + width)?;
        self.at += width;
        let mut low = [0u8; 16];
        low[..width].copy_from_slice(raw);
        let high = get_varint(self.blob, &mut self.at)?;
        let step = u128::from_le_bytes(low) | high.checked_shl(8 * width as u32)?;
        let delta = u64::try_from(step >> 1).ok()?;
        self.key = self.key.checked_add(delta)?;
        let count = if step & 1 == 1 {
            1
        } else {
            get_small(self.blob, &mut self.at)?
        };
        Some((self.key, count))
    }

    /// Reads the `count` entries of the current key (into `out` when
    /// given); `None` when the blob ends inside them.
    fn entries(&mut self, count: u64, mut out: Option<&mut Vec<Posting>>) -> Option<()> {
        let mut game = self.base;
        for _ in 0..count {
            game = game.checked_add(get_small(self.blob, &mut self.at)?)?;
            let ply = get_small(self.blob, &mut self.at)?;
            if let Some(out) = out.as_deref_mut() {
                out.push(Posting {
                    key: self.key,
                    game: u32::try_from(game).ok()?,
                    ply: u16::try_from(ply).ok()?,
                });
            }
        }
        Some(())
    }
}

/// Every entry of a blob, in order (a damaged blob is read up to where
/// it stops making sense).
pub fn entries(blob: &[u8]) -> Vec<Posting> {
    let mut runs = Runs::new(blob);
    let mut out = Vec::new();
    while let Some((_, count)) = runs.next_key() {
        if runs.entries(count, Some(&mut out)).is_none() {
            break;
        }
    }
    out
}

/// Appends the entries of `blob` with key `key` to `out`, by game and ply.
/// Returns whether the blob made sense as far as it was read: it ends
/// only where a key would start, and no entry breaks off or overflows (a
/// damaged blob is read up to where it stops making sense).
pub fn find_into(blob: &[u8], key: u64, out: &mut Vec<Posting>) -> bool {
    let mut runs = Runs::new(blob);
    loop {
        let Some((k, count)) = runs.next_key() else {
            return runs.at == blob.len();
        };
        if k > key {
            return true;
        }
        let found = (k == key).then_some(&mut *out);
        let done = found.is_some();
        if runs.entries(count, found).is_none() {
            return false;
        }
        if done {
            return true;
        }
    }
}

/// The entries of `blob` with key `key`, by game and ply.
pub fn find(blob: &[u8], key: u64) -> Vec<Posting> {
    let mut out = Vec::new();
    find_into(blob, key, &mut out);
    out
}

/// [`find_into`] on a row of the index: a blob that does not make sense
/// is damage.
fn find_in_row(blob: &[u8], key: u64, out: &mut Vec<Posting>) -> Result<(), DbError> {
    if find_into(blob, key, out) {
        return Ok(());
    }
    Err(DbError::Damaged {
        detail: format!(
            "a row of the position index ({} bytes) does not decode",
            blob.len()
        ),
    })
}

/// A batch's postings as an import gives them, each put in its bucket's
/// blocks as it comes: no sort of the whole batch and no second copy of
/// it at the end (a batch's entries are most of an import's memory).
#[derive(Default)]
pub(crate) struct BatchPostings {
    buckets: Vec<Blocks>,
}

/// One bucket's entries in the order they came, in blocks that are never
/// moved: each grown vector copied the bucket's entries again into fresh
/// pages, a twentieth of an import's time. The block being filled is held
/// in the bucket itself, so that adding an entry reads one place besides
/// the entry's own.
#[derive(Default)]
struct Blocks {
    /// The block being filled, never grown past its capacity.
    tail: Vec<Posting>,
    /// The blocks filled before it, in order.
    full: Vec<Vec<Posting>>,
    /// Entries in `full`.
    filled: usize,
}

impl Blocks {
    /// Entries of a bucket's first block: a small import's buckets hold a
    /// few hundred.
    const FIRST: usize = 64;
    /// Entries of its largest blocks (64 KiB).
    const LARGEST: usize = 4096;

    #[inline]
    fn push(&mut self, p: Posting) {
        if self.tail.len() == self.tail.capacity() {
            self.next_block();
        }
        self.tail.push(p);
    }

    /// Puts the filled block with the others and starts a new one.
    #[cold]
    fn next_block(&mut self) {
        let size = match self.tail.capacity() {
            0 => Self::FIRST,
            n => (n * 2).min(Self::LARGEST),
        };
        let filled = std::mem::replace(&mut self.tail, Vec::with_capacity(size));
        if !filled.is_empty() {
            self.filled += filled.len();
            self.full.push(filled);
        }
    }

    fn len(&self) -> usize {
        self.filled + self.tail.len()
    }

    /// The entries sorted by key, game and ply, into `run`.
    fn sort_into(&self, run: &mut Vec<Posting>) {
        run.clear();
        run.resize(
            self.len(),
            Posting {
                key: 0,
                game: 0,
                ply: 0,
            },
        );
        let blocks: Vec<&[Posting]> = self
            .full
            .iter()
            .map(Vec::as_slice)
            .chain([self.tail.as_slice()])
            .collect();
        sort_from(&blocks, run);
    }
}

impl BatchPostings {
    /// Adds the entries of one game.
    pub(crate) fn extend(&mut self, entries: impl IntoIterator<Item = Posting>) {
        if self.buckets.is_empty() {
            self.buckets.resize_with(1 << BUCKET_BITS, Blocks::default);
        }
        for p in entries {
            self.buckets[bucket(p.key) as usize].push(p);
        }
    }

    /// Stores the batch `batch` inside the caller's transaction, bucket by
    /// bucket: each sorted by key, game and ply, and cut into pieces that
    /// fill their pages ([`pieces`]), on up to `threads` threads (the rows
    /// are written in bucket order whatever their number).
    ///
    /// # Errors
    /// SQLite errors.
    pub(crate) fn store(
        self,
        conn: &Connection,
        batch: i64,
        fit: PageFit,
        threads: usize,
    ) -> Result<(), DbError> {
        let buckets: Vec<(i64, Blocks)> = self
            .buckets
            .into_iter()
            .enumerate()
            .filter(|(_, entries)| entries.len() > 0)
            .map(|(b, entries)| (b as i64, entries))
            .collect();
        for (bucket, cut) in cut_buckets(buckets, batch, fit, threads) {
            insert_pieces(conn, bucket, batch, cut)?;
        }
        Ok(())
    }
}

/// A bucket and its pieces ([`pieces`]).
type CutBucket = (i64, Vec<(i64, usize, Vec<u8>)>);

/// Each bucket's pieces once its entries are sorted, in bucket order.
/// With more than one thread the buckets are shared out in runs of
/// consecutive ones: at the end of an import the last batch is stored
/// while the threads that read the games have nothing left to do.
fn cut_buckets(
    buckets: Vec<(i64, Blocks)>,
    batch: i64,
    fit: PageFit,
    threads: usize,
) -> Vec<CutBucket> {
    // Below this many entries a thread costs more than it saves.
    const SHARED_FROM: usize = 50_000;
    let cut = |buckets: Vec<(i64, Blocks)>| -> Vec<CutBucket> {
        let mut run = Vec::new();
        buckets
            .into_iter()
            .map(|(b, entries)| {
                entries.sort_into(&mut run);
                drop(entries);
                (b, pieces(b, batch, &run, fit, MOST_PER_ROW))
            })
            .collect()
    };
    let entries: usize = buckets.iter().map(|(_, entries)| entries.len()).sum();
    if threads <= 1 || entries < SHARED_FROM {
        return cut(buckets);
    }
    let per_thread = buckets.len().div_ceil(threads);
    let mut shares = Vec::new();
    let mut rest = buckets;
    while rest.len() > per_thread {
        let tail = rest.split_off(per_thread);
        shares.push(rest);
        rest = tail;
    }
    shares.push(rest);
    std::thread::scope(|scope| {
        let cut = &cut;
        let handles: Vec<_> = shares
            .into_iter()
            .map(|share| scope.spawn(move || cut(share)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .expect("cutting buckets into pieces does not panic")
            })
            .collect()
    })
}

/// Entries per row at most: a few hundred KB, so a position query never
/// reads one huge blob where a few rows serve.
pub const MOST_PER_ROW: usize = 65_536;

/// Stores one bucket's `sorted` entries as the rows of `batch`.
///
/// # Errors
/// SQLite errors.
pub(crate) fn store_pieces(
    conn: &Connection,
    bucket: i64,
    batch: i64,
    sorted: &[Posting],
    fit: PageFit,
) -> Result<(), DbError> {
    insert_pieces(
        conn,
        bucket,
        batch,
        pieces(bucket, batch, sorted, fit, MOST_PER_ROW),
    )
}

/// Writes the rows of `cut`, one bucket's pieces of `batch`.
pub(crate) fn insert_pieces(
    conn: &Connection,
    bucket: i64,
    batch: i64,
    cut: Vec<(i64, usize, Vec<u8>)>,
) -> Result<(), DbError> {
    let mut insert = conn.prepare_cached(
        "INSERT INTO position_postings (bucket, batch, piece, count, entries)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (piece, count, blob) in cut {
        insert.execute(params![bucket, batch, piece, count as i64, blob])?;
    }
    Ok(())
}

/// Every entry with `key`, by game and ply.
///
/// # Errors
/// SQLite errors.
pub(crate) fn reached(conn: &Connection, key: u64) -> Result<Vec<Posting>, DbError> {
    let mut stmt =
        conn.prepare_cached("SELECT entries FROM position_postings WHERE bucket = ?1")?;
    let mut rows = stmt.query([bucket(key)])?;
    let mut found = Vec::new();
    while let Some(row) = rows.next()? {
        let blob = super::query::blob(row, 0)?;
        find_in_row(blob, key, &mut found)?;
    }
    found.sort_unstable_by_key(|p| (p.game, p.ply));
    Ok(found)
}

/// Calls `each` with every entry with `key`, row by row of the bucket
/// (each row's entries by game and ply), until it returns `false`.
///
/// # Errors
/// SQLite errors.
pub(crate) fn scan(
    conn: &Connection,
    key: u64,
    mut each: impl FnMut(Posting) -> bool,
) -> Result<(), DbError> {
    let mut stmt =
        conn.prepare_cached("SELECT entries FROM position_postings WHERE bucket = ?1")?;
    let mut rows = stmt.query([bucket(key)])?;
    let mut found = Vec::new();
    while let Some(row) = rows.next()? {
        found.clear();
        find_in_row(super::query::blob(row, 0)?, key, &mut found)?;
        for &p in &found {
            if !each(p) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// How many entries the index holds.
///
/// # Errors
/// SQLite errors.
pub(crate) fn count(conn: &Connection) -> Result<u64, DbError> {
    let n: i64 = conn.query_row(
        "SELECT COALESCE(SUM(count), 0) FROM position_postings",
        [],
        |r| r.get(0),
    )?;
    Ok(n as u64)
}

/// The blob format of schemas 3 to 5: sorted 14-byte entries, key (8),
/// game id (4), ply (2), little-endian. Migrations 3 and 4 write it, and
/// migration 6 reads it to write the compact form.
pub(crate) mod legacy {
    use rusqlite::{Connection, params};

    use super::{Posting, sorted_by_bucket};
    use crate::db::DbError;

    const ENTRY: usize = 14;

    /// Every entry of a schema-5 blob (read up to its last whole entry).
    pub(crate) fn entries(blob: &[u8]) -> impl Iterator<Item = Posting> + '_ {
        blob.chunks_exact(ENTRY).map(|e| {
            let mut key = [0; 8];
            key.copy_from_slice(&e[..8]);
            let mut game = [0; 4];
            game.copy_from_slice(&e[8..12]);
            Posting {
                key: u64::from_le_bytes(key),
                game: u32::from_le_bytes(game),
                ply: u16::from_le_bytes([e[12], e[13]]),
            }
        })
    }

    /// Stores one batch in the schema-5 table (`bucket`, `batch`,
    /// `entries`), as migrations 3 and 4 wrote it.
    pub(crate) fn store_batch(
        conn: &Connection,
        batch: i64,
        entries: Vec<Posting>,
    ) -> Result<(), DbError> {
        let mut insert = conn.prepare_cached(
            "INSERT INTO position_postings (bucket, batch, entries) VALUES (?1, ?2, ?3)",
        )?;
        for (bucket, run) in sorted_by_bucket(entries).iter() {
            let mut blob = Vec::with_capacity(run.len() * ENTRY);
            for p in run {
                blob.extend_from_slice(&p.key.to_le_bytes());
                blob.extend_from_slice(&p.game.to_le_bytes());
                blob.extend_from_slice(&p.ply.to_le_bytes());
            }
            insert.execute(params![bucket, batch, blob])?;
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_blob_that_breaks_off_does_not_make_sense_and_a_whole_one_does() {
        let all: Vec<Posting> = (0..50u32)
            .map(|g| Posting {
                key: u64::from(g % 7) * 1_000_003,
                game: g + 1,
                ply: (g % 5) as u16,
            })
            .collect();
        let mut sorted = all.clone();
        sorted.sort_unstable_by_key(|p| (p.key, p.game, p.ply));
        let blob = encode(&sorted);
        let last = sorted.last().unwrap().key;
        let mut out = Vec::new();
        assert!(find_into(&blob, last, &mut out));
        assert!(find_into(&blob, u64::MAX, &mut Vec::new()));
        assert_eq!(out.len(), sorted.iter().filter(|p| p.key == last).count());
        let cut = &blob[..blob.len() - 1];
        assert!(!find_into(cut, u64::MAX, &mut Vec::new()));
    }

    proptest! {
        /// Whatever the entries, each key finds exactly its own entries in
        /// its own bucket's blob, and no blob holds a key of another bucket.
        #[test]
        fn every_key_is_found_in_its_bucket_and_only_there(
            raw in proptest::collection::vec((0u64..64, any::<u64>(), 1u32..1000, 0u16..300), 0..400)
        ) {
            // Few distinct keys, spread over buckets: collisions and runs.
            let all: Vec<Posting> = raw
                .iter()
                .map(|&(k, spread, game, ply)| Posting {
                    key: (spread & !((1 << 58) - 1)) | k,
                    game,
                    ply,
                })
                .collect();
            let groups = group(all.clone());
            for (b, n, blob) in &groups {
                prop_assert!(entries(blob).iter().all(|p| bucket(p.key) == *b));
                prop_assert_eq!(entries(blob).len(), *n);
            }
            prop_assert!(groups.windows(2).all(|w| w[0].0 < w[1].0));
            for p in &all {
                let (_, _, blob) = groups.iter().find(|(b, _, _)| *b == bucket(p.key)).unwrap();
                let mut found: Vec<Posting> = find(blob, p.key);
                let mut expected: Vec<Posting> =
                    all.iter().filter(|q| q.key == p.key).copied().collect();
                found.sort_unstable();
                expected.sort_unstable();
                prop_assert_eq!(found, expected);
            }
            let total: usize = groups.iter().map(|(_, _, blob)| entries(blob).len()).sum();
            prop_assert_eq!(total, all.len());
        }
    }

    /// `n` entries of keys in one bucket, some keys reached by many games.
    fn bucket_entries(n: u32, seed: u64) -> Vec<Posting> {
        let mut x = seed | 1;
        let mut all: Vec<Posting> = (0..n)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let key = if x.is_multiple_of(5) { x % 16 } else { x >> 8 };
                Posting {
                    key: key | (3 << 56),
                    game: 1 + i / 80,
                    ply: (i % 80) as u16,
                }
            })
            .collect();
        all.sort_unstable();
        all
    }

    /// The table of the position index, as the schema has it.
    pub(crate) fn create_table(conn: &Connection) {
        conn.execute_batch(
            "CREATE TABLE position_postings (bucket INTEGER NOT NULL, batch INTEGER NOT NULL,
                 piece INTEGER NOT NULL, count INTEGER NOT NULL, entries BLOB NOT NULL,
                 PRIMARY KEY (bucket, batch, piece)) WITHOUT ROWID;",
        )
        .unwrap();
    }

    /// A batch's rows do not depend on how many threads cut its buckets.
    #[test]
    fn a_batch_is_stored_the_same_on_any_number_of_threads() {
        let rows = |threads: usize| {
            let conn = Connection::open_in_memory().unwrap();
            create_table(&conn);
            let fit = PageFit::of(&conn).unwrap();
            let mut batch = BatchPostings::default();
            let mut x = 0x2545_f491_4f6c_dd1d_u64;
            // Enough entries to be shared out; one shared key (the start).
            batch.extend((0..120_000u32).map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                Posting {
                    key: if i % 80 == 0 { 77 } else { x },
                    game: 1 + i / 80,
                    ply: (i % 80) as u16,
                }
            }));
            batch.store(&conn, 1, fit, threads).unwrap();
            let mut stmt = conn
                .prepare("SELECT bucket, piece, count, entries FROM position_postings ORDER BY bucket, piece")
                .unwrap();
            stmt.query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, Vec<u8>>(3)?,
                ))
            })
            .unwrap()
            .map(Result::unwrap)
            .collect::<Vec<_>>()
        };
        let one = rows(1);
        assert_eq!(one.iter().map(|r| r.2).sum::<i64>(), 120_000);
        assert_eq!(rows(2), one);
        assert_eq!(rows(3), one);
    }

    /// SQLite's own account of the rows `pieces` cuts: no unused byte in
    /// any overflow page (`dbstat`), for pages of 1, 4 and 8 KiB.
    #[test]
    fn pieces_fill_their_overflow_pages() {
        for page in [1024, 4096, 8192] {
            let conn = Connection::open_in_memory().unwrap();
            conn.pragma_update(None, "page_size", page).unwrap();
            create_table(&conn);
            let fit = PageFit::of(&conn).unwrap();
            for (i, n) in [300u32, 2_000, 9_000, 40_000].into_iter().enumerate() {
                let all = bucket_entries(n, 7 + i as u64);
                let mut batch = BatchPostings::default();
                batch.extend(all.clone());
                batch
                    .store(&conn, 1 + i as i64 * 1000, fit, 1 + i % 3)
                    .unwrap();
                let mut back: Vec<Posting> = Vec::new();
                let mut stmt = conn
                    .prepare(
                        "SELECT entries FROM position_postings WHERE batch = ?1 ORDER BY piece",
                    )
                    .unwrap();
                let mut rows = stmt.query([1 + i as i64 * 1000]).unwrap();
                while let Some(r) = rows.next().unwrap() {
                    back.extend(entries(r.get_ref(0).unwrap().as_blob().unwrap()));
                }
                assert_eq!(back, all, "page {page}, {n} entries");
            }
            let (overflow, unused): (i64, i64) = conn
                .query_row(
                    "SELECT COUNT(*), COALESCE(SUM(unused), 0) FROM dbstat
                     WHERE name = 'position_postings' AND pagetype = 'overflow'",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            assert!(overflow > 0, "page {page}");
            assert_eq!(unused, 0, "page {page}: {overflow} overflow pages");
        }
    }

    proptest! {
        /// Sorting by bucket gives every entry, by key, game and ply, each
        /// bucket's in one range: batches of few and of many keys, keys
        /// shared by many games (the start position), entries in any order.
        #[test]
        fn buckets_hold_the_entries_sorted(
            raw in proptest::collection::vec((0u64..6, any::<u64>(), 0u32..400, 0u16..300), 0..3000),
        ) {
            let entries: Vec<Posting> = raw
                .iter()
                .map(|&(kind, bits, game, ply)| Posting {
                    // Few buckets, many buckets, or one shared key.
                    key: match kind {
                        0 => 42,
                        1 | 2 => ((bits % 4) << 62) | (bits % 1000),
                        _ => bits,
                    },
                    game,
                    ply,
                })
                .collect();
            let mut expected = entries.clone();
            expected.sort_unstable();
            let mut batch = BatchPostings::default();
            batch.extend(entries.iter().copied());
            let by_bucket = sorted_by_bucket(entries);
            // An import's batch holds the same buckets, sorted the same.
            let mut kept = Vec::new();
            for (b, entries) in batch.buckets.into_iter().enumerate() {
                if entries.len() > 0 {
                    let mut run = Vec::new();
                    entries.sort_into(&mut run);
                    kept.push((b as i64, run));
                }
            }
            let given: Vec<(i64, Vec<Posting>)> =
                by_bucket.iter().map(|(b, run)| (b, run.to_vec())).collect();
            prop_assert_eq!(kept, given);
            prop_assert_eq!(&by_bucket.sorted, &expected);
            let mut covered = 0;
            for (b, run) in by_bucket.iter() {
                prop_assert!(!run.is_empty());
                prop_assert!(run.iter().all(|p| bucket(p.key) == b));
                covered += run.len();
            }
            prop_assert_eq!(covered, expected.len());
        }

        /// Pieces hold the entries in order, each within `most` entries
        /// (a key with more is cut), each key of a piece findable in it,
        /// and each piece fills its pages unless it is one key too long to.
        #[test]
        fn pieces_cover_the_entries_and_fit(
            n in 0u32..6000,
            seed in any::<u64>(),
            page in prop::sample::select(vec![512usize, 1024, 4096, 65_536]),
            most in 1usize..8000,
        ) {
            let all = bucket_entries(n, seed);
            let fit = PageFit::new(page);
            let cut = pieces(5, 77, &all, fit, most);
            let mut back = Vec::new();
            for (i, (piece, count, blob)) in cut.iter().enumerate() {
                prop_assert_eq!(*piece, i as i64);
                let got = entries(blob);
                prop_assert_eq!(got.len(), *count);
                let one_key = got.first().map(|p| p.key) == got.last().map(|p| p.key);
                prop_assert!(*count <= most);
                prop_assert!(
                    fit.fits(row_payload(5, 77, *piece, *count, blob.len())) || one_key,
                    "piece {} of {} bytes", piece, blob.len()
                );
                for run in got.chunk_by(|a, b| a.key == b.key) {
                    prop_assert_eq!(find(blob, run[0].key), run.to_vec());
                }
                back.extend(got);
            }
            prop_assert_eq!(back, all);
        }
    }

    /// The varint of `v`, written a byte at a time.
    fn put_small_plainly(out: &mut Vec<u8>, v: u64) {
        put_varint(out, u128::from(v));
    }

    /// The key step of a run, written as the format describes it.
    fn put_step(blob: &mut Vec<u8>, delta: u64, single: bool, width: u8) {
        let step = (u128::from(delta) << 1) | u128::from(single);
        blob.extend_from_slice(&step.to_le_bytes()[..usize::from(width)]);
        put_varint(blob, step >> (8 * u32::from(width)));
    }

    /// The blob and runs of [`encode_runs`] as its format describes them,
    /// written plainly, and the cut of [`pieces`] by scanning every end:
    /// the fast forms must give the same bytes.
    fn pieces_plainly(
        bucket: i64,
        batch: i64,
        sorted: &[Posting],
        fit: PageFit,
        most: usize,
    ) -> Vec<(i64, usize, Vec<u8>)> {
        let (base, width) = blob_params(sorted);
        let mut whole = Vec::new();
        put_varint(&mut whole, u128::from(base));
        whole.push(width);
        let mut runs = Vec::new();
        let (mut prev_key, mut entry) = (0u64, 0);
        for run in sorted
            .chunk_by(|a, b| a.key == b.key)
            .flat_map(|r| r.chunks(most.max(1)))
        {
            let single = run.len() == 1;
            let step = whole.len();
            put_step(&mut whole, run[0].key - prev_key, single, width);
            prev_key = run[0].key;
            runs.push(RunAt {
                entry,
                step,
                rest: whole.len(),
            });
            entry += run.len();
            if !single {
                put_small_plainly(&mut whole, run.len() as u64);
            }
            let mut prev_game = base;
            for p in run {
                put_small_plainly(&mut whole, u64::from(p.game - prev_game));
                prev_game = p.game;
                put_small_plainly(&mut whole, u64::from(p.ply));
            }
        }
        let mut fast_runs = Vec::new();
        // A room kept from an earlier blob: its bytes are written over.
        let mut room = vec![0xa5; 3 * sorted.len()];
        let len = encode_runs(sorted, base, width, most, Some(&mut fast_runs), &mut room);
        assert_eq!(whole, room[..len]);
        let places = |runs: &[RunAt]| -> Vec<(usize, usize, usize)> {
            runs.iter().map(|r| (r.entry, r.step, r.rest)).collect()
        };
        assert_eq!(places(&runs), places(&fast_runs));
        let head = &whole[..runs.first().map_or(whole.len(), |r| r.step)];
        let end_at = RunAt {
            entry: sorted.len(),
            step: whole.len(),
            rest: whole.len(),
        };
        let at = |i: usize| runs.get(i).copied().unwrap_or(end_at);
        let mut out = Vec::new();
        let (mut start, mut chop) = (0, false);
        while start < runs.len() {
            let piece = out.len() as i64;
            let mut step = Vec::new();
            let single = at(start + 1).entry - at(start).entry == 1;
            put_step(&mut step, sorted[at(start).entry].key, single, width);
            let size = |end: usize| head.len() + step.len() + at(end).step - at(start).rest;
            let count = |end: usize| at(end).entry - at(start).entry;
            let (mut filling, mut local) = (None, None);
            let mut end = start + 1;
            loop {
                let payload = row_payload(bucket, batch, piece, count(end), size(end));
                if payload <= fit.max_local() {
                    local = Some(end);
                } else if fit.fits(payload) {
                    filling = Some(end);
                }
                if end == runs.len() || count(end + 1) > most || (chop && payload > fit.max_local())
                {
                    break;
                }
                end += 1;
            }
            let all_fits = end == runs.len()
                && fit.fits(row_payload(bucket, batch, piece, count(end), size(end)));
            let stop = if all_fits {
                end
            } else {
                chop |= filling.is_none() && end == runs.len();
                filling.or(local).unwrap_or(start + 1)
            };
            let mut blob = head.to_vec();
            blob.extend_from_slice(&step);
            blob.extend_from_slice(&whole[at(start).rest..at(stop).step]);
            out.push((piece, count(stop), blob));
            start = stop;
        }
        out
    }

    proptest! {
        /// Entries of keys far apart and close together, of games and
        /// plies past one varint byte, in pages of every size.
        #[test]
        fn pieces_are_those_of_the_plain_scan(
            n in 0u32..5000,
            seed in any::<u64>(),
            spread in 0u32..64,
            game_gap in prop::sample::select(vec![1u32, 90, 20_000, 3_000_000]),
            page in prop::sample::select(vec![512usize, 1024, 4096, 65_536]),
            most in prop::sample::select(vec![1usize, 3, 40, MOST_PER_ROW]),
        ) {
            let mut all = bucket_entries(n, seed);
            for p in &mut all {
                p.key >>= spread.min(55);
                p.game = p.game.saturating_mul(game_gap);
                p.ply = p.ply.wrapping_mul(421);
            }
            all.sort_unstable();
            let fit = PageFit::new(page);
            prop_assert_eq!(
                pieces(9, 4, &all, fit, most),
                pieces_plainly(9, 4, &all, fit, most)
            );
        }
    }

    #[test]
    fn an_absent_key_finds_nothing() {
        let groups = group(vec![
            Posting {
                key: 5,
                game: 1,
                ply: 0,
            },
            Posting {
                key: 9,
                game: 2,
                ply: 3,
            },
        ]);
        assert_eq!(groups.len(), 1);
        let blob = &groups[0].2;
        assert_eq!(find(blob, 7).len(), 0);
        assert_eq!(find(blob, 10).len(), 0);
        assert_eq!(
            find(blob, 9),
            [Posting {
                key: 9,
                game: 2,
                ply: 3
            }]
        );
    }

    proptest! {
        /// Any bytes read as a blob give entries or stop, never panic.
        #[test]
        fn damaged_blobs_are_read_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = entries(&bytes);
            let _ = find(&bytes, 12345);
        }

        /// Keys anywhere in 64 bits, one or many entries each, round-trip.
        #[test]
        fn any_keys_round_trip(raw in proptest::collection::vec((any::<u64>(), 0u32..5, 0u16..3), 0..300)) {
            let mut all: Vec<Posting> = raw
                .iter()
                .map(|&(key, game, ply)| Posting { key, game: game * 1000, ply })
                .collect();
            all.sort_unstable();
            all.dedup();
            prop_assert_eq!(entries(&encode(&all)), all);
        }
    }
}
