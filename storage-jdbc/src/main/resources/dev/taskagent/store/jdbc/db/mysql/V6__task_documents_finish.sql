-- Version 6, after every task row holds its documents: the four child tables and the copy of version 5 go.
-- MySQL has no IF EXISTS for columns: a migration interrupted in this script must be finished by hand.

DROP TABLE IF EXISTS taskagent_progresses;

DROP TABLE IF EXISTS taskagent_preferences;

DROP TABLE IF EXISTS taskagent_comments;

DROP TABLE IF EXISTS taskagent_links;

ALTER TABLE taskagent_tasks DROP COLUMN children_text;

ALTER TABLE taskagent_tasks DROP COLUMN children_version;
