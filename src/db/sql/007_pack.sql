-- xpgn database, version 7 (at most 2,000 bytes a game of real PGN):
-- `original_zstd`: the original bytes as one Zstandard frame compressed
--   against the dictionary built into xpgn (src/db/original.rs), where
--   `original` held them raw: 837 bytes a TWIC game become about 430.
-- `sources`: each file games were imported from, once; `games.source` its
--   id, where `source_file` repeated the path in every game's row.
-- `roster`, `more_tags`: the tags without the seven the roster columns
--   already hold (src/db/tags.rs): `roster` is 1 when a game's tags begin
--   with the Seven Tag Roster in order, and then `more_tags` holds the
--   pairs after it; else it holds them all, as `tags` did.
-- The code step fills them from `original` and `tags`, which then go
-- (`original_zstd` last in the row, as `original` was).
CREATE TABLE sources (
    id   INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE
);
INSERT INTO sources (path) SELECT source_file FROM games GROUP BY source_file ORDER BY MIN(id);
ALTER TABLE games ADD COLUMN source INTEGER NOT NULL DEFAULT 0;
UPDATE games SET source = (SELECT id FROM sources WHERE path = games.source_file);
ALTER TABLE games ADD COLUMN roster INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN more_tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE games ADD COLUMN original_zstd BLOB NOT NULL DEFAULT x'';
--
-- `position_postings`: `piece` joins the key. A batch's entries of one
-- bucket are cut into pieces whose rows fill their overflow pages (or stay
-- in their leaf), where one row per bucket and batch left half a page
-- unused on average (src/db/postings.rs, `pieces`). The code step cuts the
-- old rows into `position_postings_new`.
CREATE TABLE position_postings_new (
    bucket  INTEGER NOT NULL,
    batch   INTEGER NOT NULL,
    piece   INTEGER NOT NULL,
    count   INTEGER NOT NULL,
    entries BLOB    NOT NULL,
    PRIMARY KEY (bucket, batch, piece)
) WITHOUT ROWID;
