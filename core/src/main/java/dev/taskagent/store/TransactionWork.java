package dev.taskagent.store;

/**
 * A unit of work run by {@link TaskStore#inTransaction(TransactionWork)}.
 *
 * @param <R> what the work returns
 */
@FunctionalInterface
public interface TransactionWork<R> {
    /**
     * Does the work.
     *
     * @param transaction the transaction; valid only until this method returns
     * @return the result handed back to the caller of {@code inTransaction}
     */
    R execute(TaskTransaction transaction);
}
