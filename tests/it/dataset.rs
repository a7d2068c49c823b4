//! Parquet datasets (`xpgn dataset`, `xpgn export --to parquet`, `xpgn
//! key`), read back with the parquet crate: every game, tag and position
//! of an import is there and equal to what the database holds; any number
//! of jobs gives the same files; shards written apart read as one.
#![cfg(feature = "parquet")]

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};

use crate::scratch;
use scratch::Scratch;

use crate::run::xpgn;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::statistics::Statistics;
use parquet::record::{Field, Row};

/// Runs a command that must succeed: exit code 0, or 1 when it says it
/// read invalid games (stored or written all the same).
fn ok(args: &[&str]) -> String {
    let o = xpgn(args);
    let out = String::from_utf8(o.stdout).unwrap();
    let invalid = out.contains(", invalid ") && !out.contains(", invalid 0,");
    assert_eq!(
        o.status.code(),
        Some(i32::from(invalid)),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn temp(name: &str) -> Scratch {
    Scratch::new("dataset", name)
}

fn samples() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .display()
        .to_string()
}

/// Asserts that two datasets' parts are the same files, byte for byte.
fn assert_same_parts(a: &[PathBuf], b: &[PathBuf]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.file_name(), y.file_name());
        assert!(
            std::fs::read(x).unwrap() == std::fs::read(y).unwrap(),
            "{y:?}"
        );
    }
}

/// Every `PREFIX*.parquet` file under `dir`, in path order.
fn parts(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                stack.push(p);
            } else if name.starts_with(prefix) && name.ends_with(".parquet") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn rows_of(file: &Path) -> Vec<Row> {
    let reader = SerializedFileReader::new(File::open(file).unwrap()).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
}

fn rows(dir: &Path, prefix: &str) -> Vec<Row> {
    parts(dir, prefix).iter().flat_map(|p| rows_of(p)).collect()
}

fn field<'a>(row: &'a Row, name: &str) -> &'a Field {
    row.get_column_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| f)
        .unwrap_or_else(|| panic!("no column {name}"))
}

fn long(row: &Row, name: &str) -> i64 {
    match field(row, name) {
        Field::Long(v) => *v,
        Field::Int(v) => i64::from(*v),
        f => panic!("{name}: {f:?}"),
    }
}

fn text(row: &Row, name: &str) -> Option<String> {
    match field(row, name) {
        Field::Str(s) => Some(s.clone()),
        Field::Null => None,
        f => panic!("{name}: {f:?}"),
    }
}

fn blob(row: &Row, name: &str) -> Option<Vec<u8>> {
    match field(row, name) {
        Field::Bytes(b) => Some(b.data().to_vec()),
        Field::Null => None,
        f => panic!("{name}: {f:?}"),
    }
}

fn tags(row: &Row) -> Vec<(String, String)> {
    let Field::ListInternal(list) = field(row, "tags") else {
        panic!("tags: {:?}", field(row, "tags"));
    };
    list.elements()
        .iter()
        .map(|e| {
            let Field::Group(pair) = e else {
                panic!("tag: {e:?}")
            };
            (text(pair, "name").unwrap(), text(pair, "value").unwrap())
        })
        .collect()
}

/// (key, game_id, ply, variant) of every position row.
fn position_rows(dir: &Path) -> Vec<(i64, i64, i64, String)> {
    rows(dir, "positions")
        .iter()
        .map(|r| {
            (
                long(r, "key"),
                long(r, "game_id"),
                long(r, "ply"),
                text(r, "variant").unwrap(),
            )
        })
        .collect()
}

fn game_id(hash: &[u8]) -> i64 {
    i64::from_be_bytes(hash[..8].try_into().unwrap())
}

