-- xpgn database, version 12 (originals stored together): an import packs
-- the texts of consecutive games into one Zstandard frame of up to 32 KB
-- of text, a row of `original_frames`; a game's `original_zstd` then
-- holds only where its text stands in the frame (docs/database.md
-- "Originals"), `frame` the frame's id (NULL for a game whose value is a
-- frame of its own, as before). A framed game with at most one tag of
-- each of the seven names has `roster` 2: its tags are read from its
-- text, and `more_tags` is empty.
CREATE TABLE original_frames (
    id    INTEGER PRIMARY KEY,
    frame BLOB NOT NULL
);
ALTER TABLE games ADD COLUMN frame INTEGER;
