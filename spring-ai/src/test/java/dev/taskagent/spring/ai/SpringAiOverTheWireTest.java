package dev.taskagent.spring.ai;

import static dev.taskagent.testservers.FakeOpenAiServer.finishChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.json;
import static dev.taskagent.testservers.FakeOpenAiServer.textChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.textCompletion;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallCompletion;
import static dev.taskagent.testservers.FakeOpenAiServer.usageChunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TextDeltaListener;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.steps.StepRun;
import dev.taskagent.steps.TaskSteps;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.testservers.FakeOpenAiServer;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;

/**
 * taskagent's agents on the model bridge, and a Spring AI {@code ChatClient} agent on the tool bridge, all
 * through Spring AI's own OpenAI model against the fake OpenAI server.
 */
class SpringAiOverTheWireTest {
    private static final String CHECK = "\u2713";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-05-04T09:30:00Z"), ZoneOffset.UTC);

    private FakeOpenAiServer server;

    @BeforeEach
    void startServer() {
        server = FakeOpenAiServer.start();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void theExtractionAgentCreatesTasksFromToolCallsThroughSpringAi() {
        server.enqueue(json(
                200,
                toolCallCompletion(
                        300,
                        40,
                        new String[] {
                            "call_1",
                            "insert_task",
                            "{\"after_task_order\": 0, \"task_description\": \"Book a table for four tonight\"}"
                        },
                        new String[] {
                            "call_2",
                            "insert_task",
                            "{\"after_task_order\": 1, \"task_description\": \"Text Anna the address\"}"
                        })));
        server.enqueue(json(
                200,
                toolCallCompletion(
                        420,
                        30,
                        new String[] {"call_3", "append_messages_to_task", "{\"task_order\": 1, \"message_ids\": [0]}"},
                        new String[] {"call_4", "finish", "{}"})));
        InMemoryTaskStore store = new InMemoryTaskStore();
        TaskAgent agent = TaskAgent.builder(
                        store, SpringAiChatModel.of(SpringAiChatModelOpenAiTest.springOpenAi(server)))
                .build();

        AgentRun run = agent.run(
                "dinner-plans",
                List.of(ConversationMessage.user(
                        "msg-1", "Book a table for four tonight, and text Anna the address.")));

        assertThat(run.stopReason()).isEqualTo(AgentRun.StopReason.FINISH);
        assertThat(run.tokenUsage()).isEqualTo(new TokenUsage(720, 70));
        List<Task> tasks = store.listTasks("dinner-plans");
        assertThat(tasks)
                .extracting(Task::order, Task::description)
                .containsExactly(tuple(1, "Book a table for four tonight"), tuple(2, "Text Anna the address"));
        assertThat(tasks.get(0).messageIds()).containsExactly("msg-1");

        // The second request sent the model's calls back, each with its result, one per call id.
        List<FakeOpenAiServer.RecordedRequest> requests = server.requests();
        assertThat(requests).hasSize(2);
        List<String> offered = new ArrayList<>();
        requests.get(0)
                .json()
                .path("tools")
                .forEach(tool -> offered.add(tool.path("function").path("name").asText()));
        assertThat(offered).contains("insert_task", "append_messages_to_task", "finish");
        List<String> callIds = new ArrayList<>();
        List<String> resultIds = new ArrayList<>();
        requests.get(1).json().path("messages").forEach(message -> {
            message.path("tool_calls")
                    .forEach(call -> callIds.add(call.path("id").asText()));
            if (message.path("role").asText().equals("tool")) {
                resultIds.add(message.path("tool_call_id").asText());
            }
        });
        assertThat(callIds).containsExactly("call_1", "call_2");
        assertThat(resultIds).containsExactly("call_1", "call_2");
    }

    @Test
    void stepExecutionTicksStepsWhileSpringAiStreams() {
        InMemoryTaskStore store = new InMemoryTaskStore();
        Task task = store.inTransaction(
                transaction -> transaction.appendTask(NewTask.of("family-chat", "Family trip research")));
        TaskSteps.of(store)
                .setSteps(task.id(), List.of("Research attractions in Bangkok", "Send the list to Hanan on WhatsApp"));
        server.enqueue(FakeOpenAiServer.stream(
                textChunk("Sea Life, Lumphini Park.\n"),
                textChunk(CHECK + " STEP 1: Research attractions in Bangkok\n"),
                textChunk("Sending it.\n"),
                toolCallChunk(0, "call_w", "send_whatsapp", "{\"to\":\"Hanan\","),
                toolCallChunk(0, null, null, "\"message\":\"Sea Life, Lumphini Park\"}"),
                finishChunk("tool_calls", -1, 0),
                usageChunk(400, 60)));
        server.enqueue(FakeOpenAiServer.stream(
                textChunk(CHECK + " STEP 2: Send the list to Hanan on WhatsApp\n"),
                textChunk("Summary: Hanan has the list."),
                finishChunk("stop", 500, 20)));
        List<String> log = new ArrayList<>();
        List<String> sent = new ArrayList<>();
        StepExecutor executor = StepExecutor.builder(
                        store,
                        new LoggingModel(SpringAiChatModel.of(SpringAiChatModelOpenAiTest.springOpenAi(server)), log))
                .toolbox(Toolbox.of(sendWhatsApp(sent)))
                .listener(event -> {
                    if (event instanceof TaskEvent.StepCompleted step) {
                        log.add("step " + step.stepNumber() + " ticked");
                    }
                })
                .build();

        StepRun run = executor.execute(task.id());

        assertThat(run.isSuccess()).isTrue();
        assertThat(run.completedSteps()).containsExactly(1, 2);
        assertThat(run.usage()).isEqualTo(new TokenUsage(900, 80));
        assertThat(sent).containsExactly("Hanan: Sea Life, Lumphini Park");
        // Each step ticks as soon as its marker line has streamed in, before the rest of the answer.
        assertThat(log)
                .containsExactly(
                        "delta Sea Life, Lumphini Park.\n",
                        "delta " + CHECK + " STEP 1: Research attractions in Bangkok\n",
                        "step 1 ticked",
                        "delta Sending it.\n",
                        "delta " + CHECK + " STEP 2: Send the list to Hanan on WhatsApp\n",
                        "step 2 ticked",
                        "delta Summary: Hanan has the list.");
        assertThat(store.findTask(task.id()).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
        JsonNode second = server.requests().get(1).json();
        assertThat(second.path("stream").asBoolean()).isTrue();
        JsonNode toolResult =
                second.path("messages").get(second.path("messages").size() - 1);
        assertThat(toolResult.path("role").asText()).isEqualTo("tool");
        assertThat(toolResult.path("tool_call_id").asText()).isEqualTo("call_w");
        assertThat(toolResult.path("content").asText()).isEqualTo("Sent to Hanan.");
    }

    @Test
    void aSpringAiChatClientClaimsATaskWithTheQueueTools() {
        InMemoryTaskStore store = new InMemoryTaskStore(CLOCK);
        TaskQueue queue = TaskQueue.builder(store).build();
        Task created =
                queue.create(queue.newTask("Water the plants").assignee("ada").build());
        String expectedResult = twinQueueResult("signup_for_task", "{\"agent_name\":\"ada\"}", "Water the plants");
        server.enqueue(json(
                200,
                toolCallCompletion(50, 10, new String[] {"call_1", "signup_for_task", "{\"agent_name\":\"ada\"}"})));
        server.enqueue(json(200, textCompletion("I claimed task #1: Water the plants.", 80, 12)));

        String answer = ChatClient.create(SpringAiChatModelOpenAiTest.springOpenAi(server))
                .prompt()
                .user("You are agent ada. Claim your next task.")
                .tools(TaskAgentToolCallbackProvider.of(queue.workerTools()))
                .call()
                .content();

        assertThat(answer).isEqualTo("I claimed task #1: Water the plants.");
        Task claimed = queue.get(created.id()).orElseThrow();
        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.assignee()).isEqualTo("ada");
        assertThat(claimed.attempt()).isEqualTo(1);
        List<FakeOpenAiServer.RecordedRequest> requests = server.requests();
        assertThat(requests).hasSize(2);
        List<String> offered = new ArrayList<>();
        requests.get(0)
                .json()
                .path("tools")
                .forEach(tool -> offered.add(tool.path("function").path("name").asText()));
        assertThat(offered).containsExactly("signup_for_task", "complete_task", "move_task", "add_comment", "get_task");
        JsonNode messages = requests.get(1).json().path("messages");
        JsonNode toolResult = messages.get(messages.size() - 1);
        assertThat(toolResult.path("role").asText()).isEqualTo("tool");
        assertThat(toolResult.path("tool_call_id").asText()).isEqualTo("call_1");
        assertThat(toolResult.path("content").asText())
                .startsWith("Task #1 claimed and set to working status\n")
                .isEqualTo(expectedResult);
    }

    @Test
    void aSpringAiChatClientReadsAnErrorResultAsText() {
        InMemoryTaskStore store = new InMemoryTaskStore(CLOCK);
        TaskQueue queue = TaskQueue.builder(store).build();
        queue.create(queue.newTask("Water the plants").assignee("ada").build());
        String arguments = "{\"task_id\": 1, \"agent_name\": \"ada\", \"attempt\": 1, \"status\": \"success\"}";
        ToolResult expected = queue.workerTools().call(new ToolCall("twin", "complete_task", arguments));
        assertThat(expected.isError()).isTrue();
        server.enqueue(json(200, toolCallCompletion(50, 10, new String[] {"call_1", "complete_task", arguments})));
        server.enqueue(json(200, textCompletion("I have to claim it first.", 80, 12)));

        String answer = ChatClient.create(SpringAiChatModelOpenAiTest.springOpenAi(server))
                .prompt()
                .user("You are agent ada. Complete task 1.")
                .tools(TaskAgentToolCallbackProvider.of(queue.workerTools()))
                .call()
                .content();

        assertThat(answer).isEqualTo("I have to claim it first.");
        assertThat(queue.get(1).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
        JsonNode messages = server.requests().get(1).json().path("messages");
        assertThat(messages.get(messages.size() - 1).path("content").asText()).isEqualTo(expected.text());
    }

    @Test
    void aToolThatFailsUnexpectedlyIsReportedToTheModelBySpringAisDefaultProcessor() {
        Tool broken = Tool.of("read_disk", "Reads the disk.", JsonSchema.object(), arguments -> {
            throw new IllegalStateException("disk unplugged");
        });
        server.enqueue(json(200, toolCallCompletion(50, 10, new String[] {"call_1", "read_disk", "{}"})));
        server.enqueue(json(200, textCompletion("The disk is unplugged.", 80, 12)));

        String answer = ChatClient.create(SpringAiChatModelOpenAiTest.springOpenAi(server))
                .prompt()
                .user("Read the disk.")
                .tools(TaskAgentToolCallbackProvider.of(Toolbox.of(broken)))
                .call()
                .content();

        assertThat(answer).isEqualTo("The disk is unplugged.");
        JsonNode messages = server.requests().get(1).json().path("messages");
        assertThat(messages.get(messages.size() - 1).path("content").asText())
                .isEqualTo("Tool 'read_disk' failed: java.lang.IllegalStateException: disk unplugged");
    }

    /** What the queue's own toolbox answers to a call, on a twin store in the same state at the same time. */
    private static String twinQueueResult(String tool, String arguments, String taskDescription) {
        TaskQueue twin = TaskQueue.builder(new InMemoryTaskStore(CLOCK)).build();
        twin.create(twin.newTask(taskDescription).assignee("ada").build());
        return twin.workerTools().call(new ToolCall("twin", tool, arguments)).text();
    }

    private static Tool sendWhatsApp(List<String> sent) {
        return Tool.of(
                "send_whatsapp",
                "Sends a WhatsApp message to one of the user's contacts.",
                JsonSchema.object()
                        .requiredString("to", "the contact's name")
                        .requiredString("message", "the message text"),
                arguments -> {
                    String to = arguments.requiredName("to");
                    sent.add(to + ": " + arguments.requiredText("message"));
                    return ToolResult.ok("Sent to " + to + ".");
                });
    }

    /** Logs each text delta, in the order the step markers' listener sees them. */
    private record LoggingModel(ChatModel delegate, List<String> log) implements ChatModel {
        @Override
        public ChatResponse chat(ChatRequest request) {
            return delegate.chat(request);
        }

        @Override
        public ChatResponse chatStreaming(ChatRequest request, TextDeltaListener listener) {
            return delegate.chatStreaming(request, delta -> {
                log.add("delta " + delta);
                listener.onTextDelta(delta);
            });
        }
    }
}
