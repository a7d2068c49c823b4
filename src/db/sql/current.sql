-- xpgn database, the current version (12) at once: what the migrations
-- 001 to 012 build from an empty file, statement for statement as SQLite
-- keeps them (`sqlite_master`), so that a new database is made in one
-- step. A test checks that both ways give the same schema; a new
-- migration changes this file too.
CREATE TABLE variant_definitions (
    name       TEXT PRIMARY KEY,
    format     TEXT NOT NULL,
    definition TEXT NOT NULL,
    hash       TEXT NOT NULL
);
CREATE TABLE game_hashes (
    first_game INTEGER PRIMARY KEY,
    content    BLOB NOT NULL,
    moves      BLOB NOT NULL
);
CREATE TABLE "games" (
    id          INTEGER PRIMARY KEY,
    variant     TEXT    NOT NULL,
    event       TEXT,
    site        TEXT,
    date        TEXT,
    round       TEXT,
    white       TEXT,
    black       TEXT,
    result      TEXT,
    plies       INTEGER NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('valid', 'invalid')),
    diagnostic  TEXT,
    source_line INTEGER NOT NULL,
    diagnostics TEXT    NOT NULL DEFAULT '[]',
    warnings    INTEGER NOT NULL DEFAULT 0,
    source INTEGER NOT NULL DEFAULT 0, roster INTEGER NOT NULL DEFAULT 0, more_tags TEXT NOT NULL DEFAULT '[]', original_zstd BLOB NOT NULL DEFAULT x'', eco TEXT, opening TEXT, frame INTEGER);
CREATE TABLE "moves" (
    game   INTEGER PRIMARY KEY REFERENCES "games" (id) ON DELETE CASCADE,
    packed BLOB NOT NULL,
    start  TEXT,
    result TEXT
);
CREATE INDEX games_variant ON games (variant);
CREATE TABLE sources (
    id   INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE
);
CREATE TABLE "position_postings" (
    bucket  INTEGER NOT NULL,
    batch   INTEGER NOT NULL,
    piece   INTEGER NOT NULL,
    count   INTEGER NOT NULL,
    entries BLOB    NOT NULL,
    PRIMARY KEY (bucket, batch, piece)
) WITHOUT ROWID;
CREATE TABLE opening_tree (
    key   INTEGER PRIMARY KEY,
    games INTEGER NOT NULL,
    ended INTEGER NOT NULL,
    moves BLOB    NOT NULL
);
CREATE INDEX games_invalid ON games (id) WHERE status = 'invalid';
CREATE TABLE original_frames (
    id    INTEGER PRIMARY KEY,
    frame BLOB NOT NULL
);
