-- Version 9, once every task has its row in taskagent_task_search: version 8's generated column goes. The index
-- version 8 added on (archived, status, id) stays: the search still narrows the tasks it reads with it.

ALTER TABLE taskagent_tasks DROP COLUMN IF EXISTS search_text;
