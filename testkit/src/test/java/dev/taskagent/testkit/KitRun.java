package dev.taskagent.testkit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The outcome of running the conformance kit against one subject with the JUnit Platform Launcher: which
 * test methods passed, failed (with their first message line) or were skipped.
 *
 * @param passed the names of the tests that passed
 * @param failed the names of the tests that failed, with what they reported
 * @param skipped the names of the tests that were skipped
 * @param containerFailures failures outside a test (the class could not be instantiated, say)
 */
record KitRun(Set<String> passed, Map<String, String> failed, Set<String> skipped, List<String> containerFailures) {

    /** The configuration parameter that enables the subjects of {@link KitSubjects}. */
    static final String SUBJECTS_PARAMETER = "dev.taskagent.testkit.subjects";

    /**
     * Runs every test of a subject class.
     *
     * @param subject a concrete subclass of the kit
     * @return what happened
     */
    static KitRun of(Class<?> subject) {
        Set<String> passed = new TreeSet<>();
        Map<String, String> failed = new TreeMap<>();
        Set<String> skipped = new TreeSet<>();
        List<String> containerFailures = new ArrayList<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionSkipped(TestIdentifier test, String reason) {
                skipped.add(name(test));
            }

            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (!test.isTest()) {
                    if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                        containerFailures.add(test.getDisplayName() + ": "
                                + result.getThrowable().orElse(null));
                    }
                    return;
                }
                switch (result.getStatus()) {
                    case SUCCESSFUL -> passed.add(name(test));
                    case ABORTED -> skipped.add(name(test));
                    case FAILED ->
                        failed.put(
                                name(test),
                                result.getThrowable().map(KitRun::firstLine).orElse("(no exception)"));
                }
            }
        };
        Launcher launcher = LauncherFactory.create();
        launcher.execute(
                LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectClass(subject))
                        .configurationParameter(SUBJECTS_PARAMETER, "true")
                        .build(),
                listener);
        return new KitRun(passed, failed, skipped, containerFailures);
    }

    /** @return how many tests ran or were skipped */
    int total() {
        return passed.size() + failed.size() + skipped.size();
    }

    private static String name(TestIdentifier test) {
        return test.getSource()
                .filter(MethodSource.class::isInstance)
                .map(source -> ((MethodSource) source).getMethodName())
                .orElse(test.getDisplayName());
    }

    private static String firstLine(Throwable failure) {
        String text = String.valueOf(failure);
        int newLine = text.indexOf('\n');
        return newLine < 0 ? text : text.substring(0, newLine);
    }
}
