package dev.taskagent.store.jdbc;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.h2.tools.Server;

/**
 * A database that the JVMs of a process test share: H2 served over TCP from a test's folder, always; PostgreSQL
 * and MariaDB when their URLs are set (a fresh schema or database each time). {@link #close()} stops the H2
 * server.
 */
final class SharedDatabase implements AutoCloseable {
    private final String url;
    private final Server h2;

    private SharedDatabase(String url, Server h2) {
        this.url = url;
        this.h2 = h2;
    }

    /** @return the names {@link #open} takes: {@code h2-server}, and the configured servers */
    static Stream<String> names() {
        List<String> names = new ArrayList<>(List.of("h2-server"));
        if (TestDatabase.POSTGRES.isConfigured()) {
            names.add("postgresql");
        }
        if (TestDatabase.MARIADB.isConfigured()) {
            names.add("mariadb");
        }
        return names.stream();
    }

    /**
     * Opens one for a test.
     *
     * @param name one of {@link #names()}
     * @param folder where an H2 database lives
     * @param h2Database the H2 database's name
     */
    static SharedDatabase open(String name, Path folder, String h2Database) throws SQLException {
        return switch (name) {
            case "postgresql" -> new SharedDatabase(TestDatabase.POSTGRES.newUrl(), null);
            case "mariadb" -> new SharedDatabase(TestDatabase.MARIADB.newUrl(), null);
            default -> {
                Server server = Server.createTcpServer("-tcpPort", "0", "-baseDir", folder.toString(), "-ifNotExists")
                        .start();
                yield new SharedDatabase("jdbc:h2:tcp://localhost:" + server.getPort() + "/" + h2Database, server);
            }
        };
    }

    /** @return the JDBC URL every process opens */
    String url() {
        return url;
    }

    @Override
    public void close() {
        if (h2 != null) {
            h2.stop();
        }
    }
}
