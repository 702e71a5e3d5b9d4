-- Version 9: the search words move out of the task row into a table of their own. Version 8 kept them in a
-- generated column of taskagent_tasks, which PostgreSQL computes again on every update of the row, and every
-- update that moves the row (a claim, a heartbeat, a release, a completion) also added the task's words to the
-- GIN index again. Here only the store's writes that change a task's searchable text (creating it, its
-- description or steps, a progress entry, a comment) write its row in taskagent_task_search, with the words
-- version 8 computed (the store computes them, see Search). No foreign key: the store alone writes this table,
-- tasks are never deleted, and a foreign key would put a check on every update of taskagent_tasks.
-- After this script the store fills the table for the tasks that exist, a batch per transaction, and then
-- drops version 8's column and its index (V9__search_side_finish.sql).

CREATE TABLE IF NOT EXISTS taskagent_task_search (
    task_id BIGINT NOT NULL PRIMARY KEY,
    search_vector tsvector NOT NULL
);

CREATE INDEX IF NOT EXISTS taskagent_task_search_words ON taskagent_task_search USING GIN (search_vector);
