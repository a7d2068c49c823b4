-- Version 3, after `position_postings` and `games.tags` are filled: the
-- row-per-position and row-per-tag tables go, and so do the indexes no
-- query uses (player and tag values are matched as case-blind substrings,
-- which an index cannot serve).
DROP INDEX games_white;
DROP INDEX games_black;
DROP INDEX tags_name_value;
DROP TABLE positions;
DROP TABLE tags;
