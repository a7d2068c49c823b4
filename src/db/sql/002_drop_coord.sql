-- Version 2, after `packed` is filled: the coordinate text is redundant.
ALTER TABLE moves DROP COLUMN coord;
