package dev.taskagent.dashboard;

/**
 * A request the API refuses, with its HTTP status and the message the JSON error carries.
 *
 * <p>Immutable and thread-safe.
 */
final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String parameter;

    ApiException(int status, String parameter, String message) {
        super(message, null, false, false);
        this.status = status;
        this.parameter = parameter;
    }

    static ApiException badParameter(String parameter, String message) {
        return new ApiException(400, parameter, message);
    }

    static ApiException notFound(String message) {
        return new ApiException(404, null, message);
    }

    int status() {
        return status;
    }

    /** The parameter at fault, or null. */
    String parameter() {
        return parameter;
    }
}
