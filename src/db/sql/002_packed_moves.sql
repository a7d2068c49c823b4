-- xpgn database, version 2: the main line packed for pattern queries.
-- `packed`: every move in 3 bytes (from, to, flags) plus 1-2 bytes for
-- the few that carry a castling index or a promotion (src/db/packed.rs);
-- `start`: the position string the game starts from when that is not its
-- variant's start position (a FEN tag), else NULL. Both are filled by the
-- migration's code step from the version-1 `coord` text, which then goes:
-- the coordinate moves are written from `packed` when asked for.
ALTER TABLE moves ADD COLUMN packed BLOB NOT NULL DEFAULT x'';
ALTER TABLE moves ADD COLUMN start TEXT;
