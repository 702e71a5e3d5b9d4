package dev.taskagent.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.internal.Json;
import dev.taskagent.internal.StorableText;
import dev.taskagent.internal.Texts;
import dev.taskagent.task.Task;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The arguments of one tool call, parsed from the JSON the model sent, with typed getters that throw
 * {@link ToolArgumentException} (a soft error for the model) when an argument is missing or of the wrong
 * type.
 *
 * <p>The getters are forgiving where models commonly are sloppy and the intent is unambiguous: an
 * integer written as a string of the ASCII digits 0-9 with an optional sign ({@code "3"}, {@code "-2"})
 * is read as an integer, and a single value where a list is expected is read as a list of one. A JSON
 * {@code null} counts as absent. They are strict where the intent is not: an argument named twice
 * ({@code {"a": 1, "a": 2}}), digits of other scripts ({@code "١٢"}), and strings holding a NUL character
 * or an unpaired UTF-16 surrogate (which no store can keep) are refused with a message that names the
 * argument.
 *
 * <p>Immutable and thread-safe.
 */
public final class ToolArguments {
    private static final ToolArguments EMPTY = new ToolArguments(Json.mapper().createObjectNode());

    /**
     * Refuses text after the first JSON value (models sometimes concatenate the arguments of two calls),
     * and a key named twice in one object (which value the model meant is unknown).
     */
    private static final ObjectReader READER = Json.mapper()
            .reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

    /** Jackson's message for a key named twice, e.g. {@code Duplicate field 'task_order'}. */
    private static final Pattern DUPLICATE_KEY = Pattern.compile("^Duplicate field '(.*)'$");

    /** A number written as a string: ASCII digits only. */
    private static final Pattern NUMBER_TEXT = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    /** An integer written as a string: ASCII digits only, so that {@code "١٢"} is not read as 12. */
    private static final Pattern INTEGER_TEXT = Pattern.compile("[+-]?[0-9]+");

    private final ObjectNode node;

    private ToolArguments(ObjectNode node) {
        this.node = node;
    }

    /**
     * Parses the arguments of a tool call. An empty or blank text is read as no arguments, as some model
     * APIs send it for tools without parameters.
     *
     * @param json the arguments as the model wrote them
     * @return the parsed arguments
     * @throws ToolArgumentException if the text is not a JSON object
     */
    public static ToolArguments parse(String json) {
        Objects.requireNonNull(json, "json");
        if (json.isBlank()) {
            return EMPTY;
        }
        JsonNode parsed;
        try {
            parsed = READER.readTree(json);
        } catch (JsonProcessingException e) {
            Matcher duplicate = DUPLICATE_KEY.matcher(String.valueOf(e.getOriginalMessage()));
            if (duplicate.matches()) {
                throw new ToolArgumentException("The arguments name '" + duplicate.group(1)
                        + "' more than once. Send each argument once, with the value you mean.");
            }
            throw new ToolArgumentException("The arguments are not valid JSON (" + e.getOriginalMessage()
                    + "). Send the arguments as one JSON object, for example {\"name\": \"value\"}.");
        }
        if (parsed == null || parsed.isNull() || parsed.isMissingNode()) {
            return EMPTY;
        }
        if (!parsed.isObject()) {
            throw new ToolArgumentException("The arguments must be a JSON object, not " + describe(parsed)
                    + ". Send them as {\"name\": value, ...}.");
        }
        return new ToolArguments((ObjectNode) parsed);
    }

    /**
     * Returns arguments with no values.
     *
     * @return empty arguments
     */
    public static ToolArguments empty() {
        return EMPTY;
    }

    /**
     * Tells whether an argument is present and not null.
     *
     * @param name the argument's name
     * @return true when the model sent a non-null value
     */
    public boolean has(String name) {
        JsonNode value = node.get(name);
        return value != null && !value.isNull();
    }

