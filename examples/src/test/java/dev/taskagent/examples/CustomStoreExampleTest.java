package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.examples.CustomStoreExample.CountingTaskStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CustomStoreExampleTest {

    @Test
    void theDecoratorCountsCommitsAndRollbacksAndTheRolledBackTaskIsGone() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        CountingTaskStore store = CustomStoreExample.run(new PrintStream(buffer, true, StandardCharsets.UTF_8));

        assertThat(store.rolledBack()).isEqualTo(1);
        assertThat(store.committed()).isEqualTo(2); // the insert, then the listing's own transaction
        assertThat(buffer.toString(StandardCharsets.UTF_8)).contains("tasks: 1, committed: 2, rolled back: 1");
    }
}
