-- Waiting tables expire; turn clocks; the host's seat; games ended early; watching
-- switched off. Tables stored before options carried rules_version were played by the
-- first rules (rules_version 1).
ALTER TABLE game_tables ADD COLUMN expired DOUBLE PRECISION;
ALTER TABLE game_tables ADD COLUMN clock TEXT;
ALTER TABLE game_tables ADD COLUMN host_seat INTEGER;
ALTER TABLE game_tables ADD COLUMN ended DOUBLE PRECISION;
ALTER TABLE game_tables ADD COLUMN watchers_off INTEGER;
UPDATE game_tables SET config = (config::jsonb || '{"rules_version": 1}'::jsonb)::text
    WHERE jsonb_typeof(config::jsonb) = 'object' AND NOT (config::jsonb ? 'rules_version');
CREATE INDEX game_tables_unfinished ON game_tables (created)
    WHERE finished IS NULL AND expired IS NULL;
