package dev.taskagent.langchain4j;

import static dev.taskagent.testservers.FakeOpenAiServer.finishChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.json;
import static dev.taskagent.testservers.FakeOpenAiServer.stream;
import static dev.taskagent.testservers.FakeOpenAiServer.textChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.textCompletion;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallCompletion;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.steps.StepRun;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.testservers.FakeOpenAiServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * taskagent's extraction agent, step executor and queue tools driven through LangChain4j's own OpenAI
 * classes, over the Chat Completions wire format.
 */
class LangChain4jEndToEndTest {
    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final InMemoryTaskStore store = new InMemoryTaskStore();

    @AfterEach
    void stopServer() {
        server.close();
    }

    private OpenAiChatModel openAi() {
        return OpenAiChatModel.builder()
                .baseUrl(server.baseUrl())
                .apiKey("sk-test")
                .modelName("gpt-test")
                .maxRetries(0)
                .build();
    }

    @Test
    void theExtractionAgentKeepsTheTaskListThroughALangChain4jModel() {
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
                        new String[] {"call_2", "append_messages_to_task", "{\"task_order\": 1, \"message_ids\": [0]}"},
                        new String[] {"call_3", "finish", "{}"})));
        TaskAgent agent =
                TaskAgent.builder(store, LangChain4jChatModel.of(openAi())).build();

        AgentRun run = agent.run("dinner", List.of(ConversationMessage.user("m1", "Book a table for four tonight")));

        assertThat(run.stopReason()).isEqualTo(AgentRun.StopReason.FINISH);
        assertThat(store.listTasks("dinner")).singleElement().satisfies(task -> {
            assertThat(task.description()).isEqualTo("Book a table for four tonight");
            assertThat(task.messageIds()).containsExactly("m1");
        });
    }

    @Test
    void stepsAreTickedFromALangChain4jStream() {
        Task task = store.inTransaction(tx -> tx.appendTask(NewTask.builder("trip", "Family trip research")
                .steps("- [ ] Research attractions\n- [ ] Send the list\n")
                .build()));
        server.enqueue(stream(
                textChunk("✓ STEP 1: Research attractions\n"),
                textChunk("Sea Life, KidZania.\n"),
                textChunk("✓ STEP 2: Send the list\n"),
                finishChunk("stop", 80, 20)));
        List<Integer> ticked = new ArrayList<>();
        StepExecutor executor = StepExecutor.builder(
                        store,
                        LangChain4jChatModel.of(OpenAiStreamingChatModel.builder()
                                .baseUrl(server.baseUrl())
                                .apiKey("sk-test")
                                .modelName("gpt-test")
                                .build()))
                .listener(event -> {
                    if (event instanceof TaskEvent.StepCompleted step) {
                        ticked.add(step.stepNumber());
                    }
                })
                .build();

        StepRun run = executor.execute(task.id());

        assertThat(run.describe()).isEqualTo("2 of 2 steps done; task marked success");
        assertThat(ticked).containsExactly(1, 2);
        assertThat(store.findTask(task.id()).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
    }

    /** What a LangChain4j AI service of a worker looks like. */
    interface Worker {
        String work(String instruction);
    }

    @Test
    void aLangChain4jAiServiceWorksTheQueueThroughTheToolBridge() {
        TaskQueue queue = TaskQueue.builder(store).build();
        Task task = queue.create(
                queue.newTask("Fix the login redirect").assignee("alice").build());
        server.enqueue(json(
                200,
                toolCallCompletion(60, 10, new String[] {"call_1", "signup_for_task", "{\"agent_name\": \"alice\"}"})));
        server.enqueue(json(200, toolCallCompletion(90, 10, new String[] {
            "call_2", "complete_task", "{\"task_id\": " + task.id() + "}"
        })));
        server.enqueue(json(200, textCompletion("I claimed it; completing needs more than I gave.", 120, 12)));
        Worker worker = AiServices.builder(Worker.class)
                .chatModel(openAi())
                .toolProvider(LangChain4jTools.toolProvider(queue.workerTools()))
                .build();

        String answer = worker.work("Take your next task.");

        assertThat(answer).isEqualTo("I claimed it; completing needs more than I gave.");
        Task claimed = queue.get(task.id()).orElseThrow();
        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.assignee()).isEqualTo("alice");
        List<String> offered = new ArrayList<>();
        server.takeRequest()
                .json()
                .path("tools")
                .forEach(tool -> offered.add(tool.path("function").path("name").asText()));
        assertThat(offered).containsExactly("signup_for_task", "complete_task", "move_task", "add_comment", "get_task");
        assertThat(toolResult(server.takeRequest().json(), "call_1")).startsWith("Task #" + task.id() + " claimed");
        assertThat(toolResult(server.takeRequest().json(), "call_2"))
                .isEqualTo("Missing required argument 'agent_name' (a string).");
    }

    private static String toolResult(JsonNode request, String callId) {
        for (JsonNode message : request.path("messages")) {
            if (message.path("role").asText().equals("tool")
                    && message.path("tool_call_id").asText().equals(callId)) {
                return message.path("content").asText();
            }
        }
        throw new AssertionError("no tool result for " + callId + " in " + request.path("messages"));
    }
}
