-- Version 9: the search text moves out of the task row into a table of its own. Version 8 kept it in a stored
-- generated column of taskagent_tasks, which the database computes again on every update of the row: a claim,
-- a heartbeat, a release or a completion rewrote the task's whole text. Here only the store's writes that
-- change a task's searchable text (creating it, its description or steps, a progress entry, a comment) write
-- its row in taskagent_task_search, with the text version 8 computed (the store computes it, see Search), and
-- the search still matches it with a regular expression: no FULLTEXT index (see version 8). The collation of
-- search_text ignores case, in every script. No foreign key: the store alone writes this table, and tasks are
-- never deleted.
-- After this script the store fills the table for the tasks that exist, a batch per transaction, and then
-- drops version 8's column (V9__search_side_finish.sql).

CREATE TABLE IF NOT EXISTS taskagent_task_search (
    task_id BIGINT NOT NULL PRIMARY KEY,
    search_text LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;
