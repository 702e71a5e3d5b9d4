package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.assertions.PageAssertions;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.queue.Backoff;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.steps.StepRun;
import dev.taskagent.steps.TaskSteps;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The board in a real headless Chromium: a card shows, its steps tick live while a worker with a store of
 * its own (as another process would) executes them, the filters live in the URL, and an XSS description
 * shows as text. Runs on H2, and on PostgreSQL when {@code TASKAGENT_TEST_POSTGRES_URL} is set.
 */
class DashboardBrowserTest {
    static final String XSS = "<img src=x onerror=alert(1)>";
    private static final double WAIT_MS = 10_000;
    private static final String CHECK = "\u2713";

    private static BrowserHarness harness;

    @BeforeAll
    static void startBrowser() {
        harness = BrowserHarness.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (harness != null) {
            harness.close();
        }
    }

    static List<String> databases() {
        return TestDatabases.names();
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theBoardShowsCardsTicksStepsLiveFiltersInTheUrlAndShowsMarkupAsText(String database) throws Exception {
        try (TestDatabases.Database db = TestDatabases.create(database);
                JdbcTaskStore store = JdbcTaskStore.open(db.url());
                JdbcTaskStore workerStore = JdbcTaskStore.open(db.url());
                TaskDashboard board = TaskDashboard.builder(store)
                        .bind("127.0.0.1", 0)
                        .build()
                        .start()) {
            DemoBoard tasks = DemoBoard.seed(store);
            Browser browser = harness.browser();
            try (BrowserContext context =
                    browser.newContext(new Browser.NewContextOptions().setViewportSize(1440, 1000))) {
                Page page = context.newPage();
                List<String> dialogs = new CopyOnWriteArrayList<>();
                List<String> consoleErrors = new CopyOnWriteArrayList<>();
                page.onDialog(dialog -> {
                    dialogs.add(dialog.message());
                    dialog.dismiss();
                });
                page.onPageError(error -> consoleErrors.add("uncaught: " + error));
                page.onConsoleMessage(message -> {
                    System.out.println("[" + database + "] console " + message.type() + ": " + message.text());
                    if (message.type().equals("error")) {
                        consoleErrors.add(message.text());
                    }
                });

                page.navigate(board.uri() + "?session=" + DemoBoard.SESSION);
                Locator plan = card(page, tasks.plan());
                try {
                    visible(plan);
                } catch (AssertionError e) {
                    System.out.println("The page as it was: " + page.url() + "\n" + page.content());
                    throw e;
                }
                PlaywrightAssertions.assertThat(plan.locator(".step-label")).hasText("Step 0/3");
                PlaywrightAssertions.assertThat(page.locator("#live")).hasText("live", text());
                page.evaluate("() => { window.boardNotReloaded = true; }");

                // A worker with a store of its own ticks the steps; the board hears it through the feed.
                Semaphore proceed = new Semaphore(0);
                Semaphore atTool = new Semaphore(0);
                List<Long> tickedAt = new CopyOnWriteArrayList<>();
                CompletableFuture<StepRun> run =
                        CompletableFuture.supplyAsync(() -> worker(workerStore, atTool, proceed, tickedAt)
                                .execute(tasks.plan().id()));

                assertThat(atTool.tryAcquire(30, TimeUnit.SECONDS))
                        .as("step 1 ticked")
                        .isTrue();
                PlaywrightAssertions.assertThat(plan.locator(".steps input").nth(0))
                        .isChecked(checked());
                long step1Shown = System.nanoTime();
                PlaywrightAssertions.assertThat(plan.locator(".steps input").nth(1))
                        .not()
                        .isChecked();
                PlaywrightAssertions.assertThat(plan.locator(".step-label")).hasText("Step 1/3");
                PlaywrightAssertions.assertThat(page.locator(".queue[data-agent=researcher] li[data-task-id=\""
                                + tasks.plan().id() + "\"] .status"))
                        .hasText("running", text());
                proceed.release();

                assertThat(atTool.tryAcquire(30, TimeUnit.SECONDS))
                        .as("step 2 ticked")
                        .isTrue();
                PlaywrightAssertions.assertThat(plan.locator(".steps input").nth(1))
                        .isChecked(checked());
                PlaywrightAssertions.assertThat(plan.locator(".step-label")).hasText("Step 2/3");
                page.locator(".queue .countdown").first().waitFor();
                Path screenshot = targetDirectory().resolve("board.png");
                page.screenshot(new Page.ScreenshotOptions().setPath(screenshot).setFullPage(true));
                proceed.release();

                StepRun finished = run.get(30, TimeUnit.SECONDS);
                assertThat(finished.isSuccess()).as(finished.describe()).isTrue();
                PlaywrightAssertions.assertThat(plan.locator(".steps input").nth(2))
                        .isChecked(checked());
                PlaywrightAssertions.assertThat(plan.locator(".step-label")).hasText("Step 3/3");
                PlaywrightAssertions.assertThat(plan.locator(".status")).hasText("success");
                assertThat(page.evaluate("() => window.boardNotReloaded === true"))
                        .isEqualTo(true);
                System.out.printf(
                        "[%s] step 1: committed to shown on the board in %d ms (checked by polling the page)%n",
                        database, TimeUnit.NANOSECONDS.toMillis(step1Shown - tickedAt.get(0)));

                // The XSS description is text: no image element, no dialog.
                Locator xss = card(page, tasks.xss());
                PlaywrightAssertions.assertThat(xss.locator(".description")).hasText(XSS);
                assertThat(page.locator("#cards img").count()).isZero();

                // Filters go into the URL, and the URL brings them back.
                page.locator("#filter-assignee").fill("concierge");
                page.locator("#filters button[type=submit]").click();
                PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*[?&]assignee=concierge(&|$).*"), url());
                PlaywrightAssertions.assertThat(page.locator("#cards .card")).hasCount(2, count());
                visible(card(page, tasks.xss()));
                page.reload();
                PlaywrightAssertions.assertThat(page.locator("#filter-assignee"))
                        .hasValue("concierge");
                PlaywrightAssertions.assertThat(page.locator("#cards .card")).hasCount(2, count());
                page.locator("#filter-status").selectOption("running");
                PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*status=running.*"), url());
                PlaywrightAssertions.assertThat(page.locator("#cards .card")).hasCount(1, count());
                visible(card(page, tasks.transfer()));

                // Queues with lease countdowns, and the dead letter.
                PlaywrightAssertions.assertThat(page.locator(".queue[data-agent=concierge] .countdown"))
                        .hasText(Pattern.compile("\\d+:\\d\\d left"));
                PlaywrightAssertions.assertThat(page.locator("#dead-letters li[data-task-id=\""
                                + tasks.dead().id() + "\"]"))
                        .isVisible();

                assertThat(dialogs).as("dialogs opened by the page").isEmpty();
                assertThat(consoleErrors)
                        .as("errors in the page's console (a CSP violation would show)")
                        .isEmpty();
                assertThat(screenshot).exists();
            }
        }
    }

    @Test
    void withATokenThePageTakesItFromTheFragmentAndKeepsItOutOfTheAddress() {
        String token = "board-token-0123456789";
        InMemoryTaskStore store = new InMemoryTaskStore();
        Task task = TaskQueue.builder(store).build().create(NewTask.of("secret-session", "Only for token holders"));
        try (TaskDashboard board = TaskDashboard.builder(store)
                        .bind("127.0.0.1", 0)
                        .token(token)
                        .build()
                        .start();
                BrowserContext context = harness.browser().newContext()) {
            Page withoutToken = context.newPage();
            withoutToken.navigate(board.uri().toString());
            PlaywrightAssertions.assertThat(withoutToken.locator("#live")).hasText("token needed", text());
            PlaywrightAssertions.assertThat(withoutToken.locator("#notice")).containsText("#token=");
            assertThat(withoutToken.locator("#cards .card").count()).isZero();

            Page withToken = context.newPage();
            withToken.navigate(board.uri() + "?session=secret-session#token=" + token);
            visible(card(withToken, task));
            assertThat(withToken.url()).doesNotContain(token).endsWith("?session=secret-session");
            PlaywrightAssertions.assertThat(withToken.locator("#live")).hasText("live", text());
        }
    }

    @Test
    void theSearchBoxFindsTasksOfEverySessionKeepsItsWordsInTheUrlAndOpensAMatch() {
        InMemoryTaskStore store = new InMemoryTaskStore();
        TaskQueue queue = TaskQueue.builder(store).build();
        Task flights = queue.create(NewTask.of("trip", "Book flights"));
        Task tripInvoice = queue.create(
                NewTask.builder("trip", "Pay the hotel invoice").assignee("ann").build());
        Task gardenInvoice = queue.create(NewTask.of("garden", "Überweisung: invoice for the roses " + XSS));
        for (int i = 0; i < 25; i++) {
            queue.create(NewTask.of("archive", "Old invoice " + i));
        }
        try (TaskDashboard board = TaskDashboard.builder(store)
                        .bind("127.0.0.1", 0)
                        .build()
                        .start();
                BrowserContext context = harness.browser().newContext()) {
            Page page = context.newPage();
            List<String> dialogs = new CopyOnWriteArrayList<>();
            page.onDialog(dialog -> {
                dialogs.add(dialog.message());
                dialog.dismiss();
            });
            page.navigate(board.uri() + "?session=trip");
            visible(card(page, flights));

            page.locator("#search-q").fill("ÜBERWEISUNG roses");
            page.locator("#search-q").press("Enter");

            Locator results = page.locator("#search-list li");
            PlaywrightAssertions.assertThat(results).hasCount(1, count());
            PlaywrightAssertions.assertThat(results.first()).containsText(XSS);
            assertThat(results.first().getAttribute("data-task-id")).isEqualTo(String.valueOf(gardenInvoice.id()));
            PlaywrightAssertions.assertThat(page)
                    .hasURL(Pattern.compile(".*[?&]q=%C3%9CBERWEISUNG\\+roses(&|#|$).*"), url());
            assertThat(page.url()).contains("session=trip");
            visible(card(page, flights));

            // A match in another session opens that session with its card.
            results.first().locator("a.task-link").click();
            visible(card(page, gardenInvoice));
            assertThat(page.url()).contains("session=garden").contains("q=");

            // The words survive a reload; a long result comes in pages.
            page.navigate(board.uri() + "?session=trip&q=invoice");
            PlaywrightAssertions.assertThat(page.locator("#search-q")).hasValue("invoice");
            PlaywrightAssertions.assertThat(results).hasCount(20, count());
            PlaywrightAssertions.assertThat(page.locator("#search-title")).containsText("20 of 27", containsText());
            page.locator("#search-more").click();
            PlaywrightAssertions.assertThat(results).hasCount(27, count());
            PlaywrightAssertions.assertThat(page.locator("#search-more")).isHidden();
            assertThat(results.evaluateAll("items => items.map(item => item.dataset.taskId)")
                            .toString())
                    .contains(String.valueOf(tripInvoice.id()));

            // Words the search cannot use give its message, not a broken page.
            page.locator("#search-q").fill("&& ||");
            page.locator("#search-q").press("Enter");
            PlaywrightAssertions.assertThat(page.locator("#search-title"))
                    .containsText("holds no word to search for", containsText());
            PlaywrightAssertions.assertThat(results).hasCount(0, count());

            page.locator("#search-clear").click();
            PlaywrightAssertions.assertThat(page.locator("#search-results")).isHidden();
            assertThat(page.url()).doesNotContain("q=");
            assertThat(dialogs).isEmpty();
        }
    }

    @Test
    void aPageRefusedALiveStreamPollsThenGoesLiveOnceASlotFrees() throws Exception {
        InMemoryTaskStore store = new InMemoryTaskStore();
        TaskQueue queue = TaskQueue.builder(store).build();
        Task first = queue.create(NewTask.of("trip", "Book flights"));
        try (TaskDashboard board = TaskDashboard.builder(store)
                        .bind("127.0.0.1", 0)
                        .maxEventClients(1)
                        .build()
                        .start();
                BrowserContext context = harness.browser().newContext()) {
            EventClient occupant = new EventClient(new BoardClient(board), Map.of());
            try {
                assertThat(occupant.status(Duration.ofSeconds(10))).isEqualTo(200);
                Page page = context.newPage();
                page.navigate(board.uri() + "?session=trip");
                visible(card(page, first));
                PlaywrightAssertions.assertThat(page.locator("#live")).hasText("polling", text());
                page.evaluate("() => { window.boardNotReloaded = true; }");

                occupant.close();

                // The page asks again with backoff (1 s, 2 s, 4 s, … up to 30 s) and takes the freed slot.
                PlaywrightAssertions.assertThat(page.locator("#live"))
                        .hasText("live", new LocatorAssertions.HasTextOptions().setTimeout(30_000));
                Task second = queue.create(NewTask.of("trip", "Book a hotel"));
                visible(card(page, second));
                assertThat(board.openEventStreams()).isEqualTo(1);
                assertThat(page.evaluate("() => window.boardNotReloaded === true"))
                        .isEqualTo(true);
            } finally {
                occupant.close();
            }
        }
    }

    @Test
    void theBoardShowsScheduledBackingOffAndCancelledTasksAndUpdatesThemLive() {
        InMemoryTaskStore store = new InMemoryTaskStore();
        TaskQueue queue = TaskQueue.builder(store)
                .backoff(Backoff.fixed(Duration.ofHours(1)))
                .build();
        Task scheduled = queue.create(queue.newTask("Send the weekly report")
                .assignee("mailer")
                .notBefore(Instant.now().plus(Duration.ofHours(2)))
                .build());
        Task failing = queue.create(
                queue.newTask("Call the supplier").assignee("caller").build());
        queue.claimNext("caller").orElseThrow();
        queue.retry(failing.id(), "caller", 1, "The line was busy.");
        Task soon = queue.create(queue.newTask("Open the doors")
                .assignee("doorman")
                .notBefore(Instant.now().plus(Duration.ofSeconds(8)))
                .build());
        Task cancelled = queue.create(queue.newTask("Order the old model").build());
        queue.cancel(cancelled.id(), "carol", "Discontinued.");
        try (TaskDashboard board = TaskDashboard.builder(store)
                        .bind("127.0.0.1", 0)
                        .build()
                        .start();
                BrowserContext context = harness.browser().newContext()) {
            Page page = context.newPage();
            page.navigate(board.uri() + "?session=" + TaskQueue.DEFAULT_SESSION_ID);
            visible(card(page, scheduled));
            PlaywrightAssertions.assertThat(card(page, soon).locator(".scheduled-badge"))
                    .hasText("scheduled", text());

            PlaywrightAssertions.assertThat(card(page, scheduled).locator(".scheduled-badge"))
                    .hasText("scheduled", text());
            PlaywrightAssertions.assertThat(card(page, scheduled).locator(".not-before"))
                    .containsText("not before: ");
            PlaywrightAssertions.assertThat(card(page, failing).locator(".scheduled-badge"))
                    .hasText("backing off", text());
            PlaywrightAssertions.assertThat(card(page, cancelled).locator(".status.cancelled"))
                    .hasText("cancelled", text());
            PlaywrightAssertions.assertThat(page.locator(
                            ".queue[data-agent=mailer] li[data-task-id=\"" + scheduled.id() + "\"] .scheduled-badge"))
                    .containsText("not before ");

            // A time that passes, with no event: the badge goes too.
            PlaywrightAssertions.assertThat(card(page, soon).locator(".scheduled-badge"))
                    .hasCount(0, count());
            PlaywrightAssertions.assertThat(card(page, soon).locator(".not-before"))
                    .hasCount(0, count());

            // Made claimable now: the badge goes without a reload.
            queue.delay(scheduled.id(), Duration.ZERO);
            PlaywrightAssertions.assertThat(card(page, scheduled).locator(".scheduled-badge"))
                    .hasCount(0, count());
            PlaywrightAssertions.assertThat(card(page, failing).locator(".scheduled-badge"))
                    .hasText("backing off");
        }
    }

    @Test
    void theBoardShowsTheWorkGraphFiltersItFromTheUrlAndUpdatesItLive() {
        InMemoryTaskStore store = new InMemoryTaskStore();
        TaskQueue queue = TaskQueue.builder(store).build();
        GraphBoard graph = GraphBoard.seed(queue);
        try (TaskDashboard board = TaskDashboard.builder(store)
                        .bind("127.0.0.1", 0)
                        .build()
                        .start();
                BrowserContext context =
                        harness.browser().newContext(new Browser.NewContextOptions().setViewportSize(1440, 1000))) {
            Page page = context.newPage();
            List<String> consoleErrors = new CopyOnWriteArrayList<>();
            page.onPageError(error -> consoleErrors.add("uncaught: " + error));
            page.onConsoleMessage(message -> {
                if (message.type().equals("error")) {
                    consoleErrors.add(message.text());
                }
            });
            page.navigate(board.uri() + "?session=" + GraphBoard.SESSION);
            Locator test = card(page, graph.test());
            visible(test);
            PlaywrightAssertions.assertThat(page.locator("#live")).hasText("live", text());

            // The dependant: a blocked badge and a link to its blocker; the blocker links back.
            PlaywrightAssertions.assertThat(test.locator(".blocked-badge")).hasText("blocked");
            PlaywrightAssertions.assertThat(card(page, graph.build()).locator(".blocked-badge"))
                    .hasCount(0);
            Locator blockerLink = test.locator(
                    ".blocked-by a.task-link[data-target-id=\"" + graph.build().id() + "\"]");
            PlaywrightAssertions.assertThat(blockerLink)
                    .hasText("task " + graph.build().id() + " \u00b7 Build the image");
            PlaywrightAssertions.assertThat(card(page, graph.build())
                            .locator(".blocks a.task-link[data-target-id=\""
                                    + graph.test().id() + "\"]"))
                    .isVisible();
            blockerLink.click();
            PlaywrightAssertions.assertThat(card(page, graph.build())).hasClass(Pattern.compile(".*\\bfocused\\b.*"));
            PlaywrightAssertions.assertThat(page)
                    .hasURL(Pattern.compile(".*#task-" + graph.build().id() + "$"), url());

            // A failed blocker is named on its dependant.
            PlaywrightAssertions.assertThat(card(page, graph.packaging()).locator(".blocker-failed"))
                    .containsText("task " + graph.lint().id() + " \u00b7 Lint the sources failed");

            // Subtasks nest under their parent, which counts how many are done.
            Locator releaseNode = page.locator(
                    "#cards .task-node[data-task-id=\"" + graph.release().id() + "\"]");
            PlaywrightAssertions.assertThat(releaseNode.locator(":scope > .subtasks .card"))
                    .hasCount(2, count());
            PlaywrightAssertions.assertThat(releaseNode.locator(":scope > .subtasks .card[data-task-id=\""
                            + graph.notes().id() + "\"]"))
                    .isVisible();
            PlaywrightAssertions.assertThat(card(page, graph.release()).locator(".children-count"))
                    .hasText("Subtasks 1/2 done");

            // The queues mark a blocked entry too.
            PlaywrightAssertions.assertThat(page.locator(".queue[data-agent=ops] li[data-task-id=\""
                            + graph.deploy().id() + "\"] .blocked-badge"))
                    .isVisible();

            // Tags as chips.
            PlaywrightAssertions.assertThat(card(page, graph.build()).locator(".tags .tag"))
                    .hasText(new String[] {"backend", "ci"});
            Path screenshot = targetDirectory().resolve("board-graph.png");
            page.screenshot(new Page.ScreenshotOptions().setPath(screenshot).setFullPage(true));

            // Live: an edge added and removed, and a blocker that completes, without a reload.
            page.evaluate("() => { window.boardNotReloaded = true; }");
            store.inTransaction(
                    tx -> tx.addDependency(graph.announce().id(), graph.deploy().id()));
            PlaywrightAssertions.assertThat(card(page, graph.announce()).locator(".blocked-badge"))
                    .hasText("blocked", text());
            store.inTransaction(tx ->
                    tx.removeDependency(graph.announce().id(), graph.deploy().id()));
            PlaywrightAssertions.assertThat(card(page, graph.announce()).locator(".blocked-badge"))
                    .hasCount(0, count());
            queue.update(
                    TaskUpdate.of(graph.build().id()).status(TaskStatus.SUCCESS).build());
            PlaywrightAssertions.assertThat(test.locator(".blocked-badge")).hasCount(0, count());
            PlaywrightAssertions.assertThat(test).hasAttribute("data-ready", "true");
            PlaywrightAssertions.assertThat(card(page, graph.deploy()).locator(".blocked-badge"))
                    .hasText("blocked");
            // A blocker in another session: its completion reaches this board, which links to it.
            queue.update(TaskUpdate.of(graph.provision().id())
                    .status(TaskStatus.SUCCESS)
                    .build());
            PlaywrightAssertions.assertThat(card(page, graph.deploy())
                            .locator(".blocked-by a.task-link[data-target-id=\""
                                    + graph.provision().id() + "\"]"))
                    .hasAttribute("data-status", "success");
            assertThat(page.evaluate("() => window.boardNotReloaded === true")).isEqualTo(true);
            page.screenshot(new Page.ScreenshotOptions()
                    .setPath(targetDirectory().resolve("board-graph-live.png"))
                    .setFullPage(true));

            // A tag filter from the URL, alone and with the ready filter.
            page.navigate(board.uri() + "?session=" + GraphBoard.SESSION + "&tag=backend");
            PlaywrightAssertions.assertThat(page.locator("#filter-tag")).hasValue("backend");
            PlaywrightAssertions.assertThat(page.locator("#cards .card")).hasCount(2, count());
            visible(card(page, graph.test()));
            page.navigate(board.uri() + "?session=" + GraphBoard.SESSION + "&readiness=ready");
            PlaywrightAssertions.assertThat(page.locator("#filter-readiness")).hasValue("ready");
            PlaywrightAssertions.assertThat(page.locator("#cards .card")).hasCount(3, count());
            visible(card(page, graph.test()));
            visible(card(page, graph.announce()));
            assertThat(card(page, graph.deploy()).count()).isZero();
            page.navigate(board.uri() + "?session=" + GraphBoard.SESSION + "&tag=backend&readiness=ready");
            PlaywrightAssertions.assertThat(page.locator("#cards .card")).hasCount(1, count());
            visible(card(page, graph.test()));

            // A chip applies its tag; the filter goes into the URL and survives a reload.
            page.navigate(board.uri() + "?session=" + GraphBoard.SESSION);
            card(page, graph.build()).locator(".tags .tag[data-tag=ci]").click();
            PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*[?&]tag=ci(&|$).*"), url());
            PlaywrightAssertions.assertThat(page.locator("#cards .card")).hasCount(1, count());
            page.reload();
            PlaywrightAssertions.assertThat(page.locator("#filter-tag")).hasValue("ci");
            PlaywrightAssertions.assertThat(page.locator("#cards .card")).hasCount(1, count());

            // A link to a task of another session opens that session at its card.
            page.navigate(board.uri() + "?session=" + GraphBoard.SESSION);
            card(page, graph.deploy())
                    .locator(".blocked-by a.task-link[data-target-id=\""
                            + graph.provision().id() + "\"]")
                    .click();
            PlaywrightAssertions.assertThat(page)
                    .hasURL(
                            Pattern.compile(
                                    ".*session=infra#task-" + graph.provision().id() + "$"),
                            url());
            PlaywrightAssertions.assertThat(card(page, graph.provision()))
                    .hasClass(Pattern.compile(".*\\bfocused\\b.*"));

            assertThat(consoleErrors).as("errors in the page's console").isEmpty();
            assertThat(screenshot).exists();
        }
    }

    /** The worker: a scripted model that ticks one step per answer and calls a tool that waits for the test. */
    private static StepExecutor worker(TaskStore store, Semaphore atTool, Semaphore proceed, List<Long> tickedAt) {
        Tool checkCalendar =
                Tool.of("check_calendar", "Checks the family calendar.", JsonSchema.object(), arguments -> {
                    atTool.release();
                    try {
                        if (!proceed.tryAcquire(60, TimeUnit.SECONDS)) {
                            return ToolResult.error("The test did not go on");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return ToolResult.error("Interrupted");
                    }
                    return ToolResult.ok("The calendar is free in March.");
                });
        ScriptedChatModel model = ScriptedChatModel.builder()
                .streamChunkSize(8)
                .respond(toolTurn("Sea Life, the Children's Discovery Museum and Safari World suit a 5 and a 3 year"
                        + " old.\n" + CHECK + " STEP 1: Research family-friendly attractions\n"))
                .respond(toolTurn("Two hotels near Sukhumvit have a pool and family rooms.\n" + CHECK
                        + " STEP 2: Compare hotels near Sukhumvit\n"))
                .respond(ScriptedChatModel.text(CHECK + " STEP 3: Send the shortlist to Hanan on WhatsApp\n"
                        + "Summary: Hanan has the shortlist."))
                .build();
        return StepExecutor.builder(store, model)
                .toolbox(Toolbox.of(checkCalendar))
                .listener(event -> {
                    if (event instanceof TaskEvent.StepCompleted) {
                        tickedAt.add(System.nanoTime());
                    }
                })
                .build();
    }

    private static ChatResponse toolTurn(String text) {
        return new ChatResponse(
                text,
                List.of(ScriptedChatModel.call("check_calendar", "{}")),
                FinishReason.TOOL_CALLS,
                new TokenUsage(100, 20));
    }

    static Locator card(Page page, Task task) {
        return page.locator("#cards .card[data-task-id=\"" + task.id() + "\"]");
    }

    private static void visible(Locator locator) {
        PlaywrightAssertions.assertThat(locator)
                .isVisible(new LocatorAssertions.IsVisibleOptions().setTimeout(WAIT_MS));
    }

    private static LocatorAssertions.IsCheckedOptions checked() {
        return new LocatorAssertions.IsCheckedOptions().setTimeout(WAIT_MS);
    }

    private static LocatorAssertions.HasTextOptions text() {
        return new LocatorAssertions.HasTextOptions().setTimeout(WAIT_MS);
    }

    private static LocatorAssertions.HasCountOptions count() {
        return new LocatorAssertions.HasCountOptions().setTimeout(WAIT_MS);
    }

    private static LocatorAssertions.ContainsTextOptions containsText() {
        return new LocatorAssertions.ContainsTextOptions().setTimeout(WAIT_MS);
    }

    private static PageAssertions.HasURLOptions url() {
        return new PageAssertions.HasURLOptions().setTimeout(WAIT_MS);
    }

    static Path targetDirectory() {
        return Paths.get(System.getProperty("taskagent.dashboard.target", "target"));
    }

    /**
     * A release plan as a graph: build, then test, then deploy (which also waits for provision, in another
     * session); a release with two subtasks, one done; package waiting for a lint that failed. Tagged.
     */
    record GraphBoard(
            Task build,
            Task test,
            Task deploy,
            Task provision,
            Task release,
            Task notes,
            Task announce,
            Task lint,
            Task packaging) {
        static final String SESSION = "release";

        static GraphBoard seed(TaskQueue queue) {
            Task build = create(
                    queue,
                    NewTask.builder(SESSION, "Build the image").assignee("ci").tags("backend", "ci"));
            Task test = create(
                    queue,
                    NewTask.builder(SESSION, "Run the integration tests")
                            .assignee("ci")
                            .blockedBy(build.id())
                            .tags("backend"));
            Task provision = create(
                    queue,
                    NewTask.builder("infra", "Provision the staging cluster").assignee("ops"));
            Task deploy = create(
                    queue,
                    NewTask.builder(SESSION, "Deploy to staging")
                            .assignee("ops")
                            .blockedBy(test.id(), provision.id())
                            .tags("ops"));
            Task release = create(queue, NewTask.builder(SESSION, "Release 2.0").assignee("lead"));
            Task notes = create(
                    queue,
                    NewTask.builder(SESSION, "Write the release notes")
                            .assignee("writer")
                            .parent(release.id())
                            .tags("docs"));
            Task announce = create(
                    queue,
                    NewTask.builder(SESSION, "Announce the release")
                            .assignee("writer")
                            .parent(release.id()));
            queue.update(TaskUpdate.of(notes.id()).status(TaskStatus.SUCCESS).build());
            Task lint =
                    create(queue, NewTask.builder(SESSION, "Lint the sources").assignee("linter"));
            Task packaging = create(
                    queue,
                    NewTask.builder(SESSION, "Package the artifacts")
                            .assignee("packager")
                            .blockedBy(lint.id()));
            Task claimed = queue.claimNext("linter").orElseThrow();
            queue.complete(claimed.id(), "linter", claimed.attempt(), TaskStatus.FAILED, "3 style errors");
            return new GraphBoard(build, test, deploy, provision, release, notes, announce, lint, packaging);
        }

        /** The spec names its maxAttempts: TaskQueue.create drops the graph fields of a spec without one. */
        private static Task create(TaskQueue queue, NewTask.Builder spec) {
            return queue.create(spec.maxAttempts(3).build());
        }
    }

    /** The tasks the board shows: a plan with steps, an XSS description, a running claim and a dead letter. */
    record DemoBoard(Task plan, Task xss, Task transfer, Task dead) {
        static final String SESSION = "family-trip";

        static DemoBoard seed(TaskStore store) throws InterruptedException {
            TaskQueue queue = TaskQueue.builder(store).build();
            Task plan =
                    queue.create(NewTask.builder(SESSION, "Plan a family trip to Bangkok in March for the four of us")
                            .assignee("researcher")
                            .createdBy("hanan")
                            .build());
            plan = TaskSteps.of(store)
                    .setSteps(
                            plan.id(),
                            List.of(
                                    "Research family-friendly attractions",
                                    "Compare hotels near Sukhumvit",
                                    "Send the shortlist to Hanan on WhatsApp"));
            queue.update(TaskUpdate.of(plan.id())
                    .userPreference("Kid-friendly, a pool, under $150 a night")
                    .build());
            queue.comment(plan.id(), "hanan", "The kids are 5 and 3; no long drives please.");
            queue.link(plan.id(), "https://www.tourismthailand.org/", "Tourism Authority of Thailand", "researcher");
            Task xss = queue.create(
                    NewTask.builder(SESSION, XSS).assignee("concierge").build());
            Task transfer =
                    queue.create(NewTask.builder(SESSION, "Book the airport transfer for 4 with two child seats")
                            .assignee("concierge")
                            .priority(2)
                            .build());
            queue.claimNext("concierge", Duration.ofMinutes(15)).orElseThrow();
            Task dead = queue.create(NewTask.builder(SESSION, "Upload the itinerary PDF to the shared drive")
                    .assignee("uploader")
                    .maxAttempts(1)
                    .build());
            queue.claimNext("uploader", Duration.ofMillis(1)).orElseThrow();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (queue.reclaimExpired().isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("The 1 ms lease did not expire within 10 s");
                }
                Thread.sleep(5);
            }
            return new DemoBoard(plan, xss, transfer, dead);
        }
    }
}
