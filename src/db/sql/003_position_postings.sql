-- xpgn database, version 3: the position index as posting lists
-- (src/db/postings.rs). Per import batch and per key bucket (the key's top
-- 8 bits), one blob of sorted 14-byte entries: key (8 bytes), game id (4),
-- ply (2), little-endian. "Which games reach this position" reads the
-- bucket's rows (a primary-key range) and binary-searches each blob. A
-- batch of 1,000 games writes at most 256 rows instead of one row per
-- position.
-- The migration's code step fills it from `positions`.
--
-- Tags move into `games.tags`: a JSON array of [name, value] pairs in the
-- order written (`[["Event","Casual"],["White","Anna"]]`), one column per
-- game instead of one row per tag; queries read it with `json_each`.
CREATE TABLE position_postings (
    bucket  INTEGER NOT NULL,
    batch   INTEGER NOT NULL,
    entries BLOB    NOT NULL,
    PRIMARY KEY (bucket, batch)
) WITHOUT ROWID;

ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
