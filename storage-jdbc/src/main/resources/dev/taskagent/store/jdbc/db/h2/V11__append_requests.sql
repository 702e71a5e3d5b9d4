-- Version 11: request ids on appends. An append (progress, comment, link) may carry the caller's request id, so
-- that a retry after a lost reply writes nothing. A task holds the ids of its last 32 appends that wrote with one:
-- seq numbers them per task, and the append that adds the 33rd deletes the oldest in its own transaction, so the
-- table holds at most 32 rows per task. An append with an id locks the task's row first, so that of two retries
-- with one id the second reads the first's row once it committed; the primary key also refuses a second row.
-- No foreign key: the store alone writes this table, and tasks are never deleted.

CREATE TABLE IF NOT EXISTS taskagent_append_requests (
    task_id BIGINT NOT NULL,
    request_id VARCHAR(255) NOT NULL,
    seq BIGINT NOT NULL,
    PRIMARY KEY (task_id, request_id)
);
