package dev.taskagent.dashboard;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskUpdate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Not a test: measures how long the page takes to show a session of 1,000 tasks in headless Chromium, from
 * the start of the navigation to the cards in the page (the API's answer included), and prints it. Runs
 * only when asked: {@code -Dtaskagent.dashboard.measure=true -Dtest=DashboardRenderMeasurement}, on H2, or
 * on PostgreSQL when {@code TASKAGENT_TEST_POSTGRES_URL} is set.
 */
@EnabledIfSystemProperty(named = "taskagent.dashboard.measure", matches = "true")
class DashboardRenderMeasurement {
    private static final int TASKS = 1_000;
    private static final int RUNS = 5;

    @Test
    void measureTheRenderingOfAThousandTasks() throws Exception {
        String database = TestDatabases.names().contains("postgresql") ? "postgresql" : "h2";
        try (TestDatabases.Database db = TestDatabases.create(database);
                JdbcTaskStore store = JdbcTaskStore.open(db.url());
                TaskDashboard board = TaskDashboard.builder(store)
                        .bind("127.0.0.1", 0)
                        .build()
                        .start();
                BrowserHarness harness = BrowserHarness.start()) {
            seed(store);
            Browser browser = harness.browser();
            for (int run = 1; run <= RUNS; run++) {
                try (BrowserContext context =
                        browser.newContext(new Browser.NewContextOptions().setViewportSize(1440, 1000))) {
                    Page page = context.newPage();
                    page.navigate(board.uri() + "?session=thousand");
                    page.waitForFunction("() => performance.getEntriesByName('board-painted').length > 0"
                            + " && document.querySelectorAll('#cards .card').length === " + TASKS);
                    Object rendered =
                            page.evaluate("() => performance.getEntriesByName('board-rendered')[0].startTime");
                    Object painted = page.evaluate("() => performance.getEntriesByName('board-painted')[0].startTime");
                    System.out.printf(
                            "[%s] run %d: %d cards in the document %.0f ms, painted %.0f ms after the navigation"
                                    + " started%n",
                            database, run, TASKS, ((Number) rendered).doubleValue(), ((Number) painted).doubleValue());
                }
            }
        }
    }

    private static void seed(TaskStore store) {
        for (int start = 0; start < TASKS; start += 100) {
            int from = start;
            store.inTransaction(transaction -> {
                for (int index = from; index < from + 100; index++) {
                    Task task = transaction.appendTask(NewTask.builder(
                                    "thousand",
                                    "Task " + index + ": check the nightly export and tell the team what broke")
                            .assignee(index % 2 == 0 ? "alice" : "bob")
                            .steps("- [x] Reproduce the failure\n- [ ] Fix the export\n- [ ] Deploy and watch\n")
                            .build());
                    transaction.updateTask(TaskUpdate.of(task.id())
                            .userPreference("Keep the nightly run green")
                            .currentStep(1)
                            .build());
                    transaction.appendProgress(task.id(), "Reproduced it on a copy of the nightly data");
                    transaction.addComment(task.id(), "reviewer", "Please look at the failing build first.");
                    transaction.addLink(task.id(), "https://ci.example.com/runs/18231", "the failing run", "reviewer");
                }
                return null;
            });
        }
    }
}