#[test]
fn a_dataset_holds_every_game_tag_and_position_the_database_holds() {
    let dir = temp("samples");
    let db = dir.join("s.db").display().to_string();
    ok(&["import", &samples(), "--db", &db]);
    let files = dir.join("files");
    let out = ok(&["dataset", &samples(), "--out", files.to_str().unwrap()]);
    assert!(
        out.starts_with("read 42, written 42, duplicates 0, invalid 18"),
        "{out}"
    );
    let exported = dir.join("exported");
    ok(&[
        "export",
        "--db",
        &db,
        "--to",
        "parquet",
        "--out",
        exported.to_str().unwrap(),
    ]);

    // The database's rows, by game id.
    let conn = rusqlite::Connection::open(&db).unwrap();
    type DbGame = (
        String,
        Vec<(String, String)>,
        i64,
        String,
        Vec<u8>,
        Option<String>,
        Option<Vec<u8>>,
        Option<String>,
        Option<String>,
    );
    let mut by_id: BTreeMap<i64, DbGame> = BTreeMap::new();
    let mut row_game: BTreeMap<i64, i64> = BTreeMap::new();
    let mut stmt = conn
        .prepare(
            "SELECT g.id,
                    (SELECT substr(h.content, (g.id - h.first_game) * 32 + 1, 32) FROM game_hashes h
                     WHERE h.first_game <= g.id ORDER BY h.first_game DESC LIMIT 1),
                    g.variant, g.plies, g.status, g.result, m.packed, g.eco, g.opening
             FROM games g LEFT JOIN moves m ON m.game = g.id",
        )
        .unwrap();
    // Tags and original text as the database gives them back (stored
    // apart from the roster columns and compressed).
    let database = xpgn::db::Database::open_existing(std::path::Path::new(&db)).unwrap();
    let mut q = stmt.query([]).unwrap();
    while let Some(r) = q.next().unwrap() {
        let hash: Vec<u8> = r.get(1).unwrap();
        let row_id: i64 = r.get(0).unwrap();
        let stored = database.stored_game(row_id).unwrap().unwrap();
        let id = game_id(&hash);
        row_game.insert(row_id, id);
        by_id.insert(
            id,
            (
                r.get(2).unwrap(),
                stored.tags,
                r.get(3).unwrap(),
                r.get(4).unwrap(),
                stored.original,
                r.get(5).unwrap(),
                r.get(6).unwrap(),
                r.get(7).unwrap(),
                r.get(8).unwrap(),
            ),
        );
    }
    // The samples' orthodox games are named, as the database names them.
    assert!(by_id.values().any(|g| g.7.is_some()));
    assert_eq!(by_id.len(), 42, "no two games share an id");

    for ds in [&files, &exported] {
        let games = rows(ds, "games");
        assert_eq!(games.len(), 42);
        let mut seen = BTreeSet::new();
        for g in &games {
            let id = long(g, "game_id");
            assert!(seen.insert(id));
            assert_eq!(id, game_id(&blob(g, "content_hash").unwrap()));
            let want = &by_id[&id];
            let got: DbGame = (
                text(g, "variant").unwrap(),
                tags(g),
                long(g, "plies"),
                text(g, "status").unwrap(),
                blob(g, "original").unwrap(),
                text(g, "result"),
                blob(g, "moves_packed"),
                text(g, "eco"),
                text(g, "opening"),
            );
            // The database keeps no SAN text (schema 6): the dataset's is
            // written from the moves, present with them. The two ways
            // giving the same rows (below) compares it.
            assert_eq!(
                text(g, "moves_san").is_some(),
                want.6.is_some(),
                "game {id}"
            );
            assert_eq!(&got, want, "game {id}");
            let tag = |n: &str| want.1.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
            for (col, name) in [
                ("white", "White"),
                ("black", "Black"),
                ("event", "Event"),
                ("date", "Date"),
            ] {
                assert_eq!(text(g, col), tag(name), "{col} of {id}");
            }
        }
        // Positions: the database's index, entry for entry.
        let mut want: Vec<(i64, i64, i64)> = Vec::new();
        let mut stmt = conn
            .prepare("SELECT entries FROM position_postings")
            .unwrap();
        let mut q = stmt.query([]).unwrap();
        while let Some(r) = q.next().unwrap() {
            let blob: Vec<u8> = r.get(0).unwrap();
            for p in xpgn::db::postings::entries(&blob) {
                want.push((p.key as i64, row_game[&i64::from(p.game)], i64::from(p.ply)));
            }
        }
        want.sort();
        let got = position_rows(ds);
        let keys: Vec<i64> = got.iter().map(|p| p.0).collect();
        assert!(keys.is_sorted(), "sorted by key within the file");
        let mut got: Vec<(i64, i64, i64)> = got.iter().map(|p| (p.0, p.1, p.2)).collect();
        got.sort();
        assert_eq!(got.len(), 2358);
        assert_eq!(got, want);
    }
    // The two ways give the same rows (the source file's name aside: the
    // database keeps the path import was given, so it is the same here).
    assert_eq!(rows(&files, "games"), rows(&exported, "games"));
    assert_eq!(position_rows(&files), position_rows(&exported));
    // Coordinates of a valid chess game, and year/month/day and Elo.
    let games = rows(&files, "games");
    let g = games
        .iter()
        .find(|g| {
            text(g, "variant").as_deref() == Some("chess")
                && text(g, "moves_coord").is_some_and(|c| c.starts_with("e2e4 e7e5 g1f3"))
        })
        .expect("the two knights game");
    assert_eq!(text(g, "variant").as_deref(), Some("chess"));
    let date = text(g, "date").unwrap();
    let year = date[..4].parse::<i64>().ok();
    assert_eq!(
        field(g, "year"),
        &year.map_or(Field::Null, |y| Field::Int(y as i32))
    );
}

