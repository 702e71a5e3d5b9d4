package dev.taskagent.benchmarks;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one extraction iteration sends the model, in tokens (jtokkit, {@code o200k_base}): the system prompt,
 * the eight tool definitions, and the input message (task listing, previous progress, messages), for
 * sessions of 10 to 10,000 tasks, with the listing's default token budget and without one.
 *
 * <p>Two kinds of session: one whose tasks are all finished but the newest 20, as a long-lived assistant
 * session looks; and one whose tasks are all open.
 */
public final class ExtractionInputTokens {
    private static final String SESSION = "long-session";

    /** The sizes measured. */
    public static final List<Integer> SIZES = List.of(10, 100, 1_000, 10_000);

    /**
     * One measurement.
     *
     * @param tasks tasks in the session
     * @param open whether every task is open, or all but the newest 20 are finished
     * @param bounded whether the listing had its default budget
     * @param tokens tokens of the first model request
     */
    public record Measurement(int tasks, boolean open, boolean bounded, int tokens) {}

    private ExtractionInputTokens() {}

    /**
     * Prints the table.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.println(table(measureAll()));
    }

    /** @return every size, both kinds of session, bounded and not */
    public static List<Measurement> measureAll() {
        List<Measurement> results = new ArrayList<>();
        for (int size : SIZES) {
            for (boolean open : List.of(false, true)) {
                for (boolean bounded : List.of(false, true)) {
                    results.add(measure(size, open, bounded));
                }
            }
        }
        return results;
    }

    /**
     * Counts the tokens of the first request of an extraction run on a session of that many tasks.
     *
     * @param tasks tasks in the session
     * @param open true: every task pending; false: every task finished but the newest 20
     * @param bounded true: the default listing budget; false: no budget (every task listed)
     * @return the measurement
     */
    public static Measurement measure(int tasks, boolean open, boolean bounded) {
        MutableClock clock = MutableClock.standard();
        InMemoryTaskStore store = new InMemoryTaskStore(clock);
        store.inTransaction(tx -> {
            for (int number = 1; number <= tasks; number++) {
                clock.set(clock.instant().plus(Duration.ofSeconds(1)));
                Task task =
                        tx.appendTask(NewTask.builder(SESSION, "Follow up on the invoice export for customer " + number)
                                .build());
                if (!open && number <= tasks - 20) {
                    tx.updateTask(
                            TaskUpdate.of(task.id()).status(TaskStatus.SUCCESS).build());
                }
            }
            return null;
        });
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call("finish", "{}")))
                .build();
        TaskAgent.Builder agent = TaskAgent.builder(store, model).clock(clock);
        if (!bounded) {
            agent.listingTokenBudget(Integer.MAX_VALUE);
        }
        agent.build()
                .run(
                        SESSION,
                        List.of(ConversationMessage.user(
                                "m1", "Customer 42 says the export is fine now; please close that one.")));
        return new Measurement(tasks, open, bounded, tokens(model.requests().get(0)));
    }

    private static int tokens(ChatRequest request) {
        Encoding encoding = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        int tokens = encoding.countTokensOrdinary(request.systemPrompt());
        for (ToolDefinition tool : request.tools()) {
            tokens += encoding.countTokensOrdinary(TokenEconomy.Scenario.definitionJson(tool));
        }
        for (ChatMessage message : request.messages()) {
            if (message instanceof UserMessage user) {
                tokens += encoding.countTokensOrdinary(user.text());
            }
        }
        return tokens;
    }

    /**
     * Renders the measurements as a Markdown table.
     *
     * @param results from {@link #measureAll()}
     * @return the table
     */
    public static String table(List<Measurement> results) {
        StringBuilder text =
                new StringBuilder("Extraction input tokens (jtokkit o200k_base), first request of a run\n\n");
        text.append(
                "| tasks | finished but 20, every task listed | finished but 20, default budget"
                        + " | all open, every task listed | all open, default budget |\n| ---: | ---: | ---: | ---: | ---: |\n");
        for (int size : SIZES) {
            text.append("| ").append(String.format("%,d", size));
            for (boolean open : List.of(false, true)) {
                for (boolean bounded : List.of(false, true)) {
                    int tokens = results.stream()
                            .filter(m -> m.tasks() == size && m.open() == open && m.bounded() == bounded)
                            .findFirst()
                            .orElseThrow()
                            .tokens();
                    text.append(" | ").append(String.format("%,d", tokens));
                }
            }
            text.append(" |\n");
        }
        return text.toString();
    }
}
