package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlagshipDemoTest {

    @TempDir
    Path data;

    @Test
    void theOfflineDemoTurnsTheConversationIntoATaskAndTakesItThroughEveryStage() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        Task task = FlagshipDemo.run(new PrintStream(buffer, true, StandardCharsets.UTF_8), data, false, null);
        String output = buffer.toString(StandardCharsets.UTF_8);

        assertThat(output).contains("model: scripted model (offline");
        assertThat(task.description())
                .isEqualTo("Research Bangkok attractions for the kids and send me the list on WhatsApp");
        assertThat(task.userPreferences()).containsExactly("Indoor places (it is 38 degrees); suitable for kids");
        assertThat(task.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(task.steps())
                .isEqualTo(
                        "- [x] Research indoor Bangkok attractions for kids\n" + "- [x] Send the list on WhatsApp\n");
        assertThat(output)
                .contains("[live] step 1 ticked")
                .contains("[live] step 2 ticked")
                .contains("[tool] send_whatsapp to Hanan")
                .contains("claimed and set to working status")
                .contains("transferred from researcher to concierge")
                .contains("queue of concierge: #")
                .contains("Hello, Hanan!");
        assertThat(output.indexOf("[live] step 1 ticked")).isLessThan(output.indexOf("[tool] send_whatsapp"));
        assertThat(output.indexOf("[tool] send_whatsapp")).isLessThan(output.indexOf("[live] step 2 ticked"));
    }

    @Test
    void theTasksPersistInTheH2FileBetweenRunsAndResetStartsAfresh() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        FlagshipDemo.run(quiet, data, false, null);

        ByteArrayOutputStream second = new ByteArrayOutputStream();
        FlagshipDemo.run(new PrintStream(second, true, StandardCharsets.UTF_8), data, false, null);
        assertThat(second.toString(StandardCharsets.UTF_8)).contains("found 2 task(s) of earlier runs");

        ByteArrayOutputStream reset = new ByteArrayOutputStream();
        FlagshipDemo.run(new PrintStream(reset, true, StandardCharsets.UTF_8), data, true, null);
        assertThat(reset.toString(StandardCharsets.UTF_8)).doesNotContain("of earlier runs");
    }
}
