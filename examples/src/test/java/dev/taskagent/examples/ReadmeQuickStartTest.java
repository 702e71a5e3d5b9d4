package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's quick start, line for line, with a scripted model in place of ChatModels.discover(). */
class ReadmeQuickStartTest {

    @TempDir
    Path data;

    @Test
    void theQuickStartOfTheReadmeRunsAsWritten() {
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(
                        ScriptedChatModel.call(
                                "insert_task",
                                "{\"after_task_order\":0,\"task_description\":\"Add a dark mode toggle to the settings page\"}"),
                        ScriptedChatModel.call("append_messages_to_task", "{\"task_order\":1,\"message_ids\":[0,1]}"),
                        ScriptedChatModel.call(
                                "append_task_progress",
                                "{\"task_order\":1,\"progress\":\"Created src/Settings/DarkModeToggle.tsx\"}"),
                        ScriptedChatModel.call("finish", "{}")))
                .build();

        try (TaskStore store = JdbcTaskStore.open("jdbc:h2:file:" + data.resolve("tasks"))) {
            TaskAgent agent = TaskAgent.builder(store, model).build();
            AgentRun run = agent.run(
                    "session-42",
                    List.of(
                            ConversationMessage.user("m1", "Add a dark mode toggle to the settings page"),
                            ConversationMessage.assistant("m2", "Created src/Settings/DarkModeToggle.tsx")));

            assertThat(run.isSuccess()).isTrue();
            List<Task> tasks = store.listTasks("session-42");
            assertThat(tasks).singleElement().satisfies(task -> {
                assertThat(task.order() + ". " + task.description() + " (" + task.status() + ")")
                        .isEqualTo("1. Add a dark mode toggle to the settings page (running)");
                assertThat(task.messageIds()).containsExactly("m1", "m2");
                assertThat(task.progresses()).containsExactly("Created src/Settings/DarkModeToggle.tsx");
            });
        }
    }
}
