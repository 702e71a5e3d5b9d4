package dev.taskagent.steps;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.event.TaskListener;
import dev.taskagent.internal.engine.TransactionRunner;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskUpdate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and writes the steps of tasks in a store: set a task's checklist, tick or untick one step, read
 * the parsed steps. Each write is one small transaction; its event ({@link TaskEvent.Updated}, or {@link
 * TaskEvent.StepCompleted} for a tick) reaches the listeners after it committed.
 *
 * <p>A task's {@link Task#currentStep() current step} is the number of the step ticked last: a tick sets
 * it to that step; setting a document or unticking a step sets it to the highest checked step (0 when
 * none is).
 *
 * <p>For writes inside a unit of work of your own (a tool of an agent), {@link #update(long,
 * MarkdownSteps)} builds the matching {@link TaskUpdate}.
 *
 * <p>Thread-safe when the store and the listeners are.
 */
public final class TaskSteps {
    private final TransactionRunner runner;

    private TaskSteps(TaskStore store, List<TaskListener> listeners) {
        this.runner = new TransactionRunner(store, listeners);
    }

    /**
     * Works on a store without listeners.
     *
     * @param store the store
     * @return the step operations
     * @throws NullPointerException if {@code store} is null
     */
    public static TaskSteps of(TaskStore store) {
        return of(store, List.of());
    }

    /**
     * Works on a store and tells listeners about every committed change.
     *
     * @param store the store
     * @param listeners told about each change, in this order
     * @return the step operations
     * @throws NullPointerException if an argument or a listener is null
     */
    public static TaskSteps of(TaskStore store, List<TaskListener> listeners) {
        Objects.requireNonNull(store, "store");
        return new TaskSteps(store, List.copyOf(listeners));
    }

    /**
     * Builds the update that gives a task a steps document, with the current step set to the highest
     * checked step (0 when none is checked).
     *
     * @param taskId the task
     * @param steps the parsed document; at least one step
     * @return the update, setting {@link TaskUpdate.Field#STEPS} and {@link TaskUpdate.Field#CURRENT_STEP}
     * @throws IllegalArgumentException if the document has no step, or is longer than {@link
     *     Task#MAX_TEXT_LENGTH}
     */
    public static TaskUpdate update(long taskId, MarkdownSteps steps) {
        Objects.requireNonNull(steps, "steps");
        if (steps.isEmpty()) {
            throw new IllegalArgumentException(
                    "The steps document has no task-list item; write each step on its own line as '- [ ] what to do'");
        }
        return TaskUpdate.of(taskId)
                .steps(steps.document())
                .currentStep(highestChecked(steps))
                .build();
    }

    /**
     * Gives a task a Markdown checklist, replacing any steps it had.
     *
     * @param taskId the task
     * @param markdown the document; must hold at least one step; kept byte for byte
     * @return the task after the change
     * @throws IllegalArgumentException if the document has no step or is too long
     * @throws TaskNotFoundException if there is no such task
     */
    public Task setSteps(long taskId, String markdown) {
        TaskUpdate update = update(taskId, MarkdownSteps.parse(markdown));
        return runner.run((transaction, events) -> {
            Task after = transaction.updateTask(update);
            events.add(new TaskEvent.Updated(after));
            return after;
        });
    }

    /**
     * Gives a task a checklist with one unchecked step per text ({@link MarkdownSteps#checklist(List)}).
     *
     * @param taskId the task
     * @param stepTexts the steps, in order; at least one, none blank
     * @return the task after the change
     * @throws IllegalArgumentException if the list is empty or a text is blank
     * @throws TaskNotFoundException if there is no such task
     */
    public Task setSteps(long taskId, List<String> stepTexts) {
        return setSteps(taskId, MarkdownSteps.checklist(stepTexts).document());
    }

    /**
     * Removes a task's steps and resets its current step to 0.
     *
     * @param taskId the task
     * @return the task after the change
     * @throws TaskNotFoundException if there is no such task
     */
    public Task clearSteps(long taskId) {
        TaskUpdate update = TaskUpdate.of(taskId).steps(null).currentStep(0).build();
        return runner.run((transaction, events) -> {
            Task after = transaction.updateTask(update);
            events.add(new TaskEvent.Updated(after));
            return after;
        });
    }

