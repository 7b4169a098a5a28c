-- The table chat's last messages (docs/protocol.md, "chat"), so that a table loaded
-- again (after a restart, a while out of memory, or by another process) has its chat.
CREATE TABLE chat_messages (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES game_tables(id),
    message TEXT NOT NULL
);
CREATE INDEX chat_messages_table ON chat_messages (table_id, id);
