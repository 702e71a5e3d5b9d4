package dev.taskagent.store.jdbc;

import java.io.IOException;

/**
 * A process of {@link H2FileInUseTest}: opens a store on the H2 file URL of its argument, prints
 * {@code READY} and its dialect, and holds it open until its standard input closes or the test kills it.
 */
public final class H2FileHolderMain {
    private H2FileHolderMain() {}

    /**
     * Runs the process.
     *
     * @param args the JDBC URL
     * @throws IOException if standard input fails
     */
    public static void main(String[] args) throws IOException {
        try (JdbcTaskStore store = JdbcTaskStore.open(args[0])) {
            System.out.println("READY " + store.dialect());
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the file until the test lets go
            }
        }
    }
}
