-- xpgn database, version 6 (an import that stays fast as the database grows):
-- `game_hashes`: the content hash and the moves hash of every game, one
--   row per 64 consecutive game ids (a row fits a page): `content` and `moves` hold 32
--   bytes per game from `first_game` on (`moves` all zeros for a game
--   without a main line). An import loads the content hashes once and
--   checks each game in memory, where the UNIQUE index on `games.hash`
--   took a random B-tree insert (a page written) per game; `xpgn
--   duplicates` groups the moves hashes in memory, where the index on
--   `games.moves_hash` took another. Both columns and indexes go.
-- `games`: `original`, the long column, moves to the end of the row, so
--   the columns queries filter on are read without it.
-- `moves`: `san` goes: it is written from `packed` when asked for;
--   `result` (the `Result` tag) comes, for the opening tree.
-- `position_postings`: blobs in the compact form (src/db/postings.rs:
--   varint deltas instead of 14 fixed bytes per entry), and `count`, the
--   entries of a blob, so `stats` need not decode them.
-- The code step between the two halves fills `game_hashes` and
-- `position_postings_new` from the old tables.
CREATE TABLE game_hashes (
    first_game INTEGER PRIMARY KEY,
    content    BLOB NOT NULL,
    moves      BLOB NOT NULL
);
CREATE TABLE position_postings_new (
    bucket  INTEGER NOT NULL,
    batch   INTEGER NOT NULL,
    count   INTEGER NOT NULL,
    entries BLOB    NOT NULL,
    PRIMARY KEY (bucket, batch)
) WITHOUT ROWID;
