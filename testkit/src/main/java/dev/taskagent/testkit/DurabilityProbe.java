package dev.taskagent.testkit;

import dev.taskagent.store.TaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The process that {@link DurabilityConformanceTest} kills: opens the store under test through the
 * subclass's {@link DurabilityConformanceTest.StoreFactory}, prints {@code OPENED}, then commits units of
 * work until it is killed, printing one line right after each {@code inTransaction} returned:
 *
 * <ul>
 *   <li>{@code INSERTED <id> <n>}: task {@code <id>}, "task n", was appended to the session;
 *   <li>{@code CLAIMED <id> <n>}: the claim returned it, now running;
 *   <li>{@code APPENDED <id> <n>}: one unit of work added "progress n", the comment "comment n" and the
 *       message id "message-n" to it.
 * </ul>
 *
 * <p>Each line reaches standard output in one unbuffered write, so the parent reads whole lines or
 * nothing of a line. Arguments: the factory's class name, the location, and a tag that names this run's
 * session and assignee ({@link #name(String)}).
 */
final class DurabilityProbe {
    static final String OPENED = "OPENED";
    static final String INSERTED = "INSERTED";
    static final String CLAIMED = "CLAIMED";
    static final String APPENDED = "APPENDED";

    private DurabilityProbe() {}

    /**
     * Runs the probe until the process is killed.
     *
     * @param args factory class name, location, tag
     * @throws Exception if the store cannot be opened or a unit of work fails; the parent reads the stack
     *     trace from standard error
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("Expected: <store factory class> <location> <tag>");
        }
        DurabilityConformanceTest.StoreFactory factory = DurabilityConformanceTest.instantiate(
                Class.forName(args[0]).asSubclass(DurabilityConformanceTest.StoreFactory.class));
        String name = name(args[2]);
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        TaskStore store = factory.open(args[1]);
        print(out, OPENED);
        for (long n = 1; ; n++) {
            commitThreeUnitsOfWork(store, name, n, out);
        }
    }

    /** The session id and assignee of a round with this tag. */
    static String name(String tag) {
        return "ts18-" + tag;
    }

    static String description(long n) {
        return "task " + n;
    }

    static String progress(long n) {
        return "progress " + n;
    }

    static String comment(long n) {
        return "comment " + n;
    }

    static String messageId(long n) {
        return "message-" + n;
    }

    private static void commitThreeUnitsOfWork(TaskStore store, String name, long n, OutputStream out)
            throws IOException {
        Task inserted = store.inTransaction(tx -> tx.appendTask(
                NewTask.builder(name, description(n)).assignee(name).build()));
        print(out, INSERTED + " " + inserted.id() + " " + n);

        Task claimed = store.claimNext(name, java.time.Duration.ofHours(1))
                .orElseThrow(() -> new IllegalStateException(
                        "The claim of " + name + " came back empty right after task " + inserted.id() + " was added"));
        print(out, CLAIMED + " " + claimed.id() + " " + n);

        store.inTransaction(tx -> {
            tx.appendProgress(claimed.id(), progress(n));
            tx.addComment(claimed.id(), "probe", comment(n));
            return tx.linkMessages(claimed.id(), List.of(messageId(n)));
        });
        print(out, APPENDED + " " + claimed.id() + " " + n);
    }

    private static void print(OutputStream out, String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
