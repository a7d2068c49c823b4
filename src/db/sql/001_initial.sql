-- xpgn database, version 1.
-- games: one row per game read, valid or not; `original` holds its bytes
-- exactly as read, so nothing the user gave is lost.
CREATE TABLE games (
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
    original    BLOB    NOT NULL,
    hash        BLOB    NOT NULL UNIQUE
);
CREATE INDEX games_variant ON games (variant);
CREATE INDEX games_white ON games (white);
CREATE INDEX games_black ON games (black);

-- Every tag pair, in the order written.
CREATE TABLE tags (
    game  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx   INTEGER NOT NULL,
    name  TEXT    NOT NULL,
    value TEXT    NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
CREATE INDEX tags_name_value ON tags (name, value);

-- The main line of a valid game, one move per ply, space-separated.
CREATE TABLE moves (
    game  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    san   TEXT NOT NULL,
    coord TEXT NOT NULL
);

-- Position index: the 64-bit key of every position of a valid game's main
-- line (ply 0 = the start), answering "which games reach this position"
-- from the primary key.
CREATE TABLE positions (
    key  INTEGER NOT NULL,
    game INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply  INTEGER NOT NULL,
    PRIMARY KEY (key, game, ply)
) WITHOUT ROWID;
