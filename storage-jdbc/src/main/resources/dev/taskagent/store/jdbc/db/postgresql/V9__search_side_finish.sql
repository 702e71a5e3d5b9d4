-- Version 9, once every task has its row in taskagent_task_search: version 8's generated column goes, and its
-- GIN index with it.

ALTER TABLE taskagent_tasks DROP COLUMN IF EXISTS search_vector;
