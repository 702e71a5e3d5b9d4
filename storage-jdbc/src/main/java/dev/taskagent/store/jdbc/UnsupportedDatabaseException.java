package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStoreException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The database behind a {@code DataSource} is not one the store supports, or too old. */
final class UnsupportedDatabaseException extends TaskStoreException {
    private static final long serialVersionUID = 1L;

    UnsupportedDatabaseException(String product, String version) {
        super("Unsupported database: found " + product + " " + version + " (from DatabaseMetaData). The JDBC"
                + " TaskStore supports " + supported() + ". Use one of these, or, if your database speaks one of"
                + " their dialects, name it with JdbcTaskStore.builder(dataSource).dialect(JdbcDialect.…).");
    }

    private static String supported() {
        String all = Arrays.stream(JdbcDialect.values())
                .map(JdbcDialect::supportedVersions)
                .collect(Collectors.joining(", "));
        int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " and " + all.substring(last + 2);
    }
}
