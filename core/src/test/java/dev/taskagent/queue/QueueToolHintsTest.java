package dev.taskagent.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolHints;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each queue tool declares what it does to the world, on the tool itself; MCP serves these as annotations. */
class QueueToolHintsTest {
    private static final TaskStore UNTOUCHABLE = new TaskStore() {
        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            throw new AssertionError("the store must not be touched");
        }
    };

    @Test
    void everyQueueToolDeclaresItsHints() {
        Map<String, ToolHints> hints = new LinkedHashMap<>();
        for (Tool tool : TaskQueue.builder(UNTOUCHABLE).build().tools().tools()) {
            hints.put(tool.name(), tool.hints().orElseThrow());
        }

        assertThat(hints)
                .containsExactly(
                        Map.entry("signup_for_task", ToolHints.writing("Claim my next task")),
                        Map.entry(
                                "complete_task",
                                ToolHints.writing("Complete a claimed task").idempotent()),
                        Map.entry(
                                "heartbeat_task",
                                ToolHints.writing("Renew a claim's lease").idempotent()),
                        Map.entry(
                                "move_task",
                                ToolHints.writing("Hand a task over").idempotent()),
                        Map.entry("create_task", ToolHints.writing("Create a task")),
                        Map.entry("get_task", ToolHints.readOnly("Get a task")),
                        Map.entry(
                                "update_task",
                                ToolHints.writing("Update a task").destructive().idempotent()),
                        Map.entry("get_my_queue", ToolHints.readOnly("List an agent's queue")),
                        Map.entry("add_comment", ToolHints.writing("Comment on a task")),
                        Map.entry("add_link", ToolHints.writing("Link a task to a URL")),
                        Map.entry(
                                "archive_task",
                                ToolHints.writing("Archive a task")
                                        .destructive()
                                        .idempotent()),
                        Map.entry(
                                "cancel_task",
                                ToolHints.writing("Cancel a task").destructive().idempotent()),
                        Map.entry("search_tasks", ToolHints.readOnly("Search tasks")),
                        Map.entry("list_dead_letters", ToolHints.readOnly("List the dead letters")));
    }

    @Test
    void everyGraphToolDeclaresItsHints() {
        Map<String, ToolHints> hints = new LinkedHashMap<>();
        for (Tool tool : TaskQueue.builder(UNTOUCHABLE).build().graphTools().tools()) {
            hints.put(tool.name(), tool.hints().orElseThrow());
        }

        assertThat(hints)
                .containsExactly(
                        Map.entry("add_dependency", ToolHints.writing("Make a task wait for another")),
                        Map.entry(
                                "remove_dependency",
                                ToolHints.writing("Stop a task waiting for another")
                                        .destructive()),
                        Map.entry("create_task_tree", ToolHints.writing("Lay out a plan of tasks")));
    }

    @Test
    void theWorkerToolsAreTheSameToolsWithTheSameHints() {
        TaskQueue queue = TaskQueue.builder(UNTOUCHABLE).build();
        for (Tool worker : queue.workerTools().tools()) {
            assertThat(worker.hints())
                    .as(worker.name())
                    .isEqualTo(queue.tools().tool(worker.name()).orElseThrow().hints());
        }
    }
}
