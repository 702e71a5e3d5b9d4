package dev.taskagent.task;

import java.util.Objects;

/** Argument checks shared by the value types of this package. */
final class Checks {
    private Checks() {}

    static String notBlank(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        return value;
    }

    static String sessionId(String sessionId) {
        notBlank(sessionId, "sessionId");
        if (sessionId.length() > Task.MAX_ID_LENGTH) {
            throw new IllegalArgumentException(
                    "sessionId is " + sessionId.length() + " characters long; the limit is " + Task.MAX_ID_LENGTH);
        }
        return sessionId;
    }

    static String optionalName(String value, String name) {
        if (value != null) {
            notBlank(value, name);
            if (value.length() > Task.MAX_ID_LENGTH) {
                throw new IllegalArgumentException(
                        name + " is " + value.length() + " characters long; the limit is " + Task.MAX_ID_LENGTH);
            }
        }
        return value;
    }
}
