//! Compressed game files through the command: gzip, zstd and bzip2
//! inputs (files, folders, standard input) read as they are decompressed,
//! outputs compressed by their name, and archives cut short or damaged.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::scratch::Scratch;
use xpgn::notation::compressed::{Encoder, Format};

fn xpgn_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const FORMATS: [Format; 3] = [Format::Gzip, Format::Zstd, Format::Bzip2];

fn compress(format: Format, text: &[u8]) -> Vec<u8> {
    let mut e = Encoder::new(format, Vec::new()).unwrap();
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

/// Real lichess games (1,130 of them, with clocks and evaluations),
/// 1 MB: several blocks of every format.
fn real_games() -> Vec<u8> {
    let mut text = std::fs::read("tests/data/lichess/2017-05.pgn").unwrap();
    text.extend(std::fs::read("tests/data/lichess/2016-05.pgn").unwrap());
    text
}

/// What the database `db` holds, as text: every row of its tables of
/// games, except the hashes and position postings, which are cut into
/// rows by the import's commits (one a second: a slower input makes more
/// of them): of those, the hashes laid end to end (the postings are
/// compared through queries, [`reached`]).
fn dump(db: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut rows = Vec::new();
    for table in ["games", "moves", "sources", "variant_definitions"] {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM \"{table}\" ORDER BY 1"))
            .unwrap();
        let n = stmt.column_count();
        let mut q = stmt.query([]).unwrap();
        while let Some(row) = q.next().unwrap() {
            let cells: Vec<String> = (0..n)
                .map(|i| format!("{:?}", row.get_ref(i).unwrap()))
                .collect();
            rows.push(format!("{table}: {}", cells.join(" | ")));
        }
    }
    let mut hashes = (Vec::new(), Vec::new());
    let mut stmt = conn
        .prepare("SELECT content, moves FROM game_hashes ORDER BY first_game")
        .unwrap();
    let mut q = stmt.query([]).unwrap();
    while let Some(row) = q.next().unwrap() {
        hashes.0.extend(row.get::<_, Vec<u8>>(0).unwrap());
        hashes.1.extend(row.get::<_, Vec<u8>>(1).unwrap());
    }
    rows.push(format!("game_hashes: {hashes:?}"));
    rows
}

/// The games that start with each of `lines` and those that reach the
/// position after it (through the position index), as JSON lines.
fn reached(dir: &Path, lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .map(|moves| {
            let o = xpgn_in(
                dir,
                &[
                    "query", "--db", "g.db", "--moves", moves, "--format", "json",
                ],
            );
            let by_moves = stdout(&o);
            let fen = stdout(&xpgn_in(dir, &["show", "--moves", moves]));
            let fen = fen
                .lines()
                .find_map(|l| l.strip_prefix("FEN: "))
                .unwrap()
                .to_string();
            let o = xpgn_in(
                dir,
                &["query", "--db", "g.db", "--fen", &fen, "--format", "json"],
            );
            format!("{moves}: {by_moves}{}", stdout(&o))
        })
        .collect()
}

#[test]
fn compressed_and_plain_inputs_give_identical_databases_and_outputs() {
    let dir = Scratch::new("compressed", "identical");
    let text = real_games();
    let mut formats: Vec<(&str, Vec<u8>)> = vec![("plain", text.clone())];
    for format in FORMATS {
        formats.push((format.name(), compress(format, &text)));
    }
    let mut seen = Vec::new();
    for (name, bytes) in &formats {
        // The same file name in a folder of each format: the databases
        // name their source alike.
        let sub = dir.join(name);
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join("games.pgn"), bytes).unwrap();
        let o = xpgn_in(&sub, &["import", "games.pgn", "--db", "g.db"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with("read 1130, imported 1130,"),
            "{name}: {}",
            stdout(&o)
        );
        let validated = xpgn_in(&sub, &["validate", "--format", "json", "games.pgn"]);
        assert_eq!(validated.status.code(), Some(0), "{name}");
        let converted = xpgn_in(&sub, &["convert", "--to", "json", "games.pgn"]);
        assert_eq!(converted.status.code(), Some(0), "{name}");
        let mut db = dump(&sub.join("g.db"));
        db.extend(reached(
            &sub,
            &["e4", "e4 e5 Nf3", "d4 d5 c4", "e4 c5 Nf3 d6"],
        ));
        seen.push((*name, db, validated.stdout, converted.stdout));
    }
    let (_, plain_db, plain_validated, plain_converted) = &seen[0];
    assert!(plain_db.len() > 2000);
    // The position index answers: 1. e4 starts hundreds of these games.
    let e4 = plain_db.iter().find(|l| l.starts_with("e4: ")).unwrap();
    assert!(e4.matches("\"id\"").count() > 200, "{e4}");
    for (name, db, validated, converted) in &seen[1..] {
        assert!(db == plain_db, "{name}: the database differs");
        assert!(validated == plain_validated, "{name}: validate differs");
        assert!(converted == plain_converted, "{name}: convert differs");
    }
}

