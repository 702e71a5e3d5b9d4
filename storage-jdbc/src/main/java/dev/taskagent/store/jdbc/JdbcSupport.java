package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/** Small JDBC helpers shared by the store's classes. */
final class JdbcSupport {
    private static final Pattern PASSWORD = Pattern.compile("(?i)(password=)[^&;]*");

    private JdbcSupport() {}

    static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException | RuntimeException ignored) {
            // Nothing to do about a connection that will not close; the pool or the server reclaims it.
        }
    }

    /** Times are stored as UTC without zone, to the microsecond: every supported database keeps that. */
    static LocalDateTime toDatabase(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant fromDatabase(LocalDateTime value) {
        return value.toInstant(ZoneOffset.UTC);
    }

    /** The clock's instant cut to what the databases store, so a task reads back as it was written. */
    static Instant truncate(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * A fresh claim token ({@code taskagent_tasks.claim_token}): 128 random bits in the form of a UUID. It
     * only has to differ from the other claims' tokens, not be unguessable, so it comes from the thread's
     * own generator: {@code UUID.randomUUID()} draws on one shared {@code SecureRandom}, which every
     * claimer would queue for.
     */
    static String claimToken() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }

    /**
     * Whether a failure says the connection was lost (SQLState class 08, or 57P: the server shut down or
     * ended the session), so that the statement it ran may have committed before the reply was lost. Any
     * other failure is the statement's own, reported by the server that rolled it back.
     */
    static boolean connectionLost(SQLException failure) {
        String state = failure.getSQLState();
        return state == null || state.startsWith("08") || state.startsWith("57P");
    }

    /** A driver's failure, fit for a message: its text with passwords masked, and its SQLState. */
    static String describe(SQLException failure) {
        return withoutSecrets(String.valueOf(failure.getMessage())) + " [SQLState " + failure.getSQLState() + "]";
    }

    /** A JDBC URL fit for a message or a log: passwords masked. */
    static String withoutSecrets(String url) {
        return PASSWORD.matcher(url).replaceAll("$1***");
    }

    /**
     * Rethrows any throwable unchanged, checked ones too, where a method must return a RuntimeException:
     * a unit of work's own exception reaches the caller as it was thrown (TS-1.2).
     */
    static RuntimeException sneakyThrow(Throwable failure) {
        if (failure instanceof RuntimeException runtime) {
            return runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw JdbcSupport.<RuntimeException>sneaky(failure);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable failure) throws E {
        throw (E) failure;
    }
}
