package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data step of schema version 9: writes the search row ({@link Search#write}) of every task that has none,
 * {@value #BATCH} tasks per transaction. A migration killed half-way goes on with the tasks it had not reached,
 * and two processes filling at once (H2, which has no lock across a migration) write the same rows.
 *
 * <p>Thread-safe (stateless).
 */
final class SearchMigration {
    private static final Logger LOG = LoggerFactory.getLogger(SearchMigration.class);

    /** Tasks written per transaction. */
    static final int BATCH = 500;

    private SearchMigration() {}

    /**
     * Writes the search row of every task that has none; commits after each batch.
     *
     * @param connection in manual-commit mode
     * @return how many tasks it wrote
     */
    static long run(Connection connection, Dialect dialect) throws SQLException {
        long written = 0;
        long after = 0;
        while (true) {
            List<Long> ids = nextBatch(connection, after);
            if (ids.isEmpty()) {
                break;
            }
            Search.write(connection, dialect, ids);
            connection.commit();
            written += ids.size();
            after = ids.get(ids.size() - 1);
            if (written % (BATCH * 100L) == 0) {
                LOG.info("Wrote the search text of {} tasks so far", written);
            }
        }
        return written;
    }

    private static List<Long> nextBatch(Connection connection, long after) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT t.id FROM taskagent_tasks t WHERE"
                + " t.id > ? AND NOT EXISTS (SELECT 1 FROM " + Search.TABLE + " s WHERE s.task_id = t.id)"
                + " ORDER BY t.id LIMIT " + BATCH)) {
            statement.setLong(1, after);
            try (ResultSet rows = statement.executeQuery()) {
                List<Long> ids = new ArrayList<>(BATCH);
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
                return ids;
            }
        }
    }
}
