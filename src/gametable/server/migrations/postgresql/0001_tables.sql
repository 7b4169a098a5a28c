-- The first schema: tables (with their options and seed), seats, and each table's
-- record of actions, numbered from 1.
CREATE TABLE game_tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed BIGINT NOT NULL,
    host_hash TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    finished DOUBLE PRECISION
);
CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES game_tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES game_tables(id),
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, number)
);
