package dev.taskagent.store.jdbc;

import dev.taskagent.store.SearchPage;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.spi.SearchCursors;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The store's full-text search (TS-13), each database with its own engine:
 *
 * <ul>
 *   <li>PostgreSQL: the generated {@code search_vector} column ({@code tsvector}, 'simple' configuration) and its
 *       GIN index; ranked by {@code ts_rank}, a word in the description weighing more than one elsewhere.
 *   <li>MariaDB and MySQL: the generated {@code search_text} column (a case-insensitive collation) of the rows the
 *       filters keep, matched with a regular expression per word. There is no {@code FULLTEXT} index: on MariaDB
 *       10.11 one over this column crashed the server (an InnoDB assertion, {@code result != FTS_INVALID}) when a
 *       task's row was updated. Ranked by how many of the words the description holds.
 *   <li>H2: no full-text index; the generated {@code search_text} column of the rows the filters keep is matched
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
    private Search() {}

    static SearchPage page(Connection connection, Dialect dialect, SearchQuery query) throws SQLException {
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
            return SearchPage.empty();
        }
        Map<Long, Task> byId = new HashMap<>();
        for (Task task : TaskReader.readIdsSkippingDamaged(connection, dialect, ids, new ArrayList<>())) {
            byId.put(task.id(), task);
        }
        List<Task> tasks = new ArrayList<>(ids.size());
        for (long id : ids) {
            Task task = byId.get(id);
            if (task != null) {
                tasks.add(task);
            }
        }
        long remaining = total - ids.size();
        String cursor = null;
        if (remaining > 0) {
            long last = ids.get(ids.size() - 1);
            cursor = SearchCursors.encode(query, new SearchCursors.Position(watermark, ranks.get(last), last));
        }
        return new SearchPage(tasks, remaining, cursor);
    }

    private static long highestId(Connection connection) throws SQLException {
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
                sql.append("SELECT id, ts_rank(search_vector, q)::float8 AS rnk FROM taskagent_tasks,"
                        + " plainto_tsquery('simple'::regconfig, regexp_replace(?, '[^[:alnum:]]+', ' ', 'g')) q"
                        + " WHERE search_vector @@ q");
                parameters.add(String.join(" ", words));
            }
            case MARIADB, MYSQL -> {
                sql.append("SELECT id, ")
                        .append(descriptionRank(words.size(), database))
                        .append(" AS rnk");
                words.forEach(parameters::add);
                sql.append(" FROM taskagent_tasks WHERE 1 = 1");
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
                sql.append(" FROM taskagent_tasks WHERE 1 = 1");
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
        query.tag().ifPresent(tag -> {
            // Tags are a sorted JSON array of strings: the tag's JSON string, quotes included, is in it or not.
            String json = TaskDocument.strings(List.of(tag));
            sql.append(" AND tags LIKE ? ESCAPE '!'");
            parameters.add("%" + likeLiteral(json.substring(1, json.length() - 1)) + "%");
        });
        return sql.toString();
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