#[test]
fn a_folder_gives_its_compressed_game_files_in_any_letter_case() {
    let dir = Scratch::new("compressed", "folder");
    let top = dir.join("games");
    std::fs::create_dir_all(&top).unwrap();
    let game = |event: &str| format!("[Event \"{event}\"]\n\n1. e4 e5 *\n\n");
    std::fs::write(top.join("a.pgn"), game("a")).unwrap();
    std::fs::write(
        top.join("b.PGN.GZ"),
        compress(Format::Gzip, game("b").as_bytes()),
    )
    .unwrap();
    std::fs::write(
        top.join("c.pgn.Zst"),
        compress(Format::Zstd, game("c").as_bytes()),
    )
    .unwrap();
    std::fs::write(
        top.join("d.xpgn.bz2"),
        compress(Format::Bzip2, game("d").as_bytes()),
    )
    .unwrap();
    // Compressed files of other things, and a format not read.
    std::fs::write(top.join("notes.txt.gz"), compress(Format::Gzip, b"notes")).unwrap();
    std::fs::write(top.join("e.pgn.xz"), b"\xfd7zXZ\x00\x00").unwrap();
    let o = xpgn_in(&dir, &["import", "games", "--db", "f.db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("read 4, imported 4,"), "{out}");
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .starts_with("2 files not game files")
            && out.contains("games/e.pgn.xz, games/notes.txt.gz"),
        "{out}"
    );
    let o = xpgn_in(&dir, &["query", "--db", "f.db", "--format", "json"]);
    for event in ["a", "b", "c", "d"] {
        assert!(
            stdout(&o).contains(&format!("\"Event\":\"{event}\"")),
            "{}",
            stdout(&o)
        );
    }
    let o = xpgn_in(&dir, &["validate", "games"]);
    assert!(
        stdout(&o).starts_with("4 games read, 4 valid"),
        "{}",
        stdout(&o)
    );
}

/// Runs `args` in `dir` with `input` on standard input.
fn with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written a few bytes at a time at first: a pipe may give the
    // magic number in pieces.
    let writer = std::thread::spawn(move || {
        for b in &input[..8] {
            stdin.write_all(&[*b]).unwrap();
            stdin.flush().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        stdin.write_all(&input[8..]).unwrap();
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    o
}

#[test]
fn standard_input_may_be_compressed_in_every_format() {
    let dir = Scratch::new("compressed", "stdin");
    let text = real_games();
    for format in FORMATS {
        let o = with_stdin(&dir, &["validate", "-"], &compress(format, &text));
        assert_eq!(o.status.code(), Some(0), "{format:?}: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with("1130 games read, 1130 valid"),
            "{}",
            stdout(&o)
        );
        let db = format!("{}.db", format.name());
        let o = with_stdin(
            &dir,
            &["import", "-", "--db", &db],
            &compress(format, &text),
        );
        assert!(
            stdout(&o).starts_with("read 1130, imported 1130,"),
            "{}",
            stdout(&o)
        );
    }
}

/// `text` without its timings (`0.05 seconds (5572 games/s, 2 jobs)`).
fn untimed(text: &[u8]) -> String {
    String::from_utf8_lossy(text)
        .split(", ")
        .filter(|w| !w.contains(" seconds (") && !w.ends_with(" jobs)"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn every_reading_command_reads_a_compressed_file() {
    let dir = Scratch::new("compressed", "commands");
    let text = real_games();
    for (sub, bytes) in [
        ("plain", text.clone()),
        ("zstd", compress(Format::Zstd, &text)),
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::write(dir.join(sub).join("g.pgn"), bytes).unwrap();
    }
    for args in [
        &["convert", "--to", "uci", "g.pgn"][..],
        &["diagram", "g.pgn", "--game", "3", "--ply", "12"],
        #[cfg(feature = "parquet")]
        &["dataset", "g.pgn", "--out", "set"],
    ] {
        let plain = xpgn_in(&dir.join("plain"), args);
        let packed = xpgn_in(&dir.join("zstd"), args);
        assert_eq!(plain.status.code(), Some(0), "{args:?}: {}", stderr(&plain));
        assert_eq!(
            packed.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&packed)
        );
        assert!(plain.stdout.len() > 100, "{args:?}");
        assert_eq!(untimed(&packed.stdout), untimed(&plain.stdout), "{args:?}");
    }
    #[cfg(feature = "parquet")]
    for part in ["games", "positions"] {
        let file = format!("set/{part}-00000.parquet");
        assert!(
            std::fs::read(dir.join("plain").join(&file)).unwrap()
                == std::fs::read(dir.join("zstd").join(&file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn outputs_are_compressed_when_their_name_says_so() {
    let dir = Scratch::new("compressed", "outputs");
    let text = real_games();
    std::fs::write(dir.join("g.pgn"), &text).unwrap();
    let plain = xpgn_in(&dir, &["convert", "--to", "xpgn", "g.pgn"]);
    assert_eq!(plain.status.code(), Some(0));
    let o = xpgn_in(&dir, &["import", "g.pgn", "--db", "g.db"]);
    assert_eq!(o.status.code(), Some(0));
    let exported = xpgn_in(&dir, &["export", "--db", "g.db"]);
    for (name, format) in [
        ("out.pgn.gz", Format::Gzip),
        ("out.pgn.zst", Format::Zstd),
        ("OUT.PGN.BZ2", Format::Bzip2),
    ] {
        for (command, expected) in [("convert", &plain.stdout), ("export", &exported.stdout)] {
            let o = match command {
                "convert" => xpgn_in(&dir, &["convert", "--to", "xpgn", "g.pgn", "-o", name]),
                _ => xpgn_in(&dir, &["export", "--db", "g.db", "-o", name]),
            };
            assert_eq!(o.status.code(), Some(0), "{command} {name}: {}", stderr(&o));
            let bytes = std::fs::read(dir.join(name)).unwrap();
            assert_eq!(Format::sniff(&bytes), Some(format), "{command} {name}");
            assert!(bytes.len() < expected.len() / 3, "{command} {name}");
            let mut back = Vec::new();
            xpgn::notation::parallel::open_input(dir.join(name).to_str().unwrap())
                .unwrap()
                .read_to_end(&mut back)
                .unwrap();
            assert!(back == *expected, "{command} {name}");
        }
    }
    // Other names are written as text.
    let o = xpgn_in(
        &dir,
        &["convert", "--to", "xpgn", "g.pgn", "-o", "out.gz.pgn"],
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read(dir.join("out.gz.pgn")).unwrap(), plain.stdout);
}

/// What `path` holds, decompressed as xpgn reads it.
fn decompressed(path: &Path) -> Vec<u8> {
    let mut back = Vec::new();
    xpgn::notation::parallel::open_input(path.to_str().unwrap())
        .unwrap()
        .read_to_end(&mut back)
        .unwrap();
    back
}

#[test]
fn split_outputs_are_compressed_part_by_part_when_their_name_says_so() {
    let dir = Scratch::new("compressed", "split");
    std::fs::write(dir.join("g.pgn"), real_games()).unwrap();
    let o = xpgn_in(&dir, &["import", "g.pgn", "--db", "g.db"]);
    assert_eq!(o.status.code(), Some(0));
    for (command, split) in [
        ("convert", &["--split-every", "500"][..]),
        ("export", &["--split-by-eco"][..]),
    ] {
        let run = |out: &str| {
            let mut args: Vec<&str> = match command {
                "convert" => vec!["convert", "--to", "xpgn", "g.pgn"],
                _ => vec!["export", "--db", "g.db"],
            };
            args.extend_from_slice(split);
            args.extend_from_slice(&["-o", out]);
            let o = xpgn_in(&dir, &args);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        };
        run("plain.pgn");
        let parts: Vec<String> = std::fs::read_dir(&*dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("plain-"))
            .collect();
        assert!(parts.len() >= 3, "{command}: {parts:?}");
        for (suffix, format) in [
            ("gz", Format::Gzip),
            ("zst", Format::Zstd),
            ("BZ2", Format::Bzip2),
        ] {
            run(&format!("packed.pgn.{suffix}"));
            for plain in &parts {
                let label = plain.trim_start_matches("plain-").trim_end_matches(".pgn");
                let name = format!("packed-{label}.pgn.{suffix}");
                let bytes = std::fs::read(dir.join(&name))
                    .unwrap_or_else(|e| panic!("{command}: {name}: {e}"));
                assert_eq!(Format::sniff(&bytes), Some(format), "{command} {name}");
                assert!(
                    decompressed(&dir.join(&name)) == std::fs::read(dir.join(plain)).unwrap(),
                    "{command} {name}"
                );
                std::fs::remove_file(dir.join(&name)).unwrap();
            }
            // No other part, nor anything named otherwise.
            let left: Vec<String> = std::fs::read_dir(&*dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("packed") || n.contains("xpgn-part"))
                .collect();
            assert!(left.is_empty(), "{command} {suffix}: {left:?}");
        }
        for plain in &parts {
            std::fs::remove_file(dir.join(plain)).unwrap();
        }
    }
}

/// Damage done to an archive, and what the message says of it.
#[derive(Clone, Copy, Debug)]
enum Damage {
    CutShort,
    Corrupt,
}

fn damaged(format: Format, text: &[u8], damage: Damage) -> (Vec<u8>, usize) {
    let mut bytes = compress(format, text);
    // Past bzip2's first block of 900 kB of text (that format gives no
    // text of a block it cannot read whole).
    let at = bytes.len() * 9 / 10;
    match damage {
        Damage::CutShort => bytes.truncate(at),
        Damage::Corrupt => {
            for b in &mut bytes[at..at + 32] {
                *b ^= 0xa5;
            }
        }
    }
    (bytes, at)
}

#[test]
fn an_archive_cut_short_or_damaged_gives_the_games_before_and_says_where_it_stopped() {
    let dir = Scratch::new("compressed", "damaged");
    // About 1.4 MB of text.
    let text = real_games().repeat(2);
    for format in FORMATS {
        for damage in [Damage::CutShort, Damage::Corrupt] {
            let (bytes, at) = damaged(format, &text, damage);
            let name = format!("{}-{damage:?}.pgn", format.name());
            std::fs::write(dir.join(&name), &bytes).unwrap();
            let says = match damage {
                Damage::CutShort => format!(
                    "{name}: {} data cut short: the input ends at byte {at} ",
                    format.name()
                ),
                Damage::Corrupt => format!(
                    "{name}: {} data cannot be decompressed at byte ",
                    format.name()
                ),
            };
            let db = format!("{name}.db");
            for args in [
                vec!["validate", &name],
                vec!["convert", "--to", "json", &name],
                vec!["import", &name, "--db", &db],
            ] {
                let o = xpgn_in(&dir, &args);
                let err = stderr(&o);
                assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
                assert!(err.contains(&says), "{args:?}: {err}");
                let read = match args[0] {
                    "validate" => stdout(&o)
                        .lines()
                        .last()
                        .and_then(|l| l.split(' ').next()?.parse::<usize>().ok())
                        .unwrap(),
                    "convert" => stdout(&o).lines().count(),
                    _ => stdout(&o)
                        .strip_prefix("read ")
                        .and_then(|l| l.split(',').next()?.parse::<usize>().ok())
                        .unwrap(),
                };
                // The games before the damage: those whole in the text
                // given before it (the one it cuts is left out, and the
                // one before it when the next game's first line is cut).
                let given: usize = err
                    .split(" bytes of text")
                    .next()
                    .and_then(|e| e.rsplit(' ').next()?.parse().ok())
                    .unwrap_or_else(|| panic!("{args:?}: {err}"));
                let starts = text[..given.min(text.len())]
                    .windows(3)
                    .filter(|w| w == b"\n\n[")
                    .count()
                    + 1;
                assert!(read >= 100, "{args:?}: {read} games: {err}");
                // Damaged bytes may be found only at the end of their gzip
                // member or bzip2 block, by its checksum: the text decoded
                // from the damage on is garbage, read as the games it makes.
                if matches!(damage, Damage::CutShort) {
                    assert!(
                        (starts.saturating_sub(2)..=starts).contains(&read),
                        "{args:?}: {read} games of {starts} begun: {err}"
                    );
                }
            }
            // The games read before the damage are stored, valid.
            let o = xpgn_in(&dir, &["stats", "--db", &db, "--format", "json"]);
            let stats: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let valid = stats["variants"][0]["valid"].as_u64().unwrap();
            assert!(valid >= 100, "{name}: {valid} stored");
        }
    }
}

#[test]
fn formats_not_read_stay_refused_as_not_text() {
    let dir = Scratch::new("compressed", "not-read");
    for (name, bytes, says) in [
        (
            "a.pgn.xz",
            &b"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46"[..],
            "xz-compressed",
        ),
        (
            "a.zip",
            b"PK\x03\x04\x14\x00\x00\x00\x08\x00",
            "zip-compressed",
        ),
        // Compressed twice: what the first decompression gives is gzip.
        (
            "twice.pgn.zst",
            &compress(Format::Zstd, &compress(Format::Gzip, b"[Event \"x\"]\n*\n")),
            "gzip-compressed",
        ),
    ] {
        std::fs::write(dir.join(name), bytes).unwrap();
        let o = xpgn_in(&dir, &["validate", name]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(
            stderr(&o).contains(&format!("{name}: not a text file: it is {says}")),
            "{}",
            stderr(&o)
        );
    }
}
