-- Whether the table's deal was shown (every seat taken at some time since it was dealt):
-- the game has begun, and its cards are never dealt again, even with a seat open since.
ALTER TABLE game_tables ADD COLUMN deal_shown BOOLEAN NOT NULL DEFAULT FALSE;
