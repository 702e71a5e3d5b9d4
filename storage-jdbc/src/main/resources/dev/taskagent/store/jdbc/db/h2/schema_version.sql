-- The schema-version table: one row per applied migration. Created before any migration runs.
CREATE TABLE IF NOT EXISTS taskagent_schema_version (
    version INT NOT NULL PRIMARY KEY,
    description VARCHAR(200) NOT NULL,
    installed_at TIMESTAMP(6) NOT NULL
);
