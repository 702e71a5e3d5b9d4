package dev.taskagent.dashboard;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;

/**
 * Starts the system's Chromium (Debian's {@code chromium}) headless through Playwright's Java binding. No
 * browser is downloaded: Playwright's Node driver comes inside its driver-bundle jar, and the browser is the
 * one on the machine ({@code TASKAGENT_CHROMIUM} names another). Without Chromium the browser tests are
 * skipped with a message, except in CI ({@code CI=true}), where they fail.
 */
final class BrowserHarness implements AutoCloseable {
    static final List<String> CANDIDATES = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser");

    private final Playwright playwright;
    private final Browser browser;

    private BrowserHarness(Playwright playwright, Browser browser) {
        this.playwright = playwright;
        this.browser = browser;
    }

    static BrowserHarness start() {
        Path chromium = chromium();
        Playwright playwright = Playwright.create(
                new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        try {
            Browser browser = playwright
                    .chromium()
                    .launch(new BrowserType.LaunchOptions()
                            .setExecutablePath(chromium)
                            .setHeadless(true)
                            .setArgs(List.of("--disable-gpu", "--disable-dev-shm-usage")));
            return new BrowserHarness(playwright, browser);
        } catch (RuntimeException e) {
            playwright.close();
            throw e;
        }
    }

    private static Path chromium() {
        String named = System.getenv("TASKAGENT_CHROMIUM");
        List<String> candidates = named == null || named.isBlank() ? CANDIDATES : List.of(named);
        for (String candidate : candidates) {
            Path path = Paths.get(candidate);
            if (Files.isExecutable(path)) {
                return path;
            }
        }
        String message = "No Chromium at " + String.join(" or ", candidates) + ": install Debian's chromium"
                + " (apt-get install chromium), or name one with TASKAGENT_CHROMIUM, to run the browser tests";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(message + " (CI=true: the browser tests must run in CI)");
        }
        abort(message);
        throw new IllegalStateException("unreachable");
    }

    Browser browser() {
        return browser;
    }

    @Override
    public void close() {
        try {
            browser.close();
        } finally {
            playwright.close();
        }
    }
}
