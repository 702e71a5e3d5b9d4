package dev.taskagent.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A worker that waits for work wakes when a task of its queue is unblocked, not at its next poll. */
class TaskWorkerUnblockedTest {

    @Test
    void aWorkerWakesOnTheUnblockedEventOfAnotherAgentsSuccess() throws Exception {
        InMemoryTaskStore store = new InMemoryTaskStore();
        TaskQueue queue = TaskQueue.builder(store).build();
        Task build = queue.create(queue.newTask("Build").assignee("bob").build());
        Task deploy = queue.create(
                queue.newTask("Deploy").assignee("alice").blockedBy(build.id()).build());
        CountDownLatch handled = new CountDownLatch(1);

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent("alice")
                .handler(task -> handled.countDown())
                .pollInterval(Duration.ofHours(1))
                .start()) {
            Thread.sleep(200); // the worker found nothing ready and waits for the feed
            assertThat(handled.getCount()).isEqualTo(1);

            Task claimed = queue.claimNext("bob").orElseThrow();
            queue.complete(claimed.id(), "bob", claimed.attempt(), TaskStatus.SUCCESS, null);

            assertThat(handled.await(10, TimeUnit.SECONDS))
                    .as("woken by 'unblocked' well before the hour's poll")
                    .isTrue();
            assertThat(worker.agent()).isEqualTo("alice");
        }
        assertThat(store.findTask(deploy.id()).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
    }
}
