-- Version 1: tasks, their append-only children, message links and sessions.
-- DDL is not transactional here: statements are idempotent (IF NOT EXISTS, indexes and keys inside
-- CREATE TABLE) so that a migration interrupted half-way can run again.
-- utf8mb4_0900_bin: case-sensitive and NO PAD, so 'a' and 'a ' are different ids, as on PostgreSQL
-- and H2 (utf8mb4_bin would pad).
-- Times are DATETIME(6) holding UTC: TIMESTAMP would end in 2038.

-- One row per session: locked with SELECT ... FOR UPDATE to serialise the writers of a session's
-- order numbers and message links.
CREATE TABLE IF NOT EXISTS taskagent_sessions (
    session_id VARCHAR(255) NOT NULL PRIMARY KEY
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

CREATE TABLE IF NOT EXISTS taskagent_tasks (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    session_id VARCHAR(255) NOT NULL,
    -- 1..N within the session; no unique index, so that renumbering never collides with itself.
    task_order INT NOT NULL,
    description MEDIUMTEXT NOT NULL,
    status VARCHAR(16) NOT NULL,
    priority INT NOT NULL,
    -- -priority: the claim orders by it ascending, so that one ascending index serves the claim's
    -- ORDER BY exactly (MariaDB before 10.8 ignores DESC in an index definition, and a claim whose
    -- ORDER BY is not served by an index makes SKIP LOCKED lock every row it scans).
    claim_rank BIGINT AS (-priority) STORED,
    assignee VARCHAR(255),
    previous_assignee VARCHAR(255),
    created_by VARCHAR(255),
    archived BOOLEAN NOT NULL,
    steps MEDIUMTEXT,
    current_step INT NOT NULL,
    created_at DATETIME(6) NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    version BIGINT NOT NULL,
    INDEX taskagent_tasks_session (session_id, task_order),
    INDEX taskagent_tasks_claim (assignee, status, archived, claim_rank, created_at, id),
    CONSTRAINT taskagent_tasks_session_fk FOREIGN KEY (session_id) REFERENCES taskagent_sessions (session_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

CREATE TABLE IF NOT EXISTS taskagent_progresses (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    task_id BIGINT NOT NULL,
    content MEDIUMTEXT NOT NULL,
    INDEX taskagent_progresses_task (task_id, id),
    CONSTRAINT taskagent_progresses_task_fk FOREIGN KEY (task_id) REFERENCES taskagent_tasks (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

CREATE TABLE IF NOT EXISTS taskagent_preferences (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    task_id BIGINT NOT NULL,
    content MEDIUMTEXT NOT NULL,
    INDEX taskagent_preferences_task (task_id, id),
    CONSTRAINT taskagent_preferences_task_fk FOREIGN KEY (task_id) REFERENCES taskagent_tasks (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

CREATE TABLE IF NOT EXISTS taskagent_comments (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    task_id BIGINT NOT NULL,
    author VARCHAR(255) NOT NULL,
    content MEDIUMTEXT NOT NULL,
    created_at DATETIME(6) NOT NULL,
    INDEX taskagent_comments_task (task_id, id),
    CONSTRAINT taskagent_comments_task_fk FOREIGN KEY (task_id) REFERENCES taskagent_tasks (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

CREATE TABLE IF NOT EXISTS taskagent_links (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    task_id BIGINT NOT NULL,
    url MEDIUMTEXT NOT NULL,
    description MEDIUMTEXT NOT NULL,
    author VARCHAR(255) NOT NULL,
    created_at DATETIME(6) NOT NULL,
    INDEX taskagent_links_task (task_id, id),
    CONSTRAINT taskagent_links_task_fk FOREIGN KEY (task_id) REFERENCES taskagent_tasks (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

-- A message belongs to one task or (task_id NULL) to the session's planning section.
CREATE TABLE IF NOT EXISTS taskagent_messages (
    session_id VARCHAR(255) NOT NULL,
    message_id VARCHAR(255) NOT NULL,
    task_id BIGINT,
    seq BIGINT NOT NULL,
    PRIMARY KEY (session_id, message_id),
    INDEX taskagent_messages_task (task_id, seq),
    CONSTRAINT taskagent_messages_session_fk FOREIGN KEY (session_id) REFERENCES taskagent_sessions (session_id),
    CONSTRAINT taskagent_messages_task_fk FOREIGN KEY (task_id) REFERENCES taskagent_tasks (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;
