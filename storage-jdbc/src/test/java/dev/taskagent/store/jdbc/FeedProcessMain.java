package dev.taskagent.store.jdbc;

import dev.taskagent.event.FeedSubscription;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A process of {@link FeedProcessTest}: a writer or a subscriber on a shared database.
 *
 * <p>Arguments: JDBC URL, mode, then the mode's own. Mode {@code write <session> <tasks>} works that many
 * tasks of two steps through the queue, one after the other: creates one for agent alpha, which claims it
 * and moves it to agent beta, which claims it, ticks both steps with a step executor and completes it;
 * prints {@code READY} first and {@code DONE} at the end. Mode {@code listen <after-position>} subscribes to
 * the feed after that position, prints {@code READY}, then {@code EVENT <position> <task-id> <version>
 * <kind>} for every event, until the test kills it.
 */
public final class FeedProcessMain {
    private static final Pattern VERSION = Pattern.compile("\"version\":(\\d+)");

    private FeedProcessMain() {}

    /**
     * Runs the process.
     *
     * @param args URL, mode, the mode's arguments
     * @throws Exception on any failure (the exit code tells the test)
     */
    public static void main(String[] args) throws Exception {
        String url = args[0];
        String mode = args[1];
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (JdbcTaskStore store = JdbcTaskStore.builder(url)
                .eventPollInterval(Duration.ofMillis(100))
                .build()) {
            if (mode.equals("write")) {
                write(store, args[2], Integer.parseInt(args[3]), out);
            } else {
                listen(store, Long.parseLong(args[2]), out);
            }
        }
    }

    private static void write(JdbcTaskStore store, String session, int tasks, PrintStream out) {
        TaskQueue queue = TaskQueue.builder(store).build();
        String alpha = session + "-alpha";
        String beta = session + "-beta";
        out.println("READY");
        for (int index = 0; index < tasks; index++) {
            long id = queue.create(queue.newTask(session + " task " + index)
                            .steps("- [ ] look\n- [ ] write\n")
                            .assignee(alpha)
                            .build())
                    .id();
            Task claimed = queue.claimNext(alpha).orElseThrow();
            queue.move(id, alpha, claimed.attempt(), beta, "over to you");
            Task reclaimed = queue.claimNext(beta).orElseThrow();
            ScriptedChatModel model = ScriptedChatModel.builder()
                    .respond(ScriptedChatModel.text("\u2713 STEP 1: look\n\u2713 STEP 2: write\n"))
                    .build();
            StepExecutor.builder(store, model).leaveStatusToCaller().build().execute(id);
            queue.complete(id, beta, reclaimed.attempt(), TaskStatus.SUCCESS, "done");
        }
        out.println("DONE");
    }

    private static void listen(JdbcTaskStore store, long after, PrintStream out) throws InterruptedException {
        FeedSubscription subscription = store.eventFeed().subscribe(after, event -> {
            Matcher version = VERSION.matcher(event.payload());
            if (!version.find()) {
                throw new IllegalStateException("No version in the payload of " + event);
            }
            out.println(
                    "EVENT " + event.position() + " " + event.taskId() + " " + version.group(1) + " " + event.kind());
        });
        out.println("READY");
        new CountDownLatch(1).await(); // until killed
        subscription.close();
    }
}