#[test]
fn jobs_and_part_size_do_not_change_the_rows() {
    let dir = temp("jobs");
    let one = dir.join("one");
    let two = dir.join("two");
    let small = dir.join("small");
    ok(&[
        "dataset",
        &samples(),
        "--out",
        one.to_str().unwrap(),
        "--jobs",
        "1",
    ]);
    ok(&[
        "dataset",
        &samples(),
        "--out",
        two.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    // The same bytes, part for part.
    let (a, b) = (parts(&one, ""), parts(&two, ""));
    assert_eq!(a.len(), 2);
    assert_same_parts(&a, &b);
    // Parts of at most 300 rows: the same games and positions, each
    // positions file sorted and within the bound.
    ok(&[
        "dataset",
        &samples(),
        "--out",
        small.to_str().unwrap(),
        "--part-size",
        "300",
        "--jobs",
        "2",
    ]);
    let files = parts(&small, "positions");
    assert!(files.len() >= 8, "{files:?}");
    for f in &files {
        let rows = rows_of(f);
        assert!(rows.len() <= 300);
        let keys: Vec<i64> = rows.iter().map(|r| long(r, "key")).collect();
        assert!(keys.is_sorted());
        // Row-group statistics give the key range for skipping.
        let reader = SerializedFileReader::new(File::open(f).unwrap()).unwrap();
        for rg in reader.metadata().row_groups() {
            match rg.column(1).statistics() {
                Some(Statistics::Int64(s)) => {
                    assert_eq!(s.min_opt(), keys.first());
                    assert_eq!(s.max_opt(), keys.last());
                }
                s => panic!("no key statistics: {s:?}"),
            }
        }
    }
    assert_eq!(parts(&small, "games").len(), files.len());
    // Many parts written by 1, 2 or 3 threads: the same bytes.
    for jobs in ["1", "3"] {
        let other = dir.join(format!("small-{jobs}"));
        ok(&[
            "dataset",
            &samples(),
            "--out",
            other.to_str().unwrap(),
            "--part-size",
            "300",
            "--jobs",
            jobs,
        ]);
        assert_same_parts(&parts(&small, ""), &parts(&other, ""));
    }
    let sorted = |mut v: Vec<Row>| {
        v.sort_by_key(|r| long(r, "game_id"));
        v
    };
    assert_eq!(sorted(rows(&small, "games")), sorted(rows(&one, "games")));
    let mut p1 = position_rows(&small);
    let mut p2 = position_rows(&one);
    p1.sort();
    p2.sort();
    assert_eq!(p1, p2);
}

/// Games skipped as duplicates among games read on worker threads, in
/// parts of a few hundred rows: the files of one job, byte for byte.
#[test]
fn duplicates_skipped_on_more_jobs_leave_the_same_files() {
    let dir = temp("duplicates");
    // One file of two games, the first twice between them, read before
    // the samples that hold them: a duplicate within a chunk, then one
    // that is not, then duplicates alone in theirs.
    let chess = Path::new(&samples()).join("chess");
    let game = |name: &str| std::fs::read_to_string(chess.join(name)).unwrap();
    let (first, second) = (
        game("01-two-knights-defence.pgn"),
        game("02-queens-gambit-declined.pgn"),
    );
    let mixed = dir.join("mixed.pgn");
    std::fs::write(&mixed, format!("{first}\n{first}\n{second}")).unwrap();
    let written = |jobs: &str| {
        let out = dir.join(format!("jobs-{jobs}"));
        let said = ok(&[
            "dataset",
            mixed.to_str().unwrap(),
            &samples(),
            "--out",
            out.to_str().unwrap(),
            "--part-size",
            "300",
            "--jobs",
            jobs,
        ]);
        assert!(
            said.contains("read 45, written 42, duplicates 3,"),
            "{said}"
        );
        parts(&out, "")
    };
    let one = written("1");
    assert!(one.len() >= 16, "{one:?}");
    for jobs in ["2", "3"] {
        assert_same_parts(&one, &written(jobs));
    }
}

#[test]
fn shards_written_apart_read_as_one() {
    let dir = temp("shards");
    // Two halves of the input, and one file in both (a duplicate).
    let (a, b) = (dir.join("in-a"), dir.join("in-b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let mut inputs = Vec::new();
    let mut stack = vec![PathBuf::from(samples())];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "xpgn" || x == "pgn") {
                inputs.push(p);
            }
        }
    }
    inputs.sort();
    for (i, p) in inputs.iter().enumerate() {
        let name = format!("{i:03}.{}", p.extension().unwrap().to_string_lossy());
        let half = if i % 2 == 0 { &a } else { &b };
        std::fs::copy(p, half.join(&name)).unwrap();
    }
    let whole = dir.join("whole");
    ok(&[
        "dataset",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        whole.to_str().unwrap(),
    ]);
    let ds = dir.join("dataset");
    ok(&[
        "dataset",
        a.to_str().unwrap(),
        "--out",
        ds.join("shard-a").to_str().unwrap(),
    ]);
    ok(&[
        "dataset",
        b.to_str().unwrap(),
        "--out",
        ds.join("shard-b").to_str().unwrap(),
        "--jobs",
        "1",
    ]);
    let key = |r: &Row| long(r, "game_id");
    let mut union = rows(&ds, "games");
    union.sort_by_key(key);
    let mut one = rows(&whole, "games");
    one.sort_by_key(key);
    // Every game once, with the same id, whichever run wrote it.
    let ids: BTreeSet<i64> = union.iter().map(key).collect();
    assert_eq!(ids.len(), union.len(), "no id collides");
    assert_eq!(union, one);
    let mut p1 = position_rows(&ds);
    let mut p2 = position_rows(&whole);
    p1.sort();
    p2.sort();
    assert_eq!(p1, p2);
    // A game in both shards is the same row in each: found by its hash.
    let dup = dir.join("in-c");
    std::fs::create_dir_all(&dup).unwrap();
    std::fs::copy(a.join("000.xpgn"), dup.join("again.xpgn")).unwrap();
    ok(&[
        "dataset",
        dup.to_str().unwrap(),
        "--out",
        ds.join("shard-c").to_str().unwrap(),
    ]);
    let all = rows(&ds, "games");
    let mut by_hash: BTreeMap<Vec<u8>, Vec<i64>> = BTreeMap::new();
    for r in &all {
        by_hash
            .entry(blob(r, "content_hash").unwrap())
            .or_default()
            .push(key(r));
    }
    let twice: Vec<_> = by_hash.values().filter(|ids| ids.len() > 1).collect();
    assert_eq!(twice.len(), 1);
    assert_eq!(twice[0][0], twice[0][1]);
}

#[test]
fn the_key_command_prints_the_key_column() {
    let dir = temp("key");
    let chess = Path::new(&samples()).join("chess");
    ok(&[
        "dataset",
        chess.to_str().unwrap(),
        "--out",
        dir.join("d").to_str().unwrap(),
    ]);
    let positions = position_rows(&dir.join("d"));
    let start: i64 = ok(&[
        "key",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ])
    .trim()
    .parse()
    .unwrap();
    assert_eq!(
        positions
            .iter()
            .filter(|p| p.0 == start && p.2 == 0)
            .count(),
        2
    );
    let after: i64 = ok(&["key", "--moves", "e2e4 e7e5"]).trim().parse().unwrap();
    let fen: i64 = ok(&[
        "key",
        "--fen",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ])
    .trim()
    .parse()
    .unwrap();
    assert_eq!(after, fen);
    assert!(positions.iter().any(|p| p.0 == after && p.2 == 2));
}

#[test]
fn bad_inputs_and_outputs_exit_2() {
    let dir = temp("bad");
    let d = dir.join("d");
    ok(&["dataset", &samples(), "--out", d.to_str().unwrap()]);
    let again = xpgn(&["dataset", &samples(), "--out", d.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("holds dataset parts already"));
    let missing = xpgn(&[
        "dataset",
        "no-such-file.pgn",
        "--out",
        dir.join("e").to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(2));
    let no_out = xpgn(&["export", "--db", "x.db", "--to", "parquet"]);
    assert_eq!(no_out.status.code(), Some(2));
    // An empty input still makes a dataset with its schema, and says it
    // read no game (exit code 1).
    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let o = xpgn(&[
        "dataset",
        empty.to_str().unwrap(),
        "--out",
        dir.join("f").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("empty file, no games"));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("0 games, 0 positions in 1 parts"), "{out}");
    assert_eq!(rows(&dir.join("f"), "games").len(), 0);
}

/// The `clock_ms`, `eval_cp` and `eval_mate` of a positions row (`None`
/// for a null).
type Notes = (Option<i64>, Option<i64>, Option<i64>);

fn notes_of(row: &Row) -> Notes {
    let opt = |name: &str| match field(row, name) {
        Field::Null => None,
        _ => Some(long(row, name)),
    };
    (opt("clock_ms"), opt("eval_cp"), opt("eval_mate"))
}

#[test]
fn positions_carry_the_clock_and_evaluation_of_the_move_that_led_there() {
    let dir = temp("clocks");
    let file = dir.join("c.pgn");
    std::fs::write(
        &file,
        "[Event \"c\"]\n\n1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%clk 0:02:58.5] } 2. Nf3 { [%eval #-3] } 2... Nc6 { [%eval x] } *\n\n[Event \"plain\"]\n\n1. d4 d5 *\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let from_file = dir.join("from-file");
    ok(&["dataset", f, "--out", from_file.to_str().unwrap()]);
    let db = dir.join("c.db");
    let db = db.to_str().unwrap();
    ok(&["import", f, "--db", db]);
    let from_db = dir.join("from-db");
    ok(&[
        "export",
        "--db",
        db,
        "--to",
        "parquet",
        "--out",
        from_db.to_str().unwrap(),
    ]);
    for set in [&from_file, &from_db] {
        let games = rows(set, "games");
        let id_of = |event: &str| {
            games
                .iter()
                .find(|g| text(g, "event").as_deref() == Some(event))
                .map(|g| long(g, "game_id"))
                .unwrap()
        };
        let by_ply = |id: i64| -> BTreeMap<i64, Notes> {
            rows(set, "positions")
                .iter()
                .filter(|p| long(p, "game_id") == id)
                .map(|p| (long(p, "ply"), notes_of(p)))
                .collect()
        };
        let c = by_ply(id_of("c"));
        assert_eq!(c[&0], (None, None, None), "{set:?}");
        assert_eq!(c[&1], (Some(180_000), Some(20), None));
        assert_eq!(c[&2], (Some(178_500), None, None));
        assert_eq!(c[&3], (None, None, Some(-3)));
        // A malformed evaluation is no value.
        assert_eq!(c[&4], (None, None, None));
        let plain = by_ply(id_of("plain"));
        assert!(plain.values().all(|n| *n == (None, None, None)));
    }
}
