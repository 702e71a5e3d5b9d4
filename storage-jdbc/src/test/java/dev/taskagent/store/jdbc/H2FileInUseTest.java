package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.TaskStoreException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An H2 file that another process holds open is refused with one line that says how to share it. */
class H2FileInUseTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path folder;

    @Test
    void openingAFileAnotherProcessHoldsSaysItIsInUseAndHowToShareIt() throws Exception {
        String url = "jdbc:h2:file:" + folder.resolve("tasks").toAbsolutePath();
        try (ChildJvm holder = ChildJvm.start("holder", folder, H2FileHolderMain.class, url)) {
            holder.awaitLine(line -> line.startsWith("READY"), DEADLINE);

            assertThatThrownBy(() -> JdbcTaskStore.open(url))
                    .isInstanceOf(TaskStoreException.class)
                    .hasMessage("The H2 database " + url + " is in use by another process: an embedded H2 file"
                            + " opens in one process at a time. Stop the other process, or share the database:"
                            + " add ;AUTO_SERVER=TRUE to the URL in every process, serve it with an H2 TCP server"
                            + " (jdbc:h2:tcp://...), or use PostgreSQL or MariaDB");
        }
    }

    @Test
    void severalProcessesShareAFileWithAutoServer() throws Exception {
        String url = "jdbc:h2:file:" + folder.resolve("shared").toAbsolutePath() + ";AUTO_SERVER=TRUE";
        try (ChildJvm holder = ChildJvm.start("holder", folder, H2FileHolderMain.class, url);
                JdbcTaskStore second = awaitReady(holder, url)) {
            assertThat(second.dialect()).isEqualTo(JdbcDialect.H2);
        }
    }

    private static JdbcTaskStore awaitReady(ChildJvm holder, String url) throws Exception {
        holder.awaitLine(line -> line.startsWith("READY"), DEADLINE);
        return JdbcTaskStore.open(url);
    }
}
