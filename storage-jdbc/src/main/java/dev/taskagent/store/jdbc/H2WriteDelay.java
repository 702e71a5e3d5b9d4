package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Makes an H2 database write every commit to its file before the commit returns (TS-1.8).
 *
 * <p>H2 2.x keeps committed changes in memory and a background thread writes them to the file up to
 * {@code WRITE_DELAY} milliseconds later, 500 by default; a process killed in between loses units of
 * work that had returned. With {@code WRITE_DELAY=0} each commit writes its changes before it returns.
 * They are then in the operating system's hands, which keeps them when the process dies; only a crash of
 * the operating system or a power cut can still lose them, as H2 does not {@code fsync} on commit.
 *
 * <p>H2 takes the delay from the URL whenever it opens a database, {@code 500} when the URL names none,
 * whatever an earlier {@code SET WRITE_DELAY} stored; while a database is open, {@code SET WRITE_DELAY}
 * (admin users only) changes it for every connection. So a store opened with a URL adds {@code
 * WRITE_DELAY=0} to it ({@link #durableUrl}), and every store checks at start, on its first connection,
 * that the database it got does not delay writes ({@link #ensureDurable}).
 *
 * <p>Thread-safe (stateless).
 */
final class H2WriteDelay {
    /** The setting, as H2 names it in URLs, in {@code SET} and in {@code INFORMATION_SCHEMA.SETTINGS}. */
    static final String SETTING = "WRITE_DELAY";

    /** H2's "Admin rights are required for this operation". */
    static final int ADMIN_RIGHTS_REQUIRED = 90040;

    private static final String H2_URL = "jdbc:h2:";

    /**
     * INFORMATION_SCHEMA.SETTINGS lists the delay stored by the last {@code SET WRITE_DELAY} as well as
     * the one in force, which may differ: only when every row says 0 are commits written at once.
     */
    private static final String READ_DELAYS =
            "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = '" + SETTING + "'";

    private H2WriteDelay() {}

    /**
     * Adds {@code ;WRITE_DELAY=0} to the URL of an H2 database that lives in files (embedded, or behind an
     * H2 server), unless the URL names a write delay itself.
     *
     * @param url a JDBC URL
     * @return the URL to connect with: the same for other databases, in-memory H2 databases and URLs that
     *     name a delay
     */
    static String durableUrl(String url) {
        if (!isFileBasedH2(url) || requestedDelay(url).isPresent()) {
            return url;
        }
        String base = url;
        while (base.endsWith(";")) {
            base = base.substring(0, base.length() - 1);
        }
        return base + ";" + SETTING + "=0";
    }

    /**
     * Reads the write delay an H2 URL asks for.
     *
     * @param url a JDBC URL
     * @return the value of its {@code WRITE_DELAY} setting, as written; empty when it names none or is not
     *     an H2 URL
     */
    static Optional<String> requestedDelay(String url) {
        if (!url.startsWith(H2_URL)) {
            return Optional.empty();
        }
        List<String> parts = splitSettings(url);
        for (String setting : parts.subList(1, parts.size())) {
            int equals = setting.indexOf('=');
            if (equals > 0
                    && setting.substring(0, equals).toUpperCase(Locale.ROOT).equals(SETTING)) {
                return Optional.of(setting.substring(equals + 1));
            }
        }
        return Optional.empty();
    }

    /**
     * Tells whether a failure is H2 refusing a setting, such as {@code WRITE_DELAY}, to a user who is not
     * an admin of the database.
     *
     * @param failure what the driver threw
     * @return true for H2's error 90040
     */
    static boolean isAdminRightsRequired(SQLException failure) {
        return failure.getErrorCode() == ADMIN_RIGHTS_REQUIRED;
    }

    /**
     * Checks that the H2 database behind a connection writes every commit before it returns, and sets
     * {@code WRITE_DELAY} to 0 when it does not, unless the URL asked for the delay.
     *
     * @param connection the store's first connection
     * @param url the URL the store connects with, or null when its connections come from a {@code
     *     DataSource}
     * @return a warning to log: the URL asks for a delay (kept), or the store set the delay of a {@code
     *     DataSource}'s database, which lasts only while that database stays open; empty when nothing
     *     needs saying
     * @throws TaskStoreException if the database delays writes and the user may not change that
     * @throws SQLException if the database fails
     */
    static Optional<String> ensureDurable(Connection connection, String url) throws SQLException {
        String path = databasePath(connection);
        if (path == null) {
            // In memory: the data goes with the process whatever the delay.
            return Optional.empty();
        }
        int delay = delay(connection);
        if (delay == 0) {
            return Optional.empty();
        }
        Optional<String> requested = url == null ? Optional.empty() : requestedDelay(url);
        if (requested.isPresent() && !isZero(requested.get())) {
            return Optional.of(requestedDelayWarning(path, requested.get()));
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET " + SETTING + " 0");
        } catch (SQLException e) {
            if (isAdminRightsRequired(e)) {
                throw new TaskStoreException(
                        notAdminMessage(path, delay, connection.getMetaData().getUserName()), e);
            }
            throw e;
        }
        int after = delay(connection);
        if (after != 0) {
            throw new TaskStoreException("The store set " + SETTING + " to 0 on the H2 database " + path
                    + ", yet H2 reports a write delay of " + after + " ms. Add ;" + SETTING + "=0 to the URL of"
                    + " the connection that opens the database.");
        }
        return url == null ? Optional.of(dataSourceWarning(path, delay)) : Optional.empty();
    }

    private static boolean isZero(String value) {
        return value.strip().matches("0+");
    }

    /** The greatest delay H2 reports, in milliseconds: the one in force or a stale stored one. */
    private static int delay(Connection connection) throws SQLException {
        List<Integer> delays = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(READ_DELAYS);
                ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                delays.add(Integer.parseInt(rows.getString(1).strip()));
            }
        }
        if (delays.isEmpty()) {
            throw new SQLException("H2 reports no " + SETTING + " in INFORMATION_SCHEMA.SETTINGS");
        }
        return delays.stream().mapToInt(Integer::intValue).max().getAsInt();
    }

    private static String databasePath(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT DATABASE_PATH()")) {
            rows.next();
            return rows.getString(1);
        }
    }

    static String requestedDelayWarning(String path, String requested) {
        return "The H2 URL asks for " + SETTING + "=" + requested + ": H2 writes committed units of work to the"
                + " files of " + path + " up to " + requested + " ms after they returned, and those that returned"
                + " in the last " + requested + " ms before the process is killed are lost. Remove " + SETTING
                + " from the URL to make every unit of work durable once it returns.";
    }

    static String dataSourceWarning(String path, int delay) {
        return "The H2 database " + path + " wrote committed units of work to its files up to " + delay
                + " ms after they returned (" + SETTING + "=" + delay + "); the store set " + SETTING + " to 0,"
                + " so that a unit of work that returned survives the process being killed. H2 goes back to the"
                + " delay of the URL (500 ms when it names none) whenever it opens the database again, after its"
                + " last connection closed: add ;" + SETTING + "=0 to the URL of the DataSource to keep every"
                + " commit durable.";
    }

    static String notAdminMessage(String path, int delay, String user) {
        return "The H2 database " + path + " writes committed units of work to its files up to " + delay
                + " ms after they returned (" + SETTING + "=" + delay + "), so a unit of work that returned"
                + " could be lost when the process is killed, and user '" + user + "' may not change that:"
                + " H2 lets only admin users set " + SETTING + ". Connect as an admin user of the database (its"
                + " creator is one; ALTER USER \"" + user + "\" ADMIN TRUE makes another), or add ;" + SETTING
                + "=0 to the URL of the connection that opens the database.";
    }

    /** Whether an H2 URL names a database in files rather than in memory ({@code mem:}). */
    private static boolean isFileBasedH2(String url) {
        if (!url.startsWith(H2_URL)) {
            return false;
        }
        String name = splitSettings(url).get(0).substring(H2_URL.length());
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith("tcp://") || lower.startsWith("ssl://")) {
            int slash = name.indexOf('/', "tcp://".length());
            name = slash < 0 ? "" : name.substring(slash + 1);
        }
        return !name.startsWith("mem:");
    }

    /**
     * Splits an H2 URL as H2 does: the database part ends at the first semicolon; in the settings after
     * it a backslash escapes the next character.
     *
     * @return the database part, then each setting
     */
    private static List<String> splitSettings(String url) {
        List<String> parts = new ArrayList<>();
        int first = url.indexOf(';');
        if (first < 0) {
            parts.add(url);
            return parts;
        }
        parts.add(url.substring(0, first));
        StringBuilder part = new StringBuilder();
        for (int index = first + 1; index < url.length(); index++) {
            char c = url.charAt(index);
            if (c == '\\' && index + 1 < url.length()) {
                part.append(c).append(url.charAt(++index));
            } else if (c == ';') {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(c);
            }
        }
        parts.add(part.toString());
        return parts;
    }
}
