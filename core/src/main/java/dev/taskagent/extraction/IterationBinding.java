package dev.taskagent.extraction;

/**
 * Binds a run's tools to the scope of the iteration attempt being executed. The tools are built once per
 * run (their definitions are sent to the model before any transaction exists) and find the current
 * transaction and context here. Used by one thread: the run's.
 */
final class IterationBinding {
    private IterationScope current;

    void bind(IterationScope scope) {
        current = scope;
    }

    void unbind() {
        current = null;
    }

    IterationScope current() {
        if (current == null) {
            throw new IllegalStateException("extraction tools run only inside an iteration's transaction");
        }
        return current;
    }
}
