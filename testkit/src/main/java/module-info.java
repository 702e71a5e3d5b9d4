/**
 * taskagent testkit: the {@code TaskStore} conformance kit, the behaviour suites that run the agent, the
 * queue and step execution on a store, {@code ScriptedChatModel} and {@code MutableClock}.
 *
 * <p>The module is open: JUnit runs the kit's test methods (package-private, inherited by your subclass)
 * by reflection, from the class path or the module path alike. Only the packages below are API.
 */
@SuppressWarnings("requires-automatic") // jtokkit names no module: its file name does
open module dev.taskagent.testkit {
    requires transitive dev.taskagent.core;
    // A subclass of a suite is a JUnit test: it needs the annotations and the API the suites are written in.
    requires transitive org.junit.jupiter.api;
    requires org.assertj.core;
    // BoundedAnswersSuite counts results in real tokens.
    requires jtokkit;

    exports dev.taskagent.testkit;
    exports dev.taskagent.testkit.extraction;
    exports dev.taskagent.testkit.queue;
    exports dev.taskagent.testkit.steps;
    exports dev.taskagent.testkit.dialect;
}
