package dev.taskagent.store.jdbc;

import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.spi.SearchCursors;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The store's full-text search (TS-13), each database with its own engine:
 *
 * <p>A task's searchable text (description, steps, progress entries, comment texts) is kept in its row of
 * {@code taskagent_task_search}, which only the writes that change that text rewrite ({@link #write}): a claim, a
 * heartbeat, a release or a completion never touches it. The text is computed by the database from the task row,
 * by the same expression every time ({@link #text}), so a write cannot compute it differently from the migration
 * that filled the table.
 *
 * <ul>
 *   <li>PostgreSQL: the {@code search_vector} column ({@code tsvector}, 'simple' configuration) and its GIN index;
 *       ranked by {@code ts_rank}, a word in the description weighing more than one elsewhere.
 *   <li>MariaDB and MySQL: the {@code search_text} column (a case-insensitive collation) of the rows the filters
 *       keep, matched with a regular expression per word. There is no {@code FULLTEXT} index: on MariaDB 10.11 one
 *       over the text crashed the server (an InnoDB assertion, {@code result != FTS_INVALID}) when a task's row
 *       was updated. Ranked by how many of the words the description holds.
 *   <li>H2: no full-text index; the lower-cased {@code search_text} column of the rows the filters keep is matched
 *       with a regular expression per word. Ranked like MariaDB.
 * </ul>
 *
 * <p>Every ranking depends only on the task and the query, and ties go to the newest task, so a cursor (rank and id
 * of the last task, see {@link SearchCursors}) continues exactly where its page ended; the first page's highest
 * task id bounds every later page, so tasks created meanwhile never shift one.
 *
 * <p>Thread-safe (stateless).
 */
final class Search {
    /** The table of the search text, one row per task. */
    static final String TABLE = "taskagent_task_search";

    /** Joins each task row to its search row in a search's {@code FROM}. */
    private static final String TASKS_AND_TEXT = "taskagent_tasks JOIN " + TABLE + " ON task_id = id";

    /**
     * PostgreSQL: the words of the description (weight A) and of the steps, progress entries and comment texts
     * (weight D) as the 'simple' configuration splits them: lower-cased, no stemming, no stop words, in any
     * script. Before splitting, the JSON of the progresses and comments loses its backslash escapes and
     * the comments their authors and times, and every run of characters that are neither letters nor digits
     * becomes a space, so that the words are those a search query splits into.
     */
    private static final String POSTGRES_TEXT = "setweight(to_tsvector('simple'::regconfig,"
            + " regexp_replace(description, '[^[:alnum:]]+', ' ', 'g')), 'A')"
            + " || setweight(to_tsvector('simple'::regconfig, regexp_replace("
            + "coalesce(steps, '') || ' ' || regexp_replace("
            + "coalesce(progresses, '') || ' '"
            + " || regexp_replace(coalesce(comments, ''), '\"(author|at)\":\"([^\"\\\\]|\\\\.)*\"|\"text\":', ' ', 'g'),"
            + " '\\\\([nrtbf/\"\\\\]|u[0-9a-fA-F]{4})', ' ', 'g'),"
            + " '[^[:alnum:]]+', ' ', 'g')), 'D')";

    /**
     * MariaDB and MySQL: description, steps, progress entries and comment texts, the JSON without its escapes and
     * the comments without their authors and times (the column's collation ignores case). The server reads
     * backslashes in literals as escapes, hence four for one in the pattern.
     */
    private static final String MYSQL_TEXT = "CONCAT_WS(' ', description, steps, REGEXP_REPLACE("
            + "CONCAT_WS(' ', progresses, REGEXP_REPLACE(comments,"
            + " '\"(author|at)\":\"([^\"\\\\\\\\]|\\\\\\\\.)*\"|\"text\":', ' ')),"
            + " '\\\\\\\\([nrtbf/\"\\\\\\\\]|u[0-9a-fA-F]{4})', ' '))";

    /** H2: the same text as MariaDB's, lower-cased. */
    private static final String H2_TEXT = "LOWER(CONCAT_WS(' ', description, steps, REGEXP_REPLACE("
            + "CONCAT_WS(' ', progresses, REGEXP_REPLACE(comments,"
            + " '\"(author|at)\":\"([^\"\\\\]|\\\\.)*\"|\"text\":', ' ')),"
            + " '\\\\([nrtbf/\"\\\\]|u[0-9a-fA-F]{4})', ' ')))";

    private Search() {}

    /**
     * The expression over a row of {@code taskagent_tasks} that gives its search text (PostgreSQL: its
     * {@code tsvector}).
     */
    static String text(JdbcDialect database) {
        return switch (database) {
            case POSTGRESQL -> POSTGRES_TEXT;
            case MARIADB, MYSQL -> MYSQL_TEXT;
            case H2 -> H2_TEXT;
        };
    }

    /**
     * Writes the search rows of tasks from their task rows, replacing the rows they had: called by every write
     * that changes a task's description, steps, progress entries or comments, in the same transaction, after
     * that write (which holds the task row's lock until the transaction ends, so two writers of one task write
     * its search row in the order of their commits).
     *
     * @param taskIds tasks that exist; at least one
     */
    static void write(Connection connection, Dialect dialect, List<Long> taskIds) throws SQLException {
        String ids = "id IN (" + String.join(", ", Collections.nCopies(taskIds.size(), "?")) + ")";
        JdbcDialect database = dialect.id();
        String select = " SELECT id, " + text(database) + " FROM taskagent_tasks WHERE " + ids;
        String sql =
                switch (database) {
                    case POSTGRESQL ->
                        "INSERT INTO " + TABLE + " (task_id, search_vector)" + select
                                + " ON CONFLICT (task_id) DO UPDATE SET search_vector = EXCLUDED.search_vector";
                    case MARIADB, MYSQL ->
                        "INSERT INTO " + TABLE + " (task_id, search_text)" + select
                                + " ON DUPLICATE KEY UPDATE search_text = VALUES(search_text)";
                    case H2 -> "MERGE INTO " + TABLE + " (task_id, search_text) KEY (task_id)" + select;
                };
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int index = 0; index < taskIds.size(); index++) {
                statement.setLong(index + 1, taskIds.get(index));
            }
            statement.executeUpdate();
        }
    }

    /** {@link #write(Connection, Dialect, List)} for one task. */
    static void write(Connection connection, Dialect dialect, long taskId) throws SQLException {
        write(connection, dialect, List.of(taskId));
    }

    static TaskPage page(Connection connection, Dialect dialect, SearchQuery query) throws SQLException {
        Optional<SearchCursors.Position> after = SearchCursors.decode(query);
        long watermark = after.isPresent() ? after.get().watermark() : highestId(connection);
        List<Object> parameters = new ArrayList<>();
        String matches = matches(dialect.id(), query, watermark, parameters);
        StringBuilder sql = new StringBuilder("SELECT id, rnk, COUNT(*) OVER () AS total FROM (")
                .append(matches)
                .append(") m");
        if (after.isPresent()) {
            sql.append(" WHERE (rnk < ? OR (rnk = ? AND id < ?))");
            parameters.add(after.get().rank());
            parameters.add(after.get().rank());
            parameters.add(after.get().lastId());
        }
        sql.append(" ORDER BY rnk DESC, id DESC LIMIT ").append(query.limit());
        List<Long> ids = new ArrayList<>(query.limit());
        Map<Long, Double> ranks = new HashMap<>();
        long total = 0;
        try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    long id = rows.getLong(1);
                    ids.add(id);
                    ranks.put(id, rows.getDouble(2));
                    total = rows.getLong(3);
                }
            }
        }
        if (ids.isEmpty()) {
            return TaskPage.empty();
        }
        List<Task> tasks = TaskReader.readInOrder(connection, dialect, ids, new ArrayList<>());
        long remaining = total - ids.size();
        String cursor = null;
        if (remaining > 0) {
            long last = ids.get(ids.size() - 1);
            cursor = SearchCursors.encode(query, new SearchCursors.Position(watermark, ranks.get(last), last));
        }
        return new TaskPage(tasks, remaining, cursor);
    }

    static long highestId(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT MAX(id) FROM taskagent_tasks")) {
            rows.next();
            return rows.getLong(1); // 0 when there is no task
        }
    }

    /** The inner select: id and rank of every match at or below the watermark. */
    private static String matches(JdbcDialect database, SearchQuery query, long watermark, List<Object> parameters) {
        StringBuilder sql = new StringBuilder();
        List<String> words = query.words();
        switch (database) {
            case POSTGRESQL -> {
                sql.append("SELECT id, ts_rank(search_vector, q)::float8 AS rnk FROM " + TASKS_AND_TEXT + ","
                        + " plainto_tsquery('simple'::regconfig, regexp_replace(?, '[^[:alnum:]]+', ' ', 'g')) q"
                        + " WHERE search_vector @@ q");
                parameters.add(String.join(" ", words));
            }
            case MARIADB, MYSQL -> {
                sql.append("SELECT id, ")
                        .append(descriptionRank(words.size(), database))
                        .append(" AS rnk");
                words.forEach(parameters::add);
                sql.append(" FROM " + TASKS_AND_TEXT + " WHERE 1 = 1");
                for (String word : words) {
                    sql.append(" AND search_text REGEXP ?");
                    parameters.add(wordPattern(word));
                }
            }
            case H2 -> {
                sql.append("SELECT id, ")
                        .append(descriptionRank(words.size(), database))
                        .append(" AS rnk");
                words.forEach(word -> parameters.add(wordPattern(word)));
                sql.append(" FROM " + TASKS_AND_TEXT + " WHERE 1 = 1");
                for (String word : words) {
                    sql.append(" AND REGEXP_LIKE(search_text, ?)");
                    parameters.add(wordPattern(word));
                }
            }
        }
        sql.append(" AND id <= ?");
        parameters.add(watermark);
        if (!query.includeArchived()) {
            sql.append(" AND archived = FALSE");
        }
        if (!query.statuses().isEmpty()) {
            sql.append(" AND status IN (");
            String separator = "";
            for (TaskStatus status : query.statuses()) {
                sql.append(separator).append('?');
                parameters.add(status.wireName());
                separator = ", ";
            }
            sql.append(')');
        }
        query.assignee().ifPresent(assignee -> {
            sql.append(" AND assignee = ?");
            parameters.add(assignee);
        });
        query.sessionId().ifPresent(session -> {
            sql.append(" AND session_id = ?");
            parameters.add(session);
        });
        query.tag().ifPresent(tag -> appendTagCondition(sql, tag, parameters));
        return sql.toString();
    }

    /** Keeps the rows whose tags hold a tag: one condition and its parameter. */
    static void appendTagCondition(StringBuilder sql, String tag, List<Object> parameters) {
        // Tags are a sorted JSON array of strings: the tag's JSON string, quotes included, is in it or not.
        String json = TaskDocument.strings(List.of(tag));
        sql.append(" AND tags LIKE ? ESCAPE '!'");
        parameters.add("%" + likeLiteral(json.substring(1, json.length() - 1)) + "%");
    }

    /** How many of the words the description holds: one term per word, each a parameter. */
    private static String descriptionRank(int words, JdbcDialect database) {
        StringBuilder rank = new StringBuilder("(0");
        for (int i = 0; i < words; i++) {
            rank.append(
                    database == JdbcDialect.H2
                            ? " + CASE WHEN REGEXP_LIKE(LOWER(description), ?) THEN 1 ELSE 0 END"
                            : " + CASE WHEN LOCATE(?, description COLLATE utf8mb4_unicode_520_ci) > 0 THEN 1 ELSE 0"
                                    + " END");
        }
        return rank.append(')').toString();
    }

    /**
     * A regular expression that finds a word (letters, digits and marks only, so nothing in it needs quoting) as a
     * whole word, ignoring case.
     */
    static String wordPattern(String word) {
        return "(?i)(^|[^\\p{L}\\p{N}\\p{M}])" + word + "([^\\p{L}\\p{N}\\p{M}]|$)";
    }

    private static String likeLiteral(String text) {
        return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }
}
