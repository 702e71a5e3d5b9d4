package dev.taskagent.dashboard;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parameters of a query string, checked against the names an endpoint knows: an unknown or repeated
 * name, or a value that does not parse, is a 400 naming the parameter.
 *
 * <p>Immutable and thread-safe.
 */
final class QueryParameters {
    /** The longest parameter value accepted. */
    static final int MAX_VALUE_LENGTH = 1000;

    private final Map<String, String> values;

    private QueryParameters(Map<String, String> values) {
        this.values = values;
    }

    static QueryParameters parse(String rawQuery, List<String> known) {
        Map<String, String> values = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals), "a parameter name");
                String value = equals < 0 ? "" : decode(pair.substring(equals + 1), name);
                if (!known.contains(name)) {
                    throw ApiException.badParameter(
                            name,
                            "Unknown parameter '" + cut(name) + "'"
                                    + (known.isEmpty()
                                            ? "; this endpoint takes none"
                                            : "; expected one of " + String.join(", ", known)));
                }
                if (values.putIfAbsent(name, value) != null) {
                    throw ApiException.badParameter(name, "Parameter '" + name + "' is given twice; give it once");
                }
                checkText(name, value, MAX_VALUE_LENGTH);
            }
        }
        return new QueryParameters(values);
    }

    /** The value, or empty when absent or blank. */
    Optional<String> text(String name) {
        String value = values.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    int integer(String name, int defaultValue, int min, int max) {
        Optional<String> value = text(name);
        if (value.isEmpty()) {
            return defaultValue;
        }
        try {
            int number = Integer.parseInt(value.get());
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // the message below says what is expected
        }
        throw ApiException.badParameter(
                name,
                "Parameter '" + name + "' must be a whole number from " + min + " to " + max + ", was '"
                        + cut(value.get()) + "'");
    }

    private static String decode(String text, String what) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParameter(what, "The query string is not properly encoded (" + e.getMessage() + ")");
        }
    }

    /**
     * Refuses a value that no store holds and no answer carries intact: one longer than {@code maxLength}, or
     * one with a NUL character or an unpaired surrogate (which a JSON body's {@code \\uD800} can produce).
     * Every text a request gives passes here before it reaches the store.
     */
    static String checkText(String parameter, String value, int maxLength) {
        if (value.length() > maxLength) {
            throw ApiException.badParameter(
                    parameter,
                    "Parameter '" + parameter + "' is " + value.length() + " characters long; the limit is "
                            + maxLength);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\0') {
                throw ApiException.badParameter(
                        parameter,
                        "Parameter '" + parameter + "' holds a NUL character (at index " + i + "); remove it");
            }
            if (Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw ApiException.badParameter(
                        parameter,
                        "Parameter '" + parameter + "' holds half of a surrogate pair (at index " + i
                                + "), which is not text; send whole characters");
            }
        }
        return value;
    }

    /** The text cut to 80 characters for a message, never between the two halves of a surrogate pair. */
    static String cut(String text) {
        return cut(text, 80);
    }

    /** The text cut to {@code length} characters (the last one an ellipsis), never inside a surrogate pair. */
    static String cut(String text, int length) {
        if (text.length() <= length) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(length - 2)) ? length - 2 : length - 1;
        return text.substring(0, end) + "\u2026";
    }
}
