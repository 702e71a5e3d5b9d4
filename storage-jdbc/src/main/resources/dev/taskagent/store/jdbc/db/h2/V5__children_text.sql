-- Version 5: the children's text. A copy of a task's progresses, preferences, comments, links and message ids in
-- its own row, written with them, so that a claim returns the whole task from the row it updates instead of
-- reading five child tables. It is valid while children_version equals version; tasks from before (NULL, 0)
-- and rows written any other way are claimed by reading the child tables, as before.

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS children_text CHARACTER VARYING(1048576);

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS children_version BIGINT NOT NULL DEFAULT 0;
