package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The ids of one page of a listing and how many tasks the whole listing holds, from one statement that selects
 * {@code id} and {@code COUNT(*) OVER ()} in the page's order: the first step of the queue's and the dead letters'
 * pages, whose tasks are then read by id ({@link TaskReader#readInOrder}).
 *
 * @param ids the page's task ids, in the listing's order
 * @param total the tasks of the listing from the page's first on (0 when the page is empty)
 */
record IdPage(List<Long> ids, long total) {

    /** How many tasks of the listing follow the page. */
    long remaining() {
        return total - ids.size();
    }

    /** The id of the page's last task; the page must not be empty. */
    long lastId() {
        return ids.get(ids.size() - 1);
    }

    /**
     * Runs a page's statement.
     *
     * @param connection the unit of work's connection
     * @param sql selects {@code id} and the window count, in that order, at most {@code limit} rows
     * @param parameters the statement's parameters, in order
     * @param limit the page's size, to size the list
     */
    static IdPage read(Connection connection, String sql, List<?> parameters, int limit) throws SQLException {
        List<Long> ids = new ArrayList<>(limit);
        long total = 0;
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                    total = rows.getLong(2);
                }
            }
        }
        return new IdPage(List.copyOf(ids), total);
    }
}