    /** @return the names of the arguments sent, in the order sent */
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return Collections.unmodifiableSet(names);
    }

    /**
     * Reads a required integer.
     *
     * @param name the argument's name
     * @return the value
     * @throws ToolArgumentException if it is missing or not an integer that fits an int
     */
    public int requiredInt(String name) {
        return optionalInt(name).orElseThrow(() -> missing(name, "an integer"));
    }

    /**
     * Reads an optional integer.
     *
     * @param name the argument's name
     * @return the value, or empty when absent
     * @throws ToolArgumentException if present but not an integer that fits an int
     */
    public OptionalInt optionalInt(String name) {
        OptionalLong value = optionalLong(name);
        if (value.isEmpty()) {
            return OptionalInt.empty();
        }
        long number = value.getAsLong();
        if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
            throw new ToolArgumentException(
                    "Argument '" + name + "' is out of range (" + number + "); send a smaller integer.");
        }
        return OptionalInt.of((int) number);
    }

    /**
     * Reads an optional integer that must lie in a range, such as a page's {@code limit}.
     *
     * @param name the argument's name
     * @param min the smallest value allowed
     * @param max the largest value allowed; at least {@code min}
     * @return the value, or empty when absent
     * @throws ToolArgumentException if present but not an integer, or outside {@code min..max}; its text names the
     *     range
     */
    public OptionalInt optionalInt(String name, int min, int max) {
        if (max < min) {
            throw new IllegalArgumentException("max must be at least min, was " + min + ".." + max);
        }
        OptionalInt value = optionalInt(name);
        if (value.isPresent() && (value.getAsInt() < min || value.getAsInt() > max)) {
            throw new ToolArgumentException("Argument '" + name + "' must be between " + min + " and " + max + ", not "
                    + value.getAsInt() + ".");
        }
        return value;
    }

    /**
     * Reads a required 64-bit integer, such as a task id.
     *
     * @param name the argument's name
     * @return the value
     * @throws ToolArgumentException if it is missing or not an integer
     */
    public long requiredLong(String name) {
        return optionalLong(name).orElseThrow(() -> missing(name, "an integer"));
    }

    /**
     * Reads an optional 64-bit integer.
     *
     * @param name the argument's name
     * @return the value, or empty when absent
     * @throws ToolArgumentException if present but not an integer
     */
    public OptionalLong optionalLong(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(toLong(name, value));
    }

    /**
     * Reads a required string. Blank strings are returned as they are; tools decide what blank means.
     *
     * @param name the argument's name
     * @return the value
     * @throws ToolArgumentException if it is missing, not a string, or holding a NUL character or an
     *     unpaired surrogate
     */
    public String requiredString(String name) {
        return optionalString(name).orElseThrow(() -> missing(name, "a string"));
    }

    /**
     * Reads an optional string.
     *
     * @param name the argument's name
     * @return the value, or empty when absent
     * @throws ToolArgumentException if present but not a string, or holding a NUL character or an
     *     unpaired surrogate
     */
    public Optional<String> optionalString(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new ToolArgumentException("Argument '" + name + "' must be a string, not " + describe(value) + ".");
        }
        return Optional.of(storable(name, value.textValue()));
    }

    /**
     * Reads a required list of integers; a single integer is read as a list of one.
     *
     * @param name the argument's name
     * @return the values in the order sent
     * @throws ToolArgumentException if it is missing or an element is not an integer
     */
    public List<Integer> requiredIntList(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw missing(name, "an array of integers");
        }
        List<Integer> result = new ArrayList<>();
        for (JsonNode element : elements(value)) {
            long number = toLong(name, element);
            if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
                throw new ToolArgumentException(
                        "Argument '" + name + "' holds an out-of-range integer (" + number + ").");
            }
            result.add((int) number);
        }
        return List.copyOf(result);
    }

    /**
     * Reads an optional list of task ids: positive integers, none twice. A single id is read as a list of
     * one.
     *
     * @param name the argument's name
     * @return the ids in the order sent; empty when the argument is absent
     * @throws ToolArgumentException if an element is not a positive integer or an id is given twice
     */
    public Optional<List<Long>> optionalIdList(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        List<Long> result = new ArrayList<>();
        for (JsonNode element : elements(value)) {
            long id = toLong(name, element);
            if (id <= 0) {
                throw new ToolArgumentException(
                        "Argument '" + name + "' holds " + id + "; task ids are positive integers.");
            }
            if (result.contains(id)) {
                throw new ToolArgumentException("Argument '" + name + "' names task " + id + " twice; name it once.");
            }
            result.add(id);
        }
        return Optional.of(List.copyOf(result));
    }

    /**
     * Reads an optional list of strings; a single string is read as a list of one.
     *
     * @param name the argument's name
     * @return the values in the order sent, or empty when absent
     * @throws ToolArgumentException if an element is not a string, or holds a NUL character or an
     *     unpaired surrogate
     */
    public Optional<List<String>> optionalStringList(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        List<String> result = new ArrayList<>();
        for (JsonNode element : elements(value)) {
            if (!element.isTextual()) {
                throw new ToolArgumentException(
                        "Argument '" + name + "' must be an array of strings; it holds " + describe(element) + ".");
            }
            result.add(storable(name, element.textValue()));
        }
        return Optional.of(List.copyOf(result));
    }

    /**
     * Reads a required free text, such as a description or a comment: a string that is not blank and
     * not longer than {@link Task#MAX_TEXT_LENGTH}.
     *
     * @param name the argument's name
     * @return the text, verbatim
     * @throws ToolArgumentException if it is missing, not a string, blank, too long, or holding a
     *     character no store can keep
     */
    public String requiredText(String name) {
        String text = requiredString(name);
        if (text.isBlank()) {
            throw new ToolArgumentException("Argument '" + name + "' must not be blank.");
        }
        return withinLimit(name, text, Task.MAX_TEXT_LENGTH);
    }

    /**
     * Reads an optional free text. A blank text counts as absent.
     *
     * @param name the argument's name
     * @return the text, verbatim, or empty when absent or blank
     * @throws ToolArgumentException if present but not a string, too long, or holding a character no
     *     store can keep
     */
    public Optional<String> optionalText(String name) {
        return optionalString(name)
                .filter(text -> !text.isBlank())
                .map(text -> withinLimit(name, text, Task.MAX_TEXT_LENGTH));
    }

    /**
     * Reads a required name or id, such as an agent name: a string that is not blank and not longer than
     * {@link Task#MAX_ID_LENGTH}.
     *
     * @param name the argument's name
     * @return the name, verbatim
     * @throws ToolArgumentException if it is missing, not a string, blank, too long, or holding a
     *     character no store can keep or a control character (a newline, a tab, an escape)
     */
    public String requiredName(String name) {
        String value = requiredString(name);
        if (value.isBlank()) {
            throw new ToolArgumentException("Argument '" + name + "' must not be blank; send a name.");
        }
        return oneLine(name, withinLimit(name, value, Task.MAX_ID_LENGTH));
    }

    /**
     * Reads an optional name or id. A blank value counts as absent.
     *
     * @param name the argument's name
     * @return the name, verbatim, or empty when absent or blank
     * @throws ToolArgumentException if present but not a string, too long, or holding a character no
     *     store can keep or a control character (a newline, a tab, an escape)
     */
    public Optional<String> optionalName(String name) {
        return optionalString(name)
                .filter(value -> !value.isBlank())
                .map(value -> oneLine(name, withinLimit(name, value, Task.MAX_ID_LENGTH)));
    }

    /**
     * Reads a required id of a stored thing, such as a task id: a positive integer.
     *
     * @param name the argument's name
     * @return the id
     * @throws ToolArgumentException if it is missing, not an integer, or not positive
     */
    public long requiredId(String name) {
        long id = requiredLong(name);
        if (id <= 0) {
            throw new ToolArgumentException("Argument '" + name + "' must be a positive id, not " + id + ".");
        }
        return id;
    }

    /**
     * Reads a required string that must be one of some choices, ignoring case and surrounding white
     * space.
     *
     * @param name the argument's name
     * @param choices the allowed values
     * @return the matching choice, as written in {@code choices}
     * @throws ToolArgumentException if it is missing or not one of the choices
     */
    public String requiredChoice(String name, Collection<String> choices) {
        return optionalChoice(name, choices).orElseThrow(() -> missing(name, "one of " + String.join(", ", choices)));
    }

    /**
     * Reads an optional string that must be one of some choices, ignoring case and surrounding white
     * space.
     *
     * @param name the argument's name
     * @param choices the allowed values
     * @return the matching choice, as written in {@code choices}; empty when absent
     * @throws ToolArgumentException if present but not one of the choices
     */
    public Optional<String> optionalChoice(String name, Collection<String> choices) {
        return optionalString(name).map(value -> {
            String wanted = value.strip();
            for (String choice : choices) {
                if (choice.equalsIgnoreCase(wanted)) {
                    return choice;
                }
            }
            throw new ToolArgumentException("Argument '" + name + "' is '" + Texts.abbreviate(value, 60)
                    + "'; use one of " + String.join(", ", choices) + ".");
        });
    }

    /**
     * Reads a required boolean; the strings {@code "true"} and {@code "false"} are read as booleans.
     *
     * @param name the argument's name
     * @return the value
     * @throws ToolArgumentException if it is missing or not a boolean
     */
    public boolean requiredBoolean(String name) {
        return optionalBoolean(name).orElseThrow(() -> missing(name, "a boolean"));
    }

    /**
     * Reads an optional boolean; the strings {@code "true"} and {@code "false"} are read as booleans.
     *
     * @param name the argument's name
     * @return the value, or empty when absent
     * @throws ToolArgumentException if present but not a boolean
     */
    public Optional<Boolean> optionalBoolean(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (value.isBoolean()) {
            return Optional.of(value.booleanValue());
        }
        if (value.isTextual()) {
            String text = value.textValue().strip();
            if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
                return Optional.of(Boolean.parseBoolean(text));
            }
        }
        throw new ToolArgumentException("Argument '" + name + "' must be true or false, not " + describe(value) + ".");
    }

    /**
     * Reads a required number, integer or decimal; a number written as a string of ASCII digits is read
     * as a number.
     *
     * @param name the argument's name
     * @return the value
     * @throws ToolArgumentException if it is missing or not a finite number
     */
    public double requiredNumber(String name) {
        return optionalNumber(name).orElseThrow(() -> missing(name, "a number"));
    }

    /**
     * Reads an optional number, integer or decimal; a number written as a string of ASCII digits is read
     * as a number.
     *
     * @param name the argument's name
     * @return the value, or empty when absent
     * @throws ToolArgumentException if present but not a finite number
     */
    public OptionalDouble optionalNumber(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return OptionalDouble.empty();
        }
        if (value.isNumber() && Double.isFinite(value.doubleValue())) {
            return OptionalDouble.of(value.doubleValue());
        }
        if (value.isTextual() && NUMBER_TEXT.matcher(value.textValue().strip()).matches()) {
            double number = Double.parseDouble(value.textValue().strip());
            if (Double.isFinite(number)) {
                return OptionalDouble.of(number);
            }
        }
        throw new ToolArgumentException("Argument '" + name + "' must be a number, not " + describe(value) + ".");
    }

    /**
     * Reads a required nested object, whose values are read with the same getters.
     *
     * @param name the argument's name
     * @return the object's arguments
     * @throws ToolArgumentException if it is missing or not an object
     */
    public ToolArguments requiredObject(String name) {
        return optionalObject(name).orElseThrow(() -> missing(name, "an object"));
    }

    /**
     * Reads an optional nested object, whose values are read with the same getters.
     *
     * @param name the argument's name
     * @return the object's arguments, or empty when absent
     * @throws ToolArgumentException if present but not an object
     */
    public Optional<ToolArguments> optionalObject(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isObject()) {
            throw new ToolArgumentException("Argument '" + name + "' must be an object, not " + describe(value) + ".");
        }
        return Optional.of(new ToolArguments((ObjectNode) value));
    }

    /**
     * Reads a required list of objects, each read with the same getters; a single object is read as a list
     * of one.
     *
     * @param name the argument's name
     * @return the objects in the order sent
     * @throws ToolArgumentException if it is missing or an element is not an object
     */
    public List<ToolArguments> requiredObjectList(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw missing(name, "an array of objects");
        }
        List<ToolArguments> result = new ArrayList<>();
        for (JsonNode element : elements(value)) {
            if (!element.isObject()) {
                throw new ToolArgumentException(
                        "Argument '" + name + "' must be an array of objects; it holds " + describe(element) + ".");
            }
            result.add(new ToolArguments((ObjectNode) element));
        }
        return List.copyOf(result);
    }

    /** @return the arguments as compact JSON */
    public String toJson() {
        return node.toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    private static Iterable<JsonNode> elements(JsonNode value) {
        if (value.isArray()) {
            return value::elements;
        }
        return () -> List.of(value).iterator();
    }

    private static long toLong(String name, JsonNode value) {
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        if (value.isFloatingPointNumber()
                && value.doubleValue() == Math.rint(value.doubleValue())
                && value.canConvertToLong()) {
            return value.longValue();
        }
        if (value.isTextual() && INTEGER_TEXT.matcher(value.textValue().strip()).matches()) {
            try {
                return Long.parseLong(value.textValue().strip());
            } catch (NumberFormatException e) {
                throw new ToolArgumentException("Argument '" + name + "' is out of range ("
                        + value.textValue().strip() + "); send a smaller integer.");
            }
        }
        if (value.isTextual() && isDigitsOfAnyScript(value.textValue().strip())) {
            throw new ToolArgumentException("Argument '" + name + "' must be an integer written with the digits 0-9,"
                    + " not " + describe(value) + ".");
        }
        throw new ToolArgumentException("Argument '" + name + "' must be an integer, not " + describe(value) + ".");
    }

    private static boolean isDigitsOfAnyScript(String text) {
        String digits = text.startsWith("-") || text.startsWith("+") ? text.substring(1) : text;
        return !digits.isEmpty() && digits.codePoints().allMatch(Character::isDigit);
    }

    private static String withinLimit(String name, String text, int limit) {
        if (text.length() > limit) {
            throw new ToolArgumentException("Argument '" + name + "' is " + text.length()
                    + " characters long; the limit is " + limit + ". Shorten it.");
        }
        return text;
    }

    private static String oneLine(String name, String value) {
        StorableText.controlCharacter(value).ifPresent(problem -> {
            throw new ToolArgumentException("Argument '" + name + "' contains " + problem
                    + "; a name is one line of printable text. Send it without that character.");
        });
        return value;
    }

    private static String storable(String name, String text) {
        StorableText.problem(text).ifPresent(problem -> {
            throw new ToolArgumentException("Argument '" + name + "' contains " + problem
                    + ", which cannot be stored. Remove it and send" + " the text again.");
        });
        return text;
    }

    private static ToolArgumentException missing(String name, String type) {
        return new ToolArgumentException("Missing required argument '" + name + "' (" + type + ").");
    }

    private static String describe(JsonNode value) {
        String text = Texts.abbreviate(value.toString(), 60);
        String type;
        if (value.isTextual()) {
            type = "the string";
        } else if (value.isNumber()) {
            type = "the number";
        } else if (value.isArray()) {
            type = "the array";
        } else if (value.isObject()) {
            type = "the object";
        } else if (value.isBoolean()) {
            type = "the boolean";
        } else {
            type = "the value";
        }
        return type + " " + text;
    }
}
