-- xpgn database, version 4 (the forgiving reader):
-- `diagnostics`: every diagnostic of the game as a JSON array of objects
--   {severity, kind, ply, in_variation, line, column, move, message};
--   `diagnostic` keeps the first error rendered as text.
-- `warnings`: how many of them are warnings (a valid game may have some).
-- `moves_hash`: SHA-256 of variant, start and main line, for
--   `xpgn duplicates` (the same moves under any tags, as pgn-extract -D).
-- An invalid game now also keeps its main line up to the fault in `moves`
-- and its positions in the index. `hash` is recomputed: the content hash
-- ignores tag order, white space and notation. The code step re-reads
-- every game from `original`.
ALTER TABLE games ADD COLUMN diagnostics TEXT NOT NULL DEFAULT '[]';
ALTER TABLE games ADD COLUMN warnings INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN moves_hash BLOB;
CREATE INDEX games_moves_hash ON games (moves_hash);
