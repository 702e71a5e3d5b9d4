package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.task.TaskNotFoundException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * The request ids of appends (TS-5.5 to TS-5.7), in {@code taskagent_append_requests}: a row per id a task holds,
 * numbered per task by {@code seq}. An append with a request id first locks the task's row, so that appends with
 * ids to one task take turns: the second of two retries with one id reads the first's row once it committed, and
 * is a replay. The append that takes a task's 33rd id deletes its oldest in the same transaction (TS-5.6), so the
 * table holds at most {@value TaskStore#REQUEST_ID_WINDOW} rows per task. Appends without a request id never read
 * or write the table.
 *
 * <p>Thread-safe (stateless); its methods run on the connection of the caller's unit of work.
 */
final class AppendRequests {
    static final String TABLE = "taskagent_append_requests";

    private static final String LOCK_TASK = "SELECT id FROM taskagent_tasks WHERE id = ? FOR UPDATE";

    private static final String HELD = "SELECT request_id, seq FROM " + TABLE + " WHERE task_id = ?";

    private static final String FORGET = "DELETE FROM " + TABLE + " WHERE task_id = ? AND seq <= ?";

    private static final String REMEMBER = "INSERT INTO " + TABLE + " (task_id, request_id, seq) VALUES (?, ?, ?)";

    private AppendRequests() {}

    /**
     * Locks the task's row until the transaction ends and tells whether the task holds the request id.
     *
     * @return the number the id gets when the append writes; empty when the task holds the id (a replay)
     * @throws TaskNotFoundException if there is no such task
     */
    static OptionalLong lockAndNumber(Connection connection, long taskId, String requestId) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(LOCK_TASK)) {
            lock.setLong(1, taskId);
            if (Dialect.queryLong(lock).isEmpty()) {
                throw new TaskNotFoundException(taskId);
            }
        }
        long newest = 0;
        try (PreparedStatement held = connection.prepareStatement(HELD)) {
            held.setLong(1, taskId);
            try (ResultSet rows = held.executeQuery()) {
                while (rows.next()) {
                    if (rows.getString(1).equals(requestId)) {
                        return OptionalLong.empty();
                    }
                    newest = Math.max(newest, rows.getLong(2));
                }
            }
        }
        return OptionalLong.of(newest + 1);
    }

    /**
     * Records that the task holds the request id, numbered as {@link #lockAndNumber} said, and forgets the id that
     * falls out of the window.
     */
    static void remember(Connection connection, long taskId, String requestId, long seq) throws SQLException {
        if (seq > TaskStore.REQUEST_ID_WINDOW) {
            try (PreparedStatement forget = connection.prepareStatement(FORGET)) {
                forget.setLong(1, taskId);
                forget.setLong(2, seq - TaskStore.REQUEST_ID_WINDOW);
                forget.executeUpdate();
            }
        }
        try (PreparedStatement remember = connection.prepareStatement(REMEMBER)) {
            remember.setLong(1, taskId);
            remember.setString(2, requestId);
            remember.setLong(3, seq);
            remember.executeUpdate();
        }
    }
}
