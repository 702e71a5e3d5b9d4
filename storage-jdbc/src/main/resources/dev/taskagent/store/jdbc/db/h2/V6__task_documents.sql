-- Version 6: one truth per task. A task's progresses, preferences, comments and links move from their four
-- tables into JSON arrays in the task's own row, one column per kind, which every read and every claim reads
-- and every append extends in the statement that bumps the version. Message ids stay in taskagent_messages.
-- This script adds the columns (NULL until a row is moved); the store then moves the rows in batches that
-- commit one by one, so that a migration killed half-way goes on where it stopped, and runs
-- V6__task_documents_finish.sql, which drops what is no longer the truth.
-- CHARACTER LARGE OBJECT: a JSON-escaped text of the longest length allowed outgrows H2's longest string.
-- The store asks H2 to keep large objects of up to 64 KiB in the row (H2Dialect.keepDocumentsInRow).

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS progresses CHARACTER LARGE OBJECT;

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS preferences CHARACTER LARGE OBJECT;

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS comments CHARACTER LARGE OBJECT;

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS links CHARACTER LARGE OBJECT;
