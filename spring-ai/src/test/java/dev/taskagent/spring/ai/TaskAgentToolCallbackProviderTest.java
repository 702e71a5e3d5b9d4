package dev.taskagent.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolExecutionException;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.ToolCallback;

class TaskAgentToolCallbackProviderTest {
    private final TaskQueue queue = TaskQueue.builder(new InMemoryTaskStore()).build();

    @Test
    void eachToolBecomesACallbackWithItsNameDescriptionAndSchemaInOrder() {
        Toolbox tools = queue.workerTools();

        ToolCallback[] callbacks = TaskAgentToolCallbackProvider.of(tools).getToolCallbacks();

        assertThat(Arrays.stream(callbacks)
                        .map(callback -> new ToolDefinition(
                                callback.getToolDefinition().name(),
                                callback.getToolDefinition().description(),
                                callback.getToolDefinition().inputSchema()))
                        .toList())
                .isEqualTo(tools.definitions());
        assertThat(callbacks)
                .extracting(callback -> callback.getToolMetadata().returnDirect())
                .containsOnly(false);
    }

    @Test
    void aCallRunsTheToolOnTheStoreAndReturnsItsText() {
        Task created =
                queue.create(queue.newTask("Water the plants").assignee("ada").build());
        ToolCallback signup = callback("signup_for_task");

        String result = signup.call("{\"agent_name\":\"ada\"}");

        assertThat(result).startsWith("Task #" + created.id() + " claimed and set to working status\n");
        Task claimed = queue.get(created.id()).orElseThrow();
        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.assignee()).isEqualTo("ada");
    }

    @Test
    void anErrorResultIsReturnedAsTextForTheModelToRead() {
        ToolResult expected = queue.workerTools().call(new ToolCall("x", "signup_for_task", "{\"agent\":\"ada\"}"));

        String result = callback("signup_for_task").call("{\"agent\":\"ada\"}");

        assertThat(expected.isError()).isTrue();
        assertThat(result).isEqualTo(expected.text());
    }

    @Test
    void argumentsThatAreNotJsonAreASoftErrorToo() {
        ToolResult expected = queue.workerTools().call(new ToolCall("x", "get_task", "{oops"));

        assertThat(callback("get_task").call("{oops")).isEqualTo(expected.text());
        assertThat(expected.isError()).isTrue();
    }

    @Test
    void aToolThatFailsUnexpectedlyThrowsSpringAisToolExecutionException() {
        Tool broken = Tool.of("read_disk", "Reads the disk.", JsonSchema.object(), arguments -> {
            throw new IllegalStateException("disk unplugged");
        });
        ToolCallback callback =
                TaskAgentToolCallbackProvider.of(Toolbox.of(broken)).getToolCallbacks()[0];

        Throwable thrown = catchThrowable(() -> callback.call("{}"));

        assertThat(thrown).isInstanceOf(org.springframework.ai.tool.execution.ToolExecutionException.class);
        org.springframework.ai.tool.execution.ToolExecutionException failure =
                (org.springframework.ai.tool.execution.ToolExecutionException) thrown;
        assertThat(failure.getToolDefinition().name()).isEqualTo("read_disk");
        assertThat(failure.getCause()).isInstanceOf(ToolExecutionException.class);
        assertThat(failure.getCause().getCause()).hasMessage("disk unplugged");
        assertThat(failure.getMessage()).isEqualTo(failure.getCause().getMessage());
    }

    @Test
    void aToolOfferedToASpringAiModelRefusesToRunThere() {
        OfferedToolCallback offered = new OfferedToolCallback(new ToolDefinition(
                "finish", "Ends the run.", JsonSchema.object().toJson()));

        assertThat(offered.getToolDefinition().inputSchema())
                .isEqualTo(JsonSchema.object().toJson());
        assertThatThrownBy(() -> offered.call("{}"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Tool 'finish' was offered to the Spring AI model by taskagent's SpringAiChatModel, which"
                        + " runs the model's tool calls itself; Spring AI must not run it. Do not put this callback in"
                        + " a ChatClient: give the ChatClient TaskAgentToolCallbackProvider.of(toolbox) instead.");
    }

    @Test
    void describesItselfByItsTools() {
        assertThat(TaskAgentToolCallbackProvider.of(queue.workerTools()))
                .hasToString("TaskAgentToolCallbackProvider"
                        + List.of("signup_for_task", "complete_task", "move_task", "add_comment", "get_task"));
    }

    private ToolCallback callback(String name) {
        return Arrays.stream(
                        TaskAgentToolCallbackProvider.of(queue.workerTools()).getToolCallbacks())
                .filter(callback -> callback.getToolDefinition().name().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
