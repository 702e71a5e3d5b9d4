package dev.taskagent.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.tool.ToolResult;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/** Bad arguments are refused before the store is touched; behaviour on real stores is in the testkit suite. */
class TaskQueueArgumentsTest {

    /** A store that fails the test if the queue ever opens a transaction on it. */
    private static final TaskStore UNTOUCHABLE = new TaskStore() {
        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            throw new AssertionError("the store must not be touched");
        }
    };

    private final TaskQueue queue = TaskQueue.builder(UNTOUCHABLE).build();

    @Test
    void theBuilderNeedsAStoreAndAValidSession() {
        assertThatThrownBy(() -> TaskQueue.builder(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> TaskQueue.builder(UNTOUCHABLE).sessionId("  "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sessionId must not be blank");
        assertThatThrownBy(() -> TaskQueue.builder(UNTOUCHABLE).listener(null))
                .isInstanceOf(NullPointerException.class);
        assertThat(queue.sessionId()).isEqualTo(TaskQueue.DEFAULT_SESSION_ID);
        assertThat(TaskQueue.builder(UNTOUCHABLE)
                        .sessionId("team")
                        .build()
                        .newTask("x")
                        .build()
                        .sessionId())
                .isEqualTo("team");
    }

    @Test
    void badJavaArgumentsAreRefusedBeforeAnyTransaction() {
        assertThatThrownBy(() -> queue.claimNext("")).hasMessage("agent must not be blank");
        assertThatThrownBy(() -> queue.listQueue(" ")).hasMessage("agent must not be blank");
        assertThatThrownBy(() -> queue.move(-1, "a", "b", "c")).hasMessage("taskId must be positive, was -1");
        assertThatThrownBy(() -> queue.move(1, "a", "a", "c"))
                .hasMessage("toAgent is the same as fromAgent ('a'); a task can only be moved to another agent");
        assertThatThrownBy(() -> queue.move(1, "a", "b", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> queue.comment(1, "a", "")).hasMessage("text must not be blank");
        assertThatThrownBy(() -> queue.link(1, " ", "", "a")).hasMessage("url must not be blank");
        assertThatThrownBy(() -> queue.get(0)).hasMessage("taskId must be positive, was 0");
        assertThatThrownBy(() -> queue.archive(0)).hasMessage("taskId must be positive, was 0");
        assertThatThrownBy(() -> queue.create(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> queue.update(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void badToolArgumentsAreSoftErrorsBeforeAnyTransaction() {
        assertThat(call("signup_for_task", "{\"agent_name\":7}"))
                .isEqualTo(ToolResult.error("Argument 'agent_name' must be a string, not the number 7."));
        assertThat(call("move_task", "{\"task_id\":5,\"current_agent\":\"a\",\"new_agent\":\"a\",\"comment\":\"c\"}"))
                .isEqualTo(ToolResult.error(
                        "new_agent is the same as current_agent (a); name the agent who should take the task over."));
        assertThat(call("get_task", "{\"task_id\":-3}"))
                .isEqualTo(ToolResult.error("Argument 'task_id' must be a positive id, not -3."));
        assertThat(call("create_task", "{\"description\":\"x\",\"assignee\":\"" + "a".repeat(256) + "\"}"))
                .isEqualTo(
                        ToolResult.error("Argument 'assignee' is 256 characters long; the limit is 255. Shorten it."));
        assertThat(call("create_task", "{\"description\":\"x\",\"priority\":\"high\"}"))
                .isEqualTo(ToolResult.error("Argument 'priority' must be an integer, not the string \"high\"."));
        assertThat(call("add_link", "{\"task_id\":1,\"url\":\"https://example.com\",\"author\":\"\"}"))
                .isEqualTo(ToolResult.error("Argument 'author' must not be blank; send a name."));
        assertThat(call("update_task", "{\"task_id\":1,\"status\":\"finished\"}"))
                .isEqualTo(ToolResult.error(
                        "Argument 'status' is 'finished'; use one of pending, running, success, failed."));
    }

    @Test
    void textsNoStoreCanKeepAreSoftErrorsNamingTheArgumentBeforeAnyTransaction() {
        assertThat(call("add_comment", "{\"task_id\":1,\"author\":\"a\",\"comment\":\"ok\\u0000\"}"))
                .isEqualTo(ToolResult.error("Argument 'comment' contains a NUL character (U+0000) at index 2, which"
                        + " cannot be stored. Remove it and send the text again."));
        assertThat(call("signup_for_task", "{\"agent_name\":\"bot\\ud83d\"}"))
                .isEqualTo(ToolResult.error("Argument 'agent_name' contains an unpaired UTF-16 surrogate (U+D83D) at"
                        + " index 3, which cannot be stored. Remove it and send the text again."));
        assertThat(call("create_task", "{\"description\":\"\\udc00\"}").isError())
                .isTrue();
        assertThat(call(
                                "move_task",
                                "{\"task_id\":1,\"current_agent\":\"a\",\"new_agent\":\"b\",\"comment\":\"\\u0000\"}")
                        .text())
                .startsWith("Argument 'comment' contains a NUL character");
    }

    @Test
    void javaArgumentsNoStoreCanKeepAreRefusedNamingTheParameterBeforeAnyTransaction() {
        assertThatThrownBy(() -> queue.claimNext("a\u0000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("agent contains a NUL character (U+0000) at index 1, which no store can keep; remove it");
        assertThatThrownBy(() -> queue.comment(1, "author", "\uD800"))
                .hasMessageStartingWith("text contains an unpaired UTF-16 surrogate (U+D800) at index 0");
        assertThatThrownBy(() -> queue.move(1, "a", "b\u0000", "c")).hasMessageStartingWith("toAgent contains a NUL");
    }

    @Test
    void badRequestIdsAreRefusedBeforeAnyTransaction() {
        assertThatThrownBy(() -> queue.comment(1, "a", "text", " ")).hasMessage("requestId must not be blank");
        assertThatThrownBy(() -> queue.link(1, "https://example.com", "", "a", "r".repeat(256)))
                .hasMessage("requestId is 256 characters long; the limit is 255");
        assertThatThrownBy(() -> queue.comment(1, "a", "text", "r\n1"))
                .hasMessageStartingWith("requestId contains a control character (U+000A)")
                .hasMessageEndingWith("; a request id is one line of printable text, remove it");
        assertThatThrownBy(() -> queue.comment(1, "a", "", "r-1")).hasMessage("text must not be blank");

        String comment = "{\"task_id\":1,\"author\":\"a\",\"comment\":\"ok\",\"request_id\":";
        assertThat(call("add_comment", comment + "\"  \"}"))
                .isEqualTo(ToolResult.error("Argument 'request_id' must not be blank; send the same id of yours on each"
                        + " retry of this call, or leave it out."));
        assertThat(call("add_comment", comment + "7}"))
                .isEqualTo(ToolResult.error("Argument 'request_id' must be a string, not the number 7."));
        assertThat(call("add_comment", comment + "\"" + "r".repeat(256) + "\"}"))
                .isEqualTo(ToolResult.error(
                        "Argument 'request_id' is 256 characters long; the limit is 255. Shorten it."));
        assertThat(call(
                        "add_link",
                        "{\"task_id\":1,\"url\":\"https://example.com\",\"author\":\"a\",\"request_id\":"
                                + "\"r\\u0007\"}"))
                .isEqualTo(ToolResult.error("Argument 'request_id' contains a control character (U+0007) at index 1;"
                        + " a name is one line of printable text. Send it without that character."));
        assertThat(call(
                        "add_link",
                        "{\"task_id\":1,\"url\":\"https://example.com\",\"author\":\"a\",\"request_id\":" + "\"\"}"))
                .isEqualTo(ToolResult.error("Argument 'request_id' must not be blank; send the same id of yours on each"
                        + " retry of this call, or leave it out."));
    }

    @Test
    void aRequestIdOnAStoreWithoutThemIsRefusedSayingWhatToDo() {
        TaskStore legacy = new TaskStore() {
            @Override
            public <R> R inTransaction(TransactionWork<R> work) {
                return work.execute(transactionWithDefaultsOnly());
            }

            @Override
            public String toString() {
                return "LegacyStore";
            }
        };
        TaskQueue legacyQueue = TaskQueue.builder(legacy).build();

        assertThatThrownBy(() -> legacyQueue.comment(1, "a", "text", "r-1"))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("The queue's store (LegacyStore) does not keep request ids on appends (rules TS-5.5 to"
                        + " TS-5.7 of TaskStore): append without a request id, or use a store that keeps them (the"
                        + " in-memory and JDBC stores do)")
                .cause()
                .hasMessageContaining("cannot addComment with a request id; implement the appends of TaskTransaction"
                        + " that take one (rules TS-5.5 to TS-5.7 of TaskStore)");
        assertThatThrownBy(() -> legacyQueue.link(1, "https://example.com", "", "a", "r-1"))
                .isInstanceOf(UnsupportedOperationException.class)
                .cause()
                .hasMessageContaining("cannot addLink with a request id");
        assertThat(legacyQueue
                        .tools()
                        .call(new ToolCall(
                                "1",
                                "add_comment",
                                "{\"task_id\":1,\"author\":\"a\",\"comment\":\"ok\",\"request_id\":\"r-1\"}")))
                .isEqualTo(ToolResult.error(
                        "This queue's store does not keep request ids; call again without" + " request_id."));
        assertThatThrownBy(() -> transactionWithDefaultsOnly().appendProgress(1, "step", "r-1"))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("cannot appendProgress with a request id");
    }

    /** A transaction of a store written before request ids: their defaults, and nothing else is called. */
    private static TaskTransaction transactionWithDefaultsOnly() {
        return (TaskTransaction) Proxy.newProxyInstance(
                TaskTransaction.class.getClassLoader(),
                new Class<?>[] {TaskTransaction.class},
                (proxy, method, args) -> {
                    if (method.isDefault()) {
                        return InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    throw new AssertionError("a transaction method without a default was called: " + method);
                });
    }

    @Test
    void everyToolHasADescriptionAndADeclaredSchema() {
        assertThat(queue.tools().definitions()).hasSize(14).allSatisfy(definition -> {
            assertThat(definition.description()).isNotBlank().endsWith(".");
            assertThat(definition.parametersSchemaJson()).startsWith("{\"type\":\"object\"");
        });
    }

    private ToolResult call(String tool, String argumentsJson) {
        return queue.tools().call(new ToolCall("1", tool, argumentsJson));
    }
}
