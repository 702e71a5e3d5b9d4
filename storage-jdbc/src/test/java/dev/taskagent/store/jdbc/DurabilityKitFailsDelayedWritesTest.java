package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The durability kit can fail: run against an H2 store whose URL keeps H2's write delay of 500 ms (the
 * store respects a delay the URL asks for), its TS-1.8 test fails, naming what was lost.
 */
class DurabilityKitFailsDelayedWritesTest {
    private static final String ENABLED = "dev.taskagent.store.jdbc.durability-kit-subject";

    @Test
    void theKitFailsAnH2StoreThatWritesItsCommitsHalfASecondLate() {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create()
                .execute(
                        LauncherDiscoveryRequestBuilder.request()
                                .selectors(selectClass(DelayedWrites.class))
                                .configurationParameter(ENABLED, "true")
                                .build(),
                        listener);
        TestExecutionSummary summary = listener.getSummary();

        assertThat(summary.getTestsStartedCount()).isEqualTo(1);
        List<TestExecutionSummary.Failure> failures = summary.getFailures();
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0).getTestIdentifier().getDisplayName())
                .startsWith("ts18_unitsOfWorkThatReturnedSurviveAKill9OfTheProcess");
        assertThat(failures.get(0).getException())
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("TS-1.8, round ")
                .hasMessageContaining("the probe was killed (kill -9) right after these units of work returned")
                .hasMessageContaining("Reopened, the store lost");
    }

    /** The kit on an H2 file database whose URL asks for H2's default write delay. */
    @ExtendWith(OnlyThroughTheLauncher.class)
    static class DelayedWrites extends JdbcDurabilityConformanceTest {
        @Override
        protected Class<? extends StoreFactory> storeFactory() {
            return OnUrl.class;
        }

        @Override
        protected String newLocation(Path directory) {
            return "jdbc:h2:file:" + directory.resolve("tasks").toAbsolutePath() + ";WRITE_DELAY=500";
        }
    }

    /** Keeps the broken subject out of runs that expect it to pass (an IDE running the whole package). */
    static final class OnlyThroughTheLauncher implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(ENABLED).isPresent()
                    ? ConditionEvaluationResult.enabled("run by DurabilityKitFailsDelayedWritesTest")
                    : ConditionEvaluationResult.disabled(
                            "a store that must fail the kit; DurabilityKitFailsDelayedWritesTest runs it");
        }
    }
}
