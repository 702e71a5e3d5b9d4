package dev.taskagent.benchmarks;

import org.openjdk.jmh.infra.Blackhole;

/**
 * Something claims can be measured on: the taskagent store or a hand-written floor. Thread-safe: every
 * benchmark thread claims, recycles the tasks it claimed and adds tasks for its assignees.
 */
interface ClaimTarget extends AutoCloseable {

    /**
     * Claims the assignee's next task in one transaction, reading it with its comments and links.
     *
     * @param assignee the assignee
     * @param blackhole takes the claimed task, so that reading it cannot be optimised away
     * @return the claimed task's id, or -1 if the assignee had none
     */
    long claim(String assignee, Blackhole blackhole);

    /**
     * Makes claimed tasks pending again, so that the tables keep their size from one iteration to the
     * next.
     *
     * @param ids the claimed ids, in {@code ids[0..count)}
     * @param count how many
     */
    void recycle(long[] ids, int count);

    /**
     * Adds pending tasks, each with two comments and two links.
     *
     * @param assignee their assignee
     * @param count how many
     */
    void addTasks(String assignee, int count);

    @Override
    void close();
}
