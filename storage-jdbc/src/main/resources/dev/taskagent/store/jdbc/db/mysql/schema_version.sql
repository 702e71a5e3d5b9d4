-- The schema-version table: one row per applied migration. Created before any migration runs.
CREATE TABLE IF NOT EXISTS taskagent_schema_version (
    version INT NOT NULL PRIMARY KEY,
    description VARCHAR(200) NOT NULL,
    installed_at DATETIME(6) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;
