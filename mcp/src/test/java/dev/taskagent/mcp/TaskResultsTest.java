package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArguments;
import org.junit.jupiter.api.Test;

class TaskResultsTest {

    @Test
    void aHeadlineFollowedByATaskGivesTheTask() {
        assertThat(TaskResults.structuredContent("Task #7 transferred from alice to bob\n{\"id\":7}"))
                .isEqualTo("{\"task\":{\"id\":7}}");
    }

    @Test
    void aTaskAloneGivesTheTask() {
        assertThat(TaskResults.structuredContent("{\"id\":7}")).isEqualTo("{\"task\":{\"id\":7}}");
    }

    @Test
    void aHeadlineWithoutATaskGivesAnEmptyObject() {
        assertThat(TaskResults.structuredContent("No idle task is available for alice"))
                .isEqualTo("{}");
    }

    @Test
    void onlyTheToolsThatReturnATaskGetAnOutputSchema() {
        TaskQueue queue = TaskQueue.builder(new InMemoryTaskStore()).build();

        assertThat(queue.tools().tools().stream().map(TaskResults::structured))
                .filteredOn(tool -> tool.outputSchema().isPresent())
                .extracting(Tool::name)
                .containsExactlyInAnyOrder("signup_for_task", "move_task", "get_task");
    }

    @Test
    void aMoveResultCarriesTheMovedTask() {
        TaskQueue queue = TaskQueue.builder(new InMemoryTaskStore()).build();
        long id =
                queue.create(queue.newTask("Ship it").assignee("alice").build()).id();
        Tool move = TaskResults.structured(queue.tools().tool("move_task").orElseThrow());

        String structured = move.call(ToolArguments.parse("{\"task_id\":" + id
                        + ",\"current_agent\":\"alice\",\"new_agent\":\"bob\",\"comment\":\"yours\"}"))
                .structuredContent();

        assertThat(structured)
                .startsWith("{\"task\":{\"id\":" + id + ",\"status\":\"pending\"")
                .contains("\"assignee\":\"bob\"", "\"previous_assignee\":\"alice\"", "\"comments\":[\"alice: yours\"]");
    }
}
