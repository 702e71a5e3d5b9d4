package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ExtractionExampleTest {

    @Test
    void theExamplePrintsTwoTasksInTheUsersWordsWithTheirProgressAndPreferences() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            ExtractionExample.run(out);
        }

        assertThat(buffer.toString(StandardCharsets.UTF_8).lines())
                .containsExactly(
                        "Extracting tasks with a SCRIPTED model (ScriptedChatModel replays prepared tool calls;"
                                + " no LLM is called).",
                        "(hook) finished: Book a table for four at an Italian place tonight",
                        "Run: FINISH after 2 iterations, 10 tool calls",
                        "Task 1 [success] Book a table for four at an Italian place tonight",
                        "    preference: Vegetarian",
                        "    progress:   Trattoria Roma full at 7pm; reserved 7:30pm at Luigi's, 12 Via Roma",
                        "    messages:   msg-1, msg-2",
                        "Task 2 [running] Text Anna the address",
                        "    preference: Anna's number: +39 333 1234567",
                        "    messages:   msg-3");
    }
}
