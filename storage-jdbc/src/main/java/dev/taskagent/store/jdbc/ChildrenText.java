package dev.taskagent.store.jdbc;

import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A task's children (progresses, preferences, comments, links, message ids) as one text, kept in the task
 * row's {@code children_text} column beside the child tables, so that a claim returns the whole task from
 * the one row it updates. Reading the five child tables in the claim's statement cost a third of a claim
 * on PostgreSQL: the database sets up every table and index of a statement on each execution, rows or
 * not.
 *
 * <p>The text is a copy, and the child tables stay the truth. It is valid only while the row's {@code
 * children_version} equals its {@code version}: every write that maintains it carries {@code
 * children_version} along ({@link Dialect#BUMP_VERSION}); any other write to the row, such as one by an
 * older taskagent or by hand, leaves it behind, and the claim then reads the child tables instead. A text
 * that would grow past {@link #MAX_CHARS} is dropped (NULL) for the same fallback, which bounds what an
 * append rewrites.
 *
 * <p>Format: the entries in the order they were added, each a kind letter ({@code P} progress, {@code U}
 * preference, {@code C} comment, {@code L} link, {@code M} message id) followed by its fields, each field
 * written as its length in UTF-16 units, a colon and the characters. Appending an entry is appending text.
 *
 * <p>A claim that had to read the tables writes the copy back ({@link #writeBack}), so that a task from
 * before the copy existed, or one a foreign write left behind, is claimed from its row the next time.
 *
 * <p>Stateless and thread-safe.
 */
final class ChildrenText {
    /** The longest text kept; a longer one is dropped and the claim reads the child tables. */
    static final int MAX_CHARS = 16_384;

    private ChildrenText() {}

    static String progress(String content) {
        return entry('P', content);
    }

    static String preference(String content) {
        return entry('U', content);
    }

    static String comment(String author, String text, Instant createdAt) {
        return entry('C', author, text, createdAt.toString());
    }

    static String link(String url, String description, String author, Instant createdAt) {
        return entry('L', url, description, author, createdAt.toString());
    }

    static String message(String messageId) {
        return entry('M', messageId);
    }

    /** @return the text of all of a task's children, or null when it would be longer than {@link #MAX_CHARS} */
    static String of(Task task) {
        StringBuilder text = new StringBuilder();
        for (String progress : task.progresses()) {
            text.append(progress(progress));
        }
        for (String preference : task.userPreferences()) {
            text.append(preference(preference));
        }
        for (Comment comment : task.comments()) {
            text.append(comment(comment.author(), comment.text(), comment.createdAt()));
        }
        for (Link link : task.links()) {
            text.append(link(link.url(), link.description(), link.author(), link.createdAt()));
        }
        for (String messageId : task.messageIds()) {
            text.append(message(messageId));
        }
        return text.length() <= MAX_CHARS ? text.toString() : null;
    }

    /**
     * Writes the copy of a task read back after a change to its children other than an append (preferences
     * replaced, messages moved in or out); NULL when it would be too long, which drops the copy the row had.
     *
     * @return the task
     */
    static Task write(Connection connection, Task task) throws SQLException {
        update(connection, task, of(task));
        return task;
    }

    /**
     * Writes the copy of a task that a claim had to read from its tables, for the next claim; nothing when
     * it would be too long (the row has no valid copy then anyway).
     *
     * @return the task
     */
    static Task writeBack(Connection connection, Task task) throws SQLException {
        String text = of(task);
        if (text != null) {
            update(connection, task, text);
        }
        return task;
    }

    /**
     * Sets the row's copy for the version the task was read at: guarded by that version, so it changes
     * nothing when the row has moved on since, and is safe with or without the row's lock. Leaves the
     * version and {@code updated_at} alone.
     */
    private static void update(Connection connection, Task task, String text) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("UPDATE taskagent_tasks SET"
                + " children_text = ?, children_version = version WHERE id = ? AND version = ?")) {
            if (text == null) {
                statement.setNull(1, Types.VARCHAR);
            } else {
                statement.setString(1, text);
            }
            statement.setLong(2, task.id());
            statement.setLong(3, task.version());
            statement.executeUpdate();
        }
    }

    private static String entry(char kind, String... fields) {
        int length = 1;
        for (String field : fields) {
            length += field.length() + 12;
        }
        StringBuilder entry = new StringBuilder(length).append(kind);
        for (String field : fields) {
            entry.append(field.length()).append(':').append(field);
        }
        return entry.toString();
    }

    /** A task's children, read back from its text. */
    record Children(
            List<String> progresses,
            List<String> preferences,
            List<Comment> comments,
            List<Link> links,
            List<String> messageIds) {}

    /**
     * Reads a text back.
     *
     * @throws IllegalArgumentException if it is not a text this class wrote
     */
    static Children parse(String text) {
        Children children = new Children(
                new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        Reader reader = new Reader(text);
        while (reader.hasMore()) {
            char kind = reader.kind();
            switch (kind) {
                case 'P' -> children.progresses().add(reader.field());
                case 'U' -> children.preferences().add(reader.field());
                case 'C' -> children.comments().add(new Comment(reader.field(), reader.field(), reader.time()));
                case 'L' ->
                    children.links().add(new Link(reader.field(), reader.field(), reader.field(), reader.time()));
                case 'M' -> children.messageIds().add(reader.field());
                default -> throw reader.malformed("unknown kind '" + kind + "'");
            }
        }
        return children;
    }

    private static final class Reader {
        private final String text;
        private int position;

        Reader(String text) {
            this.text = text;
        }

        boolean hasMore() {
            return position < text.length();
        }

        char kind() {
            return text.charAt(position++);
        }

        String field() {
            int colon = text.indexOf(':', position);
            if (colon <= position) {
                throw malformed("no field length");
            }
            int length;
            try {
                length = Integer.parseInt(text, position, colon, 10);
            } catch (NumberFormatException e) {
                throw malformed("bad field length");
            }
            int start = colon + 1;
            if (length < 0 || length > text.length() - start) {
                throw malformed("field past the end");
            }
            position = start + length;
            return text.substring(start, position);
        }

        Instant time() {
            String field = field();
            try {
                return Instant.parse(field);
            } catch (DateTimeParseException e) {
                throw malformed("bad time '" + field + "'");
            }
        }

        IllegalArgumentException malformed(String why) {
            return new IllegalArgumentException("Not a children text (" + why + " at " + position + ")");
        }
    }
}