    /**
     * Reads a task's steps.
     *
     * @param taskId the task
     * @return the parsed document, or empty when the task has no steps document
     * @throws TaskNotFoundException if there is no such task
     */
    public Optional<MarkdownSteps> steps(long taskId) {
        Task task = runner.store().findTask(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
        return task.steps() == null ? Optional.empty() : Optional.of(MarkdownSteps.parse(task.steps()));
    }

    /**
     * Ticks one step of a task and publishes {@link TaskEvent.StepCompleted}. Ticking a checked step
     * changes nothing and publishes nothing.
     *
     * @param taskId the task
     * @param stepNumber the step, 1..the number of steps
     * @return the task after the change (or as it is, for a checked step)
     * @throws IllegalArgumentException if the task has no steps or no step with that number
     * @throws TaskNotFoundException if there is no such task
     */
    public Task markStepDone(long taskId, int stepNumber) {
        return runner.run((transaction, events) ->
                tick(transaction, events, taskId, stepNumber, null).task());
    }

    /**
     * Unticks one step of a task and publishes {@link TaskEvent.Updated}. Unticking an unchecked step
     * changes nothing and publishes nothing.
     *
     * @param taskId the task
     * @param stepNumber the step, 1..the number of steps
     * @return the task after the change (or as it is)
     * @throws IllegalArgumentException if the task has no steps or no step with that number
     * @throws TaskNotFoundException if there is no such task
     */
    public Task markStepUndone(long taskId, int stepNumber) {
        return runner.run((transaction, events) -> {
            Task task = find(transaction, taskId);
            MarkdownSteps steps = stepsOf(task);
            MarkdownSteps unticked = steps.markUndone(stepNumber);
            if (unticked == steps) {
                return task;
            }
            Task after = transaction.updateTask(TaskUpdate.of(taskId)
                    .steps(unticked.document())
                    .currentStep(highestChecked(unticked))
                    .build());
            events.add(new TaskEvent.Updated(after));
            return after;
        });
    }

    /** The outcome of a tick: the task after it, its parsed steps, and whether anything changed. */
    record Tick(Task task, MarkdownSteps steps, boolean changed) {}

    /**
     * Ticks a step inside a unit of work. {@code previous}, the outcome of an earlier tick of the same task,
     * saves a parse when the task has not changed since (same version). Keeps no state of its own, so a
     * store may run it again (TS-1.7).
     */
    static Tick tick(TaskTransaction transaction, List<TaskEvent> events, long taskId, int stepNumber, Tick previous) {
        Task task = find(transaction, taskId);
        MarkdownSteps steps = previous != null
                        && previous.task().version() == task.version()
                        && task.steps() != null
                        && task.steps().length() == previous.steps().document().length()
                ? previous.steps()
                : stepsOf(task);
        Step step = steps.step(stepNumber);
        if (step.checked()) {
            return new Tick(task, steps, false);
        }
        MarkdownSteps ticked = steps.markDone(stepNumber);
        Task after = transaction.updateTask(TaskUpdate.of(taskId)
                .steps(ticked.document())
                .currentStep(stepNumber)
                .build());
        events.add(new TaskEvent.StepCompleted(after, stepNumber, step.text()));
        return new Tick(after, ticked, true);
    }

    private static Task find(TaskTransaction transaction, long taskId) {
        return transaction.findTask(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
    }

    static MarkdownSteps stepsOf(Task task) {
        MarkdownSteps steps = MarkdownSteps.parse(task.steps() == null ? "" : task.steps());
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("Task " + task.id() + " has no steps; give it a checklist first with"
                    + " TaskSteps.setSteps(taskId, markdown)");
        }
        return steps;
    }

    private static int highestChecked(MarkdownSteps steps) {
        List<Step> all = steps.steps();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).checked()) {
                return i + 1;
            }
        }
        return 0;
    }
}
