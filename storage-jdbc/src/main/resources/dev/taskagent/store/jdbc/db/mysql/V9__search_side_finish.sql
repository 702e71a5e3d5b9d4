-- Version 9, once every task has its row in taskagent_task_search: version 8's generated column goes. The index
-- version 8 added on (archived, status, id) stays: the search still narrows the tasks it reads with it.
-- MySQL has no IF EXISTS for columns: a migration interrupted after this statement and before the version was
-- recorded must be finished by hand (record version 9 in the schema-version table).

ALTER TABLE taskagent_tasks DROP COLUMN search_text;
