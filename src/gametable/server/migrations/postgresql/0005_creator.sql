-- Whose caps per client a table counts against (a keyed digest of the address that
-- made it, never the address), so that every process counts a client's waiting tables
-- and tables of computer players alike, and a restart forgets none of them.
ALTER TABLE game_tables ADD COLUMN creator TEXT;
CREATE INDEX game_tables_creator ON game_tables (creator)
    WHERE finished IS NULL AND expired IS NULL;
