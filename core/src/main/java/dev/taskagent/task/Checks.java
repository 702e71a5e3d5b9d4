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
        return TextLimits.checkName(sessionId, "sessionId");
    }

    static String optionalName(String value, String name) {
        return value == null ? null : TextLimits.checkAgentName(value, name);
    }
}
