-- xpgn database, version 10 (an import replaces a game stored invalid):
-- `games_invalid`: the ids of the games stored invalid, a partial index,
-- so that an import finds them (to replace one that it reads again, the
-- same text, with the current reading: docs/database.md "Import") without
-- reading the whole table.
CREATE INDEX games_invalid ON games (id) WHERE status = 'invalid';
