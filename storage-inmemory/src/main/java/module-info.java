/** A thread-safe in-memory {@code TaskStore}. */
module dev.taskagent.store.inmemory {
    requires transitive dev.taskagent.core;

    exports dev.taskagent.store.inmemory;
}
