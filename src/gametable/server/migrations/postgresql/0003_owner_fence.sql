-- With several processes: the fencing number of the table's current owner. A process
-- that takes a table over raises it before loading the table, and every write it makes
-- about the table checks it, so a write of an earlier owner that arrives late is refused.
ALTER TABLE game_tables ADD COLUMN owner_fence BIGINT NOT NULL DEFAULT 0;
