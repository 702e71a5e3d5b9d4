package dev.taskagent.examples;

/**
 * A failure the flagship demo explains in one line, what failed and what to do, and ends with exit code 1
 * without a stack trace: the model service could not be used, the task store could not be opened (another
 * process holds its H2 file), or {@code --reset} refused a directory.
 * Anything else the demo does not catch, so that a real problem keeps its stack trace.
 */
final class DemoFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private static final String OFFLINE =
            "Or unset OPENAI_API_KEY and OPENAI_BASE_URL to run the demo offline on its scripted model.";

    DemoFailure(String message) {
        super(message);
    }

    /**
     * Describes a failed model call; the library's message already names the server, the cause and the
     * variable to check.
     *
     * @param stage the demo's stage, e.g. {@code "extraction"}
     * @param e what the model threw
     * @return the failure
     */
    static DemoFailure modelCall(String stage, RuntimeException e) {
        return new DemoFailure(
                "the model call failed during " + stage + ": " + sentence(e.getMessage()) + " " + OFFLINE);
    }

    /**
     * Describes a model configuration from the environment that the model client refused, before anything
     * ran.
     *
     * @param e what building the model threw
     * @return the failure
     */
    static DemoFailure modelConfiguration(RuntimeException e) {
        return new DemoFailure("the model configuration is invalid: " + sentence(e.getMessage()) + " " + OFFLINE);
    }

    /**
     * Describes a task store the demo could not open; the library's message already says why and what to do.
     *
     * @param e what opening the store threw
     * @return the failure
     */
    static DemoFailure storeUnavailable(RuntimeException e) {
        return new DemoFailure("the task store could not be opened: " + sentence(e.getMessage()));
    }

    private static String sentence(String message) {
        String text = message == null ? "no message" : message.strip().replaceAll("\\s*\\R\\s*", " ");
        return text.endsWith(".") ? text : text + ".";
    }
}
