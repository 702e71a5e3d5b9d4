-- Version 3: the event feed. Every committed change appends a row in its own transaction; a reader
-- numbers committed rows (position) under the head row's lock, so positions are given in the order the
-- rows became visible and a late commit never lands behind a position already read.

CREATE TABLE IF NOT EXISTS taskagent_events (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    -- NULL until a reader numbers the row; then 1, 2, 3... without gaps.
    position BIGINT NULL,
    task_id BIGINT NOT NULL,
    session_id VARCHAR(255) NOT NULL,
    kind VARCHAR(32) NOT NULL,
    payload MEDIUMTEXT NOT NULL,
    created_at DATETIME(6) NOT NULL,
    UNIQUE INDEX taskagent_events_position (position),
    -- The rows still to number, oldest first.
    INDEX taskagent_events_unnumbered (position, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

-- One row: the newest position given, and how far the feed was pruned. Its lock serialises the numbering.
CREATE TABLE IF NOT EXISTS taskagent_event_head (
    id INT NOT NULL PRIMARY KEY,
    last_position BIGINT NOT NULL,
    pruned_through BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

INSERT IGNORE INTO taskagent_event_head (id, last_position, pruned_through) VALUES (1, 0, 0);
