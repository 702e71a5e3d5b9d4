package dev.taskagent.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.queue.TaskWorker;
import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.TaskWorkerSuite;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class InMemoryTaskWorkerTest extends TaskWorkerSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }

    /**
     * The worker's log says a cancel is a cancel, not a lost claim (checked here, where the log is slf4j-simple's
     * on {@code System.err}, rather than in the suite, which any store's tests run with their own logging).
     */
    @Test
    void aCancelWhileTheHandlerRunsIsLoggedAsACancelNotAsALostClaim() throws Exception {
        TaskQueue queue = TaskQueue.builder(new InMemoryTaskStore())
                .leaseDuration(Duration.ofMillis(600))
                .build();
        long id = queue.create(queue.newTask("Reindex the catalogue")
                        .assignee("indexer")
                        .build())
                .id();
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new Tee(err, log), true, StandardCharsets.UTF_8));
        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent("indexer")
                .handler(task -> {
                    started.countDown();
                    try {
                        new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                    }
                })
                .start()) {
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            queue.cancel(id, "operator", "the catalogue is frozen");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!interrupted.get() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            assertThat(interrupted)
                    .as("the handler interrupted at the next lease renewal")
                    .isTrue();
            while (worker.handledCount() < 1 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            assertThat(worker.handledCount()).as("the handler returned").isEqualTo(1);
        } finally {
            System.setErr(err);
        }

        assertThat(log.toString(StandardCharsets.UTF_8))
                .contains("Worker indexer stops task " + id + " (attempt 1): it was cancelled")
                .doesNotContain("lost its claim of task " + id);
    }

    /** Writes to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
            first.write(bytes, offset, length);
            second.write(bytes, offset, length);
        }

        @Override
        public synchronized void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }
}
