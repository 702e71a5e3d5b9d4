package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.queue.TaskHandler;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.queue.TaskWorker;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs a {@link TaskWorker} while the application context runs: started after the context refreshed, and on
 * close stopped the way {@link TaskWorker#close()} stops (running handlers get the drain timeout, then their
 * claims are released). Thread-safe.
 */
public final class TaskWorkerLifecycle extends ContextBoundService<TaskWorker> {
    private final String agent;

    /**
     * Creates the lifecycle; nothing runs before {@link #start()}.
     *
     * @param worker a builder with the queue, the agent, the handler and the settings; started by {@link #start()}
     * @param agent the agent whose tasks the worker claims, for {@link #agent()}
     */
    TaskWorkerLifecycle(Supplier<TaskWorker> worker, String agent) {
        super(worker, TaskWorker::close);
        this.agent = Objects.requireNonNull(agent, "agent");
    }

    /**
     * Creates the lifecycle of a worker with the given settings.
     *
     * @param queue the queue to claim from
     * @param handler what to do with each task
     * @param worker the {@code taskagent.worker.*} properties
     * @return the lifecycle; nothing runs before {@link #start()}
     * @throws IllegalStateException if no agent is set
     */
    static TaskWorkerLifecycle of(TaskQueue queue, TaskHandler handler, TaskAgentProperties.Worker worker) {
        String agent = worker.getAgent();
        if (agent == null || agent.isBlank()) {
            throw new IllegalStateException("The application has a TaskHandler bean, so taskagent runs a worker for"
                    + " it, and the worker needs the agent whose tasks it claims: set taskagent.worker.agent"
                    + " (or taskagent.worker.enabled=false to run it yourself)");
        }
        TaskWorker.Builder builder = TaskWorker.builder(queue)
                .agent(agent)
                .handler(handler)
                .concurrency(worker.getConcurrency())
                .pollInterval(worker.getPollInterval())
                .drainTimeout(worker.getDrainTimeout());
        return new TaskWorkerLifecycle(builder::start, agent);
    }

    /** @return the agent whose tasks the worker claims */
    public String agent() {
        return agent;
    }

    /**
     * Returns how many tasks the running worker's handlers finished.
     *
     * @return the count
     * @throws IllegalStateException if the worker is not running
     */
    public int handledCount() {
        return running("The task worker").handledCount();
    }

    @Override
    public String toString() {
        return "TaskWorkerLifecycle[agent=" + agent + ", " + (isRunning() ? "running" : "stopped") + "]";
    }
}
