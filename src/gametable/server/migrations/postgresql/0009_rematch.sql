-- A finished table's offer to play again (JSON: the new table, who asked, the host's old
-- seat, the seats given tokens): a process that loads the table again offers the same
-- new table, never a second one (gametable.server.offers).
ALTER TABLE game_tables ADD COLUMN rematch TEXT;
