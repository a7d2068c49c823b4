-- Version 6, after the code step: `games` and `moves` rebuilt without the
-- columns that went. Child first: with foreign keys on, dropping `games`
-- would delete the rows of a `moves` that still referred to it. Renaming
-- `games_new` makes `moves_new`'s reference follow it.
CREATE TABLE games_new (
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
    source_file TEXT    NOT NULL,
    source_line INTEGER NOT NULL,
    tags        TEXT    NOT NULL DEFAULT '[]',
    diagnostics TEXT    NOT NULL DEFAULT '[]',
    warnings    INTEGER NOT NULL DEFAULT 0,
    original    BLOB    NOT NULL
);
INSERT INTO games_new
    SELECT id, variant, event, site, date, round, white, black, result, plies, status,
           diagnostic, source_file, source_line, tags, diagnostics, warnings, original
    FROM games ORDER BY id;
-- `moves.result`: the game's `Result` tag again, so the opening tree
-- reads one small row per game and never the long `games` row.
CREATE TABLE moves_new (
    game   INTEGER PRIMARY KEY REFERENCES games_new (id) ON DELETE CASCADE,
    packed BLOB NOT NULL,
    start  TEXT,
    result TEXT
);
INSERT INTO moves_new
    SELECT m.game, m.packed, m.start, g.result
    FROM moves m JOIN games g ON g.id = m.game ORDER BY m.game;
DROP TABLE moves;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
ALTER TABLE moves_new RENAME TO moves;
CREATE INDEX games_variant ON games (variant);
DROP TABLE position_postings;
ALTER TABLE position_postings_new RENAME TO position_postings;
