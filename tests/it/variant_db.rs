//! A user's variant end to end through the database (docs/variants.md,
//! docs/database.md): a 10x10 variant with a custom leaper, defined in
//! `tests/variants/grid10.toml`, validated, imported, found by position,
//! exported, and then found and exported again without `--variants`, from
//! the definition the database stored. A changed definition under the same
//! name is refused, naming the variant; a Fairy-Stockfish section works the
//! same way.

use std::path::Path;
use std::process::{Command, Output};

use crate::scratch;
use scratch::Scratch;

const GAME: &str = "[Event \"Grid test\"]\n[White \"A\"]\n[Black \"B\"]\n[Variant \"grid10\"]\n\
    [Result \"*\"]\n\n1. Zd4 Zd7 2. Nf3 Nh8 3. e4 *\n";

/// The position after 1. Zd4 (board only).
const AFTER_ZD4: &str = "rzbqkbnzr1/pppppppppp/10/10/10/10/3Z6/10/PPPPPPPPPP/R1BQKBNZR1";

fn xpgn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("XPGN_VARIANTS")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A file of the test's scratch directory, as an argument.
fn at(dir: &Scratch, name: &str) -> String {
    dir.join(name).display().to_string()
}

const GRID10: &str = "tests/variants/grid10.toml";

#[test]
fn a_users_variant_is_stored_with_its_games_and_read_back_without_the_file() {
    let dir = Scratch::new("variant-db", "grid10-db");
    let games = at(&dir, "grid.xpgn");
    std::fs::write(&games, GAME).unwrap();
    let db = at(&dir, "grid.db");

    let o = xpgn(&["--variants", GRID10, "validate", &games]);
    assert!(stdout(&o).contains("1 valid"));
    // Without the definition the game's variant is unknown.
    assert!(!xpgn(&["validate", &games]).status.success());

    stdout(&xpgn(&[
        "--variants",
        GRID10,
        "import",
        "--db",
        &db,
        &games,
    ]));
    let with_file = stdout(&xpgn(&[
        "--variants",
        GRID10,
        "query",
        "--db",
        &db,
        "--variant",
        "grid10",
        "--fen",
        AFTER_ZD4,
    ]));
    assert!(
        with_file.contains("grid10") && with_file.contains("\n1 game\n"),
        "{with_file}"
    );
    let exported = stdout(&xpgn(&["--variants", GRID10, "export", "--db", &db]));
    assert!(
        exported.contains("1. Zd4 Zd7 2. Nf3 Nh8 3. e4 *"),
        "{exported}"
    );

    // Again without --variants: the database registers its stored definition.
    let without = stdout(&xpgn(&[
        "query",
        "--db",
        &db,
        "--variant",
        "Grid Ten",
        "--fen",
        AFTER_ZD4,
    ]));
    assert_eq!(without, with_file);
    assert_eq!(stdout(&xpgn(&["export", "--db", &db])), exported);
    let tree = stdout(&xpgn(&["tree", "--db", &db, "--variant", "grid10"]));
    assert!(tree.contains("Zd4"), "{tree}");
    // More games of it import without the file too.
    let more = at(&dir, "more.xpgn");
    std::fs::write(&more, GAME.replace("3. e4", "3. e3")).unwrap();
    let o = stdout(&xpgn(&["import", "--db", &db, &more]));
    assert!(o.contains("imported 1"), "{o}");
}

#[test]
fn a_changed_definition_under_the_same_name_is_refused() {
    let dir = Scratch::new("variant-db", "grid10-changed");
    let games = at(&dir, "grid.xpgn");
    std::fs::write(&games, GAME).unwrap();
    let db = at(&dir, "grid.db");
    stdout(&xpgn(&[
        "--variants",
        GRID10,
        "import",
        "--db",
        &db,
        &games,
    ]));

    let changed = at(&dir, "grid10.toml");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(GRID10))
        .unwrap()
        .replace("promotion-mandatory = false", "promotion-mandatory = true");
    std::fs::write(&changed, text).unwrap();
    for args in [
        vec![
            "--variants",
            changed.as_str(),
            "export",
            "--db",
            db.as_str(),
        ],
        vec![
            "--variants",
            changed.as_str(),
            "import",
            "--db",
            db.as_str(),
            games.as_str(),
        ],
    ] {
        let o = xpgn(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("the database stores games of the variant `grid10` under another definition (sha256 ")
                && err.contains("give the changed variant another name, or use another database"),
            "{err}"
        );
        assert!(o.stdout.is_empty());
    }
    // A new database takes the changed definition.
    let other = at(&dir, "other.db");
    stdout(&xpgn(&[
        "--variants",
        &changed,
        "import",
        "--db",
        &other,
        &games,
    ]));
}

#[test]
fn a_fairy_stockfish_section_is_stored_with_its_parents() {
    let dir = Scratch::new("variant-db", "ini-db");
    let games = at(&dir, "gothic.pgn");
    std::fs::write(
        &games,
        "[Variant \"gothic-ini\"]\n[Result \"*\"]\n\n\
         1. e4 e5 2. Ah3 Ah6 3. i3 i6 4. Bi2 Bi7 5. Nj3 Nj6 6. O-O O-O *\n",
    )
    .unwrap();
    let db = at(&dir, "g.db");
    let ini = "tests/variants/fairy.ini";
    stdout(&xpgn(&["--variants", ini, "import", "--db", &db, &games]));
    let exported = stdout(&xpgn(&["export", "--db", &db]));
    assert!(exported.contains("6. O-O O-O *"), "{exported}");
    let shown = stdout(&xpgn(&[
        "query",
        "--db",
        &db,
        "--variant",
        "gothic-ini",
        "--status",
        "valid",
    ]));
    assert!(shown.ends_with("\n1 game\n"), "{shown}");
}
