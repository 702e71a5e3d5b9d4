package dev.taskagent.taskfile;

/**
 * A task run stopped: a command failed, a precondition was not met, a required variable was missing, the
 * deadline passed. The message is written for the model.
 */
final class TaskFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final Integer exitCode;
    private final boolean timedOut;

    private TaskFailure(String message, Integer exitCode, boolean timedOut) {
        super(message);
        this.exitCode = exitCode;
        this.timedOut = timedOut;
    }

    /**
     * A command exited with a non-zero status.
     *
     * @param message what failed
     * @param exitCode the real exit status
     * @return the failure
     */
    static TaskFailure exited(String message, int exitCode) {
        return new TaskFailure(message, exitCode, false);
    }

    /**
     * The run failed before or without a process exit status (a missing variable, a bad dir).
     *
     * @param message what failed and what to do
     * @return the failure
     */
    static TaskFailure refused(String message) {
        return new TaskFailure(message, null, false);
    }

    /**
     * The deadline passed.
     *
     * @param message what was stopped
     * @return the failure, with exit code 124
     */
    static TaskFailure timedOut(String message) {
        return new TaskFailure(message, 124, true);
    }

    /** @return the exit status of the failing command, or null when no command failed */
    Integer exitCode() {
        return exitCode;
    }

    /** @return whether the run's deadline passed */
    boolean isTimedOut() {
        return timedOut;
    }

    /** @return whether {@code ignore_error} may ignore it: a command that exited non-zero */
    boolean isIgnorable() {
        return exitCode != null && !timedOut;
    }
}
